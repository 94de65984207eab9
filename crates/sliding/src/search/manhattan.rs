//! Manhattan distance plus linear conflict, for any board size.
//!
//! Linear conflict: two tiles in their goal row (column) but in the wrong
//! order there cannot pass each other without one leaving the line, two
//! moves Manhattan distance does not count. For each line we add 2 × (tiles
//! of the line minus the longest run of them already in goal order, i.e.
//! the fewest tiles that must leave). A row conflict costs vertical moves
//! and a column conflict horizontal ones, so both add to Manhattan distance.
//! A move changes the Manhattan term by ±1 and only the two lines it
//! crosses: a horizontal move changes two columns' conflicts, a vertical
//! move two rows'.

use super::Heuristic;
use crate::grid::SMALL_SIDE as MAX_SIDE;

pub(crate) struct ManhattanLc {
    rows: usize,
    cols: usize,
    blank_label: u8,
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
    values: Values,
}

/// What moves change: copied whole for undo (lines are at most 16 long).
#[derive(Clone, Copy)]
pub(crate) struct Values {
    manhattan: u32,
    conflicts: u32,
    row_conflicts: [u8; MAX_SIDE],
    col_conflicts: [u8; MAX_SIDE],
}

/// Length of the longest strictly increasing subsequence (patience sorting).
/// (Lines are at most `MAX_SIDE` long: stack arrays, no allocation in the search.)
fn longest_increasing(seq: &[u8]) -> usize {
    let mut tails = [0u8; MAX_SIDE];
    let mut len = 0;
    for &x in seq {
        let i = tails[..len].partition_point(|&t| t < x);
        tails[i] = x;
        len = len.max(i + 1);
    }
    len
}

impl ManhattanLc {
    pub(crate) fn new(rows: usize, cols: usize, blank_label: u8) -> ManhattanLc {
        let n = rows * cols;
        ManhattanLc {
            rows,
            cols,
            blank_label,
            goal_row: (0..n).map(|i| (i / cols) as u8).collect(),
            goal_col: (0..n).map(|i| (i % cols) as u8).collect(),
            values: Values { manhattan: 0, conflicts: 0, row_conflicts: [0; MAX_SIDE], col_conflicts: [0; MAX_SIDE] },
        }
    }

    fn distance(&self, label: u8, cell: usize) -> u32 {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let l = label as usize;
        (r.abs_diff(self.goal_row[l] as usize) + c.abs_diff(self.goal_col[l] as usize)) as u32
    }

    /// 2 × tiles that must leave row `r` to let the others pass.
    fn row_conflict(&self, cells: &[u8], r: usize) -> u32 {
        let mut seq = [0u8; MAX_SIDE];
        let mut n = 0;
        for &l in &cells[r * self.cols..(r + 1) * self.cols] {
            if l != self.blank_label && self.goal_row[l as usize] as usize == r {
                seq[n] = self.goal_col[l as usize];
                n += 1;
            }
        }
        2 * (n - longest_increasing(&seq[..n])) as u32
    }

    fn col_conflict(&self, cells: &[u8], c: usize) -> u32 {
        let mut seq = [0u8; MAX_SIDE];
        let mut n = 0;
        for r in 0..self.rows {
            let l = cells[r * self.cols + c];
            if l != self.blank_label && self.goal_col[l as usize] as usize == c {
                seq[n] = self.goal_row[l as usize];
                n += 1;
            }
        }
        2 * (n - longest_increasing(&seq[..n])) as u32
    }

    fn refresh_row(&mut self, cells: &[u8], r: usize) {
        let v = self.row_conflict(cells, r);
        let values = &mut self.values;
        values.conflicts = values.conflicts - values.row_conflicts[r] as u32 + v;
        values.row_conflicts[r] = v as u8;
    }

    fn refresh_col(&mut self, cells: &[u8], c: usize) {
        let v = self.col_conflict(cells, c);
        let values = &mut self.values;
        values.conflicts = values.conflicts - values.col_conflicts[c] as u32 + v;
        values.col_conflicts[c] = v as u8;
    }
}

impl Heuristic for ManhattanLc {
    type Snapshot = Values;

    fn snapshot(&self) -> Values {
        self.values
    }

    fn restore(&mut self, values: Values) {
        self.values = values;
    }

    fn reset(&mut self, cells: &[u8], _pos: &[u8]) -> u32 {
        self.values.manhattan =
            cells.iter().enumerate().filter(|&(_, &l)| l != self.blank_label).map(|(i, &l)| self.distance(l, i)).sum();
        self.values.conflicts = 0;
        for r in 0..self.rows {
            let v = self.row_conflict(cells, r);
            self.values.row_conflicts[r] = v as u8;
            self.values.conflicts += v;
        }
        for c in 0..self.cols {
            let v = self.col_conflict(cells, c);
            self.values.col_conflicts[c] = v as u8;
            self.values.conflicts += v;
        }
        self.values.manhattan + self.values.conflicts
    }

    fn update(&mut self, cells: &[u8], _pos: &[u8], label: u8, from: usize, to: usize, _limit: u32) -> u32 {
        self.values.manhattan = self.values.manhattan + self.distance(label, to) - self.distance(label, from);
        let (fr, fc) = (from / self.cols, from % self.cols);
        let (tr, tc) = (to / self.cols, to % self.cols);
        if fr == tr {
            self.refresh_col(cells, fc);
            self.refresh_col(cells, tc);
        } else {
            self.refresh_row(cells, fr);
            self.refresh_row(cells, tr);
        }
        self.values.manhattan + self.values.conflicts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_increasing_runs() {
        assert_eq!(longest_increasing(&[]), 0);
        assert_eq!(longest_increasing(&[3, 2, 1]), 1);
        assert_eq!(longest_increasing(&[1, 3, 2, 4]), 3);
    }

    #[test]
    fn a_swapped_pair_in_its_row_costs_two_more() {
        // 2×2 goal (labels = goal cells, blank label 3): swap labels 0 and 1.
        let cells = [1u8, 0, 2, 3];
        let mut h = ManhattanLc::new(2, 2, 3);
        // Manhattan 2, one row conflict (+2).
        assert_eq!(h.reset(&cells, &[1, 0, 2, 3]), 4);
    }
}
