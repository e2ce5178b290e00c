//! taku's tables: one running game as an append-only log of [`Event`]s and the [`Table`]
//! state folded from it.
//!
//! A member sends a line; [`Table::decide`] parses it (table commands start with `/`,
//! everything else goes to the table's game system, and what no command understands is
//! chat), checks the member may do it, and returns the events it would append, without
//! changing anything. [`Table::apply`] appends them. [`Table::view`] says what one member may
//! see of an event: a secret roll is shown to others only as its SHA-256 commitment until
//! revealed, and the table's seed is never shown.
//!
//! The key design decision: state is never updated in place, only folded from events, so a
//! table reloaded from its log is the same table, `/undo` is a compensating event, and
//! every roll replays from the seed and its position in the log ([`Table::verify`]).
//! Storage (SQLite, PostgreSQL) is a separate layer that persists the events.

pub mod command;
pub mod event;
pub mod secret;
pub mod store;

pub use command::TableCommand;
pub use event::{Event, EventBody, Role, Roll};

use std::collections::{BTreeMap, BTreeSet};
use taku_dice::{ChaChaSource, EvalError, Mode};
use taku_systems::GameSystem;

/// A line the table refused; nothing was changed. The message says what was wrong and
/// what would be right.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refusal(pub String);

fn refuse<T>(msg: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(msg.into()))
}

/// A log that cannot be folded into a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The log does not start with the table's creation.
    #[error("the log does not start with a table creation event")]
    NoCreation,
    /// Sequence numbers are not 1, 2, 3, …
    #[error("event #{found} where #{expected} was expected")]
    Gap {
        /// The seq that should come next.
        expected: u64,
        /// The seq found.
        found: u64,
    },
    /// An unknown game system or a malformed seed.
    #[error("{0}")]
    Invalid(String),
}

/// A character: its owner and free-form fields.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Character {
    /// Member who created it.
    pub owner: String,
    /// Fields set with `/char set`.
    pub fields: BTreeMap<String, String>,
}

/// What a line produced: the events to append and a reply only the sender sees
/// (`/help`, `/char show`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decision {
    /// Events, in order.
    pub events: Vec<EventBody>,
    /// Private reply to the sender.
    pub reply: Option<String>,
}

/// A roll whose replay from the seed differs from the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Seq of the roll.
    pub seq: u64,
    /// What the log holds.
    pub logged: String,
    /// What the replay gave.
    pub replayed: String,
}

/// One table: its log and the state folded from it.
#[derive(Clone)]
pub struct Table {
    events: Vec<Event>,
    system: &'static dyn GameSystem,
    name: String,
    gm: String,
    seed: [u8; 32],
    members: BTreeMap<String, Role>,
    characters: BTreeMap<String, Character>,
    scene: u64,
    session: u64,
    revealed: BTreeSet<u64>,
    undone: BTreeSet<u64>,
}

impl std::fmt::Debug for Table {
    // The seed stays out of debug output too.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("system", &self.system.id())
            .field("name", &self.name)
            .field("events", &self.events.len())
            .field("members", &self.members)
            .finish_non_exhaustive()
    }
}

impl Table {
    /// A new table whose creator `gm` is its GM.
    pub fn create(system: &str, name: &str, gm: &str, seed: [u8; 32]) -> Result<Table, Refusal> {
        if taku_systems::find(system).is_none() {
            return refuse(format!(
                "unknown game system '{system}'; see `taku systems`"
            ));
        }
        check_name("GM name", gm)?;
        let created = Event {
            seq: 1,
            actor: gm.to_string(),
            body: EventBody::Created {
                system: system.to_string(),
                name: name.to_string(),
                seed: secret::hex(&seed),
            },
        };
        Table::from_events(vec![created]).map_err(|e| Refusal(e.to_string()))
    }

    /// Folds a log into a table.
    pub fn from_events(events: Vec<Event>) -> Result<Table, LoadError> {
        let Some(Event {
            seq: 1,
            actor,
            body: EventBody::Created { system, name, seed },
        }) = events.first()
        else {
            return Err(LoadError::NoCreation);
        };
        let system = taku_systems::find(system)
            .ok_or_else(|| LoadError::Invalid(format!("unknown game system '{system}'")))?;
        let seed = secret::parse_seed(seed)
            .ok_or_else(|| LoadError::Invalid("the table's seed is not 64 hex digits".into()))?;
        let mut table = Table {
            events: Vec::with_capacity(events.len()),
            system,
            name: name.clone(),
            gm: actor.clone(),
            seed,
            members: BTreeMap::from([(actor.clone(), Role::Gm)]),
            characters: BTreeMap::new(),
            scene: 1,
            session: 1,
            revealed: BTreeSet::new(),
            undone: BTreeSet::new(),
        };
        let mut iter = events.into_iter();
        table.events.push(iter.next().expect("checked above"));
        table.extend(iter)?;
        Ok(table)
    }

    /// Folds events appended after this table's last one (by another writer, say). Stops
    /// at the first event out of sequence; those before it stay folded.
    pub fn extend(&mut self, events: impl IntoIterator<Item = Event>) -> Result<(), LoadError> {
        for event in events {
            let expected = self.next_seq();
            if event.seq != expected {
                return Err(LoadError::Gap {
                    expected,
                    found: event.seq,
                });
            }
            self.fold(event);
        }
        Ok(())
    }

    /// The log.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The table's game system.
    pub fn system(&self) -> &'static dyn GameSystem {
        self.system
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Members and their roles.
    pub fn members(&self) -> &BTreeMap<String, Role> {
        &self.members
    }

    /// Characters by name.
    pub fn characters(&self) -> &BTreeMap<String, Character> {
        &self.characters
    }

    /// Current scene and session numbers, from 1.
    pub fn scene_and_session(&self) -> (u64, u64) {
        (self.scene, self.session)
    }

    /// Seq the next event will get.
    pub fn next_seq(&self) -> u64 {
        self.events.len() as u64 + 1
    }

    /// What `actor`'s line would do, without changing anything.
    pub fn decide(&self, actor: &str, line: &str) -> Result<Decision, Refusal> {
        let Some(&role) = self.members.get(actor) else {
            return refuse(format!(
                "'{actor}' is not a member of this table; the GM adds members with /join {actor} as player"
            ));
        };
        let line = line.trim();
        if line.is_empty() {
            return refuse("empty line; type a dice command, chat, or /help");
        }
        if line.starts_with('/') {
            let cmd = command::parse(line).map_err(Refusal)?;
            return self.decide_command(actor, role, cmd);
        }
        self.decide_line(role, line)
    }

    /// Decided events for `actor` with the seqs they would take, without appending them.
    pub fn numbered(&self, actor: &str, bodies: Vec<EventBody>) -> Vec<Event> {
        let next = self.next_seq();
        bodies
            .into_iter()
            .zip(next..)
            .map(|(body, seq)| Event {
                seq,
                actor: actor.to_string(),
                body,
            })
            .collect()
    }

    /// Appends decided events for `actor`, returning them with their seqs.
    pub fn apply(&mut self, actor: &str, bodies: Vec<EventBody>) -> &[Event] {
        let first = self.events.len();
        for event in self.numbered(actor, bodies) {
            self.fold(event);
        }
        &self.events[first..]
    }

    /// Decides and applies one line; returns the reply, if any, and the new events.
    pub fn exec(&mut self, actor: &str, line: &str) -> Result<(Option<String>, &[Event]), Refusal> {
        let decision = self.decide(actor, line)?;
        let events = self.apply(actor, decision.events);
        Ok((decision.reply, events))
    }

    fn decide_line(&self, role: Role, line: &str) -> Result<Decision, Refusal> {
        let seq = self.next_seq();
        let mut dice = ChaChaSource::from_key(secret::dice_key(&self.seed, seq));
        let result = match taku_systems::evaluate(self.system, line, &mut dice, Mode::Normalize) {
            Ok(r) => r,
            Err(EvalError::Unsupported(_)) => {
                return Ok(Decision {
                    events: vec![EventBody::Chat {
                        text: line.to_string(),
                    }],
                    reply: None,
                });
            }
            Err(e) => return refuse(format!("{line}: {e}")),
        };
        if role == Role::Spectator {
            return refuse("spectators cannot roll; the GM can make you a player with /join");
        }
        let mut roll = Roll {
            input: line.to_string(),
            text: result.text,
            secret: result.secret,
            success: result.success,
            failure: result.failure,
            critical: result.critical,
            fumble: result.fumble,
            rands: result.rands.iter().map(|d| [d.sides, d.value]).collect(),
            commitment: None,
        };
        if roll.secret {
            roll.commitment = Some(secret::commitment(&secret::salt(&self.seed, seq), &roll));
        }
        Ok(Decision {
            events: vec![EventBody::Roll(roll)],
            reply: None,
        })
    }

    fn decide_command(
        &self,
        actor: &str,
        role: Role,
        cmd: TableCommand,
    ) -> Result<Decision, Refusal> {
        let gm_only = |what: &str| refuse(format!("only the GM can {what}"));
        let event = |body| {
            Ok(Decision {
                events: vec![body],
                reply: None,
            })
        };
        match cmd {
            TableCommand::Help => Ok(Decision {
                events: vec![],
                reply: Some(format!("{}\n\n{}", command::HELP, self.system.help())),
            }),
            TableCommand::Join { name, role: new } => {
                if role != Role::Gm {
                    return gm_only("add members");
                }
                check_name("member name", &name)?;
                if let Some(existing) = self.members.get(&name) {
                    return refuse(format!(
                        "'{name}' is already a member ({})",
                        existing.as_str()
                    ));
                }
                event(EventBody::Joined {
                    member: name,
                    role: new,
                })
            }
            TableCommand::CharNew(name) => {
                if role == Role::Spectator {
                    return refuse("spectators cannot create characters");
                }
                check_name("character name", &name)?;
                if self.characters.contains_key(&name) {
                    return refuse(format!("a character named '{name}' already exists"));
                }
                event(EventBody::CharacterCreated { name })
            }
            TableCommand::CharSet { name, key, value } => {
                let Some(ch) = self.characters.get(&name) else {
                    return refuse(format!(
                        "no character named '{name}'; create it with /char new {name}"
                    ));
                };
                if ch.owner != actor && role != Role::Gm {
                    return refuse(format!(
                        "'{name}' belongs to {}; only they or the GM can change it",
                        ch.owner
                    ));
                }
                let previous = ch.fields.get(&key).cloned();
                event(EventBody::CharacterSet {
                    name,
                    key,
                    value,
                    previous,
                })
            }
            TableCommand::CharShow(name) => {
                let Some(ch) = self.characters.get(&name) else {
                    return refuse(format!("no character named '{name}'"));
                };
                let mut reply = format!("{name} (owner {})", ch.owner);
                for (k, v) in &ch.fields {
                    reply.push_str(&format!("\n  {k}: {v}"));
                }
                Ok(Decision {
                    events: vec![],
                    reply: Some(reply),
                })
            }
            TableCommand::SceneNext => {
                if role != Role::Gm {
                    return gm_only("start the next scene");
                }
                event(EventBody::SceneAdvanced)
            }
            TableCommand::SessionEnd => {
                if role != Role::Gm {
                    return gm_only("end the session");
                }
                event(EventBody::SessionEnded)
            }
            TableCommand::Undo(of) => {
                let whose = match of {
                    Some(member) if member != actor => {
                        if role != Role::Gm {
                            return gm_only("undo another member's change");
                        }
                        member
                    }
                    _ => actor.to_string(),
                };
                let target = self.events.iter().rev().find(|e| {
                    e.actor == whose && e.body.is_undoable() && !self.undone.contains(&e.seq)
                });
                match target {
                    Some(e) => event(EventBody::Undone { event: e.seq }),
                    None => refuse(format!(
                        "{whose} has no change left to undo (rolls are never undone)"
                    )),
                }
            }
            TableCommand::Reveal(seq) => {
                let Some(Event {
                    actor: roller,
                    body: EventBody::Roll(roll),
                    ..
                }) = self.event(seq)
                else {
                    return refuse(format!("#{seq} is not a roll"));
                };
                if !roll.secret {
                    return refuse(format!("#{seq} is not a secret roll"));
                }
                if roller != actor && role != Role::Gm {
                    return refuse(format!("only {roller} or the GM can reveal #{seq}"));
                }
                if self.revealed.contains(&seq) {
                    return refuse(format!("#{seq} is already revealed"));
                }
                event(EventBody::Revealed { roll: seq })
            }
        }
    }

    fn event(&self, seq: u64) -> Option<&Event> {
        usize::try_from(seq.checked_sub(1)?)
            .ok()
            .and_then(|i| self.events.get(i))
    }

    /// Folds one event into the state and appends it to the log.
    fn fold(&mut self, event: Event) {
        match &event.body {
            EventBody::Created { .. } | EventBody::Chat { .. } | EventBody::Roll(_) => {}
            EventBody::Joined { member, role } => {
                self.members.insert(member.clone(), *role);
            }
            EventBody::Revealed { roll } => {
                self.revealed.insert(*roll);
            }
            EventBody::CharacterCreated { name } => {
                self.characters.insert(
                    name.clone(),
                    Character {
                        owner: event.actor.clone(),
                        fields: BTreeMap::new(),
                    },
                );
            }
            EventBody::CharacterSet {
                name, key, value, ..
            } => {
                if let Some(ch) = self.characters.get_mut(name) {
                    ch.fields.insert(key.clone(), value.clone());
                }
            }
            EventBody::SceneAdvanced => self.scene += 1,
            EventBody::SessionEnded => {
                self.session += 1;
                self.scene = 1;
            }
            EventBody::Undone { event: target } => {
                self.undone.insert(*target);
                if let Some(undone) = self.event(*target).cloned() {
                    self.revert(&undone);
                }
            }
        }
        self.events.push(event);
    }

    /// Reverts a state change (the compensating half of `/undo`).
    fn revert(&mut self, event: &Event) {
        match &event.body {
            EventBody::CharacterCreated { name } => {
                self.characters.remove(name);
            }
            EventBody::CharacterSet {
                name,
                key,
                previous,
                ..
            } => {
                if let Some(ch) = self.characters.get_mut(name) {
                    match previous {
                        Some(p) => ch.fields.insert(key.clone(), p.clone()),
                        None => ch.fields.remove(key),
                    };
                }
            }
            EventBody::SceneAdvanced => self.scene = self.scene.saturating_sub(1).max(1),
            EventBody::SessionEnded => {
                self.session = self.session.saturating_sub(1).max(1);
                // The scene count before the session ended is the number of scene advances
                // since the previous session end.
                self.scene = 1 + self.scene_advances_before(event.seq);
            }
            _ => {}
        }
    }

    fn scene_advances_before(&self, seq: u64) -> u64 {
        let before = usize::try_from(seq.saturating_sub(1)).unwrap_or(usize::MAX);
        self.events[..before.min(self.events.len())]
            .iter()
            .rev()
            .filter(|e| !self.undone.contains(&e.seq))
            .take_while(|e| !matches!(e.body, EventBody::SessionEnded))
            .filter(|e| matches!(e.body, EventBody::SceneAdvanced))
            .count() as u64
    }

    /// What `viewer` may see of `event`, as one line of text; `None` for nothing.
    pub fn view(&self, event: &Event, viewer: &str) -> Option<String> {
        let sees_all = viewer == self.gm || self.members.get(viewer) == Some(&Role::Gm);
        let actor = &event.actor;
        let n = event.seq;
        Some(match &event.body {
            // The seed is GM-only and is not shown even to the GM in the log.
            EventBody::Created { system, name, .. } => {
                format!("#{n} table '{name}' ({system}) created by {actor}")
            }
            EventBody::Joined { member, role } => {
                format!("#{n} {member} joined as {}", role.as_str())
            }
            EventBody::Chat { text } => format!("#{n} {actor}: {text}"),
            EventBody::Roll(roll) => {
                if !roll.secret {
                    format!("#{n} {actor}: {}", roll.text)
                } else if sees_all || viewer == actor || self.revealed.contains(&n) {
                    format!("#{n} {actor} (secret): {}", roll.text)
                } else {
                    format!(
                        "#{n} secret roll by {actor} (commitment {})",
                        roll.commitment.as_deref().unwrap_or("-")
                    )
                }
            }
            EventBody::Revealed { roll } => match self.event(*roll) {
                Some(Event {
                    actor: roller,
                    body: EventBody::Roll(r),
                    ..
                }) => format!(
                    "#{n} {actor} revealed #{roll} by {roller}: {} (salt {}, commitment {})",
                    r.text,
                    secret::hex(&secret::salt(&self.seed, *roll)),
                    r.commitment.as_deref().unwrap_or("-")
                ),
                _ => format!("#{n} {actor} revealed #{roll}"),
            },
            EventBody::CharacterCreated { name } => {
                format!("#{n} {actor} created character {name}")
            }
            EventBody::CharacterSet {
                name, key, value, ..
            } => format!("#{n} {actor} set {name}.{key} = {value}"),
            EventBody::SceneAdvanced => format!("#{n} {actor}: next scene"),
            EventBody::SessionEnded => format!("#{n} {actor}: session ended"),
            EventBody::Undone { event } => format!("#{n} {actor} undid #{event}"),
        })
    }

    /// Replays every roll from the seed and its position; lists each roll whose text, flags
    /// or draws differ from the log.
    pub fn verify(&self) -> Vec<Mismatch> {
        let mut out = Vec::new();
        for e in &self.events {
            let EventBody::Roll(logged) = &e.body else {
                continue;
            };
            let mut dice = ChaChaSource::from_key(secret::dice_key(&self.seed, e.seq));
            let replayed =
                taku_systems::evaluate(self.system, &logged.input, &mut dice, Mode::Normalize);
            let same = replayed.as_ref().is_ok_and(|r| {
                r.text == logged.text
                    && [r.secret, r.success, r.failure, r.critical, r.fumble]
                        == [
                            logged.secret,
                            logged.success,
                            logged.failure,
                            logged.critical,
                            logged.fumble,
                        ]
                    && r.rands
                        .iter()
                        .map(|d| [d.sides, d.value])
                        .eq(logged.rands.iter().copied())
            });
            if !same {
                out.push(Mismatch {
                    seq: e.seq,
                    logged: logged.text.clone(),
                    replayed: match replayed {
                        Ok(r) => r.text,
                        Err(err) => format!("error: {err}"),
                    },
                });
            }
        }
        out
    }
}

/// Names are one word of at most 64 characters, without control characters.
fn check_name(what: &str, name: &str) -> Result<(), Refusal> {
    let ok = !name.is_empty()
        && name.chars().count() <= 64
        && !name.chars().any(|c| c.is_whitespace() || c.is_control())
        && !name.starts_with('/');
    if ok {
        Ok(())
    } else {
        refuse(format!(
            "'{name}' is not a valid {what}: use one word of at most 64 characters"
        ))
    }
}
