//! A global allocator that counts the bytes live and their peak, for the
//! tests that bound memory per byte of input (`#[path]`-included by the ide
//! crate's tests too). A test binary installs it with
//! `#[global_allocator] static ALLOCATOR: counting::Counting = counting::Counting;`
//! and measures with [`peak_bytes`].

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

pub(crate) struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// One measurement at a time: tests of a binary run on several threads, and
/// each would count the others' allocations.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

// SAFETY: every call is passed on to the system allocator unchanged; the
// counters are atomics and never touch the memory.
#[allow(unsafe_code)]
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
        // Counted as the new block allocated before the old one is freed,
        // the worst a reallocation can cost.
        let now = LIVE.fetch_add(new_size, Relaxed) + new_size;
        PEAK.fetch_max(now, Relaxed);
        // SAFETY: as for `alloc` and `dealloc`.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        LIVE.fetch_sub(layout.size(), Relaxed);
        new
    }
}

/// `work()`'s result and the most bytes it had allocated at once (beyond
/// what was live when it started).
pub(crate) fn peak_bytes<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let result = work();
    let peak = PEAK.load(Relaxed).saturating_sub(before);
    (result, peak)
}
