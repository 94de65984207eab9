//! `table` answers through the solver's fast paths; here every entry of
//! small boards is compared with dense elimination of the lowered system
//! (the method `table` used before), for several rules, surfaces and
//! moduli, prime and composite.

use lights_authoring::table::{entry, Family, GroupShape};
use lights_compiler::lower::lower;

fn dense(family: &Family, rows: usize, cols: usize) -> (bool, String, GroupShape) {
    let system = lower(&family.all_lights(rows, cols));
    let s = lights_algebra::solve(&system.matrix, &system.rhs, system.modulus).expect("dense solve");
    let shape = GroupShape::from_orders(s.kernel.generators.iter().map(|g| g.order));
    (s.consistent, s.count().to_string(), shape)
}

#[test]
fn entries_match_dense_elimination() {
    for (rule, topology, states) in [
        ("cross", "plane", 2),
        ("cross", "torus", 2),
        ("king", "plane", 2),
        ("cross", "klein", 2),
        ("cross", "plane", 3),
        ("cross", "torus", 4),
        ("cross", "plane", 6),
    ] {
        let family = Family::parse(rule, topology, states).unwrap();
        for rows in 1..=9 {
            for cols in 1..=9 {
                let e = entry(&family, rows, cols).unwrap();
                let (solvable, count, shape) = dense(&family, rows, cols);
                let what = format!("{rule} {topology} W={states} {rows}×{cols}");
                assert_eq!(e.solvable, solvable, "{what}");
                assert_eq!(e.solutions.to_string(), count, "{what}");
                assert_eq!(e.kernel, shape, "{what}");
            }
        }
    }
}

/// Boards past dense elimination's limit (20,000 cells for W = 2) are
/// answered by the fast paths: a 200×200 table is allowed, and 160×160
/// (25,600 cells) is solved, its count consistent with its kernel.
#[test]
fn boards_past_the_dense_limit_are_answered() {
    let family = Family::parse("cross", "plane", 2).unwrap();
    lights_authoring::table::validate(&family, &(1..=200), &(1..=200)).expect("a 200×200 table is allowed");
    let e = entry(&family, 160, 160).unwrap();
    assert!(e.solvable);
    assert_eq!(e.solutions, num_bigint::BigUint::from(2u32).pow(e.kernel.factors.len() as u32));
}
