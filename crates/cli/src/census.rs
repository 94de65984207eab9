//! `lights census`: how many positions with exactly K lights on are solvable.

use std::ops::RangeInclusive;

use clap::{Args as ClapArgs, ValueEnum};
use lights_authoring::census::{self, Census, Method, Query};
use lights_authoring::generate::parse_graph;
use lights_authoring::table::{Family, Fraction};
use lights_compiler::graph::Graph;
use serde_json::json;

use lights_compiler::flags::{parse_bounded_range, parse_size, parse_states};

use crate::table::{Grid, Progress};

#[derive(ClapArgs)]
#[command(
    about = "Count the solvable positions with exactly K lights on",
    long_about = "Over all positions of a board with exactly K lights on (at the top state W−1; the others \
        off), count how many can be turned all off, and print the total, the solvable count and the exact \
        fraction.\n\n\
        Without --lock-dark every button may be pressed, and positions are classified by their invariants \
        (y with yᵀA ≡ 0: a position b is solvable exactly when y·b ≡ 0 for all of them), counted exactly \
        without solving any position, so large boards are fine.\n\n\
        With --lock-dark only the lit cells may be pressed (as in Gary Watson's Flip), the system changes \
        with the position, and each of the C(cells, K) positions is solved on its own: at most 10^8 \
        positions with 2 states (on boards up to 2048 cells), 2·10^6 otherwise. A progress bar shows \
        on a terminal.\n\n\
        --on takes K or an inclusive range A..B (one line per K, and a total); without it, every K from \
        0 to the number of cells.\n\n\
        --graph NAME counts positions on the nodes of a named graph instead of a board (petersen, \
        icosahedron, cycle:N, cube-surface:N, …), with the rule cross (σ+) or ring (σ).",
    after_help = "Examples:\n  \
        lights census --size 5x5 --on 20\n  \
        lights census --size 5x5 --on 20 --lock-dark\n  \
        lights census --size 5x5 --on 20 --lock-dark --rule flip\n  \
        lights census --size 4x4 --states 3 --topology torus       # every K from 0 to 16\n  \
        lights census --size 5x6 --grid hex --on 10                # hexagonal cells\n  \
        lights census --size 19x19 --on 100..110 --format json   # 2^16 classes, exact counts\n  \
        lights census --graph petersen --rule ring                 # the σ game, every K\n  \
        lights census --graph cube-surface:3 --on 10               # the Lights Out Cube"
)]
pub(crate) struct Args {
    /// Board size, RxC (e.g. 5x5)
    #[arg(long, value_name = "RxC", value_parser = parse_size, required_unless_present = "graph", conflicts_with = "graph")]
    size: Option<(usize, usize)>,
    /// The nodes of a named graph instead of a board: petersen, cube, icosahedron, …, or cycle:N, path:N, complete:N, cube-surface:N
    #[arg(long, value_name = "NAME[:N]", value_parser = crate::suggest::graph_with(parse_graph), hide_possible_values = true)]
    graph: Option<Graph>,
    /// Number of lights on: K, or A..B (inclusive) [default: every K]
    #[arg(long, value_name = "K", value_parser = parse_bounded_range)]
    on: Option<RangeInclusive<usize>>,
    /// Lock the dark cells: only lit cells may be pressed
    #[arg(long)]
    lock_dark: bool,
    /// square cells, or hexagons (every second row shifted right by half a cell)
    #[arg(long, value_enum, value_name = "SHAPE", default_value_t = Grid::Square, conflicts_with = "graph")]
    grid: Grid,
    /// cross, king, flip, merlin, ring, or a stencil such as '.1. / 111 / .1.' (rows separated by /, braces optional); hex grids and graphs take cross or ring
    #[arg(long, default_value = "cross", value_parser = crate::suggest::rule(), hide_possible_values = true)]
    rule: String,
    /// plane, cylinder, torus, mobius, klein or projective (hex grids: plane, cylinder or torus; not with --graph)
    #[arg(long, default_value = "plane", conflicts_with = "graph", value_parser = crate::suggest::topology(), hide_possible_values = true)]
    topology: String,
    /// Number of states W of each light (2 to 65536)
    #[arg(long, default_value_t = 2, value_name = "W", value_parser = parse_states)]
    states: u32,
    /// Output format
    #[arg(long, value_enum, default_value_t = CensusFormat::Text)]
    format: CensusFormat,
    /// How to count (auto picks the fastest; the others are for cross-checks)
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CensusFormat {
    /// Aligned text
    Text,
    /// JSON (counts as strings: they can be huge)
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MethodArg {
    /// MacWilliams for 2 states, syndromes otherwise, enumeration with --lock-dark
    Auto,
    /// Dynamic programme over the invariants' values (any W)
    Syndromes,
    /// MacWilliams identity over the invariants (2 states)
    Macwilliams,
    /// Solve each position (--lock-dark)
    Enumeration,
}

pub(crate) fn run(args: Args) -> u8 {
    let family = match Family::parse(&args.rule, &args.topology, args.states) {
        Ok(f) if args.grid == Grid::Hex => match f.on_hex() {
            Ok(f) => f,
            Err(e) => return usage(&format!("--grid hex: {e}")),
        },
        Ok(f) => f,
        Err(e) => return usage(&e),
    };
    let family = match args.graph {
        Some(graph) => match family.on_graph(graph) {
            Ok(f) => f,
            Err(e) => return usage(&format!("--graph: {e}")),
        },
        None => family,
    };
    // A graph is one row of nodes.
    let (rows, cols) = match (&family.graph, args.size) {
        (Some(g), _) => (1, g.nodes()),
        (None, Some(size)) => size,
        (None, None) => return usage("give the board's --size RxC, or a --graph"),
    };
    let cells = rows.saturating_mul(cols);
    let on = args.on.clone().unwrap_or(0..=cells);
    let query = Query { rows, cols, on, lock_dark: args.lock_dark };
    if let Err(e) = census::validate(&family, &query) {
        return usage(&e.to_string());
    }
    let method = match args.method {
        MethodArg::Auto => Method::Auto,
        MethodArg::Syndromes => Method::Syndromes,
        MethodArg::Macwilliams => Method::MacWilliams,
        MethodArg::Enumeration => Method::Enumeration,
    };
    let unit = if query.lock_dark { "positions" } else { "steps" };
    let progress = Progress::new(unit);
    let result = census::census_with(&family, &query, method, &|done, total| progress.update(done, total));
    progress.finish();
    let c = match result {
        Ok(c) => c,
        Err(e) => return usage(&e.to_string()),
    };
    let text = match args.format {
        CensusFormat::Text => text(&family, &query, &c),
        CensusFormat::Json => json_text(&family, &query, &c),
    };
    print!("{text}");
    crate::EXIT_OK
}

fn usage(message: &str) -> u8 {
    eprintln!("error: {}", crate::excerpt::escape_controls(message));
    crate::EXIT_USAGE
}

fn on_text(query: &Query) -> String {
    let (a, b) = (*query.on.start(), *query.on.end());
    let n = if a == b { a.to_string() } else { format!("{a}..{b}") };
    let lights = if a == b && a == 1 { "light" } else { "lights" };
    format!("{n} {lights} on")
}

fn method_text(query: &Query, c: &Census) -> String {
    match (&c.classes, query.lock_dark) {
        (_, true) => "each position solved with its dark cells locked".to_string(),
        (Some(classes), false) if classes.factors.is_empty() => {
            format!("{}: no invariants, every position is solvable", c.method.name())
        }
        (Some(classes), false) => format!(
            "{} over {} independent invariants ({} classes of positions)",
            c.method.name(),
            classes.factors.len(),
            classes.size()
        ),
        (None, false) => c.method.name().to_string(),
    }
}

/// `2221/8855 (25.08%)`; a fraction too long to read (more than 60
/// characters) is only approximated here (JSON has it exactly).
fn fraction_text(f: &Fraction) -> String {
    let exact = f.to_string();
    if exact.chars().count() > 60 {
        format!("≈ {} (exact in --format json)", percent(f))
    } else {
        format!("{exact} ({})", percent(f))
    }
}

/// `25.08%`; tiny fractions in scientific notation (`1.53e-3%`).
fn percent(f: &Fraction) -> String {
    let p = 100.0 * f.to_f64();
    if p == 0.0 || p >= 0.01 {
        format!("{p:.2}%")
    } else {
        format!("{p:.2e}%")
    }
}

fn text(family: &Family, query: &Query, c: &Census) -> String {
    let locked = if query.lock_dark { " · dark cells locked" } else { "" };
    // A graph's family says its name and nodes.
    let board =
        if family.graph.is_some() { String::new() } else { format!("{}×{} board · ", query.rows, query.cols) };
    let mut out = format!("{board}{} · {}{locked}\n", family.describe(), on_text(query));
    if let [row] = c.rows.as_slice() {
        let f = row.fraction();
        out.push_str(&format!("positions  {}\n", row.positions));
        out.push_str(&format!("solvable   {}\n", row.solvable));
        out.push_str(&format!("fraction   {}\n", fraction_text(&f)));
        out.push_str(&format!("method     {}\n", method_text(query, c)));
        return out;
    }
    out.push_str(&format!("method: {}\n\n", method_text(query, c)));
    let mut lines = vec![vec!["on".to_string(), "positions".into(), "solvable".into(), "fraction".into()]];
    for row in &c.rows {
        let f = row.fraction();
        lines.push(vec![row.on.to_string(), row.positions.to_string(), row.solvable.to_string(), fraction_text(&f)]);
    }
    let (positions, solvable, f) = c.totals();
    lines.push(vec!["total".into(), positions.to_string(), solvable.to_string(), fraction_text(&f)]);
    let widths: Vec<usize> = (0..4).map(|j| lines.iter().map(|l| l[j].chars().count()).max().unwrap_or(0)).collect();
    for l in &lines {
        let cells: Vec<String> = l
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(j, (v, &w))| if j == 3 { v.clone() } else { format!("{v:>w$}") })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn json_text(family: &Family, query: &Query, c: &Census) -> String {
    let counts: Vec<serde_json::Value> = c
        .rows
        .iter()
        .map(|r| {
            json!({
                "on": r.on,
                "positions": r.positions.to_string(),
                "solvable": r.solvable.to_string(),
                "fraction": r.fraction().to_string(),
            })
        })
        .collect();
    let doc = json!({
        "rows": query.rows,
        "cols": query.cols,
        "grid": family.grid_name(),
        "graph": family.graph.as_ref().map(|g| g.describe()),
        "rule": family.rule_text(),
        "topology": family.topology.name(),
        "states": family.states,
        "lock_dark": query.lock_dark,
        "method": c.method.name(),
        "classes": c.classes.as_ref().map(|g| g.size().to_string()),
        "counts": counts,
    });
    format!("{}\n", crate::output::json_string(&doc))
}
