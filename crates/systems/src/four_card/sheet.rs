//! Four Card character sheets (TOML, `example-sheet.toml`): read, derived (FC-2, FC-3,
//! FC-5, FC-6, FC-10) and checked against the rules, for `taku sheet --system FourCard`
//! and for creating a character at a table from the same file.

use super::character::{ATTRIBUTES, Character, Sex};
use super::rules::{State, sheet_sections};
use super::skills::{self, MAX_TP};
use crate::view::Sheet as View;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::Lang;

/// A skill on a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetSkill {
    /// TP.
    pub tp: i64,
    /// Specialised fields, the first free.
    #[serde(default)]
    pub fields: Vec<String>,
}

/// A sheet as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct Sheet {
    /// Name.
    pub name: String,
    /// `male` or `female`.
    pub sex: String,
    /// Initial attributes (after the sex modifier).
    pub IQ: i64,
    /// See [`Sheet::IQ`].
    pub DX: i64,
    /// See [`Sheet::IQ`].
    pub ST: i64,
    /// See [`Sheet::IQ`].
    pub WP: i64,
    /// See [`Sheet::IQ`].
    pub VT: i64,
    /// FC-4.
    #[serde(default)]
    pub extra_xp: i64,
    /// Every XP earned; default 15 + extra.
    #[serde(default)]
    pub xp: Option<i64>,
    /// XP not yet spent.
    #[serde(default)]
    pub unspent_xp: i64,
    /// FC-3: a bare movement modifier.
    #[serde(default)]
    pub equipment: i64,
    /// FC-3: items from the equipment list (their movement modifiers add up).
    #[serde(default)]
    pub items: Vec<String>,
    /// FC-7.
    #[serde(default)]
    pub hand: String,
    /// FC-8.
    #[serde(default)]
    pub money: i64,
    /// FC-5.
    #[serde(default)]
    pub skills: BTreeMap<String, SheetSkill>,
}

/// A rule the sheet breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule.
    pub rule: &'static str,
    /// What is wrong, in Japanese.
    pub message: String,
    /// In English.
    pub message_en: String,
}

impl Sheet {
    /// Parses the TOML.
    pub fn from_toml(text: &str) -> Result<Sheet, taku_dice::Text> {
        toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|sp| text[..sp.start.min(text.len())].matches('\n').count() + 1);
            let m = e.message();
            let why = skills::data_error("TOML", m);
            // fc7 F6, fc8 F9: the reader's own words (a type name, a bare non-ASCII key
            // such as `スキル.知覚`, an unknown `スキル` table) say nothing to the sheet's
            // writer; say the form a skill takes.
            let skill_form = m.contains("SheetSkill")
                || m.contains("unquoted key")
                || m.contains("`スキル`")
                || m.contains("`特化`");
            let (hint_ja, hint_en) = if skill_form {
                (
                    "。スキルは [skills.\"知覚\"] の下に tp = 5（分野は fields = [\"剣\"]）と書きます",
                    "; a skill is a table with its TP: [skills.\"知覚\"] tp = 5 (fields = [\"剣\"])",
                )
            } else {
                ("", "")
            };
            let at_ja = line.map(|l| format!("{l}行目: ")).unwrap_or_default();
            let at_en = line.map(|l| format!("line {l}: ")).unwrap_or_default();
            taku_dice::Text::new(
                format!("{at_ja}{}{hint_ja}（name・sex・IQ・DX・ST・WP・VT が必要です）", why.ja()),
                format!(
                    "{at_en}{}{hint_en} (a sheet needs name, sex, IQ, DX, ST, WP, VT)",
                    m.trim().replace("struct SheetSkill", "a table")
                ),
            )
        })
    }

    /// The rules-side record it describes.
    pub fn character(&self) -> Character {
        let sex = Sex::parse(&self.sex).unwrap_or(Sex::Male);
        let mut ch = Character::new(
            sex,
            [self.IQ, self.DX, self.ST, self.WP, self.VT],
            self.extra_xp,
        );
        if let Some(xp) = self.xp {
            ch.xp_earned = xp;
        }
        ch.xp_spent = ch.xp_earned - self.unspent_xp;
        ch.creating = false;
        ch.equipment = self.equipment;
        ch.items = self.items.clone();
        ch.hand = super::character::sheet_hand(&self.hand);
        ch.money = self.money;
        for (n, s) in &self.skills {
            let l = ch.skills.entry(n.clone()).or_default();
            l.tp = s.tp;
            l.fields = s.fields.clone();
        }
        ch
    }

    /// Every rule it breaks, against the example skill list.
    pub fn violations(&self) -> Vec<Violation> {
        let state = State::default();
        let ch = self.character();
        let mut v = Vec::new();
        let mut push = |rule, ja: String, en: String| {
            v.push(Violation {
                rule,
                message: ja,
                message_en: en,
            })
        };
        if Sex::parse(&self.sex).is_none() {
            push(
                "FC-1",
                format!("性別「{}」は male か female", self.sex),
                format!("sex '{}' must be male or female", self.sex),
            );
        }
        for (a, value) in ATTRIBUTES.iter().zip(ch.initial) {
            if !(3..=7).contains(&value) {
                push(
                    "FC-1",
                    format!("{a} {value} は3〜7の範囲外"),
                    format!("{a} {value} is outside 3..7"),
                );
            }
        }
        if let Some((ja, en)) =
            super::character::female_unreachable(ch.initial, ch.sex, &state.settings)
        {
            push("FC-1", ja, en);
        }
        if let Some((ja, en)) = super::character::hand_violation(&ch.hand) {
            push("FC-7", ja, en);
        }
        let lv = ch.total_lv(&state.settings);
        let mut cost = 0;
        for (name, s) in &self.skills {
            if !(0..=MAX_TP).contains(&s.tp) {
                push(
                    "FC-5",
                    format!("【{name}】{}TP は0〜9の範囲外", s.tp),
                    format!("【{name}】 {} TP is outside 0..9", s.tp),
                );
                // fc7 F6: its XP is still checked, as for the most it could hold (as
                // `/fc approve` counts it), so one violation does not hide another.
                if let Some(skill) = state.skills.get(name) {
                    cost += skills::tp_cost(skill.expertise, 0, s.tp.clamp(0, MAX_TP));
                }
                continue;
            }
            let Some(skill) = state.skills.get(name) else {
                continue;
            };
            if let Some(why) = skills::refuse_raise(skill, &ch, s.tp, lv, &state.skills) {
                // The rule is named once, by the violation.
                let strip = |t: &str| t.strip_prefix("FC-5: ").unwrap_or(t).to_string();
                push("FC-5", strip(why.ja()), strip(why.en()));
            }
            for f in &s.fields {
                if !skill.fields.contains(f) {
                    push(
                        "FC-5",
                        format!("【{name}】に分野【{f}】はない"),
                        format!("【{name}】 has no field 【{f}】"),
                    );
                }
            }
            cost += skills::tp_cost(skill.expertise, 0, s.tp)
                + skill.field_cost * (s.fields.len() as i64 - 1).max(0);
        }
        if cost > ch.xp_spent {
            push(
                "FC-4",
                format!(
                    "スキルに経験点{cost}が必要だが、使える経験点は{}（獲得{}−未使用{}）",
                    ch.xp_spent, ch.xp_earned, self.unspent_xp
                ),
                format!(
                    "the skills cost {cost} XP but only {} was spent ({} earned − {} unspent)",
                    ch.xp_spent, ch.xp_earned, self.unspent_xp
                ),
            );
        }
        if let Some((ja, en)) = ch.money_violation(self.extra_xp) {
            push("FC-8", ja, en);
        }
        v
    }

    /// Skills the example list does not know (their costs and caps are not checked).
    pub fn unknown_skills(&self) -> Vec<String> {
        let state = State::default();
        self.skills
            .keys()
            .filter(|n| !state.skills.contains_key(*n))
            .cloned()
            .collect()
    }

    /// Its derived sheet.
    pub fn view(&self) -> View {
        View {
            sections: sheet_sections(&State::default(), &self.character()),
        }
    }

    /// The sheet, derived values and violations as text.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = format!("{}\n{}\n", self.name, self.view().render_text(lang));
        for n in self.unknown_skills() {
            out.push_str(&match lang {
                Lang::Ja => {
                    format!("注意: 【{n}】は例のスキル一覧になく、経験点を確かめていません\n")
                }
                Lang::En => format!(
                    "note: 【{n}】 is not in the example skill list; its cost is not checked\n"
                ),
            });
        }
        let v = self.violations();
        if v.is_empty() {
            out.push_str(match lang {
                Lang::Ja => "ルール違反なし\n",
                Lang::En => "no rule broken\n",
            });
        }
        for x in v {
            let m = match lang {
                Lang::Ja => &x.message,
                Lang::En => &x.message_en,
            };
            out.push_str(&format!("違反 {}: {m}\n", x.rule));
        }
        out
    }

    /// As JSON: the sheet, its derived sections and its violations.
    pub fn report(&self, lang: Lang) -> serde_json::Value {
        serde_json::json!({
            "sheet": self,
            "derived": self.view().to_json(lang),
            "unknown_skills": self.unknown_skills(),
            "violations": self.violations(),
        })
    }

    /// The fields a table's character gets (read back by the rules, FC-9's references).
    pub fn fields(&self) -> Vec<(String, String)> {
        let mut f: Vec<(String, String)> = ATTRIBUTES
            .iter()
            .zip([self.IQ, self.DX, self.ST, self.WP, self.VT])
            .map(|(a, v)| (a.to_string(), v.to_string()))
            .collect();
        let ch = self.character();
        f.push(("性別".into(), ch.sex.ja().into()));
        f.push(("追加初期経験点".into(), self.extra_xp.to_string()));
        // The sheet's proposal of XP and money, for the GM's approval (FC-1/FC-4):
        // 経験点, 未使用経験点 and 所持金 are the rules' own from then on.
        f.push(("xp".into(), ch.xp_earned.to_string()));
        f.push(("unspent_xp".into(), self.unspent_xp.to_string()));
        f.push(("移動力修正".into(), self.equipment.to_string()));
        if !self.items.is_empty() {
            f.push(("装備".into(), self.items.join(",")));
        }
        if !self.hand.is_empty() {
            f.push(("利き腕".into(), self.hand.clone()));
        }
        f.push(("money".into(), self.money.to_string()));
        for (n, s) in &self.skills {
            f.push((format!("スキル.{n}"), s.tp.to_string()));
            if !s.fields.is_empty() {
                f.push((format!("特化.{n}"), s.fields.join(",")));
            }
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("example-sheet.toml");

    #[test]
    fn the_example_sheet_is_valid_and_derived() {
        let s = Sheet::from_toml(EXAMPLE).expect("parses");
        assert!(s.violations().is_empty(), "{:?}", s.violations());
        let text = s.render(Lang::Ja);
        // ST 4, WP 6, VT 5: 13 / 25 / 35; DX 6 − 1: movement 10; 接近戦 DX 6 + 2 TP.
        assert!(text.contains("衰弱ライン: 13/13"), "{text}");
        assert!(text.contains("死亡ライン: 35/35"), "{text}");
        assert!(text.contains("移動力: 10"), "{text}");
        assert!(text.contains("【接近戦】LV8"), "{text}");
    }

    #[test]
    fn broken_sheets_name_the_rule() {
        let s = Sheet::from_toml(
            &EXAMPLE
                .replace("IQ = 5", "IQ = 9")
                .replace("tp = 3", "tp = 5"),
        )
        .expect("parses");
        let rules: Vec<&str> = s.violations().iter().map(|v| v.rule).collect();
        // IQ out of range; 2+4 (接近戦 2 TP) + 2 (a field) + 15 (知覚 5 TP) > 15.
        assert_eq!(rules, ["FC-1", "FC-4"], "{:?}", s.violations());
    }
}
