//! A validated block of a file, whatever its kind, and its answer.
//!
//! [`Block`] is a Lights Out puzzle or a sliding-tile puzzle; [`BlockReport`]
//! is what the solver found for it. Everything the front ends do with a
//! block — solve it, verify its claims, describe its result, write its
//! solution or its `expect` lines — is a method here, so the command line
//! and the language server get the same answer from the same code, and the
//! two kinds are told apart in this module only (and in the kind-specific
//! modules it calls: [`check`](crate::check), [`sliding_check`](crate::sliding_check)).

use lights_syntax::ast::PuzzleBlock;
use lights_syntax::{BlockKind, Span};

use crate::diagnostic::{Code, Diagnostic};
use crate::edit::{self, TextEdit};
use crate::key::BlockKey;
use crate::model::Puzzle;
use crate::report::{Report, SolveError, SolveOptions};
use crate::sliding::{SlidingClaim, SlidingPuzzle};
use crate::sliding_check::{self, SlidingReport};
use crate::{check, summary};

/// One block of a file, validated.
// Blocks live behind an `Arc` (one per block of a file), so the size of the
// larger variant is paid once per block, not per copy.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Block {
    /// A `puzzle` block: Lights Out.
    Lights(Puzzle),
    /// A `sliding` block: a sliding-tile puzzle.
    Sliding(SlidingPuzzle),
}

/// The solver's answer for a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockReport {
    Lights(Report),
    Sliding(SlidingReport),
}

impl BlockReport {
    /// Bytes the report holds on the heap (see [`Report::heap_bytes`]).
    pub fn heap_bytes(&self) -> usize {
        match self {
            BlockReport::Lights(r) => r.heap_bytes(),
            BlockReport::Sliding(r) => r.solution.as_ref().map_or(0, |s| s.moves.capacity()),
        }
    }
}

/// A block with its answer, for code that needs both: the one place where
/// a block is paired with a report of its own kind.
#[derive(Clone, Copy, Debug)]
pub enum Answered<'a> {
    Lights(&'a Puzzle, &'a Report),
    Sliding(&'a SlidingPuzzle, &'a SlidingReport),
}

/// What writing a block's solution into the file would do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolutionPlan {
    /// Insert the solution, or replace the one written.
    Write(SolutionEdit),
    /// The block's own `solution` is right and no longer than the one found: keep it.
    Keep,
    /// Nothing to write (no solution, or the block cannot take one).
    Nothing,
    /// The solution's text would be more than a tool writes into a file
    /// (`limit`, [`edit::MAX_SOLUTION_TEXT`]); `bytes` is at least its length
    /// (counting stops past the limit).
    TooLarge { bytes: usize, limit: usize },
}

/// The edit of a [`SolutionPlan::Write`] and what it writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionEdit {
    pub edit: TextEdit,
    /// The block already has a `solution` statement, which this replaces.
    pub replaces: bool,
    /// `15 presses`, `31 moves`.
    pub length: String,
    /// The solution is proven to have the fewest presses or moves.
    pub optimal: bool,
}

impl Block {
    /// The key of this block's answer (see [`BlockKey`]).
    pub fn key(&self) -> BlockKey {
        BlockKey::of(self)
    }

    pub fn kind(&self) -> BlockKind {
        match self {
            Block::Lights(_) => BlockKind::Puzzle,
            Block::Sliding(_) => BlockKind::Sliding,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Block::Lights(p) => &p.name,
            Block::Sliding(p) => &p.name,
        }
    }

    /// The header: keyword, name and brace.
    pub fn head(&self) -> Span {
        match self {
            Block::Lights(p) => *p.head,
            Block::Sliding(p) => *p.head,
        }
    }

    /// `5×5 · cross · plane · 2 states`, `4×4 sliding`.
    pub fn describe(&self) -> String {
        match self {
            Block::Lights(m) => match &m.shape {
                crate::model::Shape::Graph(g) => {
                    let nodes = m.cells() - m.holes.count_nonzero();
                    let what = match g.kind {
                        crate::model::GraphKind::Custom => "written graph".to_string(),
                        _ => format!("graph {}", g.describe()),
                    };
                    format!(
                        "{what}, {} · {} · {} states",
                        crate::summary::count(nodes, "node"),
                        m.rule.name(),
                        m.states
                    )
                }
                shape => {
                    let hex = if *shape == crate::model::Shape::Hex { " hex" } else { "" };
                    let holes = match m.holes.count_nonzero() {
                        0 => String::new(),
                        n => format!(", {}", crate::summary::count(n, "hole")),
                    };
                    format!(
                        "{}×{}{hex}{holes} · {} · {} · {} states",
                        m.rows,
                        m.cols,
                        m.rule.name(),
                        m.topology.name(),
                        m.states
                    )
                }
            },
            Block::Sliding(s) => format!("{}×{} sliding", s.rows, s.cols),
        }
    }

    pub fn as_lights(&self) -> Option<&Puzzle> {
        match self {
            Block::Lights(p) => Some(p),
            Block::Sliding(_) => None,
        }
    }

    pub fn as_sliding(&self) -> Option<&SlidingPuzzle> {
        match self {
            Block::Sliding(p) => Some(p),
            Block::Lights(_) => None,
        }
    }

    /// Solve the block with the default options. `cancel` is polled during long work.
    pub fn solve(&self, cancel: &dyn Fn() -> bool) -> Result<BlockReport, SolveError> {
        self.solve_with(&SolveOptions::default(), cancel)
    }

    /// Solve the block with `options` (the minimum search's budget: `lights
    /// solve --minimum-budget`, `minimum-budget` in lights.toml). Sliding
    /// blocks have no minimum search of this kind: they ignore the options
    /// (their own search has a node limit and the time budget).
    pub fn solve_with(&self, options: &SolveOptions, cancel: &dyn Fn() -> bool) -> Result<BlockReport, SolveError> {
        match self {
            Block::Lights(p) => crate::solve::solve_with(p, *options, cancel).map(BlockReport::Lights),
            Block::Sliding(p) => sliding_check::solve(p, cancel).map(BlockReport::Sliding),
        }
    }

    /// The key of this block's answer when solved with `options`: the
    /// plain [`Block::key`] with the default options (and for sliding
    /// blocks, which ignore them), else a key of the block and the options
    /// together, so an answer found within one minimum budget is never
    /// taken for another's.
    pub fn key_with(&self, options: &SolveOptions) -> BlockKey {
        if matches!(self, Block::Sliding(_)) || *options == SolveOptions::default() {
            return self.key();
        }
        BlockKey::of(&(self, options.search_minimum, options.minimum_work))
    }

    /// The block paired with its report; `None` when the report is of
    /// another kind (a bug in the caller: keys keep the kinds apart).
    pub fn answered<'a>(&'a self, report: &'a BlockReport) -> Option<Answered<'a>> {
        match (self, report) {
            (Block::Lights(p), BlockReport::Lights(r)) => Some(Answered::Lights(p, r)),
            (Block::Sliding(p), BlockReport::Sliding(r)) => Some(Answered::Sliding(p, r)),
            _ => None,
        }
    }

    /// Every diagnostic that follows from the block's report: cannot be
    /// solved, claims that do not hold, a `solution` that is wrong.
    pub fn check(&self, report: &BlockReport) -> Vec<Diagnostic> {
        match self.answered(report) {
            Some(Answered::Lights(p, r)) => check::check(p, r),
            Some(Answered::Sliding(p, r)) => sliding_check::check(p, r),
            None => vec![self.internal_error("the answer is of another kind of block")],
        }
    }

    /// Why the block cannot be solved, in words (empty when it can): the
    /// invariant its certificate proves, for either kind of block. `lights
    /// solve` prints it when no L0201 does (the block expects no solution).
    pub fn why_unsolvable(&self, report: &BlockReport) -> Vec<String> {
        match self.answered(report) {
            Some(Answered::Lights(p, r)) if !r.solvable => check::why_unsolvable(p, r),
            Some(Answered::Sliding(_, r)) if !r.solvable => vec![format!("why: {}", r.invariant.explanation)],
            _ => Vec::new(),
        }
    }

    /// The diagnostic for a block the solver could not answer (none when
    /// the solve was cancelled).
    pub fn failure(&self, e: &SolveError) -> Option<Diagnostic> {
        match (self, e) {
            (_, SolveError::Cancelled) => None,
            (Block::Lights(p), _) => check::solve_failure(p, e),
            (
                Block::Sliding(_),
                SolveError::TooLarge { .. } | SolveError::BoardTooLarge { .. } | SolveError::OutOfMemory { .. },
            ) => Some(self.internal_error("the sliding solver declined the board")),
            (Block::Sliding(_), SolveError::Internal(msg)) => Some(self.internal_error(msg)),
        }
    }

    fn internal_error(&self, msg: &str) -> Diagnostic {
        Diagnostic::error(Code::SolverFailure, self.head(), format!("internal solver error: {msg}"))
            .with_label("not verified")
            .with_note("this is a bug in lights: please report it with this file")
    }

    /// The report as the block sees it: a sliding block's own correct
    /// `solution`, when shorter than the one found, is the best known (the
    /// cached report is the solver's, shared by every block with the same key).
    pub fn best_known(&self, report: &BlockReport) -> Option<BlockReport> {
        match self.answered(report)? {
            Answered::Sliding(p, r) => sliding_check::with_written_solution(p, r).map(BlockReport::Sliding),
            Answered::Lights(..) => None,
        }
    }

    /// Whether the block claims it cannot be solved (`expect unsolvable`,
    /// or `expect solutions 0`).
    pub fn expects_no_solution(&self) -> bool {
        match self {
            Block::Lights(p) => p.expects.iter().any(|e| check::expects_no_solution(&e.claim)),
            Block::Sliding(p) => p.expects.iter().any(|e| e.claim == SlidingClaim::Unsolvable),
        }
    }

    /// Whether the block has an `expect` saying it can be solved.
    pub fn expects_a_solution(&self) -> bool {
        match self {
            Block::Lights(p) => p.expects.iter().any(|e| !check::expects_no_solution(&e.claim)),
            Block::Sliding(p) => p.expects.iter().any(|e| e.claim != SlidingClaim::Unsolvable),
        }
    }

    /// Whether the block has a `solution` statement.
    pub fn has_solution(&self) -> bool {
        match self {
            Block::Lights(p) => p.solution.is_some(),
            Block::Sliding(p) => p.solution.is_some(),
        }
    }

    /// The block's `expect` claims as written (`expect unique`, …).
    pub fn claims(&self) -> Vec<String> {
        match self {
            Block::Lights(p) => p.expects.iter().map(|e| e.claim.to_string()).collect(),
            Block::Sliding(p) => p.expects.iter().map(|e| e.claim.to_string()).collect(),
        }
    }

    /// Whether one of the block's claims is refuted by the report.
    pub fn has_false_claim(&self, report: &BlockReport) -> bool {
        match self.answered(report) {
            Some(Answered::Lights(p, r)) => p.expects.iter().any(|e| !check::claim_holds(r, &e.claim)),
            Some(Answered::Sliding(p, r)) => p.expects.iter().any(|e| !sliding_check::claim_holds(r, e.claim)),
            None => false,
        }
    }

    /// The `expect` lines that state the report's result.
    pub fn claims_for(&self, report: &BlockReport) -> Vec<String> {
        match report {
            BlockReport::Lights(r) => edit::claims_for(r),
            BlockReport::Sliding(r) => sliding_check::claims_for(r),
        }
    }

    /// Whether solving the block may need the 4×4 sliding-puzzle pattern
    /// databases (see [`sliding_check::needs_pattern_databases`]).
    pub fn needs_pattern_databases(&self) -> bool {
        self.as_sliding().is_some_and(sliding_check::needs_pattern_databases)
    }

    /// What writing the report's solution into the block would do: the
    /// minimum press grid of a Lights Out puzzle, a sliding block's moves;
    /// the block's own `solution` is kept when it is right and no longer
    /// than the one found. `src` and `syntax` are the
    /// file and this block's syntax. Shared by `lights solve --write` and
    /// the editor's lens and code actions.
    pub fn solution_plan(&self, src: &str, syntax: &PuzzleBlock, report: &BlockReport) -> SolutionPlan {
        let planned = match self.answered(report) {
            Some(Answered::Lights(p, r)) => {
                let Some(min) = &r.minimum else { return SolutionPlan::Nothing };
                // The author's own solution is kept when it is right and no
                // longer than the one found (it may be another of the minimum ones).
                let keep = p.solution.as_ref().is_some_and(|s| {
                    let cost = s.presses.total();
                    cost <= min.cost && check::solution_solves(p, s)
                });
                if keep {
                    return SolutionPlan::Keep;
                }
                let text = match edit::solution_text(p, &min.presses) {
                    edit::SolutionText::Text(text) => text,
                    edit::SolutionText::TooLarge { bytes } => {
                        return SolutionPlan::TooLarge { bytes, limit: edit::MAX_SOLUTION_TEXT }
                    }
                };
                edit::solution_statement(src, syntax, text).map(|edit| SolutionEdit {
                    edit,
                    replaces: p.solution.is_some(),
                    length: summary::presses(min.cost),
                    optimal: min.optimal,
                })
            }
            Some(Answered::Sliding(p, r)) => {
                if r.solution.is_none() {
                    return SolutionPlan::Nothing;
                }
                let Some(found) = sliding_check::solution_to_write(p, r) else { return SolutionPlan::Keep };
                edit::move_solution(src, syntax, &found.moves).map(|edit| SolutionEdit {
                    edit,
                    replaces: p.solution.is_some(),
                    length: sliding_check::moves(found.len() as u64),
                    optimal: found.optimal,
                })
            }
            None => None,
        };
        match planned {
            // The same text already there is not a change.
            Some(e) if src.get(e.edit.span.start..e.edit.span.end) == Some(e.edit.text.as_str()) => SolutionPlan::Keep,
            Some(e) => SolutionPlan::Write(e),
            None => SolutionPlan::Nothing,
        }
    }
}

impl BlockReport {
    pub fn solvable(&self) -> bool {
        match self {
            BlockReport::Lights(r) => r.solvable,
            BlockReport::Sliding(r) => r.solvable,
        }
    }

    /// `4 solutions · minimum 15 presses`, `optimal 31 moves`, `unsolvable`.
    pub fn summary(&self) -> String {
        match self {
            BlockReport::Lights(r) => summary::result(r),
            BlockReport::Sliding(r) => sliding_check::summary(r),
        }
    }

    pub fn as_lights(&self) -> Option<&Report> {
        match self {
            BlockReport::Lights(r) => Some(r),
            BlockReport::Sliding(_) => None,
        }
    }

    pub fn as_sliding(&self) -> Option<&SlidingReport> {
        match self {
            BlockReport::Sliding(r) => Some(r),
            BlockReport::Lights(_) => None,
        }
    }
}
