//! Progress on standard error for work that may be long (a solve with a
//! long `--minimum-budget`, a level pack, a table): only on a terminal, only
//! once the work has run half a second (short runs never flash a line), and
//! cleared when it ends. Standard output, pipes and CI logs never see it.
//!
//! The line appears from a thread of its own, so it appears (and its clock
//! runs) even while one long solve gives no sign of life.

use std::io::IsTerminal;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long work runs before its progress appears.
const DELAY: Duration = Duration::from_millis(500);
/// How often a shown line is redrawn (its spinner and clock).
const TICK: Duration = Duration::from_millis(120);

/// A progress line: a bar when the amount of work is known, a spinner
/// otherwise. Dropping it (or [`Progress::finish`]) clears it.
pub(crate) struct Progress {
    shown: Option<Shown>,
}

struct Shown {
    bar: ProgressBar,
    /// Set when the work ends; the thread that shows the line waits on it.
    done: Arc<(Mutex<bool>, Condvar)>,
    reveal: Option<JoinHandle<()>>,
}

impl Progress {
    /// A bar counting `unit`s (its length is given by [`Progress::update`]
    /// or [`Progress::set_length`]).
    pub(crate) fn new(unit: &'static str) -> Progress {
        Progress::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {unit} · {{elapsed}} (eta {{eta}})"), Some(0))
    }

    /// A bar counting `unit`s without an estimate of the time left (for
    /// work whose items take very different times, such as puzzles).
    pub(crate) fn tally(unit: &'static str) -> Progress {
        Progress::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {unit} · {{elapsed}}"), Some(0))
    }

    /// A spinner with the time the work has taken and a message (see
    /// [`Progress::set_message`]).
    pub(crate) fn spinner() -> Progress {
        // `wide_msg`: cut at the terminal's width (a name may be long).
        Progress::with_template("{spinner} {elapsed:>4} {wide_msg}", None)
    }

    /// Nothing shown, whatever happens (`--quiet`).
    pub(crate) fn hidden() -> Progress {
        Progress { shown: None }
    }

    fn with_template(template: &str, length: Option<u64>) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("█▌ ").tick_chars("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏ "));
        }
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let reveal = {
            let (bar, done) = (bar.clone(), Arc::clone(&done));
            // The line is switched on under the lock that `finish` takes, so
            // a line cleared by `finish` is never drawn again.
            std::thread::Builder::new()
                .name("progress".into())
                .spawn(move || {
                    let (lock, ended) = &*done;
                    let Ok(guard) = lock.lock() else { return };
                    let Ok((guard, _)) = ended.wait_timeout_while(guard, DELAY, |done| !*done) else { return };
                    if !*guard {
                        bar.set_draw_target(ProgressDrawTarget::stderr());
                        bar.enable_steady_tick(TICK);
                    }
                })
                .ok()
        };
        Progress { shown: Some(Shown { bar, done, reveal }) }
    }

    /// `done` of `total` units.
    pub(crate) fn update(&self, done: u64, total: u64) {
        if let Some(s) = &self.shown {
            if s.bar.length() != Some(total) {
                s.bar.set_length(total);
            }
            if done > s.bar.position() {
                s.bar.set_position(done);
            }
        }
    }

    pub(crate) fn set_length(&self, total: u64) {
        if let Some(s) = &self.shown {
            s.bar.set_length(total);
        }
    }

    /// One more unit done (from any thread).
    pub(crate) fn inc(&self) {
        if let Some(s) = &self.shown {
            s.bar.inc(1);
        }
    }

    pub(crate) fn set_message(&self, message: String) {
        if let Some(s) = &self.shown {
            s.bar.set_message(message);
        }
    }

    /// Runs `f` (which prints to the terminal) with the line out of its way.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.shown {
            Some(s) => s.bar.suspend(f),
            None => f(),
        }
    }

    /// Clears the line (it is not shown again).
    pub(crate) fn finish(&mut self) {
        if let Some(mut s) = self.shown.take() {
            let (lock, ended) = &*s.done;
            if let Ok(mut done) = lock.lock() {
                *done = true;
            }
            ended.notify_all();
            if let Some(reveal) = s.reveal.take() {
                let _ = reveal.join();
            }
            s.bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
