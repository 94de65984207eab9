//! `lights check`: human reports, JSON, or just `Yes`/`No` per puzzle.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use lights_compiler::summary::count;
use lights_compiler::{Code, Diagnostic};
use lights_ide::{Document, Mark, Solved};
use rayon::prelude::*;

use crate::files::{is_stdin, read_stdin};
use crate::formats::{self, Reporter, Totals};
use crate::output::{file_json, unreadable_json, BlockJson};
use crate::progress::Progress;
use crate::{files, pattern_databases, render, Format, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};
use lights_ide::config::Configs;

/// `--answer`: print only the answer to a question about each puzzle.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Answer {
    /// `Yes` when the puzzle can be solved, `No` when it cannot
    YesNo,
}

/// One input: a file, or standard input (`-`) with the name to show.
enum Input {
    File(PathBuf),
    Stdin(String),
}

impl Input {
    fn shown(&self) -> String {
        match self {
            Input::File(p) => p.display().to_string(),
            Input::Stdin(name) => name.clone(),
        }
    }

    /// The text (at most `limit` bytes), or why it cannot be read.
    fn read(&self, limit: u64) -> Result<String, String> {
        match self {
            Input::File(p) => files::read_limited(p, limit),
            Input::Stdin(_) => read_stdin(),
        }
    }
}

/// Standard input for `check -`, where nothing at all (0 bytes) is an
/// error, not an empty file: in `lights import coords in.txt | lights check
/// -` it is what a failed first command leaves, and the pipe's status is
/// the last command's, so the failure must show there (exit 2). An empty
/// file named on the command line is still a file (L0009).
fn read_nonempty_stdin() -> Result<String, String> {
    match read_stdin()? {
        text if text.is_empty() => Err(EMPTY_STDIN.to_string()),
        text => Ok(text),
    }
}

const EMPTY_STDIN: &str = "standard input is empty: nothing to check (did the command before `|` fail?)";

/// Files are read and checked this many at a time, in parallel on every
/// core; reports are then printed in the order the files were given.
const BATCH: usize = 256;

/// Read and check every input (in parallel), handing each analysed
/// document and its answers to `report` in input order, with its index in
/// `inputs` (which `budget`, `options` and `max_bytes` are asked with too). Inputs that cannot
/// be read are reported here; returns whether there was any. Each batch is
/// parsed first, so the sliding solver's tables are made ready once, before
/// anything is solved.
fn check_all(
    inputs: &[Input],
    budget: &(dyn Fn(usize) -> Option<std::time::Duration> + Sync),
    options: &(dyn Fn(usize) -> lights_compiler::SolveOptions + Sync),
    max_bytes: &(dyn Fn(usize) -> u64 + Sync),
    mut report: impl FnMut(usize, &Input, &Document, &Solved),
    mut unreadable_input: impl FnMut(&Input, &str),
    mut progress: Progress,
) -> bool {
    let mut unreadable = false;
    progress.set_length(inputs.len() as u64);
    // Standard input is read first, on this thread.
    let mut stdin_text = inputs.iter().any(|i| matches!(i, Input::Stdin(_))).then(read_nonempty_stdin);
    // Copies across files: canonical forms only where cheap pre-keys meet
    // (a form can cost a second on a board of a million hexagons).
    let mut pack = lights_ide::pack::PackIndex::new();
    for (b, batch) in inputs.chunks(BATCH).enumerate() {
        let first = b * BATCH;
        let texts: Vec<Result<String, String>> = batch
            .iter()
            .map(|i| match i {
                Input::Stdin(_) => stdin_text.take().unwrap_or_else(|| Err("standard input was already read".into())),
                Input::File(_) => Ok(String::new()), // read in parallel below
            })
            .collect();
        let parsed: Vec<Result<Document, String>> = batch
            .par_iter()
            .zip(texts)
            .enumerate()
            .map(|(k, (input, text))| {
                let src = match input {
                    Input::Stdin(_) => text?,
                    Input::File(_) => input.read(max_bytes(first + k))?,
                };
                Ok(Document::new(src).with_options(options(first + k)))
            })
            .collect();
        // Before the parallel solving: the tables are loaded or built once,
        // with a progress bar, and every solve below finds them in memory.
        if parsed.iter().flatten().any(pattern_databases::document_needs_tables) {
            // Their build has a progress bar of its own: one line at a time.
            progress.finish();
            pattern_databases::prepare();
        }
        let results: Vec<Result<(Document, Solved), String>> = parsed
            .into_par_iter()
            .enumerate()
            .map(|(k, parsed)| {
                let doc = parsed?;
                let solved = match budget(first + k) {
                    Some(budget) => Solved::within(&doc, budget),
                    None => Solved::all(&doc),
                };
                // The forms the pack's copies (L0208) will ask for, here in parallel.
                pack.prepare(&doc);
                progress.inc();
                Ok((doc, solved))
            })
            .collect();
        // The reports are printed with the progress line out of their way.
        progress.suspend(|| {
            for (k, (input, result)) in batch.iter().zip(results).enumerate() {
                match result {
                    Ok((mut doc, solved)) => {
                        // Copies of levels of earlier files (L0208): the files are
                        // reported in order, so the first copy is always known.
                        let copies = pack.copies(&input.shown(), &doc);
                        doc.set_earlier_copies(copies);
                        report(first + k, input, &doc, &solved);
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        unreadable_input(input, &e);
                        unreadable = true;
                    }
                }
            }
        });
    }
    unreadable
}

/// The inputs named on the command line: `-` is standard input (once),
/// folders are searched for `*.lights` files ([`files::select`]). `None`
/// after printing an error about `-`.
fn collect_inputs(
    paths: &[PathBuf],
    stdin_filename: Option<&Path>,
    configs: &mut Configs,
) -> Result<(Vec<Input>, files::Selection), String> {
    let mut inputs = Vec::new();
    let mut stdin_seen = false;
    let mut selection = files::Selection::default();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        if is_stdin(p) {
            if stdin_seen {
                return Err("`-` (standard input) can be given only once".into());
            }
            stdin_seen = true;
            inputs.push(Input::Stdin(files::shown(p, stdin_filename)));
        } else {
            let found = files::select(std::slice::from_ref(p));
            let walked = p.is_dir();
            // A file reached from two paths is checked once.
            for f in found.files {
                // Files found in a folder follow their lights.toml's include and exclude.
                if walked && !configs.for_file(&f)?.is_none_or(|c| c.selects(&f)) {
                    continue;
                }
                // A set beside the list: a folder of 10,000 files is not
                // 50 million path comparisons.
                if seen.insert(f.clone()) {
                    selection.files.push(f.clone());
                    inputs.push(Input::File(f));
                }
            }
            selection.unreadable.extend(found.unreadable);
            selection.notes.extend(found.notes);
        }
    }
    for note in &selection.notes {
        eprintln!("warning: {note}");
    }
    Ok((inputs, selection))
}

/// What `lights check` is asked to do besides the paths.
pub(crate) struct Options<'a> {
    pub stdin_filename: Option<&'a Path>,
    pub format: Format,
    pub quiet: bool,
    pub answer: Option<Answer>,
    /// `--config`: this lights.toml for every file instead of the nearest one.
    pub config: Option<&'a Path>,
    /// `--max-warnings` (`--deny-warnings` is 0).
    pub max_warnings: Option<usize>,
    /// `--minimum-budget`: wins over each file's lights.toml.
    pub minimum_budget: crate::budget::MinimumBudgetArg,
}

/// Each input's lights.toml, when one applies.
type Policies = Vec<Option<std::sync::Arc<lights_ide::config::Config>>>;

/// The inputs of `paths` as `lights check` selects them, each with the
/// lights.toml that applies to it (`config` for all, when given).
fn select(
    paths: &[PathBuf],
    stdin_filename: Option<&Path>,
    config: Option<&Path>,
) -> Result<(Vec<Input>, files::Selection, Policies), String> {
    let mut configs = Configs::new(config, files::read_config).map_err(String::from)?;
    let (inputs, selection) = collect_inputs(paths, stdin_filename, &mut configs)?;
    let policies = inputs
        .iter()
        .map(|i| match i {
            Input::File(f) => configs.for_file(f),
            Input::Stdin(name) => configs.for_file(Path::new(name)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((inputs, selection, policies))
}

/// Every input of `paths` read, analysed and solved exactly as `lights
/// check` does it (each file's lights.toml: its include and exclude, its
/// max-bytes, time and minimum budgets; copies of levels of earlier files
/// found), handed to `report` in order with the name to show. Errors are
/// printed; returns whether every input could be read (`Err`: the
/// configuration or the selection is wrong).
pub(crate) fn each_checked(
    paths: &[PathBuf],
    minimum_budget: crate::budget::MinimumBudgetArg,
    mut report: impl FnMut(&str, &Document, &Solved),
) -> Result<bool, String> {
    let (inputs, selection, policies) = select(paths, None, None)?;
    if inputs.is_empty() && selection.unreadable.is_empty() {
        return Err(files::nothing_selected(paths));
    }
    let policy_of = |index: usize| policies.get(index).and_then(|c| c.as_deref());
    let unreadable = check_all(
        &inputs,
        &|index| policy_of(index).and_then(|c| c.time_budget),
        &|index| minimum_budget.options(policy_of(index)),
        &|index| max_bytes_of(policy_of(index)),
        |_, input, doc, solved| report(&input.shown(), doc, solved),
        |_, _| {},
        Progress::tally("files"),
    );
    for (_, message) in &selection.unreadable {
        eprintln!("error: {message}");
    }
    Ok(!unreadable && selection.unreadable.is_empty())
}

/// `--max-bytes`, else the file's lights.toml, else the default.
fn max_bytes_of(policy: formats::Policy) -> u64 {
    match policy.and_then(|c| c.max_bytes) {
        Some(limit) if !files::max_bytes_given() => limit,
        _ => files::max_bytes(),
    }
}

pub(crate) fn run(paths: &[PathBuf], options: Options) -> u8 {
    let Options { stdin_filename, format, quiet, answer, config, max_warnings, minimum_budget } = options;
    let (inputs, selection, policies) = match select(paths, stdin_filename, config) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    // The flag, else the strictest `max-warnings` of the configurations in use.
    let max_warnings = max_warnings.or_else(|| policies.iter().flatten().filter_map(|c| c.max_warnings).min());
    if answer == Some(Answer::YesNo) {
        for (_, message) in &selection.unreadable {
            eprintln!("error: {message}");
        }
        let status = run_yes_no(&inputs);
        return if selection.unreadable.is_empty() { status } else { EXIT_USAGE };
    }
    let mut reporter: Box<dyn Reporter> = match format {
        Format::Human => Box::new(Human { color: render::use_color(std::io::stdout().is_terminal()), quiet }),
        Format::Json => Box::<JsonReport>::default(),
        Format::Concise => Box::<formats::Concise>::default(),
        Format::Github => Box::<formats::Github>::default(),
        Format::Sarif => Box::<formats::Sarif>::default(),
        Format::Junit => Box::<formats::Junit>::default(),
    };
    // The CI formats name files relative to the current folder, without
    // `./`; the human and JSON reports keep the paths as given.
    let ci = matches!(format, Format::Concise | Format::Github | Format::Sarif | Format::Junit);
    let name = |shown: &str| if ci { formats::repo_relative(shown) } else { shown.to_string() };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut status = EXIT_OK;
    let mut totals = Totals { files: inputs.len() + selection.unreadable.len(), ..Totals::default() };
    let mut unreadable_out = Vec::new();
    // `policies` holds each input's lights.toml, in the order of `inputs`.
    let policy_of = |index: usize| policies.get(index).and_then(|c| c.as_deref());
    let budget = |index: usize| policy_of(index).and_then(|c| c.time_budget);
    // `--minimum-budget`, else the file's lights.toml, else the default.
    let solve_options = |index: usize| minimum_budget.options(policy_of(index));
    let max_bytes = |index: usize| max_bytes_of(policy_of(index));
    let unreadable = check_all(
        &inputs,
        &budget,
        &solve_options,
        &max_bytes,
        |index, input, doc, solved| {
            let policy = policy_of(index);
            let all = formats::all(doc, solved, policy);
            totals.errors += all.iter().filter(|d| d.is_error()).count();
            totals.warnings += all.iter().filter(|d| !d.is_error()).count();
            totals.puzzles += doc.block_count();
            totals.failed_puzzles += (0..doc.block_count())
                .filter(|&i| formats::block(doc, solved, i, policy).iter().any(Diagnostic::is_error))
                .count();
            if all.iter().any(Diagnostic::is_error) {
                status = status.max(EXIT_PUZZLE_ERROR);
            }
            reporter.file(&mut out, &name(&input.shown()), doc, solved, policy);
        },
        |input, message| unreadable_out.push((input.shown(), message.to_string())),
        if quiet { Progress::hidden() } else { Progress::tally("files") },
    );
    for (shown, message) in &selection.unreadable {
        eprintln!("error: {message}");
        reporter.unreadable(&mut out, &name(shown), message);
    }
    for (shown, message) in &unreadable_out {
        reporter.unreadable(&mut out, &name(shown), message);
    }
    if unreadable || !selection.unreadable.is_empty() {
        status = EXIT_USAGE;
    }
    totals.unreadable = selection.unreadable.len() + unreadable_out.len();
    if let Some(max) = max_warnings.filter(|&max| totals.warnings > max) {
        eprintln!(
            "error: {}, more than the {max} allowed (--max-warnings, --deny-warnings or max-warnings in lights.toml)",
            count(totals.warnings, "warning")
        );
        status = status.max(EXIT_PUZZLE_ERROR);
    }
    if inputs.is_empty() && selection.unreadable.is_empty() {
        eprintln!("error: {}", files::nothing_selected(paths));
        status = EXIT_USAGE;
    }
    reporter.finish(&mut out, &totals);
    status
}

/// The last line of the human, concise and GitHub outputs.
pub(crate) fn summary(t: &Totals) -> String {
    let (puzzles, files) = (t.puzzles, t.files);
    if files == 0 {
        return "nothing checked".into();
    }
    let mut parts = Vec::new();
    if t.errors == 0 && t.unreadable == 0 {
        parts.push("all fine".to_string());
    }
    if t.errors > 0 {
        parts.push(format!("{} in {}", count(t.errors, "error"), count(t.failed_puzzles, "puzzle")));
    }
    if t.unreadable > 0 {
        parts.push(format!("{} not read", count(t.unreadable, "file")));
    }
    if t.warnings > 0 {
        parts.push(count(t.warnings, "warning"));
    }
    format!("checked {} in {}: {}", count(puzzles, "puzzle"), count(files, "file"), parts.join(", "))
}

/// `--format human`: every diagnostic drawn on its source, a line per
/// puzzle (not with `-q`), and the summary.
struct Human {
    color: bool,
    quiet: bool,
}

impl Reporter for Human {
    fn file(&mut self, out: &mut dyn Write, shown: &str, doc: &Document, solved: &Solved, policy: formats::Policy) {
        let _ = render::write_diagnostics(out, shown, doc.text(), &formats::all(doc, solved, policy), self.color);
        if self.quiet {
            return;
        }
        let shown = crate::excerpt::escape_controls(shown);
        for (i, p) in doc.analysis().blocks.iter().enumerate() {
            let name = crate::excerpt::escape_controls(
                p.name.as_deref().filter(|n| !n.trim().is_empty()).unwrap_or("(unnamed)"),
            );
            let line = lights_ide::status(doc, i, solved);
            let _ = writeln!(out, "{} {shown}: {name}: {}", mark(line.mark, self.color), line.text);
        }
    }

    fn unreadable(&mut self, _out: &mut dyn Write, _shown: &str, _message: &str) {
        // Already on standard error.
    }

    fn finish(&mut self, out: &mut dyn Write, totals: &Totals) {
        // `-q` on a clean run prints nothing at all.
        if self.quiet && totals.errors == 0 && totals.warnings == 0 && totals.unreadable == 0 && totals.files > 0 {
            return;
        }
        let _ = writeln!(out, "{}", summary(totals));
    }
}

/// `--format json`: one array, an object per block (and per file with
/// problems outside its blocks, or that cannot be read).
#[derive(Default)]
struct JsonReport {
    objects: Vec<BlockJson>,
}

impl Reporter for JsonReport {
    fn file(&mut self, _out: &mut dyn Write, shown: &str, doc: &Document, solved: &Solved, policy: formats::Policy) {
        self.objects.extend(file_json(shown, doc, solved, None, policy));
    }

    fn unreadable(&mut self, _out: &mut dyn Write, shown: &str, message: &str) {
        self.objects.push(unreadable_json(shown, message));
    }

    fn finish(&mut self, out: &mut dyn Write, _totals: &Totals) {
        let _ = crate::output::write_json(&mut *out, &self.objects);
        let _ = writeln!(out);
    }
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
    let unreadable = check_all(
        inputs,
        &|_| None,
        &|_| lights_compiler::SolveOptions::default(),
        &|_| files::max_bytes(),
        |_, input, doc, solved| {
            let shown = input.shown();
            let problems = yes_no_problems(doc, solved);
            let _ = render::write_diagnostics(&mut err, &shown, doc.text(), &problems, color);
            if problems.iter().any(lights_compiler::Diagnostic::is_error) {
                status = status.max(EXIT_PUZZLE_ERROR);
            }
            for i in 0..doc.block_count() {
                if let Some((_, report)) = doc.answered(i, solved) {
                    let _ = writeln!(out, "{}", if report.solvable() { "Yes" } else { "No" });
                }
            }
        },
        |_, _| {},
        Progress::tally("files"),
    );
    if unreadable {
        status = EXIT_USAGE;
    }
    let _ = out.flush();
    status
}

/// The diagnostics to print in yes-no mode, in source order: all but
/// "cannot be solved" (L0201), which is the answer `No`, unless the block
/// claims to be solvable.
fn yes_no_problems(doc: &Document, solved: &Solved) -> Vec<Diagnostic> {
    let mut all: Vec<Diagnostic> = doc.analysis().file_diagnostics.clone();
    for i in 0..doc.block_count() {
        let keep_unsolvable = doc.block(i).is_some_and(|b| b.expects_a_solution());
        all.extend(
            lights_ide::block_diagnostics(doc, i, solved)
                .into_iter()
                .filter(|d| d.code != Code::Unsolvable || keep_unsolvable),
        );
    }
    all.sort_by_key(|d| (d.span.start, d.span.end));
    all
}

/// A status mark, coloured on a terminal.
pub(crate) fn mark(mark: Mark, color: bool) -> String {
    let ansi = match mark {
        Mark::Ok => "32",
        Mark::Error => "31",
        Mark::Solving | Mark::TimedOut => "33",
    };
    paint(mark.symbol(), ansi, color)
}

/// ANSI colour when `color` is on.
pub(crate) fn paint(text: &str, ansi: &str, color: bool) -> String {
    if color {
        format!("\x1b[{ansi}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}
