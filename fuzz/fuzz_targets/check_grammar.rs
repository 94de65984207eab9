#![no_main]
// The property is in crates/fuzz-checks: `check` and `format` on a file the bytes
// choose statement by statement (graphs, holes, hex boards, stencils).
libfuzzer_sys::fuzz_target!(|data: &[u8]| lights_fuzz_checks::check_grammar(data));
