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
use crate::view::{Field, Value};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use taku_dice::{Lang, Text};

/// Keys held, by character.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Keys {
    /// Character → keys.
    pub held: BTreeMap<String, BTreeSet<String>>,
    /// AW-6: the key the GM requires for checks now (「イベントキー:不審な人物を持っている
    /// PCのみ判定を行なうこと」), until lifted.
    pub required: Option<String>,
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
    /// The GM restricted checks to the PCs holding `key` (`None`: lifted).
    Required {
        /// Key.
        key: Option<String>,
    },
}

fn pc(table: &dyn TableView, name: &str) -> Result<(), Text> {
    match kind(table, name)? {
        Kind::Pc => Ok(()),
        Kind::Npc => Err(Text::new(
            format!("{name}はNPCです。イベントキーはPCに与えるものです（AW-6）"),
            format!("{name} is an NPC; event keys are granted to PCs (AW-6)"),
        )),
    }
}

fn holds_already(character: &str, key: &str) -> Text {
    Text::new(
        format!("{character}はすでにイベントキー:{key}を持っています"),
        format!("{character} already holds the event key {key}"),
    )
}

fn does_not_hold(character: &str, key: &str) -> Text {
    Text::new(
        format!("{character}はイベントキー:{key}を持っていません"),
        format!("{character} does not hold the event key {key}"),
    )
}

/// `/key …` and `/keys …`.
pub fn decide(table: &dyn TableView, state: &State, words: &[&str]) -> Decided {
    let keys = &state.keys;
    let key_of = |rest: &[&str]| rest.join(" ");
    // A key has a name (seed: 「イベントキー:○○」という形で掲示): an empty word (`""`) is
    // no name.
    if words.first() == Some(&"key") && words.iter().skip(2).any(|w| w.trim().is_empty()) {
        return Some(Err(Text::new(
            "イベントキーやキャラクターの名前が空です。「/key give ミナ 不審な人物」のように書いてください（AW-6）",
            "an event key's or character's name is empty; write e.g. /key give ミナ 不審な人物 (AW-6)",
        )));
    }
    Some(match words {
        ["key", "give", character, key @ ..] if !key.is_empty() => (|| {
            gm_only(table, Text::new("イベントキーの付与", "grant event keys"))?;
            pc(table, character)?;
            let key = key_of(key);
            if keys.holds(character, &key) {
                return Err(holds_already(character, &key));
            }
            one(AwEvent::Key(Event::Granted {
                character: character.to_string(),
                key,
            }))
        })(),
        ["key", "take", character, key @ ..] if !key.is_empty() => (|| {
            gm_only(
                table,
                Text::new("イベントキーの取り上げ", "take event keys back"),
            )?;
            let key = key_of(key);
            if !keys.holds(character, &key) {
                return Err(does_not_hold(character, &key));
            }
            one(AwEvent::Key(Event::Revoked {
                character: character.to_string(),
                key,
            }))
        })(),
        ["key", "move", from, to, key @ ..] if !key.is_empty() => (|| {
            gm_only(
                table,
                Text::new(
                    "PCからPCへのイベントキーの譲渡（キーを勝手に渡すことはできません、AW-6）",
                    "pass a key from one PC to another (keys cannot be given away, AW-6)",
                ),
            )?;
            let key = key_of(key);
            if !keys.holds(from, &key) {
                return Err(does_not_hold(from, &key));
            }
            pc(table, to)?;
            if keys.holds(to, &key) {
                return Err(holds_already(to, &key));
            }
            one(AwEvent::Key(Event::Transferred {
                from: from.to_string(),
                to: to.to_string(),
                key,
            }))
        })(),
        ["key", "who", key @ ..] if !key.is_empty() => (|| {
            gm_only(
                table,
                Text::new("キーを持つPCの確認", "ask who holds a key"),
            )?;
            let key = key_of(key);
            let holders: Vec<&str> = keys
                .held
                .iter()
                .filter(|(_, k)| k.contains(&key))
                .map(|(c, _)| c.as_str())
                .collect();
            reply(if holders.is_empty() {
                Text::new(
                    format!("イベントキー:{key}を持つPCはいません"),
                    format!("nobody holds the event key {key}"),
                )
            } else {
                Text::new(
                    format!(
                        "イベントキー:{key} を持つPC（判定できるPC）: {}",
                        holders.join("、")
                    ),
                    format!(
                        "PCs holding the event key {key} (who may make the check): {}",
                        holders.join(", ")
                    ),
                )
            })
        })(),
        ["key", "require", key @ ..] if !key.is_empty() => (|| {
            gm_only(
                table,
                Text::new(
                    "判定をキーを持つPCに限ること",
                    "restrict checks to the holders of a key",
                ),
            )?;
            let key = key_of(key);
            if key == "off" {
                if keys.required.is_none() {
                    return Err(Text::new(
                        "判定はキーで限られていません",
                        "checks are not restricted to a key",
                    ));
                }
                return one(AwEvent::Key(Event::Required { key: None }));
            }
            one(AwEvent::Key(Event::Required { key: Some(key) }))
        })(),
        ["key", ..] => Err(Text::new(
            "使い方: /key give|take キャラクター キー、/key move 渡す側 受け取る側 キー、/key who キー、/key require キー|off",
            "usage: /key give|take CHARACTER KEY, /key move FROM TO KEY, /key who KEY, /key require KEY|off",
        )),
        ["keys"] => {
            let mine: Vec<(&str, Vec<Text>)> = table
                .characters()
                .into_iter()
                .filter(|(_, owner)| table.actor_is_gm() || *owner == table.actor())
                .filter_map(|(name, _)| list(keys, name).map(|k| (name, k)))
                .collect();
            reply(if mine.is_empty() {
                Text::new("イベントキーはありません", "no event keys")
            } else {
                let lines = |lang: Lang| {
                    mine.iter()
                        .map(|(name, k)| keys_line(name, k, lang))
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                Text::new(lines(Lang::Ja), lines(Lang::En))
            })
        }
        ["keys", character] => match table.character(character) {
            None => Err(no_character(character)),
            Some((owner, _)) if owner != table.actor() && !table.actor_is_gm() => Err(Text::new(
                format!(
                    "{character}はあなたのキャラクターではありません。プレイヤーが見られるのは自分のPCのキーだけです（AW-6）"
                ),
                format!(
                    "{character} is not your character; a player sees only their own PC's keys (AW-6)"
                ),
            )),
            Some(_) => reply(match list(keys, character) {
                Some(k) => Text::new(
                    keys_line(character, &k, Lang::Ja),
                    keys_line(character, &k, Lang::En),
                ),
                None => Text::new(
                    format!("{character}: イベントキーはありません"),
                    format!("{character}: no event keys"),
                ),
            }),
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
        Event::Required { key } => keys.required = key.clone(),
    }
}

/// A line of log text.
pub fn describe(e: &Event) -> Text {
    match e {
        Event::Granted { character, key } => Text::new(
            format!("イベントキー:{key} → {character}"),
            format!("event key {key} → {character}"),
        ),
        Event::Revoked { character, key } => Text::new(
            format!("イベントキー:{key} を {character} から取り上げ"),
            format!("event key {key} taken back from {character}"),
        ),
        Event::Transferred { from, to, key } => Text::new(
            format!("イベントキー:{key} を {from} から {to} へ譲渡（GMの許可）"),
            format!("event key {key} passed from {from} to {to} (GM's authorisation)"),
        ),
        Event::Required { key: Some(key) } => Text::new(
            format!("「イベントキー:{key}」を持っているPCのみ判定を行なうこと（GM、AW-6）"),
            format!("only PCs holding the event key {key} may make checks (GM, AW-6)"),
        ),
        Event::Required { key: None } => Text::new(
            "イベントキーによる判定の制限を解除（GM）",
            "checks are no longer restricted to a key's holders (GM)",
        ),
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
        // The GM's instruction is said to everyone; it names the key, not its holders.
        Event::Required { .. } => Audience::All,
    }
}

/// AW-6 (seed: 「GMは、『「イベントキー:不審な人物」を持っているPCのみ判定を行なうこと』
/// などと指示を出すことができる」): while the GM requires a key, a PC's check or contest
/// (`command`, as about to be rolled) is refused unless that PC holds it. The PC is the one
/// the roll names or the player's only character; a player whose roll names none of
/// several characters is asked to name it. NPCs (the GM's rolls) are not restricted.
pub fn check_allowed(table: &dyn TableView, keys: &Keys, command: &str) -> Result<(), Text> {
    let Some(key) = keys.required.as_deref() else {
        return Ok(());
    };
    // A contest is written with spaces (`AW+5 VS AW+3`): its sides as the rules read them.
    let (parts, _) = super::rules::sides(command);
    let upper = parts[0].to_ascii_uppercase();
    let body = upper.strip_prefix('S').unwrap_or(&upper);
    let is_roll = super::is_check(command)
        || (parts.len() == 2 && (body.starts_with("AW") || body.starts_with("2D6")));
    if !is_roll {
        return Ok(());
    }
    let Some((sides, comment)) = super::rules::typed_sides(table) else {
        return Ok(());
    };
    let subject = super::rules::subject_of(table, &sides[0], &comment, true);
    let Some(character) = subject.character else {
        if table.actor_is_gm() {
            return Ok(());
        }
        // The example names one of the member's own PCs (issue 13 play-through 4: it named
        // another player's ミナ).
        let own = table
            .characters()
            .into_iter()
            .find(|(_, owner)| *owner == table.actor())
            .map(|(name, _)| name);
        let (own, own_en) = (own.unwrap_or("PC名"), own.unwrap_or("NAME"));
        return Err(Text::new(
            format!(
                "いまは「イベントキー:{key}」を持っているPCだけが判定できます。どのキャラクターの判定か、AW+{{{own}.理知}} か AW+6 理知 {own} のように書いてください（AW-6）"
            ),
            format!(
                "only PCs holding the event key {key} may make checks now; say whose check it is, e.g. AW+{{{own_en}.理知}} or AW+6 理知 {own_en} (AW-6)"
            ),
        ));
    };
    if kind(table, &character)? == Kind::Npc {
        return Ok(());
    }
    // A player learns nothing of another player's PC's keys (AW-6: a player sees their
    // own PC's keys only), and makes no restricted check as another player's PC: refused
    // the same way whether that PC holds the key or not (issue 13 play-through).
    if !table.actor_is_gm()
        && table
            .character(&character)
            .is_some_and(|(o, _)| o != table.actor())
    {
        return Err(Text::new(
            format!(
                "いまは「イベントキー:{key}」を持っているPCだけが判定できます。{character}はあなたのキャラクターではありません。自分のPCの判定として書いてください（AW-6）"
            ),
            format!(
                "only PCs holding the event key {key} may make checks now; {character} is not your character, so roll for your own PC (AW-6)"
            ),
        ));
    }
    if keys.holds(&character, key) {
        return Ok(());
    }
    Err(Text::new(
        format!(
            "いまは「イベントキー:{key}」を持っているPCだけが判定できます。{character}は持っていません（AW-6、GMが /key require off で解除）"
        ),
        format!(
            "only PCs holding the event key {key} may make checks now, and {character} does not (AW-6; the GM lifts it with /key require off)"
        ),
    ))
}

/// AW-6 for one side of an open contest (`/vs`, AW-2): while the GM requires a key, a PC
/// side that does not hold it may not roll, as for any other check ([`check_allowed`]).
/// NPC sides (the GM's) are not restricted.
pub fn contest_side_allowed(
    table: &dyn TableView,
    keys: &Keys,
    character: &str,
) -> Result<(), Text> {
    let Some(key) = keys.required.as_deref() else {
        return Ok(());
    };
    if kind(table, character)? == Kind::Npc || keys.holds(character, key) {
        return Ok(());
    }
    Err(Text::new(
        format!(
            "いまは「イベントキー:{key}」を持っているPCだけが判定できます。{character}は持っていません（AW-6、GMが /key require off で解除）"
        ),
        format!(
            "only PCs holding the event key {key} may make checks now, and {character} does not (AW-6; the GM lifts it with /key require off)"
        ),
    ))
}

/// `NAME's event keys: …` in `lang`.
fn keys_line(name: &str, keys: &[Text], lang: Lang) -> String {
    let list = Value::List(keys.to_vec()).render(lang);
    match lang {
        Lang::Ja => format!("{name}のイベントキー: {list}"),
        Lang::En => format!("{name}'s event keys: {list}"),
    }
}

/// A character's keys, each as it is named, if it holds any.
fn list(keys: &Keys, name: &str) -> Option<Vec<Text>> {
    let held = keys.held.get(name).filter(|k| !k.is_empty())?;
    Some(held.iter().map(|k| Text::verbatim(k.as_str())).collect())
}

/// A character's keys for its sheet (the caller shows them to the GM and the owner only).
pub fn fields(keys: &Keys, name: &str) -> Vec<Field> {
    list(keys, name)
        .map(|k| {
            vec![Field::derived(
                Text::new("イベントキー", "event keys"),
                Value::List(k),
            )]
        })
        .unwrap_or_default()
}
