//! Sengensho character sheets (`taku sheet --system Sengensyou`, and loadable at a
//! table): `name`, `種別` (PC or NPC), `類型` — three different type names (SG-1), a
//! proposal `/sg choose NAME` takes at the session's start — and any other fields as
//! numbers or words. What the rules keep (fantasy value, bonds, debts, abilities used,
//! impressions: SG-2 to SG-5) is never written on a sheet, and an NPC's types are not
//! either: a sheet's fields are seen by every member, and an NPC's types are hidden from
//! players (SG-6); the GM chooses them at the table with `/sg choose`.
//!
//! ```toml
//! name = "ミナ"
//! "種別" = "PC"
//! "類型" = ["例・芸術家", "例・守護者", "例・策士"]
//! "幻想知識" = 2
//! ```

use super::types::{EXAMPLE, TypeList};
use crate::view::{Field, Section, Sheet as View, Value};
use serde::Serialize;
use taku_dice::{Lang, Text};

/// The field a sheet's three types are stored under at a table (`類型` itself is the
/// rules': the types chosen this session).
pub const TYPES_FIELD: &str = "類型候補";

/// What separates the three types in [`TYPES_FIELD`] (type names may hold `・`, as the
/// shipped examples' do).
pub const TYPES_SEPARATOR: &str = "、";

/// The three types a [`TYPES_FIELD`] value names (a value from before the separator
/// was `、` joined them with `・`).
pub fn split_types(value: &str) -> Vec<String> {
    let sep = if value.contains(TYPES_SEPARATOR) {
        TYPES_SEPARATOR
    } else {
        "・"
    };
    value.split(sep).map(|t| t.trim().to_string()).collect()
}

/// A sheet read and checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sheet {
    /// The character's name.
    pub name: String,
    /// The fields a table stores, in order (the types joined with
    /// [`TYPES_SEPARATOR`] under [`TYPES_FIELD`]).
    pub fields: Vec<(String, String)>,
}

/// A rule the sheet breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule (`SG-1`), or `TOML` for a file that does not read.
    pub rule: &'static str,
    /// What is wrong and what would be right, in Japanese.
    pub message: String,
    /// In English.
    pub message_en: String,
}

impl Violation {
    fn new(rule: &'static str, ja: impl Into<String>, en: impl Into<String>) -> Violation {
        Violation {
            rule,
            message: ja.into(),
            message_en: en.into(),
        }
    }

    /// In the reader's language, with its rule.
    pub fn text(&self) -> Text {
        Text::new(
            format!("{}: {}", self.rule, self.message),
            format!("{}: {}", self.rule, self.message_en),
        )
    }
}

/// Reads a sheet; `Err` lists what is wrong, each with its rule, in both languages.
pub fn read(text: &str) -> Result<Sheet, Vec<Violation>> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        vec![Violation::new(
            "TOML",
            format!("TOML として読めません: {}", e.message()),
            format!("not TOML: {}", e.message()),
        )]
    })?;
    let mut name = None;
    let mut kind = "PC".to_string();
    let mut types = None;
    let mut fields = Vec::new();
    let mut errors = Vec::new();
    for (key, value) in table {
        match (key.as_str(), value) {
            ("name", toml::Value::String(n)) if !n.trim().is_empty() => name = Some(n),
            ("name", _) => errors.push(Violation::new(
                "SG",
                "name はキャラクター名の文字列です",
                "name must be the character's name, a string",
            )),
            ("種別", toml::Value::String(k)) if k == "PC" || k == "NPC" => kind = k,
            ("種別", _) => errors.push(Violation::new(
                "SG",
                "種別は \"PC\" か \"NPC\" です",
                "種別 must be \"PC\" or \"NPC\"",
            )),
            ("類型" | TYPES_FIELD, toml::Value::Array(list)) => {
                let names: Vec<String> = list
                    .iter()
                    .filter_map(|t| t.as_str().map(|t| t.trim().to_string()))
                    .collect();
                let unique: std::collections::BTreeSet<&String> = names.iter().collect();
                if names.len() != 3 || unique.len() != 3 || list.len() != 3 {
                    errors.push(Violation::new(
                        "SG-1",
                        "類型は異なる3つの名前の配列です（例: \"類型\" = [\"A\", \"B\", \"C\"]）",
                        "類型 must be an array of three different names (\"類型\" = [\"A\", \"B\", \"C\"])",
                    ));
                } else if names
                    .iter()
                    .any(|n| n.is_empty() || n.contains('、') || n.chars().any(char::is_whitespace))
                {
                    errors.push(Violation::new(
                        "SG-1",
                        "類型名は空でなく、「、」や空白を含みません",
                        "a type name is not empty and has no 、 or spaces",
                    ));
                } else {
                    types = Some(names);
                }
            }
            ("類型" | TYPES_FIELD, _) => errors.push(Violation::new(
                "SG-1",
                "類型は異なる3つの名前の配列です（例: \"類型\" = [\"A\", \"B\", \"C\"]）",
                "類型 must be an array of three different names (\"類型\" = [\"A\", \"B\", \"C\"])",
            )),
            (k, value) => {
                if let Some(owned) = super::rules::OWNED.iter().find(|o| o.matches(k)) {
                    errors.push(Violation::new(
                        "SG",
                        format!(
                            "「{k}」はルールが管理するのでシートには書けません。{}",
                            owned.how
                        ),
                        format!(
                            "'{k}' is kept by the rules, so a sheet cannot carry it; {}",
                            owned.how_en
                        ),
                    ));
                    continue;
                }
                match value {
                    toml::Value::String(s) => fields.push((key, s)),
                    toml::Value::Integer(n) => fields.push((key, n.to_string())),
                    toml::Value::Boolean(b) => fields.push((key, b.to_string())),
                    _ => errors.push(Violation::new(
                        "SG",
                        format!("{k}: 値は数・文字列・true/false のどれかです"),
                        format!("{k}: a value is a number, a string or true/false"),
                    )),
                }
            }
        }
    }
    if name.is_none() && !errors.iter().any(|e| e.message.starts_with("name")) {
        errors.push(Violation::new(
            "SG",
            "name（キャラクター名）がありません",
            "no name (the character's name)",
        ));
    }
    if kind == "NPC" && types.is_some() {
        errors.push(Violation::new(
            "SG-6",
            "NPCの類型はプレイヤーに秘匿されます。シートの欄は全員に見えるので、NPCのシートには類型を書かず、GMが /sg choose 名前 類型1 類型2 類型3 で選んでください",
            "an NPC's types are hidden from players, and a sheet's fields are seen by everyone: leave 類型 off an NPC's sheet and have the GM choose them with /sg choose NAME TYPE1 TYPE2 TYPE3",
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut out = vec![("種別".to_string(), kind)];
    if let Some(types) = types {
        out.push((TYPES_FIELD.to_string(), types.join(TYPES_SEPARATOR)));
    }
    out.extend(fields);
    Ok(Sheet {
        name: name.expect("checked above"),
        fields: out,
    })
}

impl Sheet {
    /// The field `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The three types proposed, if any.
    pub fn types(&self) -> Vec<String> {
        self.get(TYPES_FIELD).map(split_types).unwrap_or_default()
    }

    /// Types the shipped example list does not have: a table's GM loads its own list
    /// (`/sg types load`), so these are only noted, not refused.
    pub fn unknown_types(&self) -> Vec<String> {
        let list = TypeList::parse(EXAMPLE).unwrap_or_default();
        self.types()
            .into_iter()
            .filter(|t| list.get(t).is_none())
            .collect()
    }

    /// The sheet as the typed view shows it.
    pub fn view(&self) -> View {
        // Every field here is as written on the sheet: none is computed (the rules'
        // values, SG-2 to SG-5, are never on a sheet), so none is marked derived.
        let written = |key: &str, label: Text, value: String| Field {
            key: Some(key.to_string()),
            label,
            value: Value::Plain(value),
            derived: false,
        };
        let mut fields = vec![written(
            "種別",
            Text::new("種別", "kind"),
            self.get("種別").unwrap_or("PC").to_string(),
        )];
        let types = self.types();
        if !types.is_empty() {
            fields.push(written(
                TYPES_FIELD,
                Text::new(
                    "類型候補（/sg choose で選ぶ）",
                    "types proposed (/sg choose takes them)",
                ),
                types.join(TYPES_SEPARATOR),
            ));
        }
        for (k, v) in &self.fields {
            if k != "種別" && k != TYPES_FIELD {
                fields.push(Field::set(k, v));
            }
        }
        View {
            sections: vec![Section {
                title: Text::new("千幻抄のシート", "Sengensho sheet"),
                fields,
            }],
        }
    }

    /// The sheet and its notes as text.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = format!("{}\n{}\n", self.name, self.view().render_text(lang));
        for t in self.unknown_types() {
            out.push_str(&match lang {
                Lang::Ja => format!(
                    "注意: 類型「{t}」は同梱の例の類型リストにありません（卓でGMが読み込んだリストにあれば使えます）\n"
                ),
                Lang::En => format!(
                    "note: type '{t}' is not in the shipped example list (it works at a table whose GM loaded a list with it)\n"
                ),
            });
        }
        out.push_str(match lang {
            Lang::Ja => "ルール違反なし\n",
            Lang::En => "no rule broken\n",
        });
        out
    }

    /// As JSON: the sheet, its view and its notes.
    pub fn report(&self, lang: Lang) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "fields": self.fields,
            "view": self.view().to_json(lang),
            "unknown_types": self.unknown_types(),
            "violations": [],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sg5: a field typed on the sheet (`foo = 1`) is shown as written, not as a value
    /// the rules computed (SG-2 to SG-5 keep those, never a sheet).
    #[test]
    fn written_fields_are_not_marked_derived() {
        let sheet = read(
            "name = \"ミナ\"\n\"類型\" = [\"例・芸術家\", \"例・守護者\", \"例・策士\"]\nfoo = 1\n",
        )
        .expect("a sheet");
        let text = sheet.render(Lang::Ja);
        assert!(text.contains("foo: 1\n"), "{text}");
        assert!(!text.contains("算出"), "{text}");
        assert!(!sheet.render(Lang::En).contains("derived"));
    }

    /// SG-1: three different types; SG-6: an NPC's are not on its sheet; what the
    /// rules keep is not on any sheet. Every error in both languages.
    #[test]
    fn sg1_a_sheet_names_three_different_types() {
        let ok = read(
            r#"name = "ミナ"
"種別" = "PC"
"類型" = ["A", "B", "C"]
"幻想知識" = 2
"#,
        )
        .expect("sheet");
        assert!(ok.fields.contains(&(TYPES_FIELD.into(), "A、B、C".into())));
        assert_eq!(ok.unknown_types(), ["A", "B", "C"]);
        let bad = read("\"類型\" = [\"A\", \"A\", \"C\"]\n").expect_err("bad");
        let rules: Vec<&str> = bad.iter().map(|v| v.rule).collect();
        assert_eq!(rules, ["SG-1", "SG"], "{bad:?}");
        let npc = read("name = \"影\"\n\"種別\" = \"NPC\"\n\"類型\" = [\"A\", \"B\", \"C\"]\n")
            .expect_err("an NPC's types");
        assert_eq!(npc[0].rule, "SG-6");
        let owned = read("name = \"ミナ\"\n\"幻想値\" = 5\n").expect_err("fantasy value");
        assert!(owned[0].message.contains("/sg bond"), "{owned:?}");
        assert!(
            owned[0].message_en.contains("kept by the rules"),
            "{owned:?}"
        );
    }

    #[test]
    fn the_example_types_are_known() {
        let s =
            read("name = \"ミナ\"\n\"類型\" = [\"例・芸術家\", \"例・守護者\", \"例・策士\"]\n")
                .expect("sheet");
        assert!(s.unknown_types().is_empty(), "{:?}", s.unknown_types());
        assert!(s.render(Lang::Ja).contains("ルール違反なし"));
    }
}
