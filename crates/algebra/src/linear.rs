//! What every single-modulus eliminator (`gf2`, `gf3_dense`, `z4_dense`,
//! `prime_power`) returns to
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

/// Whether `rows` are worth a dense eliminator in bit planes (`gf3_dense`,
/// `z4_dense`): at least 128 rows and columns, and at least one entry in
/// eight nonzero (as for GF(2)'s dense switch). Banded systems have a few
/// entries a row and stay windowed.
pub(crate) fn dense_enough(rows: &[SparseRow], ncols: usize) -> bool {
    const MIN_SIDE: usize = 128;
    if rows.len() < MIN_SIDE || ncols < MIN_SIDE {
        return false;
    }
    let nonzero: usize = rows.iter().map(Vec::len).sum();
    nonzero.saturating_mul(8) >= rows.len().saturating_mul(ncols)
}

/// Random systems for the dense eliminators' tests.
#[cfg(test)]
pub(crate) mod test_systems {
    use crate::sparse::SparseRow;
    use crate::splitmix::SplitMix64;

    /// `n` rows over `m` columns, each entry present with `percent` %
    /// probability, its value drawn by `value`.
    pub(crate) fn random_rows(
        rng: &mut SplitMix64,
        (n, m): (usize, usize),
        percent: u64,
        value: impl Fn(&mut SplitMix64) -> u32,
    ) -> Vec<SparseRow> {
        let mut rows = Vec::with_capacity(n);
        for _ in 0..n {
            let mut row = Vec::new();
            for c in 0..m as u32 {
                if rng.below(100) < percent {
                    row.push((c, value(rng)));
                }
            }
            rows.push(row);
        }
        rows
    }

    /// `A·x mod q`.
    pub(crate) fn residual(rows: &[SparseRow], x: &[u32], q: u32) -> Vec<u32> {
        rows.iter().map(|r| r.iter().map(|&(c, v)| v * x[c as usize]).sum::<u32>() % q).collect()
    }
}
