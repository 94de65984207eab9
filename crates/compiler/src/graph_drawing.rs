//! How a graph is drawn: one point per node, which edges are dashed, and
//! how large a node may be. One drawing serves `lights render`, the play
//! page and VS Code (docs/play.md, "Graph drawings").
//!
//! The Platonic solids are drawn as Schlegel diagrams: seen through one
//! face, each vertex keeps its angle around the axis through that face and
//! goes to a ring by its height along the axis (the face outermost). The
//! result is planar: no two edges cross. The Petersen graph is its classic
//! pentagon and pentagram, the cube's surface its unfolded net (edges
//! between faces apart in the net dashed), the rest a circle or a line.
//!
//! Whatever the layout, [`Drawing::node_radius`] is the largest radius at
//! which no two nodes touch (centres at least 2.6 radii apart) and no solid
//! edge passes within a radius of a node it does not join.

use crate::graph::{dodecahedron_points, icosahedron_points, Graph, GraphKind};

/// Node centres are at least this many node diameters apart.
pub const NODE_SPACING: f64 = 1.3;

/// A solid edge keeps this share of its distance to a node as a gap: the
/// node's radius is at most this times that distance.
const EDGE_CLEARANCE: f64 = 0.9;

/// Up to this many (edge, node) pairs the clearance of every solid edge is
/// measured; beyond, the layout's own guarantee is used (see
/// [`clearance_by_kind`]).
const MEASURED_PAIRS: usize = 4_000_000;

/// A graph's drawing in the unit square (0…1 both ways, y down).
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// One point per node.
    pub points: Vec<(f64, f64)>,
    /// Per edge of [`Graph::edges`], in that order: drawn dashed (the edges
    /// of a cube's surface that join faces apart in the net). Dashed edges
    /// are the net's gluing: they may cross the drawing over other nodes.
    pub dashed: Vec<bool>,
    /// The largest node radius, in the drawing's units (see the module).
    pub node_radius: f64,
}

impl Graph {
    /// A deterministic drawing: one point per node in the unit square
    /// (0…1 both ways, y down).
    pub fn layout(&self) -> Vec<(f64, f64)> {
        let n = self.nodes();
        match self.kind {
            GraphKind::Tetrahedron => {
                // Seen through a face: its triangle, the apex in the middle.
                let mut pts = circle(3, 0.45, 0.0);
                pts.push((0.5, 0.5));
                pts
            }
            GraphKind::Cube => schlegel(&cube_points(), [0.0, 0.0, 1.0], &[0.45, 0.2]),
            GraphKind::Octahedron => tutte(self, &schlegel(&octahedron_points(), [1.0, 1.0, 1.0], &[0.47, 0.19]), 0.47),
            GraphKind::Icosahedron => {
                let pts = icosahedron_points();
                let axis = [0, 1, 2].map(|k| pts[0][k] + pts[1][k] + pts[2][k]);
                tutte(self, &schlegel(&pts, axis, &[0.47, 0.22, 0.1, 0.045]), 0.47)
            }
            GraphKind::Dodecahedron => schlegel(&dodecahedron_points(), [0.0, 0.0, 1.0], &[0.47, 0.34, 0.23, 0.12]),
            GraphKind::Petersen => rings(&[5, 5], &[0.45, 0.22], 0.0),
            GraphKind::Path(_) => (0..n).map(|i| ((i as f64 + 0.5) / n as f64, 0.5)).collect(),
            GraphKind::CubeSurface(s) => cube_net(s),
            GraphKind::Cycle(_) | GraphKind::Complete(_) | GraphKind::Custom => circle(n, 0.45, 0.0),
        }
    }

    /// The drawing: [`Graph::layout`], the dashed edges and the node radius.
    pub fn drawing(&self) -> Drawing {
        let points = self.layout();
        let dashed: Vec<bool> = match self.kind {
            GraphKind::CubeSurface(s) => {
                let step = 1.0 / (4 * s) as f64;
                self.edges().map(|(a, b)| distance(points[a], points[b]) > 1.01 * step).collect()
            }
            _ => vec![false; self.edge_count()],
        };
        let spacing = min_distance(&points);
        let mut radius = spacing / (2.0 * NODE_SPACING);
        let pairs = self.edge_count().saturating_mul(self.nodes());
        let clearance = if pairs <= MEASURED_PAIRS {
            measured_clearance(self, &points, &dashed)
        } else {
            clearance_by_kind(self.kind, spacing)
        };
        radius = radius.min(EDGE_CLEARANCE * clearance);
        Drawing { points, dashed, node_radius: radius }
    }

    /// The graph's name for people: `Petersen graph`, `cycle graph C7`,
    /// `surface of a 3×3×3 cube`, `custom graph`.
    pub fn title(&self) -> String {
        match self.kind {
            GraphKind::Custom => "custom graph".into(),
            GraphKind::Tetrahedron => "tetrahedron graph".into(),
            GraphKind::Cube => "cube graph".into(),
            GraphKind::Octahedron => "octahedron graph".into(),
            GraphKind::Dodecahedron => "dodecahedron graph".into(),
            GraphKind::Icosahedron => "icosahedron graph".into(),
            GraphKind::Petersen => "Petersen graph".into(),
            GraphKind::Cycle(n) => format!("cycle graph C{n}"),
            GraphKind::Path(n) => format!("path graph P{n}"),
            GraphKind::Complete(n) => format!("complete graph K{n}"),
            GraphKind::CubeSurface(n) => format!("surface of a {n}×{n}×{n} cube"),
        }
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// The distance from `p` to the segment `a`–`b`.
pub fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    if len2 == 0.0 {
        return distance(p, a);
    }
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0);
    distance(p, (a.0 + t * dx, a.1 + t * dy))
}

/// The smallest distance from a solid edge to a node it does not join
/// (`f64::INFINITY` without solid edges).
fn measured_clearance(g: &Graph, points: &[(f64, f64)], dashed: &[bool]) -> f64 {
    let mut best = f64::INFINITY;
    for ((a, b), &dash) in g.edges().zip(dashed) {
        if dash {
            continue;
        }
        for (c, &p) in points.iter().enumerate() {
            if c != a && c != b {
                best = best.min(segment_distance(p, points[a], points[b]));
            }
        }
    }
    best
}

/// The clearance of a layout too large to measure, from its shape: a
/// cycle's edges join neighbours on a circle, a path's neighbours on a
/// line and the net's solid edges neighbours on a grid, so no node is
/// nearer an edge than the spacing; on a circle of n points the complete
/// graph's nearest chord to a node (the one skipping it) is r·(1 − cos 2π/n)
/// away. A large custom graph is drawn on a circle without a guarantee.
fn clearance_by_kind(kind: GraphKind, spacing: f64) -> f64 {
    match kind {
        GraphKind::Complete(n) => 0.45 * (1.0 - (std::f64::consts::TAU / n as f64).cos()),
        _ => spacing,
    }
}

/// The smallest distance between two of the points, or 1 for fewer than
/// two. Points are bucketed on a grid of pitch 1/√n and only neighbouring
/// buckets are compared; a pair further apart than the pitch only matters
/// when no pair is nearer, and then the pitch is returned (a lower bound).
pub fn min_distance(points: &[(f64, f64)]) -> f64 {
    let n = points.len();
    if n < 2 {
        return 1.0;
    }
    let pitch = 1.0 / (n as f64).sqrt();
    let key = |&(x, y): &(f64, f64)| ((x / pitch).floor() as i64, (y / pitch).floor() as i64);
    let mut buckets: std::collections::HashMap<(i64, i64), Vec<usize>> = std::collections::HashMap::new();
    for (i, p) in points.iter().enumerate() {
        buckets.entry(key(p)).or_default().push(i);
    }
    let mut best = pitch;
    for (i, p) in points.iter().enumerate() {
        let (bx, by) = key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for &j in buckets.get(&(bx + dx, by + dy)).map_or(&[][..], Vec::as_slice) {
                    if j > i {
                        best = best.min(distance(*p, points[j]));
                    }
                }
            }
        }
    }
    best
}

/// `n` points on a circle of radius `r` around the centre, the first at the top.
fn circle(n: usize, r: f64, turn: f64) -> Vec<(f64, f64)> {
    (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * (i as f64 / n.max(1) as f64 + turn / n.max(1) as f64);
            (0.5 + r * a.sin(), 0.5 - r * a.cos())
        })
        .collect()
}

/// Concentric rings of `counts[k]` points at radius `radii[k]`; each ring is
/// turned by `turn` of a step more than the last (so polygons interleave).
fn rings(counts: &[usize], radii: &[f64], turn: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for (k, (&c, &r)) in counts.iter().zip(radii).enumerate() {
        out.extend(circle(c, r, turn * k as f64));
    }
    out
}

/// The cube's vertices in node order: 1–4 the top face, 5–8 below them.
fn cube_points() -> Vec<[f64; 3]> {
    let corner = |k: usize, z: f64| {
        let a = std::f64::consts::FRAC_PI_2 * k as f64 + std::f64::consts::FRAC_PI_4;
        [a.cos(), a.sin(), z]
    };
    (0..4).map(|k| corner(k, 1.0)).chain((0..4).map(|k| corner(k, -1.0))).collect()
}

/// The octahedron's vertices in node order: node i and i + 3 opposite.
fn octahedron_points() -> Vec<[f64; 3]> {
    vec![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]]
}

/// A Schlegel diagram of the convex solid with these vertices, seen along
/// `axis` (through the centre of a face): each vertex keeps its angle
/// around the axis and goes to ring `radii[k]`, k the rank of its height
/// along the axis among the distinct heights (the face's vertices are the
/// highest, outermost). A vertex on the axis goes to the centre.
fn schlegel(points: &[[f64; 3]], axis: [f64; 3], radii: &[f64]) -> Vec<(f64, f64)> {
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let unit = |v: [f64; 3]| {
        let l = dot(v, v).sqrt();
        v.map(|x| x / l)
    };
    let axis = unit(axis);
    // A direction across the axis: the first vertex off it, so the face's
    // first vertex points up.
    let off = |p: [f64; 3]| {
        let h = dot(p, axis);
        [p[0] - h * axis[0], p[1] - h * axis[1], p[2] - h * axis[2]]
    };
    let first = points.iter().map(|&p| off(p)).find(|v| dot(*v, *v) > 1e-12).unwrap_or([1.0, 0.0, 0.0]);
    let u = unit(first);
    let v = [axis[1] * u[2] - axis[2] * u[1], axis[2] * u[0] - axis[0] * u[2], axis[0] * u[1] - axis[1] * u[0]];
    let mut heights: Vec<f64> = Vec::new();
    for &p in points {
        let h = dot(p, axis);
        if !heights.iter().any(|&t| (t - h).abs() < 1e-6) {
            heights.push(h);
        }
    }
    heights.sort_by(|a, b| b.total_cmp(a));
    points
        .iter()
        .map(|&p| {
            let across = off(p);
            if dot(across, across) < 1e-12 {
                return (0.5, 0.5);
            }
            let h = dot(p, axis);
            let layer = heights.iter().position(|&t| (t - h).abs() < 1e-6).unwrap_or(0);
            let r = radii[layer.min(radii.len() - 1)];
            let angle = dot(p, v).atan2(dot(p, u));
            (0.5 + r * angle.sin(), 0.5 - r * angle.cos())
        })
        .collect()
}

/// Tutte's barycentric drawing, started from `start`: the nodes at the
/// largest radius (the outer face of a Schlegel diagram) stay where they
/// are, and every other node moves to the mean of its neighbours until
/// nothing moves. For a 3-connected planar graph with a convex outer face
/// (every Platonic solid) the result is planar (Tutte, 1963), and its
/// inner nodes are spread more evenly than the rings' halving radii.
fn tutte(g: &Graph, start: &[(f64, f64)], outer: f64) -> Vec<(f64, f64)> {
    let fixed: Vec<bool> = start.iter().map(|&p| (dist_from_centre(p) - outer).abs() < 1e-9).collect();
    let mut pts = start.to_vec();
    for _ in 0..2000 {
        let mut moved = 0.0f64;
        for i in 0..pts.len() {
            if fixed[i] {
                continue;
            }
            let nb = g.neighbours(i);
            let k = nb.len() as f64;
            let x = nb.iter().map(|&j| pts[j as usize].0).sum::<f64>() / k;
            let y = nb.iter().map(|&j| pts[j as usize].1).sum::<f64>() / k;
            moved = moved.max(distance(pts[i], (x, y)));
            pts[i] = (x, y);
        }
        if moved < 1e-12 {
            break;
        }
    }
    pts
}

fn dist_from_centre(p: (f64, f64)) -> f64 {
    distance(p, (0.5, 0.5))
}

/// The cross-shaped net of an s×s×s cube's surface: U above F; L F R B in
/// a row; D below F (the node order of `cube-surface`).
fn cube_net(s: usize) -> Vec<(f64, f64)> {
    let blocks = [(0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 1)];
    let mut out = Vec::with_capacity(6 * s * s);
    for &(br, bc) in &blocks {
        for i in 0..s {
            for j in 0..s {
                let x = (bc * s + j) as f64 + 0.5;
                let y = (br * s + i) as f64 + 0.5;
                out.push((x / (4 * s) as f64, (y + 0.5 * s as f64) / (4 * s) as f64));
            }
        }
    }
    out
}
