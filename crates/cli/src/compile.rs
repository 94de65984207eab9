//! `lights compile`: a puzzle's linear system as JSON or as a SageMath script.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args as ClapArgs, ValueEnum};
use lights_authoring::export::{self, MAX_ENTRIES};
use lights_compiler::model::Puzzle;
use lights_compiler::{analyze, Diagnostic};

use crate::excerpt::quoted_name;
use crate::files::{is_stdin, read_stdin};
use crate::output::JsonSafe;
use crate::{files, render, EXIT_PUZZLE_ERROR, EXIT_USAGE};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Emit {
    /// The system as JSON: modulus, size, unknowns, sparse matrix, b
    Json,
    /// A SageMath script that builds the system and solves it
    Sage,
}

#[derive(ClapArgs)]
#[command(
    about = "Write a puzzle's linear system (JSON, or a SageMath script)",
    long_about = "Write the linear system A·x ≡ b (mod W) that `lights` solves for a puzzle, so it can be \
        cross-checked in a computer algebra system.\n\n\
        x[j] is how many times the j-th free cell is pressed; row i of A is cell i in reading order; \
        column j of A is what one press of that cell adds to each cell; b = goal − lights (mod W).\n\n\
        --emit json: an object with `modulus` (W), `size` (rows, cols), `rule`, `topology`, `unknowns` (the \
        1-based [row, column] of each column of A), `matrix` (`shape` [cells, unknowns] and the nonzero \
        `entries` as 0-based [row, column, value]), `b`, and `meaning`.\n\
        --emit sage: a script for `sage FILE.sage` that builds the same system and prints whether it can be \
        solved, the number of solutions and one solution. It is exact for composite W too (over the \
        integers, with the Smith normal form; over GF(W) when W is prime).\n\n\
        Other shapes: a `grid hex` board is written like a square one (cells in reading order, hexagonal \
        press patterns) with \"shape\": \"hex\". A `graph` puzzle is one row of nodes (cell [1, k] is node k): \
        the JSON adds \"shape\": \"graph\" and `graph` (`name`, `nodes`, 1-based `edges`), and the Sage script \
        lists unknowns and the solution by node. Holes have no button, so they are no unknown; their rows of A \
        and entries of b are 0 (row i stays cell i), and the JSON lists them in `holes`. Square boards \
        without holes carry none of these fields.\n\n\
        A file with several puzzles needs --puzzle NAME.",
    after_help = "Examples:\n  \
        lights compile examples/classic.lights --puzzle classic --emit json\n  \
        lights compile examples/six-states.lights --puzzle six-states --emit sage -o six.sage   # then: sage six.sage\n  \
        lights compile examples/level-pack.lights --puzzle \"first light\" --emit json -o first.json\n  \
        lights compile petersen.lights --emit sage   # a `graph petersen` puzzle: unknowns by node"
)]
pub(crate) struct Args {
    /// The .lights file (`-` for standard input)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The puzzle to compile (required when the file has several)
    #[arg(long, value_name = "NAME")]
    puzzle: Option<String>,
    /// What to write
    #[arg(long, value_enum, value_name = "FORMAT")]
    emit: Emit,
    /// Write here (atomically) instead of standard output
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> u8 {
    let (shown, src) = if is_stdin(&args.file) {
        match read_stdin() {
            Ok(src) => ("<stdin>".to_string(), src),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_USAGE;
            }
        }
    } else {
        let Some(src) = files::read_reporting(&args.file) else { return EXIT_USAGE };
        (files::shown_path(&args.file), src)
    };
    let analysis = analyze(&src);
    let names: Vec<String> =
        analysis.blocks.iter().map(|p| quoted_name(Some(p.name.as_deref().unwrap_or("")))).collect();
    let chosen = match &args.puzzle {
        Some(name) => match analysis.blocks.iter().find(|p| p.name.as_deref() == Some(name.as_str())) {
            Some(p) => p,
            None => {
                eprintln!(
                    "error: `{shown}` has no puzzle named {}; its puzzles are: {}",
                    quoted_name(Some(name)),
                    names.join(", ")
                );
                return EXIT_USAGE;
            }
        },
        None => match analysis.blocks.as_slice() {
            [one] => one,
            [] => {
                eprintln!("error: `{shown}` has no puzzle");
                return EXIT_USAGE;
            }
            _ => {
                eprintln!(
                    "error: `{shown}` has {} puzzles; choose one with --puzzle NAME: {}",
                    names.len(),
                    names.join(", ")
                );
                return EXIT_USAGE;
            }
        },
    };
    // Lights Out only: a sliding block has no linear system.
    if !chosen.kind.is_lights() {
        let name = quoted_name(chosen.name.as_deref());
        eprintln!("error: {name} is a sliding-tile puzzle: `lights compile` writes the linear system of a Lights Out `puzzle`");
        return EXIT_USAGE;
    }
    let Some(model) = chosen.puzzle() else {
        let color = render::use_color(std::io::stderr().is_terminal());
        let mut err = std::io::stderr();
        let errors: Vec<Diagnostic> = chosen.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
        let _ = render::write_diagnostics(&mut err, &shown, &src, &errors, color);
        let n = chosen.diagnostics.iter().filter(|d| Diagnostic::is_error(d)).count();
        eprintln!("error: the puzzle has {}; fix them to compile it", lights_compiler::summary::count(n, "error"));
        return EXIT_PUZZLE_ERROR;
    };
    // Bounded by what would be written, counted from the size and the rule
    // before anything is built: `graph complete 4000` (49 bytes) has 16
    // million entries.
    if let Some(why) = too_large(model) {
        eprintln!("error: {why}; `lights compile` writes systems of at most {MAX_ENTRIES} matrix entries and cells (`lights solve` solves it without writing the system)");
        return EXIT_USAGE;
    }
    // Through JsonSafe: a name's DEL or C1 characters become `\u007f`…
    // (valid in JSON and in a Python string literal alike).
    let emit = |out: &mut dyn Write| {
        let mut safe = JsonSafe::new(out);
        match args.emit {
            Emit::Json => export::write_json(model, &mut safe)?,
            Emit::Sage => export::write_sage(model, &mut safe)?,
        }
        safe.finish()
    };
    crate::output::emit_to(args.output.as_deref(), emit)
}

/// Why the system of `model` is too large to write, if it is.
fn too_large(model: &Puzzle) -> Option<String> {
    let entries = export::entry_bound(model);
    let cells = model.cells() as u64;
    let what = if model.is_graph() { "graph" } else { "board" };
    if entries > MAX_ENTRIES {
        Some(format!("the {what}'s matrix would have up to {entries} entries"))
    } else if cells > MAX_ENTRIES {
        Some(format!("the {what} has {cells} cells"))
    } else {
        None
    }
}
