//! §3.3 TallyDice: `NTYM` / `NTZM`, how many dice showed each face.

use super::{Eval, SEP, arith_error, join_values};
use crate::ast::Tally;
use crate::error::ParseError;
use crate::expr::{Grammar, eval_arith, parse_term};
use crate::lexer::Cursor;
use crate::profile::Profile;
use crate::result::{Detail, RollResult};
use crate::roller::Roller;

/// Most faces a tally can count.
pub const MAX_TALLY_SIDES: i64 = 20;

/// `command := ["S"] term "T" ("Y"|"Z") term`
pub fn parse(c: &mut Cursor<'_>) -> Result<Tally, Box<ParseError>> {
    let secret = c.eat_char('S');
    let count = parse_term(c, Grammar::ARITHMETIC)?;
    if !c.eat_char('T') {
        return Err(c.unexpected("'TY' or 'TZ' (as in 5TY6)"));
    }
    let show_zeros = if c.eat_char('Z') {
        true
    } else if c.eat_char('Y') {
        false
    } else {
        return Err(c.unexpected("'Y' or 'Z' (as in 5TY6)"));
    };
    let sides = parse_term(c, Grammar::ARITHMETIC)?;
    c.finish()?;
    Ok(Tally {
        secret,
        count,
        sides,
        show_zeros,
    })
}

/// Rolls and tallies.
pub fn eval(cmd: &Tally, profile: &Profile, roller: &mut Roller<'_>) -> Eval {
    let n = eval_arith(&cmd.count, profile.rounding).map_err(arith_error)?;
    let m = eval_arith(&cmd.sides, profile.rounding).map_err(arith_error)?;
    if n <= 0 || m <= 0 {
        return Ok(None);
    }
    let head = format!("({n}T{}{m})", if cmd.show_zeros { 'Z' } else { 'Y' });
    if m > MAX_TALLY_SIDES {
        // Never secret: the message is about the command, not a roll.
        return Ok(Some(RollResult::new(
            format!("{head}{SEP}面数は1以上、20以下としてください"),
            Detail::Message,
        )));
    }
    let mut values = roller.roll_group(n, m)?;
    if profile.sort_barabara_dice {
        values.sort_unstable();
    }
    let faces = usize::try_from(m).expect("m is within 1..=20");
    let mut counts = vec![0usize; faces];
    for &v in &values {
        if let Some(slot) = usize::try_from(v - 1).ok().and_then(|i| counts.get_mut(i)) {
            *slot += 1;
        }
    }
    let mut text = head;
    text.push_str(SEP);
    join_values(&mut text, &values, ",");
    text.push_str(SEP);
    let mut first = true;
    for (face, &count) in counts.iter().enumerate() {
        if count == 0 && !cmd.show_zeros {
            continue;
        }
        if !first {
            text.push_str(", ");
        }
        first = false;
        text.push_str(&format!("[{}]×{count}", face + 1));
    }
    let mut result = RollResult::new(text, Detail::Tally { counts });
    result.secret = cmd.secret;
    Ok(Some(result))
}
