//! A validated block of a file, whatever its kind, and its answer.
//!
//! [`Block`] is a Lights Out puzzle or a sliding-tile puzzle; [`BlockReport`]
//! is what the solver found for it. Everything the front ends do with a
//! block — solve it, verify its claims, describe its result, write its
//! solution or its `expect` lines — is a method here, so the command line
//! and the language server get the same answer from the same code, and the
//! two kinds are told apart in this module only (and in the kind-specific
//! modules it calls: [`check`](crate::check), [`sliding_check`](crate::sliding_check),
//! [`present`](crate::present), the validators). `tests/architecture.rs`
//! keeps it so: the variant paths appear nowhere else, and the few front
//! ends that take one kind only do it through named gates
//! ([`Block::as_lights`], [`BlockKind::is_lights`]), listed there.

use lights_syntax::ast::BlockSyntax;
use lights_syntax::{BlockKind, Span};

use crate::diagnostic::{Code, Diagnostic, Label};
use crate::edit::{self, TextEdit};
use crate::header::Header;
use crate::key::BlockKey;
use crate::model::Puzzle;
use crate::present::{self, LineStyle, ResultFields};
use crate::report::{Report, SolveError, SolveOptions};
use crate::sliding::SlidingPuzzle;
use crate::sliding_check::{self, SlidingReport};
use crate::{check, sliding_validate, summary, validate};

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
    /// The kind of the block it is written into (its titles say `minimum`
    /// or `optimal`).
    pub kind: BlockKind,
}

/// Where the title of a [`SolutionEdit`] is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wording {
    /// Above the block, lower case (a code lens).
    Lens,
    /// In the editor's list of code actions, capitalised.
    Action,
}

/// The titles of a solution edit of one kind of block, `{n}` standing for
/// its length: `[replaces][optimal]`.
struct SolutionTitles {
    lens: [[&'static str; 2]; 2],
    action: [[&'static str; 2]; 2],
}

const LIGHTS_TITLES: SolutionTitles = SolutionTitles {
    lens: [
        ["insert solution ({n}, minimum not proven)", "insert minimum solution"],
        ["replace solution ({n}, minimum not proven)", "replace solution with the minimum"],
    ],
    action: [
        ["Insert solution ({n}, minimum not proven)", "Insert minimum solution ({n})"],
        ["Replace solution ({n}, minimum not proven)", "Replace solution ({n})"],
    ],
};

const SLIDING_TITLES: SolutionTitles = SolutionTitles {
    lens: [
        ["insert solution ({n}, not proven fewest)", "insert optimal solution ({n})"],
        ["replace solution ({n}, not proven fewest)", "replace solution with the optimal one ({n})"],
    ],
    action: [
        ["Insert solution ({n}, not proven fewest)", "Insert solution ({n}, optimal)"],
        ["Replace solution ({n}, not proven fewest)", "Replace solution ({n}, optimal)"],
    ],
};

impl SolutionEdit {
    /// `insert minimum solution`, `Replace solution (15 presses)`,
    /// `insert optimal solution (31 moves)`, `Insert solution (62 moves, not proven fewest)`.
    pub fn title(&self, wording: Wording) -> String {
        let titles = self.kind.either(&LIGHTS_TITLES, &SLIDING_TITLES);
        let table = match wording {
            Wording::Lens => &titles.lens,
            Wording::Action => &titles.action,
        };
        table[usize::from(self.replaces)][usize::from(self.optimal)].replace("{n}", &self.length)
    }
}

impl From<Puzzle> for Block {
    fn from(p: Puzzle) -> Block {
        Block::Lights(p)
    }
}

impl From<SlidingPuzzle> for Block {
    fn from(p: SlidingPuzzle) -> Block {
        Block::Sliding(p)
    }
}

impl Block {
    /// Validate one block of `src` into its model, by the block's kind,
    /// with every problem found (the model is `None` when one is an error).
    pub fn validate(src: &str, syntax: &BlockSyntax) -> (Option<Block>, Vec<Diagnostic>) {
        match syntax.kind {
            BlockKind::Lights => {
                let (model, diagnostics) = validate::validate(src, syntax);
                (model.map(Block::Lights), diagnostics)
            }
            BlockKind::Sliding => {
                let (model, diagnostics) = sliding_validate::validate(src, syntax);
                (model.map(Block::Sliding), diagnostics)
            }
        }
    }

    /// What a block of `kind` is called when it has errors and no model
    /// (the editor's outline): `sliding` for a sliding block; a puzzle's
    /// description needs its size.
    pub fn describe_unvalidated(kind: BlockKind) -> Option<&'static str> {
        kind.either(None, Some("sliding"))
    }

    /// The key of this block's answer (see [`BlockKey`]).
    pub fn key(&self) -> BlockKey {
        BlockKey::of(self)
    }

    pub fn kind(&self) -> BlockKind {
        match self {
            Block::Lights(_) => BlockKind::Lights,
            Block::Sliding(_) => BlockKind::Sliding,
        }
    }

    /// What the block is called in a message: `puzzle`, `sliding puzzle`.
    pub fn noun(&self) -> &'static str {
        self.kind().either("puzzle", "sliding puzzle")
    }

    /// `square`, `hex` or `graph` for a Lights Out puzzle (the JSON
    /// `shape`); `None` for a sliding block, whose board is always square.
    pub fn shape_name(&self) -> Option<&'static str> {
        match self {
            Block::Lights(p) => Some(p.shape.name()),
            Block::Sliding(_) => None,
        }
    }

    /// Whether the block's solve runs the minimum search that a minimum
    /// budget bounds (`--minimum-budget`): Lights Out puzzles; a sliding
    /// block's search has limits of its own.
    pub fn takes_minimum_budget(&self) -> bool {
        matches!(self, Block::Lights(_))
    }

    /// Whether the block solves in milliseconds: a Lights Out board of at
    /// most `max_cells` cells, a sliding board of at most 9 (a 4×4 builds
    /// pattern databases, seconds). For fuzzing, which solves only these.
    pub fn solves_quickly(&self, max_cells: usize) -> bool {
        match self {
            Block::Lights(p) => p.rows.saturating_mul(p.cols) <= max_cells,
            Block::Sliding(p) => p.rows.saturating_mul(p.cols) <= 9,
        }
    }

    /// The name, spans, claims and written solution, read without the
    /// kind (see [`Header`]).
    pub fn header(&self) -> &dyn Header {
        match self {
            Block::Lights(p) => &*p.header,
            Block::Sliding(p) => &*p.header,
        }
    }

    pub fn name(&self) -> &str {
        self.header().name()
    }

    /// The header: keyword, name and brace.
    pub fn head(&self) -> Span {
        self.header().head()
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

    /// The Lights Out model: a gate for the front ends that take Lights
    /// Out puzzles only (play-testing, `lights compile`, pictures, cell
    /// hovers). `tests/architecture.rs` lists the files allowed to call it.
    pub fn as_lights(&self) -> Option<&Puzzle> {
        match self {
            Block::Lights(p) => Some(p),
            Block::Sliding(_) => None,
        }
    }

    /// The sliding model: a gate, like [`Block::as_lights`].
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
        if !self.takes_minimum_budget() || *options == SolveOptions::default() {
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

    /// The cells of the block's unsolvability certificate where they are
    /// written, at most `max` (empty when there is none: a solvable block,
    /// a sliding block, whose invariant has no cells).
    pub fn certificate_labels(&self, report: &BlockReport, max: usize) -> Vec<Label> {
        match self.answered(report) {
            Some(Answered::Lights(p, r)) => check::certificate_labels(p, r, max),
            Some(Answered::Sliding(..)) | None => Vec::new(),
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
        self.header().expects_no_solution()
    }

    /// Whether the block has an `expect` saying it can be solved.
    pub fn expects_a_solution(&self) -> bool {
        self.header().expects_a_solution()
    }

    /// Whether the block has a `solution` statement.
    pub fn has_solution(&self) -> bool {
        self.header().has_solution()
    }

    /// The block's `expect` claims as written (`expect unique`, …).
    pub fn claims(&self) -> Vec<String> {
        self.header().claims()
    }

    /// Whether one of the block's claims is refuted by the report.
    pub fn has_false_claim(&self, report: &BlockReport) -> bool {
        match self.answered(report) {
            Some(Answered::Lights(p, r)) => p.header.expects.iter().any(|e| !check::claim_holds(p, r, &e.claim)),
            Some(Answered::Sliding(p, r)) => p.header.expects.iter().any(|e| !sliding_check::claim_holds(r, e.claim)),
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
    pub fn solution_plan(&self, src: &str, syntax: &BlockSyntax, report: &BlockReport) -> SolutionPlan {
        let planned = match self.answered(report) {
            Some(Answered::Lights(p, r)) => {
                let Some(min) = &r.minimum else { return SolutionPlan::Nothing };
                // The author's own solution is kept when it is right and no
                // longer than the one found (it may be another of the minimum ones).
                let keep = p.header.solution.as_ref().is_some_and(|s| {
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
                    replaces: p.header.solution.is_some(),
                    length: summary::presses(min.cost),
                    optimal: min.optimal,
                    kind: BlockKind::Lights,
                })
            }
            Some(Answered::Sliding(p, r)) => {
                if r.solution.is_none() {
                    return SolutionPlan::Nothing;
                }
                let Some(found) = sliding_check::solution_to_write(p, r) else { return SolutionPlan::Keep };
                edit::move_solution(src, syntax, &found.moves).map(|edit| SolutionEdit {
                    edit,
                    replaces: p.header.solution.is_some(),
                    length: sliding_check::moves(found.len() as u64),
                    optimal: found.optimal,
                    kind: BlockKind::Sliding,
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

    /// What the hover of the block's name adds under its description: the
    /// invariant that decides a sliding block (none for Lights Out, whose
    /// certificate is shown on its cells).
    pub fn hover_note(&self) -> Option<&str> {
        match self {
            BlockReport::Lights(_) => None,
            BlockReport::Sliding(r) => Some(&r.invariant.explanation),
        }
    }

    /// The Lights Out report: a gate, like [`Block::as_lights`].
    pub fn as_lights(&self) -> Option<&Report> {
        match self {
            BlockReport::Lights(r) => Some(r),
            BlockReport::Sliding(_) => None,
        }
    }

    /// The sliding report: a gate, like [`Block::as_lights`].
    pub fn as_sliding(&self) -> Option<&SlidingReport> {
        match self {
            BlockReport::Sliding(r) => Some(r),
            BlockReport::Lights(_) => None,
        }
    }
}

impl<'a> Answered<'a> {
    /// The result fields of the block's JSON object (`--format json`);
    /// grids only on boards of at most `max_cells` cells.
    pub fn json(&self, max_cells: usize) -> ResultFields {
        match *self {
            Answered::Lights(p, r) => present::lights_json(p, r, max_cells),
            Answered::Sliding(_, r) => present::sliding_json(r),
        }
    }

    /// The lines `lights solve` prints under the block: the solution found,
    /// drawn (a board of presses, a string of moves), without indentation.
    pub fn solution_lines(&self, style: &LineStyle) -> Vec<String> {
        match *self {
            Answered::Lights(p, r) => present::lights_lines(p, r, style),
            Answered::Sliding(_, r) => present::sliding_lines(r),
        }
    }

    /// The Lights Out puzzle and its report: a gate, like [`Block::as_lights`]
    /// (`--solution-out` writes presses, the make-solvable action changes lights).
    pub fn as_lights(&self) -> Option<(&'a Puzzle, &'a Report)> {
        match *self {
            Answered::Lights(p, r) => Some((p, r)),
            Answered::Sliding(..) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every title of the two tables, as the editor's 16-arm match wrote them.
    #[test]
    fn solution_titles_follow_the_kind_the_wording_and_the_proof() {
        let title = |kind, wording, replaces, optimal| {
            let edit = TextEdit { span: Span::new(0, 0), text: String::new() };
            SolutionEdit { edit, replaces, length: "7 moves".into(), optimal, kind }.title(wording)
        };
        let (l, s) = (BlockKind::Lights, BlockKind::Sliding);
        let (lens, action) = (Wording::Lens, Wording::Action);
        let cases = [
            (l, lens, false, true, "insert minimum solution"),
            (l, lens, true, true, "replace solution with the minimum"),
            (l, lens, false, false, "insert solution (7 moves, minimum not proven)"),
            (l, lens, true, false, "replace solution (7 moves, minimum not proven)"),
            (l, action, false, true, "Insert minimum solution (7 moves)"),
            (l, action, true, true, "Replace solution (7 moves)"),
            (l, action, false, false, "Insert solution (7 moves, minimum not proven)"),
            (l, action, true, false, "Replace solution (7 moves, minimum not proven)"),
            (s, lens, false, true, "insert optimal solution (7 moves)"),
            (s, lens, true, true, "replace solution with the optimal one (7 moves)"),
            (s, lens, false, false, "insert solution (7 moves, not proven fewest)"),
            (s, lens, true, false, "replace solution (7 moves, not proven fewest)"),
            (s, action, false, true, "Insert solution (7 moves, optimal)"),
            (s, action, true, true, "Replace solution (7 moves, optimal)"),
            (s, action, false, false, "Insert solution (7 moves, not proven fewest)"),
            (s, action, true, false, "Replace solution (7 moves, not proven fewest)"),
        ];
        for (kind, wording, replaces, optimal, want) in cases {
            assert_eq!(title(kind, wording, replaces, optimal), want, "{kind:?} {wording:?} {replaces} {optimal}");
        }
    }
}
