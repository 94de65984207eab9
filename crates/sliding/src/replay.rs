//! Replaying a move string: checks `solution "…"` claims.

use std::fmt;

use crate::board::{Board, Cell, Tile};
use crate::invariant::{check_shapes, ShapeMismatch};
use crate::moves::Move;

/// Why a move string does not (correctly) solve a position. `index` is the
/// move's 0-based position among the moves (whitespace is skipped and not
/// counted); `offset` its byte offset in the string, for editors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// A character other than `U D L R` or whitespace.
    UnknownLetter { index: usize, offset: usize, letter: char },
    /// The move would take the blank off the board.
    IllegalMove {
        index: usize,
        offset: usize,
        letter: char,
        /// Where the blank was.
        blank: Cell,
    },
    /// Start and goal have different sizes.
    Shape(ShapeMismatch),
    /// Every move was legal but the end position is not the goal.
    WrongEnd {
        /// How many moves were made.
        moves: usize,
        /// The first cell (reading order) that differs from the goal.
        cell: Cell,
        expected: Tile,
        found: Tile,
    },
}

fn describe_tile(tile: Tile) -> String {
    if tile == 0 {
        "the blank".to_string()
    } else {
        format!("tile {tile}")
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::UnknownLetter { index, letter, .. } => write!(
                f,
                "move {} is {letter:?}, which is not a move: moves are U, D, L and R, \
                 the direction the blank moves",
                index + 1
            ),
            ReplayError::IllegalMove { index, letter, blank, .. } => {
                write!(f, "move {} ({letter}) would move the blank off the board: it is at {blank}", index + 1)
            }
            ReplayError::Shape(e) => e.fmt(f),
            ReplayError::WrongEnd { moves, cell, expected, found } => write!(
                f,
                "after the {moves} moves the board is not the goal: {cell} holds {} where the \
                 goal has {}",
                describe_tile(*found),
                describe_tile(*expected)
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Parses a move string (whitespace skipped) without replaying it.
pub fn parse_moves(moves: &str) -> Result<Vec<Move>, ReplayError> {
    moves
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .enumerate()
        .map(|(index, (offset, letter))| {
            Move::from_letter(letter).ok_or(ReplayError::UnknownLetter { index, offset, letter })
        })
        .collect()
}

/// Applies the moves to `start` and returns the final board. The first
/// unknown letter or illegal move (in order) is the error.
pub fn replay(start: &Board, moves: &str) -> Result<Board, ReplayError> {
    let mut board = start.clone();
    let letters = moves.char_indices().filter(|(_, c)| !c.is_whitespace());
    for (index, (offset, letter)) in letters.enumerate() {
        let mv = Move::from_letter(letter).ok_or(ReplayError::UnknownLetter { index, offset, letter })?;
        board.apply(mv).map_err(|e| ReplayError::IllegalMove { index, offset, letter, blank: e.blank })?;
    }
    Ok(board)
}

/// Replays the moves and checks the end position is `goal`; a wrong end
/// names the first cell that differs.
pub fn replay_to_goal(start: &Board, goal: &Board, moves: &str) -> Result<(), ReplayError> {
    check_shapes(start, goal).map_err(ReplayError::Shape)?;
    let end = replay(start, moves)?;
    let mismatch = end.cells().iter().zip(goal.cells()).position(|(found, expected)| found != expected);
    match mismatch {
        None => Ok(()),
        Some(i) => Err(ReplayError::WrongEnd {
            moves: moves.chars().filter(|c| !c.is_whitespace()).count(),
            cell: Cell::new(i / goal.cols(), i % goal.cols()),
            expected: goal.cells()[i],
            found: end.cells()[i],
        }),
    }
}
