//! The binary embeds copies of files whose sources of truth live elsewhere
//! in the repository (`assets/`: a published crate holds only its own
//! folder). When a copy differs from its source, say so at build time, so
//! an edit of the diagnostics reference or the play page does not go
//! unnoticed (`tests/packaging.rs` fails on it too).

use std::path::Path;

/// (source of truth, from the repository's root; copy, in this crate), as
/// in `tests/packaging/sync-assets`.
const COPIES: [(&str, &str); 4] = [
    ("docs/diagnostics.md", "assets/diagnostics.md"),
    ("editors/play/index.html", "assets/play/index.html"),
    ("editors/play/dist/board.js", "assets/play/board.js"),
    ("editors/play/board.css", "assets/play/board.css"),
];

fn main() {
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let crate_dir = Path::new(&crate_dir);
    let root = crate_dir.join("../..");
    for (source, copy) in COPIES {
        println!("cargo:rerun-if-changed={copy}");
        let source_path = root.join(source);
        // Outside the repository (the published crate) there is no source to compare with.
        if !source_path.exists() {
            continue;
        }
        println!("cargo:rerun-if-changed=../../{source}");
        if std::fs::read(&source_path).ok() != std::fs::read(crate_dir.join(copy)).ok() {
            println!(
                "cargo:warning={source} differs from crates/cli/{copy}, which the binary embeds: \
                 run tests/packaging/sync-assets and commit the copy"
            );
        }
    }
}
