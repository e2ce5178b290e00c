//! AW-7: the exact chance that an Another Focus check (AF判定) succeeds.
//!
//! [`af_odds`] takes the party in action-value order ([`AfRoller`]: judgement, critical
//! and fumble values), the difficulty left after declarations, the rounds left and the
//! running total so far, and returns [`AfOdds`]: the exact probabilities, as fractions, that
//! the check succeeds, ends on a fumble, or runs out of rounds. [`decimal`] and [`percent`]
//! round them for display.
//!
//! The key decision: nothing is simulated. A dynamic program walks the rolls one by one
//! over the running totals that still matter, counting in integers how many of the 36^k
//! equally likely dice sequences of the first k rolls lead to each total (in `u128` while
//! the counts fit, in `BigUint` after). A total that reaches the difficulty is a success at
//! once; totals that can no longer reach it are pooled into one count, which only fumbles
//! can still move. [`MAX_WORK`] refuses inputs too large to compute this way.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::fmt;

/// The most work [`af_odds`] agrees to do: the (roll, running total) cells it tracks, each
/// counted once per 64-bit word its exact count needs (a count after k rolls is at most
/// 36^k, about 5.17·k bits). Ten million keeps the slowest accepted input to about a
/// second; any real party (a handful of PCs, a handful of rounds) needs a few thousand.
pub const MAX_WORK: u64 = 10_000_000;

/// One PC's part in an AF check: the values its 2D6 roll is judged with (AW-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AfRoller {
    /// Judgement value (判定値): the ability used plus the PC's own modifiers, added to
    /// the dice total for the achievement.
    pub value: i64,
    /// Critical value: a dice total at or above it counts as achievement 30 (AW-7).
    pub critical: i64,
    /// Fumble value: a dice total at or below it fails the whole AF check (AW-7). The
    /// critical is checked first, as the roll does, so a total that is both is a critical.
    pub fumble: i64,
}

/// The exact outcome probabilities of an AF check; the three add up to 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AfOdds {
    /// The running total reaches the difficulty within the rounds.
    pub success: BigRational,
    /// A PC fumbles before that: the whole AF check fails at once.
    pub fumble: BigRational,
    /// Every round passes without reaching the difficulty, and nobody fumbles.
    pub out_of_rounds: BigRational,
}

/// Why [`af_odds`] refused to compute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfOddsError {
    /// The computation would need more than [`MAX_WORK`].
    TooLarge {
        /// PCs in the party.
        pcs: usize,
        /// Rounds asked for.
        rounds: u32,
    },
}

impl fmt::Display for AfOddsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { pcs, rounds } => write!(
                f,
                "the AF check is too large to compute exactly: {pcs} PCs over {rounds} \
                 rounds need more than {MAX_WORK} units of work; use fewer PCs or rounds, \
                 or a difficulty closer to the running total"
            ),
        }
    }
}

impl std::error::Error for AfOddsError {}

impl AfOddsError {
    /// The message in Japanese and English (the English is this error's `Display`).
    pub fn text(&self) -> taku_dice::Text {
        match self {
            Self::TooLarge { pcs, rounds } => taku_dice::Text::new(
                format!(
                    "AF判定が大きすぎて成功確率を正確に計算できません: PC{pcs}人で{rounds}ラウンドは\
                     計算量が{MAX_WORK}を超えます。PCかラウンドを減らすか、難易度を合計に近づけてください"
                ),
                self.to_string(),
            ),
        }
    }
}

impl AfRoller {
    /// AW-1: the default critical value.
    pub const DEFAULT_CRITICAL: i64 = 12;
    /// AW-1: the default fumble value.
    pub const DEFAULT_FUMBLE: i64 = 2;

    /// A PC with judgement value `value` and the default critical (12) and fumble (2).
    pub fn new(value: i64) -> Self {
        Self {
            value,
            critical: Self::DEFAULT_CRITICAL,
            fumble: Self::DEFAULT_FUMBLE,
        }
    }
}

/// AW-7: the exact odds that `party`, rolling once each per round in this order, brings the
/// running total from `start` to `difficulty` or more within `rounds` rounds.
///
/// Each roll is 2D6: at or below the PC's fumble value the whole check fails at once; at or
/// above its critical value it adds 30; otherwise it adds judgement value + dice (which may
/// be negative). The check succeeds as soon as the total reaches `difficulty`, so a `start`
/// already there is a certain success, and no rolls (no PCs or no rounds) leave it as is.
///
/// # Errors
///
/// [`AfOddsError::TooLarge`] when the computation would exceed [`MAX_WORK`].
pub fn af_odds(
    party: &[AfRoller],
    difficulty: i64,
    rounds: u32,
    start: i64,
) -> Result<AfOdds, AfOddsError> {
    af_odds_mid_round(&[], party, difficulty, rounds, start)
}

/// AW-7 during a round: [`af_odds`] when `still` (the PCs yet to roll in the current
/// round, in action-value order) roll once each first, and then `party` rolls `rounds`
/// whole rounds more. `still` empty is [`af_odds`] itself.
///
/// # Errors
///
/// [`AfOddsError::TooLarge`] when the computation would exceed [`MAX_WORK`].
pub fn af_odds_mid_round(
    still: &[AfRoller],
    party: &[AfRoller],
    difficulty: i64,
    rounds: u32,
    start: i64,
) -> Result<AfOdds, AfOddsError> {
    let plan = Plan::new(still, party, difficulty, rounds);
    if plan.work(i128::from(start)) > MAX_WORK {
        return Err(AfOddsError::TooLarge {
            pcs: party.len(),
            rounds,
        });
    }
    let mut small = Tally::<u128>::start(&plan, i128::from(start));
    let mut k = 0;
    while k < plan.rolls {
        match small.roll(&plan, k) {
            Some(next) => small = next,
            // The counts outgrew u128 (after 24 rolls): go on from here in BigUint.
            None => break,
        }
        k += 1;
    }
    if k == plan.rolls {
        return Ok(small.widen().odds(plan.rolls));
    }
    let mut big = small.widen();
    while k < plan.rolls {
        big = big.roll(&plan, k).expect("BigUint counts cannot overflow");
        k += 1;
    }
    Ok(big.odds(plan.rolls))
}

/// `p` rounded to `digits` decimals, halves away from zero (up, for a probability):
/// `decimal(&(1/8), 2)` is `"0.13"`, and 1 to four decimals is `"1.0000"`. Exact: the
/// fraction itself is rounded, never a float.
pub fn decimal(p: &BigRational, digits: usize) -> String {
    let scale = BigInt::from(10u32).pow(u32::try_from(digits).unwrap_or(u32::MAX));
    let (numer, denom) = (p.numer().abs(), p.denom().abs());
    // round(n/d) for n, d > 0, halves up, is floor((2n + d) / 2d).
    let two = BigInt::from(2u32);
    let rounded = (numer * scale * &two + &denom) / (denom * two);
    let mut text = rounded.to_string();
    if text.len() <= digits {
        text.insert_str(0, &"0".repeat(digits + 1 - text.len()));
    }
    if digits > 0 {
        text.insert(text.len() - digits, '.');
    }
    if p.is_negative() && !rounded.is_zero() {
        text.insert(0, '-');
    }
    text
}

/// `p` as a percentage with two decimals, rounded as [`decimal`] does: `"83.45%"`,
/// `"100.00%"`.
pub fn percent(p: &BigRational) -> String {
    let hundred = BigRational::from_integer(BigInt::from(100u32));
    format!("{}%", decimal(&(p * hundred), 2))
}

/// A critical's achievement in an AF check (AW-7).
const CRITICAL_ACHIEVEMENT: i128 = 30;

/// The equally likely outcomes of one 2D6 roll.
const OUTCOMES: u32 = 36;

/// How many of the 36 outcomes of 2D6 give each dice total.
const TWO_D6: [(i64, u32); 11] = [
    (2, 1),
    (3, 2),
    (4, 3),
    (5, 4),
    (6, 5),
    (7, 6),
    (8, 5),
    (9, 4),
    (10, 3),
    (11, 2),
    (12, 1),
];

/// One PC's roll as the dynamic program sees it.
#[derive(Debug, Clone)]
struct Roll {
    /// Outcomes (of 36) that fumble.
    fumbles: u32,
    /// Distinct achievements, ascending, with how many outcomes (of 36) give each.
    achievements: Vec<(i128, u32)>,
}

impl Roll {
    /// AW-7 on one roll: critical first (30), as the roll itself decides (a total that is
    /// both says 自動成功, issue 13), then fumble, else value + dice.
    fn of(pc: &AfRoller) -> Self {
        let mut fumbles = 0;
        let mut achievements: Vec<(i128, u32)> = Vec::new();
        for (dice, ways) in TWO_D6 {
            let achievement = if dice >= pc.critical {
                CRITICAL_ACHIEVEMENT
            } else if dice <= pc.fumble {
                fumbles += ways;
                continue;
            } else {
                i128::from(pc.value) + i128::from(dice)
            };
            match achievements.iter_mut().find(|(a, _)| *a == achievement) {
                Some((_, w)) => *w += ways,
                None => achievements.push((achievement, ways)),
            }
        }
        achievements.sort_unstable();
        Self {
            fumbles,
            achievements,
        }
    }

    /// The least and the most this roll can add, unless it always fumbles.
    fn range(&self) -> Option<(i128, i128)> {
        Some((self.achievements.first()?.0, self.achievements.last()?.0))
    }
}

/// What stays fixed while the rolls are walked.
struct Plan {
    /// The rolls left in the round under way, before the whole rounds.
    first: Vec<Roll>,
    /// `first_gain_from[j]`: the most rolls `j..` of `first` can add (as `gain_from`).
    first_gain_from: Vec<i128>,
    /// One per PC, in action-value order.
    party: Vec<Roll>,
    /// `gain_from[j]`: the most PCs `j..` can add within one round, where a roll that
    /// can only lower the total counts 0 (the total may stop rising before it).
    gain_from: Vec<i128>,
    rounds: u32,
    rolls: u64,
    difficulty: i128,
}

impl Plan {
    fn new(still: &[AfRoller], party: &[AfRoller], difficulty: i64, rounds: u32) -> Self {
        let gains = |rolls: &[Roll]| {
            let mut gain_from = vec![0i128; rolls.len() + 1];
            for (j, roll) in rolls.iter().enumerate().rev() {
                let gain = roll.range().map_or(0, |(_, most)| most.max(0));
                gain_from[j] = gain_from[j + 1].saturating_add(gain);
            }
            gain_from
        };
        let first: Vec<Roll> = still.iter().map(Roll::of).collect();
        let party: Vec<Roll> = party.iter().map(Roll::of).collect();
        Self {
            rolls: (first.len() as u64)
                .saturating_add((party.len() as u64).saturating_mul(u64::from(rounds))),
            first_gain_from: gains(&first),
            gain_from: gains(&party),
            first,
            party,
            rounds,
            difficulty: i128::from(difficulty),
        }
    }

    /// The PC making roll `k` (from 0): those left in the round under way, then the
    /// party in order, round after round.
    fn roller(&self, k: u64) -> &Roll {
        let before = self.first.len() as u64;
        if k < before {
            return &self.first[k as usize];
        }
        &self.party[((k - before) % self.party.len() as u64) as usize]
    }

    /// The most rolls `k..` can still add to the total on the way to the difficulty.
    fn gain_left(&self, k: u64) -> i128 {
        let before = self.first.len() as u64;
        let whole = i128::from(self.rounds).saturating_mul(self.gain_from[0]);
        if k < before {
            return self.first_gain_from[k as usize].saturating_add(whole);
        }
        let k = k - before;
        let pcs = self.party.len() as u64;
        if pcs == 0 {
            return 0;
        }
        let (round, j) = (k / pcs, (k % pcs) as usize);
        let later_rounds = i128::from(self.rounds) - 1 - i128::from(round);
        // Saturating: only a party beyond any memory could get near i128's limits, and a
        // saturated gain merely widens the window (MAX_WORK then refuses it).
        self.gain_from[j].saturating_add(later_rounds.saturating_mul(self.gain_from[0]))
    }

    /// The totals before roll `k` worth tracking one by one, as an inclusive range, given
    /// the range of totals the tracked ones may have come to: below the difficulty (above
    /// it is success) and not so low that the rolls left cannot reach it.
    fn window(&self, k: u64, reachable: Option<(i128, i128)>) -> Option<(i128, i128)> {
        let (low, high) = reachable?;
        let low = low.max(self.difficulty - self.gain_left(k));
        let high = high.min(self.difficulty - 1);
        (low <= high).then_some((low, high))
    }

    /// The window before roll `k + 1`, from the one before roll `k`.
    fn next_window(&self, k: u64, window: Option<(i128, i128)>) -> Option<(i128, i128)> {
        let (low, high) = window?;
        let (least, most) = self.roller(k).range()?;
        self.window(k + 1, Some((low + least, high + most)))
    }

    /// What [`MAX_WORK`] limits: each roll's tracked cells, plus one for the pooled
    /// counts, times the 64-bit words a count may need by then. Stops counting once over.
    fn work(&self, start: i128) -> u64 {
        let mut work: u64 = 0;
        let mut window = self.window(0, Some((start, start)));
        for k in 0..self.rolls {
            let cells = window.map_or(0, |(low, high)| {
                u64::try_from(high - low + 1).unwrap_or(u64::MAX)
            });
            // 36^k < 2^(5.17·k): u128 (counted as one word) holds up to 24 rolls.
            let words = if k <= 24 {
                1
            } else {
                k.saturating_mul(517) / 6400 + 1
            };
            work = work.saturating_add(cells.saturating_add(1).saturating_mul(words));
            if work > MAX_WORK {
                break;
            }
            window = self.next_window(k, window);
        }
        work
    }
}

/// An exact count of dice sequences: `u128` while it fits, then `BigUint`.
trait Count: Zero + One + Clone {
    /// `self += x * ways`, or `None` when the result would not fit.
    fn add_ways(&mut self, x: &Self, ways: u32) -> Option<()>;
    fn widen(self) -> BigUint;
}

impl Count for u128 {
    fn add_ways(&mut self, x: &Self, ways: u32) -> Option<()> {
        *self = x.checked_mul(u128::from(ways))?.checked_add(*self)?;
        Some(())
    }
    fn widen(self) -> BigUint {
        BigUint::from(self)
    }
}

impl Count for BigUint {
    fn add_ways(&mut self, x: &Self, ways: u32) -> Option<()> {
        if ways != 0 && !x.is_zero() {
            *self += x * ways;
        }
        Some(())
    }
    fn widen(self) -> BigUint {
        self
    }
}

/// After k rolls, how many of the 36^k dice sequences ended where; they add up to 36^k.
#[derive(Debug, Clone)]
struct Tally<C> {
    /// The total of `running[0]`; `running[i]` holds total `low + i`.
    low: i128,
    /// Sequences still running with a total in the window, one count per total.
    running: Vec<C>,
    /// Sequences still running whose total can no longer reach the difficulty.
    hopeless: C,
    /// Sequences that reached the difficulty.
    success: C,
    /// Sequences that fumbled.
    fumble: C,
}

impl<C: Count> Tally<C> {
    /// Before any roll: one sequence (the empty one), at `start`.
    fn start(plan: &Plan, start: i128) -> Self {
        let mut tally = Self {
            low: start,
            running: Vec::new(),
            hopeless: C::zero(),
            success: C::zero(),
            fumble: C::zero(),
        };
        let one = if start >= plan.difficulty {
            &mut tally.success
        } else if plan.window(0, Some((start, start))).is_some() {
            tally.running.push(C::zero());
            &mut tally.running[0]
        } else {
            &mut tally.hopeless
        };
        *one = C::one();
        tally
    }

    /// Roll `k` (from 0): each sequence so far branches into the 36 outcomes of 2D6.
    /// `None` when a count would not fit in `C`.
    fn roll(&self, plan: &Plan, k: u64) -> Option<Self> {
        let roll = plan.roller(k);
        let window = plan.next_window(k, self.window());
        let (low, width) = window.map_or((0, 0), |(low, high)| {
            (
                low,
                usize::try_from(high - low + 1).expect("MAX_WORK bounds the window"),
            )
        });
        let mut next = Self {
            low,
            running: vec![C::zero(); width],
            hopeless: C::zero(),
            success: C::zero(),
            fumble: C::zero(),
        };
        next.success.add_ways(&self.success, OUTCOMES)?;
        next.fumble.add_ways(&self.fumble, OUTCOMES)?;
        next.fumble.add_ways(&self.hopeless, roll.fumbles)?;
        next.hopeless
            .add_ways(&self.hopeless, OUTCOMES - roll.fumbles)?;
        for (total, count) in (self.low..).zip(&self.running) {
            if count.is_zero() {
                continue;
            }
            next.fumble.add_ways(count, roll.fumbles)?;
            for &(achievement, ways) in &roll.achievements {
                let total = total + achievement;
                let slot = if total >= plan.difficulty {
                    &mut next.success
                } else if total < low || width == 0 {
                    // Below the window is exactly what the rolls left cannot lift to
                    // the difficulty.
                    &mut next.hopeless
                } else {
                    let i = usize::try_from(total - low).expect("in the window");
                    &mut next.running[i]
                };
                slot.add_ways(count, ways)?;
            }
        }
        Some(next)
    }

    /// The tracked totals, as an inclusive range.
    fn window(&self) -> Option<(i128, i128)> {
        let width = i128::try_from(self.running.len()).ok()?;
        (width > 0).then(|| (self.low, self.low + width - 1))
    }

    fn widen(self) -> Tally<BigUint> {
        Tally {
            low: self.low,
            running: self.running.into_iter().map(C::widen).collect(),
            hopeless: self.hopeless.widen(),
            success: self.success.widen(),
            fumble: self.fumble.widen(),
        }
    }
}

impl Tally<BigUint> {
    /// The counts after all `rolls` as probabilities. Sequences still running once the
    /// rolls are spent ran out of rounds (the window before "roll `rolls`" is empty, so
    /// there are none, but they would count there).
    fn odds(self, rolls: u64) -> AfOdds {
        let all = BigInt::from(
            BigUint::from(OUTCOMES).pow(u32::try_from(rolls).expect("MAX_WORK bounds the rolls")),
        );
        let left: BigUint = self.running.into_iter().sum::<BigUint>() + self.hopeless;
        let p = |count: BigUint| BigRational::new(BigInt::from(count), all.clone());
        AfOdds {
            success: p(self.success),
            fumble: p(self.fumble),
            out_of_rounds: p(left),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn odds(party: &[AfRoller], difficulty: i64, rounds: u32, start: i64) -> AfOdds {
        af_odds(party, difficulty, rounds, start).expect("small AF checks are computed")
    }

    fn roller(value: i64, critical: i64, fumble: i64) -> AfRoller {
        AfRoller {
            value,
            critical,
            fumble,
        }
    }

    fn assert_sums_to_one(o: &AfOdds) {
        assert_eq!(
            &o.success + &o.fumble + &o.out_of_rounds,
            BigRational::one(),
            "{o:?}"
        );
    }

    /// AW-7 applied to every one of the 36^k dice sequences in turn, no cleverness: counts
    /// of (success, fumble, out of rounds).
    fn brute_force(party: &[AfRoller], difficulty: i64, rounds: u32, start: i64) -> AfOdds {
        let order: Vec<AfRoller> = (0..rounds).flat_map(|_| party.iter().copied()).collect();
        brute_force_in_order(&order, difficulty, start)
    }

    /// [`brute_force`] over the rolls in `order`, one roll each.
    fn brute_force_in_order(order: &[AfRoller], difficulty: i64, start: i64) -> AfOdds {
        let rolls = order.len();
        let sequences = 36u64.pow(u32::try_from(rolls).expect("few rolls"));
        let (mut success, mut fumble, mut out) = (0i64, 0i64, 0i64);
        for mut code in 0..sequences {
            let mut dice = Vec::with_capacity(rolls);
            for _ in 0..rolls {
                let (a, b) = (code % 6 + 1, (code / 6) % 6 + 1);
                code /= 36;
                dice.push(i64::try_from(a + b).expect("small"));
            }
            let mut total = start;
            let mut fumbled = false;
            for (i, &s) in dice.iter().enumerate() {
                if total >= difficulty {
                    break;
                }
                let pc = order[i];
                // As the roll decides (SRS): a critical first, then a fumble.
                if s < pc.critical && s <= pc.fumble {
                    fumbled = true;
                    break;
                }
                total += if s >= pc.critical { 30 } else { pc.value + s };
            }
            if total >= difficulty {
                success += 1;
            } else if fumbled {
                fumble += 1;
            } else {
                out += 1;
            }
        }
        let all = i64::try_from(sequences).expect("few rolls");
        AfOdds {
            success: ratio(success, all),
            fumble: ratio(fumble, all),
            out_of_rounds: ratio(out, all),
        }
    }

    #[test]
    fn aw7_matches_brute_force_enumeration_of_every_dice_sequence() {
        let cases: &[(&[AfRoller], i64, u32, i64)] = &[
            (&[AfRoller::new(3)], 10, 1, 0),
            (&[AfRoller::new(3)], 30, 1, 0),
            (&[AfRoller::new(0)], 30, 2, 0),
            (&[AfRoller::new(5)], 20, 2, 0),
            (&[AfRoller::new(5)], 20, 2, 7),
            (&[AfRoller::new(5)], 20, 2, 25),
            (&[AfRoller::new(-12)], 5, 2, 0),
            (&[AfRoller::new(-40)], -50, 2, 0),
            (&[AfRoller::new(-20)], 20, 2, 10),
            (&[roller(4, 10, 3)], 25, 2, 0),
            (&[roller(4, 2, 2)], 40, 2, 0),
            (&[roller(4, 5, 7)], 40, 2, 0),
            (&[roller(1, 13, 1)], 15, 2, 0),
            (&[roller(1, 13, 12)], 15, 2, 0),
            (&[roller(-3, 0, 0)], 60, 2, 0),
            (&[AfRoller::new(3), AfRoller::new(4)], 30, 1, 0),
            (&[AfRoller::new(3), roller(6, 11, 3)], 45, 1, 5),
            (&[AfRoller::new(-15), AfRoller::new(20)], 25, 1, 0),
            (&[AfRoller::new(3), AfRoller::new(4)], 50, 2, 0),
            (&[roller(2, 11, 3), roller(-25, 12, 2)], 40, 2, 10),
            (&[AfRoller::new(3), AfRoller::new(4)], 40, 0, 0),
            (&[], 40, 2, 0),
        ];
        for &(party, difficulty, rounds, start) in cases {
            let computed = odds(party, difficulty, rounds, start);
            let expected = brute_force(party, difficulty, rounds, start);
            assert_eq!(
                computed, expected,
                "{party:?} D={difficulty} R={rounds} start={start}"
            );
        }
    }

    /// AW-7 during a round (issue 17: the panel's odds mid-round): the PCs yet to roll
    /// in this round roll first, then whole rounds; the same as enumerating every
    /// sequence of exactly those rolls.
    #[test]
    fn aw7_mid_round_odds_match_brute_force_of_the_rolls_left() {
        let (a, b, c) = (AfRoller::new(3), roller(6, 11, 3), AfRoller::new(-2));
        // (still to roll, party, difficulty, whole rounds after, start)
        type Case<'a> = (&'a [AfRoller], &'a [AfRoller], i64, u32, i64);
        let cases: &[Case] = &[
            (&[b], &[a, b], 30, 1, 4),
            (&[c], &[a, c], 25, 1, 0),
            (&[b, c], &[a, b, c], 40, 0, 7),
            (&[c], &[a, b, c], 60, 1, 12),
            (&[], &[a, b], 30, 2, 0),
            (&[a], &[], 20, 3, 10),
            (&[b], &[a, b], 5, 1, 5),
        ];
        for &(still, party, difficulty, rounds, start) in cases {
            let computed = af_odds_mid_round(still, party, difficulty, rounds, start)
                .expect("small AF checks are computed");
            let order: Vec<AfRoller> = still
                .iter()
                .copied()
                .chain((0..rounds).flat_map(|_| party.iter().copied()))
                .collect();
            assert_eq!(
                computed,
                brute_force_in_order(&order, difficulty, start),
                "still {still:?} party {party:?} D={difficulty} R={rounds} start={start}"
            );
        }
        // Nobody left this round is a whole-round computation.
        assert_eq!(
            af_odds_mid_round(&[], &[a, b], 30, 2, 3),
            af_odds(&[a, b], 30, 2, 3)
        );
    }

    #[test]
    fn aw7_only_a_critical_reaches_30_from_value_0() {
        let o = odds(&[AfRoller::new(0)], 30, 1, 0);
        assert_eq!(o.success, ratio(1, 36));
        assert_eq!(o.fumble, ratio(1, 36));
        assert_eq!(o.out_of_rounds, ratio(34, 36));
    }

    #[test]
    fn aw7_value_100_reaches_50_unless_it_fumbles_or_criticals() {
        // AW-7 counts a critical as 30, not as value + dice: a 12 adds 30 < 50.
        let o = odds(&[AfRoller::new(100)], 50, 1, 0);
        assert_eq!(o.success, ratio(34, 36));
        assert_eq!(o.fumble, ratio(1, 36));
        assert_eq!(o.out_of_rounds, ratio(1, 36));
        // With criticals turned off (critical value 13) only the fumble stops it.
        let o = odds(&[roller(100, 13, 2)], 50, 1, 0);
        assert_eq!(o.success, ratio(35, 36));
        assert_eq!(o.fumble, ratio(1, 36));
    }

    #[test]
    fn aw7_fumble_value_3_fumbles_3_outcomes_in_36() {
        let o = odds(&[roller(3, 12, 3)], 80, 1, 0);
        assert_eq!(o.fumble, ratio(3, 36));
        assert!(o.success.is_zero());
    }

    #[test]
    fn aw7_critical_is_checked_before_fumble_as_the_roll_does() {
        // Critical 2 and fumble 2: the roll calls a 2 自動成功 (critical first), so every
        // total is a critical here (issue 13: `taku prob --af` and the roll agree).
        let o = odds(&[roller(0, 2, 2)], 30, 1, 0);
        assert!(o.fumble.is_zero());
        assert!(o.success.is_one());
    }

    #[test]
    fn aw7_without_rolls_the_start_decides() {
        let four = [AfRoller::new(3); 4];
        for (party, rounds) in [(&four[..], 0), (&[][..], 3)] {
            let o = odds(party, 80, rounds, 79);
            assert!(o.out_of_rounds.is_one(), "{o:?}");
            let o = odds(party, 80, rounds, 80);
            assert!(o.success.is_one(), "{o:?}");
        }
        // A start at the difficulty succeeds before anyone can fumble.
        let o = odds(&four, 80, 2, 95);
        assert!(o.success.is_one());
    }

    #[test]
    fn issue13_a_critical_value_at_or_below_the_fumble_value_is_a_critical_as_the_roll_says() {
        // Critical 2, fumble 12: the roll says 自動成功 for every total, so every roll
        // counts 30 and nothing fumbles.
        let pc = AfRoller {
            value: 0,
            critical: 2,
            fumble: 12,
        };
        let o = odds(&[pc], 30, 1, 0);
        assert!(o.success.is_one(), "{o:?}");
        assert!(o.fumble.is_zero(), "{o:?}");
    }

    #[test]
    fn aw7_a_negative_value_can_lower_the_total() {
        // Value -5 from 10 towards 39 in two rounds: a plain roll adds dice - 5 (-2..6),
        // so after a plain first roll only a critical second roll can finish, and only
        // from 9 or more: a first roll of 3 (2 ways of 36) leaves 8, too low. Success:
        // a first critical (36 of 1296) or a first 4..11 then a critical (32 · 1).
        let o = odds(&[AfRoller::new(-5)], 39, 2, 10);
        assert_eq!(o.success, ratio(36 + 32, 1296));
        // A fumble first (36), or a plain first roll then a fumble (34 · 1).
        assert_eq!(o.fumble, ratio(36 + 34, 1296));
        assert_sums_to_one(&o);
    }

    #[test]
    fn aw7_the_seed_presets_are_neither_certain_nor_hopeless() {
        // A party of four with judgement value 3 (AW-7 GM guide: an average check yields 10).
        let party = [AfRoller::new(3); 4];
        for (difficulty, rounds) in [(80, 2), (100, 3), (120, 5)] {
            let o = odds(&party, difficulty, rounds, 0);
            assert!(
                o.success.is_positive() && o.success < BigRational::one(),
                "{o:?}"
            );
            assert!(o.fumble.is_positive(), "{o:?}");
            assert_sums_to_one(&o);
        }
        // Infiltrate (120, five rounds): every roll adds at least 6, so twenty rolls
        // reach 120 unless someone fumbles; the rounds never run out.
        assert!(odds(&party, 120, 5, 0).out_of_rounds.is_zero());
        assert!(odds(&party, 80, 2, 0).out_of_rounds.is_positive());
        // Escape (50, one round, solo): one roll adds at most 30, so it takes ten
        // declared skills (difficulty 30) to have a chance, and then only a critical.
        let solo = [AfRoller::new(3)];
        assert!(odds(&solo, 50, 1, 0).success.is_zero());
        assert_eq!(odds(&solo, 30, 1, 0).success, ratio(1, 36));
    }

    #[test]
    fn aw7_higher_difficulty_never_helps_and_more_rounds_never_hurt() {
        let party = [
            AfRoller::new(3),
            AfRoller::new(4),
            AfRoller::new(2),
            AfRoller::new(5),
        ];
        let mut last = BigRational::one();
        for difficulty in (40..=140).step_by(5) {
            let o = odds(&party, difficulty, 2, 0);
            assert!(o.success <= last, "D={difficulty}");
            assert_sums_to_one(&o);
            last = o.success;
        }
        let mut last = BigRational::zero();
        for rounds in 0..=5 {
            let o = odds(&party, 100, rounds, 0);
            assert!(o.success >= last, "R={rounds}");
            last = o.success;
        }
    }

    /// The same dynamic program counted in BigUint from the first roll.
    fn odds_in_big_counts(party: &[AfRoller], difficulty: i64, rounds: u32) -> AfOdds {
        let plan = Plan::new(&[], party, difficulty, rounds);
        let mut tally = Tally::<BigUint>::start(&plan, 0);
        for k in 0..plan.rolls {
            tally = tally
                .roll(&plan, k)
                .expect("BigUint counts cannot overflow");
        }
        tally.odds(plan.rolls)
    }

    #[test]
    fn aw7_long_checks_switch_to_big_counts_exactly() {
        // 6 PCs × 5 rounds = 30 rolls: 36^30 does not fit in u128, so the counts move to
        // BigUint after roll 24; the result must not depend on when.
        let party = [3, 4, 2, 5, 3, 4].map(AfRoller::new);
        let o = odds(&party, 200, 5, 0);
        assert!(o.success.is_positive() && o.success < BigRational::one());
        assert_sums_to_one(&o);
        assert_eq!(o, odds_in_big_counts(&party, 200, 5));
        assert!(odds(&party, 200, 6, 0).success > o.success);
        // Out of reach (30 rolls add at most 900): only fumbles decide, 1 - (35/36)^30.
        let o = odds(&party, 10_000, 5, 0);
        let none = BigRational::new(BigInt::from(35u32).pow(30), BigInt::from(36u32).pow(30));
        assert!(o.success.is_zero());
        assert_eq!(o.out_of_rounds, none);
    }

    #[test]
    fn aw7_refuses_absurd_parties_with_a_reason() {
        let party = vec![AfRoller::new(3); 1000];
        let err = af_odds(&party, 1_000_000, 1000, 0).expect_err("too large");
        assert_eq!(
            err,
            AfOddsError::TooLarge {
                pcs: 1000,
                rounds: 1000
            }
        );
        assert!(
            err.to_string().contains("1000 PCs over 1000 rounds"),
            "{err}"
        );
        // Achievements from 30 to a billion and a difficulty a hundred rolls away: the
        // totals worth tracking span billions.
        let wide = [AfRoller::new(1_000_000_000)];
        assert!(af_odds(&wide, 50_000_000_000, 100, 0).is_err());
    }

    #[test]
    fn aw7_extreme_values_do_not_panic() {
        let party = [
            roller(i64::MAX, i64::MIN, i64::MIN),
            roller(i64::MIN, i64::MAX, i64::MAX),
            roller(i64::MIN, i64::MAX, i64::MIN),
            roller(i64::MAX, i64::MAX, i64::MIN),
        ];
        for difficulty in [i64::MIN, -1, 0, 50, i64::MAX] {
            for start in [i64::MIN, 0, i64::MAX] {
                if let Ok(o) = af_odds(&party, difficulty, 3, start) {
                    assert_sums_to_one(&o);
                }
            }
        }
    }

    #[test]
    fn aw7_odds_print_rounded_half_up() {
        assert_eq!(decimal(&ratio(1, 8), 2), "0.13");
        assert_eq!(decimal(&ratio(1, 3), 4), "0.3333");
        assert_eq!(decimal(&ratio(2, 3), 4), "0.6667");
        assert_eq!(decimal(&ratio(1, 1), 4), "1.0000");
        assert_eq!(decimal(&ratio(0, 1), 4), "0.0000");
        assert_eq!(decimal(&ratio(1, 2), 0), "1");
        assert_eq!(decimal(&ratio(1, 200_000), 4), "0.0000");
        assert_eq!(decimal(&ratio(1, 20_000), 4), "0.0001");
        assert_eq!(decimal(&ratio(-1, 8), 2), "-0.13");
        assert_eq!(decimal(&ratio(-1, 1000), 2), "0.00");
        assert_eq!(percent(&ratio(1, 1)), "100.00%");
        assert_eq!(percent(&ratio(0, 1)), "0.00%");
        assert_eq!(percent(&ratio(1, 36)), "2.78%");
        assert_eq!(percent(&ratio(1669, 2000)), "83.45%");
        assert_eq!(percent(&ratio(16_689, 20_000)), "83.45%");
        assert_eq!(percent(&ratio(16_685, 20_000)), "83.43%");
    }
}
