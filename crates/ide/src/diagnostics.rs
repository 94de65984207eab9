//! Every diagnostic of a document as its answers stand: syntax and meaning
//! at once, the solver's findings as they arrive. The command line prints
//! these; the language server publishes them.

use lights_compiler::diagnostic::{Code, Diagnostic, Label};
use lights_compiler::{Block, BlockAnalysis};

use crate::answers::{Answers, BlockState, Outcome};
use crate::document::Document;
use crate::internal::internal_error;
use crate::words::duration;

/// At most this many certificate cells are listed beside an unsolvable
/// puzzle's diagnostic.
pub const MAX_RELATED_CELLS: usize = 64;

/// A diagnostic, and places an editor can list beside it besides its
/// labels: the cells of an unsolvable puzzle's certificate, in the `lights`
/// grid (else the `goal` grid) when the puzzle has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub diagnostic: Diagnostic,
    pub related: Vec<Label>,
}

/// Every diagnostic of the document (the file's and each block's), in
/// source order.
pub fn diagnostics(doc: &Document, answers: &dyn Answers) -> Vec<Problem> {
    let mut out: Vec<Problem> = doc
        .analysis()
        .file_diagnostics
        .iter()
        .map(|d| Problem { diagnostic: d.clone(), related: Vec::new() })
        .collect();
    for i in 0..doc.block_count() {
        let certificate = certificate_cells(doc, i, answers);
        out.extend(block_diagnostics(doc, i, answers).into_iter().map(|d| {
            let related = if d.code == Code::Unsolvable { certificate.clone() } else { Vec::new() };
            Problem { diagnostic: d, related }
        }));
    }
    out.sort_by_key(|p| (p.diagnostic.span.start, p.diagnostic.span.end));
    out
}

/// The diagnostics of block `i`, in source order: its syntax and meaning
/// errors, and what its answer says (cannot be solved, claims that do not
/// hold, a wrong `solution`, a solve that failed, timed out or crashed).
pub fn block_diagnostics(doc: &Document, i: usize, answers: &dyn Answers) -> Vec<Diagnostic> {
    let Some(p) = doc.analysis().blocks.get(i) else { return Vec::new() };
    let mut found = p.diagnostics.clone();
    if let (Some(block), BlockState::Done(outcome)) = (doc.block(i), doc.state(i, answers)) {
        match &*outcome {
            Outcome::Solved(report) => found.extend(block.check(report)),
            Outcome::Failed(e) => found.extend(block.failure(e)),
            Outcome::TimedOut(budget) => found.push(timed_out(p, block, *budget, doc.options())),
            Outcome::Crashed(msg) => found.push(internal_error(block.head(), "this puzzle", msg)),
        }
    }
    // A copy of an earlier level of the file, or of another file of the pack.
    found.extend(crate::pack::copy_warning(doc, i));
    // `order by …`: a level easier than the one before it.
    found.extend(crate::pack::out_of_order(doc, i, answers));
    // `// lights: allow L0206` above the block or the statement.
    found.retain(|d| !crate::suppress::suppressed(doc, i, d));
    found.sort_by_key(|d| (d.span.start, d.span.end));
    found
}

fn timed_out(
    p: &BlockAnalysis,
    block: &Block,
    budget: std::time::Duration,
    options: &lights_compiler::SolveOptions,
) -> Diagnostic {
    let name = p.name.as_deref().unwrap_or("");
    let what = block.noun();
    let d = Diagnostic::warning(
        Code::TimeBudgetExceeded,
        block.head(),
        format!("{what} \"{name}\" was not solved within the time budget of {}", duration(budget)),
    )
    .with_label("not verified within the time budget")
    .with_note(
        "without a time budget `lights check` solves it to the end; raise the budget to wait longer (the editor's \
         `lights.solver.timeBudgetMs`, or `time-budget-ms` under `[solver]` in lights.toml)",
    );
    // The time budget wins over a longer minimum budget given by the
    // author (--minimum-budget, minimum-budget): say so.
    let search = std::time::Duration::from_nanos(options.minimum_work);
    let given = *options != lights_compiler::SolveOptions::default();
    if block.takes_minimum_budget() && given && options.search_minimum && search > budget {
        d.with_note(format!(
            "the minimum budget ({}) is longer than the time budget: the time budget stops the search first",
            duration(search)
        ))
    } else {
        d
    }
}

/// The cells of block `i`'s unsolvability certificate, where they are
/// written (a grid of `lights`, else of `goal`); empty when there is none.
fn certificate_cells(doc: &Document, i: usize, answers: &dyn Answers) -> Vec<Label> {
    let Some((block, report)) = doc.answered(i, answers) else { return Vec::new() };
    block.certificate_labels(&report, MAX_RELATED_CELLS)
}
