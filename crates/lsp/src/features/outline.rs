//! Document symbols (one per puzzle) and folding ranges (blocks, grids).

use lights_syntax::{BlockKind, Span};
use tower_lsp_server::lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};

use crate::document::Snapshot;

pub fn symbols(doc: &Snapshot) -> Vec<DocumentSymbol> {
    doc.analysis
        .syntax
        .puzzles
        .iter()
        .zip(&doc.analysis.puzzles)
        .map(|(block, p)| {
            let name = block.name.as_ref().map_or_else(|| "(unnamed puzzle)".to_string(), |n| n.value.clone());
            let name = if name.is_empty() { "(empty name)".to_string() } else { name };
            let detail = match (&p.model, &p.sliding) {
                (Some(m), _) => Some(format!(
                    "{}×{} · {} · {} · {} states",
                    m.rows,
                    m.cols,
                    m.rule.name(),
                    m.topology.name(),
                    m.states
                )),
                (None, Some(s)) => Some(format!("{}×{} sliding", s.rows, s.cols)),
                (None, None) if p.kind == BlockKind::Sliding => Some("sliding".to_string()),
                (None, None) => None,
            };
            let selection = block.name.as_ref().map_or(block.head, |n| n.span);
            #[allow(deprecated)] // `deprecated` is a required field of the type
            DocumentSymbol {
                name,
                detail,
                kind: SymbolKind::OBJECT,
                tags: None,
                deprecated: None,
                range: doc.map.range(&doc.text, block.span),
                selection_range: doc.map.range(&doc.text, selection),
                children: None,
            }
        })
        .collect()
}

pub fn folding_ranges(doc: &Snapshot) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut fold = |span: Span| {
        let (start, end) = (doc.map.line_of(span.start), doc.map.line_of(span.end.saturating_sub(1)));
        if end > start {
            out.push(FoldingRange {
                start_line: start as u32,
                end_line: end as u32,
                kind: Some(FoldingRangeKind::Region),
                ..Default::default()
            });
        }
    };
    for block in &doc.analysis.syntax.puzzles {
        fold(block.span);
        for grid in block.statements.iter().filter_map(|s| s.kind.grid()) {
            fold(grid.span);
        }
    }
    out
}
