//! Hover: a grid cell's coordinates and what the solver knows about it (a
//! sliding tile: where it goes and how far); a stencil entry's offset; a
//! keyword, rule or topology's meaning; a block name's result.

use lights_compiler::model::Puzzle;
use lights_compiler::sliding::{SlidingGrid, SlidingPuzzle, BLANK};
use lights_compiler::solve::Report;
use lights_compiler::{Answered, Block};
use lights_syntax::ast::{Grid, PuzzleBlock, RuleSpec, StatementKind, Value};
use lights_syntax::Span;

use crate::answers::Answers;
use crate::document::Document;
use crate::reference;
use crate::status::status;

/// Markdown about the text at `span`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

pub fn hover(doc: &Document, answers: &dyn Answers, offset: usize) -> Option<Hover> {
    let syntax = &doc.analysis().syntax;
    if syntax.comments.iter().any(|c| c.contains(offset)) {
        return None;
    }
    let i = doc.block_at(offset);
    if let Some(i) = i {
        if let Some(hover) = cell_hover(doc, i, answers, offset) {
            return Some(hover);
        }
        if let Some(name) = doc.syntax(i).and_then(|b| b.name.as_ref()).filter(|n| n.span.contains(offset)) {
            let kind = doc.analysis().puzzles[i].kind;
            let mut text = format!("**{} \"{}\"** — {}", kind.keyword(), name.value, status(doc, i, answers));
            if let Some(block) = doc.block(i) {
                text.push_str(&format!("\n\n{}", block.describe()));
            }
            if let Some(Answered::Sliding(_, r)) = doc.answered(i, answers).as_ref().and_then(|(b, r)| b.answered(r)) {
                text.push_str(&format!("\n\n{}", r.invariant.explanation));
            }
            return Some(Hover { span: name.span, markdown: text });
        }
    }
    let (span, word) = word_at(doc.text(), offset)?;
    if syntax.puzzles.iter().any(|b| b.name.as_ref().is_some_and(|n| n.span.contains(offset))) {
        return None;
    }
    let described = match i {
        Some(i) => reference::describe_in(doc.analysis().puzzles[i].kind, word),
        None => reference::describe(word),
    };
    described.map(|text| Hover { span, markdown: text.to_string() })
}

/// A cell of one of block `i`'s grids.
fn cell_hover(doc: &Document, i: usize, answers: &dyn Answers, offset: usize) -> Option<Hover> {
    let syntax = doc.syntax(i)?;
    match doc.block(i).map(|b| &**b) {
        Some(Block::Sliding(s)) => tile_hover(s, offset),
        Some(Block::Lights(model)) => {
            let answered = doc.answered(i, answers);
            let report = answered.as_ref().and_then(|(_, r)| r.as_lights());
            grid_hover(doc.text(), syntax, Some(model), report, offset)
        }
        // A block with errors: its cells still say where they are.
        None if syntax.kind == lights_syntax::BlockKind::Puzzle => grid_hover(doc.text(), syntax, None, None, offset),
        None => None,
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

/// A cell of a sliding block's `tiles` or `goal`: which tile, where it is
/// in the other position, and how far apart (the Manhattan distance, the
/// fewest moves of that tile alone).
fn tile_hover(p: &SlidingPuzzle, offset: usize) -> Option<Hover> {
    let (grid, index) = p.cell_at(offset)?;
    let (here, there, this, other) = match grid {
        SlidingGrid::Tiles => (&p.tiles, &p.goal, "tiles", "goal"),
        SlidingGrid::Goal => (&p.goal, &p.tiles, "goal", "tiles"),
    };
    let span = match grid {
        SlidingGrid::Tiles => p.spans.tile_cells[index],
        SlidingGrid::Goal => p.spans.goal_cells.as_ref()?[index],
    };
    let tile = *here.get(index)?;
    let elsewhere = there.iter().position(|&t| t == tile)?;
    let place = |i: usize| format!("row {}, column {}", i / p.cols + 1, i % p.cols + 1);
    let name = if tile == BLANK { "the blank".to_string() } else { format!("tile {tile}") };
    let mut text = format!("**{name}** in `{this}` ({})", place(index));
    let (r1, c1, r2, c2) = (index / p.cols, index % p.cols, elsewhere / p.cols, elsewhere % p.cols);
    let distance = r1.abs_diff(r2) + c1.abs_diff(c2);
    let default = if grid == SlidingGrid::Tiles && *p.goal_is_default { " (the standard goal)" } else { "" };
    text.push_str(&format!("\n\nin `{other}`{default}: {}", place(elsewhere)));
    text.push_str(&match (distance, tile == BLANK) {
        (0, _) => " · already in place".to_string(),
        (1, _) => " · 1 step away".to_string(),
        (d, false) => format!(" · {d} steps away (Manhattan distance: it moves at least {d} times)"),
        (d, true) => format!(" · {d} steps away"),
    });
    Some(Hover { span, markdown: text })
}

/// What a grid holds, for the hover text.
enum GridKind {
    Board(&'static str),
    Stencil,
}

/// A cell of a `puzzle` block's grid (`lights`, `goal`, `locked`,
/// `solution`) or of its stencil.
fn grid_hover(
    src: &str,
    block: &PuzzleBlock,
    model: Option<&Puzzle>,
    report: Option<&Report>,
    offset: usize,
) -> Option<Hover> {
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
        let (r, c, span) = cell_at(grid, width, offset)?;
        let text = match kind {
            GridKind::Stencil => stencil_text(grid, r, c, span.text(src)),
            GridKind::Board(name) => board_text(name, model, report, r, c, span.text(src)),
        };
        return Some(Hover { span, markdown: text });
    }
    None
}

/// The cell of `grid` under `offset`: the one that holds it, else the one
/// that ends right before it (the cursor just after a spaced cell). A
/// compact row's cells touch, so a cell holding the offset always wins
/// over its left neighbour ending there.
fn cell_at(grid: &Grid, width: usize, offset: usize) -> Option<(usize, usize, Span)> {
    let cells: Vec<(usize, usize, Span)> = grid
        .rows
        .iter()
        .enumerate()
        .flat_map(|(r, row)| row.cells(width).into_iter().enumerate().map(move |(c, span)| (r, c, span)))
        .collect();
    cells
        .iter()
        .find(|(_, _, span)| span.contains(offset))
        .or_else(|| cells.iter().find(|(_, _, span)| span.end == offset && !span.is_empty()))
        .copied()
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
    let locked = if m.is_locked(i) { " · **locked**" } else { "" };
    text.push_str(&format!("\n\nlights {} · goal {}{locked}", m.lights.get(i), m.goal.get(i)));
    if let Some(report) = report {
        if let Some(min) = &report.minimum {
            let press = match min.presses.get(i) {
                0 => "not pressed".to_string(),
                1 => "pressed once".to_string(),
                n => format!("pressed {n} times"),
            };
            text.push_str(&format!("\n\nminimum solution: {press}"));
        }
        if let Some(y) = &report.certificate {
            text.push_str(&match y.get(i) {
                0 => "\n\ncertificate: not one of its cells".to_string(),
                w => format!("\n\ncertificate: part of it (weight {w})"),
            });
        }
    }
    text
}
