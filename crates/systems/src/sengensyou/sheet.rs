//! Sengensho character sheets (`taku sheet --system Sengensyou`, and loadable at a
//! table): `name`, `種別` (PC or NPC), `類型` — three different type names (SG-1) — and
//! any other fields as numbers or words.
//!
//! ```toml
//! name = "ミナ"
//! "種別" = "PC"
//! "類型" = ["例・芸術家", "例・守護者", "例・策士"]
//! "幻想知識" = 2
//! ```

use serde::Serialize;

/// A sheet read and checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sheet {
    /// The character's name.
    pub name: String,
    /// The fields a table stores, in order (`類型` joined with `・`).
    pub fields: Vec<(String, String)>,
}

/// Reads a sheet; `Err` lists what is wrong, each with its rule.
pub fn read(text: &str) -> Result<Sheet, Vec<String>> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| vec![format!("TOML: {}", e.message())])?;
    let mut name = None;
    let mut fields = Vec::new();
    let mut errors = Vec::new();
    for (key, value) in table {
        match (key.as_str(), value) {
            ("name", toml::Value::String(n)) => name = Some(n),
            ("種別", toml::Value::String(k)) if k == "PC" || k == "NPC" => fields.push((key, k)),
            ("種別", _) => errors.push("種別: PC か NPC / PC or NPC".to_string()),
            ("類型", toml::Value::Array(types)) => {
                let names: Vec<String> = types
                    .iter()
                    .filter_map(|t| t.as_str().map(str::to_string))
                    .collect();
                let unique: std::collections::BTreeSet<&String> = names.iter().collect();
                if names.len() != 3 || unique.len() != 3 || types.len() != 3 {
                    errors.push("SG-1: 類型は異なる3つ / three different types".to_string());
                } else if names
                    .iter()
                    .any(|n| n.contains('・') || n.chars().any(char::is_whitespace))
                {
                    errors.push(
                        "SG-1: 類型名に「・」や空白は使えません / no ・ or spaces in type names"
                            .to_string(),
                    );
                } else {
                    fields.push((key, names.join("・")));
                }
            }
            (_, toml::Value::String(s)) => fields.push((key, s)),
            (_, toml::Value::Integer(n)) => fields.push((key, n.to_string())),
            (_, toml::Value::Boolean(b)) => fields.push((key, b.to_string())),
            (k, _) => errors.push(format!(
                "{k}: 数・文字列・true/false / a number, a string or true/false"
            )),
        }
    }
    if name.is_none() {
        errors.push("name: キャラクター名がありません / no name".to_string());
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Sheet {
        name: name.expect("checked above"),
        fields,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sg1_a_sheet_names_three_different_types() {
        let ok = super::read(
            r#"name = "ミナ"
"種別" = "PC"
"類型" = ["A", "B", "C"]
"幻想知識" = 2
"#,
        )
        .expect("sheet");
        assert!(ok.fields.contains(&("類型".into(), "A・B・C".into())));
        let bad = super::read("\"類型\" = [\"A\", \"A\", \"C\"]\n").expect_err("bad");
        assert_eq!(bad.len(), 2, "{bad:?}");
    }
}
