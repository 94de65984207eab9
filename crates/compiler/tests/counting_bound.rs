//! The counting bound and the exact-cover search (crates/compiler/src/minimum.rs)
//! on boards whose minimum is known by construction: King boards whose
//! sides are multiples of 3 are tiled by 3×3 presses, one press per light,
//! on every surface and for every W; the 5×5 torus has a perfect code of the
//! cross. Property tests against exhaustive search are in brute_force.rs.

use lights_compiler::check_source;
use lights_compiler::minimum::{counting_bound, exact_cover};
use lights_compiler::model::Puzzle;

fn puzzle(src: &str) -> Puzzle {
    let a = lights_compiler::analyze(src);
    match a.blocks[0].block.as_deref() {
        Some(lights_compiler::block::Block::Lights(p)) => p.clone(),
        _ => panic!("not a lights puzzle: {src}"),
    }
}

fn all_lights(n: usize, w: u32, rule: &str, topology: &str) -> String {
    format!("puzzle \"p\" {{\n  size {n}x{n}\n  states {w}\n  rule {rule}\n  topology {topology}\n  lights on\n}}\n")
}

/// An n×n torus from every light on (W − 1) to every light at `goal`.
fn uniform_goal(n: usize, w: u32, rule: &str, goal: u32) -> String {
    let row = vec![goal.to_string(); n].join(" ");
    let grid = vec![format!("    {row}"); n].join("\n");
    format!("puzzle \"p\" {{\n  size {n}x{n}\n  states {w}\n  rule {rule}\n  topology torus\n  lights on\n  goal {{\n{grid}\n  }}\n}}\n")
}

/// (cost, proven) as `lights check` reports them.
fn minimum(src: &str) -> (u64, bool) {
    let a = check_source(src);
    let r = a.blocks[0].report.as_ref().expect("solved");
    let m = r.as_lights().and_then(|r| r.minimum.as_ref()).expect("a minimum");
    (m.cost, m.optimal)
}

#[test]
fn king_boards_tiled_by_blocks_are_proven_on_every_surface() {
    for topology in ["plane", "cylinder", "torus", "mobius", "klein", "projective"] {
        for w in [2, 3, 4, 6] {
            for n in [9, 18] {
                let src = all_lights(n, w, "king", topology);
                let blocks = (n as u64 / 3).pow(2);
                assert_eq!(counting_bound(&puzzle(&src)), Some(blocks), "{topology} W={w} {n}×{n}");
                assert_eq!(minimum(&src), (blocks, true), "{topology} W={w} {n}×{n}");
            }
        }
    }
}

#[test]
fn the_cover_of_a_perfect_code_is_found_and_meets_the_bound() {
    // Cross on the 5×5 torus: the 5 cells (r, 2r mod 5) reach every light once.
    let src = all_lights(5, 2, "cross", "torus");
    let p = puzzle(&src);
    assert_eq!(counting_bound(&p), Some(5));
    let x = exact_cover(&p, u64::MAX).expect("a perfect code");
    assert_eq!(x.iter().sum::<u32>(), 5);
    assert_eq!(minimum(&src), (5, true));
}

#[test]
fn the_bound_counts_what_each_light_needs_modulo_w() {
    // W = 5, lights 4, goal 1: each light needs +2, so at least two presses
    // reach it; a cross press reaches at most five lights: ⌈2·25/5⌉ = 10.
    let src = uniform_goal(5, 5, "cross", 1);
    let p = puzzle(&src);
    assert_eq!(counting_bound(&p), Some(10));
    // Pressing the perfect code twice meets it.
    assert_eq!(minimum(&src), (10, true));
}

#[test]
fn no_cover_when_a_press_would_overshoot_a_light() {
    // Every light needs +2 (W = 3, lights 2, goal 1): one press gives +1,
    // so no press gives a light exactly its need and there is no cover. The
    // bound: ⌈2·36/9⌉ = 8.
    let src = uniform_goal(6, 3, "king", 1);
    assert_eq!(exact_cover(&puzzle(&src), u64::MAX), None);
    assert_eq!(counting_bound(&puzzle(&src)), Some(8));
}

#[test]
fn a_board_too_large_for_the_patterns_gets_no_bound() {
    let src = all_lights(5000, 2, "cross", "torus");
    assert_eq!(counting_bound(&puzzle(&src)), None);
}
