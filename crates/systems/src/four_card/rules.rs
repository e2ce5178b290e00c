//! Four Card at a table: characters (FC-1 to FC-8), skills (FC-5), checks that read the
//! character (FC-2's −2, FC-9's bases and fatigue), damage and recovery (FC-13), XP and
//! growth (FC-14, FC-15), under the GM's settings. Every `/fc` command is decided here in
//! rulebook order; every refusal names the rule.
//!
//! A character's rules-side record ([`Character`]) lives in the system state. It is made
//! by `/fc create` (rolled) or, the first time the rules touch a character read from a
//! sheet, imported from its fields (an `Imported` event first, so folds need no table).

use super::character::{
    self, ATTRIBUTES, Character, Condition, Item, MAX_RAISE, STARTING_XP, Sex, WIN_BACK_COST,
};
use super::check::{self, Check};
use super::damage;
use super::settings::Settings;
use super::skills::{self, Skill};
use crate::table_rules::{CommandHelp, Outcome, OwnedField, Prepared, TableRules, TableView};
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
    /// FC-3: the equipment list (the shipped example until the GM defines more).
    pub items: BTreeMap<String, Item>,
    /// FC-13: hours the table's clock has run since 6:00 of its first day.
    pub clock: i64,
    /// FC-1/FC-4: the sheet fields the GM refused, by character: that proposal is no
    /// longer waiting (a changed sheet is a new one).
    pub refused: BTreeMap<String, BTreeMap<String, String>>,
    /// FC-1 (l.38): characters whose rolled creation the GM voided: rolling them again
    /// is a reroll, which needs the GM's consent.
    pub voided_creations: std::collections::BTreeSet<String>,
}

impl Default for State {
    fn default() -> Self {
        State {
            settings: Settings::default(),
            skills: skills::example(),
            characters: BTreeMap::new(),
            interlude: false,
            items: skills::example_items(),
            clock: 0,
            refused: BTreeMap::new(),
            voided_creations: Default::default(),
        }
    }
}

impl State {
    /// FC-3: the movement modifiers of what `ch` carries (its items and any bare number).
    pub fn equipment_modifier(&self, ch: &Character) -> i64 {
        ch.equipment
            + ch.items
                .iter()
                .filter_map(|i| self.items.get(i))
                .map(|i| i.movement)
                .sum::<i64>()
    }
    /// FC-3: DX + 5 minus equipment.
    pub fn movement(&self, ch: &Character) -> i64 {
        character::movement(ch.attributes()[character::DX], self.equipment_modifier(ch))
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
    /// FC-7: the hand the player chose.
    #[serde(default)]
    pub hand: Option<String>,
    /// FC-1: every attribute rolled again (initial values after the sex modifier).
    #[serde(default)]
    pub reroll: Option<[i64; 5]>,
    /// FC-3: the items carried now.
    #[serde(default)]
    pub items: Option<Vec<String>>,
    /// FC-4: extra starting XP earmarked (added) and the skills it is for.
    #[serde(default)]
    pub earmark: Option<(i64, Vec<String>)>,
    /// FC-4: earmarked XP used.
    #[serde(default)]
    pub earmark_spent: i64,
    /// FC-13: a day ended (6:00): the day's meals and activity start again.
    #[serde(default)]
    pub day_end: bool,
    /// FC-13: the character was not at rest.
    #[serde(default)]
    pub active: bool,
    /// FC-13 (l.235): the day's injury roll was made.
    #[serde(default)]
    pub injury_rolled: bool,
    /// FC-8: money gained (negative: spent), `/fc money`.
    #[serde(default)]
    pub money: i64,
    /// FC-13 (l.218): meals missed, recorded with `/fc miss` (counted toward the day's 3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub missed: i64,
    /// FC-5: the skill's TP before this raise (with `skill`), so that an undo knows
    /// whether a specialisation rests on it (the first field comes with the first TP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill_from: Option<i64>,
    /// FC-5: the prerequisite and restricting skills this raise was allowed on; an undo
    /// of one of them is refused while this raise stands ([`TableRules::builds_on`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rests_on: Vec<String>,
    /// FC-15 (l.262): XP spent in an interlude after creation (a raise, a TP, a
    /// specialisation): it rests on the interlude's opening.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_interlude: bool,
    /// FC-14/FC-15: unspent XP left after this spend; an undo of an award larger than
    /// this is refused while the spend stands (the XP it bought would be gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xp_left: Option<i64>,
    /// FC-13 (l.220–222): the continuous rest lying down after this stretch of it (the
    /// next `… lying` carries on from it); `None` with hours passing or a meal ends it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lying: Option<damage::Lying>,
    /// FC-13 (l.217): a meal's table clock and the hours since the meal before it
    /// (`None`: no earlier meal recorded), what its recovery was decided on; an undo
    /// of the hours or the meal it counted from is refused while it stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meal_gap: Option<(i64, Option<i64>)>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
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
        /// The sheet fields the record was read from, for a character read from a sheet:
        /// the change still finds its record when the line that first read it is voided.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sheet: Option<BTreeMap<String, String>>,
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
    /// FC-3, FC-5: the GM loaded data (skills, equipment), replacing entries by name.
    Loaded {
        /// The entries.
        data: skills::Data,
    },
    /// FC-1/FC-4: the GM refused a player's sheet (the fields it proposed).
    SheetRefused {
        /// Name.
        name: String,
        /// The sheet's Four Card fields refused.
        sheet: BTreeMap<String, String>,
        /// Why, as the GM wrote it.
        reason: String,
    },
    /// FC-13: the table's clock ran.
    Clock {
        /// Hours.
        hours: i64,
        /// The clock after (hours since 6:00 of day 1).
        now: i64,
        /// FC-13: the characters the GM did not name, within one day: their hours pass
        /// too (the meal's 5 hours, l.217), not at rest (l.235 needs a day at rest).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        quiet: Vec<String>,
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

/// What Four Card's rules derive or track, which nobody types in (`/char set`, a sheet's
/// fields): the sheet proposes the initial attributes, skills, XP (`xp`, `unspent_xp`) and
/// money (`money`) for the GM's approval (FC-1/FC-4); from then on these change only
/// through the rules' commands.
const OWNED: &[OwnedField] = &[
    OwnedField {
        keys: &[
            "衰弱ライン",
            "昏倒ライン",
            "死亡ライン",
            "weakened line",
            "unconscious line",
            "death line",
        ],
        how: "衰弱・昏倒・死亡ラインはST・WP・VTから算出されます（FC-2）。能力値はシートの IQ〜VT（GMの承認、FC-1/FC-4）か /fc raise（FC-15）で変わります",
        how_en: "the weakened, unconscious and death lines are derived from ST, WP and VT (FC-2); attributes change through the sheet's IQ..VT (the GM's approval, FC-1/FC-4) or /fc raise (FC-15)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["移動力", "movement"],
        how: "移動力はDX+5−装備の移動力修正から算出されます（FC-3）。装備は /fc equip で変えます",
        how_en: "movement is DX + 5 − the equipment's movement modifiers (FC-3); change the equipment with /fc equip",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "総合LV",
            "総LV",
            "total LV",
            "VT抵抗",
            "WP抵抗",
            "VT resistance",
            "WP resistance",
        ],
        how: "総合LVは獲得経験点から表で決まり（FC-6）、VT抵抗・WP抵抗は能力値＋総合LVです（FC-10）。経験点は /fc xp（GM）で与えます",
        how_en: "total LV comes from the XP earned through the table (FC-6), and VT/WP resistance is the attribute + total LV (FC-10); the GM awards XP with /fc xp",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "疲労",
            "負傷",
            "累積ダメージ",
            "空腹",
            "状態",
            "fatigue",
            "injury",
            "cumulative damage",
            "hunger",
            "condition",
        ],
        how: "疲労・負傷はルールが記録します（FC-13）: /fc damage・/fc fatigue・/fc heal（GM）、/fc time・/fc rest（GM）、/fc meal・/fc miss・/fc day。累積ダメージと状態（衰弱・昏倒・死亡）はそこから算出されます",
        how_en: "fatigue and injury are kept by the rules (FC-13): /fc damage, /fc fatigue, /fc heal (GM), /fc time, /fc rest (GM), /fc meal, /fc miss, /fc day; cumulative damage and the state (weakened, unconscious, dead) are derived from them",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "経験点",
            "未使用経験点",
            "獲得経験点",
            "experience",
            "unspent experience",
        ],
        how: "経験点はルールが記録します: /fc xp（GM、FC-14）で与え、/fc learn・/fc special・/fc raise（FC-5/FC-15）で使います。GMの承認前のシートの値は xp・unspent_xp に書きます（FC-1/FC-4）",
        how_en: "XP is kept by the rules: the GM awards it with /fc xp (FC-14), it is spent with /fc learn, /fc special and /fc raise (FC-5/FC-15); a sheet awaiting the GM's approval gives it as xp and unspent_xp (FC-1/FC-4)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["所持金"],
        how: "所持金は作成時の 3D6×100+1000CP（FC-8）から /fc money 名前 ±額 で出入りします。GMの承認前のシートの値は money に書きます（FC-1/FC-4）",
        how_en: "money starts at 3D6×100+1000 CP (FC-8) and changes with /fc money NAME ±AMOUNT; a sheet awaiting the GM's approval gives it as money (FC-1/FC-4)",
        gm_may_set: false,
    },
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
        usage: "/fc approve ミナ | /fc approve ミナ force | /fc reject ミナ 経験点が多すぎます",
        help: "プレイヤーのシート（/char set やシートファイルの IQ〜VT・スキル・xp・unspent_xp・money など）の承認・却下（FC-1/FC-4、GM）。ルールに合わないシートは違反を示して断り、force で承知の上で承認。承認されるまでそのキャラクターは判定にも /fc にも使えず、承認後のシートの変更も承認まで反映されない",
        help_en: "Approve or refuse a player's sheet (IQ to VT, skills, xp, unspent_xp, money… from /char set or a sheet file; FC-1/FC-4, GM); a sheet breaking the rules is refused with what it breaks, force approves it knowingly. Until approved the character is not used by checks or /fc, and later changes to the sheet wait for approval too",
    },
    CommandHelp {
        usage: "/fc extra ミナ 5 魔術,魔術知識",
        help: "追加初期経験点（FC-4、GM、作成中のみ）: 用途のスキルを決めて与え、そのスキルにだけ使える",
        help_en: "Extra starting XP (FC-4, GM, during creation only), earmarked for the skills named and usable only for them",
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
        usage: "/fc reroll ミナ",
        help: "能力値をすべて振り直す（FC-1: GMの同意、作成中のみ。よほどのことがない限り認めるべきではない）",
        help_en: "Reroll every attribute (FC-1: the GM's consent, during creation only; rarely to be allowed)",
    },
    CommandHelp {
        usage: "/fc hand ミナ 右",
        help: "利き腕を選ぶ（FC-7: 両手利きでなければ右か左をプレイヤーが決める）",
        help_en: "Choose the hand (FC-7: unless ambidextrous, the player picks right or left)",
    },
    CommandHelp {
        usage: "/fc done ミナ",
        help: "作成終了（FC-4: 残った初期経験点は失われる）",
        help_en: "Finish creation (FC-4: starting XP left over is lost)",
    },
    CommandHelp {
        usage: "/fc equip ミナ 例革鎧 例大盾 | /fc equip ミナ 2 | /fc equip ミナ none",
        help: "装備（FC-3: 移動力=DX+5−装備の移動力修正）。一覧の装備か、移動力修正の数",
        help_en: "Equipment (FC-3: movement = DX + 5 − the equipment's movement modifiers): items from the list, or a modifier",
    },
    CommandHelp {
        usage: "/fc item 鎖帷子 3 | /fc items",
        help: "装備の定義（GM）と一覧（「例」で始まる同梱のものは例であり公式ではありません）",
        help_en: "Define an item (GM) and list them (the shipped entries are examples, not official)",
    },
    CommandHelp {
        usage: "/fc load 「skill = [{name = \"料理\", base = \"IQ\", expertise = 1}]」",
        help: "スキル・装備のデータを読み込む（GM）: 1行のTOML（skill = [...]・item = [...]）かJSONを「」で囲む。同じ名前は置き換え",
        help_en: "Load skill and equipment data (GM): one-line TOML (skill = [...], item = [...]) or JSON inside 「」; the same name replaces",
    },
    CommandHelp {
        usage: "/fc time 8 lying | /fc time 3 active ミナ ロイ | /fc time",
        help: "時間の経過（FC-13、GM）: rest 休憩 / lying 横になって眠る / active 安静でない。名前のないキャラクターも時間が経ち、安静の指定なしとなる。朝6時に1日が終わり、食べなかった食事1回ごとに疲労1と空腹（その後は回復しない）、負傷があれば1日の負傷ロール（安静でない時間があれば−4）",
        help_en: "Time passes (FC-13, GM): rest / lying (asleep after the first hour) / active (not at rest); characters not named pass the hours too, not stated at rest. A day ends at 6:00: 1 fatigue and hunger per meal not eaten (nothing recovers after it), and the daily injury roll for the injured (−4 if any hour was not at rest)",
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
        help: "休憩（FC-13、GM。/fc time 8 lying ミナ と同じく卓の時計が進む）: 1時間ごとに疲労1回復。lying: 横になり最初の6時間は+1、横になって6時間眠れば負傷1回復（1日1回）。空腹なら疲労は回復しない",
        help_en: "Rest (FC-13, GM; the table's clock runs, as /fc time 8 lying NAME): 1 fatigue per hour; lying: +1 more in each of the first 6 hours, 6 hours lying asleep recover 1 injury (once a day); hungry: no fatigue recovers",
    },
    CommandHelp {
        usage: "/fc meal ミナ",
        help: "食事（FC-13）: 前回から5時間以上なら疲労1回復。空腹状態が終わる",
        help_en: "A meal (FC-13): 1 fatigue back if 5 hours passed since the last; ends hunger",
    },
    CommandHelp {
        usage: "/fc miss ミナ 2",
        help: "食事を抜いた（FC-13、GM）: 1食ごとに疲労1、十分な食事まで空腹（疲労が回復しない）。食べた回数と合わせて1日3回まで。朝6時には記録のない残りが抜いた食事になる",
        help_en: "Missed meals (FC-13, GM): 1 fatigue each, hungry (no fatigue recovery) until a full meal; with the meals eaten, at most the day's 3; at 6:00 the meals not recorded count as missed",
    },
    CommandHelp {
        usage: "/fc day ミナ rest | /fc day ミナ norest",
        help: "時計を使う前の卓で、1日目 6:00に終わった1日の負傷の目標ロール（FC-13、GM: VT+総合LV、難易度=累積ダメージ、安静でなければ−4）。成功で負傷1回復。/fc time で時計を進めた後は朝6時に自動で振る",
        help_en: "Before the table's clock has run, the injury target roll for the day that ended at 6:00 of day 1 (FC-13, GM: VT + total LV against cumulative damage, −4 if not at rest); success recovers 1 injury. Once /fc time has run the clock, the roll is made at each 6:00",
    },
    CommandHelp {
        usage: "/fc money ミナ -300 剣を購入",
        help: "所持金の出入り（FC-8: 作成時は3D6×100+1000CP）。所持金を超えて払うことはできない",
        help_en: "Money in or out (FC-8: 3D6×100+1000 CP at creation); no paying more than is held",
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
        help: "GMの設定（解釈の切り替え）と一覧。comparison_auto plain はロール値だけを比べ、l.197 の括弧書き（出目がともに2・ともに12なら同値）を採らない",
        help_en: "The GM's settings (the readings) and their list; comparison_auto plain compares roll values only, dropping l.197's parenthesis (both dice 2 or both 12 are equal)",
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

/// The `/fc VERB NAME …` commands only the GM gives, as [`gm_only`] names them.
fn gm_verb(verb: &str) -> Option<(&'static str, &'static str)> {
    Some(match verb {
        "extra" => ("追加初期経験点", "give extra starting XP"),
        "lose" => ("能力値の低下", "lower an attribute"),
        "damage" => ("ダメージ（負傷、FC-13）", "deal damage (injury, FC-13)"),
        // l.239 「疲労ダメージは必ず「疲労」と表記されます」.
        "fatigue" => ("疲労を与えること（FC-13）", "give fatigue (FC-13)"),
        "heal" => ("回復", "heal"),
        "miss" => ("食事抜き", "record missed meals"),
        "xp" => ("経験点の付与", "award XP"),
        "reroll" => (
            "能力値の振り直し（FC-1: GMの同意が必要）",
            "reroll attributes (FC-1: needs the GM's consent)",
        ),
        _ => return None,
    })
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

fn nothing_waits(name: &str) -> Text {
    Text::new(
        format!(
            "FC-1/FC-4: {name}に承認を待つシートはありません（GMのキャラクター、/fc create で振ったキャラクター、承認後に変わっていないシートは承認不要です）"
        ),
        format!(
            "FC-1/FC-4: no sheet of {name} waits for approval (the GM's characters, characters rolled with /fc create and sheets unchanged since approved need none)"
        ),
    )
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

/// A whole number (full-width digits and signs folded), at most 100,000 either way.
fn number(word: &str) -> Result<i64, Text> {
    let folded = taku_dice::normalize::fold(word).text;
    let w = folded.strip_prefix('+').unwrap_or(&folded);
    let w = w.replace('−', "-");
    match w.parse::<i128>() {
        Ok(n) if n.abs() <= 100_000 => Ok(n as i64),
        Ok(_) => Err(Text::new(
            format!("「{word}」は大きすぎます（−100000〜100000）"),
            format!("'{word}' is too large (−100000 to 100000)"),
        )),
        Err(_) => Err(Text::new(
            format!("「{word}」は整数ではありません"),
            format!("'{word}' is not a whole number"),
        )),
    }
}

/// An amount: a whole number 0 or more (a negative one is refused, not read as 0).
fn amount(word: &str) -> Result<i64, Text> {
    let n = number(word)?;
    if n < 0 {
        return Err(Text::new(
            format!("「{word}」: 負の値は使えません（0以上の数を指定してください）"),
            format!("'{word}': a negative amount is not allowed (give 0 or more)"),
        ));
    }
    Ok(n)
}

/// FC fields a sheet gives: `IQ`…`VT` (initial values), `性別`, `スキル.X` TP,
/// `特化.X` fields, `xp` earned, `unspent_xp`, `money`, `移動力修正`, `装備`, `利き腕`.
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
    // The sheet's proposal (`xp`, `unspent_xp`, `money`); a log from before these
    // keys wrote 経験点, 未使用経験点 and 所持金, which the rules keep now.
    if let Some(xp) = get("xp").or_else(|| get("経験点")) {
        ch.xp_earned = xp;
    }
    ch.xp_spent = ch.xp_earned
        - get("unspent_xp")
            .or_else(|| get("未使用経験点"))
            .unwrap_or(0);
    ch.creating = false;
    ch.equipment = get("移動力修正").unwrap_or(0);
    ch.items = fields
        .get("装備")
        .map(|v| {
            v.split([',', '、'])
                .map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty())
                .collect()
        })
        .unwrap_or_default();
    ch.fatigue = get("疲労").unwrap_or(0).max(0);
    ch.injury = get("負傷").unwrap_or(0).max(0);
    ch.sheet = Some(sheet_fields(fields));
    ch.hand = character::sheet_hand(&fields.get("利き腕").cloned().unwrap_or_default());
    ch.money = get("money").or_else(|| get("所持金")).unwrap_or(0);
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

/// The sheet fields Four Card reads.
const SHEET_KEYS: &[&str] = &[
    "IQ",
    "DX",
    "ST",
    "WP",
    "VT",
    "性別",
    "追加初期経験点",
    "経験点",
    "未使用経験点",
    "xp",
    "unspent_xp",
    "money",
    "移動力修正",
    "装備",
    "利き腕",
    "所持金",
    "疲労",
    "負傷",
];

/// The Four Card part of a sheet's fields (what a record remembers it was read from).
fn sheet_fields(fields: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    fields
        .iter()
        .filter(|(k, _)| {
            SHEET_KEYS.contains(&k.as_str()) || k.starts_with("スキル.") || k.starts_with("特化.")
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Whether `key` is a sheet field Four Card reads into a record ([`SHEET_KEYS`], an
/// attribute in any width or case, `スキル.X`, `特化.X`).
fn is_sheet_key(key: &str) -> bool {
    SHEET_KEYS.contains(&key)
        || character::attribute(key).is_some()
        || key.starts_with("スキル.")
        || key.starts_with("特化.")
}

/// FC-1/FC-4: what keeps sheet field `key` of a record the rules made (`/fc create`),
/// in both languages.
fn kept_by(key: &str) -> (&'static str, &'static str) {
    if character::attribute(key).is_some() {
        return (
            "能力値は作成時に振り（FC-1）、その後は /fc raise（幕間、FC-15）と /fc lose で変わります",
            "attributes are rolled at creation (FC-1) and then change with /fc raise (in an interlude, FC-15) and /fc lose",
        );
    }
    if key.starts_with("スキル.") || key.starts_with("特化.") {
        return (
            "スキルは /fc learn、特化は /fc special で経験点を使って得ます（FC-5）",
            "skills are learned with /fc learn and fields with /fc special, paid in XP (FC-5)",
        );
    }
    match key {
        "性別" => (
            "性別は /fc create で決まります（FC-1）",
            "sex is set by /fc create (FC-1)",
        ),
        "追加初期経験点" => (
            "追加初期経験点は /fc extra で与えます（FC-4）",
            "extra starting XP is given with /fc extra (FC-4)",
        ),
        "経験点" | "未使用経験点" | "xp" | "unspent_xp" => (
            "経験点はGMの /fc xp で得て（FC-14）、/fc learn・/fc raise で使います（FC-15）",
            "XP is awarded by the GM's /fc xp (FC-14) and spent with /fc learn and /fc raise (FC-15)",
        ),
        "money" | "所持金" => (
            "所持金は作成時に振り（FC-8）、/fc money で増減します",
            "money is rolled at creation (FC-8) and changes with /fc money",
        ),
        "移動力修正" | "装備" => (
            "装備は /fc equip で変えます（FC-3）",
            "equipment changes with /fc equip (FC-3)",
        ),
        "利き腕" => (
            "利き腕は /fc hand で決めます（FC-7）",
            "handedness is set with /fc hand (FC-7)",
        ),
        _ => (
            "疲労・負傷は /fc damage・/fc fatigue・/fc heal と時間の経過で変わります（FC-13）",
            "fatigue and injury change with /fc damage, /fc fatigue, /fc heal and the passing of time (FC-13)",
        ),
    }
}

/// A record read again from changed sheet fields: what the sheet does not name
/// (fatigue, injury and hunger unless given, meals, the day's rest) carries over.
fn reread(old: &Character, fields: &BTreeMap<String, String>, mut new: Character) -> Character {
    if !fields.contains_key("疲労") {
        new.fatigue = old.fatigue;
    }
    if !fields.contains_key("負傷") {
        new.injury = old.injury;
    }
    new.hungry = old.hungry;
    new.hours_since_meal = old.hours_since_meal;
    new.no_meal_yet = old.no_meal_yet;
    new.slept_off_injury_today = old.slept_off_injury_today;
    new.meals_today = old.meals_today;
    new.meals_missed_today = old.meals_missed_today;
    new.active_today = old.active_today;
    new.raised_this_interlude = old.raised_this_interlude.clone();
    new.lying = old.lying;
    new
}

/// FC-1/FC-4, FC-14/FC-15 (fc9 F4): a changed sheet applied on top of the record read
/// from it before. What the sheet changed (the fields' difference between the sheet the
/// record was read from and the sheet now) is applied as a change: DX 5 → 6 on the sheet
/// raises the initial DX by 1, xp 15 → 20 adds 5 XP, a skill's TP 5 → 6 adds 1 TP,
/// money 2000 → 1800 takes 200 CP. Everything the table recorded since (XP awarded,
/// raises and losses, TP learned, equipment, money, fatigue and injury, meals) stays.
/// A record made without a sheet's fields before is read from the sheet as a whole.
fn apply_sheet_change(old: &Character, fields: &BTreeMap<String, String>) -> Option<Character> {
    let now = from_fields(fields)?;
    let Some(before) = old.sheet.as_ref().and_then(from_fields) else {
        return Some(reread(old, fields, now));
    };
    let mut ch = old.clone();
    for i in 0..ATTRIBUTES.len() {
        ch.initial[i] += now.initial[i] - before.initial[i];
    }
    if now.sex != before.sex {
        ch.sex = now.sex;
    }
    if now.hand != before.hand {
        ch.hand = now.hand.clone();
    }
    ch.xp_earned += now.xp_earned - before.xp_earned;
    ch.xp_spent += now.xp_spent - before.xp_spent;
    ch.money += now.money - before.money;
    ch.equipment += now.equipment - before.equipment;
    ch.fatigue = (ch.fatigue + now.fatigue - before.fatigue).max(0);
    ch.injury = (ch.injury + now.injury - before.injury).max(0);
    for item in &before.items {
        if !now.items.contains(item)
            && let Some(i) = ch.items.iter().position(|x| x == item)
        {
            ch.items.remove(i);
        }
    }
    for item in &now.items {
        if !before.items.contains(item) && !ch.items.contains(item) {
            ch.items.push(item.clone());
        }
    }
    let names: std::collections::BTreeSet<&String> =
        before.skills.keys().chain(now.skills.keys()).collect();
    let empty = character::Learned::default();
    for name in names {
        let (b, n) = (
            before.skills.get(name).unwrap_or(&empty),
            now.skills.get(name).unwrap_or(&empty),
        );
        if b == n {
            continue;
        }
        let l = ch.skills.entry(name.clone()).or_default();
        l.tp += n.tp - b.tp;
        l.fields
            .retain(|f| !b.fields.contains(f) || n.fields.contains(f));
        for f in &n.fields {
            if !b.fields.contains(f) && !l.fields.contains(f) {
                l.fields.push(f.clone());
            }
        }
        if l.tp == 0 && l.fields.is_empty() && !now.skills.contains_key(name) {
            ch.skills.remove(name);
        }
    }
    ch.sheet = now.sheet;
    Some(ch)
}

/// FC-1/FC-4 (fc9 F4): what a changed sheet changes, as [`apply_sheet_change`] applies
/// it, in Japanese and English (empty when the record had no sheet before).
fn sheet_change_words(old: &Character, fields: &BTreeMap<String, String>) -> (String, String) {
    let (Some(before), Some(now)) = (
        old.sheet.as_ref().and_then(from_fields),
        from_fields(fields),
    ) else {
        return (String::new(), String::new());
    };
    let mut ja = Vec::new();
    let mut en = Vec::new();
    let num = |ja: &mut Vec<String>, en: &mut Vec<String>, ja_name: &str, en_name: &str, d: i64| {
        if d != 0 {
            ja.push(format!("{ja_name}{d:+}"));
            en.push(format!("{en_name} {d:+}"));
        }
    };
    for (i, a) in ATTRIBUTES.iter().enumerate() {
        num(
            &mut ja,
            &mut en,
            &format!("初期{a}"),
            &format!("initial {a}"),
            now.initial[i] - before.initial[i],
        );
    }
    num(
        &mut ja,
        &mut en,
        "獲得経験点",
        "XP earned",
        now.xp_earned - before.xp_earned,
    );
    num(
        &mut ja,
        &mut en,
        "未使用経験点",
        "unspent XP",
        now.xp_left() - before.xp_left(),
    );
    num(
        &mut ja,
        &mut en,
        "所持金",
        "money",
        now.money - before.money,
    );
    num(
        &mut ja,
        &mut en,
        "移動力修正",
        "movement modifier",
        now.equipment - before.equipment,
    );
    num(
        &mut ja,
        &mut en,
        "疲労",
        "fatigue",
        now.fatigue - before.fatigue,
    );
    num(
        &mut ja,
        &mut en,
        "負傷",
        "injury",
        now.injury - before.injury,
    );
    let empty = character::Learned::default();
    let names: std::collections::BTreeSet<&String> =
        before.skills.keys().chain(now.skills.keys()).collect();
    for name in names {
        let (b, n) = (
            before.skills.get(name).unwrap_or(&empty),
            now.skills.get(name).unwrap_or(&empty),
        );
        num(
            &mut ja,
            &mut en,
            &format!("【{name}】TP"),
            &format!("【{name}】 TP"),
            n.tp - b.tp,
        );
        if b.fields != n.fields {
            ja.push(format!("【{name}】特化 {}", n.fields.join("・")));
            en.push(format!("【{name}】 fields {}", n.fields.join(", ")));
        }
    }
    if now.sex != before.sex {
        ja.push(format!("性別 {}", now.sex.ja()));
        en.push(format!("sex {:?}", now.sex).to_lowercase());
    }
    if now.hand != before.hand {
        ja.push(format!("利き腕 {}", now.hand));
        en.push(format!("hand {}", now.hand));
    }
    if now.items != before.items {
        ja.push(format!("装備 {}", now.items.join("・")));
        en.push(format!("items {}", now.items.join(", ")));
    }
    if ja.is_empty() {
        return (String::new(), String::new());
    }
    (
        format!(
            " ／ シートの変更 {} を記録に加えました（これまでの経験点・成長・習得・所持金・装備・低下・負傷はそのまま）",
            ja.join("、")
        ),
        format!(
            " / the sheet's changes {} were applied to the record (XP, growth, skills, money, equipment, losses and damage recorded so far stay)",
            en.join(", ")
        ),
    )
}

/// Whether character `name` is the GM's (an NPC, or one the GM made): its sheet needs no
/// approval.
fn gms_character(table: &dyn TableView, name: &str) -> bool {
    table
        .character(name)
        .is_some_and(|(owner, _)| table.member_is_gm(owner))
}

/// The character's record as the rules see it now, and whether it must be (re-)read
/// from its sheet. A GM's character is read from its sheet the first time the rules
/// touch it, and again when the sheet's Four Card fields changed since (a new file,
/// `/char set`). A player's sheet is only a proposal (FC-1/FC-4: a character is made by
/// the rules, starting XP spent under them): it is read when the GM approves it
/// (`/fc approve`), and until then a player's character has no record, or keeps the one
/// approved before the change.
fn record(table: &dyn TableView, state: &State, name: &str) -> Option<(Character, bool)> {
    let fields = table.character(name).map(|(_, f)| f);
    let by_gm = gms_character(table, name);
    match state.characters.get(name) {
        Some(ch) => {
            if by_gm
                && let (Some(old), Some(fields)) = (&ch.sheet, fields)
                && *old != sheet_fields(fields)
                && let Some(new) = apply_sheet_change(ch, fields)
            {
                return Some((new, true));
            }
            Some((ch.clone(), false))
        }
        None if by_gm => fields.and_then(from_fields).map(|ch| (ch, true)),
        None => None,
    }
}

/// FC-1/FC-4: a player's sheet waiting for the GM: the record it would give, and whether
/// the GM refused it as it stands. `None` when nothing waits (a GM's character, a rolled
/// one, a sheet unchanged since approved, or fields that make no Four Card character).
fn proposal(table: &dyn TableView, state: &State, name: &str) -> Option<(Character, bool)> {
    let (_, fields) = table.character(name)?;
    if gms_character(table, name) {
        return None;
    }
    let sheet = sheet_fields(fields);
    let refused = state.refused.get(name) == Some(&sheet);
    let proposed = match state.characters.get(name) {
        Some(ch) => {
            let old = ch.sheet.as_ref()?;
            if *old == sheet {
                return None;
            }
            apply_sheet_change(ch, fields)?
        }
        None => from_fields(fields)?,
    };
    Some((proposed, refused))
}

/// FC-5: the XP a record's skills and specialisations cost from nothing.
fn skill_cost(state: &State, ch: &Character) -> i64 {
    ch.skills
        .iter()
        .filter_map(|(n, l)| {
            let s = state.skills.get(n)?;
            Some(
                skills::tp_cost(s.expertise, 0, l.tp.clamp(0, skills::MAX_TP))
                    + s.field_cost * (l.fields.len() as i64 - 1).max(0),
            )
        })
        .sum()
}

/// FC-1, FC-4, FC-5: what a proposed record breaks that the rules could not have made:
/// initial attributes outside 3..7 (l.37), less than 15 + extra XP earned (l.68), more
/// XP unspent than earned, TP outside 0..9, skills and fields the table's list lacks,
/// the skill caps, prerequisites and restricting skills, skills costing more XP than
/// was spent.
fn proposal_violations(state: &State, ch: &Character) -> Vec<Text> {
    let mut out = Vec::new();
    for (a, v) in ATTRIBUTES.iter().zip(ch.initial) {
        if !(3..=7).contains(&v) {
            out.push(Text::new(
                format!("FC-1: {a} {v} は初期能力値の範囲（3〜7）の外です"),
                format!("FC-1: {a} {v} is outside the initial range 3..7"),
            ));
        }
    }
    if let Some((ja, en)) = character::female_unreachable(ch.initial, ch.sex, &state.settings) {
        out.push(Text::new(format!("FC-1: {ja}"), format!("FC-1: {en}")));
    }
    if let Some((ja, en)) = character::hand_violation(&ch.hand) {
        out.push(Text::new(format!("FC-7: {ja}"), format!("FC-7: {en}")));
    }
    let extra = ch
        .sheet
        .as_ref()
        .and_then(|f| f.get("追加初期経験点"))
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    if ch.xp_earned < STARTING_XP + extra {
        out.push(Text::new(
            format!(
                "FC-4: 獲得経験点{}は初期経験点（15＋追加{extra}）より少なくなりません",
                ch.xp_earned
            ),
            format!(
                "FC-4: XP earned {} cannot be below the starting XP (15 + extra {extra})",
                ch.xp_earned
            ),
        ));
    }
    if ch.xp_left() < 0 || ch.xp_left() > ch.xp_earned {
        out.push(Text::new(
            format!(
                "FC-14: 未使用経験点{}は0〜獲得経験点{}の間です",
                ch.xp_left(),
                ch.xp_earned
            ),
            format!(
                "FC-14: unspent XP {} must lie between 0 and the XP earned, {}",
                ch.xp_left(),
                ch.xp_earned
            ),
        ));
    }
    let lv = ch.total_lv(&state.settings);
    for (name, l) in &ch.skills {
        if !(0..=skills::MAX_TP).contains(&l.tp) {
            out.push(Text::new(
                format!("FC-5: 【{name}】{}TP は0〜9の範囲外です", l.tp),
                format!("FC-5: 【{name}】 {} TP is outside 0..9", l.tp),
            ));
            continue;
        }
        let Some(s) = state.skills.get(name) else {
            out.push(Text::new(
                format!("FC-5: 【{name}】はこの卓のスキル一覧にありません（/fc skills、GMは /fc skill で定義）"),
                format!("FC-5: 【{name}】 is not in this table's skill list (/fc skills; the GM defines more with /fc skill)"),
            ));
            continue;
        };
        if l.tp > 0
            && let Some(why) = skills::refuse_raise(s, ch, l.tp, lv, &state.skills)
        {
            out.push(why);
        }
        for f in &l.fields {
            if !s.fields.contains(f) {
                out.push(unknown_field(s, f));
            }
        }
    }
    if let Some((ja, en)) = ch.money_violation(extra) {
        out.push(Text::new(format!("FC-8: {ja}"), format!("FC-8: {en}")));
    }
    let cost = skill_cost(state, ch);
    // FC-4 (l.68): only starting XP left over at creation is lost; any other XP spent
    // bought something (l.261: skills, specialisations, attributes), which the sheet
    // would show.
    let raises: i64 = (0..ATTRIBUTES.len())
        .flat_map(|i| {
            (0..ch.raised[i].clamp(0, MAX_RAISE)).filter_map(move |r| character::raise_cost(i, r))
        })
        .sum();
    let unaccounted = ch.xp_spent - cost - raises;
    if unaccounted > STARTING_XP + extra {
        out.push(Text::new(
            format!(
                "FC-4/FC-15: 使った経験点{}のうち{unaccounted}はシートのスキルに表れていません（失われるのは作成時に残った初期経験点、最大15＋追加{extra}だけです）",
                ch.xp_spent
            ),
            format!(
                "FC-4/FC-15: {unaccounted} of the {} XP spent shows in no skill on the sheet (only starting XP left over at creation, at most 15 + extra {extra}, is lost)",
                ch.xp_spent
            ),
        ));
    }
    if cost > ch.xp_spent {
        out.push(Text::new(
            format!(
                "FC-4/FC-5: スキルに経験点{cost}が必要ですが、使った経験点は{}です（獲得{}−未使用{}）",
                ch.xp_spent,
                ch.xp_earned,
                ch.xp_left()
            ),
            format!(
                "FC-4/FC-5: the skills cost {cost} XP but {} was spent ({} earned − {} unspent)",
                ch.xp_spent,
                ch.xp_earned,
                ch.xp_left()
            ),
        ));
    }
    out
}

/// The refusal for a player's character whose sheet waits for the GM.
fn awaiting(name: &str, refused: bool) -> Text {
    if refused {
        Text::new(
            format!(
                "FC-1/FC-4: {name}のシートはGMに却下されています。シートを直してGMに /fc approve {name} で承認してもらってください"
            ),
            format!(
                "FC-1/FC-4: the GM refused {name}'s sheet; change it and ask the GM to approve it with /fc approve {name}"
            ),
        )
    } else {
        Text::new(
            format!(
                "FC-1/FC-4: {name}のシートはGMの承認待ちです。GMが /fc approve {name} で承認するまで使えません"
            ),
            format!(
                "FC-1/FC-4: {name}'s sheet waits for the GM's approval; it cannot be used until the GM approves it with /fc approve {name}"
            ),
        )
    }
}

/// The character's record, and the event (re-)reading it from its sheet's fields when
/// the rules have not touched it yet or the sheet changed since.
fn load(table: &dyn TableView, state: &State, name: &str) -> Result<(Character, Vec<Event>), Text> {
    let Some((_, fields)) = table.character(name) else {
        return Err(no_character(name));
    };
    if let Some((ch, read)) = record(table, state, name) {
        if !read {
            return Ok((ch, Vec::new()));
        }
        let again = state.characters.contains_key(name);
        let (change_ja, change_en) = state
            .characters
            .get(name)
            .map(|old| sheet_change_words(old, fields))
            .unwrap_or_default();
        let event = Event::Created {
            name: name.to_string(),
            character: ch.clone(),
            ja: if again {
                format!(
                    "{name}のシートが変わったので読み直しました（疲労・負傷などシートにないものは引き継ぎ）{change_ja}"
                )
            } else {
                format!("{name}をシートから読み込み")
            },
            en: if again {
                format!(
                    "{name}'s sheet changed and was read again (what it does not name, such as fatigue and injury, carried over){change_en}"
                )
            } else {
                format!("{name} read from the sheet")
            },
        };
        return Ok((ch, vec![event]));
    }
    let _ = fields;
    if let Some((_, refused)) = proposal(table, state, name) {
        return Err(awaiting(name, refused));
    }
    Err(not_fc(table, name))
}

/// A key whose value the Four Card rules give (FC-1 attributes, FC-5 skills and fields,
/// what FC-2 to FC-15 derive): never read from a typed field of a character the rules
/// have no record of.
fn fc_key(state: &State, key: &str) -> bool {
    character::attribute(key).is_some()
        || state.skills.contains_key(key)
        || state
            .skills
            .values()
            .any(|s| s.fields.iter().any(|f| f == key))
        || DERIVED_KEYS.contains(&key)
}

/// The `{KEY}`s [`reference`] reads from what the rules derive or track (FC-2, FC-3,
/// FC-6, FC-10, FC-13, FC-14).
const DERIVED_KEYS: &[&str] = &[
    "総合LV",
    "VT抵抗",
    "WP抵抗",
    "衰弱ライン",
    "昏倒ライン",
    "死亡ライン",
    "移動力",
    "疲労",
    "負傷",
    "累積ダメージ",
    "経験点",
    "未使用経験点",
    "所持金",
];

/// FC-5, FC-9: why skills `new` (being defined or loaded) cannot join the list `list`
/// (which already holds them): each skill and field name is read by one `{KEY}` only.
/// A name with `.` would be read as `{CHARACTER.KEY}`; an attribute's or a derived
/// value's name is read as that value; a name that is another skill or another skill's
/// field (`{剣}` of 【接近戦】 and of 【剣術】) would be read one way, silently.
fn refuse_names(new: &[Skill], list: &BTreeMap<String, Skill>) -> Option<Text> {
    for s in new {
        for n in std::iter::once(&s.name).chain(s.fields.iter()) {
            if n.contains(['.', '．']) {
                return Some(Text::new(
                    format!(
                        "FC-5: 【{n}】: スキル名・分野名に「.」は使えません（{{名前.キー}} はキャラクターの名前とキーとして読まれます）。「.」のない名前にしてください"
                    ),
                    format!(
                        "FC-5: 【{n}】: a skill or field name cannot contain '.' ({{NAME.KEY}} is read as a character and a key); choose a name without '.'"
                    ),
                ));
            }
            if character::attribute(n).is_some() || DERIVED_KEYS.contains(&n.as_str()) {
                return Some(Text::new(
                    format!(
                        "FC-5: 【{n}】: 能力値・ルールが計算する値と同じ名前のスキル・分野は {{{n}}} で読めません（{{{n}}} はその値です）。別の名前にしてください"
                    ),
                    format!(
                        "FC-5: 【{n}】: a skill or field named like an attribute or a value the rules derive could never be read ({{{n}}} is that value); choose another name"
                    ),
                ));
            }
            // fc8 F3: the name that is there twice (a field named as its own skill
            // included: `{弓術}` would read the skill at −2 or the specialised field).
            if std::iter::once(&s.name)
                .chain(s.fields.iter())
                .filter(|m| *m == n)
                .count()
                > 1
            {
                return Some(Text::new(
                    format!(
                        "FC-5: 【{}】の名前と分野に【{n}】が2回あります。1回にしてください",
                        s.name
                    ),
                    format!(
                        "FC-5: 【{n}】 appears twice among 【{}】's name and fields; name it once",
                        s.name
                    ),
                ));
            }
            if let Some(other) = list
                .values()
                .filter(|o| o.name != s.name)
                .find(|o| &o.name == n || o.fields.contains(n))
            {
                let (ja, en) = if &other.name == n {
                    (format!("スキル【{n}】"), format!("the skill 【{n}】"))
                } else {
                    (
                        format!("【{}】の分野【{n}】", other.name),
                        format!("a field of 【{}】", other.name),
                    )
                };
                return Some(Text::new(
                    format!(
                        "FC-5/FC-9: 【{n}】はすでに{ja}です。{{{n}}} が2通りに読めるので、【{}】には別の名前を付けてください",
                        s.name
                    ),
                    format!(
                        "FC-5/FC-9: 【{n}】 is already {en}; {{{n}}} would read two ways, so give 【{}】 another name",
                        s.name
                    ),
                ));
            }
        }
    }
    new.iter().find_map(|s| refuse_cycle(&s.name, list))
}

/// FC-5 (l.124 制限スキル, l.129 前提スキル 「ある別のスキルの習得の前に、最低でも1TPは
/// 習得しておく必要がある」): prerequisite and restricting skills that lead back to
/// `start` would leave every skill on the loop unlearnable (fc8 F7); the loop, if any.
fn refuse_cycle(start: &str, list: &BTreeMap<String, Skill>) -> Option<Text> {
    let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        let Some(skill) = list.get(at) else {
            continue;
        };
        for next in skill.requires.iter().chain(skill.limit.iter()) {
            if next == start {
                let mut chain = vec![at];
                let mut c = at;
                while c != start {
                    c = parent.get(c).copied().unwrap_or(start);
                    chain.push(c);
                }
                chain.reverse();
                chain.push(start);
                let path = format!("【{}】", chain.join("】→【"));
                return Some(Text::new(
                    format!(
                        "FC-5: 前提スキル・制限スキルが {path} と一巡します。どのスキルも先に習得できなくなるので、どこかのつながりを外してください"
                    ),
                    format!(
                        "FC-5: the prerequisite and restricting skills go round in a loop, {}; none of them could ever be learned first, so remove one link",
                        path.replace('→', " → ")
                    ),
                ));
            }
            if next != start && !parent.contains_key(next.as_str()) {
                parent.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

/// FC-1/FC-4: `name` has no Four Card record: what it lacks.
fn not_fc(table: &dyn TableView, name: &str) -> Text {
    let missing: Vec<&str> = table
        .character(name)
        .map(|(_, f)| {
            ATTRIBUTES
                .iter()
                .copied()
                .filter(|a| f.get(*a).is_none_or(|v| v.trim().parse::<i64>().is_err()))
                .collect()
        })
        .unwrap_or_default();
    Text::new(
        format!(
            "FC-1: {name}はフォーカードのキャラクターではありません（シートに {} がありません）。/fc create {name} female（または male）で作成するか、シートで IQ DX ST WP VT の5つを設定してGMの承認を受けてください",
            missing.join(" ")
        ),
        format!(
            "FC-1: {name} is not a Four Card character (its sheet lacks {}): /fc create {name} female (or male), or a sheet with all five of IQ DX ST WP VT, approved by the GM",
            missing.join(" ")
        ),
    )
}

fn changed(name: &str, delta: Delta, ja: String, en: String) -> Event {
    Event::Changed {
        name: name.to_string(),
        delta,
        sheet: None,
        ja,
        en,
    }
}

/// Marks the changes to `name` with the sheet its record was read from (see
/// [`Event::Changed`]).
fn with_sheet(mut events: Vec<Event>, name: &str, ch: &Character) -> Vec<Event> {
    if let Some(fields) = &ch.sheet {
        for e in &mut events {
            if let Event::Changed { name: n, sheet, .. } = e
                && n == name
            {
                *sheet = Some(fields.clone());
            }
        }
    }
    events
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
        ch.no_meal_yet = false;
    }
    if let Some(s) = d.slept_off {
        ch.slept_off_injury_today = s;
    }
    ch.xp_earned += d.xp_earned;
    ch.xp_spent += d.xp_spent;
    ch.money += d.money;
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
    if let Some(h) = &d.hand {
        ch.hand = h.clone();
    }
    if let Some(a) = d.reroll {
        ch.initial = a;
    }
    if let Some(items) = &d.items {
        ch.items = items.clone();
    }
    if let Some((n, skills)) = &d.earmark {
        ch.earmarked += n;
        for s in skills {
            if !ch.earmark_skills.contains(s) {
                ch.earmark_skills.push(s.clone());
            }
        }
    }
    ch.earmarked = (ch.earmarked - d.earmark_spent).max(0);
    if d.creation_done {
        ch.earmarked = 0;
    }
    if d.meal {
        ch.meals_today += 1;
    }
    ch.meals_missed_today += d.missed;
    if d.injury_rolled {
        ch.injury_rolled_today = true;
    }
    if d.day_end {
        ch.meals_today = 0;
        ch.meals_missed_today = 0;
        ch.active_today = false;
        ch.slept_off_injury_today = false;
        ch.injury_rolled_today = false;
    }
    if d.active {
        ch.active_today = true;
    }
    // FC-13 (l.221–222): lying down goes on only through hours spent lying down.
    if let Some(l) = d.lying {
        ch.lying = l;
    } else if d.hours > 0 || d.meal {
        ch.lying = damage::Lying::default();
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

/// Whether `ch` can pay `cost` for `skill` (`None`: an attribute): the extra starting XP
/// earmarked for that skill pays first (FC-4); anything else only from the free XP.
/// Returns the earmarked XP used.
fn afford(ch: &Character, name: &str, cost: i64, skill: Option<&str>) -> Result<i64, Text> {
    let earmarked = match skill {
        Some(s) if ch.earmark_skills.iter().any(|e| e == s) => ch.earmarked.min(cost),
        _ => 0,
    };
    if cost - earmarked <= ch.xp_free() {
        return Ok(earmarked);
    }
    if ch.earmarked > 0 {
        return Err(Text::new(
            format!(
                "{name}の経験点が足りません（必要{cost}、残り{}のうち{}は追加初期経験点で【{}】にしか使えません。FC-4）",
                ch.xp_left(),
                ch.earmarked,
                ch.earmark_skills.join("】【")
            ),
            format!(
                "{name} has too little XP ({cost} needed, {} left of which {} is extra starting XP earmarked for 【{}】 only; FC-4)",
                ch.xp_left(),
                ch.earmarked,
                ch.earmark_skills.join("】【")
            ),
        ));
    }
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

/// FC-5: what a new definition of `skill` replaces (l.107: the base attribute; l.74:
/// the expertise that prices each TP) and whose LV it changes, said before it lands.
fn redefinition(state: &State, skill: &Skill) -> Vec<Text> {
    let mut notes: Vec<Text> = Vec::new();
    if let Some(old) = state.skills.get(&skill.name) {
        let (ja, en) = skill_words(old);
        let (new_ja, new_en) = skill_words(skill);
        notes.push(Text::new(
            format!(
                "FC-5: 【{}】の定義を置き換えます（以前: {ja} → 今後: {new_ja}）",
                skill.name
            ),
            format!(
                "FC-5: this replaces 【{}】's definition (it was: {en}; now: {new_en})",
                skill.name
            ),
        ));
    }
    let holders: Vec<String> = state
        .characters
        .iter()
        .filter_map(|(n, c)| {
            c.skills
                .get(&skill.name)
                .filter(|l| l.tp > 0)
                .map(|l| format!("{n}（{}TP）", l.tp))
        })
        .collect();
    if !holders.is_empty() {
        notes.push(Text::new(
            format!(
                "FC-5: 【{}】を習得しているキャラクター: {}。スキルLVとこれからの習得の経験点はこの定義に従います（すでに使った経験点は変わりません）",
                skill.name,
                holders.join("、")
            ),
            format!(
                "FC-5: characters holding 【{}】: {}; their skill LV and the price of further TP now follow this definition (XP already spent stays spent)",
                skill.name,
                holders.join(", ")
            ),
        ));
    }
    notes
}

/// What the GM is told on changing a setting to `new`: FC-6/FC-5 (l.119), the characters
/// whose capped skills are now above their total LV (the cap binds the next raise; TP
/// already learned stays); FC-11 (l.197), that `plain` no longer counts both 2 and both
/// 12 as equal.
fn setting_notes(state: &State, new: &Settings, key: &str) -> Vec<Text> {
    let mut notes = Vec::new();
    if key == "total_lv_table" {
        let over: Vec<String> = state
            .characters
            .iter()
            .flat_map(|(name, ch)| {
                let lv = new.total_lv(ch.xp_earned);
                ch.skills.iter().filter_map(move |(skill, learned)| {
                    let capped = state
                        .skills
                        .get(skill)
                        .is_some_and(|s| s.cap.as_deref() == Some("total_lv"));
                    (capped && learned.tp > lv)
                        .then(|| format!("{name}【{skill}】{}TP（総合LV {lv}）", learned.tp))
                })
            })
            .collect();
        if !over.is_empty() {
            let list = over.join("、");
            notes.push(Text::new(
                format!(
                    "FC-5/FC-6: この表では総合LVによるスキルキャップを超えるスキルがあります: {list}。習得済みのTPはそのまま残り、キャップを超えてはそれ以上伸ばせません"
                ),
                format!(
                    "FC-5/FC-6: under this table these skills are above their total-LV cap: {}. The TP already learned stay; no further TP past the cap",
                    list.replace("（総合LV ", " (total LV ").replace('）', ")").replace('、', ", ")
                ),
            ));
        }
    }
    if key == "comparison_auto" && new.comparison_plain {
        notes.push(Text::new(
            "FC-11: plain ではロール値だけを比べます。l.197 の括弧書き（出目が「ともに2」「ともに12」でも同値）は採らず、ロール値の高い方が勝ちます。1回の比較ロールだけ既定の読み方にするには FC+b VS FC+c#OVERRIDE",
            "FC-11: plain compares roll values only. It drops l.197's parenthesis (both dice 2 or both 12 count as equal): the higher roll value wins. For one comparison roll read the default way, FC+b VS FC+c#OVERRIDE",
        ));
    }
    notes
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
            let notes = setting_notes(state, &s, key);
            Ok(Outcome {
                events: vec![Event::Setting {
                    key: key.to_string(),
                    value: value.to_string(),
                }],
                reply: (!notes.is_empty()).then(|| Text::join(&notes, "\n")),
            })
        }
        ["set", ..] => Err(usage("/fc set 設定 値", "/fc set KEY VALUE")),
        ["skills"] => {
            let (mut ja, mut en) = (Vec::new(), Vec::new());
            for s in state.skills.values() {
                let fields = |sep: &str| s.fields.join(sep);
                let lim_ja = format!(
                    "{}{}",
                    s.limit
                        .as_ref()
                        .map(|l| format!(" 制限【{l}】"))
                        .unwrap_or_default(),
                    if s.requires.is_empty() {
                        String::new()
                    } else {
                        format!(" 前提【{}】", s.requires.join("】【"))
                    }
                );
                let lim_en = format!(
                    "{}{}",
                    s.limit
                        .as_ref()
                        .map(|l| format!(", restricted by 【{l}】"))
                        .unwrap_or_default(),
                    if s.requires.is_empty() {
                        String::new()
                    } else {
                        format!(", requires 【{}】", s.requires.join("】【"))
                    }
                );
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
                    lim_ja,
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
                    lim_en,
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
                expertise: number(expertise)?,
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
            let known = |n: &str| state.skills.contains_key(n);
            if let Some(why) = skills::refuse_definition(&skill, &known) {
                return Err(why);
            }
            let mut list = state.skills.clone();
            list.insert(skill.name.clone(), skill.clone());
            if let Some(why) = refuse_names(std::slice::from_ref(&skill), &list) {
                return Err(why);
            }
            let notes = redefinition(state, &skill);
            let reply = (!notes.is_empty()).then(|| Text::join(&notes, "\n"));
            Ok(Outcome {
                events: vec![Event::SkillDefined { skill }],
                reply,
            })
        }
        ["interlude", which] => {
            gm_only(table, ("幕間の開始・終了", "start or end an interlude"))?;
            let open = match *which {
                "start" => true,
                "end" => false,
                _ => return Err(usage("/fc interlude start|end", "/fc interlude start|end")),
            };
            // FC-15: one interlude at a time (a second start would renew
            // `one_step_per_interlude`'s step).
            if open == state.interlude {
                return Err(if open {
                    Text::new(
                        "FC-15: 幕間はすでに始まっています（/fc interlude end で終了）",
                        "FC-15: an interlude is already open (/fc interlude end closes it)",
                    )
                } else {
                    Text::new(
                        "FC-15: 幕間は開いていません（/fc interlude start で開始）",
                        "FC-15: no interlude is open (/fc interlude start opens one)",
                    )
                });
            }
            done(vec![Event::Interlude { open }])
        }
        ["create", name, sex] => create(table, state, name, sex, dice),
        ["time"] => Ok(Outcome {
            events: Vec::new(),
            reply: Some(Text::new(
                format!("現在は{}です", clock_words(state.clock).0),
                format!("now {}", clock_words(state.clock).1),
            )),
        }),
        ["time", hours, rest @ ..] => time_passes(table, state, hours, rest, dice),
        ["load", rest @ ..] if !rest.is_empty() => {
            gm_only(table, ("データの読み込み", "load data"))?;
            let data = skills::parse_data(&rest.join(" ")).map_err(|e| {
                Text::new(
                    format!("FC-3/FC-5: データとして読めません: {}（例: 「skill = [{{name = \"料理\", base = \"IQ\", expertise = 1}}]」 または JSON {{\"skill\": [...], \"item\": [...]}}）", e.ja()),
                    format!("FC-3/FC-5: not a data file: {} (e.g. 「skill = [{{name = \"料理\", base = \"IQ\", expertise = 1}}]」 or JSON {{\"skill\": [...], \"item\": [...]}})", e.en()),
                )
            })?;
            let known =
                |n: &str| state.skills.contains_key(n) || data.skill.iter().any(|s| s.name == n);
            for s in &data.skill {
                if let Some(why) = skills::refuse_definition(s, &known) {
                    return Err(why);
                }
            }
            let mut list = state.skills.clone();
            for s in &data.skill {
                list.insert(s.name.clone(), s.clone());
            }
            if let Some(why) = refuse_names(&data.skill, &list) {
                return Err(why);
            }
            // FC-5: a loaded entry replacing a skill says so, as `/fc skill` does.
            let notes: Vec<Text> = data
                .skill
                .iter()
                .flat_map(|s| redefinition(state, s))
                .collect();
            let reply = (!notes.is_empty()).then(|| Text::join(&notes, "\n"));
            Ok(Outcome {
                events: vec![Event::Loaded { data }],
                reply,
            })
        }
        ["load"] => Err(usage(
            "/fc load TOMLまたはJSON（[[skill]] と [[item]]、1行で）",
            "/fc load TOML-or-JSON ([[skill]] and [[item]] on one line)",
        )),
        ["item", name, n] => {
            gm_only(table, ("装備の定義", "define an item"))?;
            let movement = number(n)?;
            if !(0..=100).contains(&movement) {
                return Err(Text::new(
                    "FC-3: 装備の移動力修正は0〜100です（移動力から引く数。DX+5を超えることはありません）",
                    "FC-3: an item's movement modifier is 0 to 100 (subtracted from movement, never above DX + 5)",
                ));
            }
            if !skills::plain_name(name) {
                return Err(Text::new(
                    "FC-3: 装備の名前は、空白・制御文字・見えない文字のない40文字までの1語にしてください",
                    "FC-3: an item's name is one word of up to 40 characters, without spaces, control or invisible characters",
                ));
            }
            let data = skills::parse_data(
                &serde_json::json!({"item": [{"name": name, "movement": movement}]}).to_string(),
            )
            .map_err(|e| Text::new(format!("FC-3: {}", e.ja()), format!("FC-3: {}", e.en())))?;
            done(vec![Event::Loaded { data }])
        }
        ["items"] => {
            let list: Vec<String> = state
                .items
                .values()
                .map(|i| format!("{} −{}", i.name, i.movement))
                .collect();
            Ok(Outcome {
                events: Vec::new(),
                reply: Some(Text::new(
                    format!(
                        "装備一覧（移動力修正。「例」で始まる同梱のものは例であり公式ではありません）: {}",
                        list.join(" / ")
                    ),
                    format!(
                        "Equipment (movement modifiers; the shipped entries are examples, not official): {}",
                        list.join(" / ")
                    ),
                )),
            })
        }
        ["create", ..] => Err(usage(
            "/fc create 名前 female|male",
            "/fc create NAME female|male",
        )),
        // FC-1/FC-4: a player's sheet is a proposal the GM approves or refuses.
        ["approve", name, rest @ ..] if rest.is_empty() || rest == ["force"] => {
            gm_only(
                table,
                ("シートの承認（FC-1/FC-4）", "approve a sheet (FC-1/FC-4)"),
            )?;
            if table.character(name).is_none() {
                return Err(no_character(name));
            }
            let Some((ch, _)) = proposal(table, state, name) else {
                if !state.characters.contains_key(*name) && !gms_character(table, name) {
                    return Err(not_fc(table, name));
                }
                return Err(nothing_waits(name));
            };
            // FC-1, FC-4, FC-5: what the rules cannot have made is refused, listed; the
            // GM may still approve it knowingly (`force`), and the log says what.
            let broken = proposal_violations(state, &ch);
            if !broken.is_empty() && rest.is_empty() {
                let ja: Vec<&str> = broken.iter().map(|t| t.ja()).collect();
                let en: Vec<&str> = broken.iter().map(|t| t.en()).collect();
                return Err(Text::new(
                    format!(
                        "{name}のシートはルールに合いません:\n  {}\n直してもらうか（/fc reject {name} 理由）、承知の上で認めるなら /fc approve {name} force",
                        ja.join("\n  ")
                    ),
                    format!(
                        "{name}'s sheet breaks the rules:\n  {}\nhave it changed (/fc reject {name} REASON), or approve it knowingly with /fc approve {name} force",
                        en.join("\n  ")
                    ),
                ));
            }
            let forced = if broken.is_empty() {
                (String::new(), String::new())
            } else {
                let ja: Vec<&str> = broken.iter().map(|t| t.ja()).collect();
                let en: Vec<&str> = broken.iter().map(|t| t.en()).collect();
                (
                    format!(" ／ ルール外を承知で承認: {}", ja.join("、")),
                    format!(" / approved outside the rules: {}", en.join("; ")),
                )
            };
            let again = state.characters.contains_key(*name);
            let (change_ja, change_en) = match (state.characters.get(*name), table.character(name))
            {
                (Some(old), Some((_, fields))) => sheet_change_words(old, fields),
                _ => Default::default(),
            };
            let attrs = ATTRIBUTES
                .iter()
                .zip(ch.attributes())
                .map(|(n, v)| format!("{n}{v}"))
                .collect::<Vec<_>>()
                .join(" ");
            let lv = ch.total_lv(&state.settings);
            done(vec![Event::Created {
                name: name.to_string(),
                character: ch.clone(),
                ja: format!(
                    "GMが{name}のシート{}を承認（FC-1/FC-4）: {attrs} ／ 経験点 獲得{} 残り{}（スキルに{}） 総合LV{lv}{}",
                    if again { "の変更" } else { "" },
                    ch.xp_earned,
                    ch.xp_left(),
                    skill_cost(state, &ch),
                    forced.0,
                ) + &change_ja,
                en: format!(
                    "the GM approved {name}'s sheet{} (FC-1/FC-4): {attrs} / XP earned {} left {} ({} on skills) total LV {lv}{}",
                    if again { " as changed" } else { "" },
                    ch.xp_earned,
                    ch.xp_left(),
                    skill_cost(state, &ch),
                    forced.1,
                ) + &change_en,
            }])
        }
        ["reject", name, reason @ ..] => {
            gm_only(
                table,
                ("シートの却下（FC-1/FC-4）", "refuse a sheet (FC-1/FC-4)"),
            )?;
            let Some((_, fields)) = table.character(name) else {
                return Err(no_character(name));
            };
            match proposal(table, state, name) {
                None => Err(nothing_waits(name)),
                Some((_, true)) => Err(Text::new(
                    format!("{name}のこのシートはすでに却下しています"),
                    format!("{name}'s sheet as it stands is already refused"),
                )),
                Some((_, false)) => done(vec![Event::SheetRefused {
                    name: name.to_string(),
                    sheet: sheet_fields(fields),
                    reason: reason.join(" "),
                }]),
            }
        }
        // FC-13: rest is time passing, and time is the table's: `/fc rest` is `/fc time`
        // for one character (the others' hours pass too).
        ["rest", name, hours, how @ ..] if how.len() <= 1 => {
            gm_only(
                table,
                (
                    "休憩（FC-13: 時間の経過はGMが決める。/fc time 時間 rest 名前 でも）",
                    "let a character rest (FC-13: time passing is the GM's; /fc time HOURS rest NAME too)",
                ),
            )?;
            let mode = match how.first() {
                None => "rest",
                Some(&("lying" | "sleep" | "横になる")) => "lying",
                Some(_) => {
                    return Err(usage(
                        "/fc rest 名前 時間 [lying]",
                        "/fc rest NAME HOURS [lying]",
                    ));
                }
            };
            if table.character(name).is_none() {
                return Err(no_character(name));
            }
            time_passes(table, state, hours, &[mode, name], dice)
        }
        ["approve" | "reject", ..] => Err(usage(
            "/fc approve 名前 [force] | /fc reject 名前 [理由]",
            "/fc approve NAME [force] | /fc reject NAME [REASON]",
        )),
        [verb, name, rest @ ..] => {
            // What only the GM does is said as such, to the owner and to anyone else
            // (fc7 F8: not "only its owner or the GM").
            if let Some(what) = gm_verb(verb) {
                gm_only(table, what)?;
            }
            may_act_for(table, name)?;
            let (ch, mut events) = load(table, state, name)?;
            let growth = matches!(*verb, "learn" | "special" | "raise");
            // FC-2 (l.55): at the death line the character dies. It neither grows
            // (a raise of ST, WP or VT would move the death line back above its damage)
            // nor eats; bringing it back is the GM's `/fc heal`, logged as the GM's call.
            if ch.condition() == Condition::Dead && (growth || *verb == "meal") {
                let (ja, en) = if growth {
                    ("成長できません", "cannot grow")
                } else {
                    ("食事できません", "cannot eat")
                };
                return Err(Text::new(
                    format!(
                        "FC-2: {name}は死亡しています（累積ダメージ{}、死亡ライン{}）。死亡したキャラクターは{ja}。生き返らせるのはGMの判断です（/fc heal）",
                        ch.damage(),
                        ch.lines().death
                    ),
                    format!(
                        "FC-2: {name} is dead (cumulative damage {}, death line {}); a dead character {en}; bringing it back is the GM's decision (/fc heal)",
                        ch.damage(),
                        ch.lines().death
                    ),
                ));
            }
            // FC-2 (l.53) 「キャラクターは意識を失います」: an unconscious (or dead)
            // character does nothing of its own: its player neither feeds it, shops,
            // changes its equipment nor spends its XP (fc8 F8); what befalls it is the
            // GM's to record.
            if !table.actor_is_gm()
                && ch.cannot_act()
                && matches!(
                    *verb,
                    "meal" | "money" | "equip" | "learn" | "special" | "raise"
                )
            {
                let (state_ja, state_en, line_ja, line_en, line) =
                    if ch.condition() == Condition::Dead {
                        (
                            "死亡しています",
                            "is dead",
                            "死亡ライン",
                            "death line",
                            ch.lines().death,
                        )
                    } else {
                        (
                            "昏倒しています",
                            "is unconscious",
                            "昏倒ライン",
                            "unconscious line",
                            ch.lines().unconscious,
                        )
                    };
                return Err(Text::new(
                    format!(
                        "FC-2: {name}は{state_ja}（累積ダメージ{}、{line_ja}{line}）。意識がなく、食事・買い物・装備の変更・成長を自分ではできません。{name}の身に起こることはGMが記録します",
                        ch.damage()
                    ),
                    format!(
                        "FC-2: {name} {state_en} (cumulative damage {}, {line_en} {line}) and cannot eat, shop, change equipment or grow by itself; what befalls {name} is the GM's to record",
                        ch.damage()
                    ),
                ));
            }
            let mut own = character_command(table, state, name, &ch, verb, rest, dice)?;
            if growth && !ch.creating {
                for e in &mut own {
                    if let Event::Changed { delta, .. } = e
                        && delta.xp_spent > 0
                    {
                        delta.in_interlude = true;
                    }
                }
            }
            events.extend(own);
            done(with_sheet(events, name, &ch))
        }
        [verb, ..] if verb_usage(verb).is_some() => Err(verb_usage(verb)
            .unwrap_or_else(|| usage("/fc コマンド（/help を参照）", "/fc COMMAND (see /help)"))),
        _ => Err(usage(
            "/fc コマンド（/help を参照）",
            "/fc COMMAND (see /help)",
        )),
    }
}

/// fc7 F16: a `/fc VERB` typed with the wrong words is answered with that command's own
/// example and what it does (from [`COMMANDS`]), not the list of every command.
fn verb_usage(verb: &str) -> Option<Text> {
    let prefix = format!("/fc {verb} ");
    let c = COMMANDS.iter().find(|c| c.usage.starts_with(&prefix))?;
    // The examples name ミナ and ロイ; in English they are Mina and Roy.
    let en = c
        .usage
        .replace("ミナ", "Mina")
        .replace("ロイ", "Roy")
        .replace("剣を購入", "sword");
    let en = if en.chars().any(|ch| matches!(ch, '\u{3040}'..='\u{30ff}')) {
        format!("usage: {}", c.help_en)
    } else {
        format!("usage (e.g.): {en} — {}", c.help_en)
    };
    Some(Text::new(
        format!("使い方（例）: {} — {}", c.usage, c.help),
        en,
    ))
}

/// The table's clock: day and hour (`clock` hours after 6:00 of day 1).
fn clock_words(clock: i64) -> (String, String) {
    let day = clock.div_euclid(24) + 1;
    let hour = (clock.rem_euclid(24) + 6) % 24;
    // FC-13 (l.235 「朝6時から翌朝6時まで」): the rules' day runs 6:00 to 6:00; the hours
    // after midnight are that day's night, said so (fc7 F13: 「1日目 4:00」 after
    // 「1日目 21:00」 read as going back in time).
    if hour < 6 {
        return (
            format!("{day}日目 翌{hour}:00"),
            format!("day {day}, {hour}:00 the next morning"),
        );
    }
    (
        format!("{day}日目 {hour}:00"),
        format!("day {day}, {hour}:00"),
    )
}

/// FC-13 as time passing (our reading of how the seed's time rules meet a clock): the
/// table's clock runs `hours`; each character named (every Four Card character when none
/// is) spends them at rest, lying down (sleeping after the first hour) or active (not at
/// rest). The span is cut at each 6:00: rest recovers as `/fc rest` does up to it (a
/// continuous rest keeps counting its sleep across it); at 6:00 each of the day's 3 meals
/// neither eaten (`/fc meal`) nor already missed (`/fc miss`) costs 1 fatigue and leaves
/// the character hungry, so that nothing recovers after it until a meal (l.218), and an
/// injured character makes the daily injury roll, −4 if any hour of the day was not
/// stated at rest (l.235). Characters not named pass the hours too, not at rest: within a
/// day silently (the clock's line names them), across 6:00 with their day's end.
fn time_passes(
    table: &dyn TableView,
    state: &State,
    hours: &str,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Outcome<Event>, Text> {
    gm_only(table, ("時間の経過", "let time pass"))?;
    let hours = number(hours)?;
    if !(1..=72).contains(&hours) {
        return Err(Text::new(
            "FC-13: 時間の経過は1〜72時間で指定してください",
            "FC-13: let 1 to 72 hours pass",
        ));
    }
    #[derive(PartialEq, Clone, Copy)]
    enum Mode {
        Active,
        Rest,
        Lying,
        /// A character the GM did not name: its hours pass, not stated at rest.
        Unnamed,
    }
    let (mode, names) = match rest.split_first() {
        Some((&("active" | "行動"), names)) => (Mode::Active, names),
        Some((&("rest" | "休憩"), names)) => (Mode::Rest, names),
        Some((&("lying" | "sleep" | "睡眠" | "横になる"), names)) => (Mode::Lying, names),
        _ => (Mode::Active, rest),
    };
    let with_record = || -> Vec<String> {
        table
            .characters()
            .into_iter()
            .map(|(n, _)| n.to_string())
            .filter(|n| record(table, state, n).is_some())
            .collect()
    };
    let mut names: Vec<String> = if names.is_empty() {
        with_record()
    } else {
        let mut seen: Vec<String> = Vec::new();
        for n in names {
            if !seen.iter().any(|m| m == n) {
                seen.push(n.to_string());
            }
        }
        seen
    };
    let start = state.clock;
    let end = start + hours;
    let crosses = end.div_euclid(24) > start.div_euclid(24);
    let named = names.len();
    let mut quiet = Vec::new();
    for n in with_record() {
        if !names.contains(&n) {
            if crosses {
                names.push(n);
            } else {
                quiet.push(n);
            }
        }
    }
    let mut events = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let mode = if i < named { mode } else { Mode::Unnamed };
        let (mut cur, imported) = load(table, state, name)?;
        events.extend(imported);
        if cur.condition() == Condition::Dead {
            // FC-2 (l.55): the dead neither eat nor recover. FC-13 (l.218): the day still
            // ends at 6:00, so that after a GM's `/fc heal` the meals of the day she died
            // are not counted into the next.
            if crosses {
                events.push(changed(
                    name,
                    Delta {
                        day_end: true,
                        slept_off: Some(false),
                        ..Delta::default()
                    },
                    format!(
                        "{name}: 朝6時、新しい1日（FC-13）。死亡しているので食事・疲労・負傷の処理はなし（FC-2）"
                    ),
                    format!(
                        "{name}: 6:00, a new day (FC-13); dead, so no meals, fatigue or injury are counted (FC-2)"
                    ),
                ));
            }
            continue;
        }
        let mut at = start;
        // FC-13 (l.222): a rest lying down that goes on from the last one (nothing else
        // has passed for the character since) keeps counting its 6 hours of sleep.
        let mut lying = if mode == Mode::Lying {
            cur.lying
        } else {
            damage::Lying::default()
        };
        let carried = lying.hours;
        while at < end {
            let next_morning = (at.div_euclid(24) + 1) * 24;
            let stop = end.min(next_morning);
            let span = stop - at;
            // The stretch up to the next 6:00 (or the end).
            let (delta, what) = match mode {
                Mode::Unnamed | Mode::Active => (
                    Delta {
                        hours: span,
                        active: true,
                        ..Delta::default()
                    },
                    if mode == Mode::Unnamed {
                        (
                            format!("{span}時間経過（安静の指定なし）"),
                            format!("{span} hours pass (not stated at rest)"),
                        )
                    } else {
                        (
                            format!("{span}時間経過（安静でない）"),
                            format!("{span} hours pass (not at rest)"),
                        )
                    },
                ),
                Mode::Rest | Mode::Lying => {
                    let (r, after) = damage::rest_from(&cur, lying, span, mode == Mode::Lying);
                    let went_on = if mode == Mode::Lying && at == start && carried > 0 {
                        (
                            format!("（{carried}時間前から横になったまま続けて）"),
                            format!(" (going on from {carried} hours already lying down)"),
                        )
                    } else {
                        (String::new(), String::new())
                    };
                    lying = after;
                    let hungry = if cur.hungry {
                        (
                            "（空腹のため疲労は回復しない）",
                            " (hungry: no fatigue recovers)",
                        )
                    } else {
                        ("", "")
                    };
                    let slept = if r.injury > 0 {
                        ("、睡眠で負傷−1", ", sleep: injury −1")
                    } else {
                        ("", "")
                    };
                    (
                        Delta {
                            fatigue: -r.fatigue,
                            injury: -r.injury,
                            hours: span,
                            slept_off: (r.injury > 0).then_some(true),
                            lying: (mode == Mode::Lying).then_some(after),
                            ..Delta::default()
                        },
                        if mode == Mode::Lying {
                            (
                                format!(
                                    "{span}時間横になって休む{}、疲労−{}{}{}",
                                    went_on.0, r.fatigue, slept.0, hungry.0
                                ),
                                format!(
                                    "{span} hours lying down{}, fatigue −{}{}{}",
                                    went_on.1, r.fatigue, slept.1, hungry.1
                                ),
                            )
                        } else {
                            (
                                format!("{span}時間休憩、疲労−{}{}", r.fatigue, hungry.0),
                                format!("{span} hours' rest, fatigue −{}{}", r.fatigue, hungry.1),
                            )
                        },
                    )
                }
            };
            // When the span is cut at 6:00, each stretch says which hours it was.
            let what = if crosses {
                let (from, to) = (clock_words(at), clock_words(stop));
                (
                    format!("{}〜{}: {}", from.0, to.0, what.0),
                    format!("{} to {}: {}", from.1, to.1, what.1),
                )
            } else {
                what
            };
            events.push(damage_event(name, &cur, delta.clone(), (&what.0, &what.1)));
            apply(&mut cur, &delta);
            at = stop;
            if stop < next_morning {
                break;
            }
            // 6:00: the day ends. FC-13 (l.218): each of the day's 3 meals missed costs 1
            // fatigue; hungry.
            let missed = (3 - cur.meals_today.min(3) - cur.meals_missed_today).max(0);
            if missed > 0 {
                let d = Delta {
                    fatigue: missed,
                    hungry: Some(true),
                    missed,
                    ..Delta::default()
                };
                let already = if cur.meals_missed_today > 0 {
                    (
                        format!("（抜いたと記録済み{}回）", cur.meals_missed_today),
                        format!(" ({} already recorded as missed)", cur.meals_missed_today),
                    )
                } else {
                    (String::new(), String::new())
                };
                events.push(damage_event(
                    name,
                    &cur,
                    d.clone(),
                    (
                        &format!(
                            "朝6時、1日の食事3回のうち{}回{}、{missed}食抜いた（FC-13）、疲労+{missed}、空腹（十分な食事まで疲労は回復しない）",
                            cur.meals_today, already.0
                        ),
                        &format!(
                            "6:00: {} of the day's 3 meals eaten{}, {missed} missed (FC-13): fatigue +{missed}, hungry (no fatigue recovers until a full meal)",
                            cur.meals_today, already.1
                        ),
                    ),
                ));
                apply(&mut cur, &d);
            }
            // FC-13 (l.235): the day at rest or not: any hour of it not stated at rest.
            let at_rest = !cur.active_today;
            let day_end = Delta {
                day_end: true,
                slept_off: Some(false),
                ..Delta::default()
            };
            if cur.injury > 0 && cur.condition() != Condition::Dead {
                let e = injury_roll(state, name, &cur, at_rest, Some(false), dice)?;
                if let Event::Changed { delta, .. } = &e {
                    apply(&mut cur, delta);
                }
                events.push(e);
            } else {
                apply(&mut cur, &day_end);
                events.push(changed(
                    name,
                    day_end,
                    format!("{name}: 朝6時、新しい1日（FC-13）"),
                    format!("{name}: 6:00, a new day (FC-13)"),
                ));
            }
            if cur.condition() == Condition::Dead {
                break;
            }
        }
        events = with_sheet(events, name, &cur);
    }
    events.push(Event::Clock {
        hours,
        now: end,
        quiet,
    });
    done(events)
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
    // FC-1 (l.38): 「GMの同意を得たうえで能力値をすべて振り直すことができますが、よほどの
    // ことがない限り振り直しを認めるべきではありません」: a creation the GM voided is rolled
    // again only by the GM (its consent).
    let again = state.voided_creations.contains(name);
    if again && !table.actor_is_gm() {
        return Err(Text::new(
            format!(
                "FC-1: {name}の作成はGMに無効化されています。もう一度振るのは能力値の振り直しで、GMの同意が要ります（GMが /fc create {name} 性別 で振ります）"
            ),
            format!(
                "FC-1: {name}'s creation was voided by the GM; rolling again is a reroll, which needs the GM's consent (the GM rolls it with /fc create {name} SEX)"
            ),
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
    let (ja, en) = if again {
        (
            format!("{ja} ／ 無効化された作成をGMの同意で振り直し（FC-1）"),
            format!("{en} / a voided creation rolled again with the GM's consent (FC-1)"),
        )
    } else {
        (ja, en)
    };
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
        ("extra", [n, skills]) => {
            gm_only(table, ("追加初期経験点", "give extra starting XP"))?;
            if !ch.creating {
                return Err(Text::new(
                    format!("FC-4: {name}は作成を終えています。追加初期経験点は作成中だけです"),
                    format!(
                        "FC-4: {name} has finished creation; extra starting XP is for creation only"
                    ),
                ));
            }
            let n = amount(n)?;
            if n == 0 {
                return Err(Text::new(
                    "FC-4: 追加初期経験点は1以上です（/fc extra 名前 経験点 スキル）",
                    "FC-4: extra starting XP is 1 or more (/fc extra NAME XP SKILL)",
                ));
            }
            // FC-4: extra starting XP is earmarked for named skills (l.70).
            let list: Vec<String> = skills
                .split([',', '、'])
                .map(|w| w.trim().trim_start_matches('【').trim_end_matches('】'))
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            for sk in &list {
                skill_named(state, sk)?;
            }
            Ok(vec![changed(
                name,
                Delta {
                    xp_earned: n,
                    earmark: Some((n, list.clone())),
                    ..Delta::default()
                },
                format!(
                    "{name}: 追加初期経験点+{n}（【{}】の習得にだけ使える。初期経験点{}）",
                    list.join("】【"),
                    ch.xp_earned + n
                ),
                format!(
                    "{name}: extra starting XP +{n} (for 【{}】 only; starting XP {})",
                    list.join("】【"),
                    ch.xp_earned + n
                ),
            )])
        }
        ("extra", _) => Err(usage(
            "/fc extra 名前 経験点 スキル[,スキル]（FC-4: 追加初期経験点は用途のスキルが決まっている）",
            "/fc extra NAME XP SKILL[,SKILL] (FC-4: extra starting XP is earmarked for named skills)",
        )),
        // FC-7 (l.95): a character who is not ambidextrous is right- or left-handed, as the
        // player chooses.
        ("hand", [which]) => {
            let hand = match *which {
                "右" | "右利き" | "right" => "右利き",
                "左" | "左利き" | "left" => "左利き",
                _ => return Err(usage("/fc hand 名前 右|左", "/fc hand NAME right|left")),
            };
            if ch.hand == "両手利き" {
                return Err(Text::new(
                    format!("FC-7: {name}は両手利きです（2D6で12）"),
                    format!("FC-7: {name} is ambidextrous (12 on 2D6)"),
                ));
            }
            // FC-7 is part of making the character: once made, the hand stays (the GM
            // may still set it).
            if !ch.creating && !table.actor_is_gm() && (ch.hand == "右利き" || ch.hand == "左利き")
            {
                return Err(Text::new(
                    format!(
                        "FC-7: {name}の利き腕（{}）は作成時に決めました。変えられるのはGMだけです",
                        ch.hand
                    ),
                    format!("FC-7: {name}'s hand was chosen at creation; only the GM changes it"),
                ));
            }
            Ok(vec![changed(
                name,
                Delta {
                    hand: Some(hand.to_string()),
                    ..Delta::default()
                },
                format!("{name}: 利き腕は{hand}（FC-7）"),
                format!(
                    "{name}: {}-handed (FC-7)",
                    if hand == "右利き" { "right" } else { "left" }
                ),
            )])
        }
        // FC-1 (l.38): with the GM's consent every attribute is rolled again.
        ("reroll", []) => {
            gm_only(
                table,
                (
                    "能力値の振り直し（FC-1: GMの同意が必要）",
                    "reroll attributes (FC-1: needs the GM's consent)",
                ),
            )?;
            if !ch.creating {
                return Err(Text::new(
                    format!("FC-1: {name}は作成を終えています。能力値の振り直しは作成中だけです"),
                    format!(
                        "FC-1: {name} has finished creation; attributes are rerolled only during creation"
                    ),
                ));
            }
            if ch.sheet.is_some() {
                return Err(Text::new(
                    format!(
                        "FC-1: {name}の能力値はシートのものです。振り直しは /fc create で振ったキャラクターだけです"
                    ),
                    format!(
                        "FC-1: {name}'s attributes come from a sheet; only a character rolled with /fc create is rerolled"
                    ),
                ));
            }
            let err = |e: taku_dice::EvalError| e.text();
            let mut rolled = [0; 5];
            for r in &mut rolled {
                let d = dice.roll_group(2, 3).map_err(err)?;
                *r = d.iter().sum::<i64>() + 1;
            }
            let initial = character::sex_modifier(rolled, ch.sex, &state.settings);
            let attrs = |a: [i64; 5]| {
                ATTRIBUTES
                    .iter()
                    .zip(a)
                    .map(|(n, v)| format!("{n}{v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let before: i64 = ch.initial.iter().sum();
            let after: i64 = initial.iter().sum();
            let mut next = ch.clone();
            next.initial = initial;
            let l = next.lines();
            let modj = if initial != rolled {
                format!(" → 性別修正 {}", attrs(initial))
            } else {
                String::new()
            };
            let mode = if initial != rolled {
                format!(" → sex modifier {}", attrs(initial))
            } else {
                String::new()
            };
            Ok(vec![changed(
                name,
                Delta {
                    reroll: Some(initial),
                    ..Delta::default()
                },
                format!(
                    "{name}: GMの同意で能力値をすべて振り直し（FC-1）: {}（合計{before}）→ 2D3+1 → {}{modj}（合計{after}）／ 衰弱{} 昏倒{} 死亡{} 移動力{}",
                    attrs(ch.initial),
                    attrs(rolled),
                    l.weakened,
                    l.unconscious,
                    l.death,
                    state.movement(&next),
                ),
                format!(
                    "{name}: every attribute rerolled with the GM's consent (FC-1): {} (total {before}) → 2D3+1 → {}{mode} (total {after}) / weakened {} unconscious {} death {} movement {}",
                    attrs(ch.initial),
                    attrs(rolled),
                    l.weakened,
                    l.unconscious,
                    l.death,
                    state.movement(&next),
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
            let earmark_spent = afford(ch, name, cost, Some(skill))?;
            // FC-5: the skills this raise was allowed on (an undo of them is refused).
            let mut rests_on: Vec<String> = s.requires.clone();
            rests_on.extend(s.limit.iter().cloned());
            let mut events = vec![changed(
                name,
                Delta {
                    xp_spent: cost,
                    skill: Some((skill.to_string(), to)),
                    step: Some(skill.to_string()),
                    earmark_spent,
                    skill_from: Some(from),
                    rests_on,
                    xp_left: Some(ch.xp_left() - cost),
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
            if s.fields.is_empty() {
                return Err(Text::new(
                    format!("FC-5: 【{skill}】は特化スキルではありません（分野がありません）"),
                    format!("FC-5: 【{skill}】 is not a specialisable skill (it has no fields)"),
                ));
            }
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
            let earmark_spent = afford(ch, name, cost, Some(skill))?;
            Ok(vec![changed(
                name,
                Delta {
                    xp_spent: cost,
                    field: Some((skill.to_string(), field.to_string())),
                    earmark_spent,
                    xp_left: Some(ch.xp_left() - cost),
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
            afford(ch, name, cost, None)?;
            let value = ch.attributes()[i] + 1;
            Ok(vec![changed(
                name,
                Delta {
                    xp_spent: cost,
                    attribute: Some((i, raised, lost)),
                    step: Some(a.to_string()),
                    xp_left: Some(ch.xp_left() - cost),
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
            let n = rest.first().map_or(Ok(1), |w| amount(w))?;
            if n == 0 {
                return Err(Text::new(
                    "FC-15: 低下させる点数は1以上です（/fc lose 名前 能力値 [点数]）",
                    "FC-15: an attribute is lowered by 1 or more (/fc lose NAME ATTRIBUTE [POINTS])",
                ));
            }
            let a = ATTRIBUTES[i];
            let delta = Delta {
                attribute: Some((i, 0, n)),
                ..Delta::default()
            };
            let mut after = ch.clone();
            apply(&mut after, &delta);
            let now = after.attributes()[i];
            // FC-1 (l.37): attributes run 3..7; the seed sets no floor for a loss, so the
            // GM is told when one falls below 1. FC-2: a lowered ST, WP or VT moves the
            // lines, and the state they give is reported as damage's is.
            let low = if now < 1 {
                (
                    "。能力値が1未満です（GMの判断）",
                    "; the attribute is below 1 (the GM's call)",
                )
            } else {
                ("", "")
            };
            let (cj, ce) = crossing(ch, &after);
            Ok(vec![changed(
                name,
                delta,
                format!("{name}: {a} −{n}（低下、現在{now}）{}{cj}", low.0),
                format!("{name}: {a} −{n} (lost, now {now}){}{ce}", low.1),
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
        ("equip", items) if !items.is_empty() => {
            // FC-3: items from the table's list, or one bare movement modifier.
            let (bare, list): (i64, Vec<String>) = match items {
                [n] if number(n).is_ok() => (amount(n).map_err(|_| {
                    Text::new(
                        "FC-3: 装備の移動力修正は0以上の数で、移動力（DX+5）から引かれます（身に着けた一覧の装備の修正に加わります。外すのは /fc equip 名前 none）",
                        "FC-3: equipment's movement modifier is 0 or more, subtracted from movement (DX + 5), on top of the listed items worn (/fc equip NAME none takes everything off)",
                    )
                })?, ch.items.clone()),
                ["none" | "なし"] => (0, Vec::new()),
                _ => {
                    // FC-3 (l.60): each item worn subtracts its modifier once; the same
                    // item twice is a typing slip, or two of a kind the GM defines as one.
                    if let Some(twice) = items
                        .iter()
                        .enumerate()
                        .find(|(k, i)| items[..*k].contains(i))
                        .map(|(_, i)| i)
                    {
                        return Err(Text::new(
                            format!(
                                "FC-3: 装備「{twice}」が2回書かれています。同じ装備は1回です（2つ持つなら、GMが /fc item {twice}2つ 移動力修正 で定義します）"
                            ),
                            format!(
                                "FC-3: item '{twice}' is listed twice; an item is worn once (for two of a kind, the GM defines one item for the pair: /fc item NAME MODIFIER)"
                            ),
                        ));
                    }
                    for i in items.iter() {
                        if !state.items.contains_key(*i) {
                            let known: Vec<&str> = state.items.keys().map(String::as_str).collect();
                            return Err(Text::new(
                                format!(
                                    "FC-3: 装備「{i}」は一覧にありません（{}）。GMは /fc item 名前 移動力修正 で定義できます",
                                    known.join("・")
                                ),
                                format!(
                                    "FC-3: no item '{i}' in the list ({}); the GM defines one with /fc item NAME MODIFIER",
                                    known.join(", ")
                                ),
                            ));
                        }
                    }
                    (ch.equipment, items.iter().map(|i| i.to_string()).collect())
                }
            };
            let mut next = ch.clone();
            next.equipment = bare;
            next.items = list.clone();
            let n = state.equipment_modifier(&next);
            let m = state.movement(&next);
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
            let (ij, ie) = match (list.is_empty(), bare) {
                (true, _) => (String::new(), String::new()),
                (false, 0) => (
                    format!("（{}）", list.join("・")),
                    format!(" ({})", list.join(", ")),
                ),
                // FC-3: a bare modifier adds to the listed items worn.
                (false, b) => (
                    format!("（{}＋修正{b}）", list.join("・")),
                    format!(" ({} + modifier {b})", list.join(", ")),
                ),
            };
            Ok(vec![changed(
                name,
                Delta {
                    equipment: Some(bare),
                    items: Some(list.clone()),
                    ..Delta::default()
                },
                format!("{name}: 装備{ij}の移動力修正−{n}、移動力{m}{}", warn.0),
                format!(
                    "{name}: equipment{ie} movement −{n}, movement {m}{}",
                    warn.1
                ),
            )])
        }
        // FC-13: damage.
        ("damage" | "fatigue", [n]) => {
            gm_only(table, gm_verb(verb).unwrap_or(("ダメージ", "deal damage")))?;
            let n = amount(n)?;
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
            let n = amount(n)?;
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
            // FC-2 (l.53): at the death line the character dies; bringing it back is
            // nothing the rules do, so the log says the GM chose it.
            let what = if ch.condition() == Condition::Dead {
                (
                    format!(
                        "{}（死亡していたキャラクターをGMの判断で回復。FC-2では死亡ラインで死亡）",
                        what.0
                    ),
                    format!(
                        "{} (a dead character healed by the GM's decision; under FC-2 the death line kills)",
                        what.1
                    ),
                )
            } else {
                what
            };
            Ok(vec![damage_event(name, ch, delta, (&what.0, &what.1))])
        }
        ("meal", []) => {
            let n = damage::meal(ch);
            let what = if n > 0 && ch.no_meal_yet {
                (
                    "食事（前回の食事の記録なし）、疲労−1".to_string(),
                    "a meal (no earlier meal recorded), fatigue −1".to_string(),
                )
            } else if n > 0 {
                ("食事、疲労−1".to_string(), "a meal, fatigue −1".to_string())
            } else if ch.no_meal_yet {
                (
                    "食事（前回の食事の記録なし。疲労0のため回復なし）".to_string(),
                    "a meal (no earlier meal recorded; no fatigue to recover)".to_string(),
                )
            } else if ch.hours_since_meal >= damage::MEAL_GAP_HOURS {
                (
                    format!(
                        "食事（前回から{}時間。疲労0のため回復なし）",
                        ch.hours_since_meal
                    ),
                    format!(
                        "a meal ({} hours since the last; no fatigue to recover)",
                        ch.hours_since_meal
                    ),
                )
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
                    meal_gap: Some((
                        state.clock,
                        (!ch.no_meal_yet).then_some(ch.hours_since_meal),
                    )),
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
            // FC-13 (l.218): the day (6:00 to 6:00) has 3 meals: those eaten and those
            // already missed count toward them.
            let eaten = ch.meals_today.min(3);
            let left = (3 - eaten - ch.meals_missed_today).max(0);
            if n > left {
                return Err(Text::new(
                    format!(
                        "FC-13: 1日の食事は3回です。{name}は今日（朝6時から）{}回食べ、{}回抜いています（あと{left}回まで）。次の日は朝6時から（/fc time で時間を進めます）",
                        ch.meals_today, ch.meals_missed_today
                    ),
                    format!(
                        "FC-13: a day has 3 meals; {name} has eaten {} and missed {} today (since 6:00), so at most {left} more; the next day begins at 6:00 (/fc time lets time pass)",
                        ch.meals_today, ch.meals_missed_today
                    ),
                ));
            }
            Ok(vec![damage_event(
                name,
                ch,
                Delta {
                    fatigue: n,
                    hungry: Some(true),
                    missed: n,
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
            gm_only(
                table,
                (
                    "1日の負傷ロール（時間の経過はGMが決める）",
                    "make the daily injury roll (the GM decides when a day has passed)",
                ),
            )?;
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
            // FC-13 (l.235): the roll comes after a whole day, 6:00 to 6:00. Once the
            // table keeps a clock, its 6:00 makes the roll for every injured character;
            // before that (a table that keeps none), the GM makes it once here.
            if state.clock != 0 {
                let to_morning = 24 - state.clock.rem_euclid(24);
                let (now_ja, now_en) = clock_words(state.clock);
                return Err(Text::new(
                    format!(
                        "FC-13: 1日の負傷ロールは朝6時から翌朝6時までを過ごした後です（l.235）。この卓の時計は{now_ja}で、次の朝6時まで{to_morning}時間あります。/fc time {to_morning} で時間を進めると、朝6時に負傷のあるキャラクター全員が自動で振ります"
                    ),
                    format!(
                        "FC-13: the daily injury roll comes after a whole day, 6:00 to 6:00 (l.235); this table's clock stands at {now_en}, {to_morning} hours before the next 6:00: /fc time {to_morning} lets them pass, and at 6:00 every injured character rolls"
                    ),
                ));
            }
            if ch.injury_rolled_today {
                return Err(Text::new(
                    format!(
                        "FC-13: {name}は1日目 6:00までの1日の負傷ロールをすでにしました。次の1日は翌朝6時に終わります（/fc time 24 で時間を進めると、その時に自動で振ります）"
                    ),
                    format!(
                        "FC-13: {name} has made the injury roll for the day that ended at 6:00 of day 1; the next day ends at the next 6:00 (/fc time 24 lets it pass, and the roll is made then)"
                    ),
                ));
            }
            Ok(vec![injury_roll(state, name, ch, at_rest, None, dice)?])
        }
        // FC-8: money in and out after creation (the seed prices nothing; the table
        // keeps the sum).
        ("money", [n, why @ ..]) => {
            let n = number(n)?;
            if n == 0 {
                return Err(usage(
                    "/fc money ミナ -300 剣を購入",
                    "/fc money NAME ±AMOUNT [WHAT]",
                ));
            }
            if ch.money + n < 0 {
                return Err(Text::new(
                    format!(
                        "FC-8: {name}の所持金は{}CPです（{}CPは払えません）",
                        ch.money, -n
                    ),
                    format!("FC-8: {name} has {} CP (cannot pay {} CP)", ch.money, -n),
                ));
            }
            let why = why.join(" ");
            let note = if why.is_empty() {
                String::new()
            } else {
                format!("（{why}）")
            };
            let note_en = if why.is_empty() {
                String::new()
            } else {
                format!(" ({why})")
            };
            Ok(vec![changed(
                name,
                Delta {
                    money: n,
                    ..Delta::default()
                },
                format!("{name}: 所持金 {n:+}CP{note} → {}CP", ch.money + n),
                format!("{name}: money {n:+} CP{note_en} → {} CP", ch.money + n),
            )])
        }
        // FC-14: XP awards, at least 1 in total.
        ("xp", parts) if !parts.is_empty() => {
            gm_only(table, ("経験点の付与", "award XP"))?;
            if ch.creating {
                return Err(Text::new(
                    format!(
                        "FC-14: {name}は作成中です。経験点はシナリオの終わりに得るもので、初期経験点とは別です。/fc done {name} で作成を終えてから与えてください"
                    ),
                    format!(
                        "FC-14: {name} is still in creation; XP comes at a scenario's end, apart from starting XP. Finish creation with /fc done {name} first"
                    ),
                ));
            }
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
        _ => Err(verb_usage(verb).unwrap_or_else(|| {
            usage(
                "/fc コマンド 名前 …（/help を参照）",
                "/fc COMMAND NAME … (see /help)",
            )
        })),
    }
}

/// FC-13: the daily injury roll (6:00 to 6:00): base VT + total LV against cumulative
/// damage, −4 when the day was not at rest; success recovers 1 more injury. `day`: the
/// table's clock ended the day (its meals and activity start again; `Some(true)`: the
/// new day already has the character active).
fn injury_roll(
    state: &State,
    name: &str,
    ch: &Character,
    at_rest: bool,
    day: Option<bool>,
    dice: &mut Roller<'_>,
) -> Result<Event, Text> {
    let lv = ch.total_lv(&state.settings);
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
    let side =
        check::Side::of(d[0], d[1], base, check::Options::default()).map_err(|e| e.text())?;
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
        day_end: day.is_some(),
        active: day == Some(true),
        injury_rolled: true,
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
    Ok(damage_event(name, ch, delta, (&what.0, &what.1)))
}

/// FC-5: what a skill definition says: base, expertise, the total-LV cap, the
/// restricting and prerequisite skills, the fields and their cost, whether an unskilled
/// attempt is possible.
fn skill_words(skill: &Skill) -> (String, String) {
    let mut ja = format!("{} 専門性{}", skill.base, skill.expertise);
    let mut en = format!("{}, expertise {}", skill.base, skill.expertise);
    if skill.cap.is_some() {
        ja.push_str(" 総合LVキャップ");
        en.push_str(", total-LV cap");
    }
    if let Some(l) = &skill.limit {
        ja.push_str(&format!(" 制限【{l}】"));
        en.push_str(&format!(", restricted by 【{l}】"));
    }
    if !skill.requires.is_empty() {
        ja.push_str(&format!(" 前提【{}】", skill.requires.join("】【")));
        en.push_str(&format!(", requires 【{}】", skill.requires.join("】【")));
    }
    if !skill.fields.is_empty() {
        ja.push_str(&format!(
            " 特化: {}（追加{}点）",
            skill.fields.join("・"),
            skill.field_cost
        ));
        en.push_str(&format!(
            ", fields: {} ({} XP each further)",
            skill.fields.join(", "),
            skill.field_cost
        ));
    }
    if !skill.unskilled {
        ja.push_str(" 未習得では判定不可");
        en.push_str(", no unskilled attempt");
    }
    (ja, en)
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
            let (ch, _) = record(table, state, name)?;
            Some((name.to_string(), ch))
        })
        .collect();
    match mine.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// A character a roll is made for, by name.
type Named = Option<(String, Character)>;

/// The characters a roll is made for, as typed (FC-2's −2 and FC-9's fatigue follow
/// them). A single check: the first `{NAME.KEY}` naming a character the actor may act
/// for (its owner or a GM), else the comment's first word naming such a character, else
/// the actor's only character. A comparison: each side's own character (see the
/// comparison arm below); who may roll it is `prepare_check`'s question.
fn roll_characters(table: &dyn TableView, state: &State) -> (Named, Named) {
    // fc9 F11 (l.50, l.155 are about the character who acts): a player's plain check is
    // her one character's; a GM's plain check (a trap, an unnamed guard) is nobody's,
    // even when the GM has a single NPC: only a check that names it (`{鬼.DX}`, a bare
    // `{DX}` read from it, or its name as the comment's first word) is the NPC's.
    let plain = || {
        if table.actor_is_gm() {
            None
        } else {
            actors_character(table, state)
        }
    };
    let Some(line) = table.typed_line() else {
        return (plain(), None);
    };
    let line = line.trim();
    let joined = super::join_line(line).unwrap_or_else(|| line.to_string());
    let (command, comment) = joined
        .split_once(char::is_whitespace)
        .map_or((joined.as_str(), ""), |(c, r)| (c, r.trim()));
    let upper = command.to_ascii_uppercase();
    let (left, right) = match upper.find("VS") {
        Some(at) => (&command[..at], Some(&command[at + 2..])),
        None => (command, None),
    };
    let mine = |name: &str| -> Option<(String, Character)> {
        let (owner, _) = table.character(name)?;
        if owner != table.actor() && !table.actor_is_gm() {
            return None;
        }
        record(table, state, name).map(|(ch, _)| (name.to_string(), ch))
    };
    // The other side of a comparison may be anyone's (the GM's NPC, say).
    let any = |name: &str| -> Option<(String, Character)> {
        record(table, state, name).map(|(ch, _)| (name.to_string(), ch))
    };
    let named = |side: &str, find: &dyn Fn(&str) -> Option<(String, Character)>| {
        let mut rest = side;
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map(|c| open + c)?;
            if let Some((name, _)) = rest[open + 1..close].split_once('.')
                && let Some(found) = find(name)
            {
                return Some(found);
            }
            rest = &rest[close + 1..];
        }
        None
    };
    let first_word = comment.split_whitespace().next();
    let bare = |side: &str| {
        side.split('{')
            .skip(1)
            .any(|s| s.split('}').next().is_some_and(|k| !k.contains('.')))
    };
    match right {
        None => {
            let l = if named(left, &any).is_some() {
                named(left, &mine)
            } else {
                first_word.and_then(mine).or_else(|| {
                    if bare(left) {
                        actors_character(table, state)
                    } else {
                        plain()
                    }
                })
            };
            (l, None)
        }
        Some(r) => {
            // FC-2 (l.50), FC-9 (l.155), FC-11: each side of a comparison is the
            // character whose values it reads, whoever types the line: a `{NAME.KEY}`
            // names it, and a bare `{KEY}` reads the roller's one character on either
            // side (`FC+{ロイ.格闘} VS FC+{剣}`: ロイ on the left, the roller's on the
            // right), each with its own −2 and its own fatigue. A side reading no
            // character is, on the right, the comment's first word; on the left, the
            // roller's own character, unless that is already on the right
            // (`FC+5 VS FC+{剣}`: the 5 is the other party's).
            let side = |s: &str| {
                named(s, &any).or_else(|| {
                    if bare(s) {
                        actors_character(table, state)
                    } else {
                        None
                    }
                })
            };
            let right = if r.contains('{') {
                side(r)
            } else {
                first_word.and_then(any)
            };
            // fc8 F2: a side of bare numbers facing a side that reads a character
            // (`FC+3 VS FC+{ロイ.DX}`, `FC+4 VS FC+{DX}`) is the other party, nobody's,
            // on the left as on the right; only against another bare side is the left
            // the roller's own character (as a single check's bare base is).
            let own_right = right.as_ref().is_some_and(|(n, _)| mine(n).is_some());
            let left = if left.contains('{') {
                side(left)
            } else if own_right || r.contains('{') {
                None
            } else {
                plain()
            };
            (left, right)
        }
    }
}

/// Whether change `d` of `name` rests on an earlier change `u` of the same character
/// (see [`FcRules::builds_on`]), and how.
/// FC-5, FC-3: whether change `d` of `name` learned one of `skills` or carries one of
/// `items`, defined by the entry being undone or voided.
fn learned_under(
    name: &str,
    d: &Delta,
    skills: &[Skill],
    items: &[super::character::Item],
) -> Option<Text> {
    // A specialisation is learned under its skill's definition too.
    let learned = d
        .skill
        .as_ref()
        .map(|(s, _)| s)
        .or(d.field.as_ref().map(|(s, _)| s));
    if let Some(skill) = learned.filter(|l| skills.iter().any(|s| &s.name == *l)) {
        return Some(Text::new(
            format!("FC-5: {name}の【{skill}】はこの定義で習得されました"),
            format!("FC-5: {name}'s 【{skill}】 was learned under this definition"),
        ));
    }
    let item = d
        .items
        .iter()
        .flatten()
        .find(|i| items.iter().any(|it| &it.name == *i))?;
    Some(Text::new(
        format!("FC-3: {name}はこの定義の【{item}】を装備しています"),
        format!("FC-3: {name} carries 【{item}】 as this defined it"),
    ))
}

fn fc_rests_on(name: &str, d: &Delta, u: &Delta) -> Option<Text> {
    // FC-4/FC-14: XP is awarded after creation ends; taking back `/fc done` would put
    // an award among the starting XP.
    if u.creation_done && d.xp_earned != 0 {
        return Some(Text::new(
            format!("FC-14: {name}への経験点の付与は作成終了（/fc done）の後です"),
            format!("FC-14: XP was awarded to {name} after creation finished (/fc done)"),
        ));
    }
    if let Some((skill, _)) = &u.skill {
        // FC-5: prerequisite (前提) and restricting (制限) skills.
        if d.rests_on.contains(skill)
            && let Some((later, _)) = &d.skill
        {
            return Some(Text::new(
                format!(
                    "FC-5: {name}の【{later}】はこの【{skill}】を前提・制限スキルとして習得されました"
                ),
                format!(
                    "FC-5: {name}'s 【{later}】 was learned on 【{skill}】 as its prerequisite or restricting skill"
                ),
            ));
        }
        // FC-5: TP is bought step by step, each step at the new TP's cost.
        if let Some((later, _)) = &d.skill
            && later == skill
        {
            return Some(Text::new(
                format!("FC-5: {name}の【{skill}】はこの後さらに上げられています"),
                format!("FC-5: {name}'s 【{skill}】 was raised further after this"),
            ));
        }
        // FC-5: a specialisation needs the skill (the first field with the first TP).
        if u.skill_from.is_none_or(|from| from == 0)
            && let Some((later, field)) = &d.field
            && later == skill
        {
            return Some(Text::new(
                format!("FC-5: {name}の【{skill}】の【{field}】の特化はこの習得の上にあります"),
                format!(
                    "FC-5: {name}'s specialisation 【{field}】 of 【{skill}】 rests on learning it"
                ),
            ));
        }
    }
    // FC-15: an attribute's second raise costs more than the first (10 then 20, 15
    // then 30).
    if let (Some((i, 1.., _)), Some((j, 1.., _))) = (u.attribute, d.attribute)
        && i == j
    {
        let a = ATTRIBUTES.get(i).copied().unwrap_or("?");
        return Some(Text::new(
            format!("FC-15: {name}の{a}はこの後さらに上げられています（2回目は費用が上がります）"),
            format!(
                "FC-15: {name}'s {a} was raised again after this (the second raise costs more)"
            ),
        ));
    }
    // FC-14/FC-15: XP spent out of this award.
    if u.xp_earned > 0
        && d.xp_spent > 0
        && let Some(left) = d.xp_left
        && left < u.xp_earned
    {
        return Some(Text::new(
            format!(
                "FC-14/FC-15: {name}はこの経験点{}を使いました（使った後の残り{left}）",
                u.xp_earned
            ),
            format!(
                "FC-14/FC-15: {name} spent XP from this award of {} ({left} left after spending)",
                u.xp_earned
            ),
        ));
    }
    None
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
    let lines = ch.lines();
    match key {
        "総合LV" => return Some(lv),
        "VT抵抗" => return Some(attrs[character::VT] + lv),
        "WP抵抗" => return Some(attrs[character::WP] + lv),
        // What the rules derive or track is read from the record, never from a field of
        // the same name typed in with /char set (FC-2, FC-3, FC-13, FC-14).
        "衰弱ライン" => return Some(lines.weakened),
        "昏倒ライン" => return Some(lines.unconscious),
        "死亡ライン" => return Some(lines.death),
        "移動力" => return Some(state.movement(ch)),
        "疲労" => return Some(ch.fatigue),
        "負傷" => return Some(ch.injury),
        "累積ダメージ" => return Some(ch.damage()),
        "経験点" => return Some(ch.xp_earned),
        "未使用経験点" => return Some(ch.xp_left()),
        "所持金" => return Some(ch.money),
        _ => {}
    }
    if let Some(s) = state.skills.get(key) {
        // FC-5 (l.133): a specialisable skill is used in one of its fields, every field at
        // LV −2 unless specialised; named without a field, no specialisation applies.
        let lv = s.level(ch, None)?;
        let learned = ch.skills.get(&s.name).is_some_and(|l| l.tp > 0);
        return Some(if !s.fields.is_empty() && learned {
            lv - skills::UNSPECIALISED_PENALTY
        } else {
            lv
        });
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
            Event::Changed {
                name, delta, sheet, ..
            } => {
                // The record this change was made to was read from a sheet by a line
                // since voided: read it again from the same fields.
                if !state.characters.contains_key(name)
                    && let Some(ch) = sheet.as_ref().and_then(from_fields)
                {
                    state.characters.insert(name.clone(), ch);
                }
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
            Event::Loaded { data } => {
                for s in &data.skill {
                    state.skills.insert(s.name.clone(), s.clone());
                }
                for i in &data.item {
                    state.items.insert(i.name.clone(), i.clone());
                }
            }
            Event::Clock { hours, now, quiet } => {
                state.clock = *now;
                for name in quiet {
                    if let Some(ch) = state.characters.get_mut(name) {
                        apply(
                            ch,
                            &Delta {
                                hours: *hours,
                                active: true,
                                ..Delta::default()
                            },
                        );
                    }
                }
            }
            Event::SheetRefused { name, sheet, .. } => {
                state.refused.insert(name.clone(), sheet.clone());
            }
        }
    }

    /// What a later change of a character rests on, so that `/undo` of it is refused
    /// while the later one stands: a record made or approved (`/fc approve`), creation
    /// finished before XP was awarded (FC-4, FC-14), a prerequisite or restricting skill
    /// (FC-5), a skill's earlier TP before a later one or its first specialisation
    /// (FC-5), an attribute's first raise before its second (FC-15, 10 then 20), XP
    /// awarded and spent since (FC-14, FC-15).
    fn builds_on(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        // FC-15 (l.262): XP is spent in an interlude; once it closes, what was bought
        // in it stands.
        if let Event::Interlude { open: false } = later {
            return undone.iter().find_map(|u| match u {
                Event::Changed { name, delta: u, .. } if u.xp_spent > 0 && !u.creation_done => {
                    Some(Text::new(
                        format!("FC-15: {name}が経験点を使った後で幕間が終わっています"),
                        format!("FC-15: the interlude closed after {name} spent this XP"),
                    ))
                }
                _ => None,
            });
        }
        // FC-15 (l.262): XP is spent only in an interlude; what was bought in it rests
        // on its opening.
        if let Event::Changed {
            name,
            delta: Delta {
                in_interlude: true, ..
            },
            ..
        } = later
            && undone
                .iter()
                .any(|u| matches!(u, Event::Interlude { open: true }))
        {
            return Some(Text::new(
                format!("FC-15: {name}はこの幕間に経験点を使いました"),
                format!("FC-15: {name} spent XP in this interlude"),
            ));
        }
        // FC-13: the table's clock: a later `/fc time` ran on from where this one left
        // it (its `now` is absolute, and its 6:00s, meals and rests were counted from
        // there).
        if let Event::Clock { now, .. } = later {
            return undone.iter().find_map(|u| match u {
                Event::Clock { now: before, .. } => {
                    let (before, before_en) = clock_words(*before);
                    let (now, now_en) = clock_words(*now);
                    Some(Text::new(
                        format!(
                            "FC-13: 後の時間経過（{now}まで）はこの時刻（{before}）から進められました"
                        ),
                        format!(
                            "FC-13: a later time passing (to {now_en}) ran on from this one's {before_en}"
                        ),
                    ))
                }
                _ => None,
            });
        }
        let Event::Changed { name, delta: d, .. } = later else {
            return None;
        };
        // FC-13 (l.217 「前回の食事から5時間以上経過していなければなりません」): a meal's
        // recovery was decided on the hours since the meal before it.
        if let Some((at, Some(gap))) = d.meal_gap
            && let Some(why) = undone.iter().find_map(|u| match u {
                Event::Clock { hours, now, .. } if d.fatigue < 0 => {
                    let overlap = ((*now).min(at) - (now - hours).max(at - gap)).max(0);
                    (gap - overlap < damage::MEAL_GAP_HOURS).then(|| {
                        Text::new(
                            format!(
                                "FC-13: {name}の後の食事は前回の食事から{gap}時間たって疲労を回復しました（5時間以上）。この時間の経過がなければ{}時間で、回復しません",
                                gap - overlap
                            ),
                            format!(
                                "FC-13: {name}'s later meal recovered fatigue {gap} hours after the one before (5 or more); without these hours it would be {} hours, no recovery",
                                gap - overlap
                            ),
                        )
                    })
                }
                Event::Changed {
                    name: n, delta: u, ..
                } if n == name && u.meal_gap.is_some_and(|(m, _)| m == at - gap) => {
                    Some(Text::new(
                        format!("FC-13: {name}の後の食事（前回から{gap}時間）はこの食事から数えました"),
                        format!(
                            "FC-13: {name}'s later meal ({gap} hours since the one before) counted from this meal"
                        ),
                    ))
                }
                _ => None,
            })
        {
            return Some(why);
        }
        undone.iter().find_map(|u| match u {
            // FC-5 (l.73), FC-3: a skill learned or an item carried under the GM's
            // definition of it.
            Event::SkillDefined { skill } => {
                learned_under(name, d, std::slice::from_ref(skill), &[])
            }
            Event::Loaded { data } => learned_under(name, d, &data.skill, &data.item),
            Event::Created { name: n, .. } if n == name => Some(Text::new(
                format!("{name}の記録（作成・承認）の後の変更です"),
                format!("a change to {name}'s record made (or approved) by it"),
            )),
            Event::Changed {
                name: n, delta: u, ..
            } if n == name => fc_rests_on(name, d, u),
            _ => None,
        })
    }

    /// fc1415d's open item: the GM's `/void` of a line a later one rests on (a
    /// `/fc time` a later one ran on from, the first of two raises, a prerequisite) is
    /// refused until the later line is voided, as `/undo` is.
    fn builds_on_holds_void(&self) -> bool {
        true
    }

    fn owned_fields(&self) -> &'static [OwnedField] {
        OWNED
    }

    /// FC-1 (l.38): a rolled creation the GM voided is remembered, so that rolling it
    /// again is the GM's (a reroll needs its consent).
    fn fold_voided(&self, state: &mut State, _actor: &str, event: &Event) {
        if let Event::Created {
            name, character, ..
        } = event
            && character.sheet.is_none()
        {
            state.voided_creations.insert(name.clone());
        }
    }

    /// FC-1/FC-4/FC-5: the numbers a sheet proposes (IQ…VT, `スキル.X` TP, `xp`,
    /// `unspent_xp`, `money`, 追加初期経験点, 移動力修正) are whole numbers, full-width
    /// digits read as ASCII (`DX ７` is 7); anything else is refused, not kept as text
    /// the rules cannot read.
    fn field_value(
        &self,
        key: &str,
        value: &str,
        _fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        let numeric = ATTRIBUTES.contains(&key)
            || key.starts_with("スキル.")
            || matches!(
                key,
                "xp" | "unspent_xp" | "money" | "追加初期経験点" | "移動力修正"
            );
        if !numeric {
            return Ok(value.to_string());
        }
        let folded = taku_dice::normalize::fold(value.trim())
            .text
            .replace('−', "-");
        match folded.parse::<i64>() {
            Ok(n) if n.abs() <= 100_000 => Ok(n.to_string()),
            _ => Err(Text::new(
                format!("FC-1/FC-4: {key} は整数です（「{value}」は読めません。例: {key} 5）"),
                format!("FC-1/FC-4: {key} is a whole number ('{value}' is not; e.g. {key} 5)"),
            )),
        }
    }

    /// FC-1/FC-4 (fc5, FC-2): a character the rules made (`/fc create`, its record read
    /// from no sheet) keeps its attributes, skills, XP, money and equipment in its record,
    /// changed by the /fc commands; a sheet field typed for it (`/char set ユキ DX 7`)
    /// would be shown and never used, so it is refused, saying what changes the value.
    /// Any other field is checked as [`TableRules::field_value`] does.
    fn field_value_by(
        &self,
        _table: &dyn TableView,
        state: &State,
        name: &str,
        key: &str,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        if let Some(ch) = state.characters.get(name)
            && ch.sheet.is_none()
            && is_sheet_key(key)
        {
            let (ja, en) = kept_by(key);
            return Err(Text::new(
                format!(
                    "FC-1/FC-4: {name}は /fc create でルールが作ったキャラクターで、「{key}」は記録の値を使います（シートの欄は使いません）。{ja}"
                ),
                format!(
                    "FC-1/FC-4: {name} was made by the rules (/fc create), and '{key}' is its record's, not a sheet field's: {en}"
                ),
            ));
        }
        // FC-2, FC-5 (l.75 「「能力値+TP」がスキルLVとなります」), FC-9: a skill's or a
        // field's LV, and what the rules derive, are the record's; a field of that name
        // typed in would be shown beside it and read by other dice (`2D6+{魔術}` for a
        // skill never learned). Four Card has no HP field: its HP are three lines.
        if state.characters.contains_key(name) && !is_sheet_key(key) {
            if let Some(s) = state
                .skills
                .values()
                .find(|s| s.name == key || s.fields.iter().any(|f| f == key))
            {
                let what = if s.name == key {
                    (format!("スキル【{key}】"), format!("the skill 【{key}】"))
                } else {
                    (
                        format!("【{}】の分野【{key}】", s.name),
                        format!("a field of 【{}】", s.name),
                    )
                };
                let skill = &s.name;
                return Err(Text::new(
                    format!(
                        "FC-5/FC-9: 「{key}」は{}です。{name}のスキルLVは記録から計算します（能力値+TP）。習得は /fc learn {name} {skill} TP、特化は /fc special {name} {skill} 分野（シートファイルでは [skills.\"{skill}\"] の下に tp = TP）",
                        what.0
                    ),
                    format!(
                        "FC-5/FC-9: '{key}' is {}; {name}'s skill LV is computed from the record (attribute + TP): learn it with /fc learn {name} {skill} TP, fields with /fc special {name} {skill} FIELD (in a sheet file: [skills.\"{skill}\"] tp = TP)",
                        what.1
                    ),
                ));
            }
            if DERIVED_KEYS.contains(&key) || crate::table_rules::field_name(key) == "hp" {
                return Err(Text::new(
                    format!(
                        "FC-2: 「{key}」はルールが記録・計算する値で、手では設定できません。HPは衰弱・昏倒・死亡の3つのラインで能力値から計算され、ダメージはGMの /fc damage・/fc fatigue で記録します（/char show {name} で見られます）"
                    ),
                    format!(
                        "FC-2: '{key}' is kept or computed by the rules and cannot be set by hand; HP are the weakened, unconscious and death lines computed from the attributes, and damage is recorded by the GM's /fc damage and /fc fatigue (/char show {name} shows them)"
                    ),
                ));
            }
        }
        self.field_value(key, value, fields)
    }

    /// A sheet field Four Card reads (`is_sheet_key`) is shown by the rules' sections
    /// (the record, or the proposal waiting for the GM) in the value the rules use, not
    /// as typed beside it (fc5: `ST: 5` above 「ST（筋力）: 6」). Fields that make no
    /// Four Card character yet stay as typed.
    fn shown_by_rules(&self, table: &dyn TableView, state: &State, name: &str, key: &str) -> bool {
        is_sheet_key(key)
            && (record(table, state, name).is_some() || proposal(table, state, name).is_some())
    }

    /// FC-5 (fc5): `{ユキ.弓}` of a skill or field the table's list has, which the
    /// character has not learned, points to `/fc learn` and `/fc special`, not to
    /// `/char set` (a typed skill is no skill); a value the rules keep says what keeps
    /// it ([`TableRules::owned_fields`]).
    fn missing_field(
        &self,
        _table: &dyn TableView,
        state: &State,
        name: &str,
        key: &str,
    ) -> Option<Text> {
        if let Some(owned) = OWNED.iter().find(|f| f.matches(key)) {
            return Some(Text::new(
                format!("{name} に「{key}」の欄はありません。{}", owned.how),
                format!("{name} has no field '{key}': {}", owned.how_en),
            ));
        }
        if !state.characters.contains_key(name) {
            return None;
        }
        if state.skills.contains_key(key) {
            return Some(Text::new(
                format!(
                    "FC-5: {name}は【{key}】を習得していません。スキルは /fc learn {name} {key} 1 で経験点を使って得ます（手で書いた値は判定に使いません）。技能なしの判定は関連する能力値÷2です（FC-9）"
                ),
                format!(
                    "FC-5: {name} has not learned 【{key}】; skills are learned with XP by /fc learn {name} {key} 1 (a typed value is not used by checks); an unskilled attempt uses the related attribute ÷ 2 (FC-9)"
                ),
            ));
        }
        let of = state
            .skills
            .values()
            .find(|s| s.fields.iter().any(|f| f == key))?;
        Some(Text::new(
            format!(
                "FC-5: 【{key}】は【{}】の分野で、{name}は習得していません。/fc learn {name} {} 1 {key}（最初の分野は無料）か /fc special {name} {} {key} で得ます",
                of.name, of.name, of.name
            ),
            format!(
                "FC-5: 【{key}】 is a field of 【{}】, which {name} has not got: /fc learn {name} {} 1 {key} (the first field is free) or /fc special {name} {} {key}",
                of.name, of.name, of.name
            ),
        ))
    }

    fn describe(&self, event: &Event) -> Text {
        match event {
            Event::Setting { key, value } => Text::new(
                format!("設定: {key} = {value}"),
                format!("setting: {key} = {value}"),
            ),
            Event::SkillDefined { skill } => {
                let (ja, en) = skill_words(skill);
                Text::new(
                    format!("スキル【{}】を定義（{ja}）", skill.name),
                    format!("skill 【{}】 defined ({en})", skill.name),
                )
            }
            Event::Created { ja, en, .. } | Event::Changed { ja, en, .. } => {
                Text::new(ja.clone(), en.clone())
            }
            Event::Interlude { open: true } => Text::new(
                "幕間の開始: 経験点を使えます（FC-15）",
                "interlude: XP may be spent (FC-15)",
            ),
            Event::Interlude { open: false } => Text::new("幕間の終了", "interlude over"),
            Event::Loaded { data } => {
                let names = |v: Vec<&str>| v.join("・");
                // FC-5: each skill with all its definition sets (as `/fc skill`'s line).
                let sk_ja = data
                    .skill
                    .iter()
                    .map(|s| format!("【{}】{}", s.name, skill_words(s).0))
                    .collect::<Vec<_>>()
                    .join("・");
                let sk_en = data
                    .skill
                    .iter()
                    .map(|s| format!("【{}】 {}", s.name, skill_words(s).1))
                    .collect::<Vec<_>>()
                    .join("; ");
                let it = names(
                    data.item
                        .iter()
                        .map(|i| i.name.as_str())
                        .collect::<Vec<_>>(),
                );
                Text::new(
                    format!(
                        "データを読み込み: スキル{}件{}、装備{}件{}",
                        data.skill.len(),
                        if sk_ja.is_empty() {
                            String::new()
                        } else {
                            format!("（{sk_ja}）")
                        },
                        data.item.len(),
                        if it.is_empty() {
                            String::new()
                        } else {
                            format!("（{it}）")
                        },
                    ),
                    format!(
                        "data loaded: {} skills{}, {} items{}",
                        data.skill.len(),
                        if sk_en.is_empty() {
                            String::new()
                        } else {
                            format!(" ({sk_en})")
                        },
                        data.item.len(),
                        if it.is_empty() {
                            String::new()
                        } else {
                            format!(" ({it})")
                        },
                    ),
                )
            }
            Event::SheetRefused { name, reason, .. } => Text::new(
                format!(
                    "GMが{name}のシートを却下（FC-1/FC-4）{}",
                    if reason.is_empty() {
                        String::new()
                    } else {
                        format!(": {reason}")
                    }
                ),
                format!(
                    "the GM refused {name}'s sheet (FC-1/FC-4){}",
                    if reason.is_empty() {
                        String::new()
                    } else {
                        format!(": {reason}")
                    }
                ),
            ),
            Event::Clock { hours, now, quiet } => {
                let (ja, en) = clock_words(*now);
                let (qj, qe) = if quiet.is_empty() {
                    (String::new(), String::new())
                } else {
                    (
                        format!("（{}: 安静の指定なし）", quiet.join("・")),
                        format!(" ({}: not stated at rest)", quiet.join(", ")),
                    )
                };
                Text::new(
                    format!("{hours}時間経過: {ja}{qj}"),
                    format!("{hours} hours pass: {en}{qe}"),
                )
            }
        }
    }

    /// FC-9: `{剣}`, `{接近戦}`, `{VT抵抗}`… of the actor's character (or
    /// `{ミナ.剣}`), derived by the rules.
    fn expand_references(&self, table: &dyn TableView, state: &State, line: &str) -> String {
        // FC-1/FC-4: a check naming a character whose sheet waits for the GM is refused
        // by `prepare_check`, which says why; its references stand in as 0 until then,
        // so the table does not refuse first for a field it cannot find.
        let upper = line.trim_start().to_ascii_uppercase();
        let fc_line = upper.starts_with("FC") || upper.starts_with("SFC");
        let mine: Vec<&str> = table
            .characters()
            .into_iter()
            .filter(|(_, owner)| *owner == table.actor())
            .map(|(n, _)| n)
            .collect();
        let waiting = |name: &str| {
            fc_line
                && record(table, state, name).is_none()
                && proposal(table, state, name).is_some()
        };
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            out.push_str(&rest[..open]);
            let inner = &rest[open + 1..close];
            // FC-1/FC-4: a character the rules have no record of has no Four Card
            // values; prepare_check refuses the check saying so.
            let unrecorded = |name: &str, key: &str| {
                fc_line
                    && fc_key(state, key)
                    && table.character(name).is_some()
                    && record(table, state, name).is_none()
            };
            let value = match inner.split_once('.') {
                Some((name, _)) if waiting(name) => Some(0),
                Some((name, key)) if unrecorded(name, key) => Some(0),
                None if matches!(mine.as_slice(), [one] if unrecorded(one, inner)) => Some(0),
                Some((name, key)) => {
                    record(table, state, name).and_then(|(ch, _)| reference(state, &ch, key))
                }
                None if matches!(mine.as_slice(), [one] if waiting(one)) => Some(0),
                None => {
                    actors_character(table, state).and_then(|(_, ch)| reference(state, &ch, inner))
                }
            };
            // FC-9 (l.163): a listed skill (or field) that cannot be attempted unskilled
            // has no value; prepare_check refuses the check naming the rule, so it stands
            // in as 0 rather than being read from a typed-in field.
            let key = inner.split_once('.').map_or(inner, |(_, k)| k);
            let listed = state.skills.contains_key(key)
                || state
                    .skills
                    .values()
                    .any(|s| s.fields.iter().any(|f| f == key));
            // FC-5/FC-9: nor is a key the rules do not know (`{ユキ.料理}` typed in with
            // /char set) read for a character the rules keep: prepare_check refuses it.
            let recorded = match inner.split_once('.') {
                Some((name, _)) => record(table, state, name).is_some(),
                None => actors_character(table, state).is_some(),
            };
            match value {
                Some(v) => out.push_str(&v.to_string()),
                None if fc_line && (listed || recorded) => out.push('0'),
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
        // FC-1/FC-4: a player's character whose sheet waits for the GM makes no check:
        // its typed-in values are not the rules' until approved.
        if let Some(typed) = table.typed_line() {
            let mine: Vec<&str> = table
                .characters()
                .into_iter()
                .filter(|(_, owner)| *owner == table.actor())
                .map(|(n, _)| n)
                .collect();
            let mut rest = typed;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                    break;
                };
                let inner = &rest[open + 1..close];
                rest = &rest[close + 1..];
                let name = match inner.split_once('.') {
                    Some((n, _)) => Some(n),
                    None => match mine.as_slice() {
                        [one] => Some(*one),
                        _ => None,
                    },
                };
                if let Some(name) = name
                    && record(table, state, name).is_none()
                    && let Some((_, refused)) = proposal(table, state, name)
                {
                    return Err(awaiting(name, refused));
                }
                let key = inner.split_once('.').map_or(inner, |(_, k)| k);
                if let Some(name) = name
                    && table.character(name).is_some()
                    && record(table, state, name).is_none()
                    && fc_key(state, key)
                {
                    return Err(not_fc(table, name));
                }
            }
        }
        // FC-2 (l.53): at the unconscious line the character loses consciousness (and at
        // the death line dies): only until then can it act, so it makes no check.
        let (roller, _) = roll_characters(table, state);
        // FC-2 (l.50), FC-9: a single check is its character's action: one read from
        // another's character (`FC+{ユキ.剣}` typed by bob) is that character's roll, with
        // its −2 and its fatigue, which only its owner or the GM makes. (A comparison's
        // right side may be another's: FC+{ロイ.DX} VS FC+{ユキ.DX}.)
        if !matches!(check, Check::Comparison { .. })
            && roller.is_none()
            && !table.actor_is_gm()
            && let Some(typed) = table.typed_line()
        {
            let token = typed.split_whitespace().next().unwrap_or("");
            let mut rest = token;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                    break;
                };
                let inner = &rest[open + 1..close];
                rest = &rest[close + 1..];
                if let Some((n, _)) = inner.split_once('.')
                    && let Some((owner, _)) = table.character(n)
                    && owner != table.actor()
                    && record(table, state, n).is_some()
                {
                    return Err(Text::new(
                        format!(
                            "FC-2/FC-9: {n}は{owner}のキャラクターです。{n}の判定（衰弱の−2、自動的失敗の疲労を含む）を振れるのは{owner}かGMだけです（比較ロールの相手としてなら FC+{{自分.…}} VS FC+{{{n}.…}}）"
                        ),
                        format!(
                            "FC-2/FC-9: {n} is {owner}'s character; its checks (with its weakened −2 and its automatic failure's fatigue) are rolled by {owner} or the GM (as a comparison's other side: FC+{{YOURS.…}} VS FC+{{{n}.…}})"
                        ),
                    ));
                }
            }
        }
        // FC-2 (l.50), FC-9 (l.155), FC-11 (l.196): a comparison is the roller's
        // character against another; a side read from another's character is that
        // character's roll (its −2, its fatigue). A player may roll it only as the other
        // side of their own character's comparison (`FC+{ロイ.格闘} VS 10` is a check of
        // ロイ in disguise), and never secretly (its owner would not see it).
        if matches!(check, Check::Comparison { .. })
            && !table.actor_is_gm()
            && let (l, r) = roll_characters(table, state)
            && let Some((n, _)) = l
                .iter()
                .chain(r.iter())
                .find(|(n, _)| table.character(n).is_some_and(|(o, _)| o != table.actor()))
        {
            let owner = table.character(n).map_or("", |(o, _)| o);
            let own = l
                .iter()
                .chain(r.iter())
                .any(|(n, _)| table.character(n).is_some_and(|(o, _)| o == table.actor()));
            let secret = command.trim_start().starts_with(['S', 's']);
            if secret && own {
                return Err(Text::new(
                    format!(
                        "FC-2/FC-9: {n}は{owner}のキャラクターです。シークレットロールは{owner}に見えないため、{n}の側（衰弱の−2、自動的失敗の疲労を含む）は振れません。公開で FC+… VS FC+{{{n}.…}} と振ってください"
                    ),
                    format!(
                        "FC-2/FC-9: {n} is {owner}'s character; a secret roll is hidden from {owner}, so {n}'s side (with its weakened −2 and its automatic failure's fatigue) cannot be in one: roll it openly, FC+… VS FC+{{{n}.…}}"
                    ),
                ));
            }
            if !own {
                return Err(Text::new(
                    format!(
                        "FC-2/FC-9: {n}は{owner}のキャラクターで、この比較ロールにあなたのキャラクターの側がありません。{n}の判定（衰弱の−2、自動的失敗の疲労を含む）を振れるのは{owner}かGMだけです（比較ロールの相手としてなら FC+{{自分.…}} VS FC+{{{n}.…}}。相手がキャラクターの値を読むとき、数だけの側（FC+3）はだれのキャラクターでもありません）"
                    ),
                    format!(
                        "FC-2/FC-9: {n} is {owner}'s character and no side of this comparison is yours; {n}'s checks (with its weakened −2 and its automatic failure's fatigue) are rolled by {owner} or the GM (as a comparison's other side: FC+{{YOURS.…}} VS FC+{{{n}.…}}; facing a side that reads a character, a side of bare numbers such as FC+3 is nobody's)"
                    ),
                ));
            }
        }
        // FC-9 (l.163): some actions are impossible without the skill: a reference to
        // such a skill (or one of its fields) the character has not learned is refused,
        // not read from a typed-in field.
        if let Some(typed) = table.typed_line() {
            let mut rest = typed;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                    break;
                };
                let inner = &rest[open + 1..close];
                rest = &rest[close + 1..];
                // A bare `{KEY}` reads the roller's one character, on either side of a
                // comparison (as `expand_references` reads it).
                let (who, key) = match inner.split_once('.') {
                    Some((n, k)) => (record(table, state, n).map(|(c, _)| (n.to_string(), c)), k),
                    None => (actors_character(table, state), inner),
                };
                let skill = state.skills.get(key).or_else(|| {
                    state
                        .skills
                        .values()
                        .find(|s| s.fields.iter().any(|f| f == key))
                });
                // FC-9: a skill's level is a character's; with none to read it from, the
                // reference would stand in as 0.
                if who.is_none() && skill.is_some() && !inner.contains('.') {
                    let mine: Vec<&str> = table
                        .characters()
                        .into_iter()
                        .filter(|(n, owner)| {
                            *owner == table.actor() && record(table, state, n).is_some()
                        })
                        .map(|(n, _)| n)
                        .collect();
                    if mine.len() > 1 {
                        return Err(Text::new(
                            format!(
                                "FC-9: {{{inner}}}: あなたのキャラクターは複数います（{}）。{{キャラクター名.{key}}} と書いてください",
                                mine.join("、")
                            ),
                            format!(
                                "FC-9: {{{inner}}}: you have several characters ({}); write {{CHARACTER.{key}}}",
                                mine.join(", ")
                            ),
                        ));
                    }
                }
                // FC-9: `{Ｋｅｎ.魔術}` or `{ken.魔術}` for Ken: names are exact; say which.
                if who.is_none()
                    && skill.is_some()
                    && let Some((n, _)) = inner.split_once('.')
                    && table.character(n).is_none()
                {
                    let key_of = |s: &str| taku_dice::normalize::fold(s).text.to_lowercase();
                    let like: Vec<&str> = table
                        .characters()
                        .into_iter()
                        .map(|(c, _)| c)
                        .filter(|c| key_of(c) == key_of(n))
                        .collect();
                    if let [one] = like.as_slice() {
                        return Err(Text::new(
                            format!(
                                "FC-9: 「{n}」というキャラクターはいません。{one} のことなら {{{one}.{key}}} と書いてください"
                            ),
                            format!(
                                "FC-9: there is no character '{n}'; for {one}, write {{{one}.{key}}}"
                            ),
                        ));
                    }
                }
                if who.is_none() && skill.is_some() {
                    return Err(Text::new(
                        format!(
                            "FC-9: {{{inner}}} を読むキャラクターがいません。{{キャラクター名.{key}}} と書くか、キャラクターを1人持ってください"
                        ),
                        format!(
                            "FC-9: no character to read {{{inner}}} from; write {{CHARACTER.{key}}} or own exactly one character"
                        ),
                    ));
                }
                // FC-5 (l.68–74), FC-9: a check's value is the record's: an attribute, a
                // skill the character learned with XP, or what the rules derive. A key
                // typed in with /char set is none of these (its level never paid for).
                if let Some((name, ch)) = &who
                    && skill.is_none()
                    && reference(state, ch, key).is_none()
                {
                    return Err(Text::new(
                        format!(
                            "FC-5/FC-9: 「{key}」は{name}の能力値でもスキルでもありません。判定の値は記録から読みます（スキルは /fc skill で定義され、/fc learn {name} スキル TP で経験点を使って習得します。/fc skills で一覧）"
                        ),
                        format!(
                            "FC-5/FC-9: '{key}' is neither an attribute nor a skill of {name}; a check's values are read from the record (a skill is defined with /fc skill and learned with XP: /fc learn {name} SKILL TP; /fc skills lists them)"
                        ),
                    ));
                }
                if let (Some((name, ch)), Some(skill)) = (who, skill)
                    && !skill.unskilled
                    && ch.skills.get(&skill.name).is_none_or(|l| l.tp == 0)
                {
                    return Err(Text::new(
                        format!(
                            "FC-9: 【{}】はスキルがないと判定そのものができません（{name}は未習得）",
                            skill.name
                        ),
                        format!(
                            "FC-9: 【{}】 cannot be attempted without the skill ({name} has not learned it)",
                            skill.name
                        ),
                    ));
                }
            }
        }
        // FC-2 (l.53–55), FC-11: an unconscious or dead character acts on no side of a
        // check (nor resists, nor contests). The unconscious still undergo what befalls
        // them (l.187: a poisoned character's VT抵抗): that roll is the GM's to make,
        // with the character's −2 and fatigue; the dead make none.
        let (left_side, other) = roll_characters(table, state);
        if let Some((name, ch)) = left_side
            .iter()
            .chain(other.iter())
            .find(|(_, ch)| ch.condition() == Condition::Dead)
        {
            return Err(Text::new(
                format!(
                    "FC-2: {name}は死亡しています（累積ダメージ{}、死亡ライン{}）。死亡したキャラクターは判定ロールをしません（生き返らせるならGMの /fc heal）",
                    ch.damage(),
                    ch.lines().death
                ),
                format!(
                    "FC-2: {name} is dead (cumulative damage {}, death line {}); a dead character makes no check (the GM's /fc heal brings one back)",
                    ch.damage(),
                    ch.lines().death
                ),
            ));
        }
        if !table.actor_is_gm()
            && let Some((name, ch)) = left_side
                .iter()
                .chain(other.iter())
                .find(|(_, ch)| ch.cannot_act())
        {
            return Err(Text::new(
                format!(
                    "FC-2: {name}は昏倒しています（累積ダメージ{}、昏倒ライン{}）。意識を失っており、自分では行動できません。VT抵抗など{name}の身に起こる判定はGMが振ります（GMが FC+{{{name}.VT抵抗}}>=難易度 のように）",
                    ch.damage(),
                    ch.lines().unconscious
                ),
                format!(
                    "FC-2: {name} is unconscious (cumulative damage {}, unconscious line {}) and cannot act; a check that befalls {name} (VT resistance…) is the GM's to roll (the GM types FC+{{{name}.VT抵抗}}>=DIFFICULTY)",
                    ch.damage(),
                    ch.lines().unconscious
                ),
            ));
        }
        // FC-11 `comparison_auto = plain`, unless the check says `#OVERRIDE`.
        if state.settings.comparison_plain
            && matches!(check, Check::Comparison { options, .. } if !options.plain && !options.overriding)
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
        let (_, right_side) = roll_characters(table, state);
        // FC-2 (l.50): −2 on every roll value of a weakened character, on the side of
        // a comparison that is its own.
        if matches!(check, Check::Comparison { .. })
            && let Some((name, ch)) = &right_side
            && ch.condition() >= Condition::Weakened
        {
            let joined = taku_dice::command::join_versus(&format!("{command}{tail}"))
                .unwrap_or_else(|| format!("{command}{tail}"));
            let (t, r) = joined.split_once(' ').unwrap_or((&joined, ""));
            let upper = t.to_ascii_uppercase();
            if let Some(vs) = upper.find("VS")
                && let Some(fc) = upper[vs..].find("FC").map(|i| vs + i + 2)
            {
                command = format!("{}-2{}", &t[..fc], &t[fc..]);
                tail = if r.is_empty() {
                    String::new()
                } else {
                    format!(" {r}")
                };
                note = Some(Text::new(
                    format!("{name}は衰弱: 右のロール値−2（FC-2）"),
                    format!("{name} is weakened: the right roll value −2 (FC-2)"),
                ));
            }
        }
        // FC-2: −2 on every roll value from the weakened line on.
        if let Some((name, ch)) = &roller
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
            let left = Text::new(
                format!("{name}は衰弱: ロール値−2（FC-2）"),
                format!("{name} is weakened: roll value −2 (FC-2)"),
            );
            note = Some(match note {
                Some(n) => Text::new(
                    format!("{} {}", left.ja(), n.ja()),
                    format!("{} {}", left.en(), n.en()),
                ),
                None => left,
            });
        }
        // FC-9 with a secret roll: its automatic failure's fatigue is recorded at the
        // reveal (an entry after the roll would tell the 2 before it).
        if command.trim_start().starts_with(['S', 's']) && !achievement {
            let secret = Text::new(
                "シークレットロール: 自動的失敗の疲労は公開（/reveal）のときに記録されます（FC-9）",
                "secret roll: an automatic failure's fatigue is recorded when the roll is revealed (/reveal) (FC-9)",
            );
            note = Some(match note {
                Some(n) => Text::new(
                    format!("{} {}", n.ja(), secret.ja()),
                    format!("{} {}", n.en(), secret.en()),
                ),
                None => secret,
            });
        }
        Ok(Prepared {
            command: format!("{command}{tail}"),
            events: Vec::new(),
            note,
        })
    }

    /// FC-9: an automatic failure costs the roller's character 1 fatigue; in a
    /// comparison, a right side named by the comment's first word pays its own. A secret
    /// roll's is held back until it is revealed ([`TableRules::after_reveal`]): an entry
    /// after it, or a changed sheet, would tell that it was a 2.
    fn after_roll(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
        result: &RollResult,
    ) -> Vec<Event> {
        if result.secret {
            return Vec::new();
        }
        let draws: Vec<i64> = result.rands.iter().map(|d| i64::from(d.value)).collect();
        fatigue_events(table, state, command, &draws)
    }

    /// FC-9 for a secret roll, at its reveal: the automatic failure's fatigue, charged to
    /// the characters the roll was made for as `after_roll` would have.
    fn after_reveal(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
        rands: &[[u32; 2]],
    ) -> Vec<Event> {
        let draws: Vec<i64> = rands.iter().map(|[_, v]| i64::from(*v)).collect();
        fatigue_events(table, state, command, &draws)
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        let waiting = proposal(table, state, name);
        let mut sections = match record(table, state, name) {
            Some((ch, _)) => {
                let mut sections = sheet_sections(state, &ch);
                // A GM's character read from a sheet needs no approval (an NPC need not
                // be built as a PC is); what a player's would be refused for is noted to
                // the GMs, who imported it knowingly.
                let broken = if viewer_is_gm && ch.sheet.is_some() && gms_character(table, name) {
                    proposal_violations(state, &ch)
                } else {
                    Vec::new()
                };
                if !broken.is_empty() {
                    sections.push(Section {
                        title: Text::new(
                            "シートの点検（FC-1/FC-4、GMのキャラクターなので承認は不要）",
                            "Sheet check (FC-1/FC-4; a GM's character needs no approval)",
                        ),
                        fields: vec![Field::derived(
                            Text::new("ルールに合わない点", "breaks the rules"),
                            Value::List(broken),
                        )],
                    });
                }
                sections
            }
            None => Vec::new(),
        };
        // FC-1/FC-4: what the player's sheet proposes, shown as such until approved.
        if let Some((proposed, refused)) = waiting {
            let status = if refused {
                Text::new(
                    "GMが却下したシートです（直して再提出）",
                    "the GM refused this sheet (change it and ask again)",
                )
            } else if sections.is_empty() {
                Text::new(
                    format!(
                        "GMの承認待ちです（/fc approve {name}）。承認まで判定にも /fc にも使えません"
                    ),
                    format!(
                        "waiting for the GM's approval (/fc approve {name}); not usable by checks or /fc until then"
                    ),
                )
            } else {
                Text::new(
                    format!(
                        "シートの変更がGMの承認待ちです（/fc approve {name}）。承認まで上の値を使います"
                    ),
                    format!(
                        "the sheet's changes wait for the GM's approval (/fc approve {name}); the values above apply until then"
                    ),
                )
            };
            let mut fields = vec![Field::derived(
                Text::new("状態", "status"),
                Value::Text(status),
            )];
            // What the GM's /fc approve will list (and `force` approve knowingly), seen
            // by the player before asking.
            let broken = proposal_violations(state, &proposed);
            if !broken.is_empty() {
                fields.push(Field::derived(
                    Text::new("ルールに合わない点", "breaks the rules"),
                    Value::List(broken),
                ));
            }
            sections.push(Section {
                title: Text::new("シートの承認（FC-1/FC-4）", "Sheet approval (FC-1/FC-4)"),
                fields,
            });
            for mut s in sheet_sections(state, &proposed) {
                s.title = s.title.map(|lang, t| match lang {
                    taku_dice::Lang::Ja => format!("提案: {t}"),
                    taku_dice::Lang::En => format!("Proposed: {t}"),
                });
                sections.push(s);
            }
        }
        sections
    }
}

/// FC-9: the fatigue a check's automatic failures cost (`draws`: its dice in order), as
/// events charging the characters the roll was made for ([`roll_characters`]).
fn fatigue_events(
    table: &dyn TableView,
    state: &State,
    command: &str,
    draws: &[i64],
) -> Vec<Event> {
    let Some(check) = super::parse_line(command) else {
        return Vec::new();
    };
    let (left, right) = check::fatigue(&check, draws);
    let mut events = Vec::new();
    let charge = |name: &str, n: i64, events: &mut Vec<Event>| {
        if n == 0 {
            return;
        }
        let Ok((ch, imported)) = load(table, state, name) else {
            return;
        };
        events.extend(imported);
        let e = damage_event(
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
        );
        events.extend(with_sheet(vec![e], name, &ch));
    };
    let (l, r) = roll_characters(table, state);
    if let Some((name, _)) = l {
        charge(&name, left, &mut events);
    }
    if let Some((other, _)) = r {
        charge(&other, right, &mut events);
    }
    events
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
                    "獲得{} 残り{}{}{}",
                    ch.xp_earned,
                    ch.xp_left(),
                    if ch.earmarked > 0 {
                        format!(
                            "（うち{}は【{}】用の追加初期経験点）",
                            ch.earmarked,
                            ch.earmark_skills.join("】【")
                        )
                    } else {
                        String::new()
                    },
                    if ch.creating { "（作成中）" } else { "" }
                ),
                format!(
                    "earned {} left {}{}{}",
                    ch.xp_earned,
                    ch.xp_left(),
                    if ch.earmarked > 0 {
                        format!(
                            " ({} of it extra starting XP for 【{}】)",
                            ch.earmarked,
                            ch.earmark_skills.join("】【")
                        )
                    } else {
                        String::new()
                    },
                    if ch.creating { " (creating)" } else { "" }
                ),
            )),
        ),
        d("移動力", "movement", Value::Number(state.movement(ch))),
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
        d(
            "装備",
            "equipment",
            // FC-3 (l.60 「装備品の移動力修正がマイナスされます」): signed, as the log says.
            Value::Text({
                let m = state.equipment_modifier(ch);
                let signed = if m > 0 {
                    format!("−{m}")
                } else {
                    m.to_string()
                };
                if ch.items.is_empty() {
                    Text::new(
                        format!("移動力修正{signed}"),
                        format!("movement modifier {signed}"),
                    )
                } else {
                    Text::new(
                        format!("{}（移動力修正{signed}）", ch.items.join("・")),
                        format!("{} (movement modifier {signed})", ch.items.join(", ")),
                    )
                }
            }),
        ),
        d(
            "性別",
            "sex",
            Value::Text(match ch.sex {
                Sex::Male => Text::new("男性", "male"),
                Sex::Female => Text::new("女性", "female"),
            }),
        ),
        d(
            "利き腕",
            "handedness",
            Value::Text(match ch.hand.as_str() {
                "両手利き" => Text::new("両手利き", "ambidextrous"),
                "右利き" => Text::new("右利き", "right-handed"),
                "左利き" => Text::new("左利き", "left-handed"),
                "右か左（プレイヤーが選ぶ）" => Text::new(
                    "右か左（プレイヤーが選ぶ）",
                    "right or left (the player chooses)",
                ),
                other => Text::new(other, other),
            }),
        ),
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
