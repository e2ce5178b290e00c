//! Deck lists in the common text format (MT-1): one `COUNT NAME` per line (`4 Llanowar
//! Elves`, `4x Llanowar Elves`), an optional set code and collector number after the
//! name (`(M19) 314`), `Deck` / `Sideboard` section headers (also `Commander`,
//! `Companion`, `Maybeboard`, which are not in the library either), blank lines and
//! comment lines (`#`, `//`). Only the main deck is the library. A `;` separates lines
//! too, so a deck fits on one chat line.

use super::card::{Card, CardDb};
use taku_dice::Text;

/// A deck list that could not be read: every problem at once, unknown cards first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckError {
    /// The problems, in the order they are reported.
    pub problems: Vec<DeckProblem>,
}

/// One problem of a deck list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckProblem {
    /// Names no card in the database knows: each with its close matches.
    Unknown(Vec<(String, Vec<String>)>),
    /// A line that is not `COUNT NAME` (line numbers from 1).
    NotAnEntry {
        /// Line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A count outside 1 to [`MAX_COPIES`].
    Copies {
        /// Line number.
        line: usize,
        /// The count.
        count: u32,
    },
    /// The library would hold more than [`MAX_CARDS`].
    TooManyCards,
    /// No main-deck card at all.
    Empty,
}

impl DeckProblem {
    /// The problem in Japanese and English.
    pub fn text(&self) -> Text {
        match self {
            DeckProblem::Unknown(names) => {
                let ja: Vec<String> = names
                    .iter()
                    .map(|(n, close)| {
                        let n = &short(n);
                        if close.is_empty() {
                            format!("「{n}」")
                        } else {
                            format!("「{n}」（{}のことですか？）", close.join("、"))
                        }
                    })
                    .collect();
                let en: Vec<String> = names
                    .iter()
                    .map(|(n, close)| {
                        let n = &short(n);
                        if close.is_empty() {
                            format!("'{n}'")
                        } else {
                            format!("'{n}' (did you mean {}?)", close.join(", "))
                        }
                    })
                    .collect();
                Text::new(
                    format!(
                        "知らないカード名: {}。`taku mtg cards --load ファイル` でカードデータベースを追加できます",
                        ja.join("、")
                    ),
                    format!(
                        "unknown card{}: {}; `taku mtg cards --load FILE` adds a card database",
                        if names.len() == 1 { "" } else { "s" },
                        en.join("; ")
                    ),
                )
            }
            DeckProblem::NotAnEntry { line, text } => {
                let text = short(text);
                Text::new(
                    format!(
                        "{line}行目: 「{text}」は「枚数 カード名」の形ではありません（例: 4 Llanowar Elves）"
                    ),
                    format!("line {line}: '{text}' is not 'COUNT NAME' (e.g. '4 Llanowar Elves')"),
                )
            }
            DeckProblem::Copies { line, count } => Text::new(
                format!("{line}行目: {count}枚。1行に書ける枚数は1〜{MAX_COPIES}枚です"),
                format!("line {line}: {count} copies; a line takes 1 to {MAX_COPIES}"),
            ),
            DeckProblem::TooManyCards => Text::new(
                format!("ライブラリーが{MAX_CARDS}枚を超えます"),
                format!("the library would exceed {MAX_CARDS} cards"),
            ),
            DeckProblem::Empty => Text::new(
                "デッキリストにメインデッキのカードがありません",
                "the deck list has no main-deck card",
            ),
        }
    }
}

/// A name or line as a message echoes it: at most [`ECHO_CHARS`] characters, a longer one
/// cut with its length said (issue 13, MTG-9: a huge name is not sent back whole).
fn short(text: &str) -> String {
    let n = text.chars().count();
    if n <= ECHO_CHARS {
        text.to_string()
    } else {
        let head: String = text.chars().take(ECHO_CHARS).collect();
        format!("{head}…({n})")
    }
}

/// How much of a name or line a message echoes.
pub const ECHO_CHARS: usize = 60;

/// How many unknown names get "did you mean" suggestions (the rest are listed without).
pub const MAX_SUGGESTED: usize = 20;

impl DeckError {
    /// Every problem, one a line, in Japanese and English.
    pub fn text(&self) -> Text {
        let texts: Vec<Text> = self.problems.iter().map(DeckProblem::text).collect();
        Text::join(&texts, "\n")
    }
}

impl std::fmt::Display for DeckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text().en())
    }
}

impl std::error::Error for DeckError {}

/// The most copies one line may ask for.
pub const MAX_COPIES: u32 = 250;
/// The most cards a library may hold.
pub const MAX_CARDS: usize = 1_000;

/// A deck read from a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deck {
    /// The library's cards, in list order (shuffle before play).
    pub main: Vec<Card>,
    /// How many sideboard (and other non-library) cards the list had.
    pub sideboard: usize,
}

/// `COUNT NAME [(SET) [NUMBER]]` → (count, name); also `4x Name`, `4 x Name`,
/// `Name x4`, `.dec`'s `4 [M19] Name`, and Moxfield's trailing markers (`*F*`, `*E*`).
fn entry(line: &str) -> Option<(u32, &str)> {
    let (count, rest) = match line.split_once(char::is_whitespace) {
        Some((count, rest)) if count.trim_end_matches(['x', 'X']).parse::<u32>().is_ok() => {
            (count, rest.trim())
        }
        // `Name x4`.
        _ => {
            let (name, count) = line.rsplit_once(char::is_whitespace)?;
            let count = count.strip_prefix(['x', 'X'])?;
            count.parse::<u32>().ok()?;
            (count, name.trim())
        }
    };
    let count = count.strip_suffix(['x', 'X']).unwrap_or(count);
    let count: u32 = count.parse().ok()?;
    let mut name = rest.trim();
    // `4 x Name`.
    if let Some(after) = name.strip_prefix(['x', 'X'])
        && after.starts_with(char::is_whitespace)
    {
        name = after.trim_start();
    }
    // `.dec`: `[M19] Name`.
    if name.starts_with('[')
        && let Some(close) = name.find(']')
    {
        name = name[close + 1..].trim_start();
    }
    // Moxfield: `*F*` (foil), `*E*` (etched), `*A*` (alter) at the end.
    while let Some(rest) = ["*F*", "*E*", "*A*"]
        .iter()
        .find_map(|m| name.strip_suffix(m))
    {
        name = rest.trim_end();
    }
    // A trailing "(SET) 123" or "(SET)".
    if let Some(open) = name.rfind(" (") {
        let tail = &name[open + 2..];
        if let Some((set, number)) = tail.split_once(')') {
            let set_ok =
                !set.is_empty() && set.len() <= 6 && set.chars().all(|c| c.is_ascii_alphanumeric());
            let number = number.trim();
            if set_ok && !number.contains(' ') {
                name = name[..open].trim();
            }
        }
    }
    (!name.is_empty()).then_some((count, name))
}

/// Full-width ASCII (`４ Ｆｏｒｅｓｔ`) as ASCII; the ideographic space as a space.
fn fold_width(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '\u{3000}' => ' ',
            c => c,
        })
        .collect()
}

/// Where a deck list's line belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    /// The main deck: the library.
    Main,
    /// Sideboard, commander, companion, maybeboard: not in the library.
    Side,
    /// Arena's `About` block (`Name My Deck`): not cards.
    About,
}

/// A section header, if `line` is one (`Deck`, `Sideboard:`, `デッキ`, `サイドボード`, `About`).
fn header(line: &str) -> Option<Section> {
    match line
        .trim_end_matches([':', '：'])
        .trim()
        .to_lowercase()
        .as_str()
    {
        "deck" | "main" | "maindeck" | "main deck" | "mainboard" | "デッキ" | "メインデッキ" => {
            Some(Section::Main)
        }
        "sideboard" | "commander" | "companion" | "maybeboard" | "サイドボード" | "統率者"
        | "相棒" => Some(Section::Side),
        "about" => Some(Section::About),
        _ => None,
    }
}

/// Reads a deck list, looking every name up in `db`. Unknown names: one error listing
/// all of them, each with close matches.
pub fn parse(text: &str, db: &CardDb) -> Result<Deck, DeckError> {
    let mut main = Vec::new();
    let mut sideboard = 0usize;
    let mut section = Section::Main;
    let mut unknown: Vec<(String, Vec<String>)> = Vec::new();
    let mut problems: Vec<DeckProblem> = Vec::new();
    let text = text.trim_start_matches('\u{feff}');
    // Pieces in order, each with whether it is a blank physical line (`;` separates
    // entries too, so a deck fits on one chat line; an empty `;;` piece is no blank line).
    let mut lines: Vec<(String, bool)> = Vec::new();
    for physical in text.split('\n') {
        let blank = physical.trim().is_empty();
        for piece in physical.split(';') {
            lines.push((fold_width(piece), blank));
        }
    }
    // MTGO's and most sites' text exports put the sideboard after a blank line with no
    // header: without any section header, a blank line after main-deck cards starts the
    // sideboard (MT-1: "sideboard is not in the library"; the load says how many).
    let headed = lines.iter().any(|(l, _)| header(l.trim()).is_some());
    let mut seen_main_card = false;
    for (n, (raw, blank)) in lines.iter().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            if *blank && !headed && seen_main_card {
                section = Section::Side;
            }
            continue;
        }
        if line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        if let Some(h) = header(line) {
            section = h;
            continue;
        }
        if section == Section::About {
            continue;
        }
        // `.dec`'s sideboard lines: `SB: 2 Counterspell`.
        let (line, side) = match line.strip_prefix("SB:") {
            Some(rest) => (rest.trim(), true),
            None => (line, section == Section::Side),
        };
        let Some((count, name)) = entry(line) else {
            problems.push(DeckProblem::NotAnEntry {
                line: n + 1,
                text: line.to_string(),
            });
            continue;
        };
        if count == 0 || count > MAX_COPIES {
            problems.push(DeckProblem::Copies { line: n + 1, count });
            continue;
        }
        if side {
            sideboard += count as usize;
            continue;
        }
        seen_main_card = true;
        // MTGO spells split cards `Fire/Ice`; databases `Fire // Ice`.
        let found = db.get(name).or_else(|| {
            (name.contains('/') && !name.contains("//"))
                .then(|| db.get(&name.replace('/', " // ")))
                .flatten()
        });
        match found {
            Some(card) => {
                if main.len() + count as usize > MAX_CARDS {
                    problems.push(DeckProblem::TooManyCards);
                    break;
                }
                main.extend(std::iter::repeat_n(card.clone(), count as usize));
            }
            None => {
                let close = if unknown.len() < MAX_SUGGESTED {
                    db.close_matches(name, 3)
                } else {
                    Vec::new()
                };
                unknown.push((
                    name.to_string(),
                    close.into_iter().map(str::to_string).collect(),
                ));
            }
        }
    }
    if !unknown.is_empty() {
        problems.insert(0, DeckProblem::Unknown(unknown));
    }
    if main.is_empty() && problems.is_empty() {
        problems.push(DeckProblem::Empty);
    }
    if problems.is_empty() {
        Ok(Deck { main, sideboard })
    } else {
        Err(DeckError { problems })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtg_trpg::builtin::builtin;

    #[test]
    fn mt1_deck_lists_in_the_common_format() {
        let db = builtin();
        let deck = parse(
            "Deck\n4 Llanowar Elves\n2x Forest (M19) 280\n\n# a comment\n// another\n1 runeclaw bear (M19)\nSideboard\n3 Elvish Mystic\n",
            &db,
        )
        .expect("deck");
        assert_eq!(deck.main.len(), 7);
        assert_eq!(deck.sideboard, 3);
        assert_eq!(deck.main[4].name, "Forest");
        assert_eq!(deck.main[6].name, "Runeclaw Bear");
        let one_line = parse("2 Forest; 1 エルフの神秘家", &db).expect("one line");
        assert_eq!(one_line.main[2].name, "Elvish Mystic");
    }

    #[test]
    fn mt1_every_unknown_name_in_one_error_with_close_matches() {
        let db = builtin();
        let err = parse(
            "4 Llanowar Elfs\n2 Forest\n1 Black Lotus\nfour Forests",
            &db,
        )
        .expect_err("unknown");
        let text = err.to_string();
        assert!(
            text.starts_with(
                "unknown cards: 'Llanowar Elfs' (did you mean Llanowar Elves?); 'Black Lotus'"
            ),
            "{text}"
        );
        assert!(
            text.contains("line 4: 'four Forests' is not 'COUNT NAME'"),
            "{text}"
        );
        let ja = err.text();
        assert!(
            ja.ja().starts_with(
                "知らないカード名: 「Llanowar Elfs」（Llanowar Elvesのことですか？）、「Black Lotus」"
            ),
            "{}",
            ja.ja()
        );
        assert!(ja.ja().contains("4行目: 「four Forests」"), "{}", ja.ja());
        assert!(parse("0 Forest", &db).is_err());
        assert!(
            parse("Sideboard\n1 Forest", &db)
                .expect_err("empty")
                .to_string()
                .contains("no main-deck card")
        );
    }
}
