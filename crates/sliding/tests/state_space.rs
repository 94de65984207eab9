//! Whole state spaces by breadth-first search against the invariant and
//! the optimal solver.

mod common;

use std::collections::HashMap;

use common::{bfs_distances, for_each_permutation, pack, unpack};
use lights_sliding::{invariant, replay_to_goal, solve, Board, Method, SolveOptions, SplitMix64, Strategy, Tile};

/// Goals to test besides the standard one: blank first then tiles in order,
/// and a seeded shuffle (any permutation, whatever its parity).
fn goals(rows: usize, cols: usize) -> Vec<Board> {
    let n = rows * cols;
    let blank_first = Board::new(rows, cols, (0..n as Tile).collect()).unwrap();
    let mut shuffled: Vec<Tile> = (0..n as Tile).collect();
    let mut rng = SplitMix64::new(n as u64 * 7919 + cols as u64);
    for i in (1..n).rev() {
        shuffled.swap(i, rng.index_below(i + 1));
    }
    vec![Board::standard_goal(rows, cols).unwrap(), blank_first, Board::new(rows, cols, shuffled).unwrap()]
}

fn optimal() -> SolveOptions<'static> {
    SolveOptions { strategy: Strategy::OptimalOnly, node_limit: None, ..SolveOptions::default() }
}

/// Solves every given position and compares with its BFS distance.
fn assert_solver_matches(goal: &Board, positions: &[(u64, u32)]) {
    for &(key, distance) in positions {
        let start = unpack(goal.rows(), goal.cols(), key);
        let solution = solve(&start, goal, &optimal()).unwrap();
        assert_eq!(
            solution.len() as u32,
            distance,
            "{start}\n→\n{goal}: solver {:?} but BFS says {distance}",
            solution.moves
        );
        assert!(solution.optimal);
        assert_eq!(solution.lower_bound, distance);
        replay_to_goal(&start, goal, &solution.moves).unwrap();
    }
}

/// Sorted (key, distance) pairs: a reproducible order to sample from.
fn sorted(dist: &HashMap<u64, u32>) -> Vec<(u64, u32)> {
    let mut all: Vec<(u64, u32)> = dist.iter().map(|(&k, &d)| (k, d)).collect();
    all.sort_unstable();
    all
}

fn sample(all: &[(u64, u32)], count: usize, seed: u64) -> Vec<(u64, u32)> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| all[rng.index_below(all.len())]).collect()
}

#[test]
fn invariant_decides_reachability_of_every_position() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        for goal in goals(rows, cols) {
            let dist = bfs_distances(&goal);
            let (mut total, mut reachable) = (0usize, 0usize);
            for_each_permutation(rows * cols, |cells| {
                let board = Board::new(rows, cols, cells.to_vec()).unwrap();
                let inv = invariant(&board, &goal).unwrap();
                let reached = dist.contains_key(&pack(cells));
                assert_eq!(inv.solvable, reached, "{board}\nvs goal\n{goal}\n{}", inv.explanation);
                total += 1;
                reachable += reached as usize;
            });
            // Exactly half of all (R·C)! positions, all of them found by BFS.
            assert_eq!(total, (1..=rows * cols).product::<usize>());
            assert_eq!(reachable * 2, total, "{rows}×{cols}");
            assert_eq!(dist.len(), reachable);
        }
    }
}

#[test]
fn optimal_solver_matches_bfs_on_every_position_of_2x2_2x3_3x2() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2)] {
        for goal in goals(rows, cols) {
            let dist = bfs_distances(&goal);
            assert_eq!(dist.len(), (1..=rows * cols).product::<usize>() / 2);
            assert_solver_matches(&goal, &sorted(&dist));
        }
    }
}

#[test]
fn optimal_solver_matches_bfs_on_sampled_2x4_and_4x2() {
    for (rows, cols) in [(2, 4), (4, 2)] {
        for goal in goals(rows, cols) {
            let all = sorted(&bfs_distances(&goal));
            assert_solver_matches(&goal, &sample(&all, 300, rows as u64 * 10 + cols as u64));
        }
    }
}

#[test]
fn optimal_solver_matches_bfs_on_sampled_3x3_and_every_hardest_position() {
    for (g, goal) in goals(3, 3).into_iter().enumerate() {
        let dist = bfs_distances(&goal);
        let all = sorted(&dist);
        let count = if g == 0 { 3000 } else { 300 };
        assert_solver_matches(&goal, &sample(&all, count, 33 + g as u64));
        let max = all.iter().map(|&(_, d)| d).max().unwrap();
        let hardest: Vec<(u64, u32)> = all.iter().copied().filter(|&(_, d)| d == max).collect();
        assert_solver_matches(&goal, &hardest);
    }
}

#[test]
fn the_8_puzzle_s_hardest_positions_need_31_moves() {
    let goal = Board::standard_goal(3, 3).unwrap();
    let dist = bfs_distances(&goal);
    assert_eq!(dist.len(), 181_440);
    let max = *dist.values().max().unwrap();
    assert_eq!(max, 31);
    let mut hardest: Vec<Board> = dist.iter().filter(|&(_, &d)| d == max).map(|(&k, _)| unpack(3, 3, k)).collect();
    hardest.sort_by(|a, b| a.cells().cmp(b.cells()));
    // The two known ones (Reinefeld 1993).
    assert_eq!(
        hardest,
        vec![
            Board::new(3, 3, vec![6, 4, 7, 8, 5, 0, 3, 2, 1]).unwrap(),
            Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap(),
        ]
    );
    for start in &hardest {
        let solution = solve(start, &goal, &SolveOptions::default()).unwrap();
        assert_eq!(solution.len(), 31, "{start}");
        assert!(solution.optimal);
        assert_eq!(solution.method, Method::ManhattanLinearConflict);
        replay_to_goal(start, &goal, &solution.moves).unwrap();
    }
}
