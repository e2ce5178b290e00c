//! Character sheets read into a table: a TOML file in the format `taku sheet` reads for
//! the system (Another World's own sheet), or, for a system without its own format, a flat
//! sheet: `name = "ミナ"` and one `key = value` per field (numbers, words, true/false).
//! A field `K` with a maximum is written `K = 12` and `"K.max" = 12`.

use crate::GameSystem;
use crate::another_world::{self, AnotherWorld};
use taku_dice::Text;

/// A sheet as a table takes it: the character's name and fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadSheet {
    /// The character's name.
    pub name: String,
    /// Fields, in order.
    pub fields: Vec<(String, String)>,
}

/// Reads `text` as a character sheet of `system`; `Err` says what is wrong (a bad TOML
/// line, a missing name, a rule the sheet breaks) and what would be right.
pub fn read(system: &dyn GameSystem, text: &str) -> Result<ReadSheet, Text> {
    if system.id() == AnotherWorld.id() {
        return read_another_world(text);
    }
    if system.id() == crate::four_card::FourCard.id() {
        return read_four_card(text);
    }
    if system.id() == crate::lotr_coda::LotrCoda.id() {
        return read_lotr(text);
    }
    if system.id() == crate::sengensyou::Sengensyou.id() {
        return crate::sengensyou::sheet::read(text)
            .map(|s| ReadSheet {
                name: s.name,
                fields: s.fields,
            })
            .map_err(|errors| {
                let list = |lang| {
                    errors
                        .iter()
                        .map(|e| e.text().get(lang).to_string())
                        .collect::<Vec<_>>()
                        .join("\n  ")
                };
                Text::new(
                    format!(
                        "千幻抄のシートとして読めません（taku sheet --system Sengensyou FILE で確かめられます）:\n  {}",
                        list(taku_dice::Lang::Ja)
                    ),
                    format!(
                        "not a Sengensyou sheet (check it with taku sheet --system Sengensyou FILE):\n  {}",
                        list(taku_dice::Lang::En)
                    ),
                )
            });
    }
    read_flat(text)
}

fn read_four_card(text: &str) -> Result<ReadSheet, Text> {
    let sheet = crate::four_card::sheet::Sheet::from_toml(text).map_err(|e| {
        Text::new(
            format!(
                "フォーカードのキャラクターシートとして読めません: {}",
                e.ja()
            ),
            format!("not a Four Card character sheet: {}", e.en()),
        )
    })?;
    // A sex the rules cannot read would be read as male: refused. What the sheet breaks
    // (FC-1 ranges, FC-4 XP, FC-5 skills) is not: at a table a player's sheet is a
    // proposal the GM approves against the table's own skill list, listing what it
    // breaks, or approves knowingly (`/fc approve NAME force`); a GM's sheet is the GM's
    // (an NPC need not be built as a PC is, and the GM's `/char set` is not held either).
    if crate::four_card::character::Sex::parse(&sheet.sex).is_none() {
        return Err(Text::new(
            format!(
                "シートがルールに反しています:\n  FC-1: 性別「{}」は male か female です",
                sheet.sex
            ),
            format!(
                "the sheet breaks the rules (see `taku sheet --system FourCard FILE`):\n  FC-1: sex '{}' must be male or female",
                sheet.sex
            ),
        ));
    }
    Ok(ReadSheet {
        name: sheet.name.clone(),
        fields: sheet.fields(),
    })
}

fn read_lotr(text: &str) -> Result<ReadSheet, Text> {
    let sheet = crate::lotr_coda::sheet::Sheet::from_toml(text)
        .map_err(|e| crate::lotr_coda::sheet::Sheet::parse_error(None, &e))?;
    let violations = sheet.violations();
    if !violations.is_empty() {
        let ja: Vec<String> = violations
            .iter()
            .map(|v| format!("{}: {}", v.rule, v.message))
            .collect();
        let en: Vec<String> = violations
            .iter()
            .map(|v| format!("{}: {}", v.rule, v.message_en))
            .collect();
        return Err(Text::new(
            format!("シートがルールに反しています:\n  {}", ja.join("\n  ")),
            format!(
                "the sheet breaks the rules (see `taku sheet --system LotrCoda FILE`):\n  {}",
                en.join("\n  ")
            ),
        ));
    }
    Ok(ReadSheet {
        name: sheet.name.clone(),
        fields: sheet.fields(),
    })
}

fn read_another_world(text: &str) -> Result<ReadSheet, Text> {
    let sheet = another_world::sheet::Sheet::from_toml(text).map_err(|e| {
        let e = e.text();
        Text::new(
            format!(
                "Another World のキャラクターシートとして読めません: {}",
                e.ja()
            ),
            format!("not an Another World character sheet: {}", e.en()),
        )
    })?;
    // AW-5/AW-6 at a table: event keys are the GM's to grant (/key give), contracts are
    // made by both sides (/contract) and command spells spent by /spell; a sheet cannot
    // bring them in (issue 13 play-through: they were dropped without a word).
    let mut kept: Vec<(&str, &str, &str)> = Vec::new();
    if !sheet.keys.is_empty() {
        kept.push((
            "keys",
            "イベントキーはGMが /key give で与えます（AW-6）",
            "event keys are granted by the GM with /key give (AW-6)",
        ));
    }
    if sheet.master.is_some() || !sheet.servants.is_empty() {
        kept.push((
            "master / servants",
            "契約は両者の同意で /contract マスター サーヴァント により結びます（AW-5）",
            "contracts are made by both sides with /contract MASTER SERVANT (AW-5)",
        ));
    }
    if sheet.spells != another_world::sheet::MAX_SPELLS {
        kept.push((
            "spells",
            "令呪は /spell で使い、セッション終了時に3画に戻ります（AW-5）",
            "command spells are spent with /spell and refill at the end of the session (AW-5)",
        ));
    }
    if !kept.is_empty() {
        let ja: Vec<String> = kept.iter().map(|(k, ja, _)| format!("{k}: {ja}")).collect();
        let en: Vec<String> = kept.iter().map(|(k, _, en)| format!("{k}: {en}")).collect();
        return Err(Text::new(
            format!(
                "テーブルではシートから読み込めない項目があります。シートから外して読み込み、テーブルのコマンドで記録してください:\n  {}",
                ja.join("\n  ")
            ),
            format!(
                "a table does not take these from a sheet; leave them out and record them with the table's commands:\n  {}",
                en.join("\n  ")
            ),
        ));
    }
    let violations = sheet.violations();
    if !violations.is_empty() {
        let list: Vec<String> = violations
            .iter()
            .map(|v| format!("{}（{}）: {}", v.field, v.rule, v.message))
            .collect();
        // Each violation in the message's own language (issue 13: the English message
        // listed the Japanese texts).
        let list_en: Vec<String> = violations
            .iter()
            .map(|v| format!("{} ({}): {}", v.field, v.rule, v.message_en))
            .collect();
        return Err(Text::new(
            format!("シートがルールに反しています:\n  {}", list.join("\n  ")),
            format!(
                "the sheet breaks the rules (see `taku sheet --system AnotherWorld FILE`):\n  {}",
                list_en.join("\n  ")
            ),
        ));
    }
    let mut fields = Vec::new();
    for (k, v) in sheet.fields() {
        // AW-4: the sheet's 【HP】 and 【MP】 are maxima; a character starts full.
        if k == "HP" || k == "MP" {
            fields.push((format!("{k}.max"), v.clone()));
        }
        fields.push((k, v));
    }
    let kind = match sheet.kind {
        another_world::sheet::Kind::Pc => "PC",
        another_world::sheet::Kind::Npc => "NPC",
    };
    fields.push(("種別".to_string(), kind.to_string()));
    Ok(ReadSheet {
        name: sheet.name.clone(),
        fields,
    })
}

fn read_flat(text: &str) -> Result<ReadSheet, Text> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        Text::new(
            format!("TOML として読めません: {}", e.message()),
            format!("not TOML: {}", e.message()),
        )
    })?;
    let mut name = None;
    let mut fields = Vec::new();
    for (key, value) in table {
        let value = match value {
            toml::Value::String(s) => s,
            toml::Value::Integer(n) => n.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            toml::Value::Float(f) => f.to_string(),
            _ => {
                return Err(Text::new(
                    format!(
                        "'{key}' の値は数・文字列・true/false のどれかにしてください（表や配列は使えません）"
                    ),
                    format!(
                        "the value of '{key}' must be a number, a string or true/false (not a table or array)"
                    ),
                ));
            }
        };
        if key == "name" {
            name = Some(value);
        } else {
            fields.push((key, value));
        }
    }
    let Some(name) = name else {
        return Err(Text::new(
            "シートに name（キャラクター名）がありません。例: name = \"ミナ\"",
            "the sheet has no name; e.g. name = \"ミナ\"",
        ));
    };
    Ok(ReadSheet { name, fields })
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_flat_sheet_gives_a_name_and_fields_in_order() {
        let dicebot = crate::find("DiceBot").expect("DiceBot");
        let read = super::read(
            dicebot,
            "name = \"ミナ\"\n\"知覚\" = 3\nHP = 10\n\"HP.max\" = 12\n",
        )
        .expect("a sheet");
        assert_eq!(read.name, "ミナ");
        assert!(read.fields.contains(&("知覚".into(), "3".into())));
        assert!(read.fields.contains(&("HP.max".into(), "12".into())));
        let err = super::read(dicebot, "\"知覚\" = 3").expect_err("no name");
        assert!(err.ja().contains("name"), "{err:?}");
    }
}
