//! `lights import`: puzzles written in other formats, as `.lights` files.

use std::path::PathBuf;

use clap::{Args as ClapArgs, Subcommand};
use lights_authoring::generate::check_name;
use lights_authoring::import;

use crate::files::{is_stdin, read_stdin};
use crate::{files, EXIT_USAGE};

#[derive(ClapArgs)]
#[command(
    about = "Convert puzzles from other formats into .lights files",
    long_about = "Convert puzzles written in other formats into .lights files. The formats are \
        subcommands; see `lights import coords --help`, `lights import flip --help` and \
        `lights import json --help`. The way back is `lights export`.",
    after_help = "Examples:\n  lights import coords in.txt | lights check --answer yes-no -\n  \
        lights import flip '3x3:d074191345d1644c17058,a88' -o flip.lights\n  \
        lights export json examples/level-pack.lights | lights import json -"
)]
pub(crate) struct Args {
    #[command(subcommand)]
    format: Format,
}

#[derive(Subcommand)]
enum Format {
    Coords(CoordsArgs),
    Flip(FlipArgs),
    Json(JsonArgs),
}

#[derive(ClapArgs)]
#[command(
    about = "Import a JSON level pack (schema lights-pack/1, as `lights export json` writes it)",
    long_about = "Import a JSON level pack, schema `lights-pack/1` (docs/authoring/interchange.md), as one .lights \
        file with a block per puzzle, in canonical form. Every field is checked: an unknown `schema` version, \
        a size beyond the 10,000,000,000 cells a board may have or the 1,000,000 of a pack, a `lights` or `goal` \
        array whose length is not rows × cols, a value not below `states`, an unknown rule, topology or shape, \
        an edge or cell out of range, or a named graph whose edges are not its own is an error naming the \
        puzzle. The derived fields (`press_patterns`, `analysis`) are ignored: `lights check` recomputes them \
        (and checks the `expect` claims, which are kept).",
    after_help = "Examples:\n  \
        lights import json pack.json -o imported.lights\n  \
        lights export json examples/graphs.lights | lights import json - | lights check -"
)]
struct JsonArgs {
    /// The JSON file (`-` or nothing for standard input)
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Write the .lights file here (atomically) instead of standard output
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

#[derive(ClapArgs)]
#[command(
    about = "Import a game ID of Flip, from Simon Tatham's Portable Puzzle Collection",
    long_about = "Import a Flip game ID (Game > Specific… in Flip): `W[xH][c|r]:MATRIX,GRID`, W columns by H rows \
        (H = W when absent). MATRIX is (W·H)² bits in hex, bit i·W·H + j set when pressing cell i flips cell j \
        (cells in reading order); GRID is W·H bits, set where a square is wrong. Flip is won when every square \
        is right, so the puzzle is `lights` = GRID, `goal off`, `states 2`. `c` (crosses) and `r` (random) only \
        say how Flip invents new games: the game is all in MATRIX.\n\n\
        The rule is found from the matrix, simplest first: a named rule on a surface (Crosses games are `rule \
        cross` on the plane), a stencil, a hex board, or else a graph. A symmetric matrix is σ+ or σ on the cells \
        (node k is square k in reading order). Most Random games are directed (pressing A flips B but pressing B \
        does not flip A), which no rule says; they are written exactly as a σ graph of lights and buttons: nodes \
        1…N are the squares' lights (locked), node N + k the button of square k, joined to the lights it flips. \
        The solutions and the minimum are Flip's; `lights export flip --width W` gives the ID back.\n\n\
        An ID of more than 4096 cells (64×64) is refused before anything is read from it. See \
        docs/authoring/interchange.md.",
    after_help = "Examples:\n  \
        lights import flip '3x3:d074191345d1644c17058,a88'   # the 3×3 Crosses game with corners and centre wrong\n  \
        lights import flip '3x3:d074191345d1644c17058,a88' --name 'flip 1' -o flip1.lights\n  \
        lights export flip flip1.lights   # and back\n  \
        lights import flip '3x3:d8740b1241d1644c170d8,c50' -o random.lights   # a Random game: lights and buttons\n  \
        lights export flip random.lights --width 3   # and back, 3 squares to a row\n  \
        printf '3x3:d074191345d1644c17058,a88' | lights import flip - | lights solve -"
)]
struct FlipArgs {
    /// The game ID (quote it for the shell), or `-` to read it from standard input
    #[arg(value_name = "GAME-ID", allow_hyphen_values = true)]
    id: String,
    /// Write the .lights file here (atomically) instead of standard output
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// The puzzle's name (default: `flip WxH`)
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
}

#[derive(ClapArgs)]
#[command(
    about = "Import a coordinate list (a square torus and its lit cells), as in programming exercises",
    long_about = "Import the coordinate-list format of programming exercises about Lights Out on a torus:\n\n\
        \x20 n        the side of a square board on a torus (n ≥ 1)\n\
        \x20 k        how many lights are on (0 ≤ k ≤ n²)\n\
        \x20 x y      k lines, one lit cell each, 0-based\n\n\
        x is the row and y the column (`0 1` is the .lights cell 1,2). For the cross rule on a square torus \
        this choice does not change the answer: transposing the board is a symmetry of the rule, so a \
        position and its transpose are both solvable or both not, with as many solutions.\n\n\
        The puzzle is written with `size nxn`, `topology torus`, and the lights as a grid when n ≤ 32, as a \
        sparse `at` list otherwise (`lights off` when k = 0). Malformed input is an error naming its line: \
        a missing or extra line, something that is not a whole number, a coordinate outside 0…n−1, or a \
        cell listed twice (an error, not a double toggle).",
    after_help = "Examples:\n  \
        lights import coords in.txt -o in.lights\n  \
        lights import coords in.txt | lights check --answer yes-no -\n  \
        printf '2\\n1\\n0 0\\n' | lights import coords --name tiny"
)]
struct CoordsArgs {
    /// The coordinate list (`-` or nothing for standard input)
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Write the .lights file here (atomically) instead of standard output
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// The puzzle's name (default: the input's file name without extension, or `imported`)
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
}

pub(crate) fn run(args: Args) -> u8 {
    match args.format {
        Format::Coords(a) => coords(a),
        Format::Flip(a) => flip(a),
        Format::Json(a) => json(a),
    }
}

fn json(args: JsonArgs) -> u8 {
    let Some((shown, text)) = files::read_named(args.file.as_deref(), "standard input") else { return EXIT_USAGE };
    match lights_authoring::pack_json::import_pack(&text, &shown) {
        Ok(lights) => write_out(args.output.as_ref(), &lights),
        Err(e) => {
            eprintln!("error: {shown}: {}", crate::excerpt::escape_controls(&e.to_string()));
            EXIT_USAGE
        }
    }
}

fn flip(args: FlipArgs) -> u8 {
    let id = if args.id == "-" {
        match read_stdin() {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: {}", crate::excerpt::escape_controls(&e));
                return EXIT_USAGE;
            }
        }
    } else {
        args.id
    };
    let name = args.name.unwrap_or_else(|| {
        let params = id.trim().split(':').next().unwrap_or("").trim_end_matches(['c', 'r']);
        let params: String = params.chars().filter(char::is_ascii_alphanumeric).take(20).collect();
        if params.is_empty() {
            "flip".to_string()
        } else {
            format!("flip {params}")
        }
    });
    if let Err(e) = check_name(&name) {
        eprintln!("error: {}", crate::excerpt::escape_controls(&e.to_string()));
        return EXIT_USAGE;
    }
    match lights_authoring::flip::import_flip(&id, &name) {
        Ok(text) => write_out(args.output.as_ref(), &text),
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e.to_string()));
            EXIT_USAGE
        }
    }
}

/// The .lights text to `output` (atomically) or standard output.
pub(crate) fn write_out(output: Option<&PathBuf>, text: &str) -> u8 {
    crate::output::emit_to(output.map(PathBuf::as_path), |out| out.write_all(text.as_bytes()))
}

fn coords(args: CoordsArgs) -> u8 {
    let file = args.file.filter(|f| !is_stdin(f));
    let Some((shown, text)) = files::read_named(file.as_deref(), "standard input") else { return EXIT_USAGE };
    let name = args.name.unwrap_or_else(|| {
        file.as_ref()
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| check_name(s).is_ok())
            .unwrap_or_else(|| "imported".to_string())
    });
    if let Err(e) = check_name(&name) {
        eprintln!("error: {}", crate::excerpt::escape_controls(&e.to_string()));
        return EXIT_USAGE;
    }
    let lights = match import::import_coords(&text, &name, &shown) {
        Ok(lights) => lights,
        Err(e) => {
            eprintln!("error: {shown}: {}", crate::excerpt::escape_controls(&e.to_string()));
            return EXIT_USAGE;
        }
    };
    write_out(args.output.as_ref(), &lights)
}
