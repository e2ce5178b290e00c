//! §3.6 D66Dice: two d6 read as tens and units.

use super::{Eval, SEP};
use crate::ast::D66;
use crate::lexer::upcase;
use crate::profile::{D66Order, Profile};
use crate::result::{Detail, RollResult};
use crate::roller::Roller;

/// The first token, upper-cased, must be exactly `[S]D66[A|N|S|D]`.
pub fn parse(token: &str) -> Option<D66> {
    let up: String = token.chars().map(upcase).collect();
    let (secret, rest) = match up.strip_prefix('S') {
        Some(rest) if rest.starts_with("D66") => (true, rest),
        _ => (false, up.as_str()),
    };
    let suffix = rest.strip_prefix("D66")?;
    let suffix = match suffix {
        "" => None,
        "A" | "N" | "S" | "D" => suffix.chars().next(),
        _ => return None,
    };
    Some(D66 { secret, suffix })
}

/// Rolls a D66.
pub fn eval(cmd: &D66, profile: &Profile, roller: &mut Roller<'_>) -> Eval {
    let order = match cmd.suffix {
        Some('A' | 'S') => D66Order::Ascending,
        Some('D') => D66Order::Descending,
        Some(_) => D66Order::AsRolled,
        None => profile.d66_order,
    };
    let value = roller.roll_d66(order)?;
    let suffix = cmd.suffix.map(String::from).unwrap_or_default();
    let mut result = RollResult::new(
        format!("(D66{suffix}){SEP}{value}"),
        Detail::D66(u32::try_from(value).unwrap_or(0)),
    );
    result.secret = cmd.secret;
    Ok(Some(result))
}
