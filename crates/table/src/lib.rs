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

mod check;
pub mod command;
pub mod event;
pub mod secret;
mod state;
pub mod store;
mod verify;

pub use command::TableCommand;
pub use event::{Event, EventBody, Role, Roll};
pub use state::Character;

use state::State;
use std::collections::{BTreeMap, BTreeSet};
use taku_dice::{ChaChaSource, EvalError, Mode, Roller};
use taku_systems::table_rules::{Audience, SystemState, TableView};
use taku_systems::{DynRules, GameSystem};

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
    state: State,
    undone: BTreeSet<u64>,
}

impl std::fmt::Debug for Table {
    // The seed stays out of debug output too.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("system", &self.system.id())
            .field("name", &self.name)
            .field("events", &self.events.len())
            .field("members", &self.state.members)
            .finish_non_exhaustive()
    }
}

impl Table {
    /// A new table whose creator `gm` is its GM.
    pub fn create(system: &str, name: &str, gm: &str, seed: [u8; 32]) -> Result<Table, Refusal> {
        let Some(system) = taku_systems::find(system) else {
            return refuse(format!(
                "unknown game system '{system}'; see `taku systems`"
            ));
        };
        Table::create_in(system, name, gm, seed)
    }

    /// A new table of `system`, which need not be in the registry (tests use their own).
    pub fn create_in(
        system: &'static dyn GameSystem,
        name: &str,
        gm: &str,
        seed: [u8; 32],
    ) -> Result<Table, Refusal> {
        check_name("GM name", gm)?;
        let created = Event {
            seq: 1,
            actor: gm.to_string(),
            body: EventBody::Created {
                system: system.id().to_string(),
                name: name.to_string(),
                seed: secret::hex(&seed),
            },
        };
        Table::from_events_in(system, vec![created]).map_err(|e| Refusal(e.to_string()))
    }

    /// Folds a log into a table.
    pub fn from_events(events: Vec<Event>) -> Result<Table, LoadError> {
        let system = match events.first() {
            Some(Event {
                body: EventBody::Created { system, .. },
                ..
            }) => taku_systems::find(system)
                .ok_or_else(|| LoadError::Invalid(format!("unknown game system '{system}'")))?,
            _ => return Err(LoadError::NoCreation),
        };
        Table::from_events_in(system, events)
    }

    /// Folds a log into a table of `system` (which need not be in the registry: tests use
    /// their own systems).
    pub fn from_events_in(
        system: &'static dyn GameSystem,
        events: Vec<Event>,
    ) -> Result<Table, LoadError> {
        let Some(Event {
            seq: 1,
            actor,
            body: EventBody::Created { name, seed, .. },
        }) = events.first()
        else {
            return Err(LoadError::NoCreation);
        };
        let seed = secret::parse_seed(seed)
            .ok_or_else(|| LoadError::Invalid("the table's seed is not 64 hex digits".into()))?;
        let mut table = Table {
            events: Vec::with_capacity(events.len()),
            system,
            name: name.clone(),
            gm: actor.clone(),
            seed,
            state: State::new(actor, system),
            // Everything the log undoes, known before folding, so the log folds once.
            undone: undone_in(&events),
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

    /// The table's creator, its first GM.
    pub fn gm(&self) -> &str {
        &self.gm
    }

    /// What the game system adds to character `name`'s sheet (contracts, keys, …) as
    /// `viewer` may see it; `None` for nothing.
    pub fn character_summary(&self, name: &str, viewer: &str) -> Option<String> {
        let (rules, state) = (self.rules()?, self.state.system.as_deref()?);
        let is_gm = self.state.members.get(viewer) == Some(&Role::Gm);
        rules.character_summary(&self.view_as(viewer), state, name, is_gm)
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
        &self.state.members
    }

    /// Characters by name.
    pub fn characters(&self) -> &BTreeMap<String, Character> {
        &self.state.characters
    }

    /// Current scene and session numbers, from 1.
    pub fn scene_and_session(&self) -> (u64, u64) {
        (self.state.scene, self.state.session)
    }

    /// The game system's own state, when it has table rules. GM-only as a whole: show
    /// members only what [`Table::view`] gives them.
    pub fn system_state(&self) -> Option<&dyn SystemState> {
        self.state.system.as_deref()
    }

    fn rules(&self) -> Option<&'static dyn DynRules> {
        self.system.table_rules()
    }

    /// Seq the next event will get.
    pub fn next_seq(&self) -> u64 {
        self.events.len() as u64 + 1
    }

    /// What `actor`'s line would do, without changing anything.
    pub fn decide(&self, actor: &str, line: &str) -> Result<Decision, Refusal> {
        let Some(&role) = self.state.members.get(actor) else {
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
        self.decide_line(actor, role, line)
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

    fn decide_line(&self, actor: &str, role: Role, line: &str) -> Result<Decision, Refusal> {
        let seq = self.next_seq();
        let roll = |command: &str| {
            let mut dice = ChaChaSource::from_key(secret::dice_key(&self.seed, seq));
            taku_systems::evaluate(self.system, command, &mut dice, Mode::Normalize)
        };
        let chat = || {
            Ok(Decision {
                events: vec![EventBody::Chat {
                    text: line.to_string(),
                }],
                reply: None,
            })
        };
        let mut command = match check::resolve(line, actor, &self.state.characters) {
            Ok(command) => command,
            // A command whose reference does not resolve is refused; chat with braces in
            // it is chat.
            Err(why) if roll(&check::placeholder(line)).is_ok() => return refuse(why),
            Err(_) => return chat(),
        };
        let mut result = match roll(&command) {
            Ok(r) => r,
            Err(EvalError::Unsupported(_)) => return chat(),
            Err(e) => return refuse(format!("{line}: {e}")),
        };
        if role == Role::Spectator {
            return refuse("spectators cannot roll; the GM can make you a player with /join");
        }
        let mut effects = Vec::new();
        let mut note = None;
        if let (Some(rules), Some(state)) = (self.rules(), self.state.system.as_deref()) {
            let prepared = rules
                .prepare_check(&self.view_as(actor), state, &command)
                .map_err(Refusal)?;
            if prepared.command != command {
                result = roll(&prepared.command)
                    .map_err(|e| Refusal(format!("{}: {e}", prepared.command)))?;
                command = prepared.command;
            }
            effects = prepared.events;
            note = prepared.note;
            let ctx = self.view_as(actor);
            effects.extend(rules.after_roll(&ctx, state, &command, &result));
        }
        let mut roll = Roll {
            typed: (command != line).then(|| line.to_string()),
            input: command,
            text: result.text,
            secret: result.secret,
            success: result.success,
            failure: result.failure,
            critical: result.critical,
            fumble: result.fumble,
            rands: result.rands.iter().map(|d| [d.sides, d.value]).collect(),
            commitment: None,
            note,
        };
        if roll.secret {
            roll.commitment = Some(secret::commitment(&secret::salt(&self.seed, seq), &roll));
        }
        let mut events = vec![EventBody::Roll(roll)];
        events.extend(system_events(effects, seq));
        Ok(Decision {
            events,
            reply: None,
        })
    }

    /// What a system's rules see of this table while deciding `actor`'s line.
    fn view_as<'a>(&'a self, actor: &'a str) -> Ctx<'a> {
        Ctx { table: self, actor }
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
            TableCommand::Help => {
                let help = format!(
                    "{}\n\n{}",
                    command::HELP,
                    taku_systems::full_help(self.system)
                );
                Ok(Decision {
                    events: vec![],
                    reply: Some(help),
                })
            }
            TableCommand::System(words) => {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                // The system's dice for this line: keyed like a roll's, by the seq its
                // first event will take, and stored with that event.
                let key = secret::dice_key(&self.seed, self.next_seq());
                let mut source = ChaChaSource::from_key(key);
                let mut dice = Roller::new(&mut source);
                let decided = match (self.rules(), self.state.system.as_deref()) {
                    (Some(rules), Some(state)) => {
                        rules.decide(&self.view_as(actor), state, &words, &mut dice)
                    }
                    _ => None,
                };
                match decided {
                    Some(Ok(outcome)) => {
                        let mut events = system_events(outcome.events, None);
                        let drawn: Vec<[u32; 2]> =
                            dice.draws().iter().map(|d| [d.sides, d.value]).collect();
                        match events.first_mut() {
                            Some(EventBody::System { rands, .. }) => *rands = drawn,
                            _ if !drawn.is_empty() => {
                                return refuse(
                                    "the game system drew dice but recorded no event (a bug in its rules)",
                                );
                            }
                            _ => {}
                        }
                        Ok(Decision {
                            events,
                            reply: outcome.reply,
                        })
                    }
                    Some(Err(why)) => refuse(why),
                    None => refuse(format!(
                        "unknown table command '/{}'; /help lists them",
                        words.first().copied().unwrap_or_default()
                    )),
                }
            }
            TableCommand::Join { name, role: new } => {
                if role != Role::Gm {
                    return gm_only("add members");
                }
                check_name("member name", &name)?;
                if let Some(existing) = self.state.members.get(&name) {
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
                if self.state.characters.contains_key(&name) {
                    return refuse(format!("a character named '{name}' already exists"));
                }
                event(EventBody::CharacterCreated { name })
            }
            TableCommand::CharSet { name, key, value } => {
                let Some(ch) = self.state.characters.get(&name) else {
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
                let Some(ch) = self.state.characters.get(&name) else {
                    return refuse(format!("no character named '{name}'"));
                };
                let mut reply = format!("{name} (owner {})", ch.owner);
                for (k, v) in &ch.fields {
                    reply.push_str(&format!("\n  {k}: {v}"));
                }
                if let Some(more) = self.character_summary(&name, actor) {
                    reply.push('\n');
                    reply.push_str(&more);
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
                let resets = self.resets(|r, s| r.on_scene_end(s));
                Ok(Decision {
                    events: [EventBody::SceneAdvanced]
                        .into_iter()
                        .chain(resets)
                        .collect(),
                    reply: None,
                })
            }
            TableCommand::SessionEnd => {
                if role != Role::Gm {
                    return gm_only("end the session");
                }
                let resets = self.resets(|r, s| r.on_session_end(s));
                Ok(Decision {
                    events: [EventBody::SessionEnded]
                        .into_iter()
                        .chain(resets)
                        .collect(),
                    reply: None,
                })
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
                if self.state.revealed.contains(&seq) {
                    return refuse(format!("#{seq} is already revealed"));
                }
                event(EventBody::Revealed { roll: seq })
            }
        }
    }

    /// The system's events for a scene or session end, following the event at the next seq.
    fn resets(
        &self,
        hook: impl Fn(&dyn DynRules, &dyn SystemState) -> Vec<serde_json::Value>,
    ) -> Vec<EventBody> {
        match (self.rules(), self.state.system.as_deref()) {
            (Some(rules), Some(state)) => system_events(hook(rules, state), self.next_seq()),
            _ => Vec::new(),
        }
    }

    /// Whether `member` owns character `name`.
    fn owns(&self, member: &str, name: &str) -> bool {
        self.state
            .characters
            .get(name)
            .is_some_and(|c| c.owner == member)
    }

    fn event(&self, seq: u64) -> Option<&Event> {
        usize::try_from(seq.checked_sub(1)?)
            .ok()
            .and_then(|i| self.events.get(i))
    }

    /// Folds one event into the state and appends it to the log.
    fn fold(&mut self, event: Event) {
        if let EventBody::Undone { event: target } = event.body {
            let group: Vec<u64> = state::undo_group(&self.events, target).collect();
            self.undone.extend(group);
            self.events.push(event);
            self.refold();
        } else {
            if !self.undone.contains(&event.seq) {
                self.state.fold(self.rules(), &event);
            }
            self.events.push(event);
        }
    }

    /// Folds the state again from the log, without the undone events.
    fn refold(&mut self) {
        let rules = self.rules();
        let mut state = State::new(&self.gm, self.system);
        for e in self.events.iter().filter(|e| !self.undone.contains(&e.seq)) {
            state.fold(rules, e);
        }
        self.state = state;
    }

    /// What `viewer` may see of `event`, as one line of text; `None` for nothing.
    pub fn view(&self, event: &Event, viewer: &str) -> Option<String> {
        let sees_all = viewer == self.gm || self.state.members.get(viewer) == Some(&Role::Gm);
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
                    format!("#{n} {actor}: {}", roll.shown())
                } else if sees_all || viewer == actor || self.state.revealed.contains(&n) {
                    format!("#{n} {actor} (secret): {}", roll.shown())
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
            EventBody::System { data, follows, .. } => {
                let rules = self.rules()?;
                // What follows a secret roll (an AF check's achievement, say) tells its
                // result: it is as secret as the roll until the roll is revealed.
                let after_secret = follows.and_then(|f| match self.event(f) {
                    Some(Event {
                        actor: roller,
                        body: EventBody::Roll(r),
                        ..
                    }) if r.secret && !self.state.revealed.contains(&f) => Some(roller),
                    _ => None,
                });
                if after_secret.is_some_and(|roller| roller != viewer) && !sees_all {
                    return None;
                }
                let may_see = sees_all
                    || match rules.audience(data) {
                        Audience::All => true,
                        Audience::Gm => false,
                        Audience::GmAndOwnerOf(name) => self.owns(viewer, &name),
                        Audience::GmAndOwnersOf(names) => {
                            names.iter().any(|name| self.owns(viewer, name))
                        }
                    };
                if !may_see {
                    return None;
                }
                format!("#{n} {actor}: {}", rules.describe(data))
            }
        })
    }
}

/// A system's events as log entries, following the event at `follows` if any.
fn system_events(
    events: Vec<serde_json::Value>,
    follows: impl Into<Option<u64>>,
) -> Vec<EventBody> {
    let follows = follows.into();
    events
        .into_iter()
        .map(|data| EventBody::System {
            data,
            follows,
            rands: Vec::new(),
        })
        .collect()
}

/// What a system's rules see of a table while deciding one member's line.
struct Ctx<'a> {
    table: &'a Table,
    actor: &'a str,
}

impl TableView for Ctx<'_> {
    fn actor(&self) -> &str {
        self.actor
    }
    fn actor_is_gm(&self) -> bool {
        self.table.state.members.get(self.actor) == Some(&Role::Gm)
    }
    fn character(&self, name: &str) -> Option<(&str, &BTreeMap<String, String>)> {
        let c = self.table.state.characters.get(name)?;
        Some((c.owner.as_str(), &c.fields))
    }
    fn characters(&self) -> Vec<(&str, &str)> {
        self.table
            .state
            .characters
            .iter()
            .map(|(n, c)| (n.as_str(), c.owner.as_str()))
            .collect()
    }
    fn member_is_gm(&self, member: &str) -> bool {
        self.table.state.members.get(member) == Some(&Role::Gm)
    }
    fn scene_and_session(&self) -> (u64, u64) {
        self.table.scene_and_session()
    }
}

/// Every seq a log undoes: the targets of its `Undone` events and what follows from them.
fn undone_in(events: &[Event]) -> BTreeSet<u64> {
    let targets: BTreeSet<u64> = events
        .iter()
        .filter_map(|e| match e.body {
            EventBody::Undone { event } => Some(event),
            _ => None,
        })
        .collect();
    let following = events.iter().filter_map(|e| match e.body {
        EventBody::System {
            follows: Some(cause),
            ..
        } if targets.contains(&cause) => Some(e.seq),
        _ => None,
    });
    following.chain(targets.iter().copied()).collect()
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
