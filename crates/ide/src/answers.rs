//! Where the answers of a document's blocks come from. The features read
//! them through [`Answers`]: the language server's engine solves in the
//! background and answers as results arrive; [`Solved`] solves every block
//! at once (the command line, tests). Both run the same solver through
//! [`outcome_of`], so they give the same outcome for the same block.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use lights_compiler::{Block, BlockKey, BlockReport, SolveError, SolveOptions};

use crate::document::Document;
use crate::internal::panic_message;

/// How a solve ended.
#[derive(Debug)]
pub enum Outcome {
    Solved(Arc<BlockReport>),
    /// The solver declined (too large) or failed a self-check.
    Failed(SolveError),
    /// Stopped after the time budget (the language server's).
    TimedOut(Duration),
    /// The solver panicked; the message.
    Crashed(String),
}

impl Outcome {
    /// Bytes the outcome holds (what a cache of outcomes accounts for).
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of::<Outcome>()
            + match self {
                Outcome::Solved(r) => std::mem::size_of::<BlockReport>() + r.heap_bytes(),
                Outcome::Crashed(msg) => msg.capacity(),
                Outcome::Failed(_) | Outcome::TimedOut(_) => 0,
            }
    }
}

/// Where a block's answer stands.
#[derive(Debug)]
pub enum BlockState {
    /// The block has this many errors (syntax or meaning): it is not solved.
    Errors(usize),
    /// Valid, and its answer is not known yet.
    Solving,
    Done(Arc<Outcome>),
}

/// A source of answers, by block key.
pub trait Answers {
    /// The outcome for `key`, or `None` while it is unknown.
    fn outcome(&self, key: &BlockKey) -> Option<Arc<Outcome>>;
}

/// A solver (the compiler's [`Block::solve_with`]; swappable so tests can
/// make it slow or panic), given the document's [`SolveOptions`].
pub type SolveFn = fn(&Block, &SolveOptions, &dyn Fn() -> bool) -> Result<BlockReport, SolveError>;

/// Run `solve` on a block with `options`: the report, the solver's refusal,
/// or its panic as [`Outcome::Crashed`]. `None` when `stop` ended the solve
/// (a cancelled or timed-out solve has no answer; the caller knows which).
pub fn outcome_of(solve: SolveFn, block: &Block, options: &SolveOptions, stop: &dyn Fn() -> bool) -> Option<Outcome> {
    match catch_unwind(AssertUnwindSafe(|| solve(block, options, stop))) {
        Ok(Ok(report)) => Some(Outcome::Solved(Arc::new(report))),
        Ok(Err(SolveError::Cancelled)) => None,
        Ok(Err(e)) => Some(Outcome::Failed(e)),
        Err(payload) => Some(Outcome::Crashed(panic_message(payload))),
    }
}

impl Document {
    /// Where block `i`'s answer stands.
    pub fn state(&self, i: usize, answers: &dyn Answers) -> BlockState {
        match self.key(i) {
            None => BlockState::Errors(
                self.analysis().blocks.get(i).map_or(0, |p| p.diagnostics.iter().filter(|d| d.is_error()).count()),
            ),
            Some(key) => match answers.outcome(&key) {
                Some(o) => BlockState::Done(o),
                None => BlockState::Solving,
            },
        }
    }

    /// Block `i` with its solved report, as the block sees it (a sliding
    /// block's own correct solution counted, see [`Block::best_known`]).
    pub fn answered(&self, i: usize, answers: &dyn Answers) -> Option<(&Arc<Block>, Arc<BlockReport>)> {
        let block = self.block(i)?;
        let BlockState::Done(outcome) = self.state(i, answers) else { return None };
        let Outcome::Solved(report) = &*outcome else { return None };
        let report = block.best_known(report).map_or_else(|| report.clone(), Arc::new);
        Some((block, report))
    }
}

/// Answers computed at once, without a time budget.
#[derive(Default)]
pub struct Solved {
    outcomes: HashMap<BlockKey, Arc<Outcome>>,
}

impl Solved {
    /// Solve every valid block of `doc` (blocks with equal keys once), with
    /// the document's options.
    pub fn all(doc: &Document) -> Solved {
        Solved::selected(doc, |_| true)
    }

    /// Solve the valid blocks of `doc` whose index `keep` accepts.
    pub fn selected(doc: &Document, keep: impl Fn(usize) -> bool) -> Solved {
        Solved::with(doc, keep, Block::solve_with)
    }

    /// [`Solved::selected`], calling `starting(i)` before block `i` is
    /// solved (a front end's progress; copies of a block solved already are
    /// not solved again, so they are not announced).
    pub fn selected_announcing(doc: &Document, keep: impl Fn(usize) -> bool, starting: impl FnMut(usize)) -> Solved {
        Solved::solving(doc, keep, Block::solve_with, starting)
    }

    /// [`Solved::selected`] with another solver.
    pub fn with(doc: &Document, keep: impl Fn(usize) -> bool, solve: SolveFn) -> Solved {
        Solved::solving(doc, keep, solve, |_| {})
    }

    fn solving(
        doc: &Document,
        keep: impl Fn(usize) -> bool,
        solve: SolveFn,
        mut starting: impl FnMut(usize),
    ) -> Solved {
        let mut outcomes = HashMap::new();
        for i in (0..doc.block_count()).filter(|&i| keep(i)) {
            let (Some(block), Some(key)) = (doc.block(i), doc.key(i)) else { continue };
            if outcomes.contains_key(&key) {
                continue;
            }
            starting(i);
            if let Some(outcome) = outcome_of(solve, block, doc.options(), &|| false) {
                outcomes.insert(key, Arc::new(outcome));
            }
        }
        Solved { outcomes }
    }
}

impl Solved {
    /// [`Solved::all`], each block given at most `budget`: one that takes
    /// longer is `TimedOut` (L0301), as in the editor with the same budget.
    pub fn within(doc: &Document, budget: std::time::Duration) -> Solved {
        let mut outcomes = HashMap::new();
        for i in 0..doc.block_count() {
            let (Some(block), Some(key)) = (doc.block(i), doc.key(i)) else { continue };
            if outcomes.contains_key(&key) {
                continue;
            }
            let start = std::time::Instant::now();
            let outcome = outcome_of(Block::solve_with, block, doc.options(), &|| start.elapsed() > budget)
                .unwrap_or(Outcome::TimedOut(budget));
            outcomes.insert(key, Arc::new(outcome));
        }
        Solved { outcomes }
    }
}

impl Answers for Solved {
    fn outcome(&self, key: &BlockKey) -> Option<Arc<Outcome>> {
        self.outcomes.get(key).cloned()
    }
}
