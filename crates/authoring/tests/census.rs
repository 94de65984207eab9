//! `lights census` against brute force: every position written as a
//! `.lights` puzzle and solved by the compiler, with and without the dark
//! cells locked; the counting methods against each other; published figures.

use std::ops::RangeInclusive;

use lights_authoring::census::{self, binomial, census_with, CensusError, Method, Query};
use lights_authoring::table::Family;
use num_bigint::BigUint;

fn no_progress(_: u64, _: u64) {}

/// Whether the position with `lit` cells on (at W−1) can be turned off,
/// asked of the compiler through the language itself.
fn solvable_by_compiler(
    rows: usize,
    cols: usize,
    rule: &str,
    topology: &str,
    w: u32,
    lit: &[usize],
    lock_dark: bool,
) -> bool {
    let at = |cells: &mut dyn Iterator<Item = usize>, value: Option<u32>| -> String {
        let list: Vec<String> = cells
            .map(|c| match value {
                Some(v) => format!("{},{}:{v}", c / cols + 1, c % cols + 1),
                None => format!("{},{}", c / cols + 1, c % cols + 1),
            })
            .collect();
        format!("at {}", list.join(" "))
    };
    let rule = rule.replace('/', "\n");
    let mut src =
        format!("puzzle \"p\" {{\n  size {rows}x{cols}\n  states {w}\n  rule {rule}\n  topology {topology}\n");
    if !lit.is_empty() {
        src.push_str(&format!("  lights {}\n", at(&mut lit.iter().copied(), Some(w - 1))));
    }
    let mut dark = (0..rows * cols).filter(|c| !lit.contains(c)).peekable();
    if lock_dark && dark.peek().is_some() {
        src.push_str(&format!("  locked {}\n", at(&mut dark, None)));
    }
    src.push_str("}\n");
    let analysis = lights_compiler::analyze(&src);
    let model = analysis.blocks[0].puzzle().unwrap_or_else(|| panic!("{src}\n{:?}", analysis.blocks[0].diagnostics));
    lights_compiler::solve::solve(model, &|| false).expect("solves").solvable
}

/// Solvable positions with k lights, by solving every one (in parallel).
fn brute(rows: usize, cols: usize, rule: &str, topology: &str, w: u32, k: usize, lock_dark: bool) -> u64 {
    use rayon::prelude::*;
    let n = rows * cols;
    let mut all = Vec::new();
    let mut lit: Vec<usize> = (0..k).collect();
    loop {
        all.push(lit.clone());
        // Next k-subset in lexicographic order: bump the rightmost cell that can move.
        let Some(i) = (0..k).rev().find(|&i| lit[i] < n - k + i) else {
            break;
        };
        lit[i] += 1;
        for j in i + 1..k {
            lit[j] = lit[j - 1] + 1;
        }
    }
    assert_eq!(BigUint::from(all.len()), binomial(n, k));
    all.par_iter().filter(|lit| solvable_by_compiler(rows, cols, rule, topology, w, lit, lock_dark)).count() as u64
}

fn check(rows: usize, cols: usize, rule: &str, topology: &str, w: u32, on: RangeInclusive<usize>) {
    let family = Family::parse(rule, topology, w).unwrap();
    for lock_dark in [false, true] {
        let query = Query { rows, cols, on: on.clone(), lock_dark };
        let got = census::census(&family, &query, &no_progress).unwrap();
        assert_eq!(got.rows.len(), on.clone().count());
        for (row, k) in got.rows.iter().zip(on.clone()) {
            let what = format!("{rows}×{cols} {rule} {topology} W={w} K={k} lock_dark={lock_dark}");
            assert_eq!(row.on, k);
            assert_eq!(row.positions, binomial(rows * cols, k), "{what}");
            let want = brute(rows, cols, rule, topology, w, k, lock_dark);
            assert_eq!(row.solvable, BigUint::from(want), "{what}");
        }
        if !lock_dark {
            // Both invariant methods agree (MacWilliams only exists for W = 2).
            let dp = census_with(&family, &query, Method::Syndromes, &no_progress).unwrap();
            assert_eq!(dp.rows, got.rows);
        }
    }
}

#[test]
fn three_by_three_cross() {
    check(3, 3, "cross", "plane", 2, 0..=9);
}

#[test]
fn four_by_four_cross() {
    // 4×4 has 4 independent invariants (16 classes).
    check(4, 4, "cross", "plane", 2, 3..=3);
    check(4, 4, "cross", "plane", 2, 7..=8);
}

#[test]
fn three_by_four_torus() {
    check(3, 4, "cross", "torus", 2, 0..=12);
}

#[test]
fn three_states() {
    check(3, 3, "cross", "plane", 3, 0..=9);
    check(2, 3, "king", "torus", 3, 0..=6);
}

#[test]
fn composite_states() {
    check(2, 3, "cross", "plane", 4, 0..=6);
    check(2, 2, "cross", "plane", 6, 0..=4);
    check(2, 3, "cross", "klein", 6, 0..=6);
}

#[test]
fn other_rules_and_surfaces() {
    check(3, 3, "flip", "plane", 2, 0..=9);
    check(3, 3, "merlin", "mobius", 2, 0..=9);
    check(2, 4, "{ 1 . 1 }", "projective", 2, 0..=8);
    // Rules whose press leaves the pressed cell alone, or is lopsided: here
    // invariants of odd weight exist (never with the named rules, whose
    // symmetric matrices have a unit diagonal), which exercises the sign of
    // P_K(j) = (−1)^j·P_{n−K}(j) for K > n/2.
    check(3, 3, "{ .1. / 1.1 / .1. }", "plane", 2, 0..=9);
    check(2, 3, "{ 1 1 . }", "torus", 2, 0..=6);
}

#[test]
fn five_by_five_twenty_on() {
    // docs/solver.md, "Reference figures": 53,130 positions, 13,326 solvable;
    // 3,270 with the dark cells locked.
    let family = Family::parse("cross", "plane", 2).unwrap();
    let free =
        census::census(&family, &Query { rows: 5, cols: 5, on: 20..=20, lock_dark: false }, &no_progress).unwrap();
    assert_eq!(free.rows[0].positions, BigUint::from(53_130u32));
    assert_eq!(free.rows[0].solvable, BigUint::from(13_326u32));
    assert_eq!(free.rows[0].fraction().to_string(), "2221/8855");
    assert_eq!(free.method, Method::MacWilliams);
    assert_eq!(free.classes.as_ref().unwrap().factors, vec![2, 2]);
    let locked =
        census::census(&family, &Query { rows: 5, cols: 5, on: 20..=20, lock_dark: true }, &no_progress).unwrap();
    assert_eq!(locked.rows[0].solvable, BigUint::from(3_270u32));
    assert_eq!(locked.method, Method::Enumeration);
}

#[test]
fn five_by_five_twenty_on_by_brute_force() {
    // The published figures above, solved position by position (the
    // complements: 5 dark cells).
    assert_eq!(brute(5, 5, "cross", "plane", 2, 20, false), 13_326);
    assert_eq!(brute(5, 5, "cross", "plane", 2, 20, true), 3_270);
}

#[test]
fn every_k_sums_to_the_image() {
    // Σ_K solvable = |image of A| = 2^25 / |classes| for 5×5 (kernel of dimension 2).
    let family = Family::parse("cross", "plane", 2).unwrap();
    let query = Query { rows: 5, cols: 5, on: 0..=25, lock_dark: false };
    let mut by_method = Vec::new();
    for method in [Method::MacWilliams, Method::Syndromes] {
        let c = census_with(&family, &query, method, &no_progress).unwrap();
        let (positions, solvable, fraction) = c.totals();
        assert_eq!(positions, BigUint::from(1u32 << 25));
        assert_eq!(solvable, BigUint::from(1u32 << 23));
        assert_eq!(fraction.to_string(), "1/4");
        by_method.push(c.rows);
    }
    assert_eq!(by_method[0], by_method[1], "the two methods agree K by K");
}

#[test]
fn large_boards_agree_between_methods() {
    // 19×19: 16 invariants (65,536 classes); 16×16: 8.
    let family = Family::parse("cross", "plane", 2).unwrap();
    for (n, on) in [(19, 0..=5), (16, 120..=124)] {
        let query = Query { rows: n, cols: n, on, lock_dark: false };
        let mw = census_with(&family, &query, Method::MacWilliams, &no_progress).unwrap();
        let dp = census_with(&family, &query, Method::Syndromes, &no_progress).unwrap();
        assert_eq!(mw.rows, dp.rows, "{n}×{n}");
        assert_eq!(mw.classes, dp.classes);
        for row in &mw.rows {
            assert!(row.solvable <= row.positions);
        }
    }
    // 19×19, K = 1: a single light is solvable iff no invariant sees it.
    let c = census::census(&family, &Query { rows: 19, cols: 19, on: 1..=1, lock_dark: false }, &no_progress).unwrap();
    assert!(c.rows[0].solvable < BigUint::from(361u32));
}

#[test]
fn huge_counts_stay_exact() {
    let family = Family::parse("cross", "plane", 2).unwrap();
    // 99×99 (16 invariants) with 4,900 lights: C(9801, 4900) has about 2,950 digits.
    let c = census::census(&family, &Query { rows: 99, cols: 99, on: 4900..=4900, lock_dark: false }, &no_progress)
        .unwrap();
    let row = &c.rows[0];
    assert_eq!(c.classes.as_ref().unwrap().factors, vec![2; 16]);
    assert!(row.positions.to_string().len() > 2900);
    // Half-full positions spread evenly over the 2^16 classes, to within 1%.
    let scaled = &row.solvable << 16u32;
    let ratio = lights_authoring::table::Fraction::new(scaled, row.positions.clone()).to_f64();
    assert!((ratio - 1.0).abs() < 0.01, "ratio {ratio}");
    // 77×77 (2 invariants), 100 lights: counts beyond u128 in both methods.
    let query = Query { rows: 77, cols: 77, on: 100..=100, lock_dark: false };
    let mw = census_with(&family, &query, Method::MacWilliams, &no_progress).unwrap();
    let dp = census_with(&family, &query, Method::Syndromes, &no_progress).unwrap();
    assert!(mw.rows[0].positions > BigUint::from(u128::MAX));
    assert_eq!(mw.rows, dp.rows);
}

#[test]
fn errors() {
    let family = Family::parse("cross", "plane", 2).unwrap();
    let q = |rows, cols, on: RangeInclusive<usize>, lock_dark| Query { rows, cols, on, lock_dark };
    let err = |query: Query| census::census(&family, &query, &no_progress).unwrap_err();
    assert_eq!(err(q(3, 3, 0..=10, false)), CensusError::BadOn { start: 0, end: 10, cells: 9 });
    assert!(err(q(3, 3, RangeInclusive::new(5, 4), false)).to_string().contains("empty"));
    assert_eq!(err(q(0, 3, 0..=0, false)), CensusError::ZeroSize);
    assert!(matches!(err(q(200, 200, 1..=1, false)), CensusError::BoardTooLarge { graph: false, .. }));
    // C(64, 10) ≈ 1.5·10^11 positions is too many to enumerate.
    let e = err(q(8, 8, 10..=10, true));
    assert!(matches!(e, CensusError::TooManyPositions { limit: 100_000_000, .. }), "{e:?}");
    assert!(e.to_string().contains("there are 151473214816 of them"), "{e}");
    // Every K of 6×6 (2^36 positions): counting stops past the limit.
    let e = err(q(6, 6, 0..=36, true));
    assert!(matches!(e, CensusError::TooManyPositions { exact: false, .. }), "{e:?}");
    assert!(e.to_string().contains("there are over "), "{e}");
    // Methods that do not apply.
    let five = q(5, 5, 20..=20, true);
    assert!(matches!(
        census_with(&family, &five, Method::Syndromes, &no_progress),
        Err(CensusError::MethodNotApplicable { .. })
    ));
    let free = q(5, 5, 20..=20, false);
    assert!(matches!(
        census_with(&family, &free, Method::Enumeration, &no_progress),
        Err(CensusError::MethodNotApplicable { .. })
    ));
    let three = Family::parse("cross", "plane", 3).unwrap();
    assert!(matches!(
        census_with(&three, &free, Method::MacWilliams, &no_progress),
        Err(CensusError::MethodNotApplicable { .. })
    ));
}

#[test]
fn lock_dark_beyond_the_bit_packed_size() {
    // 46×46 = 2,116 cells: past the 2,048 cells of the bit-packed walk.
    let cross = Family::parse("cross", "plane", 2).unwrap();
    let q = |on: RangeInclusive<usize>| Query { rows: 46, cols: 46, on, lock_dark: true };
    // One light with only its own button: a cross press always lights neighbours.
    assert_eq!(census::census(&cross, &q(1..=1), &no_progress).unwrap().rows[0].solvable, BigUint::from(0u32));
    // A 1×1 stencil changes only the pressed cell: every single light is solvable.
    let itself = Family::parse("{ 1 }", "plane", 2).unwrap();
    assert_eq!(census::census(&itself, &q(1..=1), &no_progress).unwrap().rows[0].solvable, BigUint::from(2116u32));
    // Every light on, every button free: All Lights, as the table says.
    let all = census::census(&cross, &q(2116..=2116), &no_progress).unwrap();
    let all_lights = lights_authoring::table::entry(&cross, 46, 46).unwrap();
    assert_eq!(all.rows[0].solvable, BigUint::from(u32::from(all_lights.solvable)));
    // Two lights: C(2116, 2) = 2,237,670 general solves is past their limit.
    let e = census::census(&cross, &q(2..=2), &no_progress).unwrap_err();
    assert!(matches!(e, CensusError::TooManyPositions { limit: 2_000_000, exact: true, .. }), "{e:?}");
}

#[test]
fn lock_dark_progress_counts_every_position() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let family = Family::parse("cross", "plane", 2).unwrap();
    let last = AtomicU64::new(0);
    let query = Query { rows: 4, cols: 4, on: 6..=8, lock_dark: true };
    census::census(&family, &query, &|done, total| {
        assert_eq!(total, 8008 + 11440 + 12870);
        last.fetch_max(done, Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(last.into_inner(), 8008 + 11440 + 12870);
}
