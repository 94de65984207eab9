//! Published facts of the field, checked through the whole pipeline (source
//! text → model → system → report).

use lights_compiler::solve::Report;
use lights_compiler::{check_source, Code};
use num_bigint::BigUint;

/// Solve the single puzzle of `src`, which must be free of errors.
fn report(src: &str) -> Report {
    let a = check_source(src);
    assert!(a.file_diagnostics.is_empty(), "{:?}", a.file_diagnostics);
    let p = &a.blocks[0];
    let errors: Vec<_> = p.diagnostics.iter().filter(|d| d.is_error() && d.code != Code::Unsolvable).collect();
    assert!(errors.is_empty(), "{errors:?}");
    p.report.as_ref().and_then(lights_compiler::BlockReport::as_lights).cloned().expect("solved")
}

fn board(size: &str, extra: &str) -> String {
    format!("puzzle \"p\" {{\n  size {size}\n{extra}\n}}\n")
}

#[test]
fn classic_all_on_has_four_solutions_all_of_fifteen_presses() {
    let r = report(&board("5x5", "lights on"));
    assert_eq!(r.solutions, BigUint::from(4u32));
    let m = r.minimum.as_ref().unwrap();
    assert_eq!((m.cost, m.optimal), (15, true));
    // Every solution (minimum + any quiet pattern) has 15 presses.
    assert_eq!(r.quiet_patterns.len(), 2);
    for mask in 0..4 {
        let mut x = m.presses.to_vec();
        for (k, g) in r.quiet_patterns.iter().enumerate() {
            if mask >> k & 1 == 1 {
                for (a, b) in x.iter_mut().zip(g.presses.iter()) {
                    *a ^= b;
                }
            }
        }
        assert_eq!(x.iter().sum::<u32>(), 15);
    }
}

#[test]
fn two_by_two_three_states_all_lights_has_no_solution() {
    let r = report(&board("2x2", "states 3\n goal on"));
    assert!(!r.solvable);
    assert_eq!(r.solutions, BigUint::from(0u32));
}

#[test]
fn two_by_two_six_states_has_exactly_three_quiet_patterns() {
    let r = report(&board("2x2", "states 6"));
    let size = r.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
    assert_eq!(size, BigUint::from(3u32));
    assert_eq!(r.solutions, BigUint::from(3u32), "lights off, goal off: the solutions are the quiet patterns");
}

#[test]
fn eight_by_eight_king_four_states_has_two_to_the_thirty_quiet_patterns() {
    let r = report(&board("8x8", "rule king\n states 4"));
    assert_eq!(r.solutions, BigUint::from(1u64 << 30));
}

#[test]
fn twenty_eight_ternary_all_lights_has_exactly_one_solution() {
    let r = report(&board("28x28", "states 3\n goal on"));
    assert_eq!(r.solutions, BigUint::from(1u32));
}

#[test]
fn the_seed_puzzle_48_by_48_has_one_solution() {
    let r = report(&board("48x48", "goal on"));
    assert_eq!(r.solutions, BigUint::from(1u32));
}

#[test]
fn nineteen_by_nineteen_all_lights() {
    let r = report(&board("19x19", "lights on"));
    assert_eq!(r.solutions, BigUint::from(65_536u32));
    let m = r.minimum.as_ref().unwrap();
    assert!(m.optimal);
    // Check the claimed minimum independently: walk all 2^16 solutions
    // (minimum + every quiet pattern) in Gray-code order.
    let mut x = m.presses.to_vec();
    let mut best = x.iter().sum::<u32>();
    for i in 1u32..(1 << 16) {
        let k = i.trailing_zeros() as usize;
        for (a, b) in x.iter_mut().zip(r.quiet_patterns[k].presses.iter()) {
            *a ^= b;
        }
        best = best.min(x.iter().sum());
    }
    assert_eq!(u64::from(best), m.cost);
    // A figure of 144 circulates; a 141-press solution exists (this test
    // replays every solution, and `lights check` re-simulates it), so 141 it is.
    // See docs/solver.md, "Reference figures".
    assert_eq!(m.cost, 141);
}

/// GF(2) polynomials as bit masks (bit i = coefficient of x^i).
fn gf2_mul_x_plus(p: u64, shift_plus_one: bool) -> u64 {
    // (x + c)·p
    (p << 1) ^ if shift_plus_one { p } else { 0 }
}

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

/// f_n over GF(2) with f_0 = 1, f_1 = x + c, f_{k+1} = (x + c)·f_k + f_{k−1}.
fn chebyshev(n: usize, c: bool) -> u64 {
    let (mut prev, mut cur) = (1u64, 0b10 ^ u64::from(c));
    if n == 0 {
        return prev;
    }
    for _ in 1..n {
        let next = gf2_mul_x_plus(cur, c) ^ prev;
        prev = cur;
        cur = next;
    }
    cur
}

/// The polynomial method (docs/solver.md): nullity(n×n) = deg gcd(f_n(x), f_n(x+1)).
fn nullity_by_polynomials(n: usize) -> usize {
    gf2_deg(gf2_gcd(chebyshev(n, false), chebyshev(n, true))) as usize
}

#[test]
fn square_nullities_match_the_polynomial_method_and_oeis_a159257() {
    let mut by_solver = Vec::new();
    for n in 1..=30 {
        let r = report(&board(&format!("{n}x{n}"), ""));
        let d = r.quiet_patterns.len();
        assert!(r.quiet_patterns.iter().all(|g| g.order == 2));
        assert_eq!(d, nullity_by_polynomials(n), "n = {n}");
        by_solver.push(d);
    }
    // Published values of OEIS A159257.
    for (n, d) in [(1, 0), (2, 0), (3, 0), (4, 4), (5, 2), (16, 8), (19, 16), (23, 14), (29, 10)] {
        assert_eq!(by_solver[n - 1], d, "A159257({n})");
    }
}

#[test]
fn flip_parity_formulas() {
    // docs/solver.md, "Reference figures": both even → unique; one odd → 2^(other − 1) when consistent;
    // both odd → 2^(n + m − 2). Lights off, goal off is always consistent.
    for n in 1..=6u32 {
        for m in 1..=6u32 {
            let r = report(&board(&format!("{n}x{m}"), "rule flip"));
            let want: u32 = match (n % 2, m % 2) {
                (0, 0) => 1,
                (1, 1) => 1 << (n + m - 2),
                (1, 0) => 1 << (m - 1),
                _ => 1 << (n - 1),
            };
            assert_eq!(r.solutions, BigUint::from(want), "{n}×{m} flip");
        }
    }
}
