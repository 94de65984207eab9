//! A block's key follows exactly what its answer depends on: it changes with
//! every fact the solver reads and with nothing else (names, claims, the
//! written solution, comments, layout).

use lights_compiler::{analyze, BlockKey};

fn key(src: &str) -> BlockKey {
    let a = analyze(src);
    let p = &a.blocks[0];
    p.block.as_ref().unwrap_or_else(|| panic!("{src}\n{:?}", p.diagnostics)).key()
}

const BASE: &str = "puzzle \"p\" {\n  size 3x4\n  lights at 1,1\n}\n";

#[test]
fn every_fact_the_solver_reads_changes_the_key() {
    let base = key(BASE);
    for changed in [
        "puzzle \"p\" {\n  size 4x3\n  lights at 1,1\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  states 3\n  lights at 1,1\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  rule king\n  lights at 1,1\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  rule {\n    .1.\n    111\n    .1.\n  }\n  lights at 1,1\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  topology torus\n  lights at 1,1\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  lights at 1,2\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  lights at 1,1\n  goal at 3,4\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  lights at 1,1\n  locked at 2,2\n}\n",
    ] {
        assert_ne!(key(changed), base, "{changed}");
    }
}

#[test]
fn names_claims_solutions_comments_and_layout_do_not() {
    let base = key(BASE);
    for same in [
        "puzzle \"another name\" {\n  size 3x4\n  lights at 1,1\n}\n",
        "// a comment\n\npuzzle \"p\" {\n  lights at 1,1 // here\n  size 3 x 4\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  lights at 1,1\n  expect solvable\n  expect presses 3\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  lights at 1,1\n  solution at 2,2\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  lights {\n    1...\n    ....\n    ....\n  }\n}\n",
        "puzzle \"p\" {\n  size 3x4\n  states 2\n  rule cross\n  topology plane\n  lights at 1,1\n  goal off\n}\n",
    ] {
        assert_eq!(key(same), base, "{same}");
    }
}

#[test]
fn a_sliding_block_is_keyed_by_its_board_and_positions() {
    let base = key("sliding \"s\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n}\n");
    // The default goal written out, a name, a claim, a solution: the same answer.
    let same = "sliding \"t\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n  goal {\n    1 2 3\n    4 5 .\n  }\n  expect moves 1\n  solution \"R\"\n}\n";
    assert_eq!(key(same), base);
    let other_goal =
        "sliding \"s\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n  goal {\n    1 2 3\n    . 4 5\n  }\n}\n";
    assert_ne!(key(other_goal), base);
    let other_start = "sliding \"s\" {\n  size 2x3\n  tiles {\n    1 2 3\n    . 4 5\n  }\n}\n";
    assert_ne!(key(other_start), base);
    // A Lights Out puzzle never shares a key with a sliding block.
    assert_ne!(key("puzzle \"s\" {\n  size 2x3\n}\n"), base);
}
