//! `lights import coords`: the puzzle written is the board described (read
//! back through the compiler), the answer matches an independent brute force
//! on small tori, transposing does not change it, and every malformed input
//! is an error on the right line.

use lights_authoring::import::{coords_to_lights, import_coords, parse_coords, CoordsBoard, GRID_UP_TO};
use lights_compiler::model::{Rule, Topology};
use lights_compiler::{analyze, check_source};
use proptest::prelude::*;

/// A coordinate-list text for a board.
fn text(n: usize, lit: &[(usize, usize)]) -> String {
    let mut s = format!("{n}\n{}\n", lit.len());
    for (x, y) in lit {
        s.push_str(&format!("{x} {y}\n"));
    }
    s
}

/// Lights Out on an n×n torus (cross rule), by brute force over every press
/// set: how many press sets turn every light off. Independent of the
/// compiler: press masks are built here from the torus neighbours.
fn brute_force_torus(n: usize, lit: &[(usize, usize)]) -> u64 {
    assert!(n * n <= 16);
    let cells = n * n;
    let press: Vec<u32> = (0..cells)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            let mut m = 0u32;
            for (dr, dc) in [(0, 0), (1, 0), (n - 1, 0), (0, 1), (0, n - 1)] {
                m |= 1 << (((r + dr) % n) * n + (c + dc) % n);
            }
            m
        })
        .collect();
    let target: u32 = lit.iter().map(|&(x, y)| 1u32 << (x * n + y)).fold(0, |a, b| a ^ b);
    // effect[s] = XOR of the presses in s, built incrementally.
    let mut effect = vec![0u32; 1 << cells];
    let mut count = 0;
    for s in 1usize..1 << cells {
        let low = s.trailing_zeros() as usize;
        effect[s] = effect[s & (s - 1)] ^ press[low];
    }
    for e in &effect {
        count += u64::from(*e == target);
    }
    count
}

fn answer(src: &str) -> (bool, String) {
    let analysis = check_source(src);
    let r = analysis.blocks[0].report.as_ref().and_then(lights_compiler::BlockReport::as_lights).expect("solved");
    (r.solvable, r.solutions.to_string())
}

fn board() -> impl Strategy<Value = CoordsBoard> {
    (1usize..=4).prop_flat_map(|n| {
        prop::collection::btree_set((0..n, 0..n), 0..=n * n)
            .prop_map(move |set| CoordsBoard { n, lit: set.into_iter().collect() })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The puzzle written is exactly the board read, and its answer agrees
    /// with the brute force; the transposed board has the same answer.
    #[test]
    fn imported_puzzles_match_brute_force(b in board()) {
        let input = text(b.n, &b.lit);
        prop_assert_eq!(parse_coords(&input), Ok(b.clone()));
        let src = import_coords(&input, "p", "test").expect("valid input");
        let analysis = analyze(&src);
        prop_assert!(analysis.all_diagnostics().is_empty(), "{:?}", analysis.all_diagnostics());
        let model = analysis.blocks[0].puzzle().expect("valid");
        prop_assert_eq!((model.rows, model.cols, model.states), (b.n, b.n, 2));
        prop_assert_eq!(model.topology, Topology::Torus);
        prop_assert_eq!(&model.rule, &Rule::Cross);
        for r in 0..b.n {
            for c in 0..b.n {
                let on = b.lit.contains(&(r, c));
                prop_assert_eq!(model.lights.get(r * b.n + c), u16::from(on), "cell {},{}", r, c);
            }
        }
        let (solvable, count) = answer(&src);
        let brute = brute_force_torus(b.n, &b.lit);
        prop_assert_eq!(solvable, brute > 0);
        prop_assert_eq!(&count, &brute.to_string());
        // x as the column instead of the row: the same answer.
        let transposed: Vec<(usize, usize)> = b.lit.iter().map(|&(x, y)| (y, x)).collect();
        let t_src = import_coords(&text(b.n, &transposed), "t", "test").expect("valid input");
        prop_assert_eq!(answer(&t_src), (solvable, count));
    }
}

#[test]
fn hand_made_examples() {
    // 1×1 torus: a press toggles the one light (its neighbours are itself,
    // and a cell changes once per press): one light on, one solution.
    assert_eq!(answer(&import_coords("1\n1\n0 0\n", "a", "t").unwrap()), (true, "1".into()));
    // 2×2 torus: a press toggles 3 of the 4 cells (all but the opposite
    // corner). Pressing the three cells other than 0,0 toggles 0,0 three
    // times and every other cell twice, so one light is solvable; the press
    // matrix J − I is its own inverse mod 2, so the solution is unique.
    assert_eq!(answer(&import_coords("2\n1\n0 0\n", "b", "t").unwrap()), (true, "1".into()));
    assert_eq!(brute_force_torus(2, &[(0, 0)]), 1);
    // 3×3 torus, all on: pressing every cell toggles each one 5 times.
    let all: Vec<(usize, usize)> = (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).collect();
    assert!(answer(&import_coords(&text(3, &all), "c", "t").unwrap()).0);
    assert!(brute_force_torus(3, &all) > 0);
    // 3×3 torus, one light on: unsolvable. Every press changes exactly two
    // cells of its column within the first two rows, and two or zero of its
    // row, so the number of lights on in the first two rows keeps its parity;
    // it is 1 now and must become 0.
    assert_eq!(brute_force_torus(3, &[(0, 0)]), 0);
    assert!(!answer(&import_coords("3\n1\n0 0\n", "d", "t").unwrap()).0);
    // 4×4 torus, one light on: solvable, in exactly one way (brute force).
    assert_eq!(brute_force_torus(4, &[(1, 2)]), 1);
    assert_eq!(answer(&import_coords("4\n1\n1 2\n", "e", "t").unwrap()), (true, "1".into()));
}

#[test]
fn output_is_canonical_and_documents_the_axes() {
    let src = import_coords("3\n2\n0 1\n2 2\n", "ex", "in.txt").unwrap();
    assert_eq!(
        src,
        "// Imported by `lights import coords` from in.txt: a 3x3 torus with 2 lights on.\n\
         // Coordinates `x y` are 0-based; x is the row, y the column (`0 1` is cell 1,2).\n\
         puzzle \"ex\" {\n  size 3x3\n  topology torus\n  lights {\n    . 1 .\n    . . .\n    . . 1\n  }\n}\n"
    );
    assert_eq!(lights_syntax::format::format_source(&src).ok(), Some(src.clone()));
    // No light on: `lights off`.
    assert!(import_coords("5\n0\n", "z", "t").unwrap().contains("  lights off\n"));
}

#[test]
fn large_boards_use_a_sparse_list() {
    let n = GRID_UP_TO + 1;
    let lit = vec![(n - 1, 0), (0, 5), (7, 7)];
    let src = coords_to_lights(&CoordsBoard { n, lit: lit.clone() }, "big", "t");
    assert!(src.contains(&format!("  lights at 1,6 8,8 {n},1\n")), "{src}");
    let model = analyze(&src).blocks[0].puzzle().cloned().expect("valid");
    let on: Vec<usize> = (0..n * n).filter(|&i| model.lights.get(i) == 1).collect();
    let mut want: Vec<usize> = lit.iter().map(|&(x, y)| x * n + y).collect();
    want.sort_unstable();
    assert_eq!(on, want);
    // At the threshold, still a grid.
    let src = coords_to_lights(&CoordsBoard { n: GRID_UP_TO, lit: vec![(0, 0)] }, "g", "t");
    assert!(src.contains("  lights {\n"));
}

#[test]
fn tolerated_layout() {
    // Spaces, tabs, CRLF line ends, a byte-order mark, blank lines at the end.
    let b = parse_coords("\u{feff} 2 \r\n\t1\r\n 1\t 0 \r\n\r\n\n").unwrap();
    assert_eq!(b, CoordsBoard { n: 2, lit: vec![(1, 0)] });
}

#[test]
fn malformed_inputs_name_their_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 1, "the input ends (it is empty)"),
        ("\n\n", 1, "the input ends"),
        ("3\n", 2, "expected the number of lit cells k, but the input ends"),
        ("3\n2\n0 0\n", 4, "expected lit cell 2 of 2"),
        ("three\n0\n", 1, "`three` is not a whole number"),
        ("-3\n0\n", 1, "`-3` is not a whole number"),
        // `+1` is what Rust's number parser takes, not the format.
        ("+3\n0\n", 1, "`+3` is not a whole number"),
        ("3\n1\n+0 0\n", 3, "`+0` is not a whole number"),
        ("0\n0\n", 1, "at least 1"),
        ("3 3\n0\n", 1, "found 2 numbers"),
        ("3\n10\n", 2, "do not fit on a 3x3 board"),
        ("3\n1\n0\n", 3, "found 1 number"),
        ("3\n1\n0 1 2\n", 3, "found 3 numbers"),
        ("3\n1\n0 x\n", 3, "`x` is not a whole number"),
        ("3\n1\n3 0\n", 3, "x = 3 is outside the board"),
        ("3\n1\n0 7\n", 3, "y = 7 is outside the board"),
        ("3\n2\n1 1\n1 1\n", 4, "already listed on line 3"),
        ("3\n1\n1 1\n2 2\n", 4, "unexpected extra line `2 2`"),
        ("3\n2\n1 1\n\n2 2\n", 4, "found an empty line"),
        ("100000\n0\n", 1, "too large"),
    ];
    for &(input, line, needle) in cases {
        match parse_coords(input) {
            Err(e) => {
                assert_eq!(e.line, line, "{input:?}: {e}");
                assert!(e.message.contains(needle), "{input:?}: `{}` lacks `{needle}`", e.message);
                assert!(e.to_string().starts_with(&format!("line {line}: ")));
            }
            Ok(b) => panic!("{input:?} was accepted: {b:?}"),
        }
    }
}
