//! Every `expect` line is verified whatever else the block claims and
//! whatever the outcome: each claim kind × each outcome (unsolvable, one
//! solution, several), alone and beside `expect unsolvable` or `expect
//! solutions 0`. The truth comes from enumerating every press vector of the
//! tiny boards, not from the solver.

use lights_compiler::{check_source, Severity};

/// A 2×2 cross board with `states` states and the given lights (row-major).
fn board(states: u32, lights: [u32; 4]) -> String {
    let cell = |v: u32| if v == 0 { ".".to_string() } else { v.to_string() };
    format!(
        "  size 2x2\n  states {states}\n  lights {{\n    {} {}\n    {} {}\n  }}\n",
        cell(lights[0]),
        cell(lights[1]),
        cell(lights[2]),
        cell(lights[3])
    )
}

/// (number of solutions, fewest presses) by trying every press vector.
fn brute_force(states: u32, lights: [u32; 4]) -> (u64, Option<u64>) {
    let w = u64::from(states);
    let (mut count, mut best) = (0, None::<u64>);
    for code in 0..w.pow(4) {
        let x: Vec<u64> = (0..4).map(|i| code / w.pow(i) % w).collect();
        // On 2×2 the cross covers the cell, the one beside it and the one above or below.
        let covered = |cell: usize| x[cell] + x[cell ^ 1] + x[cell ^ 2];
        if (0..4).all(|c| (u64::from(lights[c]) + covered(c)) % w == 0) {
            count += 1;
            let presses: u64 = x.iter().sum();
            best = Some(best.map_or(presses, |b| b.min(presses)));
        }
    }
    (count, best)
}

/// Whether `claim` is true of a board with `count` solutions and minimum `best`.
fn truth(claim: &str, count: u64, best: Option<u64>) -> bool {
    let words: Vec<&str> = claim.split_whitespace().collect();
    match words.as_slice() {
        ["solvable"] => count > 0,
        ["unsolvable"] => count == 0,
        ["unique"] => count == 1,
        ["solutions", n] => n.parse::<u64>().unwrap() == count,
        ["presses", n] => best == Some(n.parse().unwrap()),
        _ => panic!("unknown claim {claim}"),
    }
}

/// The 1-based lines with an L0202 error.
fn failed_claim_lines(src: &str) -> Vec<usize> {
    let analysis = check_source(src);
    let mut lines: Vec<usize> = analysis
        .blocks
        .iter()
        .flat_map(|p| &p.diagnostics)
        .filter(|d| d.code.as_str() == "L0202")
        .inspect(|d| assert_eq!(d.severity, Severity::Error))
        .map(|d| src[..d.span.start].matches('\n').count() + 1)
        .collect();
    lines.sort_unstable();
    lines
}

#[test]
fn every_claim_is_checked_beside_every_other_on_every_outcome() {
    // Between them: unsolvable boards, a unique solution and several (the
    // brute force says which is which; the test below requires all three).
    let boards: [(u32, [u32; 4]); 5] =
        [(3, [2, 2, 2, 2]), (6, [1, 0, 0, 0]), (2, [1, 0, 0, 0]), (6, [3, 3, 3, 3]), (4, [2, 0, 0, 2])];
    let mut checked = 0;
    let counts: Vec<u64> = boards.iter().map(|&(w, l)| brute_force(w, l).0).collect();
    assert!(counts.contains(&0) && counts.contains(&1) && counts.iter().any(|&c| c > 1), "{counts:?}");
    for (states, lights) in boards {
        let (count, best) = brute_force(states, lights);
        let mut claims = vec!["solvable".to_string(), "unsolvable".into(), "unique".into()];
        for n in [0, 1, 2, 3, count, count + 1] {
            claims.push(format!("solutions {n}"));
        }
        for n in [0, 1, 4, best.unwrap_or(3), best.unwrap_or(3) + 1] {
            claims.push(format!("presses {n}"));
        }
        for companion in [None, Some("unsolvable"), Some("solutions 0")] {
            for claim in &claims {
                let mut src = format!("puzzle \"p\" {{\n{}", board(states, lights));
                let mut expected = Vec::new();
                let first_line = src.matches('\n').count() + 1;
                let lines = companion.iter().map(std::string::ToString::to_string).chain([claim.clone()]);
                for (line, c) in (first_line..).zip(lines) {
                    src.push_str(&format!("  expect {c}\n"));
                    if !truth(&c, count, best) {
                        expected.push(line);
                    }
                }
                src.push_str("}\n");
                assert_eq!(failed_claim_lines(&src), expected, "{count} solutions, minimum {best:?}:\n{src}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100);
}

#[test]
fn a_false_claim_beside_expect_unsolvable_says_why() {
    let src = "puzzle \"u\" {\n  size 2x2\n  states 6\n  lights on\n  expect unsolvable\n  expect solvable\n  expect unique\n}\n";
    let analysis = check_source(src);
    let messages: Vec<&str> = analysis.blocks[0].diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`expect solvable` does not hold: the puzzle has no solution",
            "`expect unique` does not hold: the puzzle has no solution"
        ]
    );
}
