//! Harm that is not an attack (LR-4 §1.2.1.1: falling, fire, drowning), weariness tests
//! by load (LR-5), Renown gained (LR-3, Renown triggers) and a group's travel (LR-18).
//! The seed's tables (9.32–9.34 for the damage and TNs, 9.41 for speeds, 11.3 for the
//! triggers) are not in it: the GM gives those numbers in the command; the rules here
//! are the seed's words around them.

use super::character::{Character, div_half_up, modifier};
use super::check;
use super::rules::{
    Delta, Event, State, Status, changed, gm_only, load, number, status_event, test,
    tested_penalty, usage,
};
use crate::table_rules::TableView;
use taku_dice::{Roller, Text};

/// LR-4 (Table 9.34): a burning character's damage each round, 「2d6+4」.
pub const BURNING_DICE: i64 = 2;
/// LR-4 (Table 9.34): the burning damage's bonus.
pub const BURNING_BONUS: i64 = 4;
/// LR-5: the weariness test's TN rises by this when encumbered, twice when heavily.
pub const LOAD_TN_STEP: i64 = 10;

/// `12`, `3d6`, `2d6+4` (damage never explodes, LR-9): the dice drawn and the total.
fn damage_roll(word: &str, dice: &mut Roller<'_>) -> Result<(Vec<i64>, i64), Text> {
    let bad = || {
        Text::new(
            format!("LR-4: ダメージ「{word}」は 12、3d6、2d6+4 の形で書いてください"),
            format!("LR-4: damage '{word}' is written 12, 3d6 or 2d6+4"),
        )
    };
    if let Ok(n) = word.parse::<i64>() {
        return if (0..=10_000).contains(&n) {
            Ok((Vec::new(), n))
        } else {
            Err(bad())
        };
    }
    let lower = word.to_ascii_lowercase();
    let (n, rest) = lower.split_once('d').ok_or_else(bad)?;
    let (sides, bonus) = match rest.find(['+', '-']) {
        Some(i) => (&rest[..i], number(&rest[i..]).map_err(|_| bad())?),
        None => (rest, 0),
    };
    let n: i64 = n.parse().map_err(|_| bad())?;
    if sides != "6" || !(1..=50).contains(&n) || bonus.abs() > 1000 {
        return Err(bad());
    }
    let faces: Vec<i64> = dice
        .roll_group(n, 6)
        .map_err(|e| e.text())?
        .iter()
        .copied()
        .collect();
    let total = (faces.iter().sum::<i64>() + bonus).max(0);
    Ok((faces, total))
}

/// A test of the character's `modifier` against `tn`, its wound and weariness penalty on
/// the TN (LR-9: conditions are external modifiers), and what its fight puts on every
/// test (LR-14 stun, fear, grab): the degree and the test in words.
fn own_test(
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    dice: &mut Roller<'_>,
    modifier: i64,
    tn: i64,
) -> Result<(super::check::Degree, String), Text> {
    let p = tested_penalty(state, name, ch, s);
    let (_, d, text) = test(dice, modifier, tn, p)?;
    Ok((d, text))
}

/// A hazard's one event: the status change, with the level and penalty after it.
fn one_change(
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    delta: Delta,
    what: (String, String),
) -> Result<Vec<Event>, Text> {
    Ok(vec![status_event(
        &state.settings,
        name,
        ch,
        s,
        delta,
        what,
    )])
}

fn shown(faces: &[i64], total: i64) -> String {
    if faces.is_empty() {
        total.to_string()
    } else {
        format!("{faces:?}→{total}")
    }
}

/// What [`options`] found: `key=value` pairs, flags, and the modifiers' sum.
type Options<'a> = (Vec<(&'a str, &'a str)>, Vec<&'a str>, i64);

/// `key=value` words and the signed modifiers among `words`; anything else is refused.
fn options<'a>(words: &[&'a str], keys: &[&str], flags: &[&str]) -> Result<Options<'a>, ()> {
    let mut kv = Vec::new();
    let mut on = Vec::new();
    let mut m = 0;
    for w in words {
        if let Some((k, v)) = w.split_once('=') {
            if !keys.contains(&k) {
                return Err(());
            }
            kv.push((k, v));
        } else if flags.contains(w) {
            on.push(*w);
        } else if w.starts_with(['+', '-']) {
            m += number(w).map_err(|_| ())?;
        } else {
            return Err(());
        }
    }
    Ok((kv, on, m))
}

/// LR-4 falling (Table 9.33): `/lotr fall NAME DAMAGE TN [+m]` — 「表に示された目標値の
/// Acrobatics 判定を行って…成功すればダメージを半減できる」 (halved rounding half up, LR-0).
/// Acrobatics at its ranks, or untrained (rank 0, −2, with NIM) when the record has none.
pub fn fall(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-4", ("落下", "make a character fall"))?;
    let fall_usage = || {
        usage(
            "/lotr fall 名前 ダメージ(12|3d6) 目標値 [+修正]",
            "/lotr fall NAME DAMAGE(12|3d6) TN [+m]",
        )
    };
    let [damage, tn, more @ ..] = rest else {
        return Err(fall_usage());
    };
    let tn = number(tn)?;
    let (_, _, m) = options(more, &[], &[]).map_err(|_| fall_usage())?;
    let (acrobatics, untrained) = match ch.skill_modifier("Acrobatics", None) {
        Some(v) => (v, ""),
        None => (
            modifier(ch.attributes[super::character::NIM]) + super::character::UNTRAINED_PENALTY,
            "（技能なし−2）",
        ),
    };
    let (faces, full) = damage_roll(damage, dice)?;
    let (d, text) = own_test(state, name, ch, s, dice, acrobatics + m, tn)?;
    let taken = if d.is_success() {
        div_half_up(full, 2)
    } else {
        full
    };
    let (hj, he) = if d.is_success() {
        ("成功: 半減", "success: halved")
    } else {
        ("失敗", "failure")
    };
    one_change(
        state,
        name,
        ch,
        s,
        Delta {
            damage: taken,
            ..Delta::default()
        },
        (
            format!(
                "落下 ダメージ{} Acrobatics{untrained}判定 {text} → {hj}、{taken}点（LR-4）",
                shown(&faces, full)
            ),
            format!(
                "falls: damage {}; Acrobatics{} test {text} → {he}, {taken} (LR-4)",
                shown(&faces, full),
                if untrained.is_empty() {
                    ""
                } else {
                    " (untrained −2)"
                }
            ),
        ),
    )
}

/// LR-4 fire (Table 9.34): `/lotr fire NAME TN [dmg=D] [+m] [help=A,B]`. Not burning: the
/// exposure's damage (`dmg=`, the table's) and a Swiftness test — 「Swiftness 判定に失敗すると,
/// 炎に包まれてしまい, ただちに追加ダメージを受ける」 (2d6+4). Burning: the same command is the
/// re-test, a full-round action — 「炎を消すには,失敗した Swiftness 判定に再挑戦する…それまでは
/// 受け続ける追加ダメージは 2d6+4」: success puts it out, failure burns again. Helpers
/// (`help=`, only on the re-test): 「他のキャラクターが火を消すのを援護する場合,グループによる判定と
/// 同様に扱う. ただし,やはり着火を避けるための Swiftness 判定を行う必要があり, 援護するキャラクターは
/// +5 の修正付きで判定する」 — each tests Swiftness at TN −5 and adds its group bonus (LR-10,
/// `group_bonus`) to the re-test, and tests Swiftness +5 against the TN or is set alight
/// itself (2d6+4).
pub fn fire(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-4", ("炎", "expose a character to fire"))?;
    let fire_usage = || {
        usage(
            "/lotr fire 名前 目標値 [dmg=炎のダメージ] [+修正] [help=援護者,援護者]（燃えている間は消火の再判定、help= はその援護）",
            "/lotr fire NAME TN [dmg=EXPOSURE] [+m] [help=A,B] (while burning: the re-test to put it out; help= are its helpers)",
        )
    };
    let [tn, more @ ..] = rest else {
        return Err(fire_usage());
    };
    let tn = number(tn)?;
    let (kv, _, m) = options(more, &["dmg", "help"], &[]).map_err(|_| fire_usage())?;
    let helpers = fire_helpers(table, state, name, s, &kv)?;
    // LR-4 「1ラウンドごとにダメージを受ける」: the exposure's damage each round, burning
    // or not (a character still in the flames).
    let exposure = match kv.iter().find(|(k, _)| *k == "dmg") {
        Some((_, d)) => Some(damage_roll(d, dice)?),
        None => None,
    };
    // The helpers first: their group bonus goes on the re-test (LR-10).
    let mut events = Vec::new();
    let mut bonus = 0;
    let mut helped = (Vec::new(), Vec::new());
    for (helper, hch, hs, imported) in helpers {
        events.extend(imported);
        let (hd, htext) = own_test(
            state,
            &helper,
            &hch,
            &hs,
            dice,
            hch.reaction(1),
            tn - check::HELPER_TN_OFFSET,
        )?;
        let b = hd.group_bonus(state.settings.group_marginal_plus_one);
        bonus += b;
        helped.0.push(format!("{helper} {b:+}"));
        helped.1.push(format!("{helper} {b:+}"));
        let (cd, ctext) = own_test(
            state,
            &helper,
            &hch,
            &hs,
            dice,
            hch.reaction(1) + HELPER_BONUS,
            tn,
        )?;
        let burn = if cd.is_success() {
            None
        } else {
            Some(burning(dice)?)
        };
        let (mut ja, mut en) = (
            format!(
                "{name}の消火を援護（グループ判定、目標値{}）Swiftness {htext}、援護{b:+}。着火を避ける Swiftness+{HELPER_BONUS} {ctext}",
                tn - check::HELPER_TN_OFFSET
            ),
            format!(
                "helps put out {name}'s fire (group test, TN {}) Swiftness {htext}, help {b:+}; Swiftness +{HELPER_BONUS} against catching fire {ctext}",
                tn - check::HELPER_TN_OFFSET
            ),
        );
        match &burn {
            Some((f, t)) => {
                ja += &format!(" → 炎に包まれた: 2d6+4 {}", shown(f, *t));
                en += &format!(" → set alight: 2d6+4 {}", shown(f, *t));
            }
            None => {
                ja += " → 燃え移らなかった";
                en += " → not set alight";
            }
        }
        events.extend(one_change(
            state,
            &helper,
            &hch,
            &hs,
            Delta {
                damage: burn.as_ref().map_or(0, |b| b.1),
                alight: burn.is_some().then_some(true),
                ..Delta::default()
            },
            (format!("{ja}（LR-4）"), format!("{en} (LR-4)")),
        )?);
    }
    let (d, text) = own_test(state, name, ch, s, dice, ch.reaction(1) + m + bonus, tn)?;
    let burn = if d.is_success() {
        None
    } else {
        Some(burning(dice)?)
    };
    let damage = exposure.as_ref().map_or(0, |e| e.1) + burn.as_ref().map_or(0, |b| b.1);
    let (mut ja, mut en) = if s.alight {
        (
            format!("燃えている: 消火の再判定（全ラウンド行動）Swiftness {text}"),
            format!("burning: the re-test to put it out (full round) Swiftness {text}"),
        )
    } else {
        (
            format!("炎にさらされる: Swiftness {text}"),
            format!("exposed to fire: Swiftness {text}"),
        )
    };
    if !helped.0.is_empty() {
        ja += &format!("（援護 {bonus:+}: {}）", helped.0.join("、"));
        en += &format!(" (help {bonus:+}: {})", helped.1.join(", "));
    }
    if let Some((f, t)) = &exposure {
        ja += &format!("、炎のダメージ{}", shown(f, *t));
        en += &format!(", fire damage {}", shown(f, *t));
    }
    let alight = match (&burn, s.alight) {
        (Some((f, t)), was) => {
            ja += &format!(
                " → {}2d6+4 {}",
                if was {
                    "燃え続ける: "
                } else {
                    "炎に包まれた: "
                },
                shown(f, *t)
            );
            en += &format!(
                " → {}2d6+4 {}",
                if was {
                    "still burning: "
                } else {
                    "set alight: "
                },
                shown(f, *t)
            );
            (!was).then_some(true)
        }
        (None, true) => {
            ja += " → 火が消えた";
            en += " → the fire is out";
            Some(false)
        }
        (None, false) => {
            ja += " → 燃え移らなかった";
            en += " → not set alight";
            None
        }
    };
    events.extend(one_change(
        state,
        name,
        ch,
        s,
        Delta {
            damage,
            alight,
            ..Delta::default()
        },
        (format!("{ja}（LR-4）"), format!("{en} (LR-4)")),
    )?);
    Ok(events)
}

/// LR-4: a helper's modifier on its Swiftness test against catching fire (「援護するキャラクター
/// は +5 の修正付きで判定する」).
pub const HELPER_BONUS: i64 = 5;

/// LR-4 (Table 9.34): the burning damage, 2d6+4 (never exploding, LR-9).
fn burning(dice: &mut Roller<'_>) -> Result<(Vec<i64>, i64), Text> {
    let faces: Vec<i64> = dice
        .roll_group(BURNING_DICE, 6)
        .map_err(|e| e.text())?
        .iter()
        .copied()
        .collect();
    let total = faces.iter().sum::<i64>() + BURNING_BONUS;
    Ok((faces, total))
}

/// A fire's helpers (`help=A,B`), each with its record, status and import events: only on
/// the re-test of a burning character; none the burning one, twice, burning, dead or not
/// at the table.
type Helper = (String, Character, Status, Vec<Event>);
fn fire_helpers(
    table: &dyn TableView,
    state: &State,
    name: &str,
    s: &Status,
    kv: &[(&str, &str)],
) -> Result<Vec<Helper>, Text> {
    let Some((_, list)) = kv.iter().find(|(k, _)| *k == "help") else {
        return Ok(Vec::new());
    };
    if !s.alight {
        return Err(Text::new(
            format!(
                "LR-4: 援護（help=）は燃えている者の消火の再判定を助けます。{name}は燃えていません（まず /lotr fire {name} 目標値）"
            ),
            format!(
                "LR-4: helpers (help=) help a burning character's re-test to put the fire out; {name} is not burning (first /lotr fire {name} TN)"
            ),
        ));
    }
    let mut out: Vec<Helper> = Vec::new();
    for helper in list.split([',', '、']).map(str::trim) {
        let refuse = |ja: String, en: String| Err(Text::new(ja, en));
        if helper.is_empty() || helper == name || out.iter().any(|h| h.0 == helper) {
            return refuse(
                format!(
                    "LR-4: help= は{name}以外のキャラクターを一度ずつ、カンマで区切って書きます（「{list}」）"
                ),
                format!(
                    "LR-4: help= names characters other than {name}, once each, comma-separated ('{list}')"
                ),
            );
        }
        let (hch, hs, imported) = load(table, state, helper)?;
        super::rules::able(state, helper, &hch, &hs)?;
        if hs.alight {
            return refuse(
                format!("LR-4: {helper}自身が燃えているので援護できません"),
                format!("LR-4: {helper} is burning itself and cannot help"),
            );
        }
        out.push((helper.to_string(), hch, hs, imported));
    }
    Ok(out)
}

/// LR-4 drowning (Table 9.32): `/lotr drown NAME TN [dmg=D] [+m]` — after holding its
/// breath ((1 + Stamina) minutes, at least 1) 「意識を失わないかどうか Stamina 判定を行う.
/// 意識を失うと,自動的にダメージを受ける」 (the table's damage, `dmg=`); `/lotr drown NAME
/// rest` — 「死ななかったキャラクターは,15分の休憩で,1d6 点回復する」.
pub fn drown(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-4", ("溺れ", "drown a character"))?;
    let drown_usage = || {
        usage(
            "/lotr drown 名前 目標値 [dmg=ダメージ] [+修正] | /lotr drown 名前 rest",
            "/lotr drown NAME TN [dmg=DAMAGE] [+m] | /lotr drown NAME rest",
        )
    };
    if rest == ["rest"] {
        // 「死ななかったキャラクターは,15分の休憩で」: once, after a drowning.
        if !s.drowned {
            return Err(Text::new(
                format!(
                    "LR-4: {name}は溺れて意識を失っていません（15分の休憩の1d6回復は溺れた後に一度）"
                ),
                format!(
                    "LR-4: {name} has not fallen unconscious from drowning (the 15 minutes' 1d6 comes once, after drowning)"
                ),
            ));
        }
        let faces: Vec<i64> = dice
            .roll_group(1, 6)
            .map_err(|e| e.text())?
            .iter()
            .copied()
            .collect();
        let healed = faces[0].min(s.damage);
        return one_change(
            state,
            name,
            ch,
            s,
            Delta {
                damage: -healed,
                drowned: Some(false),
                ..Delta::default()
            },
            (
                format!("溺れから生還、15分の休憩で1d6 {faces:?} 回復、−{healed}（LR-4）"),
                format!(
                    "survived drowning: 15 minutes' rest heals 1d6 {faces:?}, −{healed} (LR-4)"
                ),
            ),
        );
    }
    let [tn, more @ ..] = rest else {
        return Err(drown_usage());
    };
    let tn = number(tn)?;
    let (kv, _, m) = options(more, &["dmg"], &[]).map_err(|_| drown_usage())?;
    let stamina = ch.reaction(0);
    let breath = super::character::breath_minutes(stamina);
    let (d, text) = own_test(state, name, ch, s, dice, stamina + m, tn)?;
    let (damage, ja, en) = if d.is_success() {
        (0, "意識を保った".to_string(), "stays conscious".to_string())
    } else {
        let (f, t) = match kv.first() {
            Some((_, w)) => damage_roll(w, dice)?,
            None => (Vec::new(), 0),
        };
        (
            t,
            format!("意識を失った、ダメージ{}", shown(&f, t)),
            format!("falls unconscious, damage {}", shown(&f, t)),
        )
    };
    one_change(
        state,
        name,
        ch,
        s,
        Delta {
            damage,
            drowned: (!d.is_success()).then_some(true),
            ..Delta::default()
        },
        (
            format!("息を止められるのは{breath}分。溺れ: Stamina {text} → {ja}（LR-4）"),
            format!("holds its breath {breath} min; drowning: Stamina {text} → {en} (LR-4)"),
        ),
    )
}

/// LR-5: `/lotr weary NAME test TN [normal|encumbered|heavy|load=LB] [old|aged] [+m]` —
/// 「疲労判定は Stamina で行い, 目標値は負荷によって決まる」, 「重荷のときは目標値に+10,超重荷の
/// ときは+20」 (from the character's loads, STR×10/×20/×30, with `load=`), 「負傷・疲労によって
/// 受けたペナルティは…疲労への抵抗判定にも同様の」, 「Old なら -4, Agedなら-8」. A failure adds
/// a weariness level.
pub fn weary_test(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-5", ("疲労判定", "call a weariness test"))?;
    let weary_usage = || {
        usage(
            "/lotr weary 名前 test 目標値 [normal|encumbered|heavy|load=重さ] [old|aged] [+修正]",
            "/lotr weary NAME test TN [normal|encumbered|heavy|load=LB] [old|aged] [+m]",
        )
    };
    let [tn, more @ ..] = rest else {
        return Err(weary_usage());
    };
    let tn = number(tn)?;
    let (kv, flags, m) = options(
        more,
        &["load"],
        &["normal", "encumbered", "heavy", "old", "aged"],
    )
    .map_err(|_| weary_usage())?;
    let loads = ch.loads();
    let mut step = 0;
    if let Some((_, lb)) = kv.first() {
        let lb = number(lb)?;
        step = match loads.iter().position(|l| lb <= *l) {
            Some(i) => i as i64,
            None => {
                return Err(Text::new(
                    format!(
                        "LR-3: {name}が運べるのは{}まで（{lb}は運べません）",
                        loads[2]
                    ),
                    format!(
                        "LR-3: {name} carries at most {} ({lb} is too much)",
                        loads[2]
                    ),
                ));
            }
        };
    }
    let mut age = ch.age_penalty;
    for f in &flags {
        match *f {
            "normal" => step = 0,
            "encumbered" => step = 1,
            "heavy" => step = 2,
            "old" => age = -4,
            "aged" => age = -8,
            _ => {}
        }
    }
    let load_tn = LOAD_TN_STEP * step;
    let (d, text) = own_test(
        state,
        name,
        ch,
        s,
        dice,
        ch.reaction(0) + age + m,
        tn + load_tn,
    )?;
    let max = state.settings.exhausted() as i64;
    let up = i64::from(!d.is_success()).min(max - s.weariness);
    let load_name = ["通常", "重荷", "超重荷"][step as usize];
    let load_en = ["normal", "encumbered", "heavily encumbered"][step as usize];
    one_change(
        state,
        name,
        ch,
        s,
        Delta {
            weariness: up,
            ..Delta::default()
        },
        (
            format!(
                "疲労判定（{load_name} 目標値+{load_tn}{}）Stamina {text} → {}（LR-5）",
                if age != 0 {
                    format!("、年齢{age:+}")
                } else {
                    String::new()
                },
                if d.is_success() {
                    "疲労しない"
                } else {
                    "疲労+1段階"
                }
            ),
            format!(
                "weariness test ({load_en}, TN +{load_tn}{}) Stamina {text} → {} (LR-5)",
                if age != 0 {
                    format!(", age {age:+}")
                } else {
                    String::new()
                },
                if d.is_success() {
                    "no weariness"
                } else {
                    "one weariness level"
                }
            ),
        ),
    )
}

/// LR-3 (§1.6.1): `/lotr renown NAME +N [TRIGGER…]` — 「知名度は,シナリオ中で劇的な行動を
/// 取ると上昇する」 (Renown triggers, Table 11.3: the GM names the deed).
pub fn renown(
    table: &dyn TableView,
    name: &str,
    s: &Status,
    ch: &Character,
    rest: &[&str],
) -> Result<Vec<Event>, Text> {
    gm_only(table, "LR-3", ("知名度の変更", "change Renown"))?;
    let [n, why @ ..] = rest else {
        return Err(usage(
            "/lotr renown 名前 +1 [劇的な行動]",
            "/lotr renown NAME +1 [DRAMATIC DEED]",
        ));
    };
    let n = number(n)?;
    if n == 0 || n.abs() > 100 {
        return Err(Text::new(
            "LR-3: 知名度の増減は ±1〜100 です",
            "LR-3: Renown changes by ±1 to 100",
        ));
    }
    let now = (ch.renown + s.renown + n).max(0);
    let delta = now - ch.renown - s.renown;
    let why = why.join(" ");
    Ok(vec![changed(
        name,
        Delta {
            renown: delta,
            ..Delta::default()
        },
        format!(
            "{name}: 知名度{n:+}{} → Renown {now}（LR-3）",
            if why.is_empty() {
                String::new()
            } else {
                format!("（{why}）")
            }
        ),
        format!(
            "{name}: Renown {n:+}{} → {now} (LR-3)",
            if why.is_empty() {
                String::new()
            } else {
                format!(" ({why})")
            }
        ),
    )])
}

/// LR-18: `/lotr travel DISTANCE NAME=PACE …` — 「複数の人間が一緒に旅をする場合は,最も遅い者
/// に合わせる」: the group moves at its slowest member's pace (Table 9.41's speeds: the
/// GM's); days = distance ÷ pace, rounded half up (LR-0).
pub fn travel(rest: &[&str]) -> Result<Event, Text> {
    let travel_usage = || {
        usage(
            "/lotr travel 距離 名前=1日の移動距離 名前=… （例: /lotr travel 120 フロド=20 アラゴルン=30）",
            "/lotr travel DISTANCE NAME=PACE NAME=… (e.g. /lotr travel 120 Frodo=20 Aragorn=30)",
        )
    };
    let [distance, members @ ..] = rest else {
        return Err(travel_usage());
    };
    if members.is_empty() || members.len() > 50 {
        return Err(travel_usage());
    }
    let distance = number(distance)?;
    let mut paces = Vec::new();
    for m in members {
        let Some((who, pace)) = m.split_once('=') else {
            return Err(travel_usage());
        };
        let pace = number(pace)?;
        if who.is_empty() || pace < 1 {
            return Err(Text::new(
                format!("LR-18: 「{m}」: 名前と1以上の移動距離を書いてください"),
                format!("LR-18: '{m}': give a name and a pace of at least 1"),
            ));
        }
        paces.push((who, pace));
    }
    if distance < 0 {
        return Err(travel_usage());
    }
    let slowest = paces.iter().map(|p| p.1).min().unwrap_or(1);
    let who: Vec<&str> = paces
        .iter()
        .filter(|p| p.1 == slowest)
        .map(|p| p.0)
        .collect();
    // LR-0 rounds the days half up; what is left for the last, partial day is said too,
    // so that a rounded-down count does not leave the group short of the goal.
    let days = div_half_up(distance, slowest);
    let rest = distance - days * slowest;
    let (lj, le) = if rest > 0 {
        (
            format!("（{days}日で{}、残り{rest}はもう1日）", days * slowest),
            format!(
                " ({} in {days} days; the last {rest} takes one more day)",
                days * slowest
            ),
        )
    } else {
        (String::new(), String::new())
    };
    Ok(Event::Note {
        ja: format!(
            "旅（LR-18）: 一行は最も遅い{}に合わせて1日{slowest}、距離{distance} → {days}日{lj}",
            who.join("・")
        ),
        en: format!(
            "travel (LR-18): the group keeps to its slowest, {}, at {slowest} a day; distance {distance} → {days} days{le}",
            who.join(", ")
        ),
    })
}

/// LR-5 `ignore_weariness_by_test` (on): `/lotr weary NAME ignore TN [stamina|willpower]` —
/// 「StaminaやWillpower判定によって疲労のペナルティを 一時的に無視することを許可しても良い」:
/// a success lets the character ignore its weariness penalty until the scene ends (the
/// better of the two reactions unless one is named).
pub fn ignore_weariness(
    table: &dyn TableView,
    state: &State,
    name: &str,
    ch: &Character,
    s: &Status,
    rest: &[&str],
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    gm_only(
        table,
        "LR-5",
        ("疲労を無視する判定", "call a test to ignore weariness"),
    )?;
    if !state.settings.ignore_weariness_by_test {
        return Err(Text::new(
            "LR-5: GMオプション ignore_weariness_by_test が off です（/lotr set ignore_weariness_by_test on）",
            "LR-5: the GM option ignore_weariness_by_test is off (/lotr set ignore_weariness_by_test on)",
        ));
    }
    let (tn, which) = match rest {
        [tn] => (number(tn)?, None),
        [tn, w @ ("stamina" | "willpower" | "Stamina" | "Willpower")] => {
            (number(tn)?, Some(w.to_ascii_lowercase()))
        }
        _ => {
            return Err(usage(
                "/lotr weary 名前 ignore 目標値 [stamina|willpower]",
                "/lotr weary NAME ignore TN [stamina|willpower]",
            ));
        }
    };
    let (reaction, label) = match which.as_deref() {
        Some("stamina") => (ch.reaction(0), "Stamina"),
        Some(_) => (ch.reaction(2), "Willpower"),
        None if ch.reaction(0) >= ch.reaction(2) => (ch.reaction(0), "Stamina"),
        None => (ch.reaction(2), "Willpower"),
    };
    let (d, text) = own_test(state, name, ch, s, dice, reaction, tn)?;
    let ok = d.is_success();
    one_change(
        state,
        name,
        ch,
        s,
        Delta {
            ignore_weariness: ok.then_some(true),
            ..Delta::default()
        },
        (
            format!(
                "疲労を無視する{label}判定 {text} → {}（LR-5）",
                if ok {
                    "シーン終了まで疲労のペナルティを無視"
                } else {
                    "無視できない"
                }
            ),
            format!(
                "{label} test to ignore weariness {text} → {} (LR-5)",
                if ok {
                    "weariness penalty ignored until the scene ends"
                } else {
                    "not ignored"
                }
            ),
        ),
    )
}
