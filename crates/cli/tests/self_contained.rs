//! The repository stands on its own: no file refers to documents that live
//! outside it (the team's language contract and background notes, or the
//! folder they are shared in). `docs/language.md` is the users' reference and
//! `docs/solver.md` holds the mathematics and the figures the tests cite.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The names that must not appear, built from pieces so this file does not
/// trip over itself.
fn needles() -> Vec<String> {
    vec![["LANGUAGE", ".md"].concat(), ["BACKGROUND", ".md"].concat(), ["..", "/shared"].concat()]
}

/// The repository's files: what git tracks, or (outside a git checkout) every
/// file but build output, dependencies and git's own.
fn project_files(root: &Path) -> Vec<PathBuf> {
    let listed = Command::new("git").args(["ls-files", "-z"]).current_dir(root).output();
    if let Some(out) = listed.ok().filter(|o| o.status.success() && !o.stdout.is_empty()) {
        return out
            .stdout
            .split(|&b| b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| root.join(String::from_utf8_lossy(p).as_ref()))
            .collect();
    }
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(name, "target" | "node_modules" | ".git") {
                    stack.push(path);
                }
            } else {
                out.push(path);
            }
        }
    }
    out
}

/// Every `file:line: text` of `files` that names one of the needles.
fn references(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let needles = needles();
    let mut found = Vec::new();
    for file in files {
        // Binary files (images, fonts) cannot cite anything.
        let Ok(text) = std::fs::read_to_string(file) else { continue };
        for (i, line) in text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n.as_str())) {
                let rel = file.strip_prefix(root).unwrap_or(file);
                found.push(format!("{}:{}: {}", rel.display(), i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_file_refers_to_documents_outside_the_repository() {
    let root = common::root();
    let found = references(&root, &project_files(&root));
    assert!(
        found.is_empty(),
        "files that refer to documents outside the repository (cite docs/language.md, docs/solver.md or the \
         original source instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_planted_reference_is_found_outside_build_output() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("self_contained");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("docs")).expect("docs");
    std::fs::create_dir_all(dir.join("target")).expect("target");
    let cite = format!("see {}, \"Rules\"\n", needles()[0]);
    std::fs::write(dir.join("docs/guide.md"), format!("# Guide\n{cite}")).expect("write");
    std::fs::write(dir.join("target/build.log"), &cite).expect("write");
    // Not a git checkout of its own, so the walk is used (or git lists nothing).
    let found = references(&dir, &project_files(&dir));
    assert_eq!(found, [format!("docs/guide.md:2: {}", cite.trim())]);
}
