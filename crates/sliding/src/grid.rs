//! The internal form the solvers work on: tiles relabelled by their goal
//! cell, so every goal becomes "cell `i` holds label `i`".

use crate::board::Board;
use crate::moves::Move;

/// Largest side of the boards the byte-labelled solvers take (IDA*, the
/// constructive method): labels are cells, `u8`, and the heuristics keep
/// one counter per line on the stack. Larger boards are first reduced
/// (`crate::large`) to a region this size.
pub(crate) const SMALL_SIDE: usize = 16;

/// Whether the byte-labelled solvers take an R×C board (at most 256 cells).
pub(crate) fn is_small(rows: usize, cols: usize) -> bool {
    rows <= SMALL_SIDE && cols <= SMALL_SIDE
}

/// No neighbour (off the board).
pub(crate) const NONE: u16 = u16::MAX;

/// Neighbour table of an R×C grid.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// `next[cell][move.index()]`: where the blank goes, or [`NONE`].
    pub next: Vec<[u16; 4]>,
}

impl Grid {
    pub(crate) fn new(rows: usize, cols: usize) -> Grid {
        let next = (0..rows * cols)
            .map(|i| {
                let (r, c) = ((i / cols) as isize, (i % cols) as isize);
                Move::ALL.map(|m| {
                    let (dr, dc) = m.delta();
                    let (nr, nc) = (r + dr, c + dc);
                    if nr < 0 || nc < 0 || nr >= rows as isize || nc >= cols as isize {
                        NONE
                    } else {
                        (nr as usize * cols + nc as usize) as u16
                    }
                })
            })
            .collect();
        Grid { rows, cols, next }
    }

    pub(crate) fn len(&self) -> usize {
        self.rows * self.cols
    }

    /// The cell the blank reaches from `cell` by move number `m`.
    #[inline]
    pub(crate) fn step(&self, cell: usize, m: usize) -> Option<usize> {
        let n = self.next[cell][m];
        (n != NONE).then_some(n as usize)
    }
}

/// A start position relabelled against its goal: `cells[i]` is the goal
/// cell of the tile at `i`; the blank's label is the goal's blank cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Labelled {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<u8>,
    pub blank_label: u8,
}

impl Labelled {
    /// `start` and `goal` must be small ([`is_small`]).
    pub(crate) fn new(start: &Board, goal: &Board) -> Labelled {
        let mut goal_cell = vec![0u8; goal.cells().len()];
        for (i, &t) in goal.cells().iter().enumerate() {
            goal_cell[t as usize] = i as u8;
        }
        Labelled {
            rows: start.rows(),
            cols: start.cols(),
            cells: start.cells().iter().map(|&t| goal_cell[t as usize]).collect(),
            blank_label: goal.blank_index() as u8,
        }
    }

    pub(crate) fn blank(&self) -> usize {
        self.cells.iter().position(|&l| l == self.blank_label).unwrap_or(0)
    }
}
