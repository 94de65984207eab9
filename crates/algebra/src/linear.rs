//! What every single-modulus eliminator (`gf2`, `prime_power`) returns to
//! `solve`, which combines them by the Chinese remainder theorem. A leaf, so
//! the eliminators and `solve` do not depend on each other both ways.

/// What a single-modulus eliminator returns.
pub(crate) struct LinearResult {
    pub(crate) consistent: bool,
    pub(crate) particular: Option<Vec<u32>>,
    /// Generators `(vector, order)` of the kernel modulo that modulus.
    pub(crate) kernel: Vec<(Vec<u32>, u32)>,
}
