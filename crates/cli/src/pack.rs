//! `lights pack`: a level pack's summary table, and its progression plot.

use std::path::PathBuf;

use clap::{Args as ClapArgs, ValueEnum};
use lights_authoring::pack_plot::{plot, PlotLevel};
use lights_ide::pack::{level_rows, LevelRow};

use crate::{check, files, EXIT_OK, EXIT_USAGE};

#[derive(ClapArgs)]
#[command(
    about = "Summarise a level pack: a table of every level, and a progression plot",
    long_about = "Summarise a level pack: every `puzzle` block of the given files and folders (folders are \
        searched for *.lights files, in name order), one row per level: its name, size, rule, surface, states, \
        number of solutions, fewest presses (`≤N` when not proven), difficulty, and the earlier level it \
        copies up to a symmetry of the board, if any.\n\n\
        The difficulty counts what a player does: the presses of pressing what helps, else light chasing's \
        presses plus the cells it inspects (see docs/authoring/packs.md). The files are read and solved as \
        `lights check` reads and solves them: the same selection (each folder's lights.toml include and \
        exclude), the same budgets, the same answers.\n\n\
        --plot FILE.svg draws the progression: a bar per level for its fewest presses and a line for its \
        difficulty; a level with fewer presses than the one before it is red, a copy is hatched.",
    after_help = "Examples:\n  \
        lights pack examples/level-pack.lights\n  \
        lights pack levels/ --format markdown > LEVELS.md\n  \
        lights pack levels/ --format csv > levels.csv\n  \
        lights pack levels/ --format json > levels.json\n  \
        lights pack levels/ --plot progression.svg"
)]
pub(crate) struct Args {
    /// Files and folders of the pack [default: the current folder]
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = PackFormat::Table)]
    format: PackFormat,
    /// Also write the progression plot (SVG) here
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    minimum_budget: crate::budget::MinimumBudgetArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum PackFormat {
    /// Aligned columns for a terminal
    Table,
    /// A Markdown table (for a README)
    Markdown,
    /// Comma-separated values with a header line
    Csv,
    /// A JSON array of objects, one per level
    Json,
}

pub(crate) fn run(args: Args) -> u8 {
    let paths = if args.paths.is_empty() { vec![PathBuf::from(".")] } else { args.paths.clone() };
    // Read, solved and compared with earlier files as `lights check` does.
    let mut rows: Vec<LevelRow> = Vec::new();
    let status = match check::each_checked(&paths, args.minimum_budget, |shown, doc, solved| {
        rows.extend(level_rows(shown, doc, solved));
    }) {
        Ok(true) => EXIT_OK,
        Ok(false) => EXIT_USAGE,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let text = match args.format {
        PackFormat::Table => table(&rows, false),
        PackFormat::Markdown => table(&rows, true),
        PackFormat::Csv => csv(&rows),
        PackFormat::Json => crate::output::json_string(&rows) + "\n",
    };
    print!("{text}");
    if let Some(out) = &args.plot {
        let levels: Vec<PlotLevel> = rows
            .iter()
            .enumerate()
            .map(|(k, r)| PlotLevel {
                name: r.name.clone(),
                minimum: r.minimum,
                difficulty: r.difficulty,
                duplicate: r.duplicate_of.is_some(),
                out_of_order: k > 0 && matches!((r.minimum, rows[k - 1].minimum), (Some(a), Some(b)) if a < b),
            })
            .collect();
        let title = format!("{} levels", rows.len());
        if let Err(e) = crate::safe_write::write_text(out, &plot(&title, &levels)) {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
        eprintln!("wrote the progression plot to {}", files::shown_path(out));
    }
    status
}

const HEADERS: [&str; 10] =
    ["#", "level", "size", "rule", "surface", "W", "solutions", "minimum", "difficulty", "duplicate of"];

fn cells(k: usize, r: &LevelRow) -> [String; 10] {
    let dash = || "—".to_string();
    if r.errors {
        return [
            (k + 1).to_string(),
            r.name.clone(),
            "(has errors)".into(),
            dash(),
            dash(),
            dash(),
            dash(),
            dash(),
            dash(),
            dash(),
        ];
    }
    let minimum = match (r.minimum, r.minimum_proven) {
        (Some(m), true) => m.to_string(),
        (Some(m), false) => format!("≤{m}"),
        (None, _) if r.solutions.as_deref() == Some("0") => "unsolvable".into(),
        (None, _) => dash(),
    };
    let solutions = r.solutions.clone().map(|s| if s.len() > 12 { format!("~10^{}", s.len() - 1) } else { s });
    [
        (k + 1).to_string(),
        r.name.clone(),
        r.size.clone(),
        r.rule.clone(),
        r.surface.clone(),
        r.states.to_string(),
        solutions.unwrap_or_else(dash),
        minimum,
        r.difficulty.map_or_else(dash, |d| format!("{d} ({})", r.method.unwrap_or(""))),
        r.duplicate_of.clone().unwrap_or_default(),
    ]
}

/// Names and paths are the user's: control characters are shown escaped,
/// and `|` does not end a Markdown cell.
fn clean(s: &str, markdown: bool) -> String {
    let s = crate::excerpt::escape_controls(s).into_owned();
    if markdown {
        s.replace('|', "\\|")
    } else {
        s
    }
}

fn table(rows: &[LevelRow], markdown: bool) -> String {
    let body: Vec<[String; 10]> =
        rows.iter().enumerate().map(|(k, r)| cells(k, r).map(|c| clean(&c, markdown))).collect();
    let mut width: Vec<usize> = HEADERS.iter().map(|h| h.chars().count()).collect();
    for row in &body {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let padded: Vec<String> =
            cells.iter().zip(&width).map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count()))).collect();
        if markdown {
            format!("| {} |", padded.join(" | "))
        } else {
            padded.join("  ").trim_end().to_string()
        }
    };
    let mut out = vec![line(HEADERS.iter().map(ToString::to_string).collect())];
    if markdown {
        out.push(format!("|{}|", width.iter().map(|w| "-".repeat(w + 2)).collect::<Vec<_>>().join("|")));
    } else {
        out.push(width.iter().map(|w| "─".repeat(*w)).collect::<Vec<_>>().join("  "));
    }
    out.extend(body.into_iter().map(|r| line(r.to_vec())));
    let copies = rows.iter().filter(|r| r.duplicate_of.is_some()).count();
    if !markdown {
        out.push(format!(
            "{} · {}",
            lights_compiler::summary::count(rows.len(), "level"),
            lights_compiler::summary::count(copies, "copy").replace("copys", "copies")
        ));
    }
    out.join("\n") + "\n"
}

fn csv(rows: &[LevelRow]) -> String {
    let field = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = String::from(
        "file,line,level,size,rule,surface,states,solutions,minimum,minimum_proven,difficulty,method,duplicate_of\n",
    );
    for r in rows {
        let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        let fields = [
            field(&r.file),
            r.line.to_string(),
            field(&r.name),
            field(&r.size),
            field(&r.rule),
            field(&r.surface),
            if r.errors { String::new() } else { r.states.to_string() },
            r.solutions.clone().unwrap_or_default(),
            opt(r.minimum),
            r.minimum_proven.to_string(),
            opt(r.difficulty),
            r.method.unwrap_or("").to_string(),
            field(r.duplicate_of.as_deref().unwrap_or("")),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}
