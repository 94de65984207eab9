//! What the front ends that serve a file while it is edited (the language
//! server, `lights play`) share, so that neither decides it on its own: the
//! editor's time budget; the caps on the diagnostics published, and on the
//! symbols and the formatting edits answered, per document; the internal
//! error (L0302) that stands in for a crashed analysis; and the flag that
//! stops a request's solve when its request is dropped.
//!
//! `lights check` applies none of these limits: it has no time budget unless
//! a `lights.toml` sets `time-budget-ms`, and it lists every problem (a
//! terminal or a report file takes them all; an editor's problem list would
//! stall on a million).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use lights_syntax::Span;

use crate::internal::internal_error;
pub use crate::internal::panic_message;
use crate::Problem;

/// How long one solve may take in the editor (`lights.solver.timeBudgetMs`
/// unless set, and `time-budget-ms` of a `lights.toml` overrides it) and in
/// `lights play`.
pub const TIME_BUDGET: Duration = Duration::from_secs(10);

/// At most this many diagnostics are published per document: the first
/// `MAX_DIAGNOSTICS - 1` problems, then one note for the rest (see [`cap`]).
pub const MAX_DIAGNOSTICS: usize = 500;

/// At most this many document symbols are answered, then one that stands
/// for the rest ([`symbols_at_most`](crate::symbols_at_most)).
pub const MAX_SYMBOLS: usize = 5_000;

/// At most this many edits answer a formatting request: a file reformatted
/// throughout gets one edit from its first change to its last instead of
/// one per line.
pub const MAX_FORMATTING_EDITS: usize = 1_000;

/// The problems of a document as an editor shows them ([`cap`]).
#[derive(Debug)]
pub struct Capped {
    /// The problems shown, in source order.
    pub shown: Vec<Problem>,
    /// How many were left out (0: none).
    pub hidden: usize,
}

impl Capped {
    /// The note that stands for the problems left out, when some were.
    pub fn note(&self) -> Option<String> {
        (self.hidden > 0).then(|| format!("{} more problems are not shown; `lights check` lists them all", self.hidden))
    }
}

/// At most [`MAX_DIAGNOSTICS`] diagnostics: all of them when they fit, else
/// the first `MAX_DIAGNOSTICS - 1` and a note (which takes the last place)
/// saying how many more there are. Only what is shown is converted by the
/// front end (a file may have a million problems).
pub fn cap(mut problems: Vec<Problem>) -> Capped {
    let more = problems.len().saturating_sub(MAX_DIAGNOSTICS - 1);
    if more > 1 {
        problems.truncate(MAX_DIAGNOSTICS - 1);
        Capped { shown: problems, hidden: more }
    } else {
        Capped { shown: problems, hidden: 0 }
    }
}

/// The problems `find` lists, or, when it panics, one internal error (L0302)
/// at the top of the file instead: the front end keeps serving.
pub fn problems_or_internal_error(find: impl FnOnce() -> Vec<Problem>) -> Vec<Problem> {
    catch_unwind(AssertUnwindSafe(find)).unwrap_or_else(|payload| {
        let diagnostic = internal_error(Span::new(0, 0), "this file", &panic_message(payload));
        vec![Problem { diagnostic, related: Vec::new() }]
    })
}

/// Sets its flag when dropped. A request's future is dropped when the
/// client cancels it or goes away; a solve that watches the flag stops then.
#[derive(Debug)]
pub struct StopOnDrop(Arc<AtomicBool>);

impl StopOnDrop {
    /// A guard and the flag it sets.
    pub fn new() -> (StopOnDrop, Arc<AtomicBool>) {
        let flag = Arc::new(AtomicBool::new(false));
        (StopOnDrop(flag.clone()), flag)
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lights_compiler::diagnostic::{Code, Diagnostic};

    fn problems(n: usize) -> Vec<Problem> {
        let d = Diagnostic::error(Code::MissingSize, Span::new(0, 0), "no size");
        vec![Problem { diagnostic: d, related: Vec::new() }; n]
    }

    #[test]
    fn the_cap_shows_everything_that_fits_and_a_note_for_the_rest() {
        for n in [0, 1, MAX_DIAGNOSTICS - 1, MAX_DIAGNOSTICS] {
            let capped = cap(problems(n));
            assert_eq!((capped.shown.len(), capped.hidden, capped.note()), (n, 0, None), "{n}");
        }
        let capped = cap(problems(MAX_DIAGNOSTICS + 1));
        assert_eq!((capped.shown.len(), capped.hidden), (MAX_DIAGNOSTICS - 1, 2));
        let capped = cap(problems(10_000));
        assert_eq!(capped.shown.len() + 1, MAX_DIAGNOSTICS);
        assert_eq!(capped.note().unwrap(), "9501 more problems are not shown; `lights check` lists them all");
    }

    #[test]
    fn a_panic_becomes_one_internal_error_on_the_file() {
        let found = problems_or_internal_error(|| panic!("boom"));
        assert_eq!(found.len(), 1);
        let d = &found[0].diagnostic;
        assert_eq!((d.code, d.span), (Code::InternalError, Span::new(0, 0)));
        assert_eq!(d.message, "internal error while analysing this file: boom");
        assert_eq!(problems_or_internal_error(|| problems(3)).len(), 3);
    }

    #[test]
    fn dropping_the_guard_sets_the_flag() {
        let (guard, flag) = StopOnDrop::new();
        assert!(!flag.load(Ordering::Relaxed));
        drop(guard);
        assert!(flag.load(Ordering::Relaxed));
    }
}
