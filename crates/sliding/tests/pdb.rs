//! The 4×4 pattern databases: optimal lengths agree with Manhattan +
//! linear conflict, stored tables round-trip through the caller's store,
//! corrupt ones are rebuilt, a store that cannot keep them only means memory.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

mod common;
use common::{corner_goals, MemoryStore};

use lights_sliding::{
    load_or_build, pattern_databases, random_solvable, random_walk, replay_to_goal, solve, Board, BuildProgress,
    BuildStage, CacheError, Method, PatternDatabases, PdbSource, SolveOptions, Strategy, Tile,
};

/// One build shared by the tests of this binary: the copy `solve` uses
/// too (this process's, built in memory).
fn databases() -> &'static PatternDatabases {
    static DATABASES: OnceLock<Arc<PatternDatabases>> = OnceLock::new();
    DATABASES.get_or_init(|| pattern_databases(None, &|_| {}, &|| false).unwrap().0)
}

fn optimal(pattern_databases: bool) -> SolveOptions<'static> {
    SolveOptions { strategy: Strategy::OptimalOnly, node_limit: None, pattern_databases, ..SolveOptions::default() }
}

/// 4×4 goals with the blank in each corner (the databases apply through a
/// reflection) and one in the middle (they do not).
fn goals() -> Vec<(Board, Method)> {
    let mut middle: Vec<Tile> = (1..16).collect();
    middle.insert(5, 0);
    let mut goals: Vec<(Board, Method)> = corner_goals().into_iter().map(|g| (g, Method::PatternDatabases)).collect();
    goals.push((Board::new(4, 4, middle).unwrap(), Method::ManhattanLinearConflict));
    goals
}

#[test]
fn tables_are_complete_and_plausible() {
    let dbs = databases();
    assert_eq!(dbs.size_bytes(), 2 * 5_765_760 + 3_360);
    // The deepest placements of the 6-tile groups need 20-odd moves.
    let max = dbs.max_values();
    assert!(max.iter().all(|&m| (10..60).contains(&m)), "{max:?}");
}

#[test]
fn pattern_databases_agree_with_manhattan_linear_conflict() {
    let _ = databases();
    for (g, (goal, method)) in goals().into_iter().enumerate() {
        for seed in 0..8u64 {
            let steps = 30 + (seed as usize * 7) % 11;
            let start = random_walk(&goal, steps, seed * 31 + g as u64);
            let with = solve(&start, &goal, &optimal(true)).unwrap();
            let without = solve(&start, &goal, &optimal(false)).unwrap();
            assert_eq!(with.method, method);
            assert_eq!(without.method, Method::ManhattanLinearConflict);
            assert_eq!(with.len(), without.len(), "{start}\n→\n{goal}");
            assert!(with.optimal && without.optimal);
            replay_to_goal(&start, &goal, &with.moves).unwrap();
            replay_to_goal(&start, &goal, &without.moves).unwrap();
        }
    }
}

#[test]
fn random_4x4_positions_are_solved_optimally_and_replay() {
    let _ = databases();
    let goal = Board::standard_goal(4, 4).unwrap();
    for seed in 0..6 {
        let start = random_solvable(&goal, seed);
        let solution = solve(&start, &goal, &optimal(true)).unwrap();
        assert!(solution.optimal);
        assert_eq!(solution.method, Method::PatternDatabases);
        assert_eq!(solution.lower_bound as usize, solution.len());
        replay_to_goal(&start, &goal, &solution.moves).unwrap();
    }
}

#[test]
fn stored_tables_round_trip() {
    let store = MemoryStore::holding(&databases().to_bytes());
    assert_eq!(&PatternDatabases::from_bytes(&store.bytes().unwrap()).unwrap(), databases());
    let stages = RefCell::new(Vec::new());
    let progress = |p: BuildProgress| stages.borrow_mut().push(p.stage);
    let (again, source) = load_or_build(Some(&store), &progress, &|| false).unwrap();
    assert_eq!(&again, databases());
    assert_eq!(source, PdbSource::Stored("the test store".into()));
    assert_eq!(stages.into_inner(), vec![BuildStage::Loading, BuildStage::Finished]);
}

#[test]
fn corrupt_tables_are_detected_and_rebuilt() {
    let bytes = databases().to_bytes();
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x40;
    assert_eq!(PatternDatabases::from_bytes(&flipped), Err(CacheError::Checksum));
    assert!(matches!(PatternDatabases::from_bytes(&bytes[..bytes.len() - 100]), Err(CacheError::Size { .. })));
    assert_eq!(PatternDatabases::from_bytes(b"not a table"), Err(CacheError::NotAPatternDatabase));

    let store = MemoryStore::holding(&flipped);
    let built = RefCell::new(false);
    let progress = |p: BuildProgress| {
        if let BuildStage::Building { .. } = p.stage {
            *built.borrow_mut() = true;
            assert!(p.done <= p.total);
        }
    };
    let (rebuilt, source) = load_or_build(Some(&store), &progress, &|| false).unwrap();
    assert!(built.into_inner());
    assert_eq!(&rebuilt, databases());
    match source {
        PdbSource::Built { saved_to: Some(saved), note: Some(note) } => {
            assert_eq!(saved, "the test store");
            assert!(note.contains("checksum"), "{note}");
        }
        other => panic!("expected a rebuild, got {other:?}"),
    }
    // The store holds whole tables again.
    assert_eq!(store.bytes().unwrap(), bytes);
}

#[test]
fn a_store_that_cannot_keep_them_only_means_memory() {
    let store = MemoryStore { read_only: true, ..MemoryStore::default() };
    let (dbs, source) = load_or_build(Some(&store), &|_| {}, &|| false).unwrap();
    assert_eq!(&dbs, databases());
    match source {
        PdbSource::Built { saved_to: None, note: Some(note) } => assert!(note.contains("could not write"), "{note}"),
        other => panic!("expected an unsaved build, got {other:?}"),
    }
    // Without a store at all: built, nothing said.
    let (_, source) = load_or_build(None, &|_| {}, &|| false).unwrap();
    assert_eq!(source, PdbSource::Built { saved_to: None, note: None });
}

#[test]
fn a_cancelled_build_is_a_typed_error_and_keeps_nothing() {
    assert!(PatternDatabases::build(&|_| {}, &|| true).is_err());
    let store = MemoryStore::default();
    assert!(load_or_build(Some(&store), &|_| {}, &|| true).is_err());
    assert_eq!(store.bytes(), None);
}

#[test]
fn the_process_keeps_one_copy() {
    let _ = databases();
    let (first, source) = pattern_databases(None, &|_| {}, &|| false).unwrap();
    assert_eq!(source, PdbSource::Memory);
    let store = MemoryStore::default();
    let (second, _) = pattern_databases(Some(&store), &|_| {}, &|| false).unwrap();
    assert!(Arc::ptr_eq(&first, &second));
    assert_eq!(&*first, databases());
    assert_eq!(store.bytes(), None, "tables in memory are not stored again");
}
