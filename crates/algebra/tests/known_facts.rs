//! Facts about Lights Out boards established independently (by brute force or
//! from published sources; see docs/solver.md, "Reference figures").

mod common;

use common::{cross, king};
use lights_algebra::{minimum_weight, solve, solve_cancellable, AlgebraError, SparseMatrix};
use num_bigint::BigUint;
use std::cell::Cell;

fn never() -> bool {
    false
}

#[test]
fn cross_2x2_mod_3_all_lights_is_unsolvable() {
    let a = cross(2, 2);
    let b = vec![2; 4];
    let s = solve(&a, &b, 3).unwrap();
    assert!(!s.consistent);
    assert_eq!(s.count(), BigUint::from(0u32));
    assert!(s.particular.is_none());
    let y = s.certificate.expect("certificate");
    assert!(a.transpose_mul_vec(&y, 3).iter().all(|&v| v == 0));
    let yb: u32 = y.iter().zip(&b).map(|(&p, &q)| p * q).sum::<u32>() % 3;
    assert_ne!(yb, 0);
}

#[test]
fn cross_2x2_mod_6_has_three_quiet_patterns() {
    let a = cross(2, 2);
    let s = solve(&a, &[0; 4], 6).unwrap();
    assert_eq!(s.kernel.size(), BigUint::from(3u32));
    // ... while W^nullity would wrongly claim 6 (nullity 1 mod 3, 0 mod 2).
    let s = solve(&a, &[5; 4], 6).unwrap();
    assert!(!s.consistent);
}

#[test]
fn cross_5x5_all_lights() {
    let a = cross(5, 5);
    let b = vec![1; 25];
    let s = solve(&a, &b, 2).unwrap();
    assert!(s.consistent);
    assert_eq!(s.kernel.generators.len(), 2);
    assert_eq!(s.count(), BigUint::from(4u32));
    let x0 = s.particular.clone().unwrap();
    for coeffs in [[0, 0], [0, 1], [1, 0], [1, 1]] {
        let x = s.kernel.combine(&x0, &coeffs, 2);
        assert_eq!(a.mul_vec(&x, 2), b);
        assert_eq!(x.iter().sum::<u32>(), 15);
    }
    let m = minimum_weight(&x0, &s.kernel, 2, &never).unwrap();
    assert_eq!(m.cost, 15);
    assert!(m.optimal);
}

#[test]
fn cross_4x4_has_16_solutions() {
    let s = solve(&cross(4, 4), &[1; 16], 2).unwrap();
    assert_eq!(s.count(), BigUint::from(16u32));
}

/// A figure of 144 circulates, but 141 (OEIS A075464) is correct for the cross rule
/// (toggle self + orthogonal neighbours), all-on to all-off: an independent
/// light-chasing enumeration of all 2^19 first-row patterns (no linear algebra)
/// found 65,536 solutions with minimum 141, attained by 28 of them.
#[test]
fn cross_19x19_all_lights_minimum_is_141() {
    let a = cross(19, 19);
    let s = solve(&a, &[1; 361], 2).unwrap();
    assert_eq!(s.count(), BigUint::from(65536u32));
    assert_eq!(s.kernel.generators.len(), 16);
    let m = minimum_weight(s.particular.as_ref().unwrap(), &s.kernel, 2, &never).unwrap();
    assert_eq!(m.cost, 141);
    assert!(m.optimal);
    assert_eq!(a.mul_vec(&m.x, 2), vec![1; 361]);
}

#[test]
fn cross_48x48_is_uniquely_solvable() {
    let s = solve(&cross(48, 48), &[1; 2304], 2).unwrap();
    assert!(s.consistent);
    assert!(s.kernel.is_trivial());
    assert_eq!(s.count(), BigUint::from(1u32));
}

#[test]
fn cross_28x28_mod_3_has_exactly_one_solution() {
    let s = solve(&cross(28, 28), &[2; 784], 3).unwrap();
    assert!(s.consistent);
    assert_eq!(s.count(), BigUint::from(1u32));
}

#[test]
fn king_8x8_mod_4_has_2_pow_30_quiet_patterns() {
    let s = solve(&king(8, 8), &[0; 64], 4).unwrap();
    assert_eq!(s.kernel.size(), BigUint::from(1u64 << 30));
    // Generators may have order 2 or 4; the naive 4^nullity would differ.
    for g in &s.kernel.generators {
        assert!(g.order == 2 || g.order == 4);
    }
}

#[test]
fn composite_modulus_counts_multiply_over_primes() {
    // Count over Z/12 = count over Z/4 × count over Z/3 (CRT).
    for (n, m) in [(3, 3), (4, 5), (6, 6)] {
        let a = king(n, m);
        let b = vec![0; n * m];
        let c12 = solve(&a, &b, 12).unwrap().count();
        let c4 = solve(&a, &b, 4).unwrap().count();
        let c3 = solve(&a, &b, 3).unwrap().count();
        assert_eq!(c12, c4 * c3);
    }
}

#[test]
fn bad_modulus_and_shapes_are_errors() {
    let a = cross(2, 2);
    assert_eq!(solve(&a, &[0; 4], 1).unwrap_err(), AlgebraError::BadModulus(1));
    assert_eq!(solve(&a, &[0; 4], 0).unwrap_err(), AlgebraError::BadModulus(0));
    assert_eq!(solve(&a, &[0; 4], 65537).unwrap_err(), AlgebraError::BadModulus(65537));
    assert!(solve(&a, &[0; 4], 65536).is_ok());
    assert!(matches!(solve(&a, &[0; 3], 2), Err(AlgebraError::DimensionMismatch { .. })));
    let mut bad = SparseMatrix::new(2, 2);
    bad.push_entry(0, 7, 1);
    assert!(matches!(solve(&bad, &[0; 2], 2), Err(AlgebraError::DimensionMismatch { .. })));
    let mut bad = SparseMatrix::new(2, 2);
    bad.push_entry(5, 0, 1);
    assert!(matches!(solve(&bad, &[0; 2], 2), Err(AlgebraError::DimensionMismatch { .. })));
    // Errors display.
    assert!(AlgebraError::BadModulus(1).to_string().contains("modulus"));
}

#[test]
fn degenerate_shapes() {
    // No unknowns: consistent iff b ≡ 0.
    let a = SparseMatrix::new(2, 0);
    assert!(!solve(&a, &[0, 3], 4).unwrap().consistent);
    assert_eq!(solve(&a, &[0, 0], 4).unwrap().count(), BigUint::from(1u32));
    // No equations: everything is a solution.
    let a = SparseMatrix::new(0, 3);
    let s = solve(&a, &[], 6).unwrap();
    assert_eq!(s.count(), BigUint::from(216u32));
    // Unreduced and duplicate entries are accepted.
    let mut a = SparseMatrix::new(1, 1);
    a.push_entry(0, 0, 7);
    a.push_entry(0, 0, 7); // 14 ≡ 2 (mod 4)
    let s = solve(&a, &[6], 4).unwrap();
    assert!(s.consistent);
    assert_eq!(s.count(), BigUint::from(2u32));
}

#[test]
fn cancellation() {
    let a = cross(30, 30);
    let b = vec![1; 900];
    assert_eq!(solve_cancellable(&a, &b, 3, &|| true).unwrap_err(), AlgebraError::Cancelled);
    // Cancel on the second poll: the solver must poll during the work.
    let polls = Cell::new(0);
    let cancel = || {
        polls.set(polls.get() + 1);
        polls.get() > 1
    };
    let big = cross(60, 60);
    let r = solve_cancellable(&big, &vec![1; 3600], 3, &cancel);
    assert_eq!(r.unwrap_err(), AlgebraError::Cancelled);
}
