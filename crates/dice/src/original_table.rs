//! §6.1 user-defined ("original") tables: a name line, a dice-type line and rows
//! `<digits>:<content>`, rolled as bcdice-api's `POST /v2/original_table` does.

use crate::error::EvalError;
use crate::profile::D66Order;
use crate::result::{Detail, RollResult};
use crate::roller::Roller;
use crate::source::DiceSource;
use std::collections::BTreeSet;

/// The dice a table's second line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dice {
    /// `nDm`: the sum of n dice.
    Sum(i64, i64),
    /// `D66`, `D66N`, `D66A`/`D66S`, `D66D`.
    D66(D66Order),
}

fn is_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

fn parse_dice(line: &str) -> Option<Dice> {
    let upper = line.to_ascii_uppercase();
    Some(match upper.as_str() {
        "D66" | "D66N" => Dice::D66(D66Order::AsRolled),
        "D66A" | "D66S" => Dice::D66(D66Order::Ascending),
        "D66D" => Dice::D66(D66Order::Descending),
        _ => {
            let (n, m) = upper.split_once('D')?;
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if !digits(n) || !digits(m) {
                return None;
            }
            // Beyond these the draw limits refuse anyway; saturate rather than overflow.
            Dice::Sum(n.parse().unwrap_or(i64::MAX), m.parse().unwrap_or(i64::MAX))
        }
    })
}

/// The row numbers a valid table of `dice` has, exactly.
fn expected(dice: Dice) -> BTreeSet<i64> {
    match dice {
        Dice::Sum(n, m) => (n..=n.saturating_mul(m)).take(100_000).collect(),
        Dice::D66(order) => (1..=6)
            .flat_map(|t| (1..=6).map(move |u| (t, u)))
            .filter(|(t, u)| match order {
                D66Order::AsRolled => true,
                D66Order::Ascending => t <= u,
                D66Order::Descending => t >= u,
            })
            .map(|(t, u)| t * 10 + u)
            .collect(),
    }
}

/// Rolls table `text`. `Ok(None)`: the table is malformed or invalid (no result), after
/// the draw if its dice line was readable (§6.1: the draw happens first).
pub fn roll(text: &str, source: &mut dyn DiceSource) -> Result<Option<RollResult>, EvalError> {
    let lines: Vec<&str> = text
        .split(is_break)
        .map(|l| l.trim_end_matches(|c: char| c.is_ascii_whitespace() || c == '\0'))
        .filter(|l| !l.is_empty())
        .collect();
    let [name, dice_line, rows @ ..] = lines.as_slice() else {
        return Ok(None);
    };
    let Some(dice) = parse_dice(dice_line) else {
        return Ok(None);
    };
    let mut roller = Roller::new(source);
    let value = match dice {
        Dice::Sum(n, m) => roller.roll_group(n, m)?.iter().sum::<i64>(),
        Dice::D66(order) => roller.roll_d66(order)?,
    };
    let mut numbers = BTreeSet::new();
    for row in rows {
        let digits = row.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || row.as_bytes().get(digits) != Some(&b':') {
            return Ok(None);
        }
        // Too long a number matches no roll; it still makes the set differ.
        numbers.insert(row[..digits].parse::<i64>().unwrap_or(-1));
    }
    if numbers != expected(dice) {
        return Ok(None);
    }
    let key = format!("{value}:");
    let Some(row) = rows.iter().find(|r| r.starts_with(&key)) else {
        return Ok(None);
    };
    let content = row[key.len()..]
        .replace("\\n", "\n")
        .trim_matches(|c: char| c.is_ascii_whitespace() || c == '\0')
        .to_string();
    let mut result = RollResult::new(format!("{name}({value}) ＞ {content}"), Detail::Message);
    result.rands = roller.take_draws();
    Ok(Some(result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{ScriptedDraw, ScriptedSource};

    fn run(text: &str, draws: &[(u32, u32)]) -> Option<String> {
        let mut source = ScriptedSource::new(
            draws
                .iter()
                .map(|&(sides, value)| ScriptedDraw { sides, value }),
        );
        roll(text, &mut source)
            .expect("no engine error")
            .map(|r| r.text)
    }

    const DRINKS: &str =
        "飲み物表\n1D6\n1:水\n2:緑茶\n3:麦茶\n4:コーラ\n5:オレンジジュース\n6:選ばれし者の知的飲料";

    #[test]
    fn s6_1_a_simple_table() {
        assert_eq!(
            run(DRINKS, &[(6, 3)]).as_deref(),
            Some("飲み物表(3) ＞ 麦茶")
        );
        assert_eq!(
            run(DRINKS, &[(6, 6)]).as_deref(),
            Some("飲み物表(6) ＞ 選ばれし者の知的飲料")
        );
        // Any line break, trailing spaces, blank lines; `\n` in content; empty content.
        let t =
            "表\r\n2d6 \r\n\r\n2:a\\nb\u{2028}3:\x0c4:x\n5:x\n6:x\n7:x\n8:x\n9:x\n10:x\n11:x\n12:x";
        assert_eq!(run(t, &[(6, 1), (6, 1)]).as_deref(), Some("表(2) ＞ a\nb"));
        assert_eq!(run(t, &[(6, 1), (6, 2)]).as_deref(), Some("表(3) ＞ "));
    }

    #[test]
    fn s6_1_d66_orders() {
        let full: String = (1..=6)
            .flat_map(|t| (1..=6).map(move |u| format!("{t}{u}:r{t}{u}\n")))
            .collect();
        assert_eq!(
            run(&format!("T\nD66\n{full}"), &[(6, 5), (6, 2)]).as_deref(),
            Some("T(52) ＞ r52")
        );
        let asc: String = (1..=6)
            .flat_map(|t| (t..=6).map(move |u| format!("{t}{u}:a{t}{u}\n")))
            .collect();
        assert_eq!(
            run(&format!("T\nd66s\n{asc}"), &[(6, 5), (6, 2)]).as_deref(),
            Some("T(25) ＞ a25")
        );
        let desc: String = (1..=6)
            .flat_map(|t| (1..=t).map(move |u| format!("{t}{u}:d{t}{u}\n")))
            .collect();
        assert_eq!(
            run(&format!("T\nD66D\n{desc}"), &[(6, 2), (6, 5)]).as_deref(),
            Some("T(52) ＞ d52")
        );
        // An ascending table under D66 (all 36 expected) is invalid.
        assert_eq!(run(&format!("T\nD66\n{asc}"), &[(6, 1), (6, 1)]), None);
    }

    #[test]
    fn s6_1_invalid_tables_give_nothing() {
        // A missing row, an extra row, a row without digits, a leading space on the dice.
        assert_eq!(run("T\n1D3\n1:a\n2:b", &[(3, 1)]), None);
        assert_eq!(run("T\n1D2\n1:a\n2:b\n3:c", &[(2, 1)]), None);
        assert_eq!(run("T\n1D2\n1:a\nb:2", &[(2, 1)]), None);
        assert_eq!(run("T\n 1D2\n1:a\n2:b", &[]), None);
        assert_eq!(run("T\nX\n1:a", &[]), None);
        assert_eq!(run("only a name", &[]), None);
        assert_eq!(run("", &[]), None);
        // Duplicates are allowed; the first wins. `01:` never matches 1.
        assert_eq!(
            run("T\n1D2\n1:first\n1:second\n2:b", &[(2, 1)]).as_deref(),
            Some("T(1) ＞ first")
        );
        assert_eq!(run("T\n1D2\n01:zero-one\n2:b", &[(2, 1)]), None);
    }

    #[test]
    fn s6_1_hostile_dice_lines_do_not_panic() {
        let mut source = crate::source::ChaChaSource::from_seed(1);
        for t in [
            "T\n99999999999999999999D6\n1:a",
            "T\n200D10000\n1:a",
            "T\n0D6\n1:a",
            "T\n1D0\n1:a",
        ] {
            let _ = roll(t, &mut source);
        }
    }
}
