//! `lights render`: draw one puzzle of a file as an SVG or PNG picture.

use std::path::{Path, PathBuf};

use clap::{Args as ClapArgs, ValueEnum};
use lights_authoring::picture::{self, Numbers, Options, Show};
use lights_compiler::model::{GraphKind, Shape};
use lights_compiler::{analyze, check_block_with, BlockAnalysis, BlockKind, BlockReport, FileAnalysis};

use crate::excerpt::{escape_controls, quoted_name};
use crate::{files, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

#[derive(ClapArgs)]
#[command(
    about = "Draw a puzzle as an SVG or PNG picture",
    long_about = "Draw one puzzle of FILE (--puzzle NAME, else the first) as a picture: the lights by state \
        (off dark, on bright; a colour scale with a legend when there are more than 2 states), the goal as a \
        second panel when it is not all off, locked buttons crossed out (hatched on large boards), and one \
        overlay chosen with --show: the minimum solution's presses (a dot per pressed cell, the count when \
        there are more than 2 states), a quiet pattern, or the certificate of an unsolvable puzzle. The title \
        gives the name, size, rule, topology, states and the result.\n\n\
        The surface is drawn on the borders, as topology diagrams do: each glued pair of opposite borders gets \
        an arrow along both, outside the cells; the two arrows point the same way when the borders are glued \
        as they are (cylinder, torus) and opposite ways when they are glued with a twist (mobius, klein, \
        projective). Left/right arrows have one head, top/bottom arrows two; open borders (the plane) have \
        none. So a 3×3 torus gets four arrows: ↓ on the left and right (one head), » along the top and bottom \
        (two heads); a Möbius band ↓ on the left and ↑ on the right.\n\n\
        --numbers writes each cell's state number on it, black or white to read on its colour: `auto` (the \
        default) when there are more than 2 states, `always` also for 0/1, `never`; only on cells of 14 px or \
        more. Then the overlay's marks move to the top right corner of the cells (numbered marks need cells of \
        36 px, else the overlay gets a panel of its own); a graph node shows its state inside and its node \
        number small at its bottom right.\n\n\
        Every shape is drawn as it is played: `grid hex` boards as hexagons (pointy-topped, every second row \
        shifted right by half a cell), holes left blank (no cell), and `graph` puzzles as their nodes (circles \
        coloured by state, with their node number inside from 14 px, or their state and the node number \
        beside it when --numbers applies) joined by lines for the edges, laid out as the graph's drawing \
        (nested polygons for the solids, the unfolded net for `cube-surface N`, whose edges across the cube \
        are dashed, a circle otherwise); there --cell is the node size and the marks of the overlay sit at \
        the top right of each node. Graphs have no borders, so no gluing arrows.\n\n\
        The format follows the extension of the output: .svg or .png. Small boards get ~40 px cells with grid \
        lines and row/column numbers; large ones (e.g. 500×500) get 1–2 px cells, no grid, and an SVG in which \
        each row's runs of equal cells are merged. The file is replaced atomically.\n\n\
        Exit status: 0 when the picture was written (even if the puzzle has failed `expect` claims), 1 when \
        the chosen puzzle has errors that keep it from being drawn, 2 for bad usage, an unreadable file or an \
        overlay the puzzle does not have.",
    after_help = "Examples:\n  lights render examples/classic.lights -o classic.svg\n  \
        lights render examples/classic.lights --puzzle all-on -o all-on.png --cell 60\n  \
        lights render examples/six-states.lights -o why.svg   # unsolvable: its certificate\n  \
        lights render petersen.lights -o petersen.svg   # a `graph petersen` puzzle: nodes and edges\n  \
        lights render pack.lights --puzzle level-3 -o level3.svg --show quiet\n  \
        lights render examples/level-pack.lights --puzzle clock -o clock.svg --numbers always   # state numbers"
)]
pub(crate) struct Args {
    /// The `.lights` file (`-` for standard input)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The name to give standard input in messages
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<PathBuf>,
    /// The puzzle to draw (default: the first of the file)
    #[arg(long, value_name = "NAME")]
    pub puzzle: Option<String>,
    /// Where to write the picture; its extension picks the format (.svg or .png); `-` writes SVG to standard output
    #[arg(short = 'o', long = "output", value_name = "OUT.svg|OUT.png|-")]
    pub output: PathBuf,
    /// What to draw over the lights [default: solution when solvable, certificate when not]
    #[arg(long, value_enum, value_name = "WHAT")]
    pub show: Option<ShowArg>,
    /// Cell (or graph node) size in pixels, 1 to 200 [default: the board about 1000 px across, cells of at most 40 px]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=200))]
    pub cell: Option<u32>,
    /// Write the state numbers on the cells (14 px or more): `auto` with more than 2 states, `always` (0/1 too), `never`
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = NumbersArg::Auto)]
    pub numbers: NumbersArg,
    #[command(flatten)]
    pub minimum_budget: crate::budget::MinimumBudgetArg,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NumbersArg {
    /// With more than 2 states, on cells large enough to hold them
    Auto,
    /// Also with 2 states (0 and 1), on cells large enough to hold them
    Always,
    /// Never: the colours alone tell the states
    Never,
}

impl From<NumbersArg> for Numbers {
    fn from(n: NumbersArg) -> Numbers {
        match n {
            NumbersArg::Auto => Numbers::Auto,
            NumbersArg::Always => Numbers::Always,
            NumbersArg::Never => Numbers::Never,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowArg {
    /// Only the board (lights, goal, locked buttons)
    Lights,
    /// The minimum solution: the cells to press (how many times, with more than 2 states)
    Solution,
    /// The first quiet pattern: presses that change no light
    Quiet,
    /// Why an unsolvable puzzle is unsolvable: cell weights whose weighted total no press changes
    Certificate,
}

impl From<ShowArg> for Show {
    fn from(s: ShowArg) -> Show {
        match s {
            ShowArg::Lights => Show::Lights,
            ShowArg::Solution => Show::Solution,
            ShowArg::Quiet => Show::Quiet,
            ShowArg::Certificate => Show::Certificate,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

fn format_of(path: &Path) -> Option<Format> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "svg" => Some(Format::Svg),
        "png" => Some(Format::Png),
        _ => None,
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `"a", "b" (2 errors)`: the puzzles of a file, for error messages.
fn list_names(blocks: &[BlockAnalysis]) -> String {
    let names: Vec<String> = blocks
        .iter()
        .map(|p| {
            let name = quoted_name(p.name.as_deref());
            if p.kind == BlockKind::Sliding {
                format!("{name} (sliding)")
            } else if p.block.is_none() {
                let errors = p.diagnostics.iter().filter(|d| d.is_error()).count();
                format!("{name} ({})", plural(errors, "error", "errors"))
            } else {
                name
            }
        })
        .collect();
    names.join(", ")
}

fn human_size(bytes: usize) -> String {
    if bytes < 1000 {
        format!("{bytes} B")
    } else if bytes < 1_000_000 {
        format!("{:.1} kB", bytes as f64 / 1e3)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

pub(crate) fn run(args: Args) -> u8 {
    match render(&args) {
        Ok(()) => EXIT_OK,
        Err(code) => code,
    }
}

/// `run`, its early exits as `Err(exit code)` (their message printed).
fn render(args: &Args) -> Result<(), u8> {
    let to_stdout = files::is_stdin(&args.output);
    let out_shown = if to_stdout { "standard output".to_string() } else { files::shown_path(&args.output) };
    // `-o -` writes SVG to standard output.
    let format = if to_stdout { Some(Format::Svg) } else { format_of(&args.output) };
    let Some(format) = format else {
        eprintln!(
            "error: cannot tell which image format to write for `{out_shown}`: the output file must end in .svg or .png"
        );
        return Err(EXIT_USAGE);
    };
    let shown = files::shown(&args.file, args.stdin_filename.as_deref());
    // `--minimum-budget`, else the nearest lights.toml's (for the solution drawn).
    let config_of = if files::is_stdin(&args.file) { Path::new(&shown) } else { args.file.as_path() };
    let solve_options = args.minimum_budget.options_for(config_of).map_err(|e| {
        eprintln!("error: {}", escape_controls(&e));
        EXIT_USAGE
    })?;
    let src = files::read_input_reporting(&args.file).ok_or(EXIT_USAGE)?;
    let mut analysis = analyze(&src);
    let index = chosen_index(&analysis, args, &shown)?;
    // Only the puzzle drawn is solved.
    check_block_with(&mut analysis.blocks[index], &solve_options, &|| false);
    let blocks = &analysis.blocks;
    let chosen = &blocks[index];
    let name = quoted_name(chosen.name.as_deref());
    let errors = chosen.diagnostics.iter().filter(|d| d.is_error()).count();
    if chosen.kind == BlockKind::Sliding {
        eprintln!("error: {name} is a sliding-tile puzzle: `lights render` draws Lights Out puzzles");
        eprintln!("  the puzzles of `{shown}` are: {}", list_names(blocks));
        return Err(EXIT_USAGE);
    }
    let Some(model) = chosen.puzzle() else {
        eprintln!(
            "error: puzzle {name} has {} and cannot be drawn; run `lights check {shown}` to see them",
            plural(errors, "error", "errors")
        );
        eprintln!("  the puzzles of `{shown}` are: {}", list_names(blocks));
        return Err(EXIT_PUZZLE_ERROR);
    };
    let report = chosen.report.as_ref().and_then(BlockReport::as_lights);
    say_unsolved(chosen, args, &name, &shown)?;

    let options = Options { show: args.show.map(Show::from), cell: args.cell, numbers: args.numbers.into() };
    let mut pic = picture::svg(model, report, &options).map_err(|e| {
        eprintln!("error: cannot draw puzzle {name}: {e}");
        EXIT_USAGE
    })?;
    for note in &pic.notes {
        eprintln!("note: {}", escape_controls(note));
    }
    if args.numbers == NumbersArg::Always && !pic.numbers {
        eprintln!(
            "note: the state numbers are not written: cells of {} px are too small to hold them (they need {} px \
             or more; try --cell {})",
            pic.cell,
            picture::NUMBERS_MIN_CELL,
            picture::NUMBERS_MIN_CELL
        );
    }
    let (bytes, width, height) = encode(&mut pic, format, &name)?;
    let written = if to_stdout {
        use std::io::Write;
        std::io::stdout().lock().write_all(&bytes).map_err(|e| format!("cannot write to standard output: {e}"))
    } else {
        crate::safe_write::write_bytes(&args.output, &bytes)
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return Err(EXIT_USAGE);
    }
    let summary = format!(
        "wrote {out_shown}: {width}×{height} px, {}, puzzle {name} ({}) with {}",
        human_size(bytes.len()),
        board_summary(model, pic.cell),
        overlay_summary(&pic)
    );
    // The picture itself is on standard output: the summary goes to standard error.
    if to_stdout {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    Ok(())
}

/// A note when the puzzle drawn was not solved (an error when an overlay
/// was asked for) or has errors.
fn say_unsolved(chosen: &BlockAnalysis, args: &Args, name: &str, shown: &str) -> Result<(), u8> {
    let errors = chosen.diagnostics.iter().filter(|d| d.is_error()).count();
    if chosen.report.as_ref().and_then(BlockReport::as_lights).is_none() {
        let why = escape_controls(chosen.diagnostics.iter().find(|d| d.is_error()).map_or("", |d| d.message.as_str()));
        if args.show.is_some_and(|s| s != ShowArg::Lights) {
            eprintln!(
                "error: cannot draw puzzle {name} with an overlay: it was not solved ({why}); try `--show lights`"
            );
            return Err(EXIT_USAGE);
        }
        eprintln!("note: puzzle {name} was not solved ({why}); drawing the board only");
    } else if errors > 0 {
        eprintln!(
            "note: puzzle {name} has {} (run `lights check {shown}` to see them); drawing it anyway",
            plural(errors, "error", "errors")
        );
    }
    Ok(())
}

/// The index of the puzzle to draw: `--puzzle NAME`, else the first.
fn chosen_index(analysis: &FileAnalysis, args: &Args, shown: &str) -> Result<usize, u8> {
    if analysis.blocks.is_empty() {
        let errors = analysis.file_diagnostics.iter().filter(|d| d.is_error()).count();
        if errors > 0 {
            eprintln!(
                "error: `{shown}` has no puzzle to draw, and {}; run `lights check {shown}` to see them",
                plural(errors, "error", "errors")
            );
        } else {
            eprintln!("error: `{shown}` has no puzzle to draw");
        }
        return Err(EXIT_USAGE);
    }
    let Some(name) = &args.puzzle else { return Ok(0) };
    analysis.blocks.iter().position(|p| p.name.as_deref() == Some(name.as_str())).ok_or_else(|| {
        eprintln!(
            "error: `{shown}` has no puzzle named {}; its puzzles are: {}",
            quoted_name(Some(name)),
            list_names(&analysis.blocks)
        );
        EXIT_USAGE
    })
}

/// The picture's bytes in `format` (an SVG's are taken from `pic`), and
/// its size in pixels.
fn encode(pic: &mut picture::Picture, format: Format, name: &str) -> Result<(Vec<u8>, u32, u32), u8> {
    match format {
        Format::Svg => Ok((std::mem::take(&mut pic.svg).into_bytes(), pic.width, pic.height)),
        Format::Png => match picture::png(&pic.svg) {
            Ok(png) => {
                if !png.has_fonts {
                    eprintln!("warning: no fonts were found on this system, so the PNG has no text (the SVG has it)");
                }
                Ok((png.data, png.width, png.height))
            }
            Err(e) => {
                eprintln!("error: cannot draw puzzle {name} as PNG: {e}");
                Err(EXIT_USAGE)
            }
        },
    }
}

/// What the picture shows, for the summary line.
fn overlay_summary(pic: &picture::Picture) -> &'static str {
    match pic.show {
        Show::Lights => "the board",
        Show::Solution => "the minimum solution",
        Show::Quiet if pic.notes.is_empty() => "a quiet pattern",
        Show::Quiet => "the board (no quiet pattern)",
        Show::Certificate => "the certificate",
    }
}

/// The board drawn, for the summary line: its size and shape (or graph) and
/// the cell (node) size in pixels.
fn board_summary(model: &lights_compiler::Puzzle, cell: u32) -> String {
    match &model.shape {
        Shape::Graph(g) => format!(
            "{}, {}, {} px nodes",
            if g.kind == GraphKind::Custom { g.describe() } else { format!("graph {}", g.describe()) },
            lights_compiler::summary::count((0..model.cells()).filter(|&i| !model.is_hole(i)).count(), "node"),
            cell
        ),
        Shape::Hex => format!("{}×{} hex, {} px cells", model.rows, model.cols, cell),
        Shape::Square => format!("{}×{}, {} px cells", model.rows, model.cols, cell),
    }
}
