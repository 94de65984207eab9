//! The drawing of every named graph (docs/play.md, "Graph drawings"),
//! checked by brute force geometry independent of how `Graph::drawing`
//! computes its node radius:
//! - no two nodes closer than a node's diameter (centres at least 2.6 radii
//!   apart, a gap between the circles);
//! - no solid edge passes within a node's radius of a node it does not join;
//! - nodes large enough to read on the small graphs (a diameter of at least
//!   5 % of the drawing);
//! - the Platonic solids drawn planar: no two edges cross.

use lights_compiler::graph::{named, Graph, GraphKind, NAMED_GRAPHS};
use lights_compiler::graph_drawing::{segment_distance, Drawing};

fn all_named() -> Vec<Graph> {
    let mut all: Vec<Graph> =
        NAMED_GRAPHS.iter().filter(|(_, sized)| !sized).map(|(n, _)| named(n, None).unwrap()).collect();
    for (name, sizes) in [
        ("cycle", vec![3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 30, 64, 100, 257, 1000]),
        ("path", vec![1, 2, 3, 4, 5, 9, 16, 100, 1000]),
        ("complete", vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20, 50, 100]),
        ("cube-surface", vec![1, 2, 3, 4, 5, 8]),
    ] {
        all.extend(sizes.into_iter().map(|n| named(name, Some(n)).unwrap()));
    }
    all
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Whether the open segments a–b and c–d cross at a point inside both.
fn cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0);
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    o1 * o2 < -1e-12 && o3 * o4 < -1e-12
}

fn check_rules(g: &Graph, d: &Drawing) {
    let what = g.describe();
    let r = d.node_radius;
    assert!(r > 0.0 && r.is_finite(), "{what}: radius {r}");
    assert_eq!(d.points.len(), g.nodes(), "{what}");
    assert_eq!(d.dashed.len(), g.edge_count(), "{what}");
    for (i, &p) in d.points.iter().enumerate() {
        assert!((0.0..=1.0).contains(&p.0) && (0.0..=1.0).contains(&p.1), "{what}: node {} at {p:?}", i + 1);
        for (j, &q) in d.points.iter().enumerate().skip(i + 1) {
            assert!(dist(p, q) >= 2.6 * r * 0.999_999, "{what}: nodes {} and {} overlap", i + 1, j + 1);
        }
    }
    for ((a, b), &dashed) in g.edges().zip(&d.dashed) {
        if dashed {
            continue;
        }
        for (c, &p) in d.points.iter().enumerate() {
            if c != a && c != b {
                let gap = segment_distance(p, d.points[a], d.points[b]);
                assert!(gap > r, "{what}: edge {}–{} passes through node {}", a + 1, b + 1, c + 1);
            }
        }
    }
}

#[test]
fn no_node_overlaps_another_and_no_edge_passes_through_a_node() {
    for g in all_named() {
        check_rules(&g, &g.drawing());
    }
}

#[test]
fn the_small_named_graphs_have_nodes_large_enough_to_read() {
    for g in all_named() {
        let small = match g.kind {
            GraphKind::Complete(n) => n <= 8,
            GraphKind::Cycle(n) | GraphKind::Path(n) => n <= 12,
            GraphKind::CubeSurface(n) => n <= 2,
            _ => true,
        };
        if small {
            let d = g.drawing();
            assert!(d.node_radius >= 0.025, "{}: node radius {}", g.describe(), d.node_radius);
        }
    }
}

#[test]
fn the_platonic_solids_are_drawn_without_crossings() {
    for name in ["tetrahedron", "cube", "octahedron", "dodecahedron", "icosahedron"] {
        let g = named(name, None).unwrap();
        let d = g.drawing();
        let edges: Vec<(usize, usize)> = g.edges().collect();
        for (i, &(a, b)) in edges.iter().enumerate() {
            for &(c, e) in &edges[i + 1..] {
                if [a, b].contains(&c) || [a, b].contains(&e) {
                    continue;
                }
                assert!(
                    !cross(d.points[a], d.points[b], d.points[c], d.points[e]),
                    "{name}: edges {}–{} and {}–{} cross",
                    a + 1,
                    b + 1,
                    c + 1,
                    e + 1
                );
            }
        }
    }
}

#[test]
fn the_cube_surface_dashes_exactly_the_edges_between_faces_apart_in_the_net() {
    for n in 1..=4 {
        let g = named("cube-surface", Some(n)).unwrap();
        let d = g.drawing();
        let step = 1.0 / (4 * n) as f64;
        for ((a, b), &dashed) in g.edges().zip(&d.dashed) {
            let neighbours_in_net = (dist(d.points[a], d.points[b]) - step).abs() < 1e-9;
            assert_eq!(dashed, !neighbours_in_net, "cube-surface {n}: edge {}–{}", a + 1, b + 1);
        }
        // The net has 7 cut edges of n cells each: 7·n dashed edges.
        assert_eq!(d.dashed.iter().filter(|&&x| x).count(), 7 * n as usize, "cube-surface {n}");
    }
    let petersen = named("petersen", None).unwrap().drawing();
    assert!(petersen.dashed.iter().all(|&x| !x));
}

/// The largest sizes the language allows, where checking every pair is too
/// slow: a sample of nodes is checked against every node (the overlap rule)
/// and against every solid edge near it (a bucket grid of the edges'
/// midpoints would do; here the edges of the sampled node's neighbours and
/// of the nodes nearest it, which are the only ones close on these layouts),
/// and for `complete N` against the chord that skips it, the nearest one.
#[test]
fn the_largest_named_graphs_keep_both_rules_on_a_sample() {
    for (name, n) in [("complete", 4000), ("cycle", 1_000_000), ("path", 1_000_000), ("cube-surface", 400)] {
        let g = named(name, Some(n)).unwrap();
        let d = g.drawing();
        let r = d.node_radius;
        assert!(r > 0.0, "{name} {n}");
        let nodes = g.nodes();
        let step = (nodes / 40).max(1);
        let dashed: std::collections::HashSet<(usize, usize)> =
            g.edges().zip(&d.dashed).filter(|(_, &x)| x).map(|(e, _)| e).collect();
        for i in (0..nodes).step_by(step) {
            let p = d.points[i];
            // Overlaps: every other node.
            for (j, &q) in d.points.iter().enumerate() {
                if j != i {
                    assert!(dist(p, q) >= 2.6 * r * 0.999_999, "{name} {n}: nodes {} and {} overlap", i + 1, j + 1);
                }
            }
            // Edges near it: those of its neighbours' neighbours (grid and ring layouts), and the
            // chord around it on a circle.
            let mut near: Vec<(usize, usize)> = Vec::new();
            for &a in g.neighbours(i).iter().take(8) {
                for &b in g.neighbours(a as usize).iter().take(8) {
                    near.push((a as usize, b as usize));
                }
            }
            if name == "complete" {
                near.push(((i + nodes - 1) % nodes, (i + 1) % nodes));
            }
            for (a, b) in near {
                if a == i || b == i {
                    continue;
                }
                if dashed.contains(&(a.min(b), a.max(b))) {
                    continue;
                }
                let gap = segment_distance(p, d.points[a], d.points[b]);
                assert!(gap > r, "{name} {n}: edge {}–{} passes through node {}", a + 1, b + 1, i + 1);
            }
        }
    }
}
