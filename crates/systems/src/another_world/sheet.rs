//! Character sheets (キャラクターシート): the values the rules name, read from TOML.
//!
//! A sheet holds a character's name, whether it is a PC or an NPC, the five abilities
//! 【理知】【知覚】【反射】【体力】【幸運】, 【行動値】, 【HP】 and 【MP】, the event keys it
//! holds (AW-6), its contract (master and servants, AW-5) and the command spells left
//! (AW-5). Reading a sheet only checks its shape (keys and types); whether the values obey
//! the rules is [`Sheet::violations`], so a sheet that breaks a rule can still be shown with
//! everything that is wrong with it. Derived values (AW-3's moves) are computed, never
//! stored. TOML allows only ASCII in bare keys, so the Japanese keys are quoted.
//!
//! ```toml
//! name = "アリス"
//! kind = "PC"            # or "NPC"
//! "理知" = 3
//! "知覚" = 2
//! "反射" = 4
//! "体力" = 2
//! "幸運" = 1
//! "行動値" = 9
//! HP = 20
//! MP = 15
//! keys = ["古い鍵"]      # event keys (AW-6), PCs only
//! master = "ボブ"        # optional (AW-5)
//! servants = ["キャロル"]
//! spells = 3             # command spells left, 0 to 3 (default 3)
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use taku_dice::{Lang, Text};

/// AW-5: a master may use command spells 3 times per scenario; they refill to this.
pub const MAX_SPELLS: i64 = super::contracts::SPELLS as i64;

/// The keys of the five abilities, in the rulebook's order.
pub const ABILITIES: [&str; 5] = ["理知", "知覚", "反射", "体力", "幸運"];

/// Every key a sheet may have, in the order [`Sheet::render`] shows them.
pub const SHEET_KEYS: [&str; 14] = [
    "name",
    "kind",
    "理知",
    "知覚",
    "反射",
    "体力",
    "幸運",
    "行動値",
    "HP",
    "MP",
    "keys",
    "master",
    "servants",
    "spells",
];

/// One character's sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// The character's name: what contracts and event keys refer to.
    pub name: String,
    /// PC or NPC.
    pub kind: Kind,
    /// 【理知】.
    #[serde(rename = "理知")]
    pub intellect: i64,
    /// 【知覚】.
    #[serde(rename = "知覚")]
    pub perception: i64,
    /// 【反射】.
    #[serde(rename = "反射")]
    pub reflex: i64,
    /// 【体力】.
    #[serde(rename = "体力")]
    pub stamina: i64,
    /// 【幸運】.
    #[serde(rename = "幸運")]
    pub luck: i64,
    /// 【行動値】: initiative order and move distances (AW-3).
    #[serde(rename = "行動値")]
    pub action: i64,
    /// 【HP】.
    #[serde(rename = "HP")]
    pub hp: i64,
    /// 【MP】.
    #[serde(rename = "MP")]
    pub mp: i64,
    /// Event keys held (AW-6).
    #[serde(default)]
    pub keys: Vec<String>,
    /// The character's master, if it is a servant (AW-5).
    #[serde(default)]
    pub master: Option<String>,
    /// The character's servants (AW-5).
    #[serde(default)]
    pub servants: Vec<String>,
    /// Command spells left this scenario (AW-5); kept as written so that a value out of
    /// range is reported as a violation rather than refused as unreadable.
    #[serde(default = "max_spells")]
    pub spells: i64,
}

/// Whether a character is a player's or the GM's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    /// A player character.
    #[serde(rename = "PC", alias = "pc")]
    Pc,
    /// A non-player character.
    #[serde(rename = "NPC", alias = "npc")]
    Npc,
}

/// Values computed from a sheet (AW-3), in metres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Derived {
    /// 戦闘移動: 【行動値】+5 m.
    pub combat_move: i64,
    /// 全力移動: twice the combat move.
    pub full_move: i64,
}

/// One way a sheet breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule broken, e.g. `AW-5`.
    pub rule: &'static str,
    /// The sheet key holding the wrong value.
    pub field: &'static str,
    /// What is wrong, in Japanese.
    pub message: String,
    /// The same in English.
    pub message_en: String,
}

/// A sheet with its derived values and violations: what `taku sheet --json` prints.
#[derive(Debug, Clone, Serialize)]
pub struct SheetReport<'a> {
    /// The sheet as read.
    pub sheet: &'a Sheet,
    /// Its derived values.
    pub derived: Derived,
    /// Every rule it breaks; empty when it obeys them all.
    pub violations: Vec<Violation>,
}

/// Why a text could not be read as a sheet: bad TOML, an unknown or missing key, or a
/// value of the wrong type. The sheet's rules are not checked here ([`Sheet::violations`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetError {
    /// Line of the fault (from 1), when it has a place in the text.
    pub line: Option<usize>,
    /// Column of the fault in characters (from 1), with `line`.
    pub column: Option<usize>,
    /// The text of that line, trimmed.
    pub text: Option<String>,
    /// What is wrong and, where it can tell, what would be right.
    pub message: String,
    /// The same in Japanese.
    pub message_ja: String,
}

impl SheetError {
    /// The error in Japanese and English.
    pub fn text(&self) -> Text {
        let place_ja = match (self.line, self.column) {
            (Some(line), Some(column)) => format!(
                "{line}行目{column}文字目{}: ",
                self.text
                    .as_deref()
                    .filter(|t| !t.is_empty())
                    .map(|t| format!("（`{t}`）"))
                    .unwrap_or_default()
            ),
            _ => String::new(),
        };
        Text::new(format!("{place_ja}{}", self.message_ja), self.to_string())
    }
}

impl fmt::Display for SheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, "line {line}, column {column}")?;
            if let Some(text) = self.text.as_deref().filter(|t| !t.is_empty()) {
                write!(f, " (`{text}`)")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for SheetError {}

/// AW-3: combat move (戦闘移動) is 【行動値】+5 m; no distance is negative.
pub fn combat_move(action: i64) -> i64 {
    action.saturating_add(5).max(0)
}

/// AW-3: full move (全力移動) is twice the combat move.
pub fn full_move(action: i64) -> i64 {
    combat_move(action).saturating_mul(2)
}

/// The largest ability or 【行動値】 a table accepts. Our reading: the seed gives no upper
/// bound, and a value past this is a typo (a PC's abilities and 【行動値】 are small
/// numbers; 【行動値】+5 m must be doubled for the full move).
pub const MAX_VALUE: i64 = 999;
/// The largest HP or MP (current or maximum) a table accepts (the same reading).
pub const MAX_VITAL: i64 = 9999;

/// `value` as a whole number: full-width digits and signs read as ASCII, spaces around
/// ignored; `None` when it is not one (or past i64).
pub fn whole(value: &str) -> Option<i64> {
    let folded: String = value
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '＋' => '+',
            '－' | '−' => '-',
            c => c,
        })
        .collect();
    folded.parse().ok()
}

/// A value `/char set` or a sheet gives an Another World field, checked: the five
/// abilities (AW-1, 判定値の元) and 【行動値】 (AW-3, イニシアチブと移動距離) are whole numbers
/// 0 to [`MAX_VALUE`]; current 【HP】 and 【MP】 0 up to their maximum (AW-4: recovery
/// never passes it), maximums 1 to [`MAX_VITAL`]; 識別難易度 (the GM's part of the
/// identify difficulty, AW-3) −99 to 99. Full-width digits are stored as ASCII. Other
/// fields are as typed.
pub fn field_value(
    key: &str,
    value: &str,
    fields: &std::collections::BTreeMap<String, String>,
) -> Result<String, Text> {
    let bare = key.trim().trim_start_matches('【').trim_end_matches('】');
    let (base, is_max) = match bare.strip_suffix(".max") {
        Some(b) => (b.trim_start_matches('【').trim_end_matches('】'), true),
        None => (bare, false),
    };
    let vital = match base.to_ascii_uppercase().as_str() {
        "HP" | "ＨＰ" => Some("HP"),
        "MP" | "ＭＰ" => Some("MP"),
        _ => None,
    };
    let range = |lo: i64, hi: i64, what_ja: &str, what_en: &str| -> Result<i64, Text> {
        match whole(value) {
            Some(n) if (lo..=hi).contains(&n) => Ok(n),
            _ => Err(Text::new(
                format!(
                    "{what_ja}は{lo}〜{hi}の整数です（「{}」は使えません）",
                    short(value)
                ),
                format!(
                    "{what_en} is a whole number from {lo} to {hi} ('{}' is not)",
                    short(value)
                ),
            )),
        }
    };
    let n = match (base, vital, is_max) {
        (a, None, false) if ABILITIES.contains(&a) => range(
            0,
            MAX_VALUE,
            &format!("【{a}】（能力値、AW-1）"),
            &format!("【{a}】 (an ability, AW-1)"),
        )?,
        ("行動値", None, false) => range(
            0,
            MAX_VALUE,
            "【行動値】（イニシアチブと戦闘移動【行動値】+5m の元、AW-3）",
            "【行動値】 (action value: initiative and the combat move of 行動値 + 5 m, AW-3)",
        )?,
        ("識別難易度", None, false) => range(
            -99,
            99,
            "識別難易度（対象識別の難易度10に足すGMの値、AW-3）",
            "識別難易度 (the GM's value added to the identify difficulty of 10, AW-3)",
        )?,
        (_, Some(v), true) => {
            let max = range(
                1,
                MAX_VITAL,
                &format!("【{v}】の上限"),
                &format!("the maximum {v}"),
            )?;
            if let Some(now) = fields.get(v).and_then(|c| whole(c))
                && now > max
            {
                return Err(Text::new(
                    format!(
                        "【{v}】の上限{max}は今の【{v}】{now}より小さくなります。先に【{v}】を下げるか、同じ行で /char set 名前 {v} {max} {v}上限 {max} のように両方を設定してください"
                    ),
                    format!(
                        "a maximum {v} of {max} is below the current {v} of {now}; lower {v} first, or set both in one line: /char set NAME {v} {max} {v}.max {max}"
                    ),
                ));
            }
            max
        }
        (_, Some(v), false) => {
            let now = range(0, MAX_VITAL, &format!("【{v}】"), v)?;
            if let Some(max) = fields.get(&format!("{v}.max")).and_then(|m| whole(m))
                && now > max
            {
                return Err(Text::new(
                    format!(
                        "【{v}】は0〜上限{max}です（{now}は上限を超えています。回復は上限まで、AW-4）。上限を変えるなら /char set 名前 {v}上限 数値"
                    ),
                    format!(
                        "{v} is 0 to its maximum of {max} ({now} is above it; recovery stops at the maximum, AW-4); to change the maximum: /char set NAME {v}.max N"
                    ),
                ));
            }
            now
        }
        _ => return Ok(value.to_string()),
    };
    Ok(n.to_string())
}

/// The maximum a lowered current 【HP】 or 【MP】 keeps (`("HP.max", "12")`): when `key` is
/// the current value, it goes down from a whole `previous`, and the character has no
/// maximum (AW-4: recovery stops at the maximum, which the first wound would lose).
pub fn implied_max(
    key: &str,
    previous: Option<&str>,
    value: &str,
    fields: &std::collections::BTreeMap<String, String>,
) -> Option<(String, String)> {
    let v = match key {
        "HP" => "HP",
        "MP" => "MP",
        _ => return None,
    };
    let max_key = format!("{v}.max");
    if fields.contains_key(&max_key) {
        return None;
    }
    let before = whole(previous?)?;
    (whole(value)? < before && before >= 1).then(|| (max_key, before.to_string()))
}

/// At most 40 characters of a typed value, for a message.
fn short(value: &str) -> String {
    let mut out: String = value.chars().take(40).collect();
    if value.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn max_spells() -> i64 {
    MAX_SPELLS
}

impl Sheet {
    /// Reads a sheet from TOML. Only its shape is checked: every key known, every required
    /// key present, every value of the right type.
    pub fn from_toml(text: &str) -> Result<Sheet, SheetError> {
        toml::from_str(text).map_err(|e| sheet_error(text, &e))
    }

    /// The five abilities with their keys, in the rulebook's order.
    pub fn abilities(&self) -> [(&'static str, i64); 5] {
        [
            (ABILITIES[0], self.intellect),
            (ABILITIES[1], self.perception),
            (ABILITIES[2], self.reflex),
            (ABILITIES[3], self.stamina),
            (ABILITIES[4], self.luck),
        ]
    }

    /// The values computed from the sheet (AW-3).
    pub fn derived(&self) -> Derived {
        Derived {
            combat_move: combat_move(self.action),
            full_move: full_move(self.action),
        }
    }

    /// Every rule the sheet breaks, in rulebook order; empty when it obeys them all.
    pub fn violations(&self) -> Vec<Violation> {
        let mut out = Vec::new();
        self.check_abilities(&mut out);
        self.check_action(&mut out);
        self.check_supply(&mut out);
        self.check_contract(&mut out);
        self.check_keys(&mut out);
        out
    }

    /// The sheet, its derived values and its violations, ready to serialise.
    pub fn report(&self) -> SheetReport<'_> {
        SheetReport {
            sheet: self,
            derived: self.derived(),
            violations: self.violations(),
        }
    }

    /// The values a table keeps as character fields, so that a check such as
    /// `AW+{理知}>=10` reads them: the five abilities, 行動値, HP and MP.
    pub fn fields(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .abilities()
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.to_string()))
            .collect();
        for (k, v) in [("行動値", self.action), ("HP", self.hp), ("MP", self.mp)] {
            out.push((k.to_string(), v.to_string()));
        }
        out
    }

    /// The sheet in Japanese: every value, the derived values, then the violations.
    pub fn render(&self) -> String {
        self.render_in(Lang::Ja)
    }

    /// The sheet in `lang`: every value, the derived values, then the violations (the
    /// ability names stay the rulebook's 【理知】…, as on a Japanese sheet).
    pub fn render_in(&self, lang: Lang) -> String {
        let ja = lang == Lang::Ja;
        let none = || if ja { "なし" } else { "none" }.to_string();
        let sep = if ja { "、" } else { ", " };
        let list = |items: &[String]| {
            if items.is_empty() {
                none()
            } else {
                items.join(sep)
            }
        };
        let kind = match self.kind {
            Kind::Pc => "PC",
            Kind::Npc => "NPC",
        };
        let abilities: Vec<String> = self
            .abilities()
            .iter()
            .map(|(k, v)| format!("【{k}】{v}"))
            .collect();
        let d = self.derived();
        let mut s = if ja {
            format!("キャラクターシート: {}（{kind}）\n", self.name)
        } else {
            format!("Character sheet: {} ({kind})\n", self.name)
        };
        s += &format!(
            "{}: {}\n",
            if ja { "能力値" } else { "Abilities" },
            abilities.join(" ")
        );
        s += &format!(
            "【行動値】{} 【HP】{} 【MP】{}\n",
            self.action, self.hp, self.mp
        );
        s += &if ja {
            format!(
                "戦闘移動: {}m　全力移動: {}m（AW-3）\n",
                d.combat_move, d.full_move
            )
        } else {
            format!(
                "Combat move: {} m, full move: {} m (AW-3)\n",
                d.combat_move, d.full_move
            )
        };
        let master = self.master.clone().unwrap_or_else(none);
        if ja {
            s += &format!("イベントキー: {}\n", list(&self.keys));
            s += &format!("マスター: {master}\n");
            s += &format!("サーヴァント: {}\n", list(&self.servants));
            s += &format!("令呪: 残り{}回\n", self.spells);
        } else {
            s += &format!("Event keys: {}\n", list(&self.keys));
            s += &format!("Master: {master}\n");
            s += &format!("Servants: {}\n", list(&self.servants));
            s += &format!("Command spells: {} left\n", self.spells);
        }
        let violations = self.violations();
        if violations.is_empty() {
            s += if ja {
                "ルール違反: なし\n"
            } else {
                "Rule violations: none\n"
            };
        } else {
            s += &if ja {
                format!("ルール違反: {}件\n", violations.len())
            } else {
                format!("Rule violations: {}\n", violations.len())
            };
            for v in &violations {
                s += &format!("  {}\n", v.text().get(lang));
            }
        }
        s
    }

    /// AW-1: an ability is the base of a judgement value (能力ボーナス). Our reading: it
    /// is never negative.
    fn check_abilities(&self, out: &mut Vec<Violation>) {
        for (key, value) in self.abilities() {
            if value < 0 {
                out.push(Violation {
                    rule: "AW-1",
                    field: key,
                    message: format!(
                        "【{key}】が{value}。能力値は判定値の元になる値なので、0以上でなければならない"
                    ),
                    message_en: format!("【{key}】 is {value}; an ability is the base of a judgement value, so it must be 0 or more"),
                });
            }
        }
    }

    /// AW-3: 【行動値】 orders initiative and gives the move distances. Our reading: it is
    /// never negative.
    fn check_action(&self, out: &mut Vec<Violation>) {
        // 全力移動 is twice 戦闘移動: a value so large that it cannot be doubled would make
        // them equal (issue 13).
        if self
            .action
            .checked_add(5)
            .and_then(|m| m.checked_mul(2))
            .is_none()
        {
            out.push(Violation {
                rule: "AW-3",
                field: "行動値",
                message: format!(
                    "【行動値】が{}で大きすぎます。全力移動（戦闘移動の2倍）を計算できません",
                    self.action
                ),
                message_en: format!("【行動値】 is {}, too large: the full move (twice the combat move) cannot be computed", self.action),
            });
        }
        if self.action < 0 {
            out.push(Violation {
                rule: "AW-3",
                field: "行動値",
                message: format!(
                    "【行動値】が{}。行動値はイニシアチブと移動距離（【行動値】+5m）の元になる値なので、0以上でなければならない",
                    self.action
                ),
                message_en: format!("【行動値】 is {}; the action value gives initiative and the move distance (【行動値】+5 m), so it must be 0 or more", self.action),
            });
        }
    }

    /// AW-4: everyone's HP and MP are 「1以上はある」.
    fn check_supply(&self, out: &mut Vec<Violation>) {
        for (key, value) in [("HP", self.hp), ("MP", self.mp)] {
            if value < 1 {
                out.push(Violation {
                    rule: "AW-4",
                    field: key,
                    message: format!("【{key}】が{value}。【HP】【MP】はだれでも「1以上はある」"),
                    message_en: format!(
                        "【{key}】 is {value}; everyone has 【HP】 and 【MP】 of at least 1"
                    ),
                });
            }
        }
    }

    /// AW-5: the sheet records the names of the master and the servants; a master has
    /// command spells 0 to 3. Our reading: nobody contracts with themselves and nobody
    /// becomes the servant of their own servant (no cycle).
    fn check_contract(&self, out: &mut Vec<Violation>) {
        let name = self.name.trim();
        if name.is_empty() {
            out.push(Violation {
                rule: "AW-5",
                field: "name",
                message: "名前が空。キャラクターシートには名前を記入する（契約は名前で記録する）"
                    .to_string(),
                message_en: "the name is empty; a character sheet has a name (contracts are recorded by name)".to_string(),
            });
        }
        if let Some(master) = &self.master {
            let master = master.trim();
            if master.is_empty() {
                out.push(Violation {
                    rule: "AW-5",
                    field: "master",
                    message: "マスターの名前が空。マスターがいないなら master を書かない"
                        .to_string(),
                    message_en: "the master's name is empty; with no master, leave out master"
                        .to_string(),
                });
            } else if master == name {
                out.push(Violation {
                    rule: "AW-5",
                    field: "master",
                    message: format!(
                        "「{master}」が自分自身のマスター。自分と契約することはできない"
                    ),
                    message_en: format!(
                        "'{master}' is its own master; no one contracts with themselves"
                    ),
                });
            } else if self.servants.iter().any(|s| s.trim() == master) {
                out.push(Violation {
                    rule: "AW-5",
                    field: "master",
                    message: format!(
                        "「{master}」がマスターであり、サーヴァントでもある。自分のサーヴァントのサーヴァントにはなれない（契約の循環）"
                    ),
                    message_en: format!("'{master}' is both master and servant; no one becomes the servant of their own servant (a contract cycle)"),
                });
            }
        }
        let mut seen = BTreeSet::new();
        for servant in &self.servants {
            let servant = servant.trim();
            if servant.is_empty() {
                out.push(Violation {
                    rule: "AW-5",
                    field: "servants",
                    message: "サーヴァントの名前が空。名前のないサーヴァントとは契約できない"
                        .to_string(),
                    message_en:
                        "a servant's name is empty; no one contracts with a nameless servant"
                            .to_string(),
                });
            } else if servant == name {
                out.push(Violation {
                    rule: "AW-5",
                    field: "servants",
                    message: format!(
                        "「{servant}」が自分自身のサーヴァント。自分と契約することはできない"
                    ),
                    message_en: format!(
                        "'{servant}' is its own servant; no one contracts with themselves"
                    ),
                });
            } else if !seen.insert(servant) {
                out.push(Violation {
                    rule: "AW-5",
                    field: "servants",
                    message: format!("サーヴァント「{servant}」が二度書かれている"),
                    message_en: format!("the servant '{servant}' is written twice"),
                });
            }
        }
        if !(0..=MAX_SPELLS).contains(&self.spells) {
            out.push(Violation {
                rule: "AW-5",
                field: "spells",
                message: format!(
                    "令呪の残りが{}。令呪は1シナリオに{MAX_SPELLS}回までなので、残りは0〜{MAX_SPELLS}",
                    self.spells
                ),
                message_en: format!("{} command spells left; a scenario has at most {MAX_SPELLS}, so 0 to {MAX_SPELLS} are left", self.spells),
            });
        }
    }

    /// AW-6: the GM grants event keys to PCs; a key is a name.
    fn check_keys(&self, out: &mut Vec<Violation>) {
        if self.kind == Kind::Npc && !self.keys.is_empty() {
            out.push(Violation {
                rule: "AW-6",
                field: "keys",
                message: format!(
                    "NPCがイベントキーを持っている（{}）。イベントキーはPCに与えられる",
                    self.keys.join("、")
                ),
                message_en: format!(
                    "an NPC holds event keys ({}); event keys are given to PCs",
                    self.keys.join(", ")
                ),
            });
        }
        let mut seen = BTreeSet::new();
        for key in &self.keys {
            let key = key.trim();
            if key.is_empty() {
                out.push(Violation {
                    rule: "AW-6",
                    field: "keys",
                    message: "イベントキーの名前が空。イベントキーは情報・物・場所・人物の名前"
                        .to_string(),
                    message_en: "an event key's name is empty; an event key names information, a thing, a place or a person".to_string(),
                });
            } else if !seen.insert(key) {
                out.push(Violation {
                    rule: "AW-6",
                    field: "keys",
                    message: format!("イベントキー「{key}」が二度書かれている"),
                    message_en: format!("the event key '{key}' is written twice"),
                });
            }
        }
    }
}

impl Violation {
    /// `[AW-4] HP: …` in Japanese and English.
    pub fn text(&self) -> Text {
        Text::new(
            self.to_string(),
            format!("[{}] {}: {}", self.rule, self.field, self.message_en),
        )
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}: {}", self.rule, self.field, self.message)
    }
}

/// Places a TOML error in the text and rewords serde's messages in the sheet's terms.
fn sheet_error(text: &str, e: &toml::de::Error) -> SheetError {
    // A missing key has no place of its own (its span is the whole table).
    let span = e
        .span()
        .filter(|_| !e.message().starts_with("missing field"));
    let (line, column, line_text) = match span {
        Some(span) => {
            let start = span.start.min(text.len());
            let before = text.get(..start).unwrap_or("");
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[line_start..]
                .find('\n')
                .map_or(text.len(), |i| line_start + i);
            (
                Some(before.matches('\n').count() + 1),
                Some(before[line_start..].chars().count() + 1),
                Some(text[line_start..line_end].trim().to_string()),
            )
        }
        None => (None, None, None),
    };
    SheetError {
        line,
        column,
        text: line_text.clone(),
        message: reword(e.message(), line_text.as_deref().unwrap_or("")),
        message_ja: reword_ja(e.message(), line_text.as_deref().unwrap_or("")),
    }
}

/// [`reword`] in Japanese: the keys a sheet has, a key missing, how to quote a Japanese
/// key, the kinds; TOML's own wording is kept after a Japanese lead for the rest.
fn reword_ja(message: &str, line: &str) -> String {
    let message = message.trim();
    let known = SHEET_KEYS.join("、");
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or("");
        let hint = SHEET_KEYS
            .iter()
            .find(|k| k.eq_ignore_ascii_case(key) || key.trim_matches(['【', '】']) == **k)
            .map(|k| format!("`{k}` のことですか？ "))
            .unwrap_or_default();
        return format!("`{key}` というキーはありません。{hint}（シートのキー: {known}）");
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.split('`').next().unwrap_or("");
        return format!(
            "キー `{key}` がありません（必須: name、kind、{}、行動値、HP、MP）",
            ABILITIES.join("、")
        );
    }
    if message.starts_with("invalid unquoted key") && !line.is_ascii() {
        return "ASCII 以外のキーは \"理知\" = 3 のように引用符で囲みます".to_string();
    }
    if message.starts_with("unknown variant `") {
        return "kind は \"PC\" か \"NPC\" です".to_string();
    }
    if message.contains("expected i64") {
        return format!(
            "整数が必要です（{}）",
            message.replace("expected i64", "expected a whole number")
        );
    }
    format!("TOML として読めません（{message}）")
}

/// serde's "unknown field" and "missing field" name our keys; say which keys a sheet has,
/// and suggest the key meant when only its case differs. `line` is the text of the line
/// at fault.
fn reword(message: &str, line: &str) -> String {
    let message = message.trim();
    let known = SHEET_KEYS.join(", ");
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let key = rest.split('`').next().unwrap_or("");
        let hint = SHEET_KEYS
            .iter()
            .find(|k| k.eq_ignore_ascii_case(key) || key.trim_matches(['【', '】']) == **k)
            .map(|k| format!("; did you mean `{k}`?"))
            .unwrap_or_default();
        return format!("unknown key `{key}`{hint} (a sheet's keys are: {known})");
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.split('`').next().unwrap_or("");
        return format!(
            "missing key `{key}` (required: name, kind, {}, 行動値, HP, MP)",
            ABILITIES.join(", ")
        );
    }
    if message.starts_with("invalid unquoted key") && !line.is_ascii() {
        return format!("{message}; TOML keys outside ASCII are quoted, as in \"理知\" = 3");
    }
    if message.starts_with("unknown variant `") {
        return format!("{message} (kind is \"PC\" or \"NPC\")");
    }
    message.replace("expected i64", "expected a whole number")
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = r#"
name = "アリス"
kind = "PC"
"理知" = 3
"知覚" = 2
"反射" = 4
"体力" = 2
"幸運" = 1
"行動値" = 9
HP = 20
MP = 15
keys = ["古い鍵", "図書館の司書"]
master = "ボブ"
servants = ["キャロル", "デイヴ"]
spells = 2
"#;

    const MINIMAL: &str = r#"
name = "ゴブリン"
kind = "NPC"
"理知" = 0
"知覚" = 1
"反射" = 2
"体力" = 3
"幸運" = 0
"行動値" = 4
HP = 5
MP = 1
"#;

    fn sheet(text: &str) -> Sheet {
        Sheet::from_toml(text).expect("a sheet")
    }

    fn valid() -> Sheet {
        sheet(VALID)
    }

    /// The rule IDs and fields of a sheet's violations.
    fn broken(s: &Sheet) -> Vec<(&'static str, &'static str)> {
        s.violations().iter().map(|v| (v.rule, v.field)).collect()
    }

    #[test]
    fn reads_every_value() {
        let s = valid();
        assert_eq!(s.name, "アリス");
        assert_eq!(s.kind, Kind::Pc);
        assert_eq!(
            s.abilities(),
            [
                ("理知", 3),
                ("知覚", 2),
                ("反射", 4),
                ("体力", 2),
                ("幸運", 1)
            ]
        );
        assert_eq!((s.action, s.hp, s.mp), (9, 20, 15));
        assert_eq!(s.keys, ["古い鍵", "図書館の司書"]);
        assert_eq!(s.master.as_deref(), Some("ボブ"));
        assert_eq!(s.servants, ["キャロル", "デイヴ"]);
        assert_eq!(s.spells, 2);
        assert!(s.violations().is_empty(), "{:?}", s.violations());
    }

    #[test]
    fn example_sheet_is_a_valid_pc() {
        let s = sheet(include_str!("example-sheet.toml"));
        assert_eq!((s.name.as_str(), s.kind), ("アリス", Kind::Pc));
        assert!(s.violations().is_empty(), "{:?}", s.violations());
    }

    #[test]
    fn optional_values_default_aw5_spells_full() {
        let s = sheet(MINIMAL);
        assert_eq!(s.kind, Kind::Npc);
        assert!(s.keys.is_empty() && s.servants.is_empty());
        assert_eq!(s.master, None);
        assert_eq!(s.spells, MAX_SPELLS);
        assert!(s.violations().is_empty(), "{:?}", s.violations());
    }

    #[test]
    fn lower_case_kind_reads_too() {
        let s = sheet(&MINIMAL.replace("\"NPC\"", "\"npc\""));
        assert_eq!(s.kind, Kind::Npc);
    }

    #[test]
    fn unquoted_japanese_key_says_to_quote_it() {
        let e = Sheet::from_toml(&MINIMAL.replace("\"理知\" =", "理知 =")).expect_err("bare key");
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("keys outside ASCII are quoted"), "{e}");
    }

    #[test]
    fn serialises_back_to_the_same_sheet() {
        let s = valid();
        let text = toml::to_string(&s).expect("serialises");
        assert_eq!(sheet(&text), s);
    }

    #[test]
    fn aw3_combat_move_is_action_plus_5_and_full_move_twice_that() {
        let d = valid().derived();
        assert_eq!(
            d,
            Derived {
                combat_move: 14,
                full_move: 28
            }
        );
        assert_eq!((combat_move(0), full_move(0)), (5, 10));
    }

    #[test]
    fn aw3_moves_never_overflow_or_go_negative() {
        assert_eq!(combat_move(i64::MAX), i64::MAX);
        assert_eq!(full_move(i64::MAX), i64::MAX);
        assert_eq!((combat_move(-9), full_move(-9)), (0, 0));
    }

    #[test]
    fn fields_are_the_table_keys_in_order() {
        let f = valid().fields();
        let pairs: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            pairs,
            [
                ("理知", "3"),
                ("知覚", "2"),
                ("反射", "4"),
                ("体力", "2"),
                ("幸運", "1"),
                ("行動値", "9"),
                ("HP", "20"),
                ("MP", "15"),
            ]
        );
    }

    #[test]
    fn aw1_negative_ability_is_a_violation() {
        let mut s = valid();
        s.perception = -1;
        s.luck = -2;
        assert_eq!(broken(&s), [("AW-1", "知覚"), ("AW-1", "幸運")]);
        assert!(s.violations()[0].message.contains("【知覚】が-1"));
    }

    #[test]
    fn aw3_negative_action_value_is_a_violation() {
        let mut s = valid();
        s.action = -1;
        assert_eq!(broken(&s), [("AW-3", "行動値")]);
    }

    #[test]
    fn aw4_hp_or_mp_below_1_is_a_violation() {
        let mut s = valid();
        s.hp = 0;
        s.mp = -3;
        assert_eq!(broken(&s), [("AW-4", "HP"), ("AW-4", "MP")]);
        assert!(s.violations()[0].message.contains("1以上はある"));
        s.hp = 1;
        s.mp = 1;
        assert!(s.violations().is_empty());
    }

    #[test]
    fn aw5_empty_name_is_a_violation() {
        let mut s = valid();
        s.name = "  ".to_string();
        assert_eq!(broken(&s), [("AW-5", "name")]);
    }

    #[test]
    fn aw5_spells_outside_0_to_3_are_a_violation() {
        let mut s = valid();
        for ok in 0..=3 {
            s.spells = ok;
            assert!(s.violations().is_empty(), "{ok}");
        }
        for bad in [-1, 4, i64::MAX] {
            s.spells = bad;
            assert_eq!(broken(&s), [("AW-5", "spells")], "{bad}");
        }
    }

    #[test]
    fn aw5_own_master_is_a_violation() {
        let mut s = valid();
        s.master = Some("アリス".to_string());
        assert_eq!(broken(&s), [("AW-5", "master")]);
        assert!(s.violations()[0].message.contains("自分自身のマスター"));
    }

    #[test]
    fn aw5_own_servant_is_a_violation() {
        let mut s = valid();
        s.servants.push(" アリス ".to_string());
        assert_eq!(broken(&s), [("AW-5", "servants")]);
        assert!(s.violations()[0].message.contains("自分自身のサーヴァント"));
    }

    #[test]
    fn aw5_master_who_is_also_a_servant_is_a_two_step_cycle() {
        let mut s = valid();
        s.servants.push("ボブ".to_string());
        assert_eq!(broken(&s), [("AW-5", "master")]);
        assert!(s.violations()[0].message.contains("循環"));
    }

    #[test]
    fn aw5_duplicate_or_empty_servants_are_violations() {
        let mut s = valid();
        s.servants = vec!["キャロル".into(), "キャロル".into(), String::new()];
        assert_eq!(broken(&s), [("AW-5", "servants"), ("AW-5", "servants")]);
    }

    #[test]
    fn aw5_empty_master_is_a_violation() {
        let mut s = valid();
        s.master = Some(String::new());
        assert_eq!(broken(&s), [("AW-5", "master")]);
    }

    #[test]
    fn aw6_npc_holding_event_keys_is_a_violation() {
        let mut s = valid();
        s.kind = Kind::Npc;
        assert_eq!(broken(&s), [("AW-6", "keys")]);
        assert!(s.violations()[0].message.contains("PCに与えられる"));
    }

    #[test]
    fn aw6_duplicate_or_empty_keys_are_violations() {
        let mut s = valid();
        s.keys = vec!["古い鍵".into(), "古い鍵".into(), " ".into()];
        assert_eq!(broken(&s), [("AW-6", "keys"), ("AW-6", "keys")]);
    }

    #[test]
    fn violations_follow_rulebook_order_and_cite_their_rule() {
        let mut s = valid();
        s.kind = Kind::Npc;
        s.spells = 9;
        s.hp = 0;
        s.intellect = -1;
        s.action = -1;
        assert_eq!(
            broken(&s),
            [
                ("AW-1", "理知"),
                ("AW-3", "行動値"),
                ("AW-4", "HP"),
                ("AW-5", "spells"),
                ("AW-6", "keys")
            ]
        );
        for v in s.violations() {
            assert!(
                v.to_string()
                    .starts_with(&format!("[{}] {}: ", v.rule, v.field)),
                "{v}"
            );
        }
    }

    #[test]
    fn render_shows_values_derived_values_and_no_violation() {
        let r = valid().render();
        for part in [
            "キャラクターシート: アリス（PC）",
            "【理知】3 【知覚】2 【反射】4 【体力】2 【幸運】1",
            "【行動値】9 【HP】20 【MP】15",
            "戦闘移動: 14m　全力移動: 28m",
            "イベントキー: 古い鍵、図書館の司書",
            "マスター: ボブ",
            "サーヴァント: キャロル、デイヴ",
            "令呪: 残り2回",
            "ルール違反: なし",
        ] {
            assert!(r.contains(part), "{part} missing from\n{r}");
        }
    }

    #[test]
    fn render_lists_every_violation() {
        let mut s = sheet(MINIMAL);
        s.hp = 0;
        s.keys = vec!["秘密".into()];
        let r = s.render();
        assert!(r.contains("マスター: なし"), "{r}");
        assert!(r.contains("ルール違反: 2件"), "{r}");
        assert!(r.contains("  [AW-4] HP: "), "{r}");
        assert!(r.contains("  [AW-6] keys: "), "{r}");
    }

    #[test]
    fn report_serialises_sheet_derived_and_violations() {
        let mut s = valid();
        s.mp = 0;
        let v = serde_json::to_value(s.report()).expect("serialises");
        assert_eq!(v["sheet"]["name"], "アリス");
        assert_eq!(v["sheet"]["理知"], 3);
        assert_eq!(v["sheet"]["kind"], "PC");
        assert_eq!(v["derived"]["combat_move"], 14);
        assert_eq!(v["derived"]["full_move"], 28);
        assert_eq!(v["violations"][0]["rule"], "AW-4");
        assert_eq!(v["violations"][0]["field"], "MP");
    }

    #[test]
    fn malformed_toml_names_its_line() {
        let e = Sheet::from_toml("name = \"アリス\"\nkind = PC\n").expect_err("not TOML");
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().starts_with("line 2, column "), "{e}");
        assert!(e.to_string().contains("`kind = PC`"), "{e}");
    }

    #[test]
    fn unknown_key_is_named_with_the_keys_a_sheet_has() {
        let e = Sheet::from_toml(&format!("{MINIMAL}mana = 3\n")).expect_err("unknown key");
        let m = e.to_string();
        assert_eq!(e.line, Some(12), "{m}");
        assert!(m.contains("unknown key `mana`"), "{m}");
        assert!(m.contains("a sheet's keys are: name, kind, 理知"), "{m}");
        assert!(!m.contains("did you mean"), "{m}");
    }

    #[test]
    fn unknown_key_differing_in_case_suggests_the_right_one() {
        let e = Sheet::from_toml(&MINIMAL.replace("HP =", "hp =")).expect_err("unknown key");
        assert!(
            e.message.contains("unknown key `hp`; did you mean `HP`?"),
            "{e}"
        );
        let e = Sheet::from_toml(&MINIMAL.replace("\"理知\" =", "\"【理知】\" ="))
            .expect_err("brackets");
        assert!(e.message.contains("did you mean `理知`?"), "{e}");
    }

    #[test]
    fn issue13_a_huge_action_value_is_a_violation_not_equal_moves() {
        let sheet =
            Sheet::from_toml(&VALID.replace("\"行動値\" = 9", "\"行動値\" = 9223372036854775800"))
                .expect("sheet");
        let v = sheet.violations();
        assert!(
            v.iter()
                .any(|v| v.field == "行動値" && v.message.contains("大きすぎます")),
            "{v:?}"
        );
    }

    #[test]
    fn missing_key_is_named() {
        let e = Sheet::from_toml(&MINIMAL.replace("MP = 1\n", "")).expect_err("missing");
        assert!(e.to_string().starts_with("missing key `MP`"), "{e}");
        assert_eq!(e.line, None, "{e}");
    }

    #[test]
    fn wrong_type_names_its_line() {
        let e = Sheet::from_toml(&MINIMAL.replace("HP = 5", "HP = \"five\"")).expect_err("type");
        assert_eq!(e.line, Some(10), "{e}");
        assert!(e.to_string().contains("`HP = \"five\"`"), "{e}");
        assert!(e.message.contains("expected a whole number"), "{e}");
        let e = Sheet::from_toml(&MINIMAL.replace("HP = 5", "HP = 5.5")).expect_err("float");
        assert_eq!(e.line, Some(10), "{e}");
        let e = Sheet::from_toml(&format!("{MINIMAL}keys = \"鍵\"\n")).expect_err("not a list");
        assert_eq!(e.line, Some(12), "{e}");
    }

    #[test]
    fn unknown_kind_says_what_kinds_exist() {
        let e = Sheet::from_toml(&MINIMAL.replace("\"NPC\"", "\"GM\"")).expect_err("kind");
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.message.contains("\"PC\" or \"NPC\""), "{e}");
    }
}
