//! MT-2 the action check (行動判定), step by step, on a library whose order is given:
//!
//! 1. the top cards the player knows are exiled first, in order (they return on top at
//!    the end);
//! 2. fewer than 2 cards left: no check (the known cards go back, nothing happened);
//! 3. the top card: target (目標値) = its mana value + difficulty;
//! 4. the next card: achievement (達成値) = its mana value + colour modifier (+5 the
//!    check's colour, +3 a friendly colour, 0 otherwise or for a colourless check; a land
//!    counts as its basic land types' colours; a card of several colours counts as one of
//!    them chosen at random);
//! 5. boost (optional, once per turn, not with fewer than 6 cards in the library): the
//!    top 6 cards are exiled until end of turn, +1 per colourless card among them (basic
//!    lands count as colourless here). Our reading: the two revealed cards are set aside
//!    during the check, so the boost takes the 6 cards below them;
//! 6. success iff achievement ≥ target;
//! 7. the two revealed cards go to the bottom in random order; the known cards go back
//!    on top in their order.
//!
//! Randomness (the multicolour choice, the bottom order) comes from the [`Roller`] passed
//! in, so a table records and replays it.

use super::card::{Card, Colour};
use super::odds::CheckKind;
use serde::{Deserialize, Serialize};
use taku_dice::{Roller, Text};

/// Cards a boost exiles.
pub const BOOST_CARDS: usize = 6;

/// Why a check could not be made; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckError {
    /// Step 2: fewer than 2 cards below the known ones.
    TooFewCards {
        /// Cards left after the known ones were set aside.
        left: usize,
    },
    /// The dice source failed (a scripted source ran out).
    Dice(String),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::TooFewCards { left } => write!(
                f,
                "the library has {left} card(s) below the known ones; a check needs 2 (MT-2 step 2): it is not made"
            ),
            CheckError::Dice(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CheckError {}

impl CheckError {
    /// The message in Japanese and English (the English is this error's `Display`).
    pub fn text(&self) -> Text {
        match self {
            CheckError::TooFewCards { left } => Text::new(
                format!(
                    "ライブラリーの既知のカードより下が{left}枚です。行動判定には2枚必要なので、判定は行なわれません（MT-2 手順2）"
                ),
                self.to_string(),
            ),
            CheckError::Dice(e) => {
                Text::new(format!("ダイスを振れませんでした: {e}"), self.to_string())
            }
        }
    }
}

/// The colour modifier of a card counted as `colour` (`None`: colourless) in a check of
/// `kind` (MT-2 step 4).
pub fn colour_modifier(kind: CheckKind, colour: Option<Colour>) -> i64 {
    match (kind, colour) {
        (CheckKind::Colour(k), Some(c)) if c == k => 5,
        (CheckKind::Colour(k), Some(c)) if k.friends().contains(&c) => 3,
        _ => 0,
    }
}

/// A boost's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Boost {
    /// The six exiled cards, top first.
    pub cards: Vec<Card>,
    /// How many were colourless: the achievement's plus.
    pub plus: i64,
}

/// A check made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The check's kind.
    pub kind: CheckKind,
    /// Difficulty.
    pub difficulty: i64,
    /// Known top cards exiled first and put back on top (step 1).
    pub known: Vec<Card>,
    /// The top card (step 3).
    pub target_card: Card,
    /// 目標値.
    pub target: i64,
    /// The next card (step 4).
    pub achievement_card: Card,
    /// The colour it counted as, when it had any (chosen at random among several).
    pub counted_as: Option<Colour>,
    /// How many colours it could count as (more than 1: a random choice was made).
    pub choices: usize,
    /// Colour modifier.
    pub modifier: i64,
    /// 達成値 before any boost.
    pub achievement_before_boost: i64,
    /// The boost, if used (step 5).
    pub boost: Option<Boost>,
    /// 達成値.
    pub achievement: i64,
    /// Success (目標値 ≤ 達成値).
    pub success: bool,
    /// The two revealed cards as they went to the bottom, upper first (step 7).
    pub bottom: [Card; 2],
    /// The library after the check, top first (the boost's cards are not in it).
    pub library: Vec<Card>,
}

/// When to boost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoostPlan {
    /// Never.
    No,
    /// If the check would fail otherwise and a boost is allowed.
    IfFailing,
}

/// The check's result before its end (steps 1–4), for a player to decide on a boost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revealed {
    /// Known top cards set aside.
    pub known: usize,
    /// 目標値.
    pub target: i64,
    /// 達成値 before any boost.
    pub achievement: i64,
    /// The colour the second card counted as.
    pub counted_as: Option<Colour>,
    /// How many colours it could count as.
    pub choices: usize,
    /// Colour modifier.
    pub modifier: i64,
}

impl Revealed {
    /// 目標値 and 達成値 so far.
    pub fn values(&self) -> (i64, i64) {
        (self.target, self.achievement)
    }
}

/// Steps 1–4 on `library` (top first) with `known` top cards known.
pub fn reveal(
    library: &[Card],
    known: usize,
    kind: CheckKind,
    difficulty: i64,
    dice: &mut Roller<'_>,
) -> Result<Revealed, CheckError> {
    let known = known.min(library.len());
    let rest = &library[known..];
    if rest.len() < 2 {
        return Err(CheckError::TooFewCards { left: rest.len() });
    }
    let (top, next) = (&rest[0], &rest[1]);
    let target = i64::from(top.mana_value).saturating_add(difficulty);
    let colours: Vec<Colour> = next.check_colours().iter().collect();
    let counted_as = match colours.len() {
        0 => None,
        1 => Some(colours[0]),
        n => Some(
            colours[dice
                .roll_index(n)
                .map_err(|e| CheckError::Dice(e.to_string()))?],
        ),
    };
    let modifier = colour_modifier(kind, counted_as);
    Ok(Revealed {
        known,
        target,
        achievement: i64::from(next.mana_value) + modifier,
        counted_as,
        choices: colours.len(),
        modifier,
    })
}

/// Whether a boost is allowed now: at least 6 cards below the revealed two.
pub fn boost_allowed(library: &[Card], known: usize) -> bool {
    library.len().saturating_sub(known.min(library.len()) + 2) >= BOOST_CARDS
}

/// Steps 5–7 after [`reveal`]: the boost if `boost`, the verdict, the cards moved.
pub fn finish(
    library: &[Card],
    revealed: &Revealed,
    kind: CheckKind,
    difficulty: i64,
    boost: bool,
    dice: &mut Roller<'_>,
) -> Result<Outcome, CheckError> {
    let k = revealed.known;
    let (top, next) = (library[k].clone(), library[k + 1].clone());
    let mut below: Vec<Card> = library[k + 2..].to_vec();
    let boost = (boost && below.len() >= BOOST_CARDS).then(|| {
        let cards: Vec<Card> = below.drain(..BOOST_CARDS).collect();
        let plus = cards.iter().filter(|c| c.colourless()).count() as i64;
        Boost { cards, plus }
    });
    let achievement = revealed.achievement + boost.as_ref().map_or(0, |b| b.plus);
    let swap = dice
        .roll_index(2)
        .map_err(|e| CheckError::Dice(e.to_string()))?
        == 1;
    let bottom = if swap {
        [next.clone(), top.clone()]
    } else {
        [top.clone(), next.clone()]
    };
    let mut after: Vec<Card> = library[..k].to_vec();
    after.extend(below);
    after.extend(bottom.iter().cloned());
    Ok(Outcome {
        kind,
        difficulty,
        known: library[..k].to_vec(),
        target_card: top,
        target: revealed.target,
        achievement_card: next,
        counted_as: revealed.counted_as,
        choices: revealed.choices,
        modifier: revealed.modifier,
        achievement_before_boost: revealed.achievement,
        boost,
        achievement,
        success: achievement >= revealed.target,
        bottom,
        library: after,
    })
}

/// A whole check: steps 1–7, boosting per `plan` when allowed (`boost_left`: the
/// once-per-turn boost is still unused).
pub fn check(
    library: &[Card],
    known: usize,
    kind: CheckKind,
    difficulty: i64,
    plan: BoostPlan,
    boost_left: bool,
    dice: &mut Roller<'_>,
) -> Result<Outcome, CheckError> {
    let revealed = reveal(library, known, kind, difficulty, dice)?;
    let (target, achievement) = revealed.values();
    let boost = plan == BoostPlan::IfFailing
        && boost_left
        && achievement < target
        && boost_allowed(library, known);
    finish(library, &revealed, kind, difficulty, boost, dice)
}

/// The kind's name in Japanese (緑判定, 色のない判定).
pub fn kind_name(kind: CheckKind) -> String {
    kind_text(kind).ja().to_string()
}

/// The kind's name in every language (緑判定 / green check).
pub fn kind_text(kind: CheckKind) -> Text {
    match kind {
        CheckKind::Colour(c) => Text::new(
            format!("{}判定", c.japanese()),
            format!("{} check", colour_en(c)),
        ),
        CheckKind::Colourless => Text::new("色のない判定", "colourless check"),
    }
}

/// A colour's English name.
pub fn colour_en(c: Colour) -> &'static str {
    match c {
        Colour::W => "white",
        Colour::U => "blue",
        Colour::B => "black",
        Colour::R => "red",
        Colour::G => "green",
    }
}

/// The check as text, in Japanese: each card's name and mana value, 目標値, 達成値, the
/// colour modifier and why, 成功/失敗.
pub fn describe(o: &Outcome) -> String {
    describe_text(o).ja().to_string()
}

/// The check in every language: each card's name and mana value, the target (目標値),
/// the achievement (達成値), the colour modifier and why, success or failure.
pub fn describe_text(o: &Outcome) -> Text {
    let kind = kind_text(o.kind);
    let mut ja = format!("{}（難易度{}）", kind.ja(), o.difficulty);
    let mut en = format!("{} (difficulty {})", kind.en(), o.difficulty);
    if !o.known.is_empty() {
        ja.push_str(&format!(
            " ＞ 既知の{}枚を追放: {}",
            o.known.len(),
            names(&o.known)
        ));
        en.push_str(&format!(
            " > the {} known card(s) exiled: {}",
            o.known.len(),
            names_en(&o.known)
        ));
    }
    ja.push_str(&format!(
        " ＞ 1枚目 {} マナ総量{} ＞ 目標値{}",
        o.target_card.display(),
        o.target_card.mana_value,
        o.target
    ));
    en.push_str(&format!(
        " > 1st card {}, mana value {} > target {}",
        o.target_card.name, o.target_card.mana_value, o.target
    ));
    let (why_ja, why_en) = match (o.kind, o.counted_as) {
        (CheckKind::Colourless, _) => ("色のない判定".to_string(), "colourless check".to_string()),
        (_, None) => ("無色".to_string(), "colourless".to_string()),
        (CheckKind::Colour(k), Some(c)) => {
            let by_land = o.achievement_card.land && !o.achievement_card.land_types.is_empty();
            let random = o.choices > 1;
            let (rel_ja, rel_en) = if c == k {
                ("同じ色", "the same colour")
            } else if k.friends().contains(&c) {
                ("友好色", "a friendly colour")
            } else {
                ("それ以外の色", "another colour")
            };
            (
                format!(
                    "{}{}{}: {rel_ja}",
                    if by_land {
                        "基本土地タイプで"
                    } else {
                        ""
                    },
                    c.japanese(),
                    if random {
                        "、無作為に選んだ色"
                    } else {
                        ""
                    }
                ),
                format!(
                    "{}{}{}: {rel_en}",
                    colour_en(c),
                    if by_land { " by basic land type" } else { "" },
                    if random { ", chosen at random" } else { "" }
                ),
            )
        }
    };
    ja.push_str(&format!(
        " ／ 2枚目 {} マナ総量{} ＋ 色の修正{:+}（{why_ja}） ＞ 達成値{}",
        o.achievement_card.display(),
        o.achievement_card.mana_value,
        o.modifier,
        o.achievement_before_boost
    ));
    en.push_str(&format!(
        " / 2nd card {}, mana value {} + colour modifier {:+} ({why_en}) > achievement {}",
        o.achievement_card.name,
        o.achievement_card.mana_value,
        o.modifier,
        o.achievement_before_boost
    ));
    if let Some(b) = &o.boost {
        ja.push_str(&format!(
            " ／ ブースト: {}を追放、無色{}枚 ＋{} ＞ 達成値{}",
            names(&b.cards),
            b.plus,
            b.plus,
            o.achievement
        ));
        en.push_str(&format!(
            " / boost: {} exiled, {} colourless +{} > achievement {}",
            names_en(&b.cards),
            b.plus,
            b.plus,
            o.achievement
        ));
    }
    ja.push_str(if o.success {
        " ＞ 成功"
    } else {
        " ＞ 失敗"
    });
    en.push_str(if o.success {
        " > success"
    } else {
        " > failure"
    });
    Text::new(ja, en)
}

/// Cards' English names joined.
pub fn names_en(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Cards' display names joined.
pub fn names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::display)
        .collect::<Vec<_>>()
        .join("、")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mtg_trpg::builtin::builtin;
    use taku_dice::ChaChaSource;

    fn cards(names: &[&str]) -> Vec<Card> {
        let db = builtin();
        names
            .iter()
            .map(|n| {
                db.get(n)
                    .unwrap_or_else(|| panic!("{n} is built in"))
                    .clone()
            })
            .collect()
    }

    fn run(
        lib: &[Card],
        known: usize,
        kind: CheckKind,
        difficulty: i64,
        plan: BoostPlan,
        seed: u64,
    ) -> Outcome {
        let mut source = ChaChaSource::from_seed(seed);
        let mut dice = Roller::new(&mut source);
        check(lib, known, kind, difficulty, plan, true, &mut dice).expect("check")
    }

    const GREEN: CheckKind = CheckKind::Colour(Colour::G);

    #[test]
    fn mt2_the_seeds_worked_example() {
        let lib = cards(&["Elvish Mystic", "Runeclaw Bear"]);
        let o = run(&lib, 0, GREEN, 2, BoostPlan::No, 1);
        assert_eq!(
            (o.target, o.modifier, o.achievement, o.success),
            (3, 5, 7, true)
        );
        let text = describe(&o);
        assert!(text.starts_with("緑判定（難易度2） ＞ 1枚目 《エルフの神秘家》(Elvish Mystic) マナ総量1 ＞ 目標値3 ／ 2枚目 《ルーン爪の熊》(Runeclaw Bear) マナ総量2 ＋ 色の修正+5（緑: 同じ色） ＞ 達成値7 ＞ 成功"), "{text}");
    }

    #[test]
    fn mt2_the_seeds_boost_example_adds_3() {
        let lib = cards(&[
            "Scaled Wurm",
            "Elvish Mystic",
            "Forest",
            "Mountain",
            "Runeclaw Bear",
            "変異エルドラージ",
            "Scaled Wurm",
            "Llanowar Elves",
            "Island",
        ]);
        // Target 7 + 2 = 9, achievement 1 + 5 = 6: fails without the boost.
        let o = run(&lib, 0, GREEN, 2, BoostPlan::IfFailing, 1);
        let b = o.boost.as_ref().expect("boosted");
        assert_eq!(
            b.plus, 3,
            "Forest, Mountain and the devoid Eldrazi are colourless"
        );
        assert_eq!((o.achievement, o.success), (9, true));
        // Only the Island stays between; the revealed two go to the bottom.
        assert_eq!(o.library.len(), 3);
        assert_eq!(o.library[0].name, "Island");
        assert!(describe(&o).contains("無色3枚 ＋3 ＞ 達成値9 ＞ 成功"));
    }

    #[test]
    fn mt2_step1_known_cards_are_set_aside_and_return_on_top_in_order() {
        let lib = cards(&[
            "Forest",
            "Island",
            "Elvish Mystic",
            "Runeclaw Bear",
            "Swamp",
        ]);
        let o = run(&lib, 2, GREEN, 0, BoostPlan::No, 3);
        assert_eq!(o.target_card.name, "Elvish Mystic");
        let names: Vec<&str> = o.library.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(&names[..3], ["Forest", "Island", "Swamp"]);
        assert!(describe(&o).contains("既知の2枚を追放"));
    }

    #[test]
    fn mt2_step2_fewer_than_two_cards_is_no_check() {
        let lib = cards(&["Forest", "Island", "Elvish Mystic"]);
        let mut source = ChaChaSource::from_seed(1);
        let mut dice = Roller::new(&mut source);
        let err = check(&lib, 2, GREEN, 0, BoostPlan::No, true, &mut dice).expect_err("too few");
        assert_eq!(err, CheckError::TooFewCards { left: 1 });
        assert_eq!(dice.draws().len(), 0, "nothing was drawn");
    }

    #[test]
    fn mt2_step4_colour_modifiers() {
        // A basic land counts as its type's colour: Forest on a green check +5.
        let o = run(&cards(&["Island", "Forest"]), 0, GREEN, 0, BoostPlan::No, 1);
        assert_eq!((o.modifier, o.counted_as), (5, Some(Colour::G)));
        assert!(describe(&o).contains("（基本土地タイプで緑: 同じ色）"));
        // Friendly colour +3 (white is green's friend), enemy 0 (blue).
        let o = run(&cards(&["Island", "Plains"]), 0, GREEN, 0, BoostPlan::No, 1);
        assert_eq!(o.modifier, 3);
        let o = run(&cards(&["Forest", "Island"]), 0, GREEN, 0, BoostPlan::No, 1);
        assert_eq!(o.modifier, 0);
        // A colourless check: always 0.
        let o = run(
            &cards(&["Island", "Forest"]),
            0,
            CheckKind::Colourless,
            0,
            BoostPlan::No,
            1,
        );
        assert_eq!(o.modifier, 0);
        // Wastes and the devoid card: colourless, 0.
        let o = run(&cards(&["Island", "Wastes"]), 0, GREEN, 0, BoostPlan::No, 1);
        assert_eq!((o.modifier, o.counted_as), (0, None));
    }

    #[test]
    fn mt2_step4_a_multicolour_card_counts_as_one_colour_at_random() {
        let lib = cards(&["Island", "Knight of Autumn"]);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..64 {
            let o = run(
                &lib,
                0,
                CheckKind::Colour(Colour::W),
                0,
                BoostPlan::No,
                seed,
            );
            assert_eq!(o.choices, 2);
            // White check: white +5, green (a friend of white) +3.
            let expected = if o.counted_as == Some(Colour::W) {
                5
            } else {
                3
            };
            assert_eq!(o.modifier, expected);
            seen.insert(o.counted_as);
        }
        assert_eq!(seen.len(), 2, "both colours come up");
    }

    #[test]
    fn mt2_step5_boost_needs_six_cards_below_and_only_when_failing() {
        // Five cards below the revealed two: no boost.
        let lib = cards(&[
            "Scaled Wurm",
            "Island",
            "Forest",
            "Forest",
            "Forest",
            "Forest",
            "Forest",
        ]);
        let o = run(&lib, 0, GREEN, 0, BoostPlan::IfFailing, 1);
        assert!(o.boost.is_none() && !o.success);
        // A check that succeeds anyway does not boost.
        let o = run(
            &cards(&[
                "Island", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest",
            ]),
            0,
            GREEN,
            0,
            BoostPlan::IfFailing,
            1,
        );
        assert!(o.boost.is_none() && o.success);
    }

    #[test]
    fn mt2_step7_the_two_cards_go_to_the_bottom_in_random_order() {
        let lib = cards(&["Elvish Mystic", "Runeclaw Bear", "Forest"]);
        let orders: std::collections::BTreeSet<Vec<String>> = (0..32)
            .map(|seed| {
                run(&lib, 0, GREEN, 2, BoostPlan::No, seed)
                    .library
                    .iter()
                    .map(|c| c.name.clone())
                    .collect()
            })
            .collect();
        assert_eq!(orders.len(), 2, "{orders:?}");
        for o in &orders {
            assert_eq!(o[0], "Forest");
        }
    }
}
