//! Hash maps and sets that behave the same on every run. The standard ones
//! seed their hash afresh in each process, so the order in which they hold,
//! and drop, their entries changes from run to run. Z3 reuses the ids of the
//! terms dropped, in the order they were dropped; a later term then gets
//! another id, and Z3 answers the very same query with another model. The
//! tests cairn writes must not change from run to run.
// The one place the standard types are named (clippy.toml forbids them
// elsewhere in the engine).
#![allow(clippy::disallowed_types)]

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// `seed` and `number` mixed into one well-spread number (SplitMix64's
/// step): the seed of the `number`th of a series, or a hash extended by
/// one more choice.
pub fn mix(seed: u64, number: u64) -> u64 {
    let mut z =
        (seed ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A multiply-rotate hasher (rustc's "Fx" scheme) without a seed: the
/// engine's keys are small (constraint numbers, term addresses, places),
/// which the standard SipHash took a tenth of a list walk's time to hash.
/// Not for keys an attacker chooses.
#[derive(Default, Clone, Copy)]
pub struct FixedHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FixedHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FixedHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        for byte in chunks.remainder() {
            self.add(u64::from(*byte));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    /// The product's high bits carry the most of the input: rotated down,
    /// they choose the bucket (term addresses are multiples of 8).
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

/// The hasher of the engine's maps, the same on every run.
pub type StableHasher = BuildHasherDefault<FixedHasher>;

pub type StableHashMap<K, V> = HashMap<K, V, StableHasher>;

pub type StableHashSet<T> = HashSet<T, StableHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn the_same_key_hashes_the_same_in_every_process_and_addresses_spread() {
        let hasher = StableHasher::default();
        assert_eq!(
            hasher.hash_one(7u32),
            StableHasher::default().hash_one(7u32)
        );
        // Addresses 16 apart must not all fall in one bucket of 64.
        let buckets: StableHashSet<u64> = (0..64usize)
            .map(|i| hasher.hash_one(0x7f00_0000_0000 + 16 * i) % 64)
            .collect();
        assert!(buckets.len() > 32, "{} buckets", buckets.len());
    }
}
