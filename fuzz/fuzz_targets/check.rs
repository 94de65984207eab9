#![no_main]
// The property is in crates/fuzz-checks, shared with the stable replay of fuzz/regressions/check/.
libfuzzer_sys::fuzz_target!(|data: &[u8]| lights_fuzz_checks::check(data));
