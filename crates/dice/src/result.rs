//! What an evaluation returns.

use crate::ast::CmpOp;

/// How a draw was used, as bcdice-api's `detailed_rands` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawKind {
    /// A plain die.
    Normal,
    /// A d10 read as tens (0..90).
    TensD10,
    /// A d10 read as 0..9.
    D9,
}

impl DrawKind {
    /// The name bcdice-api uses.
    pub fn as_str(self) -> &'static str {
        match self {
            DrawKind::Normal => "normal",
            DrawKind::TensD10 => "tens_d10",
            DrawKind::D9 => "d9",
        }
    }
}

/// One die drawn during an evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Draw {
    /// How the draw was used.
    pub kind: DrawKind,
    /// Sides of the die.
    pub sides: u32,
    /// Face drawn, `1..=sides`.
    pub value: u32,
}

/// The result of one command: BCDice's text and flags, every draw, and the structured facts
/// behind the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollResult {
    /// Output text exactly as BCDice prints it (may contain line feeds).
    pub text: String,
    /// The command was secret (`S` prefix).
    pub secret: bool,
    /// The verdict was success.
    pub success: bool,
    /// The verdict was failure.
    pub failure: bool,
    /// The best automatic or degree result of the system.
    pub critical: bool,
    /// The worst automatic or degree result of the system.
    pub fumble: bool,
    /// Every draw made during the evaluation, in order.
    pub rands: Vec<Draw>,
    /// Structured facts behind the text.
    pub detail: Detail,
}

impl RollResult {
    /// A result with the given text and detail and every flag false. Draws are attached by
    /// the pipeline.
    pub fn new(text: String, detail: Detail) -> Self {
        Self {
            text,
            secret: false,
            success: false,
            failure: false,
            critical: false,
            fumble: false,
            rands: Vec::new(),
            detail,
        }
    }

    /// Sets success or failure from a verdict.
    pub fn with_verdict(mut self, success: bool) -> Self {
        self.success = success;
        self.failure = !success;
        self
    }
}

/// Structured facts behind a result's text, per command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    /// A sum of dice (AddDice) or a game system's check built on one.
    Sum {
        /// The total.
        total: i64,
        /// The comparison made, if any.
        comparison: Option<Comparison>,
    },
    /// Counted dice (B, R, U with a target).
    Count {
        /// Every die value (for U, each die's sum of draws).
        values: Vec<i64>,
        /// Dice meeting the target, when there is one.
        successes: Option<usize>,
    },
    /// UpperDice without a target.
    MaxTotal {
        /// Each die's sum of draws.
        values: Vec<i64>,
        /// Largest die plus modifier.
        max: i64,
        /// Sum of all dice plus modifier.
        total: i64,
    },
    /// Tally of faces (TY/TZ): `counts[v - 1]` dice showed `v`.
    Tally {
        /// Count per face.
        counts: Vec<usize>,
    },
    /// A computed value (Calc); `None` when it divided by zero.
    Value(Option<i64>),
    /// Items picked by Choice, in pick order.
    Choice(Vec<String>),
    /// A D66 value.
    D66(u32),
    /// Each repetition's result.
    Repeat(Vec<RollResult>),
    /// A message instead of a roll (limits, bad conditions, version).
    Message,
}

/// A comparison `value op target` and its outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comparison {
    /// The operator.
    pub op: CmpOp,
    /// The evaluated target.
    pub target: i64,
    /// Whether it held.
    pub holds: bool,
}
