//! The `lights-ide` layer's plain data as LSP values: byte spans become
//! positions in the negotiated encoding, diagnostics keep their code and
//! message (one-line notes appended; a drawn grid goes to the related
//! information, a line each), edits become workspace edits. Nothing here
//! decides what is said; it only changes the form.

use std::collections::HashMap;

use lights_compiler::diagnostic::Severity;
use lights_compiler::edit::TextEdit;
use lights_ide::{Action, ActionKind, Completion, CompletionKind, Fold, Hover, InlayHint, Lens, Problem, Symbol};
use lights_syntax::Span;
use serde_json::json;
use tower_lsp_server::lsp_types::{
    self as lsp, CodeAction, CodeActionKind, CodeActionOrCommand, CodeLens, Command, CompletionItem,
    CompletionItemKind, DiagnosticRelatedInformation, DiagnosticSeverity, DocumentChanges, DocumentSymbol,
    Documentation, FoldingRange, FoldingRangeKind, HoverContents, InlayHintLabel, InsertTextFormat, Location,
    MarkupContent, MarkupKind, NumberOrString, OneOf, OptionalVersionedTextDocumentIdentifier, Range, SymbolKind,
    TextDocumentEdit, WorkspaceEdit,
};

use crate::snapshot::Snapshot;

/// The command a code lens runs to insert a block's solution.
pub(crate) const INSERT_SOLUTION: &str = "lights.insertSolution";

/// How the client wants workspace edits.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EditSupport {
    /// `documentChanges` with the document's version (else plain `changes`).
    pub document_changes: bool,
}

fn range(snap: &Snapshot, span: Span) -> Range {
    snap.map.range(snap.doc.text(), span)
}

/// A note on the whole file, not a problem (the ide layer's "N more
/// problems are not shown" of a capped list).
pub(crate) fn note_on_the_file(message: String) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: Range::default(),
        severity: Some(DiagnosticSeverity::INFORMATION),
        source: Some("lights".into()),
        message,
        ..Default::default()
    }
}

/// The ide layer's formatting edits ([`lights_ide::format_edits`]) as LSP edits.
pub(crate) fn formatting_edits(snap: &Snapshot, edits: Vec<TextEdit>) -> Vec<lsp::TextEdit> {
    edits.into_iter().map(|e| text_edit(snap, e)).collect()
}

/// One byte-span edit as an LSP edit of the snapshot's text (its text
/// moved, not copied: a formatting edit can be the whole file).
fn text_edit(snap: &Snapshot, e: TextEdit) -> lsp::TextEdit {
    lsp::TextEdit { range: range(snap, e.span), new_text: e.text }
}

/// What a note becomes in an LSP diagnostic: a one-line note is appended to
/// the message; a drawn grid (a note of several lines: its title, then the
/// rows) would be misaligned and cut short in an editor's list of problems,
/// which uses a proportional font and one line per entry, so the message
/// keeps only its title and each row becomes a related-information entry of
/// its own (VS Code lists them under the problem and in its hover).
struct SplitNote<'a> {
    /// Appended to the message after `note: `.
    short: String,
    /// The grid's rows, common indentation removed (empty for a one-line note).
    rows: Vec<&'a str>,
}

fn split_note(note: &str) -> SplitNote<'_> {
    let mut lines = note.lines();
    let title = lines.next().unwrap_or("").trim_end();
    let rows: Vec<&str> = lines.map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
    if rows.is_empty() {
        return SplitNote { short: note.trim_end().to_string(), rows };
    }
    let indent = rows.iter().map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    let rows = rows.into_iter().map(|l| &l[indent..]).collect();
    let title = title.strip_suffix(':').unwrap_or(title);
    SplitNote { short: format!("{title}: drawn below, in the related information"), rows }
}

pub(crate) fn diagnostic(snap: &Snapshot, problem: &Problem) -> lsp::Diagnostic {
    let d = &problem.diagnostic;
    let here = range(snap, d.span);
    let mut message = d.message.clone();
    let mut grids: Vec<DiagnosticRelatedInformation> = Vec::new();
    for note in &d.notes {
        let split = split_note(note);
        message.push_str("\nnote: ");
        message.push_str(&split.short);
        grids.extend(split.rows.iter().map(|row| DiagnosticRelatedInformation {
            location: Location { uri: snap.uri.clone(), range: here },
            message: (*row).to_string(),
        }));
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .chain(&problem.related)
        .map(|l| DiagnosticRelatedInformation {
            location: Location { uri: snap.uri.clone(), range: range(snap, l.span) },
            message: l.message.clone(),
        })
        .chain(grids)
        .collect();
    lsp::Diagnostic {
        range: here,
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

pub(crate) fn lens(snap: &Snapshot, lens: &Lens) -> CodeLens {
    let command = match lens.insert_solution {
        Some(i) => Command {
            title: lens.title.clone(),
            command: INSERT_SOLUTION.to_string(),
            arguments: Some(vec![json!(snap.uri.as_str()), json!(i)]),
        },
        None => Command { title: lens.title.clone(), command: String::new(), arguments: None },
    };
    CodeLens { range: range(snap, lens.span), command: Some(command), data: None }
}

pub(crate) fn inlay_hint(snap: &Snapshot, hint: &InlayHint) -> lsp::InlayHint {
    lsp::InlayHint {
        position: snap.map.position(snap.doc.text(), hint.offset),
        label: InlayHintLabel::String(hint.label.clone()),
        kind: None,
        text_edits: None,
        tooltip: None,
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}

/// A code action; `context` is the client's diagnostics, of which those
/// with a code the action fixes are attached to it.
pub(crate) fn action(
    snap: &Snapshot,
    action: &Action,
    context: &[lsp::Diagnostic],
    support: EditSupport,
) -> CodeActionOrCommand {
    let fixed: Vec<lsp::Diagnostic> = context
        .iter()
        .filter(|d| matches!(&d.code, Some(NumberOrString::String(c)) if action.fixes.iter().any(|k| k.as_str() == c)))
        .cloned()
        .collect();
    CodeActionOrCommand::CodeAction(CodeAction {
        title: action.title.clone(),
        kind: Some(match action.kind {
            ActionKind::QuickFix => CodeActionKind::QUICKFIX,
            ActionKind::Rewrite => CodeActionKind::REFACTOR_REWRITE,
        }),
        diagnostics: (!fixed.is_empty()).then_some(fixed),
        edit: Some(workspace_edit(snap, &action.edits, support)),
        is_preferred: action.preferred.then_some(true),
        ..Default::default()
    })
}

/// The exact edit, against the version the client last sent.
pub(crate) fn workspace_edit(snap: &Snapshot, edits: &[TextEdit], support: EditSupport) -> WorkspaceEdit {
    let lsp_edits: Vec<lsp::TextEdit> = edits.iter().cloned().map(|e| text_edit(snap, e)).collect();
    if support.document_changes {
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: snap.uri.clone(),
                    version: Some(snap.version),
                },
                edits: lsp_edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..Default::default()
        }
    } else {
        WorkspaceEdit { changes: Some(HashMap::from([(snap.uri.clone(), lsp_edits)])), ..Default::default() }
    }
}

pub(crate) fn hover(snap: &Snapshot, hover: &Hover) -> lsp::Hover {
    lsp::Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: hover.markdown.clone() }),
        range: Some(range(snap, hover.span)),
    }
}

pub(crate) fn completion(item: &Completion) -> CompletionItem {
    CompletionItem {
        label: item.label.clone(),
        kind: Some(match item.kind {
            CompletionKind::Keyword => CompletionItemKind::KEYWORD,
            CompletionKind::Snippet => CompletionItemKind::SNIPPET,
            CompletionKind::Name => CompletionItemKind::ENUM_MEMBER,
            CompletionKind::Value => CompletionItemKind::VALUE,
        }),
        detail: Some(item.detail.clone()),
        documentation: Some(Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: item.documentation.clone(),
        })),
        insert_text: Some(item.insert.clone()),
        insert_text_format: Some(if item.is_snippet {
            InsertTextFormat::SNIPPET
        } else {
            InsertTextFormat::PLAIN_TEXT
        }),
        ..Default::default()
    }
}

pub(crate) fn symbol(snap: &Snapshot, symbol: &Symbol) -> DocumentSymbol {
    #[allow(deprecated)] // `deprecated` is a required field of the type
    DocumentSymbol {
        name: symbol.name.clone(),
        detail: symbol.detail.clone(),
        kind: SymbolKind::OBJECT,
        tags: None,
        deprecated: None,
        range: range(snap, symbol.span),
        selection_range: range(snap, symbol.selection),
        children: None,
    }
}

pub(crate) fn folding_range(fold: &Fold) -> FoldingRange {
    FoldingRange {
        start_line: fold.start_line as u32,
        end_line: fold.end_line as u32,
        kind: Some(FoldingRangeKind::Region),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::split_note;

    #[test]
    fn a_one_line_note_is_kept_whole() {
        let split = split_note("did you mean `king`?");
        assert_eq!(split.short, "did you mean `king`?");
        assert!(split.rows.is_empty());
    }

    #[test]
    fn a_grid_note_keeps_its_title_and_gives_its_rows_without_the_common_indent() {
        let split = split_note("the board after these presses:\n  . . 1\n  . 1 .\n  1 . .");
        assert_eq!(split.short, "the board after these presses: drawn below, in the related information");
        assert_eq!(split.rows, [". . 1", ". 1 .", "1 . ."]);
        // A hex board's shifted rows keep their shift.
        let hex = split_note("the marked cells:\n  1 . 1\n   . 1 .\n");
        assert_eq!(hex.rows, ["1 . 1", " . 1 ."]);
    }
}
