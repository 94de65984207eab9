//! Issue 25 item 9: a document of many broken blocks is held in memory
//! bounded by its text (200,000 unclosed blocks peaked at 1.96 GB in the
//! language server). The analysis's own ceilings, per family of broken file,
//! are in crates/compiler/tests/broken_files_memory.rs; here the document
//! (analysis, line index, block keys) on the two families with the most
//! blocks and the most diagnostics.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Tests run on threads of one process: one measurement at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(now, Relaxed);
        // SAFETY: the caller's layout is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let now = LIVE.fetch_add(new_size, Relaxed) + new_size;
        PEAK.fetch_max(now, Relaxed);
        // SAFETY: as for `alloc` and `dealloc`.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        LIVE.fetch_sub(layout.size(), Relaxed);
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak bytes allocated by `Document::new` on `src` (the text itself not
/// counted: it is the caller's), as a multiple of the text's length.
fn peak_of(family: &str, src: String) -> f64 {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let len = src.len();
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let doc = lights_ide::Document::new(src);
    let peak = PEAK.load(Relaxed) - before;
    assert!(doc.block_count() > 0);
    drop(doc);
    let ratio = peak as f64 / len as f64;
    eprintln!("{family}: {len} bytes, peak {peak} bytes ({ratio:.1}×)");
    ratio
}

const N: usize = 50_000;

#[test]
fn a_document_of_unclosed_blocks() {
    let src: String = (0..N).map(|i| format!("puzzle \"a{i}\" {{\n")).collect();
    let ratio = peak_of("unclosed blocks", src);
    assert!(ratio <= 90.0, "{ratio:.1}×");
}

#[test]
fn a_document_of_misspelt_statement_lines() {
    let src = format!("puzzle \"a\" {{\n{}", "lightz {\n".repeat(N));
    let ratio = peak_of("lightz { lines", src);
    assert!(ratio <= 80.0, "{ratio:.1}×");
}
