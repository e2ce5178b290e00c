//! AW-5 contracts (契約) and command spells (令呪).
//!
//! - A contract binds a master and a servant. A master may have many servants; a servant
//!   has at most one master; a servant may have servants of its own. Our reading: nobody
//!   contracts with themselves and nobody becomes the servant of their own servant chain.
//! - Made when both agree: the GM records it at once; a player who owns one side proposes
//!   and the owner of the other side confirms with the same command (or the same player
//!   owns both).
//! - The same master→servant pair never contracts again; the reversed pair may.
//! - Command spells: 3 per master per scenario (our reading: per master, whatever the
//!   number of servants), refilled when the session ends. Each use spends one: force an
//!   order, summon (in combat the round goes straight to cleanup, AW-3), dismiss, +20 to
//!   the servant's next check, dissolve the contract. At 0 a use is refused.
//! - Other dissolutions (cutting away the mark, psychic surgery, special effects) are the
//!   GM's `/contract end`.

use super::combat;
use super::rules::{Decided, Event as AwEvent, State, gm_only, may_act_for, no_character, one};
use crate::table_rules::{Outcome, Prepared, TableView};
use crate::view::{Field, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use taku_dice::Text;

/// Command spells per master per scenario.
pub const SPELLS: u32 = 3;
/// What the "make the action succeed" use adds to the servant's achievement.
pub const BOOST: i64 = 20;

/// Contracts at a table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Contracts {
    /// Servant → master.
    pub master_of: BTreeMap<String, String>,
    /// Every master→servant pair that has ever contracted (never again).
    pub past: BTreeSet<(String, String)>,
    /// Command spells used this session, by master.
    pub used: BTreeMap<String, u32>,
    /// Proposed contracts waiting for the other side: (master, servant) → proposing member.
    pub proposals: BTreeMap<(String, String), String>,
    /// Servants whose next check gets +20: servant → the master who spent the spell.
    pub boosts: BTreeMap<String, String>,
    /// Servants a command spell summoned, with the scene they came into (dismissing
    /// takes them out again).
    pub summoned: BTreeMap<String, u64>,
    /// Servants a command spell dismissed, with the scene they left (a summon brings them
    /// back): not in that scene, so not dismissed again (AW-5 3).
    pub dismissed: BTreeMap<String, u64>,
}

impl Contracts {
    /// The servants of `master`, by name.
    pub fn servants_of(&self, master: &str) -> Vec<&str> {
        self.master_of
            .iter()
            .filter(|(_, m)| m.as_str() == master)
            .map(|(s, _)| s.as_str())
            .collect()
    }

    /// Command spells `master` has left this session.
    pub fn spells_left(&self, master: &str) -> u32 {
        SPELLS.saturating_sub(self.used.get(master).copied().unwrap_or(0))
    }

    /// Whether `a` and `b` are in a contract, either way round (AW-4's supply asks).
    pub fn bound(&self, a: &str, b: &str) -> bool {
        self.master_of.get(b).is_some_and(|m| m == a)
            || self.master_of.get(a).is_some_and(|m| m == b)
    }

    /// Why `master` may not take `servant` now, if so.
    fn forbids(&self, master: &str, servant: &str) -> Option<Text> {
        if master == servant {
            return Some(Text::new(
                format!("{master}は自分自身と契約できません（AW-5）"),
                format!("{master} cannot contract with themselves (AW-5)"),
            ));
        }
        if let Some(m) = self.master_of.get(servant) {
            return Some(Text::new(
                format!(
                    "{servant}にはすでにマスター（{m}）がいます。サーヴァントのマスターは1人だけです（AW-5）"
                ),
                format!("{servant} already has a master ({m}); a servant has only one (AW-5)"),
            ));
        }
        if self
            .past
            .contains(&(master.to_string(), servant.to_string()))
        {
            return Some(Text::new(
                format!(
                    "{master}は以前{servant}のマスターでした。同じ組み合わせで再び契約することはできません\
                     （AW-5。{servant}が{master}のマスターになることはできます）"
                ),
                format!(
                    "{master} was {servant}'s master before; the same pair never contracts again \
                     (AW-5; {servant} may become {master}'s master instead)"
                ),
            ));
        }
        // No cycles: the servant must not be the master's master, or theirs, and so on.
        let mut up = master;
        let mut seen = BTreeSet::new();
        while let Some(m) = self.master_of.get(up) {
            if m == servant {
                return Some(Text::new(
                    format!(
                        "契約の連なりで{servant}は{master}より上にいます。自分のサーヴァントの\
                         サーヴァントになることはできません（AW-5）"
                    ),
                    format!(
                        "{servant} is above {master} in a chain of contracts; nobody becomes the \
                         servant of their own servant (AW-5)"
                    ),
                ));
            }
            if !seen.insert(m.as_str()) {
                break;
            }
            up = m;
        }
        None
    }
}

/// A command spell's use (AW-5, 1–5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Use {
    /// 1. Force an order the servant refuses.
    Order,
    /// 2. Summon a servant not in the scene.
    Summon,
    /// 3. Remove a servant from the scene.
    Dismiss,
    /// 4. +20 to the servant's next check.
    Boost,
    /// 5. Dissolve the contract.
    Dissolve,
    /// AW-7's special rule: the spell makes an AF check succeed.
    AfSuccess,
}

impl Use {
    fn parse(word: &str) -> Option<Use> {
        Some(match word {
            "order" | "命令" | "強要" => Use::Order,
            "summon" | "召喚" | "登場" => Use::Summon,
            "dismiss" | "退場" => Use::Dismiss,
            "boost" | "成功" | "+20" => Use::Boost,
            "dissolve" | "破棄" => Use::Dissolve,
            _ => return None,
        })
    }

    /// What the use does, in every language.
    fn text(self) -> Text {
        let (ja, en) = match self {
            Use::Order => (
                "意に添わない命令を強要",
                "force an order against their will",
            ),
            Use::Summon => ("シーンに登場させる", "summon into the scene"),
            Use::Dismiss => ("シーンから退場させる", "dismiss from the scene"),
            Use::Boost => (
                "行動を成功させる（次の判定の達成値+20）",
                "make an action succeed (+20 to the next check's achievement)",
            ),
            Use::Dissolve => ("契約破棄", "dissolve the contract"),
            Use::AfSuccess => ("AF判定を成功させる", "make the AF check succeed"),
        };
        Text::new(ja, en)
    }
}

/// What happened to contracts and spells.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// One side proposed; the other side's owner has yet to agree.
    Proposed {
        /// Master.
        master: String,
        /// Servant.
        servant: String,
    },
    /// A contract was made.
    Made {
        /// Master.
        master: String,
        /// Servant.
        servant: String,
        /// The GM made it for a player's character with no offer or agreement of that
        /// player's recorded (seed 「…が契約に合意した時点で」: the log says so).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        ruled: bool,
    },
    /// A contract ended.
    Dissolved {
        /// Master.
        master: String,
        /// Servant.
        servant: String,
        /// How (a command spell, cutting the mark, psychic surgery…).
        how: String,
    },
    /// A command spell was used.
    Spent {
        /// The master who spent it.
        master: String,
        /// The servant it was aimed at, if any.
        servant: Option<String>,
        /// What for.
        purpose: Use,
        /// Spells left after it.
        left: u32,
        /// The scene it was spent in (a summon's servant is in that scene).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scene: Option<u64>,
        /// The words after the servant: the order it forces (「サーヴァントが拒否する命令を
        /// 令呪で強要する」), or why.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        words: Option<String>,
    },
    /// A servant's +20 was applied to a check.
    BoostApplied {
        /// Servant.
        servant: String,
    },
    /// A master's spells refilled at the session's end.
    Refilled {
        /// Master.
        master: String,
    },
}

fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

/// `/contract …`, `/spell …`, `/spells …`.
pub fn decide(table: &dyn TableView, state: &State, words: &[&str]) -> Decided {
    let c = &state.contracts;
    Some(match words {
        ["contract", "end", master, servant, how @ ..] => end(table, c, master, servant, how),
        ["contract", "end", ..] => Err(usage(
            "/contract end マスター サーヴァント 理由",
            "/contract end MASTER SERVANT REASON",
        )),
        ["contract", master, servant] => make(table, state, master, servant),
        ["contract", ..] => Err(usage(
            "/contract マスター サーヴァント（破棄は /contract end マスター サーヴァント 理由）",
            "/contract MASTER SERVANT (or /contract end MASTER SERVANT REASON)",
        )),
        ["spell", master, purpose, rest @ ..] => match Use::parse(purpose) {
            Some(purpose) => {
                spend(table, state, master, purpose, rest.first().copied()).map(|mut outcome| {
                    // The order itself, as typed after the servant (issue 13 play-through
                    // 4: `/spell ロイ order ユキ 踊れ` lost 「踊れ」).
                    if rest.len() > 1 {
                        for e in &mut outcome.events {
                            if let AwEvent::Contract(Event::Spent { words, .. }) = e {
                                *words = Some(rest[1..].join(" "));
                            }
                        }
                    }
                    outcome
                })
            }
            None => Err(Text::new(
                format!(
                    "令呪の使い道「{purpose}」はありません。order（命令の強要）・summon（召喚）・dismiss（退場）・boost（+20）・dissolve（契約破棄）のいずれかです"
                ),
                format!(
                    "unknown use '{purpose}'; a command spell can order, summon, dismiss, boost (+20) or dissolve"
                ),
            )),
        },
        ["spell", ..] => Err(usage(
            "/spell マスター order|summon|dismiss|boost|dissolve [サーヴァント]",
            "/spell MASTER order|summon|dismiss|boost|dissolve [SERVANT]",
        )),
        ["spells"] => Ok(spells_reply(table, c, None)),
        ["spells", name] => spells_of(table, c, name),
        _ => return None,
    })
}

fn make(
    table: &dyn TableView,
    state: &State,
    master: &str,
    servant: &str,
) -> Result<Outcome<AwEvent>, Text> {
    let c = &state.contracts;
    for name in [master, servant] {
        if table.character(name).is_none() {
            return Err(no_character(name));
        }
    }
    if let Some(why) = c.forbids(master, servant) {
        return Err(why);
    }
    let owner = |n: &str| {
        table
            .character(n)
            .map(|(o, _)| o.to_string())
            .unwrap_or_default()
    };
    let (mo, so) = (owner(master), owner(servant));
    let actor = table.actor();
    let made = |ruled: bool| {
        one(AwEvent::Contract(Event::Made {
            master: master.to_string(),
            servant: servant.to_string(),
            ruled,
        }))
    };
    // The GM may make a contract (a ruling), but AW-5 makes one when both sides agree: a
    // player's character bound with no offer or agreement of theirs is marked in the log
    // (issue 13 play-through 4), and an offer a player made counts as theirs.
    if table.actor_is_gm() {
        // Attack pass 8, A8-12: a contract's line is public and makes both names known
        // (AW-5 writes them on the sheet), so one between the GM's own NPCs, one of them
        // never put before the players (issue 13: a name never used, for them), would
        // announce it. With a player's character the player must know (seed 「…が契約に
        // 合意した時点で」); between NPCs, the GM brings them on first.
        let unmet = [master, servant].into_iter().find(|n| {
            super::rules::secret_npc(table, state, n)
                && !crate::table_rules::TableRules::hidden_name_shown(
                    &super::rules::AwRules,
                    state,
                    n,
                )
        });
        if table.member_is_gm(&mo)
            && table.member_is_gm(&so)
            && let Some(unmet) = unmet
        {
            return Err(Text::new(
                format!(
                    "{unmet}はまだプレイヤーの前に登場していません。契約成立はプレイヤー全員に公表されるので、NPC同士の契約は両方が登場してから結んでください（/npc appear {unmet}）"
                ),
                format!(
                    "{unmet} has not appeared before the players yet; a contract is announced to every player, so contract two NPCs once both have appeared (/npc appear {unmet})"
                ),
            ));
        }
        let key = (master.to_string(), servant.to_string());
        let proposer = c.proposals.get(&key);
        let unheard = [&mo, &so]
            .into_iter()
            .any(|o| !table.member_is_gm(o) && proposer.is_none_or(|p| p != o));
        return made(unheard);
    }
    if mo == actor && so == actor {
        return made(false);
    }
    if mo != actor && so != actor {
        return Err(Text::new(
            format!(
                "あなたは{master}と{servant}のどちらのプレイヤーでもありません。契約はそれぞれのプレイヤー（{mo}、{so}）かGMが結びます"
            ),
            format!(
                "you own neither {master} nor {servant}; their owners ({mo}, {so}) or the GM make contracts"
            ),
        ));
    }
    let key = (master.to_string(), servant.to_string());
    match c.proposals.get(&key) {
        // The other side proposed: this is the agreement.
        Some(proposer) if proposer != actor => made(false),
        Some(_) => {
            let other = if mo == actor { &so } else { &mo };
            Err(Text::new(
                format!(
                    "この契約はすでに申し出ています。{other}が同じコマンドで同意すると成立します"
                ),
                format!(
                    "you already proposed this contract; {other} must agree with the same command"
                ),
            ))
        }
        None => one(AwEvent::Contract(Event::Proposed {
            master: master.to_string(),
            servant: servant.to_string(),
        })),
    }
}

fn end(
    table: &dyn TableView,
    c: &Contracts,
    master: &str,
    servant: &str,
    how: &[&str],
) -> Result<Outcome<AwEvent>, Text> {
    gm_only(
        table,
        Text::new(
            "令呪以外による契約破棄（令呪での破棄は /spell マスター dissolve）",
            "end a contract by other means (a spell's dissolve is /spell MASTER dissolve)",
        ),
    )?;
    if c.master_of.get(servant).map(String::as_str) != Some(master) {
        return Err(Text::new(
            format!("{master}は{servant}のマスターではありません"),
            format!("{master} is not {servant}'s master"),
        ));
    }
    if how.is_empty() {
        return Err(Text::new(
            "破棄の理由を書いてください: /contract end マスター サーヴァント 心霊治療（刻印切除 など）",
            "say how it ended: /contract end MASTER SERVANT 心霊治療 (or 刻印切除, …)",
        ));
    }
    one(AwEvent::Contract(Event::Dissolved {
        master: master.to_string(),
        servant: servant.to_string(),
        how: how.join(" "),
    }))
}

/// Spends one of `master`'s spells, or says why not. Also used by AW-7's special rule.
pub fn spend_event(
    table: &dyn TableView,
    c: &Contracts,
    master: &str,
    servant: Option<String>,
    purpose: Use,
) -> Result<AwEvent, Text> {
    may_act_for(table, master)?;
    let left = c.spells_left(master);
    if left == 0 {
        return Err(Text::new(
            format!(
                "{master}の令呪は残っていません（このセッションで{SPELLS}回とも使用済）。セッション終了時に回復します（AW-5）"
            ),
            format!(
                "{master} has no command spell left (all {SPELLS} used this session); they refill when the session ends (AW-5)"
            ),
        ));
    }
    Ok(AwEvent::Contract(Event::Spent {
        master: master.to_string(),
        servant,
        purpose,
        left: left - 1,
        scene: Some(table.scene_and_session().0),
        words: None,
    }))
}

/// How a contract ended by a command spell, as a `Dissolved` event stores it.
const BY_SPELL: &str = "令呪";

fn spend(
    table: &dyn TableView,
    state: &State,
    master: &str,
    purpose: Use,
    servant: Option<&str>,
) -> Result<Outcome<AwEvent>, Text> {
    let c = &state.contracts;
    if table.character(master).is_none() {
        return Err(no_character(master));
    }
    let servants = c.servants_of(master);
    let servant = match (servant, servants.as_slice()) {
        (Some(s), _) if servants.contains(&s) => s.to_string(),
        (Some(s), _) => {
            return Err(Text::new(
                format!("{s}は{master}のサーヴァントではありません"),
                format!("{s} is not {master}'s servant"),
            ));
        }
        (None, [only]) => only.to_string(),
        (None, []) => {
            return Err(Text::new(
                format!(
                    "{master}にはサーヴァントがいません。令呪はサーヴァントへの命令です（AW-5）"
                ),
                format!("{master} has no servant; a command spell is an order to a servant (AW-5)"),
            ));
        }
        (None, several) => {
            return Err(Text::new(
                format!(
                    "{master}にはサーヴァントが複数います（{}）。/spell {master} … サーヴァント のように指定してください",
                    several.join("、")
                ),
                format!(
                    "{master} has several servants ({}); name one: /spell {master} … SERVANT",
                    several.join(", ")
                ),
            ));
        }
    };
    let in_combat = state
        .combat
        .as_ref()
        .is_some_and(|cb| cb.combatants.iter().any(|x| x.name == servant));
    let scene = table.scene_and_session().0;
    // AW-5 2 「シーンに登場していないサーヴァントを…呼び出す」: one already here is not
    // summoned.
    if purpose == Use::Summon && (in_combat || c.summoned.get(&servant) == Some(&scene)) {
        return Err(Text::new(
            format!(
                "{servant}はすでにシーンに登場しています{}。令呪で呼び出せるのはシーンに登場していないサーヴァントです（AW-5）",
                if in_combat {
                    "（戦闘に参加中）"
                } else {
                    ""
                }
            ),
            format!(
                "{servant} is already in the scene{}; a command spell summons a servant who is not (AW-5)",
                if in_combat { " (in the combat)" } else { "" }
            ),
        ));
    }
    // AW-5 3 「既にシーンに登場しているサーヴァントを、強制的に退場させる」: one dismissed in
    // this scene and not summoned since is not here to dismiss (issue 13 play-through).
    if purpose == Use::Dismiss && !in_combat && c.dismissed.get(&servant) == Some(&scene) {
        return Err(Text::new(
            format!(
                "{servant}はこのシーンですでに令呪で退場しています。令呪で退場させられるのはシーンに登場しているサーヴァントです（AW-5）。呼び戻すなら /spell {master} summon {servant}"
            ),
            format!(
                "{servant} was already dismissed by a command spell in this scene; a command spell dismisses a servant who is in the scene (AW-5); to bring them back: /spell {master} summon {servant}"
            ),
        ));
    }
    let mut events = vec![spend_event(
        table,
        c,
        master,
        Some(servant.clone()),
        purpose,
    )?];
    let mut reply = None;
    match purpose {
        Use::Summon => {
            // AW-5 2 / AW-3: a summon during combat ends the round at once, and the
            // servant joins the combat (issue 13); one that cannot join (no 【行動値】)
            // is still summoned, and the reply says how to add it.
            events.extend(combat::to_cleanup(
                &state.combat,
                &combat::summoned(&servant),
            ));
            match combat::join(table, &state.combat, &servant) {
                Ok(joined) => events.extend(joined),
                Err(why) => reply = Some(why),
            }
        }
        Use::Dismiss => {
            // AW-5 3: out of the scene, so out of the combat too.
            events.extend(combat::leave(
                table,
                &state.combat,
                &servant,
                combat::DISMISSED,
            ));
        }
        Use::Dissolve => events.push(AwEvent::Contract(Event::Dissolved {
            master: master.to_string(),
            servant: servant.clone(),
            how: BY_SPELL.to_string(),
        })),
        Use::Boost if c.boosts.contains_key(&servant) => {
            return Err(Text::new(
                format!("{servant}の次の判定にはすでに+{BOOST}がついています"),
                format!("{servant}'s next check already has +{BOOST}"),
            ));
        }
        _ => {}
    }
    Ok(Outcome { events, reply })
}

/// `/spells NAME`: a name that is no character (or one the asker may not know of) is
/// refused as every command refuses it (attack pass 7 A7-15, aw8 F6); a GM's character's
/// spells are the GM's to know, as in the list.
fn spells_of(table: &dyn TableView, c: &Contracts, name: &str) -> Result<Outcome<AwEvent>, Text> {
    let Some((owner, _)) = table.character(name) else {
        return Err(no_character(name));
    };
    if !table.actor_is_gm() && table.member_is_gm(owner) {
        return Err(Text::new(
            format!("{name}はGMのキャラクターです。GMのキャラクターの令呪はGMだけが知っています"),
            format!(
                "{name} is the GM's character; the GM's characters' command spells are the GM's to know"
            ),
        ));
    }
    Ok(spells_reply(table, c, Some(name)))
}

fn spells_reply(table: &dyn TableView, c: &Contracts, name: Option<&str>) -> Outcome<AwEvent> {
    let masters: Vec<String> = match name {
        Some(n) => vec![n.to_string()],
        None => table
            .characters()
            .into_iter()
            .filter(|(n, _)| !c.servants_of(n).is_empty())
            // The GM's characters' spells are the GM's to know (issue 13 play-through):
            // a player's list holds the players' characters.
            .filter(|(_, owner)| table.actor_is_gm() || !table.member_is_gm(owner))
            .map(|(n, _)| n.to_string())
            .collect(),
    };
    let text = if masters.is_empty() {
        Text::new(
            "サーヴァントのいるマスターはいません",
            "no master has a servant yet",
        )
    } else {
        let lines = |line: &dyn Fn(&str, u32) -> String| {
            masters
                .iter()
                .map(|m| line(m, c.spells_left(m)))
                .collect::<Vec<_>>()
                .join("\n")
        };
        Text::new(
            lines(&|m, n| format!("{m}の令呪: 残り{n}/{SPELLS}")),
            lines(&|m, n| format!("{m}'s command spells: {n}/{SPELLS} left")),
        )
    };
    Outcome {
        events: Vec::new(),
        reply: Some(text),
    }
}

/// Folds a contract event (total: an event that no longer applies changes nothing).
pub fn fold(c: &mut Contracts, actor: &str, e: &Event) {
    match e {
        Event::Proposed { master, servant } => {
            c.proposals
                .insert((master.clone(), servant.clone()), actor.to_string());
        }
        Event::Made {
            master, servant, ..
        } => {
            c.proposals.remove(&(master.clone(), servant.clone()));
            if !c.master_of.contains_key(servant) {
                c.master_of.insert(servant.clone(), master.clone());
                c.past.insert((master.clone(), servant.clone()));
            }
        }
        Event::Dissolved {
            master, servant, ..
        } => {
            if c.master_of.get(servant) == Some(master) {
                c.master_of.remove(servant);
                c.boosts.remove(servant);
            }
        }
        Event::Spent {
            master,
            servant,
            purpose,
            scene,
            ..
        } => {
            *c.used.entry(master.clone()).or_default() += 1;
            match (purpose, servant) {
                (Use::Boost, Some(s)) => {
                    c.boosts.insert(s.clone(), master.clone());
                }
                (Use::Summon, Some(s)) => {
                    c.summoned.insert(s.clone(), scene.unwrap_or(0));
                    c.dismissed.remove(s);
                }
                (Use::Dismiss, Some(s)) => {
                    c.summoned.remove(s);
                    c.dismissed.insert(s.clone(), scene.unwrap_or(0));
                }
                _ => {}
            }
        }
        Event::BoostApplied { servant } => {
            c.boosts.remove(servant);
        }
        Event::Refilled { master } => {
            c.used.remove(master);
        }
    }
}

/// A line of log text.
pub fn describe(e: &Event) -> Text {
    match e {
        Event::Proposed { master, servant } => Text::new(
            format!("契約の申し出: マスター {master}、サーヴァント {servant}（相手の同意待ち）"),
            format!(
                "contract proposed: {master} the master, {servant} the servant (waiting for the other side to agree)"
            ),
        ),
        Event::Made {
            master,
            servant,
            ruled,
        } => {
            let (ja, en) = if *ruled {
                (
                    "（GMの裁定で。プレイヤーの申し出・同意は記録されていません）",
                    " (by the GM's ruling; no offer or agreement of a player is recorded)",
                )
            } else {
                ("", "")
            };
            Text::new(
                format!(
                    "契約成立{ja}: マスター {master}、サーヴァント {servant}（令呪刻印が現れる）"
                ),
                format!(
                    "contract made{en}: {master} the master, {servant} the servant (the command spell mark appears)"
                ),
            )
        }
        Event::Dissolved {
            master,
            servant,
            how,
        } => {
            let how_en = if how == BY_SPELL {
                "a command spell"
            } else {
                how.as_str()
            };
            Text::new(
                format!("契約破棄（{how}）: {master} と {servant}"),
                format!("contract between {master} and {servant} dissolved ({how_en})"),
            )
        }
        Event::Spent {
            master,
            servant,
            purpose,
            left,
            words,
            ..
        } => {
            let what = purpose.text();
            let (words_ja, words_en) = words
                .as_deref()
                .map(|w| (format!("「{w}」"), format!(" '{w}'")))
                .unwrap_or_default();
            Text::new(
                format!(
                    "{master}の令呪: {}{}{words_ja} ＞ 残り{left}",
                    servant
                        .as_deref()
                        .map(|s| {
                            // Japanese particles by use: ロイに命令を強要、ロイの行動を成功させる.
                            let particle = match purpose {
                                Use::Order => "に",
                                Use::Boost => "の",
                                Use::Dissolve => "との",
                                _ => "を",
                            };
                            format!("{s}{particle}")
                        })
                        .unwrap_or_default(),
                    what.ja()
                ),
                format!(
                    "{master}'s command spell: {}{}{words_en} > {left} left",
                    what.en(),
                    servant
                        .as_deref()
                        .map(|s| format!(" ({s})"))
                        .unwrap_or_default(),
                ),
            )
        }
        Event::BoostApplied { servant } => Text::new(
            format!("{servant}の判定に令呪の+{BOOST}を適用"),
            format!("a command spell's +{BOOST} applied to {servant}'s check"),
        ),
        Event::Refilled { master } => Text::new(
            format!("{master}の令呪が{SPELLS}回に回復（セッション終了）"),
            format!("{master}'s command spells refilled to {SPELLS} (end of session)"),
        ),
    }
}

/// Session end: every master who used a spell gets them back (AW-5).
pub fn on_session_end(c: &Contracts) -> Vec<AwEvent> {
    c.used
        .keys()
        .map(|m| AwEvent::Contract(Event::Refilled { master: m.clone() }))
        .collect()
}

/// AW-5 4 「サーヴァントが行う行為判定の達成値を+20する」: the +20 goes to the servant's own
/// next AW action check — a check whose field reference, comment or single character
/// names the servant, or the servant's side of a contest (named by its reference) — and
/// to nothing else: not a damage sum, not the other side, not another character of the
/// same player, not the GM's roll for someone else (issue 13).
pub fn prepare_check(table: &dyn TableView, c: &Contracts, command: &str) -> Prepared<AwEvent> {
    let unchanged = Prepared {
        command: command.to_string(),
        events: Vec::new(),
        note: None,
    };
    if c.boosts.is_empty() {
        return unchanged;
    }
    let Some((typed, comment)) = super::rules::typed_sides(table) else {
        return unchanged;
    };
    let (mut sides, rest) = super::rules::sides(command);
    if sides.len() != typed.len() || (sides.len() == 1 && !super::is_check(command)) {
        return unchanged;
    }
    let contest = sides.len() == 2;
    // A player's contest naming no character by reference (`AW+3 VS AW+1`): the action
    // side is the roller's own character acting (AW-2: the one acting rolls first).
    let by_reference = typed.iter().any(|s| s.contains('{'));
    for (i, side) in typed.iter().enumerate() {
        let fallback = !contest || (i == 0 && !by_reference && !table.actor_is_gm());
        let subject = super::rules::subject_of(table, side, &comment, fallback);
        let Some(servant) = subject.character else {
            continue;
        };
        let Some(master) = c.boosts.get(&servant) else {
            continue;
        };
        let rolls_for_it = table
            .character(&servant)
            .is_some_and(|(o, _)| o == table.actor() || table.actor_is_gm());
        let Some(at) = modifier_end(&sides[i]).filter(|_| rolls_for_it) else {
            continue;
        };
        sides[i] = format!("{}+{BOOST}{}", &sides[i][..at], &sides[i][at..]);
        let tail = if rest.is_empty() {
            String::new()
        } else {
            format!(" {rest}")
        };
        return Prepared {
            command: format!("{}{tail}", sides.join(" VS ")),
            events: vec![AwEvent::Contract(Event::BoostApplied {
                servant: servant.clone(),
            })],
            note: Some(Text::new(
                format!("{servant}への{master}の令呪 +{BOOST}"),
                format!("{master}'s command spell +{BOOST} for {servant}"),
            )),
        };
    }
    unchanged
}

/// Where an AW check's modifier ends (`AW+3` in `AW+3@11>=10`), or `None` when the line
/// is not an AW check.
fn modifier_end(command: &str) -> Option<usize> {
    let upper = command.to_ascii_uppercase();
    let start = usize::from(upper.starts_with('S'));
    let rest = &upper[start..];
    let notation = ["AW", "2D6"].into_iter().find(|n| rest.starts_with(n))?;
    let from = start + notation.len();
    let len = upper[from..]
        .bytes()
        .take_while(|b| b.is_ascii_digit() || b"+-*/()".contains(b))
        .count();
    Some(from + len)
}

/// What a character's sheet shows of contracts: its master, its servants, its command
/// spells left (as a resource of 3) and a +20 waiting for its next check.
pub fn fields(c: &Contracts, name: &str) -> Vec<Field> {
    let mut out = Vec::new();
    if let Some(m) = c.master_of.get(name) {
        out.push(Field::derived(
            Text::new("マスター", "master"),
            Value::Text(Text::verbatim(m.as_str())),
        ));
    }
    let servants = c.servants_of(name);
    if !servants.is_empty() || c.used.contains_key(name) {
        if !servants.is_empty() {
            out.push(Field::derived(
                Text::new("サーヴァント", "servants"),
                Value::List(servants.iter().map(|s| Text::verbatim(*s)).collect()),
            ));
        }
        out.push(Field::derived(
            Text::new("令呪", "command spells"),
            Value::Resource {
                current: i64::from(c.spells_left(name)),
                max: i64::from(SPELLS),
            },
        ));
    }
    if let Some(m) = c.boosts.get(name) {
        out.push(Field::derived(
            Text::new("次の判定", "next check"),
            Value::Text(Text::new(
                format!("{m}の令呪 +{BOOST}"),
                format!("+{BOOST} from {m}'s command spell"),
            )),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::modifier_end;

    #[test]
    fn the_boost_goes_after_the_modifier() {
        assert_eq!(modifier_end("AW+3>=10"), Some(4));
        assert_eq!(modifier_end("SAW+3@11>=10"), Some(5));
        assert_eq!(modifier_end("aw"), Some(2));
        assert_eq!(modifier_end("2D6+(1+2)>=8"), Some(9));
        assert_eq!(modifier_end("1D100<=50"), None);
        assert_eq!(modifier_end("hello"), None);
    }
}
