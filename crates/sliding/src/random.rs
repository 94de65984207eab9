//! Seeded random positions, for tests, benchmarks and generators, drawn
//! with the workspace's one SplitMix64 (`lights_algebra::SplitMix64`,
//! re-exported here) and its multiply-high `index_below`.

use crate::board::{Board, BoardError, Tile, BLANK, MAX_CELLS};
use crate::invariant::position_invariant;
use crate::moves::Move;

pub use lights_algebra::SplitMix64;

/// A position drawn uniformly among those that can reach `goal`: a uniform
/// shuffle, and if it lands in the other half, two tiles swapped (a
/// bijection between the halves, so the result stays uniform).
pub fn random_solvable(goal: &Board, seed: u64) -> Board {
    let mut cells: Vec<Tile> = goal.cells().to_vec();
    shuffle(&mut cells, seed);
    let mut board = Board::from_valid_cells(goal.rows(), goal.cols(), cells.clone());
    if position_invariant(&board).value != position_invariant(goal).value {
        let mut tiles = (0..cells.len()).filter(|&i| cells[i] != BLANK);
        if let (Some(i), Some(j)) = (tiles.next(), tiles.next()) {
            cells.swap(i, j);
        }
        board = Board::from_valid_cells(goal.rows(), goal.cols(), cells);
    }
    board
}

/// Any arrangement of the tiles of a `rows`×`cols` board, uniformly (either
/// half: it may or may not reach a given goal); the size must be one
/// [`Board::new`] accepts.
pub fn random_position(rows: usize, cols: usize, seed: u64) -> Result<Board, BoardError> {
    let n = rows.checked_mul(cols).filter(|&n| n <= MAX_CELLS).unwrap_or(0);
    let mut cells: Vec<Tile> = (0..n as Tile).collect();
    shuffle(&mut cells, seed);
    Board::new(rows, cols, cells)
}

/// A uniform (Fisher–Yates) shuffle.
fn shuffle(cells: &mut [Tile], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.index_below(i + 1));
    }
}

/// `steps` random moves from `goal`, never undoing the previous move: a
/// position at most `steps` moves from the goal.
pub fn random_walk(goal: &Board, steps: usize, seed: u64) -> Board {
    let mut rng = SplitMix64::new(seed);
    let mut board = goal.clone();
    let mut previous: Option<Move> = None;
    for _ in 0..steps {
        let choices: Vec<Move> = board.legal_moves().into_iter().filter(|&m| Some(m.opposite()) != previous).collect();
        let mv = choices[rng.index_below(choices.len())];
        // Legal: taken from legal_moves.
        let _ = board.apply(mv);
        previous = Some(mv);
    }
    board
}
