//! SG-1's type list (類型リスト) as data. The seed does not give the list: a GM loads one
//! per table (TOML, or the same shape as JSON), and `example-types.toml` ships entries
//! that are plainly examples.

use serde::{Deserialize, Serialize};
use taku_dice::Text;

/// The shipped example list (every entry marked 例).
pub const EXAMPLE: &str = include_str!("example-types.toml");

/// The special type ラスボス (SG-1), held in addition to a character's three.
pub const LAST_BOSS: &str = "ラスボス";

/// A type list file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeList {
    /// The types.
    #[serde(rename = "type", default)]
    pub types: Vec<TypeDef>,
    /// SG-1 (l.179): 特殊なスペルカード, usable only by a character whose ラスボス type
    /// is made plain. Not in the seed: data.
    #[serde(rename = "spell_card", default, skip_serializing_if = "Vec::is_empty")]
    pub spell_cards: Vec<SpellCard>,
    /// SG-1 (l.29): 原作キャラクター類型表, presets of three types for original-work
    /// characters (the GM may still choose others). Not in the seed: data.
    #[serde(rename = "original", default, skip_serializing_if = "Vec::is_empty")]
    pub originals: Vec<Original>,
}

/// A last-boss-only spell card (SG-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellCard {
    /// Its name.
    pub name: String,
    /// Its effect, as the GM's data says.
    #[serde(default)]
    pub text: String,
}

/// An original-work character's preset types (SG-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Original {
    /// The character's name.
    pub name: String,
    /// Its three types, from the list.
    pub types: Vec<String>,
}

/// One type (SG-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDef {
    /// Its name.
    pub name: String,
    /// Bonus to actions: what and how much.
    #[serde(default)]
    pub action_bonus: String,
    /// SG-4: the impression its bearer gives.
    #[serde(default)]
    pub impression: String,
    /// SG-2: whether bonding a character or group applies the impression (default yes).
    #[serde(default = "yes")]
    pub impression_on_bond: bool,
    /// What its bonds may target, for the GM.
    #[serde(default)]
    pub bond_targets: String,
    /// SG-3: exactly three.
    #[serde(rename = "ability", default)]
    pub abilities: Vec<Ability>,
}

/// A fantasy ability (SG-3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    /// Its name.
    pub name: String,
    /// The fantasy value that unlocks it.
    pub threshold: i64,
    /// Its effect.
    #[serde(default)]
    pub text: String,
    /// Whether using it takes an action (default no).
    #[serde(default)]
    pub takes_action: bool,
}

fn yes() -> bool {
    true
}

impl TypeList {
    /// Reads a list from TOML or JSON text and checks it: names unique and not
    /// ラスボス, three abilities per type with unique names and thresholds of 0 or more.
    pub fn parse(text: &str) -> Result<TypeList, Text> {
        let text = text.trim();
        let list: TypeList = if text.starts_with('{') {
            serde_json::from_str(text)
                .map_err(|e| crate::four_card::skills::data_error("JSON", &e.to_string()))
        } else {
            toml::from_str(text)
                .map_err(|e| crate::four_card::skills::data_error("TOML", e.message()))
        }
        .map_err(|e| {
            Text::new(
                format!(
                    "類型リストとして読めません: {}（[[type]] に name・ability×3 など）",
                    e.ja()
                ),
                format!(
                    "not a type list: {} ([[type]] with name, three ability entries...)",
                    e.en()
                ),
            )
        })?;
        if list.types.is_empty() {
            return Err(Text::new(
                "類型が1つもありません（[[type]]）",
                "no [[type]] in the list",
            ));
        }
        // SG-1 (l.28): the list's names are what players type and read; one with a
        // control or invisible character prints as another (sg9 F12).
        for name in list
            .types
            .iter()
            .flat_map(|t| std::iter::once(&t.name).chain(t.abilities.iter().map(|a| &a.name)))
            .chain(list.spell_cards.iter().map(|c| &c.name))
            .chain(list.originals.iter().map(|o| &o.name))
        {
            if let Some(c) = name.chars().find(|&c| c.is_control() || invisible(c)) {
                let code = format!("U+{:04X}", u32::from(c));
                let shown: String = name
                    .chars()
                    .take(20)
                    .map(|c| {
                        if c.is_control() || invisible(c) {
                            '\u{FFFD}'
                        } else {
                            c
                        }
                    })
                    .collect();
                return Err(Text::new(
                    format!(
                        "SG-1: 名前「{shown}」に制御文字か見えない文字（{code}）があります。見えない文字は別の名前と同じに見えるため使えません。取り除いてください"
                    ),
                    format!(
                        "SG-1: the name '{shown}' holds a control or invisible character ({code}), which would print like another name; remove it"
                    ),
                ));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for t in &list.types {
            if t.name.trim().is_empty() || t.name.chars().any(char::is_whitespace) {
                return Err(Text::new(
                    format!("類型名「{}」が空か空白を含みます", t.name),
                    format!("type name '{}' is empty or has spaces", t.name),
                ));
            }
            if t.name == LAST_BOSS {
                return Err(Text::new(
                    format!("{LAST_BOSS}は特殊な類型で、リストには載せません"),
                    format!("{LAST_BOSS} is the special type, not a list entry"),
                ));
            }
            if !seen.insert(t.name.as_str()) {
                return Err(Text::new(
                    format!("類型「{}」が2回あります", t.name),
                    format!("type '{}' is listed twice", t.name),
                ));
            }
            if t.abilities.len() != 3 {
                return Err(Text::new(
                    format!(
                        "類型「{}」の幻想能力が{}個です。SG-3: 類型ごとに3つ（キーは ability）",
                        t.name,
                        t.abilities.len()
                    ),
                    format!(
                        "type '{}' has {} abilities; SG-3 gives each type three (the key is ability)",
                        t.name,
                        t.abilities.len()
                    ),
                ));
            }
            let mut names = std::collections::BTreeSet::new();
            for a in &t.abilities {
                if a.threshold < 0 || a.threshold > 1000 {
                    return Err(Text::new(
                        format!("幻想能力「{}」: threshold は0〜1000です", a.name),
                        format!("ability '{}': threshold must be 0..=1000", a.name),
                    ));
                }
                if a.name.chars().any(char::is_whitespace) || !names.insert(a.name.as_str()) {
                    return Err(Text::new(
                        format!(
                            "類型「{}」の幻想能力「{}」が重複しているか空白を含みます",
                            t.name, a.name
                        ),
                        format!(
                            "ability '{}' of '{}' is repeated or has spaces",
                            a.name, t.name
                        ),
                    ));
                }
            }
        }
        let mut cards = std::collections::BTreeSet::new();
        for c in &list.spell_cards {
            if c.name.trim().is_empty()
                || c.name.chars().any(char::is_whitespace)
                || !cards.insert(c.name.as_str())
            {
                return Err(Text::new(
                    format!(
                        "スペルカード「{}」が空か、空白を含むか、2回あります",
                        c.name
                    ),
                    format!(
                        "spell card '{}' is empty, has spaces or is listed twice",
                        c.name
                    ),
                ));
            }
        }
        let mut originals = std::collections::BTreeSet::new();
        for o in &list.originals {
            if o.name.trim().is_empty()
                || o.name.chars().any(char::is_whitespace)
                || !originals.insert(o.name.as_str())
            {
                return Err(Text::new(
                    format!(
                        "原作キャラクター「{}」が空か、空白を含むか、2回あります",
                        o.name
                    ),
                    format!(
                        "original '{}' is empty, has spaces or is listed twice",
                        o.name
                    ),
                ));
            }
            let distinct: std::collections::BTreeSet<&String> = o.types.iter().collect();
            if o.types.len() != 3 || distinct.len() != 3 {
                return Err(Text::new(
                    format!(
                        "原作キャラクター「{}」の類型が{}個です。SG-1: 異なる3つ",
                        o.name,
                        o.types.len()
                    ),
                    format!(
                        "original '{}' has {} types; SG-1 gives three different ones",
                        o.name,
                        o.types.len()
                    ),
                ));
            }
            if let Some(t) = o.types.iter().find(|t| list.get(t).is_none()) {
                return Err(Text::new(
                    format!(
                        "原作キャラクター「{}」: 類型「{t}」はリストにありません",
                        o.name
                    ),
                    format!("original '{}': type '{t}' is not in the list", o.name),
                ));
            }
        }
        Ok(list)
    }

    /// The spell card named `name`.
    pub fn spell_card(&self, name: &str) -> Option<&SpellCard> {
        self.spell_cards.iter().find(|c| c.name == name)
    }

    /// The original-work preset named `name`.
    pub fn original(&self, name: &str) -> Option<&Original> {
        self.originals.iter().find(|o| o.name == name)
    }

    /// The type named `name`.
    pub fn get(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name == name)
    }
}

/// A character that prints as nothing or changes how the text around it prints (zero
/// widths, direction marks, variation selectors, fillers): a name holding one looks like
/// the name without it.
pub(super) fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF9}'..='\u{FFFB}' | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sg1_the_example_list_loads_and_is_marked_as_examples() {
        let list = TypeList::parse(EXAMPLE).expect("example list");
        assert!(list.types.len() >= 4);
        assert!(list.types.iter().all(|t| t.name.starts_with("例")));
        // SG-1: spell cards and original-work presets, data the seed lacks, marked too.
        assert!(!list.spell_cards.is_empty() && !list.originals.is_empty());
        assert!(list.spell_cards.iter().all(|c| c.name.starts_with("例")));
        assert!(list.originals.iter().all(|o| o.name.starts_with("例")));
        let bad = format!(
            "{EXAMPLE}\n[[original]]\nname = \"例・誰か\"\ntypes = [\"例・旅人\", \"無い類型\", \"例・策士\"]\n"
        );
        assert!(
            TypeList::parse(&bad)
                .expect_err("unknown type")
                .en()
                .contains("not in the list")
        );
        // An unknown key (here `abilities` for `ability`) is refused, not ignored.
        let unknown = "[[type]]\nname = \"A\"\nabilities = []\n";
        assert!(
            TypeList::parse(unknown)
                .expect_err("unknown key")
                .en()
                .contains("unknown")
        );
        let json = serde_json::to_string(&list).expect("json");
        assert_eq!(TypeList::parse(&json).expect("json list"), list);
        let two = "[[type]]\nname = \"A\"\n[[type.ability]]\nname = \"x\"\nthreshold = 1\n";
        assert!(
            TypeList::parse(two)
                .expect_err("one ability")
                .en()
                .contains("three")
        );
    }
}
