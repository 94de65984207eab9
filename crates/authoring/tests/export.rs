//! `lights compile`: the JSON system round-trips (rebuilt from the JSON
//! text alone, the algebra gives the compiler's answer), and the Sage script
//! carries the same system.

use lights_algebra::SparseMatrix;
use lights_authoring::export::{json_text, sage_script, system_json, SystemJson};
use lights_compiler::model::Puzzle;
use lights_compiler::{analyze, check_source};
use proptest::prelude::*;

const RULES: [&str; 6] = ["cross", "king", "flip", "merlin", "{ 1 1 1 }", "{\n    . 1 .\n    1 1 1\n    . 1 .\n  }"];
const TOPOLOGIES: [&str; 6] = ["plane", "cylinder", "torus", "mobius", "klein", "projective"];

/// Rebuild the system from the JSON text only, solve it, and compare with
/// what `lights check` reports for the same puzzle.
fn round_trip(p: &Puzzle, report: &lights_compiler::solve::Report) -> Result<(), String> {
    let text = json_text(p);
    let parsed: SystemJson = serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    if parsed != system_json(p) {
        return Err("the text does not parse back to the same system".into());
    }
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let w = value["modulus"].as_u64().ok_or("modulus")? as u32;
    let shape = value["matrix"]["shape"].as_array().ok_or("shape")?;
    let (rows, cols) = (shape[0].as_u64().ok_or("rows")? as usize, shape[1].as_u64().ok_or("cols")? as usize);
    let mut a = SparseMatrix::new(rows, cols);
    for e in value["matrix"]["entries"].as_array().ok_or("entries")? {
        let e: Vec<u64> = e.as_array().ok_or("entry")?.iter().map(|v| v.as_u64().unwrap_or(u64::MAX)).collect();
        if e.len() != 3 || e[0] as usize >= rows || e[1] as usize >= cols || e[2] == 0 || e[2] >= u64::from(w) {
            return Err(format!("bad entry {e:?}"));
        }
        a.push_entry(e[1] as usize, e[0] as usize, e[2] as u32);
    }
    let b: Vec<u32> = value["b"].as_array().ok_or("b")?.iter().map(|v| v.as_u64().unwrap_or(u64::MAX) as u32).collect();
    // The JSON's meaning, checked against the model: rows are the cells, b = goal − lights.
    let size = &value["size"];
    if size["rows"].as_u64() != Some(p.rows as u64) || size["cols"].as_u64() != Some(p.cols as u64) {
        return Err("size".into());
    }
    if rows != p.cells() || b.len() != p.cells() {
        return Err("one equation per cell".into());
    }
    for (i, (&got, (goal, light))) in b.iter().zip(p.goal.iter().zip(p.lights.iter())).enumerate() {
        let want = (u32::from(goal) + w - u32::from(light)) % w;
        if got != want {
            return Err(format!("b[{i}] = {got} but goal − lights = {want}"));
        }
    }
    let unknowns: Vec<(usize, usize)> = value["unknowns"]
        .as_array()
        .ok_or("unknowns")?
        .iter()
        .map(|c| (c[0].as_u64().unwrap_or(0) as usize, c[1].as_u64().unwrap_or(0) as usize))
        .collect();
    let free: Vec<(usize, usize)> =
        (0..p.cells()).filter(|&i| !p.is_locked(i)).map(|i| (i / p.cols + 1, i % p.cols + 1)).collect();
    if unknowns != free || cols != free.len() {
        return Err(format!("unknowns {unknowns:?} are not the free cells {free:?}"));
    }
    let sol = lights_algebra::solve(&a, &b, w).map_err(|e| e.to_string())?;
    if sol.consistent != report.solvable || sol.count() != report.solutions {
        return Err(format!(
            "from JSON: solvable {} with {} solutions; lights check: solvable {} with {}",
            sol.consistent,
            sol.count(),
            report.solvable,
            report.solutions
        ));
    }
    Ok(())
}

fn puzzle_source() -> impl Strategy<Value = String> {
    (1usize..=4, 1usize..=4, 0usize..6, 0usize..6, prop::sample::select(vec![2u32, 3, 4, 5, 6, 8, 9, 12]))
        .prop_flat_map(|(rows, cols, rule, topo, w)| {
            let cells = rows * cols;
            (
                Just((rows, cols, rule, topo, w)),
                prop::collection::vec(0..w, cells),
                prop::collection::vec(0..w, cells),
                prop::collection::vec(prop::bool::weighted(0.25), cells),
            )
        })
        .prop_map(|((rows, cols, rule, topo, w), lights, goal, locked)| {
            let grid = |values: &[u32]| -> String {
                let rows_text: Vec<String> = values
                    .chunks(cols)
                    .map(|r| r.iter().map(|v| if *v == 0 { ".".into() } else { v.to_string() }).collect::<Vec<_>>().join(" "))
                    .collect();
                format!("{{\n    {}\n  }}", rows_text.join("\n    "))
            };
            let mask: Vec<String> = locked
                .chunks(cols)
                .map(|r| r.iter().map(|&l| if l { "x" } else { "." }).collect::<Vec<_>>().join(" "))
                .collect();
            // Stencil weights must be below W; the 1×3 and plus stencils use only 1.
            format!(
                "puzzle \"p\" {{\n  size {rows}x{cols}\n  states {w}\n  rule {}\n  topology {}\n  lights {}\n  goal {}\n  locked {{\n    {}\n  }}\n}}\n",
                RULES[rule],
                TOPOLOGIES[topo],
                grid(&lights),
                grid(&goal),
                mask.join("\n    ")
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn json_round_trip_matches_the_compiler(src in puzzle_source()) {
        let analysis = check_source(&src);
        let p = &analysis.blocks[0];
        let model = p.puzzle().ok_or_else(|| TestCaseError::fail(format!("{:?}\n{src}", p.diagnostics)))?;
        let report = p.report.as_ref().and_then(lights_compiler::BlockReport::as_lights).expect("solved");
        prop_assert!(round_trip(model, report).is_ok(), "{:?}\n{src}", round_trip(model, report));
        // The Sage script carries the same numbers.
        let script = sage_script(model);
        let json = system_json(model);
        prop_assert!(script.contains(&format!("\nW = {}\n", json.modulus)), "modulus missing");
        let b: Vec<String> = json.b.iter().map(u32::to_string).collect();
        prop_assert!(script.replace("\n    ", " ").contains(&format!("b = vector(ZZ, [{}])", b.join(", "))), "b missing");
        for [i, j, v] in &json.matrix.entries {
            let entry = format!("({i}, {j}, {v})");
            prop_assert!(script.contains(&entry), "{} missing", entry);
        }
    }
}

#[test]
fn json_round_trip_on_the_examples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "lights"))
        .collect();
    files.sort();
    let mut puzzles = 0;
    for path in files {
        let src = std::fs::read_to_string(&path).expect("readable example");
        let analysis = check_source(&src);
        for p in analysis.blocks.iter().filter(|p| p.kind == lights_compiler::BlockKind::Lights) {
            let (Some(model), Some(report)) =
                (p.puzzle(), p.report.as_ref().and_then(lights_compiler::BlockReport::as_lights))
            else {
                panic!("{}: {:?} has errors", path.display(), p.name)
            };
            if let Err(e) = round_trip(model, report) {
                panic!("{}: {}: {e}", path.display(), model.header.name);
            }
            puzzles += 1;
        }
    }
    assert!(puzzles >= 20, "only {puzzles} example puzzles");
}

fn tiny() -> Puzzle {
    let src = "puzzle \"tiny \\\"one\\\"\" {\n  size 2x2\n  states 6\n  lights at 1,1:5 2,2\n  locked at 1,2\n}\n";
    analyze(src).blocks[0].puzzle().cloned().expect("valid")
}

#[test]
fn json_of_a_tiny_puzzle() {
    insta::assert_snapshot!("json_tiny", json_text(&tiny()));
}

#[test]
fn sage_script_of_a_tiny_puzzle() {
    let script = sage_script(&tiny());
    // By hand: unknowns are cells 1,1 2,1 2,2 (1,2 is locked); b = goal − lights = (1, 0, 0, 5) mod 6.
    assert!(script.contains("W = 6\n"));
    assert!(script.contains("unknowns = [(1, 1), (2, 1), (2, 2)]\n"));
    assert!(script.contains("b = vector(ZZ, [1, 0, 0, 5])\n"));
    // Press 1,1 changes cells 0 (itself), 1 (1,2) and 2 (2,1): column 0 has rows 0, 1, 2.
    for entry in ["(0, 0, 1)", "(1, 0, 1)", "(2, 0, 1)"] {
        assert!(script.contains(entry), "{entry}");
    }
    // Composite W is never solved with Zmod: the Smith normal form does it.
    assert!(script.contains("smith_form()"));
    assert!(!script.contains("Zmod(W)."), "no solving over Zmod");
    assert!(script.contains("puzzle \"tiny \\\"one\\\"\"."), "the name is a Python string literal");
    insta::assert_snapshot!("sage_tiny", script);
}

#[test]
fn wide_systems_wrap_lines() {
    let src = "puzzle \"w\" {\n  size 6x6\n  states 4\n  lights on\n}\n";
    let model = analyze(src).blocks[0].puzzle().cloned().expect("valid");
    let script = sage_script(&model);
    assert!(script.lines().all(|l| l.chars().count() <= 100), "long line");
    let json = json_text(&model);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(v["matrix"]["shape"], serde_json::json!([36, 36]));
    // Cross on a 6×6 plane: 4 corners × 3 + 16 edges × 4 + 16 inner × 5 entries.
    assert_eq!(v["matrix"]["entries"].as_array().map(Vec::len), Some(4 * 3 + 16 * 4 + 16 * 5));
    assert_eq!(v["b"], serde_json::json!(vec![1; 36]));
}
