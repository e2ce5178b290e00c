//! FC-5 skills: the GM's skill list (data: the seed gives none) and what learning a
//! training point (TP) or a specialisation costs and allows. FC-15 prices growth the same.

use super::character::{Character, DX, IQ};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::Text;

/// FC-5: TP is at most 9.
pub const MAX_TP: i64 = 9;
/// FC-5: outside a specialised field, skill LV −2.
pub const UNSPECIALISED_PENALTY: i64 = 2;

/// The example list shipped with taku, clearly marked as not official.
pub const EXAMPLE: &str = include_str!("skills-example.toml");

/// One skill as the GM's list defines it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    }
}
