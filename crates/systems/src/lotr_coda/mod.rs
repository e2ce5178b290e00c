//! The Lord of the Rings RPG (Decipher, CODA system), rules digest `lotr-coda.md`.
//!
//! This branch holds combat (LR-14), battles, units and sieges (LR-15 to LR-17, with
//! the battle's exact odds) and advancement and money (LR-12, LR-13) as self-contained
//! modules; the core (tests, characters, table rules) declares its own modules beside them.

pub mod advance;
pub mod battle;
pub mod battle_odds;
pub mod coda;
pub mod combat;
pub mod table;
