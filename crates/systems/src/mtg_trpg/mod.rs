//! The MTG-based TRPG (rules digest `mtg-trpg.md`, MT-1 to MT-3): checks reveal cards from
//! the top of a PC's library instead of rolling dice.

pub mod card;
