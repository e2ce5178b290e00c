//! The plain-data syntax tree of the common commands.
//!
//! Parsers build it and never evaluate; the evaluator and the exact-odds evaluator walk it.
//! Counts, sides and targets stay expressions here: `(2+3)D6` keeps `(2+3)`, and only the
//! evaluator prints it as `5D6`. [`std::fmt::Display`] prints a tree back as a command that
//! parses to the same tree.

/// A comparison operator (spec §2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// Normalises a run of `<`, `>`, `!`, `=` as BCDice does; `None` if it means nothing.
    pub fn from_run(run: &str) -> Option<CmpOp> {
        // The usual spellings first; the rules below give the same answer for them.
        match run {
            ">=" => return Some(CmpOp::Ge),
            "<=" => return Some(CmpOp::Le),
            "=" | "==" => return Some(CmpOp::Eq),
            ">" => return Some(CmpOp::Gt),
            "<" => return Some(CmpOp::Lt),
            "<>" | "!=" => return Some(CmpOp::Ne),
            _ => {}
        }
        if run.contains("<=") || run.contains("=<") {
            Some(CmpOp::Le)
        } else if run.contains(">=") || run.contains("=>") {
            Some(CmpOp::Ge)
        } else if run.contains("<>") || run.contains("!=") || run.contains("=!") {
            Some(CmpOp::Ne)
        } else if run.contains('<') {
            Some(CmpOp::Lt)
        } else if run.contains('>') {
            Some(CmpOp::Gt)
        } else if run.contains('=') {
            Some(CmpOp::Eq)
        } else {
            None
        }
    }

    /// How BCDice prints the operator.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// Whether `lhs op rhs` holds.
    pub fn holds(self, lhs: i64, rhs: i64) -> bool {
        match self {
            CmpOp::Eq => lhs == rhs,
            CmpOp::Ne => lhs != rhs,
            CmpOp::Lt => lhs < rhs,
            CmpOp::Le => lhs <= rhs,
            CmpOp::Gt => lhs > rhs,
            CmpOp::Ge => lhs >= rhs,
        }
    }
}

/// Rounding suffix of a division (spec §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DivRound {
    /// No suffix: the game system's rounding.
    System,
    /// `F`: toward negative infinity.
    Floor,
    /// `U` or `C`: toward positive infinity.
    Ceil,
    /// `R`: to nearest, ties away from zero.
    Round,
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` with its rounding.
    Div(DivRound),
}

/// An integer expression, possibly with dice (dice only where AddDice allows them).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A number literal.
    Num(i64),
    /// `( … )`, kept because BCDice prints it.
    Paren(Box<Expr>),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation on its two operands (one allocation for both).
    Bin(BinOp, Box<(Expr, Expr)>),
    /// A dice term (AddDice only).
    Dice(Box<DiceTerm>),
}

/// `NdM`, `Nd`, `dM`, with an optional keep/drop filter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DiceTerm {
    /// Number of dice; `None` for `dM` (one die).
    pub count: Option<Expr>,
    /// Sides; `None` for `Nd` (the system's implicit sides).
    pub sides: Option<Expr>,
    /// Keep or drop some dice.
    pub filter: Option<Filter>,
}

/// A keep/drop filter; `MAX` is `KH` and `MIN` is `KL` with no count.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Filter {
    /// Which dice.
    pub kind: FilterKind,
    /// How many; `None` means 1.
    pub count: Option<Expr>,
}

/// Which dice a filter keeps or drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FilterKind {
    /// `KH`: keep the highest.
    KeepHighest,
    /// `KL`: keep the lowest.
    KeepLowest,
    /// `DH`: drop the highest.
    DropHighest,
    /// `DL`: drop the lowest.
    DropLowest,
}

impl FilterKind {
    /// The two letters BCDice prints.
    pub fn as_str(self) -> &'static str {
        match self {
            FilterKind::KeepHighest => "KH",
            FilterKind::KeepLowest => "KL",
            FilterKind::DropHighest => "DH",
            FilterKind::DropLowest => "DL",
        }
    }
}

/// A comparison target of AddDice: a number expression or `?` (no verdict).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A target value.
    Value(Expr),
    /// `?`: compare nothing.
    Unknown,
}

/// One of the common commands (spec §3), in the order they are tried.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Command {
    /// §3.1 sum of dice.
    Add(AddDice),
    /// §3.2 `NbM`.
    Barabara(Barabara),
    /// §3.3 `NTYM` / `NTZM`.
    Tally(Tally),
    /// §3.4 `C(expr)`.
    Calc(Calc),
    /// §3.5 `choice[…]`.
    Choice(Choice),
    /// §3.6 `D66`.
    D66(D66),
    /// §3.7 `xN command`.
    Repeat(Repeat),
    /// §3.8 `NrM`.
    Reroll(Reroll),
    /// §3.9 `NuM`.
    Upper(Upper),
    /// §3.10 `BCDiceVersion`.
    Version,
}

/// §3.1 AddDice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AddDice {
    /// `S` prefix.
    pub secret: bool,
    /// The sum.
    pub expr: Expr,
    /// Comparison and target.
    pub cmp: Option<(CmpOp, Target)>,
}

/// `N` dice of `M` sides, in B, R and U.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DiceGroup {
    /// N.
    pub count: Expr,
    /// M.
    pub sides: Expr,
}

/// §3.2 BarabaraDice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Barabara {
    /// `S` prefix.
    pub secret: bool,
    /// The groups, joined by `+`.
    pub groups: Vec<DiceGroup>,
    /// Success condition per die.
    pub cmp: Option<(CmpOp, Expr)>,
}

/// §3.3 TallyDice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tally {
    /// `S` prefix.
    pub secret: bool,
    /// N.
    pub count: Expr,
    /// M.
    pub sides: Expr,
    /// `TZ`: print faces that did not come up.
    pub show_zeros: bool,
}

/// §3.4 Calc.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Calc {
    /// `S` prefix.
    pub secret: bool,
    /// The expression, unary minuses kept as typed.
    pub expr: Expr,
}

/// How Choice's items were written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChoiceStyle {
    /// `choice[a,b]`
    Bracket,
    /// `choice(a,b)`
    Paren,
    /// `choice a b`
    Space,
}

/// §3.5 Choice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Choice {
    /// `S` prefix.
    pub secret: bool,
    /// How many to pick (at least 1).
    pub count: usize,
    /// How the items were written.
    pub style: ChoiceStyle,
    /// The items.
    pub items: ChoiceItems,
}

/// Choice's items: a list, or a single range shorthand (kept unexpanded, since `1-100000`
/// is refused by the item limit without being built).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ChoiceItems {
    /// Items as written.
    List(Vec<String>),
    /// `a-b` over numbers, `a <= b`.
    Numbers(u64, u64),
    /// `a-f` or `A-F`, same case, `a <= b`.
    Letters(char, char),
}

impl ChoiceItems {
    /// Number of items (u128: a numeric range can span all of u64).
    pub fn len(&self) -> u128 {
        match self {
            ChoiceItems::List(v) => v.len() as u128,
            ChoiceItems::Numbers(a, b) => u128::from(b - a) + 1,
            ChoiceItems::Letters(a, b) => u128::from(*b as u32 - *a as u32) + 1,
        }
    }

    /// Whether there are no items (never true for a parsed choice).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The items as text; call only when [`ChoiceItems::len`] is small.
    pub fn expand(&self) -> Vec<String> {
        match self {
            ChoiceItems::List(v) => v.clone(),
            ChoiceItems::Numbers(a, b) => (*a..=*b).map(|n| n.to_string()).collect(),
            ChoiceItems::Letters(a, b) => (*a..=*b).map(String::from).collect(),
        }
    }
}

/// §3.6 D66Dice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct D66 {
    /// `S` prefix.
    pub secret: bool,
    /// Suffix as written (`A`, `S`, `D`, `N`), upper-cased.
    pub suffix: Option<char>,
}

/// §3.7 Repeat.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Repeat {
    /// `S` prefix.
    pub secret: bool,
    /// The keyword as typed (`x`, `rep`, `repeat`, any case).
    pub keyword: String,
    /// Repetitions as typed (saturated: anything past 100 is refused anyway).
    pub times: u64,
    /// The command to repeat, raw.
    pub body: String,
}

/// Where a reroll or upper threshold was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThresholdAt {
    /// `[…]` right after the dice.
    Bracket,
    /// `@…` at the end.
    At,
}

/// §3.8 RerollDice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reroll {
    /// `S` prefix.
    pub secret: bool,
    /// The first token as typed, for the bad-condition message.
    pub raw: String,
    /// The groups.
    pub groups: Vec<DiceGroup>,
    /// Reroll condition as written: where, its operator if any, its threshold.
    pub reroll: Option<(ThresholdAt, Option<CmpOp>, Expr)>,
    /// Success condition.
    pub cmp: Option<(CmpOp, Expr)>,
}

/// §3.9 UpperDice.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Upper {
    /// `S` prefix.
    pub secret: bool,
    /// The groups.
    pub groups: Vec<DiceGroup>,
    /// Reroll threshold as written.
    pub threshold: Option<(ThresholdAt, Expr)>,
    /// Modifier terms, each with its sign (`true` = minus).
    pub modifier: Vec<(bool, Expr)>,
    /// Success condition.
    pub cmp: Option<(CmpOp, Expr)>,
}
