//! Fast paths of the solver for large boards (docs/PERFORMANCE.md):
//!
//! * [`poly`] — the polynomial method: cross rule, W = 2, plane or cylinder,
//!   no locked cells. Milliseconds at 10,000×10,000.
//! * [`flip`] — the `flip` rule through row and column totals (m + n
//!   unknowns) on untwisted surfaces without locks.
//! * [`chase`] — symbolic light chasing: any rule, topology and W, where the
//!   chase leaves few unknowns; the small leftover system goes to the algebra
//!   crate.
//!
//! [`solve`](crate::solve::solve) asks [`plan`] which path fits a puzzle and
//! falls back to dense elimination of the whole system otherwise. Each path
//! returns the same [`Report`] as the dense one; property tests compare them
//! on every tiny board.

pub mod bits;
pub mod chase;
pub mod flip;
pub mod poly;

use num_bigint::BigUint;

use crate::lower::apply_presses;
use crate::model::{Puzzle, Rule, Topology};
use crate::report::{MinimumSolution, QuietPattern, Report, SolveError, SolveOptions};
use bits::{BitGrid, RowShape};
use lights_algebra::{minimum_weight, Kernel, KernelGenerator};

/// Why a fast path stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FastError {
    Cancelled,
    /// A self-check failed: a bug.
    Internal(String),
}

impl From<lights_algebra::AlgebraError> for FastError {
    fn from(e: lights_algebra::AlgebraError) -> Self {
        match e {
            lights_algebra::AlgebraError::Cancelled => FastError::Cancelled,
            other => FastError::Internal(other.to_string()),
        }
    }
}

impl From<FastError> for SolveError {
    fn from(e: FastError) -> Self {
        match e {
            FastError::Cancelled => SolveError::Cancelled,
            FastError::Internal(m) => SolveError::Internal(m),
        }
    }
}

/// Quiet patterns (and the exact minimum search over them) are spelled out
/// cell by cell only while `cells × (patterns + 1)` stays below this; beyond
/// it the report keeps the count and a solution, and says the rest was left out.
pub const MATERIALIZE_LIMIT: usize = 1 << 25;

/// Boards up to this many cells get their solution re-checked by applying the
/// presses, independently of the path that found it.
const RECHECK_CELLS: usize = 1 << 22;

/// Which path solves a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    Polynomial,
    Flip,
    Chase,
    Dense,
}

/// Below this many cells dense elimination is as fast as anything, and it is
/// the reference path: small boards keep its answers (and its choice among
/// equally short solutions).
pub const SMALL_BOARD: usize = 256;

/// Picks the solving path for a puzzle.
pub fn plan(p: &Puzzle) -> Plan {
    if p.cells() < SMALL_BOARD {
        Plan::Dense
    } else if poly_board(p).is_some() {
        Plan::Polynomial
    } else if flip::applies(p) {
        Plan::Flip
    } else if chase::worthwhile(p) {
        Plan::Chase
    } else {
        Plan::Dense
    }
}

/// The polynomial method's view of a puzzle, when it applies: the board, and
/// whether it is transposed (the plane is chased along its longer side).
fn poly_board(p: &Puzzle) -> Option<(poly::CrossBoard, bool)> {
    if p.states != 2 || p.rule != Rule::Cross || p.locked.iter().any(|&l| l) {
        return None;
    }
    match p.topology {
        Topology::Plane if p.rows >= p.cols => {
            Some((poly::CrossBoard { height: p.rows, width: p.cols, shape: RowShape::Path }, false))
        }
        Topology::Plane => Some((poly::CrossBoard { height: p.cols, width: p.rows, shape: RowShape::Path }, true)),
        Topology::Cylinder if p.cols >= 3 => {
            Some((poly::CrossBoard { height: p.rows, width: p.cols, shape: RowShape::Cycle }, false))
        }
        _ => None,
    }
}

/// Solves with the polynomial method; `None` when it does not apply.
pub fn solve_polynomial(
    p: &Puzzle,
    opts: SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Option<Result<Report, SolveError>> {
    let (board, transposed) = poly_board(p)?;
    Some(solve_polynomial_on(p, board, transposed, opts, cancel).map_err(SolveError::from))
}

fn solve_polynomial_on(
    p: &Puzzle,
    board: poly::CrossBoard,
    transposed: bool,
    opts: SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<Report, FastError> {
    let need: Vec<bool> = p.goal.values.iter().zip(&p.lights.values).map(|(&g, &l)| (g ^ l) & 1 == 1).collect();
    let uniform = need.iter().all(|&v| v == need[0]);
    let grid;
    let rhs = if uniform {
        poly::Rhs::Uniform(need[0])
    } else {
        let mut g = BitGrid::zeros(p.rows, p.cols);
        for (i, _) in need.iter().enumerate().filter(|(_, &v)| v) {
            g.set(i / p.cols, i % p.cols, true);
        }
        grid = if transposed { g.transposed() } else { g };
        poly::Rhs::Grid(&grid)
    };
    let answer = poly::solve(&board, &rhs, cancel)?;
    // Back to the puzzle's orientation, one value per cell.
    let to_cells = |g: &BitGrid| -> Vec<u32> {
        let g = if transposed { g.transposed() } else { g.clone() };
        (0..p.cells()).map(|i| u32::from(g.get(i / p.cols, i % p.cols))).collect()
    };
    let zero = poly::Rhs::Uniform(false);
    let chase_quiet = |first: &[u64]| -> Result<Vec<u32>, FastError> {
        let mut g = BitGrid::zeros(board.height, board.width);
        let past = poly::chase(&board, first, &zero, false, Some(&mut g), cancel)?;
        if past.iter().any(|&w| w != 0) {
            return Err(FastError::Internal("a quiet pattern of the polynomial method changes lights".into()));
        }
        Ok(to_cells(&g))
    };
    let cells = p.cells();
    let materialize = cells.saturating_mul(answer.nullity + 1) <= MATERIALIZE_LIMIT;
    let quiet_patterns = if materialize {
        answer
            .quiet_first_rows
            .iter()
            .map(|first| Ok(QuietPattern { presses: chase_quiet(first)?, order: 2 }))
            .collect::<Result<Vec<_>, FastError>>()?
    } else {
        Vec::new()
    };
    let certificate = match &answer.certificate_first_row {
        Some(first) => Some(chase_quiet(first)?),
        None => None,
    };
    let minimum = match &answer.solution {
        Some(grid) => Some(minimum_of(
            p,
            to_cells(grid),
            &quiet_patterns,
            materialize && opts.search_minimum,
            answer.nullity == 0,
            cancel,
        )?),
        None => None,
    };
    let report = Report {
        solvable: answer.solvable,
        solutions: if answer.solvable { BigUint::from(2u32).pow(answer.nullity as u32) } else { BigUint::from(0u32) },
        minimum,
        certificate,
        quiet_patterns,
        quiet_patterns_omitted: !materialize,
        unknowns: cells,
    };
    recheck(p, &report)?;
    Ok(report)
}

/// The fewest presses over `solution + quiet patterns` (exact where the
/// algebra crate can prove it), or `solution` itself when no search is
/// wanted or the quiet patterns were not spelled out (`unique`: it is the
/// only solution).
pub(crate) fn minimum_of(
    p: &Puzzle,
    solution: Vec<u32>,
    quiet: &[QuietPattern],
    search: bool,
    unique: bool,
    cancel: &dyn Fn() -> bool,
) -> Result<MinimumSolution, FastError> {
    if !search {
        let cost = solution.iter().map(|&v| u64::from(v)).sum();
        return Ok(MinimumSolution { presses: solution, cost, optimal: unique });
    }
    let kernel = Kernel {
        generators: quiet.iter().map(|q| KernelGenerator { vector: q.presses.clone(), order: q.order }).collect(),
    };
    let m = minimum_weight(&solution, &kernel, p.states, cancel)?;
    Ok(MinimumSolution { presses: m.x, cost: m.cost, optimal: m.optimal })
}

/// Independent check of a fast path's answer on boards small enough: the
/// minimum solution solves the puzzle and leaves locked cells alone, quiet
/// patterns change nothing, the certificate meets the right-hand side.
pub(crate) fn recheck(p: &Puzzle, r: &Report) -> Result<(), FastError> {
    if p.cells() > RECHECK_CELLS {
        return Ok(());
    }
    let to_u16 = |v: &[u32]| v.iter().map(|&x| x as u16).collect::<Vec<u16>>();
    if let Some(m) = &r.minimum {
        let after = apply_presses(p, &to_u16(&m.presses));
        let solved = after.iter().zip(&p.goal.values).all(|(&a, &g)| a == u32::from(g));
        let locked_ok = m.presses.iter().zip(&p.locked).all(|(&x, &l)| !l || x == 0);
        if !solved || !locked_ok {
            return Err(FastError::Internal("a fast path's solution does not solve the puzzle".into()));
        }
    }
    if !quiet_patterns_hold(p, &r.quiet_patterns) {
        return Err(FastError::Internal("a fast path's quiet pattern changes the board".into()));
    }
    if let Some(y) = &r.certificate {
        if !certificate_holds(p, y) {
            return Err(FastError::Internal("a fast path's certificate does not hold".into()));
        }
    }
    Ok(())
}

/// Every pattern leaves locked cells alone and changes nothing: over GF(2),
/// 64 patterns per pass (one bit lane each).
fn quiet_patterns_hold(p: &Puzzle, quiet: &[QuietPattern]) -> bool {
    let locked_ok = |q: &QuietPattern| q.presses.iter().zip(&p.locked).all(|(&x, &l)| !l || x == 0);
    if !quiet.iter().all(locked_ok) {
        return false;
    }
    let mut pattern = Vec::new();
    if p.states == 2 {
        for chunk in quiet.chunks(64) {
            let mut board = vec![0u64; p.cells()];
            for cell in 0..p.cells() {
                let lanes =
                    chunk.iter().enumerate().fold(0u64, |acc, (i, q)| acc | u64::from(q.presses[cell] & 1) << i);
                if lanes == 0 {
                    continue;
                }
                crate::lower::press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
                for &(t, wt) in &pattern {
                    if wt & 1 == 1 {
                        board[t] ^= lanes;
                    }
                }
            }
            if board.iter().any(|&b| b != 0) {
                return false;
            }
        }
        return true;
    }
    let zero = crate::model::Board { values: vec![0; p.cells()], cell_spans: None.into() };
    let quiet_puzzle = Puzzle { lights: zero.clone(), goal: zero, ..p.clone() };
    quiet.iter().all(|q| {
        let presses: Vec<u16> = q.presses.iter().map(|&x| x as u16).collect();
        apply_presses(&quiet_puzzle, &presses).iter().all(|&v| v == 0)
    })
}

/// `yᵀA ≡ 0` over the free cells and `y·(goal − lights) ≢ 0`.
pub(crate) fn certificate_holds(p: &Puzzle, y: &[u32]) -> bool {
    let w = u64::from(p.states);
    let mut pattern = Vec::new();
    for cell in (0..p.cells()).filter(|&c| !p.locked[c]) {
        pattern.clear();
        pattern.extend(crate::lower::press_pattern(p, cell / p.cols, cell % p.cols));
        let s = pattern.iter().fold(0u64, |acc, &(t, wt)| (acc + u64::from(y[t]) * u64::from(wt)) % w);
        if s != 0 {
            return false;
        }
    }
    let yb = (0..p.cells()).fold(0u64, |acc, i| {
        let need = (u64::from(p.goal.values[i]) + w - u64::from(p.lights.values[i])) % w;
        (acc + u64::from(y[i]) * need) % w
    });
    yb != 0
}
