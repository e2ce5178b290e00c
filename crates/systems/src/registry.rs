//! Every game system, listed once, sorted by sort key as bcdice-api lists them: taku's own
//! systems and, when it is set up, the reference engine's (see [`crate::reference`]).

use std::sync::OnceLock;

use crate::GameSystem;
use crate::another_world::AnotherWorld;
use crate::four_card::FourCard;
use crate::lotr_coda::LotrCoda;
use crate::mtg_trpg::MtgTrpg;
use crate::reference::{self, NATIVE_VERIFIED};
use crate::{dicebot::DiceBot, sengensyou::Sengensyou, srs::Srs, stellar_knights::StellarKnights};

/// taku's own systems, sorted by [`GameSystem::sort_key`] (plain code-point order).
static NATIVE: [&dyn GameSystem; 8] = [
    &DiceBot,
    &MtgTrpg,
    &AnotherWorld,
    &StellarKnights,
    &Srs,
    &Sengensyou,
    &FourCard,
    &LotrCoda,
];

/// taku's own systems alone, sorted by sort key.
pub fn native() -> &'static [&'static dyn GameSystem] {
    &NATIVE
}

/// All systems, sorted by sort key. On an id both engines know, taku's implementation is
/// listed only if it passes that system's complete BCDice test file ([`NATIVE_VERIFIED`]).
pub fn systems() -> &'static [&'static dyn GameSystem] {
    static ALL: OnceLock<Vec<&'static dyn GameSystem>> = OnceLock::new();
    let Some(engine) = reference::engine() else {
        return &NATIVE;
    };
    ALL.get_or_init(|| {
        let mut all: Vec<&'static dyn GameSystem> = NATIVE
            .iter()
            .copied()
            .filter(|s| NATIVE_VERIFIED.contains(&s.id()) || engine.find(s.id()).is_none())
            .collect();
        for s in engine.systems() {
            if !all.iter().any(|n| n.id() == s.id()) {
                all.push(*s);
            }
        }
        all.sort_by(|a, b| a.sort_key().cmp(b.sort_key()).then(a.id().cmp(b.id())));
        all
    })
}

/// The system with exactly this id (case-sensitive, as bcdice-api).
pub fn find(id: &str) -> Option<&'static dyn GameSystem> {
    let native = NATIVE.iter().copied().find(|s| s.id() == id);
    match native {
        // Verified native systems never start the reference engine.
        Some(s) if NATIVE_VERIFIED.contains(&id) => Some(s),
        _ => match reference::engine().and_then(|e| e.find(id)) {
            Some(r) => Some(r as &'static dyn GameSystem),
            None => native,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_by_sort_key_and_ids_unique() {
        let keys: Vec<&str> = NATIVE.iter().map(|s| s.sort_key()).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        let mut ids: Vec<&str> = NATIVE.iter().map(|s| s.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), NATIVE.len());
    }

    #[test]
    fn lookup_is_case_sensitive() {
        assert_eq!(find("DiceBot").map(|s| s.id()), Some("DiceBot"));
        assert!(find("dicebot").is_none());
    }
}
