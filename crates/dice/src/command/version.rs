//! §3.10 Version: `BCDiceVersion`.

use crate::result::{Detail, RollResult};

/// The BCDice version whose behaviour taku reproduces; also reported by `/v2/version`.
pub const BCDICE_VERSION: &str = "3.16.1";

/// Whether the first token is `BCDiceVersion` (any case; no secret form).
pub fn parse(token: &str) -> bool {
    token.eq_ignore_ascii_case("BCDiceVersion")
}

/// The version text; never secret.
pub fn eval() -> RollResult {
    RollResult::new(format!("BCDice {BCDICE_VERSION}"), Detail::Message)
}
