//! The 4×4 pattern databases: optimal lengths agree with Manhattan +
//! linear conflict, the cache round-trips, a corrupt file is rebuilt, an
//! unwritable directory only means memory.

mod common;

use std::cell::RefCell;
use std::fs;
use std::sync::{Arc, OnceLock};

use common::temp_dir;
use lights_sliding::{
    load_or_build, pattern_databases, random_solvable, random_walk, replay_to_goal, solve, Board, BuildProgress,
    BuildStage, CacheError, Method, PatternDatabases, PdbSource, SolveOptions, Strategy, Tile, PDB_FILE_NAME,
};

/// One build shared by the tests of this binary: the copy `solve` uses
/// too (this process's, built in memory).
fn databases() -> &'static PatternDatabases {
    static DATABASES: OnceLock<Arc<PatternDatabases>> = OnceLock::new();
    DATABASES.get_or_init(|| pattern_databases(None, false, &|_| {}, &|| false).unwrap().0)
}

fn optimal(pattern_databases: bool) -> SolveOptions<'static> {
    SolveOptions {
        strategy: Strategy::OptimalOnly,
        node_limit: None,
        pattern_databases,
        // This process's tables come from a build in memory, never the user's cache.
        disk_cache: false,
        ..SolveOptions::default()
    }
}

/// 4×4 goals with the blank in each corner (the databases apply through a
/// reflection) and one in the middle (they do not).
fn goals() -> Vec<(Board, Method)> {
    let standard = Board::standard_goal(4, 4).unwrap();
    let blank_first = Board::new(4, 4, (0..16).collect()).unwrap();
    let mut top_right: Vec<Tile> = (1..16).collect();
    top_right.insert(3, 0);
    let mut bottom_left: Vec<Tile> = (1..16).collect();
    bottom_left.insert(12, 0);
    let mut middle: Vec<Tile> = (1..16).collect();
    middle.insert(5, 0);
    vec![
        (standard, Method::PatternDatabases),
        (blank_first, Method::PatternDatabases),
        (Board::new(4, 4, top_right).unwrap(), Method::PatternDatabases),
        (Board::new(4, 4, bottom_left).unwrap(), Method::PatternDatabases),
        (Board::new(4, 4, middle).unwrap(), Method::ManhattanLinearConflict),
    ]
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
fn cache_round_trips() {
    let dir = temp_dir("roundtrip");
    let path = dir.join(PDB_FILE_NAME);
    databases().save(&path).unwrap();
    let loaded = PatternDatabases::load(&path).unwrap();
    assert_eq!(&loaded, databases());
    // No temporary file is left behind.
    let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![PDB_FILE_NAME]);

    let stages = RefCell::new(Vec::new());
    let progress = |p: BuildProgress| stages.borrow_mut().push(p.stage);
    let (again, source) = load_or_build(Some(&path), &progress, &|| false).unwrap();
    assert_eq!(&again, databases());
    assert_eq!(source, PdbSource::Disk(path.clone()));
    assert_eq!(stages.into_inner(), vec![BuildStage::Loading, BuildStage::Finished]);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corrupt_files_are_detected_and_rebuilt() {
    let dir = temp_dir("corrupt");
    let path = dir.join(PDB_FILE_NAME);
    let bytes = databases().to_bytes();

    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x40;
    fs::write(&path, &flipped).unwrap();
    assert_eq!(PatternDatabases::load(&path), Err(CacheError::Checksum));

    fs::write(&path, &bytes[..bytes.len() - 100]).unwrap();
    assert!(matches!(PatternDatabases::load(&path), Err(CacheError::Size { .. })));

    fs::write(&path, b"not a table").unwrap();
    assert_eq!(PatternDatabases::load(&path), Err(CacheError::NotAPatternDatabase));

    fs::write(&path, &flipped).unwrap();
    let built = RefCell::new(false);
    let progress = |p: BuildProgress| {
        if let BuildStage::Building { .. } = p.stage {
            *built.borrow_mut() = true;
            assert!(p.done <= p.total);
        }
    };
    let (rebuilt, source) = load_or_build(Some(&path), &progress, &|| false).unwrap();
    assert!(built.into_inner());
    assert_eq!(&rebuilt, databases());
    match source {
        PdbSource::Built { saved_to: Some(saved), note: Some(note) } => {
            assert_eq!(saved, path);
            assert!(note.contains("checksum"), "{note}");
        }
        other => panic!("expected a rebuild, got {other:?}"),
    }
    // The file is whole again.
    assert_eq!(&PatternDatabases::load(&path).unwrap(), databases());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_cache_directory_only_means_memory() {
    let dir = temp_dir("unwritable");
    // A file where the directory should be: nothing can be created under it.
    let blocker = dir.join("not-a-dir");
    fs::write(&blocker, b"").unwrap();
    let path = blocker.join("lights").join(PDB_FILE_NAME);
    assert!(databases().save(&path).is_err());

    let (dbs, source) = load_or_build(Some(&path), &|_| {}, &|| false).unwrap();
    assert_eq!(&dbs, databases());
    match source {
        PdbSource::Built { saved_to: None, note: Some(note) } => assert!(note.contains("could not write"), "{note}"),
        other => panic!("expected an unsaved build, got {other:?}"),
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cancelled_build_is_a_typed_error() {
    assert!(PatternDatabases::build(&|_| {}, &|| true).is_err());
    let dir = temp_dir("cancelled");
    let path = dir.join(PDB_FILE_NAME);
    assert!(load_or_build(Some(&path), &|_| {}, &|| true).is_err());
    assert!(!path.exists());
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_process_keeps_one_copy() {
    let _ = databases();
    let (first, source) = pattern_databases(None, false, &|_| {}, &|| false).unwrap();
    assert_eq!(source, PdbSource::Memory);
    let (second, _) = pattern_databases(None, true, &|_| {}, &|| false).unwrap();
    assert!(Arc::ptr_eq(&first, &second));
    assert_eq!(&*first, databases());
}
