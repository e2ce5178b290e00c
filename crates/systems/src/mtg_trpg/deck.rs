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
            DeckProblem::NotAnEntry { line, text } => Text::new(
                format!(
                    "{line}行目: 「{text}」は「枚数 カード名」の形ではありません（例: 4 Llanowar Elves）"
                ),
                format!("line {line}: '{text}' is not 'COUNT NAME' (e.g. '4 Llanowar Elves')"),
            ),
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

/// `COUNT NAME [(SET) [NUMBER]]` → (count, name).
fn entry(line: &str) -> Option<(u32, &str)> {
    let (count, rest) = line.split_once(char::is_whitespace)?;
    let count = count.strip_suffix(['x', 'X']).unwrap_or(count);
    let count: u32 = count.parse().ok()?;
    let mut name = rest.trim();
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

/// Reads a deck list, looking every name up in `db`. Unknown names: one error listing
/// all of them, each with close matches.
pub fn parse(text: &str, db: &CardDb) -> Result<Deck, DeckError> {
    let mut main = Vec::new();
    let mut sideboard = 0usize;
    let mut in_main = true;
    let mut unknown: Vec<(String, Vec<String>)> = Vec::new();
    let mut problems: Vec<DeckProblem> = Vec::new();
    for (n, raw) in text.split(['\n', ';']).enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        match line.trim_end_matches(':').to_ascii_lowercase().as_str() {
            "deck" | "main" | "maindeck" | "main deck" => {
                in_main = true;
                continue;
            }
            "sideboard" | "commander" | "companion" | "maybeboard" => {
                in_main = false;
                continue;
            }
            _ => {}
        }
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
        if !in_main {
            sideboard += count as usize;
            continue;
        }
        match db.get(name) {
            Some(card) => {
                if main.len() + count as usize > MAX_CARDS {
                    problems.push(DeckProblem::TooManyCards);
                    break;
                }
                main.extend(std::iter::repeat_n(card.clone(), count as usize));
            }
            None => {
                let close = db.close_matches(name, 3);
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
