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
}

impl U64Table {
    /// A table for up to `capacity` keys.
    pub(super) fn new(capacity: usize) -> Self {
        let size = (4 * capacity).next_power_of_two().max(16);
        U64Table { keys: vec![0; size], values: vec![0; size], shift: 64 - size.trailing_zeros() }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        ((key ^ (key >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
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
