//! MT-1 cards: what a check needs of a card — its names, mana value, colours and type
//! line — and the card database lookups go through.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One of Magic's five colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// White (W, 白).
    W,
    /// Blue (U, 青).
    U,
    /// Black (B, 黒).
    B,
    /// Red (R, 赤).
    R,
    /// Green (G, 緑).
    G,
}

impl Colour {
    /// All five, in WUBRG order.
    pub const ALL: [Colour; 5] = [Colour::W, Colour::U, Colour::B, Colour::R, Colour::G];

    /// The colour's bit in a [`Colours`] set.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The colour's letter (`W`, `U`, `B`, `R`, `G`).
    pub fn letter(self) -> char {
        ['W', 'U', 'B', 'R', 'G'][self as usize]
    }

    /// The colour's Japanese name (白, 青, 黒, 赤, 緑).
    pub fn japanese(self) -> &'static str {
        ["白", "青", "黒", "赤", "緑"][self as usize]
    }

    /// The two friendly (allied) colours: W–U, U–B, B–R, R–G, G–W (MT-2).
    pub fn friends(self) -> [Colour; 2] {
        let i = self as usize;
        [Colour::ALL[(i + 4) % 5], Colour::ALL[(i + 1) % 5]]
    }

    /// Reads a colour: a letter (`W`), an English name (`white`) or a Japanese one
    /// (`白`), any case.
    pub fn parse(text: &str) -> Option<Colour> {
        Some(match text.trim().to_lowercase().as_str() {
            "w" | "white" | "白" => Colour::W,
            "u" | "blue" | "青" => Colour::U,
            "b" | "black" | "黒" => Colour::B,
            "r" | "red" | "赤" => Colour::R,
            "g" | "green" | "緑" => Colour::G,
            _ => return None,
        })
    }

    /// The colour a basic land type stands for (Plains → W …), if `word` is one.
    pub fn of_basic_land_type(word: &str) -> Option<Colour> {
        Some(match word {
            "Plains" => Colour::W,
            "Island" => Colour::U,
            "Swamp" => Colour::B,
            "Mountain" => Colour::R,
            "Forest" => Colour::G,
            _ => return None,
        })
    }
}

/// A set of colours (empty: colourless, which includes devoid cards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Colours(pub u8);

impl Colours {
    /// No colour.
    pub const NONE: Colours = Colours(0);

    /// The set of these colours.
    pub fn of(colours: &[Colour]) -> Colours {
        Colours(colours.iter().fold(0, |bits, c| bits | c.bit()))
    }

    /// Whether `c` is in the set.
    pub fn contains(self, c: Colour) -> bool {
        self.0 & c.bit() != 0
    }

    /// Whether the set is empty (colourless).
    pub fn is_empty(self) -> bool {
        self.0 & 0x1f == 0
    }

    /// The colours in WUBRG order.
    pub fn iter(self) -> impl Iterator<Item = Colour> {
        Colour::ALL.into_iter().filter(move |c| self.contains(*c))
    }

    /// How many colours.
    pub fn len(self) -> usize {
        (self.0 & 0x1f).count_ones() as usize
    }

    /// Letters in WUBRG order (`GW` → `WG`), empty for colourless.
    pub fn letters(self) -> String {
        self.iter().map(Colour::letter).collect()
    }

    /// Reads letters such as `WG` (any order, any case); `None` on anything else.
    pub fn parse_letters(text: &str) -> Option<Colours> {
        let mut set = Colours::NONE;
        for ch in text.chars() {
            set.0 |= Colour::parse(&ch.to_string())?.bit();
        }
        Some(set)
    }
}

/// A card as the checks see it (MT-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    /// English name (a split or double-faced card: `Front // Back`).
    pub name: String,
    /// Japanese name, where known (`エルフの神秘家`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_ja: Option<String>,
    /// Names of the faces of a split or double-faced card, front first (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faces: Vec<String>,
    /// Mana value (マナ総量): lands 0, X counts 0, a double-faced card's front face.
    pub mana_value: u32,
    /// Colours (empty: colourless, devoid included).
    pub colours: Colours,
    /// A land.
    pub land: bool,
    /// Colours of the card's basic land types (Forest → G), for lands that have them.
    #[serde(default)]
    pub land_types: Colours,
}

impl Card {
    /// The name to show: Japanese where known, with the English name.
    pub fn display(&self) -> String {
        match &self.name_ja {
            Some(ja) => format!("《{ja}》({})", self.name),
            None => format!("《{}》", self.name),
        }
    }

    /// The colours this card counts as in a check's achievement step (MT-2 4): a land's
    /// basic land types are its colours there.
    pub fn check_colours(&self) -> Colours {
        if self.land && !self.land_types.is_empty() {
            self.land_types
        } else {
            self.colours
        }
    }

    /// Colourless for a boost (MT-2 5): no colour of its own; basic land types do not
    /// count here.
    pub fn colourless(&self) -> bool {
        self.colours.is_empty()
    }
}

/// Folds a name for lookup: lower case, curly apostrophes straight, spaces collapsed.
pub fn fold_name(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(['’', '‘'], "'")
        .to_lowercase()
}

/// Cards by name: exact English name (any case), Japanese name, or either face of a split
/// or double-faced card.
#[derive(Debug, Clone, Default)]
pub struct CardDb {
    cards: Vec<Card>,
    by_name: HashMap<String, usize>,
}

impl CardDb {
    /// An empty database.
    pub fn new() -> CardDb {
        CardDb::default()
    }

    /// Adds a card (a later card of the same name replaces the earlier one).
    pub fn insert(&mut self, card: Card) {
        let index = match self.by_name.get(&fold_name(&card.name)) {
            Some(&i) => {
                self.cards[i] = card;
                i
            }
            None => {
                self.cards.push(card);
                self.cards.len() - 1
            }
        };
        let card = &self.cards[index];
        let mut keys = vec![fold_name(&card.name)];
        keys.extend(card.name_ja.iter().map(|n| fold_name(n)));
        keys.extend(card.faces.iter().map(|n| fold_name(n)));
        for key in keys {
            // A full name is never shadowed by another card's face name.
            match self.by_name.get(&key) {
                Some(&other) if other != index && fold_name(&self.cards[other].name) == key => {}
                _ => {
                    self.by_name.insert(key, index);
                }
            }
        }
    }

    /// The card with this name (English, any case; Japanese; or a face's name).
    pub fn get(&self, name: &str) -> Option<&Card> {
        let key = fold_name(name.trim().trim_start_matches('《').trim_end_matches('》'));
        self.by_name.get(&key).map(|&i| &self.cards[i])
    }

    /// Every card, in insertion order.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// How many cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether there is no card.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Up to `n` known names closest to `name` (for "did you mean"), best first: English
    /// names, Japanese names (`ルーン爪のクマ` → `ルーン爪の熊`) and face names alike.
    ///
    /// Bounded (issue 13, MTG-9): a name over [`MAX_SUGGEST_CHARS`] characters gets no
    /// suggestion, at most [`MAX_SUGGEST_DISTANCE`] edits are looked for, a name whose
    /// length differs by more than that is skipped without comparing, and a comparison
    /// stops as soon as it exceeds the bound.
    pub fn close_matches(&self, name: &str, n: usize) -> Vec<&str> {
        let want: Vec<char> = fold_name(name).chars().collect();
        if want.is_empty() || want.len() > MAX_SUGGEST_CHARS {
            return Vec::new();
        }
        let bound = (want.len() / 3).clamp(2, MAX_SUGGEST_DISTANCE);
        let mut scored: Vec<(usize, &str)> = self
            .by_name
            .iter()
            .filter(|(key, _)| {
                // Bytes bound characters from above (≤ 4 per character) and below.
                key.len() + bound >= want.len() && key.len() <= (want.len() + bound) * 4
            })
            .filter_map(|(key, &i)| {
                let d = edit_distance_within(&want, key, bound)?;
                Some((d, self.shown_name(key, i)))
            })
            .collect();
        scored.sort();
        scored.dedup_by(|a, b| a.1 == b.1);
        scored.into_iter().take(n).map(|(_, name)| name).collect()
    }

    /// The name a lookup key stands for, as written: the card's English name, its
    /// Japanese name or a face's name.
    fn shown_name(&self, key: &str, i: usize) -> &str {
        let card = &self.cards[i];
        card.name_ja
            .iter()
            .chain(card.faces.iter())
            .find(|n| fold_name(n) == key)
            .map_or(card.name.as_str(), String::as_str)
    }
}

/// The longest unknown name "did you mean" looks for (the longest printed card name has
/// 141 characters; a longer one is no typo of a card).
pub const MAX_SUGGEST_CHARS: usize = 160;

/// The most edits a "did you mean" suggestion may be away.
pub const MAX_SUGGEST_DISTANCE: usize = 6;

/// Levenshtein distance over characters between `a` and `b`, if at most `bound`:
/// `None` as soon as every path exceeds it.
fn edit_distance_within(a: &[char], b: &str, bound: usize) -> Option<usize> {
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > bound {
        return None;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        let mut best = row[0];
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
            best = best.min(row[j + 1]);
        }
        if best > bound {
            return None;
        }
    }
    Some(row[b.len()]).filter(|d| *d <= bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt2_friendly_colours_are_the_neighbours_on_the_wheel() {
        use Colour::*;
        assert_eq!(W.friends(), [G, U]);
        assert_eq!(U.friends(), [W, B]);
        assert_eq!(B.friends(), [U, R]);
        assert_eq!(R.friends(), [B, G]);
        assert_eq!(G.friends(), [R, W]);
    }

    #[test]
    fn colours_parse_in_english_letters_and_japanese() {
        for (text, c) in [
            ("green", Colour::G),
            ("G", Colour::G),
            ("緑", Colour::G),
            ("White", Colour::W),
            ("u", Colour::U),
        ] {
            assert_eq!(Colour::parse(text), Some(c), "{text}");
        }
        assert_eq!(Colour::parse("purple"), None);
        assert_eq!(
            Colours::parse_letters("gw")
                .map(Colours::letters)
                .as_deref(),
            Some("WG")
        );
    }

    /// Issue 13, MTG-9: "did you mean" is bounded — a 4,000-character name against
    /// 32,000 cards compares nothing (it is longer than any card name), and a name of
    /// ordinary length compares only names of about its length, stopping each
    /// comparison past the bound. Japanese names are suggested too.
    #[test]
    fn close_matches_are_bounded_and_find_japanese_names() {
        let mut db = CardDb::new();
        for i in 0..32_000 {
            db.insert(Card {
                name: format!("Card Number {i:05}"),
                name_ja: (i == 7).then(|| "ルーン爪の熊".to_string()),
                faces: vec![],
                mana_value: 1,
                colours: Colours::NONE,
                land: false,
                land_types: Colours::NONE,
            });
        }
        assert!(db.close_matches(&"x".repeat(4000), 3).is_empty());
        assert_eq!(db.close_matches("ルーン爪のクマ", 3), ["ルーン爪の熊"]);
        assert_eq!(db.close_matches("card number 0000", 1).len(), 1);
        assert_eq!(edit_distance_within(&['a', 'b', 'c'], "abd", 1), Some(1));
        assert_eq!(edit_distance_within(&['a', 'b', 'c'], "xyz", 2), None);
    }

    #[test]
    fn close_matches_suggest_near_names() {
        let mut db = CardDb::new();
        for name in ["Llanowar Elves", "Elvish Mystic", "Forest"] {
            db.insert(Card {
                name: name.into(),
                name_ja: None,
                faces: vec![],
                mana_value: 1,
                colours: Colours::NONE,
                land: false,
                land_types: Colours::NONE,
            });
        }
        assert_eq!(db.close_matches("Llanowar Elfs", 3), ["Llanowar Elves"]);
        assert!(db.close_matches("Counterspell", 3).is_empty());
        assert_eq!(
            db.get("  llanowar   elves ").map(|c| c.name.as_str()),
            Some("Llanowar Elves")
        );
        assert_eq!(
            db.get("《Forest》").map(|c| c.name.as_str()),
            Some("Forest")
        );
    }
}
