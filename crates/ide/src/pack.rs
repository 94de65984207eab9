//! Level packs: levels that are the same puzzle up to a symmetry of the
//! board (L0208), within a file and across the files of a pack.
//!
//! A copy is a later level with the same canonical form
//! ([`lights_compiler::symmetry`]). Forms are made only for levels whose
//! cheap pre-keys meet, each once, so a pack of n levels costs at most n
//! forms and n hash-table lookups, never n² comparisons. The later level is
//! the one reported, with how it relates to the first copy.

use std::collections::HashMap;
use std::sync::Arc;

use lights_compiler::block::Block;
use lights_compiler::diagnostic::{Code, Diagnostic};
use lights_compiler::symmetry::{level_form, level_prekey, relation, LevelForm};
use rayon::prelude::*;

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

/// Cells of earlier levels whose forms may be put off, in all: past this,
/// a level's form is made at once and its puzzle let go, so a pack's
/// memory stays bounded by what one batch of files holds.
const DEFERRED_CELLS: usize = 1 << 26;

/// The first copy of each level seen so far in a pack's files.
///
/// Levels are grouped by their cheap pre-key ([`level_prekey`]): two levels
/// with different pre-keys are different puzzles, so a level's canonical
/// form — up to a second on a board of a million hexagons — is made only
/// when a later level's pre-key meets it. A pack of distinct boards makes
/// none.
#[derive(Default)]
pub struct PackIndex {
    groups: HashMap<u64, Group>,
    /// Cells of the puzzles kept in [`Group::pending`].
    deferred_cells: usize,
}

/// The earlier levels with one pre-key.
#[derive(Default)]
struct Group {
    /// The first of them while no other level has met it: its puzzle, to
    /// make its form when one does.
    pending: Option<(CopyOf, Arc<Block>)>,
    /// Per form key: the first level with it, and its form.
    first: HashMap<u64, (CopyOf, LevelForm)>,
}

/// Block `i`'s pre-key, when it is a level that can be compared.
fn prekey(doc: &Document, i: usize) -> Option<u64> {
    level_prekey(doc.block(i)?.as_lights()?)
}

/// Cells a kept puzzle holds in memory (none for a board whose cells are all alike).
fn held_cells(block: &Block) -> usize {
    let Some(p) = block.as_lights() else { return 0 };
    if p.cells_alike() {
        0
    } else {
        p.cells()
    }
}

impl PackIndex {
    pub fn new() -> PackIndex {
        PackIndex::default()
    }

    /// Make the forms of `doc`'s levels that meet an earlier level's
    /// pre-key (what [`PackIndex::copies`] will ask for), so that a front
    /// end can do it on every core while earlier files are still reported.
    pub fn prepare(&self, doc: &Document) {
        for i in 0..doc.block_count() {
            if prekey(doc, i).is_some_and(|k| self.groups.contains_key(&k)) {
                doc.form(i);
            }
        }
    }

    /// The blocks of `doc` (the file shown as `file`) that copy a level of
    /// an earlier file, and which; then remembers `doc`'s levels. Copies
    /// within `doc` are its own ([`Document::first_copy`]).
    pub fn copies(&mut self, file: &str, doc: &Document) -> Vec<(usize, CopyOf)> {
        let levels: Vec<(usize, u64)> = (0..doc.block_count()).filter_map(|i| Some((i, prekey(doc, i)?))).collect();
        self.form_met(doc, &levels);
        let mut found = Vec::new();
        for (i, prekey) in levels {
            let first = CopyOf { name: block_name(doc, i), file: file.to_string(), line: line_of(doc, i), how: None };
            let Some(group) = self.groups.get_mut(&prekey) else {
                let block = doc.block(i).expect("a level with a pre-key").clone();
                let mut group = Group::default();
                let cells = held_cells(&block);
                if self.deferred_cells + cells <= DEFERRED_CELLS {
                    self.deferred_cells += cells;
                    group.pending = Some((first, block));
                } else if let Some(form) = doc.form(i) {
                    group.first.insert(form.key, (first, form.clone()));
                }
                self.groups.insert(prekey, group);
                continue;
            };
            let Some(form) = doc.form(i) else { continue };
            match group.first.get(&form.key) {
                Some((first, first_form)) => {
                    if doc.first_copy(i).is_none() {
                        found.push((i, CopyOf { how: relation(first_form, form), ..first.clone() }));
                    }
                }
                None => {
                    group.first.insert(form.key, (first, form.clone()));
                }
            }
        }
        found
    }

    /// The forms of `doc`'s levels whose pre-keys meet earlier levels', and
    /// of the earlier levels still pending that they meet, on every core.
    fn form_met(&mut self, doc: &Document, levels: &[(usize, u64)]) {
        let met: Vec<usize> = levels.iter().filter(|(_, k)| self.groups.contains_key(k)).map(|&(i, _)| i).collect();
        met.par_iter().for_each(|&i| {
            doc.form(i);
        });
        let pending: Vec<(u64, CopyOf, Arc<Block>)> = levels
            .iter()
            .filter_map(|(_, k)| {
                let (first, block) = self.groups.get_mut(k)?.pending.take()?;
                Some((*k, first, block))
            })
            .collect();
        let formed: Vec<(u64, CopyOf, Option<LevelForm>, usize)> = pending
            .into_par_iter()
            .map(|(k, first, block)| {
                let form = block.as_lights().and_then(|p| level_form(p).ok());
                (k, first, form, held_cells(&block))
            })
            .collect();
        for (k, first, form, cells) in formed {
            self.deferred_cells -= cells;
            if let Some(form) = form {
                self.groups.get_mut(&k).expect("a pending group").first.insert(form.key, (first, form));
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn level(name: &str, rows: &[&str]) -> String {
        let size = format!("{}x{}", rows.len(), rows[0].split_whitespace().count());
        format!("puzzle \"{name}\" {{\n  size {size}\n  lights {{\n    {}\n  }}\n}}\n", rows.join("\n    "))
    }

    /// Three files: the first two have nothing in common, the third copies
    /// a level of each (one turned a quarter). Returns each file's copies.
    fn run(pack: &mut PackIndex) -> (Vec<Document>, Vec<Vec<(usize, CopyOf)>>) {
        let l = level("L", &["1 1 .", ". 1 .", ". . ."]);
        let turned = level("L turned", &[". 1 1", ". 1 .", ". . ."]);
        let bar = level("bar", &["1 1 1 1", ". . . .", ". . . .", ". . . ."]);
        let other = level("other", &["1 . 1 .", ". . . .", ". . . .", ". . . ."]);
        let docs = vec![
            Document::new(format!("{l}{other}")),
            Document::new(bar.clone()),
            Document::new(format!("{turned}{}", bar.replace("\"bar\"", "\"bar again\""))),
        ];
        let found = docs.iter().enumerate().map(|(k, d)| pack.copies(&format!("{k}.lights"), d)).collect();
        (docs, found)
    }

    #[test]
    fn copies_across_files_name_the_first_level_and_how_it_moved() {
        let (_, found) = run(&mut PackIndex::new());
        assert!(found[0].is_empty() && found[1].is_empty(), "{found:?}");
        let third: Vec<(usize, String, String)> =
            found[2].iter().map(|(i, c)| (*i, c.place(), c.name.clone())).collect();
        assert_eq!(
            third,
            [(0, "0.lights, line 1".to_string(), "L".to_string()), (1, "1.lights, line 1".into(), "bar".into())]
        );
        assert!(found[2][0].1.how.is_some(), "the turned copy says how it moved");
    }

    #[test]
    fn forms_are_made_only_where_pre_keys_meet() {
        let mut pack = PackIndex::new();
        let (docs, _) = run(&mut pack);
        // "other" (three lights) meets no pre-key: its form was never made.
        assert!(!docs[0].form_made(1), "a level nobody meets is not formed");
        // "L" and "bar" were met by the third file's copies; "other" waits.
        let pending: Vec<&str> =
            pack.groups.values().filter_map(|g| Some(g.pending.as_ref()?.0.name.as_str())).collect();
        assert_eq!(pending, ["other"]);
        assert_eq!(pack.groups.len(), 3);
        assert_eq!(pack.deferred_cells, 16, "only \"other\"'s 4×4 cells are held");
    }

    #[test]
    fn past_the_deferred_cells_forms_are_made_at_once_with_the_same_copies() {
        let mut eager = PackIndex { deferred_cells: DEFERRED_CELLS, ..PackIndex::default() };
        let (docs, found) = run(&mut eager);
        let (_, lazy) = run(&mut PackIndex::new());
        assert_eq!(found, lazy);
        assert!(docs[0].form_made(1), "no room to defer: formed at once");
        assert!(eager.groups.values().all(|g| g.pending.is_none() && !g.first.is_empty()));
    }
}
