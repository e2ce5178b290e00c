//! Keys and commitments derived from a table's seed.
//!
//! Each line that may draw dice gets a fresh nonce (16 bytes of the operating system's
//! randomness, [`Entropy`]) for that attempt alone, and its dice come from a ChaCha20
//! stream keyed by SHA-256(seed ‖ "dice-nonce" ‖ nonce). The nonce is recorded in the
//! appended event, so the roll replays from the seed and its own event alone; an attempt
//! that is refused takes its nonce with it, so what a member learns from refusals (which
//! refusal, or refused rather than accepted) says nothing about any later roll's dice.
//! (Logs written before nonces existed key each roll by SHA-256(seed ‖ "dice" ‖ seq); they
//! still replay.) A secret roll is published as SHA-256(salt ‖ result) with
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

/// The dice key of an event whose attempt drew `nonce`.
pub fn nonce_key(seed: &[u8; 32], nonce: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(seed);
    h.update(b"dice-nonce");
    h.update(nonce);
    h.finalize().into()
}

/// The dice key of a logged event: from its nonce if it has one (hex), else from its seq.
pub fn event_key(seed: &[u8; 32], seq: u64, nonce: Option<&str>) -> [u8; 32] {
    match nonce.and_then(parse_hex) {
        Some(nonce) => nonce_key(seed, &nonce),
        None => dice_key(seed, seq),
    }
}

/// Where a table gets the fresh nonce of each attempt. Never folded from the log.
#[derive(Clone)]
pub enum Entropy {
    /// The operating system's randomness (play).
    Os,
    /// A deterministic stream for tests: SHA-256(seed ‖ counter), the counter advanced by
    /// every attempt.
    Seeded(std::sync::Arc<std::sync::Mutex<([u8; 32], u64)>>),
    /// No nonce: each event's dice keyed by seed and seq, as logs were before nonces.
    /// Predictable to anyone who can probe with refused lines, so for tests written
    /// against seq-keyed dice only; never used by the CLI or server.
    SeqKeyedForTests,
    /// The nonce a logged attempt drew (hex; `None` for a log keyed by seq): `verify`
    /// decides a logged line again with exactly the dice it drew.
    Replay(Option<String>),
}

impl Entropy {
    /// A deterministic stream from `seed`, for tests.
    pub fn seeded(seed: [u8; 32]) -> Entropy {
        Entropy::Seeded(std::sync::Arc::new(std::sync::Mutex::new((seed, 0))))
    }

    /// The dice key of an attempt at `seq` and the nonce to record with it (none for
    /// [`Entropy::SeqKeyedForTests`]); `None` when the operating system has no randomness
    /// to give.
    pub fn key(&self, seed: &[u8; 32], seq: u64) -> Option<([u8; 32], Option<String>)> {
        match self {
            Entropy::SeqKeyedForTests => return Some((dice_key(seed, seq), None)),
            Entropy::Replay(nonce) => {
                return Some((event_key(seed, seq, nonce.as_deref()), nonce.clone()));
            }
            _ => {}
        }
        let nonce = self.nonce()?;
        Some((nonce_key(seed, &nonce), Some(hex(&nonce))))
    }

    /// The next nonce; `None` when the operating system has no randomness to give.
    pub fn nonce(&self) -> Option<[u8; 16]> {
        let mut out = [0u8; 16];
        match self {
            Entropy::SeqKeyedForTests => return None,
            Entropy::Replay(nonce) => {
                let bytes = parse_hex(nonce.as_deref()?)?;
                if bytes.len() != out.len() {
                    return None;
                }
                out.copy_from_slice(&bytes);
            }
            Entropy::Os => getrandom::fill(&mut out).ok()?,
            Entropy::Seeded(state) => {
                let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
                let mut h = Sha256::new();
                h.update(state.0);
                h.update(state.1.to_le_bytes());
                state.1 += 1;
                out.copy_from_slice(&h.finalize()[..16]);
            }
        }
        Some(out)
    }
}

impl std::fmt::Debug for Entropy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Entropy::Os => "Entropy::Os",
            Entropy::Seeded(_) => "Entropy::Seeded",
            Entropy::SeqKeyedForTests => "Entropy::SeqKeyedForTests",
            Entropy::Replay(_) => "Entropy::Replay",
        })
    }
}

/// A number in `0..span` drawn from the table's seed alone (0 when `span` is 0): where,
/// within its last stretch, the table's log counts as full ([`crate::store::fill_mark`]).
/// Secret like the seed (only the GM, who sees everything, could work it out), fixed for
/// the table's life (the same after every reload).
pub fn fill_offset(seed: &[u8; 32], span: u64) -> u64 {
    if span == 0 {
        return 0;
    }
    let d = derive(seed, b"log-fill", 0);
    let mut n = [0u8; 8];
    n.copy_from_slice(&d[..8]);
    u64::from_le_bytes(n) % span
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
    if s.len() != 64 {
        return None;
    }
    parse_hex(s)?.try_into().ok()
}

/// Parses an even number of hex digits.
pub fn parse_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok())
        .collect()
}
