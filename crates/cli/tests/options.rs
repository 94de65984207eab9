//! Options every command shares, through the real binary: `--color`
//! (and `FORCE_COLOR` / `NO_COLOR`), `-q`, and counts written in words.

mod common;
use common::*;

use std::process::Command;

fn run(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lights"));
    cmd.args(args).current_dir(dir).env_remove("NO_COLOR").env_remove("FORCE_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    String::from_utf8(cmd.output().expect("run lights").stdout).expect("UTF-8")
}

#[test]
fn color_follows_the_flag_then_force_color_then_no_color() {
    let dir = scratch("options_color");
    std::fs::write(dir.join("bad.lights"), "puzzle \"a\" {\n  size 2x2\n  lights { 1 ? / . . }\n}\n").unwrap();
    let colored = |s: &str| s.contains("\x1b[");
    // Not a terminal: no colour by default.
    assert!(!colored(&run(&dir, &["check", "bad.lights"], &[])));
    assert!(colored(&run(&dir, &["check", "bad.lights", "--color", "always"], &[])));
    assert!(colored(&run(&dir, &["--color", "always", "check", "bad.lights"], &[])), "--color is global");
    assert!(colored(&run(&dir, &["check", "bad.lights"], &[("FORCE_COLOR", "1")])));
    assert!(!colored(&run(&dir, &["check", "bad.lights"], &[("FORCE_COLOR", "0")])));
    assert!(!colored(&run(&dir, &["check", "bad.lights", "--color", "never"], &[("FORCE_COLOR", "1")])));
    assert!(colored(&run(&dir, &["check", "bad.lights", "--color", "always"], &[("NO_COLOR", "1")])));
}

#[test]
fn quiet_prints_nothing_when_all_is_fine_and_counts_are_words() {
    let dir = scratch("options_quiet");
    std::fs::write(dir.join("ok.lights"), "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n").unwrap();
    std::fs::write(dir.join("two.lights"), "puzzle \"b\" {\n  size 3x3\n}\npuzzle \"c\" {\n  size 4x4\n}\n").unwrap();
    let out = lights(&dir, &["check", "-q", "ok.lights"]);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), ""));
    let out = lights(&dir, &["check", "ok.lights"]);
    assert!(stdout(&out).ends_with("checked 1 puzzle in 1 file: all fine\n"), "{}", stdout(&out));
    let out = lights(&dir, &["check", "."]);
    assert!(stdout(&out).ends_with("checked 3 puzzles in 2 files: all fine\n"), "{}", stdout(&out));
}
