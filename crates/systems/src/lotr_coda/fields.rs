//! The character fields LotR's rules read at a table (see [`super::rules::to_fields`]),
//! checked when a member's `/char set` or sheet gives them a value
//! ([`crate::table_rules::TableRules::field_value_by`]):
//!
//! - each value must be what the rules can read: an attribute a whole number within LR-1's
//!   range (1 to 12 + the racial modifier; a GM may pass the maximum, 「魔法によって一時的に
//!   上回ることもある」), a skill `RANKS|ATTR|AFFINITIES|SPEC;SPEC` with ranks 0 to 12 (6 at
//!   creation, LR-8), a Size the rules know, and so on; a misspelt key of the record
//!   (`str` for `STR`) is refused rather than kept beside the rules' own;
//! - once the character is made (the rules have read its record, or its fields hold all six
//!   attributes), what the rules or the GM change is no longer a player's to type: an
//!   attribute rises by an advancement pick (LR-12), skills, edges, flaws, order abilities
//!   and orders by picks, reactions and Health by their picks; the GM may still set them (a
//!   lost attribute point, magic, a correction), and the rules follow the GM's value;
//! - a PC fallen to the enemy (LR-7) is the GM's: its player changes none of its fields.
//!
//! Fields the rules do not read pass as typed.

use super::character::{self, ATTRIBUTE_CAP, ATTRIBUTES, MAX_RANKS, Size};
use super::rules::State;
use super::sheet::Data;
use crate::table_rules::TableView;
use std::collections::BTreeMap;
use taku_dice::Text;

/// The largest attribute a GM may set (magic may pass the racial maximum, LR-1); past it a
/// value is a typo.
pub const GM_ATTRIBUTE_MAX: i64 = 99;
/// The largest advance count a reaction or Health field takes (a typo bound).
const MAX_ADVANCES: i64 = 99;

/// What a record field is, for its check and for who may change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A current attribute (`STR`).
    Attribute(usize),
    /// An attribute at creation (`created.STR`).
    Created(usize),
    /// A skill (`skill.Stealth`).
    Skill,
    /// `race`, `order`, `size`, `hobbit`.
    Identity,
    /// `edges`, `flaws`, `abilities`, `order_skills`, `courage_edges`.
    Bought,
    /// `favoured`, `favoured_reaction`.
    Favoured,
    /// `reaction_advances`, `health_advances`.
    Advances,
    /// A random-method sheet's nine 2d6 (`rolls`).
    Rolls,
    /// Renown at creation (`created.Renown`).
    Renown,
}

/// The record's field keys other than the attributes and skills, with their kind.
const KEYS: &[(&str, Kind)] = &[
    ("race", Kind::Identity),
    ("order", Kind::Identity),
    ("size", Kind::Identity),
    ("hobbit", Kind::Identity),
    ("edges", Kind::Bought),
    ("flaws", Kind::Bought),
    ("abilities", Kind::Bought),
    ("order_skills", Kind::Bought),
    ("courage_edges", Kind::Bought),
    ("favoured", Kind::Favoured),
    ("favoured_reaction", Kind::Favoured),
    ("reaction_advances", Kind::Advances),
    ("health_advances", Kind::Advances),
    ("rolls", Kind::Rolls),
];

/// `key`'s kind and its spelling in the record, when it names a record field (in any
/// case, full-width letters read as ASCII).
fn kind(key: &str) -> Option<(Kind, String)> {
    let folded: String = key
        .trim()
        .chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect();
    let lower = folded.to_ascii_lowercase();
    if let Some(i) = ATTRIBUTES
        .iter()
        .position(|a| a.eq_ignore_ascii_case(&lower))
    {
        return Some((Kind::Attribute(i), ATTRIBUTES[i].to_string()));
    }
    if let Some(a) = lower.strip_prefix("created.")
        && let Some(i) = ATTRIBUTES.iter().position(|x| x.eq_ignore_ascii_case(a))
    {
        return Some((Kind::Created(i), format!("created.{}", ATTRIBUTES[i])));
    }
    if lower == "created.renown" {
        return Some((Kind::Renown, "created.Renown".into()));
    }
    if lower.starts_with("skill.") {
        let name = &folded["skill.".len()..];
        return Some((
            Kind::Skill,
            format!("skill.{}", name.trim().replace(' ', "_")),
        ));
    }
    KEYS.iter()
        .find(|(k, _)| *k == lower)
        .map(|(k, kind)| (*kind, (*k).to_string()))
}

/// Whether `key` names one of the record's fields (`STR`, `created.NIM`, `skill.Ride`,
/// `race` …), as spelt in the record.
pub fn is_record_key(key: &str) -> bool {
    kind(key).is_some_and(|(_, spelt)| spelt == key.trim())
}

/// `value` with full-width digits, signs and commas read as ASCII, trimmed.
fn ascii(value: &str) -> String {
    value
        .trim()
        .chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '＋' => '+',
            '－' | '−' => '-',
            '，' | '、' => ',',
            c => c,
        })
        .collect()
}

/// At most 40 characters of a typed value, for a message.
fn short(value: &str) -> String {
    let mut out: String = value.chars().take(40).collect();
    if value.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// A whole number from `lo` to `hi`, or a refusal naming `what` and the range.
fn whole(value: &str, lo: i64, hi: i64, what: (&str, &str)) -> Result<i64, Text> {
    match ascii(value).parse::<i64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(Text::new(
            format!(
                "{}は{lo}〜{hi}の整数です（「{}」は使えません）",
                what.0,
                short(value)
            ),
            format!(
                "{} is a whole number from {lo} to {hi} ('{}' is not)",
                what.1,
                short(value)
            ),
        )),
    }
}

/// LR-1: the largest value of attribute `i` for `race`: 12 + its racial modifier.
pub fn attribute_max(race: &str, i: usize) -> i64 {
    let data = Data::example();
    let m: i64 = data.races.get(race).map_or(0, |r| {
        r.modifiers
            .iter()
            .filter(|(k, _)| character::attribute(k) == Some(i))
            .map(|(_, v)| *v)
            .sum()
    });
    ATTRIBUTE_CAP + m
}

/// Checks `value` for a record field of kind `kind` (`key` as the record spells it), set by
/// a GM or not; the value to store.
fn checked(kind: Kind, key: &str, value: &str, gm: bool, race: &str) -> Result<String, Text> {
    match kind {
        Kind::Attribute(i) | Kind::Created(i) => {
            let (hi, why_ja, why_en) = if gm {
                (
                    GM_ATTRIBUTE_MAX,
                    "、GMは魔法などで種族の上限を超えられます".to_string(),
                    ", a GM may pass the racial maximum (magic)".to_string(),
                )
            } else {
                let max = attribute_max(race, i);
                (
                    max,
                    format!("、{race}の上限は12+種族修正={max}"),
                    format!(", 12 + the racial modifier = {max} for {race}"),
                )
            };
            let n = whole(
                value,
                1,
                hi,
                (
                    &format!("{key}（能力値、LR-1: 最小1{why_ja}）"),
                    &format!("{key} (an attribute, LR-1: at least 1{why_en})"),
                ),
            )?;
            Ok(n.to_string())
        }
        Kind::Skill => skill(key, value),
        Kind::Identity => match key {
            "size" => Size::parse(value.trim())
                .map(|s| s.name().to_string())
                .ok_or_else(|| {
                    Text::new(
                        format!(
                            "size は small / medium / large / mammoth のどれかです（LR-3、LR-4）。「{}」は使えません",
                            short(value)
                        ),
                        format!(
                            "size is one of small / medium / large / mammoth (LR-3, LR-4); '{}' is not",
                            short(value)
                        ),
                    )
                }),
            "hobbit" => match value.trim() {
                "true" | "false" => Ok(value.trim().to_string()),
                _ => Err(Text::new(
                    format!(
                        "hobbit は true か false です（true: Near Death なし、LR-4）。「{}」は使えません",
                        short(value)
                    ),
                    format!(
                        "hobbit is true or false (true: no Near Death, LR-4); '{}' is not",
                        short(value)
                    ),
                )),
            },
            _ => Ok(value.trim().to_string()),
        },
        Kind::Bought if key == "courage_edges" => courage_edges(value),
        Kind::Bought => Ok(value.trim().to_string()),
        Kind::Favoured if key == "favoured" => {
            let names: Vec<&str> = value
                .split([',', '、'])
                .map(str::trim)
                .filter(|x| !x.is_empty())
                .collect();
            match names.iter().find(|n| character::attribute(n).is_none()) {
                None => Ok(names
                    .iter()
                    .filter_map(|n| character::attribute(n))
                    .map(|i| ATTRIBUTES[i])
                    .collect::<Vec<_>>()
                    .join(",")),
                Some(bad) => Err(Text::new(
                    format!(
                        "favoured は能力値の名前をカンマで区切ったものです（BRG NIM PER STR VIT WIT、LR-1）。「{}」はありません",
                        short(bad)
                    ),
                    format!(
                        "favoured lists attributes, comma-separated (BRG NIM PER STR VIT WIT, LR-1); there is no '{}'",
                        short(bad)
                    ),
                )),
            }
        }
        Kind::Favoured => {
            let v = value.trim();
            match character::reaction(v) {
                _ if v.is_empty() => Ok(String::new()),
                Some(i) => Ok(character::REACTIONS[i].0.to_string()),
                None => Err(Text::new(
                    format!(
                        "favoured_reaction は反応値の名前です（Stamina Swiftness Willpower Wisdom、LR-3）。「{}」はありません",
                        short(v)
                    ),
                    format!(
                        "favoured_reaction is a reaction (Stamina Swiftness Willpower Wisdom, LR-3); there is no '{}'",
                        short(v)
                    ),
                )),
            }
        }
        Kind::Renown => whole(
            value,
            -1000,
            1000,
            ("created.Renown（作成時の Renown、LR-3）", "created.Renown (Renown at creation, LR-3)"),
        )
        .map(|n| n.to_string()),
        Kind::Rolls => {
            let rolls: Result<Vec<i64>, Text> = ascii(value)
                .split(',')
                .map(|r| whole(r, 2, 12, ("rolls の各値（2D6）", "each of rolls (a 2d6)")))
                .collect();
            let rolls = rolls?;
            if rolls.len() != super::sheet::RANDOM_ROLLS {
                return Err(Text::new(
                    "LR-1: rolls は2D6の結果9つです（ランダム法）",
                    "LR-1: rolls are nine 2d6 results (the random method)",
                ));
            }
            Ok(rolls
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(","))
        }
        Kind::Advances if key == "health_advances" => whole(
            value,
            0,
            MAX_ADVANCES,
            (
                "health_advances（Health の成長回数、LR-12）",
                "health_advances (Health's advances, LR-12)",
            ),
        )
        .map(|n| n.to_string()),
        Kind::Advances => {
            let what = (
                "reaction_advances（Stamina,Swiftness,Willpower,Wisdom の成長回数、LR-12）の各値",
                "each of reaction_advances (the advances of Stamina,Swiftness,Willpower,Wisdom, LR-12)",
            );
            let parts: Vec<String> = ascii(value).split(',').map(str::to_string).collect();
            if parts.len() > 4 {
                return Err(Text::new(
                    format!(
                        "reaction_advances は4つまでの数です（例 1,0,0,2）。「{}」は多すぎます",
                        short(value)
                    ),
                    format!(
                        "reaction_advances is at most four numbers (e.g. 1,0,0,2); '{}' has more",
                        short(value)
                    ),
                ));
            }
            let ns: Result<Vec<String>, Text> = parts
                .iter()
                .map(|p| whole(p, 0, MAX_ADVANCES, what).map(|n| n.to_string()))
                .collect();
            Ok(ns?.join(","))
        }
    }
}

/// A skill field's value, `RANKS|ATTR|AFFINITIES|SPEC;SPEC` (only RANKS needed): ranks 0
/// to 12 (LR-8; the sheet checks a creation's 6 at most, and a sheet may carry advances).
fn skill(key: &str, value: &str) -> Result<String, Text> {
    let name = key.trim_start_matches("skill.");
    if name.trim_matches('_').is_empty() {
        return Err(Text::new(
            "skill. の後に技能名を書いてください（例 skill.Stealth 3|NIM）",
            "write the skill's name after skill. (e.g. skill.Stealth 3|NIM)",
        ));
    }
    let parts: Vec<&str> = value.split('|').collect();
    let ranks = whole(
        parts.first().copied().unwrap_or(""),
        0,
        MAX_RANKS,
        (
            &format!("{key} のランク（値は ランク|能力値|親和|特化;特化、LR-8）"),
            &format!("{key}'s ranks (the value is RANKS|ATTR|AFFINITIES|SPEC;SPEC, LR-8)"),
        ),
    )?;
    let attribute = match parts.get(1).map(|a| a.trim()) {
        None | Some("") => Data::example()
            .skill_attribute(&name.replace('_', " "))
            .map_or("", |i| ATTRIBUTES[i]),
        Some(a) => match character::attribute(a) {
            Some(i) => ATTRIBUTES[i],
            None => {
                return Err(Text::new(
                    format!(
                        "{key} の2つ目は能力値です（BRG NIM PER STR VIT WIT）。「{}」はありません",
                        short(a)
                    ),
                    format!(
                        "{key}'s second part is an attribute (BRG NIM PER STR VIT WIT); there is no '{}'",
                        short(a)
                    ),
                ));
            }
        },
    };
    let affinities = match parts.get(2).map(|a| a.trim()) {
        None | Some("") => 0,
        Some(a) => whole(
            a,
            0,
            MAX_RANKS,
            (
                &format!("{key} の親和ボーナス（LR-8）"),
                &format!("{key}'s affinity bonus (LR-8)"),
            ),
        )?,
    };
    if parts.len() > 4 {
        return Err(Text::new(
            format!("{key} の値は ランク|能力値|親和|特化;特化 です（| は3つまで）"),
            format!("{key}'s value is RANKS|ATTR|AFFINITIES|SPEC;SPEC (at most three |)"),
        ));
    }
    let specs = parts.get(3).map_or("", |s| s.trim());
    // LR-8: 「ランク0の技能に特化はできない」.
    if ranks == 0 && !specs.is_empty() {
        return Err(Text::new(
            format!("{key}: ランク0の技能に特化はつけられません（LR-8）"),
            format!("{key}: a rank-0 skill takes no specialisation (LR-8)"),
        ));
    }
    Ok(format!("{ranks}|{attribute}|{affinities}|{specs}"))
}

/// `courage_edges`: `EDGE=BONUS[@SKILL+SKILL];…` (LR-6: Bold=2;Horselord=2@Ride).
fn courage_edges(value: &str) -> Result<String, Text> {
    let mut out = Vec::new();
    for e in ascii(value)
        .split(';')
        .map(str::trim)
        .filter(|e| !e.is_empty())
    {
        let parsed = e.split_once('=').and_then(|(edge, rest)| {
            let (bonus, skills) = rest.split_once('@').unwrap_or((rest, ""));
            let bonus: i64 = bonus.trim().parse().ok().filter(|b: &i64| b.abs() <= 99)?;
            (!edge.trim().is_empty()).then(|| {
                if skills.trim().is_empty() {
                    format!("{}={bonus}", edge.trim())
                } else {
                    format!("{}={bonus}@{}", edge.trim(), skills.trim())
                }
            })
        });
        match parsed {
            Some(p) => out.push(p),
            None => {
                return Err(Text::new(
                    format!(
                        "courage_edges は 特徴=勇気1点あたりの追加[@技能+技能] を ; で区切ったものです（例 Bold=2;Horselord=2@Ride、LR-6）。「{}」は読めません",
                        short(e)
                    ),
                    format!(
                        "courage_edges is EDGE=BONUS[@SKILL+SKILL] separated by ; (e.g. Bold=2;Horselord=2@Ride, LR-6); '{}' cannot be read",
                        short(e)
                    ),
                ));
            }
        }
    }
    Ok(out.join(";"))
}

/// Who changes a field of kind `kind` once the character is made, for the refusal.
fn how(kind: Kind, key: &str, name: &str) -> (String, String) {
    match kind {
        Kind::Attribute(i) => (
            format!(
                "能力値は成長の pick で上がります（/lotr xp pick {name} attr {a}、LR-12）。魔法や能力値の喪失（LR-4）はGMが /char set で設定します",
                a = ATTRIBUTES[i]
            ),
            format!(
                "an attribute rises by an advancement pick (/lotr xp pick {name} attr {a}, LR-12); magic and lost points (LR-4) are the GM's /char set",
                a = ATTRIBUTES[i]
            ),
        ),
        Kind::Created(_) => (
            "作成時の能力値は反応値と Health の元で（LR-3）、作成後はGMだけが直せます".into(),
            "the creation attributes give the reactions and Health (LR-3); once the character is made only a GM corrects them".into(),
        ),
        Kind::Skill => (
            format!(
                "技能は成長の pick で上がります（/lotr xp pick {name} rank 技能、特化は spec 技能 分野、LR-8、LR-12）"
            ),
            format!(
                "skills rise by advancement picks (/lotr xp pick {name} rank SKILL, a specialisation: spec SKILL FIELD; LR-8, LR-12)"
            ),
        ),
        Kind::Identity if key == "order" => (
            format!("新しい職業は成長の pick で（/lotr xp pick {name} order 職業、LR-12）"),
            format!("a new order is an advancement pick (/lotr xp pick {name} order ORDER, LR-12)"),
        ),
        Kind::Identity => (
            "種族と大きさは作成時に決まります（LR-1、LR-3）".into(),
            "race and Size are fixed at creation (LR-1, LR-3)".into(),
        ),
        Kind::Bought => (
            format!(
                "特徴・職業能力は成長の pick で（/lotr xp pick {name} edge 名 / ability 職業 名）、新しい欠点は /lotr xp advance {name} flaw=欠点 で（LR-12）"
            ),
            format!(
                "edges and order abilities are advancement picks (/lotr xp pick {name} edge NAME / ability ORDER NAME), a new flaw /lotr xp advance {name} flaw=FLAW (LR-12)"
            ),
        ),
        Kind::Renown => (
            format!("Renown はGMが /lotr renown {name} +1 で上げます（LR-3）"),
            format!("Renown rises with the GM's /lotr renown {name} +1 (LR-3)"),
        ),
        Kind::Rolls => (
            "ランダム法の出目は作成時に一度だけ振ります（LR-1）".into(),
            "the random method's rolls are made once, at creation (LR-1)".into(),
        ),
        Kind::Favoured => (
            "得意な能力値と反応値は作成時に選びます（LR-1、LR-3）".into(),
            "favoured attributes and the favoured reaction are chosen at creation (LR-1, LR-3)".into(),
        ),
        Kind::Advances => (
            format!(
                "反応値と Health の成長は pick で（/lotr xp pick {name} reaction Stamina / health、LR-12）"
            ),
            format!(
                "reactions and Health advance by picks (/lotr xp pick {name} reaction Stamina / health, LR-12)"
            ),
        ),
    }
}

/// The check of [`crate::table_rules::TableRules::field_value_by`] for LotR (see the
/// module's text).
pub fn field_value_by(
    table: &dyn TableView,
    state: &State,
    name: &str,
    key: &str,
    value: &str,
    fields: &BTreeMap<String, String>,
) -> Result<String, Text> {
    let gm = table.actor_is_gm();
    let before = table.character(name).map(|(_, f)| f);
    // LR-7: 「NPCとなり, 冥王の手先となる」: the GM plays it now.
    if !gm && state.status.get(name).is_some_and(|s| s.npc) {
        return Err(Text::new(
            format!("{name}は堕落してNPCになったので（LR-7）、その欄はGMだけが変えられます"),
            format!(
                "{name} has fallen to the enemy and is an NPC (LR-7): only a GM changes its fields"
            ),
        ));
    }
    let Some((kind, spelt)) = kind(key) else {
        return Ok(value.to_string());
    };
    if key.trim() != spelt {
        return Err(Text::new(
            format!(
                "「{}」はルールが読む欄 {spelt} のことなら {spelt} と書いてください（別の欄にするなら別の名前に）",
                short(key)
            ),
            format!(
                "if '{}' means the rules' field {spelt}, write it {spelt} (or give another field another name)",
                short(key)
            ),
        ));
    }
    // LR-14: a name the GM's own fighter has is not a player's to take.
    if !gm
        && state.sub.combat.get(name).is_some_and(|f| f.gms)
        && !state.characters.contains_key(name)
    {
        return Err(Text::new(
            format!("LR-14: {name} は戦闘中のGMのキャラクターの名前です。別の名前にしてください"),
            format!(
                "LR-14: {name} is the name of the GM's fighter in the combat; choose another name"
            ),
        ));
    }
    let made = state.characters.contains_key(name)
        || before.is_some_and(|f| ATTRIBUTES.iter().all(|a| f.contains_key(*a)));
    let race = fields
        .get("race")
        .cloned()
        .or_else(|| state.characters.get(name).map(|c| c.race.clone()))
        .unwrap_or_else(|| "Men".into());
    let stored = checked(kind, &spelt, value, gm, &race);
    let previous = before.and_then(|f| f.get(&spelt));
    // A sheet sent again with a value unchanged changes nothing.
    let unchanged = previous.is_some_and(|p| {
        p == value
            || stored.as_ref().ok().is_some_and(|v| {
                p == v || checked(kind, &spelt, p, true, &race).ok().as_ref() == Some(v)
            })
    });
    // LR-1 「ランダム法: 2d6 を9回振って」: at a table the nine 2d6 are the table's, rolled
    // by `/lotr create NAME random`; a sheet's own rolls are not (the GM may allow them).
    if kind == Kind::Rolls && !gm && !made {
        let rolled = state.creation_rolls.get(name);
        let mut want: Vec<i64> = rolled.cloned().unwrap_or_default();
        let mut got: Vec<i64> = stored
            .as_ref()
            .map(|v| v.split(',').filter_map(|r| r.parse().ok()).collect())
            .unwrap_or_default();
        want.sort_unstable();
        got.sort_unstable();
        if rolled.is_none() || want != got {
            let said = rolled.map_or(String::new(), |r| format!("{r:?}"));
            return Err(Text::new(
                format!(
                    "LR-1: テーブルではランダム法の2D6×9はテーブルで振ります（/lotr create {name} random）。シートの rolls はその出目{said}にしてください（GMは別の出目を認められます）"
                ),
                format!(
                    "LR-1: at a table the random method's nine 2d6 are rolled there (/lotr create {name} random); the sheet's rolls must be those{said} (a GM may allow others)"
                ),
            ));
        }
    }
    // LR-3 「Renown: 知名度. 0 からスタート」: a player's new character starts at 0.
    if kind == Kind::Renown && !gm && !made && stored.as_deref().is_ok_and(|v| v != "0") {
        return Err(Text::new(
            format!(
                "LR-3: Renown は0から始まります（シートの renown = 0。上げるのはGMの /lotr renown {name} +1）"
            ),
            format!(
                "LR-3: Renown starts at 0 (renown = 0 on the sheet; the GM raises it with /lotr renown {name} +1)"
            ),
        ));
    }
    if made && !gm && !unchanged {
        let (ja, en) = how(kind, &spelt, name);
        return Err(Text::new(
            format!("{name}はもう作成済みなので、{spelt} はGMだけが手で変えられます。{ja}"),
            format!("{name} is made already, so only a GM sets {spelt} by hand; {en}"),
        ));
    }
    stored
}
