//! Exact odds of LotR tests (`taku prob --system LotrCoda`), in closed form, with no cut.
//!
//! LR-9's explosion makes the dice sum S unbounded, but its tail is geometric: below 12
//! S is plain 2d6 (a double six never stands, so S ≠ 12); from 13 on, S = 12 + X where X
//! ends on the first die that is not a 6, so P(S = 12 + 6k + r) = 1/36 · 6^−(k+1) for r in
//! 1..5 and P(S ≥ s + 6) = P(S ≥ s) / 6. Every probability here is a finite sum of those
//! closed forms:
//!
//! - a test (LR-9): P(margin ≥ c) = P(S ≥ TN + c − m);
//! - a group test (LR-10): the helpers' bonuses are finite (0..3 each), convolved, and the
//!   leader's total is S + m + B, a finite mixture of shifted S;
//! - an opposed test (LR-11): P(L − R ≥ c) = Σ_w P(S_R = w) · P(S_L ≥ w + n + c − m). From
//!   w ≥ 13 (and the argument ≥ 13) each factor shrinks by 1/6 every 6 steps, so the terms
//!   shrink by 1/36 per period and the series' rest is its next period × 36/35. Ties are
//!   re-tested, and rounds are independent: P(o) = P(o in one round) / (1 − P(tie)).
//!
//! Tests check every form against brute-force enumeration of the rolls themselves.

use super::check::{Degree, HELPER_TN_OFFSET, Test, Variant};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use taku_dice::odds::{Limits, Odds, OddsError, Outcome, Prob};

/// A signed exact rational (differences of probabilities are formed on the way).
pub type Q = BigRational;

/// Most |TN − modifier| (and helper count × 3) the closed forms accept: a TN a
/// thousand above the modifier has odds below 6^−160, and hostile input stays cheap.
pub const MAX_SPAN: i64 = 1000;

/// The dice sums listed one by one; the rest is grouped by degree (exactly).
const LISTED_SUM: i64 = 12 + 6 * 3 + 5;

fn q(n: i64, d: i64) -> Q {
    Q::new(BigInt::from(n), BigInt::from(d))
}

fn pow6(k: i64) -> BigInt {
    num_traits::pow(BigInt::from(6), usize::try_from(k).unwrap_or(0))
}

/// 2d6's number of ways to make `s` (2..=12).
fn ways(s: i64) -> i64 {
    if (2..=12).contains(&s) {
        6 - (s - 7).abs()
    } else {
        0
    }
}

/// LR-9: P(S = s), S the exploding dice sum.
pub fn pmf(s: i64) -> Q {
    if (2..=11).contains(&s) {
        return q(ways(s), 36);
    }
    if s < 13 {
        return Q::zero();
    }
    let x = s - 12;
    let k = (x - 1) / 6;
    if x - 6 * k == 6 {
        // The chain never ends on a 6.
        return Q::zero();
    }
    Q::new(BigInt::one(), BigInt::from(36) * pow6(k + 1))
}

/// LR-9: P(S ≥ s).
pub fn sf(s: i64) -> Q {
    if s <= 2 {
        return Q::one();
    }
    if s <= 12 {
        let plain: i64 = (s..=11).map(ways).sum();
        return q(plain + 1, 36);
    }
    let x = s - 12;
    let k = (x - 1) / 6;
    let rest = (x - 1) % 6;
    Q::new(BigInt::from(6 - rest), BigInt::from(36) * pow6(k + 1))
}

/// E[S] and E[S²], exactly: K (the sixes after the double) is geometric with
/// E[K] = 1/5, E[K²] = 7/25; the last die r is uniform on 1..5.
fn moments_of_s() -> (Q, Q) {
    let (mut m1, mut m2) = (Q::zero(), Q::zero());
    for s in 2..=11 {
        m1 += q(s * ways(s), 36);
        m2 += q(s * s * ways(s), 36);
    }
    // X = 6K + r: E[X] = 6/5 + 3 = 21/5; E[X²] = 36·7/25 + 12·(1/5)·3 + 11 = 707/25.
    let ex = q(21, 5);
    let ex2 = q(707, 25);
    let d = q(1, 36);
    m1 += &d * (q(12, 1) + &ex);
    m2 += d * (q(144, 1) + q(24, 1) * ex + ex2);
    (m1, m2)
}

/// Σ_{w ≥ lo} f(w), where from `start` on every term is 1/36 of the one 6 before it:
/// the terms below `start`, then the first period × 36/35.
fn series(lo: i64, start: i64, f: impl Fn(i64) -> Q) -> Q {
    let start = start.max(lo);
    let mut acc = Q::zero();
    for w in lo..start {
        acc += f(w);
    }
    let mut period = Q::zero();
    for w in start..start + 6 {
        period += f(w);
    }
    acc + period * q(36, 35)
}

/// LR-11: P(L − R ≥ c) for L = S + a, R = S' + b, independent.
pub fn diff_at_least(a: i64, b: i64, c: i64) -> Q {
    let shift = b + c - a;
    series(2, 13.max(13 - shift), |w| pmf(w) * sf(w + shift))
}

/// LR-11: P(L − R = d).
pub fn diff_equal(a: i64, b: i64, d: i64) -> Q {
    let shift = b + d - a;
    series(2, 13.max(13 - shift), |w| pmf(w) * pmf(w + shift))
}

/// A leader's total as a finite mixture: weight, shift (S + shift).
type Mixture = Vec<(Q, i64)>;

fn mix_sf(mix: &Mixture, v: i64) -> Q {
    mix.iter()
        .fold(Q::zero(), |acc, (w, s)| acc + w * sf(v.saturating_sub(*s)))
}

fn mix_pmf(mix: &Mixture, v: i64) -> Q {
    mix.iter()
        .fold(Q::zero(), |acc, (w, s)| acc + w * pmf(v.saturating_sub(*s)))
}

/// P(the margin of a test at `tn` lands in `degree` and the total is at least
/// `from_total`), the total being `mix`.
fn degree_mass(mix: &Mixture, tn: i64, degree: Degree, from_total: Option<i64>) -> Q {
    let at_least = |floor: Option<i64>| -> Q {
        match (floor, from_total) {
            (None, None) => Q::one(),
            (a, b) => mix_sf(mix, a.unwrap_or(i64::MIN).max(b.unwrap_or(i64::MIN))),
        }
    };
    let lower = at_least(degree.lowest_margin().map(|m| tn + m));
    let next = Degree::ALL
        .iter()
        .find(|d| **d > degree)
        .and_then(|d| d.lowest_margin());
    let upper = match next {
        Some(n) => at_least(Some(tn + n)),
        None => Q::zero(),
    };
    lower - upper
}

fn to_prob(x: &Q) -> Prob {
    let n = x.numer().to_biguint().unwrap_or_default();
    let d = x.denom().to_biguint().unwrap_or_else(BigUint::one);
    Prob::new(n, d)
}

fn flags(degree: Option<Degree>, value: Option<i64>) -> Outcome {
    Outcome {
        value,
        success: degree.is_some_and(Degree::is_success),
        failure: degree.is_some_and(|d| !d.is_success()),
        critical: degree == Some(Degree::ExtraordinarySuccess),
        fumble: degree == Some(Degree::DisastrousFailure),
    }
}

fn too_far(limits: Limits) -> OddsError {
    OddsError::TooMany(limits.max_paths)
}

/// The exact odds of a LotR test: a test's or a group test's every total (the dice sums
/// past three added sixes grouped by degree, as outcomes without a value), an opposed
/// test's outcomes by the left side's degree. Nothing is cut: the tail is zero.
pub fn odds(test: &Test, limits: Limits) -> Result<Odds, OddsError> {
    let outcomes = match test {
        Test::Single { modifier, tn, .. } => {
            if tn.is_some_and(|t| (t - modifier).abs() > MAX_SPAN) {
                return Err(too_far(limits));
            }
            totals(&vec![(Q::one(), *modifier)], *tn)
        }
        Test::Group {
            leader,
            tn,
            helpers,
            marginal_plus_one,
        } => {
            if (tn - leader).abs() > MAX_SPAN
                || helpers
                    .iter()
                    .any(|h| (tn - HELPER_TN_OFFSET - h).abs() > MAX_SPAN)
            {
                return Err(too_far(limits));
            }
            let mix = group_mixture(*leader, *tn, helpers, *marginal_plus_one);
            totals(&mix, Some(*tn))
        }
        Test::Opposed {
            left,
            right,
            variant,
        } => {
            if (left - right).abs() > MAX_SPAN {
                return Err(too_far(limits));
            }
            opposed(*left, *right, *variant)
                .into_iter()
                .map(|(o, p)| (o, to_prob(&p)))
                .collect()
        }
    };
    Ok(Odds {
        outcomes,
        tail: Prob::zero(),
        max_draws: limits.max_draws,
        cut_below: limits.cut_below,
        paths: 0,
    })
}

/// LR-10: the leader's total S + m + B, B the helpers' bonuses convolved.
fn group_mixture(leader: i64, tn: i64, helpers: &[i64], marginal_plus_one: bool) -> Mixture {
    let helper_tn = tn - HELPER_TN_OFFSET;
    let mut bonus: Vec<Q> = vec![Q::one()];
    for h in helpers {
        let single = vec![(Q::one(), *h)];
        let mut each = [Q::zero(), Q::zero(), Q::zero(), Q::zero()];
        for d in Degree::ALL {
            let b = d.group_bonus(marginal_plus_one) as usize;
            each[b] += degree_mass(&single, helper_tn, d, None);
        }
        let mut next = vec![Q::zero(); bonus.len() + 3];
        for (i, p) in bonus.iter().enumerate() {
            for (j, e) in each.iter().enumerate() {
                next[i + j] += p * e;
            }
        }
        bonus = next;
    }
    bonus
        .into_iter()
        .enumerate()
        .filter(|(_, p)| !p.is_zero())
        .map(|(b, p)| (p, leader + b as i64))
        .collect()
}

/// Every total up to the listed sums, then the rest by degree.
fn totals(mix: &Mixture, tn: Option<i64>) -> Vec<(Outcome, Prob)> {
    let lo = mix.iter().map(|(_, s)| s + 2).min().unwrap_or(2);
    let hi = mix
        .iter()
        .map(|(_, s)| s + LISTED_SUM)
        .max()
        .unwrap_or(LISTED_SUM);
    let mut out = Vec::new();
    for v in lo..=hi {
        let p = mix_pmf(mix, v);
        if p.is_zero() {
            continue;
        }
        let degree = tn.map(|t| Degree::of(v - t));
        out.push((flags(degree, Some(v)), to_prob(&p)));
    }
    match tn {
        Some(t) => {
            for d in Degree::ALL {
                let p = degree_mass(mix, t, d, Some(hi + 1));
                if !p.is_zero() {
                    out.push((flags(Some(d), None), to_prob(&p)));
                }
            }
        }
        None => {
            let p = mix_sf(mix, hi + 1);
            if !p.is_zero() {
                out.push((flags(None, None), to_prob(&p)));
            }
        }
    }
    out
}

/// One opposed outcome: the left side's degree (by margin L − R), or a tie decided by a
/// variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpposedOutcome {
    /// The left side won or lost with this degree.
    Degree(Degree),
    /// A tie decided for the left side (dodge: it hits).
    TieLeft,
    /// A tie decided for the right side (parry: it is parried).
    TieRight,
}

/// LR-11: P(each outcome) of an opposed test, ties re-tested unless the variant decides.
pub fn opposed_outcomes(left: i64, right: i64, variant: Variant) -> Vec<(OpposedOutcome, Q)> {
    let ge = |c: i64| diff_at_least(left, right, c);
    // P(L − R ≤ −c) = P(R − L ≥ c).
    let le = |c: i64| diff_at_least(right, left, c);
    let tie = diff_equal(left, right, 0);
    let mut out = vec![
        (Degree::DisastrousFailure, le(11)),
        (Degree::CompleteFailure, le(6) - le(11)),
        (Degree::Failure, le(1) - le(6)),
        (Degree::CompleteSuccess, ge(1) - ge(6)),
        (Degree::SuperiorSuccess, ge(6) - ge(11)),
        (Degree::ExtraordinarySuccess, ge(11)),
    ]
    .into_iter()
    .map(|(d, p)| (OpposedOutcome::Degree(d), p))
    .collect::<Vec<_>>();
    match variant {
        Variant::Retest => {
            let decisive = Q::one() - tie;
            for (_, p) in &mut out {
                *p = &*p / &decisive;
            }
        }
        Variant::Dodge => out.push((OpposedOutcome::TieLeft, tie)),
        Variant::Parry => out.push((OpposedOutcome::TieRight, tie)),
    }
    out
}

fn opposed(left: i64, right: i64, variant: Variant) -> Vec<(Outcome, Q)> {
    opposed_outcomes(left, right, variant)
        .into_iter()
        .filter(|(_, p)| !p.is_zero())
        .map(|(o, p)| {
            let outcome = match o {
                OpposedOutcome::Degree(d) => flags(Some(d), None),
                OpposedOutcome::TieLeft => flags(Some(Degree::MarginalSuccess), None),
                OpposedOutcome::TieRight => Outcome {
                    value: None,
                    success: false,
                    failure: true,
                    critical: false,
                    fumble: false,
                },
            };
            (outcome, p)
        })
        .collect()
}

/// What `taku prob` prints besides the common report: each degree's exact chance and the
/// exact mean and standard deviation of the total.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Each row's label and probability.
    pub rows: Vec<(String, Prob)>,
    /// The total's exact mean (tests and group tests).
    pub mean: Option<f64>,
    /// Its standard deviation.
    pub sd: Option<f64>,
}

/// The degree table of a LotR test.
pub fn report(test: &Test) -> Result<Report, OddsError> {
    let label = |d: Degree| match d.time_factor() {
        Some(t) => format!("{} (time {t})", d.name()),
        None => d.name().to_string(),
    };
    let mixture_report = |mix: Mixture, tn: Option<i64>| {
        let (m1, m2) = moments_of_s();
        let mut mean = Q::zero();
        let mut second = Q::zero();
        for (w, s) in &mix {
            let shift = q(*s, 1);
            mean += w * (&m1 + &shift);
            second += w * (&m2 + q(2, 1) * &shift * &m1 + &shift * &shift);
        }
        let var = second - &mean * &mean;
        let rows = match tn {
            Some(t) => Degree::ALL
                .iter()
                .map(|d| (label(*d), to_prob(&degree_mass(&mix, t, *d, None))))
                .collect(),
            None => Vec::new(),
        };
        Report {
            rows,
            mean: mean.to_f64(),
            sd: var.to_f64().map(|v| v.max(0.0).sqrt()),
        }
    };
    Ok(match test {
        Test::Single { modifier, tn, .. } => {
            if tn.is_some_and(|t| (t - modifier).abs() > MAX_SPAN) {
                return Err(too_far(Limits::default()));
            }
            mixture_report(vec![(Q::one(), *modifier)], *tn)
        }
        Test::Group {
            leader,
            tn,
            helpers,
            marginal_plus_one,
        } => {
            if (tn - leader).abs() > MAX_SPAN
                || helpers
                    .iter()
                    .any(|h| (tn - HELPER_TN_OFFSET - h).abs() > MAX_SPAN)
            {
                return Err(too_far(Limits::default()));
            }
            mixture_report(
                group_mixture(*leader, *tn, helpers, *marginal_plus_one),
                Some(*tn),
            )
        }
        Test::Opposed {
            left,
            right,
            variant,
        } => {
            if (left - right).abs() > MAX_SPAN {
                return Err(too_far(Limits::default()));
            }
            let rows = opposed_outcomes(*left, *right, *variant)
                .into_iter()
                .map(|(o, p)| {
                    let l = match o {
                        OpposedOutcome::Degree(d) if d.is_success() => {
                            format!("left wins, {}", d.name())
                        }
                        OpposedOutcome::Degree(d) => {
                            format!("right wins, {}", mirror(d).name())
                        }
                        OpposedOutcome::TieLeft => "tie: the attack hits (dodge)".to_string(),
                        OpposedOutcome::TieRight => "tie: parried".to_string(),
                    };
                    (l, to_prob(&p))
                })
                .collect();
            Report {
                rows,
                mean: None,
                sd: None,
            }
        }
    })
}

/// `taku prob`'s extra lines for a LotR command, if it is one, in `lang` (degree names
/// are the rulebook's English terms in both).
pub fn report_text(command: &str, lang: taku_dice::Lang) -> Option<String> {
    let ja = lang == taku_dice::Lang::Ja;
    let test = super::parse_line(command)?;
    let r = report(&test).ok()?;
    let mut out = String::new();
    if let (Some(m), Some(sd)) = (r.mean, r.sd) {
        out.push_str(&if ja {
            format!("達成値の正確な平均 {m:.4}  標準偏差 {sd:.4}（振り足しは最後まで計算、LR-9）\n")
        } else {
            format!(
                "exact mean of the total {m:.4}  sd {sd:.4} (explosions followed to the end, LR-9)\n"
            )
        });
    }
    if !r.rows.is_empty() {
        out.push_str(if ja {
            "成功度（LR-9、正確な値）:\n"
        } else {
            "degrees (LR-9, exact):\n"
        });
        for (label, p) in &r.rows {
            let label = if ja {
                label
                    .replace(" (time ", "（時間")
                    .replace(')', "）")
                    .replace("left wins, ", "左の勝ち、")
                    .replace("right wins, ", "右の勝ち、")
                    .replace(
                        "tie: the attack hits （dodge）",
                        "同値: 命中（回避との同値）",
                    )
                    .replace(
                        "tie: the attack hits (dodge）",
                        "同値: 命中（回避との同値）",
                    )
                    .replace("tie: parried", "同値: 受け流し")
            } else {
                label.clone()
            };
            let f = taku_dice::odds::to_f64(p) * 100.0;
            let frac = if p.is_zero() {
                "0".to_string()
            } else {
                format!("{}/{}", p.numer(), p.denom())
            };
            let frac = if frac.len() > 30 { String::new() } else { frac };
            out.push_str(&format!("  {label:<48} {frac:>30} {f:9.5}%\n"));
        }
    }
    Some(out)
}

/// The winner's degree when the left side loses with `d`: margins mirrored.
fn mirror(d: Degree) -> Degree {
    match d {
        Degree::Failure => Degree::CompleteSuccess,
        Degree::CompleteFailure => Degree::SuperiorSuccess,
        Degree::DisastrousFailure => Degree::ExtraordinarySuccess,
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lotr_coda::check;

    fn enumerate(command: &str, max_draws: usize) -> Odds {
        let test = check::parse(command).expect("parses").expect("a test");
        taku_dice::odds::enumerate(
            |source| {
                let mut roller = taku_dice::Roller::new(source);
                check::roll(&test, &mut roller)
            },
            Limits {
                max_draws,
                ..Limits::default()
            },
        )
        .expect("enumerates")
    }

    fn by_flags(odds: &Odds) -> std::collections::BTreeMap<(bool, bool, bool, bool), Prob> {
        let mut m = std::collections::BTreeMap::new();
        for (o, p) in &odds.outcomes {
            *m.entry((o.success, o.failure, o.critical, o.fumble))
                .or_insert_with(Prob::zero) += p;
        }
        m
    }

    /// Exact ≥ enumerated, and short of it by at most the enumeration's cut tail.
    fn agrees(command: &str, max_draws: usize) {
        let test = check::parse(command).expect("parses").expect("a test");
        let exact = odds(&test, Limits::default()).expect("odds");
        assert!(exact.tail.is_zero());
        let total = exact.outcomes.iter().fold(Prob::zero(), |a, (_, p)| a + p);
        assert_eq!(total, Prob::one(), "{command}: the odds sum to 1");
        let brute = enumerate(command, max_draws);
        let (e, b) = (by_flags(&exact), by_flags(&brute));
        for (k, p) in &e {
            let got = b.get(k).cloned().unwrap_or_else(Prob::zero);
            assert!(&got <= p, "{command} {k:?}");
            assert!(p - &got <= brute.tail, "{command} {k:?}");
        }
        for k in b.keys() {
            assert!(
                e.contains_key(k),
                "{command}: {k:?} missing from the exact odds"
            );
        }
        // Each listed total agrees too.
        for (o, p) in &exact.outcomes {
            if o.value.is_none() {
                continue;
            }
            let got = brute
                .outcomes
                .iter()
                .filter(|(bo, _)| bo.value == o.value)
                .fold(Prob::zero(), |a, (_, p)| a + p);
            if matches!(test, Test::Opposed { .. }) {
                continue;
            }
            assert!(&got <= p && p - &got <= brute.tail, "{command} {o:?}");
        }
    }

    #[test]
    fn lr9_the_dice_sum_is_a_distribution_with_a_geometric_tail() {
        // P(S = 12) = 0; the masses sum to 1 (below 13 exactly, above by the series).
        assert!(pmf(12).is_zero());
        assert!(pmf(18).is_zero(), "a chain never ends on a 6");
        assert_eq!(pmf(13), q(1, 216));
        assert_eq!(sf(13), q(1, 36));
        assert_eq!(sf(19), q(1, 216));
        // One pmf shrinks by 1/6 per period of 6: the rest after 13..18 is 1/5 of it.
        let head = (2..13).fold(Q::zero(), |a, s| a + pmf(s));
        let period = (13..19).fold(Q::zero(), |a, s| a + pmf(s));
        assert_eq!(head + period * q(6, 5), Q::one());
        for s in -3..60 {
            assert_eq!(sf(s), sf(s + 1) + pmf(s), "P(S ≥ {s})");
        }
        let (m1, _) = moments_of_s();
        // 7 − 12/36 + (12 + 4.2)/36 = 7.1166…
        assert_eq!(m1, q(7, 1) - q(12, 36) + q(162, 360));
    }

    #[test]
    fn lr9_tests_match_brute_force_enumeration() {
        for c in [
            "LOTR+7>=15",
            "LOTR>=13",
            "LOTR-3>=20",
            "LOTR+30>=10",
            "LOTR+2",
        ] {
            agrees(c, 12);
        }
    }

    #[test]
    fn lr9_marginal_success_example_and_degree_chances() {
        let test = check::parse("LOTR+7>=15").expect("ok").expect("a test");
        let r = report(&test).expect("report");
        let total = r.rows.iter().fold(Prob::zero(), |a, (_, p)| a + p);
        assert_eq!(total, Prob::one());
        // Margin 0 needs dice 8: 5/36.
        let marginal = &r.rows[3];
        assert!(marginal.0.starts_with("Marginal"));
        assert_eq!(marginal.1, Prob::new(5u32.into(), 36u32.into()));
        // Extraordinary: dice ≥ 19 = P(S ≥ 19) = 1/216.
        assert_eq!(r.rows[6].1, Prob::new(1u32.into(), 216u32.into()));
    }

    #[test]
    fn lr11_opposed_tests_match_brute_force_enumeration() {
        // Two rounds of exploding dice on each side are enumerated; the rest is the tail.
        for c in [
            "LOTR+5VSLOTR+3",
            "LOTRVSLOTR",
            "LOTR+4VSLOTR+5#DODGE",
            "LOTR+6VSLOTR+6#PARRY",
            "LOTR+5VS14",
        ] {
            agrees(c, 10);
        }
    }

    #[test]
    fn lr11_equal_sides_are_even_and_ties_are_solved_exactly() {
        let test = check::parse("LOTRVSLOTR").expect("ok").expect("a test");
        let o = odds(&test, Limits::default()).expect("odds");
        let win = o
            .outcomes
            .iter()
            .filter(|(x, _)| x.success)
            .fold(Prob::zero(), |a, (_, p)| a + p);
        assert_eq!(win, Prob::new(1u32.into(), 2u32.into()));
        // Dodge: the tie goes to the attacker, so equal sides favour it; parry the other way.
        let p = |c: &str| {
            let t = check::parse(c).expect("ok").expect("a test");
            let o = odds(&t, Limits::default()).expect("odds");
            o.outcomes
                .iter()
                .filter(|(x, _)| x.success)
                .fold(Prob::zero(), |a, (_, p)| a + p)
        };
        let half = Prob::new(1u32.into(), 2u32.into());
        assert!(p("LOTRVSLOTR#DODGE") > half);
        assert!(p("LOTRVSLOTR#PARRY") < half);
        assert_eq!(p("LOTRVSLOTR#DODGE") + p("LOTRVSLOTR#PARRY"), Prob::one());
    }

    #[test]
    fn lr10_group_tests_match_brute_force_enumeration() {
        for c in ["LOTRG+5>=15[+2]", "LOTRG+5>=15[+2,+3]#MP", "LOTRG>=12[0,0]"] {
            agrees(c, 8);
        }
    }

    #[test]
    fn hostile_spans_are_refused_not_computed() {
        let t = check::parse("LOTR>=999999").expect("ok").expect("a test");
        assert!(odds(&t, Limits::default()).is_err());
        assert!(report(&t).is_err());
    }
}
