//! Four Card at a table: characters (FC-1 to FC-8), skills (FC-5), checks that read the
//! character (FC-2's −2, FC-9's bases and fatigue), damage and recovery (FC-13), XP and
//! growth (FC-14, FC-15), under the GM's settings. Every `/fc` command is decided here in
//! rulebook order; every refusal names the rule.
//!
//! A character's rules-side record ([`Character`]) lives in the system state. It is made
//! by `/fc create` (rolled) or, the first time the rules touch a character read from a
//! sheet, imported from its fields (an `Imported` event first, so folds need no table).

use super::character::{
    self, ATTRIBUTES, Character, Condition, MAX_RAISE, STARTING_XP, Sex, WIN_BACK_COST,
};
use super::check::{self, Check};
use super::damage;
use super::settings::Settings;
use super::skills::{self, Skill};
use crate::table_rules::{CommandHelp, Outcome, Prepared, TableRules, TableView};
use crate::view::{Field, Section, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::{RollResult, Roller, Text};

/// What Four Card tracks at a table.
#[derive(Debug, Clone, Serialize)]
pub struct State {
    /// The GM's settings.
    pub settings: Settings,
    /// FC-5: the skill list (the shipped example until the GM defines more).
    pub skills: BTreeMap<String, Skill>,
    /// Characters' records by name.
    pub characters: BTreeMap<String, Character>,
    /// FC-15: XP may be spent (幕間).
    pub interlude: bool,
}

impl Default for State {
    fn default() -> Self {
        State {
            settings: Settings::default(),
            skills: skills::example(),
            characters: BTreeMap::new(),
            interlude: false,
        }
    }
}

/// A change to a character, as deltas so an undone change leaves later ones standing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delta {
    /// Fatigue added (negative: recovered).
    #[serde(default)]
    pub fatigue: i64,
    /// Injury added (negative: recovered).
    #[serde(default)]
    pub injury: i64,
    /// Hunger set.
    #[serde(default)]
    pub hungry: Option<bool>,
    /// Hours passed (since the last meal).
    #[serde(default)]
    pub hours: i64,
    /// A meal was eaten.
    #[serde(default)]
    pub meal: bool,
    /// Injury was recovered by sleep today / a new day began.
    #[serde(default)]
    pub slept_off: Option<bool>,
    /// XP earned.
    #[serde(default)]
    pub xp_earned: i64,
    /// XP spent (or lost).
    #[serde(default)]
    pub xp_spent: i64,
    /// Creation ended.
    #[serde(default)]
    pub creation_done: bool,
    /// Skill raised to this TP.
    #[serde(default)]
    pub skill: Option<(String, i64)>,
    /// Field specialised in a skill.
    #[serde(default)]
    pub field: Option<(String, String)>,
    /// Attribute index, raised delta, lost delta.
    #[serde(default)]
    pub attribute: Option<(usize, i64, i64)>,
    /// Equipment movement modifier set.
    #[serde(default)]
    pub equipment: Option<i64>,
    /// Marks a raise for `one_step_per_interlude`.
    #[serde(default)]
    pub step: Option<String>,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A setting changed.
    Setting {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
    /// FC-5: the GM defined or redefined a skill.
    SkillDefined {
        /// The skill.
        skill: Skill,
    },
    /// FC-1 to FC-8: a character's record was created (rolled) or imported (a sheet).
    Created {
        /// Name.
        name: String,
        /// The record.
        character: Character,
        /// Log text.
        ja: String,
        /// Log text.
        en: String,
    },
    /// Anything else that changes a character.
    Changed {
        /// Name.
        name: String,
        /// The change.
        delta: Delta,
        /// Log text.
        ja: String,
        /// Log text.
        en: String,
    },
    /// FC-15: an interlude opened or closed.
    Interlude {
        /// Open.
        open: bool,
    },
}

/// FC-1: what each attribute measures.
const ATTRIBUTE_NAMES: [(&str, &str); 5] = [
    ("知力", "intellect"),
    ("敏捷性", "dexterity"),
    ("筋力", "strength"),
    ("精神力", "willpower"),
    ("生命力", "vitality"),
];

/// Four Card's table rules.
pub struct FcRules;

const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        usage: "/fc create ミナ female",
        help: "キャラクター作成（FC-1〜FC-8）: 能力値2D3+1×5・性別修正・利き腕2D6・所持金3D6×100+1000CP。/char new ミナ の後に",
        help_en: "Create a character (FC-1 to FC-8): attributes 2D3+1 each, sex modifier, handedness 2D6, money 3D6×100+1000 CP; after /char new NAME",
    },
    CommandHelp {
        usage: "/fc extra ミナ 5",
        help: "追加初期経験点（FC-4、GM、作成中のみ）",
        help_en: "Extra starting XP (FC-4, GM, during creation only)",
    },
    CommandHelp {
        usage: "/fc learn ミナ 接近戦 3 剣",
        help: "スキルを3TPまで習得（FC-5: 専門性×成長後のTPずつ、1TP目で最初の特化は無料）。作成中か幕間のみ",
        help_en: "Raise a skill to 3 TP (FC-5: expertise × new TP per step; the first field free at 1 TP); at creation or in an interlude",
    },
    CommandHelp {
        usage: "/fc special ミナ 接近戦 斧",
        help: "分野の特化を追加（FC-5、スキルごとの経験点）",
        help_en: "Specialise another field (FC-5, at the skill's cost)",
    },
    CommandHelp {
        usage: "/fc raise ミナ ST",
        help: "能力値+1（FC-15: ST/WP/VT 10→20、IQ/DX 15→30、取り戻しは5、初期値+2まで）",
        help_en: "Attribute +1 (FC-15: ST/WP/VT 10 then 20, IQ/DX 15 then 30, winning back a lost point 5, at most +2 over the initial value)",
    },
    CommandHelp {
        usage: "/fc lose ミナ ST 1",
        help: "能力値の低下（GM）",
        help_en: "An attribute is lowered (GM)",
    },
    CommandHelp {
        usage: "/fc done ミナ",
        help: "作成終了（FC-4: 残った初期経験点は失われる）",
        help_en: "Finish creation (FC-4: starting XP left over is lost)",
    },
    CommandHelp {
        usage: "/fc equip ミナ 2",
        help: "装備の移動力修正（FC-3）",
        help_en: "Equipment's movement modifier (FC-3)",
    },
    CommandHelp {
        usage: "/fc damage ミナ 3 | /fc fatigue ミナ 1",
        help: "負傷・疲労を受ける（FC-13、GM）。ラインに達すると衰弱・昏倒・死亡を表示",
        help_en: "Take injury or fatigue (FC-13, GM); reaching a line reports weakened, unconscious or dead",
    },
    CommandHelp {
        usage: "/fc heal ミナ injury 1",
        help: "負傷・疲労の回復をGMが直接与える",
        help_en: "The GM recovers injury or fatigue directly",
    },
    CommandHelp {
        usage: "/fc rest ミナ 8 lying",
        help: "休憩（FC-13）: 1時間ごとに疲労1回復。lying: 横になり最初の6時間は+1、6時間以上眠れば負傷1回復（1日1回）。空腹なら疲労は回復しない",
        help_en: "Rest (FC-13): 1 fatigue per hour; lying: +1 more in each of the first 6 hours, 6 hours' sleep recovers 1 injury (once a day); hungry: no fatigue recovers",
    },
    CommandHelp {
        usage: "/fc meal ミナ",
        help: "食事（FC-13）: 前回から5時間以上なら疲労1回復。空腹状態が終わる",
        help_en: "A meal (FC-13): 1 fatigue back if 5 hours passed since the last; ends hunger",
    },
    CommandHelp {
        usage: "/fc miss ミナ 2",
        help: "食事を抜いた（FC-13、GM）: 1食ごとに疲労1、十分な食事まで空腹（疲労が回復しない）",
        help_en: "Missed meals (FC-13, GM): 1 fatigue each, hungry (no fatigue recovery) until a full meal",
    },
    CommandHelp {
        usage: "/fc day ミナ rest | /fc day ミナ norest",
        help: "1日の終わり（朝6時）: 負傷の目標ロール（VT+総合LV、難易度=累積ダメージ、安静でなければ−4）。成功で負傷1回復",
        help_en: "A day ends (6:00): the injury target roll (VT + total LV against cumulative damage, −4 if not at rest); success recovers 1 injury",
    },
    CommandHelp {
        usage: "/fc xp ミナ 5 -1 +1",
        help: "経験点（FC-14、GM）: シナリオ経験点と個人別の増減。合計は最低1",
        help_en: "XP award (FC-14, GM): the scenario's and per-character adjustments; at least 1 in total",
    },
    CommandHelp {
        usage: "/fc interlude start | /fc interlude end",
        help: "幕間の開始・終了（FC-15、GM）。経験点は幕間にだけ使える",
        help_en: "Start or end an interlude (FC-15, GM); XP is spent only in one",
    },
    CommandHelp {
        usage: "/fc skill 接近戦 DX 2 fields=剣,斧 cost=2 | cap | limit=魔術 | requires=魔術 | nounskilled",
        help: "スキルの定義・追加（FC-5、GM）。/fc skills で一覧（同梱の一覧は例であり公式ではありません）",
        help_en: "Define or add a skill (FC-5, GM); /fc skills lists them (the shipped list is an example, not official)",
    },
    CommandHelp {
        usage: "/fc set female_modifier clamp | /fc settings",
        help: "GMの設定（解釈の切り替え）と一覧",
        help_en: "The GM's settings (the readings) and their list",
    },
];

fn gm_only(table: &dyn TableView, what: (&str, &str)) -> Result<(), Text> {
    if table.actor_is_gm() {
        Ok(())
    } else {
        Err(Text::new(
            format!("{}はGMだけが行えます", what.0),
            format!("only the GM can {}", what.1),
        ))
    }
}

fn may_act_for(table: &dyn TableView, name: &str) -> Result<(), Text> {
    match table.character(name) {
        None => Err(no_character(name)),
        Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => Ok(()),
        Some((owner, _)) => Err(Text::new(
            format!("{name}は{owner}のキャラクターです。操作できるのは{owner}かGMだけです"),
            format!("{name} belongs to {owner}; only they or the GM can act for it"),
        )),
    }
}

fn no_character(name: &str) -> Text {
    Text::new(
        format!("「{name}」というキャラクターはいません。/char new {name} で作成してください"),
        format!("no character named '{name}'; create it with /char new {name}"),
    )
}

fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

fn number(word: &str) -> Result<i64, Text> {
    let w = word.strip_prefix('+').unwrap_or(word);
    w.parse::<i64>()
        .ok()
        .filter(|n| n.abs() <= 100_000)
        .ok_or_else(|| {
            Text::new(
                format!("「{word}」は整数ではありません"),
                format!("'{word}' is not a whole number"),
            )
        })
}

/// FC fields a sheet gives: `IQ`…`VT` (initial values), `性別`, `スキル.X` TP,
/// `特化.X` fields, `経験点` earned, `未使用経験点`, `移動力修正`.
pub fn from_fields(fields: &BTreeMap<String, String>) -> Option<Character> {
    let mut initial = [0; 5];
    for (i, a) in ATTRIBUTES.iter().enumerate() {
        initial[i] = fields.get(*a)?.trim().parse().ok()?;
    }
    let sex = fields
        .get("性別")
        .and_then(|s| Sex::parse(s))
        .unwrap_or(Sex::Male);
    let get = |k: &str| fields.get(k).and_then(|v| v.trim().parse::<i64>().ok());
    let mut ch = Character::new(sex, initial, get("追加初期経験点").unwrap_or(0));
    if let Some(xp) = get("経験点") {
        ch.xp_earned = xp;
    }
    ch.xp_spent = ch.xp_earned - get("未使用経験点").unwrap_or(0);
    ch.creating = false;
    ch.equipment = get("移動力修正").unwrap_or(0);
    ch.hand = fields.get("利き腕").cloned().unwrap_or_default();
    ch.money = get("所持金").unwrap_or(0);
    for (k, v) in fields {
        if let Some(skill) = k.strip_prefix("スキル.") {
            let tp = v.trim().parse().ok()?;
            ch.skills.entry(skill.to_string()).or_default().tp = tp;
        }
        if let Some(skill) = k.strip_prefix("特化.") {
            ch.skills.entry(skill.to_string()).or_default().fields = v
                .split([',', '、'])
                .map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty())
                .collect();
        }
    }
    Some(ch)
}

/// The character's record, and the event importing it from its sheet's fields when the
/// rules have not touched it yet.
fn load(table: &dyn TableView, state: &State, name: &str) -> Result<(Character, Vec<Event>), Text> {
    if let Some(ch) = state.characters.get(name) {
        return Ok((ch.clone(), Vec::new()));
    }
    let Some((_, fields)) = table.character(name) else {
        return Err(no_character(name));
    };
    let Some(ch) = from_fields(fields) else {
        return Err(Text::new(
            format!(
                "{name}はフォーカードのキャラクターではありません。/fc create {name} female（または male）で作成するか、シートで IQ DX ST WP VT を設定してください"
            ),
            format!(
                "{name} is not a Four Card character yet: /fc create {name} female (or male), or a sheet with IQ DX ST WP VT"
            ),
        ));
    };
    let event = Event::Created {
        name: name.to_string(),
        character: ch.clone(),
        ja: format!("{name}をシートから読み込み"),
        en: format!("{name} read from the sheet"),
    };
    Ok((ch, vec![event]))
}

fn changed(name: &str, delta: Delta, ja: String, en: String) -> Event {
    Event::Changed {
        name: name.to_string(),
        delta,
        ja,
        en,
    }
}

fn done(events: Vec<Event>) -> Result<Outcome<Event>, Text> {
    Ok(Outcome {
        events,
        reply: None,
    })
}

/// Applies a delta to a record (the fold's rule, also used to foresee a change).
fn apply(ch: &mut Character, d: &Delta) {
    ch.fatigue = (ch.fatigue + d.fatigue).max(0);
    ch.injury = (ch.injury + d.injury).max(0);
    if let Some(h) = d.hungry {
        ch.hungry = h;
    }
    ch.hours_since_meal += d.hours;
    if d.meal {
        ch.hours_since_meal = 0;
        ch.hungry = false;
    }
    if let Some(s) = d.slept_off {
        ch.slept_off_injury_today = s;
    }
    ch.xp_earned += d.xp_earned;
    ch.xp_spent += d.xp_spent;
    if d.creation_done {
        ch.creating = false;
    }
    if let Some((skill, tp)) = &d.skill {
        ch.skills.entry(skill.clone()).or_default().tp = *tp;
    }
    if let Some((skill, field)) = &d.field {
        let l = ch.skills.entry(skill.clone()).or_default();
        if !l.fields.contains(field) {
            l.fields.push(field.clone());
        }
    }
    if let Some((i, raised, lost)) = d.attribute
        && i < 5
    {
        ch.raised[i] += raised;
        ch.lost[i] = (ch.lost[i] + lost).max(0);
    }
    if let Some(e) = d.equipment {
        ch.equipment = e;
    }
    if let Some(s) = &d.step {
        ch.raised_this_interlude.push(s.clone());
    }
}

/// FC-2: the line a change of damage crosses, as log words.
fn crossing(before: &Character, after: &Character) -> (String, String) {
    let (b, a) = (before.condition(), after.condition());
    if a == b {
        return (String::new(), String::new());
    }
    let (ja, en) = a.names();
    if a > b {
        (format!("。{ja}に達した"), format!("; now {en}"))
    } else {
        (format!("。{ja}に戻った"), format!("; back to {en}"))
    }
}

fn damage_words(ch: &Character) -> (String, String) {
    let l = ch.lines();
    (
        format!(
            "疲労{} 負傷{} 累積{}（衰弱{}／昏倒{}／死亡{}）",
            ch.fatigue,
            ch.injury,
            ch.damage(),
            l.weakened,
            l.unconscious,
            l.death
        ),
        format!(
            "fatigue {} injury {} cumulative {} (weakened {} / unconscious {} / death {})",
            ch.fatigue,
            ch.injury,
            ch.damage(),
            l.weakened,
            l.unconscious,
            l.death
        ),
    )
}

/// A damage-like change with its report: what it did, the totals and any line crossed.
fn damage_event(name: &str, ch: &Character, delta: Delta, what: (&str, &str)) -> Event {
    let mut after = ch.clone();
    apply(&mut after, &delta);
    let (cj, ce) = crossing(ch, &after);
    let (wj, we) = damage_words(&after);
    changed(
        name,
        delta,
        format!("{name}: {}。{wj}{cj}", what.0),
        format!("{name}: {}; {we}{ce}", what.1),
    )
}

fn may_spend(state: &State, ch: &Character, name: &str) -> Result<(), Text> {
    if ch.creating || state.interlude {
        Ok(())
    } else {
        Err(Text::new(
            format!(
                "FC-15: 経験点はシナリオの幕間にしか使えません（{name}は作成を終えています。GMが /fc interlude start で幕間を開きます）"
            ),
            format!(
                "FC-15: XP is spent only between scenarios ({name} has finished creation; the GM opens an interlude with /fc interlude start)"
            ),
        ))
    }
}

fn afford(ch: &Character, name: &str, cost: i64) -> Result<(), Text> {
    if cost > ch.xp_left() {
        Err(Text::new(
            format!(
                "{name}の経験点が足りません（必要{cost}、残り{}）",
                ch.xp_left()
            ),
            format!(
                "{name} has too little XP ({cost} needed, {} left)",
                ch.xp_left()
            ),
        ))
    } else {
        Ok(())
    }
}

fn one_step(state: &State, ch: &Character, key: &str) -> Result<(), Text> {
    if state.settings.one_step_per_interlude
        && !ch.creating
        && ch.raised_this_interlude.iter().any(|k| k == key)
    {
        return Err(Text::new(
            format!(
                "FC-15: 一度に1点（one_step_per_interlude）: {key}はこの幕間ですでに上げています"
            ),
            format!(
                "FC-15: one step at a time (one_step_per_interlude): {key} was already raised in this interlude"
            ),
        ));
    }
    Ok(())
}

fn skill_named<'a>(state: &'a State, name: &str) -> Result<&'a Skill, Text> {
    state.skills.get(name).ok_or_else(|| {
        Text::new(
            format!("スキル【{name}】は一覧にありません。/fc skills で一覧、GMは /fc skill で定義できます"),
            format!("no skill 【{name}】 in the list; /fc skills lists them, the GM defines more with /fc skill"),
        )
    })
}

fn decide_fc(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Outcome<Event>, Text> {
    match words {
        ["settings"] => Ok(Outcome {
            events: Vec::new(),
            reply: Some(state.settings.describe()),
        }),
        ["set", key, value] => {
            gm_only(table, ("設定の変更", "change a setting"))?;
            let mut s = state.settings.clone();
            s.set(key, value)?;
            done(vec![Event::Setting {
                key: key.to_string(),
                value: value.to_string(),
            }])
        }
        ["set", ..] => Err(usage("/fc set 設定 値", "/fc set KEY VALUE")),
        ["skills"] => {
            let (mut ja, mut en) = (Vec::new(), Vec::new());
            for s in state.skills.values() {
                let fields = |sep: &str| s.fields.join(sep);
                ja.push(format!(
                    "【{}】{} 専門性{}{}{}{}{}",
                    s.name,
                    s.base,
                    s.expertise,
                    if s.cap.is_some() {
                        " 総合LVキャップ"
                    } else {
                        ""
                    },
                    s.limit
                        .as_ref()
                        .map(|l| format!(" 制限【{l}】"))
                        .unwrap_or_default(),
                    if s.fields.is_empty() {
                        String::new()
                    } else {
                        format!(" 特化: {}（{}点）", fields("・"), s.field_cost)
                    },
                    if s.unskilled {
                        ""
                    } else {
                        " 未習得では判定不可"
                    }
                ));
                en.push(format!(
                    "【{}】 {} expertise {}{}{}{}{}",
                    s.name,
                    s.base,
                    s.expertise,
                    if s.cap.is_some() {
                        ", total-LV cap"
                    } else {
                        ""
                    },
                    s.limit
                        .as_ref()
                        .map(|l| format!(", restricted by 【{l}】"))
                        .unwrap_or_default(),
                    if s.fields.is_empty() {
                        String::new()
                    } else {
                        format!(", fields: {} ({} XP)", fields(", "), s.field_cost)
                    },
                    if s.unskilled {
                        ""
                    } else {
                        ", no unskilled attempt"
                    }
                ));
            }
            Ok(Outcome {
                events: Vec::new(),
                reply: Some(Text::new(
                    format!("スキル一覧（例。公式ではありません）:\n{}", ja.join("\n")),
                    format!("Skills (an example, not official):\n{}", en.join("\n")),
                )),
            })
        }
        ["skill", name, base, expertise, opts @ ..] => {
            gm_only(table, ("スキルの定義", "define a skill"))?;
            let base = base.to_ascii_uppercase();
            if base != "IQ" && base != "DX" {
                return Err(Text::new(
                    "FC-5: スキルの基礎はIQかDXです",
                    "FC-5: a skill's base is IQ or DX",
                ));
            }
            let mut skill = Skill {
                name: name.to_string(),
                base,
                expertise: number(expertise)?.max(1),
                cap: None,
                limit: None,
                requires: Vec::new(),
                fields: Vec::new(),
                field_cost: 0,
                unskilled: true,
            };
            for o in opts {
                let list = |v: &str| v.split([',', '、']).map(str::to_string).collect();
                match o.split_once('=') {
                    None if *o == "cap" => skill.cap = Some("total_lv".into()),
                    None if *o == "nounskilled" => skill.unskilled = false,
                    Some(("limit", v)) => skill.limit = Some(v.to_string()),
                    Some(("requires", v)) => skill.requires = list(v),
                    Some(("fields", v)) => skill.fields = list(v),
                    Some(("cost", v)) => skill.field_cost = number(v)?,
                    _ => {
                        return Err(usage(
                            "/fc skill 名前 IQ|DX 専門性 [cap] [limit=スキル] [requires=A,B] [fields=a,b] [cost=N] [nounskilled]",
                            "/fc skill NAME IQ|DX EXPERTISE [cap] [limit=SKILL] [requires=A,B] [fields=a,b] [cost=N] [nounskilled]",
                        ));
                    }
                }
            }
            done(vec![Event::SkillDefined { skill }])
        }
        ["interlude", which] => {
            gm_only(table, ("幕間の開始・終了", "start or end an interlude"))?;
            let open = match *which {
                "start" => true,
                "end" => false,
                _ => return Err(usage("/fc interlude start|end", "/fc interlude start|end")),
            };
            done(vec![Event::Interlude { open }])
        }
        ["create", name, sex] => create(table, state, name, sex, dice),
        ["create", ..] => Err(usage(
            "/fc create 名前 female|male",
            "/fc create NAME female|male",
        )),
        [verb, name, rest @ ..] => {
            may_act_for(table, name)?;
            let (ch, mut events) = load(table, state, name)?;
            events.extend(character_command(
                table, state, name, &ch, verb, rest, dice,
            )?);
            done(events)
        }
        _ => Err(usage(
            "/fc コマンド（/help を参照）",
            "/fc COMMAND (see /help)",
        )),
    }
}

/// FC-1, FC-7, FC-8: rolls a character.
fn create(
    table: &dyn TableView,
    state: &State,
    name: &str,
    sex: &str,
    dice: &mut Roller<'_>,
) -> Result<Outcome<Event>, Text> {
    may_act_for(table, name)?;
    if state.characters.contains_key(name) {
        return Err(Text::new(
            format!("{name}はすでに作成されています"),
            format!("{name} is already created"),
        ));
    }
    let Some(sex) = Sex::parse(sex) else {
        return Err(usage(
            "/fc create 名前 female|male",
            "/fc create NAME female|male",
        ));
    };
    let err = |e: taku_dice::EvalError| e.text();
    // FC-1: 2D3+1 each.
    let mut rolled = [0; 5];
    for r in &mut rolled {
        let d = dice.roll_group(2, 3).map_err(err)?;
        *r = d.iter().sum::<i64>() + 1;
    }
    let initial = character::sex_modifier(rolled, sex, &state.settings);
    // FC-7: 2D6, 12 ambidextrous.
    let hand = dice.roll_group(2, 6).map_err(err)?;
    let hand_sum: i64 = hand.iter().sum();
    // FC-8: 3D6×100 + 1000 CP.
    let money_dice = dice.roll_group(3, 6).map_err(err)?;
    let money = money_dice.iter().sum::<i64>() * 100 + 1000;
    let mut ch = Character::new(sex, initial, 0);
    ch.hand = if hand_sum == 12 {
        "両手利き".into()
    } else {
        "右か左（プレイヤーが選ぶ）".into()
    };
    ch.money = money;
    let attrs = |a: [i64; 5]| {
        ATTRIBUTES
            .iter()
            .zip(a)
            .map(|(n, v)| format!("{n}{v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let l = ch.lines();
    let ja = format!(
        "{name}作成（{}）: 2D3+1 → {}{} ／ 衰弱{} 昏倒{} 死亡{} 移動力{} ／ 利き腕 2D6={hand_sum}: {} ／ 所持金 3D6={}: {money}CP ／ 初期経験点{}（/fc learn で使い、/fc done で終了）",
        sex.ja(),
        attrs(rolled),
        if initial != rolled {
            format!(" → 性別修正 {}", attrs(initial))
        } else {
            String::new()
        },
        l.weakened,
        l.unconscious,
        l.death,
        character::movement(initial[character::DX], 0),
        ch.hand,
        money_dice.iter().sum::<i64>(),
        STARTING_XP,
    );
    let en = format!(
        "{name} created ({}): 2D3+1 → {}{} / weakened {} unconscious {} death {} movement {} / handedness 2D6={hand_sum}: {} / money 3D6={}: {money} CP / starting XP {} (spend with /fc learn, finish with /fc done)",
        if sex == Sex::Female { "female" } else { "male" },
        attrs(rolled),
        if initial != rolled {
            format!(" → sex modifier {}", attrs(initial))
        } else {
            String::new()
        },
        l.weakened,
        l.unconscious,
        l.death,
        character::movement(initial[character::DX], 0),
        if hand_sum == 12 {
            "ambidextrous"
        } else {
            "right or left (the player's choice)"
        },
        money_dice.iter().sum::<i64>(),
        STARTING_XP,
    );
    done(vec![Event::Created {
        name: name.to_string(),
        character: ch,
        ja,
        en,
    }])
}

#[allow(clippy::too_many_arguments)]
fn character_command(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    verb: &str,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    let lv = ch.total_lv(&state.settings);
    match (verb, rest) {
        // FC-4: extra starting XP.
        ("extra", [n]) => {
            gm_only(table, ("追加初期経験点", "give extra starting XP"))?;
            if !ch.creating {
                return Err(Text::new(
                    format!("FC-4: {name}は作成を終えています。追加初期経験点は作成中だけです"),
                    format!(
                        "FC-4: {name} has finished creation; extra starting XP is for creation only"
                    ),
                ));
            }
            let n = number(n)?.max(0);
            Ok(vec![changed(
                name,
                Delta {
                    xp_earned: n,
                    ..Delta::default()
                },
                format!(
                    "{name}: 追加初期経験点+{n}（初期経験点{}）",
                    ch.xp_earned + n
                ),
                format!(
                    "{name}: extra starting XP +{n} (starting XP {})",
                    ch.xp_earned + n
                ),
            )])
        }
        // FC-5, FC-15: skills.
        ("learn", [skill, to, field @ ..]) if field.len() <= 1 => {
            may_spend(state, ch, name)?;
            let s = skill_named(state, skill)?;
            let from = ch.skills.get(*skill).map_or(0, |l| l.tp);
            let to = number(to)?;
            if to <= from {
                return Err(Text::new(
                    format!("【{skill}】はすでに{from}TPです"),
                    format!("【{skill}】 is already at {from} TP"),
                ));
            }
            if let Some(why) = skills::refuse_raise(s, ch, to, lv, &state.skills) {
                return Err(why);
            }
            one_step(state, ch, skill)?;
            if state.settings.one_step_per_interlude && !ch.creating && to > from + 1 {
                return Err(Text::new(
                    format!(
                        "FC-15: 一度に1TP（one_step_per_interlude）: この幕間では【{skill}】は{}TPまでです",
                        from + 1
                    ),
                    format!(
                        "FC-15: one TP at a time (one_step_per_interlude): 【{skill}】 goes to {} TP in this interlude",
                        from + 1
                    ),
                ));
            }
            let cost = skills::tp_cost(s.expertise, from, to);
            afford(ch, name, cost)?;
            let mut events = vec![changed(
                name,
                Delta {
                    xp_spent: cost,
                    skill: Some((skill.to_string(), to)),
                    step: Some(skill.to_string()),
                    ..Delta::default()
                },
                format!(
                    "{name}: 【{skill}】{from}→{to}TP（経験点{cost}、残り{}）",
                    ch.xp_left() - cost
                ),
                format!(
                    "{name}: 【{skill}】 {from}→{to} TP ({cost} XP, {} left)",
                    ch.xp_left() - cost
                ),
            )];
            // FC-5: the first TP brings one specialisation free.
            if let Some(field) = field.first() {
                if from > 0 || s.fields.is_empty() {
                    return Err(Text::new(
                        format!(
                            "FC-5: 無料の初期特化は【{skill}】の1TP目だけです。/fc special で特化してください"
                        ),
                        format!(
                            "FC-5: the free first specialisation comes only with 【{skill}】's first TP; use /fc special"
                        ),
                    ));
                }
                if !s.fields.iter().any(|f| f == field) {
                    return Err(unknown_field(s, field));
                }
                events.push(changed(
                    name,
                    Delta {
                        field: Some((skill.to_string(), field.to_string())),
                        ..Delta::default()
                    },
                    format!("{name}: 【{skill}】の【{field}】に初期特化（無料）"),
                    format!("{name}: 【{skill}】 specialised in 【{field}】 (first, free)"),
                ));
            }
            Ok(events)
        }
        ("special", [skill, field]) => {
            may_spend(state, ch, name)?;
            let s = skill_named(state, skill)?;
            if !s.fields.iter().any(|f| f == field) {
                return Err(unknown_field(s, field));
            }
            let Some(l) = ch.skills.get(*skill).filter(|l| l.tp > 0) else {
                return Err(Text::new(
                    format!("FC-5: 特化するには【{skill}】を1TP以上習得してください"),
                    format!("FC-5: learn 【{skill}】 (1 TP) before specialising"),
                ));
            };
            if l.fields.iter().any(|f| f == field) {
                return Err(Text::new(
                    format!("【{field}】はすでに特化しています（特化にLVはありません）"),
                    format!("【{field}】 is already specialised (a specialisation has no level)"),
                ));
            }
            // FC-5: the first field is free, the rest at the skill's cost.
            let cost = if l.fields.is_empty() { 0 } else { s.field_cost };
            afford(ch, name, cost)?;
            Ok(vec![changed(
                name,
                Delta {
                    xp_spent: cost,
                    field: Some((skill.to_string(), field.to_string())),
                    ..Delta::default()
                },
                format!("{name}: 【{skill}】の【{field}】を特化（経験点{cost}）"),
                format!("{name}: 【{skill}】 specialised in 【{field}】 ({cost} XP)"),
            )])
        }
        // FC-15: attributes.
        ("raise", [attr]) => {
            let Some(i) = character::attribute(attr) else {
                return Err(unknown_attribute(attr));
            };
            if ch.creating && !state.settings.creation_xp_attributes {
                return Err(Text::new(
                    "FC-4: 初期経験点はスキルと特化にだけ使えます（設定 creation_xp_attributes で変更）",
                    "FC-4: starting XP buys skills and specialisations only (setting creation_xp_attributes)",
                ));
            }
            may_spend(state, ch, name)?;
            let a = ATTRIBUTES[i];
            one_step(state, ch, a)?;
            let (cost, raised, lost, what) = if ch.lost[i] > 0 {
                (WIN_BACK_COST, 0, -1, ("取り戻し", "won back"))
            } else {
                let Some(cost) = character::raise_cost(i, ch.raised[i]) else {
                    return Err(Text::new(
                        format!(
                            "FC-15: {a}は初期能力値から+{MAX_RAISE}までです（3点以上は増やせません）"
                        ),
                        format!("FC-15: {a} goes at most +{MAX_RAISE} over its initial value"),
                    ));
                };
                (cost, 1, 0, ("成長", "raised"))
            };
            afford(ch, name, cost)?;
            let value = ch.attributes()[i] + 1;
            Ok(vec![changed(
                name,
                Delta {
                    xp_spent: cost,
                    attribute: Some((i, raised, lost)),
                    step: Some(a.to_string()),
                    ..Delta::default()
                },
                format!(
                    "{name}: {a} {}→{value}（{}、経験点{cost}、残り{}）",
                    value - 1,
                    what.0,
                    ch.xp_left() - cost
                ),
                format!(
                    "{name}: {a} {}→{value} ({}, {cost} XP, {} left)",
                    value - 1,
                    what.1,
                    ch.xp_left() - cost
                ),
            )])
        }
        ("lose", [attr, rest @ ..]) if rest.len() <= 1 => {
            gm_only(table, ("能力値の低下", "lower an attribute"))?;
            let Some(i) = character::attribute(attr) else {
                return Err(unknown_attribute(attr));
            };
            let n = rest.first().map_or(Ok(1), |w| number(w))?.max(1);
            let a = ATTRIBUTES[i];
            Ok(vec![changed(
                name,
                Delta {
                    attribute: Some((i, 0, n)),
                    ..Delta::default()
                },
                format!("{name}: {a} −{n}（低下、現在{}）", ch.attributes()[i] - n),
                format!("{name}: {a} −{n} (lost, now {})", ch.attributes()[i] - n),
            )])
        }
        // FC-4: leftover starting XP is lost.
        ("done", []) => {
            if !ch.creating {
                return Err(Text::new(
                    format!("{name}は作成を終えています"),
                    format!("{name} has already finished creation"),
                ));
            }
            let left = ch.xp_left();
            Ok(vec![changed(
                name,
                Delta {
                    xp_spent: left,
                    creation_done: true,
                    ..Delta::default()
                },
                format!("{name}: 作成終了。使わなかった初期経験点{left}は失われました（FC-4）"),
                format!("{name}: creation finished; {left} unspent starting XP lost (FC-4)"),
            )])
        }
        ("equip", [n]) => {
            let n = number(n)?;
            let m = character::movement(ch.attributes()[character::DX], n);
            let warn = if m <= 0 {
                ("。移動できません", "; cannot move")
            } else if m < 3 {
                (
                    "。武装時に3未満（活躍は難しい）",
                    "; below 3 while armed (hard going)",
                )
            } else {
                ("", "")
            };
            Ok(vec![changed(
                name,
                Delta {
                    equipment: Some(n),
                    ..Delta::default()
                },
                format!("{name}: 装備の移動力修正−{n}、移動力{m}{}", warn.0),
                format!("{name}: equipment movement −{n}, movement {m}{}", warn.1),
            )])
        }
        // FC-13: damage.
        ("damage" | "fatigue", [n]) => {
            gm_only(table, ("ダメージ", "deal damage"))?;
            let n = number(n)?.max(0);
            let (delta, what) = if verb == "damage" {
                (
                    Delta {
                        injury: n,
                        ..Delta::default()
                    },
                    (format!("負傷+{n}"), format!("injury +{n}")),
                )
            } else {
                (
                    Delta {
                        fatigue: n,
                        ..Delta::default()
                    },
                    (format!("疲労+{n}"), format!("fatigue +{n}")),
                )
            };
            Ok(vec![damage_event(name, ch, delta, (&what.0, &what.1))])
        }
        ("heal", [kind, n]) => {
            gm_only(table, ("回復", "heal"))?;
            let n = number(n)?.max(0);
            let (delta, what) = match *kind {
                "injury" | "負傷" => (
                    Delta {
                        injury: -n.min(ch.injury),
                        ..Delta::default()
                    },
                    (
                        format!("負傷−{}", n.min(ch.injury)),
                        format!("injury −{}", n.min(ch.injury)),
                    ),
                ),
                "fatigue" | "疲労" => (
                    Delta {
                        fatigue: -n.min(ch.fatigue),
                        ..Delta::default()
                    },
                    (
                        format!("疲労−{}", n.min(ch.fatigue)),
                        format!("fatigue −{}", n.min(ch.fatigue)),
                    ),
                ),
                _ => {
                    return Err(usage(
                        "/fc heal 名前 injury|fatigue 数",
                        "/fc heal NAME injury|fatigue N",
                    ));
                }
            };
            Ok(vec![damage_event(name, ch, delta, (&what.0, &what.1))])
        }
        ("rest", [hours, rest @ ..]) if rest.len() <= 1 => {
            let hours = number(hours)?;
            if !(1..=48).contains(&hours) {
                return Err(Text::new(
                    "休憩は1〜48時間で指定してください",
                    "rest for 1 to 48 hours",
                ));
            }
            let lying = match rest.first() {
                None => false,
                Some(&"lying" | &"sleep" | &"横になる") => true,
                Some(_) => {
                    return Err(usage(
                        "/fc rest 名前 時間 [lying]",
                        "/fc rest NAME HOURS [lying]",
                    ));
                }
            };
            let r = damage::rest(ch, hours, lying);
            let hungry = if ch.hungry {
                (
                    "（空腹のため疲労は回復しない）",
                    " (hungry: no fatigue recovers)",
                )
            } else {
                ("", "")
            };
            let sleep = if r.injury > 0 {
                (
                    format!("、{}時間の睡眠で負傷−1", r.slept),
                    format!(", {} hours' sleep: injury −1", r.slept),
                )
            } else {
                (String::new(), String::new())
            };
            let delta = Delta {
                fatigue: -r.fatigue,
                injury: -r.injury,
                hours,
                slept_off: (r.injury > 0).then_some(true),
                ..Delta::default()
            };
            let what = (
                format!(
                    "{}{hours}時間休憩、疲労−{}{}{}",
                    if lying { "横になって" } else { "" },
                    r.fatigue,
                    sleep.0,
                    hungry.0
                ),
                format!(
                    "rested {hours} hours{}, fatigue −{}{}{}",
                    if lying { " lying down" } else { "" },
                    r.fatigue,
                    sleep.1,
                    hungry.1
                ),
            );
            Ok(vec![damage_event(name, ch, delta, (&what.0, &what.1))])
        }
        ("meal", []) => {
            let n = damage::meal(ch);
            let what = if n > 0 {
                ("食事、疲労−1".to_string(), "a meal, fatigue −1".to_string())
            } else {
                (
                    format!(
                        "食事（前回から{}時間で5時間未満、回復なし）",
                        ch.hours_since_meal
                    ),
                    format!(
                        "a meal ({} hours since the last, under 5: no recovery)",
                        ch.hours_since_meal
                    ),
                )
            };
            Ok(vec![damage_event(
                name,
                ch,
                Delta {
                    fatigue: -n,
                    meal: true,
                    ..Delta::default()
                },
                (&what.0, &what.1),
            )])
        }
        ("miss", [n]) => {
            gm_only(table, ("食事抜き", "record missed meals"))?;
            let n = number(n)?;
            if !(1..=3).contains(&n) {
                return Err(Text::new(
                    "FC-13: 1日の食事は3回です（1〜3）",
                    "FC-13: a day has 3 meals (1 to 3)",
                ));
            }
            Ok(vec![damage_event(
                name,
                ch,
                Delta {
                    fatigue: n,
                    hungry: Some(true),
                    ..Delta::default()
                },
                (
                    &format!("食事を{n}回抜いた、疲労+{n}、空腹（十分な食事まで疲労は回復しない）"),
                    &format!(
                        "missed {n} meals, fatigue +{n}, hungry (no fatigue recovers until a full meal)"
                    ),
                ),
            )])
        }
        // FC-13: the daily injury roll.
        ("day", [how]) => {
            let at_rest = match *how {
                "rest" | "安静" => true,
                "norest" | "安静でない" => false,
                _ => {
                    return Err(usage(
                        "/fc day 名前 rest|norest",
                        "/fc day NAME rest|norest",
                    ));
                }
            };
            let attrs = ch.attributes();
            let mut base = attrs[character::VT] + lv;
            let mut mods = String::new();
            if !at_rest {
                base -= damage::NOT_AT_REST_PENALTY;
                mods.push_str("（安静でない−4）");
            }
            if ch.condition() >= Condition::Weakened {
                base -= character::WEAKENED_PENALTY;
                mods.push_str("（衰弱−2）");
            }
            let difficulty = ch.damage();
            let d = dice.roll_group(2, 6).map_err(|e| e.text())?;
            let side = check::Side::of(d[0], d[1], base, check::Options::default())
                .map_err(|e| e.text())?;
            let success = side.auto_success || (!side.auto_failure && side.value >= difficulty);
            let [a, b] = side.dice.unwrap_or([0, 0]);
            let recovered = i64::from(success && ch.injury > 0);
            let fatigue = if side.auto_failure {
                check::AUTO_FAILURE_FATIGUE
            } else {
                0
            };
            let verdict = if side.auto_success {
                ("自動的成功", "automatic success")
            } else if side.auto_failure {
                ("自動的失敗（1点疲労）", "automatic failure (1 fatigue)")
            } else if success {
                ("成功", "success")
            } else {
                ("失敗", "failure")
            };
            let delta = Delta {
                injury: -recovered,
                fatigue,
                slept_off: Some(false),
                ..Delta::default()
            };
            let what = (
                format!(
                    "1日の負傷ロール（VT+総合LV{mods}）(FC{base:+}>={difficulty}) ＞ {}[{a},{b}]{base:+} ＞ {} ＞ {}、負傷−{recovered}",
                    a + b,
                    side.value,
                    verdict.0
                ),
                format!(
                    "daily injury roll (VT + total LV{}) (FC{base:+}>={difficulty}) > {}[{a},{b}]{base:+} > {} > {}, injury −{recovered}",
                    mods.replace("（安静でない−4）", ", not at rest −4")
                        .replace("（衰弱−2）", ", weakened −2"),
                    a + b,
                    side.value,
                    verdict.1
                ),
            );
            Ok(vec![damage_event(name, ch, delta, (&what.0, &what.1))])
        }
        // FC-14: XP awards, at least 1 in total.
        ("xp", parts) if !parts.is_empty() => {
            gm_only(table, ("経験点の付与", "award XP"))?;
            let parts: Vec<i64> = parts.iter().map(|w| number(w)).collect::<Result<_, _>>()?;
            let sum: i64 = parts.iter().sum();
            let total = sum.max(1);
            let raised = if total != sum {
                ("（最低1点）", " (at least 1)")
            } else {
                ("", "")
            };
            let list: Vec<String> = parts.iter().map(|p| format!("{p:+}")).collect();
            Ok(vec![changed(
                name,
                Delta {
                    xp_earned: total,
                    ..Delta::default()
                },
                format!(
                    "{name}: 経験点 {} = {total}{}（獲得合計{}、総合LV{}）",
                    list.join(" "),
                    raised.0,
                    ch.xp_earned + total,
                    state.settings.total_lv(ch.xp_earned + total)
                ),
                format!(
                    "{name}: XP {} = {total}{} (earned {}, total LV {})",
                    list.join(" "),
                    raised.1,
                    ch.xp_earned + total,
                    state.settings.total_lv(ch.xp_earned + total)
                ),
            )])
        }
        _ => Err(usage(
            "/fc コマンド 名前 …（/help を参照）",
            "/fc COMMAND NAME … (see /help)",
        )),
    }
}

fn unknown_field(s: &Skill, field: &str) -> Text {
    Text::new(
        format!(
            "FC-5: 【{}】に分野【{field}】はありません（{}）",
            s.name,
            s.fields.join("・")
        ),
        format!(
            "FC-5: 【{}】 has no field 【{field}】 ({})",
            s.name,
            s.fields.join(", ")
        ),
    )
}

fn unknown_attribute(attr: &str) -> Text {
    Text::new(
        format!("能力値「{attr}」はありません: IQ DX ST WP VT"),
        format!("no attribute '{attr}': IQ DX ST WP VT"),
    )
}

/// The actor's one Four Card character, if they have exactly one.
fn actors_character(table: &dyn TableView, state: &State) -> Option<(String, Character)> {
    let mine: Vec<(String, Character)> = table
        .characters()
        .into_iter()
        .filter(|(_, owner)| *owner == table.actor())
        .filter_map(|(name, _)| {
            let ch = state.characters.get(name).cloned().or_else(|| {
                table
                    .character(name)
                    .and_then(|(_, fields)| from_fields(fields))
            })?;
            Some((name.to_string(), ch))
        })
        .collect();
    match mine.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// FC-9: the value a `{KEY}` names for a character: a skill (`{接近戦}`) or a field
/// (`{剣}`, −2 unless specialised; an unskilled attempt at attribute ÷ 2), an attribute,
/// `{総合LV}`, `{VT抵抗}`/`{WP抵抗}` (attribute + total LV, FC-10).
pub fn reference(state: &State, ch: &Character, key: &str) -> Option<i64> {
    let attrs = ch.attributes();
    let lv = ch.total_lv(&state.settings);
    if let Some(i) = character::attribute(key) {
        return Some(attrs[i]);
    }
    match key {
        "総合LV" => return Some(lv),
        "VT抵抗" => return Some(attrs[character::VT] + lv),
        "WP抵抗" => return Some(attrs[character::WP] + lv),
        _ => {}
    }
    if let Some(s) = state.skills.get(key) {
        return s.level(ch, None);
    }
    let s = state
        .skills
        .values()
        .find(|s| s.fields.iter().any(|f| f == key))?;
    s.level(ch, Some(key))
}

impl TableRules for FcRules {
    type State = State;
    type Event = Event;

    fn commands(&self) -> &'static [CommandHelp] {
        COMMANDS
    }

    fn decide(
        &self,
        table: &dyn TableView,
        state: &State,
        words: &[&str],
        dice: &mut Roller<'_>,
    ) -> Option<Result<Outcome<Event>, Text>> {
        match words {
            ["fc", rest @ ..] => Some(decide_fc(table, state, rest, dice)),
            _ => None,
        }
    }

    fn fold(&self, state: &mut State, _actor: &str, event: &Event) {
        match event {
            Event::Setting { key, value } => {
                let _ = state.settings.set(key, value);
            }
            Event::SkillDefined { skill } => {
                state.skills.insert(skill.name.clone(), skill.clone());
            }
            Event::Created {
                name, character, ..
            } => {
                state.characters.insert(name.clone(), character.clone());
            }
            Event::Changed { name, delta, .. } => {
                if let Some(ch) = state.characters.get_mut(name) {
                    apply(ch, delta);
                }
            }
            Event::Interlude { open } => {
                state.interlude = *open;
                for ch in state.characters.values_mut() {
                    ch.raised_this_interlude.clear();
                }
            }
        }
    }

    fn describe(&self, event: &Event) -> Text {
        match event {
            Event::Setting { key, value } => Text::new(
                format!("設定: {key} = {value}"),
                format!("setting: {key} = {value}"),
            ),
            Event::SkillDefined { skill } => Text::new(
                format!(
                    "スキル【{}】を定義（{} 専門性{}）",
                    skill.name, skill.base, skill.expertise
                ),
                format!(
                    "skill 【{}】 defined ({}, expertise {})",
                    skill.name, skill.base, skill.expertise
                ),
            ),
            Event::Created { ja, en, .. } | Event::Changed { ja, en, .. } => {
                Text::new(ja.clone(), en.clone())
            }
            Event::Interlude { open: true } => Text::new(
                "幕間の開始: 経験点を使えます（FC-15）",
                "interlude: XP may be spent (FC-15)",
            ),
            Event::Interlude { open: false } => Text::new("幕間の終了", "interlude over"),
        }
    }

    /// FC-9: `{剣}`, `{接近戦}`, `{VT抵抗}`… of the actor's character (or
    /// `{ミナ.剣}`), derived by the rules.
    fn expand_references(&self, table: &dyn TableView, state: &State, line: &str) -> String {
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            out.push_str(&rest[..open]);
            let inner = &rest[open + 1..close];
            let value = match inner.split_once('.') {
                Some((name, key)) => state
                    .characters
                    .get(name)
                    .cloned()
                    .or_else(|| table.character(name).and_then(|(_, f)| from_fields(f)))
                    .and_then(|ch| reference(state, &ch, key)),
                None => {
                    actors_character(table, state).and_then(|(_, ch)| reference(state, &ch, inner))
                }
            };
            match value {
                Some(v) => out.push_str(&v.to_string()),
                None => out.push_str(&rest[open..=close]),
            }
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        out
    }

    fn prepare_check(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
    ) -> Result<Prepared<Event>, Text> {
        let unchanged = Prepared {
            command: command.to_string(),
            events: Vec::new(),
            note: None,
        };
        let Some(check) = super::parse_line(command) else {
            return Ok(unchanged);
        };
        let (token, rest) = match command.trim().split_once(char::is_whitespace) {
            Some((t, r)) => (t.to_string(), format!(" {}", r.trim_start())),
            None => (command.trim().to_string(), String::new()),
        };
        let mut command = token;
        let mut tail = rest;
        let mut note = None;
        let achievement = matches!(check, Check::Achievement { .. });
        // FC-11 `comparison_auto = plain`.
        if state.settings.comparison_plain
            && matches!(check, Check::Comparison { options, .. } if !options.plain)
        {
            // The VS form may be spread over words: append to the joined line's end.
            let joined = taku_dice::command::join_versus(&format!("{command}{tail}"))
                .unwrap_or_else(|| format!("{command}{tail}"));
            let (t, r) = joined.split_once(' ').unwrap_or((&joined, ""));
            command = format!("{t}#PLAIN");
            tail = if r.is_empty() {
                String::new()
            } else {
                format!(" {r}")
            };
        }
        // FC-2: −2 on every roll value from the weakened line on.
        if let Some((name, ch)) = actors_character(table, state)
            && ch.condition() >= Condition::Weakened
        {
            let joined = taku_dice::command::join_versus(&format!("{command}{tail}"))
                .unwrap_or_else(|| format!("{command}{tail}"));
            let (t, r) = joined.split_once(' ').unwrap_or((&joined, ""));
            let prefix_len = if achievement {
                t.find(|c: char| c.eq_ignore_ascii_case(&'A'))
                    .map_or(2, |i| i + 1)
            } else {
                t.to_ascii_uppercase().find("FC").map_or(0, |i| i + 2)
            };
            command = format!("{}-2{}", &t[..prefix_len], &t[prefix_len..]);
            tail = if r.is_empty() {
                String::new()
            } else {
                format!(" {r}")
            };
            note = Some(Text::new(
                format!("{name}は衰弱: ロール値−2（FC-2）"),
                format!("{name} is weakened: roll value −2 (FC-2)"),
            ));
        }
        Ok(Prepared {
            command: format!("{command}{tail}"),
            events: Vec::new(),
            note,
        })
    }

    /// FC-9: an automatic failure costs the roller's character 1 fatigue; in a
    /// comparison, a right side named by the comment's first word pays its own.
    fn after_roll(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
        result: &RollResult,
    ) -> Vec<Event> {
        let Some(check) = super::parse_line(command) else {
            return Vec::new();
        };
        let draws: Vec<i64> = result.rands.iter().map(|d| i64::from(d.value)).collect();
        let (left, right) = check::fatigue(&check, &draws);
        let mut events = Vec::new();
        let charge = |name: &str, n: i64, events: &mut Vec<Event>| {
            if n == 0 {
                return;
            }
            let Ok((ch, imported)) = load(table, state, name) else {
                return;
            };
            events.extend(imported);
            events.push(damage_event(
                name,
                &ch,
                Delta {
                    fatigue: n,
                    ..Delta::default()
                },
                (
                    &format!("自動的失敗で疲労+{n}（FC-9）"),
                    &format!("automatic failure: fatigue +{n} (FC-9)"),
                ),
            ));
        };
        if let Some((name, _)) = actors_character(table, state) {
            charge(&name, left, &mut events);
        }
        if right > 0
            && let Some(other) = crate::comment(&super::FourCard, command)
                .and_then(|c| c.split_whitespace().next().map(str::to_string))
            && table.character(&other).is_some()
        {
            charge(&other, right, &mut events);
        }
        events
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        _viewer_is_gm: bool,
    ) -> Vec<Section> {
        let Some(ch) = state.characters.get(name).cloned().or_else(|| {
            table
                .character(name)
                .and_then(|(_, fields)| from_fields(fields))
        }) else {
            return Vec::new();
        };
        sheet_sections(state, &ch)
    }
}

/// The character's typed sheet: attributes, HP lines as bars with the state, damage,
/// derived values, skills with LV.
pub fn sheet_sections(state: &State, ch: &Character) -> Vec<Section> {
    let attrs = ch.attributes();
    let lv = ch.total_lv(&state.settings);
    let d = |ja: &str, en: &str, v: Value| Field::derived(Text::new(ja, en), v);
    let mut attributes = Vec::new();
    for (i, a) in ATTRIBUTES.iter().enumerate() {
        attributes.push(Field {
            key: Some(a.to_string()),
            label: Text::new(
                format!("{a}（{}）", ATTRIBUTE_NAMES[i].0),
                format!("{a} ({})", ATTRIBUTE_NAMES[i].1),
            ),
            value: Value::Text(Text::new(
                format!(
                    "{}（初期{} 成長+{} 低下−{}）",
                    attrs[i], ch.initial[i], ch.raised[i], ch.lost[i]
                ),
                format!(
                    "{} (initial {} raised +{} lost −{})",
                    attrs[i], ch.initial[i], ch.raised[i], ch.lost[i]
                ),
            )),
            derived: true,
        });
    }
    let lines = ch.lines();
    let damage = ch.damage();
    let (cj, ce) = ch.condition().names();
    let hp = vec![
        d(
            "衰弱ライン",
            "weakened line",
            Value::Resource {
                current: (lines.weakened - damage).max(0),
                max: lines.weakened,
            },
        ),
        d(
            "昏倒ライン",
            "unconscious line",
            Value::Resource {
                current: (lines.unconscious - damage).max(0),
                max: lines.unconscious,
            },
        ),
        d(
            "死亡ライン",
            "death line",
            Value::Resource {
                current: (lines.death - damage).max(0),
                max: lines.death,
            },
        ),
        d("疲労", "fatigue", Value::Number(ch.fatigue)),
        d("負傷", "injury", Value::Number(ch.injury)),
        d("累積ダメージ", "cumulative damage", Value::Number(damage)),
        d(
            "状態",
            "condition",
            Value::Text(Text::new(
                format!("{cj}{}", if ch.hungry { "・空腹" } else { "" }),
                format!("{ce}{}", if ch.hungry { ", hungry" } else { "" }),
            )),
        ),
    ];
    let other = vec![
        d("総合LV", "total LV", Value::Number(lv)),
        d(
            "経験点",
            "XP",
            Value::Text(Text::new(
                format!(
                    "獲得{} 残り{}{}",
                    ch.xp_earned,
                    ch.xp_left(),
                    if ch.creating { "（作成中）" } else { "" }
                ),
                format!(
                    "earned {} left {}{}",
                    ch.xp_earned,
                    ch.xp_left(),
                    if ch.creating { " (creating)" } else { "" }
                ),
            )),
        ),
        d(
            "移動力",
            "movement",
            Value::Number(character::movement(attrs[character::DX], ch.equipment)),
        ),
        d(
            "VT抵抗",
            "VT resistance",
            Value::Number(attrs[character::VT] + lv),
        ),
        d(
            "WP抵抗",
            "WP resistance",
            Value::Number(attrs[character::WP] + lv),
        ),
        d("利き腕", "handedness", Value::Plain(ch.hand.clone())),
        d("所持金", "money", Value::Plain(format!("{}CP", ch.money))),
    ];
    let skills: Vec<Text> = ch
        .skills
        .iter()
        .filter(|(_, l)| l.tp > 0)
        .map(|(n, l)| {
            let lvv = state.skills.get(n).and_then(|s| s.level(ch, None));
            let lvs = lvv.map_or("?".to_string(), |v| v.to_string());
            let fields = if l.fields.is_empty() {
                String::new()
            } else {
                format!(" 特化: {}", l.fields.join("・"))
            };
            Text::new(
                format!("【{n}】LV{lvs}（{}TP{fields}）", l.tp),
                format!(
                    "【{n}】 LV {lvs} ({} TP{})",
                    l.tp,
                    if l.fields.is_empty() {
                        String::new()
                    } else {
                        format!(", fields: {}", l.fields.join(", "))
                    }
                ),
            )
        })
        .collect();
    vec![
        Section {
            title: Text::new("能力値", "Attributes"),
            fields: attributes,
        },
        Section {
            title: Text::new("HP（ヒットポイント）", "HP (hit points)"),
            fields: hp,
        },
        Section {
            title: Text::new("フォーカード", "Four Card"),
            fields: other,
        },
        Section {
            title: Text::new("スキル", "Skills"),
            fields: vec![d("スキル", "skills", Value::List(skills))],
        },
    ]
}
