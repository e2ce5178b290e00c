//! The GM's settings: the digest's "our readings" (FC-1, FC-4, FC-6, FC-11, FC-15), each
//! with its stated default, set by `/fc set KEY VALUE` and listed by `/fc settings`.

use serde::{Deserialize, Serialize};
use taku_dice::Text;

/// Every setting; `Default` is the digest's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// FC-1 `female_modifier`: `exchange` (all or nothing) or `clamp` (each half to 3..7).
    pub female_clamp: bool,
    /// FC-4 `creation_xp_attributes`: starting XP may raise attributes too.
    pub creation_xp_attributes: bool,
    /// FC-6 `total_lv_table`: rows (XP from, LV).
    pub total_lv_table: Vec<(i64, i64)>,
    /// FC-11 `comparison_auto`: `plain` compares roll values only.
    pub comparison_plain: bool,
    /// FC-15 `one_step_per_interlude`.
    pub one_step_per_interlude: bool,
}

/// FC-6, our reading: 10, 30, …, 360 are the thresholds of LV 1..8 (5·n·(n+1)).
pub const LV_THRESHOLDS: &[(i64, i64)] = &[
    (10, 1),
    (30, 2),
    (60, 3),
    (100, 4),
    (150, 5),
    (210, 6),
    (280, 7),
    (360, 8),
];
/// FC-6, the other reading: the numbers are upper bounds.
pub const LV_UPPER_BOUNDS: &[(i64, i64)] = &[
    (0, 1),
    (11, 2),
    (31, 3),
    (61, 4),
    (101, 5),
    (151, 6),
    (211, 7),
    (281, 8),
];
/// FC-6, the third reading: LV 1 from 0 XP, the numbers the thresholds of LV 2..9.
pub const LV_FROM_ZERO: &[(i64, i64)] = &[
    (0, 1),
    (10, 2),
    (30, 3),
    (60, 4),
    (100, 5),
    (150, 6),
    (210, 7),
    (280, 8),
    (360, 9),
];

impl Default for Settings {
    fn default() -> Self {
        Settings {
            female_clamp: false,
            creation_xp_attributes: false,
            total_lv_table: LV_THRESHOLDS.to_vec(),
            comparison_plain: false,
            one_step_per_interlude: false,
        }
    }
}

impl Settings {
    /// FC-6: the highest row reached; 0 below the first.
    pub fn total_lv(&self, xp: i64) -> i64 {
        self.total_lv_table
            .iter()
            .filter(|(from, _)| xp >= *from)
            .map(|(_, lv)| *lv)
            .max()
            .unwrap_or(0)
    }

    /// Applies `KEY VALUE`; `Err` names the keys and values that exist.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Text> {
        // fc7 F1: the refusal names the values that are right.
        let allowed = match key {
            "female_modifier" => ("exchange（既定）か clamp", "exchange (default) or clamp"),
            "comparison_auto" => ("override（既定）か plain", "override (default) or plain"),
            "creation_xp_attributes" | "one_step_per_interlude" => {
                ("on か off（既定 off）", "on or off (default off)")
            }
            _ => (
                "default（既定）・upper_bounds・from_zero、または 経験点:LV の行をコンマで区切り経験点が増える順に（例: 0:1,11:2,31:3）",
                "default, upper_bounds, from_zero, or rows XP:LV separated by commas with XP rising (e.g. 0:1,11:2,31:3)",
            ),
        };
        let bad = || {
            Text::new(
                format!(
                    "設定 {key} に値「{value}」は使えません。使える値: {}",
                    allowed.0
                ),
                format!("setting {key} cannot be '{value}'; it takes {}", allowed.1),
            )
        };
        let on_off = |v: &str| match v {
            "on" | "true" | "yes" => Ok(true),
            "off" | "false" | "no" => Ok(false),
            _ => Err(bad()),
        };
        match key {
            "female_modifier" => {
                self.female_clamp = match value {
                    "exchange" => false,
                    "clamp" => true,
                    _ => return Err(bad()),
                }
            }
            "creation_xp_attributes" => self.creation_xp_attributes = on_off(value)?,
            "comparison_auto" => {
                self.comparison_plain = match value {
                    "override" => false,
                    "plain" => true,
                    _ => return Err(bad()),
                }
            }
            "one_step_per_interlude" => self.one_step_per_interlude = on_off(value)?,
            "total_lv_table" => {
                self.total_lv_table = match value {
                    "default" | "thresholds" => LV_THRESHOLDS.to_vec(),
                    "upper_bounds" => LV_UPPER_BOUNDS.to_vec(),
                    "from_zero" => LV_FROM_ZERO.to_vec(),
                    rows => parse_rows(rows).map_err(|(ja, en)| {
                        Text::new(
                            format!("設定 total_lv_table に値「{value}」は使えません: {ja}"),
                            format!("setting total_lv_table cannot be '{value}': {en}"),
                        )
                    })?,
                }
            }
            _ => {
                return Err(Text::new(
                    format!(
                        "設定「{key}」はありません: female_modifier, creation_xp_attributes, total_lv_table, comparison_auto, one_step_per_interlude"
                    ),
                    format!(
                        "no setting '{key}': female_modifier, creation_xp_attributes, total_lv_table, comparison_auto, one_step_per_interlude"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every setting and its value, as `/fc settings` lists them.
    pub fn describe(&self) -> Text {
        let onoff = |b: bool| if b { "on" } else { "off" };
        let rows: Vec<String> = self
            .total_lv_table
            .iter()
            .map(|(x, l)| format!("{x}:{l}"))
            .collect();
        let body = format!(
            "female_modifier = {}（FC-1、既定 exchange。ほかに clamp）\ncreation_xp_attributes = {}（FC-4、既定 off。ほかに on）\ntotal_lv_table = {}（FC-6、既定 default = 10:1,30:2,…,360:8。ほかに upper_bounds / from_zero / 経験点:LV,…）\ncomparison_auto = {}（FC-11、既定 override。ほかに plain）\none_step_per_interlude = {}（FC-15、既定 off。ほかに on）",
            if self.female_clamp {
                "clamp"
            } else {
                "exchange"
            },
            onoff(self.creation_xp_attributes),
            rows.join(","),
            if self.comparison_plain {
                "plain"
            } else {
                "override"
            },
            onoff(self.one_step_per_interlude),
        );
        let en = body
            .replace("（", " (")
            .replace("）", ")")
            .replace("既定 default", "default: default")
            .replace("既定", "default")
            .replace("。ほかに", "; also")
            .replace("。", "; ")
            .replace("経験点:LV,…", "XP:LV,…")
            .replace("、", ", ");
        Text::new(
            format!("フォーカードの設定:\n{body}\n{}", PLAIN_HELP.0),
            format!("Four Card settings:\n{en}\n{}", PLAIN_HELP.1),
        )
    }
}

/// What `comparison_auto = plain` gives up (fc7 F12): l.197's parenthesis.
pub const PLAIN_HELP: (&str, &str) = (
    "（comparison_auto = plain はロール値だけを比べ、l.197 の括弧書き「2D6の出目が「ともに2だった場合」や「ともに12だった場合」を含む」同値を採りません: ロール値の高い方が勝ちます。1回だけ既定の読み方にするには FC+b VS FC+c#OVERRIDE）",
    "(comparison_auto = plain compares roll values only and drops l.197's parenthesis that both dice 2 or both dice 12 are equal: the higher roll value wins. For one comparison read the default way, FC+b VS FC+c#OVERRIDE)",
);

/// The highest total LV a row may give (FC-6; the seed's table reaches 8).
const MAX_LV: i64 = 1000;

/// `0:1,11:2,…`: rows (XP from, LV), XP strictly rising and LV never falling (FC-6,
/// l.81: total LV follows the XP earned, so more XP is never a lower LV); full-width
/// digits and punctuation are read as ASCII. `Err`: what is wrong and the right form.
fn parse_rows(text: &str) -> Result<Vec<(i64, i64)>, (String, String)> {
    let text: String = text
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            '：' => ':',
            '，' | '、' => ',',
            '－' => '-',
            c => c,
        })
        .collect();
    let mut rows: Vec<(i64, i64)> = Vec::new();
    for row in text.split(',') {
        let parsed = row.split_once(':').and_then(|(x, l)| {
            Some((x.trim().parse::<i64>().ok()?, l.trim().parse::<i64>().ok()?))
        });
        let Some((x, l)) = parsed else {
            return Err((
                format!(
                    "行「{row}」は 経験点:LV ではありません（例: 0:1,11:2,31:3、default・upper_bounds・from_zero も使えます）"
                ),
                format!(
                    "row '{row}' is not XP:LV (e.g. 0:1,11:2,31:3; default, upper_bounds and from_zero also work)"
                ),
            ));
        };
        if x < 0 || !(0..=MAX_LV).contains(&l) {
            return Err((
                format!("行「{row}」: 経験点は0以上、LVは0〜{MAX_LV}です"),
                format!("row '{row}': XP is 0 or more and LV 0..{MAX_LV}"),
            ));
        }
        if let Some(&(px, pl)) = rows.last() {
            if px >= x {
                return Err((
                    format!(
                        "行「{row}」: 経験点は前の行（{px}）より多くしてください（経験点が増える順に並べます）"
                    ),
                    format!(
                        "row '{row}': XP must rise above the row before ({px}); list the rows with XP rising"
                    ),
                ));
            }
            if pl > l {
                return Err((
                    format!(
                        "行「{row}」: LV{l}が前の行のLV{pl}より下がっています。総合LVは獲得経験点で決まり、経験点が増えて下がることはありません（FC-6）"
                    ),
                    format!(
                        "row '{row}': LV {l} falls below the row before's LV {pl}; total LV follows the XP earned and never falls as XP rises (FC-6)"
                    ),
                ));
            }
        }
        rows.push((x, l));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fc6_total_lv_by_the_default_table_and_the_other_readings() {
        let s = Settings::default();
        let lv: Vec<i64> = [9, 15, 29, 30, 59, 60, 100, 360, 500]
            .iter()
            .map(|x| s.total_lv(*x))
            .collect();
        assert_eq!(lv, [0, 1, 1, 2, 2, 3, 4, 8, 8]);
        let mut s = Settings::default();
        s.set("total_lv_table", "upper_bounds").expect("a table");
        assert_eq!(s.total_lv(15), 2);
        s.set("total_lv_table", "from_zero").expect("a table");
        assert_eq!(s.total_lv(15), 2);
        s.set("total_lv_table", "0:1,20:5").expect("rows");
        assert_eq!(s.total_lv(25), 5);
        assert!(s.set("total_lv_table", "20:1,10:2").is_err());
    }
}
