//! FC-5 skills: the GM's skill list (data: the seed gives none) and what learning a
//! training point (TP) or a specialisation costs and allows. FC-15 prices growth the same.

use super::character::{Character, DX, IQ, Item};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::Text;

/// FC-5: TP is at most 9.
pub const MAX_TP: i64 = 9;
/// FC-5: outside a specialised field, skill LV −2.
pub const UNSPECIALISED_PENALTY: i64 = 2;

/// The example list shipped with taku, clearly marked as not official.
pub const EXAMPLE: &str = include_str!("skills-example.toml");

/// One skill as the GM's list defines it (an unknown key is refused, not ignored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    /// Its name (【接近戦】).
    pub name: String,
    /// `IQ` or `DX`.
    pub base: String,
    /// 専門性.
    pub expertise: i64,
    /// `total_lv`: TP at most the total LV.
    #[serde(default)]
    pub cap: Option<String>,
    /// 制限スキル: TP at most that skill's TP.
    #[serde(default)]
    pub limit: Option<String>,
    /// 前提スキル: each must have at least 1 TP first.
    #[serde(default)]
    pub requires: Vec<String>,
    /// Specialisable fields.
    #[serde(default)]
    pub fields: Vec<String>,
    /// XP per extra specialisation.
    #[serde(default)]
    pub field_cost: i64,
    /// Whether an unskilled attempt is possible (attribute ÷ 2).
    #[serde(default = "yes")]
    pub unskilled: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct File {
    skill: Vec<Skill>,
}

/// Reads a skill list in the example's format.
pub fn parse_list(text: &str) -> Result<BTreeMap<String, Skill>, String> {
    let file: File = toml::from_str(text).map_err(|e| e.message().to_string())?;
    let mut out = BTreeMap::new();
    for s in file.skill {
        if s.base != "IQ" && s.base != "DX" {
            return Err(format!("{}: base must be IQ or DX", s.name));
        }
        out.insert(s.name.clone(), s);
    }
    Ok(out)
}

/// The example list.
pub fn example() -> BTreeMap<String, Skill> {
    parse_list(EXAMPLE).expect("the shipped example list parses")
}

/// The example equipment list shipped with taku (FC-3), clearly marked as not official.
pub const ITEMS_EXAMPLE: &str = include_str!("items-example.toml");

/// A data file the GM loads at a table: `[[skill]]` and `[[item]]` entries, TOML (one
/// line with inline tables at a table: `skill = [{name = "料理", base = "IQ",
/// expertise = 1}]`) or JSON (`{"skill": [...], "item": [...]}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    /// FC-5 skills.
    #[serde(default)]
    pub skill: Vec<Skill>,
    /// FC-3 equipment.
    #[serde(default)]
    pub item: Vec<Item>,
}

/// What serde (JSON) or toml said was wrong with a data file, in Japanese and English:
/// the key it names (unknown, missing), the kind of value it wanted, or where the text
/// stopped reading as `format` (`"TOML"`, `"JSON"`). The English is serde's own.
pub(crate) fn data_error(format: &str, message: &str) -> Text {
    let message = message.trim();
    let quoted = |s: &str| -> Vec<String> {
        s.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let ja = if let Some(rest) = message.strip_prefix("unknown field") {
        let keys = quoted(rest);
        match keys.split_first() {
            Some((bad, known)) if !known.is_empty() => format!(
                "未知のキー「{bad}」があります（使えるキー: {}）",
                known.join("・")
            ),
            Some((bad, _)) => format!("未知のキー「{bad}」があります（キーは使えません）"),
            None => "未知のキーがあります".to_string(),
        }
    } else if let Some(rest) = message.strip_prefix("missing field") {
        match quoted(rest).first() {
            Some(k) => format!("キー「{k}」がありません"),
            None => "必要なキーがありません".to_string(),
        }
    } else if message.starts_with("invalid type") || message.starts_with("invalid value") {
        let wanted = message
            .split("expected ")
            .nth(1)
            .unwrap_or("")
            .split(" at line")
            .next()
            .unwrap_or("");
        let kind = if wanted.contains("string") {
            "文字列"
        } else if wanted.contains("integer") || wanted.contains("i64") || wanted.contains("u32") {
            "整数"
        } else if wanted.contains("bool") {
            "true か false"
        } else if wanted.contains("sequence") {
            "配列（[...]）"
        } else if wanted.contains("map") || wanted.contains("struct") {
            "表（{...}）"
        } else {
            "別の値"
        };
        format!("値の型が合いません（{kind}が必要です）")
    } else {
        let column = message
            .rsplit_once("column ")
            .and_then(|(_, c)| c.trim().parse::<u64>().ok());
        match column {
            Some(c) => {
                format!("{format}として読めません（{c}文字目付近。書き方を確かめてください）")
            }
            None => format!("{format}として読めません（括弧・引用符・= を確かめてください）"),
        }
    };
    Text::new(ja, message.to_string())
}

/// Reads a data file (JSON when it starts with `{`, TOML otherwise) and checks each entry.
pub fn parse_data(text: &str) -> Result<Data, Text> {
    let text = text.trim();
    let data: Data = if text.starts_with('{') {
        serde_json::from_str(text).map_err(|e| data_error("JSON", &e.to_string()))?
    } else {
        toml::from_str(text).map_err(|e| data_error("TOML", e.message()))?
    };
    if data.skill.is_empty() && data.item.is_empty() {
        return Err(Text::new(
            "[[skill]] も [[item]] もありません",
            "no [[skill]] or [[item]] entries",
        ));
    }
    if data.skill.len() + data.item.len() > 500 {
        return Err(Text::new(
            "項目が500を超えています",
            "more than 500 entries",
        ));
    }
    for s in &data.skill {
        if !plain_name(&s.name) {
            return Err(Text::new(
                "スキルの名前は、空白・制御文字・見えない文字のない1〜40文字です",
                "a skill needs a name of 1 to 40 characters without spaces, control or invisible characters",
            ));
        }
        if s.base != "IQ" && s.base != "DX" {
            return Err(Text::new(
                format!("【{}】: 基礎は IQ か DX です", s.name),
                format!("{}: base must be IQ or DX", s.name),
            ));
        }
        if !(1..=100).contains(&s.expertise) || !(0..=1000).contains(&s.field_cost) {
            return Err(Text::new(
                format!(
                    "【{}】: 専門性（expertise）は1〜100、特化の経験点（field_cost）は0〜1000です",
                    s.name
                ),
                format!(
                    "{}: expertise must be 1..100 and field_cost 0..1000",
                    s.name
                ),
            ));
        }
        if s.cap.as_deref().is_some_and(|c| c != "total_lv") {
            return Err(Text::new(
                format!("【{}】: cap は \"total_lv\" か、書かないかです", s.name),
                format!("{}: cap must be \"total_lv\" or absent", s.name),
            ));
        }
    }
    for i in &data.item {
        if !plain_name(&i.name) {
            return Err(Text::new(
                "装備の名前は、空白・制御文字・見えない文字のない1〜40文字です",
                "an item needs a name of 1 to 40 characters",
            ));
        }
        if !(0..=100).contains(&i.movement) {
            return Err(Text::new(
                format!(
                    "{}: 移動力修正は0〜100です（FC-3: DX+5から引かれます）",
                    i.name
                ),
                format!(
                    "{}: movement must be 0..100 (FC-3: equipment subtracts from DX + 5)",
                    i.name
                ),
            ));
        }
    }
    Ok(data)
}

/// A name for a skill, field or item: 1 to 40 characters, no spaces, control, bidi or
/// invisible characters (they would forge or hide text in the log).
pub fn plain_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=40).contains(&n)
        && !name.chars().any(|c| {
            c.is_control()
                || c.is_whitespace()
                || matches!(c, '{' | '}' | '\\' | '"')
                || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{FE00}'..='\u{FE0F}' | '\u{3164}' | '\u{115F}' | '\u{1160}')
        })
}

/// FC-5: why a skill definition cannot stand, if it cannot: its names, its expertise
/// (at least 1), and restricting and prerequisite skills that exist (`known`) and are
/// not the skill itself.
pub fn refuse_definition(skill: &Skill, known: &dyn Fn(&str) -> bool) -> Option<Text> {
    let name = &skill.name;
    if !plain_name(name) || skill.fields.iter().any(|f| !plain_name(f)) {
        return Some(Text::new(
            "FC-5: スキル名と分野名は、空白・制御文字・見えない文字のない40文字までの1語にしてください",
            "FC-5: skill and field names are one word of up to 40 characters, without spaces, control or invisible characters",
        ));
    }
    if !(1..=100).contains(&skill.expertise) {
        return Some(Text::new(
            format!(
                "FC-5: 【{name}】の専門性は1〜100で指定してください（{}）",
                skill.expertise
            ),
            format!(
                "FC-5: 【{name}】's expertise must be 1 to 100 (not {})",
                skill.expertise
            ),
        ));
    }
    if !(0..=1000).contains(&skill.field_cost) {
        return Some(Text::new(
            format!("FC-5: 【{name}】の特化の経験点は0〜1000で指定してください"),
            format!("FC-5: 【{name}】's field cost must be 0 to 1000"),
        ));
    }
    for other in skill.requires.iter().chain(skill.limit.iter()) {
        if other == name {
            return Some(Text::new(
                format!("FC-5: 【{name}】は自分自身を前提スキル・制限スキルにできません"),
                format!("FC-5: 【{name}】 cannot be its own prerequisite or restricting skill"),
            ));
        }
        if !known(other) {
            return Some(Text::new(
                format!(
                    "FC-5: 前提スキル・制限スキル【{other}】は一覧にありません。先に定義してください"
                ),
                format!(
                    "FC-5: no skill 【{other}】 in the list to be a prerequisite or restricting skill; define it first"
                ),
            ));
        }
    }
    None
}

/// The example equipment list.
pub fn example_items() -> BTreeMap<String, Item> {
    parse_data(ITEMS_EXAMPLE)
        .expect("the shipped example items parse")
        .item
        .into_iter()
        .map(|i| (i.name.clone(), i))
        .collect()
}

impl Skill {
    /// The attribute index of its base.
    pub fn base_index(&self) -> usize {
        if self.base == "IQ" { IQ } else { DX }
    }
    /// FC-5: skill LV = base attribute + TP; in a field not specialised, −2.
    pub fn level(&self, ch: &Character, field: Option<&str>) -> Option<i64> {
        let learned = ch.skills.get(&self.name).filter(|l| l.tp > 0);
        let attr = ch.attributes()[self.base_index()];
        match learned {
            Some(l) => {
                let lv = attr + l.tp;
                Some(match field {
                    Some(f) if !l.fields.iter().any(|x| x == f) => lv - UNSPECIALISED_PENALTY,
                    _ => lv,
                })
            }
            // FC-9: unskilled, the related attribute ÷ 2 rounded down.
            None if self.unskilled => Some(attr / 2),
            None => None,
        }
    }
}

/// FC-5: the XP of raising from `from` TP to `to` TP, one step at a time, each step
/// expertise × the TP after it: expertise × (from+1 + … + to).
pub fn tp_cost(expertise: i64, from: i64, to: i64) -> i64 {
    (from + 1..=to).map(|tp| expertise * tp).sum()
}

/// FC-5: why `ch` may not raise `skill` to `to` TP (with total LV `total_lv`), if not.
pub fn refuse_raise(
    skill: &Skill,
    ch: &Character,
    to: i64,
    total_lv: i64,
    list: &BTreeMap<String, Skill>,
) -> Option<Text> {
    let tp = |name: &str| ch.skills.get(name).map_or(0, |l| l.tp);
    let name = &skill.name;
    if to > MAX_TP {
        return Some(Text::new(
            format!("FC-5: 【{name}】は{MAX_TP}TPまでです（{to}TPにはできません）"),
            format!("FC-5: 【{name}】 goes up to {MAX_TP} TP at most, not {to}"),
        ));
    }
    if skill.cap.as_deref() == Some("total_lv") && to > total_lv {
        return Some(Text::new(
            format!(
                "FC-5: 【{name}】は総合LVによるスキルキャップがあり、総合LV {total_lv} を超える{to}TPにはできません"
            ),
            format!("FC-5: 【{name}】 is capped by total LV: {to} TP exceeds total LV {total_lv}"),
        ));
    }
    for req in &skill.requires {
        if tp(req) < 1 {
            return Some(Text::new(
                format!("FC-5: 【{name}】の前に前提スキル【{req}】を1TP以上習得してください"),
                format!("FC-5: learn the prerequisite 【{req}】 (at least 1 TP) before 【{name}】"),
            ));
        }
    }
    if let Some(limit) = &skill.limit
        && to > tp(limit)
    {
        return Some(Text::new(
            format!(
                "FC-5: 【{name}】は制限スキル【{limit}】（{}TP）を超えられません",
                tp(limit)
            ),
            format!(
                "FC-5: 【{name}】 cannot exceed its restricting skill 【{limit}】 ({} TP)",
                tp(limit)
            ),
        ));
    }
    let _ = list;
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fc5_costs_step_by_step() {
        assert_eq!(tp_cost(2, 0, 3), 12);
        assert_eq!(tp_cost(1, 0, 5), 15);
        assert_eq!(tp_cost(2, 1, 3), 10);
    }

    #[test]
    fn the_example_list_is_marked_and_parses() {
        assert!(EXAMPLE.contains("NOT the official list"));
        assert!(example().contains_key("接近戦"));
        assert!(ITEMS_EXAMPLE.contains("NOT official"));
        assert!(example_items().keys().all(|k| k.starts_with('例')));
    }

    #[test]
    fn data_reads_one_line_toml_and_json_and_names_what_is_wrong() {
        let d =
            parse_data(r#"skill = [{name = "料理", base = "IQ", expertise = 1}]"#).expect("toml");
        assert_eq!(d.skill[0].name, "料理");
        let d = parse_data(r#"{"item": [{"name": "盾", "movement": 2}]}"#).expect("json");
        assert_eq!(d.item[0].movement, 2);
        assert!(
            parse_data(r#"skill = [{name = "x", base = "ST", expertise = 1}]"#)
                .expect_err("base")
                .en()
                .contains("IQ or DX")
        );
        assert!(parse_data("").is_err());
        assert!(parse_data("{").is_err());
    }
}
