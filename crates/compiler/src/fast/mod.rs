//! Fast paths of the solver for large boards (docs/PERFORMANCE.md):
//!
//! * [`poly`] — the polynomial method: cross rule, W = 2, plane or cylinder,
//!   no locked cells. Milliseconds at 10,000×10,000. [`torus`] is the same
//!   method on the torus (a 2×2 system over GF(2)[z]/(zⁿ+1)).
//! * [`flip`] — the `flip` rule through row and column totals (m + n
//!   unknowns) on every surface without locks (on twisted ones, through the
//!   blocks of mirrored rows and columns).
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
mod descent;
pub mod flip;
pub mod poly;
mod prime_poly;
mod prime_torus;
pub mod torus;

use num_bigint::BigUint;

use crate::lower::apply_presses;
use crate::model::{Puzzle, Rule, Topology};
use crate::report::{MinimumSolution, Presses, QuietPattern, Report, SolveError, SolveOptions};
use bits::{BitGrid, RowShape};
use lights_algebra::{Kernel, KernelGenerator};

/// Why a fast path stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FastError {
    Cancelled,
    /// A board-sized buffer could not be allocated.
    OutOfMemory {
        bytes: usize,
    },
    /// A self-check failed: a bug.
    Internal(String),
}

impl From<lights_algebra::AlgebraError> for FastError {
    fn from(e: lights_algebra::AlgebraError) -> Self {
        match e {
            lights_algebra::AlgebraError::Cancelled => FastError::Cancelled,
            lights_algebra::AlgebraError::OutOfMemory { bytes } => FastError::OutOfMemory { bytes },
            other => FastError::Internal(other.to_string()),
        }
    }
}

/// `vec![value; len]` when memory allows: board-sized buffers of the fast
/// paths (10⁸ cells and more) are an `OutOfMemory` answer when they do not
/// fit, not an abort (issue 25).
pub(crate) fn try_vec<T: Clone>(len: usize, value: T) -> Result<Vec<T>, FastError> {
    let mut v = try_with_capacity(len)?;
    v.resize(len, value);
    Ok(v)
}

/// An empty `Vec` with room for `len` items, when memory allows (see
/// [`try_vec`]).
pub(crate) fn try_with_capacity<T>(len: usize) -> Result<Vec<T>, FastError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| FastError::OutOfMemory { bytes: len.saturating_mul(std::mem::size_of::<T>()) })?;
    Ok(v)
}

impl From<FastError> for SolveError {
    fn from(e: FastError) -> Self {
        match e {
            FastError::Cancelled => SolveError::Cancelled,
            FastError::OutOfMemory { bytes } => SolveError::OutOfMemory { bytes },
            FastError::Internal(m) => SolveError::Internal(m),
        }
    }
}

/// Quiet patterns (and the exact minimum search over them) are spelled out
/// cell by cell only while `cells × (patterns + 1)` stays below this; beyond
/// it the report keeps the count and a solution, and says the rest was left out.
pub const MATERIALIZE_LIMIT: usize = 1 << 25;

/// Boards up to this many cells (of the cross rule; fewer when presses
/// change more cells) get their solution re-checked by applying the
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

/// The polynomial method's view of a puzzle, when it applies: the board
/// (rows as paths or cycles, or the torus), and whether it is transposed
/// (the plane is chased along its longer side, the torus across its
/// narrower one).
#[derive(Clone, Copy, Debug)]
enum PolyBoard {
    Rows(poly::CrossBoard),
    Torus { height: usize, width: usize },
}

fn poly_board(p: &Puzzle) -> Option<(PolyBoard, bool)> {
    if p.states != 2 || p.rule != Rule::Cross || p.any_locked() || !p.is_plain_grid() {
        return None;
    }
    let rows = |height, width, shape| PolyBoard::Rows(poly::CrossBoard { height, width, shape });
    match p.topology {
        Topology::Plane if p.rows >= p.cols => Some((rows(p.rows, p.cols, RowShape::Path), false)),
        Topology::Plane => Some((rows(p.cols, p.rows, RowShape::Path), true)),
        Topology::Cylinder if p.cols >= 3 => Some((rows(p.rows, p.cols, RowShape::Cycle), false)),
        Topology::Torus if p.rows >= 3 && p.cols >= 3 => Some(if p.cols <= p.rows {
            (PolyBoard::Torus { height: p.rows, width: p.cols }, false)
        } else {
            (PolyBoard::Torus { height: p.cols, width: p.rows }, true)
        }),
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

/// What a bit-grid method found, in its own orientation.
struct GridAnswer<'a> {
    solvable: bool,
    nullity: usize,
    solution: Option<BitGrid>,
    certificate: Option<BitGrid>,
    /// Spells out quiet pattern `k` (checking that it is quiet).
    quiet: Box<dyn Fn(usize) -> Result<BitGrid, FastError> + 'a>,
}

impl<'a> GridAnswer<'a> {
    /// The answer of a method that finds seeds (first rows, torus seeds)
    /// and `spell`s them out into a grid of presses, saying whether the
    /// grid leaves the lights as they were: the certificate is spelled out
    /// now, quiet pattern `k` when asked for.
    fn from_seeds<S: 'a>(
        method: &'static str,
        (solvable, nullity, solution): (bool, usize, Option<BitGrid>),
        certificate: Option<S>,
        quiet: Vec<S>,
        spell: impl Fn(&S) -> Result<(BitGrid, bool), FastError> + 'a,
    ) -> Result<Self, FastError> {
        let certificate = match &certificate {
            Some(seed) => Some(spell(seed)?.0),
            None => None,
        };
        Ok(GridAnswer {
            solvable,
            nullity,
            solution,
            certificate,
            quiet: Box::new(move |k| match spell(&quiet[k])? {
                (g, true) => Ok(g),
                _ => Err(FastError::Internal(format!("a quiet pattern of the {method} method changes lights"))),
            }),
        })
    }
}

fn solve_polynomial_on(
    p: &Puzzle,
    board: PolyBoard,
    transposed: bool,
    opts: SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<Report, FastError> {
    let grid;
    let rhs = match need_bits(p)? {
        NeedBits::Uniform(v) => poly::Rhs::Uniform(v),
        NeedBits::Grid(g) => {
            grid = if transposed { bits::transposed(&g)? } else { g };
            poly::Rhs::Grid(&grid)
        }
    };
    let zero = poly::Rhs::Uniform(false);
    let answer = match board {
        PolyBoard::Rows(board) => {
            let a = poly::solve(&board, &rhs, cancel)?;
            let chase_zero = move |first: &Vec<u64>| -> Result<(BitGrid, bool), FastError> {
                let mut g = bits::try_grid(board.height, board.width)?;
                let past = poly::chase(&board, first, &zero, false, Some(&mut g), cancel)?;
                Ok((g, past.iter().all(|&w| w == 0)))
            };
            let found = (a.solvable, a.nullity, a.solution);
            GridAnswer::from_seeds("polynomial", found, a.certificate_first_row, a.quiet_first_rows, chase_zero)?
        }
        PolyBoard::Torus { height, width } => {
            let a = torus::solve(height, width, &rhs, cancel)?;
            let expand_zero = move |seed: &torus::Seed| -> Result<(BitGrid, bool), FastError> {
                let mut g = bits::try_grid(height, width)?;
                let closes = torus::expand(height, width, seed, &zero, &mut g, cancel)?;
                Ok((g, closes))
            };
            let found = (a.solvable, a.nullity, a.solution);
            GridAnswer::from_seeds("torus", found, a.certificate_seed, a.quiet_seeds, expand_zero)?
        }
    };
    report_from_grids(p, transposed, answer, opts, cancel)
}

/// The report of a bit-grid method: packed solution and certificate,
/// quiet patterns spelled out (and the minimum searched) on boards small
/// enough.
fn report_from_grids(
    p: &Puzzle,
    transposed: bool,
    mut answer: GridAnswer<'_>,
    opts: SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<Report, FastError> {
    // Back to the puzzle's orientation, packed.
    let to_presses = |g: &BitGrid| -> Result<Presses, FastError> {
        Ok(if transposed {
            let t = bits::transposed(g)?;
            Presses::from_bit_rows(p.rows, p.cols, |r| t.row(r))
        } else {
            Presses::from_bit_rows(p.rows, p.cols, |r| g.row(r))
        })
    };
    let cells = p.cells();
    let materialize = cells.saturating_mul(answer.nullity + 1) <= MATERIALIZE_LIMIT;
    let quiet_patterns = if materialize {
        (0..answer.nullity)
            .map(|k| Ok(QuietPattern { presses: to_presses(&(answer.quiet)(k)?)?, order: 2 }))
            .collect::<Result<Vec<_>, FastError>>()?
    } else {
        Vec::new()
    };
    let certificate = answer.certificate.as_ref().map(to_presses).transpose()?;
    // The solution grid's buffer becomes the packed solution (no second
    // board-sized buffer; the transposed grid replaces the original).
    let into_presses = |g: BitGrid| -> Result<Presses, FastError> {
        let g = if transposed { bits::transposed(&g)? } else { g };
        Ok(Presses::from_padded_bits(g.data, g.rows, g.cols, g.words_per_row))
    };
    let minimum = match answer.solution.take() {
        // Too many patterns to spell out for the algebra: a descent over the
        // chase's leftover kernel, chasing each pattern as it is tried.
        Some(grid) if !materialize && opts.search_minimum && answer.nullity > 0 => {
            let x = descent::descend(grid, answer.nullity, &answer.quiet, opts.minimum_work, cancel)?;
            Some(MinimumSolution::new(into_presses(x)?, false))
        }
        Some(grid) => Some(minimum_of(
            p,
            into_presses(grid)?,
            &quiet_patterns,
            (materialize && opts.search_minimum).then_some(opts.minimum_work),
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
/// wanted (`search` is `None`; otherwise the work units it may use) or the
/// quiet patterns were not spelled out (`unique`: it is the only solution).
pub(crate) fn minimum_of(
    p: &Puzzle,
    solution: Presses,
    quiet: &[QuietPattern],
    search: Option<u64>,
    unique: bool,
    cancel: &dyn Fn() -> bool,
) -> Result<MinimumSolution, FastError> {
    let Some(work) = search else {
        return Ok(MinimumSolution::new(solution, unique));
    };
    if quiet.is_empty() {
        // Spelled out and none: the only solution, and nothing to unpack.
        return Ok(MinimumSolution::new(solution, true));
    }
    let kernel = Kernel {
        generators: quiet.iter().map(|q| KernelGenerator { vector: q.presses.to_vec(), order: q.order }).collect(),
    };
    let m = crate::minimum::search(p, &solution.to_vec(), &kernel, work, cancel)?;
    Ok(MinimumSolution {
        presses: Presses::from_values(&m.x, p.states),
        cost: m.cost,
        optimal: m.optimal,
        lower_bound: m.lower_bound,
    })
}

/// The parity of `goal − lights` per cell (W = 2), read from the written
/// boards: one bit when both are uniform, else a bit grid.
enum NeedBits {
    Uniform(bool),
    Grid(BitGrid),
}

fn need_bits(p: &Puzzle) -> Result<NeedBits, FastError> {
    let base = (p.goal.base() ^ p.lights.base()) & 1 == 1;
    let (goal_base, lights_base) = (p.goal.base(), p.lights.base());
    let mut exceptions = p
        .goal
        .exceptions()
        .filter(move |&(_, v)| (v ^ goal_base) & 1 == 1)
        .chain(p.lights.exceptions().filter(move |&(_, v)| (v ^ lights_base) & 1 == 1))
        .peekable();
    if exceptions.peek().is_none() {
        return Ok(NeedBits::Uniform(base));
    }
    let mut g = bits::try_grid(p.rows, p.cols)?;
    if base {
        for r in 0..p.rows {
            g.row_mut(r).fill(u64::MAX);
            bits::mask_row(g.row_mut(r), p.cols);
        }
    }
    for (i, _) in exceptions {
        let (r, c) = (i / p.cols, i % p.cols);
        bits::flip(g.row_mut(r), c);
    }
    Ok(NeedBits::Grid(g))
}

/// Independent check of a fast path's answer on boards small enough: the
/// minimum solution solves the puzzle and leaves locked cells alone, quiet
/// patterns change nothing, the certificate meets the right-hand side.
pub(crate) fn recheck(p: &Puzzle, r: &Report) -> Result<(), FastError> {
    // Replaying costs a press pattern per cell: bounded by work, so a rule
    // whose presses change whole lines (`flip`) is re-checked on boards as
    // large as the time it takes allows.
    let pattern = crate::lower::press_pattern(p, p.rows / 2, p.cols / 2).len().max(1);
    if p.cells().saturating_mul(pattern) > RECHECK_CELLS * 5 {
        return Ok(());
    }
    if let Some(m) = &r.minimum {
        let presses: Vec<u16> = m.presses.iter().map(|x| x as u16).collect();
        let after = apply_presses(p, &presses);
        let solved = after.iter().zip(p.goal.iter()).all(|(&a, g)| a == u32::from(g));
        let locked_ok = m.presses.iter().enumerate().all(|(i, x)| x == 0 || !p.is_locked(i));
        if !solved || !locked_ok {
            return Err(FastError::Internal("a fast path's solution does not solve the puzzle".into()));
        }
    }
    // The quiet patterns too, while replaying them stays within the work of
    // replaying a board (64 patterns per pass over GF(2), one by one
    // otherwise); beyond, they rest on the algebra's own check of the kernel
    // and on the property tests against dense elimination.
    let lanes = if p.states == 2 { r.quiet_patterns.len().div_ceil(64) } else { r.quiet_patterns.len() };
    if p.cells().saturating_mul(pattern).saturating_mul(lanes) <= RECHECK_CELLS
        && !quiet_patterns_hold(p, &r.quiet_patterns)
    {
        return Err(FastError::Internal("a fast path's quiet pattern changes the board".into()));
    }
    if let Some(y) = &r.certificate {
        if !certificate_holds(p, &y.to_vec()) {
            return Err(FastError::Internal("a fast path's certificate does not hold".into()));
        }
    }
    Ok(())
}

/// Every pattern leaves locked cells alone and changes nothing: over GF(2),
/// 64 patterns per pass (one bit lane each).
fn quiet_patterns_hold(p: &Puzzle, quiet: &[QuietPattern]) -> bool {
    let locked_ok = |q: &QuietPattern| q.presses.nonzero().all(|(i, _)| !p.is_locked(i));
    if !quiet.iter().all(locked_ok) {
        return false;
    }
    let mut pattern = Vec::new();
    if p.states == 2 {
        for chunk in quiet.chunks(64) {
            let mut board = vec![0u64; p.cells()];
            for cell in 0..p.cells() {
                let lanes =
                    chunk.iter().enumerate().fold(0u64, |acc, (i, q)| acc | u64::from(q.presses.get(cell) & 1) << i);
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
    // Over Z/W, up to 64 patterns side by side: each press pattern is
    // computed once per cell (the board is cell-major).
    let w = u64::from(p.states);
    for chunk in quiet.chunks(64) {
        let g = chunk.len();
        let mut board = vec![0u64; p.cells() * g];
        let mut counts = vec![0u64; g];
        for cell in 0..p.cells() {
            for (c, q) in counts.iter_mut().zip(chunk) {
                *c = u64::from(q.presses.get(cell));
            }
            if counts.iter().all(|&c| c == 0) {
                continue;
            }
            crate::lower::press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
            for &(t, wt) in &pattern {
                let wt = u64::from(wt);
                // Reduced at the end: a cell gets at most a few terms per
                // pressed neighbour, each below 2^32.
                for (b, &c) in board[t * g..(t + 1) * g].iter_mut().zip(&counts) {
                    *b += wt * c;
                }
            }
        }
        let modulus = FastModulus::new(w);
        if board.iter().any(|&b| modulus.reduce(b) != 0) {
            return false;
        }
    }
    true
}

/// `yᵀA ≡ 0` over the free cells and `y·(goal − lights) ≢ 0`.
pub(crate) fn certificate_holds(p: &Puzzle, y: &[u32]) -> bool {
    let w = u64::from(p.states);
    let mut pattern = Vec::new();
    for cell in (0..p.cells()).filter(|&c| !p.is_locked(c)) {
        pattern.clear();
        pattern.extend(crate::lower::press_pattern(p, cell / p.cols, cell % p.cols));
        let s = pattern.iter().fold(0u64, |acc, &(t, wt)| (acc + u64::from(y[t]) * u64::from(wt)) % w);
        if s != 0 {
            return false;
        }
    }
    let yb = (0..p.cells()).fold(0u64, |acc, i| (acc + u64::from(y[i]) * u64::from(p.need(i))) % w);
    yb != 0
}

/// `s mod w` by a multiplication (Barrett reduction) instead of a division:
/// the numeric chase and the re-check of many patterns reduce once per
/// pattern and cell.
pub(crate) struct FastModulus {
    w: u64,
    m: u64,
}

impl FastModulus {
    pub(crate) fn new(w: u64) -> FastModulus {
        FastModulus { w, m: u64::MAX / w }
    }

    pub(crate) fn reduce(&self, s: u64) -> u64 {
        let q = ((u128::from(s) * u128::from(self.m)) >> 64) as u64;
        let mut r = s - q * self.w;
        while r >= self.w {
            r -= self.w;
        }
        r
    }
}
