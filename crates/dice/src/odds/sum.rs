//! Closed-form odds of AddDice (§3.1) sums and BarabaraDice (§3.2) counts: the distribution of each dice term by
//! convolution, combined through the expression's arithmetic. Used where enumerating
//! every draw sequence would take too long (the sum of 100D6 has 6^100 of them, but only
//! 501 totals).
//!
//! Counts are exact: `ways[total]` over `Π sides^count` in big integers. Only the plain
//! case is done here — counts 1..=200, sides 1..=10,000 (not 66: a D66 in a sum), keep/
//! drop over at most a million sorted outcomes, no arithmetic error on any outcome;
//! anything else answers `None` and is enumerated instead, by the same code that rolls it.

use super::{Odds, Outcome, Prob};
use crate::ast::{AddDice, Barabara, BinOp, CmpOp, Expr, FilterKind, Reroll, Target, Upper};
use crate::expr::{apply, eval_arith_zero_is_one};
use crate::profile::Profile;
use crate::roller::{MAX_DICE_PER_GROUP, MAX_DRAWS, MAX_SIDES};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// A distribution as integer ways over a common denominator.
#[derive(Debug, Clone, PartialEq)]
struct Dist {
    ways: BTreeMap<i64, BigUint>,
    den: BigUint,
}

impl Dist {
    fn constant(v: i64) -> Dist {
        Dist {
            ways: BTreeMap::from([(v, BigUint::one())]),
            den: BigUint::one(),
        }
    }

    /// `f(a, b)` for independent `a` from self and `b` from other; `None` if `f` fails.
    fn combine(&self, other: &Dist, f: impl Fn(i64, i64) -> Option<i64>) -> Option<Dist> {
        let mut ways: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (a, wa) in &self.ways {
            for (b, wb) in &other.ways {
                *ways.entry(f(*a, *b)?).or_insert_with(BigUint::zero) += wa * wb;
            }
        }
        Some(Dist {
            ways,
            den: &self.den * &other.den,
        })
    }

    /// As odds: each value with its probability and the verdict `verdict` gives it. What
    /// `ways` leaves out (chains cut at `cut_below`) is the tail; `max_draws` and
    /// `cut_below` are 0 for a distribution that was never cut.
    fn into_odds(
        self,
        verdict: impl Fn(i64) -> Option<bool>,
        max_draws: usize,
        cut_below: u128,
    ) -> Odds {
        let mut kept = Prob::zero();
        let outcomes = self
            .ways
            .into_iter()
            .filter(|(_, w)| !w.is_zero())
            .map(|(value, w)| {
                let p = Prob::new(w, self.den.clone());
                kept += &p;
                let verdict = verdict(value);
                let outcome = Outcome {
                    value: Some(value),
                    success: verdict == Some(true),
                    failure: verdict == Some(false),
                    critical: false,
                    fumble: false,
                };
                (outcome, p)
            })
            .collect();
        Odds {
            outcomes,
            tail: Prob::one() - kept,
            max_draws,
            cut_below,
            paths: 0,
        }
    }

    fn map(&self, f: impl Fn(i64) -> Option<i64>) -> Option<Dist> {
        let mut ways: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (v, w) in &self.ways {
            *ways.entry(f(*v)?).or_insert_with(BigUint::zero) += w;
        }
        Some(Dist {
            ways,
            den: self.den.clone(),
        })
    }
}

/// The ways to roll each total of `count` dice of `sides` sides: `count` rounds of a
/// sliding-window sum (each round adds one die: `next[t] = Σ prev[t-1 ..= t-sides]`), so
/// the cost is `count × totals` additions whatever `sides` is.
pub fn dice_sum_ways(count: u32, sides: u32) -> (u32, Vec<BigUint>) {
    // Index i is the total count + i (the lowest total is all ones).
    let mut ways = vec![BigUint::one()];
    let s = sides as usize;
    for _ in 0..count {
        let mut next = vec![BigUint::zero(); ways.len() + s - 1];
        let mut window = BigUint::zero();
        for (t, slot) in next.iter_mut().enumerate() {
            if let Some(w) = ways.get(t) {
                window += w;
            }
            if t >= s {
                window -= &ways[t - s];
            }
            *slot = window.clone();
        }
        ways = next;
    }
    (count, ways)
}

fn dice(count: i64, sides: i64) -> Option<Dist> {
    // A 66-sided die in a sum is a D66 draw (§3.1), not a uniform 1..66: enumerated.
    if !(1..=MAX_DICE_PER_GROUP).contains(&count)
        || !(1..=MAX_SIDES).contains(&sides)
        || sides == 66
    {
        return None;
    }
    let (count, sides) = (u32::try_from(count).ok()?, u32::try_from(sides).ok()?);
    let (low, ways) = dice_sum_ways(count, sides);
    Some(Dist {
        ways: ways
            .into_iter()
            .enumerate()
            .map(|(i, w)| (i64::from(low) + i as i64, w))
            .collect(),
        den: BigUint::from(sides).pow(count),
    })
}

/// Most sorted outcomes (multisets) [`kept`] walks.
const MAX_MULTISETS: u128 = 1_000_000;

/// Keep or drop `n` of `count` dice of `sides` sides: every sorted outcome (a multiset of
/// faces, `C(count + sides − 1, count)` of them) with its number of orderings
/// `count! / Π multiplicity!`, summed over the kept faces as the roll sorts and slices
/// them.
fn kept(count: i64, sides: i64, kind: FilterKind, n: i64) -> Option<Dist> {
    if !(1..=MAX_DICE_PER_GROUP).contains(&count)
        || !(1..=MAX_SIDES).contains(&sides)
        || sides == 66
        || n < 0
    {
        return None;
    }
    let (count, sides) = (u32::try_from(count).ok()?, u32::try_from(sides).ok()?);
    // C(count + sides - 1, count), stopping once past the limit.
    let mut multisets: u128 = 1;
    for i in 1..=u128::from(count.min(sides - 1)) {
        multisets = multisets * (u128::from(count.max(sides - 1)) + i) / i;
        if multisets > MAX_MULTISETS {
            return None;
        }
    }
    let keep = usize::try_from(n).unwrap_or(usize::MAX).min(count as usize);
    let len = count as usize;
    // The kept range of the sorted dice.
    let (lo, hi) = match kind {
        FilterKind::KeepHighest => (len - keep, len),
        FilterKind::KeepLowest => (0, keep),
        FilterKind::DropHighest => (0, len - keep),
        FilterKind::DropLowest => (keep, len),
    };
    let factorial: Vec<BigUint> = std::iter::once(BigUint::one())
        .chain((1..=count).scan(BigUint::one(), |f, i| {
            *f *= i;
            Some(f.clone())
        }))
        .collect();
    let mut ways: BTreeMap<i64, BigUint> = BTreeMap::new();
    // Multiplicities of faces 1..=sides, built face by face.
    let mut mult = vec![0u32; sides as usize];
    fn walk(face: usize, left: u32, mult: &mut [u32], visit: &mut dyn FnMut(&[u32])) {
        if face + 1 == mult.len() {
            mult[face] = left;
            visit(mult);
            return;
        }
        for m in 0..=left {
            mult[face] = m;
            walk(face + 1, left - m, mult, visit);
        }
    }
    walk(0, count, &mut mult, &mut |mult| {
        let (mut at, mut sum) = (0usize, 0i64);
        let mut orderings = factorial[count as usize].clone();
        for (face, &m) in mult.iter().enumerate() {
            let m = m as usize;
            let inside = (at + m).min(hi).saturating_sub(at.max(lo));
            sum += (face as i64 + 1) * inside as i64;
            at += m;
            orderings /= &factorial[m];
        }
        *ways.entry(sum).or_insert_with(BigUint::zero) += orderings;
    });
    Some(Dist {
        ways,
        den: BigUint::from(sides).pow(count),
    })
}

fn dist(e: &Expr, profile: &Profile, dice_drawn: &mut i64) -> Option<Dist> {
    match e {
        Expr::Num(n) => Some(Dist::constant(*n)),
        Expr::Paren(x) => dist(x, profile, dice_drawn),
        Expr::Neg(x) => dist(x, profile, dice_drawn)?.map(i64::checked_neg),
        Expr::Bin(op, operands) => {
            let (l, r) = (
                dist(&operands.0, profile, dice_drawn)?,
                dist(&operands.1, profile, dice_drawn)?,
            );
            let op = *op;
            if matches!(op, BinOp::Div(_)) && r.ways.contains_key(&0) {
                return None;
            }
            l.combine(&r, |a, b| apply(op, a, b, profile.rounding).ok())
        }
        Expr::Dice(d) => {
            let eval = |e: &Expr| eval_arith_zero_is_one(e, profile.rounding).ok();
            let count = d.count.as_ref().map_or(Some(1), eval)?;
            let sides = d
                .sides
                .as_ref()
                .map_or(Some(profile.implicit_sides), eval)?;
            *dice_drawn += count.max(0);
            match &d.filter {
                None => dice(count, sides),
                Some(f) => {
                    let n = f.count.as_ref().map_or(Some(1), eval)?;
                    kept(count, sides, f.kind, n)
                }
            }
        }
    }
}

/// The exact odds of an AddDice command in closed form; `None` when it is not the plain
/// case (enumerate it instead).
pub fn add_dice(cmd: &AddDice, profile: &Profile) -> Option<Odds> {
    let mut dice = 0;
    let d = dist(&cmd.expr, profile, &mut dice)?;
    if dice > MAX_DRAWS as i64 {
        return None; // the roll itself refuses this many draws
    }
    let target = match &cmd.cmp {
        None => None,
        Some((_, Target::Unknown)) => None,
        Some((op, Target::Value(t))) => {
            Some((*op, eval_arith_zero_is_one(t, profile.rounding).ok()?))
        }
    };
    Some(d.into_odds(|total| target.map(|(op, t)| op.holds(total, t)), 0, 0))
}

/// The ways to get each number of successes from `count` dice of `sides` sides of which
/// `hits` faces succeed: `C(count, j) · hits^j · (sides − hits)^(count − j)`.
fn binomial_ways(count: u32, sides: u32, hits: u32) -> Vec<BigUint> {
    let mut ways = Vec::with_capacity(count as usize + 1);
    let mut choose = BigUint::one();
    for j in 0..=count {
        ways.push(
            &choose * BigUint::from(hits).pow(j) * BigUint::from(sides - hits).pow(count - j),
        );
        choose = choose * (count - j) / (j + 1);
    }
    ways
}

/// The exact odds of a BarabaraDice command in closed form: with a target, the number
/// of dice meeting it (a sum of binomials, one per group); without, the sum of the dice.
/// `None` outside the plain case (enumerate it instead).
pub fn barabara(cmd: &Barabara, profile: &Profile) -> Option<Odds> {
    let sizes = crate::command::groups::eval(&cmd.groups, profile.rounding).ok()?;
    let target = match &cmd.cmp {
        Some((op, t)) => Some((*op, crate::expr::eval_arith(t, profile.rounding).ok()?)),
        None => None,
    };
    let mut total = Dist::constant(0);
    let mut dice_drawn = 0i64;
    for (count, sides) in sizes {
        dice_drawn += count.max(0);
        let group = match target {
            None => dice(count, sides)?,
            Some((op, t)) => {
                if !(1..=MAX_DICE_PER_GROUP).contains(&count) || !(1..=MAX_SIDES).contains(&sides) {
                    return None;
                }
                let hits = (1..=sides).filter(|&v| op.holds(v, t)).count();
                let (count, sides) = (u32::try_from(count).ok()?, u32::try_from(sides).ok()?);
                Dist {
                    ways: binomial_ways(count, sides, u32::try_from(hits).ok()?)
                        .into_iter()
                        .enumerate()
                        .map(|(j, w)| (j as i64, w))
                        .collect(),
                    den: BigUint::from(sides).pow(count),
                }
            }
        };
        total = total.combine(&group, i64::checked_add)?;
    }
    if dice_drawn > MAX_DRAWS as i64 || dice_drawn == 0 {
        return None;
    }
    Some(total.into_odds(|_| None, 0, 0))
}

/// The successes of one reroll chain (§3.8): a die is rolled, counts if it meets the
/// success condition, and is rolled again while it meets the reroll condition. `ways[s]`
/// over `sides^length`; chains still rolling after `length` dice are left out (their
/// mass is the tail).
fn chain(
    sides: u32,
    length: u32,
    success: impl Fn(i64) -> bool,
    again: impl Fn(i64) -> bool,
) -> Vec<BigUint> {
    // Faces by (success, again).
    let mut faces = [[0u32; 2]; 2];
    for v in 1..=i64::from(sides) {
        faces[usize::from(success(v))][usize::from(again(v))] += 1;
    }
    let m = BigUint::from(sides);
    let mut stopped: Vec<BigUint> = vec![BigUint::zero(); length as usize + 2];
    let mut running: Vec<BigUint> = vec![BigUint::one()];
    for j in 1..=length {
        let pad = m.pow(length - j);
        let mut next = vec![BigUint::zero(); running.len() + 1];
        for (s, w) in running.iter().enumerate() {
            if w.is_zero() {
                continue;
            }
            for hit in 0..2 {
                let stop = w * faces[hit][0];
                if !stop.is_zero() {
                    stopped[s + hit] += stop * &pad;
                }
                let go = w * faces[hit][1];
                if !go.is_zero() {
                    next[s + hit] += go;
                }
            }
        }
        running = next;
    }
    while stopped.last().is_some_and(Zero::is_zero) {
        stopped.pop();
    }
    stopped
}

/// The exact odds of a RerollDice command: every original die starts an independent
/// chain, so the successes are the chains' convolution. Chains are followed until one is
/// rarer than `1 / cut_below` (the rest is the tail, as when enumerating); `None` outside
/// the plain case (enumerate it instead).
pub fn reroll(cmd: &Reroll, profile: &Profile, cut_below: u128) -> Option<Odds> {
    let sizes = crate::command::groups::eval(&cmd.groups, profile.rounding).ok()?;
    let cmp = match &cmd.cmp {
        Some((op, t)) => Some((*op, crate::expr::eval_arith(t, profile.rounding).ok()?)),
        None => None,
    };
    let written = match &cmd.reroll {
        Some((_, op, t)) => Some((*op, crate::expr::eval_arith(t, profile.rounding).ok()?)),
        None => None,
    };
    let again_op = written
        .and_then(|(op, _)| op)
        .or(cmp.map(|(op, _)| op))
        .unwrap_or(CmpOp::Ge);
    let threshold = written.map(|(_, t)| t).or(cmp.map(|(_, t)| t))?;
    let total_dice: i64 = sizes.iter().map(|&(n, _)| n).sum();
    let mut dist = Dist::constant(0);
    for &(count, sides) in &sizes {
        if !(1..=MAX_DICE_PER_GROUP).contains(&count) || !(2..=MAX_SIDES).contains(&sides) {
            return None;
        }
        let again_faces = (1..=sides)
            .filter(|&v| again_op.holds(v, threshold))
            .count() as f64;
        // A condition every face meets is refused by the roll itself (a message).
        if again_faces >= sides as f64 {
            return None;
        }
        // Long enough that a chain still rolling is rarer than 1 / (cut_below · dice).
        let p = again_faces / sides as f64;
        let length = if p == 0.0 {
            1
        } else {
            ((cut_below as f64 * total_dice as f64).ln() / -p.ln())
                .ceil()
                .max(1.0) as u32
        };
        if i64::from(length) * total_dice > crate::roller::MAX_DRAWS as i64 {
            return None;
        }
        let (n, m) = (u32::try_from(count).ok()?, u32::try_from(sides).ok()?);
        let one = chain(
            m,
            length,
            |v| cmp.is_some_and(|(op, t)| op.holds(v, t)),
            |v| again_op.holds(v, threshold),
        );
        let one = Dist {
            ways: one
                .into_iter()
                .enumerate()
                .map(|(s, w)| (s as i64, w))
                .collect(),
            den: BigUint::from(m).pow(length),
        };
        for _ in 0..n {
            dist = dist.combine(&one, i64::checked_add)?;
        }
    }
    Some(dist.into_odds(|_| None, crate::roller::MAX_DRAWS, cut_below))
}

/// How many draws a chain may take so that one still going after them is rarer than
/// `1 / (cut_below · dice)`, when each draw continues it with probability `p`.
fn chain_length(p: f64, cut_below: u128, dice: i64) -> u32 {
    if p <= 0.0 {
        1
    } else {
        ((cut_below as f64 * dice as f64).ln() / -p.ln())
            .ceil()
            .max(1.0) as u32
    }
}

/// The sum of one UpperDice chain (§3.9): a die is rolled again while it shows
/// `threshold` or more, and its draws add up. `ways[sum]` over `sides^length`; chains
/// still rolling after `length` draws are left out (their mass is the tail).
fn upper_chain(sides: u32, threshold: i64, length: u32) -> BTreeMap<i64, BigUint> {
    let m = BigUint::from(sides);
    let mut stopped: BTreeMap<i64, BigUint> = BTreeMap::new();
    let mut running: BTreeMap<i64, BigUint> = BTreeMap::from([(0, BigUint::one())]);
    for j in 1..=length {
        let pad = m.pow(length - j);
        let mut next: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (sum, w) in &running {
            for v in 1..=i64::from(sides) {
                if v >= threshold {
                    *next.entry(sum + v).or_insert_with(BigUint::zero) += w;
                } else {
                    *stopped.entry(sum + v).or_insert_with(BigUint::zero) += w * &pad;
                }
            }
        }
        running = next;
    }
    stopped
}

/// Most values a closed-form UpperDice distribution may hold.
const MAX_UPPER_VALUES: usize = 200_000;

/// The exact odds of an UpperDice command: each die's chain is independent, so with a
/// target the successes are a sum of Bernoulli trials (one per die), and without one the
/// total is the chains' convolution plus the modifier. Chains are followed until rarer
/// than `1 / cut_below` (the rest is the tail); `None` outside the plain case.
pub fn upper(cmd: &Upper, profile: &Profile, cut_below: u128) -> Option<Odds> {
    let rounding = profile.rounding;
    let sizes = crate::command::groups::eval(&cmd.groups, rounding).ok()?;
    let threshold = match &cmd.threshold {
        Some((_, t)) => crate::expr::eval_arith(t, rounding).ok()?,
        None => 0,
    };
    if threshold <= 1 {
        return None; // the roll answers with a message
    }
    let mut modifier = 0i64;
    for (minus, term) in &cmd.modifier {
        let v = crate::expr::eval_arith(term, rounding).ok()?;
        modifier = if *minus {
            modifier.checked_sub(v)?
        } else {
            modifier.checked_add(v)?
        };
    }
    let cmp = match &cmd.cmp {
        Some((op, t)) => Some((*op, crate::expr::eval_arith(t, rounding).ok()?)),
        None => None,
    };
    let total_dice: i64 = sizes.iter().map(|&(n, _)| n).sum();
    let mut dist = Dist::constant(if cmp.is_some() { 0 } else { modifier });
    for &(count, sides) in &sizes {
        if !(1..=MAX_DICE_PER_GROUP).contains(&count) || !(1..=MAX_SIDES).contains(&sides) {
            return None;
        }
        let explode = (1..=sides).filter(|&v| v >= threshold).count() as f64 / sides as f64;
        let length = chain_length(explode, cut_below, total_dice);
        if i64::from(length) * total_dice > crate::roller::MAX_DRAWS as i64
            || (sides as usize).saturating_mul(length as usize) > MAX_UPPER_VALUES
        {
            return None;
        }
        let m = u32::try_from(sides).ok()?;
        let chain = upper_chain(m, threshold, length);
        let den = BigUint::from(m).pow(length);
        let one = match cmp {
            None => Dist { ways: chain, den },
            Some((op, t)) => {
                let (mut hit, mut miss) = (BigUint::zero(), BigUint::zero());
                for (sum, w) in chain {
                    if sum.checked_add(modifier).is_some_and(|v| op.holds(v, t)) {
                        hit += w;
                    } else {
                        miss += w;
                    }
                }
                Dist {
                    ways: BTreeMap::from([(0, miss), (1, hit)]),
                    den,
                }
            }
        };
        for _ in 0..count {
            dist = dist.combine(&one, i64::checked_add)?;
            if dist.ways.len() > MAX_UPPER_VALUES {
                return None;
            }
        }
    }
    Some(dist.into_odds(|_| None, crate::roller::MAX_DRAWS, cut_below))
}
