//! Levels that are the same puzzle: canonical forms up to the symmetries of
//! the board (issue 31).
//!
//! Two levels are the same puzzle when a symmetry of the board maps one
//! onto the other: the cells, the rule, what each cell must gain (goal −
//! lights, modulo W), the locks and the holes. [`level_form`] gives each
//! level a form, a hash of its least image over the symmetries its shape and
//! surface allow (square boards: [`grid`]; hexagonal boards: [`hex`];
//! graphs: canonical labelling, [`graph`]), so a pack is checked for
//! duplicates in one pass, by equal forms, not by comparing pairs.
//!
//! What a cell must gain, not its lights and goal, is compared: two levels
//! whose lights and goal differ by the same amount everywhere have the same
//! presses as solutions. With two states that is a level and its complement
//! (every light on where the other's is off, and the goal too), which are
//! the same puzzle in other colours. The message says when lights and goal
//! themselves differ.

pub mod graph;
pub mod grid;
mod hash;
pub mod hex;
pub(crate) mod shifts;

use crate::model::{Puzzle, Rule, Shape, Stencil, Topology};
use grid::{Image, Turn};
use hash::Seq;
use hex::HexMotion;

/// Boards with more cells than this get no form unless every cell is alike
/// (a form costs a few passes over the cells).
pub const MAX_FORM_CELLS: usize = 4_000_000;

/// A level's canonical form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelForm {
    /// Equal for two levels exactly when they are the same puzzle up to a
    /// symmetry (see the module's notes on hashing).
    pub key: u64,
    /// The hash of the lights, goal, locks and holes themselves in the
    /// chosen image: equal when the copy has the same lights and goal too.
    pub exact: u64,
    motion: Motion,
    /// W: with two states, lights and goal shifted alike are the complement.
    states: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Motion {
    /// Every cell alike: any symmetry will do.
    Uniform {
        turn: Turn,
    },
    Grid(Image),
    Hex(HexMotion),
    HexWrapped(Image, bool),
    Graph,
}

/// Why a level has no form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoForm {
    /// More than [`MAX_FORM_CELLS`] cells that are not all alike.
    TooLarge { cells: usize },
}

impl std::fmt::Display for NoForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoForm::TooLarge { cells } => {
                write!(f, "{cells} cells is more than the {MAX_FORM_CELLS} compared for duplicates")
            }
        }
    }
}

/// What a cell must gain, with its lock and hole: 0 for a hole.
fn gain_code(p: &Puzzle, i: usize) -> u64 {
    if p.is_hole(i) {
        return 0;
    }
    let w = p.states as u64;
    let gain = (p.goal.get(i) as u64 + w - p.lights.get(i) as u64 % w) % w;
    1 + gain + w * u64::from(p.locked.get(i) != 0)
}

/// The cell as written: light, goal, lock; 0 for a hole.
fn exact_code(p: &Puzzle, i: usize) -> u64 {
    if p.is_hole(i) {
        return 0;
    }
    let w = p.states as u64;
    1 + p.lights.get(i) as u64 + w * p.goal.get(i) as u64 + w * w * u64::from(p.locked.get(i) != 0)
}

fn class_hash(p: &Puzzle) -> u64 {
    let shape = match &p.shape {
        Shape::Square => 1,
        Shape::Hex => 2,
        Shape::Graph(_) => 3,
    };
    let rule = match &p.rule {
        Rule::Cross => 1,
        Rule::King => 2,
        Rule::Flip => 3,
        Rule::Merlin => 4,
        Rule::Ring => 5,
        Rule::Stencil(_) => 6,
    };
    let topology = if p.is_graph() { 0 } else { p.topology as u64 + 1 };
    Seq::new().push(shape).push(rule).push(topology).push(p.states as u64).finish()
}

/// The stencil after a turn: each offset turned, centred again.
pub fn turn_stencil(s: &Stencil, turn: Turn) -> Stencil {
    let (rows, cols) = turn.dims(s.rows, s.cols);
    let mut weights = vec![0u32; rows * cols];
    let (cr, cc) = ((s.rows / 2) as isize, (s.cols / 2) as isize);
    let (nr, nc) = ((rows / 2) as isize, (cols / 2) as isize);
    for r in 0..s.rows {
        for c in 0..s.cols {
            let (dr, dc) = turn.offset((r as isize - cr, c as isize - cc));
            weights[((nr + dr) as usize) * cols + (nc + dc) as usize] = s.weights[r * s.cols + c];
        }
    }
    Stencil { rows, cols, weights }
}

/// Whether a translation through a twisted seam (which mirrors the board)
/// keeps the rule: always for the named rules, for a stencil only when it
/// is its own mirror image across that seam.
pub fn twist_keeps_rule(p: &Puzzle) -> bool {
    let Rule::Stencil(s) = &p.rule else { return true };
    let mirror = Turn {
        swap: false,
        flip_rows: p.topology.columns() == crate::model::Gluing::Twisted,
        flip_cols: p.topology.rows() == crate::model::Gluing::Twisted,
    };
    turn_stencil(s, mirror) == *s
}

/// A cheap key that every image of a level shares (its class, how many
/// cells it has and how many of them need each gain): levels with
/// different pre-keys are different puzzles, so a file's forms are
/// computed only for levels whose pre-keys meet. One pass over the cells;
/// none for a board whose cells are all alike. `None` for a board too
/// large to compare.
pub fn level_prekey(p: &Puzzle) -> Option<u64> {
    let mut s = Seq::new();
    s.push(class_hash(p));
    if let Rule::Stencil(st) = &p.rule {
        let mut w = st.weights.clone();
        w.sort_unstable();
        for &v in &w {
            s.push(v as u64);
        }
    }
    if p.cells_alike() {
        let cells = if p.holes.get(0) != 0 { 0 } else { p.cells() };
        return Some(s.push(cells as u64).push(gain_code(p, 0)).finish());
    }
    if p.cells() > MAX_FORM_CELLS {
        return None;
    }
    // Codes are below 2·W + 2: counted in a table, not a map.
    let mut counts = vec![0u64; 2 * p.states as usize + 2];
    for i in 0..p.cells() {
        counts[gain_code(p, i) as usize] += 1;
    }
    let histogram: Vec<(u64, u64)> =
        counts.iter().enumerate().skip(1).filter(|&(_, &n)| n > 0).map(|(code, &n)| (code as u64, n)).collect();
    let cells: u64 = histogram.iter().map(|h| h.1).sum();
    s.push(cells);
    if histogram.len() == 1 {
        // Every cell that exists alike: as for a uniform board.
        return Some(s.push(histogram[0].0).finish());
    }
    for (code, count) in histogram {
        s.push(code).push(count);
    }
    Some(s.finish())
}

/// The level's canonical form.
pub fn level_form(p: &Puzzle) -> Result<LevelForm, NoForm> {
    let class = class_hash(p);
    match &p.shape {
        Shape::Graph(g) => graph_form(p, g, class),
        _ => board_form(p, class),
    }
}

fn board_form(p: &Puzzle, class: u64) -> Result<LevelForm, NoForm> {
    let all_uniform = p.cells_alike();
    if !all_uniform && p.rows.saturating_mul(p.cols) > MAX_FORM_CELLS {
        return Err(NoForm::TooLarge { cells: p.rows.saturating_mul(p.cols) });
    }
    // On the plane, border rows and columns of holes change nothing: trim them.
    let (r0, c0, rows, cols) = if p.topology == Topology::Plane && p.has_holes() && !all_uniform {
        trimmed(p)
    } else {
        (0, 0, p.rows, p.cols)
    };
    let at = |r: usize, c: usize| (r0 + r) * p.cols + c0 + c;
    let turn_class = |turn: Turn| {
        let (h, w) = turn.dims(rows, cols);
        let mut s = Seq::new();
        s.push(class).push(h as u64).push(w as u64);
        if let Rule::Stencil(st) = &p.rule {
            let t = turn_stencil(st, turn);
            s.push(t.rows as u64).push(t.cols as u64);
            for &v in &t.weights {
                s.push(v as u64);
            }
        }
        s.finish()
    };
    let uniform_form = |code: u64| {
        let turns: Vec<Turn> =
            if p.shape == Shape::Hex { vec![Turn::IDENTITY] } else { grid::turns_for(p.topology).collect() };
        let (key, turn) = turns
            .into_iter()
            .map(|t| (Seq::new().push(turn_class(t)).push(code).push(u64::MAX).finish(), t))
            .min_by_key(|&(k, _)| k)
            .expect("the identity");
        (key, turn)
    };
    // A hex board's mirror image is written with holes, so on the plane
    // even a uniform hex board is compared cell by cell (when it fits).
    let hex_plane = p.shape == Shape::Hex && p.topology == Topology::Plane;
    let cells_fit = p.rows.saturating_mul(p.cols) <= MAX_FORM_CELLS;
    if all_uniform && !(hex_plane && cells_fit) {
        let (key, turn) = uniform_form(gain_code(p, 0).max(u64::from(p.holes.get(0) == 0)));
        let exact = if p.holes.get(0) != 0 { 0 } else { exact_code(p, 0) };
        return Ok(LevelForm { key, exact, motion: Motion::Uniform { turn }, states: p.states });
    }
    let code: Vec<u64> = (0..rows * cols).map(|k| gain_code(p, at(k / cols, k % cols))).collect();
    let exact: Vec<u64> = (0..rows * cols).map(|k| exact_code(p, at(k / cols, k % cols))).collect();
    if !hex_plane && code.iter().all(|&v| v == code[0]) {
        let (key, turn) = uniform_form(code[0]);
        let exact_hash =
            grid::image_hash(&exact, rows, cols, Topology::Plane, true, Image { turn, down: 0, across: 0 });
        return Ok(LevelForm { key, exact: exact_hash, motion: Motion::Uniform { turn }, states: p.states });
    }
    match p.shape {
        Shape::Hex if p.topology == Topology::Plane => {
            // The cells' places are hashed, not the rectangle they were written in.
            let (key, motion) = hex::least_plane(&code, rows, cols, class);
            let exact_key = hex::plane_hash(&exact, rows, cols, motion);
            Ok(LevelForm { key, exact: exact_key, motion: Motion::Hex(motion), states: p.states })
        }
        Shape::Hex => {
            let torus = p.topology == Topology::Torus;
            let (key, image, sheared) = hex::least_wrapped(&code, rows, cols, torus, turn_class(Turn::IDENTITY));
            let exact_key = hex::wrapped_hash(&exact, rows, cols, torus, image, sheared);
            Ok(LevelForm { key, exact: exact_key, motion: Motion::HexWrapped(image, sheared), states: p.states })
        }
        _ => {
            let topology = p.topology;
            let twists = twist_keeps_rule(p);
            let (key, image) = grid::least_image(&code, rows, cols, topology, twists, &turn_class);
            let exact_hash = grid::image_hash(&exact, rows, cols, topology, twists, image);
            Ok(LevelForm { key, exact: exact_hash, motion: Motion::Grid(image), states: p.states })
        }
    }
}

/// The smallest rectangle holding every cell that is not a hole: (first
/// row, first column, rows, columns).
fn trimmed(p: &Puzzle) -> (usize, usize, usize, usize) {
    let (mut rmin, mut rmax, mut cmin, mut cmax) = (usize::MAX, 0, usize::MAX, 0);
    for i in 0..p.rows * p.cols {
        if !p.is_hole(i) {
            let (r, c) = (i / p.cols, i % p.cols);
            (rmin, rmax, cmin, cmax) = (rmin.min(r), rmax.max(r), cmin.min(c), cmax.max(c));
        }
    }
    if rmin == usize::MAX {
        return (0, 0, p.rows, p.cols);
    }
    // A hex board keeps the parity of its first row (shifted rows stay shifted).
    let rmin = if p.shape == Shape::Hex { rmin - rmin % 2 } else { rmin };
    (rmin, cmin, rmax - rmin + 1, cmax - cmin + 1)
}

fn graph_form(p: &Puzzle, g: &crate::model::Graph, class: u64) -> Result<LevelForm, NoForm> {
    let n = p.cols;
    // The nodes that exist, numbered from 0 in order.
    let kept: Vec<usize> = (0..n).filter(|&i| !p.is_hole(i)).collect();
    let mut index = vec![u32::MAX; n];
    for (k, &v) in kept.iter().enumerate() {
        index[v] = k as u32;
    }
    let neighbours: Vec<Vec<u32>> = kept
        .iter()
        .map(|&v| g.neighbours(v).iter().map(|&u| index[u as usize]).filter(|&u| u != u32::MAX).collect())
        .collect();
    let colour: Vec<u64> = kept.iter().map(|&v| gain_code(p, v)).collect();
    let form = match graph::canonical_hash(graph::Coloured { neighbours: &neighbours, colour: &colour }) {
        Some(form) => Seq::new().push(1).push(form).finish(),
        // Too symmetric to number canonically within its bound: compared as
        // written, so a copy with the same numbering is still found.
        None => {
            let mut s = Seq::new();
            s.push(2);
            for (k, adjacent) in neighbours.iter().enumerate() {
                s.push(colour[k]).push(adjacent.len() as u64);
                for &u in adjacent {
                    s.push(u as u64);
                }
            }
            s.finish()
        }
    };
    let edges: usize = neighbours.iter().map(Vec::len).sum();
    let key = Seq::new().push(class).push(kept.len() as u64).push(edges as u64).push(form).finish();
    // As written: the same numbering and the same lights is a plain copy.
    let mut s = Seq::new();
    for (k, &v) in kept.iter().enumerate() {
        s.push(v as u64).push(exact_code(p, v));
        for &u in &neighbours[k] {
            s.push(u as u64);
        }
    }
    Ok(LevelForm { key, exact: s.finish(), motion: Motion::Graph, states: p.states })
}

/// How `copy` relates to `first` when their keys are equal, in words
/// ("turned a quarter turn clockwise", "with its nodes numbered
/// differently"), or `None` when it is the same puzzle as written.
pub fn relation(first: &LevelForm, copy: &LevelForm) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    match (first.motion, copy.motion) {
        (Motion::Grid(a), Motion::Grid(b)) => {
            if let Some(w) = b.turn.inverse().after(a.turn).words() {
                parts.push(w.to_string());
            }
            if (a.down, a.across) != (b.down, b.across) {
                parts.push("moved round the surface".to_string());
            }
        }
        (Motion::Uniform { turn: a }, Motion::Uniform { turn: b }) => {
            if let Some(w) = b.inverse().after(a).words() {
                parts.push(w.to_string());
            }
        }
        (Motion::Hex(a), Motion::Hex(b)) => {
            if let Some(w) = HexMotion::relative_words(a, b) {
                parts.push(w);
            }
        }
        (Motion::HexWrapped(a, sa), Motion::HexWrapped(b, sb)) if (a.down, a.across, sa) != (b.down, b.across, sb) => {
            parts.push("moved round the surface".to_string());
        }
        (Motion::Graph, Motion::Graph) if first.exact != copy.exact => {
            parts.push("with its nodes numbered differently".to_string());
        }
        _ => {}
    }
    if first.exact != copy.exact && !matches!(copy.motion, Motion::Graph) {
        // The same gains with other lights and goal: the states were shifted
        // (with two states, the complement).
        parts.push(if copy.states == 2 {
            "as its complement (every light and the goal swapped)".to_string()
        } else {
            "with its lights and goal changed by the same amount everywhere".to_string()
        });
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
