//! Moves: the direction the blank moves (`U D L R`).

use std::fmt;

/// One move, named by the direction the **blank** moves: `Up` slides the
/// tile above the blank down into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Up,
    Down,
    Left,
    Right,
}

impl Move {
    /// In the order the searches try them; `index() ^ 1` is the opposite move.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The letter of the move: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// The move a letter names (upper case only), `None` for any other character.
    pub fn from_letter(letter: char) -> Option<Move> {
        match letter {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The move that undoes this one.
    pub fn opposite(self) -> Move {
        Move::ALL[self.index() ^ 1]
    }

    /// Position in [`Move::ALL`].
    pub(crate) fn index(self) -> usize {
        match self {
            Move::Up => 0,
            Move::Down => 1,
            Move::Left => 2,
            Move::Right => 3,
        }
    }

    /// Row and column change of the blank.
    pub(crate) fn delta(self) -> (isize, isize) {
        match self {
            Move::Up => (-1, 0),
            Move::Down => (1, 0),
            Move::Left => (0, -1),
            Move::Right => (0, 1),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The letters of a sequence of moves, e.g. `"ULDR"`.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Removes every move immediately undone by the next one (`UD`, `LR`, …),
/// repeatedly: the result reaches the same position.
pub(crate) fn cancel_back_and_forth(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &m in moves {
        if out.last() == Some(&m.opposite()) {
            out.pop();
        } else {
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip_and_opposites_pair_up() {
        for m in Move::ALL {
            assert_eq!(Move::from_letter(m.letter()), Some(m));
            assert_eq!(m.opposite().opposite(), m);
            assert_ne!(m.opposite(), m);
            let (dr, dc) = m.delta();
            let (or, oc) = m.opposite().delta();
            assert_eq!((dr + or, dc + oc), (0, 0));
        }
        assert_eq!(Move::from_letter('u'), None);
    }

    #[test]
    fn back_and_forth_pairs_cancel() {
        let moves: Vec<Move> = "ULRDDUR".chars().filter_map(Move::from_letter).collect();
        assert_eq!(moves_to_string(&cancel_back_and_forth(&moves)), "R");
    }
}
