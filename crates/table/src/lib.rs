//! taku's tables: one running game as an append-only log of [`Event`]s and the [`Table`]
//! state folded from it.
//!
//! A member sends a line; [`Table::decide`] parses it (table commands start with `/`,
//! everything else goes to the table's game system, and what no command understands is
//! chat), checks the member may do it, and returns the events it would append, without
//! changing anything. [`Table::apply`] appends them. [`Table::entry`] says what one member
//! may see of an event, as a structured [`Entry`]: a secret roll is shown to others only as
//! its SHA-256 commitment until revealed, an event a member may not see is a placeholder
//! that names neither its content nor its target, and the table's seed is never shown.
//!
//! The key design decisions: state is never updated in place, only folded from events, so
//! a table reloaded from its log is the same table, and `/undo` and `/void` are
//! compensating events. Every line that may draw dice draws them from a key made of the
//! table's seed and a fresh nonce for that attempt alone, recorded in the event, so every
//! roll replays from the seed and its own event ([`Table::verify`]) and a refused attempt
//! tells nothing about any later roll (see [`secret`]). Every text a member reads is a
//! [`Text`] in Japanese and English, rendered in the table's language ([`Table::lang`]).
//! Storage (SQLite, PostgreSQL) is a separate layer that persists the events.

mod check;
pub mod command;
pub mod event;
mod names;
pub mod secret;
mod state;
mod status;
pub mod store;
mod verify;
mod view;

pub use command::{TableCommand, UndoTarget};
pub use event::{CHAT_TAB, Event, EventBody, FieldChange, MAIN_TAB, Role, Roll};
pub use secret::Entropy;
pub use state::Character;
pub use view::{Entry, RollEntry};

use state::State;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use taku_dice::{ChaChaSource, EvalError, Lang, Mode, Roller, Span, Text};
use taku_systems::table_rules::{CommandHelp, SystemState, TableView};
use taku_systems::view::{Field, Section, Sheet, Value};
use taku_systems::{DynRules, GameSystem};

/// A line the table refused; nothing was changed. The message says what was wrong and
/// what would be right, in every language; a refused command that failed to parse points
/// at the place with a caret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.render(Lang::Ja))]
pub struct Refusal {
    /// What was wrong and what would be right.
    pub text: Text,
    /// The command as evaluated and the byte range that failed to parse.
    pub caret: Option<(String, Span)>,
}

impl Refusal {
    /// The refusal in `lang`, with the command and a caret under the failing place when it
    /// has one.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = self.text.get(lang).to_string();
        if let Some((line, span)) = &self.caret {
            let start = span.start.min(line.len());
            let width = |s: &str| {
                s.chars()
                    .map(|c| if c.is_ascii() { 1 } else { 2 })
                    .sum::<usize>()
            };
            let pad = line.get(..start).map(width).unwrap_or(0);
            let marked = line
                .get(start..span.end.min(line.len()))
                .map(width)
                .unwrap_or(0)
                .max(1);
            out.push_str(&format!(
                "\n  {line}\n  {}{}",
                " ".repeat(pad),
                "^".repeat(marked)
            ));
        }
        out
    }
}

impl From<Text> for Refusal {
    fn from(text: Text) -> Refusal {
        Refusal { text, caret: None }
    }
}

fn refuse<T>(ja: impl Into<String>, en: impl Into<String>) -> Result<T, Refusal> {
    Err(Text::new(ja, en).into())
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
    /// The table's game system is not one this taku carries: one of BCDice's other
    /// systems with the reference engine not set up, or a system of a newer taku.
    #[error("{}", unknown_system(.0))]
    UnknownSystem(String),
}

/// Why a table's system is unknown here, and what would make it known (English).
fn unknown_system(system: &str) -> String {
    unknown_system_text(system).en().to_string()
}

/// Why a table's system is unknown here, and what would make it known, in Japanese and
/// English: what [`LoadError::UnknownSystem`] says.
pub fn unknown_system_text(system: &str) -> Text {
    if taku_systems::reference::engine().is_none() {
        let how = taku_systems::reference::how_to_enable();
        Text::new(
            format!(
                "このテーブルのゲームシステム「{system}」はこの taku にはありません。BCDice のシステムなら、参照エンジンが用意されていません: {}",
                how.ja()
            ),
            format!(
                "the table's game system '{system}' is not one this taku carries; if it is one of BCDice's systems, the reference engine is not set up: {}",
                how.en()
            ),
        )
    } else {
        Text::new(
            format!(
                "このテーブルのゲームシステム「{system}」はこの taku にはありません（`taku systems` で使えるシステムを一覧できます）"
            ),
            format!(
                "the table's game system '{system}' is not one this taku carries; `taku systems` lists the systems this taku carries"
            ),
        )
    }
}

impl LoadError {
    /// What went wrong, in Japanese and English where the error says so in both
    /// ([`LoadError::UnknownSystem`]); in English otherwise.
    pub fn text(&self) -> Text {
        match self {
            LoadError::UnknownSystem(system) => unknown_system_text(system),
            e => Text::verbatim(e.to_string()),
        }
    }
}

/// What a line produced: the events to append and a reply only the sender sees
/// (`/help`, `/char show`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decision {
    /// Events, in order.
    pub events: Vec<EventBody>,
    /// Private reply to the sender.
    pub reply: Option<Text>,
}

impl Decision {
    fn event(body: EventBody) -> Decision {
        Decision {
            events: vec![body],
            reply: None,
        }
    }

    fn reply(text: Text) -> Decision {
        Decision {
            events: Vec::new(),
            reply: Some(text),
        }
    }
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
    /// The replay could not be made (the reference engine timed out, was busy or is not
    /// set up): the log is not known to be wrong, only not checked.
    pub unchecked: bool,
    /// `replayed` in Japanese, where the check that found it words it in both languages
    /// (a system's own replay, a refusal); `replayed` is English.
    pub replayed_ja: Option<String>,
}

/// A field key as stored: `HP上限` is `HP.max`, the maximum of the resource `HP`.
pub fn field_key(key: &str) -> String {
    match key.strip_suffix("上限") {
        Some(base) if !base.is_empty() => format!("{base}.max"),
        _ => key.to_string(),
    }
}

/// How a line's dice are evaluated: in place, or ahead of the table's lock.
enum Ahead<'a> {
    /// In place.
    None,
    /// Only planned: the dice line's command and dice are kept, nothing is decided.
    Plan(&'a std::cell::RefCell<Option<PlannedRoll>>),
    /// Evaluated already.
    Rolled(&'a RolledAhead),
}

/// A dice line planned to be evaluated away from the table's lock ([`Table::plan_roll`]).
/// Its dice are one attempt's, fresh, and are used by one decision at most.
pub struct PlannedRoll {
    seq: u64,
    command: String,
    key: [u8; 32],
    nonce: Option<String>,
    system: &'static dyn GameSystem,
}

impl std::fmt::Debug for PlannedRoll {
    // The dice key stays out of debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlannedRoll")
            .field("seq", &self.seq)
            .field("command", &self.command)
            .finish_non_exhaustive()
    }
}

impl PlannedRoll {
    /// Evaluates the command (in a reference-engine worker; it may take up to the
    /// engine's time limit).
    pub fn roll(self) -> RolledAhead {
        let mut dice = ChaChaSource::from_key(self.key);
        let result = taku_systems::evaluate(self.system, &self.command, &mut dice, Mode::Normalize);
        RolledAhead {
            planned: self,
            result,
        }
    }
}

/// A planned roll evaluated, for [`Table::decide_rolled`].
#[derive(Debug)]
pub struct RolledAhead {
    planned: PlannedRoll,
    result: Result<taku_dice::RollResult, EvalError>,
}

impl RolledAhead {
    /// The roll is a secret one (others will see its placeholder only).
    pub fn secret(&self) -> bool {
        matches!(&self.result, Ok(r) if r.secret)
    }
}

/// One table: its log and the state folded from it.
///
/// The state and the sets of undone and voided entries are shared (`Arc`, copied only
/// when changed while shared), so [`Table::excerpt`] is cheap: a server views a page of
/// the log from an excerpt taken under the table's lock and renders it after letting go.
#[derive(Clone)]
pub struct Table {
    events: Vec<Event>,
    /// Events before `events[0]`: 0 for a whole table, the window's start for an
    /// [`Table::excerpt`].
    offset: usize,
    /// In an excerpt, the events outside its window that its own refer to (an undo's
    /// target, a reveal's roll, what a system event follows), so viewing it decides
    /// exactly as the whole table would.
    outside: BTreeMap<u64, Event>,
    system: &'static dyn GameSystem,
    name: String,
    gm: String,
    seed: [u8; 32],
    state: Arc<State>,
    undone: Arc<BTreeSet<u64>>,
    voided: Arc<BTreeSet<u64>>,
    entropy: Entropy,
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
            return refuse(
                format!(
                    "'{system}' というゲームシステムはありません。`taku systems` で一覧を見られます"
                ),
                format!("unknown game system '{system}'; see `taku systems`"),
            );
        };
        Table::create_in(system, name, gm, seed)
    }

    /// A new table whose creator `gm` is its GM, speaking `lang` from its start: a table
    /// in another language than Japanese (the default) begins with the GM's `/lang` line,
    /// so its log says when and by whom the language was chosen, as if typed.
    pub fn create_speaking(
        system: &str,
        name: &str,
        gm: &str,
        seed: [u8; 32],
        lang: Lang,
    ) -> Result<Table, Refusal> {
        let mut table = Table::create(system, name, gm, seed)?;
        if lang != table.lang() {
            table.exec(gm, &format!("/lang {}", lang.code()))?;
        }
        Ok(table)
    }

    /// A new table of `system`, which need not be in the registry (tests use their own).
    pub fn create_in(
        system: &'static dyn GameSystem,
        name: &str,
        gm: &str,
        seed: [u8; 32],
    ) -> Result<Table, Refusal> {
        check_name(Text::new("GM の名前", "GM name"), gm)?;
        check_member_punctuation(gm)?;
        let created = Event {
            seq: 1,
            actor: gm.to_string(),
            body: EventBody::Created {
                system: system.id().to_string(),
                name: name.to_string(),
                seed: secret::hex(&seed),
            },
        };
        Table::from_events_in(system, vec![created])
            .map_err(|e| Text::verbatim(e.to_string()).into())
    }

    /// Folds a log into a table.
    pub fn from_events(events: Vec<Event>) -> Result<Table, LoadError> {
        let system = match events.first() {
            Some(Event {
                body: EventBody::Created { system, .. },
                ..
            }) => taku_systems::find(system)
                .ok_or_else(|| LoadError::UnknownSystem(system.clone()))?,
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
        let (undone, voided) = undone_in(&events);
        let mut table = Table {
            events: Vec::with_capacity(events.len()),
            offset: 0,
            outside: BTreeMap::new(),
            system,
            name: name.clone(),
            gm: actor.clone(),
            seed,
            state: Arc::new(State::new(actor, system)),
            // Everything the log undoes, known before folding, so the log folds once.
            undone: Arc::new(undone),
            voided: Arc::new(voided),
            entropy: Entropy::Os,
        };
        let mut iter = events.into_iter();
        table.events.push(iter.next().expect("checked above"));
        table.extend(iter)?;
        Ok(table)
    }

    /// This table, drawing each attempt's nonce from `entropy` (tests use
    /// [`Entropy::seeded`]; play uses the operating system's randomness, the default).
    pub fn with_entropy(mut self, entropy: Entropy) -> Table {
        self.entropy = entropy;
        self
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

    /// The table's language (`/lang`; Japanese unless the GM chose another).
    pub fn lang(&self) -> Lang {
        self.state.lang
    }

    /// The log (for an [`Table::excerpt`], its window only).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// A copy of this table for viewing the events in `range` (positions in
    /// [`Table::events`], clamped to the log): its [`Table::events`] are that window only,
    /// plus, out of sight, the events they refer to, and it shares this table's state as
    /// it is now. [`Table::entry`], [`Table::sheet`] and every other view answer on it
    /// exactly as on the whole table, so a page can be viewed and rendered without
    /// holding the table. It costs the window and those references, never the whole log.
    /// An excerpt is for viewing only: lines decided on it would see a log with a hole.
    pub fn excerpt(&self, range: std::ops::Range<usize>) -> Table {
        let end = range.end.min(self.events.len());
        let start = range.start.min(end);
        let events = self.events[start..end].to_vec();
        let in_window = |seq: u64| {
            usize::try_from(seq).is_ok_and(|s| s > self.offset + start && s <= self.offset + end)
        };
        let mut outside = BTreeMap::new();
        let mut todo: Vec<u64> = events.iter().filter_map(|e| e.body.refers_to()).collect();
        while let Some(seq) = todo.pop() {
            if in_window(seq) || outside.contains_key(&seq) {
                continue;
            }
            if let Some(e) = self.event(seq) {
                todo.extend(e.body.refers_to());
                outside.insert(seq, e.clone());
            }
        }
        Table {
            events,
            offset: self.offset + start,
            outside,
            system: self.system,
            name: self.name.clone(),
            gm: self.gm.clone(),
            seed: self.seed,
            state: self.state.clone(),
            undone: self.undone.clone(),
            voided: self.voided.clone(),
            entropy: self.entropy.clone(),
        }
    }

    /// The table's game system.
    pub fn system(&self) -> &'static dyn GameSystem {
        self.system
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The table's chat tabs, main first: [`MAIN_TAB`], [`CHAT_TAB`], then those the GM
    /// added (`/tab new`), in order.
    pub fn tabs(&self) -> Vec<&str> {
        [MAIN_TAB, CHAT_TAB]
            .into_iter()
            .chain(self.state.tabs.iter().map(String::as_str))
            .collect()
    }

    /// The tab a typed name means: `main`/`メイン` is [`MAIN_TAB`], `雑談`/`chat` is
    /// [`CHAT_TAB`], others as the GM named them.
    fn tab_id(&self, typed: &str) -> Option<String> {
        match typed {
            "main" | "メイン" | "Main" => Some(MAIN_TAB.to_string()),
            "雑談" | "chat" | "Chat" => Some(CHAT_TAB.to_string()),
            t => self.state.tabs.iter().find(|x| *x == t).cloned(),
        }
    }

    /// The tabs as a refusal lists them in `lang` (A7-11: the two tabs every table has
    /// are `main` and `chat` in English, as [`Table::tab_id`] reads them).
    fn tab_names(&self, lang: Lang) -> Vec<String> {
        let fixed = match lang {
            Lang::Ja => ["メイン", CHAT_TAB],
            Lang::En => ["main", "chat"],
        };
        fixed
            .into_iter()
            .map(str::to_string)
            .chain(self.state.tabs.iter().cloned())
            .collect()
    }

    /// Members and their roles (a member the GM removed is no longer one).
    pub fn members(&self) -> &BTreeMap<String, Role> {
        &self.state.members
    }

    /// Members the GM removed (`/remove`) and did not add back: their names stay
    /// reserved for them.
    pub fn removed_members(&self) -> &BTreeSet<String> {
        &self.state.removed
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
    /// members only what [`Table::entry`] and [`Table::sheet`] give them.
    pub fn system_state(&self) -> Option<&dyn SystemState> {
        self.state.system.as_deref()
    }

    /// Whether `seq` was undone or voided.
    pub fn is_reverted(&self, seq: u64) -> bool {
        self.undone.contains(&seq)
    }

    /// `line` with its `{KEY}` and `{CHARACTER.KEY}` references replaced as a roll by
    /// `actor` would have them (what a chat palette shows before sending); `Err` says
    /// which reference does not resolve.
    pub fn resolve_references(&self, line: &str, actor: &str) -> Result<String, Text> {
        let known = self.known_characters(actor);
        self.reads_hidden(line, actor, &known)?;
        check::resolve(line, actor, &known)
    }

    /// Whether secret roll `seq` has been revealed (`/reveal`).
    pub fn is_revealed(&self, seq: u64) -> bool {
        self.state.revealed.contains(&seq)
    }

    /// Whether `seq` was voided by the GM.
    pub fn is_voided(&self, seq: u64) -> bool {
        self.voided.contains(&seq)
    }

    fn rules(&self) -> Option<&'static dyn DynRules> {
        self.system.table_rules()
    }

    fn is_gm(&self, member: &str) -> bool {
        self.state.members.get(member) == Some(&Role::Gm)
    }

    /// Seq the next event will get.
    pub fn next_seq(&self) -> u64 {
        (self.offset + self.events.len()) as u64 + 1
    }

    /// Character `name`'s sheet as `viewer` may see it: its fields (a field `K` with a
    /// `K.max` is a resource, current/max), then what the game system adds; `None` when
    /// there is no such character.
    pub fn sheet(&self, name: &str, viewer: &str) -> Option<Sheet> {
        let ch = self.state.characters.get(name)?;
        // A character whose data the rules keep from the viewer (an enemy not yet
        // identified): its name and owner, and why nothing more.
        if let Some(why) = self.hidden(name, viewer) {
            return Some(Sheet {
                sections: vec![Section {
                    title: Text::new(
                        format!("{name}（{}）", ch.owner),
                        format!("{name} ({})", ch.owner),
                    ),
                    fields: vec![Field {
                        key: None,
                        label: Text::new("データ", "data"),
                        value: Value::Text(why),
                        derived: true,
                    }],
                }],
            });
        }
        let mut fields = Vec::new();
        // A chat palette is its owner's own notes: the owner's and the GMs' (A3-3).
        let theirs = viewer == self.gm || self.is_gm(viewer) || self.owns(viewer, name);
        // A field the system's sections show in the value its rules use is shown there
        // only (TableRules::shown_by_rules).
        let view = self.view_as(viewer);
        let by_rules = |key: &str| match (self.rules(), self.state.system.as_deref()) {
            (Some(rules), Some(state)) => rules.shown_by_rules(&view, state, name, key),
            _ => false,
        };
        for (key, value) in &ch.fields {
            if !theirs && key.starts_with(PALETTE_FIELD) {
                continue;
            }
            if by_rules(key) {
                continue;
            }
            if let Some(base) = key.strip_suffix(".max")
                && ch.fields.contains_key(base)
            {
                continue;
            }
            let max = ch.fields.get(&format!("{key}.max"));
            let field = match (value.trim().parse::<i64>(), max.map(|m| m.trim().parse())) {
                (Ok(current), Some(Ok(max))) => Field {
                    key: Some(key.clone()),
                    label: Text::verbatim(key),
                    value: Value::Resource { current, max },
                    derived: false,
                },
                _ => Field::set(key, value),
            };
            fields.push(field);
        }
        let mut sections = vec![Section {
            title: Text::new(
                format!("{name}（{}）", ch.owner),
                format!("{name} ({})", ch.owner),
            ),
            fields,
        }];
        if let (Some(rules), Some(state)) = (self.rules(), self.state.system.as_deref()) {
            sections.extend(rules.character_sheet(
                &self.view_as(viewer),
                state,
                name,
                self.is_gm(viewer),
            ));
        }
        Some(Sheet { sections })
    }

    /// Why character `name`'s data is hidden from `viewer`, if it is
    /// ([`taku_systems::table_rules::TableRules::hidden_character`]): never from a GM or
    /// the character's owner.
    pub fn hidden(&self, name: &str, viewer: &str) -> Option<Text> {
        if viewer == self.gm || self.is_gm(viewer) || self.owns(viewer, name) {
            return None;
        }
        let (rules, state) = (self.rules()?, self.state.system.as_deref()?);
        if !self.state.characters.contains_key(name) {
            return None;
        }
        let whole = Ctx {
            table: self,
            actor: viewer,
            line: None,
            blind: false,
        };
        rules.hidden_character(&whole, state, name)
    }

    /// Whether `viewer` may not know that character `name` exists: its data is hidden
    /// from them ([`Table::hidden`]) and the rules never put its name before them
    /// ([`taku_systems::table_rules::TableRules::hidden_name_shown`]: Another World's
    /// enemy in a combat is named to everyone, 「未識別」). For them such a character is a
    /// name never used, on every path: a command naming it answers as for no character
    /// (issue 13: the GM's hidden 黒幕 must not be learnt by trying its name).
    pub fn unknown(&self, name: &str, viewer: &str) -> bool {
        self.hidden(name, viewer).is_some()
            && !matches!(
                (self.rules(), self.state.system.as_deref()),
                (Some(rules), Some(state)) if rules.hidden_name_shown(state, name)
            )
    }

    /// The characters `actor` may know of ([`Table::unknown`]): what their lines'
    /// references and commands find by name.
    fn known_characters(&self, actor: &str) -> std::borrow::Cow<'_, BTreeMap<String, Character>> {
        let all = &self.state.characters;
        if !all.keys().any(|name| self.unknown(name, actor)) {
            return std::borrow::Cow::Borrowed(all);
        }
        std::borrow::Cow::Owned(
            all.iter()
                .filter(|(name, _)| !self.unknown(name, actor))
                .map(|(name, c)| (name.clone(), c.clone()))
                .collect(),
        )
    }

    /// Whether character `name`'s data is hidden from any member ([`Table::hidden`]).
    fn hidden_from_someone(&self, name: &str) -> bool {
        self.state
            .members
            .keys()
            .any(|member| self.hidden(name, member).is_some())
    }

    /// Character `name`'s fields as `viewer` may see them: `None` when there is no such
    /// character or its data is hidden from them ([`Table::hidden`]). What an API shows
    /// as a character's raw fields.
    pub fn visible_fields(&self, name: &str, viewer: &str) -> Option<&BTreeMap<String, String>> {
        let ch = self.state.characters.get(name)?;
        self.hidden(name, viewer).is_none().then_some(&ch.fields)
    }

    /// A refusal when `line` reads a field of a character hidden from `actor` through a
    /// `{NAME.KEY}` reference: the value would show in the roll.
    fn reads_hidden(
        &self,
        line: &str,
        actor: &str,
        known: &BTreeMap<String, Character>,
    ) -> Result<(), Text> {
        // Another's chat palette is theirs alone (A3-3): `{NAME.palette.N}` would print it.
        for (name, key) in check::named_keys(line, known) {
            if key.starts_with(PALETTE_FIELD)
                && !(actor == self.gm || self.is_gm(actor) || self.owns(actor, name))
            {
                return Err(Text::new(
                    format!(
                        "{{{name}.{key}}}: チャットパレットは持ち主と GM だけのものなので参照できません"
                    ),
                    format!(
                        "{{{name}.{key}}}: a chat palette is for its owner and the GM only, so it cannot be read"
                    ),
                ));
            }
        }
        for name in check::named(line, known) {
            if let Some(why) = self.hidden(name, actor) {
                return Err(Text::new(
                    format!(
                        "{{{name}.…}}: {name}のデータは公開されていないので参照できません（{}）",
                        why.ja()
                    ),
                    format!(
                        "{{{name}.…}}: {name}'s data is not public, so it cannot be read ({})",
                        why.en()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The game system's state of the whole table as `viewer` may see it
    /// ([`taku_systems::table_rules::TableRules::table_sheet`]: a combat's order, a check
    /// in progress); `None` when the system shows nothing now.
    pub fn table_sheet(&self, viewer: &str) -> Option<Sheet> {
        let (rules, state) = (self.rules()?, self.state.system.as_deref()?);
        let sections = rules.table_sheet(&self.view_as(viewer), state, self.is_gm(viewer));
        (!sections.is_empty()).then_some(Sheet { sections })
    }

    /// What `actor`'s line would do, without changing anything.
    pub fn decide(&self, actor: &str, line: &str) -> Result<Decision, Refusal> {
        self.decide_in(actor, line, &Ahead::None)
    }

    /// What a dice line of `actor` would evaluate, when the table's system is evaluated by
    /// the reference engine: the command and the attempt's dice, to be evaluated
    /// ([`PlannedRoll::roll`]) away from the table's lock and decided with
    /// [`Table::decide_rolled`]. Members' reads of the table then never wait on a worker
    /// process, nor learn from how long they waited how many dice a secret roll drew.
    /// `None`: anything else (decided as usual).
    pub fn plan_roll(&self, actor: &str, line: &str) -> Option<PlannedRoll> {
        if self.system.engine() != taku_systems::EngineKind::Reference {
            return None;
        }
        let planned = std::cell::RefCell::new(None);
        let _ = self.decide_in(actor, line, &Ahead::Plan(&planned));
        planned.into_inner()
    }

    /// [`Table::decide`] with a roll evaluated ahead ([`Table::plan_roll`]): used when
    /// nothing was appended since it was planned and the line evaluates the same command,
    /// else the line is decided as usual.
    pub fn decide_rolled(
        &self,
        actor: &str,
        line: &str,
        rolled: &RolledAhead,
    ) -> Result<Decision, Refusal> {
        self.decide_in(actor, line, &Ahead::Rolled(rolled))
    }

    fn decide_in(&self, actor: &str, line: &str, ahead: &Ahead<'_>) -> Result<Decision, Refusal> {
        let role = self.member(actor)?;
        // Attack pass 7, A7-6: a control or bidi character (an escape sequence, a
        // right-to-left override) is refused, named, before anything reads the line: kept
        // as its escape `\u{202e}`, it was read as a reference `{202e}` and counted six
        // times against the line's length. Line breaks and tabs are kept as before.
        if let Some(c) = blank_in_line(line.trim()) {
            // Attack pass 8, A8-4: characters that draw nothing (a byte-order mark, a
            // blank filler, tag characters carrying invisible text) make a line say more
            // than it shows.
            let code = format!("U+{:04X}", u32::from(c));
            return refuse(
                format!(
                    "行に見えない文字（{code}）があります。何も変わっていません。その文字を取り除いて送ってください"
                ),
                format!(
                    "the line holds an invisible character ({code}); nothing changed: remove it and send the line again"
                ),
            );
        }
        if let Some(c) = line
            .trim()
            .chars()
            .find(|&c| !matches!(c, '\n' | '\r' | '\t') && hidden_in_line(c))
        {
            let code = format!("U+{:04X}", u32::from(c));
            return refuse(
                format!(
                    "行に見えない制御文字（{code}。端末の表示や文字の向きを変えます）があります。何も変わっていません。その文字を取り除いて送ってください"
                ),
                format!(
                    "the line holds an invisible control character ({code}, which changes how a terminal shows text or its direction); nothing changed: remove it and send the line again"
                ),
            );
        }
        let line = visible_line(line.trim());
        let line = line.trim();
        if line.is_empty() {
            return refuse(
                "空の行です。ダイスコマンド、チャット、または /help を入力してください",
                "empty line; type a dice command, chat, or /help",
            );
        }
        check_line(line)?;
        // A4-10: typed with the IME on, `／ｗ alice …` is the whisper `/w alice …`, not
        // public chat: a leading full-width slash and a command word in full-width
        // letters are read as the command (the text after it is kept as typed).
        let line = &*command_form(line);
        if let Some(refused) = self.secret_command(line) {
            return Err(refused.into());
        }
        if let Some(told) = self.not_yet_told(actor, line) {
            return Ok(told);
        }
        if line.starts_with('/') {
            let cmd = command::parse(line)?;
            return self.decide_command(actor, role, cmd, line, ahead);
        }
        if let Some(decided) = self.decide_status(actor, role, line) {
            return decided;
        }
        self.decide_line(actor, role, line, ahead)
    }

    /// `S/deck check …`: the secret-roll mark `S` in front of a command. The line is
    /// neither a secret roll nor a command, and as chat every member would read it (issue
    /// 13, the MTG GM's secret check): refused, with the command's own secret form when
    /// the system has one.
    fn secret_command(&self, line: &str) -> Option<Text> {
        let rest = line.strip_prefix(['S', 's', 'Ｓ', 'ｓ'])?;
        let cmd = command_form(rest);
        let word = cmd.strip_prefix('/')?.split_whitespace().next()?;
        let commands = self.rules().map(|r| r.commands()).unwrap_or_default();
        let usage = |c: &&CommandHelp| {
            c.usage
                .strip_prefix('/')
                .and_then(|u| u.split_whitespace().next())
                == Some(word)
        };
        let system = commands.iter().any(|c| usage(&c));
        let table = matches!(command::parse(&cmd), Ok(c) if !matches!(c, TableCommand::System(_)));
        if !system && !table {
            return None;
        }
        let example = commands
            .iter()
            .filter(usage)
            .find(|c| c.usage.contains(" secret"))
            .map(|c| c.usage);
        let short: String = line.chars().take(40).collect();
        Some(match example {
            Some(example) => Text::new(
                format!(
                    "「{short}」は送っていません。S は秘密のダイスロールの印で、/ のコマンドには付きません（チャットとして全員に見えてしまいます）。秘密にするなら secret を付けます。例: {example}"
                ),
                format!(
                    "'{short}' was not sent: S marks a secret dice roll and does not go before a / command (as chat everyone would read it); to keep it secret, add secret, e.g. {example}"
                ),
            ),
            None => Text::new(
                format!(
                    "「{short}」は送っていません。S は秘密のダイスロールの印で、/ のコマンドには付きません（チャットとして全員に見えてしまいます）。コマンドは / から書いてください（/help）"
                ),
                format!(
                    "'{short}' was not sent: S marks a secret dice roll and does not go before a / command (as chat everyone would read it); type the command from its / (/help)"
                ),
            ),
        })
    }

    /// `SCC 秘密` at a table whose system has no `CC` (attack pass 6, A6-9): the secret
    /// mark `S` before a word written like a dice command (capitals, digits and command
    /// punctuation) that this system does not take. As chat, every member would read the
    /// line the player meant to keep secret, comment included: refused, saying how to
    /// send it as chat when it was talk (「SOS」).
    ///
    /// Attack pass 7, A7-3: the typos of a secret roll are caught too — the mark apart
    /// from its command (`S 2D6 …`, a full-width space as well), before digits, a sign, a
    /// reference or a kanji numeral (`S2 …`, `S+3 …`, `S{ロイ.反射} …`, `S二D6 …`).
    fn secret_mark_before_no_command(&self, line: &str) -> Option<Text> {
        const PUNCTUATION: &str = "()<>=+-*/,.@#[]!?$%";
        let folded = taku_dice::normalize::fold(line);
        let mut words = folded.text.split_whitespace();
        let token = words.next()?;
        let rest = token.strip_prefix(['S', 's'])?;
        let dicelike = |w: &str| {
            w.starts_with(|c: char| {
                c.is_ascii_uppercase() || c.is_ascii_digit() || "+-{[(".contains(c)
            }) && w
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || PUNCTUATION.contains(c) || "{}".contains(c))
                || w.starts_with('{')
                || (w.starts_with(|c: char| "一二三四五六七八九十百".contains(c))
                    && w.contains(['D', 'd']))
        };
        // Attack pass 8, A8-11: `Sx 秘密`, `SX5 …` — the mark before the repeat prefix
        // `x` of a reference system's commands, with or without its count.
        let repeat = rest
            .strip_prefix(['x', 'X'])
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
        let commandlike = if rest.is_empty() {
            // `S 2D6 …`: the mark alone, before anything (A8-11: `S 秘密の計画` reads as
            // a player marking talk secret; the mark alone on a line too).
            token == "S" || token == "s"
        } else {
            dicelike(rest) || repeat
        };
        // `SAN-3` is a status line (a field and a change, CCFOLIA's habit), chat when
        // the speaker has no such field, never a dice command. The field's name is more
        // than the mark (`S+3` is the mark before a modifier).
        let letters = token.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let status = letters.len() + 1 < token.len()
            && letters
                .strip_prefix(['+', '-', '='])
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !commandlike || status {
            return None;
        }
        let short: String = line.chars().take(40).collect();
        let word: String = token.chars().take(40).collect();
        // A7-11: the system's (Japanese) name in Japanese, its id in English.
        let (system, system_en) = (self.system.name(), self.system.id());
        if rest.is_empty() {
            return Some(Text::new(
                format!(
                    "「{short}」は送っていません。S で始まる行は秘密のダイスロールですが、S の後にコマンドがありません（S2D6 のように続けて書きます。チャットにすると全員に見えてしまいます）。チャットなら 「{short}」 のようにかぎ括弧で囲んでください"
                ),
                format!(
                    "'{short}' was not sent: a line starting with S is a secret dice roll, but no command follows the S (write it joined, e.g. S2D6; as chat everyone would read it); to send it as chat, quote it: \"{short}\""
                ),
            ));
        }
        Some(Text::new(
            format!(
                "「{short}」は送っていません。S で始まる行は秘密のダイスロールですが、「{word}」は {system} のコマンドではありません（チャットにすると全員に見えてしまいます）。コマンドは /help で確かめてください。チャットなら 「{short}」 のようにかぎ括弧で囲んでください"
            ),
            format!(
                "'{short}' was not sent: a line starting with S is a secret dice roll, but '{word}' is no command of {system_en} (as chat everyone would read it); see /help for the commands, or to send it as chat, quote it: \"{short}\""
            ),
        ))
    }

    /// The system's refusal of a scene's or session's end now
    /// ([`taku_systems::table_rules::TableRules::holds_scene_end`]).
    fn scene_end_held(&self) -> Result<(), Refusal> {
        let (Some(rules), Some(state)) = (self.rules(), self.state.system.as_deref()) else {
            return Ok(());
        };
        match rules.holds_scene_end(state) {
            Some(why) => Err(why.into()),
            None => Ok(()),
        }
    }

    fn member(&self, actor: &str) -> Result<Role, Refusal> {
        match self.state.members.get(actor) {
            Some(&role) => Ok(role),
            None => refuse(
                format!(
                    "'{actor}' はこのテーブルのメンバーではありません。GM が /join {actor} as player で加えられます"
                ),
                format!(
                    "'{actor}' is not a member of this table; the GM adds members with /join {actor} as player"
                ),
            ),
        }
    }

    /// What renewing `member`'s personal link as `actor` records (a server revokes their
    /// tokens and issues a new one): [`EventBody::Relinked`], for a GM and another
    /// member only — except the table's creator, whose link only they renew (attack
    /// pass 2, A2-10: a co-GM must not take the creator's seat).
    pub fn decide_relink(&self, actor: &str, member: &str) -> Result<Decision, Refusal> {
        if self.state.members.get(actor) != Some(&Role::Gm) {
            return refuse(
                "個人リンクを再発行できるのは GM だけです",
                "only a GM can issue members' links",
            );
        }
        // The table's creator renews their own (a leaked link); another GM's own link is
        // renewed by another GM.
        if actor == member && member != self.gm {
            return refuse(
                "GM 自身の個人リンクは別の GM が再発行します",
                "a GM's own link is renewed by another GM",
            );
        }
        // A2-10: a co-GM (anyone with a GM invite) may not take the table from its
        // creator — renewing their link would hand the co-GM the creator's seat.
        if member == self.gm && actor != self.gm {
            return refuse(
                format!(
                    "テーブルを作った GM（{member}）の個人リンクは、他の GM には再発行できません"
                ),
                format!(
                    "the link of the table's creator ({member}) cannot be renewed by another GM"
                ),
            );
        }
        if !self.state.members.contains_key(member) {
            return refuse(
                format!("'{member}' というメンバーはいません（/who で一覧を見られます）"),
                format!("there is no member '{member}' (see /who)"),
            );
        }
        Ok(Decision::event(EventBody::Relinked {
            member: member.to_string(),
        }))
    }

    /// What importing a character sheet (a file in the format `taku sheet` reads for the
    /// table's system) would do as `actor`: create the character it names, owned by
    /// `actor`, or update the fields of an existing one (its owner or a GM).
    pub fn decide_sheet(&self, actor: &str, sheet: &str) -> Result<Decision, Refusal> {
        self.decide_sheet_with(actor, sheet, &[])
    }

    /// [`Table::decide_sheet`] with `extra` fields beside the sheet's, in one event: what
    /// a sheet in another tool's shape carries that the system's sheet format has no
    /// place for (a CCFOLIA character's chat palette, its current HP below the maximum).
    /// An extra field replaces the sheet's field of the same key; every field passes the
    /// same checks as `/char set`.
    pub fn decide_sheet_with(
        &self,
        actor: &str,
        sheet: &str,
        extra: &[(String, String)],
    ) -> Result<Decision, Refusal> {
        let role = self.member(actor)?;
        if sheet.len() > MAX_SHEET {
            return refuse(
                format!("シートが大きすぎます（{} KiB まで）", MAX_SHEET / 1024),
                format!("the sheet is too large (at most {} KiB)", MAX_SHEET / 1024),
            );
        }
        if role == Role::Spectator {
            return refuse(
                "観戦者はキャラクターを作れません",
                "spectators cannot create characters",
            );
        }
        let mut read = taku_systems::sheet::read(self.system, sheet)?;
        for (k, v) in extra {
            match read.fields.iter_mut().find(|(key, _)| key == k) {
                Some(field) => field.1 = v.clone(),
                None => read.fields.push((k.clone(), v.clone())),
            }
        }
        self.not_kept_by_rules(actor, read.fields.iter().map(|(k, _)| k.as_str()))?;
        let displaced = self.displaced_by(actor, &read.name);
        match self
            .state
            .characters
            .get(&read.name)
            .filter(|_| displaced.is_none())
        {
            None => {
                check_name(Text::new("キャラクター名", "character name"), &read.name)?;
                check_character_punctuation(&read.name)?;
                self.unlike_other_characters(actor, &read.name)?;
                // The same checks as `/char set`, on every field.
                self.room_for_a_character(actor)?;
                let fields: Vec<(String, String)> = changes(
                    self.checked(actor, &read.name),
                    &Character::default(),
                    read.fields,
                )?
                .into_iter()
                .map(|c| (c.key, c.value))
                .collect();
                Self::fields_fit(
                    &read.name,
                    None,
                    fields.iter().map(|(k, v)| (k.as_str(), v.as_str())),
                )?;
                Ok(Decision::event(EventBody::CharacterCreated {
                    name: read.name,
                    fields,
                    displaced,
                }))
            }
            Some(ch) => {
                // Attack pass 8, A8-10: a GM's sheet named as an NPC a player's character
                // displaced (issue 13) is the NPC's: written into the player's character
                // it would publish the whole sheet. The GM alone is refused and told the
                // NPC's name now. Any other player's character is the GM's to set by
                // sheet, as by /char set (a GM allowing a player's sheet, LR-1).
                if let Some(npc) = self
                    .is_gm(actor)
                    .then(|| !self.is_gm(&ch.owner))
                    .filter(|&player| player)
                    .and_then(|_| self.displaced_npc(&read.name))
                {
                    let name = &read.name;
                    return refuse(
                        format!(
                            "（GMのみ）{name} は {} のキャラクターです。GM のシートはプレイヤーのキャラクターに書き込みません。GM の NPC は {npc} です。シートの name を {npc} にしてください",
                            ch.owner
                        ),
                        format!(
                            "(GM only) {name} is {}'s character; a GM's sheet is never written into a player's character: the GM's NPC is {npc}: put name = \"{npc}\" in the sheet",
                            ch.owner
                        ),
                    );
                }
                self.may_change(actor, role, &read.name, ch)?;
                let changes: Vec<FieldChange> =
                    changes(self.checked(actor, &read.name), ch, read.fields)?
                        .into_iter()
                        .filter(|c| c.previous.as_ref() != Some(&c.value))
                        .collect();
                if changes.is_empty() {
                    return refuse(
                        format!("{} のシートに変わった値はありません", read.name),
                        format!("nothing on {}'s sheet changed", read.name),
                    );
                }
                Self::fields_fit(
                    &read.name,
                    Some(ch),
                    changes.iter().map(|c| (c.key.as_str(), c.value.as_str())),
                )?;
                Ok(Decision::event(EventBody::CharacterUpdated {
                    name: read.name,
                    changes,
                }))
            }
        }
    }

    /// Refuses a new character past [`MAX_CHARACTERS`] (A3-6).
    ///
    /// A player counts the characters they may know of ([`Table::unknown`]), as
    /// `/char list` and the API list them: counting the GM's hidden NPCs would refuse them
    /// at a number of characters they can see to be lower, telling them hidden ones exist
    /// (issue 13). So at most [`MAX_CHARACTERS`] are made by the GMs, and players add
    /// theirs while they know fewer than `MAX_CHARACTERS - GM_CHARACTERS`.
    fn room_for_a_character(&self, actor: &str) -> Result<(), Refusal> {
        let gm = actor == self.gm || self.is_gm(actor);
        let counted = self
            .state
            .characters
            .keys()
            .filter(|name| gm || !self.unknown(name, actor))
            .count();
        if counted >= MAX_CHARACTERS {
            return refuse(
                format!("このテーブルのキャラクターは {MAX_CHARACTERS} 人までです"),
                format!("a table has at most {MAX_CHARACTERS} characters"),
            );
        }
        // A4-5: one player took every slot, and the GM could make no NPC. The GMs keep
        // the last [`GM_CHARACTERS`]; a player has [`PLAYER_CHARACTERS`] of their own.
        if gm {
            return Ok(());
        }
        if counted >= MAX_CHARACTERS - GM_CHARACTERS {
            return refuse(
                format!(
                    "このテーブルのキャラクターは上限近くです（残りの {GM_CHARACTERS} 人分は GM のために取ってあります）"
                ),
                format!(
                    "this table's characters are near its limit (the last {GM_CHARACTERS} are kept for the GM)"
                ),
            );
        }
        let own = self
            .state
            .characters
            .values()
            .filter(|c| c.owner == actor)
            .count();
        if own >= PLAYER_CHARACTERS {
            return refuse(
                format!(
                    "キャラクターは 1 人 {PLAYER_CHARACTERS} 人までです（GM は別）。使わないキャラクターを GM に /undo で取り消してもらってください"
                ),
                format!(
                    "a player has at most {PLAYER_CHARACTERS} characters (the GM more); ask the GM to /undo one you no longer use"
                ),
            );
        }
        Ok(())
    }

    /// Refuses fields that would leave character `name` (now `before`) with more than
    /// [`MAX_FIELDS`] fields or [`MAX_FIELD_BYTES`] of them (A3-6).
    fn fields_fit<'f>(
        name: &str,
        before: Option<&Character>,
        set: impl Iterator<Item = (&'f str, &'f str)>,
    ) -> Result<(), Refusal> {
        let mut fields: BTreeMap<&str, &str> = before
            .map(|c| {
                c.fields
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        for (k, v) in set {
            fields.insert(k, v);
        }
        let bytes: usize = fields.iter().map(|(k, v)| k.len() + v.len()).sum();
        if fields.len() > MAX_FIELDS || bytes > MAX_FIELD_BYTES {
            let kib = MAX_FIELD_BYTES / 1024;
            return refuse(
                format!(
                    "{name} の項目が多すぎます（1 人 {MAX_FIELDS} 項目・{kib} KiB まで。この変更で {} 項目・{bytes} バイト）",
                    fields.len()
                ),
                format!(
                    "{name} would have too many fields (at most {MAX_FIELDS} fields and {kib} KiB a character; this makes {} fields, {bytes} bytes)",
                    fields.len()
                ),
            );
        }
        Ok(())
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
    pub fn exec(&mut self, actor: &str, line: &str) -> Result<(Option<Text>, &[Event]), Refusal> {
        let decision = self.decide(actor, line)?;
        let events = self.apply(actor, decision.events);
        Ok((decision.reply, events))
    }

    /// The dice key of one attempt to decide a line, from a fresh nonce, and the nonce
    /// (hex) to record with its event.
    fn attempt_key(&self) -> Result<([u8; 32], Option<String>), Refusal> {
        self.entropy
            .key(&self.seed, self.next_seq())
            .ok_or_else(|| {
                Text::new(
                    "OS から乱数を得られません。しばらくしてからもう一度試してください",
                    "the operating system gave no randomness; try again shortly",
                )
                .into()
            })
    }

    fn decide_line(
        &self,
        actor: &str,
        role: Role,
        line: &str,
        ahead: &Ahead<'_>,
    ) -> Result<Decision, Refusal> {
        // Issue 17 (full-width commands work): `ＡＷ＋｛理知｝` is `ＡＷ＋{理知}` when that
        // is a command; chat keeps its braces as typed.
        let braced = check::ascii_braces(line);
        let line: &str = if *braced != *line
            && taku_systems::looks_like_command(self.system, &check::placeholder(&braced))
        {
            &braced
        } else {
            line
        };
        let chat = || {
            Ok(Decision::event(EventBody::Chat {
                text: line.to_string(),
            }))
        };
        let looks = taku_systems::looks_like_command(self.system, &check::placeholder(line));
        if !looks
            && role != Role::Spectator
            && let Some(refused) = self.secret_mark_before_no_command(line)
        {
            return Err(refused.into());
        }
        // A spectator's command is refused before anything is evaluated or drawn.
        if role == Role::Spectator {
            if looks {
                return refuse(
                    "観戦者はダイスを振れません。GM が /join であなたをプレイヤーにできます",
                    "spectators cannot roll; the GM can make you a player with /join",
                );
            }
            return chat();
        }
        let seq = self.next_seq();
        let rolled = match ahead {
            // Planned for this seq, or keyed by its own nonce (then the key does not
            // depend on the seq, and `verify` replays it from the nonce at any seq): a
            // line appended meanwhile (the roller's own, sent while a secret roll waits
            // for its pace, A4-8) never makes the roll be evaluated again under the lock.
            Ahead::Rolled(r) if r.planned.seq == seq || r.planned.nonce.is_some() => Some(*r),
            _ => None,
        };
        let (key, nonce) = match rolled {
            Some(r) => (r.planned.key, r.planned.nonce.clone()),
            None => self.attempt_key()?,
        };
        let roll = |command: &str| match rolled {
            Some(r) if r.planned.command == command => r.result.clone(),
            _ => {
                let mut dice = ChaChaSource::from_key(key);
                taku_systems::evaluate(self.system, command, &mut dice, Mode::Normalize)
            }
        };
        // The system's derived references first (a skill's level), then fields.
        let expanded = match (self.rules(), self.state.system.as_deref()) {
            (Some(rules), Some(state)) => {
                rules.expand_references(&self.view_as(actor), state, line)
            }
            _ => line.to_string(),
        };
        // A character `actor` may not know of is, for their references, no character.
        let known = self.known_characters(actor);
        if looks {
            self.reads_hidden(&expanded, actor, &known)?;
        }
        let mut command = match check::resolve(&expanded, actor, &known) {
            Ok(command) => command,
            // A command whose reference does not resolve is refused; chat with braces in
            // it is chat. A field the character lacks is the system's to explain where it
            // is not one to make with /char set (TableRules::missing_field).
            Err(why) if looks => {
                let system =
                    check::missing(&expanded, actor, &known).and_then(|(name, key)| {
                        match (self.rules(), self.state.system.as_deref()) {
                            (Some(rules), Some(state)) => {
                                rules.missing_field(&self.view_as(actor), state, &name, &key)
                            }
                            _ => None,
                        }
                    });
                return Err(system.unwrap_or(why).into());
            }
            Err(_) => return chat(),
        };
        let refused = |command: &str, e: EvalError| -> Refusal {
            match e {
                EvalError::Unsupported(Some(pe)) => Refusal {
                    text: pe.kind.text(),
                    caret: Some((command.to_string(), pe.span)),
                },
                // Claimed by the system's prefix, yet no command of it: the whole line.
                e @ EvalError::Unsupported(None) => Refusal {
                    text: e.text().then(
                        "",
                        &Text::new(
                            "（/help でコマンドの一覧を見られます）",
                            " (/help lists the commands)",
                        ),
                    ),
                    caret: Some((command.to_string(), 0..command.len())),
                },
                e => Refusal {
                    text: e.text().map(|_, t| format!("{command}: {t}")),
                    caret: None,
                },
            }
        };
        if let Ahead::Plan(planned) = ahead {
            *planned.borrow_mut() = Some(PlannedRoll {
                seq,
                command,
                key,
                nonce,
                system: self.system,
            });
            // Only planned: nothing is decided.
            return refuse("", "");
        }
        let mut result = match roll(&command) {
            Ok(r) => r,
            // What starts like a command but does not parse is refused with the parse
            // error, not posted as chat.
            Err(e @ EvalError::Unsupported(_))
                if taku_systems::looks_like_command(self.system, &command) =>
            {
                return Err(refused(&command, e));
            }
            Err(EvalError::Unsupported(_)) => return chat(),
            Err(e) => return Err(refused(&command, e)),
        };
        let mut effects = Vec::new();
        let mut note = None;
        if let (Some(rules), Some(state)) = (self.rules(), self.state.system.as_deref()) {
            let prepared = rules.prepare_check(&self.view_rolling(actor, line), state, &command)?;
            if prepared.command != command {
                result = roll(&prepared.command).map_err(|e| refused(&prepared.command, e))?;
                command = prepared.command;
            }
            effects = prepared.events;
            note = prepared.note;
            let ctx = self.view_rolling(actor, line);
            effects.extend(rules.after_roll(&ctx, state, &command, &result));
        }
        // A4-3: a roll others can read that used the values of a character hidden from
        // some member (an enemy not yet identified, by its GM) would show them those
        // values in its command, its typed line and its total: refused, saying to roll
        // it secretly. Checked on the line as typed and as the system expanded it.
        if !result.secret
            && let Some(name) = check::targets(line, actor, &self.state.characters)
                .into_iter()
                .chain(check::targets(&expanded, actor, &self.state.characters))
                .find(|name| self.hidden_from_someone(name))
        {
            return refuse(
                format!(
                    "{name} のデータは公開されていないメンバーがいるので、その値を使ったダイスを公開では振れません（結果に値が出ます）。先頭に S をつけてシークレットダイスにしてください（例: S{line}）"
                ),
                format!(
                    "{name}'s data is hidden from some members, so a roll using its values cannot be public (they would show in the result); put S in front to roll it secretly (S{line})"
                ),
            );
        }
        let mut roll = Roll {
            typed: (command != line).then(|| line.to_string()),
            comment: taku_systems::comment(self.system, &command),
            input: command,
            text: result.text,
            secret: result.secret,
            success: result.success,
            failure: result.failure,
            critical: result.critical,
            fumble: result.fumble,
            rands: result.rands.iter().map(|d| [d.sides, d.value]).collect(),
            commitment: None,
            note: note.as_ref().map(|n| n.ja().to_string()),
            note_en: note.as_ref().map(|n| n.en().to_string()),
            nonce,
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
    /// What [`changes`] checks a member's field values with: the rules, the table as
    /// `actor` sees it, the system's state and the character's name.
    fn checked<'a>(
        &'a self,
        actor: &'a str,
        name: &'a str,
    ) -> Option<(&'a dyn DynRules, Ctx<'a>, &'a dyn SystemState, &'a str)> {
        Some((
            self.rules()?,
            self.view_as(actor),
            self.state.system.as_deref()?,
            name,
        ))
    }

    fn view_as<'a>(&'a self, actor: &'a str) -> Ctx<'a> {
        Ctx {
            table: self,
            actor,
            line: None,
            blind: !(actor == self.gm || self.is_gm(actor)),
        }
    }

    /// The same while preparing and following up `line`, a roll as typed.
    fn view_rolling<'a>(&'a self, actor: &'a str, line: &'a str) -> Ctx<'a> {
        Ctx {
            table: self,
            actor,
            line: Some(line),
            blind: !(actor == self.gm || self.is_gm(actor)),
        }
    }

    /// Whether `actor` may change character `name`: its owner or a GM.
    fn may_change(
        &self,
        actor: &str,
        role: Role,
        name: &str,
        ch: &Character,
    ) -> Result<(), Refusal> {
        if ch.owner != actor && role != Role::Gm {
            return refuse(
                format!(
                    "{name} は {} のキャラクターです。変更できるのは本人か GM だけです",
                    ch.owner
                ),
                format!(
                    "'{name}' belongs to {}; only they or the GM can change it",
                    ch.owner
                ),
            );
        }
        Ok(())
    }

    fn decide_command(
        &self,
        actor: &str,
        role: Role,
        cmd: TableCommand,
        line: &str,
        ahead: &Ahead<'_>,
    ) -> Result<Decision, Refusal> {
        let gm_only = |ja: &str, en: &str| {
            refuse(
                format!("{ja}のは GM だけです"),
                format!("only the GM can {en}"),
            )
        };
        match cmd {
            TableCommand::Whisper { to, text } => {
                if to.is_empty() || to.iter().all(|m| m == actor) {
                    return refuse(
                        "ささやく相手がいません: /w 名前[,名前…] 本文",
                        "whisper to whom? /w NAME[,NAME…] TEXT",
                    );
                }
                if let Some(stranger) = to.iter().find(|m| !self.state.members.contains_key(*m)) {
                    return refuse(
                        format!(
                            "'{stranger}' はこのテーブルのメンバーではありません（/who で一覧）"
                        ),
                        format!("'{stranger}' is not a member of this table (/who lists them)"),
                    );
                }
                let mut to = to;
                to.dedup();
                Ok(Decision::event(EventBody::Whisper { to, text }))
            }
            TableCommand::TabChat { tab, text } => {
                let Some(id) = self.tab_id(&tab) else {
                    return refuse(
                        format!(
                            "'{tab}' というタブはありません（タブ: {}）",
                            self.tab_names(Lang::Ja).join("、")
                        ),
                        format!(
                            "no tab '{tab}' (tabs: {})",
                            self.tab_names(Lang::En).join(", ")
                        ),
                    );
                };
                // A table command typed in a tab (`/tab 雑談 /w alice …`, which the web
                // table sends for a line typed in 雑談) is that command, never talk that
                // shows it to everyone (A4-10); a tab in a tab is refused.
                let inner = command_form(text.trim()).into_owned();
                if inner.starts_with('/') {
                    if matches!(
                        command::parse(&inner),
                        Ok(TableCommand::TabChat { .. } | TableCommand::TabNew(_))
                    ) {
                        return refuse(
                            "/tab の中に /tab は書けません",
                            "a /tab line cannot hold another /tab",
                        );
                    }
                    let cmd = command::parse(&inner)?;
                    return self.decide_command(actor, role, cmd, &inner, ahead);
                }
                // A dice line or a status command typed in a tab is played like any
                // other (it lands in メイン, the game's record); only talk stays there.
                if taku_systems::looks_like_command(self.system, &check::placeholder(text.trim())) {
                    return self.decide_line(actor, role, text.trim(), ahead);
                }
                if let Some(decided) = self.decide_status(actor, role, text.trim()) {
                    return decided;
                }
                // A7-3: a mistyped secret roll in a tab is refused as in メイン, not
                // posted for every member to read.
                if role != Role::Spectator
                    && let Some(refused) = self
                        .secret_command(text.trim())
                        .or_else(|| self.secret_mark_before_no_command(text.trim()))
                {
                    return Err(refused.into());
                }
                Ok(Decision::event(if id == MAIN_TAB {
                    EventBody::Chat { text }
                } else {
                    EventBody::TabChat { tab: id, text }
                }))
            }
            TableCommand::TabNew(name) => {
                if role != Role::Gm {
                    return gm_only("タブを追加できる", "add a tab");
                }
                check_name(Text::new("タブ名", "tab name"), &name)?;
                if name.chars().count() > MAX_TAB_NAME {
                    return refuse(
                        format!("タブ名は {MAX_TAB_NAME} 文字までです"),
                        format!("a tab name is at most {MAX_TAB_NAME} characters"),
                    );
                }
                if name == "new" || self.tab_id(&name).is_some() {
                    return refuse(
                        format!("'{name}' というタブはすでにあります（または使えない名前です）"),
                        format!("there is a tab '{name}' already (or the name is reserved)"),
                    );
                }
                if self.state.tabs.len() >= MAX_TABS {
                    return refuse(
                        format!("追加できるタブは {MAX_TABS} 個までです"),
                        format!("at most {MAX_TABS} tabs can be added"),
                    );
                }
                Ok(Decision::event(EventBody::TabAdded { name }))
            }
            TableCommand::Help => Ok(Decision::reply(
                command::help().then("\n\n", &taku_systems::full_help(self.system)),
            )),
            TableCommand::System(words) => self.decide_system(actor, role, &words, line),
            TableCommand::Join { name, role: new } => {
                if role != Role::Gm {
                    return gm_only("メンバーを加えられる", "add members");
                }
                check_name(Text::new("メンバー名", "member name"), &name)?;
                check_member_punctuation(&name)?;
                if let Some(existing) = self.state.members.get(&name) {
                    return refuse(
                        format!("'{name}' はすでにメンバーです（{}）", existing.as_str()),
                        format!("'{name}' is already a member ({})", existing.as_str()),
                    );
                }
                // A removed member's name (or a look-alike) is theirs still: only this
                // very name, added back by the GM, brings them back.
                let others = self
                    .state
                    .members
                    .keys()
                    .chain(self.state.removed.iter().filter(|n| **n != name));
                if let Some(other) = names::looks_like(&name, others) {
                    return refuse(
                        format!(
                            "'{name}' はメンバー '{other}' と見分けにくい名前です。別の名前にしてください"
                        ),
                        format!(
                            "'{name}' looks too much like the member '{other}'; choose another name"
                        ),
                    );
                }
                // Attack pass 6, A6-2: a member named as a character (`ミナ: …`) reads
                // as the character speaking. Only characters hidden from nobody count,
                // so the refusal tells nothing of a hidden one.
                let shown: Vec<&String> = self
                    .state
                    .characters
                    .keys()
                    .filter(|c| !self.hidden_from_someone(c))
                    .collect();
                if let Some(other) = names::same_or_like(&name, shown.iter().copied()) {
                    return refuse(
                        format!(
                            "'{name}' はキャラクター '{other}' と同じか見分けにくい名前で、発言がキャラクターのものに見えてしまいます。別の名前にしてください"
                        ),
                        format!(
                            "'{name}' is or looks like the character '{other}', so its lines would read as the character's; choose another name"
                        ),
                    );
                }
                Ok(Decision::event(EventBody::Joined {
                    member: name,
                    role: new,
                }))
            }
            TableCommand::Remove(name) => {
                if role != Role::Gm {
                    return gm_only("メンバーを退室させられる", "remove members");
                }
                if name == actor {
                    return refuse(
                        "GM は自分を退室させられません（別の GM ならできます）",
                        "a GM cannot remove themselves; another GM can",
                    );
                }
                // A2-10: the table's creator stays; a co-GM cannot remove them.
                if name == self.gm {
                    return refuse(
                        format!("テーブルを作った GM（{name}）は退室させられません"),
                        format!("the table's creator ({name}) cannot be removed"),
                    );
                }
                if !self.state.members.contains_key(&name) {
                    return refuse(
                        format!("'{name}' というメンバーはいません（/who で一覧を見られます）"),
                        format!("there is no member '{name}' (see /who)"),
                    );
                }
                Ok(Decision::event(EventBody::Removed { member: name }))
            }
            TableCommand::CharNew(name) => {
                if role == Role::Spectator {
                    return refuse(
                        "観戦者はキャラクターを作れません",
                        "spectators cannot create characters",
                    );
                }
                check_name(Text::new("キャラクター名", "character name"), &name)?;
                check_character_punctuation(&name)?;
                let displaced = self.displaced_by(actor, &name);
                if displaced.is_none() && self.state.characters.contains_key(&name) {
                    return refuse(
                        format!("'{name}' という名前のキャラクターはすでにいます"),
                        format!("a character named '{name}' already exists"),
                    );
                }
                self.unlike_other_characters(actor, &name)?;
                self.room_for_a_character(actor)?;
                Ok(Decision::event(EventBody::CharacterCreated {
                    name,
                    fields: Vec::new(),
                    displaced,
                }))
            }
            TableCommand::CharRename { from, to } => {
                if role != Role::Gm {
                    return gm_only("キャラクターを改名できる", "rename characters");
                }
                let Some(ch) = self.state.characters.get(&from) else {
                    return refuse(
                        format!(
                            "'{from}' という名前のキャラクターはいません（/char list で一覧を見られます）"
                        ),
                        format!("no character named '{from}' (see /char list)"),
                    );
                };
                // A player's character is theirs to name (issue 13: the rename is for the
                // GM's NPC that a player's namesake displaced).
                if !self.is_gm(&ch.owner) {
                    return refuse(
                        format!(
                            "{from} は {} のキャラクターです。改名できるのは GM のキャラクターだけです",
                            ch.owner
                        ),
                        format!(
                            "{from} belongs to {}; only the GM's characters can be renamed",
                            ch.owner
                        ),
                    );
                }
                // The new name is checked as any new character's.
                check_name(Text::new("キャラクター名", "character name"), &to)?;
                check_character_punctuation(&to)?;
                if self.state.characters.contains_key(&to) {
                    return refuse(
                        format!("'{to}' という名前のキャラクターはすでにいます"),
                        format!("a character named '{to}' already exists"),
                    );
                }
                self.unlike_other_characters(actor, &to)?;
                Ok(Decision::event(EventBody::CharacterRenamed { from, to }))
            }
            TableCommand::CharSet { name, fields } => {
                let ch = self.character_for(actor, &name)?;
                self.may_change(actor, role, &name, ch)?;
                self.not_kept_by_rules(actor, fields.iter().map(|(k, _)| k.as_str()))?;
                let changes = changes(self.checked(actor, &name), ch, fields)?;
                Self::fields_fit(
                    &name,
                    Some(ch),
                    changes.iter().map(|c| (c.key.as_str(), c.value.as_str())),
                )?;
                Ok(Decision::event(EventBody::CharacterUpdated {
                    name,
                    changes,
                }))
            }
            TableCommand::CharShow(name) => {
                self.character_for(actor, &name)?;
                let sheet = self.sheet(&name, actor).unwrap_or_default();
                Ok(Decision::reply(Text::new(
                    sheet.render_text(Lang::Ja),
                    sheet.render_text(Lang::En),
                )))
            }
            TableCommand::CharList => Ok(Decision::reply(self.character_list(actor))),
            TableCommand::Who => Ok(Decision::reply(self.who(actor))),
            TableCommand::SceneNext => {
                if role != Role::Gm {
                    return gm_only("次のシーンに進める", "start the next scene");
                }
                self.scene_end_held()?;
                // The resets' dice are keyed for the first of them, the line's second
                // event, and recorded there (verify replays them).
                let (key, nonce) = self
                    .entropy
                    .key(&self.seed, self.next_seq() + 1)
                    .ok_or_else(|| {
                        Refusal::from(Text::new(
                            "OS から乱数を得られません。しばらくしてからもう一度試してください",
                            "the operating system gave no randomness; try again shortly",
                        ))
                    })?;
                let mut source = ChaChaSource::from_key(key);
                let mut dice = Roller::new(&mut source);
                let mut resets = self.resets(|r, s| r.on_scene_end(s, &mut dice));
                let drawn: Vec<[u32; 2]> =
                    dice.draws().iter().map(|d| [d.sides, d.value]).collect();
                if let Some(EventBody::System {
                    rands, nonce: n, ..
                }) = resets.first_mut()
                    && !drawn.is_empty()
                {
                    *rands = drawn;
                    *n = nonce;
                }
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
                    return gm_only("セッションを終了できる", "end the session");
                }
                self.scene_end_held()?;
                let resets = self.resets(|r, s| r.on_session_end(s));
                Ok(Decision {
                    events: [EventBody::SessionEnded]
                        .into_iter()
                        .chain(resets)
                        .collect(),
                    reply: None,
                })
            }
            TableCommand::Lang(lang) => {
                if role != Role::Gm {
                    return gm_only("テーブルの言語を変えられる", "change the table's language");
                }
                Ok(Decision::event(EventBody::LanguageSet {
                    lang: lang.code().to_string(),
                }))
            }
            TableCommand::Undo(target) => self.decide_undo(actor, role, target),
            TableCommand::Void(seq) => self.decide_void(actor, role, seq),
            TableCommand::Reveal(seq) => {
                let Some(Event {
                    actor: roller,
                    body: EventBody::Roll(roll),
                    ..
                }) = self.event(seq)
                else {
                    return refuse(
                        format!("#{seq} はダイスロールではありません（または存在しません）"),
                        format!("#{seq} is not a roll (or does not exist)"),
                    );
                };
                // Whether #seq is someone else's secret roll must not be learnt by
                // trying to reveal it: one refusal for "not yours" and "not secret".
                if roller != actor && role != Role::Gm {
                    return refuse(
                        format!("#{seq} を公開できるのは振った人か GM だけです"),
                        format!("only its roller or the GM can reveal #{seq}"),
                    );
                }
                if !roll.secret {
                    return refuse(
                        format!("#{seq} はシークレットダイスではありません"),
                        format!("#{seq} is not a secret roll"),
                    );
                }
                if self.state.revealed.contains(&seq) {
                    return refuse(
                        format!("#{seq} はすでに公開されています"),
                        format!("#{seq} is already revealed"),
                    );
                }
                let mut events = vec![EventBody::Revealed { roll: seq }];
                // What the rules held back while the roll was secret (FC-9's fatigue),
                // following the roll so that voiding it reverts them.
                if let (Some(rules), Some(state)) = (self.rules(), self.state.system.as_deref()) {
                    let typed = roll.typed.as_deref().unwrap_or(&roll.input);
                    let effects = rules.after_reveal(
                        &self.view_rolling(roller, typed),
                        state,
                        &roll.input,
                        &roll.rands,
                    );
                    events.extend(system_events(effects, seq));
                }
                Ok(Decision {
                    events,
                    reply: None,
                })
            }
        }
    }

    /// The GM's character that a player's character named `name` displaced (issue 13),
    /// by its name now.
    fn displaced_npc(&self, name: &str) -> Option<&str> {
        self.state
            .renames
            .iter()
            .filter(|(_, from, _)| from == name)
            .map(|(seq, _, to)| self.name_now(to, *seq))
            .find(|now| {
                self.state
                    .characters
                    .get(*now)
                    .is_some_and(|c| self.is_gm(&c.owner))
            })
    }

    /// The name a GM's character named `name` takes when `actor`, who may not know of it
    /// ([`Table::unknown`]), creates a character of that name: for them the name is unused,
    /// so theirs is created as if it were, and the GM's is renamed `NAME(GM)` (or
    /// `NAME(GM2)`, … while that is taken), a name no player learns (issue 13).
    ///
    /// The new name stays within a name's 64 characters: a long name is cut to make room
    /// for the suffix (A7-1: `竜…(GM)` of 64 characters must not become 68).
    fn displaced_by(&self, actor: &str, name: &str) -> Option<String> {
        if !self.unknown(name, actor) {
            return None;
        }
        (1u32..)
            .map(|n| {
                let suffix = match n {
                    1 => "(GM)".to_string(),
                    n => format!("(GM{n})"),
                };
                let room = 64usize.saturating_sub(suffix.chars().count());
                let base: String = name.chars().take(room).collect();
                format!("{base}{suffix}")
            })
            .find(|to| to != name && !self.state.characters.contains_key(to))
    }

    /// A GM's line naming `X` that a player's character took from the GM's hidden `X`
    /// (renamed `X(GM)`, [`Table::displaced_by`]) while no GM has written a line since:
    /// the GM typing the NPC's old name from habit would act on the player's character
    /// in public (attack pass 7, A7-1). The line is not run; the GM alone is told, in a
    /// whisper to themselves kept in the log, whose character `X` is now and that the
    /// NPC is `X(GM)`. Sent again, the line runs as typed.
    fn not_yet_told(&self, actor: &str, line: &str) -> Option<Decision> {
        if !self.is_gm(actor) {
            return None;
        }
        let (seq, from, to, owner) = self.state.renames.iter().find_map(|(seq, from, to)| {
            // A displacement, not a GM's own rename (`/char rename`).
            self.event(*seq)
                .filter(|e| matches!(e.body, EventBody::CharacterCreated { .. }))?;
            let owner = &self.state.characters.get(from)?.owner;
            let standing =
                !self.undone.contains(seq) && !self.is_gm(owner) && !self.told(*seq, from, to);
            (standing && line.replace(to.as_str(), "").contains(from.as_str()))
                .then_some((seq, from, to, owner))
        })?;
        let told = Text::new(
            format!(
                "（GMのみ）「{line}」は実行していません。{from} は #{seq} で {owner} が作ったキャラクターです（GM の {from} は {to} に改名）。NPC のことなら {to} で指定してください。{owner} の {from} のことなら、同じ行をもう一度送ってください"
            ),
            format!(
                "(GM only) \"{line}\" was not run: {from} is the character {owner} created at #{seq} (the GM's {from} is renamed {to}). For the NPC, name it {to}; for {owner}'s {from}, send the line again"
            ),
        );
        Some(Decision {
            events: vec![EventBody::Whisper {
                to: vec![actor.to_string()],
                text: told.get(self.state.lang).to_string(),
            }],
            reply: Some(told),
        })
    }

    /// Whether a GM has been told of the displacement at `seq` (`from` taken by a player,
    /// the GM's renamed `to`): a line of theirs was held and whispered to them about it
    /// ([`Table::not_yet_told`]), or they have since acted on `to` by name. Any other GM
    /// line does not count (attack pass 8, A8-8: a chat line or another NPC's creation in
    /// between let the GM's next `/char set FROM` land, in public, on the player's
    /// character).
    fn told(&self, seq: u64, from: &str, to: &str) -> bool {
        let mark = format!("#{seq} ");
        self.events
            .iter()
            .filter(|e| e.seq > seq && self.is_gm(&e.actor))
            .any(|e| match &e.body {
                EventBody::Whisper { text, .. } => text.contains(&mark) && text.contains(from),
                EventBody::CharacterSet { name, .. }
                | EventBody::CharacterUpdated { name, .. }
                | EventBody::CharacterRenamed { from: name, .. } => name == to,
                EventBody::System { line, .. } => line.as_deref().is_some_and(|l| l.contains(to)),
                _ => false,
            })
    }

    /// The name of the character an entry at `seq` calls `name`, now: `name` followed
    /// through the renames recorded after it ([`EventBody::CharacterCreated`]'s
    /// `displaced`, [`EventBody::CharacterRenamed`]).
    pub(crate) fn name_now<'n>(&'n self, name: &'n str, seq: u64) -> &'n str {
        self.state
            .renames
            .iter()
            .filter(|(at, _, _)| *at > seq)
            .fold(
                name,
                |now, (_, from, to)| if now == from { to } else { now },
            )
    }

    /// Character `name` as `actor` may name it: one they may not know of
    /// ([`Table::unknown`]) gets the refusal of a name never used, word for word.
    fn character_for(&self, actor: &str, name: &str) -> Result<&Character, Refusal> {
        self.state
            .characters
            .get(name)
            .filter(|_| !self.unknown(name, actor))
            .ok_or_else(|| {
                Text::new(
                    format!(
                        "'{name}' という名前のキャラクターはいません。/char new {name} で作れます"
                    ),
                    format!("no character named '{name}'; create it with /char new {name}"),
                )
                .into()
            })
    }

    /// The characters `viewer` may know of ([`Table::unknown`]): a GM's NPC never put
    /// before them is not listed, one they met is, its data still hidden (issue 13, aw8
    /// F9). The API's table state lists by the same predicate.
    fn character_list(&self, viewer: &str) -> Text {
        if self
            .state
            .characters
            .keys()
            .all(|n| self.unknown(n, viewer))
        {
            return Text::new(
                "キャラクターはまだいません。/char new 名前 で作れます",
                "no characters yet; /char new NAME creates one",
            );
        }
        let names = |sep: &str, open: &str, close: &str| {
            self.state
                .characters
                .iter()
                .filter(|(n, _)| !self.unknown(n, viewer))
                .map(|(n, c)| format!("{n}{open}{}{close}", c.owner))
                .collect::<Vec<_>>()
                .join(sep)
        };
        Text::new(
            format!("キャラクター: {}", names("、", "（", "）")),
            format!("characters: {}", names(", ", " (", ")")),
        )
    }

    /// The members and their characters, as `viewer` may know them ([`Table::unknown`]).
    fn who(&self, viewer: &str) -> Text {
        let role_ja = |r: Role| match r {
            Role::Gm => "GM",
            Role::Player => "プレイヤー",
            Role::Spectator => "観戦者",
        };
        // A character the rules give the GM to play (a PC fallen to the enemy) is listed
        // under the table's GM, with why, not under its owner.
        let gm_plays = |name: &str| {
            let (rules, state) = (self.rules()?, self.state.system.as_deref()?);
            rules.gm_plays(state, name)
        };
        let lines = |en: bool| {
            self.state
                .members
                .iter()
                .map(|(m, r)| {
                    let chars: Vec<String> = self
                        .state
                        .characters
                        .iter()
                        .filter(|(n, _)| !self.unknown(n, viewer))
                        .filter_map(|(n, c)| match gm_plays(n) {
                            None => (&c.owner == m).then(|| n.clone()),
                            Some(why) => (m == &self.gm).then(|| {
                                if en {
                                    format!("{n} ({}; {}'s)", why.en(), c.owner)
                                } else {
                                    format!("{n}（{}、{}のPC）", why.ja(), c.owner)
                                }
                            }),
                        })
                        .collect();
                    match (en, chars.is_empty()) {
                        (false, true) => format!("  {m}（{}）", role_ja(*r)),
                        (false, false) => {
                            format!("  {m}（{}）: {}", role_ja(*r), chars.join("、"))
                        }
                        (true, true) => format!("  {m} ({})", r.as_str()),
                        (true, false) => format!("  {m} ({}): {}", r.as_str(), chars.join(", ")),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        Text::new(
            format!("メンバー:\n{}", lines(false)),
            format!("members:\n{}", lines(true)),
        )
    }

    /// A game system's `/` command: its events as one unit (the first event carries the
    /// typed line and the dice drawn; the rest follow it, so `/undo` and `/void` take the
    /// whole command).
    fn decide_system(
        &self,
        actor: &str,
        role: Role,
        words: &[String],
        line: &str,
    ) -> Result<Decision, Refusal> {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let unknown = || {
            refuse(
                format!(
                    "'/{}' というテーブルコマンドはありません。/help で一覧を見られます",
                    words.first().copied().unwrap_or_default()
                ),
                format!(
                    "unknown table command '/{}'; /help lists them",
                    words.first().copied().unwrap_or_default()
                ),
            )
        };
        let (Some(rules), Some(state)) = (self.rules(), self.state.system.as_deref()) else {
            return unknown();
        };
        // A spectator changes nothing and draws nothing: its system commands are refused
        // before the rules see them.
        if role == Role::Spectator
            && rules.commands().iter().any(|c| {
                c.usage
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| w.trim_start_matches('/') == words[0])
            })
        {
            return refuse(
                "観戦者はゲームのコマンドを使えません",
                "spectators cannot use the game's commands",
            );
        }
        let (key, nonce) = self.attempt_key()?;
        let mut source = ChaChaSource::from_key(key);
        let mut dice = Roller::new(&mut source);
        let outcome = match rules.decide(&self.view_as(actor), state, &words, &mut dice) {
            Some(Ok(outcome)) => outcome,
            Some(Err(why)) => return Err(why.into()),
            None => return unknown(),
        };
        let first = self.next_seq();
        let drawn: Vec<[u32; 2]> = dice.draws().iter().map(|d| [d.sides, d.value]).collect();
        let mut events = system_events(outcome.events, None);
        for (i, e) in events.iter_mut().enumerate() {
            if let EventBody::System {
                follows,
                rands,
                nonce: n,
                line: l,
                ..
            } = e
            {
                if i == 0 {
                    *l = Some(line.to_string());
                    if !drawn.is_empty() {
                        *rands = drawn.clone();
                        *n = nonce.clone();
                    }
                } else {
                    *follows = Some(first);
                }
            }
        }
        if events.is_empty() && !drawn.is_empty() {
            return refuse(
                "ゲームシステムがダイスを振ったのに記録を残しませんでした（ルール実装の不具合）",
                "the game system drew dice but recorded no event (a bug in its rules)",
            );
        }
        Ok(Decision {
            events,
            reply: outcome.reply,
        })
    }

    /// `/undo`: see [`UndoTarget`]. A line that drew randomness is never undone (the GM
    /// voids it instead), and `/undo` without a number undoes only the member's last line,
    /// so it never reaches past a later line of theirs to an older, unrelated change.
    fn decide_undo(
        &self,
        actor: &str,
        role: Role,
        target: UndoTarget,
    ) -> Result<Decision, Refusal> {
        // `/undo 35` names entry #35 unless a member is called 35 (fc5/sg5: it was read as
        // a member, and the refusal blamed dice the line never drew); a name that is no
        // member is refused as such.
        let target = match target {
            UndoTarget::Member(m) if !self.state.members.contains_key(&m) => {
                let digits: String = m
                    .trim_start_matches(['#', '＃'])
                    .chars()
                    .map(|c| match c {
                        '０'..='９' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                        c => c,
                    })
                    .collect();
                match digits.parse::<u64>() {
                    Ok(n) if digits.chars().all(|c| c.is_ascii_digit()) => UndoTarget::Seq(n),
                    _ => {
                        let shown = shown_name(&m);
                        return refuse(
                            format!(
                                "「{shown}」というメンバーはいません。/undo（自分の最後の変更）、/undo #番号、/undo メンバー のどれかで書いてください"
                            ),
                            format!(
                                "there is no member '{shown}'; write /undo (your last change), /undo #N or /undo MEMBER"
                            ),
                        );
                    }
                }
            }
            t => t,
        };
        let standing = |e: &&Event| {
            !self.undone.contains(&e.seq)
                && e.body.follows().is_none()
                && !matches!(e.body, EventBody::Undone { .. } | EventBody::Voided { .. })
        };
        let target = match target {
            UndoTarget::Last => {
                let Some(last) = self
                    .events
                    .iter()
                    .rev()
                    .filter(|e| e.actor == actor)
                    .find(standing)
                else {
                    return refuse("取り消せる行がありません", "you have no line to undo");
                };
                if !last.body.is_undoable() && !last.body.drew() {
                    return refuse(
                        format!(
                            "あなたの最後の行 #{} は変更ではないので取り消せません。前の変更を取り消すには /undo #番号",
                            last.seq
                        ),
                        format!(
                            "your last line #{} changed nothing, so there is nothing to undo; to undo an earlier change, /undo #N",
                            last.seq
                        ),
                    );
                }
                last
            }
            UndoTarget::Seq(seq) => {
                let not_undoable = || {
                    refuse(
                        format!("#{seq} は取り消せる変更ではありません"),
                        format!("#{seq} is not a change that can be undone"),
                    )
                };
                // An entry the member may not see is refused as one that is no change:
                // the refusal must not name its author.
                let Some(e) = self.event(seq).filter(|e| self.may_see(e, actor)) else {
                    return not_undoable();
                };
                if e.actor != actor && role != Role::Gm {
                    return refuse(
                        format!(
                            "#{seq} は {} の行です。取り消せるのは自分の変更だけです（GM は誰のでも）",
                            e.actor
                        ),
                        format!(
                            "#{seq} is {}'s; you can undo only your own changes (the GM: anyone's)",
                            e.actor
                        ),
                    );
                }
                e
            }
            UndoTarget::Member(member) => {
                if member != actor && role != Role::Gm {
                    return refuse(
                        "ほかのメンバーの変更を取り消せるのは GM だけです",
                        "only the GM can undo another member's change",
                    );
                }
                let Some(e) = self
                    .events
                    .iter()
                    .rev()
                    .filter(|e| e.actor == member && e.body.is_undoable())
                    .find(standing)
                else {
                    return refuse(
                        format!(
                            "{member} に取り消せる変更はありません（ロールや乱数を使った行は取り消さず、GM が /void 番号 で無効にします）"
                        ),
                        format!(
                            "{member} has no change left to undo (rolls and lines that drew randomness are never undone; the GM voids them with /void N)"
                        ),
                    );
                };
                e
            }
        };
        let seq = target.seq;
        // A command whose later events drew (a scene's end returning an MTG boost's cards
        // to the bottom in random order) drew as much as one whose first did (issue 13
        // play-through 5: `/undo` of `/scene next` let the next end redraw the order).
        let group_drew = || {
            let group: BTreeSet<u64> = state::undo_group(&self.events, seq).collect();
            self.events.iter().any(|e| {
                group.contains(&e.seq)
                    && matches!(&e.body, EventBody::System { rands, .. } if !rands.is_empty())
            })
        };
        if target.body.drew() || group_drew() {
            return refuse(
                format!(
                    "#{seq} はダイスなどの乱数を使ったので取り消せません（振り直しはできません）。GM は /void {seq} で効果を無効にできます"
                ),
                format!(
                    "#{seq} drew randomness, so it cannot be undone (nothing is ever redrawn); the GM can void its effects with /void {seq}"
                ),
            );
        }
        if let (Some(rules), EventBody::System { data, .. }) = (self.rules(), &target.body)
            && rules.reveals(data)
        {
            return refuse(
                format!(
                    "#{seq} は伏せられていたもの（ライブラリーのカードなど）を公開したので取り消せません。GM は /void {seq} で効果を無効にできます"
                ),
                format!(
                    "#{seq} showed what was hidden (cards of a library), so it cannot be undone; the GM can void its effects with /void {seq}"
                ),
            );
        }
        // Part of a line (an impression a bond applied): the whole line is what is
        // undone, as `/void` says; named only to one who may see it.
        if let Some(head) = target
            .body
            .follows()
            .filter(|h| self.event(*h).is_some_and(|e| self.may_see(e, actor)))
            && !self.undone.contains(&seq)
        {
            return refuse(
                format!("#{seq} は #{head} の一部です。/undo {head} で行全体を取り消してください"),
                format!("#{seq} is part of #{head}; /undo {head} undoes the whole line"),
            );
        }
        if !target.body.is_undoable()
            || self.undone.contains(&seq)
            || target.body.follows().is_some()
        {
            return refuse(
                format!("#{seq} は取り消せる変更ではありません"),
                format!("#{seq} is not a change that can be undone"),
            );
        }
        if let Some(refusal) = self
            .built_on(actor, seq, false)
            .or_else(|| self.creation_named_later(actor, seq, false))
        {
            return Err(refusal);
        }
        let what = self.summary(target, actor);
        Ok(Decision {
            events: vec![EventBody::Undone { event: seq }],
            reply: Some(what.map(|lang, w| match lang {
                Lang::Ja => format!("#{seq} {w} を取り消しました"),
                Lang::En => format!("undid #{seq} {w}"),
            })),
        })
    }

    /// The refusal of an undo of `seq` when a later standing entry was built on its
    /// events ([`taku_systems::table_rules::TableRules::builds_on`]). The entry is named
    /// only to a member who may see it; anyone else learns only that something later
    /// rests on it.
    fn built_on(&self, actor: &str, seq: u64, void: bool) -> Option<Refusal> {
        let rules = self.rules()?;
        let group: BTreeSet<u64> = state::undo_group(&self.events, seq).collect();
        let undone: Vec<serde_json::Value> = self
            .events
            .iter()
            .filter(|e| group.contains(&e.seq))
            .filter_map(|e| match &e.body {
                EventBody::System { data, .. } => Some(data.clone()),
                _ => None,
            })
            .collect();
        if undone.is_empty() {
            return None;
        }
        let mut later = self
            .events
            .iter()
            .filter(|e| e.seq > seq && !group.contains(&e.seq) && !self.undone.contains(&e.seq))
            .filter_map(|e| match &e.body {
                EventBody::System { data, .. } => Some((e.seq, data)),
                _ => None,
            });
        let (by, how) = rules.builds_on(&undone, &mut later, void)?;
        Some(self.rests_on(actor, seq, by, how, void))
    }

    /// The refusal of an undo or void of a character's creation (`/char new`, a sheet's
    /// import) while a later standing system entry names that character (the GM's damage,
    /// a library built, a contract, a key). Taking the creation back would leave that
    /// entry about nobody — and a new character of the same name would inherit it (an
    /// MTG library). Field lines (`/char set`) are not such entries: they fall with the
    /// creation, and a namesake starts with none. The later entry goes first, as with
    /// [`taku_systems::table_rules::TableRules::builds_on`]. A system event names the
    /// character when the name is one of its strings or keys: the name is exact at the
    /// table, and a string that merely equals it (a card of that name) errs on refusing.
    fn creation_named_later(&self, actor: &str, seq: u64, void: bool) -> Option<Refusal> {
        let group: BTreeSet<u64> = state::undo_group(&self.events, seq).collect();
        let names: Vec<&str> = self
            .events
            .iter()
            .filter(|e| group.contains(&e.seq))
            .filter_map(|e| match &e.body {
                // A creation that displaced the GM's hidden character (issue 13) leaves it
                // renamed when undone ([`State::fold_undone`]): the GM's later lines about
                // it stand, and the undo is refused or not as for a name never used.
                EventBody::CharacterCreated { name, .. } => Some(name.as_str()),
                // A GM's rename: the lines after it name the character by its new name.
                EventBody::CharacterRenamed { to, .. } => Some(to.as_str()),
                _ => None,
            })
            .collect();
        if names.is_empty() {
            return None;
        }
        fn mentions(v: &serde_json::Value, name: &str) -> bool {
            match v {
                serde_json::Value::String(s) => s == name,
                serde_json::Value::Array(a) => a.iter().any(|v| mentions(v, name)),
                serde_json::Value::Object(o) => {
                    o.iter().any(|(k, v)| k == name || mentions(v, name))
                }
                _ => false,
            }
        }
        let (by, name) = self
            .events
            .iter()
            .filter(|e| e.seq > seq && !group.contains(&e.seq) && !self.undone.contains(&e.seq))
            .find_map(|e| {
                // The table's own field lines die with the creation (their fold needs the
                // character, and a namesake made later starts empty); a system's state is
                // kept by name, so its events would pass to a namesake.
                let named = |n: &str| match &e.body {
                    EventBody::System { data, .. } => mentions(data, n),
                    _ => false,
                };
                names.iter().find(|n| named(n)).map(|n| (e.seq, *n))
            })?;
        let how = Text::new(
            format!("{name} についての記録です"),
            format!("it is about {name}"),
        );
        Some(self.rests_on(actor, seq, by, how, void))
    }

    /// The refusal of an undo or void of `seq` because the later `by` rests on it: `by`
    /// (the head of its line) is named only to a member who may see it.
    fn rests_on(&self, actor: &str, seq: u64, by: u64, how: Text, void: bool) -> Refusal {
        let head = self.event(by).and_then(|e| e.body.follows()).unwrap_or(by);
        let seen = self.event(by).is_some_and(|e| self.may_see(e, actor));
        if seen && void {
            Refusal::from(how.map(|lang, how| match lang {
                Lang::Ja => format!(
                    "#{seq} は無効にできません。後の #{head} がこれを前提にしています（{how}）。先に /void {head} をしてください"
                ),
                Lang::En => format!(
                    "#{seq} cannot be voided: the later #{head} rests on it ({how}); /void {head} first"
                ),
            }))
        } else if seen {
            Refusal::from(how.map(|lang, how| match lang {
                Lang::Ja => format!(
                    "#{seq} は取り消せません。後の #{head} がこれを前提にしています（{how}）。先に #{head} を取り消してください（GM は /void {head} もできます）"
                ),
                Lang::En => format!(
                    "#{seq} cannot be undone: the later #{head} rests on it ({how}); undo #{head} first (the GM can also /void {head})"
                ),
            }))
        } else {
            Refusal::from(Text::new(
                format!("#{seq} は後の行が前提にしているため取り消せません。GM に相談してください"),
                format!("#{seq} cannot be undone: a later entry rests on it; ask the GM"),
            ))
        }
    }

    /// `/void N` (GM): a roll or a command, randomness included, reverted as a whole; it
    /// stays in the log marked as voided and nothing is drawn again.
    fn decide_void(&self, actor: &str, role: Role, seq: u64) -> Result<Decision, Refusal> {
        if role != Role::Gm {
            return refuse(
                "無効にできるのは GM だけです",
                "only the GM can void a line",
            );
        }
        let Some(target) = self.event(seq) else {
            return refuse(
                format!("#{seq} はありません"),
                format!("there is no #{seq}"),
            );
        };
        if let Some(head) = target.body.follows() {
            return refuse(
                format!("#{seq} は #{head} の一部です。/void {head} で行全体を無効にしてください"),
                format!("#{seq} is part of #{head}; /void {head} voids the whole line"),
            );
        }
        if !target.body.is_voidable() || self.undone.contains(&seq) {
            return refuse(
                format!(
                    "#{seq} は無効にできる行ではありません（ロールか変更で、まだ取り消されていないもの）"
                ),
                format!(
                    "#{seq} cannot be voided (a roll or a change not yet undone or voided can)"
                ),
            );
        }
        // A character's creation stays while later entries name the character, whatever
        // the system (a new character of the same name must not inherit them).
        if let Some(refusal) = self.creation_named_later(actor, seq, true) {
            return Err(refusal);
        }
        // Where the system says its folds cannot take a line out from under later ones
        // (TableRules::builds_on_holds_void), the later entry is voided first.
        if self.rules().is_some_and(|r| r.builds_on_holds_void())
            && let Some(refusal) = self.built_on(actor, seq, true)
        {
            return Err(refusal);
        }
        // Likewise a scene or session change: the system's later entries were made in the
        // scene it began (a bond's scene, a per-scene limit), which the void would fold
        // back into the one before.
        if self.rules().is_some_and(|r| r.builds_on_holds_void())
            && matches!(
                target.body,
                EventBody::SceneAdvanced | EventBody::SessionEnded
            )
            && let Some(later) = self.events.iter().find(|e| {
                e.seq > seq
                    && e.body.follows() != Some(seq)
                    && !self.undone.contains(&e.seq)
                    && matches!(e.body, EventBody::System { follows: None, .. })
                    && self.may_see(e, actor)
            })
        {
            let later = later.seq;
            return refuse(
                format!(
                    "#{seq} は無効にできません。後の #{later} はこの後のシーンで記録されています（シーンごとの上限や、縁故を結んだシーンがずれます）。先に /void {later} をしてください"
                ),
                format!(
                    "#{seq} cannot be voided: the later #{later} was made in the scene it began (per-scene limits and the scenes entries were made in would shift); /void {later} first"
                ),
            );
        }
        let what = self.summary(target, actor);
        Ok(Decision {
            events: vec![EventBody::Voided { event: seq }],
            reply: Some(what.map(|lang, w| match lang {
                Lang::Ja => format!("#{seq} {w} を無効にしました"),
                Lang::En => format!("voided #{seq} {w}"),
            })),
        })
    }

    /// An event in words, for `/undo` and `/void` replies to `actor`: the line as typed
    /// if the event keeps it, else what the log says of it to them (a player undoing a
    /// creation that displaced a hidden NPC reads no GM-only note, A7-8).
    fn summary(&self, e: &Event, actor: &str) -> Text {
        match &e.body {
            EventBody::System {
                line: Some(line), ..
            } => Text::verbatim(line.clone()),
            EventBody::Roll(r) => Text::verbatim(r.typed.clone().unwrap_or(r.input.clone())),
            _ => {
                // The log line without its number and, where it has one, "actor: ".
                let entry = |lang| self.entry(e, actor, lang).text;
                let seq = format!("#{} ", e.seq);
                let actor = format!("{}: ", e.actor);
                Text::new(entry(Lang::Ja), entry(Lang::En)).map(|_, t| {
                    let t = t.strip_prefix(&seq).unwrap_or(t);
                    t.strip_prefix(&actor).unwrap_or(t).to_string()
                })
            }
        }
    }

    /// The system's events for a scene or session end, following the event at the next seq.
    fn resets(
        &self,
        hook: impl FnOnce(&dyn DynRules, &dyn SystemState) -> Vec<serde_json::Value>,
    ) -> Vec<EventBody> {
        match (self.rules(), self.state.system.as_deref()) {
            (Some(rules), Some(state)) => system_events(hook(rules, state), self.next_seq()),
            _ => Vec::new(),
        }
    }

    /// Refuses a new character `name` of `actor`'s that looks like the name of another
    /// character they may know of ([`Table::unknown`]): a hidden NPC's name is never
    /// named to a player by this refusal (issue 13).
    fn unlike_other_characters(&self, actor: &str, name: &str) -> Result<(), Refusal> {
        let known = self
            .state
            .characters
            .keys()
            .filter(|other| !self.unknown(other, actor));
        if let Some(other) = names::looks_like(name, known) {
            return refuse(
                format!(
                    "'{name}' はキャラクター '{other}' と見分けにくい名前です。別の名前にしてください"
                ),
                format!(
                    "'{name}' looks too much like the character '{other}'; choose another name"
                ),
            );
        }
        // Attack pass 7, A7-10: the rule a member's name keeps toward characters (A6-2)
        // holds the other way: a character named as another member (`gm`, `alice`), or
        // like one, would have its lines read as that member's. A character may carry its
        // own player's name.
        let members = self
            .state
            .members
            .keys()
            .chain(self.state.removed.iter())
            .filter(|m| m.as_str() != actor);
        match names::same_or_like(name, members) {
            Some(other) => refuse(
                format!(
                    "'{name}' はメンバー '{other}' と同じか見分けにくい名前で、キャラクターの発言がそのメンバーのものに見えてしまいます。別の名前にしてください"
                ),
                format!(
                    "'{name}' is or looks like the member '{other}', so the character's lines would read as theirs; choose another name"
                ),
            ),
            None => Ok(()),
        }
    }

    /// Refuses setting by hand a field the system's rules keep
    /// ([`taku_systems::table_rules::OwnedField`]), unless `actor` is a GM and the rules
    /// let the GM set it; the refusal says what changes it.
    fn not_kept_by_rules<'k>(
        &self,
        actor: &str,
        keys: impl Iterator<Item = &'k str>,
    ) -> Result<(), Refusal> {
        let Some(rules) = self.rules() else {
            return Ok(());
        };
        let gm = self.is_gm(actor);
        for key in keys {
            let Some(owned) = rules.owned_fields().iter().find(|o| o.matches(key)) else {
                continue;
            };
            if gm && owned.gm_may_set {
                continue;
            }
            let who = if owned.gm_may_set {
                ("（GM は手で変えられます）", " (a GM may set it by hand)")
            } else {
                ("", "")
            };
            return refuse(
                format!(
                    "「{key}」はルールが管理する欄なので手では変えられません{}。{}",
                    who.0, owned.how
                ),
                format!(
                    "'{key}' is kept by the rules, so it cannot be set by hand{}; {}",
                    who.1, owned.how_en
                ),
            );
        }
        Ok(())
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
            .and_then(|i| self.events.get(i.checked_sub(self.offset)?))
            .or_else(|| self.outside.get(&seq))
    }

    /// Folds one event into the state and appends it to the log.
    fn fold(&mut self, event: Event) {
        match event.body {
            EventBody::Undone { event: target } | EventBody::Voided { event: target } => {
                let group: Vec<u64> = state::undo_group(&self.events, target).collect();
                if matches!(event.body, EventBody::Voided { .. }) {
                    Arc::make_mut(&mut self.voided).extend(group.iter().copied());
                }
                Arc::make_mut(&mut self.undone).extend(group);
                self.events.push(event);
                self.refold();
            }
            _ => {
                let rules = self.rules();
                if !self.undone.contains(&event.seq) {
                    Arc::make_mut(&mut self.state).fold(rules, &event);
                } else {
                    let voided = self.voided.contains(&event.seq);
                    Arc::make_mut(&mut self.state).fold_undone(rules, &event, voided);
                }
                self.events.push(event);
            }
        }
    }

    /// Folds the state again from the log, without the undone events.
    fn refold(&mut self) {
        let rules = self.rules();
        let mut state = State::new(&self.gm, self.system);
        for e in &self.events {
            if !self.undone.contains(&e.seq) {
                state.fold(rules, e);
            } else {
                state.fold_undone(rules, e, self.voided.contains(&e.seq));
            }
        }
        self.state = Arc::new(state);
    }
}

/// The changes `/char set` or a sheet makes to `ch`, each with the value before it;
/// `checked`: the rules, the table as the setter sees it and its system's state, and the
/// character's name, when the table has rules.
fn changes(
    checked: Option<(&dyn DynRules, Ctx<'_>, &dyn SystemState, &str)>,
    ch: &Character,
    fields: Vec<(String, String)>,
) -> Result<Vec<FieldChange>, Refusal> {
    let mut now = ch.fields.clone();
    let mut out = Vec::new();
    for (key, value) in fields {
        let key = field_key(&key);
        check_name(Text::new("キー", "key"), &key)?;
        if value.chars().count() > 1000 || value.chars().any(char::is_control) {
            return refuse(
                format!("{key} の値が長すぎるか制御文字を含みます（1000 文字まで）"),
                format!(
                    "the value of {key} is too long or has control characters (at most 1000 characters)"
                ),
            );
        }
        let previous = now.insert(key.clone(), value.clone());
        out.push(FieldChange {
            key,
            value,
            previous,
        });
    }
    // The rules check each value against the character as the whole line leaves it (a
    // current value within its maximum, a number where the rules read one).
    // Knowing who sets them (a value only the GM may change once the character is made).
    if let Some((rules, table, state, name)) = checked {
        for change in &mut out {
            change.value =
                rules.field_value_by(&table, state, name, &change.key, &change.value, &now)?;
        }
        // A field the rules keep beside one the line changes (the maximum 【HP】 a first
        // wound would otherwise lose), unless the line sets it too.
        let mut implied = Vec::new();
        for change in &out {
            if let Some((key, value)) =
                rules.implied_field(&change.key, change.previous.as_deref(), &change.value, &now)
                && !now.contains_key(&key)
            {
                now.insert(key.clone(), value.clone());
                implied.push(FieldChange {
                    key,
                    value,
                    previous: None,
                });
            }
        }
        out.extend(implied);
    }
    Ok(out)
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
            nonce: None,
            line: None,
        })
        .collect()
}

/// What a system's rules see of a table while deciding one member's line.
struct Ctx<'a> {
    table: &'a Table,
    actor: &'a str,
    line: Option<&'a str>,
    /// The characters the actor may not know of ([`Table::unknown`]) are left out: set
    /// for a member who is not a GM, so that the rules answer a command naming one as
    /// they answer a name never used.
    blind: bool,
}

impl TableView for Ctx<'_> {
    fn actor(&self) -> &str {
        self.actor
    }
    fn actor_is_gm(&self) -> bool {
        self.table.is_gm(self.actor)
    }
    fn character(&self, name: &str) -> Option<(&str, &BTreeMap<String, String>)> {
        let c = self.table.state.characters.get(name)?;
        if self.blind && self.table.unknown(name, self.actor) {
            return None;
        }
        Some((c.owner.as_str(), &c.fields))
    }
    fn characters(&self) -> Vec<(&str, &str)> {
        self.table
            .state
            .characters
            .iter()
            .filter(|(n, _)| !(self.blind && self.table.unknown(n, self.actor)))
            .map(|(n, c)| (n.as_str(), c.owner.as_str()))
            .collect()
    }
    fn member_is_gm(&self, member: &str) -> bool {
        self.table.is_gm(member)
    }
    fn scene_and_session(&self) -> (u64, u64) {
        self.table.scene_and_session()
    }
    fn typed_line(&self) -> Option<&str> {
        self.line
    }
    fn character_like(&self, name: &str) -> Option<String> {
        let known: Vec<String> = self
            .characters()
            .into_iter()
            .map(|(n, _)| n.to_string())
            .collect();
        names::same_or_like(name, known.iter()).map(str::to_string)
    }
    fn look_alike(&self, name: &str) -> Option<String> {
        let t = self.table;
        let owner = t.state.characters.get(name).map(|c| c.owner.as_str());
        let characters = t
            .state
            .characters
            .keys()
            .filter(|c| !(self.blind && t.unknown(c, self.actor)));
        let members = t
            .state
            .members
            .keys()
            .chain(t.state.removed.iter())
            .filter(|m| Some(m.as_str()) != owner);
        names::looks_like(name, characters)
            .or_else(|| names::same_or_like(name, members))
            .map(str::to_string)
    }
}

/// Every seq a log reverts (the targets of its `Undone` and `Voided` events and what
/// follows from them), and those voided.
fn undone_in(events: &[Event]) -> (BTreeSet<u64>, BTreeSet<u64>) {
    let mut undone = BTreeSet::new();
    let mut voided = BTreeSet::new();
    for e in events {
        match e.body {
            EventBody::Undone { event } => {
                undone.insert(event);
            }
            EventBody::Voided { event } => {
                undone.insert(event);
                voided.insert(event);
            }
            _ => {}
        }
    }
    for e in events {
        if let Some(cause) = e.body.follows() {
            if voided.contains(&cause) {
                voided.insert(e.seq);
            }
            if undone.contains(&cause) {
                undone.insert(e.seq);
            }
        }
    }
    (undone, voided)
}

/// The longest line a member may send, in characters.
pub const MAX_LINE: usize = 4000;

/// The most chat tabs the GM may add.
pub const MAX_TABS: usize = 16;
/// The longest tab name, in characters.
pub const MAX_TAB_NAME: usize = 20;

/// The largest sheet file, in bytes.
pub const MAX_SHEET: usize = 32 * 1024;

/// The prefix of the fields that hold a character's chat palette, one line each
/// (`palette.1`, `palette.2`, …; a CCFOLIA import writes them): seen only by the
/// character's owner and the GMs, in the state and in the log alike.
pub const PALETTE_FIELD: &str = "palette.";

/// Characters one table may have (attack pass 3, A3-6: 300 imported sheets made the
/// table's state 53 MB, 12 s and 1.5 GB a request, fetched by every browser). A player's
/// creation counts only the characters they may know of (issue 13: the GM's hidden NPCs
/// are not revealed by a refusal), so a table with hidden NPCs may pass it by at most
/// `MAX_CHARACTERS - GM_CHARACTERS`: under twice this, still bounded.
pub const MAX_CHARACTERS: usize = 100;

/// Characters one player (not a GM) may own at a table (attack pass 4, A4-5).
pub const PLAYER_CHARACTERS: usize = 10;

/// Characters of a table's [`MAX_CHARACTERS`] kept for its GMs (A4-5).
pub const GM_CHARACTERS: usize = 10;

/// Fields one character may have (its palette lines included).
pub const MAX_FIELDS: usize = 300;

/// Bytes of keys and values one character's fields may take.
pub const MAX_FIELD_BYTES: usize = 32 * 1024;

/// A line is at most [`MAX_LINE`] characters.
fn check_line(line: &str) -> Result<(), Refusal> {
    if line.chars().count() > MAX_LINE {
        return refuse(
            format!("行が長すぎます（{MAX_LINE} 文字まで）"),
            format!("the line is too long (at most {MAX_LINE} characters)"),
        );
    }
    Ok(())
}

/// `line` as a table command reads it: a leading full-width `／` followed by a letter
/// (`／ｗ`, `／char`) is `/`, and the command word (up to the first space) is folded
/// from full-width to ASCII lower case (`／Ｗ` is `/w`); the rest, the command's text, is
/// kept as typed. Other lines (chat such as `／(^o^)＼`) are returned as they are.
pub fn command_form(line: &str) -> std::borrow::Cow<'_, str> {
    let fold = |c: char| match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        c => c,
    };
    // A5-4: characters that draw nothing before the slash (a byte-order mark or a
    // zero-width space pasted with the text) do not turn a whisper into public chat: the
    // author sees `/w alice …` in their input, and so the line is that command.
    let line = match line.trim_start_matches(|c: char| invisible(c) || c.is_whitespace()) {
        bare if bare.starts_with(['/', '／']) => bare,
        _ => return std::borrow::Cow::Borrowed(line),
    };
    let Some(rest) = line.strip_prefix('／').or_else(|| line.strip_prefix('/')) else {
        return std::borrow::Cow::Borrowed(line);
    };
    let end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
    let (word, tail) = rest.split_at(end);
    let folded: String = word
        .chars()
        .map(fold)
        .collect::<String>()
        .to_ascii_lowercase();
    if line.starts_with('／') && !folded.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return std::borrow::Cow::Borrowed(line);
    }
    // W9-15: typed with the IME left in full width, the word after the command
    // (`／ｃｈａｒ　ｓｅｔ`, `／ｌａｎｇ　ｅｎ`) is folded too when it is full-width
    // Latin letters only; what follows it is kept as typed.
    let after = tail.trim_start_matches(char::is_whitespace);
    let gap = &tail[..tail.len() - after.len()];
    let end = after.find(char::is_whitespace).unwrap_or(after.len());
    let (second, rest) = after.split_at(end);
    let wide = |c: char| matches!(c, '\u{FF21}'..='\u{FF3A}' | '\u{FF41}'..='\u{FF5A}');
    let second: std::borrow::Cow<'_, str> = if !second.is_empty() && second.chars().all(wide) {
        std::borrow::Cow::Owned(second.chars().map(fold).collect())
    } else {
        std::borrow::Cow::Borrowed(second)
    };
    if line.starts_with('/') && folded == word && matches!(second, std::borrow::Cow::Borrowed(_)) {
        return std::borrow::Cow::Borrowed(line);
    }
    // An ideographic space after the word separates like a space.
    std::borrow::Cow::Owned(format!("/{folded}{gap}{second}{rest}"))
}

/// A line as it will be kept (issue 18): no raw control characters, so no one can clear
/// or recolour a terminal showing the log, nor forge an entry on a line of its own. A
/// newline becomes a visible break `↵`, a tab a space, and any other control or bidi
/// character its escape (`\u{1b}`), as does a bidi override (which would reorder what
/// follows it).
pub fn visible_line(line: &str) -> std::borrow::Cow<'_, str> {
    let hidden = hidden_in_line;
    if !line
        .chars()
        .any(|c| hidden(c) || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            // Attack pass 8, A8-4: the line and paragraph separators break a line where
            // text is laid out by Unicode's rules (browsers): a forged `#75 gm: …` would
            // start a line of its own.
            '\n' | '\r' | '\u{2028}' | '\u{2029}' => out.push_str(" ↵ "),
            '\t' => out.push(' '),
            c if hidden(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The first character of `line` that draws nothing and joins nothing (attack pass 8,
/// A8-4): a byte-order mark or word joiner, a Hangul blank filler, the combining
/// grapheme joiner, or a tag character outside a flag's tag sequence (tags spell
/// invisible text; a flag is a black flag U+1F3F4 followed by tags). Zero-width joiners
/// and variation selectors stay: emoji and scripts need them.
///
/// What draws nothing before the first visible character is left to the line's reader
/// (A5-4: a byte-order mark pasted before `/w` changes nothing).
fn blank_in_line(line: &str) -> Option<char> {
    let mut in_flag = false;
    let mut after_space = false;
    let line = line.trim_start_matches(|c: char| c.is_whitespace() || invisible(c));
    line.chars().find(|&c| {
        let tag = matches!(c, '\u{E0000}'..='\u{E007F}');
        let blank = match c {
            // A byte-order mark opening a pasted text (a deck list after `/deck load`).
            '\u{FEFF}' => !after_space,
            '\u{2060}'..='\u{2064}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{3164}'
            | '\u{FFA0}'
            | '\u{034F}' => true,
            _ if tag => !in_flag,
            '\u{E0080}'..='\u{E0FFF}' => true,
            _ => false,
        };
        in_flag = c == '\u{1F3F4}' || (in_flag && tag && c != '\u{E007F}');
        after_space = c.is_whitespace();
        blank
    })
}

/// A control or bidi character, which a line may not show as it is ([`visible_line`]).
fn hidden_in_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Names are one word of at most 64 characters, without control characters, and without
/// anything that would let one name display as another (issue 18): invisible format
/// characters (zero-width, bidi overrides, joiners, variation selectors, blank fillers)
/// are refused, and so are compatibility forms of ASCII letters and digits (full-width `ｇｍ`, mathematical
/// `𝐠𝐦`, circled `ⓖⓜ`), with the plain spelling suggested: `ｇｍ`, `gm\u{200b}` and
/// `g\u{202e}m` can never pass for `gm`.
/// Punctuation the log's text forms use round a member's name (`#7 gm: …`, `[雑談]`,
/// `gm ≫ alice（ささやき）`), refused in member names (attack pass 3, A3-7: players named
/// `gm:` and `gm≫alice（ささやき）:` made their chat read as the GM's roll or a whisper
/// in the text log, exports and bots).
const LOG_PUNCTUATION: &[char] = &[
    ':', '：', '>', '＞', '≫', '»', '›', '#', '＃', '[', ']', '［', '］', '（', '）', '「', '」',
];

fn check_member_punctuation(name: &str) -> Result<(), Refusal> {
    match name.chars().find(|c| LOG_PUNCTUATION.contains(c)) {
        None => Ok(()),
        Some(c) => refuse(
            format!(
                "'{name}' はメンバー名に使えません。ログの書式に使う記号（{c}）はほかの発言やささやきに見せかけられるため、名前には使えません"
            ),
            format!(
                "'{name}' is not a valid member name: '{c}' is punctuation the log itself uses, and a name with it can pass for another member's line or a whisper"
            ),
        ),
    }
}

/// A character's name is what a roll's `{CHARACTER.KEY}` reference names before its
/// first `.`, so a name with `.` (or a brace) could never be addressed: `{ユキ.剣.DX}`
/// reads character ユキ's key `剣.DX`, and `ユキ.剣` would shadow `{ユキ.剣}`.
fn check_character_punctuation(name: &str) -> Result<(), Refusal> {
    match name.chars().find(|c| matches!(c, '.' | '{' | '}')) {
        None => Ok(()),
        Some(c) => refuse(
            format!(
                "'{name}' はキャラクター名に使えません。「{c}」はロールの {{キャラクター.キー}} の書式に使う記号で、この名前のキャラクターは参照できなくなります"
            ),
            format!(
                "'{name}' is not a valid character name: '{c}' is part of a roll's {{CHARACTER.KEY}} reference, and a character so named could not be referred to"
            ),
        ),
    }
}

/// Characters that draw nothing, or reorder or restyle their neighbours.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
        | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF9}'..='\u{FFFB}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

/// A name as a refusal shows it: its invisible characters made visible, at most its first
/// 20 characters with the length.
fn shown_name(name: &str) -> String {
    let mut shown: String = name
        .chars()
        .take(20)
        .map(|c| {
            if c.is_control() || invisible(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    let count = name.chars().count();
    if count > 20 {
        shown.push_str(&format!("…({count})"));
    }
    shown
}

fn check_name(what: Text, name: &str) -> Result<(), Refusal> {
    let ok = !name.is_empty()
        && name.chars().count() <= 64
        && !name
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || invisible(c))
        && !name.starts_with('/');
    if !ok {
        // The refusal shows what was sent, its invisible characters made visible, and at
        // most its first 20 characters with the length (issue 13 play-through 5: a
        // 3,000-character name was echoed whole).
        let shown = shown_name(name);
        return refuse(
            format!(
                "'{shown}' は{}に使えません。空白・制御文字・見えない文字のない 64 文字までの 1 語にしてください",
                what.ja()
            ),
            format!(
                "'{shown}' is not a valid {}: use one word of at most 64 characters, without control or invisible characters",
                what.en()
            ),
        );
    }
    if let Some(plain) = names::compatibility_form(name) {
        return refuse(
            format!(
                "'{name}' は{}に使えません。全角・半角カナ・飾り文字などは '{plain}' と書いてください",
                what.ja()
            ),
            format!(
                "'{name}' is not a valid {}: write full-width, half-width and styled characters plainly, as '{plain}'",
                what.en()
            ),
        );
    }
    if let Some(mark) = names::loose_mark(name) {
        let code = mark.escape_unicode();
        return refuse(
            format!(
                "'{name}' は{}に使えません。文字に重ねる記号（{code}）は、打ち消し線や下線のように別の名前を飾って見せられるため使えません。記号なしで書いてください",
                what.ja()
            ),
            format!(
                "'{name}' is not a valid {}: a combining mark on its own ({code}) can dress up another name (struck through, underlined); write the name without it",
                what.en()
            ),
        );
    }
    if let Some(c) = names::foreign_letter(name) {
        let code = c.escape_unicode();
        return refuse(
            format!(
                "'{name}' は{}に使えません。「{c}」（{code}）はラテン文字などとそっくりに見える文字の多い書き方の文字です。日本語・英字・ギリシア文字・キリル文字・ハングルと半角数字で書いてください",
                what.ja()
            ),
            format!(
                "'{name}' is not a valid {}: '{c}' ({code}) is of a script whose letters can pass for Latin ones; write it in Japanese, Latin, Greek, Cyrillic or Hangul letters and ASCII digits",
                what.en()
            ),
        );
    }
    if let Some((a, b)) = names::mixed_scripts(name) {
        return refuse(
            format!(
                "'{name}' は{}に使えません。{a} と {b} の文字が混ざっていて、別の名前に見えるおそれがあります。どちらか一方の文字で書いてください",
                what.ja()
            ),
            format!(
                "'{name}' is not a valid {}: it mixes {a} and {b} letters, which can pass for another name; write it in one script",
                what.en()
            ),
        );
    }
    Ok(())
}
