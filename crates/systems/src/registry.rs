//! Every game system, listed once, sorted by sort key as bcdice-api lists them.

use crate::GameSystem;
use crate::another_world::AnotherWorld;
use crate::four_card::FourCard;
use crate::lotr_coda::LotrCoda;
use crate::mtg_trpg::MtgTrpg;
use crate::{dicebot::DiceBot, sengensyou::Sengensyou, srs::Srs, stellar_knights::StellarKnights};

/// All systems, sorted by [`GameSystem::sort_key`] (plain code-point order).
static SYSTEMS: [&dyn GameSystem; 8] = [
    &DiceBot,
    &MtgTrpg,
    &AnotherWorld,
    &StellarKnights,
    &Srs,
    &Sengensyou,
    &FourCard,
    &LotrCoda,
];

/// All systems, sorted by sort key.
pub fn systems() -> &'static [&'static dyn GameSystem] {
    &SYSTEMS
}

/// The system with exactly this id (case-sensitive, as bcdice-api).
pub fn find(id: &str) -> Option<&'static dyn GameSystem> {
    SYSTEMS.iter().copied().find(|s| s.id() == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_by_sort_key_and_ids_unique() {
        let keys: Vec<&str> = SYSTEMS.iter().map(|s| s.sort_key()).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        let mut ids: Vec<&str> = SYSTEMS.iter().map(|s| s.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), SYSTEMS.len());
    }

    #[test]
    fn lookup_is_case_sensitive() {
        assert_eq!(find("DiceBot").map(|s| s.id()), Some("DiceBot"));
        assert!(find("dicebot").is_none());
    }
}
