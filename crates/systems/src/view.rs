//! Typed views: what a table shows of a character and of its game system's state, as data.
//!
//! The key design decision: no system writes terminal text, HTML or JSON for its sheet.
//! Each system fills a [`Sheet`] (sections of labelled fields, derived values marked,
//! resources as current/max, parts a viewer may not see already left out), and every
//! surface — `/char show`, the table API's state, the web table — renders the same
//! value in the reader's language.

use serde_json::{Value as Json, json};
use taku_dice::{Lang, Text};

/// A character's sheet, or a table's state, as one viewer may see it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Sheet {
    /// Sections in the order a rulebook's sheet has them.
    pub sections: Vec<Section>,
}

/// A titled part of a sheet (能力値, 契約, イベントキー).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Its title.
    pub title: Text,
    /// Its fields, in order.
    pub fields: Vec<Field>,
}

/// One labelled value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's key at the table (what `{KEY}` and `/char set` use), when it has one.
    pub key: Option<String>,
    /// Its label.
    pub label: Text,
    /// Its value.
    pub value: Value,
    /// Computed by the rules from other fields rather than set by a player.
    pub derived: bool,
}

/// A field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A whole number.
    Number(i64),
    /// Words (a name, a note), as set.
    Plain(String),
    /// Words the rules wrote, in every language.
    Text(Text),
    /// A resource that goes down and up: HP, MP, command spells.
    Resource {
        /// What is left.
        current: i64,
        /// The most it can be.
        max: i64,
    },
    /// Several entries (contracts, keys).
    List(Vec<Text>),
}

impl Field {
    /// A field set at the table, shown under its key.
    pub fn set(key: &str, value: &str) -> Field {
        Field {
            key: Some(key.to_string()),
            label: Text::verbatim(key),
            value: match value.trim().parse::<i64>() {
                Ok(n) => Value::Number(n),
                Err(_) => Value::Plain(value.to_string()),
            },
            derived: false,
        }
    }

    /// A value the rules derive.
    pub fn derived(label: Text, value: Value) -> Field {
        Field {
            key: None,
            label,
            value,
            derived: true,
        }
    }
}

impl Value {
    /// The value as words of `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Value::Number(n) => n.to_string(),
            Value::Plain(s) => s.clone(),
            Value::Text(t) => t.get(lang).to_string(),
            Value::Resource { current, max } => format!("{current}/{max}"),
            Value::List(items) => {
                let sep = match lang {
                    Lang::Ja => "、",
                    Lang::En => ", ",
                };
                items
                    .iter()
                    .map(|t| t.get(lang))
                    .collect::<Vec<_>>()
                    .join(sep)
            }
        }
    }

    fn json(&self, lang: Lang) -> Json {
        match self {
            Value::Number(n) => json!(n),
            Value::Plain(s) => json!(s),
            Value::Text(t) => json!(t.get(lang)),
            Value::Resource { current, max } => json!({"current": current, "max": max}),
            Value::List(items) => Json::Array(items.iter().map(|t| json!(t.get(lang))).collect()),
        }
    }
}

impl Sheet {
    /// The sheet as indented lines of `lang`, as `/char show` prints it.
    pub fn render_text(&self, lang: Lang) -> String {
        let mut out = String::new();
        for s in &self.sections {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!("【{}】", s.title.get(lang)));
            for f in &s.fields {
                let mark = if f.derived {
                    match lang {
                        Lang::Ja => "（算出）",
                        Lang::En => " (derived)",
                    }
                } else {
                    ""
                };
                out.push_str(&format!(
                    "\n  {}: {}{mark}",
                    f.label.get(lang),
                    f.value.render(lang)
                ));
            }
        }
        out
    }

    /// The sheet as JSON with every text in `lang`: `[{"title", "fields": [{"key",
    /// "label", "value", "derived"}]}]`, a resource's value as `{"current", "max"}`.
    pub fn to_json(&self, lang: Lang) -> Json {
        Json::Array(
            self.sections
                .iter()
                .map(|s| {
                    json!({
                        "title": s.title.get(lang),
                        "fields": s.fields.iter().map(|f| json!({
                            "key": f.key,
                            "label": f.label.get(lang),
                            "value": f.value.json(lang),
                            "derived": f.derived,
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_renders_in_either_language_with_resources_as_current_and_max() {
        let sheet = Sheet {
            sections: vec![Section {
                title: Text::new("能力値", "Attributes"),
                fields: vec![
                    Field::set("理知", "4"),
                    Field::derived(
                        Text::new("HP", "HP"),
                        Value::Resource {
                            current: 5,
                            max: 12,
                        },
                    ),
                ],
            }],
        };
        assert_eq!(
            sheet.render_text(Lang::Ja),
            "【能力値】\n  理知: 4\n  HP: 5/12（算出）"
        );
        assert_eq!(
            sheet.render_text(Lang::En),
            "【Attributes】\n  理知: 4\n  HP: 5/12 (derived)"
        );
        assert_eq!(
            sheet.to_json(Lang::En)[0]["fields"][1]["value"],
            json!({"current": 5, "max": 12})
        );
    }
}
