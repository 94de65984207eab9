//! Lowering a puzzle to its linear system `A·x ≡ goal − lights (mod W)`.
//!
//! Column j of A is the press pattern of the j-th free (unlocked) cell: the
//! cells it changes and by how much, after the topology has mapped
//! neighbours that fall off the board (docs/language.md, "Rules"
//! and "Topologies"). Rows are all cells, row-major.

use lights_algebra::SparseMatrix;

use std::cell::RefCell;
use std::collections::HashSet;

use crate::model::{Gluing, Puzzle, Rule, Shape, Stencil, Topology};

/// The linear system of a puzzle.
#[derive(Clone, Debug)]
pub struct LinearSystem {
    pub matrix: SparseMatrix,
    /// `goal − lights` mod W, one entry per cell.
    pub rhs: Vec<u32>,
    /// The cell (row-major index) of each unknown: the free cells in order.
    pub unknowns: Vec<usize>,
    pub modulus: u32,
}

pub fn lower(p: &Puzzle) -> LinearSystem {
    match lower_cancellable(p, &|| false) {
        Some(system) => system,
        None => unreachable!("lowering stops only when cancelled"),
    }
}

/// [`lower`], or `None` when `cancel` answers true (polled every
/// [`POLL_EVERY`] presses, so a stop or time budget stops lowering too).
pub fn lower_cancellable(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Option<LinearSystem> {
    let w = p.states;
    let unknowns: Vec<usize> = (0..p.cells()).filter(|&i| !p.is_locked(i)).collect();
    let mut matrix = SparseMatrix::new(p.cells(), unknowns.len());
    let mut pattern = Vec::new();
    for (col, &cell) in unknowns.iter().enumerate() {
        if col % POLL_EVERY == 0 && cancel() {
            return None;
        }
        press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
        for &(target, weight) in &pattern {
            matrix.push_entry(col, target, weight % w);
        }
    }
    let rhs = p.goal.iter().zip(p.lights.iter()).map(|(g, l)| (u32::from(g) + w - u32::from(l)) % w).collect();
    Some(LinearSystem { matrix, rhs, unknowns, modulus: w })
}

/// Presses between two polls of the stop flag while building patterns.
pub const POLL_EVERY: usize = 64;

/// The cells a press at 0-based (r, c) changes, with their weights (each
/// cell at most once, weights nonzero).
pub fn press_pattern(p: &Puzzle, r: usize, c: usize) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    press_pattern_into(p, r, c, &mut out);
    out
}

pub(crate) fn press_pattern_into(p: &Puzzle, r: usize, c: usize, out: &mut Vec<(usize, u32)>) {
    out.clear();
    let holes = p.has_holes();
    // A hole has no button.
    if holes && p.is_hole(r * p.cols + c) {
        return;
    }
    match &p.shape {
        Shape::Square => square_pattern_into(p, r, c, out),
        Shape::Hex => hex_pattern_into(p, r, c, out),
        Shape::Graph(g) => {
            let node = r * p.cols + c;
            if p.rule != Rule::Ring {
                out.push((node, 1));
            }
            out.extend(g.neighbours(node).iter().map(|&t| (t as usize, 1)));
        }
    }
    // Nor a light: an entry landing on a hole does nothing.
    if holes {
        out.retain(|&(i, _)| !p.is_hole(i));
    }
}

/// Hexagonal cells: the six neighbours of (r, c) are (r, c ± 1) and, in the
/// rows above and below, (c − 1, c) on rows written as is (0-based even)
/// or (c, c + 1) on the rows shifted right (0-based odd). Wrapping follows
/// the topology (plane, cylinder, torus with an even number of rows).
fn hex_pattern_into(p: &Puzzle, r: usize, c: usize, out: &mut Vec<(usize, u32)>) {
    let shift: i64 = if r.is_multiple_of(2) { -1 } else { 0 };
    let ring: [(i64, i64); 6] = [(0, -1), (0, 1), (-1, shift), (-1, shift + 1), (1, shift), (1, shift + 1)];
    if p.rule != Rule::Ring {
        out.push((r * p.cols + c, 1));
    }
    for (dr, dc) in ring {
        add(out, p.cols, map_cell(p.topology, p.rows, p.cols, r as i64 + dr, c as i64 + dc), 1);
    }
}

fn square_pattern_into(p: &Puzzle, r: usize, c: usize, out: &mut Vec<(usize, u32)>) {
    let (rows, cols, topo) = (p.rows, p.cols, p.topology);
    // Away from every border (one cell in) no gluing matters and no two
    // offsets meet: the named 3×3 rules are their plain offsets (the hot path
    // on large boards).
    if r >= 1 && r + 1 < rows && c >= 1 && c + 1 < cols {
        let plain: Option<&[(i64, i64, u32)]> = match p.rule {
            Rule::Cross | Rule::Merlin => Some(&CROSS),
            Rule::King => Some(&KING),
            _ => None,
        };
        if let Some(offsets) = plain {
            let at = (r * cols + c) as i64;
            out.extend(offsets.iter().map(|&(dr, dc, w)| ((at + dr * cols as i64 + dc) as usize, w)));
            return;
        }
    }
    let offsets_from = |offsets: &[(i64, i64, u32)], out: &mut Vec<(usize, u32)>| {
        for &(dr, dc, weight) in offsets {
            add(out, cols, map_cell(topo, rows, cols, r as i64 + dr, c as i64 + dc), weight);
        }
    };
    match &p.rule {
        Rule::Cross => offsets_from(&CROSS, out),
        Rule::Ring => offsets_from(&CROSS[1..], out),
        Rule::King => offsets_from(&KING, out),
        Rule::Stencil(s) => stencil_pattern_into(p, s, r, c, out),
        Rule::Flip => {
            // The rows and columns of the press (with their mirrors across a
            // twisted border), each cell once, in linear time: the centre,
            // then the rows' cells, then the columns' cells not on those rows.
            let mut lines_r = vec![r];
            if topo.columns() == Gluing::Twisted && rows - 1 - r != r {
                lines_r.push(rows - 1 - r);
            }
            let mut lines_c = vec![c];
            if topo.rows() == Gluing::Twisted && cols - 1 - c != c {
                lines_c.push(cols - 1 - c);
            }
            out.push((r * cols + c, 1));
            for &lr in &lines_r {
                out.extend((0..cols).filter(|&cc| (lr, cc) != (r, c)).map(|cc| (lr * cols + cc, 1)));
            }
            for &lc in &lines_c {
                out.extend((0..rows).filter(|rr| !lines_r.contains(rr)).map(|rr| (rr * cols + lc, 1)));
            }
        }
        Rule::Merlin => {
            // Only borders that stay open on this topology count as borders.
            let row_border = topo.rows() == Gluing::Open && (r == 0 || r == rows - 1);
            let col_border = topo.columns() == Gluing::Open && (c == 0 || c == cols - 1);
            let inward_r: i64 = if r == 0 { 1 } else { -1 };
            let inward_c: i64 = if c == 0 { 1 } else { -1 };
            let offsets: Vec<(i64, i64, u32)> = match (row_border, col_border) {
                // A corner: the 2×2 block holding it.
                (true, true) => vec![(0, 0, 1), (inward_r, 0, 1), (0, inward_c, 1), (inward_r, inward_c, 1)],
                // On the top or bottom border: itself and its neighbours along it.
                (true, false) => vec![(0, 0, 1), (0, -1, 1), (0, 1, 1)],
                // On the left or right border.
                (false, true) => vec![(0, 0, 1), (-1, 0, 1), (1, 0, 1)],
                (false, false) => CROSS.to_vec(),
            };
            offsets_from(&offsets, out);
        }
    }
}

/// A stencil's press: its nonzero offsets nearest the centre first (sorted
/// once per stencil, not per press), each cell once. Work is linear in the
/// stencil's size: a 99×99 stencil on 300×300 once spent minutes here on a
/// per-press sort and a linear scan per entry (issue 25).
fn stencil_pattern_into(p: &Puzzle, s: &Stencil, r: usize, c: usize, out: &mut Vec<(usize, u32)>) {
    let (rows, cols, topo) = (p.rows, p.cols, p.topology);
    let (hr, hc) = (s.rows / 2, s.cols / 2);
    // Offsets map one to one unless the board wraps onto itself under the
    // stencil: on the plane, or inside the board, no cell can come twice.
    let inside = r >= hr && r + hr < rows && c >= hc && c + hc < cols;
    let may_repeat = !inside && topo != Topology::Plane;
    with_stencil_offsets(s, |offsets| {
        // Sized by the stencil, which is written out in the text.
        let mut seen: HashSet<usize> = HashSet::with_capacity(if may_repeat { offsets.len() } else { 0 });
        for &(dr, dc, weight) in offsets {
            let Some((tr, tc)) = map_cell(topo, rows, cols, r as i64 + dr, c as i64 + dc) else { continue };
            let idx = tr * cols + tc;
            if !may_repeat || seen.insert(idx) {
                out.push((idx, weight));
            }
        }
    });
}

/// A stencil's nonzero entries as (row offset, column offset, weight).
type Offsets = Vec<(i64, i64, u32)>;

/// Calls `f` with the nonzero offsets of `s` in press order (nearest the
/// centre, then reading order), computed once per stencil and thread.
fn with_stencil_offsets(s: &Stencil, f: impl FnOnce(&[(i64, i64, u32)])) {
    thread_local! {
        static CACHE: RefCell<Option<(Stencil, Offsets)>> = const { RefCell::new(None) };
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.as_ref().is_none_or(|(cached, _)| cached != s) {
            let (hr, hc) = ((s.rows / 2) as i64, (s.cols / 2) as i64);
            let mut offsets: Vec<(i64, i64, u32)> = (0..s.rows)
                .flat_map(|i| (0..s.cols).map(move |j| (i, j)))
                .map(|(i, j)| (i as i64 - hr, j as i64 - hc, s.weights[i * s.cols + j]))
                .filter(|&(_, _, wt)| wt != 0)
                .collect();
            offsets.sort_by_key(|&(dr, dc, _)| (dr * dr + dc * dc, dr, dc));
            *cache = Some((s.clone(), offsets));
        }
        if let Some((_, offsets)) = cache.as_ref() {
            f(offsets);
        }
    });
}

/// Add `weight` at a mapped cell, unless it fell off the board or was
/// already changed by this press: a cell is changed at most once per press,
/// and the first entry (nearest the centre, then in reading order) wins.
fn add(out: &mut Vec<(usize, u32)>, cols: usize, cell: Option<(usize, usize)>, weight: u32) {
    if let Some((tr, tc)) = cell {
        let idx = tr * cols + tc;
        if weight != 0 && !out.iter().any(|&(i, _)| i == idx) {
            out.push((idx, weight));
        }
    }
}

/// Cross and King offsets, ordered nearest the centre first, then reading order.
const CROSS: [(i64, i64, u32); 5] = [(0, 0, 1), (-1, 0, 1), (0, -1, 1), (0, 1, 1), (1, 0, 1)];
const KING: [(i64, i64, u32); 9] =
    [(0, 0, 1), (-1, 0, 1), (0, -1, 1), (0, 1, 1), (1, 0, 1), (-1, -1, 1), (-1, 1, 1), (1, -1, 1), (1, 1, 1)];

/// Map a possibly off-board position through the topology's gluings,
/// columns first, then rows (docs/language.md, "Topologies"). `None` when it
/// falls off an open border.
pub fn map_cell(topo: Topology, rows: usize, cols: usize, r: i64, c: i64) -> Option<(usize, usize)> {
    let (rows_i, cols_i) = (rows as i64, cols as i64);
    let (mut r, mut c) = (r, c);
    if !(0..cols_i).contains(&c) {
        let crossings = c.div_euclid(cols_i);
        c = c.rem_euclid(cols_i);
        match topo.columns() {
            Gluing::Open => return None,
            Gluing::Glued => {}
            // Column C+1 is column 1 at row R+1−r: each crossing mirrors the row.
            Gluing::Twisted if crossings % 2 != 0 => r = rows_i - 1 - r,
            Gluing::Twisted => {}
        }
    }
    if !(0..rows_i).contains(&r) {
        let crossings = r.div_euclid(rows_i);
        r = r.rem_euclid(rows_i);
        match topo.rows() {
            Gluing::Open => return None,
            Gluing::Glued => {}
            // Row R+1 is row 1 at column C+1−c.
            Gluing::Twisted if crossings % 2 != 0 => c = cols_i - 1 - c,
            Gluing::Twisted => {}
        }
    }
    Some((r as usize, c as usize))
}

/// Whether pressing each cell `presses[i]` times solves the puzzle: no
/// locked button is pressed and every light ends at its goal (replayed,
/// independently of how the presses were found).
pub fn presses_solve(p: &Puzzle, presses: &[u16]) -> bool {
    presses.iter().enumerate().all(|(i, &n)| n == 0 || !p.is_locked(i))
        && apply_presses(p, presses).iter().zip(p.goal.iter()).all(|(&v, g)| v == u32::from(g))
}

/// The board after pressing each cell `presses[i]` times (all cells, locked
/// or not; a hole's press does nothing): `lights + A_full·presses mod W`.
pub fn apply_presses(p: &Puzzle, presses: &[u16]) -> Vec<u32> {
    let w = p.states;
    let mut state: Vec<u32> = p.lights.iter().map(u32::from).collect();
    let mut pattern = Vec::new();
    for (cell, &n) in presses.iter().enumerate() {
        if n == 0 {
            continue;
        }
        press_pattern_into(p, cell / p.cols, cell % p.cols, &mut pattern);
        for &(t, weight) in &pattern {
            state[t] = if w == 2 {
                state[t] ^ (weight & u32::from(n) & 1)
            } else {
                ((u64::from(state[t]) + u64::from(weight) * u64::from(n)) % u64::from(w)) as u32
            };
        }
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(rows: usize, cols: usize, rule: Rule, topology: Topology) -> Puzzle {
        Puzzle::new(rows, cols, 2, rule, topology).named("t")
    }

    fn cells(p: &Puzzle, r: usize, c: usize) -> Vec<(usize, usize)> {
        let mut v: Vec<_> = press_pattern(p, r, c).into_iter().map(|(i, _)| (i / p.cols, i % p.cols)).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn cross_on_plane_corner() {
        let p = puzzle(3, 3, Rule::Cross, Topology::Plane);
        assert_eq!(cells(&p, 0, 0), vec![(0, 0), (0, 1), (1, 0)]);
        assert_eq!(cells(&p, 1, 1).len(), 5);
    }

    #[test]
    fn gluings() {
        // Cylinder: column 0's left neighbour is the last column, same row.
        assert_eq!(map_cell(Topology::Cylinder, 4, 5, 1, -1), Some((1, 4)));
        assert_eq!(map_cell(Topology::Cylinder, 4, 5, -1, 0), None);
        // Möbius: crossing the right border mirrors the row.
        assert_eq!(map_cell(Topology::Mobius, 4, 5, 0, 5), Some((3, 0)));
        // Klein: crossing the bottom border mirrors the column.
        assert_eq!(map_cell(Topology::Klein, 4, 5, 4, 1), Some((0, 3)));
        assert_eq!(map_cell(Topology::Klein, 4, 5, 1, 5), Some((1, 0)));
        // Projective: both twisted; columns first, then rows.
        assert_eq!(map_cell(Topology::Projective, 4, 5, -1, -1), Some((0, 0)));
        assert_eq!(map_cell(Topology::Torus, 4, 5, -1, -1), Some((3, 4)));
    }

    #[test]
    fn small_wrapped_boards_change_each_cell_once() {
        let p = puzzle(1, 2, Rule::Cross, Topology::Torus);
        // (0,0): itself, and (0,1) reached from both sides; the rows wrap onto itself.
        assert_eq!(cells(&p, 0, 0), vec![(0, 0), (0, 1)]);
        let p = puzzle(1, 1, Rule::King, Topology::Torus);
        assert_eq!(press_pattern(&p, 0, 0), vec![(0, 1)]);
    }

    #[test]
    fn nearest_entry_wins() {
        // A 1×3 stencil with weights 1 2 3 on a 1×2 torus: the left (-1) and
        // right (+1) entries land on the same cell; they are equally near, so
        // reading order picks the left one (weight 1).
        let mut p = puzzle(1, 2, Rule::Stencil(Stencil { rows: 1, cols: 3, weights: vec![1, 2, 3] }), Topology::Torus);
        p.states = 5;
        assert_eq!(press_pattern(&p, 0, 0), vec![(0, 2), (1, 1)]);
    }

    #[test]
    fn flip_follows_twisted_lines() {
        let p = puzzle(3, 4, Rule::Flip, Topology::Plane);
        assert_eq!(cells(&p, 0, 0).len(), 4 + 3 - 1);
        let p = puzzle(3, 4, Rule::Flip, Topology::Mobius);
        // Rows 0 and 2 and column 0.
        assert_eq!(cells(&p, 0, 0).len(), 4 + 4 + 1);
        let p = puzzle(3, 4, Rule::Flip, Topology::Projective);
        // Rows 0, 2; columns 0, 3.
        assert_eq!(cells(&p, 0, 0).len(), 8 + 2);
    }

    #[test]
    fn merlin_borders() {
        let p = puzzle(3, 3, Rule::Merlin, Topology::Plane);
        assert_eq!(cells(&p, 0, 0), vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert_eq!(cells(&p, 0, 1), vec![(0, 0), (0, 1), (0, 2)]);
        assert_eq!(cells(&p, 1, 0), vec![(0, 0), (1, 0), (2, 0)]);
        assert_eq!(cells(&p, 1, 1).len(), 5);
        // On a cylinder only the top and bottom rows are border cells.
        let p = puzzle(3, 3, Rule::Merlin, Topology::Cylinder);
        assert_eq!(cells(&p, 1, 0), vec![(0, 0), (1, 0), (1, 1), (1, 2), (2, 0)]);
        assert_eq!(cells(&p, 0, 0), vec![(0, 0), (0, 1), (0, 2)]);
        // On a torus it is the cross rule.
        let p = puzzle(3, 3, Rule::Merlin, Topology::Torus);
        assert_eq!(cells(&p, 0, 0).len(), 5);
    }
}
