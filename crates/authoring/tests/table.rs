//! `lights table` against independent computations: the polynomial method
//! and published figures for the classic board, and exhaustive enumeration
//! of press vectors on tiny boards of other families.

use std::collections::HashSet;
use std::ops::RangeInclusive;

use lights_authoring::table::{self, entry, Family, GroupShape, TableError};
use lights_compiler::lower::apply_presses;
use num_bigint::BigUint;

// --- The polynomial method over GF(2) (as in crates/compiler/tests/published.rs) ---

/// GF(2) polynomials as bit masks (bit i = coefficient of x^i).
fn gf2_deg(p: u64) -> i32 {
    63 - p.leading_zeros() as i32
}

fn gf2_rem(mut a: u64, b: u64) -> u64 {
    let db = gf2_deg(b);
    while a != 0 && gf2_deg(a) >= db {
        a ^= b << (gf2_deg(a) - db);
    }
    a
}

fn gf2_gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = gf2_rem(a, b);
        a = b;
        b = r;
    }
    a
}

/// f_n over GF(2) with f_0 = 1, f_1 = x + c, f_{k+1} = (x + c)·f_k + f_{k−1}:
/// c = 0 gives f_n(x), c = 1 gives f_n(x + 1).
fn chebyshev(n: usize, c: bool) -> u64 {
    let (mut prev, mut cur) = (1u64, 0b10 ^ u64::from(c));
    if n == 0 {
        return prev;
    }
    for _ in 1..n {
        let next = ((cur << 1) ^ if c { cur } else { 0 }) ^ prev;
        prev = cur;
        cur = next;
    }
    cur
}

/// The nullity of the n×m cross-rule plane board over GF(2):
/// deg gcd(f_n(x + 1), f_m(x)) (the polynomial method, docs/solver.md).
fn nullity(n: usize, m: usize) -> u32 {
    gf2_deg(gf2_gcd(chebyshev(n, true), chebyshev(m, false))) as u32
}

fn no_progress(_: usize, _: usize) {}

#[test]
fn classic_table_matches_the_polynomial_method() {
    let family = Family::parse("cross", "plane", 2).unwrap();
    let t = table::table(&family, 1..=20, 1..=20, &no_progress).unwrap();
    assert_eq!(t.rows, (1..=20).collect::<Vec<_>>());
    assert_eq!(t.cols, (1..=20).collect::<Vec<_>>());
    for (i, &n) in t.rows.iter().enumerate() {
        for (j, &m) in t.cols.iter().enumerate() {
            let e = t.get(i, j);
            assert_eq!((e.rows, e.cols), (n, m));
            let d = nullity(n, m);
            // All Lights is always solvable with the cross rule over GF(2).
            assert!(e.solvable, "{n}×{m}");
            assert_eq!(e.solutions, BigUint::from(1u32) << d, "{n}×{m}");
            assert_eq!(e.kernel.factors, vec![2; d as usize], "{n}×{m}");
            assert_eq!(e.kernel.exponent_of(2), Some(d as usize));
            assert_eq!(e.fraction.to_string(), if d == 0 { "1".to_string() } else { format!("1/{}", 1u64 << d) });
        }
    }
}

#[test]
fn classic_table_rows_5_19_20() {
    // The same method, row by row as a published table prints them.
    let family = Family::parse("cross", "plane", 2).unwrap();
    let t = table::table(&family, 19..=20, 1..=20, &no_progress).unwrap();
    let five = table::table(&family, 5..=5, 1..=20, &no_progress).unwrap();
    for (t, rows) in [(&five, vec![5]), (&t, vec![19, 20])] {
        for (i, &n) in rows.iter().enumerate() {
            let got: Vec<BigUint> = (0..20).map(|j| t.get(i, j).solutions.clone()).collect();
            let want: Vec<BigUint> = (1..=20).map(|m| BigUint::from(1u32) << nullity(n, m)).collect();
            assert_eq!(got, want, "row {n}");
        }
    }
    // Row 5 spelled out (2^nullity for m = 1…20).
    let row5: Vec<u32> =
        (0..20).map(|j| five.get(0, j).solutions.to_u32_digits().first().copied().unwrap_or(0)).collect();
    assert_eq!(row5, [2, 2, 8, 1, 4, 1, 16, 2, 2, 1, 16, 1, 2, 2, 16, 1, 4, 1, 8, 2]);
}

#[test]
fn published_constants() {
    let family = Family::parse("cross", "plane", 2).unwrap();
    // docs/solver.md, "Reference figures".
    for (n, m, solutions) in [(5, 5, 4u32), (4, 4, 16), (19, 19, 65_536), (48, 48, 1)] {
        assert_eq!(entry(&family, n, m).unwrap().solutions, BigUint::from(solutions), "{n}×{m}");
    }
    // OEIS A159257: the nullity of the n×n board.
    for (n, d) in [(1, 0), (2, 0), (3, 0), (4, 4), (5, 2), (16, 8), (19, 16), (23, 14), (29, 10)] {
        assert_eq!(entry(&family, n, n).unwrap().kernel.exponent_of(2), Some(d), "A159257({n})");
    }
    assert_eq!(entry(&family, 5, 5).unwrap().fraction.to_string(), "1/4");
    // docs/solver.md, "Reference figures" (composite moduli): 2×2 with 3 states has no All Lights
    // solution; with 6 states the kernel has exactly 3 elements.
    let three = Family::parse("cross", "plane", 3).unwrap();
    let e = entry(&three, 2, 2).unwrap();
    assert!(!e.solvable);
    assert_eq!(e.solutions, BigUint::from(0u32));
    let six = Family::parse("cross", "plane", 6).unwrap();
    let e = entry(&six, 2, 2).unwrap();
    assert_eq!(e.kernel.factors, vec![3]);
    assert_eq!(e.kernel.describe(6), "[3]");
    assert_eq!(e.fraction.to_string(), "1/3");
}

// --- Brute force on tiny boards ---

/// Every press vector of a rows×cols board: the number of solutions of All
/// Lights, the size of the image of A, and for each d | W the number of
/// quiet patterns x with d·x ≡ 0.
struct Brute {
    solutions: u64,
    image: u64,
    torsion: Vec<(u32, u64)>,
}

fn brute(family: &Family, rows: usize, cols: usize) -> Brute {
    let w = family.states;
    let n = rows * cols;
    let dark = family.board(rows, cols, lights_compiler::model::Board::zeros(n));
    let divisors: Vec<u32> = (1..=w).filter(|&d| gcd(w, d) == d).collect();
    let mut torsion = vec![0u64; divisors.len()];
    let mut image = HashSet::new();
    let mut solutions = 0;
    let mut x = vec![0u16; n];
    loop {
        let b = apply_presses(&dark, &x);
        // All Lights: lights W−1 + A·x ≡ 0, i.e. A·x ≡ 1 everywhere.
        if b.iter().all(|&v| v == 1 % w) {
            solutions += 1;
        }
        if b.iter().all(|&v| v == 0) {
            for (slot, &d) in torsion.iter_mut().zip(&divisors) {
                if x.iter().all(|&v| (u32::from(v) * d) % w == 0) {
                    *slot += 1;
                }
            }
        }
        image.insert(b);
        // Next x in base W.
        let mut i = 0;
        while i < n && u32::from(x[i]) == w - 1 {
            x[i] = 0;
            i += 1;
        }
        if i == n {
            break;
        }
        x[i] += 1;
    }
    Brute { solutions, image: image.len() as u64, torsion: divisors.into_iter().zip(torsion).collect() }
}

fn check_against_brute_force(
    rule: &str,
    topology: &str,
    states: u32,
    rows: RangeInclusive<usize>,
    cols: RangeInclusive<usize>,
) {
    let family = Family::parse(rule, topology, states).unwrap();
    let t = table::table(&family, rows.clone(), cols.clone(), &no_progress).unwrap();
    for (i, &r) in t.rows.iter().enumerate() {
        for (j, &c) in t.cols.iter().enumerate() {
            let e = t.get(i, j);
            let b = brute(&family, r, c);
            let what = format!("{rule} {topology} W={states} {r}×{c}");
            assert_eq!(e.solutions, BigUint::from(b.solutions), "{what}: solutions");
            assert_eq!(e.solvable, b.solutions > 0, "{what}");
            // fraction = |image| / W^cells.
            let all = BigUint::from(states).pow((r * c) as u32);
            let want = lights_authoring::table::Fraction::new(BigUint::from(b.image), all);
            assert_eq!(e.fraction, want, "{what}: fraction");
            // The group: |{x ∈ kernel : d·x = 0}| = Π gcd(d, factor).
            for &(d, count) in &b.torsion {
                let from_factors: u64 = e.kernel.factors.iter().map(|&f| u64::from(gcd(d, f))).product();
                assert_eq!(from_factors, count, "{what}: {d}-torsion of the kernel");
            }
            assert_eq!(e.kernel.size(), BigUint::from(b.torsion.last().unwrap().1), "{what}: kernel size");
        }
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn king_torus_three_states() {
    check_against_brute_force("king", "torus", 3, 1..=2, 1..=3);
}

#[test]
fn merlin_mobius_four_states() {
    check_against_brute_force("merlin", "mobius", 4, 1..=2, 1..=3);
}

#[test]
fn flip_klein_two_states() {
    check_against_brute_force("flip", "klein", 2, 1..=3, 1..=3);
}

#[test]
fn cross_projective_six_states() {
    check_against_brute_force("cross", "projective", 6, 1..=2, 1..=2);
}

#[test]
fn cross_plane_four_states_and_transposes() {
    // A transposing family: 2×3 is solved once for 3×2 too.
    check_against_brute_force("cross", "plane", 4, 1..=3, 1..=2);
    check_against_brute_force("cross", "torus", 4, 2..=3, 1..=3);
}

#[test]
fn stencil_cylinder_five_states() {
    check_against_brute_force("{ . 1 . / 2 1 3 / . 4 . }", "cylinder", 5, 1..=2, 1..=3);
}

#[test]
fn transposed_answers_equal_direct_solves() {
    for (rule, topology, w) in
        [("king", "torus", 3), ("merlin", "plane", 2), ("flip", "torus", 4), ("cross", "plane", 6)]
    {
        let family = Family::parse(rule, topology, w).unwrap();
        assert!(family.transposes());
        let t = table::table(&family, 1..=5, 2..=6, &no_progress).unwrap();
        for (i, &r) in t.rows.iter().enumerate() {
            for (j, &c) in t.cols.iter().enumerate() {
                assert_eq!(t.get(i, j), &entry(&family, r, c).unwrap(), "{rule} {topology} {w} {r}×{c}");
            }
        }
    }
}

#[test]
fn ranges_are_validated() {
    let family = Family::parse("cross", "plane", 2).unwrap();
    let err = |rows: RangeInclusive<usize>, cols| table::table(&family, rows, cols, &no_progress).unwrap_err();
    assert_eq!(err(RangeInclusive::new(5, 3), 1..=2), TableError::EmptyRange { axis: "rows", start: 5, end: 3 });
    assert_eq!(err(1..=2, 0..=2), TableError::ZeroSize { axis: "columns" });
    let e = err(1..=2, 1..=usize::MAX);
    assert!(matches!(e, TableError::BoardTooLarge { .. }), "{e:?}");
    // Only dense elimination has a cell limit: boards the fast paths solve
    // are taken far beyond it (200×200 is 40,000 cells, twice that limit).
    assert!(table::validate(&family, &(1..=200), &(1..=200)).is_ok());
    let wide = Family::parse("cross", "plane", 3).unwrap();
    assert!(table::validate(&wide, &(1..=70), &(1..=70)).is_ok());
    // Every table holds its largest board whole: 4,000×4,000 at most.
    assert!(matches!(
        table::validate(&family, &(1..=4_001), &(1..=4_000)),
        Err(TableError::BoardTooLarge { limit: table::MAX_TABLE_CELLS, .. })
    ));
    assert!(err(RangeInclusive::new(5, 3), 1..=2).to_string().contains("empty"));
}

#[test]
fn progress_reaches_the_total_once_per_board() {
    use std::sync::Mutex;
    let family = Family::parse("cross", "plane", 2).unwrap();
    let seen = Mutex::new(Vec::new());
    let t = table::table(&family, 1..=4, 1..=4, &|done, total| seen.lock().unwrap().push((done, total))).unwrap();
    let mut seen = seen.into_inner().unwrap();
    seen.sort_unstable();
    // 4×4 with transposition: 10 distinct boards.
    assert_eq!(seen, (1..=10).map(|d| (d, 10)).collect::<Vec<_>>());
    assert_eq!(t.entries.len(), 16);
    let stencil = Family::parse("{ 1 1 1 }", "plane", 2).unwrap();
    assert_eq!(table::boards_to_solve(&stencil, &(1..=4), &(1..=4)).len(), 16);
}

#[test]
fn group_shapes_from_orders() {
    // Z/2 ⊕ Z/4 ⊕ Z/3 ≅ Z/2 ⊕ Z/12.
    assert_eq!(GroupShape::from_orders([2, 4, 3]).factors, vec![2, 12]);
    assert_eq!(GroupShape::from_orders([2, 4, 3]).size(), BigUint::from(24u32));
}
