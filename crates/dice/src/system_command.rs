//! The configurable command parser game systems share (spec §5.1): a literal notation,
//! optional `@c #f $d` options, a modifier folded to one number, and a comparison.
//!
//! Unlike the common commands' parsers this one folds as BCDice's does: it gives numbers,
//! not expressions, because every system check prints the folded modifier.

use crate::ast::CmpOp;
use crate::error::EvalError;
use crate::expr::{ArithError, Grammar, eval_arith, parse_mul, parse_unary};
use crate::lexer::{Cursor, Tok, lex};
use crate::profile::Rounding;

/// What a system's command accepts.
#[derive(Debug, Clone, Copy)]
pub struct CommandSpec<'a> {
    /// Literal notations that start the command (`2D6`, `SGS`, aliases).
    pub notations: &'a [&'a str],
    /// `@n` (critical) is accepted.
    pub critical: bool,
    /// `#n` (fumble) is accepted.
    pub fumble: bool,
    /// `$n` is accepted.
    pub dollar: bool,
    /// A `+n-m…` modifier is accepted.
    pub modifier: bool,
    /// Operators accepted after the command (empty: no comparison allowed).
    pub operators: &'a [CmpOp],
    /// `?` is accepted as the target.
    pub question_target: bool,
}

/// A parsed system command with its numbers folded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemCommand<'a> {
    /// The notation that matched.
    pub notation: &'a str,
    /// `@` value.
    pub critical: Option<i64>,
    /// `#` value.
    pub fumble: Option<i64>,
    /// `$` value.
    pub dollar: Option<i64>,
    /// The modifier terms summed (`+1-2+3-4` is `-2`).
    pub modify_number: i64,
    /// The comparison; a `None` target is `?`.
    pub cmp: Option<(CmpOp, Option<i64>)>,
}

/// Parses `input` (preprocessed, upper-cased, without a secret `S`). `Ok(None)` when it is
/// not such a command or divides by zero plainly; an error where BCDice raises.
pub fn parse<'a>(
    input: &str,
    spec: &CommandSpec<'a>,
    rounding: Rounding,
) -> Result<Option<SystemCommand<'a>>, EvalError> {
    let Some(notation) = spec
        .notations
        .iter()
        .copied()
        .find(|n| input.starts_with(n))
    else {
        return Ok(None);
    };
    let rest = &input[notation.len()..];
    let toks = lex(rest, 0);
    let mut c = Cursor::new(&toks, rest.len());
    let mut cmd = SystemCommand {
        notation,
        critical: None,
        fumble: None,
        dollar: None,
        modify_number: 0,
        cmp: None,
    };
    let eval = |e: &crate::ast::Expr| fold(e, rounding);

    // Options sit together, either before or after the modifier.
    let mut seen_options = parse_options(&mut c, spec, &mut cmd, rounding)?;
    let Some(seen) = seen_options else {
        return Ok(None);
    };
    if spec.modifier {
        let mut any = false;
        loop {
            let minus = if c.eat_char('+') {
                false
            } else if c.eat_char('-') {
                true
            } else {
                break;
            };
            any = true;
            let Ok(term) = parse_mul(&mut c, Grammar::ARITHMETIC) else {
                return Ok(None);
            };
            let Some(v) = eval(&term)? else {
                return Ok(None);
            };
            let sum = if minus {
                cmd.modify_number.checked_sub(v)
            } else {
                cmd.modify_number.checked_add(v)
            };
            cmd.modify_number = sum.ok_or(EvalError::Overflow)?;
        }
        if any && !seen {
            seen_options = parse_options(&mut c, spec, &mut cmd, rounding)?;
            if seen_options.is_none() {
                return Ok(None);
            }
        }
    }

    match c.eat_cmp() {
        Err(_) => return Ok(None),
        Ok(None) => {}
        Ok(Some(op)) => {
            if !spec.operators.contains(&op) {
                return Ok(None);
            }
            if spec.question_target && c.eat_char('?') {
                cmd.cmp = Some((op, None));
            } else {
                let Ok(t) = crate::expr::parse_add(&mut c, Grammar::ARITHMETIC) else {
                    return Ok(None);
                };
                let Some(t) = eval(&t)? else {
                    return Ok(None);
                };
                cmd.cmp = Some((op, Some(t)));
            }
        }
    }
    if !c.at_end() {
        return Ok(None);
    }
    Ok(Some(cmd))
}

/// Parses a group of options. `Some(true)` if any was present, `Some(false)` if none,
/// `None` if the text is not a valid option group.
fn parse_options(
    c: &mut Cursor<'_>,
    spec: &CommandSpec<'_>,
    cmd: &mut SystemCommand<'_>,
    rounding: Rounding,
) -> Result<Option<bool>, EvalError> {
    let mut any = false;
    loop {
        let (enabled, slot) = match c.peek().map(|t| t.tok) {
            Some(Tok::Char('@')) => (spec.critical, &mut cmd.critical),
            Some(Tok::Char('#')) => (spec.fumble, &mut cmd.fumble),
            Some(Tok::Char('$')) => (spec.dollar, &mut cmd.dollar),
            _ => return Ok(Some(any)),
        };
        if !enabled || slot.is_some() {
            return Ok(None);
        }
        c.bump();
        let Ok(e) = parse_unary(c, Grammar::ARITHMETIC) else {
            return Ok(None);
        };
        let Some(v) = fold(&e, rounding)? else {
            return Ok(None);
        };
        *slot = Some(v);
        any = true;
    }
}

/// A folded value; a plain division by zero makes the parse give nothing.
fn fold(e: &crate::ast::Expr, rounding: Rounding) -> Result<Option<i64>, EvalError> {
    match eval_arith(e, rounding) {
        Ok(v) => Ok(Some(v)),
        Err(ArithError::ZeroDivision { rounded: false }) => Ok(None),
        Err(ArithError::ZeroDivision { rounded: true }) => Err(EvalError::DivisionByZero),
        Err(ArithError::Overflow) => Err(EvalError::Overflow),
    }
}

/// Formats a modifier as BCDice does: nothing for 0, `+n`, `-n` (spec §2.7).
pub fn format_modifier(m: i64) -> String {
    match m {
        0 => String::new(),
        m if m > 0 => format!("+{m}"),
        m => m.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRS: CommandSpec<'static> = CommandSpec {
        notations: &["2D6"],
        critical: true,
        fumble: true,
        dollar: false,
        modifier: true,
        operators: &[CmpOp::Ge],
        question_target: false,
    };

    fn p(s: &str) -> Option<SystemCommand<'static>> {
        parse(s, &SRS, Rounding::Floor).expect("no error")
    }

    #[test]
    fn options_sit_together_before_or_after_the_modifier() {
        // Spec §5.1.
        let a = p("2D6+1@11#3>=5").expect("options after the modifier");
        assert_eq!(
            (a.critical, a.fumble, a.modify_number),
            (Some(11), Some(3), 1)
        );
        let b = p("2D6#3@11+1>=5").expect("options before the modifier");
        assert_eq!(
            (b.critical, b.fumble, b.modify_number),
            (Some(11), Some(3), 1)
        );
        assert_eq!(p("2D6@11+1#3>=5"), None);
    }

    #[test]
    fn modifier_terms_fold() {
        assert_eq!(p("2D6+1-2+3-4>=8").map(|c| c.modify_number), Some(-2));
        assert_eq!(p("2D6+2*3>=8").map(|c| c.modify_number), Some(6));
    }

    #[test]
    fn refused_forms() {
        assert_eq!(p("2D6>7"), None);
        assert_eq!(p("2D6*2>=7"), None);
        assert_eq!(p("2D6+1/0>=7"), None);
        assert_eq!(
            parse("2D6+1/0U>=7", &SRS, Rounding::Floor),
            Err(EvalError::DivisionByZero)
        );
    }
}
