//! §3.1 AddDice: sums of dice with arithmetic, keep/drop filters and a comparison.

use super::{Eval, SEP, Verdict, arith_error, join_values};
use crate::ast::{AddDice, DiceTerm, Expr, FilterKind, Target};
use crate::error::{EvalError, ParseError, ParseErrorKind};
use crate::expr::{
    ArithError, Grammar, apply, check_dice_terms, eval_arith_zero_is_one, has_dice, parse_add,
    write_op, write_round_suffix,
};
use crate::lexer::Cursor;
use crate::profile::Profile;
use crate::result::{Comparison, Detail, RollResult};
use crate::roller::Roller;

/// `command := ["S"] add [CMP_OP (add | "?")]`
pub fn parse(c: &mut Cursor<'_>) -> Result<AddDice, Box<ParseError>> {
    let secret = c.eat_char('S');
    let expr_span = c.here();
    let expr = parse_add(c, Grammar::ADD_DICE)?;
    let expr_span = expr_span.start..c.here().start;
    if !check_dice_terms(&expr, &expr_span)? {
        return Err(Box::new(ParseError {
            span: expr_span,
            kind: ParseErrorKind::NoDice,
        }));
    }
    let cmp = match c.eat_cmp()? {
        None => None,
        Some(op) => {
            if c.eat_char('?') {
                Some((op, Target::Unknown))
            } else {
                let target_span = c.here();
                let target = parse_add(c, Grammar::ADD_DICE)?;
                if has_dice(&target) {
                    return Err(Box::new(ParseError {
                        span: target_span.start..c.here().start,
                        kind: ParseErrorKind::DiceNotAllowed("a target"),
                    }));
                }
                Some((op, Target::Value(target)))
            }
        }
    };
    c.finish()?;
    Ok(AddDice { secret, expr, cmp })
}

/// Rolls and prints an AddDice command.
///
/// Two passes over the tree: the formula first (counts and sides evaluated, nothing drawn),
/// then the interim text while rolling, both straight into the result text.
pub fn eval(cmd: &AddDice, profile: &Profile, roller: &mut Roller<'_>) -> Eval {
    let mut text = String::with_capacity(96);
    text.push('(');
    // Each dice term's evaluated shape, in the order both passes meet them.
    let mut shapes = Shapes::new();
    write_formula(&mut text, &cmd.expr, profile, &mut shapes)?;
    let target = match &cmd.cmp {
        None => None,
        Some((op, target)) => {
            text.push_str(op.as_str());
            match target {
                Target::Unknown => {
                    text.push('?');
                    None
                }
                Target::Value(t) => {
                    let t = eval_arith_zero_is_one(t, profile.rounding).map_err(arith_error)?;
                    push_num(&mut text, t);
                    Some((*op, t))
                }
            }
        }
    };
    text.push(')');

    let before_interim = text.len();
    text.push_str(SEP);
    let mut w = Walker {
        profile,
        roller,
        out: &mut text,
        shapes: shapes.iter(),
        dice_drawn: 0,
    };
    let total = w.walk(&cmd.expr)?;
    // The interim part is left out for a single plain die term that drew at most one die.
    if matches!(&cmd.expr, Expr::Dice(d) if d.filter.is_none()) && w.dice_drawn <= 1 {
        text.truncate(before_interim);
    }
    text.push_str(SEP);
    push_num(&mut text, total);

    let comparison = target.map(|(op, target)| Comparison {
        op,
        target,
        holds: op.holds(total, target),
    });
    if let Some(cmp) = &comparison {
        text.push_str(SEP);
        text.push_str(Verdict::from(cmp.holds).text());
    }
    let mut result = RollResult::new(text, Detail::Sum { total, comparison });
    if let Some(cmp) = comparison {
        result = result.with_verdict(cmp.holds);
    }
    result.secret = cmd.secret;
    Ok(Some(result))
}

use crate::text::push_int as push_num;

type Shapes = smallvec::SmallVec<[Shape; 4]>;

/// A dice term's evaluated count, sides and keep/drop filter.
#[derive(Clone, Copy)]
struct Shape {
    count: i64,
    sides: i64,
    keep: Option<(FilterKind, i64)>,
}

impl Shape {
    fn of(d: &DiceTerm, profile: &Profile) -> Result<Shape, EvalError> {
        let eval = |e: &Expr| eval_arith_zero_is_one(e, profile.rounding).map_err(arith_error);
        let count = d.count.as_ref().map_or(Ok(1), eval)?;
        let sides = d.sides.as_ref().map_or(Ok(profile.implicit_sides), eval)?;
        let keep = match &d.filter {
            None => None,
            Some(f) => {
                let n = f.count.as_ref().map_or(Ok(1), eval)?;
                if n < 0 {
                    return Err(EvalError::NegativeKeep);
                }
                Some((f.kind, n))
            }
        };
        Ok(Shape { count, sides, keep })
    }
}

/// The formula as BCDice prints it: the tree as written, dice terms with their counts and
/// sides evaluated (`(2+3)d6` prints `5D6`).
fn write_formula(
    out: &mut String,
    e: &Expr,
    profile: &Profile,
    shapes: &mut Shapes,
) -> Result<(), EvalError> {
    match e {
        Expr::Num(n) => push_num(out, *n),
        Expr::Paren(x) => {
            out.push('(');
            write_formula(out, x, profile, shapes)?;
            out.push(')');
        }
        Expr::Neg(x) => {
            out.push('-');
            write_formula(out, x, profile, shapes)?;
        }
        Expr::Bin(op, operands) => {
            write_formula(out, &operands.0, profile, shapes)?;
            write_op(out, *op);
            write_formula(out, &operands.1, profile, shapes)?;
            write_round_suffix(out, *op, 'U');
        }
        Expr::Dice(d) => {
            let shape = Shape::of(d, profile)?;
            shapes.push(shape);
            push_num(out, shape.count);
            out.push('D');
            push_num(out, shape.sides);
            if let Some((kind, n)) = shape.keep {
                out.push_str(kind.as_str());
                push_num(out, n);
            }
        }
    }
    Ok(())
}

/// Evaluates a sum left to right (which fixes the order of the dice), printing the interim
/// text as it goes.
struct Walker<'a, 'r, 's> {
    profile: &'a Profile,
    roller: &'r mut Roller<'s>,
    out: &'a mut String,
    shapes: std::slice::Iter<'a, Shape>,
    dice_drawn: usize,
}

impl Walker<'_, '_, '_> {
    fn walk(&mut self, e: &Expr) -> Result<i64, EvalError> {
        match e {
            Expr::Num(n) => {
                push_num(self.out, *n);
                Ok(*n)
            }
            Expr::Paren(x) => {
                self.out.push('(');
                let v = self.walk(x)?;
                self.out.push(')');
                Ok(v)
            }
            Expr::Neg(x) => {
                self.out.push('-');
                self.walk(x)?.checked_neg().ok_or(EvalError::Overflow)
            }
            Expr::Bin(op, operands) => {
                let l = self.walk(&operands.0)?;
                write_op(self.out, *op);
                let r = self.walk(&operands.1)?;
                write_round_suffix(self.out, *op, 'U');
                match apply(*op, l, r, self.profile.rounding) {
                    Ok(v) => Ok(v),
                    // §2.5: in a sum, x/0 is 1 whatever the rounding.
                    Err(ArithError::ZeroDivision { .. }) => Ok(1),
                    Err(e) => Err(arith_error(e)),
                }
            }
            Expr::Dice(_) => self.roll(),
        }
    }

    fn roll(&mut self) -> Result<i64, EvalError> {
        let Shape { count, sides, keep } = *self
            .shapes
            .next()
            .expect("the formula pass met every dice term");
        let mut dice = if sides == 66 {
            // A 66-sided die in a sum is a D66 draw; the 200-dice limit does not apply.
            if count < 0 {
                return Err(EvalError::NegativeCount);
            }
            let mut v = crate::roller::Dice::new();
            for _ in 0..count {
                v.push(self.roller.roll_d66(self.profile.d66_order)?);
            }
            v
        } else {
            self.roller.roll_group(count, sides)?
        };
        if self.profile.sort_added_dice {
            dice.sort_unstable();
        }
        self.dice_drawn += dice.len();

        let sum = match keep {
            None => checked_sum(&dice)?,
            Some((kind, n)) => {
                // A filtered term shows the kept sum and all dice, sorted.
                dice.sort_unstable();
                let n = usize::try_from(n).unwrap_or(usize::MAX).min(dice.len());
                let len = dice.len();
                let kept = match kind {
                    FilterKind::KeepHighest => &dice[len - n..],
                    FilterKind::KeepLowest => &dice[..n],
                    FilterKind::DropHighest => &dice[..len - n],
                    FilterKind::DropLowest => &dice[n..],
                };
                checked_sum(kept)?
            }
        };
        push_num(self.out, sum);
        self.out.push('[');
        join_values(self.out, &dice, ",");
        self.out.push(']');
        Ok(sum)
    }
}

fn checked_sum(values: &[i64]) -> Result<i64, EvalError> {
    values
        .iter()
        .try_fold(0i64, |acc, &v| acc.checked_add(v))
        .ok_or(EvalError::Overflow)
}
