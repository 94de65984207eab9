//! The 4×4 pattern databases, made ready before sliding blocks are solved.
//!
//! Solving a 4×4 sliding block optimally (and finishing larger boards) needs
//! tables that take a few seconds to build the first time, then load from
//! the user's cache. A solve has no progress hook, but
//! `lights_sliding::pattern_databases` keeps the tables in memory for the
//! rest of the process: preparing them here first, with a progress bar,
//! lets the solves that follow find them at once.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lights_ide::Document;
use lights_sliding::{BuildProgress, BuildStage, PdbSource};

/// Whether one of the document's valid blocks needs the tables to be
/// solved ([`lights_compiler::Block::needs_pattern_databases`], shared with
/// the language server).
pub fn document_needs_tables(doc: &Document) -> bool {
    needs_tables(doc, |_| true)
}

/// Whether one of the blocks `selected` keeps needs the tables.
pub fn needs_tables(doc: &Document, selected: impl Fn(usize) -> bool) -> bool {
    (0..doc.block_count()).any(|i| selected(i) && doc.block(i).is_some_and(|b| b.needs_pattern_databases()))
}

/// Set once the tables are in this process's memory.
static READY: AtomicBool = AtomicBool::new(false);

/// Load or build the tables (once per process). On a terminal a progress bar
/// on standard error shows the stage and the entries filled, once the work
/// has taken half a second (a load from the cache never shows one).
/// Elsewhere (CI logs, pipes) a build is announced by one line on standard
/// error; a load says nothing. Standard output is never touched.
pub fn prepare() {
    if READY.load(Ordering::Acquire) {
        return;
    }
    let cache_dir = lights_sliding::default_cache_dir();
    let where_kept = match &cache_dir {
        Some(dir) => format!("once; cached in {}", dir.display()),
        None => "no cache directory: set LIGHTS_CACHE_DIR to keep them".to_string(),
    };
    let bar = std::io::stderr().is_terminal().then(new_bar);
    let announced = AtomicBool::new(false);
    let progress = |p: BuildProgress| match &bar {
        Some(bar) => show(bar, p),
        None => {
            if matches!(p.stage, BuildStage::Building { .. }) && !announced.swap(true, Ordering::Relaxed) {
                eprintln!("building the 4×4 pattern databases for sliding puzzles ({where_kept})…");
            }
        }
    };
    // Nothing cancels: an interrupted build leaves no file (it is written
    // atomically), and the next run starts again.
    let result = lights_sliding::pattern_databases(None, true, &progress, &|| false);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Ok((_, PdbSource::Built { note: Some(note), .. })) = &result {
        eprintln!("warning: 4×4 pattern databases: {note}");
    }
    READY.store(result.is_ok(), Ordering::Release);
}

/// A hidden bar: [`show`] draws it once the work has run half a second.
fn new_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    // The bar takes the width left over, so the line fits an 80-column terminal.
    let template = "pattern databases: {msg} {wide_bar} {human_pos}/{human_len} · {elapsed}";
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
