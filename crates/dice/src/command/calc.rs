//! §3.4 Calc: `C(expr)`, integer arithmetic with BCDice's rounding.

use super::{Eval, SEP};
use crate::ast::{Calc, Expr};
use crate::error::{EvalError, ParseError};
use crate::expr::{ArithError, Grammar, apply, parse_add, write_expr};
use crate::lexer::Cursor;
use crate::profile::{Profile, Rounding};
use crate::result::{Detail, RollResult};

/// The text BCDice prints for a division by zero.
pub const ZERO_DIVISION: &str = "ゼロ除算が発生したため計算できませんでした";

/// `command := ["S"] "C" add`
pub fn parse(c: &mut Cursor<'_>) -> Result<Calc, Box<ParseError>> {
    let secret = c.eat_char('S');
    if !c.eat_char('C') {
        return Err(c.unexpected("'C' (as in C(1+2))"));
    }
    let expr = parse_add(c, Grammar::ARITHMETIC)?;
    c.finish()?;
    Ok(Calc { secret, expr })
}

/// Computes and prints.
pub fn eval(cmd: &Calc, profile: &Profile) -> Eval {
    let mut shown = String::from("c");
    if matches!(cmd.expr, Expr::Paren(_)) {
        write_expr(&mut shown, &cmd.expr, 'C');
    } else {
        shown.push('(');
        write_expr(&mut shown, &cmd.expr, 'C');
        shown.push(')');
    }
    shown.push_str(SEP);
    let value = match compute(&cmd.expr, profile.rounding) {
        Ok(Value::Int(v)) => {
            shown.push_str(&v.to_string());
            Some(v)
        }
        // A rounded division by zero is an infinite float in BCDice, which then fails.
        Ok(Value::Infinite) => return Err(EvalError::DivisionByZero),
        Err(Stop::ZeroDivision) => {
            shown.push_str(ZERO_DIVISION);
            None
        }
        Err(Stop::Overflow) => return Err(EvalError::Overflow),
    };
    let mut result = RollResult::new(shown, Detail::Value(value));
    result.secret = cmd.secret;
    Ok(Some(result))
}

/// A Calc value: BCDice divides with U/C/R through floats, so a division by zero there gives
/// an infinity that only fails at the end, while a plain division by zero stops at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    Int(i64),
    Infinite,
}

enum Stop {
    ZeroDivision,
    Overflow,
}

fn compute(e: &Expr, rounding: Rounding) -> Result<Value, Stop> {
    match e {
        Expr::Num(n) => Ok(Value::Int(*n)),
        Expr::Paren(x) => compute(x, rounding),
        Expr::Neg(x) => match compute(x, rounding)? {
            Value::Int(v) => v.checked_neg().map(Value::Int).ok_or(Stop::Overflow),
            Value::Infinite => Ok(Value::Infinite),
        },
        Expr::Bin(op, operands) => {
            let (l, r) = &**operands;
            let l = compute(l, rounding)?;
            let r = compute(r, rounding)?;
            match (l, r) {
                (Value::Int(l), Value::Int(r)) => match apply(*op, l, r, rounding) {
                    Ok(v) => Ok(Value::Int(v)),
                    Err(ArithError::ZeroDivision { rounded: true }) => Ok(Value::Infinite),
                    Err(ArithError::ZeroDivision { rounded: false }) => Err(Stop::ZeroDivision),
                    Err(ArithError::Overflow) => Err(Stop::Overflow),
                },
                // Arithmetic on an infinity stays infinite (or NaN), and fails at the end.
                _ => Ok(Value::Infinite),
            }
        }
        Expr::Dice(_) => Err(Stop::Overflow),
    }
}
