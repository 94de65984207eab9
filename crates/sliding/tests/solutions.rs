//! Every solution replays to the goal: the constructive method on every
//! size, the optimal search on 3×3 and 4×4; cancellation and node limits.

mod common;

use std::cell::Cell;

use lights_sliding::{
    random_position, random_solvable, random_walk, replay_to_goal, solve, Board, Method, SolveError, SolveOptions,
    Strategy,
};
use proptest::prelude::*;

/// The tables for the 4×4 finish are built in memory, never in the user's cache.
fn non_optimal() -> SolveOptions<'static> {
    SolveOptions { strategy: Strategy::NonOptimal, ..SolveOptions::default() }
}

/// Any permutation of the tiles (a goal need not be the standard one).
fn random_board(rows: usize, cols: usize, seed: u64) -> Board {
    random_position(rows, cols, seed).unwrap()
}

fn assert_constructive_solves(start: &Board, goal: &Board) {
    let solution = solve(start, goal, &non_optimal()).unwrap();
    let method = if start == goal { Method::AlreadySolved } else { Method::Reduction };
    assert_eq!(solution.method, method);
    replay_to_goal(start, goal, &solution.moves)
        .unwrap_or_else(|e| panic!("{start}\n→\n{goal}\n{}: {e}", solution.moves));
    assert!(solution.lower_bound as usize <= solution.len());
    assert_eq!(solution.optimal, solution.lower_bound as usize == solution.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn constructive_solutions_replay_on_every_size_up_to_6x6(
        rows in 2usize..=6,
        cols in 2usize..=6,
        seed in any::<u64>(),
        standard in any::<bool>(),
    ) {
        let goal = if standard {
            Board::standard_goal(rows, cols).unwrap()
        } else {
            random_board(rows, cols, seed ^ 0x5EED)
        };
        let start = random_solvable(&goal, seed);
        assert_constructive_solves(&start, &goal);
    }

    #[test]
    fn optimal_3x3_solutions_replay(seed in any::<u64>()) {
        let goal = Board::standard_goal(3, 3).unwrap();
        let start = random_solvable(&goal, seed);
        let solution = solve(&start, &goal, &SolveOptions::default()).unwrap();
        prop_assert!(solution.optimal);
        prop_assert!(solution.len() <= 31);
        replay_to_goal(&start, &goal, &solution.moves).unwrap();
    }
}

#[test]
fn constructive_solutions_replay_on_large_and_narrow_boards() {
    let sizes = [(2, 16), (16, 2), (2, 9), (9, 2), (3, 11), (7, 4), (10, 10), (16, 16)];
    for (i, &(rows, cols)) in sizes.iter().enumerate() {
        for seed in 0..3 {
            let goal = if seed == 0 {
                Board::standard_goal(rows, cols).unwrap()
            } else {
                random_board(rows, cols, 1000 + i as u64 * 10 + seed)
            };
            assert_constructive_solves(&random_solvable(&goal, seed), &goal);
        }
    }
}

#[test]
fn auto_goes_non_optimal_above_16_cells() {
    let goal = Board::standard_goal(5, 5).unwrap();
    let start = random_solvable(&goal, 5);
    let options = SolveOptions { ..SolveOptions::default() };
    let solution = solve(&start, &goal, &options).unwrap();
    assert_eq!(solution.method, Method::Reduction);
    assert!(!solution.optimal);
    assert!(solution.pdb_source.is_some());
    assert!(solution.lower_bound > 0);
    replay_to_goal(&start, &goal, &solution.moves).unwrap();
    // A position the bound proves optimal: one move from the goal.
    let one = random_walk(&goal, 1, 0);
    let solution = solve(&one, &goal, &options).unwrap();
    assert_eq!((solution.len(), solution.optimal), (1, true));
}

#[test]
fn auto_does_not_search_long_narrow_boards() {
    for (rows, cols) in [(2, 8), (7, 2)] {
        let goal = Board::standard_goal(rows, cols).unwrap();
        let start = random_solvable(&goal, 3);
        let solution = solve(&start, &goal, &SolveOptions::default()).unwrap();
        assert_eq!(solution.method, Method::Reduction);
        assert_eq!(solution.nodes, 0);
        replay_to_goal(&start, &goal, &solution.moves).unwrap();
    }
    let goal = Board::standard_goal(2, 6).unwrap();
    let start = random_walk(&goal, 30, 1);
    let solution = solve(&start, &goal, &SolveOptions::default()).unwrap();
    assert_eq!(solution.method, Method::ManhattanLinearConflict);
}

#[test]
fn the_goal_itself_needs_no_moves() {
    let goal = Board::standard_goal(4, 4).unwrap();
    let solution = solve(&goal, &goal, &SolveOptions::default()).unwrap();
    assert_eq!(solution.moves, "");
    assert!(solution.optimal);
    assert_eq!(solution.method, Method::AlreadySolved);
}

/// A 4×4 position that Manhattan + linear conflict alone needs many nodes for.
fn hard_4x4() -> (Board, Board) {
    let goal = Board::standard_goal(4, 4).unwrap();
    (random_solvable(&goal, 15), goal)
}

#[test]
fn cancel_stops_the_search_with_a_typed_error() {
    let (start, goal) = hard_4x4();
    let polls = Cell::new(0);
    let cancel = || {
        polls.set(polls.get() + 1);
        polls.get() > 3
    };
    let options =
        SolveOptions { pattern_databases: false, node_limit: None, cancel: Some(&cancel), ..SolveOptions::default() };
    assert_eq!(solve(&start, &goal, &options), Err(SolveError::Cancelled));
    assert!(polls.get() > 3);
    let big = Board::standard_goal(12, 12).unwrap();
    let options = SolveOptions { cancel: Some(&|| true), ..SolveOptions::default() };
    assert_eq!(solve(&random_solvable(&big, 1), &big, &options), Err(SolveError::Cancelled));
}

#[test]
fn node_limit_falls_back_in_auto_and_is_an_error_when_optimal_only() {
    let (start, goal) = hard_4x4();
    let limited = SolveOptions { pattern_databases: false, node_limit: Some(50_000), ..SolveOptions::default() };
    let solution = solve(&start, &goal, &limited).unwrap();
    assert_eq!(solution.method, Method::Reduction);
    assert!(!solution.optimal);
    assert!(solution.nodes >= 50_000);
    assert!(solution.lower_bound >= 40, "{}", solution.lower_bound);
    replay_to_goal(&start, &goal, &solution.moves).unwrap();

    let only = SolveOptions { strategy: Strategy::OptimalOnly, ..limited };
    match solve(&start, &goal, &only) {
        Err(SolveError::NodeLimit { nodes, lower_bound }) => {
            assert!(nodes >= 50_000);
            assert_eq!(lower_bound, solution.lower_bound);
        }
        other => panic!("expected NodeLimit, got {other:?}"),
    }
}

/// Every size from 2×2 to 16×16, standard and random goals: 23,520
/// positions (minutes in a release build; run with `-- --ignored`).
#[test]
#[ignore = "about 8 minutes in release: every size up to 16×16, 23,520 positions"]
fn constructive_solutions_replay_on_every_size_up_to_16x16() {
    for rows in 2..=16 {
        for cols in 2..=16 {
            let reps = match rows * cols {
                0..=36 => 300,
                37..=100 => 40,
                _ => 6,
            };
            for seed in 0..reps {
                let goal = if seed % 2 == 0 {
                    Board::standard_goal(rows, cols).unwrap()
                } else {
                    random_board(rows, cols, seed * 1_000_003 + (rows * 100 + cols) as u64)
                };
                assert_constructive_solves(&random_solvable(&goal, seed ^ 0xABCD), &goal);
            }
        }
    }
}
