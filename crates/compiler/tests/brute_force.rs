//! The solver against exhaustive enumeration on tiny boards: every rule ×
//! every topology × W ∈ {2, 3, 4, 5, 6, 8, 9, 12}, random lights, goals and
//! locked cells. The press patterns here are re-derived from docs/language.md
//! independently of `lower.rs` (lines are followed across the surface by
//! repeated steps, flip as "the whole line through the cell"), so a lowering
//! bug cannot hide behind a shared helper.

use lights_compiler::model::{Board, Puzzle, Rule, Stencil, Topology};
use lights_compiler::solve::solve;
use num_bigint::BigUint;
use proptest::prelude::*;

/// Writes one stencil entry's effect (see `reference_press`).
type Put<'a> = dyn FnMut(Option<(usize, usize)>, u32, &mut Vec<u32>) + 'a;

const MODULI: [u32; 8] = [2, 3, 4, 5, 6, 8, 9, 12];
const TOPOLOGIES: [Topology; 6] =
    [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective];

/// Map a position through the gluings one border crossing at a time.
fn reference_map(t: Topology, rows: i64, cols: i64, mut r: i64, mut c: i64) -> Option<(usize, usize)> {
    let (col_glued, col_twist) = match t {
        Topology::Plane => (false, false),
        Topology::Cylinder | Topology::Torus | Topology::Klein => (true, false),
        Topology::Mobius | Topology::Projective => (true, true),
    };
    let (row_glued, row_twist) = match t {
        Topology::Plane | Topology::Cylinder | Topology::Mobius => (false, false),
        Topology::Torus => (true, false),
        Topology::Klein | Topology::Projective => (true, true),
    };
    while c < 0 || c >= cols {
        if !col_glued {
            return None;
        }
        c += if c < 0 { cols } else { -cols };
        if col_twist {
            r = rows - 1 - r;
        }
    }
    while r < 0 || r >= rows {
        if !row_glued {
            return None;
        }
        r += if r < 0 { rows } else { -rows };
        if row_twist {
            c = cols - 1 - c;
        }
    }
    Some((r as usize, c as usize))
}

/// What a press at (r, c) adds to each cell, from the language reference.
fn reference_press(p: &Puzzle, r: usize, c: usize) -> Vec<u32> {
    let (rows, cols) = (p.rows as i64, p.cols as i64);
    let mut effect = vec![0u32; p.cells()];
    let mut touched = vec![false; p.cells()];
    let mut put = |cell: Option<(usize, usize)>, w: u32, effect: &mut Vec<u32>| {
        if let Some((tr, tc)) = cell {
            let i = tr * p.cols + tc;
            if w != 0 && !touched[i] {
                touched[i] = true;
                effect[i] = w % p.states;
            }
        }
    };
    let (ri, ci) = (r as i64, c as i64);
    let stencil = |weights: Vec<Vec<u32>>, effect: &mut Vec<u32>, put: &mut Put| {
        let (h, w) = (weights.len() as i64, weights[0].len() as i64);
        let mut entries = Vec::new();
        for (i, row) in weights.iter().enumerate() {
            for (j, &wt) in row.iter().enumerate() {
                entries.push((i as i64 - h / 2, j as i64 - w / 2, wt));
            }
        }
        entries.sort_by_key(|&(dr, dc, _)| (dr * dr + dc * dc, dr, dc));
        for (dr, dc, wt) in entries {
            put(reference_map(p.topology, rows, cols, ri + dr, ci + dc), wt, effect);
        }
    };
    match &p.rule {
        Rule::Cross => stencil(vec![vec![0, 1, 0], vec![1, 1, 1], vec![0, 1, 0]], &mut effect, &mut put),
        Rule::King => stencil(vec![vec![1; 3]; 3], &mut effect, &mut put),
        Rule::Ring => stencil(vec![vec![0, 1, 0], vec![1, 0, 1], vec![0, 1, 0]], &mut effect, &mut put),
        Rule::Stencil(s) => stencil(s.weights.chunks(s.cols).map(<[u32]>::to_vec).collect(), &mut effect, &mut put),
        Rule::Flip => {
            // Every cell reached by walking along the row or column through
            // the cell, across the surface, for a full period (2 laps).
            for k in -2 * cols..2 * cols {
                put(reference_map(p.topology, rows, cols, ri, ci + k), 1, &mut effect);
            }
            for k in -2 * rows..2 * rows {
                put(reference_map(p.topology, rows, cols, ri + k, ci), 1, &mut effect);
            }
        }
        Rule::Merlin => {
            let open_rows = matches!(p.topology, Topology::Plane | Topology::Cylinder | Topology::Mobius);
            let open_cols = p.topology == Topology::Plane;
            let on_row_border = open_rows && (ri == 0 || ri == rows - 1);
            let on_col_border = open_cols && (ci == 0 || ci == cols - 1);
            let offsets: Vec<(i64, i64)> = if on_row_border && on_col_border {
                let (ir, ic) = (if ri == 0 { 1 } else { -1 }, if ci == 0 { 1 } else { -1 });
                vec![(0, 0), (ir, 0), (0, ic), (ir, ic)]
            } else if on_row_border {
                vec![(0, 0), (0, -1), (0, 1)]
            } else if on_col_border {
                vec![(0, 0), (-1, 0), (1, 0)]
            } else {
                vec![(0, 0), (-1, 0), (0, -1), (0, 1), (1, 0)]
            };
            for (dr, dc) in offsets {
                put(reference_map(p.topology, rows, cols, ri + dr, ci + dc), 1, &mut effect);
            }
        }
    }
    effect
}

#[allow(clippy::too_many_arguments)]
fn puzzle(
    rows: usize,
    cols: usize,
    w: u32,
    rule: Rule,
    topology: Topology,
    lights: Vec<u16>,
    goal: Vec<u16>,
    locked: Vec<bool>,
) -> Puzzle {
    Puzzle {
        name: "p".into(),
        lights: written(lights),
        goal: written(goal),
        locked: written(locked.into_iter().map(u16::from).collect()),
        ..Puzzle::new(rows, cols, w, rule, topology)
    }
}

/// The values in one of the written forms the model keeps (uniform, `at`
/// list, grid), picked from the values themselves so every form is
/// exercised: the solver must not depend on the form.
fn written(values: Vec<u16>) -> Board {
    let n = values.len();
    match values.first() {
        Some(&v) if values.iter().all(|&x| x == v) => Board::uniform(n, v),
        _ if values.iter().map(|&v| u32::from(v)).sum::<u32>() % 2 == 1 => {
            Board::sparse(n, values.into_iter().enumerate().filter(|&(_, v)| v != 0).collect())
        }
        _ => Board::dense(values),
    }
}

struct Brute {
    count: u64,
    min_cost: Option<u64>,
}

fn brute_force(p: &Puzzle, patterns: &[Vec<u32>], free: &[usize]) -> Brute {
    let w = p.states as u64;
    let mut x = vec![0u32; free.len()];
    let (mut count, mut min_cost) = (0u64, None::<u64>);
    loop {
        let mut state: Vec<u64> = p.lights.iter().map(u64::from).collect();
        for (j, &cell) in free.iter().enumerate() {
            if x[j] != 0 {
                for (i, &e) in patterns[cell].iter().enumerate() {
                    state[i] = (state[i] + e as u64 * x[j] as u64) % w;
                }
            }
        }
        if state.iter().zip(p.goal.iter()).all(|(&s, g)| s == g as u64) {
            count += 1;
            let cost: u64 = x.iter().map(|&v| v as u64).sum();
            min_cost = Some(min_cost.map_or(cost, |m| m.min(cost)));
        }
        // Next x in mixed radix.
        let mut k = 0;
        loop {
            if k == x.len() {
                return Brute { count, min_cost };
            }
            x[k] += 1;
            if x[k] < p.states {
                break;
            }
            x[k] = 0;
            k += 1;
        }
    }
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Cross),
        Just(Rule::King),
        Just(Rule::Flip),
        Just(Rule::Merlin),
        (prop::sample::select(vec![(1usize, 1usize), (1, 3), (3, 1), (3, 3)]), prop::collection::vec(0u32..12, 9))
            .prop_map(|((h, w), ws)| Rule::Stencil(Stencil { rows: h, cols: w, weights: ws[..h * w].to_vec() })),
    ]
}

fn case_strategy() -> impl Strategy<Value = Puzzle> {
    (
        1usize..=3,
        1usize..=3,
        prop::sample::select(MODULI.to_vec()),
        rule_strategy(),
        prop::sample::select(TOPOLOGIES.to_vec()),
    )
        .prop_flat_map(|(rows, cols, w, rule, topo)| {
            let n = rows * cols;
            (
                Just((rows, cols, w, rule, topo)),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(prop::bool::weighted(0.2), n),
            )
        })
        .prop_map(|((rows, cols, w, rule, topo), lights, goal, mut locked)| {
            let rule = match rule {
                // Stencil weights below W, and not all zero.
                Rule::Stencil(mut s) => {
                    for x in &mut s.weights {
                        *x %= w;
                    }
                    let centre = s.weights.len() / 2;
                    if s.weights.iter().all(|&x| x == 0) {
                        s.weights[centre] = 1;
                    }
                    Rule::Stencil(s)
                }
                r => r,
            };
            // Keep the enumeration small: lock cells until W^free ≤ 5000.
            let mut free = locked.iter().filter(|&&l| !l).count() as u32;
            let mut i = locked.len();
            while (w as u64).pow(free) > 5000 {
                i -= 1;
                if !locked[i] {
                    locked[i] = true;
                    free -= 1;
                }
            }
            puzzle(rows, cols, w, rule, topo, lights, goal, locked)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_exhaustive_search(p in case_strategy()) {
        let w = p.states;
        let patterns: Vec<Vec<u32>> = (0..p.cells()).map(|i| reference_press(&p, i / p.cols, i % p.cols)).collect();
        let free: Vec<usize> = (0..p.cells()).filter(|&i| !p.is_locked(i)).collect();
        let brute = brute_force(&p, &patterns, &free);
        let report = solve(&p, &|| false).expect("tiny puzzles solve");

        prop_assert_eq!(report.solvable, brute.count > 0);
        prop_assert_eq!(&report.solutions, &BigUint::from(brute.count));

        // Kernel: generators are quiet, and their orders multiply to the kernel size.
        let kernel_size = report.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
        for g in &report.quiet_patterns {
            let mut change = vec![0u64; p.cells()];
            for (cell, n) in g.presses.iter().enumerate() {
                prop_assert!(n == 0 || !p.is_locked(cell));
                for (i, &e) in patterns[cell].iter().enumerate() {
                    change[i] = (change[i] + e as u64 * n as u64) % w as u64;
                }
            }
            prop_assert!(change.iter().all(|&v| v == 0), "a quiet pattern changes the board");
        }
        if report.solvable {
            prop_assert_eq!(&kernel_size, &report.solutions);
            let m = report.minimum.as_ref().expect("solvable puzzles have a minimum");
            prop_assert!(m.optimal);
            prop_assert_eq!(Some(m.cost), brute.min_cost);
            // The minimum solution really solves the puzzle.
            let mut state: Vec<u64> = p.lights.iter().map(u64::from).collect();
            for (cell, n) in m.presses.iter().enumerate() {
                prop_assert!(n == 0 || !p.is_locked(cell), "presses a locked cell");
                for (i, &e) in patterns[cell].iter().enumerate() {
                    state[i] = (state[i] + e as u64 * n as u64) % w as u64;
                }
            }
            prop_assert!(state.iter().zip(p.goal.iter()).all(|(&s, g)| s == g as u64));
            prop_assert_eq!(m.cost, m.presses.iter().map(u64::from).sum::<u64>());
        } else {
            // The certificate: no free press changes y·state, and y·(goal − lights) ≠ 0.
            let y = report.certificate.as_ref().expect("unsolvable puzzles have a certificate");
            for &cell in &free {
                let dot: u64 = y.iter().zip(&patterns[cell]).map(|(a, &b)| a as u64 * b as u64).sum();
                prop_assert_eq!(dot % w as u64, 0);
            }
            let diff: u64 = (0..p.cells())
                .map(|i| y.get(i) as u64 * ((p.goal.get(i) as u64 + w as u64 - p.lights.get(i) as u64) % w as u64))
                .sum();
            prop_assert_ne!(diff % w as u64, 0);
        }
    }
}
