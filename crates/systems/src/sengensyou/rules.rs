//! Sengensho's rules at a table (rules digest `sengensho.md`): settings for every "our
//! reading" (SG-1..SG-8), the type list (SG-1), three types per character and the last
//! boss (SG-1), bonds and their limits (SG-2), fantasy value and abilities (SG-3),
//! impressions (SG-4), borrowing (SG-5), hidden types and information gathering (SG-6),
//! NPC preset bonds (SG-7) and the contest tie rule (SG-8).
//!
//! Hidden types (SG-6): an event that names a hidden character's types or bonds carries
//! `secret` and is GM-only; a public event without the types goes beside it; the sheet
//! leaves them out for players.

use super::check::{self, Tie};
use super::types::{LAST_BOSS, TypeDef, TypeList};
use crate::table_rules::{
    Audience, CommandHelp, Outcome, OwnedField, Prepared, TableRules, TableView,
};
use crate::view::{Field, Section, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use taku_dice::{Roller, Text};
use unicode_normalization::UnicodeNormalization;

/// SG-2: most bonds per character (preset NPC bonds exempt).
pub const MAX_BONDS: usize = 7;
/// SG-2: most memory bonds.
pub const MAX_MEMORIES: usize = 2;
/// SG-2: most purpose bonds.
pub const MAX_PURPOSES: usize = 1;

/// Every "our reading" as a table setting, with the digest's default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// SG-8.
    pub contest_tie: Tie,
    /// SG-2: `sum` (true) or `each`.
    pub pc_bond_halving_sum: bool,
    /// SG-2: `levels` (true) or `count`.
    pub fantasy_value_levels: bool,
    /// SG-3: `session` (true) or `scenario`.
    pub ability_reset_session: bool,
    /// SG-2: keep bonds across sessions.
    pub campaign: bool,
    /// SG-1.
    pub boss_waive_scene_limit: bool,
    /// SG-1.
    pub boss_waive_bond_cap: bool,
    /// SG-8.
    pub leniency_reroll: bool,
    /// SG-8 (l.198, l.211): the leniency re-roll keeps the defender's modifier (`keep`,
    /// true) or lets it be chosen again (`new`, default).
    #[serde(default)]
    pub reroll_keeps_modifier: bool,
    /// SG-1 (l.177 「同時に」): the PCs' waived climax bonds to the boss only in the
    /// scene the climax starts (`scene`, default, false) or for the rest of the session
    /// (`session`, true).
    #[serde(default)]
    pub boss_waiver_session: bool,
    /// SG-5 (l.151 「以後のシーンで」): a borrowing's debt is paid only by what scenes
    /// after the borrowing's bring (`later`, true) or from the borrowing on, its own
    /// scene included (`now`, default, false).
    #[serde(default)]
    pub debt_later_scenes: bool,
    /// SG-6 (l.79, l.213): in the disguise contest the investigating PC defends
    /// (`pc`, default, false) or the disguising NPC does (`npc`, true).
    #[serde(default)]
    pub disguise_npc_defends: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            contest_tie: Tie::Defender,
            pc_bond_halving_sum: true,
            fantasy_value_levels: true,
            ability_reset_session: true,
            campaign: false,
            boss_waive_scene_limit: true,
            boss_waive_bond_cap: true,
            leniency_reroll: true,
            reroll_keeps_modifier: false,
            boss_waiver_session: false,
            debt_later_scenes: false,
            disguise_npc_defends: false,
        }
    }
}

/// What a bond targets (SG-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// A character (a PC if `pc`).
    Character,
    /// A group.
    Group,
    /// A memory (at most 2).
    Memory,
    /// A purpose (at most 1).
    Purpose,
}

/// One bond.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bond {
    /// Its target.
    pub target: String,
    /// What kind of target.
    pub kind: Target,
    /// Whether the target is a PC (SG-2 halving).
    pub pc: bool,
    /// The type it is under.
    pub type_name: String,
    /// Its level.
    pub level: i64,
    /// The scene it was set or last raised in (0: in an earlier session, a bond
    /// `campaign` kept; scenes count from 1 in each session).
    pub scene: u64,
    /// Order of acquisition.
    pub order: u64,
    /// SG-7: preset, outside the 7-bond cap.
    pub preset: bool,
    /// SG-1: a climax bond to or from the last boss.
    pub climax: bool,
}

/// A character's Sengensho state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Char {
    /// SG-1: three types this session.
    pub types: Vec<String>,
    /// SG-6: hidden from players.
    pub hidden: bool,
    /// SG-1: the last boss.
    pub last_boss: bool,
    /// SG-2.
    pub bonds: Vec<Bond>,
    /// SG-2: the scene of the last acquisition (new bond or re-tie).
    pub acquired_in: Option<u64>,
    /// SG-3: abilities used (`type/ability`).
    pub used: BTreeSet<String>,
    /// SG-5: raised fantasy value per type.
    pub borrowed: BTreeMap<String, i64>,
    /// SG-5: the scene of each type's borrowing (`debt_repay later`).
    #[serde(default)]
    pub borrowed_in: BTreeMap<String, u64>,
    /// SG-3: original-work character freed from the once-per-session limit.
    pub original_work: bool,
    /// SG-4: per target, the type in effect, the scene, and whether a bond forced it.
    pub impressions: BTreeMap<String, (String, u64, bool)>,
    /// SG-6 (l.78–79): an NPC disguising its types: its {知性}+〈交渉〉 modifier, against
    /// which information gathering becomes a contest (GM-only).
    #[serde(default)]
    pub disguise: Option<i64>,
    /// SG-6 (l.88): a PC hiding its types: the target its own {知性}+〈交渉〉 check set.
    #[serde(default)]
    pub concealed: Option<i64>,
    /// SG-6: the types each character found out about this one (by the discoverer).
    #[serde(default)]
    pub found_by: BTreeMap<String, BTreeSet<String>>,
    /// SG-6: known to be an NPC when its types were hidden or revealed: a revealed
    /// NPC's bonds and debts stay private (l.67), where no table is at hand to ask
    /// (the session's end).
    #[serde(default)]
    pub npc: bool,
}

/// What Sengensho tracks at a table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct State {
    /// The options.
    pub settings: Settings,
    /// SG-1: the loaded type list.
    pub types: TypeList,
    /// Per character.
    pub chars: BTreeMap<String, Char>,
    /// SG-1: the climax has started.
    pub climax: bool,
    /// SG-1: the scene it started in (`boss_waiver scene`).
    #[serde(default)]
    pub climax_scene: Option<u64>,
    /// Bonds acquired so far (order).
    pub order: u64,
    /// SG-8: a contest stepped through in order, under way.
    pub contest: Option<super::procedure::Contest>,
    /// SG-2: bonds, re-ties and level rises players proposed, waiting for the GM.
    #[serde(default)]
    pub proposals: Vec<Proposal>,
    /// SG-3/SG-5: abilities used (or borrowed for) this scene, as (character,
    /// `type/ability`, hidden): the scene's end settles them ([`Event::UsesSettled`]).
    #[serde(default)]
    pub scene_uses: Vec<(String, String, bool)>,
}

/// SG-2 (l.15 「プレイヤーはその制限の範囲内であれば自由に縁故の設定をGMに申請してよい。
/// GMが縁故の設定を認めれば…縁故が設定される」): what a player asked the GM for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The character whose bond it is.
    pub character: String,
    /// The bond's target.
    pub target: String,
    /// What is asked.
    pub what: Asked,
}

/// What a proposal asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
pub enum Asked {
    /// A new bond under a type.
    Bond {
        /// The type.
        type_name: String,
        /// The kind of target, if the player said.
        kind: Option<Target>,
    },
    /// A re-tie instead of a new bond.
    Retie,
    /// A level rise.
    Raise,
}

impl Asked {
    /// In words, for the log.
    fn words(&self, target: &str) -> (String, String) {
        match self {
            Asked::Bond { type_name, .. } => (
                format!("{target}への縁故（{type_name}）"),
                format!("a bond to {target} ({type_name})"),
            ),
            Asked::Retie => (
                format!("{target}への縁故の結び直し"),
                format!("re-tying the bond to {target}"),
            ),
            Asked::Raise => (
                format!("{target}への縁故のレベル上昇"),
                format!("raising the bond to {target}"),
            ),
        }
    }
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "sg", rename_all = "snake_case")]
pub enum Event {
    /// A setting changed.
    Setting {
        /// Name.
        key: String,
        /// Value.
        value: String,
    },
    /// SG-1: a type list loaded.
    TypesLoaded {
        /// The list.
        list: TypeList,
    },
    /// SG-1: three types chosen (secret when hidden).
    TypesChosen {
        /// Character.
        character: String,
        /// Types.
        types: Vec<String>,
        /// Hidden from players (SG-6).
        hidden: bool,
    },
    /// A public notice beside a secret event.
    Notice {
        /// Japanese.
        ja: String,
        /// English.
        en: String,
        /// Only the GM and the owner of this character see it (a PC an NPC's bond or
        /// impression is about).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<String>,
    },
    /// SG-2/SG-7: a bond.
    Bonded {
        /// Holder.
        character: String,
        /// The bond.
        bond: Bond,
        /// Re-tie: no new bond.
        retie: bool,
        /// GM-only.
        secret: bool,
    },
    /// SG-2: a level rise.
    Raised {
        /// Holder.
        character: String,
        /// Target.
        target: String,
        /// Scene.
        scene: u64,
        /// GM-only.
        secret: bool,
        /// The type the bond is under (whose fantasy value rises, SG-3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        type_name: Option<String>,
        /// The level it rose to (SG-2, l.17–18: the level is the value it gives).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<i64>,
    },
    /// SG-2: a bond discarded.
    Discarded {
        /// Holder.
        character: String,
        /// Target.
        target: String,
        /// GM-only.
        secret: bool,
    },
    /// SG-3/SG-5: an ability used, maybe by borrowing.
    AbilityUsed {
        /// Character.
        character: String,
        /// Type.
        type_name: String,
        /// Ability.
        ability: String,
        /// SG-5: the value raised to.
        borrowed: Option<i64>,
        /// GM-only.
        secret: bool,
        /// SG-3: the type's fantasy value when used, and the ability's threshold: an
        /// undo of a bond this value counted is refused when the rest falls short.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unlocked: Option<(i64, i64)>,
        /// SG-5 (`debt_repay later`): the scene of a borrowing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scene: Option<u64>,
    },
    /// SG-4: an impression in effect.
    Impression {
        /// Bearer.
        bearer: String,
        /// Target.
        target: String,
        /// Type.
        type_name: String,
        /// Scene.
        scene: u64,
        /// Forced by a bond.
        forced: bool,
        /// GM-only.
        secret: bool,
    },
    /// SG-6: hidden or revealed.
    Hidden {
        /// Character.
        character: String,
        /// Hidden from now on.
        hidden: bool,
        /// An NPC: revealed, its types are public and nothing else (its bonds, fantasy
        /// values and debts stay the GM's, l.67).
        #[serde(default)]
        npc: bool,
    },
    /// SG-1: the last boss named (GM-only for an NPC; a PC's is public at once).
    Boss {
        /// The character.
        character: String,
        /// A PC given the type by the GM (l.181).
        #[serde(default)]
        pc: bool,
        /// Taken away again (`/sg boss NAME off`).
        #[serde(default)]
        off: bool,
    },
    /// SG-2 (l.138): a purpose bond carried over to a changed purpose, level kept.
    Retargeted {
        /// Holder.
        character: String,
        /// The old target.
        from: String,
        /// The new one.
        to: String,
        /// GM-only.
        secret: bool,
    },
    /// SG-1: the climax starts: the boss is revealed.
    Climax {
        /// The boss.
        boss: String,
        /// The scene it started in (`None` in logs from before it was kept).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scene: Option<u64>,
    },
    /// SG-1 (l.179): the last boss used a special spell card.
    SpellCard {
        /// The character.
        character: String,
        /// The card.
        card: String,
        /// Its effect, as the data says.
        text: String,
    },
    /// SG-3: original-work switch.
    OriginalWork {
        /// Character.
        character: String,
        /// On.
        on: bool,
    },
    /// SG-6: an information-gathering check for an NPC's type.
    Discovery {
        /// The PC.
        pc: String,
        /// The NPC.
        npc: String,
        /// Target number.
        target: i64,
        /// The total rolled.
        total: i64,
        /// What the roll said.
        text: String,
        /// Types learned on success.
        learned: Vec<String>,
        /// SG-6 (l.78–79): a contest against the NPC's disguise (`target` is its total).
        #[serde(default)]
        contest: bool,
    },
    /// SG-6: the PC's player's copy of a [`Event::Discovery`]: their roll, the outcome
    /// and what it found, without the target or the disguise (the GM reads the
    /// Discovery, so this goes to the PC's owner only).
    Told {
        /// The PC.
        pc: String,
        /// Japanese.
        ja: String,
        /// English.
        en: String,
    },
    /// SG-6 (l.78–79): the GM set (or ended) an NPC's disguise of its types.
    Disguise {
        /// The NPC.
        character: String,
        /// Its {知性}+〈交渉〉 modifier; `None`: no longer disguising.
        modifier: Option<i64>,
    },
    /// SG-6 (l.88): a PC hid its types with a {知性}+〈交渉〉 check: the total is the
    /// target for finding them.
    Concealed {
        /// The PC.
        character: String,
        /// The check's text.
        text: String,
        /// The total, the new target.
        total: i64,
    },
    /// Session end: resets (SG-2, SG-3, SG-5).
    SessionReset {
        /// Debts that lapsed (character, type, owed).
        lapsed: Vec<(String, String, i64)>,
        /// `campaign` was on: bonds kept (for the log's words; the fold reads settings).
        #[serde(default)]
        keeps_bonds: bool,
        /// `ability_reset = scenario`: ability uses kept (likewise).
        #[serde(default)]
        keeps_uses: bool,
    },
    /// SG-3: `ability_reset = scenario`: the scenario ended.
    ScenarioEnd,
    /// SG-3/SG-5: the scene in which these abilities were used ended: their uses (and
    /// any borrowing) stand, and `/undo` of them is refused (the GM may `/void`).
    UsesSettled {
        /// (character, `type/ability`).
        uses: Vec<(String, String)>,
        /// A hidden character's: GM and owners only.
        secret: bool,
    },
    /// SG-2: a player proposed a bond, a re-tie or a level rise.
    Proposed {
        /// The proposal.
        proposal: Proposal,
        /// GM and owner only (a hidden character).
        secret: bool,
    },
    /// SG-2: the GM approved (the bond's events follow) or refused a proposal.
    ProposalClosed {
        /// Character.
        character: String,
        /// Target.
        target: String,
        /// Approved.
        approved: bool,
        /// The GM's reason, when refused.
        #[serde(default)]
        reason: String,
        /// GM and owner only.
        secret: bool,
    },
    /// SG-8 step 1: the attacker rolled.
    ContestAttack {
        /// Its roll.
        side: super::procedure::Side,
    },
    /// SG-8 steps 2 and 5: an effect on a side's value, declared.
    ContestEffect {
        /// On the attacker (else the defender).
        attacker: bool,
        /// The change.
        n: i64,
        /// What it is.
        what: String,
        /// SG-8 (l.211): it turned the defender's success into a failure, with the
        /// leniency re-roll on: the re-roll is offered.
        #[serde(default)]
        offers_reroll: bool,
    },
    /// SG-8 steps 3 and 4: the attacker's value fixed, the defender rolled.
    ContestDefend {
        /// Its roll.
        side: super::procedure::Side,
    },
    /// SG-8 leniency (l.211): the defender rolled again.
    ContestReroll {
        /// The new dice.
        dice: Vec<i64>,
        /// The defender's value with them (its effects kept).
        #[serde(default)]
        value: i64,
        /// SG-8 (l.198, l.211; `reroll_modifier new`): the defender's new modifier, its
        /// spend chosen again with the dice. `None`: kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        modifier: Option<i64>,
    },
    /// SG-8 steps 6 and 7: the result.
    ContestResolved {
        /// The attacker's value.
        attacker: i64,
        /// The defender's.
        defender: i64,
        /// `None`: a tie under `contest_tie = reroll`, to be rolled again from step 1.
        attacker_wins: Option<bool>,
    },
}

/// What Sengensho's rules track, which nobody types in (`/char set`, a sheet's fields):
/// a typed-in value would stand beside the rules' own, and an NPC's types typed into a
/// field would show them to every player (SG-6). A sheet proposes its types as
/// `類型候補`, which `/sg choose NAME` takes.
pub(crate) const OWNED: &[OwnedField] = &[
    OwnedField {
        keys: &["類型", "types"],
        how: "類型はセッション開始時に /sg choose 名前 類型1 類型2 類型3 で選びます（SG-1、変えるのはGM）。NPCの類型はプレイヤーに秘匿されます（SG-6）。シートでは「類型候補」に書けます",
        how_en: "types are chosen at the session's start with /sg choose NAME TYPE1 TYPE2 TYPE3 (SG-1; the GM changes them); an NPC's are hidden from players (SG-6); a sheet gives them as 類型候補",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["幻想値", "fantasy value", "fantasy values"],
        how: "幻想値は類型ごとの縁故のレベルから算出されます（SG-3）。/sg bond・/sg raise で縁故を結び・上げ、/sg borrow で前借りします（SG-5）",
        how_en: "fantasy value is derived per type from the bonds' levels (SG-3); tie and raise bonds with /sg bond and /sg raise, borrow with /sg borrow (SG-5)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &["縁故", "bond", "bonds"],
        how: "縁故は /sg bond・/sg retie・/sg raise・/sg discard で変わります（SG-2、プレイヤーの申請はGMが /sg approve で承認）。NPCの事前縁故は /sg preset（SG-7）",
        how_en: "bonds change with /sg bond, /sg retie, /sg raise and /sg discard (SG-2; a player's proposal waits for the GM's /sg approve); an NPC's preset bonds with /sg preset (SG-7)",
        gm_may_set: false,
    },
    OwnedField {
        keys: &[
            "前借り",
            "debt",
            "borrowed",
            "幻想能力",
            "abilities",
            "印象",
            "impression",
            "ラスボス",
            "last boss",
        ],
        how: "幻想能力は /sg use、前借りは /sg borrow（SG-3/SG-5）、印象効果は /sg impress（SG-4）、ラスボスは /sg boss（GM、SG-1）で記録されます",
        how_en: "fantasy abilities are recorded with /sg use, borrowing with /sg borrow (SG-3/SG-5), impressions with /sg impress (SG-4), the last boss with /sg boss (GM, SG-1)",
        gm_may_set: false,
    },
];

/// Sengensho's table rules.
pub struct SgRules;

const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        usage: "/sg settings | /sg set contest_tie defender|attacker|reroll",
        help: "GMの選択（我々の読み）と既定値の一覧・変更（GM）: contest_tie, pc_bond_halving sum|each, fantasy_value levels|count, ability_reset session|scenario, campaign on|off, boss_waive_scene_limit, boss_waive_bond_cap, leniency_reroll, reroll_modifier new|keep（振り直しで修正値を選び直す、l.198/l.211）, boss_waiver scene|session（PCのクライマックスの縁故の免除はクライマックス開始のシーンだけ、l.177「同時に」）, debt_repay now|later（前借りの返済に同じシーンの縁故を数えるか、l.151「以後のシーンで」）, disguise_defender pc|npc（類型の偽装の対抗判定でPCが防御側、l.213）",
        help_en: "The GM options (our readings) and their defaults; change one (GM): contest_tie, pc_bond_halving, fantasy_value, ability_reset, campaign, boss_waive_scene_limit, boss_waive_bond_cap, leniency_reroll, reroll_modifier new|keep (the re-roll chooses the modifier again, l.198/l.211), boss_waiver scene|session (the PCs' climax waiver only in the climax's first scene, l.177), debt_repay now|later (a bond in the borrowing's own scene pays it, l.151), disguise_defender pc|npc (the PC defends in the disguise contest, l.213)",
    },
    CommandHelp {
        usage: "/sg types example | /sg types load {\"type\":[...]} | /sg types",
        help: "類型リスト（SG-1、GM）: 例のリストを読む・TOML/JSONで読む・一覧",
        help_en: "Type list (SG-1, GM): load the examples, load TOML/JSON, list",
    },
    CommandHelp {
        usage: "/sg choose ミナ 例・芸術家 例・守護者 例・策士",
        help: "セッションの類型を3つ選ぶ（SG-1）。NPCの類型はPLから秘匿（SG-6）",
        help_en: "Choose three types for the session (SG-1); an NPC's are hidden from players (SG-6)",
    },
    CommandHelp {
        usage: "/sg bond ミナ 例・芸術家 ロイ [character|group|memory|purpose]",
        help: "縁故（SG-2）: プレイヤーが申請しGMが承認（GMが入力すればそのまま結ぶ）。7つまで・1シーン1つ・記憶2・目的1・同じ対象は1類型",
        help_en: "Bond (SG-2): a player proposes it and the GM approves it (entered by the GM, it is tied at once); 7 at most, one new per scene, 2 memories, 1 purpose, one type per target",
    },
    CommandHelp {
        usage: "/sg approve ミナ ロイ | /sg deny ミナ ロイ 理由 | /sg proposals",
        help: "縁故・結び直し・レベル上昇の申請を承認・却下（SG-2、GM）。承認時に制限をもう一度確かめる。/sg proposals で判断待ちの一覧",
        help_en: "Approve or refuse a proposed bond, re-tie or level rise (SG-2, GM); approval checks the limits again. /sg proposals lists those waiting",
    },
    CommandHelp {
        usage: "/sg retie ミナ ロイ | /sg retie ミナ 旧目的 新目的 | /sg raise ミナ ロイ | /sg discard ミナ ロイ",
        help: "結び直し（シーンの取得を使う）・目的の変更（GM、縁故レベルを継続）・レベル上昇（設定・上昇したシーン以外で1回）・破棄。プレイヤーの結び直しとレベル上昇はGMへの申請になる",
        help_en: "Re-tie (uses the scene's acquisition); a changed purpose (GM, the level carries over); raise a level (once per scene, not in the scene it was set or raised); discard. A player's re-tie or level rise is a proposal to the GM",
    },
    CommandHelp {
        usage: "/sg use ミナ 例・芸術家 例・閃き | /sg borrow ミナ 例・芸術家 例・傑作",
        help: "幻想能力（SG-3、1セッション1回）・幻想値の前借り（SG-5、返済中は不可）",
        help_en: "Use a fantasy ability (SG-3, once per session); borrow fantasy value (SG-5, not while any type owes)",
    },
    CommandHelp {
        usage: "/sg impress ミナ 例・芸術家 影",
        help: "印象効果の宣言（SG-4）: 1シーン・1対象に1類型",
        help_en: "Declare an impression (SG-4): one type per target per scene",
    },
    CommandHelp {
        usage: "/sg attack [影] +2 | /sg effect attacker +1 術 | /sg defend [ミナ] +{知性} | /sg effect defender -2 | /sg reroll | /sg resolve",
        help: "対抗判定の順番（SG-8）: ①攻撃側が振る ②攻撃側への効果 ③④確定して防御側が振る ⑤防御側への効果 ⑥⑦確定して結果。低下効果で防御成功が失敗になったら1回振り直せる（leniency_reroll）",
        help_en: "A contest in order (SG-8): (1) the attacker rolls (2) effects on it (3)(4) fixed, the defender rolls (5) effects on it (6)(7) fixed, result; a lowering effect that turned the defence into a failure allows one re-roll (leniency_reroll)",
    },
    CommandHelp {
        usage: "/sg preset 影 例・策士 ミナ 3 [character|group|memory|purpose]",
        help: "NPCの事前縁故（SG-7、GM）: 7つの上限外。1類型あたり幻想値5〜6点が目安",
        help_en: "NPC preset bond (SG-7, GM): outside the cap; about 5–6 points per type",
    },
    CommandHelp {
        usage: "/sg boss 影 [off] | /sg climax | /sg reveal 影 | /sg hide ミナ | /sg original ミナ on | /sg spell 影 例・千の幻 | /sg spells",
        help: "ラスボス指定（GM。NPCは秘匿で1人まで、PCに与えると即公開）・クライマックス開始（ボスが全PCにLv1縁故）・類型の公開・秘匿（秘匿はGM）・原作キャラ（GM）・特殊なスペルカード（ラスボスが明示された後）とその一覧・原作キャラクター類型表（/sg choose 名前 original=…）。同梱のデータは例",
        help_en: "Name the last boss (GM; one NPC, hidden; given to a PC it is public at once); start the climax (the boss bonds every PC at level 1); reveal or hide types (hiding is the GM's); original-work character (GM); special spell cards (once the last boss is plain) and their list with the original-work presets (/sg choose NAME original=…); the shipped data are examples",
    },
    CommandHelp {
        usage: "/sg disguise 影 +5 | /sg disguise 影 off | /sg conceal ミナ +{知性}+{交渉}",
        help: "類型のごまかし（SG-6、GM）: NPCの{知性}+〈交渉〉。調べる判定はその対抗判定になる。PCが類型を隠す: {知性}+〈交渉〉の判定で調べる目標値を決める",
        help_en: "Disguised types (SG-6, GM): the NPC's {知性}+〈交渉〉; looking into them becomes a contest against it. A PC hiding its types: its {知性}+〈交渉〉 check sets the target to find them",
    },
    CommandHelp {
        usage: "/sg discover ミナ 影 [via=ロイ] [keywords=15 about=類型] [roll +3]",
        help: "類型の情報収集（SG-6）: 目標値20、NPCの縁故の対象なら14、NPCが縁故を持つNPCから聞けば16、キーワードで14〜16。roll で判定",
        help_en: "Find an NPC's type (SG-6): target 20; 14 if the NPC bonded the PC; 16 if told by one the NPC bonds; 14–16 after keywords. roll makes the check",
    },
    CommandHelp {
        usage: "/sg scenario end | SGS+2 VS SGS+4",
        help: "シナリオ終了（ability_reset=scenario のとき能力の使用を戻す）・対決（同値は contest_tie）",
        help_en: "End the scenario (resets ability uses under ability_reset = scenario); a contest (ties per contest_tie)",
    },
];

type Decided = Result<Outcome<Event>, Text>;

fn refuse<T>(rule: &str, ja: String, en: String) -> Result<T, Text> {
    Err(Text::new(format!("{rule}: {ja}"), format!("{rule}: {en}")))
}

fn events(events: Vec<Event>) -> Decided {
    Ok(Outcome {
        events,
        reply: None,
    })
}

/// A GM-only step: `what` names it in Japanese and English (`("ラスボスの指定", "naming
/// the last boss")`), so an English table reads the refusal in English.
fn gm(table: &dyn TableView, what: (&str, &str)) -> Result<(), Text> {
    if table.actor_is_gm() {
        Ok(())
    } else {
        Err(Text::new(
            format!("{}はGMだけが行えます", what.0),
            format!("only the GM can do this ({})", what.1),
        ))
    }
}

fn may_act(table: &dyn TableView, name: &str) -> Result<(), Text> {
    match table.character(name) {
        None => Err(Text::new(
            format!("「{name}」というキャラクターはいません"),
            format!("no character named '{name}'"),
        )),
        Some((owner, _)) if owner == table.actor() || table.actor_is_gm() => Ok(()),
        Some((owner, _)) => Err(Text::new(
            format!("{name}は{owner}のキャラクターです"),
            format!("{name} belongs to {owner}"),
        )),
    }
}

/// Whether `name` is a PC: its `種別` field, else owned by a player.
pub fn is_pc(table: &dyn TableView, name: &str) -> bool {
    match table.character(name) {
        None => false,
        Some((owner, fields)) => match fields.get("種別").map(|k| k.to_ascii_uppercase()) {
            Some(k) if k == "PC" => true,
            Some(k) if k == "NPC" => false,
            _ => !table.member_is_gm(owner),
        },
    }
}

/// SG-6 (l.65, l.67 「NPCの縁故に関する情報は、「情報収集」の項目における情報項目としてGMが
/// 適宜設定する」): whether `name`'s bonds, their levels, its fantasy values and the
/// abilities it uses stay with the GM (and its owner): a hidden character's, and an NPC's
/// always, since `/sg reveal` makes its types public and nothing else.
fn private(table: &dyn TableView, ch: &Char, name: &str) -> bool {
    ch.hidden || !is_pc(table, name)
}

/// SG-8: a `contest_tie` value as `/sg set` writes it.
fn tie_word(tie: Tie) -> &'static str {
    match tie {
        Tie::Defender => "defender",
        Tie::Attacker => "attacker",
        Tie::Reroll => "reroll",
    }
}

/// SG-8: what a tie rule means, in Japanese and English.
fn tie_meaning(tie: Tie) -> (&'static str, &'static str) {
    match tie {
        Tie::Defender => ("同値は防御側の勝ち", "a tie goes to the defender"),
        Tie::Attacker => ("同値は攻撃側の勝ち", "a tie goes to the attacker"),
        Tie::Reroll => ("同値は振り直し", "ties are re-rolled"),
    }
}

/// SG-6/SG-7 (l.67, l.164–165): a hidden character's bond to a PC (new, or re-tied
/// when `retie`) is told to that PC's player with the impression it fixes (l.61), not
/// the type's name. `None` for a bond to anything else.
fn told_of_bond(state: &State, name: &str, bond: &Bond, retie: bool) -> Option<Event> {
    if !bond.pc {
        return None;
    }
    let impression = state
        .types
        .get(&bond.type_name)
        .filter(|t| t.impression_on_bond)
        .map(|t| t.impression.clone());
    let (ij, ie) = match &impression {
        Some(i) => (
            format!("。{}が{name}に抱く印象: {i}", bond.target),
            format!("; {}'s impression of {name}: {i}", bond.target),
        ),
        None => (String::new(), String::new()),
    };
    let (ja, en) = if retie {
        (
            format!(
                "{name}が{}への縁故を結び直した（類型は秘匿）{ij}",
                bond.target
            ),
            format!(
                "{name} re-tied its bond to {} (type hidden){ie}",
                bond.target
            ),
        )
    } else {
        (
            format!("{name}が{}に縁故を結んだ（類型は秘匿）{ij}", bond.target),
            format!("{name} tied a bond to {} (type hidden){ie}", bond.target),
        )
    };
    Some(Event::Notice {
        ja,
        en,
        to: Some(bond.target.clone()),
    })
}

fn scene(table: &dyn TableView) -> u64 {
    table.scene_and_session().0
}

/// SG-2: a type's earned fantasy value: a bond is worth its level (`levels`) or 1
/// (`count`); the earliest PC bond counts in full, later PC bonds halved, rounded up,
/// as a sum (`sum`) or each (`each`).
pub fn earned(c: &Char, type_name: &str, s: &Settings) -> i64 {
    let worth = |b: &Bond| if s.fantasy_value_levels { b.level } else { 1 };
    let mut pcs: Vec<&Bond> = Vec::new();
    let mut total = 0;
    for b in c.bonds.iter().filter(|b| b.type_name == type_name) {
        if b.pc {
            pcs.push(b);
        } else {
            total += worth(b);
        }
    }
    pcs.sort_by_key(|b| b.order);
    if let Some((first, later)) = pcs.split_first() {
        total += worth(first);
        if s.pc_bond_halving_sum {
            let sum: i64 = later.iter().map(|b| worth(b)).sum();
            total += (sum + 1) / 2;
        } else {
            total += later.iter().map(|b| (worth(b) + 1) / 2).sum::<i64>();
        }
    }
    total
}

/// SG-5: the effective value (the larger of earned and raised) and what is still owed.
pub fn effective(c: &Char, type_name: &str, s: &Settings) -> (i64, i64) {
    let e = earned(c, type_name, s);
    let raised = c.borrowed.get(type_name).copied().unwrap_or(0);
    (e.max(raised), (raised - e).max(0))
}

/// SG-5: the first type that owes, and how much; under `debt_repay later` a type also
/// owes through its borrowing's scene `now` (l.151 「以後のシーンで」), even with its
/// value made up (0).
fn owing(c: &Char, s: &Settings, now: u64) -> Option<(String, i64)> {
    c.borrowed.keys().find_map(|t| {
        let owed = effective(c, t, s).1;
        let held = s.debt_later_scenes && c.borrowed_in.get(t) == Some(&now);
        (owed > 0 || held).then(|| (t.clone(), owed))
    })
}

/// SG-5 (l.152): a bond or a rise that pays toward a borrowing says how much is still
/// owed, or that the debt is paid, to the GM and the character's owner.
fn debt_notice(
    state: &State,
    name: &str,
    type_name: &str,
    after: &Char,
    now: u64,
) -> Option<Event> {
    let before = state.chars.get(name)?;
    let (_, owed) = effective(before, type_name, &state.settings);
    if owed == 0 {
        return None;
    }
    let (_, left) = effective(after, type_name, &state.settings);
    if left == owed {
        return None;
    }
    let held = state.settings.debt_later_scenes && before.borrowed_in.get(type_name) == Some(&now);
    Some(if left == 0 && held {
        Event::Notice {
            ja: format!(
                "SG-5: {name}の{type_name}の幻想値は前借りの値に届いた。返済は以後のシーンのもの（debt_repay later、l.151）なので、前借りはこのシーンの終わりまで続く"
            ),
            en: format!(
                "SG-5: {name}'s {type_name} has reached the borrowed value; repaying is for later scenes (debt_repay later, l.151), so the borrowing lasts to the end of this scene"
            ),
            to: Some(name.to_string()),
        }
    } else if left == 0 {
        Event::Notice {
            ja: format!("SG-5: {name}の{type_name}の前借りを返し終えた"),
            en: format!("SG-5: {name} has paid off the borrowing of {type_name}"),
            to: Some(name.to_string()),
        }
    } else {
        Event::Notice {
            ja: format!("SG-5: {name}の{type_name}の前借りの返済: あと{left}"),
            en: format!("SG-5: {name} still owes {left} of {type_name}'s borrowing"),
            to: Some(name.to_string()),
        }
    })
}

fn get_char(state: &State, name: &str) -> Char {
    state.chars.get(name).cloned().unwrap_or_default()
}

fn type_def<'a>(state: &'a State, name: &str) -> Result<&'a TypeDef, Text> {
    state.types.get(name).ok_or_else(|| {
        Text::new(
            format!("SG-1: 類型「{name}」は類型リストにありません（/sg types で一覧）"),
            format!("SG-1: no type '{name}' in the type list (see /sg types)"),
        )
    })
}

fn kind_word(w: Option<&&str>) -> Result<Option<Target>, Text> {
    Ok(match w.copied() {
        None => None,
        Some("character" | "キャラクター") => Some(Target::Character),
        Some("group" | "集団") => Some(Target::Group),
        Some("memory" | "記憶") => Some(Target::Memory),
        Some("purpose" | "目的") => Some(Target::Purpose),
        Some(other) => {
            return Err(Text::new(
                format!("対象の種類「{other}」は character・group・memory・purpose のどれかです"),
                format!("target kind '{other}' must be character, group, memory or purpose"),
            ));
        }
    })
}

/// A bond's or impression's target: one word of up to 64 characters with no control,
/// bidi or invisible characters (as a character's name).
fn plain_target(t: &str) -> bool {
    let n = t.chars().count();
    (1..=64).contains(&n)
        && !t
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\' || super::types::invisible(c))
}

fn bad_target() -> Text {
    Text::new(
        "SG-2: 縁故・印象の対象は、空白・制御文字・見えない文字のない64文字までの1語にしてください",
        "SG-2: a bond's or impression's target is one word of up to 64 characters, without spaces, control or invisible characters",
    )
}

/// A refusal showing the right form. The English side names its placeholders in English
/// (`/sg choose Mina TYPE1 TYPE2 TYPE3`), so an English table reads no Japanese in it.
fn usage(u: &str) -> Text {
    Text::new(format!("使い方: {u}"), format!("usage: {}", usage_en(u)))
}

/// The placeholders of the usage lines in English (longest first, so `類型1` is not read
/// as `類型` + `1`).
fn usage_en(u: &str) -> String {
    const WORDS: [(&str, &str); 12] = [
        ("類型1", "TYPE1"),
        ("類型2", "TYPE2"),
        ("類型3", "TYPE3"),
        ("旧目的", "OLD_PURPOSE"),
        ("新目的", "NEW_PURPOSE"),
        ("効果名", "EFFECT"),
        ("類型", "TYPE"),
        ("能力", "ABILITY"),
        ("理由", "REASON"),
        ("名前", "NAME"),
        ("ミナ", "Mina"),
        ("ロイ", "Roy"),
    ];
    let mut out = u.replace("影", "Shadow");
    for (ja, en) in WORDS {
        out = out.replace(ja, en);
    }
    out
}

impl SgRules {
    fn settings(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        let s = &state.settings;
        if words.first() == Some(&"settings") {
            let onoff = |b: bool| if b { "on" } else { "off" };
            let list = format!(
                "contest_tie = {} (既定 defender, SG-8)\npc_bond_halving = {} (既定 sum, SG-2)\nfantasy_value = {} (既定 levels, SG-2)\nability_reset = {} (既定 session, SG-3)\ncampaign = {} (既定 off, SG-2)\nboss_waive_scene_limit = {} (既定 on, SG-1)\nboss_waive_bond_cap = {} (既定 on, SG-1)\nleniency_reroll = {} (既定 on, SG-8)\nreroll_modifier = {} (既定 new, SG-8 l.198/l.211)\nboss_waiver = {} (既定 scene, SG-1 l.177)\ndebt_repay = {} (既定 now, SG-5 l.151)\ndisguise_defender = {} (既定 pc, SG-6 l.79/l.213)",
                tie_word(s.contest_tie),
                if s.pc_bond_halving_sum { "sum" } else { "each" },
                if s.fantasy_value_levels {
                    "levels"
                } else {
                    "count"
                },
                if s.ability_reset_session {
                    "session"
                } else {
                    "scenario"
                },
                onoff(s.campaign),
                onoff(s.boss_waive_scene_limit),
                onoff(s.boss_waive_bond_cap),
                onoff(s.leniency_reroll),
                if s.reroll_keeps_modifier {
                    "keep"
                } else {
                    "new"
                },
                if s.boss_waiver_session {
                    "session"
                } else {
                    "scene"
                },
                if s.debt_later_scenes { "later" } else { "now" },
                if s.disguise_npc_defends { "npc" } else { "pc" },
            );
            return Ok(Outcome {
                events: Vec::new(),
                reply: Some(Text::new(list.clone(), list.replace("既定", "default"))),
            });
        }
        let [_, key, value] = words else {
            return Err(usage("/sg set contest_tie defender"));
        };
        gm(table, ("設定の変更", "changing a setting"))?;
        // Each setting with the values it takes: a refusal names them.
        const VALUES: &[(&str, &[&str])] = &[
            ("contest_tie", &["defender", "attacker", "reroll"]),
            ("pc_bond_halving", &["sum", "each"]),
            ("fantasy_value", &["levels", "count"]),
            ("ability_reset", &["session", "scenario"]),
            ("campaign", &["on", "off"]),
            ("boss_waive_scene_limit", &["on", "off"]),
            ("boss_waive_bond_cap", &["on", "off"]),
            ("leniency_reroll", &["on", "off"]),
            ("reroll_modifier", &["new", "keep"]),
            ("boss_waiver", &["scene", "session"]),
            ("debt_repay", &["now", "later"]),
            ("disguise_defender", &["pc", "npc"]),
        ];
        match VALUES.iter().find(|(k, _)| k == key) {
            None => {
                let keys: Vec<&str> = VALUES.iter().map(|(k, _)| *k).collect();
                return Err(Text::new(
                    format!(
                        "設定「{key}」はありません。設定は {} です（/sg settings で一覧）",
                        keys.join("・")
                    ),
                    format!(
                        "no setting '{key}'; the settings are {} (see /sg settings)",
                        keys.join(", ")
                    ),
                ));
            }
            Some((_, values)) if !values.contains(value) => {
                return Err(Text::new(
                    format!(
                        "設定 {key} に「{value}」は使えません。{} のどれかです",
                        values.join("・")
                    ),
                    format!("setting {key} takes {}, not '{value}'", values.join(" or ")),
                ));
            }
            Some(_) => {}
        }
        events(vec![Event::Setting {
            key: key.to_string(),
            value: value.to_string(),
        }])
    }

    fn types(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        match words.get(1).copied() {
            None => {
                let mut ja = String::from("類型リスト:");
                let mut en = String::from("Type list:");
                for t in &state.types.types {
                    let abil: Vec<String> = t
                        .abilities
                        .iter()
                        .map(|a| format!("{}({})", a.name, a.threshold))
                        .collect();
                    ja.push_str(&format!(
                        "\n  {} — {} / 印象: {}（縁故で{}） / {}",
                        t.name,
                        t.action_bonus,
                        t.impression,
                        if t.impression_on_bond {
                            "適用"
                        } else {
                            "適用しない"
                        },
                        abil.join(", ")
                    ));
                    en.push_str(&format!(
                        "\n  {} — {} / impression: {} ({}) / {}",
                        t.name,
                        t.action_bonus,
                        t.impression,
                        if t.impression_on_bond {
                            "applied by a bond"
                        } else {
                            "not applied by a bond"
                        },
                        abil.join(", ")
                    ));
                }
                Ok(Outcome {
                    events: Vec::new(),
                    reply: Some(Text::new(ja, en)),
                })
            }
            Some("example" | "load") => {
                gm(table, ("類型リストの読み込み", "loading the type list"))?;
                let text = if words[1] == "example" {
                    super::types::EXAMPLE.to_string()
                } else {
                    words[2..].join(" ")
                };
                let list = TypeList::parse(&text).map_err(|e| {
                    Text::new(format!("SG-1: {}", e.ja()), format!("SG-1: {}", e.en()))
                })?;
                // SG-1 (l.26, l.28): types are chosen from the list at the session's
                // start; a list loaded later may drop types characters hold. The GM (who
                // loads it, and alone may re-choose mid-session) is told which, in a
                // reply of its own, since an NPC's types are hidden (SG-6).
                let stranded: Vec<String> = state
                    .chars
                    .iter()
                    .filter_map(|(name, c)| {
                        let gone: Vec<&str> = c
                            .types
                            .iter()
                            .filter(|t| list.get(t).is_none())
                            .map(String::as_str)
                            .collect();
                        (!gone.is_empty()).then(|| format!("{name}（{}）", gone.join("・")))
                    })
                    .collect();
                let reply = (!stranded.is_empty()).then(|| {
                    Text::new(
                        format!(
                            "SG-1: 新しい類型リストにない類型を持つキャラクター: {}。その類型の幻想能力はリストから消えました。/sg choose 名前 類型1 類型2 類型3 で選び直せます（縁故は /sg discard）",
                            stranded.join("、")
                        ),
                        format!(
                            "SG-1: characters holding types the new list lacks: {}; those types' abilities are gone from the list. Re-choose with /sg choose NAME TYPE1 TYPE2 TYPE3 (bonds: /sg discard)",
                            stranded.join(", ")
                        ),
                    )
                });
                Ok(Outcome {
                    events: vec![Event::TypesLoaded { list }],
                    reply,
                })
            }
            Some(_) => Err(usage("/sg types [example|load TEXT]")),
        }
    }

    fn choose(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        let from_sheet: Vec<String>;
        let (name, a, b, c) = match words {
            [_, name, a, b, c] => (*name, *a, *b, *c),
            // SG-1 (l.29): an original-work character's preset from the GM's data.
            [_, name, preset] if preset.starts_with("original=") => {
                let key = &preset["original=".len()..];
                let Some(o) = state.types.original(key) else {
                    return refuse(
                        "SG-1",
                        format!(
                            "原作キャラクター類型表に「{key}」はありません（/sg spells で一覧。データは /sg types load）"
                        ),
                        format!(
                            "no '{key}' in the original-work table (/sg spells lists it; data comes with /sg types load)"
                        ),
                    );
                };
                from_sheet = o.types.clone();
                let [a, b, c] = from_sheet.as_slice() else {
                    return Err(usage("/sg choose ミナ original=名前"));
                };
                (*name, a.as_str(), b.as_str(), c.as_str())
            }
            [_, name] => {
                // The sheet's 類型候補 field (`taku sheet --system Sengensyou`; 類型 in a
                // log from before the rules kept 類型).
                from_sheet = table
                    .character(name)
                    .and_then(|(_, f)| f.get("類型候補").or_else(|| f.get("類型")))
                    .map(|t| super::sheet::split_types(t))
                    .unwrap_or_default();
                let [a, b, c] = from_sheet.as_slice() else {
                    return Err(usage("/sg choose ミナ 類型1 類型2 類型3"));
                };
                (*name, a.as_str(), b.as_str(), c.as_str())
            }
            _ => return Err(usage("/sg choose ミナ 類型1 類型2 類型3")),
        };
        may_act(table, name)?;
        // SG-1 (l.26): 「類型はセッション開始時に決定できる」; the GM may change them (l.30).
        if !table.actor_is_gm() && state.chars.get(name).is_some_and(|c| !c.types.is_empty()) {
            return refuse(
                "SG-1",
                format!("類型はセッション開始時に決めます。{name}の類型を変えられるのはGMだけです"),
                format!("types are chosen at the session's start; only the GM changes {name}'s"),
            );
        }
        let chosen = [a, b, c];
        for t in chosen {
            type_def(state, t)?;
        }
        if a == b || b == c || a == c {
            return refuse(
                "SG-1",
                "類型は異なる3つを選びます".into(),
                "choose three different types".into(),
            );
        }
        let ch = get_char(state, name);
        // SG-1/SG-2 (`campaign`): bonds kept under a type not chosen again go first.
        let dropped: Vec<String> = ch
            .bonds
            .iter()
            .filter(|x| !chosen.contains(&x.type_name.as_str()) && x.type_name != LAST_BOSS)
            .map(|x| format!("{}（{}）", x.target, x.type_name))
            .collect();
        if !dropped.is_empty() {
            return refuse(
                "SG-1/SG-2",
                format!(
                    "{name}には今回選ばない類型の縁故があります: {}。先に /sg discard {name} 対象 で破棄してください",
                    dropped.join("・")
                ),
                format!(
                    "{name} holds bonds under types not chosen now: {}; discard them first (/sg discard {name} TARGET)",
                    dropped.join(", ")
                ),
            );
        }
        let hidden = if state.chars.contains_key(name) {
            ch.hidden
        } else {
            !is_pc(table, name)
        };
        let mut evs = vec![Event::TypesChosen {
            character: name.to_string(),
            types: chosen.iter().map(|s| s.to_string()).collect(),
            hidden,
        }];
        if hidden {
            evs.push(Event::Notice {
                ja: format!("{name}が類型を選んだ（秘匿）"),
                en: format!("{name} chose its types (hidden)"),
                to: None,
            });
        }
        events(evs)
    }

    /// SG-2's limits on a new bond (or a re-tie when `retie`).
    #[allow(clippy::too_many_arguments)]
    fn check_new_bond(
        &self,
        state: &State,
        table: &dyn TableView,
        name: &str,
        type_name: &str,
        target: &str,
        kind: Target,
        preset: bool,
        climax: bool,
    ) -> Result<(), Text> {
        let ch = get_char(state, name);
        let s = &state.settings;
        if type_name != LAST_BOSS {
            type_def(state, type_name)?;
        }
        if !(ch.types.iter().any(|t| t == type_name) || ch.last_boss && type_name == LAST_BOSS) {
            return refuse(
                "SG-2",
                format!(
                    "縁故は{name}の類型のどれか1つで結びます（{type_name}は{name}の類型ではありません）"
                ),
                format!("a bond is tied under one of {name}'s types ('{type_name}' is not one)"),
            );
        }
        if target == name {
            return refuse(
                "SG-2",
                "自分自身は対象にできません".into(),
                "a character cannot bond itself".into(),
            );
        }
        if let Some(old) = ch.bonds.iter().find(|b| b.target == target) {
            return if old.type_name == type_name {
                refuse(
                    "SG-2",
                    format!(
                        "{name}は{target}への縁故（{type_name}）をすでに持っています。結び直すなら /sg retie"
                    ),
                    format!(
                        "{name} already holds a bond to {target} under {type_name}; /sg retie to re-tie it"
                    ),
                )
            } else {
                refuse(
                    "SG-2",
                    format!(
                        "{target}には{}の縁故があります。同じ対象に2つの類型では結べません。先に /sg discard {name} {target}",
                        old.type_name
                    ),
                    format!(
                        "{target} already holds {name}'s bond under {}; the same target cannot hold bonds under two types: discard it first",
                        old.type_name
                    ),
                )
            };
        }
        let count = |k: Target| ch.bonds.iter().filter(|b| b.kind == k).count();
        if kind == Target::Memory && count(Target::Memory) >= MAX_MEMORIES {
            return refuse(
                "SG-2",
                "記憶への縁故は2つまでです".into(),
                "at most 2 bonds to memories".into(),
            );
        }
        if kind == Target::Purpose && count(Target::Purpose) >= MAX_PURPOSES {
            return refuse(
                "SG-2",
                "目的への縁故は1つまでです".into(),
                "at most 1 bond to a purpose".into(),
            );
        }
        let capped = ch
            .bonds
            .iter()
            .filter(|b| !(b.preset || b.climax && s.boss_waive_bond_cap))
            .count();
        if !(preset || climax && s.boss_waive_bond_cap) && capped >= MAX_BONDS {
            return refuse(
                "SG-2",
                "縁故は1キャラクター7つまでです".into(),
                "at most 7 bonds per character".into(),
            );
        }
        if !(preset || climax && s.boss_waive_scene_limit) && ch.acquired_in == Some(scene(table)) {
            return refuse(
                "SG-2",
                "新しい縁故（結び直しを含む）は1シーンに1つまでです。レベル上昇は別に行えます"
                    .into(),
                "one new bond (or re-tie) per scene; raising a level is still allowed".into(),
            );
        }
        Ok(())
    }

    fn bond_events(
        &self,
        state: &State,
        table: &dyn TableView,
        name: &str,
        bond: Bond,
    ) -> Vec<Event> {
        let ch = get_char(state, name);
        let secret = private(table, &ch, name);
        let mut evs = vec![Event::Bonded {
            character: name.to_string(),
            bond: bond.clone(),
            retie: false,
            secret,
        }];
        // SG-2: bonding a character or group applies the impression at once (unless the
        // type's data turns it off).
        let forces = state
            .types
            .get(&bond.type_name)
            .is_some_and(|t| t.impression_on_bond);
        // SG-6/SG-7: a hidden character's bonds are information to gather (l.67); only a
        // PC it bonds learns of it, with the impression the bond fixes (l.164–165), not
        // the type's name.
        if secret {
            evs.extend(told_of_bond(state, name, &bond, false));
        }
        let mut after = ch.clone();
        after.bonds.push(bond.clone());
        evs.extend(debt_notice(
            state,
            name,
            &bond.type_name,
            &after,
            scene(table),
        ));
        if matches!(bond.kind, Target::Character | Target::Group) && forces {
            evs.push(Event::Impression {
                bearer: name.to_string(),
                target: bond.target.clone(),
                type_name: bond.type_name.clone(),
                scene: scene(table),
                forced: true,
                secret,
            });
        }
        evs
    }

    fn bond(&self, state: &State, words: &[&str], table: &dyn TableView, preset: bool) -> Decided {
        let (name, type_name, target, kind, level) = if preset {
            let [_, n, t, tg, lv, rest @ ..] = words else {
                return Err(usage(
                    "/sg preset 影 類型 ミナ 3 [character|group|memory|purpose]",
                ));
            };
            let lv: i64 = taku_dice::normalize::fold(lv)
                .text
                .parse()
                .ok()
                .filter(|l| (1..=100).contains(l))
                .ok_or_else(|| {
                    Text::new(
                        format!(
                            "SG-7: 事前縁故のレベルは1〜100の整数です（「{lv}」。目安は1類型あたり幻想値5〜6点）: /sg preset 影 類型 ミナ 3"
                        ),
                        format!(
                            "SG-7: a preset bond's level is a whole number from 1 to 100 ('{lv}'; the guide is about 5–6 fantasy value per type): /sg preset NPC TYPE TARGET 3"
                        ),
                    )
                })?;
            (*n, *t, *tg, kind_word(rest.first())?, lv)
        } else {
            let [_, n, t, tg, rest @ ..] = words else {
                return Err(usage(
                    "/sg bond ミナ 類型 ロイ [character|group|memory|purpose]",
                ));
            };
            (*n, *t, *tg, kind_word(rest.first())?, 1)
        };
        if preset {
            gm(table, ("SG-7 事前縁故", "SG-7 preset bonds"))?;
            // SG-7 (l.161): 「NPCの縁故はセッション開始時点で設定済みで良い」: preset at the
            // session's start; later the NPC's bonds follow SG-2's limits.
            if scene(table) > 1 {
                return refuse(
                    "SG-7",
                    "事前縁故はセッション開始時（最初のシーン）だけです。その後のNPCの縁故は /sg bond（1シーンに1つ）".into(),
                    "preset bonds are for the session's start (its first scene); later an NPC's bonds are /sg bond (one per scene)".into(),
                );
            }
            if is_pc(table, name) {
                return refuse(
                    "SG-7",
                    "事前縁故はNPCだけです".into(),
                    "preset bonds are for NPCs".into(),
                );
            }
        }
        may_act(table, name)?;
        let kind = kind.unwrap_or(if table.character(target).is_some() {
            Target::Character
        } else {
            Target::Group
        });
        if !plain_target(target) {
            return Err(bad_target());
        }
        // SG-2 (l.61, l.123–126), SG-4: a target that names a character at the table is
        // that character: its bond applies the type's impression and counts among the PC
        // bonds; it is no memory, purpose or group (which would dodge both and use up a
        // memory's slot).
        // SG-2: a character cannot bond itself, as whatever kind (the advice below would
        // name a bond refused for that, F7 of sg8).
        if target == name {
            return refuse(
                "SG-2",
                "自分自身は対象にできません".into(),
                "a character cannot bond itself".into(),
            );
        }
        if kind != Target::Character && table.character(target).is_some() {
            let (ja, en) = match kind {
                Target::Memory => ("記憶", "memory"),
                Target::Purpose => ("目的", "purpose"),
                _ => ("集団", "group"),
            };
            return refuse(
                "SG-2",
                format!(
                    "{target}は卓のキャラクターです。キャラクターへの縁故は{ja}ではありません（印象が適用され、PCならPCへの縁故として数えます）。種類を書かずに /sg bond {name} {type_name} {target} としてください"
                ),
                format!(
                    "{target} is a character at the table; a bond to a character is no {en} (it applies the impression and, to a PC, counts as a PC bond); leave the kind out: /sg bond {name} {type_name} {target}"
                ),
            );
        }
        let boss = state.chars.get(target).is_some_and(|c| c.last_boss);
        // SG-1 (l.177): 「PCはこのNPCに対する縁故を(レベルの制限を無視して)…取得して
        // 良い」: the waiver is the PCs' bonds to the boss (the boss's own to the PCs are
        // tied by /sg climax); another NPC's bond to a boss (a PC the GM made one) is an
        // ordinary bond.
        // `boss_waiver scene` (default; l.177 「同時に」, at the moment the climax starts):
        // only in the climax's first scene; `session`: for the rest of the session.
        let climax = state.climax
            && boss
            && is_pc(table, name)
            && (state.settings.boss_waiver_session
                || state.climax_scene.is_none_or(|c| c == scene(table)));
        self.check_new_bond(state, table, name, type_name, target, kind, preset, climax)?;
        // SG-2: the player proposes, the GM approves (/sg approve).
        if !preset && !table.actor_is_gm() {
            return self.propose(
                state,
                table,
                name,
                target,
                Asked::Bond {
                    type_name: type_name.to_string(),
                    kind: kind_word(words.get(4))?,
                },
            );
        }
        let pc = kind == Target::Character && is_pc(table, target);
        let bond = Bond {
            target: target.to_string(),
            kind,
            pc,
            type_name: type_name.to_string(),
            level,
            scene: scene(table),
            order: state.order,
            preset,
            climax,
        };
        let mut evs = self.bond_events(state, table, name, bond);
        if preset {
            let mut after = get_char(state, name);
            if let Some(Event::Bonded { bond, .. }) = evs.first() {
                after.bonds.push(bond.clone());
            }
            let fv = earned(&after, type_name, &state.settings);
            return Ok(Outcome {
                events: std::mem::take(&mut evs),
                reply: Some(Text::new(
                    format!("SG-7: {name}の{type_name}の幻想値 {fv}（目安は1類型5〜6点）"),
                    format!(
                        "SG-7: {name}'s {type_name} fantasy value {fv} (guide: about 5–6 per type)"
                    ),
                )),
            });
        }
        events(evs)
    }

    /// SG-2: a player's proposal, checked against the limits now (the GM's approval
    /// checks them again).
    fn propose(
        &self,
        state: &State,
        table: &dyn TableView,
        name: &str,
        target: &str,
        what: Asked,
    ) -> Decided {
        if state
            .proposals
            .iter()
            .any(|p| p.character == name && p.target == target)
        {
            return refuse(
                "SG-2",
                format!(
                    "{name}の{target}についての申請はすでにGMの判断待ちです（GM: /sg approve {name} {target} か /sg deny {name} {target}）"
                ),
                format!(
                    "{name}'s proposal about {target} already waits for the GM (/sg approve {name} {target} or /sg deny {name} {target})"
                ),
            );
        }
        let secret = private(table, &get_char(state, name), name);
        Ok(Outcome {
            events: vec![Event::Proposed {
                proposal: Proposal {
                    character: name.to_string(),
                    target: target.to_string(),
                    what,
                },
                secret,
            }],
            reply: None,
        })
    }

    /// SG-2: the GM approves (`/sg approve ミナ ロイ`) or refuses (`/sg deny ミナ ロイ 理由`)
    /// a proposal; `/sg proposals` lists those waiting.
    fn decide_proposal(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        if words == ["proposals"] {
            let shown: Vec<(String, String)> = state
                .proposals
                .iter()
                .filter(|p| {
                    table.actor_is_gm()
                        || !private(table, &get_char(state, &p.character), &p.character)
                        || table
                            .character(&p.character)
                            .is_some_and(|(o, _)| o == table.actor())
                })
                .map(|p| {
                    let (ja, en) = p.what.words(&p.target);
                    (
                        format!("{}: {ja}", p.character),
                        format!("{}: {en}", p.character),
                    )
                })
                .collect();
            let (ja, en): (Vec<String>, Vec<String>) = shown.into_iter().unzip();
            return Ok(Outcome {
                events: Vec::new(),
                reply: Some(if ja.is_empty() {
                    Text::new(
                        "SG-2: GMの判断を待つ申請はありません",
                        "SG-2: no proposals wait for the GM",
                    )
                } else {
                    Text::new(
                        format!("SG-2: GMの判断待ち:\n{}", ja.join("\n")),
                        format!("SG-2: waiting for the GM:\n{}", en.join("\n")),
                    )
                }),
            });
        }
        let (verb, name, target, reason) = match words {
            [verb @ ("approve" | "deny"), name, target, reason @ ..] => {
                (*verb, *name, *target, reason)
            }
            _ => {
                return Err(usage(
                    "/sg approve ミナ ロイ | /sg deny ミナ ロイ [理由] | /sg proposals",
                ));
            }
        };
        gm(
            table,
            (
                "SG-2 縁故の申請の承認・却下",
                "SG-2 approving or refusing a bond proposal",
            ),
        )?;
        let Some(p) = state
            .proposals
            .iter()
            .find(|p| p.character == name && p.target == target)
        else {
            return refuse(
                "SG-2",
                format!("{name}の{target}についての申請はありません（/sg proposals で一覧）"),
                format!("no proposal of {name} about {target} (/sg proposals lists them)"),
            );
        };
        let secret = private(table, &get_char(state, name), name);
        let closed = |approved: bool| Event::ProposalClosed {
            character: name.to_string(),
            target: target.to_string(),
            approved,
            reason: reason.join(" "),
            secret,
        };
        if verb == "deny" {
            return events(vec![closed(false)]);
        }
        // The same decision as the GM entering it: every limit checked again now.
        let kind;
        let decided = match &p.what {
            Asked::Bond { type_name, kind: k } => {
                kind = match k {
                    Some(Target::Character) => "character",
                    Some(Target::Group) => "group",
                    Some(Target::Memory) => "memory",
                    Some(Target::Purpose) => "purpose",
                    None => "",
                };
                let mut w = vec!["bond", name, type_name.as_str(), target];
                if !kind.is_empty() {
                    w.push(kind);
                }
                self.bond(state, &w, table, false)
            }
            Asked::Retie => self.bond_change(state, &["retie", name, target], table),
            Asked::Raise => self.bond_change(state, &["raise", name, target], table),
        }?;
        let mut evs = vec![closed(true)];
        evs.extend(decided.events);
        Ok(Outcome {
            events: evs,
            reply: decided.reply,
        })
    }

    fn existing<'a>(&self, ch: &'a Char, name: &str, target: &str) -> Result<&'a Bond, Text> {
        ch.bonds.iter().find(|b| b.target == target).ok_or_else(|| {
            Text::new(
                format!("SG-2: {name}は{target}への縁故を持っていません"),
                format!("SG-2: {name} holds no bond to {target}"),
            )
        })
    }

    fn bond_change(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        if let ["retie", name, from, to] = words {
            // SG-2 (l.138): the purpose changes; the GM may keep the bond's level.
            gm(
                table,
                (
                    "SG-2 目的の変更と縁故レベルの継続",
                    "SG-2 a changed purpose keeping its bond level",
                ),
            )?;
            may_act(table, name)?;
            let ch = get_char(state, name);
            let bond = self.existing(&ch, name, from)?;
            if bond.kind != Target::Purpose {
                return refuse(
                    "SG-2",
                    format!(
                        "{from}への縁故は目的ではありません。対象を変えて継続できるのは目的の縁故だけです"
                    ),
                    format!(
                        "the bond to {from} is not a purpose; only a purpose bond carries over to a new target"
                    ),
                );
            }
            if from == to || ch.bonds.iter().any(|b| b.target == *to) {
                return refuse(
                    "SG-2",
                    format!("{name}はすでに{to}への縁故を持っています"),
                    format!("{name} already holds a bond to {to}"),
                );
            }
            if !plain_target(to) {
                return Err(bad_target());
            }
            return events(vec![Event::Retargeted {
                character: name.to_string(),
                from: from.to_string(),
                to: to.to_string(),
                secret: private(table, &ch, name),
            }]);
        }
        let [verb, name, target] = words else {
            return Err(usage(
                "/sg retie|raise|discard ミナ ロイ | /sg retie ミナ 旧目的 新目的",
            ));
        };
        may_act(table, name)?;
        let ch = get_char(state, name);
        let bond = self.existing(&ch, name, target)?;
        let secret = private(table, &ch, name);
        let now = scene(table);
        match *verb {
            "retie" => {
                if ch.acquired_in == Some(now) {
                    return refuse(
                        "SG-2",
                        "結び直しはそのシーンの取得を使います。このシーンではもう取得しました"
                            .into(),
                        "a re-tie uses the scene's acquisition, already taken this scene".into(),
                    );
                }
                if !table.actor_is_gm() {
                    return self.propose(state, table, name, target, Asked::Retie);
                }
                let mut b = bond.clone();
                b.scene = now;
                // SG-2/SG-4, l.61 「キャラクターや集団に対して「縁故」を結んだ場合、その時点で
                // 必ず「印象効果」が適用される」: a re-tie (結び直し, l.143) ties the bond
                // again, so its type's impression applies again (F3 of sg8).
                let forces = state
                    .types
                    .get(&b.type_name)
                    .is_some_and(|t| t.impression_on_bond);
                let impression = (matches!(b.kind, Target::Character | Target::Group) && forces)
                    .then(|| Event::Impression {
                        bearer: name.to_string(),
                        target: b.target.clone(),
                        type_name: b.type_name.clone(),
                        scene: now,
                        forced: true,
                        secret,
                    });
                // SG-7 (l.164–165): the PC a hidden character re-ties to learns the
                // impression, as for a new bond (sg9 F7).
                let told = secret
                    .then(|| told_of_bond(state, name, &b, true))
                    .flatten();
                let mut evs = vec![Event::Bonded {
                    character: name.to_string(),
                    bond: b,
                    retie: true,
                    secret,
                }];
                evs.extend(told);
                evs.extend(impression);
                events(evs)
            }
            "raise" => {
                if bond.scene == now {
                    return refuse(
                        "SG-2",
                        format!(
                            "{target}への縁故はこのシーンで結んだか上げたばかりです。上げられるのは別のシーンで1回です"
                        ),
                        format!(
                            "the bond to {target} was set or raised this scene; it rises once in a different scene"
                        ),
                    );
                }
                if !table.actor_is_gm() {
                    return self.propose(state, table, name, target, Asked::Raise);
                }
                let mut after = get_char(state, name);
                if let Some(b) = after.bonds.iter_mut().find(|b| b.target == *target) {
                    b.level += 1;
                }
                let mut evs = vec![Event::Raised {
                    character: name.to_string(),
                    target: target.to_string(),
                    scene: now,
                    secret,
                    type_name: Some(bond.type_name.clone()),
                    level: Some(bond.level + 1),
                }];
                evs.extend(debt_notice(
                    state,
                    name,
                    &bond.type_name,
                    &after,
                    scene(table),
                ));
                events(evs)
            }
            _ => events(vec![Event::Discarded {
                character: name.to_string(),
                target: target.to_string(),
                secret,
            }]),
        }
    }

    fn ability(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        let [verb, name, type_name, ability] = words else {
            return Err(usage("/sg use|borrow ミナ 類型 能力"));
        };
        may_act(table, name)?;
        let ch = get_char(state, name);
        if !ch.types.iter().any(|t| t == type_name) {
            return refuse(
                "SG-3",
                format!("{type_name}は{name}の類型ではありません"),
                format!("'{type_name}' is not one of {name}'s types"),
            );
        }
        let def = type_def(state, type_name)?;
        let Some(a) = def.abilities.iter().find(|a| a.name == *ability) else {
            return refuse(
                "SG-3",
                format!("{type_name}に幻想能力「{ability}」はありません"),
                format!("{type_name} has no fantasy ability '{ability}'"),
            );
        };
        let key = format!("{type_name}/{ability}");
        if ch.used.contains(&key) && !ch.original_work {
            let per = if state.settings.ability_reset_session {
                ("セッション", "session")
            } else {
                ("シナリオ", "scenario")
            };
            return refuse(
                "SG-3",
                format!(
                    "{ability}はこの{}ですでに使いました（1{}に1回）",
                    per.0, per.0
                ),
                format!(
                    "{ability} was already used this {} (once per {})",
                    per.1, per.1
                ),
            );
        }
        let (value, _) = effective(&ch, type_name, &state.settings);
        let borrowed = if *verb == "borrow" {
            if let Some((t, owed)) = owing(&ch, &state.settings, scene(table)) {
                if owed == 0 {
                    return refuse(
                        "SG-5",
                        format!(
                            "{t}の前借りはこのシーンの終わりまで続きます（debt_repay later: 返済は以後のシーンで、l.151）。前借りは次のシーンから"
                        ),
                        format!(
                            "{t}'s borrowing lasts to the end of this scene (debt_repay later: repaid in later scenes, l.151); borrow again from the next scene"
                        ),
                    );
                }
                return refuse(
                    "SG-5",
                    format!("{t}が前借りを{owed}点返済中です。返済が済むまで前借りはできません"),
                    format!("{t} still owes {owed}; no borrowing while any type owes"),
                );
            }
            if value >= a.threshold {
                return refuse(
                    "SG-5",
                    format!(
                        "幻想値{value}で{ability}（{}）はもう使えます。/sg use で",
                        a.threshold
                    ),
                    format!(
                        "fantasy value {value} already unlocks {ability} ({}); use /sg use",
                        a.threshold
                    ),
                );
            }
            Some(a.threshold)
        } else {
            if value < a.threshold {
                return refuse(
                    "SG-3",
                    format!(
                        "{type_name}の幻想値{value}は{ability}の{}に届きません（/sg borrow で前借り）",
                        a.threshold
                    ),
                    format!(
                        "{type_name}'s fantasy value {value} is below {ability}'s {} (borrow with /sg borrow)",
                        a.threshold
                    ),
                );
            }
            None
        };
        events(vec![Event::AbilityUsed {
            character: name.to_string(),
            type_name: type_name.to_string(),
            ability: ability.to_string(),
            borrowed,
            secret: private(table, &ch, name),
            unlocked: borrowed.is_none().then_some((value, a.threshold)),
            scene: borrowed.map(|_| scene(table)),
        }])
    }

    fn impress(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        let [_, name, type_name, target] = words else {
            return Err(usage("/sg impress ミナ 類型 影"));
        };
        may_act(table, name)?;
        let ch = get_char(state, name);
        if !ch.types.iter().any(|t| t == type_name) {
            return refuse(
                "SG-4",
                format!("{type_name}は{name}の類型ではありません"),
                format!("'{type_name}' is not one of {name}'s types"),
            );
        }
        if !plain_target(target) {
            return Err(bad_target());
        }
        // SG-4 (l.52 「他のキャタクターに対する印象」, l.54 「他人に与える印象」): an
        // impression is what the bearer gives others (F7 of sg8).
        if target == name {
            return refuse(
                "SG-4",
                format!("印象効果は{name}が他者に与える印象です。{name}自身は対象にできません"),
                format!(
                    "an impression is what {name} gives others; {name} itself cannot be its target"
                ),
            );
        }
        let now = scene(table);
        if let Some((t, sc, forced)) = ch.impressions.get(*target)
            && *sc == now
            && t != type_name
        {
            let why = if *forced {
                ("縁故による", "a bond's forced")
            } else {
                ("宣言した", "a declared")
            };
            return refuse(
                "SG-4",
                format!(
                    "このシーンでは{target}に{why}{t}の印象が有効です（1シーン・1対象に1類型）",
                    why = why.0
                ),
                format!(
                    "{} impression of {t} is in effect on {target} this scene (one type per target per scene)",
                    why.1
                ),
            );
        }
        let mut evs = vec![Event::Impression {
            bearer: name.to_string(),
            target: target.to_string(),
            type_name: type_name.to_string(),
            scene: now,
            forced: false,
            secret: ch.hidden,
        }];
        // SG-4: a hidden bearer's impression on a PC: that PC's player is told the
        // impression, not the type.
        if ch.hidden && is_pc(table, target) {
            let text = state
                .types
                .get(type_name)
                .map(|t| t.impression.clone())
                .unwrap_or_default();
            evs.push(Event::Notice {
                ja: format!("SG-4: {target}が{name}に抱く印象: {text}（類型は秘匿）"),
                en: format!("SG-4: {target}'s impression of {name}: {text} (type hidden)"),
                to: Some(target.to_string()),
            });
        }
        events(evs)
    }

    fn boss_and_reveal(&self, state: &State, words: &[&str], table: &dyn TableView) -> Decided {
        match words {
            ["boss", name, "off"] => {
                gm(table, ("ラスボスの指定", "naming the last boss"))?;
                may_act(table, name)?;
                if !get_char(state, name).last_boss {
                    return refuse(
                        "SG-1",
                        format!("{name}はラスボスではありません"),
                        format!("{name} is not the last boss"),
                    );
                }
                // SG-1 (l.177): the climax bonds to the boss were tied under its waived
                // limits; taking the boss away mid-climax would leave them standing on
                // nothing (fc5).
                if state.climax {
                    return refuse(
                        "SG-1",
                        format!(
                            "クライマックス中です。{name}へのクライマックスの縁故はラスボスとして結ばれています。外すならセッションの終わり（/session end）の後か、先に /void で /sg climax を取り消してください"
                        ),
                        format!(
                            "the climax is under way, and the climax bonds to {name} were tied to it as the last boss; take it off after /session end, or /void the /sg climax first"
                        ),
                    );
                }
                events(vec![Event::Boss {
                    character: name.to_string(),
                    pc: is_pc(table, name),
                    off: true,
                }])
            }
            ["boss", name] => {
                gm(table, ("ラスボスの指定", "naming the last boss"))?;
                may_act(table, name)?;
                let pc = is_pc(table, name);
                if get_char(state, name).last_boss {
                    return refuse(
                        "SG-1",
                        format!("{name}はすでにラスボスです"),
                        format!("{name} is already the last boss"),
                    );
                }
                // l.175: in principle one NPC per session.
                if !pc
                    && let Some((other, _)) = state
                        .chars
                        .iter()
                        .find(|(n, c)| c.last_boss && !is_pc(table, n))
                {
                    return refuse(
                        "SG-1",
                        format!(
                            "ラスボスは原則セッションに一人のNPCだけです。すでに{other}がラスボスです（/sg boss {other} off で外せます）"
                        ),
                        format!(
                            "the last boss is in principle one NPC per session, and {other} already is (/sg boss {other} off removes it)"
                        ),
                    );
                }
                events(vec![Event::Boss {
                    character: name.to_string(),
                    pc,
                    off: false,
                }])
            }
            ["climax"] => {
                gm(table, ("クライマックスの開始", "starting the climax"))?;
                let Some((boss, ch)) = state
                    .chars
                    .iter()
                    .find(|(n, c)| c.last_boss && !is_pc(table, n))
                else {
                    // SG-1 (l.175 「原則的にセッションに一人のNPCのみに認められる」, l.177
                    // 「このNPCに対する縁故」, l.181): the climax's reveal and bonds are an
                    // NPC boss's; a PC the GM made the last boss has it public at once and
                    // no climax bonds (sg9 F6).
                    let pcs: Vec<&str> = state
                        .chars
                        .iter()
                        .filter(|(n, c)| c.last_boss && is_pc(table, n))
                        .map(|(n, _)| n.as_str())
                        .collect();
                    if !pcs.is_empty() {
                        let pcs = pcs.join("・");
                        return refuse(
                            "SG-1",
                            format!(
                                "ラスボスのNPCがいません。{pcs}はPCのラスボスで、類型はGMが認めた時点で公開済みです。クライマックスの公開と縁故（l.177 「このNPCに対する縁故」）はNPCのラスボスのものです（NPCなら /sg boss NPC）"
                            ),
                            format!(
                                "no NPC last boss: {pcs} is a PC the GM made the last boss, public since then; the climax's reveal and bonds (l.177, 'bonds to this NPC') are an NPC boss's (/sg boss NPC)"
                            ),
                        );
                    }
                    return refuse(
                        "SG-1",
                        "ラスボスがいません（/sg boss NPC）".into(),
                        "no last boss (name one with /sg boss NPC)".into(),
                    );
                };
                if state.climax {
                    return refuse(
                        "SG-1",
                        "クライマックスはもう始まっています".into(),
                        "the climax has already started".into(),
                    );
                }
                let mut evs = vec![Event::Climax {
                    boss: boss.clone(),
                    scene: Some(scene(table)),
                }];
                let mut order = state.order;
                // SG-1 (l.177) with SG-2 (l.106): the boss's climax bonds are outside its
                // 7-bond cap and its one new bond per scene only while the GM's waivers
                // are on; with one off, the boss ties what that limit leaves room for
                // and the GM is told which PCs it left out (sg9 F3).
                let s = &state.settings;
                let mut capped = ch
                    .bonds
                    .iter()
                    .filter(|b| !(b.preset || b.climax && s.boss_waive_bond_cap))
                    .count();
                let mut acquired = ch.acquired_in == Some(scene(table));
                let mut left_out = Vec::new();
                for (pc, _) in table.characters() {
                    // SG-1 (l.177) gives the boss a bond to every PC, but SG-2 (l.102–103)
                    // lets one target hold its bond under one type only: a PC it already
                    // holds a bond to keeps that bond, and the GM is told so to rule.
                    if let Some(b) = ch.bonds.iter().find(|b| b.target == pc)
                        && is_pc(table, pc)
                    {
                        evs.push(Event::Notice {
                            ja: format!(
                                "SG-1: {boss}はすでに{pc}に縁故（{} Lv{}）があるため、クライマックスの縁故は結びません（SG-2: 同じ対象には1つの類型だけ）。ラスボスの縁故にするなら /sg discard {boss} {pc} の後 /sg bond {boss} {LAST_BOSS} {pc}",
                                b.type_name, b.level
                            ),
                            en: format!(
                                "SG-1: {boss} already holds a bond to {pc} ({} Lv {}), so no climax bond is tied (SG-2: one type per target); for a last-boss bond, /sg discard {boss} {pc} then /sg bond {boss} {LAST_BOSS} {pc}",
                                b.type_name, b.level
                            ),
                            to: Some(boss.clone()),
                        });
                    }
                    if is_pc(table, pc) && !ch.bonds.iter().any(|b| b.target == pc) {
                        if !s.boss_waive_bond_cap && capped >= MAX_BONDS
                            || !s.boss_waive_scene_limit && acquired
                        {
                            left_out.push(pc.to_string());
                            continue;
                        }
                        if !s.boss_waive_bond_cap {
                            capped += 1;
                        }
                        if !s.boss_waive_scene_limit {
                            acquired = true;
                        }
                        evs.push(Event::Bonded {
                            character: boss.clone(),
                            bond: Bond {
                                target: pc.to_string(),
                                kind: Target::Character,
                                pc: true,
                                type_name: LAST_BOSS.to_string(),
                                level: 1,
                                scene: scene(table),
                                order,
                                preset: false,
                                climax: true,
                            },
                            retie: false,
                            secret: false,
                        });
                        order += 1;
                    }
                }
                if !left_out.is_empty() {
                    let pcs = left_out.join("・");
                    let off: Vec<&str> = [
                        (!s.boss_waive_bond_cap).then_some("boss_waive_bond_cap off"),
                        (!s.boss_waive_scene_limit).then_some("boss_waive_scene_limit off"),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    let off = off.join(", ");
                    evs.push(Event::Notice {
                        ja: format!(
                            "SG-1/SG-2: {off} のため、{boss}は{pcs}へのクライマックスの縁故を結ばない（縁故は7つまで・新しい縁故は1シーンに1つ、l.106）"
                        ),
                        en: format!(
                            "SG-1/SG-2: with {off}, {boss} ties no climax bond to {pcs} (at most 7 bonds, one new bond per scene, l.106)"
                        ),
                        to: Some(boss.clone()),
                    });
                }
                events(evs)
            }
            ["reveal" | "hide", name] => {
                may_act(table, name)?;
                // SG-6: an NPC's types are the GM's; a PC's are public among PCs unless
                // the GM hides them (a PC-vs-PC session, l.91–92).
                if !is_pc(table, name) || words[0] == "hide" {
                    gm(
                        table,
                        (
                            "類型の秘匿（PCはGMの判断）・NPCの類型の公開",
                            "hiding types (a PC's at the GM's call) and revealing an NPC's",
                        ),
                    )?;
                }
                let hide = words[0] == "hide";
                let ch = get_char(state, name);
                // SG-6 (l.91–92): hiding works from now on. Types chosen (or revealed)
                // while public are already in the log for everyone: the GM is told so.
                let reply = (hide && !ch.hidden && !ch.types.is_empty()).then(|| {
                    let types = ch.types.join("・");
                    Text::new(
                        format!(
                            "SG-6: {name}の類型（{types}）はすでに公開の行で示されています。秘匿はこれから先の行にだけ効き、前の行は見えたままです（最初から秘匿するなら /sg choose の前に /sg hide {name}）"
                        ),
                        format!(
                            "SG-6: {name}'s types ({types}) were already shown in a public line. Hiding applies to the lines from now on; earlier lines stay visible (to hide them from the start, /sg hide {name} before /sg choose)"
                        ),
                    )
                });
                Ok(Outcome {
                    events: vec![Event::Hidden {
                        character: name.to_string(),
                        hidden: hide,
                        npc: !is_pc(table, name),
                    }],
                    reply,
                })
            }
            // SG-1 (l.179): the last boss's special spell cards, once its type is plain:
            // an NPC's at the climax, a PC's as soon as the GM gives it.
            ["spell", name, card] => {
                may_act(table, name)?;
                let ch = get_char(state, name);
                let plain = ch.last_boss && (state.climax || is_pc(table, name));
                if !plain {
                    return refuse(
                        "SG-1",
                        format!(
                            "特殊なスペルカードは、類型「{LAST_BOSS}」が明示されたキャラクターだけが使えます（NPCはクライマックスで明かされてから）"
                        ),
                        format!(
                            "special spell cards are for a character whose {LAST_BOSS} type is made plain (an NPC's once the climax reveals it)"
                        ),
                    );
                }
                let Some(c) = state.types.spell_card(card) else {
                    return refuse(
                        "SG-1",
                        format!("スペルカード「{card}」はデータにありません（/sg spells で一覧）"),
                        format!("no spell card '{card}' in the data (/sg spells lists them)"),
                    );
                };
                events(vec![Event::SpellCard {
                    character: name.to_string(),
                    card: c.name.clone(),
                    text: c.text.clone(),
                }])
            }
            ["spells"] => {
                let cards: Vec<String> = state
                    .types
                    .spell_cards
                    .iter()
                    .map(|c| format!("{} — {}", c.name, c.text))
                    .collect();
                let originals: Vec<String> = state
                    .types
                    .originals
                    .iter()
                    .map(|o| format!("{}: {}", o.name, o.types.join("・")))
                    .collect();
                let list = |v: &[String]| {
                    if v.is_empty() {
                        "（なし / none）".to_string()
                    } else {
                        v.join("\n  ")
                    }
                };
                Ok(Outcome {
                    events: Vec::new(),
                    reply: Some(Text::new(
                        format!(
                            "特殊なスペルカード（SG-1、ラスボスのみ。GMのデータ）:\n  {}\n原作キャラクター類型表（SG-1、/sg choose 名前 original=…）:\n  {}",
                            list(&cards),
                            list(&originals)
                        ),
                        format!(
                            "Special spell cards (SG-1, last boss only; the GM's data):\n  {}\nOriginal-work presets (SG-1, /sg choose NAME original=…):\n  {}",
                            list(&cards),
                            list(&originals)
                        ),
                    )),
                })
            }
            ["original", name, on @ ("on" | "off")] => {
                gm(
                    table,
                    (
                        "原作キャラクターの指定",
                        "marking an original-work character",
                    ),
                )?;
                may_act(table, name)?;
                events(vec![Event::OriginalWork {
                    character: name.to_string(),
                    on: *on == "on",
                }])
            }
            _ => Err(usage(
                "/sg boss 影 [off] | /sg climax | /sg reveal 影 | /sg hide 影 | /sg original ミナ on",
            )),
        }
    }

    /// SG-8: the contest procedure (see [`super::procedure`]).
    fn procedure(
        &self,
        state: &State,
        words: &[&str],
        table: &dyn TableView,
        dice: &mut Roller<'_>,
    ) -> Decided {
        use super::procedure::{self as p, Side};
        let tie = state.settings.contest_tie;
        let order = || {
            Text::new(
                "SG-8: 順番は ①/sg attack ②/sg effect attacker ③④/sg defend ⑤/sg effect defender ⑥⑦/sg resolve です",
                "SG-8: the order is (1) /sg attack (2) /sg effect attacker (3)(4) /sg defend (5) /sg effect defender (6)(7) /sg resolve",
            )
        };
        let bad_modifier = |w: &str| {
            Text::new(
                format!(
                    "SG-8: 「{w}」は修正値ではありません（−1000〜+1000の整数。例: +2、SGS+2、修正なしは +0）"
                ),
                format!(
                    "SG-8: '{w}' is not a modifier (a whole number from −1000 to +1000, e.g. +2, SGS+2; none is +0)"
                ),
            )
        };
        // SG-8 (l.198–201, l.211): the defender's re-roll and the fixing of its value
        // (steps 6–7) belong to whoever rolled the defence, or the GM.
        let defender_side = |c: &p::Contest| {
            if table.actor_is_gm() || c.defender_by.is_empty() || c.defender_by == table.actor() {
                Ok(())
            } else {
                Err(Text::new(
                    format!(
                        "SG-8: 防御側の振り直し（l.211）と⑥⑦の確定は、防御を振った{}かGMが行います",
                        c.defender_by
                    ),
                    format!(
                        "SG-8: the defender's re-roll (l.211) and steps (6)(7) are for {}, who rolled the defence, or the GM",
                        c.defender_by
                    ),
                ))
            }
        };
        // SG-8 (l.195, l.198; sg9 F1, F2): `/sg attack 影 +{知性}+{交渉}` names whose
        // roll it is, and the modifier may read that character's values, as a chat roll
        // and `/sg disguise` do. A value written without a name is refused, saying so.
        let named: Vec<String>;
        let named_words: Vec<&str>;
        let words = match words {
            [verb @ ("attack" | "defend"), name, m] => {
                may_act(table, name)?;
                let m = m
                    .get(..3)
                    .filter(|p| p.eq_ignore_ascii_case("SGS"))
                    .map_or(*m, |_| &m[3..]);
                let m = if m.is_empty() { "+0" } else { m };
                let v = modifier(table, name, m)?;
                named = vec![verb.to_string(), format!("{v:+}")];
                named_words = named.iter().map(String::as_str).collect();
                &named_words[..]
            }
            [verb @ ("attack" | "defend"), m] if m.contains('{') => {
                return Err(Text::new(
                    format!(
                        "SG-8: 「{m}」の値を読むキャラクターを書いてください: /sg {verb} ミナ {m}"
                    ),
                    format!(
                        "SG-8: name the character whose values '{m}' reads: /sg {verb} NAME {m}"
                    ),
                ));
            }
            _ => words,
        };
        match (words, &state.contest) {
            (["attack", m], None) => {
                let m = p::modifier(m).ok_or_else(|| bad_modifier(m))?;
                let dice = p::roll(m, dice)?;
                events(vec![Event::ContestAttack {
                    side: Side {
                        modifier: m,
                        dice,
                        effects: Vec::new(),
                    },
                }])
            }
            (["attack", ..], Some(_)) => Err(Text::new(
                "SG-8: 対抗判定が進行中です。/sg resolve で結果を出してください",
                "SG-8: a contest is under way; /sg resolve it first",
            )),
            (["effect", side, n, what @ ..], Some(c)) => {
                let attacker = match *side {
                    "attacker" | "攻撃側" => true,
                    "defender" | "防御側" => false,
                    _ => return Err(usage("/sg effect attacker|defender +1 [効果名]")),
                };
                // Step 2 before the attacker's value is fixed; step 5 after the
                // defender rolled.
                if attacker == c.defender.is_some() {
                    return Err(Text::new(
                        if attacker {
                            "SG-8: 攻撃側の達成値はもう確定しています（③）"
                        } else {
                            "SG-8: 防御側はまだ振っていません（④ /sg defend）"
                        },
                        if attacker {
                            "SG-8: the attacker's value is already fixed (3)"
                        } else {
                            "SG-8: the defender has not rolled yet ((4) /sg defend)"
                        },
                    ));
                }
                let n = p::modifier(n).ok_or_else(|| bad_modifier(n))?;
                if n == 0 {
                    return Err(Text::new(
                        "SG-8: 効果の修正が0では何も変わりません（達成値を上げる +n か下げる −n）",
                        "SG-8: an effect of 0 changes nothing (+n raises a value, −n lowers it)",
                    ));
                }
                let what: String = what.join(" ").chars().take(40).collect();
                // SG-8 (l.211): say at once when this effect turns the defender's success
                // into a failure, so the re-roll is offered before the result.
                let mut after = c.clone();
                if let (false, Some(d)) = (attacker, after.defender.as_mut()) {
                    d.effects.push((n, what.clone()));
                }
                let offers_reroll = !attacker
                    && state.settings.leniency_reroll
                    && !c.rerolled
                    && !p::lowering_flipped(c, tie)
                    && p::lowering_flipped(&after, tie);
                events(vec![Event::ContestEffect {
                    attacker,
                    n,
                    what,
                    offers_reroll,
                }])
            }
            (["attack" | "defend"], _) => Err(Text::new(
                format!(
                    "SG-8: /sg {} の修正値がありません（例: /sg {} +2、修正なしは +0）",
                    words[0], words[0]
                ),
                format!(
                    "SG-8: /sg {} needs a modifier (e.g. /sg {} +2; none is +0)",
                    words[0], words[0]
                ),
            )),
            (["defend", m], Some(c)) if c.defender.is_none() => {
                // SG-8 (l.195, l.198): the attacker rolls, then the defender: one who
                // rolled the attack does not roll the defence too (the GM, who plays
                // every NPC, may).
                if !table.actor_is_gm() && c.attacker_by == table.actor() {
                    return Err(Text::new(
                        "SG-8: ④は防御側が振ります。攻撃を振った人は防御を振れません（防御側のプレイヤーかGMが /sg defend）",
                        "SG-8: step (4) is the defender's roll; whoever rolled the attack does not roll the defence (the defending player or the GM: /sg defend)",
                    ));
                }
                let m = p::modifier(m).ok_or_else(|| bad_modifier(m))?;
                let dice = p::roll(m, dice)?;
                events(vec![Event::ContestDefend {
                    side: Side {
                        modifier: m,
                        dice,
                        effects: Vec::new(),
                    },
                }])
            }
            (["reroll", rest @ ..], Some(c))
                if c.defender.is_some()
                    && (rest.is_empty()
                        || !state.settings.reroll_keeps_modifier && rest.len() == 1) =>
            {
                defender_side(c)?;
                if !state.settings.leniency_reroll {
                    return Err(Text::new(
                        "SG-8: 寛容な振り直しは設定で切られています（leniency_reroll off）",
                        "SG-8: the leniency re-roll is off (leniency_reroll off)",
                    ));
                }
                if c.rerolled {
                    return Err(Text::new(
                        "SG-8: 振り直しはこの対抗判定で一度だけです",
                        "SG-8: the re-roll is once per contest",
                    ));
                }
                if !p::lowering_flipped(c, tie) {
                    return Err(Text::new(
                        "SG-8: 振り直しは、達成値低下効果で防御成功が防御失敗に変わったときだけです（l.211）",
                        "SG-8: the re-roll is only when a lowering effect turned the defender's success into a failure (l.211)",
                    ));
                }
                // SG-8 (l.198 「防御側がダイスを振る(DP使用量もこのときに決める)」, l.210–211):
                // the re-roll is step 4 again; under `reroll_modifier new` (default) the
                // defender may choose its modifier again with it.
                let new = match rest.first() {
                    Some(w) => Some(p::modifier(w).ok_or_else(|| bad_modifier(w))?),
                    None => None,
                };
                let mut again = c.defender.clone().unwrap_or_default();
                let m = new.unwrap_or(again.modifier);
                let dice = p::roll(m, dice)?;
                again.dice = dice.clone();
                again.modifier = m;
                events(vec![Event::ContestReroll {
                    dice,
                    value: again.value(),
                    modifier: new,
                }])
            }
            // SG-8 (l.211): the re-roll is of the dice; the defender's modifier stays as
            // rolled at step 4 (F4 of sg8: a modifier here was refused with the order).
            (["reroll", _, ..], Some(c)) if c.defender.is_some() => {
                let m = c.defender.as_ref().map_or(0, |d| d.modifier);
                let m = taku_dice::system_command::format_modifier(m);
                let m = if m.is_empty() { "+0".to_string() } else { m };
                Err(Text::new(
                    format!(
                        "SG-8: /sg reroll は修正値を取りません（卓の設定 reroll_modifier keep）。振り直すのはダイスで、防御側の修正値（{m}）と効果はそのままです: /sg reroll"
                    ),
                    format!(
                        "SG-8: /sg reroll takes no modifier (the table's reroll_modifier keep); the dice are rolled again, the defender's modifier ({m}) and effects stay: /sg reroll"
                    ),
                ))
            }
            (["resolve", rest @ ..], Some(c)) if rest.is_empty() || rest == ["keep"] => {
                if c.defender.is_some() {
                    defender_side(c)?;
                }
                // SG-8 (l.211): the re-roll the seed recommends is offered, not skipped
                // by accident: the result waits for /sg reroll or an explicit `keep`.
                if rest.is_empty()
                    && state.settings.leniency_reroll
                    && !c.rerolled
                    && p::lowering_flipped(c, tie)
                {
                    return Err(Text::new(
                        "SG-8: 達成値低下効果で防御成功が防御失敗に変わりました。寛容な振り直し（l.211）: 防御側は /sg reroll で振り直せます。振り直さずに結果を出すなら /sg resolve keep",
                        "SG-8: a lowering effect turned the defender's success into a failure. Leniency (l.211): the defender may re-roll with /sg reroll; to judge without it, /sg resolve keep",
                    ));
                }
                let Some(d) = &c.defender else {
                    return Err(Text::new(
                        "SG-8: 防御側がまだ振っていません（④ /sg defend +n）",
                        "SG-8: the defender has not rolled yet ((4) /sg defend +n)",
                    ));
                };
                let (a, d) = (c.attacker.value(), d.value());
                events(vec![Event::ContestResolved {
                    attacker: a,
                    defender: d,
                    attacker_wins: p::judge(a, d, tie),
                }])
            }
            (_, None) => Err(Text::new(
                "SG-8: 進行中の対抗判定はありません。/sg attack +n で始めます",
                "SG-8: no contest under way; start one with /sg attack +n",
            )),
            _ => Err(order()),
        }
    }

    /// SG-6: the information-gathering target for `pc` finding `npc`'s type, and the
    /// type the basis points at (`None`: all). `keywords` is the GM's 14–16 and the type
    /// the keywords talked about concern (l.76 「対応する類型について」).
    pub fn discovery_target(
        state: &State,
        pc: &str,
        npc: &str,
        via: Option<&str>,
        keywords: Option<(i64, String)>,
    ) -> (i64, Option<String>, &'static str) {
        let n = state.chars.get(npc).cloned().unwrap_or_default();
        if let Some(b) = n
            .bonds
            .iter()
            .find(|b| b.target == pc && b.type_name != LAST_BOSS)
        {
            return (14, Some(b.type_name.clone()), "縁故の対象");
        }
        if let Some((k, t)) = keywords {
            return (k, Some(t), "キーワード");
        }
        if let Some(v) = via
            && let Some(b) = n
                .bonds
                .iter()
                .find(|b| b.target == v && b.type_name != LAST_BOSS)
        {
            return (16, Some(b.type_name.clone()), "縁故先からの情報");
        }
        (20, None, "名前・顔のみ")
    }

    fn discover(
        &self,
        state: &State,
        words: &[&str],
        table: &dyn TableView,
        dice: &mut Roller<'_>,
    ) -> Decided {
        let [_, pc, npc, rest @ ..] = words else {
            return Err(usage(
                "/sg discover ミナ 影 [via=ロイ] [keywords=15 about=類型] [roll +3]",
            ));
        };
        may_act(table, pc)?;
        if table.character(npc).is_none() {
            return Err(Text::new(
                format!("「{npc}」というキャラクターはいません"),
                format!("no character named '{npc}'"),
            ));
        }
        if pc == npc {
            return refuse(
                "SG-6",
                format!("{pc}は自分の類型を知っています"),
                format!("{pc} knows its own types"),
            );
        }
        // SG-6 (l.91): among PCs types are public, unless the GM hid them.
        if is_pc(table, pc) && is_pc(table, npc) && !get_char(state, npc).hidden {
            return refuse(
                "SG-6",
                format!(
                    "PC間では類型は公開情報です。{npc}の類型は /char show {npc} で見られます（GMが /sg hide {npc} で秘匿した場合だけ調べます）"
                ),
                format!(
                    "among PCs types are public: /char show {npc} shows them (they are looked into only when the GM hid them with /sg hide {npc})"
                ),
            );
        }
        // SG-6: an NPC whose types the GM revealed (`/sg reveal`) has nothing left to
        // find; the reveal was public, so saying so tells nothing new.
        if !is_pc(table, npc)
            && state
                .chars
                .get(*npc)
                .is_some_and(|c| !c.hidden && !c.types.is_empty())
        {
            return refuse(
                "SG-6",
                format!(
                    "{npc}の類型は公開されています（/char show {npc}）。調べる判定は要りません"
                ),
                format!(
                    "{npc}'s types are public (/char show {npc}); there is nothing to look into"
                ),
            );
        }
        let mut via = None;
        let mut keywords = None;
        let mut about = None;
        let mut roll = None;
        let mut i = 0;
        while i < rest.len() {
            if let Some(v) = rest[i].strip_prefix("via=") {
                // SG-6: whether the target holds a bond to that NPC is hidden information
                // (l.67); a player learning 16 or 20 would learn it without a roll.
                gm(
                    table,
                    (
                        "via= による目標値（縁故先からの情報）",
                        "a via= target (information from one the NPC bonds)",
                    ),
                )?;
                via = Some(v);
            } else if let Some(k) = rest[i].strip_prefix("keywords=") {
                gm(table, ("キーワードによる目標値", "a keywords= target"))?;
                keywords = Some(
                    taku_dice::normalize::fold(k)
                        .text
                        .parse::<i64>()
                        .ok()
                        .filter(|k| (14..=16).contains(k))
                        .ok_or_else(|| {
                            Text::new(
                                "SG-6: keywords= は14〜16です",
                                "SG-6: keywords= is 14 to 16",
                            )
                        })?,
                );
            } else if let Some(a) = rest[i].strip_prefix("about=") {
                gm(
                    table,
                    (
                        "about=（キーワードが関わる類型・縁故）",
                        "about= (the type or bond the keywords concern)",
                    ),
                )?;
                about = Some(a);
            } else if rest[i] == "roll" {
                let m = match rest.get(i + 1) {
                    None => 0,
                    Some(w) => modifier(table, pc, w)?,
                };
                roll = Some(m);
                i += 1;
            } else {
                return Err(usage(
                    "/sg discover ミナ 影 [via=ロイ] [keywords=15 about=類型] [roll +3]",
                ));
            }
            i += 1;
        }
        let n = get_char(state, npc);
        // SG-6 (l.76 「縁故に関連するキーワードについて話題になった:対応する類型について、
        // 目標値14~16」): the keywords concern one bond, so one type; the GM names it (or
        // the bond's target), and 14–16 finds that type only.
        let keywords = match (keywords, about) {
            (None, None) => None,
            (None, Some(_)) => {
                return refuse(
                    "SG-6",
                    "about= は keywords= と一緒に、キーワードが関わる類型か縁故先を指します（例: keywords=15 about=村）".into(),
                    "about= goes with keywords= and names the type or bond the keywords concern (e.g. keywords=15 about=village)".into(),
                );
            }
            (Some(_), None) => {
                return refuse(
                    "SG-6",
                    format!(
                        "キーワードの目標値14〜16は対応する類型についてだけです。about= で{npc}の類型か縁故先を添えてください（例: keywords=15 about=類型）"
                    ),
                    format!(
                        "the keywords' target 14–16 is for the corresponding type only; add about= naming one of {npc}'s types or bond targets (e.g. keywords=15 about=TYPE)"
                    ),
                );
            }
            (Some(k), Some(a)) => {
                let folded = a.replace('\u{FF65}', "・");
                let t = if n.types.contains(&folded) {
                    folded
                } else if let Some(b) = n
                    .bonds
                    .iter()
                    .find(|b| b.target == a && b.type_name != LAST_BOSS)
                {
                    b.type_name.clone()
                } else {
                    let types = if n.types.is_empty() {
                        "（未選択）".to_string()
                    } else {
                        n.types.join("・")
                    };
                    return refuse(
                        "SG-6",
                        format!(
                            "「{a}」は{npc}の類型（{types}）でも縁故先でもありません。about= にはキーワードが関わる類型か縁故先を書いてください"
                        ),
                        format!(
                            "'{a}' is neither one of {npc}'s types ({types}) nor a bond target of it; about= names the type or bond the keywords concern"
                        ),
                    );
                };
                Some((k, t))
            }
        };
        // SG-6 (l.75 「対象のNPCが縁故を持っているNPCから情報を得た」): the informant is an
        // NPC the target holds a bond to; anything else is said, not dropped.
        if let Some(v) = via {
            if is_pc(table, v) {
                return refuse(
                    "SG-6",
                    format!(
                        "via= は対象が縁故を持つNPCからの情報です。{v}はPCです（{npc}が縁故を結んだPC自身が調べるなら、目標値は14になります）"
                    ),
                    format!(
                        "via= is information from an NPC the target holds a bond to; {v} is a PC (a PC {npc} holds a bond to gets 14 by looking itself)"
                    ),
                );
            }
            if !n
                .bonds
                .iter()
                .any(|b| b.target == v && b.type_name != LAST_BOSS)
            {
                return refuse(
                    "SG-6",
                    format!(
                        "{npc}は{v}に縁故を結んでいません。via= は{npc}の縁故先のNPCです（それ以外からの情報なら via= なしで目標値20）"
                    ),
                    format!(
                        "{npc} holds no bond to {v}; via= names an NPC {npc} holds a bond to (other information: leave via= out, target 20)"
                    ),
                );
            }
        }
        let (mut target, basis_type, mut basis) =
            Self::discovery_target(state, pc, npc, via, keywords);
        // SG-6 (l.88): a PC that hid its types set the target with its own check.
        if let Some(t) = n.concealed {
            target = t;
            basis = "類型を隠す判定";
        }
        let Some(m) = roll else {
            // SG-6 (l.78–81): a disguise turns the check into a contest. A player told a
            // target for one NPC and none for another would know which disguises, so a
            // player is told no target at all (the item is the GM's, l.67); the GM sees
            // the target or the contest.
            let said = if !table.actor_is_gm() {
                Text::new(
                    format!(
                        "SG-6: {pc}が{npc}の類型を調べる判定（何と比べるかはGMの情報項目、SG-6 l.67）: /sg discover {pc} {npc} roll +技能"
                    ),
                    format!(
                        "SG-6: {pc} looks into {npc}'s type (what it is measured against is the GM's information item, SG-6 l.67): /sg discover {pc} {npc} roll +SKILL"
                    ),
                )
            } else if let Some(d) = n.disguise {
                Text::new(
                    format!(
                        "SG-6: {npc}は類型をごまかしています: {npc}の{{知性}}+〈交渉〉{}との対抗判定（目標値{target}の代わり）。判定: /sg discover {pc} {npc} roll +技能",
                        taku_dice::system_command::format_modifier(d)
                    ),
                    format!(
                        "SG-6: {npc} disguises its types: a contest against its {{知性}}+〈交渉〉 {} (instead of target {target}). Check: /sg discover {pc} {npc} roll +SKILL",
                        taku_dice::system_command::format_modifier(d)
                    ),
                )
            } else {
                Text::new(
                    format!(
                        "SG-6: {pc}が{npc}の類型を調べる目標値は{target}（{basis}）。判定: /sg discover {pc} {npc} roll +技能"
                    ),
                    format!(
                        "SG-6: {pc}'s target to find {npc}'s type is {target}. Check: /sg discover {pc} {npc} roll +SKILL"
                    ),
                )
            };
            return Ok(Outcome {
                events: Vec::new(),
                reply: Some(said),
            });
        };
        let r = check::roll(m, dice).map_err(|e| e.text())?;
        let mut text = format!(
            "(3D6{}>={target}) ＞ {}",
            taku_dice::system_command::format_modifier(m),
            check::body(m, &r),
        );
        let mut success = r.total >= target;
        let mut contest = false;
        // What the PC's player sees of a contest: their own roll and the outcome, not
        // that it was a contest nor the NPC's {知性}+〈交渉〉 (the disguise is the GM's).
        let mut player_roll = format!(
            "(3D6{}) ＞ {}",
            taku_dice::system_command::format_modifier(m),
            check::body(m, &r)
        );
        let mut mine_total = r.total;
        // SG-6 (l.78–79): against a disguising NPC, a contest with its {知性}+〈交渉〉:
        // the higher total wins; a tie as `contest_tie` says (the NPC defends).
        if let Some(d) = n.disguise {
            contest = true;
            let mut mine = r.clone();
            let mut theirs = check::roll(d, dice).map_err(|e| e.text())?;
            text = format!(
                "(3D6{}) ＞ {} VS {npc}の偽装 (3D6{}) ＞ {}",
                taku_dice::system_command::format_modifier(m),
                check::body(m, &mine),
                taku_dice::system_command::format_modifier(d),
                check::body(d, &theirs),
            );
            let mut rounds = 1;
            while mine.total == theirs.total
                && state.settings.contest_tie == Tie::Reroll
                && rounds < 100
            {
                mine = check::roll(m, dice).map_err(|e| e.text())?;
                theirs = check::roll(d, dice).map_err(|e| e.text())?;
                text.push_str(&format!(
                    " ／ 振り直し {} VS {}",
                    check::body(m, &mine),
                    check::body(d, &theirs)
                ));
                rounds += 1;
            }
            // SG-6/SG-8 (l.79 names no sides; l.213 「攻撃側・防御側が不明確な場合、PCと
            // NPCであれば、PCを防御側とする」): the PC defends (`disguise_defender pc`,
            // default) or the NPC does (`npc`); the tie goes as `contest_tie` says, and
            // the line says so (sg9 F8).
            let pc_defends = !state.settings.disguise_npc_defends;
            let pc_wins_tie = match state.settings.contest_tie {
                Tie::Defender | Tie::Reroll => pc_defends,
                Tie::Attacker => !pc_defends,
            };
            if mine.total == theirs.total {
                let side = if pc_defends {
                    "PCが防御側"
                } else {
                    "NPCが防御側"
                };
                let winner = if pc_wins_tie { pc } else { npc };
                let setting = tie_word(state.settings.contest_tie);
                text.push_str(&format!(
                    " ／ 同値（{side}、contest_tie {setting}: {winner}の勝ち）"
                ));
            }
            success = mine.total > theirs.total || (mine.total == theirs.total && pc_wins_tie);
            target = theirs.total;
            mine_total = mine.total;
            player_roll = format!(
                "(3D6{}) ＞ {}",
                taku_dice::system_command::format_modifier(m),
                check::body(m, &mine)
            );
        }
        text.push_str(if success {
            " ＞ 成功"
        } else {
            " ＞ 失敗"
        });
        // SG-6: a lowered target finds the matching type; a roll that also reaches the
        // item's general target (20) finds every type, in a contest too (a disguise
        // that changed what a success finds would show through it).
        let learned = if !success {
            Vec::new()
        } else if mine_total >= 20 {
            n.types.clone()
        } else {
            match basis_type {
                Some(t) => vec![t],
                None => n.types.clone(),
            }
        };
        // SG-6 (l.78–79): the check itself is the GM's (Audience::Gm), since a contest
        // shows the NPC's disguise; the PC's player is told their roll and what it
        // found, in the same shape whether or not the NPC disguised.
        let l = if learned.is_empty() {
            String::new()
        } else {
            format!(" → {}", learned.join("・"))
        };
        // The player's notice has one shape, contest or not: their roll, the outcome
        // and what it found, no target (F1 of sg7: a target shown only without a
        // disguise told which NPC disguises).
        let (outcome, outcome_en) = if success {
            ("成功", "success")
        } else {
            ("失敗", "failure")
        };
        let notice = Event::Told {
            pc: pc.to_string(),
            ja: format!("SG-6: {pc}が{npc}の類型を調べた {player_roll} ＞ {outcome}{l}"),
            en: format!(
                "SG-6: {pc} looked into {npc}'s type {} ＞ {outcome_en}{l}",
                check::english(&player_roll)
            ),
        };
        events(vec![
            Event::Discovery {
                pc: pc.to_string(),
                npc: npc.to_string(),
                target,
                total: r.total,
                text,
                learned,
                contest,
            },
            notice,
        ])
    }

    /// SG-6: `/sg disguise 影 +5` (GM): the NPC disguises its types with its
    /// {知性}+〈交渉〉; `/sg disguise 影 off`. `/sg conceal ミナ +4`: a PC hides its
    /// types, its {知性}+〈交渉〉 check setting the target.
    fn hide_types(
        &self,
        state: &State,
        words: &[&str],
        table: &dyn TableView,
        dice: &mut Roller<'_>,
    ) -> Decided {
        match words {
            ["disguise", name, m] => {
                gm(
                    table,
                    (
                        "SG-6 NPCの類型のごまかし",
                        "SG-6 an NPC disguising its types",
                    ),
                )?;
                may_act(table, name)?;
                let modifier = if *m == "off" {
                    None
                } else {
                    Some(modifier(table, name, m)?)
                };
                events(vec![Event::Disguise {
                    character: name.to_string(),
                    modifier,
                }])
            }
            ["conceal", name, m] => {
                may_act(table, name)?;
                if !is_pc(table, name) {
                    return refuse(
                        "SG-6",
                        "類型を隠す判定はPCのものです。NPCは /sg disguise（GM）".into(),
                        "hiding types with a check is for PCs; an NPC disguises with /sg disguise (GM)".into(),
                    );
                }
                let m = modifier(table, name, m)?;
                let r = check::roll(m, dice).map_err(|e| e.text())?;
                let _ = state;
                events(vec![Event::Concealed {
                    character: name.to_string(),
                    text: format!(
                        "(3D6{}) ＞ {}",
                        taku_dice::system_command::format_modifier(m),
                        check::body(m, &r)
                    ),
                    total: r.total,
                }])
            }
            _ => Err(usage(
                "/sg disguise 影 +5 | /sg disguise 影 off | /sg conceal ミナ +4",
            )),
        }
    }
}

/// A check's modifier as typed: whole numbers and `{KEY}` references to `name`'s fields
/// (`+{知性}+{交渉}`, `+3`), added up.
fn modifier(table: &dyn TableView, name: &str, word: &str) -> Result<i64, Text> {
    let bad = || {
        Text::new(
            format!(
                "「{word}」は修正値ではありません（例: +3、+{{幻想知識}}、+{{知性}}+{{交渉}}）"
            ),
            format!("'{word}' is not a modifier (e.g. +3, +{{幻想知識}}, +{{知性}}+{{交渉}})"),
        )
    };
    let folded = taku_dice::normalize::fold(word).text;
    let mut total: i64 = 0;
    let mut rest = folded.as_str();
    if rest.is_empty() || rest.chars().count() > 200 {
        return Err(bad());
    }
    while !rest.is_empty() {
        let (sign, after) = match rest.as_bytes()[0] {
            b'+' => (1, &rest[1..]),
            b'-' => (-1, &rest[1..]),
            _ if total == 0 => (1, rest),
            _ => return Err(bad()),
        };
        let end = after.find(['+', '-']).unwrap_or(after.len());
        let term = &after[..end];
        let value = if let Some(key) = term.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            let fields = table.character(name).map(|(_, f)| f);
            let v = fields.and_then(|f| f.get(key)).ok_or_else(|| {
                Text::new(
                    format!("{name}には「{key}」がありません（/char set {name} {key} 値）"),
                    format!("{name} has no '{key}' (/char set {name} {key} VALUE)"),
                )
            })?;
            v.trim().parse::<i64>().map_err(|_| bad())?
        } else {
            term.parse::<i64>().map_err(|_| bad())?
        };
        total = value
            .checked_mul(sign)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(|| out_of_range(word, None))?;
        rest = &after[end..];
    }
    // SG-8's range of a modifier, as `/sg attack` takes it: said as a range, with the sum
    // a sheet's values made (F9 of sg8: 「修正値ではありません」 for `+{知性}+{交渉}`).
    if total.abs() > super::MODIFIER_LIMIT {
        return Err(out_of_range(word, Some(total)));
    }
    Ok(total)
}

/// A modifier past SG-8's −1000 to +1000, with what `word` came to when it was a sum.
fn out_of_range(word: &str, total: Option<i64>) -> Text {
    let (is_ja, is_en) = match total {
        Some(t) if t.to_string() != word.trim_start_matches('+') => {
            (format!("（{word} = {t}）"), format!(" ({word} = {t})"))
        }
        _ => (String::new(), String::new()),
    };
    Text::new(
        format!("SG-8: 修正値は−1000〜+1000の整数です{is_ja}"),
        format!("SG-8: a modifier is a whole number from −1000 to +1000{is_en}"),
    )
}

/// Whether `later` rests on the earlier `undone` (see [`SgRules::builds_on`]), and how.
/// The words name only what the later entry's audience sees (the table names the
/// later entry only to members who may see it).
fn sg_rests_on(later: &Event, undone: &Event) -> Option<Text> {
    match (later, undone) {
        // SG-3 (l.20, once a session), SG-5: a use whose scene (or session) has ended
        // stands; the GM may void it.
        (
            Event::UsesSettled { uses, .. },
            Event::AbilityUsed {
                character,
                type_name,
                ability,
                ..
            },
        ) if uses
            .iter()
            .any(|(c, k)| c == character && *k == format!("{type_name}/{ability}")) =>
        {
            Some(Text::new(
                format!(
                    "SG-3: {character}の{ability}を使ったシーンは終わっています（使用は確定。GMは /void できます）"
                ),
                format!(
                    "SG-3: the scene in which {character} used {ability} has ended (the use stands; the GM can /void it)"
                ),
            ))
        }
        (
            Event::SessionReset { .. },
            Event::AbilityUsed {
                character, ability, ..
            },
        ) => Some(Text::new(
            format!("SG-3: {character}が{ability}を使ったセッションは終わっています"),
            format!("SG-3: the session in which {character} used {ability} has ended"),
        )),
        // SG-1 (l.177): a PC's climax bond to the boss was tied under the climax's
        // waiver of the level limit and the scene's one new bond; taking the climax back
        // from under it would leave a bond no rule allows.
        (
            Event::Bonded {
                character,
                bond,
                retie: false,
                ..
            },
            Event::Climax { .. },
        ) if bond.climax => Some(Text::new(
            format!(
                "SG-1: {character}の{}への縁故はクライマックスの間に（レベルの制限なしで）結ばれました",
                bond.target
            ),
            format!(
                "SG-1: {character}'s bond to {} was tied in the climax (with no level limit)",
                bond.target
            ),
        )),
        // SG-1/SG-2: a bond tied under one of the types chosen.
        (
            Event::Bonded {
                character,
                bond,
                retie: false,
                ..
            },
            Event::TypesChosen {
                character: c,
                types,
                ..
            },
        ) if c == character && types.contains(&bond.type_name) => Some(Text::new(
            format!(
                "SG-1/SG-2: {character}の{}への縁故はこの類型の選択の上に結ばれました",
                bond.target
            ),
            format!(
                "SG-1/SG-2: {character}'s bond to {} was tied under the types this chose",
                bond.target
            ),
        )),
        // SG-2: the GM already decided this proposal.
        (
            Event::ProposalClosed {
                character,
                target,
                approved,
                ..
            },
            Event::Proposed { proposal, .. },
        ) if proposal.character == *character && proposal.target == *target => Some(if *approved {
            Text::new(
                format!(
                    "SG-2: GMが{character}の{target}への申請を承認済みです（縁故を外すには /sg discard）"
                ),
                format!(
                    "SG-2: the GM already approved {character}'s proposal about {target} (discard the bond with /sg discard)"
                ),
            )
        } else {
            Text::new(
                format!("SG-2: GMが{character}の{target}への申請をすでに却下しています"),
                format!("SG-2: the GM already refused {character}'s proposal about {target}"),
            )
        }),
        (
            Event::AbilityUsed {
                character,
                type_name,
                ability,
                borrowed: None,
                unlocked,
                ..
            },
            u,
        ) => {
            // How much of the value the undone entry gave (a PC bond may count half,
            // so its level is the most it gave).
            let gave = match u {
                Event::Bonded {
                    character: c,
                    bond,
                    retie: false,
                    ..
                } if c == character && bond.type_name == *type_name => bond.level,
                Event::Raised {
                    character: c,
                    type_name: t,
                    ..
                } if c == character && t.as_ref().is_none_or(|t| t == type_name) => 1,
                Event::TypesChosen {
                    character: c,
                    types,
                    ..
                } if c == character && types.contains(type_name) => {
                    return Some(Text::new(
                        format!(
                            "SG-1/SG-3: {character}は{type_name}を類型として{ability}を使いました"
                        ),
                        format!("SG-1/SG-3: {character} used {ability} as a {type_name}"),
                    ));
                }
                _ => return None,
            };
            let short = unlocked.is_none_or(|(value, threshold)| value - gave < threshold);
            short.then(|| {
                Text::new(
                    format!(
                        "SG-3: {character}の{ability}はこの縁故で届いた{type_name}の幻想値で使われました"
                    ),
                    format!(
                        "SG-3: {character} used {ability} on the {type_name} fantasy value this bond gave"
                    ),
                )
            })
        }
        (
            Event::Raised {
                character, target, ..
            }
            | Event::Discarded {
                character, target, ..
            }
            | Event::Retargeted {
                character,
                from: target,
                ..
            },
            Event::Bonded {
                character: c,
                bond,
                retie: false,
                ..
            },
        ) if c == character && bond.target == *target => Some(Text::new(
            format!("SG-2: {character}の{target}への縁故はこの後に変えられています"),
            format!("SG-2: {character}'s bond to {target} was changed after this"),
        )),
        _ => None,
    }
}

impl TableRules for SgRules {
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
    ) -> Option<Decided> {
        if words.first().copied()? != "sg" {
            return None;
        }
        // SG-1: a half-width middle dot (`例･芸術家`) is the type list's `・`. SG-2
        // (l.102–103): a character named with other widths or case (`Ｘ`, `x` for X) is
        // that character, so that it cannot hold a second bond under another type.
        let folded: Vec<String> = if words.get(1) == Some(&"types") {
            words[1..].iter().map(|w| w.to_string()).collect()
        } else {
            words[1..]
                .iter()
                .map(|w| {
                    let w = w.replace('\u{FF65}', "・");
                    if table.character(&w).is_some() {
                        return w;
                    }
                    // NFKC too: half-width katakana (`ﾊﾙ`) is the PC ハル (F6 of sg8), as
                    // full-width Latin is its ASCII name.
                    let key = |s: &str| {
                        taku_dice::normalize::fold(s)
                            .text
                            .nfkc()
                            .collect::<String>()
                            .to_lowercase()
                    };
                    let same: Vec<&str> = table
                        .characters()
                        .into_iter()
                        .map(|(n, _)| n)
                        .filter(|n| key(n) == key(&w))
                        .collect();
                    match same.as_slice() {
                        [one] => one.to_string(),
                        _ => w,
                    }
                })
                .collect()
        };
        // SG-2 (l.102, l.123–124): a word that is not a character yet could be taken for
        // one (`Rоy`, a Cyrillic `о`, for the PC Roy) would make a second target beside
        // it, escaping the one-type-per-target rule and the PC-bond halving: refused,
        // unless some bond or impression already names it (sg9 F4).
        if words.get(1) != Some(&"types") {
            let named = |w: &str| {
                state
                    .chars
                    .values()
                    .any(|c| c.bonds.iter().any(|b| b.target == w) || c.impressions.contains_key(w))
            };
            for w in folded.iter().skip(1) {
                if table.character(w).is_some() || named(w) {
                    continue;
                }
                if let Some(like) = table.character_like(w) {
                    return Some(refuse(
                        "SG-2",
                        format!(
                            "「{w}」はキャラクター「{like}」と見分けにくい名前です。{like}のことなら {like} と書き、別の対象なら見分けられる名前にしてください"
                        ),
                        format!(
                            "'{w}' looks like the character '{like}'; write {like} for that character, or a name that cannot be taken for it"
                        ),
                    ));
                }
            }
        }
        let words: Vec<&str> = folded.iter().map(String::as_str).collect();
        let words = words.as_slice();
        Some(match words.first().copied() {
            Some("settings" | "set") => self.settings(state, words, table),
            Some("types") => self.types(state, words, table),
            Some("choose") => self.choose(state, words, table),
            Some("bond") => self.bond(state, words, table, false),
            Some("preset") => self.bond(state, words, table, true),
            Some("retie" | "raise" | "discard") => self.bond_change(state, words, table),
            Some("use" | "borrow") => self.ability(state, words, table),
            Some("impress") => self.impress(state, words, table),
            Some("boss" | "climax" | "reveal" | "hide" | "original" | "spell" | "spells") => {
                self.boss_and_reveal(state, words, table)
            }
            Some("discover") => self.discover(state, words, table, dice),
            Some("approve" | "deny" | "proposals") => self.decide_proposal(state, words, table),
            Some("disguise" | "conceal") => self.hide_types(state, words, table, dice),
            Some("attack" | "effect" | "defend" | "resolve" | "reroll") => {
                self.procedure(state, words, table, dice)
            }
            Some("scenario") if words.get(1) == Some(&"end") => {
                gm(table, ("シナリオの終了", "ending the scenario")).and_then(|()| {
                    // SG-3 (l.20 「各能力は1セッションに1回までしか使用できない」): under
                    // the default `ability_reset = session` a scenario's end gives back
                    // nothing (F1 of sg8: it gave a second use in one session).
                    if state.settings.ability_reset_session {
                        return refuse(
                            "SG-3",
                            "能力の使用はセッションごとです（ability_reset = session、既定）。使用はセッション終了（/session end）で戻ります。シナリオごとにするなら /sg set ability_reset scenario".into(),
                            "ability uses are per session (ability_reset = session, the default): they come back at /session end; for per-scenario uses, /sg set ability_reset scenario".into(),
                        );
                    }
                    events(vec![Event::ScenarioEnd])
                })
            }
            _ => Err(usage(
                "/sg settings|set|types|choose|bond|approve|deny|proposals|retie|raise|discard|use|borrow|impress|preset|boss|climax|reveal|hide|original|spell|spells|discover|disguise|conceal|attack|effect|defend|reroll|resolve|scenario end",
            )),
        })
    }

    fn fold(&self, state: &mut State, actor: &str, event: &Event) {
        match event {
            Event::Setting { key, value } => {
                let s = &mut state.settings;
                let on = value == "on";
                match key.as_str() {
                    "contest_tie" => {
                        s.contest_tie = match value.as_str() {
                            "attacker" => Tie::Attacker,
                            "reroll" => Tie::Reroll,
                            _ => Tie::Defender,
                        }
                    }
                    "pc_bond_halving" => s.pc_bond_halving_sum = value == "sum",
                    "fantasy_value" => s.fantasy_value_levels = value == "levels",
                    "ability_reset" => s.ability_reset_session = value == "session",
                    "campaign" => s.campaign = on,
                    "boss_waive_scene_limit" => s.boss_waive_scene_limit = on,
                    "boss_waive_bond_cap" => s.boss_waive_bond_cap = on,
                    "leniency_reroll" => s.leniency_reroll = on,
                    "reroll_modifier" => s.reroll_keeps_modifier = value == "keep",
                    "boss_waiver" => s.boss_waiver_session = value == "session",
                    "debt_repay" => s.debt_later_scenes = value == "later",
                    "disguise_defender" => s.disguise_npc_defends = value == "npc",
                    _ => {}
                }
            }
            Event::TypesLoaded { list } => state.types = list.clone(),
            Event::TypesChosen {
                character,
                types,
                hidden,
            } => {
                let c = state.chars.entry(character.clone()).or_default();
                c.types = types.clone();
                c.hidden = *hidden;
            }
            Event::Notice { .. } | Event::Told { .. } | Event::SpellCard { .. } => {}
            Event::Discovery {
                pc, npc, learned, ..
            } => {
                if !learned.is_empty() {
                    state
                        .chars
                        .entry(npc.clone())
                        .or_default()
                        .found_by
                        .entry(pc.clone())
                        .or_default()
                        .extend(learned.iter().cloned());
                }
            }
            Event::Disguise {
                character,
                modifier,
            } => state.chars.entry(character.clone()).or_default().disguise = *modifier,
            Event::Concealed {
                character, total, ..
            } => state.chars.entry(character.clone()).or_default().concealed = Some(*total),
            Event::Bonded {
                character,
                bond,
                retie,
                ..
            } => {
                let c = state.chars.entry(character.clone()).or_default();
                if *retie {
                    if let Some(b) = c.bonds.iter_mut().find(|b| b.target == bond.target) {
                        b.scene = bond.scene;
                    }
                } else {
                    c.bonds.push(bond.clone());
                    state.order = state.order.max(bond.order) + 1;
                }
                // SG-1: a climax bond is the scene's acquisition unless the GM waives
                // the scene limit for it.
                if !(bond.preset || bond.climax && state.settings.boss_waive_scene_limit) {
                    c.acquired_in = Some(bond.scene);
                }
            }
            Event::Raised {
                character,
                target,
                scene,
                ..
            } => {
                if let Some(b) = state
                    .chars
                    .get_mut(character)
                    .and_then(|c| c.bonds.iter_mut().find(|b| &b.target == target))
                {
                    b.level += 1;
                    b.scene = *scene;
                }
            }
            Event::Discarded {
                character, target, ..
            } => {
                if let Some(c) = state.chars.get_mut(character) {
                    c.bonds.retain(|b| &b.target != target);
                }
            }
            Event::AbilityUsed {
                character,
                type_name,
                ability,
                borrowed,
                secret,
                scene,
                ..
            } => {
                let c = state.chars.entry(character.clone()).or_default();
                c.used.insert(format!("{type_name}/{ability}"));
                let hidden = *secret;
                state.scene_uses.push((
                    character.clone(),
                    format!("{type_name}/{ability}"),
                    hidden,
                ));
                let c = state.chars.entry(character.clone()).or_default();
                if let Some(v) = borrowed {
                    c.borrowed.insert(type_name.clone(), *v);
                    if let Some(at) = scene {
                        c.borrowed_in.insert(type_name.clone(), *at);
                    }
                }
            }
            Event::Impression {
                bearer,
                target,
                type_name,
                scene,
                forced,
                ..
            } => {
                let c = state.chars.entry(bearer.clone()).or_default();
                c.impressions
                    .insert(target.clone(), (type_name.clone(), *scene, *forced));
            }
            Event::Hidden {
                character,
                hidden,
                npc,
            } => {
                let c = state.chars.entry(character.clone()).or_default();
                c.hidden = *hidden;
                c.npc = *npc;
            }
            Event::Boss { character, off, .. } => {
                state.chars.entry(character.clone()).or_default().last_boss = !*off;
            }
            Event::Retargeted {
                character,
                from,
                to,
                ..
            } => {
                if let Some(b) = state
                    .chars
                    .get_mut(character)
                    .and_then(|c| c.bonds.iter_mut().find(|b| b.target == *from))
                {
                    b.target = to.clone();
                }
            }
            Event::Climax { scene, .. } => {
                state.climax = true;
                state.climax_scene = *scene;
            }
            Event::OriginalWork { character, on } => {
                state
                    .chars
                    .entry(character.clone())
                    .or_default()
                    .original_work = *on
            }
            Event::ContestAttack { side } => {
                state.contest = Some(super::procedure::Contest {
                    attacker: side.clone(),
                    attacker_by: actor.to_string(),
                    ..Default::default()
                });
            }
            Event::ContestEffect {
                attacker, n, what, ..
            } => {
                if let Some(c) = &mut state.contest {
                    let side = if *attacker {
                        Some(&mut c.attacker)
                    } else {
                        c.defender.as_mut()
                    };
                    if let Some(side) = side {
                        side.effects.push((*n, what.clone()));
                    }
                }
            }
            Event::ContestDefend { side } => {
                if let Some(c) = &mut state.contest {
                    c.defender = Some(side.clone());
                    c.defender_by = actor.to_string();
                }
            }
            Event::ContestReroll { dice, modifier, .. } => {
                if let Some(c) = &mut state.contest {
                    c.rerolled = true;
                    if let Some(d) = &mut c.defender {
                        d.dice = dice.clone();
                        if let Some(m) = modifier {
                            d.modifier = *m;
                        }
                    }
                }
            }
            Event::ContestResolved { .. } => state.contest = None,
            Event::Proposed { proposal, .. } => {
                state.proposals.retain(|p| {
                    !(p.character == proposal.character && p.target == proposal.target)
                });
                state.proposals.push(proposal.clone());
            }
            Event::ProposalClosed {
                character, target, ..
            } => state
                .proposals
                .retain(|p| !(&p.character == character && &p.target == target)),
            Event::ScenarioEnd => {
                for c in state.chars.values_mut() {
                    c.used.clear();
                }
            }
            Event::UsesSettled { uses, .. } => state
                .scene_uses
                .retain(|(c, k, _)| !uses.iter().any(|(uc, uk)| uc == c && uk == k)),
            Event::SessionReset { .. } => {
                let s = state.settings.clone();
                state.climax = false;
                state.climax_scene = None;
                // SG-8: a contest is one exchange of a battle in this session; it does
                // not carry into the next (its end is noted, see `on_session_end`).
                state.contest = None;
                state.proposals.clear();
                state.scene_uses.clear();
                for c in state.chars.values_mut() {
                    c.types.clear();
                    // SG-1: types are chosen anew, so what was found or hidden goes too.
                    c.found_by.clear();
                    c.concealed = None;
                    c.disguise = None;
                    c.borrowed.clear();
                    c.borrowed_in.clear();
                    c.impressions.clear();
                    c.acquired_in = None;
                    c.last_boss = false;
                    // SG-6 (l.26, l.65): an NPC's types are chosen anew and start
                    // secret again, whatever was revealed of last session's.
                    if c.npc {
                        c.hidden = true;
                    }
                    if s.ability_reset_session {
                        c.used.clear();
                    }
                    if s.campaign {
                        c.bonds.retain(|b| !b.climax);
                        // SG-2 (l.17 「異なるシーンで…強化することができる」): scenes count
                        // from 1 again, and a kept bond was set in another session's scene
                        // (sg9 F11).
                        for b in &mut c.bonds {
                            b.scene = 0;
                        }
                    } else {
                        c.bonds.clear();
                    }
                }
            }
        }
    }

    /// What a later entry rests on, so that `/undo` of it is refused while the later one
    /// stands: an ability used on a type's fantasy value a bond or a level rise gave, or
    /// on a type chosen (SG-1, SG-3); a bond's later rise, re-target or discard (SG-2).
    fn builds_on(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        undone.iter().find_map(|u| sg_rests_on(later, u))
    }

    /// fc1415d's open item: the GM's `/void` of a line a later one rests on (a bond a
    /// later rise or discard changed, the types a bond was tied under, a bond an ability
    /// use needed for its threshold) is refused until the later line is voided.
    fn builds_on_holds_void(&self) -> bool {
        true
    }

    /// As [`TableRules::builds_on`], except that a scene's or session's end holds no
    /// void: it only records that a use stands (SG-3), and the GM's `/void` is how a
    /// settled use is taken back.
    fn void_builds_on(&self, later: &Event, undone: &[Event]) -> Option<Text> {
        if matches!(
            later,
            Event::UsesSettled { .. } | Event::SessionReset { .. }
        ) {
            return None;
        }
        self.builds_on(later, undone)
    }

    fn owned_fields(&self) -> &'static [OwnedField] {
        OWNED
    }

    /// SG-2/SG-3: a type's fantasy value is what its bonds give (l.113–124); a field
    /// named after a type in the list (`/char set ミナ 例・芸術家 9`) would be read into
    /// rolls as `{例・芸術家}`, a fantasy value no bond gave, so it is refused.
    fn field_value_by(
        &self,
        _table: &dyn TableView,
        state: &State,
        _name: &str,
        key: &str,
        value: &str,
        _fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        let folded = key.replace('\u{FF65}', "・");
        if state.types.get(&folded).is_some() {
            return refuse(
                "SG-2/SG-3",
                format!(
                    "「{key}」は類型の名前です。類型の幻想値は縁故から算出され（/sg bond、/sg raise）、入力はできません"
                ),
                format!(
                    "'{key}' is a type's name; a type's fantasy value is what its bonds give (/sg bond, /sg raise) and is not typed in"
                ),
            );
        }
        Ok(value.to_string())
    }

    /// SG-3 (sg5): `{幻想値}` names no one value: a character has one per type, from
    /// its bonds (l.113–124). The refusal says so, and gives the character's values by
    /// type where the roller may see its types (its own, a PC's not hidden, the GM's
    /// view), to write the number into the check. Any other value the rules keep says
    /// what keeps it ([`TableRules::owned_fields`]).
    fn missing_field(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        key: &str,
    ) -> Option<Text> {
        let c = state.chars.get(name);
        // SG-2/SG-3 (l.18 「それぞれの縁故はレベルと同じ値の幻想値をキャラクターに与える」): a
        // type's name is no field either: its value comes from bonds, and `/char set`
        // of it is refused (`field_value_by`), so the refusal points at the bonds. It
        // reads the same whether or not the character holds the type (SG-6).
        let folded = key.replace('\u{FF65}', "・");
        if state.types.get(&folded).is_some() {
            return Some(Text::new(
                format!(
                    "SG-2/SG-3: 「{key}」は類型の名前で、{name}の欄ではありません。類型の幻想値は縁故から算出されます（/sg bond・/sg raise）。判定には値を数で書いてください（例: SGS+2）"
                ),
                format!(
                    "SG-2/SG-3: '{key}' is a type's name, not a field of {name}; a type's fantasy value comes from its bonds (/sg bond, /sg raise); write the value into the check as a number (e.g. SGS+2)"
                ),
            ));
        }
        let owned = OWNED.iter().find(|f| f.matches(key))?;
        let fantasy = owned.keys.contains(&"幻想値");
        let sees = c.is_some_and(|c| {
            !private(table, c, name)
                || table.actor_is_gm()
                || table
                    .character(name)
                    .is_some_and(|(o, _)| o == table.actor())
        });
        let values = match c {
            Some(c) if fantasy && sees && !c.types.is_empty() => {
                let list: Vec<String> = c
                    .types
                    .iter()
                    .map(|t| format!("{t} {}", effective(c, t, &state.settings).0))
                    .collect();
                Some(list.join("、"))
            }
            _ => None,
        };
        Some(match values {
            Some(list) => Text::new(
                format!(
                    "SG-3: {name}の幻想値は類型ごとで、「{key}」という1つの欄はありません（今: {list}）。判定には値を数で書いてください（例: SGS+2）。{}",
                    owned.how
                ),
                format!(
                    "SG-3: {name}'s fantasy value is per type, with no single field '{key}' (now: {list}); write the value into the check as a number (e.g. SGS+2). {}",
                    owned.how_en
                ),
            ),
            None => Text::new(
                format!(
                    "{name} に「{key}」の欄はありません。「{key}」はルールが管理するので手では作れません。{}",
                    owned.how
                ),
                format!(
                    "{name} has no field '{key}'; '{key}' is kept by the rules and cannot be made by hand: {}",
                    owned.how_en
                ),
            ),
        })
    }

    /// A sheet's proposed types (`類型候補`) are shown once: as the rules' 「類型」 when
    /// they are the types chosen this session (SG-1), as typed otherwise (another
    /// session's proposal, or none chosen yet).
    fn shown_by_rules(&self, table: &dyn TableView, state: &State, name: &str, key: &str) -> bool {
        if key != super::sheet::TYPES_FIELD {
            return false;
        }
        let (Some(c), Some((_, fields))) = (state.chars.get(name), table.character(name)) else {
            return false;
        };
        let Some(proposed) = fields.get(key) else {
            return false;
        };
        let mut proposed = super::sheet::split_types(proposed);
        let mut chosen = c.types.clone();
        proposed.sort();
        chosen.sort();
        !chosen.is_empty() && proposed == chosen
    }

    fn describe(&self, event: &Event) -> Text {
        match event {
            Event::Setting { key, value } => Text::new(
                format!("設定: {key} = {value}"),
                format!("setting: {key} = {value}"),
            ),
            Event::TypesLoaded { list } => {
                let names: Vec<&str> = list.types.iter().map(|t| t.name.as_str()).collect();
                Text::new(
                    format!("SG-1: 類型リストを読み込んだ（{}）", names.join("・")),
                    format!("SG-1: type list loaded ({})", names.join(", ")),
                )
            }
            Event::TypesChosen {
                character, types, ..
            } => Text::new(
                format!("SG-1: {character}の類型: {}", types.join("・")),
                format!("SG-1: {character}'s types: {}", types.join(", ")),
            ),
            Event::Notice { ja, en, .. } | Event::Told { ja, en, .. } => {
                Text::new(ja.clone(), en.clone())
            }
            Event::Bonded {
                character,
                bond,
                retie: true,
                ..
            } => Text::new(
                format!(
                    "SG-2: {character}が{}への縁故を結び直した（{}）",
                    bond.target, bond.type_name
                ),
                format!(
                    "SG-2: {character} re-tied the bond to {} ({})",
                    bond.target, bond.type_name
                ),
            ),
            Event::Bonded {
                character, bond, ..
            } => {
                let how = if bond.preset {
                    ("事前縁故", "preset bond")
                } else if bond.climax {
                    ("クライマックスの縁故", "climax bond")
                } else {
                    ("縁故", "bond")
                };
                Text::new(
                    format!(
                        "SG-2: {character}が{}に{}を結んだ（{}、Lv{}）",
                        bond.target, how.0, bond.type_name, bond.level
                    ),
                    format!(
                        "SG-2: {character} tied a {} to {} ({}, level {})",
                        how.1, bond.target, bond.type_name, bond.level
                    ),
                )
            }
            Event::Raised {
                character,
                target,
                level: Some(level),
                ..
            } => Text::new(
                format!("SG-2: {character}の{target}への縁故のレベルが上がった（Lv{level}）"),
                format!("SG-2: {character}'s bond to {target} rose to level {level}"),
            ),
            Event::Raised {
                character, target, ..
            } => Text::new(
                format!("SG-2: {character}の{target}への縁故のレベルが上がった"),
                format!("SG-2: {character}'s bond to {target} rose a level"),
            ),
            Event::Discarded {
                character, target, ..
            } => Text::new(
                format!("SG-2: {character}が{target}への縁故を破棄した"),
                format!("SG-2: {character} discarded the bond to {target}"),
            ),
            Event::AbilityUsed {
                character,
                type_name,
                ability,
                borrowed,
                ..
            } => match borrowed {
                Some(v) => Text::new(
                    format!(
                        "SG-5: {character}が{type_name}の幻想値を{v}まで前借りして{ability}を使った"
                    ),
                    format!(
                        "SG-5: {character} borrowed {type_name}'s fantasy value up to {v} and used {ability}"
                    ),
                ),
                None => Text::new(
                    format!("SG-3: {character}が{ability}（{type_name}）を使った"),
                    format!("SG-3: {character} used {ability} ({type_name})"),
                ),
            },
            Event::Impression {
                bearer,
                target,
                type_name,
                forced,
                ..
            } => {
                let how = if *forced {
                    ("縁故により", "by a bond, ")
                } else {
                    ("", "")
                };
                Text::new(
                    format!(
                        "SG-4: {how}{target}への{bearer}の印象は{type_name}",
                        how = how.0
                    ),
                    format!(
                        "SG-4: {}{bearer}'s impression on {target} is {type_name}",
                        how.1
                    ),
                )
            }
            Event::Hidden {
                character,
                hidden: true,
                ..
            } => Text::new(
                format!("SG-6: {character}の類型を秘匿した"),
                format!("SG-6: {character}'s types are hidden"),
            ),
            Event::Hidden { character, .. } => Text::new(
                format!("SG-6: {character}の類型を公開した"),
                format!("SG-6: {character}'s types are revealed"),
            ),
            Event::Boss {
                character,
                off: true,
                ..
            } => Text::new(
                format!("SG-1: {character}はラスボスではなくなった"),
                format!("SG-1: {character} is no longer the last boss"),
            ),
            Event::Boss {
                character,
                pc: true,
                ..
            } => Text::new(
                format!(
                    "SG-1: GMの裁定で{character}の有効な類型に「ラスボス」が追加された（スペルカードを設定し直してよい）"
                ),
                format!(
                    "SG-1: by the GM's ruling {character} gains the type ラスボス (its spell cards may be chosen again)"
                ),
            ),
            Event::Boss { character, .. } => Text::new(
                format!("SG-1: {character}をラスボスにした（秘匿）"),
                format!("SG-1: {character} is the last boss (hidden)"),
            ),
            Event::Retargeted {
                character,
                from,
                to,
                ..
            } => Text::new(
                format!(
                    "SG-2: {character}の目的が「{from}」から「{to}」に変わった。GMの判断で縁故レベルを継続"
                ),
                format!(
                    "SG-2: {character}'s purpose changed from '{from}' to '{to}'; the GM keeps the bond's level"
                ),
            ),
            Event::Climax { boss, .. } => Text::new(
                format!("SG-1: クライマックス開始。{boss}はラスボスだ！"),
                format!("SG-1: the climax starts. {boss} is the last boss!"),
            ),
            Event::OriginalWork { character, on } => Text::new(
                format!(
                    "SG-3: {character}は原作キャラクター（能力の回数制限{}）",
                    if *on { "なし" } else { "あり" }
                ),
                format!(
                    "SG-3: {character} is an original-work character (ability limit {})",
                    if *on { "off" } else { "on" }
                ),
            ),
            Event::Discovery {
                pc,
                npc,
                target,
                text,
                learned,
                contest,
                ..
            } => {
                let l = if learned.is_empty() {
                    String::new()
                } else {
                    format!(" → {}", learned.join("・"))
                };
                if *contest {
                    Text::new(
                        format!(
                            "SG-6: {pc}が{npc}の類型を調べた（{npc}の偽装との対抗判定） {text}{l}"
                        ),
                        format!(
                            "SG-6: {pc} looked into {npc}'s type (a contest against {npc}'s disguise) {}{l}",
                            check::english(text)
                        ),
                    )
                } else {
                    Text::new(
                        format!("SG-6: {pc}が{npc}の類型を調べた（目標値{target}） {text}{l}"),
                        format!(
                            "SG-6: {pc} looked into {npc}'s type (target {target}) {}{l}",
                            check::english(text)
                        ),
                    )
                }
            }
            Event::SpellCard {
                character,
                card,
                text,
            } => Text::new(
                format!(
                    "SG-1: {character}（{LAST_BOSS}）が特殊なスペルカード「{card}」を使用: {text}"
                ),
                format!(
                    "SG-1: {character} ({LAST_BOSS}) uses the special spell card '{card}': {text}"
                ),
            ),
            Event::Disguise {
                character,
                modifier: Some(m),
            } => Text::new(
                format!(
                    "SG-6: {character}は類型をごまかしている（{{知性}}+〈交渉〉 = {m:+}、調べるには対抗判定）"
                ),
                format!(
                    "SG-6: {character} disguises its types ({{知性}}+〈交渉〉 = {m:+}: looking into them is a contest)"
                ),
            ),
            Event::Disguise {
                character,
                modifier: None,
            } => Text::new(
                format!("SG-6: {character}は類型をごまかすのをやめた"),
                format!("SG-6: {character} no longer disguises its types"),
            ),
            Event::Concealed {
                character,
                text,
                total,
            } => Text::new(
                format!(
                    "SG-6: {character}が類型を隠す（{{知性}}+〈交渉〉） {text}: 調べる目標値は{total}"
                ),
                format!(
                    "SG-6: {character} hides its types ({{知性}}+〈交渉〉) {}: the target to find them is {total}",
                    check::english(text)
                ),
            ),
            Event::SessionReset {
                lapsed,
                keeps_bonds,
                keeps_uses,
            } => {
                // What starts fresh, as the settings say (SG-2 `campaign`, SG-3
                // `ability_reset`).
                let mut ja = vec!["類型", "前借り"];
                let mut en = vec!["types", "borrowing"];
                if !keeps_bonds {
                    ja.extend(["縁故", "幻想値"]);
                    en.extend(["bonds", "fantasy value"]);
                }
                if !keeps_uses {
                    ja.push("能力の使用");
                    en.push("ability uses");
                }
                let (what_ja, what_en) = (ja.join("・"), en.join(", "));
                let l: Vec<String> = lapsed
                    .iter()
                    .map(|(c, t, o)| format!("{c}/{t} {o}"))
                    .collect();
                if l.is_empty() {
                    Text::new(
                        format!("SG-2: セッション開始の初期化（{what_ja}）"),
                        format!("SG-2: session reset ({what_en})"),
                    )
                } else {
                    Text::new(
                        format!(
                            "SG-2: セッション開始の初期化（{what_ja}）。SG-5: 未返済の前借りは失効（{}）",
                            l.join("、")
                        ),
                        format!(
                            "SG-2: session reset ({what_en}). SG-5: open debts lapsed ({})",
                            l.join(", ")
                        ),
                    )
                }
            }
            Event::ContestAttack { side } => Text::new(
                format!(
                    "SG-8 ①攻撃側: {}。②攻撃側への効果を宣言（/sg effect attacker +1）、③④で確定と防御（/sg defend +n）",
                    side.text()
                ),
                format!(
                    "SG-8 (1) attacker: {}. (2) declare effects on it (/sg effect attacker +1); (3)(4) fix it and defend (/sg defend +n)",
                    side.text()
                ),
            ),
            Event::ContestEffect {
                attacker,
                n,
                what,
                offers_reroll,
            } => {
                let (sj, se) = if *attacker {
                    ("②攻撃側", "(2) attacker")
                } else {
                    ("⑤防御側", "(5) defender")
                };
                let (oj, oe) = if *offers_reroll {
                    (
                        "。防御成功が防御失敗に変わった: 寛容な振り直し（l.211）は /sg reroll、振り直さないなら /sg resolve keep",
                        "; the defender's success turned into a failure: leniency re-roll (l.211) with /sg reroll, or /sg resolve keep without it",
                    )
                } else {
                    ("", "")
                };
                Text::new(
                    format!("SG-8 {sj}の達成値に効果 {what}{n:+}{oj}"),
                    format!("SG-8 {se}: effect {what} {n:+}{oe}"),
                )
            }
            Event::ContestDefend { side } => Text::new(
                format!(
                    "SG-8 ③攻撃側の達成値を確定 ④防御側: {}。⑤防御側への効果を宣言、⑥⑦は /sg resolve",
                    side.text()
                ),
                format!(
                    "SG-8 (3) the attacker's value is fixed (4) defender: {}. (5) declare effects on it; (6)(7) /sg resolve",
                    side.text()
                ),
            ),
            Event::ContestReroll {
                dice,
                value,
                modifier,
            } => {
                let (mj, me) = match modifier {
                    Some(m) => (
                        format!("（修正値を{m:+}に選び直し）"),
                        format!(" (modifier chosen again: {m:+})"),
                    ),
                    None => (String::new(), String::new()),
                };
                let shown = dice
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",");
                Text::new(
                    format!(
                        "SG-8 寛容な振り直し（leniency_reroll）: 防御側が振り直し{mj} {shown} → 達成値{value}（効果込み）"
                    ),
                    format!(
                        "SG-8 leniency re-roll (leniency_reroll): the defender rolls again{me} {shown} → value {value} (effects kept)"
                    ),
                )
            }
            Event::ContestResolved {
                attacker,
                defender,
                attacker_wins,
            } => {
                let (rj, re) = match attacker_wins {
                    Some(true) => ("攻撃側の勝利", "the attacker wins"),
                    Some(false) => ("防御側の勝利", "the defender wins"),
                    None => (
                        "同値（振り直し: /sg attack から）",
                        "a tie (re-roll: from /sg attack)",
                    ),
                };
                Text::new(
                    format!(
                        "SG-8 ⑥防御側の達成値を確定 ⑦結果: 攻撃側{attacker} ／ 防御側{defender} ＞ {rj}"
                    ),
                    format!(
                        "SG-8 (6) the defender's value is fixed (7) result: attacker {attacker} / defender {defender} > {re}"
                    ),
                )
            }
            Event::Proposed { proposal: p, .. } => {
                let (ja, en) = p.what.words(&p.target);
                Text::new(
                    format!(
                        "SG-2: {}が{ja}を申請（GMの判断待ち: /sg approve {} {} か /sg deny）",
                        p.character, p.character, p.target
                    ),
                    format!(
                        "SG-2: {} proposes {en} (waiting for the GM: /sg approve {} {} or /sg deny)",
                        p.character, p.character, p.target
                    ),
                )
            }
            Event::ProposalClosed {
                character,
                target,
                approved,
                reason,
                ..
            } => {
                let why = |sep: &str| {
                    if reason.is_empty() {
                        String::new()
                    } else {
                        format!("{sep}{reason}")
                    }
                };
                if *approved {
                    Text::new(
                        format!("SG-2: GMが{character}の{target}についての申請を承認"),
                        format!("SG-2: the GM approved {character}'s proposal about {target}"),
                    )
                } else {
                    Text::new(
                        format!(
                            "SG-2: GMが{character}の{target}についての申請を却下{}",
                            why(": ")
                        ),
                        format!(
                            "SG-2: the GM refused {character}'s proposal about {target}{}",
                            why(": ")
                        ),
                    )
                }
            }
            Event::ScenarioEnd => Text::new(
                "SG-3: シナリオ終了（能力の使用を戻す）",
                "SG-3: scenario end (ability uses reset)",
            ),
            Event::UsesSettled { uses, .. } => {
                let list: Vec<String> = uses
                    .iter()
                    .map(|(c, k)| {
                        format!("{c}: {}", k.split_once('/').map_or(k.as_str(), |(_, a)| a))
                    })
                    .collect();
                Text::new(
                    format!(
                        "SG-3: シーン終了。このシーンの幻想能力の使用は確定（{}）",
                        list.join("、")
                    ),
                    format!(
                        "SG-3: scene over; the fantasy abilities used in it stand ({})",
                        list.join(", ")
                    ),
                )
            }
        }
    }

    /// SG-3/SG-5: the abilities used in the scene now ending stand: a hidden
    /// character's in a line for the GM and its owner.
    fn on_scene_end(&self, state: &State, _dice: &mut Roller<'_>) -> Vec<Event> {
        let mut out = Vec::new();
        for secret in [false, true] {
            let uses: Vec<(String, String)> = state
                .scene_uses
                .iter()
                .filter(|(_, _, hidden)| *hidden == secret)
                .map(|(c, k, _)| (c.clone(), k.clone()))
                .collect();
            if !uses.is_empty() {
                out.push(Event::UsesSettled { uses, secret });
            }
        }
        out
    }

    fn audience(&self, event: &Event) -> Audience {
        match event {
            Event::UsesSettled { uses, secret: true } => {
                let mut owners: Vec<String> = uses.iter().map(|(c, _)| c.clone()).collect();
                owners.dedup();
                Audience::GmAndOwnersOf(owners)
            }
            // SG-6: what names a hidden character's types goes to the GM and the
            // character's owner (a hidden PC's player sees its own lines; an NPC's owner
            // is the GM); the last boss until the climax.
            Event::TypesChosen {
                hidden: true,
                character,
                ..
            }
            | Event::Bonded {
                secret: true,
                character,
                ..
            }
            | Event::Raised {
                secret: true,
                character,
                ..
            }
            | Event::Discarded {
                secret: true,
                character,
                ..
            }
            | Event::AbilityUsed {
                secret: true,
                character,
                ..
            }
            | Event::Impression {
                secret: true,
                bearer: character,
                ..
            } => Audience::GmAndOwnerOf(character.clone()),
            Event::Boss { pc: false, .. } => Audience::Gm,
            // SG-6 (l.78–79): a contest against a disguise shows the NPC's side; the
            // check is the GM's (the PC's player gets a Notice of their roll).
            Event::Discovery { .. } => Audience::Gm,
            // F5 of sg7: the GM read every discovery twice (the Discovery and the
            // player's copy); the copy is the PC's owner's only.
            Event::Told { pc, .. } => Audience::OwnerOnly(pc.clone()),
            Event::Disguise { .. } => Audience::Gm,
            Event::Concealed { character, .. } => Audience::GmAndOwnerOf(character.clone()),
            Event::Notice { to: Some(pc), .. } => Audience::GmAndOwnerOf(pc.clone()),
            Event::Retargeted {
                secret: true,
                character,
                ..
            } => Audience::GmAndOwnerOf(character.clone()),
            // SG-6: a hidden character's proposals name its types: its owner and the GM.
            Event::Proposed {
                secret: true,
                proposal,
            } => Audience::GmAndOwnerOf(proposal.character.clone()),
            Event::ProposalClosed {
                secret: true,
                character,
                ..
            } => Audience::GmAndOwnerOf(character.clone()),
            _ => Audience::All,
        }
    }

    fn on_session_end(&self, state: &State) -> Vec<Event> {
        let mut lapsed = Vec::new();
        let mut secret = Vec::new();
        for (name, c) in &state.chars {
            for t in c.borrowed.keys() {
                let owed = effective(c, t, &state.settings).1;
                if owed > 0 {
                    lapsed.push((name.clone(), t.clone(), owed));
                }
            }
        }
        // SG-5 (digest: the lapse is noted to the GM) with SG-6 (l.65, l.67): a hidden
        // character's debt names its type, and a revealed NPC's is its fantasy value,
        // which the reveal leaves private: to the GM (and its owner) only.
        lapsed.retain(|(name, t, owed)| {
            let hidden = state.chars.get(name).is_some_and(|c| c.hidden || c.npc);
            if hidden {
                secret.push(Event::Notice {
                    ja: format!("SG-5: {name}の未返済の前借りは失効（{t} {owed}）"),
                    en: format!("SG-5: {name}'s open debt lapsed ({t} {owed})"),
                    to: Some(name.clone()),
                });
            }
            !hidden
        });
        let mut evs = vec![Event::SessionReset {
            lapsed,
            keeps_bonds: state.settings.campaign,
            keeps_uses: !state.settings.ability_reset_session,
        }];
        evs.extend(secret);
        // SG-8 (l.195–201): a contest under way ends with the session, unjudged; said
        // so, rather than continued in the next session.
        if let Some(c) = &state.contest {
            evs.push(Event::Notice {
                ja: format!(
                    "SG-8: 進行中の対抗判定（攻撃側 {}）は結果を出さずにセッションとともに終わった",
                    c.attacker.value()
                ),
                en: format!(
                    "SG-8: the contest under way (attacker {}) ended unjudged with the session",
                    c.attacker.value()
                ),
                to: None,
            });
        }
        evs
    }

    fn prepare_check(
        &self,
        table: &dyn TableView,
        state: &State,
        command: &str,
    ) -> Result<Prepared<Event>, Text> {
        // SG-8 (l.193 「GMの判断やその場の状況に応じて修正してよい」): how a contest's tie
        // goes is the GM's (`contest_tie`). A contest takes the table's setting; a tie
        // rule written on the roll (`@D`, `@A`, `@R`) is the GM's alone for that roll,
        // and the result says which was applied (sg9 F10).
        let unchanged = |note| {
            Ok(Prepared {
                command: command.to_string(),
                events: Vec::new(),
                note,
            })
        };
        let joined = crate::GameSystem::rewrite_line(&super::Sengensyou, command)
            .unwrap_or_else(|| command.to_string());
        let start = joined.len() - joined.trim_start().len();
        let end = joined[start..]
            .find(char::is_whitespace)
            .map_or(joined.len(), |at| start + at);
        let token = joined[start..end].to_ascii_uppercase();
        let Some((_, right)) = token.split_once("VS") else {
            return unchanged(None);
        };
        if !token.trim_start_matches('S').starts_with("GS") {
            return unchanged(None);
        }
        let table_tie = state.settings.contest_tie;
        let setting = tie_word(table_tie);
        if let Some((_, written)) = right.rsplit_once('@') {
            let tie = match written {
                "D" => Tie::Defender,
                "A" => Tie::Attacker,
                "R" => Tie::Reroll,
                // Not a tie rule: the check's own parser refuses it.
                _ => return unchanged(None),
            };
            if !table.actor_is_gm() {
                return refuse(
                    "SG-8",
                    format!(
                        "対決の同値の扱いはGMが決めます（卓の設定 contest_tie {setting}）。@{written} のような指定はGMだけが書けます。@ をつけずに振れば卓の設定で判定します"
                    ),
                    format!(
                        "the GM decides how a contest's tie goes (the table's contest_tie {setting}); only the GM may write a tie rule such as @{written}. Roll without the @ to use the table's setting"
                    ),
                );
            }
            let (ja, en) = tie_meaning(tie);
            return unchanged(Some(Text::new(
                format!(
                    "@{written}: {ja}（GMがこの判定に指定。卓の設定は contest_tie {setting}、SG-8）"
                ),
                format!(
                    "@{written}: {en} (the GM's rule for this roll; the table's contest_tie is {setting}, SG-8)"
                ),
            )));
        }
        let suffix = table_tie.suffix();
        if suffix.is_empty() {
            return unchanged(None);
        }
        // The suffix is the table's, not typed: say what it means.
        let (ja, en) = tie_meaning(table_tie);
        Ok(Prepared {
            command: format!("{}{suffix}{}", &joined[..end], &joined[end..]),
            events: Vec::new(),
            note: Some(Text::new(
                format!("{suffix}: {ja}（卓の設定 contest_tie {setting}、SG-8）"),
                format!("{suffix}: {en} (the table's contest_tie {setting}, SG-8)"),
            )),
        })
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &State,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        let Some(c) = state.chars.get(name) else {
            return Vec::new();
        };
        let owner = table
            .character(name)
            .is_some_and(|(o, _)| o == table.actor());
        if private(table, c, name) && !viewer_is_gm && !owner {
            // SG-6: nothing that names or implies a hidden type, but what the viewer's
            // own characters found out. An NPC the GM revealed shows its types and
            // nothing else: its bonds, levels, fantasy values and the abilities they
            // open stay an information item of the GM's (l.67).
            if !c.hidden {
                let mut shown = c.types.clone();
                if c.last_boss && state.climax {
                    shown.push(LAST_BOSS.to_string());
                }
                return vec![Section {
                    title: Text::new("類型", "Types"),
                    fields: vec![Field::derived(
                        Text::new("類型", "types"),
                        Value::Plain(shown.join("・")),
                    )],
                }];
            }
            let mine: BTreeSet<&str> = table
                .characters()
                .into_iter()
                .filter(|(_, o)| *o == table.actor())
                .map(|(n, _)| n)
                .collect();
            let found: BTreeSet<&String> = c
                .found_by
                .iter()
                .filter(|(pc, _)| mine.contains(pc.as_str()))
                .flat_map(|(_, t)| t)
                .collect();
            let mut shown: Vec<String> = found.iter().map(|t| t.to_string()).collect();
            // SG-1 (l.177): the last boss is revealed when the climax starts.
            if c.last_boss && state.climax {
                shown.push(LAST_BOSS.to_string());
            }
            let shown = shown.join("・");
            let value = if shown.is_empty() {
                Text::new("（秘匿）", "(hidden)")
            } else if found.is_empty() {
                Text::new(
                    format!("{shown}（他の類型は秘匿）"),
                    format!("{shown} (the other types are hidden)"),
                )
            } else {
                Text::new(
                    format!("{shown}（判明した類型。他は秘匿）"),
                    format!("{shown} (the types found; the others are hidden)"),
                )
            };
            return vec![Section {
                title: Text::new("類型", "Types"),
                fields: vec![Field::derived(
                    Text::new("類型", "types"),
                    Value::Text(value),
                )],
            }];
        }
        let s = &state.settings;
        let mut sections = Vec::new();
        let mut types: Vec<String> = c.types.clone();
        if c.last_boss && (viewer_is_gm || state.climax || is_pc(table, name)) {
            types.push(LAST_BOSS.to_string());
        }
        // SG-1 (l.26 「類型はセッション開始時に決定できる」): a new session starts with
        // none chosen; the sheet says how to choose them rather than show nothing.
        let shown = if types.is_empty() {
            Value::Text(Text::new(
                format!("（未選択。/sg choose {name} 類型1 類型2 類型3 で選ぶ、SG-1）"),
                format!("(none chosen; choose with /sg choose {name} TYPE1 TYPE2 TYPE3, SG-1)"),
            ))
        } else {
            Value::Plain(types.join("・"))
        };
        let mut fields = vec![Field::derived(Text::new("類型", "types"), shown)];
        if c.original_work {
            fields.push(Field::derived(
                Text::new("原作キャラクター", "original-work character"),
                Value::Text(Text::new("○", "yes")),
            ));
        }
        sections.push(Section {
            title: Text::new("類型（SG-1）", "Types (SG-1)"),
            fields,
        });
        for t in &types {
            let (value, owed) = effective(c, t, s);
            let mut fields = Vec::new();
            for b in c.bonds.iter().filter(|b| &b.type_name == t) {
                if b.climax && !viewer_is_gm && !state.climax {
                    continue;
                }
                let (mark, mark_en) = if b.preset {
                    ("（事前）", " (preset)")
                } else {
                    ("", "")
                };
                fields.push(Field::derived(
                    Text::new(format!("縁故: {}", b.target), format!("bond: {}", b.target)),
                    Value::Text(Text::new(
                        format!("Lv{}{mark}", b.level),
                        format!("Lv{}{mark_en}", b.level),
                    )),
                ));
            }
            fields.push(Field::derived(
                Text::new("幻想値", "fantasy value"),
                Value::Plain(value.to_string()),
            ));
            if owed > 0 {
                fields.push(Field::derived(
                    Text::new("前借りの返済（SG-5）", "owed (SG-5)"),
                    Value::Plain(owed.to_string()),
                ));
            }
            if let Some(def) = state.types.get(t) {
                for a in &def.abilities {
                    let used = c.used.contains(&format!("{t}/{}", a.name));
                    let state_word = match (value >= a.threshold, used) {
                        (_, true) => Text::new("使用済み", "used"),
                        (true, false) => Text::new("使用可", "usable"),
                        (false, false) => Text::new("未到達", "not reached"),
                    };
                    fields.push(Field::derived(
                        Text::new(
                            format!("{}（{}）", a.name, a.threshold),
                            format!("{} ({})", a.name, a.threshold),
                        ),
                        Value::Text(state_word),
                    ));
                }
            }
            sections.push(Section {
                title: Text::new(format!("{t}（SG-2/3）"), format!("{t} (SG-2/3)")),
                fields,
            });
        }
        // SG-2 (l.101–103): a bond is under one of the character's types; one left under
        // a type the character no longer has (types changed, or a choice undone) is
        // shown, not hidden, so the GM can discard it.
        let orphans: Vec<Field> = c
            .bonds
            .iter()
            .filter(|b| !types.contains(&b.type_name) && b.type_name != LAST_BOSS)
            .map(|b| {
                Field::derived(
                    Text::new(format!("縁故: {}", b.target), format!("bond: {}", b.target)),
                    Value::Plain(format!("{} Lv{}", b.type_name, b.level)),
                )
            })
            .collect();
        if !orphans.is_empty() {
            sections.push(Section {
                title: Text::new(
                    "今の類型にない縁故（SG-2: /sg discard で破棄）",
                    "Bonds under types no longer held (SG-2: /sg discard)",
                ),
                fields: orphans,
            });
        }
        sections
    }
}
