//! The editor features, each a plain function of a document snapshot (and
//! the solve results), so the server only has to route requests to them.

pub mod actions;
pub mod completion;
pub mod format;
pub mod hover;
pub mod lens;
pub mod outline;

use lights_compiler::sliding::{SlidingClaim, SlidingPuzzle};
use lights_compiler::sliding_check;
use lights_compiler::solve::SolveError;
use lights_compiler::summary;

use crate::convert::duration;
use crate::document::{PuzzleState, Snapshot};
use crate::engine::{Engine, Outcome};

/// The one-line status of block `i`: `✓ 4 solutions · minimum 15 presses`,
/// `✓ optimal 31 moves`, `✗ unsolvable`, `⋯ solving…`, `✗ 2 errors`.
pub fn status(doc: &Snapshot, i: usize, engine: &Engine) -> String {
    match doc.state(i, engine) {
        // A block without errors is solved; this is only for safety.
        PuzzleState::Errors(0) => "✓ well formed".to_string(),
        PuzzleState::Errors(1) => "✗ 1 error".to_string(),
        PuzzleState::Errors(n) => format!("✗ {n} errors"),
        PuzzleState::Solving => "⋯ solving…".to_string(),
        PuzzleState::Done(outcome) => match &*outcome {
            Outcome::Solved(r) if r.solvable => format!("✓ {}", summary::result(r)),
            Outcome::Solved(_) if doc.analysis.puzzles[i].model.as_ref().is_some_and(actions::expects_none) => {
                "✓ unsolvable, as expected".to_string()
            }
            Outcome::Solved(_) => "✗ unsolvable".to_string(),
            Outcome::SlidingSolved(r) if r.solvable => {
                let best = doc.sliding_report(i, engine).unwrap_or_else(|| r.clone());
                format!("✓ {}", sliding_check::summary(&best))
            }
            Outcome::SlidingSolved(_) if doc.analysis.puzzles[i].sliding.as_ref().is_some_and(expects_unreachable) => {
                "✓ unsolvable, as expected".to_string()
            }
            Outcome::SlidingSolved(_) => "✗ unsolvable".to_string(),
            Outcome::SlidingFailed(_) => "✗ solver error".to_string(),
            Outcome::Failed(SolveError::TooLarge { .. }) => "⚠ too large to verify".to_string(),
            Outcome::Failed(_) => "✗ solver error".to_string(),
            Outcome::TimedOut(budget) => format!("⏱ not solved within {}", duration(*budget)),
            Outcome::Crashed(_) => "✗ internal error".to_string(),
        },
    }
}

/// Whether a sliding block says its goal cannot be reached.
pub fn expects_unreachable(p: &SlidingPuzzle) -> bool {
    p.expects.iter().any(|e| e.claim == SlidingClaim::Unsolvable)
}
