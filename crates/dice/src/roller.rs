//! The draw primitives every command uses (spec §4.1), with BCDice's limits, on top of a
//! [`DiceSource`], logging every draw.

use crate::Mode;
use crate::error::EvalError;
use crate::profile::D66Order;
use crate::result::{Draw, DrawKind};
use crate::source::DiceSource;

/// Most dice drawn in one evaluation; one more is an error.
pub const MAX_DRAWS: usize = 10_000;
/// Most dice in one group; a larger group draws nothing and counts as empty.
pub const MAX_DICE_PER_GROUP: i64 = 200;
/// Most sides of a die; a larger die draws nothing and counts as 0.
pub const MAX_SIDES: i64 = 10_000;
/// Most dice in one evaluation that draw nothing (0 sides, or more than [`MAX_SIDES`]).
/// BCDice lists a 0 for each however many there are; past this taku refuses, so that a
/// count like `1471264588677015432U0[6]` cannot grow without bound.
pub const MAX_BLANK_DICE: usize = 100_000;

/// The dice of one group; small groups (the common case) need no allocation.
pub type Dice = smallvec::SmallVec<[i64; 12]>;

/// Draws dice for one evaluation and records each draw.
pub struct Roller<'s> {
    source: &'s mut dyn DiceSource,
    log: Vec<Draw>,
    repetitions: usize,
    blank: usize,
    mode: Mode,
}

/// Most command evaluations nested repeats may make in one line (`X100 X100 X100 C(1)`).
pub const MAX_REPETITIONS: usize = 10_000;

impl<'s> Roller<'s> {
    /// A roller drawing from `source`, with an empty log.
    pub fn new(source: &'s mut dyn DiceSource) -> Self {
        Self {
            source,
            log: Vec::with_capacity(8),
            repetitions: 0,
            blank: 0,
            mode: Mode::Normalize,
        }
    }

    /// The same roller evaluating in `mode`: a system's extensions beyond BCDice (a
    /// target on Sengensyou's `SGS`, say) exist only outside [`Mode::Strict`].
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// The mode the line is evaluated in (see [`Roller::with_mode`]).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Counts one repetition of a Repeat; past [`MAX_REPETITIONS`] it is an error.
    pub fn count_repetition(&mut self) -> Result<(), EvalError> {
        self.repetitions += 1;
        if self.repetitions > MAX_REPETITIONS {
            return Err(EvalError::TooManyRepetitions {
                limit: MAX_REPETITIONS,
            });
        }
        Ok(())
    }

    /// Every draw so far, in order.
    pub fn draws(&self) -> &[Draw] {
        &self.log
    }

    /// Takes the log, leaving it empty.
    pub fn take_draws(&mut self) -> Vec<Draw> {
        std::mem::take(&mut self.log)
    }

    /// Draws one die. A die with no sides or more than [`MAX_SIDES`] gives 0 without drawing;
    /// more than [`MAX_BLANK_DICE`] of those in one evaluation is an error.
    pub fn roll_once(&mut self, sides: i64) -> Result<i64, EvalError> {
        self.draw(sides, DrawKind::Normal)
    }

    /// Draws `count` dice of `sides`. More than [`MAX_DRAWS`] in the evaluation is an error;
    /// a count outside `1..=200` draws nothing.
    pub fn roll_group(&mut self, count: i64, sides: i64) -> Result<Dice, EvalError> {
        let logged = i64::try_from(self.log.len()).unwrap_or(i64::MAX);
        if logged.saturating_add(count) > MAX_DRAWS as i64 {
            return Err(EvalError::TooManyDice { limit: MAX_DRAWS });
        }
        if !(1..=MAX_DICE_PER_GROUP).contains(&count) {
            return Ok(Dice::new());
        }
        let mut dice = Dice::with_capacity(count as usize);
        for _ in 0..count {
            dice.push(self.roll_once(sides)?);
        }
        Ok(dice)
    }

    /// A 0-based index into `len` items.
    pub fn roll_index(&mut self, len: usize) -> Result<usize, EvalError> {
        let value = self.roll_once(i64::try_from(len).unwrap_or(i64::MAX))?;
        Ok(usize::try_from(value - 1).unwrap_or(0))
    }

    /// Two d6 read as tens and units, ordered as asked.
    pub fn roll_d66(&mut self, order: D66Order) -> Result<i64, EvalError> {
        let a = self.roll_once(6)?;
        let b = self.roll_once(6)?;
        let (tens, units) = match order {
            D66Order::AsRolled => (a, b),
            D66Order::Ascending => (a.min(b), a.max(b)),
            D66Order::Descending => (a.max(b), a.min(b)),
        };
        Ok(tens * 10 + units)
    }

    /// A d10 read as tens: 10 counts as 0, the value is 0..=90.
    pub fn roll_tens_d10(&mut self) -> Result<i64, EvalError> {
        let v = self.draw(10, DrawKind::TensD10)?;
        Ok(if v == 10 { 0 } else { v * 10 })
    }

    /// A d10 read as 0..=9.
    pub fn roll_d9(&mut self) -> Result<i64, EvalError> {
        Ok(self.draw(10, DrawKind::D9)? - 1)
    }

    fn draw(&mut self, sides: i64, kind: DrawKind) -> Result<i64, EvalError> {
        if !(1..=MAX_SIDES).contains(&sides) {
            self.blank += 1;
            if self.blank > MAX_BLANK_DICE {
                return Err(EvalError::TooManyBlankDice {
                    limit: MAX_BLANK_DICE,
                });
            }
            return Ok(0);
        }
        if self.log.len() >= MAX_DRAWS {
            return Err(EvalError::TooManyDice { limit: MAX_DRAWS });
        }
        let sides = u32::try_from(sides).expect("sides is within 1..=10000");
        let value = self.source.roll(sides)?;
        self.log.push(Draw { kind, sides, value });
        Ok(i64::from(value))
    }
}
