//! Keys and commitments derived from a table's seed.
//!
//! Each roll's dice come from a ChaCha20 stream keyed by SHA-256(seed ‖ "dice" ‖ seq), so a
//! roll replays from the seed and its position in the log alone, whatever happened before
//! it. A secret roll is published as SHA-256(salt ‖ result) with
//! salt = SHA-256(seed ‖ "salt" ‖ seq): unguessable before the reveal (so a small result
//! space cannot be searched), shown with the reveal so anyone can check the commitment.

use crate::event::Roll;
use sha2::{Digest, Sha256};

fn derive(seed: &[u8; 32], label: &[u8], seq: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(seed);
    h.update(label);
    h.update(seq.to_le_bytes());
    h.finalize().into()
}

/// The dice key of the event at `seq`.
pub fn dice_key(seed: &[u8; 32], seq: u64) -> [u8; 32] {
    derive(seed, b"dice", seq)
}

/// The salt of the secret roll at `seq`.
pub fn salt(seed: &[u8; 32], seq: u64) -> [u8; 32] {
    derive(seed, b"salt", seq)
}

/// The text a commitment covers: the command, the result text, the flags and every draw.
pub fn committed_text(roll: &Roll) -> String {
    let rands: Vec<String> = roll.rands.iter().map(|[s, v]| format!("{s}:{v}")).collect();
    format!(
        "{}\n{}\nsuccess={} failure={} critical={} fumble={}\n{}",
        roll.input,
        roll.text,
        roll.success,
        roll.failure,
        roll.critical,
        roll.fumble,
        rands.join(",")
    )
}

/// SHA-256(salt ‖ committed text), hex.
pub fn commitment(salt: &[u8; 32], roll: &Roll) -> String {
    let mut h = Sha256::new();
    h.update(salt);
    h.update(committed_text(roll).as_bytes());
    hex(&h.finalize())
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses 64 hex digits.
pub fn parse_seed(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}
