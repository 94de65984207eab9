//! `lights solve`: each puzzle's result and a minimum solution (a sliding
//! block's moves); `--write` puts the solutions into the file.

use std::io::{IsTerminal, Write};
use std::path::Path;

use lights_compiler::edit::{self, TextEdit};
use lights_compiler::present::LineStyle;
use lights_compiler::summary::{count, presses};
use lights_compiler::{Code, Diagnostic, MinimumBudget, SolutionPlan};
use lights_ide::{Document, Solved};

use crate::check::{mark, paint};
use crate::excerpt::{escape_controls, quoted_name};
use crate::output::file_json;
use crate::progress::Progress;
use crate::{files, pattern_databases, render, solution_out, SolveFormat, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

/// Boards wider or taller than this are summarised, not drawn.
const MAX_PRINTED_SIDE: usize = 64;

/// What `lights solve` is asked to do besides the file.
pub(crate) struct Options<'a> {
    /// `--puzzle`: only this one.
    pub puzzle: Option<&'a str>,
    /// `--write`.
    pub write: bool,
    /// `--solution-out`.
    pub solution_out: Option<&'a Path>,
    pub format: SolveFormat,
    /// `--minimum-budget`, else the nearest lights.toml's `minimum-budget`.
    pub minimum_budget: crate::budget::MinimumBudgetArg,
}

pub(crate) fn run(path: &Path, shown: &str, options: Options) -> u8 {
    let Options { puzzle, write, solution_out, format, minimum_budget } = options;
    if write && files::is_stdin(path) {
        eprintln!("error: --write puts the solutions into the file: it needs a file, not `-` (standard input)");
        return EXIT_USAGE;
    }
    if let Some(out) = solution_out {
        if solution_format(out).is_none() {
            eprintln!("error: `{}`: --solution-out writes .txt, .pbm or .png files", files::shown_path(out));
            return EXIT_USAGE;
        }
    }
    let shown = shown.to_string();
    // The nearest lights.toml of the file (of the current folder for
    // standard input), as `lights check` finds it; only its minimum-budget
    // applies here.
    let config_of = if files::is_stdin(path) { Path::new(&shown) } else { path };
    let budget = match minimum_budget.budget_for(config_of) {
        Ok(budget) => budget,
        Err(e) => {
            eprintln!("error: {}", escape_controls(&e));
            return EXIT_USAGE;
        }
    };
    let solve_options = budget.solve_options();
    let Some(src) = files::read_input_reporting(path) else { return EXIT_USAGE };
    let doc = Document::new(src).with_options(solve_options);
    let analysis = doc.analysis();
    if let Some(name) = puzzle {
        if !analysis.blocks.iter().any(|p| p.name.as_deref() == Some(name)) {
            let names: Vec<String> =
                analysis.blocks.iter().filter_map(|p| p.name.as_deref()).map(|n| quoted_name(Some(n))).collect();
            eprintln!(
                "error: `{shown}` has no puzzle named {}; its puzzles are: {}",
                quoted_name(Some(name)),
                names.join(", ")
            );
            return EXIT_USAGE;
        }
    }
    // Only the puzzles asked for are solved (the others are not shown).
    // A mask, not `selected.contains`: a search per block was quadratic in
    // the number of blocks (200,000 tiny puzzles: 14 s).
    let is_selected: Vec<bool> =
        (0..doc.block_count()).map(|i| puzzle.is_none() || analysis.blocks[i].name.as_deref() == puzzle).collect();
    let selected: Vec<usize> = (0..is_selected.len()).filter(|&i| is_selected[i]).collect();
    let chosen = |i: usize| is_selected.get(i).copied().unwrap_or(false);
    // Sliding blocks show their own progress while their tables are built.
    let sliding = pattern_databases::needs_tables(&doc, chosen);
    if sliding {
        pattern_databases::prepare();
    }
    let solved = solve_showing_progress(&doc, chosen, &selected, budget, sliding);
    if solution_out.is_some() && selected.len() != 1 {
        let names: Vec<String> =
            selected.iter().filter_map(|&i| analysis.blocks[i].name.as_deref()).map(|n| quoted_name(Some(n))).collect();
        eprintln!("error: --solution-out writes one puzzle's solution: pick one with --puzzle ({})", names.join(", "));
        return EXIT_USAGE;
    }
    let has_error = |i: usize| lights_ide::block_diagnostics(&doc, i, &solved).iter().any(Diagnostic::is_error);
    let mut status = if selected.iter().any(|&i| has_error(i))
        || (puzzle.is_none() && analysis.file_diagnostics.iter().any(Diagnostic::is_error))
    {
        EXIT_PUZZLE_ERROR
    } else {
        EXIT_OK
    };

    if format == SolveFormat::Json {
        let json = file_json(&shown, &doc, &solved, puzzle, None);
        let mut out = std::io::stdout().lock();
        let _ = crate::output::write_json(&mut out, &json);
        let _ = writeln!(out);
    } else {
        print_human(&shown, &doc, &solved, &selected);
    }

    if let Some(out) = solution_out {
        // Its messages name the puzzle and the file: escaped here, once.
        match write_solution_file(out, &doc, &solved, selected[0]) {
            Ok(message) => eprintln!("{}", escape_controls(&message)),
            Err(e) => {
                eprintln!("error: {}", escape_controls(&e));
                status = EXIT_USAGE;
            }
        }
    }

    if write {
        match write_solutions(path, &doc, &solved, &selected) {
            Ok(written) => eprintln!("{}", written.message(&shown)),
            Err(e) => {
                eprintln!("error: {}", escape_controls(&e));
                status = EXIT_USAGE;
            }
        }
    }
    status
}

/// The selected puzzles solved, with a line on standard error (on a
/// terminal, once the work has run half a second) naming the puzzle being
/// solved, how many there are and the minimum-press budget when it is not
/// the default: a long `--minimum-budget` is visibly at work.
fn solve_showing_progress(
    doc: &Document,
    chosen: impl Fn(usize) -> bool,
    selected: &[usize],
    budget: MinimumBudget,
    sliding: bool,
) -> Solved {
    let mut progress = if sliding { Progress::hidden() } else { Progress::spinner() };
    // What will be solved: the valid blocks, a copy of another once (as
    // `Solved` does), so the count ends where it says.
    let count = selected
        .iter()
        .filter(|&&i| doc.block(i).is_some())
        .filter_map(|&i| doc.key(i))
        .collect::<std::collections::HashSet<_>>()
        .len();
    let searched = if budget == MinimumBudget::default() {
        String::new()
    } else {
        format!(" · searching for the fewest presses for up to {budget}")
    };
    let mut started = 0;
    let solved = Solved::selected_announcing(doc, chosen, |i| {
        started += 1;
        let name = quoted_name(doc.analysis().blocks.get(i).and_then(|b| b.name.as_deref()));
        let of = if count > 1 { format!(" ({started} of {count})") } else { String::new() };
        progress.set_message(format!("solving {name}{of}{searched}"));
    });
    progress.finish();
    solved
}

fn print_human(shown: &str, doc: &Document, solved: &Solved, selected: &[usize]) {
    let color = render::use_color(std::io::stdout().is_terminal());
    let mut out = std::io::stdout().lock();
    let (src, analysis) = (doc.text(), doc.analysis());
    let file_diagnostics: &[Diagnostic] =
        if selected.len() == analysis.blocks.len() { &analysis.file_diagnostics } else { &[] };
    let block_diagnostics: Vec<Vec<Diagnostic>> =
        selected.iter().map(|&i| lights_ide::block_diagnostics(doc, i, solved)).collect();
    // One drawing for the file: its excerpt is made once, however many blocks.
    let mut drawing = render::Drawing::new(shown, src);
    for d in file_diagnostics {
        let _ = drawing.write(&mut out, d, color);
    }
    for (n, &i) in selected.iter().enumerate() {
        if n > 0 {
            let _ = writeln!(out);
        }
        let p = &analysis.blocks[i];
        let name = crate::excerpt::escape_controls(p.name.as_deref().unwrap_or("(unnamed)"));
        let line = lights_ide::status(doc, i, solved);
        let described = doc.block(i).map(|b| format!("  {}", b.describe())).unwrap_or_default();
        let _ = writeln!(out, "{} {}{described}", mark(line.mark, color), paint(&format!("\"{name}\""), "1", color));
        let _ = writeln!(out, "  {}", line.text);
        let diagnostics = &block_diagnostics[n];
        for d in diagnostics {
            let _ = drawing.write(&mut out, d, color);
        }
        let Some((block, report)) = doc.answered(i, solved) else { continue };
        // An expected unsolvable block has no L0201 to explain it: say why here.
        if !diagnostics.iter().any(|d| d.code == Code::Unsolvable) {
            for note in block.why_unsolvable(&report) {
                for line in note.lines() {
                    let _ = writeln!(out, "  {line}");
                }
            }
        }
        let highlight = |text: &str| paint(text, "1;33", color);
        let style = LineStyle {
            max_side: MAX_PRINTED_SIDE,
            json_cells: crate::output::MAX_JSON_SOLUTION_CELLS,
            highlight: &highlight,
        };
        for line in block.answered(&report).map(|a| a.solution_lines(&style)).unwrap_or_default() {
            let _ = writeln!(out, "  {line}");
        }
    }
    let _ = drawing.finish(&mut out);
}

/// The format of a `--solution-out` path, from its extension.
fn solution_format(out: &Path) -> Option<&'static str> {
    let ext = out.extension()?.to_str()?.to_ascii_lowercase();
    ["txt", "pbm", "png"].into_iter().find(|f| *f == ext)
}

/// `--solution-out`: the one selected puzzle's minimum solution as a text
/// grid, a PBM or a PNG (one pixel per cell).
fn write_solution_file(out: &Path, doc: &Document, solved: &Solved, i: usize) -> Result<String, String> {
    let p = &doc.analysis().blocks[i];
    let name = p.name.as_deref().unwrap_or("(unnamed)");
    let answered = doc.answered(i, solved);
    // Lights Out only: the file is a grid of presses.
    let Some((model, report)) = answered.as_ref().and_then(|(b, r)| b.answered(r)).and_then(|a| a.as_lights()) else {
        if !p.kind.is_lights() {
            return Err(format!(
                "\"{name}\" is a sliding-tile puzzle: --solution-out writes a Lights Out puzzle's presses"
            ));
        }
        return Err(format!("puzzle \"{name}\" was not solved (it has errors); nothing written"));
    };
    let Some(min) = &report.minimum else {
        return Err(format!("puzzle \"{name}\" has no solution; nothing written"));
    };
    let (rows, cols, cells) = (model.rows, model.cols, &min.presses);
    // Streamed to the file, row by row.
    match solution_format(out) {
        Some("txt") => crate::safe_write::write_with(out, |w| solution_out::write_text(w, cols, cells))?,
        Some("pbm") => crate::safe_write::write_with(out, |w| solution_out::write_pbm(w, name, rows, cols, cells))?,
        Some("png") => crate::safe_write::write_with(out, |w| solution_out::write_png(w, rows, cols, cells))?,
        _ => return Err(format!("`{}`: --solution-out writes .txt, .pbm or .png files", out.display())),
    }
    Ok(format!(
        "wrote the minimum solution of \"{name}\" ({}×{}, {}) to {}",
        model.rows,
        model.cols,
        presses(min.cost),
        out.display()
    ))
}

/// What `--write` did to a file.
#[derive(Debug, Default, PartialEq, Eq)]
struct Written {
    /// Solutions inserted or replaced.
    changed: usize,
    /// Solutions already in the file and left as they were: a sliding
    /// block's own that reaches the goal in no more moves than the one
    /// found, or a grid identical to the minimum.
    kept: usize,
}

impl Written {
    fn message(&self, shown: &str) -> String {
        match (self.changed, self.kept) {
            (0, 0) => format!("no solution to write into {shown}"),
            (0, kept) => format!(
                "nothing written into {shown}: its {} already solve their puzzles, with no more moves or presses than the ones found",
                count(kept, "solution")
            ),
            (changed, 0) => format!("wrote {} into {shown}", count(changed, "solution")),
            (changed, kept) => format!(
                "wrote {} into {shown}; kept {kept} already there (correct, and no longer than the one found)",
                count(changed, "solution")
            ),
        }
    }
}

/// Insert or replace the `solution` statement of each selected solvable
/// puzzle and sliding block, leaving every other byte as it was; write
/// atomically, and only after the new solutions check. What to write is
/// [`lights_compiler::Block::solution_plan`], the rule the editor's
/// insert-solution action follows too.
fn write_solutions(path: &Path, doc: &Document, solved: &Solved, selected: &[usize]) -> Result<Written, String> {
    let mut edits: Vec<TextEdit> = Vec::new();
    let mut edited = Vec::new();
    let mut written = Written::default();
    for &i in selected {
        let (Some((block, report)), Some(syntax)) = (doc.answered(i, solved), doc.syntax(i)) else { continue };
        match block.solution_plan(doc.text(), syntax, &report) {
            SolutionPlan::Write(plan) => {
                edits.push(plan.edit);
                edited.push(i);
            }
            SolutionPlan::Keep => written.kept += 1,
            SolutionPlan::Nothing => {}
            SolutionPlan::TooLarge { limit, .. } => {
                let name = crate::excerpt::quoted_name(doc.analysis().blocks[i].name.as_deref());
                return Err(format!(
                    "not writing `{}`: the solution of {name} would take more than {} of text, the most --write \
                     puts into a file; write it with --solution-out FILE (.txt, .pbm or .png) instead",
                    crate::files::shown_path(path),
                    crate::files::show_size(limit as u64),
                ));
            }
        }
    }
    if edits.is_empty() {
        return Ok(written);
    }
    let out = edit::apply(doc.text(), &edits);
    // Never write a file we would then reject.
    if let Err(why) = recheck(&out, &edited, doc.block_count()) {
        return Err(format!("not writing `{}`: {why} (a bug; please report it)", crate::files::shown_path(path)));
    }
    crate::safe_write::write_text(path, &out)?;
    written.changed = edits.len();
    Ok(written)
}

/// Checks the edited blocks of the new text: each still well formed, with a
/// `solution` that reaches its goal (no L0203).
fn recheck(out: &str, edited: &[usize], blocks: usize) -> Result<(), String> {
    let after = Document::new(out);
    if after.block_count() != blocks {
        return Err(format!("the file would have {} blocks instead of {blocks}", after.block_count()));
    }
    // A mask, not `edited.contains`: a search per block was quadratic in the
    // number of blocks written.
    let mut is_edited = vec![false; blocks];
    for &i in edited {
        is_edited[i] = true;
    }
    let solved = Solved::selected(&after, |i| is_edited.get(i).copied().unwrap_or(false));
    for &i in edited {
        let name = crate::excerpt::quoted_name(after.analysis().blocks[i].name.as_deref());
        if !after.block(i).is_some_and(|b| b.has_solution()) {
            return Err(format!("the solution inserted into {name} did not parse"));
        }
        let diagnostics = lights_ide::block_diagnostics(&after, i, &solved);
        if let Some(d) = diagnostics.iter().find(|d| d.is_error() && d.code == Code::WrongSolution) {
            return Err(format!("the solution inserted into {name} did not check: {}", d.message));
        }
    }
    Ok(())
}
