//! Code lens and inlay hints: each puzzle's result beside its header.

use serde_json::json;
use tower_lsp_server::lsp_types::{CodeLens, Command, InlayHint, InlayHintLabel, Position, Range};

use lights_compiler::sliding_check;

use super::status;
use crate::document::Snapshot;
use crate::engine::Engine;

/// The command a code lens runs to insert the minimum solution.
pub const INSERT_SOLUTION: &str = "lights.insertSolution";

/// A status lens above every block, and an "insert solution" lens on
/// solvable puzzles whose `solution` is missing or not minimum (sliding
/// blocks: missing, wrong or longer than the one found).
pub fn code_lenses(doc: &Snapshot, engine: &Engine) -> Vec<CodeLens> {
    let mut out = Vec::new();
    for (i, block) in doc.analysis.syntax.puzzles.iter().enumerate() {
        let range = head_line(doc, block.head.start);
        out.push(CodeLens {
            range,
            command: Some(Command { title: status(doc, i, engine), command: String::new(), arguments: None }),
            data: None,
        });
        if let Some(title) = sliding_solution_title(doc, i, engine) {
            out.push(insert_solution_lens(doc, range, i, title));
            continue;
        }
        let Some(report) = doc.report(i, engine) else { continue };
        let Some(min) = &report.minimum else { continue };
        let existing = doc.analysis.puzzles[i].model.as_ref().and_then(|m| m.solution.as_ref());
        let title = match existing {
            None => "insert minimum solution",
            Some(s) if s.presses.values.iter().map(|&v| u32::from(v)).ne(min.presses.iter().copied()) => {
                "replace solution with the minimum"
            }
            Some(_) => continue,
        };
        out.push(insert_solution_lens(doc, range, i, title.to_string()));
    }
    out
}

/// The title of a sliding block's insert-solution lens, when one is due.
fn sliding_solution_title(doc: &Snapshot, i: usize, engine: &Engine) -> Option<String> {
    let p = doc.analysis.puzzles[i].sliding.as_ref()?;
    let report = doc.sliding_report(i, engine)?;
    let found = sliding_check::solution_to_write(p, &report)?;
    let n = sliding_check::moves(found.len() as u64);
    Some(match (p.solution.is_some(), found.optimal) {
        (false, true) => format!("insert optimal solution ({n})"),
        (false, false) => format!("insert solution ({n}, not proven fewest)"),
        (true, true) => format!("replace solution with the optimal one ({n})"),
        (true, false) => format!("replace solution ({n}, not proven fewest)"),
    })
}

fn insert_solution_lens(doc: &Snapshot, range: Range, i: usize, title: String) -> CodeLens {
    CodeLens {
        range,
        command: Some(Command {
            title,
            command: INSERT_SOLUTION.to_string(),
            arguments: Some(vec![json!(doc.uri.as_str()), json!(i)]),
        }),
        data: None,
    }
}

/// An inlay hint at the end of each puzzle header in `range`.
pub fn inlay_hints(doc: &Snapshot, engine: &Engine, range: Range) -> Vec<InlayHint> {
    let mut out = Vec::new();
    for (i, block) in doc.analysis.syntax.puzzles.iter().enumerate() {
        let line = doc.map.line_of(block.head.end.saturating_sub(1));
        if (line as u32) < range.start.line || (line as u32) > range.end.line {
            continue;
        }
        let end = doc.map.line_end(&doc.text, line);
        out.push(InlayHint {
            position: doc.map.position(&doc.text, end),
            label: InlayHintLabel::String(status(doc, i, engine)),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        });
    }
    out
}

fn head_line(doc: &Snapshot, offset: usize) -> Range {
    let line = doc.map.line_of(offset);
    let start = doc.map.position(&doc.text, doc.map.line_start(line));
    Range::new(
        start,
        Position::new(start.line, doc.map.position(&doc.text, doc.map.line_end(&doc.text, line)).character),
    )
}
