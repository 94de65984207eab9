//! The machine formats of `lights check --format …` for CI: one line per
//! diagnostic (`concise`), GitHub Actions workflow commands (`github`),
//! SARIF 2.1.0 (`sarif`) and JUnit XML (`junit`). Each is a [`Reporter`]:
//! it is handed every file as it is checked, and finishes at the end. They
//! all print the same diagnostics as the human output, from `lights-ide`.

mod concise;
mod github;
mod junit;
mod sarif;

use std::io::Write;

use lights_compiler::{Diagnostic, Severity};
use lights_ide::{Document, Solved};
use lights_syntax::Span;

pub(crate) use concise::Concise;
pub(crate) use github::Github;
pub(crate) use junit::Junit;
pub(crate) use sarif::Sarif;

/// A path as the CI formats name it (`concise`, `github`, `sarif`,
/// `junit`): relative to the current folder, which in CI is the
/// repository's root, without `./` (GitHub does not attach an annotation
/// for `./levels/x.lights` to the diff): `./levels/x.lights` and
/// `levels/./x.lights` are `levels/x.lights`, and an absolute path inside
/// the current folder is made relative to it. Other paths (outside the
/// folder, `../x`, `<stdin>`) are kept as given.
pub(crate) fn repo_relative(shown: &str) -> String {
    let cwd = std::env::current_dir().ok();
    relative_to(shown, cwd.as_deref())
}

fn relative_to(shown: &str, cwd: Option<&std::path::Path>) -> String {
    use std::path::{Component, Path, PathBuf};
    let path = Path::new(shown);
    let path = match cwd {
        Some(cwd) if path.is_absolute() => {
            let inside = path.strip_prefix(cwd).ok().map(Path::to_path_buf).or_else(|| {
                // The current folder through a symbolic link (macOS's /tmp).
                let (real_cwd, real) = (std::fs::canonicalize(cwd).ok()?, std::fs::canonicalize(path).ok()?);
                real.strip_prefix(real_cwd).ok().map(Path::to_path_buf)
            });
            match inside {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => return shown.to_string(),
            }
        }
        _ => path.to_path_buf(),
    };
    let kept: PathBuf = path.components().filter(|c| *c != Component::CurDir).collect();
    if kept.as_os_str().is_empty() {
        return shown.to_string();
    }
    let text = kept.to_string_lossy();
    if cfg!(windows) {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// A machine format: told about every file in order, then finished.
pub(crate) trait Reporter {
    /// One checked file (`shown` is its path as given, or `<stdin>`), its
    /// diagnostics as `policy` (the file's `lights.toml`) has them.
    fn file(&mut self, out: &mut dyn Write, shown: &str, doc: &Document, solved: &Solved, policy: Policy);
    /// A file or folder that could not be read.
    fn unreadable(&mut self, out: &mut dyn Write, shown: &str, message: &str);
    /// After the last file.
    fn finish(&mut self, out: &mut dyn Write, totals: &Totals);
}

/// What a whole run found.
#[derive(Default)]
pub(crate) struct Totals {
    pub files: usize,
    pub puzzles: usize,
    /// Puzzles with at least one error.
    pub failed_puzzles: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Files that could not be read (counted in `files`).
    pub unreadable: usize,
}

/// Where a span is: 1-based lines and columns, columns counted in
/// characters (Unicode code points); the end is exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

impl Place {
    pub(crate) fn of(doc: &Document, span: Span) -> Place {
        let (line, column) = line_column(doc, span.start);
        let (end_line, end_column) = line_column(doc, span.end.max(span.start));
        Place { line, column, end_line, end_column }
    }
}

fn line_column(doc: &Document, offset: usize) -> (usize, usize) {
    // Not a count from the line's start: many diagnostics on one long line
    // made that quadratic.
    let lines = doc.lines();
    (lines.line(offset) + 1, lines.char_column(doc.text(), offset) + 1)
}

/// The configuration that applies to a file (severity changes), if any.
pub(crate) type Policy<'a> = Option<&'a lights_ide::config::Config>;

/// Every diagnostic of a file, in source order, as `policy` has them.
pub(crate) fn all(doc: &Document, solved: &Solved, policy: Policy) -> Vec<Diagnostic> {
    let ds = lights_ide::diagnostics(doc, solved).into_iter().map(|p| p.diagnostic).collect();
    apply(ds, policy)
}

/// Block `i`'s diagnostics, as `policy` has them.
pub(crate) fn block(doc: &Document, solved: &Solved, i: usize, policy: Policy) -> Vec<Diagnostic> {
    apply(lights_ide::block_diagnostics(doc, i, solved), policy)
}

fn apply(ds: Vec<Diagnostic>, policy: Policy) -> Vec<Diagnostic> {
    lights_ide::config::apply(policy, ds)
}

/// `error` or `warning`.
pub(crate) fn severity_word(d: &Diagnostic) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The message with its notes, one per line, for formats with room for text.
pub(crate) fn full_text(d: &Diagnostic) -> String {
    let mut text = d.message.clone();
    for note in &d.notes {
        text.push_str("\nnote: ");
        text.push_str(note);
    }
    text
}

/// One puzzle of a file as the formats report it.
pub(crate) struct PuzzleResult {
    pub name: String,
    pub status: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// The file's puzzles, each with its diagnostics and one-line status, and
/// the diagnostics outside any puzzle.
pub(crate) fn puzzles(doc: &Document, solved: &Solved, policy: Policy) -> (Vec<PuzzleResult>, Vec<Diagnostic>) {
    let analysis = doc.analysis();
    let results = analysis
        .blocks
        .iter()
        .enumerate()
        .map(|(i, p)| PuzzleResult {
            name: p.name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| "(unnamed)".into()),
            status: lights_ide::status(doc, i, solved).text,
            diagnostics: block(doc, solved, i, policy),
        })
        .collect();
    (results, apply(analysis.file_diagnostics.clone(), policy))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ci_paths_are_relative_without_dot_slash() {
        let cwd = std::path::Path::new("/work/repo");
        let rel = |s| relative_to(s, Some(cwd));
        assert_eq!(rel("./levels/x.lights"), "levels/x.lights");
        assert_eq!(rel("././levels/./x.lights"), "levels/x.lights");
        assert_eq!(rel("levels/x.lights"), "levels/x.lights");
        assert_eq!(rel("/work/repo/levels/x.lights"), "levels/x.lights");
        assert_eq!(rel("/work/repo2/x.lights"), "/work/repo2/x.lights", "outside the folder: kept");
        assert_eq!(rel("/elsewhere/x.lights"), "/elsewhere/x.lights");
        assert_eq!(rel("../x.lights"), "../x.lights");
        assert_eq!(rel("<stdin>"), "<stdin>");
        assert_eq!(rel("a, b: «c».lights"), "a, b: «c».lights");
    }

    #[test]
    fn places_count_characters_and_lines_from_one() {
        let doc = Document::new("ab\nçé x\n");
        assert_eq!(
            Place::of(&doc, Span::new(3, 8)),
            Place { line: 2, column: 1, end_line: 2, end_column: 4 },
            "ç and é are two bytes each"
        );
        assert_eq!(Place::of(&doc, Span::new(0, 0)), Place { line: 1, column: 1, end_line: 1, end_column: 1 });
        // An offset inside a character is taken at that character's start.
        assert_eq!(Place::of(&doc, Span::new(4, 4)).column, 1);
    }

    /// The places of `n` diagnostics on one line of `n` entries (the
    /// report's `1,1 1,1 …`), the fastest of three runs.
    fn time_places(n: usize) -> std::time::Duration {
        let doc = Document::new(format!("puzzle \"a\" {{ size 2x2 lights at {}}}\n", "1,1 ".repeat(n)));
        let spans: Vec<Span> = (0..n).map(|k| Span::new(33 + 4 * k, 36 + 4 * k)).collect();
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                let places: Vec<Place> = spans.iter().map(|&s| Place::of(&doc, s)).collect();
                assert_eq!(places.last().map(|p| p.end_column), Some(36 + 4 * (n - 1) + 1));
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    }

    #[test]
    fn places_on_one_long_line_take_time_linear_in_their_number() {
        // Counting each column from the line's start made twice the
        // diagnostics take four times as long (15.6 s for 200,000). Sixteen
        // times as many: a square takes 256 times as long, a linear count 16;
        // the bound lies far from both, so noise passes for neither (a bound
        // of 3 for twice as many was too near a linear run's 2).
        let (small, large) = (time_places(5_000), time_places(80_000));
        assert!(large < small * 64, "n = 5,000: {small:?}; n = 80,000: {large:?}");
    }
}
