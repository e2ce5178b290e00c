//! The Lord of the Rings RPG at a table: characters read from sheets (LR-1 to LR-3,
//! LR-8), wounds, healing and poison (LR-4), weariness (LR-5), Courage (LR-6) and
//! corruption (LR-7), under the GM's settings. Every `/lotr` command is decided here, in
//! rulebook order, by a plain match on its first word; every refusal names its rule and
//! changes nothing. Wound and weariness penalties are added to the actor's LotR tests
//! automatically (`prepare_check`), on the TN when there is one (LR-9: conditions are
//! external modifiers).
//!
//! A character's record ([`Character`]) lives in the state: imported from its sheet's
//! fields the first time the rules touch it (an `Imported` event, so folds need no
//! table). [`State`] is a struct later rules (combat, battles, advancement) add fields to.

use super::character::{
    self, ATTRIBUTES, BRG, Character, REACTIONS, Size, Stages, VIT, WIT, WoundLevel,
};
use super::check::{self, Degree};
use super::settings::{EXHAUSTED_PENALTY, EXHAUSTED_TN, Settings};
use crate::table_rules::{CommandHelp, Outcome, OwnedField, Prepared, TableRules, TableView};
use crate::view::{Field, Section, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::{Roller, Text};

/// LR-6: most Courage points in one round.
pub const COURAGE_PER_ROUND: i64 = 4;
/// LR-7: yielding without resisting costs at least this; a selfless deed lowers at least
/// this much.
pub const CORRUPTION_STEP: i64 = 2;
/// LR-4 (Table 9.35): the poison test's TN is this + Potency.
pub const POISON_BASE_TN: i64 = 7;

/// What a character has been through at the table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// LR-4: damage taken.
    pub damage: i64,
    /// LR-5: weariness level (0 = the first, fresh).
    pub weariness: i64,
    /// LR-6: Courage points spent and not yet back.
    pub courage_spent: i64,
    /// LR-6: of those, spent selfishly (back only at the session's end).
    pub courage_selfish: i64,
    /// LR-6: points spent this round.
    pub courage_round: i64,
    /// LR-7: Corruption.
    pub corruption: i64,
    /// LR-7: became an NPC serving the enemy.
    pub npc: bool,
    /// LR-4: poisons at work.
    pub poisons: Vec<Poison>,
    /// LR-3: Renown gained at the table (Renown triggers), on top of the record's.
    #[serde(default)]
    pub renown: i64,
    /// LR-4 (Table 9.34): on fire until a Swiftness re-test puts it out.
    #[serde(default)]
    pub alight: bool,
    /// LR-5 `ignore_weariness_by_test`: a test let it ignore its weariness penalty (until
    /// the scene ends).
    #[serde(default)]
    pub ignoring_weariness: bool,
    /// LR-4 医術: an infected wound's healing, as the doctor's test set it: `day`,
    /// `week` or `none` (None: no infection).
    #[serde(default)]
    pub infection: Option<String>,
    /// LR-4: died (stays dead when a setting such as `hobbit_death` changes later).
    #[serde(default)]
    pub dead: bool,
    /// LR-8: Armed Combat picks, (skill, combat action), each +1 on that action.
    #[serde(default)]
    pub armed_picks: Vec<(String, String)>,
    /// LR-4 drowning (Table 9.32): unconscious from a failed test, until the 15 minutes'
    /// rest (`/lotr drown NAME rest`).
    #[serde(default)]
    pub drowned: bool,
    /// LR-5: made its recovery test this combat round (「戦闘中は1ラウンドに1回」).
    #[serde(default)]
    pub recovery_tested: bool,
    /// LR-7 「Complete Failure 以上の失敗の場合は, Corruption の影響を受けた行動を行わなければ
    /// ならない」: the TN of the temptation test that forced a corrupted act not yet
    /// followed up (the GM's follow-up test is 「同じ難易度あるいはそれ以上」).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corrupted_act: Option<i64>,
}

/// LR-4: a poison at work, its stages rolled when it was created and its first test's
/// result reused by every stage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Poison {
    /// Its name.
    pub name: String,
    /// Potency.
    pub potency: i64,
    /// Stages left to come.
    pub stages_left: i64,
    /// The first resistance test succeeded (Secondary effect) or failed (Primary).
    pub resisted: bool,
}

/// What LotR tracks at a table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct State {
    /// The GM's settings and tables.
    pub settings: Settings,
    /// Characters' records by name.
    pub characters: BTreeMap<String, Character>,
    /// Their table status by name.
    pub status: BTreeMap<String, Status>,
    /// The combat round (LR-6's per-round Courage), from 0.
    pub round: u64,
    /// Combat, battles, units, sieges, advancement and purses (LR-12 to LR-17).
    pub sub: super::table::SubState,
    /// LR-1: the nine 2d6 rolled at the table for a character's random creation.
    pub creation_rolls: BTreeMap<String, Vec<i64>>,
    /// LR-6: each character's last test, which Courage spent after it rewrites.
    pub last_tests: BTreeMap<String, LastTest>,
}

/// LR-6 「前金で支払う必要はなく,テスト結果を見てから何点使うかを決めてよい」: a character's
/// last test, kept so that Courage spent after seeing it is shown changing it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastTest {
    /// The test as evaluated (`LOTR+7>=15`).
    pub command: String,
    /// The skill its `{…}` reference named (`Ride`), for edges that add to Courage on it.
    #[serde(default)]
    pub skill: Option<String>,
    /// Its totals.
    pub totals: TestTotals,
    /// A secret roll: only the GM and the character's owner see it and its rewriting.
    #[serde(default)]
    pub secret: bool,
    /// Courage bonus added to it so far.
    #[serde(default)]
    pub courage: i64,
}

/// What a test came to (LR-9 to LR-11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "form", rename_all = "snake_case")]
pub enum TestTotals {
    /// A single test, against a TN or for its total.
    Single {
        /// Total.
        total: i64,
        /// TN.
        tn: Option<i64>,
    },
    /// An opposed test: the character's side and the other's (the deciding pair).
    Opposed {
        /// The character's total.
        mine: i64,
        /// The other side's.
        other: i64,
        /// The character rolled the left side (the attacker in a dodge or parry test).
        mine_is_left: bool,
        /// `retest`, `dodge` (a tie hits) or `parry` (a tie is parried).
        tie: String,
    },
    /// A group test led by the character.
    Group {
        /// The leader's total.
        leader: i64,
        /// The helpers' bonus.
        bonus: i64,
        /// TN.
        tn: i64,
    },
}

impl LastTest {
    /// What the test comes to with `extra` more on the character's total, as words.
    pub fn outcome(&self, extra: i64) -> (String, String) {
        let add = self.courage + extra;
        if add == 0 {
            // The test as rolled, nothing spent on it yet.
            match &self.totals {
                TestTotals::Single {
                    total,
                    tn: Some(tn),
                } => {
                    let d = Degree::of(total - tn);
                    return (
                        format!("{total} vs {tn}（{:+}）{}", total - tn, d.name()),
                        format!("{total} vs {tn} ({:+}) {}", total - tn, d.name()),
                    );
                }
                TestTotals::Single { total, tn: None } => {
                    return (format!("達成値 {total}"), format!("total {total}"));
                }
                TestTotals::Group { leader, bonus, tn } => {
                    let m = leader + bonus - tn;
                    return (
                        format!(
                            "リーダー+補助 {} vs {tn}（{m:+}）{}",
                            leader + bonus,
                            Degree::of(m).name()
                        ),
                        format!(
                            "leader + helpers {} vs {tn} ({m:+}) {}",
                            leader + bonus,
                            Degree::of(m).name()
                        ),
                    );
                }
                TestTotals::Opposed { .. } => {}
            }
        }
        match &self.totals {
            TestTotals::Single { total, tn: None } => (
                format!("達成値 {total} → {}", total + add),
                format!("total {total} → {}", total + add),
            ),
            TestTotals::Single {
                total,
                tn: Some(tn),
            } => {
                let before = Degree::of(total + self.courage - tn);
                let margin = total + add - tn;
                let d = Degree::of(margin);
                (
                    format!(
                        "{} → {} vs {tn}（{margin:+}）{}（勇気の前は {}）",
                        total + self.courage,
                        total + add,
                        d.name(),
                        before.name()
                    ),
                    format!(
                        "{} → {} vs {tn} ({margin:+}) {} (before the Courage: {})",
                        total + self.courage,
                        total + add,
                        d.name(),
                        before.name()
                    ),
                )
            }
            TestTotals::Group { leader, bonus, tn } => {
                let before = leader + bonus + self.courage;
                let margin = before + extra - tn;
                (
                    format!(
                        "リーダー+補助 {before} → {} vs {tn}（{margin:+}）{}",
                        before + extra,
                        Degree::of(margin).name()
                    ),
                    format!(
                        "leader + helpers {before} → {} vs {tn} ({margin:+}) {}",
                        before + extra,
                        Degree::of(margin).name()
                    ),
                )
            }
            TestTotals::Opposed {
                mine,
                other,
                mine_is_left,
                tie,
            } => {
                let m = mine + add;
                let (l, r) = if *mine_is_left {
                    (m, *other)
                } else {
                    (*other, m)
                };
                let margin = l - r;
                let (ja, en) = match (margin.cmp(&0), tie.as_str()) {
                    (std::cmp::Ordering::Equal, "dodge") => (
                        "同値: 命中（回避との同値は攻撃側）".to_string(),
                        "a tie: it hits (a tie with a dodge goes to the attack)".to_string(),
                    ),
                    (std::cmp::Ordering::Equal, "parry") => (
                        "同値: 受け流し（受けとの同値は防御側）".to_string(),
                        "a tie: parried (a tie with a parry goes to the defence)".to_string(),
                    ),
                    (std::cmp::Ordering::Equal, _) => {
                        ("同値: 再判定".to_string(), "a tie: test again".to_string())
                    }
                    (std::cmp::Ordering::Greater, _) => (
                        format!("左の勝ち（差{margin:+}: {}）", Degree::of(margin).name()),
                        format!(
                            "the left wins (margin {margin:+}: {})",
                            Degree::of(margin).name()
                        ),
                    ),
                    (std::cmp::Ordering::Less, _) => (
                        format!(
                            "右の勝ち（差{:+}: {}）",
                            -margin,
                            Degree::of(-margin).name()
                        ),
                        format!(
                            "the right wins (margin {:+}: {})",
                            -margin,
                            Degree::of(-margin).name()
                        ),
                    ),
                };
                (
                    format!("左 {l} ／ 右 {r} → {ja}"),
                    format!("left {l} / right {r} → {en}"),
                )
            }
        }
    }
}

/// A change to a character's status, as deltas so an undone change leaves later ones
/// standing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delta {
    /// Damage added (negative: healed).
    #[serde(default)]
    pub damage: i64,
    /// Weariness levels added.
    #[serde(default)]
    pub weariness: i64,
    /// Courage spent (negative: back).
    #[serde(default)]
    pub courage: i64,
    /// Of it, selfish.
    #[serde(default)]
    pub selfish: i64,
    /// Corruption added.
    #[serde(default)]
    pub corruption: i64,
    /// Became an NPC.
    #[serde(default)]
    pub npc: bool,
    /// A poison began.
    #[serde(default)]
    pub poison: Option<Poison>,
    /// A poison's stage passed (its index).
    #[serde(default)]
    pub poison_stage: Option<usize>,
    /// LR-6 `courage_return = at_once`: the Courage spent (heroic) came back at once; it
    /// counts against the round's 4 only.
    #[serde(default)]
    pub back_at_once: bool,
    /// LR-3: Renown gained.
    #[serde(default)]
    pub renown: i64,
    /// LR-4: set alight (`Some(true)`) or put out (`Some(false)`).
    #[serde(default)]
    pub alight: Option<bool>,
    /// LR-5: begins (`Some(true)`) or stops ignoring its weariness penalty.
    #[serde(default)]
    pub ignore_weariness: Option<bool>,
    /// LR-4: this change killed the character.
    #[serde(default)]
    pub died: bool,
    /// LR-4: a poison neutralised (its index): no stages left.
    #[serde(default)]
    pub poison_cured: Option<usize>,
    /// LR-8: an Armed Combat pick taken, (skill, combat action).
    #[serde(default)]
    pub armed_pick: Option<(String, String)>,
    /// LR-4 医術: an infection's healing rate set (`day`, `week`, `none`) or ended
    /// (`clear`).
    #[serde(default)]
    pub infection: Option<String>,
    /// LR-4 drowning: fell unconscious (`Some(true)`) or rested after it (`Some(false)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drowned: Option<bool>,
    /// LR-5: a recovery test made during a combat round.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recovery_tested: bool,
    /// LR-7: a temptation test at this TN forced a corrupted act.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corrupted_act: Option<i64>,
    /// LR-7: the GM's follow-up test on the corrupted act was made.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub followed_up: bool,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A reading changed.
    Setting {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
    /// A table changed.
    Table {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
    /// A character's record read from its sheet.
    Imported {
        /// Name.
        name: String,
        /// The record.
        character: Box<Character>,
        /// LR-1: the record is the character's making (`/lotr create`), not a reading of
        /// fields set by hand: while a later line names the character, it stands.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        made: bool,
    },
    /// A character's status changed.
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
    /// A new combat round: the per-round Courage count starts again (LR-6).
    Round,
    /// Courage spent for heroic ends came back (scene end, LR-6).
    CourageBack {
        /// Selfish spending too (session end).
        all: bool,
    },
    /// LR-1: the nine 2d6 of a character's random creation, rolled at the table.
    CreationRolls {
        /// Name.
        name: String,
        /// The nine totals.
        rolls: Vec<i64>,
    },
    /// The scene ended: tests that let characters ignore weariness lapse (LR-5).
    WearinessHeeded,
    /// A reckoning shown to all that changes nothing (LR-18 travel).
    Note {
        /// Log text.
        ja: String,
        /// Log text.
        en: String,
    },
    /// Combat, a battle, a unit, a siege, advancement or a purse (LR-12 to LR-17).
    Sub {
        /// The event.
        event: super::table::SubEvent,
    },
    /// LR-6: a character's test, kept for Courage spent after it (follows the roll).
    Tested {
        /// Whose.
        name: String,
        /// The test.
        test: LastTest,
    },
    /// LR-6: Courage spent after a test, shown on that test (follows the spending).
    Rewritten {
        /// Whose test.
        name: String,
        /// The bonus added.
        bonus: i64,
        /// The test's line, and what it comes to now.
        ja: String,
        /// Log text.
        en: String,
        /// The test was secret.
        #[serde(default)]
        secret: bool,
    },
    /// The scene ended: last tests can no longer be changed by Courage.
    TestsLapse,
}

/// The table rules.
pub struct LotrRules;

const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        usage: "/lotr settings | /lotr set hobbit_death on_incapacitated | /lotr table wound_penalties 0,-1,-2,-4,-8,-10",
        help: "GMの設定（解釈の切り替え）と表（既定値は例）。一覧は /lotr settings",
        help_en: "The GM's settings (readings) and tables (the defaults are examples); /lotr settings lists them",
    },
    CommandHelp {
        usage: "LOTR+{Ride/Horse}>=12 | LOTR+{Willpower}>=10 | LOTR+{STR修正}>=8",
        help: "自分のキャラクターの技能（ランク+能力修正、/分野で専門化+2、ランク0は−2）・反応値・能力修正。負傷と疲労のペナルティは自動で目標値に加算（LR-9）",
        help_en: "Your character's skill (ranks + attribute mod, /field for a specialisation +2, rank 0 −2), reaction or attribute modifier; wound and weariness penalties go on the TN automatically (LR-9)",
    },
    CommandHelp {
        usage: "/lotr create ボロミア pick 12,11,9,8,6,4 race=Men order=Warrior | /lotr create ピピン random → /lotr create ピピン random 11,10,9,8,7,6 race=Hobbits",
        help: "能力値の作成（LR-1）: 選択法（10,9,7,7,5,4+8点、12まで）かランダム法（2D6×9をテーブルで1回だけ振り、高い6つを割り振る）。値は BRG,NIM,PER,STR,VIT,WIT の順で種族修正の前。シートファイルと同じ検査",
        help_en: "Create the attributes (LR-1): pick (10,9,7,7,5,4 + 8 points, 12 at most) or random (nine 2d6 rolled once at the table, the best six assigned); values in BRG,NIM,PER,STR,VIT,WIT order before racial modifiers; the same checks as a sheet file",
    },
    CommandHelp {
        usage: "/lotr damage エオメル 12",
        help: "ダメージ（LR-4、GM）。負傷段階とペナルティを表示、死亡も判定",
        help_en: "Damage (LR-4, GM); shows the wound level and its penalty, and death",
    },
    CommandHelp {
        usage: "/lotr heal エオメル skill by=アラゴルン | rest 3 | week | week ok | facility | attended 2 by=アラゴルン | 5 | infection by=アラゴルン [tn=10] | infection clear",
        help: "治療（LR-4、GM）: skill by=治療者=Healing判定（表9.37）、成功で段階の始まり−1へ（skill だけ=GMが判定した成功）、rest=1日1点、week=週1回（治療師がいれば2回、GMが数える）のStamina判定（表9.36）、成功でVIT修正（最低1）（week ok=GMが判定した成功）、facility=施設でHealth点、attended 日数 by=治療者=毎日のHealing判定、成功した日は2点、数=直接。infection=医術: 医者のHealing判定の成功度で感染した傷の治り方（1日1点・1週1点・治らない、表 infection_rates）",
        help_en: "Healing (LR-4, GM): skill by=HEALER = the Healing test (Table 9.37), a success sets one below the level's start (skill alone: a success the GM rolled), rest = 1 a day, week = the weekly Stamina test (Table 9.36; once a week, twice with a healer: the GM counts), a success heals VIT mod, at least 1 (week ok: a success the GM rolled), facility = Health at once, attended DAYS by=HEALER = a Healing test each day, 2 points on a success, a number = directly; infection = the doctor's Healing test sets how an infected wound heals (a point a day, a week, or none; table infection_rates)",
    },
    CommandHelp {
        usage: "/lotr poison エオメル 4 1/2d6 毒の名",
        help: "毒（LR-4、GM）: 段階数（1, 1/2d6, 1d6, 2d6）を作成時に決め、Stamina判定（目標値7+強さ）の結果を全段階で使う。/lotr poison エオメル next で次の段階。/lotr poison エオメル treat by=アラゴルン 5 [identify=12] で中和（Healing 目標値10+Treatment、正体が不明なら先に特定の判定）",
        help_en: "Poison (LR-4, GM): the stage count (1, 1/2d6, 1d6, 2d6) rolled at creation; the Stamina test (TN 7 + Potency) decides every stage; /lotr poison NAME next for the next stage; /lotr poison NAME treat by=HEALER 5 [identify=12] neutralises it (Healing vs TN 10 + Treatment, after an identifying test when the poison is unknown)",
    },
    CommandHelp {
        usage: "/lotr fall エオメル 3d6 15 | /lotr fire エオメル 10 dmg=1d6 | /lotr drown エオメル 12 dmg=2d6 | /lotr drown エオメル rest",
        help: "攻撃以外のダメージ（LR-4、GM。表の値はGMが指定）: 落下=Acrobatics成功で半減、炎=Swiftness失敗で炎に包まれ2d6+4（燃えている間は同じコマンドで消火の再判定）、溺れ=Stamina失敗で意識を失いダメージ、rest=15分休んで1d6回復",
        help_en: "Harm that is not an attack (LR-4, GM; the tables' numbers are the GM's): fall = an Acrobatics success halves it; fire = a failed Swiftness test sets alight, 2d6+4 (while burning the same command is the re-test); drown = a failed Stamina test, unconscious and damage; rest = 1d6 back after 15 minutes",
    },
    CommandHelp {
        usage: "/lotr weary エオメル test 10 encumbered | /lotr weary エオメル test 10 load=150 old | /lotr weary エオメル ignore 12 willpower",
        help: "疲労判定（LR-5、GM）: Stamina、目標値は重荷+10・超重荷+20（load=重さ で STR×10/×20/×30 から）、Old −4・Aged −8、負傷・疲労のペナルティ込み。失敗で疲労+1段階。ignore 目標値 [stamina|willpower]: 疲労のペナルティを一時的に無視する判定（GMオプション ignore_weariness_by_test が on のとき。成功でシーン終了まで無視）",
        help_en: "A weariness test (LR-5, GM): Stamina, TN +10 encumbered, +20 heavily (load=WEIGHT against STR×10/×20/×30), Old −4, Aged −8, wound and weariness penalties included; a failure adds a level. ignore TN [stamina|willpower]: a test to ignore the weariness penalties for a while (GM option ignore_weariness_by_test on; a success ignores them until the scene ends)",
    },
    CommandHelp {
        usage: "/lotr renown エオメル +1 オークの隊長を討った | /lotr travel 120 フロド=20 アラゴルン=30",
        help: "知名度の上昇（LR-3、GM: 劇的な行動）。旅（LR-18）: 一行は最も遅い者の1日の移動距離に合わせる（日数は四捨五入）",
        help_en: "Renown for a dramatic deed (LR-3, GM). Travel (LR-18): the group keeps to its slowest member's daily pace (days rounded half up)",
    },
    CommandHelp {
        usage: "/lotr weary エオメル +1 | /lotr weary エオメル rest 60 | /lotr recover エオメル complete",
        help: "疲労段階の増減（LR-5、GM）。rest=休息の分数で表9.39の回復時間ごとに1段階回復（表 weariness_recovery）。recover: Exhausted からの回復判定（Stamina−10、目標値10、助け手の Healing 成功度で −3/−5/−10、Extraordinary で即 Spent）",
        help_en: "Weariness levels (LR-5, GM); rest = minutes of rest recover a level per Table 9.39's time (table weariness_recovery); recover: the Exhausted recovery test (Stamina −10 vs TN 10, lowered 3/5/10 by a helper's Healing degree; Extraordinary: Spent at once)",
    },
    CommandHelp {
        usage: "/lotr courage エオメル 2 Ride | /lotr courage エオメル impossible | /lotr courage エオメル 1 selfish",
        help: "勇気の使用（LR-6）: 判定を見てから1点+3（特徴の修正を累積）。1ラウンド4点・残りの勇気まで。impossible=不可能な判定に1点。selfish=利己的（セッション終了まで戻らない）",
        help_en: "Spend Courage (LR-6): after seeing the roll, +3 a point plus edge bonuses; at most 4 a round and what is left; impossible = 1 point for an impossible test; selfish = back only at the session's end",
    },
    CommandHelp {
        usage: "/lotr armed エオメル Swords sweep",
        help: "Armed Combat の強化（LR-8）: 技能が6・9・12ランクに達するごとに戦闘行動を1つ選び、その行動に+1（同じものを重ねてよい）。攻撃は /lotr combat attack … skill=Swords で適用、parry の強化は受けに",
        help_en: "Armed Combat picks (LR-8): at 6, 9 and 12 ranks pick a combat action for +1 on it (the same one again is allowed); applied by /lotr combat attack … skill=Swords, a parry pick on parries",
    },
    CommandHelp {
        usage: "/lotr courage エオメル weariness",
        help: "勇気1点で疲労2段階を回復（LR-5、GMの許可: GMが行う）",
        help_en: "1 Courage point recovers two weariness levels (LR-5, GM permitting: the GM runs it)",
    },
    CommandHelp {
        usage: "/lotr round",
        help: "新しいラウンド（GM）: 1ラウンドの勇気使用数が0に戻る",
        help_en: "A new round (GM): the per-round Courage count starts again",
    },
    CommandHelp {
        usage: "/lotr corruption エオメル 12 | 12 followup | yield | yield 3 | deed 2",
        help: "堕落（LR-7）: Willpower判定で Failure +1 / Complete F +2 / Disastrous +3 / Superior −1 / Extraordinary −2。followup=Complete Failure 以下で強いられた堕落の行動の後の判定（目標値は同じかそれ以上、増減なし）。yield=抵抗せず+2以上、deed=善行で−2以上。Bearing以上でNPCに",
        help_en: "Corruption (LR-7): a Willpower test, Failure +1 / Complete F +2 / Disastrous +3 / Superior −1 / Extraordinary −2; followup = the test after a corrupted act a Complete Failure or worse forced (same TN or higher; changes nothing); yield = at least +2; deed = at least −2; at Bearing the PC becomes an NPC",
    },
    CommandHelp {
        usage: "/lotr recognise エオメル area 3 race",
        help: "知名度の判定（LR-3）: Wits判定、目標値は出身の関係（local 5, area 10, 以下表）−相手のRenown、同じ種族・職業で修正",
        help_en: "Recognition (LR-3): a Wits test against the origins' TN (local 5, area 10, the rest from the table) − the other's Renown, modified for a shared race or order",
    },
];

pub(super) fn gm_only(table: &dyn TableView, rule: &str, what: (&str, &str)) -> Result<(), Text> {
    if table.actor_is_gm() {
        Ok(())
    } else {
        Err(Text::new(
            format!("{rule}: {}はGMだけが行えます", what.0),
            format!("{rule}: only the GM can {}", what.1),
        ))
    }
}

pub(super) fn no_character(name: &str) -> Text {
    Text::new(
        format!("「{name}」というキャラクターはいません。/char new {name} で作成してください"),
        format!("no character named '{name}'; create it with /char new {name}"),
    )
}

pub(super) fn may_act_for(table: &dyn TableView, name: &str) -> Result<(), Text> {
    match table.character(name) {
        None => Err(no_character(name)),
        Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => Ok(()),
        Some((owner, _)) => Err(Text::new(
            format!("{name}は{owner}のキャラクターです。操作できるのは{owner}かGMだけです"),
            format!("{name} belongs to {owner}; only they or the GM can act for it"),
        )),
    }
}

pub(super) fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

pub(super) fn number(word: &str) -> Result<i64, Text> {
    let folded = taku_dice::normalize::fold(word).text;
    let w = folded.strip_prefix('+').unwrap_or(&folded);
    if !w.is_empty()
        && w.strip_prefix('-')
            .unwrap_or(w)
            .bytes()
            .all(|b| b.is_ascii_digit())
        && w != "-"
    {
        return w
            .parse::<i64>()
            .ok()
            .filter(|n| n.abs() <= 100_000)
            .ok_or_else(|| {
                Text::new(
                    format!("「{word}」は大きすぎます（−100000〜100000）"),
                    format!("'{word}' is too large (−100000 to 100000)"),
                )
            });
    }
    Err(Text::new(
        format!("「{word}」は整数ではありません"),
        format!("'{word}' is not a whole number"),
    ))
}

/// The fields a character's record is kept in at a table (a sheet writes them; `/char
/// set` may change them): the six attributes (current), `created.BRG`… (at creation),
/// `race`, `order`, `size`, `hobbit`, `Courage`, `Renown`, `edges`, `flaws`,
/// `courage_edges` (`Bold=2;Horselord=2@Ride`), `reaction_advances`, `health_advances`,
/// and one `skill.NAME` per skill (spaces as `_`): `RANKS|ATTR|AFFINITIES|SPEC;SPEC`.
pub fn to_fields(ch: &Character) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = ATTRIBUTES
        .iter()
        .zip(ch.attributes)
        .map(|(a, v)| (a.to_string(), v.to_string()))
        .collect();
    for (a, v) in ATTRIBUTES.iter().zip(ch.created) {
        f.push((format!("created.{a}"), v.to_string()));
    }
    let join = |v: &[String]| v.join(",");
    f.push(("race".into(), ch.race.clone()));
    f.push(("order".into(), ch.order.clone()));
    f.push(("size".into(), ch.size.name().into()));
    f.push(("hobbit".into(), ch.hobbit.to_string()));
    // Courage and Renown are kept by the rules (owned fields: a GM's `/char set NAME
    // Courage 6` overrides); the sheet's values are the creation's.
    f.push(("created.Courage".into(), ch.courage.to_string()));
    f.push(("created.Renown".into(), ch.renown.to_string()));
    f.push(("edges".into(), join(&ch.edges)));
    f.push(("flaws".into(), join(&ch.flaws)));
    let ce: Vec<String> = ch
        .courage_edges
        .iter()
        .map(|e| {
            let skills = if e.skills.is_empty() {
                String::new()
            } else {
                format!("@{}", e.skills.join("+"))
            };
            format!("{}={}{skills}", e.edge, e.bonus)
        })
        .collect();
    f.push(("courage_edges".into(), ce.join(";")));
    f.push((
        "reaction_advances".into(),
        ch.reaction_advances.map(|n| n.to_string()).join(","),
    ));
    f.push(("health_advances".into(), ch.health_advances.to_string()));
    f.push(("order_skills".into(), join(&ch.order_skills)));
    f.push(("favoured".into(), join(&ch.favoured)));
    f.push(("abilities".into(), join(&ch.abilities)));
    f.push((
        "favoured_reaction".into(),
        ch.favoured_reaction.clone().unwrap_or_default(),
    ));
    for (name, k) in &ch.skills {
        f.push((
            format!("skill.{}", name.replace(' ', "_")),
            format!(
                "{}|{}|{}|{}",
                k.ranks,
                ATTRIBUTES[k.attribute.min(5)],
                k.affinities,
                k.specialisations.join(";")
            ),
        ));
    }
    f
}

/// The record a table character's fields give (see [`to_fields`]); a character made with
/// `/char set` needs only its six attributes (a Medium Man with nothing else).
pub fn from_fields(fields: &BTreeMap<String, String>) -> Option<Character> {
    let int = |k: &str| fields.get(k).and_then(|v| v.trim().parse::<i64>().ok());
    let mut attributes = [0; 6];
    for (i, a) in ATTRIBUTES.iter().enumerate() {
        attributes[i] = int(a)?.clamp(0, 1000);
    }
    let mut ch = Character {
        race: "Men".into(),
        order: String::new(),
        attributes,
        created: attributes,
        reaction_advances: [0; 4],
        health_advances: 0,
        courage: int("created.Courage")
            .unwrap_or(character::BASE_COURAGE)
            .clamp(0, 1000),
        size: Size::default(),
        hobbit: false,
        renown: int("created.Renown").unwrap_or(0),
        skills: BTreeMap::new(),
        edges: Vec::new(),
        flaws: Vec::new(),
        courage_edges: Vec::new(),
        age_penalty: 0,
        order_skills: Vec::new(),
        favoured: Vec::new(),
        favoured_reaction: None,
        abilities: Vec::new(),
    };
    overlay(&mut ch, fields);
    Some(ch)
}

/// The record's fields the table holds, laid over `ch` (each field present replaces what
/// it keeps; see [`to_fields`]): a GM's `/char set` of a skill, an edge or an attribute is
/// followed, as a sheet's first values are (a member's change once the character is made
/// is refused by [`super::fields`]). LR-1 「能力値の最小は1」: an attribute set below 1
/// counts as 1 (before the rules have read it, 0 stays the sheet's); a value that is no
/// whole number is not read (the record's stands).
fn overlay(ch: &mut Character, fields: &BTreeMap<String, String>) {
    let int = |k: &str| fields.get(k).and_then(|v| v.trim().parse::<i64>().ok());
    let list = |k: &str| -> Option<Vec<String>> {
        fields.get(k).map(|v| {
            v.split(',')
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect()
        })
    };
    for (i, a) in ATTRIBUTES.iter().enumerate() {
        if let Some(v) = int(a) {
            ch.attributes[i] = v.clamp(0, 1000);
        }
        if let Some(v) = int(&format!("created.{a}")) {
            ch.created[i] = v.clamp(0, 1000);
        }
    }
    if let Some(race) = fields.get("race") {
        ch.race = race.clone();
        // LR-4: a Hobbit has no Near Death, unless `hobbit` says otherwise.
        ch.hobbit = matches!(race.as_str(), "Hobbits" | "Hobbit");
    }
    if let Some(order) = fields.get("order") {
        ch.order = order.clone();
    }
    if let Some(h) = fields.get("hobbit") {
        ch.hobbit = h == "true";
    }
    if let Some(size) = fields.get("size").and_then(|s| Size::parse(s.trim())) {
        ch.size = size;
    }
    for key in ["Courage", "courage"] {
        if let Some(v) = int(key) {
            ch.courage = v.clamp(0, 1000);
        }
    }
    if let Some(v) = int("Renown") {
        ch.renown = v.clamp(-1000, 1000);
    }
    if let Some(v) = fields.get("courage_edges") {
        ch.courage_edges = v
            .split(';')
            .filter_map(|e| {
                let (edge, rest) = e.split_once('=')?;
                let (bonus, skills) = match rest.split_once('@') {
                    Some((b, s)) => (b, s.split('+').map(|x| x.trim().to_string()).collect()),
                    None => (rest, Vec::new()),
                };
                Some(character::CourageEdge {
                    edge: edge.trim().to_string(),
                    bonus: bonus.trim().parse().ok()?,
                    skills,
                })
            })
            .collect();
    }
    if let Some(v) = fields.get("reaction_advances") {
        for (i, n) in v.split(',').take(4).enumerate() {
            ch.reaction_advances[i] = n.trim().parse().unwrap_or(0);
        }
    }
    if let Some(v) = int("health_advances") {
        ch.health_advances = v;
    }
    for (key, to) in [
        ("edges", &mut ch.edges),
        ("flaws", &mut ch.flaws),
        ("order_skills", &mut ch.order_skills),
        ("favoured", &mut ch.favoured),
        ("abilities", &mut ch.abilities),
    ] {
        if let Some(v) = list(key) {
            *to = v;
        }
    }
    if let Some(f) = fields.get("favoured_reaction") {
        ch.favoured_reaction = Some(f.clone()).filter(|f| !f.is_empty());
    }
    for (k, v) in fields {
        let Some(name) = k.strip_prefix("skill.") else {
            continue;
        };
        let parts: Vec<&str> = v.split('|').collect();
        let ranks = parts
            .first()
            .and_then(|r| r.trim().parse().ok())
            .unwrap_or(0);
        let attribute = parts
            .get(1)
            .and_then(|a| character::attribute(a.trim()))
            .unwrap_or(WIT);
        let affinities = parts
            .get(2)
            .and_then(|r| r.trim().parse().ok())
            .unwrap_or(0);
        let specialisations = parts
            .get(3)
            .map(|s| {
                s.split(';')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        ch.skills.insert(
            name.replace('_', " "),
            character::Skill {
                ranks: i64::clamp(ranks, 0, character::MAX_RANKS),
                attribute,
                specialisations,
                affinities,
            },
        );
    }
}

/// The character's record as it stands: the state's (or, before the rules touched it, the
/// fields'), with the record's fields the table holds now laid over it (`/char set NIM 8`,
/// a GM's edit: [`overlay`]): Defence follows the attributes, reactions and Health keep
/// their creation values (LR-3); then what advancement bought.
pub(super) fn record(table: &dyn TableView, state: &State, name: &str) -> Option<Character> {
    let (_, fields) = table.character(name)?;
    let mut ch = state
        .characters
        .get(name)
        .cloned()
        .or_else(|| from_fields(fields))?;
    overlay(&mut ch, fields);
    // LR-1 「能力値の最小は1」: a value set below 1 counts as 1.
    for a in &mut ch.attributes {
        *a = (*a).max(1);
    }
    if let Some(p) = state.sub.advance.progress.get(name) {
        with_advancement(&mut ch, p);
    }
    Some(ch)
}

/// LR-12: what the character's advancements bought, on its record: skill ranks (a new
/// skill takes its attribute from the data), specialisations, edges, attribute points,
/// reaction and Health advances. Attribute points are added on top of the table's
/// attribute fields: a GM who also types the raised value with `/char set` counts it twice.
fn with_advancement(ch: &mut Character, p: &super::advance::Progress) {
    let data = super::sheet::Data::example();
    for (skill, ranks) in &p.skills {
        let entry = ch
            .skills
            .entry(skill.clone())
            .or_insert_with(|| character::Skill {
                ranks: 0,
                attribute: data.skill_attribute(skill).unwrap_or(WIT),
                specialisations: Vec::new(),
                affinities: 0,
            });
        entry.ranks = entry.ranks.max(*ranks).min(character::MAX_RANKS);
    }
    for (skill, field) in &p.specialisations {
        if let Some(s) = ch.skills.get_mut(skill)
            && !s.specialisations.contains(field)
        {
            s.specialisations.push(field.clone());
        }
    }
    for e in &p.edges {
        if !ch.edges.contains(e) {
            ch.edges.push(e.clone());
            // LR-6: an edge bought later adds to Courage as the data says (Bold +2).
            if let Some(d) = data.edges.get(e)
                && d.courage_bonus != 0
                && !ch.courage_edges.iter().any(|c| &c.edge == e)
            {
                ch.courage_edges.push(character::CourageEdge {
                    edge: e.clone(),
                    bonus: d.courage_bonus,
                    skills: d.skills.clone(),
                });
            }
        }
    }
    for (_, a) in &p.abilities {
        if !ch.abilities.contains(a) {
            ch.abilities.push(a.clone());
        }
    }
    for f in &p.flaws {
        if !ch.flaws.contains(f) {
            ch.flaws.push(f.clone());
        }
    }
    for (name, n) in &p.attribute_picks {
        if let Some(i) = character::attribute(name) {
            ch.attributes[i] = (ch.attributes[i] + n).clamp(0, 1000);
        }
    }
    for (name, n) in &p.reactions {
        if let Some(i) = character::reaction(name) {
            ch.reaction_advances[i] += n;
        }
    }
    ch.health_advances += p.health;
}

/// The character's record and status, and the event importing it when the rules have not
/// touched it yet.
pub(super) fn load(
    table: &dyn TableView,
    state: &State,
    name: &str,
) -> Result<(Character, Status, Vec<Event>), Text> {
    let status = state.status.get(name).cloned().unwrap_or_default();
    if state.characters.contains_key(name)
        && let Some(ch) = record(table, state, name)
    {
        return Ok((ch, status, Vec::new()));
    }
    let Some((_, fields)) = table.character(name) else {
        return Err(no_character(name));
    };
    let Some(ch) = from_fields(fields) else {
        return Err(Text::new(
            format!(
                "{name}はロード・オブ・ザ・リングのキャラクターではありません。シート（taku table sheet）か /char set {name} BRG 8 NIM 7 PER 7 STR 9 VIT 8 WIT 7 で能力値を設定してください"
            ),
            format!(
                "{name} is not a Lord of the Rings character yet: a sheet (taku table sheet) or /char set {name} BRG 8 NIM 7 PER 7 STR 9 VIT 8 WIT 7"
            ),
        ));
    };
    let event = Event::Imported {
        name: name.to_string(),
        character: Box::new(ch.clone()),
        made: false,
    };
    // What the rules use is the record with the table's current values and what
    // advancement bought (the import keeps the sheet's own record).
    let ch = record(table, state, name).unwrap_or(ch);
    Ok((ch, status, vec![event]))
}

/// Applies a delta (the fold's rule, also used to foresee a change).
pub(super) fn apply(s: &mut Status, d: &Delta, exhausted: i64) {
    s.damage = (s.damage + d.damage).max(0);
    s.weariness = (s.weariness + d.weariness).clamp(0, exhausted);
    let kept = if d.back_at_once { 0 } else { d.courage };
    s.courage_spent = (s.courage_spent + kept).max(0);
    s.courage_selfish = (s.courage_selfish + d.selfish).clamp(0, s.courage_spent);
    if d.courage > 0 {
        s.courage_round += d.courage;
    }
    // LR-7: Corruption never goes below 0.
    s.corruption = (s.corruption + d.corruption).max(0);
    if d.npc {
        s.npc = true;
    }
    if let Some(p) = &d.poison {
        s.poisons.push(p.clone());
    }
    s.renown += d.renown;
    if let Some(a) = d.alight {
        s.alight = a;
    }
    if let Some(i) = d.ignore_weariness {
        s.ignoring_weariness = i;
    }
    if d.died {
        s.dead = true;
    }
    if let Some(d) = d.drowned {
        s.drowned = d;
    }
    if d.recovery_tested {
        s.recovery_tested = true;
    }
    if d.followed_up {
        s.corrupted_act = None;
    }
    if let Some(tn) = d.corrupted_act {
        s.corrupted_act = Some(tn);
    }
    if let Some(p) = &d.armed_pick {
        s.armed_picks.push(p.clone());
    }
    if let Some(i) = d.poison_cured
        && let Some(p) = s.poisons.get_mut(i)
    {
        p.stages_left = 0;
    }
    match d.infection.as_deref() {
        Some("clear") => s.infection = None,
        Some(rate) => s.infection = Some(rate.to_string()),
        None => {}
    }
    if let Some(i) = d.poison_stage
        && let Some(p) = s.poisons.get_mut(i)
    {
        p.stages_left = (p.stages_left - 1).max(0);
    }
}

/// LR-4, LR-5: the penalty the character's wounds and weariness give every test (the
/// weariness part left out while a test lets it ignore weariness, LR-5
/// `ignore_weariness_by_test`).
pub fn penalty(settings: &Settings, ch: &Character, s: &Status) -> i64 {
    let weariness = if s.ignoring_weariness {
        0
    } else {
        settings.weariness_penalty(usize::try_from(s.weariness).unwrap_or(0))
    };
    wound_penalty(settings, ch, s) + weariness
}

/// LR-4, LR-5, LR-14: [`penalty`] with what `name`'s fight puts on every test
/// ([`combat_conditions`]: 「スタン中は,すべての判定にペナルティを受ける」, fear's 「すべての
/// 行動に」): for the tests the GM's commands roll (weariness, poison, healing, temptation,
/// hazards), as for a plain `LOTR` test.
pub(super) fn tested_penalty(state: &State, name: &str, ch: &Character, s: &Status) -> i64 {
    penalty(&state.settings, ch, s) + combat_conditions(state, name).0
}

/// LR-4: the wound part of [`penalty`] alone.
pub fn wound_penalty(settings: &Settings, ch: &Character, s: &Status) -> i64 {
    let level = ch.body().level(s.damage, settings.hobbit_death);
    if level == WoundLevel::Healthy {
        0
    } else {
        settings.wound_penalty(level.index())
    }
}

fn level_words(settings: &Settings, ch: &Character, s: &Status) -> (String, String) {
    let level = ch.body().level(s.damage, settings.hobbit_death);
    let p = penalty(settings, ch, s);
    if level == WoundLevel::Dead || s.dead {
        return (
            format!(
                "ダメージ{}: 死亡（{}以上）",
                s.damage,
                ch.body().death_at(settings.hobbit_death)
            ),
            format!(
                "damage {}: dead (at {} or more)",
                s.damage,
                ch.body().death_at(settings.hobbit_death)
            ),
        );
    }
    // LR-5 「Exhausted になったキャラクターはただちに意識不明になる」.
    let (uj, ue) = if s.weariness >= settings.exhausted() as i64 || s.drowned {
        ("（意識不明）", " (unconscious)")
    } else {
        ("", "")
    };
    (
        format!(
            "ダメージ{}/Health{}: {}、{}{uj}（判定{p:+}）",
            s.damage,
            ch.health(),
            level.name(),
            settings.weariness_name(usize::try_from(s.weariness).unwrap_or(0)),
        ),
        format!(
            "damage {} / Health {}: {}, {}{ue} (tests {p:+})",
            s.damage,
            ch.health(),
            level.name(),
            settings.weariness_name(usize::try_from(s.weariness).unwrap_or(0)),
        ),
    )
}

pub(super) fn changed(name: &str, delta: Delta, ja: String, en: String) -> Event {
    Event::Changed {
        name: name.to_string(),
        delta,
        ja,
        en,
    }
}

/// A status change with its report (damage, level, penalty after it).
pub(super) fn status_event(
    settings: &Settings,
    name: &str,
    ch: &Character,
    s: &Status,
    mut delta: Delta,
    what: (String, String),
) -> Event {
    let mut after = s.clone();
    apply(&mut after, &delta, settings.exhausted() as i64);
    if !s.dead && ch.body().level(after.damage, settings.hobbit_death) == WoundLevel::Dead {
        delta.died = true;
        after.dead = true;
    }
    let (lj, le) = level_words(settings, ch, &after);
    changed(
        name,
        delta,
        format!("{name}: {}。{lj}", what.0),
        format!("{name}: {}; {le}", what.1),
    )
}

pub(super) fn done(events: Vec<Event>) -> Result<Outcome<Event>, Text> {
    Ok(Outcome {
        events,
        reply: None,
    })
}

pub(super) fn reply(text: Text) -> Result<Outcome<Event>, Text> {
    Ok(Outcome {
        events: Vec::new(),
        reply: Some(text),
    })
}

/// Rolls a LotR test of `modifier` against `tn` raised by the tester's conditions
/// (LR-9: a `penalty` ≤ 0 from wounds, weariness, stun, fear or a grab goes on the TN):
/// its dice, total, degree, and its text in words both languages read, the TN shown with
/// what raised it (`7[3,4]+0 ＞ 7 vs 5+20=25 (-18) Complete Failure`).
pub(super) fn test(
    roller: &mut Roller<'_>,
    modifier: i64,
    tn: i64,
    penalty: i64,
) -> Result<(check::Rolled, Degree, String), Text> {
    let r = check::roll_test(modifier, roller).map_err(|e| e.text())?;
    let target = tn - penalty;
    let margin = r.total - target;
    let d = Degree::of(margin);
    let vs = if penalty == 0 {
        target.to_string()
    } else {
        format!("{tn}{:+}={target}", -penalty)
    };
    let text = format!("{} vs {vs} ({margin:+}) {}", r.text(), d.name());
    Ok((r, d, text))
}

fn decide_lotr(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Outcome<Event>, Text> {
    match words {
        ["settings"] => {
            // Every reading of the digest in one list: the core's, then combat's, the
            // battle's and advancement's (each also under `/lotr combat settings` …).
            let parts = [
                state.settings.describe(),
                state.sub.combat.settings.describe(),
                state.sub.battle.settings.describe(),
                state.sub.advance.settings.describe(),
            ];
            let join = |lang| {
                parts
                    .iter()
                    .map(|t| t.get(lang).to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            reply(Text::new(
                join(taku_dice::Lang::Ja),
                join(taku_dice::Lang::En),
            ))
        }
        ["set", key, value] => {
            gm_only(table, "/lotr set", ("設定の変更", "change a setting"))?;
            // The readings of combat, battles and advancement live in their modules:
            // `/lotr set KEY VALUE` reaches them too.
            let module = match *key {
                "stun_reduction" | "mounted_dodge_size" | "two_weapon_penalty" => Some("combat"),
                "battle_siegecraft" | "morale_bonus" | "protection" => Some("battle"),
                "xp_timing" | "flaw_picks" => Some("xp"),
                _ => None,
            };
            if let Some(module) = module {
                return decide_lotr(table, state, &[module, "set", key, value], dice);
            }
            let mut after = state.settings.clone();
            after.set(key, value)?;
            // LR-11/LR-14: one `fear_tie`, one log line: its fold sets combat's copy too.
            let mut events = vec![Event::Setting {
                key: key.to_string(),
                value: value.to_string(),
            }];
            // LR-4 `hobbit_death`: a Hobbit the new reading kills dies by this line (said so,
            // and recorded: switching back later does not revive it; the GM may /void it).
            for (name, _) in table.characters() {
                let (Some(ch), s) = (
                    record(table, state, name),
                    state.status.get(name).cloned().unwrap_or_default(),
                ) else {
                    continue;
                };
                if !s.dead
                    && ch.body().level(s.damage, state.settings.hobbit_death) != WoundLevel::Dead
                    && ch.body().level(s.damage, after.hobbit_death) == WoundLevel::Dead
                {
                    events.push(changed(
                        name,
                        Delta {
                            died: true,
                            ..Delta::default()
                        },
                        format!(
                            "{name}: {key} = {value} でダメージ{}は死亡（LR-4。/void でこの設定ごと取り消せます）",
                            s.damage
                        ),
                        format!(
                            "{name}: with {key} = {value}, damage {} is death (LR-4; /void undoes the setting and this)",
                            s.damage
                        ),
                    ));
                }
            }
            done(events)
        }
        ["table", key, value] => {
            gm_only(table, "/lotr table", ("表の変更", "change a table"))?;
            state.settings.clone().set_table(key, value)?;
            done(vec![Event::Table {
                key: key.to_string(),
                value: value.to_string(),
            }])
        }
        ["set" | "table", ..] => Err(usage(
            "/lotr set 設定 値 | /lotr table 表 値,値,…",
            "/lotr set KEY VALUE | /lotr table KEY v1,v2,…",
        )),
        // LR-11/LR-14: combat's `fear_tie` is the core's one setting (one log line).
        ["combat", "set", "fear_tie", value] => {
            decide_lotr(table, state, &["set", "fear_tie", value], dice)
        }
        ["round"] => {
            gm_only(table, "LR-6", ("ラウンドの開始", "start a round"))?;
            done(vec![Event::Round])
        }
        [head, ..]
            if matches!(
                *head,
                "combat" | "battle" | "unit" | "siege" | "xp" | "money"
            ) =>
        {
            // LR-4: a dead table character joins, acts and attacks no more.
            if let ["combat", verb, name, ..] = words
                && matches!(
                    *verb,
                    "join"
                        | "act"
                        | "attack"
                        | "grab"
                        | "escape"
                        | "grapple"
                        | "trip"
                        | "fear"
                        | "inspire"
                        | "stand"
                        | "delay"
                        | "stun"
                        | "ride"
                )
                && let Some(ch) = record(table, state, name)
            {
                let s = state.status.get(*name).cloned().unwrap_or_default();
                not_dead(state, name, &ch, &s)?;
                // LR-7: a fallen PC is the GM's NPC in combat too.
                npc_is_the_gms(table, name, &s)?;
                // LR-5: the Exhausted are unconscious: no actions (nor joining a fight)
                // until they recover (LR-4: the drowned too, until their rest).
                awake(state, name, &s)?;
            }
            // LR-4/LR-5 (lotr8 F11): a dead or unconscious character fights no battle as a
            // hero, fortifies nothing and commands no unit, as it acts in no combat.
            let actor = match words {
                ["battle", "hero", name, ..] | ["siege", "fortify", name, ..] => Some(*name),
                ["unit", "attack", _, _, rest @ ..] => {
                    rest.iter().find_map(|w| w.strip_prefix("by="))
                }
                _ => None,
            };
            if let Some(name) = actor
                && let Some(ch) = record(table, state, name)
            {
                let s = state.status.get(name).cloned().unwrap_or_default();
                able(state, name, &ch, &s)?;
            }
            // LR-4: a dead table character is no target (「Near Death … の次で死亡」):
            // no attack, grab, trip, fear or stun on it.
            if let [
                "combat",
                "attack" | "grab" | "trip" | "fear" | "stun",
                _,
                targets,
                ..,
            ] = words
            {
                for t in targets.split([',', '、']) {
                    let t = t.split(':').next().unwrap_or(t);
                    if let Some(ch) = record(table, state, t) {
                        let s = state.status.get(t).cloned().unwrap_or_default();
                        not_dead(state, t, &ch, &s)?;
                    }
                }
            }
            // LR-12 「シナリオの第1目的を達成すると1000点…キャラクターで分配」: the award is
            // shared by the characters who go on; a dead one takes no share (nor any XP), so
            // naming it would cut the living's share.
            if let ["xp", "award", names, ..] = words {
                for n in names.split(',') {
                    let dead = record(table, state, n).is_some_and(|ch| {
                        let s = state.status.get(n).cloned().unwrap_or_default();
                        not_dead(state, n, &ch, &s).is_err()
                    });
                    if dead {
                        return Err(Text::new(
                            format!(
                                "LR-12: {n}は死亡しています。経験点は生きているキャラクターで分配します（{n}を外して /lotr xp award を書き直してください）"
                            ),
                            format!(
                                "LR-12: {n} is dead; XP is shared among the living characters (write /lotr xp award again without {n})"
                            ),
                        ));
                    }
                }
            }
            // LR-5: an unconscious target is not frightened (it makes no Willpower test).
            if let ["combat", "fear" | "inspire", _, target, ..] = words
                && record(table, state, target).is_some()
            {
                awake(
                    state,
                    target,
                    &state.status.get(*target).cloned().unwrap_or_default(),
                )?;
            }
            // LR-13: a purse belongs to a character at the table (a typo makes none).
            if let ["money", name, ..] = words
                && *name != "convert"
                && table.character(name).is_none()
            {
                return Err(no_character(name));
            }
            let import =
                |name: &str| record(table, state, name).map(|ch| progress(&ch, &state.settings));
            let mut notes = Vec::new();
            let mut from_record = Vec::new();
            let (sub, words) = if *head == "combat" {
                from_record = record_keys(table, state, words);
                let mut w = join_from_sheet(table, state, words);
                notes = armed_on_attack(table, state, &mut w)?;
                (std::borrow::Cow::Owned(with_wounds(table, state)), w)
            } else if *head == "xp" {
                // LR-8: advancement reads the table's `multi_field_specialisation`.
                let mut sub = state.sub.clone();
                sub.advance.multi_field_specialisation = state.settings.multi_field_specialisation;
                (
                    std::borrow::Cow::Owned(sub),
                    words.iter().map(|w| w.to_string()).collect(),
                )
            } else {
                (
                    std::borrow::Cow::Borrowed(&state.sub),
                    words.iter().map(|w| w.to_string()).collect(),
                )
            };
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            match super::table::decide(table, &sub, &words, dice, &import) {
                Some(Ok(mut decided)) => {
                    for e in &mut decided.events {
                        if let super::table::SubEvent::Combat(super::combat::Event::Joined {
                            fighter,
                        }) = e
                        {
                            fighter.from_record = from_record.clone();
                        }
                    }
                    let mut follow = combat_follows(table, state, &decided.events);
                    if matches!(*head, "unit" | "siege") {
                        follow.extend(destroyed(state, &decided.events));
                    }
                    let mut events: Vec<Event> = decided
                        .events
                        .into_iter()
                        .map(|event| Event::Sub { event })
                        .collect();
                    if !events.is_empty() {
                        events.extend(notes);
                    }
                    events.extend(follow);
                    Ok(Outcome {
                        events,
                        reply: decided.reply,
                    })
                }
                Some(Err(why)) => Err(why),
                None => Err(unknown()),
            }
        }
        ["travel", rest @ ..] => super::hazards::travel(rest).map(|e| Outcome {
            events: vec![e],
            reply: None,
        }),
        ["create", name, rest @ ..] => super::create::decide(table, state, name, rest, dice),
        [verb, name, rest @ ..] => {
            may_act_for(table, name)?;
            let (ch, s, mut events) = load(table, state, name)?;
            npc_is_the_gms(table, name, &s)?;
            if !matches!(*verb, "damage" | "renown") {
                not_dead(state, name, &ch, &s)?;
            }
            let more = match *verb {
                "damage" => damage(table, state, name, &ch, &s, rest)?,
                "heal" => heal(table, state, name, &ch, &s, rest, dice)?,
                "poison" => poison(table, state, name, &ch, &s, rest, dice)?,
                "weary" => match rest.first() {
                    Some(&"test") => {
                        super::hazards::weary_test(table, state, name, &ch, &s, &rest[1..], dice)?
                    }
                    Some(&"ignore") => super::hazards::ignore_weariness(
                        table,
                        state,
                        name,
                        &ch,
                        &s,
                        &rest[1..],
                        dice,
                    )?,
                    Some(&"rest") => weary_rest(table, state, name, &ch, &s, &rest[1..])?,
                    _ => weary(table, state, name, &ch, &s, rest)?,
                },
                "fall" => super::hazards::fall(table, state, name, &ch, &s, rest, dice)?,
                "fire" => super::hazards::fire(table, state, name, &ch, &s, rest, dice)?,
                "drown" => super::hazards::drown(table, state, name, &ch, &s, rest, dice)?,
                "renown" => super::hazards::renown(table, name, &s, &ch, rest)?,
                "armed" => armed_pick(state, name, &ch, &s, rest)?,
                "recover" => recover(table, state, name, &ch, &s, rest, dice)?,
                "courage" => courage(table, state, name, &ch, &s, rest)?,
                "corruption" => {
                    // LR-7: the GM sets the TN (Table 9.21) and judges yielding and deeds.
                    gm_only(
                        table,
                        "LR-7",
                        ("堕落の判定・増減", "call or change Corruption"),
                    )?;
                    // LR-5: the unconscious make no Willpower test (lotr8 F11); yielding
                    // and deeds are the GM's to record.
                    if rest.first().is_some_and(|w| number(w).is_ok()) {
                        able(state, name, &ch, &s)?;
                    }
                    corruption(state, name, &ch, &s, rest, dice)?
                }
                "recognise" | "recognize" => {
                    return recognise(state, name, &ch, &s, rest, dice, events);
                }
                _ => return Err(unknown()),
            };
            events.extend(more);
            done(events)
        }
        _ => Err(unknown()),
    }
}

/// LR-4, LR-5 in LR-14: the combat as the rules see it now, every fighter who is a table
/// character carrying its wound and weariness penalty (on all its tests, like stun).
fn with_wounds(table: &dyn TableView, state: &State) -> super::table::SubState {
    let mut sub = state.sub.clone();
    for f in &mut sub.combat.fighters {
        let s = state.status.get(&f.name).cloned().unwrap_or_default();
        let ch = record(table, state, &f.name);
        f.wounds = ch.as_ref().map_or(0, |ch| penalty(&state.settings, ch, &s));
        // LR-3: Defence (10 + NIM mod) and STR (its damage modifier) as the record has
        // them now — an advancement or the GM's hand may have changed them since joining.
        if let Some(ch) = &ch {
            if f.from_record.iter().any(|k| k == "def") {
                f.defence = ch.defence();
            }
            if f.from_record.iter().any(|k| k == "str") {
                f.strength = ch.attributes[character::STR];
            }
        }
        // LR-5: the Exhausted are unconscious (no initiative, no turn).
        f.unconscious = s.weariness >= state.settings.exhausted() as i64 || s.drowned;
        // LR-4: the dead neither (nor are they attacked).
        f.dead = ch.is_some_and(|ch| not_dead(state, &f.name, &ch, &s).is_err());
    }
    sub
}

/// LR-3, LR-14: of `combat join NAME`'s `def=` and `str=`, those a table character's
/// record gives (the GM typed none): [`with_wounds`] keeps them the record's.
fn record_keys(table: &dyn TableView, state: &State, words: &[&str]) -> Vec<String> {
    match words {
        ["combat", "join", name, rest @ ..] if record(table, state, name).is_some() => {
            ["def", "str"]
                .into_iter()
                .filter(|key| !rest.iter().any(|w| w.starts_with(&format!("{key}="))))
                .map(str::to_string)
                .collect()
        }
        _ => Vec::new(),
    }
}

/// LR-14, LR-3: `combat join NAME` of a table character fills what its sheet gives —
/// `swift=` its Swiftness, `def=` its Defence, `str=` its STR, `size=` its Size — unless
/// the GM wrote them (the GM's words come after, so they win).
fn join_from_sheet(table: &dyn TableView, state: &State, words: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    if let ["combat", "join", name, rest @ ..] = words
        && let Some(ch) = record(table, state, name)
    {
        let given = |key: &str| rest.iter().any(|w| w.starts_with(&format!("{key}=")));
        let mut filled = Vec::new();
        if !given("swift") {
            filled.push(format!("swift={}", ch.reaction(1)));
        }
        if !given("def") {
            filled.push(format!("def={}", ch.defence()));
        }
        if !given("str") {
            filled.push(format!("str={}", ch.attributes[character::STR]));
        }
        if !given("size") {
            filled.push(format!("size={}", ch.size.name()));
        }
        // LR-14 「Swift Strikeを持った戦士…はアクション数を増加させる」: one more a round.
        if !given("actions") && ch.abilities.iter().any(|a| a == "Swift Strike") {
            filled.push("actions=3".into());
        }
        out.splice(3..3, filled);
    }
    // LR-14 stun: 「Stamina 判定を行い」 — a table character's Stamina from its record is
    // added to the GM's modifier (`+0` when the GM wrote none before `tn=`).
    if let ["combat", "stun", who, rest @ ..] = words
        && let Some(ch) = record(table, state, who)
    {
        let stamina = ch.reaction(0);
        match rest.first() {
            Some(m) if !m.contains('=') => {
                if let Ok(n) = number(m) {
                    out[3] = format!("{:+}", n + stamina);
                }
            }
            _ => out.insert(3, format!("{stamina:+}")),
        }
    }
    // LR-14 ride: a table character's Ride from its record (untrained −2 as LR-8 says)
    // when the GM gives no modifier before `tn=`.
    if let ["combat", "ride", who, rest @ ..] = words
        && rest.first().is_none_or(|w| w.contains('='))
        && let Some(ch) = record(table, state, who)
        && let Some(ride) = reference(&ch, "Ride")
    {
        out.insert(3, format!("{ride:+}"));
    }
    // LR-14 fear: 「防御側はWillpowerで抵抗する」 — a table character's Willpower from its
    // record; 「抵抗側は,恐怖の対象からの距離や,仲間からの激励などによって 抵抗に修正を受ける
    // (Table 9.20)」: a modifier the GM types is Table 9.20's, added to the record's.
    if let ["combat", "fear" | "inspire", _, target, _, typed @ ..] = words
        && typed.len() <= 1
        && let Some(ch) = record(table, state, target)
    {
        let willpower = ch.reaction(2);
        match typed.first() {
            None => out.push(format!("{willpower:+}")),
            Some(m) => {
                if let Ok(n) = number(m) {
                    out[5] = format!("{:+}", n.saturating_add(willpower));
                }
            }
        }
    }
    out
}

/// LR-8 on LR-14: `combat attack` by a table character with Armed Combat picks adds +1
/// per pick of the attack's action (`skill=FIELD` names the weapon skill, whose test
/// modifier then comes from the record, `+m` being the other modifiers; without it, the
/// one Armed Combat skill that has picks); a defender's parry takes its parry picks. The
/// notes say so.
fn armed_on_attack(
    table: &dyn TableView,
    state: &State,
    words: &mut Vec<String>,
) -> Result<Vec<Event>, Text> {
    if words.len() < 4 || words[1] != "attack" {
        return Ok(Vec::new());
    }
    let attacker = words[2].clone();
    let mut notes_ja = Vec::new();
    let mut notes_en = Vec::new();
    let skill_word = words
        .iter()
        .position(|w| w.starts_with("skill="))
        .map(|i| words.remove(i)["skill=".len()..].to_string());
    let mut extra = 0;
    if let Some(ch) = record(table, state, &attacker) {
        let s = state.status.get(&attacker).cloned().unwrap_or_default();
        // LR-14: the Ambidextrous edge takes away the two-weapon penalty.
        if words.iter().any(|w| w == "two-weapons")
            && ch
                .edges
                .iter()
                .any(|e| e.eq_ignore_ascii_case("Ambidextrous"))
            && !words.iter().any(|w| w == "ambi")
        {
            words.push("ambi".into());
        }
        let skill = match &skill_word {
            Some(w) => Some(armed_skill(&ch, w).ok_or_else(|| {
                Text::new(
                    format!("LR-8: {attacker}に Armed Combat の技能「{w}」はありません"),
                    format!("LR-8: {attacker} has no Armed Combat skill '{w}'"),
                )
            })?),
            None => None,
        };
        let action = words[4..]
            .iter()
            .find_map(|w| match w.as_str() {
                "blunt" | "blunt-head" => Some("blunt"),
                a if ARMED_ACTIONS.contains(&a) => Some(a),
                a if a.starts_with("charge=") => Some("charge"),
                _ => None,
            })
            .unwrap_or("basic")
            .to_string();
        if let Some(k) = &skill {
            let m = ch.skill_modifier(k, None).unwrap_or(0);
            extra += m;
            notes_ja.push(format!("{attacker}の{k}（判定{m:+}）"));
            notes_en.push(format!("{attacker}'s {k} (test {m:+})"));
        }
        let bonus = armed_bonus(&s, skill.as_deref(), &action);
        if bonus > 0 {
            extra += bonus;
            notes_ja.push(format!("{attacker}の {action} の強化 +{bonus}"));
            notes_en.push(format!("{attacker}'s pick on {action} +{bonus}"));
        }
    } else if skill_word.is_some() {
        return Err(Text::new(
            format!("LR-8: skill= はテーブルのキャラクターだけです（{attacker}には修正を +数 で）"),
            format!("LR-8: skill= is for table characters (give {attacker}'s modifier as +N)"),
        ));
    }
    if extra != 0 {
        let signed_number = |w: &str| {
            (w.starts_with('+') || w.starts_with('-'))
                .then(|| w.trim_start_matches('+').parse::<i64>().ok())
                .flatten()
        };
        let given: i64 = words[4..]
            .iter()
            .rev()
            .find_map(|w| signed_number(w))
            .unwrap_or(0);
        let mut kept: Vec<String> = words[..4].to_vec();
        kept.extend(
            words[4..]
                .iter()
                .filter(|w| signed_number(w).is_none())
                .cloned(),
        );
        kept.push(format!("{:+}", given + extra));
        *words = kept;
    }
    // The defenders' parry: LR-14 「Parry/block: weapon-skill test」 — a table character's
    // parry reads its Armed Combat skill from the record (`:parry=SKILL` names it; a bare
    // `:parry` takes its best Armed Combat skill, our reading), plus its parry picks (LR-8).
    let mut targets: Vec<String> = Vec::new();
    for t in words[3].split(',') {
        let Some((who, m)) = t.split_once(":parry") else {
            targets.push(t.to_string());
            continue;
        };
        let Some(ch) = record(table, state, who) else {
            if let Some(w) = m.strip_prefix('=') {
                return Err(Text::new(
                    format!(
                        "LR-14: :parry={w} はテーブルのキャラクターだけです（{who}には修正を :parry+数 で）"
                    ),
                    format!(
                        "LR-14: :parry={w} is for table characters (give {who}'s modifier as :parry+N)"
                    ),
                ));
            }
            targets.push(t.to_string());
            continue;
        };
        let bonus = armed_bonus(
            &state.status.get(who).cloned().unwrap_or_default(),
            None,
            "parry",
        );
        let (base, spec) = if let Some(w) = m.strip_prefix('=') {
            let k = armed_skill(&ch, w).ok_or_else(|| {
                Text::new(
                    format!("LR-8: {who}に Armed Combat の技能「{w}」はありません"),
                    format!("LR-8: {who} has no Armed Combat skill '{w}'"),
                )
            })?;
            let v = ch.skill_modifier(&k, None).unwrap_or(0);
            notes_ja.push(format!("{who}の受けは{k}（判定{v:+}）"));
            notes_en.push(format!("{who} parries with {k} (test {v:+})"));
            (v, "")
        } else {
            let (num, spec) = match m.strip_suffix('s') {
                Some(n) => (n, "s"),
                None => (m, ""),
            };
            if num.is_empty() {
                let best = ch
                    .skills
                    .iter()
                    .filter(|(k, sk)| k.starts_with("Armed Combat") && sk.ranks > 0)
                    .filter_map(|(k, _)| ch.skill_modifier(k, None).map(|v| (v, k.clone())))
                    .max_by_key(|(v, _)| *v);
                match best {
                    Some((v, k)) => {
                        notes_ja.push(format!("{who}の受けは{k}（判定{v:+}）"));
                        notes_en.push(format!("{who} parries with {k} (test {v:+})"));
                        (v, spec)
                    }
                    None => (0, spec),
                }
            } else {
                (
                    num.trim_start_matches('+').parse::<i64>().unwrap_or(0),
                    spec,
                )
            }
        };
        if bonus > 0 {
            notes_ja.push(format!("{who}の parry の強化 +{bonus}"));
            notes_en.push(format!("{who}'s pick on parry +{bonus}"));
        }
        if bonus == 0 && !m.is_empty() && !m.starts_with('=') && m != "s" {
            targets.push(t.to_string());
        } else {
            targets.push(format!("{who}:parry{:+}{spec}", base + bonus));
        }
    }
    words[3] = targets.join(",");
    if notes_ja.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![Event::Note {
        ja: format!("LR-8 Armed Combat: {}", notes_ja.join("、")),
        en: format!("LR-8 Armed Combat: {}", notes_en.join(", ")),
    }])
}

/// What combat changes in the rest of the rules: a new round starts the Courage round
/// (LR-6, LR-14), and damage dealt to a table character is its damage (LR-4, LR-14).
/// Fighters who are not table characters (orcs) keep no Health (LR-4: unimportant
/// characters may skip it).
fn combat_follows(
    table: &dyn TableView,
    state: &State,
    events: &[super::table::SubEvent],
) -> Vec<Event> {
    use super::combat::Event as C;
    use super::table::SubEvent;
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, (Character, Status)> = BTreeMap::new();
    let mut hurt = |target: &str, amount: i64, out: &mut Vec<Event>| {
        if amount <= 0 {
            return;
        }
        let (ch, s) = match seen.get(target) {
            Some(x) => x.clone(),
            None => match load(table, state, target) {
                Ok((ch, s, imported)) => {
                    out.extend(imported);
                    (ch, s)
                }
                Err(_) => return,
            },
        };
        let delta = Delta {
            damage: amount,
            ..Delta::default()
        };
        let mut after = s.clone();
        apply(&mut after, &delta, state.settings.exhausted() as i64);
        out.push(status_event(
            &state.settings,
            target,
            &ch,
            &s,
            delta,
            (
                format!("戦闘で{amount}点のダメージ（LR-14）"),
                format!("{amount} damage in combat (LR-14)"),
            ),
        ));
        seen.insert(target.to_string(), (ch, after));
    };
    for e in events {
        match e {
            SubEvent::Combat(C::Round { .. }) => out.push(Event::Round),
            SubEvent::Combat(C::Initiative { .. }) if state.sub.combat.round == 0 => {
                out.push(Event::Round);
            }
            SubEvent::Combat(C::Attacked { strikes, .. }) => {
                for s in strikes {
                    if let Some((_, amount)) = &s.damage
                        && s.hit
                    {
                        hurt(&s.target, *amount, &mut out);
                    }
                }
            }
            SubEvent::Combat(C::Squeezed {
                target,
                damage: Some((_, amount)),
                ..
            }) => hurt(target, *amount, &mut out),
            _ => {}
        }
    }
    out
}

/// LR-16 「サイズが 0 になった時点で部隊は消滅する」, LR-17 「Structure が 0 になると破壊
/// される」: the line whose hit does it says so.
fn destroyed(state: &State, events: &[super::table::SubEvent]) -> Vec<Event> {
    let mut after = state.sub.clone();
    for e in events {
        super::table::fold(&mut after, e);
    }
    let mut out = Vec::new();
    for (name, u) in &state.sub.battle.units {
        if u.size > 0 && after.battle.units.get(name).is_some_and(|a| a.size <= 0) {
            out.push(Event::Note {
                ja: format!("LR-16: 部隊「{name}」はサイズ0になり消滅した"),
                en: format!("LR-16: unit '{name}' is at Size 0: destroyed"),
            });
        }
    }
    for (name, h) in &state.sub.battle.strongholds {
        if h.structure > 0
            && after
                .battle
                .strongholds
                .get(name)
                .is_some_and(|a| a.structure <= 0)
        {
            out.push(Event::Note {
                ja: format!("LR-17: 拠点「{name}」は Structure 0 になり破壊された"),
                en: format!("LR-17: stronghold '{name}' is at Structure 0: destroyed"),
            });
        }
    }
    out
}

/// LR-7: 「キャラクターはNPCとなり」 — once Corruption reached Bearing the character is the
/// GM's: its player may no longer act for it.
fn npc_is_the_gms(table: &dyn TableView, name: &str, s: &Status) -> Result<(), Text> {
    if s.npc && !table.actor_is_gm() {
        return Err(Text::new(
            format!("LR-7: {name}は堕落して敵に仕えるNPCになりました。動かせるのはGMだけです"),
            format!("LR-7: {name} became an NPC serving the enemy; only the GM acts for it"),
        ));
    }
    Ok(())
}

/// LR-12: a character's record for advancement, from its sheet: attributes (their maxima
/// taken as 12 or the value, as the sheet does not keep racial modifiers), skills with
/// their specialisations, edges, and its order, advancing.
fn progress(ch: &Character, settings: &Settings) -> super::advance::Progress {
    let mut p = super::advance::Progress::default();
    // LR-12: the order's skills are those its ranks bought (a sheet says which); a
    // character without that record counts every skill it has that is not a language.
    // Native Language and Lore skills are the race skills picks buy.
    let mut order_skills: std::collections::BTreeSet<String> = if ch.order_skills.is_empty() {
        ch.skills
            .keys()
            .filter(|k| !settings.is_language(k))
            .cloned()
            .collect()
    } else {
        ch.order_skills.iter().cloned().collect()
    };
    // The order's own skill list (EXAMPLE data) besides the ranks the sheet bought.
    if let Some(o) = super::sheet::Data::example().orders.get(&ch.order) {
        order_skills.extend(o.skills.iter().cloned());
    }
    p.native = ch
        .skills
        .keys()
        .filter(|k| settings.is_language(k))
        .cloned()
        .collect();
    p.favoured = ch.favoured.iter().cloned().collect();
    p.favoured_reaction = ch.favoured_reaction.clone();
    p.race = ch.race.clone();
    if !ch.order.is_empty() {
        p.order_skills.insert(ch.order.clone(), order_skills);
    }
    for (i, name) in super::character::ATTRIBUTES.iter().enumerate() {
        let value = ch.attributes[i];
        p.attributes
            .insert(name.to_string(), (value, value.max(12)));
    }
    for (skill, s) in &ch.skills {
        p.skills.insert(skill.clone(), s.ranks);
        for field in &s.specialisations {
            p.specialisations.insert((skill.clone(), field.clone()));
        }
    }
    p.edges = ch.edges.iter().cloned().collect();
    // LR-12: an order ability the record has (its one from creation) is not bought again.
    for a in &ch.abilities {
        p.abilities.insert((ch.order.clone(), a.clone()));
    }
    if !ch.order.is_empty() {
        p.orders.insert(ch.order.clone(), 0);
        p.advancing.push(ch.order.clone());
    }
    p
}

fn unknown() -> Text {
    usage(
        "/lotr create|damage|heal|poison|fall|fire|drown|weary|recover|courage|corruption|recognise|renown|armed 名前 …、/lotr travel、/lotr round、/lotr settings（/help を参照）",
        "/lotr create|damage|heal|poison|fall|fire|drown|weary|recover|courage|corruption|recognise|renown|armed NAME …, /lotr travel, /lotr round, /lotr settings (see /help)",
    )
}

/// LR-4: `/lotr heal`'s forms.
fn heal_usage() -> Text {
    usage(
        "/lotr heal 名前 skill [by=治療者]|week [ok]|rest 日数|attended 日数 by=治療者|attended 日数 ok|facility|infection by=医者 [tn=目標値]|infection clear|点数",
        "/lotr heal NAME skill [by=HEALER]|week [ok]|rest DAYS|attended DAYS by=HEALER|attended DAYS ok|facility|infection by=DOCTOR [tn=TN]|infection clear|POINTS",
    )
}

/// LR-4: damage.
fn damage(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-4", ("ダメージ", "deal damage"))?;
    let [n] = rest else {
        return Err(usage("/lotr damage 名前 点数", "/lotr damage NAME POINTS"));
    };
    let n = number(n)?;
    if n <= 0 {
        return Err(Text::new(
            "LR-4: ダメージは1以上（回復は /lotr heal）",
            "LR-4: damage is at least 1 (healing: /lotr heal)",
        ));
    }
    Ok(vec![status_event(
        &state.settings,
        name,
        ch,
        s,
        Delta {
            damage: n,
            ..Delta::default()
        },
        (format!("ダメージ+{n}"), format!("damage +{n}")),
    )])
}

/// LR-4: natural healing, the Healing skill, facilities and attendance.
fn heal(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-4", ("治療", "heal"))?;
    let h = ch.health();
    let level = ch.body().level(s.damage, state.settings.hobbit_death);
    let days = |w: &str| -> Result<i64, Text> {
        let d = number(w)?;
        if !(0..=1000).contains(&d) {
            return Err(Text::new(
                format!("LR-4: 日数は0〜1000です（{d}は不可）"),
                format!("LR-4: days are 0 to 1000 (not {d})"),
            ));
        }
        Ok(d)
    };
    // LR-4: healing heals damage: with none taken there is nothing to test for.
    if s.damage == 0 && matches!(rest.first(), Some(&"week" | &"skill" | &"attended")) {
        return Err(Text::new(
            format!("LR-4: {name}はダメージを受けていません（治すものがありません）"),
            format!("LR-4: {name} has taken no damage (nothing to heal)"),
        ));
    }
    let (healed, what): (i64, (String, String)) = match rest {
        // LR-4: 「1週間に1回Stamina判定を行う. このときの目標値は負傷段階によって決まる
        // (Table 9.36)…判定に成功すると,VIT修正値(最低1)点追加で回復する」, rolled.
        ["week", ..] if s.infection.as_deref() == Some("none") => (
            0,
            (
                "感染した傷はまったく回復しない（LR-4 医術）".into(),
                "the infected wound does not heal at all (LR-4)".into(),
            ),
        ),
        ["week"] | ["week", "roll"] => {
            let tn = state.settings.stamina_tns[level.index().min(5)];
            let p = tested_penalty(state, name, ch, s);
            let (_, d, text) = test(dice, ch.reaction(0), tn, p)?;
            let n = if d.is_success() {
                character::weekly_healing(ch.attributes[VIT])
            } else {
                0
            };
            (
                n,
                (
                    format!("週のStamina判定（{}、目標値{tn}）{text}", level.name()),
                    format!("weekly Stamina test ({}, TN {tn}) {text}", level.name()),
                ),
            )
        }
        // LR-4: 「手当て(Healing)技能を用いた判定に成功すれば, その負傷段階のHealth + 1点分
        // までHealthを回復する…手当ての目標値は負傷段階によって決まる(Table 9.37)」: the
        // healer's Healing test (its record's, untrained −2 without one).
        ["skill", by] if by.starts_with("by=") => {
            let healer = &by[3..];
            let Some(hc) = record(table, state, healer) else {
                return Err(no_character(healer));
            };
            // LR-4/LR-5: a dead or unconscious healer treats nobody.
            able(
                state,
                healer,
                &hc,
                &state.status.get(healer).cloned().unwrap_or_default(),
            )?;
            let modifier = reference(&hc, "Healing").unwrap_or(0);
            let tn = state.settings.healing_tns[level.index().min(5)];
            let hs = state.status.get(healer).cloned().unwrap_or_default();
            let p = tested_penalty(state, healer, &hc, &hs);
            let (_, d, text) = test(dice, modifier, tn, p)?;
            let to = character::healing_result(s.damage, h);
            (
                if d.is_success() { s.damage - to } else { 0 },
                (
                    format!(
                        "{healer}のHealing判定（{}、目標値{tn}）{text}{}",
                        level.name(),
                        if d.is_success() {
                            ": 負傷段階の始まり−1へ（週の回復判定2回）"
                        } else {
                            ""
                        }
                    ),
                    format!(
                        "{healer}'s Healing test ({}, TN {tn}) {text}{}",
                        level.name(),
                        if d.is_success() {
                            ": one below the level's start (two weekly healing tests)"
                        } else {
                            ""
                        }
                    ),
                ),
            )
        }
        ["skill"] => {
            let to = character::healing_result(s.damage, h);
            (
                s.damage - to,
                (
                    "Healing成功: 負傷段階の始まり−1へ（週の回復判定2回）".into(),
                    "Healing success: one below the level's start (two weekly healing tests)"
                        .into(),
                ),
            )
        }
        // LR-4 医術: 「医者は Healing 判定を行い,傷が自然に1日回復するか, 1週間回復するか,
        // あるいはまったく回復しないかを決定する」 — the doctor's test sets how the
        // infected wound heals (the mapping from its degree is the GM's table).
        ["infection", "clear"] => {
            return Ok(vec![status_event(
                &state.settings,
                name,
                ch,
                s,
                Delta {
                    infection: Some("clear".into()),
                    ..Delta::default()
                },
                (
                    "感染が治まった（LR-4 医術）".into(),
                    "the infection is over (LR-4)".into(),
                ),
            )]);
        }
        ["infection", by, more @ ..] if by.starts_with("by=") && more.len() <= 1 => {
            let doctor = &by[3..];
            let Some(dc) = record(table, state, doctor) else {
                return Err(no_character(doctor));
            };
            // LR-4/LR-5: a dead or unconscious doctor treats nobody.
            able(
                state,
                doctor,
                &dc,
                &state.status.get(doctor).cloned().unwrap_or_default(),
            )?;
            let tn = match more.first() {
                Some(t) => match t.strip_prefix("tn=") {
                    Some(n) => number(n)?,
                    None => {
                        return Err(usage(
                            "/lotr heal 名前 infection by=医者 [tn=目標値] | infection clear",
                            "/lotr heal NAME infection by=DOCTOR [tn=TN] | infection clear",
                        ));
                    }
                },
                None => state.settings.healing_tns[level.index().min(5)],
            };
            let modifier = reference(&dc, "Healing").unwrap_or(0);
            let ds = state.status.get(doctor).cloned().unwrap_or_default();
            let p = tested_penalty(state, doctor, &dc, &ds);
            let (_, d, text) = test(dice, modifier, tn, p)?;
            let rate = state.settings.infection_rate(d).to_string();
            let (rj, re) = rate_words(&rate);
            return Ok(vec![status_event(
                &state.settings,
                name,
                ch,
                s,
                Delta {
                    infection: Some(rate),
                    ..Delta::default()
                },
                (
                    format!("感染（医術）: {doctor}のHealing判定（目標値{tn}）{text} → 傷は{rj}"),
                    format!(
                        "infection: {doctor}'s Healing test (TN {tn}) {text} → the wound heals {re}"
                    ),
                ),
            )]);
        }
        ["rest", w] => {
            let d = days(w)?;
            let n = infected_rest(s, d);
            (
                n,
                (
                    format!("{d}日の安静{}", infected_note(s).0),
                    format!("{d} days' rest{}", infected_note(s).1),
                ),
            )
        }
        // LR-4 「医者が付きっ切りで手当てをする場合, 毎日 Healing 判定を行って倍の速度で
        // 負傷が回復するかどうかを決定する」: a Healing test a day; a success doubles
        // that day's point.
        ["attended", w, by] if by.starts_with("by=") => {
            let d = days(w)?;
            if d > 100 {
                return Err(Text::new(
                    format!("LR-4: 付きっきりの治療は一度に100日までです（{d}日は不可）"),
                    format!(
                        "LR-4: constant attendance is rolled 100 days at a time at most (not {d})"
                    ),
                ));
            }
            let healer = &by[3..];
            let Some(hc) = record(table, state, healer) else {
                return Err(no_character(healer));
            };
            // LR-4/LR-5: a dead or unconscious healer treats nobody.
            able(
                state,
                healer,
                &hc,
                &state.status.get(healer).cloned().unwrap_or_default(),
            )?;
            let modifier = reference(&hc, "Healing").unwrap_or(0);
            let tn = state.settings.healing_tns[level.index().min(5)];
            let hs = state.status.get(healer).cloned().unwrap_or_default();
            let p = tested_penalty(state, healer, &hc, &hs);
            // Each day's roll is shown, its TN with the healer's conditions (lotr7 F8),
            // as every other test is.
            let mut successes = 0;
            let mut rolls = Vec::new();
            for day in 1..=d.min(100) {
                let (_, deg, text) = test(dice, modifier, tn, p)?;
                if deg.is_success() {
                    successes += 1;
                }
                rolls.push((day, text));
            }
            let days_text = |ja: bool| {
                rolls
                    .iter()
                    .map(|(day, text)| {
                        if ja {
                            format!("{day}日目 {text}")
                        } else {
                            format!("day {day}: {text}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(if ja { "、" } else { ", " })
            };
            let tn_shown = if p == 0 {
                tn.to_string()
            } else {
                format!("{tn}{:+}={}", -p, tn - p)
            };
            let per_day = infected_rest(s, 1).min(1);
            let n = infected_rest(s, d) + successes * per_day;
            (
                n,
                (
                    format!(
                        "{healer}の付きっきりの治療{d}日: Healing判定（目標値{tn_shown}）{}、成功{successes}日は2点{}",
                        days_text(true),
                        infected_note(s).0
                    ),
                    format!(
                        "{d} days under {healer}'s constant attendance: Healing tests (TN {tn_shown}) {}; succeeded on {successes} days, 2 points each{}",
                        days_text(false),
                        infected_note(s).1
                    ),
                ),
            )
        }
        ["attended", w, "ok"] => {
            let d = days(w)?;
            (
                2 * infected_rest(s, d),
                (
                    format!("付きっきりの治療で{d}日（1日2点）{}", infected_note(s).0),
                    format!(
                        "{d} days under constant attendance (2 a day){}",
                        infected_note(s).1
                    ),
                ),
            )
        }
        ["week", "ok"] => {
            let n = character::weekly_healing(ch.attributes[VIT]);
            (
                n,
                (
                    format!("週のStamina判定に成功（GMが判定）: VIT修正（最低1）= {n}"),
                    format!(
                        "weekly Stamina test succeeded (the GM's roll): VIT mod (at least 1) = {n}"
                    ),
                ),
            )
        }
        ["facility"] => (
            h,
            (
                format!("高度な施設でHealing成功: Health {h}点"),
                format!("Healing success at advanced facilities: Health {h}"),
            ),
        ),
        // A word that is no form and no number is refused with the forms (lotr7 F10).
        [n] => {
            let n = number(n).map_err(|e| e.then(" ", &heal_usage()))?.max(0);
            (n, (format!("{n}点回復"), format!("{n} healed")))
        }
        _ => return Err(heal_usage()),
    };
    let healed = healed.min(s.damage);
    Ok(vec![status_event(
        &state.settings,
        name,
        ch,
        s,
        Delta {
            damage: -healed,
            ..Delta::default()
        },
        (
            format!("{}、−{healed}", what.0),
            format!("{}, −{healed}", what.1),
        ),
    )])
}

/// LR-4 医術: an infection rate in words.
fn rate_words(rate: &str) -> (&'static str, &'static str) {
    match rate {
        "week" => ("1週間に1点回復する", "a point a week"),
        "none" => ("まったく回復しない", "not at all"),
        _ => ("1日に1点回復する（通常どおり）", "a point a day (as usual)"),
    }
}

/// LR-4 医術: the points `days` of rest heal an infected wound at its rate (a week's
/// point rounded half up, LR-0), or the usual one a day.
fn infected_rest(s: &Status, days: i64) -> i64 {
    match s.infection.as_deref() {
        Some("week") => character::div_half_up(days, 7),
        Some("none") => 0,
        _ => days,
    }
}

fn infected_note(s: &Status) -> (String, String) {
    match s.infection.as_deref() {
        Some(rate @ ("week" | "none")) => {
            let (ja, en) = rate_words(rate);
            (
                format!("（感染: {ja}。LR-4 医術）"),
                format!(" (infected: heals {en}; LR-4)"),
            )
        }
        _ => (String::new(), String::new()),
    }
}

/// LR-8: the combat actions an Armed Combat pick may favour (the attack options and the
/// parry; 「特定の戦闘行動(防御攻撃,なぎ払いなど)」).
pub const ARMED_ACTIONS: &[&str] = &[
    "basic",
    "blunt",
    "defensive",
    "power",
    "precise",
    "two-handed",
    "two-weapons",
    "sweep",
    "charge",
    "parry",
];

/// LR-8: the record's Armed Combat skill `word` names (`Swords`, `Armed_Combat:_Swords`,
/// `Armed Combat: Swords`).
pub(super) fn armed_skill(ch: &Character, word: &str) -> Option<String> {
    let word = word.replace('_', " ");
    ch.skills
        .keys()
        .filter(|k| k.starts_with("Armed Combat"))
        .find(|k| {
            *k == &word
                || k.split_once(':')
                    .is_some_and(|(_, f)| f.trim().eq_ignore_ascii_case(word.trim()))
        })
        .cloned()
}

/// LR-8 「Armed Combat では,スキルが6ランク,9ランク,12ランクに達したときに, 特定の戦闘行動
/// (防御攻撃,なぎ払いなど)を1つ選び, その行動に関してだけ+1のボーナスを得る. 複数回同じものを
/// 強化してもよい」: `/lotr armed NAME SKILL ACTION` takes one of the picks the skill's
/// ranks have reached (owner or GM).
fn armed_pick(
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
) -> Result<Vec<Event>, Text> {
    let _ = state;
    let [skill, action] = rest else {
        return Err(usage(
            &format!(
                "/lotr armed 名前 技能 行動（例: /lotr armed {name} Swords sweep。行動: {}）",
                ARMED_ACTIONS.join(" ")
            ),
            &format!(
                "/lotr armed NAME SKILL ACTION (e.g. /lotr armed {name} Swords sweep; actions: {})",
                ARMED_ACTIONS.join(" ")
            ),
        ));
    };
    let Some(skill) = armed_skill(ch, skill) else {
        return Err(Text::new(
            format!("LR-8: {name}に Armed Combat の技能「{skill}」はありません"),
            format!("LR-8: {name} has no Armed Combat skill '{skill}'"),
        ));
    };
    if !ARMED_ACTIONS.contains(action) {
        return Err(Text::new(
            format!(
                "LR-8: 戦闘行動「{action}」はありません（{}）",
                ARMED_ACTIONS.join(" ")
            ),
            format!(
                "LR-8: no combat action '{action}' ({})",
                ARMED_ACTIONS.join(" ")
            ),
        ));
    }
    let ranks = ch.skills.get(&skill).map_or(0, |k| k.ranks);
    let reached = [6, 9, 12].iter().filter(|r| ranks >= **r).count();
    let taken = s.armed_picks.iter().filter(|(k, _)| *k == skill).count();
    if taken >= reached {
        return Err(Text::new(
            format!(
                "LR-8: {skill} {ranks}ランクで選べる戦闘行動は{reached}つ（6・9・12ランクで1つずつ）、選択済み{taken}つです"
            ),
            format!(
                "LR-8: {skill} at {ranks} ranks gives {reached} picks (one at 6, 9 and 12 ranks); {taken} taken"
            ),
        ));
    }
    let same = s
        .armed_picks
        .iter()
        .filter(|(k, a)| *k == skill && a == action)
        .count() as i64
        + 1;
    Ok(vec![changed(
        name,
        Delta {
            armed_pick: Some((skill.clone(), action.to_string())),
            ..Delta::default()
        },
        format!("{name}: {skill}（{ranks}ランク）で {action} を強化: その行動に+{same}（LR-8）"),
        format!("{name}: {skill} ({ranks} ranks) favours {action}: +{same} on it (LR-8)"),
    )])
}

/// LR-8: the picks' bonus on `action` with `skill` (all its Armed Combat skills when None
/// and only one has picks).
pub fn armed_bonus(s: &Status, skill: Option<&str>, action: &str) -> i64 {
    let skills: std::collections::BTreeSet<&str> =
        s.armed_picks.iter().map(|(k, _)| k.as_str()).collect();
    let skill = match skill {
        Some(k) => k,
        None if skills.len() == 1 => skills.iter().next().copied().unwrap_or_default(),
        None => return 0,
    };
    s.armed_picks
        .iter()
        .filter(|(k, a)| k == skill && a == action)
        .count() as i64
}

/// LR-4 (Table 9.35): poison.
fn poison(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-4", ("毒", "poison"))?;
    let stamina = ch.reaction(0);
    match rest {
        ["next", which @ ..] if which.len() <= 1 => {
            let i = match which.first() {
                Some(w) => s.poisons.iter().position(|p| p.name == *w),
                None => s.poisons.iter().position(|p| p.stages_left > 0),
            };
            let Some(i) = i.filter(|i| s.poisons[*i].stages_left > 0) else {
                return Err(Text::new(
                    format!("LR-4: {name}に段階の残った毒はありません"),
                    format!("LR-4: {name} has no poison with stages left"),
                ));
            };
            let p = &s.poisons[i];
            let effect = if p.resisted {
                ("二次効果（Secondary）", "Secondary effect")
            } else {
                ("一次効果（Primary）", "Primary effect")
            };
            Ok(vec![changed(
                name,
                Delta {
                    poison_stage: Some(i),
                    ..Delta::default()
                },
                format!(
                    "{name}: 毒「{}」の段階: 最初の判定の結果で{}（残り{}段階）",
                    p.name,
                    effect.0,
                    p.stages_left - 1
                ),
                format!(
                    "{name}: poison '{}' stage: by the first test, {} ({} stages left)",
                    p.name,
                    effect.1,
                    p.stages_left - 1
                ),
            )])
        }
        // LR-4 (Table 9.35): 「毒を中和する際の Healing 判定には, もし毒の正体を知らない場合
        // は,そのための Healing 判定(GMが設定)に成功した上で 目標値 10 + Treatment 修正の
        // Healing 判定を行う」: `identify=TN` when the poison is unknown; success ends its
        // stages. (「一部の毒には,Healing は無効である」: the GM does not call it then.)
        ["treat", by, treatment, more @ ..] if by.starts_with("by=") && more.len() <= 1 => {
            let healer = &by[3..];
            let Some(hc) = record(table, state, healer) else {
                return Err(no_character(healer));
            };
            // LR-4/LR-5: a dead or unconscious healer treats nobody.
            able(
                state,
                healer,
                &hc,
                &state.status.get(healer).cloned().unwrap_or_default(),
            )?;
            let treatment = number(treatment)?;
            let identify = match more.first() {
                None => None,
                Some(w) => match w.strip_prefix("identify=") {
                    Some(n) => Some(number(n)?),
                    None => {
                        return Err(usage(
                            "/lotr poison 名前 treat by=治療者 Treatment修正 [identify=目標値]",
                            "/lotr poison NAME treat by=HEALER TREATMENT [identify=TN]",
                        ));
                    }
                },
            };
            let Some(i) = s.poisons.iter().rposition(|p| p.stages_left > 0) else {
                return Err(Text::new(
                    format!("LR-4: {name}に段階の残った毒はありません"),
                    format!("LR-4: {name} has no poison with stages left"),
                ));
            };
            let modifier = reference(&hc, "Healing").unwrap_or(0);
            let hs = state.status.get(healer).cloned().unwrap_or_default();
            let hp = tested_penalty(state, healer, &hc, &hs);
            let mut ja = format!("{name}: {healer}が毒「{}」を治療", s.poisons[i].name);
            let mut en = format!("{name}: {healer} treats the poison '{}'", s.poisons[i].name);
            if let Some(tn) = identify {
                let (_, d, text) = test(dice, modifier, tn, hp)?;
                ja += &format!("。特定のHealing判定（目標値{tn}）{text}");
                en += &format!("; identifying Healing test (TN {tn}) {text}");
                if !d.is_success() {
                    ja += ": 毒の正体がわからない";
                    en += ": the poison is not identified";
                    return Ok(vec![changed(name, Delta::default(), ja, en)]);
                }
            }
            let tn = 10 + treatment;
            let (_, d, text) = test(dice, modifier, tn, hp)?;
            let cured = d.is_success();
            ja += &format!(
                "。中和のHealing判定（目標値10+{treatment}）{text}{}",
                if cured {
                    ": 中和した（残りの段階なし）"
                } else {
                    ": 中和できない"
                }
            );
            en += &format!(
                "; neutralising Healing test (TN 10 + {treatment}) {text}{}",
                if cured {
                    ": neutralised (no stages left)"
                } else {
                    ": not neutralised"
                }
            );
            Ok(vec![changed(
                name,
                Delta {
                    poison_cured: cured.then_some(i),
                    ..Delta::default()
                },
                ja,
                en,
            )])
        }
        [potency, stages, label @ ..] if label.len() <= 1 => {
            let potency = number(potency)?;
            let Some(st) = Stages::parse(stages) else {
                return Err(usage(
                    "/lotr poison 名前 強さ 1|1/2d6|1d6|2d6 [毒の名]",
                    "/lotr poison NAME POTENCY 1|1/2d6|1d6|2d6 [POISON]",
                ));
            };
            let rolled: Vec<i64> = dice
                .roll_group(st.dice(), 6)
                .map_err(|e| e.text())?
                .iter()
                .copied()
                .collect();
            let count = st.count(&rolled);
            let shown = format!(
                "[{}]",
                rolled
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let tn = POISON_BASE_TN + potency;
            let p = tested_penalty(state, name, ch, s);
            let (_, d, text) = test(dice, stamina, tn, p)?;
            let resisted = d.is_success();
            let poison_name = label.first().map_or("毒".to_string(), |l| l.to_string());
            let effect = if resisted {
                ("二次効果（Secondary）", "Secondary effect")
            } else {
                ("一次効果（Primary）", "Primary effect")
            };
            Ok(vec![changed(
                name,
                Delta {
                    poison: Some(Poison {
                        name: poison_name.clone(),
                        potency,
                        stages_left: count - 1,
                        resisted,
                    }),
                    ..Delta::default()
                },
                format!(
                    "{name}: 毒「{poison_name}」（強さ{potency}、段階{stages} {shown} → {count}）Stamina判定 {text} → {}。以後の段階も同じ結果",
                    effect.0
                ),
                format!(
                    "{name}: poison '{poison_name}' (potency {potency}, stages {stages} {shown} → {count}) Stamina test {text} → {}; every later stage the same",
                    effect.1
                ),
            )])
        }
        _ => Err(usage(
            "/lotr poison 名前 強さ 1|1/2d6|1d6|2d6 [毒の名] | /lotr poison 名前 next | /lotr poison 名前 treat by=治療者 Treatment修正 [identify=目標値]",
            "/lotr poison NAME POTENCY 1|1/2d6|1d6|2d6 [POISON] | /lotr poison NAME next | /lotr poison NAME treat by=HEALER TREATMENT [identify=TN]",
        )),
    }
}

/// LR-5: weariness levels.
fn weary(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-5", ("疲労", "change weariness"))?;
    let [n] = rest else {
        return Err(usage("/lotr weary 名前 +1|-1", "/lotr weary NAME +1|-1"));
    };
    let n = number(n)?;
    let max = state.settings.exhausted() as i64;
    let to = (s.weariness + n).clamp(0, max);
    Ok(vec![status_event(
        &state.settings,
        name,
        ch,
        s,
        Delta {
            weariness: to - s.weariness,
            ..Delta::default()
        },
        (format!("疲労{n:+}"), format!("weariness {n:+}")),
    )])
}

/// LR-5 「疲労からの回復時間は,Table 9.39 の通りである」: MINUTES of rest lower the
/// weariness one level at a time, each level taking its time from the GM's table; the
/// time left over is not kept. Exhausted needs the recovery test, not rest.
fn weary_rest(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-5", ("疲労の回復", "let weariness recover"))?;
    let [m] = rest else {
        return Err(usage(
            "/lotr weary 名前 rest 分",
            "/lotr weary NAME rest MINUTES",
        ));
    };
    let minutes = number(m)?;
    if minutes < 0 {
        return Err(Text::new(
            format!("LR-5: 休息の時間は0分以上です（{minutes}は不可）"),
            format!("LR-5: rest lasts 0 minutes or more (not {minutes})"),
        ));
    }
    let exhausted = state.settings.exhausted() as i64;
    if s.weariness >= exhausted {
        return Err(Text::new(
            format!(
                "LR-5: {name}は{}です。休息ではなく回復判定（/lotr recover {name}）が必要です",
                state.settings.weariness_name(exhausted as usize)
            ),
            format!(
                "LR-5: {name} is {}; it needs the recovery test (/lotr recover {name}), not rest",
                state.settings.weariness_name(exhausted as usize)
            ),
        ));
    }
    let mut level = s.weariness;
    let mut left = minutes;
    while level > 0 {
        let need = state.settings.recovery_minutes(level as usize);
        if need > left {
            break;
        }
        left -= need;
        level -= 1;
    }
    let next = if level > 0 {
        let need = state.settings.recovery_minutes(level as usize);
        (
            format!("。次の段階まで{need}分（表9.39）",),
            format!("; {need} minutes to the next level (Table 9.39)"),
        )
    } else {
        (String::new(), String::new())
    };
    Ok(vec![status_event(
        &state.settings,
        name,
        ch,
        s,
        Delta {
            weariness: level - s.weariness,
            ..Delta::default()
        },
        (
            format!(
                "{minutes}分の休息で疲労{}段階回復{}",
                s.weariness - level,
                next.0
            ),
            format!(
                "{minutes} minutes' rest: {} weariness levels recovered{}",
                s.weariness - level,
                next.1
            ),
        ),
    )])
}

/// LR-5: the Exhausted recovery test: Stamina at −10 against TN 10, lowered by a
/// helper's Healing degree; an Extraordinary helper restores Spent at once.
fn recover(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    let exhausted = state.settings.exhausted() as i64;
    if s.weariness < exhausted {
        return Err(Text::new(
            format!(
                "LR-5: {name}は{}ではありません（回復判定は Exhausted から）",
                state.settings.weariness_name(exhausted as usize)
            ),
            format!(
                "LR-5: {name} is not {} (the recovery test is from Exhausted)",
                state.settings.weariness_name(exhausted as usize)
            ),
        ));
    }
    // LR-5 「この判定は、戦闘中は1ラウンドに1回」 (out of combat 「1分に1回、またGMが特別に
    // 許可したタイミング」: the GM keeps that count).
    let in_combat = state.sub.combat.round > 0;
    if in_combat && s.recovery_tested {
        return Err(Text::new(
            format!(
                "LR-5: {name}はこのラウンドもう回復判定をしました（戦闘中は1ラウンドに1回。次は /lotr combat next の後）"
            ),
            format!(
                "LR-5: {name} has made its recovery test this round (once a round in combat; next after /lotr combat next)"
            ),
        ));
    }
    // LR-5 「他のキャラクターは,目標値10のHealing判定を行うことで回復を助けることが
    // できる」: `helper=NAME` rolls the helper's Healing test against TN 10; a degree
    // typed by hand is the GM's (a test the GM rolled elsewhere).
    let mut helped: Option<(String, String)> = None;
    let helper = match rest {
        [] => None,
        [h] if h.starts_with("helper=") => {
            let who = &h["helper=".len()..];
            if who == name {
                return Err(Text::new(
                    format!("LR-5: 助け手は{name}以外のキャラクターです"),
                    format!("LR-5: the helper is a character other than {name}"),
                ));
            }
            let Some(hc) = record(table, state, who) else {
                return Err(no_character(who));
            };
            let hs = state.status.get(who).cloned().unwrap_or_default();
            able(state, who, &hc, &hs)?;
            let p = tested_penalty(state, who, &hc, &hs);
            let modifier = reference(&hc, "Healing").unwrap_or(0);
            let (_, d, text) = test(dice, modifier, EXHAUSTED_TN, p)?;
            helped = Some((
                format!("{who}のHealing判定（目標値{EXHAUSTED_TN}）{text}。"),
                format!("{who}'s Healing test (TN {EXHAUSTED_TN}) {text}; "),
            ));
            match d {
                Degree::MarginalSuccess => Some(3),
                Degree::CompleteSuccess => Some(5),
                Degree::SuperiorSuccess => Some(10),
                Degree::ExtraordinarySuccess => Some(i64::MAX),
                _ => None,
            }
        }
        [d] => match d.to_ascii_lowercase().as_str() {
            _ if !table.actor_is_gm() => {
                return Err(Text::new(
                    "LR-5: 助け手の成功度を書けるのはGMだけです。助け手の Healing 判定は /lotr recover 名前 helper=助け手 で振ります",
                    "LR-5: only the GM may type a helper's degree; roll the helper's Healing test with /lotr recover NAME helper=HELPER",
                ));
            }
            "marginal" => Some(3),
            "complete" => Some(5),
            "superior" => Some(10),
            "extraordinary" => Some(i64::MAX),
            _ => {
                return Err(usage(
                    "/lotr recover 名前 [helper=助け手 | marginal|complete|superior|extraordinary（GM）]",
                    "/lotr recover NAME [helper=HELPER | marginal|complete|superior|extraordinary (GM)]",
                ));
            }
        },
        _ => {
            return Err(usage(
                "/lotr recover 名前 [助け手の成功度]",
                "/lotr recover NAME [HELPER'S DEGREE]",
            ));
        }
    };
    let spent = (
        format!(
            "Spent（{}）に回復",
            state.settings.weariness_name((exhausted - 1) as usize)
        ),
        format!(
            "recovers to {}",
            state.settings.weariness_name((exhausted - 1) as usize)
        ),
    );
    let (hj, he) = helped.unwrap_or_default();
    if helper == Some(i64::MAX) {
        return Ok(vec![status_event(
            &state.settings,
            name,
            ch,
            s,
            Delta {
                weariness: -1,
                ..Delta::default()
            },
            (
                format!("{hj}助け手の Extraordinary Success: ただちに{}", spent.0),
                format!("{he}a helper's Extraordinary Success: at once {}", spent.1),
            ),
        )]);
    }
    let tn = EXHAUSTED_TN - helper.unwrap_or(0);
    // LR-5: 「目標値10のStamina判定 (Exhaustedによる-10の修正を受ける)」: the −10 is the
    // Exhausted penalty itself, so the weariness table's penalty is not added again; wounds
    // still count.
    let p = wound_penalty(&state.settings, ch, s) + combat_conditions(state, name).0;
    let (_, d, text) = test(dice, ch.reaction(0) + EXHAUSTED_PENALTY, tn, p)?;
    let delta = Delta {
        weariness: if d.is_success() { -1 } else { 0 },
        recovery_tested: in_combat,
        ..Delta::default()
    };
    Ok(vec![status_event(
        &state.settings,
        name,
        ch,
        s,
        delta,
        (
            format!(
                "{hj}回復判定（Stamina−10、目標値{tn}）{text} → {}",
                if d.is_success() {
                    &spent.0
                } else {
                    "回復せず"
                }
            ),
            format!(
                "{he}recovery test (Stamina −10, TN {tn}) {text} → {}",
                if d.is_success() {
                    &spent.1
                } else {
                    "no recovery"
                }
            ),
        ),
    )])
}

/// LR-6: spending Courage after seeing a roll.
fn courage(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
) -> Result<Vec<Event>, Text> {
    let left = ch.courage - s.courage_spent;
    let check = |n: i64| -> Result<(), Text> {
        if n > left {
            return Err(Text::new(
                format!("LR-6: {name}の勇気は残り{left}点です（{n}点は使えません）"),
                format!("LR-6: {name} has {left} Courage left ({n} cannot be spent)"),
            ));
        }
        if s.courage_round + n > COURAGE_PER_ROUND {
            return Err(Text::new(
                format!(
                    "LR-6: 勇気は1ラウンド{COURAGE_PER_ROUND}点まで（このラウンドは使用済み{}点）",
                    s.courage_round
                ),
                format!(
                    "LR-6: at most {COURAGE_PER_ROUND} Courage a round ({} spent this round)",
                    s.courage_round
                ),
            ));
        }
        Ok(())
    };
    let selfish = rest.contains(&"selfish");
    let rest: Vec<&str> = rest.iter().copied().filter(|w| *w != "selfish").collect();
    // LR-5 「Exhausted になったキャラクターはただちに意識不明になる」: the unconscious
    // make no test, so spend no Courage on one (nor on an impossible one); the GM's
    // Courage for weariness (below) is how Courage helps them wake.
    if rest.as_slice() != ["weariness"] {
        awake(state, name, s)?;
    }
    // LR-6: heroic spending comes back at the scene's end, or at once (the GM's choice,
    // `courage_return = at_once`); selfish spending never at once.
    let at_once = state.settings.courage_at_once && !selfish;
    let cost = |n: i64| if at_once { 0 } else { n };
    let (at_once_ja, at_once_en) = if at_once {
        (
            "（courage_return = at_once: すぐに戻る）",
            " (courage_return = at_once: back at once)",
        )
    } else {
        ("", "")
    };
    match rest.as_slice() {
        ["impossible"] => {
            check(1)?;
            Ok(vec![changed(
                name,
                Delta {
                    courage: 1,
                    selfish: i64::from(selfish),
                    back_at_once: at_once,
                    ..Delta::default()
                },
                format!(
                    "{name}: 勇気1点で本来不可能な判定に挑む（修正なし）。残り{}{}",
                    left - cost(1),
                    at_once_ja
                ),
                format!(
                    "{name}: 1 Courage to attempt an impossible test (no bonus); {} left{}",
                    left - cost(1),
                    at_once_en
                ),
            )])
        }
        ["weariness"] => {
            gm_only(
                table,
                "LR-5",
                (
                    "勇気による疲労回復（GMの許可）",
                    "allow Courage to recover weariness",
                ),
            )?;
            if s.weariness == 0 {
                return Err(Text::new(
                    format!("LR-5: {name}は疲労していないので、勇気で回復するものがありません"),
                    format!("LR-5: {name} is not weary: Courage has nothing to recover"),
                ));
            }
            check(1)?;
            let to = (s.weariness - 2).max(0);
            Ok(vec![status_event(
                &state.settings,
                name,
                ch,
                s,
                Delta {
                    courage: 1,
                    selfish: i64::from(selfish),
                    weariness: to - s.weariness,
                    ..Delta::default()
                },
                (
                    format!("勇気1点で疲労2段階回復。勇気残り{}", left - 1),
                    format!(
                        "1 Courage recovers two weariness levels; {} Courage left",
                        left - 1
                    ),
                ),
            )])
        }
        [n, skill @ ..] if skill.len() <= 1 => {
            let n = number(n)?;
            if n < 1 {
                return Err(Text::new(
                    "LR-6: 勇気は1点以上使います",
                    "LR-6: spend at least 1 Courage point",
                ));
            }
            check(n)?;
            // LR-6: the test the points go on is the character's last one; its skill
            // (from its `{…}` reference) picks the edges when none is named.
            let last = state.last_tests.get(name);
            // LR-6: edges add to Courage spent on *their* skill's test: a skill named for
            // the test on record must be that test's (Ride's bonus on a Stamina test is not).
            // A specialised test is its skill's: `Ride` names a `Ride/Horse` test.
            if let (Some(named), Some(l)) = (skill.first(), last)
                && l.skill.as_deref() != Some(*named)
                && l.skill.as_deref().map(super::character::base_skill) != Some(*named)
            {
                let was = l.skill.clone().unwrap_or_else(|| "技能以外".to_string());
                let was_en = l.skill.clone().unwrap_or_else(|| "no skill".to_string());
                return Err(Text::new(
                    format!(
                        "LR-6: {name}の直前の判定 {} は{was}の判定です。勇気は技能を書かずに（/lotr courage {name} {n}）その判定に使います（{named} の特徴の修正はその技能の判定だけ）",
                        l.command
                    ),
                    format!(
                        "LR-6: {name}'s last test {} is {was_en}; spend Courage on it without naming a skill (/lotr courage {name} {n}) — {named}'s edge bonus is for that skill's tests only",
                        l.command
                    ),
                ));
            }
            let skill: Vec<&str> = match (skill.first(), last.and_then(|l| l.skill.as_deref())) {
                (Some(s), _) => vec![*s],
                (None, Some(s)) => vec![s],
                (None, None) => Vec::new(),
            };
            // A secret test's bonus is the GM's and the owner's (its rewriting says it).
            let hidden = last.is_some_and(|l| l.secret);
            let per = ch.courage_per_point(skill.first().copied());
            let bonus = per * n;
            let on = skill
                .first()
                .map(|s| format!("（{s}）"))
                .unwrap_or_default();
            let rewrite = last.map(|l| {
                let (ja, en) = l.outcome(bonus);
                Event::Rewritten {
                    name: name.to_string(),
                    bonus,
                    ja: format!(
                        "LR-6 {name}の勇気+{bonus}で直前の判定 {} を書き換え: {ja}",
                        l.command
                    ),
                    en: format!(
                        "LR-6 {name}'s Courage +{bonus} rewrites the last test {}: {en}",
                        l.command
                    ),
                    secret: l.secret,
                }
            });
            Ok(vec![changed(
                name,
                Delta {
                    courage: n,
                    selfish: if selfish { n } else { 0 },
                    back_at_once: at_once,
                    ..Delta::default()
                },
                if hidden {
                    format!(
                        "{name}: 勇気{n}点を非公開の判定に使用（修正はGMと本人にだけ）。残り{}、このラウンド{}点目まで{}{}",
                        left - cost(n),
                        s.courage_round + n,
                        if selfish {
                            "（利己的: セッション終了まで戻らない）"
                        } else {
                            ""
                        },
                        at_once_ja,
                    )
                } else {
                format!(
                    "{name}: 勇気{n}点 → 判定に+{bonus}{on}（1点あたり+{per}）。残り{}、このラウンド{}点目まで{}{}{}",
                    left - cost(n),
                    s.courage_round + n,
                    if selfish {
                        "（利己的: セッション終了まで戻らない）"
                    } else {
                        ""
                    },
                    at_once_ja,
                    if last.is_none() {
                        "（直前の判定は記録されていないので、GMが+{bonus}をその判定に加えます）"
                            .replace("{bonus}", &bonus.to_string())
                    } else {
                        String::new()
                    }
                )
                },
                if hidden {
                    format!(
                        "{name}: {n} Courage on a secret test (its bonus shown to the GM and the owner only); {} left, {} spent this round{}{}",
                        left - cost(n),
                        s.courage_round + n,
                        if selfish {
                            " (selfish: back only at the session's end)"
                        } else {
                            ""
                        },
                        at_once_en,
                    )
                } else {
                format!(
                    "{name}: {n} Courage → +{bonus} to the test{} (+{per} a point); {} left, {} spent this round{}{}{}",
                    skill.first().map(|s| format!(" ({s})")).unwrap_or_default(),
                    left - cost(n),
                    s.courage_round + n,
                    if selfish {
                        " (selfish: back only at the session's end)"
                    } else {
                        ""
                    },
                    at_once_en,
                    if last.is_none() {
                        format!(" (no test of it is on record: the GM adds +{bonus} to that test)")
                    } else {
                        String::new()
                    }
                )
                },
            )]
            .into_iter()
            .chain(rewrite)
            .collect())
        }
        _ => Err(usage(
            "/lotr courage 名前 点数 [技能] [selfish] | impossible | weariness",
            "/lotr courage NAME POINTS [SKILL] [selfish] | impossible | weariness",
        )),
    }
}

/// LR-7: corruption.
fn corruption(
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    let bearing = ch.attributes[BRG];
    let mut act = None;
    let (change, what): (i64, (String, String)) = match rest {
        ["yield", n @ ..] if n.len() <= 1 => {
            let n = n.first().map_or(Ok(CORRUPTION_STEP), |w| number(w))?;
            if n < CORRUPTION_STEP {
                return Err(Text::new(
                    format!("LR-7: 抵抗せずに屈すると堕落は{CORRUPTION_STEP}点以上増えます"),
                    format!("LR-7: yielding without resisting adds at least {CORRUPTION_STEP}"),
                ));
            }
            (
                n,
                (
                    format!("抵抗せず屈した: +{n}"),
                    format!("yielded without resisting: +{n}"),
                ),
            )
        }
        ["deed", n @ ..] if n.len() <= 1 => {
            let n = n.first().map_or(Ok(CORRUPTION_STEP), |w| number(w))?;
            if n < CORRUPTION_STEP {
                return Err(Text::new(
                    format!("LR-7: 無私の善行は堕落を{CORRUPTION_STEP}点以上減らします"),
                    format!(
                        "LR-7: a selfless deed lowers corruption by at least {CORRUPTION_STEP}"
                    ),
                ));
            }
            (
                -n,
                (
                    format!("無私の善行: −{n}"),
                    format!("a selfless good deed: −{n}"),
                ),
            )
        }
        [tn, follow @ ..] if follow.len() <= 1 => {
            let tn = number(tn)?;
            let followup = match follow.first() {
                None => false,
                Some(&"followup") => true,
                Some(_) => {
                    return Err(usage(
                        "/lotr corruption 名前 目標値 [followup]",
                        "/lotr corruption NAME TN [followup]",
                    ));
                }
            };
            // LR-7 「このような行動を取った後に,GMはもう一度,同じ難易度あるいはそれ以上の
            // 難易度のWillpowerを行わせてもよい」: a follow-up needs a corrupted act (forced
            // by a Complete Failure or worse) and a TN no lower than that test's.
            if followup {
                match s.corrupted_act {
                    None => {
                        return Err(Text::new(
                            format!(
                                "LR-7: {name}には事後の判定の対象になる堕落の行動がありません（誘惑の判定が Complete Failure 以下だったときに、その行動の後で /lotr corruption {name} 目標値 followup）"
                            ),
                            format!(
                                "LR-7: {name} has no corrupted act to follow up (after a temptation test of Complete Failure or worse forces one: /lotr corruption {name} TN followup)"
                            ),
                        ));
                    }
                    Some(was) if tn < was => {
                        return Err(Text::new(
                            format!(
                                "LR-7: 事後の判定の目標値は誘惑の判定と同じ{was}以上です（{tn}は低すぎます）"
                            ),
                            format!(
                                "LR-7: the follow-up's TN is the temptation test's {was} or higher ({tn} is lower)"
                            ),
                        ));
                    }
                    Some(_) => {}
                }
            }
            let weariness = state
                .settings
                .weariness_penalty(usize::try_from(s.weariness).unwrap_or(0))
                + combat_conditions(state, name).0;
            let (_, d, text) = test(dice, ch.reaction(2), tn, weariness)?;
            if followup {
                let (ja, en) = if d.is_success() {
                    ("自分のしたことに気づいた", "realises what it did")
                } else {
                    ("気づかない", "does not realise it")
                };
                return Ok(vec![changed(
                    name,
                    Delta {
                        followed_up: true,
                        ..Delta::default()
                    },
                    format!("{name}: 事後のWillpower判定 {text} → {ja}（堕落は変わらない）"),
                    format!(
                        "{name}: follow-up Willpower test {text} → {en} (corruption unchanged)"
                    ),
                )]);
            }
            let change = match d {
                Degree::DisastrousFailure => 3,
                Degree::CompleteFailure => 2,
                Degree::Failure => 1,
                Degree::MarginalSuccess | Degree::CompleteSuccess => 0,
                Degree::SuperiorSuccess => -1,
                Degree::ExtraordinarySuccess => -2,
            };
            let forced = d <= Degree::CompleteFailure;
            if forced {
                act = Some(tn);
            }
            (
                change,
                (
                    format!(
                        "誘惑に抗うWillpower判定 {text} → 堕落{change:+}{}",
                        if forced {
                            "。堕落の影響を受けた行動をしなければならない"
                        } else {
                            ""
                        }
                    ),
                    format!(
                        "Willpower test against temptation {text} → corruption {change:+}{}",
                        if forced {
                            "; a corrupted act is forced"
                        } else {
                            ""
                        }
                    ),
                ),
            )
        }
        _ => {
            return Err(usage(
                "/lotr corruption 名前 目標値 [followup] | yield [点] | deed [点]",
                "/lotr corruption NAME TN [followup] | yield [N] | deed [N]",
            ));
        }
    };
    let to = (s.corruption + change).max(0);
    // LR-7: at Corruption ≥ current Bearing the character becomes an NPC.
    let npc = !s.npc && to >= bearing;
    let tail = if npc {
        (
            format!("。堕落{to} ≥ Bearing {bearing}: 敵に仕えるNPCになった"),
            format!("; corruption {to} ≥ Bearing {bearing}: becomes an NPC serving the enemy"),
        )
    } else {
        (
            format!("（堕落{to}／Bearing {bearing}）"),
            format!(" (corruption {to} / Bearing {bearing})"),
        )
    };
    Ok(vec![changed(
        name,
        Delta {
            corruption: to - s.corruption,
            npc,
            corrupted_act: act,
            ..Delta::default()
        },
        format!("{name}: {}{}", what.0, tail.0),
        format!("{name}: {}{}", what.1, tail.1),
    )])
}

/// LR-3: the recognition test: Wits against the origins' TN − Renown, modified for a
/// shared race or order. It changes nothing: its result is a reply everyone sees.
fn recognise(
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
    events: Vec<Event>,
) -> Result<Outcome<Event>, Text> {
    let [origin, renown, shared @ ..] = rest else {
        return Err(usage(
            "/lotr recognise 名前 出身の関係 相手のRenown [race] [order]",
            "/lotr recognise NAME ORIGIN OTHER'S_RENOWN [race] [order]",
        ));
    };
    let Some((_, base)) = state
        .settings
        .recognition_tns
        .iter()
        .find(|(o, _)| o == origin)
    else {
        let list: Vec<&str> = state
            .settings
            .recognition_tns
            .iter()
            .map(|(o, _)| o.as_str())
            .collect();
        return Err(Text::new(
            format!(
                "LR-3: 出身の関係「{origin}」は表にありません（{}）",
                list.join("、")
            ),
            format!(
                "LR-3: origin '{origin}' is not in the table ({})",
                list.join(", ")
            ),
        ));
    };
    let renown = number(renown)?;
    let mut tn = base - renown;
    for w in shared {
        match *w {
            "race" | "order" => tn += state.settings.recognition_shared,
            _ => {
                return Err(usage(
                    "/lotr recognise 名前 出身の関係 相手のRenown [race] [order]",
                    "/lotr recognise NAME ORIGIN OTHER'S_RENOWN [race] [order]",
                ));
            }
        }
    }
    let p = tested_penalty(state, name, ch, s);
    let (_, d, text) = test(dice, character::modifier(ch.attributes[WIT]), tn, p)?;
    let (ja, en) = if d.is_success() {
        ("知っている", "knows of them")
    } else {
        ("知らない", "does not know of them")
    };
    let mut events = events;
    events.push(changed(
        name,
        Delta::default(),
        format!("{name}: 知名度の判定（Wits、目標値{tn}）{text} → {ja}"),
        format!("{name}: recognition test (Wits, TN {tn}) {text} → {en}"),
    ));
    done(events)
}

/// LR-6: the `Tested` event for a roll: whose test (the character its `{NAME.…}`
/// reference names, else the roller's one character), its totals read again from the
/// draws, and the skill its reference named. None when no character with Courage left
/// made it.
fn tested(
    table: &dyn TableView,
    state: &State,
    command: &str,
    result: &taku_dice::RollResult,
) -> Option<Event> {
    let test = super::parse_line(command)?;
    let typed = table.typed_line().unwrap_or(command);
    // LR-10: a group test is its leader's: only the part before the helpers' `[…]`.
    let head = match test {
        check::Test::Group { .. } => typed.split('[').next().unwrap_or(typed),
        _ => typed,
    };
    // The first `{…}` reference: `{エオメル.Ride}` names the character and the skill.
    let reference = head
        .split_once('{')
        .and_then(|(_, r)| r.split_once('}'))
        .map(|(inner, _)| inner.to_string());
    let (name, skill) = match reference.as_deref().and_then(|r| r.split_once('.')) {
        Some((who, key)) if table.character(who).is_some() => {
            (who.to_string(), Some(key.to_string()))
        }
        _ => (actors_character(table, state)?.0, reference),
    };
    // A bare-number leader: the roller's one character leads unless it is a helper.
    if head.len() < typed.len() && typed[head.len()..].contains(&format!("{{{name}.")) {
        return None;
    }
    let (ch, s) = (
        record(table, state, &name)?,
        state.status.get(&name).cloned().unwrap_or_default(),
    );
    if ch.courage - s.courage_spent <= 0 || s.npc {
        return None;
    }
    // A secret roll made for someone else's character (the GM's hidden check) is not
    // recorded: its owner would see what the roll kept from them.
    if result.secret
        && table
            .character(&name)
            .is_some_and(|(owner, _)| owner != table.actor())
    {
        return None;
    }
    let skill = skill.filter(|k| {
        character::reaction(k).is_none() && !k.ends_with("修正") && !k.ends_with("mod")
    });
    let draws: Vec<i64> = result.rands.iter().map(|d| i64::from(d.value)).collect();
    let totals = check::final_totals(&test, &draws)?;
    let totals = match (&test, totals.as_slice()) {
        (check::Test::Single { tn, .. }, [t]) => TestTotals::Single { total: *t, tn: *tn },
        (check::Test::Opposed { variant, .. }, [l, r]) => {
            let mine_is_left = !typed
                .to_ascii_uppercase()
                .find("VS")
                .is_some_and(|at| !typed[..at].contains('{') && typed[at..].contains('{'));
            let (mine, other) = if mine_is_left { (*l, *r) } else { (*r, *l) };
            TestTotals::Opposed {
                mine,
                other,
                mine_is_left,
                tie: match variant {
                    check::Variant::Retest => "retest",
                    check::Variant::Dodge => "dodge",
                    check::Variant::Parry => "parry",
                }
                .to_string(),
            }
        }
        (check::Test::Group { tn, .. }, [l, b]) => TestTotals::Group {
            leader: *l,
            bonus: *b,
            tn: *tn,
        },
        _ => return None,
    };
    Some(Event::Tested {
        name,
        test: LastTest {
            command: command.trim().to_string(),
            skill,
            totals,
            secret: result.secret,
            courage: 0,
        },
    })
}

/// Full-width digits, signs, commas and `=` as ASCII; everything else as it is.
fn fold_digits(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '＋' => '+',
            '－' | '−' => '-',
            '，' => ',',
            '＝' => '=',
            other => other,
        })
        .collect()
}

/// What an event brings in that later entries may rest on (see `builds_on`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Basis {
    /// LR-14: a fighter in the fight.
    Fighter(String),
    /// LR-16: a unit.
    Unit(String),
    /// LR-17: a stronghold.
    Stronghold(String),
    /// LR-12: a character's XP.
    Xp(String),
    /// LR-12: a character's open advancement.
    Advancement(String),
    /// LR-8, LR-12: a character's ranks in a skill.
    Ranks(String, String),
    /// LR-4: a character's poison.
    Poison(String),
}

impl Basis {
    fn words(&self) -> (String, String) {
        match self {
            Basis::Fighter(n) => (
                format!("{n}の戦闘参加（LR-14）"),
                format!("{n} joining the fight (LR-14)"),
            ),
            Basis::Unit(n) => (
                format!("部隊「{n}」（LR-16）"),
                format!("unit '{n}' (LR-16)"),
            ),
            Basis::Stronghold(n) => (
                format!("拠点「{n}」（LR-17）"),
                format!("stronghold '{n}' (LR-17)"),
            ),
            Basis::Xp(n) => (format!("{n}の経験点（LR-12）"), format!("{n}'s XP (LR-12)")),
            Basis::Advancement(n) => (
                format!("{n}の成長（LR-12）"),
                format!("{n}'s advancement (LR-12)"),
            ),
            Basis::Ranks(n, k) => (
                format!("{n}の{k}のランク（LR-8、LR-12）"),
                format!("{n}'s ranks in {k} (LR-8, LR-12)"),
            ),
            Basis::Poison(n) => (format!("{n}の毒（LR-4）"), format!("{n}'s poison (LR-4)")),
        }
    }
}

/// What `event` brings in (see [`Basis`]).
fn brings(event: &Event) -> Vec<Basis> {
    use super::advance::{Buy, Event as A};
    use super::battle::Event as B;
    use super::combat::Event as C;
    use super::table::SubEvent as S;
    match event {
        Event::Changed { name, delta, .. } if delta.poison.is_some() => {
            vec![Basis::Poison(name.clone())]
        }
        Event::Sub { event } => match event {
            S::Combat(C::Joined { fighter }) => vec![Basis::Fighter(fighter.name.clone())],
            S::Battle(B::UnitAdded { name, .. }) => vec![Basis::Unit(name.clone())],
            S::Battle(B::StrongholdAdded { name, .. }) => vec![Basis::Stronghold(name.clone())],
            S::Advance(A::Awarded { who, .. } | A::Credited { who, .. }) => {
                vec![Basis::Xp(who.clone())]
            }
            S::Advance(A::Advanced { who, .. }) => vec![Basis::Advancement(who.clone())],
            S::Advance(A::Bought {
                who,
                buy: Buy::Rank { skill },
                ..
            }) => vec![Basis::Ranks(who.clone(), skill.clone())],
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Whether `event` names character `name` anywhere (a field's value or a map's key).
fn names(event: &Event, name: &str) -> bool {
    fn mentions(v: &serde_json::Value, name: &str) -> bool {
        match v {
            serde_json::Value::String(s) => s == name,
            serde_json::Value::Array(a) => a.iter().any(|v| mentions(v, name)),
            serde_json::Value::Object(o) => o.iter().any(|(k, v)| k == name || mentions(v, name)),
            _ => false,
        }
    }
    serde_json::to_value(event).is_ok_and(|v| mentions(&v, name))
}

/// What `event` rests on (see [`Basis`]).
fn rests_on(event: &Event) -> Vec<Basis> {
    use super::advance::{Buy, Event as A};
    use super::battle::Event as B;
    use super::combat::Event as C;
    use super::table::SubEvent as S;
    let f = |n: &String| Basis::Fighter(n.clone());
    match event {
        Event::Changed { name, delta, .. } if delta.poison_stage.is_some() => {
            vec![Basis::Poison(name.clone())]
        }
        // LR-8: an Armed Combat pick rests on the ranks that allowed it.
        Event::Changed { name, delta, .. } if delta.armed_pick.is_some() => delta
            .armed_pick
            .iter()
            .map(|(k, _)| Basis::Ranks(name.clone(), k.clone()))
            .collect(),
        Event::Sub { event } => match event {
            S::Combat(c) => match c {
                C::Left { name } => vec![f(name)],
                C::Initiative { rolls, .. } => rolls.iter().map(|(n, _)| f(n)).collect(),
                C::Acted { who, .. }
                | C::Stunned { who, .. }
                | C::Calmed { who }
                | C::Stood { who }
                | C::Delayed { who, .. } => vec![f(who)],
                C::Attacked {
                    attacker, strikes, ..
                } => std::iter::once(f(attacker))
                    .chain(strikes.iter().map(|s| f(&s.target)))
                    .collect(),
                C::Squeezed { who, target, .. } => vec![f(who), f(target)],
                C::Contest { who, against, .. } => vec![f(who), f(against)],
                C::Feared {
                    attacker,
                    target,
                    inspired_by,
                    ..
                } => std::iter::once(f(attacker))
                    .chain(std::iter::once(f(target)))
                    .chain(inspired_by.iter().map(f))
                    .collect(),
                _ => Vec::new(),
            },
            S::Battle(b) => match b {
                B::UnitAttack {
                    attacker, defender, ..
                } => vec![Basis::Unit(attacker.clone()), Basis::Unit(defender.clone())],
                B::Break { unit, .. } => vec![Basis::Unit(unit.clone())],
                B::Locked { stronghold, .. } | B::Hit { stronghold, .. } => {
                    vec![Basis::Stronghold(stronghold.clone())]
                }
                _ => Vec::new(),
            },
            S::Advance(a) => match a {
                A::Advanced { who, .. } => vec![Basis::Xp(who.clone())],
                A::Bought { who, buy, .. } => {
                    let mut v = vec![Basis::Advancement(who.clone())];
                    if let Buy::Rank { skill } | Buy::Specialisation { skill, .. } = buy {
                        v.push(Basis::Ranks(who.clone(), skill.clone()));
                    }
                    v
                }
                A::Closed { who, .. } => vec![Basis::Advancement(who.clone())],
                _ => Vec::new(),
            },
        },
        _ => Vec::new(),
    }
}

/// The character a part of a typed line tests: the one its first `{NAME.…}` reference
/// names, or the roller's one character for a plain `{…}`; `None` without a reference.
fn side_character(table: &dyn TableView, state: &State, text: &str) -> Option<String> {
    let (_, after) = text.split_once('{')?;
    let (inner, _) = after.split_once('}')?;
    match inner.split_once('.') {
        Some((who, _)) if table.character(who).is_some() => Some(who.to_string()),
        _ => actors_character(table, state).map(|(n, _)| n),
    }
}

/// The table character the first `{NAME.…}` reference of `text` names, if any.
fn named_character(table: &dyn TableView, text: &str) -> Option<String> {
    let (_, after) = text.split_once('{')?;
    let (inner, _) = after.split_once('}')?;
    let (who, _) = inner.split_once('.')?;
    table.character(who).map(|_| who.to_string())
}

/// LR-8, LR-9: a LotR test's `{NAME.KEY}` (or `{KEY}`) that the rules cannot read for a
/// character with a record (no such skill, reaction or modifier, nor an untrained-usable
/// skill of the data) is refused: the table would otherwise read a raw field of that name
/// (`/char set 剣士 Foo 99` → `LOTR+99`). The record's own fields (`{NAME.STR}`) stay.
fn raw_references(table: &dyn TableView, state: &State, typed: &str) -> Result<(), Text> {
    let mut rest = typed;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        let inner = &rest[open + 1..close];
        rest = &rest[close + 1..];
        let (name, key, ch) = match inner.split_once('.') {
            Some((name, key)) => match record(table, state, name) {
                Some(ch) => (name.to_string(), key, ch),
                None => continue,
            },
            None => match actors_character(table, state) {
                Some((name, ch)) => (name, inner, ch),
                None => continue,
            },
        };
        let folded = taku_dice::normalize::fold(key).text;
        if reference(&ch, &folded).is_some() || super::fields::is_record_key(key) {
            continue;
        }
        return Err(no_skill(inner, &name, key));
    }
    Ok(())
}

/// LR-8's refusal of a reference `{inner}` to a skill `key` that `name`'s record lacks:
/// skills come from the sheet or an advancement pick, never from a hand-made field.
fn no_skill(inner: &str, name: &str, key: &str) -> Text {
    Text::new(
        format!(
            "LR-8: {{{inner}}}: {name}の記録に技能「{key}」はありません（技能はシートか /lotr xp pick {name} rank {key} で。データで訓練なしに使える技能はランク0・−2で判定されます）。手で作った欄は判定に使えません"
        ),
        format!(
            "LR-8: {{{inner}}}: {name}'s record has no skill '{key}' (skills come from the sheet or /lotr xp pick {name} rank {key}; a skill the data lets be used untrained is tested at rank 0, −2); a hand-made field is not a test modifier"
        ),
    )
}

/// LR-4: 「Near Death … の次で死亡」 — a dead character takes no more tests, healing or
/// actions (the GM may `/void` the line that killed it).
pub(super) fn not_dead(state: &State, name: &str, ch: &Character, s: &Status) -> Result<(), Text> {
    if s.dead || ch.body().level(s.damage, state.settings.hobbit_death) == WoundLevel::Dead {
        return Err(Text::new(
            format!("LR-4: {name}は死亡しています（GM は死亡させた行を /void で無効にできます）"),
            format!("LR-4: {name} is dead (the GM can /void the line that killed it)"),
        ));
    }
    Ok(())
}

/// LR-5 「Exhausted になったキャラクターはただちに意識不明になる」: an unconscious
/// character makes no test of its own (its recovery test aside), helps nobody and takes
/// no turn until it recovers.
pub(super) fn awake(state: &State, name: &str, s: &Status) -> Result<(), Text> {
    // LR-4 (Table 9.32) 「意識を失うと」: unconscious from drowning until its rest.
    if s.drowned {
        return Err(Text::new(
            format!(
                "LR-4: {name}は溺れて意識不明です。15分の休憩（/lotr drown {name} rest）まで判定も手助けもできません"
            ),
            format!(
                "LR-4: {name} is unconscious from drowning: no tests or help until its 15 minutes' rest (/lotr drown {name} rest)"
            ),
        ));
    }
    if s.weariness >= state.settings.exhausted() as i64 {
        return Err(Text::new(
            format!(
                "LR-5: {name}は Exhausted で意識不明です。回復するまで判定も手助けもできません（/lotr recover {name}）"
            ),
            format!(
                "LR-5: {name} is Exhausted and unconscious: no tests or help until it recovers (/lotr recover {name})"
            ),
        ));
    }
    Ok(())
}

/// LR-4, LR-5: [`not_dead`] and [`awake`]: the character can test or help.
pub(super) fn able(state: &State, name: &str, ch: &Character, s: &Status) -> Result<(), Text> {
    not_dead(state, name, ch, s)?;
    awake(state, name, s)
}

/// LR-14: the conditions a fighter's combat puts on every test it makes, off combat's
/// own rolls too (a plain `LOTR` test during the fight): 「スタンしたキャラクターはすべての
/// 判定にペナルティ」, fear's −1/−2/−4 「すべての行動に」, a grabbed target's TNs +5.
/// The total (≤ 0) and its words.
pub(super) fn combat_conditions(state: &State, name: &str) -> (i64, Vec<(String, String)>) {
    let Some(f) = state.sub.combat.get(name) else {
        return (0, Vec::new());
    };
    let mut words = Vec::new();
    let mut total = 0;
    if let Some((p, r)) = f.stun.filter(|s| s.0 > 0) {
        total -= p;
        words.push((
            format!("スタン−{p}（残り{r}ラウンド）"),
            format!("stunned −{p} ({r} round(s) left)"),
        ));
    }
    if f.fear > 0 {
        total -= f.fear;
        words.push((format!("恐怖−{}", f.fear), format!("fear −{}", f.fear)));
    }
    if let Some(by) = &f.grabbed_by {
        total -= 5;
        words.push((
            format!("{by}につかまれて目標値+5"),
            format!("grabbed by {by}: TN +5"),
        ));
    }
    (total, words)
}

/// The actor's one character (by ownership), if exactly one.
fn actors_character(table: &dyn TableView, state: &State) -> Option<(String, Character)> {
    let mine: Vec<(String, Character)> = table
        .characters()
        .into_iter()
        .filter(|(_, owner)| *owner == table.actor())
        .filter_map(|(name, _)| Some((name.to_string(), record(table, state, name)?)))
        .collect();
    match mine.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// LR-8, LR-3: the value a `{KEY}` names: a skill's test modifier (`{Ride}`, `{Ride/Horse}`
/// specialised), a reaction (`{Stamina}`), an attribute modifier (`{STR修正}`,
/// `{STRmod}`), `{Defence}`, `{Health}`, `{Courage}`.
pub fn reference(ch: &Character, key: &str) -> Option<i64> {
    if let Some(r) = character::reaction(key) {
        return Some(ch.reaction(r));
    }
    for suffix in ["修正", "mod", "MOD"] {
        if let Some(a) = key.strip_suffix(suffix).and_then(character::attribute) {
            return Some(character::modifier(ch.attributes[a]));
        }
    }
    match key {
        "Defence" | "Defense" => return Some(ch.defence()),
        "Health" => return Some(ch.health()),
        "Courage" => return Some(ch.courage),
        _ => {}
    }
    let (skill, field) = match key.split_once('/') {
        Some((s, f)) => (s, Some(f)),
        None => (key, None),
    };
    // LR-8: 「訓練が不要なものについては,ランク 0 の技能についても -2ペナルティで…判定が可能」:
    // a skill the record lacks is tested at rank 0 (−2) with its attribute from the data.
    ch.skill_modifier(skill, field).or_else(|| {
        let attribute = super::sheet::Data::example().skill_attribute(skill)?;
        Some(character::modifier(ch.attributes[attribute]) + character::UNTRAINED_PENALTY)
    })
}

/// The character fields LotR's rules keep (derived from the record, or tracked by
/// `/lotr` commands): a hand-set value would sit on the sheet beside the rules' own and be
/// ignored by them. Courage and Renown stay the GM's to set (the seed leaves Courage's
/// race and order changes and Renown's triggers to the GM).
const OWNED: &[OwnedField] = &[
    OwnedField {
        keys: &["Courage", "勇気"],
        how: "勇気の上限はシート（種族・職業）から、使うのは /lotr courage です（LR-6）。GM は /char set で上限を変えられます",
        how_en: "Courage comes from the sheet (race and order) and is spent with /lotr courage (LR-6); a GM may set its maximum with /char set",
        gm_may_set: true,
    },
    OwnedField {
        keys: &["Renown", "名声", "知名度"],
        how: "Renown は劇的な行動でGMが /lotr renown 名前 +1 で上げます（LR-3）",
        how_en: "Renown rises for dramatic deeds with the GM's /lotr renown NAME +1 (LR-3)",
        gm_may_set: true,
    },
    OwnedField {
        keys: &["Health", "生命点"],
        how: "Health は VIT + STR修正 から算出され（LR-3）、成長の pick で上がります（/lotr xp pick 名前 health）",
        how_en: "Health is VIT + STR mod (LR-3) and rises by advancement picks (/lotr xp pick NAME health)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["Defence", "Defense", "防御値"],
        how: "Defence は 10 + NIM修正 です（LR-3）。NIM を変えてください",
        how_en: "Defence is 10 + NIM mod (LR-3); change NIM instead",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "Stamina",
            "Swiftness",
            "Willpower",
            "Wisdom",
            "耐久",
            "敏速",
            "意志",
            "英知",
        ],
        how: "反応値は作成時の能力修正から算出され（LR-3）、成長の pick で上がります（/lotr xp pick 名前 reaction Stamina）",
        how_en: "reactions come from the creation attributes' modifiers (LR-3) and rise by advancement picks (/lotr xp pick NAME reaction Stamina)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "damage",
            "ダメージ",
            "wounds",
            "wound level",
            "負傷",
            "負傷段階",
        ],
        how: "ダメージと負傷段階は /lotr damage と /lotr heal、戦闘の命中で変わります（LR-4）",
        how_en: "damage and the wound level change with /lotr damage, /lotr heal and hits in combat (LR-4)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["weariness", "疲労"],
        how: "疲労は /lotr weary と /lotr recover で変わります（LR-5）",
        how_en: "weariness changes with /lotr weary and /lotr recover (LR-5)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["Corruption", "堕落"],
        how: "堕落はGMの /lotr corruption で変わります（LR-7）",
        how_en: "Corruption changes with the GM's /lotr corruption (LR-7)",
        gm_may_set: false,
    },
];

impl LotrRules {
    /// `later` rests on a [`Basis`] one of `undone` brought in: how, for the refusal.
    fn rests_on_brought(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        let needs = rests_on(later);
        if needs.is_empty() {
            return None;
        }
        let brought: Vec<Basis> = undone.iter().flat_map(brings).collect();
        let hit = needs.iter().find(|n| brought.contains(n))?;
        let (ja, en) = hit.words();
        Some(Text::new(
            format!("{}は{ja}を前提にしています", self.describe(later).ja()),
            format!("{} rests on {en}", self.describe(later).en()),
        ))
    }
}

impl TableRules for LotrRules {
    type State = State;
    type Event = Event;

    fn owned_fields(&self) -> &'static [OwnedField] {
        OWNED
    }

    /// The record's fields checked, and kept from a player once the character is made
    /// ([`super::fields`]: LR-1 attributes, LR-8 skills, LR-12 what picks buy).
    fn field_value_by(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        key: &str,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        super::fields::field_value_by(table, state, name, key, value, fields)
    }

    /// LR-7: 「Corruptionの値が Bearingの値と等しくなった時点で, キャラクターはNPCとなり」: the
    /// GM plays it (and `/who` lists it so).
    /// LR-8: a `{NAME.KEY}` reference to a skill a character with a record lacks
    /// (`{剣士.Sorcery}`) gets LR-8's word, the one a hand-made field would get
    /// (`raw_references`): skills come from the sheet or `/lotr xp pick`, never from
    /// `/char set`. A character without a record keeps the table's hint; a rules-owned
    /// field says what changes it.
    fn missing_field(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        key: &str,
    ) -> Option<Text> {
        if let Some(owned) = self.owned_fields().iter().find(|f| f.matches(key)) {
            return Some(Text::new(
                format!(
                    "{name} に「{key}」の欄はありません。「{key}」はルールが管理するので手では作れません。{}",
                    owned.how
                ),
                format!(
                    "{name} has no field '{key}'; '{key}' is kept by the rules and cannot be made by hand: {}",
                    owned.how_en
                ),
            ));
        }
        let ch = record(table, state, name)?;
        let folded = taku_dice::normalize::fold(key).text;
        if reference(&ch, &folded).is_some() || super::fields::is_record_key(key) {
            return None;
        }
        Some(no_skill(&format!("{name}.{key}"), name, key))
    }

    fn gm_plays(&self, state: &State, name: &str) -> Option<Text> {
        state
            .status
            .get(name)
            .filter(|s| s.npc)
            .map(|_| Text::new("堕落してNPC、LR-7", "fallen to the enemy, an NPC, LR-7"))
    }

    /// A later entry rests on what an undone line brought in: a fighter's actions on its
    /// joining the fight (LR-14), a unit's or stronghold's on its being added (LR-16,
    /// LR-17), an advancement on the XP that paid for it and its picks on the advancement
    /// (LR-12), a skill's later picks on its rank, an Armed Combat pick on the ranks it
    /// needs (LR-8), a poison's stages on the poison (LR-4).
    ///
    /// LR-1: a character's making by `/lotr create` (its attributes, the random method's
    /// rolls spent on them) stands while any later line names the character — the GM's
    /// damage, a test, a weariness: undoing it would leave them resting on no record, and
    /// a re-creation would rewrite what they were decided on.
    fn builds_on(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        if let Some(name) = undone.iter().find_map(|e| match e {
            Event::Imported {
                name, made: true, ..
            } => Some(name),
            _ => None,
        }) && names(later, name)
        {
            return Some(Text::new(
                format!(
                    "{}は{name}の作成（/lotr create、LR-1）を前提にしています",
                    self.describe(later).ja()
                ),
                format!(
                    "{} rests on {name}'s making (/lotr create, LR-1)",
                    self.describe(later).en()
                ),
            ));
        }
        self.rests_on_brought(later, undone)
    }

    /// The GM's `/void` is held too: a fold cannot take an advancement out from under the
    /// picks bought in it (LR-12 「1回の成長ごとに 成長ポイント…が5点」: the picks would
    /// stand with no advancement, and the next one would buy them again), nor a fighter's
    /// joining, a unit or a stronghold from under what they did.
    fn builds_on_holds_void(&self) -> bool {
        true
    }

    /// For a void, the bases alone (`Basis`): the LR-1 making of a character stays the
    /// GM's to void (a bad creation taken back), as before.
    fn void_builds_on(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        self.rests_on_brought(later, undone)
    }

    fn commands(&self) -> &'static [CommandHelp] {
        // The core's commands, then combat, battles, advancement and money's.
        static ALL: std::sync::LazyLock<Vec<CommandHelp>> = std::sync::LazyLock::new(|| {
            COMMANDS
                .iter()
                .chain(super::table::COMMANDS)
                .cloned()
                .collect()
        });
        &ALL
    }

    fn decide(
        &self,
        table: &dyn TableView,
        state: &State,
        words: &[&str],
        dice: &mut Roller<'_>,
    ) -> Option<Result<Outcome<Event>, Text>> {
        match words {
            ["lotr", rest @ ..] => {
                // Full-width digits and signs read as ASCII everywhere (`/lotr create B2 pick
                // １２,１１,…`, `/lotr xp award 新人 rp ５００`), as dice lines read them.
                let folded: Vec<String> = rest.iter().map(|w| fold_digits(w)).collect();
                let rest: Vec<&str> = folded.iter().map(String::as_str).collect();
                Some(decide_lotr(table, state, &rest, dice))
            }
            _ => None,
        }
    }

    fn fold(&self, state: &mut State, _actor: &str, event: &Event) {
        match event {
            Event::Setting { key, value } => {
                let _ = state.settings.set(key, value);
                // LR-11/LR-14: the one `fear_tie` is the one combat's fear reads.
                if key == "fear_tie" {
                    let _ = state.sub.combat.settings.set(key, value);
                }
            }
            Event::Table { key, value } => {
                let _ = state.settings.set_table(key, value);
            }
            Event::Imported {
                name, character, ..
            } => {
                state.characters.insert(name.clone(), (**character).clone());
            }
            Event::Changed { name, delta, .. } => {
                // LR-6: Courage goes on the test just made: a later `/lotr` test or change
                // of the character (a temptation, a weariness test, a hit) ends the
                // rewriting of an older roll; spending Courage itself does not.
                if delta.courage == 0 {
                    state.last_tests.remove(name);
                }
                let exhausted = state.settings.exhausted() as i64;
                let s = state.status.entry(name.clone()).or_default();
                apply(s, delta, exhausted);
            }
            Event::Round => {
                state.round += 1;
                for s in state.status.values_mut() {
                    s.courage_round = 0;
                    s.recovery_tested = false;
                }
            }
            Event::Sub { event } => {
                // LR-6: an attack is the attacker's test: an older roll is no longer the
                // one its Courage goes on.
                if let super::table::SubEvent::Combat(super::combat::Event::Attacked {
                    attacker,
                    ..
                }) = event
                {
                    state.last_tests.remove(attacker);
                }
                super::table::fold(&mut state.sub, event)
            }
            Event::CreationRolls { name, rolls } => {
                state
                    .creation_rolls
                    .entry(name.clone())
                    .or_insert_with(|| rolls.clone());
            }
            Event::Note { .. } => {}
            Event::Tested { name, test } => {
                state.last_tests.insert(name.clone(), test.clone());
            }
            Event::Rewritten { name, bonus, .. } => {
                if let Some(t) = state.last_tests.get_mut(name) {
                    t.courage += bonus;
                }
            }
            Event::TestsLapse => state.last_tests.clear(),
            Event::WearinessHeeded => {
                for s in state.status.values_mut() {
                    s.ignoring_weariness = false;
                }
            }
            Event::CourageBack { all } => {
                for s in state.status.values_mut() {
                    s.courage_spent = if *all { 0 } else { s.courage_selfish };
                    if *all {
                        s.courage_selfish = 0;
                    }
                    s.courage_round = 0;
                }
            }
        }
    }

    fn describe(&self, event: &Event) -> Text {
        match event {
            Event::Setting { key, value } | Event::Table { key, value } => Text::new(
                format!("設定: {key} = {value}"),
                format!("setting: {key} = {value}"),
            ),
            Event::Imported { name, .. } => Text::new(
                format!("{name}をシートから読み込み"),
                format!("{name} read from the sheet"),
            ),
            Event::Changed { ja, en, .. }
            | Event::Note { ja, en }
            | Event::Rewritten { ja, en, .. } => Text::new(ja.clone(), en.clone()),
            Event::Tested { name, test } => {
                let (ja, en) = test.outcome(0);
                Text::new(
                    format!(
                        "LR-6 {name}の判定 {}: {ja}。見てから勇気を使えます（/lotr courage {name} 点数）",
                        test.command
                    ),
                    format!(
                        "LR-6 {name}'s test {}: {en}; Courage may still be spent on it (/lotr courage {name} POINTS)",
                        test.command
                    ),
                )
            }
            Event::TestsLapse => Text::new(
                "シーン終了: 以前の判定には勇気を使えなくなる（LR-6）",
                "scene end: earlier tests can no longer take Courage (LR-6)",
            ),
            Event::CreationRolls { name, rolls } => super::create::describe_rolls(name, rolls),
            Event::WearinessHeeded => Text::new(
                "シーン終了: 疲労を無視する効果が切れる（LR-5）",
                "scene end: ignoring weariness lapses (LR-5)",
            ),
            Event::Sub { event } => super::table::describe(event),
            Event::Round => Text::new(
                "新しいラウンド: 勇気の使用数が0に戻る（LR-6）",
                "a new round: the per-round Courage count starts again (LR-6)",
            ),
            Event::CourageBack { all: false } => Text::new(
                "シーン終了: 英雄的な目的に使った勇気が戻る（LR-6）",
                "scene end: Courage spent for heroic ends comes back (LR-6)",
            ),
            Event::CourageBack { all: true } => Text::new(
                "セッション終了: 使った勇気がすべて戻る（LR-6）",
                "session end: all spent Courage comes back (LR-6)",
            ),
        }
    }

    fn on_scene_end(&self, state: &State, _dice: &mut Roller<'_>) -> Vec<Event> {
        let mut out = Vec::new();
        if state
            .status
            .values()
            .any(|s| s.courage_spent > s.courage_selfish)
        {
            out.push(Event::CourageBack { all: false });
        }
        if state.status.values().any(|s| s.ignoring_weariness) {
            out.push(Event::WearinessHeeded);
        }
        if !state.last_tests.is_empty() {
            out.push(Event::TestsLapse);
        }
        out
    }

    /// A secret test, and Courage rewriting it, are the GM's and the owner's to see.
    fn audience(&self, event: &Event) -> crate::table_rules::Audience {
        match event {
            Event::Tested { name, test } if test.secret => {
                crate::table_rules::Audience::GmAndOwnerOf(name.clone())
            }
            Event::Rewritten {
                name, secret: true, ..
            } => crate::table_rules::Audience::GmAndOwnerOf(name.clone()),
            _ => crate::table_rules::Audience::All,
        }
    }

    /// LR-6: a character's LotR test is kept (a `Tested` event after the roll) while it
    /// has Courage left, so that points spent after seeing it are shown changing it.
    fn after_roll(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
        result: &taku_dice::RollResult,
    ) -> Vec<Event> {
        tested(table, state, command, result).into_iter().collect()
    }

    fn on_session_end(&self, state: &State) -> Vec<Event> {
        if state.status.values().any(|s| s.courage_spent > 0) {
            vec![Event::CourageBack { all: true }]
        } else {
            Vec::new()
        }
    }

    /// LR-8, LR-3: `{Ride}`, `{Stamina}`, `{STR修正}`… of the actor's character (or
    /// `{エオメル.Ride}`).
    fn expand_references(&self, table: &dyn TableView, state: &State, line: &str) -> String {
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            out.push_str(&rest[..open]);
            let inner = &rest[open + 1..close];
            // Full-width letters in the key read as ASCII (`{剣士.Ｒｉｄｅ}` is Ride).
            let fold = |key: &str| taku_dice::normalize::fold(key).text;
            let value = match inner.split_once('.') {
                Some((name, key)) => {
                    record(table, state, name).and_then(|ch| reference(&ch, &fold(key)))
                }
                None => {
                    actors_character(table, state).and_then(|(_, ch)| reference(&ch, &fold(inner)))
                }
            };
            match value {
                // `LOTR+{Observe}` with Observe −2 reads `LOTR-2`, not `LOTR+-2`.
                Some(v) if v < 0 && out.ends_with('+') => {
                    out.pop();
                    out.push_str(&v.to_string());
                }
                Some(v) if v < 0 && out.ends_with('-') => {
                    out.pop();
                    out.push('+');
                    out.push_str(&(-v).to_string());
                }
                Some(v) => out.push_str(&v.to_string()),
                None => out.push_str(&rest[open..=close]),
            }
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// LR-4, LR-5, LR-9: the tested character's wound and weariness penalties go on the
    /// TN of a LotR test (external modifiers), on the total when there is no TN. The
    /// tested character is the one a side's `{NAME.…}` reference names, whoever rolls (the
    /// GM for an NPC, a player with two characters), or the roller's one character for a
    /// plain `{…}` or no reference; in an opposed test each side takes its own.
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
        let Some(test) = super::parse_line(command) else {
            return Ok(unchanged);
        };
        let typed = table.typed_line().unwrap_or(command).to_string();
        raw_references(table, state, &typed)?;
        let upper = typed.to_ascii_uppercase();
        // The parts of the typed line each side's references are in: an opposed test's
        // two sides, a group test's leader and its helpers (LR-10, `[…]`).
        let (left_text, right_text, helper_text) = match test {
            check::Test::Opposed { .. } => match upper.find("VS") {
                Some(at) => (typed[..at].to_string(), typed[at..].to_string(), None),
                None => (typed.clone(), String::new(), None),
            },
            check::Test::Group { .. } => match typed.split_once('[') {
                Some((head, tail)) => (
                    head.to_string(),
                    String::new(),
                    Some(tail.split(']').next().unwrap_or("").to_string()),
                ),
                None => (typed.clone(), String::new(), None),
            },
            check::Test::Single { .. } => (typed.clone(), String::new(), None),
        };
        let mut left = side_character(table, state, &left_text);
        let right = side_character(table, state, &right_text);
        if left.is_none() && right.is_none() {
            left = actors_character(table, state).map(|(n, _)| n);
        }
        // LR-6, LR-9: a player tests only their own character (the other side of an
        // opposed test is read from its sheet; a test of someone else's character would
        // become that character's last test, which its owner's Courage rewrites).
        let named: Vec<&String> = [&left, &right].into_iter().flatten().collect();
        if !table.actor_is_gm()
            && !named.is_empty()
            && !named.iter().any(|n| {
                table
                    .character(n)
                    .is_some_and(|(owner, _)| owner == table.actor())
            })
            && let Some(first) = named.first()
        {
            may_act_for(table, first)?;
        }
        let mut sides = Vec::new();
        for name in named {
            let s = state.status.get(name).cloned().unwrap_or_default();
            npc_is_the_gms(table, name, &s)?;
            let Some(ch) = record(table, state, name) else {
                continue;
            };
            able(state, name, &ch, &s)?;
            let (c, words) = combat_conditions(state, name);
            sides.push((
                name.clone(),
                penalty(&state.settings, &ch, &s) + c,
                ch,
                s,
                words,
            ));
        }
        // LR-10 with LR-4/LR-5/LR-14: each helper named `{NAME.…}` in `[…]` tests with its
        // own wounds, weariness and combat conditions (on its TN − 5: off its modifier); a
        // dead or unconscious helper helps nobody.
        let mut helpers = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for (i, h) in helper_text.iter().flat_map(|t| t.split(',')).enumerate() {
            let Some(name) = named_character(table, h) else {
                continue;
            };
            // LR-10 「リーダー以外の全員がそれぞれ…判定」: each member other than the
            // leader helps once.
            if left.as_deref() == Some(name.as_str()) {
                return Err(Text::new(
                    format!("LR-10: {name}はリーダーです。リーダーは自分を補助できません"),
                    format!("LR-10: {name} is the leader; the leader does not help itself"),
                ));
            }
            if seen.contains(&name) {
                return Err(Text::new(
                    format!("LR-10: {name}は二度補助できません（補助は一人一回）"),
                    format!("LR-10: {name} cannot help twice (each helper tests once)"),
                ));
            }
            seen.push(name.clone());
            let s = state.status.get(&name).cloned().unwrap_or_default();
            npc_is_the_gms(table, &name, &s)?;
            // LR-10: a helper's test is its own player's (or the GM's) to roll: a player puts
            // only their own characters into the group test.
            if let Some((owner, _)) = table.character(&name)
                && owner != table.actor()
                && !table.actor_is_gm()
            {
                return Err(Text::new(
                    format!(
                        "LR-10: {name}は{owner}のキャラクターです。補助の判定に入れられるのは自分のキャラクターだけです（{owner}の補助はGMが振るか、{owner}がリーダーなら{owner}が振ります）"
                    ),
                    format!(
                        "LR-10: {name} belongs to {owner}; a player puts only their own characters into a group test (the GM rolls a group test with {owner}'s helper)"
                    ),
                ));
            }
            let Some(ch) = record(table, state, &name) else {
                continue;
            };
            able(state, &name, &ch, &s)?;
            let (c, words) = combat_conditions(state, &name);
            let p = penalty(&state.settings, &ch, &s) + c;
            if p != 0 {
                helpers.push((i, name, p, ch, s, words));
            }
        }
        let pen = |who: &Option<String>| {
            who.as_ref()
                .and_then(|n| sides.iter().find(|x| &x.0 == n))
                .map_or(0, |x| x.1)
        };
        let (pl, pr) = (pen(&left), pen(&right));
        let group_mp = state.settings.group_marginal_plus_one;
        if pl == 0
            && pr == 0
            && helpers.is_empty()
            && !(group_mp && matches!(test, check::Test::Group { .. }))
        {
            return Ok(unchanged);
        }
        let secret = command
            .trim_start()
            .get(..1)
            .is_some_and(|c| c.eq_ignore_ascii_case("s"));
        let comment = crate::comment(&super::LotrCoda, command)
            .map(|c| format!(" {c}"))
            .unwrap_or_default();
        let changed = match test {
            check::Test::Single {
                modifier,
                tn,
                versus,
            } => check::Test::Single {
                modifier: if tn.is_none() {
                    modifier + pl
                } else {
                    modifier
                },
                tn: tn.map(|t| t - pl),
                versus,
            },
            // LR-9/LR-11: an opposed test has no TN: each side's penalty comes off its
            // own total.
            check::Test::Opposed {
                left,
                right,
                variant,
            } => check::Test::Opposed {
                left: left + pl,
                right: right + pr,
                variant,
            },
            // LR-10: the leader's condition is the leader's: its total, not the group's TN
            // (the helpers test at TN − 5 with their own modifiers).
            check::Test::Group {
                leader,
                tn,
                helpers: mut list,
                marginal_plus_one,
            } => {
                for (i, _, p, ..) in &helpers {
                    if let Some(m) = list.get_mut(*i) {
                        *m += p;
                    }
                }
                check::Test::Group {
                    leader: leader + pl,
                    tn,
                    helpers: list,
                    marginal_plus_one: marginal_plus_one || group_mp,
                }
            }
        };
        let on_tn = matches!(changed, check::Test::Single { tn: Some(_), .. });
        let printed = check::print(&changed).replace(' ', "");
        let conditions = |words: &[(String, String)]| {
            if words.is_empty() {
                (String::new(), String::new())
            } else {
                (
                    format!(
                        "、戦闘中の状態 {}（LR-14）",
                        words
                            .iter()
                            .map(|w| w.0.as_str())
                            .collect::<Vec<_>>()
                            .join("・")
                    ),
                    format!(
                        "; in combat {} (LR-14)",
                        words
                            .iter()
                            .map(|w| w.1.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            }
        };
        let mut notes: Vec<Text> = sides
            .iter()
            .filter(|x| x.1 != 0)
            .map(|(name, p, ch, s, words)| {
                let (lj, le) = level_words(&state.settings, ch, s);
                let (cj, ce) = conditions(words);
                if on_tn {
                    Text::new(
                        format!("{name}の負傷・疲労: 目標値{:+}（{lj}{cj}。LR-4、LR-5）", -p),
                        format!(
                            "{name}'s wounds and weariness: TN {:+} ({le}{ce}; LR-4, LR-5)",
                            -p
                        ),
                    )
                } else {
                    Text::new(
                        format!(
                            "{name}の負傷・疲労: {name}の達成値{p:+}（{lj}{cj}。LR-4、LR-5）"
                        ),
                        format!(
                            "{name}'s wounds and weariness: {name}'s total {p:+} ({le}{ce}; LR-4, LR-5)"
                        ),
                    )
                }
            })
            .collect();
        notes.extend(helpers.iter().map(|(i, name, p, ch, s, words)| {
            let (lj, le) = level_words(&state.settings, ch, s);
            let (cj, ce) = conditions(words);
            Text::new(
                format!(
                    "補助{}人目の{name}: 修正{p:+}（{lj}{cj}。LR-10、LR-4、LR-5）",
                    i + 1
                ),
                format!(
                    "helper {} {name}: modifier {p:+} ({le}{ce}; LR-10, LR-4, LR-5)",
                    i + 1
                ),
            )
        }));
        let note = (!notes.is_empty()).then(|| {
            Text::new(
                notes.iter().map(|n| n.ja()).collect::<Vec<_>>().join("／"),
                notes.iter().map(|n| n.en()).collect::<Vec<_>>().join(" / "),
            )
        });
        Ok(Prepared {
            command: format!("{}{printed}{comment}", if secret { "S" } else { "" }),
            events: Vec::new(),
            note,
        })
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        _viewer_is_gm: bool,
    ) -> Vec<Section> {
        let Some(ch) = record(table, state, name) else {
            return Vec::new();
        };
        sheet_sections(state, name, &ch)
    }
}

/// LR-1: what each attribute is called.
const ATTRIBUTE_NAMES: [(&str, &str); 6] = [
    ("威厳", "Bearing"),
    ("敏捷", "Nimbleness"),
    ("知覚", "Perception"),
    ("筋力", "Strength"),
    ("活力", "Vitality"),
    ("知恵", "Wits"),
];

/// LR-3: the reactions' Japanese glosses.
const REACTION_NAMES: [&str; 4] = ["耐久", "敏速", "意志", "英知"];

/// The character's typed sheet: attributes with modifiers, reactions, derived values,
/// wounds and weariness with their penalty, Courage left (this round), Corruption vs
/// Bearing, skills.
pub fn sheet_sections(state: &State, name: &str, ch: &Character) -> Vec<Section> {
    let s = state.status.get(name).cloned().unwrap_or_default();
    let d = |ja: &str, en: &str, v: Value| Field::derived(Text::new(ja, en), v);
    let attributes = ATTRIBUTES
        .iter()
        .enumerate()
        .map(|(i, a)| Field {
            key: Some(a.to_string()),
            label: Text::new(
                format!("{a}（{}）", ATTRIBUTE_NAMES[i].0),
                format!("{a} ({})", ATTRIBUTE_NAMES[i].1),
            ),
            value: Value::Text(Text::new(
                format!(
                    "{}（修正{:+}）",
                    ch.attributes[i],
                    character::modifier(ch.attributes[i])
                ),
                format!(
                    "{} (mod {:+})",
                    ch.attributes[i],
                    character::modifier(ch.attributes[i])
                ),
            )),
            derived: true,
        })
        .collect();
    let reactions = REACTIONS
        .iter()
        .enumerate()
        .map(|(i, (r, _, _))| {
            Field::derived(
                Text::new(format!("{r}（{}）", REACTION_NAMES[i]), r.to_string()),
                Value::Number(ch.reaction(i)),
            )
        })
        .collect();
    let loads = ch.loads();
    let derived = vec![
        d("Health（生命点）", "Health", Value::Number(ch.health())),
        d("Defence（防御値）", "Defence", Value::Number(ch.defence())),
        d("サイズ", "Size", Value::Plain(ch.size.name().into())),
        d(
            "荷重（通常／重荷／過重）",
            "loads (normal / encumbered / heavily)",
            Value::Plain(format!("{}/{}/{}", loads[0], loads[1], loads[2])),
        ),
        d(
            "ダメージ修正",
            "damage modifier",
            Value::Number(ch.damage_modifier()),
        ),
        d(
            "Renown（名声）",
            "Renown",
            Value::Number(ch.renown + s.renown),
        ),
        d(
            "息を止められる時間（分）",
            "breath held (minutes)",
            Value::Number(character::breath_minutes(ch.reaction(0))),
        ),
    ];
    let level = if s.dead {
        WoundLevel::Dead
    } else {
        ch.body().level(s.damage, state.settings.hobbit_death)
    };
    let p = penalty(&state.settings, ch, &s);
    let wounds = if level == WoundLevel::Healthy {
        0
    } else {
        state.settings.wound_penalty(level.index())
    };
    let weariness_name = state
        .settings
        .weariness_name(usize::try_from(s.weariness).unwrap_or(0))
        .to_string();
    let death = ch.body().death_at(state.settings.hobbit_death);
    let condition = vec![
        d(
            "ダメージ（死亡まで）",
            "damage (until death)",
            Value::Resource {
                current: s.damage,
                max: death,
            },
        ),
        d(
            "負傷段階",
            "wound level",
            Value::Text(Text::new(
                format!(
                    "{}（{wounds:+}）{}",
                    level.name(),
                    if s.drowned {
                        "・溺れて意識不明"
                    } else {
                        ""
                    }
                ),
                format!(
                    "{} ({wounds:+}){}",
                    level.name(),
                    if s.drowned {
                        ", drowned (unconscious)"
                    } else {
                        ""
                    }
                ),
            )),
        ),
        d(
            "疲労",
            "weariness",
            Value::Text(Text::new(
                format!(
                    "{weariness_name}{}（{:+}）",
                    if s.weariness >= state.settings.exhausted() as i64 {
                        "・意識不明"
                    } else {
                        ""
                    },
                    state
                        .settings
                        .weariness_penalty(usize::try_from(s.weariness).unwrap_or(0))
                ),
                format!(
                    "{weariness_name}{} ({:+})",
                    if s.weariness >= state.settings.exhausted() as i64 {
                        ", unconscious"
                    } else {
                        ""
                    },
                    state
                        .settings
                        .weariness_penalty(usize::try_from(s.weariness).unwrap_or(0))
                ),
            )),
        ),
        d("判定ペナルティ", "test penalty", Value::Number(p)),
        d(
            "炎（LR-4）",
            "on fire (LR-4)",
            Value::Plain(if s.alight { "yes" } else { "no" }.into()),
        ),
        d(
            "感染（LR-4 医術）",
            "infection (LR-4)",
            Value::Text(match s.infection.as_deref() {
                None => Text::new("なし", "none"),
                Some(rate) => {
                    let (ja, en) = rate_words(rate);
                    Text::new(format!("傷は{ja}"), format!("the wound heals {en}"))
                }
            }),
        ),
        d(
            "勇気",
            "Courage",
            Value::Resource {
                current: ch.courage - s.courage_spent,
                max: ch.courage,
            },
        ),
        d(
            "このラウンドに使える勇気",
            "Courage left this round",
            Value::Number(
                (COURAGE_PER_ROUND - s.courage_round)
                    .min(ch.courage - s.courage_spent)
                    .max(0),
            ),
        ),
        d(
            "堕落／Bearing",
            "Corruption / Bearing",
            Value::Text(Text::new(
                format!(
                    "{}／{}{}",
                    s.corruption,
                    ch.attributes[BRG],
                    if s.npc { "（NPCになった）" } else { "" }
                ),
                format!(
                    "{} / {}{}",
                    s.corruption,
                    ch.attributes[BRG],
                    if s.npc { " (became an NPC)" } else { "" }
                ),
            )),
        ),
    ];
    let mut poisons: Vec<Text> = s
        .poisons
        .iter()
        .filter(|p| p.stages_left > 0)
        .map(|p| {
            Text::new(
                format!(
                    "{}（残り{}段階、{}）",
                    p.name,
                    p.stages_left,
                    if p.resisted {
                        "二次効果"
                    } else {
                        "一次効果"
                    }
                ),
                format!(
                    "{} ({} stages left, {})",
                    p.name,
                    p.stages_left,
                    if p.resisted { "secondary" } else { "primary" }
                ),
            )
        })
        .collect();
    let skills: Vec<Text> = ch
        .skills
        .iter()
        .map(|(n, k)| {
            let m = ch.skill_modifier(n, None).unwrap_or(0);
            let spec = if k.specialisations.is_empty() {
                String::new()
            } else {
                format!(" [{}]", k.specialisations.join(", "))
            };
            Text::new(
                format!("{n} {}ランク（判定{m:+}）{spec}", k.ranks),
                format!("{n} {} ranks (test {m:+}){spec}", k.ranks),
            )
        })
        .collect();
    let mut condition = condition;
    if !poisons.is_empty() {
        condition.push(d(
            "毒",
            "poisons",
            Value::List(std::mem::take(&mut poisons)),
        ));
    }
    vec![
        Section {
            title: Text::new("能力値", "Attributes"),
            fields: attributes,
        },
        Section {
            title: Text::new("反応値", "Reactions"),
            fields: reactions,
        },
        Section {
            title: Text::new("副能力値", "Secondary attributes"),
            fields: derived,
        },
        Section {
            title: Text::new("状態", "Condition"),
            fields: condition,
        },
        Section {
            title: Text::new("技能", "Skills"),
            fields: vec![d("技能", "skills", Value::List(skills))],
        },
        Section {
            title: Text::new("特徴・欠点・職業能力", "Edges, flaws, order abilities"),
            fields: vec![
                d("特徴", "edges", Value::Plain(ch.edges.join(", "))),
                d("欠点", "flaws", Value::Plain(ch.flaws.join(", "))),
                d(
                    "職業能力",
                    "order abilities",
                    Value::Plain(ch.abilities.join(", ")),
                ),
            ],
        },
    ]
}
