//! `solve`: the invariant first, then optimal search or the constructive
//! method, and a replay of the answer before it is returned.

use std::fmt;

use crate::board::Board;
use crate::constructive::{self, Failure, Finish};
use crate::grid::{is_small, Grid, Labelled, SMALL_SIDE};
use crate::invariant::{invariant, Invariant, ShapeMismatch};
use crate::large;
use crate::moves::{moves_to_string, Move};
use crate::pdb::cache::PdbSource;
use crate::pdb::{BuildProgress, BLANK_CELL, SIDE};
use crate::replay::replay_to_goal;
use crate::search::manhattan::ManhattanLc;
use crate::search::{ida_star, Budget, Found, Heuristic, Stop, Stopped};
use crate::staged::Tables;

/// Which kind of answer to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Optimal for boards of at most `max_optimal_cells` cells while the
    /// search stays within `node_limit`; otherwise the constructive method.
    /// Boards 2 wide or 2 high of more than [`NARROW_OPTIMAL_CELLS`] cells
    /// (2×7, 8×2, …) go straight to the constructive method: their optimal
    /// solutions are long and Manhattan distance + linear conflict far below
    /// them, so the search would only spend its whole node limit.
    #[default]
    Auto,
    /// Optimal or an error ([`SolveError::NodeLimit`] past `node_limit`).
    OptimalOnly,
    /// The constructive method only (fast, any size, not optimal; its last
    /// 3×3 is solved optimally, and on boards of at least 4 rows and 4
    /// columns larger than 4×4 its last 4×4 too, with the pattern databases).
    NonOptimal,
}

/// How [`solve`] works. `SolveOptions::default()` is right for most callers.
#[derive(Clone, Copy)]
pub struct SolveOptions<'a> {
    pub strategy: Strategy,
    /// `Auto` only: larger boards go straight to the constructive method.
    /// Default 16 (4×4, 3×5, 5×3 and smaller are searched).
    pub max_optimal_cells: usize,
    /// Nodes the optimal search may expand (`None`: no limit). Default
    /// [`DEFAULT_NODE_LIMIT`].
    pub node_limit: Option<u64>,
    /// Use the 4×4 pattern databases (default `true`): for 4×4 boards whose
    /// goal has the blank in a corner, and to finish the last 4×4 of larger
    /// boards. `false` searches with Manhattan distance + linear conflict
    /// only and never loads or builds the tables.
    pub pattern_databases: bool,
    /// Where the tables are kept between runs (default: nowhere — built in
    /// memory when this process does not hold them yet). A front end usually
    /// prepares them first with [`crate::pattern_databases`] and its store.
    pub tables: Option<&'a dyn crate::TableStore>,
    /// Called while the pattern databases load or build.
    pub progress: Option<&'a dyn Fn(BuildProgress)>,
    /// Polled regularly; `true` stops with [`SolveError::Cancelled`].
    pub cancel: Option<&'a dyn Fn() -> bool>,
}

/// Default node budget of the optimal search: about 5 s on one core
/// (IDA* expands 4–7 million nodes a second). Random 4×4 positions need
/// well under 3 million with the pattern databases.
pub const DEFAULT_NODE_LIMIT: u64 = 30_000_000;

/// `Auto`: boards with a side of 2 and more cells than this are not searched.
pub const NARROW_OPTIMAL_CELLS: usize = 12;

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            strategy: Strategy::Auto,
            max_optimal_cells: 16,
            node_limit: Some(DEFAULT_NODE_LIMIT),
            pattern_databases: true,
            tables: None,
            progress: None,
            cancel: None,
        }
    }
}

impl fmt::Debug for SolveOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SolveOptions")
            .field("strategy", &self.strategy)
            .field("max_optimal_cells", &self.max_optimal_cells)
            .field("node_limit", &self.node_limit)
            .field("pattern_databases", &self.pattern_databases)
            .field("tables", &self.tables.map(super::pdb::cache::TableStore::location))
            .field("progress", &self.progress.is_some())
            .field("cancel", &self.cancel.is_some())
            .finish()
    }
}

/// How a solution was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// IDA* with the 4×4 pattern databases (optimal).
    PatternDatabases,
    /// IDA* with Manhattan distance + linear conflict (optimal).
    ManhattanLinearConflict,
    /// The constructive method (line by line; not optimal).
    Reduction,
    /// Start and goal are equal.
    AlreadySolved,
}

/// A solution: `moves` takes the start to the goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// `U D L R`: the direction the blank moves.
    pub moves: String,
    /// Proven shortest.
    pub optimal: bool,
    /// No solution has fewer moves (the length itself when `optimal`).
    pub lower_bound: u32,
    pub method: Method,
    /// Nodes the optimal search expanded (also when it gave up and the
    /// constructive method answered).
    pub nodes: u64,
    /// Where the 4×4 pattern databases came from, when they were used.
    pub pdb_source: Option<PdbSource>,
}

impl Solution {
    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// Why [`solve`] gave no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    Shape(ShapeMismatch),
    /// The invariants differ (the explanation says how).
    Unsolvable(Box<Invariant>),
    Cancelled,
    /// `OptimalOnly` ran out of nodes; no solution is shorter than `lower_bound`.
    NodeLimit {
        nodes: u64,
        lower_bound: u32,
    },
    /// `OptimalOnly` on a board with a side above 16: the optimal search
    /// does not take it (and could not finish).
    TooLarge {
        rows: usize,
        cols: usize,
    },
    /// A bug: a solver failed or its answer did not replay (never expected).
    Internal(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Shape(e) => e.fmt(f),
            SolveError::Unsolvable(inv) => {
                write!(f, "the goal cannot be reached: {}", inv.explanation)
            }
            SolveError::Cancelled => f.write_str("cancelled"),
            SolveError::NodeLimit { nodes, lower_bound } => {
                write!(f, "no optimal solution found within {nodes} nodes (it needs at least {lower_bound} moves)")
            }
            SolveError::TooLarge { rows, cols } => write!(
                f,
                "the optimal search takes boards of at most {SMALL_SIDE} rows and {SMALL_SIDE} columns, not {rows}×{cols}"
            ),
            SolveError::Internal(message) => write!(f, "internal error: {message}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// A rough upper estimate of the length of the solution [`solve`] gives
/// on a random `rows`×`cols` position: the reduction's answers grow as
/// cells × longer side (about 2.7 × on square boards, 1.5 × on 2-wide ones,
/// see docs/sliding-solver.md). For callers that would rather not compute
/// answers of billions of moves (a 2×32,768 board).
pub fn estimated_moves(rows: usize, cols: usize) -> u64 {
    let cells = (rows as u64).saturating_mul(cols as u64);
    cells.saturating_mul(rows.max(cols) as u64).saturating_mul(3)
}

/// Solves `start` → `goal` (same size, any goal). Checks the invariant
/// first; every returned solution has been replayed to the goal.
pub fn solve(start: &Board, goal: &Board, options: &SolveOptions) -> Result<Solution, SolveError> {
    let inv = invariant(start, goal).map_err(SolveError::Shape)?;
    if !inv.solvable {
        return Err(SolveError::Unsolvable(Box::new(inv)));
    }
    let solution = if start == goal {
        Solution {
            moves: String::new(),
            optimal: true,
            lower_bound: 0,
            method: Method::AlreadySolved,
            nodes: 0,
            pdb_source: None,
        }
    } else {
        let cells = start.rows() * start.cols();
        let narrow = start.rows().min(start.cols()) == 2 && cells > NARROW_OPTIMAL_CELLS;
        let searchable = is_small(start.rows(), start.cols()) && cells <= options.max_optimal_cells && !narrow;
        match options.strategy {
            Strategy::NonOptimal => reduction(start, goal, options, 0, 0)?,
            Strategy::OptimalOnly => optimal(start, goal, options)?,
            Strategy::Auto if !searchable => reduction(start, goal, options, 0, 0)?,
            Strategy::Auto => match optimal(start, goal, options) {
                Err(SolveError::NodeLimit { nodes, lower_bound }) => {
                    reduction(start, goal, options, nodes, lower_bound)?
                }
                other => other?,
            },
        }
    };
    replay_to_goal(start, goal, &solution.moves)
        .map_err(|e| SolveError::Internal(format!("the {:?} solution does not replay: {e}", solution.method)))?;
    Ok(solution)
}

/// Node limit of the optimal 4×4 finish inside the constructive method.
const FINISH_NODE_LIMIT: u64 = 20_000_000;

/// The constructive method, with the best lower bound known. Boards larger
/// than 4×4 (at least 4 rows and 4 columns) finish their last 4×4 with the
/// pattern databases unless `options.pattern_databases` is false.
fn reduction(
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
    nodes: u64,
    searched_bound: u32,
) -> Result<Solution, SolveError> {
    let (rows, cols) = (start.rows(), start.cols());
    let wants_databases = options.pattern_databases && rows >= SIDE && cols >= SIDE && rows * cols > SIDE * SIDE;
    let tables = tables(options);
    let finish = Finish {
        tables: wants_databases.then_some(&tables),
        node_limit: options.node_limit.map_or(FINISH_NODE_LIMIT, |l| l.min(FINISH_NODE_LIMIT)),
    };
    let small = is_small(rows, cols);
    let moves = if small {
        constructive::solve(start, goal, finish, options.cancel)
    } else {
        large::solve(start, goal, finish, options.cancel)
    };
    let moves = moves.map_err(|e| match e {
        Failure::Cancelled => SolveError::Cancelled,
        Failure::Stuck(why) => SolveError::Internal(why.to_string()),
    })?;
    let estimate = if small {
        let labelled = Labelled::new(start, goal);
        manhattan_lc(&labelled).reset(&labelled.cells, &positions(&labelled))
    } else {
        manhattan_distance(start, goal)
    };
    let bound = estimate.max(searched_bound);
    let len = u32::try_from(moves.len()).unwrap_or(u32::MAX);
    Ok(Solution {
        moves: moves_to_string(&moves),
        optimal: len <= bound,
        lower_bound: bound.min(len),
        method: Method::Reduction,
        nodes,
        pdb_source: tables.source.into_inner(),
    })
}

/// The 4×4 pattern databases as the options say (memory, the store, the
/// quick 5-5-5 tables or a build of the 6-6-3 ones: `crate::staged`).
fn tables<'a>(options: &SolveOptions<'a>) -> Tables<'a> {
    Tables::new(options.tables, options.progress, options.cancel)
}

/// The sum of the tiles' row and column distances from their goal cells
/// (a lower bound, for boards too large for [`ManhattanLc`]).
fn manhattan_distance(start: &Board, goal: &Board) -> u32 {
    let cols = start.cols();
    let mut goal_cell = vec![0usize; goal.cells().len()];
    for (i, &t) in goal.cells().iter().enumerate() {
        goal_cell[t as usize] = i;
    }
    let total: u64 = start
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != crate::board::BLANK)
        .map(|(i, &t)| {
            let g = goal_cell[t as usize];
            ((i / cols).abs_diff(g / cols) + (i % cols).abs_diff(g % cols)) as u64
        })
        .sum();
    u32::try_from(total).unwrap_or(u32::MAX)
}

fn manhattan_lc(labelled: &Labelled) -> ManhattanLc {
    ManhattanLc::new(labelled.rows, labelled.cols, labelled.blank_label)
}

fn positions(labelled: &Labelled) -> Vec<u8> {
    let mut pos = vec![0u8; labelled.cells.len()];
    for (i, &l) in labelled.cells.iter().enumerate() {
        pos[l as usize] = i as u8;
    }
    pos
}

/// A reflection of the 4×4 board taking the goal's blank corner to cell 15.
#[derive(Clone, Copy)]
struct Flip {
    rows: bool,
    cols: bool,
}

impl Flip {
    fn for_blank(cell: usize) -> Option<Flip> {
        match cell {
            15 => Some(Flip { rows: false, cols: false }),
            12 => Some(Flip { rows: false, cols: true }),
            3 => Some(Flip { rows: true, cols: false }),
            0 => Some(Flip { rows: true, cols: true }),
            _ => None,
        }
    }

    fn cell(self, i: usize) -> usize {
        let (mut r, mut c) = (i / SIDE, i % SIDE);
        if self.rows {
            r = SIDE - 1 - r;
        }
        if self.cols {
            c = SIDE - 1 - c;
        }
        r * SIDE + c
    }

    /// The position seen in the mirror (labels are cells, so they flip too).
    fn labelled(self, l: &Labelled) -> Labelled {
        let mut cells = vec![0u8; l.cells.len()];
        for (i, &label) in l.cells.iter().enumerate() {
            cells[self.cell(i)] = self.cell(label as usize) as u8;
        }
        Labelled { cells, blank_label: self.cell(l.blank_label as usize) as u8, ..*l }
    }

    /// A move in the mirror, seen on the real board (flips are involutions).
    fn mv(self, m: Move) -> Move {
        match m {
            Move::Up | Move::Down if self.rows => m.opposite(),
            Move::Left | Move::Right if self.cols => m.opposite(),
            _ => m,
        }
    }
}

fn optimal(start: &Board, goal: &Board, options: &SolveOptions) -> Result<Solution, SolveError> {
    if !is_small(start.rows(), start.cols()) {
        return Err(SolveError::TooLarge { rows: start.rows(), cols: start.cols() });
    }
    let labelled = Labelled::new(start, goal);
    let grid = Grid::new(start.rows(), start.cols());
    let budget = Budget { node_limit: options.node_limit, cancel: options.cancel };
    let flip = (start.rows() == SIDE && start.cols() == SIDE && options.pattern_databases)
        .then(|| Flip::for_blank(goal.blank_index()))
        .flatten();
    let (result, method, pdb_source) = match flip {
        Some(flip) => {
            let mirrored = flip.labelled(&labelled);
            debug_assert_eq!(mirrored.blank_label, BLANK_CELL);
            let tables = tables(options);
            let result = tables
                .search(&grid, &mirrored, options.node_limit)
                .map_err(|_| SolveError::Cancelled)?
                .map(|found| Found { moves: found.moves.into_iter().map(|m| flip.mv(m)).collect(), ..found });
            (result, Method::PatternDatabases, tables.source.into_inner())
        }
        None => {
            let mut heuristic = manhattan_lc(&labelled);
            let result = ida_star(&grid, &labelled, &mut heuristic, budget);
            (result, Method::ManhattanLinearConflict, None)
        }
    };
    match result {
        Ok(found) => Ok(Solution {
            moves: moves_to_string(&found.moves),
            optimal: true,
            lower_bound: found.moves.len() as u32,
            method,
            nodes: found.nodes,
            pdb_source,
        }),
        Err(Stopped { stop: Stop::Cancelled, .. }) => Err(SolveError::Cancelled),
        Err(Stopped { stop: Stop::NodeLimit, nodes, lower_bound }) => Err(SolveError::NodeLimit { nodes, lower_bound }),
    }
}
