//! The parser is built from this crate's copy of the grammar
//! (`grammar/lights.pest`: a published crate holds only its own folder). In
//! the repository, the source of truth is the top-level
//! `grammar/lights.pest`; when the two differ, say so at build time, so an
//! edit there does not go unnoticed (`crates/cli/tests/packaging.rs` fails
//! on it too).

use std::path::Path;

fn main() {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let copy = Path::new(&crate_dir).join("grammar/lights.pest");
    let source = Path::new(&crate_dir).join("../../grammar/lights.pest");
    println!("cargo:rerun-if-changed=grammar/lights.pest");
    // Outside the repository (the published crate) there is no source to compare with.
    if !source.exists() {
        return;
    }
    println!("cargo:rerun-if-changed=../../grammar/lights.pest");
    if std::fs::read(&source).ok() != std::fs::read(&copy).ok() {
        println!(
            "cargo:warning=grammar/lights.pest differs from crates/syntax/grammar/lights.pest, which the parser \
             is built from: run tests/packaging/sync-assets and commit the copy"
        );
    }
}
