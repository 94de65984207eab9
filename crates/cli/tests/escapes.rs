//! Nothing raw reaches the terminal, from any command: file names, output
//! paths, `--stdin-filename`, puzzle names and `--puzzle` values full of
//! ESC, BEL, CSI, OSC, DEL, C1 controls and U+2028 are shown escaped in
//! every human message and every machine format (JSON writes `\u007f`…).

mod common;
use common::*;

use std::process::Output;

/// Every kind of character a terminal acts on: OSC (set the title, ended
/// by BEL), CSI (clear the screen, colours), DEL, C1 CSI and NEL, the line
/// separator and a lone ESC. (A CR ends a line in a `.lights` file, so it
/// cannot be in a puzzle name: [`CR`] is added to file names.)
const HOSTILE: &str = "\x1b]0;pwned\x07\x1b[2J\x1b[31m\x7f\u{9b}2J\u{85}\u{2028}\x1b";
const CR: &str = "\r";

/// The bytes of `out` (stdout then stderr) that a terminal would act on:
/// below 0x20 but newline and tab, DEL, C1 (UTF-8 `c2 80`…`c2 9f`), and
/// U+2028/U+2029 (`e2 80 a8`/`a9`).
fn raw_controls(out: &Output) -> Vec<String> {
    let mut found = Vec::new();
    for bytes in [&out.stdout, &out.stderr] {
        for (i, &b) in bytes.iter().enumerate() {
            let next = bytes.get(i + 1).copied().unwrap_or(0);
            let c1 = b == 0xc2 && (0x80..=0x9f).contains(&next);
            let separator = b == 0xe2 && next == 0x80 && matches!(bytes.get(i + 2), Some(0xa8 | 0xa9));
            if (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f || c1 || separator {
                let from = i.saturating_sub(30);
                found.push(format!("byte {b:#04x} after {:?}", String::from_utf8_lossy(&bytes[from..i])));
            }
        }
    }
    found
}

fn assert_clean(what: &str, out: &Output) {
    let raw = raw_controls(out);
    assert!(
        raw.is_empty(),
        "{what}: {} raw control characters, first: {}\nstdout: {:?}\nstderr: {:?}",
        raw.len(),
        raw[0],
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A folder with a file whose name and puzzle names hold [`HOSTILE`]: one
/// good puzzle, one with errors; returns the folder and the file's name.
fn hostile_folder(name: &str) -> (std::path::PathBuf, String) {
    let dir = scratch(name);
    let file = format!("e{HOSTILE}{CR}.lights");
    let src = format!(
        "puzzle \"p{HOSTILE}\" {{\n  size 3x3\n  lights {{ 1 . . / . . . / . . . }}\n}}\n\
         puzzle \"q{HOSTILE}\" {{\n  size 2x2\n  lightz at 1,1\n}}\n"
    );
    std::fs::write(dir.join(&file), src).unwrap();
    (dir, file)
}

#[test]
fn no_command_writes_a_raw_control_character() {
    let (dir, file) = hostile_folder("escapes_every_command");
    let f = file.as_str();
    let good = format!("p{HOSTILE}");
    let missing = format!("nope{HOSTILE}");
    let svg = format!("out{HOSTILE}{CR}.svg");
    let png = format!("out{HOSTILE}{CR}.png");
    let generated = format!("gen{HOSTILE}{CR}.lights");
    let coords = format!("in{HOSTILE}{CR}.txt");
    let imported = format!("imp{HOSTILE}{CR}.lights");
    std::fs::write(dir.join(&coords), "3\n0 1\n").unwrap();
    let mut runs: Vec<Vec<&str>> = Vec::new();
    for format in ["human", "concise", "github", "json", "sarif", "junit"] {
        runs.push(vec!["check", "--format", format, f]);
        runs.push(vec!["check", "--format", format, "."]);
    }
    runs.extend([
        vec!["solve", f],
        vec!["solve", "--format", "json", f],
        vec!["solve", "--puzzle", &missing, f],
        vec!["solve", "--puzzle", &good, "--solution-out", &png, f],
        vec!["render", f, "--puzzle", &good, "-o", &svg],
        vec!["render", f, "--puzzle", &missing, "-o", &svg],
        vec!["render", f, "--puzzle", &good, "-o", "-"],
        vec!["compile", f, "--emit", "json"],
        vec!["compile", f, "--puzzle", &missing, "--emit", "json"],
        vec!["compile", f, "--puzzle", &good, "--emit", "json"],
        vec!["compile", f, "--puzzle", &good, "--emit", "sage"],
        vec!["compile", f, "--puzzle", &good, "--emit", "json", "-o", &svg],
        vec!["fmt", "--check", f],
        vec!["fmt", f],
        vec!["generate", "--size", "3x3", "--count", "1", "--seed", "1", "-o", &generated],
        vec!["import", "coords", &coords, "--name", HOSTILE],
        vec!["import", "coords", &coords, "--name", HOSTILE, "-o", &imported],
        vec!["census", "--size", "2x2", "--rule", HOSTILE],
        vec!["census", "--size", "2x2", "--format", "json"],
        vec!["table", "--rows", "1..2", "--rule", HOSTILE],
        vec!["table", "--rows", "1..2", "--format", "json"],
    ]);
    for args in &runs {
        let out = lights(&dir, args);
        assert!(out.status.code().is_some_and(|c| c <= 2), "{args:?} ended by a signal or panicked: {out:?}");
        assert_clean(&format!("lights {args:?}"), &out);
    }
    // Standard input named by --stdin-filename.
    let src = std::fs::read_to_string(dir.join(f)).unwrap();
    for args in [
        vec!["check", "--stdin-filename", HOSTILE, "-"],
        vec!["check", "--format", "json", "--stdin-filename", HOSTILE, "-"],
        vec!["check", "--format", "junit", "--stdin-filename", HOSTILE, "-"],
        vec!["solve", "--stdin-filename", HOSTILE, "-"],
        vec!["render", "--stdin-filename", HOSTILE, "--puzzle", &missing, "-", "-o", &svg],
        vec!["fmt", "--stdin-filename", HOSTILE, "-"],
    ] {
        let out = lights_with_input(&dir, &args, &src);
        assert_clean(&format!("lights {args:?} < file"), &out);
    }
}

#[test]
fn the_named_places_are_still_shown_escaped() {
    // Escaped, not dropped: the messages still name the puzzle and the file.
    let (dir, file) = hostile_folder("escapes_shown");
    let missing = format!("nope{HOSTILE}");
    let out = lights(&dir, &["render", &file, "--puzzle", &missing, "-o", "x.svg"]);
    let err = stderr(&out);
    assert!(err.contains("its puzzles are: \"p\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"), "{err}");
    assert!(err.contains("no puzzle named \"nope\\u{1b}]0;pwned"), "{err}");
    assert!(err.contains("`e\\u{1b}]0;pwned\\u{7}"), "{err}");
    let out = lights(&dir, &["render", &file, "-o", "x.svg"]);
    assert!(stdout(&out)
        .contains("puzzle \"p\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{1b}[31m\\u{7f}\\u{9b}2J\\u{85}\\u{2028}\\u{1b}\""));
    // JSON keeps the exact name once parsed.
    let out = lights(&dir, &["solve", "--format", "json", &file]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json[0]["puzzle"], format!("p{HOSTILE}"));
    assert!(stdout(&out).contains("\\u007f\\u009b2J\\u0085\\u2028"), "{}", stdout(&out));
    let out = lights(&dir, &["compile", &file, "--puzzle", &format!("p{HOSTILE}"), "--emit", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["puzzle"], format!("p{HOSTILE}"));
}

/// `lights play --puzzle` with an unknown name prints the file's puzzles
/// and exits, names and path escaped like every other command's.
#[test]
fn play_lists_its_puzzles_escaped() {
    let (dir, file) = hostile_folder("escapes_play");
    let missing = format!("nope{HOSTILE}");
    let out = lights(&dir, &["play", "--puzzle", &missing, "--no-open", &file]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_clean("lights play --puzzle", &out);
}
