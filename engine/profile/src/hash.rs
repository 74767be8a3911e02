//! A fast hasher for the integer keys of the big maps (child index, file
//! ids). The standard SipHash resists collision attacks that a profile
//! reader does not face and costs most of the parse time on large trees.

use std::hash::{BuildHasherDefault, Hasher};

/// Builds [`IntHasher`]s.
pub(crate) type IntHash = BuildHasherDefault<IntHasher>;

/// Mixes each integer written with the MurmurHash3 finalizer, so that both
/// the high bits (hashbrown's control bytes) and the low bits (its bucket
/// index) depend on every input bit.
#[derive(Default)]
pub(crate) struct IntHasher(u64);

impl Hasher for IntHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = fmix64(self.0.rotate_left(29) ^ n);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash(value: impl Hash) -> u64 {
        IntHash::default().hash_one(value)
    }

    #[test]
    fn keys_differing_only_in_high_bits_land_in_different_buckets() {
        // Packed (parent << 32 | frame) keys: the parent must reach the low bits.
        let low = |k: u64| hash(k) & 0xff;
        let buckets: std::collections::HashSet<u64> = (0..64u64).map(|p| low(p << 32 | 7)).collect();
        assert!(buckets.len() > 32, "{} buckets", buckets.len());
    }

    #[test]
    fn the_order_of_a_pairs_fields_matters() {
        assert_ne!(hash((1u64, 2u64)), hash((2u64, 1u64)));
    }
}
