//! Every example in every `--help` text works: each command's examples are
//! run with `bash -o pipefail` (a failing command inside a pipe fails the
//! example), in order, in one scratch folder holding a copy of
//! `examples/` (and the `in.txt` coordinate list the import examples read),
//! with the binary under test first on `PATH`; each must exit 0.

mod common;
use common::*;

/// The help texts to read, in the order their examples run (the top-level
/// help first: its `generate` makes the `pack.lights` later examples use).
const COMMANDS: &[&[&str]] = &[
    &[],
    &["generate"],
    &["check"],
    &["solve"],
    &["fmt"],
    &["render"],
    &["compile"],
    &["export"],
    &["export", "flip"],
    &["export", "json"],
    &["import"],
    &["import", "coords"],
    &["import", "flip"],
    &["import", "json"],
    &["table"],
    &["census"],
    &["publish"],
    &["pack"],
    &["completions"],
    &["man"],
    &["lsp"],
];

/// The example command lines of a help text: the indented `lights …` lines
/// after `Example:` or `Examples:`.
fn examples(help: &str) -> Vec<String> {
    let Some(start) = help.find("\nExample") else { return Vec::new() };
    help[start..]
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| l.starts_with("lights ") || l.starts_with("printf "))
        .map(String::from)
        .collect()
}

#[test]
fn every_help_example_runs_and_succeeds() {
    let dir = scratch("help_examples");
    copy_dir(&root().join("examples"), &dir.join("examples"));
    std::fs::write(dir.join("in.txt"), "3\n2\n0 0\n1 1\n").unwrap();
    // A pack folder for `lights pack levels/`.
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::copy(root().join("examples/level-pack.lights"), dir.join("levels/pack.lights")).unwrap();
    let mut ran = 0;
    let mut failures = Vec::new();
    for command in COMMANDS {
        let out = lights(&dir, &[*command, &["--help"]].concat());
        assert_eq!(out.status.code(), Some(0), "lights {command:?} --help");
        for example in examples(&stdout(&out)) {
            // `lights lsp` would wait for a client on standard input.
            if example.starts_with("lights lsp") {
                continue;
            }
            let run = shell_line(&dir, &example);
            ran += 1;
            if !run.status.success() {
                failures.push(format!("{example}\n  exit {:?}\n  {}", run.status.code(), stderr(&run).trim()));
            }
        }
    }
    assert!(failures.is_empty(), "help examples that fail:\n{}", failures.join("\n"));
    assert!(ran >= 30, "only {ran} examples found");
}

#[test]
fn examples_are_found_in_a_help_text() {
    let help = "Usage: lights x\n\nExamples:\n  lights check a   # note\n  printf '1' | lights import coords\n\nMore\n";
    assert_eq!(examples(help), ["lights check a   # note", "printf '1' | lights import coords"]);
}
