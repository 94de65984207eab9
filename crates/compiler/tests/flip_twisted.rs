//! The `flip` reduction on every surface, twisted ones included (Möbius band,
//! Klein bottle, projective plane: lines pair row r with row R−1−r and/or
//! column c with column C−1−c), against dense elimination of the whole
//! system on every board up to 7×7 and several W, prime and composite.

use std::time::Instant;

use lights_compiler::fast::{self, flip, Plan};
use lights_compiler::lower::{apply_presses, press_pattern};
use lights_compiler::model::{Board, Puzzle, Rule, Topology};
use lights_compiler::solve::{solve_dense, solve_with, Report, SolveOptions};
use num_bigint::BigUint;

const TOPOLOGIES: [Topology; 6] =
    [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective];

const MODULI: [u32; 6] = [2, 3, 4, 5, 6, 12];

/// A fixed-seed xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, w: u32) -> u16 {
        (self.next() % u64::from(w)) as u16
    }
}

fn what(p: &Puzzle) -> String {
    format!(
        "{}x{} W={} {} lights={:?} goal={:?}",
        p.rows,
        p.cols,
        p.states,
        p.topology.name(),
        p.lights.to_vec(),
        p.goal.to_vec()
    )
}

/// `yᵀA ≡ 0` (every press meets y in 0) and `y·(goal − lights) ≢ 0`, from
/// the press patterns of lower.rs.
fn certificate_holds(p: &Puzzle, y: &[u32]) -> bool {
    let w = u64::from(p.states);
    let quiet = (0..p.cells()).all(|cell| {
        press_pattern(p, cell / p.cols, cell % p.cols)
            .iter()
            .fold(0u64, |acc, &(t, wt)| (acc + u64::from(y[t]) * u64::from(wt)) % w)
            == 0
    });
    let yb = (0..p.cells()).fold(0u64, |acc, i| (acc + u64::from(y[i]) * u64::from(p.need(i))) % w);
    quiet && yb != 0
}

fn as_u16(v: impl Iterator<Item = u32>) -> Vec<u16> {
    v.map(|x| x as u16).collect()
}

/// The fast report against the dense one, and the fast report's own vectors
/// against the puzzle.
fn assert_agrees(p: &Puzzle, fast: &Report) {
    let dense = solve_dense(p, SolveOptions::default(), &|| false).expect("dense solve");
    let what = what(p);
    assert_eq!(fast.solvable, dense.solvable, "solvable: {what}");
    assert_eq!(fast.solutions, dense.solutions, "count: {what}");
    assert_eq!(fast.unknowns, dense.unknowns, "unknowns: {what}");
    assert_eq!(fast.certificate.is_some(), !fast.solvable, "certificate: {what}");
    assert_eq!(fast.minimum.is_some(), fast.solvable, "minimum: {what}");
    match (&fast.minimum, &dense.minimum) {
        (Some(f), Some(d)) if f.optimal && d.optimal => assert_eq!(f.cost, d.cost, "minimum cost: {what}"),
        (Some(f), Some(d)) if f.optimal => assert!(f.cost <= d.cost, "minimum cost above dense's: {what}"),
        _ => {}
    }
    if let Some(m) = &fast.minimum {
        assert_eq!(m.cost, m.presses.sum(), "minimum cost is its presses: {what}");
        let after = apply_presses(p, &as_u16(m.presses.iter()));
        assert!(after.iter().zip(p.goal.iter()).all(|(&a, g)| a == u32::from(g)), "minimum does not solve: {what}");
    }
    if let Some(y) = &fast.certificate {
        assert!(certificate_holds(p, &y.to_vec()), "certificate: {what}");
    }
    // The quiet patterns: a kernel of the same size as dense's, each quiet.
    assert!(!fast.quiet_patterns_omitted);
    let size = fast.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
    let dense_size = dense.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
    assert_eq!(size, dense_size, "kernel size: {what}");
    if fast.solvable {
        assert_eq!(size, fast.solutions, "count is the kernel size: {what}");
    }
    let zero = Board::zeros(p.cells());
    let quiet_puzzle = Puzzle { lights: zero.clone(), goal: zero, ..p.clone() };
    for g in &fast.quiet_patterns {
        assert!(g.order > 1 && p.states.is_multiple_of(g.order), "order: {what}");
        let after = apply_presses(&quiet_puzzle, &as_u16(g.presses.iter()));
        assert!(after.iter().all(|&v| v == 0), "quiet pattern changes lights: {what}");
        // order·g ≡ 0: the order is an order of g.
        assert!(g.presses.iter().all(|x| (u64::from(x) * u64::from(g.order)) % u64::from(p.states) == 0));
    }
}

/// Mirrors a board the way the twisted lines pair cells, keeping a random
/// value per block (so b can be constant on blocks, the solvable case).
fn symmetric(rng: &mut Rng, p: &Puzzle) -> Vec<u16> {
    let (m, n) = (p.rows, p.cols);
    let mirror_rows = matches!(p.topology, Topology::Mobius | Topology::Projective);
    let mirror_cols = matches!(p.topology, Topology::Klein | Topology::Projective);
    let mut v = vec![0u16; m * n];
    for r in 0..m {
        for c in 0..n {
            let rr = if mirror_rows { r.min(m - 1 - r) } else { r };
            let cc = if mirror_cols { c.min(n - 1 - c) } else { c };
            v[r * n + c] = if (rr, cc) == (r, c) { rng.below(p.states) } else { v[rr * n + cc] };
        }
    }
    v
}

/// Every m, n ≤ 7, every surface, W ∈ {2, 3, 4, 5, 6, 12}: random lights and
/// goal (almost always unsolvable on twisted surfaces: b differs inside a
/// block), lights and goal constant on blocks, and a goal reached by random
/// presses (solvable by construction).
#[test]
fn flip_reduction_matches_dense_on_every_surface() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut solvable = 0usize;
    let mut twisted_solvable_with_fibre = 0usize;
    for rows in 1..=7 {
        for cols in 1..=7 {
            for topo in TOPOLOGIES {
                for w in MODULI {
                    for variant in 0..4 {
                        let mut p = Puzzle::new(rows, cols, w, Rule::Flip, topo);
                        assert!(flip::applies(&p), "{rows}x{cols} {}", topo.name());
                        let cells = p.cells();
                        match variant {
                            0 => {
                                p.lights = Board::dense((0..cells).map(|_| rng.below(w)).collect());
                                p.goal = Board::dense((0..cells).map(|_| rng.below(w)).collect());
                            }
                            1 => {
                                p.lights = Board::dense(symmetric(&mut rng, &p));
                                p.goal = Board::dense(symmetric(&mut rng, &p));
                            }
                            _ => {
                                p.lights = Board::dense((0..cells).map(|_| rng.below(w)).collect());
                                let presses: Vec<u16> = (0..cells).map(|_| rng.below(w)).collect();
                                let goal = apply_presses(&p, &presses);
                                p.goal = Board::dense(goal.into_iter().map(|v| v as u16).collect());
                            }
                        }
                        let r = flip::solve(&p, SolveOptions::default(), &|| false).expect("applies").expect("flip");
                        assert_agrees(&p, &r);
                        if r.solvable {
                            solvable += 1;
                            if topo != Topology::Plane
                                && topo != Topology::Cylinder
                                && topo != Topology::Torus
                                && rows * cols > 1
                                && r.solutions > BigUint::from(1u32)
                            {
                                twisted_solvable_with_fibre += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(solvable > 3000 && twisted_solvable_with_fibre > 1000, "{solvable} {twisted_solvable_with_fibre}");
}

/// Without the minimum search: the solution found, optimal only when it is
/// the only one.
#[test]
fn without_search_the_minimum_is_a_solution() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for topo in [Topology::Mobius, Topology::Klein, Topology::Projective] {
        for w in MODULI {
            let mut p = Puzzle::new(6, 5, w, Rule::Flip, topo);
            let presses: Vec<u16> = (0..p.cells()).map(|_| rng.below(w)).collect();
            p.goal = Board::dense(apply_presses(&p, &presses).into_iter().map(|v| v as u16).collect());
            let r = flip::solve(&p, SolveOptions { search_minimum: false, ..SolveOptions::default() }, &|| false)
                .unwrap()
                .unwrap();
            let m = r.minimum.expect("solvable");
            assert!(!m.optimal, "{} W={w}: many solutions", topo.name());
            let after = apply_presses(&p, &as_u16(m.presses.iter()));
            assert!(after.iter().zip(p.goal.iter()).all(|(&a, g)| a == u32::from(g)));
        }
    }
}

/// 48×48 All Lights goes to the reduction on every surface, and agrees with
/// dense elimination for W = 2 (the dense path is fast there).
#[test]
fn all_lights_48_through_the_reduction() {
    for topo in TOPOLOGIES {
        for w in MODULI {
            let mut p = Puzzle::new(48, 48, w, Rule::Flip, topo);
            p.lights = Board::uniform(48 * 48, (w - 1) as u16);
            assert_eq!(fast::plan(&p), Plan::Flip, "{} W={w}", topo.name());
            let r = solve_with(&p, SolveOptions::default(), &|| false).expect("solve");
            if let Some(m) = &r.minimum {
                assert!(m.optimal, "{} W={w}", topo.name());
            }
            if w == 2 && matches!(topo, Topology::Mobius | Topology::Projective) {
                let dense = solve_dense(&p, SolveOptions::default(), &|| false).expect("dense");
                assert_eq!(r.solutions, dense.solutions);
                assert_eq!(r.solvable, dense.solvable);
            }
        }
    }
}

/// 48×48 All Lights on the twisted surfaces, every W, against dense
/// elimination of all 2,304 unknowns (seconds each in release:
/// `cargo test --release -p lights-compiler --test flip_twisted -- --ignored`).
#[test]
#[ignore = "slow without --release"]
fn all_lights_48_matches_dense() {
    for topo in [Topology::Mobius, Topology::Klein, Topology::Projective] {
        for w in MODULI {
            let mut p = Puzzle::new(48, 48, w, Rule::Flip, topo);
            p.lights = Board::uniform(48 * 48, (w - 1) as u16);
            let r = solve_with(&p, SolveOptions::default(), &|| false).expect("solve");
            let dense = solve_dense(&p, SolveOptions::default(), &|| false).expect("dense");
            let what = format!("48x48 {} W={w}", topo.name());
            assert_eq!(r.solvable, dense.solvable, "{what}");
            assert_eq!(r.solutions, dense.solutions, "{what}");
            assert_eq!(r.certificate.is_some(), dense.certificate.is_some(), "{what}");
            if let (Some(f), Some(d)) = (&r.minimum, &dense.minimum) {
                assert!(f.optimal, "{what}");
                assert!(f.cost <= d.cost, "{what}");
                if d.optimal {
                    assert_eq!(f.cost, d.cost, "{what}");
                }
                eprintln!("{what}: minimum {} (dense {} optimal {})", f.cost, d.cost, d.optimal);
            }
        }
    }
}

/// Times of 48×48 All Lights (solve only, `solve_with`), release:
/// `cargo test --release -p lights-compiler --test flip_twisted -- --ignored --nocapture`.
#[test]
#[ignore = "a timing, to run by hand in release"]
fn time_all_lights_48() {
    for topo in [Topology::Mobius, Topology::Klein, Topology::Projective, Topology::Plane, Topology::Torus] {
        for w in MODULI {
            let mut p = Puzzle::new(48, 48, w, Rule::Flip, topo);
            p.lights = Board::uniform(48 * 48, (w - 1) as u16);
            let mut times = Vec::new();
            let mut last = None;
            for _ in 0..7 {
                let t = Instant::now();
                let r = solve_with(&p, SolveOptions::default(), &|| false).expect("solve");
                times.push(t.elapsed().as_secs_f64() * 1e3);
                last = Some(r);
            }
            times.sort_by(f64::total_cmp);
            let r = last.unwrap();
            let minimum = match &r.minimum {
                Some(m) => format!("minimum {} optimal {}", m.cost, m.optimal),
                None => "unsolvable".to_string(),
            };
            println!(
                "48x48 {:<10} W={:<2} median {:7.2} ms (min {:6.2}) solutions {} digits, {minimum}",
                topo.name(),
                w,
                times[times.len() / 2],
                times[0],
                r.solutions.to_string().len(),
            );
        }
    }
}
