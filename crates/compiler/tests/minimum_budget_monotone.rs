//! A longer minimum budget never answers worse than the default one: no
//! more presses, no lower bound (crates/compiler/src/minimum.rs `search`
//! first does what the default does). Without that, the searches' shares
//! and descents, which depend on the budget, settled elsewhere on some
//! boards: 48×48 All Lights on the projective plane with W = 4 had 3200
//! presses with 30 M units against 2976 with the default, and the Klein
//! bottle with W = 12 had 10,752 with 13 M against 10,656.

use lights_algebra::SplitMix64;
use lights_compiler::model::{Board, Puzzle, Rule, Topology};
use lights_compiler::report::{SolveOptions, DEFAULT_MINIMUM_WORK};
use lights_compiler::solve::solve_with;

#[path = "support/boards.rs"]
mod boards;
use boards::press_randomly;

/// (cost, lower bound) with `units` of minimum budget.
fn answer(p: &Puzzle, units: u64) -> (u64, u64) {
    let r = solve_with(p, SolveOptions { search_minimum: true, minimum_work: units }, &|| false).expect("solves");
    let m = r.minimum.expect("solvable");
    (m.cost, m.lower_bound)
}

fn assert_not_worse(p: &Puzzle, units: u64, what: &str) {
    let default = answer(p, DEFAULT_MINIMUM_WORK);
    let longer = answer(p, units);
    assert!(longer.0 <= default.0, "{what}: {} presses with {units} units, {} with the default", longer.0, default.0);
    assert!(longer.1 >= default.1, "{what}: bound {} with {units} units, {} with the default", longer.1, default.1);
}

fn all_lights(w: u32, topology: Topology) -> Puzzle {
    let mut p = Puzzle::new(48, 48, w, Rule::from_name("cross").expect("cross"), topology);
    p.lights = Board::dense(vec![(w - 1) as u16; p.cells()]);
    p
}

#[test]
fn the_boards_that_answered_worse_with_more_budget_no_longer_do() {
    assert_not_worse(&all_lights(4, Topology::Projective), 30_000_000, "48×48 projective W=4");
    assert_not_worse(&all_lights(12, Topology::Klein), 13_000_000, "48×48 Klein W=12");
}

#[test]
fn the_repeating_solutions_of_a_longer_budget_start_with_the_defaults() {
    // Boards whose answers come from repeating patterns (crates/compiler/src/lift.rs):
    // just above the default budget, and well above it.
    for units in [DEFAULT_MINIMUM_WORK + 4_000_000, 5 * DEFAULT_MINIMUM_WORK] {
        assert_not_worse(&all_lights(6, Topology::Torus), units, "48×48 torus W=6");
        assert_not_worse(&all_lights(12, Topology::Projective), units, "48×48 projective W=12");
    }
}

#[test]
fn a_longer_budget_never_answers_worse_on_random_boards() {
    let mut rng = SplitMix64(2028);
    for case in 0..8 {
        let (w, topology) =
            [(4, Topology::Torus), (6, Topology::Klein), (3, Topology::Torus), (4, Topology::Projective)][case % 4];
        let n = 24 + rng.below(8) as usize;
        let mut p = Puzzle::new(n, n, w, Rule::from_name("cross").expect("cross"), topology);
        press_randomly(&mut p, &mut rng);
        assert_not_worse(&p, 3 * DEFAULT_MINIMUM_WORK, &format!("case {case}: {n}×{n} W={w}"));
    }
}
