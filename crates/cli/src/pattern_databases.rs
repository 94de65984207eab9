//! The 4×4 pattern databases, made ready before sliding blocks are solved.
//!
//! Solving a 4×4 sliding block optimally (and finishing larger boards) uses
//! pattern databases. The 6-6-3 tables take seconds to build and are kept
//! in the user's cache; without them the solver uses 5-5-5 tables it builds
//! in tenths of a second, and builds the 6-6-3 ones only for searches that
//! need them (see `lights_sliding::set_default_table_store`). [`prepare`]
//! loads cached tables and gives the solver the cache and a progress
//! display for that build: a solve itself has no progress hook.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lights_ide::Document;
use lights_sliding::{BuildProgress, BuildStage, TableStore, PDB_FILE_NAME};

/// The tables kept in a file between runs (the solver library keeps no
/// files itself: this is the store `lights` gives it, for `check`, `solve`
/// and the language server alike). Written atomically, so a reader never
/// sees half a file and an interrupted build leaves none.
pub(crate) struct CacheFile {
    path: PathBuf,
}

impl CacheFile {
    /// The file in the user's cache folder: `$LIGHTS_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/lights`, else `$HOME/.cache/lights` (relative or
    /// empty values are ignored); `None` when none is set.
    pub(crate) fn in_user_cache() -> Option<CacheFile> {
        let absolute = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|p| p.is_absolute());
        let dir = absolute("LIGHTS_CACHE_DIR")
            .or_else(|| absolute("XDG_CACHE_HOME").map(|d| d.join("lights")))
            .or_else(|| absolute("HOME").map(|d| d.join(".cache").join("lights")))?;
        Some(CacheFile::at(dir.join(PDB_FILE_NAME)))
    }

    pub(crate) fn at(path: impl Into<PathBuf>) -> CacheFile {
        CacheFile { path: path.into() }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// The largest cache file read: the tables take 11.5 MB (two tables of
/// 16·15·14·13·12·11 entries and one of 16·15·14, one byte each), so
/// anything larger is not ours.
pub(crate) const MAX_CACHE_BYTES: u64 = 32 << 20;

impl TableStore for CacheFile {
    /// The kept bytes, read only from a regular file (a FIFO or a device
    /// planted at the path must not hang or flood the solver) and only up
    /// to [`MAX_CACHE_BYTES`]; an error makes the caller rebuild the tables.
    fn load(&self) -> Result<Option<Vec<u8>>, String> {
        use std::io::Read;
        let (file, meta) = match crate::files::open_regular(&self.path) {
            Ok(opened) => opened,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                return Err("it is not a regular file (a folder, a FIFO, a socket or a device)".into())
            }
            Err(e) => return Err(crate::files::describe(&e)),
        };
        let too_large =
            || format!("it is larger than {}, more than the tables take", crate::files::show_size(MAX_CACHE_BYTES));
        if meta.len() > MAX_CACHE_BYTES {
            return Err(too_large());
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        // It may grow after the look: never read past the bound.
        file.take(MAX_CACHE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| crate::files::describe(&e))?;
        if bytes.len() as u64 > MAX_CACHE_BYTES {
            return Err(too_large());
        }
        Ok(Some(bytes))
    }

    fn save(&self, bytes: &[u8]) -> Result<(), String> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        }
        crate::safe_write::write_bytes(&self.path, bytes)
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }
}

/// Whether one of the document's valid blocks needs the tables to be
/// solved ([`lights_compiler::Block::needs_pattern_databases`], shared with
/// the language server).
pub(crate) fn document_needs_tables(doc: &Document) -> bool {
    needs_tables(doc, |_| true)
}

/// Whether one of the blocks `selected` keeps needs the tables.
pub(crate) fn needs_tables(doc: &Document, selected: impl Fn(usize) -> bool) -> bool {
    (0..doc.block_count()).any(|i| selected(i) && doc.block(i).is_some_and(|b| b.needs_pattern_databases()))
}

/// Set once [`prepare`] has run.
static READY: AtomicBool = AtomicBool::new(false);

/// Make the 6-6-3 tables' cache known to the solver (once per process):
/// tables cached by an earlier run are loaded now (quick, silent); without
/// them nothing is built here. The solver then answers with its quick 5-5-5
/// tables (tenths of a second), and builds the 6-6-3 ones — into the cache
/// — only if its searches run past their node budget. That build shows a
/// progress bar on standard error on a terminal, once it has taken half a
/// second; elsewhere (CI logs, pipes) it is announced by one line on
/// standard error. Standard output is never touched.
pub(crate) fn prepare() {
    if READY.swap(true, Ordering::AcqRel) {
        return;
    }
    let store = CacheFile::in_user_cache().map(Arc::new);
    if let Some(file) = &store {
        if lights_sliding::stored_pattern_databases(Some(&**file), &|_| {}).is_none() {
            // A file there that is not usable tables is replaced if they are built.
            if let Some(why) = unusable(file) {
                eprintln!("warning: 4×4 pattern databases: {} was not used, {why}", file.location());
            }
        }
    }
    let where_kept = match &store {
        Some(file) => format!("once; cached in {}", file.path().parent().unwrap_or(file.path()).display()),
        None => "no cache directory: set LIGHTS_CACHE_DIR to keep them".to_string(),
    };
    let terminal = std::io::stderr().is_terminal();
    // Made when the build starts: it shows once the build has run half a second.
    let bar = OnceLock::new();
    let announced = AtomicBool::new(false);
    let progress = move |p: BuildProgress| {
        let building = matches!(p.stage, BuildStage::Building { .. });
        if terminal {
            let bar = if building { Some(bar.get_or_init(new_bar)) } else { bar.get() };
            if let Some(bar) = bar {
                show(bar, p);
                if p.stage == BuildStage::Finished {
                    bar.finish_and_clear();
                }
            }
        } else if building && !announced.swap(true, Ordering::Relaxed) {
            eprintln!("building the 4×4 pattern databases for sliding puzzles ({where_kept})…");
        }
    };
    lights_sliding::set_default_table_store(store.map(|s| s as Arc<dyn TableStore>), Some(Arc::new(progress)));
}

/// Why the bytes in `file` are not usable tables (`None`: there are none,
/// or they are).
fn unusable(file: &CacheFile) -> Option<String> {
    match file.load() {
        Ok(None) => None,
        Ok(Some(bytes)) => lights_sliding::PatternDatabases::from_bytes(&bytes).err().map(|e| e.to_string()),
        Err(e) => Some(format!("cannot read it: {e}")),
    }
}

/// A hidden bar: [`show`] draws it once the work has run half a second.
fn new_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    // The bar takes the width left over, so the line fits an 80-column terminal.
    let template = "pattern databases: {msg} {wide_bar} {pos}/{len} · {elapsed}";
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("█▌ "));
    }
    bar
}

fn show(bar: &ProgressBar, p: BuildProgress) {
    if bar.length() != Some(p.total) {
        bar.set_length(p.total);
    }
    bar.set_position(p.done);
    bar.set_message(stage(p.stage));
    if bar.is_hidden() && bar.elapsed() > Duration::from_millis(500) && p.stage != BuildStage::Finished {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
}

/// What the bar says the tables are doing (the three are built at once).
fn stage(s: BuildStage) -> String {
    match s {
        BuildStage::Loading => "loading".to_string(),
        BuildStage::Building { finished, tables } => format!("building ({finished} of {tables} done)"),
        BuildStage::Saving => "saving".to_string(),
        BuildStage::Finished => "ready".to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lights-cache-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_cache_file_keeps_bytes_creates_its_folder_and_leaves_no_temporary_file() {
        let dir = scratch("round-trip");
        let file = CacheFile::at(dir.join("nested").join(PDB_FILE_NAME));
        assert_eq!(file.load(), Ok(None), "nothing kept yet");
        file.save(b"tables").unwrap();
        assert_eq!(file.load(), Ok(Some(b"tables".to_vec())));
        file.save(b"newer tables").unwrap();
        assert_eq!(file.load(), Ok(Some(b"newer tables".to_vec())));
        let names: Vec<_> = std::fs::read_dir(dir.join("nested")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![PDB_FILE_NAME]);
        assert!(file.location().ends_with(PDB_FILE_NAME));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Runs `f` on another thread; a hang fails the test instead of
    /// stalling it.
    fn within_a_minute<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || send.send(f()));
        receive.recv_timeout(std::time::Duration::from_secs(60)).unwrap_or_else(|_| panic!("{what} hung"))
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_planted_at_the_cache_path_is_refused_without_waiting() {
        let dir = scratch("fifo");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(PDB_FILE_NAME);
        crate::files::make_fifo(&path);
        let file = CacheFile::at(&path);
        // With `std::fs::read` this waits for a writer forever.
        let err = within_a_minute("loading from a FIFO", move || file.load()).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        // Saving refuses it too, without waiting for a reader, and leaves it be.
        let file = CacheFile::at(&path);
        assert!(within_a_minute("saving to a FIFO", move || file.save(b"tables")).is_err());
        assert!(std::fs::symlink_metadata(&path).unwrap().file_type().is_fifo());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_device_or_an_oversized_cache_file_is_not_read() {
        let dir = scratch("oversized");
        std::fs::create_dir_all(&dir).unwrap();
        // /dev/zero never ends: reading it would fill memory.
        let err = within_a_minute("loading /dev/zero", || CacheFile::at("/dev/zero").load()).unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
        // A sparse 4 GiB file: refused by its size, not read.
        let path = dir.join(PDB_FILE_NAME);
        std::fs::File::create(&path).unwrap().set_len(4 << 30).unwrap();
        let err = CacheFile::at(&path).load().unwrap_err();
        assert!(err.contains("larger than 32 MiB"), "{err}");
        // At the bound it is read (the tables then check their own size).
        std::fs::File::create(&path).unwrap().set_len(MAX_CACHE_BYTES).unwrap();
        assert_eq!(CacheFile::at(&path).load().unwrap().map(|b| b.len() as u64), Some(MAX_CACHE_BYTES));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_an_error_to_report() {
        let dir = scratch("unwritable");
        std::fs::create_dir_all(&dir).unwrap();
        // A file where the folder should be: nothing can be created under it.
        std::fs::write(dir.join("not-a-folder"), b"").unwrap();
        let file = CacheFile::at(dir.join("not-a-folder").join("lights").join(PDB_FILE_NAME));
        let err = file.save(b"tables").unwrap_err();
        assert!(err.contains("cannot create"), "{err}");
        // Reading fails too: the tables are then rebuilt, and a note says why.
        assert!(file.load().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
