//! What every single-modulus eliminator (`gf2`, `prime_power`) returns to
//! `solve`, which combines them by the Chinese remainder theorem. A leaf, so
//! the eliminators and `solve` do not depend on each other both ways.

use crate::sparse::SparseRow;

/// What a single-modulus eliminator returns.
pub(crate) struct LinearResult {
    pub(crate) consistent: bool,
    pub(crate) particular: Option<Vec<u32>>,
    /// Generators `(vector, order)` of the kernel modulo that modulus.
    pub(crate) kernel: Vec<(Vec<u32>, u32)>,
}

/// Whether `rows` are worth a dense eliminator in bit planes (`gf3_dense`, `z4_dense`): at least 128 rows and
/// columns, and at least one entry in eight nonzero (as for GF(2)'s dense
/// switch). Banded systems have a few entries a row and stay windowed.
pub(crate) fn dense_enough(rows: &[SparseRow], ncols: usize) -> bool {
    const MIN_SIDE: usize = 128;
    if rows.len() < MIN_SIDE || ncols < MIN_SIDE {
        return false;
    }
    let nonzero: usize = rows.iter().map(Vec::len).sum();
    nonzero.saturating_mul(8) >= rows.len().saturating_mul(ncols)
}
