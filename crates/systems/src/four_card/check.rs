//! FC-9 to FC-12: the check roll (判定ロール) in its three kinds.
//!
//! - `FC+b>=d` target roll (目標ロール, FC-10), `FC+b` a roll value alone (FC-9);
//! - `FC+b VS FC+c` or `FC+b VS n` comparison roll (比較ロール, FC-11), ties re-rolled;
//! - `FCA+b` achievement roll (達成ロール, FC-12): no automatic results.
//!
//! Options written after the command, in any order:
//! `#NS` no automatic success and `#NF` no automatic failure (FC-9's GM exception for
//! plainly impossible or certain actions), `#PLAIN` compare roll values only in a
//! comparison (FC-11 `comparison_auto = plain`), `#OVERRIDE` the default reading of
//! automatic results in a comparison (for one roll at a table set to `plain`), `#DRAW` a
//! comparison's tie stands (the GM's no-winner form, FC-11). A command that starts as a
//! check yet is none of these forms is refused with what is wrong and the right form.
//!
//! Flags follow the product's contest convention: `success` = the left side wins,
//! `failure` = the right side wins, `critical`/`fumble` = the left side's final roll was an
//! automatic success/failure that applied.

use taku_dice::ast::CmpOp;
use taku_dice::command::SEP;
use taku_dice::result::Comparison;
use taku_dice::system_command::format_modifier;
use taku_dice::{Detail, EvalError, RollResult, Roller};

/// Difficulty past which a target roll warns (難易度の限界数値, FC-10).
pub const DIFFICULTY_LIMIT: i64 = 30;
/// Dice showing this succeed automatically (自動的成功, FC-9).
pub const AUTO_SUCCESS: i64 = 12;
/// Dice showing this fail automatically (自動的失敗, FC-9).
pub const AUTO_FAILURE: i64 = 2;
/// What an automatic failure costs (FC-9: 「あらゆる判定において…1点疲労」).
pub const AUTO_FAILURE_FATIGUE: i64 = 1;

/// Per-check switches (FC-9's GM exception, FC-11's options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// `#NS`: a 12 is an ordinary roll value.
    pub no_auto_success: bool,
    /// `#NF`: a 2 is an ordinary roll value (and costs no fatigue).
    pub no_auto_failure: bool,
    /// `#PLAIN`: a comparison compares roll values only.
    pub plain: bool,
    /// `#DRAW`: a comparison's tie stands.
    pub draw: bool,
    /// `#OVERRIDE`: a comparison reads automatic results as FC-11's default does, even at
    /// a table whose `comparison_auto` is `plain`.
    pub overriding: bool,
}

/// The right side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// Rolls 2D6 + this base.
    Rolls(i64),
    /// Cannot roll: a fixed roll value, never automatic.
    Fixed(i64),
}

/// One parsed check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// `FC+b>=d` (FC-10) or, without a difficulty, `FC+b` (FC-9).
    Target {
        /// Base.
        base: i64,
        /// Difficulty, if any.
        difficulty: Option<i64>,
        /// Switches.
        options: Options,
    },
    /// `FC+b VS …` (FC-11).
    Comparison {
        /// The left side's base.
        base: i64,
        /// The right side.
        opponent: Opponent,
        /// Switches.
        options: Options,
    },
    /// `FCA+b` (FC-12).
    Achievement {
        /// Base.
        base: i64,
    },
}

/// One side's 2D6 in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side {
    /// The dice, ascending; `None` for a side that cannot roll.
    pub dice: Option<[i64; 2]>,
    /// Roll value (ロール値) = dice + base.
    pub value: i64,
    /// An automatic success that applies.
    pub auto_success: bool,
    /// An automatic failure that applies (and costs 1 fatigue).
    pub auto_failure: bool,
}

impl Side {
    /// FC-9: the roll value of dice `a`, `b` with `base`, and which automatic result
    /// applies under `options`.
    pub fn of(a: i64, b: i64, base: i64, options: Options) -> Result<Side, EvalError> {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        let sum = a + b;
        Ok(Side {
            dice: Some([a, b]),
            value: sum.checked_add(base).ok_or(EvalError::Overflow)?,
            auto_success: sum == AUTO_SUCCESS && !options.no_auto_success,
            auto_failure: sum == AUTO_FAILURE && !options.no_auto_failure,
        })
    }

    fn fixed(value: i64) -> Side {
        Side {
            dice: None,
            value,
            auto_success: false,
            auto_failure: false,
        }
    }
}

/// How one round of a comparison came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// The left side wins.
    Left,
    /// The right side wins.
    Right,
    /// Equal: re-rolled, or standing under `#DRAW`.
    Tie,
}

/// FC-11, one round. `override` (default): an automatic success beats any roll that is
/// not one, an automatic failure loses to any roll that is not one, two equal automatic
/// results tie (l.197 counts both 2 and both 12 as equal whatever the bases); `plain`:
/// roll values only.
pub fn round(left: &Side, right: &Side, options: Options) -> Round {
    let rank = |s: &Side| {
        if s.auto_success {
            2
        } else if s.auto_failure {
            0
        } else {
            1
        }
    };
    if !options.plain {
        let (l, r) = (rank(left), rank(right));
        if l != r {
            return if l > r { Round::Left } else { Round::Right };
        }
        if l != 1 {
            return Round::Tie;
        }
    }
    match left.value.cmp(&right.value) {
        std::cmp::Ordering::Greater => Round::Left,
        std::cmp::Ordering::Less => Round::Right,
        std::cmp::Ordering::Equal => Round::Tie,
    }
}

/// Parses one of the system's commands (upper-cased, without the secret `S`, a `VS`
/// already joined). `Ok(None)`: not a Four Card check. A command that starts as one
/// (`FC`) yet is none of its forms is refused with what was wrong and the right form
/// (`malformed`), not with the generic "not a command".
pub fn parse(command: &str) -> Result<Option<Check>, EvalError> {
    if !command.starts_with("FC") {
        return Ok(None);
    }
    match forms(command)? {
        Some(check) => Ok(Some(check)),
        None => Err(malformed(command)),
    }
}

/// The forms of a check; `None` for anything else (explained by [`malformed`]).
fn forms(command: &str) -> Result<Option<Check>, EvalError> {
    let (body, options) = match split_options(command) {
        Some(x) => x,
        None => return Ok(None),
    };
    if let Some(rest) = body.strip_prefix("FCA") {
        if options != Options::default() {
            return Ok(None);
        }
        return Ok(modifiers(rest)?
            .map(|base| Some(Check::Achievement { base }))
            .unwrap_or(None));
    }
    let Some(rest) = body.strip_prefix("FC") else {
        return Ok(None);
    };
    if let Some((left, right)) = rest.split_once("VS") {
        // FC-11 (l.196–197) compares two roll values, one side against the other; a
        // third side is refused, not dropped (with three or more, roll pair by pair).
        if let Some(at) = right.find("VS") {
            let at = "FC".len() + left.len() + 2 + at;
            return Err(EvalError::Unsupported(Some(taku_dice::ParseError {
                span: at..at + 2,
                kind: taku_dice::ParseErrorKind::Unexpected {
                    found: taku_dice::Found::Char('V'),
                    expected: THIRD_SIDE,
                },
            })));
        }
        let Some(base) = modifiers(left)? else {
            return Ok(None);
        };
        let opponent = if let Some(r) = right.strip_prefix("FC") {
            match modifiers(r)? {
                Some(b) => Opponent::Rolls(b),
                None => return Ok(None),
            }
        } else {
            match fixed(right)? {
                Some(n) => Opponent::Fixed(n),
                None => return Ok(None),
            }
        };
        return Ok(Some(Check::Comparison {
            base,
            opponent,
            options,
        }));
    }
    if options.plain || options.draw || options.overriding {
        return Ok(None);
    }
    let (mods, difficulty) = match rest.split_once(">=") {
        Some((m, d)) => match fixed(d)? {
            Some(d) => (m, Some(d)),
            None => return Ok(None),
        },
        None => (rest, None),
    };
    Ok(modifiers(mods)?.map(|base| Check::Target {
        base,
        difficulty,
        options,
    }))
}

/// FC-11: a comparison has two sides.
const THIRD_SIDE: &str = "the end of a two-sided comparison roll (FC-11: FC+b VS FC+c; with three or more, roll pair by pair)";
/// FC-9 to FC-12: every form of a check (crates/dice words these in Japanese).
const FORMS: &str = "a Four Card check with whole-number bases: FC+b, FC+b>=d, FC+b VS FC+c, FC+b VS n or FCA+b (FC-9 to FC-12)";
/// FC-12 (l.201–202): no target, no opponent, no automatic results.
const ACHIEVEMENT: &str = "the end of an achievement roll (FC-12: FCA+b has no difficulty, no opponent and no automatic results; with a difficulty roll FC+b>=d, against someone FC+b VS FC+c)";
/// FC-11 (l.196): roll values against each other, no difficulty.
const NO_DIFFICULTY: &str = "a comparison roll without a difficulty (FC-11: FC+b VS FC+c or FC+b VS n; the higher roll value wins)";
/// Options follow the whole check.
const OPTIONS_LAST: &str =
    "the rest of the check; options come after the whole check (FC+b>=d#NS, FC+b VS FC+c#NF)";
/// The options there are.
const OPTION_NAMES: &str =
    "an option name: NS or NF (FC-9), or for a comparison roll PLAIN, DRAW or OVERRIDE (FC-11)";
/// An option twice.
const ONCE: &str = "the end of the command (each option once)";
/// `#PLAIN` and `#OVERRIDE` say opposite things.
const ONE_READING: &str =
    "the end of the command (#PLAIN and #OVERRIDE contradict each other; choose one)";
/// The comparison-only options on a target roll.
const COMPARISON_ONLY: &str = "the end of a target roll (#PLAIN, #DRAW and #OVERRIDE are options of a comparison roll FC+b VS FC+c, FC-11)";

/// The refusal of `command` at byte `at`: what is there, and `expected`.
fn unexpected(command: &str, at: usize, expected: &'static str) -> EvalError {
    let next = command.get(at..).and_then(|s| s.chars().next());
    let found = next.map_or(taku_dice::Found::End, taku_dice::Found::Char);
    let width = next.map_or(1, char::len_utf8);
    EvalError::Unsupported(Some(taku_dice::ParseError {
        span: at..at + width,
        kind: taku_dice::ParseErrorKind::Unexpected { found, expected },
    }))
}

/// Why `command`, which starts as a check (`FC`), is none of its forms, with the caret
/// where it goes wrong: an option in the wrong place, unknown or repeated; a difficulty
/// on an achievement roll (FC-12) or a comparison (FC-11); a comparison's option on a
/// target roll; otherwise the forms, past the longest start that is a check (at the end
/// when only its last part is missing: `FC+`, `FC+4>=`, `FC+4 VS`).
fn malformed(command: &str) -> EvalError {
    let body_end = command.find('#').unwrap_or(command.len());
    let body = &command[..body_end];
    // The options, each with the byte of its `#`.
    let mut seen: Vec<&str> = Vec::new();
    let mut at = body_end;
    for part in command[body_end..].split('#').skip(1) {
        let hash = at;
        at += 1 + part.len();
        let name = OPTIONS.into_iter().find(|n| part.starts_with(n));
        match name {
            // `FC+4#NS VS FC+2`, `FC+4#NS>=10`: the check goes on after an option.
            Some(n)
                if part[n.len()..].starts_with("VS")
                    || part[n.len()..].starts_with(['<', '>', '=', '+', '-']) =>
            {
                return unexpected(command, hash, OPTIONS_LAST);
            }
            Some(n) if part.len() > n.len() => return unexpected(command, hash + 1, OPTION_NAMES),
            Some(n) if seen.contains(&n) => return unexpected(command, hash, ONCE),
            Some(n) => {
                let other = match n {
                    "PLAIN" => "OVERRIDE",
                    "OVERRIDE" => "PLAIN",
                    _ => "",
                };
                if seen.contains(&other) {
                    return unexpected(command, hash, ONE_READING);
                }
                seen.push(n);
            }
            None => return unexpected(command, hash + 1, OPTION_NAMES),
        }
    }
    let first_hash = (body_end < command.len()).then_some(body_end);
    if let Some(after) = body.strip_prefix("FCA") {
        let extra = after
            .find(|c: char| "<>=V".contains(c))
            .map(|i| i + 3)
            .or(first_hash);
        if let Some(at) = extra {
            return unexpected(command, at, ACHIEVEMENT);
        }
    } else if body.contains("VS") {
        if let Some(at) = body.find(['<', '>', '=']) {
            return unexpected(command, at, NO_DIFFICULTY);
        }
    } else if let Some(i) = seen
        .iter()
        .position(|n| ["PLAIN", "DRAW", "OVERRIDE"].contains(n))
    {
        let hash = command[body_end..]
            .match_indices('#')
            .nth(i)
            .map_or(body_end, |(j, _)| body_end + j);
        return unexpected(command, hash, COMPARISON_ONLY);
    }
    let parses = |s: &str| matches!(forms(s), Ok(Some(_)));
    // Only the last part is missing (`FC+`, `FC+4>=`, `FC+4VS`): the caret at its end.
    if parses(&format!("{body}0")) {
        return unexpected(command, body_end, FORMS);
    }
    let at = (2..=body.len())
        .rev()
        .filter(|&end| body.is_char_boundary(end))
        .find(|&end| parses(&body[..end]))
        .unwrap_or(2);
    unexpected(command, at, FORMS)
}

/// The options a check takes (FC-9's GM exception, FC-11's readings of a comparison),
/// as written after `#`.
const OPTIONS: [&str; 5] = ["NS", "NF", "PLAIN", "DRAW", "OVERRIDE"];

/// Whether `word` (case as typed) names an option, `NS` of `#NS`.
pub fn is_option_name(word: &str) -> bool {
    OPTIONS.iter().any(|o| o.eq_ignore_ascii_case(word))
}

/// `BODY#NS#NF…` → the body and the options; `None` on an unknown or repeated option,
/// or on `#PLAIN` with `#OVERRIDE`.
fn split_options(command: &str) -> Option<(&str, Options)> {
    let mut parts = command.split('#');
    let body = parts.next()?;
    let mut o = Options::default();
    for part in parts {
        let flag = match part {
            "NS" => &mut o.no_auto_success,
            "NF" => &mut o.no_auto_failure,
            "PLAIN" => &mut o.plain,
            "DRAW" => &mut o.draw,
            "OVERRIDE" => &mut o.overriding,
            _ => return None,
        };
        if *flag {
            return None;
        }
        *flag = true;
    }
    if o.plain && o.overriding {
        return None;
    }
    Some((body, o))
}

/// `([+-]\d+)*` summed; `None` if it is not that (the shared parser, [`crate::signed`]).
fn modifiers(text: &str) -> Result<Option<i64>, EvalError> {
    crate::signed::modifiers(text, 15)
}

/// `-?\d+([+-]\d+)*`: a fixed value (the shared parser, [`crate::signed`]).
fn fixed(text: &str) -> Result<Option<i64>, EvalError> {
    crate::signed::fixed(text, 15)
}

fn option_text(o: &Options) -> String {
    let mut s = String::new();
    for (on, name) in [
        (o.no_auto_success, "#NS"),
        (o.no_auto_failure, "#NF"),
        (o.plain, "#PLAIN"),
        (o.draw, "#DRAW"),
        (o.overriding, "#OVERRIDE"),
    ] {
        if on {
            s.push_str(name);
        }
    }
    s
}

fn roll_side(base: i64, options: Options, roller: &mut Roller<'_>) -> Result<Side, EvalError> {
    let dice = roller.roll_group(2, 6)?;
    Side::of(dice[0], dice[1], base, options)
}

/// `7[3,4]+3 ＞ 10`.
fn dice_text(side: &Side, base: i64) -> String {
    match side.dice {
        Some([a, b]) => format!(
            "{}[{a},{b}]{}{SEP}{}",
            a + b,
            format_modifier(base),
            side.value
        ),
        None => format!("{}（固定値）", side.value),
    }
}

/// Rolls a parsed check.
pub fn roll(check: &Check, roller: &mut Roller<'_>) -> Result<RollResult, EvalError> {
    match *check {
        Check::Target {
            base,
            difficulty,
            options,
        } => target(base, difficulty, options, roller),
        Check::Achievement { base } => achievement(base, roller),
        Check::Comparison {
            base,
            opponent,
            options,
        } => comparison(base, opponent, options, roller),
    }
}

/// FC-9, FC-10: a roll value, judged against the difficulty when there is one.
fn target(
    base: i64,
    difficulty: Option<i64>,
    options: Options,
    roller: &mut Roller<'_>,
) -> Result<RollResult, EvalError> {
    let side = roll_side(base, options, roller)?;
    let target = difficulty.map(|d| format!(">={d}")).unwrap_or_default();
    let mut text = format!(
        "(FC{}{target}{}){SEP}{}",
        format_modifier(base),
        option_text(&options),
        dice_text(&side, base)
    );
    let comparison = difficulty.map(|d| Comparison {
        op: CmpOp::Ge,
        target: d,
        holds: side.value >= d,
    });
    let mut result = RollResult::new(
        String::new(),
        Detail::Sum {
            total: side.value,
            comparison,
        },
    );
    // FC-10: degree of success = roll value − difficulty; +0 for an automatic success
    // below the difficulty.
    let degree = |d: i64| format!("（度合+{}）", (side.value - d).max(0));
    if side.auto_success {
        result = result.with_verdict(true);
        result.critical = true;
        text.push_str(SEP);
        text.push_str("自動的成功");
        if let Some(d) = difficulty {
            text.push_str(&degree(d));
        }
    } else if side.auto_failure {
        result = result.with_verdict(false);
        result.fumble = true;
        text.push_str(SEP);
        text.push_str("自動的失敗（1点疲労）");
    } else if let Some(d) = difficulty {
        let holds = side.value >= d;
        result = result.with_verdict(holds);
        text.push_str(SEP);
        if holds {
            text.push_str("成功");
            text.push_str(&degree(d));
        } else {
            text.push_str("失敗");
        }
    }
    if difficulty.is_some_and(|d| d > DIFFICULTY_LIMIT) {
        text.push_str(" ※難易度が限界値30を超えています");
    }
    result.text = text;
    Ok(result)
}

/// FC-12: no automatic results, no flags.
fn achievement(base: i64, roller: &mut Roller<'_>) -> Result<RollResult, EvalError> {
    let options = Options {
        no_auto_success: true,
        no_auto_failure: true,
        ..Options::default()
    };
    let side = roll_side(base, options, roller)?;
    let text = format!(
        "(FCA{}){SEP}{}",
        format_modifier(base),
        dice_text(&side, base)
    );
    Ok(RollResult::new(
        text,
        Detail::Sum {
            total: side.value,
            comparison: None,
        },
    ))
}

fn side_text(side: &Side, base: i64) -> String {
    let mut t = dice_text(side, base);
    if side.auto_success {
        t.push_str("（自動的成功）");
    } else if side.auto_failure {
        t.push_str("（自動的失敗・1点疲労）");
    }
    t
}

/// FC-11: both sides roll, the left first; equal results are re-rolled until decided
/// (the roller's draw limit bounds the loop), unless `#DRAW` lets a tie stand.
fn comparison(
    base: i64,
    opponent: Opponent,
    options: Options,
    roller: &mut Roller<'_>,
) -> Result<RollResult, EvalError> {
    let right_text = match opponent {
        Opponent::Rolls(b) => format!("FC{}", format_modifier(b)),
        Opponent::Fixed(n) => n.to_string(),
    };
    let mut text = format!(
        "(FC{} VS {right_text}{})",
        format_modifier(base),
        option_text(&options)
    );
    loop {
        let left = roll_side(base, options, roller)?;
        let right = match opponent {
            Opponent::Rolls(b) => roll_side(b, options, roller)?,
            Opponent::Fixed(n) => Side::fixed(n),
        };
        let right_base = match opponent {
            Opponent::Rolls(b) => b,
            Opponent::Fixed(_) => 0,
        };
        text.push_str(&format!(
            "{SEP}左 {} ／ 右 {}",
            side_text(&left, base),
            side_text(&right, right_base)
        ));
        let outcome = round(&left, &right, options);
        if outcome == Round::Tie && !options.draw {
            text.push_str(&format!("{SEP}同値: 振り直し"));
            continue;
        }
        let verdict = match outcome {
            Round::Left => "左の勝利",
            Round::Right => "右の勝利",
            Round::Tie => "同値: 優劣つかず",
        };
        text.push_str(SEP);
        text.push_str(verdict);
        let mut result = RollResult::new(
            text,
            Detail::Sum {
                total: left.value,
                comparison: None,
            },
        );
        result.success = outcome == Round::Left;
        result.failure = outcome == Round::Right;
        result.critical = left.auto_success;
        result.fumble = left.auto_failure;
        return Ok(result);
    }
}

/// The words of an FC check's result text (FC-9, FC-10, FC-11), Japanese then English,
/// longest first so a phrase is replaced before the words inside it.
const ENGLISH: [(&str, &str); 16] = [
    ("（自動的失敗・1点疲労）", " (automatic failure, 1 fatigue)"),
    ("自動的失敗（1点疲労）", "automatic failure (1 fatigue)"),
    ("（自動的成功）", " (automatic success)"),
    ("自動的成功", "automatic success"),
    (
        " ※難易度が限界値30を超えています",
        " * the difficulty is above the limit of 30",
    ),
    ("同値: 優劣つかず", "tie: no winner"),
    ("同値: 振り直し", "tie: re-roll"),
    ("左の勝利", "left wins"),
    ("右の勝利", "right wins"),
    ("（度合+", " (degree +"),
    ("（固定値）", " (fixed)"),
    ("左 ", "left "),
    (" ／ 右 ", " / right "),
    ("成功", "success"),
    ("失敗", "failure"),
    ("）", ")"),
];

/// An FC check's result text as an English table shows it (the log keeps BCDice's
/// Japanese): `(FC+7>=10) ＞ 8[2,6]+7 ＞ 15 ＞ success (degree +5)`.
pub fn english(text: &str) -> String {
    let mut out = text.to_string();
    for (ja, en) in ENGLISH {
        out = out.replace(ja, en);
    }
    out
}

/// The fatigue a rolled check cost each side (FC-9: 1 per automatic failure that applied,
/// in every round of a comparison), from the check and its draws in order.
pub fn fatigue(check: &Check, draws: &[i64]) -> (i64, i64) {
    let side = |pair: &[i64], base: i64, options: Options| {
        Side::of(pair[0], pair[1], base, options).map_or(0, |s| {
            if s.auto_failure {
                AUTO_FAILURE_FATIGUE
            } else {
                0
            }
        })
    };
    match *check {
        Check::Target { base, options, .. } if draws.len() >= 2 => {
            (side(&draws[..2], base, options), 0)
        }
        Check::Comparison {
            base,
            opponent,
            options,
        } => {
            let (mut left, mut right) = (0, 0);
            match opponent {
                Opponent::Rolls(b) => {
                    for round in draws.chunks_exact(4) {
                        left += side(&round[..2], base, options);
                        right += side(&round[2..], b, options);
                    }
                }
                Opponent::Fixed(_) => {
                    for round in draws.chunks_exact(2) {
                        left += side(round, base, options);
                    }
                }
            }
            (left, right)
        }
        _ => (0, 0),
    }
}
