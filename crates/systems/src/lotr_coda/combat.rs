//! LR-14 combat: rounds of 6 seconds, initiative from Swiftness tests, actions and their
//! costs, attacks with their options, dodge and parry, aim, size, mounted combat, grab and
//! grapple, stun and fear, and what an Extraordinary Success does. Commands are decided
//! into events (dice from the injected roller) and folded into [`Combat`].
//!
//! - Initiative: a Swiftness test each; higher acts first; tied totals are re-tested
//!   among themselves (LR-11). The GM may keep the first order (no new `Initiative`).
//! - 2 actions a round (+1 riding a War-Trained horse, for its attack; more from edges:
//!   `actions`). Past them, each action is at −5 cumulative (3rd −5, 4th −10); an extra
//!   action needing no test is a test at TN 5 with that penalty.
//! - Costs: 0 free acts; 1 aim, attack, dodge, parry, walk/jog; 2 run (Run TN 5, 10 in
//!   melee), sweep, charge; a full round sprint (TN 10, 15 in melee).
//! - Attack options: basic; blunt (no wound: stun); defensive (attack −2, parry +2);
//!   power (defence tests −2, damage +3); precise (attack +2, damage −2); two-handed
//!   (defence tests −2, damage +4); sweep (2–3 targets at −4 / −6, in turn, stops at the
//!   first parry); charge (3+ yd run-up, attack +1, own defence tests −3, damage ×1.5
//!   rounded half up, a Strength test vs the charger's STR + 2 or the target falls; the
//!   target gets +1 to attack the charger); grab; a whip's Superior hit grapples.
//! - TN = the target's Defence (or this round's dodge, if higher); ranged: + the shield's
//!   bonus + 2 per range step beyond long; a blunt blow at the head +12. Declared dodge or
//!   parry costs nothing if the attack misses that TN. Dodge (Swiftness): a tie hits.
//!   Parry (weapon skill vs the attack's total, + shield, + 2 specialised): a tie is
//!   parried; missiles cannot be parried.
//! - Size once, on attacks: +2 per step the target is larger, −2 per step smaller; a rider
//!   counts as Large against smaller foes on foot; dodges take no size modifier unless
//!   `mounted_dodge_size` is on. Ranged from horseback −4; a mounted charge on foot +3.
//! - Extraordinary Success: maximum damage, or a weapon, armour or shield broken.

use super::coda::{Degree, Rolled, attribute_modifier, div_half_up, roll_plain, roll_test};
use serde::{Deserialize, Serialize};
use taku_dice::{Roller, Text};

const MAX_RETESTS: usize = 100;

/// The GM's options for combat (the digest's readings, with their defaults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// `stun_reduction` (default off): the stun penalty −1 / −3 / −5 on a Complete /
    /// Superior / Extraordinary Stamina success.
    pub stun_reduction: bool,
    /// `fear_tie`: `marginal` (default: the Willpower total is the TN, a tie is the
    /// attacker's Marginal Success) or `retest`.
    pub fear_tie_retest: bool,
    /// `mounted_dodge_size` (default off): a rider's dodge against smaller foes takes the
    /// size penalty.
    pub mounted_dodge_size: bool,
    /// `two_weapon_penalty` (EXAMPLE: the seed says only 「Ambidextrous Edgeを持たない場合は
    /// ペナルティがある」): the main hand's and the off hand's attack penalty without
    /// Ambidextrous.
    #[serde(default = "two_weapon_default")]
    pub two_weapon_penalty: (i64, i64),
}

fn two_weapon_default() -> (i64, i64) {
    TWO_WEAPON_EXAMPLE
}

/// LR-14 two weapons without Ambidextrous: EXAMPLE penalties (main hand, off hand).
pub const TWO_WEAPON_EXAMPLE: (i64, i64) = (-2, -4);

impl Default for Settings {
    fn default() -> Self {
        Settings {
            stun_reduction: false,
            fear_tie_retest: false,
            mounted_dodge_size: false,
            two_weapon_penalty: TWO_WEAPON_EXAMPLE,
        }
    }
}

impl Settings {
    /// Applies `KEY VALUE`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Text> {
        let bad = || super::settings::bad_value("LR-14: ", key, value);
        let onoff = |v: &str| match v {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(bad()),
        };
        match key {
            "stun_reduction" => self.stun_reduction = onoff(value)?,
            "mounted_dodge_size" => self.mounted_dodge_size = onoff(value)?,
            "two_weapon_penalty" => {
                let v: Vec<i64> = value
                    .split(',')
                    .filter_map(|x| x.trim().parse::<i64>().ok())
                    .filter(|x| (-100..=0).contains(x))
                    .collect();
                match v.as_slice() {
                    [a, b] if value.split(',').count() == 2 => self.two_weapon_penalty = (*a, *b),
                    _ => {
                        return Err(Text::new(
                            format!(
                                "LR-14: two_weapon_penalty は 主,逆 の二つの 0 以下の数です（例: -2,-4。「{value}」は不可）"
                            ),
                            format!(
                                "LR-14: two_weapon_penalty is two numbers of 0 or less, MAIN,OFF (e.g. -2,-4; not '{value}')"
                            ),
                        ));
                    }
                }
            }
            "fear_tie" => {
                self.fear_tie_retest = match value {
                    "marginal" => false,
                    "retest" => true,
                    _ => return Err(bad()),
                }
            }
            _ => {
                return Err(Text::new(
                    format!(
                        "設定「{key}」はありません: stun_reduction, fear_tie, mounted_dodge_size, two_weapon_penalty"
                    ),
                    format!(
                        "no setting '{key}': stun_reduction, fear_tie, mounted_dodge_size, two_weapon_penalty"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every setting with its value and default.
    pub fn describe(&self) -> Text {
        let o = |b: bool| if b { "on" } else { "off" };

        let (m, x) = self.two_weapon_penalty;
        Text::new(
            format!(
                "stun_reduction = {}（LR-14: off | on、既定 off）\nmounted_dodge_size = {}（LR-14: off | on、既定 off）\ntwo_weapon_penalty = {m},{x}（LR-14: 主,逆、Ambidextrous なしの二刀のペナルティ。既定 -2,-4 は例）",
                o(self.stun_reduction),
                o(self.mounted_dodge_size)
            ),
            format!(
                "stun_reduction = {} (LR-14: off | on, default off)\nmounted_dodge_size = {} (LR-14: off | on, default off)\ntwo_weapon_penalty = {m},{x} (LR-14: MAIN,OFF, two weapons without Ambidextrous; the default -2,-4 is an EXAMPLE)",
                o(self.stun_reduction),
                o(self.mounted_dodge_size)
            ),
        )
    }
}

/// LR-3 sizes, in steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Hobbits, Dwarves.
    Small,
    /// Elves, Men.
    Medium,
    /// One step above Medium.
    Large,
    /// Two steps above Medium.
    Mammoth,
}

impl Size {
    fn step(self) -> i64 {
        self as i64
    }
}

/// A mount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mount {
    /// Its STR score (may replace the rider's for charge damage and knock-down).
    pub strength: i64,
    /// War-Trained: an action of its own to attack a foe the rider names.
    pub war_trained: bool,
    /// Steady: 「戦闘中であっても,Ride 判定へのペナルティを受けない」.
    #[serde(default)]
    pub steady: bool,
    /// Mearas or Elven-steed: its own Ride test modifier (「乗り手の Ride 技能とどちらか
    /// 高いほうを用いることができる」).
    #[serde(default)]
    pub ride: Option<i64>,
}

/// Someone in the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fighter {
    /// Name.
    pub name: String,
    /// Swiftness reaction (initiative, dodge).
    pub swiftness: i64,
    /// Defence.
    pub defence: i64,
    /// Size.
    pub size: Size,
    /// STR score.
    pub strength: i64,
    /// Actions a round before extra ones (2; edges and orders add).
    pub actions: u32,
    /// The shield's parry/block bonus (0: none).
    #[serde(default)]
    pub shield: i64,
    /// Riding this.
    #[serde(default)]
    pub mount: Option<Mount>,
    /// Actions used this round.
    #[serde(default)]
    pub used: u32,
    /// This round's dodge total, replacing Defence while higher.
    #[serde(default)]
    pub dodge: Option<i64>,
    /// This round's modifier on its defence tests (power, two-handed −2, charge −3).
    #[serde(default)]
    pub defence_tests: i64,
    /// This round's parry bonus (defensive attack +2).
    #[serde(default)]
    pub parry_bonus: i64,
    /// Pending aim bonus on the next attack.
    #[serde(default)]
    pub aim: i64,
    /// Charged this round by these (+1 to attack them).
    #[serde(default)]
    pub charged_by: Vec<String>,
    /// Grabbed by.
    #[serde(default)]
    pub grabbed_by: Option<String>,
    /// Pinned by its grabber (+3 to the grabber's opposed STR tests).
    #[serde(default)]
    pub pinned: bool,
    /// Grappled (a whip) by.
    #[serde(default)]
    pub grappled_by: Option<String>,
    /// Down (fallen).
    #[serde(default)]
    pub down: bool,
    /// Beaten in a grapple round: no dodge or parry this round.
    #[serde(default)]
    pub defenceless: bool,
    /// Stun penalty and rounds left.
    #[serde(default)]
    pub stun: Option<(i64, i64)>,
    /// Fear penalty on all actions.
    #[serde(default)]
    pub fear: i64,
    /// Fear (Superior): loses its next turn.
    #[serde(default)]
    pub lose_turn: bool,
    /// Has no turn this round.
    #[serde(default)]
    pub no_turn: bool,
    /// Fear (Extraordinary): flees or cowers.
    #[serde(default)]
    pub cowed: bool,
    /// LR-14: who frightened it last (the Intimidate a new test after Inspire meets again).
    #[serde(default)]
    pub feared_by: Option<String>,
    /// LR-14: the round of its last new test after an Inspire (one a round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inspired_in: Option<u32>,
    /// LR-4, LR-5: a table character's wound and weariness penalty (≤ 0), set from its
    /// status by the table rules before each decision; 0 for anyone else.
    #[serde(default)]
    pub wounds: i64,
    /// Sprinted this round: a full-round action, nothing else until the next round.
    #[serde(default)]
    pub full_round: bool,
    /// Joined as the GM's own (no table character had its name then): only a GM acts for
    /// it, even if a member later makes a character of that name.
    #[serde(default)]
    pub gms: bool,
    /// LR-3, LR-14: which of `def` and `str` a table character's record gave at joining
    /// (the GM typed none): the table rules read them from the record again before each
    /// decision, so Defence follows NIM and the damage modifier STR as the record changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from_record: Vec<String>,
    /// LR-5: a table character Exhausted and unconscious now (set from its status by the
    /// table rules before each decision, never stored): no initiative, no turn.
    #[serde(skip)]
    pub unconscious: bool,
    /// LR-4: a table character dead now (set from its status by the table rules before
    /// each decision, never stored): no initiative, no turn, no target.
    #[serde(skip)]
    pub dead: bool,
}

impl Fighter {
    /// A Medium fighter with 2 actions and nothing else.
    pub fn new(name: &str, swiftness: i64, defence: i64, strength: i64) -> Fighter {
        Fighter {
            name: name.into(),
            swiftness,
            defence,
            size: Size::Medium,
            strength,
            actions: 2,
            shield: 0,
            mount: None,
            used: 0,
            dodge: None,
            defence_tests: 0,
            parry_bonus: 0,
            aim: 0,
            charged_by: Vec::new(),
            grabbed_by: None,
            pinned: false,
            grappled_by: None,
            down: false,
            defenceless: false,
            stun: None,
            fear: 0,
            lose_turn: false,
            no_turn: false,
            cowed: false,
            feared_by: None,
            inspired_in: None,
            wounds: 0,
            full_round: false,
            gms: false,
            from_record: Vec::new(),
            unconscious: false,
            dead: false,
        }
    }

    /// Actions a round: its own, +1 on a War-Trained horse.
    pub fn allowance(&self) -> u32 {
        self.actions + u32::from(self.mount.is_some_and(|m| m.war_trained))
    }

    /// LR-14: the penalty of an action costing `cost` now: −5 per action past the
    /// allowance, cumulative.
    pub fn extra_penalty(&self, cost: u32) -> i64 {
        let after = self.used + cost;
        -5 * i64::from(after.saturating_sub(self.allowance()))
    }

    /// Penalties on every test: stun, fear, +5 on its TNs while grabbed, and a table
    /// character's wounds and weariness (LR-4, LR-5).
    pub fn condition_penalty(&self) -> i64 {
        -self.stun.map_or(0, |s| s.0) - self.fear - if self.grabbed_by.is_some() { 5 } else { 0 }
            + self.wounds
    }

    /// Defence now: its own, or this round's dodge if higher.
    pub fn current_defence(&self) -> i64 {
        self.dodge.map_or(self.defence, |d| d.max(self.defence))
    }

    fn strength_mod(&self) -> i64 {
        attribute_modifier(self.strength)
    }
}

/// A combat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Combat {
    /// Options.
    pub settings: Settings,
    /// Round, from 1 (0 before the first initiative).
    pub round: u32,
    /// Everyone, in joining order.
    pub fighters: Vec<Fighter>,
    /// Initiative order.
    pub order: Vec<String>,
}

impl Combat {
    /// A fighter by name.
    pub fn get(&self, name: &str) -> Option<&Fighter> {
        self.fighters.iter().find(|f| f.name == name)
    }
    fn get_mut(&mut self, name: &str) -> Option<&mut Fighter> {
        self.fighters.iter_mut().find(|f| f.name == name)
    }
}

/// Actions that are not attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum Act {
    /// Cost 0: change target, drop, shout, notice.
    Free,
    /// Cost 1: next attack +1 (direct) or +3 (indirect).
    Aim {
        /// Indirect fire.
        indirect: bool,
    },
    /// Cost 1: walk 3–6 yd or jog 7–9 yd.
    Move,
    /// Cost 1: anything else needing no test.
    Other,
    /// Cost 2: up to 27 yd, Run test TN 5 (10 in melee).
    Run {
        /// In melee.
        in_melee: bool,
    },
    /// Full round: up to 40 yd, Run test TN 10 (15 in melee).
    Sprint {
        /// In melee.
        in_melee: bool,
    },
}

/// LR-3 encumbrance: 「荷重: STRx10 までは普通に運搬可能.x20まで重荷,x30まで超重荷」 and
/// LR-14 movement 「重荷の場合は移動距離を 3/4,超重荷の場合は 1/2 にする」.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Load {
    /// Up to STR × 10: full distance.
    #[default]
    Normal,
    /// Up to STR × 20: distance × 3/4.
    Encumbered,
    /// Up to STR × 30: distance × 1/2.
    Heavy,
}

impl Load {
    fn is_normal(&self) -> bool {
        *self == Load::Normal
    }

    /// The load `weight` is for a STR score `strength`; `None` past STR × 30.
    pub fn of(weight: i64, strength: i64) -> Option<Load> {
        let s = strength.max(1);
        match weight {
            w if w <= s * 10 => Some(Load::Normal),
            w if w <= s * 20 => Some(Load::Encumbered),
            w if w <= s * 30 => Some(Load::Heavy),
            _ => None,
        }
    }

    /// `yards` as far as this load lets one go, rounded half up (LR-0).
    pub fn yards(self, yards: i64) -> i64 {
        match self {
            Load::Normal => yards,
            Load::Encumbered => div_half_up(yards * 3, 4),
            Load::Heavy => div_half_up(yards, 2),
        }
    }
}

/// LR-14 movement, in yards at most: on foot Walk/Jog 9, Run 27, Sprint 40 (× the load);
/// mounted (Table 9.22) Walk 12 / Canter 24, Run 72, Gallop 160. `None`: not a movement.
pub fn move_yards(act: Act, mounted: bool, load: Load) -> Option<i64> {
    let (foot, horse) = match act {
        Act::Move => (9, 24),
        Act::Run { .. } => (27, 72),
        Act::Sprint { .. } => (40, 160),
        _ => return None,
    };
    Some(if mounted { horse } else { load.yards(foot) })
}

impl Act {
    fn cost(self) -> u32 {
        match self {
            Act::Free => 0,
            Act::Aim { .. } | Act::Move | Act::Other => 1,
            Act::Run { .. } => 2,
            Act::Sprint { .. } => 0,
        }
    }
    /// The TN of its own test, if it has one.
    fn tn(self) -> Option<i64> {
        match self {
            Act::Run { in_melee } => Some(if in_melee { 10 } else { 5 }),
            Act::Sprint { in_melee } => Some(if in_melee { 15 } else { 10 }),
            _ => None,
        }
    }
}

/// LR-14 attack options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "option", rename_all = "snake_case")]
pub enum AttackOption {
    /// Basic.
    Basic,
    /// Blunt: no wound; aimed at the head (TN +12) it stuns.
    Blunt {
        /// At the head.
        head: bool,
    },
    /// Attack −2, parry +2.
    Defensive,
    /// Defence tests −2, damage +3.
    Power,
    /// Attack +2, damage −2.
    Precise,
    /// A one-handed weapon in both hands: defence tests −2, damage +4, no shield.
    TwoHanded,
    /// 2 actions: 2–3 targets at −4 / −6.
    Sweep,
    /// 2 actions, a run-up of 3+ yards.
    Charge {
        /// Run-up in yards.
        run_up: u32,
        /// Use the horse's STR for damage and knock-down.
        horse_strength: bool,
    },
    /// Unarmed: grab the target.
    Grab,
    /// A whip: a Superior hit or better grapples.
    Whip,
    /// LR-14 「両手に武器を持つ: 1アクションで,利き腕と逆腕の両方で1回ずつ攻撃できる.
    /// Ambidextrous Edgeを持たない場合はペナルティがある」: one action, one attack with each
    /// hand (the second at the second target, or the same one).
    TwoWeapons {
        /// The off hand's weapon.
        off: Weapon,
        /// The off hand's attack modifier (skill + attribute mod + other).
        off_modifier: i64,
        /// Ambidextrous: no penalty.
        ambidextrous: bool,
    },
}

impl AttackOption {
    fn cost(self) -> u32 {
        match self {
            AttackOption::Sweep | AttackOption::Charge { .. } => 2,
            _ => 1,
        }
    }
    fn attack_mod(self) -> i64 {
        match self {
            AttackOption::Defensive => -2,
            AttackOption::Precise => 2,
            AttackOption::Charge { .. } => 1,
            _ => 0,
        }
    }
    fn damage_mod(self) -> i64 {
        match self {
            AttackOption::Power => 3,
            AttackOption::Precise => -2,
            AttackOption::TwoHanded => 4,
            _ => 0,
        }
    }
    fn deals_damage(self) -> bool {
        !matches!(
            self,
            AttackOption::Blunt { .. } | AttackOption::Grab | AttackOption::Whip
        )
    }
}

/// A weapon's damage: `dice`d6 + `bonus`, never exploding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    /// d6 count.
    pub dice: u32,
    /// Added.
    pub bonus: i64,
    /// How it is used.
    pub kind: WeaponKind,
}

/// How a weapon is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    /// Melee: STR mod added to damage.
    Melee,
    /// Thrown: STR mod added; ranged.
    Thrown,
    /// Bow: no STR mod; ranged.
    Bow,
}

impl Weapon {
    /// LR-14 punch or kick: 1d6 + 2 (+ STR mod).
    pub fn punch() -> Weapon {
        Weapon {
            dice: 1,
            bonus: 2,
            kind: WeaponKind::Melee,
        }
    }
    fn ranged(self) -> bool {
        !matches!(self.kind, WeaponKind::Melee)
    }
}

/// A defence declared before the attack roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "defence", rename_all = "snake_case")]
pub enum Defence {
    /// Dodge: a Swiftness test (+ `modifier`).
    Dodge {
        /// Other modifiers.
        modifier: i64,
    },
    /// Parry or block: the weapon skill's test modifier.
    Parry {
        /// Skill rank + attribute mod + other.
        modifier: i64,
        /// With a weapon it is specialised in: +2.
        specialised: bool,
    },
}

/// What an Extraordinary Success does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Extraordinary {
    /// Maximum damage.
    MaxDamage,
    /// Breaks the target's weapon, armour or shield.
    Break {
        /// What.
        item: String,
    },
}

/// One target of an attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Name.
    pub name: String,
    /// Declared defence.
    pub defence: Option<Defence>,
}

/// A combat command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Joins the fight.
    Join(Box<Fighter>),
    /// Leaves it.
    Leave(String),
    /// Initiative for everyone: Swiftness tests.
    Initiative,
    /// The next round: actions, dodges and options reset.
    NextRound,
    /// A non-attack action.
    Act {
        /// Who.
        who: String,
        /// What.
        act: Act,
        /// Its test's modifier (Run skill and so on).
        modifier: i64,
        /// LR-3, LR-14: what it carries (a movement's distance).
        load: Load,
    },
    /// An attack.
    Attack {
        /// Attacker.
        attacker: String,
        /// Targets (2–3 for a sweep, else 1), with declared defences.
        targets: Vec<Target>,
        /// Option.
        option: AttackOption,
        /// Weapon.
        weapon: Weapon,
        /// Attack test modifier (skill + attribute mod + other).
        modifier: i64,
        /// Ranged: steps beyond long range.
        range_steps: u32,
        /// Indirect fire.
        indirect: bool,
        /// On an Extraordinary Success.
        extraordinary: Extraordinary,
    },
    /// The grabber's action on the grabbed.
    Squeeze {
        /// Grabber.
        who: String,
        /// `pin`, `slam` or damage.
        how: GrabAct,
    },
    /// The grabbed tries to break free: opposed Strength (1 action).
    BreakFree {
        /// Who.
        who: String,
        /// Its Strength test modifier.
        modifier: i64,
        /// The grabber's.
        grabber_modifier: i64,
    },
    /// A round of a whip's grapple: opposed Strength, attacker +4.
    Grapple {
        /// Attacker.
        attacker: String,
        /// Its modifier.
        modifier: i64,
        /// The target's.
        target_modifier: i64,
        /// What a win does.
        down: bool,
    },
    /// Trip: Nimbleness vs Nimbleness or Swiftness (defender's choice), 1 action.
    Trip {
        /// Attacker.
        attacker: String,
        /// Target.
        target: String,
        /// Attacker's Nimbleness test modifier.
        modifier: i64,
        /// Target's chosen modifier.
        target_modifier: i64,
    },
    /// LR-14 a Ride test the GM calls in combat: the rider's Ride or a Mearas' own, the
    /// higher; −1..−4 in combat unless the horse is Steady.
    Ride {
        /// The rider.
        who: String,
        /// The rider's Ride test modifier.
        ride: i64,
        /// TN.
        tn: i64,
        /// The combat penalty (0–4).
        penalty: i64,
    },
    /// A stun: Stamina test against the stun table's TN (Table 9.17, GM).
    Stun {
        /// Who.
        who: String,
        /// Stamina modifier.
        modifier: i64,
        /// TN.
        tn: i64,
        /// The table's penalty.
        penalty: i64,
        /// The table's duration, in rounds.
        rounds: i64,
    },
    /// Fear: Intimidate against Willpower (LR-11).
    Fear {
        /// Attacker.
        attacker: String,
        /// Target.
        target: String,
        /// Intimidate modifier.
        modifier: i64,
        /// Willpower modifier (Table 9.20 included).
        willpower: i64,
    },
    /// LR-14 「恐怖の影響を受けてない人間からの Inspire などによっても 再度判定を試みることができる」:
    /// someone unafraid inspires a frightened fighter, who tests Willpower again against
    /// the Intimidate of whoever frightened it; the new degree replaces the old fear.
    Inspire {
        /// The inspirer (in the combat, able to act, not afraid itself).
        inspirer: String,
        /// The frightened fighter.
        target: String,
        /// The frightener's Intimidate modifier.
        modifier: i64,
        /// The target's Willpower modifier (Table 9.20 included).
        willpower: i64,
    },
    /// Fear lifted (a new test after Inspire, say).
    Calm(String),
    /// Stands up.
    Stand(String),
    /// Delays its action (LR-14 「行動を「遅らせる」宣言」): later in the order, right after
    /// `after` or at the end.
    Delay {
        /// Who.
        who: String,
        /// Right after this fighter.
        after: Option<String>,
    },
    /// An option.
    Set {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
}

/// The grabber's actions (LR-14 grab).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrabAct {
    /// 1d6 + STR mod damage.
    Damage,
    /// +3 on opposed STR tests.
    Pin,
    /// Into a wall or the ground: 1d6.
    Slam,
}

/// The defence as rolled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefenceRoll {
    /// Declared.
    pub defence: Defence,
    /// The test.
    pub test: Rolled,
    /// Its extra-action penalty (included).
    pub penalty: i64,
}

/// One target's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strike {
    /// Target.
    pub target: String,
    /// The attack test.
    pub attack: Rolled,
    /// TN before the defence.
    pub tn: i64,
    /// The defence, if it was rolled (the attack reached the TN).
    pub defence: Option<DefenceRoll>,
    /// Hit.
    pub hit: bool,
    /// Parried.
    pub parried: bool,
    /// Degree of the hit (against the final TN).
    pub degree: Option<Degree>,
    /// Damage dice and total.
    pub damage: Option<(Vec<i64>, i64)>,
    /// Extraordinary effect used.
    pub extraordinary: Option<Extraordinary>,
    /// Charge knock-down: Strength test, TN, fell.
    pub knockdown: Option<(Rolled, i64, bool)>,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Joined.
    Joined {
        /// Who.
        fighter: Box<Fighter>,
    },
    /// Left.
    Left {
        /// Who.
        name: String,
    },
    /// Initiative rolled.
    Initiative {
        /// Each fighter's tests (re-tests after a tie).
        rolls: Vec<(String, Vec<Rolled>)>,
        /// The order.
        order: Vec<String>,
        /// LR-5: fighters left out as unconscious.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skipped: Vec<String>,
        /// LR-4: fighters left out as dead.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dead: Vec<String>,
    },
    /// A new round.
    Round {
        /// Its number.
        round: u32,
    },
    /// A non-attack action.
    Acted {
        /// Who.
        who: String,
        /// What.
        act: Act,
        /// Actions spent.
        cost: u32,
        /// Extra-action penalty.
        penalty: i64,
        /// Its test, TN and success.
        test: Option<(Rolled, i64, bool)>,
        /// LR-3, LR-14: the load it moved under (normal when absent).
        #[serde(default, skip_serializing_if = "Load::is_normal")]
        load: Load,
        /// LR-14: it moved on horseback (Table 9.22's speeds).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        mounted: bool,
    },
    /// An attack.
    Attacked {
        /// Attacker.
        attacker: String,
        /// Option.
        option: AttackOption,
        /// Actions spent.
        cost: u32,
        /// Extra-action penalty.
        penalty: i64,
        /// Each target in turn.
        strikes: Vec<Strike>,
    },
    /// A grabber's action.
    Squeezed {
        /// Grabber.
        who: String,
        /// Grabbed.
        target: String,
        /// What.
        how: GrabAct,
        /// Damage dice and total.
        damage: Option<(Vec<i64>, i64)>,
        /// Extra-action penalty.
        penalty: i64,
        /// LR-14: as an extra action needing no test, its test at TN 5 (failed: nothing
        /// happens).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        test: Option<(Rolled, i64, bool)>,
    },
    /// An opposed Strength or Nimbleness contest (break free, grapple, trip).
    Contest {
        /// Which.
        what: ContestKind,
        /// Active side.
        who: String,
        /// The other.
        against: String,
        /// Each round of tests (re-tests after a tie).
        tests: Vec<(Rolled, Rolled)>,
        /// The active side won.
        won: bool,
        /// Actions spent by the active side.
        cost: u32,
    },
    /// A stun test.
    Stunned {
        /// Who.
        who: String,
        /// The test.
        test: Rolled,
        /// TN.
        tn: i64,
        /// Degree.
        degree: Degree,
        /// Penalty and rounds taken (None: unaffected).
        effect: Option<(i64, i64)>,
    },
    /// A Ride test (LR-14).
    Rode {
        /// The rider.
        who: String,
        /// The test.
        test: Rolled,
        /// TN.
        tn: i64,
        /// The horse's Ride was the higher (Mearas, Elven-steed).
        horse: bool,
        /// The combat penalty taken (0 on a Steady horse).
        penalty: i64,
        /// The combat penalty a Steady horse spared.
        spared: i64,
    },
    /// A fear test.
    Feared {
        /// Attacker.
        attacker: String,
        /// Target.
        target: String,
        /// Intimidate tests.
        tests: Vec<(Rolled, Rolled)>,
        /// Degree of the Intimidate.
        degree: Degree,
        /// LR-14: a new test after this fighter's Inspire; its degree replaces the fear.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        inspired_by: Option<String>,
    },
    /// Fear lifted.
    Calmed {
        /// Who.
        who: String,
    },
    /// Stood up.
    Stood {
        /// Who.
        who: String,
    },
    /// Delayed its action: the initiative order now.
    Delayed {
        /// Who.
        who: String,
        /// The order after the delay.
        order: Vec<String>,
    },
    /// An option.
    Setting {
        /// Key.
        key: String,
        /// Value.
        value: String,
    },
}

/// Which contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContestKind {
    /// Breaking free of a grab.
    BreakFree,
    /// A grapple round.
    Grapple {
        /// A win throws the target down (else leaves it defenceless).
        down: bool,
    },
    /// A trip.
    Trip,
}

fn refuse(rule: &str, ja: impl AsRef<str>, en: impl AsRef<str>) -> Text {
    Text::new(
        format!("{rule}: {}", ja.as_ref()),
        format!("{rule}: {}", en.as_ref()),
    )
}

/// LR-14: 「Splint: 40ヤードまで full-round アクション」 — after a sprint the fighter does
/// nothing else that round.
fn full_round_taken(f: &Fighter) -> Result<(), Text> {
    if f.full_round {
        return Err(refuse(
            "LR-14",
            format!(
                "{} はこのラウンド全力移動（全ラウンド行動）をしました",
                f.name
            ),
            format!("{} sprinted this round (a full-round action)", f.name),
        ));
    }
    Ok(())
}

fn fighter<'a>(c: &'a Combat, name: &str) -> Result<&'a Fighter, Text> {
    c.get(name).ok_or_else(|| {
        refuse(
            "LR-14",
            format!("「{name}」は戦闘に参加していません"),
            format!("'{name}' is not in the combat"),
        )
    })
}

fn may_act(f: &Fighter) -> Result<(), Text> {
    if f.no_turn {
        return Err(refuse(
            "LR-14",
            format!("{} は恐怖（Superior）でこのターン行動できません", f.name),
            format!("{} loses this turn to fear (Superior)", f.name),
        ));
    }
    if f.cowed {
        return Err(refuse(
            "LR-14",
            format!("{} は恐怖（Extraordinary）で逃げ出すか伏せています", f.name),
            format!("{} flees or cowers from fear (Extraordinary)", f.name),
        ));
    }
    Ok(())
}

fn bounded(v: i64, what: (&str, &str)) -> Result<(), Text> {
    if (-100..=100).contains(&v) {
        Ok(())
    } else {
        Err(refuse(
            "LR-14",
            format!("{}は −100〜100 です（{v} は不可）", what.0),
            format!("{} is −100 to 100 (not {v})", what.1),
        ))
    }
}

/// LR-11: an opposed test; the higher total wins, a tie is re-tested. `Ok((tests, won))`.
fn opposed(dice: &mut Roller<'_>, a: i64, b: i64) -> Result<(Vec<(Rolled, Rolled)>, bool), Text> {
    let mut tests = Vec::new();
    for _ in 0..MAX_RETESTS {
        let x = roll_test(dice, a)?;
        let y = roll_test(dice, b)?;
        let (xt, yt) = (x.total, y.total);
        tests.push((x, y));
        if xt != yt {
            return Ok((tests, xt > yt));
        }
    }
    Ok((tests, false))
}

/// Size modifier on `attacker`'s attack on `target` (LR-9, LR-14): 2 per step.
pub fn size_modifier(attacker: &Fighter, target: &Fighter) -> i64 {
    let mut a = attacker.size;
    if attacker.mount.is_some() && target.mount.is_none() && target.size < Size::Large {
        a = a.max(Size::Large);
    }
    2 * (target.size.step() - a.step())
}

/// Decides a command: validates, draws dice, returns events; a refusal draws nothing.
pub fn decide(c: &Combat, cmd: &Command, dice: &mut Roller<'_>) -> Result<Vec<Event>, Text> {
    match cmd {
        Command::Join(f) => {
            if c.get(&f.name).is_some() {
                return Err(refuse(
                    "LR-14",
                    format!("{} はすでに参加しています", f.name),
                    format!("{} is in already", f.name),
                ));
            }
            if f.name.trim().is_empty()
                || !(1..=10).contains(&f.actions)
                || !(0..=100).contains(&f.defence)
                || !(1..=100).contains(&f.strength)
            {
                return Err(refuse(
                    "LR-14",
                    "名前・アクション数（1〜10）・Defence（0〜100）・STR（1〜100）を確かめてください",
                    "check the name, actions (1–10), Defence (0–100) and STR (1–100)",
                ));
            }
            bounded(f.swiftness, ("Swiftness", "Swiftness"))?;
            bounded(f.shield, ("盾", "the shield"))?;
            let mut fresh = Fighter::new(&f.name, f.swiftness, f.defence, f.strength);
            fresh.size = f.size;
            fresh.actions = f.actions;
            fresh.shield = f.shield;
            fresh.mount = f.mount;
            fresh.gms = f.gms;
            fresh.from_record = f.from_record.clone();
            Ok(vec![Event::Joined {
                fighter: Box::new(fresh),
            }])
        }
        Command::Leave(name) => {
            fighter(c, name)?;
            Ok(vec![Event::Left { name: name.clone() }])
        }
        Command::Initiative => {
            if c.fighters.is_empty() {
                return Err(refuse(
                    "LR-14",
                    "参加者がいません",
                    "nobody is in the combat",
                ));
            }
            // LR-4: the dead take no turn; LR-5: nor do the unconscious: no Swiftness
            // test, not in the order.
            let dead: Vec<String> = c
                .fighters
                .iter()
                .filter(|f| f.dead)
                .map(|f| f.name.clone())
                .collect();
            let skipped: Vec<String> = c
                .fighters
                .iter()
                .filter(|f| f.unconscious && !f.dead)
                .map(|f| f.name.clone())
                .collect();
            if skipped.len() + dead.len() == c.fighters.len() {
                return Err(refuse(
                    "LR-14, LR-4, LR-5",
                    "参加者は全員死亡か意識不明です",
                    "everyone in the combat is dead or unconscious",
                ));
            }
            let mut rolls: Vec<(String, Vec<Rolled>)> = Vec::new();
            for f in c.fighters.iter().filter(|f| !f.unconscious && !f.dead) {
                let t = roll_test(dice, f.swiftness + f.condition_penalty())?;
                rolls.push((f.name.clone(), vec![t]));
            }
            // Re-test tied totals among themselves, a level at a time (LR-11).
            let mut keys: Vec<Vec<i64>> = rolls.iter().map(|(_, v)| vec![v[0].total]).collect();
            for _ in 0..MAX_RETESTS {
                let mut tied: Vec<usize> = Vec::new();
                for i in 0..keys.len() {
                    if keys
                        .iter()
                        .enumerate()
                        .any(|(j, k)| j != i && *k == keys[i])
                    {
                        tied.push(i);
                    }
                }
                if tied.is_empty() {
                    break;
                }
                for i in tied {
                    let name = &rolls[i].0;
                    let f = c
                        .get(name)
                        .map_or(0, |f| f.swiftness + f.condition_penalty());
                    let t = roll_test(dice, f)?;
                    keys[i].push(t.total);
                    rolls[i].1.push(t);
                }
            }
            let mut idx: Vec<usize> = (0..rolls.len()).collect();
            idx.sort_by(|a, b| keys[*b].cmp(&keys[*a]));
            let order = idx.iter().map(|i| rolls[*i].0.clone()).collect();
            Ok(vec![Event::Initiative {
                rolls,
                order,
                skipped,
                dead,
            }])
        }
        Command::NextRound => Ok(vec![Event::Round { round: c.round + 1 }]),
        Command::Act {
            who,
            act,
            modifier,
            load,
        } => {
            let f = fighter(c, who)?;
            may_act(f)?;
            full_round_taken(f)?;
            bounded(*modifier, ("修正", "the modifier"))?;
            // LR-14 grab: the grabbed is held until it breaks free (a STR test, 1 action).
            if let (Some(by), Act::Move | Act::Run { .. } | Act::Sprint { .. }) =
                (&f.grabbed_by, act)
            {
                return Err(refuse(
                    "LR-14",
                    format!(
                        "{who} は {by} につかまれていて動けません。まず振りほどいてください（/lotr combat escape {who} 修正 {by}の修正）"
                    ),
                    format!(
                        "{who} is held by {by} and cannot move; break free first (/lotr combat escape {who} MOD {by}'s MOD)"
                    ),
                ));
            }
            let (cost, penalty) = match act {
                Act::Sprint { .. } => {
                    if f.used > 0 {
                        return Err(refuse(
                            "LR-14",
                            "全力移動（Sprint）はラウンドの全アクションを使います。このラウンドはすでに行動しています",
                            "a sprint takes the full round; this fighter has acted this round",
                        ));
                    }
                    (f.allowance(), 0)
                }
                // LR-14: 「アクションコスト0の行動」 cost nothing: never an extra action.
                Act::Free => (0, 0),
                a => (a.cost(), f.extra_penalty(a.cost())),
            };
            let base = modifier + penalty + f.condition_penalty();
            let test = match act.tn() {
                Some(tn) => {
                    let t = roll_test(dice, base)?;
                    let ok = t.total >= tn;
                    Some((t, tn, ok))
                }
                // LR-14: an extra action needing no test is tested at TN 5.
                None if penalty < 0 => {
                    let t = roll_test(dice, base)?;
                    let ok = t.total >= 5;
                    Some((t, 5, ok))
                }
                None => None,
            };
            let mounted = f.mount.is_some() && move_yards(*act, true, *load).is_some();
            // LR-14: the load slows one's own feet; a rider goes at the horse's pace.
            if !load.is_normal() && (mounted || move_yards(*act, false, *load).is_none()) {
                return Err(refuse(
                    "LR-14",
                    "荷重（encumbered / heavy / load=）は徒歩の移動（move / run / sprint）だけに効きます",
                    "a load (encumbered / heavy / load=) slows only movement on foot (move / run / sprint)",
                ));
            }
            Ok(vec![Event::Acted {
                who: who.clone(),
                act: *act,
                cost,
                penalty,
                test,
                load: *load,
                mounted,
            }])
        }
        Command::Attack {
            attacker,
            targets,
            option,
            weapon,
            modifier,
            range_steps,
            indirect,
            extraordinary,
        } => attack(
            c,
            attacker,
            targets,
            *option,
            *weapon,
            *modifier,
            *range_steps,
            *indirect,
            extraordinary,
            dice,
        ),
        Command::Squeeze { who, how } => {
            let f = fighter(c, who)?;
            may_act(f)?;
            let Some(target) = c
                .fighters
                .iter()
                .find(|t| t.grabbed_by.as_deref() == Some(who.as_str()))
            else {
                return Err(refuse(
                    "LR-14",
                    format!("{who} は誰もつかんでいません"),
                    format!("{who} has grabbed nobody"),
                ));
            };
            let penalty = f.extra_penalty(1);
            // LR-14: past its actions a grabber's action is an extra action needing no
            // test: tested at TN 5 with the −5 per extra action (and its conditions).
            let test = if penalty < 0 {
                let t = roll_test(dice, penalty + f.condition_penalty())?;
                let ok = t.total >= 5;
                Some((t, 5, ok))
            } else {
                None
            };
            let failed = test.as_ref().is_some_and(|t| !t.2);
            let damage = match how {
                _ if failed => None,
                GrabAct::Pin => None,
                GrabAct::Damage => {
                    let d = roll_plain(dice, 1)?;
                    let t = (d[0] + f.strength_mod()).max(0);
                    Some((d, t))
                }
                GrabAct::Slam => {
                    let d = roll_plain(dice, 1)?;
                    let t = d[0];
                    Some((d, t))
                }
            };
            Ok(vec![Event::Squeezed {
                who: who.clone(),
                target: target.name.clone(),
                how: *how,
                damage,
                penalty,
                test,
            }])
        }
        Command::BreakFree {
            who,
            modifier,
            grabber_modifier,
        } => {
            let f = fighter(c, who)?;
            may_act(f)?;
            bounded(*modifier, ("修正", "the modifier"))?;
            bounded(*grabber_modifier, ("修正", "the modifier"))?;
            let Some(grabber) = f.grabbed_by.clone() else {
                return Err(refuse(
                    "LR-14",
                    format!("{who} はつかまれていません"),
                    format!("{who} is not grabbed"),
                ));
            };
            let g = c.get(&grabber);
            let pin = if f.pinned { 3 } else { 0 };
            let (tests, won) = opposed(
                dice,
                modifier + f.extra_penalty(1) + f.condition_penalty(),
                grabber_modifier + pin + g.map_or(0, Fighter::condition_penalty),
            )?;
            Ok(vec![Event::Contest {
                what: ContestKind::BreakFree,
                who: who.clone(),
                against: grabber,
                tests,
                won,
                cost: 1,
            }])
        }
        Command::Grapple {
            attacker,
            modifier,
            target_modifier,
            down,
        } => {
            let f = fighter(c, attacker)?;
            may_act(f)?;
            bounded(*modifier, ("修正", "the modifier"))?;
            bounded(*target_modifier, ("修正", "the modifier"))?;
            let Some(t) = c
                .fighters
                .iter()
                .find(|t| t.grappled_by.as_deref() == Some(attacker.as_str()))
            else {
                return Err(refuse(
                    "LR-14",
                    format!(
                        "{attacker} は誰も絡め取っていません（鞭の Superior 以上の命中が必要）"
                    ),
                    format!("{attacker} grapples nobody (a whip hit of Superior or better first)"),
                ));
            };
            let (tests, won) = opposed(
                dice,
                modifier + 4 + f.condition_penalty(),
                target_modifier + t.condition_penalty(),
            )?;
            Ok(vec![Event::Contest {
                what: ContestKind::Grapple { down: *down },
                who: attacker.clone(),
                against: t.name.clone(),
                tests,
                won,
                cost: 0,
            }])
        }
        Command::Trip {
            attacker,
            target,
            modifier,
            target_modifier,
        } => {
            let f = fighter(c, attacker)?;
            may_act(f)?;
            // LR-14: after a full-round action (a sprint) nothing else this round.
            full_round_taken(f)?;
            let t = fighter(c, target)?;
            if attacker == target {
                return Err(refuse("LR-14", "自分は狙えません", "cannot target oneself"));
            }
            bounded(*modifier, ("修正", "the modifier"))?;
            bounded(*target_modifier, ("修正", "the modifier"))?;
            let (tests, won) = opposed(
                dice,
                modifier + f.extra_penalty(1) + f.condition_penalty(),
                target_modifier + t.condition_penalty(),
            )?;
            Ok(vec![Event::Contest {
                what: ContestKind::Trip,
                who: attacker.clone(),
                against: target.clone(),
                tests,
                won,
                cost: 1,
            }])
        }
        Command::Ride {
            who,
            ride,
            tn,
            penalty,
        } => {
            let f = fighter(c, who)?;
            bounded(*ride, ("Ride の修正", "the Ride modifier"))?;
            let Some(m) = f.mount else {
                return Err(refuse(
                    "LR-14",
                    format!("{who} は騎乗していません（join の horse=）"),
                    format!("{who} is not mounted (join … horse=)"),
                ));
            };
            if !(0..=100).contains(tn) || !(0..=4).contains(penalty) {
                return Err(refuse(
                    "LR-14",
                    "Ride 判定の目標値は 0〜100、戦闘中のペナルティ pen= は 0〜4 です（シード: −1〜−4）",
                    "a Ride test's TN is 0–100 and its combat penalty pen= 0–4 (the seed's −1 to −4)",
                ));
            }
            let horse = m.ride.is_some_and(|h| h > *ride);
            let base = if horse {
                m.ride.unwrap_or(*ride)
            } else {
                *ride
            };
            let (taken, spared) = if m.steady {
                (0, *penalty)
            } else {
                (*penalty, 0)
            };
            let test = roll_test(dice, base - taken + f.condition_penalty())?;
            Ok(vec![Event::Rode {
                who: who.clone(),
                test,
                tn: *tn,
                horse,
                penalty: taken,
                spared,
            }])
        }
        Command::Stun {
            who,
            modifier,
            tn,
            penalty,
            rounds,
        } => {
            let f = fighter(c, who)?;
            bounded(*modifier, ("修正", "the modifier"))?;
            if !(0..=100).contains(tn)
                || !(0..=100).contains(penalty)
                || !(1..=1000).contains(rounds)
            {
                return Err(refuse(
                    "LR-14",
                    "スタンの目標値・ペナルティは 0〜100、ラウンドは 1〜1000 です",
                    "stun TN and penalty are 0–100, rounds 1–1000",
                ));
            }
            let test = roll_test(dice, modifier + f.condition_penalty())?;
            let degree = Degree::of(test.total - tn);
            let reduce = if c.settings.stun_reduction {
                match degree {
                    Degree::CompleteSuccess => 1,
                    Degree::SuperiorSuccess => 3,
                    Degree::ExtraordinarySuccess => 5,
                    _ => 0,
                }
            } else {
                0
            };
            let p = (penalty - reduce).max(0);
            let effect = match degree {
                Degree::ExtraordinarySuccess => None,
                Degree::SuperiorSuccess => Some((p, div_half_up(*rounds, 2))),
                _ => Some((p, *rounds)),
            };
            Ok(vec![Event::Stunned {
                who: who.clone(),
                test,
                tn: *tn,
                degree,
                effect,
            }])
        }
        Command::Fear {
            attacker,
            target,
            modifier,
            willpower,
        } => {
            let f = fighter(c, attacker)?;
            may_act(f)?;
            let t = fighter(c, target)?;
            if attacker == target {
                return Err(refuse("LR-14", "自分は狙えません", "cannot target oneself"));
            }
            // LR-14 「恐怖の影響を受けてない人間からの Inspire などによっても 再度判定を試みる
            // ことができる」: a fear already at work is tested again only on a new cause
            // (someone's Inspire), not by its frightener repeating itself.
            let afraid = t.fear > 0 || t.lose_turn || t.no_turn || t.cowed;
            if afraid && t.feared_by.as_deref() == Some(attacker.as_str()) {
                return Err(refuse(
                    "LR-14",
                    format!(
                        "{target} はすでに {attacker} の恐怖を受けています。同じ恐怖の再判定は、恐怖を受けていない人物の Inspire で（/lotr combat inspire 鼓舞する人 {target} 威圧の修正 意志力の修正）"
                    ),
                    format!(
                        "{target} is already afraid of {attacker}; the same fear is tested again only after an unafraid someone's Inspire (/lotr combat inspire INSPIRER {target} INTIMIDATE-MOD WILLPOWER-MOD)"
                    ),
                ));
            }
            bounded(*modifier, ("修正", "the modifier"))?;
            bounded(*willpower, ("修正", "the modifier"))?;
            let mut tests = Vec::new();
            let mut degree = Degree::Failure;
            for _ in 0..MAX_RETESTS {
                let a = roll_test(dice, modifier + f.condition_penalty())?;
                let w = roll_test(dice, willpower + t.condition_penalty())?;
                let margin = a.total - w.total;
                tests.push((a, w));
                degree = Degree::of(margin);
                if margin != 0 || !c.settings.fear_tie_retest {
                    break;
                }
            }
            Ok(vec![Event::Feared {
                attacker: attacker.clone(),
                target: target.clone(),
                tests,
                degree,
                inspired_by: None,
            }])
        }
        Command::Inspire {
            inspirer,
            target,
            modifier,
            willpower,
        } => {
            let i = fighter(c, inspirer)?;
            may_act(i)?;
            let t = fighter(c, target)?;
            if inspirer == target {
                return Err(refuse(
                    "LR-14",
                    "自分自身は鼓舞できません（恐怖の影響を受けていない別の人物が Inspire します）",
                    "cannot inspire oneself (someone else, unafraid, uses Inspire)",
                ));
            }
            if i.fear > 0 || i.lose_turn || i.no_turn || i.cowed {
                return Err(refuse(
                    "LR-14",
                    format!(
                        "{inspirer} 自身が恐怖の影響を受けています（「恐怖の影響を受けてない人間からの Inspire」）"
                    ),
                    format!(
                        "{inspirer} is afraid too (Inspire must come from someone unaffected by fear)"
                    ),
                ));
            }
            let afraid = t.fear > 0 || t.lose_turn || t.no_turn || t.cowed;
            let Some(attacker) = t.feared_by.clone().filter(|_| afraid) else {
                return Err(refuse(
                    "LR-14",
                    format!("{target} は恐怖の影響を受けていません"),
                    format!("{target} is not afraid"),
                ));
            };
            // LR-14: the Inspire gives one new test (「再度判定を試みる」), so one a round, not a
            // test repeated until it comes out well.
            if t.inspired_in == Some(c.round) {
                return Err(refuse(
                    "LR-14",
                    format!(
                        "{target} はこのラウンドすでに鼓舞（Inspire）で再判定しています（次のラウンドに）"
                    ),
                    format!(
                        "{target} already had its new test after an Inspire this round (next round)"
                    ),
                ));
            }
            // 「仲間からの激励」 (Table 9.20): the frightener is no companion of its victim.
            if *inspirer == attacker {
                return Err(refuse(
                    "LR-14",
                    format!(
                        "{inspirer} は {target} を怖がらせた側です。鼓舞（Inspire）は恐怖を受けていない仲間がします"
                    ),
                    format!(
                        "{inspirer} is who frightened {target}; the Inspire comes from an unafraid companion"
                    ),
                ));
            }
            bounded(*modifier, ("修正", "the modifier"))?;
            bounded(*willpower, ("修正", "the modifier"))?;
            // The frightener's conditions count if it is still in the combat.
            let a_pen = c.get(&attacker).map_or(0, Fighter::condition_penalty);
            // The target's own fear is what the new test may lift: its Willpower takes its
            // other conditions but not the fear it is shaking off.
            let t_pen = t.condition_penalty() + t.fear;
            let mut tests = Vec::new();
            let mut degree = Degree::Failure;
            for _ in 0..MAX_RETESTS {
                let a = roll_test(dice, modifier + a_pen)?;
                let w = roll_test(dice, willpower + t_pen)?;
                let margin = a.total - w.total;
                tests.push((a, w));
                degree = Degree::of(margin);
                if margin != 0 || !c.settings.fear_tie_retest {
                    break;
                }
            }
            Ok(vec![Event::Feared {
                attacker,
                target: target.clone(),
                tests,
                degree,
                inspired_by: Some(inspirer.clone()),
            }])
        }
        Command::Calm(who) => {
            fighter(c, who)?;
            Ok(vec![Event::Calmed { who: who.clone() }])
        }
        Command::Stand(who) => {
            let f = fighter(c, who)?;
            if !f.down {
                return Err(refuse(
                    "LR-14",
                    format!("{who} は倒れていません"),
                    format!("{who} is not down"),
                ));
            }
            Ok(vec![Event::Stood { who: who.clone() }])
        }
        Command::Delay { who, after } => {
            fighter(c, who)?;
            if !c.order.contains(who) {
                return Err(refuse(
                    "LR-14",
                    format!("{who} はまだイニシアチブ順にいません（/lotr combat init）"),
                    format!("{who} is not in the initiative order yet (/lotr combat init)"),
                ));
            }
            let mut order: Vec<String> = c.order.iter().filter(|n| *n != who).cloned().collect();
            match after {
                Some(a) if a == who || !order.contains(a) => {
                    return Err(refuse(
                        "LR-14",
                        format!("{a} の後には遅らせられません（順番にいる他の者の名前を）"),
                        format!("cannot delay after {a} (name another fighter in the order)"),
                    ));
                }
                Some(a) => {
                    let at = order
                        .iter()
                        .position(|n| n == a)
                        .map_or(order.len(), |i| i + 1);
                    order.insert(at, who.clone());
                }
                None => order.push(who.clone()),
            }
            Ok(vec![Event::Delayed {
                who: who.clone(),
                order,
            }])
        }
        Command::Set { key, value } => {
            let mut s = c.settings;
            s.set(key, value)?;
            Ok(vec![Event::Setting {
                key: key.clone(),
                value: value.clone(),
            }])
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn attack(
    c: &Combat,
    attacker: &str,
    targets: &[Target],
    option: AttackOption,
    weapon: Weapon,
    modifier: i64,
    range_steps: u32,
    indirect: bool,
    extraordinary: &Extraordinary,
    dice: &mut Roller<'_>,
) -> Result<Vec<Event>, Text> {
    let a = fighter(c, attacker)?;
    may_act(a)?;
    full_round_taken(a)?;
    bounded(modifier, ("修正", "the modifier"))?;
    if !(1..=20).contains(&weapon.dice) || !(-100..=100).contains(&weapon.bonus) || range_steps > 50
    {
        return Err(refuse(
            "LR-14",
            "武器のダメージは 1〜20 個の d6 と ±100、射程段階は 50 までです",
            "weapon damage is 1–20 d6 and ±100; range steps at most 50",
        ));
    }
    let want = match option {
        AttackOption::Sweep => 2..=3,
        AttackOption::TwoWeapons { .. } => 1..=2,
        _ => 1..=1,
    };
    if !want.contains(&targets.len()) {
        let n = targets.len();
        return Err(refuse(
            "LR-14",
            format!("対象が{n}人です。対象は一人（sweep は二〜三人）です"),
            format!("{n} targets: one target (two or three for a sweep)"),
        ));
    }
    let ranged = weapon.ranged();
    if ranged && !matches!(option, AttackOption::Basic | AttackOption::Precise) {
        return Err(refuse(
            "LR-14",
            "射撃で使える攻撃オプションは basic と precise だけです",
            "ranged attacks take only the basic or precise option",
        ));
    }
    if let AttackOption::Charge {
        run_up,
        horse_strength,
    } = option
    {
        if run_up < 3 {
            return Err(refuse(
                "LR-14",
                format!("突撃には3ヤード以上の助走が必要です（{run_up}ヤード）"),
                format!("a charge needs a run-up of 3 yards or more ({run_up})"),
            ));
        }
        if horse_strength && a.mount.is_none() {
            return Err(refuse(
                "LR-14",
                "馬のSTRを使うには騎乗が必要です",
                "only a rider can use its horse's STR",
            ));
        }
    }
    if option == AttackOption::TwoHanded && a.shield > 0 {
        return Err(refuse(
            "LR-14",
            "片手武器を両手で持つ（two-handed）と盾は使えません",
            "a two-handed grip leaves no hand for the shield",
        ));
    }
    if let AttackOption::TwoWeapons {
        off, off_modifier, ..
    } = option
    {
        bounded(off_modifier, ("逆手の修正", "the off hand's modifier"))?;
        if !(1..=20).contains(&off.dice) || !(-100..=100).contains(&off.bonus) {
            return Err(refuse(
                "LR-14",
                "逆手の武器のダメージは 1〜20 個の d6 と ±100 です",
                "the off hand's weapon damage is 1–20 d6 and ±100",
            ));
        }
    }
    let mut seen = Vec::new();
    for t in targets {
        let f = fighter(c, &t.name)?;
        if t.name == attacker || seen.contains(&t.name) {
            return Err(refuse(
                "LR-14",
                "対象が重複しているか自分です",
                "a target is named twice or is the attacker",
            ));
        }
        seen.push(t.name.clone());
        if ranged && matches!(t.defence, Some(Defence::Parry { .. })) {
            return Err(refuse(
                "LR-14",
                "飛び道具は Parry/Block できません（回避は可）",
                "missiles cannot be parried or blocked (dodge them)",
            ));
        }
        if let Some(d) = t.defence {
            let m = match d {
                Defence::Dodge { modifier } | Defence::Parry { modifier, .. } => modifier,
            };
            bounded(m, ("防御の修正", "the defence modifier"))?;
            if f.defenceless || f.cowed {
                return Err(refuse(
                    "LR-14",
                    format!("{} は防御できない状態です", f.name),
                    format!("{} cannot defend", f.name),
                ));
            }
        }
    }
    let cost = option.cost();
    let penalty = a.extra_penalty(cost);
    // LR-14 sweep: −4 for two targets, −6 for three; two weapons at two targets take only
    // their own penalty (「両手に武器を持つ: 1アクションで,利き腕と逆腕の両方で1回ずつ攻撃できる」).
    let sweep = match (option, targets.len()) {
        (AttackOption::Sweep, 2) => -4,
        (AttackOption::Sweep, 3) => -6,
        _ => 0,
    };
    // LR-14 「次の攻撃に,直接攻撃なら+1,間接攻撃なら+3」: the bonus is the attack's
    // kind, not the aim's word; only a missile flies indirectly.
    if indirect && !weapon.ranged() {
        return Err(refuse(
            "LR-14",
            "間接攻撃（indirect）は射撃・投擲だけです（bow / thrown）",
            "an indirect attack is a missile's (bow / thrown)",
        ));
    }
    let aim = match (a.aim > 0, indirect) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 3,
    };
    let mut strikes = Vec::new();
    // Each strike: its target, weapon and modifier. Two weapons strike twice, the main
    // hand first, each with its penalty unless Ambidextrous.
    let plan: Vec<(&Target, Weapon, i64)> = match option {
        AttackOption::TwoWeapons {
            off,
            off_modifier,
            ambidextrous,
        } => {
            let (pm, po) = if ambidextrous {
                (0, 0)
            } else {
                c.settings.two_weapon_penalty
            };
            vec![
                (&targets[0], weapon, modifier + pm),
                (
                    targets.last().unwrap_or(&targets[0]),
                    off,
                    off_modifier + po,
                ),
            ]
        }
        _ => targets.iter().map(|t| (t, weapon, modifier)).collect(),
    };
    // What this attack's earlier strikes did to a target: its dodge total and the defence
    // actions spent (a second strike at the same target meets them).
    let mut dodged: std::collections::BTreeMap<String, i64> = std::collections::BTreeMap::new();
    let mut spent: std::collections::BTreeMap<String, u32> = std::collections::BTreeMap::new();
    for (t, weapon, modifier) in plan {
        let mut target = fighter(c, &t.name)?.clone();
        target.used += spent.get(&t.name).copied().unwrap_or(0);
        if let Some(d) = dodged.get(&t.name) {
            target.dodge = Some(target.dodge.map_or(*d, |x| x.max(*d)));
        }
        let target = &target;
        let ranged = weapon.ranged();
        let mut mods =
            modifier + option.attack_mod() + aim + sweep + penalty + a.condition_penalty();
        mods += size_modifier(a, target);
        // LR-14: the target of a charge gets +1 to attack the charger.
        if a.charged_by.contains(&t.name) {
            mods += 1;
        }
        if target.grappled_by.is_some() {
            mods += 5;
        }
        if let (AttackOption::Charge { .. }, Some(_), None) = (option, a.mount, target.mount) {
            mods += 3; // LR-14: a mounted charge against foot, TN −3.
        }
        if ranged && a.mount.is_some() {
            mods -= 4;
        }
        let mut tn = target.current_defence();
        if ranged {
            tn += target.shield + 2 * i64::from(range_steps);
        }
        if matches!(option, AttackOption::Blunt { head: true }) {
            tn += 12;
        }
        let roll = roll_test(dice, mods)?;
        let mut strike = Strike {
            target: t.name.clone(),
            attack: roll.clone(),
            tn,
            defence: None,
            hit: false,
            parried: false,
            degree: None,
            damage: None,
            extraordinary: None,
            knockdown: None,
        };
        if roll.total < tn {
            // LR-14: the attack misses the Defence: a declared defence costs nothing.
            strikes.push(strike);
            continue;
        }
        let mut final_tn = tn;
        if let Some(d) = t.defence {
            let dpen = target.extra_penalty(1);
            let common = target.defence_tests + dpen + target.condition_penalty();
            match d {
                Defence::Dodge { modifier } => {
                    let mut m = target.swiftness + modifier + common;
                    if c.settings.mounted_dodge_size
                        && target.mount.is_some()
                        && a.size < Size::Large
                        && a.mount.is_none()
                    {
                        m -= 2 * (Size::Large.max(target.size).step() - a.size.step());
                    }
                    let test = roll_test(dice, m)?;
                    // The dodge total replaces Defence if higher; a tie hits.
                    let replaced = test.total.max(target.current_defence());
                    final_tn = tn - target.current_defence() + replaced;
                    dodged.insert(t.name.clone(), test.total);
                    *spent.entry(t.name.clone()).or_insert(0) += 1;
                    strike.defence = Some(DefenceRoll {
                        defence: d,
                        test,
                        penalty: dpen,
                    });
                }
                Defence::Parry {
                    modifier,
                    specialised,
                } => {
                    let m = modifier
                        + target.shield
                        + if specialised { 2 } else { 0 }
                        + target.parry_bonus
                        + common;
                    let test = roll_test(dice, m)?;
                    strike.parried = test.total >= roll.total;
                    *spent.entry(t.name.clone()).or_insert(0) += 1;
                    strike.defence = Some(DefenceRoll {
                        defence: d,
                        test,
                        penalty: dpen,
                    });
                }
            }
        }
        strike.hit = !strike.parried && roll.total >= final_tn;
        if strike.hit {
            let degree = Degree::of(roll.total - final_tn);
            strike.degree = Some(degree);
            let extra = degree == Degree::ExtraordinarySuccess;
            // LR-14: 「最大ダメージを与えたことにするか,武器や鎧,盾のどれかを壊す」 — the
            // maximum damage only of an attack that deals damage (a whip's or a grab's
            // Extraordinary can still break something).
            if extra
                && (option.deals_damage() || matches!(extraordinary, Extraordinary::Break { .. }))
            {
                strike.extraordinary = Some(extraordinary.clone());
            }
            let charge_str = match option {
                AttackOption::Charge {
                    horse_strength: true,
                    ..
                } => a.mount.map_or(a.strength, |m| m.strength),
                _ => a.strength,
            };
            if option.deals_damage() {
                let max = extra && *extraordinary == Extraordinary::MaxDamage;
                let faces = if max {
                    vec![6; weapon.dice as usize]
                } else {
                    roll_plain(dice, weapon.dice)?
                };
                let str_mod = if weapon.kind == WeaponKind::Bow {
                    0
                } else {
                    attribute_modifier(charge_str)
                };
                let mut total =
                    faces.iter().sum::<i64>() + weapon.bonus + str_mod + option.damage_mod();
                if matches!(option, AttackOption::Charge { .. }) {
                    total = div_half_up(total * 3, 2);
                }
                strike.damage = Some((faces, total.max(0)));
            }
            if matches!(option, AttackOption::Charge { .. }) {
                let ktn = charge_str + 2;
                let k = roll_test(dice, target.strength_mod() + target.condition_penalty())?;
                let fell = k.total < ktn;
                strike.knockdown = Some((k, ktn, fell));
            }
        }
        let stop = strike.parried && option == AttackOption::Sweep;
        strikes.push(strike);
        if stop {
            break; // LR-14: a sweep stops at the first parry.
        }
    }
    Ok(vec![Event::Attacked {
        attacker: attacker.to_string(),
        option,
        cost,
        penalty,
        strikes,
    }])
}

/// Folds one event; total (a missing fighter changes nothing).
pub fn fold(c: &mut Combat, event: &Event) {
    match event {
        Event::Joined { fighter } => {
            if c.get(&fighter.name).is_none() {
                c.fighters.push((**fighter).clone());
            }
        }
        Event::Left { name } => {
            c.fighters.retain(|f| &f.name != name);
            c.order.retain(|n| n != name);
            for f in &mut c.fighters {
                if f.grabbed_by.as_ref() == Some(name) {
                    f.grabbed_by = None;
                    f.pinned = false;
                }
                if f.grappled_by.as_ref() == Some(name) {
                    f.grappled_by = None;
                }
            }
        }
        Event::Initiative { order, .. } => {
            c.order = order.clone();
            c.round = c.round.max(1);
        }
        Event::Round { round } => {
            c.round = *round;
            for f in &mut c.fighters {
                f.used = 0;
                f.full_round = false;
                f.dodge = None;
                f.defence_tests = 0;
                f.parry_bonus = 0;
                f.charged_by.clear();
                f.defenceless = false;
                f.no_turn = std::mem::take(&mut f.lose_turn);
                if let Some((p, r)) = f.stun {
                    f.stun = if r > 1 { Some((p, r - 1)) } else { None };
                }
            }
        }
        Event::Acted { who, act, cost, .. } => {
            if let Some(f) = c.get_mut(who) {
                f.used += cost;
                if matches!(act, Act::Sprint { .. }) {
                    f.full_round = true;
                }
                if let Act::Aim { indirect } = act {
                    f.aim = if *indirect { 3 } else { 1 };
                }
            }
        }
        Event::Attacked {
            attacker,
            option,
            cost,
            strikes,
            ..
        } => {
            if let Some(a) = c.get_mut(attacker) {
                a.used += cost;
                a.aim = 0;
                match option {
                    AttackOption::Defensive => a.parry_bonus += 2,
                    AttackOption::Power | AttackOption::TwoHanded => a.defence_tests -= 2,
                    AttackOption::Charge { .. } => a.defence_tests -= 3,
                    _ => {}
                }
            }
            for s in strikes {
                let Some(t) = c.get_mut(&s.target) else {
                    continue;
                };
                if let Some(d) = &s.defence {
                    t.used += 1;
                    if matches!(d.defence, Defence::Dodge { .. })
                        && d.test.total > t.current_defence()
                    {
                        t.dodge = Some(d.test.total);
                    }
                }
                if matches!(option, AttackOption::Charge { .. }) {
                    t.charged_by.push(attacker.clone());
                }
                if s.hit {
                    match option {
                        AttackOption::Grab => t.grabbed_by = Some(attacker.clone()),
                        AttackOption::Whip if s.degree >= Some(Degree::SuperiorSuccess) => {
                            t.grappled_by = Some(attacker.clone())
                        }
                        _ => {}
                    }
                }
                if s.knockdown.as_ref().is_some_and(|k| k.2) {
                    t.down = true;
                }
            }
        }
        Event::Squeezed {
            who,
            target,
            how,
            test,
            ..
        } => {
            if let Some(f) = c.get_mut(who) {
                f.used += 1;
            }
            if *how == GrabAct::Pin
                && test.as_ref().is_none_or(|t| t.2)
                && let Some(t) = c.get_mut(target)
            {
                t.pinned = true;
            }
        }
        Event::Contest {
            what,
            who,
            against,
            won,
            cost,
            ..
        } => {
            if let Some(f) = c.get_mut(who) {
                f.used += cost;
            }
            match what {
                ContestKind::BreakFree if *won => {
                    if let Some(f) = c.get_mut(who) {
                        f.grabbed_by = None;
                        f.pinned = false;
                    }
                }
                ContestKind::Grapple { down } if *won => {
                    if let Some(t) = c.get_mut(against) {
                        if *down {
                            t.down = true;
                        } else {
                            t.defenceless = true;
                        }
                    }
                }
                ContestKind::Trip if *won => {
                    if let Some(t) = c.get_mut(against) {
                        t.down = true;
                    }
                }
                _ => {}
            }
        }
        // LR-14: a Ride test the GM calls changes nothing of the fight by itself.
        Event::Rode { .. } => {}
        Event::Stunned { who, effect, .. } => {
            if let Some(f) = c.get_mut(who) {
                // LR-14: an Extraordinary Success ignores *this* blow: an earlier stun
                // keeps its penalty and rounds.
                if let Some(e) = effect {
                    f.stun = Some(*e).filter(|e| e.1 > 0 && e.0 > 0);
                }
            }
        }
        Event::Feared {
            attacker,
            target,
            degree,
            inspired_by,
            ..
        } => {
            let started = c.round >= 1;
            let round = c.round;
            if let Some(t) = c.get_mut(target) {
                if inspired_by.is_some() {
                    // LR-14: the new test's degree replaces the old fear.
                    t.inspired_in = Some(round);
                    t.fear = 0;
                    t.lose_turn = false;
                    t.no_turn = false;
                    t.cowed = false;
                }
                if degree.success() {
                    t.feared_by = Some(attacker.clone());
                }
                match degree {
                    Degree::MarginalSuccess => t.fear = t.fear.max(1),
                    Degree::CompleteSuccess => t.fear = t.fear.max(2),
                    // LR-14 「Superior Success: 1ターン行動不能」: the turn lost is this
                    // round's if the frightened has not acted yet (its actions stop at
                    // once), else the next round's.
                    Degree::SuperiorSuccess => {
                        t.fear = t.fear.max(4);
                        if started && t.used == 0 && !t.full_round {
                            t.no_turn = true;
                        } else {
                            t.lose_turn = true;
                        }
                    }
                    Degree::ExtraordinarySuccess => t.cowed = true,
                    _ => {}
                }
            }
        }
        Event::Calmed { who } => {
            if let Some(f) = c.get_mut(who) {
                f.fear = 0;
                f.lose_turn = false;
                f.no_turn = false;
                f.cowed = false;
            }
        }
        Event::Stood { who } => {
            if let Some(f) = c.get_mut(who) {
                f.down = false;
            }
        }
        Event::Delayed { who, order } => {
            // Only the fighters still in the fight, each once.
            if order.contains(who) {
                let mut now: Vec<String> = order
                    .iter()
                    .filter(|n| c.get(n).is_some())
                    .cloned()
                    .collect();
                now.dedup();
                c.order = now;
            }
        }
        Event::Setting { key, value } => {
            let _ = c.settings.set(key, value);
        }
    }
}

fn shown(r: &Rolled) -> String {
    r.show()
}

/// One line of log text.
pub fn describe(event: &Event) -> Text {
    match event {
        Event::Joined { fighter: f } => Text::new(
            format!(
                "LR-14 {} が戦闘に参加（Swiftness {:+}、Defence {}、アクション {}）",
                f.name,
                f.swiftness,
                f.defence,
                f.allowance()
            ),
            format!(
                "LR-14 {} joins (Swiftness {:+}, Defence {}, {} actions)",
                f.name,
                f.swiftness,
                f.defence,
                f.allowance()
            ),
        ),
        Event::Left { name } => Text::new(
            format!("LR-14 {name} が離脱"),
            format!("LR-14 {name} leaves"),
        ),
        Event::Initiative {
            rolls,
            order,
            skipped,
            dead,
        } => {
            let r: Vec<String> = rolls
                .iter()
                .map(|(n, t)| format!("{n} {}", t.iter().map(shown).collect::<Vec<_>>().join("→")))
                .collect();
            let (mut sj, mut se) = if skipped.is_empty() {
                (String::new(), String::new())
            } else {
                (
                    format!("（意識不明で順番なし: {}。LR-5）", skipped.join("、")),
                    format!(" (unconscious, no turn: {}; LR-5)", skipped.join(", ")),
                )
            };
            if !dead.is_empty() {
                sj.push_str(&format!("（死亡で順番なし: {}。LR-4）", dead.join("、")));
                se.push_str(&format!(" (dead, no turn: {}; LR-4)", dead.join(", ")));
            }
            Text::new(
                format!(
                    "LR-14 イニシアチブ（Swiftness 判定）: {}。順番: {}{sj}",
                    r.join(", "),
                    order.join(" > ")
                ),
                format!(
                    "LR-14 initiative (Swiftness tests): {}. Order: {}{se}",
                    r.join(", "),
                    order.join(" > ")
                ),
            )
        }
        Event::Round { round } => Text::new(
            format!("LR-14 ラウンド {round}"),
            format!("LR-14 round {round}"),
        ),
        Event::Acted {
            who,
            act,
            cost,
            penalty,
            test,
            load,
            mounted,
        } => {
            let name = match act {
                Act::Free => ("コスト0の行動", "a free action"),
                Act::Aim { indirect: false } => {
                    ("狙いをつける（次の攻撃 +1）", "aims (next attack +1)")
                }
                // LR-14: +3 only if the next attack is an indirect missile (`indirect`).
                Act::Aim { indirect: true } => (
                    "狙いをつける（次の攻撃が間接射撃 indirect なら +3、直接攻撃なら +1）",
                    "aims (next attack +3 if an indirect missile, `indirect`; a direct attack +1)",
                ),
                Act::Move => ("移動（Walk/Jog）", "moves (walk/jog)"),
                Act::Other => ("行動", "acts"),
                Act::Run { .. } => ("走る（27ヤードまで）", "runs (up to 27 yd)"),
                Act::Sprint { .. } => ("全力移動（40ヤードまで）", "sprints (up to 40 yd)"),
            };
            // LR-14 movement: mounted (Table 9.22) or under a load (×3/4, ×1/2).
            let moved = move_yards(*act, *mounted, *load).map(|y| {
                let (wj, we) = match (act, mounted, load) {
                    (Act::Move, true, _) => {
                        ("馬で Walk 12 / Canter ", "on horseback, walk 12 / canter ")
                    }
                    (Act::Run { .. }, true, _) => ("馬で Run ", "on horseback, run "),
                    (_, true, _) => ("馬で Gallop ", "on horseback, gallop "),
                    (_, false, Load::Encumbered) => ("重荷で×3/4: ", "encumbered ×3/4: "),
                    (_, false, Load::Heavy) => ("超重荷で×1/2: ", "heavily encumbered ×1/2: "),
                    (_, false, Load::Normal) => ("", ""),
                };
                (format!("{wj}{y}ヤードまで"), format!("{we}up to {y} yd"))
            });
            let name = match (&moved, act) {
                (Some((j, e)), Act::Move) if *mounted || !load.is_normal() => {
                    (format!("移動（{j}）"), format!("moves ({e})"))
                }
                (Some((j, e)), Act::Run { .. }) if *mounted || !load.is_normal() => {
                    (format!("走る（{j}）"), format!("runs ({e})"))
                }
                (Some((j, e)), Act::Sprint { .. }) if *mounted || !load.is_normal() => {
                    (format!("全力移動（{j}）"), format!("sprints ({e})"))
                }
                _ => (name.0.to_string(), name.1.to_string()),
            };
            let (tj, te) = match test {
                Some((t, tn, ok)) => (
                    format!(
                        "、判定 {} 対 {tn}: {}",
                        shown(t),
                        if *ok { "成功" } else { "失敗" }
                    ),
                    format!(
                        ", test {} vs {tn}: {}",
                        shown(t),
                        if *ok { "success" } else { "failure" }
                    ),
                ),
                None => (String::new(), String::new()),
            };
            let (pj, pe) = if *penalty < 0 {
                (
                    format!("（追加アクション {penalty}）"),
                    format!(" (extra action {penalty})"),
                )
            } else {
                (String::new(), String::new())
            };
            Text::new(
                format!("LR-14 {who}: {}、{cost} アクション{pj}{tj}", name.0),
                format!("LR-14 {who} {}, {cost} action(s){pe}{te}", name.1),
            )
        }
        Event::Attacked {
            attacker,
            option,
            cost,
            penalty,
            strikes,
        } => {
            let mut ja = format!(
                "LR-14 {attacker} の攻撃（{cost} アクション{}）",
                if *penalty < 0 {
                    format!("、{penalty}")
                } else {
                    String::new()
                }
            );
            let mut en = format!(
                "LR-14 {attacker} attacks ({cost} action(s){})",
                if *penalty < 0 {
                    format!(", {penalty}")
                } else {
                    String::new()
                }
            );
            for s in strikes {
                let mut j = format!(" → {}: {} 対 {}", s.target, shown(&s.attack), s.tn);
                let mut e = format!(" → {}: {} vs {}", s.target, shown(&s.attack), s.tn);
                if let Some(d) = &s.defence {
                    let (dj, de) = match d.defence {
                        Defence::Dodge { .. } => ("回避", "dodge"),
                        Defence::Parry { .. } => ("防御", "parry"),
                    };
                    j += &format!("、{dj} {}", shown(&d.test));
                    e += &format!(", {de} {}", shown(&d.test));
                } else if !s.hit && s.attack.total < s.tn {
                    j += "（防御を宣言していてもアクションは消費しない）";
                    e += " (a declared defence, if any, costs no action)";
                }
                let (rj, re) = if s.parried {
                    ("防がれた".to_string(), "parried".to_string())
                } else if s.hit {
                    let deg = s
                        .degree
                        .map(Degree::text)
                        .unwrap_or_else(|| Text::new("", ""));
                    (
                        format!("命中（{}）", deg.get(taku_dice::Lang::Ja)),
                        format!("hit ({})", deg.get(taku_dice::Lang::En)),
                    )
                } else {
                    ("外れ".to_string(), "miss".to_string())
                };
                j += &format!(": {rj}");
                e += &format!(": {re}");
                // LR-14 「捕縛(Grapple): 鞭 (Whip) で,Superior 成功以上の命中をしたときに有効」:
                // a whip hit says whether it took hold (lotr7 F4).
                if s.hit && matches!(option, AttackOption::Whip) {
                    if s.degree >= Some(Degree::SuperiorSuccess) {
                        j += &format!(
                            "。鞭が{}を絡め取った（毎ラウンド /lotr combat grapple {attacker} 修正 相手の修正 down|helpless で Strength の対決、攻撃側+4）",
                            s.target
                        );
                        e += &format!(
                            "; the whip entangles {} (each round /lotr combat grapple {attacker} MOD TARGET_MOD down|helpless: opposed Strength, attacker +4)",
                            s.target
                        );
                    } else {
                        j += "。Superior 未満なので鞭は絡まない（ダメージもなし）";
                        e += "; below Superior the whip does not take hold (and deals no damage)";
                    }
                }
                // LR-14 stun: 「殴打攻撃はダメージのかわりにスタン効果」 — a blunt blow at the
                // head that hits calls for the target's Stamina test (Table 9.17).
                if s.hit && matches!(option, AttackOption::Blunt { head: true }) {
                    j += &format!(
                        "。{} はスタンの Stamina 判定（表9.17）: /lotr combat stun {} 修正 tn= pen= rounds=",
                        s.target, s.target
                    );
                    e += &format!(
                        "; {} makes the stun Stamina test (Table 9.17): /lotr combat stun {} MOD tn= pen= rounds=",
                        s.target, s.target
                    );
                }
                if let Some((d, t)) = &s.damage {
                    j += &format!("、ダメージ {d:?}→{t}");
                    e += &format!(", damage {d:?}→{t}");
                }
                match &s.extraordinary {
                    Some(Extraordinary::MaxDamage) => {
                        j += "（大成功: 最大ダメージ）";
                        e += " (Extraordinary: maximum damage)";
                    }
                    Some(Extraordinary::Break { item }) => {
                        j += &format!("（大成功: {item} を破壊）");
                        e += &format!(" (Extraordinary: {item} broken)");
                    }
                    None => {}
                }
                if let Some((k, tn, fell)) = &s.knockdown {
                    j += &format!(
                        "、転倒判定 {} 対 {tn}: {}",
                        shown(k),
                        if *fell {
                            "転倒"
                        } else {
                            "踏みとどまる"
                        }
                    );
                    e += &format!(
                        ", knock-down {} vs {tn}: {}",
                        shown(k),
                        if *fell { "falls" } else { "stands" }
                    );
                }
                ja += &j;
                en += &e;
            }
            Text::new(ja, en)
        }
        Event::Squeezed {
            who,
            target,
            how,
            damage,
            penalty,
            test,
        } => {
            if let Some((t, tn, false)) = test {
                return Text::new(
                    format!(
                        "LR-14 {who} の {target} への組み付きの追加アクション（{penalty}）: 判定 {} 対 {tn}: 失敗（何も起きない）",
                        shown(t)
                    ),
                    format!(
                        "LR-14 {who}'s extra grab action on {target} ({penalty}): test {} vs {tn}: failure (nothing happens)",
                        shown(t)
                    ),
                );
            }
            let (tj, te) = match test {
                Some((t, tn, _)) => (
                    format!(
                        "（追加アクション {penalty}、判定 {} 対 {tn}: 成功）",
                        shown(t)
                    ),
                    format!(
                        " (extra action {penalty}, test {} vs {tn}: success)",
                        shown(t)
                    ),
                ),
                None => (String::new(), String::new()),
            };
            let dmg = |d: &Option<(Vec<i64>, i64)>| match d {
                Some((faces, total)) => format!("{faces:?}→{total}"),
                None => "0".to_string(),
            };
            let (j, e) = match how {
                GrabAct::Pin => (
                    "押さえつける（対抗STR +3）".to_string(),
                    "pins (+3 on opposed STR)".to_string(),
                ),
                GrabAct::Damage => (
                    format!("締め上げる: ダメージ {}（1d6+STR修正）", dmg(damage)),
                    format!("squeezes: damage {} (1d6 + STR mod)", dmg(damage)),
                ),
                GrabAct::Slam => (
                    format!("たたきつける: ダメージ {}（1d6）", dmg(damage)),
                    format!("slams: damage {} (1d6)", dmg(damage)),
                ),
            };
            Text::new(
                format!("LR-14 {who} が {target} を{j}{tj}"),
                format!("LR-14 {who} {e} {target}{te}"),
            )
        }
        Event::Contest {
            what,
            who,
            against,
            tests,
            won,
            ..
        } => {
            let t: Vec<String> = tests
                .iter()
                .map(|(a, b)| format!("{} 対 {}", shown(a), shown(b)))
                .collect();
            let te: Vec<String> = tests
                .iter()
                .map(|(a, b)| format!("{} vs {}", shown(a), shown(b)))
                .collect();
            let (j, e) = match what {
                ContestKind::BreakFree => ("つかみから抜け出す", "breaks free"),
                ContestKind::Grapple { down: true } => ("絡め取って倒す", "throws down"),
                ContestKind::Grapple { down: false } => {
                    ("絡め取って防御不能にする", "leaves defenceless")
                }
                ContestKind::Trip => ("足払い", "trips"),
            };
            Text::new(
                format!(
                    "LR-14 {who}（{j}）対 {against}: {}: {}",
                    t.join(" / "),
                    if *won { "成功" } else { "失敗" }
                ),
                format!(
                    "LR-14 {who} {e} vs {against}: {}: {}",
                    te.join(" / "),
                    if *won { "success" } else { "failure" }
                ),
            )
        }
        Event::Rode {
            who,
            test,
            tn,
            horse,
            penalty,
            spared,
        } => {
            let ok = test.total >= *tn;
            let (hj, he) = if *horse {
                ("（馬の Ride を使用）", " (the horse's Ride)")
            } else {
                ("", "")
            };
            let (pj, pe) = match (*penalty, *spared) {
                (p, _) if p > 0 => (format!("、戦闘中 −{p}"), format!(", −{p} in combat")),
                (_, s) if s > 0 => (
                    format!("、Steady なので −{s} なし"),
                    format!(", a Steady horse: no −{s}"),
                ),
                _ => (String::new(), String::new()),
            };
            Text::new(
                format!(
                    "LR-14 {who} の Ride 判定{hj}{pj}: {} 対 {tn}: {}",
                    shown(test),
                    if ok { "成功" } else { "失敗" }
                ),
                format!(
                    "LR-14 {who}'s Ride test{he}{pe}: {} vs {tn}: {}",
                    shown(test),
                    if ok { "success" } else { "failure" }
                ),
            )
        }
        Event::Stunned {
            who,
            test,
            tn,
            degree,
            effect,
        } => {
            let (j, e) = match effect {
                Some((p, r)) => (
                    format!("スタン −{p}、{r} ラウンド"),
                    format!("stunned −{p} for {r} round(s)"),
                ),
                None => ("影響なし".to_string(), "unaffected".to_string()),
            };
            Text::new(
                format!("LR-14 {who} の Stamina {} 対 {tn}: ", shown(test)),
                format!("LR-14 {who}'s Stamina {} vs {tn}: ", shown(test)),
            )
            .then("", &degree.text())
            .then("", &Text::new(format!("、{j}"), format!(", {e}")))
        }
        Event::Feared {
            attacker,
            target,
            tests,
            degree,
            inspired_by,
        } => {
            let (j, e) = match degree {
                Degree::MarginalSuccess => ("全行動 −1", "−1 to all actions"),
                Degree::CompleteSuccess => ("全行動 −2", "−2 to all actions"),
                Degree::SuperiorSuccess => ("1ターン行動不能、−4", "loses a turn, −4"),
                Degree::ExtraordinarySuccess => ("逃げ出すか伏せる", "flees or cowers"),
                _ => ("影響なし", "no effect"),
            };
            let t: Vec<String> = tests
                .iter()
                .map(|(a, b)| format!("{} / {}", shown(a), shown(b)))
                .collect();
            let (ij, ie) = match inspired_by {
                Some(i) => (
                    format!("{i} の鼓舞（Inspire）で再判定、"),
                    format!("new test after {i}'s Inspire, "),
                ),
                None => (String::new(), String::new()),
            };
            Text::new(
                format!(
                    "LR-14 {ij}{attacker} の恐怖 → {target}（威圧 / 意志力 {}）: ",
                    t.join(", ")
                ),
                format!(
                    "LR-14 {ie}{attacker}'s fear → {target} (Intimidate / Willpower {}): ",
                    t.join(", ")
                ),
            )
            .then("", &degree.text())
            .then("", &Text::new(format!("、{j}"), format!(", {e}")))
        }
        Event::Calmed { who } => Text::new(
            format!("LR-14 {who} の恐怖が解ける"),
            format!("LR-14 {who} is no longer afraid"),
        ),
        Event::Stood { who } => Text::new(
            format!("LR-14 {who} が立ち上がる"),
            format!("LR-14 {who} stands up"),
        ),
        Event::Delayed { who, order } => Text::new(
            format!("LR-14 {who} が行動を遅らせる: 順番 {}", order.join(" → ")),
            format!("LR-14 {who} delays: order {}", order.join(" → ")),
        ),
        Event::Setting { key, value } => Text::new(
            format!("設定: {key} = {value}"),
            format!("setting: {key} = {value}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::coda::testing::d6s;
    use super::*;
    use taku_dice::Lang;

    fn run(c: &mut Combat, cmd: Command, faces: &[u32]) -> Result<Vec<Event>, Text> {
        let mut src = d6s(faces);
        let mut r = Roller::new(&mut src);
        let events = decide(c, &cmd, &mut r)?;
        assert_eq!(src.remaining(), 0, "every scripted die used");
        for e in &events {
            fold(c, e);
            assert!(!describe(e).get(Lang::Ja).is_empty());
        }
        Ok(events)
    }

    fn refused(c: &mut Combat, cmd: Command, rule: &str) -> Text {
        let before = c.clone();
        let err = run(c, cmd, &[]).expect_err("refused");
        assert!(err.get(Lang::En).starts_with(rule), "{}", err.get(Lang::En));
        assert!(err.get(Lang::Ja).starts_with(rule), "{}", err.get(Lang::Ja));
        assert_eq!(*c, before, "a refusal changes nothing");
        err
    }

    fn two() -> Combat {
        let mut c = Combat::default();
        // STR 5: modifier 0, so damage is the weapon's.
        run(
            &mut c,
            Command::Join(Box::new(Fighter::new("Boromir", 2, 12, 5))),
            &[],
        )
        .expect("join");
        run(
            &mut c,
            Command::Join(Box::new(Fighter::new("Orc", 1, 12, 5))),
            &[],
        )
        .expect("join");
        c
    }

    fn sword() -> Weapon {
        Weapon {
            dice: 1,
            bonus: 5,
            kind: WeaponKind::Melee,
        }
    }

    fn attack(
        attacker: &str,
        target: &str,
        defence: Option<Defence>,
        option: AttackOption,
        modifier: i64,
    ) -> Command {
        Command::Attack {
            attacker: attacker.into(),
            targets: vec![Target {
                name: target.into(),
                defence,
            }],
            option,
            weapon: sword(),
            modifier,
            range_steps: 0,
            indirect: false,
            extraordinary: Extraordinary::MaxDamage,
        }
    }

    fn strike(e: &[Event]) -> Strike {
        let Event::Attacked { strikes, .. } = &e[0] else {
            panic!("{e:?}")
        };
        strikes[0].clone()
    }

    /// Runs an attack with these dice and gives its (first) strike.
    fn struck(c: &mut Combat, cmd: Command, faces: &[u32]) -> Strike {
        strike(&run(c, cmd, faces).expect("attack"))
    }

    #[test]
    fn lr14_initiative_higher_first_ties_retested() {
        let mut c = two();
        run(
            &mut c,
            Command::Join(Box::new(Fighter::new("Gimli", 0, 10, 9))),
            &[],
        )
        .expect("join");
        // Boromir 3+3+2 = 8, Orc 4+3+1 = 8, Gimli 6+5 = 11; the tie re-tested: 1+1+2 = 4, 2+2+1 = 5.
        let e = run(&mut c, Command::Initiative, &[3, 3, 4, 3, 6, 5, 1, 1, 2, 2]).expect("init");
        let Event::Initiative { order, .. } = &e[0] else {
            panic!()
        };
        assert_eq!(order, &["Gimli", "Orc", "Boromir"]);
        assert_eq!(c.round, 1);
    }

    #[test]
    fn lr14_two_actions_then_minus_five_cumulative_and_tn_5_for_no_test_actions() {
        let mut c = two();
        run(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Move,
                modifier: 0,
                load: Load::Normal,
            },
            &[],
        )
        .expect("1st");
        run(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Aim { indirect: false },
                modifier: 0,
                load: Load::Normal,
            },
            &[],
        )
        .expect("2nd");
        // Third, needing no test: TN 5 at −5, so 2d6 ≥ 10: 5+4 = 9 − 5 = 4 fails.
        let e = run(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Other,
                modifier: 0,
                load: Load::Normal,
            },
            &[5, 4],
        )
        .expect("3rd");
        let Event::Acted { penalty, test, .. } = &e[0] else {
            panic!()
        };
        assert_eq!(*penalty, -5);
        assert_eq!(
            test.as_ref().map(|t| (t.0.total, t.1, t.2)),
            Some((4, 5, false))
        );
        // Fourth at −10: 6+6 explodes, +3: 15 − 10 = 5 ≥ 5.
        let e = run(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Other,
                modifier: 0,
                load: Load::Normal,
            },
            &[6, 6, 3],
        )
        .expect("4th");
        let Event::Acted { penalty, test, .. } = &e[0] else {
            panic!()
        };
        assert_eq!(*penalty, -10);
        assert_eq!(test.as_ref().map(|t| (t.0.total, t.2)), Some((5, true)));
        assert_eq!(c.get("Boromir").expect("in").used, 4);
        // A new round resets the count; the aim waits for the next attack.
        run(&mut c, Command::NextRound, &[]).expect("round");
        assert_eq!(c.get("Boromir").expect("in").used, 0);
        assert_eq!(c.get("Boromir").expect("in").aim, 1);
    }

    #[test]
    fn lr14_free_actions_cost_nothing_run_costs_two_sprint_takes_the_round() {
        let mut c = two();
        run(
            &mut c,
            Command::Act {
                who: "Orc".into(),
                act: Act::Free,
                modifier: 0,
                load: Load::Normal,
            },
            &[],
        )
        .expect("free");
        assert_eq!(c.get("Orc").expect("in").used, 0);
        // Sprint: full round, Run TN 10 (15 in melee): 5+5+1 = 11 ≥ 10.
        let e = run(
            &mut c,
            Command::Act {
                who: "Orc".into(),
                act: Act::Sprint { in_melee: false },
                modifier: 1,
                load: Load::Normal,
            },
            &[5, 5],
        )
        .expect("sprint");
        let Event::Acted { test, cost, .. } = &e[0] else {
            panic!()
        };
        assert_eq!(
            (*cost, test.as_ref().map(|t| (t.1, t.2))),
            (2, Some((10, true)))
        );
        // Run in melee: TN 10, 2 actions: Boromir 4+4+1 = 9 fails.
        let e = run(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Run { in_melee: true },
                modifier: 1,
                load: Load::Normal,
            },
            &[4, 4],
        )
        .expect("run");
        let Event::Acted { test, .. } = &e[0] else {
            panic!()
        };
        assert_eq!(test.as_ref().map(|t| (t.1, t.2)), Some((10, false)));
        refused(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Sprint { in_melee: false },
                modifier: 0,
                load: Load::Normal,
            },
            "LR-14",
        );
    }

    #[test]
    fn lr14_dodge_replaces_defence_if_higher_and_a_tie_hits() {
        // Dodge total 14 over Defence 12; attack total 14: hit.
        let mut c = two();
        // Attack 4+4+6 = 14; dodge 5+5+2 (Swiftness) + 2 = 14: TN 14, tie hits.
        let s = struck(
            &mut c,
            attack(
                "Orc",
                "Boromir",
                Some(Defence::Dodge { modifier: 2 }),
                AttackOption::Basic,
                6,
            ),
            &[4, 4, 5, 5, 3],
        );
        assert_eq!(
            (
                s.attack.total,
                s.defence.as_ref().map(|d| d.test.total),
                s.hit
            ),
            (14, Some(14), true)
        );
        assert_eq!(c.get("Boromir").expect("in").current_defence(), 14);
        assert_eq!(c.get("Boromir").expect("in").used, 1);
        // Another attack this round meets TN 14.
        let e = run(
            &mut c,
            attack("Orc", "Boromir", None, AttackOption::Basic, 6),
            &[4, 3],
        )
        .expect("attack");
        assert_eq!((strike(&e).tn, strike(&e).hit), (14, false));
        // Dodge total 11 under Defence 12: Defence stays 12.
        let mut c = two();
        let s = struck(
            &mut c,
            attack(
                "Orc",
                "Boromir",
                Some(Defence::Dodge { modifier: 0 }),
                AttackOption::Basic,
                6,
            ),
            &[4, 4, 5, 4, 3],
        );
        assert_eq!(
            (s.defence.as_ref().map(|d| d.test.total), s.hit),
            (Some(11), true)
        );
        assert_eq!(c.get("Boromir").expect("in").current_defence(), 12);
    }

    #[test]
    fn lr14_parry_tie_is_parried_and_a_miss_costs_no_action() {
        let mut c = two();
        let parry = Some(Defence::Parry {
            modifier: 7,
            specialised: false,
        });
        // Attack 5+6+6 = 17; parry 5+5+7 = 17: parried.
        let s = struck(
            &mut c,
            attack("Orc", "Boromir", parry, AttackOption::Basic, 6),
            &[5, 6, 5, 5],
        );
        assert_eq!(
            (s.attack.total, s.parried, s.hit, s.damage.is_none()),
            (17, true, false, true)
        );
        assert_eq!(c.get("Boromir").expect("in").used, 1);
        // Attack 11 < Defence 12 with a parry declared: a miss, no action spent, no parry rolled.
        let s = struck(
            &mut c,
            attack("Orc", "Boromir", parry, AttackOption::Basic, 6),
            &[3, 2],
        );
        assert_eq!(
            (s.attack.total, s.hit, s.defence.is_none()),
            (11, false, true)
        );
        assert_eq!(c.get("Boromir").expect("in").used, 1);
    }

    #[test]
    fn lr14_defence_with_no_actions_left_is_at_minus_five_cumulative() {
        let mut c = two();
        for _ in 0..2 {
            run(
                &mut c,
                Command::Act {
                    who: "Boromir".into(),
                    act: Act::Move,
                    modifier: 0,
                    load: Load::Normal,
                },
                &[],
            )
            .expect("move");
        }
        let s = struck(
            &mut c,
            attack(
                "Orc",
                "Boromir",
                Some(Defence::Parry {
                    modifier: 7,
                    specialised: true,
                }),
                AttackOption::Basic,
                6,
            ),
            &[5, 6, 5, 5, 2],
        );
        let d = s.defence.expect("rolled");
        // 5+5 + 7 + 2 (specialised) − 5 = 14 < 17: hit.
        assert_eq!((d.penalty, d.test.total, s.hit), (-5, 14, true));
    }

    #[test]
    fn lr14_shield_on_parry_not_dodge_and_missiles_not_parried() {
        let mut c = Combat::default();
        let mut f = Fighter::new("Gimli", 0, 10, 9);
        f.shield = 3;
        f.size = Size::Small;
        run(&mut c, Command::Join(Box::new(f)), &[]).expect("join");
        run(
            &mut c,
            Command::Join(Box::new(Fighter::new("Archer", 0, 10, 5))),
            &[],
        )
        .expect("join");
        let bow = Weapon {
            dice: 2,
            bonus: 0,
            kind: WeaponKind::Bow,
        };
        let shot = |defence| Command::Attack {
            attacker: "Archer".into(),
            targets: vec![Target {
                name: "Gimli".into(),
                defence,
            }],
            option: AttackOption::Basic,
            weapon: bow,
            modifier: 4,
            range_steps: 1,
            indirect: false,
            extraordinary: Extraordinary::MaxDamage,
        };
        refused(
            &mut c,
            shot(Some(Defence::Parry {
                modifier: 5,
                specialised: false,
            })),
            "LR-14",
        );
        // TN = Defence 10 + shield 3 + 2 (one step beyond long) = 15; Medium on Small −2:
        // 6+5+4−2 = 13: miss.
        let e = run(&mut c, shot(None), &[6, 5]).expect("shot");
        assert_eq!(
            (strike(&e).tn, strike(&e).attack.total, strike(&e).hit),
            (15, 13, false)
        );
        // Dodge: no shield bonus; size does not touch the defence test.
        let s = struck(
            &mut c,
            attack(
                "Gimli",
                "Archer",
                Some(Defence::Dodge { modifier: 0 }),
                AttackOption::Basic,
                0,
            ),
            &[6, 5, 6, 5, 3],
        );
        // Small attacking Medium +2: 6+5+2 = 13 ≥ 10; dodge 6+5 = 11 → TN 11: hit, Complete.
        assert_eq!(
            (s.attack.total, s.defence.map(|d| d.test.total), s.degree),
            (13, Some(11), Some(Degree::CompleteSuccess))
        );
    }

    #[test]
    fn lr14_attack_options_modify_attack_damage_and_defence_tests() {
        let mut c = two();
        // Precise: +2 attack, −2 damage: 5+5+0+2 = 12 hit, damage 4+5−2 = 7.
        let e = run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Precise, 0),
            &[5, 5, 4],
        )
        .expect("precise");
        assert_eq!(
            (strike(&e).attack.total, strike(&e).damage.map(|d| d.1)),
            (12, Some(7))
        );
        // Power: damage +3; the attacker's defence tests −2 this round.
        let e = run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Power, 2),
            &[5, 5, 4],
        )
        .expect("power");
        assert_eq!(strike(&e).damage.map(|d| d.1), Some(12));
        assert_eq!(c.get("Boromir").expect("in").defence_tests, -2);
        // Defensive: −2 attack, +2 on the attacker's parries.
        run(&mut c, Command::NextRound, &[]).expect("round");
        let e = run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Defensive, 0),
            &[5, 5],
        )
        .expect("defensive");
        assert_eq!((strike(&e).attack.total, strike(&e).hit), (8, false));
        assert_eq!(c.get("Boromir").expect("in").parry_bonus, 2);
        // Two-handed: +4 damage, refused with a shield.
        let e = run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::TwoHanded, 1),
            &[6, 5, 1],
        )
        .expect("two-handed");
        assert_eq!(strike(&e).damage.map(|d| d.1), Some(10));
        c.fighters[0].shield = 2;
        refused(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::TwoHanded, 0),
            "LR-14",
        );
    }

    #[test]
    fn lr14_charge_damage_times_one_and_a_half_rounded_half_up_and_knockdown() {
        let mut c = two();
        refused(
            &mut c,
            attack(
                "Boromir",
                "Orc",
                None,
                AttackOption::Charge {
                    run_up: 2,
                    horse_strength: false,
                },
                0,
            ),
            "LR-14",
        );
        // Attack 5+5+0+1 = 11 < 12: use +1: 12 hit; damage 4 + 5 = 9 → 13.5 → 14;
        // knock-down: Orc STR 5 (mod 0): 3+3 = 6 < TN 5 + 2 = 7: falls.
        let e = run(
            &mut c,
            attack(
                "Boromir",
                "Orc",
                None,
                AttackOption::Charge {
                    run_up: 5,
                    horse_strength: false,
                },
                1,
            ),
            &[5, 5, 4, 3, 3],
        )
        .expect("charge");
        let s = strike(&e);
        assert_eq!(s.damage.map(|d| d.1), Some(14));
        assert_eq!(s.knockdown.as_ref().map(|k| (k.1, k.2)), Some((7, true)));
        assert!(c.get("Orc").expect("in").down);
        assert_eq!(c.get("Boromir").expect("in").defence_tests, -3);
        assert_eq!(c.get("Boromir").expect("in").used, 2);
        // The target gets +1 to attack the charger: 5+5+1+1 = 12 ≥ 12.
        let e = run(
            &mut c,
            attack("Orc", "Boromir", None, AttackOption::Basic, 1),
            &[5, 5, 1],
        )
        .expect("back");
        assert_eq!(strike(&e).attack.total, 12);
    }

    #[test]
    fn lr14_sweep_at_minus_four_stops_at_the_first_parry() {
        let mut c = two();
        run(
            &mut c,
            Command::Join(Box::new(Fighter::new("Orc2", 1, 10, 5))),
            &[],
        )
        .expect("join");
        let cmd = Command::Attack {
            attacker: "Boromir".into(),
            targets: vec![
                Target {
                    name: "Orc".into(),
                    defence: Some(Defence::Parry {
                        modifier: 5,
                        specialised: false,
                    }),
                },
                Target {
                    name: "Orc2".into(),
                    defence: None,
                },
            ],
            option: AttackOption::Sweep,
            weapon: sword(),
            modifier: 8,
            range_steps: 0,
            indirect: false,
            extraordinary: Extraordinary::MaxDamage,
        };
        // 5+5+8−4 = 14 vs 12; parry 5+4+5 = 14: parried, the sweep stops.
        let e = run(&mut c, cmd, &[5, 5, 5, 4]).expect("sweep");
        let Event::Attacked { strikes, cost, .. } = &e[0] else {
            panic!()
        };
        assert_eq!((strikes.len(), strikes[0].parried, *cost), (1, true, 2));
        refused(
            &mut c,
            Command::Attack {
                attacker: "Boromir".into(),
                targets: vec![Target {
                    name: "Orc".into(),
                    defence: None,
                }],
                option: AttackOption::Sweep,
                weapon: sword(),
                modifier: 0,
                range_steps: 0,
                indirect: false,
                extraordinary: Extraordinary::MaxDamage,
            },
            "LR-14",
        );
    }

    #[test]
    fn lr14_aim_and_extraordinary_maximum_damage() {
        let mut c = two();
        run(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Aim { indirect: false },
                modifier: 0,
                load: Load::Normal,
            },
            &[],
        )
        .expect("aim");
        // 6+6 → +6 → +1 = 19 + 5 + 1 (aim) = 25 vs 12: margin 13, Extraordinary: max damage 6+5, no damage dice.
        let s = struck(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Basic, 5),
            &[6, 6, 6, 1],
        );
        assert_eq!(
            (s.attack.total, s.degree, s.damage.map(|d| d.1)),
            (25, Some(Degree::ExtraordinarySuccess), Some(11))
        );
        assert_eq!(s.extraordinary, Some(Extraordinary::MaxDamage));
        assert_eq!(c.get("Boromir").expect("in").aim, 0, "aim used up");
    }

    #[test]
    fn lr14_size_applied_once_and_rider_counts_as_large() {
        let small = Fighter {
            size: Size::Small,
            ..Fighter::new("Pippin", 0, 10, 4)
        };
        let man = Fighter::new("Man", 0, 10, 8);
        let rider = Fighter {
            mount: Some(Mount {
                strength: 20,
                war_trained: true,
                steady: false,
                ride: None,
            }),
            ..Fighter::new("Rider", 0, 10, 8)
        };
        assert_eq!(size_modifier(&man, &small), -2);
        assert_eq!(size_modifier(&small, &man), 2);
        assert_eq!(size_modifier(&rider, &small), -4);
        assert_eq!(size_modifier(&rider, &man), -2);
        assert_eq!(rider.allowance(), 3, "a War-Trained horse adds its action");
    }

    #[test]
    fn lr14_mounted_charge_on_foot_plus_three_and_horse_strength() {
        let mut c = two();
        c.fighters[0].mount = Some(Mount {
            strength: 20,
            war_trained: false,
            steady: false,
            ride: None,
        });
        // 3+3 + 0 + 1 (charge) + 3 (mounted on foot) − 2 (counts as Large vs Medium) = 8 < 12: miss.
        let e = run(
            &mut c,
            attack(
                "Boromir",
                "Orc",
                None,
                AttackOption::Charge {
                    run_up: 10,
                    horse_strength: true,
                },
                0,
            ),
            &[3, 3],
        )
        .expect("charge");
        assert_eq!(strike(&e).attack.total, 8);
        run(&mut c, Command::NextRound, &[]).expect("round");
        // Hit with the horse's STR 20 (+7): damage (4 + 5 + 7) × 1.5 = 24; knock-down TN 22.
        let e = run(
            &mut c,
            attack(
                "Boromir",
                "Orc",
                None,
                AttackOption::Charge {
                    run_up: 10,
                    horse_strength: true,
                },
                4,
            ),
            &[5, 5, 4, 6, 5],
        )
        .expect("charge");
        let s = strike(&e);
        assert_eq!(
            (s.damage.map(|d| d.1), s.knockdown.map(|k| (k.1, k.2))),
            (Some(24), Some((22, true)))
        );
    }

    #[test]
    fn lr14_grab_pin_break_free() {
        let mut c = two();
        let e = run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Grab, 2),
            &[5, 5],
        )
        .expect("grab");
        assert!(strike(&e).hit && strike(&e).damage.is_none());
        assert_eq!(
            c.get("Orc").expect("in").grabbed_by.as_deref(),
            Some("Boromir")
        );
        // The grabbed: every TN +5 (its totals −5 here).
        assert_eq!(c.get("Orc").expect("in").condition_penalty(), -5);
        run(
            &mut c,
            Command::Squeeze {
                who: "Boromir".into(),
                how: GrabAct::Pin,
            },
            &[],
        )
        .expect("pin");
        // 1d6 + STR mod 0.
        let e = run(
            &mut c,
            Command::Squeeze {
                who: "Boromir".into(),
                how: GrabAct::Damage,
            },
            &[5, 5, 4],
        )
        .expect("squeeze");
        let Event::Squeezed {
            damage,
            penalty,
            test,
            ..
        } = &e[0]
        else {
            panic!()
        };
        // The third action, needing no test: TN 5 at −5: 5+5−5 = 5 passes.
        assert_eq!((damage.as_ref().map(|d| d.1), *penalty), (Some(4), -5));
        assert_eq!(test.as_ref().map(|t| (t.0.total, t.2)), Some((5, true)));
        // The fourth at −10: 6+5−10 = 1 < 5: nothing happens.
        let mut after = c.clone();
        let e = run(
            &mut after,
            Command::Squeeze {
                who: "Boromir".into(),
                how: GrabAct::Damage,
            },
            &[6, 5],
        )
        .expect("squeeze");
        let Event::Squeezed { damage, test, .. } = &e[0] else {
            panic!()
        };
        assert!(damage.is_none() && test.as_ref().is_some_and(|t| !t.2));
        assert!(describe(&e[0]).ja().contains("何も起きない"));
        // Break free: Orc 6+5+0−5 = 6 vs Boromir 1+1+0+3 (pin) = 5: free.
        run(
            &mut c,
            Command::BreakFree {
                who: "Orc".into(),
                modifier: 0,
                grabber_modifier: 0,
            },
            &[6, 5, 1, 1],
        )
        .expect("break");
        assert!(c.get("Orc").expect("in").grabbed_by.is_none());
        refused(
            &mut c,
            Command::BreakFree {
                who: "Orc".into(),
                modifier: 0,
                grabber_modifier: 0,
            },
            "LR-14",
        );
    }

    #[test]
    fn lr14_whip_superior_grapples_and_attacks_on_it_gain_five() {
        let mut c = two();
        // Complete only (margin 3): no grapple.
        run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Whip, 5),
            &[5, 5],
        )
        .expect("whip");
        assert!(c.get("Orc").expect("in").grappled_by.is_none());
        // Superior (margin 6): grappled.
        run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Whip, 8),
            &[5, 5],
        )
        .expect("whip");
        assert_eq!(
            c.get("Orc").expect("in").grappled_by.as_deref(),
            Some("Boromir")
        );
        run(&mut c, Command::NextRound, &[]).expect("round");
        // Opposed STR, attacker +4: 3+3+4 = 10 vs 4+4 = 8: defenceless.
        run(
            &mut c,
            Command::Grapple {
                attacker: "Boromir".into(),
                modifier: 0,
                target_modifier: 0,
                down: false,
            },
            &[3, 3, 4, 4],
        )
        .expect("grapple");
        refused(
            &mut c,
            attack(
                "Boromir",
                "Orc",
                Some(Defence::Dodge { modifier: 0 }),
                AttackOption::Basic,
                0,
            ),
            "LR-14",
        );
        // +5 on attacks against it: 3+3+5 = 11 < 12.
        let e = run(
            &mut c,
            attack("Boromir", "Orc", None, AttackOption::Basic, 0),
            &[3, 3],
        )
        .expect("attack");
        assert_eq!(strike(&e).attack.total, 11);
    }

    #[test]
    fn lr14_stun_superior_halves_extraordinary_ignores_and_the_reduction_option() {
        let stun = |modifier| Command::Stun {
            who: "Orc".into(),
            modifier,
            tn: 10,
            penalty: 4,
            rounds: 5,
        };
        let mut c = two();
        // 3+3 = 6 vs 10: failure: −4 for 5 rounds.
        run(&mut c, stun(0), &[3, 3]).expect("stun");
        assert_eq!(c.get("Orc").expect("in").stun, Some((4, 5)));
        // Superior (5+5+6 = 16): 5 / 2 = 2.5 → 3 rounds.
        let mut c = two();
        run(&mut c, stun(6), &[5, 5]).expect("stun");
        assert_eq!(c.get("Orc").expect("in").stun, Some((4, 3)));
        // Extraordinary: unaffected.
        let mut c = two();
        run(&mut c, stun(11), &[5, 5]).expect("stun");
        assert_eq!(c.get("Orc").expect("in").stun, None);
        // stun_reduction on: Complete −1.
        let mut c = two();
        run(
            &mut c,
            Command::Set {
                key: "stun_reduction".into(),
                value: "on".into(),
            },
            &[],
        )
        .expect("set");
        run(&mut c, stun(1), &[5, 5]).expect("stun");
        assert_eq!(c.get("Orc").expect("in").stun, Some((3, 5)));
        assert_eq!(c.get("Orc").expect("in").condition_penalty(), -3);
        // Rounds run down at each new round.
        run(&mut c, Command::NextRound, &[]).expect("round");
        assert_eq!(c.get("Orc").expect("in").stun, Some((3, 4)));
    }

    #[test]
    fn lr14_blunt_at_the_head_is_tn_plus_twelve_and_no_wound() {
        let mut c = two();
        let e = run(
            &mut c,
            attack(
                "Boromir",
                "Orc",
                None,
                AttackOption::Blunt { head: true },
                14,
            ),
            &[5, 5],
        )
        .expect("blunt");
        let s = strike(&e);
        assert_eq!((s.tn, s.hit, s.damage.is_none()), (24, true, true));
    }

    #[test]
    fn lr11_lr14_fear_tie_is_marginal_and_degrees_give_their_effects() {
        let fear = |m| Command::Fear {
            attacker: "Orc".into(),
            target: "Boromir".into(),
            modifier: m,
            willpower: 0,
        };
        let mut c = two();
        // 4+4 vs 4+4: tie = Marginal: −1.
        run(&mut c, fear(0), &[4, 4, 4, 4]).expect("fear");
        assert_eq!(c.get("Boromir").expect("in").fear, 1);
        // The same frightener does not test the same fear again (LR-14: a new test needs
        // a new cause, an Inspire).
        refused(&mut c, fear(6), "LR-14");
        run(&mut c, Command::Calm("Boromir".into()), &[]).expect("calm");
        // Superior: −4 and the next turn lost.
        run(&mut c, fear(6), &[4, 4, 4, 4]).expect("fear");
        run(&mut c, Command::NextRound, &[]).expect("round");
        refused(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Move,
                modifier: 0,
                load: Load::Normal,
            },
            "LR-14",
        );
        run(&mut c, Command::NextRound, &[]).expect("round");
        run(
            &mut c,
            Command::Act {
                who: "Boromir".into(),
                act: Act::Move,
                modifier: 0,
                load: Load::Normal,
            },
            &[],
        )
        .expect("acts again");
        assert_eq!(c.get("Boromir").expect("in").fear, 4);
        run(&mut c, Command::Calm("Boromir".into()), &[]).expect("calm");
        assert_eq!(c.get("Boromir").expect("in").fear, 0);
        // fear_tie = retest: the tie is rolled again.
        let mut c = two();
        run(
            &mut c,
            Command::Set {
                key: "fear_tie".into(),
                value: "retest".into(),
            },
            &[],
        )
        .expect("set");
        let e = run(&mut c, fear(0), &[4, 4, 4, 4, 1, 1, 2, 2]).expect("fear");
        let Event::Feared { tests, degree, .. } = &e[0] else {
            panic!()
        };
        assert_eq!((tests.len(), *degree), (2, Degree::Failure));
        assert_eq!(c.get("Boromir").expect("in").fear, 0);
    }

    #[test]
    fn refusals_name_the_rule_and_change_nothing() {
        let mut c = two();
        refused(
            &mut c,
            attack("Nobody", "Orc", None, AttackOption::Basic, 0),
            "LR-14",
        );
        refused(
            &mut c,
            attack("Orc", "Orc", None, AttackOption::Basic, 0),
            "LR-14",
        );
        refused(
            &mut c,
            attack("Orc", "Boromir", None, AttackOption::Basic, 1000),
            "LR-14",
        );
        refused(
            &mut c,
            Command::Join(Box::new(Fighter::new("Orc", 0, 10, 5))),
            "LR-14",
        );
        refused(
            &mut c,
            Command::Set {
                key: "fear_tie".into(),
                value: "sometimes".into(),
            },
            "LR-14",
        );
        refused(&mut c, Command::Stand("Orc".into()), "LR-14");
        let json =
            serde_json::to_string(&run(&mut c, Command::Initiative, &[1, 2, 3, 4]).expect("init"))
                .expect("json");
        assert!(serde_json::from_str::<Vec<Event>>(&json).is_ok());
    }
}
