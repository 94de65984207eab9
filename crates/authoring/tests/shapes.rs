//! The authoring tools on boards with holes, hexagonal grids and graphs:
//! pictures draw hexagons, leave holes blank and draw graphs as nodes and
//! edges; generated files re-parse and their claims hold; tables and the
//! census of hex boards match the solver and brute force; the exported
//! system carries the shape.

mod svg;
use svg::{attr, by_id, children, draw, parse, solved};

use std::collections::{BTreeSet, HashSet};

use lights_authoring::census::{census_with, CensusError, Method, Query};
use lights_authoring::export::{json_text, sage_script, system_json, SystemJson};
use lights_authoring::generate::{generate, graph_flag, parse_graph, GenerateError, Options};
use lights_authoring::picture::{self, PictureError, Show};
use lights_authoring::table::{self, entry, Family, TableError};
use lights_compiler::graph::named;
use lights_compiler::lower::{apply_presses, press_pattern};
use lights_compiler::model::{Puzzle, Rule, Shape, Topology};
use lights_compiler::{check_source, BlockReport};
use num_bigint::BigUint;
use resvg::usvg::roxmltree::{Document, Node};

// ------------------------------------------------------------------ helpers

fn nonzero(v: &[u32]) -> Vec<usize> {
    v.iter().enumerate().filter(|(_, &x)| x != 0).map(|(i, _)| i).collect()
}

/// The corners of a `<polygon>`.
fn corners(poly: Node) -> Vec<(f64, f64)> {
    poly.attribute("points")
        .expect("points")
        .split(' ')
        .map(|xy| {
            let (x, y) = xy.split_once(',').expect("x,y");
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

fn mean(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    (points.iter().map(|p| p.0).sum::<f64>() / n, points.iter().map(|p| p.1).sum::<f64>() / n)
}

/// The index (into `centres`) nearest to a point.
fn nearest(centres: &[(f64, f64)], x: f64, y: f64) -> usize {
    let d = |c: &(f64, f64)| (c.0 - x).hypot(c.1 - y);
    (0..centres.len()).min_by(|&a, &b| d(&centres[a]).total_cmp(&d(&centres[b]))).expect("cells")
}

/// The cells (indices into `centres`) nearest to the circles of `#marks`.
fn marked(doc: &Document, centres: &[(f64, f64)]) -> Vec<usize> {
    let Some(marks) = by_id(doc, "marks") else { return Vec::new() };
    let mut v: Vec<usize> =
        children(marks, "circle").iter().map(|c| nearest(centres, attr(*c, "cx"), attr(*c, "cy"))).collect();
    v.sort_unstable();
    v
}

// ------------------------------------------------------------------ pictures

const HEX: &str = "puzzle \"hex\" {\n  size 3x4\n  grid hex\n  lights on\n}\n";

#[test]
fn hex_boards_are_drawn_as_hexagons_with_odd_rows_shifted() {
    let (p, r) = solved(HEX, None);
    let r = r.expect("solved");
    let pic = draw(&p, Some(&r), None, None);
    assert_eq!(pic.cell, 40);
    let doc = parse(&pic.svg);
    let cells = by_id(&doc, "lights-cells").expect("cells");
    assert!(children(cells, "rect").is_empty(), "no square cells");
    let polys = children(cells, "polygon");
    assert_eq!(polys.len(), 12);
    let centres: Vec<(f64, f64)> = polys.iter().map(|p| mean(&corners(*p))).collect();
    for (i, poly) in polys.iter().enumerate() {
        let pts = corners(*poly);
        assert_eq!(pts.len(), 6, "a hexagon");
        // Pointy-topped: the top and bottom corners are on the centre's vertical.
        assert!((pts[0].0 - centres[i].0).abs() < 0.11 && pts[0].1 < centres[i].1);
        assert_eq!(poly.attribute("fill"), Some("#ffd84d"), "every light on");
    }
    let s = 40.0;
    // Along a row, one cell apart; row 2 (0-based 1) shifted right by half a cell.
    assert!((centres[1].0 - centres[0].0 - s).abs() < 0.2);
    assert!((centres[4].0 - centres[0].0 - s / 2.0).abs() < 0.2, "{:?}", (centres[0], centres[4]));
    assert!((centres[8].0 - centres[0].0).abs() < 0.2, "row 3 is not shifted");
    // Rows √3/2 of a cell apart: neighbouring hexagons touch.
    assert!((centres[4].1 - centres[0].1 - s * 3f64.sqrt() / 2.0).abs() < 0.2);
    // The marks are the minimum solution, and the drawn presses solve it.
    let min = r.minimum.as_ref().expect("minimum").presses.to_vec();
    let m = marked(&doc, &centres);
    assert_eq!(m, nonzero(&min));
    let mut presses = vec![0u16; p.cells()];
    for &i in &m {
        presses[i] = 1;
    }
    assert!(apply_presses(&p, &presses).iter().all(|&v| v == 0));
    let subtitle = by_id(&doc, "subtitle").unwrap().text().unwrap();
    assert!(subtitle.starts_with("3×4 hex · cross · plane · 2 states"), "{subtitle}");
    // Row and column numbers.
    let labels: Vec<&str> = children(by_id(&doc, "lights-labels").unwrap(), "text")
        .iter()
        .filter_map(resvg::usvg::roxmltree::Node::text)
        .collect();
    assert_eq!(labels, ["1", "2", "3", "4", "1", "2", "3"]);
    // Deterministic.
    assert_eq!(draw(&p, Some(&r), None, None).svg, pic.svg);
    // The PNG renders at the SVG's size.
    let png = picture::png(&pic.svg).expect("png");
    assert_eq!((png.width, png.height), (pic.width, pic.height));
}

#[test]
fn small_hex_cells_are_offset_bricks() {
    let (p, r) = solved(HEX, None);
    let pic = draw(&p, r.as_ref(), Some(Show::Lights), Some(4));
    let doc = parse(&pic.svg);
    let group = by_id(&doc, "lights-cells").expect("cells");
    assert_eq!(group.attribute("data-background"), Some("1"), "every light on");
    assert!(by_id(&doc, "lights-labels").is_none());
    // The background is the rows' runs, odd rows shifted right by 2 px (half a cell).
    let d = group.prev_sibling_element().expect("the background").attribute("d").expect("a path");
    assert!(d.starts_with("M"), "{d}");
    assert_eq!(d.matches('z').count(), 3, "one run per row: {d}");
    assert!(d.contains("m2 4h16"), "row 2 shifted by half a cell: {d}");
}

const DONUT: &str = "puzzle \"donut\" {\n  size 4x4\n  holes at 2,2 3,3\n  locked at 1,1\n  lights on\n}\n";

#[test]
fn holes_are_blank_and_not_locked() {
    let (p, r) = solved(DONUT, None);
    let r = r.expect("solved");
    assert!(r.solvable);
    let pic = draw(&p, Some(&r), None, None);
    let doc = parse(&pic.svg);
    let cells = children(by_id(&doc, "lights-cells").unwrap(), "rect");
    assert_eq!(cells.len(), 14, "16 cells, 2 holes");
    let s = 40.0;
    let hole_at = |x: f64, y: f64| {
        cells.iter().all(|c| {
            let (cx, cy, w, h) = (attr(*c, "x"), attr(*c, "y"), attr(*c, "width"), attr(*c, "height"));
            !(cx <= x && x < cx + w && cy <= y && y < cy + h)
        })
    };
    let (x0, y0) = (attr(cells[0], "x"), attr(cells[0], "y"));
    assert!(hole_at(x0 + 1.5 * s, y0 + 1.5 * s) && hole_at(x0 + 2.5 * s, y0 + 2.5 * s), "no cell in the holes");
    // One cross: the locked cell, not the holes (which `locked` also holds).
    assert_eq!(children(by_id(&doc, "locked").unwrap(), "path").len(), 1);
    let subtitle = by_id(&doc, "subtitle").unwrap().text().unwrap();
    assert!(subtitle.starts_with("4×4 · 2 holes · cross · plane · 2 states · "), "{subtitle}");
    assert!(subtitle.contains(" · 1 locked"), "{subtitle}");
    let legend: Vec<&str> = children(by_id(&doc, "legend").unwrap(), "text")
        .iter()
        .filter_map(resvg::usvg::roxmltree::Node::text)
        .collect();
    assert!(legend.iter().any(|l| l.contains("hole")), "{legend:?}");
    // Marks only on cells that exist, and they solve the puzzle.
    let present: Vec<usize> = (0..16).filter(|&i| !p.is_hole(i)).collect();
    let centres: Vec<(f64, f64)> = cells
        .iter()
        .map(|c| (attr(*c, "x") + attr(*c, "width") / 2.0, attr(*c, "y") + attr(*c, "height") / 2.0))
        .collect();
    let m: Vec<usize> = marked(&doc, &centres).into_iter().map(|k| present[k]).collect();
    assert_eq!(m, nonzero(&r.minimum.as_ref().unwrap().presses.to_vec()));
    // Compact, the holes are outside the background's runs.
    let small = draw(&p, Some(&r), Some(Show::Lights), Some(4));
    let doc = parse(&small.svg);
    let bg = by_id(&doc, "lights-cells").unwrap().prev_sibling_element().unwrap();
    assert_eq!(bg.tag_name().name(), "path");
    assert_eq!(bg.attribute("d").unwrap().matches('z').count(), 6, "rows 2 and 3 are split by their hole");
    let hatched = by_id(&doc, "locked").expect("hatched");
    assert_eq!(hatched.attribute("data-cells"), Some("1"));
}

#[test]
fn certificates_never_mark_holes() {
    let src = "puzzle \"u\" {\n  size 4x4\n  holes at 2,2\n  lights at 1,1\n  expect unsolvable\n}\n";
    let (p, r) = solved(src, None);
    let r = r.expect("solved");
    assert!(!r.solvable);
    let pic = draw(&p, Some(&r), None, None);
    assert_eq!(pic.show, Show::Certificate);
    let doc = parse(&pic.svg);
    let cells = children(by_id(&doc, "lights-cells").unwrap(), "rect");
    assert_eq!(cells.len(), 15);
    let marks = by_id(&doc, "marks").map_or(0, |m| children(m, "circle").len());
    let weights = r.certificate.as_ref().unwrap().to_vec();
    assert_eq!(marks, nonzero(&weights).iter().filter(|&&i| !p.is_hole(i)).count());
}

const PETERSEN: &str = "puzzle \"petersen\" {\n  graph petersen\n  rule ring\n  lights on\n  locked at 10\n}\n";

/// Node number → centre, from the circles of `#{id}-cells`.
fn node_centres(doc: &Document, id: &str) -> Vec<(usize, (f64, f64))> {
    children(by_id(doc, &format!("{id}-cells")).expect("nodes"), "circle")
        .iter()
        .map(|c| (c.attribute("data-node").unwrap().parse().unwrap(), (attr(*c, "cx"), attr(*c, "cy"))))
        .collect()
}

#[test]
fn graphs_are_drawn_as_nodes_and_edges() {
    let (p, r) = solved(PETERSEN, None);
    let r = r.expect("solved");
    assert!(r.solvable);
    let pic = draw(&p, Some(&r), None, None);
    let doc = parse(&pic.svg);
    let nodes = node_centres(&doc, "lights");
    assert_eq!(nodes.iter().map(|n| n.0).collect::<Vec<_>>(), (1..=10).collect::<Vec<_>>());
    for c in children(by_id(&doc, "lights-cells").unwrap(), "circle") {
        assert_eq!(c.attribute("fill"), Some("#ffd84d"), "every light on");
        assert_eq!(attr(c, "r"), f64::from(pic.cell) / 2.0);
    }
    // Every edge is a line from centre to centre.
    let Shape::Graph(g) = &p.shape else { panic!("a graph") };
    let lines = children(by_id(&doc, "lights-edges").expect("edges"), "line");
    assert_eq!(lines.len(), 15);
    let drawn: HashSet<(usize, usize)> = lines
        .iter()
        .map(|l| {
            let centres: Vec<(f64, f64)> = nodes.iter().map(|n| n.1).collect();
            let a = nearest(&centres, attr(*l, "x1"), attr(*l, "y1"));
            let b = nearest(&centres, attr(*l, "x2"), attr(*l, "y2"));
            (a.min(b), a.max(b))
        })
        .collect();
    assert_eq!(drawn, g.edges().collect::<HashSet<_>>());
    // Node numbers, and a cross on the locked node 10.
    let labels: Vec<&str> = children(by_id(&doc, "lights-labels").unwrap(), "text")
        .iter()
        .filter_map(resvg::usvg::roxmltree::Node::text)
        .collect();
    assert_eq!(labels, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    assert_eq!(children(by_id(&doc, "locked").unwrap(), "path").len(), 1);
    // A mark per press of the minimum solution, at the top right of its node.
    let centres: Vec<(f64, f64)> = nodes.iter().map(|n| n.1).collect();
    let d = f64::from(pic.cell);
    let mut m: Vec<usize> = children(by_id(&doc, "marks").expect("marks"), "circle")
        .iter()
        .map(|c| nearest(&centres, attr(*c, "cx") - 0.36 * d, attr(*c, "cy") + 0.36 * d))
        .collect();
    m.sort_unstable();
    assert_eq!(m, nonzero(&r.minimum.as_ref().unwrap().presses.to_vec()));
    let subtitle = by_id(&doc, "subtitle").unwrap().text().unwrap();
    assert!(subtitle.starts_with("graph petersen · 10 nodes · 15 edges · ring · 2 states · "), "{subtitle}");
    assert_eq!(draw(&p, Some(&r), None, None).svg, pic.svg, "deterministic");
    let png = picture::png(&pic.svg).expect("png");
    assert_eq!((png.width, png.height), (pic.width, pic.height));
}

#[test]
fn every_named_graph_draws_its_nodes_apart() {
    for (name, size) in [
        ("tetrahedron", None),
        ("cube", None),
        ("octahedron", None),
        ("dodecahedron", None),
        ("icosahedron", None),
        ("petersen", None),
        ("cycle", Some(12)),
        ("path", Some(5)),
        ("complete", Some(6)),
        ("cube-surface", Some(2)),
    ] {
        let g = named(name, size).expect("a graph");
        let (nodes, edges) = (g.nodes(), g.edge_count());
        let p = Puzzle::on_graph(g, 2, Rule::Cross).named(name);
        let pic = draw(&p, None, None, None);
        let doc = parse(&pic.svg);
        let centres: Vec<(f64, f64)> = node_centres(&doc, "lights").into_iter().map(|n| n.1).collect();
        assert_eq!(centres.len(), nodes, "{name}");
        assert_eq!(children(by_id(&doc, "lights-edges").unwrap(), "line").len(), edges, "{name}");
        for i in 0..nodes {
            for j in i + 1..nodes {
                let dist = (centres[i].0 - centres[j].0).hypot(centres[i].1 - centres[j].1);
                assert!(dist >= f64::from(pic.cell) * 1.2, "{name}: nodes {} and {} overlap", i + 1, j + 1);
            }
        }
    }
    // The cube's surface: edges across the cube (not side by side in the net) are dashed.
    let g = named("cube-surface", Some(2)).unwrap();
    let p = Puzzle::on_graph(g, 2, Rule::Cross);
    let doc_text = draw(&p, None, None, None).svg;
    let doc = parse(&doc_text);
    let lines = children(by_id(&doc, "lights-edges").unwrap(), "line");
    let dashed = lines.iter().filter(|l| l.attribute("stroke-dasharray").is_some()).count();
    // 2×2 faces: 4·6 = 24 edges inside faces; of the 24 across cube edges, 5
    // net joints × 2 are drawn side by side.
    assert_eq!((lines.len(), dashed), (48, 14));
}

#[test]
fn graph_overlays_and_left_out_nodes() {
    // Node 3 is left out of the edge list: it is a hole, not drawn.
    let src = "puzzle \"g\" {\n  graph { 1-2 2-4 4-5 5-1 }\n  states 3\n  lights at 1:2 4\n}\n";
    let (p, r) = solved(src, None);
    let r = r.expect("solved");
    let pic = draw(&p, Some(&r), None, Some(12));
    let doc = parse(&pic.svg);
    let nodes: Vec<usize> = node_centres(&doc, "lights").into_iter().map(|n| n.0).collect();
    assert_eq!(nodes, [1, 2, 4, 5]);
    assert!(by_id(&doc, "lights-labels").is_none(), "12 px nodes carry no number");
    // 3 states on 12 px nodes: the overlay is a panel of its own.
    assert!(by_id(&doc, "marks").is_none());
    let panel = node_centres(&doc, "overlay");
    assert_eq!(panel.len(), 4);
    let subtitle = by_id(&doc, "subtitle").unwrap().text().unwrap();
    assert!(subtitle.starts_with("graph · 4 nodes · 4 edges · cross · 3 states"), "{subtitle}");
    // Large nodes: numbered marks.
    let pic = draw(&p, Some(&r), None, Some(40));
    let doc = parse(&pic.svg);
    let values: BTreeSet<u32> = children(by_id(&doc, "mark-values").expect("numbers"), "text")
        .iter()
        .map(|t| t.text().unwrap().parse().unwrap())
        .collect();
    let min = r.minimum.as_ref().unwrap().presses.to_vec();
    assert_eq!(values, min.iter().copied().filter(|&v| v != 0).collect());
}

#[test]
fn graphs_too_large_to_draw_are_refused() {
    let p = Puzzle::on_graph(named("complete", Some(700)).unwrap(), 2, Rule::Cross);
    let e = picture::svg(&p, None, &picture::Options::default()).unwrap_err();
    assert!(matches!(e, PictureError::GraphTooLarge { nodes: 700, edges: 244_650 }), "{e:?}");
    assert!(e.to_string().contains("too large to draw"));
}

// ------------------------------------------------------------------ generate

/// The generated file checks clean (claims included) and has `count` puzzles.
fn checks_clean(text: &str, count: usize) -> Vec<Puzzle> {
    let analysis = check_source(text);
    let all = analysis.all_diagnostics();
    assert!(all.is_empty(), "{all:?}\n{text}");
    assert_eq!(analysis.blocks.len(), count);
    analysis
        .blocks
        .iter()
        .map(|p| {
            let report = p.report.as_ref().and_then(BlockReport::as_lights).expect("solved");
            assert!(report.solvable);
            p.puzzle().cloned().expect("valid")
        })
        .collect()
}

#[test]
fn generated_hex_boards_check_clean() {
    for (rows, cols, rule, topology, states) in [
        (4, 5, Rule::Cross, Topology::Plane, 2),
        (3, 4, Rule::Ring, Topology::Cylinder, 3),
        (4, 4, Rule::Cross, Topology::Torus, 2),
    ] {
        let opts = Options {
            shape: Shape::Hex,
            rule: rule.clone(),
            topology,
            states,
            count: 3,
            ..Options::new(rows, cols, 11)
        };
        let g = generate(&opts, &mut |_| {}).expect("generated");
        assert!(g.text.contains("  grid hex\n"), "{}", g.text);
        assert!(g.text.contains(" --grid hex "), "the command line says so: {}", g.text);
        for p in checks_clean(&g.text, 3) {
            assert_eq!(p.shape, Shape::Hex);
            assert_eq!(
                (p.rows, p.cols, p.rule.clone(), p.topology, p.states),
                (rows, cols, rule.clone(), topology, states)
            );
        }
        assert_eq!(generate(&opts, &mut |_| {}).unwrap().text, g.text, "the seed reproduces");
    }
    // Unique with random locks.
    let opts = Options { shape: Shape::Hex, unique: true, locked_fraction: 0.3, count: 2, ..Options::new(4, 4, 5) };
    let g = generate(&opts, &mut |_| {}).expect("generated");
    for p in checks_clean(&g.text, 2) {
        assert!(p.any_locked());
    }
    assert!(g.text.contains("expect unique"));
}

#[test]
fn generated_graph_puzzles_check_clean() {
    for (graph, rule, states) in
        [("petersen", Rule::Ring, 2), ("cycle:7", Rule::Cross, 3), ("cube-surface 2", Rule::Cross, 2)]
    {
        let g = parse_graph(graph).expect("a named graph");
        let name = g.describe();
        let opts = Options { rule: rule.clone(), states, count: 2, ..Options::on_graph(g.clone(), 3) };
        let out = generate(&opts, &mut |_| {}).expect("generated");
        assert!(out.text.contains(&format!("  graph {name}\n")), "{}", out.text);
        assert!(out.text.contains("  lights at "), "{}", out.text);
        assert!(!out.text.contains("size"), "{}", out.text);
        assert!(out.text.contains(&format!("--graph {}", graph_flag(&g))), "{}", out.text);
        for p in checks_clean(&out.text, 2) {
            assert_eq!(p.shape, Shape::Graph(g.clone()));
            assert_eq!(p.rule, rule);
        }
    }
    // Locks are written as an `at` list of nodes.
    let opts = Options {
        unique: true,
        locked_fraction: 0.25,
        ..Options::on_graph(named("cube-surface", Some(2)).unwrap(), 9)
    };
    let out = generate(&opts, &mut |_| {}).expect("generated");
    assert!(out.text.contains("  locked at "), "{}", out.text);
    checks_clean(&out.text, 1);
}

#[test]
fn graph_flags_and_shape_errors() {
    assert_eq!(parse_graph("petersen").unwrap().nodes(), 10);
    for text in ["cycle:7", "cycle 7", "cycle=7", " cycle:7 "] {
        assert_eq!(parse_graph(text).unwrap().describe(), "cycle 7", "{text}");
    }
    assert_eq!(graph_flag(&parse_graph("cube-surface 3").unwrap()), "cube-surface:3");
    assert!(parse_graph("cycle").unwrap_err().to_string().contains("needs a size"));
    assert!(parse_graph("petersen:3").unwrap_err().to_string().contains("takes no size"));
    assert!(parse_graph("cycle:2").unwrap_err().to_string().contains("3 ≤ N"));
    assert!(parse_graph("cycle:x").unwrap_err().to_string().contains("whole number"));
    assert!(parse_graph("petersn").unwrap_err().to_string().contains("the named graphs are"));

    let invalid = |opts: Options| match generate(&opts, &mut |_| {}) {
        Err(GenerateError::Invalid(m)) => m,
        other => panic!("{other:?}"),
    };
    let hex = Options { shape: Shape::Hex, ..Options::new(3, 3, 1) };
    assert!(invalid(Options { rule: Rule::King, ..hex.clone() }).contains("--grid hex takes --rule cross or ring"));
    assert!(invalid(Options { topology: Topology::Klein, ..hex.clone() }).contains("plane, cylinder or torus"));
    assert!(invalid(Options { topology: Topology::Torus, ..hex.clone() }).contains("even number of rows"));
    let graph = Options::on_graph(named("petersen", None).unwrap(), 1);
    assert!(invalid(Options { rule: Rule::Flip, ..graph.clone() }).contains("--graph takes --rule cross or ring"));
    assert!(invalid(Options { topology: Topology::Torus, ..graph.clone() }).contains("no topology"));
    match generate(&Options { unique: true, ..graph }, &mut |_| {}) {
        Err(GenerateError::NeverUnique(m)) => assert!(m.starts_with("the graph petersen "), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(parse_graph("cube:3")
        .unwrap_err()
        .to_string()
        .contains("`cube-surface:N` for the surface of an N×N×N cube"));
    // Boards on which no press changes anything: refused before any draw.
    let lone = Options { rule: Rule::Ring, ..Options::on_graph(named("complete", Some(1)).unwrap(), 1) };
    assert_eq!(
        invalid(lone),
        "no press changes any light on the graph complete 1 with --rule ring: there is no puzzle to make"
    );
    let one_hex = Options { rule: Rule::Ring, shape: Shape::Hex, ..Options::new(1, 1, 1) };
    assert!(invalid(one_hex).starts_with("no press changes any light on a 1x1 hex board"));
    let one_cross = Options { shape: Shape::Hex, ..Options::new(1, 1, 1) };
    assert!(generate(&one_cross, &mut |_| {}).is_ok(), "a single cell with `cross` can be pressed");
}

// ------------------------------------------------------------------ tables

/// The number of press vectors that change nothing, by enumeration.
fn brute_kernel(p: &Puzzle) -> u64 {
    let n = p.cells();
    let w = u64::from(p.states);
    let dark = Puzzle { lights: lights_compiler::model::Board::zeros(n), ..p.clone() };
    let mut count = 0;
    for k in 0..w.pow(n as u32) {
        let mut rest = k;
        let presses: Vec<u16> = (0..n)
            .map(|_| {
                let v = (rest % w) as u16;
                rest /= w;
                v
            })
            .collect();
        if apply_presses(&dark, &presses).iter().all(|&v| v == 0) {
            count += 1;
        }
    }
    count
}

#[test]
fn hex_tables_match_the_language_and_brute_force() {
    for (rule, topology) in [("cross", "plane"), ("ring", "plane"), ("cross", "cylinder"), ("ring", "torus")] {
        let family = Family::parse(rule, topology, 2).unwrap().on_hex().unwrap();
        assert!(!family.transposes());
        assert!(family.describe().contains("hex grid"));
        let t = table::table(&family, 1..=4, 1..=4, &|_, _| {}).expect("a table");
        let want_rows: Vec<usize> = if topology == "torus" { vec![2, 4] } else { vec![1, 2, 3, 4] };
        assert_eq!(t.rows, want_rows);
        for e in &t.entries {
            let src = format!(
                "puzzle \"t\" {{\n  size {}x{}\n  grid hex\n  rule {rule}\n  topology {topology}\n  lights on\n}}\n",
                e.rows, e.cols
            );
            let (p, r) = solved(&src, None);
            let r = r.expect("solved");
            assert_eq!(
                (e.solvable, &e.solutions),
                (r.solvable, &r.solutions),
                "{}x{} {rule} {topology}",
                e.rows,
                e.cols
            );
            let built = family.all_lights(e.rows, e.cols);
            assert_eq!(
                (&built.shape, built.rule.clone(), built.topology, built.lights.to_vec()),
                (&p.shape, p.rule.clone(), p.topology, p.lights.to_vec()),
                "the same board"
            );
            if p.cells() <= 12 {
                assert_eq!(e.kernel.size(), BigUint::from(brute_kernel(&p)), "{}x{} {rule} {topology}", e.rows, e.cols);
            }
        }
    }
    // 5×4 hex plane: the example checked by hand with `lights solve`.
    let family = Family::parse("cross", "plane", 2).unwrap().on_hex().unwrap();
    assert_eq!(entry(&family, 5, 4).unwrap().solutions, BigUint::from(16u32));
}

#[test]
fn hex_table_errors() {
    assert!(Family::parse("king", "plane", 2).unwrap().on_hex().unwrap_err().to_string().contains("cross or ring"));
    assert!(Family::parse("cross", "klein", 2)
        .unwrap()
        .on_hex()
        .unwrap_err()
        .to_string()
        .contains("plane, cylinder or torus"));
    let torus = Family::parse("cross", "torus", 2).unwrap().on_hex().unwrap();
    assert!(matches!(table::validate(&torus, &(3..=3), &(1..=4)), Err(TableError::NoEvenRows { .. })));
    assert!(table::validate(&torus, &(3..=4), &(1..=4)).is_ok());
}

/// Tables over the sizes of a graph family agree with the language (the
/// same `graph NAME N` puzzle solved by `check`), with enumeration on small
/// graphs, and with what is known of the families:
/// - σ+ on the cycle C_n has nullity 2 when 3 | n, else 0 (the press matrix
///   is the circulant 1 + x + x^{n−1}, which vanishes at the cube roots of 1);
/// - σ+ on the path P_n has nullity 1 when n ≡ 2 (mod 3), else 0;
/// - σ+ on the complete graph K_n is the all-ones matrix J: over any Z/W its
///   kernel is the vectors summing to 0, (Z/W)^{n−1}, and All Lights always
///   solves (W^{n−1} solutions).
#[test]
fn graph_tables_match_the_language_brute_force_and_the_literature() {
    for (name, rule, states, sizes) in [
        ("cycle", "cross", 2, 3..=9),
        ("cycle", "ring", 3, 3..=8),
        ("path", "cross", 2, 1..=10),
        ("path", "ring", 4, 1..=8),
        ("complete", "cross", 6, 1..=5),
        ("cube-surface", "ring", 2, 1..=2),
    ] {
        let family = Family::parse(rule, "plane", states).unwrap();
        let t = table::graph_table(&family, name, sizes.clone(), &|_, _| {}).expect("a table");
        assert_eq!(t.entries.iter().map(|e| e.size).collect::<Vec<_>>(), sizes.clone().collect::<Vec<_>>());
        assert!(t.describe().contains(&format!("{name} graphs")), "{}", t.describe());
        for e in &t.entries {
            let n = e.size;
            let src =
                format!("puzzle \"t\" {{\n  graph {name} {n}\n  rule {rule}\n  states {states}\n  lights on\n}}\n");
            let (p, r) = solved(&src, None);
            let r = r.expect("solved");
            assert_eq!(e.nodes, p.cells(), "{name} {n}");
            assert_eq!((e.answer.solvable, &e.answer.solutions), (r.solvable, &r.solutions), "{name} {n} {rule}");
            if (states as f64).powi(p.cells() as i32) <= 1e6 {
                assert_eq!(e.answer.kernel.size(), BigUint::from(brute_kernel(&p)), "{name} {n} {rule} W={states}");
            }
            let nullity = e.answer.kernel.exponent_of(states);
            match (name, rule) {
                ("cycle", "cross") => assert_eq!(nullity, Some(if n % 3 == 0 { 2 } else { 0 }), "C_{n}"),
                ("path", "cross") => assert_eq!(nullity, Some(usize::from(n % 3 == 2)), "P_{n}"),
                ("complete", "cross") => {
                    assert_eq!(nullity, Some(n - 1), "K_{n}");
                    assert_eq!(e.answer.solutions, BigUint::from(6u32).pow(n as u32 - 1), "K_{n}");
                }
                _ => {}
            }
        }
    }
    // Cube surfaces have 6N² nodes.
    let ring = Family::parse("ring", "plane", 2).unwrap();
    let t = table::graph_table(&ring, "cube-surface", 1..=3, &|_, _| {}).unwrap();
    assert_eq!(t.entries.iter().map(|e| (e.nodes, e.edges)).collect::<Vec<_>>(), [(6, 12), (24, 48), (54, 108)]);
}

#[test]
fn graph_table_errors() {
    let cross = Family::parse("cross", "plane", 2).unwrap();
    let err = |name: &str, sizes: std::ops::RangeInclusive<usize>, family: &Family| {
        table::validate_graphs(family, name, &sizes).unwrap_err().to_string()
    };
    let petersen = err("petersen", 1..=3, &cross);
    assert!(petersen.contains("`petersen` is one graph") && petersen.contains("census --graph petersen"), "{petersen}");
    let unknown = err("cycl", 3..=5, &cross);
    assert!(unknown.contains("unknown graph family `cycl`") && unknown.contains("cycle, path, complete, cube-surface"));
    assert!(err("cycle", 1..=5, &cross).contains("`cycle N` takes 3 ≤ N ≤"), "{}", err("cycle", 1..=5, &cross));
    assert!(err("complete", 10..=5000, &cross).contains("1 ≤ N ≤ 4000"));
    let (high, low) = (9, 5);
    assert!(err("cycle", high..=low, &cross).contains("empty"));
    let king = Family::parse("king", "plane", 2).unwrap();
    assert!(err("cycle", 3..=5, &king).contains("cross") && err("cycle", 3..=5, &king).contains("not king"));
}

/// `census` on the nodes of a graph: the same counts as solving every
/// position written in the language.
#[test]
fn census_of_a_graph_matches_solving_every_position() {
    let petersen = named("petersen", None).unwrap();
    for (rule, lock_dark) in [("ring", false), ("cross", false), ("cross", true)] {
        let family = Family::parse(rule, "plane", 2).unwrap().on_graph(petersen.clone()).unwrap();
        assert!(family.describe().contains("graph petersen (10 nodes)"), "{}", family.describe());
        let query = Query { rows: 1, cols: 10, on: 0..=10, lock_dark };
        let method = if lock_dark { Method::Enumeration } else { Method::Auto };
        let c = census_with(&family, &query, method, &|_, _| {}).expect("counted");
        let mut want = [0u64; 11];
        for mask in 0u32..1 << 10 {
            let on: Vec<String> = (0..10).filter(|i| mask >> i & 1 == 1).map(|i| (i + 1).to_string()).collect();
            let off: Vec<String> = (0..10).filter(|i| mask >> i & 1 == 0).map(|i| (i + 1).to_string()).collect();
            let mut src = format!("puzzle \"c\" {{\n  graph petersen\n  rule {rule}\n");
            if !on.is_empty() {
                src.push_str(&format!("  lights at {}\n", on.join(" ")));
            }
            if lock_dark && !off.is_empty() {
                src.push_str(&format!("  locked at {}\n", off.join(" ")));
            }
            src.push_str("}\n");
            if solved(&src, None).1.expect("solved").solvable {
                want[on.len()] += 1;
            }
        }
        let got: Vec<u64> = c.rows.iter().map(|r| r.solvable.to_string().parse().unwrap()).collect();
        assert_eq!(got, want, "petersen {rule} lock_dark={lock_dark}");
    }
    assert!(Family::parse("king", "plane", 2)
        .unwrap()
        .on_graph(petersen.clone())
        .unwrap_err()
        .to_string()
        .contains("not king"));
    // A query must be the graph's one row of nodes, and K at most its nodes.
    let on_petersen = Family::parse("cross", "plane", 2).unwrap().on_graph(petersen).unwrap();
    let query = |rows, cols, on| Query { rows, cols, on, lock_dark: false };
    let validate = lights_authoring::census::validate;
    let e = validate(&on_petersen, &query(2, 5, 0..=1)).unwrap_err();
    assert_eq!(e, CensusError::NotTheGraph { rows: 2, cols: 5, nodes: 10 });
    assert!(e.to_string().contains("must be 1×10, not 2×5"));
    let e = validate(&on_petersen, &query(1, 10, 0..=11)).unwrap_err();
    assert!(e.to_string().contains("cannot have 11 lights on: there are only 10 lights"), "{e}");
    let big = Family::parse("cross", "plane", 2).unwrap().on_graph(named("cube-surface", Some(58)).unwrap()).unwrap();
    let e = validate(&big, &query(1, 20_184, 0..=1)).unwrap_err();
    assert!(e.to_string().starts_with("the graph has 20184 nodes; at most 20000"), "{e}");
}

// ------------------------------------------------------------------ census

/// Solvable positions of a hex board with K lights on, by solving each one
/// written in the language.
fn brute_census(rows: usize, cols: usize, k: usize, lock_dark: bool) -> u64 {
    let n = rows * cols;
    let mut count = 0;
    for mask in 0u32..(1 << n) {
        if mask.count_ones() as usize != k {
            continue;
        }
        let at = |on: bool| -> Vec<String> {
            (0..n)
                .filter(|&i| (mask >> i & 1 == 1) == on)
                .map(|i| format!("{},{}", i / cols + 1, i % cols + 1))
                .collect()
        };
        let mut src = format!("puzzle \"c\" {{\n  size {rows}x{cols}\n  grid hex\n");
        if k > 0 {
            src.push_str(&format!("  lights at {}\n", at(true).join(" ")));
        }
        if lock_dark && k < n {
            src.push_str(&format!("  locked at {}\n", at(false).join(" ")));
        }
        src.push_str("}\n");
        let (_, r) = solved(&src, None);
        if r.expect("solved").solvable {
            count += 1;
        }
    }
    count
}

#[test]
fn census_of_a_hex_board_matches_brute_force() {
    let family = Family::parse("cross", "plane", 2).unwrap().on_hex().unwrap();
    for lock_dark in [false, true] {
        let query = Query { rows: 3, cols: 3, on: 0..=9, lock_dark };
        let method = if lock_dark { Method::Enumeration } else { Method::Syndromes };
        let c = census_with(&family, &query, method, &|_, _| {}).expect("counted");
        for row in &c.rows {
            assert_eq!(
                row.solvable,
                BigUint::from(brute_census(3, 3, row.on, lock_dark)),
                "K = {} {lock_dark}",
                row.on
            );
        }
    }
    let torus = Family::parse("cross", "torus", 2).unwrap().on_hex().unwrap();
    let odd = Query { rows: 3, cols: 4, on: 0..=2, lock_dark: false };
    assert!(matches!(census_with(&torus, &odd, Method::Auto, &|_, _| {}), Err(CensusError::NoSuchBoard { .. })));
}

// ------------------------------------------------------------------ export

#[test]
fn exported_graph_systems_name_nodes_and_edges() {
    let (p, r) = solved(PETERSEN, None);
    let s = system_json(&p);
    assert_eq!(s.shape.as_deref(), Some("graph"));
    let g = s.graph.as_ref().expect("the graph");
    assert_eq!((g.name.as_str(), g.nodes, g.edges.len()), ("petersen", 10, 15));
    assert!(g.edges.contains(&[1, 2]) && g.edges.contains(&[1, 6]));
    assert!(s.meaning.contains("node"));
    // Node 10 is locked: the unknowns are nodes 1–9, as [1, node].
    assert_eq!(s.unknowns, (1..=9).map(|k| [1, k]).collect::<Vec<_>>());
    // Column j holds the neighbours of its node (ring: not the node itself).
    for (j, &[_, node]) in s.unknowns.iter().enumerate() {
        let rows: BTreeSet<usize> =
            s.matrix.entries.iter().filter(|e| e[1] as usize == j).map(|e| e[0] as usize + 1).collect();
        let want: BTreeSet<usize> = press_pattern(&p, 0, node - 1).into_iter().map(|(i, _)| i + 1).collect();
        assert_eq!(rows, want, "node {node}");
        assert!(!rows.contains(&node));
    }
    let text = json_text(&p);
    let back: SystemJson = serde_json::from_str(&text).expect("JSON");
    assert_eq!(back, s);
    // The system solves like the compiler.
    let mut a = lights_algebra::SparseMatrix::new(s.matrix.shape[0], s.matrix.shape[1]);
    for e in &s.matrix.entries {
        a.push_entry(e[1] as usize, e[0] as usize, e[2]);
    }
    let sol = lights_algebra::solve(&a, &s.b, s.modulus).expect("solves");
    assert_eq!(sol.consistent, r.as_ref().unwrap().solvable);
    assert_eq!(sol.count(), r.as_ref().unwrap().solutions);
    // Sage: unknowns and the solution by node.
    let sage = sage_script(&p);
    assert!(sage.contains("unknowns = [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"), "{sage}");
    assert!(sage.contains("N = 10  # nodes\n"));
    assert!(sage.contains("\"%d:%d\" % (k, v)"));
}

#[test]
fn exported_holes_are_no_unknowns_and_hex_is_marked() {
    let (p, _) = solved(DONUT, None);
    let s = system_json(&p);
    assert_eq!(s.shape, None, "a square board");
    assert_eq!(s.holes, vec![[2, 2], [3, 3]]);
    assert!(!s.unknowns.contains(&[2, 2]) && !s.unknowns.contains(&[1, 1]));
    assert_eq!(s.unknowns.len(), 13);
    // The holes' rows are empty and their b is 0: row i is still cell i.
    assert_eq!(s.matrix.shape, [16, 13]);
    assert!(s.matrix.entries.iter().all(|e| e[0] != 5 && e[0] != 10));
    assert_eq!((s.b[5], s.b[10]), (0, 0));
    assert!(s.meaning.contains("holes"));
    let text = json_text(&p);
    assert!(text.contains("\"holes\": [\n    [2, 2],\n    [3, 3]\n  ],"), "{text}");
    assert_eq!(serde_json::from_str::<SystemJson>(&text).unwrap(), s);
    assert!(sage_script(&p).contains("# Holes (no light, no button)"));

    let (h, _) = solved(HEX, None);
    let s = system_json(&h);
    assert_eq!(s.shape.as_deref(), Some("hex"));
    assert!(s.holes.is_empty() && s.graph.is_none());
    // A middle cell of a hex board reaches six neighbours.
    let col = s.unknowns.iter().position(|&c| c == [2, 2]).unwrap();
    assert_eq!(s.matrix.entries.iter().filter(|e| e[1] as usize == col).count(), 7);
    assert!(sage_script(&h).contains("hexagons"));
}

#[test]
fn hex_cylinders_and_tori_show_their_gluing_and_graphs_have_no_borders() {
    let arrows = |svg: &str| -> Vec<(String, String)> {
        let doc = parse(svg);
        let Some(group) = by_id(&doc, "lights-gluing") else { return Vec::new() };
        children(group, "path")
            .iter()
            .map(|a| {
                assert_eq!(a.attribute("class"), Some("glue-arrow"));
                (a.attribute("data-border").unwrap().to_string(), a.attribute("data-gluing").unwrap().to_string())
            })
            .collect()
    };
    let pair = |b: &str, g: &str| (b.to_string(), g.to_string());
    for (topology, want) in [
        ("plane", vec![]),
        ("cylinder", vec![pair("left", "glued"), pair("right", "glued")]),
        ("torus", vec![pair("left", "glued"), pair("right", "glued"), pair("top", "glued"), pair("bottom", "glued")]),
    ] {
        let src = format!("puzzle \"h\" {{\n  size 4x5\n  grid hex\n  topology {topology}\n  lights at 1,1\n}}\n");
        let (p, r) = solved(&src, None);
        let pic = draw(&p, r.as_ref(), Some(Show::Lights), None);
        assert_eq!(arrows(&pic.svg), want, "{topology}");
        // Outside the hexagons: left of every corner, right of every corner.
        let doc = parse(&pic.svg);
        let xs: Vec<f64> = children(by_id(&doc, "lights-cells").unwrap(), "polygon")
            .iter()
            .flat_map(|poly| corners(*poly).into_iter().map(|c| c.0))
            .collect();
        if let Some(group) = by_id(&doc, "lights-gluing") {
            for a in children(group, "path") {
                let d = a.attribute("d").unwrap();
                let x: f64 = d[1..].split(' ').next().unwrap().parse().unwrap();
                match a.attribute("data-border") {
                    Some("left") => assert!(xs.iter().all(|&c| x < c)),
                    Some("right") => assert!(xs.iter().all(|&c| x > c)),
                    _ => {}
                }
            }
        }
        // Compact hex bricks get them too.
        let small = draw(&p, r.as_ref(), Some(Show::Lights), Some(4));
        assert_eq!(arrows(&small.svg), want, "{topology}, compact");
    }
    // Graphs have no borders: no arrows, and no legend line for them.
    let (p, r) = solved(PETERSEN, None);
    let pic = draw(&p, r.as_ref(), None, None);
    assert!(!pic.svg.contains("glue-arrow") && !pic.svg.contains("arrows:"));
}

#[test]
fn numbers_on_hexagons_and_graph_nodes() {
    let src = "puzzle \"h\" {\n  size 3x4\n  grid hex\n  states 5\n  lights at 1,1:4 2,1:3 3,4:1\n}\n";
    let (p, r) = solved(src, None);
    let pic = draw(&p, r.as_ref(), Some(Show::Lights), None);
    let doc = parse(&pic.svg);
    let centres: Vec<(f64, f64)> =
        children(by_id(&doc, "lights-cells").unwrap(), "polygon").iter().map(|poly| mean(&corners(*poly))).collect();
    let texts = children(by_id(&doc, "lights-numbers").expect("numbers with 5 states"), "text");
    assert_eq!(texts.len(), 12);
    for (k, t) in texts.iter().enumerate() {
        assert_eq!(t.attribute("class"), Some("cell-number"));
        assert_eq!(nearest(&centres, attr(*t, "x"), attr(*t, "y") - 6.0), k);
        assert_eq!(t.text().unwrap().parse::<u16>().unwrap(), p.lights.get(k));
    }

    // A graph: the state inside each node, the node number beside it.
    let src = "puzzle \"g\" {\n  graph petersen\n  states 3\n  lights at 1:2 4:1\n  locked at 10\n}\n";
    let (p, r) = solved(src, None);
    let pic = draw(&p, r.as_ref(), None, Some(40));
    let doc = parse(&pic.svg);
    let nodes = node_centres(&doc, "lights");
    let states = children(by_id(&doc, "lights-numbers").expect("states"), "text");
    assert_eq!(states.len(), 10);
    for (t, (node, (cx, cy))) in states.iter().zip(&nodes) {
        assert_eq!(t.attribute("class"), Some("cell-number"));
        assert!((attr(*t, "x") - cx).hypot(attr(*t, "y") - cy) < 20.0, "inside node {node}");
        assert_eq!(t.text().unwrap().parse::<u16>().unwrap(), p.lights.get(node - 1));
    }
    let labels = children(by_id(&doc, "lights-labels").unwrap(), "text");
    let numbers: Vec<&str> = labels.iter().filter_map(resvg::usvg::roxmltree::Node::text).collect();
    assert_eq!(numbers, ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    for (l, (_, (cx, cy))) in labels.iter().zip(&nodes) {
        assert!(attr(*l, "x") > *cx && attr(*l, "y") > cy + 14.0, "beside, at the bottom right");
    }
    // Marks, when shown, stay at the top right.
    assert!(by_id(&doc, "marks").is_some());
    let never = picture::svg(
        &p,
        r.as_ref(),
        &picture::Options { cell: Some(40), numbers: picture::Numbers::Never, ..Default::default() },
    )
    .unwrap();
    assert!(!never.svg.contains("cell-number"));
    let png = picture::png(&pic.svg).expect("png");
    assert_eq!((png.width, png.height), (pic.width, pic.height));
}
