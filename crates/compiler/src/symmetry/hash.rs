//! Polynomial hashing modulo the Mersenne prime 2^61 − 1, with bases drawn
//! at random once per process.
//!
//! Two levels get the same form only when their canonical images hash the
//! same. The bases are random, so no input can be written to collide: two
//! different images of at most `n` values collide with probability at most
//! about n / 2^61 per pair (a nonzero polynomial of degree n has at most n
//! roots). For 10,000 levels of a million cells that is below 10^-4 for the
//! whole pack; forms are compared exactly beside their hashes where that is
//! cheap (the class: shape, size, rule, states, topology).

use std::sync::OnceLock;

/// 2^61 − 1.
pub(super) const P: u64 = (1 << 61) - 1;

/// a · b mod P.
#[inline]
pub(super) fn mul(a: u64, b: u64) -> u64 {
    let t = a as u128 * b as u128;
    let lo = (t as u64) & P;
    let hi = (t >> 61) as u64;
    let s = lo + hi;
    if s >= P {
        s - P
    } else {
        s
    }
}

/// a + b mod P (both below P).
#[inline]
pub(super) fn add(a: u64, b: u64) -> u64 {
    let s = a + b;
    if s >= P {
        s - P
    } else {
        s
    }
}

/// a − b mod P (both below P).
#[inline]
pub(super) fn sub(a: u64, b: u64) -> u64 {
    if a >= b {
        a - b
    } else {
        a + P - b
    }
}

pub(super) fn pow(mut base: u64, mut e: u64) -> u64 {
    let mut out = 1;
    while e > 0 {
        if e & 1 == 1 {
            out = mul(out, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    out
}

/// The process's random bases: `x` along columns, `y` down rows, `z` for
/// sequences (graphs, hex cell lists, class fields).
#[derive(Clone, Copy, Debug)]
pub(super) struct Bases {
    pub(super) x: u64,
    pub(super) y: u64,
    pub(super) z: u64,
}

pub(super) fn bases() -> Bases {
    static BASES: OnceLock<Bases> = OnceLock::new();
    *BASES.get_or_init(|| {
        // RandomState is seeded from the operating system's randomness.
        use std::hash::{BuildHasher, Hasher};
        let draw = |salt: u64| {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(salt);
            // Away from 0 and 1, which would make every position weigh the same.
            2 + h.finish() % (P - 3)
        };
        Bases { x: draw(1), y: draw(2), z: draw(3) }
    })
}

/// A sequence hash: Σ v_k · z^k, fed one value at a time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seq {
    acc: u64,
    z: u64,
}

impl Seq {
    pub(super) fn new() -> Seq {
        Seq { acc: 0, z: bases().z }
    }

    pub(super) fn push(&mut self, v: u64) -> &mut Seq {
        // Values above P fold in two halves, so no value is lost to the modulus.
        self.acc = add(mul(self.acc, self.z), (v >> 32) + 1);
        self.acc = add(mul(self.acc, self.z), (v & 0xffff_ffff) + 1);
        self
    }

    pub(super) fn finish(&self) -> u64 {
        self.acc
    }
}

impl Default for Seq {
    fn default() -> Seq {
        Seq::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_matches_wide_integers() {
        let cases = [(0, 0), (1, P - 1), (P - 1, P - 1), (123_456_789_012, 987_654_321_098), (1 << 60, 3)];
        for (a, b) in cases {
            assert_eq!(mul(a, b) as u128, (a as u128 * b as u128) % P as u128);
            assert_eq!(add(a, b) as u128, (a as u128 + b as u128) % P as u128);
            assert_eq!(sub(a, b) as u128, (a as u128 + P as u128 - b as u128) % P as u128);
        }
        assert_eq!(pow(3, P - 1), 1, "Fermat: P is prime");
    }

    #[test]
    fn sequences_differ_by_order_and_length() {
        let h = |vs: &[u64]| {
            let mut s = Seq::new();
            for &v in vs {
                s.push(v);
            }
            s.finish()
        };
        assert_ne!(h(&[1, 2]), h(&[2, 1]));
        assert_ne!(h(&[0]), h(&[0, 0]));
        assert_ne!(h(&[u64::MAX]), h(&[u64::MAX - 1]));
        assert_eq!(h(&[5, 6, 7]), h(&[5, 6, 7]));
    }
}
