//! Solving off the async runtime, cached by what a puzzle means.
//!
//! Each puzzle is solved in a blocking task, at most one per core at a time.
//! Results are keyed by the facts the answer depends on (size, states, rule,
//! topology, lights, goal, locked), so editing one puzzle of a level pack,
//! or an `expect` line, or a comment, re-solves nothing else. Work that no
//! open document wants any more is cancelled; a solve that overruns the time
//! budget stops and is remembered as timed out.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lights_compiler::model::{Puzzle, Rule, Topology};
use lights_compiler::sliding_check::{BuildProgress, BuildStage, SlidingError, SlidingReport};
use lights_compiler::solve::{Report, SolveError};
use lights_compiler::SlidingPuzzle;
use tokio::sync::{mpsc, watch, Semaphore};

/// What a solve depends on: two blocks with equal keys have equal reports.
/// Hashing uses a fingerprint computed once (keys are looked up on every
/// edit, and a board's cells are many bytes); equality compares everything.
#[derive(Clone, Debug)]
pub struct SolveKey {
    fingerprint: u64,
    facts: Facts,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Facts {
    Lights {
        rows: usize,
        cols: usize,
        states: u32,
        rule: Rule,
        topology: Topology,
        lights: Vec<u16>,
        goal: Vec<u16>,
        locked: Vec<bool>,
    },
    /// A sliding block: its answer depends on the two positions only.
    Sliding { rows: usize, cols: usize, tiles: Vec<u16>, goal: Vec<u16> },
}

impl PartialEq for SolveKey {
    fn eq(&self, other: &Self) -> bool {
        self.fingerprint == other.fingerprint && self.facts == other.facts
    }
}

impl Eq for SolveKey {}

impl Hash for SolveKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.fingerprint);
    }
}

impl SolveKey {
    pub fn of(p: &Puzzle) -> SolveKey {
        SolveKey::from_facts(Facts::Lights {
            rows: p.rows,
            cols: p.cols,
            states: p.states,
            rule: p.rule.clone(),
            topology: p.topology,
            lights: p.lights.values.clone(),
            goal: p.goal.values.clone(),
            locked: p.locked.clone(),
        })
    }

    pub fn of_sliding(p: &SlidingPuzzle) -> SolveKey {
        SolveKey::from_facts(Facts::Sliding {
            rows: p.rows,
            cols: p.cols,
            tiles: p.tiles.clone(),
            goal: p.goal.clone(),
        })
    }

    fn from_facts(facts: Facts) -> SolveKey {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        facts.hash(&mut h);
        SolveKey { fingerprint: h.finish(), facts }
    }
}

/// What to solve: a Lights Out puzzle or a sliding block.
#[derive(Clone, Copy)]
pub enum Job<'a> {
    Lights(&'a Puzzle),
    Sliding(&'a SlidingPuzzle),
}

/// The end of a solve.
#[derive(Debug)]
pub enum Outcome {
    Solved(Arc<Report>),
    SlidingSolved(Arc<SlidingReport>),
    /// The solver declined or failed (too large, a failed self-check).
    Failed(SolveError),
    /// The sliding solver failed (a bug: its answers replay before they are returned).
    SlidingFailed(SlidingError),
    /// Stopped after the time budget.
    TimedOut(Duration),
    /// The solver panicked; the message.
    Crashed(String),
}

/// The solver function (swappable so tests can make it slow or panic).
pub type SolveFn = fn(&Puzzle, &dyn Fn() -> bool) -> Result<Report, SolveError>;

/// The sliding solver function (swappable like [`SolveFn`]).
pub type SlidingSolveFn = fn(&SlidingPuzzle, &dyn Fn() -> bool) -> Result<SlidingReport, SlidingError>;

/// Makes what a sliding solve needs ready before it starts (swappable for
/// tests); the second argument hears how a pattern-database build goes.
/// Returns a note for the user when the cache misbehaved.
pub type PrepareFn = fn(&SlidingPuzzle, &dyn Fn(BuildProgress)) -> Option<String>;

/// What the engine tells the server about the pattern databases.
#[derive(Clone, Debug)]
pub enum TablesEvent {
    Progress(BuildProgress),
    /// Something the user should know (e.g. the cache file could not be written).
    Note(String),
}

/// The server's [`PrepareFn`]: the 4×4 pattern databases, when the block
/// may use them. Loading them from the disk cache takes a moment; building
/// them the first time takes seconds. That happens before the solve takes a
/// core and starts its time budget, and it is not cancelled with the solve
/// that asked for it (a short budget would otherwise throw the work away on
/// every edit): it finishes, is saved to the cache and is kept for the rest
/// of the session.
pub fn prepare_tables(p: &SlidingPuzzle, progress: &dyn Fn(BuildProgress)) -> Option<String> {
    if lights_compiler::sliding_check::needs_pattern_databases(p) {
        lights_compiler::sliding_check::prepare_pattern_databases(progress)
    } else {
        None
    }
}

/// An owned copy of a [`Job`] for the blocking task.
enum OwnedJob {
    Lights(Puzzle),
    Sliding(SlidingPuzzle),
}

type Slot = watch::Receiver<Option<Arc<Outcome>>>;

struct Entry {
    slot: Slot,
    cancel: Arc<AtomicBool>,
    last_used: u64,
}

/// Finished results kept beyond those open documents want.
const SPARE_RESULTS: usize = 256;

pub struct Engine {
    solve: SolveFn,
    solve_sliding: SlidingSolveFn,
    prepare: PrepareFn,
    /// Where the progress of a pattern-database build goes (the server
    /// shows it to the user).
    tables: mpsc::UnboundedSender<TablesEvent>,
    cache: Mutex<HashMap<Arc<SolveKey>, Entry>>,
    permits: Arc<Semaphore>,
    clock: AtomicU64,
    /// Solves started (for tests of the cache).
    started: AtomicU64,
}

impl Engine {
    pub fn new(
        solve: SolveFn,
        solve_sliding: SlidingSolveFn,
        prepare: PrepareFn,
        tables: mpsc::UnboundedSender<TablesEvent>,
    ) -> Engine {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Engine {
            solve,
            solve_sliding,
            prepare,
            tables,
            cache: Mutex::new(HashMap::new()),
            permits: Arc::new(Semaphore::new(cores)),
            clock: AtomicU64::new(0),
            started: AtomicU64::new(0),
        }
    }

    /// The outcome for `key`, or `None` while it is being solved (or was never asked for).
    pub fn outcome(&self, key: &SolveKey) -> Option<Arc<Outcome>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.get(key).and_then(|e| e.slot.borrow().clone())
    }

    pub fn solves_started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }

    /// Start solving `job` unless its answer is known or on its way;
    /// returns what to wait on.
    pub fn ensure(&self, key: &Arc<SolveKey>, job: Job<'_>, budget: Duration) -> Slot {
        let now = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = cache.get_mut(key) {
            entry.last_used = now;
            return entry.slot.clone();
        }
        // A board beyond the solver is declined at once, without copying it.
        if let Job::Lights(model) = job {
            let unknowns = model.locked.iter().filter(|&&l| !l).count();
            let limit = lights_compiler::solve::unknowns_limit(model.states);
            if unknowns > limit {
                let (_, rx) = watch::channel(Some(Arc::new(Outcome::Failed(SolveError::TooLarge { unknowns, limit }))));
                cache.insert(
                    key.clone(),
                    Entry { slot: rx.clone(), cancel: Arc::new(AtomicBool::new(false)), last_used: now },
                );
                return rx;
            }
        }
        let (tx, rx) = watch::channel(None);
        let cancel = Arc::new(AtomicBool::new(false));
        cache.insert(key.clone(), Entry { slot: rx.clone(), cancel: cancel.clone(), last_used: now });
        drop(cache);
        self.started.fetch_add(1, Ordering::Relaxed);
        let job = match job {
            Job::Lights(p) => OwnedJob::Lights(p.clone()),
            Job::Sliding(p) => OwnedJob::Sliding(p.clone()),
        };
        let (permits, solve, solve_sliding, prepare) =
            (self.permits.clone(), self.solve, self.solve_sliding, self.prepare);
        let tables = self.tables.clone();
        tokio::spawn(async move {
            if let OwnedJob::Sliding(p) = &job {
                // Outside the permits and the time budget (see `prepare_tables`).
                let (p, progress) = (p.clone(), tables.clone());
                let prepared = tokio::task::spawn_blocking(move || {
                    prepare(&p, &|b| {
                        let _ = progress.send(TablesEvent::Progress(b));
                    })
                })
                .await;
                match prepared {
                    Ok(Some(note)) => {
                        let _ = tables.send(TablesEvent::Note(note));
                    }
                    Ok(None) => {}
                    // A failed build: end any progress shown; the solve reports the rest.
                    Err(_) => {
                        let done = BuildProgress { stage: BuildStage::Finished, done: 0, total: 0 };
                        let _ = tables.send(TablesEvent::Progress(done));
                    }
                }
            }
            let Ok(_permit) = permits.acquire_owned().await else { return };
            if cancel.load(Ordering::Relaxed) {
                return; // dropping `tx` tells the waiters
            }
            let flag = cancel.clone();
            let joined = tokio::task::spawn_blocking(move || {
                let deadline = Instant::now() + budget;
                let stop = || flag.load(Ordering::Relaxed) || Instant::now() >= deadline;
                match job {
                    OwnedJob::Lights(model) => match solve(&model, &stop) {
                        Ok(report) => Some(Outcome::Solved(Arc::new(report))),
                        Err(SolveError::Cancelled) => None,
                        Err(e) => Some(Outcome::Failed(e)),
                    },
                    OwnedJob::Sliding(p) => match solve_sliding(&p, &stop) {
                        Ok(report) => Some(Outcome::SlidingSolved(Arc::new(report))),
                        Err(SlidingError::Cancelled) => None,
                        Err(e) => Some(Outcome::SlidingFailed(e)),
                    },
                }
            })
            .await;
            let outcome = match joined {
                Ok(Some(outcome)) => outcome,
                // Stopped: either nobody wants the answer any more, or the budget ran out.
                Ok(None) if cancel.load(Ordering::Relaxed) => return,
                Ok(None) => Outcome::TimedOut(budget),
                Err(e) if e.is_panic() => Outcome::Crashed(panic_message(e.into_panic())),
                Err(e) => Outcome::Crashed(e.to_string()),
            };
            let _ = tx.send(Some(Arc::new(outcome)));
        });
        rx
    }

    /// Cancel unfinished work on keys nobody wants, and forget old results
    /// beyond a few spare ones.
    pub fn retain(&self, wanted: &HashSet<Arc<SolveKey>>) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|key, entry| {
            let done = entry.slot.borrow().is_some();
            if !done && !wanted.contains(key) {
                entry.cancel.store(true, Ordering::Relaxed);
                return false;
            }
            true
        });
        let spare: usize = cache.keys().filter(|k| !wanted.contains(*k)).count();
        if spare > SPARE_RESULTS {
            let mut old: Vec<(u64, Arc<SolveKey>)> =
                cache.iter().filter(|(k, _)| !wanted.contains(*k)).map(|(k, e)| (e.last_used, k.clone())).collect();
            old.sort_by_key(|(used, _)| *used);
            for (_, k) in old.into_iter().take(spare - SPARE_RESULTS) {
                cache.remove(&k);
            }
        }
    }

    /// Forget results that depend on the time budget (after it changes).
    pub fn forget_timeouts(&self) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|_, e| !matches!(e.slot.borrow().as_deref(), Some(Outcome::TimedOut(_))));
    }
}

pub fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
