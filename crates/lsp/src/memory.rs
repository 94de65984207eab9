//! Giving memory back to the system. glibc's allocator gives every thread
//! that allocates under contention an arena of its own (up to 8 per core)
//! and keeps the memory each arena has grown to: the server's solves and
//! off-loop requests run on many threads, so every open, edit and close of
//! a large document left another arena's worth resident (10 cycles on a
//! 10,000² board: 25 MB → 86 MB, measured in `tests/lsp_memory.rs` of the
//! command line). With one arena the memory freed after a close is reused
//! and trimmed (12 MB, flat). Large buffers (boards, solutions) are mapped
//! on their own and never touch the arenas; small ones come from each
//! thread's cache first, so the one lock is not a bottleneck.

/// Allow one allocator arena for the process; call before threads start.
pub(crate) fn bound_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt takes no pointers; it only sets a tunable, and a
        // refused value (return 0) leaves the default in place.
        #[allow(unsafe_code)]
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

/// Return memory the allocator keeps after large results are freed (glibc
/// raises its mmap threshold after such frees, so later buffers come from
/// the heap and stay resident): without it a closed document's solutions
/// would stay in the server's resident memory.
pub(crate) fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: glibc's malloc_trim takes no pointers and may be called at
        // any time from any thread.
        #[allow(unsafe_code)]
        unsafe {
            libc::malloc_trim(0);
        }
    }
}
