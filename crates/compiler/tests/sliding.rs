//! Sliding blocks: the validated model, and every diagnostic of L0121–L0128
//! (and the shared codes where a sliding block can trip them), with the
//! span each one points at.

use lights_compiler::sliding::{SlidingClaim, SlidingGrid, SlidingPuzzle};
use lights_compiler::{analyze, check_source, BlockKind, Code, Diagnostic};

const LOYD: &str = "// Loyd's puzzle
sliding \"loyd\" {
  size 4x4
  tiles {
     1  2  3  4
     5  6  7  8
     9 10 11 12
    13 15 14  .
  }
  expect unsolvable
  expect moves 12
  solution \"LLU RDR\"
}
";

/// The one sliding block of `src`, which must have no diagnostic.
fn model(src: &str) -> SlidingPuzzle {
    let a = analyze(src);
    assert!(a.all_diagnostics().is_empty(), "{src}\n{:?}", a.all_diagnostics());
    assert_eq!(a.blocks.len(), 1);
    let p = &a.blocks[0];
    assert_eq!(p.kind, BlockKind::Sliding);
    assert!(p.puzzle().is_none(), "a sliding block has no Lights Out model");
    p.sliding_puzzle().cloned().expect("a valid sliding block has its model")
}

/// Every diagnostic of the file, in source order.
fn diagnostics(src: &str) -> Vec<Diagnostic> {
    let a = analyze(src);
    for p in &a.blocks {
        if p.diagnostics.iter().any(Diagnostic::is_error) {
            assert!(p.sliding_puzzle().is_none() && p.puzzle().is_none(), "a block with errors has no model");
        }
    }
    a.all_diagnostics().into_iter().cloned().collect()
}

/// The only diagnostic of `src`.
fn only(src: &str) -> Diagnostic {
    let d = diagnostics(src);
    assert_eq!(d.len(), 1, "{src}\n{d:#?}");
    d.into_iter().next().unwrap()
}

/// A 3×3 block with the given rows of `tiles` (and extra statements).
fn three(rows: &str, extra: &str) -> String {
    format!("sliding \"s\" {{\n  size 3x3\n  tiles {{\n{rows}\n  }}\n{extra}}}\n")
}

#[test]
fn the_model_of_loyds_puzzle() {
    let p = model(LOYD);
    assert_eq!(p.header.name, "loyd");
    assert_eq!((p.rows, p.cols), (4, 4));
    assert_eq!(p.tiles, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0]);
    assert!(*p.goal_is_default);
    assert_eq!(p.goal, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]);
    assert_eq!(p.blank(), 15);
    let claims: Vec<SlidingClaim> = p.header.expects.iter().map(|e| e.claim).collect();
    assert_eq!(claims, [SlidingClaim::Unsolvable, SlidingClaim::Moves(12)]);
    assert_eq!(p.header.expects[1].span.text(LOYD), "expect moves 12");
    let sol = p.header.solution.as_ref().unwrap();
    assert_eq!(sol.moves, "LLURDR", "spaces between moves are dropped");
    assert_eq!(sol.string_span.text(LOYD), "\"LLU RDR\"");
    assert_eq!(sol.span.text(LOYD), "solution \"LLU RDR\"");
    let letters: String = sol.move_spans.iter().map(|s| s.text(LOYD)).collect();
    assert_eq!(letters, "LLURDR", "each move's span is its letter");
    // Spans point back at each statement and each cell.
    assert_eq!(p.spans.size.unwrap().text(LOYD), "size 4x4");
    assert!(p.spans.tiles.unwrap().text(LOYD).starts_with("tiles {"));
    assert_eq!(p.spans.tile_cells.len(), 16);
    assert_eq!(p.spans.tile_cells[13].text(LOYD), "15");
    assert!(p.spans.goal.is_none() && p.spans.goal_cells.is_none());
    assert_eq!(p.cell_at(p.spans.tile_cells[14].start), Some((SlidingGrid::Tiles, 14)));
    assert_eq!(p.cell_at(p.spans.size.unwrap().start), None);
    assert_eq!(p.coord(14), "4,3");
}

#[test]
fn a_written_goal_and_compact_rows() {
    let src = "sliding \"g\" { size 2x3 tiles { 12.\n453 } goal {\n. 1 2\n3 4 5\n} }\n";
    let p = model(src);
    assert_eq!(p.tiles, vec![1, 2, 0, 4, 5, 3], "a compact row is one character per cell");
    assert_eq!(p.goal, vec![0, 1, 2, 3, 4, 5]);
    assert!(!*p.goal_is_default);
    assert_eq!(p.goal_blank(), 0);
    let goal_cells = p.spans.goal_cells.as_ref().unwrap();
    assert_eq!(goal_cells[4].text(src), "4");
    assert_eq!(p.cell_at(goal_cells[4].start), Some((SlidingGrid::Goal, 4)));
    assert!(p.header.expects.is_empty() && p.header.solution.is_none());
    // An empty solution is zero moves.
    let p = model("sliding \"z\" { size 2x2 tiles { 12\n3. } solution \"\" }\n");
    assert_eq!(p.header.0.solution.unwrap().moves, "");
}

#[test]
fn check_source_solves_both_kinds_of_block() {
    let src = format!("{LOYD}\npuzzle \"p\" {{\n  size 2x2\n  lights on\n  expect solvable\n}}\n");
    let a = check_source(&src);
    assert_eq!(a.blocks[0].kind, BlockKind::Sliding);
    assert!(
        a.blocks[0].report.as_ref().and_then(lights_compiler::BlockReport::as_lights).is_none(),
        "no Lights Out report for a sliding block"
    );
    assert!(a.blocks[0].sliding_puzzle().is_some());
    let r = a.blocks[0]
        .report
        .as_ref()
        .and_then(lights_compiler::BlockReport::as_sliding)
        .expect("sliding blocks are solved");
    assert!(!r.solvable, "Loyd's puzzle cannot be solved");
    // `expect moves 12` and the written solution are wrong for an unsolvable puzzle.
    let codes: Vec<Code> = a.blocks[0].diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::ExpectationFailed, Code::WrongSolution], "{:?}", a.blocks[0].diagnostics);
    assert!(a.blocks[1].diagnostics.is_empty());
    assert_eq!(a.blocks[1].kind, BlockKind::Lights);
    assert!(a.blocks[1].puzzle().is_some() && a.blocks[1].sliding_puzzle().is_none());
    assert!(
        a.blocks[1].report.as_ref().and_then(lights_compiler::BlockReport::as_lights).is_some(),
        "puzzle blocks are solved as before"
    );
}

#[test]
fn l0121_puzzle_statements_in_a_sliding_block() {
    let src = three(
        "    1 2 3\n    4 5 6\n    7 8 .",
        "  states 3\n  rule king\n  topology torus\n  lights on\n  locked at 1,1\n  goal off\n  expect unique\n  expect solutions 2\n  expect presses 4\n  expect solvable\n",
    );
    let d = diagnostics(&src);
    assert!(d.iter().all(|d| d.code == Code::WrongBlockKind), "{d:#?}");
    let at: Vec<&str> = d.iter().map(|d| d.span.text(&src)).collect();
    assert_eq!(
        at,
        ["states", "rule", "topology", "lights", "locked", "off", "unique", "solutions 2", "presses 4"],
        "each is underlined once; the valid `expect solvable` is not"
    );
    assert_eq!(d[0].message, "`states` belongs in a `puzzle` block, not in a `sliding` block");
    assert_eq!(d[5].message, "`goal off` belongs in a `puzzle` block: a sliding block's goal is a grid of tiles");
    assert_eq!(d[6].message, "`expect unique` belongs in a `puzzle` block, not in a `sliding` block");
    assert!(d
        .iter()
        .all(|d| d.notes.last().unwrap() == "a sliding block takes size, tiles, goal, expect and solution"));
    // A solution of presses, in a sliding block.
    let src = three("    1 2 3\n    4 5 6\n    7 8 .", "  solution at 1,1\n");
    let d = only(&src);
    assert_eq!(d.code, Code::WrongBlockKind);
    assert_eq!(d.span.text(&src), "at 1,1");
    assert_eq!(d.message, "a `solution` of presses belongs in a `puzzle` block, not in a `sliding` block");
}

#[test]
fn l0121_sliding_statements_in_a_puzzle_block() {
    let src = "puzzle \"p\" {\n  size 2x2\n  tiles {\n    1 2\n    3 .\n  }\n  expect moves 3\n  solution \"LR\"\n}\n";
    let d = diagnostics(src);
    let got: Vec<(Code, &str, &str)> = d.iter().map(|d| (d.code, d.span.text(src), d.message.as_str())).collect();
    assert_eq!(
        got,
        [
            (Code::WrongBlockKind, "tiles", "`tiles` belongs in a `sliding` block, not in a `puzzle` block"),
            (Code::WrongBlockKind, "moves 3", "`expect moves` belongs in a `sliding` block, not in a `puzzle` block"),
            (
                Code::WrongBlockKind,
                "\"LR\"",
                "a `solution` of moves belongs in a `sliding` block, not in a `puzzle` block"
            ),
        ]
    );
    assert!(d[0].notes.iter().any(|n| n.contains("write `sliding \"NAME\" { … }`")));
}

#[test]
fn l0101_l0122_l0115_l0116_the_size_of_a_sliding_board() {
    let d = only("sliding \"s\" {\n  tiles { 12\n3. }\n}\n");
    assert_eq!((d.code, d.message.as_str()), (Code::MissingSize, "this sliding puzzle has no `size`"));
    let src = "sliding \"s\" {\n  size 1x4\n  tiles { 1 2 3 . }\n}\n";
    let d = only(src);
    assert_eq!(d.code, Code::SlidingTooSmall);
    assert_eq!(d.span.text(src), "size 1x4");
    assert_eq!(d.message, "a 1×4 board is too small for a sliding puzzle: it needs at least 2 rows and 2 columns");
    assert_eq!(only("sliding \"s\" {\n  size 3x1\n  tiles { 1 }\n}\n").code, Code::SlidingTooSmall);
    let d = only("sliding \"s\" {\n  size 300x300\n  tiles { 1 2 }\n}\n");
    assert_eq!(d.code, Code::BoardTooLarge);
    assert!(d.message.contains("sliding boards have at most 65536 cells"), "{}", d.message);
    assert_eq!(only("sliding \"s\" {\n  size 0x3\n  tiles { 1 2 }\n}\n").code, Code::ZeroSize);
    // 256×256 is the largest square: size alone is fine (the tiles are then wrong).
    let d = diagnostics("sliding \"s\" {\n  size 256x256\n  tiles { 1 2 }\n}\n");
    assert!(d.iter().all(|d| d.code != Code::BoardTooLarge), "{d:#?}");
}

#[test]
fn l0123_missing_tiles() {
    let src = "sliding \"s\" {\n  size 3x3\n  expect solvable\n}\n";
    let d = only(src);
    assert_eq!((d.code, d.message.as_str()), (Code::MissingTiles, "this sliding puzzle has no `tiles`"));
    assert_eq!(d.span.text(src), "sliding \"s\" {");
    // A misspelt `tiles` is one mistake, not also "missing".
    let d = only("sliding \"s\" {\n  size 3x3\n  tilse {\n    1 2 3\n  }\n}\n");
    assert_eq!(d.code, Code::UnknownStatement);
    // Both missing: two errors.
    let codes: Vec<Code> = diagnostics("sliding \"s\" {\n}\n").iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::MissingSize, Code::MissingTiles]);
}

#[test]
fn l0124_a_tile_out_of_range_names_the_tile_it_displaced() {
    let src = three("    1 2 3\n    4 5 6\n    7 9 .", "");
    let d = only(&src);
    assert_eq!(d.code, Code::TileOutOfRange);
    assert_eq!(d.span.text(&src), "9");
    assert_eq!(d.message, "tile 9 is out of range: a 3×3 board has tiles 1…8");
    assert_eq!(d.notes[0], "tile 8 is missing: is this cell meant to be 8?");
    // Zero, in a compact row: both notes.
    let src = three("    123\n    456\n    70.", "");
    let d = only(&src);
    assert_eq!(d.message, "tile 0 is out of range: a 3×3 board has tiles 1…8");
    assert!(d.notes.iter().any(|n| n.contains("the blank is written `.`")), "{:?}", d.notes);
    assert!(d.notes.iter().any(|n| n.contains("compact row")), "{:?}", d.notes);
    // A number far too large to store is out of range too, not a crash.
    let src = three("    1 2 3\n    4 5 6\n    7 99999999999999999999999 .", "");
    assert_eq!(only(&src).code, Code::TileOutOfRange);
    // An extra tile where the blank should be: the note says the blank is missing.
    let d = only(&three("    1 2 3\n    4 5 6\n    7 8 9", ""));
    assert_eq!(d.notes[0], "`tiles` has no blank: is this cell meant to be `.`?");
}

#[test]
fn l0125_a_repeated_tile_names_both_places() {
    let src = three("    1 2 3\n    4 5 6\n    7 7 .", "");
    let d = only(&src);
    assert_eq!(d.code, Code::RepeatedTile);
    assert_eq!(d.message, "tile 7 is written twice in `tiles`");
    assert_eq!(d.span.start, src.find("7 7").unwrap() + 2, "the second 7");
    assert_eq!(d.labels.len(), 1);
    assert_eq!(d.labels[0].span.start, src.find("7 7").unwrap(), "the first 7");
    assert_eq!(d.labels[0].message, "first written here");
    assert_eq!(d.notes[0], "tile 8 is missing: is one of the two meant to be 8?");
    // Three copies: two diagnostics and the missing tiles listed.
    let src = three("    1 1 1\n    4 5 6\n    7 8 .", "");
    let d = diagnostics(&src);
    let got: Vec<(Code, &str)> = d.iter().map(|d| (d.code, d.message.as_str())).collect();
    assert_eq!(
        got,
        [
            (Code::MissingTile, "tiles 2 and 3 are missing from `tiles`"),
            (Code::RepeatedTile, "tile 1 is written twice in `tiles`"),
            (Code::RepeatedTile, "tile 1 is written again in `tiles`"),
        ]
    );
}

#[test]
fn l0126_missing_tiles_are_listed() {
    let src = three("    1 2 3\n    4 4 4\n    4 4 .", "");
    let d = diagnostics(&src);
    let missing: Vec<&Diagnostic> = d.iter().filter(|d| d.code == Code::MissingTile).collect();
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0].message, "tiles 5, 6, 7 and 8 are missing from `tiles`");
    assert!(missing[0].span.text(&src).starts_with('{'), "it points at the grid");
    assert_eq!(d.iter().filter(|d| d.code == Code::RepeatedTile).count(), 4);
    // Long lists are cut short.
    let src = "sliding \"s\" {\n  size 4x4\n  tiles {\n    1 2 3 4\n    1 1 1 1\n    1 1 1 1\n    1 1 1 .\n  }\n}\n";
    let d = diagnostics(src);
    let m = d.iter().find(|d| d.code == Code::MissingTile).unwrap();
    assert_eq!(m.message, "tiles 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, … and 1 more are missing from `tiles`");
    assert_eq!(m.label, "11 tiles missing");
}

#[test]
fn l0126_a_goal_with_other_tiles() {
    // The goal must hold the same tiles: here 3 is doubled and 5 is gone.
    let src = three("    1 2 3\n    4 5 6\n    7 8 .", "  goal {\n    1 2 3\n    4 3 6\n    7 8 .\n  }\n");
    let d = only(&src);
    assert_eq!(d.code, Code::RepeatedTile);
    assert_eq!(d.message, "tile 3 is written twice in `goal`");
    assert_eq!(d.notes[0], "tile 5 is missing: is one of the two meant to be 5?");
    assert!(d.notes.iter().any(|n| n == "the goal holds the same tiles as `tiles`: each of 1…8 once"));
    // Two mistakes in the goal: the missing tiles get their own diagnostic.
    let src = three("    1 2 3\n    4 5 6\n    7 8 .", "  goal {\n    1 2 3\n    3 3 6\n    7 8 .\n  }\n");
    let d = diagnostics(&src);
    let m = d.iter().find(|d| d.code == Code::MissingTile).expect("missing tiles reported");
    assert_eq!(m.message, "tiles 4 and 5 are missing from `goal`");
    // Mistakes in both grids are reported in one run, and without `tiles`
    // the goal is still checked.
    let src = three("    1 2 3\n    4 5 6\n    7 7 .", "  goal {\n    1 2 3\n    4 5 6\n    7 8 9\n  }\n");
    let codes: Vec<Code> = diagnostics(&src).iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::RepeatedTile, Code::TileOutOfRange]);
    let src = "sliding \"s\" {\n  size 2x2\n  goal { 1 1\n  3 . }\n}\n";
    let codes: Vec<Code> = diagnostics(src).iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::MissingTiles, Code::RepeatedTile]);
    // A goal of the wrong shape, and a goal that is not a grid.
    let src = three("    1 2 3\n    4 5 6\n    7 8 .", "  goal {\n    1 2 3\n    4 5 6 7\n    8 .\n  }\n");
    let codes: Vec<Code> = diagnostics(&src).iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::RowWidth, Code::RowWidth], "no tile diagnostics on a grid of the wrong shape");
    let src = three("    1 2 3\n    4 5 6\n    7 8 .", "  goal at 1,1\n");
    assert_eq!(only(&src).code, Code::WrongBlockKind);
}

#[test]
fn l0127_blanks() {
    let src = three("    1 2 3\n    4 . 6\n    7 8 .", "");
    let d = only(&src);
    assert_eq!(d.code, Code::BlankCount);
    assert_eq!(d.message, "`tiles` has 2 blanks");
    assert_eq!(d.span.start, src.rfind('.').unwrap(), "the second blank");
    assert_eq!(d.labels[0].message, "the first blank");
    assert_eq!(d.notes[0], "tile 5 is missing: is one of the blanks meant to be 5?");
    // No blank, with two mistakes: its own diagnostic.
    let src = three("    1 2 3\n    4 5 6\n    7 8 8", "  goal {\n    1 2 3\n    4 5 6\n    7 8 .\n  }\n");
    let d = only(&src);
    assert_eq!(d.code, Code::RepeatedTile);
    assert_eq!(d.notes[0], "`tiles` has no blank: is one of the two meant to be `.`?");
    let src = three("    1 1 1\n    4 5 6\n    7 8 8", "");
    let d = diagnostics(&src);
    assert!(d.iter().any(|d| d.code == Code::BlankCount && d.message == "`tiles` has no blank"), "{d:#?}");
    // Three blanks: one diagnostic, every blank marked.
    let src = three("    1 2 3\n    4 . 6\n    . 8 .", "");
    let d = diagnostics(&src);
    let blanks: Vec<&Diagnostic> = d.iter().filter(|d| d.code == Code::BlankCount).collect();
    assert_eq!(blanks.len(), 1);
    assert_eq!(blanks[0].message, "`tiles` has 3 blanks");
    assert_eq!(blanks[0].labels.len(), 2);
}

#[test]
fn l0106_l0103_l0104_shared_codes_in_tiles() {
    let src = three("    1 2 3\n    4 5 6\n    7 x .", "");
    let d = only(&src);
    assert_eq!(d.code, Code::BadCell);
    assert_eq!(d.span.text(&src), "x");
    assert_eq!(d.notes[0], "tile 8 is missing: is this cell meant to be 8?");
    let d = only(&three("    1 2 3\n    4 5 6", ""));
    assert_eq!(
        (d.code, d.message.as_str()),
        (Code::RowCount, "this grid has 2 rows, but the board has 3 (`size 3x3`)")
    );
    let d = diagnostics(&three("    1 2 3\n    4 5 6 7\n    8 .", ""));
    let got: Vec<(Code, &str)> = d.iter().map(|d| (d.code, d.message.as_str())).collect();
    assert_eq!(
        got,
        [
            (Code::RowWidth, "row 2 has 4 cells, but the board is 3 wide"),
            (Code::RowWidth, "row 3 has 2 cells, but the board is 3 wide"),
        ],
        "no tile diagnostics on a grid of the wrong shape"
    );
    let d = diagnostics(&three("    123\n    4567\n    8.", ""));
    assert!(d.iter().all(|d| d.code == Code::RowWidth), "{d:#?}");
    assert!(d[0].message.contains("(a compact row: one character per cell)"), "{}", d[0].message);
}

#[test]
fn l0128_bad_moves_are_named_with_their_position() {
    let src = "sliding \"s\" {\n  size 2x2\n  tiles { 12\n3. }\n  solution \"LU uR\"\n}\n";
    let d = only(src);
    assert_eq!(d.code, Code::BadMove);
    assert_eq!(d.span.text(src), "u");
    assert_eq!(d.message, "`u` (move 3) is not a move: moves are `U`, `D`, `L` and `R`");
    assert_eq!(d.notes[0], "moves are upper case: did you mean `U`?");
    // Each bad character is one diagnostic, at most five, the fifth counting the rest.
    let src = "sliding \"s\" {\n  size 2x2\n  tiles { 12\n3. }\n  solution \"Lé\\\\xyzwvq\"\n}\n";
    let d = diagnostics(src);
    assert_eq!(d.len(), 5);
    let at: Vec<&str> = d.iter().map(|d| d.span.text(src)).collect();
    assert_eq!(at, ["é", "\\", "\\", "x", "y"]);
    assert!(d[0].message.starts_with("`é` (move 2)"));
    assert_eq!(d[4].notes.last().unwrap(), "4 more characters in this solution are not moves");
}

#[test]
fn l0102_l0113_l0117_l0119_shared_codes() {
    let src = format!("{LOYD}\nsliding \"loyd\" {{\n  size 2x2\n  tiles {{ 12\n3. }}\n}}\n");
    let d = only(&src);
    assert_eq!(d.code, Code::DuplicateName);
    // Across both kinds of block.
    let src = "puzzle \"a\" {\n  size 2x2\n}\nsliding \"a\" {\n  size 2x2\n  tiles { 12\n3. }\n}\n";
    let a = analyze(src);
    assert_eq!(a.blocks[1].diagnostics.len(), 1);
    assert_eq!(a.blocks[1].diagnostics[0].code, Code::DuplicateName);
    assert!(a.blocks[1].sliding_puzzle().is_none());
    assert!(a.blocks[0].puzzle().is_some(), "the first of the two keeps its model");
    let src =
        "sliding \"s\" {\n  size 2x2\n  tiles { 12\n3. }\n  tiles { 12\n3. }\n  solution \"L\"\n  solution \"U\"\n}\n";
    let codes: Vec<Code> = diagnostics(src).iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::RepeatedStatement, Code::RepeatedStatement]);
    let d = only("sliding \"s\" {\n  size 2x2\n  tiles { 12\n3. }\n  expect moves 99999999999999999999999\n}\n");
    assert_eq!((d.code, d.message.as_str()), (Code::NumberTooLarge, "this move count is far too large"));
    assert_eq!(only("sliding \"\" {\n  size 2x2\n  tiles { 12\n3. }\n}\n").code, Code::EmptyName);
}

#[test]
fn syntax_errors_in_a_sliding_block_drop_its_model() {
    let a = analyze("slidnig \"s\" {\n  size 2x2\n  tiles { 12\n3. }\n}\n");
    assert_eq!(a.blocks[0].kind, BlockKind::Sliding, "the typo is read as the kind it is nearest to");
    assert_eq!(a.blocks[0].diagnostics.len(), 1);
    assert_eq!(a.blocks[0].diagnostics[0].code, Code::UnknownBlock);
    assert!(a.blocks[0].sliding_puzzle().is_none());
}
