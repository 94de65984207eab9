//! Boards whose quiet patterns are too many to spell out for the algebra
//! (cells × (patterns + 1) above `MATERIALIZE_LIMIT`) are searched by a
//! descent over the chase's leftover kernel (crates/compiler/src/fast/descent.rs):
//! never worse than the solution the solve found, a real solution, and no
//! search at all with a zero budget.

use lights_compiler::lower::apply_presses;
use lights_compiler::model::{Board, Puzzle, Rule, Topology};
use lights_compiler::solve::{solve_with, SolveOptions};

fn torus(n: usize) -> Puzzle {
    let mut p = Puzzle::new(n, n, 2, Rule::from_name("cross").expect("cross"), Topology::Torus);
    p.lights = Board::uniform(p.cells(), 1);
    p
}

fn cost(p: &Puzzle, opts: SolveOptions) -> (u64, bool) {
    let r = solve_with(p, opts, &|| false).expect("solves");
    assert!(r.quiet_patterns_omitted, "the patterns are not spelled out at this size");
    let m = r.minimum.expect("solvable");
    let presses: Vec<u16> = m.presses.iter().map(|v| v as u16).collect();
    assert!(apply_presses(p, &presses).iter().all(|&v| v == 0), "the solution turns every light off");
    assert_eq!(m.cost, presses.iter().map(|&v| u64::from(v)).sum::<u64>());
    (m.cost, m.optimal)
}

#[test]
fn the_descent_improves_on_the_solution_found_and_never_worsens_it() {
    // 640×640 torus: 2^1024 solutions, far too many patterns to spell out.
    let p = torus(640);
    let found = cost(&p, SolveOptions { search_minimum: false, ..SolveOptions::default() });
    let searched = cost(&p, SolveOptions::default());
    let longer =
        cost(&p, SolveOptions { minimum_work: 4 * SolveOptions::default().minimum_work, ..SolveOptions::default() });
    assert!(searched.0 < found.0, "the descent found nothing better than {}", found.0);
    assert!(longer.0 <= searched.0, "a larger budget did worse: {} > {}", longer.0, searched.0);
    assert!(!searched.1 && !longer.1, "a descent proves nothing");
    // A budget too small for one chase leaves the solution as found.
    let none = cost(&p, SolveOptions { minimum_work: 1, ..SolveOptions::default() });
    assert_eq!(none.0, found.0);
}
