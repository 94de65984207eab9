//! The 4×4 search, cheap first: the 6-6-3 pattern databases when they are
//! at hand (in this process's memory or in the caller's store), otherwise
//! the 5-5-5 ones first and the 6-6-3 ones only when those run out of nodes.
//!
//! Building the 6-6-3 tables takes 3–6 s of CPU; the 5-5-5 ones take a
//! tenth of that, and their search expands about 3 times as many nodes
//! (median 200 thousand on random positions, about 20 ms). A process pays
//! the 5-5-5 search up to [`SMALL_TABLES_NODES`] nodes in all (a few
//! seconds, about what building the 6-6-3 tables costs); the search that
//! goes past that (and every 4×4 search after it) builds the 6-6-3 tables —
//! keeping them in the caller's store — and searches again with them. So a
//! check with a few 4×4 blocks never builds them, and a long run spends at
//! most about twice what building them first would have.
//!
//! Answers do not depend on the tables. IDA* with any admissible heuristic
//! that is 0 only at the goal ends with the bound equal to the optimal
//! length, and its last iteration visits every optimal path (no node on one
//! has `g + h` above that length) in the same order, so it returns the same
//! first one: the same moves, not only as many. The tests compare both.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::grid::{Grid, Labelled};
use crate::pdb::cache::{pattern_databases, stored_pattern_databases, PdbSource, TableStore};
use crate::pdb::{BuildProgress, Cancelled, PatternDatabases};
use crate::search::pdb_heuristic::PdbHeuristic;
use crate::search::{ida_star, Budget, Found, Stop, Stopped};

/// Nodes the searches of a process may spend with the 5-5-5 tables before
/// the 6-6-3 ones are built: about as long as building those takes.
pub const SMALL_TABLES_NODES: u64 = 25_000_000;

/// The 5-5-5 tables, once built.
static SMALL: Mutex<Option<Arc<PatternDatabases>>> = Mutex::new(None);
/// Nodes spent so far with the 5-5-5 tables (successful searches and those
/// that ran out).
static SMALL_SPENT: AtomicU64 = AtomicU64::new(0);

/// The location of the last store that held no usable 6-6-3 tables.
static MISSED_STORE: Mutex<Option<String>> = Mutex::new(None);

type Progress = dyn Fn(BuildProgress) + Send + Sync;

/// Where a solve keeps the 6-6-3 tables when its options name no store.
struct Defaults {
    store: Option<Arc<dyn TableStore>>,
    progress: Option<Arc<Progress>>,
}

static DEFAULTS: RwLock<Defaults> = RwLock::new(Defaults { store: None, progress: None });

/// The store (and the build's progress) that solves use for the 6-6-3
/// tables when their [`crate::SolveOptions`] name none: a front end sets
/// its store once, and the solves that reach for the tables load them from
/// it, or build and keep them there. `None` forgets it.
pub fn set_default_table_store(store: Option<Arc<dyn TableStore>>, progress: Option<Arc<Progress>>) {
    let mut defaults = DEFAULTS.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    *defaults = Defaults { store, progress };
}

/// Nodes spent with the 5-5-5 tables by this process so far (for tests and
/// measurements).
pub fn small_table_nodes() -> u64 {
    SMALL_SPENT.load(Ordering::Relaxed)
}

/// The 4×4 tables as a solve's options say: their store and progress (or
/// the defaults), and where the tables of the last search came from.
pub(crate) struct Tables<'a> {
    store: Option<&'a dyn TableStore>,
    progress: Option<&'a dyn Fn(BuildProgress)>,
    cancel: Option<&'a dyn Fn() -> bool>,
    /// Where the tables the last search ended with came from.
    pub(crate) source: RefCell<Option<PdbSource>>,
}

impl<'a> Tables<'a> {
    pub(crate) fn new(
        store: Option<&'a dyn TableStore>,
        progress: Option<&'a dyn Fn(BuildProgress)>,
        cancel: Option<&'a dyn Fn() -> bool>,
    ) -> Tables<'a> {
        Tables { store, progress, cancel, source: RefCell::new(None) }
    }

    /// IDA* for a 4×4 position whose goal is "cell `i` holds label `i`",
    /// the blank at cell 15, within `node_limit` (the last stage's limit:
    /// the answer is the one the 6-6-3 tables give with it). The nodes of
    /// every stage are counted.
    pub(crate) fn search(
        &self,
        grid: &Grid,
        start: &Labelled,
        node_limit: Option<u64>,
    ) -> Result<Result<Found, Stopped>, Cancelled> {
        let cancel = self.cancel;
        let never = || false;
        let cancel_fn: &dyn Fn() -> bool = cancel.unwrap_or(&never);
        // The caller's store, else the front end's default.
        let (default_store, default_progress) = {
            let defaults = DEFAULTS.read().unwrap_or_else(std::sync::PoisonError::into_inner);
            (defaults.store.clone(), defaults.progress.clone())
        };
        let store = self.store.or(default_store.as_deref());
        let silent = |_: BuildProgress| {};
        let progress: &dyn Fn(BuildProgress) = match (self.progress, &default_progress) {
            (Some(p), _) => p,
            (None, Some(p)) => &**p,
            (None, None) => &silent,
        };
        let with = |databases: &PatternDatabases, node_limit: Option<u64>| {
            ida_star(grid, start, &mut PdbHeuristic::new(databases), Budget { node_limit, cancel })
        };

        let mut earlier = 0;
        // Loading is quick: no progress for it. A store that had no usable
        // tables is not read again by this process (a corrupt file would
        // cost a read and a checksum on every search).
        let location = store.map(super::pdb::cache::TableStore::location);
        let missed = MISSED_STORE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        let store_to_read = if location.is_some() && location == missed { None } else { store };
        if let Some((full, source)) = stored_pattern_databases(store_to_read, &silent) {
            *self.source.borrow_mut() = Some(source);
            return Ok(with(&full, node_limit));
        }
        if location.is_some() {
            *MISSED_STORE.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = location;
        }
        let spent = SMALL_SPENT.load(Ordering::Relaxed);
        if spent < SMALL_TABLES_NODES {
            let (small, source) = small_tables(cancel_fn)?;
            let allowed = SMALL_TABLES_NODES - spent;
            let limit = node_limit.map_or(allowed, |l| l.min(allowed));
            match with(&small, Some(limit)) {
                Ok(found) => {
                    SMALL_SPENT.fetch_add(found.nodes, Ordering::Relaxed);
                    *self.source.borrow_mut() = Some(source);
                    return Ok(Ok(found));
                }
                Err(Stopped { stop: Stop::Cancelled, .. }) => return Err(Cancelled),
                Err(stopped) => {
                    SMALL_SPENT.fetch_add(stopped.nodes, Ordering::Relaxed);
                    earlier = stopped.nodes;
                }
            }
        }
        let (full, source) = pattern_databases(store, progress, cancel_fn)?;
        *self.source.borrow_mut() = Some(source);
        Ok(match with(&full, node_limit) {
            Ok(found) => Ok(Found { nodes: found.nodes + earlier, ..found }),
            Err(stopped) => Err(Stopped { nodes: stopped.nodes + earlier, ..stopped }),
        })
    }
}

/// The 5-5-5 tables: built once per process (a few tenths of a second).
fn small_tables(cancel: &dyn Fn() -> bool) -> Result<(Arc<PatternDatabases>, PdbSource), Cancelled> {
    let mut held = SMALL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(small) = held.as_ref() {
        return Ok((Arc::clone(small), PdbSource::Small { built: false }));
    }
    let small = Arc::new(PatternDatabases::build_small(cancel)?);
    *held = Some(Arc::clone(&small));
    Ok((small, PdbSource::Small { built: true }))
}
