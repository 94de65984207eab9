//! The window search (`minimum::symmetric_minimum`, `lights_algebra::window_search`):
//! on a board that a shift of its columns or rows maps onto itself, a
//! lightest solution has a shifted copy that is light on column 0 (or row
//! 0), and only the solutions light there are searched.
//!
//! Against an exact reference that shares nothing with it (a Walsh–Hadamard
//! transform over every member of the coset) on random small boards of every
//! surface with a shift: the shifts are found by checking the press
//! patterns, so these boards' lights are chosen to keep a shift (All Lights,
//! or lights that repeat along the shifted side), and a board whose lights
//! break every shift gets no window at all. Then the whole pipeline: the
//! 52×63 cross torus, beyond the exhaustive search's default budget, is
//! proven.

use lights_algebra::{SplitMix64, WindowOutcome};
use lights_compiler::board::Board;
use lights_compiler::check_source;
use lights_compiler::minimum::symmetric_minimum;
use lights_compiler::model::{Puzzle, Rule, Topology};

#[path = "support/coset.rs"]
mod coset;
#[path = "support/walsh.rs"]
mod walsh;

use coset::{coset, kernel};
use walsh::reference_minimum;

/// Lights that a shift keeps, even across a twisted seam: one random value
/// per row, the same along the row and in the mirrored row (for the
/// columns' shift), or the same per column (for the rows').
fn alike(rng: &mut SplitMix64, rows: usize, cols: usize, along_rows: bool) -> Board {
    let lines = if along_rows { rows } else { cols };
    let mut per_line: Vec<u16> = (0..lines).map(|_| u16::from(rng.below(4) != 0)).collect();
    for k in 0..lines / 2 {
        per_line[lines - 1 - k] = per_line[k];
    }
    Board::dense((0..rows * cols).map(|i| per_line[if along_rows { i / cols } else { i % cols }]).collect())
}

#[test]
fn agrees_with_the_transform_on_symmetric_boards() {
    let mut rng = SplitMix64(28);
    let rules = ["cross", "king", "merlin", "ring"];
    let surfaces = [Topology::Torus, Topology::Cylinder, Topology::Mobius, Topology::Klein];
    let (mut checked, mut lighter, mut none) = (0, 0, 0);
    for round in 0..400 {
        let rule = rules[rng.below(rules.len() as u64) as usize];
        let topology = surfaces[rng.below(surfaces.len() as u64) as usize];
        let (rows, cols) = (2 + rng.below(7) as usize, 2 + rng.below(9) as usize);
        let mut p = Puzzle::new(rows, cols, 2, Rule::from_name(rule).expect("a rule"), topology);
        p.lights = match rng.below(3) {
            0 => Board::uniform(rows * cols, 1),
            1 => alike(&mut rng, rows, cols, true),
            _ => alike(&mut rng, rows, cols, false),
        };
        let Some((x0, patterns)) = coset(&p) else { continue };
        if patterns.is_empty() || patterns.len() > 20 {
            continue;
        }
        let exact = reference_minimum(&x0, &patterns);
        let k = kernel(&patterns);
        let what = format!("round {round}: {rows}×{cols} {rule} {}", topology.name());
        // Lights along the wrong side keep no shift (the next test).
        if symmetric_minimum(&p, &x0, &k, 0, &mut u64::MAX.clone()).is_none() {
            continue;
        }
        // Below the minimum + 1 it is found; at the minimum, nothing lighter.
        match symmetric_minimum(&p, &x0, &k, exact + 1, &mut u64::MAX.clone()) {
            Some(WindowOutcome::Minimum(x, cost)) => {
                assert_eq!(cost, exact, "{what}");
                assert_eq!(x.iter().map(|&v| u64::from(v)).sum::<u64>(), cost, "{what}: the member weighs its cost");
                lighter += 1;
            }
            other => panic!("{what}: {other:?}, the minimum is {exact}"),
        }
        match symmetric_minimum(&p, &x0, &k, exact, &mut u64::MAX.clone()) {
            Some(WindowOutcome::NoneLighter) => none += 1,
            other => panic!("{what}: {other:?} below the minimum {exact}"),
        }
        checked += 1;
    }
    assert!(checked >= 100 && lighter == checked && none == checked, "{checked} boards checked");
}

#[test]
fn lights_that_break_every_shift_give_no_window() {
    let mut p = Puzzle::new(6, 6, 2, Rule::from_name("cross").expect("a rule"), Topology::Torus);
    // The lights of one press at 1,1: solvable, and no shift keeps them.
    p.lights = Board::sparse(36, vec![(0, 1), (1, 1), (5, 1), (6, 1), (30, 1)]);
    let (x0, patterns) = coset(&p).expect("solvable");
    assert!(!patterns.is_empty());
    assert_eq!(symmetric_minimum(&p, &x0, &kernel(&patterns), 100, &mut u64::MAX.clone()), None);
    // The plane has no shift at all.
    let mut p = Puzzle::new(5, 5, 2, Rule::from_name("cross").expect("a rule"), Topology::Plane);
    p.lights = Board::uniform(25, 1);
    let (x0, patterns) = coset(&p).expect("solvable");
    assert_eq!(symmetric_minimum(&p, &x0, &kernel(&patterns), 100, &mut u64::MAX.clone()), None);
}

/// (presses, lower bound, proven) of an All Lights cross torus with W = 2.
fn answer(rows: usize, cols: usize) -> (u64, u64, bool) {
    let src = format!("puzzle \"p\" {{\n  size {rows}x{cols}\n  topology torus\n  lights on\n}}\n");
    let a = check_source(&src);
    let r = a.blocks[0].report.as_ref().and_then(|r| r.as_lights()).expect("solved");
    let m = r.minimum.as_ref().expect("solvable");
    (m.cost, m.lower_bound, m.optimal)
}

/// Kernel 28: the exhaustive search needs 43 times the default budget, but
/// 126 of a row's 16,384 projections are light enough, each a search of
/// dimension 14. The budget is counted work, so this holds on every
/// machine and in a debug build.
#[test]
fn a_torus_beyond_the_exhaustive_search_is_proven() {
    assert_eq!(answer(52, 63), (1092, 1092, true));
    assert_eq!(answer(63, 52), (1092, 1092, true));
}
