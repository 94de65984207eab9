//! The regression table of issue 28: every solvable 48×48 All Lights board
//! (every rule × surface × W ∈ {2, 3, 4, 5, 6, 12}) answers at least as well
//! as `tests/data/minimum-48.txt` records — no more presses, no lower bound —
//! with the default work budget. The budget is counted work, not time, so
//! the answers are the same in a debug build and on any machine.

use lights_compiler::check_source;

struct Row {
    name: String,
    cost: u64,
    bound: u64,
}

fn table() -> Vec<(String, Row)> {
    let text = include_str!("data/minimum-48.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 7, "bad line: {l}");
            let src = format!(
                "puzzle \"p\" {{\n  size 48x48\n  states {}\n  rule {}\n  topology {}\n  lights on\n}}\n",
                f[2], f[0], f[1]
            );
            let row = Row {
                name: format!("{} {} W={}", f[0], f[1], f[2]),
                cost: f[5].parse().unwrap(),
                bound: f[6].parse().unwrap(),
            };
            (src, row)
        })
        .collect()
}

#[test]
fn no_48_by_48_board_answers_worse_than_the_table() {
    let rows = table();
    assert_eq!(rows.len(), 135, "the 135 solvable boards");
    let answers: Vec<(u64, u64)> = std::thread::scope(|s| {
        let halves: Vec<_> = rows
            .chunks(rows.len().div_ceil(2))
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(src, _)| {
                            let a = check_source(src);
                            let r = a.blocks[0].report.as_ref().and_then(|r| r.as_lights()).expect("solved");
                            let m = r.minimum.as_ref().expect("solvable");
                            (m.cost, m.lower_bound)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut worse = Vec::new();
    for ((_, row), (cost, bound)) in rows.iter().zip(&answers) {
        if *cost > row.cost || *bound < row.bound {
            worse.push(format!(
                "{}: {cost} presses, at least {bound} (table: {}, at least {})",
                row.name, row.cost, row.bound
            ));
        }
    }
    let proven = answers.iter().filter(|(c, b)| c == b).count();
    eprintln!("{proven} of 135 proven");
    assert!(worse.is_empty(), "answers worse than tests/data/minimum-48.txt:\n{}", worse.join("\n"));
}
