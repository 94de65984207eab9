//! Formatting is idempotent and preserves the meaning of generated puzzles
//! and sliding puzzles.

use lights_compiler::model::Puzzle;
use lights_compiler::sliding::SlidingPuzzle;
use lights_compiler::Block;
use lights_compiler::BlockAnalysis;
use proptest::prelude::*;

/// What a puzzle means, without where it was written.
fn meaning(p: &Puzzle) -> String {
    let sol = p.header.solution.as_ref().map(|s| s.presses.to_vec());
    format!(
        "{:?}",
        (
            &p.header.name,
            p.rows,
            p.cols,
            p.states,
            &p.rule,
            p.topology,
            p.lights.to_vec(),
            p.goal.to_vec(),
            p.locked.iter().map(|l| l != 0).collect::<Vec<_>>(),
            p.header.expects.iter().map(|e| e.claim.clone()).collect::<Vec<_>>(),
            sol
        )
    )
}

/// What a sliding puzzle means, without where it was written.
fn sliding_meaning(p: &SlidingPuzzle) -> String {
    format!(
        "{:?}",
        (
            &p.header.name,
            p.rows,
            p.cols,
            &p.tiles,
            &p.goal,
            p.goal_is_default,
            p.header.expects.iter().map(|e| e.claim).collect::<Vec<_>>(),
            p.header.solution.as_ref().map(|s| &s.moves)
        )
    )
}

fn block_meaning(p: &BlockAnalysis) -> String {
    match p.block.as_deref() {
        Some(Block::Lights(m)) => meaning(m),
        Some(Block::Sliding(s)) => sliding_meaning(s),
        None => panic!("a valid block has a model: {:?}", p.name),
    }
}

fn models(src: &str) -> Vec<String> {
    let a = lights_compiler::analyze(src);
    assert!(a.all_diagnostics().is_empty(), "generated file has errors:\n{src}\n{:?}", a.all_diagnostics());
    a.blocks.iter().map(block_meaning).collect()
}

/// A value of a grid written in a random style.
fn grid_text(rows: usize, cols: usize, cells: &[String], compact: bool, pad: &str) -> String {
    let mut s = String::from("{\n");
    for r in 0..rows {
        let row = &cells[r * cols..(r + 1) * cols];
        let line = if compact && cols > 1 && row.iter().all(|c| c.len() == 1) { row.concat() } else { row.join(pad) };
        s.push_str(&format!("{pad}{line}\n"));
    }
    s.push('}');
    s
}

fn puzzle_text() -> impl Strategy<Value = String> {
    (1usize..6, 1usize..40, prop::sample::select(vec![2u32, 3, 6, 12]), any::<bool>(), any::<bool>(), any::<u64>())
        .prop_map(|(rows, cols, w, compact, comments, seed)| {
            let mut rng = seed;
            let mut next = move |m: u64| {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (rng >> 33) % m
            };
            let cells: Vec<String> =
                (0..rows * cols).map(|_| match next(w as u64) { 0 => ".".into(), v => v.to_string() }).collect();
            let mask: Vec<String> = (0..rows * cols).map(|_| if next(5) == 0 { "x".into() } else { ".".into() }).collect();
            let pad = if next(2) == 0 { " " } else { "   " };
            let c = |t: &str| if comments { format!(" // {t}") } else { String::new() };
            let topo = ["plane", "torus", "klein", "cross-cap"][next(4) as usize];
            let rule = ["cross", "king", "merlin", "flip"][next(4) as usize];
            format!(
                "{}puzzle \"p{seed}\" {{{}\n{pad}size {rows} x {cols}\nstates {w}{}\n  topology {topo}\n rule {rule}\n\n\n  lights {}\n locked {}{}\n goal at 1,1:1\n expect solvable\n}}\n",
                if comments { "// lead\n" } else { "" },
                c("head"),
                c("states"),
                grid_text(rows, cols, &cells, compact, pad),
                grid_text(rows, cols, &mask, !compact, pad),
                c("after mask"),
            )
        })
}

/// A sliding block written in a random style: tiles and an optional goal
/// (random arrangements of the same tiles), compact rows where every tile is
/// one digit, claims, a solution with spaces, comments.
fn sliding_text() -> impl Strategy<Value = String> {
    (2usize..6, 2usize..7, any::<bool>(), any::<bool>(), any::<bool>(), any::<u64>()).prop_map(
        |(rows, cols, compact, comments, goal, seed)| {
            let mut rng = seed;
            let mut next = move |m: u64| {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (rng >> 33) % m
            };
            let n = rows * cols;
            let shuffled = |next: &mut dyn FnMut(u64) -> u64| {
                let mut cells: Vec<String> =
                    (0..n).map(|t| if t == 0 { ".".to_string() } else { t.to_string() }).collect();
                for i in (1..n).rev() {
                    cells.swap(i, next(i as u64 + 1) as usize);
                }
                cells
            };
            let tiles = shuffled(&mut next);
            let goal_cells = shuffled(&mut next);
            let pad = if next(2) == 0 { " " } else { "   " };
            let c = |t: &str| if comments { format!(" // {t}") } else { String::new() };
            let claim = ["expect solvable", "expect unsolvable", "expect   moves 031", "expect moves 0"][next(4) as usize];
            let moves: String = (0..next(12))
                .map(|i| {
                    let m = ["U", "D", "L", "R"][next(4) as usize];
                    if i % 4 == 3 { format!("{m} ") } else { m.to_string() }
                })
                .collect();
            format!(
                "{}sliding \"s{seed}\" {{{}\n{pad}size {rows} x {cols}\n  tiles {}{}\n{}\n {claim}\n solution  \"{moves}\"{}\n}}\n",
                if comments { "// lead\n" } else { "" },
                c("head"),
                grid_text(rows, cols, &tiles, compact, pad),
                c("after tiles"),
                if goal { format!("  goal {}", grid_text(rows, cols, &goal_cells, !compact, pad)) } else { String::new() },
                c("moves"),
            )
        },
    )
}

/// A block of either kind.
fn block_text() -> impl Strategy<Value = String> {
    prop_oneof![puzzle_text(), sliding_text()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn formatting_is_idempotent_and_keeps_the_model(a in block_text(), b in block_text()) {
        let src = format!("{a}\n{b}");
        let once = lights_syntax::format_source(&src).expect("generated files parse");
        let twice = lights_syntax::format_source(&once).expect("formatted files parse");
        prop_assert_eq!(&once, &twice);
        prop_assert_eq!(models(&src), models(&once));
        // Comments survive.
        prop_assert_eq!(src.matches("//").count(), once.matches("//").count());
    }
}
