//! Code actions: insert or replace a block's solution (the minimum presses,
//! a sliding block's moves), make an unsolvable puzzle solvable with the
//! smallest change to `lights`, and write `expect` lines for the result.
//! Each is a title and the exact edits, as byte spans.

use lights_compiler::diagnostic::Code;
use lights_compiler::edit::{self, TextEdit};
use lights_compiler::model::Puzzle;
use lights_compiler::repair::{make_solvable, CellChange};
use lights_compiler::{SolutionEdit, SolutionPlan, Wording};
use lights_syntax::ast::BlockSyntax;
use lights_syntax::Span;

use crate::answers::Answers;
use crate::document::Document;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// Fixes a problem the block has.
    QuickFix,
    /// Rewrites a block that has no problem (adds what is missing).
    Rewrite,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub kind: ActionKind,
    /// The diagnostics (by code) this action fixes.
    pub fixes: Vec<Code>,
    pub edits: Vec<TextEdit>,
    /// The one to apply when the user asks for "the" fix.
    pub preferred: bool,
}

/// The actions for the blocks that overlap `span`. `cancel` bounds the
/// search for the smallest make-solvable change.
pub fn code_actions(doc: &Document, answers: &dyn Answers, span: Span, cancel: &dyn Fn() -> bool) -> Vec<Action> {
    let mut out = Vec::new();
    for i in doc.blocks_in(span) {
        let (Some((block, report)), Some(syntax)) = (doc.answered(i, answers), doc.syntax(i)) else { continue };
        if let Some(plan) = solution_plan(doc, i, answers) {
            let kind = if plan.replaces { ActionKind::QuickFix } else { ActionKind::Rewrite };
            out.push(Action {
                title: plan.title(Wording::Action),
                kind,
                fixes: vec![Code::WrongSolution, Code::LockedPress],
                edits: vec![plan.edit.clone()],
                preferred: false,
            });
        }
        // Lights Out only: the smallest change to `lights`.
        if let Some((model, r)) = block.answered(&report).as_ref().and_then(lights_compiler::Answered::as_lights) {
            if !r.solvable && !block.expects_no_solution() {
                out.extend(make_solvable_action(doc.text(), syntax, model, cancel));
            }
        }
        // Offered when there is no claim yet or one is false: true claims
        // (say `expect solvable`) are the author's to keep.
        let claims = block.claims();
        let wanted = block.claims_for(&report);
        if (claims.is_empty() || block.has_false_claim(&report)) && claims != wanted {
            let edits = edit::expect_lines(doc.text(), syntax, &wanted);
            if !edits.is_empty() {
                let kind = if claims.is_empty() { ActionKind::Rewrite } else { ActionKind::QuickFix };
                // `expect unsolvable` silences "cannot be solved".
                let mut fixes = vec![Code::ExpectationFailed];
                if !report.solvable() {
                    fixes.push(Code::Unsolvable);
                }
                out.push(Action {
                    title: "Add expect lines for the current result".to_string(),
                    kind,
                    fixes,
                    edits,
                    preferred: false,
                });
            }
        }
    }
    out
}

/// The edits of the lens's insert-solution command for block `i`.
pub fn insert_solution(doc: &Document, answers: &dyn Answers, i: usize) -> Option<Vec<TextEdit>> {
    solution_plan(doc, i, answers).map(|plan| vec![plan.edit])
}

/// The solution to write into block `i`, when one is due (the same rule as
/// `lights solve --write`: [`lights_compiler::Block::solution_plan`]).
/// Its titles are [`SolutionEdit::title`].
pub(crate) fn solution_plan(doc: &Document, i: usize, answers: &dyn Answers) -> Option<SolutionEdit> {
    let (block, report) = doc.answered(i, answers)?;
    match block.solution_plan(doc.text(), doc.syntax(i)?, &report) {
        SolutionPlan::Write(edit) => Some(edit),
        SolutionPlan::Keep | SolutionPlan::Nothing | SolutionPlan::TooLarge { .. } => None,
    }
}

/// "Make solvable by toggling row r, column c" (`node n` on a graph): the
/// smallest change to `lights` (one cell, else two), verified by solving
/// the changed puzzle. None when the change would put a light on a hole
/// (a hole has no light to change).
fn make_solvable_action(src: &str, syntax: &BlockSyntax, model: &Puzzle, cancel: &dyn Fn() -> bool) -> Option<Action> {
    let changes = make_solvable(model, cancel)?;
    if changes.iter().any(|c| model.is_hole(c.index)) {
        return None;
    }
    let edits: Vec<TextEdit> = match changes.as_slice() {
        [one] => edit::lights_cell(src, syntax, model, one.index, one.to).into_iter().collect(),
        _ => lights_edits(src, syntax, model, &changes),
    };
    if edits.is_empty() {
        return None;
    }
    Some(Action {
        title: make_solvable_title(model, &changes),
        kind: ActionKind::QuickFix,
        fixes: vec![Code::Unsolvable],
        edits,
        preferred: true,
    })
}

/// Several changed cells: one edit per grid cell when `lights` is a grid
/// written with single characters, else the whole statement rewritten.
fn lights_edits(src: &str, block: &BlockSyntax, model: &Puzzle, changes: &[CellChange]) -> Vec<TextEdit> {
    let singles: Vec<TextEdit> =
        changes.iter().filter_map(|c| edit::lights_cell(src, block, model, c.index, c.to)).collect();
    let cells = model.lights.cell_spans.as_ref();
    let in_place = singles.len() == changes.len()
        && singles.iter().zip(changes).all(|(e, c)| cells.is_some_and(|spans| spans.get(c.index) == Some(e.span)));
    if in_place {
        return singles;
    }
    let mut values: Vec<u32> = model.lights.iter().map(u32::from).collect();
    for c in changes {
        values[c.index] = c.to;
    }
    edit::lights_board(src, block, model, &values).into_iter().collect()
}

/// `Make solvable by toggling row 2, column 3`, `… by changing row 1, column 1 from 2 to 0`,
/// `… by toggling node 7`.
fn make_solvable_title(model: &Puzzle, changes: &[CellChange]) -> String {
    let describe = |c: &CellChange| {
        let place = if model.is_graph() {
            model.cell_label(c.index)
        } else {
            format!("row {}, column {}", c.index / model.cols + 1, c.index % model.cols + 1)
        };
        if model.states == 2 {
            place
        } else {
            format!("{place} from {} to {}", c.from, c.to)
        }
    };
    let verb = if model.states == 2 { "toggling" } else { "changing" };
    let parts: Vec<String> = changes.iter().map(describe).collect();
    format!("Make solvable by {verb} {}", parts.join(" and "))
}
