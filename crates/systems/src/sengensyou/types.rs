//! SG-1's type list (類型リスト) as data. The seed does not give the list: a GM loads one
//! per table (TOML, or the same shape as JSON), and `example-types.toml` ships entries
//! that are plainly examples.

use serde::{Deserialize, Serialize};

/// The shipped example list (every entry marked 例).
pub const EXAMPLE: &str = include_str!("example-types.toml");

/// The special type ラスボス (SG-1), held in addition to a character's three.
pub const LAST_BOSS: &str = "ラスボス";

/// A type list file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
pub struct SpellCard {
    /// Its name.
    pub name: String,
    /// Its effect, as the GM's data says.
    #[serde(default)]
    pub text: String,
}

/// An original-work character's preset types (SG-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Original {
    /// The character's name.
    pub name: String,
    /// Its three types, from the list.
    pub types: Vec<String>,
}

/// One type (SG-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    pub fn parse(text: &str) -> Result<TypeList, String> {
        let list: TypeList = match toml::from_str(text) {
            Ok(l) => l,
            Err(toml_error) => match serde_json::from_str(text) {
                Ok(l) => l,
                Err(_) => return Err(toml_error.message().to_string()),
            },
        };
        if list.types.is_empty() {
            return Err("no [[type]] in the list".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        for t in &list.types {
            if t.name.trim().is_empty() || t.name.chars().any(char::is_whitespace) {
                return Err(format!("type name '{}' is empty or has spaces", t.name));
            }
            if t.name == LAST_BOSS {
                return Err(format!("{LAST_BOSS} is the special type, not a list entry"));
            }
            if !seen.insert(t.name.as_str()) {
                return Err(format!("type '{}' is listed twice", t.name));
            }
            if t.abilities.len() != 3 {
                return Err(format!(
                    "type '{}' has {} abilities; SG-3 gives each type three",
                    t.name,
                    t.abilities.len()
                ));
            }
            let mut names = std::collections::BTreeSet::new();
            for a in &t.abilities {
                if a.threshold < 0 || a.threshold > 1000 {
                    return Err(format!("ability '{}': threshold must be 0..=1000", a.name));
                }
                if a.name.chars().any(char::is_whitespace) || !names.insert(a.name.as_str()) {
                    return Err(format!(
                        "ability '{}' of '{}' is repeated or has spaces",
                        a.name, t.name
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
                return Err(format!(
                    "spell card '{}' is empty, has spaces or is listed twice",
                    c.name
                ));
            }
        }
        let mut originals = std::collections::BTreeSet::new();
        for o in &list.originals {
            if o.name.trim().is_empty()
                || o.name.chars().any(char::is_whitespace)
                || !originals.insert(o.name.as_str())
            {
                return Err(format!(
                    "original '{}' is empty, has spaces or is listed twice",
                    o.name
                ));
            }
            let distinct: std::collections::BTreeSet<&String> = o.types.iter().collect();
            if o.types.len() != 3 || distinct.len() != 3 {
                return Err(format!(
                    "original '{}' has {} types; SG-1 gives three different ones",
                    o.name,
                    o.types.len()
                ));
            }
            if let Some(t) = o.types.iter().find(|t| list.get(t).is_none()) {
                return Err(format!(
                    "original '{}': type '{t}' is not in the list",
                    o.name
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
                .contains("not in the list")
        );
        let json = serde_json::to_string(&list).expect("json");
        assert_eq!(TypeList::parse(&json).expect("json list"), list);
        let two = "[[type]]\nname = \"A\"\n[[type.ability]]\nname = \"x\"\nthreshold = 1\n";
        assert!(
            TypeList::parse(two)
                .expect_err("one ability")
                .contains("three")
        );
    }
}
