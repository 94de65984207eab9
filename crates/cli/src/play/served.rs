//! The file `lights play` serves: its newest text, analysed, and the answers
//! of its blocks, each solved once however many requests ask for it.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Instant, SystemTime};

use lights_compiler::SolveOptions;
use lights_compiler::{Block, BlockKey};
use lights_ide::limits::TIME_BUDGET;
use lights_ide::play;
use lights_ide::{outcome_of, Answers, Document, Outcome};

use super::pool::SolvePool;
use crate::files;

/// What the file looked like when it was last read. The change time and
/// the inode (on Unix) catch what the modification time and length miss: a
/// `chmod` that makes the file readable, an edit of the same length whose
/// modification time was put back, a file replaced by another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    changed: (i64, i64),
    inode: u64,
}

impl Stamp {
    pub(super) fn of(path: &Path) -> Option<Stamp> {
        let m = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let (changed, inode) = {
            use std::os::unix::fs::MetadataExt;
            ((m.ctime(), m.ctime_nsec()), m.ino())
        };
        #[cfg(not(unix))]
        let (changed, inode) = ((0, 0), 0);
        Some(Stamp { modified: m.modified().ok(), len: m.len(), changed, inode })
    }
}

/// The file's text now, or why it cannot be read, and its stamp.
pub(super) fn read(path: &Path) -> (Option<Stamp>, Result<String, String>) {
    (Stamp::of(path), files::read(path))
}

/// The file's newest text, analysed.
pub(super) struct Loaded {
    /// Counts the texts served: 1 for the first, one more for every change.
    pub(super) version: u64,
    pub(super) stamp: Option<Stamp>,
    /// The text read, or why it could not be.
    pub(super) text: Result<String, String>,
    pub(super) doc: Arc<Document>,
}

/// Answers of blocks, by key, and the blocks being solved right now.
#[derive(Default)]
struct Solved {
    done: HashMap<BlockKey, Arc<Outcome>>,
    running: HashSet<BlockKey>,
}

pub(super) struct Served {
    /// How its blocks are solved (`--minimum-budget`, else the lights.toml
    /// found when the server started).
    options: SolveOptions,
    path: PathBuf,
    /// The file's name as the page shows it.
    pub(super) shown: String,
    /// `--puzzle NAME`: the page opens on the first block of that name.
    pub(super) start: Option<String>,
    loaded: Mutex<Loaded>,
    /// Held while the file is re-read (one reader at a time, so versions
    /// follow the order of the texts).
    reading: Mutex<()>,
    /// The answers of the newest text's blocks (and of those being solved).
    solved: Mutex<Solved>,
    /// Signalled whenever a solve ends.
    solve_ended: Condvar,
    /// Whether the blocks are being solved in the background (one pass at a time).
    background: AtomicBool,
    /// The addresses the server answers as (`127.0.0.1:PORT`, `localhost:PORT`).
    pub(super) hosts: Vec<String>,
    /// The solves requests may run at once.
    pub(super) pool: SolvePool,
    /// `--read-only`: the page may not write the file.
    pub(super) read_only: bool,
}

/// Why a position was not written into the file.
pub(super) enum WriteRefused {
    /// The file moved on from the version the position was played on (or
    /// changed on disk since it was last read): the version it is at now.
    Moved(u64),
    /// The text gives no place for the statement, or the position does not
    /// fit the board (the page's message).
    Unwritable(String),
    /// The write itself failed (the disk's reason).
    Failed(String),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Marks a block as no longer running when dropped, even if its solve
/// panicked, so that nobody waits for it forever.
struct Running<'a> {
    served: &'a Served,
    key: BlockKey,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        lock(&self.served.solved).running.remove(&self.key);
        self.served.solve_ended.notify_all();
    }
}

impl Served {
    pub(super) fn new(
        path: PathBuf,
        shown: String,
        start: Option<String>,
        loaded: Loaded,
        hosts: Vec<String>,
        pool: SolvePool,
        options: SolveOptions,
    ) -> Served {
        Served {
            options,
            path,
            shown,
            start,
            loaded: Mutex::new(loaded),
            reading: Mutex::new(()),
            solved: Mutex::new(Solved::default()),
            solve_ended: Condvar::new(),
            background: AtomicBool::new(false),
            hosts,
            pool,
            read_only: false,
        }
    }

    /// `--read-only`.
    pub(super) fn read_only(mut self, yes: bool) -> Served {
        self.read_only = yes;
        self
    }

    /// Replace the file's text by `rewrite(doc, text)` if the file is still
    /// at `version`, the text the position was played on. The reading lock is
    /// held from the check to the write, so no re-read comes in between, and
    /// the file's stamp must be the one its text was read at (a change on
    /// disk not read yet is a conflict too). The write goes through
    /// `safe_write` (the kernel opens the path; a temporary file renamed over
    /// it; mode and owner kept). Returns the version of the written text.
    pub(super) fn write_if_at(
        &self,
        version: u64,
        rewrite: impl FnOnce(&Document, &str) -> Result<String, String>,
    ) -> Result<u64, WriteRefused> {
        {
            let _one_reader = lock(&self.reading);
            let stamp = Stamp::of(&self.path);
            let (doc, text) = {
                let loaded = lock(&self.loaded);
                if loaded.version != version || stamp.is_none() || loaded.stamp != stamp {
                    return Err(WriteRefused::Moved(loaded.version));
                }
                let Ok(text) = &loaded.text else {
                    return Err(WriteRefused::Moved(loaded.version));
                };
                (loaded.doc.clone(), text.clone())
            };
            let new = rewrite(&doc, &text).map_err(WriteRefused::Unwritable)?;
            crate::safe_write::write_text(&self.path, &new).map_err(WriteRefused::Failed)?;
        }
        // Served as the next version at once (the page asks for it next).
        self.refresh(true);
        Ok(self.current().1)
    }

    /// Re-read the file if its stamp changed, or if it could not be read
    /// last time; a new text is a new version. When another read is under
    /// way, a request does not wait for it (`wait` false) and is answered
    /// from the text served now: a read that never ends (a file on a hung
    /// mount) cannot take every request down with it.
    pub(super) fn refresh(&self, wait: bool) {
        let _one_reader = match self.reading.try_lock() {
            Ok(guard) => guard,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) if wait => lock(&self.reading),
            Err(std::sync::TryLockError::WouldBlock) => return,
        };
        let stamp = Stamp::of(&self.path);
        {
            let loaded = lock(&self.loaded);
            if stamp.is_some() && loaded.stamp == stamp && loaded.text.is_ok() {
                return;
            }
            if stamp.is_none() && loaded.stamp.is_none() && loaded.text.is_err() {
                return; // still missing
            }
        }
        // The stamp was taken before the read: a change in between is seen next
        // time. The read decides on the file it opened (never a FIFO).
        let text = files::read(&self.path);
        {
            let mut loaded = lock(&self.loaded);
            loaded.stamp = stamp;
            if loaded.text == text {
                return;
            }
        }
        // Analysed before the new text is served (the old one is served meanwhile).
        let doc = Arc::new(Document::new(text.as_deref().unwrap_or("")).with_options(self.options));
        let mut loaded = lock(&self.loaded);
        loaded.version += 1;
        loaded.text = text;
        loaded.doc = doc.clone();
        drop(loaded);
        // Keep the answers the new text still has a use for.
        let keys: HashSet<BlockKey> = doc.keys().collect();
        lock(&self.solved).done.retain(|k, _| keys.contains(k));
    }

    /// The newest text's document and its version.
    pub(super) fn current(&self) -> (Arc<Document>, u64) {
        let loaded = lock(&self.loaded);
        (loaded.doc.clone(), loaded.version)
    }

    /// What is wrong with the file outside its puzzles: it cannot be read,
    /// or has errors outside every block (the first is told).
    pub(super) fn file_error(&self, doc: &Document) -> Option<String> {
        if let Err(e) = &lock(&self.loaded).text {
            return Some(e.clone());
        }
        let errors: Vec<_> = doc.analysis().file_diagnostics.iter().filter(|d| d.is_error()).collect();
        let first = errors.first()?;
        let line = doc.lines().line(first.span.start) + 1;
        let n = errors.len();
        let count = if n == 1 { "an error".to_string() } else { format!("{n} errors") };
        Some(format!("`{}` has {count} outside its puzzles: line {line}: {}", self.shown, first.message))
    }

    /// The answers of `doc`'s blocks known now.
    pub(super) fn known(&self, doc: &Document) -> Known {
        let solved = lock(&self.solved);
        Known(doc.keys().filter_map(|k| Some((k, solved.done.get(&k)?.clone()))).collect())
    }

    /// Whether block `index` of the text served now is to be solved (it is
    /// played and its answer is not known yet).
    pub(super) fn needs_solving(&self, index: usize) -> bool {
        let (doc, _) = self.current();
        let Some(key) = doc.key(index) else { return false };
        play::wants_solving(&doc, index) && !lock(&self.solved).done.contains_key(&key)
    }

    /// Solve the playable blocks among `which` whose answer is not known
    /// (each within the time budget, and each once: a block another request
    /// is solving is waited for), and return the answers of `doc`.
    pub(super) fn answers(&self, doc: &Document, which: impl Iterator<Item = usize>) -> Known {
        for i in which.filter(|&i| play::wants_solving(doc, i)) {
            if let (Some(block), Some(key)) = (doc.block(i), doc.key(i)) {
                self.solve_once(block, key);
            }
        }
        self.known(doc)
    }

    fn solve_once(&self, block: &Block, key: BlockKey) {
        let mut solved = lock(&self.solved);
        loop {
            if solved.done.contains_key(&key) {
                return;
            }
            if !solved.running.contains(&key) {
                break;
            }
            solved = self.solve_ended.wait(solved).unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        solved.running.insert(key);
        drop(solved);
        let _running = Running { served: self, key };
        let start = Instant::now();
        let outcome = outcome_of(Block::solve_with, block, &self.options, &|| start.elapsed() > TIME_BUDGET)
            .unwrap_or(Outcome::TimedOut(TIME_BUDGET));
        lock(&self.solved).done.insert(key, Arc::new(outcome));
    }

    /// Solve every block of the newest text on a thread of its own, one at a
    /// time, unless such a pass is already running; a pass that ends on a
    /// text that has changed since goes on with the new one.
    pub(super) fn solve_in_background(self: &Arc<Self>) {
        if self.background.swap(true, Ordering::AcqRel) {
            return;
        }
        let served = self.clone();
        tokio::task::spawn_blocking(move || loop {
            let (doc, version) = served.current();
            served.answers(&doc, 0..doc.block_count());
            served.background.store(false, Ordering::Release);
            if served.current().1 == version || served.background.swap(true, Ordering::AcqRel) {
                break;
            }
        });
    }
}

/// Answers known for one document.
pub(super) struct Known(HashMap<BlockKey, Arc<Outcome>>);

impl Answers for Known {
    fn outcome(&self, key: &BlockKey) -> Option<Arc<Outcome>> {
        self.0.get(key).cloned()
    }
}
