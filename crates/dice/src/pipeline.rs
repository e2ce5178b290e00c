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

    /// Rewrites a whole line before the first-token rule (§1.7) cuts it, for a system
    /// command written with spaces (Another World's `AW+5 VS AW+3`). `None` leaves the
    /// line alone.
    fn rewrite_line(&self, _raw: &str) -> Option<String> {
        None
    }

    /// Whether [`SystemHooks::rewrite_line`] applies in [`crate::Mode::Strict`] too. A
    /// BCDice system whose rewrite is an extension (Sengensyou's contest) says no, so its
    /// strict lines stay BCDice's.
    fn rewrites_in_strict_mode(&self) -> bool {
        true
    }
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
    let rewritten = if roller.mode() == crate::Mode::Strict && !system.rewrites_in_strict_mode() {
        None
    } else {
        system.rewrite_line(raw)
    };
    let raw = rewritten.as_deref().unwrap_or(raw);
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

/// Whether `raw` goes to the system's own commands (step 1) rather than the common ones:
/// the system rewrites it, or its first token starts with one of the system's prefixes.
pub fn claimed_by_system(raw: &str, system: &dyn SystemHooks) -> bool {
    if system.rewrite_line(raw).is_some() {
        return true;
    }
    !system.prefixes().is_empty()
        && preprocess(raw, system.profile())
            .is_ok_and(|pre| match_prefix(&pre, system.prefixes()).is_some())
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
    let text = fold_parentheses(token, profile)?;
    let text = fill_implicit_sides(&text, profile.implicit_sides);
    Ok(text.chars().map(upcase).collect())
}

/// Replaces each `(…)` holding only `0-9 / + * - C U R F` with its value, innermost first,
/// until nothing changes. BCDice repeats a regex replacement until the text is stable; one
/// left-to-right pass with a stack of open parentheses gives the same text in linear time
/// (a group is folded when it closes, after the groups inside it were).
fn fold_parentheses(text: &str, profile: &Profile) -> Result<String, EvalError> {
    let allowed = |c: char| c.is_ascii_digit() || "/+*-CURF".contains(c);
    let mut out = String::with_capacity(text.len());
    // For each open parenthesis: where it is in `out`, and whether all since is foldable.
    let mut open: Vec<(usize, bool)> = Vec::new();
    for c in text.chars() {
        match c {
            '(' => {
                // An inner group that folds leaves a number; one that does not marks this
                // group unfoldable when it closes.
                open.push((out.len(), true));
                out.push(c);
            }
            ')' => {
                let folded = match open.pop() {
                    Some((at, true)) if out.len() > at + 1 => {
                        match eval_group(&out[at + 1..], profile)? {
                            Some(v) => {
                                out.truncate(at);
                                out.push_str(&v.to_string());
                                true
                            }
                            None => false,
                        }
                    }
                    _ => false,
                };
                if !folded {
                    out.push(c);
                    if let Some(top) = open.last_mut() {
                        top.1 = false;
                    }
                }
            }
            c => {
                if !allowed(c)
                    && let Some(top) = open.last_mut()
                {
                    top.1 = false;
                }
                out.push(c);
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_parentheses_innermost_first() {
        // Spec §1.7.
        let p = Profile::DEFAULT;
        assert_eq!(preprocess("2D6+(1-2)>=5", &p), Ok("2D6+-1>=5".to_string()));
        assert_eq!(preprocess("(1+1)D6>=7", &p), Ok("2D6>=7".to_string()));
        assert_eq!(preprocess("2D6+(1)(2)>=7", &p), Ok("2D6+12>=7".to_string()));
        assert_eq!(preprocess("((1+2)*2)D6", &p), Ok("6D6".to_string()));
        assert_eq!(preprocess("(1+(2))D", &p), Ok("3D6".to_string()));
        assert_eq!(preprocess("((1)a)", &p), Ok("(1A)".to_string()));
        assert_eq!(preprocess("(1/0)+(2)", &p), Ok("(1/0)+2".to_string()));
        assert_eq!(preprocess("(1/0U)", &p), Err(EvalError::DivisionByZero));
        assert_eq!(preprocess("2d>=7", &p), Ok("2D6>=7".to_string()));
    }
}
