//! The common commands (spec §3), tried in BCDice's fixed order on the raw line.
//!
//! Each command has its own module with `parse` (tokens or raw text to its [`crate::ast`]
//! node, never evaluating) and `eval` (the node to a [`RollResult`]).

pub mod add;
pub mod barabara;
pub mod calc;
pub mod choice;
pub mod d66;
pub mod groups;
pub mod repeat;
pub mod reroll;
pub mod tally;
pub mod upper;
pub mod version;

use crate::ast::Command;
use crate::error::{EvalError, ParseError};
use crate::expr::ArithError;
use crate::lexer::Cursor;
use crate::pipeline::SystemHooks;
use crate::result::RollResult;
use crate::roller::Roller;

/// What a command's evaluation gives: a result, no result (`None`), or an error.
pub type Eval = Result<Option<RollResult>, EvalError>;

/// The separator between parts of an output: space, U+FF1E, space.
pub const SEP: &str = " ＞ ";

/// A success/failure verdict word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// `成功`
    Success,
    /// `失敗`
    Failure,
}

impl Verdict {
    /// The word BCDice prints.
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Success => "成功",
            Verdict::Failure => "失敗",
        }
    }
}

impl From<bool> for Verdict {
    fn from(holds: bool) -> Self {
        if holds {
            Verdict::Success
        } else {
            Verdict::Failure
        }
    }
}

/// Maps an arithmetic failure in a count, sides or target (where BCDice raises).
pub fn arith_error(e: ArithError) -> EvalError {
    match e {
        ArithError::ZeroDivision { .. } => EvalError::DivisionByZero,
        ArithError::Overflow => EvalError::Overflow,
    }
}

pub use crate::text::push_joined as join_values;

/// The first run of non-whitespace after leading ASCII whitespace, with its byte offset.
pub fn first_token(raw: &str) -> (&str, usize) {
    // Byte scan: the whitespace bytes are ASCII, and no byte of a multi-byte character is.
    let bytes = raw.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| !is_ascii_ws_byte(b))
        .unwrap_or(bytes.len());
    let len = bytes[start..]
        .iter()
        .position(|&b| is_ascii_ws_byte(b))
        .unwrap_or(bytes.len() - start);
    (&raw[start..start + len], start)
}

/// `LEFT VS RIGHT comment`, a contest written with spaces (product convention), joined into
/// the one token BCDice's first-token rule keeps: `LEFTVSRIGHT comment`. A dangling `VS`
/// stays (`LEFTVS`) so the line fails to parse instead of rolling the left side alone.
/// `None` when the second word is not `VS`.
pub fn join_versus(raw: &str) -> Option<String> {
    let (first, at) = first_token(raw);
    let rest = &raw[at + first.len()..];
    let (vs, at_vs) = first_token(rest);
    if !vs.eq_ignore_ascii_case("VS") {
        return None;
    }
    let after = &rest[at_vs + vs.len()..];
    let (right, at_right) = first_token(after);
    if right.is_empty() {
        return Some(format!("{first}VS"));
    }
    let comment = &after[at_right + right.len()..];
    Some(format!("{first}VS{right}{comment}"))
}

fn is_ascii_ws_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// BCDice's whitespace: space, TAB, LF, VT, FF, CR.
pub fn is_ascii_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// The common commands, in the order BCDice tries them (spec §1.1 step 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// §3.1
    AddDice,
    /// §3.2
    Barabara,
    /// §3.3
    Tally,
    /// §3.4
    Calc,
    /// §3.5
    Choice,
    /// §3.6
    D66,
    /// §3.7
    Repeat,
    /// §3.8
    Reroll,
    /// §3.9
    Upper,
    /// §3.10
    Version,
}

/// Every common command, in trial order.
pub const ORDER: [Kind; 10] = [
    Kind::AddDice,
    Kind::Barabara,
    Kind::Tally,
    Kind::Calc,
    Kind::Choice,
    Kind::D66,
    Kind::Repeat,
    Kind::Reroll,
    Kind::Upper,
    Kind::Version,
];

/// A raw line cut and lexed once for all the common commands' parsers.
pub struct Line<'a> {
    raw: &'a str,
    token: &'a str,
    offset: usize,
    toks: crate::lexer::Tokens,
}

impl<'a> Line<'a> {
    /// Cuts the first token of `raw` and lexes it.
    pub fn new(raw: &'a str) -> Self {
        let (token, offset) = first_token(raw);
        let mut line = Self {
            raw,
            token,
            offset,
            toks: crate::lexer::Tokens::new(),
        };
        crate::lexer::lex_into(token, offset, &mut line.toks);
        line
    }

    /// Parses the line as command `kind`. `Err(None)` means it is plainly not that command;
    /// `Err(Some(e))` says where it stopped matching.
    pub fn parse_as(&self, kind: Kind) -> Result<Command, Option<ParseError>> {
        let end = self.offset + self.token.len();
        let cursor = || Cursor::new(&self.toks, end);
        let ok_or_none = |c: Option<Command>| c.ok_or(None);
        match kind {
            Kind::AddDice => add::parse(&mut cursor())
                .map(Command::Add)
                .map_err(|e| Some(*e)),
            Kind::Barabara => barabara::parse(&mut cursor())
                .map(Command::Barabara)
                .map_err(|e| Some(*e)),
            Kind::Tally => tally::parse(&mut cursor())
                .map(Command::Tally)
                .map_err(|e| Some(*e)),
            Kind::Calc => calc::parse(&mut cursor())
                .map(Command::Calc)
                .map_err(|e| Some(*e)),
            Kind::Choice => ok_or_none(choice::parse(self.raw).map(Command::Choice)),
            Kind::D66 => ok_or_none(d66::parse(self.token).map(Command::D66)),
            Kind::Repeat => ok_or_none(repeat::parse(self.raw).map(Command::Repeat)),
            Kind::Reroll => reroll::parse(&mut cursor(), self.token)
                .map(Command::Reroll)
                .map_err(|e| Some(*e)),
            Kind::Upper => upper::parse(&mut cursor())
                .map(Command::Upper)
                .map_err(|e| Some(*e)),
            Kind::Version => ok_or_none(version::parse(self.token).then_some(Command::Version)),
        }
    }

    /// Keeps `e` in `best` if it got further into the line than anything before, and past
    /// the line's first character (a parser that failed at once only says "not me").
    pub fn keep_furthest(&self, best: &mut Option<ParseError>, e: Option<ParseError>) {
        if let Some(e) = e
            && (e.span.start > self.offset
                || e.kind == crate::error::ParseErrorKind::NumberTooLarge)
            && best.as_ref().is_none_or(|b| e.span.start > b.span.start)
        {
            *best = Some(e);
        }
    }
}

/// Parses `raw` as the first common command that accepts it, in BCDice's order. On failure
/// returns the parse error that got furthest, if any parser got past the first character.
pub fn parse(raw: &str) -> Result<Command, Option<ParseError>> {
    let line = Line::new(raw);
    let mut best = None;
    for kind in ORDER {
        match line.parse_as(kind) {
            Ok(cmd) => return Ok(cmd),
            Err(e) => line.keep_furthest(&mut best, e),
        }
    }
    Err(best)
}

/// Tries the common commands in order on `raw`: the first that parses and gives a result
/// wins. `hint` collects the furthest parse error for a "no result" answer.
pub fn eval_line(
    raw: &str,
    system: &dyn SystemHooks,
    roller: &mut Roller<'_>,
    hint: &mut Option<ParseError>,
) -> Eval {
    let line = Line::new(raw);
    for kind in ORDER {
        match line.parse_as(kind) {
            Ok(cmd) => {
                if let Some(result) = eval(&cmd, system, roller)? {
                    return Ok(Some(result));
                }
            }
            Err(e) => line.keep_furthest(hint, e),
        }
    }
    Ok(None)
}

/// Evaluates a parsed common command.
pub fn eval(cmd: &Command, system: &dyn SystemHooks, roller: &mut Roller<'_>) -> Eval {
    let profile = system.profile();
    match cmd {
        Command::Add(c) => add::eval(c, profile, roller),
        Command::Barabara(c) => barabara::eval(c, profile, roller),
        Command::Tally(c) => tally::eval(c, profile, roller),
        Command::Calc(c) => calc::eval(c, profile),
        Command::Choice(c) => choice::eval(c, roller),
        Command::D66(c) => d66::eval(c, profile, roller),
        Command::Repeat(c) => repeat::eval(c, system, roller),
        Command::Reroll(c) => reroll::eval(c, profile, roller),
        Command::Upper(c) => upper::eval(c, profile, roller),
        Command::Version => Ok(Some(version::eval())),
    }
}
