//! Boards with a side above 16 (up to 65,536 cells): accepted, the
//! invariant counts fast and agrees with the pair count, every solution
//! replays to the goal, unsolvable ones are rejected, cancel stops.

use std::cell::Cell;

use lights_sliding::{
    invariant, position_invariant, random_position, random_solvable, random_walk, replay_to_goal, solve, Board, Method,
    SolveError, SolveOptions, Strategy, Tile, BLANK,
};

/// The tables for a 4×4 finish are built in memory, never in the user's cache.
fn options(strategy: Strategy) -> SolveOptions<'static> {
    SolveOptions { strategy, ..SolveOptions::default() }
}

/// Any permutation of the tiles (either half).
fn random_board(rows: usize, cols: usize, seed: u64) -> Board {
    random_position(rows, cols, seed).unwrap()
}

/// The reference: pairs out of order, by looking at every pair.
fn naive_inversions(seq: &[Tile]) -> u64 {
    let mut count = 0;
    for i in 0..seq.len() {
        for j in i + 1..seq.len() {
            count += u64::from(seq[j] < seq[i]);
        }
    }
    count
}

fn tiles(board: &Board) -> Vec<Tile> {
    board.cells().iter().copied().filter(|&t| t != BLANK).collect()
}

fn assert_solves(start: &Board, goal: &Board, strategy: Strategy) -> usize {
    let solution =
        solve(start, goal, &options(strategy)).unwrap_or_else(|e| panic!("{}×{}: {e}", start.rows(), start.cols()));
    assert_eq!(solution.method, Method::Reduction);
    replay_to_goal(start, goal, &solution.moves).unwrap_or_else(|e| panic!("{}×{}: {e}", start.rows(), start.cols()));
    assert!(solution.lower_bound as usize <= solution.len());
    assert_eq!(solution.optimal, solution.lower_bound as usize == solution.len());
    solution.len()
}

#[test]
fn random_boards_larger_than_16x16_solve_and_replay() {
    for (rows, cols, seeds) in
        [(17, 17, 2), (20, 31, 2), (2, 200, 3), (200, 2, 3), (3, 100, 3), (100, 3, 2), (64, 64, 1)]
    {
        let goal = Board::standard_goal(rows, cols).unwrap();
        for seed in 0..seeds {
            let start = random_solvable(&goal, seed);
            assert_solves(&start, &goal, Strategy::NonOptimal);
        }
        // `Auto` goes to the same method for these sizes.
        assert_solves(&random_solvable(&goal, 99), &goal, Strategy::Auto);
    }
}

#[test]
fn goals_with_the_blank_inside_the_board_are_reached() {
    for (rows, cols, seed) in [(23, 19, 1), (2, 60, 2), (40, 3, 3), (30, 30, 4)] {
        // A random goal: any permutation reachable from the standard one.
        let goal = random_solvable(&Board::standard_goal(rows, cols).unwrap(), seed);
        let blank = goal.blank();
        assert!(blank.row != 0 && blank.row != rows - 1 || blank.col != 0 && blank.col != cols - 1, "{blank}");
        let start = random_solvable(&goal, seed + 100);
        assert_solves(&start, &goal, Strategy::NonOptimal);
    }
    // The blank in the middle of a standard-looking goal.
    let mut goal = Board::standard_goal(25, 25).unwrap();
    for mv in "UUUUUUUUUUUULLLLLLLLLLLL".chars() {
        goal = lights_sliding::replay(&goal, &mv.to_string()).unwrap();
    }
    assert_eq!(goal.blank(), lights_sliding::Cell::new(12, 12));
    assert_solves(&random_solvable(&goal, 7), &goal, Strategy::NonOptimal);
}

#[test]
fn a_position_a_few_moves_away_keeps_most_tiles_still() {
    let goal = Board::standard_goal(40, 40).unwrap();
    let start = random_walk(&goal, 30, 5);
    let moves = assert_solves(&start, &goal, Strategy::NonOptimal);
    // Tiles already home are never moved: far fewer moves than a random
    // 40×40 needs (hundreds of thousands).
    assert!(moves < 2_000, "{moves} moves");
}

#[test]
fn the_invariant_agrees_with_counting_every_pair() {
    let sizes = [(17, 17), (2, 150), (150, 2), (20, 15), (3, 67), (16, 16), (5, 5)];
    for (i, &(rows, cols)) in sizes.iter().enumerate() {
        for seed in 0..4 {
            let start = random_board(rows, cols, 1000 * i as u64 + seed);
            let goal = random_board(rows, cols, 5000 + 1000 * i as u64 + seed);
            let inv = invariant(&start, &goal).unwrap();
            let naive = naive_inversions(&tiles(&start));
            assert_eq!(inv.start.inversions, naive);
            assert_eq!(position_invariant(&start).inversions, naive);
            assert_eq!(inv.goal.inversions, naive_inversions(&tiles(&goal)));
            // Pairs in the other order than the goal's: rename each tile
            // by its place in the goal's reading order.
            let mut rank = vec![0; rows * cols];
            for (k, &t) in tiles(&goal).iter().enumerate() {
                rank[t as usize] = k as Tile;
            }
            let relative: Vec<Tile> = tiles(&start).iter().map(|&t| rank[t as usize]).collect();
            assert_eq!(inv.out_of_order_pairs, naive_inversions(&relative));
            // The verdict is what the parities say.
            let row_term = if cols % 2 == 0 { start.blank().row.abs_diff(goal.blank().row) as u64 } else { 0 };
            assert_eq!(inv.solvable, (naive_inversions(&relative) + row_term).is_multiple_of(2));
        }
    }
}

#[test]
fn the_invariant_of_65536_cells() {
    // Tiles in reverse order: every pair is out of order.
    for (rows, cols) in [(256, 256), (2, 32_768)] {
        let n = rows * cols;
        let cells: Vec<Tile> = (1..n as Tile).rev().chain([BLANK]).collect();
        let board = Board::new(rows, cols, cells).unwrap();
        let m = (n - 1) as u64;
        assert_eq!(position_invariant(&board).inversions, m * (m - 1) / 2);
        let goal = Board::standard_goal(rows, cols).unwrap();
        let inv = invariant(&board, &goal).unwrap();
        assert_eq!(inv.out_of_order_pairs, m * (m - 1) / 2);
        // 65,535 · 65,534 / 2 is odd; the blanks share a row.
        assert!(!inv.solvable);
    }
}

#[test]
fn unsolvable_large_boards_are_rejected_by_the_invariant() {
    for (rows, cols) in [(64, 64), (17, 30), (2, 300), (101, 3)] {
        let goal = Board::standard_goal(rows, cols).unwrap();
        let mut cells = random_solvable(&goal, 3).cells().to_vec();
        let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != BLANK).take(2).collect();
        cells.swap(tiles[0], tiles[1]);
        let start = Board::new(rows, cols, cells).unwrap();
        match solve(&start, &goal, &options(Strategy::NonOptimal)) {
            Err(SolveError::Unsolvable(inv)) => assert!(!inv.solvable && inv.explanation.contains("never be solved")),
            other => panic!("{rows}×{cols}: {other:?}"),
        }
    }
    // Loyd's swap on a large board: named in the explanation.
    let goal = Board::standard_goal(30, 30).unwrap();
    let mut cells = goal.cells().to_vec();
    cells.swap(897, 898);
    let inv = invariant(&Board::new(30, 30, cells).unwrap(), &goal).unwrap();
    assert_eq!(inv.swapped_pair, Some((898, 899)));
    assert!(inv.explanation.contains("only tiles 898 and 899"), "{}", inv.explanation);
}

#[test]
fn cancel_stops_a_large_solve() {
    let goal = Board::standard_goal(64, 64).unwrap();
    let start = random_solvable(&goal, 1);
    let polls = Cell::new(0u32);
    let cancel = || {
        polls.set(polls.get() + 1);
        polls.get() > 50
    };
    let options = SolveOptions { cancel: Some(&cancel), ..options(Strategy::NonOptimal) };
    assert_eq!(solve(&start, &goal, &options), Err(SolveError::Cancelled));
    assert_eq!(polls.get(), 51);
}

#[test]
fn optimal_only_refuses_boards_with_a_side_above_16() {
    let goal = Board::standard_goal(17, 3).unwrap();
    let start = random_solvable(&goal, 1);
    let options = SolveOptions { strategy: Strategy::OptimalOnly, ..SolveOptions::default() };
    let err = solve(&start, &goal, &options).unwrap_err();
    assert_eq!(err, SolveError::TooLarge { rows: 17, cols: 3 });
    assert!(err.to_string().contains("at most 16 rows and 16 columns, not 17×3"), "{err}");
}

/// Every size with a side from 17 to 34 and the other from 2 to 34,
/// standard and random goals (864 sizes, 1,728 boards): `cargo test --release -p
/// lights-sliding --test large_boards -- --ignored`.
#[test]
#[ignore = "about a minute and a half in release"]
fn every_size_with_a_side_from_17_to_34_solves() {
    for rows in 2..=34 {
        for cols in 2..=34 {
            if rows <= 16 && cols <= 16 {
                continue;
            }
            let standard = Board::standard_goal(rows, cols).unwrap();
            let seed = (rows * 100 + cols) as u64;
            let random_goal = random_solvable(&standard, seed);
            for goal in [standard, random_goal] {
                let options = SolveOptions { pattern_databases: false, ..options(Strategy::NonOptimal) };
                let start = random_solvable(&goal, seed + 1);
                let solution = solve(&start, &goal, &options).unwrap_or_else(|e| panic!("{rows}×{cols}: {e}"));
                replay_to_goal(&start, &goal, &solution.moves).unwrap();
            }
        }
    }
}
