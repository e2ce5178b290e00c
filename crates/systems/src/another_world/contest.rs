//! AW-2 contests (対決): `AW+5 VS AW+3`, or `AW+5 VS 8` when the reaction side cannot roll
//! and its achievement is its judgement value plus modifiers.
//!
//! Resolution, first matching line decides (AW-2):
//! 1. the action side fumbles → reaction wins, and the reaction side does not roll;
//! 2. the reaction side fumbles → action wins;
//! 3. both critical → reaction wins (reaction priority);
//! 4. action critical → action wins;
//! 5. reaction critical → reaction wins (our reading: a critical beats any achievement);
//! 6. higher achievement wins; a tie goes to the reaction (リアクション優先の法則).
//!
//! Flags: success = the action side wins, failure = the reaction side wins; critical and
//! fumble are the action side's roll.

use crate::srs::{self, Check};
use taku_dice::command::SEP;
use taku_dice::system_command::format_modifier;
use taku_dice::{Detail, EvalError, RollResult, Roller};

/// The reaction side: a check of its own, or a fixed achievement (it cannot roll).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reaction {
    /// Rolls as in AW-1.
    Rolls(Check),
    /// Judgement value plus modifiers, no dice: neither critical nor fumble.
    Fixed(i64),
}

/// A parsed contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contest {
    /// The acting side's check (no difficulty: the other side is the difficulty).
    pub action: Check,
    /// The opposing side.
    pub reaction: Reaction,
}

/// Why a contest ended as it did: the AW-2 line that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// 1. The action side fumbled; the reaction side did not roll.
    ActionFumble,
    /// 2. The reaction side fumbled.
    ReactionFumble,
    /// 3. Both critical: reaction priority.
    BothCritical,
    /// 4. The action side's critical.
    ActionCritical,
    /// 5. The reaction side's critical.
    ReactionCritical,
    /// 6. Achievements compared (a tie goes to the reaction).
    Achievement,
}

/// One side's roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Side {
    dice: [i64; 2],
    total: i64,
    critical: bool,
    fumble: bool,
}

/// Parses `LEFT VS RIGHT` (upper-cased, spaces removed) written with `notations`.
pub fn parse(command: &str, notations: &[&str]) -> Result<Option<Contest>, EvalError> {
    let Some((left, right)) = command.split_once("VS") else {
        return Ok(None);
    };
    // AW-2 has two sides; a third (`AW+5 VS AW+3 VS AW+1`) is refused, not dropped
    // (a blockade against several enemies is one contest each: /combat blockade).
    if let Some(at) = right.find("VS") {
        let at = left.len() + 2 + at;
        return Err(EvalError::Unsupported(Some(taku_dice::ParseError {
            span: at..at + 2,
            kind: taku_dice::ParseErrorKind::Unexpected {
                found: taku_dice::Found::Char('V'),
                expected: "the end of a two-sided contest (A VS B; one contest per opponent)",
            },
        })));
    }
    let Some((action, _)) = srs::parse_check(left, notations)? else {
        return Ok(None);
    };
    if action.target.is_some() {
        // In a contest the other side is the difficulty.
        return Ok(None);
    }
    let reaction = if let Some(n) = fixed(right) {
        Reaction::Fixed(n)
    } else {
        match srs::parse_check(right, notations)? {
            Some((check, _)) if check.target.is_none() => Reaction::Rolls(check),
            _ => return Ok(None),
        }
    };
    Ok(Some(Contest { action, reaction }))
}

/// `-?\d+([+-]\d+)*`: a fixed achievement such as `8` or `5+3`.
fn fixed(text: &str) -> Option<i64> {
    let mut total: i64 = 0;
    let mut rest = text;
    let mut sign = 1;
    if let Some(r) = rest.strip_prefix('-') {
        sign = -1;
        rest = r;
    }
    loop {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 15 {
            return None;
        }
        let n: i64 = rest[..digits].parse().ok()?;
        total = total.checked_add(sign * n)?;
        rest = &rest[digits..];
        match rest.as_bytes().first() {
            None => return Some(total),
            Some(b'+') => sign = 1,
            Some(b'-') => sign = -1,
            Some(_) => return None,
        }
        rest = &rest[1..];
    }
}

/// Rolls one side's two dice (sorted, as BCDice shows them).
pub fn roll_dice(roller: &mut Roller<'_>) -> Result<[i64; 2], EvalError> {
    let mut dice = roller.roll_group(2, 6)?;
    dice.sort_unstable();
    Ok([dice[0], dice[1]])
}

fn side_of(check: &Check, dice: [i64; 2]) -> Result<Side, EvalError> {
    let sum = dice[0] + dice[1];
    Ok(Side {
        dice,
        total: sum.checked_add(check.modifier).ok_or(EvalError::Overflow)?,
        critical: sum >= check.critical,
        fumble: sum <= check.fumble,
    })
}

fn roll_side(check: &Check, roller: &mut Roller<'_>) -> Result<Side, EvalError> {
    side_of(check, roll_dice(roller)?)
}

/// The action side's roll alone, as a contest's text words it (`2D6+3[12,2] ＞ 8[3,5]+3 ＞
/// 11`): the line of a contest declared before the reaction side is chosen (AW-2
/// 「アクション側が先に判定を行ない」). `None` when the sum overflows.
pub fn action_text(check: &Check, dice: [i64; 2]) -> Option<(String, bool)> {
    let side = side_of(check, dice).ok()?;
    Some((
        format!(
            "{}{SEP}アクション側 {}",
            check_text(check),
            side_text(check, &side)
        ),
        side.fumble,
    ))
}

fn side_text(check: &Check, side: &Side) -> String {
    let [a, b] = side.dice;
    let mut text = format!(
        "{}[{a},{b}]{}{SEP}{}",
        a + b,
        format_modifier(check.modifier),
        side.total
    );
    if side.fumble {
        text.push_str(SEP);
        text.push_str("ファンブル");
    } else if side.critical {
        text.push_str(SEP);
        text.push_str("クリティカル");
    }
    text
}

fn check_text(check: &Check) -> String {
    format!(
        "2D6{}[{},{}]",
        format_modifier(check.modifier),
        check.critical,
        check.fumble
    )
}

/// Rolls a contest: the action side, then (unless it fumbled) the reaction side.
pub fn roll(contest: &Contest, roller: &mut Roller<'_>) -> Result<RollResult, EvalError> {
    roll_veiled(contest, roller).map(|(result, _)| result)
}

/// [`roll`], with the contest also worded for those who may not see the reaction side's
/// numbers (an enemy whose data is the GM's, AW-3 対象識別): the action side's roll, the
/// reaction side's critical or fumble (what the table sees of any roll), and who won —
/// never its judgement value, dice or achievement.
pub fn roll_veiled(
    contest: &Contest,
    roller: &mut Roller<'_>,
) -> Result<(RollResult, String), EvalError> {
    let dice = roll_dice(roller)?;
    settle_veiled(contest, dice, roller)
}

/// [`roll_veiled`] for an action side already rolled (`action_dice`, the dice of a contest a
/// player declared): the reaction side rolls now, unless the action side fumbled.
pub fn settle_veiled(
    contest: &Contest,
    action_dice: [i64; 2],
    roller: &mut Roller<'_>,
) -> Result<(RollResult, String), EvalError> {
    let action = side_of(&contest.action, action_dice)?;
    let reaction_text = match contest.reaction {
        Reaction::Rolls(c) => check_text(&c),
        Reaction::Fixed(n) => n.to_string(),
    };
    let mut text = format!(
        "({} VS {reaction_text}){SEP}アクション側 {}",
        check_text(&contest.action),
        side_text(&contest.action, &action)
    );
    let mut veiled = format!(
        "({} VS ?){SEP}アクション側 {}",
        check_text(&contest.action),
        side_text(&contest.action, &action)
    );
    // AW-2 line 1: no reaction roll after an action fumble.
    let reaction = if action.fumble {
        text.push_str(" ／ リアクション側 判定なし");
        veiled.push_str(" ／ リアクション側 判定なし");
        None
    } else {
        match contest.reaction {
            Reaction::Rolls(check) => {
                let side = roll_side(&check, roller)?;
                text.push_str(&format!(" ／ リアクション側 {}", side_text(&check, &side)));
                veiled.push_str(if side.fumble {
                    " ／ リアクション側 ファンブル"
                } else if side.critical {
                    " ／ リアクション側 クリティカル"
                } else {
                    " ／ リアクション側 （非公開）"
                });
                Some(side)
            }
            Reaction::Fixed(n) => {
                text.push_str(&format!(" ／ リアクション側 {n}（固定値）"));
                veiled.push_str(" ／ リアクション側 （非公開）");
                Some(Side {
                    dice: [0, 0],
                    total: n,
                    critical: false,
                    fumble: false,
                })
            }
        }
    };
    let (decided, action_wins) = resolve(&action, reaction.as_ref());
    let why = match decided {
        Decided::ActionFumble => "アクション側のファンブル".to_string(),
        Decided::ReactionFumble => "リアクション側のファンブル".to_string(),
        Decided::BothCritical => "両者クリティカル（リアクション優先）".to_string(),
        Decided::ActionCritical => "アクション側のクリティカル".to_string(),
        Decided::ReactionCritical => "リアクション側のクリティカル".to_string(),
        Decided::Achievement => {
            let r = reaction.map_or(0, |s| s.total);
            if action.total == r {
                format!("達成値 {} 対 {r}（リアクション優先）", action.total)
            } else {
                format!("達成値 {} 対 {r}", action.total)
            }
        }
    };
    let winner = if action_wins {
        "アクション側の勝利"
    } else {
        "リアクション側の勝利"
    };
    text.push_str(&format!(" ／ {why}{SEP}{winner}"));
    let why_veiled = match decided {
        Decided::Achievement => "達成値の比較".to_string(),
        _ => why,
    };
    veiled.push_str(&format!(" ／ {why_veiled}{SEP}{winner}"));
    let mut result = RollResult::new(
        text,
        Detail::Sum {
            total: action.total,
            comparison: None,
        },
    );
    result = result.with_verdict(action_wins);
    result.critical = action.critical && !action.fumble;
    result.fumble = action.fumble;
    Ok((result, veiled))
}

/// AW-2's resolution order; `true` when the action side wins.
fn resolve(action: &Side, reaction: Option<&Side>) -> (Decided, bool) {
    let Some(reaction) = reaction else {
        return (Decided::ActionFumble, false);
    };
    if action.fumble {
        (Decided::ActionFumble, false)
    } else if reaction.fumble {
        (Decided::ReactionFumble, true)
    } else if action.critical && reaction.critical {
        (Decided::BothCritical, false)
    } else if action.critical {
        (Decided::ActionCritical, true)
    } else if reaction.critical {
        (Decided::ReactionCritical, false)
    } else {
        (Decided::Achievement, action.total > reaction.total)
    }
}

#[cfg(test)]
mod tests {
    use super::fixed;

    #[test]
    fn fixed_achievements() {
        assert_eq!(fixed("8"), Some(8));
        assert_eq!(fixed("5+3"), Some(8));
        assert_eq!(fixed("-2+10-1"), Some(7));
        assert_eq!(fixed("AW+3"), None);
        assert_eq!(fixed("5+"), None);
        assert_eq!(fixed(""), None);
        assert_eq!(fixed("9999999999999999"), None);
    }
}
