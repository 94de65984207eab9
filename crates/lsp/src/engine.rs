//! Solving off the async runtime, cached by what a block means.
//!
//! Each block is solved in a blocking task, at most one per core at a time,
//! by the same solver as `lights check` ([`lights_ide::outcome_of`]).
//! Results are keyed by the block's [`BlockKey`] (a hash of everything the
//! answer depends on), so editing one puzzle of a level pack, an `expect`
//! line or a comment re-solves nothing else. Work that no open document
//! wants any more is cancelled; a solve that overruns the time budget stops
//! and is remembered as timed out. The engine has no limits of its own: a
//! board the command line solves is solved here too.
//!
//! Memory: results that open documents want are kept; the others (results
//! of versions typed over, of other files) are kept within a byte budget
//! (`lights.cache.budgetMb`, 256 MB by default), least recently used first
//! out; closing a document drops every result no open document wants.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lights_compiler::sliding_check::{BuildProgress, BuildStage, TableStore};
use lights_compiler::{Block, BlockKey, SolveOptions};
use lights_ide::{outcome_of, Answers, Outcome, SolveFn};
use tokio::sync::{mpsc, watch, Semaphore};

use crate::memory::release_free_memory;

/// Makes what a solve needs ready before it starts (swappable for tests):
/// the block, where the pattern databases are kept between runs (the
/// store the binary gives the server), and what hears how a build goes.
/// Returns a note for the user when the store misbehaved.
pub type PrepareFn = fn(&Block, Option<&dyn TableStore>, &dyn Fn(BuildProgress)) -> Option<String>;

/// What the engine tells the server about the pattern databases.
#[derive(Clone, Debug)]
pub(crate) enum TablesEvent {
    Progress(BuildProgress),
    /// Something the user should know (e.g. the cache file could not be written).
    Note(String),
}

/// The server's [`PrepareFn`]: the 4×4 pattern databases, when the block
/// may use them. Loading them from the disk cache takes a moment; building
/// them the first time takes seconds. That happens before the solve takes a
/// core and starts its time budget, and it is not cancelled with the solve
/// that asked for it (a short budget would otherwise throw the work away on
/// every edit): it finishes, is stored and is kept for the rest of the
/// session.
pub fn prepare_tables(
    block: &Block,
    store: Option<&dyn TableStore>,
    progress: &dyn Fn(BuildProgress),
) -> Option<String> {
    if block.needs_pattern_databases() {
        lights_compiler::sliding_check::prepare_pattern_databases(store, progress)
    } else {
        None
    }
}

type Slot = watch::Receiver<Option<Arc<Outcome>>>;

struct Entry {
    slot: Slot,
    cancel: Arc<AtomicBool>,
    last_used: u64,
}

/// Finished results kept beyond those open documents want.
const SPARE_RESULTS: usize = 256;

pub(crate) struct Engine {
    solve: SolveFn,
    prepare: PrepareFn,
    /// Where the pattern databases are kept between runs.
    store: Option<Arc<dyn TableStore>>,
    /// Where the progress of a pattern-database build goes (the server
    /// shows it to the user).
    tables: mpsc::UnboundedSender<TablesEvent>,
    cache: Mutex<HashMap<BlockKey, Entry>>,
    permits: Arc<Semaphore>,
    clock: AtomicU64,
    /// Solves started (for tests of the cache).
    started: AtomicU64,
    /// Solves running on a core now (for tests of cancellation).
    running: Arc<AtomicUsize>,
    /// Bytes of finished results kept beyond those open documents want.
    budget: AtomicUsize,
}

/// The default of [`Engine::set_budget`]: 256 MB.
pub(crate) const DEFAULT_BUDGET_BYTES: usize = 256 << 20;

/// Bytes an entry's result holds (0 while it is being solved).
fn entry_bytes(e: &Entry) -> usize {
    e.slot.borrow().as_ref().map_or(0, |o| o.heap_bytes())
}

impl Answers for Engine {
    fn outcome(&self, key: &BlockKey) -> Option<Arc<Outcome>> {
        let cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.get(key).and_then(|e| e.slot.borrow().clone())
    }
}

impl Engine {
    pub(crate) fn new(
        solve: SolveFn,
        prepare: PrepareFn,
        store: Option<Arc<dyn TableStore>>,
        tables: mpsc::UnboundedSender<TablesEvent>,
    ) -> Engine {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Engine {
            solve,
            prepare,
            store,
            tables,
            cache: Mutex::new(HashMap::new()),
            permits: Arc::new(Semaphore::new(cores)),
            clock: AtomicU64::new(0),
            started: AtomicU64::new(0),
            running: Arc::default(),
            budget: AtomicUsize::new(DEFAULT_BUDGET_BYTES),
        }
    }

    /// How many bytes of results nobody wants to keep.
    pub(crate) fn set_budget(&self, bytes: usize) {
        self.budget.store(bytes, Ordering::Relaxed);
    }

    /// Bytes held by all finished results in the cache.
    pub(crate) fn cache_bytes(&self) -> usize {
        let cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.values().map(entry_bytes).sum()
    }

    /// Forget every result and cancel all work that no open document wants
    /// (after a document is closed), and give the freed memory back.
    pub(crate) fn keep_only(&self, wanted: &HashSet<BlockKey>) {
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.retain(|key, entry| {
            let keep = wanted.contains(key);
            if !keep {
                entry.cancel.store(true, Ordering::Relaxed);
            }
            keep
        });
        drop(cache);
        release_free_memory();
    }

    /// Forget the results of `keys` and cancel their work (their time
    /// budget changed: they are solved again within the new one).
    pub(crate) fn forget(&self, keys: &HashSet<BlockKey>) {
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.retain(|key, entry| {
            let forget = keys.contains(key);
            if forget {
                entry.cancel.store(true, Ordering::Relaxed);
            }
            !forget
        });
    }

    pub(crate) fn solves_started(&self) -> u64 {
        self.started.load(Ordering::Relaxed)
    }

    pub(crate) fn solves_running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Start solving `block` with `options` unless its answer is known or
    /// on its way (a time-out within a shorter budget than `budget` is not
    /// an answer); returns what to wait on. `key` is the block's key under
    /// `options` ([`Block::key_with`], as the document holds it).
    pub(crate) fn ensure(&self, key: BlockKey, block: &Arc<Block>, options: &SolveOptions, budget: Duration) -> Slot {
        let now = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(entry) = cache.get_mut(&key) {
            // Timed out within a shorter budget (another lights.toml's): solve again.
            let shorter = matches!(entry.slot.borrow().as_deref(), Some(Outcome::TimedOut(b)) if *b < budget);
            if !shorter {
                entry.last_used = now;
                return entry.slot.clone();
            }
        }
        let (tx, rx) = watch::channel(None);
        let cancel = Arc::new(AtomicBool::new(false));
        cache.insert(key, Entry { slot: rx.clone(), cancel: cancel.clone(), last_used: now });
        drop(cache);
        self.started.fetch_add(1, Ordering::Relaxed);
        let (permits, solve, prepare, tables) = (self.permits.clone(), self.solve, self.prepare, self.tables.clone());
        let (block, store, options) = (block.clone(), self.store.clone(), *options);
        let self_running = self.running.clone();
        tokio::spawn(async move {
            // Outside the permits and the time budget (see `prepare_tables`).
            let (ready, progress) = (block.clone(), tables.clone());
            let prepared = tokio::task::spawn_blocking(move || {
                prepare(&ready, store.as_deref(), &|b| {
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
            let Ok(_permit) = permits.acquire_owned().await else { return };
            if cancel.load(Ordering::Relaxed) {
                return; // dropping `tx` tells the waiters
            }
            let flag = cancel.clone();
            let running = self_running;
            let joined = tokio::task::spawn_blocking(move || {
                let _running = Running::enter(running);
                let deadline = Instant::now() + budget;
                let stop = || flag.load(Ordering::Relaxed) || Instant::now() >= deadline;
                outcome_of(solve, &block, &options, &stop)
            })
            .await;
            let outcome = match joined {
                Ok(Some(outcome)) => outcome,
                // Stopped: either nobody wants the answer any more, or the budget ran out.
                Ok(None) if cancel.load(Ordering::Relaxed) => return,
                Ok(None) => Outcome::TimedOut(budget),
                Err(e) => Outcome::Crashed(e.to_string()),
            };
            let _ = tx.send(Some(Arc::new(outcome)));
        });
        rx
    }

    /// Run other solver work (play-testing's solve from a position) as a
    /// block's solve runs: off the runtime, on one of the engine's cores.
    /// `None` when the work panicked (the caller reports it).
    pub(crate) async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let _permit = self.permits.clone().acquire_owned().await.ok()?;
        tokio::task::spawn_blocking(work).await.ok()
    }

    /// Cancel unfinished work on keys nobody wants, and forget the least
    /// recently used results nobody wants beyond a few spare ones or beyond
    /// the byte budget.
    pub(crate) fn retain(&self, wanted: &HashSet<BlockKey>) {
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.retain(|key, entry| {
            let done = entry.slot.borrow().is_some();
            if !done && !wanted.contains(key) {
                entry.cancel.store(true, Ordering::Relaxed);
                return false;
            }
            true
        });
        let mut spare: Vec<(u64, BlockKey, usize)> = cache
            .iter()
            .filter(|(k, _)| !wanted.contains(*k))
            .map(|(k, e)| (e.last_used, *k, entry_bytes(e)))
            .collect();
        let budget = self.budget.load(Ordering::Relaxed);
        let (mut count, mut bytes) = (spare.len(), spare.iter().map(|s| s.2).sum::<usize>());
        if count > SPARE_RESULTS || bytes > budget {
            spare.sort_by_key(|(used, _, _)| *used);
            for (_, k, b) in spare {
                if count <= SPARE_RESULTS && bytes <= budget {
                    break;
                }
                cache.remove(&k);
                count -= 1;
                bytes -= b;
            }
        }
    }

    /// Forget results that depend on the time budget (after it changes).
    pub(crate) fn forget_timeouts(&self) {
        let mut cache = self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.retain(|_, e| !matches!(e.slot.borrow().as_deref(), Some(Outcome::TimedOut(_))));
    }
}

/// Counts a solve as running while it is alive (also when the solver panics).
struct Running(Arc<AtomicUsize>);

impl Running {
    fn enter(count: Arc<AtomicUsize>) -> Running {
        count.fetch_add(1, Ordering::SeqCst);
        Running(count)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}
