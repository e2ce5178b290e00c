//! Integer expressions: parsing (spec §2.3, and §3.1's dice variant), evaluation with
//! BCDice's division rules, and printing.

use crate::ast::{BinOp, DiceTerm, DivRound, Expr, Filter, FilterKind};
use crate::error::{ParseError, ParseErrorKind};
use crate::lexer::{Cursor, Tok, Token};
use crate::profile::Rounding;

/// Which variant of the expression grammar to parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grammar {
    /// Dice terms are allowed (AddDice).
    pub dice: bool,
    /// Fold negations as AddDice does: `--x` is `x`, `a+-b` is `a-b`, `a--b` is `a+b`.
    pub fold_negation: bool,
}

impl Grammar {
    /// The Arithmetic family: numbers only, negations as typed.
    pub const ARITHMETIC: Grammar = Grammar {
        dice: false,
        fold_negation: false,
    };
    /// AddDice's grammar.
    pub const ADD_DICE: Grammar = Grammar {
        dice: true,
        fold_negation: true,
    };
}

/// `add := mul { ("+"|"-") mul }`
pub fn parse_add(c: &mut Cursor<'_>, g: Grammar) -> Result<Expr, Box<ParseError>> {
    let mut lhs = parse_mul(c, g)?;
    loop {
        let here = c.here();
        let op = if c.eat_char('+') {
            BinOp::Add
        } else if c.eat_char('-') {
            BinOp::Sub
        } else {
            return Ok(lhs);
        };
        c.count_operator(here)?;
        let rhs = parse_mul(c, g)?;
        lhs = match (op, rhs) {
            (BinOp::Add, Expr::Neg(y)) if g.fold_negation => bin(BinOp::Sub, lhs, *y),
            (BinOp::Sub, Expr::Neg(y)) if g.fold_negation => bin(BinOp::Add, lhs, *y),
            (op, rhs) => bin(op, lhs, rhs),
        };
    }
}

/// `mul := unary { "*" unary | "/" unary [F|U|C|R] }`
pub fn parse_mul(c: &mut Cursor<'_>, g: Grammar) -> Result<Expr, Box<ParseError>> {
    let mut lhs = parse_unary(c, g)?;
    loop {
        let here = c.here();
        let op = if c.eat_char('*') {
            BinOp::Mul
        } else if c.eat_char('/') {
            BinOp::Div(DivRound::System)
        } else {
            return Ok(lhs);
        };
        c.count_operator(here)?;
        let rhs = parse_unary(c, g)?;
        let op = match op {
            BinOp::Div(_) => BinOp::Div(parse_round(c)),
            op => op,
        };
        lhs = bin(op, lhs, rhs);
    }
}

fn parse_round(c: &mut Cursor<'_>) -> DivRound {
    for (ch, round) in [
        ('F', DivRound::Floor),
        ('U', DivRound::Ceil),
        ('C', DivRound::Ceil),
        ('R', DivRound::Round),
    ] {
        if c.eat_char(ch) {
            return round;
        }
    }
    DivRound::System
}

/// `unary := "+" unary | "-" unary | dice-or-term`
pub fn parse_unary(c: &mut Cursor<'_>, g: Grammar) -> Result<Expr, Box<ParseError>> {
    // Iterative, so a line of ten thousand signs cannot exhaust the stack.
    let mut minuses = 0usize;
    loop {
        let here = c.here();
        if c.eat_char('-') {
            minuses += 1;
        } else if !c.eat_char('+') {
            break;
        }
        c.count_operator(here)?;
    }
    let mut e = if g.dice {
        parse_dice(c, g)?
    } else {
        parse_term(c, g)?
    };
    if g.fold_negation {
        // Two unary minuses cancel.
        minuses %= 2;
    }
    for _ in 0..minuses {
        e = Expr::Neg(b(e));
    }
    Ok(e)
}

/// `term := "(" add ")" | NUMBER`
pub fn parse_term(c: &mut Cursor<'_>, g: Grammar) -> Result<Expr, Box<ParseError>> {
    match c.peek() {
        Some(Token {
            tok: Tok::Num(n), ..
        }) => {
            let n = *n;
            c.bump();
            Ok(Expr::Num(n))
        }
        Some(Token {
            tok: Tok::Char('('),
            ..
        }) => {
            let open = c.here();
            c.bump();
            c.enter(open)?;
            let inner = parse_add(c, g)?;
            if !c.eat_char(')') {
                return Err(c.unexpected("')'"));
            }
            c.leave();
            Ok(Expr::Paren(b(inner)))
        }
        _ => Err(c.unexpected("a number or '('")),
    }
}

fn at_term(c: &Cursor<'_>) -> bool {
    matches!(
        c.peek(),
        Some(Token {
            tok: Tok::Num(_) | Tok::NumTooLarge | Tok::Char('('),
            ..
        })
    )
}

/// AddDice's dice rule (spec §3.1): `NdM`, `Nd`, `NdM` + filter, `dM` + filter, or a term.
fn parse_dice(c: &mut Cursor<'_>, g: Grammar) -> Result<Expr, Box<ParseError>> {
    if c.at_char('D') {
        c.bump();
        if matches!(
            c.peek(),
            Some(Token {
                tok: Tok::Num(66),
                ..
            })
        ) {
            // `D66` belongs to D66Dice, never to a sum.
            return Err(c.unexpected("sides other than a bare 66 (D66 is its own command)"));
        }
        let sides = parse_term(c, g)?;
        let filter = parse_filter(c, g)?;
        return Ok(Expr::Dice(Box::new(DiceTerm {
            count: None,
            sides: Some(sides),
            filter,
        })));
    }
    let count = parse_term(c, g)?;
    if !c.eat_char('D') {
        return Ok(count);
    }
    let sides = if at_term(c) {
        Some(parse_term(c, g)?)
    } else {
        None
    };
    let filter = parse_filter(c, g)?;
    Ok(Expr::Dice(Box::new(DiceTerm {
        count: Some(count),
        sides,
        filter,
    })))
}

/// `filter := ("KH"|"KL"|"DH"|"DL") [term] | "MAX" | "MIN"`
fn parse_filter(c: &mut Cursor<'_>, g: Grammar) -> Result<Option<Filter>, Box<ParseError>> {
    for (word, kind) in [
        ("KH", FilterKind::KeepHighest),
        ("KL", FilterKind::KeepLowest),
        ("DH", FilterKind::DropHighest),
        ("DL", FilterKind::DropLowest),
    ] {
        if c.eat_word(word) {
            let count = if at_term(c) {
                Some(parse_term(c, g)?)
            } else {
                None
            };
            return Ok(Some(Filter { kind, count }));
        }
    }
    if c.eat_word("MAX") {
        return Ok(Some(Filter {
            kind: FilterKind::KeepHighest,
            count: None,
        }));
    }
    if c.eat_word("MIN") {
        return Ok(Some(Filter {
            kind: FilterKind::KeepLowest,
            count: None,
        }));
    }
    Ok(None)
}

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
    Expr::Bin(op, Box::new((l, r)))
}

/// Whether an expression contains a dice term.
pub fn has_dice(e: &Expr) -> bool {
    match e {
        Expr::Num(_) => false,
        Expr::Paren(x) | Expr::Neg(x) => has_dice(x),
        Expr::Bin(_, operands) => has_dice(&operands.0) || has_dice(&operands.1),
        Expr::Dice(_) => true,
    }
}

/// Checks AddDice's static rule (counts, sides and filter counts hold no dice) and says
/// whether the expression has a die at all, in one walk.
pub fn check_dice_terms(e: &Expr, span: &crate::error::Span) -> Result<bool, Box<ParseError>> {
    let bad = |what| {
        Box::new(ParseError {
            span: span.clone(),
            kind: ParseErrorKind::DiceNotAllowed(what),
        })
    };
    match e {
        Expr::Num(_) => Ok(false),
        Expr::Paren(x) | Expr::Neg(x) => check_dice_terms(x, span),
        Expr::Bin(_, operands) => {
            let l = check_dice_terms(&operands.0, span)?;
            Ok(check_dice_terms(&operands.1, span)? || l)
        }
        Expr::Dice(d) => {
            if d.count.as_ref().is_some_and(has_dice) {
                return Err(bad("a dice count"));
            }
            if d.sides.as_ref().is_some_and(has_dice) {
                return Err(bad("the number of sides"));
            }
            if d.filter
                .as_ref()
                .and_then(|f| f.count.as_ref())
                .is_some_and(has_dice)
            {
                return Err(bad("a keep/drop count"));
            }
            Ok(true)
        }
    }
}

/// Why an arithmetic evaluation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithError {
    /// Division by zero; `rounded` when the division had a U/C/R suffix (or rounds by the
    /// system's Ceil/Round mode), where BCDice's float maths fails differently.
    ZeroDivision {
        /// The division rounded up or to nearest.
        rounded: bool,
    },
    /// A value left the i64 range.
    Overflow,
}

/// Evaluates a dice-free expression. A division by zero is an error.
pub fn eval_arith(e: &Expr, rounding: Rounding) -> Result<i64, ArithError> {
    eval_with(e, rounding, false)
}

/// Evaluates a dice-free expression as AddDice does: a division by zero gives 1 (spec §2.5).
pub fn eval_arith_zero_is_one(e: &Expr, rounding: Rounding) -> Result<i64, ArithError> {
    eval_with(e, rounding, true)
}

fn eval_with(e: &Expr, rounding: Rounding, zero_is_one: bool) -> Result<i64, ArithError> {
    match e {
        Expr::Num(n) => Ok(*n),
        Expr::Paren(x) => eval_with(x, rounding, zero_is_one),
        Expr::Neg(x) => eval_with(x, rounding, zero_is_one)?
            .checked_neg()
            .ok_or(ArithError::Overflow),
        Expr::Bin(op, operands) => {
            let (l, r) = &**operands;
            let l = eval_with(l, rounding, zero_is_one)?;
            let r = eval_with(r, rounding, zero_is_one)?;
            match apply(*op, l, r, rounding) {
                Err(ArithError::ZeroDivision { .. }) if zero_is_one => Ok(1),
                v => v,
            }
        }
        // Dice never reach here: parsers with dice check their terms first.
        Expr::Dice(_) => Err(ArithError::Overflow),
    }
}

/// Applies a binary operator with BCDice's rules.
pub fn apply(op: BinOp, l: i64, r: i64, rounding: Rounding) -> Result<i64, ArithError> {
    let v = match op {
        BinOp::Add => l.checked_add(r),
        BinOp::Sub => l.checked_sub(r),
        BinOp::Mul => l.checked_mul(r),
        BinOp::Div(round) => return divide(l, r, effective_rounding(round, rounding)),
    };
    v.ok_or(ArithError::Overflow)
}

fn effective_rounding(round: DivRound, system: Rounding) -> Rounding {
    match round {
        DivRound::System => system,
        DivRound::Floor => Rounding::Floor,
        DivRound::Ceil => Rounding::Ceil,
        DivRound::Round => Rounding::Round,
    }
}

/// Integer division rounded as asked, exactly.
pub fn divide(l: i64, r: i64, rounding: Rounding) -> Result<i64, ArithError> {
    if r == 0 {
        return Err(ArithError::ZeroDivision {
            rounded: rounding != Rounding::Floor,
        });
    }
    let (l, r) = (i128::from(l), i128::from(r));
    let q = l / r;
    let rem = l % r;
    let exact_negative = (l < 0) != (r < 0);
    let q = match rounding {
        Rounding::Floor if rem != 0 && exact_negative => q - 1,
        Rounding::Ceil if rem != 0 && !exact_negative => q + 1,
        Rounding::Round => {
            // Ties away from zero: compare twice the remainder with the divisor.
            if 2 * rem.abs() >= r.abs() {
                if exact_negative { q - 1 } else { q + 1 }
            } else {
                q
            }
        }
        _ => q,
    };
    i64::try_from(q).map_err(|_| ArithError::Overflow)
}

/// Prints an expression for output; `ceil_letter` is how a `U`/`C` suffix prints
/// (`U` in sums, `C` in Calc).
pub fn write_expr(out: &mut String, e: &Expr, ceil_letter: char) {
    use std::fmt::Write;
    match e {
        Expr::Num(n) => {
            let _ = write!(out, "{n}");
        }
        Expr::Paren(x) => {
            out.push('(');
            write_expr(out, x, ceil_letter);
            out.push(')');
        }
        Expr::Neg(x) => {
            out.push('-');
            write_expr(out, x, ceil_letter);
        }
        Expr::Bin(op, operands) => {
            let (l, r) = &**operands;
            write_expr(out, l, ceil_letter);
            write_op(out, *op);
            write_expr(out, r, ceil_letter);
            write_round_suffix(out, *op, ceil_letter);
        }
        Expr::Dice(d) => write_dice_syntax(out, d),
    }
}

/// Writes the operator symbol of a binary operation.
pub fn write_op(out: &mut String, op: BinOp) {
    out.push(match op {
        BinOp::Add => '+',
        BinOp::Sub => '-',
        BinOp::Mul => '*',
        BinOp::Div(_) => '/',
    });
}

/// Writes a division's rounding suffix, if any.
pub fn write_round_suffix(out: &mut String, op: BinOp, ceil_letter: char) {
    match op {
        BinOp::Div(DivRound::Floor) => out.push('F'),
        BinOp::Div(DivRound::Ceil) => out.push(ceil_letter),
        BinOp::Div(DivRound::Round) => out.push('R'),
        _ => {}
    }
}

/// Writes a dice term as it was written (counts unevaluated), for re-parsing.
fn write_dice_syntax(out: &mut String, d: &DiceTerm) {
    if let Some(count) = &d.count {
        write_expr(out, count, 'U');
    }
    out.push('D');
    if let Some(sides) = &d.sides {
        write_expr(out, sides, 'U');
    }
    if let Some(f) = &d.filter {
        out.push_str(f.kind.as_str());
        if let Some(n) = &f.count {
            write_expr(out, n, 'U');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_rounding_matches_spec_examples() {
        // Spec §2.3.
        assert_eq!(divide(-7, 2, Rounding::Floor), Ok(-4));
        assert_eq!(divide(7, -2, Rounding::Floor), Ok(-4));
        assert_eq!(divide(-7, 2, Rounding::Ceil), Ok(-3));
        assert_eq!(divide(1, 2, Rounding::Ceil), Ok(1));
        assert_eq!(divide(5, 2, Rounding::Round), Ok(3));
        assert_eq!(divide(-5, 2, Rounding::Round), Ok(-3));
        assert_eq!(divide(7, 3, Rounding::Round), Ok(2));
        assert_eq!(
            divide(i64::MIN, -1, Rounding::Floor),
            Err(ArithError::Overflow)
        );
        assert_eq!(
            divide(1, 0, Rounding::Floor),
            Err(ArithError::ZeroDivision { rounded: false })
        );
    }
}
