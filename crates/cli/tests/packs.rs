//! Level packs through the real binary (issue 31): copies up to symmetry
//! within a file and across the files of a folder (L0208), levels out of
//! the file's order (L0209), and `lights pack` in every format with its
//! plot, hostile names included.

mod common;
use common::*;

use serde_json::Value;

/// The codes of `lights check --format json` for `path`, in order.
fn codes(dir: &std::path::Path, path: &str) -> Vec<String> {
    let out = lights(dir, &["check", "--format", "json", path]);
    let v: Value = serde_json::from_str(&stdout(&out)).expect("json");
    let mut codes = Vec::new();
    for block in v.as_array().unwrap() {
        for d in block["diagnostics"].as_array().unwrap() {
            codes.push(d["code"].as_str().unwrap().to_string());
        }
    }
    codes
}

#[test]
fn a_turned_copy_a_mirrored_hex_copy_and_a_renumbered_petersen_copy_get_exactly_three_warnings() {
    let out = lights(&root(), &["check", "tests/corpus/L0208-duplicate-levels.lights"]);
    assert_eq!(out.status.code(), Some(0), "warnings only: {}", stdout(&out));
    assert_eq!(codes(&root(), "tests/corpus/L0208-duplicate-levels.lights"), ["L0208", "L0208", "L0208"]);
    let text = stdout(&out);
    for (copy, first, how) in [
        ("corner turned", "corner", "turned a quarter turn clockwise"),
        ("honeycomb mirrored", "honeycomb", "mirrored"),
        ("petersen renumbered", "petersen", "with its nodes numbered differently"),
    ] {
        assert!(text.contains(&format!("\"{copy}\" is the same puzzle as \"{first}\"")), "{copy}: {text}");
        assert!(text.contains(how), "{how}: {text}");
    }
    assert!(!text.contains("\"corner moved\" is the same"), "one light moved is another puzzle");
}

#[test]
fn copies_are_found_across_the_files_of_a_folder_and_named_with_their_file() {
    let dir = scratch("packs_across_files");
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::write(dir.join("levels/01.lights"), "puzzle \"a\" {\n  size 3x3\n  lights at 1,1 1,2\n}\n").unwrap();
    // Mirrored left to right, in another file.
    std::fs::write(dir.join("levels/02.lights"), "puzzle \"b\" {\n  size 3x3\n  lights at 1,3 1,2\n}\n").unwrap();
    std::fs::write(dir.join("levels/03.lights"), "puzzle \"c\" {\n  size 3x3\n  lights at 2,2\n}\n").unwrap();
    let out = lights(&dir, &["check", "--format", "concise", "levels"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let warnings: Vec<&str> = text.lines().filter(|l| l.contains("L0208")).collect();
    assert_eq!(warnings.len(), 1, "{text}");
    assert!(warnings[0].starts_with("levels/02.lights:1:1: warning[L0208]"), "{text}");
    assert!(warnings[0].contains("\"a\" (levels/01.lights, line 1), mirrored left to right"), "{text}");
    // One file alone has nothing to compare with.
    assert_eq!(codes(&dir, "levels/02.lights"), Vec::<String>::new());
    // --deny-warnings makes a copy fail CI.
    assert_eq!(lights(&dir, &["check", "--deny-warnings", "levels"]).status.code(), Some(1));
    // `lights pack` reads the folder as `lights check` does: the same copy,
    // and the files lights.toml excludes left out.
    let json: Value = serde_json::from_str(&stdout(&lights(&dir, &["pack", "--format", "json", "levels"]))).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["duplicate_of"], "\"a\" (levels/01.lights, line 1)");
    std::fs::write(dir.join("lights.toml"), "exclude = [\"levels/03.lights\"]\n").unwrap();
    let json: Value = serde_json::from_str(&stdout(&lights(&dir, &["pack", "--format", "json", "levels"]))).unwrap();
    let names: Vec<&str> = json.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["a", "b"], "excluded as lights check excludes it");
}

#[test]
fn an_out_of_order_pack_gets_progression_warnings() {
    let out = lights(&root(), &["check", "tests/corpus/L0209-out-of-order.lights"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(codes(&root(), "tests/corpus/L0209-out-of-order.lights"), ["L0209"]);
    let dir = scratch("packs_order");
    let level = |name: &str, lights: &str| format!("puzzle \"{name}\" {{\n  size 5x5\n  lights {lights}\n}}\n");
    let mut text = String::from("order by presses\n\n");
    text.push_str(&level("hard", "on")); // 15 presses
    text.push_str(&level("easy", "at 3,3 2,3 4,3 3,2 3,4")); // 1 press
    text.push_str(&level("hard again", "on"));
    std::fs::write(dir.join("pack.lights"), &text).unwrap();
    assert_eq!(codes(&dir, "pack.lights"), ["L0209", "L0208"], "easy after hard; the last is a copy of the first");
    // In order, nothing.
    let sorted = format!("order by presses\n\n{}{}", level("easy", "at 3,3 2,3 4,3 3,2 3,4"), level("hard", "on"));
    std::fs::write(dir.join("sorted.lights"), sorted).unwrap();
    assert_eq!(codes(&dir, "sorted.lights"), Vec::<String>::new());
    // A misspelt order is an error with a suggestion; a second order is an error.
    std::fs::write(dir.join("bad.lights"), "order by presess\norder by presses\npuzzle \"a\" {\n  size 2x2\n}\n")
        .unwrap();
    let out = lights(&dir, &["check", "bad.lights"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("did you mean `presses`?"), "{}", stdout(&out));
    std::fs::write(dir.join("twice.lights"), "order by presses\norder by difficulty\npuzzle \"a\" {\n  size 2x2\n}\n")
        .unwrap();
    let out = lights(&dir, &["check", "twice.lights"]);
    assert!(stdout(&out).contains("`order` is written twice (first on line 1)"), "{}", stdout(&out));
}

#[test]
fn range_claims_are_checked() {
    let dir = scratch("packs_ranges");
    let file = |claims: &str| format!("puzzle \"p\" {{\n  size 3x3\n  lights on\n  {claims}\n}}\n");
    // The exit status: 0 when the claim holds, 1 when it does not.
    for (claims, status) in [
        ("expect presses 4..6", 0),
        ("expect presses 5..5", 0),
        ("expect presses 6..9", 1),
        ("expect presses 1..4", 1),
        ("expect difficulty 0..1000", 0),
        ("expect difficulty 1000..2000", 1),
    ] {
        std::fs::write(dir.join("p.lights"), file(claims)).unwrap();
        let out = lights(&dir, &["check", "p.lights"]);
        assert_eq!(out.status.code(), Some(status), "{claims}: {}", stdout(&out));
    }
    std::fs::write(dir.join("p.lights"), file("expect presses 9..4")).unwrap();
    let out = lights(&dir, &["check", "p.lights"]);
    assert!(stdout(&out).contains("the range 9..4 is empty"), "{}", stdout(&out));
    // The formatter keeps the ranges.
    std::fs::write(dir.join("f.lights"), "puzzle \"p\" { size 3x3  expect presses 1 .. 5  expect difficulty 3 }\n")
        .unwrap();
    let formatted = lights_with_input(&dir, &["fmt", "-"], &std::fs::read_to_string(dir.join("f.lights")).unwrap());
    let text = stdout(&formatted);
    assert!(text.contains("expect presses 1..5\n") && text.contains("expect difficulty 3\n"), "{text}");
}

const HOSTILE: &str = "puzzle \"a|b, \\\"c\\\" <script>\u{1b}[31m\" {\n  size 3x3\n  lights on\n}\n\npuzzle \"copy\" {\n  size 3x3\n  lights on\n}\n";

#[test]
fn lights_pack_prints_every_format_and_draws_the_plot() {
    let dir = scratch("packs_table");
    std::fs::write(dir.join("pack.lights"), HOSTILE).unwrap();
    std::fs::copy(root().join("examples/level-pack.lights"), dir.join("level-pack.lights")).unwrap();

    let out = lights(&dir, &["pack", "level-pack.lights", "pack.lights", "--plot", "plot.svg"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.lines().next().unwrap().starts_with("#   level"), "{table}");
    assert!(table.contains("first light") && table.contains("1 (local)"), "{table}");
    assert!(table.contains("(pack.lights, line 1)"), "the copy names the first: {table}");
    assert!(!table.contains('\u{1b}'), "control characters are shown escaped: {table:?}");
    assert!(table.trim_end().ends_with("10 levels · 1 copy"), "{table}");

    let md = stdout(&lights(&dir, &["pack", "pack.lights", "--format", "markdown"]));
    assert!(md.starts_with("| # "), "{md}");
    assert!(md.contains("a\\|b"), "a | in a name does not end the cell: {md}");
    assert_eq!(md.lines().nth(1).unwrap().chars().filter(|&c| c == '|').count(), 11, "{md}");

    let csv = stdout(&lights(&dir, &["pack", "pack.lights", "--format", "csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].contains("\"a|b, \"\"c\"\" <script>"), "quoted field: {csv}");
    assert!(lines[2].contains(",1,5,true,"), "solutions, minimum, proven: {csv}");

    let json: Value =
        serde_json::from_str(&stdout(&lights(&dir, &["pack", "pack.lights", "--format", "json"]))).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["minimum"], 5);
    assert_eq!(rows[0]["minimum_proven"], true);
    assert_eq!(rows[0]["solutions"], "1");
    assert!(rows[1]["duplicate_of"].as_str().unwrap().contains("(pack.lights, line 1)"), "{json}");
    assert!(rows[0]["difficulty"].as_u64().unwrap() >= 5);

    let svg = std::fs::read_to_string(dir.join("plot.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<rect x=").count(), 10, "a bar per level");
    assert!(!svg.contains("<script>"), "names are escaped in the plot");
    assert!(svg.contains("&lt;script&gt;"));
    assert!(svg.contains("url(#copy)"), "the copy is hatched");

    // Unreadable input: exit 2, and nothing selected is an error too.
    assert_eq!(lights(&dir, &["pack", "missing.lights"]).status.code(), Some(2));
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    assert_eq!(lights(&dir, &["pack", "empty"]).status.code(), Some(2));
}
