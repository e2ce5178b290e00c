//! AW-3 combat rounds (ラウンド進行): setup → initiative → main → back to initiative until
//! everyone has acted → cleanup → the next round.
//!
//! - Initiative: among the characters not yet acted, the highest 【行動値】 acts next.
//!   Ties: PCs before NPCs; between PCs the GM decides, by default higher 【反射】, then
//!   【知覚】, then 【幸運】; between NPCs the GM's order. `/combat order` records the
//!   GM's order for ties (it never overrides a higher action value).
//! - Main process: one minor action, then one major action. Combat move (minor) up to
//!   【行動値】+5 m and full move (major) up to twice that, neither while engaged with an
//!   enemy; disengage (major) leaves the engagement and moves up to 【行動値】+5 m; escape
//!   (major) is a full move while not engaged that leaves the scene. The major action
//!   ends the character's main process.
//! - A command-spell summon during combat sends the round straight to cleanup (AW-5).

use super::contest::{self, Contest, Reaction};
use super::rules::{
    Decided, Event as AwEvent, Kind, State, field, gm_only, kind, may_act_for, one,
};
use crate::srs::Check;
use crate::table_rules::{Outcome, TableView};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use taku_dice::{Roller, Text};

/// One character in the combat, with the values initiative reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    /// Character name.
    pub name: String,
    /// PC (true) or NPC.
    pub pc: bool,
    /// 【行動値】.
    pub action: i64,
    /// 【反射】, 【知覚】, 【幸運】: the default tie order between PCs.
    pub tie: [i64; 3],
    /// Acted this round (行動済).
    #[serde(default)]
    pub acted: bool,
    /// 戦闘不能: current 【HP】 0 or less, read from the character each time the rules
    /// decide. Our reading of 「戦闘不能」 (unable to fight): initiative passes over the
    /// character until its HP is above 0 again (issue 13).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub down: bool,
}

impl Combatant {
    /// Combat move distance in metres: 【行動値】+5.
    pub fn combat_move(&self) -> i64 {
        super::sheet::combat_move(self.action)
    }
    /// Full move distance: twice the combat move.
    pub fn full_move(&self) -> i64 {
        super::sheet::full_move(self.action)
    }
}

/// Where the round is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "process", rename_all = "snake_case")]
pub enum Process {
    /// セットアッププロセス.
    Setup,
    /// メインプロセス of `actor`: which of its actions are done.
    Main {
        /// Acting character.
        actor: String,
        /// Minor action taken.
        minor: bool,
    },
    /// クリンナッププロセス.
    Cleanup,
}

/// A combat in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Combat {
    /// Round, from 1.
    pub round: u32,
    /// Current process.
    pub process: Process,
    /// Everyone in it, in the order they joined.
    pub combatants: Vec<Combatant>,
    /// The GM's order for ties (earlier first).
    pub order: Vec<String>,
    /// AW-3 engagements as a relation: pairs of enemies (a PC and an NPC) engaged with
    /// each other, each pair sorted. Two PCs are never engaged with each other; leaving
    /// frees whoever is left with no enemy (issue 13).
    pub engagements: std::collections::BTreeSet<(String, String)>,
    /// AW-3 blockade (エンゲージ封鎖): enemies the GM says block disengagement; leaving an
    /// engagement with one of them takes a won 【行動値】 contest against every engaged
    /// enemy that blocks.
    pub blockers: std::collections::BTreeSet<String>,
}

impl Combat {
    /// Whether `name` is engaged with any enemy.
    pub fn engaged(&self, name: &str) -> bool {
        self.engagements.iter().any(|(a, b)| a == name || b == name)
    }

    /// The enemies `name` is engaged with.
    pub fn engaged_with(&self, name: &str) -> Vec<&str> {
        self.engagements
            .iter()
            .filter_map(|(a, b)| {
                if a == name {
                    Some(b.as_str())
                } else if b == name {
                    Some(a.as_str())
                } else {
                    None
                }
            })
            .collect()
    }

    /// The same combat with every combatant's 【行動値】 and tie values read again from
    /// the characters (AW-3: initiative uses the current values each round; issue 13).
    pub(crate) fn refreshed(&self, table: &dyn TableView) -> Combat {
        let mut c = self.clone();
        for x in &mut c.combatants {
            if let Ok(fresh) = combatant(table, &x.name) {
                x.action = fresh.action;
                x.tie = fresh.tie;
            }
            x.down = down(table, &x.name);
        }
        c
    }

    fn get(&self, name: &str) -> Option<&Combatant> {
        self.combatants.iter().find(|c| c.name == name)
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Combatant> {
        self.combatants.iter_mut().find(|c| c.name == name)
    }

    /// Initiative: who acts next, and why if it was a tie.
    pub fn next_actor(&self) -> Option<(&Combatant, Option<&'static str>)> {
        let gm_rank = |name: &str| {
            self.order
                .iter()
                .position(|n| n == name)
                .unwrap_or(usize::MAX)
        };
        // Higher action value; then PCs; then the GM's order; then, between PCs, 【反射】
        // 【知覚】【幸運】; then join order.
        let key = |c: &Combatant| {
            (
                c.action,
                c.pc,
                Reverse(gm_rank(&c.name)),
                if c.pc { c.tie } else { [0; 3] },
            )
        };
        // 戦闘不能 characters do not act (our reading, issue 13).
        let waiting: Vec<&Combatant> = self
            .combatants
            .iter()
            .filter(|c| !c.acted && !c.down)
            .collect();
        // Join order breaks what nothing else does: the first joined wins.
        let best = waiting.iter().copied().rev().max_by_key(|c| key(c))?;
        let tied: Vec<&&Combatant> = waiting
            .iter()
            .filter(|c| c.action == best.action && c.name != best.name)
            .collect();
        // The turn's line is public: a tie with an NPC is not named (it would tell the
        // players that NPC's 【行動値】, the GM's data until 対象識別: issue 13 play-through
        // 4), only a tie between PCs, whose values are public.
        let tied_pcs: Vec<&&&Combatant> = tied.iter().filter(|c| c.pc).collect();
        let why = if !best.pc || tied_pcs.is_empty() {
            None
        } else if gm_rank(&best.name) != usize::MAX {
            Some("同値はGMの決定")
        } else if tied_pcs.iter().any(|c| c.tie == best.tie) {
            // 「PC同士で【行動値】が同じなら、GMが決定する(原則、【反射】→【知覚】→【幸運】が
            // 高い順)」: the default decided nothing; the GM is asked.
            Some(FULL_TIE)
        } else {
            Some("同値のPCは【反射】【知覚】【幸運】の順")
        };
        Some((best, why))
    }
}

/// What happened in a combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Combat began (round 1, setup process).
    Started {
        /// Everyone in it.
        combatants: Vec<Combatant>,
    },
    /// Someone joined.
    Joined {
        /// The newcomer.
        combatant: Combatant,
    },
    /// Someone left (removed, escaped).
    Left {
        /// Who.
        name: String,
        /// Why.
        why: String,
    },
    /// The GM's order for ties.
    Ordered {
        /// Names, first acts first.
        order: Vec<String>,
        /// An NPC not yet identified is among them: that it ties says something of its
        /// 【行動値】, so the GM alone sees the line (issue 13 play-through 5).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        gm_only: bool,
    },
    /// Initiative chose `actor`: its main process begins.
    Turn {
        /// Round.
        round: u32,
        /// The acting character.
        actor: String,
        /// Its 【行動値】.
        action: i64,
        /// Why, when it was a tie.
        tie: Option<String>,
        /// The actor is an NPC: its 【行動値】 is not in the public line (AW-3: an enemy's
        /// data is the GM's until identified).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        npc: bool,
    },
    /// A minor or major action.
    Action {
        /// Who.
        name: String,
        /// Major (true) or minor.
        major: bool,
        /// What (`戦闘移動 13m まで`, `攻撃: 影`).
        what: String,
    },
    /// The actor's main process ended (行動済).
    Done {
        /// Who.
        name: String,
    },
    /// Characters entered an engagement.
    Engaged {
        /// Who.
        names: Vec<String>,
    },
    /// A character is out of any engagement.
    Freed {
        /// Who.
        name: String,
    },
    /// The GM set or lifted a blockade by these enemies (AW-3).
    Blockade {
        /// Who blocks (or no longer blocks).
        names: Vec<String>,
        /// Set (true) or lifted.
        on: bool,
    },
    /// A blockade contest (AW-3, AW-2): the disengaging character's 【行動値】 against a
    /// blocking enemy's.
    Contested {
        /// The one disengaging (the action side).
        name: String,
        /// The blocking enemy (the reaction side).
        against: String,
        /// The contest as rolled (BCDice's format).
        text: String,
        /// Whether the disengaging character won.
        won: bool,
        /// The blocking enemy's data is the GM's (not identified, AW-3): this line, with
        /// its numbers, is the GM's, and players see the contest `veiled`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        gm_only: bool,
        /// The players' line of a contest against such an enemy: the enemy's 【行動値】,
        /// dice and achievement left out (`text` is the veiled text).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        veiled: bool,
    },
    /// An open contest (AW-2, `/vs`) where one side is an enemy whose data is the GM's
    /// (AW-3 対象識別): the GM's line has every number; the players' (`veiled`) has the
    /// known side's roll and who won, never the enemy's value, dice or achievement (the
    /// blockade contest's form). Changes no state but that both sides are named to every
    /// member from now on (issue 13: [`super::rules::State::met`]).
    Opposed {
        /// The action side (rolls first, AW-2).
        name: String,
        /// Its ability.
        ability: String,
        /// The reaction side.
        against: String,
        /// Its ability.
        their_ability: String,
        /// The contest as rolled (BCDice's format), or veiled.
        text: String,
        /// Whether the action side won.
        won: bool,
        /// The GM's line (numbers of a side the players may not see).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        gm_only: bool,
        /// The players' line, the hidden side left out.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        veiled: bool,
        /// The side hidden from the players is the action side (else the reaction).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        action_hidden: bool,
        /// Words written after the sides (what the contest is for), as after any command.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        comment: String,
        /// The hidden side's ability had no whole-number value when a player called the
        /// contest: it was rolled as 0, and the GM's line says so (issue 13, aw13i C; the
        /// players' line is the same as for a value set, so it tells them nothing).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unset: bool,
        /// The GM's reaction to a contest a player declared ([`Event::Declared`]): the
        /// action side was rolled then, the reaction side now.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        answers: bool,
    },
    /// A contest a player declared against an enemy whose data is the GM's (AW-2
    /// 「アクション側が先に判定を行ない、その後にリアクション側が判定を行なう」 and 「判定値や
    /// 修正値などは…GMが決定する」): the action side's roll, made now. The GM chooses the
    /// enemy's ability and rolls its side with `/vs react` (an [`Event::Opposed`] that
    /// `answers` it), so a player cannot run the enemy's side on demand to measure its
    /// values (attack6 A6-6). An action fumble ends it at once (AW-2 1: the reaction side
    /// does not roll, and wins).
    Declared {
        /// The action side (a character of the player's).
        name: String,
        /// Its ability.
        ability: String,
        /// Its judgement value with modifiers (and any command spell's +20).
        modifier: i64,
        /// The enemy, the reaction side.
        against: String,
        /// The action side's dice.
        dice: [i64; 2],
        /// The action side's roll as a contest words it.
        text: String,
        /// The action side fumbled: the reaction side won without rolling.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        fumbled: bool,
        /// Words written after the sides.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        comment: String,
    },
    /// Identification (対象識別, AW-3): a 【理知】 check against 10 + the GM's value.
    Identified {
        /// Who identifies.
        name: String,
        /// The target.
        target: String,
        /// The check as rolled.
        text: String,
        /// Succeeded: the target's data is made public.
        success: bool,
        /// The target's data (its sheet's fields), when it succeeded.
        data: Vec<(String, String)>,
    },
    /// Cleanup process.
    Cleanup {
        /// Why the round ended early (a command-spell summon), if it did.
        early: Option<String>,
    },
    /// A new round's setup process.
    Round {
        /// Its number.
        round: u32,
    },
    /// Combat ended.
    Ended,
    /// The GM made an NPC's data public, or the GM's again (`/npc show|hide`, AW-3).
    Published {
        /// The NPC.
        name: String,
        /// Public (true) or the GM's.
        public: bool,
    },
    /// The GM brought an NPC before the players (`/npc appear`): they may name it from now
    /// on (contest it, contract with it), its data still the GM's until identified (AW-3).
    /// Before it appears — or takes part in a combat — a GM's NPC whose data is hidden is,
    /// to a player, no character at all (issue 13: the GM's 黒幕 prepared for later).
    Appeared {
        /// The NPC.
        name: String,
    },
}

fn ev(e: Event) -> AwEvent {
    AwEvent::Combat(e)
}

/// The event sending the round straight to cleanup, when a combat is on and not already
/// cleaning up (AW-5 2: a summon during combat).
pub fn to_cleanup(combat: &Option<Combat>, why: &str) -> Option<AwEvent> {
    let c = combat.as_ref()?;
    (c.process != Process::Cleanup).then(|| {
        ev(Event::Cleanup {
            early: Some(why.to_string()),
        })
    })
}

/// A character as a combatant, from its fields.
fn combatant(table: &dyn TableView, name: &str) -> Result<Combatant, Text> {
    let pc = kind(table, name)? == Kind::Pc;
    let action = field(table, name, "行動値")?;
    let tie = if pc {
        [
            field(table, name, "反射").unwrap_or(0),
            field(table, name, "知覚").unwrap_or(0),
            field(table, name, "幸運").unwrap_or(0),
        ]
    } else {
        [0; 3]
    };
    Ok(Combatant {
        name: name.to_string(),
        pc,
        action,
        tie,
        acted: false,
        down: down(table, name),
    })
}

/// AW-5 4 「サーヴァントが行う行為判定の達成値を+20する」: the +20 a command spell left
/// pending for `actor` (a servant), used by a check the rules roll themselves (the
/// identification, a blockade contest): its [`super::contracts::Event::BoostApplied`] is
/// pushed on `events`.
fn spell_boost(state: &State, actor: &str, events: &mut Vec<AwEvent>) -> Option<i64> {
    state.contracts.boosts.get(actor)?;
    events.push(AwEvent::Contract(super::contracts::Event::BoostApplied {
        servant: actor.to_string(),
    }));
    Some(super::contracts::BOOST)
}

/// AW-3 とどめを刺す (seed line 120 「戦闘不能のキャラクターを死亡させる」): a dead character
/// joins no combat (issue 13 play-through 4: it came back in the next one).
fn alive(state: &State, name: &str) -> Result<(), Text> {
    if state.dead.contains(name) {
        return Err(Text::new(
            format!(
                "{name}はとどめを刺されて死亡しています（AW-3）。戦闘には加われません。とどめを取り消すなら、GMがその行を /void してください"
            ),
            format!(
                "{name} was finished off and is dead (AW-3), so it cannot join a combat; to take the finishing blow back, the GM voids its line with /void"
            ),
        ));
    }
    Ok(())
}

/// 戦闘不能: the character's current 【HP】 is 0 or less (when it has one).
fn down(table: &dyn TableView, name: &str) -> bool {
    field(table, name, "HP").is_ok_and(|hp| hp <= 0)
}

/// A servant summoned into the combat joins it (issue 13): `Ok(None)` when there is no
/// combat or it is in it already, `Err` when it lacks the values initiative reads (the
/// summon stands; the reply says how to add it).
pub fn join(
    table: &dyn TableView,
    combat: &Option<Combat>,
    name: &str,
) -> Result<Option<AwEvent>, Text> {
    let Some(c) = combat.as_ref() else {
        return Ok(None);
    };
    if c.get(name).is_some() {
        return Ok(None);
    }
    match combatant(table, name) {
        Ok(combatant) => Ok(Some(ev(Event::Joined { combatant }))),
        Err(why) => Err(Text::new(
            format!(
                "{name}は戦闘に加われませんでした（{}）。値を設定してからGMが /combat add {name} で加えます",
                why.ja()
            ),
            format!(
                "{name} could not join the combat ({}); set the value, then the GM adds it with /combat add {name}",
                why.en()
            ),
        )),
    }
}

/// Why a servant left: a command spell dismissed it (AW-5 3), as a `Left` event stores it.
pub const DISMISSED: &str = "令呪で退場";

/// Why a character left: it was finished off (AW-3 とどめを刺す), as a `Left` event
/// stores it.
pub const DIED: &str = "とどめを刺されて死亡";

/// `name` leaves the combat (dismissed, removed): and if it was acting, initiative picks
/// the next at once instead of showing the setup process mid-round (issue 13).
pub fn leave(
    table: &dyn TableView,
    combat: &Option<Combat>,
    name: &str,
    why: &str,
) -> Vec<AwEvent> {
    let Some(c) = combat.as_ref() else {
        return Vec::new();
    };
    if c.get(name).is_none() {
        return Vec::new();
    }
    let mut events = vec![ev(Event::Left {
        name: name.to_string(),
        why: why.to_string(),
    })];
    if matches!(&c.process, Process::Main { actor, .. } if actor == name) {
        let mut after = c.refreshed(table);
        after.combatants.retain(|x| x.name != name);
        events.push(initiative(&after));
    }
    events
}

/// After `name`'s main process: it is done, and initiative picks the next or cleanup.
fn finish_turn(combat: &Combat, name: &str) -> Vec<AwEvent> {
    let mut after = combat.clone();
    if let Some(c) = after.get_mut(name) {
        c.acted = true;
    }
    let mut events = vec![ev(Event::Done {
        name: name.to_string(),
    })];
    events.push(initiative(&after));
    events
}

/// Initiative process: the next actor's turn, or cleanup when everyone has acted.
fn initiative(combat: &Combat) -> AwEvent {
    match combat.next_actor() {
        Some((c, why)) => ev(Event::Turn {
            round: combat.round,
            actor: c.name.clone(),
            action: c.action,
            tie: why.map(str::to_string),
            npc: !c.pc,
        }),
        None => ev(Event::Cleanup { early: None }),
    }
}

fn not_in_combat(name: &str) -> Text {
    Text::new(
        format!("{name}は戦闘に参加していません"),
        format!("{name} is not in the combat"),
    )
}

fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

/// `/combat …`.
pub fn decide(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Decided {
    let fresh = state.combat.as_ref().map(|c| c.refreshed(table));
    let combat = fresh.as_ref();
    let need = || {
        combat.ok_or_else(|| {
            Text::new(
                "戦闘は行なわれていません。GMが /combat start 名前… で開始します",
                "no combat is on; the GM starts one with /combat start NAME…",
            )
        })
    };
    Some(match words {
        ["start", names @ ..] => (|| {
            gm_only(table, Text::new("戦闘の開始", "start a combat"))?;
            if combat.is_some() {
                return Err(Text::new(
                    "すでに戦闘中です。先に /combat end してください",
                    "a combat is already on; /combat end first",
                ));
            }
            // AW-7: an AF check runs its own rounds (「通常の戦闘のように」), not beside a
            // combat, whose rolls it would count (issue 13 play-through 4).
            if state.af.as_ref().is_some_and(|a| a.running()) {
                return Err(Text::new(
                    "AF判定の最中です。AF判定は戦闘のように【行動値】順にラウンドを進める別の判定なので、戦闘は /af end（か判定の成功・失敗）の後で始めてください（AW-7）",
                    "an AF check is running; it runs rounds of its own like a combat's, so start the combat after /af end (or its success or failure) (AW-7)",
                ));
            }
            if names.is_empty() {
                return Err(usage(
                    "/combat start 名前…（戦闘に参加する全員）",
                    "/combat start NAME… (everyone in the combat)",
                ));
            }
            // Each character once: a name twice would take two turns a round.
            if let Some(twice) = names
                .iter()
                .enumerate()
                .find_map(|(i, n)| names[..i].contains(n).then_some(*n))
            {
                return Err(Text::new(
                    format!(
                        "{twice}が2回書かれています。戦闘に参加するキャラクターは1回ずつ書いてください"
                    ),
                    format!("{twice} is named twice; name each character in the combat once"),
                ));
            }
            for n in names.iter() {
                alive(state, n)?;
            }
            let combatants = names
                .iter()
                .map(|n| combatant(table, n))
                .collect::<Result<Vec<_>, _>>()?;
            one(ev(Event::Started { combatants }))
        })(),
        ["add", name] => (|| {
            gm_only(table, Text::new("戦闘への参加", "add a combatant"))?;
            if need()?.get(name).is_some() {
                return Err(Text::new(
                    format!("{name}はすでに戦闘に参加しています"),
                    format!("{name} is already in the combat"),
                ));
            }
            alive(state, name)?;
            one(ev(Event::Joined {
                combatant: combatant(table, name)?,
            }))
        })(),
        ["remove", name] => (|| {
            gm_only(table, Text::new("戦闘からの退場", "remove a combatant"))?;
            need()?.get(name).ok_or_else(|| not_in_combat(name))?;
            Ok(Outcome {
                events: leave(table, &fresh, name, "GM"),
                reply: None,
            })
        })(),
        ["order", names @ ..] if !names.is_empty() => (|| {
            gm_only(
                table,
                Text::new(
                    "同値のキャラクターの行動順の決定",
                    "decide the order of tied characters",
                ),
            )?;
            let c = need()?;
            for n in names.iter() {
                c.get(n).ok_or_else(|| not_in_combat(n))?;
            }
            // Seed AW-3: 「PC、NPCの順番でアクションを行なうこと」: the GM's order breaks
            // ties among PCs and among NPCs, never puts an NPC before a PC.
            if let Some((npc, pc)) = names.iter().enumerate().find_map(|(i, n)| {
                let npc = c.get(n).filter(|x| !x.pc)?;
                names[i + 1..]
                    .iter()
                    .find(|m| c.get(m).is_some_and(|x| x.pc))
                    .map(|pc| (npc.name.clone(), pc.to_string()))
            }) {
                return Err(Text::new(
                    format!(
                        "{npc}（NPC）を{pc}（PC）より前にはできません。【行動値】が同じならPC、NPCの順です（AW-3）。GMの順はPCどうし、NPCどうしで決めてください"
                    ),
                    format!(
                        "{npc} (NPC) cannot go before {pc} (PC): at equal action values PCs act first (AW-3); order PCs among themselves and NPCs among themselves"
                    ),
                ));
            }
            // A second order adds to the first instead of discarding it: the names given
            // now go first, in this order, then the earlier order's others (issue 13).
            let mut order: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            order.extend(
                c.order
                    .iter()
                    .filter(|n| !names.contains(&n.as_str()) && c.get(n).is_some())
                    .cloned(),
            );
            let gm_only = order
                .iter()
                .any(|n| super::rules::secret_npc(table, state, n));
            one(ev(Event::Ordered { order, gm_only }))
        })(),
        ["next"] => (|| {
            gm_only(table, Text::new("ラウンドの進行", "move the round on"))?;
            let c = need()?;
            let events = match &c.process {
                Process::Setup => vec![initiative(c)],
                Process::Main { actor, .. } => finish_turn(c, actor),
                Process::Cleanup => vec![ev(Event::Round { round: c.round + 1 })],
            };
            Ok(Outcome {
                events,
                reply: None,
            })
        })(),
        ["minor", what @ ..] => act(table, state, need, false, what, dice),
        ["major", what @ ..] => act(table, state, need, true, what, dice),
        ["blockade", rest @ ..] if !rest.is_empty() => (|| {
            gm_only(table, Text::new("エンゲージ封鎖", "set a blockade"))?;
            let c = need()?;
            let (on, names) = match rest {
                ["off", names @ ..] if !names.is_empty() => (false, names),
                ["off"] => {
                    return Err(usage(
                        "/combat blockade off 名前…",
                        "/combat blockade off NAME…",
                    ));
                }
                names => (true, names),
            };
            for n in names {
                c.get(n).ok_or_else(|| not_in_combat(n))?;
                if !on && !c.blockers.contains(*n) {
                    return Err(Text::new(
                        format!("{n}は封鎖していません"),
                        format!("{n} is not blocking"),
                    ));
                }
            }
            one(ev(Event::Blockade {
                names: names.iter().map(|n| n.to_string()).collect(),
                on,
            }))
        })(),
        ["engage", a, b, more @ ..] => (|| {
            gm_only(table, Text::new("エンゲージの記録", "record an engagement"))?;
            let c = need()?;
            let names: Vec<String> = [a, b]
                .into_iter()
                .chain(more)
                .map(|n| n.to_string())
                .collect();
            let mut sides = [false, false];
            for n in &names {
                let x = c.get(n).ok_or_else(|| not_in_combat(n))?;
                sides[usize::from(x.pc)] = true;
            }
            if !(sides[0] && sides[1]) {
                return Err(Text::new(
                    format!(
                        "{}は全員同じ側です。エンゲージは敵どうし（PCとNPC）の関係です（AW-3）",
                        names.join("、")
                    ),
                    format!(
                        "{} are all on the same side; an engagement is between enemies (PCs and NPCs, AW-3)",
                        names.join(", ")
                    ),
                ));
            }
            one(ev(Event::Engaged { names }))
        })(),
        ["free", name] => (|| {
            gm_only(table, Text::new("エンゲージの解除", "end an engagement"))?;
            need()?.get(name).ok_or_else(|| not_in_combat(name))?;
            one(ev(Event::Freed {
                name: name.to_string(),
            }))
        })(),
        ["end"] => (|| {
            gm_only(table, Text::new("戦闘の終了", "end the combat"))?;
            need()?;
            one(ev(Event::Ended))
        })(),
        ["status"] => need().map(|c| Outcome {
            events: Vec::new(),
            reply: Some(status(table, state, c)),
        }),
        _ => Err(usage(
            "/combat start|add|remove|order|next|minor|major|engage|free|blockade|status|end …（/help に一覧があります）",
            "/combat start|add|remove|order|next|minor|major|engage|free|blockade|status|end …; /help lists them",
        )),
    })
}

/// What a minor or major action did, as the log keeps it: the Japanese line
/// ([`Act::stored`]) is what an `Action` event stores, so logs read the same as ever, and
/// [`Act::parse`] reads it back to show it in every language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Minor: combat move up to this many metres.
    CombatMove(i64),
    /// Minor or major: a skill.
    Skill(String),
    /// Major: full move up to this many metres.
    FullMove(i64),
    /// Major: an attack on a target.
    Attack(String),
    /// Major: leave the engagement and move up to this many metres.
    Disengage(i64),
    /// Major: identify a target.
    Identify(String),
    /// Major: finish off an incapacitated character.
    Finish(String),
    /// Major: a full move of this many metres that leaves the scene.
    Escape(i64),
    /// Major: a disengagement that lost a blockade contest (the character stays engaged).
    Blocked,
}

const DISENGAGE_TAIL: &str = "m まで移動（封鎖ならGMは【行動値】の対決を求めてよい）";
const IDENTIFY_TAIL: &str = " ＞ 【理知】判定 難易度10+GMの値で成功すればデータを公表";
const FINISH_TAIL: &str = "（戦闘不能のキャラクターを死亡させる）";
const ESCAPE_TAIL: &str = "m でシーンから退場";
/// The field of an enemy that holds the GM's part of the identify difficulty (AW-3:
/// 10 + the GM's value).
pub const IDENTIFY_KEY: &str = "識別難易度";
const BLOCKED: &str = "離脱: 封鎖を突破できずエンゲージに留まる";

impl Act {
    /// The Japanese line an `Action` event stores.
    pub fn stored(&self) -> String {
        match self {
            Act::CombatMove(m) => format!("戦闘移動: {m}m まで"),
            Act::Skill(s) => format!("特技使用: {s}"),
            Act::FullMove(m) => format!("全力移動: {m}m まで"),
            Act::Attack(t) => format!("攻撃: {t}"),
            Act::Disengage(m) => format!("離脱: エンゲージを離れて {m}{DISENGAGE_TAIL}"),
            Act::Identify(t) => format!("対象識別: {t}{IDENTIFY_TAIL}"),
            Act::Finish(t) => format!("とどめを刺す: {t}{FINISH_TAIL}"),
            Act::Escape(m) => format!("逃走: 全力移動 {m}{ESCAPE_TAIL}"),
            Act::Blocked => BLOCKED.to_string(),
        }
    }

    /// Reads a stored line back; `None` for a line this version did not write.
    pub fn parse(stored: &str) -> Option<Act> {
        let metres = |s: &str, head: &str, tail: &str| {
            s.strip_prefix(head)?
                .strip_suffix(tail)?
                .parse::<i64>()
                .ok()
        };
        let words = |s: &str, head: &str, tail: &str| {
            s.strip_prefix(head)?.strip_suffix(tail).map(str::to_string)
        };
        if stored == BLOCKED {
            return Some(Act::Blocked);
        }
        if let Some(m) = metres(stored, "戦闘移動: ", "m まで") {
            return Some(Act::CombatMove(m));
        }
        if let Some(m) = metres(stored, "全力移動: ", "m まで") {
            return Some(Act::FullMove(m));
        }
        if let Some(m) = metres(stored, "離脱: エンゲージを離れて ", DISENGAGE_TAIL) {
            return Some(Act::Disengage(m));
        }
        if let Some(m) = metres(stored, "逃走: 全力移動 ", ESCAPE_TAIL) {
            return Some(Act::Escape(m));
        }
        if let Some(t) = words(stored, "対象識別: ", IDENTIFY_TAIL) {
            return Some(Act::Identify(t));
        }
        if let Some(t) = words(stored, "とどめを刺す: ", FINISH_TAIL) {
            return Some(Act::Finish(t));
        }
        if let Some(s) = words(stored, "特技使用: ", "") {
            return Some(Act::Skill(s));
        }
        words(stored, "攻撃: ", "").map(Act::Attack)
    }

    /// The action in every language.
    pub fn text(&self) -> Text {
        let en = match self {
            Act::CombatMove(m) => format!("combat move up to {m} m"),
            Act::Skill(s) => format!("uses the skill {s}"),
            Act::FullMove(m) => format!("full move up to {m} m"),
            Act::Attack(t) => format!("attacks {t}"),
            Act::Disengage(m) => format!(
                "disengages and moves up to {m} m (against a blockade the GM may ask for an action-value contest)"
            ),
            Act::Identify(t) => format!(
                "identifies {t}: a 【理知】 check at difficulty 10 + the GM's value reveals its data"
            ),
            Act::Finish(t) => format!("finishes off {t} (an incapacitated character dies)"),
            Act::Escape(m) => format!("escapes: a full move of {m} m out of the scene"),
            Act::Blocked => "tries to disengage, is held by the blockade and stays engaged".into(),
        };
        Text::new(self.stored(), en)
    }
}

/// A minor or major action of the character whose main process it is.
fn act<'a>(
    table: &dyn TableView,
    state: &State,
    need: impl Fn() -> Result<&'a Combat, Text>,
    major: bool,
    what: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Outcome<AwEvent>, Text> {
    let c = need()?;
    let Process::Main { actor, minor } = &c.process else {
        return Err(Text::new(
            "メインプロセス中のキャラクターがいません。GMが /combat next でラウンドを進めます",
            "no one's main process is on; the GM moves the round on with /combat next",
        ));
    };
    // Someone else's main process: say whose turn it is (AW-3 initiative), not whose
    // character it is.
    if !table.actor_is_gm()
        && table
            .character(actor)
            .is_some_and(|(owner, _)| owner != table.actor())
    {
        return Err(Text::new(
            format!(
                "今は{actor}のメインプロセスです。アクションできるのは手番のキャラクターだけです（イニシアチブは【行動値】順、AW-3）"
            ),
            format!(
                "it is {actor}'s main process now; only the character whose turn it is acts (initiative by action value, AW-3)"
            ),
        ));
    }
    may_act_for(table, actor)?;
    let me = c.get(actor).ok_or_else(|| not_in_combat(actor))?;
    let is_engaged = c.engaged(actor);
    let engaged = |ja: &str, en: &str| {
        if is_engaged {
            Err(Text::new(
                format!(
                    "{actor}はエンゲージ中なので{ja}できません。先に離脱してください（メジャーアクション）"
                ),
                format!(
                    "{actor} is in an engagement and cannot {en}; disengage first (major action)"
                ),
            ))
        } else {
            Ok(())
        }
    };
    let action = |a: Act| {
        ev(Event::Action {
            name: actor.clone(),
            major,
            what: a.stored(),
        })
    };
    if !major {
        if *minor {
            return Err(Text::new(
                format!("{actor}はすでにマイナーアクションを行ないました"),
                format!("{actor} has already taken a minor action"),
            ));
        }
        let a = match what {
            ["move"] => {
                engaged("戦闘移動", "make a combat move")?;
                Act::CombatMove(me.combat_move())
            }
            ["skill", skill @ ..] if !skill.is_empty() => Act::Skill(skill.join(" ")),
            _ => {
                return Err(usage(
                    "/combat minor move | /combat minor skill 特技名",
                    "/combat minor move | /combat minor skill SKILL",
                ));
            }
        };
        return one(action(a));
    }
    // Issue 13: an attack, identification or finishing blow needs a target in the combat
    // other than the actor.
    if let ["attack" | "identify" | "finish", target @ ..] = what
        && !target.is_empty()
    {
        let target = target.join(" ");
        if target == *actor {
            return Err(Text::new(
                format!("{actor}は自分自身を対象にできません"),
                format!("{actor} cannot target themselves"),
            ));
        }
        if c.get(&target).is_none() {
            return Err(not_in_combat(&target));
        }
        // Seed line 120 「戦闘不能のキャラクターを死亡させる」: only an incapacitated target
        // (current HP 0 or less, when its HP is known) is finished off (issue 13).
        let hp = field(table, &target, "HP").ok();
        if what[0] == "finish"
            && let Some(hp) = hp.filter(|hp| *hp > 0)
        {
            // An enemy's HP is the GM's until identified (AW-3): not in the refusal.
            let (hp_ja, hp_en) = if super::rules::hidden_from_actor(table, state, &target).is_some()
            {
                (String::new(), String::new())
            } else {
                (format!("（【HP】{hp}）"), format!(" (HP {hp})"))
            };
            return Err(Text::new(
                format!(
                    "{target}は戦闘不能ではありません{hp_ja}。とどめを刺せるのは戦闘不能のキャラクターだけです（AW-3）"
                ),
                format!(
                    "{target} is not incapacitated{hp_en}; only an incapacitated character can be finished off (AW-3)"
                ),
            ));
        }
    }
    // AW-3 blockade (seed: 「離脱を行なうキャラクターは、これに勝利する必要がある。複数の敵と
    // エンゲージしている場合は、そのすべてに勝利しなければならない」): against every engaged
    // enemy the GM set as blocking, an action-value contest (AW-2, the one disengaging is the
    // action side); all won: the character leaves; one lost: it stays engaged, its major
    // action spent.
    if what == ["disengage"] && is_engaged {
        let blocking: Vec<&Combatant> = c
            .engaged_with(actor)
            .into_iter()
            .filter(|e| c.blockers.contains(*e))
            .filter_map(|e| c.get(e))
            .collect();
        if !blocking.is_empty() {
            let check = |modifier| Check {
                modifier,
                target: None,
                critical: 12,
                fumble: 2,
            };
            let mut events = Vec::new();
            let mut all_won = true;
            // AW-5 4 「サーヴァントが行う行為判定の達成値を+20する」: a servant's pending
            // +20 goes to its next check, this contest (the first, when several block)
            // (issue 13 play-through 5: it waited for a typed roll).
            let mut boost = spell_boost(state, actor, &mut events);
            for enemy in blocking {
                let contest = Contest {
                    action: check(me.action.saturating_add(boost.take().unwrap_or(0))),
                    reaction: Reaction::Rolls(check(enemy.action)),
                };
                let (rolled, veiled) =
                    contest::roll_veiled(&contest, dice).map_err(|e| e.text())?;
                all_won &= rolled.success;
                // An enemy not yet identified keeps its 【行動値】 from the players (seed
                // 117–118: its data is made public by 対象識別): they see the contest
                // without its side, the GM the whole.
                let hidden = super::rules::secret_npc(table, state, &enemy.name);
                if hidden {
                    events.push(ev(Event::Contested {
                        name: actor.clone(),
                        against: enemy.name.clone(),
                        text: veiled,
                        won: rolled.success,
                        gm_only: false,
                        veiled: true,
                    }));
                }
                events.push(ev(Event::Contested {
                    name: actor.clone(),
                    against: enemy.name.clone(),
                    text: rolled.text,
                    won: rolled.success,
                    gm_only: hidden,
                    veiled: false,
                }));
            }
            if all_won {
                events.push(action(Act::Disengage(me.combat_move())));
                events.push(ev(Event::Freed {
                    name: actor.clone(),
                }));
            } else {
                events.push(action(Act::Blocked));
            }
            events.extend(finish_turn(c, actor));
            return Ok(Outcome {
                events,
                reply: None,
            });
        }
    }
    // AW-3 identify (seed: 「【理知】判定で[難易度:10+GMの設定した難易度]に成功することで、
    // 敵のデータを公表することができる」): the GM's part is the target's 識別難易度 field
    // (0 when unset); success makes the target's data public.
    if let ["identify", target @ ..] = what
        && !target.is_empty()
    {
        let target = target.join(" ");
        // Its data public already (a PC, an NPC identified or shown): nothing to identify,
        // and the major action is not spent on it (issue 13 play-through 5).
        if !super::rules::secret_npc(table, state, &target) {
            return Err(Text::new(
                format!(
                    "{target}のデータはすでに公開されています（PCか、識別済み・GMが公開したNPC）。対象識別は未識別の敵に行ないます（AW-3）"
                ),
                format!(
                    "{target}'s data is public already (a PC, or an NPC identified or shown by the GM); identification is for an enemy not yet identified (AW-3)"
                ),
            ));
        }
        let mut events = Vec::new();
        // AW-5 4: a servant's pending +20 goes to this check (issue 13 play-through 5).
        let wit = field(table, actor, "理知")?
            .saturating_add(spell_boost(state, actor, &mut events).unwrap_or(0));
        let extra = match table
            .character(&target)
            .and_then(|(_, f)| f.get(IDENTIFY_KEY))
        {
            None => 0,
            Some(_) => field(table, &target, IDENTIFY_KEY)?,
        };
        let difficulty = 10i64.saturating_add(extra);
        let command = format!(
            "AW{}>={difficulty}",
            taku_dice::system_command::format_modifier(wit)
        );
        let rolled = crate::srs::eval_check(&command, &["2D6", "AW"], false, dice)
            .map_err(|e| e.text())?
            .ok_or_else(|| {
                Text::new(
                    "対象識別の判定ができません",
                    "the identify check cannot be rolled",
                )
            })?;
        let data = if rolled.success {
            table
                .character(&target)
                .map(|(_, f)| {
                    f.iter()
                        .filter(|(k, _)| k.as_str() != IDENTIFY_KEY)
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        events.splice(0..0, [action(Act::Identify(target.clone()))]);
        events.extend([ev(Event::Identified {
            name: actor.clone(),
            target,
            text: rolled.text,
            success: rolled.success,
            data,
        })]);
        events.extend(finish_turn(c, actor));
        return Ok(Outcome {
            events,
            reply: None,
        });
    }
    let a = match what {
        ["move"] => {
            engaged("全力移動", "make a full move")?;
            Act::FullMove(me.full_move())
        }
        ["attack", target @ ..] if !target.is_empty() => Act::Attack(target.join(" ")),
        ["skill", skill @ ..] if !skill.is_empty() => Act::Skill(skill.join(" ")),
        ["disengage"] => {
            if !is_engaged {
                return Err(Text::new(
                    format!("{actor}はエンゲージしていません"),
                    format!("{actor} is not in an engagement"),
                ));
            }
            Act::Disengage(me.combat_move())
        }
        ["identify", target @ ..] if !target.is_empty() => Act::Identify(target.join(" ")),
        ["finish", target @ ..] if !target.is_empty() => Act::Finish(target.join(" ")),
        ["escape"] => {
            engaged("逃走", "escape")?;
            Act::Escape(me.full_move())
        }
        _ => {
            return Err(usage(
                "/combat major move | attack 対象 | skill 特技名 | disengage | identify 対象 | finish 対象 | escape",
                "/combat major move | attack TARGET | skill SKILL | disengage | identify TARGET | finish TARGET | escape",
            ));
        }
    };
    let leaves = matches!(a, Act::Escape(_)).then(|| a.stored());
    let killed = match &a {
        Act::Finish(t) => Some(t.clone()),
        _ => None,
    };
    let mut events = vec![action(a)];
    let mut after = c.clone();
    // Seed line 120 「とどめを刺す: 戦闘不能のキャラクターを死亡させる」: the dead leave the
    // combat, and their engagements with them (issue 13).
    if let Some(dead) = killed {
        events.push(ev(Event::Left {
            name: dead.clone(),
            why: DIED.to_string(),
        }));
        after.combatants.retain(|x| x.name != dead);
        after.engagements.retain(|(a, b)| *a != dead && *b != dead);
    }
    if let Some(why) = leaves {
        events.push(ev(Event::Left {
            name: actor.clone(),
            why,
        }));
        after.combatants.retain(|x| x.name != *actor);
        events.push(initiative(&after));
    } else {
        if what == ["disengage"] {
            events.push(ev(Event::Freed {
                name: actor.clone(),
            }));
        }
        events.extend(finish_turn(&after, actor));
    }
    Ok(Outcome {
        events,
        reply: None,
    })
}

fn engaged_ja(c: &Combat, name: &str) -> String {
    let with = c.engaged_with(name);
    if with.is_empty() {
        String::new()
    } else {
        format!(" エンゲージ中（{}）", with.join("、"))
    }
}

fn engaged_en(c: &Combat, name: &str) -> String {
    let with = c.engaged_with(name);
    if with.is_empty() {
        String::new()
    } else {
        format!(", engaged with {}", with.join(", "))
    }
}

fn status(table: &dyn TableView, state: &State, c: &Combat) -> Text {
    let (process_ja, process_en) = match &c.process {
        Process::Setup => (
            "セットアッププロセス".to_string(),
            "setup process".to_string(),
        ),
        Process::Main { actor, .. } => (
            format!("{actor}のメインプロセス"),
            format!("{actor}'s main process"),
        ),
        Process::Cleanup => (
            "クリンナッププロセス".to_string(),
            "cleanup process".to_string(),
        ),
    };
    let mut ja = vec![format!("ラウンド{} {process_ja}", c.round)];
    let mut en = vec![format!("round {}, {process_en}", c.round)];
    for x in &c.combatants {
        let kind = if x.pc { "PC" } else { "NPC" };
        let (acted_ja, acted_en) = match (x.down, x.acted) {
            (true, _) => ("戦闘不能", "incapacitated"),
            (false, true) => ("行動済", "acted"),
            (false, false) => ("未行動", "waiting"),
        };
        // An enemy's values are the GM's until identified (AW-3).
        if super::rules::hidden_from_actor(table, state, &x.name).is_some() {
            ja.push(format!(
                "  {} {kind}（未識別） {acted_ja}{}",
                x.name,
                &engaged_ja(c, &x.name),
            ));
            en.push(format!(
                "  {} {kind} (not identified) {acted_en}{}",
                x.name,
                &engaged_en(c, &x.name),
            ));
            continue;
        }
        ja.push(format!(
            "  {} {kind} 【行動値】{} {acted_ja}{} 戦闘移動{}m 全力移動{}m",
            x.name,
            x.action,
            &engaged_ja(c, &x.name),
            x.combat_move(),
            x.full_move()
        ));
        en.push(format!(
            "  {} {kind} action value {} {acted_en}{} combat move {} m, full move {} m",
            x.name,
            x.action,
            &engaged_en(c, &x.name),
            x.combat_move(),
            x.full_move()
        ));
    }
    Text::new(ja.join("\n"), en.join("\n"))
}

/// Folds a combat event (total: an event about someone no longer there changes nothing).
pub fn fold(combat: &mut Option<Combat>, e: &Event) {
    if let Event::Started { combatants } = e {
        *combat = Some(Combat {
            round: 1,
            process: Process::Setup,
            combatants: combatants.clone(),
            order: Vec::new(),
            engagements: Default::default(),
            blockers: Default::default(),
        });
        return;
    }
    if matches!(e, Event::Ended) {
        *combat = None;
        return;
    }
    let Some(c) = combat.as_mut() else {
        return;
    };
    match e {
        Event::Started { .. } | Event::Ended => {}
        Event::Joined { combatant } => {
            if c.get(&combatant.name).is_none() {
                c.combatants.push(combatant.clone());
            }
        }
        Event::Left { name, .. } => {
            c.combatants.retain(|x| x.name != *name);
            c.blockers.remove(name);
            c.engagements.retain(|(a, b)| a != name && b != name);
            if matches!(&c.process, Process::Main { actor, .. } if actor == name) {
                c.process = Process::Setup;
            }
        }
        Event::Ordered { order, .. } => c.order = order.clone(),
        Event::Turn { actor, .. } => {
            c.process = Process::Main {
                actor: actor.clone(),
                minor: false,
            };
        }
        Event::Action { major: false, .. } => {
            if let Process::Main { minor, .. } = &mut c.process {
                *minor = true;
            }
        }
        Event::Action { major: true, .. } => {}
        Event::Done { name } => {
            if let Some(x) = c.get_mut(name) {
                x.acted = true;
            }
        }
        Event::Engaged { names } => {
            let sides: Vec<(&String, bool)> = names
                .iter()
                .filter_map(|n| c.get(n).map(|x| (n, x.pc)))
                .collect();
            for (i, (a, pa)) in sides.iter().enumerate() {
                for (b, pb) in &sides[i + 1..] {
                    if pa != pb && a != b {
                        let pair = if a < b { (*a, *b) } else { (*b, *a) };
                        c.engagements.insert((pair.0.clone(), pair.1.clone()));
                    }
                }
            }
        }
        Event::Freed { name } => {
            // Whoever is left with no enemy is out of the engagement too.
            c.engagements.retain(|(a, b)| a != name && b != name);
        }
        Event::Blockade { names, on } => {
            for n in names {
                if *on {
                    c.blockers.insert(n.clone());
                } else {
                    c.blockers.remove(n);
                }
            }
        }
        Event::Contested { .. }
        | Event::Opposed { .. }
        | Event::Declared { .. }
        | Event::Identified { .. }
        | Event::Published { .. }
        | Event::Appeared { .. } => {}
        Event::Cleanup { .. } => c.process = Process::Cleanup,
        Event::Round { round } => {
            c.round = *round;
            c.process = Process::Setup;
            for x in &mut c.combatants {
                x.acted = false;
            }
        }
    }
}

/// A tie reason as [`Combat::next_actor`] gives it (and a `Turn` event stores it), in
/// every language.
/// PCs equal in 【行動値】【反射】【知覚】【幸運】: the GM decides.
const FULL_TIE: &str =
    "同値のPCは【反射】【知覚】【幸運】も同じ。GMが /combat order で決めます（今は参加順）";

fn tie_text(why: &str) -> Text {
    let en = match why {
        FULL_TIE => {
            "a tie between PCs equal in 【反射】, 【知覚】 and 【幸運】 too: the GM decides with /combat order (join order for now)"
        }
        "同値はPCが先" => "a tie: PCs first",
        "同値はGMの決定" => "a tie: the GM's order",
        "同値のPCは【反射】【知覚】【幸運】の順" => {
            "a tie between PCs: 【反射】, then 【知覚】, then 【幸運】"
        }
        "同値のNPCはGMの決定（参加順）" => {
            "a tie between NPCs: the GM's order (join order)"
        }
        other => return Text::verbatim(other),
    };
    Text::new(why, en)
}

/// Why a round ended early, as a `Cleanup` event stores it (`ロイを令呪で召喚`).
pub fn summoned(servant: &str) -> String {
    format!("{servant}{SUMMONED}")
}

const SUMMONED: &str = "を令呪で召喚";

fn early_text(why: &str) -> Text {
    match why.strip_suffix(SUMMONED) {
        Some(servant) => Text::new(why, format!("{servant} summoned by a command spell")),
        None => Text::verbatim(why),
    }
}

/// Why someone left the combat, as a `Left` event stores it.
fn left_text(why: &str) -> Text {
    if why == "GM" {
        return Text::new("GM", "removed by the GM");
    }
    if why == DISMISSED {
        return Text::new(DISMISSED, "dismissed by a command spell");
    }
    if why == DIED {
        return Text::new(DIED, "finished off: dead");
    }
    match Act::parse(why) {
        Some(a) => a.text(),
        None => Text::verbatim(why),
    }
}

/// A line of log text.
pub fn describe(e: &Event) -> Text {
    let pc = |pc: bool| if pc { "PC" } else { "NPC" };
    match e {
        Event::Started { combatants } => Text::new(
            format!(
                "戦闘開始 ＞ ラウンド1 セットアッププロセス: {}",
                combatants
                    .iter()
                    .map(|c| if c.pc {
                        format!("{}（PC 【行動値】{}）", c.name, c.action)
                    } else {
                        format!("{}（NPC）", c.name)
                    })
                    .collect::<Vec<_>>()
                    .join("、")
            ),
            format!(
                "Combat begins > round 1, setup process: {}",
                combatants
                    .iter()
                    .map(|c| if c.pc {
                        format!("{} (PC, action value {})", c.name, c.action)
                    } else {
                        format!("{} (NPC)", c.name)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        // An NPC's 【行動値】 is not in a public line (AW-3: an enemy's data is the GM's
        // until identified); `/combat status` shows it to those who may see it.
        Event::Joined { combatant: c } if !c.pc => Text::new(
            format!("{}が戦闘に参加（{}）", c.name, pc(c.pc)),
            format!("{} joins the combat ({})", c.name, pc(c.pc)),
        ),
        Event::Joined { combatant: c } => Text::new(
            format!("{}が戦闘に参加（【行動値】{}）", c.name, c.action),
            format!("{} joins the combat (action value {})", c.name, c.action),
        ),
        Event::Left { name, why } => {
            let why = left_text(why);
            Text::new(
                format!("{name}が戦闘から退場（{}）", why.ja()),
                format!("{name} leaves the combat ({})", why.en()),
            )
        }
        Event::Ordered { order, .. } => Text::new(
            format!("同値の行動順（GM）: {}", order.join(" → ")),
            format!("the GM's order for ties: {}", order.join(" → ")),
        ),
        Event::Turn {
            round,
            actor,
            action,
            tie,
            npc,
        } => {
            let tie = tie.as_deref().map(tie_text);
            let (value_ja, value_en) = if *npc {
                ("NPC".to_string(), "NPC".to_string())
            } else {
                (
                    format!("【行動値】{action}"),
                    format!("action value {action}"),
                )
            };
            Text::new(
                format!(
                    "ラウンド{round} イニシアチブ ＞ {actor}（{value_ja}{}）のメインプロセス",
                    tie.as_ref()
                        .map(|t| format!("、{}", t.ja()))
                        .unwrap_or_default()
                ),
                format!(
                    "Round {round}, initiative > {actor}'s main process ({value_en}{})",
                    tie.as_ref()
                        .map(|t| format!("; {}", t.en()))
                        .unwrap_or_default()
                ),
            )
        }
        Event::Action { name, major, what } => {
            let what = Act::parse(what).map_or_else(|| Text::verbatim(what), |a| a.text());
            let (ja, en) = if *major {
                ("メジャーアクション", "major action")
            } else {
                ("マイナーアクション", "minor action")
            };
            Text::new(
                format!("{name} {ja}: {}", what.ja()),
                format!("{name}, {en}: {}", what.en()),
            )
        }
        Event::Done { name } => Text::new(format!("{name}は行動済"), format!("{name} has acted")),
        Event::Engaged { names } => Text::new(
            format!("エンゲージ: {}", names.join("、")),
            format!("engagement: {}", names.join(", ")),
        ),
        Event::Freed { name } => Text::new(
            format!("{name}はエンゲージから離れた"),
            format!("{name} is out of the engagement"),
        ),
        Event::Blockade { names, on: true } => Text::new(
            format!(
                "エンゲージ封鎖: {}（離脱するには【行動値】の対決にすべて勝利する必要がある、AW-3）",
                names.join("、")
            ),
            format!(
                "blockade by {} (disengaging takes winning an action-value contest against each, AW-3)",
                names.join(", ")
            ),
        ),
        Event::Blockade { names, on: false } => Text::new(
            format!("エンゲージ封鎖を解除: {}", names.join("、")),
            format!("blockade lifted: {}", names.join(", ")),
        ),
        Event::Contested {
            name,
            against,
            text,
            won,
            gm_only,
            veiled,
        } => {
            let (ja, en) = if *won {
                ("突破", "breaks through")
            } else {
                ("突破できず", "is held")
            };
            let (mark_ja, mark_en) = if *gm_only {
                ("（GMのみ）", "(GM only) ")
            } else {
                ("", "")
            };
            let (side_ja, side_en) = if *veiled {
                (
                    "（【行動値】、未識別なので非公開）",
                    " (action value, hidden: not identified)",
                )
            } else {
                ("（【行動値】）", " (action value)")
            };
            Text::new(
                format!(
                    "{mark_ja}エンゲージ封鎖の対決 {name}（【行動値】）VS {against}{side_ja}: {text} ＞ {name}は{ja}"
                ),
                format!(
                    "{mark_en}blockade contest {name} (action value) VS {against}{side_en}: {text} > {name} {en}"
                ),
            )
        }
        Event::Opposed {
            name,
            ability,
            against,
            their_ability,
            text,
            won,
            gm_only,
            veiled,
            action_hidden,
            comment,
            unset,
            answers: _,
        } => {
            let (mark_ja, mark_en) = if *gm_only {
                ("（GMのみ）", "(GM only) ")
            } else {
                ("", "")
            };
            let side = |n: &str, a: &str, hidden: bool| {
                if hidden {
                    (
                        format!("{n}（【{a}】、未識別なので非公開）"),
                        format!("{n} ({a}, hidden: not identified)"),
                    )
                } else {
                    (format!("{n}（【{a}】）"), format!("{n} ({a})"))
                }
            };
            let (a_ja, a_en) = side(name, ability, *veiled && *action_hidden);
            let (r_ja, r_en) = side(against, their_ability, *veiled && !*action_hidden);
            let winner = if *won { name } else { against };
            let note = if comment.is_empty() {
                String::new()
            } else {
                format!(" {comment}")
            };
            let text_en = contest_text_en(text);
            let line = Text::new(
                format!("{mark_ja}対決 {a_ja} VS {r_ja}: {text} ＞ {winner}の勝利{note}"),
                format!("{mark_en}contest {a_en} VS {r_en}: {text_en} > {winner} wins{note}"),
            );
            if !*unset {
                return line;
            }
            let (npc, npc_ability) = if *action_hidden {
                (name, ability)
            } else {
                (against, their_ability)
            };
            line.then(
                "",
                &Text::new(
                    format!(
                        "（{npc}の【{npc_ability}】が未設定なので0として振りました。/char set {npc} {npc_ability} 数値 で設定し、結果を変えるならこの行を /void して振り直してください）"
                    ),
                    format!(
                        " ({npc} has no 【{npc_ability}】, so it was rolled as 0; set it with /char set {npc} {npc_ability} N and, to change the result, /void this line and roll again)"
                    ),
                ),
            )
        }
        Event::Declared {
            name,
            ability,
            against,
            text,
            fumbled,
            comment,
            ..
        } => {
            let note = if comment.is_empty() {
                String::new()
            } else {
                format!(" {comment}")
            };
            let text_en = contest_text_en(text);
            if *fumbled {
                return Text::new(
                    format!(
                        "対決 {name}（【{ability}】） VS {against}: ({text}) ／ リアクション側 判定なし ／ アクション側のファンブル ＞ {against}の勝利{note}"
                    ),
                    format!(
                        "contest {name} ({ability}) VS {against}: ({text_en}) / reaction side: no roll / action side fumbled > {against} wins{note}"
                    ),
                );
            }
            Text::new(
                format!(
                    "対決の宣言 {name}（【{ability}】） VS {against}: ({text}) ／ リアクション側はGMが能力値を選んで振ります（/vs react {against} 能力値、AW-2）{note}"
                ),
                format!(
                    "contest declared {name} ({ability}) VS {against}: ({text_en}) / the GM chooses {against}'s ability and rolls its side (/vs react {against} ABILITY, AW-2){note}"
                ),
            )
        }
        Event::Identified {
            name,
            target,
            text,
            success,
            data,
        } => {
            let listed = data
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>();
            let (ja, en) = if *success {
                (
                    format!(" ＞ {target}のデータを公表: {}", listed.join("、")),
                    format!(" > {target}'s data made public: {}", listed.join(", ")),
                )
            } else {
                (
                    format!(" ＞ {target}のデータは分からない"),
                    format!(" > {target}'s data stays unknown"),
                )
            };
            // The check's target is 10 + the GM's 識別難易度, which stays the GM's (it
            // is left out of the data success makes public): the line shows the roll
            // without it (attack pass 5, A5-1).
            let text = without_target(text);
            Text::new(
                format!("対象識別 {name} → {target}: {text}{ja}"),
                format!("identification {name} → {target}: {text}{en}"),
            )
        }
        Event::Cleanup { early: None } => Text::new(
            "全員が行動済 ＞ クリンナッププロセス",
            "everyone has acted > cleanup process",
        ),
        Event::Cleanup { early: Some(why) } => {
            let why = early_text(why);
            Text::new(
                format!("{} ＞ ラウンドは即座にクリンナッププロセスへ", why.ja()),
                format!(
                    "{} > the round goes straight to the cleanup process",
                    why.en()
                ),
            )
        }
        Event::Round { round } => Text::new(
            format!("ラウンド{round} セットアッププロセス"),
            format!("Round {round}, setup process"),
        ),
        Event::Ended => Text::new("戦闘終了", "Combat ends"),
        Event::Published { name, public: true } => Text::new(
            format!("GMが{name}のデータを公開"),
            format!("the GM made {name}'s data public"),
        ),
        Event::Published {
            name,
            public: false,
        } => Text::new(
            format!("{name}のデータはGMだけのものに戻った"),
            format!("{name}'s data is the GM's again"),
        ),
        Event::Appeared { name } => Text::new(
            format!("{name}が登場（データは未識別、AW-3）"),
            format!("{name} appears (its data not identified, AW-3)"),
        ),
    }
}

/// A check's text without its target: `(2D6+1>=17[12,2]) ＞ …` is `(2D6+1[12,2]) ＞ …`
/// (the first `>=N`, `>N`, `<=N` or `<N` of the command in parentheses).
fn without_target(text: &str) -> String {
    let head_end = text.find(')').unwrap_or(text.len());
    let head = &text[..head_end];
    let Some(at) = head.find(['>', '<']) else {
        return text.to_string();
    };
    let rest = &head[at + 1..];
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    let digits = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
        .map_or(rest.len(), |(i, _)| i);
    let end = head.len() - rest.len() + digits;
    format!("{}{}", &text[..at], &text[end..])
}

/// What a side of `/vs` may roll: an ability, or 【行動値】 (AW-3, seed 「【行動値】同士の
/// 対決を行なわせてもよい」: the blockade contest, aw8 F7).
const VS_VALUES: [&str; 6] = ["理知", "知覚", "反射", "体力", "幸運", "行動値"];

/// `ABILITY[±m]` of `/vs` (`反射+1` → (反射, Some(1))); nothing is read from a sheet.
fn ability_word(word: &str, usage: impl Fn() -> Text) -> Result<(String, Option<i64>), Text> {
    let at = word.find(['+', '-']).unwrap_or(word.len());
    let (ability, modifier) = word.split_at(at);
    if !VS_VALUES.contains(&ability) {
        return Err(Text::new(
            format!(
                "「{ability}」は能力値でも行動値でもありません（{}、AW-1・AW-3）",
                VS_VALUES.join("・")
            ),
            format!(
                "'{ability}' is not an ability or 行動値 ({}, AW-1, AW-3)",
                VS_VALUES.join(", ")
            ),
        ));
    }
    if modifier.is_empty() {
        return Ok((ability.to_string(), None));
    }
    let digits = &modifier[1..];
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(usage());
    }
    match modifier.parse::<i64>().ok().filter(|m| m.abs() <= 1000) {
        Some(m) => Ok((ability.to_string(), Some(m))),
        None => Err(Text::new(
            format!("修正「{modifier}」が大きすぎます（−1000〜+1000）"),
            format!("the modifier {modifier} is too large (−1000..+1000)"),
        )),
    }
}

/// Whether `word` is meant as an ability of `/vs` (an ability, perhaps with a modifier or a
/// mistake after it), not a comment.
fn names_ability(word: &str) -> bool {
    VS_VALUES.iter().any(|a| word.starts_with(a))
}

/// A 2D6 check of AW-1 with no difficulty (a contest's side).
fn side_check(modifier: i64) -> Check {
    Check {
        modifier,
        target: None,
        critical: 12,
        fumble: 2,
    }
}

/// `/vs A ABILITY[±m] B [ABILITY[±m]]` (AW-2 対決 「アクション側が先に判定を行ない、その後に
/// リアクション側が判定を行なう」): an open contest in which one side is an enemy whose data
/// is the GM's (AW-3 対象識別: 「成功することで、敵のデータを公表することができる」). `A` is
/// the action side; the players see their side's roll and who won, the enemy's side as
/// （非公開）, as in the blockade contest; the GM sees every number. A servant's pending
/// command-spell +20 goes to its side (AW-5 4). Without a hidden side,
/// `AW+{A.能力} VS AW+{B.能力}` is the way (said so).
///
/// 「判定値や修正値などは通常の行為判定と同じようにGMが決定する」: the enemy's ability and
/// modifier are the GM's. The GM rolls the whole contest. A player names only their own
/// character's side against the enemy: that side is rolled now ([`Event::Declared`]) and the
/// GM answers with `/vs react B ABILITY` ([`react`]); the enemy's action against a player's
/// character is the GM's to declare. So no player runs the enemy's side on demand, which
/// would measure its hidden values (attack6 A6-6).
pub fn versus(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Decided {
    Some((|| {
        let usage = || {
            Text::new(
                "使い方: /vs アクション側 能力値[±修正] リアクション側 [能力値[±修正]] [コメント]（例: /vs ロイ 反射 影 回避。敵の能力値はGMが選びます。GMは /vs ロイ 反射 影 反射 とも書けます）",
                "usage: /vs ACTION ABILITY[±MOD] REACTION [ABILITY[±MOD]] [COMMENT] (e.g. /vs Roy 反射 Shade dodge; the GM chooses the enemy's ability, and may write /vs Roy 反射 Shade 反射)",
            )
        };
        // Words after the sides are a comment, as after any command (kept in the line).
        let [a, a_word, b, rest @ ..] = words else {
            return Err(usage());
        };
        let (a, b) = (*a, *b);
        let (b_word, rest) = match rest.split_first() {
            Some((w, r)) if names_ability(w) => (Some(*w), r),
            _ => (None, rest),
        };
        let comment = rest.join(" ");
        if a == b {
            return Err(Text::new(
                format!("{a}は自分自身と対決できません"),
                format!("{a} cannot contest against itself"),
            ));
        }
        let (a_ability, a_mod) = ability_word(a_word, usage)?;
        let b_parsed = b_word.map(|w| ability_word(w, usage)).transpose()?;
        if may_act_for(table, a).is_err() {
            may_act_for(table, b)?;
        }
        // AW-3 とどめを刺す: the dead make no checks (as they join no combat).
        for name in [a, b] {
            if state.dead.contains(name) {
                return Err(Text::new(
                    format!(
                        "{name}はとどめを刺されて死亡しています（AW-3）。対決はできません。とどめを取り消すなら、GMがその行を /void してください"
                    ),
                    format!(
                        "{name} was finished off and is dead (AW-3), so it cannot contest; to take the finishing blow back, the GM voids its line with /void"
                    ),
                ));
            }
        }
        let (a_hidden, b_hidden) = (
            super::rules::secret_npc(table, state, a),
            super::rules::secret_npc(table, state, b),
        );
        if a_hidden == b_hidden {
            let b_ability = b_parsed.as_ref().map_or("能力値", |(ab, _)| ab.as_str());
            return Err(Text::new(
                format!(
                    "/vs は片方がGMの未識別のNPCのときの対決です。ここでは AW+{{{a}.{a_ability}}} VS AW+{{{b}.{b_ability}}} のように振ってください（AW-2）"
                ),
                format!(
                    "/vs is for a contest where one side is the GM's unidentified NPC; here roll AW+{{{a}.{a_ability}}} VS AW+{{{b}.{b_ability}}} (AW-2)"
                ),
            ));
        }
        // AW-6: a PC side without the required event key does not roll.
        for name in [a, b] {
            super::keys::contest_side_allowed(table, &state.keys, name)?;
        }
        // AW-1 (「修正は−3〜+3程度の範囲で行なうこと」): the open side's modifier beyond the
        // guide gets the same note as a check's.
        let open_mod = if a_hidden {
            b_parsed.as_ref().and_then(|(_, m)| *m)
        } else {
            a_mod
        };
        let reply = open_mod.filter(|m| !(-3..=3).contains(m)).map(|m| {
            let m = taku_dice::system_command::format_modifier(m);
            Text::new(
                format!(
                    "注意: 修正{m}は目安の−3〜+3を超えています（ダイスひとつ分の期待値3.5を上回る、AW-1）"
                ),
                format!(
                    "note: the modifier {m} is beyond the −3..+3 guide (more than one die's expectation of 3.5, AW-1)"
                ),
            )
        });
        if !table.actor_is_gm() {
            return declare(
                table,
                state,
                [a, b],
                (a_ability, a_mod),
                b_parsed,
                comment,
                reply,
                dice,
            );
        }
        let Some((b_ability, b_mod)) = b_parsed else {
            return Err(usage());
        };
        let a_value = field(table, a, &a_ability)?.saturating_add(a_mod.unwrap_or(0));
        let b_value = field(table, b, &b_ability)?.saturating_add(b_mod.unwrap_or(0));
        let mut events = Vec::new();
        let a_boost = spell_boost(state, a, &mut events).unwrap_or(0);
        let b_boost = spell_boost(state, b, &mut events).unwrap_or(0);
        let contest = Contest {
            action: side_check(a_value.saturating_add(a_boost)),
            reaction: Reaction::Rolls(side_check(b_value.saturating_add(b_boost))),
        };
        let (rolled, veiled) = contest::roll_veiled(&contest, dice).map_err(|e| e.text())?;
        // The hidden side acts: the players see its critical or fumble (what the table sees
        // of any roll) and who won, never its value, dice or achievement; the reaction
        // side's roll is theirs to see.
        let veiled = if a_hidden {
            let parts: Vec<&str> = rolled.text.split(" ／ ").collect();
            let action = if rolled.fumble {
                "ファンブル"
            } else if rolled.critical {
                "クリティカル"
            } else {
                "（非公開）"
            };
            let reaction = parts.get(1).copied().unwrap_or_default();
            let last = parts.last().copied().unwrap_or_default();
            let last = match last.split_once(taku_dice::command::SEP) {
                Some((why, winner)) if why.starts_with("達成値 ") => {
                    format!("達成値の比較{}{winner}", taku_dice::command::SEP)
                }
                _ => last.to_string(),
            };
            format!(
                "(? VS 2D6{}[12,2]){}アクション側 {action} ／ {reaction} ／ {last}",
                taku_dice::system_command::format_modifier(b_value.saturating_add(b_boost)),
                taku_dice::command::SEP
            )
        } else {
            veiled
        };
        let sides = Sides {
            name: a,
            ability: &a_ability,
            against: b,
            their_ability: &b_ability,
            action_hidden: a_hidden,
            comment: &comment,
            answers: false,
            veiled: true,
        };
        events.extend(sides.lines(&rolled, veiled));
        Ok(Outcome { events, reply })
    })())
}

/// The two sides of an open contest, for its two lines.
struct Sides<'a> {
    name: &'a str,
    ability: &'a str,
    against: &'a str,
    their_ability: &'a str,
    action_hidden: bool,
    comment: &'a str,
    answers: bool,
    /// One side is hidden from the players: their line leaves it out.
    veiled: bool,
}

impl Sides<'_> {
    /// The players' line (the hidden side `veiled`) and the GM's (every number).
    fn lines(&self, rolled: &taku_dice::RollResult, veiled: String) -> [AwEvent; 2] {
        let opposed = |text: String, gm_only: bool| {
            ev(Event::Opposed {
                name: self.name.to_string(),
                ability: self.ability.to_string(),
                against: self.against.to_string(),
                their_ability: self.their_ability.to_string(),
                text,
                won: rolled.success,
                gm_only,
                veiled: self.veiled && !gm_only,
                action_hidden: self.action_hidden,
                comment: self.comment.to_string(),
                unset: false,
                answers: self.answers,
            })
        };
        [opposed(veiled, false), opposed(rolled.text.clone(), true)]
    }
}

/// A player's `/vs` against the GM's hidden NPC ([`versus`]): the player's own character
/// acts, its side is rolled now, and the GM chooses and rolls the enemy's side
/// ([`react`]). The enemy acting, its ability named, a second contest of the same character
/// before the GM answered the first: refused, each saying what to do.
#[allow(clippy::too_many_arguments)]
fn declare(
    table: &dyn TableView,
    state: &State,
    [a, b]: [&str; 2],
    (a_ability, a_mod): (String, Option<i64>),
    b_parsed: Option<(String, Option<i64>)>,
    comment: String,
    reply: Option<Text>,
    dice: &mut Roller<'_>,
) -> Result<Outcome<AwEvent>, Text> {
    if super::rules::secret_npc(table, state, a) {
        return Err(Text::new(
            format!(
                "{a}の行動はGMが宣言して振ります（AW-2「判定値や修正値などは…GMが決定する」）。{b}の側で応じるときはGMに頼んでください"
            ),
            format!(
                "the GM declares and rolls {a}'s action (AW-2: judgement values and modifiers are the GM's); ask the GM to roll it against {b}"
            ),
        ));
    }
    if b_parsed.is_some() {
        return Err(Text::new(
            format!(
                "{b}の能力値と修正はGMが選びます（AW-2「判定値や修正値などは…GMが決定する」）。/vs {a} {a_ability} {b} と書くと{a}の側を振り、GMが /vs react で{b}の側を振ります"
            ),
            format!(
                "the GM chooses {b}'s ability and modifier (AW-2: judgement values and modifiers are the GM's); write /vs {a} {a_ability} {b} to roll {a}'s side, and the GM rolls {b}'s with /vs react"
            ),
        ));
    }
    if let Some(w) = state.waiting.iter().find(|w| w.name == a) {
        let other = &w.against;
        return Err(Text::new(
            format!(
                "{a}の{other}との対決がGMの応答を待っています。GMが /vs react {other} 能力値 で振るか、取りやめるならその行を /void してから、次を宣言してください"
            ),
            format!(
                "{a}'s contest with {other} is waiting for the GM; the GM rolls it with /vs react {other} ABILITY, or, to call it off, voids that line with /void, before another is declared"
            ),
        ));
    }
    let value = field(table, a, &a_ability)?.saturating_add(a_mod.unwrap_or(0));
    let mut events = Vec::new();
    let boost = spell_boost(state, a, &mut events).unwrap_or(0);
    let modifier = value.saturating_add(boost);
    let rolled = contest::roll_dice(dice).map_err(|e| e.text())?;
    let (text, fumbled) = contest::action_text(&side_check(modifier), rolled)
        .ok_or_else(|| taku_dice::EvalError::Overflow.text())?;
    events.push(ev(Event::Declared {
        name: a.to_string(),
        ability: a_ability,
        modifier,
        against: b.to_string(),
        dice: rolled,
        text,
        fumbled,
        comment,
    }));
    Ok(Outcome { events, reply })
}

/// `/vs react B ABILITY[±m] [A]` (GM): the reaction side of a contest a player declared
/// against the GM's NPC `B` ([`Event::Declared`]), rolled now with the ability and modifier
/// the GM chooses (AW-2 「判定値や修正値などは…GMが決定する」); the oldest contest waiting on
/// `B`, or `A`'s.
pub fn react(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Decided {
    Some((|| {
        let usage = || {
            Text::new(
                "使い方: /vs react リアクション側 能力値[±修正] [アクション側]（例: /vs react 影 反射、/vs react 影 反射-1 ロイ）",
                "usage: /vs react REACTION ABILITY[±MOD] [ACTION] (e.g. /vs react Shade 反射, /vs react Shade 反射-1 Roy)",
            )
        };
        if !table.actor_is_gm() {
            return Err(Text::new(
                "対決のリアクション側（GMのNPC）はGMが能力値を選んで振ります（AW-2）。/vs アクション側 能力値 相手 で宣言してください",
                "the GM chooses and rolls the reaction side (the GM's NPC) of a contest (AW-2); declare yours with /vs ACTION ABILITY OPPONENT",
            ));
        }
        let (b, b_word, a) = match words {
            [b, w] => (*b, *w, None),
            [b, w, a] => (*b, *w, Some(*a)),
            _ => return Err(usage()),
        };
        let (b_ability, b_mod) = ability_word(b_word, usage)?;
        let Some(w) = state
            .waiting
            .iter()
            .find(|w| w.against == b && a.is_none_or(|a| w.name == a))
        else {
            let list: Vec<String> = state
                .waiting
                .iter()
                .map(|w| format!("{} VS {}", w.name, w.against))
                .collect();
            let (ja, en) = if list.is_empty() {
                ("なし".to_string(), "none".to_string())
            } else {
                (list.join("、"), list.join(", "))
            };
            return Err(Text::new(
                format!("{b}がリアクション側で応答を待つ対決はありません（待っている対決: {ja}）"),
                format!("no contest waits for {b}'s reaction (waiting: {en})"),
            ));
        };
        let b_value = field(table, b, &b_ability)?.saturating_add(b_mod.unwrap_or(0));
        let mut events = Vec::new();
        let b_boost = spell_boost(state, b, &mut events).unwrap_or(0);
        let contest = Contest {
            action: side_check(w.modifier),
            reaction: Reaction::Rolls(side_check(b_value.saturating_add(b_boost))),
        };
        let (rolled, veiled) =
            contest::settle_veiled(&contest, w.dice, dice).map_err(|e| e.text())?;
        let hidden = super::rules::secret_npc(table, state, b);
        let sides = Sides {
            name: &w.name,
            ability: &w.ability,
            against: b,
            their_ability: &b_ability,
            action_hidden: false,
            comment: &w.comment,
            answers: true,
            veiled: hidden,
        };
        events.extend(sides.lines(&rolled, if hidden { veiled } else { rolled.text.clone() }));
        Ok(Outcome {
            events,
            reply: None,
        })
    })())
}

/// A contest a player declared, waiting for the GM's reaction ([`react`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waiting {
    /// The action side.
    pub name: String,
    /// Its ability.
    pub ability: String,
    /// Its modifier as rolled.
    pub modifier: i64,
    /// The GM's NPC on the reaction side.
    pub against: String,
    /// The action side's dice.
    pub dice: [i64; 2],
    /// The line's comment.
    pub comment: String,
}

/// A contest's text as taku words it (the parts of [`contest::roll_veiled`] and the `/vs`
/// veil) in English, for English tables (aw6: 「アクション側 （非公開）」 in English lines).
/// The dice and numbers are kept; `リアクション側…` before `アクション側…`, which it contains.
fn contest_text_en(text: &str) -> String {
    const WORDS: &[(&str, &str)] = &[
        (
            "両者クリティカル（リアクション優先）",
            "both critical (the reaction side wins)",
        ),
        ("リアクション側のファンブル", "reaction side fumbled"),
        ("リアクション側のクリティカル", "reaction side critical"),
        ("リアクション側の勝利", "reaction side wins"),
        ("アクション側のファンブル", "action side fumbled"),
        ("アクション側のクリティカル", "action side critical"),
        ("アクション側の勝利", "action side wins"),
        ("（リアクション優先）", " (the reaction side wins ties)"),
        ("達成値の比較", "achievements compared"),
        ("達成値 ", "achievement "),
        (" 対 ", " vs "),
        ("判定なし", "no roll"),
        ("（非公開）", "(hidden)"),
        ("（固定値）", " (fixed)"),
        ("リアクション側", "reaction side"),
        ("アクション側", "action side"),
        ("クリティカル", "critical"),
        ("ファンブル", "fumble"),
        (" ／ ", " / "),
        ("＞", ">"),
    ];
    WORDS
        .iter()
        .fold(text.to_string(), |t, (ja, en)| t.replace(ja, en))
}

#[cfg(test)]
mod tests {
    use super::Act;

    #[test]
    fn an_action_reads_back_from_the_japanese_line_the_log_keeps() {
        let acts = [
            Act::CombatMove(13),
            Act::Skill("本のクチ".into()),
            Act::FullMove(26),
            Act::Attack("影".into()),
            Act::Disengage(13),
            Act::Identify("影".into()),
            Act::Finish("影".into()),
            Act::Escape(26),
            Act::Blocked,
        ];
        for a in acts {
            assert_eq!(Act::parse(&a.stored()), Some(a.clone()), "{}", a.stored());
        }
        // Lines as the log has always kept them.
        assert_eq!(Act::parse("戦闘移動: 13m まで"), Some(Act::CombatMove(13)));
        assert_eq!(
            Act::parse("逃走: 全力移動 26m でシーンから退場"),
            Some(Act::Escape(26))
        );
    }
}
