//! Exact odds against brute force: every enumerated distribution is checked against
//! hand counts or an independent enumeration.

use super::sum::{add_dice, dice_sum_ways};
use super::*;
use crate::ast::Command;
use crate::{CommonOnly, Mode, Profile, evaluate};
use num_bigint::BigUint;

fn odds(command: &str) -> Result<Odds, OddsError> {
    enumerate(
        |source| evaluate(command, &CommonOnly::default(), source, Mode::Strict),
        Limits::default(),
    )
}

fn p(n: u64, d: u64) -> Prob {
    Prob::new(BigUint::from(n), BigUint::from(d))
}

#[test]
fn two_d6_against_seven_is_21_in_36() {
    let s = odds("2D6>=7").expect("odds").summary();
    assert_eq!(s.success, p(21, 36));
    assert_eq!(s.failure, p(15, 36));
    assert_eq!(s.values[&7], p(6, 36));
    assert_eq!(s.values.len(), 11);
    assert!((s.mean.expect("mean") - 7.0).abs() < 1e-12);
    assert!((s.sd.expect("sd") - (35.0f64 / 6.0).sqrt()).abs() < 1e-12);
    assert!(s.tail.is_zero());
}

#[test]
fn enumeration_matches_brute_force_on_small_sums() {
    // Brute force: every face combination of three dice, counted by hand here.
    for (command, faces) in [("1D6+1D4", [6u32, 4, 1]), ("2D4-1D3", [4, 4, 3])] {
        let mut ways: BTreeMap<i64, u64> = BTreeMap::new();
        let n: u64 = faces.iter().map(|&f| u64::from(f)).product();
        for a in 1..=faces[0] {
            for b in 1..=faces[1] {
                for c in 1..=faces[2] {
                    let v = if command == "1D6+1D4" {
                        // the third "die" is a constant 1-sided stand-in
                        i64::from(a + b) + i64::from(c) - 1
                    } else {
                        i64::from(a + b) - i64::from(c)
                    };
                    *ways.entry(v).or_insert(0) += 1;
                }
            }
        }
        let s = odds(command).expect("odds").summary();
        let want: BTreeMap<i64, Prob> = ways.into_iter().map(|(v, w)| (v, p(w, n))).collect();
        assert_eq!(s.values, want, "{command}");
    }
}

#[test]
fn keep_highest_matches_brute_force() {
    let s = odds("4D6KH3").expect("odds").summary();
    let mut ways: BTreeMap<i64, u64> = BTreeMap::new();
    for a in 1..=6i64 {
        for b in 1..=6 {
            for c in 1..=6 {
                for d in 1..=6 {
                    let mut v = [a, b, c, d];
                    v.sort_unstable();
                    *ways.entry(v[1] + v[2] + v[3]).or_insert(0) += 1;
                }
            }
        }
    }
    let want: BTreeMap<i64, Prob> = ways.into_iter().map(|(v, w)| (v, p(w, 1296))).collect();
    assert_eq!(s.values, want);
}

#[test]
fn closed_form_sums_agree_with_enumeration() {
    for command in [
        "3D6+2>=12",
        "4D6KH3",
        "5D4KL2+1",
        "4D6DH1",
        "4D6DL3",
        "3D6KH5",
        "2D6KH0",
        "3D6MAX",
        "2D10-1D4",
        "(1D6+1)*2<=8",
        "1D8/2",
        "3D4/2U-2",
        "2D6>=?",
        "1D6*1D6>=12",
    ] {
        let Ok(Command::Add(cmd)) = crate::command::parse(command) else {
            panic!("{command} is AddDice");
        };
        let closed = add_dice(&cmd, &Profile::default()).expect("closed form");
        let enumerated = odds(command).expect("odds");
        assert_eq!(
            closed.summary().values,
            enumerated.summary().values,
            "{command}"
        );
        assert_eq!(
            closed.summary().success,
            enumerated.summary().success,
            "{command}"
        );
    }
}

#[test]
fn the_sum_of_100d6_is_exact() {
    let (_, ways) = dice_sum_ways(100, 6);
    assert_eq!(ways.len(), 501);
    let total: BigUint = ways.iter().sum();
    assert_eq!(total, BigUint::from(6u32).pow(100));
    // Symmetric, and the extremes are one way each.
    assert_eq!(ways[0], BigUint::one());
    assert_eq!(ways[0], ways[500]);
    assert_eq!(ways[100], ways[400]);
}

#[test]
fn explosions_are_cut_at_the_depth_with_the_tail_reported() {
    // 1R6>=6[6]: each 6 rerolls; cut at 5 draws, the tail is (1/6)^5.
    let limits = Limits {
        max_draws: 5,
        ..Limits::default()
    };
    let o = enumerate(
        |source| evaluate("1R6[6]>=6", &CommonOnly::default(), source, Mode::Strict),
        limits,
    )
    .expect("odds");
    assert_eq!(o.tail, p(1, 7776));
    let s = o.summary();
    let mass = s.values.values().fold(Prob::zero(), |a, b| a + b) + &s.tail;
    assert_eq!(mass, Prob::one());
    // One success per six, cut or not, among the outcomes kept.
    assert_eq!(s.values[&0], p(5, 6));
}

#[test]
fn text_only_commands_say_so() {
    for command in ["choice[a,b,c]", "2TY6"] {
        assert_eq!(odds(command), Err(OddsError::TextOnly), "{command}");
    }
    assert!(matches!(odds("nonsense"), Err(OddsError::Eval(_))));
}

#[test]
fn too_many_sequences_are_refused_not_truncated() {
    let limits = Limits {
        max_paths: 1000,
        ..Limits::default()
    };
    let r = enumerate(
        |source| evaluate("10D6", &CommonOnly::default(), source, Mode::Strict),
        limits,
    );
    assert_eq!(r, Err(OddsError::TooMany(1000)));
}

#[test]
fn rare_explosions_are_cut_by_probability_and_the_tail_is_exact() {
    let limits = Limits {
        cut_below: 6u128.pow(6),
        ..Limits::default()
    };
    let o = enumerate(
        |source| evaluate("1R6[6]>=6", &CommonOnly::default(), source, Mode::Strict),
        limits,
    )
    .expect("odds");
    // Six draws are allowed (6^6), the seventh would go below: five 6s then anything
    // is followed, six 6s in a row are cut.
    assert_eq!(o.tail, p(1, 46656));
    let all = o.outcomes.iter().fold(o.tail.clone(), |a, (_, q)| a + q);
    assert_eq!(all, Prob::one());
    // Three exploding dice: the cut keeps the enumeration small and the tail tiny.
    let limits = Limits {
        cut_below: 10u128.pow(12),
        ..Limits::default()
    };
    let o = enumerate(
        |source| evaluate("3R6[6]>=5", &CommonOnly::default(), source, Mode::Strict),
        limits,
    )
    .expect("odds");
    assert!(
        !o.tail.is_zero() && to_f64(&o.tail) < 1e-7,
        "{}",
        to_f64(&o.tail)
    );
    let all = o.outcomes.iter().fold(o.tail.clone(), |a, (_, q)| a + q);
    assert_eq!(all, Prob::one());
}

#[test]
fn closed_form_barabara_agrees_with_enumeration() {
    for command in ["3B6>=5", "2B6+2B4<=2", "4B6", "3B10>10", "2B6+1B20=20"] {
        let Ok(Command::Barabara(cmd)) = crate::command::parse(command) else {
            panic!("{command} is BarabaraDice");
        };
        let closed = super::sum::barabara(&cmd, &Profile::default()).expect("closed form");
        let enumerated = odds(command).expect("odds");
        assert_eq!(
            closed.summary().values,
            enumerated.summary().values,
            "{command}"
        );
    }
    // And through `odds`: 20B6>=5 has 6^20 sequences but is instant.
    let o = super::odds("20B6>=5", &CommonOnly::default(), Limits::default()).expect("odds");
    assert_eq!(o.summary().values[&20], p(1, 3u64.pow(20)));
}

#[test]
fn many_dice_kept_and_d66_in_a_sum_are_right() {
    // 10D6KH3: 60 million sequences, 3,003 sorted outcomes. Top three all sixes.
    let o = super::odds("10D6KH3>=18", &CommonOnly::default(), Limits::default()).expect("odds");
    let s = o.summary();
    // P(at least three sixes among ten) = 1 − Σ_{k<3} C(10,k) 5^(10−k) / 6^10.
    let below: u64 = (0..3u32)
        .map(|k| [1u64, 10, 45][k as usize] * 5u64.pow(10 - k))
        .sum();
    assert_eq!(s.success, p(6u64.pow(10) - below, 6u64.pow(10)));
    // A 66-sided die in a sum is a D66: 36 values from 11 to 66, never 7.
    let s = super::odds("1D66", &CommonOnly::default(), Limits::default())
        .expect("odds")
        .summary();
    assert_eq!(s.values.len(), 36);
    assert!(!s.values.contains_key(&7));
}

#[test]
fn reroll_chains_in_closed_form_agree_with_enumeration() {
    // Both cut at the same probability: the kept outcomes must agree exactly where both
    // followed every sequence, and the masses must add to one.
    let limits = Limits {
        cut_below: 10u128.pow(6),
        ..Limits::default()
    };
    for command in [
        "2R6[6]>=5",
        "1R6>=5",
        "2R4[4]>=3",
        "1R6+1R4[4]>=4",
        "2R6>=7",
    ] {
        let Ok(Command::Reroll(cmd)) = crate::command::parse(command) else {
            panic!("{command} is RerollDice");
        };
        let closed =
            super::sum::reroll(&cmd, &Profile::default(), 10u128.pow(12)).expect("closed form");
        let all = closed
            .outcomes
            .iter()
            .fold(closed.tail.clone(), |a, (_, q)| a + q);
        assert_eq!(all, Prob::one(), "{command}");
        let enumerated = enumerate(
            |source| evaluate(command, &CommonOnly::default(), source, Mode::Strict),
            limits,
        )
        .expect("odds")
        .summary();
        let closed = closed.summary();
        // Low success counts need few draws: both computed them in full.
        for s in 0..2 {
            let tol = to_f64(&enumerated.tail) + to_f64(&closed.tail);
            let (a, b) = (
                closed.values.get(&s).map_or(0.0, to_f64),
                enumerated.values.get(&s).map_or(0.0, to_f64),
            );
            assert!((a - b).abs() <= tol + 1e-15, "{command} {s}: {a} vs {b}");
        }
    }
    // Without explosions (nothing rerolls) both are exact and equal.
    let Ok(Command::Reroll(cmd)) = crate::command::parse("3R6[7]>=4") else {
        panic!()
    };
    let closed =
        super::sum::reroll(&cmd, &Profile::default(), 10u128.pow(18)).expect("closed form");
    assert!(closed.tail.is_zero());
    assert_eq!(
        closed.summary().values,
        odds("3R6[7]>=4").expect("odds").summary().values
    );
    // Ten exploding dice: instant, tail tiny.
    let o = super::odds("10R6[6]>=5", &CommonOnly::default(), Limits::default()).expect("odds");
    assert!(to_f64(&o.tail) < 1e-17, "{}", to_f64(&o.tail));
}

#[test]
fn upper_chains_in_closed_form_agree_with_enumeration() {
    // No explosion possible ([7] on a d6): both exact, equal.
    for command in ["2U6[7]", "2U6[7]+1>=5", "1U4+1U6[7]-1"] {
        let Ok(Command::Upper(cmd)) = crate::command::parse(command) else {
            panic!("{command} is UpperDice");
        };
        let closed =
            super::sum::upper(&cmd, &Profile::default(), 10u128.pow(18)).expect("closed form");
        assert!(closed.tail.is_zero(), "{command}");
        assert_eq!(
            closed.summary().values,
            odds(command).expect("odds").summary().values,
            "{command}"
        );
    }
    // Exploding: totals below the threshold never explode, so both have them exactly.
    for command in ["2U6[6]", "1U6[5]+2>=8"] {
        let Ok(Command::Upper(cmd)) = crate::command::parse(command) else {
            panic!("{command} is UpperDice");
        };
        let closed =
            super::sum::upper(&cmd, &Profile::default(), 10u128.pow(12)).expect("closed form");
        let all = closed
            .outcomes
            .iter()
            .fold(closed.tail.clone(), |a, (_, q)| a + q);
        assert_eq!(all, Prob::one(), "{command}");
        let enumerated = enumerate(
            |source| evaluate(command, &CommonOnly::default(), source, Mode::Strict),
            Limits {
                cut_below: 10u128.pow(6),
                ..Limits::default()
            },
        )
        .expect("odds")
        .summary();
        let closed = closed.summary();
        let small: Vec<_> = closed.values.iter().filter(|(v, _)| **v <= 5).collect();
        let theirs: Vec<_> = enumerated.values.iter().filter(|(v, _)| **v <= 5).collect();
        if !command.contains('>') {
            // Totals (not success counts): those below the threshold are exact in both.
            assert_eq!(small, theirs, "{command}");
        }
        let tol = to_f64(&enumerated.tail) + to_f64(&closed.tail) + 1e-12;
        for (v, q) in &closed.values {
            let (a, b) = (to_f64(q), enumerated.values.get(v).map_or(0.0, to_f64));
            assert!((a - b).abs() <= tol, "{command} {v}: {a} vs {b}");
        }
    }
    let o = super::odds("10U6[6]>=10", &CommonOnly::default(), Limits::default()).expect("odds");
    assert!(to_f64(&o.tail) < 1e-17, "{}", to_f64(&o.tail));
}
