//! The one-line status of a block — `✓ 4 solutions · minimum 15 presses`,
//! `✓ optimal 31 moves`, `✗ unsolvable`, `⋯ solving…`, `✗ 2 errors` — the
//! same line above a block in the editor and after its name in `lights check`.

use std::fmt;

use lights_compiler::diagnostic::Code;
use lights_compiler::SolveError;

use crate::answers::{Answers, BlockState, Outcome};
use crate::diagnostics::block_diagnostics;
use crate::document::Document;
use crate::words::{duration, errors};

/// How a block stands, as a mark before its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// ✓ answered, no error.
    Ok,
    /// ✗ an error: the block is wrong, unsolvable, or could not be answered.
    Error,
    /// ⋯ being solved.
    Solving,
    /// ⏱ not answered within the time budget.
    TimedOut,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Ok => "✓",
            Mark::Error => "✗",
            Mark::Solving => "⋯",
            Mark::TimedOut => "⏱",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub mark: Mark,
    /// `4 solutions · minimum 15 presses`, `unsolvable`, `2 errors`, …
    pub text: String,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.mark.symbol(), self.text)
    }
}

/// The status of block `i`.
pub fn status(doc: &Document, i: usize, answers: &dyn Answers) -> Status {
    let line = |mark, text: String| Status { mark, text };
    let outcome = match doc.state(i, answers) {
        // A block without errors is solved; this is only for safety.
        BlockState::Errors(0) => return line(Mark::Ok, "well formed".into()),
        BlockState::Errors(n) => return line(Mark::Error, errors(n)),
        BlockState::Solving => return line(Mark::Solving, "solving…".into()),
        BlockState::Done(outcome) => outcome,
    };
    match &*outcome {
        Outcome::Solved(_) => {
            let Some((block, report)) = doc.answered(i, answers) else { return line(Mark::Error, "not solved".into()) };
            let expected = !report.solvable() && block.expects_no_solution();
            let result = if expected { "unsolvable, as expected".to_string() } else { report.summary() };
            // "unsolvable" already says what L0201 says, so L0201 alone adds
            // no count; next to other errors the count is all of them (the
            // number of errors printed just above the line in `lights
            // check`, not one fewer).
            let ds = block_diagnostics(doc, i, answers);
            let others = ds.iter().filter(|d| d.is_error() && d.code != Code::Unsolvable).count();
            let all = ds.iter().filter(|d| d.is_error()).count();
            match others {
                0 if report.solvable() || expected => line(Mark::Ok, result),
                0 => line(Mark::Error, result),
                _ => line(Mark::Error, format!("{result} · {}", errors(all))),
            }
        }
        Outcome::Failed(SolveError::TooLarge { .. } | SolveError::BoardTooLarge { .. }) => {
            line(Mark::Error, "too large to verify".into())
        }
        Outcome::Failed(_) => line(Mark::Error, "solver error".into()),
        Outcome::TimedOut(budget) => line(Mark::TimedOut, format!("not solved within {}", duration(*budget))),
        Outcome::Crashed(_) => line(Mark::Error, "internal error".into()),
    }
}
