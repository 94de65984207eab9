//! Seeded random positions, for tests, benchmarks and generators.
//! (A tiny SplitMix64 keeps the crate free of dependencies.)

use crate::board::{Board, BoardError, Tile, BLANK, MAX_CELLS};
use crate::invariant::position_invariant;
use crate::moves::Move;

/// SplitMix64 (Steele, Lea & Flood): small, fast, good enough for shuffles.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by the multiply-high method (bias < n/2⁶⁴).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

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
        cells.swap(i, rng.below(i + 1));
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
        let mv = choices[rng.below(choices.len())];
        // Legal: taken from legal_moves.
        let _ = board.apply(mv);
        previous = Some(mv);
    }
    board
}
