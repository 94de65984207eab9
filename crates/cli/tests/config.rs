//! `lights.toml`, inline `// lights: allow` comments, `--max-warnings` and
//! `--deny-warnings`, through the real binary.

mod common;
use common::*;

use std::path::{Path, PathBuf};

/// A folder outside the repository (whose own files must not apply).
fn project(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lights-config-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A warning (L0009: no puzzle) and an error (L0202: a false claim).
const EMPTY: &str = "// nothing yet\n";
const FALSE_CLAIM: &str = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect unique\n}\n";

fn concise(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = lights(dir, &[&["check", "--format", "concise"], args].concat());
    (out.status.code(), stdout(&out), stderr(&out))
}

#[test]
fn severity_can_raise_lower_or_silence_a_code() {
    let dir = project("severity");
    write(&dir, "levels/empty.lights", EMPTY);
    write(&dir, "levels/claim.lights", FALSE_CLAIM);
    let (code, out, _) = concise(&dir, &["levels"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("warning[L0009]") && out.contains("error[L0202]"), "{out}");

    write(&dir, "lights.toml", "[severity]\nL0009 = \"error\"\nL0202 = \"off\"\n");
    let (code, out, _) = concise(&dir, &["levels"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("error[L0009]") && !out.contains("L0202"), "{out}");

    write(&dir, "lights.toml", "[severity]\nL0202 = \"warning\"\n");
    let (code, out, _) = concise(&dir, &["levels"]);
    assert_eq!(code, Some(0), "only warnings now: {out}");
    // The nearest lights.toml wins: one in the folder itself.
    write(&dir, "levels/lights.toml", "[severity]\nL0009 = \"off\"\n");
    let (_, out, _) = concise(&dir, &["levels"]);
    assert!(!out.contains("L0009") && out.contains("error[L0202]"), "{out}");
    // --config names one for every file.
    let (_, out, _) = concise(&dir, &["levels", "--config", "lights.toml"]);
    assert!(out.contains("warning[L0009]") && out.contains("warning[L0202]"), "{out}");
}

#[test]
fn include_and_exclude_filter_folder_walks_but_not_named_files() {
    let dir = project("include");
    write(&dir, "levels/a.lights", FALSE_CLAIM);
    write(&dir, "levels/drafts/b.lights", FALSE_CLAIM);
    write(&dir, "other/c.lights", FALSE_CLAIM);
    write(&dir, "lights.toml", "include = [\"levels/**\"]\nexclude = [\"**/drafts/**\"]\n");
    let (_, out, _) = concise(&dir, &["."]);
    assert!(out.contains("levels/a.lights") && !out.contains("drafts") && !out.contains("other/"), "{out}");
    let (_, out, _) = concise(&dir, &["levels/drafts/b.lights"]);
    assert!(out.contains("levels/drafts/b.lights"), "a named file is always checked: {out}");
}

#[test]
fn warnings_can_fail_a_run() {
    let dir = project("warnings");
    write(&dir, "a.lights", EMPTY);
    write(&dir, "b.lights", EMPTY);
    assert_eq!(concise(&dir, &["."]).0, Some(0));
    let (code, _, err) = concise(&dir, &[".", "--max-warnings", "1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("2 warnings, more than the 1 allowed"), "{err}");
    assert_eq!(concise(&dir, &[".", "--max-warnings", "2"]).0, Some(0));
    assert_eq!(concise(&dir, &[".", "--deny-warnings"]).0, Some(1));
    write(&dir, "lights.toml", "max-warnings = 0\n");
    assert_eq!(concise(&dir, &["."]).0, Some(1));
}

#[test]
fn a_bad_configuration_is_a_usage_error() {
    let dir = project("bad");
    write(&dir, "a.lights", FALSE_CLAIM);
    write(&dir, "lights.toml", "max_warnings = 3\n");
    let (code, out, err) = concise(&dir, &["."]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("lights.toml") && err.contains("unknown field `max_warnings`"), "{err}");
    write(&dir, "lights.toml", "[severity]\nL0666 = \"off\"\n");
    let (code, _, err) = concise(&dir, &["."]);
    assert_eq!(code, Some(2));
    assert!(err.contains("`L0666` is not a diagnostic code"), "{err}");
}

#[test]
fn the_solver_time_budget_makes_a_slow_puzzle_l0301() {
    let dir = project("budget");
    // A board whose minimum search spends its whole budget (unproven).
    write(&dir, "big.lights", "puzzle \"t\" {\n  size 48x48\n  states 3\n  topology torus\n  lights on\n}\n");
    assert_eq!(concise(&dir, &["big.lights"]).1.lines().count(), 1, "solved without a budget");
    write(&dir, "lights.toml", "[solver]\ntime-budget-ms = 1\n");
    let (code, out, _) = concise(&dir, &["big.lights"]);
    assert_eq!(code, Some(0), "a warning: {out}");
    assert!(out.contains("warning[L0301] puzzle \"t\" was not solved within the time budget of 1 ms"), "{out}");
    write(&dir, "lights.toml", "[solver]\ntime-budget-ms = 1\n[severity]\nL0301 = \"error\"\n");
    assert_eq!(concise(&dir, &["big.lights"]).0, Some(1));
}

#[test]
fn an_allow_comment_silences_a_code_in_the_cli_too() {
    let dir = project("allow");
    let allowed = FALSE_CLAIM.replace("  expect unique", "  // lights: allow L0202\n  expect unique");
    write(&dir, "a.lights", &allowed);
    let (code, out, _) = concise(&dir, &["a.lights"]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn an_allow_comment_at_the_end_of_the_line_silences_a_code_in_the_cli() {
    let dir = project("allow-same-line");
    write(&dir, "a.lights", &FALSE_CLAIM.replace("  expect unique", "  expect unique  // lights: allow L0202"));
    let (code, out, _) = concise(&dir, &["a.lights"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("L0202"), "{out}");
    // On another line it silences nothing.
    write(&dir, "b.lights", &FALSE_CLAIM.replace("  lights on", "  lights on  // lights: allow L0202"));
    let (code, out, _) = concise(&dir, &["b.lights"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("error[L0202]"), "{out}");
}
