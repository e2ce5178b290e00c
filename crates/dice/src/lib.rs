//! taku's dice core: BCDice's command language, parsed to a plain syntax tree, evaluated
//! with injected dice, printed exactly as BCDice prints it.
//!
//! Main types: [`DiceSource`] (every draw goes through one: [`ChaChaSource`] for play,
//! [`ScriptedSource`] for tests and replays), [`ast::Command`] (what the parsers build),
//! [`RollResult`] (text, flags, draws, structured detail), [`EvalError`] (why there is no
//! result), and [`SystemHooks`] (what a game system gives the pipeline).
//!
//! The key design decision: parsing never evaluates. Counts, sides and targets stay
//! expressions in the tree, so the evaluator and the exact-odds evaluator walk the same
//! tree, and a result can always be replayed from its recorded draws.
//!
//! This crate does no IO and has no async.

pub mod ast;
pub mod command;
pub mod error;
pub mod expr;
pub mod i18n;
pub mod lexer;
pub mod normalize;
pub mod odds;
pub mod original_table;
pub mod pipeline;
pub mod print;
pub mod profile;
pub mod result;
pub mod roller;
pub mod source;
pub mod system_command;
pub mod text;

pub use error::{EngineFailure, EvalError, Found, ParseError, ParseErrorKind, Span};
pub use i18n::{Lang, Text};
pub use pipeline::SystemHooks;
pub use profile::{D66Order, Profile, Rounding};
pub use result::{Detail, Draw, DrawKind, RollResult};
pub use roller::Roller;
pub use source::{ChaChaSource, DiceSource, DrawError, ScriptedDraw, ScriptedSource, Unrecorded};

/// How input text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Exactly as BCDice: full-width characters are not commands.
    Strict,
    /// Full-width ASCII, U+3000 and common symbols are folded to ASCII first; error spans
    /// still point into the text as typed.
    #[default]
    Normalize,
}

/// Evaluates one line under a game system, drawing from `source`.
///
/// Returns the result with every draw attached, or why there is none
/// ([`EvalError::Unsupported`] for input no command understands).
pub fn evaluate(
    input: &str,
    system: &dyn SystemHooks,
    source: &mut dyn DiceSource,
    mode: Mode,
) -> Result<RollResult, EvalError> {
    let mut roller = Roller::new(source).with_mode(mode);
    if mode == Mode::Normalize && normalize::needs_folding(input) {
        let folded = normalize::fold(input);
        return pipeline::evaluate_line(&folded.text, system, &mut roller).map_err(|e| match e {
            EvalError::Unsupported(Some(mut p)) => {
                p.span = folded.original_span(p.span);
                EvalError::Unsupported(Some(p))
            }
            e => e,
        });
    }
    pipeline::evaluate_line(input, system, &mut roller)
}

/// The common commands alone, with BCDice's default settings: DiceBot.
#[derive(Debug, Clone, Copy, Default)]
pub struct CommonOnly(pub Profile);

impl SystemHooks for CommonOnly {
    fn profile(&self) -> &Profile {
        &self.0
    }

    fn prefixes(&self) -> &[&str] {
        &[]
    }

    fn eval_own(&self, _command: &str, _roller: &mut Roller<'_>) -> command::Eval {
        Ok(None)
    }
}
