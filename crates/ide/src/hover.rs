//! Hover: a grid cell's coordinates and what the solver knows about it (a
//! sliding tile: where it goes and how far); a hole; on a hex board or a
//! graph, a cell's or node's neighbours; an entry of an `at` list; a node of
//! a written graph, or the graph's summary; a stencil entry's offset; a
//! keyword, rule, topology, grid or graph name's meaning; a block name's
//! result. Over a diagnostic whose note draws a board (a wrong solution's
//! board after its presses, the cells of a proof), the board too, in
//! monospace: an editor's list of problems shows only the note's title.

use lights_compiler::lower::press_pattern;
use lights_compiler::model::{Graph, GraphKind, Puzzle, Rule, Shape};
use lights_compiler::sliding::{SlidingGrid, SlidingPuzzle, BLANK};
use lights_compiler::solve::Report;
use lights_compiler::Block;
use lights_syntax::ast::{BlockSyntax, Entry, GraphSpec, Grid, RuleSpec, Statement, StatementKind, Value};
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
    let here = hover_here(doc, answers, offset);
    let Some((span, boards)) = drawn_notes(doc, answers, offset) else { return here };
    Some(match here {
        Some(mut h) => {
            h.markdown.push_str("\n\n---\n\n");
            h.markdown.push_str(&boards);
            h
        }
        None => Hover { span, markdown: boards },
    })
}

/// The boards drawn by the notes of the block diagnostics under `offset`,
/// each under its code and title in a `text` block, with the span of the
/// first such diagnostic; `None` when there is none (or in a comment).
fn drawn_notes(doc: &Document, answers: &dyn Answers, offset: usize) -> Option<(Span, String)> {
    if doc.analysis().syntax.comments.iter().any(|c| c.contains(offset)) {
        return None;
    }
    let i = doc.block_at(offset)?;
    let mut span = None;
    let mut parts = Vec::new();
    for d in crate::diagnostics::block_diagnostics(doc, i, answers) {
        if !d.span.contains(offset) {
            continue;
        }
        for note in &d.notes {
            let Some((title, board)) = note.split_once('\n') else { continue };
            let rows: Vec<&str> = board.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
            let indent = rows.iter().map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
            let rows: Vec<&str> = rows.iter().map(|l| &l[indent..]).collect();
            parts.push(format!("**{}** {}\n\n```text\n{}\n```", d.code.as_str(), title.trim_end(), rows.join("\n")));
            span.get_or_insert(d.span);
        }
    }
    Some((span?, parts.join("\n\n")))
}

fn hover_here(doc: &Document, answers: &dyn Answers, offset: usize) -> Option<Hover> {
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
            let kind = doc.analysis().blocks[i].kind;
            let mut text = format!("**{} \"{}\"** — {}", kind.keyword(), name.value, status(doc, i, answers));
            if let Some(block) = doc.block(i) {
                text.push_str(&format!("\n\n{}", block.describe()));
            }
            if let Some(note) = doc.answered(i, answers).as_ref().and_then(|(_, r)| r.hover_note()) {
                text.push_str(&format!("\n\n{note}"));
            }
            return Some(Hover { span: name.span, markdown: text });
        }
    }
    let (span, word) = word_at(doc.text(), offset)?;
    if syntax.blocks.iter().any(|b| b.name.as_ref().is_some_and(|n| n.span.contains(offset))) {
        return None;
    }
    let described = match i {
        Some(i) => reference::describe_in(doc.analysis().blocks[i].kind, word),
        None => reference::describe(word),
    };
    described.map(|text| Hover { span, markdown: text.to_string() })
}

/// A cell of one of block `i`'s grids.
fn cell_hover(doc: &Document, i: usize, answers: &dyn Answers, offset: usize) -> Option<Hover> {
    let syntax = doc.syntax(i)?;
    // The cells of each kind are told apart by gates: a sliding board's
    // tiles, a Lights Out board's lights and presses.
    let block = doc.block(i).map(|b| &**b);
    if let Some(s) = block.and_then(Block::as_sliding) {
        return tile_hover(s, offset);
    }
    let src = doc.text();
    if let Some(model) = block.and_then(Block::as_lights) {
        let answered = doc.answered(i, answers);
        let report = answered.as_ref().and_then(|(_, r)| r.as_lights());
        return grid_hover(src, syntax, Some(model), report, offset)
            .or_else(|| list_hover(src, syntax, Some(model), report, offset))
            .or_else(|| graph_hover(src, syntax, model, report, offset));
    }
    // A puzzle with errors: its cells still say where they are.
    if block.is_none() && syntax.kind.is_lights() {
        return grid_hover(src, syntax, None, None, offset).or_else(|| list_hover(src, syntax, None, None, offset));
    }
    None
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

/// A cell of a `puzzle` block's grid (`lights`, `goal`, `locked`, `holes`,
/// `solution`) or of its stencil.
fn grid_hover(
    src: &str,
    block: &BlockSyntax,
    model: Option<&Puzzle>,
    report: Option<&Report>,
    offset: usize,
) -> Option<Hover> {
    for stmt in &block.statements {
        let (grid, kind): (&Grid, GridKind) = match &stmt.kind {
            StatementKind::Lights(Value::Grid(g)) => (g, GridKind::Board("lights")),
            StatementKind::Goal(Value::Grid(g)) => (g, GridKind::Board("goal")),
            StatementKind::Locked(Value::Grid(g)) => (g, GridKind::Board("locked")),
            StatementKind::Holes(Value::Grid(g)) => (g, GridKind::Board("holes")),
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
    let text = format!("**cell {},{}** of `{grid}` (row {}, column {})", r + 1, c + 1, r + 1, c + 1);
    match model.filter(|m| !m.is_graph() && r < m.rows && c < m.cols) {
        Some(m) => format!("{text}\n\n{}", cell_text(m, report, m.index(r, c))),
        None => format!("{text}\n\nwritten `{written}`"),
    }
}

/// At most this many neighbours are listed in a hover.
const MAX_LISTED_NEIGHBOURS: usize = 12;

/// What the model and the solver say about cell (or node) `i`: a hole, or
/// its light and goal, whether it is locked, its neighbours on a hex board
/// or a graph, its presses in the minimum solution and its weight in the
/// certificate.
fn cell_text(m: &Puzzle, report: Option<&Report>, i: usize) -> String {
    // A hole is also locked (it has no button): it is said first.
    if m.is_hole(i) {
        return "a **hole**: no light and no button (presses skip it)".to_string();
    }
    let locked = if m.is_locked(i) { " · **locked**" } else { "" };
    let mut text = format!("lights {} · goal {}{locked}", m.lights.get(i), m.goal.get(i));
    if m.shape != Shape::Square {
        text.push_str(&format!("\n\n{}", neighbours_text(m, i)));
    }
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

/// `neighbours (6): 1,1 · 1,2 · … — a press changes them and the cell itself`.
fn neighbours_text(m: &Puzzle, i: usize) -> String {
    let mut around: Vec<usize> =
        press_pattern(m, i / m.cols, i % m.cols).into_iter().map(|(j, _)| j).filter(|&j| j != i).collect();
    around.sort_unstable();
    let what = if m.is_graph() { "node" } else { "cell" };
    let press = match m.rule {
        Rule::Ring => format!("a press changes them, not the {what} itself"),
        _ => format!("a press changes them and the {what} itself"),
    };
    if around.is_empty() {
        let only = if m.rule == Rule::Ring { "nothing" } else { "only itself" };
        return format!("no neighbours: a press changes {only}");
    }
    let mut listed: Vec<String> = around.iter().take(MAX_LISTED_NEIGHBOURS).map(|&j| m.coord(j)).collect();
    if around.len() > MAX_LISTED_NEIGHBOURS {
        listed.push(format!("… {} more", around.len() - MAX_LISTED_NEIGHBOURS));
    }
    format!("neighbours ({}): {} — {press}", around.len(), listed.join(" · "))
}

/// The board statement a value is written for, by its keyword.
fn value_of(stmt: &Statement) -> Option<(&'static str, &Value)> {
    match &stmt.kind {
        StatementKind::Lights(v) => Some(("lights", v)),
        StatementKind::Goal(v) => Some(("goal", v)),
        StatementKind::Locked(v) => Some(("locked", v)),
        StatementKind::Holes(v) => Some(("holes", v)),
        StatementKind::Solution(v) => Some(("solution", v)),
        _ => None,
    }
}

/// An entry of an `at` list: a node (`at 4:2`) or a cell (`at 2,3`).
fn list_hover(
    src: &str,
    block: &BlockSyntax,
    model: Option<&Puzzle>,
    report: Option<&Report>,
    offset: usize,
) -> Option<Hover> {
    for stmt in &block.statements {
        let Some((keyword, Value::Sparse(list))) = value_of(stmt) else { continue };
        if !list.span.contains(offset) && list.span.end != offset {
            continue;
        }
        // An entry's text, without the space after it.
        let written = |e: &Entry| {
            let last = e.value.as_ref().or(e.col.as_ref()).unwrap_or(&e.row);
            Span::new(e.span.start, last.span.end.max(e.span.start))
        };
        let entries = &list.entries;
        let entry: &Entry = entries
            .iter()
            .find(|e| written(e).contains(offset))
            .or_else(|| entries.iter().find(|e| written(e).end == offset))?;
        let span = written(entry);
        let index = entry_index(entry, model);
        let head = match &entry.col {
            None => format!("**node {}** of `{keyword}`{}", entry.row.text, graph_name(model)),
            Some(col) => {
                format!(
                    "**cell {},{}** of `{keyword}` (row {}, column {})",
                    entry.row.text, col.text, entry.row.text, col.text
                )
            }
        };
        let text = match (model, index) {
            (Some(m), Some(i)) => format!("{head}\n\n{}", cell_text(m, report, i)),
            _ => format!("{head}\n\nwritten `{}`", span.text(src)),
        };
        return Some(Hover { span, markdown: text });
    }
    None
}

/// ` (graph petersen)`, ` (a written graph)`; nothing without a graph.
fn graph_name(model: Option<&Puzzle>) -> String {
    match model.and_then(|m| m.shape.graph()) {
        Some(g) if g.kind == GraphKind::Custom => " (a written graph)".to_string(),
        Some(g) => format!(" (graph {})", g.describe()),
        None => String::new(),
    }
}

/// The cell an entry names in `model`, when it fits the model's shape.
fn entry_index(entry: &Entry, model: Option<&Puzzle>) -> Option<usize> {
    let m = model?;
    let row = usize::try_from(entry.row.value()?).ok()?.checked_sub(1)?;
    match (&entry.col, m.is_graph()) {
        (None, true) => (row < m.cells()).then_some(row),
        (Some(col), false) => {
            let col = usize::try_from(col.value()?).ok()?.checked_sub(1)?;
            (row < m.rows && col < m.cols).then(|| m.index(row, col))
        }
        _ => None,
    }
}

/// The `graph` statement: a node number of a written graph, else (its name,
/// its size, its braces) the graph's summary. The keyword itself is left to
/// the reference.
fn graph_hover(
    src: &str,
    block: &BlockSyntax,
    model: &Puzzle,
    report: Option<&Report>,
    offset: usize,
) -> Option<Hover> {
    let g = model.shape.graph()?;
    let stmt = block.statements.iter().find(|s| matches!(s.kind, StatementKind::Graph(_)))?;
    let StatementKind::Graph(spec) = &stmt.kind else { return None };
    let (span, summary_doc) = match spec {
        GraphSpec::Named { name, size } => {
            let span = size.as_ref().map_or(name.span, |n| name.span.join(n.span));
            let doc = crate::reference::GRAPHS.iter().find(|w| w.word == name.text).map(|w| w.doc);
            (span, doc)
        }
        GraphSpec::Edges(list) => {
            let numbers = list.items.iter().flat_map(|item| std::iter::once(item.a(src)).chain(item.b(src)));
            for n in numbers {
                if n.span.contains(offset) || n.span.end == offset {
                    let i = n.value().and_then(|v| usize::try_from(v).ok()).and_then(|v| v.checked_sub(1));
                    let text = match i.filter(|&i| i < model.cells()) {
                        Some(i) => format!("**node {}** of the graph\n\n{}", i + 1, cell_text(model, report, i)),
                        None => format!("**node {}** of the graph", n.text),
                    };
                    return Some(Hover { span: n.span, markdown: text });
                }
            }
            (list.span, None)
        }
    };
    if !span.contains(offset) && span.end != offset {
        return None;
    }
    let mut text = graph_summary(model, g);
    if let Some(doc) = summary_doc {
        text.push_str(&format!("\n\n{doc}"));
    }
    Some(Hover { span, markdown: text })
}

/// `**graph petersen** — 10 nodes, 15 edges · every node has 3 neighbours`.
fn graph_summary(m: &Puzzle, g: &Graph) -> String {
    let present = |i: usize| !m.is_hole(i);
    let nodes = (0..g.nodes()).filter(|&i| present(i)).count();
    let edges = g.edges().filter(|&(a, b)| present(a) && present(b)).count();
    let degrees = (0..g.nodes())
        .filter(|&i| present(i))
        .map(|i| g.neighbours(i).iter().filter(|&&j| present(j as usize)).count());
    let (low, high) = degrees.fold((usize::MAX, 0), |(lo, hi), d| (lo.min(d), hi.max(d)));
    let name = match g.kind {
        GraphKind::Custom => "**graph** (written)".to_string(),
        _ => format!("**graph {}**", g.describe()),
    };
    let count = lights_compiler::summary::count;
    let degree = match (nodes, low == high) {
        (0, _) => String::new(),
        (_, true) => format!(" · every node has {}", count(low, "neighbour")),
        (_, false) => format!(" · {low} to {high} neighbours per node"),
    };
    let mut text = format!("{name} — {}, {}{degree}", count(nodes, "node"), count(edges, "edge"));
    let missing: Vec<String> =
        (0..g.nodes()).filter(|&i| !present(i)).take(MAX_LISTED_NEIGHBOURS).map(|i| (i + 1).to_string()).collect();
    if !missing.is_empty() {
        let more = m.holes.count_nonzero().saturating_sub(missing.len());
        let more = if more > 0 { format!(" … {more} more") } else { String::new() };
        text.push_str(&format!("\n\nnot nodes (holes): {}{more}", missing.join(" · ")));
    }
    text
}
