//! Solvability by the invariant (Johnson & Story, 1879; docs/sliding-solver.md).
//!
//! Read the tiles row by row, skipping the blank. A horizontal move keeps
//! that order; a vertical move carries one tile past `width − 1` others. For
//! an odd width that is an even number of transpositions, so the parity of
//! the permutation never changes; for an even width it is odd, and the blank
//! changes row at the same time, so *parity + blank's row* (mod 2) never
//! changes. Two positions are mutually reachable exactly when these values
//! agree (the reachable set is half of all positions), so comparing start and
//! goal decides solvability for any goal.

use std::fmt;

use crate::board::{Board, Tile, BLANK};

/// Even or odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parity {
    Even,
    Odd,
}

impl Parity {
    pub fn of(n: u64) -> Parity {
        if n.is_multiple_of(2) {
            Parity::Even
        } else {
            Parity::Odd
        }
    }
}

impl fmt::Display for Parity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parity::Even => "even",
            Parity::Odd => "odd",
        })
    }
}

/// The invariant of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionInvariant {
    /// Pairs of tiles out of numeric order, reading row by row with the blank skipped.
    pub inversions: u64,
    /// The parity of `inversions`: the permutation's parity.
    pub parity: Parity,
    /// The blank's row, 0-based from the top.
    pub blank_row: usize,
    /// `inversions (+ blank_row + 1 on even widths) mod 2`: moves never change it.
    pub value: u8,
}

/// Start and goal compared by the invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub rows: usize,
    pub cols: usize,
    pub start: PositionInvariant,
    pub goal: PositionInvariant,
    /// Pairs of tiles whose order (row by row, blank skipped) differs
    /// between start and goal: the inversions of the permutation taking the
    /// goal's tiles to the start's.
    pub out_of_order_pairs: u64,
    /// The one such pair (smaller tile first) when there is exactly one.
    pub swapped_pair: Option<(Tile, Tile)>,
    /// The parity of that permutation (`start.parity` relative to `goal.parity`).
    pub relative_parity: Parity,
    /// Whether the blank's row counts (even widths).
    pub counts_blank_row: bool,
    /// The two values agree: the goal is reachable from the start.
    pub solvable: bool,
    /// One paragraph saying why, for people.
    pub explanation: String,
}

/// The size of two boards that should have the same size but do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeMismatch {
    pub start: (usize, usize),
    pub goal: (usize, usize),
}

impl fmt::Display for ShapeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the start is {}×{} but the goal is {}×{}", self.start.0, self.start.1, self.goal.0, self.goal.1)
    }
}

impl std::error::Error for ShapeMismatch {}

pub(crate) fn check_shapes(start: &Board, goal: &Board) -> Result<(), ShapeMismatch> {
    let (s, g) = ((start.rows(), start.cols()), (goal.rows(), goal.cols()));
    if s == g {
        Ok(())
    } else {
        Err(ShapeMismatch { start: s, goal: g })
    }
}

/// Inversions of a permutation of `0..n` (or any distinct numbers below
/// `n + 1`) in O(n log n): a Fenwick tree counts, for each number, the
/// larger ones already seen. Boards have up to 65,536 cells, where the
/// O(n²) pair count would take seconds.
fn inversions(seq: &[usize]) -> u64 {
    let size = seq.iter().max().map_or(0, |&m| m + 1);
    // tree[i] (1-based) counts the numbers seen in a range ending at i.
    let mut tree = vec![0u32; size + 1];
    let mut count = 0u64;
    for (seen, &a) in seq.iter().enumerate() {
        // Numbers ≤ a seen so far.
        let mut not_greater = 0u64;
        let mut i = a + 1;
        while i > 0 {
            not_greater += u64::from(tree[i]);
            i &= i - 1;
        }
        count += seen as u64 - not_greater;
        let mut i = a + 1;
        while i <= size {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    count
}

fn tiles_in_reading_order(board: &Board) -> Vec<usize> {
    board.cells().iter().filter(|&&t| t != BLANK).map(|&t| t as usize).collect()
}

/// The invariant of one position.
pub fn position_invariant(board: &Board) -> PositionInvariant {
    let inversions = inversions(&tiles_in_reading_order(board));
    let blank_row = board.blank().row;
    let row_term = if board.cols().is_multiple_of(2) { blank_row as u64 + 1 } else { 0 };
    PositionInvariant {
        inversions,
        parity: Parity::of(inversions),
        blank_row,
        value: ((inversions + row_term) % 2) as u8,
    }
}

/// Compares start and goal (any goal, not only the standard one).
pub fn invariant(start: &Board, goal: &Board) -> Result<Invariant, ShapeMismatch> {
    check_shapes(start, goal)?;
    let start_inv = position_invariant(start);
    let goal_inv = position_invariant(goal);

    // Name each tile by its index in the goal's reading order.
    let goal_order = tiles_in_reading_order(goal);
    let mut rank = vec![0usize; goal_order.len() + 1];
    for (i, &t) in goal_order.iter().enumerate() {
        rank[t] = i;
    }
    let relative: Vec<usize> = tiles_in_reading_order(start).iter().map(|&t| rank[t]).collect();
    let out_of_order_pairs = inversions(&relative);
    let swapped_pair = (out_of_order_pairs == 1).then(|| {
        // The one inversion is two neighbours in reading order.
        let i = (0..relative.len() - 1).find(|&i| relative[i] > relative[i + 1]).unwrap_or(0);
        let (a, b) = (goal_order[relative[i + 1]], goal_order[relative[i]]);
        (a.min(b) as Tile, a.max(b) as Tile)
    });

    let counts_blank_row = start.cols().is_multiple_of(2);
    let solvable = start_inv.value == goal_inv.value;
    let mut inv = Invariant {
        rows: start.rows(),
        cols: start.cols(),
        start: start_inv,
        goal: goal_inv,
        out_of_order_pairs,
        swapped_pair,
        relative_parity: Parity::of(out_of_order_pairs),
        counts_blank_row,
        solvable,
        explanation: String::new(),
    };
    inv.explanation = explain(&inv);
    Ok(inv)
}

fn an(parity: Parity) -> &'static str {
    match parity {
        Parity::Even => "an even",
        Parity::Odd => "an odd",
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

fn explain(inv: &Invariant) -> String {
    let pairs = match (inv.out_of_order_pairs, inv.swapped_pair) {
        (0, _) => "no two tiles are in the opposite order".to_string(),
        (1, Some((a, b))) => format!("only tiles {a} and {b} are in the opposite order"),
        (n, _) => format!("{} in the opposite order", plural(n, "pair of tiles is", "pairs of tiles are")),
    };
    let w = inv.cols;
    let passed = plural(w as u64 - 1, "other", "others");
    let perm = format!(
        "The tiles, read row by row with the blank skipped, are {} permutation of the goal's ({pairs})",
        an(inv.relative_parity)
    );
    if !inv.counts_blank_row {
        let verdict = if inv.solvable {
            "it is the parity the goal needs, so the goal can be reached"
        } else {
            "so the puzzle can never be solved"
        };
        return format!(
            "{perm}. On a board {w} wide, a horizontal move keeps the tiles' order and a \
             vertical move carries one tile past {passed}, an even number: no move changes \
             the permutation's parity; {verdict}."
        );
    }
    let (rs, rg) = (inv.start.blank_row, inv.goal.blank_row);
    let rows_apart = rs.abs_diff(rg) as u64;
    let blank = if rows_apart == 0 {
        format!("the blank is in row {} in both", rs + 1)
    } else {
        format!("the blank is in row {}, {} from the goal's row {}", rs + 1, plural(rows_apart, "row", "rows"), rg + 1)
    };
    let total = Parity::of(inv.out_of_order_pairs + rows_apart);
    let outcome = if inv.solvable { "so the goal can be reached" } else { "so the puzzle can never be solved" };
    let verdict = format!(
        "here that is {} permutation and {}, {total} in all, {outcome}",
        an(inv.relative_parity),
        plural(rows_apart, "row", "rows")
    );
    format!(
        "{perm}, and {blank}. On a board {w} wide, a horizontal move keeps the tiles' order \
         and a vertical move carries one tile past {passed}, an odd number: it flips the \
         permutation's parity and moves the blank one row, so the parity of the permutation \
         plus the number of rows the blank is from the goal's row must be even to reach the \
         goal; {verdict}."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inversions_count_pairs_out_of_order() {
        assert_eq!(inversions(&[1, 2, 3]), 0);
        assert_eq!(inversions(&[3, 2, 1]), 3);
        assert_eq!(inversions(&[2, 1, 4, 3]), 2);
        assert_eq!(inversions(&[]), 0);
        assert_eq!(inversions(&[5, 9, 1, 7]), 3);
    }
}
