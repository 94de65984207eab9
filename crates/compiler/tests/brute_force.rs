//! The solver against exhaustive enumeration on tiny boards: every rule ×
//! every topology × W ∈ {2, 3, 4, 5, 6, 8, 9, 12}, random lights, goals,
//! locked cells and holes; hexagonal grids (plane, cylinder, torus) and
//! graphs (random ones and the named ones small enough to enumerate). The
//! press patterns are re-derived from the language reference independently
//! of `lower.rs` (`reference/mod.rs`: lines followed across the surface by
//! repeated steps, flip as "the whole line through the cell", hexagons that
//! touch in the plane, a graph's edge list, holes removed afterwards), so a
//! lowering bug cannot hide behind a shared helper.

mod reference;

use lights_compiler::graph::{named, Graph, GraphKind};
use lights_compiler::model::{Board, Puzzle, Rule, Shape, Stencil, Topology};
use lights_compiler::solve::{solve, Report};
use num_bigint::BigUint;
use proptest::prelude::*;
use reference::{
    all_solutions, apply, brute_force, brute_force_many, free_cells, need, patterns, patterns_with, Brute,
};

const MODULI: [u32; 8] = [2, 3, 4, 5, 6, 8, 9, 12];
const TOPOLOGIES: [Topology; 6] =
    [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective];
/// The moduli of the new shapes' tests.
const SHAPE_MODULI: [u32; 4] = [2, 3, 4, 6];

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
        lights: written(lights),
        goal: written(goal),
        locked: written(locked.into_iter().map(u16::from).collect()),
        ..Puzzle::new(rows, cols, w, rule, topology).named("p")
    }
}

/// Makes the cells of `holes` holes the way validation does: no light and
/// no goal there, and the holes folded into the locked buttons.
fn with_holes(mut p: Puzzle, holes: &[bool]) -> Puzzle {
    let mask: Vec<u16> = holes.iter().map(|&h| u16::from(h)).collect();
    let off = |b: &Board| written((0..b.len()).map(|i| if holes[i] { 0 } else { b.get(i) }).collect());
    p.lights = off(&p.lights);
    p.goal = off(&p.goal);
    p.holes = written(mask);
    p.locked = p.locked.union_mask(&p.holes);
    p
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

/// Locks buttons (from the end) until W^free ≤ `limit`.
fn limit_free(w: u32, locked: &mut [bool], holes: &[bool], limit: u64) {
    let free = |l: &[bool]| (0..l.len()).filter(|&i| !l[i] && !holes[i]).count() as u32;
    let mut i = locked.len();
    while u64::from(w).pow(free(locked)) > limit {
        i -= 1;
        locked[i] = true;
    }
}

/// Everything the report says against the exhaustive answer: solvable, the
/// exact count, the minimum (proven, equal to the fewest presses, solving
/// the board without pressing a locked button or a hole), the quiet
/// patterns and the certificate.
fn check(p: &Puzzle, patterns: &[Vec<u32>], report: &Report) -> Result<(), TestCaseError> {
    let w = p.states;
    let free = free_cells(p);
    let brute = brute_force(p, patterns, &free);
    let need = need(p);
    let pressable = |cell: usize| p.locked.get(cell) == 0 && p.holes.get(cell) == 0;

    // The reference elimination (used where enumeration is too slow) agrees
    // with the enumeration.
    let all = all_solutions(w, patterns, &free, &need, 1 << 16).expect("few solutions");
    prop_assert_eq!(all.len() as u64, brute.count, "reference elimination: count");
    prop_assert_eq!(all.iter().map(|x| x.iter().map(|&v| u64::from(v)).sum::<u64>()).min(), brute.min_cost);
    for x in &all {
        let mut cells = vec![0u32; p.cells()];
        for (&c, &v) in free.iter().zip(x) {
            cells[c] = v;
        }
        prop_assert_eq!(&apply(patterns, &cells, w), &need, "reference elimination: a solution");
    }

    prop_assert_eq!(report.unknowns, free.len(), "unknowns");

    // The counting bound never exceeds the fewest presses, and an exact
    // cover, when one is found, solves the board with its presses.
    if let Some(min) = brute.min_cost {
        let bound = lights_compiler::minimum::counting_bound(p).expect("tiny boards get a bound");
        prop_assert!(bound <= min, "counting bound {} above the minimum {}", bound, min);
        if let Some(x) = lights_compiler::minimum::exact_cover(p, u64::MAX) {
            prop_assert!(x.iter().enumerate().all(|(c, &n)| n == 0 || pressable(c)), "the cover presses a locked cell");
            prop_assert_eq!(apply(patterns, &x, w), need.clone(), "the cover does not solve the board");
            prop_assert!(x.iter().map(|&v| u64::from(v)).sum::<u64>() >= min);
        }
    }
    prop_assert_eq!(report.solvable, brute.count > 0);
    prop_assert_eq!(&report.solutions, &BigUint::from(brute.count));

    // Kernel: generators are quiet, and their orders multiply to the kernel size.
    let kernel_size = report.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
    for g in &report.quiet_patterns {
        let x = g.presses.to_vec();
        prop_assert!(
            x.iter().enumerate().all(|(c, &n)| n == 0 || pressable(c)),
            "a quiet pattern presses a locked cell or a hole"
        );
        prop_assert!(apply(patterns, &x, w).iter().all(|&v| v == 0), "a quiet pattern changes the board");
    }
    if report.solvable {
        prop_assert_eq!(&kernel_size, &report.solutions);
        let m = report.minimum.as_ref().expect("solvable puzzles have a minimum");
        prop_assert!(m.optimal);
        prop_assert_eq!(Some(m.cost), brute.min_cost);
        // The minimum solution really solves the puzzle.
        let x = m.presses.to_vec();
        prop_assert!(x.iter().enumerate().all(|(c, &n)| n == 0 || pressable(c)), "presses a locked cell or a hole");
        prop_assert_eq!(apply(patterns, &x, w), need);
        prop_assert_eq!(m.cost, x.iter().map(|&v| u64::from(v)).sum::<u64>());
    } else {
        // The certificate: no free press changes y·state, and y·(goal − lights) ≠ 0.
        let y = report.certificate.as_ref().expect("unsolvable puzzles have a certificate");
        for &cell in &free {
            let dot: u64 = y.iter().zip(&patterns[cell]).map(|(a, &b)| u64::from(a) * u64::from(b)).sum();
            prop_assert_eq!(dot % u64::from(w), 0);
        }
        let diff: u64 = (0..p.cells()).map(|i| u64::from(y.get(i)) * u64::from(need[i])).sum();
        prop_assert_ne!(diff % u64::from(w), 0);
    }
    Ok(())
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Cross),
        Just(Rule::King),
        Just(Rule::Flip),
        Just(Rule::Merlin),
        Just(Rule::Ring),
        (prop::sample::select(vec![(1usize, 1usize), (1, 3), (3, 1), (3, 3)]), prop::collection::vec(0u32..12, 9))
            .prop_map(|((h, w), ws)| Rule::Stencil(Stencil { rows: h, cols: w, weights: ws[..h * w].to_vec() })),
    ]
}

/// A tiny square board; with `holes`, about a quarter of its cells are holes.
fn case_strategy(holes: bool) -> impl Strategy<Value = Puzzle> {
    (
        1usize..=3,
        1usize..=3,
        prop::sample::select(MODULI.to_vec()),
        rule_strategy(),
        prop::sample::select(TOPOLOGIES.to_vec()),
    )
        .prop_flat_map(move |(rows, cols, w, rule, topo)| {
            let n = rows * cols;
            (
                Just((rows, cols, w, rule, topo)),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(prop::bool::weighted(0.2), n),
                prop::collection::vec(prop::bool::weighted(if holes { 0.25 } else { 0.0 }), n),
            )
        })
        .prop_map(|((rows, cols, w, rule, topo), lights, goal, mut locked, holes)| {
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
            limit_free(w, &mut locked, &holes, 5000);
            with_holes(puzzle(rows, cols, w, rule, topo, lights, goal, locked), &holes)
        })
}

/// A hex board up to 4×4 on the plane, a cylinder or a torus (even rows),
/// cross or ring, with holes and locks.
fn hex_strategy() -> impl Strategy<Value = Puzzle> {
    (
        1usize..=4,
        1usize..=4,
        prop::sample::select(SHAPE_MODULI.to_vec()),
        prop::sample::select(vec![Rule::Cross, Rule::Ring]),
        prop::sample::select(vec![Topology::Plane, Topology::Cylinder, Topology::Torus]),
    )
        .prop_flat_map(|(rows, cols, w, rule, topo)| {
            let rows = if topo == Topology::Torus && rows % 2 == 1 { rows + 1 } else { rows };
            let n = rows * cols;
            (
                Just((rows, cols, w, rule, topo)),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(prop::bool::weighted(0.15), n),
                prop::collection::vec(prop::bool::weighted(0.2), n),
            )
        })
        .prop_map(|((rows, cols, w, rule, topo), lights, goal, mut locked, holes)| {
            limit_free(w, &mut locked, &holes, 1 << 14);
            let p = Puzzle { shape: Shape::Hex, ..puzzle(rows, cols, w, rule, topo, lights, goal, locked) };
            with_holes(p, &holes)
        })
}

/// A random graph on up to 16 nodes (its edge list as generated: repeats
/// and both orders included), cross (σ+) or ring (σ), with holes and locks.
fn graph_strategy() -> impl Strategy<Value = (Puzzle, Vec<(usize, usize)>)> {
    (
        1usize..=16,
        prop::sample::select(SHAPE_MODULI.to_vec()),
        prop::sample::select(vec![Rule::Cross, Rule::Ring]),
        0.05f64..0.7,
    )
        .prop_flat_map(|(n, w, rule, density)| {
            let pairs = n * (n - 1) / 2;
            (
                Just((n, w, rule)),
                prop::collection::vec(prop::bool::weighted(density), pairs),
                prop::collection::vec(any::<bool>(), pairs),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(0u16..w as u16, n),
                prop::collection::vec(prop::bool::weighted(0.15), n),
                prop::collection::vec(prop::bool::weighted(0.15), n),
            )
        })
        .prop_map(|((n, w, rule), present, flipped, lights, goal, mut locked, holes)| {
            let mut edges = Vec::new();
            let mut k = 0;
            for a in 0..n {
                for b in a + 1..n {
                    if present[k] {
                        edges.push(if flipped[k] { (b, a) } else { (a, b) });
                        // Now and then an edge written twice.
                        if flipped[k] && k % 3 == 0 {
                            edges.push((a, b));
                        }
                    }
                    k += 1;
                }
            }
            let list: Vec<(u32, u32)> = edges.iter().map(|&(a, b)| (a as u32, b as u32)).collect();
            let g = Graph::from_edges(GraphKind::Custom, n, &list);
            limit_free(w, &mut locked, &holes, if w == 2 { 1 << 16 } else { 1 << 14 });
            let base = Puzzle::on_graph(g, w, rule);
            let p = Puzzle {
                lights: written(lights),
                goal: written(goal),
                locked: written(locked.iter().map(|&l| u16::from(l)).collect()),
                ..base
            };
            (with_holes(p, &holes), edges)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_exhaustive_search(p in case_strategy(false)) {
        let report = solve(&p, &|| false).expect("tiny puzzles solve");
        check(&p, &patterns(&p), &report)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Square boards with holes: every rule and topology, a hole neither
    /// lights nor is pressed.
    #[test]
    fn boards_with_holes_agree_with_exhaustive_search(p in case_strategy(true)) {
        let report = solve(&p, &|| false).expect("tiny puzzles solve");
        check(&p, &patterns(&p), &report)?;
    }

    /// Hex grids: plane, cylinder and torus, cross and ring, holes and locks.
    #[test]
    fn hex_grids_agree_with_exhaustive_search(p in hex_strategy()) {
        let report = solve(&p, &|| false).expect("tiny puzzles solve");
        check(&p, &patterns(&p), &report)?;
    }

    /// Random graphs: the press patterns come from the edge list as
    /// generated, not from the graph's adjacency lists.
    #[test]
    fn random_graphs_agree_with_exhaustive_search((p, edges) in graph_strategy()) {
        let mut expected: Vec<(usize, usize)> = edges.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        expected.sort_unstable();
        expected.dedup();
        let g = p.shape.graph().expect("a graph puzzle");
        prop_assert_eq!(g.edges().collect::<Vec<_>>(), expected);
        let report = solve(&p, &|| false).expect("tiny puzzles solve");
        check(&p, &patterns_with(&p, Some(&edges)), &report)?;
    }
}

/// A deterministic stream of pseudo-random numbers (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The named graphs small enough to enumerate every press vector of, with
/// W ∈ {2, 3, 4, 6} while W^nodes ≤ 2^20 (W = 2 up to the 24 nodes of
/// `cube-surface 2`): all lights on and random lights, cross and ring, then
/// random locks and holes.
#[test]
fn named_graphs_agree_with_exhaustive_search() {
    let mut graphs: Vec<Graph> = ["tetrahedron", "cube", "octahedron", "petersen", "icosahedron", "dodecahedron"]
        .iter()
        .map(|n| named(n, None).unwrap())
        .collect();
    for n in 3..=10 {
        graphs.push(named("cycle", Some(n)).unwrap());
    }
    for n in 1..=10 {
        graphs.push(named("path", Some(n)).unwrap());
        graphs.push(named("complete", Some(n)).unwrap());
    }
    graphs.push(named("cube-surface", Some(1)).unwrap());
    graphs.push(named("cube-surface", Some(2)).unwrap());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for g in &graphs {
        let n = g.nodes();
        for w in SHAPE_MODULI {
            let limit = if w == 2 { 1u64 << 24 } else { 1 << 20 };
            if (w as u64).checked_pow(n as u32).is_none_or(|c| c > limit) {
                continue;
            }
            for rule in [Rule::Cross, Rule::Ring] {
                let base = Puzzle::on_graph(g.clone(), w, rule.clone());
                // One enumeration for several lights: all on, then random.
                let mut boards: Vec<Puzzle> = vec![Puzzle { lights: Board::uniform(n, 1), ..base.clone() }];
                for _ in 0..3 {
                    let lights: Vec<u16> = (0..n).map(|_| rng.below(u64::from(w)) as u16).collect();
                    boards.push(Puzzle { lights: written(lights), ..base.clone() });
                }
                let pats = patterns(&base);
                let free = free_cells(&base);
                let needs: Vec<Vec<u32>> = boards.iter().map(need).collect();
                let brutes = brute_force_many(w, &pats, &free, &needs);
                for (p, brute) in boards.iter().zip(brutes) {
                    let what = format!("{} W={w} {} lights={:?}", g.describe(), rule.name(), p.lights.to_vec());
                    agrees(p, &pats, brute, &what);
                    checked += 1;
                }
                // Random locks and holes, one board each (small: enumerated on their own).
                if n <= 16 || w == 2 {
                    for _ in 0..2 {
                        let holes: Vec<bool> = (0..n).map(|_| rng.below(6) == 0).collect();
                        let locked: Vec<bool> = (0..n).map(|_| rng.below(5) == 0).collect();
                        let lights: Vec<u16> = (0..n).map(|_| rng.below(u64::from(w)) as u16).collect();
                        let p = Puzzle {
                            lights: written(lights),
                            locked: written(locked.iter().map(|&l| u16::from(l)).collect()),
                            ..base.clone()
                        };
                        let p = with_holes(p, &holes);
                        let pats = patterns(&p);
                        let brute = brute_force(&p, &pats, &free_cells(&p));
                        let what = format!("{} W={w} {} holes={holes:?} locked={locked:?}", g.describe(), rule.name());
                        agrees(&p, &pats, brute, &what);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

/// [`check`]'s comparisons outside proptest, with a known brute answer.
fn agrees(p: &Puzzle, pats: &[Vec<u32>], brute: Brute, what: &str) {
    let r = solve(p, &|| false).expect("solves");
    assert_eq!(r.solvable, brute.count > 0, "solvable: {what}");
    assert_eq!(r.solutions, BigUint::from(brute.count), "count: {what}");
    if let Some(m) = &r.minimum {
        let x = m.presses.to_vec();
        assert!(
            x.iter().enumerate().all(|(c, &v)| v == 0 || (p.locked.get(c) == 0 && p.holes.get(c) == 0)),
            "presses a locked button or a hole: {what}"
        );
        assert_eq!(apply(pats, &x, p.states), need(p), "the minimum does not solve it: {what}");
        if m.optimal {
            assert_eq!(Some(m.cost), brute.min_cost, "minimum: {what}");
        } else {
            assert!(m.lower_bound <= brute.min_cost.unwrap() && brute.min_cost.unwrap() <= m.cost, "bounds: {what}");
        }
    }
}
