//! AW-6 event keys (イベントキー): names of information, objects, places or people a PC
//! earned. The GM grants and revokes them and announces each as "イベントキー:○○"; keys
//! pass to another PC only by a GM-authorised transfer (the model of a special skill); the
//! GM may restrict a check to the PCs holding a key and asks who they are. A player sees
//! only their own PC's keys; the GM sees all (every key event's audience is the GM and
//! the owners of the PCs involved).

use super::rules::{
    Decided, Event as AwEvent, Kind, State, gm_only, kind, no_character, one, reply,
};
use crate::table_rules::{Audience, TableView};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Keys held, by character.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Keys {
    /// Character → keys.
    pub held: BTreeMap<String, BTreeSet<String>>,
}

impl Keys {
    fn holds(&self, character: &str, key: &str) -> bool {
        self.held.get(character).is_some_and(|k| k.contains(key))
    }
}

/// What happened to a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The GM granted a key.
    Granted {
        /// PC.
        character: String,
        /// Key.
        key: String,
    },
    /// The GM took a key back.
    Revoked {
        /// PC.
        character: String,
        /// Key.
        key: String,
    },
    /// A key passed from one PC to another, as the GM authorised.
    Transferred {
        /// From.
        from: String,
        /// To.
        to: String,
        /// Key.
        key: String,
    },
}

fn pc(table: &dyn TableView, name: &str) -> Result<(), String> {
    match kind(table, name)? {
        Kind::Pc => Ok(()),
        Kind::Npc => Err(format!(
            "{name} is an NPC; event keys are granted to PCs (AW-6)"
        )),
    }
}

/// `/key …` and `/keys …`.
pub fn decide(table: &dyn TableView, state: &State, words: &[&str]) -> Decided {
    let keys = &state.keys;
    let key_of = |rest: &[&str]| rest.join(" ");
    Some(match words {
        ["key", "give", character, key @ ..] if !key.is_empty() => (|| {
            gm_only(table, "grant event keys")?;
            pc(table, character)?;
            let key = key_of(key);
            if keys.holds(character, &key) {
                return Err(format!("{character} already holds イベントキー:{key}"));
            }
            one(AwEvent::Key(Event::Granted {
                character: character.to_string(),
                key,
            }))
        })(),
        ["key", "take", character, key @ ..] if !key.is_empty() => (|| {
            gm_only(table, "take event keys back")?;
            let key = key_of(key);
            if !keys.holds(character, &key) {
                return Err(format!("{character} does not hold イベントキー:{key}"));
            }
            one(AwEvent::Key(Event::Revoked {
                character: character.to_string(),
                key,
            }))
        })(),
        ["key", "move", from, to, key @ ..] if !key.is_empty() => (|| {
            gm_only(
                table,
                "pass a key from one PC to another (keys cannot be given away, AW-6)",
            )?;
            let key = key_of(key);
            if !keys.holds(from, &key) {
                return Err(format!("{from} does not hold イベントキー:{key}"));
            }
            pc(table, to)?;
            if keys.holds(to, &key) {
                return Err(format!("{to} already holds イベントキー:{key}"));
            }
            one(AwEvent::Key(Event::Transferred {
                from: from.to_string(),
                to: to.to_string(),
                key,
            }))
        })(),
        ["key", "who", key @ ..] if !key.is_empty() => (|| {
            gm_only(table, "ask who holds a key")?;
            let key = key_of(key);
            let holders: Vec<&str> = keys
                .held
                .iter()
                .filter(|(_, k)| k.contains(&key))
                .map(|(c, _)| c.as_str())
                .collect();
            reply(if holders.is_empty() {
                format!("nobody holds イベントキー:{key}")
            } else {
                format!(
                    "イベントキー:{key} を持つPC（判定できるPC）: {}",
                    holders.join(", ")
                )
            })
        })(),
        ["key", ..] => {
            Err("usage: /key give|take CHARACTER KEY, /key move FROM TO KEY, /key who KEY".into())
        }
        ["keys"] => {
            let mine: Vec<String> = table
                .characters()
                .into_iter()
                .filter(|(_, owner)| table.actor_is_gm() || *owner == table.actor())
                .filter_map(|(name, _)| summary(keys, name).map(|s| format!("{name}\n{s}")))
                .collect();
            reply(if mine.is_empty() {
                "no event keys".to_string()
            } else {
                mine.join("\n")
            })
        }
        ["keys", character] => match table.character(character) {
            None => Err(no_character(character)),
            Some((owner, _)) if owner != table.actor() && !table.actor_is_gm() => Err(format!(
                "{character} is not your character; a player sees only their own PC's keys (AW-6)"
            )),
            Some(_) => reply(
                summary(keys, character).unwrap_or_else(|| format!("{character}: no event keys")),
            ),
        },
        _ => return None,
    })
}

/// Folds a key event.
pub fn fold(keys: &mut Keys, e: &Event) {
    match e {
        Event::Granted { character, key } => {
            keys.held
                .entry(character.clone())
                .or_default()
                .insert(key.clone());
        }
        Event::Revoked { character, key } => {
            if let Some(k) = keys.held.get_mut(character) {
                k.remove(key);
            }
        }
        Event::Transferred { from, to, key } => {
            let had = keys.held.get_mut(from).is_some_and(|k| k.remove(key));
            if had {
                keys.held.entry(to.clone()).or_default().insert(key.clone());
            }
        }
    }
}

/// A line of log text.
pub fn describe(e: &Event) -> String {
    match e {
        Event::Granted { character, key } => format!("イベントキー:{key} → {character}"),
        Event::Revoked { character, key } => {
            format!("イベントキー:{key} を {character} から取り上げ")
        }
        Event::Transferred { from, to, key } => {
            format!("イベントキー:{key} を {from} から {to} へ譲渡（GMの許可）")
        }
    }
}

/// Who sees a key event: the GM and the PCs' owners.
pub fn audience(e: &Event) -> Audience {
    match e {
        Event::Granted { character, .. } | Event::Revoked { character, .. } => {
            Audience::GmAndOwnerOf(character.clone())
        }
        Event::Transferred { from, to, .. } => {
            Audience::GmAndOwnersOf(vec![from.clone(), to.clone()])
        }
    }
}

/// A character's keys for its sheet.
pub fn summary(keys: &Keys, name: &str) -> Option<String> {
    let held = keys.held.get(name).filter(|k| !k.is_empty())?;
    Some(format!(
        "  イベントキー: {}",
        held.iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
