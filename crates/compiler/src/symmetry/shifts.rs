//! Shifts that map a puzzle onto itself, for the window search of the
//! minimum (`lights_algebra::window_search`).
//!
//! A candidate shift moves every cell one column to the right (the last
//! column onto the first, upside down when that seam is twisted), or one row
//! down. It is a symmetry of the puzzle when it maps every button's press
//! pattern onto the shifted button's, and keeps holes, locked buttons and
//! what each light needs: then it maps the solutions onto the solutions,
//! press for press. Whether it is one is *checked* here on the press
//! patterns, not read off the surface's name, so a board with lights, holes
//! or locks that break the symmetry simply has none.
//!
//! Its powers move column 0 onto each column in turn, so the columns are
//! `cols` copies of one window that cover each cell once (rows alike).

use crate::lower::press_pattern_into;
use crate::model::{Puzzle, Shape};
use lights_algebra::SymmetricWindow as Window;

/// Work units per press-pattern entry compared.
const ENTRY_UNITS: u64 = 2;

/// The windows of the shifts that are symmetries of `p`: column 0 with the
/// `cols` columns as copies when shifting the columns is one, row 0 with the
/// rows when shifting the rows is one. Checking costs a pass over the press
/// patterns per candidate, taken off `*units`; none is checked that the
/// units do not cover.
pub(crate) fn symmetric_windows(p: &Puzzle, units: &mut u64) -> Vec<Window> {
    let (rows, cols) = (p.rows, p.cols);
    if p.shape != Shape::Square || rows == 0 || cols == 0 || rows.checked_mul(cols) != Some(p.cells()) {
        return Vec::new();
    }
    // A check that the units could not finish is not started: a board of
    // 10^8 cells would spend them all and learn nothing.
    let mut one = Vec::new();
    press_pattern_into(p, rows / 2, cols / 2, &mut one);
    let check = (p.cells() as u64).saturating_mul(2 * one.len() as u64 + 1).saturating_mul(ENTRY_UNITS);
    if check > *units {
        return Vec::new();
    }
    let mut out = Vec::new();
    // Shifting the columns: (r, c) → (r, c + 1); the last column to the
    // first, as is or upside down.
    if cols > 1 {
        for twisted in [false, true] {
            let shift = |i: usize| {
                let (r, c) = (i / cols, i % cols);
                match (c + 1 < cols, twisted) {
                    (true, _) => i + 1,
                    (false, false) => r * cols,
                    (false, true) => (rows - 1 - r) * cols,
                }
            };
            if is_symmetry(p, &shift, units) {
                out.push(Window { cells: (0..rows).map(|r| r * cols).collect(), copies: cols as u64 });
                break;
            }
        }
    }
    if rows > 1 {
        for twisted in [false, true] {
            let shift = |i: usize| {
                let (r, c) = (i / cols, i % cols);
                match (r + 1 < rows, twisted) {
                    (true, _) => i + cols,
                    (false, false) => c,
                    (false, true) => cols - 1 - c,
                }
            };
            if is_symmetry(p, &shift, units) {
                out.push(Window { cells: (0..cols).collect(), copies: rows as u64 });
                break;
            }
        }
    }
    out
}

/// Whether the permutation `shift` of the cells maps `p` onto itself: holes,
/// locks and needs kept, and the press pattern of `shift(j)` the image of
/// `j`'s, coefficient for coefficient. `false` when `*units` runs out.
fn is_symmetry(p: &Puzzle, shift: &dyn Fn(usize) -> usize, units: &mut u64) -> bool {
    let (n, w) = (p.cells(), p.states);
    let (mut here, mut there) = (Vec::new(), Vec::new());
    for j in 0..n {
        let k = shift(j);
        if p.is_hole(j) != p.is_hole(k) || p.is_locked(j) != p.is_locked(k) || p.need(j) != p.need(k) {
            return false;
        }
        press_pattern_into(p, j / p.cols, j % p.cols, &mut here);
        press_pattern_into(p, k / p.cols, k % p.cols, &mut there);
        let Some(left) = units.checked_sub((here.len() + there.len() + 1) as u64 * ENTRY_UNITS) else {
            return false;
        };
        *units = left;
        for (i, _) in &mut here {
            *i = shift(*i);
        }
        if normalized(&mut here, w) != normalized(&mut there, w) {
            return false;
        }
    }
    true
}

/// A press pattern as sorted `(cell, coefficient mod w)` with repeats added
/// up and zeros dropped (a small board can reach a cell twice).
fn normalized(pattern: &mut Vec<(usize, u32)>, w: u32) -> &[(usize, u32)] {
    for (_, a) in pattern.iter_mut() {
        *a %= w;
    }
    pattern.sort_unstable();
    pattern.dedup_by(|later, kept| {
        let same = later.0 == kept.0;
        if same {
            kept.1 = (kept.1 + later.1) % w;
        }
        same
    });
    pattern.retain(|&(_, a)| a != 0);
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Rule, Topology};

    fn board(rows: usize, cols: usize, rule: &str, topology: Topology) -> Puzzle {
        let mut p = Puzzle::new(rows, cols, 2, Rule::from_name(rule).expect("a rule"), topology);
        for i in 0..p.cells() {
            p.lights.set(i, 1);
        }
        p
    }

    fn copies(p: &Puzzle) -> Vec<u64> {
        copies_within(p, &mut u64::MAX.clone())
    }

    fn copies_within(p: &Puzzle, units: &mut u64) -> Vec<u64> {
        symmetric_windows(p, units).iter().map(|w| w.copies).collect()
    }

    /// A shift along a side glued as is or twisted, when the other seam (if
    /// any) is not twisted: on the Klein bottle the columns' shift breaks at
    /// the twisted top and bottom (`(0, c)` meets `(R−1, C−1−c)`), so only
    /// the rows' shift, across the twist, is a symmetry.
    #[test]
    fn surfaces_have_the_shifts_of_their_glued_sides() {
        for rule in ["cross", "king", "merlin"] {
            // Columns first (`cols` copies), then rows.
            assert_eq!(copies(&board(5, 7, rule, Topology::Torus)), vec![7, 5], "{rule}");
            assert_eq!(copies(&board(5, 7, rule, Topology::Cylinder)), vec![7], "{rule}");
            assert_eq!(copies(&board(5, 7, rule, Topology::Mobius)), vec![7], "{rule}");
            assert_eq!(copies(&board(5, 7, rule, Topology::Klein)), vec![5], "{rule}");
            assert_eq!(copies(&board(5, 7, rule, Topology::Plane)), Vec::<u64>::new(), "{rule}");
            assert_eq!(copies(&board(5, 7, rule, Topology::Projective)), Vec::<u64>::new(), "{rule}");
        }
    }

    #[test]
    fn lights_locks_and_holes_that_break_the_symmetry_remove_it() {
        let mut p = board(4, 6, "cross", Topology::Torus);
        p.lights.set(0, 0);
        assert_eq!(copies(&p), Vec::<u64>::new());
        let mut p = board(4, 6, "cross", Topology::Torus);
        p.locked.set(3, 1);
        assert_eq!(copies(&p), Vec::<u64>::new());
        // A whole row of lights off keeps the shift along the row.
        let mut p = board(4, 6, "cross", Topology::Torus);
        for c in 0..6 {
            p.lights.set(6 + c, 0);
        }
        assert_eq!(copies(&p), vec![6]);
    }

    #[test]
    fn checking_stops_when_the_units_run_out() {
        let p = board(6, 6, "cross", Topology::Torus);
        let mut units = 100;
        assert!(symmetric_windows(&p, &mut units).is_empty());
        assert_eq!(units, 100, "a check the units cannot finish is not started");
        // A check costs 36 cells × (5 + 5 + 1) entries × 2 units = 792: one
        // shift is proven, the other runs out.
        let mut units = 800;
        assert_eq!(copies_within(&p, &mut units), vec![6]);
        assert_eq!(units, 8);
    }
}
