//! `lights table`: the All Lights answer for every board size in a range.

use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::path::PathBuf;

use clap::{Args as ClapArgs, ValueEnum};
use lights_authoring::shard::{self, parse_spec, BigUint, Origin, Spec};
use lights_authoring::table::{self, Entry, Family, Fraction, GraphEntry, GraphTable, GroupShape, Table};
use lights_compiler::flags::parse_bounded_range;
use serde_json::{json, Value};

use crate::board_flags::BoardFlags;
use crate::progress::Progress;

#[derive(ClapArgs)]
#[command(
    about = "Tabulate All Lights solutions (or quiet patterns, or solvable fractions) over board sizes",
    long_about = "For every board size R×C in the given ranges, solve the All Lights puzzle (every light \
        on → every light off, nothing locked) for one rule, topology and number of states, and print a \
        grid with a row per R and a column per C.\n\n\
        --show solutions: the exact number of solutions, 0 when it cannot be solved.\n\
        --show dimension: the quiet patterns (presses that change nothing) as a group: a plain number k \
        means (Z/W)^k, W^k patterns (always the case for prime W); for composite W, when the group is not \
        of that form, its invariant factors in brackets: [2×4] means Z/2 ⊕ Z/4 (8 patterns).\n\
        --show fraction: the fraction of all W^(R·C) positions that can be turned off, exactly \
        (|image of A| / W^cells, which is 1 / number of quiet patterns).\n\n\
        Ranges are inclusive: 1..20 is 1 to 20; a single number is a one-value range; --cols defaults to \
        the --rows range. Boards are solved exactly and in parallel; a progress bar shows on a terminal.\n\n\
        --grid hex tabulates boards of hexagons (`grid hex`: every second row shifted right by half a cell) \
        with the rule cross or ring on a plane, cylinder or torus; a hex torus needs an even number of rows, \
        so only the even row counts of the range are listed.\n\n\
        --graph FAMILY --sizes RANGE tabulates graphs instead of boards: All Lights on the nodes of \
        `cycle N`, `path N`, `complete N` or `cube-surface N` (the surface of an N×N×N cube) for every N in \
        the range, with the rule cross (σ+: a press changes the node and its neighbours) or ring (σ: only \
        the neighbours). One line per N.",
    after_help = "Examples:\n  \
        lights table --rows 1..20                        # the classic All Lights table\n  \
        lights table --rows 1..10 --cols 1..30 --show dimension\n  \
        lights table --rows 2..8 --states 6 --show dimension --format markdown\n  \
        lights table --rows 1..12 --rule king --topology torus --show fraction --format csv\n  \
        lights table --rows 5 --cols 1..50 --rule '{ .1. / 111 / .1. }' --format json\n  \
        lights table --rows 1..12 --grid hex --show dimension\n  \
        lights table --rows 2..16 --grid hex --topology torus --rule ring   # even row counts only\n  \
        lights table --graph cycle --sizes 3..30 --show dimension\n  \
        lights table --graph cube-surface --sizes 1..8 --rule ring --states 3\n\n\
        Beyond one machine: shard K of N solves the boards numbered i with i mod N = K−1 and prints\n\
        one JSON line per board; --merge puts the shards together, in any order, into exactly what\n\
        the unsharded command prints (any --format, any --show):\n  \
        lights table --rows 1..30 --shard 1/2 --format jsonl > t1.jsonl\n  \
        lights table --rows 1..30 --shard 2/2 --format jsonl > t2.jsonl\n  \
        lights table --merge t2.jsonl t1.jsonl --show dimension --format csv\n  \
        parallel lights table --rows 1..200 --shard {}/8 --format jsonl '>' t{}.jsonl ::: 1 2 3 4 5 6 7 8\n  \
        lights table --rows 1..30 --jobs 2                  # two threads (default: every core)"
)]
pub(crate) struct Args {
    /// Numbers of rows: N, or A..B (inclusive)
    #[arg(long, value_name = "RANGE", value_parser = parse_bounded_range, required_unless_present_any = ["graph", "merge"])]
    rows: Option<RangeInclusive<usize>>,
    /// Numbers of columns: N, or A..B (inclusive) [default: the --rows range]
    #[arg(long, value_name = "RANGE", value_parser = parse_bounded_range, conflicts_with = "graph")]
    cols: Option<RangeInclusive<usize>>,
    /// Graphs instead of boards: cycle, path, complete or cube-surface, one line per size N (with --sizes)
    #[arg(long, value_name = "FAMILY", conflicts_with = "rows", requires = "sizes", value_parser = crate::suggest::graph_family(), hide_possible_values = true)]
    graph: Option<String>,
    /// The sizes N of the --graph family: N, or A..B (inclusive)
    #[arg(long, value_name = "RANGE", value_parser = parse_bounded_range, requires = "graph")]
    sizes: Option<RangeInclusive<usize>>,
    #[command(flatten)]
    board: BoardFlags,
    /// What each entry shows
    #[arg(long, value_enum, default_value_t = Show::Solutions)]
    show: Show,
    /// Output format (jsonl: one JSON line per board, for --shard and --merge)
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    format: TableFormat,
    /// Solve only shard K of N (1 ≤ K ≤ N): the boards numbered i with i mod N = K−1, as JSON lines (with --format jsonl) to give to --merge
    #[arg(long, value_name = "K/N", value_parser = parse_spec)]
    shard: Option<Spec>,
    /// Print the table from the JSON lines of all its shards (files, or - for standard input), in any order; the board sizes, rule, topology and states are read from them
    #[arg(long, value_name = "SHARD.jsonl", num_args = 1.., conflicts_with_all = ["rows", "cols", "grid", "graph", "sizes", "rule", "topology", "states", "shard"])]
    merge: Option<Vec<PathBuf>>,
    /// Solve with N threads [default: every core]; the output is the same for every N
    #[arg(long, value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,
}

/// `--jobs N`: 1 to 4096 threads.
pub(crate) fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        Ok(_) => Err("the number of threads must be 1 to 4096".into()),
        Err(_) => Err(format!("`{}` is not a number of threads (write e.g. --jobs 4)", text.trim())),
    }
}

/// Run `work` on `jobs` threads (rayon's pool for the whole computation),
/// or on rayon's global pool (every core) when not given.
pub(crate) fn with_jobs<T: Send>(jobs: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    match jobs {
        None => Ok(work()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| format!("cannot start {n} threads: {e}"))?;
            Ok(pool.install(work))
        }
    }
}

/// The text of every file given to `--merge` (`-`: standard input), with
/// the names messages give them.
pub(crate) fn read_shards(paths: &[PathBuf]) -> Result<Vec<(String, String)>, String> {
    let mut stdin_read = false;
    let mut seen = std::collections::HashSet::new();
    paths
        .iter()
        .map(|p| {
            if !seen.insert(p) && !crate::files::is_stdin(p) {
                return Err(format!("`{}` is given twice to --merge", crate::files::shown_path(p)));
            }
            if crate::files::is_stdin(p) {
                if std::mem::replace(&mut stdin_read, true) {
                    return Err("--merge takes standard input (-) only once".to_string());
                }
                Ok(("<stdin>".to_string(), crate::files::read_stdin()?))
            } else {
                Ok((crate::files::shown_path(p), crate::files::read(p)?))
            }
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Show {
    /// Number of solutions of All Lights (0: not solvable)
    Solutions,
    /// Quiet patterns: k for (Z/W)^k, else invariant factors like [2×4]
    Dimension,
    /// Fraction of all positions that are solvable, like 1/4
    Fraction,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TableFormat {
    /// Aligned columns for the terminal
    Table,
    /// A Markdown table
    Markdown,
    /// Comma-separated values, one line per row count
    Csv,
    /// Every answer of every board, as JSON
    Json,
    /// One JSON line per board (a shard's output, for --merge)
    Jsonl,
}

pub(crate) fn run(args: Args) -> u8 {
    if let Some(paths) = &args.merge {
        if args.format == TableFormat::Jsonl {
            return usage("--merge prints the table: choose --format table, markdown, csv or json");
        }
        return match read_shards(paths).and_then(|sources| merge(&sources)) {
            Ok(Merged::Boards(t)) => print_table(
                args.format,
                || caption(&t, args.show),
                || cells(&t, args.show),
                || json_text(&t, args.show),
            ),
            Ok(Merged::Graphs(t)) => print_table(
                args.format,
                || graph_caption(&t, args.show),
                || graph_cells(&t, args.show),
                || graph_json(&t, args.show),
            ),
            Err(e) => usage(&e),
        };
    }
    if args.shard.is_some() && args.format != TableFormat::Jsonl {
        return usage("--shard writes one JSON line per board, for --merge: add --format jsonl");
    }
    let family = match Family::parse(&args.board.rule, args.board.topology.name(), args.board.states) {
        Ok(f) if args.board.hex() => match f.on_hex() {
            Ok(f) => f,
            Err(e) => return usage(&format!("--grid hex: {e}")),
        },
        Ok(f) => f,
        Err(e) => return usage(&e.to_string()),
    };
    let jobs = args.jobs;
    match with_jobs(jobs, move || solve_and_print(args, family)) {
        Ok(code) => code,
        Err(e) => usage(&e),
    }
}

fn solve_and_print(args: Args, family: Family) -> u8 {
    let shard = args.shard.unwrap_or(Spec::WHOLE);
    if let (Some(graph), Some(sizes)) = (&args.graph, &args.sizes) {
        if args.format == TableFormat::Jsonl {
            return graph_lines(&family, graph, sizes, shard);
        }
        return run_graphs(&family, graph, sizes, args.show, args.format);
    }
    let Some(rows) = args.rows.clone() else {
        return usage("give the board sizes with --rows (and --cols), or a --graph family with --sizes");
    };
    let cols = args.cols.clone().unwrap_or_else(|| rows.clone());
    if let Err(e) = table::validate(&family, &rows, &cols) {
        return usage(&e.to_string());
    }
    if args.format == TableFormat::Jsonl {
        return board_lines(&family, &rows, &cols, shard);
    }
    let mut progress = Progress::new("boards");
    let result = table::table(&family, rows, cols, &|done, total| progress.update(done as u64, total as u64));
    progress.finish();
    let t = match result {
        Ok(t) => t,
        Err(e) => return usage(&e.to_string()),
    };
    print_table(args.format, || caption(&t, args.show), || cells(&t, args.show), || json_text(&t, args.show))
}

/// The parameters of a board table, as its shard lines carry them.
fn board_run(family: &Family, rows: &RangeInclusive<usize>, cols: &RangeInclusive<usize>) -> Value {
    json!({
        "rows": [rows.start(), rows.end()],
        "cols": [cols.start(), cols.end()],
        "grid": family.grid_name(),
        "rule": family.rule_text(),
        "topology": family.topology.name(),
        "states": family.states,
    })
}

/// The parameters of a graph table.
fn graph_run(family: &Family, graph: &str, sizes: &RangeInclusive<usize>) -> Value {
    json!({
        "graph": graph,
        "sizes": [sizes.start(), sizes.end()],
        "rule": family.rule_text(),
        "states": family.states,
    })
}

/// What a shard line says of a board's answer.
fn entry_value(e: &Entry) -> Value {
    json!({ "solvable": e.solvable, "solutions": e.solutions.to_string(), "kernel_factors": e.kernel.factors })
}

/// `--format jsonl`: the boards of shard K/N, one line each.
fn board_lines(family: &Family, rows: &RangeInclusive<usize>, cols: &RangeInclusive<usize>, spec: Spec) -> u8 {
    let mut progress = Progress::new("boards");
    let result = board_shard(family, rows, cols, spec, &|done, total| progress.update(done as u64, total as u64));
    progress.finish();
    match result {
        Ok(text) => {
            print!("{text}");
            crate::EXIT_OK
        }
        Err(e) => usage(&e),
    }
}

/// The lines of shard `spec` of a board table (its ranges checked).
fn board_shard(
    family: &Family,
    rows: &RangeInclusive<usize>,
    cols: &RangeInclusive<usize>,
    spec: Spec,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<String, String> {
    let keys = table::boards_to_solve(family, rows, cols);
    let mine = spec.entries(keys.len());
    let wanted: Vec<(usize, usize)> = mine.iter().map(|&i| keys[i]).collect();
    let entries = table::solve_boards(family, &wanted, progress).map_err(|e| e.to_string())?;
    let run = board_run(family, rows, cols);
    Ok(mine
        .iter()
        .zip(&wanted)
        .zip(&entries)
        .map(|((&i, &(r, c)), e)| {
            shard::line("table", &run, spec, keys.len(), i, json!({ "rows": r, "cols": c }), entry_value(e))
        })
        .collect())
}

/// `--graph --format jsonl`: the sizes of shard K/N, one line each.
fn graph_lines(family: &Family, graph: &str, sizes: &RangeInclusive<usize>, spec: Spec) -> u8 {
    if let Err(e) = table::validate_graphs(family, graph, sizes) {
        return usage(&e.to_string());
    }
    let all: Vec<usize> = sizes.clone().collect();
    let mine = spec.entries(all.len());
    let wanted: Vec<usize> = mine.iter().map(|&i| all[i]).collect();
    let mut progress = Progress::new("graphs");
    let result =
        table::graph_entries(family, graph, &wanted, &|done, total| progress.update(done as u64, total as u64));
    progress.finish();
    let entries = match result {
        Ok(e) => e,
        Err(e) => return usage(&e.to_string()),
    };
    let run = graph_run(family, graph, sizes);
    let text: String = mine
        .iter()
        .zip(&entries)
        .map(|(&i, g)| {
            let mut value = entry_value(&g.answer);
            if let Some(fields) = value.as_object_mut() {
                fields.insert("nodes".into(), json!(g.nodes));
                fields.insert("edges".into(), json!(g.edges));
            }
            shard::line("table", &run, spec, all.len(), i, json!({ "size": g.size }), value)
        })
        .collect();
    print!("{text}");
    crate::EXIT_OK
}

/// A table read back from its shards.
enum Merged {
    Boards(Table),
    Graphs(GraphTable),
}

/// `--merge`: the table the shards make up, checked whole.
fn merge(sources: &[(String, String)]) -> Result<Merged, String> {
    let describe = |key: &Value| match (key.get("rows"), key.get("cols"), key.get("size")) {
        (Some(r), Some(c), _) => format!("the {r}×{c} board"),
        (_, _, Some(n)) => format!("size {n}"),
        _ => key.to_string(),
    };
    let merged = shard::collect("table", sources, &describe).map_err(|e| e.to_string())?;
    let run = &merged.run;
    let first = merged.entries.first().map(|(_, _, o)| o.to_string()).unwrap_or_default();
    let bad_run = |what: &str| format!("{first}: the run's `{what}` is not what `lights table` writes");
    let text = |name: &str| run.get(name).and_then(Value::as_str).ok_or_else(|| bad_run(name));
    let range = |name: &str| -> Result<RangeInclusive<usize>, String> {
        match run.get(name).and_then(Value::as_array).map(Vec::as_slice) {
            Some([a, b]) => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => Ok(a as usize..=b as usize),
                _ => Err(bad_run(name)),
            },
            _ => Err(bad_run(name)),
        }
    };
    let states = run
        .get("states")
        .and_then(Value::as_u64)
        .and_then(|w| u32::try_from(w).ok())
        .ok_or_else(|| bad_run("states"))?;
    let in_run = |e: String| format!("the shards' run ({first}): {e}");
    if run.get("graph").is_some() {
        let family = Family::parse(text("rule")?, "plane", states).map_err(|e| in_run(e.to_string()))?;
        let (name, sizes) = (text("graph")?, range("sizes")?);
        table::validate_graphs(&family, name, &sizes).map_err(|e| in_run(e.to_string()))?;
        let all: Vec<usize> = sizes.collect();
        check_count(merged.entries.len(), all.len(), &first)?;
        let mut entries = Vec::new();
        for ((key, value, origin), &size) in merged.entries.iter().zip(&all) {
            expect_key(key, &json!({ "size": size }), origin)?;
            let whole = |name: &str| value.get(name).and_then(Value::as_u64).map(|n| n as usize);
            let (Some(nodes), Some(edges)) = (whole("nodes"), whole("edges")) else {
                return Err(format!("{origin}: the entry has no `nodes` and `edges`"));
            };
            let answer = entry_of(value, 1, nodes, origin)?;
            entries.push(GraphEntry { size, nodes, edges, answer });
        }
        return Ok(Merged::Graphs(table::graph_table_of(&family, name, entries)));
    }
    let mut family = Family::parse(text("rule")?, text("topology")?, states).map_err(|e| in_run(e.to_string()))?;
    match text("grid")? {
        "square" => {}
        "hex" => family = family.on_hex().map_err(|e| in_run(e.to_string()))?,
        _ => return Err(bad_run("grid")),
    }
    let (rows, cols) = (range("rows")?, range("cols")?);
    table::validate(&family, &rows, &cols).map_err(|e| in_run(e.to_string()))?;
    // At least half the R×C sizes are distinct boards: a run far larger than
    // the lines given is told without listing its boards.
    let sizes = family.row_counts(&rows).len().saturating_mul(cols.clone().count());
    if sizes / 2 > merged.entries.len() {
        return Err(format!(
            "{first}: the shards hold {} entries, and their run has at least {}",
            merged.entries.len(),
            sizes.div_ceil(2)
        ));
    }
    let keys = table::boards_to_solve(&family, &rows, &cols);
    check_count(merged.entries.len(), keys.len(), &first)?;
    let mut solved = HashMap::new();
    for ((key, value, origin), &(r, c)) in merged.entries.iter().zip(&keys) {
        expect_key(key, &json!({ "rows": r, "cols": c }), origin)?;
        solved.insert((r, c), entry_of(value, r, c, origin)?);
    }
    table::assemble(&family, rows, cols, &solved).map(Merged::Boards).map_err(|e| e.to_string())
}

fn check_count(found: usize, expected: usize, first: &str) -> Result<(), String> {
    if found == expected {
        return Ok(());
    }
    Err(format!(
        "{first}: the shards hold {found} entries, and this version of lights numbers {expected} for their run"
    ))
}

fn expect_key(key: &Value, expected: &Value, origin: &Origin) -> Result<(), String> {
    if key == expected {
        return Ok(());
    }
    Err(format!("{origin}: entry {key} is not the one this run numbers there ({expected}); was the line edited?"))
}

/// A board's answer from its shard line, checked: the kernel's factors
/// each divide the next, and a solvable board has |kernel| solutions.
fn entry_of(value: &Value, rows: usize, cols: usize, origin: &Origin) -> Result<Entry, String> {
    let bad = |why: &str| format!("{origin}: the answer of the {rows}×{cols} board {why}");
    let solvable = value.get("solvable").and_then(Value::as_bool).ok_or_else(|| bad("has no `solvable`"))?;
    let solutions = value
        .get("solutions")
        .and_then(Value::as_str)
        .and_then(|s| s.parse::<BigUint>().ok())
        .ok_or_else(|| bad("has no `solutions` count"))?;
    let factors: Vec<u32> = value
        .get("kernel_factors")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(|f| f.as_u64().and_then(|f| u32::try_from(f).ok())).collect())
        .ok_or_else(|| bad("has no `kernel_factors`"))?;
    if factors.iter().any(|&d| d < 2) || factors.windows(2).any(|w| w[1] % w[0] != 0) {
        return Err(bad("has kernel factors that are not invariant factors"));
    }
    let kernel = GroupShape { factors };
    let size = kernel.size();
    if (solvable && solutions != size) || (!solvable && solutions != BigUint::default()) {
        return Err(bad("does not add up (its solutions and its kernel disagree)"));
    }
    Ok(Entry { rows, cols, solvable, solutions, fraction: Fraction::new(BigUint::from(1u32), size), kernel })
}

/// `--graph FAMILY --sizes RANGE`: one line per size.
fn run_graphs(family: &Family, graph: &str, sizes: &RangeInclusive<usize>, show: Show, format: TableFormat) -> u8 {
    if let Err(e) = table::validate_graphs(family, graph, sizes) {
        return usage(&e.to_string());
    }
    let mut progress = Progress::new("graphs");
    let result =
        table::graph_table(family, graph, sizes.clone(), &|done, total| progress.update(done as u64, total as u64));
    progress.finish();
    let t = match result {
        Ok(t) => t,
        Err(e) => return usage(&e.to_string()),
    };
    print_table(format, || graph_caption(&t, show), || graph_cells(&t, show), || graph_json(&t, show))
}

/// Print a table (board sizes or graph sizes) in `format`: its header row
/// and rows of `cells`, under `caption` on the terminal; JSON is its own.
fn print_table(
    format: TableFormat,
    caption: impl FnOnce() -> String,
    cells: impl FnOnce() -> Vec<Vec<String>>,
    json: impl FnOnce() -> String,
) -> u8 {
    let text = match format {
        TableFormat::Table => aligned(&caption(), &cells()),
        TableFormat::Markdown => markdown(&cells()),
        TableFormat::Csv => cells().iter().map(|row| format!("{}\n", row.join(","))).collect(),
        TableFormat::Json | TableFormat::Jsonl => json(),
    };
    print!("{text}");
    crate::EXIT_OK
}

fn graph_caption(t: &GraphTable, show: Show) -> String {
    format!("{} · {} · one line per N", what(show), t.describe())
}

/// A header, then `N, nodes, value` per size.
fn graph_cells(t: &GraphTable, show: Show) -> Vec<Vec<String>> {
    let header = vec!["N".to_string(), "nodes".to_string(), show_name(show).to_string()];
    std::iter::once(header)
        .chain(
            t.entries
                .iter()
                .map(|e| vec![e.size.to_string(), e.nodes.to_string(), value(&e.answer, show, t.family.states)]),
        )
        .collect()
}

fn graph_json(t: &GraphTable, show: Show) -> String {
    let w = t.family.states;
    let entries: Vec<serde_json::Value> = t
        .entries
        .iter()
        .map(|g| entry_json(json!({ "size": g.size, "nodes": g.nodes, "edges": g.edges }), &g.answer, show, w))
        .collect();
    let doc = json!({
        "rule": t.family.rule_text(),
        "grid": "graph",
        "graph": t.graph,
        "states": w,
        "show": show_name(show),
        "sizes": t.entries.iter().map(|e| e.size).collect::<Vec<_>>(),
        "entries": entries,
    });
    format!("{}\n", crate::output::json_string(&doc))
}

/// One entry of `--format json`: where it is (`place`: rows and cols, or a
/// graph's size, nodes and edges), then its answers.
fn entry_json(place: serde_json::Value, e: &Entry, show: Show, w: u32) -> serde_json::Value {
    let mut out = json!({
        "value": value(e, show, w),
        "solvable": e.solvable,
        "solutions": e.solutions.to_string(),
        "kernel_factors": e.kernel.factors,
        "kernel_exponent": e.kernel.exponent_of(w),
        "quiet_patterns": e.kernel.size().to_string(),
        "fraction": e.fraction.to_string(),
    });
    if let (Some(fields), serde_json::Value::Object(place)) = (out.as_object_mut(), place) {
        fields.extend(place);
    }
    out
}

fn show_name(show: Show) -> &'static str {
    match show {
        Show::Solutions => "solutions",
        Show::Dimension => "dimension",
        Show::Fraction => "fraction",
    }
}

fn usage(message: &str) -> u8 {
    eprintln!("error: {}", crate::excerpt::escape_controls(message));
    crate::EXIT_USAGE
}

fn value(e: &Entry, show: Show, w: u32) -> String {
    match show {
        Show::Solutions => e.solutions.to_string(),
        Show::Dimension => e.kernel.describe(w),
        Show::Fraction => e.fraction.to_string(),
    }
}

/// What the entries are, for a caption.
fn what(show: Show) -> &'static str {
    match show {
        Show::Solutions => "All Lights solutions (all on → all off; 0 = not solvable)",
        Show::Dimension => "quiet patterns (k = (Z/W)^k; [a×b] = Z/a ⊕ Z/b)",
        Show::Fraction => "fraction of all positions that are solvable",
    }
}

fn caption(t: &Table, show: Show) -> String {
    format!("{} · {} · rows ↓ columns →", what(show), t.family.describe())
}

/// The cells of the grid: a header row, then a row per row count.
fn cells(t: &Table, show: Show) -> Vec<Vec<String>> {
    let mut out =
        vec![std::iter::once("r\\c".to_string()).chain(t.cols.iter().map(std::string::ToString::to_string)).collect()];
    for (i, r) in t.rows.iter().enumerate() {
        let mut line = vec![r.to_string()];
        line.extend((0..t.cols.len()).map(|j| value(t.get(i, j), show, t.family.states)));
        out.push(line);
    }
    out
}

/// The caption, a blank line, then the cells right-aligned in columns.
fn aligned(caption: &str, cells: &[Vec<String>]) -> String {
    let columns = cells[0].len();
    let widths: Vec<usize> =
        (0..columns).map(|j| cells.iter().map(|row| row[j].chars().count()).max().unwrap_or(0)).collect();
    let mut out = format!("{caption}\n\n");
    for row in cells {
        let line: Vec<String> = row.iter().zip(&widths).map(|(v, &w)| format!("{v:>w$}")).collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn markdown(cells: &[Vec<String>]) -> String {
    let mut out = String::new();
    for (i, row) in cells.iter().enumerate() {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
        if i == 0 {
            out.push_str(&format!("|{}\n", "---:|".repeat(row.len())));
        }
    }
    out
}

fn json_text(t: &Table, show: Show) -> String {
    let w = t.family.states;
    let entries: Vec<serde_json::Value> =
        t.entries.iter().map(|e| entry_json(json!({ "rows": e.rows, "cols": e.cols }), e, show, w)).collect();
    let doc = json!({
        "rule": t.family.rule_text(),
        "topology": t.family.topology.name(),
        "grid": t.family.grid_name(),
        "states": w,
        "show": show_name(show),
        "rows": t.rows,
        "cols": t.cols,
        "entries": entries,
    });
    format!("{}\n", crate::output::json_string(&doc))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that make a JSON line say something else.
    const NOISE: &[u8] = b"0129\"{}[],:-x .e";

    /// Every one-byte change of a table's shard lines (deleted, or replaced
    /// by bytes that keep it JSON-like) is merged or refused, never a panic;
    /// and whatever merges has its boards where the run puts them.
    #[test]
    fn damaged_lines_never_panic_the_merge() {
        let family = Family::parse("cross", "torus", 4).unwrap();
        let (rows, cols) = (2..=4, 2..=5);
        let whole = table::table(&family, rows.clone(), cols.clone(), &|_, _| {}).unwrap();
        let a = board_shard(&family, &rows, &cols, Spec { index: 1, count: 2 }, &|_, _| {}).unwrap();
        let b = board_shard(&family, &rows, &cols, Spec { index: 2, count: 2 }, &|_, _| {}).unwrap();
        let sources = |a: &str| vec![("a".to_string(), a.to_string()), ("b".to_string(), b.clone())];
        match merge(&sources(&a)) {
            Ok(Merged::Boards(t)) => assert_eq!(t, whole),
            _ => panic!("the undamaged shards merge to the table"),
        }
        let (mut merged, mut refused) = (0, 0);
        let bytes = a.as_bytes();
        for i in 0..bytes.len() {
            let mut variants = vec![[&bytes[..i], &bytes[i + 1..]].concat()];
            variants.extend(NOISE.iter().filter(|&&c| c != bytes[i]).map(|&c| {
                let mut v = bytes.to_vec();
                v[i] = c;
                v
            }));
            for v in variants {
                let text = String::from_utf8(v).unwrap();
                match merge(&sources(&text)) {
                    Ok(Merged::Boards(t)) => {
                        merged += 1;
                        assert_eq!((&t.rows, &t.cols), (&whole.rows, &whole.cols));
                        assert!(t
                            .entries
                            .iter()
                            .zip(&whole.entries)
                            .all(|(x, y)| (x.rows, x.cols) == (y.rows, y.cols)));
                    }
                    Ok(Merged::Graphs(_)) => panic!("a board table merged as a graph table"),
                    Err(e) => {
                        refused += 1;
                        assert!(!e.is_empty());
                    }
                }
            }
        }
        assert!(refused > merged, "{refused} refused, {merged} merged");
    }
}
