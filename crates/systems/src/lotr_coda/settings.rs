//! The GM's settings: the digest's "our readings" (each with its default) and the tables
//! the seed only cites ("Data the seed lacks"), as GM-editable data. Every table value
//! shipped here is marked an EXAMPLE, not the book's: the GM replaces it with
//! `/lotr table KEY v1,v2,…`; `/lotr set KEY VALUE` switches a reading; `/lotr settings`
//! lists both.

use super::character::HobbitDeath;
use serde::{Deserialize, Serialize};
use taku_dice::Text;

/// Every setting; `Default` is the digest's defaults and the example tables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// LR-4 `hobbit_death`: `overflow` (default) or `on_incapacitated`.
    pub hobbit_death: HobbitDeath,
    /// LR-10 `group_bonus`: `literal` (default) or `marginal_plus_one`.
    pub group_marginal_plus_one: bool,
    /// LR-5 `ignore_weariness_by_test`: off (default).
    pub ignore_weariness_by_test: bool,
    /// LR-8 `multi_field_specialisation`: off (default).
    pub multi_field_specialisation: bool,
    /// LR-6 `courage_return`: `scene` (default: heroic spending comes back at the end of
    /// the scene) or `at_once`.
    pub courage_at_once: bool,
    /// LR-11 `fear_tie`: `marginal` (default) or `retest` (used by fear, LR-14).
    pub fear_tie_retest: bool,
    /// LR-4 wound penalties per level, Healthy to Near Death (EXAMPLE values).
    pub wound_penalties: Vec<i64>,
    /// LR-4 Table 9.36: Stamina TN of the weekly healing test per level (EXAMPLE).
    pub stamina_tns: Vec<i64>,
    /// LR-4 Table 9.37: Healing TN per level (EXAMPLE).
    pub healing_tns: Vec<i64>,
    /// LR-5 Table 9.39: weariness level names (EXAMPLE), the last is Exhausted.
    pub weariness_levels: Vec<String>,
    /// LR-5: the penalty of each weariness level (EXAMPLE).
    pub weariness_penalties: Vec<i64>,
    /// LR-3 Table 2.3: recognition TNs by origin (seed: local 5, area 10; the rest
    /// EXAMPLE).
    pub recognition_tns: Vec<(String, i64)>,
    /// LR-3 Table 2.3: the TN modifier for a shared race or order (EXAMPLE).
    pub recognition_shared: i64,
    /// LR-1: skills counting against the language budget (default: Language, Lore:
    /// Realm, Lore: History, Lore: Heraldry, by name prefix).
    pub language_skills: Vec<String>,
    /// LR-5 Table 9.39: minutes of rest that take a character from each weariness level
    /// to the one below (EXAMPLE; the first, fresh, and the last, Exhausted, are unused:
    /// Exhausted needs the recovery test).
    #[serde(default = "default_recovery")]
    pub weariness_recovery: Vec<i64>,
    /// LR-4 医術: how an infected wound heals after the doctor's Healing test, by its
    /// degree from Disastrous Failure to Extraordinary Success: `day` (a point a day, as
    /// usual), `week` (a point a week) or `none` (EXAMPLE; the mapping is the GM's).
    #[serde(default = "default_infection")]
    pub infection_rates: Vec<String>,
}

fn default_recovery() -> Vec<i64> {
    vec![0, 5, 30, 60, 240, 0]
}

fn default_infection() -> Vec<String> {
    ["none", "none", "week", "day", "day", "day", "day"]
        .map(String::from)
        .to_vec()
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hobbit_death: HobbitDeath::Overflow,
            group_marginal_plus_one: false,
            ignore_weariness_by_test: false,
            multi_field_specialisation: false,
            courage_at_once: false,
            fear_tie_retest: false,
            wound_penalties: vec![0, -1, -2, -4, -8, -10],
            stamina_tns: vec![5, 5, 10, 15, 20, 25],
            healing_tns: vec![5, 5, 10, 15, 20, 25],
            weariness_levels: ["Hale", "Winded", "Tired", "Weary", "Spent", "Exhausted"]
                .map(String::from)
                .to_vec(),
            weariness_penalties: vec![0, -1, -3, -5, -7, -9],
            recognition_tns: vec![
                ("local".into(), 5),
                ("area".into(), 10),
                ("region".into(), 15),
                ("distant".into(), 20),
            ],
            recognition_shared: -2,
            language_skills: ["Language", "Lore: Realm", "Lore: History", "Lore: Heraldry"]
                .map(String::from)
                .to_vec(),
            weariness_recovery: default_recovery(),
            infection_rates: default_infection(),
        }
    }
}

/// LR-5: the weariness a character recovers from a helper's Healing test on the
/// Exhausted recovery test's TN 10: Marginal −3, Complete −5, Superior −10
/// (Extraordinary: Spent at once).
pub const EXHAUSTED_TN: i64 = 10;
/// LR-5: the Exhausted recovery test's penalty.
pub const EXHAUSTED_PENALTY: i64 = -10;

/// The values each on/off or named GM option takes (`/lotr set KEY VALUE`), for the
/// refusal of any other.
const VALUES: &[(&str, &str)] = &[
    ("hobbit_death", "overflow | on_incapacitated"),
    ("group_bonus", "literal | marginal_plus_one"),
    ("ignore_weariness_by_test", "on | off"),
    ("multi_field_specialisation", "on | off"),
    ("courage_return", "scene | at_once"),
    ("fear_tie", "marginal | retest"),
    ("stun_reduction", "on | off"),
    ("mounted_dodge_size", "on | off"),
    ("battle_siegecraft", "on | off"),
    ("morale_bonus", "off | damage | defence"),
    ("protection", "per_hit | pool"),
    ("xp_timing", "per_scenario | per_test"),
    ("flaw_picks", "six_instead | six_more"),
];

/// The refusal of `value` for GM option `key`, naming the values it takes; `rule` (say
/// `"LR-12: "`) heads it.
pub(super) fn bad_value(rule: &str, key: &str, value: &str) -> Text {
    let values = VALUES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("/lotr settings", |(_, v)| v);
    Text::new(
        format!("{rule}設定 {key} に「{value}」は使えません（使える値: {values}）"),
        format!("{rule}setting {key} cannot be '{value}' (it takes {values})"),
    )
}

fn bad(key: &str, value: &str) -> Text {
    bad_value("", key, value)
}

/// An example value of a number table, as its error shows it.
fn example(key: &str) -> &'static str {
    match key {
        "wound_penalties" => "0,-1,-2,-4,-8,-10",
        "stamina_tns" | "healing_tns" => "5,5,10,15,20,25",
        "weariness_penalties" => "0,-1,-3,-5,-7,-9",
        "weariness_recovery" => "0,5,30,60,240,0",
        _ => "-2",
    }
}

fn numbers(key: &str, value: &str, len: Option<usize>) -> Result<Vec<i64>, Text> {
    let v: Option<Vec<i64>> = value
        .split(',')
        .map(|x| x.trim().parse::<i64>().ok().filter(|n| n.abs() <= 1000))
        .collect();
    match v {
        Some(v) if len.is_none_or(|l| v.len() == l) && !v.is_empty() => Ok(v),
        _ => Err(Text::new(
            format!(
                "表 {key} には{}個の整数をカンマ区切りで書いてください（例: {}）",
                len.map_or("1".to_string(), |l| l.to_string()),
                example(key)
            ),
            format!(
                "table {key} takes {} whole numbers separated by commas (e.g. {})",
                len.map_or("some".to_string(), |l| l.to_string()),
                example(key)
            ),
        )),
    }
}

impl Settings {
    /// Applies `KEY VALUE` (a reading); `Err` names the keys and values that exist.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Text> {
        let on_off = |v: &str| match v {
            "on" | "true" | "yes" => Ok(true),
            "off" | "false" | "no" => Ok(false),
            _ => Err(bad(key, value)),
        };
        match key {
            "hobbit_death" => {
                self.hobbit_death = match value {
                    "overflow" => HobbitDeath::Overflow,
                    "on_incapacitated" => HobbitDeath::OnIncapacitated,
                    _ => return Err(bad(key, value)),
                }
            }
            "group_bonus" => {
                self.group_marginal_plus_one = match value {
                    "literal" => false,
                    "marginal_plus_one" => true,
                    _ => return Err(bad(key, value)),
                }
            }
            "ignore_weariness_by_test" => self.ignore_weariness_by_test = on_off(value)?,
            "multi_field_specialisation" => self.multi_field_specialisation = on_off(value)?,
            "courage_return" => {
                self.courage_at_once = match value {
                    "scene" => false,
                    "at_once" => true,
                    _ => return Err(bad(key, value)),
                }
            }
            "fear_tie" => {
                self.fear_tie_retest = match value {
                    "marginal" => false,
                    "retest" => true,
                    _ => return Err(bad(key, value)),
                }
            }
            _ => {
                return Err(Text::new(
                    format!(
                        "設定「{key}」はありません: hobbit_death, group_bonus, ignore_weariness_by_test, multi_field_specialisation, courage_return, fear_tie, stun_reduction, mounted_dodge_size, battle_siegecraft, morale_bonus, protection, xp_timing, flaw_picks（表は /lotr table、一覧と値は /lotr settings）"
                    ),
                    format!(
                        "no setting '{key}': hobbit_death, group_bonus, ignore_weariness_by_test, multi_field_specialisation, courage_return, fear_tie, stun_reduction, mounted_dodge_size, battle_siegecraft, morale_bonus, protection, xp_timing, flaw_picks (tables: /lotr table; values: /lotr settings)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Replaces a table: `wound_penalties`, `stamina_tns`, `healing_tns` (six numbers,
    /// Healthy to Near Death), `weariness_penalties` (one per level),
    /// `weariness_levels` (names), `recognition_tns` (`origin:TN,…`),
    /// `recognition_shared` (one number), `language_skills` (names).
    pub fn set_table(&mut self, key: &str, value: &str) -> Result<(), Text> {
        match key {
            "wound_penalties" => self.wound_penalties = numbers(key, value, Some(6))?,
            "stamina_tns" => self.stamina_tns = numbers(key, value, Some(6))?,
            "healing_tns" => self.healing_tns = numbers(key, value, Some(6))?,
            "weariness_penalties" => {
                self.weariness_penalties = numbers(key, value, Some(self.weariness_levels.len()))?
            }
            "weariness_levels" => {
                // `Hale,Winded,…` renames the levels (as many as there are); a different
                // number of levels comes with each one's penalty and recovery minutes,
                // `NAME:PENALTY:MINUTES`, so that no other table is rewritten silently.
                let rows: Vec<&str> = value
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect();
                if rows.len() < 2 || rows.len() > 20 {
                    return Err(bad(key, value));
                }
                let full: Option<Vec<(String, i64, i64)>> = rows
                    .iter()
                    .map(|r| {
                        let mut it = r.split(':');
                        let name = it.next()?.trim().to_string();
                        let p = it.next()?.trim().parse::<i64>().ok()?;
                        let m = it.next()?.trim().parse::<i64>().ok()?;
                        (it.next().is_none()
                            && !name.is_empty()
                            && p.abs() <= 1000
                            && (0..=100_000).contains(&m))
                        .then_some((name, p, m))
                    })
                    .collect();
                if let Some(full) = full {
                    self.weariness_levels = full.iter().map(|r| r.0.clone()).collect();
                    self.weariness_penalties = full.iter().map(|r| r.1).collect();
                    self.weariness_recovery = full.iter().map(|r| r.2).collect();
                } else if rows.len() == self.weariness_levels.len()
                    && rows.iter().all(|r| !r.contains(':'))
                {
                    self.weariness_levels = rows.iter().map(|r| r.to_string()).collect();
                } else {
                    return Err(Text::new(
                        format!(
                            "表 weariness_levels: 名前だけなら今と同じ{}個です。段階の数を変えるときは各段階を 名前:ペナルティ:回復分数 で書いてください（例: Hale:0:0,Winded:-1:5,Tired:-3:30,Exhausted:-9:0）",
                            self.weariness_levels.len()
                        ),
                        format!(
                            "table weariness_levels: names alone must be as many as now ({}); to change the number of levels write each as NAME:PENALTY:MINUTES (e.g. Hale:0:0,Winded:-1:5,Tired:-3:30,Exhausted:-9:0)",
                            self.weariness_levels.len()
                        ),
                    ));
                }
            }
            "recognition_tns" => {
                let rows: Option<Vec<(String, i64)>> = value
                    .split(',')
                    .map(|row| {
                        let (o, t) = row.split_once(':')?;
                        Some((o.trim().to_string(), t.trim().parse().ok()?))
                    })
                    .collect();
                self.recognition_tns = rows
                    .filter(|r| !r.is_empty())
                    .ok_or_else(|| bad(key, value))?;
            }
            "recognition_shared" => self.recognition_shared = numbers(key, value, Some(1))?[0],
            "weariness_recovery" => {
                let v = numbers(key, value, Some(self.weariness_levels.len()))?;
                if v.iter().any(|m| *m < 0) {
                    return Err(bad(key, value));
                }
                self.weariness_recovery = v;
            }
            "infection_rates" => {
                let v: Vec<String> = value.split(',').map(|x| x.trim().to_string()).collect();
                if v.len() != 7
                    || v.iter()
                        .any(|r| !matches!(r.as_str(), "day" | "week" | "none"))
                {
                    return Err(Text::new(
                        format!(
                            "表 infection_rates には成功度ごと（Disastrous Failure〜Extraordinary Success）に day・week・none を7つ書いてください（「{value}」は不可）"
                        ),
                        format!(
                            "table infection_rates takes seven of day, week, none, one per degree from Disastrous Failure to Extraordinary Success (not '{value}')"
                        ),
                    ));
                }
                self.infection_rates = v;
            }
            "language_skills" => {
                self.language_skills = value
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            }
            _ => {
                return Err(Text::new(
                    format!(
                        "表「{key}」はありません: wound_penalties, stamina_tns, healing_tns, weariness_levels, weariness_penalties, recognition_tns, recognition_shared, language_skills, weariness_recovery, infection_rates"
                    ),
                    format!(
                        "no table '{key}': wound_penalties, stamina_tns, healing_tns, weariness_levels, weariness_penalties, recognition_tns, recognition_shared, language_skills, weariness_recovery, infection_rates"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every setting and table, as `/lotr settings` lists them.
    pub fn describe(&self) -> Text {
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let onoff = |b: bool| if b { "on" } else { "off" };
        let rec: Vec<String> = self
            .recognition_tns
            .iter()
            .map(|(o, t)| format!("{o}:{t}"))
            .collect();
        let body = |default: &str, example: &str| {
            format!(
                "hobbit_death = {} (LR-4: overflow | on_incapacitated, {default} overflow)\ngroup_bonus = {} (LR-10: literal | marginal_plus_one, {default} literal)\nignore_weariness_by_test = {} (LR-5: off | on, {default} off)\nmulti_field_specialisation = {} (LR-8: off | on, {default} off)\ncourage_return = {} (LR-6: scene | at_once, {default} scene)\nfear_tie = {} (LR-11: marginal | retest, {default} marginal)\n{example}:\nwound_penalties = {} (LR-4, Healthy..Near Death)\nstamina_tns = {} (LR-4 Table 9.36)\nhealing_tns = {} (LR-4 Table 9.37)\nweariness_levels = {} (LR-5 Table 9.39)\nweariness_penalties = {}\nrecognition_tns = {} (LR-3 Table 2.3; local 5, area 10 from the seed)\nrecognition_shared = {}\nlanguage_skills = {} (LR-1)\nweariness_recovery = {} (LR-5 Table 9.39, minutes from each level to the one below)\ninfection_rates = {} (LR-4 医術, by the doctor's degree, Disastrous..Extraordinary)",
                match self.hobbit_death {
                    HobbitDeath::Overflow => "overflow",
                    HobbitDeath::OnIncapacitated => "on_incapacitated",
                },
                if self.group_marginal_plus_one {
                    "marginal_plus_one"
                } else {
                    "literal"
                },
                onoff(self.ignore_weariness_by_test),
                onoff(self.multi_field_specialisation),
                if self.courage_at_once {
                    "at_once"
                } else {
                    "scene"
                },
                if self.fear_tie_retest {
                    "retest"
                } else {
                    "marginal"
                },
                list(&self.wound_penalties),
                list(&self.stamina_tns),
                list(&self.healing_tns),
                self.weariness_levels.join(","),
                list(&self.weariness_penalties),
                rec.join(","),
                self.recognition_shared,
                self.language_skills.join(","),
                list(&self.weariness_recovery),
                self.infection_rates.join(","),
            )
        };
        Text::new(
            format!(
                "ロード・オブ・ザ・リングの設定:\n{}",
                // The table notes in Japanese on a Japanese table.
                [
                    ("Healthy..Near Death", "負傷段階 Healthy〜Near Death の順"),
                    (
                        "; local 5, area 10 from the seed",
                        "。local 5, area 10 はシードの値"
                    ),
                    (
                        ", minutes from each level to the one below",
                        "、各段階から一つ下の段階までの分数"
                    ),
                    (
                        ", by the doctor's degree, Disastrous..Extraordinary",
                        "、医者の成功度 Disastrous〜Extraordinary の順"
                    ),
                ]
                .iter()
                .fold(
                    body(
                        "既定",
                        "表（既定値は例であり公式の値ではありません。/lotr table で変更）"
                    ),
                    |text, (en, ja)| text.replace(en, ja)
                )
            ),
            format!(
                "The Lord of the Rings settings:\n{}",
                body(
                    "default",
                    "tables (the defaults are EXAMPLES, not the book's values; /lotr table changes them)"
                )
            ),
        )
    }

    /// LR-4: the penalty of a wound level (Dead: the worst).
    pub fn wound_penalty(&self, level: usize) -> i64 {
        self.wound_penalties
            .get(level)
            .or(self.wound_penalties.last())
            .copied()
            .unwrap_or(0)
    }

    /// LR-5: the penalty of a weariness level.
    pub fn weariness_penalty(&self, level: usize) -> i64 {
        self.weariness_penalties
            .get(level)
            .or(self.weariness_penalties.last())
            .copied()
            .unwrap_or(0)
    }

    /// LR-5: the name of a weariness level.
    pub fn weariness_name(&self, level: usize) -> &str {
        self.weariness_levels
            .get(level)
            .or(self.weariness_levels.last())
            .map_or("?", String::as_str)
    }

    /// LR-5: the Exhausted level (the last).
    pub fn exhausted(&self) -> usize {
        self.weariness_levels.len().saturating_sub(1)
    }

    /// LR-1: whether a skill counts against the language budget.
    pub fn is_language(&self, skill: &str) -> bool {
        self.language_skills
            .iter()
            .any(|p| skill.starts_with(p.as_str()))
    }
}

impl Settings {
    /// LR-5 Table 9.39: the minutes of rest from weariness level `level` to the one below.
    pub fn recovery_minutes(&self, level: usize) -> i64 {
        self.weariness_recovery
            .get(level)
            .or(self.weariness_recovery.last())
            .copied()
            .unwrap_or(0)
    }

    /// LR-4 医術: how an infected wound heals after a doctor's test of degree `d`.
    pub fn infection_rate(&self, d: super::check::Degree) -> &str {
        let i = super::check::Degree::ALL
            .iter()
            .position(|x| *x == d)
            .unwrap_or(0);
        self.infection_rates.get(i).map_or("day", String::as_str)
    }
}
