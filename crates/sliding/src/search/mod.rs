//! Optimal search: IDA* (iterative-deepening A*) over labelled positions,
//! generic over an admissible heuristic that updates incrementally.

pub(crate) mod manhattan;
pub(crate) mod pdb_heuristic;

use crate::grid::{Grid, Labelled};
use crate::moves::Move;

/// An admissible (never overestimating) lower bound on the moves left.
pub(crate) trait Heuristic {
    /// Everything `update` changes, to undo it with `restore`.
    type Snapshot: Copy;
    /// Evaluates a whole position: `cells[i]` is the label at cell `i`,
    /// `pos[label]` the cell of a label.
    fn reset(&mut self, cells: &[u8], pos: &[u8]) -> u32;
    /// The tile `label` has just moved from `from` to `to` (`cells` and
    /// `pos` already updated): the new estimate. Once it is sure the
    /// estimate exceeds `limit` it may stop and return any admissible value
    /// above `limit`; then only `restore` may follow.
    fn update(&mut self, cells: &[u8], pos: &[u8], label: u8, from: usize, to: usize, limit: u32) -> u32;
    fn snapshot(&self) -> Self::Snapshot;
    fn restore(&mut self, snapshot: Self::Snapshot);
}

/// When to give up.
#[derive(Clone, Copy, Default)]
pub(crate) struct Budget<'a> {
    /// Nodes expanded before giving up (`None`: no limit).
    pub node_limit: Option<u64>,
    /// Polled every few thousand nodes.
    pub cancel: Option<&'a dyn Fn() -> bool>,
}

/// Why a search gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Cancelled,
    NodeLimit,
}

/// An optimal solution.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub moves: Vec<Move>,
    pub nodes: u64,
}

/// A search that gave up, with what it proved: no solution is shorter than
/// `lower_bound`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stopped {
    pub stop: Stop,
    pub nodes: u64,
    pub lower_bound: u32,
}

/// How often (in nodes) the cancel closure is polled.
const POLL_EVERY: u64 = 1 << 14;

enum Flow {
    Found,
    /// The smallest f-value above the bound (the next bound).
    Exceeded(u32),
    Stop(Stop),
}

struct Search<'a, H> {
    grid: &'a Grid,
    cells: Vec<u8>,
    pos: Vec<u8>,
    blank: usize,
    blank_label: u8,
    heuristic: &'a mut H,
    path: Vec<u8>,
    /// Cells not holding their own label: the goal is 0 (checked without
    /// trusting the heuristic to be 0 exactly there).
    misplaced: usize,
    nodes: u64,
    budget: Budget<'a>,
}

impl<H: Heuristic> Search<'_, H> {
    /// Moves the blank to the neighbouring cell `to`; returns the tile that
    /// moved and the cell it moved to.
    #[inline]
    fn slide(&mut self, to: usize) -> (u8, usize) {
        let from = self.blank;
        let label = self.cells[to];
        let home = |cell: usize, l: u8| (l as usize == cell) as usize;
        self.misplaced = self.misplaced + home(from, self.blank_label) + home(to, label)
            - home(from, label)
            - home(to, self.blank_label);
        self.cells[from] = label;
        self.cells[to] = self.blank_label;
        self.pos[label as usize] = from as u8;
        self.pos[self.blank_label as usize] = to as u8;
        self.blank = to;
        (label, from)
    }

    fn dfs(&mut self, g: u32, h: u32, bound: u32, previous: usize) -> Flow {
        if self.misplaced == 0 {
            return Flow::Found;
        }
        let f = g + h;
        if f > bound {
            return Flow::Exceeded(f);
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_EVERY) {
            if self.budget.node_limit.is_some_and(|l| self.nodes >= l) {
                return Flow::Stop(Stop::NodeLimit);
            }
            if self.budget.cancel.is_some_and(|c| c()) {
                return Flow::Stop(Stop::Cancelled);
            }
        }
        let mut next_bound = u32::MAX;
        for m in 0..4 {
            // Never undo the previous move (`m ^ 1` is the opposite).
            if m ^ 1 == previous {
                continue;
            }
            let Some(to) = self.grid.step(self.blank, m) else {
                continue;
            };
            let snapshot = self.heuristic.snapshot();
            let (label, old_blank) = self.slide(to);
            // The tile went from `to` to the old blank cell; a child whose
            // estimate exceeds `limit` is cut off, however much it exceeds it.
            let limit = bound.saturating_sub(g + 1);
            let h2 = self.heuristic.update(&self.cells, &self.pos, label, to, old_blank, limit);
            self.path.push(m as u8);
            match self.dfs(g + 1, h2, bound, m) {
                Flow::Found => return Flow::Found,
                Flow::Stop(s) => return Flow::Stop(s),
                Flow::Exceeded(t) => next_bound = next_bound.min(t),
            }
            self.path.pop();
            self.slide(old_blank);
            self.heuristic.restore(snapshot);
        }
        Flow::Exceeded(next_bound)
    }
}

/// Shortest solution of `start` (which must be solvable) by IDA*.
pub(crate) fn ida_star<H: Heuristic>(
    grid: &Grid,
    start: &Labelled,
    heuristic: &mut H,
    budget: Budget<'_>,
) -> Result<Found, Stopped> {
    let mut pos = vec![0u8; start.cells.len()];
    for (i, &l) in start.cells.iter().enumerate() {
        pos[l as usize] = i as u8;
    }
    let h0 = heuristic.reset(&start.cells, &pos);
    let mut search = Search {
        grid,
        cells: start.cells.clone(),
        pos,
        blank: start.blank(),
        blank_label: start.blank_label,
        heuristic,
        path: Vec::new(),
        misplaced: start.cells.iter().enumerate().filter(|&(i, &l)| l as usize != i).count(),
        nodes: 0,
        budget,
    };
    let mut bound = h0;
    loop {
        match search.dfs(0, h0, bound, usize::MAX) {
            Flow::Found => {
                return Ok(Found {
                    moves: search.path.iter().map(|&m| Move::ALL[m as usize]).collect(),
                    nodes: search.nodes,
                })
            }
            Flow::Stop(stop) => return Err(Stopped { stop, nodes: search.nodes, lower_bound: bound }),
            // u32::MAX cannot happen on a solvable board (every cell has
            // a neighbour); treat it as the node limit rather than loop.
            Flow::Exceeded(u32::MAX) => {
                return Err(Stopped { stop: Stop::NodeLimit, nodes: search.nodes, lower_bound: bound })
            }
            Flow::Exceeded(next) => bound = next,
        }
    }
}
