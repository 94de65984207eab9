//! Solving a puzzle: lower it, hand the system to the algebra crate, and map
//! the answer back to cells.

use lights_algebra::{minimum_weight, solve_cancellable, AlgebraError};
use num_bigint::BigUint;

use crate::fast::{self, Plan};
use crate::lower::{lower, LinearSystem};
use crate::model::Puzzle;

/// Everything known about one puzzle's solutions. Vectors are per cell,
/// row-major (locked cells are 0 in press vectors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub solvable: bool,
    /// The exact number of solutions (0 when unsolvable).
    pub solutions: BigUint,
    /// The solution with the fewest presses found, when solvable.
    pub minimum: Option<MinimumSolution>,
    /// When unsolvable: cell weights y with yᵀA ≡ 0 and y·(goal − lights) ≢ 0.
    pub certificate: Option<Vec<u32>>,
    /// Generators of the quiet patterns (press sets that change nothing);
    /// every quiet pattern is Σ cᵢ·gᵢ with 0 ≤ cᵢ < orderᵢ, in exactly one way.
    pub quiet_patterns: Vec<QuietPattern>,
    /// True when the board is so large that `quiet_patterns` were left out
    /// (`solutions` still counts them; the minimum is then not searched).
    pub quiet_patterns_omitted: bool,
    /// Number of unknowns (free cells).
    pub unknowns: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinimumSolution {
    pub presses: Vec<u32>,
    pub cost: u64,
    /// Whether `cost` is proven to be the least possible.
    pub optimal: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuietPattern {
    pub presses: Vec<u32>,
    pub order: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Beyond what the solver handles in reasonable time and memory.
    TooLarge {
        unknowns: usize,
        limit: usize,
    },
    Cancelled,
    /// A self-check of the algebra failed: a bug.
    Internal(String),
}

/// The largest number of unknowns the dense solver takes on, by modulus:
/// dense elimination costs about n³/64 word operations for W = 2 and n³
/// modular operations otherwise (see docs/PERFORMANCE.md).
pub fn unknowns_limit(states: u32) -> usize {
    if states == 2 {
        20_000
    } else {
        4_000
    }
}

/// What to compute besides solvability, the count and a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Search for the solution with the fewest presses (exact where the
    /// kernel allows, else a bounded heuristic). Without it, `minimum` holds
    /// the solution found, marked optimal only when it is the only one.
    pub search_minimum: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { search_minimum: true }
    }
}

/// Solve a puzzle exactly. `cancel` is polled during long work.
pub fn solve(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    solve_with(p, SolveOptions::default(), cancel)
}

/// [`solve`] with options: the polynomial method, symbolic light chasing or
/// dense elimination, whichever fits (see [`fast::plan`]).
pub fn solve_with(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    match fast::plan(p) {
        Plan::Polynomial => {
            if let Some(r) = fast::solve_polynomial(p, opts, cancel) {
                return r;
            }
        }
        Plan::Flip => {
            if let Some(r) = fast::flip::solve(p, opts, cancel) {
                return r;
            }
        }
        Plan::Chase => {
            if let Some(r) = fast::chase::solve(p, opts, cancel) {
                return r;
            }
        }
        Plan::Dense => {}
    }
    solve_dense(p, opts, cancel)
}

/// Dense elimination of the whole system (the reference path).
pub fn solve_dense(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    let unknowns = p.locked.iter().filter(|&&l| !l).count();
    let limit = unknowns_limit(p.states);
    if unknowns > limit {
        return Err(SolveError::TooLarge { unknowns, limit });
    }
    let system = lower(p);
    solve_system(p, &system, opts, cancel)
}

fn solve_system(
    p: &Puzzle,
    sys: &LinearSystem,
    opts: SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<Report, SolveError> {
    let map_err = |e: AlgebraError| match e {
        AlgebraError::Cancelled => SolveError::Cancelled,
        other => SolveError::Internal(other.to_string()),
    };
    let sol = solve_cancellable(&sys.matrix, &sys.rhs, sys.modulus, cancel).map_err(map_err)?;
    let to_cells = |x: &[u32]| -> Vec<u32> {
        let mut cells = vec![0u32; p.cells()];
        for (j, &cell) in sys.unknowns.iter().enumerate() {
            cells[cell] = x[j];
        }
        cells
    };
    let quiet_patterns =
        sol.kernel.generators.iter().map(|g| QuietPattern { presses: to_cells(&g.vector), order: g.order }).collect();
    let minimum = match &sol.particular {
        Some(x) if !opts.search_minimum => {
            let presses = to_cells(x);
            let cost = presses.iter().map(|&v| u64::from(v)).sum();
            Some(MinimumSolution { presses, cost, optimal: sol.kernel.is_trivial() })
        }
        Some(x) => {
            let m = minimum_weight(x, &sol.kernel, sys.modulus, cancel).map_err(map_err)?;
            Some(MinimumSolution { presses: to_cells(&m.x), cost: m.cost, optimal: m.optimal })
        }
        None => None,
    };
    Ok(Report {
        solvable: sol.consistent,
        solutions: sol.count(),
        minimum,
        certificate: sol.certificate.clone(),
        quiet_patterns,
        quiet_patterns_omitted: false,
        unknowns: sys.unknowns.len(),
    })
}
