//! A validated [`Puzzle`] written back as canonical `.lights` text, for the
//! imports that build a model first (`lights import flip`, `lights import
//! json`). Every shape is written: square and hex boards, named and written
//! graphs, holes, locks, any rule, topology and number of states.
//!
//! Values are written as `off`/`on` when they are, as a grid on boards up to
//! [`GRID_UP_TO`](crate::import::GRID_UP_TO) columns, else as an `at` list;
//! masks (`holes`, `locked`) likewise with `x`. A caller checks the result
//! by compiling it again ([`reparse`]): the text is what the tool will read,
//! so it is what must match.

use lights_compiler::model::{GraphKind, Puzzle, Rule, Shape, Topology};
use lights_compiler::{analyze, Diagnostic};
use lights_syntax::format::{format_source, grid_statement, layout_rows, quote};

use crate::import::GRID_UP_TO;

/// The text of one `puzzle` block for `p`, named `name`, with `claims`
/// (`expect …` lines without the keyword, e.g. `unique`) and `comment`
/// lines (without `//`) above it. Formatted canonically.
pub fn puzzle_text(p: &Puzzle, name: &str, claims: &[String], comment: &[String]) -> String {
    let mut out = String::new();
    for line in comment {
        let line: String = line.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
        out.push_str(&format!("// {line}\n"));
    }
    out.push_str(&format!("puzzle {} {{\n", quote(name)));
    match &p.shape {
        Shape::Square => out.push_str(&format!("  size {}x{}\n", p.rows, p.cols)),
        Shape::Hex => out.push_str(&format!("  size {}x{}\n  grid hex\n", p.rows, p.cols)),
        Shape::Graph(g) => {
            if g.kind == GraphKind::Custom {
                let mut parts: Vec<String> = g.edges().map(|(a, b)| format!("{}-{}", a + 1, b + 1)).collect();
                // An isolated node is written alone, holes too, so the
                // numbering (the largest number used) stays the same.
                parts.extend((0..g.nodes()).filter(|&k| g.neighbours(k).is_empty()).map(|k| (k + 1).to_string()));
                out.push_str(&format!("  graph {{ {} }}\n", parts.join(" ")));
            } else {
                out.push_str(&format!("  graph {}\n", g.describe()));
            }
        }
    }
    if p.states != 2 {
        out.push_str(&format!("  states {}\n", p.states));
    }
    match &p.rule {
        Rule::Cross => {}
        Rule::Stencil(s) => {
            out.push_str(&grid_statement("rule", s.rows, s.cols, &s.weights));
            out.push('\n');
        }
        named => out.push_str(&format!("  rule {}\n", named.name())),
    }
    if !p.is_graph() && p.topology != Topology::Plane {
        out.push_str(&format!("  topology {}\n", p.topology.name()));
    }
    let holes: Vec<bool> = (0..p.cells()).map(|i| p.is_hole(i)).collect();
    if let Some(s) = mask_statement(p, "holes", &holes) {
        out.push_str(&s);
    }
    let locked: Vec<bool> = (0..p.cells()).map(|i| !holes[i] && p.is_locked(i)).collect();
    for (keyword, board) in [("lights", &p.lights), ("goal", &p.goal)] {
        let values: Vec<u32> = board.iter().map(u32::from).collect();
        if let Some(s) = value_statement(p, keyword, &values, &holes) {
            out.push_str(&s);
        }
    }
    if let Some(s) = mask_statement(p, "locked", &locked) {
        out.push_str(&s);
    }
    for claim in claims {
        out.push_str(&format!("  expect {claim}\n"));
    }
    out.push_str("}\n");
    format_source(&out).unwrap_or(out)
}

/// `KEYWORD on`, a grid or an `at` list; `None` for `off` (the default).
fn value_statement(p: &Puzzle, keyword: &str, values: &[u32], holes: &[bool]) -> Option<String> {
    let existing = || values.iter().zip(holes).filter(|(_, &h)| !h).map(|(&v, _)| v);
    if existing().all(|v| v == 0) {
        return None;
    }
    if existing().all(|v| v == p.states - 1) {
        return Some(format!("  {keyword} on\n"));
    }
    if !p.is_graph() && p.cols <= GRID_UP_TO {
        return Some(format!("{}\n", grid_statement(keyword, p.rows, p.cols, values)));
    }
    let entries: Vec<String> = values
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(i, &v)| if v == 1 { p.coord(i) } else { format!("{}:{v}", p.coord(i)) })
        .collect();
    Some(format!("  {keyword} at {}\n", entries.join(" ")))
}

/// `KEYWORD on`, an `x` grid or an `at` list; `None` when nothing is set.
fn mask_statement(p: &Puzzle, keyword: &str, mask: &[bool]) -> Option<String> {
    if !mask.iter().any(|&m| m) {
        return None;
    }
    if keyword == "locked" && (0..p.cells()).all(|i| mask[i] || p.is_hole(i)) {
        return Some(format!("  {keyword} on\n"));
    }
    if !p.is_graph() && p.cols <= GRID_UP_TO {
        let cells: Vec<Vec<&str>> =
            (0..p.rows).map(|r| (0..p.cols).map(|c| if mask[r * p.cols + c] { "x" } else { "." }).collect()).collect();
        let mut out = format!("  {keyword} {{\n");
        for row in layout_rows(&cells, p.cols) {
            out.push_str(&format!("    {row}\n"));
        }
        out.push_str("  }\n");
        return Some(out);
    }
    let entries: Vec<String> = (0..p.cells()).filter(|&i| mask[i]).map(|i| p.coord(i)).collect();
    Some(format!("  {keyword} at {}\n", entries.join(" ")))
}

/// Compiles `text` (one puzzle block) and returns its model, or the
/// compiler's first error as text: the check an import makes on what it wrote.
pub fn reparse(text: &str) -> Result<Puzzle, String> {
    let analysis = analyze(text);
    let block = analysis.blocks.first().ok_or_else(|| "no puzzle block was written".to_string())?;
    match block.puzzle() {
        Some(p) => Ok(p.clone()),
        None => Err(block
            .diagnostics
            .iter()
            .find(|d| Diagnostic::is_error(d))
            .map_or_else(|| "the written puzzle does not compile".to_string(), |d| d.message.clone())),
    }
}
