//! SplitMix64 (Steele, Lea & Flood): the small deterministic generator the
//! minimum-weight heuristic shuffles and restarts with. Public so that the
//! crate's tests, benchmarks and examples draw reproducible random systems
//! from the same code. Nonlinear on purpose: a linear generator (xorshift)
//! gives "random" GF(2) matrices of low rank.

/// The generator; the field is the state (seed it with any value).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}
