//! `lights publish PACK -o DIR`: a level pack as a static web game. The
//! data (board, minimum solution and hint table of every level) comes from
//! `lights_ide::publish`; this writes the site's files: the play page
//! (index.html, board.js, board.css), `levels.js` (the data, loaded by a
//! script tag, so the site also plays from `file://`), `levels.json` (the
//! same data for other tools) and a marker that says the folder is a site.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args as ClapArgs;
use lights_ide::publish::{self, Hints, Site};
use lights_ide::{Document, Solved};

use crate::{files, safe_write, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

#[derive(ClapArgs)]
#[command(
    about = "Publish a level pack as a web game (a static site: no server, no solver in the browser)",
    long_about = "Write a static site that plays the puzzles of PACK in any browser: the play page, and for \
        each level its press patterns, its minimum solution and a hint table, all computed now by the same \
        engine as `lights check`. Host the folder anywhere (GitHub Pages, any static host) or open its \
        index.html from disk. Players get hints from any position, a level picker that remembers the levels \
        they solved, and a link to share a level (the level is in the address's #fragment).\n\n\
        Hints: for each level a linear map over Z/W gives a solution from any position (W prime or \
        squarefree; a 25×25 two-state board's map is 49 KB, at most 256 KB a level); a level with W = 4, 8, 9, \
        12, … (a square factor) or a larger board gets hints along its minimum solution from its start. \
        A pack with errors is not published (exit 1). Blocks that cannot be played (sliding, too large) are \
        left out with a note. DIR is made if missing; a folder that holds other files is refused unless \
        --force.",
    after_help = "Examples:\n  \
        lights publish examples/level-pack.lights -o site/\n  \
        lights publish examples/level-pack.lights -o site/ --title \"Eight levels\" --force\n  \
        python3 -m http.server -d site 8000   # then open http://localhost:8000/"
)]
pub(crate) struct Args {
    /// The level pack: a .lights file, one puzzle per level, in order
    #[arg(value_name = "PACK")]
    pack: PathBuf,
    /// The folder to write the site into (made if missing)
    #[arg(short = 'o', long = "out", value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    out: PathBuf,
    /// The site's title [default: the pack's file name]
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Write into DIR even if it holds files that are not an earlier site
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    minimum_budget: crate::budget::MinimumBudgetArg,
}

/// The play page and its script, as `lights play` serves them.
const BOARD_JS: &str = include_str!("../assets/play/board.js");
const BOARD_CSS: &str = include_str!("../assets/play/board.css");

/// Marks a folder as a site this command wrote (so that it may write there again).
const MARKER: &str = ".lights-site";

pub(crate) fn run(args: Args) -> u8 {
    let options = match args.minimum_budget.options_for(&args.pack) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e));
            return EXIT_USAGE;
        }
    };
    let shown = files::shown_path(&args.pack);
    let text = match files::read(&args.pack) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e));
            return EXIT_USAGE;
        }
    };
    let doc = Document::new(&text).with_options(options);
    let errors = error_lines(&doc, &shown);
    if !errors.is_empty() {
        for line in &errors {
            eprintln!("{line}");
        }
        eprintln!("error: {shown} has errors: fix them (see `lights check {shown}`) before publishing");
        return EXIT_PUZZLE_ERROR;
    }
    let title = args.title.clone().unwrap_or_else(|| {
        args.pack.file_stem().map_or_else(|| "Lights".to_string(), |s| s.to_string_lossy().into_owned())
    });
    let site = publish::site(&doc, &Solved::all(&doc), &title);
    if site.levels.is_empty() {
        eprintln!("error: {shown} has no puzzle that can be played: nothing to publish");
        return EXIT_PUZZLE_ERROR;
    }
    if let Err(e) = prepare(&args.out, args.force) {
        eprintln!("error: {}", crate::excerpt::escape_controls(&e));
        return EXIT_USAGE;
    }
    match write_site(&args.out, &site) {
        Ok(bytes) => {
            print!("{}", summary(&site, &args.out, bytes));
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e));
            EXIT_USAGE
        }
    }
}

/// `error[L0001]: pack.lights:3: message` for each error of the file.
fn error_lines(doc: &Document, shown: &str) -> Vec<String> {
    let analysis = doc.analysis();
    let all = analysis.file_diagnostics.iter().chain(analysis.blocks.iter().flat_map(|b| b.diagnostics.iter()));
    all.filter(|d| d.is_error())
        .map(|d| {
            let line = doc.lines().line(d.span.start) + 1;
            format!("error[{}]: {shown}:{line}: {}", d.code, crate::excerpt::escape_controls(&d.message))
        })
        .collect()
}

/// Make `dir`, or check that it may be written: empty, an earlier site, or `--force`.
fn prepare(dir: &Path, force: bool) -> Result<(), String> {
    let shown = dir.display();
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() && !force => {
            return Err(format!("{shown} is a symbolic link: name the folder itself (or --force)"));
        }
        Ok(meta) if !meta.file_type().is_symlink() && !meta.is_dir() => {
            return Err(format!("{shown} exists and is not a folder"));
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return std::fs::create_dir_all(dir).map_err(|e| format!("cannot make the folder {shown}: {e}"));
        }
        Err(e) => return Err(format!("cannot use {shown}: {e}")),
    }
    let mut entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read the folder {shown}: {e}"))?;
    let empty = entries.next().is_none();
    if empty || force || dir.join(MARKER).is_file() {
        Ok(())
    } else {
        Err(format!(
            "{shown} holds files and is not a site `lights publish` wrote: choose an empty folder, or --force to write there"
        ))
    }
}

/// The data as a script: `window.LIGHTS_SITE = {...};`. The JSON comes
/// from [`site_json`], which already writes the line separators JavaScript
/// does not allow in a string as escapes; `<` is escaped too, so no level
/// name can close the script.
fn levels_js(json: &str) -> String {
    let escaped = json.replace('<', "\\u003c");
    format!("// The levels of this site, written by `lights publish` (format lights-site/1).\nwindow.LIGHTS_SITE = {escaped};\n")
}

/// The site's data as compact JSON, every character a terminal or a
/// script would act on (DEL, C1, U+2028/9) written as a `\u` escape
/// (`output::JsonSafe`, as every JSON the tool prints).
fn site_json(site: &Site) -> Result<String, String> {
    let mut bytes = Vec::new();
    let mut safe = crate::output::JsonSafe::new(&mut bytes);
    serde_json::to_writer(&mut safe, site).map_err(|e| format!("cannot encode the levels: {e}"))?;
    safe.finish().map_err(|e| format!("cannot encode the levels: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("cannot encode the levels: {e}"))
}

fn index_html(title: &str) -> String {
    let title = crate::excerpt::xml(title);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"lights publish\">\n<title>{title}</title>\n\
         <link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"board.css\">\n\
         <script src=\"levels.js\"></script>\n<script src=\"board.js\" defer></script>\n</head>\n<body>\n\
         <main id=\"app\"></main>\n<noscript>{title}: Lights Out puzzles to play; they need JavaScript.</noscript>\n\
         </body>\n</html>\n"
    )
}

/// Write every file of the site; the bytes written.
fn write_site(dir: &Path, site: &Site) -> Result<usize, String> {
    let json = site_json(site)?;
    let files: [(&str, String); 6] = [
        ("index.html", index_html(&site.title)),
        ("board.js", BOARD_JS.to_string()),
        ("board.css", BOARD_CSS.to_string()),
        ("levels.js", levels_js(&json)),
        ("levels.json", format!("{json}\n")),
        (MARKER, "This folder is a site written by `lights publish`; it may write here again.\n".to_string()),
    ];
    let mut bytes = 0;
    for (name, contents) in &files {
        safe_write::write_text(&dir.join(name), contents)?;
        bytes += contents.len();
    }
    Ok(bytes)
}

fn summary(site: &Site, dir: &Path, bytes: usize) -> String {
    let mut out = String::new();
    let n = site.levels.len();
    let _ = writeln!(
        out,
        "lights publish: {n} {} into {} ({} KB)",
        if n == 1 { "level" } else { "levels" },
        dir.display(),
        bytes.div_ceil(1024)
    );
    for (i, level) in site.levels.iter().enumerate() {
        let hints = match &level.hints {
            Hints::Map { .. } => "hints from any position".to_string(),
            Hints::Start { reason } => format!("hints from the start only: {reason}"),
        };
        let _ = writeln!(out, "  {:>3}. {} · {}", i + 1, crate::excerpt::escape_controls(&level.board.name), hints);
    }
    for (name, why) in &site.skipped {
        let _ = writeln!(out, "  left out: {} ({})", crate::excerpt::escape_controls(name), why);
    }
    let _ =
        writeln!(out, "open {} in a browser, or host the folder (see docs/play.md)", dir.join("index.html").display());
    out
}
