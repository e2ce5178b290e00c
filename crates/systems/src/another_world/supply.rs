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
//! One 【HP】 and one 【MP】 per character (「【HP】と【MP】は…減少する」): the character's
//! own `HP`/`MP` fields are the current values and `HP.max`/`MP.max` the maximums. Supply
//! events write the fields ([`crate::table_rules::TableRules::field_changes`]), so the
//! sheet, `{HP}` references, `/char set` and these commands read and change one value.

use super::rules::{Decided, Event as AwEvent, State, field, gm_only, may_act_for};
use crate::table_rules::{Outcome, TableView};
use serde::{Deserialize, Serialize};
use taku_dice::{Roller, Text};

/// HP and MP never go below this (AW-4: everyone has "at least 1").
pub const FLOOR: i64 = 1;

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
        /// The maximum HP the change keeps, when the character had `HP` and no `HP.max`
        /// (the value was also the maximum): written as `HP.max` with the new `HP`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hp_max: Option<i64>,
        /// The same for MP.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mp_max: Option<i64>,
        /// The character was an NPC whose data is the GM's (AW-3, not yet identified):
        /// the line is the GM's too.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        secret: bool,
    },
}

impl Event {
    /// Whether the line is the GM's alone (an unidentified NPC's HP and MP).
    pub fn secret(&self) -> bool {
        let Event::Changed { secret, .. } = self;
        *secret
    }

    /// The character fields the event sets: the current values, and a maximum the
    /// character's fields did not hold yet.
    pub fn field_changes(&self) -> Vec<(String, String, String)> {
        let Event::Changed {
            character,
            hp,
            mp,
            hp_max,
            mp_max,
            why,
            hp_dice,
            mp_dice,
            ..
        } = self;
        // A fixed change (`/supply heal`) sets only the value it changed: the other may not
        // exist (an NPC with HP and no MP).
        let heal = why.starts_with(HEAL);
        let mut out = Vec::new();
        for (key, now, max, changed) in [
            ("HP", hp, hp_max, !hp_dice.is_empty()),
            ("MP", mp, mp_max, !mp_dice.is_empty()),
        ] {
            if heal && !changed {
                continue;
            }
            out.push((character.clone(), key.to_string(), now.to_string()));
            if let Some(max) = max {
                out.push((character.clone(), format!("{key}.max"), max.to_string()));
            }
        }
        out
    }
}

/// Marks the HP/MP changes of NPCs whose data is the GM's ([`super::rules::secret_npc`])
/// as the GM's lines (AW-3: an enemy's data is made public by identification).
pub fn hide_secret_npcs(
    table: &dyn TableView,
    state: &State,
    mut outcome: Outcome<AwEvent>,
) -> Outcome<AwEvent> {
    for e in &mut outcome.events {
        if let AwEvent::Supply(Event::Changed {
            character, secret, ..
        }) = e
        {
            *secret = super::rules::secret_npc(table, state, character);
        }
    }
    outcome
}

/// The maxima a change must write beside the current values: those the character's
/// fields do not hold (a sheet with `HP` alone has it as both).
fn missing_max(table: &dyn TableView, name: &str) -> (Option<i64>, Option<i64>) {
    let missing = |key: &str| {
        field(table, name, &format!("{key}.max"))
            .is_err()
            .then(|| field(table, name, key).ok())
            .flatten()
    };
    (missing("HP"), missing("MP"))
}

/// HP and MP.
type Pair = (i64, i64);

/// A character's current HP and MP and their maximums, from its fields.
fn current(table: &dyn TableView, name: &str) -> Result<(Pair, Pair), Text> {
    let (hp, hp_max) = vital(table, name, "HP")?;
    let (mp, mp_max) = vital(table, name, "MP")?;
    Ok(((hp, mp), (hp_max, mp_max)))
}

/// A sheet's current value and maximum of `key` (`HP`): a sheet field `HP` is the current
/// value and `HP.max` the maximum; a sheet with `HP` alone has it as both (issue 13).
fn vital(table: &dyn TableView, name: &str, key: &str) -> Result<Pair, Text> {
    let now = field(table, name, key)?;
    let max = field(table, name, &format!("{key}.max")).unwrap_or(now);
    Ok((now.min(max), max))
}

fn roll(dice: &mut Roller<'_>, n: i64) -> Result<Vec<i64>, Text> {
    dice.roll_group(n, 6)
        .map(|d| d.to_vec())
        .map_err(|e| e.text())
}

fn count(word: &str, range: std::ops::RangeInclusive<i64>, why: Text) -> Result<i64, Text> {
    match word.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(Text::new(
            format!(
                "ダイスの数「{word}」: {}は{}〜{}個です（AW-4）",
                why.ja(),
                range.start(),
                range.end()
            ),
            format!(
                "'{word}' dice: {} takes {} to {} dice (AW-4)",
                why.en(),
                range.start(),
                range.end()
            ),
        )),
    }
}

fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

/// Why HP and MP changed, as a `Changed` event stores it: the Japanese line, which
/// [`why_text`] reads back in every language.
fn lack_why(n: i64, shared: bool) -> String {
    format!("{LACK}{n}D6{}", if shared { SHARED } else { "" })
}

fn supply_why(n: i64, bound: bool) -> String {
    format!("{SUPPLY}{n}D6{}", if bound { BOUND } else { "" })
}

const LACK: &str = "食事・睡眠の不足 ";
const SHARED: &str = "（共通）";
const SUPPLY: &str = "供給 ";
const BOUND: &str = "（契約）";

fn why_text(why: &str) -> Text {
    if let Some(rest) = why.strip_prefix(LACK) {
        let (dice, shared) = match rest.strip_suffix(SHARED) {
            Some(d) => (d, ", one roll for both"),
            None => (rest, ""),
        };
        return Text::new(why, format!("missed meals or sleep {dice}{shared}"));
    }
    if let Some(rest) = why.strip_prefix(HEAL) {
        return Text::new(why, format!("change: {rest}"));
    }
    if let Some(rest) = why.strip_prefix(SUPPLY) {
        let (dice, bound) = match rest.strip_suffix(BOUND) {
            Some(d) => (d, " (contract)"),
            None => (rest, ""),
        };
        return Text::new(why, format!("supply {dice}{bound}"));
    }
    if let Some(dice) = why.strip_prefix(AID) {
        return Text::new(why, format!("an NPC's help {dice}"));
    }
    Text::verbatim(why)
}

const AID: &str = "NPCの援助 ";

/// `/supply lack CHARACTER N [shared]`, `/supply give A B N`.
pub fn decide(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Decided {
    Some(match words {
        ["lack", character, n, rest @ ..] if rest.is_empty() || rest == ["shared"] => (|| {
            gm_only(
                table,
                Text::new("食事・睡眠の不足の適用", "apply missed meals or sleep"),
            )?;
            let n = count(
                n,
                1..=5,
                Text::new("食事・睡眠の不足", "a missed meal or sleep"),
            )?;
            let ((hp, mp), _) = current(table, character)?;
            let hp_dice = roll(dice, n)?;
            let mp_dice = if rest.is_empty() {
                roll(dice, n)?
            } else {
                hp_dice.clone()
            };
            let loss = |d: &[i64]| d.iter().sum::<i64>();
            Ok(Outcome {
                events: vec![AwEvent::Supply(Event::Changed {
                    hp_max: missing_max(table, character).0,
                    mp_max: missing_max(table, character).1,
                    secret: false,
                    character: character.to_string(),
                    why: lack_why(n, !rest.is_empty()),
                    hp: hp.saturating_sub(loss(&hp_dice)).max(FLOOR),
                    mp: mp.saturating_sub(loss(&mp_dice)).max(FLOOR),
                    hp_dice,
                    mp_dice,
                })],
                reply: None,
            })
        })(),
        ["lack", ..] => Err(usage(
            "/supply lack キャラクター N [shared]（Nは1〜5）",
            "/supply lack CHARACTER N [shared]  (N from 1 to 5)",
        )),
        ["give", rest @ ..] if rest.len() >= 3 => give(table, state, rest, dice),
        ["heal", character, which, amount, why @ ..] => {
            heal(table, character, which, amount, why, dice)
        }
        ["heal", ..] => Err(usage(
            "/supply heal キャラクター HP|MP 量 [理由]（量は 5、-3、2D6 など）",
            "/supply heal CHARACTER HP|MP AMOUNT [REASON]  (AMOUNT: 5, -3, 2D6, …)",
        )),
        ["give", ..] => Err(usage(
            "/supply give キャラクター キャラクター… N",
            "/supply give CHARACTER CHARACTER… N",
        )),
        _ => Err(usage(
            "/supply lack キャラクター N [shared] | /supply give A B N",
            "/supply lack CHARACTER N [shared] | /supply give A B N",
        )),
    })
}

/// AW-4 「2人以上のキャラクターが体液を交換する」: every named character recovers nD6 HP and
/// MP. 「1〜2D6点回復、契約状態にあるキャラクター同士の供給ならば3〜4D6点回復が望ましい」 is a
/// recommendation: a player stays within it, the GM may go outside it (1 to 10 dice) and is
/// told so (issue 13).
fn give(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Outcome<AwEvent>, Text> {
    let (names, n) = words.split_at(words.len() - 1);
    let n = n[0];
    for (i, a) in names.iter().enumerate() {
        if names[..i].contains(a) {
            return Err(Text::new(
                "供給は2人以上の別々のキャラクターの間で行ないます",
                "supply is an exchange between two or more different characters",
            ));
        }
    }
    if names.iter().all(|a| may_act_for(table, a).is_err()) {
        may_act_for(table, names[0])?;
    }
    // 「契約状態にあるキャラクター同士の供給」: every two of them in a contract with each other
    // (issue 13 play-through 4: ミナ→ロイ→ユキ was labelled 契約 though ミナ and ユキ are not).
    let bound = names
        .iter()
        .all(|a| names.iter().all(|b| a == b || state.contracts.bound(a, b)));
    let recommended = if bound { 3..=4 } else { 1..=2 };
    let who = names.join("、");
    let who_en = names.join(", ");
    // The pairs not in a contract, named when others are (issue 13 play-through 5: with
    // ミナ–ロイ and ミナ–ユキ contracted, 「契約していないミナ、ロイ、ユキ」 was false).
    let pairs: Vec<(&str, &str)> = names
        .iter()
        .enumerate()
        .flat_map(|(i, a)| names[i + 1..].iter().map(move |b| (*a, *b)))
        .collect();
    let loose: Vec<&(&str, &str)> = pairs
        .iter()
        .filter(|(a, b)| !state.contracts.bound(a, b))
        .collect();
    let why = if bound {
        Text::new(
            format!("契約中の{who}の供給"),
            format!("supply between {who_en}, who are in a contract,"),
        )
    } else if loose.len() < pairs.len() {
        let ja: Vec<String> = loose.iter().map(|(a, b)| format!("{a}と{b}")).collect();
        let en: Vec<String> = loose.iter().map(|(a, b)| format!("{a} and {b}")).collect();
        Text::new(
            format!(
                "{who}の供給（{}は契約していないので、全員が互いに契約中ではありません）",
                ja.join("、")
            ),
            format!(
                "supply between {who_en} ({} are not in a contract, so not every two of them are),",
                en.join("; ")
            ),
        )
    } else {
        Text::new(
            format!("契約していない{who}の供給"),
            format!("supply between {who_en}, who are not in a contract,"),
        )
    };
    let n = match count(n, recommended.clone(), why.clone()) {
        Ok(n) => n,
        Err(e) if !table.actor_is_gm() => return Err(e),
        Err(_) => count(
            n,
            1..=10,
            Text::new("GMの決める供給", "supply as the GM decides"),
        )?,
    };
    // An exchange every side takes part in (「2人以上のキャラクターが体液を交換する」): a player
    // runs it among their own characters; with another member's, both agree and the GM runs
    // it (issue 13 play-through: a player supplied another player's PC alone).
    if !table.actor_is_gm()
        && let Some((other, owner)) = names.iter().find_map(|a| {
            table
                .character(a)
                .filter(|(o, _)| *o != table.actor())
                .map(|(o, _)| (*a, o.to_string()))
        })
    {
        return Err(Text::new(
            format!(
                "{other}は{owner}のキャラクターです。供給はお互いが体液を交換する行為なので、ほかのメンバーのキャラクターとの供給は、両者が合意したうえでGMが /supply give で行ないます（AW-4）"
            ),
            format!(
                "{other} belongs to {owner}; supply is an exchange both sides take part in, so with another member's character the GM runs /supply give once both agree (AW-4)"
            ),
        ));
    }
    let reply = (!recommended.contains(&n)).then(|| {
        Text::new(
            format!(
                "注意: {}の回復量は{}〜{}D6が望ましいとされています（AW-4）。GMの判断で{n}D6にしました",
                why.ja(),
                recommended.start(),
                recommended.end()
            ),
            format!(
                "note: {} is recommended at {} to {}D6 (AW-4); {n}D6 by the GM's decision",
                why.en(),
                recommended.start(),
                recommended.end()
            ),
        )
    });
    let mut events = Vec::new();
    for who in names {
        let ((hp, mp), (max_hp, max_mp)) = current(table, who)?;
        let d = roll(dice, n)?;
        let gain: i64 = d.iter().sum();
        events.push(AwEvent::Supply(Event::Changed {
            hp_max: missing_max(table, who).0,
            mp_max: missing_max(table, who).1,
            secret: false,
            character: who.to_string(),
            why: supply_why(n, bound),
            hp: hp.saturating_add(gain).min(max_hp.max(hp)),
            mp: mp.saturating_add(gain).min(max_mp.max(mp)),
            hp_dice: d.clone(),
            mp_dice: d,
        }));
    }
    Ok(Outcome { events, reply })
}

/// AW-4 recovery by skills, food and sleep (and damage): the GM or the owner changes a
/// current value, kept within 0 and the maximum (issue 13).
fn heal(
    table: &dyn TableView,
    character: &str,
    which: &str,
    amount: &str,
    why: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Outcome<AwEvent>, Text> {
    may_act_for(table, character)?;
    let hp_side = match which.to_ascii_uppercase().as_str() {
        "HP" => true,
        "MP" => false,
        _ => {
            return Err(Text::new(
                format!("「{which}」は HP か MP です"),
                format!("'{which}' is HP or MP"),
            ));
        }
    };
    let (delta, rolled) = heal_amount(amount, dice)?;
    // Only the value changed is read (and written, see `Event::field_changes`): an NPC
    // with 【HP】 and no 【MP】 takes damage.
    let key = if hp_side { "HP" } else { "MP" };
    let (now, max) = vital(table, character, key)?;
    // Recovery needs the maximum it stops at: without `HP上限` the current value would be
    // taken as the maximum and a wounded character could not recover (issue 13
    // play-through 4: 5 + 3 stayed 5). Damage keeps today's value as the maximum.
    if delta > 0 && field(table, character, &format!("{key}.max")).is_err() {
        return Err(Text::new(
            format!(
                "{character}の【{key}】上限がないので、回復がどこまでか分かりません。先に /char set {character} {key}上限 12 のように上限を決めてください（AW-4）"
            ),
            format!(
                "{character} has no {key} maximum, so a recovery has nothing to stop at; set it first, e.g. /char set {character} {key}.max 12 (AW-4)"
            ),
        ));
    }
    let changed = now.saturating_add(delta).clamp(0, max.max(0));
    let other = |key: &str| field(table, character, key).unwrap_or(0);
    let (hp, mp) = if hp_side {
        (changed, other("MP"))
    } else {
        (other("HP"), changed)
    };
    let (hp_max, mp_max) = missing_max(table, character);
    let reason = if why.is_empty() {
        "回復".to_string()
    } else {
        why.join(" ")
    };
    let reason = match rolled {
        Some(r) => format!("{reason} {r}"),
        None => reason,
    };
    Ok(Outcome {
        events: vec![AwEvent::Supply(Event::Changed {
            hp_max: if hp_side { hp_max } else { None },
            mp_max: if hp_side { None } else { mp_max },
            secret: false,
            character: character.to_string(),
            why: format!("{HEAL}{reason}"),
            hp_dice: if hp_side { vec![delta] } else { Vec::new() },
            mp_dice: if hp_side { Vec::new() } else { vec![delta] },
            hp,
            mp,
        })],
        reply: None,
    })
}

const HEAL: &str = "増減: ";

/// `/supply heal`'s amount: a whole number (`5`, `-3`) or dice (`2D6`, `-1D6`, `2D6+1`,
/// full-width too), rolled on the table's dice — skills and food recover by dice (the
/// seed's AF example 3: 「1D6点回復」). Dice: 1 to 20 dice of 2 to 100 sides.
fn heal_amount(amount: &str, dice: &mut Roller<'_>) -> Result<(i64, Option<String>), Text> {
    let bad = || {
        Text::new(
            format!(
                "「{amount}」は量ではありません（5、-3 のような整数か、2D6、-1D6、2D6+1 のようなダイス）"
            ),
            format!(
                "'{amount}' is not an amount (a whole number such as 5 or -3, or dice such as 2D6, -1D6, 2D6+1)"
            ),
        )
    };
    let folded: String = amount
        .chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            c => c,
        })
        .collect::<String>()
        .to_ascii_uppercase();
    let small = |t: &str| t.len() <= 6 && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if small(folded.trim_start_matches(['+', '-'])) {
        let n: i64 = folded.trim_start_matches('+').parse().map_err(|_| bad())?;
        return Ok((n, None));
    }
    let (sign, body) = match folded.strip_prefix('-') {
        Some(b) => (-1, b),
        None => (1, folded.strip_prefix('+').unwrap_or(&folded)),
    };
    let (dice_part, plus) = match body.find(['+', '-']) {
        Some(at) => (&body[..at], Some(&body[at..])),
        None => (body, None),
    };
    let (n, sides) = dice_part.split_once('D').ok_or_else(bad)?;
    if !small(n) || !small(sides) {
        return Err(bad());
    }
    let (n, sides): (i64, i64) = (
        n.parse().map_err(|_| bad())?,
        sides.parse().map_err(|_| bad())?,
    );
    if !(1..=20).contains(&n) || !(2..=100).contains(&sides) {
        return Err(bad());
    }
    let plus: i64 = match plus {
        None => 0,
        Some(p) if small(p.trim_start_matches(['+', '-'])) => {
            p.trim_start_matches('+').parse().map_err(|_| bad())?
        }
        Some(_) => return Err(bad()),
    };
    let rolled = dice
        .roll_group(n, sides)
        .map(|d| d.to_vec())
        .map_err(|e| e.text())?;
    let sum: i64 = rolled.iter().sum::<i64>() + plus;
    let faces: Vec<String> = rolled.iter().map(i64::to_string).collect();
    let text = format!(
        "{}{n}D{sides}{}[{}]",
        if sign < 0 { "-" } else { "" },
        taku_dice::system_command::format_modifier(plus),
        faces.join(",")
    );
    Ok((sign * sum, Some(text)))
}

/// HP and MP of `character` recover by `hp` and `mp` (dice already rolled), within the
/// maximums; `why` names the cause (`NPCの援助 1D6`).
pub fn recover(
    table: &dyn TableView,
    character: &str,
    hp: i64,
    mp: i64,
    why: &str,
) -> Result<AwEvent, Text> {
    let ((now_hp, now_mp), (max_hp, max_mp)) = current(table, character)?;
    Ok(AwEvent::Supply(Event::Changed {
        hp_max: missing_max(table, character).0,
        mp_max: missing_max(table, character).1,
        secret: false,
        character: character.to_string(),
        why: why.to_string(),
        hp_dice: vec![hp],
        mp_dice: vec![mp],
        hp: now_hp.saturating_add(hp).clamp(0, max_hp.max(0)),
        mp: now_mp.saturating_add(mp).clamp(0, max_mp.max(0)),
    }))
}

fn dice_text(d: &[i64]) -> String {
    let s: Vec<String> = d.iter().map(i64::to_string).collect();
    format!("{}[{}]", d.iter().sum::<i64>(), s.join(","))
}

/// A line of log text.
pub fn describe(e: &Event) -> Text {
    let Event::Changed {
        character,
        why,
        hp_dice,
        mp_dice,
        hp,
        mp,
        ..
    } = e;
    // A fixed change (`/supply heal`): the amount with its sign, the untouched value not
    // listed, and no dice brackets.
    if let Some(reason) = why.strip_prefix(HEAL) {
        let change = |d: &[i64]| {
            d.first()
                .map(|n| taku_dice::system_command::format_modifier(*n))
                .map(|n| if n.is_empty() { "±0".to_string() } else { n })
        };
        let mut ja = Vec::new();
        let mut en = Vec::new();
        if let Some(c) = change(hp_dice) {
            ja.push(format!("【HP】{c} ＞ {hp}"));
            en.push(format!("HP {c} > {hp}"));
        }
        if let Some(c) = change(mp_dice) {
            ja.push(format!("【MP】{c} ＞ {mp}"));
            en.push(format!("MP {c} > {mp}"));
        }
        let (rja, ren) = if reason == "回復" {
            (String::new(), String::new())
        } else {
            (format!("（{reason}）"), format!(" ({reason})"))
        };
        return Text::new(
            format!("{character} 増減{rja}: {}", ja.join("、")),
            format!("{character}, change{ren}: {}", en.join(", ")),
        );
    }
    let why = why_text(why);
    Text::new(
        format!(
            "{character} {}: 【HP】{} ＞ {hp}、【MP】{} ＞ {mp}",
            why.ja(),
            dice_text(hp_dice),
            dice_text(mp_dice)
        ),
        format!(
            "{character}, {}: HP {} > {hp}, MP {} > {mp}",
            why.en(),
            dice_text(hp_dice),
            dice_text(mp_dice)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reasons_a_log_keeps_read_in_both_languages() {
        assert_eq!(lack_why(3, true), "食事・睡眠の不足 3D6（共通）");
        assert_eq!(supply_why(2, false), "供給 2D6");
        assert_eq!(
            why_text(&lack_why(3, true)).en(),
            "missed meals or sleep 3D6, one roll for both"
        );
        assert_eq!(why_text(&supply_why(4, true)).en(), "supply 4D6 (contract)");
    }
}
