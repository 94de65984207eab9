//! The validated model of a sliding-tile puzzle (`sliding "NAME" { … }`):
//! the board, the start and goal positions, the claims and the recorded
//! solution, with the spans needed to point back at the source.
//!
//! Validation is in `sliding_validate.rs`; solving is not done here.

use lights_syntax::Span;

use crate::header::{BlockClaim, BlockHeader, Expect};
use crate::key::Unkeyed;

/// The blank, in [`SlidingPuzzle::tiles`] and [`SlidingPuzzle::goal`].
pub const BLANK: u16 = 0;
/// The smallest board side: a board one row or one column wide cannot
/// rearrange its tiles.
pub const MIN_SIDE: usize = 2;
/// Sliding boards have at most this many cells (tiles are numbered up to 65535).
pub const MAX_SLIDING_CELLS: u64 = 65_536;
/// The letters of a move string: the direction the blank moves.
pub const MOVE_LETTERS: [char; 4] = ['U', 'D', 'L', 'R'];

/// A validated `sliding` block. Its `Hash` covers what the answer depends
/// on (the board and both positions); the [`Unkeyed`] fields are left out
/// (see [`BlockKey`](crate::BlockKey)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlidingPuzzle {
    /// Name, spans, `expect` claims and the written `solution`.
    pub header: Unkeyed<SlidingHeader>,
    pub rows: usize,
    pub cols: usize,
    /// The start, row-major: tile numbers 1…rows·cols−1, each once, and one
    /// [`BLANK`] (0).
    pub tiles: Vec<u16>,
    /// The goal, row-major, with the same tiles as `tiles`.
    pub goal: Vec<u16>,
    /// True when the block has no `goal`: tiles in order, blank last
    /// ([`default_goal`]).
    pub goal_is_default: Unkeyed<bool>,
    /// Where each statement and each cell was written.
    pub spans: Unkeyed<SlidingSpans>,
}

/// A `sliding` block's header: its claims are [`SlidingClaim`]s, its solution a string of moves.
pub type SlidingHeader = BlockHeader<SlidingClaim, MovesBlock>;

/// An `expect` statement of a `sliding` block.
pub type SlidingExpectation = Expect<SlidingClaim>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlidingClaim {
    /// `expect solvable`: the goal can be reached.
    Solvable,
    /// `expect unsolvable`: the goal can never be reached.
    Unsolvable,
    /// `expect moves N`: the fewest moves that reach the goal is exactly N.
    Moves(u64),
}

impl std::fmt::Display for SlidingClaim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SlidingClaim::Solvable => write!(f, "expect solvable"),
            SlidingClaim::Unsolvable => write!(f, "expect unsolvable"),
            SlidingClaim::Moves(n) => write!(f, "expect moves {n}"),
        }
    }
}

impl BlockClaim for SlidingClaim {
    fn denies_solution(&self) -> bool {
        *self == SlidingClaim::Unsolvable
    }
}

/// `solution "LLUR"`: the moves of the blank. Only the letters are checked
/// here; whether each move stays on the board and the last one reaches the
/// goal is the solver's business.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesBlock {
    /// The whole `solution` statement.
    pub span: Span,
    /// The moves, one of `U`, `D`, `L`, `R` each, without the spaces that
    /// may separate them in the file (empty: no move at all).
    pub moves: String,
    /// The quoted string, quotes included.
    pub string_span: Span,
    /// The source span of each move, so a diagnostic can point at the one
    /// that goes wrong: `move_spans[i]` is where `moves[i]` was written.
    pub move_spans: Vec<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SlidingSpans {
    pub size: Option<Span>,
    pub tiles: Option<Span>,
    /// `None` when the goal is the default one.
    pub goal: Option<Span>,
    pub solution: Option<Span>,
    /// Row-major: where each cell of `tiles` was written.
    pub tile_cells: Vec<Span>,
    /// Row-major: where each cell of `goal` was written (`None` for the default goal).
    pub goal_cells: Option<Vec<Span>>,
}

/// Which grid of a sliding block a cell belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlidingGrid {
    Tiles,
    Goal,
}

/// The standard goal: tiles 1…rows·cols−1 in reading order, the blank last.
pub fn default_goal(rows: usize, cols: usize) -> Vec<u16> {
    let n = rows * cols;
    (1..n).map(|t| t as u16).chain(std::iter::once(BLANK)).collect()
}

impl SlidingPuzzle {
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
    /// Row-major index of 0-based (row, column).
    pub fn index(&self, r: usize, c: usize) -> usize {
        r * self.cols + c
    }
    /// 1-based `row,column` of a cell, as the language writes it.
    pub fn coord(&self, index: usize) -> String {
        format!("{},{}", index / self.cols + 1, index % self.cols + 1)
    }
    /// The index of the blank in the start position.
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == BLANK).unwrap_or(0)
    }
    /// The index of the blank in the goal.
    pub fn goal_blank(&self) -> usize {
        self.goal.iter().position(|&t| t == BLANK).unwrap_or(0)
    }
    /// The grid cell written at byte `offset` (for hover): which grid and
    /// the cell's row-major index.
    pub fn cell_at(&self, offset: usize) -> Option<(SlidingGrid, usize)> {
        let hit = |spans: &[Span]| spans.iter().position(|s| s.contains(offset));
        if let Some(i) = hit(&self.spans.tile_cells) {
            return Some((SlidingGrid::Tiles, i));
        }
        self.spans.goal_cells.as_deref().and_then(hit).map(|i| (SlidingGrid::Goal, i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_goal_is_in_order_with_the_blank_last() {
        assert_eq!(default_goal(2, 2), vec![1, 2, 3, 0]);
        assert_eq!(default_goal(2, 3), vec![1, 2, 3, 4, 5, 0]);
    }
}
