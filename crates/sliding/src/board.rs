//! Boards: validated positions of the tiles `1..R·C−1` and one blank (`0`).

use std::fmt;

use crate::moves::Move;

/// A tile's number; [`BLANK`] (`0`) is the empty cell.
pub type Tile = u32;

/// The empty cell.
pub const BLANK: Tile = 0;

/// Smallest number of rows or columns.
pub const MIN_SIDE: usize = 2;

/// Most cells a board may have (rows × cols), as in the `.lights` language.
pub const MAX_CELLS: usize = 65_536;

/// A cell, 0-based (`row 0, col 0` is the top-left). Displays 1-based, like
/// the `.lights` language: `row 1, column 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

impl Cell {
    pub fn new(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row + 1, self.col + 1)
    }
}

/// What is wrong with the numbers given for a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A side below [`MIN_SIDE`], or more than [`MAX_CELLS`] cells.
    Size { rows: usize, cols: usize },
    /// The number of cells is not `rows × cols`.
    WrongLength { rows: usize, cols: usize, expected: usize, found: usize },
    /// A row of [`Board::from_rows`] has another width than the first row.
    RowWidth { row: usize, expected: usize, found: usize },
    /// A tile larger than `rows × cols − 1`.
    TileOutOfRange { tile: Tile, cell: Cell, max: Tile },
    /// A tile (not the blank) that appears a second time.
    RepeatedTile { tile: Tile, first: Cell, second: Cell },
    /// A second blank.
    TwoBlanks { first: Cell, second: Cell },
    /// A tile of `1..rows × cols − 1` that appears nowhere.
    MissingTile { tile: Tile },
    /// No cell is blank.
    MissingBlank,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Size { rows, cols } => {
                write!(
                    f,
                    "a sliding puzzle needs at least {MIN_SIDE} rows and {MIN_SIDE} columns and at most 65,536 cells, \
                     not {rows}×{cols}"
                )
            }
            BoardError::WrongLength { rows, cols, expected, found } => {
                write!(f, "a {rows}×{cols} board has {expected} cells, but {found} were given")
            }
            BoardError::RowWidth { row, expected, found } => {
                write!(f, "row {} has {found} cells, but the board is {expected} wide", row + 1)
            }
            BoardError::TileOutOfRange { tile, cell, max } => {
                write!(f, "tile {tile} at {cell} is out of range: the tiles are 1 to {max}")
            }
            BoardError::RepeatedTile { tile, first, second } => {
                write!(f, "tile {tile} appears twice: at {first} and at {second}")
            }
            BoardError::TwoBlanks { first, second } => {
                write!(f, "two blanks: at {first} and at {second}")
            }
            BoardError::MissingTile { tile } => write!(f, "tile {tile} is missing"),
            BoardError::MissingBlank => write!(f, "the board has no blank"),
        }
    }
}

impl std::error::Error for BoardError {}

/// A legal position: every tile `1..rows·cols−1` once and one blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    /// Row-major.
    cells: Vec<Tile>,
    blank: usize,
}

/// The move would take the blank off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffBoard {
    pub mv: Move,
    pub blank: Cell,
}

impl fmt::Display for OffBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} would move the blank off the board (it is at {})", self.mv, self.blank)
    }
}

impl std::error::Error for OffBoard {}

fn check_size(rows: usize, cols: usize) -> Result<(), BoardError> {
    let cells = rows.saturating_mul(cols);
    if rows >= MIN_SIDE && cols >= MIN_SIDE && cells <= MAX_CELLS {
        Ok(())
    } else {
        Err(BoardError::Size { rows, cols })
    }
}

impl Board {
    /// A board from its cells, row by row (`0` is the blank). The first
    /// problem found is the error; [`Board::problems`] lists them all.
    pub fn new(rows: usize, cols: usize, cells: Vec<Tile>) -> Result<Board, BoardError> {
        if let Some(first) = Board::problems(rows, cols, &cells).into_iter().next() {
            return Err(first);
        }
        let blank = cells.iter().position(|&t| t == BLANK).unwrap_or(0);
        Ok(Board { rows, cols, cells, blank })
    }

    /// A board from its rows; the width is the first row's.
    pub fn from_rows(rows: &[Vec<Tile>]) -> Result<Board, BoardError> {
        let cols = rows.first().map_or(0, Vec::len);
        for (i, row) in rows.iter().enumerate() {
            if row.len() != cols {
                return Err(BoardError::RowWidth { row: i, expected: cols, found: row.len() });
            }
        }
        Board::new(rows.len(), cols, rows.concat())
    }

    /// Every problem with these cells: a bad size or length alone (nothing
    /// else is checked then), else each tile out of range and each repeat
    /// in reading order (a second blank is [`BoardError::TwoBlanks`]), then
    /// each missing tile and a missing blank. Empty when [`Board::new`]
    /// succeeds.
    pub fn problems(rows: usize, cols: usize, cells: &[Tile]) -> Vec<BoardError> {
        if let Err(e) = check_size(rows, cols) {
            return vec![e];
        }
        let len = rows * cols;
        if cells.len() != len {
            return vec![BoardError::WrongLength { rows, cols, expected: len, found: cells.len() }];
        }
        let max = (len - 1) as Tile;
        let cell_of = |i: usize| Cell::new(i / cols, i % cols);
        let mut problems = Vec::new();
        let mut first_seen: Vec<Option<usize>> = vec![None; len];
        for (i, &tile) in cells.iter().enumerate() {
            if tile > max {
                problems.push(BoardError::TileOutOfRange { tile, cell: cell_of(i), max });
                continue;
            }
            match first_seen[tile as usize] {
                None => first_seen[tile as usize] = Some(i),
                Some(first) if tile == BLANK => {
                    problems.push(BoardError::TwoBlanks { first: cell_of(first), second: cell_of(i) });
                }
                Some(first) => {
                    problems.push(BoardError::RepeatedTile { tile, first: cell_of(first), second: cell_of(i) });
                }
            }
        }
        for tile in 1..=max {
            if first_seen[tile as usize].is_none() {
                problems.push(BoardError::MissingTile { tile });
            }
        }
        if first_seen[BLANK as usize].is_none() {
            problems.push(BoardError::MissingBlank);
        }
        problems
    }

    /// The usual goal: tiles `1, 2, …` row by row, the blank last.
    pub fn standard_goal(rows: usize, cols: usize) -> Result<Board, BoardError> {
        check_size(rows, cols)?;
        let len = rows * cols;
        let cells = (1..len as Tile).chain([BLANK]).collect();
        Ok(Board { rows, cols, cells, blank: len - 1 })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The tiles row by row, `0` for the blank.
    pub fn cells(&self) -> &[Tile] {
        &self.cells
    }

    /// The tile at a cell (`Some(0)` for the blank), `None` off the board.
    pub fn tile_at(&self, cell: Cell) -> Option<Tile> {
        (cell.row < self.rows && cell.col < self.cols).then(|| self.cells[cell.row * self.cols + cell.col])
    }

    /// Where the blank is.
    pub fn blank(&self) -> Cell {
        self.cell_of(self.blank)
    }

    /// Where a tile is (`0` finds the blank), `None` for a number not on the board.
    pub fn position_of(&self, tile: Tile) -> Option<Cell> {
        self.cells.iter().position(|&t| t == tile).map(|i| self.cell_of(i))
    }

    /// The moves that keep the blank on the board, in `U D L R` order.
    pub fn legal_moves(&self) -> Vec<Move> {
        Move::ALL.into_iter().filter(|&m| self.target(m).is_some()).collect()
    }

    /// Each legal move with the position it leads to.
    pub fn neighbours(&self) -> Vec<(Move, Board)> {
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                // Legal by construction.
                let _ = next.apply(m);
                (m, next)
            })
            .collect()
    }

    /// Moves the blank one cell (the tile there takes its place).
    pub fn apply(&mut self, mv: Move) -> Result<(), OffBoard> {
        let to = self.target(mv).ok_or(OffBoard { mv, blank: self.blank() })?;
        self.cells.swap(self.blank, to);
        self.blank = to;
        Ok(())
    }

    /// The cell index the blank would move to.
    fn target(&self, mv: Move) -> Option<usize> {
        let (dr, dc) = mv.delta();
        let row = (self.blank / self.cols).checked_add_signed(dr)?;
        let col = (self.blank % self.cols).checked_add_signed(dc)?;
        (row < self.rows && col < self.cols).then_some(row * self.cols + col)
    }

    fn cell_of(&self, index: usize) -> Cell {
        Cell::new(index / self.cols, index % self.cols)
    }

    /// A board from cells known to be a permutation (shuffles, relabellings).
    pub(crate) fn from_valid_cells(rows: usize, cols: usize, cells: Vec<Tile>) -> Board {
        debug_assert!(Board::problems(rows, cols, &cells).is_empty());
        let blank = cells.iter().position(|&t| t == BLANK).unwrap_or(0);
        Board { rows, cols, cells, blank }
    }

    /// The row-major index of the blank.
    pub(crate) fn blank_index(&self) -> usize {
        self.blank
    }
}

/// The grid with `.` for the blank, numbers right-aligned.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = (self.cells.len() - 1).to_string().len();
        for (r, row) in self.cells.chunks(self.cols).enumerate() {
            if r > 0 {
                writeln!(f)?;
            }
            for (c, &tile) in row.iter().enumerate() {
                if c > 0 {
                    write!(f, " ")?;
                }
                if tile == BLANK {
                    write!(f, "{:>width$}", ".")?;
                } else {
                    write!(f, "{tile:>width$}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_goal_has_tiles_in_order_and_blank_last() {
        let goal = Board::standard_goal(2, 3).unwrap();
        assert_eq!(goal.cells(), &[1, 2, 3, 4, 5, 0]);
        assert_eq!(goal.blank(), Cell::new(1, 2));
        assert_eq!(goal.to_string(), "1 2 3\n4 5 .");
        assert_eq!(goal.legal_moves(), vec![Move::Up, Move::Left]);
    }

    #[test]
    fn moves_swap_the_blank_with_a_neighbour() {
        let mut b = Board::standard_goal(3, 3).unwrap();
        b.apply(Move::Up).unwrap();
        assert_eq!(b.cells(), &[1, 2, 3, 4, 5, 0, 7, 8, 6]);
        assert_eq!(b.apply(Move::Right), Err(OffBoard { mv: Move::Right, blank: Cell::new(1, 2) }));
        let n = b.neighbours();
        assert_eq!(n.len(), 3);
        assert_eq!(n[1].0, Move::Down);
        assert_eq!(n[1].1, Board::standard_goal(3, 3).unwrap());
    }
}
