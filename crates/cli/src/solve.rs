//! `lights solve`: each puzzle's result and a minimum solution (a sliding
//! block's moves); `--write` puts the solutions into the file.

use std::io::{IsTerminal, Write};
use std::path::Path;

use lights_compiler::edit::{self, TextEdit};
use lights_compiler::sliding_check;
use lights_compiler::{analyze, BlockKind, Code, Diagnostic, FileAnalysis, PuzzleAnalysis};
use lights_syntax::ast::PuzzleBlock;

use crate::check::paint;
use crate::output::{file_json, summary};
use crate::{files, pattern_databases, render, Format, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};
use lights_compiler::summary::presses;

/// Boards wider or taller than this are summarised, not drawn.
const MAX_PRINTED_SIDE: usize = 64;

pub fn run(path: &Path, puzzle: Option<&str>, write: bool, solution_out: Option<&Path>, format: Format) -> u8 {
    if let Some(out) = solution_out {
        if solution_format(out).is_none() {
            eprintln!("error: `{}`: --solution-out writes .txt, .pbm or .png files", out.display());
            return EXIT_USAGE;
        }
    }
    let shown = path.display().to_string();
    let Some(src) = files::read_reporting(path) else { return EXIT_USAGE };
    let mut analysis = analyze(&src);
    if let Some(name) = puzzle {
        if !analysis.puzzles.iter().any(|p| p.name.as_deref() == Some(name)) {
            let names: Vec<String> =
                analysis.puzzles.iter().filter_map(|p| p.name.clone()).map(|n| format!("\"{n}\"")).collect();
            eprintln!("error: `{shown}` has no puzzle named \"{name}\"; its puzzles are: {}", names.join(", "));
            return EXIT_USAGE;
        }
    }
    // Only the puzzles asked for are solved (the others are not shown).
    pattern_databases::check_blocks(&mut analysis, |p| puzzle.is_none() || p.name.as_deref() == puzzle);
    let selected: Vec<&PuzzleAnalysis> =
        analysis.puzzles.iter().filter(|p| puzzle.is_none() || p.name.as_deref() == puzzle).collect();
    if solution_out.is_some() && selected.len() != 1 {
        let names: Vec<String> = selected.iter().filter_map(|p| p.name.clone()).map(|n| format!("\"{n}\"")).collect();
        eprintln!("error: --solution-out writes one puzzle's solution: pick one with --puzzle ({})", names.join(", "));
        return EXIT_USAGE;
    }
    let mut status = if selected.iter().any(|p| p.diagnostics.iter().any(Diagnostic::is_error))
        || (puzzle.is_none() && analysis.file_diagnostics.iter().any(Diagnostic::is_error))
    {
        EXIT_PUZZLE_ERROR
    } else {
        EXIT_OK
    };

    if format == Format::Json {
        let json = file_json(&shown, &src, &analysis, puzzle);
        let mut out = std::io::stdout().lock();
        let _ = serde_json::to_writer_pretty(&mut out, &json);
        let _ = writeln!(out);
    } else {
        print_human(&shown, &src, &analysis, &selected);
    }

    if let Some(out) = solution_out {
        match write_solution_file(out, &selected) {
            Ok(message) => eprintln!("{message}"),
            Err(e) => {
                eprintln!("error: {e}");
                status = EXIT_USAGE;
            }
        }
    }

    if write {
        match write_solutions(path, &src, &analysis, puzzle) {
            Ok(written) => eprintln!("{}", written.message(&shown)),
            Err(e) => {
                eprintln!("error: {e}");
                status = EXIT_USAGE;
            }
        }
    }
    status
}

fn print_human(shown: &str, src: &str, analysis: &FileAnalysis, selected: &[&PuzzleAnalysis]) {
    let color = render::use_color(std::io::stdout().is_terminal());
    let mut out = std::io::stdout().lock();
    if selected.len() == analysis.puzzles.len() {
        for d in &analysis.file_diagnostics {
            let _ = render::write_diagnostic(&mut out, shown, src, d, color);
        }
    }
    for (i, p) in selected.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(out);
        }
        let name = p.name.as_deref().unwrap_or("(unnamed)");
        let ok = !p.diagnostics.iter().any(Diagnostic::is_error);
        let mark = if ok { paint("✓", "32", color) } else { paint("✗", "31", color) };
        match &p.model {
            Some(m) => {
                let _ = writeln!(
                    out,
                    "{mark} {}  {}×{} · {} · {} · {} states",
                    paint(&format!("\"{name}\""), "1", color),
                    m.rows,
                    m.cols,
                    m.rule.name(),
                    m.topology.name(),
                    m.states
                );
            }
            None => {
                let size = p.sliding.as_ref().map(|s| format!("  {}×{} sliding", s.rows, s.cols)).unwrap_or_default();
                let _ = writeln!(out, "{mark} {}{size}", paint(&format!("\"{name}\""), "1", color));
            }
        }
        let _ = writeln!(out, "  {}", summary(p));
        for d in &p.diagnostics {
            let _ = render::write_diagnostic(&mut out, shown, src, d, color);
        }
        if let Some(r) = &p.sliding_report {
            // An expected unreachable goal has no L0201 to explain it: say why here.
            if !r.solvable && !p.diagnostics.iter().any(|d| d.code == lights_compiler::Code::Unsolvable) {
                let _ = writeln!(out, "  why: {}", r.invariant.explanation);
            }
            match &r.solution {
                Some(s) if s.is_empty() => {
                    let _ = writeln!(out, "  already at the goal: no move needed");
                }
                Some(s) => {
                    let what = if s.optimal { "the fewest moves" } else { "moves, not proven fewest" };
                    let _ = writeln!(out, "  move the blank ({what}; U D L R = up down left right):");
                    let _ = writeln!(out, "  solution \"{}\"", edit::group_moves(&s.moves));
                }
                None => {}
            }
            continue;
        }
        let (Some(model), Some(report)) = (&p.model, &p.report) else { continue };
        let Some(min) = &report.minimum else { continue };
        if model.rows > MAX_PRINTED_SIDE || model.cols > MAX_PRINTED_SIDE {
            let _ = writeln!(
                out,
                "  the board is too large to draw here; use `--solution-out FILE.png|.pbm|.txt`, `--format json` or `--write`"
            );
            continue;
        }
        let legend =
            if model.states == 2 { "press the cells marked 1" } else { "press each cell the number of times shown" };
        let _ =
            writeln!(out, "  {legend} ({}{}):", presses(min.cost), if min.optimal { ", proven minimum" } else { "" });
        let width = min.presses.iter().map(|v| v.to_string().len()).max().unwrap_or(1);
        for r in 0..model.rows {
            let cells: Vec<String> = (0..model.cols)
                .map(|c| {
                    let i = model.index(r, c);
                    match min.presses[i] {
                        0 if model.locked[i] => format!("{:>width$}", "x"),
                        0 => format!("{:>width$}", "."),
                        v => paint(&format!("{v:>width$}"), "1;33", color),
                    }
                })
                .collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
        if report.quiet_patterns.is_empty() {
            let _ = writeln!(out, "  no quiet patterns: this is the only solution");
        } else {
            let _ = writeln!(
                out,
                "  {} solution(s): this one plus any quiet pattern (presses that change nothing)",
                report.solutions
            );
        }
    }
}

/// The format of a `--solution-out` path, from its extension.
fn solution_format(out: &Path) -> Option<&'static str> {
    let ext = out.extension()?.to_str()?.to_ascii_lowercase();
    ["txt", "pbm", "png"].into_iter().find(|f| *f == ext)
}

/// `--solution-out`: the one selected puzzle's minimum solution as a text
/// grid, a PBM or a PNG (one pixel per cell).
fn write_solution_file(out: &Path, selected: &[&PuzzleAnalysis]) -> Result<String, String> {
    let [p] = selected else {
        return Err("--solution-out writes one puzzle's solution: pick one with --puzzle".into());
    };
    let name = p.name.as_deref().unwrap_or("(unnamed)");
    let (Some(model), Some(report)) = (&p.model, &p.report) else {
        return Err(format!("puzzle \"{name}\" was not solved (it has errors); nothing written"));
    };
    let Some(min) = &report.minimum else {
        return Err(format!("puzzle \"{name}\" has no solution; nothing written"));
    };
    let bytes: Vec<u8> = match solution_format(out) {
        Some("txt") => {
            let width = min.presses.iter().map(|v| v.to_string().len()).max().unwrap_or(1);
            let mut text = String::with_capacity(model.cells() * (width + 1));
            for row in min.presses.chunks(model.cols) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&v| if v == 0 { format!("{:>width$}", ".") } else { format!("{v:>width$}") })
                    .collect();
                text.push_str(&cells.join(" "));
                text.push('\n');
            }
            text.into_bytes()
        }
        Some("pbm") => {
            let mut text = format!("P1\n# minimum solution of \"{name}\": 1 = press\n{} {}\n", model.cols, model.rows);
            for row in min.presses.chunks(model.cols) {
                let cells: Vec<&str> = row.iter().map(|&v| if v == 0 { "0" } else { "1" }).collect();
                text.push_str(&cells.join(" "));
                text.push('\n');
            }
            text.into_bytes()
        }
        Some("png") => lights_authoring::picture::presses_png(model.rows, model.cols, &min.presses)?,
        _ => return Err(format!("`{}`: --solution-out writes .txt, .pbm or .png files", out.display())),
    };
    files::write_atomic_bytes(out, &bytes)?;
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
                "nothing written into {shown}: its {kept} solution(s) already solve their puzzles, with no more moves or presses than the ones found"
            ),
            (changed, 0) => format!("wrote {changed} solution(s) into {shown}"),
            (changed, kept) => format!(
                "wrote {changed} solution(s) into {shown}; kept {kept} already there (correct, and no longer than the one found)"
            ),
        }
    }
}

/// What to do with one block's `solution`.
enum Plan {
    Write(TextEdit),
    Keep,
}

/// The `solution` to write into one analysed block, if any: a Lights Out
/// puzzle gets its minimum grid; a sliding block gets the moves found,
/// unless its own `solution` already reaches the goal in as few moves
/// (the author's answer is kept, even when another one is as short).
fn plan(src: &str, block: &PuzzleBlock, p: &PuzzleAnalysis) -> Option<Plan> {
    let edit = if let (Some(sliding), Some(report)) = (&p.sliding, &p.sliding_report) {
        report.solution.as_ref()?; // unsolvable: nothing to write
                                   // The rule is shared with the language server's code action.
        match sliding_check::solution_to_write(sliding, report) {
            Some(found) => edit::move_solution(src, block, &found.moves)?,
            None => return Some(Plan::Keep),
        }
    } else {
        let (Some(model), Some(report)) = (&p.model, &p.report) else { return None };
        edit::solution(src, block, model, &report.minimum.as_ref()?.presses)?
    };
    // The same text already there is not a change.
    Some(if src[edit.span.start..edit.span.end] == edit.text { Plan::Keep } else { Plan::Write(edit) })
}

/// Insert or replace the `solution` statement of each solvable puzzle and
/// sliding block (or only `only`), leaving every other byte as it was;
/// write atomically, and only after the new solutions check.
fn write_solutions(path: &Path, src: &str, analysis: &FileAnalysis, only: Option<&str>) -> Result<Written, String> {
    let mut edits = Vec::new();
    let mut edited = Vec::new();
    let mut written = Written::default();
    for (i, (block, p)) in analysis.syntax.puzzles.iter().zip(&analysis.puzzles).enumerate() {
        if only.is_some() && p.name.as_deref() != only {
            continue;
        }
        match plan(src, block, p) {
            Some(Plan::Write(edit)) => {
                edits.push(edit);
                edited.push(i);
            }
            Some(Plan::Keep) => written.kept += 1,
            None => {}
        }
    }
    if edits.is_empty() {
        return Ok(written);
    }
    let out = edit::apply(src, &edits);
    // Never write a file we would then reject.
    if let Err(why) = recheck(&out, &edited, analysis.puzzles.len()) {
        return Err(format!("not writing `{}`: {why} (a bug; please report it)", path.display()));
    }
    files::write_atomic(path, &out)?;
    written.changed = edits.len();
    Ok(written)
}

/// Checks the edited blocks of the new text: each still well formed, with a
/// `solution` that reaches its goal (no L0203).
fn recheck(out: &str, edited: &[usize], blocks: usize) -> Result<(), String> {
    let mut after = analyze(out);
    if after.puzzles.len() != blocks {
        return Err(format!("the file would have {} blocks instead of {blocks}", after.puzzles.len()));
    }
    for &i in edited {
        let p = &mut after.puzzles[i];
        let name = p.name.clone().unwrap_or_else(|| "(unnamed)".into());
        let has_solution = match p.kind {
            BlockKind::Puzzle => p.model.as_ref().is_some_and(|m| m.solution.is_some()),
            BlockKind::Sliding => p.sliding.as_ref().is_some_and(|s| s.solution.is_some()),
        };
        if !has_solution {
            return Err(format!("the solution inserted into \"{name}\" did not parse"));
        }
        lights_compiler::check_puzzle(p, &|| false);
        if let Some(d) = p.diagnostics.iter().find(|d| d.is_error() && d.code == Code::WrongSolution) {
            return Err(format!("the solution inserted into \"{name}\" did not check: {}", d.message));
        }
    }
    Ok(())
}
