//! Non-optimal solutions for boards larger than the constructive method
//! takes (a side above 16), up to 65,536 cells.
//!
//! The constructive method's searches run over (tile cell, blank cell)
//! pairs — n² states per tile, fine for 256 cells, hopeless for 65,536 —
//! and label tiles with bytes. Here the same reduction (top row of the
//! remaining region when it has at least as many rows as columns, else its
//! left column) goes on with placements whose cost grows with the distance
//! travelled, not the board, until the region is at most 16×16. That
//! region, every tile in it belonging to it, is handed to the constructive
//! method as a board of its own.
//!
//! Placing one tile: the tile walks a staircase path home (along its line
//! or across towards it, whichever is longer); before each step the blank is routed to
//! the next cell of the path by a breadth-first search through free cells
//! (not fixed, not the tile) of a small window around the tile, or of the
//! whole board if that window has no way. The free cells minus any one cell
//! stay connected (the region is at least 3 deep and at least two cells of
//! the line are free), so a way always exists.
//!
//! The last two tiles `a`, `b` of a line: `a` goes home and is held, `b` is
//! brought into the *window* — the last three cells of the line and the
//! two lines after it — along a path that never passes the cell next to
//! `b`'s home (which would shut the blank in there), the blank follows,
//! and one breadth-first search over (a cell, b cell, blank cell) in the
//! window's free cells (at most 8: 512 states) places both.

use std::collections::VecDeque;

use crate::board::{Board, Tile, BLANK};
use crate::constructive::{self, Failure, Finish};
use crate::grid::is_small;
use crate::moves::{cancel_back_and_forth, Move};
use crate::pair::pair_moves;

/// Moves taking `start` to `goal` (their invariants must agree), for
/// boards of any size the constructive method does not take.
pub(crate) fn solve(
    start: &Board,
    goal: &Board,
    finish: Finish<'_>,
    cancel: Option<&dyn Fn() -> bool>,
) -> Result<Vec<Move>, Failure> {
    let (corner_goal, walk) = constructive::corner_goal(goal);
    let mut worker = Worker::new(start, &corner_goal, cancel);
    let region = worker.reduce()?;
    let (sub_start, sub_goal) = worker.region_boards(region);
    // The blank stays inside the region: the same moves on the whole board.
    let rest = constructive::solve(&sub_start, &sub_goal, finish, cancel)?;
    let mut moves = worker.moves;
    moves.extend(rest);
    moves.extend(constructive::undone(&walk));
    Ok(cancel_back_and_forth(&moves))
}

/// A rectangle of cells, bounds inclusive.
#[derive(Clone, Copy, Debug)]
struct Rect {
    top: usize,
    left: usize,
    bottom: usize,
    right: usize,
}

impl Rect {
    fn contains(self, (r, c): (usize, usize)) -> bool {
        (self.top..=self.bottom).contains(&r) && (self.left..=self.right).contains(&c)
    }
}

/// Where a line lies: cell `p` of the line, `d` lines further in, is
/// `(top + d, left + p)` for a row, `(top + p, left + d)` for a column.
#[derive(Clone, Copy)]
struct Line {
    top: usize,
    left: usize,
    is_row: bool,
    len: usize,
}

impl Line {
    fn at(self, p: usize, d: usize) -> (usize, usize) {
        if self.is_row {
            (self.top + d, self.left + p)
        } else {
            (self.top + p, self.left + d)
        }
    }

    /// (p, d) of a cell of the region.
    fn coords(self, (r, c): (usize, usize)) -> (usize, usize) {
        if self.is_row {
            (c - self.left, r - self.top)
        } else {
            (r - self.top, c - self.left)
        }
    }

    /// The cells `p` in `ps`, `d` in `ds`, as a rectangle.
    fn rect(self, ps: (usize, usize), ds: (usize, usize)) -> Rect {
        let (a, b) = (self.at(ps.0, ds.0), self.at(ps.1, ds.1));
        Rect { top: a.0, left: a.1, bottom: b.0, right: b.1 }
    }
}

/// One step towards `to` along an axis.
fn toward(from: usize, to: usize) -> usize {
    if from < to {
        from + 1
    } else {
        from - 1
    }
}

struct Worker<'a> {
    rows: usize,
    cols: usize,
    /// Label per cell: the tile's cell in the (corner) goal; the blank's is the last cell.
    cells: Vec<u32>,
    /// Cell per label.
    pos: Vec<u32>,
    blank: usize,
    /// Cells already holding their final tile (or held for a moment).
    fixed: Vec<bool>,
    moves: Vec<Move>,
    cancel: Option<&'a dyn Fn() -> bool>,
    /// Breadth-first search scratch: `seen[cell] == stamp` marks this
    /// search's cells (no clearing between searches), `via` the move that
    /// reached each.
    seen: Vec<u32>,
    stamp: u32,
    via: Vec<u8>,
    queue: VecDeque<u32>,
}

impl<'a> Worker<'a> {
    fn new(start: &Board, goal: &Board, cancel: Option<&'a dyn Fn() -> bool>) -> Worker<'a> {
        let n = start.cells().len();
        let mut goal_cell = vec![0u32; n];
        for (i, &t) in goal.cells().iter().enumerate() {
            goal_cell[t as usize] = i as u32;
        }
        let cells: Vec<u32> = start.cells().iter().map(|&t| goal_cell[t as usize]).collect();
        let mut pos = vec![0u32; n];
        for (i, &l) in cells.iter().enumerate() {
            pos[l as usize] = i as u32;
        }
        Worker {
            rows: start.rows(),
            cols: start.cols(),
            cells,
            pos,
            blank: start.blank_index(),
            fixed: vec![false; n],
            moves: Vec::new(),
            cancel,
            seen: vec![0; n],
            stamp: 0,
            via: vec![0; n],
            queue: VecDeque::new(),
        }
    }

    fn check_cancel(&self) -> Result<(), Failure> {
        match self.cancel {
            Some(c) if c() => Err(Failure::Cancelled),
            _ => Ok(()),
        }
    }

    fn rc(&self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    fn index(&self, (r, c): (usize, usize)) -> usize {
        r * self.cols + c
    }

    /// The cell the blank reaches from `cell` by move number `m`.
    fn step_from(&self, cell: usize, m: usize) -> Option<usize> {
        let (r, c) = self.rc(cell);
        let (dr, dc) = Move::ALL[m].delta();
        let (r, c) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
        (r < self.rows && c < self.cols).then(|| self.index((r, c)))
    }

    /// Moves the blank by move number `m` (must stay on the board).
    fn push(&mut self, m: usize) {
        let to = self.step_from(self.blank, m).unwrap_or(self.blank);
        let label = self.cells[to];
        self.cells.swap(self.blank, to);
        self.pos[label as usize] = self.blank as u32;
        self.pos[self.cells[to] as usize] = to as u32;
        self.blank = to;
        self.moves.push(Move::ALL[m]);
    }

    /// Reduces the board line by line until the region left (returned) is
    /// small enough for the constructive method.
    fn reduce(&mut self) -> Result<Rect, Failure> {
        let (mut top, mut left) = (0, 0);
        loop {
            let (height, width) = (self.rows - top, self.cols - left);
            if is_small(height, width) {
                return Ok(Rect { top, left, bottom: self.rows - 1, right: self.cols - 1 });
            }
            if height >= width {
                self.solve_line(Line { top, left, is_row: true, len: width })?;
                top += 1;
            } else {
                self.solve_line(Line { top, left, is_row: false, len: height })?;
                left += 1;
            }
        }
    }

    /// Puts the tiles of `line` (at least 2 long; the region is at least 3
    /// lines deep, in fact 17) home and fixes them.
    fn solve_line(&mut self, line: Line) -> Result<(), Failure> {
        let n = line.len;
        for p in 0..n - 2 {
            self.check_cancel()?;
            let home = self.index(line.at(p, 0));
            self.walk_home(home, line)?;
            self.fixed[home] = true;
        }
        self.check_cancel()?;
        let (a_home, b_home) = (self.index(line.at(n - 2, 0)), self.index(line.at(n - 1, 0)));
        if self.cells[a_home] as usize != a_home || self.cells[b_home] as usize != b_home {
            self.place_last_two(line, a_home, b_home)?;
        }
        self.fixed[a_home] = true;
        self.fixed[b_home] = true;
        Ok(())
    }

    /// Walks the tile whose home is `home` (a cell of `line`) there.
    fn walk_home(&mut self, home: usize, line: Line) -> Result<(), Failure> {
        let (hp, _) = line.coords(self.rc(home));
        // A staircase (the longer way first): turning costs the blank 2
        // moves per step instead of 4 to go round the tile. The tile
        // reaches the line only at its home (or starts in it).
        self.walk(
            home as u32,
            |(p, d)| match (p.abs_diff(hp), d) {
                (0, 0) => None,
                (along, across) if along >= across => Some(line.at(toward(p, hp), d)),
                _ => Some(line.at(p, d - 1)),
            },
            line,
        )
    }

    /// Moves the tile `label` one cell at a time to where `next` says (in
    /// line coordinates; `None`: arrived).
    fn walk(
        &mut self,
        label: u32,
        next: impl Fn((usize, usize)) -> Option<(usize, usize)>,
        line: Line,
    ) -> Result<(), Failure> {
        loop {
            let tile = self.pos[label as usize] as usize;
            let Some(to) = next(line.coords(self.rc(tile))) else { return Ok(()) };
            let to = self.index(to);
            self.route_blank(tile, |cell| cell == to, to)?;
            // The blank is next to the tile: moving into it moves the tile.
            let m = (0..4).find(|&m| self.step_from(self.blank, m) == Some(tile));
            self.push(m.ok_or(Failure::Stuck("the blank did not reach the tile"))?);
        }
    }

    /// Brings the blank to a cell where `is_target` holds without moving
    /// fixed cells or `avoid`: a search in a small window around `near`
    /// (and the blank) first, the whole board if that finds no way.
    fn route_blank(&mut self, avoid: usize, is_target: impl Fn(usize) -> bool, near: usize) -> Result<(), Failure> {
        if is_target(self.blank) {
            return Ok(());
        }
        self.approach(avoid, near);
        let ((br, bc), (nr, nc)) = (self.rc(self.blank), self.rc(near));
        for margin in [1, 3, 8] {
            let window = Rect {
                top: br.min(nr).saturating_sub(margin),
                left: bc.min(nc).saturating_sub(margin),
                bottom: (br.max(nr) + margin).min(self.rows - 1),
                right: (bc.max(nc) + margin).min(self.cols - 1),
            };
            if self.search_blank(avoid, &is_target, window) {
                return Ok(());
            }
        }
        let board = Rect { top: 0, left: 0, bottom: self.rows - 1, right: self.cols - 1 };
        if self.search_blank(avoid, &is_target, board) {
            return Ok(());
        }
        Err(Failure::Stuck("no way for the blank to a tile"))
    }

    /// Walks the blank straight towards `near` while it is far (a search
    /// over the rectangle between them would cost its area), through free
    /// cells only, the longer axis first; stops where that is blocked.
    fn approach(&mut self, avoid: usize, near: usize) {
        let (nr, nc) = self.rc(near);
        loop {
            let (br, bc) = self.rc(self.blank);
            let (dr, dc) = (br.abs_diff(nr), bc.abs_diff(nc));
            if dr + dc <= 4 {
                return;
            }
            let vertical = usize::from(br < nr);
            let horizontal = if bc < nc { 3 } else { 2 };
            let order = if dr >= dc { [(vertical, dr), (horizontal, dc)] } else { [(horizontal, dc), (vertical, dr)] };
            let free = |cell: usize| !self.fixed[cell] && cell != avoid;
            let step = order
                .into_iter()
                .filter(|&(_, distance)| distance > 0)
                .map(|(m, _)| m)
                .find(|&m| self.step_from(self.blank, m).is_some_and(free));
            match step {
                Some(m) => self.push(m),
                None => return,
            }
        }
    }

    /// Breadth-first search for the blank inside `window`; makes the moves
    /// and returns `true` when it reaches a target.
    fn search_blank(&mut self, avoid: usize, is_target: &impl Fn(usize) -> bool, window: Rect) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.queue.clear();
        self.queue.push_back(self.blank as u32);
        self.seen[self.blank] = stamp;
        let mut end = None;
        'search: while let Some(cell) = self.queue.pop_front() {
            let cell = cell as usize;
            let (r, c) = self.rc(cell);
            // Neighbours inside the window (so on the board), by move.
            let neighbours = [
                (r > window.top).then(|| cell - self.cols),
                (r < window.bottom).then(|| cell + self.cols),
                (c > window.left).then(|| cell - 1),
                (c < window.right).then(|| cell + 1),
            ];
            for (m, next) in neighbours.into_iter().enumerate() {
                let Some(next) = next else { continue };
                if self.seen[next] == stamp || self.fixed[next] || next == avoid {
                    continue;
                }
                self.seen[next] = stamp;
                self.via[next] = m as u8;
                if is_target(next) {
                    end = Some(next);
                    break 'search;
                }
                self.queue.push_back(next as u32);
            }
        }
        let Some(mut cell) = end else { return false };
        let mut path = Vec::new();
        while cell != self.blank {
            let m = self.via[cell] as usize;
            path.push(m);
            cell = self.step_from(cell, m ^ 1).unwrap_or(self.blank);
        }
        path.into_iter().rev().for_each(|m| self.push(m));
        true
    }

    /// The last two cells of a line (the classic difficulty: putting `a`
    /// home first can trap `b`).
    fn place_last_two(&mut self, line: Line, a_home: usize, b_home: usize) -> Result<(), Failure> {
        let n = line.len;
        let (a, b) = (a_home as u32, b_home as u32);
        self.walk_home(a_home, line)?;
        self.fixed[a_home] = true;
        let first = n.saturating_sub(3);
        let window = line.rect((first, n - 1), (0, 2));
        // `b` goes to the third line (a staircase from further in): never
        // through the cell next to its home, whose line cell would be a
        // dead end for the blank.
        self.walk(
            b,
            |(p, d)| {
                if window.contains(line.at(p, d)) {
                    None
                } else if d == 1 || (d > 2 && d - 2 > (n - 1).abs_diff(p)) {
                    Some(line.at(p, toward(d, 2)))
                } else {
                    Some(line.at(toward(p, n - 1), d))
                }
            },
            line,
        )?;
        let b_cell = self.pos[b as usize] as usize;
        let cols = self.cols;
        self.route_blank(b_cell, |cell| window.contains((cell / cols, cell % cols)), b_home)?;
        self.fixed[a_home] = false;
        if self.place_pair(a, b, a_home, b_home, window) {
            return Ok(());
        }
        // Not expected (the window's free cells hold a 2×3 block): a wider one.
        let wider = line.rect((n.saturating_sub(4), n - 1), (0, 3));
        if self.place_pair(a, b, a_home, b_home, wider) {
            return Ok(());
        }
        Err(Failure::Stuck("no way to place the last two tiles of a line"))
    }

    /// Breadth-first search over (cell of `a`, cell of `b`, blank cell)
    /// through the window's free cells until both are home; makes the moves.
    fn place_pair(&mut self, a: u32, b: u32, a_home: usize, b_home: usize, window: Rect) -> bool {
        let cells: Vec<usize> = (window.top..=window.bottom)
            .flat_map(|r| (window.left..=window.right).map(move |c| (r, c)))
            .map(|rc| self.index(rc))
            .filter(|&i| !self.fixed[i])
            .collect();
        let local = |cell: usize| cells.iter().position(|&c| c == cell);
        let (Some(sa), Some(sb), Some(se), Some(ha), Some(hb)) = (
            local(self.pos[a as usize] as usize),
            local(self.pos[b as usize] as usize),
            local(self.blank),
            local(a_home),
            local(b_home),
        ) else {
            return false;
        };
        // Neighbours inside the window, by move.
        let next: Vec<[Option<usize>; 4]> =
            cells.iter().map(|&c| std::array::from_fn(|mv| self.step_from(c, mv).and_then(local))).collect();
        let Some(path) = pair_moves(&next, (sa, sb, se), (ha, hb)) else { return false };
        for mv in path {
            self.push(mv);
        }
        true
    }

    /// The region (every tile in it belongs to it) as a board of its own
    /// with the standard goal: local cell `i` holds tile `i + 1`, the
    /// blank's home is the region's bottom-right corner, as on the board.
    fn region_boards(&self, region: Rect) -> (Board, Board) {
        let (height, width) = (region.bottom - region.top + 1, region.right - region.left + 1);
        let local = |cell: usize| {
            let (r, c) = self.rc(cell);
            (r - region.top) * width + (c - region.left)
        };
        let last = height * width - 1;
        let tiles: Vec<Tile> = (region.top..=region.bottom)
            .flat_map(|r| (region.left..=region.right).map(move |c| (r, c)))
            .map(|rc| match local(self.cells[self.index(rc)] as usize) {
                l if l == last => BLANK,
                l => l as Tile + 1,
            })
            .collect();
        let start = Board::from_valid_cells(height, width, tiles);
        let cells = (1..=last as Tile).chain([BLANK]).collect();
        (start, Board::from_valid_cells(height, width, cells))
    }
}
