//! Where every die comes from.
//!
//! All randomness in taku goes through a [`DiceSource`]. Three sources exist: a seedable
//! ChaCha20 stream ([`ChaChaSource`]), the same seeded from the operating system
//! ([`ChaChaSource::from_os`]), and a scripted source ([`ScriptedSource`]) that hands out
//! exactly the draws a test or a replay lists, and refuses anything else.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// A source of die draws.
pub trait DiceSource {
    /// Draws one die with `sides` faces (at least 1) and returns a value in `1..=sides`.
    fn roll(&mut self, sides: u32) -> Result<u32, DrawError>;

    /// Whether draws may be taken ahead of being asked for and thrown away unused: true
    /// only for a stream nothing records or replays ([`Unrecorded`]). A table's dice, a
    /// seeded or scripted source, must hand out exactly the draws that are used, so the
    /// default is false.
    fn may_draw_ahead(&self) -> bool {
        false
    }
}

/// A source whose stream nothing records or replays (a stateless bcdice-api roll), so
/// draws taken ahead and not used may be thrown away: see [`DiceSource::may_draw_ahead`].
#[derive(Debug)]
pub struct Unrecorded<'a, S: DiceSource + ?Sized>(pub &'a mut S);

impl<S: DiceSource + ?Sized> DiceSource for Unrecorded<'_, S> {
    fn roll(&mut self, sides: u32) -> Result<u32, DrawError> {
        self.0.roll(sides)
    }

    fn may_draw_ahead(&self) -> bool {
        true
    }
}

/// A draw the source could not hand out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The script has no draw left.
    #[error("draw #{index} asked for a d{sides}, but the script has only {available} draws")]
    Exhausted {
        /// 1-based number of the draw that was asked for.
        index: usize,
        /// Sides asked for.
        sides: u32,
        /// How many draws the script held.
        available: usize,
    },
    /// The script's next draw has other sides than the one asked for.
    #[error("draw #{index} asked for a d{asked}, but the script has a d{scripted} there")]
    SidesMismatch {
        /// 1-based number of the draw.
        index: usize,
        /// Sides asked for.
        asked: u32,
        /// Sides in the script.
        scripted: u32,
    },
    /// The script's value is not a face of its die.
    #[error("draw #{index} in the script is {value} on a d{sides}, which has no such face")]
    ValueOutOfRange {
        /// 1-based number of the draw.
        index: usize,
        /// Sides of the scripted draw.
        sides: u32,
        /// The impossible value.
        value: u32,
    },
}

impl DrawError {
    /// The message in Japanese (the English is this error's `Display`).
    pub fn ja(&self) -> String {
        match self {
            DrawError::Exhausted {
                index,
                sides,
                available,
            } => format!(
                "{index} 番目のダイスとして d{sides} が必要ですが、指定されたダイスは {available} 個しかありません"
            ),
            DrawError::SidesMismatch {
                index,
                asked,
                scripted,
            } => format!(
                "{index} 番目のダイスとして d{asked} が必要ですが、指定されたのは d{scripted} です"
            ),
            DrawError::ValueOutOfRange {
                index,
                sides,
                value,
            } => format!(
                "指定された {index} 番目のダイスは d{sides} で {value} ですが、その目はありません"
            ),
        }
    }
}

/// A ChaCha20 stream turned into unbiased die rolls.
///
/// The mapping from the stream to die faces is ours ([`unbiased_roll`]), not a library's, so a
/// recorded seed replays to the same dice whatever version of `rand` is in use.
#[derive(Debug, Clone)]
pub struct ChaChaSource {
    rng: ChaCha20Rng,
}

impl ChaChaSource {
    /// A source whose stream is fixed by `seed`: the 32-byte ChaCha20 key is `seed` in
    /// little-endian followed by 24 zero bytes.
    pub fn from_seed(seed: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        Self::from_key(key)
    }

    /// A source keyed by a full 32-byte key.
    pub fn from_key(key: [u8; 32]) -> Self {
        Self {
            rng: ChaCha20Rng::from_seed(key),
        }
    }

    /// A source keyed from the operating system's randomness, with the key returned so the
    /// draws can be replayed later.
    pub fn from_os() -> Result<(Self, [u8; 32]), getrandom::Error> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key)?;
        Ok((Self::from_key(key), key))
    }
}

impl DiceSource for ChaChaSource {
    fn roll(&mut self, sides: u32) -> Result<u32, DrawError> {
        Ok(unbiased_roll(sides, || self.rng.next_u32()))
    }
}

/// Maps uniform 32-bit words to a uniform value in `1..=sides` by rejection sampling: words
/// at or above the largest multiple of `sides` are thrown away, so every face is equally
/// likely. `sides` of 0 is treated as 1.
pub fn unbiased_roll(sides: u32, mut next_u32: impl FnMut() -> u32) -> u32 {
    let sides = sides.max(1);
    // Number of words that would bias the result: 2^32 mod sides.
    let reject_below = sides.wrapping_neg() % sides;
    loop {
        let word = next_u32();
        // Reject from the bottom of the range; accepted words span a whole multiple of sides.
        if word >= reject_below {
            return (word - reject_below) % sides + 1;
        }
    }
}

/// One scripted draw: a die with `sides` faces showing `value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptedDraw {
    /// Sides the draw must be asked for with.
    pub sides: u32,
    /// Value handed out.
    pub value: u32,
}

/// Hands out a fixed list of draws, in order, and fails on anything unexpected: a draw past
/// the end, a draw asked with other sides, or a value the die cannot show.
#[derive(Debug, Clone)]
pub struct ScriptedSource {
    draws: Vec<ScriptedDraw>,
    next: usize,
    any_face: bool,
}

impl ScriptedSource {
    /// A source that will hand out `draws` in order.
    pub fn new(draws: impl IntoIterator<Item = ScriptedDraw>) -> Self {
        Self {
            draws: draws.into_iter().collect(),
            next: 0,
            any_face: false,
        }
    }

    /// Hands out faces outside `1..=sides` as written, as BCDice's own test harness does
    /// (its test data scripts a 0 on a d10 here and there). Only for the reference engine,
    /// which reads any value; taku's own systems rely on faces being in range.
    pub fn any_face(mut self) -> Self {
        self.any_face = true;
        self
    }

    /// Number of draws handed out so far.
    pub fn used(&self) -> usize {
        self.next
    }

    /// Number of draws not yet handed out.
    pub fn remaining(&self) -> usize {
        self.draws.len() - self.next
    }
}

impl DiceSource for ScriptedSource {
    fn roll(&mut self, sides: u32) -> Result<u32, DrawError> {
        let index = self.next + 1;
        let Some(draw) = self.draws.get(self.next) else {
            return Err(DrawError::Exhausted {
                index,
                sides,
                available: self.draws.len(),
            });
        };
        if draw.sides != sides {
            return Err(DrawError::SidesMismatch {
                index,
                asked: sides,
                scripted: draw.sides,
            });
        }
        if !self.any_face && (draw.value == 0 || draw.value > draw.sides) {
            return Err(DrawError::ValueOutOfRange {
                index,
                sides: draw.sides,
                value: draw.value,
            });
        }
        self.next += 1;
        Ok(draw.value)
    }
}

impl<S: DiceSource + ?Sized> DiceSource for &mut S {
    fn roll(&mut self, sides: u32) -> Result<u32, DrawError> {
        (**self).roll(sides)
    }

    fn may_draw_ahead(&self) -> bool {
        (**self).may_draw_ahead()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draws() {
        let mut a = ChaChaSource::from_seed(42);
        let mut b = ChaChaSource::from_seed(42);
        let xs: Vec<u32> = (0..100).map(|_| a.roll(6).expect("infallible")).collect();
        let ys: Vec<u32> = (0..100).map(|_| b.roll(6).expect("infallible")).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&v| (1..=6).contains(&v)));
    }

    #[test]
    fn seeded_stream_is_pinned() {
        // Guards replays across dependency upgrades: these are the first d6 of seed 1.
        let mut s = ChaChaSource::from_seed(1);
        let got: Vec<u32> = (0..8).map(|_| s.roll(6).expect("infallible")).collect();
        assert_eq!(got, PINNED_SEED_1_D6);
    }
    const PINNED_SEED_1_D6: [u32; 8] = [2, 4, 3, 2, 5, 4, 5, 2];

    #[test]
    fn rejection_sampling_discards_the_biased_words() {
        // With 3 sides, 2^32 mod 3 = 1, so word 0 is rejected and word 1 maps to face 1.
        let mut words = [0u32, 1, 2, 3, u32::MAX].into_iter();
        let faces: Vec<u32> = (0..4)
            .map(|_| unbiased_roll(3, || words.next().expect("enough words")))
            .collect();
        assert_eq!(faces, [1, 2, 3, 3]);
    }

    #[test]
    fn unbiased_over_all_residues() {
        // Every face of a d6 takes the same number of accepted words in a window of 6·k words.
        let sides = 6u32;
        let reject = sides.wrapping_neg() % sides;
        let mut counts = [0u32; 6];
        for w in reject..reject + 6 * 1000 {
            counts[(unbiased_roll(sides, || w) - 1) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| c == 1000), "{counts:?}");
    }

    #[test]
    fn scripted_refuses_extra_draws_and_wrong_sides() {
        let mut s = ScriptedSource::new([ScriptedDraw { sides: 6, value: 3 }]);
        assert_eq!(
            s.roll(10),
            Err(DrawError::SidesMismatch {
                index: 1,
                asked: 10,
                scripted: 6
            })
        );
        assert_eq!(s.roll(6), Ok(3));
        assert_eq!(
            s.roll(6),
            Err(DrawError::Exhausted {
                index: 2,
                sides: 6,
                available: 1
            })
        );
    }

    #[test]
    fn scripted_refuses_impossible_values() {
        let mut s = ScriptedSource::new([ScriptedDraw { sides: 6, value: 7 }]);
        assert!(matches!(s.roll(6), Err(DrawError::ValueOutOfRange { .. })));
    }
}
