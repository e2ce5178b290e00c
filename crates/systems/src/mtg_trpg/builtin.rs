//! MT-1's built-in minimal card set, so checks work with no card file: the basic lands,
//! Wastes, the cards of the seed's examples, and a few cards of the shapes a library can
//! hold (multicolour, split, double-faced).
//!
//! Japanese names are given only where the seed or the rules digest uses them (and for
//! the basic lands); the other cards have none rather than a guessed one.
//!
//! The seed's boost example names 《変異エルドラージ》, "a devoid Eldrazi", without naming a
//! printed card. It is built in as a stand-in of that name — English name
//! "Devoid Eldrazi", mana value 3, colourless, a name no printed card has — so the example can be
//! replayed; for a real devoid card there is Eldrazi Skyspawner ({2}{U}, devoid:
//! colourless, mana value 3).

use super::card::{Card, CardDb, Colour, Colours};

/// The built-in cards, in a fresh database.
pub fn builtin() -> CardDb {
    let mut db = CardDb::new();
    for card in cards() {
        db.insert(card);
    }
    db
}

/// The built-in cards, basic lands first.
pub fn cards() -> Vec<Card> {
    use Colour::*;
    let mut cards: Vec<Card> = [
        ("Plains", "平地", W),
        ("Island", "島", U),
        ("Swamp", "沼", B),
        ("Mountain", "山", R),
        ("Forest", "森", G),
    ]
    .into_iter()
    .map(|(name, ja, colour)| Card {
        land_types: Colours::of(&[colour]),
        ..land(name, ja)
    })
    .collect();
    cards.push(land("Wastes", "荒地"));
    for (name, ja, mana_value, colours) in [
        ("Elvish Mystic", Some("エルフの神秘家"), 1, &[G][..]),
        ("Runeclaw Bear", Some("ルーン爪の熊"), 2, &[G]),
        ("Llanowar Elves", Some("ラノワールのエルフ"), 1, &[G]),
        ("Scaled Wurm", Some("甲鱗のワーム"), 7, &[G]),
        ("Devoid Eldrazi", Some("変異エルドラージ"), 3, &[]),
        ("Eldrazi Skyspawner", None, 3, &[]),
        ("Knight of Autumn", None, 3, &[G, W]),
    ] {
        cards.push(Card {
            name: name.into(),
            name_ja: ja.map(str::to_string),
            faces: Vec::new(),
            mana_value,
            colours: Colours::of(colours),
            land: false,
            land_types: Colours::NONE,
        });
    }
    cards.push(Card {
        name: "Fire // Ice".into(),
        name_ja: None,
        faces: vec!["Fire".into(), "Ice".into()],
        // A split card in the library: both halves' mana values and colours.
        mana_value: 4,
        colours: Colours::of(&[R, U]),
        land: false,
        land_types: Colours::NONE,
    });
    cards.push(Card {
        name: "Delver of Secrets // Insectile Aberration".into(),
        name_ja: None,
        faces: vec!["Delver of Secrets".into(), "Insectile Aberration".into()],
        // A double-faced card: its front face, Delver of Secrets ({U}).
        mana_value: 1,
        colours: Colours::of(&[U]),
        land: false,
        land_types: Colours::NONE,
    });
    cards
}

/// A colourless land with mana value 0 and no basic land type.
fn land(name: &str, ja: &str) -> Card {
    Card {
        name: name.into(),
        name_ja: Some(ja.into()),
        faces: Vec::new(),
        mana_value: 0,
        colours: Colours::NONE,
        land: true,
        land_types: Colours::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt1_the_basic_lands_count_as_their_colour_and_are_colourless() {
        let db = builtin();
        for (name, ja, colour) in [
            ("Plains", "平地", Colour::W),
            ("Island", "島", Colour::U),
            ("Swamp", "沼", Colour::B),
            ("Mountain", "山", Colour::R),
            ("Forest", "森", Colour::G),
        ] {
            let card = db.get(ja).unwrap_or_else(|| panic!("{ja} is built in"));
            assert_eq!(card.name, name);
            assert!(card.land && card.colourless());
            assert_eq!(card.mana_value, 0);
            assert_eq!(card.check_colours(), Colours::of(&[colour]));
        }
        let wastes = db.get("荒地").expect("Wastes");
        assert!(wastes.land && wastes.colourless() && wastes.check_colours().is_empty());
    }

    #[test]
    fn mt1_the_seeds_cards_by_their_japanese_names() {
        let db = builtin();
        for (ja, name, mana_value, colours) in [
            ("エルフの神秘家", "Elvish Mystic", 1, "G"),
            ("ルーン爪の熊", "Runeclaw Bear", 2, "G"),
            ("ラノワールのエルフ", "Llanowar Elves", 1, "G"),
            ("甲鱗のワーム", "Scaled Wurm", 7, "G"),
            ("変異エルドラージ", "Devoid Eldrazi", 3, ""),
        ] {
            let card = db.get(ja).unwrap_or_else(|| panic!("{ja} is built in"));
            assert_eq!(
                (card.name.as_str(), card.mana_value, card.colours.letters()),
                (name, mana_value, colours.to_string())
            );
        }
    }

    #[test]
    fn mt1_multicolour_split_and_double_faced_cards_are_built_in() {
        let db = builtin();
        assert_eq!(
            db.get("Knight of Autumn")
                .map(|c| c.colours.letters())
                .as_deref(),
            Some("WG")
        );
        assert!(db.get("Eldrazi Skyspawner").is_some_and(Card::colourless));
        assert_eq!(db.get("Ice").map(|c| c.name.as_str()), Some("Fire // Ice"));
        let delver = db.get("Insectile Aberration").expect("by its back face");
        assert_eq!(
            (delver.mana_value, delver.colours.letters()),
            (1, "U".into())
        );
        assert!(db.get("Black Lotus").is_none());
    }
}
