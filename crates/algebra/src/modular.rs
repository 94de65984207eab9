//! Elementary number theory on small moduli: factorisation, inverses,
//! valuations and the Chinese remainder theorem.
//!
//! All moduli handled by this crate are at most 65536, so every product of two
//! residues fits in a `u32` and every sum of a few such products in a `u64`.

/// Prime factorisation of `w` as `(p, e)` pairs with increasing `p`.
///
/// `factorize(12) == [(2, 2), (3, 1)]`. Returns an empty vector for `w <= 1`.
/// Trial division is plenty for `w <= 2^32`.
pub fn factorize(w: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    if w <= 1 {
        return out;
    }
    let mut n = w as u64;
    let mut p = 2u64;
    while p * p <= n {
        if n.is_multiple_of(p) {
            let mut e = 0;
            while n.is_multiple_of(p) {
                n /= p;
                e += 1;
            }
            out.push((p as u32, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if n > 1 {
        out.push((n as u32, 1));
    }
    out
}

/// `base^exp mod m` (with `m >= 1`).
pub fn mod_pow(base: u64, mut exp: u64, m: u64) -> u64 {
    if m <= 1 {
        return 0;
    }
    let mut result = 1u64;
    let mut b = base % m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = ((result as u128 * b as u128) % m as u128) as u64;
        }
        b = ((b as u128 * b as u128) % m as u128) as u64;
        exp >>= 1;
    }
    result
}

/// The greatest common divisor of `a` and `b` (`gcd(0, 0) == 0`).
pub fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The inverse of `a` modulo `m`, if `gcd(a, m) == 1`.
///
/// Uses the extended Euclidean algorithm. `mod_inv(x, 1) == Some(0)`;
/// `mod_inv(x, 0) == None`.
pub fn mod_inv(a: u32, m: u32) -> Option<u32> {
    if m == 0 {
        return None;
    }
    if m == 1 {
        return Some(0);
    }
    let (mut old_r, mut r) = ((a % m) as i64, m as i64);
    let (mut old_s, mut s) = (1i64, 0i64);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    if old_r != 1 {
        return None;
    }
    Some(old_s.rem_euclid(m as i64) as u32)
}

/// The `p`-adic valuation of `a`: the largest `v` with `p^v | a`.
///
/// By convention `valuation(0, p) == u32::MAX` (zero is divisible by every power).
/// `p` must be at least 2; for `p < 2` the result is 0.
pub fn valuation(mut a: u32, p: u32) -> u32 {
    if a == 0 {
        return u32::MAX;
    }
    if p < 2 {
        return 0;
    }
    let mut v = 0;
    while a.is_multiple_of(p) {
        a /= p;
        v += 1;
    }
    v
}

/// `p^e` as a `u64` (saturating, never overflows for the sizes used here).
pub fn pow(p: u32, e: u32) -> u64 {
    (p as u64).saturating_pow(e)
}

/// The CRT idempotent for the factor `q` of `w` (with `gcd(q, w/q) == 1`):
/// the residue `E mod w` with `E ≡ 1 (mod q)` and `E ≡ 0 (mod w/q)`.
///
/// Multiplying a vector that is meaningful modulo `q` by `E` lifts it to `Z/w`
/// while making it vanish modulo every other prime power. Returns `None` if
/// `q` does not divide `w` or is not coprime to the cofactor.
pub fn crt_idempotent(w: u32, q: u32) -> Option<u32> {
    if q == 0 || w == 0 || !w.is_multiple_of(q) {
        return None;
    }
    let cof = w / q;
    let inv = mod_inv(cof % q, q)?;
    Some(((cof as u64 * inv as u64) % w as u64) as u32)
}

/// Recombines residues `r_i mod q_i` (pairwise coprime `q_i`) into the unique
/// residue modulo `∏ q_i`. Returns `None` when the moduli are not pairwise
/// coprime or their product overflows `u32`.
pub fn crt_combine(residues: &[(u32, u32)]) -> Option<u32> {
    let mut value: u64 = 0;
    let mut modulus: u64 = 1;
    for &(r, q) in residues {
        if q == 0 {
            return None;
        }
        let q64 = q as u64;
        let new_mod = modulus.checked_mul(q64).filter(|&m| m <= u32::MAX as u64 + 1)?;
        // Find t with value + modulus·t ≡ r (mod q).
        let inv = mod_inv((modulus % q64) as u32, q)? as u64;
        let diff = ((r as u64 % q64) + q64 - value % q64) % q64;
        let t = (diff * inv) % q64;
        value += modulus * t;
        modulus = new_mod;
    }
    u32::try_from(value % modulus.max(1)).ok()
}

/// Reduces a slice modulo `w` into a fresh vector.
pub(crate) fn reduce_vec(v: &[u32], w: u32) -> Vec<u32> {
    v.iter().map(|&x| x % w).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorize_small_and_edge() {
        assert_eq!(factorize(0), vec![]);
        assert_eq!(factorize(1), vec![]);
        assert_eq!(factorize(2), vec![(2, 1)]);
        assert_eq!(factorize(12), vec![(2, 2), (3, 1)]);
        assert_eq!(factorize(65536), vec![(2, 16)]);
        assert_eq!(factorize(65535), vec![(3, 1), (5, 1), (17, 1), (257, 1)]);
        assert_eq!(factorize(65521), vec![(65521, 1)]);
        assert_eq!(factorize(2 * 3 * 3 * 7 * 11 * 11), vec![(2, 1), (3, 2), (7, 1), (11, 2)]);
        for w in 2..3000u32 {
            let f = factorize(w);
            let prod: u64 = f.iter().map(|&(p, e)| pow(p, e)).product();
            assert_eq!(prod, w as u64);
        }
    }

    #[test]
    fn inverses() {
        assert_eq!(mod_inv(3, 7), Some(5));
        assert_eq!(mod_inv(2, 4), None);
        assert_eq!(mod_inv(0, 5), None);
        assert_eq!(mod_inv(5, 1), Some(0));
        assert_eq!(mod_inv(1, 0), None);
        for m in [2u32, 9, 16, 65536, 65521] {
            for a in 1..200u32 {
                match mod_inv(a, m) {
                    Some(i) => assert_eq!((a as u64 * i as u64) % m as u64, 1),
                    None => assert_ne!(gcd(a, m), 1),
                }
            }
        }
    }

    #[test]
    fn valuations() {
        assert_eq!(valuation(12, 2), 2);
        assert_eq!(valuation(12, 3), 1);
        assert_eq!(valuation(12, 5), 0);
        assert_eq!(valuation(0, 3), u32::MAX);
        assert_eq!(valuation(32768, 2), 15);
        assert_eq!(valuation(7, 1), 0);
    }

    #[test]
    fn powers() {
        assert_eq!(mod_pow(3, 4, 7), 81 % 7);
        assert_eq!(mod_pow(2, 16, 65537), 65536);
        assert_eq!(mod_pow(5, 0, 1), 0);
        assert_eq!(pow(2, 16), 65536);
    }

    #[test]
    fn crt() {
        assert_eq!(crt_combine(&[(1, 4), (2, 3)]), Some(5));
        assert_eq!(crt_combine(&[(0, 2), (0, 3)]), Some(0));
        assert_eq!(crt_combine(&[(1, 2), (2, 4)]), None);
        assert_eq!(crt_combine(&[]), Some(0));
        for x in 0..(8 * 9 * 5) {
            let r = crt_combine(&[(x % 8, 8), (x % 9, 9), (x % 5, 5)]);
            assert_eq!(r, Some(x));
        }
        let e = crt_idempotent(12, 4).unwrap();
        assert_eq!(e % 4, 1);
        assert_eq!(e % 3, 0);
        let e = crt_idempotent(12, 3).unwrap();
        assert_eq!(e % 3, 1);
        assert_eq!(e % 4, 0);
        assert_eq!(crt_idempotent(12, 5), None);
        assert_eq!(crt_idempotent(12, 2), None); // 2 and 6 are not coprime
        assert_eq!(crt_idempotent(7, 7), Some(1));
    }
}
