//! Exact odds of Four Card's checks (`taku prob --system FourCard`).
//!
//! Target, plain and achievement rolls are one round of 2D6 and go through the common
//! enumeration ([`taku_dice::odds`]). A comparison roll (FC-11) re-rolls ties until
//! decided, so its draw sequences never end; its rounds are independent and identical,
//! so the tie recursion is geometric and solved exactly: for every outcome `o` of a
//! decided round, P(o) = P(o in one round) / (1 − P(tie)). Under `#DRAW` a tie is an
//! outcome of its own and nothing is re-rolled. Each round is judged by
//! [`check::round`], the same function the rolls use.

use super::check::{self, Check, Opponent, Options, Round, Side};
use num_bigint::BigUint;
use num_traits::Zero;
use std::collections::BTreeMap;
use taku_dice::EvalError;
use taku_dice::odds::{Limits, Odds, OddsError, Outcome, Prob};

/// The exact odds of a comparison roll; `None` for any other command (the common
/// enumeration handles those exactly: they draw two dice once).
pub fn comparison_odds(check: &Check, limits: Limits) -> Option<Result<Odds, OddsError>> {
    let Check::Comparison {
        base,
        opponent,
        options,
    } = *check
    else {
        return None;
    };
    Some(solve(base, opponent, options, limits))
}

fn solve(
    base: i64,
    opponent: Opponent,
    options: Options,
    limits: Limits,
) -> Result<Odds, OddsError> {
    // One round: every face of the left pair, and of the right pair when it rolls.
    let right_pairs: Vec<Option<(i64, i64)>> = match opponent {
        Opponent::Rolls(_) => pairs().map(Some).collect(),
        Opponent::Fixed(_) => vec![None],
    };
    let den = BigUint::from(36u32 * if right_pairs.len() > 1 { 36 } else { 1 });
    let mut decided: BTreeMap<Outcome, BigUint> = BTreeMap::new();
    let mut ties = BigUint::zero();
    let mut paths = 0u64;
    for (a, b) in pairs() {
        let left = Side::of(a, b, base, options).map_err(OddsError::Eval)?;
        for r in &right_pairs {
            paths += 1;
            let right = match (opponent, r) {
                (Opponent::Rolls(rb), Some((c, d))) => {
                    Side::of(*c, *d, rb, options).map_err(OddsError::Eval)?
                }
                (Opponent::Fixed(n), _) => Side {
                    dice: None,
                    value: n,
                    auto_success: false,
                    auto_failure: false,
                },
                _ => return Err(OddsError::Eval(EvalError::Overflow)),
            };
            let outcome = check::round(&left, &right, options);
            if outcome == Round::Tie && !options.draw {
                ties += 1u32;
                continue;
            }
            let o = Outcome {
                value: Some(left.value),
                success: outcome == Round::Left,
                failure: outcome == Round::Right,
                critical: left.auto_success,
                fumble: left.auto_failure,
            };
            *decided.entry(o).or_default() += 1u32;
        }
    }
    // P(o) = (n_o / den) / (1 − ties / den) = n_o / (den − ties).
    let decisive = &den - &ties;
    if decisive.is_zero() {
        // Every round ties (only possible with equal fixed values, which cannot roll):
        // nothing is ever decided.
        return Err(OddsError::TooMany(limits.max_paths));
    }
    let outcomes = decided
        .into_iter()
        .map(|(o, n)| (o, Prob::new(n, decisive.clone())))
        .collect();
    Ok(Odds {
        outcomes,
        tail: Prob::zero(),
        max_draws: limits.max_draws,
        cut_below: limits.cut_below,
        paths,
    })
}

fn pairs() -> impl Iterator<Item = (i64, i64)> {
    (1..=6).flat_map(|a| (1..=6).map(move |b| (a, b)))
}

/// P(the left side wins) of a comparison, exactly (for tests and the help's examples).
pub fn left_wins(odds: &Odds) -> Prob {
    odds.outcomes
        .iter()
        .filter(|(o, _)| o.success)
        .fold(Prob::zero(), |acc, (_, p)| acc + p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::four_card::FourCard;
    use num_traits::{One, ToPrimitive};

    fn exact(line: &str) -> Odds {
        crate::odds(&FourCard, line, Limits::default()).expect("odds")
    }

    /// The exact solution agrees with brute-force enumeration of the roll itself, cut
    /// after a few rounds: every enumerated probability is at most the exact one and
    /// short of it by no more than the tail the cut left.
    #[test]
    fn fc11_tie_recursion_matches_brute_force_enumeration() {
        // Two rounds of four dice (6^8 sequences), four rounds against a fixed value.
        for line in [
            "FC+4 VS FC+4",
            "FC VS FC+10#PLAIN",
            "FC+3 VS 10",
            "FC+4 VS FC+6#DRAW",
        ] {
            let exact = exact(line);
            let command = line.replace(' ', "").to_ascii_uppercase();
            let brute = taku_dice::odds::enumerate(
                |source| {
                    let mut roller = taku_dice::Roller::new(source);
                    let check = check::parse(&command).expect("parses").expect("a check");
                    check::roll(&check, &mut roller)
                },
                Limits {
                    max_draws: 8,
                    ..Limits::default()
                },
            )
            .expect("enumerates");
            let tail = brute.tail.clone();
            for (o, p) in &exact.outcomes {
                let b = brute
                    .outcomes
                    .iter()
                    .find(|(bo, _)| bo == o)
                    .map(|(_, p)| p.clone())
                    .unwrap_or_else(Prob::zero);
                assert!(&b <= p, "{line} {o:?}");
                assert!(p - &b <= tail, "{line} {o:?}");
            }
            let total: Prob = exact.outcomes.iter().fold(Prob::zero(), |a, (_, p)| a + p);
            assert_eq!(total, Prob::one(), "{line}");
            assert!(exact.tail.is_zero());
        }
    }

    #[test]
    fn fc11_equal_bases_are_even() {
        let odds = exact("FC+4 VS FC+4");
        assert_eq!(
            left_wins(&odds),
            Prob::new(BigUint::from(1u32), BigUint::from(2u32))
        );
        let p = left_wins(&exact("FC VS FC+10")).to_f64().expect("a number");
        // The left side wins only by an automatic success (or the right's automatic
        // failure) against +10.
        assert!(p > 0.0 && p < 0.1, "{p}");
    }

    #[test]
    fn fc9_target_rolls_enumerate_two_dice() {
        let odds = exact("FC+10>=18");
        let success: Prob = odds
            .outcomes
            .iter()
            .filter(|(o, _)| o.success)
            .fold(Prob::zero(), |a, (_, p)| a + p);
        // Dice 8 or more: 15/36.
        assert_eq!(
            success,
            Prob::new(BigUint::from(15u32), BigUint::from(36u32))
        );
        let odds = exact("FC>=20");
        let success: Prob = odds
            .outcomes
            .iter()
            .filter(|(o, _)| o.success)
            .fold(Prob::zero(), |a, (_, p)| a + p);
        assert_eq!(
            success,
            Prob::new(BigUint::from(1u32), BigUint::from(36u32))
        );
        let odds = exact("FC>=20#NS");
        assert!(odds.outcomes.iter().all(|(o, _)| !o.success));
    }
}
