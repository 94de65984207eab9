//! `lights solve`: each puzzle's result and a minimum solution; `--write`
//! puts the solution into the file.

use std::io::{IsTerminal, Write};
use std::path::Path;

use lights_compiler::edit;
use lights_compiler::{check_source, Diagnostic, FileAnalysis, PuzzleAnalysis};

use crate::check::paint;
use crate::output::{file_json, summary};
use crate::{files, render, Format, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};
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
    let analysis = check_source(&src);
    if let Some(name) = puzzle {
        if !analysis.puzzles.iter().any(|p| p.name.as_deref() == Some(name)) {
            let names: Vec<String> =
                analysis.puzzles.iter().filter_map(|p| p.name.clone()).map(|n| format!("\"{n}\"")).collect();
            eprintln!("error: `{shown}` has no puzzle named \"{name}\"; its puzzles are: {}", names.join(", "));
            return EXIT_USAGE;
        }
    }
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
            Ok(0) => eprintln!("no solution to write into {shown}"),
            Ok(n) => eprintln!("wrote {n} solution(s) into {shown}"),
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
                let _ = writeln!(out, "{mark} {}", paint(&format!("\"{name}\""), "1", color));
            }
        }
        let _ = writeln!(out, "  {}", summary(p));
        for d in &p.diagnostics {
            let _ = render::write_diagnostic(&mut out, shown, src, d, color);
        }
        if let Some(s) = p.sliding_report.as_ref().and_then(|r| r.solution.as_ref()) {
            let what = if s.optimal { "the fewest moves" } else { "moves, not proven fewest" };
            let _ = writeln!(out, "  move the blank ({what}; U D L R = up down left right):");
            let _ = writeln!(out, "  solution \"{}\"", s.moves);
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

/// Insert or replace the `solution` statement of each solvable puzzle (or
/// only `only`), leaving every other byte as it was; write atomically.
fn write_solutions(path: &Path, src: &str, analysis: &FileAnalysis, only: Option<&str>) -> Result<usize, String> {
    let mut edits = Vec::new();
    for (block, p) in analysis.syntax.puzzles.iter().zip(&analysis.puzzles) {
        if only.is_some() && p.name.as_deref() != only {
            continue;
        }
        let (Some(model), Some(report)) = (&p.model, &p.report) else { continue };
        let Some(min) = &report.minimum else { continue };
        edits.extend(edit::solution(src, block, model, &min.presses));
    }
    if edits.is_empty() {
        return Ok(0);
    }
    let out = edit::apply(src, &edits);
    // Never write a file we would then reject.
    let after = check_source(&out);
    if after.all_diagnostics().iter().any(|d| d.is_error() && d.code == lights_compiler::Code::WrongSolution) {
        return Err(format!(
            "not writing `{}`: the inserted solution did not check (a bug; please report it)",
            path.display()
        ));
    }
    files::write_atomic(path, &out)?;
    Ok(edits.len())
}
