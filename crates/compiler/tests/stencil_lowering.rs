//! Issue 25 items 7 and 8 (lowering side): a stencil's press pattern costs
//! work linear in the stencil (it once sorted the offsets on every press
//! and scanned the pattern for every entry: a 99×99 stencil on 300×300 ran
//! for minutes), and a stop flag stops the pattern building of every path.

use std::cell::Cell;
use std::time::Instant;

use lights_compiler::lower::press_pattern;
use lights_compiler::model::{Board, Puzzle, Rule, Stencil, Topology};
use lights_compiler::solve::{solve, solve_dense, SolveOptions};
use lights_compiler::SolveError;

fn stencil(k: usize) -> Rule {
    Rule::Stencil(Stencil { rows: k, cols: k, weights: vec![1; k * k] })
}

fn board(side: usize, k: usize, topology: Topology) -> Puzzle {
    let mut p = Puzzle::new(side, side, 2, stencil(k), topology);
    p.lights = Board::sparse(side * side, vec![(0, 1)]);
    p
}

/// The fastest of three runs of every press pattern of `p`, in seconds, and
/// the entries built (a check that the work is what it should be).
fn all_patterns(p: &Puzzle) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut entries = 0;
    for _ in 0..3 {
        let start = Instant::now();
        entries = 0;
        for cell in 0..p.cells() {
            entries += press_pattern(p, cell / p.cols, cell % p.cols).len();
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best, entries)
}

/// A stencil 149× the entries costs about 149× per press, not 149²×: the
/// time per entry compared as a ratio with a wide margin, on a torus
/// smaller than twice the stencil, where every press wraps and needs the
/// each-cell-once check. The quadratic scan gave 6.3× per entry from 7×7 to
/// 31×31; fitted as a + b·entries (a ≈ 123 b), that is about 26× from 5×5
/// to 61×61, while linear work stays near 1× (2× measured, up to 6× on a
/// loaded machine): 12× separates the two.
#[test]
fn stencil_patterns_grow_linearly_with_the_stencil() {
    let small = board(64, 5, Topology::Torus);
    let large = board(64, 61, Topology::Torus);
    let (t_small, e_small) = all_patterns(&small);
    let (t_large, e_large) = all_patterns(&large);
    assert_eq!(e_small, 4096 * 25);
    assert_eq!(e_large, 4096 * 3721);
    let per_entry = (t_large / e_large as f64) / (t_small / e_small as f64);
    eprintln!("time per entry: {per_entry:.2}× ({t_small:.4} s, {t_large:.4} s)");
    assert!(per_entry < 12.0, "time per entry grew {per_entry:.2}× from a 5×5 to a 61×61 stencil");
}

/// Wrapping keeps each cell once, nearest the centre first: on a 1×2 torus
/// a 1×3 stencil's right entry lands on the cell the left one took.
#[test]
fn a_wrapped_stencil_changes_each_cell_once() {
    let mut p =
        Puzzle::new(1, 2, 4, Rule::Stencil(Stencil { rows: 1, cols: 3, weights: vec![1, 2, 3] }), Topology::Torus);
    p.lights = Board::zeros(2);
    assert_eq!(press_pattern(&p, 0, 0), vec![(0, 2), (1, 1)]);
    // The same stencil again on another board: the cached offsets are per stencil.
    let mut q =
        Puzzle::new(3, 3, 4, Rule::Stencil(Stencil { rows: 1, cols: 3, weights: vec![3, 2, 1] }), Topology::Torus);
    q.lights = Board::zeros(9);
    assert_eq!(press_pattern(&q, 1, 1), vec![(4, 2), (3, 3), (5, 1)]);
}

/// A stop flag set before solving: the 99×99 stencil on 300×300 (the issue's
/// case, 882 million pattern entries) returns `Cancelled` after a handful of
/// polls, on the planned path and on dense elimination alike.
#[test]
fn a_stop_flag_stops_the_99_stencil_before_any_pattern() {
    let p = board(300, 99, Topology::Plane);
    let polls = Cell::new(0u32);
    let stop = || {
        polls.set(polls.get() + 1);
        true
    };
    assert!(matches!(solve(&p, &stop), Err(SolveError::Cancelled)));
    assert!(polls.get() <= 4, "polled {} times", polls.get());
    // Dense elimination stops in lowering, at the first poll: 110×110 is
    // 12,100 unknowns, below its limit, so it gets that far.
    let small = board(110, 99, Topology::Plane);
    polls.set(0);
    let r = solve_dense(&small, SolveOptions::default(), &stop);
    assert!(matches!(r, Err(SolveError::Cancelled)), "{r:?}");
    assert_eq!(polls.get(), 1);
}
