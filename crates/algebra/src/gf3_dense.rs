//! Dense elimination over GF(3) in two bit planes (bit-sliced arithmetic).
//!
//! A row is two planes of `u64` words: `[a = 1]` and `[a = 2]`, so one word
//! operation handles 64 entries, where the windowed prime-power eliminator
//! (`prime_power`) stores an entry in 16 bits. A sum takes six word
//! operations (Kawahara, Aoki & Takagi, 2008), negation swaps the planes. The
//! right-hand side is one more column, so row operations carry it along.
//!
//! Gaussian elimination to row echelon form (each pivot scaled to 1), then
//! back substitution: the particular solution with the free unknowns at 0,
//! and one kernel generator (order 3) per free column, 1 there and 0 at the
//! other free columns. Cost `rows × cols² / 64` word operations: for the
//! dense systems that [`crate::linear::dense_enough`] sends here (the
//! leftover systems of light chasing), not for banded ones, which the
//! windowed eliminator keeps.

use crate::bit_planes::{entry, set_entry, unpack, PlaneMatrix};
use crate::cancel::Canceller;
use crate::linear::LinearResult;
use crate::sparse::SparseRow;
use crate::AlgebraError;

/// `dst += src` (or `dst −= src` when `negate`) on words `from..` of each
/// plane.
fn add_rows(dst: &mut [u64], src: &[u64], planes: usize, from: usize, negate: bool) {
    let (d1, d2) = dst.split_at_mut(planes);
    let (s1, s2) = src.split_at(planes);
    let (s1, s2) = if negate { (s2, s1) } else { (s1, s2) };
    for ((a1, a2), (&b1, &b2)) in d1[from..].iter_mut().zip(&mut d2[from..]).zip(s1[from..].iter().zip(&s2[from..])) {
        let t = (*a1 | b2) ^ (*a2 | b1);
        let s = (*a2 | b2) ^ t;
        *a2 = (*a1 | b1) ^ t;
        *a1 = s;
    }
}

/// `Σ row[c]·x[c] mod 3` over words `from..` (both in two planes).
fn dot(row: &[u64], x: &[u64], planes: usize, from: usize) -> u32 {
    let (r1, r2) = row.split_at(planes);
    let (x1, x2) = x.split_at(planes);
    let (mut ones, mut twos) = (0u32, 0u32);
    for t in from..planes {
        ones += ((r1[t] & x1[t]) | (r2[t] & x2[t])).count_ones();
        twos += ((r1[t] & x2[t]) | (r2[t] & x1[t])).count_ones();
    }
    (ones + 2 * twos) % 3
}

/// Solves `A·x ≡ b (mod 3)` for the sparse rows of `A` (entries below 3).
pub(crate) fn solve(
    rows: &[SparseRow],
    ncols: usize,
    rhs: &[u32],
    want_kernel: bool,
    canc: &mut Canceller<'_>,
) -> Result<LinearResult, AlgebraError> {
    let mut m = PlaneMatrix::from_sparse(rows, ncols, rhs, 3)?;
    let (planes, width) = (m.planes, m.width);

    // Row echelon form, each pivot 1.
    let mut pivots: Vec<usize> = Vec::new();
    for c in 0..ncols {
        let rank = pivots.len();
        let Some(r) = (rank..rows.len()).find(|&r| m.get(r, c) != 0) else { continue };
        if r != rank {
            m.swap_rows(rank, r);
        }
        let (pivot, rest) = m.pivot_and_rest(rank);
        if entry(pivot, planes, c) == 2 {
            let (one, two) = pivot.split_at_mut(planes);
            one.swap_with_slice(two);
        }
        let from = c / 64;
        for row in rest.chunks_exact_mut(width) {
            match entry(row, planes, c) {
                1 => add_rows(row, pivot, planes, from, true),
                2 => add_rows(row, pivot, planes, from, false),
                _ => {}
            }
        }
        canc.tick((rows.len() - rank) * (planes - from))?;
        pivots.push(c);
    }
    let rank = pivots.len();
    let consistent = (rank..rows.len()).all(|r| m.get(r, ncols) == 0);

    let mut is_pivot = vec![false; ncols];
    for &c in &pivots {
        is_pivot[c] = true;
    }
    // x with the given free entries, back-substituted through the pivots;
    // `with_rhs` takes b, else 0.
    let back_substitute = |x: &mut [u64], with_rhs: bool| {
        for (r, &c) in pivots.iter().enumerate().rev() {
            let row = m.row(r);
            let b = if with_rhs { entry(row, planes, ncols) } else { 0 };
            // The pivot's own entry is x[c] = 0 so far; b's column is 0 in x.
            let v = (b + 3 - dot(row, x, planes, c / 64)) % 3;
            set_entry(x, planes, c, v);
        }
    };
    let particular = consistent.then(|| {
        let mut x = vec![0u64; width];
        back_substitute(&mut x, true);
        unpack(&x, planes, ncols)
    });
    let mut kernel = Vec::new();
    if want_kernel {
        for f in (0..ncols).filter(|&f| !is_pivot[f]) {
            let mut x = vec![0u64; width];
            set_entry(&mut x, planes, f, 1);
            back_substitute(&mut x, false);
            kernel.push((unpack(&x, planes, ncols), 3));
            canc.tick(rank * planes)?;
        }
    }
    Ok(LinearResult { consistent, particular, kernel })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::test_systems::{random_rows, residual};
    use crate::splitmix::SplitMix64;

    /// Against the windowed prime-power eliminator: the same consistency and
    /// kernel size; the particular solution solves the system, the kernel
    /// generators are quiet and independent (their count is the nullity).
    #[test]
    fn agrees_with_the_windowed_eliminator() {
        let mut rng = SplitMix64::new(3);
        let never = || false;
        for round in 0..300 {
            let n = 1 + rng.index_below(150);
            let m = 1 + rng.index_below(150);
            let rows = random_rows(&mut rng, (n, m), [3, 20, 50, 95][round % 4], |r| 1 + r.below(5) as u32);
            // Half the right-hand sides from a solution (consistent), half random.
            let rhs: Vec<u32> = if round % 2 == 0 {
                let x: Vec<u32> = (0..m).map(|_| rng.below(3) as u32).collect();
                residual(&rows, &x, 3)
            } else {
                (0..n).map(|_| rng.below(3) as u32).collect()
            };
            let mut c1 = Canceller::new(&never);
            let mut c2 = Canceller::new(&never);
            let dense = solve(&rows, m, &rhs, true, &mut c1).unwrap();
            let windowed = crate::prime_power::solve(&rows, m, &rhs, 3, 1, true, &mut c2).unwrap();
            assert_eq!(dense.consistent, windowed.consistent, "round {round}");
            assert_eq!(dense.kernel.len(), windowed.kernel.len(), "round {round}");
            if let Some(x) = &dense.particular {
                assert_eq!(residual(&rows, x, 3), rhs.iter().map(|v| v % 3).collect::<Vec<_>>(), "round {round}");
            }
            for (g, order) in &dense.kernel {
                assert_eq!(*order, 3);
                assert!(residual(&rows, g, 3).iter().all(|&v| v == 0), "round {round}");
            }
        }
    }

    #[test]
    fn sums_and_products_in_planes() {
        let planes = 1;
        for a in 0..3 {
            for b in 0..3 {
                let (mut x, mut y) = (vec![0u64; 2], vec![0u64; 2]);
                set_entry(&mut x, planes, 5, a);
                set_entry(&mut y, planes, 5, b);
                assert_eq!(dot(&x, &y, planes, 0), a * b % 3);
                let mut s = x.clone();
                add_rows(&mut s, &y, planes, 0, false);
                assert_eq!(entry(&s, planes, 5), (a + b) % 3);
                add_rows(&mut x, &y, planes, 0, true);
                assert_eq!(entry(&x, planes, 5), (a + 3 - b) % 3);
            }
        }
    }

    #[test]
    fn density_decides() {
        use crate::linear::dense_enough;
        let dense: Vec<SparseRow> = (0..128).map(|_| (0..128).map(|c| (c, 1)).collect()).collect();
        assert!(dense_enough(&dense, 128));
        let banded: Vec<SparseRow> = (0..1000u32).map(|r| vec![(r, 1), ((r + 1) % 1000, 1)]).collect();
        assert!(!dense_enough(&banded, 1000));
        assert!(!dense_enough(&dense[..100], 128));
    }
}
