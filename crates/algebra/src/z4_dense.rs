//! Dense elimination over Z/4 in two bit planes (bit-sliced arithmetic).
//!
//! A row is two planes of `u64` words, the low and the high bit of each
//! entry, so one word operation handles 64 entries; a sum is a two-bit adder
//! (`s₀ = a₀ ⊕ b₀`, `s₁ = a₁ ⊕ b₁ ⊕ a₀b₀`), negation `(a₀, a₁ ⊕ a₀)`, and
//! twice a row its low plane moved up. The right-hand side is one more
//! column.
//!
//! Z/4 is not a field, so the elimination runs in two levels, as the
//! windowed eliminator's (`prime_power`) does:
//!
//! 1. every column, left to right, takes as pivot a row with an odd entry
//!    (a unit, scaled to 1) and clears the column below it. Afterwards the
//!    rows below these pivots have only even entries (an odd one would have
//!    been a pivot; adding multiples of later pivot rows, even there, keeps
//!    them even);
//! 2. those rows are twice rows over GF(2): the same again on their high
//!    plane, pivots of entry 2.
//!
//! Solvable ⇔ every row without a pivot has right-hand side 0 and every
//! level-2 pivot's is even. Back substitution: the free unknowns, then the
//! level-2 pivots (`2·x_c ≡ b − S`: `x_c` modulo 2), then the level-1 pivots
//! (`x_c = b − S`), each in reverse order. Kernel: one generator of order 4
//! per free column (1 there), one of order 2 per level-2 pivot (2 there), so
//! it has `4^free · 2^level-2` elements, which the test checks against the
//! windowed eliminator.

use crate::bit_planes::{entry, set_entry, unpack, PlaneMatrix};
use crate::cancel::Canceller;
use crate::linear::LinearResult;
use crate::sparse::SparseRow;
use crate::AlgebraError;

/// `dst += k·src (mod 4)` on words `from..` of each plane.
fn add_scaled(dst: &mut [u64], src: &[u64], planes: usize, from: usize, k: u32) {
    let (d0, d1) = dst.split_at_mut(planes);
    let (s0, s1) = src.split_at(planes);
    let words = d0[from..].iter_mut().zip(&mut d1[from..]).zip(s0[from..].iter().zip(&s1[from..]));
    match k % 4 {
        1 => words.for_each(|((a0, a1), (&b0, &b1))| {
            *a1 ^= b1 ^ (*a0 & b0);
            *a0 ^= b0;
        }),
        2 => words.for_each(|((_, a1), (&b0, _))| *a1 ^= b0),
        3 => words.for_each(|((a0, a1), (&b0, &b1))| {
            // −b = (b₀, b₁ ⊕ b₀).
            *a1 ^= b1 ^ b0 ^ (*a0 & b0);
            *a0 ^= b0;
        }),
        _ => {}
    }
}

/// `Σ row[c]·x[c] mod 4` over words `from..`.
fn dot(row: &[u64], x: &[u64], planes: usize, from: usize) -> u32 {
    let (r0, r1) = row.split_at(planes);
    let (x0, x1) = x.split_at(planes);
    let (mut ones, mut twos) = (0u32, 0u32);
    for t in from..planes {
        ones += (r0[t] & x0[t]).count_ones();
        twos += (r0[t] & x1[t]).count_ones() + (r1[t] & x0[t]).count_ones();
    }
    (ones + 2 * twos) % 4
}

/// Solves `A·x ≡ b (mod 4)` for the sparse rows of `A`.
pub(crate) fn solve(
    rows: &[SparseRow],
    ncols: usize,
    rhs: &[u32],
    want_kernel: bool,
    canc: &mut Canceller<'_>,
) -> Result<LinearResult, AlgebraError> {
    let nrows = rows.len();
    let mut m = PlaneMatrix::from_sparse(rows, ncols, rhs, 4)?;
    let (planes, width) = (m.planes, m.width);

    // Pivots in row order: (column, 1 for a unit pivot or 2 for an entry 2).
    let mut pivots: Vec<(usize, u32)> = Vec::new();
    for level in [1u32, 2] {
        for c in 0..ncols {
            let rank = pivots.len();
            // A unit at level 1; at level 2 every entry left is 0 or 2.
            let is_pivot = |e: u32| if level == 1 { e % 2 == 1 } else { e != 0 };
            let Some(r) = (rank..nrows).find(|&r| is_pivot(m.get(r, c))) else {
                continue;
            };
            if r != rank {
                m.swap_rows(rank, r);
            }
            let (pivot, rest) = m.pivot_and_rest(rank);
            if entry(pivot, planes, c) == 3 {
                // Scale the unit to 1: negate the row.
                let (lo, hi) = pivot.split_at_mut(planes);
                hi.iter_mut().zip(lo.iter()).for_each(|(h, &l)| *h ^= l);
            }
            // Level 1: the pivot row may hold 2s left of c (earlier columns
            // without a unit), so the whole row; level 2: zeros left of c.
            let from = if level == 1 { 0 } else { c / 64 };
            let p = entry(pivot, planes, c);
            for row in rest.chunks_exact_mut(width) {
                let e = entry(row, planes, c);
                if e != 0 {
                    // Clear e: subtract (e / p)·pivot (p is 1, or 2 with e = 2).
                    add_scaled(row, pivot, planes, from, 4 - e / p);
                }
            }
            canc.tick((nrows - rank) * (planes - from))?;
            pivots.push((c, level));
        }
    }
    let rank = pivots.len();
    let row = |r: usize| m.row(r);
    let consistent = (rank..nrows).all(|r| entry(row(r), planes, ncols) == 0)
        && pivots
            .iter()
            .enumerate()
            .all(|(r, &(_, level))| level == 1 || entry(row(r), planes, ncols).is_multiple_of(2));

    let mut pivot_of = vec![0u32; ncols];
    for &(c, level) in &pivots {
        pivot_of[c] = level;
    }
    // Back substitution into x (its free entries set), skipping `fixed`:
    // level-2 pivots, then level-1 pivots, each in reverse order.
    let back_substitute = |x: &mut [u64], with_rhs: bool, fixed: Option<usize>| {
        for level in [2u32, 1] {
            for (r, &(c, l)) in pivots.iter().enumerate().rev() {
                if l != level || Some(c) == fixed {
                    continue;
                }
                let b = if with_rhs { entry(row(r), planes, ncols) } else { 0 };
                let v = (b + 4 - dot(row(r), x, planes, 0)) % 4;
                // Level 2: 2·x_c ≡ v, v even when consistent.
                set_entry(x, planes, c, if level == 1 { v } else { v / 2 });
            }
        }
    };
    let particular = consistent.then(|| {
        let mut x = vec![0u64; width];
        back_substitute(&mut x, true, None);
        unpack(&x, planes, ncols)
    });
    let mut kernel = Vec::new();
    if want_kernel {
        for (c, &level) in pivot_of.iter().enumerate() {
            let (value, order) = match level {
                0 => (1, 4),
                2 => (2, 2),
                _ => continue,
            };
            let mut x = vec![0u64; width];
            set_entry(&mut x, planes, c, value);
            back_substitute(&mut x, false, Some(c));
            kernel.push((unpack(&x, planes, ncols), order));
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

    /// Against the windowed eliminator over Z/4: the same consistency and
    /// the same kernel size (the sum of the generators' log-orders); the
    /// particular solution solves the system; each generator is quiet and
    /// of exactly its order.
    #[test]
    fn agrees_with_the_windowed_eliminator() {
        let mut rng = SplitMix64::new(4);
        let never = || false;
        let log2 = |k: &[(Vec<u32>, u32)]| k.iter().map(|(_, o)| o.trailing_zeros()).sum::<u32>();
        for round in 0..400 {
            let n = 1 + rng.index_below(130);
            let m = 1 + rng.index_below(130);
            let percent = [3, 20, 50, 95][round % 4];
            let mut rows = random_rows(&mut rng, (n, m), percent, |r| 1 + r.below(3) as u32);
            let even_rows = rng.index_below(n + 1);
            let evens = random_rows(&mut rng, (even_rows, m), percent, |_| 2);
            // All-even rows, so that level 2 has work.
            rows.extend(evens);
            let rhs: Vec<u32> = if round % 2 == 0 {
                let x: Vec<u32> = (0..m).map(|_| rng.below(4) as u32).collect();
                residual(&rows, &x, 4)
            } else {
                (0..rows.len()).map(|_| rng.below(4) as u32).collect()
            };
            let mut c1 = Canceller::new(&never);
            let mut c2 = Canceller::new(&never);
            let dense = solve(&rows, m, &rhs, true, &mut c1).unwrap();
            let windowed = crate::prime_power::solve(&rows, m, &rhs, 2, 2, true, &mut c2).unwrap();
            assert_eq!(dense.consistent, windowed.consistent, "round {round}");
            assert_eq!(log2(&dense.kernel), log2(&windowed.kernel), "round {round}");
            if let Some(x) = &dense.particular {
                assert_eq!(residual(&rows, x, 4), rhs, "round {round}");
            }
            for (g, order) in &dense.kernel {
                assert!(residual(&rows, g, 4).iter().all(|&v| v == 0), "round {round}");
                let twice: Vec<u32> = g.iter().map(|v| v * 2 % 4).collect();
                assert_eq!(*order == 4, twice.iter().any(|&v| v != 0), "round {round}");
                assert!(g.iter().any(|&v| v != 0), "round {round}");
            }
        }
    }

    #[test]
    fn sums_products_and_scalings_in_planes() {
        let planes = 1;
        for a in 0..4 {
            for b in 0..4 {
                let (mut x, mut y) = (vec![0u64; 2], vec![0u64; 2]);
                set_entry(&mut x, planes, 9, a);
                set_entry(&mut y, planes, 9, b);
                assert_eq!(dot(&x, &y, planes, 0), a * b % 4);
                for k in 0..4 {
                    let mut s = x.clone();
                    add_scaled(&mut s, &y, planes, 0, k);
                    assert_eq!(entry(&s, planes, 9), (a + k * b) % 4, "{a} + {k}·{b}");
                }
            }
        }
    }
}
