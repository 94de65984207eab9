//! Progress lines on standard error for long work, through the real binary:
//! on a terminal (a pseudo-terminal made by util-linux's `script`) `lights
//! solve` names the puzzle it is solving and its minimum-press budget, and
//! `lights check` counts the files; the reports themselves arrive whole.
//! Off a terminal (pipes, CI logs) nothing of it is printed.
//!
//! The long work is a 48×48 board whose minimum the search cannot prove, so
//! it uses its whole `--minimum-budget` (counted work: about that long on
//! a 2-core machine, four times the half second before a line appears).

mod common;
use common::*;

use std::path::Path;
use std::process::Command;

/// The 48×48 projective plane with six states: 3456 presses, not proven
/// within a few seconds of search.
const LONG: &str = "puzzle \"long one\" {\n  size 48x48\n  states 6\n  topology projective\n  lights on\n}\n";

/// `lights ARGS` run in `dir` on a pseudo-terminal: everything it wrote
/// (standard output and standard error together, as a terminal shows
/// them), with the terminal's escape sequences and carriage returns gone.
fn on_a_terminal(dir: &Path, args: &str) -> String {
    let binary = env!("CARGO_BIN_EXE_lights");
    let line = format!("'{binary}' {args}");
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env("TERM", "xterm")
        .output()
        .expect("util-linux's `script` (Debian's bsdutils) makes the pseudo-terminal");
    assert!(out.status.success(), "{args}: {}", String::from_utf8_lossy(&out.stderr));
    plain(&String::from_utf8_lossy(&out.stdout))
}

/// The text of a terminal's output: ANSI sequences removed, each carriage
/// return a line break (a redrawn progress line is one line per drawing).
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI: ESC [ parameters, then one final letter.
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for d in chars.by_ref() {
                        if d.is_ascii_alphabetic() {
                            break;
                        }
                    }
                }
            }
            '\r' => out.push('\n'),
            c => out.push(c),
        }
    }
    out
}

#[test]
fn a_long_solve_names_its_puzzle_and_budget_on_a_terminal_then_clears_the_line() {
    let dir = scratch("progress-solve");
    // A second puzzle on the same board is answered by the first's solve:
    // the line counts what is solved (one puzzle), not what is printed.
    let twin = LONG.replace("long one", "twin");
    std::fs::write(dir.join("long.lights"), format!("{LONG}\n{twin}")).unwrap();
    let shown = on_a_terminal(&dir, "solve --minimum-budget 2s long.lights");
    let lines: Vec<&str> = shown.lines().map(str::trim_end).filter(|l| !l.trim().is_empty()).collect();
    let progress: Vec<&&str> =
        lines.iter().filter(|l| l.contains("solving \"long one\" · searching for the fewest presses")).collect();
    assert!(!progress.is_empty(), "no progress line in:\n{shown}");
    assert!(
        progress.iter().all(|l| l.ends_with("solving \"long one\" · searching for the fewest presses for up to 2s")),
        "{progress:?}"
    );
    // The result follows, whole, on lines of its own.
    let result = lines.iter().position(|l| l.starts_with("✓ \"long one\"")).expect("the result");
    assert!(lines[result + 1].contains("86973087744 solutions · 3456 presses"), "{shown}");
    assert!(lines[result..].iter().all(|l| !l.contains("solving")), "a progress line after the result:\n{shown}");
}

#[test]
fn checking_a_pack_counts_its_files_on_a_terminal_and_prints_every_report_whole() {
    let dir = scratch("progress-check");
    std::fs::create_dir(dir.join("pack")).unwrap();
    std::fs::write(dir.join("pack/a.lights"), LONG).unwrap();
    // Another board (a copy would be a warning of its own, L0208).
    let klein = LONG.replace("long one", "other").replace("projective", "klein");
    std::fs::write(dir.join("pack/b.lights"), klein).unwrap();
    let shown = on_a_terminal(&dir, "check --minimum-budget 1s pack");
    assert!(shown.lines().any(|l| l.contains("0/2 files")), "no progress bar in:\n{shown}");
    for name in ["pack/a.lights: long one:", "pack/b.lights: other:"] {
        let report = shown.lines().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{name} in:\n{shown}"));
        assert!(report.trim_end().contains("3456 presses (minimum not proven, at least "), "{report}");
        assert!(!report.contains("files ·"), "a report shares its line with the bar: {report}");
    }
    let last = shown.lines().map(str::trim).rfind(|l| !l.is_empty()).expect("a summary");
    assert_eq!(last, "checked 2 puzzles in 2 files: all fine");

    // `--quiet` prints no bar.
    let quiet = on_a_terminal(&dir, "check --quiet --minimum-budget 1s pack");
    assert!(!quiet.contains("files ·"), "{quiet}");
}

#[test]
fn off_a_terminal_nothing_is_added_to_standard_error() {
    let dir = scratch("progress-pipe");
    std::fs::write(dir.join("long.lights"), LONG).unwrap();
    let out = lights(&dir, &["solve", "--minimum-budget", "1s", "long.lights"]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
    let out = lights(&dir, &["check", "--minimum-budget", "1s", "long.lights"]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
}
