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

use super::rules::{
    Decided, Event as AwEvent, Kind, State, field, gm_only, kind, may_act_for, one,
};
use crate::table_rules::{Outcome, TableView};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

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
    /// In an engagement with an enemy or obstacle.
    #[serde(default)]
    pub engaged: bool,
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
}

impl Combat {
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
        let waiting: Vec<&Combatant> = self.combatants.iter().filter(|c| !c.acted).collect();
        // Join order breaks what nothing else does: the first joined wins.
        let best = waiting.iter().copied().rev().max_by_key(|c| key(c))?;
        let tied: Vec<&&Combatant> = waiting
            .iter()
            .filter(|c| c.action == best.action && c.name != best.name)
            .collect();
        let why = if tied.is_empty() {
            None
        } else if best.pc && tied.iter().all(|c| !c.pc) {
            Some("同値はPCが先")
        } else if gm_rank(&best.name) != usize::MAX {
            Some("同値はGMの決定")
        } else if best.pc {
            Some("同値のPCは【反射】【知覚】【幸運】の順")
        } else {
            Some("同値のNPCはGMの決定（参加順）")
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
fn combatant(table: &dyn TableView, name: &str) -> Result<Combatant, String> {
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
        engaged: false,
    })
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
        }),
        None => ev(Event::Cleanup { early: None }),
    }
}

/// `/combat …`.
pub fn decide(table: &dyn TableView, state: &State, words: &[&str]) -> Decided {
    let combat = state.combat.as_ref();
    let need = || {
        combat.ok_or_else(|| {
            "no combat is on; the GM starts one with /combat start NAME…".to_string()
        })
    };
    Some(match words {
        ["start", names @ ..] => (|| {
            gm_only(table, "start a combat")?;
            if combat.is_some() {
                return Err("a combat is already on; /combat end first".into());
            }
            if names.is_empty() {
                return Err("usage: /combat start NAME… (everyone in the combat)".into());
            }
            let combatants = names
                .iter()
                .map(|n| combatant(table, n))
                .collect::<Result<Vec<_>, _>>()?;
            one(ev(Event::Started { combatants }))
        })(),
        ["add", name] => (|| {
            gm_only(table, "add a combatant")?;
            if need()?.get(name).is_some() {
                return Err(format!("{name} is already in the combat"));
            }
            one(ev(Event::Joined {
                combatant: combatant(table, name)?,
            }))
        })(),
        ["remove", name] => (|| {
            gm_only(table, "remove a combatant")?;
            need()?.get(name).ok_or_else(|| format!("{name} is not in the combat"))?;
            one(ev(Event::Left {
                name: name.to_string(),
                why: "GM".into(),
            }))
        })(),
        ["order", names @ ..] if !names.is_empty() => (|| {
            gm_only(table, "decide the order of tied characters")?;
            let c = need()?;
            for n in names.iter() {
                c.get(n).ok_or_else(|| format!("{n} is not in the combat"))?;
            }
            one(ev(Event::Ordered {
                order: names.iter().map(|n| n.to_string()).collect(),
            }))
        })(),
        ["next"] => (|| {
            gm_only(table, "move the round on")?;
            let c = need()?;
            let events = match &c.process {
                Process::Setup => vec![initiative(c)],
                Process::Main { actor, .. } => finish_turn(c, actor),
                Process::Cleanup => vec![ev(Event::Round { round: c.round + 1 })],
            };
            Ok(Outcome { events, reply: None })
        })(),
        ["minor", what @ ..] => act(table, need, false, what),
        ["major", what @ ..] => act(table, need, true, what),
        ["engage", a, b, more @ ..] => (|| {
            gm_only(table, "record an engagement")?;
            let c = need()?;
            let names: Vec<String> = [a, b].into_iter().chain(more).map(|n| n.to_string()).collect();
            for n in &names {
                c.get(n).ok_or_else(|| format!("{n} is not in the combat"))?;
            }
            one(ev(Event::Engaged { names }))
        })(),
        ["free", name] => (|| {
            gm_only(table, "end an engagement")?;
            need()?.get(name).ok_or_else(|| format!("{name} is not in the combat"))?;
            one(ev(Event::Freed {
                name: name.to_string(),
            }))
        })(),
        ["end"] => (|| {
            gm_only(table, "end the combat")?;
            need()?;
            one(ev(Event::Ended))
        })(),
        ["status"] => need().map(|c| Outcome {
            events: Vec::new(),
            reply: Some(crate::untranslated(status(c))),
        }),
        _ => Err("usage: /combat start|add|remove|order|next|minor|major|engage|free|status|end …; /help lists them".into()),
    })
}

/// A minor or major action of the character whose main process it is.
fn act<'a>(
    table: &dyn TableView,
    need: impl Fn() -> Result<&'a Combat, String>,
    major: bool,
    what: &[&str],
) -> Result<Outcome<AwEvent>, String> {
    let c = need()?;
    let Process::Main { actor, minor } = &c.process else {
        return Err(
            "no one's main process is on; the GM moves the round on with /combat next".into(),
        );
    };
    may_act_for(table, actor)?;
    let me = c
        .get(actor)
        .ok_or_else(|| format!("{actor} is not in the combat"))?;
    let engaged = |what: &str| {
        if me.engaged {
            Err(format!(
                "{actor} is in an engagement and cannot {what}; disengage first (major action)"
            ))
        } else {
            Ok(())
        }
    };
    let action = |text: String| {
        ev(Event::Action {
            name: actor.clone(),
            major,
            what: text,
        })
    };
    if !major {
        if *minor {
            return Err(format!("{actor} has already taken a minor action"));
        }
        let text = match what {
            ["move"] => {
                engaged("make a combat move")?;
                format!("戦闘移動: {}m まで", me.combat_move())
            }
            ["skill", skill @ ..] if !skill.is_empty() => format!("特技使用: {}", skill.join(" ")),
            _ => return Err("usage: /combat minor move | /combat minor skill SKILL".into()),
        };
        return one(action(text));
    }
    let mut leaves = None;
    let text = match what {
        ["move"] => {
            engaged("make a full move")?;
            format!("全力移動: {}m まで", me.full_move())
        }
        ["attack", target @ ..] if !target.is_empty() => format!("攻撃: {}", target.join(" ")),
        ["skill", skill @ ..] if !skill.is_empty() => format!("特技使用: {}", skill.join(" ")),
        ["disengage"] => {
            if !me.engaged {
                return Err(format!("{actor} is not in an engagement"));
            }
            format!(
                "離脱: エンゲージを離れて {}m まで移動（封鎖ならGMは【行動値】の対決を求めてよい）",
                me.combat_move()
            )
        }
        ["identify", target @ ..] if !target.is_empty() => format!(
            "対象識別: {} ＞ 【理知】判定 難易度10+GMの値で成功すればデータを公表",
            target.join(" ")
        ),
        ["finish", target @ ..] if !target.is_empty() => {
            format!(
                "とどめを刺す: {}（戦闘不能のキャラクターを死亡させる）",
                target.join(" ")
            )
        }
        ["escape"] => {
            engaged("escape")?;
            leaves = Some(format!(
                "逃走: 全力移動 {}m でシーンから退場",
                me.full_move()
            ));
            format!("逃走: 全力移動 {}m でシーンから退場", me.full_move())
        }
        _ => {
            return Err("usage: /combat major move | attack TARGET | skill SKILL | disengage | identify TARGET | finish TARGET | escape".into());
        }
    };
    let mut events = vec![action(text)];
    let mut after = c.clone();
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

fn status(c: &Combat) -> String {
    let process = match &c.process {
        Process::Setup => "セットアッププロセス".to_string(),
        Process::Main { actor, .. } => format!("{actor}のメインプロセス"),
        Process::Cleanup => "クリンナッププロセス".to_string(),
    };
    let mut lines = vec![format!("ラウンド{} {process}", c.round)];
    for x in &c.combatants {
        lines.push(format!(
            "  {} {} 【行動値】{} {}{} 戦闘移動{}m 全力移動{}m",
            x.name,
            if x.pc { "PC" } else { "NPC" },
            x.action,
            if x.acted { "行動済" } else { "未行動" },
            if x.engaged { " エンゲージ中" } else { "" },
            x.combat_move(),
            x.full_move()
        ));
    }
    lines.join("\n")
}

/// Folds a combat event (total: an event about someone no longer there changes nothing).
pub fn fold(combat: &mut Option<Combat>, e: &Event) {
    if let Event::Started { combatants } = e {
        *combat = Some(Combat {
            round: 1,
            process: Process::Setup,
            combatants: combatants.clone(),
            order: Vec::new(),
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
            if matches!(&c.process, Process::Main { actor, .. } if actor == name) {
                c.process = Process::Setup;
            }
        }
        Event::Ordered { order } => c.order = order.clone(),
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
            for n in names {
                if let Some(x) = c.get_mut(n) {
                    x.engaged = true;
                }
            }
        }
        Event::Freed { name } => {
            if let Some(x) = c.get_mut(name) {
                x.engaged = false;
            }
        }
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

/// A line of log text.
pub fn describe(e: &Event) -> String {
    match e {
        Event::Started { combatants } => format!(
            "戦闘開始 ＞ ラウンド1 セットアッププロセス: {}",
            combatants
                .iter()
                .map(|c| format!(
                    "{}（{} 【行動値】{}）",
                    c.name,
                    if c.pc { "PC" } else { "NPC" },
                    c.action
                ))
                .collect::<Vec<_>>()
                .join("、")
        ),
        Event::Joined { combatant: c } => {
            format!("{}が戦闘に参加（【行動値】{}）", c.name, c.action)
        }
        Event::Left { name, why } => format!("{name}が戦闘から退場（{why}）"),
        Event::Ordered { order } => format!("同値の行動順（GM）: {}", order.join(" → ")),
        Event::Turn {
            round,
            actor,
            action,
            tie,
        } => format!(
            "ラウンド{round} イニシアチブ ＞ {actor}（【行動値】{action}{}）のメインプロセス",
            tie.as_deref().map(|t| format!("、{t}")).unwrap_or_default()
        ),
        Event::Action { name, major, what } => format!(
            "{name} {}: {what}",
            if *major {
                "メジャーアクション"
            } else {
                "マイナーアクション"
            }
        ),
        Event::Done { name } => format!("{name}は行動済"),
        Event::Engaged { names } => format!("エンゲージ: {}", names.join("、")),
        Event::Freed { name } => format!("{name}はエンゲージから離れた"),
        Event::Cleanup { early: None } => "全員が行動済 ＞ クリンナッププロセス".to_string(),
        Event::Cleanup { early: Some(why) } => {
            format!("{why} ＞ ラウンドは即座にクリンナッププロセスへ")
        }
        Event::Round { round } => format!("ラウンド{round} セットアッププロセス"),
        Event::Ended => "戦闘終了".to_string(),
    }
}
