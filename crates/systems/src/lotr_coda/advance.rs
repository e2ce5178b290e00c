//! LR-12 advancement and LR-13 money.
//!
//! - XP: a story-relevant successful test earns its modified TN (external modifiers
//!   included); the scenario's first goal 1000, second 500, a scene goal 100, each shared
//!   among the characters and rounded half up (LR-0); role-play at the GM's discretion.
//!   `xp_timing` (default `per_scenario`) keeps awards pending until the GM credits them;
//!   `per_test` credits them at once.
//! - Every 1000 XP is an advancement with 5 picks, all spent then (the rest is lost when
//!   it closes). A new flaw: `flaw_picks` = `six_instead` (default, 6 picks) or
//!   `six_more` (11). Picks buy order skills (of the orders that advance), the native
//!   Language and Lore, edges, order abilities, attributes, reactions and Health at the
//!   GM's costs ([`Costs`], marked defaults); per advancement an order skill rises at most
//!   2 ranks, any other skill 1; no skill above 12 (LR-8).
//! - Orders: joining another costs 5 picks (seed); only two orders advance at once, chosen
//!   on joining a third. Elite orders: level 6+ in one order, the elite order's attribute
//!   requirements (GM data), 5 picks.
//! - Money (LR-13): 1 sp = 100 cp, 1 SP = 4 sp, 1 gp = 1 SP, 1 GP = 4 gp. Amounts are kept
//!   in copper pennies; a purse normalises to the fewest coins. Starting money: 1d6 SP +
//!   order modifier + region modifier (GM data; the seed's Noble +2, Barbarian −2, Gondor
//!   +1, Bree −1).

use super::coda::div_half_up;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use taku_dice::{Roller, Text};

/// LR-12: XP per advancement.
pub const XP_PER_ADVANCEMENT: i64 = 1000;
/// LR-12: picks per advancement.
pub const PICKS: i64 = 5;
/// LR-8: the highest skill rank.
pub const MAX_RANK: i64 = 12;
/// LR-1: the six attributes.
pub const ATTRIBUTES: [&str; 6] = ["BRG", "NIM", "PER", "STR", "VIT", "WIT"];
/// LR-3: the four reactions.
pub const REACTIONS: [&str; 4] = ["Stamina", "Swiftness", "Willpower", "Wisdom"];

/// LR-12 `xp_timing`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum XpTiming {
    /// Awards wait until the GM credits them (default).
    PerScenario,
    /// Awards are credited at once.
    PerTest,
}

/// LR-12 `flaw_picks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlawPicks {
    /// 6 picks instead of 5 (default).
    SixInstead,
    /// 6 more: 11.
    SixMore,
}

/// The GM's options for advancement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// `xp_timing`.
    pub xp_timing: XpTiming,
    /// `flaw_picks`.
    pub flaw_picks: FlawPicks,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            xp_timing: XpTiming::PerScenario,
            flaw_picks: FlawPicks::SixInstead,
        }
    }
}

impl Settings {
    /// Applies `KEY VALUE`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Text> {
        let bad = || super::settings::bad_value("LR-12: ", key, value);
        match (key, value) {
            ("xp_timing", "per_scenario") => self.xp_timing = XpTiming::PerScenario,
            ("xp_timing", "per_test") => self.xp_timing = XpTiming::PerTest,
            ("flaw_picks", "six_instead") => self.flaw_picks = FlawPicks::SixInstead,
            ("flaw_picks", "six_more") => self.flaw_picks = FlawPicks::SixMore,
            ("xp_timing" | "flaw_picks", _) => return Err(bad()),
            _ => {
                return Err(Text::new(
                    format!("設定「{key}」はありません: xp_timing, flaw_picks"),
                    format!("no setting '{key}': xp_timing, flaw_picks"),
                ));
            }
        }
        Ok(())
    }

    /// Every setting with its value and default.
    pub fn describe(&self) -> Text {
        let t = match self.xp_timing {
            XpTiming::PerScenario => "per_scenario",
            XpTiming::PerTest => "per_test",
        };
        let f = match self.flaw_picks {
            FlawPicks::SixInstead => "six_instead",
            FlawPicks::SixMore => "six_more",
        };
        Text::new(
            format!(
                "xp_timing = {t}（LR-12、既定 per_scenario）\nflaw_picks = {f}（LR-12、既定 six_instead）"
            ),
            format!(
                "xp_timing = {t} (LR-12, default per_scenario)\nflaw_picks = {f} (LR-12, default six_instead)"
            ),
        )
    }

    /// Picks of an advancement, with or without a new flaw.
    pub fn picks(&self, new_flaw: bool) -> i64 {
        match (new_flaw, self.flaw_picks) {
            (false, _) => PICKS,
            (true, FlawPicks::SixInstead) => 6,
            (true, FlawPicks::SixMore) => PICKS + 6,
        }
    }
}

/// One cost with where it comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    /// Picks.
    pub picks: i64,
    /// `true`: the seed's number; `false`: an example the GM should replace.
    pub from_seed: bool,
}

/// LR-12: pick costs, GM data. The seed gives only joining an order (5), an elite order
/// (5) and a further specialisation (1, LR-8); the rest are marked examples.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Costs {
    /// One skill rank.
    pub skill_rank: Cost,
    /// A further specialisation (LR-8: 1 pick).
    pub specialisation: Cost,
    /// An edge.
    pub edge: Cost,
    /// An order ability.
    pub order_ability: Cost,
    /// +1 to an attribute.
    pub attribute: Cost,
    /// +1 to a favoured attribute.
    pub favoured_attribute: Cost,
    /// +1 to a reaction.
    pub reaction: Cost,
    /// +1 to the favoured reaction.
    pub favoured_reaction: Cost,
    /// +1 Health.
    pub health: Cost,
    /// Joining another order (seed: 5).
    pub join_order: Cost,
    /// Joining an elite order (seed: 5).
    pub elite_order: Cost,
    /// Elite orders' attribute requirements (GM data; none shipped).
    #[serde(default)]
    pub elite_requirements: BTreeMap<String, BTreeMap<String, i64>>,
}

impl Default for Costs {
    fn default() -> Self {
        let ex = |picks| Cost {
            picks,
            from_seed: false,
        };
        let seed = |picks| Cost {
            picks,
            from_seed: true,
        };
        Costs {
            skill_rank: ex(1),
            specialisation: seed(1),
            edge: ex(1),
            order_ability: ex(1),
            attribute: ex(3),
            favoured_attribute: ex(2),
            reaction: ex(2),
            favoured_reaction: ex(1),
            health: ex(1),
            join_order: seed(5),
            elite_order: seed(5),
            elite_requirements: BTreeMap::new(),
        }
    }
}

/// A character's advancement record.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// XP credited.
    pub xp: i64,
    /// XP awarded, not yet credited (`per_scenario`).
    pub pending: i64,
    /// Advancements taken.
    pub advancements: i64,
    /// The advancement being spent.
    pub open: Option<Open>,
    /// Orders the character belongs to, with its level (advancements taken in it).
    pub orders: BTreeMap<String, i64>,
    /// The orders that advance (at most two).
    pub advancing: Vec<String>,
    /// Each order's skills.
    pub order_skills: BTreeMap<String, BTreeSet<String>>,
    /// Native Language and Lore skills (the only race skills picks buy).
    pub native: BTreeSet<String>,
    /// Skill ranks.
    pub skills: BTreeMap<String, i64>,
    /// Specialisations (skill, field).
    pub specialisations: BTreeSet<(String, String)>,
    /// Edges and order abilities bought.
    pub edges: BTreeSet<String>,
    /// Order abilities bought, with their order.
    pub abilities: BTreeSet<(String, String)>,
    /// Attribute values and their maxima (12 + racial modifier).
    pub attributes: BTreeMap<String, (i64, i64)>,
    /// Favoured attributes.
    pub favoured: BTreeSet<String>,
    /// Reactions' bonuses.
    pub reactions: BTreeMap<String, i64>,
    /// The favoured reaction.
    pub favoured_reaction: Option<String>,
    /// Health.
    pub health: i64,
    /// Flaws taken for advancements.
    pub flaws: Vec<String>,
    /// Attribute points bought by picks (added to the character's values at the table).
    #[serde(default)]
    pub attribute_picks: BTreeMap<String, i64>,
    /// The character's race (whose edge list picks buy from, LR-12); empty in records
    /// made before it was kept, which are then checked against their orders only.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub race: String,
}

impl Progress {
    /// LR-12: advancements the credited XP has earned in all.
    pub fn earned(&self) -> i64 {
        self.xp.max(0) / XP_PER_ADVANCEMENT
    }
    /// LR-12: XP toward the next advancement.
    pub fn toward_next(&self) -> i64 {
        self.xp.max(0) % XP_PER_ADVANCEMENT
    }
    /// An order skill of an advancing order: by name, or by its group (`Armed Combat:
    /// Blades` is an `Armed Combat` skill, LR-8).
    fn is_order_skill(&self, skill: &str) -> bool {
        let group = skill.split_once(':').map_or(skill, |(g, _)| g.trim());
        self.advancing.iter().any(|o| {
            self.order_skills
                .get(o)
                .is_some_and(|s| s.contains(skill) || s.contains(group))
        })
    }
}

/// The advancement being spent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Open {
    /// Picks left.
    pub picks: i64,
    /// The order it counts toward.
    pub order: String,
    /// Ranks raised this advancement, by skill.
    pub raised: BTreeMap<String, i64>,
}

/// What an award is for (LR-12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "for", rename_all = "snake_case")]
pub enum Award {
    /// A story-relevant successful test: its TN with external modifiers.
    Test {
        /// Base TN.
        tn: i64,
        /// External modifiers on the TN.
        external: i64,
    },
    /// The scenario's first goal: 1000 shared.
    FirstGoal,
    /// The scenario's second goal: 500 shared.
    SecondGoal,
    /// A scene goal: 100 shared.
    Scene,
    /// Role-play, at the GM's discretion (each).
    RolePlay {
        /// XP each.
        xp: i64,
    },
}

impl Award {
    /// XP each of `n` characters gets (LR-0: shared awards rounded half up).
    pub fn each(&self, n: i64) -> i64 {
        let n = n.max(1);
        match self {
            Award::Test { tn, external } => tn + external,
            Award::FirstGoal => div_half_up(1000, n),
            Award::SecondGoal => div_half_up(500, n),
            Award::Scene => div_half_up(100, n),
            Award::RolePlay { xp } => *xp,
        }
    }
}

/// What a pick buys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "buy", rename_all = "snake_case")]
pub enum Buy {
    /// One rank of a skill.
    Rank {
        /// Skill.
        skill: String,
    },
    /// A further specialisation.
    Specialisation {
        /// Skill.
        skill: String,
        /// Field.
        field: String,
    },
    /// An edge.
    Edge {
        /// Name.
        name: String,
    },
    /// An order ability.
    Ability {
        /// Order.
        order: String,
        /// Name.
        name: String,
    },
    /// +1 attribute.
    Attribute {
        /// BRG … WIT.
        name: String,
    },
    /// +1 reaction.
    Reaction {
        /// Stamina … Wisdom.
        name: String,
    },
    /// +1 Health.
    Health,
    /// Another order; on joining a third, the two that advance.
    Order {
        /// Order.
        order: String,
        /// Its skills.
        skills: BTreeSet<String>,
        /// The two orders that advance, when it is a third.
        advancing: Option<[String; 2]>,
        /// An elite order.
        elite: bool,
    },
}

/// A command for advancement and money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A character's record, read from its sheet.
    Import {
        /// Name.
        who: String,
        /// Record.
        progress: Box<Progress>,
    },
    /// XP for these characters.
    Award {
        /// Who shares it.
        who: Vec<String>,
        /// What for.
        award: Award,
    },
    /// Credits pending XP (the scenario's end).
    Credit {
        /// Who.
        who: String,
    },
    /// Takes an advancement.
    Advance {
        /// Who.
        who: String,
        /// The order it counts toward (default: the first advancing one).
        order: Option<String>,
        /// A new flaw taken for more picks.
        new_flaw: Option<String>,
    },
    /// Spends picks.
    Pick {
        /// Who.
        who: String,
        /// What.
        buy: Buy,
    },
    /// Ends the advancement; unspent picks are lost.
    Close {
        /// Who.
        who: String,
    },
    /// Money gained (positive) or spent, in cp.
    Money {
        /// Who.
        who: String,
        /// cp.
        cp: i64,
    },
    /// Starting money: 1d6 SP + modifiers.
    StartingMoney {
        /// Who.
        who: String,
        /// Order modifier (SP).
        order_mod: i64,
        /// Region modifier (SP).
        region_mod: i64,
    },
    /// An option.
    Set {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
    /// Replaces the costs.
    Costs(Box<Costs>),
}

/// What advancement and money track.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct State {
    /// Options.
    pub settings: Settings,
    /// Costs.
    pub costs: Costs,
    /// Records by character.
    pub progress: BTreeMap<String, Progress>,
    /// Purses by character, in cp.
    pub purses: BTreeMap<String, i64>,
    /// Characters whose starting money was rolled (once each, LR-13).
    pub started: std::collections::BTreeSet<String>,
    /// LR-8 `multi_field_specialisation`, the table's option: not advancement's state but
    /// a reading its caller sets before deciding (several fields on one skill only when on).
    #[serde(skip)]
    pub multi_field_specialisation: bool,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A record read from a sheet.
    Imported {
        /// Who.
        who: String,
        /// Record.
        progress: Box<Progress>,
    },
    /// XP awarded.
    Awarded {
        /// Who.
        who: String,
        /// XP.
        xp: i64,
        /// Kept pending (`per_scenario`).
        pending: bool,
        /// What for.
        award: Award,
    },
    /// Pending XP credited.
    Credited {
        /// Who.
        who: String,
        /// XP.
        xp: i64,
    },
    /// An advancement taken.
    Advanced {
        /// Who.
        who: String,
        /// Its number.
        number: i64,
        /// Picks.
        picks: i64,
        /// Order.
        order: String,
        /// New flaw.
        flaw: Option<String>,
    },
    /// A pick spent.
    Bought {
        /// Who.
        who: String,
        /// What.
        buy: Buy,
        /// Picks.
        cost: i64,
    },
    /// The advancement closed.
    Closed {
        /// Who.
        who: String,
        /// Picks lost.
        lost: i64,
    },
    /// Money.
    Money {
        /// Who.
        who: String,
        /// cp.
        cp: i64,
    },
    /// Starting money.
    StartingMoney {
        /// Who.
        who: String,
        /// The d6.
        die: i64,
        /// Order modifier.
        order_mod: i64,
        /// Region modifier.
        region_mod: i64,
        /// cp given (never below 0).
        cp: i64,
    },
    /// An option.
    Setting {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
    /// Costs replaced.
    Costs {
        /// Costs.
        costs: Box<Costs>,
    },
}

fn refuse(rule: &str, ja: impl AsRef<str>, en: impl AsRef<str>) -> Text {
    Text::new(
        format!("{rule}: {}", ja.as_ref()),
        format!("{rule}: {}", en.as_ref()),
    )
}

fn record<'a>(state: &'a State, who: &str) -> Result<&'a Progress, Text> {
    state.progress.get(who).ok_or_else(|| {
        refuse(
            "LR-12",
            format!("{who} の成長記録がありません（シートを読み込んでください）"),
            format!("no advancement record for {who} (read its sheet first)"),
        )
    })
}

fn open_of<'a>(p: &'a Progress, who: &str) -> Result<&'a Open, Text> {
    p.open.as_ref().ok_or_else(|| {
        refuse(
            "LR-12",
            format!("{who} は成長中ではありません（advance で成長を始める）"),
            format!("{who} has no advancement open (take one with advance)"),
        )
    })
}

/// Largest amount of money, in cp, a purse holds (keeps sums far from overflow).
pub const MAX_CP: i64 = 1_000_000_000_000;

/// Decides a command: validates, draws its dice, returns events. A refusal draws nothing.
pub fn decide(state: &State, cmd: &Command, dice: &mut Roller<'_>) -> Result<Vec<Event>, Text> {
    match cmd {
        Command::Import { who, progress } => {
            if progress.advancing.len() > 2 {
                return Err(refuse(
                    "LR-12",
                    "成長する職業は二つまでです",
                    "at most two orders advance",
                ));
            }
            Ok(vec![Event::Imported {
                who: who.clone(),
                progress: progress.clone(),
            }])
        }
        Command::Award { who, award } => {
            if who.is_empty() {
                return Err(refuse(
                    "LR-12",
                    "経験点を受け取るキャラクターを指定してください",
                    "name who gets the XP",
                ));
            }
            let unique: BTreeSet<&String> = who.iter().collect();
            if unique.len() != who.len() {
                return Err(refuse(
                    "LR-12",
                    "同じキャラクターが二度指定されています",
                    "a character is named twice",
                ));
            }
            for w in who {
                record(state, w)?;
            }
            let bad = match award {
                Award::Test { tn, external } => {
                    !(0..=1000).contains(tn)
                        || !(-100..=100).contains(external)
                        || tn + external < 0
                }
                Award::RolePlay { xp } => !(0..=100_000).contains(xp),
                _ => false,
            };
            if bad {
                return Err(refuse(
                    "LR-12",
                    "経験点は 0 以上（目標値 0〜1000、外的修正 −100〜100、ロールプレイ 0〜100000）",
                    "XP must be 0 or more (TN 0–1000, external −100..100, role-play 0–100000)",
                ));
            }
            let xp = award.each(who.len() as i64);
            let pending = state.settings.xp_timing == XpTiming::PerScenario;
            Ok(who
                .iter()
                .map(|w| Event::Awarded {
                    who: w.clone(),
                    xp,
                    pending,
                    award: award.clone(),
                })
                .collect())
        }
        Command::Credit { who } => {
            let p = record(state, who)?;
            if p.pending == 0 {
                return Err(refuse(
                    "LR-12",
                    format!("{who} に未加算の経験点はありません"),
                    format!("{who} has no pending XP"),
                ));
            }
            Ok(vec![Event::Credited {
                who: who.clone(),
                xp: p.pending,
            }])
        }
        Command::Advance {
            who,
            order,
            new_flaw,
        } => {
            let p = record(state, who)?;
            // An advancement whose picks are all spent closes itself.
            if p.open.as_ref().is_some_and(|o| o.picks <= 0) {
                let mut st = state.clone();
                if let Some(q) = st.progress.get_mut(who) {
                    q.open = None;
                }
                let mut events = vec![Event::Closed {
                    who: who.clone(),
                    lost: 0,
                }];
                events.extend(decide(&st, cmd, dice)?);
                return Ok(events);
            }
            if let Some(o) = &p.open {
                return Err(refuse(
                    "LR-12",
                    format!(
                        "前の成長に成長ポイントが{}点残っています。使うか /lotr xp close {who} で終えてください（残りは失われます）",
                        o.picks
                    ),
                    format!(
                        "the open advancement has {} picks left: spend them or /lotr xp close {who} (what is left is lost)",
                        o.picks
                    ),
                ));
            }
            if p.earned() <= p.advancements {
                return Err(refuse(
                    "LR-12",
                    format!(
                        "経験点 {} では成長できません（1000点ごとに1回、次は {}）",
                        p.xp,
                        (p.advancements + 1) * XP_PER_ADVANCEMENT
                    ),
                    format!(
                        "{} XP gives no advancement (one per 1000; next at {})",
                        p.xp,
                        (p.advancements + 1) * XP_PER_ADVANCEMENT
                    ),
                ));
            }
            let order = match order {
                Some(o) => o.clone(),
                None => p.advancing.first().cloned().ok_or_else(|| {
                    refuse(
                        "LR-12",
                        "成長する職業を指定してください",
                        "name the order it counts toward",
                    )
                })?,
            };
            if !p.advancing.contains(&order) {
                return Err(refuse(
                    "LR-12",
                    format!(
                        "「{order}」は成長中の職業ではありません: {}",
                        p.advancing.join(", ")
                    ),
                    format!(
                        "'{order}' is not an order that advances: {}",
                        p.advancing.join(", ")
                    ),
                ));
            }
            if new_flaw.as_ref().is_some_and(|f| f.trim().is_empty()) {
                return Err(refuse(
                    "LR-12",
                    "新しい欠点の名前が空です",
                    "the new flaw needs a name",
                ));
            }
            Ok(vec![Event::Advanced {
                who: who.clone(),
                number: p.advancements + 1,
                picks: state.settings.picks(new_flaw.is_some()),
                order,
                flaw: new_flaw.clone(),
            }])
        }
        Command::Pick { who, buy } => {
            let p = record(state, who)?;
            let open = open_of(p, who)?;
            let cost = cost_of(state, p, open, buy)?;
            if cost > open.picks {
                return Err(refuse(
                    "LR-12",
                    format!(
                        "成長ポイントが足りません（必要 {cost}、残り {}）",
                        open.picks
                    ),
                    format!("not enough picks ({cost} needed, {} left)", open.picks),
                ));
            }
            Ok(vec![Event::Bought {
                who: who.clone(),
                buy: buy.clone(),
                cost,
            }])
        }
        Command::Close { who } => {
            let p = record(state, who)?;
            let open = open_of(p, who)?;
            Ok(vec![Event::Closed {
                who: who.clone(),
                lost: open.picks,
            }])
        }
        Command::Money { who, cp } => {
            let have = state.purses.get(who).copied().unwrap_or(0);
            if cp.unsigned_abs() > MAX_CP as u64 || have + cp > MAX_CP {
                return Err(refuse(
                    "LR-13",
                    "金額が大きすぎます",
                    "the amount is too large",
                ));
            }
            if have + cp < 0 {
                return Err(refuse(
                    "LR-13",
                    format!(
                        "所持金 {} では {} を払えません",
                        show_cp(have).0,
                        show_cp(-cp).0
                    ),
                    format!(
                        "a purse of {} cannot pay {}",
                        show_cp(have).1,
                        show_cp(-cp).1
                    ),
                ));
            }
            Ok(vec![Event::Money {
                who: who.clone(),
                cp: *cp,
            }])
        }
        Command::StartingMoney {
            who,
            order_mod,
            region_mod,
        } => {
            if !(-10..=10).contains(order_mod) || !(-10..=10).contains(region_mod) {
                return Err(refuse(
                    "LR-13",
                    "修正は −10〜+10 です",
                    "modifiers are −10 to +10",
                ));
            }
            // LR-13: starting money is the character's at creation, rolled once.
            if state.started.contains(who) {
                return Err(refuse(
                    "LR-13",
                    format!(
                        "{who} の初期所持金はもう振りました（増減は /lotr money {who} +1GP など）"
                    ),
                    format!(
                        "{who}'s starting money was already rolled (change the purse with /lotr money {who} +1GP…)"
                    ),
                ));
            }
            let die = dice.roll_once(6).map_err(|e| e.text())?;
            let sp = (die + order_mod + region_mod).max(0);
            Ok(vec![Event::StartingMoney {
                who: who.clone(),
                die,
                order_mod: *order_mod,
                region_mod: *region_mod,
                cp: sp * SILVER_PIECE,
            }])
        }
        Command::Set { key, value } => {
            let mut s = state.settings;
            s.set(key, value)?;
            Ok(vec![Event::Setting {
                key: key.clone(),
                value: value.clone(),
            }])
        }
        Command::Costs(costs) => {
            let all = [
                costs.skill_rank,
                costs.specialisation,
                costs.edge,
                costs.order_ability,
                costs.attribute,
                costs.favoured_attribute,
                costs.reaction,
                costs.favoured_reaction,
                costs.health,
                costs.join_order,
                costs.elite_order,
            ];
            if all.iter().any(|c| !(1..=100).contains(&c.picks)) {
                return Err(refuse(
                    "LR-12",
                    "費用は 1〜100 です",
                    "costs are 1 to 100 picks",
                ));
            }
            Ok(vec![Event::Costs {
                costs: costs.clone(),
            }])
        }
    }
}

fn cost_of(state: &State, p: &Progress, open: &Open, buy: &Buy) -> Result<i64, Text> {
    let c = &state.costs;
    match buy {
        Buy::Rank { skill } => {
            let order = p.is_order_skill(skill);
            if !order && !p.native.contains(skill) {
                return Err(refuse(
                    "LR-12",
                    format!("「{skill}」は成長中の職業の技能でも母語の言語・知識でもありません"),
                    format!(
                        "'{skill}' is neither a skill of an advancing order nor a native Language or Lore"
                    ),
                ));
            }
            let limit = if order { 2 } else { 1 };
            let raised = open.raised.get(skill).copied().unwrap_or(0);
            if raised >= limit {
                return Err(refuse(
                    "LR-12",
                    format!(
                        "1回の成長で{}は {limit} ランクまでです（{skill} は +{raised} 済み）",
                        if order {
                            "職業技能"
                        } else {
                            "職業技能以外"
                        }
                    ),
                    format!(
                        "one advancement raises {} by {limit} rank(s) at most ({skill} already +{raised})",
                        if order {
                            "an order skill"
                        } else {
                            "another skill"
                        }
                    ),
                ));
            }
            let rank = p.skills.get(skill).copied().unwrap_or(0);
            if rank >= MAX_RANK {
                return Err(refuse(
                    "LR-8",
                    format!("技能ランクは {MAX_RANK} までです（{skill} {rank}）"),
                    format!("skill ranks go to {MAX_RANK} ({skill} is {rank})"),
                ));
            }
            Ok(c.skill_rank.picks)
        }
        Buy::Specialisation { skill, field } => {
            if p.skills.get(skill).copied().unwrap_or(0) < 1 {
                return Err(refuse(
                    "LR-8",
                    format!("ランク0の技能（{skill}）は専門化できません"),
                    format!("a rank-0 skill ({skill}) cannot be specialised"),
                ));
            }
            if p.specialisations.contains(&(skill.clone(), field.clone())) {
                return Err(refuse(
                    "LR-8",
                    "その専門化は取得済みです",
                    "that specialisation is taken already",
                ));
            }
            // LR-8 「GMの許可があれば,Acrobatics(Balance, Swing) のように, 複数の専門分野を取る
            // こともできる」: one field a skill unless the GM allows several.
            if !state.multi_field_specialisation
                && let Some((_, taken)) = p.specialisations.iter().find(|(s, _)| s == skill)
            {
                return Err(refuse(
                    "LR-8",
                    format!(
                        "{skill} はもう{taken}に専門化しています。専門分野は1技能に1つです（GMの許可で複数: /lotr set multi_field_specialisation on）"
                    ),
                    format!(
                        "{skill} is specialised in {taken} already: one field a skill (the GM may allow several: /lotr set multi_field_specialisation on)"
                    ),
                ));
            }
            Ok(c.specialisation.picks)
        }
        Buy::Edge { name } => {
            if p.edges.contains(name) {
                return Err(refuse(
                    "LR-12",
                    format!("{name} は取得済みです"),
                    format!("{name} is taken already"),
                ));
            }
            // LR-12 「成長ポイントを用いて…自分の種族の Edge が獲得できる」 (and, by the
            // translator's note, the edges of its orders' packages): the GM's data lists them.
            let race = (!p.race.is_empty()).then_some(p.race.as_str());
            if let Err(lists) = super::sheet::Data::example().edge_allowed(
                name,
                race,
                p.orders.keys().map(String::as_str),
            ) {
                let (ja, en) = lists.show();
                return Err(refuse(
                    "LR-12",
                    format!(
                        "{name} は種族の特徴でも職業パッケージの特徴でもありません（取れるもの: {ja}）"
                    ),
                    format!(
                        "{name} is neither an edge of the race nor of an order's package (these are: {en})"
                    ),
                ));
            }
            Ok(c.edge.picks)
        }
        Buy::Ability { order, name } => {
            if !p.advancing.contains(order) {
                return Err(refuse(
                    "LR-12",
                    format!("職業能力は成長中の職業のものだけです（{order} は違います）"),
                    format!("order abilities come from an advancing order ({order} is not one)"),
                ));
            }
            if p.abilities.contains(&(order.clone(), name.clone())) {
                return Err(refuse(
                    "LR-12",
                    format!("{name} は取得済みです"),
                    format!("{name} is taken already"),
                ));
            }
            Ok(c.order_ability.picks)
        }
        Buy::Attribute { name } => {
            if !ATTRIBUTES.contains(&name.as_str()) {
                return Err(refuse(
                    "LR-1",
                    format!("能力値は {} です", ATTRIBUTES.join(", ")),
                    format!("attributes are {}", ATTRIBUTES.join(", ")),
                ));
            }
            if let Some((v, max)) = p.attributes.get(name)
                && v >= max
            {
                return Err(refuse(
                    "LR-1",
                    format!("{name} は上限 {max}（12 + 種族修正）です"),
                    format!("{name} is at its maximum {max} (12 + racial modifier)"),
                ));
            }
            Ok(if p.favoured.contains(name) {
                c.favoured_attribute.picks
            } else {
                c.attribute.picks
            })
        }
        Buy::Reaction { name } => {
            if !REACTIONS.contains(&name.as_str()) {
                return Err(refuse(
                    "LR-3",
                    format!("リアクションは {} です", REACTIONS.join(", ")),
                    format!("reactions are {}", REACTIONS.join(", ")),
                ));
            }
            Ok(if p.favoured_reaction.as_deref() == Some(name) {
                c.favoured_reaction.picks
            } else {
                c.reaction.picks
            })
        }
        Buy::Health => Ok(c.health.picks),
        Buy::Order {
            order,
            advancing,
            elite,
            ..
        } => {
            if p.orders.contains_key(order) {
                return Err(refuse(
                    "LR-12",
                    format!("{order} にはすでに就いています"),
                    format!("already in {order}"),
                ));
            }
            let count = p.orders.len() + 1;
            match advancing {
                None if count > 2 => {
                    return Err(refuse(
                        "LR-12",
                        "三つ目以降の職業に就くときは、成長させる二つの職業を選んでください",
                        "joining a third order, choose the two orders that advance",
                    ));
                }
                Some([a, b]) => {
                    let known = |o: &String| o == order || p.orders.contains_key(o);
                    if a == b || !known(a) || !known(b) {
                        return Err(refuse(
                            "LR-12",
                            "成長させる職業は、就いている職業から異なる二つです",
                            "the two advancing orders are two different orders the character has",
                        ));
                    }
                }
                None => {}
            }
            if *elite {
                if !p.orders.values().any(|l| *l >= 6) {
                    return Err(refuse(
                        "LR-12",
                        "上級職には一つの職業でレベル6以上が必要です",
                        "an elite order needs level 6 or more in one order",
                    ));
                }
                let reqs = c.elite_requirements.get(order).ok_or_else(|| {
                    refuse(
                        "LR-12",
                        format!("上級職「{order}」の能力値条件がデータにありません（GMが定義）"),
                        format!("no attribute requirements for elite order '{order}' (GM data)"),
                    )
                })?;
                for (attr, min) in reqs {
                    let have = p.attributes.get(attr).map_or(0, |a| a.0);
                    if have < *min {
                        return Err(refuse(
                            "LR-12",
                            format!("{order} には {attr} {min} 以上が必要です（{have}）"),
                            format!("{order} needs {attr} {min} or more (has {have})"),
                        ));
                    }
                }
                Ok(c.elite_order.picks)
            } else {
                Ok(c.join_order.picks)
            }
        }
    }
}

/// Folds one event; total (an event for a missing record changes nothing).
pub fn fold(state: &mut State, event: &Event) {
    match event {
        Event::Imported { who, progress } => {
            state.progress.insert(who.clone(), (**progress).clone());
        }
        Event::Awarded {
            who, xp, pending, ..
        } => {
            if let Some(p) = state.progress.get_mut(who) {
                if *pending {
                    p.pending += xp;
                } else {
                    p.xp += xp;
                }
            }
        }
        Event::Credited { who, xp } => {
            if let Some(p) = state.progress.get_mut(who) {
                p.pending -= xp;
                p.xp += xp;
            }
        }
        Event::Advanced {
            who,
            number,
            picks,
            order,
            flaw,
        } => {
            if let Some(p) = state.progress.get_mut(who) {
                p.advancements = *number;
                *p.orders.entry(order.clone()).or_insert(0) += 1;
                if let Some(f) = flaw {
                    p.flaws.push(f.clone());
                }
                p.open = Some(Open {
                    picks: *picks,
                    order: order.clone(),
                    raised: BTreeMap::new(),
                });
            }
        }
        Event::Bought { who, buy, cost } => {
            let Some(p) = state.progress.get_mut(who) else {
                return;
            };
            if let Some(o) = &mut p.open {
                o.picks -= cost;
                if let Buy::Rank { skill } = buy {
                    *o.raised.entry(skill.clone()).or_insert(0) += 1;
                }
            }
            match buy {
                Buy::Rank { skill } => *p.skills.entry(skill.clone()).or_insert(0) += 1,
                Buy::Specialisation { skill, field } => {
                    p.specialisations.insert((skill.clone(), field.clone()));
                }
                Buy::Edge { name } => {
                    p.edges.insert(name.clone());
                }
                Buy::Ability { order, name } => {
                    p.abilities.insert((order.clone(), name.clone()));
                }
                Buy::Attribute { name } => {
                    p.attributes.entry(name.clone()).or_insert((0, 12)).0 += 1;
                    *p.attribute_picks.entry(name.clone()).or_insert(0) += 1;
                }
                Buy::Reaction { name } => *p.reactions.entry(name.clone()).or_insert(0) += 1,
                Buy::Health => p.health += 1,
                Buy::Order {
                    order,
                    skills,
                    advancing,
                    ..
                } => {
                    p.orders.insert(order.clone(), 0);
                    p.order_skills.insert(order.clone(), skills.clone());
                    match advancing {
                        Some(two) => p.advancing = two.to_vec(),
                        None if p.advancing.len() < 2 => p.advancing.push(order.clone()),
                        None => {}
                    }
                }
            }
        }
        Event::Closed { who, .. } => {
            if let Some(p) = state.progress.get_mut(who) {
                p.open = None;
            }
        }
        Event::Money { who, cp } => {
            let purse = state.purses.entry(who.clone()).or_insert(0);
            *purse = (*purse + cp).max(0);
        }
        Event::StartingMoney { who, cp, .. } => {
            *state.purses.entry(who.clone()).or_insert(0) += cp;
            state.started.insert(who.clone());
        }
        Event::Setting { key, value } => {
            let _ = state.settings.set(key, value);
        }
        Event::Costs { costs } => state.costs = (**costs).clone(),
    }
}

/// One line of log text.
pub fn describe(event: &Event) -> Text {
    match event {
        Event::Imported { who, progress } => Text::new(
            format!(
                "LR-12 {who} の成長記録: 経験点 {}、成長 {} 回",
                progress.xp, progress.advancements
            ),
            format!(
                "LR-12 {who}'s record: {} XP, {} advancements",
                progress.xp, progress.advancements
            ),
        ),
        Event::Awarded {
            who, xp, pending, ..
        } => Text::new(
            format!(
                "LR-12 {who} に経験点 {xp}{}",
                if *pending {
                    "（シナリオ終了時に加算）"
                } else {
                    ""
                }
            ),
            format!(
                "LR-12 {who} earns {xp} XP{}",
                if *pending {
                    " (credited at the scenario's end)"
                } else {
                    ""
                }
            ),
        ),
        Event::Credited { who, xp } => Text::new(
            format!("LR-12 {who} の経験点 {xp} を加算"),
            format!("LR-12 {who}: {xp} XP credited"),
        ),
        Event::Advanced {
            who,
            number,
            picks,
            order,
            flaw,
        } => {
            let (fj, fe) = flaw
                .as_ref()
                .map(|f| (format!("（新しい欠点 {f}）"), format!(" (new flaw {f})")))
                .unwrap_or_default();
            Text::new(
                format!("LR-12 {who} の {number} 回目の成長（{order}）: 成長ポイント {picks}{fj}"),
                format!("LR-12 {who}'s advancement {number} ({order}): {picks} picks{fe}"),
            )
        }
        Event::Bought { who, buy, cost } => {
            let (ja, en) = match buy {
                Buy::Rank { skill } => (format!("{skill} +1 ランク"), format!("{skill} +1 rank")),
                Buy::Specialisation { skill, field } => (
                    format!("{skill} の専門化（{field}）"),
                    format!("{skill} specialisation ({field})"),
                ),
                Buy::Edge { name } => (format!("特徴 {name}"), format!("edge {name}")),
                Buy::Ability { order, name } => (
                    format!("{order} の職業能力 {name}"),
                    format!("{order} ability {name}"),
                ),
                Buy::Attribute { name } => (format!("{name} +1"), format!("{name} +1")),
                Buy::Reaction { name } => (format!("{name} +1"), format!("{name} +1")),
                Buy::Health => ("Health +1".into(), "Health +1".into()),
                Buy::Order { order, elite, .. } => (
                    format!("{}{order} に就く", if *elite { "上級職 " } else { "職業 " }),
                    format!(
                        "joins {}{order}",
                        if *elite { "elite order " } else { "order " }
                    ),
                ),
            };
            Text::new(
                format!("LR-12 {who}: {ja}（成長ポイント {cost}）"),
                format!("LR-12 {who}: {en} ({cost} picks)"),
            )
        }
        Event::Closed { who, lost } => Text::new(
            format!("LR-12 {who} の成長終了（使わなかった {lost} 点は失われる）"),
            format!("LR-12 {who}'s advancement closed ({lost} unspent picks lost)"),
        ),
        Event::Money { who, cp } => {
            let (ja, en) = show_cp(cp.abs());
            let sign = if *cp < 0 { "−" } else { "+" };
            Text::new(
                format!("LR-13 {who} の所持金 {sign}{ja}"),
                format!("LR-13 {who}'s purse {sign}{en}"),
            )
        }
        Event::StartingMoney {
            who,
            die,
            order_mod,
            region_mod,
            cp,
        } => {
            let (ja, en) = show_cp(*cp);
            Text::new(
                format!(
                    "LR-13 {who} の初期所持金: 1d6 [{die}] {order_mod:+} {region_mod:+} SP = {ja}"
                ),
                format!(
                    "LR-13 {who}'s starting money: 1d6 [{die}] {order_mod:+} {region_mod:+} SP = {en}"
                ),
            )
        }
        Event::Setting { key, value } => Text::new(
            format!("設定: {key} = {value}"),
            format!("setting: {key} = {value}"),
        ),
        Event::Costs { .. } => Text::new(
            "LR-12 成長ポイントの費用を更新",
            "LR-12 pick costs replaced",
        ),
    }
}

/// LR-13: copper pennies per coin.
pub const COPPER_PENNY: i64 = 1;
/// 1 sp = 100 cp.
pub const SILVER_PENNY: i64 = 100;
/// 1 SP = 4 sp.
pub const SILVER_PIECE: i64 = 4 * SILVER_PENNY;
/// 1 gp = 1 SP.
pub const GOLD_PENNY: i64 = SILVER_PIECE;
/// 1 GP = 4 gp.
pub const GOLD_PIECE: i64 = 4 * GOLD_PENNY;

/// LR-13: the coins, largest first, with their value in cp. Units are case-sensitive:
/// `sp` (silver penny) and `SP` (Silver Piece) differ, as `gp` and `GP` do.
pub const COINS: [(&str, i64); 5] = [
    ("GP", GOLD_PIECE),
    ("gp", GOLD_PENNY),
    ("SP", SILVER_PIECE),
    ("sp", SILVER_PENNY),
    ("cp", COPPER_PENNY),
];

/// LR-13: `1GP 3sp 20cp` (also `1GP+3sp`) in cp; `Err` says what was wrong.
pub fn parse_money(text: &str) -> Result<i64, Text> {
    let bad = |part: &str| {
        refuse(
            "LR-13",
            format!("「{part}」は金額ではありません（例: 1GP 3sp 20cp。単位 GP gp SP sp cp）"),
            format!("'{part}' is not an amount (e.g. 1GP 3sp 20cp; units GP gp SP sp cp)"),
        )
    };
    let mut total: i64 = 0;
    let mut any = false;
    for part in text.split(|c: char| c.is_whitespace() || c == '+' || c == ',') {
        // A part may hold several amounts written together: `1GP3sp20cp`.
        let mut rest = part;
        while !rest.is_empty() {
            let digits = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (n, after) = rest.split_at(digits);
            let letters = after
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(after.len());
            let (unit, next) = after.split_at(letters);
            let n: i64 = n.parse().map_err(|_| bad(part))?;
            let value = COINS
                .iter()
                .find(|(u, _)| *u == unit)
                .map(|(_, v)| *v)
                .ok_or_else(|| bad(part))?;
            total = n
                .checked_mul(value)
                .and_then(|v| total.checked_add(v))
                .filter(|t| *t <= MAX_CP)
                .ok_or_else(|| refuse("LR-13", "金額が大きすぎます", "the amount is too large"))?;
            any = true;
            rest = next;
        }
    }
    if !any {
        return Err(bad(text));
    }
    Ok(total)
}

/// LR-13: a purse in the fewest coins: Gold Pieces, then Silver Pieces (a gold penny is
/// worth the same: counted as SP), silver pennies, copper pennies.
pub fn normalise(cp: i64) -> Vec<(&'static str, i64)> {
    let mut left = cp.max(0);
    let mut out = Vec::new();
    for (unit, value) in [
        ("GP", GOLD_PIECE),
        ("SP", SILVER_PIECE),
        ("sp", SILVER_PENNY),
        ("cp", COPPER_PENNY),
    ] {
        let n = left / value;
        left %= value;
        if n > 0 {
            out.push((unit, n));
        }
    }
    out
}

/// An amount as its normalised coins (`1GP 2SP 3sp`, `0cp`).
pub fn show_cp(cp: i64) -> (String, String) {
    let coins = normalise(cp);
    let s = if coins.is_empty() {
        "0cp".to_string()
    } else {
        coins
            .iter()
            .map(|(u, n)| format!("{n}{u}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    (s.clone(), s)
}

/// LR-13: `amount` cp expressed in `unit` (whole coins and the cp left over).
pub fn convert(cp: i64, unit: &str) -> Option<(i64, i64)> {
    let value = COINS.iter().find(|(u, _)| *u == unit)?.1;
    Some((cp / value, cp % value))
}

/// LR-13 (FAQ): a full hauberk costs 1.25 × the corslet, rounded half up (LR-0).
pub fn hauberk_price(corslet_cp: i64) -> i64 {
    div_half_up(corslet_cp.saturating_mul(5), 4)
}

#[cfg(test)]
mod tests {
    use super::super::coda::testing::d6s;
    use super::*;
    use taku_dice::Lang;

    fn run(state: &mut State, cmd: Command, faces: &[u32]) -> Result<Vec<Event>, Text> {
        let mut src = d6s(faces);
        let mut r = Roller::new(&mut src);
        let events = decide(state, &cmd, &mut r)?;
        assert_eq!(src.remaining(), 0);
        for e in &events {
            fold(state, e);
        }
        Ok(events)
    }

    fn refused(state: &mut State, cmd: Command, rule: &str) {
        let before = state.clone();
        let err = run(state, cmd, &[]).expect_err("refused");
        assert!(err.get(Lang::En).starts_with(rule), "{}", err.get(Lang::En));
        assert!(err.get(Lang::Ja).starts_with(rule));
        assert_eq!(*state, before, "a refusal changes nothing");
    }

    fn warrior() -> Progress {
        let mut p = Progress::default();
        p.orders.insert("Warrior".into(), 0);
        p.advancing = vec!["Warrior".into()];
        p.order_skills.insert(
            "Warrior".into(),
            ["Armed Combat", "Ride", "Siegecraft"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        );
        p.native.insert("Language: Westron".into());
        p.skills.insert("Armed Combat".into(), 5);
        p.skills.insert("Ride".into(), 12);
        p.attributes.insert("STR".into(), (9, 12));
        p.attributes.insert("NIM".into(), (12, 12));
        p.favoured.insert("STR".into());
        p.favoured_reaction = Some("Stamina".into());
        p
    }

    fn with(names: &[&str]) -> State {
        let mut s = State::default();
        for n in names {
            run(
                &mut s,
                Command::Import {
                    who: n.to_string(),
                    progress: Box::new(warrior()),
                },
                &[],
            )
            .expect("import");
        }
        s
    }

    #[test]
    fn lr12_xp_2350_is_two_advancements_and_350_toward_the_next() {
        let p = Progress {
            xp: 2350,
            ..Progress::default()
        };
        assert_eq!((p.earned(), p.toward_next()), (2, 350));
    }

    #[test]
    fn lr12_shared_awards_round_half_up_and_wait_for_credit() {
        let mut s = with(&["A", "B", "C"]);
        let who: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
        run(
            &mut s,
            Command::Award {
                who: who.clone(),
                award: Award::FirstGoal,
            },
            &[],
        )
        .expect("award");
        run(
            &mut s,
            Command::Award {
                who: who.clone(),
                award: Award::SecondGoal,
            },
            &[],
        )
        .expect("award");
        // 1000 / 3 = 333.3 → 333; 500 / 3 = 166.7 → 167.
        assert_eq!(s.progress["A"].pending, 500);
        assert_eq!(
            s.progress["A"].xp, 0,
            "per_scenario: pending until credited"
        );
        run(&mut s, Command::Credit { who: "A".into() }, &[]).expect("credit");
        assert_eq!((s.progress["A"].xp, s.progress["A"].pending), (500, 0));
        refused(&mut s, Command::Credit { who: "A".into() }, "LR-12");
    }

    #[test]
    fn lr12_a_test_earns_its_modified_tn_per_test_at_once() {
        let mut s = with(&["A"]);
        run(
            &mut s,
            Command::Set {
                key: "xp_timing".into(),
                value: "per_test".into(),
            },
            &[],
        )
        .expect("set");
        // TN 15 in darkness (+5): 20 XP.
        run(
            &mut s,
            Command::Award {
                who: vec!["A".into()],
                award: Award::Test {
                    tn: 15,
                    external: 5,
                },
            },
            &[],
        )
        .expect("award");
        assert_eq!(s.progress["A"].xp, 20);
        refused(
            &mut s,
            Command::Award {
                who: vec!["A".into(), "A".into()],
                award: Award::Scene,
            },
            "LR-12",
        );
        refused(
            &mut s,
            Command::Award {
                who: vec!["Z".into()],
                award: Award::Scene,
            },
            "LR-12",
        );
    }

    /// A's advancement with no new order and no new flaw.
    fn advance_a() -> Command {
        Command::Advance {
            who: "A".into(),
            order: None,
            new_flaw: None,
        }
    }

    /// A's pick.
    fn pick_a(buy: Buy) -> Command {
        Command::Pick {
            who: "A".into(),
            buy,
        }
    }

    fn advance_ready(xp: i64) -> State {
        let mut s = with(&["A"]);
        s.progress.get_mut("A").expect("A").xp = xp;
        s
    }

    #[test]
    fn lr12_five_picks_six_with_a_new_flaw_eleven_with_six_more() {
        let mut s = advance_ready(999);
        refused(&mut s, advance_a(), "LR-12");
        let mut s = advance_ready(1000);
        run(&mut s, advance_a(), &[]).expect("advance");
        assert_eq!(s.progress["A"].open.as_ref().expect("open").picks, 5);
        let mut s = advance_ready(1000);
        run(
            &mut s,
            Command::Advance {
                who: "A".into(),
                order: None,
                new_flaw: Some("Reckless".into()),
            },
            &[],
        )
        .expect("advance");
        assert_eq!(s.progress["A"].open.as_ref().expect("open").picks, 6);
        let mut s = advance_ready(1000);
        run(
            &mut s,
            Command::Set {
                key: "flaw_picks".into(),
                value: "six_more".into(),
            },
            &[],
        )
        .expect("set");
        run(
            &mut s,
            Command::Advance {
                who: "A".into(),
                order: None,
                new_flaw: Some("Reckless".into()),
            },
            &[],
        )
        .expect("advance");
        assert_eq!(s.progress["A"].open.as_ref().expect("open").picks, 11);
        // Only one advancement per 1000 XP.
        run(&mut s, Command::Close { who: "A".into() }, &[]).expect("close");
        refused(&mut s, advance_a(), "LR-12");
    }

    #[test]
    fn lr12_rank_limits_per_advancement_and_unspent_picks_lost() {
        let mut s = advance_ready(2000);
        run(&mut s, advance_a(), &[]).expect("advance");
        let rank = |skill: &str| {
            pick_a(Buy::Rank {
                skill: skill.into(),
            })
        };
        let c = rank("Armed Combat");
        run(&mut s, c.clone(), &[]).expect("+1");
        run(&mut s, c.clone(), &[]).expect("+2");
        refused(&mut s, c, "LR-12"); // order skill: 2 ranks per advancement
        let c = rank("Language: Westron");
        run(&mut s, c.clone(), &[]).expect("+1");
        refused(&mut s, c, "LR-12"); // other skill: 1 rank
        refused(&mut s, rank("Stealth"), "LR-12"); // neither order nor native
        refused(&mut s, rank("Ride"), "LR-8"); // already 12
        assert_eq!(s.progress["A"].skills["Armed Combat"], 7);
        assert_eq!(s.progress["A"].open.as_ref().expect("open").picks, 2);
        // Attribute: favoured STR costs 2 (example data); NIM at its maximum.
        run(&mut s, pick_a(Buy::Attribute { name: "STR".into() }), &[]).expect("STR");
        assert_eq!(s.progress["A"].attributes["STR"].0, 10);
        refused(
            &mut s,
            pick_a(Buy::Attribute { name: "NIM".into() }),
            "LR-1",
        );
        let e = run(&mut s, Command::Close { who: "A".into() }, &[]).expect("close");
        assert_eq!(
            e,
            vec![Event::Closed {
                who: "A".into(),
                lost: 0
            }]
        );
        // The next advancement resets the per-skill limits.
        run(&mut s, advance_a(), &[]).expect("advance");
        run(&mut s, rank("Armed Combat"), &[]).expect("+1 again");
        let e = run(&mut s, Command::Close { who: "A".into() }, &[]).expect("close");
        assert_eq!(
            e,
            vec![Event::Closed {
                who: "A".into(),
                lost: 4
            }]
        );
        refused(&mut s, rank("Armed Combat"), "LR-12"); // closed: no picks
    }

    #[test]
    fn lr12_joining_orders_costs_five_and_a_third_needs_two_chosen() {
        let mut s = advance_ready(3000);
        run(&mut s, advance_a(), &[]).expect("advance");
        let join = |order: &str, advancing: Option<[String; 2]>| Command::Pick {
            who: "A".into(),
            buy: Buy::Order {
                order: order.into(),
                skills: [format!("{order} skill")].into(),
                advancing,
                elite: false,
            },
        };
        run(&mut s, join("Rogue", None), &[]).expect("join");
        assert_eq!(s.progress["A"].open.as_ref().expect("open").picks, 0);
        assert_eq!(s.progress["A"].advancing, ["Warrior", "Rogue"]);
        run(&mut s, Command::Close { who: "A".into() }, &[]).expect("close");
        run(
            &mut s,
            Command::Advance {
                who: "A".into(),
                order: Some("Rogue".into()),
                new_flaw: None,
            },
            &[],
        )
        .expect("advance");
        refused(&mut s, join("Loremaster", None), "LR-12");
        refused(
            &mut s,
            join("Loremaster", Some(["Rogue".into(), "Rogue".into()])),
            "LR-12",
        );
        run(
            &mut s,
            join("Loremaster", Some(["Loremaster".into(), "Warrior".into()])),
            &[],
        )
        .expect("third");
        assert_eq!(s.progress["A"].advancing, ["Loremaster", "Warrior"]);
        // Rogue no longer advances: its skills cannot be bought.
        run(&mut s, Command::Close { who: "A".into() }, &[]).expect("close");
        run(&mut s, advance_a(), &[]).expect("advance");
        refused(
            &mut s,
            pick_a(Buy::Rank {
                skill: "Rogue skill".into(),
            }),
            "LR-12",
        );
        run(
            &mut s,
            pick_a(Buy::Rank {
                skill: "Loremaster skill".into(),
            }),
            &[],
        )
        .expect("advancing");
    }

    #[test]
    fn lr12_elite_order_needs_level_six_and_its_requirements() {
        let mut s = advance_ready(1000);
        let mut costs = Costs::default();
        costs
            .elite_requirements
            .insert("Captain".into(), [("STR".to_string(), 10)].into());
        run(&mut s, Command::Costs(Box::new(costs)), &[]).expect("costs");
        run(&mut s, advance_a(), &[]).expect("advance");
        let elite = pick_a(Buy::Order {
            order: "Captain".into(),
            skills: BTreeSet::new(),
            advancing: None,
            elite: true,
        });
        refused(&mut s, elite.clone(), "LR-12"); // level 1 in Warrior
        s.progress
            .get_mut("A")
            .expect("A")
            .orders
            .insert("Warrior".into(), 6);
        refused(&mut s, elite.clone(), "LR-12"); // STR 9 < 10
        s.progress
            .get_mut("A")
            .expect("A")
            .attributes
            .insert("STR".into(), (10, 12));
        run(&mut s, elite, &[]).expect("elite");
        assert_eq!(s.progress["A"].open.as_ref().expect("open").picks, 0);
    }

    #[test]
    fn lr8_specialisation_refused_on_rank_zero() {
        let mut s = advance_ready(1000);
        run(&mut s, advance_a(), &[]).expect("advance");
        refused(
            &mut s,
            pick_a(Buy::Specialisation {
                skill: "Stealth".into(),
                field: "Forest".into(),
            }),
            "LR-8",
        );
        run(
            &mut s,
            pick_a(Buy::Specialisation {
                skill: "Armed Combat".into(),
                field: "Swords".into(),
            }),
            &[],
        )
        .expect("spec");
    }

    #[test]
    fn lr13_currency_and_purse() {
        assert_eq!(parse_money("1GP").expect("GP"), 1600);
        assert_eq!(parse_money("4gp").expect("gp"), 1600);
        assert_eq!(parse_money("4SP").expect("SP"), 1600);
        assert_eq!(parse_money("16sp").expect("sp"), 1600);
        assert_eq!(parse_money("1600cp").expect("cp"), 1600);
        assert_eq!(parse_money("1GP 3sp 20cp").expect("mixed"), 1920);
        assert_eq!(parse_money("1GP3sp20cp").expect("joined"), 1920);
        assert!(parse_money("GP").is_err());
        assert!(parse_money("3 gold").is_err());
        assert!(parse_money("3Sp").is_err());
        assert!(parse_money("").is_err());
        assert!(parse_money("99999999999999999GP").is_err());
        assert_eq!(
            normalise(1920 + 400),
            vec![("GP", 1), ("SP", 1), ("sp", 3), ("cp", 20)]
        );
        assert_eq!(convert(1920, "sp"), Some((19, 20)));
        assert_eq!(hauberk_price(1000), 1250);
        assert_eq!(hauberk_price(10), 13); // 12.5 → 13

        let mut s = State::default();
        // 1d6 = 4, Noble +2, Bree −1: 5 SP = 2000 cp.
        run(
            &mut s,
            Command::StartingMoney {
                who: "A".into(),
                order_mod: 2,
                region_mod: -1,
            },
            &[4],
        )
        .expect("money");
        assert_eq!(s.purses["A"], 2000);
        run(
            &mut s,
            Command::Money {
                who: "A".into(),
                cp: -1999,
            },
            &[],
        )
        .expect("spend");
        refused(
            &mut s,
            Command::Money {
                who: "A".into(),
                cp: -2,
            },
            "LR-13",
        );
        assert_eq!(show_cp(s.purses["A"]).0, "1cp");
    }

    #[test]
    fn every_event_describes_in_both_languages() {
        let mut s = advance_ready(1000);
        let e = run(
            &mut s,
            Command::Advance {
                who: "A".into(),
                order: None,
                new_flaw: Some("Proud".into()),
            },
            &[],
        )
        .expect("advance");
        let t = describe(&e[0]);
        assert!(t.get(Lang::Ja).contains("成長") && t.get(Lang::En).contains("6 picks"));
        let json = serde_json::to_string(&e).expect("json");
        assert_eq!(serde_json::from_str::<Vec<Event>>(&json).expect("back"), e);
    }
}
