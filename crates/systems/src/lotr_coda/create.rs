//! LR-1 at a table: creating a character's attributes by either method, on the table's
//! dice and under the same checks as a sheet file (`taku sheet --system LotrCoda`).
//!
//! - `/lotr create NAME random`: the nine 2d6 (「2d6 を9回振って,高いもの6つを6種類の能力値に
//!   割り当てる」) rolled once on the table's dice and recorded; a second roll is refused.
//! - `/lotr create NAME random|pick BRG,NIM,PER,STR,VIT,WIT [race=R] [order=O]`: the six
//!   values before racial modifiers, checked by [`Sheet::attribute_violations`] (pick: 10,
//!   9, 7, 7, 5, 4 plus 8 points, none above 12; random: the best six of the recorded
//!   rolls), then the racial modifiers added (never below 1) from the race data, and the
//!   record imported. Skills, edges and the rest come from a sheet file or `/char set`.

use super::character::ATTRIBUTES;
use super::rules::{Event, State, may_act_for, no_character, usage};
use super::sheet::{Data, RANDOM_ROLLS, Sheet};
use crate::table_rules::{Outcome, TableView};
use std::collections::BTreeMap;
use taku_dice::{Roller, Text};

fn create_usage() -> Text {
    usage(
        "/lotr create 名前 random（2D6を9回）| /lotr create 名前 pick 12,11,9,8,6,4 [race=Men] [order=Warrior]（BRG,NIM,PER,STR,VIT,WIT の順、種族修正の前）",
        "/lotr create NAME random (nine 2d6) | /lotr create NAME pick 12,11,9,8,6,4 [race=Men] [order=Warrior] (BRG,NIM,PER,STR,VIT,WIT, before racial modifiers)",
    )
}

/// The best six of the rolls, highest first.
fn best_six(rolls: &[i64]) -> Vec<i64> {
    let mut best = rolls.to_vec();
    best.sort_unstable_by(|a, b| b.cmp(a));
    best.truncate(6);
    best
}

/// The log line of the nine rolls.
pub fn describe_rolls(name: &str, rolls: &[i64]) -> Text {
    let best = best_six(rolls);
    Text::new(
        format!(
            "{name}の能力値（ランダム法、LR-1）: 2D6×9 = {rolls:?} → 高い6つ {best:?} を割り振る（/lotr create {name} random 値,…）"
        ),
        format!(
            "{name}'s attributes (random method, LR-1): nine 2d6 = {rolls:?} → assign the best six {best:?} (/lotr create {name} random v,…)"
        ),
    )
}

/// Decides `/lotr create NAME …`.
pub fn decide(
    table: &dyn TableView,
    state: &State,
    name: &str,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Outcome<Event>, Text> {
    let Some((_, fields)) = table.character(name) else {
        return Err(no_character(name));
    };
    may_act_for(table, name)?;
    let has_attributes =
        state.characters.contains_key(name) || ATTRIBUTES.iter().any(|a| fields.contains_key(*a));
    if has_attributes {
        return Err(Text::new(
            format!(
                "LR-1: {name}の能力値はもう決まっています（成長は /lotr xp pick {name} attr STR、GMは /char set {name} STR 10 などで直せます）"
            ),
            format!(
                "LR-1: {name}'s attributes are set already (they rise with /lotr xp pick {name} attr STR; a GM may correct them with /char set {name} STR 10 …)"
            ),
        ));
    }
    match rest {
        ["random"] => {
            if let Some(rolls) = state.creation_rolls.get(name) {
                return Err(Text::new(
                    format!(
                        "LR-1: {name}の2D6×9はもう振りました（{rolls:?}）。振り直しはできません"
                    ),
                    format!(
                        "LR-1: {name}'s nine 2d6 are rolled already ({rolls:?}); they are not rolled again"
                    ),
                ));
            }
            let mut rolls = Vec::with_capacity(RANDOM_ROLLS);
            for _ in 0..RANDOM_ROLLS {
                let pair = dice.roll_group(2, 6).map_err(|e| e.text())?;
                rolls.push(pair.iter().sum::<i64>());
            }
            Ok(Outcome {
                events: vec![Event::CreationRolls {
                    name: name.to_string(),
                    rolls,
                }],
                reply: None,
            })
        }
        [method @ ("pick" | "random"), values, more @ ..] if more.len() <= 2 => {
            let values: Option<Vec<i64>> = values
                .split(',')
                .map(|v| {
                    v.trim()
                        .parse::<i64>()
                        .ok()
                        .filter(|n| (0..=100).contains(n))
                })
                .collect();
            let Some(values) = values.filter(|v| v.len() == 6) else {
                return Err(create_usage());
            };
            let mut race = "Men".to_string();
            let mut order = String::new();
            for w in more {
                match w.split_once('=') {
                    Some(("race", r)) if !r.is_empty() && r.len() <= 100 => race = r.to_string(),
                    Some(("order", o)) if !o.is_empty() && o.len() <= 100 => order = o.to_string(),
                    _ => return Err(create_usage()),
                }
            }
            // LR-1 「値の割り当てを決めたら,種族ボーナスを加算して」: the race (and order) must
            // be one the data knows, or its modifiers, size and budgets would silently be
            // none (a typo such as `race=hobbits` reads as the data's `Hobbits`). A race
            // or order of the GM's own comes by a sheet file, which notes it is unchecked.
            let data = Data::example();
            race = known(&race, data.races.keys(), ("種族", "race"))?;
            if !order.is_empty() {
                order = known(&order, data.orders.keys(), ("職業", "order"))?;
            }
            // LR-1: once the nine 2d6 are rolled for the character, its attributes are
            // those rolls' (the random method is not traded for the pick method after
            // seeing them, nor after an undone creation).
            if *method == "pick"
                && let Some(rolls) = state.creation_rolls.get(name)
            {
                return Err(Text::new(
                    format!(
                        "LR-1: {name}の2D6×9はもう振りました（{rolls:?}）。能力値はその高い6つから: /lotr create {name} random 値,…（選択法には替えられません）"
                    ),
                    format!(
                        "LR-1: {name}'s nine 2d6 are rolled already ({rolls:?}); the attributes are their best six: /lotr create {name} random v,… (not the pick method instead)"
                    ),
                ));
            }
            let rolls = if *method == "random" {
                match state.creation_rolls.get(name) {
                    Some(r) => r.clone(),
                    None => {
                        return Err(Text::new(
                            format!(
                                "LR-1: ランダム法は先に /lotr create {name} random で2D6を9回振ります"
                            ),
                            format!(
                                "LR-1: the random method rolls the nine 2d6 first: /lotr create {name} random"
                            ),
                        ));
                    }
                }
            } else {
                Vec::new()
            };
            let sheet = Sheet {
                name: name.to_string(),
                race,
                order,
                method: method.to_string(),
                rolls,
                base: ATTRIBUTES
                    .iter()
                    .zip(&values)
                    .map(|(a, v)| (a.to_string(), *v))
                    .collect(),
                free_attributes: BTreeMap::new(),
                advanced_attributes: BTreeMap::new(),
                favoured: Vec::new(),
                favoured_reaction: None,
                renown: 0,
                order_abilities: Vec::new(),
                edges: Vec::new(),
                flaws: Vec::new(),
                skills: BTreeMap::new(),
            };
            let violations = sheet.attribute_violations(&data);
            if !violations.is_empty() {
                let ja: Vec<String> = violations
                    .iter()
                    .map(|v| format!("{}: {}", v.rule, v.message))
                    .collect();
                let en: Vec<String> = violations
                    .iter()
                    .map(|v| format!("{}: {}", v.rule, v.message_en))
                    .collect();
                return Err(Text::new(ja.join("／"), en.join("; ")));
            }
            let character = sheet.character(&data);
            let shown: Vec<String> = ATTRIBUTES
                .iter()
                .zip(character.attributes)
                .map(|(a, v)| format!("{a} {v}"))
                .collect();
            Ok(Outcome {
                events: vec![
                    Event::Imported {
                        name: name.to_string(),
                        character: Box::new(character),
                        made: true,
                    },
                    Event::Note {
                        ja: format!(
                            "{name}の能力値（LR-1、{}、種族修正込み）: {}",
                            if *method == "pick" {
                                "選択法"
                            } else {
                                "ランダム法"
                            },
                            shown.join(" ")
                        ),
                        en: format!(
                            "{name}'s attributes (LR-1, {} method, racial modifiers added): {}",
                            method,
                            shown.join(" ")
                        ),
                    },
                ],
                reply: None,
            })
        }
        _ => Err(create_usage()),
    }
}

/// A race or order name as the data spells it (case aside), or a refusal listing the
/// data's names.
fn known<'a>(
    name: &str,
    names: impl Iterator<Item = &'a String>,
    what: (&str, &str),
) -> Result<String, Text> {
    let names: Vec<&String> = names.collect();
    if let Some(n) = names.iter().find(|n| n.eq_ignore_ascii_case(name)) {
        return Ok(n.to_string());
    }
    let list: Vec<&str> = names.iter().map(|n| n.as_str()).collect();
    Err(Text::new(
        format!(
            "LR-1: {}「{name}」はデータにありません（{}）。データにない{}はシートファイルで（taku table sheet）",
            what.0,
            list.join("、"),
            what.0
        ),
        format!(
            "LR-1: no {} '{name}' in the data ({}); one of your own comes by a sheet file (taku table sheet)",
            what.1,
            list.join(", "),
        ),
    ))
}
