//! The compiler's [`Diagnostic`] as an LSP diagnostic: same code, same
//! message, the notes appended, secondary labels as related information.

use std::time::Duration;

use lights_compiler::diagnostic::{Diagnostic, Severity};
use lights_compiler::model::Puzzle;
use tower_lsp_server::lsp_types::{
    self as lsp, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
};

use crate::document::Snapshot;

/// At most this many certificate cells are listed as related information.
const MAX_RELATED_CELLS: usize = 64;

pub fn diagnostic(doc: &Snapshot, d: &Diagnostic) -> lsp::Diagnostic {
    let mut message = d.message.clone();
    for note in &d.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location { uri: doc.uri.clone(), range: doc.map.range(&doc.text, l.span) },
            message: l.message.clone(),
        })
        .collect();
    lsp::Diagnostic {
        range: doc.map.range(&doc.text, d.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("lights".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// Point at the cells of an unsolvability certificate: in the `lights`
/// grid when there is one, else in the `goal` grid.
pub fn add_certificate_cells(doc: &Snapshot, d: &mut lsp::Diagnostic, model: &Puzzle, y: &[u32]) {
    let spans = model.lights.cell_spans.as_ref().or(model.goal.cell_spans.as_ref());
    let Some(spans) = spans else { return };
    let uniform = y.iter().filter(|&&v| v != 0).all(|&v| Some(v) == y.iter().copied().find(|&v| v != 0));
    let related = d.related_information.get_or_insert_with(Vec::new);
    for (i, &weight) in y.iter().enumerate().filter(|(_, &v)| v != 0).take(MAX_RELATED_CELLS) {
        let message = if uniform {
            format!("marked cell {}", model.coord(i))
        } else {
            format!("cell {} has weight {weight}", model.coord(i))
        };
        related.push(DiagnosticRelatedInformation {
            location: Location { uri: doc.uri.clone(), range: doc.map.range(&doc.text, spans[i]) },
            message,
        });
    }
}

/// `250 ms`, `10 s`, `1.5 s`.
pub fn duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}
