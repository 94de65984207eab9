//! Canonical forms of square boards: the least hash of the board's images
//! under every symmetry its surface allows.
//!
//! A symmetry is a point symmetry of the rectangle ([`Turn`]: the 8 of the
//! square, or the 4 that keep the rows rows when a turn would swap a glued
//! pair of borders with an open one), followed by a translation round the
//! surface. Translations are read off a *cover*: the board itself where a
//! pair of borders is glued plainly, the board and its mirror image side by
//! side where the pair is glued with a twist (crossing the border mirrors
//! the board), so a translation by `k` is the window of the cover that
//! starts at `k`. Every window's hash is computed in one pass (a rolling
//! polynomial hash), so a 48×48 torus's 18,432 images cost 8 passes over
//! the board, not 18,432.
//!
//! | surface | turns | translations |
//! |---|---|---|
//! | plane | 8 | none (border rows and columns that are all holes are trimmed first) |
//! | cylinder | 4 | along the rows |
//! | torus | 8 | both ways |
//! | Möbius band | 4 | along the band, 2·columns of them (through the twist) |
//! | Klein bottle | 4 | down the twisted direction (2·rows), and half way across |
//! | projective plane | 8 | none |
//!
//! The groups are checked against the press patterns in the tests: each
//! image of a puzzle is a puzzle whose buttons do to the image what the
//! original's do to the original.

use super::hash::{add, bases, mul, sub, Seq};
use crate::model::{Gluing, Topology};

/// A point symmetry of a rectangle: transpose first (when `swap`), then
/// mirror the rows (top to bottom) and the columns (left to right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    pub swap: bool,
    pub flip_rows: bool,
    pub flip_cols: bool,
}

impl Turn {
    pub const IDENTITY: Turn = Turn { swap: false, flip_rows: false, flip_cols: false };

    pub fn all() -> impl Iterator<Item = Turn> {
        (0..8u8).map(|k| Turn { swap: k & 4 != 0, flip_rows: k & 2 != 0, flip_cols: k & 1 != 0 })
    }

    /// The image's size.
    pub fn dims(self, rows: usize, cols: usize) -> (usize, usize) {
        if self.swap {
            (cols, rows)
        } else {
            (rows, cols)
        }
    }

    /// Where cell (r, c) of a `rows`×`cols` board lands.
    pub fn apply(self, (r, c): (usize, usize), rows: usize, cols: usize) -> (usize, usize) {
        let (r1, c1) = if self.swap { (c, r) } else { (r, c) };
        let (h, w) = self.dims(rows, cols);
        (if self.flip_rows { h - 1 - r1 } else { r1 }, if self.flip_cols { w - 1 - c1 } else { c1 })
    }

    /// As a signed permutation matrix on (row, column) offsets.
    fn matrix(self) -> [[i8; 2]; 2] {
        let mut m = if self.swap { [[0, 1], [1, 0]] } else { [[1, 0], [0, 1]] };
        if self.flip_rows {
            m[0] = [-m[0][0], -m[0][1]];
        }
        if self.flip_cols {
            m[1] = [-m[1][0], -m[1][1]];
        }
        m
    }

    fn from_matrix(m: [[i8; 2]; 2]) -> Turn {
        Turn::all().find(|t| t.matrix() == m).expect("a signed permutation matrix is one of the 8 turns")
    }

    /// `self` after `other`.
    pub fn after(self, other: Turn) -> Turn {
        let (a, b) = (self.matrix(), other.matrix());
        let mut m = [[0i8; 2]; 2];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = a[i][0] * b[0][j] + a[i][1] * b[1][j];
            }
        }
        Turn::from_matrix(m)
    }

    pub fn inverse(self) -> Turn {
        Turn::all().find(|t| t.after(self) == Turn::IDENTITY).expect("the turns form a group")
    }

    /// An offset (dr, dc) turned (for stencils).
    pub fn offset(self, (dr, dc): (isize, isize)) -> (isize, isize) {
        let m = self.matrix();
        (m[0][0] as isize * dr + m[0][1] as isize * dc, m[1][0] as isize * dr + m[1][1] as isize * dc)
    }

    /// How a puzzle author would say it, or `None` for the identity.
    pub fn words(self) -> Option<&'static str> {
        Some(match (self.swap, self.flip_rows, self.flip_cols) {
            (false, false, false) => return None,
            (false, true, true) => "turned half a turn",
            (false, false, true) => "mirrored left to right",
            (false, true, false) => "mirrored top to bottom",
            (true, false, false) => "mirrored along the diagonal",
            (true, true, true) => "mirrored along the other diagonal",
            (true, false, true) => "turned a quarter turn clockwise",
            (true, true, false) => "turned a quarter turn anticlockwise",
        })
    }
}

/// Which turns keep the surface the surface: a turn that swaps rows and
/// columns also swaps how the two pairs of borders are glued.
pub fn turns_for(topology: Topology) -> impl Iterator<Item = Turn> {
    let swaps = topology.rows() == topology.columns();
    Turn::all().filter(move |t| swaps || !t.swap)
}

/// The translations along one direction: the cover's period and the
/// window starts that are symmetries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shifts {
    /// Every start `0..period` (the cover repeats after `period`).
    All { period: usize },
    /// Only these starts (the cover repeats after `period`).
    Some { period: usize, starts: Vec<usize> },
}

impl Shifts {
    pub fn period(&self) -> usize {
        match self {
            Shifts::All { period } | Shifts::Some { period, .. } => *period,
        }
    }

    pub fn starts(&self) -> Vec<usize> {
        match self {
            Shifts::All { period } => (0..*period).collect(),
            Shifts::Some { starts, .. } => starts.clone(),
        }
    }
}

/// The translations of a `rows`×`cols` board on `topology` (after the
/// turn): along the rows (columns shift) and down the columns (rows shift).
///
/// Without `twists` (a stencil that is not its own mirror image), no
/// translation goes through a twisted seam.
pub fn shifts(topology: Topology, rows: usize, cols: usize, twists: bool) -> (Shifts, Shifts) {
    let down = match topology.rows() {
        Gluing::Twisted if !twists => Shifts::Some { period: rows, starts: vec![0] },
        Gluing::Open => Shifts::Some { period: rows, starts: vec![0] },
        Gluing::Glued => Shifts::All { period: rows },
        // Through the twist, on the cover of twice the height, unless the
        // other pair of borders is twisted too (the projective plane has no
        // translations).
        Gluing::Twisted if topology.columns() == Gluing::Twisted => Shifts::Some { period: rows, starts: vec![0] },
        Gluing::Twisted => Shifts::All { period: 2 * rows },
    };
    let across = match topology.columns() {
        Gluing::Twisted if !twists => Shifts::Some { period: cols, starts: vec![0] },
        Gluing::Open => Shifts::Some { period: cols, starts: vec![0] },
        // On a Klein bottle a shift across moves the twisted seam's two
        // ends by opposite amounts: only 0 and half way keep it.
        Gluing::Glued if topology.rows() == Gluing::Twisted => {
            let mut starts = vec![0];
            if cols.is_multiple_of(2) && cols > 0 {
                starts.push(cols / 2);
            }
            Shifts::Some { period: cols, starts }
        }
        Gluing::Glued => Shifts::All { period: cols },
        Gluing::Twisted if topology.rows() == Gluing::Twisted => Shifts::Some { period: cols, starts: vec![0] },
        Gluing::Twisted => Shifts::All { period: 2 * cols },
    };
    (down, across)
}

/// Which cell of the (turned) board sits at cover position (a, b): the
/// second copy in a twisted direction is the board mirrored across it.
pub fn cover_source(topology: Topology, rows: usize, cols: usize, a: usize, b: usize) -> (usize, usize) {
    let (mut r, mut c) = (a, b);
    if r >= rows {
        // Down through a twisted top/bottom seam: the columns are mirrored.
        r -= rows;
        debug_assert_eq!(topology.rows(), Gluing::Twisted);
        c = cols - 1 - c;
    }
    if c >= cols {
        // Across a twisted left/right seam: the rows are mirrored.
        c -= cols;
        debug_assert_eq!(topology.columns(), Gluing::Twisted);
        r = rows - 1 - r;
    }
    (r, c)
}

/// One image: the turn, then the window of the cover at (down, across).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Image {
    pub turn: Turn,
    pub down: usize,
    pub across: usize,
}

impl Image {
    /// Cell (r, c) of the image comes from this cell of the original
    /// `rows`×`cols` board.
    pub fn source(
        self,
        topology: Topology,
        twists: bool,
        rows: usize,
        cols: usize,
        (r, c): (usize, usize),
    ) -> (usize, usize) {
        let (h, w) = self.turn.dims(rows, cols);
        let (down, across) = shifts(topology, h, w, twists);
        let a = (self.down + r) % down.period();
        let b = (self.across + c) % across.period();
        let turned = cover_source(topology, h, w, a, b);
        // Undo the turn: the turned board's (r1, c1) is the original's inverse image.
        let inverse = self.turn.inverse();
        inverse.apply(turned, h, w)
    }
}

/// The least hash over every image, and the image that gives it. `code`
/// holds each cell's value (row-major, each below 2^61 − 1); `class_of`
/// hashes what a turn changes besides the cells (the size, a stencil).
pub fn least_image(
    code: &[u64],
    rows: usize,
    cols: usize,
    topology: Topology,
    twists: bool,
    class_of: &dyn Fn(Turn) -> u64,
) -> (u64, Image) {
    let mut best: Option<(u64, Image)> = None;
    for turn in turns_for(topology) {
        let (h, w) = turn.dims(rows, cols);
        let (down, across) = shifts(topology, h, w, twists);
        let (pr, pc) = (down.period(), across.period());
        let inverse = turn.inverse();
        // The turned board's cover.
        let mut cover = vec![0u64; pr * pc];
        for a in 0..pr {
            for b in 0..pc {
                let (r, c) = inverse.apply(cover_source(topology, h, w, a, b), h, w);
                cover[a * pc + b] = code[r * cols + c];
            }
        }
        let class = class_of(turn);
        for (hash, down_at, across_at) in window_hashes(&cover, pr, pc, h, w, &down, &across) {
            let form = Seq::new().push(class).push(hash).finish();
            let image = Image { turn, down: down_at, across: across_at };
            if best.is_none_or(|(b, _)| form < b) {
                best = Some((form, image));
            }
        }
    }
    best.expect("every surface has the identity")
}

/// The hash of one image of `code` (for the exact comparison of lights and
/// goal once two levels' forms agree).
pub fn image_hash(code: &[u64], rows: usize, cols: usize, topology: Topology, twists: bool, image: Image) -> u64 {
    let (h, w) = image.turn.dims(rows, cols);
    let mut s = Seq::new();
    for r in 0..h {
        for c in 0..w {
            let (sr, sc) = image.source(topology, twists, rows, cols, (r, c));
            s.push(code[sr * cols + sc]);
        }
    }
    s.finish()
}

/// Σ v[(i+a) mod pr][(j+b) mod pc] · y^(h−1−a) · x^(w−1−b) for every
/// allowed start (i, j), by rolling along the rows and then down.
pub(super) fn window_hashes(
    cover: &[u64],
    pr: usize,
    pc: usize,
    h: usize,
    w: usize,
    down: &Shifts,
    across: &Shifts,
) -> Vec<(u64, usize, usize)> {
    let b = bases();
    let nk = across.starts().len();
    // row_hash[a][k]: the window of width w at the k-th start along cover row a.
    let mut row_hash = vec![0u64; pr * nk];
    for a in 0..pr {
        let row = &cover[a * pc..(a + 1) * pc];
        windows(w, b.x, |j| row[j % pc], across, |k, _, hash| row_hash[a * nk + k] = hash);
    }
    let mut out = Vec::new();
    for (k, j) in across.starts().into_iter().enumerate() {
        windows(h, b.y, |a| row_hash[(a % pr) * nk + k], down, |_, i, hash| out.push((hash, i, j)));
    }
    out
}

/// The hash Σ v(s + t) · base^(len−1−t) (t < len) of the window at each
/// start `s` of a cyclic sequence `v`: rolled from one start to the next
/// when every start is wanted, else computed at each. `put` gets the
/// start's index among the starts, the start, and the hash.
fn windows(len: usize, base: u64, v: impl Fn(usize) -> u64, starts: &Shifts, mut put: impl FnMut(usize, usize, u64)) {
    let at = |s: usize| (0..len).fold(0, |hash, t| add(mul(hash, base), v(s + t)));
    match starts {
        Shifts::All { period } => {
            let top = super::hash::pow(base, len as u64 - 1);
            let mut hash = at(0);
            for s in 0..*period {
                put(s, s, hash);
                hash = add(mul(sub(hash, mul(v(s), top)), base), v(s + len));
            }
        }
        Shifts::Some { starts, .. } => {
            for (k, &s) in starts.iter().enumerate() {
                put(k, s, at(s));
            }
        }
    }
}
