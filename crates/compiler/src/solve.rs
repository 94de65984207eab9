//! Solving a puzzle: lower it, hand the system to the algebra crate, and map
//! the answer back to cells.

use lights_algebra::{solve_cancellable, AlgebraError, Kernel, KernelGenerator};

use crate::fast::{self, Plan};
use crate::lower::{lower_cancellable, LinearSystem};
use crate::model::{Presses, Puzzle, PER_CELL_LIMIT};
pub use crate::report::{unknowns_limit, MinimumSolution, QuietPattern, Report, SolveError, SolveOptions};

/// Solve a puzzle exactly. `cancel` is polled during long work.
pub fn solve(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    solve_with(p, SolveOptions::default(), cancel)
}

/// [`solve`] with options: the polynomial method, symbolic light chasing or
/// dense elimination, whichever fits (see [`fast::plan`]).
pub fn solve_with(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    // Boards whose lights repeat a small pattern leave some of the minimum
    // search to the repeating solutions (crate::lift::plan).
    let lifts = crate::lift::plan(p, if opts.search_minimum { opts.minimum_work } else { 0 });
    let main = SolveOptions { minimum_work: opts.minimum_work - lifts.from_search, ..opts };
    let mut report = solve_by_plan(p, main, cancel)?;
    if let Some(min) = &mut report.minimum {
        lift_if_cheaper(p, &lifts, min, cancel);
        min.optimal |= trivially_optimal(p, min.cost);
        // Lights away from the goal need a press at least.
        let floor = u64::from(!p.lights.same_values(&p.goal));
        min.lower_bound = if min.optimal { min.cost } else { min.lower_bound.max(floor) };
    }
    Ok(report)
}

/// A solution that repeats a small pattern ([`crate::lift`]) in place of
/// the one found, when it is cheaper.
fn lift_if_cheaper(p: &Puzzle, lifts: &crate::lift::Plan, min: &mut MinimumSolution, cancel: &dyn Fn() -> bool) {
    if min.optimal || lifts.work == 0 {
        return;
    }
    if let Some(presses) = crate::lift::cheaper_lift(p, min.cost, lifts, cancel) {
        min.cost = presses.sum();
        min.presses = presses;
        min.optimal = min.cost == min.lower_bound;
    }
}

/// Minimums no search is needed to prove: no press is never beaten, and
/// one press is the fewest whenever the lights start away from the goal
/// (no press at all leaves them there).
fn trivially_optimal(p: &Puzzle, cost: u64) -> bool {
    cost == 0 || (cost == 1 && !p.lights.same_values(&p.goal))
}

fn solve_by_plan(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    let plan = fast::plan(p);
    if plan != Plan::Polynomial && p.cells() > PER_CELL_LIMIT {
        return Err(SolveError::BoardTooLarge { cells: p.cells(), limit: PER_CELL_LIMIT });
    }
    // Nothing to press: answered from the lights and the goal alone.
    if let Some(report) = crate::buttonless::answer(p) {
        return Ok(report);
    }
    match plan {
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
    let unknowns = p.free_cells();
    let limit = unknowns_limit(p.states);
    if unknowns > limit {
        return Err(SolveError::TooLarge { unknowns, limit });
    }
    let system = lower_cancellable(p, cancel).ok_or(SolveError::Cancelled)?;
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
        AlgebraError::OutOfMemory { bytes } => SolveError::OutOfMemory { bytes },
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
    let quiet_patterns = sol
        .kernel
        .generators
        .iter()
        .map(|g| QuietPattern { presses: Presses::from_values(&to_cells(&g.vector), p.states), order: g.order })
        .collect();
    let minimum = match &sol.particular {
        Some(x) if !opts.search_minimum => {
            Some(MinimumSolution::new(Presses::from_values(&to_cells(x), p.states), sol.kernel.is_trivial()))
        }
        Some(x) => {
            let kernel = Kernel {
                generators: sol
                    .kernel
                    .generators
                    .iter()
                    .map(|g| KernelGenerator { vector: to_cells(&g.vector), order: g.order })
                    .collect(),
            };
            let m = crate::minimum::search(p, &to_cells(x), &kernel, opts.minimum_work, cancel).map_err(map_err)?;
            Some(MinimumSolution {
                presses: Presses::from_values(&m.x, p.states),
                cost: m.cost,
                optimal: m.optimal,
                lower_bound: m.lower_bound,
            })
        }
        None => None,
    };
    Ok(Report {
        solvable: sol.consistent,
        solutions: sol.count(),
        minimum,
        certificate: sol.certificate.as_deref().map(|y| Presses::from_values(y, p.states)),
        quiet_patterns,
        quiet_patterns_omitted: false,
        unknowns: sys.unknowns.len(),
    })
}
