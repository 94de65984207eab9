//! SplitMix64 (Steele, Lea & Flood): the small deterministic generator of
//! the workspace. The minimum-weight heuristic shuffles and restarts with it,
//! the sliding crate draws its seeded positions with it, and tests,
//! benchmarks and examples draw reproducible random systems from the same
//! code. Nonlinear on purpose: a linear generator (xorshift) gives "random"
//! GF(2) matrices of low rank.
//!
//! Two ways to draw a number below `n`, each kept because seeded answers
//! depend on it: [`SplitMix64::below`] (a remainder: the heuristic's
//! restarts, whose answers the docs quote) and [`SplitMix64::index_below`]
//! (multiply-high: the sliding puzzle's shuffles and walks, whose positions
//! the sliding tests and docs pin).

/// The generator; the field is the state (seed it with any value).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The generator seeded with `seed` (the same as `SplitMix64(seed)`).
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0), as the remainder of the next
    /// draw (bias < n/2⁶⁴).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// An index in `0..n` (0 when `n` is 0), by the multiply-high method
    /// (bias < n/2⁶⁴): the high half of `next_u64() · n`.
    pub fn index_below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    /// The reference sequence of seed 0 (Vigna's splitmix64.c), and the two
    /// draws below `n` taken from the same first value.
    #[test]
    fn the_sequence_and_both_draws_below_n_are_the_reference_ones() {
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let first = 0xE220_A839_7B1D_CDAFu64;
        assert_eq!(SplitMix64(0).below(10), first % 10);
        assert_eq!(SplitMix64(0).index_below(10), ((u128::from(first) * 10) >> 64) as usize);
        assert_eq!(SplitMix64(0).index_below(10), 8);
        assert_eq!(SplitMix64(0).below(0), 0);
        assert_eq!(SplitMix64(0).index_below(0), 0);
    }
}
