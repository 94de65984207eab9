//! One block kind in one place (issue 29): the kinds of block are told
//! apart in `compiler/src/block.rs`, and nowhere else in the workspace's
//! sources (tests aside). Everything a front end does differently per kind
//! is a method of `Block`, `BlockReport` or `Answered` there.
//!
//! Two lists say where else a kind may be named, each file with its reason:
//! - [`VARIANTS_ALLOWED`]: where a variant path (`Block::Lights`,
//!   `BlockKind::Sliding`, …) may be written;
//! - [`GATES_ALLOWED`]: where a gate may be called, the narrow methods that
//!   let one kind through (`as_lights`, `is_lights`, …), for front ends
//!   that take Lights Out puzzles only, and the per-kind tables picked with
//!   `BlockKind::either`.
//!
//! An entry is a path prefix (`crates/cli/src/picture` is `picture.rs` or
//! a `picture/` module). An entry no file needs any more fails too, so the
//! lists only shrink.

use std::path::{Path, PathBuf};

/// The enums whose variants are the kinds.
const KIND_ENUMS: &[&str] = &["Block", "BlockReport", "Answered", "BlockKind"];
/// Their variants.
const VARIANTS: &[&str] = &["Lights", "Sliding"];
/// The gates: methods that let one kind through, or pick per kind.
const GATES: &[&str] = &["as_lights", "as_sliding", "is_lights", "sliding_puzzle", ".puzzle()", ".either("];

const VARIANTS_ALLOWED: &[(&str, &str)] = &[
    ("crates/compiler/src/block.rs", "the one module that tells the kinds apart"),
    ("crates/syntax/src/ast.rs", "defines `BlockKind`, its `either` and `is_lights`"),
    ("crates/syntax/src/parse.rs", "the parser reads the kind from the block's keyword and words its errors per kind"),
    ("crates/compiler/src/validate", "asserts it is given a `puzzle` block (`Block::validate` chooses)"),
    ("crates/compiler/src/sliding_validate", "asserts it is given a `sliding` block (`Block::validate` chooses)"),
    ("crates/cli/src/picture", "pictures are drawn of Lights Out puzzles only: says so of a sliding block"),
];

const GATES_ALLOWED: &[(&str, &str)] = &[
    ("crates/compiler/src/block.rs", "defines the gates of `Block`, `BlockReport` and `Answered`"),
    ("crates/syntax/src/ast.rs", "defines `BlockKind::either` and `BlockKind::is_lights`"),
    ("crates/compiler/src/lib.rs", "`BlockAnalysis::puzzle` and `sliding_puzzle`, the gates of an analysed block"),
    ("crates/compiler/src/flags.rs", "a `--rule` stencil is read as a one-cell Lights Out puzzle"),
    ("crates/ide/src/reference.rs", "the editor's word tables, one per kind, picked with `either`"),
    ("crates/ide/src/play.rs", "play-testing is for Lights Out puzzles"),
    ("crates/ide/src/pack.rs", "duplicates, order and difficulty are about Lights Out levels"),
    ("crates/authoring/src/puzzle_text.rs", "a Lights Out model written back as `.lights` text (the imports check it)"),
    ("crates/cli/src/export", "Flip game IDs and JSON level packs hold Lights Out puzzles"),
    ("crates/ide/src/document.rs", "a block's canonical form up to symmetry is a Lights Out board's"),
    ("crates/ide/src/hover.rs", "a cell's hover: a sliding board's tiles, a Lights Out board's lights and presses"),
    ("crates/ide/src/actions.rs", "the make-solvable action changes a Lights Out puzzle's lights"),
    ("crates/ide/src/completion.rs", "a Lights Out statement's values depend on the puzzle's shape"),
    ("crates/cli/src/compile", "`lights compile` writes a Lights Out puzzle's linear system"),
    ("crates/cli/src/solve", "`--solution-out` writes a Lights Out puzzle's presses"),
    ("crates/cli/src/picture", "pictures are drawn of Lights Out puzzles only"),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// Every crate's sources (`crates/*/src`), as `crates/NAME/src/…` paths.
fn sources() -> Vec<(String, String)> {
    let root = root();
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    files.sort();
    assert!(files.len() > 50, "found only {} source files under {}", files.len(), root.display());
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            (rel, std::fs::read_to_string(&f).unwrap())
        })
        .collect()
}

/// The code of a file: without its `#[cfg(test)]` tail and without comments.
fn code(text: &str) -> Vec<(usize, &str)> {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("")))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The variant paths a line writes: `Block::Lights`, `BlockKind::Sliding`,
/// and imports of the variants (`Block::{Lights, …}`, `Block::*`).
fn variant_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in KIND_ENUMS {
        let needle = format!("{e}::");
        let mut from = 0;
        while let Some(at) = line[from..].find(&needle) {
            let start = from + at;
            from = start + needle.len();
            if line[..start].chars().next_back().is_some_and(is_ident) {
                continue; // `SomeBlock::…`
            }
            let rest = &line[from..];
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if VARIANTS.contains(&name.as_str()) || rest.starts_with('{') || rest.starts_with('*') {
                out.push(format!("{needle}{}", if name.is_empty() { &rest[..1] } else { &name }));
            }
        }
    }
    out
}

/// The gates a line calls.
fn gates(line: &str) -> Vec<&'static str> {
    GATES
        .iter()
        .copied()
        .filter(|g| {
            line.match_indices(g).any(|(i, _)| {
                let before = line[..i].chars().next_back();
                let after = line[i + g.len()..].chars().next();
                let open_before = g.starts_with('.') || !before.is_some_and(is_ident);
                let open_after = !g.ends_with(is_ident) || !after.is_some_and(is_ident);
                open_before && open_after
            })
        })
        .collect()
}

fn allowed(list: &[(&str, &str)], path: &str) -> bool {
    list.iter().any(|(prefix, _)| path.starts_with(prefix))
}

/// The findings outside the allowed files, and the allowed entries no file needed.
fn check(
    files: &[(String, String)],
    find: fn(&str) -> Vec<String>,
    list: &[(&str, &str)],
) -> (Vec<String>, Vec<String>) {
    let mut stray = Vec::new();
    let mut used = vec![false; list.len()];
    for (path, text) in files {
        for (n, line) in code(text) {
            let found = find(line);
            if found.is_empty() {
                continue;
            }
            match list.iter().position(|(prefix, _)| path.starts_with(prefix)) {
                Some(k) => used[k] = true,
                None => stray.push(format!("{path}:{n}: {} in `{}`", found.join(", "), line.trim())),
            }
        }
    }
    let stale = list.iter().zip(used).filter(|(_, u)| !u).map(|((p, why), _)| format!("{p} ({why})")).collect();
    (stray, stale)
}

fn variant_findings(line: &str) -> Vec<String> {
    variant_paths(line)
}

fn gate_findings(line: &str) -> Vec<String> {
    gates(line).into_iter().map(str::to_string).collect()
}

#[test]
fn the_block_kinds_are_told_apart_in_block_rs_only() {
    let files = sources();
    let (stray, stale) = check(&files, variant_findings, VARIANTS_ALLOWED);
    assert!(
        stray.is_empty(),
        "a kind's variant named outside compiler/src/block.rs: make the difference a method of \
         `Block`, `BlockReport` or `Answered` there (or, for a front end that takes one kind only, \
         call a gate and list the file in GATES_ALLOWED):\n{}",
        stray.join("\n")
    );
    assert!(stale.is_empty(), "VARIANTS_ALLOWED entries no file needs any more: remove them:\n{}", stale.join("\n"));
}

#[test]
fn one_kind_gates_are_called_only_where_listed() {
    let files = sources();
    let (stray, stale) = check(&files, gate_findings, GATES_ALLOWED);
    assert!(
        stray.is_empty(),
        "a gate that lets one kind of block through, called in a file not in GATES_ALLOWED: make it \
         a method of `Block`, `BlockReport` or `Answered` that every kind answers, or list the \
         file with the reason it takes one kind only:\n{}",
        stray.join("\n")
    );
    assert!(stale.is_empty(), "GATES_ALLOWED entries no file needs any more: remove them:\n{}", stale.join("\n"));
}

#[test]
fn the_scanner_sees_variants_imports_and_gates() {
    assert_eq!(variant_paths("        Some(Block::Lights(p)) => p.rows,"), ["Block::Lights"]);
    assert_eq!(variant_paths("if kind == lights_syntax::BlockKind::Sliding {"), ["BlockKind::Sliding"]);
    assert_eq!(variant_paths("use lights_compiler::Answered::{Lights, Sliding};"), ["Answered::{"]);
    assert_eq!(variant_paths("use lights_compiler::BlockReport::*;"), ["BlockReport::*"]);
    assert!(variant_paths("let b = Block::from(p); BlockKind::ALL; MyBlock::Lights").is_empty());
    assert_eq!(gates("let Some(p) = block.as_lights() else {"), ["as_lights"]);
    assert_eq!(gates("doc.block(i).and_then(Block::as_sliding)"), ["as_sliding"]);
    assert_eq!(gates("if !kind.is_lights() && chosen.puzzle().is_none() {"), ["is_lights", ".puzzle()"]);
    assert!(gates("fn has_lights_as_lightsaber(x: is_lights_on) { p.puzzles(); }").is_empty());
    assert_eq!(gates("kind.either(STATEMENTS, SLIDING_STATEMENTS)"), [".either("]);
    // Comments and the test module are not code.
    let text = "// Block::Lights\nfn f() {} // as_lights\n#[cfg(test)]\nmod tests { Block::Sliding }";
    assert!(code(text).iter().all(|(_, l)| variant_paths(l).is_empty() && gates(l).is_empty()));
}

#[test]
fn every_allowed_file_has_a_reason() {
    for (path, why) in VARIANTS_ALLOWED.iter().chain(GATES_ALLOWED) {
        assert!(path.starts_with("crates/") && why.len() > 20, "{path}: {why}");
    }
    assert!(allowed(VARIANTS_ALLOWED, "crates/compiler/src/block.rs"));
    assert!(!allowed(VARIANTS_ALLOWED, "crates/ide/src/hover.rs"));
}
