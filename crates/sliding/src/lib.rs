//! Sliding-tile puzzles (the 15 puzzle and every R×C with both sides at
//! least 2 and at most [`MAX_CELLS`] = 65,536 cells):
//! boards, the solvability invariant, replaying move strings, optimal
//! solving and constructive solving. Pure algorithms: no file formats, no
//! printing. The method and the measured figures are in
//! `docs/sliding-solver.md`.
//!
//! # API
//!
//! **Boards.** [`Board::new`]`(rows, cols, cells)` validates the cells
//! (row by row, `0` = the blank) and returns a typed [`BoardError`] naming
//! the tile or cell: a size outside 2 × 2 … [`MAX_CELLS`] cells, wrong
//! length, a tile out of range, a repeated tile, two blanks, a missing tile. [`Board::problems`] lists every problem at once
//! (for diagnostics); [`Board::from_rows`] also checks row widths.
//! [`Board::standard_goal`]`(rows, cols)` is tiles in order, blank last.
//! [`Board::legal_moves`], [`Board::neighbours`], [`Board::apply`] move the
//! blank. A [`Move`] is the direction the **blank** moves, `U D L R`.
//! [`Cell`]s are 0-based and display 1-based (`row 1, column 1`).
//!
//! ```
//! use lights_sliding::{Board, BoardError, Cell, Move};
//! let mut board = Board::new(2, 2, vec![1, 2, 0, 3]).unwrap();
//! board.apply(Move::Right).unwrap();
//! assert_eq!(board, Board::standard_goal(2, 2).unwrap());
//! assert_eq!(
//!     Board::new(2, 2, vec![1, 1, 0, 3]),
//!     Err(BoardError::RepeatedTile { tile: 1, first: Cell::new(0, 0), second: Cell::new(0, 1) })
//! );
//! ```
//!
//! **Solvability.** [`invariant`]`(&start, &goal) -> Result<`[`Invariant`]`,
//! `[`ShapeMismatch`]`>` gives both positions' values (permutation parity,
//! plus the blank's row on even widths), whether they agree (`solvable`) and
//! a paragraph explaining why (`explanation`). Any goal, not only the
//! standard one. [`position_invariant`] is one position's value.
//!
//! ```
//! use lights_sliding::{invariant, Board, Parity};
//! // Sam Loyd's puzzle: 14 and 15 swapped.
//! let loyd = Board::new(4, 4, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0]).unwrap();
//! let inv = invariant(&loyd, &Board::standard_goal(4, 4).unwrap()).unwrap();
//! assert!(!inv.solvable);
//! assert_eq!(inv.relative_parity, Parity::Odd);
//! assert!(inv.explanation.contains("an odd permutation"));
//! ```
//!
//! **Replay.** [`replay`]`(&start, moves) -> Result<Board, `[`ReplayError`]`>`
//! applies a move string (whitespace ignored); an unknown letter or a move
//! off the board is an error with the move's 0-based `index`, byte `offset`
//! and letter. [`replay_to_goal`] also checks the end position and names
//! the first cell that differs. [`parse_moves`] only parses.
//!
//! ```
//! use lights_sliding::{replay, Board, ReplayError};
//! let goal = Board::standard_goal(3, 3).unwrap();
//! assert!(matches!(
//!     replay(&goal, "ULDD"),
//!     Err(ReplayError::IllegalMove { index: 3, letter: 'D', .. })
//! ));
//! ```
//!
//! **Solving.** [`solve`]`(&start, &goal, &`[`SolveOptions`]`) ->
//! Result<`[`Solution`]`, `[`SolveError`]`>`. The invariant is checked first
//! ([`SolveError::Unsolvable`] carries it). With the default
//! [`Strategy::Auto`], boards of up to 16 cells (but not 2×7, 2×8, 7×2,
//! 8×2) are solved optimally by IDA* — 4×4 with pattern databases when the
//! goal's blank is in a corner (the 6-6-3 ones when this process holds them
//! or the caller's store has them; otherwise quick 5-5-5 ones built in
//! tenths of a second, and the 6-6-3 ones built and stored only once the
//! process has spent [`SMALL_TABLES_NODES`] nodes with those — the same
//! moves either way), otherwise with Manhattan distance + linear conflict. Larger
//! boards, and searches past `node_limit` nodes ([`DEFAULT_NODE_LIMIT`]),
//! get the constructive method's answer (line by line; its last 4×4 or 3×3
//! solved optimally; boards with a side above 16 are first reduced to
//! 16×16 with placements that scale) with `optimal: false` unless its
//! length meets the proven `lower_bound`. `OptimalOnly` on a side above 16
//! is [`SolveError::TooLarge`]. `Solution { moves, optimal, lower_bound, method,
//! nodes, pdb_source }`. Options (all with defaults): `strategy` (`Auto`,
//! `OptimalOnly`, `NonOptimal`), `max_optimal_cells`, `node_limit`,
//! `pattern_databases`, `tables` (a [`TableStore`]), `progress` (a
//! `&dyn Fn(`[`BuildProgress`]`)` while the tables load or build) and
//! `cancel` (a `&dyn Fn() -> bool` polled regularly →
//! [`SolveError::Cancelled`]). Every solution is replayed before it is
//! returned; a failure there is [`SolveError::Internal`] (a bug, never
//! expected), not a panic.
//!
//! ```
//! use lights_sliding::{solve, Board, SolveOptions};
//! let start = Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
//! let goal = Board::standard_goal(3, 3).unwrap();
//! let solution = solve(&start, &goal, &SolveOptions::default()).unwrap();
//! assert_eq!((solution.len(), solution.optimal), (31, true));
//! ```
//!
//! **Pattern databases.** [`pattern_databases`] returns the 4×4 tables
//! (from memory, the caller's [`TableStore`], or a build), so a front end can
//! prepare them with a progress bar before solving. The library reads no
//! environment and writes no files: a store decides where the bytes of
//! [`PatternDatabases::to_bytes`] are kept ([`PDB_FILE_NAME`] is the name to
//! give them); [`load_or_build`] does the same without keeping the tables
//! in memory. [`stored_pattern_databases`] only loads (memory or store,
//! never a build), and [`set_default_table_store`] names the store (and the
//! build's progress) for solves whose options name none.
//!
//! **Random positions.** [`random_solvable`]`(&goal, seed)` (uniform among
//! the positions that reach `goal`) and [`random_walk`]`(&goal, steps,
//! seed)`, seeded and reproducible.

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod board;
mod constructive;
mod grid;
mod invariant;
mod large;
mod moves;
mod pair;
mod pdb;
mod random;
mod replay;
mod search;
mod solve;
mod staged;

pub use board::{Board, BoardError, Cell, OffBoard, Tile, BLANK, MAX_CELLS, MIN_SIDE};
pub use invariant::{invariant, position_invariant, Invariant, Parity, PositionInvariant, ShapeMismatch};
pub use moves::{moves_to_string, Move};
pub use pdb::cache::{
    load_or_build, pattern_databases, stored_pattern_databases, CacheError, PdbSource, TableStore, PDB_FILE_NAME,
};
pub use pdb::{BuildProgress, BuildStage, Cancelled, PatternDatabases};
pub use random::{random_position, random_solvable, random_walk, SplitMix64};
pub use replay::{parse_moves, replay, replay_to_goal, ReplayError};
pub use solve::{
    estimated_moves, solve, Method, Solution, SolveError, SolveOptions, Strategy, DEFAULT_NODE_LIMIT,
    NARROW_OPTIMAL_CELLS,
};
pub use staged::{set_default_table_store, small_table_nodes, SMALL_TABLES_NODES};
