//! Board validation and replay errors: every bad input is a typed error
//! naming the tile, cell or move.

use lights_sliding::{
    parse_moves, replay, replay_to_goal, Board, BoardError, Cell, Move, ReplayError, ShapeMismatch, MAX_CELLS,
};

fn goal(rows: usize, cols: usize) -> Board {
    Board::standard_goal(rows, cols).unwrap()
}

#[test]
fn sides_below_2_and_more_than_65536_cells_are_rejected() {
    let huge = usize::MAX / 2 + 1;
    for (rows, cols) in [(1, 4), (4, 1), (0, 0), (257, 256), (2, 32_769), (32_769, 2), (huge, 2), (huge, huge)] {
        assert_eq!(Board::standard_goal(rows, cols), Err(BoardError::Size { rows, cols }));
        assert_eq!(Board::new(rows, cols, vec![]), Err(BoardError::Size { rows, cols }));
        assert_eq!(Board::problems(rows, cols, &[]), vec![BoardError::Size { rows, cols }]);
    }
    assert_eq!(
        BoardError::Size { rows: 300, cols: 300 }.to_string(),
        "a sliding puzzle needs at least 2 rows and 2 columns and at most 65,536 cells, not 300×300"
    );
    for (rows, cols) in [(2, 2), (16, 16), (2, 16), (17, 2), (2, 17), (30, 30), (256, 256), (2, 32_768), (32_768, 2)] {
        let goal = Board::standard_goal(rows, cols).unwrap();
        assert_eq!(goal.cells().len(), rows * cols);
        assert_eq!(Board::new(rows, cols, goal.cells().to_vec()), Ok(goal));
    }
    assert_eq!(MAX_CELLS, 65_536);
}

#[test]
fn each_kind_of_bad_board_names_the_tile_or_cell() {
    assert_eq!(
        Board::new(2, 2, vec![1, 2, 0]),
        Err(BoardError::WrongLength { rows: 2, cols: 2, expected: 4, found: 3 })
    );
    assert_eq!(
        Board::new(2, 2, vec![1, 2, 4, 0]),
        Err(BoardError::TileOutOfRange { tile: 4, cell: Cell::new(1, 0), max: 3 })
    );
    assert_eq!(
        Board::new(2, 2, vec![1, 2, 2, 0]),
        Err(BoardError::RepeatedTile { tile: 2, first: Cell::new(0, 1), second: Cell::new(1, 0) })
    );
    assert_eq!(
        Board::new(2, 2, vec![1, 0, 2, 0]),
        Err(BoardError::TwoBlanks { first: Cell::new(0, 1), second: Cell::new(1, 1) })
    );
    assert_eq!(
        Board::from_rows(&[vec![1, 2, 3], vec![4, 0]]),
        Err(BoardError::RowWidth { row: 1, expected: 3, found: 2 })
    );
}

#[test]
fn problems_lists_every_problem_in_order() {
    // 3×3: 9 out of range, 5 twice, two blanks; so 4, 6 and 8 are missing.
    let cells = vec![1, 2, 3, 5, 5, 0, 7, 0, 9];
    assert_eq!(
        Board::problems(3, 3, &cells),
        vec![
            BoardError::RepeatedTile { tile: 5, first: Cell::new(1, 0), second: Cell::new(1, 1) },
            BoardError::TwoBlanks { first: Cell::new(1, 2), second: Cell::new(2, 1) },
            BoardError::TileOutOfRange { tile: 9, cell: Cell::new(2, 2), max: 8 },
            BoardError::MissingTile { tile: 4 },
            BoardError::MissingTile { tile: 6 },
            BoardError::MissingTile { tile: 8 },
        ]
    );
    assert_eq!(
        Board::problems(2, 2, &[1, 2, 3, 3]),
        vec![
            BoardError::RepeatedTile { tile: 3, first: Cell::new(1, 0), second: Cell::new(1, 1) },
            BoardError::MissingBlank
        ]
    );
    assert!(Board::problems(2, 2, &[3, 1, 0, 2]).is_empty());
}

#[test]
fn errors_read_well() {
    let e = Board::new(2, 2, vec![1, 2, 2, 0]).unwrap_err();
    assert_eq!(e.to_string(), "tile 2 appears twice: at row 1, column 2 and at row 2, column 1");
    let e = replay(&goal(3, 3), "ULDD").unwrap_err();
    assert_eq!(e.to_string(), "move 4 (D) would move the blank off the board: it is at row 3, column 2");
}

#[test]
fn board_queries() {
    let b = Board::from_rows(&[vec![4, 1, 2], vec![0, 5, 3]]).unwrap();
    assert_eq!(b.blank(), Cell::new(1, 0));
    assert_eq!(b.position_of(5), Some(Cell::new(1, 1)));
    assert_eq!(b.position_of(9), None);
    assert_eq!(b.tile_at(Cell::new(0, 0)), Some(4));
    assert_eq!(b.tile_at(Cell::new(2, 0)), None);
    assert_eq!(b.legal_moves(), vec![Move::Up, Move::Right]);
    assert_eq!(b.to_string(), "4 1 2\n. 5 3");
}

#[test]
fn replay_returns_the_final_board() {
    let g = goal(3, 3);
    let b = replay(&g, "UL").unwrap();
    assert_eq!(b.cells(), &[1, 2, 3, 4, 0, 5, 7, 8, 6]);
    // Back again, with whitespace (skipped).
    assert_eq!(replay(&b, " R\nD ").unwrap(), g);
    assert_eq!(replay(&g, "").unwrap(), g);
}

#[test]
fn an_illegal_move_names_its_index_letter_and_the_blank() {
    let g = goal(3, 3);
    assert_eq!(
        replay(&g, "R"),
        Err(ReplayError::IllegalMove { index: 0, offset: 0, letter: 'R', blank: Cell::new(2, 2) })
    );
    assert_eq!(
        replay(&g, "UU U"),
        Err(ReplayError::IllegalMove { index: 2, offset: 3, letter: 'U', blank: Cell::new(0, 2) })
    );
    // The first problem wins: the illegal move at 1 comes before the bad letter.
    assert!(matches!(replay(&g, "LDx"), Err(ReplayError::IllegalMove { index: 1, .. })));
}

#[test]
fn an_unknown_letter_names_its_index_and_offset() {
    let g = goal(3, 3);
    assert_eq!(replay(&g, "U L u"), Err(ReplayError::UnknownLetter { index: 2, offset: 4, letter: 'u' }));
    assert_eq!(parse_moves("UDé"), Err(ReplayError::UnknownLetter { index: 2, offset: 2, letter: 'é' }));
    assert_eq!(parse_moves("UD LR"), Ok(vec![Move::Up, Move::Down, Move::Left, Move::Right]));
}

#[test]
fn replay_to_goal_names_the_first_mismatch() {
    let g = goal(3, 3);
    let start = replay(&g, "UL").unwrap();
    assert_eq!(replay_to_goal(&start, &g, "RD"), Ok(()));
    assert_eq!(
        replay_to_goal(&start, &g, "R"),
        Err(ReplayError::WrongEnd { moves: 1, cell: Cell::new(1, 2), expected: 6, found: 0 })
    );
    assert!(matches!(replay_to_goal(&start, &g, "RDD"), Err(ReplayError::IllegalMove { index: 2, .. })));
    assert_eq!(
        replay_to_goal(&goal(2, 3), &g, ""),
        Err(ReplayError::Shape(ShapeMismatch { start: (2, 3), goal: (3, 3) }))
    );
}
