//! The real `lights` binary: `generate`, `compile`, `import coords` and
//! `check --answer yes-no` (with standard input), end to end.

mod common;

use std::process::Output;

use common::{lights, lights_with_input, root, scratch, stderr, stdout};

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

// ---------------------------------------------------------------- generate

#[test]
fn generate_writes_a_pack_that_checks_clean() {
    let dir = scratch("gen_pack");
    let args = [
        "generate",
        "--size",
        "5x5",
        "--count",
        "6",
        "--seed",
        "2024",
        "--locked-fraction",
        "0.2",
        "--unique",
        "--presses",
        "3..12",
        "--states",
        "3",
        "--topology",
        "torus",
        "--name",
        "level",
        "-o",
        "pack.lights",
    ];
    let o = lights(&dir, &args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    assert!(stderr(&o).contains("wrote 6 puzzles to pack.lights"));
    let text = std::fs::read_to_string(dir.join("pack.lights")).expect("written");
    assert!(text.contains("puzzle \"level-6\""));
    assert_eq!(text.matches("expect unique").count(), 6);

    let check = lights(&dir, &["check", "pack.lights"]);
    assert_eq!(code(&check), 0, "{}", stdout(&check));
    assert!(stdout(&check).contains("checked 6 puzzles in 1 file: all fine"));
    let fmt = lights(&dir, &["fmt", "--check", "pack.lights"]);
    assert_eq!(code(&fmt), 0, "generated files are canonical: {}", stdout(&fmt));

    // Each puzzle's proven minimum is in 3..=12, by the JSON report.
    let json = lights(&dir, &["check", "--format", "json", "pack.lights"]);
    let reports: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("JSON");
    for r in reports.as_array().expect("array") {
        let presses = r["presses"].as_u64().expect("presses");
        assert!((3..=12).contains(&presses), "{presses}");
        assert_eq!(r["solutions"], "1");
        assert_eq!(r["optimal"], true);
    }

    // The same command writes the same bytes.
    let again =
        lights(&dir, &args.iter().map(|a| if *a == "pack.lights" { "again.lights" } else { a }).collect::<Vec<_>>());
    assert_eq!(code(&again), 0);
    assert_eq!(std::fs::read(dir.join("again.lights")).expect("written"), text.as_bytes());
}

#[test]
fn generate_without_seed_prints_one_that_repeats_the_run() {
    let dir = scratch("gen_seed");
    let first = lights(&dir, &["generate", "--size", "4x4", "--count", "3"]);
    assert_eq!(code(&first), 0, "{}", stderr(&first));
    let err = stderr(&first);
    let seed = err
        .split_whitespace()
        .nth(1)
        .filter(|_| err.starts_with("seed: "))
        .unwrap_or_else(|| panic!("no seed in {err:?}"))
        .to_string();
    let second = lights(&dir, &["generate", "--size", "4x4", "--count", "3", "--seed", &seed]);
    assert_eq!(code(&second), 0);
    assert!(stderr(&second).is_empty(), "no seed line when it is given");
    assert_eq!(stdout(&first), stdout(&second));
    assert!(stdout(&first).contains(&format!("--seed {seed} ")));

    let other = lights(&dir, &["generate", "--size", "4x4", "--count", "3", "--seed", "1"]);
    let other_seed = lights(&dir, &["generate", "--size", "4x4", "--count", "3", "--seed", "2"]);
    assert_ne!(stdout(&other), stdout(&other_seed));
}

#[test]
fn generate_stencil_rule() {
    let dir = scratch("gen_stencil");
    let o =
        lights(&dir, &["generate", "--size", "4x5", "--rule", ". 1 . / 1 1 1 / . 1 .", "--seed", "5", "--count", "2"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("  rule {\n    . 1 .\n    1 1 1\n    . 1 .\n  }\n"), "{text}");
    assert!(text.contains("--rule '. 1 . / 1 1 1 / . 1 .'"), "{text}");
    std::fs::write(dir.join("s.lights"), &text).expect("write");
    assert_eq!(code(&lights(&dir, &["check", "s.lights"])), 0);
}

#[test]
fn generate_usage_errors() {
    let dir = scratch("gen_errors");
    let cases: &[(&[&str], &str)] = &[
        (&["generate", "--size", "5x5", "--unique"], "can never have a unique solution"),
        (&["generate", "--size", "0x5"], "at least one row"),
        (&["generate", "--size", "five"], "not a board size"),
        (&["generate", "--size", "3x3", "--locked-fraction", "1.5"], "--locked-fraction"),
        (&["generate", "--size", "3x3", "--presses", "9..3"], "empty range"),
        (&["generate", "--size", "3x3", "--rule", "kign"], "did you mean `king`"),
        (&["generate", "--size", "3x3", "--rule", "1 1"], "stencil"),
        (&["generate", "--size", "3x3", "--topology", "donut"], "unknown topology"),
        (&["generate", "--size", "3x3", "--states", "1"], "states"),
        (&["generate", "--size", "3x3", "--count", "0"], "--count"),
        (&["generate", "--size", "2x2", "--presses", "50..60", "--seed", "1"], "widen --presses"),
        (&["generate", "--size", "1x1", "--count", "2", "--seed", "1"], "repeated an earlier puzzle"),
        (&["generate", "--size", "3x3", "-o", "no/such/folder/x.lights", "--seed", "1"], "cannot write"),
    ];
    for (args, needle) in cases {
        let o = lights(&dir, args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("error"), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err} lacks {needle}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(stdout(&o).is_empty(), "{args:?} printed {}", stdout(&o));
    }
}

#[test]
fn generate_help_teaches() {
    let o = lights(&root(), &["generate", "--help"]);
    let help = stdout(&o);
    for needle in ["--size", "--locked-fraction", "--unique", "--presses", "--seed", "Examples:", "uniformly"] {
        assert!(help.contains(needle), "{needle}");
    }
}

// ---------------------------------------------------------------- compile

#[test]
fn compile_json_is_the_system() {
    let root = root();
    let o = lights(&root, &["compile", "examples/classic.lights", "--puzzle", "classic", "--emit", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["modulus"], 2);
    assert_eq!(v["size"], serde_json::json!({"rows": 5, "cols": 5}));
    assert_eq!(v["matrix"]["shape"], serde_json::json!([25, 25]));
    assert_eq!(v["unknowns"][0], serde_json::json!([1, 1]));
    assert_eq!(v["unknowns"][24], serde_json::json!([5, 5]));
    // Cross on a 5×5 plane: 4·3 + 12·4 + 9·5 nonzero entries.
    assert_eq!(v["matrix"]["entries"].as_array().map(Vec::len), Some(4 * 3 + 12 * 4 + 9 * 5));
    assert!(v["meaning"].as_str().is_some_and(|m| m.contains("A·x ≡ b (mod W)")));
    assert_eq!(v["b"].as_array().map(Vec::len), Some(25));

    // Written to a file (-o), the same text.
    let dir = scratch("compile_out");
    let src = root.join("examples/classic.lights");
    let src = src.to_str().expect("utf-8 path");
    let o2 = lights(&dir, &["compile", src, "--puzzle", "classic", "--emit", "json", "-o", "classic.json"]);
    assert_eq!(code(&o2), 0);
    assert_eq!(std::fs::read_to_string(dir.join("classic.json")).expect("written"), stdout(&o));
}

#[test]
fn compile_sage_script() {
    let dir = scratch("compile_sage");
    std::fs::write(dir.join("one.lights"), "puzzle \"six\" {\n  size 2x3\n  states 6\n  lights on\n}\n").unwrap();
    let o = lights(&dir, &["compile", "one.lights", "--emit", "sage", "-o", "six.sage"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let script = std::fs::read_to_string(dir.join("six.sage")).expect("written");
    assert!(script.contains("W = 6\n"));
    assert!(script.contains("b = vector(ZZ, [1, 1, 1, 1, 1, 1])"));
    assert!(script.contains("smith_form()"));
    // From standard input too.
    let src = std::fs::read_to_string(dir.join("one.lights")).unwrap();
    let piped = lights_with_input(&dir, &["compile", "-", "--emit", "sage"], &src);
    assert_eq!(code(&piped), 0);
    assert_eq!(stdout(&piped), script);
}

#[test]
fn compile_errors() {
    let root = root();
    let several = lights(&root, &["compile", "examples/level-pack.lights", "--emit", "json"]);
    assert_eq!(code(&several), 2);
    assert!(stderr(&several).contains("choose one with --puzzle NAME"));
    assert!(stderr(&several).contains("\"first light\""));
    let unknown = lights(&root, &["compile", "examples/classic.lights", "--puzzle", "nope", "--emit", "json"]);
    assert_eq!(code(&unknown), 2);
    assert!(stderr(&unknown).contains("no puzzle named \"nope\""));
    let missing = lights(&root, &["compile", "no-such.lights", "--emit", "json"]);
    assert_eq!(code(&missing), 2);
    let no_emit = lights(&root, &["compile", "examples/classic.lights"]);
    assert_eq!(code(&no_emit), 2);

    let dir = scratch("compile_bad");
    std::fs::write(dir.join("bad.lights"), "puzzle \"bad\" {\n  size 2x2\n  lights { 1 2 }\n}\n").unwrap();
    let bad = lights(&dir, &["compile", "bad.lights", "--emit", "json"]);
    assert_eq!(code(&bad), 1, "a puzzle with errors");
    assert!(stdout(&bad).is_empty());
    assert!(stderr(&bad).contains("L0103"), "{}", stderr(&bad));
}

// ---------------------------------------------------------------- import coords + yes-no

/// Lights Out on an n×n torus (cross rule) by brute force over press sets:
/// is there a set that turns the lit cells off? (n ≤ 4)
fn torus_solvable(n: usize, lit: &[(usize, usize)]) -> bool {
    let press: Vec<u32> = (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            [(0, 0), (1, 0), (n - 1, 0), (0, 1), (0, n - 1)]
                .iter()
                .fold(0u32, |m, (dr, dc)| m | 1 << (((r + dr) % n) * n + (c + dc) % n))
        })
        .collect();
    let target = lit.iter().fold(0u32, |m, &(x, y)| m ^ 1 << (x * n + y));
    (0u32..1 << (n * n)).any(|s| (0..n * n).filter(|&i| s >> i & 1 == 1).fold(0, |m, i| m ^ press[i]) == target)
}

fn coords_text(n: usize, lit: &[(usize, usize)]) -> String {
    let mut s = format!("{n}\n{}\n", lit.len());
    for (x, y) in lit {
        s.push_str(&format!("{x} {y}\n"));
    }
    s
}

#[test]
fn import_then_yes_no_through_a_pipe() {
    let dir = scratch("import_pipe");
    let cases: Vec<(usize, Vec<(usize, usize)>)> = vec![
        (2, vec![(0, 0)]),
        (2, vec![(0, 0), (1, 1)]),
        (3, vec![(0, 0)]),
        (3, vec![(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
        (3, vec![(0, 0), (0, 1)]),
        (3, (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).collect()),
        (4, vec![(1, 2)]),
        (4, vec![(0, 0), (3, 3), (2, 1)]),
        (1, vec![]),
    ];
    let mut answers = Vec::new();
    for (n, lit) in &cases {
        let input = coords_text(*n, lit);
        let imported = lights_with_input(&dir, &["import", "coords"], &input);
        assert_eq!(code(&imported), 0, "{}", stderr(&imported));
        let answer = lights_with_input(&dir, &["check", "--answer", "yes-no", "-"], &stdout(&imported));
        assert_eq!(code(&answer), 0, "{}", stderr(&answer));
        let want = if torus_solvable(*n, lit) { "Yes\n" } else { "No\n" };
        assert_eq!(stdout(&answer), want, "{input}");
        assert!(stderr(&answer).is_empty(), "{}", stderr(&answer));
        answers.push(want);
    }
    // Both answers occur, so the test can tell them apart.
    assert!(answers.contains(&"Yes\n") && answers.contains(&"No\n"));
}

#[test]
fn import_from_a_file_to_a_file() {
    let dir = scratch("import_files");
    std::fs::write(dir.join("in.txt"), "3\n2\n0 1\n2 2\n").unwrap();
    let o = lights(&dir, &["import", "coords", "in.txt", "-o", "in.lights"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.join("in.lights")).expect("written");
    assert!(text.contains("puzzle \"in\" {"), "named after the file: {text}");
    assert!(text.contains("  topology torus\n"));
    assert!(text.contains("    . 1 .\n    . . .\n    . . 1\n"), "{text}");
    let named = lights(&dir, &["import", "coords", "in.txt", "--name", "level 1"]);
    assert!(stdout(&named).contains("puzzle \"level 1\" {"));
    let yes_no = lights(&dir, &["check", "--answer", "yes-no", "in.lights"]);
    assert_eq!(stdout(&yes_no), if torus_solvable(3, &[(0, 1), (2, 2)]) { "Yes\n" } else { "No\n" });
}

#[test]
fn import_errors_name_the_line() {
    let dir = scratch("import_errors");
    let cases: &[(&str, &str)] = &[
        ("", "line 1: expected the board side n"),
        ("3\n", "line 2: expected the number of lit cells k"),
        ("3\n2\n0 0\n", "line 4: expected lit cell 2 of 2"),
        ("3\n1\nzero 0\n", "line 3: expected lit cell 1 of 1 as `x y`, but `zero` is not a whole number"),
        ("3\n1\n0 3\n", "line 3: y = 3 is outside the board"),
        ("3\n2\n1 1\n1 1\n", "line 4: the cell `1 1` is already listed on line 3"),
        ("3\n1\n1 1\n0 0\n", "line 4: unexpected extra line"),
    ];
    for (input, needle) in cases {
        let o = lights_with_input(&dir, &["import", "coords", "-"], input);
        assert_eq!(code(&o), 2, "{input:?}");
        assert!(stderr(&o).starts_with("error: standard input: "), "{}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{input:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    let missing = lights(&dir, &["import", "coords", "missing.txt"]);
    assert_eq!(code(&missing), 2);
    assert!(stderr(&missing).contains("cannot read `missing.txt`"));
    let bad_name = lights_with_input(&dir, &["import", "coords", "--name", ""], "1\n0\n");
    assert_eq!(code(&bad_name), 2);
}

#[test]
fn yes_no_over_several_puzzles_and_errors() {
    let dir = scratch("yes_no");
    let src = "\
puzzle \"fine\" {\n  size 1x1\n  lights on\n}\n\n\
puzzle \"parity\" {\n  size 2x2\n  rule king\n  lights at 1,1\n}\n\n\
puzzle \"broken\" {\n  size 2x2\n  lights { 1 }\n}\n\n\
puzzle \"claimed\" {\n  size 2x2\n  rule king\n  lights at 1,1\n  expect solvable\n}\n\n\
puzzle \"wrong count\" {\n  size 1x3\n  lights at 1,2\n  expect solutions 7\n}\n";
    std::fs::write(dir.join("mix.lights"), src).unwrap();
    let o = lights(&dir, &["check", "--answer", "yes-no", "mix.lights"]);
    // fine: Yes. parity (king on 2×2: every press changes all 4 cells): No.
    // broken: no answer. claimed: No, and its failed claim is an error.
    // wrong count: Yes, and its failed claim is an error.
    assert_eq!(stdout(&o), "Yes\nNo\nNo\nYes\n");
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("L0103"), "{err}");
    assert!(err.contains("L0202") && err.contains("expect solutions 7"), "{err}");
    assert!(err.contains("\"claimed\" cannot be solved"), "the claim makes L0201 an error: {err}");
    assert_eq!(err.matches("L0201").count(), 1, "an unclaimed No is not an error: {err}");

    // Only answers: exit 0, nothing on stderr.
    std::fs::write(dir.join("ok.lights"), "puzzle \"a\" {\n  size 2x2\n  rule king\n  lights at 1,1\n}\n").unwrap();
    let ok = lights(&dir, &["check", "--answer", "yes-no", "ok.lights"]);
    assert_eq!((code(&ok), stdout(&ok), stderr(&ok)), (0, "No\n".to_string(), String::new()));

    // --answer does not mix with the other output options.
    let mixed = lights(&dir, &["check", "--answer", "yes-no", "--format", "json", "ok.lights"]);
    assert_eq!(code(&mixed), 2);
}

#[test]
fn check_reads_standard_input() {
    let dir = scratch("check_stdin");
    let o =
        lights_with_input(&dir, &["check", "-"], "puzzle \"p\" {\n  size 3x3\n  lights at 2,2\n  expect solvable\n}\n");
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("✓ <stdin>: p:"), "{}", stdout(&o));
    let bad = lights_with_input(
        &dir,
        &["check", "-"],
        "puzzle \"p\" {\n  size 3x3\n  lights at 2,2\n  expect unsolvable\n}\n",
    );
    assert_eq!(code(&bad), 1);
    assert!(stdout(&bad).contains("<stdin>"), "diagnostics name standard input");
    let twice = lights_with_input(&dir, &["check", "-", "-"], "");
    assert_eq!(code(&twice), 2);
}
