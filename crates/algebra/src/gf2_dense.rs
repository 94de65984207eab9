//! Dense GF(2) systems, bit-packed: [`solve_gf2_dense`] on a
//! [`BitMatrix`], which answers everything about `A·x = b` (consistency,
//! a particular solution, a kernel basis, a certificate of inconsistency).
//!
//! Vectors are `Vec<u64>` of bits: bit `i` is word `i / 64`, bit `i % 64`, and
//! bits past the length are zero.
//!
//! Method: `[A | b]` is brought to row echelon form by the Four Russians
//! eliminator of [`crate::gf2_m4ri`]. A pivot in the `b` column means
//! inconsistency, and the certificate is that row of the transformation, which
//! the eliminator keeps for free. The particular solution and the kernel basis
//! (one vector per free column) then come either from back-substitution, one
//! pass per vector, or — when there are many free columns — from an upward
//! pass to the reduced echelon form, whichever costs fewer word operations.
//! Everything is checked before it is returned ([`crate::gf2_verify`] checks
//! the whole kernel basis with one Four Russians product).

use crate::bitmatrix::{get_bit, BitMatrix};
use crate::cancel::Canceller;
use crate::gf2_m4ri::{self, Params};
use crate::gf2_verify;
use crate::AlgebraError;

/// The complete answer for A·x = b over GF(2), bit-packed (vectors are `Vec<u64>` of bits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gf2Solution {
    /// Whether any solution exists.
    pub consistent: bool,
    /// bits over columns, when consistent
    pub particular: Option<Vec<u64>>,
    /// a basis of the kernel {x : A·x = 0}, bits over columns each
    pub kernel: Vec<Vec<u64>>,
    /// when inconsistent: y (bits over rows) with yᵀA = 0 and y·b = 1
    pub certificate: Option<Vec<u64>>,
}

/// Solves A·x = b over GF(2); `b` = bits over rows (`rows.div_ceil(64)` words). Every answer is verified
/// (particular, each kernel vector, the certificate) before it is returned; polls `cancel`.
///
/// The kernel has `cols − rank` vectors. Errors: `DimensionMismatch` when the
/// matrix or `b` has the wrong shape (including nonzero bits past `rows` in
/// `b` or past `cols` in a row), `Cancelled`, `Internal` when a self-check fails.
pub fn solve_gf2_dense(a: &BitMatrix, b: &[u64], cancel: &dyn Fn() -> bool) -> Result<Gf2Solution, AlgebraError> {
    validate(a, b)?;
    let mut canc = Canceller::new(cancel);
    canc.check()?;
    let params = Params::for_shape(a.rows, (a.cols + 1).div_ceil(64));
    let solution = solve_with(a, b, params, Finish::Auto, &mut canc)?;
    verify(a, b, &solution, &mut canc)?;
    Ok(solution)
}

/// How the answer is read off the echelon form (the fixed choices are for the tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Finish {
    /// Whichever of the two below is cheaper for this system.
    Auto,
    /// Upward pass to the reduced echelon form, then read every vector off it.
    Reduce,
    /// Back-substitution, one pass per vector.
    BackSubstitute,
}

/// Eliminates `[A | b]` and reads everything off the echelon form.
pub(crate) fn solve_with(
    a: &BitMatrix,
    b: &[u64],
    params: Params,
    finish: Finish,
    canc: &mut Canceller<'_>,
) -> Result<Gf2Solution, AlgebraError> {
    let (n, m) = (a.rows, a.cols);
    let mut aug = crate::error::try_bit_matrix(n, m + 1)?;
    for r in 0..n {
        let (src, dst) = (a.row(r), aug.row_mut(r));
        dst[..src.len()].copy_from_slice(src);
        if get_bit(b, r) {
            dst[m / 64] |= 1u64 << (m % 64);
        }
    }
    canc.tick(aug.data.len())?;
    let mut ech = gf2_m4ri::reduce_forward(aug, params, canc)?;
    // A pivot in the right-hand-side column is the equation 0 = 1; its row of
    // the transformation is the certificate.
    let contradiction = ech.pivots.last().filter(|&&(c, _)| c == m).map(|&(_, slot)| slot);
    let certificate = contradiction.map(|slot| ech.row_combination(slot, canc)).transpose()?;
    let pivots: Vec<(usize, usize)> = ech.pivots.iter().copied().filter(|&(c, _)| c < m).collect();
    let free = m - pivots.len();
    let back_cost = (free + 1) * pivots.iter().map(|&(c, _)| ech.m.words_per_row - c / 64).sum::<usize>();
    let reduce = match finish {
        Finish::Auto => ech.upward_cost() < back_cost,
        Finish::Reduce => true,
        Finish::BackSubstitute => false,
    };
    let (kernel, particular) = if reduce {
        ech.reduce_upward(canc)?;
        let kernel = kernel_basis(&ech.m, &pivots, m, canc)?;
        let particular = contradiction.is_none().then(|| {
            let mut x = vec![0u64; a.words_per_row];
            for &(c, slot) in &pivots {
                if get_bit(ech.m.row(slot), m) {
                    x[c / 64] |= 1u64 << (c % 64);
                }
            }
            x
        });
        (kernel, particular)
    } else {
        let mut kernel = Vec::with_capacity(free);
        let mut is_pivot = vec![false; m];
        for &(c, _) in &pivots {
            is_pivot[c] = true;
        }
        for f in (0..m).filter(|&f| !is_pivot[f]) {
            kernel.push(back_substitute(&ech.m, &pivots, m, Some(f), canc)?);
        }
        let particular =
            if contradiction.is_none() { Some(back_substitute(&ech.m, &pivots, m, None, canc)?) } else { None };
        (kernel, particular)
    };
    Ok(Gf2Solution { consistent: contradiction.is_none(), particular, kernel, certificate })
}

/// Back-substitution in the echelon form `e` of `[A | b]` (`cols` columns of
/// `A`): the kernel vector of free column `f`, or the particular solution with
/// all free unknowns 0 when `free` is `None`. Pivots are visited from the last:
/// each pivot row is 0 left of its pivot except in earlier pivot columns, whose
/// unknowns are still 0 then, so a plain dot product over the row is exact.
fn back_substitute(
    e: &BitMatrix,
    pivots: &[(usize, usize)],
    cols: usize,
    free: Option<usize>,
    canc: &mut Canceller<'_>,
) -> Result<Vec<u64>, AlgebraError> {
    let mut x = vec![0u64; e.words_per_row];
    let one = free.unwrap_or(cols); // the right-hand side is column `cols`
    x[one / 64] |= 1u64 << (one % 64);
    for &(c, slot) in pivots.iter().rev() {
        let row = &e.row(slot)[c / 64..];
        let acc = row.iter().zip(&x[c / 64..]).fold(0u64, |acc, (r, v)| acc ^ (r & v));
        if acc.count_ones() & 1 == 1 {
            x[c / 64] |= 1u64 << (c % 64);
        }
        canc.tick(row.len())?;
    }
    x[cols / 64] &= !(1u64 << (cols % 64));
    x.truncate(cols.div_ceil(64));
    Ok(x)
}

/// The kernel basis read off the reduced form: one vector per free column `f`,
/// 1 at `f` and at the pivot column of each pivot row with a 1 in column `f`.
/// Only the exact entries (free columns) of `r` are read.
fn kernel_basis(
    r: &BitMatrix,
    pivots: &[(usize, usize)],
    cols: usize,
    canc: &mut Canceller<'_>,
) -> Result<Vec<Vec<u64>>, AlgebraError> {
    let words = cols.div_ceil(64);
    let mut free_mask = vec![0u64; r.words_per_row];
    for f in 0..cols {
        free_mask[f / 64] |= 1u64 << (f % 64);
    }
    for &(c, _) in pivots {
        free_mask[c / 64] &= !(1u64 << (c % 64));
    }
    let mut index_of = vec![usize::MAX; cols];
    let mut kernel: Vec<Vec<u64>> = Vec::new();
    for f in (0..cols).filter(|&f| get_bit(&free_mask, f)) {
        index_of[f] = kernel.len();
        let mut k = vec![0u64; words];
        k[f / 64] |= 1u64 << (f % 64);
        kernel.push(k);
    }
    for &(c, slot) in pivots {
        for (wi, (&w, &mask)) in r.row(slot).iter().zip(&free_mask).enumerate() {
            let mut bits = w & mask;
            while bits != 0 {
                let f = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                kernel[index_of[f]][c / 64] |= 1u64 << (c % 64);
            }
        }
        canc.tick(r.words_per_row)?;
    }
    Ok(kernel)
}

fn validate(a: &BitMatrix, b: &[u64]) -> Result<(), AlgebraError> {
    let mismatch = |what, expected, found| Err(AlgebraError::DimensionMismatch { what, expected, found });
    if a.words_per_row != a.cols.div_ceil(64) {
        return mismatch("BitMatrix::words_per_row vs cols.div_ceil(64)", a.cols.div_ceil(64), a.words_per_row);
    }
    let expected_len = a.rows.saturating_mul(a.words_per_row);
    if a.data.len() != expected_len {
        return mismatch("BitMatrix::data length vs rows · words_per_row", expected_len, a.data.len());
    }
    if !a.cols.is_multiple_of(64) {
        let tail = !0u64 << (a.cols % 64);
        if let Some(r) = (0..a.rows).find(|&r| a.row(r)[a.words_per_row - 1] & tail != 0) {
            return mismatch("BitMatrix row with bits past cols (row index)", a.rows, r);
        }
    }
    if b.len() != a.rows.div_ceil(64) {
        return mismatch("right-hand side words vs rows.div_ceil(64)", a.rows.div_ceil(64), b.len());
    }
    if !a.rows.is_multiple_of(64) && b.last().is_some_and(|&w| w >> (a.rows % 64) != 0) {
        return mismatch("right-hand side with bits past rows", a.rows, b.len() * 64);
    }
    Ok(())
}

/// The always-on self-checks: `A·x = b`; `yᵀA = 0` and `y·b = 1`; `A·k = 0`
/// for every kernel vector, which must also be independent (see
/// [`gf2_verify::check_kernel`]: all at once, by a Four Russians product).
fn verify(a: &BitMatrix, b: &[u64], s: &Gf2Solution, canc: &mut Canceller<'_>) -> Result<(), AlgebraError> {
    let row_words = a.rows.div_ceil(64);
    if s.consistent != s.particular.is_some() || s.consistent == s.certificate.is_some() {
        return Err(AlgebraError::Internal("gf2 dense: consistency flag, particular and certificate disagree".into()));
    }
    if let Some(x) = &s.particular {
        canc.tick(a.data.len())?;
        if x.len() != a.words_per_row || has_tail(x, a.cols) || a.mul_vec(x) != b {
            return Err(AlgebraError::Internal("gf2 dense: particular solution does not satisfy A·x = b".into()));
        }
    }
    if let Some(y) = &s.certificate {
        canc.tick(a.data.len())?;
        let yb = y.iter().zip(b).fold(0u64, |acc, (p, q)| acc ^ (p & q)).count_ones() & 1;
        if y.len() != row_words || has_tail(y, a.rows) || a.transpose_mul_vec(y).iter().any(|&w| w != 0) || yb != 1 {
            return Err(AlgebraError::Internal("gf2 dense: certificate does not satisfy yᵀA = 0, y·b = 1".into()));
        }
    }
    if s.kernel.iter().any(|k| k.len() != a.words_per_row || has_tail(k, a.cols)) {
        return Err(AlgebraError::Internal("gf2 dense: kernel vector of the wrong length".into()));
    }
    gf2_verify::check_kernel(a, &s.kernel, canc)
}

fn has_tail(words: &[u64], len: usize) -> bool {
    !len.is_multiple_of(64) && words.last().is_some_and(|&w| w >> (len % 64) != 0)
}

#[cfg(test)]
#[path = "gf2_dense_tests.rs"]
mod tests;
