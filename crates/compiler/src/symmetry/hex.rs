//! Canonical forms of hexagonal boards.
//!
//! On the plane a hex board is a set of cells of the hexagonal lattice, and
//! the lattice has 12 symmetries (6 rotations by 60°, each with or without
//! a mirror). Every cell that is not a hole is put in cube coordinates
//! (x + y + z = 0, rows are z), each symmetry is applied, the result is
//! moved so that its first cell (least row, then least x) is the origin, and
//! the cells are hashed in that order. A board and its mirror image (which,
//! written in rows with the even rows shifted right, needs a column of
//! holes) get the same form.
//!
//! On a cylinder or torus the symmetries kept are the translations: along
//! the rows, and on a torus down the columns too — by two rows (the shifted
//! rows stay shifted) or by one row and half a cell.

use super::grid::{Image, Shifts, Turn};
use super::hash::Seq;

/// A symmetry of the hexagonal lattice: a rotation by `turns` × 60°
/// anticlockwise after an optional mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexMotion {
    pub mirror: bool,
    pub turns: u8,
}

impl HexMotion {
    pub fn all() -> impl Iterator<Item = HexMotion> {
        (0..12u8).map(|k| HexMotion { mirror: k >= 6, turns: k % 6 })
    }

    fn apply(self, (x, y, z): (i64, i64, i64)) -> (i64, i64, i64) {
        let mut p = if self.mirror { (x, z, y) } else { (x, y, z) };
        for _ in 0..self.turns {
            p = (-p.2, -p.0, -p.1);
        }
        p
    }

    /// The motion taking `self`'s image back and then on by `other`: how a
    /// level relates to the first copy, in words.
    pub fn relative_words(a: HexMotion, b: HexMotion) -> Option<String> {
        // Probe the composition b⁻¹ ∘ a on two independent vectors.
        let probe = [(1, -1, 0), (0, 1, -1)];
        let target: Vec<_> = probe.iter().map(|&p| a.apply(p)).collect();
        let rel = HexMotion::all().find(|m| probe.iter().zip(&target).all(|(&p, &t)| b.apply(m.apply(p)) == t))?;
        match (rel.mirror, rel.turns) {
            (false, 0) => None,
            (false, t) => Some(format!("turned {}°", 60 * t as u32)),
            (true, _) => Some("mirrored".to_string()),
        }
    }
}

/// Cube coordinates of 0-based (r, c); odd rows are shifted right.
pub fn cube(r: usize, c: usize) -> (i64, i64, i64) {
    let (r, c) = (r as i64, c as i64);
    let x = c - (r - (r & 1)) / 2;
    let z = r;
    (x, -x - z, z)
}

/// The least hash of a plane hex board over the 12 symmetries. `code` is
/// each cell's value; 0 is a hole (left out).
pub fn least_plane(code: &[u64], rows: usize, cols: usize, class: u64) -> (u64, HexMotion) {
    let cells = cells_of(code, rows, cols);
    let mut moved = Vec::with_capacity(cells.len());
    HexMotion::all()
        .map(|motion| (motion_hash(&cells, motion, class, &mut moved), motion))
        .min_by_key(|&(form, _)| form)
        .expect("12 motions")
}

/// The hash of a plane hex board moved by `motion` (for lights and goal as
/// written, once the form has chosen the motion).
pub fn plane_hash(code: &[u64], rows: usize, cols: usize, motion: HexMotion) -> u64 {
    motion_hash(&cells_of(code, rows, cols), motion, 0, &mut Vec::new())
}

/// The cells that exist (code not 0), in cube coordinates, with their codes.
fn cells_of(code: &[u64], rows: usize, cols: usize) -> Vec<((i64, i64, i64), u64)> {
    (0..rows * cols).filter(|&i| code[i] != 0).map(|i| (cube(i / cols, i % cols), code[i])).collect()
}

/// The cells moved by `motion`, put so the first is at the origin, hashed
/// in order (`moved` is scratch space).
fn motion_hash(
    cells: &[((i64, i64, i64), u64)],
    motion: HexMotion,
    class: u64,
    moved: &mut Vec<(i64, i64, u64)>,
) -> u64 {
    moved.clear();
    moved.extend(cells.iter().map(|&(p, v)| {
        let (x, _, z) = motion.apply(p);
        (z, x, v)
    }));
    moved.sort_unstable();
    let (z0, x0) = moved.first().map_or((0, 0), |&(z, x, _)| (z, x));
    let mut s = Seq::new();
    s.push(class).push(moved.len() as u64);
    for &(z, x, v) in moved.iter() {
        // Offsets from the first cell, folded into the unsigned range.
        s.push((z - z0) as u64).push((x - x0) as u64).push(v);
    }
    s.finish()
}

/// The least hash of a hex board on a cylinder or torus over its
/// translations, and which one gives it (as a [`Image`] of the board, or of
/// the board moved down one row when `sheared`).
pub fn least_wrapped(code: &[u64], rows: usize, cols: usize, torus: bool, class: u64) -> (u64, Image, bool) {
    let mut best: Option<(u64, Image, bool)> = None;
    let boards: Vec<(Vec<u64>, bool)> = if torus {
        vec![(code.to_vec(), false), (sheared(code, rows, cols), true)]
    } else {
        vec![(code.to_vec(), false)]
    };
    let down = if torus { Shifts::All { period: rows } } else { Shifts::Some { period: rows, starts: vec![0] } };
    let across = Shifts::All { period: cols };
    for (board, sheared) in boards {
        for (hash, i, j) in super::grid::window_hashes(&board, rows, cols, rows, cols, &down, &across) {
            // Only even shifts down keep the shifted rows shifted.
            if i % 2 == 1 {
                continue;
            }
            let form = Seq::new().push(class).push(hash).finish();
            if best.is_none_or(|(b, _, _)| form < b) {
                best = Some((form, Image { turn: Turn::IDENTITY, down: i, across: j }, sheared));
            }
        }
    }
    best.expect("the identity")
}

/// The board moved down one row and half a cell: row r goes to r + 1,
/// shifted by one column when r is a shifted row.
fn sheared(code: &[u64], rows: usize, cols: usize) -> Vec<u64> {
    let mut out = vec![0u64; code.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[((r + 1) % rows) * cols + (c + (r & 1)) % cols] = code[r * cols + c];
        }
    }
    out
}

/// The hash of a wrapped hex board's image that [`least_wrapped`] chose
/// (for lights and goal as written).
pub fn wrapped_hash(code: &[u64], rows: usize, cols: usize, torus: bool, image: Image, shear: bool) -> u64 {
    let topology = if torus { crate::model::Topology::Torus } else { crate::model::Topology::Cylinder };
    let board = if shear { sheared(code, rows, cols) } else { code.to_vec() };
    super::grid::image_hash(&board, rows, cols, topology, true, image)
}
