//! §3.8 RerollDice: `NrM`, roll again for each die meeting a condition, count successes.

use super::{Eval, SEP, arith_error, groups, join_values};
use crate::ast::{CmpOp, Reroll, ThresholdAt};
use crate::error::ParseError;
use crate::expr::{Grammar, eval_arith, parse_add};
use crate::lexer::Cursor;
use crate::profile::Profile;
use crate::result::{Detail, RollResult};
use crate::roller::Roller;

/// Most groups rolled (originals and rerolls); past it rolling stops silently.
pub const MAX_GROUPS: usize = 10_000;

/// The message for a missing or impossible reroll condition.
pub const BAD_CONDITION: &str =
    "条件が間違っています。2R6>=5 あるいは 2R6[5] のように振り足し目標値を指定してください。";

/// `["S"] groups ( "[" [CMP] add "]" [CMP add] | [CMP add] ["@" [CMP] add] )`
pub fn parse(c: &mut Cursor<'_>, token: &str) -> Result<Reroll, Box<ParseError>> {
    let secret = c.eat_char('S');
    let groups = groups::parse(c, 'R')?;
    let mut reroll = None;
    if c.eat_char('[') {
        let op = c.eat_cmp()?;
        let t = parse_add(c, Grammar::ARITHMETIC)?;
        if !c.eat_char(']') {
            return Err(c.unexpected("']'"));
        }
        reroll = Some((ThresholdAt::Bracket, op, t));
    }
    let cmp = match c.eat_cmp()? {
        Some(op) => Some((op, parse_add(c, Grammar::ARITHMETIC)?)),
        None => None,
    };
    if reroll.is_none() && c.eat_char('@') {
        let op = c.eat_cmp()?;
        let t = parse_add(c, Grammar::ARITHMETIC)?;
        reroll = Some((ThresholdAt::At, op, t));
    }
    c.finish()?;
    Ok(Reroll {
        secret,
        raw: token.to_string(),
        groups,
        reroll,
        cmp,
    })
}

/// Whether a reroll condition can end for dice of `sides`.
fn condition_valid(op: CmpOp, threshold: i64, sides: i64) -> bool {
    match op {
        CmpOp::Le => threshold < sides,
        CmpOp::Lt => threshold <= sides,
        CmpOp::Ge => threshold > 1,
        CmpOp::Gt => threshold >= 1,
        CmpOp::Ne => (1..=sides).contains(&threshold),
        CmpOp::Eq => true,
    }
}

/// Rolls groups breadth-first, rerolling the dice that meet the condition.
pub fn eval(cmd: &Reroll, profile: &Profile, roller: &mut Roller<'_>) -> Eval {
    let sizes = groups::eval(&cmd.groups, profile.rounding)?;
    let cmp = match &cmd.cmp {
        Some((op, t)) => Some((*op, eval_arith(t, profile.rounding).map_err(arith_error)?)),
        None => None,
    };
    let written = match &cmd.reroll {
        Some((_, op, t)) => Some((*op, eval_arith(t, profile.rounding).map_err(arith_error)?)),
        None => None,
    };
    let reroll_op = written
        .and_then(|(op, _)| op)
        .or(cmp.map(|(op, _)| op))
        .unwrap_or(CmpOp::Ge);
    let threshold = written.map(|(_, t)| t).or(cmp.map(|(_, t)| t));
    let valid =
        threshold.is_some_and(|t| sizes.iter().all(|&(_, m)| condition_valid(reroll_op, t, m)));
    let Some(threshold) = threshold.filter(|_| valid) else {
        let mut r = RollResult::new(format!("{}{SEP}{BAD_CONDITION}", cmd.raw), Detail::Message);
        r.secret = cmd.secret;
        return Ok(Some(r));
    };

    let mut queue: std::collections::VecDeque<(i64, i64)> = sizes.iter().copied().collect();
    let mut rolled: Vec<crate::roller::Dice> = Vec::new();
    while let Some((n, m)) = queue.pop_front() {
        if rolled.len() >= MAX_GROUPS {
            break;
        }
        let mut dice = roller.roll_group(n, m)?;
        if profile.sort_barabara_dice {
            dice.sort_unstable();
        }
        let again = dice
            .iter()
            .filter(|&&v| reroll_op.holds(v, threshold))
            .count();
        if again > 0 {
            queue.push_back((again as i64, m));
        }
        rolled.push(dice);
    }
    let values: Vec<i64> = rolled.iter().flatten().copied().collect();
    let successes = cmp.map_or(0, |(op, t)| {
        values.iter().filter(|&&v| op.holds(v, t)).count()
    });

    let mut text = String::from("(");
    groups::write(&mut text, &sizes, 'R');
    text.push('[');
    if cmp.map(|(op, _)| op) != Some(reroll_op) {
        text.push_str(reroll_op.as_str());
    }
    text.push_str(&threshold.to_string());
    text.push(']');
    if let Some((op, t)) = cmp {
        text.push_str(op.as_str());
        text.push_str(&t.to_string());
    }
    text.push(')');
    text.push_str(SEP);
    for (i, group) in rolled.iter().enumerate() {
        if i > 0 {
            text.push_str(" + ");
        }
        join_values(&mut text, group, ",");
    }
    text.push_str(SEP);
    text.push_str("成功数");
    text.push_str(&successes.to_string());
    let mut result = RollResult::new(
        text,
        Detail::Count {
            values,
            successes: Some(successes),
        },
    );
    result.secret = cmd.secret;
    Ok(Some(result))
}
