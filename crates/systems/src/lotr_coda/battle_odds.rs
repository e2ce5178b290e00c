//! LR-15: the exact chance that a battle ends in Victory (or Defeat) within N rounds from
//! any of the seven states: a Markov chain over the states.
//!
//! Each round the PCs' side rolls 2d6 + the state's modifier (+ its commander's Siegecraft
//! with `battle_siegecraft`) against the foes' 2d6 (+ theirs); higher moves one step toward
//! Victory, lower toward Defeat, a tie stays. Nothing is simulated: the counts of the
//! 1296^k equally likely dice sequences of k rounds that lead to each state are carried in
//! big integers, so the answer is an exact fraction.

use num_bigint::BigUint;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use taku_dice::Text;

/// Most rounds [`battle_odds`] agrees to follow (each round adds about 10.3 bits to the
/// counts; a thousand rounds is far past any battle and still fast).
pub const MAX_ROUNDS: u32 = 1000;

/// The chance of each end after the rounds asked; the three add up to 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleOdds {
    /// Victory reached within the rounds.
    pub victory: BigRational,
    /// Defeat reached within the rounds.
    pub defeat: BigRational,
    /// Still one of the seven states after them.
    pub undecided: BigRational,
}

/// Ways (out of 36) to roll each 2d6 total 2..=12, indexed by total.
fn two_d6_ways() -> [u64; 13] {
    let mut w = [0u64; 13];
    for a in 1..=6 {
        for b in 1..=6 {
            w[a + b] += 1;
        }
    }
    w
}

/// Ways (out of 1296) the PCs' side rolls higher, equal, lower from `step`, with the
/// sides' Siegecraft bonuses.
pub fn round_ways(step: i64, pc_bonus: i64, foe_bonus: i64) -> (u64, u64, u64) {
    let w = two_d6_ways();
    let (mut up, mut tie, mut down) = (0, 0, 0);
    for a in 2..=12usize {
        for b in 2..=12usize {
            let ways = w[a] * w[b];
            let pc = a as i64 + step + pc_bonus;
            let foe = b as i64 + foe_bonus;
            match pc.cmp(&foe) {
                std::cmp::Ordering::Greater => up += ways,
                std::cmp::Ordering::Equal => tie += ways,
                std::cmp::Ordering::Less => down += ways,
            }
        }
    }
    (up, tie, down)
}

/// LR-15: the exact odds of Victory, Defeat and neither within `rounds` rounds from
/// `start` (−3 Losing ..= +3 Winning); `pc_bonus` and `foe_bonus` are the commanders'
/// Siegecraft ranks when `battle_siegecraft` is on (0 otherwise).
pub fn battle_odds(
    start: i64,
    rounds: u32,
    pc_bonus: i64,
    foe_bonus: i64,
) -> Result<BattleOdds, Text> {
    if !(-3..=3).contains(&start) {
        return Err(Text::new(
            format!("LR-15: 戦況は −3〜+3 です（{start} は不可）"),
            format!("LR-15: the state is −3 to +3 (not {start})"),
        ));
    }
    if rounds > MAX_ROUNDS {
        return Err(Text::new(
            format!("LR-15: ラウンド数は {MAX_ROUNDS} までです（{rounds} は不可）"),
            format!("LR-15: at most {MAX_ROUNDS} rounds (not {rounds})"),
        ));
    }
    if !(0..=100).contains(&pc_bonus) || !(0..=100).contains(&foe_bonus) {
        return Err(Text::new(
            "LR-15: Siegecraft ランクは 0〜100 です",
            "LR-15: Siegecraft ranks are 0 to 100",
        ));
    }
    let moves: Vec<(u64, u64, u64)> = (-3..=3)
        .map(|s| round_ways(s, pc_bonus, foe_bonus))
        .collect();
    // counts[i]: sequences standing at step i − 3.
    let mut counts: Vec<BigUint> = vec![BigUint::zero(); 7];
    counts[(start + 3) as usize] = BigUint::from(1u32);
    let mut victory = BigUint::zero();
    let mut defeat = BigUint::zero();
    for _ in 0..rounds {
        // Sequences already ended stay ended whatever this round rolls.
        victory *= 1296u32;
        defeat *= 1296u32;
        let mut next: Vec<BigUint> = vec![BigUint::zero(); 7];
        for (i, c) in counts.iter().enumerate() {
            if c.is_zero() {
                continue;
            }
            let (up, tie, down) = moves[i];
            next[i] += c * tie;
            if i == 6 {
                victory += c * up;
            } else {
                next[i + 1] += c * up;
            }
            if i == 0 {
                defeat += c * down;
            } else {
                next[i - 1] += c * down;
            }
        }
        counts = next;
    }
    let denom = num_bigint::BigInt::from(BigUint::from(1296u32).pow(rounds));
    let frac = |n: BigUint| BigRational::new(num_bigint::BigInt::from(n), denom.clone());
    let undecided: BigUint = counts.into_iter().sum();
    Ok(BattleOdds {
        victory: frac(victory),
        defeat: frac(defeat),
        undecided: frac(undecided),
    })
}

/// A fraction as a percentage with `places` decimals (for display).
pub fn percent(p: &BigRational, places: usize) -> String {
    let v = p.to_f64().unwrap_or(0.0) * 100.0;
    format!("{v:.places$}%")
}

#[cfg(test)]
mod tests {
    use super::super::battle::{self, Command, Standing};
    use super::super::coda::testing::d6s;
    use super::*;
    use num_bigint::BigInt;
    use taku_dice::Roller;

    /// Brute force: every sequence of 2d6 totals (weighted by their ways) for `rounds`
    /// rounds, walked by the rule's own words, independent of the chain.
    fn brute(start: i64, rounds: u32, pc: i64, foe: i64) -> (BigRational, BigRational) {
        let w = two_d6_ways();
        let mut v = BigInt::zero();
        let mut d = BigInt::zero();
        #[allow(clippy::too_many_arguments)]
        fn walk(
            step: i64,
            left: u32,
            weight: u64,
            rounds: u32,
            pc: i64,
            foe: i64,
            w: &[u64; 13],
            v: &mut BigInt,
            d: &mut BigInt,
        ) {
            if !(-3..=3).contains(&step) {
                // Ended: weight the remaining rounds' sequences too.
                let rest = BigInt::from(1296u64).pow(left);
                if step > 3 {
                    *v += BigInt::from(weight) * rest;
                } else {
                    *d += BigInt::from(weight) * rest;
                }
                return;
            }
            if left == 0 {
                return;
            }
            let _ = rounds;
            for a in 2..=12usize {
                for b in 2..=12usize {
                    let pt = a as i64 + step + pc;
                    let ft = b as i64 + foe;
                    let next = step + (pt > ft) as i64 - (pt < ft) as i64;
                    walk(
                        next,
                        left - 1,
                        weight * w[a] * w[b],
                        rounds,
                        pc,
                        foe,
                        w,
                        v,
                        d,
                    );
                }
            }
        }
        walk(start, rounds, 1, rounds, pc, foe, &w, &mut v, &mut d);
        let den = BigInt::from(1296u64).pow(rounds);
        (BigRational::new(v, den.clone()), BigRational::new(d, den))
    }

    #[test]
    fn lr15_chain_matches_brute_force_from_every_state() {
        for start in -3..=3 {
            for rounds in 0..=3 {
                let odds = battle_odds(start, rounds, 0, 0).expect("odds");
                let (v, d) = brute(start, rounds, 0, 0);
                assert_eq!(odds.victory, v, "start {start} rounds {rounds}");
                assert_eq!(odds.defeat, d, "start {start} rounds {rounds}");
                assert_eq!(
                    &odds.victory + &odds.defeat + &odds.undecided,
                    BigRational::from_integer(1.into())
                );
            }
        }
        let odds = battle_odds(0, 3, 4, 1).expect("odds");
        assert_eq!((odds.victory, odds.defeat), brute(0, 3, 4, 1));
    }

    #[test]
    fn lr15_one_round_matches_the_tracker_over_every_die() {
        // Every 6^4 dice of one round through the tracker's own decide, from each state.
        for start in -3..=3 {
            let (mut up, mut down) = (0u64, 0u64);
            for f in 0..1296u32 {
                let faces = [f % 6 + 1, f / 6 % 6 + 1, f / 36 % 6 + 1, f / 216 + 1];
                let mut s = battle::State::default();
                battle::fold(&mut s, &battle::Event::Started { step: start });
                let mut src = d6s(&faces);
                let mut r = Roller::new(&mut src);
                let e = battle::decide(
                    &s,
                    &Command::Round {
                        pc_siegecraft: 0,
                        foe_siegecraft: 0,
                    },
                    &mut r,
                )
                .expect("round");
                let battle::Event::Round { from, to, .. } = e[0] else {
                    panic!()
                };
                match (from, to) {
                    (_, Standing::Victory) => up += 1,
                    (_, Standing::Defeat) => down += 1,
                    (Standing::Step(a), Standing::Step(b)) if b > a => up += 1,
                    (Standing::Step(a), Standing::Step(b)) if b < a => down += 1,
                    _ => {}
                }
            }
            let (u, _, d) = round_ways(start, 0, 0);
            assert_eq!((up, down), (u, d), "start {start}");
        }
    }

    #[test]
    fn lr15_even_battle_is_symmetric_and_winning_one_round_victory() {
        // From Winning, one round: P(2d6 + 3 > 2d6).
        let (up, tie, down) = round_ways(0, 0, 0);
        assert_eq!(up, down);
        assert_eq!(tie, 146); // Σ ways² = 146
        let odds = battle_odds(3, 1, 0, 0).expect("odds");
        let (u, _, _) = round_ways(3, 0, 0);
        assert_eq!(
            odds.victory,
            BigRational::new(BigInt::from(u), BigInt::from(1296))
        );
        assert!(battle_odds(4, 1, 0, 0).is_err());
        assert!(battle_odds(0, MAX_ROUNDS + 1, 0, 0).is_err());
        assert_eq!(
            percent(&battle_odds(3, 0, 0, 0).expect("odds").undecided, 1),
            "100.0%"
        );
    }
}
