//! Exact odds: the probability of every outcome of a command, never simulated.
//!
//! [`enumerate`] walks every sequence of draws a command can make, depth first, by running
//! the command again and again on a [`DiceSource`] that hands out the next untried faces
//! (an odometer over the draw sequence). It knows nothing of the command: every command
//! of every game system, with its criticals, rerolls and contests, is enumerated by the
//! same code that rolls it, so the odds cannot disagree with the rolls. A sequence that
//! would draw more than `max_draws` dice (an explosion that keeps exploding) is cut there:
//! its whole probability is reported as the tail, never lumped into an outcome. Commands
//! with too many sequences (sums of many dice) go to the closed-form evaluator in
//! [`sum`].
//!
//! Probabilities are exact: each sequence's weight is `1 / Π sides` (u128 while it fits),
//! summed per outcome as big rationals.

pub mod sum;

use crate::error::EvalError;
use crate::result::{Detail, RollResult};
use crate::source::{DiceSource, DrawError};
use num_bigint::BigUint;
use num_rational::Ratio;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::{BTreeMap, HashMap};

/// An exact probability.
pub type Prob = Ratio<BigUint>;

/// What one roll came to, as far as odds go: its number and its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Outcome {
    /// The number the command gives (a sum, a success count, a D66 value); `None` when it
    /// gives none.
    pub value: Option<i64>,
    /// Flags.
    pub success: bool,
    /// Flags.
    pub failure: bool,
    /// Flags.
    pub critical: bool,
    /// Flags.
    pub fumble: bool,
}

impl Outcome {
    /// The outcome of one result.
    pub fn of(result: &RollResult) -> Outcome {
        Outcome {
            value: value_of(&result.detail),
            success: result.success,
            failure: result.failure,
            critical: result.critical,
            fumble: result.fumble,
        }
    }
}

/// The number a result's detail gives.
fn value_of(detail: &Detail) -> Option<i64> {
    match detail {
        Detail::Sum { total, .. } => Some(*total),
        Detail::Count {
            successes: Some(n), ..
        } => i64::try_from(*n).ok(),
        Detail::Count { values, .. } => Some(values.iter().sum()),
        Detail::MaxTotal { total, .. } => Some(*total),
        Detail::Value(v) => *v,
        Detail::D66(v) => Some(i64::from(*v)),
        Detail::Tally { .. } | Detail::Choice(_) | Detail::Repeat(_) | Detail::Message => None,
    }
}

/// How far [`enumerate`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most draw sequences tried before giving up.
    pub max_paths: u64,
    /// Most draws in one sequence; longer ones are cut and counted in the tail.
    pub max_draws: usize,
    /// A sequence whose next draw would make it less likely than `1 / cut_below` is cut
    /// there and counted in the tail: explosions stop being followed once they are
    /// rarer than this, however many draws that takes.
    pub cut_below: u128,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_paths: 2_000_000,
            max_draws: 64,
            cut_below: 1_000_000_000_000_000_000,
        }
    }
}

/// Why odds could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The command does not evaluate (it is not a command, or it is refused).
    #[error("{0}")]
    Eval(EvalError),
    /// More draw sequences than the limit.
    #[error(
        "more than {0} ways to roll this command: too many to enumerate exactly (sums with or without keep/drop and B counts are computed in closed form; rerolls and explosions of many dice are enumerated, so use fewer dice or a smaller --depth)"
    )]
    TooMany(u64),
    /// The command gives neither a number nor a verdict.
    #[error(
        "this command gives text only (a choice, a table, a tally, a repeat): it has no number or verdict to give odds for"
    )]
    TextOnly,
}

/// The exact distribution of a command's outcomes.
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    /// Each outcome and its probability, in order.
    pub outcomes: Vec<(Outcome, Prob)>,
    /// The probability cut off at the draw limit (0 when nothing was cut).
    pub tail: Prob,
    /// Draws at which sequences were cut.
    pub max_draws: usize,
    /// Sequences less likely than `1 / cut_below` were cut.
    pub cut_below: u128,
    /// Draw sequences enumerated.
    pub paths: u64,
}

/// The source [`enumerate`] runs a command on: the current sequence's faces, then ones
/// for draws not tried yet.
struct Odometer {
    /// `(sides, face)` of every draw of the current sequence.
    draws: Vec<(u32, u32)>,
    /// Draws handed out in this run.
    at: usize,
    max_draws: usize,
    cut_below: u128,
    /// `Π sides` of the draws handed out in this run.
    den: u128,
    /// This run wanted more than `max_draws` draws, or went below `cut_below`.
    cut: bool,
}

impl DiceSource for Odometer {
    fn roll(&mut self, sides: u32) -> Result<u32, DrawError> {
        let den = self.den.checked_mul(u128::from(sides.max(1)));
        if self.at >= self.max_draws || den.is_none_or(|d| d > self.cut_below) {
            self.cut = true;
            return Err(DrawError::Exhausted {
                index: self.at + 1,
                sides,
                available: self.max_draws,
            });
        }
        let face = match self.draws.get_mut(self.at) {
            // The same sequence always asks for the same dice; if a command did not, the
            // recorded sides are corrected so the face stays a real one.
            Some(d) if d.0 == sides => d.1,
            Some(d) => {
                *d = (sides, 1);
                1
            }
            None => {
                self.draws.push((sides, 1));
                1
            }
        };
        self.at += 1;
        self.den = den.unwrap_or(u128::MAX);
        Ok(face)
    }
}

impl Odometer {
    /// Moves to the next sequence: the last draw not at its top face goes up one and
    /// everything after it is forgotten. `false` when every sequence has been tried.
    fn advance(&mut self) -> bool {
        self.draws.truncate(self.at);
        while let Some(last) = self.draws.last_mut() {
            if last.1 < last.0 {
                last.1 += 1;
                return true;
            }
            self.draws.pop();
        }
        false
    }

    /// `Π sides` of this run's draws; `None` past u128.
    fn denominator(&self) -> Option<u128> {
        self.draws[..self.at]
            .iter()
            .try_fold(1u128, |d, &(sides, _)| d.checked_mul(u128::from(sides)))
    }
}

/// Every outcome of `run` and its exact probability. `run` evaluates the command once on
/// the given source; it must draw the same dice for the same faces (every command does).
pub fn enumerate(
    mut run: impl FnMut(&mut dyn DiceSource) -> Result<RollResult, EvalError>,
    limits: Limits,
) -> Result<Odds, OddsError> {
    let mut odometer = Odometer {
        draws: Vec::new(),
        at: 0,
        max_draws: limits.max_draws,
        cut_below: limits.cut_below,
        den: 1,
        cut: false,
    };
    // Weights grouped by denominator, so most additions are of machine integers.
    let mut counts: HashMap<(Option<Outcome>, u128), u128> = HashMap::new();
    let mut big_tail = Prob::zero();
    let mut paths = 0u64;
    loop {
        paths += 1;
        if paths > limits.max_paths {
            return Err(OddsError::TooMany(limits.max_paths));
        }
        odometer.at = 0;
        odometer.den = 1;
        odometer.cut = false;
        let result = run(&mut odometer);
        let outcome = match result {
            _ if odometer.cut => None,
            Ok(r) => Some(Outcome::of(&r)),
            Err(e) => return Err(OddsError::Eval(e)),
        };
        match odometer.denominator() {
            Some(den) => *counts.entry((outcome, den)).or_insert(0) += 1,
            // Beyond u128 only after very many draws: counted exactly, in the tail.
            None => {
                let den = odometer.draws[..odometer.at]
                    .iter()
                    .fold(BigUint::one(), |d, &(s, _)| d * s);
                big_tail += Prob::new(BigUint::one(), den);
            }
        }
        if !odometer.advance() {
            break;
        }
    }
    let mut outcomes: BTreeMap<Outcome, Prob> = BTreeMap::new();
    let mut tail = big_tail;
    for ((outcome, den), n) in counts {
        let p = Prob::new(BigUint::from(n), BigUint::from(den));
        match outcome {
            Some(o) => *outcomes.entry(o).or_insert_with(Prob::zero) += p,
            None => tail += p,
        }
    }
    if outcomes
        .keys()
        .all(|o| o.value.is_none() && !(o.success || o.failure || o.critical || o.fumble))
        && !outcomes.is_empty()
    {
        return Err(OddsError::TextOnly);
    }
    Ok(Odds {
        outcomes: outcomes.into_iter().collect(),
        tail,
        max_draws: limits.max_draws,
        cut_below: limits.cut_below,
        paths,
    })
}

/// The exact odds of `input` under `system`: in closed form for the plain sums, counts,
/// rerolls and upper dice the system leaves to the common commands, by enumeration
/// otherwise.
pub fn odds(
    input: &str,
    system: &dyn crate::SystemHooks,
    limits: Limits,
) -> Result<Odds, OddsError> {
    let line = if crate::normalize::needs_folding(input) {
        crate::normalize::fold(input).text
    } else {
        input.to_string()
    };
    if !crate::pipeline::claimed_by_system(&line, system) {
        let closed = match crate::command::parse(&line) {
            Ok(crate::ast::Command::Add(cmd)) => sum::add_dice(&cmd, system.profile()),
            Ok(crate::ast::Command::Barabara(cmd)) => sum::barabara(&cmd, system.profile()),
            Ok(crate::ast::Command::Reroll(cmd)) => {
                sum::reroll(&cmd, system.profile(), limits.cut_below)
            }
            Ok(crate::ast::Command::Upper(cmd)) => {
                sum::upper(&cmd, system.profile(), limits.cut_below)
            }
            _ => None,
        };
        if let Some(odds) = closed {
            return Ok(odds);
        }
    }
    enumerate(
        // As a table rolls: a system's extensions beyond BCDice (SG-8's `SGS+3>=12`)
        // have odds too.
        |source| crate::evaluate(&line, system, source, crate::Mode::Normalize),
        limits,
    )
}

/// What a table of odds says, ready to print.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// P(success).
    pub success: Prob,
    /// P(failure).
    pub failure: Prob,
    /// P(critical).
    pub critical: Prob,
    /// P(fumble).
    pub fumble: Prob,
    /// Whether any outcome carries a verdict (otherwise success/failure mean nothing).
    pub has_verdict: bool,
    /// The distribution of the number, where there is one.
    pub values: BTreeMap<i64, Prob>,
    /// Mean and standard deviation of the number (conditional on not being in the tail).
    pub mean: Option<f64>,
    /// Standard deviation.
    pub sd: Option<f64>,
    /// Probability cut off at the draw limit.
    pub tail: Prob,
}

impl Odds {
    /// Totals per flag and per value.
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            success: Prob::zero(),
            failure: Prob::zero(),
            critical: Prob::zero(),
            fumble: Prob::zero(),
            has_verdict: false,
            values: BTreeMap::new(),
            mean: None,
            sd: None,
            tail: self.tail.clone(),
        };
        for (o, p) in &self.outcomes {
            let flags = [
                (o.success, &mut s.success),
                (o.failure, &mut s.failure),
                (o.critical, &mut s.critical),
                (o.fumble, &mut s.fumble),
            ];
            for (set, total) in flags {
                if set {
                    *total += p;
                }
            }
            s.has_verdict |= o.success || o.failure;
            if let Some(v) = o.value {
                *s.values.entry(v).or_insert_with(Prob::zero) += p;
            }
        }
        (s.mean, s.sd) = moments(&s.values);
        s
    }
}

/// Mean and standard deviation of a distribution (normalised over its own mass).
pub fn moments(values: &BTreeMap<i64, Prob>) -> (Option<f64>, Option<f64>) {
    let mass: f64 = values.values().map(to_f64).sum();
    if values.is_empty() || mass <= 0.0 {
        return (None, None);
    }
    let mean = values
        .iter()
        .map(|(v, p)| *v as f64 * to_f64(p))
        .sum::<f64>()
        / mass;
    let var = values
        .iter()
        .map(|(v, p)| (*v as f64 - mean).powi(2) * to_f64(p))
        .sum::<f64>()
        / mass;
    (Some(mean), Some(var.sqrt()))
}

/// A probability as the nearest f64 (exact fractions print their own digits).
pub fn to_f64(p: &Prob) -> f64 {
    // Scale both down together so huge denominators (6^100) still divide well.
    let (n, d) = (p.numer(), p.denom());
    let shift = d.bits().saturating_sub(900);
    let (n, d) = (n >> shift, d >> shift);
    match (n.to_f64(), d.to_f64()) {
        (Some(n), Some(d)) if d > 0.0 => n / d,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests;
