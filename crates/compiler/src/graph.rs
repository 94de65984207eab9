//! Graphs for `graph` puzzles: the named families the tool builds (the
//! Platonic solids, the Petersen graph, cycles, paths, complete graphs, the
//! surface of an N×N×N cube) and graphs written as edge lists.
//!
//! Nodes are numbered 1…N in the language and 0…N−1 here. The numbering of
//! each named graph is documented in docs/language.md ("Graphs") and fixed by
//! the tests: a puzzle's `at` lists depend on it.

use std::collections::HashMap;

/// The most nodes a graph may have.
pub const MAX_NODES: usize = 1_000_000;
/// The most edges a graph may have.
pub const MAX_EDGES: usize = 10_000_000;

/// Which graph a puzzle is played on (the layout of `lights render` depends
/// on it; the answer only on the edges).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GraphKind {
    Custom,
    Tetrahedron,
    Cube,
    Octahedron,
    Dodecahedron,
    Icosahedron,
    Petersen,
    Cycle(usize),
    Path(usize),
    Complete(usize),
    CubeSurface(usize),
}

/// The named graphs: name, whether it takes a size `N`.
pub const NAMED_GRAPHS: &[(&str, bool)] = &[
    ("tetrahedron", false),
    ("cube", false),
    ("octahedron", false),
    ("dodecahedron", false),
    ("icosahedron", false),
    ("petersen", false),
    ("cycle", true),
    ("path", true),
    ("complete", true),
    ("cube-surface", true),
];

/// An undirected simple graph in compressed adjacency form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    pub kind: GraphKind,
    /// Neighbours of node `i` are `targets[offsets[i]..offsets[i + 1]]`, ascending.
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Graph {
    /// A graph on `nodes` nodes from 0-based edges (no loops; repeats are merged).
    pub fn from_edges(kind: GraphKind, nodes: usize, edges: &[(u32, u32)]) -> Graph {
        let mut degree = vec![0u32; nodes + 1];
        for &(a, b) in edges {
            debug_assert!(a != b && (a as usize) < nodes && (b as usize) < nodes);
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let mut offsets = vec![0u32; nodes + 1];
        for i in 0..nodes {
            offsets[i + 1] = offsets[i] + degree[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; offsets[nodes] as usize];
        for &(a, b) in edges {
            targets[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            targets[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        // Sort and merge repeated edges, node by node.
        let mut out_offsets = vec![0u32; nodes + 1];
        let mut out = Vec::with_capacity(targets.len());
        for i in 0..nodes {
            let list = &mut targets[offsets[i] as usize..offsets[i + 1] as usize];
            list.sort_unstable();
            let mut last = None;
            for &t in list.iter() {
                if last != Some(t) {
                    out.push(t);
                    last = Some(t);
                }
            }
            out_offsets[i + 1] = out.len() as u32;
        }
        Graph { kind, offsets: out_offsets, targets: out }
    }

    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The neighbours of node `i`, ascending.
    pub fn neighbours(&self, i: usize) -> &[u32] {
        &self.targets[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Every edge once, `(a, b)` with `a < b`, in order.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.nodes()).flat_map(move |a| {
            self.neighbours(a).iter().map(|&b| b as usize).filter(move |&b| a < b).map(move |b| (a, b))
        })
    }

    pub fn edge_count(&self) -> usize {
        self.targets.len() / 2
    }

    /// The name as written in the language (`petersen`, `cycle 7`, or `custom`).
    pub fn describe(&self) -> String {
        match self.kind {
            GraphKind::Custom => "a custom graph".into(),
            GraphKind::Tetrahedron => "tetrahedron".into(),
            GraphKind::Cube => "cube".into(),
            GraphKind::Octahedron => "octahedron".into(),
            GraphKind::Dodecahedron => "dodecahedron".into(),
            GraphKind::Icosahedron => "icosahedron".into(),
            GraphKind::Petersen => "petersen".into(),
            GraphKind::Cycle(n) => format!("cycle {n}"),
            GraphKind::Path(n) => format!("path {n}"),
            GraphKind::Complete(n) => format!("complete {n}"),
            GraphKind::CubeSurface(n) => format!("cube-surface {n}"),
        }
    }
}

/// Why a named graph could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NamedGraphError {
    Unknown,
    /// The family needs a size (`cycle 7`).
    NeedsSize,
    /// This graph takes no size.
    TakesNoSize,
    /// The size is out of range: the text says the range.
    SizeOutOfRange(String),
}

/// The size N a named family takes, checked without building the graph
/// (`cycle N`: 3 ≤ N ≤ 1,000,000). `Unknown` for a name that is not a
/// family with a size.
pub fn check_size(name: &str, n: u64) -> Result<usize, NamedGraphError> {
    let (lo, hi) = match name {
        "cycle" => (3, MAX_NODES as u64),
        "path" => (1, MAX_NODES as u64),
        "complete" => (1, 4000),
        "cube-surface" => (1, 400),
        _ => return Err(NamedGraphError::Unknown),
    };
    if (lo..=hi).contains(&n) {
        Ok(n as usize)
    } else {
        Err(NamedGraphError::SizeOutOfRange(format!("`{name} N` takes {lo} ≤ N ≤ {hi}")))
    }
}

/// Builds a named graph.
pub fn named(name: &str, size: Option<u64>) -> Result<Graph, NamedGraphError> {
    let Some(&(_, sized)) = NAMED_GRAPHS.iter().find(|(n, _)| *n == name) else {
        return Err(NamedGraphError::Unknown);
    };
    match (sized, size) {
        (true, None) => return Err(NamedGraphError::NeedsSize),
        (false, Some(_)) => return Err(NamedGraphError::TakesNoSize),
        _ => {}
    }
    let size = || check_size(name, size.unwrap_or(0));
    let e = |list: &[(u32, u32)]| list.iter().map(|&(a, b)| (a - 1, b - 1)).collect::<Vec<_>>();
    Ok(match name {
        "tetrahedron" => complete(GraphKind::Tetrahedron, 4),
        // The 3-cube: nodes 1–4 the top face, 5–8 the bottom face below them.
        "cube" => Graph::from_edges(
            GraphKind::Cube,
            8,
            &e(&[(1, 2), (2, 3), (3, 4), (4, 1), (5, 6), (6, 7), (7, 8), (8, 5), (1, 5), (2, 6), (3, 7), (4, 8)]),
        ),
        // Opposite vertices i and i+3 are the only non-neighbours.
        "octahedron" => {
            let edges: Vec<(u32, u32)> =
                (0..6u32).flat_map(|a| (a + 1..6).map(move |b| (a, b))).filter(|&(a, b)| b != a + 3).collect();
            Graph::from_edges(GraphKind::Octahedron, 6, &edges)
        }
        "icosahedron" => icosahedron(),
        "dodecahedron" => dodecahedron(),
        // Outer cycle 1–5, spokes i – i+5, inner pentagram 6–8–10–7–9.
        "petersen" => {
            let mut edges = Vec::new();
            for i in 0..5u32 {
                edges.push((i, (i + 1) % 5));
                edges.push((i, i + 5));
                edges.push((i + 5, (i + 2) % 5 + 5));
            }
            Graph::from_edges(GraphKind::Petersen, 10, &edges)
        }
        "cycle" => {
            let n = size()?;
            let edges: Vec<(u32, u32)> = (0..n as u32).map(|i| (i, (i + 1) % n as u32)).collect();
            Graph::from_edges(GraphKind::Cycle(n), n, &edges)
        }
        "path" => {
            let n = size()?;
            let edges: Vec<(u32, u32)> = (1..n as u32).map(|i| (i - 1, i)).collect();
            Graph::from_edges(GraphKind::Path(n), n, &edges)
        }
        "complete" => {
            let n = size()?;
            complete(GraphKind::Complete(n), n)
        }
        "cube-surface" => cube_surface(size()?),
        _ => return Err(NamedGraphError::Unknown),
    })
}

fn complete(kind: GraphKind, n: usize) -> Graph {
    let edges: Vec<(u32, u32)> = (0..n as u32).flat_map(|a| (a + 1..n as u32).map(move |b| (a, b))).collect();
    Graph::from_edges(kind, n, &edges)
}

/// Adjacent vertices of a solid are the pairs at the shortest distance.
fn nearest_pairs(points: &[[f64; 3]]) -> Vec<(u32, u32)> {
    let d2 = |a: &[f64; 3], b: &[f64; 3]| (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>();
    let mut min = f64::MAX;
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            min = min.min(d2(a, b));
        }
    }
    let mut edges = Vec::new();
    for (i, a) in points.iter().enumerate() {
        for (j, b) in points.iter().enumerate().skip(i + 1) {
            if d2(a, b) < min * 1.01 {
                edges.push((i as u32, j as u32));
            }
        }
    }
    edges
}

/// The icosahedron's vertices: node 1 the top, 2–6 the upper ring, 7–11 the
/// lower ring (each turned half a step), 12 the bottom.
pub(crate) fn icosahedron_points() -> Vec<[f64; 3]> {
    let h = 1.0 / 5f64.sqrt();
    let r = 2.0 * h;
    let mut pts = vec![[0.0, 0.0, 1.0]];
    for k in 0..5 {
        let a = std::f64::consts::TAU * k as f64 / 5.0;
        pts.push([r * a.cos(), r * a.sin(), h]);
    }
    for k in 0..5 {
        let a = std::f64::consts::TAU * (k as f64 + 0.5) / 5.0;
        pts.push([r * a.cos(), r * a.sin(), -h]);
    }
    pts.push([0.0, 0.0, -1.0]);
    pts
}

fn icosahedron() -> Graph {
    Graph::from_edges(GraphKind::Icosahedron, 12, &nearest_pairs(&icosahedron_points()))
}

/// The dodecahedron as the icosahedron's dual: a node per triangular face
/// (at its centre), faces ordered from the top down, then by angle.
fn dodecahedron() -> Graph {
    Graph::from_edges(GraphKind::Dodecahedron, 20, &nearest_pairs(&dodecahedron_points()))
}

/// The dodecahedron's vertices in node order: the centres of the
/// icosahedron's faces, from the top down, then by angle.
pub(crate) fn dodecahedron_points() -> Vec<[f64; 3]> {
    let ico = icosahedron_points();
    let edges = nearest_pairs(&ico);
    let adjacent = |a: usize, b: usize| edges.contains(&(a.min(b) as u32, a.max(b) as u32));
    let mut faces: Vec<[f64; 3]> = Vec::new();
    for a in 0..12 {
        for b in a + 1..12 {
            for c in b + 1..12 {
                if adjacent(a, b) && adjacent(b, c) && adjacent(a, c) {
                    faces.push([0, 1, 2].map(|k| (ico[a][k] + ico[b][k] + ico[c][k]) / 3.0));
                }
            }
        }
    }
    faces.sort_by(|p, q| {
        let key = |v: &[f64; 3]| ((-v[2] * 1000.0).round() as i64, ((v[1].atan2(v[0]) + 7.0) * 1000.0).round() as i64);
        key(p).cmp(&key(q))
    });
    faces
}

/// The 6·N² cells on the surface of an N×N×N cube. Nodes go face by face in
/// the reading order of the cross-shaped net (up; left, front, right, back;
/// down), each face row by row as seen in the net. Cells sharing an edge are
/// neighbours, across the cube's edges too: every cell has four.
fn cube_surface(n: usize) -> Graph {
    let m = 2 * n as i64;
    // The centre of net cell (i, j) of a face, in doubled coordinates on the
    // cube [0, 2N]³ (x right, y up, z towards the viewer; the front face is z = 2N).
    let centre = |face: usize, i: usize, j: usize| -> [i64; 3] {
        let (u, v) = (2 * j as i64 + 1, 2 * i as i64 + 1);
        match face {
            0 => [u, m, v],         // up
            1 => [0, m - v, u],     // left
            2 => [u, m - v, m],     // front
            3 => [m, m - v, m - u], // right
            4 => [m - u, m - v, 0], // back
            _ => [u, 0, m - v],     // down
        }
    };
    let mut index: HashMap<[i64; 3], u32> = HashMap::with_capacity(6 * n * n);
    let mut cells = Vec::with_capacity(6 * n * n);
    for face in 0..6 {
        for i in 0..n {
            for j in 0..n {
                let c = centre(face, i, j);
                index.insert(c, cells.len() as u32);
                cells.push((face, c));
            }
        }
    }
    let mut edges = Vec::new();
    for (a, &(face, p)) in cells.iter().enumerate() {
        // Same face: two apart along one axis. Across an edge: one apart along two axes.
        let mut candidates: Vec<[i64; 3]> = Vec::with_capacity(16);
        for k in 0..3 {
            for d in [-2, 2] {
                let mut q = p;
                q[k] += d;
                candidates.push(q);
            }
            for l in k + 1..3 {
                for (dk, dl) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                    let mut q = p;
                    q[k] += dk;
                    q[l] += dl;
                    candidates.push(q);
                }
            }
        }
        for q in candidates {
            if let Some(&b) = index.get(&q) {
                let same_face = cells[b as usize].0 == face;
                let d2: i64 = (0..3).map(|k| (p[k] - q[k]).pow(2)).sum();
                if (a as u32) < b && ((same_face && d2 == 4) || (!same_face && d2 == 2)) {
                    edges.push((a as u32, b));
                }
            }
        }
    }
    Graph::from_edges(GraphKind::CubeSurface(n), 6 * n * n, &edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn degrees(g: &Graph) -> Vec<usize> {
        (0..g.nodes()).map(|i| g.neighbours(i).len()).collect()
    }

    #[test]
    fn named_graphs_have_their_textbook_counts() {
        // (name, nodes, edges, degree of every node)
        for (name, nodes, edges, degree) in [
            ("tetrahedron", 4, 6, 3),
            ("cube", 8, 12, 3),
            ("octahedron", 6, 12, 4),
            ("dodecahedron", 20, 30, 3),
            ("icosahedron", 12, 30, 5),
            ("petersen", 10, 15, 3),
        ] {
            let g = named(name, None).unwrap();
            assert_eq!((g.nodes(), g.edge_count()), (nodes, edges), "{name}");
            assert!(degrees(&g).iter().all(|&d| d == degree), "{name}: {:?}", degrees(&g));
        }
        for n in 1..=6 {
            let g = named("cube-surface", Some(n as u64)).unwrap();
            assert_eq!(g.nodes(), 6 * n * n);
            assert_eq!(g.edge_count(), 12 * n * n, "every cell has four neighbours");
            assert!(degrees(&g).iter().all(|&d| d == 4));
        }
        assert_eq!(named("cycle", Some(7)).unwrap().edge_count(), 7);
        assert_eq!(named("path", Some(7)).unwrap().edge_count(), 6);
        assert_eq!(named("complete", Some(7)).unwrap().edge_count(), 21);
    }

    #[test]
    fn petersen_has_girth_five_and_diameter_two() {
        let g = named("petersen", None).unwrap();
        for a in 0..10 {
            for b in a + 1..10 {
                let adj = g.neighbours(a).contains(&(b as u32));
                let common = g.neighbours(a).iter().filter(|x| g.neighbours(b).contains(x)).count();
                // No triangles or squares: adjacent nodes share no neighbour, others share exactly one.
                assert_eq!(common, usize::from(!adj), "{a} {b}");
            }
        }
    }

    #[test]
    fn cube_surface_1_is_the_octahedron_and_the_net_is_glued_like_a_cube() {
        let g = named("cube-surface", Some(1)).unwrap();
        let o = named("octahedron", None).unwrap();
        assert_eq!(degrees(&g), degrees(&o));
        // Up (1) and down (6) are opposite faces, so are left (2) and right (4), front (3) and back (5).
        for (a, b) in [(0, 5), (1, 3), (2, 4)] {
            assert!(!g.neighbours(a).contains(&(b as u32)));
        }
        // On a 3-cube, net neighbours inside the cross are neighbours on the cube:
        // the up face's bottom row touches the front face's top row.
        let g = named("cube-surface", Some(3)).unwrap();
        let node = |face: usize, i: usize, j: usize| (face * 9 + i * 3 + j) as u32;
        for j in 0..3 {
            assert!(g.neighbours(node(0, 2, j) as usize).contains(&node(2, 0, j)));
            assert!(g.neighbours(node(2, 2, j) as usize).contains(&node(5, 0, j)));
        }
        for i in 0..3 {
            assert!(g.neighbours(node(1, i, 2) as usize).contains(&node(2, i, 0)));
            assert!(g.neighbours(node(3, i, 2) as usize).contains(&node(4, i, 0)));
            // The net's two ends meet behind: back's right column touches left's left column.
            assert!(g.neighbours(node(4, i, 2) as usize).contains(&node(1, i, 0)));
        }
        // Up's top row meets back's top row, reversed.
        for j in 0..3 {
            assert!(g.neighbours(node(0, 0, j) as usize).contains(&node(4, 0, 2 - j)));
        }
    }

    #[test]
    fn edge_lists_merge_repeats_and_keep_isolated_nodes() {
        let g = Graph::from_edges(GraphKind::Custom, 5, &[(0, 1), (1, 0), (1, 2)]);
        assert_eq!(g.edge_count(), 2);
        assert_eq!(g.neighbours(4), &[] as &[u32]);
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 1), (1, 2)]);
    }

    #[test]
    fn sizes_are_checked() {
        assert_eq!(named("cycle", None), Err(NamedGraphError::NeedsSize));
        assert_eq!(named("petersen", Some(3)), Err(NamedGraphError::TakesNoSize));
        assert!(matches!(named("cycle", Some(2)), Err(NamedGraphError::SizeOutOfRange(_))));
        assert_eq!(named("triangle", None), Err(NamedGraphError::Unknown));
        assert_eq!(named("icosahedron", None).unwrap().layout().len(), 12);
    }

    #[test]
    fn layouts_never_put_two_nodes_on_one_point() {
        for &(name, sized) in NAMED_GRAPHS {
            let g = named(name, sized.then_some(4)).unwrap();
            let pts = g.layout();
            for (i, a) in pts.iter().enumerate() {
                for b in &pts[i + 1..] {
                    assert!((a.0 - b.0).hypot(a.1 - b.1) > 0.01, "{name}: {a:?} {b:?}");
                }
            }
        }
    }

    /// Breadth-first distances from `s` (`usize::MAX` when unreachable).
    fn distances(g: &Graph, s: usize) -> Vec<usize> {
        let mut d = vec![usize::MAX; g.nodes()];
        d[s] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(a) = queue.pop_front() {
            for &b in g.neighbours(a) {
                if d[b as usize] == usize::MAX {
                    d[b as usize] = d[a] + 1;
                    queue.push_back(b as usize);
                }
            }
        }
        d
    }

    /// How many nodes lie at distance 0, 1, 2, … from `s`.
    fn distance_profile(g: &Graph, s: usize) -> Vec<usize> {
        let d = distances(g, s);
        assert!(d.iter().all(|&x| x != usize::MAX), "connected");
        let mut profile = vec![0; d.iter().max().unwrap() + 1];
        for x in d {
            profile[x] += 1;
        }
        profile
    }

    fn adjacent(g: &Graph, a: usize, b: usize) -> bool {
        g.neighbours(a).contains(&(b as u32))
    }

    /// The shortest cycle: from every root, each non-tree edge (a, b) of the
    /// breadth-first tree closes a walk of d(a) + d(b) + 1; the least of
    /// these over all roots is the girth.
    fn girth(g: &Graph) -> usize {
        let mut best = usize::MAX;
        for s in 0..g.nodes() {
            let d = distances(g, s);
            // The tree parent: the first neighbour one step nearer.
            let parent = |x: usize| g.neighbours(x).iter().map(|&y| y as usize).find(|&y| d[y] + 1 == d[x]);
            for (a, b) in g.edges() {
                if d[a] != usize::MAX && parent(a) != Some(b) && parent(b) != Some(a) {
                    best = best.min(d[a] + d[b] + 1);
                }
            }
        }
        best
    }

    #[test]
    fn every_named_graph_is_simple_symmetric_and_drawn() {
        let mut all: Vec<Graph> =
            NAMED_GRAPHS.iter().filter(|(_, sized)| !sized).map(|(n, _)| named(n, None).unwrap()).collect();
        for (name, sizes) in [("cycle", 3..=9), ("path", 1..=9), ("complete", 1..=9), ("cube-surface", 1..=4)] {
            all.extend(sizes.map(|n| named(name, Some(n)).unwrap()));
        }
        for g in &all {
            let what = g.describe();
            for a in 0..g.nodes() {
                let list = g.neighbours(a);
                assert!(list.windows(2).all(|w| w[0] < w[1]), "{what}: ascending, no repeats");
                assert!(!list.contains(&(a as u32)), "{what}: no loops");
                assert!(list.iter().all(|&b| adjacent(g, b as usize, a)), "{what}: symmetric");
            }
            assert_eq!(g.edges().count(), g.edge_count(), "{what}");
            let layout = g.layout();
            assert_eq!(layout.len(), g.nodes(), "{what}");
            assert!(layout.iter().all(|&(x, y)| (0.0..=1.0).contains(&x) && (0.0..=1.0).contains(&y)), "{what}");
        }
    }

    #[test]
    fn the_platonic_solids_are_distance_regular_with_their_textbook_profiles() {
        // Nodes at distance 0, 1, 2, … from any node.
        for (name, profile) in [
            ("tetrahedron", vec![1, 3]),
            ("cube", vec![1, 3, 3, 1]),
            ("octahedron", vec![1, 4, 1]),
            ("icosahedron", vec![1, 5, 5, 1]),
            ("dodecahedron", vec![1, 3, 6, 6, 3, 1]),
            ("petersen", vec![1, 3, 6]),
        ] {
            let g = named(name, None).unwrap();
            for s in 0..g.nodes() {
                assert_eq!(distance_profile(&g, s), profile, "{name} from node {}", s + 1);
            }
        }
        let girths = [
            ("tetrahedron", 3),
            ("cube", 4),
            ("octahedron", 3),
            ("icosahedron", 3),
            ("dodecahedron", 5),
            ("petersen", 5),
        ];
        for (name, want) in girths {
            assert_eq!(girth(&named(name, None).unwrap()), want, "{name}");
        }
    }

    #[test]
    fn icosahedron_numbering_and_vertex_figures() {
        let g = named("icosahedron", None).unwrap();
        // Every node's five neighbours form a 5-cycle (the vertex figure is a pentagon).
        for a in 0..12 {
            let ring = g.neighbours(a);
            assert_eq!(ring.len(), 5);
            for &b in ring {
                let inside = ring.iter().filter(|&&c| adjacent(&g, b as usize, c as usize)).count();
                assert_eq!(inside, 2, "node {}: neighbour {} sees two others", a + 1, b + 1);
            }
            // Connected: walking round from one neighbour reaches all five.
            let mut seen = vec![ring[0]];
            while let Some(&next) =
                ring.iter().find(|&&c| !seen.contains(&c) && adjacent(&g, *seen.last().unwrap() as usize, c as usize))
            {
                seen.push(next);
            }
            assert_eq!(seen.len(), 5, "node {}: one pentagon", a + 1);
        }
        // Node 1 the top, 2–6 the upper ring, 7–11 the lower ring, 12 the bottom.
        assert_eq!(g.neighbours(0), &[1, 2, 3, 4, 5]);
        assert_eq!(g.neighbours(11), &[6, 7, 8, 9, 10]);
        assert_eq!(distances(&g, 0)[11], 3, "top and bottom are antipodal");
        for k in 0..5 {
            let (up, up_next) = (1 + k, 1 + (k + 1) % 5);
            let (low, low_prev) = (6 + k, 6 + (k + 4) % 5);
            assert!(adjacent(&g, up, up_next) && adjacent(&g, low, 6 + (k + 1) % 5), "rings in order");
            // The lower ring is turned half a step: upper k touches lower k and k − 1.
            assert!(adjacent(&g, up, low) && adjacent(&g, up, low_prev), "upper {} and lower", up + 1);
        }
    }

    #[test]
    fn dodecahedron_is_the_icosahedrons_dual() {
        let d = named("dodecahedron", None).unwrap();
        let ico = named("icosahedron", None).unwrap();
        // Faces of the icosahedron = nodes of the dodecahedron: 20 triangles, and
        // the dodecahedron's 12 faces are its pentagons: count 5-cycles through
        // each node (3 faces meet at a vertex), so 20·3/5 = 12 pentagons.
        let triangles = (0..12)
            .flat_map(|a| (a + 1..12).flat_map(move |b| (b + 1..12).map(move |c| (a, b, c))))
            .filter(|&(a, b, c)| adjacent(&ico, a, b) && adjacent(&ico, b, c) && adjacent(&ico, a, c))
            .count();
        assert_eq!(triangles, d.nodes());
        let mut pentagons = std::collections::BTreeSet::new();
        for a in 0..20usize {
            for &b in d.neighbours(a) {
                for &c in d.neighbours(b as usize) {
                    for &e in d.neighbours(c as usize) {
                        for &f in d.neighbours(e as usize) {
                            let cycle = [a as u32, b, c, e, f];
                            let mut sorted = cycle;
                            sorted.sort_unstable();
                            let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
                            if distinct && adjacent(&d, f as usize, a) {
                                pentagons.insert(sorted);
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(pentagons.len(), 12, "twelve pentagonal faces (no other 5-cycles)");
        assert!((0..20).all(|a| pentagons.iter().filter(|p| p.contains(&(a as u32))).count() == 3));
    }

    #[test]
    fn cube_octahedron_and_petersen_follow_their_documented_numbering() {
        // The cube: 1–4 the top face (a 4-cycle), 5–8 the bottom, i above i + 4.
        let c = named("cube", None).unwrap();
        for i in 0..4 {
            assert!(adjacent(&c, i, (i + 1) % 4) && adjacent(&c, 4 + i, 4 + (i + 1) % 4) && adjacent(&c, i, i + 4));
        }
        // Bipartite: even and odd distance from node 1 never touch.
        let d = distances(&c, 0);
        assert!(c.edges().all(|(a, b)| d[a] % 2 != d[b] % 2));
        // The octahedron: i and i + 3 are the only non-neighbours.
        let o = named("octahedron", None).unwrap();
        for a in 0..6 {
            for b in 0..6 {
                assert_eq!(adjacent(&o, a, b), a != b && a.abs_diff(b) != 3, "{a} {b}");
            }
        }
        // Petersen: outer cycle 1–5, spokes i – i+5, inner pentagram 6–8–10–7–9.
        let p = named("petersen", None).unwrap();
        for i in 0..5 {
            assert!(adjacent(&p, i, (i + 1) % 5) && adjacent(&p, i, i + 5) && adjacent(&p, 5 + i, 5 + (i + 2) % 5));
        }
    }

    /// The cube's surface re-built by folding the cross-shaped net, face by
    /// face (each fold turns the next face 90° about the shared edge), and
    /// cells as unit squares in space: neighbours share a side (two
    /// corners). The named graph must have exactly these edges, with the
    /// documented numbering (faces up; left, front, right, back; down, each
    /// row by row as seen in the net).
    fn folded_cube_surface(n: usize) -> Vec<(usize, usize)> {
        type V = [i64; 3];
        let add = |a: V, b: V, k: i64| [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]];
        let neg = |a: V| [-a[0], -a[1], -a[2]];
        let m = n as i64;
        // A face: its net top-left corner, net right, net down, outward normal.
        #[derive(Clone, Copy)]
        struct Face {
            o: V,
            u: V,
            v: V,
            n: V,
        }
        let front = Face { o: [0, m, m], u: [1, 0, 0], v: [0, -1, 0], n: [0, 0, 1] };
        let right = |f: Face| Face { o: add(f.o, f.u, m), u: neg(f.n), v: f.v, n: f.u };
        let left = |f: Face| Face { o: add(f.o, f.n, -m), u: f.n, v: f.v, n: neg(f.u) };
        let down = |f: Face| Face { o: add(f.o, f.v, m), u: f.u, v: neg(f.n), n: f.v };
        let up = |f: Face| Face { o: add(f.o, f.n, -m), u: f.u, v: f.n, n: neg(f.v) };
        // Net order: up; left, front, right, back; down.
        let faces = [up(front), left(front), front, right(front), right(right(front)), down(front)];
        let normals: std::collections::BTreeSet<V> = faces.iter().map(|f| f.n).collect();
        assert_eq!(normals.len(), 6, "the net folds into a closed cube");
        let mut cells: Vec<std::collections::BTreeSet<V>> = Vec::new();
        for f in &faces {
            for i in 0..m {
                for j in 0..m {
                    let corner = add(add(f.o, f.u, j), f.v, i);
                    let square: std::collections::BTreeSet<V> =
                        [corner, add(corner, f.u, 1), add(corner, f.v, 1), add(add(corner, f.u, 1), f.v, 1)].into();
                    assert!(square.iter().all(|c| c.iter().all(|&x| (0..=m).contains(&x))), "on the cube [0, N]³");
                    cells.push(square);
                }
            }
        }
        let mut edges = Vec::new();
        for a in 0..cells.len() {
            for b in a + 1..cells.len() {
                let shared = cells[a].intersection(&cells[b]).count();
                assert!(shared < 4, "two cells on one square");
                if shared == 2 {
                    edges.push((a, b));
                }
            }
        }
        edges
    }

    #[test]
    fn cube_surface_is_the_folded_net() {
        for n in 1..=6 {
            let g = named("cube-surface", Some(n as u64)).unwrap();
            let want = folded_cube_surface(n);
            assert_eq!(want.len(), 12 * n * n);
            assert_eq!(g.edges().collect::<Vec<_>>(), want, "cube-surface {n}");
        }
        // Cube-surface 2: 24 nodes, 48 edges, 4-regular; the three cells at
        // each of the 8 corners of the cube form the only triangles.
        for n in 2..=5 {
            let g = named("cube-surface", Some(n)).unwrap();
            let triangles = g
                .edges()
                .map(|(a, b)| {
                    g.neighbours(a).iter().filter(|&&c| c as usize > b && adjacent(&g, b, c as usize)).count()
                })
                .sum::<usize>();
            assert_eq!(triangles, 8, "cube-surface {n}");
        }
        let g = named("cube-surface", Some(2)).unwrap();
        assert_eq!((g.nodes(), g.edge_count()), (24, 48));
        assert!(degrees(&g).iter().all(|&d| d == 4));
        assert_eq!(girth(&g), 3);
    }
}
