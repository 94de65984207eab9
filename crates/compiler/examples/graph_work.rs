//! The work canonical labelling takes on the named graphs (issue 31), to
//! size its bound: `cargo run --release -p lights-compiler --example graph_work`.
use lights_compiler::symmetry::graph::{canonical_hash_within, Coloured, WORK};

fn main() {
    let mut cases: Vec<(String, lights_compiler::model::Graph)> = Vec::new();
    for name in ["tetrahedron", "cube", "octahedron", "dodecahedron", "icosahedron", "petersen"] {
        cases.push((name.into(), lights_compiler::graph::named(name, None).unwrap()));
    }
    for (name, size) in [
        ("cycle", 1000),
        ("path", 1000),
        ("complete", 300),
        ("cube-surface", 3),
        ("cube-surface", 10),
        ("cube-surface", 30),
    ] {
        cases.push((format!("{name} {size}"), lights_compiler::graph::named(name, Some(size)).unwrap()));
    }
    // The hypercubes Q_d.
    for d in [4u32, 6, 8, 10] {
        let n = 1usize << d;
        let edges: Vec<(u32, u32)> =
            (0..n as u32).flat_map(|v| (0..d).map(move |b| (v, v ^ (1 << b)))).filter(|(a, b)| a < b).collect();
        cases.push((
            format!("hypercube {d}"),
            lights_compiler::model::Graph::from_edges(lights_compiler::model::GraphKind::Custom, n, &edges),
        ));
    }
    for (name, g) in &cases {
        let n = g.nodes();
        let neighbours: Vec<Vec<u32>> = (0..n).map(|v| g.neighbours(v).to_vec()).collect();
        let m: usize = neighbours.iter().map(Vec::len).sum::<usize>() / 2;
        let colour = vec![0u64; n];
        let start = std::time::Instant::now();
        let r = canonical_hash_within(Coloured { neighbours: &neighbours, colour: &colour }, WORK);
        println!(
            "{name:>16}: n {n:>6} m {m:>7}  work {:>10}  ({:.1} per n+m)  {:.1} ms",
            r.map_or("over".into(), |(_, w)| w.to_string()),
            r.map_or(f64::NAN, |(_, w)| w as f64 / (n + m) as f64),
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}
