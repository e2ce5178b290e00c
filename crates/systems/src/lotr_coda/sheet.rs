//! LR-1 to LR-3, LR-8: character sheets (TOML, `example-sheet.toml`): read, checked
//! against every creation budget, derived, for `taku sheet --system LotrCoda` and for
//! creating a character at a table from the same file. Race, order, edge and skill data
//! come from `data-example.toml` (EXAMPLE values, "Data the seed lacks").

use super::character::{
    self, ATTRIBUTE_CAP, ATTRIBUTES, BASE_COURAGE, Character, CourageEdge, MAX_CREATION_RANKS,
    MAX_RANKS, Size, Skill, WIT,
};
use super::settings::Settings;
use crate::view::Sheet as View;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use taku_dice::{Lang, Text};

/// LR-1: the pick method's array and its free points.
pub const PICK_ARRAY: [i64; 6] = [10, 9, 7, 7, 5, 4];
/// LR-1: points distributed over the pick array.
pub const PICK_POINTS: i64 = 8;
/// LR-1: the random method rolls 2d6 this many times and keeps the best six.
pub const RANDOM_ROLLS: usize = 9;
/// LR-1: race points (race skills and traits).
pub const RACE_POINTS: i64 = 6;
/// LR-1: most flaws, race and order together.
pub const MAX_FLAWS: usize = 4;
/// LR-1: order ranks, at most [`ORDER_PER_SKILL`] in one skill…
pub const ORDER_RANKS: i64 = 15;
/// …this many in any one skill (binding the 15 only)…
pub const ORDER_PER_SKILL: i64 = 3;
/// …plus these ranks freely.
pub const ORDER_FREE_RANKS: i64 = 5;
/// LR-1: free points.
pub const FREE_POINTS: i64 = 5;
/// LR-1: the language budget is Wits × this.
pub const LANGUAGE_FACTOR: i64 = 3;

/// LR-8: skill groups, which need a field (`Lore: Realm (Gondor)`).
pub const SKILL_GROUPS: [&str; 3] = ["Lore", "Language", "Armed Combat"];

/// The shipped EXAMPLE data.
pub const DATA: &str = include_str!("data-example.toml");

/// A race (EXAMPLE data).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Race {
    /// Racial modifiers by attribute.
    pub modifiers: BTreeMap<String, i64>,
    /// Size.
    pub size: Size,
    /// Courage modifier.
    #[serde(default)]
    pub courage: i64,
    /// No Near Death (LR-4).
    #[serde(default)]
    pub hobbit: bool,
    /// The edges on its list (LR-1: race points and advancement picks buy these; EXAMPLE).
    #[serde(default)]
    pub edges: Vec<String>,
}

/// An order (EXAMPLE data).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Order {
    /// Courage modifier.
    #[serde(default)]
    pub courage: i64,
    /// Its order abilities.
    #[serde(default)]
    pub abilities: Vec<String>,
    /// Its order skills (what advancement picks buy as order skills, LR-12; EXAMPLE).
    #[serde(default)]
    pub skills: Vec<String>,
    /// Its package's edges (LR-1's order edge; LR-12 picks, the translator's note; EXAMPLE).
    #[serde(default)]
    pub edges: Vec<String>,
}

/// An edge (EXAMPLE data).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Edge {
    /// Added per Courage point (LR-6).
    #[serde(default)]
    pub courage_bonus: i64,
    /// The skills that bonus applies to (empty: all).
    #[serde(default)]
    pub skills: Vec<String>,
}

/// The data sheets are checked against.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Data {
    /// Races by name.
    pub races: BTreeMap<String, Race>,
    /// Orders by name.
    pub orders: BTreeMap<String, Order>,
    /// Edges by name.
    pub edges: BTreeMap<String, Edge>,
    /// Skill (or skill group) → attribute.
    pub skills: BTreeMap<String, String>,
}

impl Data {
    /// The shipped example.
    pub fn example() -> Data {
        toml::from_str(DATA).expect("the shipped data parses")
    }

    /// LR-1/LR-12: whether `edge` is on the list of `race` or of one of `orders`
    /// (「種族スキル(Skills)と特徴(Traits): リストの中から」, 「自分の種族の Edge」 and the
    /// order package's edges). `Err` holds the lists it may come from, for the refusal;
    /// when neither the race nor any order is in the data, nothing is checked (`Ok`).
    pub fn edge_allowed<'a>(
        &self,
        edge: &str,
        race: Option<&str>,
        orders: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), EdgeLists> {
        let mut lists = EdgeLists::default();
        if let Some(r) = race.and_then(|r| self.races.get_key_value(r)) {
            lists.lists.push((r.0.clone(), r.1.edges.clone()));
        }
        for o in orders {
            if let Some(o) = self.orders.get_key_value(o) {
                lists.lists.push((o.0.clone(), o.1.edges.clone()));
            }
        }
        if lists.lists.is_empty() || lists.lists.iter().any(|(_, l)| l.iter().any(|e| e == edge)) {
            Ok(())
        } else {
            Err(lists)
        }
    }

    /// The attribute of a skill: its own name, or its group's (`Lore: Realm` → `Lore`).
    pub fn skill_attribute(&self, skill: &str) -> Option<usize> {
        let group = skill.split(':').next().unwrap_or(skill).trim();
        self.skills
            .get(skill)
            .or_else(|| self.skills.get(group))
            .and_then(|a| character::attribute(a))
    }
}

/// The edge lists an edge may come from (LR-1/LR-12), for a refusal that names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EdgeLists {
    /// (race or order, its edges).
    pub lists: Vec<(String, Vec<String>)>,
}

impl EdgeLists {
    /// `Men: Ally, Bold…; Warrior: Hardy…` in Japanese and English.
    pub fn show(&self) -> (String, String) {
        let joined = |item: &str, list: &str| {
            self.lists
                .iter()
                .map(|(n, l)| format!("{n}: {}", l.join(item)))
                .collect::<Vec<_>>()
                .join(list)
        };
        (joined("、", "／"), joined(", ", "; "))
    }
}

/// Where a creation purchase came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// The race's 6 points.
    Race,
    /// The order's package or ranks.
    Order,
    /// The 5 free points.
    Free,
}

/// An edge or flaw on a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct Trait {
    /// Its name.
    pub name: String,
    /// Which budget it came from.
    pub from: Budget,
}

/// A skill on a sheet: ranks by budget.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SheetSkill {
    /// Ranks from the race's points.
    #[serde(default)]
    pub race: i64,
    /// Ranks from the order.
    #[serde(default)]
    pub order: i64,
    /// Ranks from the language budget (Wits × 3).
    #[serde(default)]
    pub languages: i64,
    /// Ranks from the free points.
    #[serde(default)]
    pub free: i64,
    /// Ranks gained since creation (advancement).
    #[serde(default)]
    pub advanced: i64,
    /// The attribute (default: the data's).
    #[serde(default)]
    pub attribute: Option<String>,
    /// Specialisations.
    #[serde(default)]
    pub specialisations: Vec<String>,
    /// Affinities the GM accepted.
    #[serde(default)]
    pub affinities: i64,
}

impl SheetSkill {
    /// Ranks at creation.
    pub fn creation_ranks(&self) -> i64 {
        self.race + self.order + self.languages + self.free
    }
}

/// A sheet as written.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// Name.
    pub name: String,
    /// Race.
    pub race: String,
    /// Order.
    pub order: String,
    /// `pick` or `random`.
    pub method: String,
    /// The nine 2d6 rolls (random method).
    #[serde(default)]
    pub rolls: Vec<i64>,
    /// Attributes before racial modifiers.
    pub base: BTreeMap<String, i64>,
    /// Attribute points bought with free points.
    #[serde(default)]
    pub free_attributes: BTreeMap<String, i64>,
    /// Attribute changes since creation (advancement, loss).
    #[serde(default)]
    pub advanced_attributes: BTreeMap<String, i64>,
    /// Favoured attributes (two).
    #[serde(default)]
    pub favoured: Vec<String>,
    /// Favoured reaction.
    #[serde(default)]
    pub favoured_reaction: Option<String>,
    /// Renown.
    #[serde(default)]
    pub renown: i64,
    /// Order abilities (exactly one at creation).
    #[serde(default)]
    pub order_abilities: Vec<String>,
    /// Edges.
    #[serde(default)]
    pub edges: Vec<Trait>,
    /// Flaws.
    #[serde(default)]
    pub flaws: Vec<Trait>,
    /// Skills.
    #[serde(default)]
    pub skills: BTreeMap<String, SheetSkill>,
}

/// A rule the sheet breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule.
    pub rule: &'static str,
    /// What is wrong, in Japanese.
    pub message: String,
    /// In English.
    pub message_en: String,
}

impl Sheet {
    /// Parses the TOML.
    pub fn from_toml(text: &str) -> Result<Sheet, String> {
        toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|sp| text[..sp.start.min(text.len())].matches('\n').count() + 1);
            match line {
                Some(l) => format!("line {l}: {}", e.message()),
                None => e.message().to_string(),
            }
        })
    }

    /// Why a file is not a LotR sheet ([`Sheet::from_toml`]'s message), in Japanese and
    /// English: the TOML reader's usual messages (a missing or unknown key, a value of
    /// the wrong kind) said in Japanese too, with the line; anything else as it is.
    pub fn parse_error(file: Option<&str>, why: &str) -> Text {
        let (line, rest) = match why.strip_prefix("line ").and_then(|r| r.split_once(": ")) {
            Some((n, r)) => (Some(n), r),
            None => (None, why),
        };
        let quoted = |r: &str| r.split('`').nth(1).map(str::to_string);
        let ja_why = if let Some(k) = rest
            .strip_prefix("missing field")
            .and_then(|_| quoted(rest))
        {
            format!("必要な項目「{k}」がありません")
        } else if let Some(k) = rest
            .strip_prefix("unknown field")
            .and_then(|_| quoted(rest))
        {
            format!(
                "知らない項目「{k}」があります（name, race, order, method, base … は example-sheet.toml を参照）"
            )
        } else if rest.starts_with("invalid type") {
            format!("値の種類が違います（{rest}）")
        } else if rest.starts_with("invalid value") {
            format!("値が正しくありません（{rest}）")
        } else if rest.starts_with("duplicate key") {
            format!("同じ項目が二度あります（{rest}）")
        } else {
            format!("TOML として読めません（{rest}）")
        };
        let at_ja = line.map(|l| format!("{l}行目: ")).unwrap_or_default();
        let at_en = line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let (fj, fe) = match file {
            Some(f) => (format!("{f} は"), f.to_string()),
            None => ("シートは".to_string(), "the sheet".to_string()),
        };
        Text::new(
            format!(
                "{fj}ロード・オブ・ザ・リングのキャラクターシートとして読めません: {at_ja}{ja_why}"
            ),
            format!("{fe} is not a Lord of the Rings character sheet: {at_en}{rest}"),
        )
    }

    fn attr(map: &BTreeMap<String, i64>, i: usize) -> i64 {
        map.iter()
            .filter(|(k, _)| character::attribute(k) == Some(i))
            .map(|(_, v)| *v)
            .sum()
    }

    /// LR-1: the attributes at creation: base + racial modifier (never below 1) + free.
    pub fn created(&self, data: &Data) -> [i64; 6] {
        let race = data.races.get(&self.race);
        std::array::from_fn(|i| {
            let m = race.map_or(0, |r| Self::attr(&r.modifiers, i));
            (Self::attr(&self.base, i) + m).max(1) + Self::attr(&self.free_attributes, i)
        })
    }

    /// The rules-side record it describes.
    pub fn character(&self, data: &Data) -> Character {
        let created = self.created(data);
        let race = data.races.get(&self.race);
        let order = data.orders.get(&self.order);
        let mut skills = BTreeMap::new();
        for (name, s) in &self.skills {
            let attribute = s
                .attribute
                .as_deref()
                .and_then(character::attribute)
                .or_else(|| data.skill_attribute(name))
                .unwrap_or(WIT);
            skills.insert(
                name.clone(),
                Skill {
                    ranks: s.creation_ranks() + s.advanced,
                    attribute,
                    specialisations: s.specialisations.clone(),
                    affinities: s.affinities,
                },
            );
        }
        let edges: Vec<String> = self.edges.iter().map(|e| e.name.clone()).collect();
        let courage_edges = edges
            .iter()
            .filter_map(|e| {
                let d = data.edges.get(e)?;
                (d.courage_bonus != 0).then(|| CourageEdge {
                    edge: e.clone(),
                    bonus: d.courage_bonus,
                    skills: d.skills.clone(),
                })
            })
            .collect();
        Character {
            race: self.race.clone(),
            order: self.order.clone(),
            attributes: std::array::from_fn(|i| {
                created[i] + Self::attr(&self.advanced_attributes, i)
            }),
            created,
            reaction_advances: [0; 4],
            health_advances: 0,
            courage: BASE_COURAGE + race.map_or(0, |r| r.courage) + order.map_or(0, |o| o.courage),
            size: race.map_or(Size::Medium, |r| r.size),
            hobbit: race.is_some_and(|r| r.hobbit),
            renown: self.renown,
            skills,
            edges,
            flaws: self.flaws.iter().map(|f| f.name.clone()).collect(),
            courage_edges,
            age_penalty: 0,
            order_skills: self
                .skills
                .iter()
                .filter(|(_, s)| s.order > 0)
                .map(|(n, _)| n.clone())
                .collect(),
            favoured: self.favoured.clone(),
            favoured_reaction: self.favoured_reaction.clone(),
            abilities: self.order_abilities.clone(),
        }
    }

    /// LR-1's attribute rules alone: the attribute names, the creation method (pick:
    /// 10, 9, 7, 7, 5, 4 + 8 points, none above 12; random: the best six of the nine
    /// 2d6) and the racial maximum. `violations_with` checks these first; a character
    /// created at a table (`/lotr create`) is checked by this same code.
    pub fn attribute_violations(&self, data: &Data) -> Vec<Violation> {
        let mut v = Vec::new();
        let mut push = |rule, ja: String, en: String| {
            v.push(Violation {
                rule,
                message: ja,
                message_en: en,
            })
        };
        for k in self
            .base
            .keys()
            .chain(self.free_attributes.keys())
            .chain(self.advanced_attributes.keys())
        {
            if character::attribute(k).is_none() {
                push(
                    "LR-1",
                    format!("能力値「{k}」はありません（BRG NIM PER STR VIT WIT）"),
                    format!("no attribute '{k}' (BRG NIM PER STR VIT WIT)"),
                );
            }
        }
        let base: [i64; 6] = std::array::from_fn(|i| Self::attr(&self.base, i));
        // LR-1: the two creation methods.
        match self.method.as_str() {
            "pick" => {
                let mut sorted = base;
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                let total: i64 = base.iter().sum();
                let fits = sorted.iter().zip(PICK_ARRAY).all(|(b, p)| *b >= p);
                // Which value falls below the one it must come from (highest first).
                let short = sorted
                    .iter()
                    .zip(PICK_ARRAY)
                    .find(|(b, p)| **b < *p)
                    .map(|(b, p)| {
                        (
                            format!("、{b} は元の値 {p} より小さい"),
                            format!("; {b} is below the {p} it must come from"),
                        )
                    })
                    .unwrap_or_default();
                if !fits || total != PICK_ARRAY.iter().sum::<i64>() + PICK_POINTS {
                    push(
                        "LR-1",
                        format!(
                            "選択法: 10,9,7,7,5,4 に8点を配分した値になっていません（合計{total}、必要{}{}）",
                            PICK_ARRAY.iter().sum::<i64>() + PICK_POINTS,
                            short.0
                        ),
                        format!(
                            "pick method: not 10, 9, 7, 7, 5, 4 plus 8 points (total {total}, must be {}{})",
                            PICK_ARRAY.iter().sum::<i64>() + PICK_POINTS,
                            short.1
                        ),
                    );
                }
                for (i, b) in base.iter().enumerate() {
                    if *b > ATTRIBUTE_CAP {
                        push(
                            "LR-1",
                            format!("選択法: {} {b} は12を超えています", ATTRIBUTES[i]),
                            format!("pick method: {} {b} is above 12", ATTRIBUTES[i]),
                        );
                    }
                }
            }
            "random" => {
                if self.rolls.len() != RANDOM_ROLLS
                    || self.rolls.iter().any(|r| !(2..=12).contains(r))
                {
                    push(
                        "LR-1",
                        "ランダム法: rolls に2D6の結果（2〜12）を9つ書いてください".into(),
                        "random method: rolls must hold nine 2d6 results (2..12)".into(),
                    );
                } else {
                    let mut best = self.rolls.clone();
                    best.sort_unstable_by(|a, b| b.cmp(a));
                    best.truncate(6);
                    let mut got = base.to_vec();
                    got.sort_unstable_by(|a, b| b.cmp(a));
                    if got != best {
                        push(
                            "LR-1",
                            format!(
                                "ランダム法: 能力値は9回の2D6のうち高い6つ（{best:?}）の割り振りです"
                            ),
                            format!(
                                "random method: the attributes are the best six of the nine rolls ({best:?}), assigned"
                            ),
                        );
                    }
                }
            }
            m => push(
                "LR-1",
                format!("作成方法「{m}」は pick か random"),
                format!("creation method '{m}' must be pick or random"),
            ),
        }
        // LR-1: racial maximum 12 + racial modifier, minimum 1.
        let race = data.races.get(&self.race);
        let created = self.created(data);
        for i in 0..6 {
            let m = race.map_or(0, |r| Self::attr(&r.modifiers, i));
            let max = ATTRIBUTE_CAP + m;
            if created[i] > max {
                push(
                    "LR-1",
                    format!(
                        "{} {} は上限 12{:+} = {max} を超えています",
                        ATTRIBUTES[i], created[i], m
                    ),
                    format!(
                        "{} {} is above its maximum 12{:+} = {max}",
                        ATTRIBUTES[i], created[i], m
                    ),
                );
            }
        }
        v
    }

    /// Every rule it breaks, against `data` and `settings`.
    pub fn violations_with(&self, data: &Data, settings: &Settings) -> Vec<Violation> {
        let mut v = self.attribute_violations(data);
        let mut push = |rule, ja: String, en: String| {
            v.push(Violation {
                rule,
                message: ja,
                message_en: en,
            })
        };
        if self.favoured.len() != 2
            || self
                .favoured
                .iter()
                .any(|f| character::attribute(f).is_none())
            || character::attribute(&self.favoured[0]) == character::attribute(&self.favoured[1])
        {
            push(
                "LR-1",
                "得意能力値（favoured）を別々に2つ選んでください".into(),
                "choose two different favoured attributes".into(),
            );
        }
        if self
            .favoured_reaction
            .as_deref()
            .is_none_or(|r| character::reaction(r).is_none())
        {
            push(
                "LR-3",
                "得意反応値（favoured_reaction）を1つ選んでください（Stamina Swiftness Willpower Wisdom）".into(),
                "choose one favoured reaction (Stamina Swiftness Willpower Wisdom)".into(),
            );
        }
        // LR-1 budgets.
        let from = |list: &[Trait], f: Budget| list.iter().filter(|t| t.from == f).count() as i64;
        let race_ranks: i64 = self.skills.values().map(|s| s.race).sum();
        let race_budget = RACE_POINTS + from(&self.flaws, Budget::Race);
        let race_spent = race_ranks + from(&self.edges, Budget::Race);
        if race_spent > race_budget {
            push(
                "LR-1",
                format!(
                    "種族の技能・特徴に{race_spent}点（上限{RACE_POINTS}＋種族の欠点{}）",
                    from(&self.flaws, Budget::Race)
                ),
                format!(
                    "race skills and edges cost {race_spent} points (budget {RACE_POINTS} + {} race flaws)",
                    from(&self.flaws, Budget::Race)
                ),
            );
        }
        if self.flaws.len() > MAX_FLAWS {
            push(
                "LR-1",
                format!(
                    "欠点は種族・職業あわせて{MAX_FLAWS}つまで（{}）",
                    self.flaws.len()
                ),
                format!(
                    "at most {MAX_FLAWS} flaws, race and order together ({})",
                    self.flaws.len()
                ),
            );
        }
        let order_total: i64 = self.skills.values().map(|s| s.order).sum();
        let over_three: i64 = self
            .skills
            .values()
            .map(|s| (s.order - ORDER_PER_SKILL).max(0))
            .sum();
        if order_total > ORDER_RANKS + ORDER_FREE_RANKS || over_three > ORDER_FREE_RANKS {
            push(
                "LR-1",
                format!(
                    "職業技能: 15ランク（1技能3まで）＋自由5ランクを超えています（合計{order_total}、3を超える分{over_three}）"
                ),
                format!(
                    "order skills: more than 15 ranks (3 at most in one) + 5 free ranks (total {order_total}, {over_three} above 3)"
                ),
            );
        }
        // An edge or flaw needs a name (lotr8 F3).
        if self
            .edges
            .iter()
            .chain(&self.flaws)
            .any(|t| t.name.trim().is_empty())
        {
            push(
                "LR-1",
                "名前のない特徴・欠点があります（name = \"Bold\" のように書いてください）".into(),
                "an edge or flaw has no name (write name = \"Bold\")".into(),
            );
        }
        // LR-1 free points are spent, never refunded: a negative one buys nothing back
        // (lotr8 F18).
        for (k, n) in &self.free_attributes {
            if *n < 0 {
                push(
                    "LR-1",
                    format!(
                        "自由点で能力値を下げることはできません（{k} {n}）。0以上を書いてください"
                    ),
                    format!("free points cannot lower an attribute ({k} {n}); write 0 or more"),
                );
            }
        }
        // LR-1 「種族スキル(Skills)と特徴(Traits): リストの中から」: a race edge from the
        // race's list, an order edge from the order's package, a free point's edge from
        // either (free points are spent 「成長ポイントと同様に」, LR-12).
        for e in &self.edges {
            let (race, orders): (Option<&str>, Vec<&str>) = match e.from {
                Budget::Race => (Some(&self.race), vec![]),
                Budget::Order => (None, vec![self.order.as_str()]),
                Budget::Free => (Some(&self.race), vec![self.order.as_str()]),
            };
            if let Err(lists) = data.edge_allowed(&e.name, race, orders) {
                let (ja, en) = lists.show();
                push(
                    "LR-1",
                    format!("特徴「{}」はリストにありません（{ja}）", e.name),
                    format!("the edge '{}' is not on the list ({en})", e.name),
                );
            }
        }
        let order_edges = from(&self.edges, Budget::Order);
        if order_edges > 1 + from(&self.flaws, Budget::Order) {
            push(
                "LR-1",
                format!("職業の特徴は1つ（＋職業の欠点の数）まで（{order_edges}）"),
                format!("one order edge (plus one per order flaw) ({order_edges})"),
            );
        }
        if self.order_abilities.len() != 1 {
            push(
                "LR-1",
                format!("職業能力はちょうど1つ（{}）", self.order_abilities.len()),
                format!("exactly one order ability ({})", self.order_abilities.len()),
            );
        }
        if let Some(order) = data.orders.get(&self.order) {
            for a in &self.order_abilities {
                if !order.abilities.contains(a) {
                    push(
                        "LR-1",
                        format!(
                            "職業能力「{a}」は{}のものではありません（{}の能力: {}）",
                            self.order,
                            self.order,
                            order.abilities.join("、")
                        ),
                        format!(
                            "order ability '{a}' is not one of {}'s ({}'s: {})",
                            self.order,
                            self.order,
                            order.abilities.join(", ")
                        ),
                    );
                }
            }
        }
        let wits = self.created(data)[WIT];
        let mut languages = 0;
        for (name, s) in &self.skills {
            if s.languages > 0 && !settings.is_language(name) {
                push(
                    "LR-1",
                    format!(
                        "【{name}】は言語の予算で取れません（{}）",
                        settings.language_skills.join("、")
                    ),
                    format!(
                        "【{name}】 is not bought with the language budget ({})",
                        settings.language_skills.join(", ")
                    ),
                );
            }
            languages += s.languages;
        }
        if languages > wits * LANGUAGE_FACTOR {
            push(
                "LR-1",
                format!(
                    "言語・知識に{languages}ランク（上限 Wits {wits}×3 = {}）",
                    wits * LANGUAGE_FACTOR
                ),
                format!(
                    "{languages} language ranks (budget Wits {wits} × 3 = {})",
                    wits * LANGUAGE_FACTOR
                ),
            );
        }
        // LR-8: specialisations.
        let specs: i64 = self
            .skills
            .values()
            .map(|s| s.specialisations.len() as i64)
            .sum();
        let extra_specs = (specs - 1).max(0);
        let free = self.free_attributes.values().sum::<i64>()
            + self.skills.values().map(|s| s.free).sum::<i64>()
            + from(&self.edges, Budget::Free)
            + extra_specs;
        if free > FREE_POINTS {
            push(
                "LR-1",
                format!(
                    "自由点{free}点（能力値・技能・特徴、2つ目からの専門化1点ずつ。上限{FREE_POINTS}）"
                ),
                format!(
                    "{free} free points (attributes, ranks, edges, 1 per specialisation after the first; budget {FREE_POINTS})"
                ),
            );
        }
        // LR-8: 「知識,言語といった技能は,技能グループと呼ばれ…特定の分野に専門化する必要が
        // ある」 (and Armed Combat's weapon groups): a group needs its field.
        for name in self.skills.keys() {
            if SKILL_GROUPS.contains(&name.trim()) {
                let example = match name.trim() {
                    "Armed Combat" => "Armed Combat: Blades",
                    "Language" => "Language: Westron",
                    "Craft" => "Craft: Smithing",
                    _ => "Lore: Realm (Gondor)",
                };
                push(
                    "LR-8",
                    format!("技能グループ「{name}」には分野が要ります（例: {example}）"),
                    format!("the skill group '{name}' needs a field (e.g. {example})"),
                );
            }
        }
        for (name, s) in &self.skills {
            let ranks = s.creation_ranks();
            if ranks > MAX_CREATION_RANKS {
                push(
                    "LR-1",
                    format!("【{name}】{ranks}ランク: 作成時は6まで"),
                    format!("【{name}】 {ranks} ranks: 6 at most at creation"),
                );
            }
            if ranks + s.advanced > MAX_RANKS
                || [s.race, s.order, s.languages, s.free, s.advanced]
                    .iter()
                    .any(|r| *r < 0)
            {
                push(
                    "LR-8",
                    format!("【{name}】のランクは0〜12"),
                    format!("【{name}】's ranks are 0..12"),
                );
            }
            if !s.specialisations.is_empty() && ranks + s.advanced == 0 {
                push(
                    "LR-8",
                    format!("【{name}】: ランク0の技能は専門化できません"),
                    format!("【{name}】: a rank-0 skill cannot be specialised"),
                );
            }
            if (s.specialisations.len() > 1 || s.specialisations.iter().any(|f| f.contains(',')))
                && !settings.multi_field_specialisation
            {
                push(
                    "LR-8",
                    format!("【{name}】: 専門化は1分野ずつ（multi_field_specialisation が off）"),
                    format!(
                        "【{name}】: one field per specialisation (multi_field_specialisation is off)"
                    ),
                );
            }
            if s.attribute
                .as_deref()
                .is_some_and(|a| character::attribute(a).is_none())
            {
                push(
                    "LR-8",
                    format!("【{name}】: 能力値の名前が違います"),
                    format!("【{name}】: not an attribute name"),
                );
            }
        }
        v
    }

    /// Every rule it breaks, against the example data and default settings.
    pub fn violations(&self) -> Vec<Violation> {
        self.violations_with(&Data::example(), &Settings::default())
    }

    /// Its derived sheet.
    pub fn view(&self) -> View {
        View {
            sections: super::rules::sheet_sections(
                &super::rules::State::default(),
                &self.name,
                &self.character(&Data::example()),
            ),
        }
    }

    /// The sheet, derived values and violations as text.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = format!("{}\n{}\n", self.name, self.view().render_text(lang));
        let data = Data::example();
        if !data.races.contains_key(&self.race) || !data.orders.contains_key(&self.order) {
            out.push_str(match lang {
                Lang::Ja => "注意: 例のデータにない種族か職業です（種族修正・職業能力を確かめていません）\n",
                Lang::En => "note: a race or order not in the example data (racial modifiers and order abilities not checked)\n",
            });
        }
        let v = self.violations();
        if v.is_empty() {
            out.push_str(match lang {
                Lang::Ja => "ルール違反なし\n",
                Lang::En => "no rule broken\n",
            });
        }
        for x in v {
            let (word, m) = match lang {
                Lang::Ja => ("違反", &x.message),
                Lang::En => ("violation", &x.message_en),
            };
            out.push_str(&format!("{word} {}: {m}\n", x.rule));
        }
        out
    }

    /// As JSON: the sheet, its derived sections and its violations.
    pub fn report(&self, lang: Lang) -> serde_json::Value {
        serde_json::json!({
            "sheet": self,
            "derived": self.view().to_json(lang),
            "violations": self.violations(),
        })
    }

    /// The fields a table's character gets: the record as the rules read it back, and a
    /// random-method sheet's nine rolls (`rolls`: a table checks them against the 2d6 it
    /// rolled for the character, LR-1).
    pub fn fields(&self) -> Vec<(String, String)> {
        let mut f = super::rules::to_fields(&self.character(&Data::example()));
        if self.method == "random" {
            let rolls: Vec<String> = self.rolls.iter().map(i64::to_string).collect();
            f.push(("rolls".into(), rolls.join(",")));
        }
        f
    }
}

#[cfg(test)]
mod tests {

    /// The sheet's parse errors in Japanese and English (issue 16): a missing key, an
    /// unknown one, with the line.
    #[test]
    fn parse_errors_speak_both_languages() {
        let e = Sheet::from_toml("race = \"Men\"\n").expect_err("no name");
        let t = Sheet::parse_error(Some("a.toml"), &e);
        assert!(
            t.ja().contains("a.toml はロード・オブ・ザ・リング"),
            "{}",
            t.ja()
        );
        assert!(
            t.ja().contains("必要な項目「name」がありません"),
            "{}",
            t.ja()
        );
        assert!(
            t.en()
                .contains("a.toml is not a Lord of the Rings character sheet")
        );
        assert!(t.en().contains("missing field `name`"), "{}", t.en());
        let sheet =
            include_str!("example-sheet.toml").replace("renown = 0", "renown = 0\nbogus = 1");
        let e = Sheet::from_toml(&sheet).expect_err("unknown key");
        let t = Sheet::parse_error(None, &e);
        assert!(
            t.ja().starts_with("シートは") && t.ja().contains("知らない項目「bogus」"),
            "{}",
            t.ja()
        );
        assert!(t.ja().contains("行目"), "{}", t.ja());
        assert!(
            t.en().contains("line ") && t.en().contains("bogus"),
            "{}",
            t.en()
        );
    }

    use super::*;

    const EXAMPLE: &str = include_str!("example-sheet.toml");

    #[test]
    fn the_sheets_fields_give_back_its_record() {
        let s = Sheet::from_toml(EXAMPLE).expect("parses");
        let ch = s.character(&Data::example());
        let fields: BTreeMap<String, String> = s.fields().into_iter().collect();
        assert_eq!(super::super::rules::from_fields(&fields), Some(ch));
    }

    #[test]
    fn the_example_sheet_is_valid_and_derived() {
        let s = Sheet::from_toml(EXAMPLE).expect("parses");
        assert!(s.violations().is_empty(), "{:?}", s.violations());
        let text = s.render(Lang::En);
        assert!(text.contains("Defence"), "{text}");
    }

    fn rules(s: &Sheet) -> Vec<&'static str> {
        s.violations().iter().map(|v| v.rule).collect()
    }

    #[test]
    fn lr1_pick_method_example() {
        let mut s = Sheet::from_toml(EXAMPLE).expect("parses");
        s.race = "Men".into();
        s.base = ATTRIBUTES
            .iter()
            .zip([12, 11, 9, 8, 6, 4])
            .map(|(a, v)| (a.to_string(), v))
            .collect();
        s.free_attributes.clear();
        s.skills.retain(|_, k| k.free == 0);
        s.edges.retain(|e| e.from != Budget::Free);
        let v = s.violations();
        assert!(
            v.iter()
                .all(|x| x.rule != "LR-1" || !x.message_en.contains("pick")),
            "{v:?}"
        );
        // 10 + 3 = 13: above 12.
        s.base.insert("BRG".into(), 13);
        s.base.insert("NIM".into(), 10);
        let v = s.violations();
        assert!(v.iter().any(|x| x.message_en.contains("above 12")), "{v:?}");
    }

    /// LR-8: 「知識,言語といった技能は,技能グループと呼ばれ, 地域知識,歴史知識といった特定の
    /// 分野に専門化する必要がある」 — `Lore` alone is refused, `Lore: Realm (Rohan)` is not.
    /// LR-1: 「「得意能力(favored attribute)」を 二つ選択する」 — two different ones.
    #[test]
    fn lr8_groups_need_a_field_and_lr1_two_favoured() {
        let mut s = Sheet::from_toml(EXAMPLE).expect("parses");
        let k = s.skills.remove("Climb").expect("Climb");
        s.skills.insert("Lore".into(), k);
        let v = s.violations();
        assert!(
            v.iter()
                .any(|x| x.rule == "LR-8" && x.message_en.contains("'Lore' needs a field")),
            "{v:?}"
        );
        let mut s = Sheet::from_toml(EXAMPLE).expect("parses");
        s.favoured = vec!["BRG".into(), "BRG".into()];
        assert!(
            s.violations()
                .iter()
                .any(|x| x.message_en.contains("two different favoured"))
        );
    }

    /// LR-1: a pick that sums right but takes a value below the one it comes from names it.
    #[test]
    fn lr1_pick_refusal_names_the_short_value() {
        let mut s = Sheet::from_toml(EXAMPLE).expect("parses");
        s.base = ATTRIBUTES
            .iter()
            .zip([11, 11, 11, 11, 4, 2])
            .map(|(a, v)| (a.to_string(), v))
            .collect();
        let v = s.attribute_violations(&Data::example());
        assert!(
            v.iter()
                .any(|x| x.message_en.contains("4 is below the 5 it must come from")),
            "{v:?}"
        );
    }

    #[test]
    fn lr1_language_budget_example() {
        let mut s = Sheet::from_toml(EXAMPLE).expect("parses");
        s.race = "Men".into();
        s.base = ATTRIBUTES
            .iter()
            .zip([12, 11, 9, 8, 4, 6])
            .map(|(a, v)| (a.to_string(), v))
            .collect();
        s.free_attributes.clear();
        s.skills.clear();
        for (n, r) in [
            ("Language: Westron", 3),
            ("Language: Sindarin", 1),
            ("Language: Quenya", 1),
            ("Lore: History (Gondor)", 5),
            ("Lore: Realm (Gondor)", 4),
            ("Lore: Heraldry", 4),
        ] {
            s.skills.insert(
                n.into(),
                SheetSkill {
                    languages: r,
                    ..SheetSkill::default()
                },
            );
        }
        assert!(
            !rules(&s).contains(&"LR-1")
                || s.violations()
                    .iter()
                    .all(|v| !v.message_en.contains("language")),
            "{:?}",
            s.violations()
        );
        s.skills.get_mut("Lore: Heraldry").expect("skill").languages = 5;
        assert!(
            s.violations()
                .iter()
                .any(|v| v.message_en.contains("19 language ranks")),
            "{:?}",
            s.violations()
        );
    }

    #[test]
    fn lr8_no_specialisation_on_rank_zero_and_the_budgets() {
        let mut s = Sheet::from_toml(EXAMPLE).expect("parses");
        s.skills.insert(
            "Swim".into(),
            SheetSkill {
                specialisations: vec!["Rivers".into()],
                ..SheetSkill::default()
            },
        );
        assert!(rules(&s).contains(&"LR-8"), "{:?}", s.violations());
        let mut s = Sheet::from_toml(EXAMPLE).expect("parses");
        s.skills.entry("Ride".into()).or_default().order = 7;
        let v = s.violations();
        assert!(
            v.iter().any(|x| x.message_en.contains("6 at most")),
            "{v:?}"
        );
        assert!(
            v.iter().any(|x| x.message_en.contains("order skills")),
            "{v:?}"
        );
        s.flaws = (0..5)
            .map(|i| Trait {
                name: format!("F{i}"),
                from: Budget::Order,
            })
            .collect();
        assert!(
            s.violations()
                .iter()
                .any(|x| x.message_en.contains("at most 4 flaws"))
        );
        s.order_abilities.push("Evasion".into());
        assert!(
            s.violations()
                .iter()
                .any(|x| x.message_en.contains("exactly one order ability"))
        );
    }
}
