//! `lights table` and `lights census` through the real binary: formats,
//! errors, exit codes, help.

mod common;
use common::*;

use std::path::PathBuf;

fn run(args: &[&str]) -> std::process::Output {
    lights(&PathBuf::from(env!("CARGO_TARGET_TMPDIR")), args)
}

/// Run a command that must succeed quietly (nothing on stderr: no progress
/// bar when stderr is not a terminal) and return its stdout.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    assert_eq!(stderr(&out), "", "{args:?} wrote to stderr");
    stdout(&out)
}

/// Run a command that must fail with a usage error and return its stderr.
fn usage_error(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
    assert_eq!(stdout(&out), "", "{args:?} printed a result");
    let err = stderr(&out);
    assert!(err.starts_with("error:"), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The grid of the terminal format: (row label, values) after the header.
fn grid(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text.lines().skip_while(|l| !l.trim_start().starts_with("r\\c"));
    let header: Vec<String> = lines.next().expect("header").split_whitespace().skip(1).map(String::from).collect();
    let rows = lines.map(|l| l.split_whitespace().map(String::from).collect()).collect();
    (header, rows)
}

#[test]
fn table_formats_agree() {
    let base = ["table", "--rows", "3..5", "--cols", "2..6"];
    let terminal = ok(&base);
    assert!(terminal.starts_with("All Lights solutions"), "{terminal}");
    assert!(terminal.contains("cross rule · plane · 2 states"));
    let (header, rows) = grid(&terminal);
    assert_eq!(header, ["2", "3", "4", "5", "6"]);
    assert_eq!(rows.len(), 3);
    // Published: 4×4 has 16 solutions, 5×5 has 4.
    assert_eq!(rows[1][0], "4");
    assert_eq!(rows[1][3], "16");
    assert_eq!(rows[2][4], "4");

    let csv = ok(&[&base[..], &["--format", "csv"]].concat());
    let csv_rows: Vec<Vec<String>> = csv.lines().map(|l| l.split(',').map(String::from).collect()).collect();
    assert_eq!(csv_rows[0], ["r\\c", "2", "3", "4", "5", "6"]);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(&csv_rows[i + 1], row, "CSV row {i}");
    }

    let md = ok(&[&base[..], &["--format", "markdown"]].concat());
    let md_lines: Vec<&str> = md.lines().collect();
    assert_eq!(md_lines[0], "| r\\c | 2 | 3 | 4 | 5 | 6 |");
    assert_eq!(md_lines[1], "|---:|---:|---:|---:|---:|---:|");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(md_lines[i + 2], format!("| {} |", row.join(" | ")));
    }

    let json: serde_json::Value = serde_json::from_str(&ok(&[&base[..], &["--format", "json"]].concat())).unwrap();
    assert_eq!(json["rule"], "cross");
    assert_eq!(json["topology"], "plane");
    assert_eq!(json["states"], 2);
    assert_eq!(json["show"], "solutions");
    assert_eq!(json["rows"], serde_json::json!([3, 4, 5]));
    let entries = json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 15);
    for (k, e) in entries.iter().enumerate() {
        let (i, j) = (k / 5, k % 5);
        assert_eq!(e["rows"], 3 + i);
        assert_eq!(e["cols"], 2 + j);
        assert_eq!(e["value"].as_str().unwrap(), rows[i][j + 1]);
        assert_eq!(e["solutions"].as_str().unwrap(), rows[i][j + 1]);
        assert_eq!(e["solvable"], true);
    }
    let five = &entries[13]; // 5×5
    assert_eq!((five["rows"].as_u64(), five["cols"].as_u64()), (Some(5), Some(5)));
    assert_eq!(five["kernel_factors"], serde_json::json!([2, 2]));
    assert_eq!(five["kernel_exponent"], 2);
    assert_eq!(five["quiet_patterns"], "4");
    assert_eq!(five["fraction"], "1/4");
}

#[test]
fn table_shows_dimension_and_fraction() {
    let text = ok(&["table", "--rows", "4..5", "--show", "dimension"]);
    assert!(text.starts_with("quiet patterns"));
    let (_, rows) = grid(&text);
    assert_eq!(rows, [["4", "4", "0"], ["5", "0", "2"]]);

    let text = ok(&["table", "--rows", "5", "--cols", "5", "--show", "fraction"]);
    assert_eq!(grid(&text).1, [["5", "1/4"]]);

    // Six states: the 2×2 board's quiet patterns are Z/3, not a power of Z/6.
    let text = ok(&["table", "--rows", "2", "--states", "6", "--show", "dimension", "--format", "csv"]);
    assert_eq!(text, "r\\c,2\n2,[3]\n");
    // Three states: 2×2 All Lights has no solution.
    let text = ok(&["table", "--rows", "2", "--states", "3", "--format", "csv"]);
    assert_eq!(text, "r\\c,2\n2,0\n");
}

#[test]
fn table_takes_rules_topologies_and_stencils() {
    let json = |args: &[&str]| -> serde_json::Value {
        serde_json::from_str(&ok(&[&["table", "--format", "json"], args].concat())).unwrap()
    };
    let j = json(&["--rows", "1..3", "--rule", "king", "--topology", "torus", "--states", "3"]);
    assert_eq!(j["rule"], "king");
    assert_eq!(j["topology"], "torus");
    assert_eq!(j["entries"].as_array().unwrap().len(), 9);
    // The cross written as a stencil gives the cross table.
    let cross = json(&["--rows", "1..6"]);
    let stencil = json(&["--rows", "1..6", "--rule", "{ .1. / 111 / .1. }"]);
    assert_eq!(stencil["rule"], "{ . 1 . / 1 1 1 / . 1 . }");
    assert_eq!(cross["entries"], stencil["entries"]);
    // A single-row stencil never leaves its row.
    let row = json(&["--rows", "1..3", "--cols", "4", "--rule", "{ 1 1 1 }"]);
    assert_eq!(row["cols"], serde_json::json!([4]));
}

#[test]
fn table_errors_exit_2() {
    assert!(usage_error(&["table", "--rows", "5..3"]).contains("`5..3` is an empty range"));
    assert!(usage_error(&["table", "--rows", "0..3"]).contains("includes 0"));
    assert!(usage_error(&["table", "--rows", "1..3", "--cols", "0"]).contains("columns range includes 0"));
    // Boards past dense elimination go through the fast paths; a table holds
    // its largest board whole, so 4,000×4,000 is the most it takes.
    assert!(usage_error(&["table", "--rows", "1..5000"]).contains("5000×5000"));
    assert!(usage_error(&["table", "--rows", "1..5000", "--states", "3"]).contains("at most 16000000"));
    assert!(usage_error(&["table", "--rows", "1..99999999999999999999"]).contains("is not a range"));
    assert!(usage_error(&["table", "--rows", "a..b"]).contains("is not a range"));
    assert!(usage_error(&["table", "--rows", "3.."]).contains("needs both ends"));
    assert!(usage_error(&["table", "--rows", "3", "--rule", "crosss"]).contains("unknown rule `crosss`"));
    assert!(usage_error(&["table", "--rows", "3", "--rule", "{ .1. / 121 / .1. }"]).contains("too large"));
    assert!(usage_error(&["table", "--rows", "3", "--topology", "donut"]).contains("unknown topology"));
    assert!(usage_error(&["table", "--rows", "3", "--states", "1"]).contains("between 2 and 65536"));
    assert!(usage_error(&["table", "--rows", "3", "--show", "everything"]).contains("invalid value"));
    assert!(usage_error(&["table"]).contains("--rows"));
}

#[test]
fn census_five_by_five_twenty_on() {
    let text = ok(&["census", "--size", "5x5", "--on", "20"]);
    assert!(text.starts_with("5×5 board · cross rule · plane · 2 states · 20 lights on\n"), "{text}");
    assert!(text.contains("positions  53130\n"));
    assert!(text.contains("solvable   13326\n"));
    assert!(text.contains("fraction   2221/8855 (25.08%)\n"));

    let text = ok(&["census", "--size", "5x5", "--on", "20", "--lock-dark"]);
    assert!(text.contains("dark cells locked"));
    assert!(text.contains("solvable   3270\n"));

    let json: serde_json::Value =
        serde_json::from_str(&ok(&["census", "--size", "5x5", "--on", "20", "--lock-dark", "--format", "json"]))
            .unwrap();
    assert_eq!(json["rows"], 5);
    assert_eq!(json["lock_dark"], true);
    assert_eq!(json["method"], "enumeration");
    assert_eq!(json["counts"][0]["on"], 20);
    assert_eq!(json["counts"][0]["positions"], "53130");
    assert_eq!(json["counts"][0]["solvable"], "3270");
    assert_eq!(json["counts"][0]["fraction"], "109/1771");
}

#[test]
fn census_ranges_and_methods_agree() {
    let json = |args: &[&str]| -> serde_json::Value {
        serde_json::from_str(&ok(&[&["census", "--format", "json"], args].concat())).unwrap()
    };
    let all = json(&["--size", "4x4"]);
    let counts = all["counts"].as_array().unwrap();
    assert_eq!(counts.len(), 17);
    assert_eq!(all["classes"], "16");
    for method in ["macwilliams", "syndromes"] {
        assert_eq!(json(&["--size", "4x4", "--method", method])["counts"], all["counts"]);
    }
    // One K at a time gives the same lines.
    for k in [0usize, 7, 16] {
        let one = json(&["--size", "4x4", "--on", &k.to_string()]);
        assert_eq!(one["counts"][0], counts[k]);
    }
    // The text table has a line per K and a total: 2^16 positions, 1 in 16 solvable.
    let text = ok(&["census", "--size", "4x4"]);
    assert!(text.contains("0..16 lights on"));
    let total = text.lines().last().unwrap();
    let words: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(&words[..4], ["total", "65536", "4096", "1/16"], "{total}");
    // Other rules, surfaces and states.
    let ternary = json(&["--size", "3x3", "--states", "3", "--topology", "torus", "--rule", "king", "--on", "2..4"]);
    assert_eq!(ternary["states"], 3);
    assert_eq!(ternary["method"], "syndromes");
    assert_eq!(ternary["counts"].as_array().unwrap().len(), 3);
    let locked = json(&[
        "--size",
        "3x3",
        "--states",
        "3",
        "--topology",
        "torus",
        "--rule",
        "king",
        "--on",
        "2..4",
        "--lock-dark",
    ]);
    assert_eq!(locked["method"], "enumeration");
}

#[test]
fn census_big_board_prints_exact_counts() {
    let text = ok(&["census", "--size", "19x19", "--on", "180"]);
    assert!(text.contains("16 independent invariants (65536 classes of positions)"), "{text}");
    // The fraction has ~100-digit parts: approximated in text, exact in JSON.
    assert!(text.contains("fraction   ≈ 1.53e-3% (exact in --format json)"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["census", "--size", "19x19", "--on", "180", "--format", "json"])).unwrap();
    let positions = json["counts"][0]["positions"].as_str().unwrap();
    assert_eq!(positions.len(), 108, "C(361, 180) has 108 digits");
    assert!(text.contains(positions));
}

#[test]
fn census_errors_exit_2() {
    assert!(usage_error(&["census", "--size", "5x5", "--on", "26"]).contains("cannot have 26 lights on"));
    assert!(usage_error(&["census", "--size", "5x5", "--on", "9..3"]).contains("empty"));
    assert!(usage_error(&["census", "--size", "5"]).contains("not a board size"));
    assert!(usage_error(&["census", "--size", "0x5"]).contains("at least one row"));
    assert!(usage_error(&["census", "--size", "500x500"]).contains("at most 20000"));
    let e = usage_error(&["census", "--size", "8x8", "--on", "10", "--lock-dark"]);
    assert!(e.contains("151473214816") && e.contains("100000000"), "{e}");
    assert!(
        usage_error(&["census", "--size", "5x5", "--states", "3", "--method", "macwilliams"]).contains("two states")
    );
    assert!(
        usage_error(&["census", "--size", "5x5", "--lock-dark", "--method", "syndromes"]).contains("does not apply")
    );
    assert!(usage_error(&["census", "--size", "5x5", "--rule", "nope"]).contains("unknown rule"));
    assert!(usage_error(&["census", "--on", "3"]).contains("--size"));
}

#[test]
fn help_teaches_with_examples() {
    let help = ok(&["table", "--help"]);
    for needle in ["inclusive", "Examples:", "lights table --rows 1..20", "[2×4]", "--show", "markdown"] {
        assert!(help.contains(needle), "table --help lacks {needle}");
    }
    let help = ok(&["census", "--help"]);
    for needle in ["--lock-dark", "Examples:", "lights census --size 5x5 --on 20", "invariants", "10^8"] {
        assert!(help.contains(needle), "census --help lacks {needle}");
    }
}

/// `generate`, `table` and `census` take a stencil in every spelling the
/// language has (braced or not, spaced or compact rows, `/` between rows)
/// and refuse a bad one with the same message.
#[test]
fn every_command_takes_every_stencil_spelling() {
    let spellings = ["{ .1. / 111 / .1. }", ".1. / 111 / .1.", ". 1 . / 1 1 1 / . 1 .", "{ . 1 . / 1 1 1 / . 1 . }"];
    let cross = ok(&["table", "--rows", "1..4", "--format", "csv"]);
    let census = ok(&["census", "--size", "3x3", "--on", "4"]);
    for rule in spellings {
        assert_eq!(ok(&["table", "--rows", "1..4", "--format", "csv", "--rule", rule]), cross, "{rule}");
        let c = ok(&["census", "--size", "3x3", "--on", "4", "--rule", rule]);
        assert_eq!(c.lines().skip(1).collect::<Vec<_>>(), census.lines().skip(1).collect::<Vec<_>>(), "{rule}");
        let g = ok(&["generate", "--size", "4x4", "--seed", "3", "--rule", rule]);
        assert!(g.contains("  rule {\n    . 1 .\n    1 1 1\n    . 1 .\n  }\n"), "{rule}: {g}");
    }
    let messages: Vec<String> = [
        &["table", "--rows", "3", "--rule"][..],
        &["census", "--size", "3x3", "--rule"][..],
        &["generate", "--size", "3x3", "--rule"][..],
    ]
    .iter()
    .flat_map(|args| {
        ["{ 1 1 / 1 1 }", "1 1 / 1 1"].map(|rule| {
            let err = usage_error(&[*args, &[rule]].concat());
            err[err.find("stencil").expect("names the stencil")..].replace(rule, "RULE")
        })
    })
    .collect();
    assert!(messages.iter().all(|m| *m == messages[0]), "{messages:#?}");
    assert!(messages[0].contains("no centre cell"), "{}", messages[0]);
}
