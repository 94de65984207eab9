//! Criterion benchmarks of the solver's paths on large boards
//! (`cargo bench -p lights-compiler --bench fast_paths`). The table of all
//! targets is `bench/targets`; figures go to docs/PERFORMANCE.md.

use criterion::{criterion_group, criterion_main, Criterion};
use lights_compiler::fast::bits::RowShape;
use lights_compiler::fast::poly::{self, CrossBoard, Rhs};
use lights_compiler::model::{Puzzle, Rule, Topology};
use lights_compiler::solve::{solve_with, SolveOptions};

fn puzzle(n: usize, states: u32, rule: Rule, topology: Topology) -> Puzzle {
    let mut p = Puzzle::new(n, n, states, rule, topology);
    p.lights = lights_compiler::model::Board::uniform(p.cells(), 1);
    p
}

fn polynomial(c: &mut Criterion) {
    let mut g = c.benchmark_group("polynomial");
    g.sample_size(10);
    for n in [1000usize, 10_000] {
        let board = CrossBoard { height: n, width: n, shape: RowShape::Path };
        g.bench_function(format!("plane cross {n}x{n} W=2"), |b| {
            b.iter(|| poly::solve(&board, &Rhs::Uniform(true), &|| false).unwrap());
        });
    }
    g.finish();
}

fn chase(c: &mut Criterion) {
    let mut g = c.benchmark_group("chase");
    g.sample_size(10);
    let no_minimum = SolveOptions { search_minimum: false, ..SolveOptions::default() };
    for (label, n, w, rule, topo) in [
        ("torus cross 2000x2000 W=2", 2000, 2, Rule::Cross, Topology::Torus),
        ("plane king 1000x1000 W=2", 1000, 2, Rule::King, Topology::Plane),
        ("projective cross 1000x1000 W=2", 1000, 2, Rule::Cross, Topology::Projective),
        ("plane cross 500x500 W=6", 500, 6, Rule::Cross, Topology::Plane),
        // The polynomial method over GF(p) inside the chase (`prime_poly`).
        ("plane cross 2000x2000 W=7", 2000, 7, Rule::Cross, Topology::Plane),
        ("cylinder cross 1000x1000 W=65521", 1000, 65_521, Rule::Cross, Topology::Cylinder),
        // The same on the torus (`prime_torus`).
        ("torus cross 2000x2000 W=65521", 2000, 65_521, Rule::Cross, Topology::Torus),
        ("torus cross 1000x1000 W=3", 1000, 3, Rule::Cross, Topology::Torus),
        // The Möbius band across its seam (`prime_torus` on paths).
        ("mobius cross 1000x1000 W=3", 1000, 3, Rule::Cross, Topology::Mobius),
    ] {
        let p = puzzle(n, w, rule, topo);
        g.bench_function(label, |b| b.iter(|| solve_with(&p, no_minimum, &|| false).unwrap()));
    }
    g.finish();
}

fn small_boards(c: &mut Criterion) {
    let mut g = c.benchmark_group("48x48");
    for (rule, topo) in [("cross", "torus"), ("king", "plane"), ("merlin", "mobius"), ("flip", "plane")] {
        let src = format!("puzzle \"p\" {{\n  size 48x48\n  rule {rule}\n  topology {topo}\n  lights on\n}}\n");
        g.bench_function(format!("{rule} {topo} check_source"), |b| b.iter(|| lights_compiler::check_source(&src)));
    }
    g.finish();
}

criterion_group!(benches, polynomial, chase, small_boards);
criterion_main!(benches);
