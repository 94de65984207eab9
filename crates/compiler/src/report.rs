//! What solving a puzzle yields — the [`Report`] of a Lights Out puzzle, the
//! options and the errors of a solve — shared by [`solve`](crate::solve) and
//! the fast paths ([`fast`](crate::fast)), which both produce them.

use num_bigint::BigUint;

pub use crate::board::Presses;

/// Everything known about one puzzle's solutions. Vectors are per cell,
/// row-major (locked cells are 0 in press vectors); the minimum and the
/// certificate are packed ([`Presses`]), since they are board-sized however
/// large the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub solvable: bool,
    /// The exact number of solutions (0 when unsolvable).
    pub solutions: BigUint,
    /// The solution with the fewest presses found, when solvable.
    pub minimum: Option<MinimumSolution>,
    /// When unsolvable: cell weights y with yᵀA ≡ 0 and y·(goal − lights) ≢ 0.
    pub certificate: Option<Presses>,
    /// Generators of the quiet patterns (press sets that change nothing);
    /// every quiet pattern is Σ cᵢ·gᵢ with 0 ≤ cᵢ < orderᵢ, in exactly one way.
    pub quiet_patterns: Vec<QuietPattern>,
    /// True when the board is so large that `quiet_patterns` were left out
    /// (`solutions` still counts them; the minimum is then not searched).
    pub quiet_patterns_omitted: bool,
    /// Number of unknowns (free cells).
    pub unknowns: usize,
}

impl Report {
    /// Bytes the report holds on the heap (for caches that keep within a
    /// byte budget): the packed minimum and certificate, and the quiet
    /// patterns spelled out.
    pub fn heap_bytes(&self) -> usize {
        let quiet: usize = self.quiet_patterns.iter().map(|q| q.presses.heap_bytes()).sum();
        let words = self.solutions.bits().div_ceil(8) as usize;
        self.minimum.as_ref().map_or(0, |m| m.presses.heap_bytes())
            + self.certificate.as_ref().map_or(0, Presses::heap_bytes)
            + quiet
            + self.quiet_patterns.capacity() * std::mem::size_of::<QuietPattern>()
            + words
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinimumSolution {
    pub presses: Presses,
    pub cost: u64,
    /// Whether `cost` is proven to be the least possible.
    pub optimal: bool,
    /// No solution has fewer presses (equal to `cost` when `optimal`; 0
    /// when nothing better is known).
    pub lower_bound: u64,
}

impl MinimumSolution {
    /// A solution with nothing proven beyond `optimal` (the bound is the
    /// cost when it is optimal, else 0).
    pub fn new(presses: Presses, optimal: bool) -> MinimumSolution {
        let cost = presses.sum();
        MinimumSolution { presses, cost, optimal, lower_bound: if optimal { cost } else { 0 } }
    }
}

/// A press pattern that changes nothing, packed like a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuietPattern {
    pub presses: Presses,
    pub order: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Beyond what the solver handles in reasonable time and memory.
    TooLarge {
        unknowns: usize,
        limit: usize,
    },
    /// The board has more cells than the path that fits it keeps cell by
    /// cell ([`PER_CELL_LIMIT`](crate::model::PER_CELL_LIMIT)); only the
    /// polynomial method goes beyond.
    BoardTooLarge {
        cells: usize,
        limit: usize,
    },
    Cancelled,
    /// A board-sized buffer (`bytes` long) could not be allocated: the
    /// board is within the limits but does not fit in this machine's memory.
    OutOfMemory {
        bytes: usize,
    },
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

/// The default work budget of a solve's minimum search (about 12 ms on the
/// development machine): the solve's own work comes off it first, so the
/// algebra's search keeps at least its own default on boards of 48×48 cells.
pub const DEFAULT_MINIMUM_WORK: u64 = lights_algebra::DEFAULT_WORK_UNITS + 2_000_000;

/// What to compute besides solvability, the count and a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// Search for the solution with the fewest presses (exact where the
    /// kernel allows, else a bounded heuristic). Without it, `minimum` holds
    /// the solution found, marked optimal only when it is the only one.
    pub search_minimum: bool,
    /// Work units the minimum search may use (about a nanosecond each on the
    /// development machine, counted rather than timed: the same answer on
    /// every machine). What the solve itself took is taken off first.
    pub minimum_work: u64,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { search_minimum: true, minimum_work: DEFAULT_MINIMUM_WORK }
    }
}
