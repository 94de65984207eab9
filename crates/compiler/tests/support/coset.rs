//! A W = 2 puzzle's solutions as the algebra's searches take them: one
//! solution and the quiet patterns, from the solve without a minimum search.

use lights_algebra::{Kernel, KernelGenerator};
use lights_compiler::model::Puzzle;
use lights_compiler::report::SolveOptions;
use lights_compiler::solve::solve_with;

/// A solution and the quiet patterns of `p`; `None` when it is not solvable.
pub(crate) fn coset(p: &Puzzle) -> Option<(Vec<u32>, Vec<Vec<u32>>)> {
    let quick =
        solve_with(p, SolveOptions { search_minimum: false, ..SolveOptions::default() }, &|| false).expect("solves");
    let x0 = quick.minimum?.presses.to_vec();
    Some((x0, quick.quiet_patterns.iter().map(|q| q.presses.to_vec()).collect()))
}

/// The quiet patterns as the algebra's kernel (every generator of order 2).
pub(crate) fn kernel(patterns: &[Vec<u32>]) -> Kernel {
    Kernel { generators: patterns.iter().map(|v| KernelGenerator { vector: v.clone(), order: 2 }).collect() }
}
