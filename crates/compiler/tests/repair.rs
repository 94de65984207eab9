//! `make_solvable` against brute force: on small boards of every rule,
//! topology and modulus, the change it offers makes the puzzle solvable,
//! and no smaller change would.

use lights_compiler::repair::make_solvable;
use lights_compiler::solve::solve;
use lights_compiler::{analyze, Puzzle};
use proptest::prelude::*;

const RULES: [&str; 4] = ["cross", "king", "flip", "merlin"];
const TOPOLOGIES: [&str; 6] = ["plane", "cylinder", "torus", "mobius", "klein", "projective"];
const MODULI: [u32; 6] = [2, 3, 4, 5, 6, 9];

fn model(rows: usize, cols: usize, w: u32, rule: &str, topology: &str, lights: &[u32], locked: &[bool]) -> Puzzle {
    let grid = |f: &dyn Fn(usize) -> String| -> String {
        (0..rows)
            .map(|r| format!("    {}\n", (0..cols).map(|c| f(r * cols + c)).collect::<Vec<_>>().join(" ")))
            .collect()
    };
    let text = format!(
        "puzzle \"p\" {{\n  size {rows}x{cols}\n  states {w}\n  rule {rule}\n  topology {topology}\n  lights {{\n{}  }}\n  locked {{\n{}  }}\n  expect unsolvable\n}}\n",
        grid(&|i| lights[i].to_string()),
        grid(&|i| if locked[i] { "x".into() } else { ".".into() }),
    );
    let analysis = analyze(&text);
    analysis.blocks[0].puzzle().cloned().unwrap_or_else(|| panic!("{text}\n{:?}", analysis.blocks[0].diagnostics))
}

fn solvable(p: &Puzzle) -> bool {
    solve(p, &|| false).unwrap().solvable
}

fn with_changes(p: &Puzzle, changes: &[(usize, u32)]) -> Puzzle {
    let mut q = p.clone();
    for &(i, v) in changes {
        q.lights.set(i, v as u16);
    }
    q
}

fn fixable_with_one(p: &Puzzle) -> bool {
    (0..p.cells())
        .any(|i| (0..p.states).any(|v| v != u32::from(p.lights.get(i)) && solvable(&with_changes(p, &[(i, v)]))))
}

fn fixable_with_two(p: &Puzzle) -> bool {
    let w = p.states;
    (0..p.cells()).any(|i| {
        (i + 1..p.cells()).any(|j| {
            (1..w).any(|di| {
                (1..w).any(|dj| {
                    let vi = (u32::from(p.lights.get(i)) + di) % w;
                    let vj = (u32::from(p.lights.get(j)) + dj) % w;
                    solvable(&with_changes(p, &[(i, vi), (j, vj)]))
                })
            })
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_offered_change_works_and_is_smallest(
        rows in 1usize..4, cols in 1usize..4,
        wi in 0usize..MODULI.len(), ri in 0usize..RULES.len(), ti in 0usize..TOPOLOGIES.len(),
        seed in proptest::collection::vec(0u32..1000, 9),
        lock in proptest::collection::vec(0u32..5, 9),
    ) {
        let w = MODULI[wi];
        let n = rows * cols;
        let lights: Vec<u32> = seed[..n].iter().map(|s| s % w).collect();
        let locked: Vec<bool> = lock[..n].iter().map(|&l| l == 0).collect();
        let p = model(rows, cols, w, RULES[ri], TOPOLOGIES[ti], &lights, &locked);
        let offered = make_solvable(&p, &|| false);
        if solvable(&p) {
            prop_assert!(offered.is_none());
            return Ok(());
        }
        match offered {
            Some(changes) => {
                prop_assert!(!changes.is_empty() && changes.len() <= 2);
                for c in &changes {
                    prop_assert_eq!(c.from, u32::from(p.lights.get(c.index)));
                    prop_assert!(c.to != c.from && c.to < w);
                }
                let fixed: Vec<(usize, u32)> = changes.iter().map(|c| (c.index, c.to)).collect();
                prop_assert!(solvable(&with_changes(&p, &fixed)), "the offered change does not work");
                if changes.len() == 2 {
                    prop_assert!(!fixable_with_one(&p), "one cell would have done");
                }
            }
            None => {
                prop_assert!(!fixable_with_one(&p) && !fixable_with_two(&p), "a fix of at most two cells exists");
            }
        }
    }
}
