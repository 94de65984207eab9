//! `fmt` and `solve --write` keep a file's byte-order mark and its line
//! endings (LF, CRLF or CR alone), through the real binary: `fmt FILE`,
//! `fmt --check`, `fmt -` and `solve --write`.

mod common;
use common::*;

const MESSY: &str = "puzzle \"a\" {\nsize 2x2\n    lights on\n}\n";
const CANONICAL: &str = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n";

fn variants() -> Vec<(String, &'static str, &'static str)> {
    let mut out = Vec::new();
    for (ending, name) in [("\n", "lf"), ("\r\n", "crlf"), ("\r", "cr")] {
        for bom in ["", "\u{feff}"] {
            out.push((format!("{name}{}", if bom.is_empty() { "" } else { "-bom" }), ending, bom));
        }
    }
    out
}

#[test]
fn fmt_keeps_line_endings_and_the_byte_order_mark() {
    let dir = scratch("line_endings_fmt");
    for (name, ending, bom) in variants() {
        let file = format!("{name}.lights");
        let path = dir.join(&file);
        let want = format!("{bom}{}", CANONICAL.replace('\n', ending));
        std::fs::write(&path, format!("{bom}{}", MESSY.replace('\n', ending))).unwrap();

        let out = lights(&dir, &["fmt", "--check", &file]);
        assert_eq!(out.status.code(), Some(1), "{name}: a messy file must be listed");
        let out = lights(&dir, &["fmt", &file]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), want, "{name}: fmt FILE");
        // Once formatted, --check agrees it is (the endings are not a change).
        let out = lights(&dir, &["fmt", "--check", &file]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}{}", stdout(&out), stderr(&out));

        let out = lights_with_input(&dir, &["fmt", "-"], &format!("{bom}{}", MESSY.replace('\n', ending)));
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(stdout(&out), want, "{name}: fmt -");
    }
}

#[test]
fn solve_write_keeps_line_endings_and_the_byte_order_mark() {
    let dir = scratch("line_endings_solve");
    for (name, ending, bom) in variants() {
        let file = format!("{name}.lights");
        let path = dir.join(&file);
        std::fs::write(&path, format!("{bom}{}", CANONICAL.replace('\n', ending))).unwrap();
        let out = lights(&dir, &["solve", "--write", &file]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("solution"), "{name}: {text:?}");
        assert_eq!(text.starts_with('\u{feff}'), !bom.is_empty(), "{name}: the byte-order mark");
        let others = text.replace(ending, "");
        assert!(!others.contains(['\r', '\n']), "{name}: a line ending other than {ending:?} in {text:?}");
    }
}
