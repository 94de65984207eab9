//! Replays every input kept in `fuzz/regressions/<target>/` through the
//! property of that target, on stable, in `cargo test`: each crash the
//! fuzzers found stays fixed. (Also the seeds of the findings that led to
//! the fuzzers: control characters, pathological braces, CRLF, …)

use std::path::{Path, PathBuf};

fn regressions(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    files
}

fn replay(target: &str, property: fn(&[u8])) {
    for file in regressions(target) {
        let data = std::fs::read(&file).expect("read");
        let outcome = std::panic::catch_unwind(|| property(&data));
        assert!(outcome.is_ok(), "{target}: {} fails again", file.display());
    }
}

#[test]
fn parse() {
    replay("parse", lights_fuzz_checks::parse);
}

#[test]
fn check() {
    replay("check", lights_fuzz_checks::check);
}

#[test]
fn format() {
    replay("format", lights_fuzz_checks::format);
}

#[test]
fn actions() {
    replay("actions", lights_fuzz_checks::actions);
}

#[test]
fn lsp() {
    replay("lsp", lights_fuzz_checks::lsp);
}

/// The examples pass every property (they are the fuzzers' seeds).
#[test]
fn examples() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for entry in std::fs::read_dir(dir).expect("examples") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "lights") {
            let data = std::fs::read(&path).expect("read");
            lights_fuzz_checks::parse(&data);
            lights_fuzz_checks::check(&data);
            lights_fuzz_checks::format(&data);
            lights_fuzz_checks::actions(&data);
        }
    }
}
