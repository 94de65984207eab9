//! A small open-addressing hash table from signatures (one or more 64-bit
//! words, stored elsewhere) to `u32` values. The triple search looks up a
//! few million signatures; std's `HashMap` with SipHash is several times slower.

/// Maps signatures to values; keys live in an external `store` (`words` words each).
pub(super) struct SigTable {
    /// `(key index + 1, value)`; key index 0 marks an empty slot.
    slots: Vec<(u32, u32)>,
    mask: usize,
    words: usize,
}

#[inline]
fn hash(key: &[u64]) -> usize {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &k in key {
        h = (h ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h.wrapping_mul(0xBF58_476D_1CE4_E5B9) as usize
}

/// Slice equality without a call to `memcmp` (keys are a word or two).
#[inline]
fn same(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

impl SigTable {
    /// A table for up to `capacity` keys of `words` words each.
    pub(super) fn new(capacity: usize, words: usize) -> Self {
        let size = (2 * capacity).next_power_of_two().max(16);
        SigTable { slots: vec![(0, 0); size], mask: size - 1, words }
    }

    #[inline]
    fn key<'s>(&self, store: &'s [u64], index: u32) -> &'s [u64] {
        let i = (index - 1) as usize;
        &store[i * self.words..(i + 1) * self.words]
    }

    /// Inserts `store[key_index]` with `value` unless the signature is already
    /// present; returns the value now associated with it.
    pub(super) fn insert(&mut self, key_index: usize, value: u32, store: &[u64]) -> u32 {
        let key = &store[key_index * self.words..(key_index + 1) * self.words];
        let mut i = hash(key) & self.mask;
        loop {
            let (k, v) = self.slots[i];
            if k == 0 {
                self.slots[i] = (key_index as u32 + 1, value);
                return value;
            }
            if same(self.key(store, k), key) {
                return v;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The value of `key`, if present.
    #[inline]
    pub(super) fn get(&self, key: &[u64], store: &[u64]) -> Option<u32> {
        let mut i = hash(key) & self.mask;
        loop {
            let (k, v) = self.slots[i];
            if k == 0 {
                return None;
            }
            if same(self.key(store, k), key) {
                return Some(v);
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// Signatures of up to 128 bits: nonzero keys stored in the table itself,
/// found with one multiplication and usually one probe (the table is kept at
/// most one quarter full).
pub(super) struct WordTable {
    /// `(key, value)`; key 0 marks an empty slot.
    slots: Vec<(u128, u32)>,
    shift: u32,
}

impl WordTable {
    /// A table for up to `capacity` keys.
    pub(super) fn new(capacity: usize) -> Self {
        let size = (4 * capacity).next_power_of_two().max(16);
        WordTable { slots: vec![(0, 0); size], shift: 64 - size.trailing_zeros() }
    }

    #[inline]
    fn slot(&self, key: u128) -> usize {
        // Fold to 64 bits, then the high half in, then Fibonacci hashing (top
        // bits of a product by 2^64/φ).
        let k = key as u64 ^ (key >> 64) as u64;
        ((k ^ (k >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Inserts a nonzero `key` with `value` unless present; returns its value.
    pub(super) fn insert(&mut self, key: u128, value: u32) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let (k, v) = self.slots[i];
            if k == 0 {
                self.slots[i] = (key, value);
                return value;
            }
            if k == key {
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of a nonzero `key`, if present.
    #[inline]
    pub(super) fn get(&self, key: u128) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.slot(key);
        loop {
            let (k, v) = self.slots[i & mask];
            if k == key {
                return Some(v);
            }
            if k == 0 {
                return None;
            }
            i += 1;
        }
    }
}

/// Signatures of one word: nonzero keys in a table of keys alone (values
/// apart), so that a lookup that misses touches one cache line.
pub(super) struct U64Table {
    keys: Vec<u64>,
    values: Vec<u32>,
    shift: u32,
    /// A bitmap of eight bits a slot, with the bit of each key present set
    /// (by the top bits of its hash): a lookup that misses (almost all of the
    /// triple search's) usually stops at this bit, in a bitmap small enough
    /// to stay in the first-level cache.
    filter: Vec<u64>,
    filter_shift: u32,
}

impl U64Table {
    /// A table for up to `capacity` keys.
    pub(super) fn new(capacity: usize) -> Self {
        let size = (4 * capacity).next_power_of_two().max(16);
        // Eight filter bits a slot (32 a key): about 3 % false positives.
        let filter_bits = (8 * size).max(64);
        U64Table {
            keys: vec![0; size],
            values: vec![0; size],
            shift: 64 - size.trailing_zeros(),
            filter: vec![0; filter_bits / 64],
            filter_shift: 64 - filter_bits.trailing_zeros(),
        }
    }

    #[inline]
    fn mix(key: u64) -> u64 {
        (key ^ (key >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (Self::mix(key) >> self.shift) as usize
    }

    /// The filter's bit for `key`: its word and mask.
    #[inline]
    fn filter_bit(&self, key: u64) -> (usize, u64) {
        let h = (Self::mix(key) >> self.filter_shift) as usize;
        (h / 64, 1 << (h % 64))
    }

    /// Inserts a nonzero `key` with `value` unless present; returns its value.
    pub(super) fn insert(&mut self, key: u64, value: u32) -> u32 {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.keys[i];
            if k == 0 {
                self.keys[i] = key;
                self.values[i] = value;
                let (w, bit) = self.filter_bit(key);
                self.filter[w] |= bit;
                return value;
            }
            if k == key {
                return self.values[i];
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of a nonzero `key`, if present.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<u32> {
        let (w, bit) = self.filter_bit(key);
        if self.filter[w] & bit == 0 {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                return Some(self.values[i]);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SplitMix64;
    use std::collections::HashMap;

    /// Every table answers as a `HashMap` does, for keys present and absent
    /// (the filter of `U64Table` may only skip keys that are absent).
    #[test]
    fn tables_agree_with_a_hash_map() {
        let mut rng = SplitMix64(61);
        for size in [1usize, 7, 100, 3000] {
            let keys: Vec<u64> = (0..size).map(|_| rng.next_u64() >> rng.below(64) | 1).collect();
            let mut reference = HashMap::new();
            let mut one = U64Table::new(size);
            let mut two = WordTable::new(size);
            let mut many = SigTable::new(size, 1);
            for (i, &k) in keys.iter().enumerate() {
                let v = *reference.entry(k).or_insert(i as u32);
                assert_eq!(one.insert(k, i as u32), v);
                assert_eq!(two.insert(k as u128 | (k as u128) << 64, i as u32), v);
                assert_eq!(many.insert(i, i as u32, &keys), v);
            }
            for probe in keys.iter().copied().chain((0..4 * size).map(|_| rng.next_u64() | 1)) {
                let want = reference.get(&probe).copied();
                assert_eq!(one.get(probe), want, "U64Table, {size} keys");
                assert_eq!(two.get(probe as u128 | (probe as u128) << 64), want, "WordTable");
                assert_eq!(many.get(&[probe], &keys), want, "SigTable");
            }
        }
    }
}
