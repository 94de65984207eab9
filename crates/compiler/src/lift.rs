//! Solutions lifted from a smaller board of the same surface.
//!
//! A press pattern on a torus of R×C cells that repeats every d₁ rows and
//! d₂ columns (d₁ | R, d₂ | C) is a pattern on the d₁×d₂ torus, repeated;
//! when a press's cells stay apart on the small board (d₁, d₂ at least the
//! press's height and width), it changes each light of the large board as
//! the small pattern changes the corresponding light of the small one. So
//! a solution of the small board, repeated, solves the large one when its
//! lights, goal and locks repeat the same way, and costs
//! (R/d₁)·(C/d₂) times as much. A twisted seam (the Klein bottle's top and
//! bottom, the Möbius band's sides) repeats the same way when the large
//! side holds an odd number of small ones: every second copy is mirrored,
//! and an odd count ends mirrored at the seam, as the seam mirrors. An
//! open side is not divided.
//!
//! Such solutions are only upper bounds, but on wrapped boards with many
//! states they can beat the searches by far: the 48×48 torus with W = 12
//! gets 6336 presses from the 4×4 torus (44 presses, proven), where the
//! search found 9216. Every lifted solution is applied
//! to the large board before it is kept, so a wrong lift is never an
//! answer. The projective plane is left out: its corners are not the
//! corners of repeated copies (lifts leave 8 lights wrong there).

use crate::lower::apply_presses;
use crate::model::{Gluing, Presses, Puzzle, Rule, Shape, Topology};
use crate::report::SolveOptions;

/// Cells of the largest small board tried (and at most a quarter of the large one).
const MAX_CELLS: usize = 144;

/// Units a small board is charged per cell for being solved at all (the
/// solve outside its minimum search: about 1–3 µs a cell, measured), and
/// the units of minimum search it is given per cell.
const SOLVE_UNITS_PER_CELL: u64 = 3_000;
const SEARCH_UNITS_PER_CELL: u64 = 2_000;

/// Units per cell of the large board to spell a lift out and check it.
const CHECK_UNITS_PER_CELL: u64 = 20;

/// The divisions of one side of `len` cells with gluing `g` into copies of
/// at least `least` cells: their lengths.
fn divisions(len: usize, g: Gluing, least: usize) -> Vec<usize> {
    (least.max(1)..=len)
        .filter(|&d| match g {
            Gluing::Open => d == len,
            Gluing::Glued => len.is_multiple_of(d),
            Gluing::Twisted => len.is_multiple_of(d) && (len / d) % 2 == 1,
        })
        .collect()
}

/// The rows and columns one press spans, when they are only its own cells
/// (not for `flip`, whose presses run the whole row and column).
fn press_span(rule: &Rule) -> Option<(usize, usize)> {
    match rule {
        Rule::Cross | Rule::King | Rule::Merlin | Rule::Ring => Some((3, 3)),
        Rule::Stencil(s) => Some((s.rows, s.cols)),
        Rule::Flip => None,
    }
}

/// The cell of the d₁×d₂ board that cell `(r, c)` of `p` repeats.
fn source(p: &Puzzle, (d1, d2): (usize, usize), r: usize, c: usize) -> usize {
    let (mut a, mut b) = (r % d1, c % d2);
    if p.topology.rows() == Gluing::Twisted && (r / d1) % 2 == 1 {
        b = d2 - 1 - b;
    }
    if p.topology.columns() == Gluing::Twisted && (c / d2) % 2 == 1 {
        a = d1 - 1 - a;
    }
    a * d2 + b
}

/// The small boards `p` repeats, smallest first: `(d₁, d₂)`.
fn small_boards(p: &Puzzle) -> Vec<(usize, usize)> {
    if p.shape != Shape::Square || p.topology == Topology::Projective || p.has_holes() {
        return Vec::new();
    }
    let Some((h, w)) = press_span(&p.rule) else { return Vec::new() };
    let mut boards: Vec<(usize, usize)> = divisions(p.rows, p.topology.rows(), h)
        .into_iter()
        .flat_map(|d1| divisions(p.cols, p.topology.columns(), w).into_iter().map(move |d2| (d1, d2)))
        .filter(|&(d1, d2)| d1 * d2 <= MAX_CELLS.min(p.rows * p.cols / 4))
        .collect();
    // On a square torus a board and its transpose give the same lift for
    // the named rules (all are symmetric under the swap).
    if p.rows == p.cols && p.topology == Topology::Torus && p.rule.is_named() {
        boards.retain(|&(d1, d2)| d1 <= d2);
    }
    boards.sort_by_key(|&(d1, d2)| (d1 * d2, d1));
    boards.retain(|&board| repeats(p, board));
    boards
}

fn cells((d1, d2): (usize, usize)) -> u64 {
    (d1 * d2) as u64
}

/// The units a small board of `p` is charged: its solve, its search and
/// checking its lift on `p`.
fn charge(p: &Puzzle, board: (usize, usize)) -> u64 {
    cells(board) * (SOLVE_UNITS_PER_CELL + SEARCH_UNITS_PER_CELL) + (p.rows * p.cols) as u64 * CHECK_UNITS_PER_CELL
}

/// The units that solve every small board of `p` and check every lift (0
/// when there is none).
pub(crate) fn work_for_all(p: &Puzzle) -> u64 {
    small_boards(p).into_iter().map(|board| charge(p, board)).sum()
}

/// Whether the lights, goal and locks of `p` repeat its top left d₁×d₂
/// cells (the small board's).
fn repeats(p: &Puzzle, board: (usize, usize)) -> bool {
    let first = |i: usize| {
        let s = source(p, board, i / p.cols, i % p.cols);
        (s / board.1) * p.cols + s % board.1
    };
    [&p.lights, &p.goal, &p.locked]
        .iter()
        .all(|b| b.uniform_value().is_some() || (0..p.rows * p.cols).all(|i| b.get(i) == b.get(first(i))))
}

/// The d₁×d₂ board `p` repeats: its top left cells.
fn small_puzzle(p: &Puzzle, (d1, d2): (usize, usize)) -> Puzzle {
    let mut q = Puzzle::new(d1, d2, p.states, p.rule.clone(), p.topology);
    let cut = |b: &crate::board::Board| {
        let values = (0..d1 * d2).map(|k| b.get((k / d2) * p.cols + k % d2)).collect();
        crate::board::Board::dense(values)
    };
    (q.lights, q.goal, q.locked) = (cut(&p.lights), cut(&p.goal), cut(&p.locked));
    q
}

/// The cheapest solution of `p` repeated from one of its small boards, if
/// one is cheaper than `cost`. The small boards are solved smallest first
/// while `work` units last, each charged for its solve and its search
/// (`solve` is the solver without lifts). Every lift is checked on `p`
/// before it is returned.
pub(crate) fn cheaper_lift(
    p: &Puzzle,
    cost: u64,
    work: u64,
    solve: &dyn Fn(&Puzzle, SolveOptions) -> Option<Presses>,
) -> Option<Presses> {
    let mut left = work;
    let mut best: Option<(u64, Presses)> = None;
    for board in small_boards(p) {
        let (search, charge) = (cells(board) * SEARCH_UNITS_PER_CELL, charge(p, board));
        if charge > left {
            break;
        }
        left -= charge;
        let copies = ((p.rows / board.0) * (p.cols / board.1)) as u64;
        let q = small_puzzle(p, board);
        let Some(small) = solve(&q, SolveOptions { search_minimum: true, minimum_work: search }) else { continue };
        let lifted_cost = small.sum() * copies;
        if lifted_cost >= best.as_ref().map_or(cost, |b| b.0) {
            continue;
        }
        let values: Vec<u32> =
            (0..p.rows * p.cols).map(|i| small.get(source(p, board, i / p.cols, i % p.cols))).collect();
        if solves(p, &values) {
            best = Some((lifted_cost, Presses::from_values(&values, p.states)));
        }
    }
    best.map(|b| b.1)
}

/// Whether pressing each cell `values[i]` times, none locked, takes the
/// lights to the goal.
fn solves(p: &Puzzle, values: &[u32]) -> bool {
    if values.iter().enumerate().any(|(i, &v)| v != 0 && p.locked.get(i) != 0) {
        return false;
    }
    let Ok(counts) = values.iter().map(|&v| u16::try_from(v)).collect::<Result<Vec<u16>, _>>() else {
        return false;
    };
    let after = apply_presses(p, &counts);
    after.iter().enumerate().all(|(i, &v)| v == u32::from(p.goal.get(i)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use proptest::prelude::*;

    fn tile(p: &Puzzle, board: (usize, usize), small: &[u32]) -> Vec<u32> {
        (0..p.rows * p.cols).map(|i| small[source(p, board, i / p.cols, i % p.cols)]).collect()
    }

    fn after(p: &Puzzle, presses: &[u32]) -> Vec<u32> {
        apply_presses(p, &presses.iter().map(|&v| v as u16).collect::<Vec<_>>())
    }

    proptest! {
        /// The claim the lifts rest on: pressing the repeated pattern on
        /// the large board changes its lights as the pattern changes the
        /// small board's, repeated — for every named rule, on every surface
        /// lifts are made for, twisted seams included.
        #[test]
        fn a_repeated_pattern_changes_the_lights_as_on_the_small_board(
            d1 in 3usize..=5, d2 in 3usize..=5, k1 in 0usize..3, k2 in 0usize..3,
            topology in prop::sample::select(vec![Topology::Torus, Topology::Klein, Topology::Cylinder, Topology::Mobius]),
            rule in prop::sample::select(vec!["cross", "king", "merlin", "ring"]),
            w in 2u32..=6, seed in any::<u64>(),
        ) {
            // How many copies each side may hold: any on a glued side, an
            // odd number on a twisted one, one on an open one.
            let copies = |g: Gluing, k: usize| match g {
                Gluing::Open => 1,
                Gluing::Glued => k + 1,
                Gluing::Twisted => 2 * k + 1,
            };
            let (c1, c2) = (copies(topology.rows(), k1 % 2), copies(topology.columns(), k2));
            let rule = Rule::from_name(rule).expect("a rule");
            let p = Puzzle::new(d1 * c1, d2 * c2, w, rule.clone(), topology);
            let q = Puzzle::new(d1, d2, w, rule, topology);
            let mut rng = lights_algebra::SplitMix64(seed);
            let small: Vec<u32> = (0..d1 * d2).map(|_| rng.below(u64::from(w)) as u32).collect();
            let board = (d1, d2);
            prop_assert_eq!(after(&p, &tile(&p, board, &small)), tile(&p, board, &after(&q, &small)));
        }
    }

    #[test]
    fn the_small_boards_of_each_surface() {
        let cross = || Rule::from_name("cross").expect("cross");
        let board = |rows, cols, topology| {
            let mut p = Puzzle::new(rows, cols, 6, cross(), topology);
            p.lights = Board::uniform(rows * cols, 1);
            p
        };
        // A square torus: each shape once (not its transpose), smallest first.
        let torus = small_boards(&board(12, 12, Topology::Torus));
        assert_eq!(torus, [(3, 3), (3, 4), (4, 4), (3, 6), (4, 6), (3, 12), (6, 6)]);
        assert_eq!(small_boards(&board(6, 9, Topology::Torus)), [(3, 3)]);
        // The Klein bottle's twisted top and bottom hold an odd number of copies.
        assert_eq!(small_boards(&board(12, 12, Topology::Klein)), [(4, 3), (4, 4), (4, 6), (12, 3)]);
        // The projective plane, the plane and flip: none.
        assert!(small_boards(&board(12, 12, Topology::Projective)).is_empty());
        assert!(small_boards(&board(12, 12, Topology::Plane)).is_empty());
        let mut flip = board(12, 12, Topology::Torus);
        flip.rule = Rule::from_name("flip").expect("flip");
        assert!(small_boards(&flip).is_empty());
        // Lights that do not repeat: none; lights that repeat every 6 columns:
        // not the 3×3 board (at most a quarter of the 6×12 one: not 6×6).
        let mut odd = board(12, 12, Topology::Torus);
        odd.lights.set(0, 0);
        assert!(small_boards(&odd).is_empty());
        let mut striped = board(6, 12, Topology::Torus);
        striped.lights = Board::dense((0..72).map(|i| u16::from(i % 6 == 0)).collect());
        assert_eq!(small_boards(&striped), [(3, 6)]);
    }

    #[test]
    fn a_lift_is_a_solution_and_costs_the_copies_of_the_small_minimum() {
        // 48×48 torus, W = 12, all lights on: the 4×4 torus needs 44 presses.
        let mut p = Puzzle::new(48, 48, 12, Rule::from_name("cross").expect("cross"), Topology::Torus);
        p.lights = Board::uniform(48 * 48, 11);
        let solve =
            |q: &Puzzle, o: SolveOptions| Some(crate::solve::solve_with(q, o, &|| false).ok()?.minimum?.presses);
        let lift = cheaper_lift(&p, u64::MAX, work_for_all(&p), &solve).expect("a lift");
        let values = lift.to_vec();
        assert!(solves(&p, &values));
        let small = Puzzle { rows: 4, cols: 4, lights: Board::uniform(16, 11), ..p.clone() };
        let small = crate::solve::solve(
            &Puzzle { goal: Board::zeros(16), locked: Board::zeros(16), holes: Board::zeros(16), ..small },
            &|| false,
        )
        .expect("solves")
        .minimum
        .expect("solvable");
        assert!(small.optimal);
        assert!(lift.sum() <= 144 * small.cost, "{} presses, the 4×4 board's lifted: {}", lift.sum(), 144 * small.cost);
        // Asked to beat that, it finds nothing.
        assert!(cheaper_lift(&p, lift.sum(), work_for_all(&p), &solve).is_none());
    }
}
