//! LR-0 to LR-5, LR-8: attributes and their modifiers, secondary attributes, skills,
//! wound levels and the healing formulas, as pure functions of a [`Character`].

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// LR-1: the six attributes, in the sheet's order.
pub const ATTRIBUTES: [&str; 6] = ["BRG", "NIM", "PER", "STR", "VIT", "WIT"];
/// Index of Bearing.
pub const BRG: usize = 0;
/// Index of Nimbleness.
pub const NIM: usize = 1;
/// Index of Perception.
pub const PER: usize = 2;
/// Index of Strength.
pub const STR: usize = 3;
/// Index of Vitality.
pub const VIT: usize = 4;
/// Index of Wits.
pub const WIT: usize = 5;

/// LR-3: the reactions and the two attributes each takes the better modifier of.
pub const REACTIONS: [(&str, usize, usize); 4] = [
    ("Stamina", STR, VIT),
    ("Swiftness", NIM, PER),
    ("Willpower", BRG, WIT),
    ("Wisdom", BRG, PER),
];

/// LR-1: an attribute's ceiling before the racial modifier.
pub const ATTRIBUTE_CAP: i64 = 12;
/// LR-8: most ranks in a skill, and at creation.
pub const MAX_RANKS: i64 = 12;
/// LR-8: most ranks at creation.
pub const MAX_CREATION_RANKS: i64 = 6;
/// LR-8: a specialisation's bonus.
pub const SPECIALISATION_BONUS: i64 = 2;
/// LR-8: an untrained-usable skill tested at rank 0.
pub const UNTRAINED_PENALTY: i64 = -2;
/// LR-3: base Courage.
pub const BASE_COURAGE: i64 = 3;
/// LR-3: base Defence.
pub const BASE_DEFENCE: i64 = 10;

/// The attribute named `word` (`STR`, `Strength`, case-insensitive).
pub fn attribute(word: &str) -> Option<usize> {
    const LONG: [&str; 6] = [
        "BEARING",
        "NIMBLENESS",
        "PERCEPTION",
        "STRENGTH",
        "VITALITY",
        "WITS",
    ];
    let w = word.to_ascii_uppercase();
    ATTRIBUTES
        .iter()
        .position(|a| *a == w)
        .or_else(|| LONG.iter().position(|a| *a == w))
}

/// The reaction named `word` (case-insensitive).
pub fn reaction(word: &str) -> Option<usize> {
    REACTIONS
        .iter()
        .position(|(r, _, _)| r.eq_ignore_ascii_case(word))
}

/// LR-0: `n / d` rounded half up (`n`, `d` > 0): 13.5 → 14, 4.6 → 5.
pub fn div_half_up(n: i64, d: i64) -> i64 {
    if d == 0 {
        return 0;
    }
    let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
    (2 * n + d).div_euclid(2 * d)
}

/// LR-2: the modifier of an attribute value: 0–1 −3, 2 −2, 3 −1, 4–7 0, 8–9 +1, 10–11
/// +2, …, from 18 on +1 for every 2 points.
pub fn modifier(value: i64) -> i64 {
    match value {
        i64::MIN..=1 => -3,
        2 => -2,
        3 => -1,
        4..=7 => 0,
        v => (v - 6) / 2,
    }
}

/// LR-3: size. Elves and Men are Medium, Hobbits and Dwarves Small (race data).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    /// Hobbits, Dwarves.
    Small,
    /// Men, Elves.
    #[default]
    Medium,
    /// One step above Medium.
    Large,
    /// Two steps above Medium.
    Mammoth,
}

impl Size {
    /// Parses `small`, `medium`, `large`, `mammoth`.
    pub fn parse(word: &str) -> Option<Size> {
        match word.to_ascii_lowercase().as_str() {
            "small" => Some(Size::Small),
            "medium" => Some(Size::Medium),
            "large" => Some(Size::Large),
            "mammoth" => Some(Size::Mammoth),
            _ => None,
        }
    }

    /// The word.
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Medium => "medium",
            Size::Large => "large",
            Size::Mammoth => "mammoth",
        }
    }

    /// LR-4: Healthy levels: 1, one more per size step above Medium.
    pub fn healthy_levels(self) -> i64 {
        match self {
            Size::Small | Size::Medium => 1,
            Size::Large => 2,
            Size::Mammoth => 3,
        }
    }
}

/// LR-4: wound levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WoundLevel {
    /// Unhurt or lightly hurt.
    Healthy,
    /// The first level that penalises tests.
    Dazed,
    /// Injured.
    Injured,
    /// Wounded.
    Wounded,
    /// Incapacitated.
    Incapacitated,
    /// Near Death (not for Hobbits).
    NearDeath,
    /// Dead.
    Dead,
}

impl WoundLevel {
    /// Every living level, in order.
    pub const LIVING: [WoundLevel; 6] = [
        WoundLevel::Healthy,
        WoundLevel::Dazed,
        WoundLevel::Injured,
        WoundLevel::Wounded,
        WoundLevel::Incapacitated,
        WoundLevel::NearDeath,
    ];

    /// The rulebook's name.
    pub fn name(self) -> &'static str {
        match self {
            WoundLevel::Healthy => "Healthy",
            WoundLevel::Dazed => "Dazed",
            WoundLevel::Injured => "Injured",
            WoundLevel::Wounded => "Wounded",
            WoundLevel::Incapacitated => "Incapacitated",
            WoundLevel::NearDeath => "Near Death",
            WoundLevel::Dead => "Dead",
        }
    }

    /// Position in [`WoundLevel::LIVING`] (Dead after it).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// LR-4, GM option `hobbit_death`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum HobbitDeath {
    /// Our reading (default): no Near Death; death when Incapacitated overflows.
    #[default]
    Overflow,
    /// Death on reaching Incapacitated.
    OnIncapacitated,
}

/// How a body takes wounds (LR-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Body {
    /// Health: each level is this many points wide.
    pub health: i64,
    /// Size (Healthy levels).
    pub size: Size,
    /// A Hobbit: no Near Death.
    pub hobbit: bool,
}

impl Body {
    /// LR-4: the damage at which the character dies.
    pub fn death_at(&self, hobbit_death: HobbitDeath) -> i64 {
        let k = self.size.healthy_levels();
        let levels = if !self.hobbit {
            k + 5
        } else {
            match hobbit_death {
                HobbitDeath::Overflow => k + 4,
                HobbitDeath::OnIncapacitated => k + 3,
            }
        };
        levels.saturating_mul(self.health.max(1))
    }

    /// LR-4: entry ⌊damage / H⌋ of [Healthy ×k, Dazed, Injured, Wounded, Incapacitated,
    /// Near Death], Dead from [`Body::death_at`].
    pub fn level(&self, damage: i64, hobbit_death: HobbitDeath) -> WoundLevel {
        if damage >= self.death_at(hobbit_death) {
            return WoundLevel::Dead;
        }
        let h = self.health.max(1);
        let k = self.size.healthy_levels();
        let step = damage.max(0) / h;
        if step < k {
            return WoundLevel::Healthy;
        }
        let i = usize::try_from(step - k + 1).unwrap_or(usize::MAX);
        WoundLevel::LIVING
            .get(i)
            .copied()
            .unwrap_or(WoundLevel::Dead)
    }
}

/// LR-4: a successful Healing test sets damage to one below the start of its level.
pub fn healing_result(damage: i64, health: i64) -> i64 {
    let h = health.max(1);
    (h * (damage.max(0) / h) - 1).max(0)
}

/// LR-4: a successful weekly Stamina test heals VIT mod, at least 1.
pub fn weekly_healing(vitality: i64) -> i64 {
    modifier(vitality).max(1)
}

/// LR-4 (Table 9.32): breath held for 1 + Stamina minutes, at least 1.
pub fn breath_minutes(stamina: i64) -> i64 {
    (1 + stamina).max(1)
}

/// LR-4 (Table 9.35): a poison's stage count, rolled once when the poison is created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stages {
    /// One stage.
    One,
    /// 1/2d6, rounded half up (LR-0): 1, 1, 2, 2, 3, 3.
    HalfD6,
    /// 1d6.
    D6,
    /// 2d6.
    TwoD6,
}

impl Stages {
    /// Parses `1`, `1/2d6`, `1d6`, `2d6`.
    pub fn parse(word: &str) -> Option<Stages> {
        match word.to_ascii_lowercase().as_str() {
            "1" => Some(Stages::One),
            "1/2d6" | "half" => Some(Stages::HalfD6),
            "1d6" | "d6" => Some(Stages::D6),
            "2d6" => Some(Stages::TwoD6),
            _ => None,
        }
    }

    /// How many d6 to roll.
    pub fn dice(self) -> i64 {
        match self {
            Stages::One => 0,
            Stages::HalfD6 | Stages::D6 => 1,
            Stages::TwoD6 => 2,
        }
    }

    /// The stage count from the dice rolled.
    pub fn count(self, dice: &[i64]) -> i64 {
        let sum: i64 = dice.iter().sum();
        match self {
            Stages::One => 1,
            Stages::HalfD6 => div_half_up(sum, 2),
            Stages::D6 | Stages::TwoD6 => sum,
        }
    }
}

/// A skill on a character (LR-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Skill {
    /// Ranks 0..=12.
    pub ranks: i64,
    /// The attribute whose modifier it adds.
    pub attribute: usize,
    /// Specialisations (+2 in their field).
    #[serde(default)]
    pub specialisations: Vec<String>,
    /// Affinities the GM accepted (+1 each).
    #[serde(default)]
    pub affinities: i64,
}

/// An edge's Courage bonus per point (LR-6: Bold, Horselord +2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourageEdge {
    /// The edge.
    pub edge: String,
    /// Added per Courage point.
    pub bonus: i64,
    /// The skills it applies to; empty: every test.
    #[serde(default)]
    pub skills: Vec<String>,
}

/// A character's rules-side record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// Race.
    pub race: String,
    /// Order.
    pub order: String,
    /// Current attribute values.
    pub attributes: [i64; 6],
    /// Values at creation (reactions and Health are set from them, LR-3).
    pub created: [i64; 6],
    /// Advances of each reaction.
    #[serde(default)]
    pub reaction_advances: [i64; 4],
    /// Health advances.
    #[serde(default)]
    pub health_advances: i64,
    /// Courage (3 modified by race and order, LR-3).
    pub courage: i64,
    /// Size.
    pub size: Size,
    /// A Hobbit (no Near Death, LR-4).
    #[serde(default)]
    pub hobbit: bool,
    /// Renown.
    #[serde(default)]
    pub renown: i64,
    /// Skills by name.
    #[serde(default)]
    pub skills: BTreeMap<String, Skill>,
    /// Edges.
    #[serde(default)]
    pub edges: Vec<String>,
    /// Flaws.
    #[serde(default)]
    pub flaws: Vec<String>,
    /// Edges that raise the Courage bonus (from the edge data).
    #[serde(default)]
    pub courage_edges: Vec<CourageEdge>,
    /// Old (−4 on weariness tests) or Aged (−8), LR-5.
    #[serde(default)]
    pub age_penalty: i64,
    /// LR-1, LR-12: the skills bought with the order's ranks (its order skills).
    #[serde(default)]
    pub order_skills: Vec<String>,
    /// LR-1: the two favoured attributes.
    #[serde(default)]
    pub favoured: Vec<String>,
    /// LR-3: the favoured reaction.
    #[serde(default)]
    pub favoured_reaction: Option<String>,
    /// Order abilities (Swift Strike adds an action a round, LR-14).
    #[serde(default)]
    pub abilities: Vec<String>,
}

impl Character {
    /// LR-2: every attribute's modifier.
    pub fn modifiers(&self) -> [i64; 6] {
        self.attributes.map(modifier)
    }

    /// LR-3: a reaction: the better of two modifiers at creation, plus its advances (it
    /// does not follow later attribute changes).
    pub fn reaction(&self, i: usize) -> i64 {
        let (_, a, b) = REACTIONS[i];
        modifier(self.created[a]).max(modifier(self.created[b]))
            + self.reaction_advances.get(i).copied().unwrap_or(0)
    }

    /// LR-3: Health = VIT + STR mod at creation, plus advances.
    pub fn health(&self) -> i64 {
        self.created[VIT] + modifier(self.created[STR]) + self.health_advances
    }

    /// LR-3: Defence = 10 + NIM mod (it follows NIM).
    pub fn defence(&self) -> i64 {
        BASE_DEFENCE + modifier(self.attributes[NIM])
    }

    /// LR-3: the most carried unencumbered, encumbered, heavily encumbered.
    pub fn loads(&self) -> [i64; 3] {
        let s = self.attributes[STR];
        [s * 10, s * 20, s * 30]
    }

    /// LR-3: added to melee and thrown weapons' damage.
    pub fn damage_modifier(&self) -> i64 {
        modifier(self.attributes[STR])
    }

    /// The body that takes wounds.
    pub fn body(&self) -> Body {
        Body {
            health: self.health(),
            size: self.size,
            hobbit: self.hobbit,
        }
    }

    /// LR-8: a skill's test modifier: ranks + attribute mod + affinities, +2 in a
    /// specialised field; at rank 0 (untrained-usable) −2. `None`: no such skill.
    pub fn skill_modifier(&self, name: &str, field: Option<&str>) -> Option<i64> {
        let s = self.skills.get(name)?;
        let attr = modifier(*self.attributes.get(s.attribute)?);
        let spec = match field {
            Some(f) if s.specialisations.iter().any(|x| x == f) => SPECIALISATION_BONUS,
            _ => 0,
        };
        let untrained = if s.ranks == 0 { UNTRAINED_PENALTY } else { 0 };
        Some(s.ranks + attr + s.affinities + spec + untrained)
    }

    /// LR-6: what one Courage point adds to a test of `skill`: +3 plus every edge bonus
    /// that applies (Bold and Horselord on Ride: 3 + 2 + 2 = 7). A specialised test
    /// (`Ride/Horse`) is a test of its skill: Horselord's +2 holds on it.
    pub fn courage_per_point(&self, skill: Option<&str>) -> i64 {
        let skill = skill.map(base_skill);
        3 + self
            .courage_edges
            .iter()
            .filter(|e| {
                e.skills.is_empty()
                    || skill.is_some_and(|s| e.skills.iter().any(|x| x.eq_ignore_ascii_case(s)))
            })
            .map(|e| e.bonus)
            .sum::<i64>()
    }
}

/// LR-8: the skill of a test reference with its specialised field (`Ride/Horse` → `Ride`);
/// a plain skill is itself.
pub fn base_skill(reference: &str) -> &str {
    reference
        .split_once('/')
        .map_or(reference, |(skill, _)| skill)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Character {
        // The digest's LR-3 example: STR 9, VIT 12, NIM 7, PER 10, BRG 5, WIT 8.
        let a = [5, 7, 10, 9, 12, 8];
        Character {
            race: "Men".into(),
            order: "Warrior".into(),
            attributes: a,
            created: a,
            reaction_advances: [0; 4],
            health_advances: 0,
            courage: 3,
            size: Size::Medium,
            hobbit: false,
            renown: 0,
            skills: BTreeMap::new(),
            edges: Vec::new(),
            flaws: Vec::new(),
            courage_edges: Vec::new(),
            age_penalty: 0,
            order_skills: Vec::new(),
            favoured: Vec::new(),
            favoured_reaction: None,
            abilities: Vec::new(),
        }
    }

    #[test]
    fn lr2_attribute_modifiers() {
        let got: Vec<i64> = [3, 7, 9, 12, 17, 18, 19, 20].map(modifier).to_vec();
        assert_eq!(got, [-1, 0, 1, 3, 5, 6, 6, 7]);
        assert_eq!(
            [0, 1, 2, 4, 8, 10, 14, 16].map(modifier),
            [-3, -3, -2, 0, 1, 2, 4, 5]
        );
    }

    #[test]
    fn lr0_division_rounds_half_up() {
        assert_eq!(div_half_up(27, 2), 14);
        assert_eq!(div_half_up(23, 5), 5);
        assert_eq!(div_half_up(1000, 3), 333);
        let half: Vec<i64> = (1..=6).map(|d| Stages::HalfD6.count(&[d])).collect();
        assert_eq!(half, [1, 1, 2, 2, 3, 3]);
    }

    #[test]
    fn lr3_secondary_attributes_and_nim_growth() {
        let mut c = example();
        assert_eq!(c.modifiers(), [0, 0, 2, 1, 3, 1]);
        let r: Vec<i64> = (0..4).map(|i| c.reaction(i)).collect();
        assert_eq!(r, [3, 2, 1, 2]);
        assert_eq!(c.health(), 13);
        assert_eq!(c.defence(), 10);
        assert_eq!(c.loads(), [90, 180, 270]);
        assert_eq!(c.damage_modifier(), 1);
        assert_eq!(breath_minutes(c.reaction(0)), 4);
        c.attributes[NIM] = 8;
        assert_eq!(c.defence(), 11);
        assert_eq!(c.reaction(1), 2, "Swiftness stays");
        assert_eq!(c.health(), 13, "Health unchanged");
        assert_eq!(breath_minutes(-1), 1);
    }

    #[test]
    fn lr4_wound_levels() {
        let b = Body {
            health: 10,
            size: Size::Medium,
            hobbit: false,
        };
        let d = HobbitDeath::Overflow;
        let got: Vec<&str> = [9, 10, 20, 30, 40, 50, 60]
            .map(|x| b.level(x, d).name())
            .to_vec();
        assert_eq!(
            got,
            [
                "Healthy",
                "Dazed",
                "Injured",
                "Wounded",
                "Incapacitated",
                "Near Death",
                "Dead"
            ]
        );
        let h = Body {
            hobbit: true,
            size: Size::Small,
            ..b
        };
        assert_eq!(h.level(40, d), WoundLevel::Incapacitated);
        assert_eq!(h.level(50, d), WoundLevel::Dead);
        assert_eq!(h.level(40, HobbitDeath::OnIncapacitated), WoundLevel::Dead);
        let m = Body {
            health: 20,
            size: Size::Mammoth,
            hobbit: false,
        };
        assert_eq!(m.level(59, d), WoundLevel::Healthy);
        assert_eq!(m.level(60, d), WoundLevel::Dazed);
    }

    #[test]
    fn lr4_healing_formulas() {
        let got = [25, 20, 12, 5].map(|d| healing_result(d, 10));
        assert_eq!(got, [19, 19, 9, 0]);
        assert_eq!(weekly_healing(5), 1);
        assert_eq!(weekly_healing(12), 3);
    }

    #[test]
    fn lr6_courage_edges_stack() {
        let mut c = example();
        c.courage_edges = vec![
            CourageEdge {
                edge: "Bold".into(),
                bonus: 2,
                skills: Vec::new(),
            },
            CourageEdge {
                edge: "Horselord".into(),
                bonus: 2,
                skills: vec!["Ride".into()],
            },
        ];
        assert_eq!(c.courage_per_point(Some("Ride")) * 2, 14);
        assert_eq!(c.courage_per_point(Some("Stealth")), 5);
    }

    #[test]
    fn lr8_skill_modifiers() {
        let mut c = example();
        c.skills.insert(
            "Ride".into(),
            Skill {
                ranks: 3,
                attribute: BRG,
                specialisations: vec!["Horse".into()],
                affinities: 1,
            },
        );
        c.skills.insert(
            "Climb".into(),
            Skill {
                ranks: 0,
                attribute: STR,
                ..Skill::default()
            },
        );
        assert_eq!(c.skill_modifier("Ride", None), Some(4));
        assert_eq!(c.skill_modifier("Ride", Some("Horse")), Some(6));
        assert_eq!(
            c.skill_modifier("Climb", None),
            Some(-1),
            "untrained −2, STR +1"
        );
    }
}
