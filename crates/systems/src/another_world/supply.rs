//! AW-4 supply (供給ルール): HP and MP lost to missed meals or sleep, and recovered by
//! supply between characters.
//!
//! - Missing food for 24 hours or sleeping under 6 hours: HP and MP each drop by nD6, the
//!   GM choosing n from 1 to 5. Our reading: one roll for HP and another for MP unless the
//!   GM asks for one shared roll (`shared`).
//! - Supply between two characters recovers 1–2D6 normally and 3–4D6 when the two are in a
//!   contract (AW-5); the GM or a participant's owner picks the count within that range.
//!   Our reading: each participant rolls and recovers that much HP and MP, up to their
//!   sheet's values.
//! - HP and MP never fall below 1: the rules give everyone "at least 1".
//!
//! The sheet's `HP` and `MP` fields are the maximums; the current values live here once
//! they first change.

use super::rules::{Decided, Event as AwEvent, State, field, gm_only, may_act_for};
use crate::table_rules::{Outcome, TableView};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::Roller;

/// HP and MP never go below this (AW-4: everyone has "at least 1").
pub const FLOOR: i64 = 1;

/// Current HP and MP of characters whose values changed, by name.
pub type Vitals = BTreeMap<String, (i64, i64)>;

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// HP and MP changed.
    Changed {
        /// Character.
        character: String,
        /// Why (`食事・睡眠の不足 3D6`, `供給 2D6`).
        why: String,
        /// Dice, `[die, die, …]` for HP, then for MP (the same when shared).
        hp_dice: Vec<i64>,
        /// Dice for MP.
        mp_dice: Vec<i64>,
        /// Values after.
        hp: i64,
        /// Values after.
        mp: i64,
    },
}

/// HP and MP.
type Pair = (i64, i64);

/// A character's current HP and MP and their maximums (the sheet's values).
fn current(table: &dyn TableView, vitals: &Vitals, name: &str) -> Result<(Pair, Pair), String> {
    let max = (field(table, name, "HP")?, field(table, name, "MP")?);
    Ok((vitals.get(name).copied().unwrap_or(max), max))
}

fn roll(dice: &mut Roller<'_>, n: i64) -> Result<Vec<i64>, String> {
    dice.roll_group(n, 6)
        .map(|d| d.to_vec())
        .map_err(|e| e.to_string())
}

fn count(word: &str, range: std::ops::RangeInclusive<i64>, why: &str) -> Result<i64, String> {
    match word.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "'{word}' dice: {why} takes {} to {} dice (AW-4)",
            range.start(),
            range.end()
        )),
    }
}

/// `/supply lack CHARACTER N [shared]`, `/supply give A B N`.
pub fn decide(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Decided {
    let vitals = &state.vitals;
    Some(match words {
        ["lack", character, n, rest @ ..] if rest.is_empty() || rest == ["shared"] => (|| {
            gm_only(table, "apply missed meals or sleep")?;
            let n = count(n, 1..=5, "a missed meal or sleep")?;
            let ((hp, mp), _) = current(table, vitals, character)?;
            let hp_dice = roll(dice, n)?;
            let mp_dice = if rest.is_empty() {
                roll(dice, n)?
            } else {
                hp_dice.clone()
            };
            let loss = |d: &[i64]| d.iter().sum::<i64>();
            Ok(Outcome {
                events: vec![AwEvent::Supply(Event::Changed {
                    character: character.to_string(),
                    why: format!(
                        "食事・睡眠の不足 {n}D6{}",
                        if rest.is_empty() { "" } else { "（共通）" }
                    ),
                    hp: hp.saturating_sub(loss(&hp_dice)).max(FLOOR),
                    mp: mp.saturating_sub(loss(&mp_dice)).max(FLOOR),
                    hp_dice,
                    mp_dice,
                })],
                reply: None,
            })
        })(),
        ["lack", ..] => Err("usage: /supply lack CHARACTER N [shared]  (N from 1 to 5)".into()),
        ["give", a, b, n] => (|| {
            if a == b {
                return Err("supply is an exchange between two characters".into());
            }
            if may_act_for(table, a).is_err() {
                may_act_for(table, b)?;
            }
            let bound = state.contracts.bound(a, b);
            let n = if bound {
                count(
                    n,
                    3..=4,
                    &format!("supply between {a} and {b}, who are in a contract,"),
                )?
            } else {
                count(
                    n,
                    1..=2,
                    &format!("supply between {a} and {b}, who are not in a contract,"),
                )?
            };
            let mut events = Vec::new();
            for who in [a, b] {
                let ((hp, mp), (max_hp, max_mp)) = current(table, vitals, who)?;
                let d = roll(dice, n)?;
                let gain: i64 = d.iter().sum();
                events.push(AwEvent::Supply(Event::Changed {
                    character: who.to_string(),
                    why: format!("供給 {n}D6{}", if bound { "（契約）" } else { "" }),
                    hp: hp.saturating_add(gain).min(max_hp.max(hp)),
                    mp: mp.saturating_add(gain).min(max_mp.max(mp)),
                    hp_dice: d.clone(),
                    mp_dice: d,
                }));
            }
            Ok(Outcome {
                events,
                reply: None,
            })
        })(),
        ["give", ..] => Err("usage: /supply give CHARACTER CHARACTER N".into()),
        _ => Err("usage: /supply lack CHARACTER N [shared] | /supply give A B N".into()),
    })
}

/// Folds a supply event.
pub fn fold(vitals: &mut Vitals, e: &Event) {
    let Event::Changed {
        character, hp, mp, ..
    } = e;
    vitals.insert(character.clone(), (*hp, *mp));
}

fn dice_text(d: &[i64]) -> String {
    let s: Vec<String> = d.iter().map(i64::to_string).collect();
    format!("{}[{}]", d.iter().sum::<i64>(), s.join(","))
}

/// A line of log text.
pub fn describe(e: &Event) -> String {
    let Event::Changed {
        character,
        why,
        hp_dice,
        mp_dice,
        hp,
        mp,
    } = e;
    format!(
        "{character} {why}: 【HP】{} ＞ {hp}、【MP】{} ＞ {mp}",
        dice_text(hp_dice),
        dice_text(mp_dice)
    )
}

/// Current HP and MP for `/char show`, once they changed.
pub fn summary(table: &dyn TableView, vitals: &Vitals, name: &str) -> Option<String> {
    let (hp, mp) = vitals.get(name)?;
    let (max_hp, max_mp) = (
        field(table, name, "HP").ok()?,
        field(table, name, "MP").ok()?,
    );
    Some(format!("  現在の【HP】{hp}/{max_hp}、【MP】{mp}/{max_mp}"))
}
