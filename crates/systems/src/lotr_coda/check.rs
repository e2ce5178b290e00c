//! LR-9 to LR-11: tests (判定) and their degrees.
//!
//! - `LOTR+m>=t` a test: 2d6 + m against TN t (LR-9); `LOTR+m` the total alone;
//! - `LOTR+m VS N` a bare number is a TN: an ordinary test whose tie is a Marginal
//!   Success (LR-11);
//! - `LOTR+m VS LOTR+n` an opposed test: the higher total wins, a tie is re-tested
//!   (LR-11); `#DODGE` attack vs dodge (a tie hits), `#PARRY` attack vs parry/block (a tie
//!   is parried);
//! - `LOTRG+m>=t[h1,h2,…]` a group test (LR-10): the leader tests, every helper tests at
//!   TN − 5 with their own modifier and adds a bonus by degree; `#MP` is the GM option
//!   `group_bonus = marginal_plus_one`.
//!
//! Every test explodes (LR-9): a double six adds one more d6, and another while that d6
//! shows 6. Damage rolls are the common `2D6+4` and never explode.
//!
//! Flags: `success` iff margin ≥ 0 (in an opposed test: the left side wins), `critical`
//! on an Extraordinary Success of the left side, `fumble` on its Disastrous Failure.

use taku_dice::ast::CmpOp;
use taku_dice::command::SEP;
use taku_dice::result::Comparison;
use taku_dice::system_command::format_modifier;
use taku_dice::{Detail, EvalError, RollResult, Roller};

/// Most helpers in one group test (a bound on hostile input; a fellowship is nine).
pub const MAX_HELPERS: usize = 20;
/// The helpers' TN is the leader's TN minus this (LR-10).
pub const HELPER_TN_OFFSET: i64 = 5;

/// LR-9: the degree of a test, by margin = total − TN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Degree {
    /// ≤ −11.
    DisastrousFailure,
    /// −10..−6.
    CompleteFailure,
    /// −5..−1 (a retry at −2 may be allowed).
    Failure,
    /// 0.
    MarginalSuccess,
    /// +1..+5, time ×0.75.
    CompleteSuccess,
    /// +6..+10, time ×0.5.
    SuperiorSuccess,
    /// ≥ +11, time ×0.25, next action favoured.
    ExtraordinarySuccess,
}

impl Degree {
    /// Every degree, worst first.
    pub const ALL: [Degree; 7] = [
        Degree::DisastrousFailure,
        Degree::CompleteFailure,
        Degree::Failure,
        Degree::MarginalSuccess,
        Degree::CompleteSuccess,
        Degree::SuperiorSuccess,
        Degree::ExtraordinarySuccess,
    ];

    /// LR-9: the degree of a margin (the seed prints 「11-」 at both ends; §3.6 confirms
    /// ≥ +11 for Extraordinary).
    pub fn of(margin: i64) -> Degree {
        match margin {
            i64::MIN..=-11 => Degree::DisastrousFailure,
            -10..=-6 => Degree::CompleteFailure,
            -5..=-1 => Degree::Failure,
            0 => Degree::MarginalSuccess,
            1..=5 => Degree::CompleteSuccess,
            6..=10 => Degree::SuperiorSuccess,
            _ => Degree::ExtraordinarySuccess,
        }
    }

    /// The lowest margin of this degree (`None` for Disastrous: unbounded below).
    pub fn lowest_margin(self) -> Option<i64> {
        Some(match self {
            Degree::DisastrousFailure => return None,
            Degree::CompleteFailure => -10,
            Degree::Failure => -5,
            Degree::MarginalSuccess => 0,
            Degree::CompleteSuccess => 1,
            Degree::SuperiorSuccess => 6,
            Degree::ExtraordinarySuccess => 11,
        })
    }

    /// Whether it is a success (margin ≥ 0).
    pub fn is_success(self) -> bool {
        self >= Degree::MarginalSuccess
    }

    /// The rulebook's name (the seed uses the English terms).
    pub fn name(self) -> &'static str {
        match self {
            Degree::DisastrousFailure => "Disastrous Failure",
            Degree::CompleteFailure => "Complete Failure",
            Degree::Failure => "Failure",
            Degree::MarginalSuccess => "Marginal Success",
            Degree::CompleteSuccess => "Complete Success",
            Degree::SuperiorSuccess => "Superior Success",
            Degree::ExtraordinarySuccess => "Extraordinary Success",
        }
    }

    /// LR-9: the time factor a success brings, as printed (`×0.75`); none otherwise.
    pub fn time_factor(self) -> Option<&'static str> {
        match self {
            Degree::CompleteSuccess => Some("×0.75"),
            Degree::SuperiorSuccess => Some("×0.5"),
            Degree::ExtraordinarySuccess => Some("×0.25"),
            _ => None,
        }
    }

    /// The name with its time factor: `Superior Success（時間×0.5）`.
    pub fn label(self) -> String {
        match self.time_factor() {
            Some(t) => format!("{}（時間{t}）", self.name()),
            None => self.name().to_string(),
        }
    }

    /// LR-10: what a helper of this degree adds to the leader's total. Our reading
    /// (`group_bonus = literal`, the default): failure +0, Marginal +0, Complete +1,
    /// Superior +2, Extraordinary +3; `marginal_plus_one` makes Marginal +1.
    pub fn group_bonus(self, marginal_plus_one: bool) -> i64 {
        match self {
            Degree::MarginalSuccess if marginal_plus_one => 1,
            Degree::CompleteSuccess => 1,
            Degree::SuperiorSuccess => 2,
            Degree::ExtraordinarySuccess => 3,
            _ => 0,
        }
    }
}

/// An opposed test's named variant (LR-11, LR-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// A tie is re-tested.
    #[default]
    Retest,
    /// Attack vs dodge: a tie hits (the left side wins with margin 0).
    Dodge,
    /// Attack vs parry/block: a tie is parried (the right side wins).
    Parry,
}

/// One parsed test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    /// `LOTR+m>=t`, `LOTR+m VS N` (`versus`), or `LOTR+m` (no TN).
    Single {
        /// The modifier.
        modifier: i64,
        /// The TN.
        tn: Option<i64>,
        /// Written `VS N`.
        versus: bool,
    },
    /// `LOTR+m VS LOTR+n`.
    Opposed {
        /// The left side's modifier.
        left: i64,
        /// The right side's modifier.
        right: i64,
        /// How a tie ends.
        variant: Variant,
    },
    /// `LOTRG+m>=t[h1,…]`.
    Group {
        /// The leader's modifier.
        leader: i64,
        /// The TN.
        tn: i64,
        /// The helpers' modifiers.
        helpers: Vec<i64>,
        /// `#MP`: a Marginal helper adds +1.
        marginal_plus_one: bool,
    },
}

/// One side's dice in one test: the dice as drawn and the total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rolled {
    /// Every die, the two first and the added ones after.
    pub dice: Vec<i64>,
    /// The modifier.
    pub modifier: i64,
    /// Dice + modifier.
    pub total: i64,
}

impl Rolled {
    /// LR-9: the dice's sum.
    pub fn sum(&self) -> i64 {
        self.dice.iter().sum()
    }

    /// `20[6,6,6,2]+7 ＞ 27`.
    pub fn text(&self) -> String {
        let dice: Vec<String> = self.dice.iter().map(i64::to_string).collect();
        format!(
            "{}[{}]{}{SEP}{}",
            self.sum(),
            dice.join(","),
            format_modifier(self.modifier),
            self.total
        )
    }
}

/// LR-9: rolls 2d6 and, on a double six, one more d6 and again while it shows 6.
pub fn roll_test(modifier: i64, roller: &mut Roller<'_>) -> Result<Rolled, EvalError> {
    let mut dice = vec![roller.roll_once(6)?, roller.roll_once(6)?];
    if dice[0] == 6 && dice[1] == 6 {
        loop {
            // The roller's draw limit bounds the chain.
            let d = roller.roll_once(6)?;
            dice.push(d);
            if d != 6 {
                break;
            }
        }
    }
    let sum: i64 = dice.iter().sum();
    Ok(Rolled {
        total: sum.checked_add(modifier).ok_or(EvalError::Overflow)?,
        dice,
        modifier,
    })
}

/// Parses one of the system's commands (upper-cased, without the secret `S`, a `VS`
/// already joined). `Ok(None)`: not a LotR test.
pub fn parse(command: &str) -> Result<Option<Test>, EvalError> {
    let (body, options) = match command.split_once('#') {
        Some((b, o)) => (b, Some(o)),
        None => (command, None),
    };
    if let Some(rest) = body.strip_prefix("LOTRG") {
        let marginal_plus_one = match options {
            None => false,
            Some("MP") => true,
            Some(_) => return Ok(None),
        };
        return group(rest, marginal_plus_one);
    }
    let Some(rest) = body.strip_prefix("LOTR") else {
        return Ok(None);
    };
    if let Some((left, right)) = rest.split_once("VS") {
        let Some(left) = modifiers(left)? else {
            return Ok(None);
        };
        if let Some(r) = right.strip_prefix("LOTR") {
            let variant = match options {
                None => Variant::Retest,
                Some("DODGE") => Variant::Dodge,
                Some("PARRY") => Variant::Parry,
                Some(_) => return Ok(None),
            };
            return Ok(modifiers(r)?.map(|right| Test::Opposed {
                left,
                right,
                variant,
            }));
        }
        if options.is_some() {
            return Ok(None);
        }
        return Ok(fixed(right)?.map(|tn| Test::Single {
            modifier: left,
            tn: Some(tn),
            versus: true,
        }));
    }
    if options.is_some() {
        return Ok(None);
    }
    let (mods, tn) = match rest.split_once(">=") {
        Some((m, t)) => match fixed(t)? {
            Some(t) => (m, Some(t)),
            None => return Ok(None),
        },
        None => (rest, None),
    };
    Ok(modifiers(mods)?.map(|modifier| Test::Single {
        modifier,
        tn,
        versus: false,
    }))
}

/// `+m>=t[h1,h2]`.
fn group(rest: &str, marginal_plus_one: bool) -> Result<Option<Test>, EvalError> {
    let Some((head, helpers)) = rest.split_once('[') else {
        return Ok(None);
    };
    let Some(helpers) = helpers.strip_suffix(']') else {
        return Ok(None);
    };
    let Some((mods, tn)) = head.split_once(">=") else {
        return Ok(None);
    };
    let (Some(leader), Some(tn)) = (modifiers(mods)?, fixed(tn)?) else {
        return Ok(None);
    };
    let mut list = Vec::new();
    for h in helpers.split(',') {
        match fixed(h.trim())? {
            Some(m) => list.push(m),
            None => match modifiers(h.trim())? {
                Some(m) if !h.trim().is_empty() => list.push(m),
                _ => return Ok(None),
            },
        }
    }
    if list.is_empty() || list.len() > MAX_HELPERS {
        return Ok(None);
    }
    Ok(Some(Test::Group {
        leader,
        tn,
        helpers: list,
        marginal_plus_one,
    }))
}

/// `([+-]\d+)*` summed; `None` if it is not that (the shared parser, [`crate::signed`]).
pub fn modifiers(text: &str) -> Result<Option<i64>, EvalError> {
    crate::signed::modifiers(text, 12)
}

/// `-?\d+([+-]\d+)*`: a fixed value (the shared parser, [`crate::signed`]).
fn fixed(text: &str) -> Result<Option<i64>, EvalError> {
    crate::signed::fixed(text, 12)
}

/// The command as printed back: `LOTR+7>=15`, `LOTR+5 VS LOTR+3#DODGE`.
pub fn print(test: &Test) -> String {
    match test {
        Test::Single {
            modifier,
            tn,
            versus,
        } => match (tn, versus) {
            (Some(t), true) => format!("LOTR{} VS {t}", format_modifier(*modifier)),
            (Some(t), false) => format!("LOTR{}>={t}", format_modifier(*modifier)),
            (None, _) => format!("LOTR{}", format_modifier(*modifier)),
        },
        Test::Opposed {
            left,
            right,
            variant,
        } => format!(
            "LOTR{} VS LOTR{}{}",
            format_modifier(*left),
            format_modifier(*right),
            match variant {
                Variant::Retest => "",
                Variant::Dodge => "#DODGE",
                Variant::Parry => "#PARRY",
            }
        ),
        Test::Group {
            leader,
            tn,
            helpers,
            marginal_plus_one,
        } => {
            let h: Vec<String> = helpers
                .iter()
                .map(|m| {
                    if *m == 0 {
                        "0".to_string()
                    } else {
                        format_modifier(*m)
                    }
                })
                .collect();
            format!(
                "LOTRG{}>={tn}[{}]{}",
                format_modifier(*leader),
                h.join(","),
                if *marginal_plus_one { "#MP" } else { "" }
            )
        }
    }
}

/// `差+12: Extraordinary Success（時間×0.25）`.
fn margin_text(margin: i64) -> String {
    format!(
        "差{}: {}",
        if margin > 0 {
            format!("+{margin}")
        } else {
            margin.to_string()
        },
        Degree::of(margin).label()
    )
}

fn judged(mut result: RollResult, margin: i64) -> RollResult {
    let degree = Degree::of(margin);
    result = result.with_verdict(degree.is_success());
    result.critical = degree == Degree::ExtraordinarySuccess;
    result.fumble = degree == Degree::DisastrousFailure;
    result
}

/// Rolls a parsed test.
pub fn roll(test: &Test, roller: &mut Roller<'_>) -> Result<RollResult, EvalError> {
    let head = format!("({})", print(test));
    match test {
        Test::Single { modifier, tn, .. } => {
            let r = roll_test(*modifier, roller)?;
            let mut text = format!("{head}{SEP}{}", r.text());
            let comparison = tn.map(|t| Comparison {
                op: CmpOp::Ge,
                target: t,
                holds: r.total >= t,
            });
            let result = RollResult::new(
                String::new(),
                Detail::Sum {
                    total: r.total,
                    comparison,
                },
            );
            let mut result = match tn {
                Some(t) => {
                    let margin = r.total - t;
                    text.push_str(SEP);
                    text.push_str(&margin_text(margin));
                    judged(result, margin)
                }
                None => result,
            };
            result.text = text;
            Ok(result)
        }
        Test::Opposed {
            left,
            right,
            variant,
        } => opposed(&head, *left, *right, *variant, roller),
        Test::Group {
            leader,
            tn,
            helpers,
            marginal_plus_one,
        } => {
            let l = roll_test(*leader, roller)?;
            let helper_tn = tn - HELPER_TN_OFFSET;
            let mut parts = Vec::new();
            let mut bonus = 0i64;
            for h in helpers {
                let r = roll_test(*h, roller)?;
                let degree = Degree::of(r.total - helper_tn);
                let b = degree.group_bonus(*marginal_plus_one);
                bonus += b;
                parts.push(format!("{} {} +{b}", r.text(), degree.name()));
            }
            let total = l.total.checked_add(bonus).ok_or(EvalError::Overflow)?;
            let margin = total - tn;
            let text = format!(
                "{head}{SEP}{}{SEP}補助(目標値{helper_tn}) {}{SEP}{}+{bonus}{SEP}{total}{SEP}{}",
                l.text(),
                parts.join(" ／ "),
                l.total,
                margin_text(margin)
            );
            let mut result = judged(
                RollResult::new(
                    String::new(),
                    Detail::Sum {
                        total,
                        comparison: Some(Comparison {
                            op: CmpOp::Ge,
                            target: *tn,
                            holds: total >= *tn,
                        }),
                    },
                ),
                margin,
            );
            result.text = text;
            Ok(result)
        }
    }
}

/// The totals a rolled test came to, read again from its draws (the d6 values in the
/// order drawn): `[total]` for a single test, `[left, right]` for an opposed one (its
/// last, deciding pair), `[leader, helpers' bonus]` for a group test. `None` when the
/// draws do not make the test (too few). LR-6 reads it to show what Courage spent after
/// the roll changes.
pub fn final_totals(test: &Test, draws: &[i64]) -> Option<Vec<i64>> {
    let mut it = draws.iter().copied();
    let mut one = |modifier: i64| -> Option<i64> {
        let (a, b) = (it.next()?, it.next()?);
        let mut sum = a + b;
        if a == 6 && b == 6 {
            loop {
                let d = it.next()?;
                sum += d;
                if d != 6 {
                    break;
                }
            }
        }
        sum.checked_add(modifier)
    };
    match test {
        Test::Single { modifier, .. } => Some(vec![one(*modifier)?]),
        Test::Opposed {
            left,
            right,
            variant,
        } => loop {
            let l = one(*left)?;
            let r = one(*right)?;
            if l == r && *variant == Variant::Retest {
                continue;
            }
            return Some(vec![l, r]);
        },
        Test::Group {
            leader,
            tn,
            helpers,
            marginal_plus_one,
        } => {
            let l = one(*leader)?;
            let mut bonus = 0;
            for h in helpers {
                let r = one(*h)?;
                bonus += Degree::of(r - (tn - HELPER_TN_OFFSET)).group_bonus(*marginal_plus_one);
            }
            Some(vec![l, bonus])
        }
    }
}

/// LR-11: both sides roll, the left first; the higher total wins and the margin gives the
/// degree; a tie is re-tested (the roller's draw limit bounds the loop) unless the
/// variant decides it.
fn opposed(
    head: &str,
    left: i64,
    right: i64,
    variant: Variant,
    roller: &mut Roller<'_>,
) -> Result<RollResult, EvalError> {
    let mut text = head.to_string();
    loop {
        let l = roll_test(left, roller)?;
        let r = roll_test(right, roller)?;
        text.push_str(&format!("{SEP}左 {} ／ 右 {}", l.text(), r.text()));
        let margin = l.total - r.total;
        let left_wins = match (margin.cmp(&0), variant) {
            (std::cmp::Ordering::Equal, Variant::Retest) => {
                text.push_str(&format!("{SEP}同値: 再判定"));
                continue;
            }
            (std::cmp::Ordering::Equal, Variant::Dodge) => {
                text.push_str(&format!("{SEP}同値: 命中（回避との同値は攻撃側）"));
                true
            }
            (std::cmp::Ordering::Equal, Variant::Parry) => {
                text.push_str(&format!("{SEP}同値: 受け流し（受けとの同値は防御側）"));
                false
            }
            (o, _) => o == std::cmp::Ordering::Greater,
        };
        // The winner's degree by the margin, without a time factor (a contest, not a
        // task that takes time).
        let verdict = if left_wins {
            format!(
                "左の勝ち（差{}: {}）",
                if margin > 0 {
                    format!("+{margin}")
                } else {
                    margin.to_string()
                },
                Degree::of(margin).name()
            )
        } else if margin == 0 {
            "右の勝ち（差0）".to_string()
        } else {
            // The margin is the winner's, as its degree is (lotr7 F12).
            format!("右の勝ち（差+{}: {}）", -margin, Degree::of(-margin).name())
        };
        text.push_str(SEP);
        text.push_str(&verdict);
        let mut result = RollResult::new(
            text,
            Detail::Sum {
                total: l.total,
                comparison: None,
            },
        );
        result.success = left_wins;
        result.failure = !left_wins;
        result.critical = Degree::of(margin) == Degree::ExtraordinarySuccess;
        result.fumble = Degree::of(margin) == Degree::DisastrousFailure;
        return Ok(result);
    }
}

/// The words of a LotR test's text (LR-9 to LR-11) in English, longest first: the log
/// keeps the text as rolled (Japanese, BCDice's convention); an English table shows
/// this (`taku_systems::roll_text`).
const ENGLISH: [(&str, &str); 12] = [
    (
        "同値: 命中（回避との同値は攻撃側）",
        "tie: hit (a tie with a dodge goes to the attacker)",
    ),
    (
        "同値: 受け流し（受けとの同値は防御側）",
        "tie: parried (a tie with a parry goes to the defender)",
    ),
    ("同値: 再判定", "tie: re-tested"),
    ("左の勝ち（差", "left wins (margin "),
    ("右の勝ち（差", "right wins (margin "),
    ("補助(目標値", "helpers (TN "),
    ("（時間", " (time "),
    ("＞ 左 ", "＞ left "),
    ("／ 右 ", "／ right "),
    ("差", "margin "),
    ("（", " ("),
    ("）", ")"),
];

/// A LotR test's text (as [`roll`] writes it) in English: `差+2: Complete Success（時間×0.75）`
/// → `margin +2: Complete Success (time ×0.75)`, `左の勝ち` → `left wins`, the helpers'
/// TN, the tie rules (LR-9, LR-10, LR-11). A text that is no LotR test's (a common
/// command's, `choice[左,右]`) comes back as it was.
pub fn english(text: &str) -> String {
    if !text.starts_with("(LOTR") {
        return text.to_string();
    }
    let mut out = text.to_string();
    for (ja, en) in ENGLISH {
        out = out.replace(ja, en);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lr9_degree_boundaries() {
        let margins = [-11, -10, -6, -5, -1, 0, 1, 5, 6, 10, 11];
        let names: Vec<&str> = margins.iter().map(|m| Degree::of(*m).name()).collect();
        assert_eq!(
            names,
            [
                "Disastrous Failure",
                "Complete Failure",
                "Complete Failure",
                "Failure",
                "Failure",
                "Marginal Success",
                "Complete Success",
                "Complete Success",
                "Superior Success",
                "Superior Success",
                "Extraordinary Success"
            ]
        );
        for d in Degree::ALL {
            if let Some(low) = d.lowest_margin() {
                assert_eq!(Degree::of(low), d);
                assert_ne!(Degree::of(low - 1), d);
            }
        }
    }

    #[test]
    fn lr10_group_bonus_literal_and_marginal_plus_one() {
        let helpers = [
            Degree::MarginalSuccess,
            Degree::CompleteSuccess,
            Degree::SuperiorSuccess,
            Degree::Failure,
        ];
        let sum = |mp| helpers.iter().map(|d| d.group_bonus(mp)).sum::<i64>();
        assert_eq!(sum(false), 3);
        assert_eq!(sum(true), 4);
        assert_eq!(Degree::ExtraordinarySuccess.group_bonus(false), 3);
    }

    #[test]
    fn parse_refuses_what_is_not_a_test() {
        for bad in [
            "LOTR+",
            "LOTR>=",
            "LOTRX",
            "LOTR+1#FOO",
            "LOTRG+1>=10[]",
            "LOTRG+1>=10",
            "LOTR+1VSLOTR+2#MP",
        ] {
            assert_eq!(parse(bad), Ok(None), "{bad}");
        }
        assert_eq!(
            parse("LOTR+99999999999999>=1"),
            Err(EvalError::Overflow),
            "a huge modifier is refused, not wrapped"
        );
    }
}
