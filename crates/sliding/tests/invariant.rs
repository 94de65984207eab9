//! The solvability invariant: Loyd's puzzle, moved blanks, other goals.

use lights_sliding::{
    invariant, random_walk, replay, solve, Board, Parity, ShapeMismatch, SolveError, SolveOptions, SplitMix64, Tile,
};

fn goal(rows: usize, cols: usize) -> Board {
    Board::standard_goal(rows, cols).unwrap()
}

fn loyd() -> Board {
    Board::new(4, 4, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0]).unwrap()
}

/// `board` with the tiles at cells `i` and `j` (row-major) exchanged.
fn swap(board: &Board, i: usize, j: usize) -> Board {
    let mut cells = board.cells().to_vec();
    cells.swap(i, j);
    Board::new(board.rows(), board.cols(), cells).unwrap()
}

#[test]
fn loyds_14_15_puzzle_is_unsolvable_and_the_explanation_names_the_parity() {
    let inv = invariant(&loyd(), &goal(4, 4)).unwrap();
    assert!(!inv.solvable);
    assert_eq!(inv.relative_parity, Parity::Odd);
    assert_eq!(inv.out_of_order_pairs, 1);
    assert_eq!(inv.swapped_pair, Some((14, 15)));
    assert!(inv.counts_blank_row);
    assert_eq!((inv.start.inversions, inv.goal.inversions), (1, 0));
    assert_eq!((inv.start.blank_row, inv.goal.blank_row), (3, 3));
    assert_ne!(inv.start.value, inv.goal.value);
    assert_eq!(
        inv.explanation,
        "The tiles, read row by row with the blank skipped, are an odd permutation of the \
         goal's (only tiles 14 and 15 are in the opposite order), and the blank is in row 4 \
         in both. On a board 4 wide, a horizontal move keeps the tiles' order and a vertical \
         move carries one tile past 3 others, an odd number: it flips the permutation's \
         parity and moves the blank one row, so the parity of the permutation plus the \
         number of rows the blank is from the goal's row must be even to reach the goal; \
         here that is an odd permutation and 0 rows, odd in all, so the puzzle can never be \
         solved."
    );

    let err = solve(&loyd(), &goal(4, 4), &SolveOptions::default()).unwrap_err();
    match &err {
        SolveError::Unsolvable(boxed) => assert_eq!(**boxed, inv),
        other => panic!("expected Unsolvable, got {other:?}"),
    }
    assert!(err.to_string().contains("an odd permutation"));
}

#[test]
fn a_moved_blank_with_the_right_parity_is_solvable() {
    let g = goal(4, 4);
    // Horizontal moves keep the order of the tiles: even, same row.
    let inv = invariant(&replay(&g, "LLL").unwrap(), &g).unwrap();
    assert!(inv.solvable);
    assert_eq!(inv.relative_parity, Parity::Even);
    assert!(inv.explanation.contains("an even permutation"));
    assert!(inv.explanation.contains("the goal can be reached"));

    // A vertical move on an even width: odd permutation, blank one row off.
    let up = replay(&g, "U").unwrap();
    let inv = invariant(&up, &g).unwrap();
    assert!(inv.solvable);
    assert_eq!(inv.relative_parity, Parity::Odd);
    assert_eq!(inv.out_of_order_pairs, 3);
    assert!(inv.explanation.contains("the blank is in row 3, 1 row from the goal's row 4"));
    assert!(inv.explanation.contains("an odd permutation and 1 row, even in all"));

    // The same position with two tiles swapped: even permutation, one row off.
    let inv = invariant(&swap(&up, 0, 1), &g).unwrap();
    assert!(!inv.solvable);
    assert_eq!(inv.relative_parity, Parity::Even);
    assert!(inv.explanation.contains("can never be solved"));

    // Odd widths: a vertical move passes an even number of tiles.
    let g3 = goal(3, 3);
    let inv = invariant(&replay(&g3, "UL").unwrap(), &g3).unwrap();
    assert!(inv.solvable);
    assert!(!inv.counts_blank_row);
    assert_eq!(inv.relative_parity, Parity::Even);
    assert!(inv.explanation.contains("past 2 others, an even number"));
    let inv = invariant(&swap(&g3, 0, 1), &g3).unwrap();
    assert!(!inv.solvable);
    assert!(inv.explanation.contains("no move changes the permutation's parity; so the puzzle can never be solved"));
}

#[test]
fn goals_other_than_the_standard_one() {
    // Tiles in order with the blank first: the same order, but the blank 3
    // rows away on a width-4 board, so the standard goal cannot reach it.
    let blank_first = Board::new(4, 4, (0..16).collect()).unwrap();
    let inv = invariant(&goal(4, 4), &blank_first).unwrap();
    assert!(!inv.solvable);
    assert_eq!(inv.relative_parity, Parity::Even);
    assert!(inv.explanation.contains("the blank is in row 4, 3 rows from the goal's row 1"));
    // On 3×3 the blank's row does not count: reachable.
    let inv = invariant(&goal(3, 3), &Board::new(3, 3, (0..9).collect()).unwrap()).unwrap();
    assert!(inv.solvable);

    // Random goals of every shape: a walk from the goal reaches it back; a
    // swap of two tiles never does.
    let mut rng = SplitMix64::new(99);
    for rows in 2..=6 {
        for cols in 2..=6 {
            for _ in 0..5 {
                let n = rows * cols;
                let mut cells: Vec<Tile> = (0..n as Tile).collect();
                for i in (1..n).rev() {
                    cells.swap(i, rng.index_below(i + 1));
                }
                let g = Board::new(rows, cols, cells).unwrap();
                let start = random_walk(&g, 1 + rng.index_below(60), rng.next_u64());
                assert!(invariant(&start, &g).unwrap().solvable, "{start}\n→\n{g}");
                let tiles: Vec<usize> = (0..n).filter(|&i| start.cells()[i] != 0).collect();
                let (i, j) = (tiles[0], tiles[1 + rng.index_below(tiles.len() - 1)]);
                let swapped = swap(&start, i, j);
                assert!(!invariant(&swapped, &g).unwrap().solvable);
            }
        }
    }
}

#[test]
fn boards_of_different_sizes_are_a_typed_error() {
    assert_eq!(invariant(&goal(2, 2), &goal(3, 3)), Err(ShapeMismatch { start: (2, 2), goal: (3, 3) }));
    assert!(matches!(solve(&goal(3, 2), &goal(2, 3), &SolveOptions::default()), Err(SolveError::Shape(_))));
}
