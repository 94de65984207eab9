//! Parsing and formatting of the shape statements: `holes { … }` and
//! `holes at …`, `grid hex`, `graph NAME [N]`, edge lists `graph { 1-2 … }`
//! (one line or several, with comments), node entries (`lights at 1 4:1`);
//! the formatter's output for them is canonical and a fixed point, and
//! malformed ones are syntax errors, never panics.

use lights_syntax::{format_source, parse, GraphItem, GraphSpec, SourceFile, Statement, StatementKind, Value};
use proptest::prelude::*;

/// The statements of the only block of a file that must parse cleanly.
fn statements(src: &str) -> Vec<Statement> {
    let file = parse(src);
    assert!(file.errors.is_empty(), "{src:?}: {:?}", file.errors);
    assert_eq!(file.blocks.len(), 1, "{src:?}");
    file.blocks[0].statements.clone()
}

/// `1-2`, `4` as written (numbers as their text), each span on its text.
fn items(src: &str, list: &[GraphItem]) -> Vec<String> {
    list.iter()
        .map(|i| {
            let a = i.a(src);
            assert_eq!(a.span.text(src), a.text);
            assert!(a.text.bytes().all(|c| c.is_ascii_digit()) && !a.text.is_empty());
            assert!(i.span.text(src).starts_with(&a.text));
            match i.b(src) {
                Some(b) => {
                    assert!(b.text.bytes().all(|c| c.is_ascii_digit()) && !b.text.is_empty());
                    assert!(i.span.text(src).ends_with(&b.text));
                    format!("{}-{}", a.text, b.text)
                }
                None => a.text.clone(),
            }
        })
        .collect()
}

fn edges_of(src: &str) -> Vec<String> {
    let stmts = statements(src);
    let list = stmts
        .iter()
        .find_map(|s| match &s.kind {
            StatementKind::Graph(GraphSpec::Edges(e)) => Some(e.items.clone()),
            _ => None,
        })
        .expect("an edge list");
    items(src, &list)
}

/// Formats, checks the output is a fixed point, returns it.
fn fmt(src: &str) -> String {
    let out = format_source(src).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    assert_eq!(format_source(&out).unwrap(), out, "not idempotent on {src:?}");
    out
}

#[test]
fn holes_as_a_mask_and_as_a_list() {
    let src = "puzzle \"h\" {\n  size 3x4\n  holes {\n    . x . .\n    . . . x\n  }\n}\n";
    let stmts = statements(src);
    let StatementKind::Holes(Value::Grid(g)) = &stmts[1].kind else { panic!("{:?}", stmts[1].kind) };
    assert_eq!(g.rows.len(), 2);
    assert_eq!(g.rows[0].cells(4).iter().map(|s| s.text(src)).collect::<Vec<_>>(), [".", "x", ".", "."]);
    assert_eq!(stmts[1].kind.keyword(), "holes");

    let src = "puzzle \"h\" { size 3x3 holes at 1,1  3,3 }\n";
    let stmts = statements(src);
    let StatementKind::Holes(Value::Sparse(s)) = &stmts[1].kind else { panic!("{:?}", stmts[1].kind) };
    let cells: Vec<(String, Option<String>)> =
        s.entries.iter().map(|e| (e.row.text.clone(), e.col.as_ref().map(|c| c.text.clone()))).collect();
    assert_eq!(cells, [("1".into(), Some("1".into())), ("3".into(), Some("3".into()))]);
    // A compact mask row, and `/` between rows.
    let stmts = statements("puzzle \"h\" { size 2x3 holes { x.. / ..x } }\n");
    let StatementKind::Holes(Value::Grid(g)) = &stmts[1].kind else { panic!() };
    assert_eq!(g.rows.len(), 2);
    // `on` and `off`, as for `locked`; written back as they are.
    let src = "puzzle \"h\" {\n  graph petersen\n  holes off\n  locked on\n}\n";
    let stmts = statements(src);
    assert!(matches!(stmts[1].kind, StatementKind::Holes(Value::Off(_))), "{:?}", stmts[1].kind);
    assert!(matches!(stmts[2].kind, StatementKind::Locked(Value::On(_))), "{:?}", stmts[2].kind);
    assert_eq!(format_source(src).unwrap(), src);
}

#[test]
fn grid_shapes() {
    for shape in ["hex", "square"] {
        let stmts = statements(&format!("puzzle \"g\" {{\n  grid {shape}\n  size 2x2\n}}\n"));
        let StatementKind::Grid(id) = &stmts[0].kind else { panic!("{:?}", stmts[0].kind) };
        assert_eq!(id.text, shape);
        assert_eq!(stmts[0].kind.keyword(), "grid");
    }
    // Any name parses; the compiler says which grids exist.
    let stmts = statements("puzzle \"g\" { grid triangle size 2x2 }\n");
    assert!(matches!(&stmts[0].kind, StatementKind::Grid(id) if id.text == "triangle"));
}

#[test]
fn named_graphs() {
    for (text, name, size) in [
        ("graph petersen", "petersen", None),
        ("graph   cycle   7", "cycle", Some("7")),
        ("graph cube-surface 3", "cube-surface", Some("3")),
        ("graph complete 012", "complete", Some("012")),
        ("graph icosahedron // twelve nodes", "icosahedron", None),
    ] {
        let src = format!("puzzle \"g\" {{\n  {text}\n}}\n");
        let stmts = statements(&src);
        let StatementKind::Graph(GraphSpec::Named { name: n, size: s }) = &stmts[0].kind else {
            panic!("{text}: {:?}", stmts[0].kind)
        };
        assert_eq!(n.text, name, "{text}");
        assert_eq!(s.as_ref().map(|s| s.text.as_str()), size, "{text}");
        assert_eq!(n.span.text(&src), name);
    }
    // On one line with other statements.
    let stmts = statements("puzzle \"g\" { graph cycle 5 lights at 1 states 3 }\n");
    assert_eq!(stmts.iter().map(|s| s.kind.keyword()).collect::<Vec<_>>(), ["graph", "lights", "states"]);
}

#[test]
fn edge_lists_on_one_line_and_on_several() {
    assert_eq!(edges_of("puzzle \"e\" { graph { 1-2 2-3 3-1 4 } }\n"), ["1-2", "2-3", "3-1", "4"]);
    assert_eq!(edges_of("puzzle \"e\" { graph {1-2 2 - 3   3 -1} }\n"), ["1-2", "2-3", "3-1"]);
    assert_eq!(edges_of("puzzle \"e\" { graph {} }\n"), Vec::<String>::new());
    let src = "puzzle \"m\" {\n  graph { // edges\n    1-2   2-3 // a path\n    // the other side\n    3 - 4\n\n    5\n    10-11\n  }\n  states 3\n}\n";
    assert_eq!(edges_of(src), ["1-2", "2-3", "3-4", "5", "10-11"]);
    let file: SourceFile = parse(src);
    let comments: Vec<&str> = file.comments.iter().map(|c| c.text(src)).collect();
    assert_eq!(comments, ["// edges", "// a path", "// the other side"]);
    assert_eq!(file.blocks[0].statements[1].kind.keyword(), "states");
}

#[test]
fn node_entries() {
    let src = "puzzle \"n\" { graph petersen lights at 1 4:1 10:2 goal at 3 locked at 7 holes at 2 }\n";
    let stmts = statements(src);
    let entries = |k: usize| -> Vec<(String, Option<String>, Option<String>)> {
        let (StatementKind::Lights(Value::Sparse(s))
        | StatementKind::Goal(Value::Sparse(s))
        | StatementKind::Locked(Value::Sparse(s))
        | StatementKind::Holes(Value::Sparse(s))) = &stmts[k].kind
        else {
            panic!("{:?}", stmts[k].kind)
        };
        s.entries
            .iter()
            .map(|e| {
                (e.row.text.clone(), e.col.as_ref().map(|c| c.text.clone()), e.value.as_ref().map(|v| v.text.clone()))
            })
            .collect()
    };
    let node = |n: &str, v: Option<&str>| (n.to_string(), None, v.map(String::from));
    assert_eq!(entries(1), [node("1", None), node("4", Some("1")), node("10", Some("2"))]);
    assert_eq!(entries(2), [node("3", None)]);
    assert_eq!(entries(3), [node("7", None)]);
    assert_eq!(entries(4), [node("2", None)]);
}

#[test]
fn formatting_is_canonical() {
    for (src, want) in [
        // Hex boards: rows 2, 4, … shifted by half a cell, holes too.
        (
            "puzzle \"h\" {\nsize 3x4\n grid   hex\n  holes {\n. x . .\n. . . x\n   x . . .\n}\nlights on\n}\n",
            "puzzle \"h\" {\n  size 3x4\n  grid hex\n  holes {\n    . x . .\n     . . . x\n    x . . .\n  }\n  lights on\n}\n",
        ),
        // Two-digit cells: columns right-aligned each to its widest cell, the shift is one space.
        (
            "puzzle \"h\" { size 2x3 grid hex states 12 lights {\n11 . 3\n 1 10 .\n} }\n",
            "puzzle \"h\" {\n  size 2x3\n  grid hex\n  states 12\n  lights {\n    11  . 3\n      1 10 .\n  }\n}\n",
        ),
        (
            "puzzle \"h\" { size 3x3 holes at 1,1  3,3 lights at 2,2:1 2,3:2 locked at 1,2 }\n",
            "puzzle \"h\" {\n  size 3x3\n  holes at 1,1 3,3\n  lights at 2,2 2,3:2\n  locked at 1,2\n}\n",
        ),
        (
            "puzzle \"g\" {\n graph   petersen\n}\npuzzle \"c\" { graph cycle   007 }\npuzzle \"s\" { graph cube-surface 3 }\n",
            "puzzle \"g\" {\n  graph petersen\n}\n\npuzzle \"c\" {\n  graph cycle 7\n}\n\npuzzle \"s\" {\n  graph cube-surface 3\n}\n",
        ),
        (
            "puzzle \"e\" { graph {1-2   02 - 3 3-1 4} lights at 1 4:1 }\n",
            "puzzle \"e\" {\n  graph { 1-2 2-3 3-1 4 }\n  lights at 1 4\n}\n",
        ),
        (
            "puzzle \"m\" {\n  graph { // edges\n    1-2   2-3 // a path\n    // the other side\n    3 - 4\n\n\n    5\n  }\n  lights at 1 5:1\n}\n",
            "puzzle \"m\" {\n  graph { // edges\n    1-2 2-3 // a path\n    // the other side\n    3-4\n\n    5\n  }\n  lights at 1 5\n}\n",
        ),
        ("puzzle \"b\" {\n graph {\n 1-2\n}\n}\n", "puzzle \"b\" {\n  graph {\n    1-2\n  }\n}\n"),
        ("puzzle \"b\" { graph {} }\n", "puzzle \"b\" {\n  graph {}\n}\n"),
        (
            "puzzle \"x\" { graph cycle 5 lights at 1 2:2 states 3 expect solvable }\n",
            "puzzle \"x\" {\n  graph cycle 5\n  lights at 1 2:2\n  states 3\n  expect solvable\n}\n",
        ),
    ] {
        assert_eq!(fmt(src), want, "{src:?}");
        assert_eq!(fmt(want), want, "canonical input changed: {want:?}");
        // The formatted file means the same: same statements, same edges.
        let before: Vec<&str> = parse(src).blocks.iter().flat_map(|p| p.statements.iter().map(|s| s.kind.keyword())).collect();
        let after: Vec<&str> = parse(want).blocks.iter().flat_map(|p| p.statements.iter().map(|s| s.kind.keyword())).collect();
        assert_eq!(before, after);
    }
}

#[test]
fn malformed_shapes_are_syntax_errors() {
    for stmt in [
        "graph { 1- }",
        "graph { -2 }",
        "graph { 1-2-3 }",
        "graph { 1--2 }",
        "graph { a-b }",
        "graph { 1:2 }",
        "graph { 1,2 }",
        "graph { 1-2",
        "graph {\n 1-2\n 3-",
        "graph",
        "graph 7",
        "graph cycle seven",
        "graph cycle 7 8",
        "grid",
        "grid 3",
        "grid hex square",
        "holes",
        "holes onn",
        "holes at",
        "holes at 1,",
        "lights at 1:",
        "lights at :1",
    ] {
        let src = format!("puzzle \"b\" {{\n  size 2x2\n  {stmt}\n}}\n");
        let file = parse(&src);
        assert!(!file.errors.is_empty(), "{stmt:?} parsed without error: {:?}", file.blocks[0].statements);
        assert!(format_source(&src).is_err(), "{stmt:?}");
        // The next block still parses.
        let two = format!("{src}puzzle \"next\" {{ graph petersen }}\n");
        let file = parse(&two);
        assert!(file.blocks.iter().any(|p| p.name.as_ref().is_some_and(|n| n.value == "next")), "{stmt:?}");
    }
}

/// Pieces of an edge list, valid or not.
fn junk() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "1", "2", "12", "007", "-", " - ", " ", "\n", "// c\n", "}", "{", "x", ":", ",", "at", "/",
        ]),
        0..24,
    )
    .prop_map(|v| v.concat())
}

/// A valid edge list: items, each written with random spacing, lines and comments.
fn edge_list() -> impl Strategy<Value = (String, Vec<String>)> {
    prop::collection::vec((1u32..40, prop::option::of(1u32..40), 0usize..4, 0usize..5), 0..12).prop_map(|items| {
        let mut text = String::from("{");
        let mut want = Vec::new();
        for (a, b, dash, sep) in items {
            text.push_str([" ", "  ", "\n  ", " // note\n ", "\n\n"][sep]);
            match b {
                Some(b) => {
                    text.push_str(&format!("{a}{}{b}", ["-", " -", "- ", " - "][dash]));
                    want.push(format!("{a}-{b}"));
                }
                None => {
                    text.push_str(&a.to_string());
                    want.push(a.to_string());
                }
            }
        }
        text.push_str(" }");
        (text, want)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Whatever follows `graph`, the parser answers (errors or not) without
    /// panicking; what parses formats to a fixed point.
    #[test]
    fn anything_after_graph_parses_or_errs(body in junk()) {
        let src = format!("puzzle \"j\" {{\n  graph {body}\n  lights at 1\n}}\n");
        let file = parse(&src);
        if file.errors.is_empty() {
            let out = format_source(&src).unwrap();
            prop_assert_eq!(format_source(&out).unwrap(), out.clone());
        } else {
            prop_assert!(format_source(&src).is_err());
        }
    }

    /// Written edge lists keep their items through the formatter.
    #[test]
    fn edge_lists_survive_formatting((list, want) in edge_list()) {
        let src = format!("puzzle \"e\" {{\n  graph {list}\n  lights at 1 2:1\n}}\n");
        prop_assert_eq!(edges_of(&src), want.clone());
        let out = fmt(&src);
        prop_assert_eq!(edges_of(&out), want);
    }

    /// Hex grids of any values keep their cells through the formatter
    /// (narrow boards shifted, wide ones in compact rows when they can be).
    #[test]
    fn hex_grids_survive_formatting(
        (rows, cols, cells) in (1usize..6, prop_oneof![2usize..6, 33usize..38]).prop_flat_map(|(r, c)| (Just(r), Just(c), prop::collection::vec(0u32..if c > 32 { 10 } else { 13 }, r * c)))
    ) {
        let text = |v: u32| if v == 0 { ".".to_string() } else { v.to_string() };
        let grid: String = cells.chunks(cols).map(|row| row.iter().map(|&v| text(v)).collect::<Vec<_>>().join(" ") + "\n").collect();
        let src = format!("puzzle \"h\" {{\n  size {rows}x{cols}\n  grid hex\n  states 13\n  lights {{\n{grid}}}\n}}\n");
        let out = fmt(&src);
        let values = |s: &str| -> Vec<String> {
            let stmts = statements(s);
            let g = stmts.iter().find_map(|st| st.kind.grid()).expect("a grid").clone();
            g.rows.iter().flat_map(|r| r.cells(cols)).map(|sp| sp.text(s).to_string()).collect()
        };
        prop_assert_eq!(values(&out), values(&src));
    }
}

/// A malformed `graph { … }` on the line that closes its block is one error,
/// and the block still ends there (the junk stops before the block's `}`).
#[test]
fn a_bad_graph_on_the_closing_line_leaves_the_block_closed() {
    for src in [
        "puzzle \"a\" { graph { 1-2-3 } }\n",
        "puzzle \"a\" { graph { 1--2 } }\n",
        "puzzle \"a\" { graph { 1-2 x } }\n",
        "puzzle \"a\" { graph { 1-2\n3-x } }\n",
        "puzzle \"a\" { lights { 1 y / 1 1 } }\n",
    ] {
        let two = format!("{src}puzzle \"b\" {{ graph petersen }}\n");
        let file = parse(&two);
        assert_eq!(file.errors.len(), 1, "{src:?}: {:?}", file.errors);
        assert!(!format!("{:?}", file.errors).contains("never closed"), "{src:?}: {:?}", file.errors);
        let names: Vec<&str> = file.blocks.iter().filter_map(|p| p.name.as_ref().map(|n| n.value.as_str())).collect();
        assert_eq!(names, ["a", "b"], "{src:?}");
    }
}
