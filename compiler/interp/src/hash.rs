//! A fast, non-cryptographic hasher for the interpreter's internal maps.
//!
//! The keys (names, node ids, file ids) come from the program being run, not from an
//! adversary, so the DoS resistance of std's SipHash buys nothing, while its cost
//! shows up on every module member lookup. This hasher folds each word into the state
//! with a rotate, xor and multiply.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A word-at-a-time multiplicative hasher.
#[derive(Clone, Copy, Default)]
pub struct FastHasher {
    state: u64,
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // Spread the high bits (which the multiply mixes best) into the low ones,
        // which hashbrown uses to pick buckets.
        self.state ^ (self.state >> 29)
    }
}

/// A `HashMap` using [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A `HashSet` using [`FastHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_find_their_keys() {
        let mut m: FastMap<String, usize> = FastMap::default();
        for i in 0..1000 {
            m.insert(format!("name{i}"), i);
        }
        for i in 0..1000 {
            assert_eq!(m.get(&format!("name{i}")), Some(&i));
        }
        assert_eq!(m.get("name1000"), None);
        let mut h1 = FastHasher::default();
        h1.write(b"abc");
        let mut h2 = FastHasher::default();
        h2.write(b"abd");
        assert_ne!(h1.finish(), h2.finish());
    }
}
