//! One analysed version of an open document: its text, the compiler's
//! analysis, and for every puzzle the key of its solve. Snapshots are
//! immutable; features read them while newer versions are being analysed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use lights_compiler::diagnostic::{Code, Diagnostic};
use lights_compiler::sliding_check::{self, SlidingReport};
use lights_compiler::{check, FileAnalysis, PuzzleAnalysis};
use lights_syntax::{SourceFile, Span};
use tower_lsp_server::lsp_types::{self as lsp, Uri};

use crate::convert;
use crate::engine::{panic_message, Engine, Outcome, SolveKey};
use crate::position::{Encoding, PositionMap};

/// The analysis function (swappable so tests can make it panic).
pub type AnalyzeFn = fn(&str) -> FileAnalysis;

pub struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    pub text: String,
    pub map: PositionMap,
    pub analysis: FileAnalysis,
    /// Per block: the solve key, for blocks without errors.
    pub keys: Vec<Option<Arc<SolveKey>>>,
}

/// Where a puzzle's answer stands.
pub enum PuzzleState {
    /// The puzzle has errors; it is not solved.
    Errors(usize),
    Solving,
    Done(Arc<Outcome>),
}

impl Snapshot {
    /// Analyse `text`; a panic inside the compiler becomes an L0302 diagnostic.
    pub fn build(uri: Uri, version: i32, text: String, encoding: Encoding, analyze: AnalyzeFn) -> Snapshot {
        let analysis = match catch_unwind(AssertUnwindSafe(|| analyze(&text))) {
            Ok(a) => a,
            Err(payload) => FileAnalysis {
                syntax: SourceFile::default(),
                puzzles: Vec::new(),
                file_diagnostics: vec![internal_error(Span::new(0, 0), "this file", &panic_message(payload))],
            },
        };
        let keys = analysis
            .puzzles
            .iter()
            .map(|p| match (&p.model, &p.sliding) {
                (Some(m), _) => Some(Arc::new(SolveKey::of(m))),
                (None, Some(s)) => Some(Arc::new(SolveKey::of_sliding(s))),
                (None, None) => None,
            })
            .collect();
        let map = PositionMap::new(&text, encoding);
        Snapshot { uri, version, text, map, analysis, keys }
    }

    pub fn state(&self, i: usize, engine: &Engine) -> PuzzleState {
        match &self.keys[i] {
            None => PuzzleState::Errors(self.analysis.puzzles[i].diagnostics.iter().filter(|d| d.is_error()).count()),
            Some(key) => match engine.outcome(key) {
                Some(o) => PuzzleState::Done(o),
                None => PuzzleState::Solving,
            },
        }
    }

    /// The solved report of puzzle `i`, when there is one.
    pub fn report(&self, i: usize, engine: &Engine) -> Option<Arc<lights_compiler::solve::Report>> {
        match self.state(i, engine) {
            PuzzleState::Done(o) => match &*o {
                Outcome::Solved(r) => Some(r.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The solved report of sliding block `i`, when there is one, with the
    /// block's own correct `solution` counted (the cached report is the
    /// solver's, shared by every block with the same start and goal).
    pub fn sliding_report(&self, i: usize, engine: &Engine) -> Option<Arc<SlidingReport>> {
        let PuzzleState::Done(o) = self.state(i, engine) else { return None };
        let Outcome::SlidingSolved(r) = &*o else { return None };
        let improved =
            self.analysis.puzzles[i].sliding.as_ref().and_then(|p| sliding_check::with_written_solution(p, r));
        Some(improved.map_or_else(|| r.clone(), Arc::new))
    }

    /// The puzzle whose block holds `offset`.
    pub fn puzzle_at(&self, offset: usize) -> Option<usize> {
        self.analysis.puzzles.iter().position(|p| p.span.contains(offset) || p.span.end == offset)
    }

    /// The puzzles whose blocks overlap the byte range.
    pub fn puzzles_in(&self, start: usize, end: usize) -> Vec<usize> {
        (0..self.analysis.puzzles.len())
            .filter(|&i| {
                let s = self.analysis.puzzles[i].span;
                s.start <= end && start <= s.end
            })
            .collect()
    }

    /// Every diagnostic of the document as it stands: syntax and meaning
    /// at once, the solver's findings as they arrive.
    pub fn diagnostics(&self, engine: &Engine) -> Vec<lsp::Diagnostic> {
        let mut out: Vec<lsp::Diagnostic> =
            self.analysis.file_diagnostics.iter().map(|d| convert::diagnostic(self, d)).collect();
        for (i, p) in self.analysis.puzzles.iter().enumerate() {
            let mut found: Vec<Diagnostic> = p.diagnostics.clone();
            let mut certificate = None;
            if let (Some(model), PuzzleState::Done(outcome)) = (&p.model, self.state(i, engine)) {
                match &*outcome {
                    Outcome::Solved(report) => {
                        found.extend(check::check(model, report));
                        certificate = report.certificate.clone();
                    }
                    Outcome::Failed(e) => found.extend(check::solve_failure(model, e)),
                    Outcome::TimedOut(budget) => found.push(timed_out(p, model.head, *budget)),
                    Outcome::Crashed(msg) => found.push(internal_error(model.head, "this puzzle", msg)),
                    // A Lights Out key never gets a sliding answer.
                    Outcome::SlidingSolved(_) | Outcome::SlidingFailed(_) => {}
                }
            }
            if let (Some(s), PuzzleState::Done(outcome)) = (&p.sliding, self.state(i, engine)) {
                match &*outcome {
                    Outcome::SlidingSolved(report) => found.extend(sliding_check::check(s, report)),
                    Outcome::SlidingFailed(e) => found.extend(sliding_check::failure(s, e)),
                    Outcome::TimedOut(budget) => found.push(timed_out(p, s.head, *budget)),
                    Outcome::Crashed(msg) => found.push(internal_error(s.head, "this puzzle", msg)),
                    Outcome::Solved(_) | Outcome::Failed(_) => {}
                }
            }
            found.sort_by_key(|d| (d.span.start, d.span.end));
            for d in &found {
                let mut lsp_d = convert::diagnostic(self, d);
                if d.code == Code::Unsolvable {
                    if let (Some(model), Some(y)) = (&p.model, &certificate) {
                        convert::add_certificate_cells(self, &mut lsp_d, model, y);
                    }
                }
                out.push(lsp_d);
            }
        }
        out
    }
}

fn timed_out(p: &PuzzleAnalysis, head: Span, budget: std::time::Duration) -> Diagnostic {
    let name = p.name.as_deref().unwrap_or("");
    let what = match p.kind {
        lights_syntax::BlockKind::Puzzle => "puzzle",
        lights_syntax::BlockKind::Sliding => "sliding puzzle",
    };
    Diagnostic::warning(
        Code::TimeBudgetExceeded,
        head,
        format!("{what} \"{name}\" was not solved within the time budget of {}", convert::duration(budget)),
    )
    .with_label("not verified in the editor")
    .with_note("`lights check` solves it without a time limit; raise `lights.solver.timeBudgetMs` to wait longer here")
}

fn internal_error(span: Span, what: &str, msg: &str) -> Diagnostic {
    Diagnostic::error(Code::InternalError, span, format!("internal error while analysing {what}: {msg}"))
        .with_label("not analysed")
        .with_note("this is a bug in lights: please report it with this file")
}
