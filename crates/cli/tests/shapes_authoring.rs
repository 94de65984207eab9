//! The real `lights` binary on boards with holes, hex grids and graphs:
//! `render`, `generate`, `table`, `census` and `compile`, end to end.

mod common;

use std::process::Output;

use common::{lights, scratch, stderr, stdout};
use lights_compiler::{check_source, BlockReport};

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

/// The text of the SVG group with this id (up to its first closing tag).
fn group<'a>(svg: &'a str, id: &str) -> &'a str {
    let start = svg.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id}"));
    let end = svg[start..].find("</g>").expect("closed") + start;
    &svg[start..end]
}

const SHAPES: &str = r#"puzzle "hex" {
  size 3x4
  grid hex
  lights on
}

puzzle "donut" {
  size 4x4
  holes at 2,2 3,3
  locked at 1,1
  lights on
}

puzzle "petersen" {
  graph petersen
  rule ring
  lights on
}

puzzle "net" {
  graph cube-surface 2
  lights at 1 5 9
}
"#;

fn render(dir: &std::path::Path, puzzle: &str, out: &str, extra: &[&str]) -> (String, String) {
    let mut args = vec!["render", "shapes.lights", "--puzzle", puzzle, "-o", out];
    args.extend_from_slice(extra);
    let o = lights(dir, &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let svg = if std::path::Path::new(out).extension().is_some_and(|e| e.eq_ignore_ascii_case("svg")) {
        std::fs::read_to_string(dir.join(out)).expect("written")
    } else {
        String::new()
    };
    (svg, stdout(&o))
}

#[test]
fn render_draws_hexagons_holes_and_graphs() {
    let dir = scratch("shapes_render");
    std::fs::write(dir.join("shapes.lights"), SHAPES).unwrap();

    let (svg, said) = render(&dir, "hex", "hex.svg", &[]);
    let cells = group(&svg, "lights-cells");
    assert_eq!(cells.matches("<polygon").count(), 12, "a hexagon per cell");
    assert_eq!(cells.matches("<rect").count(), 0);
    assert!(said.contains("(3×4 hex, 40 px cells)"), "{said}");
    // Odd rows are shifted by half a cell: row 2's first hexagon starts 20 px further right.
    let first_x = |row: usize| -> f64 {
        let poly = cells.split("<polygon").nth(1 + row * 4).unwrap();
        let pts = poly.split('"').nth(1).unwrap();
        pts.split(' ').map(|p| p.split(',').next().unwrap().parse::<f64>().unwrap()).fold(f64::MAX, f64::min)
    };
    assert!((first_x(1) - first_x(0) - 20.0).abs() < 0.2);
    assert!((first_x(2) - first_x(0)).abs() < 0.2);
    assert!(group(&svg, "marks").matches("<circle").count() > 0, "the solution is marked");
    // The same bytes every time.
    let (again, _) = render(&dir, "hex", "hex2.svg", &[]);
    assert_eq!(again, svg);

    let (svg, _) = render(&dir, "donut", "donut.svg", &[]);
    assert_eq!(group(&svg, "lights-cells").matches("<rect").count(), 14, "16 cells, 2 holes");
    // One cross (drawn twice: a dark halo, then the light stroke): the locked cell, not the holes.
    assert_eq!(group(&svg, "locked").matches("<path").count(), 2, "the locked cell, not the holes");
    assert!(svg.contains("4×4 · 2 holes · cross"));

    let (svg, said) = render(&dir, "petersen", "petersen.svg", &[]);
    assert_eq!(group(&svg, "lights-cells").matches("<circle").count(), 10, "a circle per node");
    assert_eq!(group(&svg, "lights-edges").matches("<line").count(), 15, "a line per edge");
    assert_eq!(group(&svg, "lights-labels").matches("<text").count(), 10, "numbered nodes");
    for k in 1..=10 {
        assert!(svg.contains(&format!("data-node=\"{k}\"")));
    }
    assert!(said.contains("(graph petersen, 10 nodes, "), "{said}");
    assert!(svg.contains("graph petersen · 10 nodes · 15 edges · ring · 2 states"));

    let (svg, _) = render(&dir, "net", "net.svg", &["--show", "lights"]);
    let edges = group(&svg, "lights-edges");
    assert_eq!(edges.matches("<line").count(), 48);
    assert_eq!(edges.matches("stroke-dasharray").count(), 14, "edges across the cube are dashed");
    assert_eq!(group(&svg, "lights-cells").matches("<circle").count(), 24);

    // PNG too.
    let (_, said) = render(&dir, "petersen", "petersen.png", &["--cell", "30"]);
    assert!(said.contains("30 px nodes"), "{said}");
    let png = std::fs::read(dir.join("petersen.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

/// The file checks clean with `lights check` and every claim holds.
fn checks_clean(dir: &std::path::Path, file: &str) -> String {
    let o = lights(dir, &["check", file]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let analysis = check_source(&text);
    assert!(analysis.all_diagnostics().is_empty(), "{:?}", analysis.all_diagnostics());
    text
}

#[test]
fn generate_hex_boards_and_graph_puzzles() {
    let dir = scratch("shapes_generate");
    let o = lights(
        &dir,
        &["generate", "--size", "4x5", "--grid", "hex", "--count", "3", "--seed", "7", "-o", "hex.lights"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = checks_clean(&dir, "hex.lights");
    assert_eq!(text.matches("  grid hex\n").count(), 3);
    assert!(text.contains("// lights generate --size 4x5 --grid hex "));

    let o = lights(
        &dir,
        &["generate", "--graph", "petersen", "--rule", "ring", "--count", "2", "--seed", "7", "-o", "p.lights"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = checks_clean(&dir, "p.lights");
    assert_eq!(text.matches("  graph petersen\n").count(), 2);
    assert_eq!(text.matches("  lights at ").count(), 2);
    assert!(!text.contains("size"));
    for p in check_source(&text).blocks {
        assert!(p.puzzle().unwrap().is_graph());
        assert!(p.report.as_ref().and_then(BlockReport::as_lights).unwrap().solvable);
    }

    // `cycle:7` and `cycle 7` are the same graph; the file records `cycle:7`.
    let colon = lights(&dir, &["generate", "--graph", "cycle:7", "--states", "3", "--seed", "1"]);
    let space = lights(&dir, &["generate", "--graph", "cycle 7", "--states", "3", "--seed", "1"]);
    assert_eq!(code(&colon), 0, "{}", stderr(&colon));
    assert_eq!(stdout(&colon), stdout(&space));
    assert!(stdout(&colon).contains("--graph cycle:7 "));
    assert!(stdout(&colon).contains("  graph cycle 7\n"));

    // Locks on a graph, unique.
    let o = lights(
        &dir,
        &[
            "generate",
            "--graph",
            "cube-surface:2",
            "--unique",
            "--locked-fraction",
            "0.25",
            "--seed",
            "4",
            "-o",
            "c.lights",
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = checks_clean(&dir, "c.lights");
    assert!(text.contains("  locked at ") && text.contains("expect unique"), "{text}");
}

#[test]
fn generate_refuses_flags_that_do_not_fit_the_shape() {
    let dir = scratch("shapes_generate_errors");
    for (args, says) in [
        (&["--graph", "petersen", "--size", "3x3"][..], "cannot be used with"),
        (&["--graph", "petersen", "--topology", "torus"][..], "cannot be used with"),
        (&["--graph", "petersen", "--grid", "hex"][..], "cannot be used with"),
        (&["--size", "4x4", "--grid", "hex", "--rule", "king"][..], "--grid hex takes --rule cross or ring"),
        (&["--size", "3x4", "--grid", "hex", "--topology", "torus"][..], "even number of rows"),
        (&["--size", "4x4", "--grid", "hex", "--topology", "klein"][..], "plane, cylinder or torus"),
        (&["--graph", "petersen", "--rule", "flip"][..], "--graph takes --rule cross or ring"),
        (&["--graph", "cycle"][..], "needs a size"),
        (&["--graph", "petersn"][..], "unknown graph"),
        (&[][..], "--size"),
    ] {
        let mut all = vec!["generate", "--seed", "1"];
        all.extend_from_slice(args);
        let o = lights(&dir, &all);
        assert_eq!(code(&o), 2, "{all:?}");
        assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
    }
}

#[test]
fn table_of_hex_boards_matches_the_solver() {
    let dir = scratch("shapes_table");
    for (rule, topology) in [("cross", "plane"), ("ring", "torus")] {
        let o = lights(
            &dir,
            &[
                "table",
                "--rows",
                "1..4",
                "--cols",
                "1..5",
                "--grid",
                "hex",
                "--rule",
                rule,
                "--topology",
                topology,
                "--format",
                "json",
            ],
        );
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        assert_eq!(v["grid"], "hex");
        let rows: Vec<u64> = v["rows"].as_array().unwrap().iter().map(|r| r.as_u64().unwrap()).collect();
        assert_eq!(rows, if topology == "torus" { vec![2, 4] } else { vec![1, 2, 3, 4] }, "a hex torus has even rows");
        let mut src = String::new();
        for e in v["entries"].as_array().unwrap() {
            let (r, c) = (e["rows"].as_u64().unwrap(), e["cols"].as_u64().unwrap());
            src.push_str(&format!(
                "puzzle \"{r}x{c}\" {{\n  size {r}x{c}\n  grid hex\n  rule {rule}\n  topology {topology}\n  lights on\n}}\n\n"
            ));
        }
        let analysis = check_source(&src);
        for (e, p) in v["entries"].as_array().unwrap().iter().zip(&analysis.blocks) {
            let report = p.report.as_ref().and_then(BlockReport::as_lights).expect("solved");
            assert_eq!(e["solvable"].as_bool(), Some(report.solvable), "{:?}", p.name);
            assert_eq!(e["solutions"].as_str(), Some(report.solutions.to_string().as_str()), "{:?}", p.name);
        }
    }
    let text = stdout(&lights(&dir, &["table", "--rows", "1..3", "--grid", "hex"]));
    assert!(text.contains("cross rule · hex grid · plane · 2 states"), "{text}");
    let o = lights(&dir, &["table", "--rows", "1..3", "--grid", "hex", "--rule", "king"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--grid hex: a hex grid takes the rule cross or ring"), "{}", stderr(&o));
    let o = lights(&dir, &["table", "--rows", "3", "--grid", "hex", "--topology", "torus"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("even number of rows"), "{}", stderr(&o));
}

#[test]
fn compile_emits_graph_systems() {
    let dir = scratch("shapes_compile");
    std::fs::write(dir.join("shapes.lights"), SHAPES).unwrap();
    let o = lights(&dir, &["compile", "shapes.lights", "--puzzle", "petersen", "--emit", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["shape"], "graph");
    assert_eq!(v["graph"]["name"], "petersen");
    assert_eq!(v["graph"]["nodes"], 10);
    assert_eq!(v["graph"]["edges"].as_array().map(Vec::len), Some(15));
    assert_eq!(v["size"], serde_json::json!({"rows": 1, "cols": 10}));
    assert_eq!(v["unknowns"][9], serde_json::json!([1, 10]));
    // Ring on a 3-regular graph: three entries per column, none on the diagonal.
    let entries = v["matrix"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 30);
    assert!(entries.iter().all(|e| e[0] != e[1]));
    assert_eq!(v["b"], serde_json::json!([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]));

    let o = lights(&dir, &["compile", "shapes.lights", "--puzzle", "donut", "--emit", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["holes"], serde_json::json!([[2, 2], [3, 3]]));
    assert_eq!(v["matrix"]["shape"], serde_json::json!([16, 13]));
    assert!(v.get("shape").is_none(), "square boards are written as before");

    let o = lights(&dir, &["compile", "shapes.lights", "--puzzle", "hex", "--emit", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["shape"], "hex");

    let o = lights(&dir, &["compile", "shapes.lights", "--puzzle", "net", "--emit", "sage"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let sage = stdout(&o);
    assert!(sage.contains("N = 24  # nodes\n"));
    assert!(sage.contains("print(\"one solution (node:presses):\")"));
}

#[test]
fn help_mentions_the_new_flags() {
    let dir = scratch("shapes_help");
    let help = |cmd: &str| stdout(&lights(&dir, &[cmd, "--help"]));
    let generate = help("generate");
    assert!(generate.contains("--grid <SHAPE>") && generate.contains("--graph <NAME[:N]>"), "{generate}");
    assert!(generate.contains("cycle:N") && generate.contains("--graph petersen"), "{generate}");
    let table = help("table");
    assert!(table.contains("--grid <SHAPE>") && table.contains("--grid hex"), "{table}");
    assert!(table.contains("--graph <FAMILY>") && table.contains("--sizes <RANGE>"), "{table}");
    let census = help("census");
    assert!(census.contains("--graph <NAME[:N]>") && census.contains("--graph petersen"), "{census}");
    let render = help("render");
    assert!(render.contains("hexagons") && render.contains("graph"), "{render}");
    let compile = help("compile");
    assert!(compile.contains("\"shape\": \"graph\"") && compile.contains("holes"), "{compile}");
}

/// `census --grid hex` counts the solvable positions with K lights on, as
/// solving each of them as a `.lights` puzzle says.
#[test]
fn census_on_a_hex_grid_matches_solving_every_position() {
    // 4×5 hex has invariants: a quarter of the positions are solvable.
    let (rows, cols, k) = (4usize, 5usize, 3usize);
    let dir = scratch("census-hex");
    let out = lights(&dir, &["census", "--size", "4x5", "--grid", "hex", "--on", "3", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(json["grid"], "hex");
    let solvable: u64 = json["counts"][0]["solvable"].as_str().expect("a count").parse().expect("a number");
    let cells = rows * cols;
    let mut expected = 0u64;
    for mask in 0u32..(1 << cells) {
        if mask.count_ones() as usize != k {
            continue;
        }
        let on: Vec<String> =
            (0..cells).filter(|&i| mask >> i & 1 == 1).map(|i| format!("{},{}", i / cols + 1, i % cols + 1)).collect();
        let src = format!("puzzle \"p\" {{\n  size {rows}x{cols}\n  grid hex\n  lights at {}\n}}\n", on.join(" "));
        let checked = check_source(&src);
        let report = checked.blocks[0].report.as_ref().and_then(BlockReport::as_lights).expect("solved");
        if report.solvable {
            expected += 1;
        }
    }
    assert_eq!(solvable, expected, "the census and the solver agree");
    assert!(0 < expected && expected < 1140, "some positions of the C(20, 3) are solvable, some not");
}

#[test]
fn render_shows_the_gluing_of_hex_cylinders() {
    let dir = scratch("shapes_render_gluing");
    let src = "puzzle \"tube\" {\n  size 4x5\n  grid hex\n  topology cylinder\n  states 3\n  lights at 1,1:2\n}\n";
    std::fs::write(dir.join("shapes.lights"), src).unwrap();
    let (svg, _) = render(&dir, "tube", "tube.svg", &["--show", "lights"]);
    let arrows = group(&svg, "lights-gluing");
    assert_eq!(arrows.matches("class=\"glue-arrow\"").count(), 2);
    assert!(arrows.contains("data-gluing=\"glued\" data-border=\"left\""), "{arrows}");
    assert!(arrows.contains("data-gluing=\"glued\" data-border=\"right\""), "{arrows}");
    assert!(!arrows.contains("twisted") && !arrows.contains("\"top\""));
    // Three states: the numbers are written on the hexagons.
    assert_eq!(group(&svg, "lights-numbers").matches("class=\"cell-number\"").count(), 20);
}

/// `table --graph FAMILY --sizes RANGE`: one line per size, every format
/// saying the same, each answer the one `check` gives the `graph NAME N`
/// puzzle; bad families, sizes and flags are usage errors (exit 2).
#[test]
fn table_over_graph_sizes() {
    let dir = scratch("shapes_table_graphs");
    let args = ["table", "--graph", "cycle", "--sizes", "3..9", "--show", "dimension"];
    let text = stdout(&lights(&dir, &args));
    assert!(text.starts_with("quiet patterns"), "{text}");
    assert!(text.contains("cross rule (σ+) · cycle graphs · 2 states · one line per N"), "{text}");
    // σ+ on C_n: two quiet patterns' worth (dimension 2) exactly when 3 | n.
    let lines: Vec<Vec<&str>> = text.lines().skip(2).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines[0], ["N", "nodes", "dimension"]);
    let dims: Vec<(&str, &str)> = lines[1..].iter().map(|l| (l[0], l[2])).collect();
    assert_eq!(dims, [("3", "2"), ("4", "0"), ("5", "0"), ("6", "2"), ("7", "0"), ("8", "0"), ("9", "2")]);

    let csv = stdout(&lights(&dir, &[&args[..], &["--format", "csv"]].concat()));
    assert_eq!(csv.lines().next(), Some("N,nodes,dimension"));
    assert_eq!(csv.lines().nth(1), Some("3,3,2"));
    let md = stdout(&lights(&dir, &[&args[..], &["--format", "markdown"]].concat()));
    assert!(md.starts_with("| N | nodes | dimension |\n|---:|---:|---:|\n| 3 | 3 | 2 |\n"), "{md}");

    let o = lights(
        &dir,
        &["table", "--graph", "cube-surface", "--sizes", "1..3", "--rule", "ring", "--states", "3", "--format", "json"],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(
        (v["grid"].as_str(), v["graph"].as_str(), v["rule"].as_str()),
        (Some("graph"), Some("cube-surface"), Some("ring"))
    );
    assert_eq!(v["sizes"], serde_json::json!([1, 2, 3]));
    let mut src = String::new();
    for e in v["entries"].as_array().unwrap() {
        let n = e["size"].as_u64().unwrap();
        assert_eq!(e["nodes"].as_u64(), Some(6 * n * n));
        src.push_str(&format!(
            "puzzle \"{n}\" {{\n  graph cube-surface {n}\n  rule ring\n  states 3\n  lights on\n}}\n\n"
        ));
    }
    let analysis = check_source(&src);
    for (e, p) in v["entries"].as_array().unwrap().iter().zip(&analysis.blocks) {
        let report = p.report.as_ref().and_then(BlockReport::as_lights).expect("solved");
        assert_eq!(e["solvable"].as_bool(), Some(report.solvable), "{:?}", p.name);
        assert_eq!(e["solutions"].as_str(), Some(report.solutions.to_string().as_str()), "{:?}", p.name);
    }

    for (bad, says) in [
        (&["--graph", "petersen", "--sizes", "1"][..], "`petersen` is one graph"),
        (&["--graph", "cycle", "--sizes", "1..5"][..], "`cycle N` takes 3 ≤ N ≤"),
        (&["--graph", "cycle", "--sizes", "3..5", "--rule", "king"][..], "not king"),
        (&["--graph", "cycle"][..], "--sizes"),
        (&["--graph", "cycle", "--sizes", "3", "--rows", "3"][..], "cannot be used with"),
        (&["--graph", "cycle", "--sizes", "3", "--topology", "torus"][..], "cannot be used with"),
        (&["--sizes", "3..5"][..], "--graph"),
    ] {
        let o = lights(&dir, &[&["table"][..], bad].concat());
        assert_eq!(code(&o), 2, "{bad:?}");
        assert!(stderr(&o).contains(says), "{bad:?}: {}", stderr(&o));
    }
}

/// `census --graph NAME[:N]` counts on a graph's nodes; the flags of boards
/// do not go with it.
#[test]
fn census_on_a_graph() {
    let dir = scratch("shapes_census_graph");
    let o = lights(&dir, &["census", "--graph", "petersen", "--rule", "ring", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!((v["grid"].as_str(), v["graph"].as_str()), (Some("graph"), Some("petersen")));
    assert_eq!((v["rows"].as_u64(), v["cols"].as_u64()), (Some(1), Some(10)));
    let counts = v["counts"].as_array().unwrap();
    assert_eq!(counts.len(), 11, "every K from 0 to 10");
    // Each count is what solving the positions one by one gives (K = 2: C(10, 2) of them).
    let mut solvable = 0;
    for a in 1..=10 {
        for b in a + 1..=10 {
            let src = format!("puzzle \"p\" {{\n  graph petersen\n  rule ring\n  lights at {a} {b}\n}}\n");
            let checked = check_source(&src);
            if checked.blocks[0].report.as_ref().and_then(BlockReport::as_lights).expect("solved").solvable {
                solvable += 1;
            }
        }
    }
    assert_eq!(counts[2]["solvable"].as_str(), Some(solvable.to_string().as_str()));

    let text = stdout(&lights(&dir, &["census", "--graph", "cube-surface:3", "--on", "10"]));
    assert!(
        text.starts_with("cross rule (σ+) · graph cube-surface 3 (54 nodes) · 2 states · 10 lights on\n"),
        "{text}"
    );
    for (bad, says) in [
        (&["--graph", "petersen", "--size", "3x3"][..], "cannot be used with"),
        (&["--graph", "petersen", "--grid", "hex"][..], "cannot be used with"),
        (&["--graph", "petersen", "--rule", "king"][..], "--graph: a graph takes the rule cross"),
        (&["--graph", "cycle"][..], "`cycle` needs a size"),
        (&[][..], "--size"),
    ] {
        let o = lights(&dir, &[&["census"][..], bad].concat());
        assert_eq!(code(&o), 2, "{bad:?}");
        assert!(stderr(&o).contains(says), "{bad:?}: {}", stderr(&o));
    }
}

/// A written graph's unused numbers are holes, not nodes: the solution is
/// listed and the picture drawn by the nodes there are; messages about a
/// graph's `solution` speak of nodes.
#[test]
fn sparse_node_numbers_cost_what_the_nodes_do() {
    let dir = scratch("shapes_sparse_nodes");
    let src = "puzzle \"a\" {\n  graph { 1-200000 }\n  lights at 1\n  goal at 200000\n}\n";
    std::fs::write(dir.join("s.lights"), src).unwrap();
    let text = stdout(&lights(&dir, &["solve", "s.lights"]));
    assert!(text.contains("written graph, 2 nodes") && text.contains("\n    at 200000\n"), "{text}");
    let o = lights(&dir, &["render", "s.lights", "-o", "s.svg"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.join("s.svg").exists());

    std::fs::write(dir.join("w.lights"), "puzzle \"w\" {\n  graph petersen\n  lights at 1\n  solution at 2\n}\n")
        .unwrap();
    let o = lights(&dir, &["check", "w.lights"]);
    assert_eq!(code(&o), 1);
    let said = format!("{}{}", stdout(&o), stderr(&o));
    assert!(said.contains("[L0203]") && said.contains("it leaves 3 nodes wrong"), "{said}");
}
