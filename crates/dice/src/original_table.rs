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

/// A7-13: what is wrong with table `text` that [`roll`] gives no result for, naming the
/// line (its number in `text` and the start of its text) and what would be right; `None`
/// when the table is valid.
pub fn problem(text: &str) -> Option<crate::Text> {
    let excerpt = |line: &str| -> String {
        let mut out: String = line.chars().take(20).collect();
        if line.chars().nth(20).is_some() {
            out.push('…');
        }
        out
    };
    // Numbered as the user wrote them: CR LF is one break, blank lines count.
    let numbered: Vec<(usize, &str)> = text
        .split("\r\n")
        .flat_map(|l| l.split(is_break))
        .enumerate()
        .map(|(i, l)| {
            (
                i + 1,
                l.trim_end_matches(|c: char| c.is_ascii_whitespace() || c == '\0'),
            )
        })
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let [_, (dice_at, dice_line), rows @ ..] = numbered.as_slice() else {
        return Some(crate::Text::new(
            "表には少なくとも 2 行要ります。1 行目が表の名前、2 行目がダイス（nDm、D66、D66A、D66D）、その後にダイスが出しうる値ごとに「数:文」の行を 1 つずつ書きます",
            "a table needs at least 2 lines: line 1 is the name, line 2 the dice (nDm, D66, D66A, D66D), then one row NUMBER:TEXT for every value the dice can give",
        ));
    };
    let Some(dice) = parse_dice(dice_line) else {
        let shown = excerpt(dice_line);
        return Some(crate::Text::new(
            format!(
                "{dice_at} 行目「{shown}」はダイスとして読めません。2 行目は nDm（例: 1D6、2D6）か D66、D66A、D66D です"
            ),
            format!(
                "line {dice_at} \"{shown}\" is not a dice line: line 2 is nDm (e.g. 1D6, 2D6) or D66, D66A, D66D"
            ),
        ));
    };
    let want = expected(dice);
    let dice_name = dice_line.to_ascii_uppercase();
    let (low, high) = (
        want.first().copied().unwrap_or(0),
        want.last().copied().unwrap_or(0),
    );
    let mut seen: std::collections::BTreeMap<i64, usize> = std::collections::BTreeMap::new();
    for &(at, row) in rows {
        let digits = row.bytes().take_while(u8::is_ascii_digit).count();
        let shown = excerpt(row);
        if digits == 0 || row.as_bytes().get(digits) != Some(&b':') {
            return Some(crate::Text::new(
                format!(
                    "{at} 行目「{shown}」は「数:文」の形ではありません。3 行目からは 1 行ごとに「3:麦茶」のように半角の数、半角のコロン、文を書きます"
                ),
                format!(
                    "line {at} \"{shown}\" is not a row NUMBER:TEXT: from line 3 on, each line is a number, a colon and the text, like 3:tea"
                ),
            ));
        }
        let number = &row[..digits];
        let value = number.parse::<i64>().ok().filter(|n| want.contains(n));
        let Some(value) = value else {
            let range = if matches!(dice, Dice::D66(_)) {
                "11 から 66 の、それぞれの桁が 1 から 6 の数".to_string()
            } else {
                format!("{low} から {high}")
            };
            let range_en = if matches!(dice, Dice::D66(_)) {
                "11 to 66 with each digit 1 to 6".to_string()
            } else {
                format!("{low} to {high}")
            };
            return Some(crate::Text::new(
                format!("{at} 行目の {number} は {dice_name} では出ません。出るのは {range} です"),
                format!("line {at}: {number} cannot come up on {dice_name}; it gives {range_en}"),
            ));
        };
        if let Some(first) = seen.insert(value, at) {
            return Some(crate::Text::new(
                format!("{at} 行目の {value} は {first} 行目にもあります。値ごとに行は 1 つです"),
                format!("line {at}: {value} is also on line {first}; one row per value"),
            ));
        }
    }
    let missing: Vec<String> = want
        .iter()
        .filter(|n| !seen.contains_key(n))
        .take(5)
        .map(i64::to_string)
        .collect();
    if missing.is_empty() {
        return None;
    }
    let more = if want.len() - seen.len() > missing.len() {
        "…"
    } else {
        ""
    };
    let list = missing.join(", ");
    Some(crate::Text::new(
        format!(
            "{list}{more} の行がありません。{dice_name} が出しうる値ごとに「数:文」の行を 1 つずつ書きます"
        ),
        format!(
            "no row for {list}{more}: write one row NUMBER:TEXT for every value {dice_name} can give"
        ),
    ))
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

#[cfg(test)]
mod problem_tests {
    use super::problem;

    /// Attack pass 7, A7-13: a refused table names the line and what would be right.
    #[test]
    fn a_refused_table_names_its_line_and_what_is_right() {
        let said = |t: &str| problem(t).map(|p| p.ja().to_string());
        assert_eq!(said("T\n1D6\n1:a\n2:b\n3:c\n4:d\n5:e\n6:f"), None);
        assert_eq!(
            said("T\n1D6\n1:a\n2:b\n3:c\n4:d\n5:e\n").as_deref(),
            Some("6 の行がありません。1D6 が出しうる値ごとに「数:文」の行を 1 つずつ書きます")
        );
        assert_eq!(
            said("T\n1D6\n1:a\n2:b\n3:c\n4:d\n5:e\n6:f\n7:g\n").as_deref(),
            Some("9 行目の 7 は 1D6 では出ません。出るのは 1 から 6 です")
        );
        assert_eq!(
            said("T\r\n1D6\r\n\r\n1:a\r\n2:b\r\n3:c\r\n4:d\r\n5:e\r\nx:f\r\n").as_deref(),
            Some(
                "9 行目「x:f」は「数:文」の形ではありません。3 行目からは 1 行ごとに「3:麦茶」のように半角の数、半角のコロン、文を書きます"
            )
        );
        assert_eq!(
            said("T\n1D6\n1:a\n2:b\n2:c\n").as_deref(),
            Some("5 行目の 2 は 4 行目にもあります。値ごとに行は 1 つです")
        );
        assert!(
            said("T\n1D6x\n")
                .is_some_and(|s| s.starts_with("2 行目「1D6x」はダイスとして読めません"))
        );
        assert!(said("T").is_some_and(|s| s.starts_with("表には少なくとも 2 行要ります")));
        let many = problem("T\n1D100\n1:a\n").expect("refused");
        assert_eq!(
            many.en(),
            "no row for 2, 3, 4, 5, 6…: write one row NUMBER:TEXT for every value 1D100 can give"
        );
        // D66A takes only ascending pairs.
        assert!(said("T\nD66A\n21:x\n").is_some_and(|s| s.contains("21 は D66A では出ません")));
    }
}
