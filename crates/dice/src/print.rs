//! Printing a syntax tree back as a command (the [`std::fmt::Display`] impls of
//! [`crate::ast`]).
//!
//! The printed text is canonical (upper-case letters, no comments, `KH` for `MAX`, `U` for
//! a ceiling division) and parses back to the very same tree: for every `s` that
//! [`crate::command::parse`] accepts, parsing `parse(s)?.to_string()` gives the same
//! [`Command`]. That holds because each node prints the tokens its parser consumed, in the
//! order it consumed them, and nothing the parser skipped or folded away: unary `+`,
//! AddDice's cancelled minus pairs, the text after the command.
//!
//! [`DiceGroup`], [`ThresholdAt`] and [`ChoiceStyle`] have no text of their own (a group's
//! letter, a threshold's brackets, a choice's separators belong to the command around
//! them), so only the commands print them.
//!
//! Text the tree keeps as typed prints as typed: a [`Repeat`]'s keyword and body, a
//! [`Choice`]'s items, and a [`Reroll`]'s whole first token ([`Reroll::raw`]). For a reroll
//! that means printing the token verbatim whenever it still spells the same command, since
//! any other spelling would parse to a different `raw`.

use std::fmt::{self, Display, Formatter};

use crate::ast::{
    AddDice, Barabara, BinOp, Calc, Choice, ChoiceItems, ChoiceStyle, CmpOp, Command, D66,
    DiceGroup, DiceTerm, DivRound, Expr, Filter, FilterKind, Repeat, Reroll, Tally, Target,
    ThresholdAt, Upper,
};
use crate::expr::write_expr;

/// How a ceiling division prints: `U` is accepted both in sums and in Calc.
const CEIL_LETTER: char = 'U';

impl Display for Command {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Command::Add(c) => c.fmt(f),
            Command::Barabara(c) => c.fmt(f),
            Command::Tally(c) => c.fmt(f),
            Command::Calc(c) => c.fmt(f),
            Command::Choice(c) => c.fmt(f),
            Command::D66(c) => c.fmt(f),
            Command::Repeat(c) => c.fmt(f),
            Command::Reroll(c) => c.fmt(f),
            Command::Upper(c) => c.fmt(f),
            Command::Version => f.write_str("BCDiceVersion"),
        }
    }
}

impl Display for CmpOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rounding suffix written after a division's right-hand side (empty for the system's).
impl Display for DivRound {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DivRound::System => "",
            DivRound::Floor => "F",
            DivRound::Ceil => "U",
            DivRound::Round => "R",
        })
    }
}

/// The operator symbol alone; a division's suffix follows its right-hand side, so it is
/// printed by [`Expr`], not here.
impl Display for BinOp {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div(_) => "/",
        })
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write_expr(&mut out, self, CEIL_LETTER);
        f.write_str(&out)
    }
}

impl Display for DiceTerm {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(count) = &self.count {
            count.fmt(f)?;
        }
        f.write_str("D")?;
        if let Some(sides) = &self.sides {
            sides.fmt(f)?;
        }
        if let Some(filter) = &self.filter {
            filter.fmt(f)?;
        }
        Ok(())
    }
}

impl Display for FilterKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `MAX` and `MIN` parse to `KH` and `KL` without a count, and print as such.
impl Display for Filter {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)?;
        match &self.count {
            Some(n) => n.fmt(f),
            None => Ok(()),
        }
    }
}

impl Display for Target {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Target::Value(e) => e.fmt(f),
            Target::Unknown => f.write_str("?"),
        }
    }
}

impl Display for AddDice {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        self.expr.fmt(f)?;
        if let Some((op, target)) = &self.cmp {
            write!(f, "{op}{target}")?;
        }
        Ok(())
    }
}

impl Display for Barabara {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        groups(f, &self.groups, 'B')?;
        cmp(f, self.cmp.as_ref())
    }
}

impl Display for Tally {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        let kind = if self.show_zeros { "TZ" } else { "TY" };
        write!(f, "{}{kind}{}", self.count, self.sides)
    }
}

impl Display for Calc {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        write!(f, "C{}", self.expr)
    }
}

/// Items joined by `,` (a list) or written as a range; [`Choice`] picks the separator its
/// style needs.
impl Display for ChoiceItems {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        choice_items(f, self, ",")
    }
}

impl Display for Choice {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        f.write_str("choice")?;
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        match self.style {
            ChoiceStyle::Bracket => enclosed(f, &self.items, '[', ']'),
            ChoiceStyle::Paren => enclosed(f, &self.items, '(', ')'),
            ChoiceStyle::Space => {
                f.write_str(" ")?;
                choice_items(f, &self.items, " ")
            }
        }
    }
}

impl Display for D66 {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        f.write_str("D66")?;
        match self.suffix {
            Some(c) => write!(f, "{c}"),
            None => Ok(()),
        }
    }
}

/// The keyword is printed as typed since the tree keeps it; one space separates the body.
impl Display for Repeat {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        write!(f, "{}{} {}", self.keyword, self.times, self.body)
    }
}

impl Display for Reroll {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // The tree holds its first token as typed (for the bad-condition message), so only
        // that very token parses back to an equal tree. A hand-built tree whose `raw` does
        // not spell it gets the canonical form instead.
        if raw_spells(self) {
            return f.write_str(&self.raw);
        }
        secret(f, self.secret)?;
        groups(f, &self.groups, 'R')?;
        if let Some((ThresholdAt::Bracket, op, t)) = &self.reroll {
            f.write_str("[")?;
            if let Some(op) = op {
                op.fmt(f)?;
            }
            write!(f, "{t}]")?;
        }
        cmp(f, self.cmp.as_ref())?;
        if let Some((ThresholdAt::At, op, t)) = &self.reroll {
            f.write_str("@")?;
            if let Some(op) = op {
                op.fmt(f)?;
            }
            t.fmt(f)?;
        }
        Ok(())
    }
}

impl Display for Upper {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        secret(f, self.secret)?;
        groups(f, &self.groups, 'U')?;
        if let Some((ThresholdAt::Bracket, t)) = &self.threshold {
            write!(f, "[{t}]")?;
        }
        for (minus, term) in &self.modifier {
            write!(f, "{}{term}", if *minus { '-' } else { '+' })?;
        }
        cmp(f, self.cmp.as_ref())?;
        if let Some((ThresholdAt::At, t)) = &self.threshold {
            write!(f, "@{t}")?;
        }
        Ok(())
    }
}

fn secret(f: &mut Formatter<'_>, secret: bool) -> fmt::Result {
    if secret { f.write_str("S") } else { Ok(()) }
}

fn group(f: &mut Formatter<'_>, g: &DiceGroup, letter: char) -> fmt::Result {
    write!(f, "{}{letter}{}", g.count, g.sides)
}

fn groups(f: &mut Formatter<'_>, gs: &[DiceGroup], letter: char) -> fmt::Result {
    for (i, g) in gs.iter().enumerate() {
        if i > 0 {
            f.write_str("+")?;
        }
        group(f, g, letter)?;
    }
    Ok(())
}

fn cmp(f: &mut Formatter<'_>, cmp: Option<&(CmpOp, Expr)>) -> fmt::Result {
    match cmp {
        Some((op, t)) => write!(f, "{op}{t}"),
        None => Ok(()),
    }
}

fn choice_items(f: &mut Formatter<'_>, items: &ChoiceItems, sep: &str) -> fmt::Result {
    match items {
        ChoiceItems::List(v) => {
            for (i, item) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(sep)?;
                }
                f.write_str(item)?;
            }
            Ok(())
        }
        ChoiceItems::Numbers(a, b) => write!(f, "{a}-{b}"),
        ChoiceItems::Letters(a, b) => write!(f, "{a}-{b}"),
    }
}

/// Items between `open` and `close`. The parser looks for `close` only after the last
/// comma, so an item holding `close` (`choice[a]b,c]` has `a]b`) may stand anywhere but
/// last; when the last one holds it, a trailing comma puts an empty item, which the parser
/// drops, after it.
fn enclosed(f: &mut Formatter<'_>, items: &ChoiceItems, open: char, close: char) -> fmt::Result {
    write!(f, "{open}{items}")?;
    if let ChoiceItems::List(v) = items
        && v.last().is_some_and(|last| last.contains(close))
    {
        f.write_str(",")?;
    }
    write!(f, "{close}")
}

/// Whether `r.raw`, parsed as a reroll, is `r` itself.
fn raw_spells(r: &Reroll) -> bool {
    let toks = crate::lexer::lex(&r.raw, 0);
    let mut c = crate::lexer::Cursor::new(&toks, r.raw.len());
    crate::command::reroll::parse(&mut c, &r.raw).is_ok_and(|parsed| parsed == *r)
}

#[cfg(test)]
mod tests {
    use crate::command::parse;

    /// Parses `input`, checks it prints as `printed`, and that the print parses back equal.
    #[track_caller]
    fn prints_as(input: &str, printed: &str) {
        let cmd = parse(input).unwrap_or_else(|e| panic!("{input:?} should parse: {e:?}"));
        let text = cmd.to_string();
        assert_eq!(text, printed, "print of {input:?}");
        assert_eq!(parse(&text), Ok(cmd), "re-parse of {text:?}");
    }

    #[test]
    fn add_dice_prints_canonically() {
        prints_as("2d6", "2D6");
        prints_as("s2d6+1>=7 comment", "S2D6+1>=7");
        prints_as("d6", "D6");
        prints_as("2D", "2D");
        prints_as("(2+3)D(4)", "(2+3)D(4)");
        prints_as("4d6max", "4D6KH");
        prints_as("4d6min+1", "4D6KL+1");
        prints_as("4D6DL2", "4D6DL2");
        prints_as("3DDH", "3DDH");
        prints_as("2D6=>5", "2D6>=5");
        prints_as("2D6!=5", "2D6<>5");
        prints_as("2D6<?", "2D6<?");
        prints_as("2D6>=-1", "2D6>=-1");
    }

    #[test]
    fn add_dice_folds_negations_and_keeps_the_fold() {
        prints_as("--1D6", "1D6");
        prints_as("---1D6", "-1D6");
        prints_as("1D6+-1", "1D6-1");
        prints_as("1D6--1", "1D6+1");
        prints_as("+1D6", "1D6");
        prints_as("1D6*-2", "1D6*-2");
    }

    #[test]
    fn division_suffixes() {
        prints_as("1D6/2", "1D6/2");
        prints_as("1D6/2c", "1D6/2U");
        prints_as("1D6/2u", "1D6/2U");
        prints_as("1D6/2r", "1D6/2R");
        prints_as("1D6/2f", "1D6/2F");
        prints_as("1/2DU", "1/2DU");
        prints_as("c(7/2c)", "C(7/2U)");
        prints_as("C(7/2/3R)", "C(7/2/3R)");
    }

    #[test]
    fn calc_keeps_unary_minus_chains() {
        prints_as("C(-1---1)", "C(-1---1)");
        prints_as("C1+2", "C1+2");
        prints_as("SC(+1)", "SC(1)");
        prints_as("C(1+-2)", "C(1+-2)");
    }

    #[test]
    fn barabara_tally_groups() {
        prints_as("2b6", "2B6");
        prints_as("2B6+(1+1)B(10)>=5", "2B6+(1+1)B(10)>=5");
        prints_as("s5ty6", "S5TY6");
        prints_as("5TZ(3*2)", "5TZ(3*2)");
    }

    #[test]
    fn choice_styles() {
        prints_as("choice[a, b ,c]", "choice[a,b,c]");
        prints_as("Choice2(x,y) rest", "choice2(x,y)");
        prints_as("schoice  a   b", "Schoice a b");
        prints_as("choice[1-6]", "choice[1-6]");
        prints_as("choice 01-06", "choice 1-6");
        prints_as("choice(a-f)", "choice(a-f)");
        prints_as("choice[a]b,c]", "choice[a]b,c]");
        // Found by fuzzing: the last piece is empty, so the last item holds the `]`.
        prints_as("choice[a,b]c,]", "choice[a,b]c,]");
        prints_as("choice(a,b)c, ) d", "choice(a,b)c,)");
        prints_as(
            "choice1000[1-99999999999999999999]",
            "choice1000[1-18446744073709551615]",
        );
    }

    #[test]
    fn d66_version_repeat() {
        prints_as("d66", "D66");
        prints_as("sd66a", "SD66A");
        prints_as("D66s", "D66S");
        prints_as("bcdiceversion", "BCDiceVersion");
        prints_as("x3 2d6 comment", "x3 2d6 comment");
        prints_as("SRep003\t1D6", "SRep3 1D6");
        prints_as("repeat2  choice[a,b]", "repeat2 choice[a,b]");
    }

    #[test]
    fn reroll_prints_its_token_as_typed() {
        prints_as("3r6[5] comment", "3r6[5]");
        prints_as("S3R6>=5@<=2", "S3R6>=5@<=2");
        prints_as("3r6+2r10[>5]<3", "3r6+2r10[>5]<3");
    }

    #[test]
    fn reroll_canonical_when_raw_disagrees() {
        let Ok(crate::ast::Command::Reroll(mut r)) = parse("3r6+2R10[>5]<3") else {
            panic!("a reroll");
        };
        r.raw = "hand-built".to_string();
        assert_eq!(r.to_string(), "3R6+2R10[>5]<3");
        let Ok(crate::ast::Command::Reroll(mut at)) = parse("s3r6>=5@<=2") else {
            panic!("a reroll");
        };
        at.raw.clear();
        assert_eq!(at.to_string(), "S3R6>=5@<=2");
    }

    #[test]
    fn upper_thresholds_and_modifiers() {
        prints_as("3u6[6]+1-2>=10", "3U6[6]+1-2>=10");
        prints_as("3u6+1@6", "3U6+1@6");
        prints_as("3U6+2U10[10]", "3U6+2U10[10]");
        prints_as("3U6++1--2*3/2c@6", "3U6+1--2*3/2U@6");
    }
}
