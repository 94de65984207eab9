//! `lights census`: how many positions with exactly K lights on are solvable.

use std::ops::RangeInclusive;
use std::path::PathBuf;

use clap::{Args as ClapArgs, ValueEnum};
use lights_authoring::census::{self, Census, Method, Query, Unit};
use lights_authoring::generate::{graph_flag, parse_graph};
use lights_authoring::shard::{self, parse_spec, BigInt, Origin, Spec};
use lights_authoring::table::{Family, Fraction, GroupShape};
use lights_compiler::graph::Graph;
use serde_json::{json, Value};

use lights_compiler::flags::{parse_bounded_range, parse_size};

use crate::board_flags::BoardFlags;
use crate::progress::Progress;
use crate::table::{parse_jobs, read_shards, with_jobs};

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
        lights census --graph cube-surface:3 --on 10               # the Lights Out Cube\n\n\
        Beyond one machine: shard K of N does the units of work numbered i with i mod N = K−1 and\n\
        prints one JSON line per unit; --merge puts the shards together, in any order, into exactly\n\
        what the unsharded command prints:\n  \
        lights census --size 4x5 --lock-dark --shard 1/2 --format jsonl > c1.jsonl\n  \
        lights census --size 4x5 --lock-dark --shard 2/2 --format jsonl > c2.jsonl\n  \
        lights census --merge c1.jsonl c2.jsonl --format json\n  \
        lights census --size 4x5 --lock-dark --jobs 2              # two threads (default: every core)"
)]
pub(crate) struct Args {
    /// Board size, RxC (e.g. 5x5)
    #[arg(long, value_name = "RxC", value_parser = parse_size, required_unless_present_any = ["graph", "merge"], conflicts_with = "graph")]
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
    #[command(flatten)]
    board: BoardFlags,
    /// Output format (jsonl: one JSON line per unit of work, for --shard and --merge)
    #[arg(long, value_enum, default_value_t = CensusFormat::Text)]
    format: CensusFormat,
    /// How to count (auto picks the fastest; the others are for cross-checks)
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
    /// Count only shard K of N (1 ≤ K ≤ N): the units of work numbered i with i mod N = K−1, as JSON lines (with --format jsonl) to give to --merge
    #[arg(long, value_name = "K/N", value_parser = parse_spec)]
    shard: Option<Spec>,
    /// Print the census from the JSON lines of all its shards (files, or - for standard input), in any order; the board, rule, topology, states, --on, --lock-dark and --method are read from them
    #[arg(long, value_name = "SHARD.jsonl", num_args = 1.., conflicts_with_all = ["size", "graph", "on", "lock_dark", "grid", "rule", "topology", "states", "method", "shard"])]
    merge: Option<Vec<PathBuf>>,
    /// Count with N threads [default: every core]; the output is the same for every N
    #[arg(long, value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CensusFormat {
    /// Aligned text
    Text,
    /// JSON (counts as strings: they can be huge)
    Json,
    /// One JSON line per unit of work (a shard's output, for --merge)
    Jsonl,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum, Debug)]
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
    if let Some(paths) = &args.merge {
        if args.format == CensusFormat::Jsonl {
            return usage("--merge prints the census: choose --format text or json");
        }
        return match read_shards(paths).and_then(|sources| merge(&sources)) {
            Ok((family, query, c)) => print_census(args.format, &family, &query, &c),
            Err(e) => usage(&e),
        };
    }
    if args.shard.is_some() && args.format != CensusFormat::Jsonl {
        return usage("--shard writes one JSON line per unit of work, for --merge: add --format jsonl");
    }
    let family = match Family::parse(&args.board.rule, args.board.topology.name(), args.board.states) {
        Ok(f) if args.board.hex() => match f.on_hex() {
            Ok(f) => f,
            Err(e) => return usage(&format!("--grid hex: {e}")),
        },
        Ok(f) => f,
        Err(e) => return usage(&e.to_string()),
    };
    let family = match args.graph.clone() {
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
    let jobs = args.jobs;
    match with_jobs(jobs, move || count_and_print(&args, &family, &query)) {
        Ok(code) => code,
        Err(e) => usage(&e),
    }
}

fn method_of(arg: MethodArg) -> Method {
    match arg {
        MethodArg::Auto => Method::Auto,
        MethodArg::Syndromes => Method::Syndromes,
        MethodArg::Macwilliams => Method::MacWilliams,
        MethodArg::Enumeration => Method::Enumeration,
    }
}

fn count_and_print(args: &Args, family: &Family, query: &Query) -> u8 {
    let method = method_of(args.method);
    let unit = if query.lock_dark { "positions" } else { "steps" };
    if args.format == CensusFormat::Jsonl {
        return lines(family, query, method, args.shard.unwrap_or(Spec::WHOLE), unit);
    }
    let mut progress = Progress::new(unit);
    let result = census::census_with(family, query, method, &|done, total| progress.update(done, total));
    progress.finish();
    match result {
        Ok(c) => print_census(args.format, family, query, &c),
        Err(e) => usage(&e.to_string()),
    }
}

fn print_census(format: CensusFormat, family: &Family, query: &Query, c: &Census) -> u8 {
    let text = match format {
        CensusFormat::Text => text(family, query, c),
        CensusFormat::Json | CensusFormat::Jsonl => json_text(family, query, c),
    };
    print!("{text}");
    crate::EXIT_OK
}

/// The parameters of a census, as its shard lines carry them.
fn census_run(family: &Family, query: &Query, method: Method) -> Value {
    json!({
        "size": if family.graph.is_some() { Value::Null } else { json!([query.rows, query.cols]) },
        "graph": family.graph.as_ref().map(graph_flag),
        "grid": family.grid_name(),
        "rule": family.rule_text(),
        "topology": family.topology.name(),
        "states": family.states,
        "on": [query.on.start(), query.on.end()],
        "lock_dark": query.lock_dark,
        "method": method.name(),
    })
}

/// How a shard line names a unit of work.
fn unit_key(unit: &Unit) -> Value {
    match unit {
        Unit::Positions { on, first } => json!({ "on": on, "first": first }),
        Unit::Weight { weight, count } => json!({ "weight": weight, "count": count }),
        Unit::Whole => json!({ "whole": true }),
    }
}

/// `--format jsonl`: the units of shard K/N, one line each.
fn lines(family: &Family, query: &Query, method: Method, spec: Spec, unit: &'static str) -> u8 {
    let mut progress = Progress::new(unit);
    let result = shard_text(family, query, method, spec, &|done, total| progress.update(done, total));
    progress.finish();
    match result {
        Ok(text) => {
            print!("{text}");
            crate::EXIT_OK
        }
        Err(e) => usage(&e.to_string()),
    }
}

/// The lines of shard `spec` of a census (its query checked).
fn shard_text(
    family: &Family,
    query: &Query,
    method: Method,
    spec: Spec,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<String, census::CensusError> {
    let plan = census::plan(family, query, method)?;
    let mine = spec.entries(plan.units.len());
    let partials = census::count(family, query, &plan, &mine, false, progress)?;
    let run = census_run(family, query, method);
    let classes = plan.classes.as_ref().map(|g| g.factors.clone());
    Ok(mine
        .iter()
        .zip(&partials)
        .map(|(&i, partial)| {
            let counts: Vec<Value> = partial.iter().map(|(k, v)| json!([k, v.to_string()])).collect();
            let value = json!({ "method": plan.method.name(), "classes": classes, "counts": counts });
            shard::line("census", &run, spec, plan.units.len(), i, unit_key(&plan.units[i]), value)
        })
        .collect())
}

/// `--merge`: the census the shards make up, checked whole.
fn merge(sources: &[(String, String)]) -> Result<(Family, Query, Census), String> {
    let describe = |key: &Value| match (key.get("on"), key.get("first"), key.get("weight")) {
        (Some(k), Some(Value::Null), _) => format!("{k} lights on"),
        (Some(k), Some(f), _) => format!("{k} lights on, the first at cell {f}"),
        (_, _, Some(j)) => format!("invariants of weight {j}"),
        _ => "the whole count".to_string(),
    };
    let merged = shard::collect("census", sources, &describe).map_err(|e| e.to_string())?;
    let run = &merged.run;
    let first = merged.entries.first().map(|(_, _, o)| o.to_string()).unwrap_or_default();
    let bad_run = |what: &str| format!("{first}: the run's `{what}` is not what `lights census` writes");
    let text = |name: &str| run.get(name).and_then(Value::as_str).ok_or_else(|| bad_run(name));
    let pair = |name: &str| -> Result<(usize, usize), String> {
        match run.get(name).and_then(Value::as_array).map(Vec::as_slice) {
            Some([a, b]) => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => Ok((a as usize, b as usize)),
                _ => Err(bad_run(name)),
            },
            _ => Err(bad_run(name)),
        }
    };
    let in_run = |e: String| format!("the shards' run ({first}): {e}");
    let states = run
        .get("states")
        .and_then(Value::as_u64)
        .and_then(|w| u32::try_from(w).ok())
        .ok_or_else(|| bad_run("states"))?;
    let mut family = Family::parse(text("rule")?, text("topology")?, states).map_err(|e| in_run(e.to_string()))?;
    if text("grid")? == "hex" {
        family = family.on_hex().map_err(|e| in_run(e.to_string()))?;
    }
    let (rows, cols) = match run.get("graph") {
        Some(Value::String(g)) => {
            let graph: Graph = parse_graph(g).map_err(|e| in_run(e.to_string()))?;
            family = family.on_graph(graph).map_err(|e| in_run(e.to_string()))?;
            (1, family.graph.as_ref().map_or(0, Graph::nodes))
        }
        _ => pair("size")?,
    };
    let (a, b) = pair("on")?;
    let lock_dark = run.get("lock_dark").and_then(Value::as_bool).ok_or_else(|| bad_run("lock_dark"))?;
    let query = Query { rows, cols, on: a..=b, lock_dark };
    census::validate(&family, &query).map_err(|e| in_run(e.to_string()))?;
    // The whole-run facts every line repeats: the method and the invariants.
    let (_, first_value, _) = &merged.entries[0];
    let method_name = first_value.get("method").and_then(Value::as_str).unwrap_or_default();
    let method = [Method::Enumeration, Method::MacWilliams, Method::Syndromes]
        .into_iter()
        .find(|m| m.name() == method_name)
        .ok_or_else(|| format!("{first}: `{method_name}` is not a method of lights census"))?;
    let classes_of = |v: &Value| v.get("classes").cloned().unwrap_or(Value::Null);
    let classes_value = classes_of(first_value);
    // Locked dark cells: the units are known without solving anything.
    let expected = if method == Method::Enumeration {
        let plan = census::plan(&family, &query, Method::Enumeration).map_err(|e| in_run(e.to_string()))?;
        if plan.units.len() != merged.entries.len() {
            return Err(format!(
                "{first}: the shards hold {} entries, and this version of lights numbers {} for their run",
                merged.entries.len(),
                plan.units.len()
            ));
        }
        Some(plan.units)
    } else {
        None
    };
    let mut totals = vec![BigInt::default(); query.on.clone().count()];
    for (i, (key, value, origin)) in merged.entries.iter().enumerate() {
        if value.get("method").and_then(Value::as_str) != Some(method.name()) || classes_of(value) != classes_value {
            return Err(format!("{origin} disagrees with {first} on the method or the invariants: lines of two runs?"));
        }
        if let Some(units) = &expected {
            let want = unit_key(&units[i]);
            if *key != want {
                return Err(format!(
                    "{origin}: entry {key} is not the one this run numbers there ({want}); was the line edited?"
                ));
            }
        }
        census::add_partial(&mut totals, &query, &partial_of(value, origin)?).map_err(|e| format!("{origin}: {e}"))?;
    }
    let classes = match classes_value {
        Value::Null => None,
        v => Some(GroupShape {
            factors: serde_json::from_value(v).map_err(|_| format!("{first}: `classes` is not a list of factors"))?,
        }),
    };
    let c = census::finish(&query, method, classes, totals)
        .map_err(|e| format!("the shards' counts do not add up (was a line edited?): {e}"))?;
    Ok((family, query, c))
}

/// The partial counts `[K, "count"]` of a shard line.
fn partial_of(value: &Value, origin: &Origin) -> Result<Vec<(usize, BigInt)>, String> {
    let bad = || format!("{origin}: `counts` is not a list of [K, \"count\"]");
    let counts = value.get("counts").and_then(Value::as_array).ok_or_else(bad)?;
    counts
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([k, v]) => {
                let k = k.as_u64().ok_or_else(bad)? as usize;
                let v = v.as_str().and_then(|v| v.parse::<BigInt>().ok()).ok_or_else(bad)?;
                Ok((k, v))
            }
            _ => Err(bad()),
        })
        .collect()
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
        "graph": family.graph.as_ref().map(lights_compiler::graph::Graph::describe),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every one-byte change of a census's shard lines (deleted, or replaced
    /// by bytes that keep it JSON-like) is merged or refused, never a panic.
    #[test]
    fn damaged_lines_never_panic_the_merge() {
        let none = |_: u64, _: u64| {};
        let cases = [
            (Family::parse("cross", "plane", 2).unwrap(), Query { rows: 2, cols: 3, on: 2..=3, lock_dark: true }),
            (Family::parse("cross", "plane", 2).unwrap(), Query { rows: 4, cols: 4, on: 5..=6, lock_dark: false }),
            (Family::parse("cross", "plane", 3).unwrap(), Query { rows: 2, cols: 2, on: 1..=2, lock_dark: false }),
        ];
        for (family, query) in cases {
            let whole = census::census(&family, &query, &none).unwrap();
            let text = shard_text(&family, &query, Method::Auto, Spec::WHOLE, &none).unwrap();
            let (_, _, merged) = merge(&[("a".to_string(), text.clone())]).unwrap();
            assert_eq!(merged, whole);
            let bytes = text.as_bytes();
            for i in 0..bytes.len() {
                let mut variants = vec![[&bytes[..i], &bytes[i + 1..]].concat()];
                variants.extend(b"0129\"{}[],:-x .e".iter().filter(|&&c| c != bytes[i]).map(|&c| {
                    let mut v = bytes.to_vec();
                    v[i] = c;
                    v
                }));
                for v in variants {
                    let damaged = String::from_utf8(v).unwrap();
                    if let Ok((_, q, c)) = merge(&[("a".to_string(), damaged)]) {
                        assert_eq!(c.rows.len(), q.on.clone().count());
                    }
                }
            }
        }
    }
}
