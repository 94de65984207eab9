//! No input makes parsing, validation, formatting or solving panic.

mod common;
use common::*;
use proptest::prelude::*;

fn exercise(src: &str, solve: bool) {
    let analysis = if solve { lights_compiler::check_source(src) } else { lights_compiler::analyze(src) };
    let _ = analysis.all_diagnostics();
    if let Ok(formatted) = lights_syntax::format_source(src) {
        // Formatting a file that parsed must give a file that parses.
        assert!(lights_syntax::parse(&formatted).errors.is_empty(), "formatting broke:\n{src}\n---\n{formatted}");
    }
}

#[test]
fn truncated_examples() {
    for file in lights_files("examples") {
        let src = std::fs::read_to_string(&file).unwrap();
        let cuts: Vec<usize> = (0..=src.len()).filter(|&i| src.is_char_boundary(i)).collect();
        for (k, &cut) in cuts.iter().enumerate() {
            // Validate every prefix; solve a sample of them (solving is the slow part).
            exercise(&src[..cut], k % 97 == 0);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        exercise(&String::from_utf8_lossy(&bytes), true);
    }

    #[test]
    fn random_lights_like_text(parts in prop::collection::vec(prop::sample::select(vec![
        "puzzle", "\"p\"", "{", "}", "\n", " ", "size", "3x3", "2 x 2", "0x5", "99999999999999999999", "states",
        "1", "0", "65537", "rule", "cross", "king", "flip", "merlin", "kinng", "topology", "torus", "mobius",
        "cross-cap", "lights", "goal", "on", "off", "at", "1,1", "2,3:2", "9,9", "locked", "x", ".", "x.x",
        ".1.", "1 1 1", "expect", "solvable", "unsolvable", "unique", "solutions", "presses", "solution",
        "// c", "\"", "\\", "é", "\t", "\r\n",
        "sliding", "slidnig", "tiles", "moves", "\"LURD\"", "\"Lx", "12.", "1 2 3 .", "2x2", "1x4", "256x256", "15",
    ]), 0..60)) {
        exercise(&parts.concat(), true);
    }
}
