//! Document symbols (one per block) and folding ranges (blocks, grids).

use lights_syntax::ast::{GraphSpec, StatementKind};
use lights_syntax::Span;

use crate::document::Document;

/// A block in the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// `5×5 · cross · plane · 2 states`, `4×4 sliding`.
    pub detail: Option<String>,
    /// The whole block.
    pub span: Span,
    /// The name (or the header when it has none).
    pub selection: Span,
}

/// One symbol per block.
pub fn symbols(doc: &Document) -> Vec<Symbol> {
    symbols_at_most(doc, usize::MAX)
}

/// [`symbols`] of the first `max` blocks (at least one); when there are
/// more, a last symbol `… N more puzzles` spans them. An outline of
/// 200,000 blocks is no use to read, and its answer would be tens of
/// megabytes.
pub fn symbols_at_most(doc: &Document, max: usize) -> Vec<Symbol> {
    let analysis = doc.analysis();
    let blocks = &analysis.syntax.blocks;
    let shown = max.max(1).min(blocks.len());
    let mut out: Vec<Symbol> = blocks[..shown]
        .iter()
        .zip(&analysis.blocks)
        .map(|(block, p)| {
            let name = block.name.as_ref().map_or_else(|| "(unnamed puzzle)".to_string(), |n| n.value.clone());
            let name = if name.is_empty() { "(empty name)".to_string() } else { name };
            let detail = p.describe();
            let selection = block.name.as_ref().map_or(block.head, |n| n.span);
            Symbol { name, detail, span: block.span, selection }
        })
        .collect();
    if let (Some(first), Some(last)) = (blocks.get(shown), blocks.last()) {
        let hidden = blocks.len() - shown;
        out.push(Symbol {
            name: format!("… {hidden} more puzzle{}", if hidden == 1 { "" } else { "s" }),
            detail: None,
            span: Span::new(first.span.start, last.span.end),
            selection: first.head,
        });
    }
    out
}

/// Lines that fold together (0-based, `start_line < end_line`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    pub start_line: usize,
    pub end_line: usize,
}

/// A fold per block and per grid (or graph edge list) that spans several lines.
pub fn folding_ranges(doc: &Document) -> Vec<Fold> {
    let mut out = Vec::new();
    let mut fold = |span: Span| {
        let lines = doc.lines();
        let (start, end) = (lines.line(span.start), lines.line(span.end.saturating_sub(1)));
        if end > start {
            out.push(Fold { start_line: start, end_line: end });
        }
    };
    for block in &doc.analysis().syntax.blocks {
        fold(block.span);
        for grid in block.statements.iter().filter_map(|s| s.kind.grid()) {
            fold(grid.span);
        }
        // A graph's edges written over several lines fold like a grid.
        for stmt in &block.statements {
            if let StatementKind::Graph(GraphSpec::Edges(list)) = &stmt.kind {
                fold(list.span);
            }
        }
    }
    out
}
