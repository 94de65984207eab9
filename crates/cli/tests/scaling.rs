//! Work that grows with the input, not its square, through the real binary.
//! Each test compares two runs on the same machine (the faster of a few
//! each), never an absolute time, and the inputs are far apart in size so
//! that noise cannot pass for a square, nor a square for noise. A ratio
//! of 2.7 for twice the input once failed in CI on a linear run. (Columns of many
//! diagnostics on one line: the unit test
//! `formats::tests::places_on_one_long_line_take_time_linear_in_their_number`.)

mod common;
use common::*;

use std::path::Path;
use std::time::{Duration, Instant};

/// The tests of this file run one at a time: a ratio of times means
/// nothing while another test shares the cores.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The fastest of three runs of `lights args` in `dir`, which must exit with `code`.
fn fastest(dir: &Path, args: &[&str], code: i32) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            let out = lights(dir, args);
            let took = t.elapsed();
            assert_eq!(out.status.code(), Some(code), "lights {args:?}: {}", stderr(&out));
            took
        })
        .min()
        .unwrap_or_default()
}

/// `n` tiny puzzles, each named.
fn many_puzzles(n: usize) -> String {
    (0..n).map(|i| format!("puzzle \"p{i}\" {{ size 1x1 lights {{ . }} }}\n")).collect()
}

#[test]
fn solve_takes_time_linear_in_the_number_of_blocks() {
    // Each block was looked up in a list of the selected ones: 200,000 tiny
    // puzzles took 14 s against `check`'s 2.5 s (in a debug build, 20,000
    // took 5.1 s and 10,000 1.7 s: 2,500 and 40,000 would take about 0.27 s
    // and 17 s, 64 times as long; linear, they take 16 to 18 times as long,
    // 0.06 s and 1 s on a quiet machine). The bound lies between, about a
    // factor of two from each.
    let _alone = ONE_AT_A_TIME.lock();
    let dir = scratch("scaling_solve");
    std::fs::write(dir.join("n.lights"), many_puzzles(2_500)).unwrap();
    std::fs::write(dir.join("16n.lights"), many_puzzles(40_000)).unwrap();
    let small = fastest(&dir, &["solve", "n.lights"], 0);
    let large = fastest(&dir, &["solve", "16n.lights"], 0);
    assert!(large < small.mul_f64(32.0), "2,500 blocks: {small:?}; 40,000 blocks: {large:?}");
}

#[test]
fn a_png_too_large_for_its_name_is_refused_before_its_text_is_laid_out() {
    // A 200,000-character name makes a picture millions of pixels wide: it
    // is refused on its size, before the name is laid out in fonts.
    let _alone = ONE_AT_A_TIME.lock();
    let dir = scratch("scaling_png_name");
    let name = "ab c".repeat(50_000);
    std::fs::write(dir.join("a.lights"), format!("puzzle \"{name}\" {{ size 2x2 lights {{ 1 . / . . }} }}\n")).unwrap();
    let out = lights(&dir, &["render", "a.lights", "-o", "a.png"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("pixels, more than the 100000000 a PNG may have"), "{}", &stderr(&out)[..300]);
    assert!(!dir.join("a.png").exists());
    // The SVG of the same puzzle, which lays nothing out, as the yardstick.
    // Both take the process's start and the parse (about 70 ms in a debug
    // build); the fastest of three each, so one slow start fails nothing.
    let took = fastest(&dir, &["render", "a.lights", "-o", "a.png"], 2);
    let svg = fastest(&dir, &["render", "a.lights", "-o", "a.svg"], 0);
    assert!(took < svg.mul_f64(3.0), "PNG refused after {took:?}; the SVG written in {svg:?}");
}
