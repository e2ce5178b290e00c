//! MT-3: the exact chance that an action check (MT-2) succeeds, given only what the player
//! knows — the multiset of the library's cards below the known top cards, in a uniformly
//! random order.
//!
//! [`check_odds`] answers one check ([`CheckKind`] and difficulty), [`odds_table`] every
//! kind × difficulty 0–8; both give exact fractions ([`Odds`]), which
//! [`percent`](crate::another_world::af_odds::percent) rounds for display. The table rules
//! refuse a check whose probability is 0 or 1 (MT-3: the player can already know its
//! result).
//!
//! The key decision: nothing is simulated and no order is enumerated. Equal cards are
//! grouped, and every equally likely (top card, second card, colour choice) outcome is
//! counted in integers: the ordered pair of cards drawn without replacement has weight
//! `c_t·c_a − [same card]·c_t`, and a card of `k` colours gives each colour weight 60/k, so
//! the counts stay whole. Only the margin achievement − (top card's mana value) and how
//! many of the two cards are colourless matter afterwards, so a kind is one short
//! histogram over those, read against each difficulty. A boost (when the check would
//! otherwise fail) adds the number of colourless cards among the next 6 of the N − 2 cards
//! left, which is hypergeometric; its tail counts are exact binomial coefficients in
//! [`BigUint`], so no library size overflows.

use super::card::{Card, Colour};
use super::check::{BOOST_CARDS, colour_modifier};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The kind of an action check (MT-2): one of the five colours, or colourless.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CheckKind {
    /// A colour's check (白/青/黒/赤/緑判定): +5 for that colour, +3 for a friendly one.
    Colour(Colour),
    /// The colourless check (色のない判定): no colour modifier.
    Colourless,
}

/// The exact probabilities of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odds {
    /// The check succeeds (achievement ≥ target), boosting when asked to and it helps.
    pub success: BigRational,
    /// The check would fail without a boost and a boost is allowed (at least 6 cards
    /// below the two revealed), so the boost is used; 0 when boosting was not asked for.
    pub boost_used: BigRational,
}

/// Why no odds could be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OddsError {
    /// MT-2 step 2: fewer than 2 cards below the known ones, so the check cannot be made.
    TooFewCards {
        /// Cards in the library below the known ones.
        left: usize,
    },
}

impl fmt::Display for OddsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewCards { left } => write!(
                f,
                "the library has {left} card(s) below the known ones; a check needs at least 2 \
                 (MT-2 step 2), so it cannot be made and has no odds"
            ),
        }
    }
}

impl std::error::Error for OddsError {}

impl OddsError {
    /// The message in Japanese and English (the English is this error's `Display`).
    pub fn text(&self) -> taku_dice::Text {
        match self {
            Self::TooFewCards { left } => taku_dice::Text::new(
                format!(
                    "ライブラリーの既知のカードより下が{left}枚です。行動判定には2枚以上必要なので\
                     （MT-2 手順2）、判定できず成功確率もありません"
                ),
                self.to_string(),
            ),
        }
    }
}

impl CheckKind {
    /// The six kinds, in the order of the rules: white, blue, black, red, green,
    /// colourless.
    pub const ALL: [CheckKind; 6] = [
        CheckKind::Colour(Colour::W),
        CheckKind::Colour(Colour::U),
        CheckKind::Colour(Colour::B),
        CheckKind::Colour(Colour::R),
        CheckKind::Colour(Colour::G),
        CheckKind::Colourless,
    ];

    /// Reads a kind: anything [`Colour::parse`] reads, or `colourless`, `colorless`, `c`,
    /// `無色`, `色のない` (any case).
    pub fn parse(text: &str) -> Option<CheckKind> {
        // The seed's own words (「白判定、青判定、黒判定、赤判定、緑判定、色のない判定」),
        // `green check`, and full-width letters (ＧＲＥＥＮ) read as the kind.
        let folded: String = text
            .trim()
            .chars()
            .map(|c| match c {
                '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                _ => c,
            })
            .collect::<String>()
            .to_lowercase();
        let word = folded
            .strip_suffix("判定")
            .or_else(|| folded.strip_suffix(" check"))
            .unwrap_or(&folded)
            .trim();
        match word {
            "colourless" | "colorless" | "c" | "無色" | "色のない" => {
                Some(CheckKind::Colourless)
            }
            other => Colour::parse(other).map(CheckKind::Colour),
        }
    }
}

/// MT-2/MT-3: the exact probability that a check of `kind` at `difficulty` succeeds on
/// `library` — the cards below the known top ones, in any order (the order is unknown,
/// so every order is equally likely). With `boost`, the player boosts exactly when the
/// check would otherwise fail and at least 6 cards remain below the two revealed ones.
pub fn check_odds(
    library: &[Card],
    kind: CheckKind,
    difficulty: i64,
    boost: bool,
) -> Result<Odds, OddsError> {
    let setup = Setup::new(library, boost)?;
    Ok(setup.histogram(kind).odds(&setup, difficulty))
}

/// Success probabilities by kind, each row by difficulty: `(kind, [(difficulty, P)])`.
pub type OddsTable = Vec<(CheckKind, Vec<(i64, BigRational)>)>;

/// The probability of success for every kind (in [`CheckKind::ALL`] order) and every
/// difficulty 0–8, as [`check_odds`] would give it.
pub fn odds_table(library: &[Card], boost: bool) -> Result<OddsTable, OddsError> {
    let setup = Setup::new(library, boost)?;
    Ok(CheckKind::ALL
        .iter()
        .map(|&kind| {
            let histogram = setup.histogram(kind);
            let row = (0..=8)
                .map(|d| (d, histogram.odds(&setup, d).success))
                .collect();
            (kind, row)
        })
        .collect())
}

/// A common multiple of 1..=5, the numbers of colours a card can count as: a card of `k`
/// colours gives each colour weight `COLOUR_WEIGHT / k`, a whole number.
const COLOUR_WEIGHT: u128 = 60;

/// Equal cards (for a check) grouped, and what a boost could add.
struct Setup {
    /// Distinct cards as the check sees them, with how many of each.
    groups: Vec<(Group, u128)>,
    /// Cards in the library (N).
    total: u128,
    /// The boost's tail counts by how many of the two revealed cards are colourless
    /// (0, 1, 2): entry `r − 1` is how many of the C(N − 2, 6) equally likely sets of
    /// boost cards hold at least `r` colourless cards, r = 1..=6. `None`: no boost (not
    /// asked for, or fewer than 6 cards below the revealed two).
    boost: Option<[[BigUint; BOOST_CARDS]; 3]>,
    /// C(N − 2, 6) with a boost, else 1: every boost outcome is counted out of this.
    boost_sets: BigUint,
}

/// What a check reads of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Group {
    /// Mana value.
    mana_value: u32,
    /// Bits of the colours it counts as in the achievement step (`check_colours`).
    check_colours: u8,
    /// Colourless for a boost.
    colourless: bool,
}

/// For one kind: the weight of each (how many of the two revealed cards are colourless,
/// achievement − top card's mana value) outcome, out of N·(N − 1)·60.
struct Histogram {
    weights: [BTreeMap<i64, u128>; 3],
}

impl Setup {
    /// Groups the library; MT-2 step 2 refuses fewer than 2 cards.
    fn new(library: &[Card], boost: bool) -> Result<Setup, OddsError> {
        if library.len() < 2 {
            return Err(OddsError::TooFewCards {
                left: library.len(),
            });
        }
        let mut counts: BTreeMap<Group, u128> = BTreeMap::new();
        for card in library {
            let group = Group {
                mana_value: card.mana_value,
                check_colours: card.check_colours().0 & 0x1f,
                colourless: card.colourless(),
            };
            *counts.entry(group).or_default() += 1;
        }
        let total = library.len() as u128;
        let colourless = library.iter().filter(|c| c.colourless()).count();
        let below = library.len() - 2;
        let boost = (boost && below >= BOOST_CARDS).then(|| {
            // A split the library cannot give (more colourless revealed than it holds)
            // has no weight; its tails are never read.
            [0, 1, 2].map(|revealed| boost_tails(below, colourless.saturating_sub(revealed)))
        });
        let boost_sets = if boost.is_some() {
            binomial(below, BOOST_CARDS)
        } else {
            BigUint::one()
        };
        Ok(Setup {
            groups: counts.into_iter().collect(),
            total,
            boost,
            boost_sets,
        })
    }

    /// MT-2 steps 3–4 for `kind`: every (top card, second card, colour) outcome, weighted
    /// by how many of the N·(N − 1)·60 equally likely draws give it.
    fn histogram(&self, kind: CheckKind) -> Histogram {
        // The achievement side of each group: (achievement, weight per copy) per colour
        // it may count as (one entry of weight 60 for a colourless card).
        let achievements: Vec<Vec<(i64, u128)>> = self
            .groups
            .iter()
            .map(|(g, _)| achievement_choices(*g, kind))
            .collect();
        let mut weights: [BTreeMap<i64, u128>; 3] = Default::default();
        for (t, (top, top_count)) in self.groups.iter().enumerate() {
            for (a, (second, second_count)) in self.groups.iter().enumerate() {
                // Drawn without replacement: the second card cannot be the top one.
                let copies = if t == a {
                    second_count - 1
                } else {
                    *second_count
                };
                let pairs = top_count * copies;
                if pairs == 0 {
                    continue;
                }
                let colourless = usize::from(top.colourless) + usize::from(second.colourless);
                for &(achievement, weight) in &achievements[a] {
                    let margin = achievement - i64::from(top.mana_value);
                    *weights[colourless].entry(margin).or_default() += pairs * weight;
                }
            }
        }
        Histogram { weights }
    }
}

impl Histogram {
    /// MT-2 steps 3–6 at `difficulty`: success iff achievement (+ boost) ≥ target, where
    /// target = top card's mana value + difficulty.
    fn odds(&self, setup: &Setup, difficulty: i64) -> Odds {
        let mut success = BigUint::zero();
        let mut boosted: u128 = 0;
        for (colourless, weights) in self.weights.iter().enumerate() {
            for (&margin, &weight) in weights {
                // How much the achievement falls short of the target.
                let short = i128::from(difficulty) - i128::from(margin);
                if short <= 0 {
                    success += &setup.boost_sets * weight;
                    continue;
                }
                let Some(tails) = &setup.boost else {
                    continue;
                };
                boosted += weight;
                if let Ok(r) = usize::try_from(short)
                    && r <= BOOST_CARDS
                {
                    success += &tails[colourless][r - 1] * weight;
                }
            }
        }
        let draws = BigUint::from(setup.total * (setup.total - 1) * COLOUR_WEIGHT);
        let boost_used = ratio(BigUint::from(boosted), draws.clone());
        let success = ratio(success, draws * &setup.boost_sets);
        Odds {
            success,
            boost_used,
        }
    }
}

/// MT-2 step 4: the achievements a card of `group` may give in a check of `kind`, each
/// with its weight out of 60 — a card of `k` colours counts as each with chance 1/k.
fn achievement_choices(group: Group, kind: CheckKind) -> Vec<(i64, u128)> {
    let value = i64::from(group.mana_value);
    let colours: Vec<Colour> = Colour::ALL
        .into_iter()
        .filter(|c| group.check_colours & c.bit() != 0)
        .collect();
    if colours.is_empty() {
        return vec![(value + colour_modifier(kind, None), COLOUR_WEIGHT)];
    }
    let weight = COLOUR_WEIGHT / colours.len() as u128;
    colours
        .into_iter()
        .map(|c| (value + colour_modifier(kind, Some(c)), weight))
        .collect()
}

/// MT-2 step 5: of the C(`below`, 6) equally likely sets of boost cards drawn from
/// `below` cards of which `colourless` are colourless, how many hold at least r
/// colourless cards, for r = 1..=6.
fn boost_tails(below: usize, colourless: usize) -> [BigUint; BOOST_CARDS] {
    let Some(coloured) = below.checked_sub(colourless) else {
        // More colourless cards than cards: a split of the revealed two that cannot
        // happen (its histogram weights are all 0).
        return Default::default();
    };
    // exactly[x]: sets with exactly x colourless cards.
    let exactly: Vec<BigUint> = (0..=BOOST_CARDS)
        .map(|x| binomial(colourless, x) * binomial(coloured, BOOST_CARDS - x))
        .collect();
    std::array::from_fn(|i| exactly[i + 1..].iter().sum())
}

/// C(n, k), exactly (0 when k > n).
fn binomial(n: usize, k: usize) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    // Each partial product C(n, i + 1) = C(n, i)·(n − i)/(i + 1) is whole.
    (0..k).fold(BigUint::one(), |c, i| c * (n - i) / (i + 1))
}

/// `numer / denom` as a reduced fraction.
fn ratio(numer: BigUint, denom: BigUint) -> BigRational {
    BigRational::new(BigInt::from(numer), BigInt::from(denom))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtg_trpg::card::Colours;

    fn card(name: &str, mana_value: u32, colours: &[Colour]) -> Card {
        Card {
            name: name.into(),
            name_ja: None,
            faces: vec![],
            mana_value,
            colours: Colours::of(colours),
            land: false,
            land_types: Colours::NONE,
        }
    }

    fn land(name: &str, types: &[Colour]) -> Card {
        Card {
            name: name.into(),
            name_ja: None,
            faces: vec![],
            mana_value: 0,
            colours: Colours::NONE,
            land: true,
            land_types: Colours::of(types),
        }
    }

    fn forest() -> Card {
        land("Forest", &[Colour::G])
    }

    fn int(n: i64) -> BigRational {
        BigRational::from_integer(n.into())
    }

    fn frac(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    /// MT-2 step 4, literally: the colour modifier of a card counted as `colour`.
    fn literal_modifier(kind: CheckKind, colour: Option<Colour>) -> i64 {
        match (kind, colour) {
            (CheckKind::Colourless, _) | (_, None) => 0,
            (CheckKind::Colour(k), Some(c)) if c == k => 5,
            (CheckKind::Colour(k), Some(c)) if k.friends().contains(&c) => 3,
            _ => 0,
        }
    }

    /// MT-2 steps 3–6 applied literally to every order of `library` (Heap's algorithm)
    /// and every colour choice of the second card, each equally likely, for every kind and
    /// every difficulty in `difficulties`: (kind, difficulty, success, boost used).
    fn brute_force(
        library: &[Card],
        difficulties: &[i64],
        boost: bool,
    ) -> Vec<(CheckKind, i64, BigRational, BigRational)> {
        let n = library.len();
        let cells = CheckKind::ALL.len() * difficulties.len();
        // Counted in sixtieths of an order, so a 1/k colour choice stays whole.
        let mut success = vec![0u64; cells];
        let mut boosted = vec![0u64; cells];
        let mut orders = 0u64;
        let mut visit = |order: &[&Card]| {
            orders += 1;
            let (top, second) = (order[0], order[1]);
            // Step 5: not with fewer than 6 cards below the revealed two; else the next
            // 6, +1 per card with no colour of its own (basic lands included).
            let plus = (order.len() - 2 >= 6)
                .then(|| order[2..8].iter().filter(|c| c.colours.is_empty()).count() as i64);
            // Step 4: a land with basic land types counts as their colours.
            let own = if second.land && !second.land_types.is_empty() {
                second.land_types
            } else {
                second.colours
            };
            let mut colours: Vec<Option<Colour>> = own.iter().map(Some).collect();
            if colours.is_empty() {
                colours.push(None);
            }
            let share = 60 / colours.len() as u64;
            for (i, &kind) in CheckKind::ALL.iter().enumerate() {
                for (j, &d) in difficulties.iter().enumerate() {
                    let cell = i * difficulties.len() + j;
                    let target = i64::from(top.mana_value) + d;
                    for &colour in &colours {
                        let mut achievement =
                            i64::from(second.mana_value) + literal_modifier(kind, colour);
                        if boost
                            && achievement < target
                            && let Some(plus) = plus
                        {
                            achievement += plus;
                            boosted[cell] += share;
                        }
                        if achievement >= target {
                            success[cell] += share;
                        }
                    }
                }
            }
        };
        // Heap's algorithm, iterative: every permutation exactly once.
        let mut order: Vec<&Card> = library.iter().collect();
        let mut c = vec![0usize; n];
        visit(&order);
        let mut i = 1;
        while i < n {
            if c[i] < i {
                let j = if i % 2 == 0 { 0 } else { c[i] };
                order.swap(j, i);
                visit(&order);
                c[i] += 1;
                i = 1;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        let whole = i64::try_from(orders * 60).expect("at most 9! orders");
        let mut out = Vec::new();
        for (i, &kind) in CheckKind::ALL.iter().enumerate() {
            for (j, &d) in difficulties.iter().enumerate() {
                let cell = i * difficulties.len() + j;
                let s = i64::try_from(success[cell]).expect("at most 9!·60");
                let b = i64::try_from(boosted[cell]).expect("at most 9!·60");
                out.push((kind, d, frac(s, whole), frac(b, whole)));
            }
        }
        out
    }

    fn assert_matches_brute_force(library: &[Card]) {
        let difficulties: Vec<i64> = (-1..=9).collect();
        let names: Vec<&str> = library.iter().map(|c| c.name.as_str()).collect();
        for boost in [false, true] {
            for (kind, d, success, boost_used) in brute_force(library, &difficulties, boost) {
                let odds = check_odds(library, kind, d, boost).expect("at least 2 cards");
                assert_eq!(
                    (odds.success, odds.boost_used),
                    (success, boost_used),
                    "{kind:?} difficulty {d} boost {boost} on {names:?}"
                );
            }
        }
    }

    /// Mana values 0–3, basic lands, a dual land with two basic types, a multicolour
    /// card, a devoid card and colourless artifacts.
    fn mixed() -> Vec<Card> {
        vec![
            forest(),
            land("Island", &[Colour::U]),
            land("Savannah", &[Colour::G, Colour::W]),
            card("Elvish Mystic", 1, &[Colour::G]),
            card("Simic Charm", 2, &[Colour::G, Colour::U]),
            card("Eldrazi Devourer (devoid)", 3, &[]),
            card("Ornithopter", 0, &[]),
            card("Mind Stone", 2, &[]),
            card("Lightning Bolt", 1, &[Colour::R]),
        ]
    }

    #[test]
    fn mt2_seed_example_green_difficulty_2_succeeds_in_both_orders() {
        // Mystic on top: target 1 + 2 = 3, achievement 2 + 5 = 7 → success.
        // Bear on top: target 2 + 2 = 4, achievement 1 + 5 = 6 → success.
        // Each order has chance 1/2, so P = (1 + 1) / 2 = 1.
        let library = [
            card("Elvish Mystic", 1, &[Colour::G]),
            card("Runeclaw Bear", 2, &[Colour::G]),
        ];
        let green = CheckKind::Colour(Colour::G);
        let odds = check_odds(&library, green, 2, false).expect("two cards are enough");
        assert_eq!(odds.success, int(1));
        assert_eq!(odds.boost_used, int(0));
        // Difficulty 5: Bear on top fails (target 7 > 6), Mystic on top succeeds
        // (target 6 ≤ 7) → 1/2.
        let odds = check_odds(&library, green, 5, false).expect("two cards are enough");
        assert_eq!(odds.success, frac(1, 2));
    }

    #[test]
    fn mt2_matches_every_order_of_small_libraries() {
        let all = mixed();
        // Two to eight cards: no boost is allowed below 8 (fewer than 6 under the two
        // revealed), and at 8 the boost takes all six left.
        for n in 2..=8 {
            assert_matches_brute_force(&all[..n]);
            assert_matches_brute_force(&all[all.len() - n..]);
        }
        // Copies of the same card (drawn without replacement), a card of three colours,
        // friendly colours for every kind.
        assert_matches_brute_force(&[
            forest(),
            forest(),
            card("Elvish Mystic", 1, &[Colour::G]),
            card("Elvish Mystic", 1, &[Colour::G]),
            card("Bant Charm", 3, &[Colour::G, Colour::W, Colour::U]),
            land("Island", &[Colour::U]),
            card("Ornithopter", 0, &[]),
            card("Eldrazi Devourer (devoid)", 3, &[]),
        ]);
    }

    #[test]
    fn mt2_step5_boost_matches_every_order_when_it_takes_6_of_7() {
        // Nine cards: the boost takes 6 of the 7 below the revealed two, so which card
        // stays behind matters (a hypergeometric draw that is not all or nothing).
        assert_matches_brute_force(&mixed());
    }

    #[test]
    fn mt3_a_library_of_only_forests_is_certain() {
        let forests = vec![forest(); 10];
        let green = CheckKind::Colour(Colour::G);
        let p = |kind, d, boost| {
            check_odds(&forests, kind, d, boost)
                .expect("ten cards")
                .success
        };
        // Target 0 + 0 ≤ achievement 0 + 5.
        assert_eq!(p(green, 0, false), int(1));
        // Target 6 > 5.
        assert_eq!(p(green, 6, false), int(0));
        // Colourless: 0 ≥ 0.
        assert_eq!(p(CheckKind::Colourless, 0, false), int(1));
        // A boost always adds 6 (Forests are colourless for a boost): 5 + 6 ≥ 6.
        assert_eq!(p(green, 6, true), int(1));
        for kind in CheckKind::ALL {
            for d in -1..=15 {
                for boost in [false, true] {
                    let s = p(kind, d, boost);
                    assert!(s == int(0) || s == int(1), "{kind:?} {d} {boost}: {s}");
                }
            }
        }
    }

    #[test]
    fn mt2_step2_fewer_than_2_cards_cannot_be_checked() {
        for library in [vec![], vec![forest()]] {
            let left = library.len();
            assert_eq!(
                check_odds(&library, CheckKind::Colourless, 0, true),
                Err(OddsError::TooFewCards { left })
            );
            assert_eq!(
                odds_table(&library, false),
                Err(OddsError::TooFewCards { left })
            );
        }
        let message = OddsError::TooFewCards { left: 1 }.to_string();
        assert!(
            message.contains("1 card") && message.contains("at least 2"),
            "{message}"
        );
    }

    #[test]
    fn mt3_table_has_every_kind_and_difficulty_0_to_8() {
        let library = mixed();
        for boost in [false, true] {
            let table = odds_table(&library, boost).expect("nine cards");
            let kinds: Vec<CheckKind> = table.iter().map(|(k, _)| *k).collect();
            assert_eq!(kinds, CheckKind::ALL);
            for (kind, row) in table {
                let difficulties: Vec<i64> = row.iter().map(|(d, _)| *d).collect();
                assert_eq!(difficulties, (0..=8).collect::<Vec<_>>());
                for (d, p) in row {
                    let one = check_odds(&library, kind, d, boost).expect("nine cards");
                    assert_eq!(p, one.success, "{kind:?} {d}");
                }
            }
        }
    }

    #[test]
    fn mt2_extreme_difficulties_are_certain_and_do_not_overflow() {
        let library = mixed();
        for kind in CheckKind::ALL {
            for boost in [false, true] {
                let p = |d| {
                    check_odds(&library, kind, d, boost)
                        .expect("nine cards")
                        .success
                };
                assert_eq!(p(i64::MIN), int(1));
                assert_eq!(p(i64::MAX), int(0));
            }
        }
    }

    #[test]
    fn mt2_check_kinds_parse_colours_and_colourless() {
        for (text, kind) in [
            ("green", CheckKind::Colour(Colour::G)),
            ("緑", CheckKind::Colour(Colour::G)),
            ("W", CheckKind::Colour(Colour::W)),
            ("colourless", CheckKind::Colourless),
            ("Colorless", CheckKind::Colourless),
            ("c", CheckKind::Colourless),
            ("無色", CheckKind::Colourless),
            ("色のない", CheckKind::Colourless),
        ] {
            assert_eq!(CheckKind::parse(text), Some(kind), "{text}");
        }
        assert_eq!(CheckKind::parse("purple"), None);
    }
}

/// What the player can tell about a check's outcome before making it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Possible {
    /// Some arrangement the player cannot rule out succeeds.
    pub success: bool,
    /// Some arrangement the player cannot rule out fails.
    pub failure: bool,
}

/// MT-3 「PLが判定の結果が分かっている、推測できる場合」: whether success and failure are
/// both possible given what the player knows of the library below the known top cards.
/// `regions` are that library top to bottom, each a run of cards whose contents the player
/// knows but not their order: first the unknown middle, then each group the player saw go
/// to the bottom (the two revealed cards of a check, a boost's six at end of turn), in
/// order. With a middle of 8 or more (or too few cards for a boost) the check's cards all
/// come from the middle and [`check_odds`] answers; otherwise the few arrangements of the
/// top 8 are enumerated, stopping once both outcomes are seen.
pub fn possible(
    regions: &[&[Card]],
    kind: CheckKind,
    difficulty: i64,
    boost: bool,
) -> Result<Possible, OddsError> {
    let total: usize = regions.iter().map(|r| r.len()).sum();
    if total < 2 {
        return Err(OddsError::TooFewCards { left: total });
    }
    let boost = boost && total >= 2 + BOOST_CARDS;
    let middle = regions.first().copied().unwrap_or(&[]);
    if middle.len() >= 2 + BOOST_CARDS || (!boost && middle.len() >= 2) {
        let odds = check_odds(middle, kind, difficulty, boost)?;
        return Ok(Possible {
            success: !odds.success.is_zero(),
            failure: !odds.success.is_one(),
        });
    }
    let needed = if boost { 2 + BOOST_CARDS } else { 2 };
    let mut pools: Vec<Vec<Card>> = regions.iter().map(|r| r.to_vec()).collect();
    let mut seq = Vec::with_capacity(needed);
    let mut seen = Possible {
        success: false,
        failure: false,
    };
    arrange(&mut pools, 0, needed, &mut seq, &mut |seq| {
        let target = i64::from(seq[0].mana_value).saturating_add(difficulty);
        let colours: Vec<Option<Colour>> = match seq[1].check_colours().iter().collect::<Vec<_>>() {
            c if c.is_empty() => vec![None],
            c => c.into_iter().map(Some).collect(),
        };
        for colour in colours {
            let mut achievement = i64::from(seq[1].mana_value) + colour_modifier(kind, colour);
            if achievement < target && boost {
                achievement += seq[2..].iter().filter(|c| c.colourless()).count() as i64;
            }
            if achievement >= target {
                seen.success = true;
            } else {
                seen.failure = true;
            }
        }
        seen.success && seen.failure
    });
    Ok(seen)
}

/// Every distinct arrangement of the first `needed` cards drawn region by region (equal
/// cards not told apart); `visit` returns true to stop.
fn arrange(
    pools: &mut [Vec<Card>],
    region: usize,
    needed: usize,
    seq: &mut Vec<Card>,
    visit: &mut dyn FnMut(&[Card]) -> bool,
) -> bool {
    if seq.len() == needed {
        return visit(seq);
    }
    let Some(pool) = pools.get(region) else {
        return false;
    };
    if pool.is_empty() {
        return arrange(pools, region + 1, needed, seq, visit);
    }
    let mut tried: Vec<Card> = Vec::new();
    for i in 0..pools[region].len() {
        let card = pools[region][i].clone();
        if tried.contains(&card) {
            continue;
        }
        tried.push(card.clone());
        pools[region].remove(i);
        seq.push(card.clone());
        let stop = arrange(pools, region, needed, seq, visit);
        seq.pop();
        pools[region].insert(i, card);
        if stop {
            return true;
        }
    }
    false
}
