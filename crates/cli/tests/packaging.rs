//! The crates can be published: what a crate embeds at build time
//! (`include_str!`, `include_bytes!`, pest's `#[grammar]`) lies inside the
//! crate's own folder, and each embedded copy of a file whose source of truth
//! lives elsewhere in the repository (the grammar, the diagnostics reference,
//! the play page) is byte-equal to it. The pairs are those of
//! `tests/packaging/sync-assets`, the command that refreshes the copies.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

/// `(source of truth, copy)`, as the script lists them: lines of the form
/// `  "SOURCE COPY"` in its `pairs=(…)` array.
fn pairs() -> Vec<(String, String)> {
    let script = std::fs::read_to_string(root().join("tests/packaging/sync-assets")).expect("the sync script");
    let start = script.find("pairs=(").expect("a pairs=( array");
    let body = &script[start..script[start..].find("\n)").map(|e| start + e).expect("the end of pairs")];
    body.lines()
        .skip(1)
        .map(|l| {
            let l = l.trim().trim_matches('"');
            let (a, b) = l.split_once(' ').unwrap_or_else(|| panic!("not a pair: {l}"));
            (a.to_string(), b.to_string())
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every path a source file embeds, resolved: `include_str!("…")` and
/// `include_bytes!("…")` from the file's folder, `#[grammar = "…"]` from
/// the crate's `src/` (as pest_derive does).
fn embedded(crate_dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut files = Vec::new();
    rust_files(&crate_dir.join("src"), &mut files);
    if crate_dir.join("build.rs").exists() {
        files.push(crate_dir.join("build.rs"));
    }
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (marker, base) in [
            ("include_str!(\"", file.parent().unwrap().to_path_buf()),
            ("include_bytes!(\"", file.parent().unwrap().to_path_buf()),
            ("#[grammar = \"", crate_dir.join("src")),
        ] {
            for (at, _) in text.match_indices(marker) {
                let rest = &text[at + marker.len()..];
                let literal = &rest[..rest.find('"').expect("a closing quote")];
                out.push((file.clone(), base.join(literal)));
            }
        }
    }
    out
}

#[test]
fn no_crate_embeds_a_file_outside_its_folder() {
    let root = root();
    let mut seen = 0;
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let crate_dir = entry.unwrap().path().canonicalize().unwrap();
        if !crate_dir.join("Cargo.toml").exists() {
            continue;
        }
        for (file, target) in embedded(&crate_dir) {
            seen += 1;
            let resolved = target.canonicalize().unwrap_or_else(|e| {
                panic!("{} embeds {}, which cannot be read: {e}", file.display(), target.display())
            });
            assert!(
                resolved.starts_with(&crate_dir),
                "{} embeds {}, outside its crate {}: `cargo package` leaves it out. Copy it into the crate \
                 (a pair in tests/packaging/sync-assets) and embed the copy",
                file.display(),
                resolved.display(),
                crate_dir.display()
            );
        }
    }
    // The grammar, the diagnostics reference and the three files of the play page at least.
    assert!(seen >= 5, "only {seen} embedded files found: is the scan still finding them?");
}

#[test]
fn the_embedded_copies_are_byte_equal_to_their_sources() {
    let root = root();
    let pairs = pairs();
    assert!(pairs.len() >= 5, "{pairs:?}");
    for (source, copy) in &pairs {
        let a = std::fs::read(root.join(source)).unwrap_or_else(|e| panic!("{source}: {e}"));
        let b = std::fs::read(root.join(copy)).unwrap_or_else(|e| panic!("{copy}: {e}"));
        assert!(
            a == b,
            "{copy} is not a copy of {source}: run `tests/packaging/sync-assets` and commit the refreshed copy"
        );
    }
    // Every embedded file that is a copy is one of the pairs (a new embedded
    // asset gets a pair, so its staleness is caught too).
    for krate in ["crates/syntax", "crates/cli"] {
        let crate_dir = root.join(krate).canonicalize().unwrap();
        for (file, target) in embedded(&crate_dir) {
            let resolved = target.canonicalize().unwrap();
            let rel = resolved.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            if rel.contains("/assets/") || rel.contains("/grammar/") {
                assert!(
                    pairs.iter().any(|(_, c)| *c == rel),
                    "{} embeds {rel}, which has no source of truth in tests/packaging/sync-assets",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn the_build_scripts_warn_about_the_same_copies() {
    // crates/cli/build.rs lists its copies as ("SOURCE", "COPY") pairs; crates/syntax/build.rs names the grammar.
    let build = std::fs::read_to_string(root().join("crates/cli/build.rs")).unwrap();
    let mut listed: Vec<(String, String)> = build
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("(\"")?.strip_suffix("\"),")?;
            let (source, copy) = l.split_once("\", \"")?;
            Some((source.to_string(), format!("crates/cli/{copy}")))
        })
        .collect();
    let syntax = std::fs::read_to_string(root().join("crates/syntax/build.rs")).unwrap();
    assert!(syntax.contains("\"../../grammar/lights.pest\"") && syntax.contains("\"grammar/lights.pest\""));
    listed.push(("grammar/lights.pest".into(), "crates/syntax/grammar/lights.pest".into()));
    listed.sort();
    let mut pairs = pairs();
    pairs.sort();
    assert_eq!(listed, pairs, "crates/cli/build.rs and tests/packaging/sync-assets list different copies");
}
