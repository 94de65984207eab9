//! The public solver: splits `Z/W` by the Chinese remainder theorem, solves each
//! prime power, recombines, and verifies the result.
//!
//! Dispatch: the prime power `2` (W = 2, or the factor 2 of W = 2·odd) goes to
//! the bit-packed GF(2) eliminator; the prime power 3 and 4 to the bit-sliced
//! dense eliminators of [`crate::gf3_dense`] and [`crate::z4_dense`] when the
//! system is dense (the leftover systems of light chasing); every other prime
//! power `p^e` (and banded systems over GF(3) and Z/4) goes to the
//! Smith-like eliminator of [`crate::prime_power`].
//!
//! Certificates of inconsistency are not tracked during elimination (that would
//! cost an identity matrix's worth of extra work on every solvable system).
//! Instead, only when some prime power `q = p^e` is inconsistent, we solve
//! `[A | b]ᵀ·y = (0, …, 0, p^{e−1})` over `Z/q`, which is solvable exactly when
//! `A·x ≡ b` is not, and lift `y` to `Z/W` by the factor `W/q`.

use num_bigint::BigUint;

use crate::cancel::Canceller;
use crate::gf2::{self, Gf2Input};
use crate::kernel::{Kernel, KernelGenerator};
use crate::linear::{dense_enough, LinearResult};
use crate::modular::{crt_idempotent, factorize, pow, reduce_vec};
use crate::sparse::{reduce_rows, SparseMatrix, SparseRow};
use crate::{gf3_dense, z4_dense};
use crate::{prime_power, AlgebraError};

/// The complete answer for `A·x ≡ b (mod W)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The modulus `W`.
    pub modulus: u32,
    /// Whether any solution exists.
    pub consistent: bool,
    /// `Some(x)` with `A·x ≡ b` when consistent.
    pub particular: Option<Vec<u32>>,
    /// The kernel of `A` (always computed, also when inconsistent).
    pub kernel: Kernel,
    /// When inconsistent: `y` (one entry per row) with `yᵀ·A ≡ 0` and `y·b ≢ 0 (mod W)`.
    pub certificate: Option<Vec<u32>>,
}

impl Solution {
    /// The exact number of solutions: 0 when inconsistent, else the kernel size.
    pub fn count(&self) -> BigUint {
        if self.consistent {
            self.kernel.size()
        } else {
            BigUint::from(0u32)
        }
    }
}

/// Solves `A·x ≡ b (mod w)`. `b.len()` must equal `a.rows`; `2 <= w <= 65536`.
pub fn solve(a: &SparseMatrix, b: &[u32], w: u32) -> Result<Solution, AlgebraError> {
    solve_cancellable(a, b, w, &|| false)
}

/// Like [`solve`], polling `cancel()` every few milliseconds of work; returns
/// `Err(AlgebraError::Cancelled)` as soon as it returns `true`.
pub fn solve_cancellable(
    a: &SparseMatrix,
    b: &[u32],
    w: u32,
    cancel: &dyn Fn() -> bool,
) -> Result<Solution, AlgebraError> {
    check_modulus(w)?;
    a.validate()?;
    if b.len() != a.rows {
        return Err(AlgebraError::DimensionMismatch {
            what: "right-hand side length vs matrix rows",
            expected: a.rows,
            found: b.len(),
        });
    }
    let mut canc = Canceller::new(cancel);
    canc.check()?;

    let b = reduce_vec(b, w);
    // Sparse row lists are only needed for moduli other than 2 itself.
    let rows_w = if w == 2 { Vec::new() } else { a.row_lists(w) };
    let mut consistent = true;
    let mut residues: Vec<(u32, Vec<u32>)> = Vec::new(); // (q, particular mod q)
    let mut generators: Vec<KernelGenerator> = Vec::new();
    let mut failing: Option<(u32, u32)> = None; // (p, e) of an inconsistent factor
    for (p, e) in factorize(w) {
        let q = pow(p, e) as u32;
        let b_q = reduce_vec(&b, q);
        let res = if w == 2 {
            gf2::solve(Gf2Input::Columns(a), a.cols, &b_q, true, &mut canc)?
        } else if q == w {
            solve_prime_power(&rows_w, a.cols, &b_q, p, e, true, &mut canc)?
        } else {
            let rows_q = reduce_rows(&rows_w, q);
            solve_prime_power(&rows_q, a.cols, &b_q, p, e, true, &mut canc)?
        };
        let lift =
            crt_idempotent(w, q).ok_or_else(|| AlgebraError::Internal(format!("no CRT idempotent for {q} | {w}")))?;
        for (vector, order) in res.kernel {
            generators.push(KernelGenerator { vector: scale(&vector, lift, w), order });
        }
        match res.particular {
            Some(x) if res.consistent => residues.push((q, x)),
            _ => {
                consistent = false;
                failing.get_or_insert((p, e));
            }
        }
    }

    let particular = if consistent {
        // x = Σ_q E_q·x_q (mod W) with the CRT idempotents E_q.
        let mut x = vec![0u64; a.cols];
        for (q, xq) in &residues {
            let lift =
                crt_idempotent(w, *q).ok_or_else(|| AlgebraError::Internal("CRT idempotent vanished".into()))? as u64;
            for (xi, &v) in x.iter_mut().zip(xq) {
                *xi = (*xi + lift * v as u64) % w as u64;
            }
        }
        Some(x.into_iter().map(|v| v as u32).collect::<Vec<u32>>())
    } else {
        None
    };

    let certificate = match failing {
        Some((p, e)) => Some(certificate(a, &b, w, p, e, &mut canc)?),
        None => None,
    };

    let solution = Solution { modulus: w, consistent, particular, kernel: Kernel { generators }, certificate };
    verify(a, &b, &solution, &mut canc)?;
    Ok(solution)
}

pub(crate) fn check_modulus(w: u32) -> Result<(), AlgebraError> {
    if (2..=65536).contains(&w) {
        Ok(())
    } else {
        Err(AlgebraError::BadModulus(w))
    }
}

fn solve_prime_power(
    rows: &[SparseRow],
    ncols: usize,
    rhs: &[u32],
    p: u32,
    e: u32,
    want_kernel: bool,
    canc: &mut Canceller<'_>,
) -> Result<LinearResult, AlgebraError> {
    if p == 2 && e == 1 {
        gf2::solve(Gf2Input::Rows(rows), ncols, rhs, want_kernel, canc)
    } else if p == 3 && e == 1 && dense_enough(rows, ncols) {
        gf3_dense::solve(rows, ncols, rhs, want_kernel, canc)
    } else if p == 2 && e == 2 && dense_enough(rows, ncols) {
        z4_dense::solve(rows, ncols, rhs, want_kernel, canc)
    } else {
        prime_power::solve(rows, ncols, rhs, p, e, want_kernel, canc)
    }
}

/// `k·v mod w`.
fn scale(v: &[u32], k: u32, w: u32) -> Vec<u32> {
    v.iter().map(|&x| ((x as u64 * k as u64) % w as u64) as u32).collect()
}

/// A certificate of inconsistency from the failing factor `q = p^e`: solve
/// `[A | b]ᵀ·y = (0, …, 0, p^{e−1})` over `Z/q`, then lift by `W/q`.
fn certificate(
    a: &SparseMatrix,
    b: &[u32],
    w: u32,
    p: u32,
    e: u32,
    canc: &mut Canceller<'_>,
) -> Result<Vec<u32>, AlgebraError> {
    let q = pow(p, e) as u32;
    let rows = a.augmented_transpose_rows(b, q);
    let mut rhs = vec![0u32; a.cols + 1];
    rhs[a.cols] = pow(p, e - 1) as u32;
    let res = solve_prime_power(&rows, a.rows, &rhs, p, e, false, canc)?;
    match res.particular {
        Some(y) if res.consistent => Ok(scale(&y, w / q, w)),
        _ => Err(AlgebraError::Internal(format!("no certificate found modulo {q} for an inconsistent system"))),
    }
}

/// The always-on self-checks: particular solution, certificate, kernel generators.
fn verify(a: &SparseMatrix, b: &[u32], s: &Solution, canc: &mut Canceller<'_>) -> Result<(), AlgebraError> {
    let nnz: usize = a.columns.iter().map(Vec::len).sum();
    let w = s.modulus;
    if let Some(x) = &s.particular {
        if x.len() != a.cols || a.mul_vec(x, w) != b {
            return Err(AlgebraError::Internal("particular solution does not satisfy A·x ≡ b".into()));
        }
    }
    if s.consistent != s.particular.is_some() || s.consistent == s.certificate.is_some() {
        return Err(AlgebraError::Internal("consistency flag, particular solution and certificate disagree".into()));
    }
    if let Some(y) = &s.certificate {
        let yb = y.iter().zip(b).fold(0u64, |acc, (&yi, &bi)| (acc + yi as u64 * bi as u64) % w as u64);
        if y.len() != a.rows || a.transpose_mul_vec(y, w).iter().any(|&v| v != 0) || yb == 0 {
            return Err(AlgebraError::Internal("certificate does not satisfy yᵀA ≡ 0, y·b ≢ 0".into()));
        }
    }
    for g in &s.kernel.generators {
        canc.tick(nnz + a.cols)?;
        if g.vector.len() != a.cols || a.mul_vec(&g.vector, w).iter().any(|&v| v != 0) {
            return Err(AlgebraError::Internal("kernel generator is not in the kernel".into()));
        }
        if !has_order(&g.vector, g.order, w) {
            return Err(AlgebraError::Internal(format!("kernel generator does not have order {}", g.order)));
        }
    }
    Ok(())
}

/// Whether `v` has additive order exactly `order` in `(Z/w)^n`.
fn has_order(v: &[u32], order: u32, w: u32) -> bool {
    let kills = |k: u32| v.iter().all(|&x| (x as u64 * k as u64).is_multiple_of(w as u64));
    order > 1 && kills(order) && factorize(order).iter().all(|&(p, _)| !kills(order / p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_rows(seed: &mut u64, n: usize, m: usize, density: u64) -> Vec<SparseRow> {
        (0..n)
            .map(|_| {
                (0..m as u32)
                    .filter(|_| {
                        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        (*seed >> 33) % 100 < density
                    })
                    .map(|c| (c, 1))
                    .collect()
            })
            .collect()
    }

    /// The bit-packed path and the generic prime-power path agree over GF(2).
    #[test]
    fn gf2_matches_generic_path() {
        let mut seed = 12345u64;
        let never = || false;
        for round in 0..200 {
            let n = 1 + round % 37;
            let m = 1 + (round * 7) % 41;
            let density = [5, 20, 50, 90][round % 4];
            let rows = random_rows(&mut seed, n, m, density);
            let rhs: Vec<u32> = (0..n as u32).map(|i| (i.wrapping_mul(2654435761u32) >> 7) & 1).collect();
            let mut c1 = Canceller::new(&never);
            let mut c2 = Canceller::new(&never);
            let a = gf2::solve(Gf2Input::Rows(&rows), m, &rhs, true, &mut c1).unwrap();
            let b = prime_power::solve(&rows, m, &rhs, 2, 1, true, &mut c2).unwrap();
            assert_eq!(a.consistent, b.consistent);
            assert_eq!(a.kernel.len(), b.kernel.len());
        }
    }

    #[test]
    fn has_order_works() {
        assert!(has_order(&[3, 6], 4, 12));
        assert!(!has_order(&[3, 6], 2, 12));
        assert!(has_order(&[6, 0], 2, 12));
        assert!(!has_order(&[0, 0], 1, 12));
    }
}
