//! The real binary, end to end.

mod common;
use common::*;

const THREE_ERRORS: &str = "\
// three independent mistakes
puzzle \"a\" {
  size 3x3
  lightz on
  topology torsu
  lights {
    . 1 .
    1 ? 1
    . 1 .
  }
}
";

#[test]
fn three_independent_errors_give_three_diagnostics_and_exit_1() {
    let dir = scratch("three");
    std::fs::write(dir.join("three.lights"), THREE_ERRORS).unwrap();
    let out = lights(&dir, &["check", "--format", "json", "three.lights"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let diags = json[0]["diagnostics"].as_array().unwrap();
    let got: Vec<(String, u64)> =
        diags.iter().map(|d| (d["code"].as_str().unwrap().to_string(), d["line"].as_u64().unwrap())).collect();
    assert_eq!(got, vec![("L0005".into(), 4), ("L0110".into(), 5), ("L0007".into(), 8)]);

    // The human report shows the same three, with their codes and places.
    let out = lights(&dir, &["check", "three.lights"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    for needle in ["[L0005]", "three.lights:4:3", "[L0110]", "three.lights:5:12", "[L0007]", "three.lights:8:7"] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
    assert!(!text.contains('\x1b'), "no colour when not on a terminal");
}

#[test]
fn json_output_follows_the_reference() {
    let dir = scratch("json");
    std::fs::write(
        dir.join("a.lights"),
        "puzzle \"classic\" {\n  size 5x5\n  lights on\n}\npuzzle \"nope\" {\n  size 2x2\n  states 3\n  goal on\n}\n",
    )
    .unwrap();
    for cmd in ["check", "solve"] {
        let out = lights(&dir, &[cmd, "--format", "json", "a.lights"]);
        assert_eq!(out.status.code(), Some(1), "{cmd}: the unsolvable puzzle is an error");
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let a = &json[0];
        assert_eq!(a["file"], "a.lights");
        assert_eq!(a["puzzle"], "classic");
        assert_eq!(a["solvable"], true);
        assert_eq!(a["solutions"], "4");
        assert_eq!(a["presses"], 15);
        assert_eq!(a["optimal"], true);
        let grid = a["solution"].as_array().unwrap();
        assert_eq!(grid.len(), 5);
        let presses: u64 = grid.iter().flat_map(|r| r.as_array().unwrap()).map(|v| v.as_u64().unwrap()).sum();
        assert_eq!(presses, 15);
        assert_eq!(a["errors"].as_array().unwrap().len(), 0);
        let b = &json[1];
        assert_eq!(b["solvable"], false);
        assert_eq!(b["solutions"], "0");
        assert!(b["presses"].is_null() && b["solution"].is_null() && b["optimal"].is_null());
        assert!(b["errors"][0].as_str().unwrap().starts_with("L0201"));
    }
}

#[test]
fn a_file_that_does_not_parse_gives_an_object_without_a_puzzle() {
    let dir = scratch("noparse");
    std::fs::write(dir.join("x.lights"), "this is not a puzzle\n").unwrap();
    let out = lights(&dir, &["check", "--format", "json", "x.lights"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(json[0]["puzzle"].is_null());
    assert!(json[0]["errors"][0].as_str().unwrap().starts_with("L0001"));
}

#[test]
fn exit_status_2_for_bad_usage_and_unreadable_files() {
    let dir = scratch("usage");
    assert_eq!(lights(&dir, &["check", "missing.lights"]).status.code(), Some(2));
    assert!(stderr(&lights(&dir, &["check", "missing.lights"])).contains("no such file"));
    assert_eq!(lights(&dir, &["frobnicate"]).status.code(), Some(2));
    std::fs::write(dir.join("bin.lights"), [0xff, 0xfe, 0x00]).unwrap();
    assert_eq!(lights(&dir, &["check", "bin.lights"]).status.code(), Some(2));
    std::fs::write(dir.join("ok.lights"), "puzzle \"a\" { size 1x1 }\n").unwrap();
    let out = lights(&dir, &["solve", "ok.lights", "--puzzle", "b"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no puzzle named \"b\""));
}

#[test]
fn check_walks_folders_recursively() {
    let dir = scratch("walk");
    std::fs::create_dir_all(dir.join("pack/sub")).unwrap();
    std::fs::write(dir.join("pack/a.lights"), "puzzle \"a\" {\n  size 2x2\n}\n").unwrap();
    std::fs::write(dir.join("pack/sub/b.lights"), "puzzle \"b\" {\n  size 3x3\n  lights on\n}\n").unwrap();
    std::fs::write(dir.join("pack/sub/notes.txt"), "not a puzzle").unwrap();
    let out = lights(&dir, &["check", "pack"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("checked 2 puzzles in 2 files: all fine"));
}

#[test]
fn expectations_and_solutions_are_verified() {
    let dir = scratch("expect");
    let src =
        "puzzle \"a\" {\n  size 5x5\n  lights on\n  expect solutions 2\n  expect presses 15\n  solution at 1,1\n}\n";
    std::fs::write(dir.join("a.lights"), src).unwrap();
    let out = lights(&dir, &["check", "a.lights"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("[L0202]") && text.contains("the puzzle has 4 solutions"), "{text}");
    assert!(text.contains("[L0203]") && text.contains("leaves 22 cells wrong"), "{text}");
    assert!(!text.contains("expect presses 15` does not hold"));
}

/// A false claim beside `expect unsolvable` is an error (it used to pass),
/// and `solve` says why the puzzle has no solution, in words and in JSON.
#[test]
fn an_expected_unsolvable_puzzle_still_has_its_other_claims_checked_and_solve_shows_why() {
    let dir = scratch("expect_unsolvable");
    let src = "puzzle \"u\" {\n  size 2x2\n  states 6\n  goal on\n  expect unsolvable\n  expect solvable\n  expect presses 5\n}\n";
    std::fs::write(dir.join("u.lights"), src).unwrap();
    let out = lights(&dir, &["check", "u.lights"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("`expect solvable` does not hold: the puzzle has no solution"), "{text}");
    assert!(text.contains("`expect presses 5` does not hold: the puzzle has no solution"), "{text}");
    assert!(!text.contains("L0201"), "the puzzle expects no solution: {text}");

    let out = lights(&dir, &["solve", "u.lights"]);
    let text = stdout(&out);
    assert!(text.contains("\n  why: every press adds a multiple of 3 to the total of the 4 marked cells"), "{text}");
    assert!(text.contains("  the marked cells:\n    1 1\n    1 1\n"), "{text}");

    let out = lights(&dir, &["solve", "u.lights", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let certificate = &json[0]["certificate"];
    let weights = certificate["weights"].as_array().expect("weights");
    assert_eq!(weights.len(), 2);
    let w = weights[0][0].as_u64().expect("a weight");
    assert!(!w.is_multiple_of(6) && weights.iter().flat_map(|r| r.as_array().unwrap()).all(|v| v.as_u64() == Some(w)));
    assert_eq!(certificate["cells"], serde_json::json!([[1, 1], [1, 2], [2, 1], [2, 2]]));
    assert!(certificate["why"].as_str().unwrap().starts_with("why: every press adds a multiple of 3"));
    // A solvable puzzle has no certificate.
    std::fs::write(dir.join("s.lights"), "puzzle \"s\" {\n  size 2x2\n  lights on\n}\n").unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&lights(&dir, &["solve", "s.lights", "--format", "json"]))).expect("JSON");
    assert!(json[0].get("certificate").is_none(), "{json}");
}

#[test]
fn solve_write_inserts_then_replaces_the_solution_and_keeps_other_bytes() {
    let dir = scratch("write");
    let src = "// keep me   exactly\npuzzle \"a\" {\n    size 5x5   // odd spacing stays\n    lights on\n}\n\npuzzle \"b\" { size 2x2 states 3 goal on expect unsolvable }\n";
    std::fs::write(dir.join("a.lights"), src).unwrap();
    let out = lights(&dir, &["solve", "a.lights", "--write"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let after = std::fs::read_to_string(dir.join("a.lights")).unwrap();
    assert!(after.starts_with(
        "// keep me   exactly\npuzzle \"a\" {\n    size 5x5   // odd spacing stays\n    lights on\n  solution {\n"
    ));
    assert!(after.ends_with("  }\n}\n\npuzzle \"b\" { size 2x2 states 3 goal on expect unsolvable }\n"), "{after}");
    assert_eq!(lights(&dir, &["check", "a.lights"]).status.code(), Some(0));

    // Replacing a wrong solution.
    std::fs::write(dir.join("b.lights"), "puzzle \"a\" {\n  size 5x5\n  lights on\n  solution at 1,1\n}\n").unwrap();
    assert_eq!(lights(&dir, &["check", "b.lights"]).status.code(), Some(1));
    assert_eq!(
        lights(&dir, &["solve", "b.lights", "--write"]).status.code(),
        Some(1),
        "it had an error before writing"
    );
    let fixed = std::fs::read_to_string(dir.join("b.lights")).unwrap();
    assert!(!fixed.contains("at 1,1"));
    assert_eq!(fixed.matches("solution").count(), 1);
    assert_eq!(lights(&dir, &["check", "b.lights"]).status.code(), Some(0));
}

#[test]
fn fmt_check_lists_files_and_fmt_rewrites_atomically() {
    let dir = scratch("fmt");
    std::fs::write(dir.join("messy.lights"), "puzzle \"a\" {\nsize 2 x 2\n   lights {\n1 .\n.   1\n}\n}\n").unwrap();
    std::fs::write(dir.join("broken.lights"), "puzzle \"a\" {\n size 2x\n}\n").unwrap();
    let out = lights(&dir, &["fmt", "--check", "messy.lights"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("would reformat messy.lights"));
    let out = lights(&dir, &["fmt", "messy.lights"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.join("messy.lights")).unwrap(),
        "puzzle \"a\" {\n  size 2x2\n  lights {\n    1 .\n    . 1\n  }\n}\n"
    );
    assert_eq!(lights(&dir, &["fmt", "--check", "messy.lights"]).status.code(), Some(0));
    // No temporary file left behind.
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.contains("tmp")), "{names:?}");
    // A broken file is refused and left untouched.
    let out = lights(&dir, &["fmt", "broken.lights"]);
    assert_eq!(out.status.code(), Some(2), "a file that does not parse: 2, as prettier");
    assert!(stderr(&out).contains("not formatting broken.lights"));
    assert_eq!(std::fs::read_to_string(dir.join("broken.lights")).unwrap(), "puzzle \"a\" {\n size 2x\n}\n");
}

#[test]
fn every_example_checks_clean_and_is_formatted() {
    let root = root();
    let out = lights(&root, &["check", "-q", "examples"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stdout(&out), "", "-q on a clean run prints nothing");
    let out = lights(&root, &["check", "examples"]);
    assert!(stdout(&out).contains("all fine"));
    assert!(!stdout(&out).contains("warning"));
    let out = lights(&root, &["fmt", "--check", "examples"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// The cells of a binary PBM (P4) of `rows`×`cols`: 1 = pressed.
fn read_pbm(bytes: &[u8], rows: usize, cols: usize) -> Vec<Vec<u8>> {
    let cells = decode_pbm(bytes);
    assert_eq!((cells.len(), cells.first().map_or(cols, Vec::len)), (rows, cols), "the PBM's size");
    cells.into_iter().map(|row| row.into_iter().map(|v| v as u8).collect()).collect()
}

#[test]
fn solution_out_writes_text_pbm_and_png() {
    let dir = scratch("solution-out");
    std::fs::copy(root().join("examples/classic.lights"), dir.join("c.lights")).unwrap();
    let json = lights(&dir, &["solve", "c.lights", "--puzzle", "all-on", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let grid: Vec<Vec<u64>> = serde_json::from_value(v[0]["solution"].clone()).unwrap();

    let out = lights(&dir, &["solve", "c.lights", "--puzzle", "all-on", "--solution-out", "s.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("wrote the minimum solution of \"all-on\" (5×5, 15 presses) to s.txt"));
    let text = std::fs::read_to_string(dir.join("s.txt")).unwrap();
    let from_text: Vec<Vec<u64>> = text
        .lines()
        .map(|l| l.split_whitespace().map(|c| if c == "." { 0 } else { c.parse().unwrap() }).collect())
        .collect();
    assert_eq!(from_text, grid);

    assert_eq!(
        lights(&dir, &["solve", "c.lights", "--puzzle", "all-on", "--solution-out", "s.pbm"]).status.code(),
        Some(0)
    );
    let bits = read_pbm(&std::fs::read(dir.join("s.pbm")).unwrap(), 5, 5);
    let pressed: Vec<Vec<u64>> = grid.iter().map(|row| row.iter().map(|&v| u64::from(v != 0)).collect()).collect();
    assert_eq!(bits.iter().map(|r| r.iter().map(|&b| u64::from(b)).collect::<Vec<_>>()).collect::<Vec<_>>(), pressed);

    assert_eq!(
        lights(&dir, &["solve", "c.lights", "--puzzle", "all-on", "--solution-out", "s.png"]).status.code(),
        Some(0)
    );
    let png = std::fs::read(dir.join("s.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&png[12..16], b"IHDR");
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 5, "one pixel per column");
    assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 5, "one pixel per row");

    // Usage errors are found before anything is printed or written.
    let two = lights(&dir, &["solve", "c.lights", "--solution-out", "x.txt"]);
    assert_eq!(two.status.code(), Some(2));
    assert!(stderr(&two).contains("pick one with --puzzle (\"classic\", \"all-on\")"), "{}", stderr(&two));
    assert!(stdout(&two).is_empty());
    let gif = lights(&dir, &["solve", "c.lights", "--puzzle", "all-on", "--solution-out", "x.gif"]);
    assert_eq!(gif.status.code(), Some(2));
    assert!(!dir.join("x.txt").exists() && !dir.join("x.gif").exists());
}

/// Boards far beyond dense elimination go through the fast paths: the
/// solution the binary writes is replayed here, cell by cell, by an
/// independent simulation of the rule on the board's surface.
#[test]
fn huge_boards_are_solved_and_the_written_solution_replays() {
    let dir = scratch("huge-boards");
    // (name, size, rule, topology, expected path)
    for (name, n, rule, topology) in [
        ("plane-cross", 1200usize, "cross", "plane"),
        ("torus-king", 300, "king", "torus"),
        ("klein-cross", 400, "cross", "klein"),
    ] {
        let file = format!("{name}.lights");
        std::fs::write(
            dir.join(&file),
            format!("puzzle \"{name}\" {{\n  size {n}x{n}\n  rule {rule}\n  topology {topology}\n  lights on\n}}\n"),
        )
        .unwrap();
        let check = lights(&dir, &["check", &file]);
        assert_eq!(check.status.code(), Some(0), "{name}: {}{}", stdout(&check), stderr(&check));
        let out = lights(&dir, &["solve", &file, "--solution-out", "s.pbm"]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let presses = read_pbm(&std::fs::read(dir.join("s.pbm")).unwrap(), n, n);
        assert_eq!(presses.len(), n);
        // Every cell must be toggled an odd number of times (all lights on → off).
        let offsets: &[(i64, i64)] = if rule == "king" {
            &[(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]
        } else {
            &[(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
        };
        let ni = n as i64;
        // The cells a press at (r, c) reaches, through this surface's gluing.
        let reach = |r: i64, c: i64| -> Option<(usize, usize)> {
            let (mut r, mut c) = (r, c);
            match topology {
                "plane" if !(0..ni).contains(&r) || !(0..ni).contains(&c) => return None,
                "torus" => {
                    r = r.rem_euclid(ni);
                    c = c.rem_euclid(ni);
                }
                "klein" => {
                    c = c.rem_euclid(ni);
                    if !(0..ni).contains(&r) {
                        r = r.rem_euclid(ni);
                        c = ni - 1 - c;
                    }
                }
                _ => {}
            }
            Some((r as usize, c as usize))
        };
        let mut board = vec![vec![1u8; n]; n];
        for (r, row) in presses.iter().enumerate() {
            for (c, &x) in row.iter().enumerate() {
                if x == 1 {
                    for &(dr, dc) in offsets {
                        if let Some((tr, tc)) = reach(r as i64 + dr, c as i64 + dc) {
                            board[tr][tc] ^= 1;
                        }
                    }
                }
            }
        }
        assert!(board.iter().all(|row| row.iter().all(|&v| v == 0)), "{name}: the written solution leaves lights on");
    }
}

/// Sliding blocks through the binary: `check` verifies the claims of
/// examples/sliding.lights, `solve --format json` gives the moves, and the
/// moves replay to the goal (checked here by hand on the 3×3 board).
#[test]
fn sliding_puzzles_are_checked_and_solved() {
    let root = root();
    let out = lights(&root, &["check", "examples/sliding.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let out = lights(&root, &["solve", "examples/sliding.lights", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let by_name = |n: &str| v.as_array().unwrap().iter().find(|p| p["puzzle"] == n).unwrap().clone();
    assert_eq!(by_name("loyd")["solvable"], false);
    let hard = by_name("eight, hardest");
    assert_eq!((hard["moves"].as_u64(), hard["optimal"].as_bool()), (Some(31), Some(true)));
    // Replay: the blank starts at row 3, column 2 of 8 6 7 / 2 5 4 / 3 . 1.
    let mut board = vec![8u8, 6, 7, 2, 5, 4, 3, 0, 1];
    for m in hard["solution"].as_str().unwrap().chars() {
        let b = board.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (b / 3, b % 3);
        let to = match m {
            'U' => (r - 1) * 3 + c,
            'D' => (r + 1) * 3 + c,
            'L' => r * 3 + c - 1,
            'R' => r * 3 + c + 1,
            other => panic!("unexpected move {other}"),
        };
        board.swap(b, to);
    }
    assert_eq!(board, [1, 2, 3, 4, 5, 6, 7, 8, 0]);

    // For people: each block's size, why Loyd's puzzle cannot be solved (it
    // expects that, so there is no error to explain it), no move for the
    // solved one, the 31 moves grouped in tens.
    let out = lights(&root, &["solve", "examples/sliding.lights"]);
    let text = stdout(&out);
    assert!(text.contains("✓ \"loyd\"  4×4 sliding\n  unsolvable, as expected\n  why: The tiles"), "{text}");
    assert!(text.contains("only tiles 14 and 15 are in the opposite order"), "{text}");
    assert!(
        text.contains("\"solved\"  4×4 sliding\n  optimal 0 moves\n  already at the goal: no move needed\n"),
        "{text}"
    );
    let grouped =
        format!("  solution \"{}\"\n", lights_compiler::edit::group_moves(hard["solution"].as_str().unwrap()));
    assert!(text.contains(&grouped), "{text}");
}

/// Run `lights` with the sliding solver's cache in `cache` (so no test
/// reads or writes the user's), without colour.
fn lights_cached(dir: &std::path::Path, cache: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_lights"))
        .args(args)
        .current_dir(dir)
        .env("LIGHTS_CACHE_DIR", cache)
        .env_remove("NO_COLOR")
        .output()
        .expect("run lights")
}

/// Files in a folder (none when it does not exist).
fn entries(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default()
}

const NO_SOLUTION: &str = "sliding \"none\" {\n  size 2x3\n  tiles {\n    1 2 3\n    . 4 5\n  }\n}\n";
const WRONG_SOLUTION: &str =
    "sliding \"wrong\" {\n  size 3x3\n  tiles {\n    8 6 7\n    2 5 4\n    3 . 1\n  }\n  solution \"UUUU\"\n}\n";
/// Correct and as short as can be (15 moves): the author's, kept as written.
const OWN_SOLUTION: &str = "sliding \"own\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 5 .\n  }\n  goal {\n    . 1 2\n    3 4 5\n  }\n  solution \"LLURR DLULD RRULL\"   // mine\n}\n";
/// Correct, but one move does it.
const LONGER_SOLUTION: &str =
    "sliding \"longer\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n  solution \"RLR\"\n}\n";

/// The moves of `solution "…"` in the block named `name` of `src`, spaces removed.
fn written_moves(src: &str, name: &str) -> String {
    let block = &src[src.find(&format!("\"{name}\"")).expect("the block")..];
    let block = &block[..block.find("\n}").expect("its end")];
    let at = block.find("solution \"").expect("a solution") + "solution \"".len();
    block[at..].split('"').next().unwrap().chars().filter(|c| !c.is_whitespace()).collect()
}

/// `solve --write` on sliding blocks: a block without a solution gets the
/// moves found, a wrong one and a correct but longer one are replaced, and
/// the author's correct, shortest solution stays byte for byte; the file
/// then checks clean, and writing again changes nothing.
#[test]
fn solve_write_puts_moves_into_sliding_blocks_and_keeps_correct_ones() {
    let dir = scratch("write-sliding");
    let cache = dir.join("cache");
    let src = [NO_SOLUTION, WRONG_SOLUTION, OWN_SOLUTION, LONGER_SOLUTION].join("\n");
    std::fs::write(dir.join("s.lights"), &src).unwrap();
    let out = lights_cached(&dir, &cache, &["solve", "s.lights", "--write"]);
    assert_eq!(out.status.code(), Some(1), "the wrong solution was an error before writing: {}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("wrote 3 solutions into s.lights; kept 1 already there"), "{err}");

    let after = std::fs::read_to_string(dir.join("s.lights")).unwrap();
    assert!(after.contains(OWN_SOLUTION), "the author's solution is kept as written:\n{after}");
    assert!(after
        .starts_with("sliding \"none\" {\n  size 2x3\n  tiles {\n    1 2 3\n    . 4 5\n  }\n  solution \"RR\"\n}\n"));
    assert!(!after.contains("UUUU") && !after.contains("\"RLR\""), "{after}");
    let hardest = written_moves(&after, "wrong");
    assert_eq!(hardest.len(), 31, "the 8-puzzle's hardest position needs 31 moves: {hardest}");
    assert!(
        after.contains(&format!(
            "solution \"{} {} {} {}\"",
            &hardest[..10],
            &hardest[10..20],
            &hardest[20..30],
            &hardest[30..]
        )),
        "long solutions are grouped in tens:\n{after}"
    );
    assert_eq!(written_moves(&after, "longer"), "R");
    let check = lights_cached(&dir, &cache, &["check", "s.lights"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));

    // Again: every solution is already there and as short as the ones found.
    let again = lights_cached(&dir, &cache, &["solve", "s.lights", "--write"]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("nothing written into s.lights: its 4 solutions already solve"),
        "{}",
        stderr(&again)
    );
    assert_eq!(std::fs::read_to_string(dir.join("s.lights")).unwrap(), after);
    assert!(entries(&cache).is_empty(), "boards below 4×4 never touch the pattern databases");
}

/// A file with a Lights Out puzzle and a sliding block: `--puzzle` writes
/// only the one named, then both have solutions and the file checks clean;
/// a grid identical to the minimum is not rewritten.
#[test]
fn solve_write_handles_lights_out_and_sliding_blocks_in_one_file() {
    let dir = scratch("write-mixed");
    let cache = dir.join("cache");
    let lights_out = "puzzle \"lights\" {\n  size 3x3\n  lights on\n}\n";
    let sliding = "sliding \"tiles\" {\n  size 2x2\n  tiles {\n    1 2\n    . 3\n  }\n}\n";
    std::fs::write(dir.join("m.lights"), format!("{lights_out}\n{sliding}")).unwrap();

    let out = lights_cached(&dir, &cache, &["solve", "m.lights", "--puzzle", "tiles", "--write"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("wrote 1 solution into m.lights"), "{}", stderr(&out));
    let after = std::fs::read_to_string(dir.join("m.lights")).unwrap();
    assert_eq!(
        after,
        format!("{lights_out}\nsliding \"tiles\" {{\n  size 2x2\n  tiles {{\n    1 2\n    . 3\n  }}\n  solution \"R\"\n}}\n")
    );

    let out = lights_cached(&dir, &cache, &["solve", "m.lights", "--write"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("wrote 1 solution into m.lights; kept 1 already there"), "{}", stderr(&out));
    let after = std::fs::read_to_string(dir.join("m.lights")).unwrap();
    assert!(after.starts_with("puzzle \"lights\" {\n  size 3x3\n  lights on\n  solution {\n"), "{after}");
    assert!(after.ends_with("  solution \"R\"\n}\n"), "{after}");
    assert_eq!(lights_cached(&dir, &cache, &["check", "m.lights"]).status.code(), Some(0));

    let out = lights_cached(&dir, &cache, &["solve", "m.lights", "--write"]);
    assert!(stderr(&out).contains("nothing written into m.lights: its 2 solutions"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.join("m.lights")).unwrap(), after);
}

/// Without a terminal, `--format json` prints only JSON on standard output
/// and standard error carries no progress bar. 4×4 blocks the solver
/// answers without the pattern databases (unsolvable, already solved) do
/// not build them.
#[test]
fn sliding_json_stays_clean_without_a_terminal_and_tables_are_built_only_when_needed() {
    let dir = scratch("sliding-json");
    let cache = dir.join("cache");
    let src = format!(
        "{NO_SOLUTION}\nsliding \"loyd\" {{\n  size 4x4\n  tiles {{\n     1  2  3  4\n     5  6  7  8\n     9 10 11 12\n    13 15 14  .\n  }}\n  expect unsolvable\n}}\n\nsliding \"solved\" {{\n  size 4x4\n  tiles {{\n     1  2  3  4\n     5  6  7  8\n     9 10 11 12\n    13 14 15  .\n  }}\n  expect moves 0\n}}\n\npuzzle \"lights\" {{\n  size 3x3\n  lights on\n}}\n"
    );
    std::fs::write(dir.join("j.lights"), src).unwrap();
    for cmd in ["check", "solve"] {
        let out = lights_cached(&dir, &cache, &[cmd, "--format", "json", "j.lights"]);
        assert_eq!(out.status.code(), Some(0), "{cmd}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("standard output is JSON");
        let names: Vec<&str> = json.as_array().unwrap().iter().map(|p| p["puzzle"].as_str().unwrap()).collect();
        assert_eq!(names, ["none", "loyd", "solved", "lights"], "{cmd}");
        assert_eq!(json[0]["solution"], "RR");
        assert_eq!(json[2]["moves"], 0);
        let err = stderr(&out);
        assert!(!err.contains('\r') && !err.contains('\x1b'), "{cmd}: no bar or colour off a terminal: {err:?}");
        assert!(!err.contains("pattern databases"), "{cmd}: {err}");
    }
    assert!(entries(&cache).is_empty(), "nothing needed the tables: {:?}", entries(&cache));
}

/// The first 4×4 block that needs pattern databases is solved with the
/// quick 5-5-5 tables the solver builds in memory: nothing is written to
/// the cache and nothing is said. A cache file that is not tables gets one
/// warning line on standard error (never on standard output).
#[test]
fn the_first_4x4_check_builds_no_cache_and_warns_about_a_bad_cache_file() {
    let dir = scratch("sliding-build");
    let cache = dir.join("cache");
    let src = "sliding \"near\" {\n  size 4x4\n  tiles {\n     1  2  3  4\n     5  6  7  8\n     9 10 11 12\n    13 14  . 15\n  }\n  expect moves 1\n}\n";
    std::fs::write(dir.join("b.lights"), src).unwrap();
    let out = lights_cached(&dir, &cache, &["check", "--format", "json", "b.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("standard output is JSON");
    assert_eq!(json[0]["solution"], "R");
    assert_eq!(stderr(&out), "", "the quick tables are built without a word");
    assert!(entries(&cache).is_empty(), "nothing cached: {:?}", entries(&cache));

    // A file that is not tables: one warning, the answer is the same.
    std::fs::create_dir_all(&cache).unwrap();
    let file = cache.join(lights_sliding::PDB_FILE_NAME);
    std::fs::write(&file, b"not tables").unwrap();
    let out = lights_cached(&dir, &cache, &["check", "--format", "json", "b.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&stdout(&out)).unwrap()[0]["solution"], "R");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("warning: 4×4 pattern databases: ") && err.contains("not a pattern-database file"),
        "{err}"
    );
}

/// Tiles (row by row, 0 the blank) as the lines of a `.lights` grid.
fn grid_lines(tiles: &[u32], cols: usize) -> String {
    let rows: Vec<String> = tiles
        .chunks(cols)
        .map(|row| {
            let cells: Vec<String> =
                row.iter().map(|&t| if t == 0 { " .".to_string() } else { format!("{t:>2}") }).collect();
            format!("    {}\n", cells.join(" "))
        })
        .collect();
    rows.concat()
}

/// A check whose 4×4 searches run past the quick tables' node budget
/// builds the full tables once, into the cache, saying so in one line on
/// standard error off a terminal; the next run loads them without a word
/// and gives the same moves. Six hard blocks (63 and 61 moves, each with
/// the goal's blank in three corners: the same search mirrored) spend the
/// budget (25 million nodes, 4.5 million each); the build takes 4–6 s of CPU.
#[test]
fn hard_4x4_blocks_past_the_quick_budget_build_the_full_tables_once_into_the_cache() {
    use lights_sliding::{random_solvable, Board};
    let dir = scratch("sliding-hard");
    let cache = dir.join("cache");
    let standard = Board::standard_goal(4, 4).unwrap();
    // Cell `i` of a board mirrored in its rows and/or columns.
    let mirror = |tiles: &[u32], rows: bool, cols: bool| -> Vec<u32> {
        (0..16)
            .map(|i| {
                let (r, c) = (i / 4, i % 4);
                tiles[(if rows { 3 - r } else { r }) * 4 + if cols { 3 - c } else { c }]
            })
            .collect()
    };
    let mut src = String::new();
    let mut expected = Vec::new();
    for (seed, moves) in [(2057, 63), (2034, 61)] {
        let start = random_solvable(&standard, seed);
        for (rows, cols) in [(false, false), (false, true), (true, false)] {
            let name = format!("seed {seed}, mirrored {rows} {cols}");
            src.push_str(&format!(
                "sliding \"{name}\" {{\n  size 4x4\n  tiles {{\n{}  }}\n  goal {{\n{}  }}\n  expect moves {moves}\n}}\n\n",
                grid_lines(&mirror(start.cells(), rows, cols), 4),
                grid_lines(&mirror(standard.cells(), rows, cols), 4),
            ));
            expected.push(moves);
        }
    }
    std::fs::write(dir.join("h.lights"), &src).unwrap();
    let out = lights_cached(&dir, &cache, &["check", "--format", "json", "h.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}\n{}", stdout(&out), stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("standard output is JSON");
    let found: Vec<(u64, String)> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["moves"].as_u64().unwrap(), p["solution"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(found.iter().map(|f| f.0).collect::<Vec<_>>(), expected);
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("building the 4×4 pattern databases") && err.contains(cache.to_str().unwrap()), "{err}");
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    assert_eq!(entries(&cache).len(), 1, "one cache file: {:?}", entries(&cache));

    // Loaded from the cache without a word: the same moves.
    let out = lights_cached(&dir, &cache, &["solve", "--format", "json", "h.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "loaded from the cache without a word");
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("standard output is JSON");
    for (p, (moves, solution)) in json.as_array().unwrap().iter().zip(&found) {
        assert_eq!((p["moves"].as_u64().unwrap(), p["solution"].as_str().unwrap()), (*moves, solution.as_str()));
    }
}

/// A sliding block larger than 16×16 (the language allows up to 65,536
/// cells): solved by reduction, written back by `solve --write`, and the
/// written moves check clean.
#[test]
fn sliding_blocks_beyond_16x16_are_solved_and_written() {
    let dir = scratch("sliding-large");
    let cache = dir.join("cache");
    // 24×20 scrambled by a deterministic random walk of the blank from the goal.
    let (rows, cols) = (24usize, 20usize);
    let mut cells: Vec<usize> = (1..rows * cols).chain([0]).collect();
    let (mut blank, mut seed) = (rows * cols - 1, 12345u64);
    for _ in 0..20_000 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let (r, c) = (blank / cols, blank % cols);
        let to = match (seed >> 33) % 4 {
            0 if r > 0 => blank - cols,
            1 if r + 1 < rows => blank + cols,
            2 if c > 0 => blank - 1,
            3 if c + 1 < cols => blank + 1,
            _ => continue,
        };
        cells.swap(blank, to);
        blank = to;
    }
    let grid: Vec<String> = cells
        .chunks(cols)
        .map(|row| {
            let cells: Vec<String> =
                row.iter().map(|&t| if t == 0 { ".".to_string() } else { t.to_string() }).collect();
            format!("    {}", cells.join(" "))
        })
        .collect();
    let src = format!("sliding \"large\" {{\n  size {rows}x{cols}\n  tiles {{\n{}\n  }}\n}}\n", grid.join("\n"));
    std::fs::write(dir.join("l.lights"), &src).unwrap();

    let out = lights_cached(&dir, &cache, &["check", "--format", "json", "l.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!((json[0]["solvable"].as_bool(), json[0]["optimal"].as_bool()), (Some(true), Some(false)));
    let moves = json[0]["moves"].as_u64().unwrap();
    assert_eq!(json[0]["solution"].as_str().unwrap().len() as u64, moves);

    let out = lights_cached(&dir, &cache, &["solve", "--write", "l.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(dir.join("l.lights")).unwrap();
    assert!(written.starts_with(&src[..src.len() - 2]) && written.contains("  solution \""), "{written}");
    let out = lights_cached(&dir, &cache, &["check", "l.lights"]);
    assert_eq!(out.status.code(), Some(0), "the written moves reach the goal: {}", stdout(&out));
}
