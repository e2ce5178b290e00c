//! SG-8 checks outside strict mode: `SGS+m>=t` (success iff dice + m ≥ t) and the contest
//! `SGS+m VS SGS+n` (the left side attacks, the right defends; the higher total wins; a tie
//! per the table's `contest_tie`, written `@D`, `@A` or `@R` after the right side).
//! Critical (raw dice 16 or more) and fumble (5 or less) stay BCDice's flags and decide
//! nothing. In strict mode neither form exists: `SGS>=5` gives no result and
//! `SGS+2 VS SGS+4` is BCDice's `SGS+2` with a comment.

use super::{CRITICAL_AT, FUMBLE_AT};
use serde::{Deserialize, Serialize};
use taku_dice::ast::CmpOp;
use taku_dice::command::SEP;
use taku_dice::system_command::{self, CommandSpec, format_modifier};
use taku_dice::{Detail, EvalError, Profile, RollResult, Roller};

/// `SGS` with a modifier and no target: BCDice's command (spec §5.3).
pub const PLAIN: CommandSpec<'static> = CommandSpec {
    notations: &["SGS"],
    critical: false,
    fumble: false,
    dollar: false,
    modifier: true,
    operators: &[],
    question_target: false,
};

/// `SGS+m>=t` (SG-8, outside strict mode).
/// SG-8 `SGS+m>=t`.
pub const TARGETED: CommandSpec<'static> = CommandSpec {
    operators: &[CmpOp::Ge],
    ..PLAIN
};

/// Who wins a contest's tie (SG-8, GM option `contest_tie`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tie {
    /// The defender (right side): the project default.
    #[default]
    Defender,
    /// The attacker (left side).
    Attacker,
    /// Both sides roll again.
    Reroll,
}

impl Tie {
    /// The suffix a contest carries for this rule (`@A`), empty for the default.
    pub fn suffix(self) -> &'static str {
        match self {
            Tie::Defender => "",
            Tie::Attacker => "@A",
            Tie::Reroll => "@R",
        }
    }
}

/// One 3D6 roll: the dice, the total with the modifier, BCDice's flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    /// The three dice as drawn.
    pub dice: Vec<i64>,
    /// Their sum.
    pub raw: i64,
    /// The sum plus the modifier.
    pub total: i64,
    /// Raw 16 or more.
    pub critical: bool,
    /// Raw 5 or less.
    pub fumble: bool,
}

/// Rolls 3D6 + `m`.
pub fn roll(m: i64, roller: &mut Roller<'_>) -> Result<Roll, EvalError> {
    let dice = roller.roll_group(3, 6)?;
    let raw: i64 = dice.iter().sum();
    let total = raw.checked_add(m).ok_or(EvalError::Overflow)?;
    let critical = raw >= CRITICAL_AT;
    Ok(Roll {
        dice: dice.to_vec(),
        raw,
        total,
        critical,
        fumble: !critical && raw <= FUMBLE_AT,
    })
}

/// BCDice's text after the head: `16[5,5,6] ＞ 16+10 ＞ 26 ＞ クリティカル`.
pub fn body(m: i64, r: &Roll) -> String {
    let shown: Vec<String> = r.dice.iter().map(i64::to_string).collect();
    let mut text = format!("{}[{}]", r.raw, shown.join(","));
    if m != 0 {
        text.push_str(&format!("{SEP}{}{}", r.raw, format_modifier(m)));
    }
    text.push_str(&format!("{SEP}{}", r.total));
    if r.critical {
        text.push_str(SEP);
        text.push_str("クリティカル");
    } else if r.fumble {
        text.push_str(SEP);
        text.push_str("ファンブル");
    }
    text
}

/// `SGS+m`: BCDice's check, byte for byte.
pub fn plain(m: i64, roller: &mut Roller<'_>) -> Result<RollResult, EvalError> {
    let r = roll(m, roller)?;
    let text = format!("(3D6{}){SEP}{}", format_modifier(m), body(m, &r));
    Ok(flagged(text, &r))
}

fn flagged(text: String, r: &Roll) -> RollResult {
    let mut result = RollResult::new(
        text,
        Detail::Sum {
            total: r.total,
            comparison: None,
        },
    );
    result.critical = r.critical;
    result.fumble = r.fumble;
    result
}

/// SG-8 `SGS+m>=t`: `None` when `command` is not that form.
pub fn targeted(command: &str, roller: &mut Roller<'_>) -> Result<Option<RollResult>, EvalError> {
    let Some(cmd) = system_command::parse(command, &TARGETED, Profile::DEFAULT.rounding)? else {
        return Ok(None);
    };
    let Some((CmpOp::Ge, Some(target))) = cmd.cmp else {
        return Ok(None);
    };
    let m = cmd.modify_number;
    let r = roll(m, roller)?;
    let success = r.total >= target;
    let text = format!(
        "(3D6{}>={target}){SEP}{}{SEP}{}",
        format_modifier(m),
        body(m, &r),
        if success { "成功" } else { "失敗" }
    );
    Ok(Some(flagged(text, &r).with_verdict(success)))
}

/// A parsed contest: the attacker's and defender's modifiers and the tie rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contest {
    /// The left side's modifier.
    pub attacker: i64,
    /// The right side's modifier.
    pub defender: i64,
    /// Who wins a tie.
    pub tie: Tie,
}

/// Parses `SGS+mVSSGS+n[@D|@A|@R]` (upper-cased, the spaces around `VS` removed).
pub fn parse_contest(command: &str) -> Result<Option<Contest>, EvalError> {
    let Some((left, right)) = command.split_once("VS") else {
        return Ok(None);
    };
    // SG-8 (l.192–201): an attacker and a defender; a third side is refused, not
    // dropped.
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
    let (right, tie) = match right.rsplit_once('@') {
        Some((r, "D")) => (r, Tie::Defender),
        Some((r, "A")) => (r, Tie::Attacker),
        Some((r, "R")) => (r, Tie::Reroll),
        Some(_) => return Ok(None),
        None => (right, Tie::Defender),
    };
    let rounding = Profile::DEFAULT.rounding;
    let Some(a) = system_command::parse(left, &PLAIN, rounding)? else {
        return Ok(None);
    };
    let Some(d) = system_command::parse(right, &PLAIN, rounding)? else {
        return Ok(None);
    };
    Ok(Some(Contest {
        attacker: a.modify_number,
        defender: d.modify_number,
        tie,
    }))
}

/// Most rounds of a contest whose ties are re-rolled, before the defender takes it.
pub const MAX_REROLLS: usize = 100;

/// SG-8's contest: the attacker rolls, then the defender; the higher total wins.
/// Success = the attacker wins; critical and fumble are the attacker's deciding roll's.
pub fn contest(c: &Contest, roller: &mut Roller<'_>) -> Result<RollResult, EvalError> {
    let (fa, fd) = (format_modifier(c.attacker), format_modifier(c.defender));
    let mut text = format!("(3D6{fa} VS 3D6{fd}{})", c.tie.suffix());
    let mut rounds = 0;
    let (attacker_wins, last) = loop {
        rounds += 1;
        let a = roll(c.attacker, roller)?;
        let d = roll(c.defender, roller)?;
        text.push_str(&format!(
            "{SEP}攻撃側 {} ／ 防御側 {}",
            body(c.attacker, &a),
            body(c.defender, &d)
        ));
        if a.total != d.total {
            break (a.total > d.total, a);
        }
        match c.tie {
            Tie::Defender => {
                text.push_str(" ／ 同値（防御側の勝ち）");
                break (false, a);
            }
            Tie::Attacker => {
                text.push_str(" ／ 同値（攻撃側の勝ち）");
                break (true, a);
            }
            Tie::Reroll if rounds < MAX_REROLLS => text.push_str(" ／ 同値（振り直し）"),
            Tie::Reroll => {
                text.push_str(" ／ 同値（振り直しの上限、防御側の勝ち）");
                break (false, a);
            }
        }
    };
    text.push_str(SEP);
    text.push_str(if attacker_wins {
        "攻撃側の勝利"
    } else {
        "防御側の勝利"
    });
    Ok(flagged(text, &last).with_verdict(attacker_wins))
}

/// The words of an SG check's result text (SG-8, SG-6), Japanese then English, longest
/// first so a phrase is replaced before the words inside it.
const ENGLISH: [(&str, &str); 13] = [
    (
        "同値（振り直しの上限、防御側の勝ち）",
        "tie (re-roll limit reached, defender wins)",
    ),
    ("同値（防御側の勝ち）", "tie (defender wins)"),
    ("同値（攻撃側の勝ち）", "tie (attacker wins)"),
    ("同値（振り直し）", "tie (re-roll)"),
    ("攻撃側の勝利", "attacker wins"),
    ("防御側の勝利", "defender wins"),
    ("攻撃側 ", "attacker "),
    ("防御側 ", "defender "),
    ("の偽装 ", "'s disguise "),
    (" ／ 振り直し ", " / re-roll "),
    ("クリティカル", "critical"),
    ("ファンブル", "fumble"),
    (" ／ ", " / "),
];

/// An SG check's result text as an English table shows it (the log keeps BCDice's
/// Japanese): `(3D6+3>=12) ＞ 14[5,5,4] ＞ 14+3 ＞ 17 ＞ success`.
pub fn english(text: &str) -> String {
    let mut out = text.to_string();
    for (ja, en) in ENGLISH {
        out = out.replace(ja, en);
    }
    out.replace("成功", "success").replace("失敗", "failure")
}

#[cfg(test)]
mod tests {
    use super::*;
    use taku_dice::odds::{Limits, Prob};

    fn p(n: u32, d: u32) -> Prob {
        Prob::new(n.into(), d.into())
    }

    #[test]
    fn sg8_exact_odds_of_the_target_and_contest_forms() {
        let sg = crate::find("Sengensyou").expect("Sengensyou");
        // 3D6+3 >= 12: the dice at 9 or more, 160 of 216; critical 16+ 10/216, fumble 5- 10/216.
        let s = crate::odds(sg, "SGS+3>=12", Limits::default())
            .expect("odds")
            .summary();
        assert_eq!(s.success, p(160, 216));
        assert_eq!(s.failure, p(56, 216));
        assert_eq!(s.critical, p(10, 216));
        assert_eq!(s.fumble, p(10, 216));
        // Equal modifiers: the attacker wins when strictly higher, (1 - P(tie)) / 2, with
        // P(tie) = Σ P(k)² = 4332/46656; the defender takes the ties (contest_tie default).
        let s = crate::odds(sg, "SGS VS SGS", Limits::default())
            .expect("odds")
            .summary();
        assert_eq!(s.success, p(21162, 46656));
        assert_eq!(s.failure, p(25494, 46656));
        let s = crate::odds(sg, "SGS VS SGS@A", Limits::default())
            .expect("odds")
            .summary();
        assert_eq!(s.success, p(25494, 46656));
        assert_eq!(s.critical, p(10, 216));
    }

    #[test]
    fn contests_parse_with_their_tie_rule() {
        let c = parse_contest("SGS+2VSSGS+4").expect("ok").expect("contest");
        assert_eq!((c.attacker, c.defender, c.tie), (2, 4, Tie::Defender));
        let c = parse_contest("SGSVSSGS-1@R").expect("ok").expect("contest");
        assert_eq!((c.attacker, c.defender, c.tie), (0, -1, Tie::Reroll));
        assert_eq!(parse_contest("SGS+2VS").expect("ok"), None);
        assert_eq!(parse_contest("SGS+2VSSGS@X").expect("ok"), None);
        assert_eq!(parse_contest("SGS+2VS5").expect("ok"), None);
        // SG-8: one attacker, one defender.
        assert!(parse_contest("SGS+3VSSGS+3VSSGS+3").is_err());
    }
}

/// SG-8: the exact odds of a contest whose ties are re-rolled (`@R`): each round is
/// decided with the same chances, so the chance of an outcome decided in round k is
/// P(tie)^(k−1) × P(outcome in a round), summed over the rounds the roll makes (at most
/// [`MAX_REROLLS`]; a tie in the last one goes to the defender, as the roll does). The
/// outcome's value and flags are the deciding round's attacker's, as the roll reports.
pub fn reroll_contest_odds(
    c: &Contest,
    limits: taku_dice::odds::Limits,
) -> Result<taku_dice::odds::Odds, taku_dice::odds::OddsError> {
    use num_bigint::BigUint;
    use std::collections::BTreeMap;
    use taku_dice::odds::{Odds, OddsError, Outcome, Prob};
    // 3D6 raw totals and their counts out of 216.
    let mut counts = [0u32; 19];
    for a in 1..=6 {
        for b in 1..=6 {
            for d in 1..=6 {
                counts[(a + b + d) as usize] += 1;
            }
        }
    }
    let n = BigUint::from(216u32 * 216);
    let mut decided: BTreeMap<Outcome, BigUint> = BTreeMap::new();
    let mut tied: BTreeMap<Outcome, BigUint> = BTreeMap::new();
    let mut ties = BigUint::from(0u32);
    for (ra, ca) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
        let raw = ra as i64;
        let a = raw
            .checked_add(c.attacker)
            .ok_or(OddsError::Eval(EvalError::Overflow))?;
        let critical = raw >= CRITICAL_AT;
        let fumble = !critical && raw <= FUMBLE_AT;
        for (rd, cd) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
            let d = (rd as i64)
                .checked_add(c.defender)
                .ok_or(OddsError::Eval(EvalError::Overflow))?;
            let weight = BigUint::from(ca * cd);
            let outcome = |success: bool| Outcome {
                value: Some(a),
                success,
                failure: !success,
                critical,
                fumble,
            };
            if a == d {
                ties += &weight;
                *tied.entry(outcome(false)).or_default() += weight;
            } else {
                *decided.entry(outcome(a > d)).or_default() += weight;
            }
        }
    }
    let rounds = MAX_REROLLS as u32;
    // Σ_{j<rounds} ties^j · n^(rounds−1−j), over n^rounds.
    let mut series = BigUint::from(0u32);
    for j in 0..rounds {
        series += ties.pow(j) * n.pow(rounds - 1 - j);
    }
    let den = n.pow(rounds);
    let last = ties.pow(rounds - 1);
    let mut all: BTreeMap<Outcome, BigUint> = BTreeMap::new();
    for (o, w) in decided {
        *all.entry(o).or_default() += w * &series;
    }
    for (o, w) in tied {
        *all.entry(o).or_default() += w * &last;
    }
    Ok(Odds {
        outcomes: all
            .into_iter()
            .map(|(o, num)| (o, Prob::new(num, den.clone())))
            .collect(),
        tail: Prob::from_integer(BigUint::from(0u32)),
        max_draws: limits.max_draws,
        cut_below: limits.cut_below,
        paths: 216 * 216,
    })
}

#[cfg(test)]
mod reroll_odds_tests {
    use num_traits::{One, ToPrimitive};
    use taku_dice::odds::{Limits, Prob};

    /// SG-8 `contest_tie = reroll`: the exact odds sum to 1 and match a direct reading:
    /// P(attacker wins) = w·(1 − t^100)/(1 − t), with w and t one round's chances.
    #[test]
    fn sg8_reroll_contest_odds_are_exact() {
        let sg = crate::find("Sengensyou").expect("Sengensyou");
        let odds = crate::odds(sg, "SGS+2 VS SGS+4@R", Limits::default()).expect("odds");
        let total = odds
            .outcomes
            .iter()
            .fold(Prob::from_integer(0u32.into()), |a, (_, p)| a + p);
        assert_eq!(total, Prob::one());
        let s = odds.summary();
        // Equal modifiers: by symmetry the attacker wins (1 − t^100)/2 of the time.
        let even = crate::odds(sg, "SGS VS SGS@R", Limits::default())
            .expect("odds")
            .summary();
        let t = Prob::new(4332u32.into(), 46656u32.into());
        let mut t100 = Prob::one();
        for _ in 0..100 {
            t100 *= &t;
        }
        assert_eq!(
            even.success,
            (Prob::one() - t100) / Prob::from_integer(2u32.into())
        );
        // −2 behind: well under a half, and above the defender-takes-ties chance.
        let x = s.success.to_f64().expect("a number");
        let d = crate::odds(sg, "SGS+2 VS SGS+4", Limits::default())
            .expect("odds")
            .summary()
            .success
            .to_f64()
            .expect("a number");
        assert!(d < x && x < 0.5, "{d} {x}");
    }
}
