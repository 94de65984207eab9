//! Hover: a grid cell's coordinates and what the solver knows about it; a
//! keyword, rule or topology's meaning; a puzzle header's result.

use lights_compiler::model::Puzzle;
use lights_compiler::solve::Report;
use lights_syntax::ast::{BlockKind, Grid, RuleSpec, StatementKind, Value};
use lights_syntax::Span;
use tower_lsp_server::lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use super::status;
use crate::document::Snapshot;
use crate::engine::Engine;
use crate::reference;

pub fn hover(doc: &Snapshot, engine: &Engine, pos: Position) -> Option<Hover> {
    let offset = doc.map.offset(&doc.text, pos);
    if doc.analysis.syntax.comments.iter().any(|c| c.contains(offset)) {
        return None;
    }
    let i = doc.puzzle_at(offset);
    if let Some(i) = i {
        let block = &doc.analysis.syntax.puzzles[i];
        let model = doc.analysis.puzzles[i].model.as_ref();
        let report = doc.report(i, engine);
        // Cells of sliding blocks are tiles, not lights: no cell hover for them yet.
        let lights_cell = || match block.kind {
            BlockKind::Puzzle => cell_hover(doc, block, model, report.as_deref(), offset),
            BlockKind::Sliding => None,
        };
        if let Some((span, text)) = lights_cell() {
            return Some(markdown(doc, span, text));
        }
        if let Some(name) = &block.name {
            if name.span.contains(offset) {
                let analysis = &doc.analysis.puzzles[i];
                let mut text =
                    format!("**{} \"{}\"** — {}", analysis.kind.keyword(), name.value, status(doc, i, engine));
                if let Some(s) = &analysis.sliding {
                    text.push_str(&format!("\n\n{}×{} sliding tiles", s.rows, s.cols));
                }
                if let Some(m) = model {
                    text.push_str(&format!(
                        "\n\n{}×{} · {} · {} · {} states",
                        m.rows,
                        m.cols,
                        m.rule.name(),
                        m.topology.name(),
                        m.states
                    ));
                }
                return Some(markdown(doc, name.span, text));
            }
        }
    }
    let (span, word) = word_at(&doc.text, offset)?;
    if doc.analysis.syntax.puzzles.iter().any(|b| b.name.as_ref().is_some_and(|n| n.span.contains(offset))) {
        return None;
    }
    reference::describe(word).map(|doc_text| markdown(doc, span, doc_text.to_string()))
}

fn markdown(doc: &Snapshot, span: Span, value: String) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
        range: Some(doc.map.range(&doc.text, span)),
    }
}

/// The word (`[a-z-]+`) around `offset`.
fn word_at(text: &str, offset: usize) -> Option<(Span, &str)> {
    let is_word = |b: u8| b.is_ascii_lowercase() || b == b'-';
    let bytes = text.as_bytes();
    let mut start = offset.min(bytes.len());
    while start > 0 && is_word(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = offset.min(bytes.len());
    while end < bytes.len() && is_word(bytes[end]) {
        end += 1;
    }
    (start < end).then(|| (Span::new(start, end), &text[start..end]))
}

/// What a grid holds, for the hover text.
enum GridKind {
    Board(&'static str),
    Stencil,
}

fn cell_hover(
    doc: &Snapshot,
    block: &lights_syntax::ast::PuzzleBlock,
    model: Option<&Puzzle>,
    report: Option<&Report>,
    offset: usize,
) -> Option<(Span, String)> {
    for stmt in &block.statements {
        let (grid, kind): (&Grid, GridKind) = match &stmt.kind {
            StatementKind::Lights(Value::Grid(g)) => (g, GridKind::Board("lights")),
            StatementKind::Goal(Value::Grid(g)) => (g, GridKind::Board("goal")),
            StatementKind::Locked(Value::Grid(g)) => (g, GridKind::Board("locked")),
            StatementKind::Solution(Value::Grid(g)) => (g, GridKind::Board("solution")),
            StatementKind::Rule(RuleSpec::Stencil(g)) => (g, GridKind::Stencil),
            _ => continue,
        };
        if !grid.span.contains(offset) {
            continue;
        }
        let width = match kind {
            GridKind::Stencil => lights_syntax::format::stencil_width(grid),
            GridKind::Board(_) => model.map_or_else(|| grid.rows.first().map_or(0, |r| r.tokens.len()), |m| m.cols),
        };
        for (r, row) in grid.rows.iter().enumerate() {
            for (c, span) in row.cells(width).into_iter().enumerate() {
                if !(span.contains(offset) || (span.end == offset && !span.is_empty())) {
                    continue;
                }
                let text = match kind {
                    GridKind::Stencil => stencil_text(grid, r, c, span.text(&doc.text)),
                    GridKind::Board(name) => board_text(name, model, report, r, c, span.text(&doc.text)),
                };
                return Some((span, text));
            }
        }
    }
    None
}

fn stencil_text(grid: &Grid, r: usize, c: usize, written: &str) -> String {
    let (h, w) = (grid.rows.len() as i64, lights_syntax::format::stencil_width(grid) as i64);
    let (dr, dc) = (r as i64 - h / 2, c as i64 - w / 2);
    let amount = if written == "." { "0".to_string() } else { written.to_string() };
    let place = if dr == 0 && dc == 0 {
        "the pressed cell itself".to_string()
    } else {
        format!("offset ({dr:+}, {dc:+}) from the pressed cell")
    };
    format!("**stencil entry** at {place}: a press adds {amount} here")
}

fn board_text(
    grid: &str,
    model: Option<&Puzzle>,
    report: Option<&Report>,
    r: usize,
    c: usize,
    written: &str,
) -> String {
    let mut text = format!("**cell {},{}** of `{grid}` (row {}, column {})", r + 1, c + 1, r + 1, c + 1);
    let Some(m) = model.filter(|m| r < m.rows && c < m.cols) else {
        return format!("{text}\n\nwritten `{written}`");
    };
    let i = m.index(r, c);
    let locked = if m.locked[i] { " · **locked**" } else { "" };
    text.push_str(&format!("\n\nlights {} · goal {}{locked}", m.lights.values[i], m.goal.values[i]));
    if let Some(report) = report {
        if let Some(min) = &report.minimum {
            let press = match min.presses[i] {
                0 => "not pressed".to_string(),
                1 => "pressed once".to_string(),
                n => format!("pressed {n} times"),
            };
            text.push_str(&format!("\n\nminimum solution: {press}"));
        }
        if let Some(y) = &report.certificate {
            text.push_str(&match y[i] {
                0 => "\n\ncertificate: not one of its cells".to_string(),
                w => format!("\n\ncertificate: part of it (weight {w})"),
            });
        }
    }
    text
}
