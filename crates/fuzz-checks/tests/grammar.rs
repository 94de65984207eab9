//! The grammar-aware generator on stable: deterministic inputs through
//! [`lights_fuzz_checks::check_grammar`] (no panic, formatting faithful),
//! and the generator reaches the shapes the issue 25 crash needed.

use lights_fuzz_checks::{check_grammar, grammar};

/// `count` inputs of `len` bytes from a fixed linear congruential sequence.
fn inputs(count: usize, len: usize) -> Vec<Vec<u8>> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..count)
        .map(|_| {
            (0..len)
                .map(|_| {
                    state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    (state >> 56) as u8
                })
                .collect()
        })
        .collect()
}

#[test]
fn generated_files_keep_every_property() {
    for data in inputs(300, 96) {
        let outcome = std::panic::catch_unwind(|| check_grammar(&data));
        assert!(outcome.is_ok(), "fails on:\n{}", grammar::source(&data));
    }
}

#[test]
fn the_generator_writes_every_kind_of_statement() {
    let all: String = inputs(300, 96).iter().map(|d| grammar::source(d)).collect();
    for needle in [
        "graph cycle",
        "graph path",
        "graph complete",
        "graph {",
        "graph petersen",
        "grid hex",
        "holes at",
        "locked on",
        "locked at",
        "rule {",
        "rule ring",
        "topology klein",
        "states 3",
        "goal on",
        "lights on",
    ] {
        assert!(all.contains(needle), "never generated: {needle}");
    }
    // Every file parses: the generator writes the language, not noise.
    for data in inputs(300, 96) {
        let src = grammar::source(&data);
        let file = lights_syntax::parse(&src);
        assert!(file.errors.is_empty(), "{src}\n{:?}", file.errors);
    }
}
