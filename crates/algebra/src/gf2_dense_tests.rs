//! Tests of the dense GF(2) solver against the sparse `solve(…, 2)` path.

use super::*;
use crate::bitmatrix::xor_into;
use crate::gf2_m4ri;
use crate::{solve, SparseMatrix, SplitMix64};
use proptest::prelude::*;

/// A bit that is 1 with the given chance.
fn bit(rng: &mut SplitMix64, percent: u64) -> bool {
    rng.next_u64() % 100 < percent
}

fn pack(bits: &[u32]) -> Vec<u64> {
    let mut w = vec![0u64; bits.len().div_ceil(64)];
    for (i, &b) in bits.iter().enumerate() {
        if b & 1 == 1 {
            w[i / 64] |= 1 << (i % 64);
        }
    }
    w
}

fn unpack(words: &[u64], len: usize) -> Vec<u32> {
    (0..len).map(|i| get_bit(words, i) as u32).collect()
}

fn to_sparse(a: &BitMatrix) -> SparseMatrix {
    let mut s = SparseMatrix::new(a.rows, a.cols);
    for r in 0..a.rows {
        for c in 0..a.cols {
            if a.get(r, c) {
                s.push_entry(c, r, 1);
            }
        }
    }
    s
}

/// A random matrix; `low_rank` makes every row a combination of a few random rows.
fn random_matrix(rows: usize, cols: usize, percent: u64, low_rank: bool, rng: &mut SplitMix64) -> BitMatrix {
    let mut a = BitMatrix::zeros(rows, cols);
    for r in 0..rows {
        for c in 0..cols {
            a.set(r, c, bit(rng, percent));
        }
    }
    if low_rank && rows > 3 {
        let basis = a.clone();
        for r in 3..rows {
            let mut row = vec![0u64; a.words_per_row];
            for s in 0..3 {
                if bit(rng, 50) {
                    xor_into(&mut row, basis.row(s));
                }
            }
            a.row_mut(r).copy_from_slice(&row);
        }
    }
    a
}

/// Checks `s` against the definitions and against the sparse solver's answer.
fn check_against_sparse(a: &BitMatrix, b: &[u64]) -> Result<(), TestCaseError> {
    let s = solve_gf2_dense(a, b, &|| false).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let sparse = to_sparse(a);
    let b32 = unpack(b, a.rows);
    let reference = solve(&sparse, &b32, 2).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(s.consistent, reference.consistent);
    prop_assert_eq!(s.kernel.len(), reference.kernel.generators.len());
    prop_assert_eq!(s.kernel.len(), a.cols - rank_of(a));
    if let Some(x) = &s.particular {
        prop_assert_eq!(sparse.mul_vec(&unpack(x, a.cols), 2), b32.clone());
    }
    if let Some(y) = &s.certificate {
        let y32 = unpack(y, a.rows);
        prop_assert!(sparse.transpose_mul_vec(&y32, 2).iter().all(|&v| v == 0));
        prop_assert_eq!(y32.iter().zip(&b32).map(|(p, q)| p * q).sum::<u32>() % 2, 1);
    }
    for k in &s.kernel {
        prop_assert!(sparse.mul_vec(&unpack(k, a.cols), 2).iter().all(|&v| v == 0));
    }
    // The kernel vectors are independent: eliminate them.
    let mut kernel = BitMatrix::zeros(s.kernel.len(), a.cols);
    for (i, k) in s.kernel.iter().enumerate() {
        kernel.row_mut(i).copy_from_slice(k);
    }
    prop_assert_eq!(rank_of(&kernel), s.kernel.len());
    Ok(())
}

/// Rank by the simplest elimination there is (a test oracle independent of the solvers).
fn rank_of(a: &BitMatrix) -> usize {
    let mut rows: Vec<Vec<u64>> = (0..a.rows).map(|r| a.row(r).to_vec()).collect();
    let mut rank = 0;
    for c in 0..a.cols {
        if let Some(p) = (rank..rows.len()).find(|&r| get_bit(&rows[r], c)) {
            rows.swap(p, rank);
            let pivot = rows[rank].clone();
            for row in rows.iter_mut().skip(rank + 1) {
                if get_bit(row, c) {
                    xor_into(row, &pivot);
                }
            }
            rank += 1;
        }
    }
    rank
}

fn random_rhs(a: &BitMatrix, consistent: bool, rng: &mut SplitMix64) -> Vec<u64> {
    if consistent {
        let x: Vec<u32> = (0..a.cols).map(|_| bit(rng, 50) as u32).collect();
        a.mul_vec(&pack(&x))
    } else {
        pack(&(0..a.rows).map(|_| bit(rng, 50) as u32).collect::<Vec<_>>())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn agrees_with_sparse_solver(
        rows in 0usize..140,
        cols in 0usize..140,
        percent in prop::sample::select(vec![1u64, 5, 20, 50, 90]),
        low_rank in any::<bool>(),
        consistent in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix64(seed);
        let a = random_matrix(rows, cols, percent, low_rank, &mut rng);
        let b = random_rhs(&a, consistent, &mut rng);
        check_against_sparse(&a, &b)?;
        if consistent {
            prop_assert!(solve_gf2_dense(&a, &b, &|| false).unwrap().consistent);
        }
    }

    #[test]
    fn transpose_swaps_indices(rows in 0usize..200, cols in 0usize..200, seed in any::<u64>()) {
        let mut rng = SplitMix64(seed);
        let a = random_matrix(rows, cols, 40, false, &mut rng);
        let t = a.transpose();
        prop_assert_eq!((t.rows, t.cols), (cols, rows));
        for r in 0..rows {
            for c in 0..cols {
                prop_assert_eq!(t.get(c, r), a.get(r, c));
            }
        }
        prop_assert_eq!(validate(&t, &vec![0; cols.div_ceil(64)]), Ok(()));
    }

    #[test]
    fn mul_vec_and_transpose_match_sparse(
        rows in 0usize..100,
        cols in 0usize..100,
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix64(seed);
        let a = random_matrix(rows, cols, 30, false, &mut rng);
        let sparse = to_sparse(&a);
        let x: Vec<u32> = (0..cols).map(|_| bit(&mut rng, 50) as u32).collect();
        let y: Vec<u32> = (0..rows).map(|_| bit(&mut rng, 50) as u32).collect();
        prop_assert_eq!(unpack(&a.mul_vec(&pack(&x)), rows), sparse.mul_vec(&x, 2));
        prop_assert_eq!(unpack(&a.transpose_mul_vec(&pack(&y)), cols), sparse.transpose_mul_vec(&y, 2));
    }
}

#[test]
fn empty_shapes() {
    let never = || false;
    // 0 × 0: consistent, trivial kernel.
    let s = solve_gf2_dense(&BitMatrix::zeros(0, 0), &[], &never).unwrap();
    assert_eq!(s, Gf2Solution { consistent: true, particular: Some(vec![]), kernel: vec![], certificate: None });
    // 0 rows: everything solves it, kernel = all unit vectors.
    let s = solve_gf2_dense(&BitMatrix::zeros(0, 70), &[], &never).unwrap();
    assert!(s.consistent);
    assert_eq!(s.particular, Some(vec![0, 0]));
    assert_eq!(s.kernel.len(), 70);
    // 0 columns: consistent exactly when b = 0; the certificate picks a row with b = 1.
    let s = solve_gf2_dense(&BitMatrix::zeros(3, 0), &[0], &never).unwrap();
    assert!(s.consistent && s.kernel.is_empty());
    let s = solve_gf2_dense(&BitMatrix::zeros(3, 0), &[0b100], &never).unwrap();
    assert!(!s.consistent);
    let y = s.certificate.unwrap();
    assert_eq!(y[0] & 0b100, 0b100);
}

#[test]
fn get_set_and_rows() {
    let mut a = BitMatrix::zeros(3, 130);
    assert_eq!(a.words_per_row, 3);
    a.set(2, 129, true);
    a.set(0, 64, true);
    assert!(a.get(2, 129) && a.get(0, 64) && !a.get(1, 64));
    assert_eq!(a.row(2), &[0, 0, 2]);
    a.set(2, 129, false);
    assert_eq!(a.row(2), &[0, 0, 0]);
    a.row_mut(1)[0] = 5;
    assert!(a.get(1, 0) && a.get(1, 2));
}

#[test]
fn bad_shapes_are_reported() {
    let never = || false;
    let a = BitMatrix::zeros(65, 3);
    assert!(matches!(solve_gf2_dense(&a, &[0], &never), Err(AlgebraError::DimensionMismatch { .. })));
    assert!(matches!(solve_gf2_dense(&a, &[0, 2], &never), Err(AlgebraError::DimensionMismatch { .. })));
    let mut bad = BitMatrix::zeros(2, 3);
    bad.row_mut(1)[0] = 1 << 5;
    assert!(matches!(solve_gf2_dense(&bad, &[0], &never), Err(AlgebraError::DimensionMismatch { .. })));
    let mut short = BitMatrix::zeros(2, 3);
    short.data.pop();
    assert!(matches!(solve_gf2_dense(&short, &[0], &never), Err(AlgebraError::DimensionMismatch { .. })));
}

#[test]
fn cancellation_is_honoured() {
    let mut rng = SplitMix64(7);
    let a = random_matrix(300, 300, 50, false, &mut rng);
    let b = vec![0u64; 5];
    assert_eq!(solve_gf2_dense(&a, &b, &|| true), Err(AlgebraError::Cancelled));
    // A request arriving mid-way is seen: the elimination polls as it goes.
    let a = random_matrix(1500, 1500, 50, false, &mut rng);
    let b = random_rhs(&a, false, &mut rng);
    let polls = std::cell::Cell::new(0);
    let later = || {
        polls.set(polls.get() + 1);
        polls.get() > 1
    };
    assert_eq!(solve_gf2_dense(&a, &b, &later), Err(AlgebraError::Cancelled));
    assert_eq!(polls.get(), 2);
}

/// A fixed larger case: full rank square (unique solution) and a rank-deficient
/// inconsistent one, past several word boundaries.
#[test]
fn larger_systems_verify() {
    let mut rng = SplitMix64(11);
    for (rows, cols, consistent) in [(300, 300, true), (300, 300, false), (200, 517, false), (517, 200, false)] {
        let a = random_matrix(rows, cols, 50, false, &mut rng);
        let b = random_rhs(&a, consistent, &mut rng);
        check_against_sparse(&a, &b).unwrap();
    }
}

/// The reduced echelon form is unique, so every block/group size must give the
/// same particular solution and kernel basis, and each must pass the self-checks.
fn check_params_agree(a: &BitMatrix, b: &[u64], params: Params, finish: Finish) -> Result<(), TestCaseError> {
    let never = || false;
    let mut canc = Canceller::new(&never);
    let s = solve_with(a, b, params, finish, &mut canc).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(verify(a, b, &s, &mut canc), Ok(()));
    let reference = solve_with(a, b, Params { block: 1, group: 1 }, Finish::Reduce, &mut canc).unwrap();
    prop_assert_eq!(&s.particular, &reference.particular);
    prop_assert_eq!(&s.kernel, &reference.kernel);
    prop_assert_eq!(s.consistent, reference.consistent);
    prop_assert_eq!(s.kernel.len(), a.cols - rank_of(a));
    Ok(())
}

/// Every row of the stored transformation, recovered backwards, reproduces the
/// corresponding row of the echelon form: 1 at its pivot, 0 in the other pivot
/// columns left of it (where the log is kept) and left of its pivot, the stored
/// bits elsewhere; rows past the rank are zero. The same holds after the
/// upward pass for the rows it leaves alone.
fn check_row_combinations(a: &BitMatrix, params: Params) -> Result<(), TestCaseError> {
    let never = || false;
    let mut canc = Canceller::new(&never);
    let mut ech = gf2_m4ri::reduce_forward(a.clone(), params, &mut canc).unwrap();
    let pivot_slot = |c: usize| ech.pivots.iter().find(|&&(pc, _)| pc == c).map(|&(_, s)| s);
    for (i, &(c, slot)) in ech.pivots.iter().enumerate() {
        prop_assert_eq!(slot, i);
        prop_assert!(ech.m.get(slot, c));
    }
    let rank = ech.pivots.len();
    let mut rows_of_t = Vec::new();
    for slot in 0..a.rows {
        let y = ech.row_combination(slot, &mut canc).unwrap();
        let row = a.transpose_mul_vec(&y);
        let own = ech.pivots.get(slot).map_or(usize::MAX, |&(c, _)| c);
        for c in 0..a.cols {
            let expected = if slot >= rank || c < own {
                false
            } else {
                match pivot_slot(c) {
                    Some(s) if s < slot => false,
                    _ => ech.m.get(slot, c),
                }
            };
            prop_assert_eq!(get_bit(&row, c), expected, "slot {} column {}", slot, c);
        }
        rows_of_t.push(y);
    }
    // T is invertible: its rows are independent.
    let mut t = BitMatrix::zeros(a.rows, a.rows);
    for (i, y) in rows_of_t.iter().enumerate() {
        t.row_mut(i).copy_from_slice(y);
    }
    prop_assert_eq!(rank_of(&t), a.rows);
    ech.reduce_upward(&mut canc).unwrap();
    let last_block_start =
        ech.pivots.last().map_or(0, |&(c, _)| c / params.block.clamp(1, 64) * params.block.clamp(1, 64));
    for (slot, y) in rows_of_t.iter().enumerate() {
        let untouched = slot >= rank || ech.pivots[slot].0 >= last_block_start;
        if untouched {
            prop_assert_eq!(&ech.row_combination(slot, &mut canc).unwrap(), y);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_block_size_gives_the_same_answer(
        rows in 0usize..150,
        cols in 0usize..150,
        percent in prop::sample::select(vec![2u64, 10, 50, 90]),
        low_rank in any::<bool>(),
        consistent in any::<bool>(),
        block in 1usize..=64,
        group in 1usize..=8,
        finish in prop::sample::select(vec![Finish::Auto, Finish::Reduce, Finish::BackSubstitute]),
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix64(seed);
        let a = random_matrix(rows, cols, percent, low_rank, &mut rng);
        let b = random_rhs(&a, consistent, &mut rng);
        check_params_agree(&a, &b, Params { block, group }, finish)?;
    }

    #[test]
    fn stored_transformation_is_exact(
        rows in 0usize..90,
        cols in 0usize..90,
        percent in prop::sample::select(vec![5u64, 50]),
        low_rank in any::<bool>(),
        block in 1usize..=64,
        group in 1usize..=8,
        seed in any::<u64>(),
    ) {
        let mut rng = SplitMix64(seed);
        let a = random_matrix(rows, cols, percent, low_rank, &mut rng);
        check_row_combinations(&a, Params { block, group })?;
    }
}
