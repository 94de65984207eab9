//! The first 4×4 solves of a process use the quick 5-5-5 tables and never
//! build the 6-6-3 ones; the answers (the moves themselves, not only their
//! number) are the ones the 6-6-3 tables give; a search that runs out of
//! nodes with the 5-5-5 tables builds the 6-6-3 ones, keeps them in the
//! store and answers as they do.
//!
//! One test in its own binary: the tables a process holds are global, and
//! the steps below depend on what it holds.

use std::sync::{Arc, Mutex};

use lights_sliding::{
    pattern_databases, random_solvable, random_walk, replay_to_goal, set_default_table_store, small_table_nodes, solve,
    stored_pattern_databases, Board, BuildProgress, BuildStage, Method, PdbSource, Solution, SolveError, SolveOptions,
    Strategy, TableStore,
};

mod common;
use common::{corner_goals, MemoryStore};

/// 4×4 positions for every goal the tables serve (blank in each corner),
/// random and short random walks, and 5×5 boards (their last 4×4 is
/// finished with the tables).
fn cases() -> Vec<(Board, Board)> {
    let corners = corner_goals();
    let standard = corners[0].clone();
    let mut cases = Vec::new();
    for seed in 0..6u64 {
        cases.push((random_solvable(&standard, 100 + seed), standard.clone()));
    }
    for (g, goal) in corners.iter().enumerate() {
        for seed in 0..3u64 {
            let start = if seed == 0 {
                random_solvable(goal, 7 + g as u64)
            } else {
                random_walk(goal, 25 + 9 * seed as usize, seed)
            };
            cases.push((start, goal.clone()));
        }
    }
    let five = Board::standard_goal(5, 5).unwrap();
    for seed in 0..4u64 {
        cases.push((random_solvable(&five, seed), five.clone()));
    }
    cases
}

fn solve_all(cases: &[(Board, Board)]) -> Vec<Solution> {
    cases
        .iter()
        .map(|(start, goal)| {
            let solution = solve(start, goal, &SolveOptions::default()).unwrap();
            replay_to_goal(start, goal, &solution.moves).unwrap();
            solution
        })
        .collect()
}

#[test]
fn quick_tables_first_same_answers_then_the_full_tables_when_they_run_out() {
    let cases = cases();

    // 1. Nothing at hand: the 5-5-5 tables answer, the 6-6-3 ones are not built.
    assert_eq!(stored_pattern_databases(None, &|_| {}), None);
    assert_eq!(small_table_nodes(), 0);
    let quick = solve_all(&cases);
    assert_eq!(stored_pattern_databases(None, &|_| {}), None, "the 6-6-3 tables were built");
    let spent: u64 = quick.iter().filter(|s| s.method == Method::PatternDatabases).map(|s| s.nodes).sum();
    assert!(spent > 0);
    assert!(small_table_nodes() >= spent, "{} < {spent}", small_table_nodes());
    for (s, (start, _)) in quick.iter().zip(&cases) {
        assert!(matches!(s.pdb_source, Some(PdbSource::Small { .. })), "{start}: {:?}", s.pdb_source);
        if start.rows() == 4 {
            assert_eq!((s.method, s.optimal), (Method::PatternDatabases, true));
        } else {
            assert_eq!(s.method, Method::Reduction);
        }
    }
    assert_eq!(quick.iter().filter(|s| s.pdb_source == Some(PdbSource::Small { built: true })).count(), 1);

    // 2. A search that runs out of nodes builds the 6-6-3 tables, keeps
    //    them in the default store (as `lights` sets it) and answers as
    //    they do: here the node limit stops both.
    let store = Arc::new(MemoryStore::default());
    let heard = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&heard);
    let progress = move |p: BuildProgress| sink.lock().unwrap().push(p.stage);
    set_default_table_store(Some(store.clone() as Arc<dyn TableStore>), Some(Arc::new(progress)));
    // An empty store is read once, not on every search.
    for (start, goal) in &cases[1..3] {
        let solution = solve(start, goal, &SolveOptions::default()).unwrap();
        assert_eq!(solution.pdb_source, Some(PdbSource::Small { built: false }));
    }
    assert_eq!(*store.loads.lock().unwrap(), 1);
    let (start, goal) = &cases[0];
    let limited = SolveOptions { strategy: Strategy::OptimalOnly, node_limit: Some(2_000), ..SolveOptions::default() };
    let before = small_table_nodes();
    let Err(SolveError::NodeLimit { nodes, lower_bound }) = solve(start, goal, &limited) else {
        panic!("expected the node limit")
    };
    assert!(small_table_nodes() >= before + 2_000);
    // Both stages' nodes are counted.
    assert!(nodes >= 4_000, "{nodes}");
    assert_eq!(*store.saves.lock().unwrap(), 1, "the built tables are kept in the store");
    assert_eq!(*store.loads.lock().unwrap(), 2, "read again before the build");
    let stages = heard.lock().unwrap().clone();
    assert!(stages.iter().any(|s| matches!(s, BuildStage::Building { .. })), "{stages:?}");
    assert!(stages.contains(&BuildStage::Saving));
    let (full, source) = stored_pattern_databases(None, &|_| {}).expect("now held in memory");
    assert_eq!(source, PdbSource::Memory);
    assert_eq!(store.bytes.lock().unwrap().as_deref(), Some(&full.to_bytes()[..]));
    set_default_table_store(None, None);

    // The same limit with the 6-6-3 tables alone proves the same bound.
    let Err(SolveError::NodeLimit { lower_bound: bound663, .. }) = solve(start, goal, &limited) else {
        panic!("expected the node limit")
    };
    assert_eq!(lower_bound, bound663);

    // 3. With the 6-6-3 tables held, every answer is the same, move for move.
    let (_, source) = pattern_databases(None, &|_| {}, &|| false).unwrap();
    assert_eq!(source, PdbSource::Memory);
    let nodes_before = small_table_nodes();
    let full = solve_all(&cases);
    assert_eq!(small_table_nodes(), nodes_before, "the 5-5-5 tables are no longer used");
    for ((q, f), (start, goal)) in quick.iter().zip(&full).zip(&cases) {
        assert_eq!(f.pdb_source, Some(PdbSource::Memory));
        assert_eq!(
            (&q.moves, q.optimal, q.lower_bound, q.method),
            (&f.moves, f.optimal, f.lower_bound, f.method),
            "{start}\n→\n{goal}"
        );
    }
    // The 6-6-3 tables are the stronger bound: fewer nodes in all.
    let sum = |s: &[Solution]| s.iter().map(|s| s.nodes).sum::<u64>();
    assert!(sum(&full) < sum(&quick), "{} ≥ {}", sum(&full), sum(&quick));
}
