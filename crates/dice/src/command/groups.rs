//! `NxM {+ NxM}` groups shared by BarabaraDice, RerollDice and UpperDice.

use crate::ast::DiceGroup;
use crate::error::ParseError;
use crate::expr::{Grammar, parse_term};
use crate::lexer::Cursor;
use crate::profile::Rounding;

/// `groups := group {"+" group}`, `group := term LETTER term`. A `+` not followed by a whole
/// group is left unconsumed (UpperDice's modifier starts there).
pub fn parse(c: &mut Cursor<'_>, letter: char) -> Result<Vec<DiceGroup>, Box<ParseError>> {
    let mut groups = vec![parse_one(c, letter)?];
    loop {
        let mark = c.mark();
        if !c.eat_char('+') {
            return Ok(groups);
        }
        match parse_one(c, letter) {
            Ok(g) => groups.push(g),
            Err(_) => {
                c.reset(mark);
                return Ok(groups);
            }
        }
    }
}

fn parse_one(c: &mut Cursor<'_>, letter: char) -> Result<DiceGroup, Box<ParseError>> {
    let count = parse_term(c, Grammar::ARITHMETIC)?;
    if !c.eat_char(letter) {
        return Err(c.unexpected(match letter {
            'B' => "'B' (as in 3B6)",
            'R' => "'R' (as in 3R6)",
            _ => "'U' (as in 3U6)",
        }));
    }
    let sides = parse_term(c, Grammar::ARITHMETIC)?;
    Ok(DiceGroup { count, sides })
}

/// Evaluates each group's count and sides; a division by zero there is an error.
pub fn eval(
    groups: &[DiceGroup],
    rounding: Rounding,
) -> Result<Vec<(i64, i64)>, crate::error::EvalError> {
    groups
        .iter()
        .map(|g| {
            let n = crate::expr::eval_arith(&g.count, rounding).map_err(super::arith_error)?;
            let m = crate::expr::eval_arith(&g.sides, rounding).map_err(super::arith_error)?;
            Ok((n, m))
        })
        .collect()
}

/// Writes `NxM+NxM…`.
pub fn write(out: &mut String, groups: &[(i64, i64)], letter: char) {
    use std::fmt::Write;
    for (i, (n, m)) in groups.iter().enumerate() {
        if i > 0 {
            out.push('+');
        }
        let _ = write!(out, "{n}{letter}{m}");
    }
}
