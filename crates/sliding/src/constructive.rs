//! Non-optimal solutions for every size from 2×2 up, by reduction.
//!
//! The goal's blank is first walked to the bottom-right corner (the walk is
//! undone at the end), so the goal has the usual shape. Then, until the
//! unsolved region is at most 3×3, its top row (when it has at least as
//! many rows as columns) or its left column is solved and the region
//! shrinks by one line. Solving a line:
//!
//! 1. all tiles but the last two go home one at a time, each by a
//!    breadth-first search over (tile cell, blank cell) that never touches
//!    solved cells — so no special cases for tiles in corners: the search
//!    finds the way round (the order of lines keeps the region at least
//!    2 wide and 3 long, where a way always exists);
//! 2. the last two tiles `a`, `b` are the classic difficulty (putting `a`
//!    home first can trap `b`). `a` goes home, `b` is brought into the
//!    *band* (the line and the two lines after it) with `a` held, then one
//!    breadth-first search over (a cell, b cell, blank cell) inside the band
//!    places both. The band is at least 3×2 with at least three other
//!    tiles, so that search always succeeds.
//!
//! The last region (2×2 to 3×3) is solved optimally by IDA* with Manhattan
//! distance + linear conflict (at most 31 moves, instantly); it is solvable
//! exactly because start and goal have equal invariants. A 4×4 region
//! smaller than the board is finished optimally with the pattern databases
//! when the caller provides them, within a node limit (past it, reduction
//! goes on). Moves immediately undone are removed at the end.
//!
//! Each search is over at most 256² (tile, blank) states, or (a, b, blank)
//! in a band of at most 48 cells, so a 16×16 board takes milliseconds.

use std::collections::VecDeque;

use crate::board::Board;
use crate::grid::{Grid, Labelled, NONE};
use crate::moves::{cancel_back_and_forth, Move};
use crate::pair::pair_moves;
use crate::search::manhattan::ManhattanLc;
use crate::search::{ida_star, Budget, Stop, Stopped};
use crate::staged::Tables;

/// Why no solution came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    Cancelled,
    /// A search found no way (a bug: reported, never a panic).
    Stuck(&'static str),
}

/// How the last region is finished.
#[derive(Clone, Copy, Default)]
pub(crate) struct Finish<'a> {
    /// Finish a 4×4 region (smaller than the board) with the pattern
    /// databases these give.
    pub tables: Option<&'a Tables<'a>>,
    /// Nodes that search may take before reduction goes on instead.
    pub node_limit: u64,
}

/// Moves taking `start` to `goal` (their invariants must agree).
pub(crate) fn solve(
    start: &Board,
    goal: &Board,
    finish: Finish<'_>,
    cancel: Option<&dyn Fn() -> bool>,
) -> Result<Vec<Move>, Failure> {
    let (corner_goal, walk) = corner_goal(goal);
    let labelled = Labelled::new(start, &corner_goal);
    let grid = Grid::new(start.rows(), start.cols());
    let mut worker = Worker {
        blank: labelled.blank(),
        cells: labelled.cells,
        fixed: vec![false; grid.len()],
        moves: Vec::new(),
        grid: &grid,
        finish,
        cancel,
    };
    worker.run()?;
    let mut moves = worker.moves;
    moves.extend(undone(&walk));
    Ok(cancel_back_and_forth(&moves))
}

/// The goal with its blank walked right, then down, to the bottom-right
/// corner (the shape the reductions solve towards), and the walk.
pub(crate) fn corner_goal(goal: &Board) -> (Board, Vec<Move>) {
    let mut corner = goal.clone();
    let mut walk = Vec::new();
    for mv in [Move::Right, Move::Down] {
        while corner.apply(mv).is_ok() {
            walk.push(mv);
        }
    }
    (corner, walk)
}

/// The moves that undo `walk`: from the corner goal back to the real one.
pub(crate) fn undone(walk: &[Move]) -> impl Iterator<Item = Move> + '_ {
    walk.iter().rev().map(|m| m.opposite())
}

struct Worker<'a> {
    grid: &'a Grid,
    /// Label per cell (label = goal cell; the blank's is the last cell).
    cells: Vec<u8>,
    blank: usize,
    /// Cells already holding their final tile.
    fixed: Vec<bool>,
    moves: Vec<Move>,
    finish: Finish<'a>,
    cancel: Option<&'a dyn Fn() -> bool>,
}

impl Worker<'_> {
    fn check_cancel(&self) -> Result<(), Failure> {
        match self.cancel {
            Some(c) if c() => Err(Failure::Cancelled),
            _ => Ok(()),
        }
    }

    fn push(&mut self, m: usize) {
        let to = self.grid.next[self.blank][m] as usize;
        self.cells.swap(self.blank, to);
        self.blank = to;
        self.moves.push(Move::ALL[m]);
    }

    fn position(&self, label: u8) -> usize {
        self.cells.iter().position(|&l| l == label).unwrap_or(0)
    }

    fn run(&mut self) -> Result<(), Failure> {
        let (rows, cols) = (self.grid.rows, self.grid.cols);
        let (mut top, mut left) = (0, 0);
        loop {
            self.check_cancel()?;
            let (height, width) = (rows - top, cols - left);
            if height <= 3 && width <= 3 {
                return if self.finish_optimally(top, left, height, width, None)? {
                    Ok(())
                } else {
                    Err(Failure::Stuck("the last region cannot be solved"))
                };
            }
            if let (4, 4, Some(tables)) = (height, width, self.finish.tables) {
                // Never the whole board: on a 4×4 board the caller's own
                // search has already given up (and passes no tables).
                if (top, left) != (0, 0) && self.finish_optimally(top, left, 4, 4, Some(tables))? {
                    return Ok(());
                }
            }
            let mut band = vec![false; self.grid.len()];
            let targets: Vec<usize>;
            if height >= width {
                targets = (left..cols).map(|c| top * cols + c).collect();
                for r in top..(top + 3).min(rows) {
                    for c in left..cols {
                        band[r * cols + c] = true;
                    }
                }
                top += 1;
            } else {
                targets = (top..rows).map(|r| r * cols + left).collect();
                for r in top..rows {
                    for c in left..(left + 3).min(cols) {
                        band[r * cols + c] = true;
                    }
                }
                left += 1;
            }
            self.solve_line(&targets, &band)?;
        }
    }

    /// Solves the region `height × width` at (`top`, `left`) — the rest of
    /// the board — by IDA*: Manhattan distance + linear conflict, or the
    /// pattern databases (4×4) within the finish's node limit. `false`
    /// when the search gave up (only with a node limit).
    fn finish_optimally(
        &mut self,
        top: usize,
        left: usize,
        height: usize,
        width: usize,
        tables: Option<&Tables>,
    ) -> Result<bool, Failure> {
        let cols = self.grid.cols;
        // Region cells get local indices; a label (a goal cell inside the
        // region) becomes the local index of that cell.
        let local = |global: usize| (global / cols - top) * width + (global % cols - left);
        let cells: Vec<u8> = (0..height * width)
            .map(|i| {
                let global = (top + i / width) * cols + left + i % width;
                local(self.cells[global] as usize) as u8
            })
            .collect();
        let region = Labelled { rows: height, cols: width, cells, blank_label: (height * width - 1) as u8 };
        let grid = Grid::new(height, width);
        let result = match tables {
            Some(tables) => {
                tables.search(&grid, &region, Some(self.finish.node_limit)).map_err(|_| Failure::Cancelled)?
            }
            None => {
                let budget = Budget { node_limit: None, cancel: self.cancel };
                let mut heuristic = ManhattanLc::new(height, width, region.blank_label);
                ida_star(&grid, &region, &mut heuristic, budget)
            }
        };
        match result {
            Ok(found) => {
                // The blank stays inside the region: same directions.
                found.moves.iter().for_each(|m| self.push(m.index()));
                Ok(true)
            }
            Err(Stopped { stop: Stop::Cancelled, .. }) => Err(Failure::Cancelled),
            Err(_) => Ok(false),
        }
    }

    /// Puts the tiles of `targets` (a row or column of the region, in
    /// order) home and fixes them.
    fn solve_line(&mut self, targets: &[usize], band: &[bool]) -> Result<(), Failure> {
        let n = targets.len();
        for &t in &targets[..n - 2] {
            self.place(t as u8, |tile, _| tile == t)?;
            self.fixed[t] = true;
        }
        let (a_home, b_home) = (targets[n - 2], targets[n - 1]);
        let (a, b) = (a_home as u8, b_home as u8);
        if self.cells[a_home] != a || self.cells[b_home] != b {
            self.place(a, |tile, _| tile == a_home)?;
            self.fixed[a_home] = true;
            self.place(b, |tile, blank| band[tile] && band[blank])?;
            self.fixed[a_home] = false;
            self.place_pair(a, b, a_home, b_home, band)?;
        }
        self.fixed[a_home] = true;
        self.fixed[b_home] = true;
        Ok(())
    }

    /// Breadth-first search over (cell of `label`, blank cell) through
    /// unfixed cells until `done`, then makes those moves.
    fn place(&mut self, label: u8, done: impl Fn(usize, usize) -> bool) -> Result<(), Failure> {
        let n = self.grid.len();
        let (tile, blank) = (self.position(label), self.blank);
        if done(tile, blank) {
            return Ok(());
        }
        // parent[state] = move that reached it; state = tile·n + blank.
        const UNSEEN: u8 = u8::MAX;
        const START: u8 = u8::MAX - 1;
        let mut parent = vec![UNSEEN; n * n];
        parent[tile * n + blank] = START;
        let mut queue = VecDeque::from([(tile, blank)]);
        while let Some((t, e)) = queue.pop_front() {
            for m in 0..4 {
                let q = self.grid.next[e][m];
                if q == NONE || self.fixed[q as usize] {
                    continue;
                }
                let q = q as usize;
                let (nt, ne) = if q == t { (e, q) } else { (t, q) };
                if parent[nt * n + ne] != UNSEEN {
                    continue;
                }
                parent[nt * n + ne] = m as u8;
                if done(nt, ne) {
                    let path = self.unwind(&parent, n, nt, ne);
                    for m in path {
                        self.push(m);
                    }
                    return Ok(());
                }
                queue.push_back((nt, ne));
            }
        }
        Err(Failure::Stuck("no way to bring a tile home"))
    }

    /// The moves from the start to (`tile`, `blank`), read back through
    /// `parent` (one tracked tile; `place_pair` does the same for two).
    fn unwind(&self, parent: &[u8], n: usize, mut tile: usize, mut blank: usize) -> Vec<usize> {
        let mut path = Vec::new();
        loop {
            let m = parent[tile * n + blank];
            if m >= 4 {
                break;
            }
            path.push(m as usize);
            let previous = self.grid.next[blank][m as usize ^ 1] as usize;
            // The tile moved only if the blank came from where it is now.
            if tile == previous {
                tile = blank;
            }
            blank = previous;
        }
        path.reverse();
        path
    }

    /// Places `a` and `b` home together, the blank moving through the
    /// band's unfixed cells ([`pair_moves`]).
    fn place_pair(&mut self, a: u8, b: u8, a_home: usize, b_home: usize, band: &[bool]) -> Result<(), Failure> {
        let cells: Vec<usize> = (0..self.grid.len()).filter(|&i| band[i] && !self.fixed[i]).collect();
        let mut index = vec![usize::MAX; self.grid.len()];
        for (k, &c) in cells.iter().enumerate() {
            index[c] = k;
        }
        let local = |cell: usize| (index[cell] != usize::MAX).then_some(index[cell]);
        let (Some(sa), Some(sb), Some(se), Some(ha), Some(hb)) =
            (local(self.position(a)), local(self.position(b)), local(self.blank), local(a_home), local(b_home))
        else {
            return Err(Failure::Stuck("the last two tiles of a line are outside the band"));
        };
        let next: Vec<[Option<usize>; 4]> =
            cells.iter().map(|&c| std::array::from_fn(|mv| self.grid.step(c, mv).and_then(local))).collect();
        let path = pair_moves(&next, (sa, sb, se), (ha, hb))
            .ok_or(Failure::Stuck("no way to place the last two tiles of a line"))?;
        for mv in path {
            self.push(mv);
        }
        Ok(())
    }
}
