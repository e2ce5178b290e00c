//! AW-7 Another Focus checks (アナザーフォーカス判定): a large check over rounds whose
//! achievements add up.
//!
//! - The GM declares the goal, the ability used, the difficulty (50 or more), the round
//!   limit and optional special rules: thresholds on the running total that trigger an
//!   event once, "a command spell makes it succeed", a solo check.
//! - Rounds go in action-value order as in combat; each PC's check adds its achievement
//!   to one running total (here: a check of the AF check's ability by the next PC in
//!   action-value order, rolled by its player, the character named by the roll's field
//!   reference or comment; not a secret one: the running total is public; a roll that does
//!   not count says why); a critical counts 30. The AF check succeeds as soon as the total reaches the
//!   difficulty and fails when the rounds run out.
//! - A fumble fails the whole AF check at once, unless the GM records a fumble-cancelling
//!   skill straight away (`/af cancel` before anything else of the AF check happens; the
//!   roll then counts its ordinary achievement).
//! - Each skill a PC declares before rolling lowers the difficulty by 2; a skill declared
//!   once may not be declared again for the same act unless the GM allows it.
//! - When an AF check starts (and at each round's start, and after declarations before
//!   anyone rolled in the round), the exact probability that the party succeeds within the
//!   remaining rounds is shown ([`super::af_odds`]: an exact computation over 2D6).

use super::af_odds::{AfRoller, af_odds, percent};
use super::contracts::{self, Use};
use super::rules::{
    Decided, Event as AwEvent, Kind, State, field, gm_only, kind, may_act_for, reply,
};
use crate::table_rules::{Outcome, TableView};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use taku_dice::{Detail, Lang, RollResult, Text};

/// A critical's achievement in an AF check.
pub const CRITICAL_ACHIEVEMENT: i64 = 30;
/// What each declared skill takes off the difficulty.
pub const PER_SKILL: i64 = 2;
/// The least difficulty of an AF check (AW-7: 50 or more).
pub const MIN_DIFFICULTY: i64 = 50;
/// The most rounds a check may take here.
pub const MAX_ROUNDS: u32 = 20;

/// The highest AF difficulty a table takes (the bound of the table's other difficulties).
pub const MAX_DIFFICULTY: i64 = 1_000_000;

/// At most 20 characters of a typed word, for a message.
fn short(word: &str) -> String {
    let mut out: String = word.chars().take(20).collect();
    if word.chars().count() > 20 {
        out.push('…');
    }
    out
}

/// A threshold on the running total and the event it triggers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Threshold {
    /// Total at which it fires.
    pub at: i64,
    /// The event's text.
    pub text: String,
    /// Fired already (thresholds fire once).
    #[serde(default)]
    pub fired: bool,
}

/// Where an AF check stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Rolling.
    Running,
    /// A PC fumbled: the check fails unless the GM records a cancel now.
    FumblePending {
        /// Who fumbled.
        character: String,
        /// The roll's ordinary achievement, counted if the fumble is cancelled.
        achievement: i64,
    },
    /// Succeeded.
    Succeeded,
    /// Failed.
    Failed,
    /// Called off by the GM.
    Aborted,
}

/// An AF check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AfCheck {
    /// What the party is trying to do.
    pub goal: String,
    /// The ability used (理知, 知覚, …).
    pub ability: String,
    /// The difficulty as declared.
    pub base: i64,
    /// Skills declared so far: (character, skill). Each lowers the difficulty by 2.
    pub declared: Vec<(String, String)>,
    /// Round limit.
    pub rounds: u32,
    /// Current round, from 1.
    pub round: u32,
    /// Running total of achievements.
    pub total: i64,
    /// The party, in action-value order.
    pub party: Vec<String>,
    /// Who has rolled this round.
    pub rolled: BTreeSet<String>,
    /// Thresholds.
    pub thresholds: Vec<Threshold>,
    /// Special rule: a command spell makes it succeed.
    pub spell_rule: bool,
    /// Special rule: one PC alone.
    pub solo: bool,
    /// Skills the GM allowed to be declared again: (character, skill).
    pub allowed: BTreeSet<(String, String)>,
    /// Where it stands.
    pub status: Status,
    /// Abilities a threshold made usable besides [`AfCheck::ability`] (the seed's
    /// example 3: 「それ以後、【反射】の他に【理知】での判定が可能となる」).
    #[serde(default)]
    pub also: BTreeSet<String>,
    /// A threshold's NPC help (the seed's example 3: 「PC達の【HP】と【MP】を1D6点回復する」)
    /// waiting for the GM's `/af aid` to roll it.
    #[serde(default)]
    pub aid_pending: bool,
}

impl AfCheck {
    /// The difficulty after declarations.
    pub fn difficulty(&self) -> i64 {
        self.base
            .saturating_sub(PER_SKILL.saturating_mul(self.declared.len() as i64))
    }

    /// Running (or waiting on a fumble's cancel).
    pub fn running(&self) -> bool {
        matches!(self.status, Status::Running | Status::FumblePending { .. })
    }

    /// The total against the difficulty and the round, as `Achieved` stores it.
    fn progress(&self) -> String {
        progress_ja(&[
            self.total,
            self.difficulty(),
            i64::from(self.round.min(self.rounds)),
            i64::from(self.rounds),
        ])
    }
}

/// What happened in an AF check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The GM started an AF check; `odds` is the party's exact chance of success.
    Started {
        /// The check as declared.
        check: AfCheck,
        /// Success probability, as text.
        odds: String,
    },
    /// Skills declared, lowering the difficulty.
    Declared {
        /// PC.
        character: String,
        /// Skills.
        skills: Vec<String>,
        /// Difficulty after.
        difficulty: i64,
        /// New chance of success, when shown.
        odds: Option<String>,
    },
    /// The GM allowed a skill to be declared again.
    Allowed {
        /// PC.
        character: String,
        /// Skill.
        skill: String,
    },
    /// A PC's check added to the total.
    Achieved {
        /// PC.
        character: String,
        /// What it added.
        achievement: i64,
        /// A critical (counted 30).
        critical: bool,
        /// Total after.
        total: i64,
        /// The total against the difficulty, and the round, as shown.
        #[serde(default)]
        progress: String,
    },
    /// A PC fumbled; the check fails unless the GM cancels now.
    Fumbled {
        /// PC.
        character: String,
        /// The roll's ordinary achievement, if the fumble is cancelled.
        achievement: i64,
    },
    /// The GM recorded a fumble-cancelling skill; the roll counts its achievement.
    FumbleCancelled {
        /// PC.
        character: String,
        /// What it added.
        achievement: i64,
        /// Total after.
        total: i64,
        /// The skill that cancelled it, when the GM named it (`/af cancel 《運命の輪》`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        skill: Option<String>,
    },
    /// The GM's order for PCs with the same 【行動値】 (AW-3: 「PC同士で【行動値】が同じ
    /// なら、GMが決定する」): the whole party in its new order.
    Ordered {
        /// The party, first rolls first.
        party: Vec<String>,
    },
    /// The GM passed a PC for this round (absent): it does not roll this round.
    Skipped {
        /// PC.
        character: String,
    },
    /// A threshold fired.
    Threshold {
        /// Its total.
        at: i64,
        /// Its event.
        text: String,
    },
    /// The GM rolled a threshold's NPC help (the HP/MP changes follow as supply events).
    Aided,
    /// A round ended without success; the next begins.
    RoundEnded {
        /// The round that ended.
        round: u32,
        /// Chance of success from here.
        odds: Option<String>,
    },
    /// The AF check succeeded.
    Succeeded {
        /// How (the total reached the difficulty, a command spell).
        how: String,
    },
    /// The AF check failed.
    Failed {
        /// Why (a fumble, the round limit).
        why: String,
    },
    /// The GM called it off.
    Aborted,
}

fn ev(e: Event) -> AwEvent {
    AwEvent::Af(e)
}

/// The exact chance that `party` reaches the check's difficulty from its total within
/// the rounds left, as events store it (`成功確率 83.45%`, see [`odds_text`]), or why it
/// cannot be computed.
fn chance(table: &dyn TableView, check: &AfCheck, rounds_left: u32) -> Result<String, Text> {
    let party = rollers(table, check)?;
    let odds =
        af_odds(&party, check.difficulty(), rounds_left, check.total).map_err(|e| e.text())?;
    Ok(format!("{CHANCE}{}", percent(&odds.success)))
}

/// The check's party as [`af_odds`] takes it, in action-value order: each PC with its
/// best usable ability (a threshold may have added one), or why one has no number.
pub(crate) fn rollers(table: &dyn TableView, check: &AfCheck) -> Result<Vec<AfRoller>, Text> {
    check
        .party
        .iter()
        .map(|pc| {
            let mut best = field(table, pc, &check.ability)?;
            for ab in &check.also {
                if let Ok(v) = field(table, pc, ab) {
                    best = best.max(v);
                }
            }
            Ok(AfRoller::new(best))
        })
        .collect()
}

const CHANCE: &str = "成功確率 ";

/// A chance of success as an event stores it (`成功確率 83.45%`), in every language.
pub fn odds_text(stored: &str) -> Text {
    match stored.strip_prefix(CHANCE) {
        Some(p) => Text::new(stored, format!("chance of success {p}")),
        None => Text::verbatim(stored),
    }
}

/// The whole numbers in `s`, in order (to read back the lines events store).
fn numbers(s: &str) -> Vec<i64> {
    s.split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// `合計 T / 難易度 D（ラウンドR/N）`, as `Achieved` stores it.
fn progress_ja(n: &[i64]) -> String {
    format!(
        "合計 {} / 難易度 {}（ラウンド{}/{}）",
        n[0], n[1], n[2], n[3]
    )
}

fn progress_text(stored: &str) -> Text {
    let n = numbers(stored);
    if n.len() == 4 && progress_ja(&n) == stored {
        Text::new(
            stored,
            format!(
                "total {} / difficulty {} (round {}/{})",
                n[0], n[1], n[2], n[3]
            ),
        )
    } else {
        Text::verbatim(stored)
    }
}

/// How an AF check succeeded or failed, as `Succeeded` and `Failed` store it.
fn reached_ja(total: i64, difficulty: i64) -> String {
    format!("合計 {total} ≧ 難易度 {difficulty}")
}

fn out_of_rounds_ja(rounds: u32, total: i64, difficulty: i64) -> String {
    format!("ラウンド制限（{rounds}ラウンド）: 合計 {total} ＜ 難易度 {difficulty}")
}

const FUMBLE: &str = "のファンブル";
const SPELL: &str = "の令呪";

fn outcome_text(stored: &str) -> Text {
    let n = numbers(stored);
    if n.len() == 2 && reached_ja(n[0], n[1]) == stored {
        return Text::new(stored, format!("total {} ≥ difficulty {}", n[0], n[1]));
    }
    if n.len() == 3
        && let Ok(rounds) = u32::try_from(n[0])
        && out_of_rounds_ja(rounds, n[1], n[2]) == stored
    {
        return Text::new(
            stored,
            format!(
                "round limit ({rounds} round{}): total {} < difficulty {}",
                if rounds == 1 { "" } else { "s" },
                n[1],
                n[2]
            ),
        );
    }
    if let Some(pc) = stored.strip_suffix(FUMBLE) {
        return Text::new(stored, format!("{pc}'s fumble"));
    }
    if let Some(pc) = stored.strip_suffix(SPELL) {
        return Text::new(stored, format!("{pc}'s command spell"));
    }
    Text::verbatim(stored)
}

/// The seed's examples' goals and events (AW-7), in English; anything else is the GM's
/// own words and shows as written.
const PRESET_WORDS: &[(&str, &str)] = &[
    ("相手を説得する", "persuade someone"),
    ("隠されたものを探索する", "search for something hidden"),
    ("敵の基地に潜入する", "infiltrate the enemy base"),
    ("相手から逃げのびる", "get away from a pursuer"),
    (
        "セキュリティ解除（以後【反射】の他に【理知】でも判定できる）",
        "security disabled (from now on 【理知】 may be rolled as well as 【反射】)",
    ),
    (
        "NPCの援助（PC達の【HP】と【MP】を1D6回復）",
        "an NPC's help (the PCs recover 1D6 HP and MP)",
    ),
];

/// What a threshold does besides being announced (the seed's example 3).
enum Effect {
    /// An ability becomes usable for the check besides its own.
    Unlock(&'static str),
    /// An NPC's help: the PCs recover 1D6 HP and MP (rolled by the GM's `/af aid`).
    Aid,
}

/// The effect of a threshold's event, by its words: the seed's example 3's two events
/// (`/af preset 3`) or the GM's `at=50:unlock=理知` / `at=100:aid`.
fn effect(text: &str) -> Option<Effect> {
    if text == PRESET_WORDS[4].0 {
        return Some(Effect::Unlock("理知"));
    }
    if text == PRESET_WORDS[5].0 || text == "aid" {
        return Some(Effect::Aid);
    }
    let ability = text.strip_prefix("unlock=")?;
    super::sheet::ABILITIES
        .into_iter()
        .find(|a| *a == ability)
        .map(Effect::Unlock)
}

/// A threshold's event when the GM named none, as it is stored.
fn reached_at_ja(at: i64) -> String {
    format!("達成値{at}")
}

fn words_text(stored: &str) -> Text {
    if let Some((_, en)) = PRESET_WORDS.iter().find(|(ja, _)| *ja == stored) {
        return Text::new(stored, *en);
    }
    // The GM's short forms (`at=100:aid`, `at=50:unlock=理知`) read as the seed's words.
    if stored == "aid" {
        return words_text(PRESET_WORDS[5].0);
    }
    if let Some(ability) = stored.strip_prefix("unlock=") {
        return Text::new(
            format!("以後【{ability}】でも判定できる"),
            format!("from now on 【{ability}】 may be rolled too"),
        );
    }
    let n = numbers(stored);
    if n.len() == 1 && reached_at_ja(n[0]) == stored {
        return Text::new(stored, format!("achievement {}", n[0]));
    }
    Text::verbatim(stored)
}

fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

/// The seed's four examples (AW-7).
fn preset(n: &str, solo: Option<&str>) -> Result<(String, i64, u32, Vec<String>, String), Text> {
    let opts = |o: &[&str]| o.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Ok(match n {
        "1" => ("理知".into(), 80, 2, vec![], PRESET_WORDS[0].0.into()),
        "2" => (
            "知覚".into(),
            100,
            3,
            opts(&["spell"]),
            PRESET_WORDS[1].0.into(),
        ),
        "3" => (
            "反射".into(),
            120,
            5,
            vec![
                format!("at=50:{}", PRESET_WORDS[4].0),
                format!("at=100:{}", PRESET_WORDS[5].0),
            ],
            PRESET_WORDS[2].0.into(),
        ),
        "4" => match solo {
            Some(pc) => (
                "体力".into(),
                50,
                1,
                vec![format!("solo={pc}")],
                PRESET_WORDS[3].0.into(),
            ),
            None => {
                return Err(Text::new(
                    "例4は1人で行なうAF判定です: /af preset 4 キャラクター",
                    "preset 4 is a solo check: /af preset 4 CHARACTER",
                ));
            }
        },
        _ => {
            return Err(Text::new(
                format!("例「{n}」はありません。例は1〜4です（/help）"),
                format!("no preset '{n}'; the presets are 1 to 4 (/help)"),
            ));
        }
    })
}

/// AW-7 「通常の戦闘のように【行動値】順にラウンドを進行させ」: an AF check has rounds of its
/// own, like a combat's and not inside one, so the two do not run at once (issue 13
/// play-through 4: a dodge in the combat was added to the AF total).
fn in_combat() -> Text {
    Text::new(
        "戦闘中です。AF判定は戦闘のように【行動値】順にラウンドを進める別の判定なので、先に /combat end してください（AW-7）",
        "a combat is on; an AF check runs rounds of its own like a combat's, so /combat end first (AW-7)",
    )
}

/// The seed's GM guide: 「PC1体が、1度の宣言で難易度を減少できる値は、平均6である」.
const GUIDE_PER_DECLARATION: i64 = 6;

fn running_already() -> Text {
    Text::new(
        "すでにAF判定の最中です。/af end で中止できます",
        "an AF check is already running; /af end calls it off",
    )
}

/// `/af …`.
pub fn decide(
    table: &dyn TableView,
    state: &State,
    words: &[&str],
    dice: &mut taku_dice::Roller<'_>,
) -> Decided {
    let af = state.af.as_ref().filter(|a| a.running());
    let need = || {
        af.ok_or_else(|| {
            Text::new(
                "AF判定は行なわれていません。GMが /af start か /af preset で開始します",
                "no AF check is running; the GM starts one with /af start or /af preset",
            )
        })
    };
    let pending = || match af.map(|a| &a.status) {
        Some(Status::FumblePending { character, .. }) => Err(Text::new(
            format!(
                "{character}のファンブルが未解決です。GMが /af cancel でファンブルを打ち消す特技を記録するか、/af fail で受け入れてください"
            ),
            format!(
                "{character}'s fumble is unresolved: the GM records a fumble-cancelling skill with /af cancel, or accepts it with /af fail"
            ),
        )),
        _ => Ok(()),
    };
    let start_af = || Text::new("AF判定の開始", "start an AF check");
    Some(match words {
        ["start", ability, difficulty, rounds, rest @ ..] => (|| {
            gm_only(table, start_af())?;
            if af.is_some() {
                return Err(running_already());
            }
            let difficulty: i64 = difficulty.parse().map_err(|_| {
                Text::new(
                    format!("「{difficulty}」は難易度ではありません。使い方: /af start 能力値 難易度 ラウンド数 …"),
                    format!("'{difficulty}' is not a difficulty; usage: /af start ABILITY DIFFICULTY ROUNDS …"),
                )
            })?;
            let rounds: u32 = rounds.parse().map_err(|_| {
                Text::new(
                    format!("「{rounds}」はラウンド数ではありません"),
                    format!("'{rounds}' is not a number of rounds"),
                )
            })?;
            let (opts, goal): (Vec<&str>, Vec<&str>) = rest.iter().partition(|w| {
                w.starts_with("at=")
                    || w.starts_with("solo=")
                    || w.starts_with("party=")
                    || **w == "spell"
            });
            if state.combat.is_some() {
                return Err(in_combat());
            }
            start(table, ability, difficulty, rounds, &opts, &goal.join(" "))
        })(),
        ["preset", n, rest @ ..] => (|| {
            gm_only(table, start_af())?;
            if af.is_some() {
                return Err(running_already());
            }
            // `party=ミナ,ロイ` chooses the PCs taking part (default: every PC).
            let (party, rest): (Vec<&str>, Vec<&str>) =
                rest.iter().partition(|w| w.starts_with("party="));
            let (ability, difficulty, rounds, mut opts, goal) = preset(n, rest.first().copied())?;
            opts.extend(party.iter().map(|p| p.to_string()));
            let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
            if state.combat.is_some() {
                return Err(in_combat());
            }
            start(table, &ability, difficulty, rounds, &opts, &goal)
        })(),
        ["declare", character, skills @ ..] if !skills.is_empty() => (|| {
            let a = need()?;
            pending()?;
            may_act_for(table, character)?;
            if !a.party.iter().any(|p| p == character) {
                return Err(Text::new(
                    format!("{character}はこのAF判定のパーティにいません"),
                    format!("{character} is not in this AF check's party"),
                ));
            }
            // AW-7 「判定前に特技を1つ以上所持宣言するごとに」: before the PC's check, so
            // not after it rolled this round (issue 13 play-through).
            if a.rolled.contains(*character) {
                return Err(Text::new(
                    format!(
                        "{character}はこのラウンドすでに判定しました。特技の所持宣言は判定の前に行ないます（AW-7）。次のラウンドの判定の前に宣言してください"
                    ),
                    format!(
                        "{character} has already rolled this round; skills are declared before the check (AW-7): declare them before the next round's check"
                    ),
                ));
            }
            let mut new: Vec<String> = Vec::new();
            for s in skills.iter().map(|s| skill_name(s)) {
                let s = s.as_str();
                if s.is_empty() {
                    continue;
                }
                let key = (character.to_string(), s.to_string());
                if new.iter().any(|n| n == s) {
                    return Err(Text::new(
                        format!("《{s}》がこの行に2回書かれています。特技は1回ずつ書いてください"),
                        format!("《{s}》 is written twice in this line; write each skill once"),
                    ));
                }
                let again = a.declared.contains(&key);
                if again && !a.allowed.contains(&key) {
                    return Err(Text::new(
                        format!(
                            "{character}はこの行為ですでに《{s}》を宣言しています。同じ特技の宣言は1回だけです（GMが /af allow {character} {s} で再許可できます）"
                        ),
                        format!(
                            "{character} already declared 《{s}》 for this act; a skill is declared once unless the GM allows it again (/af allow {character} {s})"
                        ),
                    ));
                }
                new.push(s.to_string());
            }
            let mut after = a.clone();
            after
                .declared
                .extend(new.iter().map(|s| (character.to_string(), s.clone())));
            let odds = if a.rolled.is_empty() {
                chance(table, &after, a.rounds + 1 - a.round).ok()
            } else {
                None
            };
            let mut events = vec![ev(Event::Declared {
                character: character.to_string(),
                skills: new,
                difficulty: after.difficulty(),
                odds,
            })];
            // Issue 13: declarations that bring the difficulty down to the running total
            // end the AF check as a success at once (AW-7: 「達成値の合計が難易度に達した
            // 時点で成功」).
            if after.total >= after.difficulty() {
                events.extend(consequences(table, &after));
            }
            Ok(Outcome {
                events,
                reply: None,
            })
        })(),
        ["declare", ..] => Err(usage(
            "/af declare キャラクター 特技…",
            "/af declare CHARACTER SKILL…",
        )),
        ["allow", character, skill] => (|| {
            gm_only(
                table,
                Text::new("特技の再宣言の許可", "allow a skill to be declared again"),
            )?;
            need()?;
            Ok(Outcome {
                events: vec![ev(Event::Allowed {
                    character: character.to_string(),
                    skill: skill_name(skill),
                })],
                reply: None,
            })
        })(),
        ["cancel", skill @ ..] => (|| {
            gm_only(
                table,
                Text::new(
                    "ファンブルを打ち消す特技の記録",
                    "record a fumble-cancelling skill",
                ),
            )?;
            let a = need()?;
            let Status::FumblePending {
                character,
                achievement,
            } = &a.status
            else {
                return Err(Text::new(
                    "打ち消すファンブルはありません",
                    "there is no fumble to cancel",
                ));
            };
            let mut after = a.clone();
            after.total = after.total.saturating_add(*achievement);
            let skill = skill_name(&skill.join(" "));
            let mut events = vec![ev(Event::FumbleCancelled {
                character: character.clone(),
                achievement: *achievement,
                total: after.total,
                skill: (!skill.is_empty()).then_some(skill),
            })];
            after.rolled.insert(character.clone());
            after.status = Status::Running;
            events.extend(consequences(table, &after));
            Ok(Outcome {
                events,
                reply: None,
            })
        })(),
        ["fail"] => (|| {
            gm_only(table, Text::new("ファンブルの受け入れ", "accept a fumble"))?;
            let a = need()?;
            match &a.status {
                Status::FumblePending { character, .. } => Ok(Outcome {
                    events: vec![ev(Event::Failed {
                        why: format!("{character}{FUMBLE}"),
                    })],
                    reply: None,
                }),
                _ => Err(Text::new(
                    "受け入れるファンブルはありません",
                    "there is no fumble to accept",
                )),
            }
        })(),
        ["order", names @ ..] if !names.is_empty() => (|| {
            gm_only(
                table,
                Text::new(
                    "【行動値】が同じPCの判定の順の決定",
                    "decide the order of PCs with the same action value",
                ),
            )?;
            let a = need()?;
            pending()?;
            order(table, a, names)
        })(),
        ["order"] => Err(usage(
            "/af order キャラクター…（【行動値】が同じPCの順、先に書いたPCが先）",
            "/af order CHARACTER… (PCs with the same action value, first named rolls first)",
        )),
        ["skip", character] => (|| {
            gm_only(
                table,
                Text::new("PCの判定の見送り", "pass a PC for the round"),
            )?;
            let a = need()?;
            pending()?;
            if !a.party.iter().any(|p| p == character) {
                return Err(Text::new(
                    format!("{character}はこのAF判定のパーティにいません"),
                    format!("{character} is not in this AF check's party"),
                ));
            }
            if a.rolled.contains(*character) {
                return Err(Text::new(
                    format!("{character}はこのラウンドすでに判定しました（または見送り済みです）"),
                    format!("{character} has already rolled (or been passed) this round"),
                ));
            }
            let mut after = a.clone();
            after.rolled.insert(character.to_string());
            let mut events = vec![ev(Event::Skipped {
                character: character.to_string(),
            })];
            events.extend(consequences(table, &after));
            Ok(Outcome {
                events,
                reply: None,
            })
        })(),
        ["skip", ..] => Err(usage(
            "/af skip キャラクター（このラウンドの判定を見送る、GM）",
            "/af skip CHARACTER (pass them for this round, GM)",
        )),
        ["next"] => (|| {
            gm_only(table, Text::new("ラウンドの終了", "end the round"))?;
            let a = need()?;
            pending()?;
            let mut after = a.clone();
            after.rolled = after.party.iter().cloned().collect();
            Ok(Outcome {
                events: consequences(table, &after),
                reply: None,
            })
        })(),
        ["spell", master] => (|| {
            let a = need()?;
            pending()?;
            if !a.spell_rule {
                return Err(Text::new(
                    "このAF判定には「令呪1つで成功する」特別ルールがありません",
                    "this AF check has no \"a command spell makes it succeed\" rule",
                ));
            }
            // A command spell is an order to a servant (AW-5): a PC without a contract
            // has none to spend (issue 13).
            if table.character(master).is_some() && state.contracts.servants_of(master).is_empty() {
                return Err(Text::new(
                    format!(
                        "{master}にはサーヴァントがいないので、令呪がありません（令呪はマスターがサーヴァントに下す命令です、AW-5）"
                    ),
                    format!(
                        "{master} has no servant, so no command spell to spend (a command spell is a master's order to a servant, AW-5)"
                    ),
                ));
            }
            let spent =
                contracts::spend_event(table, &state.contracts, master, None, Use::AfSuccess)?;
            Ok(Outcome {
                events: vec![
                    spent,
                    ev(Event::Succeeded {
                        how: format!("{master}{SPELL}"),
                    }),
                ],
                reply: None,
            })
        })(),
        ["aid"] => (|| {
            gm_only(table, Text::new("NPCの援助の回復", "roll an NPC's help"))?;
            let Some(a) = state.af.as_ref().filter(|a| a.aid_pending) else {
                return Err(Text::new(
                    "振るべきNPCの援助はありません（AF判定の例3の達成値100の特別ルールなどが到達したときに使います）",
                    "no NPC help to roll (it comes from a threshold such as the seed's example 3 at 100)",
                ));
            };
            let mut events = vec![ev(Event::Aided)];
            for pc in &a.party {
                let hp = dice.roll_group(1, 6).map_err(|e| e.text())?[0];
                let mp = dice.roll_group(1, 6).map_err(|e| e.text())?[0];
                events.push(super::supply::recover(table, pc, hp, mp, "NPCの援助 1D6")?);
            }
            Ok(Outcome {
                events,
                reply: None,
            })
        })(),
        ["status"] => match state.af.as_ref() {
            None => Err(Text::new(
                "AF判定はまだ行なわれていません",
                "no AF check yet",
            )),
            Some(a) => reply(status_text(a)),
        },
        ["end"] => (|| {
            gm_only(table, Text::new("AF判定の中止", "call off the AF check"))?;
            need()?;
            Ok(Outcome {
                events: vec![ev(Event::Aborted)],
                reply: None,
            })
        })(),
        _ => Err(usage(
            "/af start|preset|declare|allow|order|skip|cancel|fail|next|spell|aid|status|end …（/help に一覧があります）",
            "/af start|preset|declare|allow|order|skip|cancel|fail|next|spell|aid|status|end …; /help lists them",
        )),
    })
}

/// `/af order NAME…`: the GM's order for party PCs whose 【行動値】 is the same (AW-3,
/// AW-7 「通常の戦闘のように【行動値】順に」): the named PCs go first among their ties, in
/// the order named; a PC is never put before one with a higher 【行動値】.
fn order(table: &dyn TableView, a: &AfCheck, names: &[&str]) -> Result<Outcome<AwEvent>, Text> {
    for (i, n) in names.iter().enumerate() {
        if !a.party.iter().any(|p| p == n) {
            return Err(Text::new(
                format!("{n}はこのAF判定のパーティにいません"),
                format!("{n} is not in this AF check's party"),
            ));
        }
        if names[..i].contains(n) {
            return Err(Text::new(
                format!("{n}が2回書かれています"),
                format!("{n} is named twice"),
            ));
        }
    }
    let action = |pc: &str| field(table, pc, "行動値").unwrap_or(0);
    for (i, first) in names.iter().enumerate() {
        if let Some(later) = names[i + 1..].iter().find(|m| action(m) > action(first)) {
            return Err(Text::new(
                format!(
                    "{first}（【行動値】{}）を{later}（【行動値】{}）より先にはできません。GMが決めるのは【行動値】が同じPCの順だけです（AW-3）",
                    action(first),
                    action(later)
                ),
                format!(
                    "{first} (action value {}) cannot go before {later} (action value {}): the GM orders only PCs with the same action value (AW-3)",
                    action(first),
                    action(later)
                ),
            ));
        }
    }
    let rank = |pc: &str| names.iter().position(|n| *n == pc).unwrap_or(usize::MAX);
    let mut party = a.party.clone();
    // Stable: PCs the GM did not name keep their order after the named ones.
    party.sort_by_key(|pc| (std::cmp::Reverse(action(pc)), rank(pc)));
    if party == a.party {
        return Err(Text::new(
            format!("その順はすでに今の順です（{}）", a.party.join(" → ")),
            format!("that is the order already ({})", a.party.join(" → ")),
        ));
    }
    Ok(Outcome {
        events: vec![ev(Event::Ordered { party })],
        reply: None,
    })
}

fn start(
    table: &dyn TableView,
    ability: &str,
    difficulty: i64,
    rounds: u32,
    opts: &[&str],
    goal: &str,
) -> Result<Outcome<AwEvent>, Text> {
    if difficulty < MIN_DIFFICULTY {
        return Err(Text::new(
            format!(
                "AF判定の難易度は{MIN_DIFFICULTY}以上です（AW-7）。通常の判定（難易度6〜20）はそのまま振ってください"
            ),
            format!(
                "an AF check's difficulty is {MIN_DIFFICULTY} or more (AW-7); ordinary checks (6–20) are rolled on their own"
            ),
        ));
    }
    // The same bound as the table's other difficulties (MTG's −1,000,000..1,000,000): a
    // difficulty beyond it is a typo, not a check (issue 13 play-through 5).
    if difficulty > MAX_DIFFICULTY {
        return Err(Text::new(
            format!("AF判定の難易度は{MIN_DIFFICULTY}〜{MAX_DIFFICULTY}です（AW-7。例は100〜300）"),
            format!(
                "an AF check's difficulty is {MIN_DIFFICULTY} to {MAX_DIFFICULTY} (AW-7; the examples are 100–300)"
            ),
        ));
    }
    // AW-7 「【〇〇】判定」: an ability of the sheet (AW-1), not a new key (issue 13
    // play-through 5: 幸福 for 幸運 asked every PC to set 【幸福】).
    let bare = ability.trim_start_matches('【').trim_end_matches('】');
    if !super::sheet::ABILITIES.contains(&bare) {
        return Err(Text::new(
            format!(
                "「{}」という能力値はありません。AF判定の能力値は {} のどれかです（AW-1、AW-7）",
                short(ability),
                super::sheet::ABILITIES.join("・")
            ),
            format!(
                "'{}' is not an ability; an AF check uses one of {} (AW-1, AW-7)",
                short(ability),
                super::sheet::ABILITIES.join(", ")
            ),
        ));
    }
    if !(1..=MAX_ROUNDS).contains(&rounds) {
        return Err(Text::new(
            format!("ラウンド制限は1〜{MAX_ROUNDS}です"),
            format!("the round limit is 1 to {MAX_ROUNDS}"),
        ));
    }
    let mut thresholds = Vec::new();
    let mut spell_rule = false;
    let mut solo = None;
    let mut chosen: Option<Vec<String>> = None;
    for o in opts {
        if *o == "spell" {
            spell_rule = true;
        } else if let Some(pcs) = o.strip_prefix("party=") {
            // The GM chooses who takes part (issue 13).
            chosen = Some(
                pcs.split([',', '、', '，', '､'])
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .collect(),
            );
        } else if let Some(pc) = o.strip_prefix("solo=") {
            solo = Some(pc.to_string());
        } else if let Some(t) = o.strip_prefix("at=") {
            let (at, text) = t.split_once(':').unwrap_or((t, ""));
            let at: i64 = at.parse().map_err(|_| {
                Text::new(
                    format!("「{o}」: 到達イベントは at=合計:イベント の形です（例: at=50:セキュリティ解除）"),
                    format!("'{o}': a threshold is at=TOTAL:EVENT, e.g. at=50:alarm-off"),
                )
            })?;
            thresholds.push(Threshold {
                at,
                text: if text.is_empty() {
                    reached_at_ja(at)
                } else {
                    text.to_string()
                },
                fired: false,
            });
        }
    }
    thresholds.sort_by_key(|t| t.at);
    if solo.is_some() && chosen.is_some() {
        return Err(Text::new(
            "solo= と party= は同時に使えません。1人で行なうなら solo=キャラクター、複数なら party=キャラクター,… だけを書いてください",
            "solo= and party= do not go together: write solo=CHARACTER for one PC alone, or party=A,B for several",
        ));
    }
    let mut party: Vec<String> = match &solo {
        Some(pc) => {
            if kind(table, pc)? != Kind::Pc {
                return Err(Text::new(
                    format!("{pc}はNPCです。AF判定はPCが行ないます"),
                    format!("{pc} is an NPC; an AF check is rolled by PCs"),
                ));
            }
            vec![pc.clone()]
        }
        None => match chosen {
            Some(pcs) => {
                for (i, pc) in pcs.iter().enumerate() {
                    if kind(table, pc)? != Kind::Pc {
                        return Err(Text::new(
                            format!("{pc}はNPCです。AF判定はPCが行ないます"),
                            format!("{pc} is an NPC; an AF check is rolled by PCs"),
                        ));
                    }
                    if pcs[..i].contains(pc) {
                        return Err(Text::new(
                            format!("{pc}が2回書かれています"),
                            format!("{pc} is named twice"),
                        ));
                    }
                }
                pcs
            }
            None => table
                .characters()
                .into_iter()
                .filter(|(n, _)| kind(table, n) == Ok(Kind::Pc))
                .map(|(n, _)| n.to_string())
                .collect(),
        },
    };
    if party.is_empty() {
        return Err(Text::new(
            "AF判定を行なうPCがいません。プレイヤーが /char new で自分のPCを作成してください",
            "there is no PC to roll the AF check; players create theirs with /char new",
        ));
    }
    // A value that is there but no number says so (not "not set").
    if let Some(why) = party.iter().find_map(|pc| {
        let set = table
            .character(pc)
            .is_some_and(|(_, f)| f.contains_key(ability));
        field(table, pc, ability).err().filter(|_| set)
    }) {
        return Err(why);
    }
    let missing: Vec<String> = party
        .iter()
        .filter(|pc| field(table, pc, ability).is_err())
        .cloned()
        .collect();
    if !missing.is_empty() {
        return Err(Text::new(
            format!(
                "{}の【{ability}】が設定されていません。/char set 名前 {ability} 数値 で設定してください",
                missing.join("、")
            ),
            format!(
                "【{ability}】 is not set for {}; set it with /char set NAME {ability} N",
                missing.join(", ")
            ),
        ));
    }
    // Action-value order, as in combat (AW-3): ties between PCs by 【反射】, then
    // 【知覚】, then 【幸運】 (issue 13), then join order.
    party.sort_by_key(|pc| {
        std::cmp::Reverse(
            ["行動値", "反射", "知覚", "幸運"].map(|k| field(table, pc, k).unwrap_or(0)),
        )
    });
    let check = AfCheck {
        goal: goal.to_string(),
        ability: ability.to_string(),
        base: difficulty,
        declared: Vec::new(),
        rounds,
        round: 1,
        total: 0,
        party,
        rolled: BTreeSet::new(),
        thresholds,
        spell_rule,
        solo: solo.is_some(),
        allowed: BTreeSet::new(),
        status: Status::Running,
        also: BTreeSet::new(),
        aid_pending: false,
    };
    let odds = chance(table, &check, rounds)?;
    Ok(Outcome {
        events: vec![ev(Event::Started { check, odds })],
        reply: None,
    })
}

/// After the total or the round changed: thresholds, success, the round's end, failure.
fn consequences(table: &dyn TableView, a: &AfCheck) -> Vec<AwEvent> {
    let mut events: Vec<AwEvent> = a
        .thresholds
        .iter()
        .filter(|t| !t.fired && a.total >= t.at)
        .map(|t| {
            ev(Event::Threshold {
                at: t.at,
                text: t.text.clone(),
            })
        })
        .collect();
    if a.total >= a.difficulty() {
        events.push(ev(Event::Succeeded {
            how: reached_ja(a.total, a.difficulty()),
        }));
    } else if a.party.iter().all(|p| a.rolled.contains(p)) {
        if a.round >= a.rounds {
            events.push(ev(Event::Failed {
                why: out_of_rounds_ja(a.rounds, a.total, a.difficulty()),
            }));
        } else {
            let mut next = a.clone();
            next.round += 1;
            next.rolled.clear();
            events.push(ev(Event::RoundEnded {
                round: a.round,
                odds: chance(table, &next, a.rounds - a.round).ok(),
            }));
        }
    }
    events
}

/// Whether a roll counts towards the running AF check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credit {
    /// No AF check is running, or the roll is not a party PC's action check.
    Ignored,
    /// It counts, for this PC.
    Counts(String),
    /// A party PC's roll that does not count, and why (shown with the roll).
    NotCounted(Text),
}

/// AW-7: whose roll this is and whether it counts. A roll belongs to the character whose
/// field it used or whom it names (`AW+{ミナ.理知}`, `AW+6 理知 ミナ`), or the roller's
/// only character; it counts only with the AF check's ability, by a party PC's own player,
/// not secret (the total is public), once a round, in action-value order (issue 13).
pub fn credit(table: &dyn TableView, state: &State, command: &str) -> Credit {
    let Some(a) = state.af.as_ref().filter(|a| a.running()) else {
        return Credit::Ignored;
    };
    if !super::is_check(command) {
        return Credit::Ignored;
    }
    let Some(subject) = super::rules::roll_subject(table) else {
        return Credit::Ignored;
    };
    let actor_waits = a.party.iter().any(|pc| {
        !a.rolled.contains(pc) && table.character(pc).is_some_and(|(o, _)| o == table.actor())
    });
    // A PC outside the party (a solo check, the GM's party=) rolling the AF check's
    // ability is told it does not count.
    if let Some(other) = subject
        .character
        .as_deref()
        .filter(|pc| !a.party.iter().any(|p| p == pc))
        && kind(table, other).is_ok_and(|k| k == Kind::Pc)
        && subject
            .ability
            .as_deref()
            .is_some_and(|ab| ab == a.ability || a.also.contains(ab))
    {
        return Credit::NotCounted(Text::new(
            format!("AF判定に数えません: {other}はこのAF判定に参加していません"),
            format!("not counted for the AF check: {other} is not taking part in it"),
        ));
    }
    let Some(pc) = subject.character.filter(|pc| a.party.contains(pc)) else {
        return if actor_waits {
            Credit::NotCounted(Text::new(
                "AF判定に数えません: どのキャラクターの判定か分かりません（AW+{ミナ.理知} か AW+6 理知 ミナ のように書いてください）",
                "not counted for the AF check: whose check it is is unclear (write AW+{ミナ.理知} or AW+6 理知 ミナ)",
            ))
        } else {
            Credit::Ignored
        };
    };
    let owner = table
        .character(&pc)
        .map(|(o, _)| o.to_string())
        .unwrap_or_default();
    let not = |ja: String, en: String| {
        Credit::NotCounted(Text::new(
            format!("AF判定に数えません: {ja}"),
            format!("not counted for the AF check: {en}"),
        ))
    };
    if owner != table.actor() {
        return not(
            format!("{pc}の判定は{owner}が振ります（GMが代わりに振った判定は数えません）"),
            format!(
                "{owner} rolls {pc}'s checks (a roll made for them by someone else does not count)"
            ),
        );
    }
    if command.trim_start().starts_with(['S', 's']) {
        return not(
            "シークレットダイスは数えません（合計は公開です）".into(),
            "a secret roll does not count (the total is public)".into(),
        );
    }
    if a.rolled.contains(&pc) {
        return not(
            format!("{pc}はこのラウンドすでに判定しました"),
            format!("{pc} has already rolled this round"),
        );
    }
    match subject.ability.as_deref() {
        Some(ab) if ab == a.ability || a.also.contains(ab) => {}
        Some(ab) => {
            return not(
                format!(
                    "このAF判定の使用能力値は【{}】です（【{ab}】の判定でした）",
                    a.ability
                ),
                format!(
                    "this AF check uses 【{}】 (that was a 【{ab}】 check)",
                    a.ability
                ),
            );
        }
        None => {
            return not(
                format!(
                    "能力値が分かりません。AW+{{{}}} か AW+6 {} のように書いてください",
                    a.ability, a.ability
                ),
                format!(
                    "which ability is unclear; write AW+{{{}}} or AW+6 {}",
                    a.ability, a.ability
                ),
            );
        }
    }
    if let Some(first) = a.party.iter().find(|p| !a.rolled.contains(*p))
        && *first != pc
    {
        return not(
            format!("{first}が先に判定します（【行動値】の順、AW-7）"),
            format!("{first} rolls first (action-value order, AW-7)"),
        );
    }
    Credit::Counts(pc)
}

/// AW-7: a party PC's *secret* check that would otherwise count is refused while the AF
/// check runs. Every achievement goes to the one public total and a fumble fails the whole
/// AF check (seed: 「PC達が算出した「達成値」をすべて合計し」「ラウンド中にファンブルを出した
/// 場合、AF判定自体の自動失敗となり」); a secret roll would let a player see a fumble and
/// roll again in the open.
pub fn refuse_secret(table: &dyn TableView, state: &State, command: &str) -> Result<(), Text> {
    let trimmed = command.trim_start();
    let Some(open) = trimmed.strip_prefix(['S', 's']) else {
        return Ok(());
    };
    if state.af.as_ref().is_none_or(|a| !a.running()) {
        return Ok(());
    }
    match credit(table, state, open) {
        Credit::Counts(pc) => {
            let ability = state
                .af
                .as_ref()
                .map(|a| a.ability.clone())
                .unwrap_or_default();
            Err(Text::new(
                format!(
                    "AF判定中は{pc}の【{ability}】判定をシークレットダイスで振れません。達成値はすべて公開の合計に加わり、ファンブルはAF判定の失敗です（AW-7）。S を付けずに振ってください"
                ),
                format!(
                    "during the AF check {pc}'s 【{ability}】 check cannot be a secret roll: every achievement adds to the public total and a fumble fails the AF check (AW-7); roll it without the S"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// The judgement value a check side was typed with when it is a bare number (`AW+40`,
/// `AW-1`, `AW` alone is 0), or `None` when the first term is a `{…}` reference or the side
/// is not an AW check.
fn bare_judgement(side: &str) -> Option<i64> {
    let upper = side.trim().to_ascii_uppercase();
    let body = upper
        .strip_prefix('S')
        .filter(|b| b.starts_with("AW") || b.starts_with("2D6"))
        .unwrap_or(&upper);
    let body = body
        .strip_prefix("AW")
        .or_else(|| body.strip_prefix("2D6"))?;
    let (sign, rest) = match body.chars().next() {
        Some('+') => (1, &body[1..]),
        Some('-') => (-1, &body[1..]),
        // `AW`, `AW>=10`, `AW@11`: no judgement value, 0.
        _ => return Some(0),
    };
    if rest.starts_with('{') {
        return None;
    }
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse::<i64>().ok().map(|n| sign * n)
}

/// AW-1 / AW-7: a PC's check that would count for the AF check with a judgement value
/// typed as a bare number (`AW+40 理知`) must be the PC's ability on the sheet — the
/// seed's 判定値 is the ability (「使用能力値」) — so the running total is not fed a number
/// the sheet does not have. Refused with guidance when it differs: write the reference
/// (`AW+{理知}`), with a skill's or the GM's modifier after it (`AW+{理知}+2`), where the
/// modifier guide (−3..+3) can see it (issue 13).
pub fn refuse_bare_value(table: &dyn TableView, state: &State, command: &str) -> Result<(), Text> {
    let Credit::Counts(pc) = credit(table, state, command) else {
        return Ok(());
    };
    let Some((sides, _)) = super::rules::typed_sides(table) else {
        return Ok(());
    };
    let [side] = sides.as_slice() else {
        return Ok(());
    };
    let Some(typed) = bare_judgement(side) else {
        return Ok(());
    };
    let Some(ability) = super::rules::roll_subject(table).and_then(|s| s.ability) else {
        return Ok(());
    };
    let Ok(sheet) = field(table, &pc, &ability) else {
        return Ok(());
    };
    if typed == sheet {
        return Ok(());
    }
    Err(Text::new(
        format!(
            "AF判定の判定値は{pc}の【{ability}】で、シートでは{sheet}です（入力は{typed}）。AW+{{{ability}}} と書いてください。特技や装備、GMの修正は AW+{{{ability}}}+2 のように後ろに足します（GMの修正は−3〜+3が目安、AW-1）"
        ),
        format!(
            "the AF check's judgement value is {pc}'s 【{ability}】, {sheet} on the sheet (you typed {typed}); write AW+{{{ability}}}, with a skill's, equipment's or the GM's modifier after it, as in AW+{{{ability}}}+2 (GM modifiers stay within about −3..+3, AW-1)"
        ),
    ))
}

/// A PC's check during an AF check adds its achievement (AW-7), when it counts
/// ([`credit`]).
pub fn after_roll(
    table: &dyn TableView,
    state: &State,
    command: &str,
    result: &RollResult,
) -> Vec<AwEvent> {
    let Some(a) = state.af.as_ref().filter(|a| a.running()) else {
        return Vec::new();
    };
    let Detail::Sum { total, .. } = result.detail else {
        return Vec::new();
    };
    if let Status::FumblePending { character, .. } = &a.status {
        // Another check happening first means no cancel came straight away.
        if super::is_check(command) {
            return vec![ev(Event::Failed {
                why: format!("{character}{FUMBLE}"),
            })];
        }
        return Vec::new();
    }
    let Credit::Counts(pc) = credit(table, state, command) else {
        return Vec::new();
    };
    let pc = &pc;
    if result.fumble {
        return vec![ev(Event::Fumbled {
            character: pc.clone(),
            achievement: total,
        })];
    }
    let achievement = if result.critical {
        CRITICAL_ACHIEVEMENT
    } else {
        total
    };
    let mut after = a.clone();
    after.total = after.total.saturating_add(achievement);
    after.rolled.insert(pc.clone());
    let mut events = vec![ev(Event::Achieved {
        character: pc.clone(),
        achievement,
        critical: result.critical,
        total: after.total,
        progress: after.progress(),
    })];
    events.extend(consequences(table, &after));
    events
}

/// Folds an AF event.
pub fn fold(af: &mut Option<AfCheck>, e: &Event) {
    if let Event::Started { check, .. } = e {
        *af = Some(check.clone());
        return;
    }
    let Some(a) = af.as_mut() else {
        return;
    };
    match e {
        Event::Started { .. } => {}
        Event::Declared {
            character, skills, ..
        } => {
            for s in skills {
                let key = (character.clone(), s.clone());
                a.allowed.remove(&key);
                a.declared.push(key);
            }
        }
        Event::Allowed { character, skill } => {
            a.allowed.insert((character.clone(), skill.clone()));
        }
        Event::Achieved {
            character, total, ..
        }
        | Event::FumbleCancelled {
            character, total, ..
        } => {
            a.total = *total;
            a.rolled.insert(character.clone());
            a.status = Status::Running;
        }
        Event::Fumbled {
            character,
            achievement,
        } => {
            // The fumbler's roll for the round is made (issue 13 play-through 5: the
            // status listed them as yet to roll).
            a.rolled.insert(character.clone());
            a.status = Status::FumblePending {
                character: character.clone(),
                achievement: *achievement,
            };
        }
        Event::Threshold { at, text } => {
            for t in a.thresholds.iter_mut().filter(|t| t.at == *at) {
                t.fired = true;
            }
            // AW-7, the seed's example 3: the thresholds' effects (issue 13, item 19).
            match effect(text) {
                Some(Effect::Unlock(ability)) => {
                    a.also.insert(ability.to_string());
                }
                Some(Effect::Aid) => a.aid_pending = true,
                None => {}
            }
        }
        Event::Aided => a.aid_pending = false,
        Event::Ordered { party } => {
            // The same PCs, in the GM's order (an order naming others changes nothing).
            let mut same = party.clone();
            same.sort();
            let mut now = a.party.clone();
            now.sort();
            if same == now {
                a.party = party.clone();
            }
        }
        Event::Skipped { character } => {
            a.rolled.insert(character.clone());
        }
        Event::RoundEnded { .. } => {
            a.round += 1;
            a.rolled.clear();
        }
        Event::Succeeded { .. } => a.status = Status::Succeeded,
        Event::Failed { .. } => a.status = Status::Failed,
        Event::Aborted => a.status = Status::Aborted,
    }
}

fn status_text(a: &AfCheck) -> Text {
    let state = match &a.status {
        Status::Running => Text::new("進行中", "running"),
        Status::FumblePending { character, .. } => Text::new(
            format!(
                "{character}のファンブル（GMの打ち消し待ち。打ち消さずに次の判定が行なわれるとAF判定は失敗、AW-7）"
            ),
            format!(
                "{character}'s fumble (waiting for the GM's cancel; the next check made without one fails the AF check, AW-7)"
            ),
        ),
        Status::Succeeded => Text::new("成功", "succeeded"),
        Status::Failed => Text::new("失敗", "failed"),
        Status::Aborted => Text::new("中止", "called off"),
    };
    // Once the check is over nobody is waiting to roll (issue 13 play-through).
    let waiting: Vec<&str> = a
        .party
        .iter()
        .filter(|p| a.running() && !a.rolled.contains(*p))
        .map(String::as_str)
        .collect();
    let goal = words_text(&a.goal);
    let progress = progress_text(&a.progress());
    Text::new(
        format!(
            "AF判定『{}』【{}】 {} {}\n  未判定: {}",
            goal.ja(),
            a.ability,
            progress.ja(),
            state.ja(),
            if waiting.is_empty() {
                "なし".to_string()
            } else {
                waiting.join("、")
            }
        ),
        format!(
            "AF check '{}' 【{}】 {} {}\n  yet to roll: {}",
            goal.en(),
            a.ability,
            progress.en(),
            state.en(),
            if waiting.is_empty() {
                "nobody".to_string()
            } else {
                waiting.join(", ")
            }
        ),
    )
}

/// A line of log text.
pub fn describe(e: &Event) -> Text {
    let then_odds = |odds: &Option<String>, lang: Lang| {
        odds.as_deref()
            .map(|o| {
                format!(
                    " {} {}",
                    if lang == Lang::Ja { "＞" } else { ">" },
                    odds_text(o).get(lang)
                )
            })
            .unwrap_or_default()
    };
    match e {
        Event::Started { check: a, odds } => {
            let mut rules = Vec::new();
            for t in &a.thresholds {
                let what = words_text(&t.text);
                rules.push(Text::new(
                    format!("達成値{}で{}", t.at, what.ja()),
                    format!("at {}: {}", t.at, what.en()),
                ));
            }
            if a.spell_rule {
                rules.push(Text::new(
                    "令呪1つで自動成功",
                    "one command spell makes it succeed",
                ));
            }
            if a.solo {
                rules.push(Text::new("PC1人で行なう", "one PC alone"));
            }
            let goal = words_text(&a.goal);
            let odds = odds_text(odds);
            Text::new(
                format!(
                    "AF判定開始『{}』 使用能力値【{}】 難易度{} ラウンド制限{} パーティ: {}{} ＞ {}",
                    goal.ja(),
                    a.ability,
                    a.base,
                    a.rounds,
                    a.party.join("、"),
                    if rules.is_empty() {
                        String::new()
                    } else {
                        format!(" 特別ルール: {}", Text::join(&rules, "／").ja())
                    },
                    odds.ja()
                ),
                format!(
                    "AF check begins: '{}', ability 【{}】, difficulty {}, round limit {}, party: {}{} > {}",
                    goal.en(),
                    a.ability,
                    a.base,
                    a.rounds,
                    a.party.join(", "),
                    if rules.is_empty() {
                        String::new()
                    } else {
                        format!("; special rules: {}", Text::join(&rules, "; ").en())
                    },
                    odds.en()
                ),
            )
        }
        Event::Declared {
            character,
            skills,
            difficulty,
            odds,
        } => {
            let minus = PER_SKILL.saturating_mul(skills.len() as i64);
            // The seed's GM guide 「PC1体が、1度の宣言で難易度を減少できる値は、平均6である」:
            // a declaration far beyond it is pointed out to the GM, who knows whether the PC
            // has those skills (「所持宣言」; issue 13 play-through 4: fifty invented skills).
            let (guide_ja, guide_en) = if minus > GUIDE_PER_DECLARATION {
                (
                    format!(
                        "（注意: 1度の宣言の目安は平均{GUIDE_PER_DECLARATION}。宣言できるのは所持している特技だけで、GMが確かめます。AW-7）"
                    ),
                    format!(
                        " (note: a declaration lowers it by {GUIDE_PER_DECLARATION} on average; only skills the PC has may be declared, which the GM checks; AW-7)"
                    ),
                )
            } else {
                (String::new(), String::new())
            };
            let skills = skills
                .iter()
                .map(|s| format!("《{s}》"))
                .collect::<String>();
            Text::new(
                format!(
                    "{character}の特技宣言 {skills} ＞ 難易度 -{minus} ＞ {difficulty}{}{guide_ja}",
                    then_odds(odds, Lang::Ja)
                ),
                format!(
                    "{character} declares {skills} > difficulty -{minus} > {difficulty}{}{guide_en}",
                    then_odds(odds, Lang::En)
                ),
            )
        }
        Event::Allowed { character, skill } => Text::new(
            format!("GMが{character}の《{skill}》の再宣言を許可"),
            format!("the GM allows {character} to declare 《{skill}》 again"),
        ),
        Event::Achieved {
            character,
            achievement,
            critical,
            progress,
            ..
        } => {
            let progress = progress_text(progress);
            Text::new(
                format!(
                    "AF判定: {character}の達成値 {achievement}{} ＞ {}",
                    if *critical {
                        "（クリティカル）"
                    } else {
                        ""
                    },
                    progress.ja()
                ),
                format!(
                    "AF check: {character}'s achievement {achievement}{} > {}",
                    if *critical { " (critical)" } else { "" },
                    progress.en()
                ),
            )
        }
        Event::Fumbled { character, .. } => Text::new(
            format!("AF判定: {character}のファンブル ＞ 直後に打ち消さなければAF判定は失敗"),
            format!(
                "AF check: {character} fumbles > the AF check fails unless the fumble is cancelled straight away"
            ),
        ),
        Event::FumbleCancelled {
            character,
            achievement,
            total,
            skill,
        } => {
            let (by_ja, by_en) = skill
                .as_deref()
                .map(|s| (format!("《{s}》で"), format!(" by 《{s}》")))
                .unwrap_or_default();
            Text::new(
                format!(
                    "AF判定: {character}のファンブルを{by_ja}打ち消し ＞ 達成値 {achievement} ＞ 合計 {total}"
                ),
                format!(
                    "AF check: {character}'s fumble cancelled{by_en} > achievement {achievement} > total {total}"
                ),
            )
        }
        Event::Ordered { party } => Text::new(
            format!(
                "AF判定: 【行動値】が同じPCの順（GM）: {}",
                party.join(" → ")
            ),
            format!(
                "AF check: the GM's order for PCs with the same action value: {}",
                party.join(" → ")
            ),
        ),
        Event::Skipped { character } => Text::new(
            format!("AF判定: {character}はこのラウンドの判定を見送り（GM）"),
            format!("AF check: {character} is passed for this round (GM)"),
        ),
        Event::Threshold { at, text } => {
            let what = words_text(text);
            let (ja, en) = match effect(text) {
                Some(Effect::Aid) => (
                    " ＞ GMが /af aid で回復を振ります",
                    " > the GM rolls it with /af aid",
                ),
                Some(Effect::Unlock(ab)) => {
                    return Text::new(
                        format!(
                            "AF判定: 合計が{at}に到達 ＞ {} ＞ 以後【{ab}】の判定も数える",
                            what.ja()
                        ),
                        format!(
                            "AF check: the total reached {at} > {} > from now on 【{ab}】 checks count too",
                            what.en()
                        ),
                    );
                }
                None => ("", ""),
            };
            Text::new(
                format!("AF判定: 合計が{at}に到達 ＞ {}{ja}", what.ja()),
                format!("AF check: the total reached {at} > {}{en}", what.en()),
            )
        }
        Event::Aided => Text::new(
            "AF判定: NPCの援助 ＞ PC達の【HP】と【MP】を1D6回復",
            "AF check: an NPC's help > the PCs recover 1D6 HP and MP",
        ),
        Event::RoundEnded { round, odds } => Text::new(
            format!("AF判定: ラウンド{round}終了{}", then_odds(odds, Lang::Ja)),
            format!("AF check: round {round} ends{}", then_odds(odds, Lang::En)),
        ),
        Event::Succeeded { how } => {
            let how = outcome_text(how);
            Text::new(
                format!("AF判定 成功（{}）", how.ja()),
                format!("AF check succeeded ({})", how.en()),
            )
        }
        Event::Failed { why } => {
            let why = outcome_text(why);
            Text::new(
                format!("AF判定 失敗（{}）", why.ja()),
                format!("AF check failed ({})", why.en()),
            )
        }
        Event::Aborted => Text::new("AF判定 中止（GM）", "AF check called off (GM)"),
    }
}

/// A skill's name as declarations compare it (issue 13 play-through: 《千枚皮》 and 千枚皮,
/// ＡＢＣ and ABC are one skill, so neither is declared twice): full-width letters and
/// digits as ASCII, the brackets a name is written in (《》, <<>>, 「」, quotes) left out.
fn skill_name(s: &str) -> String {
    let folded: String = s
        .trim()
        .chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect();
    let mut t = folded.as_str();
    loop {
        let before = t;
        for (open, close) in [
            ("《", "》"),
            ("<<", ">>"),
            ("「", "」"),
            ("\"", "\""),
            ("'", "'"),
            ("【", "】"),
        ] {
            if let Some(inner) = t.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
                t = inner.trim();
            }
        }
        if t == before {
            break;
        }
    }
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_judgement_value_is_read_from_the_typed_side() {
        assert_eq!(bare_judgement("AW+40"), Some(40));
        assert_eq!(bare_judgement("aw-1>=10"), Some(-1));
        assert_eq!(bare_judgement("AW"), Some(0));
        assert_eq!(bare_judgement("2D6+3@11"), Some(3));
        assert_eq!(bare_judgement("SAW+2"), Some(2));
        assert_eq!(bare_judgement("AW+{理知}+2"), None);
        assert_eq!(bare_judgement("1D100"), None);
    }

    #[test]
    fn the_lines_events_store_read_back_in_english() {
        assert_eq!(
            progress_text(&progress_ja(&[42, 96, 2, 3])).en(),
            "total 42 / difficulty 96 (round 2/3)"
        );
        assert_eq!(
            outcome_text(&reached_ja(101, 100)).en(),
            "total 101 ≥ difficulty 100"
        );
        assert_eq!(
            outcome_text(&out_of_rounds_ja(2, 70, 80)).en(),
            "round limit (2 rounds): total 70 < difficulty 80"
        );
        assert_eq!(outcome_text("ミナのファンブル").en(), "ミナ's fumble");
        assert_eq!(outcome_text("Mina's").en(), "Mina's");
        assert_eq!(
            odds_text("成功確率 83.45%").en(),
            "chance of success 83.45%"
        );
        assert_eq!(words_text("達成値50").en(), "achievement 50");
        assert_eq!(words_text("相手を説得する").en(), "persuade someone");
        assert_eq!(words_text("扉を開ける").en(), "扉を開ける");
    }
}
