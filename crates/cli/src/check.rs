//! `lights check`: human reports or JSON.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use lights_compiler::{check_source, Diagnostic};

use crate::output::{file_json, summary};
use crate::{files, render, Format, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

pub fn run(paths: &[PathBuf], format: Format, quiet: bool) -> u8 {
    let Some(files) = files::collect_reporting(paths) else { return EXIT_USAGE };
    let color = render::use_color(std::io::stdout().is_terminal());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut status = EXIT_OK;
    let mut json = Vec::new();
    let (mut puzzles, mut bad_puzzles, mut errors, mut warnings) = (0usize, 0usize, 0usize, 0usize);

    for path in &files {
        let shown = path.display().to_string();
        let Some(src) = files::read_reporting(path) else {
            status = EXIT_USAGE;
            continue;
        };
        let analysis = check_source(&src);
        let all = analysis.all_diagnostics();
        errors += all.iter().filter(|d| d.is_error()).count();
        warnings += all.iter().filter(|d| !d.is_error()).count();
        if all.iter().any(|d| d.is_error()) {
            status = status.max(EXIT_PUZZLE_ERROR);
        }
        if format == Format::Json {
            json.extend(file_json(&shown, &src, &analysis, None));
            continue;
        }
        for d in &all {
            let _ = render::write_diagnostic(&mut out, &shown, &src, d, color);
        }
        for p in &analysis.puzzles {
            puzzles += 1;
            let ok = !p.diagnostics.iter().any(Diagnostic::is_error);
            bad_puzzles += usize::from(!ok);
            if !quiet {
                let name = p.name.as_deref().filter(|n| !n.trim().is_empty()).unwrap_or("(unnamed)");
                let mark = if ok { paint("✓", "32", color) } else { paint("✗", "31", color) };
                let _ = writeln!(out, "{mark} {shown}: {name}: {}", summary(p));
            }
        }
        if analysis.puzzles.is_empty() && analysis.file_diagnostics.is_empty() {
            let _ = writeln!(out, "{} {shown}: no puzzles in this file", paint("!", "33", color));
        }
    }

    if format == Format::Json {
        let _ = serde_json::to_writer_pretty(&mut out, &json);
        let _ = writeln!(out);
        return status;
    }
    let files_n = files.len();
    let mut line = if errors == 0 {
        format!("checked {puzzles} puzzle(s) in {files_n} file(s): all fine")
    } else {
        format!("checked {puzzles} puzzle(s) in {files_n} file(s): {errors} error(s) in {bad_puzzles} puzzle(s)")
    };
    if warnings > 0 {
        line.push_str(&format!(", {warnings} warning(s)"));
    }
    let _ = writeln!(out, "{line}");
    status
}

/// ANSI colour when `color` is on.
pub fn paint(text: &str, ansi: &str, color: bool) -> String {
    if color {
        format!("\x1b[{ansi}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}
