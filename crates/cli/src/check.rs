//! `lights check`: human reports, JSON, or just `Yes`/`No` per puzzle.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use lights_compiler::model::Claim;
use lights_compiler::{analyze, Code, Diagnostic, FileAnalysis, PuzzleAnalysis};
use rayon::prelude::*;

use crate::output::{file_json, summary};
use crate::{files, pattern_databases, render, Format, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

/// `--answer`: print only the answer to a question about each puzzle.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Answer {
    /// `Yes` when the puzzle can be solved, `No` when it cannot
    YesNo,
}

/// One input: a file, or standard input (`-`).
enum Input {
    File(PathBuf),
    Stdin,
}

impl Input {
    fn shown(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Stdin => "<stdin>".to_string(),
        }
    }

    /// The text, or why it cannot be read.
    fn read(&self) -> Result<String, String> {
        match self {
            Input::File(p) => files::read(p),
            Input::Stdin => read_stdin(),
        }
    }
}

/// Files are read and checked this many at a time, in parallel on every
/// core; reports are then printed in the order the files were given.
const BATCH: usize = 256;

/// Read and check every input (in parallel), handing each text and its
/// analysis to `report` in input order. Inputs that cannot be read are
/// reported here; returns whether there was any. Each batch is parsed
/// first, so the sliding solver's tables are made ready once, before
/// anything is solved.
fn check_all(inputs: &[Input], mut report: impl FnMut(&Input, String, FileAnalysis)) -> bool {
    let mut unreadable = false;
    // Standard input is read first, on this thread.
    let mut stdin_text = inputs.iter().any(|i| matches!(i, Input::Stdin)).then(read_stdin);
    for batch in inputs.chunks(BATCH) {
        let texts: Vec<Result<String, String>> = batch
            .iter()
            .map(|i| match i {
                Input::Stdin => stdin_text.take().unwrap_or_else(|| Err("standard input was already read".into())),
                Input::File(_) => Ok(String::new()), // read in parallel below
            })
            .collect();
        let parsed: Vec<Result<(String, FileAnalysis), String>> = batch
            .par_iter()
            .zip(texts)
            .map(|(input, text)| {
                let src = match input {
                    Input::Stdin => text?,
                    Input::File(_) => input.read()?,
                };
                let analysis = analyze(&src);
                Ok((src, analysis))
            })
            .collect();
        // Before the parallel solving: the tables are loaded or built once,
        // with a progress bar, and every solve below finds them in memory.
        if parsed.iter().flatten().any(|(_, a)| a.puzzles.iter().any(pattern_databases::block_needs_tables)) {
            pattern_databases::prepare();
        }
        let results: Vec<Result<(String, FileAnalysis), String>> = parsed
            .into_par_iter()
            .map(|parsed| {
                let (src, mut analysis) = parsed?;
                pattern_databases::check_blocks(&mut analysis, |_| true);
                Ok((src, analysis))
            })
            .collect();
        for (input, result) in batch.iter().zip(results) {
            match result {
                Ok((src, analysis)) => report(input, src, analysis),
                Err(e) => {
                    eprintln!("error: {e}");
                    unreadable = true;
                }
            }
        }
    }
    unreadable
}

/// All of standard input as UTF-8 text.
pub fn read_stdin() -> Result<String, String> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        format!("standard input is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to())
    })
}

/// The inputs named on the command line: `-` is standard input (once),
/// folders are searched for `*.lights` files. `None` after printing an error.
fn collect_inputs(paths: &[PathBuf]) -> Option<Vec<Input>> {
    let mut inputs = Vec::new();
    let mut stdin_seen = false;
    for p in paths {
        if is_stdin(p) {
            if stdin_seen {
                eprintln!("error: `-` (standard input) can be given only once");
                return None;
            }
            stdin_seen = true;
            inputs.push(Input::Stdin);
        } else {
            inputs.extend(files::collect_reporting(std::slice::from_ref(p))?.into_iter().map(Input::File));
        }
    }
    Some(inputs)
}

pub fn run(paths: &[PathBuf], format: Format, quiet: bool, answer: Option<Answer>) -> u8 {
    let Some(inputs) = collect_inputs(paths) else { return EXIT_USAGE };
    if answer == Some(Answer::YesNo) {
        return run_yes_no(&inputs);
    }
    let color = render::use_color(std::io::stdout().is_terminal());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut status = EXIT_OK;
    let mut json = Vec::new();
    let (mut puzzles, mut bad_puzzles, mut errors, mut warnings) = (0usize, 0usize, 0usize, 0usize);

    let unreadable = check_all(&inputs, |input, src, analysis| {
        let shown = input.shown();
        let all = analysis.all_diagnostics();
        errors += all.iter().filter(|d| d.is_error()).count();
        warnings += all.iter().filter(|d| !d.is_error()).count();
        if all.iter().any(|d| d.is_error()) {
            status = status.max(EXIT_PUZZLE_ERROR);
        }
        if format == Format::Json {
            json.extend(file_json(&shown, &src, &analysis, None));
            return;
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
    });
    if unreadable {
        status = EXIT_USAGE;
    }

    if format == Format::Json {
        let _ = serde_json::to_writer_pretty(&mut out, &json);
        let _ = writeln!(out);
        return status;
    }
    let files_n = inputs.len();
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

/// `--answer yes-no`: `Yes` or `No` on standard output for every puzzle the
/// solver answered, in file order; everything else (syntax and meaning
/// errors, failed claims, warnings) goes to standard error. "cannot be
/// solved" (L0201) is the answer `No`, not an error, unless the puzzle
/// claims to be solvable. Exit status 1 when any error was printed.
fn run_yes_no(inputs: &[Input]) -> u8 {
    let color = render::use_color(std::io::stderr().is_terminal());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = std::io::stderr();
    let mut status = EXIT_OK;
    let unreadable = check_all(inputs, |input, src, analysis| {
        let shown = input.shown();
        let problems = yes_no_problems(&analysis);
        for d in &problems {
            let _ = render::write_diagnostic(&mut err, &shown, &src, d, color);
        }
        if problems.iter().any(|d| d.is_error()) {
            status = status.max(EXIT_PUZZLE_ERROR);
        }
        for p in &analysis.puzzles {
            if let Some(r) = &p.report {
                let _ = writeln!(out, "{}", if r.solvable { "Yes" } else { "No" });
            }
        }
        if analysis.puzzles.is_empty() && analysis.file_diagnostics.is_empty() {
            let _ = writeln!(err, "warning: {shown}: no puzzles in this file");
        }
    });
    if unreadable {
        status = EXIT_USAGE;
    }
    let _ = out.flush();
    status
}

/// The diagnostics to print in yes-no mode, in source order.
fn yes_no_problems(analysis: &FileAnalysis) -> Vec<&Diagnostic> {
    let mut all: Vec<&Diagnostic> = analysis.file_diagnostics.iter().collect();
    for p in &analysis.puzzles {
        let keep_unsolvable = claims_a_solution(p);
        all.extend(p.diagnostics.iter().filter(|d| d.code != Code::Unsolvable || keep_unsolvable));
    }
    all.sort_by_key(|d| (d.span.start, d.span.end));
    all
}

/// Whether the puzzle has an `expect` that says it can be solved.
fn claims_a_solution(p: &PuzzleAnalysis) -> bool {
    p.model.as_ref().is_some_and(|m| {
        m.expects.iter().any(|e| match &e.claim {
            Claim::Unsolvable => false,
            Claim::Solutions(n) => n.bits() > 0,
            Claim::Solvable | Claim::Unique | Claim::Presses(_) => true,
        })
    })
}

/// ANSI colour when `color` is on.
pub fn paint(text: &str, ansi: &str, color: bool) -> String {
    if color {
        format!("\x1b[{ansi}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Whether a command-line path means standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}
