//! What a game system adds to a table: its own state, its `/` commands, how its events
//! fold into that state, resets at scene and session ends, who may see each of its
//! events, and checks that read table state (a modifier from a character, an effect that
//! applies to the next roll).
//!
//! A system writes [`TableRules`] with its own typed state and event types; tables hold it
//! as [`DynRules`] (implemented for every `TableRules`), which stores events as JSON so the
//! table crate needs no knowledge of any system. Designed for the five systems of the
//! rules digests: contracts and command spells (AW-5), event keys visible to their holder
//! only (AW-6), AF checks over rounds (AW-7), a library of cards whose order is the state
//! (MT-2), per-scene and per-session refills.
//!
//! Folds must be total: a table reverts an `/undo`ne change by folding its log again
//! without it, so an event may meet a state in which what it changes no longer exists,
//! and must then change nothing.

use crate::view::Section;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::Debug;
use taku_dice::{RollResult, Roller, Text};

/// What a system's rules may read of the table.
pub trait TableView {
    /// The member whose line is being decided.
    fn actor(&self) -> &str;
    /// Whether that member is a GM.
    fn actor_is_gm(&self) -> bool;
    /// A character's owner and fields.
    fn character(&self, name: &str) -> Option<(&str, &BTreeMap<String, String>)>;
    /// Every character's name and owner, by name.
    fn characters(&self) -> Vec<(&str, &str)>;
    /// Whether `member` is a GM of the table.
    fn member_is_gm(&self, member: &str) -> bool;
    /// Current scene and session numbers, from 1.
    fn scene_and_session(&self) -> (u64, u64);
    /// The line as the member typed it, `{…}` references unresolved, while a roll is
    /// prepared and after it (`prepare_check`, `after_roll`): the references say whose
    /// field, which ability, a check used. `None` elsewhere.
    fn typed_line(&self) -> Option<&str> {
        None
    }
    /// The character, among those the actor may know of, that `name` is or could be
    /// taken for (a look-alike such as `Rоy` with a Cyrillic `о` for `Roy`). `None` by
    /// default.
    fn character_like(&self, _name: &str) -> Option<String> {
        None
    }
    /// Another character's name or a member's (not the owner of `name`) that character
    /// `name` could be taken for: the very name or a look-alike, by the table's own name
    /// rule (`Boss` and `boss`), among the names the actor may know. The default: none.
    fn look_alike(&self, _name: &str) -> Option<String> {
        None
    }
}

/// One `/` command a system adds, for `/help`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandHelp {
    /// Usage with an example (`/spell use 令呪 ...`).
    pub usage: &'static str,
    /// What it does, in Japanese.
    pub help: &'static str,
    /// What it does, in English.
    pub help_en: &'static str,
}

impl CommandHelp {
    /// What it does, in both languages.
    pub fn text(&self) -> Text {
        Text::new(self.help, self.help_en)
    }
}

/// Who may see a system event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Audience {
    /// Every member.
    All,
    /// GMs only: a GM-only fact.
    Gm,
    /// GMs and the owner of this character (a player's own event key).
    GmAndOwnerOf(String),
    /// GMs and the owners of these characters (a key passed from one PC to another).
    GmAndOwnersOf(Vec<String>),
    /// The owner of this character only, when not a GM: a player's copy of what another
    /// entry shows the GMs in fuller form (a GM reading both would read it twice).
    OwnerOnly(String),
}

/// What a system command decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome<E> {
    /// Events to append, in order.
    pub events: Vec<E>,
    /// A reply only the sender sees.
    pub reply: Option<Text>,
}

/// A check about to be rolled, as the system's rules change it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared<E> {
    /// The command to evaluate (with a modifier added, say).
    pub command: String,
    /// Events appended after the roll (the effect it used up).
    pub events: Vec<E>,
    /// A note shown after the roll's text (`令呪 +20`), so the text says what changed it.
    pub note: Option<Text>,
}

/// A character field a system's table rules keep: derived from other fields (a move
/// from 【行動値】) or tracked by the system's commands (command spells, event keys). A
/// member's `/char set` of it, or a sheet carrying it, is refused with what changes it
/// instead, so that nobody shows a hand-made value beside the rules' own; a GM may set it
/// when `gm_may_set` (the seed leaves the value to the GM). Declared by
/// [`TableRules::owned_fields`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnedField {
    /// The names a sheet or `/char set` may use for it (`令呪`, `command spells`): compared
    /// with 【】, spaces, `_`, `-`, a `.max`/`上限` suffix and ASCII case left out, and
    /// full-width letters and digits read as ASCII ([`field_name`]).
    pub keys: &'static [&'static str],
    /// What changes it, in Japanese (`/spell で使います`).
    pub how: &'static str,
    /// What changes it, in English.
    pub how_en: &'static str,
    /// Whether a GM may still set it by hand.
    pub gm_may_set: bool,
}

impl OwnedField {
    /// Whether the field key `key` (as typed or as stored) names this field.
    pub fn matches(&self, key: &str) -> bool {
        let key = field_name(key);
        self.keys.iter().any(|k| field_name(k) == key)
    }
}

/// A field name as [`OwnedField`] compares it: `【HP】上限`, `hp.max` and `ＨＰ` are `hp`.
pub fn field_name(key: &str) -> String {
    let key = key.trim();
    let key = key
        .strip_suffix(".max")
        .or_else(|| key.strip_suffix("上限"))
        .unwrap_or(key);
    key.chars()
        .filter_map(|c| {
            let c = match c {
                '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                _ => c,
            };
            (!matches!(c, '【' | '】' | ' ' | '\u{3000}' | '_' | '-'))
                .then(|| c.to_ascii_lowercase())
        })
        .collect()
}

/// A game system's table rules, with its own state and event types.
pub trait TableRules: Send + Sync + 'static {
    /// Everything the system tracks at a table.
    type State: Clone + Default + Debug + Serialize + Send + Sync + 'static;
    /// What happened, as the log keeps it.
    type Event: Serialize + DeserializeOwned + Debug;

    /// The system's `/` commands.
    fn commands(&self) -> &'static [CommandHelp];

    /// Decides a `/` command (`words` without the slash); `None` if it is not this
    /// system's. `Err` is a refusal saying what was wrong and what would be right. Dice
    /// come from `dice`, the table's recorded source for this line (the table stores the
    /// draws with the events and `verify` replays them); record what they gave in the
    /// events.
    fn decide(
        &self,
        table: &dyn TableView,
        state: &Self::State,
        words: &[&str],
        dice: &mut Roller<'_>,
    ) -> Option<Result<Outcome<Self::Event>, Text>>;

    /// Folds one of the system's events, appended by `actor`, into the state.
    fn fold(&self, state: &mut Self::State, actor: &str, event: &Self::Event);

    /// The character fields these rules keep, which members may not set by hand (see
    /// [`OwnedField`]). The default: none.
    fn owned_fields(&self) -> &'static [OwnedField] {
        &[]
    }

    /// Character fields an event sets, as (character, key, value): a value the rules
    /// track kept in the character's own field, so that the sheet, `{KEY}` references and
    /// `/char set` read and change one value. The table applies them when it folds the
    /// event (and reverts them with it). The default: none.
    fn field_changes(&self, _event: &Self::Event) -> Vec<(String, String, String)> {
        Vec::new()
    }

    /// For `taku table verify`: whether the events of one line (or of one scene end), in
    /// order, follow from the state they met and the draws recorded with them (`line`:
    /// the line as typed, when the log kept it). `Err` says what differs. The default
    /// accepts everything (the draws themselves are checked against the table's seed
    /// elsewhere).
    fn replay(
        &self,
        _state: &Self::State,
        _actor: &str,
        _line: Option<&str>,
        _events: &[Self::Event],
        _rands: &[[u32; 2]],
    ) -> Result<(), Text> {
        Ok(())
    }

    /// For `/undo`: whether `later`, an event still standing after the line being undone,
    /// was built on that line's events (`undone`, in order): a skill learned on the
    /// strength of one the undo would take back, an ability used after it was gained.
    /// `Some` says how, and the undo is refused until the later entry is undone first
    /// (or the GM voids it), so that no standing entry rests on one the log no longer
    /// has. The default: nothing depends on anything.
    fn builds_on(&self, _later: &Self::Event, _undone: &[Self::Event]) -> Option<Text> {
        None
    }

    /// Whether [`TableRules::builds_on`] also holds the GM's `/void` of a line: the void is
    /// refused, naming the later entry to void first, when the system's folds cannot take
    /// the earlier line out from under the later ones (an MTG library a later shuffle
    /// rewrote; an AF total a later roll counted on). The default: a void goes through.
    fn builds_on_holds_void(&self) -> bool {
        false
    }

    /// For the GM's `/void` where [`TableRules::builds_on_holds_void`]: whether `later`
    /// rests on `undone` so that voiding them is refused. The default is
    /// [`TableRules::builds_on`]; a system overrides it where a later entry only records
    /// that an earlier one stands (a scene's uses settled, which holds a player's undo
    /// but is the very thing the GM's void may take back).
    fn void_builds_on(&self, later: &Self::Event, undone: &[Self::Event]) -> Option<Text> {
        self.builds_on(later, undone)
    }

    /// A value a member's `/char set` (or a sheet) gives field `key` of a character,
    /// checked by the rules: `fields` are the character's fields as the whole line would
    /// leave them. `Ok` is the value to store (full-width digits read as ASCII, say);
    /// `Err` says what was wrong and what the field allows. The default: as typed.
    fn field_value(
        &self,
        _key: &str,
        value: &str,
        _fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        Ok(value.to_string())
    }

    /// [`TableRules::field_value`] knowing who sets the field of which character: the
    /// setter is `table.actor()` (`table.actor_is_gm()`), and `table.character(name)` is
    /// the character before the line (`None`: a sheet creating it); `fields` are its
    /// fields as the whole line would leave them. For values only a GM (or nobody) may
    /// change once the character is made, such as an attribute after creation. The
    /// default: [`TableRules::field_value`].
    fn field_value_by(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        _name: &str,
        key: &str,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        self.field_value(key, value, fields)
    }

    /// A field the rules set beside a `/char set` of field `key` from `previous` to
    /// `value` (already checked by [`TableRules::field_value_by`]), when the line does not
    /// set it itself: `fields` are the character's fields as the line leaves them. For a
    /// value whose meaning the change would lose, such as the maximum 【HP】 a wounded
    /// character heals up to. The default: none.
    fn implied_field(
        &self,
        _key: &str,
        _previous: Option<&str>,
        _value: &str,
        _fields: &BTreeMap<String, String>,
    ) -> Option<(String, String)> {
        None
    }

    /// What a `{NAME.KEY}` reference says when character `name` has no field `key`,
    /// instead of the table's 「/char set NAME KEY 値 で設定してください」, for a key these
    /// rules do not let a member make by hand (a skill that comes from the sheet or an
    /// advancement, a value the rules keep). `table.actor()` is the one rolling. The
    /// default: a field the rules own ([`TableRules::owned_fields`]) says what changes it;
    /// any other key gets the table's hint.
    fn missing_field(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        name: &str,
        key: &str,
    ) -> Option<Text> {
        let owned = self.owned_fields().iter().find(|f| f.matches(key))?;
        Some(Text::new(
            format!(
                "{name} に「{key}」の欄はありません。「{key}」はルールが管理するので手では作れません。{}",
                owned.how
            ),
            format!(
                "{name} has no field '{key}'; '{key}' is kept by the rules and cannot be made by hand: {}",
                owned.how_en
            ),
        ))
    }

    /// Whether field `key` of character `name` is one the rules' own sheet sections
    /// ([`TableRules::character_sheet`]) show, in the value the rules use: the table then
    /// leaves the field as typed out of the sheet, so that each value is shown once (an
    /// imported sheet's `DX` beside the record's 「DX（敏捷性）」). `table.actor()` is the
    /// viewer. The default: every typed field is shown.
    fn shown_by_rules(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        _name: &str,
        _key: &str,
    ) -> bool {
        false
    }

    /// Whether character `name`, though a member owns it, is now the GM's to play (a PC
    /// fallen to the enemy): `Some` says why, and `/who` lists it under the GM with
    /// that. The default: none is.
    fn gm_plays(&self, _state: &Self::State, _name: &str) -> Option<Text> {
        None
    }

    /// Whether character `name`'s data (its fields, what is derived from them) is hidden
    /// from `table.actor()`, who is neither a GM nor its owner: `Some` says why (an enemy
    /// not yet identified), and the table then shows that member neither its sheet, nor
    /// the log lines that set its fields, nor its values through `{NAME.KEY}`. The
    /// default: nothing is hidden.
    fn hidden_character(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        _name: &str,
    ) -> Option<Text> {
        None
    }

    /// Whether the rules have put the name of character `name`, hidden from
    /// `table.actor()` ([`TableRules::hidden_character`]), before every member (an enemy in
    /// a combat they fight), so that they may name it in a command though its data stays
    /// hidden. A hidden character whose name is not shown is, for that member, a name never
    /// used: every command naming it answers as for no character at all (issue 13). The
    /// default: no hidden name is shown.
    fn hidden_name_shown(&self, _state: &Self::State, _name: &str) -> bool {
        false
    }

    /// Character `from` is now named `to` (a GM's hidden character displaced by a player's
    /// of the same name, issue 13): the rules' state kept by name follows it. Folds after
    /// the rename name it `to`. The default: nothing is kept by name.
    fn rename_character(&self, _state: &mut Self::State, _from: &str, _to: &str) {}

    /// Folds an event the GM voided, at its place in the log: a void reverts what the
    /// event changed, not what members saw (cards a check revealed stay known, say).
    /// Called instead of [`TableRules::fold`] for a voided event (an undone one is
    /// skipped). The default changes nothing.
    fn fold_voided(&self, _state: &mut Self::State, _actor: &str, _event: &Self::Event) {}

    /// Folds an event undone by `/undo` (not voided), at its place in the log: the undo
    /// takes back what the event changed, not what members read, for its line stays in
    /// their log marked undone (Another World: an NPC's name put before the players stays
    /// a name they know, aw8 F4). Called instead of [`TableRules::fold`] for an undone
    /// event; a voided one goes to [`TableRules::fold_voided`]. The default changes
    /// nothing.
    fn fold_undone(&self, _state: &mut Self::State, _actor: &str, _event: &Self::Event) {}

    /// One line of log text for an event.
    fn describe(&self, event: &Self::Event) -> Text;

    /// Who may see an event.
    fn audience(&self, _event: &Self::Event) -> Audience {
        Audience::All
    }

    /// Whether an event showed what was hidden (cards from a library): like a line that
    /// drew randomness, its line is never undone, only voided by the GM, since taking it
    /// back would let a player look and try again.
    fn reveals(&self, _event: &Self::Event) -> bool {
        false
    }

    /// Why the scene or the session cannot end now, if it cannot (an MTG check waiting
    /// for its boost decision: 「行動判定が始まってから…終わるまでは、いかなるプレイヤーも、
    /// 優先権を得ません」). The default: it can.
    fn holds_scene_end(&self, _state: &Self::State) -> Option<Text> {
        None
    }

    /// Events appended when the GM starts the next scene; `dice` is recorded on the first
    /// of them (cards that go back in random order, say).
    fn on_scene_end(&self, _state: &Self::State, _dice: &mut Roller<'_>) -> Vec<Self::Event> {
        Vec::new()
    }

    /// Events appended when the GM ends the session (refills, say).
    fn on_session_end(&self, _state: &Self::State) -> Vec<Self::Event> {
        Vec::new()
    }

    /// Events that follow a roll the actor just made (`command` as evaluated): an AF
    /// check adding its achievement, say. They stand and fall with the roll.
    fn after_roll(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        _command: &str,
        _result: &RollResult,
    ) -> Vec<Self::Event> {
        Vec::new()
    }

    /// Events that follow a secret roll when it is revealed: what the rules hold back
    /// while the roll is secret because recording it would tell the result (Four Card's
    /// automatic-failure fatigue, FC-9). `table` is the table as the roller sees it, with
    /// the roll's line as typed (`typed_line`); `command` is the roll as evaluated and
    /// `rands` its draws, `[sides, value]`. They follow the roll, so voiding it reverts
    /// them too. The default adds nothing.
    fn after_reveal(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        _command: &str,
        _rands: &[[u32; 2]],
    ) -> Vec<Self::Event> {
        Vec::new()
    }

    /// The sections the system adds to character `name`'s sheet (derived values,
    /// contracts, command spells, keys), as the actor may see them: a part the actor may
    /// not see is left out. Shown by `/char show`, the API's state and the web table.
    fn character_sheet(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        _name: &str,
        _viewer_is_gm: bool,
    ) -> Vec<Section> {
        Vec::new()
    }

    /// The system's state of the whole table, not of one character (a combat's order and
    /// whose turn it is, a check in progress and its odds), as `table.actor()` may see
    /// it: a part the viewer may not see is left out. Shown by the web table beside the
    /// character cards, from the same typed view. The default shows nothing.
    fn table_sheet(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        _viewer_is_gm: bool,
    ) -> Vec<Section> {
        Vec::new()
    }

    /// Replaces `{KEY}` / `{CHARACTER.KEY}` references the system derives (a skill
    /// level, a resistance) with their numbers before the table resolves the rest from
    /// characters' fields. The default leaves the line alone.
    fn expand_references(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        line: &str,
    ) -> String {
        line.to_string()
    }

    /// Changes a check the actor is about to roll: `command` has table references
    /// already replaced. The default leaves it alone.
    fn prepare_check(
        &self,
        _table: &dyn TableView,
        _state: &Self::State,
        command: &str,
    ) -> Result<Prepared<Self::Event>, Text> {
        Ok(Prepared {
            command: command.to_string(),
            events: Vec::new(),
            note: None,
        })
    }
}

/// A system's state behind a pointer: cloneable, printable as JSON.
pub trait SystemState: Any + Debug + Send + Sync {
    /// A copy.
    fn clone_box(&self) -> Box<dyn SystemState>;
    /// The state as JSON (for GM views and tests).
    fn to_json(&self) -> serde_json::Value;
    /// For downcasting to the system's own type.
    fn as_any(&self) -> &dyn Any;
    /// For downcasting to the system's own type.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Clone + Debug + Serialize + Send + Sync + 'static> SystemState for T {
    fn clone_box(&self) -> Box<dyn SystemState> {
        Box::new(self.clone())
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Clone for Box<dyn SystemState> {
    fn clone(&self) -> Self {
        (**self).clone_box()
    }
}

/// [`TableRules`] with state and events type-erased (events as JSON), as tables use them.
pub trait DynRules: Send + Sync {
    /// The system's `/` commands.
    fn commands(&self) -> &'static [CommandHelp];
    /// A fresh state.
    fn new_state(&self) -> Box<dyn SystemState>;
    /// See [`TableRules::decide`].
    fn decide(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        words: &[&str],
        dice: &mut Roller<'_>,
    ) -> Option<Result<Outcome<serde_json::Value>, Text>>;
    /// See [`TableRules::after_roll`].
    fn after_roll(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        command: &str,
        result: &RollResult,
    ) -> Vec<serde_json::Value>;
    /// See [`TableRules::after_reveal`].
    fn after_reveal(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        command: &str,
        rands: &[[u32; 2]],
    ) -> Vec<serde_json::Value>;
    /// See [`TableRules::character_sheet`].
    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section>;
    /// See [`TableRules::table_sheet`].
    fn table_sheet(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        viewer_is_gm: bool,
    ) -> Vec<Section>;
    /// See [`TableRules::fold`]; an event the system cannot read changes nothing.
    fn fold(&self, state: &mut dyn SystemState, actor: &str, event: &serde_json::Value);
    /// See [`TableRules::owned_fields`].
    fn owned_fields(&self) -> &'static [OwnedField];
    /// See [`TableRules::replay`]; events the system cannot read are a mismatch.
    fn replay(
        &self,
        state: &dyn SystemState,
        actor: &str,
        line: Option<&str>,
        events: &[serde_json::Value],
        rands: &[[u32; 2]],
    ) -> Result<(), Text>;
    /// See [`TableRules::field_changes`]; an event the system cannot read changes nothing.
    fn field_changes(&self, event: &serde_json::Value) -> Vec<(String, String, String)>;
    /// See [`TableRules::builds_on`]: the first of `later` (seq, event) built on
    /// `undone`, with how; events the system cannot read depend on nothing. `void`: for
    /// the GM's `/void` ([`TableRules::void_builds_on`]) rather than an undo.
    fn builds_on(
        &self,
        undone: &[serde_json::Value],
        later: &mut dyn Iterator<Item = (u64, &serde_json::Value)>,
        void: bool,
    ) -> Option<(u64, Text)>;
    /// See [`TableRules::builds_on_holds_void`].
    fn builds_on_holds_void(&self) -> bool;
    /// See [`TableRules::field_value`].
    fn field_value(
        &self,
        key: &str,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Result<String, Text>;
    /// See [`TableRules::field_value_by`].
    fn field_value_by(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        key: &str,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Result<String, Text>;
    /// See [`TableRules::implied_field`].
    fn implied_field(
        &self,
        key: &str,
        previous: Option<&str>,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Option<(String, String)>;
    /// See [`TableRules::missing_field`].
    fn missing_field(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        key: &str,
    ) -> Option<Text>;
    /// See [`TableRules::shown_by_rules`].
    fn shown_by_rules(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        key: &str,
    ) -> bool;
    /// See [`TableRules::gm_plays`].
    fn gm_plays(&self, state: &dyn SystemState, name: &str) -> Option<Text>;
    /// See [`TableRules::hidden_character`].
    fn hidden_character(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
    ) -> Option<Text>;
    /// See [`TableRules::hidden_name_shown`].
    fn hidden_name_shown(&self, state: &dyn SystemState, name: &str) -> bool;
    /// See [`TableRules::rename_character`].
    fn rename_character(&self, state: &mut dyn SystemState, from: &str, to: &str);
    /// See [`TableRules::fold_voided`]; an event the system cannot read changes nothing.
    fn fold_voided(&self, state: &mut dyn SystemState, actor: &str, event: &serde_json::Value);
    /// See [`TableRules::fold_undone`]; an event the system cannot read changes nothing.
    fn fold_undone(&self, state: &mut dyn SystemState, actor: &str, event: &serde_json::Value);
    /// See [`TableRules::describe`].
    fn describe(&self, event: &serde_json::Value) -> Text;
    /// See [`TableRules::audience`]; an event the system cannot read is GM-only.
    fn audience(&self, event: &serde_json::Value) -> Audience;
    /// See [`TableRules::reveals`]; an event the system cannot read reveals nothing.
    fn reveals(&self, event: &serde_json::Value) -> bool;
    /// See [`TableRules::holds_scene_end`].
    fn holds_scene_end(&self, state: &dyn SystemState) -> Option<Text>;
    /// See [`TableRules::on_scene_end`].
    fn on_scene_end(
        &self,
        state: &dyn SystemState,
        dice: &mut Roller<'_>,
    ) -> Vec<serde_json::Value>;
    /// See [`TableRules::on_session_end`].
    fn on_session_end(&self, state: &dyn SystemState) -> Vec<serde_json::Value>;
    /// See [`TableRules::prepare_check`].
    fn prepare_check(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        command: &str,
    ) -> Result<Prepared<serde_json::Value>, Text>;
    /// See [`TableRules::expand_references`].
    fn expand_references(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        line: &str,
    ) -> String;
}

fn to_json<E: Serialize>(events: Vec<E>) -> Vec<serde_json::Value> {
    events
        .into_iter()
        .map(|e| serde_json::to_value(e).expect("system events serialise"))
        .collect()
}

fn typed<R: TableRules>(state: &dyn SystemState) -> &R::State {
    state
        .as_any()
        .downcast_ref()
        .expect("a table holds the state of its own system")
}

/// The state and the event of an event taken back (voided or undone) as the rules'
/// own types; `None` for an event this version cannot read, which then changes nothing.
fn unmade<'s, R: TableRules>(
    state: &'s mut dyn SystemState,
    event: &serde_json::Value,
) -> Option<(&'s mut R::State, R::Event)> {
    let event = serde_json::from_value::<R::Event>(event.clone()).ok()?;
    let state = state
        .as_any_mut()
        .downcast_mut()
        .expect("a table holds the state of its own system");
    Some((state, event))
}

impl<R: TableRules> DynRules for R {
    fn commands(&self) -> &'static [CommandHelp] {
        TableRules::commands(self)
    }

    fn new_state(&self) -> Box<dyn SystemState> {
        Box::new(R::State::default())
    }

    fn decide(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        words: &[&str],
        dice: &mut Roller<'_>,
    ) -> Option<Result<Outcome<serde_json::Value>, Text>> {
        let outcome = TableRules::decide(self, table, typed::<R>(state), words, dice)?;
        Some(outcome.map(|o| Outcome {
            events: to_json(o.events),
            reply: o.reply,
        }))
    }

    fn after_roll(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        command: &str,
        result: &RollResult,
    ) -> Vec<serde_json::Value> {
        to_json(TableRules::after_roll(
            self,
            table,
            typed::<R>(state),
            command,
            result,
        ))
    }

    fn after_reveal(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        command: &str,
        rands: &[[u32; 2]],
    ) -> Vec<serde_json::Value> {
        to_json(TableRules::after_reveal(
            self,
            table,
            typed::<R>(state),
            command,
            rands,
        ))
    }

    fn character_sheet(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        TableRules::character_sheet(self, table, typed::<R>(state), name, viewer_is_gm)
    }

    fn table_sheet(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        viewer_is_gm: bool,
    ) -> Vec<Section> {
        TableRules::table_sheet(self, table, typed::<R>(state), viewer_is_gm)
    }

    fn fold(&self, state: &mut dyn SystemState, actor: &str, event: &serde_json::Value) {
        let Ok(event) = serde_json::from_value::<R::Event>(event.clone()) else {
            return;
        };
        let state = state
            .as_any_mut()
            .downcast_mut()
            .expect("a table holds the state of its own system");
        TableRules::fold(self, state, actor, &event);
    }

    fn owned_fields(&self) -> &'static [OwnedField] {
        TableRules::owned_fields(self)
    }

    fn replay(
        &self,
        state: &dyn SystemState,
        actor: &str,
        line: Option<&str>,
        events: &[serde_json::Value],
        rands: &[[u32; 2]],
    ) -> Result<(), Text> {
        let events = events
            .iter()
            .map(|e| serde_json::from_value::<R::Event>(e.clone()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| {
                Text::new(
                    format!("この版では読めないイベントです: {e}"),
                    format!("an event this version cannot read: {e}"),
                )
            })?;
        TableRules::replay(self, typed::<R>(state), actor, line, &events, rands)
    }

    fn field_changes(&self, event: &serde_json::Value) -> Vec<(String, String, String)> {
        serde_json::from_value::<R::Event>(event.clone())
            .map(|e| TableRules::field_changes(self, &e))
            .unwrap_or_default()
    }

    fn builds_on(
        &self,
        undone: &[serde_json::Value],
        later: &mut dyn Iterator<Item = (u64, &serde_json::Value)>,
        void: bool,
    ) -> Option<(u64, Text)> {
        let undone: Vec<R::Event> = undone
            .iter()
            .filter_map(|e| serde_json::from_value(e.clone()).ok())
            .collect();
        if undone.is_empty() {
            return None;
        }
        for (seq, e) in later {
            if let Ok(e) = serde_json::from_value::<R::Event>(e.clone())
                && let Some(how) = if void {
                    TableRules::void_builds_on(self, &e, &undone)
                } else {
                    TableRules::builds_on(self, &e, &undone)
                }
            {
                return Some((seq, how));
            }
        }
        None
    }

    fn builds_on_holds_void(&self) -> bool {
        TableRules::builds_on_holds_void(self)
    }

    fn field_value(
        &self,
        key: &str,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        TableRules::field_value(self, key, value, fields)
    }

    fn field_value_by(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        key: &str,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Result<String, Text> {
        TableRules::field_value_by(self, table, typed::<R>(state), name, key, value, fields)
    }

    fn implied_field(
        &self,
        key: &str,
        previous: Option<&str>,
        value: &str,
        fields: &BTreeMap<String, String>,
    ) -> Option<(String, String)> {
        TableRules::implied_field(self, key, previous, value, fields)
    }

    fn missing_field(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        key: &str,
    ) -> Option<Text> {
        TableRules::missing_field(self, table, typed::<R>(state), name, key)
    }

    fn shown_by_rules(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
        key: &str,
    ) -> bool {
        TableRules::shown_by_rules(self, table, typed::<R>(state), name, key)
    }

    fn gm_plays(&self, state: &dyn SystemState, name: &str) -> Option<Text> {
        TableRules::gm_plays(self, typed::<R>(state), name)
    }

    fn hidden_character(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        name: &str,
    ) -> Option<Text> {
        TableRules::hidden_character(self, table, typed::<R>(state), name)
    }

    fn hidden_name_shown(&self, state: &dyn SystemState, name: &str) -> bool {
        TableRules::hidden_name_shown(self, typed::<R>(state), name)
    }

    fn rename_character(&self, state: &mut dyn SystemState, from: &str, to: &str) {
        let state = state
            .as_any_mut()
            .downcast_mut()
            .expect("a table holds the state of its own system");
        TableRules::rename_character(self, state, from, to)
    }

    fn fold_voided(&self, state: &mut dyn SystemState, actor: &str, event: &serde_json::Value) {
        if let Some((state, event)) = unmade::<R>(state, event) {
            TableRules::fold_voided(self, state, actor, &event);
        }
    }

    fn fold_undone(&self, state: &mut dyn SystemState, actor: &str, event: &serde_json::Value) {
        if let Some((state, event)) = unmade::<R>(state, event) {
            TableRules::fold_undone(self, state, actor, &event);
        }
    }

    fn describe(&self, event: &serde_json::Value) -> Text {
        match serde_json::from_value::<R::Event>(event.clone()) {
            Ok(e) => TableRules::describe(self, &e),
            Err(_) => Text::new(
                "（このバージョンでは読めないイベント）",
                "(an event this version cannot read)",
            ),
        }
    }

    fn reveals(&self, event: &serde_json::Value) -> bool {
        serde_json::from_value::<R::Event>(event.clone())
            .is_ok_and(|e| TableRules::reveals(self, &e))
    }

    fn audience(&self, event: &serde_json::Value) -> Audience {
        match serde_json::from_value::<R::Event>(event.clone()) {
            Ok(e) => TableRules::audience(self, &e),
            Err(_) => Audience::Gm,
        }
    }

    fn holds_scene_end(&self, state: &dyn SystemState) -> Option<Text> {
        TableRules::holds_scene_end(self, typed::<R>(state))
    }

    fn on_scene_end(
        &self,
        state: &dyn SystemState,
        dice: &mut Roller<'_>,
    ) -> Vec<serde_json::Value> {
        to_json(TableRules::on_scene_end(self, typed::<R>(state), dice))
    }

    fn on_session_end(&self, state: &dyn SystemState) -> Vec<serde_json::Value> {
        to_json(TableRules::on_session_end(self, typed::<R>(state)))
    }

    fn expand_references(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        line: &str,
    ) -> String {
        TableRules::expand_references(self, table, typed::<R>(state), line)
    }

    fn prepare_check(
        &self,
        table: &dyn TableView,
        state: &dyn SystemState,
        command: &str,
    ) -> Result<Prepared<serde_json::Value>, Text> {
        let p = TableRules::prepare_check(self, table, typed::<R>(state), command)?;
        Ok(Prepared {
            command: p.command,
            events: to_json(p.events),
            note: p.note,
        })
    }
}
