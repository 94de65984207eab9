//! Holes, hexagonal grids and graphs beyond brute force: the light chase
//! against dense elimination (boards up to 8×9, graphs up to 60 nodes), both
//! checked against the independent press patterns and elimination of
//! `reference/mod.rs`; and published facts: Sutner's theorem (σ+ on any
//! graph takes all lights on to all off), the nullities of σ and σ+ on
//! paths, cycles and complete graphs, and the named graphs' nullities (each
//! confirmed by enumerating every press vector).

mod reference;

use lights_compiler::fast::{self, chase, Plan};
use lights_compiler::graph::{named, Graph, GraphKind};
use lights_compiler::model::{Board, Puzzle, Rule, Shape, Stencil, Topology};
use lights_compiler::solve::{solve, solve_dense, Report, SolveOptions};
use num_bigint::BigUint;
use proptest::prelude::*;
use reference::{apply, brute_force_many, count_solutions, describe, eliminate, free_cells, need, patterns};

const OPTS: SolveOptions =
    SolveOptions { search_minimum: true, minimum_work: lights_compiler::report::DEFAULT_MINIMUM_WORK };

/// A report is right by the reference: its minimum solves the board and
/// presses no locked button or hole, its quiet patterns change nothing, its
/// certificate proves unsolvability; and its count is the one elimination
/// mod each prime (lifted to prime powers) gives.
fn valid(p: &Puzzle, pats: &[Vec<u32>], r: &Report, what: &str) {
    let w = p.states;
    let pressable = |c: usize| p.locked.get(c) == 0 && p.holes.get(c) == 0;
    let need = need(p);
    let free = free_cells(p);
    assert_eq!(r.unknowns, free.len(), "unknowns: {what}");
    if let Some(count) = count_solutions(w, pats, &free, &need, 1 << 12) {
        assert_eq!(r.solutions, count, "count by elimination: {what}");
    }
    for q in &r.quiet_patterns {
        let x = q.presses.to_vec();
        assert!(
            x.iter().enumerate().all(|(c, &v)| v == 0 || pressable(c)),
            "quiet pattern presses a locked cell: {what}"
        );
        assert!(apply(pats, &x, w).iter().all(|&v| v == 0), "a quiet pattern changes the board: {what}");
    }
    match (&r.minimum, &r.certificate) {
        (Some(m), None) => {
            assert!(r.solvable, "{what}");
            let x = m.presses.to_vec();
            assert!(
                x.iter().enumerate().all(|(c, &v)| v == 0 || pressable(c)),
                "presses a locked cell or a hole: {what}"
            );
            assert_eq!(apply(pats, &x, w), need, "the minimum does not solve the board: {what}");
            assert_eq!(m.cost, x.iter().map(|&v| u64::from(v)).sum::<u64>(), "cost: {what}");
        }
        (None, Some(y)) => {
            assert!(!r.solvable, "{what}");
            for &cell in &free {
                let dot: u64 = y.iter().zip(&pats[cell]).map(|(a, &b)| u64::from(a) * u64::from(b)).sum();
                assert_eq!(dot % u64::from(w), 0, "a free press changes y·state: {what}");
            }
            let diff: u64 = (0..p.cells()).map(|i| u64::from(y.get(i)) * u64::from(need[i])).sum();
            assert_ne!(diff % u64::from(w), 0, "the certificate proves nothing: {what}");
        }
        _ => panic!("a minimum or a certificate, not both: {what}"),
    }
}

/// The chase and dense elimination give the same answer, and both are right.
fn chase_agrees_with_dense(p: &Puzzle) {
    let what = describe(p, true);
    let dense = solve_dense(p, OPTS, &|| false).expect("dense solve");
    let chased = chase::solve_always(p, OPTS, &|| false).expect("the chase applies").expect("chase");
    assert_eq!(chased.solvable, dense.solvable, "solvable: {what}");
    assert_eq!(chased.solutions, dense.solutions, "count: {what}");
    assert_eq!(chased.unknowns, dense.unknowns, "unknowns: {what}");
    let size = |r: &Report| r.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
    assert!(!chased.quiet_patterns_omitted && !dense.quiet_patterns_omitted, "{what}");
    assert_eq!(size(&chased), size(&dense), "kernel size: {what}");
    if let (Some(c), Some(d)) = (&chased.minimum, &dense.minimum) {
        if c.optimal && d.optimal {
            assert_eq!(c.cost, d.cost, "minimum: {what}");
        }
        assert!(c.lower_bound <= d.cost && d.lower_bound <= c.cost, "bounds: {what}");
    }
    let pats = patterns(p);
    valid(p, &pats, &dense, &format!("dense, {what}"));
    valid(p, &pats, &chased, &format!("chase, {what}"));
}

/// Holes the way validation makes them: no light, no goal, a locked button.
fn with_holes(mut p: Puzzle, holes: &[bool]) -> Puzzle {
    let off = |b: &Board| Board::dense((0..b.len()).map(|i| if holes[i] { 0 } else { b.get(i) }).collect());
    p.lights = off(&p.lights);
    p.goal = off(&p.goal);
    p.holes = Board::dense(holes.iter().map(|&h| u16::from(h)).collect());
    p.locked = p.locked.union_mask(&p.holes);
    p
}

/// Random lights, goal, locks and holes on a puzzle's cells.
fn fill(p: Puzzle, lights: Vec<u16>, goal: Vec<u16>, locked: Vec<bool>, holes: &[bool]) -> Puzzle {
    let p = Puzzle {
        lights: Board::dense(lights),
        goal: Board::dense(goal),
        locked: Board::dense(locked.into_iter().map(u16::from).collect()),
        ..p
    };
    with_holes(p, holes)
}

fn values(n: usize, w: u32) -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(0..w as u16, n)
}

fn mask(n: usize, p: f64) -> impl Strategy<Value = Vec<bool>> {
    prop::collection::vec(prop::bool::weighted(p), n)
}

/// Hex boards up to 8×9 (even rows on the torus), cross or ring, W ∈ {2, 3, 4, 6}.
fn hex_board() -> impl Strategy<Value = Puzzle> {
    (
        1usize..=8,
        1usize..=9,
        prop::sample::select(vec![2u32, 3, 4, 6]),
        prop::sample::select(vec![Rule::Cross, Rule::Ring]),
        prop::sample::select(vec![Topology::Plane, Topology::Cylinder, Topology::Torus]),
    )
        .prop_flat_map(|(rows, cols, w, rule, topo)| {
            let rows = if topo == Topology::Torus && rows % 2 == 1 { rows + 1 } else { rows };
            let n = rows * cols;
            (Just((rows, cols, w, rule, topo)), values(n, w), values(n, w), mask(n, 0.1), mask(n, 0.15))
        })
        .prop_map(|((rows, cols, w, rule, topo), lights, goal, locked, holes)| {
            let p = Puzzle { shape: Shape::Hex, ..Puzzle::new(rows, cols, w, rule, topo) };
            fill(p, lights, goal, locked, &holes)
        })
}

/// Square boards with holes up to 8×9: every rule and topology.
fn square_board_with_holes() -> impl Strategy<Value = Puzzle> {
    const TOPOLOGIES: [Topology; 6] =
        [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective];
    (
        1usize..=8,
        1usize..=9,
        prop::sample::select(vec![2u32, 3, 4, 6]),
        0usize..6,
        prop::sample::select(TOPOLOGIES.to_vec()),
    )
        .prop_flat_map(|(rows, cols, w, rule, topo)| {
            let n = rows * cols;
            (Just((rows, cols, w, rule, topo)), values(9, w), values(n, w), values(n, w), mask(n, 0.1), mask(n, 0.2))
        })
        .prop_map(|((rows, cols, w, rule, topo), weights, lights, goal, locked, holes)| {
            let rule = match rule {
                0 => Rule::Cross,
                1 => Rule::King,
                2 => Rule::Flip,
                3 => Rule::Merlin,
                4 => Rule::Ring,
                _ => {
                    let mut weights: Vec<u32> = weights.into_iter().map(u32::from).collect();
                    weights[4] = weights[4].max(1);
                    Rule::Stencil(Stencil { rows: 3, cols: 3, weights })
                }
            };
            fill(Puzzle::new(rows, cols, w, rule, topo), lights, goal, locked, &holes)
        })
}

/// A random graph: each pair an edge with probability `density`.
fn random_graph(n: usize, present: &[bool]) -> Graph {
    let mut edges = Vec::new();
    let mut k = 0;
    for a in 0..n as u32 {
        for b in a + 1..n as u32 {
            if present[k] {
                edges.push((a, b));
            }
            k += 1;
        }
    }
    Graph::from_edges(GraphKind::Custom, n, &edges)
}

fn graph_board(max_nodes: usize) -> impl Strategy<Value = Puzzle> {
    (
        1usize..=max_nodes,
        prop::sample::select(vec![2u32, 3, 4, 6]),
        prop::sample::select(vec![Rule::Cross, Rule::Ring]),
        0.02f64..0.5,
    )
        .prop_flat_map(|(n, w, rule, density)| {
            (Just((n, w, rule)), mask(n * (n - 1) / 2, density), values(n, w), values(n, w), mask(n, 0.1), mask(n, 0.1))
        })
        .prop_map(|((n, w, rule), present, lights, goal, locked, holes)| {
            fill(Puzzle::on_graph(random_graph(n, &present), w, rule), lights, goal, locked, &holes)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn chase_matches_dense_on_hex_grids(p in hex_board()) {
        chase_agrees_with_dense(&p);
    }

    #[test]
    fn chase_matches_dense_on_boards_with_holes(p in square_board_with_holes()) {
        chase_agrees_with_dense(&p);
    }

    #[test]
    fn chase_matches_dense_on_graphs(p in graph_board(40)) {
        chase_agrees_with_dense(&p);
    }
}

/// Every named graph up to a few hundred nodes, chased and eliminated, with
/// all lights on and with random lights, locks and holes.
#[test]
fn chase_matches_dense_on_named_graphs() {
    let mut graphs: Vec<Graph> = ["tetrahedron", "cube", "octahedron", "petersen", "icosahedron", "dodecahedron"]
        .iter()
        .map(|n| named(n, None).unwrap())
        .collect();
    for (name, sizes) in [("cycle", 3..=40), ("path", 1..=40), ("complete", 1..=12), ("cube-surface", 1..=5)] {
        graphs.extend(sizes.map(|n| named(name, Some(n)).unwrap()));
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for g in &graphs {
        let n = g.nodes();
        for w in [2u32, 3, 4, 6] {
            for rule in [Rule::Cross, Rule::Ring] {
                let base = Puzzle::on_graph(g.clone(), w, rule.clone());
                chase_agrees_with_dense(&Puzzle { lights: Board::uniform(n, 1), ..base.clone() });
                let lights = (0..n).map(|_| next(u64::from(w)) as u16).collect();
                let goal = (0..n).map(|_| next(u64::from(w)) as u16).collect();
                let locked = (0..n).map(|_| next(8) == 0).collect();
                let holes: Vec<bool> = (0..n).map(|_| next(8) == 0).collect();
                chase_agrees_with_dense(&fill(base, lights, goal, locked, &holes));
            }
        }
    }
}

/// Boards of 256 cells and more go to the chase when it leaves few unknowns
/// (else to dense elimination) through `solve` itself: large hex boards,
/// boards with holes and graphs, against the reference elimination.
#[test]
fn large_shapes_through_solve_agree_with_the_reference() {
    let mut seed = 0x0123_4567_89ab_cdefu64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut boards: Vec<Puzzle> = Vec::new();
    for (rows, cols, w, rule, topo) in [
        (16, 17, 2, Rule::Cross, Topology::Plane),
        (16, 17, 2, Rule::Ring, Topology::Cylinder),
        (16, 16, 2, Rule::Cross, Topology::Torus),
        (16, 16, 3, Rule::Ring, Topology::Torus),
        (17, 16, 4, Rule::Cross, Topology::Plane),
        (16, 18, 6, Rule::Cross, Topology::Cylinder),
    ] {
        boards.push(Puzzle { shape: Shape::Hex, ..Puzzle::new(rows, cols, w, rule, topo) });
    }
    for (rows, cols, w, rule, topo) in [
        (20, 20, 2, Rule::Cross, Topology::Plane),
        (16, 17, 3, Rule::Cross, Topology::Torus),
        (16, 16, 2, Rule::King, Topology::Klein),
        (16, 16, 4, Rule::Ring, Topology::Mobius),
        (16, 16, 2, Rule::Flip, Topology::Projective),
    ] {
        boards.push(Puzzle::new(rows, cols, w, rule, topo));
    }
    let mut graphs = vec![
        named("cube-surface", Some(7)).unwrap(),
        named("cycle", Some(400)).unwrap(),
        named("path", Some(300)).unwrap(),
    ];
    graphs.push(named("complete", Some(260)).unwrap());
    let present: Vec<bool> = (0..300 * 299 / 2).map(|_| next(100) == 0).collect();
    graphs.push(random_graph(300, &present));
    for g in graphs {
        for (w, rule) in [(2, Rule::Cross), (3, Rule::Ring)] {
            boards.push(Puzzle::on_graph(g.clone(), w, rule));
        }
    }
    let mut plans = Vec::new();
    for base in boards {
        let n = base.cells();
        assert!(n >= 256);
        let w = u64::from(base.states);
        let lights = (0..n).map(|_| next(w) as u16).collect();
        let goal = vec![0; n];
        // Holes on square and hex boards (graphs keep all their nodes), a few locks.
        let holes: Vec<bool> = (0..n).map(|_| !base.is_graph() && next(10) == 0).collect();
        let locked = (0..n).map(|_| next(40) == 0).collect();
        for p in
            [Puzzle { lights: Board::uniform(n, 1), ..base.clone() }, fill(base.clone(), lights, goal, locked, &holes)]
        {
            let plan = fast::plan(&p);
            if !p.is_plain_grid() {
                assert!(
                    matches!(plan, Plan::Chase | Plan::Dense),
                    "the plain grids' fast paths on a {} board with holes {}: {plan:?}",
                    p.shape.name(),
                    p.has_holes()
                );
                plans.push(plan);
            }
            let what = format!("{} {plan:?}", describe(&p, false));
            let r = solve(&p, &|| false).unwrap_or_else(|e| panic!("{what}: {e:?}"));
            valid(&p, &patterns(&p), &r, &what);
        }
    }
    assert!(plans.contains(&Plan::Chase) && plans.contains(&Plan::Dense), "{plans:?}");
}

/// Sutner's theorem: for σ+ (a press changes the node and its neighbours)
/// on any graph, all lights on can be turned all off: the all-ones vector is
/// in the column space of A + I over GF(2) (the diagonal of a symmetric
/// matrix over GF(2) is in its column space). Holes leave an induced
/// subgraph, so they keep it true.
fn sutner_holds(p: &Puzzle, what: &str) {
    assert!(!p.any_locked() || p.locked.same_values(&p.holes), "no locks: {what}");
    let pats = patterns(p);
    let n = p.cells();
    // The theorem's hypothesis, on the reference matrix: symmetric, diagonal 1 off the holes.
    for (a, row) in pats.iter().enumerate() {
        assert_eq!(row[a], u32::from(p.holes.get(a) == 0), "diagonal: {what}");
        for (b, &v) in row.iter().enumerate() {
            assert_eq!(v, pats[b][a], "symmetric: {what}");
        }
    }
    let on = Puzzle { lights: Board::dense((0..n).map(|i| u16::from(p.holes.get(i) == 0)).collect()), ..p.clone() };
    let free = free_cells(&on);
    let e = eliminate(2, &pats, &free, &need(&on));
    assert!(e.consistent, "the all-ones vector is in the column space (reference elimination): {what}");
    let r = solve(&on, &|| false).expect("solves");
    assert!(r.solvable, "all on → all off: {what}");
    assert_eq!(r.solutions, BigUint::from(2u32).pow(e.kernel.len() as u32), "count: {what}");
    let x = r.minimum.as_ref().unwrap().presses.to_vec();
    assert_eq!(apply(&pats, &x, 2), need(&on), "{what}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn sutner_all_on_is_solvable_on_random_graphs(
        (n, present, holes) in (1usize..=60, 0.01f64..0.6).prop_flat_map(|(n, d)| (Just(n), mask(n * (n - 1) / 2, d), mask(n, 0.1)))
    ) {
        let p = Puzzle::on_graph(random_graph(n, &present), 2, Rule::Cross);
        sutner_holds(&p, &format!("{n} nodes, {} edges", p.shape.graph().unwrap().edge_count()));
        let p = with_holes(p, &holes);
        sutner_holds(&p, &format!("{n} nodes with holes {holes:?}"));
    }

    /// Hex grids and square grids (every surface) are graphs too.
    #[test]
    fn sutner_all_on_is_solvable_on_grids_with_holes(
        rows in 1usize..=8,
        cols in 1usize..=9,
        hex in any::<bool>(),
        topo in 0usize..6,
        holes in mask(9 * 9, 0.15),
    ) {
        const TOPOLOGIES: [Topology; 6] =
            [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective];
        let (shape, topo, rows) = if hex {
            let t = TOPOLOGIES[topo % 3];
            (Shape::Hex, t, if t == Topology::Torus && rows % 2 == 1 { rows + 1 } else { rows })
        } else {
            (Shape::Square, TOPOLOGIES[topo], rows)
        };
        let holes = &holes[..rows * cols];
        let p = Puzzle { shape, ..Puzzle::new(rows, cols, 2, Rule::Cross, topo) };
        sutner_holds(&with_holes(p, holes), &format!("{rows}x{cols} hex={hex} {topo:?} {holes:?}"));
    }
}

/// The nullity of σ (`rule ring`) or σ+ (`rule cross`) over GF(2) by the
/// solver: the solutions of lights off, goal off are the quiet patterns.
fn nullity(g: Graph, rule: Rule) -> u32 {
    let p = Puzzle::on_graph(g, 2, rule);
    let r = solve(&p, &|| false).expect("solves");
    let bits = r.solutions.bits() as u32 - 1;
    assert_eq!(r.solutions, BigUint::from(2u32).pow(bits));
    // The reference elimination says the same.
    let e = eliminate(2, &patterns(&p), &free_cells(&p), &vec![0; p.cells()]);
    assert_eq!(e.kernel.len() as u32, bits, "{} {}", p.shape.graph().unwrap().describe(), p.rule.name());
    bits
}

/// Textbook nullities: A + I of K_n is the all-ones matrix (rank 1); the
/// path's σ+ is singular exactly when n ≡ 2 (mod 3) and the cycle's when
/// 3 | n (nullity 2); the path's adjacency matrix is singular exactly for
/// odd n; the cycle's σ has the quiet patterns constant on even and on odd
/// positions (nullity 2 for even n, 1 for odd n).
#[test]
fn nullities_of_paths_cycles_and_complete_graphs() {
    for n in 1..=40u64 {
        let g = |name| named(name, Some(n)).unwrap();
        let n32 = n as u32;
        assert_eq!(nullity(g("path"), Rule::Cross), u32::from(n % 3 == 2), "path {n} σ+");
        assert_eq!(nullity(g("path"), Rule::Ring), u32::from(n % 2 == 1), "path {n} σ");
        if n <= 20 {
            assert_eq!(nullity(g("complete"), Rule::Cross), n32 - 1, "complete {n} σ+");
        }
        if n >= 3 {
            assert_eq!(nullity(g("cycle"), Rule::Cross), if n % 3 == 0 { 2 } else { 0 }, "cycle {n} σ+");
            assert_eq!(nullity(g("cycle"), Rule::Ring), if n % 2 == 0 { 2 } else { 1 }, "cycle {n} σ");
        }
    }
}

/// The named graphs' nullities (σ+, σ) over GF(2), each confirmed here by
/// enumerating all 2^n press vectors (the quiet ones are the kernel), by the
/// reference elimination and by the solver.
#[test]
fn nullities_of_the_named_graphs_by_exhaustive_search() {
    for (name, size, cross, ring) in [
        ("tetrahedron", None, 3, 0),
        ("cube", None, 4, 0),
        ("octahedron", None, 0, 4),
        ("petersen", None, 5, 4),
        ("icosahedron", None, 6, 0),
        ("dodecahedron", None, 6, 4),
        ("cube-surface", Some(1), 0, 4),
        ("cube-surface", Some(2), 8, 8),
    ] {
        for (rule, want) in [(Rule::Cross, cross), (Rule::Ring, ring)] {
            let g = named(name, size).unwrap();
            let p = Puzzle::on_graph(g.clone(), 2, rule.clone());
            let brute = brute_force_many(2, &patterns(&p), &free_cells(&p), &[vec![0; p.cells()]])[0];
            assert_eq!(brute.count, 1 << want, "{name} {} by enumeration", rule.name());
            assert_eq!(nullity(g, rule.clone()), want, "{name} {}", rule.name());
        }
    }
    // Larger cube surfaces: the solver and the reference elimination agree
    // (inside `nullity`); no figure is claimed.
    for n in 3..=6 {
        for rule in [Rule::Cross, Rule::Ring] {
            nullity(named("cube-surface", Some(n)).unwrap(), rule);
        }
    }
}

/// σ+ on the complete graph: one press turns every light; all on is one press.
#[test]
fn complete_graph_all_on_takes_one_press() {
    for n in 1..=30u64 {
        let g = named("complete", Some(n)).unwrap();
        let p = Puzzle { lights: Board::uniform(n as usize, 1), ..Puzzle::on_graph(g, 2, Rule::Cross) };
        let r = solve(&p, &|| false).unwrap();
        let m = r.minimum.unwrap();
        assert_eq!((m.cost, m.optimal), (1, true), "complete {n}");
    }
}

/// `locked` and `holes` take `on` and `off` like the values do: `locked on`
/// leaves no button (solved only where the lights already are the goal),
/// `off` is the default; a board or graph whose every cell is a hole is
/// L0134, like a graph with no nodes.
#[test]
fn on_and_off_masks() {
    use lights_compiler::{check_source, BlockReport};
    let check = |body: &str| check_source(&format!("puzzle \"p\" {{\n  {body}\n}}\n"));
    let report = |body: &str| {
        let a = check(body);
        let p = &a.blocks[0];
        assert!(p.diagnostics.iter().all(|d| !d.is_error()), "{body}: {:?}", p.diagnostics);
        let r = p.report.as_ref().and_then(BlockReport::as_lights).expect("solved").clone();
        (r.solvable, r.solutions.to_string())
    };
    assert_eq!(report("graph petersen\n  locked on"), (true, "1".into()), "all off already");
    assert_eq!(report("graph petersen\n  locked on\n  lights at 3\n  expect unsolvable"), (false, "0".into()));
    assert_eq!(report("size 3x3\n  locked off\n  holes off\n  lights on"), report("size 3x3\n  lights on"));
    assert_eq!(report("size 2x2\n  grid hex\n  holes off\n  locked on\n  goal off"), (true, "1".into()));
    for body in [
        "size 2x2\n  holes on",
        "size 1x1\n  grid hex\n  holes at 1,1",
        "graph { 1-2 2-3 }\n  holes at 1 2 3",
        "graph petersen\n  holes on",
    ] {
        let a = check(body);
        let codes: Vec<&str> = a.blocks[0].diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["L0134"], "{body}");
    }
}
