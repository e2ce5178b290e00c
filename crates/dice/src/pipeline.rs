//! Evaluating one line (spec §1.1): the game system's own commands first, then the common
//! commands, with every draw recorded.

use crate::command::{self, Eval, first_token, is_ascii_ws};
use crate::error::{EvalError, ParseError};
use crate::expr::{ArithError, Grammar, eval_arith, parse_add};
use crate::lexer::{Cursor, lex, upcase};
use crate::profile::Profile;
use crate::result::RollResult;
use crate::roller::Roller;

/// What the pipeline needs from a game system. `crates/systems`' `GameSystem` provides it.
pub trait SystemHooks {
    /// Settings for the common commands.
    fn profile(&self) -> &Profile;

    /// Literal command prefixes (upper-case) that route a line to [`SystemHooks::eval_own`];
    /// compared case-insensitively with the start of the preprocessed line.
    fn prefixes(&self) -> &[&str];

    /// Evaluates a command of the system's own. `command` is preprocessed, upper-cased and
    /// stripped of a secret `S`. `None` lets the common commands try the line.
    fn eval_own(&self, command: &str, roller: &mut Roller<'_>) -> Eval;
}

/// Evaluates `raw` under `system`: the system's own step (§1.1 step 1), then the common
/// commands (step 2). `hint` collects the furthest parse error for a "no result".
pub fn eval_raw(
    raw: &str,
    system: &dyn SystemHooks,
    roller: &mut Roller<'_>,
    hint: &mut Option<ParseError>,
) -> Eval {
    if raw.trim_matches(|c| is_ascii_ws(c) || c == '\0').is_empty() {
        return Err(EvalError::Empty);
    }
    if !system.prefixes().is_empty() {
        let pre = preprocess(raw, system.profile())?;
        if let Some((secret, command)) = match_prefix(&pre, system.prefixes())
            && let Some(mut result) = system.eval_own(command, roller)?
        {
            result.secret |= secret;
            return Ok(Some(result));
        }
    }
    command::eval_line(raw, system, roller, hint)
}

/// `^(S)?(P1|P2|…)`: the secret flag and the command without its `S`.
fn match_prefix<'a>(pre: &'a str, prefixes: &[&str]) -> Option<(bool, &'a str)> {
    let starts = |s: &str| {
        prefixes.iter().any(|p| {
            s.len() >= p.len()
                && s.is_char_boundary(p.len())
                && s[..p.len()].eq_ignore_ascii_case(p)
        })
    };
    if let Some(rest) = pre.strip_prefix('S')
        && starts(rest)
    {
        return Some((true, rest));
    }
    starts(pre).then_some((false, pre))
}

/// §1.7: the first token, parenthesised arithmetic folded to numbers, implicit sides filled
/// in, upper-cased.
pub fn preprocess(raw: &str, profile: &Profile) -> Result<String, EvalError> {
    let trimmed = raw.trim_matches(|c| is_ascii_ws(c) || c == '\0');
    let (token, _) = first_token(trimmed);
    if token.is_empty() {
        return Err(EvalError::Empty);
    }
    let mut text = token.to_string();
    loop {
        let folded = fold_parentheses(&text, profile)?;
        if folded == text {
            break;
        }
        text = folded;
    }
    let text = fill_implicit_sides(&text, profile.implicit_sides);
    Ok(text.chars().map(upcase).collect())
}

/// Replaces each `(…)` holding only `0-9 / + * - C U R F` with its value, once over the text.
fn fold_parentheses(text: &str, profile: &Profile) -> Result<String, EvalError> {
    let allowed = |b: u8| b.is_ascii_digit() || b"/+*-CURF".contains(&b);
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'(' {
            let len = bytes[i + 1..].iter().take_while(|&&b| allowed(b)).count();
            let close = i + 1 + len;
            if len > 0 && bytes.get(close) == Some(&b')') {
                let inner = &text[i + 1..close];
                if let Some(v) = eval_group(inner, profile)? {
                    out.push_str(&v.to_string());
                    i = close + 1;
                    continue;
                }
            }
        }
        let c = text[i..].chars().next().expect("i is on a char boundary");
        out.push(c);
        i += c.len_utf8();
    }
    Ok(out)
}

/// A parenthesised group's value; `None` leaves it as written.
fn eval_group(inner: &str, profile: &Profile) -> Result<Option<i64>, EvalError> {
    let toks = lex(inner, 0);
    let mut c = Cursor::new(&toks, inner.len());
    let Ok(expr) = parse_add(&mut c, Grammar::ARITHMETIC) else {
        return Ok(None);
    };
    if c.finish().is_err() {
        return Ok(None);
    }
    match eval_arith(&expr, profile.rounding) {
        Ok(v) => Ok(Some(v)),
        Err(ArithError::ZeroDivision { rounded: false }) => Ok(None),
        Err(ArithError::ZeroDivision { rounded: true }) => Err(EvalError::DivisionByZero),
        Err(ArithError::Overflow) => Err(EvalError::Overflow),
    }
}

/// `<digits>D` not followed by a word character becomes `<digits>D<sides>`.
fn fill_implicit_sides(text: &str, sides: i64) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 2);
    for (i, c) in text.char_indices() {
        out.push(c);
        let is_d = c == 'D' || c == 'd';
        let after_digit = i > 0 && bytes[i - 1].is_ascii_digit();
        let next_is_word = bytes
            .get(i + 1)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
        if is_d && after_digit && !next_is_word {
            out.push_str(&sides.to_string());
        }
    }
    out
}

/// Evaluates `raw` and attaches every draw made, or says why there is no result.
pub fn evaluate_line(
    raw: &str,
    system: &dyn SystemHooks,
    roller: &mut Roller<'_>,
) -> Result<RollResult, EvalError> {
    let mut hint = None;
    match eval_raw(raw, system, roller, &mut hint)? {
        Some(mut result) => {
            result.rands = roller.take_draws();
            Ok(result)
        }
        None => Err(EvalError::Unsupported(hint)),
    }
}
