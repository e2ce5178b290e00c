//! §3.1 AddDice: sums of dice with arithmetic, keep/drop filters and a comparison.

use super::{Eval, SEP, Verdict, arith_error, join_values};
use crate::ast::{AddDice, BinOp, DiceTerm, Expr, FilterKind, Target};
use crate::error::{EvalError, ParseError, ParseErrorKind};
use crate::expr::{
    ArithError, Grammar, apply, check_dice_terms, eval_arith_zero_is_one, has_dice, parse_add,
    write_op, write_round_suffix,
};
use crate::lexer::{Cursor, Tok};
use crate::profile::Profile;
use crate::result::{Comparison, Detail, RollResult};
use crate::roller::Roller;

/// `command := ["S"] add [CMP_OP (add | "?")]`
pub fn parse(c: &mut Cursor<'_>) -> Result<AddDice, Box<ParseError>> {
    let secret = c.eat_char('S');
    let expr_span = c.here();
    let expr = parse_add(c, Grammar::ADD_DICE)?;
    if !has_dice(&expr) {
        return Err(Box::new(ParseError {
            span: expr_span.start..c.here().start,
            kind: ParseErrorKind::NoDice,
        }));
    }
    check_dice_terms(&expr, &(expr_span.start..c.here().start))?;
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
pub fn eval(cmd: &AddDice, profile: &Profile, roller: &mut Roller<'_>) -> Eval {
    // The formula is written straight into the result text; the interim part beside it.
    let mut formula = String::with_capacity(96);
    formula.push('(');
    let mut w = Walker {
        profile,
        roller,
        formula,
        interim: String::with_capacity(48),
        dice_drawn: 0,
    };
    let total = w.walk(&cmd.expr)?;
    let Walker {
        formula: mut text,
        interim,
        dice_drawn,
        ..
    } = w;

    let mut comparison = None;
    if let Some((op, target)) = &cmd.cmp {
        text.push_str(op.as_str());
        match target {
            Target::Unknown => text.push('?'),
            Target::Value(t) => {
                let t = eval_arith_zero_is_one(t, profile.rounding).map_err(arith_error)?;
                push_num(&mut text, t);
                comparison = Some(Comparison {
                    op: *op,
                    target: t,
                    holds: op.holds(total, t),
                });
            }
        }
    }

    let single_plain_die =
        matches!(&cmd.expr, Expr::Dice(d) if d.filter.is_none()) && dice_drawn <= 1;
    text.push(')');
    if !single_plain_die {
        text.push_str(SEP);
        text.push_str(&interim);
    }
    text.push_str(SEP);
    push_num(&mut text, total);
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

/// Evaluates a sum left to right, printing the formula and the interim text as it goes.
struct Walker<'a, 'r, 's> {
    profile: &'a Profile,
    roller: &'r mut Roller<'s>,
    formula: String,
    interim: String,
    dice_drawn: usize,
}

impl Walker<'_, '_, '_> {
    fn walk(&mut self, e: &Expr) -> Result<i64, EvalError> {
        match e {
            Expr::Num(n) => {
                push_num(&mut self.formula, *n);
                push_num(&mut self.interim, *n);
                Ok(*n)
            }
            Expr::Paren(x) => {
                self.push_both('(');
                let v = self.walk(x)?;
                self.push_both(')');
                Ok(v)
            }
            Expr::Neg(x) => {
                self.push_both('-');
                self.walk(x)?.checked_neg().ok_or(EvalError::Overflow)
            }
            Expr::Bin(op, l, r) => {
                let l = self.walk(l)?;
                write_op(&mut self.formula, *op);
                write_op(&mut self.interim, *op);
                let r = self.walk(r)?;
                write_round_suffix(&mut self.formula, *op, 'U');
                write_round_suffix(&mut self.interim, *op, 'U');
                match apply(*op, l, r, self.profile.rounding) {
                    Ok(v) => Ok(v),
                    // §2.5: in a sum, x/0 is 1 whatever the rounding.
                    Err(ArithError::ZeroDivision { .. }) if matches!(op, BinOp::Div(_)) => Ok(1),
                    Err(e) => Err(arith_error(e)),
                }
            }
            Expr::Dice(d) => self.roll(d),
        }
    }

    fn push_both(&mut self, c: char) {
        self.formula.push(c);
        self.interim.push(c);
    }

    fn roll(&mut self, d: &DiceTerm) -> Result<i64, EvalError> {
        let rounding = self.profile.rounding;
        let count = match &d.count {
            Some(c) => eval_arith_zero_is_one(c, rounding).map_err(arith_error)?,
            None => 1,
        };
        let sides = match &d.sides {
            Some(s) => eval_arith_zero_is_one(s, rounding).map_err(arith_error)?,
            None => self.profile.implicit_sides,
        };
        let keep = match &d.filter {
            None => None,
            Some(f) => {
                let n = match &f.count {
                    Some(n) => eval_arith_zero_is_one(n, rounding).map_err(arith_error)?,
                    None => 1,
                };
                if n < 0 {
                    return Err(EvalError::NegativeKeep);
                }
                Some((f.kind, n))
            }
        };

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

        push_num(&mut self.formula, count);
        self.formula.push('D');
        push_num(&mut self.formula, sides);

        let sum = match keep {
            None => {
                let sum = checked_sum(&dice)?;
                push_num(&mut self.interim, sum);
                self.interim.push('[');
                join_values(&mut self.interim, &dice, ",");
                self.interim.push(']');
                sum
            }
            Some((kind, n)) => {
                self.formula.push_str(kind.as_str());
                push_num(&mut self.formula, n);
                dice.sort_unstable();
                let n = usize::try_from(n).unwrap_or(usize::MAX).min(dice.len());
                let len = dice.len();
                let kept = match kind {
                    FilterKind::KeepHighest => &dice[len - n..],
                    FilterKind::KeepLowest => &dice[..n],
                    FilterKind::DropHighest => &dice[..len - n],
                    FilterKind::DropLowest => &dice[n..],
                };
                let sum = checked_sum(kept)?;
                push_num(&mut self.interim, sum);
                self.interim.push('[');
                join_values(&mut self.interim, &dice, ",");
                self.interim.push(']');
                sum
            }
        };
        Ok(sum)
    }
}

fn checked_sum(values: &[i64]) -> Result<i64, EvalError> {
    values
        .iter()
        .try_fold(0i64, |acc, &v| acc.checked_add(v))
        .ok_or(EvalError::Overflow)
}

/// Whether a token list could start AddDice (used to decide if its parse error is worth
/// showing).
pub fn claims(first: Option<&Tok>) -> bool {
    matches!(
        first,
        Some(Tok::Num(_) | Tok::NumTooLarge | Tok::Char('(' | '-' | '+' | 'D'))
    )
}
