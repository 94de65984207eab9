//! Level packs: levels that are the same puzzle up to a symmetry of the
//! board (L0208), within a file and across the files of a pack.
//!
//! Each level's canonical form ([`lights_compiler::symmetry`]) is computed
//! once; a copy is a later level with the same form, so a pack of n levels
//! costs n forms and n hash-table lookups, never n² comparisons. The later
//! level is the one reported, with how it relates to the first copy.

use std::collections::HashMap;

use lights_compiler::diagnostic::{Code, Diagnostic};
use lights_compiler::symmetry::{relation, LevelForm};

use lights_syntax::ast::OrderKey;

pub use crate::copy_of::CopyOf;

use crate::answers::Answers;
use crate::document::Document;

const NOTE: &str = "a pack should not hold the same puzzle twice (a symmetry of the board maps one onto the other, \
    so they have the same solutions, turned the same way): change one, or remove it. \
    `// lights: allow L0208` above the block keeps both";

fn block_name(doc: &Document, i: usize) -> String {
    doc.analysis().blocks[i].name.clone().unwrap_or_default()
}

fn head(doc: &Document, i: usize) -> lights_syntax::Span {
    doc.block(i).map_or(doc.analysis().blocks[i].span, |b| b.head())
}

/// The 1-based line of block `i`'s head.
fn line_of(doc: &Document, i: usize) -> usize {
    doc.lines().line(head(doc, i).start) + 1
}

/// L0208 for block `i` when it copies an earlier level: of this file (the
/// first such), else of an earlier file of the pack.
pub fn copy_warning(doc: &Document, i: usize) -> Option<Diagnostic> {
    let (first, place, how, first_head) = match doc.first_copy(i) {
        Some(j) => (
            block_name(doc, j),
            format!("line {}", line_of(doc, j)),
            relation(doc.form(j)?, doc.form(i)?),
            Some(head(doc, j)),
        ),
        None => {
            let c = doc.earlier_copy(i)?;
            (c.name.clone(), c.place(), c.how.clone(), None)
        }
    };
    let mut message = format!("\"{}\" is the same puzzle as \"{first}\" ({place})", block_name(doc, i));
    if let Some(how) = how {
        message.push_str(", ");
        message.push_str(&how);
    }
    let d =
        Diagnostic::warning(Code::DuplicateLevel, head(doc, i), message).with_label(format!("a copy of \"{first}\""));
    let d = match first_head {
        Some(span) => d.with_secondary(span, "the first copy"),
        None => d,
    };
    Some(d.with_note(NOTE))
}

/// The first copy of each level seen so far in a pack's files.
#[derive(Default)]
pub struct PackIndex {
    /// Per form: the first level with it, and its form (to say how later ones relate).
    first: HashMap<u64, (CopyOf, LevelForm)>,
}

impl PackIndex {
    pub fn new() -> PackIndex {
        PackIndex::default()
    }

    /// The blocks of `doc` (the file shown as `file`) that copy a level of
    /// an earlier file, and which; then remembers `doc`'s levels. Copies
    /// within `doc` are its own ([`Document::first_copy`]).
    pub fn copies(&mut self, file: &str, doc: &Document) -> Vec<(usize, CopyOf)> {
        let mut found = Vec::new();
        for i in 0..doc.block_count() {
            let Some(form) = doc.form(i) else { continue };
            if let Some((first, first_form)) = self.first.get(&form.key) {
                if doc.first_copy(i).is_none() {
                    found.push((i, CopyOf { how: relation(first_form, form), ..first.clone() }));
                }
                continue;
            }
            let first = CopyOf { name: block_name(doc, i), file: file.to_string(), line: line_of(doc, i), how: None };
            self.first.insert(form.key, (first, form.clone()));
        }
        found
    }
}

/// What `order by` compares, for block `i`: its fewest presses or its
/// difficulty, once it is answered and solvable.
pub fn order_measure(
    doc: &Document,
    i: usize,
    key: lights_syntax::ast::OrderKey,
    answers: &dyn Answers,
) -> Option<u64> {
    let (block, report) = doc.answered(i, answers)?;
    let (p, report) = (block.as_lights()?, report.as_lights()?);
    match key {
        OrderKey::Presses => report.minimum.as_ref().map(|m| m.cost),
        OrderKey::Difficulty => lights_compiler::difficulty::difficulty(p, report).map(|d| d.score),
    }
}

/// L0209 for block `i` when the file says `order by …` and the level
/// before it (the previous `puzzle` block without errors) is harder.
pub fn out_of_order(doc: &Document, i: usize, answers: &dyn Answers) -> Option<Diagnostic> {
    let order = doc.analysis().syntax.order.as_ref()?;
    let here = order_measure(doc, i, order.key, answers)?;
    let j = (0..i).rev().find(|&j| doc.block(j).is_some_and(|b| b.as_lights().is_some()))?;
    let before = order_measure(doc, j, order.key, answers)?;
    if here >= before {
        return None;
    }
    let (name, previous) = (block_name(doc, i), block_name(doc, j));
    let line = doc.lines().line(order.span.start) + 1;
    let what = match order.key {
        OrderKey::Presses => format!(
            "needs {}, fewer than \"{previous}\" before it ({before})",
            lights_compiler::summary::count(here, "press")
        ),
        OrderKey::Difficulty => format!("has difficulty {here}, less than \"{previous}\" before it ({before})"),
    };
    Some(
        Diagnostic::warning(Code::OutOfOrder, head(doc, i), format!("\"{name}\" {what}"))
            .with_label(format!("easier than \"{previous}\""))
            .with_secondary(head(doc, j), format!("{} {before}", order.key.name()))
            .with_note(format!(
                "the file is ordered by {} (`order by {}`, line {line}): move this level before \"{previous}\", \
                 or make it harder",
                order.key.name(),
                order.key.name()
            )),
    )
}

/// One level of a pack, as `lights pack` lists it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LevelRow {
    pub file: String,
    pub line: usize,
    pub name: String,
    /// `5×5`, `hex 5×6`, `petersen (10 nodes)`.
    pub size: String,
    pub rule: String,
    pub surface: String,
    pub states: u32,
    /// Exact, as a decimal string (it can be huge); `None` with errors or when not answered.
    pub solutions: Option<String>,
    pub minimum: Option<u64>,
    pub minimum_proven: bool,
    pub difficulty: Option<u64>,
    pub method: Option<&'static str>,
    /// `"name" (file, line N)` of the earlier level this one copies.
    pub duplicate_of: Option<String>,
    /// The block has errors (it is listed, without answers).
    pub errors: bool,
}

/// Every `puzzle` block of `doc` (shown as `file`) as a [`LevelRow`];
/// copies of earlier files are the document's ([`Document::earlier_copy`]).
pub fn level_rows(file: &str, doc: &Document, answers: &(dyn Answers + Sync)) -> Vec<LevelRow> {
    use rayon::prelude::*;
    let levels: Vec<usize> = (0..doc.block_count()).filter(|&i| doc.analysis().blocks[i].kind.is_lights()).collect();
    // Each level's answers and difficulty (the costly part) on every core.
    let mut rows: Vec<(usize, LevelRow)> = levels.par_iter().map(|&i| (i, level_row(file, doc, i, answers))).collect();
    for (i, row) in &mut rows {
        if row.errors {
            continue;
        }
        row.duplicate_of = match doc.first_copy(*i) {
            Some(j) => Some(format!("\"{}\" ({file}, line {})", block_name(doc, j), line_of(doc, j))),
            None => doc.earlier_copy(*i).map(|c| format!("\"{}\" ({})", c.name, c.place())),
        };
    }
    rows.into_iter().map(|(_, row)| row).collect()
}

/// Block `i`'s row, without what needs the other levels.
fn level_row(file: &str, doc: &Document, i: usize, answers: &dyn Answers) -> LevelRow {
    let mut row = LevelRow {
        file: file.to_string(),
        line: line_of(doc, i),
        name: block_name(doc, i),
        size: String::new(),
        rule: String::new(),
        surface: String::new(),
        states: 0,
        solutions: None,
        minimum: None,
        minimum_proven: false,
        difficulty: None,
        method: None,
        duplicate_of: None,
        errors: true,
    };
    let Some(p) = doc.block(i).and_then(|b| b.as_lights()) else { return row };
    row.errors = false;
    row.size = match &p.shape {
        lights_compiler::model::Shape::Graph(g) => format!("{} nodes", g.nodes()),
        lights_compiler::model::Shape::Hex => format!("hex {}×{}", p.rows, p.cols),
        lights_compiler::model::Shape::Square => format!("{}×{}", p.rows, p.cols),
    };
    row.rule = p.rule.name().to_string();
    row.surface = if p.is_graph() { "graph".into() } else { p.topology.name().to_string() };
    row.states = p.states;
    if let Some((_, report)) = doc.answered(i, answers) {
        if let Some(r) = report.as_lights() {
            row.solutions = Some(r.solutions.to_string());
            row.minimum = r.minimum.as_ref().map(|m| m.cost);
            row.minimum_proven = r.minimum.as_ref().is_some_and(|m| m.optimal);
            let d = lights_compiler::difficulty::difficulty(p, r);
            row.difficulty = d.map(|d| d.score);
            row.method = d.map(|d| d.method.name());
        }
    }
    row
}
