//! Polynomials over GF(2), bit-packed: bit `i` of the word list is the
//! coefficient of `x^i` (word `i / 64`, bit `i % 64`).
//!
//! This is the arithmetic of the polynomial method for Lights Out
//! (docs/solver.md): on uniform cross-rule boards the leftover system of light
//! chasing is multiplication by a polynomial in a quotient ring
//! `GF(2)[x]/(m(x))`, so solving it is a gcd. Degrees reach 100,000, so every
//! loop works a word (64 coefficients) at a time; Euclid's algorithm with
//! cofactor costs about `deg² / 32` word operations.

/// A polynomial over GF(2). Invariant: no trailing zero words, so the zero
/// polynomial has no words and the degree is read off the last word.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Poly {
    words: Vec<u64>,
}

impl Poly {
    pub fn zero() -> Self {
        Poly { words: Vec::new() }
    }

    pub fn one() -> Self {
        Poly { words: vec![1] }
    }

    /// `x^k`.
    pub fn monomial(k: usize) -> Self {
        let mut words = vec![0u64; k / 64 + 1];
        words[k / 64] = 1 << (k % 64);
        Poly { words }
    }

    /// From coefficient words (bit `i` = coefficient of `x^i`); trailing zeros are dropped.
    pub fn from_words(words: Vec<u64>) -> Self {
        let mut p = Poly { words };
        p.trim();
        p
    }

    /// From a list of coefficients, lowest degree first.
    pub fn from_bits(bits: &[bool]) -> Self {
        let mut words = vec![0u64; bits.len().div_ceil(64)];
        for (i, _) in bits.iter().enumerate().filter(|(_, &b)| b) {
            words[i / 64] |= 1 << (i % 64);
        }
        Poly::from_words(words)
    }

    /// The coefficient words (no trailing zero word).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn into_words(self) -> Vec<u64> {
        self.words
    }

    pub fn is_zero(&self) -> bool {
        self.words.is_empty()
    }

    /// The degree; `None` for the zero polynomial.
    pub fn degree(&self) -> Option<usize> {
        let last = *self.words.last()?;
        Some((self.words.len() - 1) * 64 + 63 - last.leading_zeros() as usize)
    }

    pub fn coeff(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Adds `x^i` (flips one coefficient).
    pub fn flip(&mut self, i: usize) {
        if self.words.len() <= i / 64 {
            self.words.resize(i / 64 + 1, 0);
        }
        self.words[i / 64] ^= 1 << (i % 64);
        self.trim();
    }

    /// `self += other`.
    pub fn add_assign(&mut self, other: &Poly) {
        self.add_words_at(&other.words, 0, 0);
    }

    /// `self += other · x^k`.
    pub fn add_shifted(&mut self, other: &Poly, k: usize) {
        self.add_words_at(&other.words, k / 64, (k % 64) as u32);
    }

    /// `self · x` (one shift).
    pub fn times_x(&self) -> Poly {
        let mut out = Poly::zero();
        out.add_shifted(self, 1);
        out
    }

    /// The product, schoolbook over words: for each set bit of the shorter
    /// factor, one aligned XOR of a pre-shifted copy of the longer one.
    pub fn mul(&self, other: &Poly) -> Poly {
        let (short, long) = if self.words.len() <= other.words.len() { (self, other) } else { (other, self) };
        if short.is_zero() {
            return Poly::zero();
        }
        let shifts = Shifts::new(long);
        let mut out = vec![0u64; short.words.len() + long.words.len() + 1];
        for (wi, &word) in short.words.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                xor_into(&mut out[wi..], shifts.get(s));
            }
        }
        Poly::from_words(out)
    }

    /// Quotient and remainder of the division by `d` (`d` nonzero).
    pub fn div_rem(&self, d: &Poly) -> (Poly, Poly) {
        let dd = d.degree().expect("division by the zero polynomial");
        let mut r = self.clone();
        let Some(dr) = r.degree() else { return (Poly::zero(), r) };
        if dr < dd {
            return (Poly::zero(), r);
        }
        let shifts = Shifts::new(d);
        let mut q = vec![0u64; (dr - dd) / 64 + 1];
        let mut i = dr;
        loop {
            if r.coeff(i) {
                let k = i - dd;
                q[k / 64] |= 1 << (k % 64);
                // d·x^k = (d << (k % 64)) placed at word k / 64.
                xor_into(&mut r.words[k / 64..], shifts.get(k % 64));
            }
            if i == dd {
                break;
            }
            i -= 1;
        }
        r.trim();
        (Poly::from_words(q), r)
    }

    /// The remainder of the division by `d` (`d` nonzero).
    pub fn rem(&self, d: &Poly) -> Poly {
        self.div_rem(d).1
    }

    /// `(g, s)` with `g = gcd(a, m)` (monic, as every nonzero GF(2) polynomial
    /// is) and `s·a ≡ g (mod m)`. `m` must be nonzero.
    ///
    /// Euclid by single shift-and-XOR steps, carrying the cofactor of `a`
    /// alongside, so no quotient is ever multiplied out.
    pub fn gcd_cofactor(a: &Poly, m: &Poly) -> (Poly, Poly) {
        let (mut r0, mut s0) = (m.clone(), Poly::zero());
        let (mut r1, mut s1) = (a.rem(m), Poly::one());
        while let Some(d1) = r1.degree() {
            while let Some(d0) = r0.degree() {
                if d0 < d1 {
                    break;
                }
                let k = d0 - d1;
                r0.add_shifted(&r1, k);
                s0.add_shifted(&s1, k);
            }
            std::mem::swap(&mut r0, &mut r1);
            std::mem::swap(&mut s0, &mut s1);
        }
        // Cofactors are only meaningful modulo m.
        (r0, s0.rem(m))
    }

    /// `gcd(a, b)`.
    pub fn gcd(a: &Poly, b: &Poly) -> Poly {
        let (mut r0, mut r1) = (a.clone(), b.clone());
        while !r1.is_zero() {
            let r = r0.rem(&r1);
            r0 = r1;
            r1 = r;
        }
        r0
    }

    /// `self += words · x^(64·at + shift)`.
    fn add_words_at(&mut self, words: &[u64], at: usize, shift: u32) {
        if words.is_empty() {
            return;
        }
        let need = at + words.len() + usize::from(shift != 0);
        if self.words.len() < need {
            self.words.resize(need, 0);
        }
        let dst = &mut self.words[at..];
        if shift == 0 {
            xor_into(dst, words);
        } else {
            let mut carry = 0u64;
            for (d, &w) in dst.iter_mut().zip(words) {
                *d ^= (w << shift) | carry;
                carry = w >> (64 - shift);
            }
            dst[words.len()] ^= carry;
        }
        self.trim();
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }
}

/// `dst[i] ^= src[i]` over `src`'s length (`dst` at least as long).
fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

/// The 64 copies `p · x^s`, `s < 64`, each `len + 1` words, so that adding
/// `p · x^k` is one aligned XOR at word `k / 64`.
struct Shifts {
    len: usize,
    data: Vec<u64>,
}

impl Shifts {
    fn new(p: &Poly) -> Self {
        let len = p.words.len() + 1;
        let mut data = vec![0u64; 64 * len];
        for s in 0..64u32 {
            let row = &mut data[s as usize * len..(s as usize + 1) * len];
            if s == 0 {
                row[..len - 1].copy_from_slice(&p.words);
            } else {
                let mut carry = 0u64;
                for (d, &w) in row.iter_mut().zip(&p.words) {
                    *d = (w << s) | carry;
                    carry = w >> (64 - s);
                }
                row[len - 1] = carry;
            }
        }
        Shifts { len, data }
    }

    fn get(&self, s: usize) -> &[u64] {
        let row = &self.data[s * self.len..(s + 1) * self.len];
        // Drop a zero top word so callers near the end of a buffer stay in bounds.
        if row[self.len - 1] == 0 {
            &row[..self.len - 1]
        } else {
            row
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Reference arithmetic on coefficient lists.
    fn naive_mul(a: &[bool], b: &[bool]) -> Vec<bool> {
        let mut out = vec![false; a.len() + b.len()];
        for (i, &x) in a.iter().enumerate() {
            for (j, &y) in b.iter().enumerate() {
                out[i + j] ^= x && y;
            }
        }
        out
    }

    fn bits(p: &Poly) -> Vec<bool> {
        (0..p.degree().map_or(0, |d| d + 1)).map(|i| p.coeff(i)).collect()
    }

    fn poly_strategy() -> impl Strategy<Value = Poly> {
        proptest::collection::vec(any::<bool>(), 0..300).prop_map(|b| Poly::from_bits(&b))
    }

    proptest! {
        #[test]
        fn mul_matches_naive(a in poly_strategy(), b in poly_strategy()) {
            let want = Poly::from_bits(&naive_mul(&bits(&a), &bits(&b)));
            prop_assert_eq!(a.mul(&b), want);
        }

        #[test]
        fn div_rem_reconstructs(a in poly_strategy(), d in poly_strategy()) {
            prop_assume!(!d.is_zero());
            let (q, r) = a.div_rem(&d);
            let mut back = q.mul(&d);
            back.add_assign(&r);
            prop_assert_eq!(back, a);
            prop_assert!(r.degree().is_none_or(|x| x < d.degree().unwrap()));
        }

        #[test]
        fn gcd_cofactor_is_bezout(a in poly_strategy(), m in poly_strategy()) {
            prop_assume!(!m.is_zero());
            let (g, s) = Poly::gcd_cofactor(&a, &m);
            prop_assert_eq!(&g, &Poly::gcd(&a, &m));
            // g divides both.
            prop_assert!(a.rem(&g).is_zero() && m.rem(&g).is_zero());
            // s·a ≡ g (mod m), or g = m when a ≡ 0.
            let lhs = s.mul(&a).rem(&m);
            prop_assert_eq!(lhs, g.rem(&m));
        }
    }

    #[test]
    fn degrees_and_monomials() {
        assert_eq!(Poly::zero().degree(), None);
        assert_eq!(Poly::one().degree(), Some(0));
        assert_eq!(Poly::monomial(64).degree(), Some(64));
        assert_eq!(Poly::monomial(3).times_x(), Poly::monomial(4));
        let mut p = Poly::monomial(130);
        p.flip(130);
        assert!(p.is_zero());
    }

    #[test]
    fn known_gcd() {
        // x² + 1 = (x + 1)², x³ + 1 = (x + 1)(x² + x + 1): gcd x + 1.
        let a = Poly::from_bits(&[true, false, true]);
        let b = Poly::from_bits(&[true, false, false, true]);
        assert_eq!(Poly::gcd(&a, &b), Poly::from_bits(&[true, true]));
    }
}
