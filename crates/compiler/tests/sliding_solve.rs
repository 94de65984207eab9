//! Sliding blocks through `check_source`: solvability by the invariant,
//! `expect` claims against the optimal solver, `solution` strings replayed.

use lights_compiler::{check_source, Code, Diagnostic};

fn block(tiles: &str, extra: &str) -> String {
    format!("sliding \"s\" {{\n  size 3x3\n  tiles {{\n{tiles}\n  }}\n{extra}}}\n")
}

/// One of the two hardest 8-puzzle positions (31 moves, by breadth-first
/// search of all 181,440 positions: crates/sliding/tests).
const HARDEST: &str = "    8 6 7\n    2 5 4\n    3 . 1";

fn diagnostics(src: &str) -> Vec<Diagnostic> {
    check_source(src).all_diagnostics().into_iter().cloned().collect()
}

#[test]
fn the_hardest_eight_puzzle_needs_31_moves() {
    let src = block(HARDEST, "  expect solvable\n  expect moves 31\n");
    let a = check_source(&src);
    assert!(a.all_diagnostics().is_empty(), "{:?}", a.all_diagnostics());
    let r = a.blocks[0].report.as_ref().and_then(lights_compiler::BlockReport::as_sliding).unwrap();
    let s = r.solution.as_ref().unwrap();
    assert_eq!((s.len(), s.optimal), (31, true));
    // The solver's own moves, written back as a `solution`, check clean.
    let with_solution = block(HARDEST, &format!("  expect moves 31\n  solution \"{}\"\n", s.moves));
    assert!(diagnostics(&with_solution).is_empty());
}

#[test]
fn a_wrong_moves_claim_is_an_error_with_the_true_count() {
    let src = block(HARDEST, "  expect moves 30\n");
    let d = diagnostics(&src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::ExpectationFailed);
    assert!(d[0].message.contains("the fewest moves is 31"), "{}", d[0].message);
    assert_eq!(d[0].span.text(&src), "expect moves 30");
}

#[test]
fn an_unreachable_goal_states_both_invariants() {
    // 1 and 2 swapped: one transposition, the blank at home: odd.
    let src = block("    2 1 3\n    4 5 6\n    7 8 .", "");
    let d = diagnostics(&src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::Unsolvable);
    assert_eq!(d[0].message, "sliding puzzle \"s\" can never reach its goal: its invariant is 1, the goal's is 0");
    let label = &d[0].label;
    assert_eq!(label, "invariant 1 (1 inversion) here, 0 (0 inversions) in the goal");
    assert!(d[0].notes.iter().any(|n| n.contains("odd permutation")), "{:?}", d[0].notes);
    // Expected: no error, and `expect solvable` fails instead.
    assert!(diagnostics(&block("    2 1 3\n    4 5 6\n    7 8 .", "  expect unsolvable\n")).is_empty());
    let d = diagnostics(&block("    2 1 3\n    4 5 6\n    7 8 .", "  expect solvable\n"));
    assert!(d.iter().any(|d| d.code == Code::ExpectationFailed), "{d:?}");
}

#[test]
fn a_solution_that_leaves_the_board_names_the_move() {
    // From the goal, the blank is bottom-right: `D` (move 3) leaves the board.
    let src = block("    1 2 3\n    4 5 6\n    7 8 .", "  solution \"LRD\"\n");
    let d = diagnostics(&src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::WrongSolution);
    assert!(d[0].message.contains("move 3 (`D`)"), "{}", d[0].message);
    assert_eq!(d[0].span.text(&src), "D");
}

#[test]
fn a_solution_that_stops_short_names_the_first_wrong_cell() {
    let src = block("    1 2 3\n    4 5 6\n    7 . 8", "  solution \"L\"\n");
    let d = diagnostics(&src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::WrongSolution);
    assert!(d[0].message.contains("row 3, column 1"), "{}", d[0].message);
    assert!(d[0].notes.iter().any(|n| n.contains("a solution in 1 move: \"R\"")), "{:?}", d[0].notes);
}

#[test]
fn every_example_sliding_block_checks_clean() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sliding.lights");
    let src = std::fs::read_to_string(root).unwrap();
    let a = check_source(&src);
    assert!(a.all_diagnostics().is_empty(), "{:?}", a.all_diagnostics());
    assert!(a.blocks.iter().all(|p| p.report.as_ref().and_then(lights_compiler::BlockReport::as_sliding).is_some()));
}

#[test]
fn a_written_solution_is_kept_when_it_reaches_the_goal_in_as_few_moves() {
    use lights_compiler::sliding_check::solution_to_write;
    let to_write = |extra: &str| {
        let a = check_source(&block("    1 2 3\n    4 5 6\n    7 . 8", extra));
        let p = &a.blocks[0];
        solution_to_write(
            p.sliding_puzzle().unwrap(),
            p.report.as_ref().and_then(lights_compiler::BlockReport::as_sliding).unwrap(),
        )
        .map(|s| s.moves.clone())
    };
    assert_eq!(to_write(""), Some("R".to_string()), "none written: the found one");
    assert_eq!(to_write("  solution \"R\"\n"), None, "the same length: kept");
    assert_eq!(to_write("  solution \"RLR\"\n"), Some("R".to_string()), "longer: replaced");
    assert_eq!(to_write("  solution \"L\"\n"), Some("R".to_string()), "wrong: replaced");
    assert_eq!(to_write("  solution \"D\"\n"), Some("R".to_string()), "off the board: replaced");
    // Already at the goal: no `solution ""` to write.
    let a = check_source(&block("    1 2 3\n    4 5 6\n    7 8 .", ""));
    let p = &a.blocks[0];
    assert!(solution_to_write(
        p.sliding_puzzle().unwrap(),
        p.report.as_ref().and_then(lights_compiler::BlockReport::as_sliding).unwrap()
    )
    .is_none());
    // Unsolvable: nothing to write.
    let a = check_source(&block("    2 1 3\n    4 5 6\n    7 8 .", "  expect unsolvable\n"));
    let p = &a.blocks[0];
    assert!(solution_to_write(
        p.sliding_puzzle().unwrap(),
        p.report.as_ref().and_then(lights_compiler::BlockReport::as_sliding).unwrap()
    )
    .is_none());
}

#[test]
fn pattern_databases_are_wanted_only_where_the_solver_uses_them() {
    use lights_compiler::sliding_check::needs_pattern_databases;
    let needs = |size: &str, tiles: &str, goal: &str| {
        let src = format!("sliding \"s\" {{\n  size {size}\n  tiles {{\n{tiles}\n  }}\n{goal}}}\n");
        let a = lights_compiler::analyze(&src);
        needs_pattern_databases(a.blocks[0].sliding_puzzle().unwrap())
    };
    let start = "    2 1 3 4\n    5 6 7 8\n    9 10 11 12\n    13 14 . 15";
    let loyd = "    1 2 3 4\n    5 6 7 8\n    9 10 11 12\n    13 15 14 .";
    let solved = "    1 2 3 4\n    5 6 7 8\n    9 10 11 12\n    13 14 15 .";
    let blank_inside = "  goal {\n    1 2 3 4\n    5 . 6 7\n    8 9 10 11\n    12 13 14 15\n  }\n";
    let blank_first = "  goal {\n    . 1 2 3\n    4 5 6 7\n    8 9 10 11\n    12 13 14 15\n  }\n";
    assert!(!needs("4x4", start, ""), "1 and 2 swapped: unreachable, decided by the invariant");
    assert!(needs("4x4", &start.replace("2 1", "1 2"), ""), "a solvable 4×4");
    assert!(!needs("4x4", loyd, ""), "Loyd's puzzle: the invariant alone");
    assert!(!needs("4x4", solved, ""), "already solved");
    assert!(!needs("4x4", &start.replace("2 1", "1 2"), blank_inside), "blank inside: Manhattan + linear conflict");
    let next_to_first = "    1 . 2 3\n    4 5 6 7\n    8 9 10 11\n    12 13 14 15";
    assert!(needs("4x4", next_to_first, blank_first), "the blank's goal in a corner: mirrored tables");
    assert!(!needs("3x3", "    1 2 3\n    4 5 6\n    7 . 8", ""));
}

#[test]
fn the_authors_correct_solution_bounds_the_fewest_moves_on_large_boards() {
    // The 5×5 of the examples with its own 60-move solution: the solver's
    // constructive answer is longer, so the written one is the best known.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sliding.lights");
    let src = std::fs::read_to_string(root).unwrap();
    let start = src.find("sliding \"twenty-four\"").unwrap();
    let end = start + src[start..].find("\n}\n").unwrap() + 3;
    let five = &src[start..end];
    let a = check_source(five);
    let r = a.blocks[0].report.as_ref().and_then(lights_compiler::BlockReport::as_sliding).unwrap();
    let s = r.solution.as_ref().unwrap();
    assert_eq!((s.len(), s.optimal), (60, false), "the written solution is the best known");
    assert_eq!(lights_compiler::sliding_check::summary(r), "60 moves (not proven fewest)");
    // So `expect moves 70` is certainly false, and `expect moves 50` unproven.
    let d = diagnostics(&five.replace("expect solvable", "expect moves 70"));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (d[0].code, d[0].message.as_str()),
        (Code::ExpectationFailed, "`expect moves 70` does not hold: a solution with 60 moves exists")
    );
    let d = diagnostics(&five.replace("expect solvable", "expect moves 50"));
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), [Code::MinimumNotProven], "{d:?}");
    assert!(d[0].label.ends_with("and 60 moves"), "{}", d[0].label);
}

#[test]
fn answers_too_long_to_compute_are_not_computed_but_the_block_is_still_checked() {
    // 2×16,000: solvable (the blank one step from home), but the solver's
    // answer on such a thin board could run to a billion moves: only the
    // invariant decides, with a warning saying why no solution is given.
    let cols = 16_000usize;
    let tiles = |range: std::ops::Range<usize>| range.map(|t| t.to_string()).collect::<Vec<_>>().join(" ");
    let top = tiles(1..cols + 1);
    // The bottom row with the blank one cell left of its home.
    let bottom = format!("{} . {}", tiles(cols + 1..2 * cols - 1), 2 * cols - 1);
    let block = |extra: &str| {
        format!("sliding \"thin\" {{\n  size 2x{cols}\n  tiles {{\n    {top}\n    {bottom}\n  }}\n{extra}}}\n")
    };
    let a = check_source(&block("  expect solvable\n"));
    let p = &a.blocks[0];
    let r = p.report.as_ref().and_then(lights_compiler::BlockReport::as_sliding).unwrap();
    assert!(r.solvable && r.solution.is_none() && r.too_long.unwrap() > 100_000_000, "{r:?}");
    let codes: Vec<Code> = p.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::TooLargeToSolve], "{:?}", p.diagnostics);
    assert!(!p.diagnostics[0].is_error(), "a warning: solvability is decided");
    assert!(
        p.diagnostics[0].message.contains("no solution was computed on a 2×16000 board")
            || p.diagnostics[0].message.contains("2×16000 board it would take about"),
        "{}",
        p.diagnostics[0].message
    );
    assert_eq!(lights_compiler::sliding_check::summary(r), "solvable (no solution computed: it would be too long)");
    // `expect moves` cannot be verified; a written solution is still replayed and then known.
    let d = diagnostics(&block("  expect moves 1\n"));
    assert!(d.iter().any(|d| d.code == Code::MinimumNotProven && !d.is_error()), "{d:?}");
    let a = check_source(&block("  solution \"R\"\n"));
    assert!(a.all_diagnostics().is_empty(), "{:?}", a.all_diagnostics());
    let s = a.blocks[0]
        .report
        .as_ref()
        .and_then(lights_compiler::BlockReport::as_sliding)
        .unwrap()
        .solution
        .as_ref()
        .unwrap();
    assert_eq!(s.moves, "R");
    let d = diagnostics(&block("  solution \"L\"\n"));
    assert!(d.iter().any(|d| d.code == Code::WrongSolution), "{d:?}");
}
