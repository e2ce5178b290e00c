//! §3.2 BarabaraDice: `NbM`, dice kept separate, optionally counted against a target.

use super::{Eval, SEP, arith_error, groups, join_values};
use crate::ast::Barabara;
use crate::error::ParseError;
use crate::expr::{Grammar, eval_arith, parse_add};
use crate::lexer::Cursor;
use crate::profile::Profile;
use crate::result::{Detail, RollResult};
use crate::roller::Roller;

/// `command := ["S"] group {"+" group} [CMP_OP add]`
pub fn parse(c: &mut Cursor<'_>) -> Result<Barabara, Box<ParseError>> {
    let secret = c.eat_char('S');
    let groups = groups::parse(c, 'B')?;
    let cmp = match c.eat_cmp()? {
        Some(op) => Some((op, parse_add(c, Grammar::ARITHMETIC)?)),
        None => None,
    };
    c.finish()?;
    Ok(Barabara {
        secret,
        groups,
        cmp,
    })
}

/// Rolls each group and counts the dice meeting the target.
pub fn eval(cmd: &Barabara, profile: &Profile, roller: &mut Roller<'_>) -> Eval {
    let sizes = groups::eval(&cmd.groups, profile.rounding)?;
    let cmp = match &cmd.cmp {
        Some((op, t)) => Some((*op, eval_arith(t, profile.rounding).map_err(arith_error)?)),
        None => None,
    };
    let mut values = Vec::new();
    for &(n, m) in &sizes {
        let mut group = roller.roll_group(n, m)?;
        if profile.sort_barabara_dice {
            group.sort_unstable();
        }
        values.extend(group);
    }

    let mut text = String::from("(");
    groups::write(&mut text, &sizes, 'B');
    if let Some((op, t)) = cmp {
        text.push_str(op.as_str());
        text.push_str(&t.to_string());
    }
    text.push(')');
    text.push_str(SEP);
    join_values(&mut text, &values, ",");
    let successes = cmp.map(|(op, t)| values.iter().filter(|&&v| op.holds(v, t)).count());
    if let Some(k) = successes {
        text.push_str(SEP);
        text.push_str("成功数");
        text.push_str(&k.to_string());
    }
    let mut result = RollResult::new(text, Detail::Count { values, successes });
    result.secret = cmd.secret;
    Ok(Some(result))
}
