//! `lights generate`: random solvable puzzles, written as a `.lights` file.

use std::io::IsTerminal;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use clap::Args as ClapArgs;
use lights_authoring::generate::{self, Options};
use lights_compiler::flags::{parse_range, parse_rule, parse_size};
use lights_compiler::model::{Graph, Shape};

use crate::board_flags::BoardFlags;
use crate::{EXIT_OK, EXIT_USAGE};

#[derive(ClapArgs)]
#[command(
    about = "Generate random solvable puzzles as a .lights file",
    long_about = "Generate random solvable puzzles as a .lights file, each with `expect` lines that \
        `lights check` verifies (`expect unique` or `expect solutions N`, and `expect presses N` when the \
        minimum is proven).\n\n\
        Positions are drawn uniformly among the solvable ones: a random press vector is applied to the \
        dark board, so every position that can be solved is equally likely (all-off positions and repeats \
        are skipped). --unique keeps only puzzles with exactly one solution: this depends only on the board \
        (size, rule, topology, states, locked cells), so on a board with quiet patterns it needs random \
        locks (--locked-fraction). --presses MIN..MAX keeps positions whose proven minimum number of presses \
        lies in the range (inclusive), by drawing again until one fits. --minimum-budget (default about 10ms) is the \
        work the search for each position's minimum may do, as in `lights solve`: a larger one proves more \
        minima; without the flag, the `minimum-budget` of the lights.toml the file goes under applies, as \
        `lights check` will apply it there (checked with a smaller budget, the claims may be L0206); 0 proves \
        none but on boards with one solution.\n\n\
        --grid hex makes boards of hexagons (`grid hex`: every second row shifted right by half a cell; rules \
        cross and ring; topologies plane, cylinder, and torus with an even number of rows). --graph NAME plays \
        on the nodes of a named graph instead of a board (`graph NAME`, lights and locks as `at` lists of \
        nodes; rules cross and ring; no --size or --topology): tetrahedron, cube, octahedron, dodecahedron, \
        icosahedron, petersen, or a family with its size written NAME:N (`NAME N` in quotes works too): \
        cycle:N, path:N, complete:N, cube-surface:N.\n\n\
        The same options and --seed give the same file, byte for byte, on every machine; without --seed a \
        random seed is used and printed on standard error. The file's first lines record the command that \
        makes it again.",
    after_help = "Examples:\n  \
        lights generate --size 5x5 --count 10 --name level -o pack.lights\n  \
        lights generate --size 5x5 --locked-fraction 0.2 --unique --presses 8..12 --seed 7\n  \
        lights generate --size 6x6 --states 3 --topology torus --rule king --count 3\n  \
        lights generate --size 7x7 --rule '.1. / 111 / .1.'   # a stencil, rows separated by /\n  \
        lights generate --size 6x6 --grid hex --count 5\n  \
        lights generate --graph petersen --rule ring -o petersen.lights\n  \
        lights generate --graph cube-surface:3 --unique --locked-fraction 0.2"
)]
pub(crate) struct Args {
    /// Board size, ROWSxCOLUMNS (not with --graph)
    #[arg(long, value_name = "RxC", value_parser = parse_size, required_unless_present = "graph", conflicts_with = "graph")]
    size: Option<(usize, usize)>,
    /// Play on the nodes of a named graph instead of a board: petersen, cube, icosahedron, …, or cycle:N, path:N, complete:N, cube-surface:N
    #[arg(long, value_name = "NAME[:N]", value_parser = crate::suggest::graph_with(generate::parse_graph), hide_possible_values = true)]
    graph: Option<Graph>,
    #[command(flatten)]
    board: BoardFlags,
    /// Lock each cell with this probability (0 ≤ F < 1)
    #[arg(long, value_name = "F", default_value_t = 0.0)]
    locked_fraction: f64,
    /// Only puzzles with exactly one solution
    #[arg(long)]
    unique: bool,
    /// Only puzzles whose minimum number of presses is in MIN..MAX (inclusive; also N, MIN.., ..MAX)
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_range)]
    presses: Option<RangeInclusive<u64>>,
    /// How many puzzles
    #[arg(long, value_name = "K", default_value_t = 1)]
    count: usize,
    /// Random seed (a random one, printed on standard error, when absent)
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Name prefix: puzzles are named PREFIX-1, PREFIX-2, …
    #[arg(long, value_name = "PREFIX", default_value = "generated")]
    name: String,
    /// Write the file here (atomically) instead of standard output
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    minimum_budget: crate::budget::MinimumBudgetArg,
}

pub(crate) fn run(args: Args) -> u8 {
    let rule = match parse_rule(&args.board.rule, args.board.states) {
        Ok(rule) => rule,
        Err(e) => {
            eprintln!("error: --rule: {}", crate::excerpt::escape_controls(&e.to_string()));
            return EXIT_USAGE;
        }
    };
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = generate::random_seed();
            eprintln!("seed: {seed} (give --seed {seed} to make the same puzzles again)");
            seed
        }
    };
    let (shape, (rows, cols)) = match (args.graph, args.size) {
        (Some(g), _) => {
            let nodes = g.nodes();
            (Shape::Graph(g), (1, nodes))
        }
        (None, Some(size)) => (if args.board.hex() { Shape::Hex } else { Shape::Square }, size),
        (None, None) => {
            eprintln!("error: give the board's --size RxC, or a --graph");
            return EXIT_USAGE;
        }
    };
    // The flag, else the minimum-budget of the lights.toml the file goes
    // under (the current folder's for standard output), so that `lights
    // check` proves the same claims there.
    let under = args.output.clone().unwrap_or_else(|| PathBuf::from("-"));
    let minimum_budget = match args.minimum_budget.budget_for(&under) {
        Ok(budget) => budget,
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e));
            return EXIT_USAGE;
        }
    };
    let opts = Options {
        shape,
        rows,
        cols,
        rule,
        topology: args.board.topology,
        states: args.board.states,
        locked_fraction: args.locked_fraction,
        unique: args.unique,
        presses: args.presses,
        count: args.count,
        seed,
        name: args.name,
        minimum_budget,
    };
    let bar = (std::io::stderr().is_terminal() && opts.count > 1).then(|| {
        let bar = indicatif::ProgressBar::new(opts.count as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template("generating {bar:30} {pos}/{len} puzzles") {
            bar.set_style(style);
        }
        bar
    });
    let result = generate::generate(&opts, &mut |done| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let generated = match result {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e.to_string()));
            return EXIT_USAGE;
        }
    };
    match &args.output {
        Some(path) => {
            if let Err(e) = crate::safe_write::write_text(path, &generated.text) {
                eprintln!("error: {}", crate::excerpt::escape_controls(&e.clone()));
                return EXIT_USAGE;
            }
            eprintln!(
                "wrote {} to {}",
                lights_compiler::summary::count(generated.puzzles.len(), "puzzle"),
                crate::files::shown_path(path)
            );
        }
        None => print!("{}", generated.text),
    }
    EXIT_OK
}
