//! `lights export flip|json` and `lights import flip|json` through the real
//! binary: every example round-trips through JSON (and through Flip where
//! Flip can play it), the JSON validates against
//! docs/schema/lights-pack-1.schema.json, and hostile input is refused.

mod common;
use common::*;

use lights_authoring::pack_json::same_puzzle;
use lights_compiler::lower::press_pattern;
use lights_compiler::model::Puzzle;

/// The Lights Out puzzles of a file: name, model, `expect` claims.
fn puzzles(src: &str) -> Vec<(String, Puzzle, Vec<String>)> {
    lights_compiler::analyze(src)
        .blocks
        .iter()
        .filter(|b| b.kind.is_lights())
        .map(|b| {
            let p = b.puzzle().unwrap_or_else(|| panic!("{:?} compiles", b.name)).clone();
            let claims = p.header.expects.iter().map(|e| e.claim.to_string()).collect();
            (b.name.clone().unwrap_or_default(), p, claims)
        })
        .collect()
}

/// What one press adds to each cell it changes.
type Pattern = Vec<(usize, u32)>;

/// What the answer depends on: W, each button's pattern and each cell's need.
fn system(p: &Puzzle) -> (u32, Vec<Pattern>, Vec<u32>) {
    let patterns = (0..p.cells())
        .map(|i| {
            if p.is_locked(i) || p.is_hole(i) {
                return Vec::new();
            }
            let mut cells = press_pattern(p, i / p.cols, i % p.cols);
            cells.sort_unstable();
            cells
        })
        .collect();
    (p.states, patterns, (0..p.cells()).map(|i| p.need(i)).collect())
}

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/schema/lights-pack-1.schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft202012::new(&schema).expect("the schema compiles")
}

fn schema_errors(validator: &jsonschema::Validator, json: &serde_json::Value) -> Vec<String> {
    validator.iter_errors(json).map(|e| format!("{e} at {}", e.instance_path())).collect()
}

#[test]
fn every_example_round_trips_through_json_and_validates() {
    let validator = schema();
    let dir = root();
    let mut checked = 0;
    for file in lights_files("examples") {
        let src = std::fs::read_to_string(&file).unwrap();
        let before = puzzles(&src);
        if before.is_empty() {
            continue;
        }
        let path = file.to_string_lossy().to_string();
        let out = lights(&dir, &["export", "json", &path]);
        assert_eq!(out.status.code(), Some(0), "{path}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let errors = schema_errors(&validator, &json);
        assert!(errors.is_empty(), "{path}: {errors:#?}");
        // The engine's answers: a proven minimum agrees with the file's `expect presses`.
        for (entry, (name, _, claims)) in json["puzzles"].as_array().unwrap().iter().zip(&before) {
            assert_eq!(entry["name"], name.as_str());
            let analysis = &entry["analysis"];
            for claim in claims {
                if let Some(n) = claim.strip_prefix("expect presses ") {
                    if analysis["minimum_proven"] == true {
                        assert_eq!(analysis["minimum_presses"].to_string(), n, "{name}");
                    }
                }
                if claim == "expect unique" {
                    assert_eq!(analysis["solutions"], "1", "{name}");
                }
            }
            let total: u64 = analysis["minimum"].as_array().map_or(0, |m| m.iter().map(|v| v.as_u64().unwrap()).sum());
            if analysis["solvable"] == true {
                assert_eq!(analysis["minimum_presses"].as_u64(), Some(total), "{name}");
            }
        }
        let back = lights_with_input(&dir, &["import", "json", "-"], &stdout(&out));
        assert_eq!(back.status.code(), Some(0), "{path}: {}", stderr(&back));
        // Canonical text, as `lights fmt` writes it.
        let text = stdout(&back);
        assert_eq!(lights_syntax::format::format_source(&text).unwrap(), text, "{path}");
        let after = puzzles(&text);
        assert_eq!(after.len(), before.len(), "{path}");
        for ((n1, p1, c1), (n2, p2, c2)) in before.iter().zip(&after) {
            assert_eq!(n1, n2, "{path}");
            assert!(same_puzzle(p1, p2), "{path}: {n1} changed:\n{}", stdout(&back));
            assert_eq!(c1, c2, "{path}: {n1}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} puzzles were checked");
}

#[test]
fn the_analysis_is_what_lights_solve_answers() {
    // The same engine: solvable, the count, the minimum and its presses, cell by cell.
    let dir = root();
    let (mut compared, mut cell_by_cell) = (0, 0);
    for file in lights_files("examples") {
        let path = file.to_string_lossy().to_string();
        let src = std::fs::read_to_string(&file).unwrap();
        if puzzles(&src).is_empty() {
            continue;
        }
        let pack: serde_json::Value = serde_json::from_str(&stdout(&lights(&dir, &["export", "json", &path]))).unwrap();
        let solved: serde_json::Value =
            serde_json::from_str(&stdout(&lights(&dir, &["solve", &path, "--format", "json"]))).unwrap();
        let solved: Vec<&serde_json::Value> =
            solved.as_array().unwrap().iter().filter(|s| s["kind"] == "puzzle").collect();
        for (entry, s) in pack["puzzles"].as_array().unwrap().iter().zip(solved) {
            assert_eq!(entry["name"], s["puzzle"], "{path}");
            let a = &entry["analysis"];
            assert_eq!(a["solvable"], s["solvable"], "{path}");
            assert_eq!(a["solutions"], s["solutions"], "{path}");
            if s["solvable"] == true {
                assert_eq!(a["minimum_presses"], s["presses"], "{path}");
                assert_eq!(a["minimum_proven"], s["optimal"], "{path}");
                // `solution` is a grid of rows (a list on a graph); the pack's is flat.
                let flat: Vec<serde_json::Value> = match s["solution"].as_array() {
                    Some(rows) if rows.iter().all(serde_json::Value::is_array) => {
                        rows.iter().flat_map(|r| r.as_array().unwrap().clone()).collect()
                    }
                    _ => Vec::new(),
                };
                if !flat.is_empty() {
                    assert_eq!(a["minimum"].as_array().unwrap(), &flat, "{path}: {}", entry["name"]);
                    cell_by_cell += 1;
                }
            }
            compared += 1;
        }
    }
    assert!(compared >= 40 && cell_by_cell >= 20, "{compared} compared, {cell_by_cell} cell by cell");
}

#[test]
fn the_schema_rejects_what_the_import_rejects() {
    let validator = schema();
    let good: serde_json::Value = serde_json::from_str(&stdout(&lights(
        &root(),
        &["export", "json", "examples/classic.lights", "--puzzle", "classic"],
    )))
    .unwrap();
    assert!(schema_errors(&validator, &good).is_empty());
    let mut bad = good.clone();
    bad["schema"] = "lights-pack/2".into();
    assert!(!schema_errors(&validator, &bad).is_empty());
    let mut bad = good.clone();
    bad["puzzles"][0]["rule"] = "knight".into();
    assert!(!schema_errors(&validator, &bad).is_empty());
    let mut bad = good;
    bad["puzzles"][0]["expect"] = serde_json::json!(["presses many"]);
    assert!(!schema_errors(&validator, &bad).is_empty());
}

#[test]
fn every_example_flip_can_play_round_trips_through_flip() {
    let dir = root();
    let (mut exported, mut refused) = (0, 0);
    for file in lights_files("examples") {
        let src = std::fs::read_to_string(&file).unwrap();
        let before = puzzles(&src);
        let path = file.to_string_lossy().to_string();
        for (name, model, _) in &before {
            let out = lights(&dir, &["export", "flip", &path, "--puzzle", name]);
            if out.status.code() == Some(1) {
                // Refused, with the reason.
                let e = stderr(&out);
                let why = ["two states", "no holes", "no locked buttons", "at most 4096"];
                assert!(why.iter().any(|w| e.contains(w)), "{name}: {e}");
                assert!(
                    model.states != 2 || model.has_holes() || model.any_locked() || model.cells() > 4096,
                    "{name} was refused: {e}"
                );
                refused += 1;
                continue;
            }
            assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
            let id = stdout(&out);
            assert_eq!(id.lines().count(), 1, "{name}: {id}");
            let back = lights_with_input(&dir, &["import", "flip", "-", "--name", name], &id);
            assert_eq!(back.status.code(), Some(0), "{name}: {}", stderr(&back));
            let after = puzzles(&stdout(&back));
            assert_eq!(after.len(), 1);
            // The same system: press patterns, and what each cell needs.
            assert_eq!(system(&after[0].1), system(model), "{name}");
            // On the plane with the named rules and no goal, the very same model.
            if !model.is_graph()
                && model.topology == lights_compiler::model::Topology::Plane
                && !model.goal.any_nonzero()
            {
                assert!(same_puzzle(&after[0].1, model), "{name}: {}", stdout(&back));
            }
            exported += 1;
        }
    }
    assert!(exported >= 25 && refused >= 10, "{exported} exported, {refused} refused");
}

#[test]
fn flip_ids_as_flip_writes_them() {
    // The 3×3 Crosses game, encoded by hand from flip.c (see flip.rs).
    let out = lights(&root(), &["import", "flip", "3x3:d074191345d1644c17058,a88", "--name", "t"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("puzzle \"t\" {\n  size 3x3\n  lights {\n    1 . 1\n    . 1 .\n    . . 1\n  }\n}"), "{text}");
    let solved = lights_with_input(&root(), &["solve", "-"], &text);
    assert_eq!(solved.status.code(), Some(0), "{}", stderr(&solved));
    // And back, as Flip reads it.
    let id = lights_with_input(&root(), &["export", "flip", "-"], &text);
    assert_eq!(stdout(&id), "3x3c:d074191345d1644c17058,a88\n");
    // A directed Random game (pressing 1,1 flips 1,2, not the other way
    // round) is a graph of lights and buttons, and comes back as it was.
    let random = "3x1r:c88,8";
    let out = lights(&root(), &["import", "flip", random]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("graph { 1-4 2-4 2-5 3-6 }") && text.contains("locked at 1 2 3"), "{text}");
    let solved = lights_with_input(&root(), &["solve", "-"], &text);
    assert_eq!(solved.status.code(), Some(0), "{}", stderr(&solved));
    assert!(stdout(&solved).contains("at 4"), "press the button of 1,1: {}", stdout(&solved));
    let id = lights_with_input(&root(), &["export", "flip", "-", "--width", "3"], &text);
    assert_eq!(stdout(&id), "3x1r:c88,8\n", "{}", stderr(&id));
}

#[test]
fn a_random_game_as_flip_generates_them() {
    // 3×3 Random, built by hand under new_game_desc's rules: each square
    // flips itself and a connected shape within its 3×3 neighbourhood, 33
    // bits in all (9 + 4·9 − 2·(3 + 3)), no two rows alike; the grid is what
    // pressing squares 1,1 and 2,2 does. Rows: {1,2,4,5} {1,2,3,5} {3,5,6}
    // {1,4,7} {4,5,6,8} {3,5,6,9} {4,7,8} {5,7,8,9} {5,6,8,9} (1-based).
    let id = "3x3:d8740b1241d1644c170d8,c50";
    let out = lights(&root(), &["import", "flip", id, "--name", "random"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let solved = lights_with_input(&root(), &["solve", "-"], &stdout(&out));
    let text = stdout(&solved);
    // Its one solution is the two presses that made it: the buttons of squares 1 and 5.
    assert!(text.contains("1 solution · minimum 2 presses") && text.contains("at 10 14"), "{text}");
    let back = lights_with_input(&root(), &["export", "flip", "-", "--width", "3"], &stdout(&out));
    assert_eq!(stdout(&back), "3x3r:d8740b1241d1644c170d8,c50\n", "{}", stderr(&back));
}

#[test]
fn hostile_input_is_refused_before_it_costs() {
    let dir = root();
    for (args, want) in [
        (vec!["import", "flip", "99999999x99999999c:00,0"], "at most 4096"),
        (vec!["import", "flip", "4096x4096:0,0"], "at most 4096"),
        (vec!["import", "flip", "3x3:0,0"], "21 hex digits"),
        (vec!["import", "flip", "5x5#12345"], "random-seed"),
        (vec!["import", "flip", ""], "empty"),
    ] {
        let out = lights(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(want), "{args:?}: {}", stderr(&out));
    }
    let good = stdout(&lights(&dir, &["export", "json", "examples/classic.lights", "--puzzle", "classic"]));
    for (text, want) in [
        (good.replace("lights-pack/1", "lights-pack/9"), "unknown schema `lights-pack/9`"),
        (good.replace("\"rows\":5", "\"rows\":100000000000"), "more than the 10000000000 cells"),
        (good.replace("\"rows\":5", "\"rows\":6"), "`lights` has 25 values; the puzzle has 30 cells"),
        (good.replace("\"rows\":5", "\"rows\":-1"), "not a lights-pack/1 pack"),
        ("{\"schema\":\"lights-pack/1\",\"puzzles\":[]}".to_string(), "no puzzles"),
        ("not json".to_string(), "not valid JSON"),
    ] {
        let out = lights_with_input(&dir, &["import", "json", "-"], &text);
        assert_eq!(out.status.code(), Some(2), "{want}");
        assert!(stderr(&out).contains(want), "{want}: {}", stderr(&out));
    }
}

#[test]
fn hostile_names_stay_on_their_line() {
    let dir = scratch("interchange_names");
    let src = "puzzle \"a\tb\u{7}\u{202e}c\" { size 2x2 lights at 1,1 }\npuzzle \"plain\" { size 1x1 lights on }\n";
    std::fs::write(dir.join("names.lights"), src).unwrap();
    let out = lights(&dir, &["export", "flip", "names.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text:?}");
    for line in &lines {
        assert_eq!(line.matches('\t').count(), 1, "{line:?}");
        assert!(!line.chars().any(|c| c.is_control() && c != '\t'), "{line:?}");
    }
    // JSON keeps the name exactly (escaped), and it comes back.
    let json = lights(&dir, &["export", "json", "names.lights"]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value["puzzles"][0]["name"], "a\tb\u{7}\u{202e}c");
    let back = lights_with_input(&dir, &["import", "json", "-"], &stdout(&json));
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    let names: Vec<String> = puzzles(&stdout(&back)).into_iter().map(|(n, _, _)| n).collect();
    assert_eq!(names, ["a\tb\u{7}\u{202e}c", "plain"]);
    // One that no .lights file can hold is refused, naming why.
    let broken = stdout(&json).replace("a\\tb", "a\\nb");
    let out = lights_with_input(&dir, &["import", "json", "-"], &broken);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("puzzle 1"), "{}", stderr(&out));
}
