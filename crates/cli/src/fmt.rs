//! `lights fmt`: rewrite files in canonical form, check that they are, or
//! show the difference; `-` formats standard input to standard output.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use lights_compiler::Diagnostic;
use lights_syntax::format::{format_keeping_layout, Layout};
use lights_syntax::FormatError;

use crate::{files, render, EXIT_OK, EXIT_PUZZLE_ERROR, EXIT_USAGE};

/// `fmt`'s exit status when a file could not be read or parsed (its
/// syntax errors): 2, as prettier, whatever the mode. 1 means only that a
/// file would be reformatted (`--check`, `--diff`).
const EXIT_UNFORMATTABLE: u8 = EXIT_USAGE;

/// What `fmt` does with a file that is not in canonical form.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Rewrite it (standard input: print the result).
    Write,
    /// List it and exit 1.
    Check,
    /// Print a unified diff and exit 1.
    Diff,
}

/// How `--check` reports a file that would change.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FmtFormat {
    /// `would reformat FILE`
    Human,
    /// `FILE:1:1: error[fmt] would reformat`, one line per file
    Concise,
    /// A GitHub Actions annotation per file
    Github,
}

/// The line `--check` prints for a file that would change.
fn would_reformat(shown: &str, format: FmtFormat) -> String {
    match format {
        FmtFormat::Human => format!("would reformat {shown}"),
        FmtFormat::Concise => format!("{shown}:1:1: error[fmt] would reformat (run `lights fmt {shown}`)"),
        FmtFormat::Github => format!(
            "::error file={},line=1,title=lights fmt::would reformat (run `lights fmt` on it)",
            shown.replace('%', "%25").replace(':', "%3A").replace(',', "%2C")
        ),
    }
}

pub(crate) fn run(paths: &[PathBuf], stdin_filename: Option<&Path>, mode: Mode, format: FmtFormat) -> u8 {
    if paths.iter().any(|p| files::is_stdin(p)) {
        if paths.len() > 1 {
            eprintln!("error: `-` (standard input) is formatted on its own: give no other path with it");
            return EXIT_USAGE;
        }
        return run_stdin(&files::shown(&paths[0], stdin_filename), mode, format);
    }
    let Some(files) = files::collect_reporting(paths) else { return EXIT_USAGE };
    let mut status = EXIT_OK;
    let mut changed = 0;
    for path in &files {
        let shown = files::shown_path(path);
        let Some(src) = files::read_reporting(path) else {
            status = EXIT_USAGE;
            continue;
        };
        let Some(formatted) = format_reporting(&shown, &src) else {
            // As prettier: 2 when a file could not be formatted at all, 1
            // only for "would reformat", so CI tells the two apart.
            status = EXIT_UNFORMATTABLE;
            continue;
        };
        if formatted == src {
            continue;
        }
        changed += 1;
        match mode {
            Mode::Check => {
                println!("{}", would_reformat(&shown, format));
                status = status.max(EXIT_PUZZLE_ERROR);
            }
            Mode::Diff => {
                print!("{}", diff(&shown, &src, &formatted));
                status = status.max(EXIT_PUZZLE_ERROR);
            }
            Mode::Write => match crate::safe_write::write_text(path, &formatted) {
                Ok(()) => println!("formatted {shown}"),
                Err(e) => {
                    eprintln!("error: {e}");
                    status = EXIT_USAGE;
                }
            },
        }
    }
    if mode != Mode::Write && changed == 0 && status == EXIT_OK {
        eprintln!("{} already formatted", lights_compiler::summary::count(files.len(), "file"));
    }
    status
}

/// `lights fmt -`: the formatted text on standard output (or, with
/// `--check` / `--diff`, whether and how it would change).
fn run_stdin(shown: &str, mode: Mode, format: FmtFormat) -> u8 {
    let src = match files::read_stdin() {
        Ok(src) => src,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let Some(formatted) = format_reporting(shown, &src) else { return EXIT_UNFORMATTABLE };
    let mut out = std::io::stdout().lock();
    match mode {
        Mode::Write => {
            let _ = out.write_all(formatted.as_bytes());
            EXIT_OK
        }
        _ if formatted == src => EXIT_OK,
        Mode::Check => {
            let _ = writeln!(out, "{}", would_reformat(shown, format));
            EXIT_PUZZLE_ERROR
        }
        Mode::Diff => {
            let _ = out.write_all(diff(shown, &src, &formatted).as_bytes());
            EXIT_PUZZLE_ERROR
        }
    }
}

/// The canonical text, with the file's byte-order mark and line endings
/// kept (the rule the language server's formatting shares:
/// [`format_keeping_layout`]), or `None` after printing why the file cannot
/// be formatted (its syntax errors).
fn format_reporting(shown: &str, src: &str) -> Option<String> {
    match format_keeping_layout(src) {
        Ok(formatted) => Some(formatted),
        Err(FormatError::Syntax(errors)) => {
            // The errors' spans are in the text the formatter saw.
            let (_, lf) = Layout::split(src);
            let color = render::use_color(std::io::stderr().is_terminal());
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "error: not formatting {shown}: it has syntax errors (fix them first)");
            let errors: Vec<Diagnostic> = errors.into_iter().map(Diagnostic::from).collect();
            let _ = render::write_diagnostics(&mut err, shown, &lf, &errors, color);
            None
        }
    }
}

/// A unified diff from `before` to `after`, as `diff -u` and `git apply` read it.
fn diff(shown: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{shown}"), &format!("b/{shown}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::{diff, format_reporting};

    const CANONICAL: &str = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n";
    const MESSY: &str = "puzzle \"a\" {\nsize 2x2\n    lights on\n}\n";

    #[test]
    fn line_endings_and_the_byte_order_mark_are_kept() {
        for ending in ["\n", "\r\n", "\r"] {
            for bom in ["", "\u{feff}"] {
                let src = format!("{bom}{}", MESSY.replace('\n', ending));
                let want = format!("{bom}{}", CANONICAL.replace('\n', ending));
                assert_eq!(format_reporting("t", &src).as_deref(), Some(want.as_str()), "{ending:?} {bom:?}");
                // Formatted once, the file is already canonical: --check agrees.
                assert_eq!(format_reporting("t", &want).as_deref(), Some(want.as_str()), "{ending:?} {bom:?}");
            }
        }
        // A mixed file takes its first line's ending throughout.
        let mixed = "puzzle \"a\" {\r\nsize 2x2\n    lights on\r\n}\n";
        assert_eq!(format_reporting("t", mixed).unwrap(), CANONICAL.replace('\n', "\r\n"));
    }

    #[test]
    fn the_diff_is_unified() {
        let d = diff("p.lights", "puzzle \"a\" {\nsize 2x2\n}\n", "puzzle \"a\" {\n  size 2x2\n}\n");
        assert_eq!(d, "--- a/p.lights\n+++ b/p.lights\n@@ -1,3 +1,3 @@\n puzzle \"a\" {\n-size 2x2\n+  size 2x2\n }\n");
    }
}
