//! Lenses and inlay hints: each block's status beside its header, and a
//! clickable "insert solution" where the block's solution is missing,
//! wrong, or longer than the one found.

use std::ops::RangeInclusive;

use lights_compiler::Wording;
use lights_syntax::Span;

use crate::actions::solution_plan;
use crate::answers::Answers;
use crate::document::Document;
use crate::status::status;

/// A line of text shown above a block's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lens {
    /// The header's line.
    pub span: Span,
    pub title: String,
    /// Clicking the lens inserts the solution of this block.
    pub insert_solution: Option<usize>,
}

/// A status lens above every block, and an insert-solution lens where one
/// is due.
pub fn lenses(doc: &Document, answers: &dyn Answers) -> Vec<Lens> {
    let mut out = Vec::new();
    for i in 0..doc.block_count() {
        let Some(syntax) = doc.syntax(i) else { continue };
        let span = doc.line_span(syntax.head.start);
        out.push(Lens { span, title: status(doc, i, answers).to_string(), insert_solution: None });
        if let Some(plan) = solution_plan(doc, i, answers) {
            out.push(Lens { span, title: plan.title(Wording::Lens), insert_solution: Some(i) });
        }
    }
    out
}

/// A hint after a block's header: its status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// The end of the header's line.
    pub offset: usize,
    pub label: String,
}

/// The hints of the blocks whose header ends on one of `lines` (0-based).
pub fn inlay_hints(doc: &Document, answers: &dyn Answers, lines: RangeInclusive<usize>) -> Vec<InlayHint> {
    let mut out = Vec::new();
    for i in 0..doc.block_count() {
        let Some(syntax) = doc.syntax(i) else { continue };
        let line = doc.lines().line(syntax.head.end.saturating_sub(1));
        if lines.contains(&line) {
            out.push(InlayHint { offset: doc.line_end(line), label: status(doc, i, answers).to_string() });
        }
    }
    out
}
