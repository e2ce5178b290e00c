//! A table's state: what its log says, folded. Only events that are not undone fold in;
//! an `/undo` makes the table fold its log again without the undone change, so a later
//! change by someone else is kept (undoing Alice's `hp = 5` after Bob set `hp = 7` leaves
//! 7, not the value before Alice's change).

use crate::event::{Event, EventBody, Role};
use std::collections::{BTreeMap, BTreeSet};
use taku_dice::Lang;
use taku_systems::table_rules::SystemState;
use taku_systems::{DynRules, GameSystem};

/// A character: its owner and free-form fields.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Character {
    /// Member who created it.
    pub owner: String,
    /// Fields set with `/char set`.
    pub fields: BTreeMap<String, String>,
}

/// Everything folded from the log.
#[derive(Debug, Clone)]
pub(crate) struct State {
    pub members: BTreeMap<String, Role>,
    /// Members the GM removed (`/remove`) and did not add back.
    pub removed: BTreeSet<String>,
    pub characters: BTreeMap<String, Character>,
    pub scene: u64,
    pub session: u64,
    pub revealed: BTreeSet<u64>,
    /// Chat tabs the GM added (`/tab new`), beside メイン and 雑談.
    pub tabs: Vec<String>,
    /// The table's language (`/lang`), Japanese unless the GM chose another.
    pub lang: Lang,
    /// The game system's own state, if it has table rules.
    pub system: Option<Box<dyn SystemState>>,
    /// Characters renamed, in log order: `(seq, from, to)` — a GM's hidden character
    /// displaced by a player's of the same name at `seq` ([`EventBody::CharacterCreated`]'s
    /// `displaced`) or renamed by a GM ([`EventBody::CharacterRenamed`]). An earlier entry
    /// naming `from` is about the character now named `to`.
    pub renames: Vec<(u64, String, String)>,
}

impl State {
    /// The state of a table just created by `gm`.
    pub fn new(gm: &str, system: &dyn GameSystem) -> State {
        State {
            members: BTreeMap::from([(gm.to_string(), Role::Gm)]),
            removed: BTreeSet::new(),
            characters: BTreeMap::new(),
            scene: 1,
            session: 1,
            revealed: BTreeSet::new(),
            tabs: Vec::new(),
            lang: Lang::Ja,
            system: system.table_rules().map(DynRules::new_state),
            renames: Vec::new(),
        }
    }

    /// Folds one event that is not undone.
    pub fn fold(&mut self, rules: Option<&dyn DynRules>, event: &Event) {
        match &event.body {
            EventBody::Created { .. }
            | EventBody::Chat { .. }
            | EventBody::Whisper { .. }
            | EventBody::TabChat { .. }
            | EventBody::Roll(_)
            | EventBody::Relinked { .. }
            | EventBody::Undone { .. }
            | EventBody::Voided { .. } => {}
            EventBody::LanguageSet { lang } => {
                if let Some(lang) = Lang::parse(lang) {
                    self.lang = lang;
                }
            }
            EventBody::Joined { member, role } => {
                self.removed.remove(member);
                self.members.insert(member.clone(), *role);
            }
            EventBody::Removed { member } => {
                if self.members.remove(member).is_some() {
                    self.removed.insert(member.clone());
                }
            }
            EventBody::Revealed { roll } => {
                self.revealed.insert(*roll);
            }
            EventBody::CharacterCreated {
                name,
                fields,
                displaced,
            } => {
                if let Some(to) = displaced {
                    self.displace(rules, event.seq, name, to);
                }
                self.characters.insert(
                    name.clone(),
                    Character {
                        owner: event.actor.clone(),
                        fields: fields.iter().cloned().collect(),
                    },
                );
            }
            EventBody::CharacterRenamed { from, to } => self.displace(rules, event.seq, from, to),
            EventBody::CharacterUpdated { name, changes } => {
                if let Some(ch) = self.characters.get_mut(name) {
                    for c in changes {
                        ch.fields.insert(c.key.clone(), c.value.clone());
                    }
                }
            }
            EventBody::CharacterSet {
                name, key, value, ..
            } => {
                // Total: the character may be gone (its creation undone).
                if let Some(ch) = self.characters.get_mut(name) {
                    ch.fields.insert(key.clone(), value.clone());
                }
            }
            EventBody::TabAdded { name } => {
                if !self.tabs.contains(name) {
                    self.tabs.push(name.clone());
                }
            }
            EventBody::SceneAdvanced => self.scene += 1,
            EventBody::SessionEnded => {
                self.session += 1;
                self.scene = 1;
            }
            EventBody::System { data, .. } => {
                if let (Some(rules), Some(state)) = (rules, self.system.as_deref_mut()) {
                    rules.fold(state, &event.actor, data);
                    // Values the rules keep in characters' fields (AW-4's current HP).
                    for (name, key, value) in rules.field_changes(data) {
                        if let Some(ch) = self.characters.get_mut(&name) {
                            ch.fields.insert(key, value);
                        }
                    }
                }
            }
        }
    }
}

impl State {
    /// Renames the GM's character `name` to `to` at `seq`: a player's namesake created
    /// there displaced it, or the GM renamed it (`/char rename`, issue 13).
    fn displace(&mut self, rules: Option<&dyn DynRules>, seq: u64, name: &str, to: &str) {
        if !self.characters.contains_key(to)
            && let Some(hidden) = self.characters.remove(name)
        {
            self.characters.insert(to.to_string(), hidden);
            self.renames.push((seq, name.to_string(), to.to_string()));
            if let (Some(rules), Some(state)) = (rules, self.system.as_deref_mut()) {
                rules.rename_character(state, name, to);
            }
        }
    }

    /// Folds what stays of an undone event: a voided command's kept effects
    /// ([`State::fold_voided`]), what the rules keep of an undone one
    /// ([`taku_systems::table_rules::TableRules::fold_undone`]: what its line showed
    /// members, as an NPC's name, aw8 F4) and the rename a displacing creation made.
    /// Undoing the player's creation leaves the GM's character under its new name, so the
    /// undo reads to every player exactly as that of a creation of a name never used
    /// (attack pass 7, A7-8): giving the old name back would hide the player's own lines
    /// again.
    pub fn fold_undone(&mut self, rules: Option<&dyn DynRules>, event: &Event, voided: bool) {
        match &event.body {
            EventBody::CharacterCreated {
                name,
                displaced: Some(to),
                ..
            } => self.displace(rules, event.seq, name, to),
            EventBody::System { data, .. } if !voided => {
                if let (Some(rules), Some(state)) = (rules, self.system.as_deref_mut()) {
                    rules.fold_undone(state, &event.actor, data);
                }
            }
            _ => {}
        }
        if voided {
            self.fold_voided(rules, event);
        }
    }

    /// Folds an event the GM voided: only the system's rules see it
    /// ([`taku_systems::table_rules::TableRules::fold_voided`]: what it showed stays
    /// shown); everything else it did is reverted.
    pub fn fold_voided(&mut self, rules: Option<&dyn DynRules>, event: &Event) {
        if let (EventBody::System { data, .. }, Some(rules), Some(state)) =
            (&event.body, rules, self.system.as_deref_mut())
        {
            rules.fold_voided(state, &event.actor, data);
        }
    }
}

/// The seqs an `/undo` of `target` reverts: it and the events that follow from it.
pub(crate) fn undo_group(events: &[Event], target: u64) -> impl Iterator<Item = u64> + '_ {
    std::iter::once(target).chain(
        events
            .iter()
            .filter(move |e| e.body.follows() == Some(target))
            .map(|e| e.seq),
    )
}
