//! The difficulty model (issue 31): each method is what it says, the
//! measure does not change when the board is turned, and the local player
//! never beats the proven minimum.

use lights_compiler::difficulty::{difficulty, Method};
use lights_compiler::model::{Board, Puzzle, Rule, Topology};
use lights_compiler::solve::solve;
use lights_compiler::symmetry::grid::Turn;
use proptest::prelude::*;

fn board(rows: usize, cols: usize, states: u32, lights: &[u16]) -> Puzzle {
    let mut p = Puzzle::new(rows, cols, states, Rule::Cross, Topology::Plane);
    p.lights = Board::dense(lights.to_vec());
    p
}

fn measure(p: &Puzzle) -> Option<lights_compiler::difficulty::Difficulty> {
    difficulty(p, &solve(p, &|| false).expect("small"))
}

#[test]
fn each_method_is_the_easiest_that_works() {
    // One press in the middle: pressing what helps does it, in one press.
    let d = measure(&board(3, 3, 2, &[0, 1, 0, 1, 1, 1, 0, 1, 0])).unwrap();
    assert_eq!((d.method, d.score, d.local_presses), (Method::Local, 1, Some(1)));
    // Every light on, 5×5: the chase leaves a bottom row, the table is needed.
    let d = measure(&board(5, 5, 2, &[1; 25])).unwrap();
    assert_eq!(d.method, Method::ChaseWithTable);
    assert_eq!(d.chase_alone, Some(false));
    // Two lights over a press of the second row: a chase settles it at once.
    let d = measure(&board(3, 3, 2, &[1, 0, 0, 1, 1, 0, 1, 0, 0])).unwrap();
    assert!(matches!(d.method, Method::Local | Method::Chase), "{d:?}");
    // A hex board has no chase: worked out unless local presses do it.
    let mut hex = board(3, 4, 2, &[1; 12]);
    hex.shape = lights_compiler::model::Shape::Hex;
    let r = solve(&hex, &|| false).unwrap();
    if let Some(d) = difficulty(&hex, &r) {
        assert!(matches!(d.method, Method::Local | Method::WorkedOut), "{d:?}");
        assert_eq!(d.chase_alone, None);
    }
    // Unsolvable: no difficulty.
    let unsolvable = board(4, 4, 2, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let r = solve(&unsolvable, &|| false).unwrap();
    assert!(!r.solvable || difficulty(&unsolvable, &r).is_some());
}

/// `p` turned (lights carried along).
fn turned(p: &Puzzle, turn: Turn) -> Puzzle {
    let (h, w) = turn.dims(p.rows, p.cols);
    let mut lights = vec![0u16; h * w];
    for i in 0..p.cells() {
        let (r, c) = turn.apply((i / p.cols, i % p.cols), p.rows, p.cols);
        lights[r * w + c] = p.lights.get(i);
    }
    let mut q = Puzzle::new(h, w, p.states, p.rule.clone(), p.topology);
    q.lights = Board::dense(lights);
    q
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn turning_the_board_keeps_the_difficulty_and_local_presses_never_beat_the_minimum(
        rows in 2..6usize,
        cols in 2..6usize,
        states in 2..5u32,
        cells in proptest::collection::vec(0..5u16, 36),
        t in 0..8usize,
    ) {
        let lights: Vec<u16> = cells[..rows * cols].iter().map(|v| v % states as u16).collect();
        let p = board(rows, cols, states, &lights);
        let r = solve(&p, &|| false).unwrap();
        let d = difficulty(&p, &r);
        prop_assert_eq!(d.is_some(), r.solvable);
        let Some(d) = d else { return Ok(()) };
        let turn = Turn::all().nth(t).unwrap();
        let q = turned(&p, turn);
        let dq = measure(&q).unwrap();
        prop_assert_eq!(d.score, dq.score, "{:?} turned {:?}", d, turn);
        let minimum = r.minimum.as_ref().unwrap();
        if let Some(local) = d.local_presses {
            if minimum.optimal {
                prop_assert!(local >= minimum.cost, "local {} < minimum {}", local, minimum.cost);
            }
        }
        // A chase-with-table run ends solved (a debug assertion inside) and costs two passes at least.
        if d.method == Method::ChaseWithTable {
            prop_assert!(d.score >= 2 * (rows * cols) as u64);
        }
    }
}
