//! Benchmark of duplicate detection (issue 31): canonical forms of 10,000
//! generated levels — square boards on every surface, hex boards, graphs —
//! with 500 planted copies (each a random symmetry of an earlier level),
//! then the copies found by equal forms. Prints the time (one thread, then
//! every core) and checks that exactly the planted copies are found.
//!
//!     cargo run --release -p lights-compiler --example duplicates [LEVELS]

use std::collections::HashMap;
use std::time::Instant;

use lights_compiler::model::{Board, Graph, GraphKind, Puzzle, Rule, Shape, Topology};
use lights_compiler::symmetry::grid::{shifts, turns_for, Image};
use lights_compiler::symmetry::{level_form, twist_keeps_rule};
use rayon::prelude::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const SURFACES: [Topology; 6] =
    [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective];

fn level(rng: &mut Rng) -> Puzzle {
    let kind = rng.below(10);
    let states = if rng.below(4) == 0 { 3 } else { 2 };
    let mut p = if kind < 7 {
        let (rows, cols) = (5 + rng.below(5) as usize, 5 + rng.below(5) as usize);
        let rule = [Rule::Cross, Rule::King, Rule::Merlin][rng.below(3) as usize].clone();
        Puzzle::new(rows, cols, states, rule, SURFACES[rng.below(6) as usize])
    } else if kind < 9 {
        let mut p =
            Puzzle::new(5 + rng.below(4) as usize, 5 + rng.below(4) as usize, states, Rule::Cross, Topology::Plane);
        p.shape = Shape::Hex;
        p
    } else {
        let n = 8 + rng.below(24) as usize;
        let mut edges: Vec<(u32, u32)> = (0..n as u32).map(|v| (v, (v + 1) % n as u32)).collect();
        for _ in 0..n / 2 {
            let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
            if a != b {
                edges.push((a, b));
            }
        }
        Puzzle::on_graph(Graph::from_edges(GraphKind::Custom, n, &edges), states, Rule::Cross)
    };
    let lights: Vec<u16> = (0..p.cells()).map(|_| rng.below(states as u64) as u16).collect();
    p.lights = Board::dense(lights);
    p
}

/// A random symmetry image of a square board (turn and translation), or
/// the level itself renumbered (graphs) or as written (hex).
fn copy_of(p: &Puzzle, rng: &mut Rng) -> Puzzle {
    match &p.shape {
        Shape::Square => {
            let twists = twist_keeps_rule(p);
            let turns: Vec<_> = turns_for(p.topology).collect();
            let turn = turns[rng.below(turns.len() as u64) as usize];
            let (h, w) = turn.dims(p.rows, p.cols);
            let (down, across) = shifts(p.topology, h, w, twists);
            let (ds, cs) = (down.starts(), across.starts());
            let image = Image {
                turn,
                down: ds[rng.below(ds.len() as u64) as usize],
                across: cs[rng.below(cs.len() as u64) as usize],
            };
            let mut q = Puzzle::new(h, w, p.states, p.rule.clone(), p.topology);
            let lights: Vec<u16> = (0..h * w)
                .map(|k| {
                    let (r, c) = image.source(p.topology, twists, p.rows, p.cols, (k / w, k % w));
                    p.lights.get(r * p.cols + c)
                })
                .collect();
            q.lights = Board::dense(lights);
            q
        }
        Shape::Graph(g) => {
            let n = g.nodes();
            let mut perm: Vec<u32> = (0..n as u32).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let edges: Vec<(u32, u32)> = (0..n)
                .flat_map(|v| g.neighbours(v).iter().filter(move |&&u| u as usize > v).map(move |&u| (v as u32, u)))
                .map(|(a, b)| (perm[a as usize], perm[b as usize]))
                .collect();
            let mut q = Puzzle::on_graph(Graph::from_edges(GraphKind::Custom, n, &edges), p.states, p.rule.clone());
            let mut lights = vec![0u16; n];
            for v in 0..n {
                lights[perm[v] as usize] = p.lights.get(v);
            }
            q.lights = Board::dense(lights);
            q
        }
        Shape::Hex => p.clone(),
    }
}

fn main() {
    let total: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let planted = total / 20;
    let mut rng = Rng(31);
    let mut levels: Vec<Puzzle> = (0..total - planted).map(|_| level(&mut rng)).collect();
    for _ in 0..planted {
        let of = rng.below(levels.len() as u64) as usize;
        let copy = copy_of(&levels[of], &mut rng);
        levels.push(copy);
    }
    let start = Instant::now();
    let forms: Vec<u64> = levels.iter().map(|p| level_form(p).expect("small").key).collect();
    let one = start.elapsed();
    let start = Instant::now();
    let par: Vec<u64> = levels.par_iter().map(|p| level_form(p).expect("small").key).collect();
    let all = start.elapsed();
    assert_eq!(forms, par);
    let mut distinct: HashMap<u64, usize> = HashMap::new();
    for k in &forms {
        *distinct.entry(*k).or_default() += 1;
    }
    let copies = forms.len() - distinct.len();
    println!(
        "{total} levels ({planted} planted copies): {copies} copies found; forms in {:.3} s on one thread, {:.3} s on {} threads",
        one.as_secs_f64(),
        all.as_secs_f64(),
        rayon::current_num_threads()
    );
    // Random levels may copy each other by chance (small graphs); every planted copy is found.
    assert!(copies >= planted, "only {copies} of the {planted} planted copies found");
}
