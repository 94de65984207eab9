//! Code actions: insert or replace the minimum solution (a sliding block's
//! moves), make an unsolvable puzzle solvable with the smallest change to
//! `lights`, and write `expect` lines for the current result.

use std::collections::HashMap;

use lights_compiler::check;
use lights_compiler::diagnostic::Code;
use lights_compiler::edit::{self, TextEdit};
use lights_compiler::model::Puzzle;
use lights_compiler::repair::{make_solvable, CellChange};
use lights_compiler::sliding::SlidingPuzzle;
use lights_compiler::sliding_check;
use lights_compiler::summary;
use lights_syntax::ast::PuzzleBlock;
use tower_lsp_server::lsp_types::{
    self as lsp, CodeAction, CodeActionKind, CodeActionOrCommand, DocumentChanges, NumberOrString, OneOf,
    OptionalVersionedTextDocumentIdentifier, Range, TextDocumentEdit, WorkspaceEdit,
};

use crate::document::Snapshot;
use crate::engine::Engine;

/// How the client wants workspace edits.
#[derive(Clone, Copy, Debug, Default)]
pub struct EditSupport {
    /// `documentChanges` with the document's version (else plain `changes`).
    pub document_changes: bool,
}

pub fn code_actions(
    doc: &Snapshot,
    engine: &Engine,
    range: Range,
    context: &[lsp::Diagnostic],
    support: EditSupport,
    cancel: &dyn Fn() -> bool,
) -> Vec<CodeActionOrCommand> {
    let start = doc.map.offset(&doc.text, range.start);
    let end = doc.map.offset(&doc.text, range.end);
    let mut out = Vec::new();
    let related = |codes: &[Code]| -> Vec<lsp::Diagnostic> {
        context
            .iter()
            .filter(|d| matches!(&d.code, Some(NumberOrString::String(c)) if codes.iter().any(|k| k.as_str() == c)))
            .cloned()
            .collect()
    };
    for i in doc.puzzles_in(start, end) {
        if let Some(a) = sliding_solution_action(doc, engine, i, &related, support) {
            out.push(a);
        }
        if let Some(a) = sliding_expect_action(doc, engine, i, &related, support) {
            out.push(a);
        }
        let (Some(model), Some(report)) = (&doc.analysis.puzzles[i].model, doc.report(i, engine)) else { continue };
        let block = &doc.analysis.syntax.puzzles[i];
        if let Some(min) = &report.minimum {
            let same = model
                .solution
                .as_ref()
                .is_some_and(|s| s.presses.values.iter().map(|&v| u32::from(v)).eq(min.presses.iter().copied()));
            if let (false, Some(e)) = (same, edit::solution(&doc.text, block, model, &min.presses)) {
                let title = if model.solution.is_some() { "Replace solution" } else { "Insert minimum solution" };
                let fixes = related(&[Code::WrongSolution, Code::LockedPress]);
                let kind =
                    if model.solution.is_some() { CodeActionKind::QUICKFIX } else { CodeActionKind::REFACTOR_REWRITE };
                let title = format!("{title} ({})", summary::presses(min.cost));
                out.push(action(doc, title, kind, &[e], fixes, support));
            }
        }
        let unsolvable = related(&[Code::Unsolvable]);
        if !report.solvable && !expects_none(model) {
            if let Some(changes) = make_solvable(model, cancel) {
                let edits: Vec<TextEdit> = match changes.as_slice() {
                    [one] => edit::lights_cell(&doc.text, block, model, one.index, one.to).into_iter().collect(),
                    _ => lights_edits(&doc.text, block, model, &changes),
                };
                if !edits.is_empty() {
                    let title = make_solvable_title(model, &changes);
                    let mut a = action(doc, title, CodeActionKind::QUICKFIX, &edits, unsolvable, support);
                    if let CodeActionOrCommand::CodeAction(a) = &mut a {
                        a.is_preferred = Some(true);
                    }
                    out.push(a);
                }
            }
        }
        // Offered when there is no claim yet or one is false: true claims
        // (say `expect solvable`) are the author's to keep.
        let wrong = model.expects.iter().any(|e| !check::claim_holds(&report, &e.claim));
        let edits = edit::expectations(&doc.text, block, &report);
        let current: Vec<String> = model.expects.iter().map(|e| e.claim.to_string()).collect();
        if !edits.is_empty() && current != edit::claims_for(&report) && (model.expects.is_empty() || wrong) {
            let fixes = related(&[Code::ExpectationFailed]);
            let kind =
                if model.expects.is_empty() { CodeActionKind::REFACTOR_REWRITE } else { CodeActionKind::QUICKFIX };
            out.push(action(doc, "Add expect lines for the current result".to_string(), kind, &edits, fixes, support));
        }
    }
    out
}

/// Insert (or replace a wrong or longer) `solution "…"` in sliding block `i`.
fn sliding_solution_action(
    doc: &Snapshot,
    engine: &Engine,
    i: usize,
    related: &dyn Fn(&[Code]) -> Vec<lsp::Diagnostic>,
    support: EditSupport,
) -> Option<CodeActionOrCommand> {
    let (p, e) = sliding_solution_edit(doc, engine, i)?;
    let report = doc.sliding_report(i, engine)?;
    let found = report.solution.as_ref()?;
    let n = sliding_check::moves(found.len() as u64);
    let length = if found.optimal { format!("{n}, optimal") } else { format!("{n}, not proven fewest") };
    let (title, kind) = match &p.solution {
        None => (format!("Insert solution ({length})"), CodeActionKind::REFACTOR_REWRITE),
        Some(_) => (format!("Replace solution ({length})"), CodeActionKind::QUICKFIX),
    };
    Some(action(doc, title, kind, &[e], related(&[Code::WrongSolution]), support))
}

/// Write the `expect` line of sliding block `i`'s result, unless it is there.
fn sliding_expect_action(
    doc: &Snapshot,
    engine: &Engine,
    i: usize,
    related: &dyn Fn(&[Code]) -> Vec<lsp::Diagnostic>,
    support: EditSupport,
) -> Option<CodeActionOrCommand> {
    let p = doc.analysis.puzzles.get(i)?.sliding.as_ref()?;
    let report = doc.sliding_report(i, engine)?;
    // Offered when there is no claim yet or one is false: true claims (say
    // `expect solvable` beside `expect moves 31`) are the author's to keep.
    if p.expects.iter().all(|e| sliding_check::claim_holds(&report, e.claim)) && !p.expects.is_empty() {
        return None;
    }
    let claims = sliding_check::claims_for(&report);
    let edits = edit::expect_lines(&doc.text, &doc.analysis.syntax.puzzles[i], &claims);
    if edits.is_empty() {
        return None;
    }
    let kind = if p.expects.is_empty() { CodeActionKind::REFACTOR_REWRITE } else { CodeActionKind::QUICKFIX };
    let fixes = related(&[Code::ExpectationFailed, Code::Unsolvable]);
    Some(action(doc, "Add expect lines for the current result".to_string(), kind, &edits, fixes, support))
}

/// The edit writing the found solution into sliding block `i`, when it
/// has none or a wrong or longer one.
fn sliding_solution_edit<'a>(doc: &'a Snapshot, engine: &Engine, i: usize) -> Option<(&'a SlidingPuzzle, TextEdit)> {
    let p = doc.analysis.puzzles.get(i)?.sliding.as_ref()?;
    let report = doc.sliding_report(i, engine)?;
    let found = sliding_check::solution_to_write(p, &report)?;
    let e = edit::move_solution(&doc.text, &doc.analysis.syntax.puzzles[i], &found.moves)?;
    Some((p, e))
}

/// Whether the puzzle says it has no solution (`expect unsolvable` or `expect solutions 0`).
pub fn expects_none(model: &Puzzle) -> bool {
    model.expects.iter().any(|e| check::expects_no_solution(&e.claim))
}

/// Several changed cells: one edit per grid cell when `lights` is a grid
/// written with single characters, else the whole statement rewritten.
fn lights_edits(src: &str, block: &PuzzleBlock, model: &Puzzle, changes: &[CellChange]) -> Vec<TextEdit> {
    let singles: Vec<TextEdit> =
        changes.iter().filter_map(|c| edit::lights_cell(src, block, model, c.index, c.to)).collect();
    let cells = model.lights.cell_spans.as_ref();
    let in_place = singles.len() == changes.len()
        && singles.iter().zip(changes).all(|(e, c)| cells.is_some_and(|spans| spans[c.index] == e.span));
    if in_place {
        return singles;
    }
    let mut values: Vec<u32> = model.lights.values.iter().map(|&v| u32::from(v)).collect();
    for c in changes {
        values[c.index] = c.to;
    }
    edit::lights_board(src, block, model, &values).into_iter().collect()
}

/// `Make solvable by toggling row 2, column 3`, `… by changing row 1, column 1 from 2 to 0`.
pub fn make_solvable_title(model: &Puzzle, changes: &[CellChange]) -> String {
    let describe = |c: &CellChange| {
        let (r, col) = (c.index / model.cols + 1, c.index % model.cols + 1);
        if model.states == 2 {
            format!("row {r}, column {col}")
        } else {
            format!("row {r}, column {col} from {} to {}", c.from, c.to)
        }
    };
    let verb = if model.states == 2 { "toggling" } else { "changing" };
    let parts: Vec<String> = changes.iter().map(describe).collect();
    format!("Make solvable by {verb} {}", parts.join(" and "))
}

fn action(
    doc: &Snapshot,
    title: String,
    kind: CodeActionKind,
    edits: &[TextEdit],
    diagnostics: Vec<lsp::Diagnostic>,
    support: EditSupport,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(kind),
        diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
        edit: Some(workspace_edit(doc, edits, support)),
        ..Default::default()
    })
}

/// The exact edit, against the version the client last sent.
pub fn workspace_edit(doc: &Snapshot, edits: &[TextEdit], support: EditSupport) -> WorkspaceEdit {
    let lsp_edits: Vec<lsp::TextEdit> = edits
        .iter()
        .map(|e| lsp::TextEdit { range: doc.map.range(&doc.text, e.span), new_text: e.text.clone() })
        .collect();
    if support.document_changes {
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: doc.uri.clone(),
                    version: Some(doc.version),
                },
                edits: lsp_edits.into_iter().map(OneOf::Left).collect(),
            }])),
            ..Default::default()
        }
    } else {
        WorkspaceEdit { changes: Some(HashMap::from([(doc.uri.clone(), lsp_edits)])), ..Default::default() }
    }
}

/// The edit of the code lens command: insert or replace the minimum solution
/// of puzzle `i` (of a sliding block: the solution found).
pub fn insert_solution(doc: &Snapshot, engine: &Engine, i: usize, support: EditSupport) -> Option<WorkspaceEdit> {
    if let Some((_, e)) = sliding_solution_edit(doc, engine, i) {
        return Some(workspace_edit(doc, &[e], support));
    }
    let model = doc.analysis.puzzles.get(i)?.model.as_ref()?;
    let report = doc.report(i, engine)?;
    let min = report.minimum.as_ref()?;
    let e = edit::solution(&doc.text, &doc.analysis.syntax.puzzles[i], model, &min.presses)?;
    Some(workspace_edit(doc, &[e], support))
}
