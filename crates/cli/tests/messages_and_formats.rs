//! Issue 27, "Messages and formats": what a new user and a CI maintainer
//! hit in the messages, the machine formats, `fmt --check`, `man`, the
//! completions and a failed `import` in a pipe.

mod common;
use common::*;

#[test]
fn the_puzzle_line_counts_every_error_printed_above_it() {
    // L0201 (cannot be solved while it claims to be) and L0202 (`expect
    // unique` does not hold): two errors, and the line said "1 error".
    let dir = scratch("count");
    std::fs::write(dir.join("x.lights"), "puzzle \"wrong claim\" {\n  size 5x5\n  lights at 1,1\n  expect unique\n}\n")
        .unwrap();
    let out = lights(&dir, &["check", "x.lights"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert_eq!(text.matches("] Error:").count(), 2, "{text}");
    assert!(text.contains("✗ x.lights: wrong claim: unsolvable · 2 errors\n"), "{text}");
    assert!(text.contains("2 errors in 1 puzzle"), "{text}");
}
