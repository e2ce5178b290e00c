//! §3.9 UpperDice: `NuM`, a die meeting the threshold is rolled again and added.

use super::{Eval, SEP, arith_error, groups};
use crate::ast::{ThresholdAt, Upper};
use crate::error::{EvalError, ParseError};
use crate::expr::{Grammar, eval_arith, parse_add, parse_mul};
use crate::lexer::Cursor;
use crate::profile::Profile;
use crate::result::{Detail, RollResult};
use crate::roller::{MAX_DRAWS, MAX_SIDES, Roller};
use crate::system_command::format_modifier;

/// `["S"] groups ["[" add "]"] [modifier] [CMP add] ["@" add]`, not both `[…]` and `@`.
pub fn parse(c: &mut Cursor<'_>) -> Result<Upper, Box<ParseError>> {
    let secret = c.eat_char('S');
    let groups = groups::parse(c, 'U')?;
    let mut threshold = None;
    if c.eat_char('[') {
        let t = parse_add(c, Grammar::ARITHMETIC)?;
        if !c.eat_char(']') {
            return Err(c.unexpected("']'"));
        }
        threshold = Some((ThresholdAt::Bracket, t));
    }
    let mut modifier = Vec::new();
    loop {
        let minus = if c.eat_char('+') {
            false
        } else if c.eat_char('-') {
            true
        } else {
            break;
        };
        modifier.push((minus, parse_mul(c, Grammar::ARITHMETIC)?));
    }
    let cmp = match c.eat_cmp()? {
        Some(op) => Some((op, parse_add(c, Grammar::ARITHMETIC)?)),
        None => None,
    };
    if c.at_char('@') {
        if threshold.is_some() {
            return Err(c.unexpected("no '@' when the threshold is already in '[…]'"));
        }
        c.bump();
        threshold = Some((ThresholdAt::At, parse_add(c, Grammar::ARITHMETIC)?));
    }
    c.finish()?;
    Ok(Upper {
        secret,
        groups,
        threshold,
        modifier,
        cmp,
    })
}

/// Rolls each die, adding rerolls while the last draw meets the threshold.
pub fn eval(cmd: &Upper, profile: &Profile, roller: &mut Roller<'_>) -> Eval {
    let rounding = profile.rounding;
    let sizes = groups::eval(&cmd.groups, rounding)?;
    let threshold = match &cmd.threshold {
        Some((_, t)) => eval_arith(t, rounding).map_err(arith_error)?,
        None => 0,
    };
    let mut modifier = 0i64;
    for (minus, term) in &cmd.modifier {
        let v = eval_arith(term, rounding).map_err(arith_error)?;
        modifier = if *minus {
            modifier.checked_sub(v)
        } else {
            modifier.checked_add(v)
        }
        .ok_or(EvalError::Overflow)?;
    }
    let cmp = match &cmd.cmp {
        Some((op, t)) => Some((*op, eval_arith(t, rounding).map_err(arith_error)?)),
        None => None,
    };

    let mut text = String::from("(");
    groups::write(&mut text, &sizes, 'U');
    text.push('[');
    text.push_str(&threshold.to_string());
    text.push(']');
    text.push_str(&format_modifier(modifier));
    if let Some((op, t)) = cmp {
        text.push_str(op.as_str());
        text.push_str(&t.to_string());
    }
    text.push(')');
    text.push_str(SEP);
    if threshold <= 1 {
        text.push_str("無限ロールの条件がまちがっています");
        let mut r = RollResult::new(text, Detail::Message);
        r.secret = cmd.secret;
        return Ok(Some(r));
    }

    // Attack pass 7, A7-9: whether the roll is refused for too many dice is decided from
    // the command, before a die is drawn, not from how many happened to explode (a
    // refused draw could be sent again until luck made it pass). Each die of m sides
    // exploding on t or more draws a geometric number of times, mean 1/(1-p), variance
    // p/(1-p)², p = (m-t+1)/m; refused when what is drawn already, the mean, 12 standard
    // deviations and 50 pass the draw limit. What passes runs past the limit only with a
    // chance below 1e-20 (then the roller's own limit refuses, as before).
    let (mut mean, mut variance) = (0.0f64, 0.0f64);
    for &(n, m) in &sizes {
        if n <= 0 || !(1..=MAX_SIDES).contains(&m) {
            continue;
        }
        #[allow(clippy::cast_precision_loss)]
        let (n, m) = (n as f64, m as f64);
        #[allow(clippy::cast_precision_loss)]
        let p = ((m - threshold as f64 + 1.0) / m).clamp(0.0, 1.0 - 1.0 / m);
        mean += n / (1.0 - p);
        variance += n * p / ((1.0 - p) * (1.0 - p));
    }
    #[allow(clippy::cast_precision_loss)]
    let (worst, limit) = (
        roller.draws().len() as f64 + mean + 12.0 * variance.sqrt() + 50.0,
        MAX_DRAWS as f64,
    );
    if worst > limit {
        return Err(EvalError::TooManyDice { limit: MAX_DRAWS });
    }

    // Each die: its draws, summed.
    let mut dice: Vec<Vec<i64>> = Vec::new();
    for &(n, m) in &sizes {
        if n < 0 {
            return Err(EvalError::NegativeCount);
        }
        let mut group = Vec::new();
        for _ in 0..n {
            let mut draws = vec![roller.roll_once(m)?];
            while *draws.last().expect("at least one draw") >= threshold {
                draws.push(roller.roll_once(m)?);
            }
            group.push(draws);
        }
        if profile.sort_barabara_dice {
            group.sort_by_key(|d| d.iter().sum::<i64>());
        }
        dice.extend(group);
    }
    let sums: Vec<i64> = dice.iter().map(|d| d.iter().sum()).collect();

    for (i, draws) in dice.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&sums[i].to_string());
        if draws.len() > 1 {
            text.push('[');
            super::join_values(&mut text, draws, ",");
            text.push(']');
        }
    }
    text.push_str(&format_modifier(modifier));
    text.push_str(SEP);
    let detail = match cmp {
        Some((op, t)) => {
            let k = sums
                .iter()
                .filter(|&&s| s.checked_add(modifier).is_some_and(|v| op.holds(v, t)))
                .count();
            text.push_str("成功数");
            text.push_str(&k.to_string());
            Detail::Count {
                values: sums,
                successes: Some(k),
            }
        }
        None => {
            let max = match sums.iter().max() {
                Some(m) => Some(m.checked_add(modifier).ok_or(EvalError::Overflow)?),
                None => None,
            };
            let total = sums
                .iter()
                .try_fold(modifier, |acc, &s| acc.checked_add(s))
                .ok_or(EvalError::Overflow)?;
            if let Some(max) = max {
                text.push_str(&max.to_string());
            }
            text.push('/');
            text.push_str(&total.to_string());
            text.push_str("(最大/合計)");
            Detail::MaxTotal {
                values: sums,
                max: max.unwrap_or(0),
                total,
            }
        }
    };
    let mut result = RollResult::new(text, detail);
    result.secret = cmd.secret;
    Ok(Some(result))
}
