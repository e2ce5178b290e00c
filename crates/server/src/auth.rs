//! Bearer tokens for the table API.
//!
//! A token is 32 bytes from the operating system's randomness, written as 64 hex digits.
//! Its first 16 digits are its key id, stored in the clear to find its row; the store
//! keeps only the SHA-256 of the whole token, and a presented token's hash is compared
//! with the stored one in constant time. A token read from the database is therefore
//! useless to an attacker, and timing says nothing about how much of a guess was right.
//! The 192 bits after the key id are the secret part.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use taku_table::Role;
use taku_table::store::{Credential, EventStore, Store, StoreError};

/// Hex digits in a token.
const TOKEN_LEN: usize = 64;
/// Hex digits of its key id.
const KEY_ID_LEN: usize = 16;

/// A fresh token, and the credential that stores it (by hash).
pub fn issue(
    table: &str,
    member: Option<&str>,
    role: Role,
) -> Result<(String, Credential), String> {
    let mut raw = [0u8; TOKEN_LEN / 2];
    getrandom::fill(&mut raw)
        .map_err(|e| format!("no randomness from the operating system: {e}"))?;
    let token = taku_table::secret::hex(&raw);
    let credential = Credential {
        key_id: token[..KEY_ID_LEN].to_string(),
        hash: hash(&token),
        table: table.to_string(),
        member: member.map(str::to_string),
        role,
    };
    Ok((token, credential))
}

fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Why a presented token grants nothing.
#[derive(Debug)]
pub enum Denied {
    /// Malformed, unknown, or not matching its stored hash: one answer for all three.
    Invalid,
    /// The store failed.
    Store(StoreError),
}

/// The credential `token` proves, looked up in `store`.
pub async fn check(store: &Store, token: &str) -> Result<Credential, Denied> {
    if token.len() != TOKEN_LEN || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Denied::Invalid);
    }
    let token = token.to_ascii_lowercase();
    let stored = store
        .credential(&token[..KEY_ID_LEN])
        .await
        .map_err(Denied::Store)?
        .ok_or(Denied::Invalid)?;
    if bool::from(stored.hash.ct_eq(&hash(&token))) {
        Ok(stored)
    } else {
        Err(Denied::Invalid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_stored_only_by_hash() {
        let (a, ca) = issue("t", Some("gm"), Role::Gm).expect("random");
        let (b, _) = issue("t", Some("gm"), Role::Gm).expect("random");
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(ca.key_id, a[..16]);
        assert_eq!(ca.hash, hash(&a));
        // The credential never holds the token's secret part.
        assert!(!format!("{ca:?}").contains(&a[16..]));
    }
}
