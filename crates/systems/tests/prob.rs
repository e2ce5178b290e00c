//! Exact odds against seeded Monte Carlo: for commands too large to check by brute force,
//! 10^6 seeded rolls through the engine must land within five standard errors of the
//! exact probability and mean (a false alarm is rarer than one in a million runs, and the
//! seed fixes the draws, so the test is deterministic).

use taku_dice::odds::{Limits, to_f64};
use taku_dice::{ChaChaSource, Mode};

const SAMPLES: u32 = 1_000_000;

fn check(system: &str, command: &str, seed: u64) {
    let system = taku_systems::find(system).expect("system");
    let summary = taku_systems::odds(system, command, Limits::default())
        .expect("odds")
        .summary();
    let p = to_f64(&summary.success);
    let (mean, sd) = (summary.mean.expect("mean"), summary.sd.expect("sd"));
    let mut dice = ChaChaSource::from_seed(seed);
    let (mut successes, mut total) = (0u32, 0f64);
    for _ in 0..SAMPLES {
        let r = taku_systems::evaluate(system, command, &mut dice, Mode::Strict).expect("roll");
        successes += u32::from(r.success);
        total += match r.detail {
            taku_dice::Detail::Sum { total, .. } => total as f64,
            taku_dice::Detail::Count {
                successes: Some(n), ..
            } => n as f64,
            ref d => panic!("{command}: no number in {d:?}"),
        };
    }
    let n = f64::from(SAMPLES);
    let freq = f64::from(successes) / n;
    let p_err = (p * (1.0 - p) / n).sqrt();
    assert!(
        (freq - p).abs() <= 5.0 * p_err,
        "{command}: P(success) exact {p}, sampled {freq} (5σ = {})",
        5.0 * p_err
    );
    let m_err = sd / n.sqrt();
    assert!(
        (total / n - mean).abs() <= 5.0 * m_err,
        "{command}: mean exact {mean}, sampled {} (5σ = {})",
        total / n,
        5.0 * m_err
    );
}

#[test]
fn a_sum_of_many_dice_in_closed_form_matches_sampling() {
    check("DiceBot", "30D6>=107", 1);
}

#[test]
fn exploding_rerolls_cut_by_probability_match_sampling() {
    check("DiceBot", "3R6[6]>=5", 2);
}

#[test]
fn an_another_world_contest_matches_sampling() {
    check("AnotherWorld", "AW+5 VS AW+3", 3);
}

#[test]
fn keep_highest_of_many_dice_matches_sampling() {
    check("DiceBot", "6D6KH3+1D10>=15", 4);
}

#[test]
fn many_exploding_dice_in_closed_form_match_sampling() {
    check("DiceBot", "10R6[6]>=5", 5);
}

#[test]
fn many_upper_dice_in_closed_form_match_sampling() {
    check("DiceBot", "8U6[6]+1>=8", 6);
}
