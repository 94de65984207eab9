//! Every fast path against dense elimination of the whole system: on tiny
//! boards of every rule, topology and modulus (property tests), and on random
//! boards up to 60×60 (cross-checks between the polynomial method, the chase
//! and the dense path).

use lights_compiler::fast::{self, chase, flip, Plan};
use lights_compiler::model::{Board, Puzzle, Rule, Stencil, Topology};
use lights_compiler::solve::{solve_dense, Report, SolveOptions};
use num_bigint::BigUint;
use proptest::prelude::*;

fn puzzle(rows: usize, cols: usize, states: u32, rule: Rule, topology: Topology) -> Puzzle {
    Puzzle::new(rows, cols, states, rule, topology)
}

const TOPOLOGIES: [Topology; 6] =
    [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein, Topology::Projective];

/// The same answer as the dense path: solvability, exact count, minimum cost
/// (when both are proven), and the fast report's own vectors are valid
/// (the fast paths re-check them against the puzzle before returning).
fn assert_agrees(p: &Puzzle, fast: &Report) {
    let dense = solve_dense(p, SolveOptions::default(), &|| false).expect("dense solve");
    let what = format!(
        "{}x{} W={} {} {} lights={:?} locked={:?}",
        p.rows,
        p.cols,
        p.states,
        p.rule.name(),
        p.topology.name(),
        p.lights.to_vec(),
        p.locked.to_vec()
    );
    assert_eq!(fast.solvable, dense.solvable, "solvable: {what}");
    assert_eq!(fast.solutions, dense.solutions, "count: {what}");
    assert_eq!(fast.unknowns, dense.unknowns, "unknowns: {what}");
    if !fast.quiet_patterns_omitted {
        let size = fast.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
        let dense_size = dense.quiet_patterns.iter().fold(BigUint::from(1u32), |acc, g| acc * g.order);
        assert_eq!(size, dense_size, "kernel size: {what}");
    }
    assert_eq!(fast.certificate.is_some(), !dense.solvable, "certificate: {what}");
    match (&fast.minimum, &dense.minimum) {
        (Some(f), Some(d)) if f.optimal && d.optimal => assert_eq!(f.cost, d.cost, "minimum: {what}"),
        (Some(_), Some(_)) => {}
        (None, None) => {}
        _ => panic!("minimum present on one side only: {what}"),
    }
}

fn rule_strategy(states: u32) -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Cross),
        Just(Rule::King),
        Just(Rule::Merlin),
        Just(Rule::Flip),
        (prop_oneof![Just(1usize), Just(3)], prop_oneof![Just(1usize), Just(3)])
            .prop_flat_map(move |(r, c)| proptest::collection::vec(0..states, r * c)
                .prop_map(move |weights| Rule::Stencil(Stencil { rows: r, cols: c, weights }))),
    ]
}

fn board_strategy() -> impl Strategy<Value = Puzzle> {
    (1usize..=5, 1usize..=5, prop_oneof![Just(2u32), Just(3), Just(4), Just(6), Just(5), Just(12)])
        .prop_flat_map(|(rows, cols, states)| {
            (
                Just((rows, cols, states)),
                rule_strategy(states),
                0usize..6,
                proptest::collection::vec(0..states as u16, rows * cols),
                proptest::collection::vec(0..states as u16, rows * cols),
                proptest::collection::vec(prop::bool::weighted(0.15), rows * cols),
            )
        })
        .prop_map(|((rows, cols, states), rule, topo, lights, goal, locked)| {
            let mut p = puzzle(rows, cols, states, rule, TOPOLOGIES[topo]);
            p.lights = Board::dense(lights);
            p.goal = Board::dense(goal);
            p.locked = Board::dense(locked.into_iter().map(u16::from).collect());
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The symbolic chase agrees with dense elimination on every tiny board.
    #[test]
    fn chase_matches_dense(p in board_strategy()) {
        if let Some(r) = chase::solve_always(&p, SolveOptions::default(), &|| false) {
            assert_agrees(&p, &r.expect("chase"));
        }
    }

    /// The polynomial method agrees with dense elimination wherever it applies.
    #[test]
    fn polynomial_matches_dense(
        rows in 1usize..=9,
        cols in 1usize..=9,
        topo in 0usize..3,
        seed in any::<u64>(),
        density in 0u64..=100,
    ) {
        let topo = [Topology::Plane, Topology::Cylinder, Topology::Torus][topo];
        let mut p = puzzle(rows, cols, 2, Rule::Cross, topo);
        let mut s = seed | 1;
        p.lights = Board::dense((0..p.cells()).map(|_| {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;u16::from(s % 100 < density) }).collect());
        if let Some(r) = fast::solve_polynomial(&p, SolveOptions::default(), &|| false) {
            assert_agrees(&p, &r.expect("polynomial"));
        } else {
            prop_assert!(
                (topo == Topology::Cylinder && cols < 3) || (topo == Topology::Torus && (rows < 3 || cols < 3))
            );
        }
    }

    /// The polynomial method over GF(p) (the chase's leftover system for an
    /// odd prime W, or a product of distinct primes by Chinese remainders)
    /// agrees with dense elimination wherever it applies: plane
    /// boards, cylinders (chased either way), tori, Möbius bands and Klein
    /// bottles with an even number of columns (folded), any lights and
    /// goal; and it applies to every such board of at least two rows and
    /// columns whose seams leave lines of three cells or more.
    #[test]
    fn prime_polynomial_matches_dense(
        rows in 1usize..=9,
        cols in 1usize..=9,
        surface in 0usize..5,
        w in prop_oneof![Just(3u32), Just(5), Just(7), Just(11), Just(13), Just(65_521), Just(6), Just(10), Just(15), Just(30)],
        seed in any::<u64>(),
        density in 0u64..=100,
    ) {
        let topo = [Topology::Plane, Topology::Cylinder, Topology::Torus, Topology::Mobius, Topology::Klein][surface];
        let torus = topo == Topology::Torus;
        let klein = topo == Topology::Klein;
        let glued_columns = matches!(topo, Topology::Cylinder | Topology::Mobius);
        let mut p = puzzle(rows, cols, w, Rule::Cross, topo);
        let mut s = seed | 1;
        let mut next = move || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
        p.lights = Board::dense((0..p.cells()).map(|_| {
            let v = next(); if v % 100 < density { (v >> 8) as u16 % w as u16 } else { 0 } }).collect());
        p.goal = Board::dense((0..p.cells()).map(|_| { let v = next(); if v % 4 == 0 { (v >> 8) as u16 % w as u16 } else { 0 } }).collect());
        match chase::solve_by_prime_polynomial(&p, SolveOptions::default()) {
            Some(r) => {
                let r = r.expect("polynomial over GF(p)");
                assert_agrees(&p, &r);
                let chased = chase::solve_always(&p, SolveOptions::default(), &|| false).expect("chase applies").expect("chase");
                prop_assert_eq!(&chased.solutions, &r.solutions);
            }
            // A single line (its chase runs along it), a cylinder or Möbius
            // band too narrow across its seam, or a torus too narrow for
            // cycles both ways.
            None => prop_assert!(
                rows == 1 || cols == 1 || (glued_columns && cols < 3) || (torus && (rows < 3 || cols < 3))
                    || (klein && (cols < 4 || cols % 2 == 1)),
                "{:?} {}×{}", topo, rows, cols
            ),
        }
    }
}

/// Random boards up to 60×60: the polynomial method, the chase and the dense
/// path give the same answers.
#[test]
fn cross_checks_up_to_60() {
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for round in 0..24 {
        let rows = 20 + (next() % 41) as usize;
        let cols = 20 + (next() % 41) as usize;
        let topo = [Topology::Plane, Topology::Cylinder, Topology::Torus][round % 3];
        let mut p = puzzle(rows, cols, 2, Rule::Cross, topo);
        let all_on = round % 4 == 0;
        p.lights = Board::dense((0..p.cells()).map(|_| u16::from(all_on || next() % 2 == 0)).collect());
        let poly =
            fast::solve_polynomial(&p, SolveOptions::default(), &|| false).expect("applies").expect("polynomial");
        assert_agrees(&p, &poly);
        let chased =
            chase::solve_always(&p, SolveOptions::default(), &|| false).expect("chase applies").expect("chase");
        assert_eq!(chased.solvable, poly.solvable);
        assert_eq!(chased.solutions, poly.solutions);
        if let (Some(a), Some(b)) = (&chased.minimum, &poly.minimum) {
            if a.optimal && b.optimal {
                assert_eq!(a.cost, b.cost);
            }
        }
    }
    // Every other rule and topology at 30×30..60×60: the chase against dense.
    for (k, topo) in TOPOLOGIES.iter().enumerate() {
        for (j, rule) in [Rule::Cross, Rule::King, Rule::Merlin].into_iter().enumerate() {
            let rows = 30 + ((k * 7 + j * 11) % 31);
            let cols = 30 + ((k * 13 + j * 5) % 31);
            let states = [2u32, 3, 4, 6][(k + j) % 4];
            let mut p = puzzle(rows, cols, states, rule, *topo);
            p.lights = Board::dense((0..p.cells()).map(|_| (next() % u64::from(states)) as u16).collect());
            p.locked = Board::dense((0..p.cells()).map(|_| u16::from(next() % 50 == 0)).collect());
            let chased =
                chase::solve_always(&p, SolveOptions::default(), &|| false).expect("chase applies").expect("chase");
            assert_agrees(&p, &chased);
        }
    }
}

/// Known figures through the fast paths (docs/solver.md, "Reference figures").
#[test]
fn reference_figures_through_the_fast_paths() {
    for (n, count) in [(4usize, 16u32), (5, 4), (19, 65_536), (48, 1)] {
        let mut p = puzzle(n, n, 2, Rule::Cross, Topology::Plane);
        p.lights = Board::dense(vec![1; n * n]);
        assert_eq!(fast::plan(&p), if n * n >= fast::SMALL_BOARD { Plan::Polynomial } else { Plan::Dense });
        let r = fast::solve_polynomial(&p, SolveOptions::default(), &|| false).unwrap().unwrap();
        assert_eq!(r.solutions, BigUint::from(count), "{n}×{n}");
        let c = chase::solve_always(&p, SolveOptions::default(), &|| false).unwrap().unwrap();
        assert_eq!(c.solutions, BigUint::from(count), "{n}×{n} chase");
    }
    // 5×5: every solution has 15 presses; 19×19: minimum 141, not the 144
    // that circulates (tests/published.rs replays all 2^16 solutions: docs/solver.md, "Reference figures").
    let mut p = puzzle(5, 5, 2, Rule::Cross, Topology::Plane);
    p.lights = Board::dense(vec![1; 25]);
    assert_eq!(
        fast::solve_polynomial(&p, SolveOptions::default(), &|| false).unwrap().unwrap().minimum.unwrap().cost,
        15
    );
    let mut p = puzzle(19, 19, 2, Rule::Cross, Topology::Plane);
    p.lights = Board::dense(vec![1; 361]);
    let m = fast::solve_polynomial(&p, SolveOptions::default(), &|| false).unwrap().unwrap().minimum.unwrap();
    assert_eq!((m.cost, m.optimal), (141, true));
    // 28×28, W = 3: exactly one solution (through the chase).
    let mut p = puzzle(28, 28, 3, Rule::Cross, Topology::Plane);
    p.lights = Board::dense(vec![1; 28 * 28]);
    assert_eq!(
        chase::solve_always(&p, SolveOptions::default(), &|| false).unwrap().unwrap().solutions,
        BigUint::from(1u32)
    );
}

/// Every rule × topology × modulus on every board up to 5×5 (random lights,
/// some locked cells): the chase, and the flip reduction where it applies
/// (boards without locks: 1 in 10 cells is locked, so small boards often
/// have none), agree with dense elimination.
#[test]
fn chase_on_every_small_board() {
    let mut s = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let stencil = |w: u32| Stencil { rows: 3, cols: 3, weights: [1, 2, 1, 2, 3, 2, 1, 2, 1].map(|x| x % w).to_vec() };
    for rows in 1..=5 {
        for cols in 1..=5 {
            for topo in TOPOLOGIES {
                for w in [2u32, 3, 4, 6] {
                    for rule in [Rule::Cross, Rule::King, Rule::Merlin, Rule::Flip, Rule::Stencil(stencil(w))] {
                        let mut p = puzzle(rows, cols, w, rule, topo);
                        p.lights = Board::dense((0..p.cells()).map(|_| (next() % u64::from(w)) as u16).collect());
                        p.locked = Board::dense((0..p.cells()).map(|_| u16::from(next() % 10 == 0)).collect());
                        let r = chase::solve_always(&p, SolveOptions::default(), &|| false).unwrap().expect("chase");
                        assert_agrees(&p, &r);
                        if let Some(r) = flip::solve(&p, SolveOptions::default(), &|| false) {
                            assert_agrees(&p, &r.expect("flip"));
                        }
                    }
                }
            }
        }
    }
}

/// The flip reduction on random boards without locks, every untwisted
/// surface and several W, including composite ones (docs/solver.md: both
/// sides even → unique solution).
#[test]
fn flip_reduction_matches_dense() {
    let mut s = 0xDEAD_BEEF_CAFE_F00Du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for rows in 1..=7 {
        for cols in 1..=7 {
            for topo in [Topology::Plane, Topology::Cylinder, Topology::Torus] {
                for w in [2u32, 3, 4, 6, 12] {
                    let mut p = puzzle(rows, cols, w, Rule::Flip, topo);
                    p.lights = Board::dense((0..p.cells()).map(|_| (next() % u64::from(w)) as u16).collect());
                    let r = flip::solve(&p, SolveOptions::default(), &|| false).expect("applies").expect("flip");
                    assert_agrees(&p, &r);
                    if w == 2 && rows % 2 == 0 && cols % 2 == 0 {
                        assert_eq!(r.solutions, BigUint::from(1u32), "{rows}x{cols}");
                    }
                }
            }
        }
    }
}

/// The polynomial method's kernel is handed to the minimum search in the
/// systematic form dense elimination leaves (a unit of its own per
/// generator): from the polynomials' shifted, dense basis the search did
/// not prove this board's minimum with the default budget; from the
/// symbolic chase's it did.
#[test]
fn the_polynomial_method_leaves_a_kernel_the_search_proves_minima_over() {
    let mut p = puzzle(200, 204, 7, Rule::Cross, Topology::Torus);
    p.lights = Board::uniform(p.cells(), 6);
    let r = chase::solve_by_prime_polynomial(&p, SolveOptions::default()).expect("applies").expect("solves");
    assert_eq!(r.solutions, BigUint::from(7u32).pow(8));
    let min = r.minimum.expect("solvable");
    assert!(min.optimal, "{} presses, at least {}", min.cost, min.lower_bound);
    assert_eq!(min.cost, 74_800);
}
