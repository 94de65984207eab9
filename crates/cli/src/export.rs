//! `lights export`: puzzles written for other tools (Flip game IDs, JSON
//! level packs for game engines). The way back is `lights import`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args as ClapArgs, Subcommand};
use lights_authoring::flip;
use lights_authoring::pack_json::{self, Pack};
use lights_ide::{Document, Solved};

use crate::output::JsonSafe;
use lights_compiler::analyze;
use lights_compiler::model::Puzzle;

use crate::excerpt::{escape_controls, quoted_name};
use crate::files::is_stdin;
use crate::{files, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

#[derive(ClapArgs)]
#[command(
    about = "Write puzzles for other tools: Flip game IDs, JSON level packs",
    long_about = "Write puzzles in formats other tools read. The formats are subcommands; see `lights export flip \
        --help` and `lights export json --help`. The way back is `lights import`.",
    after_help = "Examples:\n  lights export flip examples/classic.lights\n  lights export json examples/*.lights -o pack.json"
)]
pub(crate) struct Args {
    #[command(subcommand)]
    format: Format,
}

#[derive(Subcommand)]
enum Format {
    Flip(FlipArgs),
    Json(JsonArgs),
}

#[derive(ClapArgs)]
#[command(
    about = "Write puzzles as a JSON level pack for game engines (schema lights-pack/1)",
    long_about = "Write every Lights Out puzzle of the files as one JSON level pack, schema `lights-pack/1` \
        (documented field by field in docs/authoring/interchange.md; JSON Schema in \
        docs/schema/lights-pack-1.schema.json). Cells are 0-based indices in reading order (a graph is one row \
        of nodes: cell i is node i + 1).\n\n\
        Each puzzle has what its block says: name, shape (square, hex, graph with its nodes and edges), rows, \
        cols, states, rule (a name, or `stencil` and its weights), topology, lights, goal, locked, holes and \
        its `expect` claims; and, for engines, what the solver derives: `press_patterns` (for each free button, \
        the cells one press changes and by how much; null, with `press_patterns_omitted` saying why, past \
        1,000,000 entries) and `analysis` (solvable, the number of solutions, a minimum solution as presses per \
        cell, its total, and `minimum_proven`), from the same solver as `lights solve`, with the same \
        --minimum-budget (or lights.toml's `minimum-budget`).\n\n\
        A puzzle of more than 1,000,000 cells is refused, as is a file with errors. Sliding blocks are left \
        out. `lights import json` reads the pack back.",
    after_help = "Examples:\n  \
        lights export json examples/level-pack.lights -o pack.json\n  \
        lights export json examples/*.lights > all.json\n  \
        lights export json examples/graphs.lights | lights import json -   # the round trip"
)]
struct JsonArgs {
    /// The .lights files (`-` for standard input)
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Only the puzzle of this name (in each file)
    #[arg(long, value_name = "NAME")]
    puzzle: Option<String>,
    /// Write here (atomically) instead of standard output
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    #[command(flatten)]
    minimum_budget: crate::budget::MinimumBudgetArg,
}

#[derive(ClapArgs)]
#[command(
    about = "Write puzzles as game IDs of Flip (Simon Tatham's Portable Puzzle Collection)",
    long_about = "Write each puzzle as a Flip game ID, `WxHc:MATRIX,GRID` or `WxHr:…`, to paste into Flip (Game > \
        Specific…). W is the number of columns, H of rows; MATRIX says, for each cell, which cells a press of it \
        flips, and GRID which lights are on. `c` when the press patterns are Flip's crosses (`rule cross` on the \
        plane), else `r`: any rule, surface, hex board or graph is written as its matrix.\n\n\
        A graph is laid out in one row, or --width W squares to a row. The graph of lights and buttons that \
        `lights import flip` writes for a directed Random game is recognised and written back as that game.\n\n\
        Flip plays two-state lights with every square a button, won when all are off. So a puzzle is refused \
        (with the reason) when it has `states` other than 2, holes, locked buttons (but for that graph of lights \
        and buttons), or more than 4096 cells. A \
        goal other than off is folded in: the ID starts from lights XOR goal, which the same presses solve (a \
        note on standard error says so).\n\n\
        One puzzle (the file has one, or --puzzle NAME): its ID alone on a line. Several: one line each, the \
        name, a tab, the ID. The exit status is 1 when a puzzle could not be written (the others are).",
    after_help = "Examples:\n  \
        lights export flip examples/classic.lights --puzzle classic\n  \
        lights export flip examples/merlin.lights > ids.tsv   # name<TAB>ID lines\n  \
        lights export flip examples/classic.lights --puzzle classic | lights import flip -   # the round trip"
)]
struct FlipArgs {
    /// The .lights file (`-` for standard input)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Lay a graph's squares out W to a row (default: one row); boards keep their columns
    #[arg(long, value_name = "W")]
    width: Option<usize>,
    /// Only this puzzle
    #[arg(long, value_name = "NAME")]
    puzzle: Option<String>,
    /// Write here (atomically) instead of standard output
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

pub(crate) fn run(args: Args) -> u8 {
    match args.format {
        Format::Flip(a) => export_flip(a),
        Format::Json(a) => export_json(a),
    }
}

fn export_json(args: JsonArgs) -> u8 {
    let mut pack = Pack {
        schema: pack_json::SCHEMA.to_string(),
        generator: Some(format!("lights {}", env!("CARGO_PKG_VERSION"))),
        puzzles: Vec::new(),
    };
    for file in &args.files {
        let Some((shown, src)) = files::read_named(Some(file), "<stdin>") else { return EXIT_USAGE };
        if args.puzzle.is_none() && !analyze(&src).blocks.iter().any(|b| b.kind.is_lights()) && args.files.len() > 1 {
            eprintln!("note: `{}` has no Lights Out puzzle; left out", escape_controls(&shown));
            continue;
        }
        // Checked first: the names, and that every block compiles.
        let puzzles = match puzzles_of(&shown, &src, args.puzzle.as_deref()) {
            Ok(p) => p,
            Err(code) => return code,
        };
        // As `lights solve` reads it: the flag, else the nearest lights.toml's `minimum-budget`.
        let config_of = if is_stdin(file) { Path::new(".") } else { file.as_path() };
        let options = match args.minimum_budget.options_for(config_of) {
            Ok(options) => options,
            Err(e) => {
                eprintln!("error: {}", escape_controls(&e));
                return EXIT_USAGE;
            }
        };
        let doc = Document::new(src).with_options(options);
        let analysis = doc.analysis();
        let wanted: Vec<bool> = analysis
            .blocks
            .iter()
            .map(|b| b.kind.is_lights() && args.puzzle.as_deref().is_none_or(|n| b.name.as_deref() == Some(n)))
            .collect();
        if let Some((name, p)) = puzzles.iter().find(|(_, p)| p.cells() as u64 > pack_json::MAX_PACK_CELLS) {
            eprintln!(
                "error: {} has {} cells; a lights-pack/1 puzzle has at most {}",
                quoted_name(Some(name)),
                p.cells(),
                pack_json::MAX_PACK_CELLS
            );
            return EXIT_USAGE;
        }
        // The same solver as `lights solve`.
        let solved = Solved::selected(&doc, |i| wanted.get(i).copied().unwrap_or(false));
        for (i, block) in analysis.blocks.iter().enumerate() {
            if !wanted[i] {
                continue;
            }
            let name = block.name.clone().unwrap_or_default();
            let answered = doc.answered(i, &solved);
            let Some((model, report)) = answered.as_ref().and_then(|(b, r)| b.answered(r)).and_then(|a| a.as_lights())
            else {
                eprintln!("error: {} was not solved", quoted_name(Some(&name)));
                return EXIT_PUZZLE_ERROR;
            };
            let claims: Vec<String> =
                model.header.expects.iter().map(|e| e.claim.to_string().replacen("expect ", "", 1)).collect();
            match pack_json::puzzle_json(model, &name, &claims, Some(report)) {
                Ok(entry) => pack.puzzles.push(entry),
                Err(e) => {
                    eprintln!("error: {}: {}", quoted_name(Some(&name)), escape_controls(&e.to_string()));
                    return EXIT_USAGE;
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = pack.puzzles.iter().find(|p| !seen.insert(p.name.clone())) {
        eprintln!(
            "error: two puzzles are named {}; names are unique in a pack (as in a .lights file)",
            quoted_name(Some(&dup.name))
        );
        return EXIT_USAGE;
    }
    let text = pack_json::pack_text(&pack);
    let emit = |out: &mut dyn Write| {
        let mut safe = JsonSafe::new(out);
        safe.write_all(text.as_bytes())?;
        safe.finish()
    };
    crate::output::emit_to(args.output.as_deref(), emit)
}

/// A file's text and how to name it in messages.
/// The puzzles of a file to export (all, or the one `--puzzle` names), as
/// (name, model); a block that does not compile, or a sliding block, is an
/// error that stops the export (exit status returned).
pub(crate) fn puzzles_of(shown: &str, src: &str, only: Option<&str>) -> Result<Vec<(String, Puzzle)>, u8> {
    let analysis = analyze(src);
    let names: Vec<String> =
        analysis.blocks.iter().map(|p| quoted_name(Some(p.name.as_deref().unwrap_or("")))).collect();
    let chosen: Vec<_> = match only {
        Some(name) => match analysis.blocks.iter().find(|p| p.name.as_deref() == Some(name)) {
            Some(p) => vec![p],
            None => {
                eprintln!(
                    "error: `{}` has no puzzle named {}; its puzzles are: {}",
                    escape_controls(shown),
                    quoted_name(Some(name)),
                    names.join(", ")
                );
                return Err(EXIT_USAGE);
            }
        },
        None => analysis.blocks.iter().collect(),
    };
    if chosen.is_empty() {
        eprintln!("error: `{}` has no puzzle", escape_controls(shown));
        return Err(EXIT_USAGE);
    }
    let mut out = Vec::new();
    for block in chosen {
        let name = block.name.clone().unwrap_or_default();
        if !block.kind.is_lights() {
            if only.is_some() {
                eprintln!(
                    "error: {} is a sliding-tile puzzle; only Lights Out puzzles are exported",
                    quoted_name(Some(&name))
                );
                return Err(EXIT_USAGE);
            }
            continue;
        }
        let Some(model) = block.puzzle() else {
            eprintln!(
                "error: {} in `{}` has errors; `lights check` shows them",
                quoted_name(Some(&name)),
                escape_controls(shown)
            );
            return Err(EXIT_PUZZLE_ERROR);
        };
        out.push((name, model.clone()));
    }
    if out.is_empty() {
        eprintln!("error: `{}` has no Lights Out puzzle (only sliding blocks)", escape_controls(shown));
        return Err(EXIT_USAGE);
    }
    Ok(out)
}

fn export_flip(args: FlipArgs) -> u8 {
    let Some((shown, src)) = files::read_named(Some(&args.file), "<stdin>") else { return EXIT_USAGE };
    let puzzles = match puzzles_of(&shown, &src, args.puzzle.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let one = puzzles.len() == 1;
    let mut text = String::new();
    let mut status = EXIT_OK;
    for (name, model) in &puzzles {
        match flip::export_flip(model, args.width) {
            Ok(out) => {
                for note in &out.notes {
                    eprintln!("note: {}: {note}", quoted_name(Some(name)));
                }
                if one {
                    text.push_str(&format!("{}\n", out.id));
                } else {
                    let name: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
                    text.push_str(&format!("{name}\t{}\n", out.id));
                }
            }
            Err(e) => {
                eprintln!(
                    "error: {} cannot be a Flip game: {}",
                    quoted_name(Some(name)),
                    escape_controls(&e.to_string())
                );
                status = EXIT_PUZZLE_ERROR;
            }
        }
    }
    if !text.is_empty() {
        let written = match &args.output {
            Some(path) => crate::safe_write::write_text(path, &text),
            None => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .map_err(|e| format!("cannot write to standard output: {e}"))
            }
        };
        if let Err(e) = written {
            eprintln!("error: {}", escape_controls(&e));
            return EXIT_USAGE;
        }
    }
    status
}
