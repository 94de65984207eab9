//! Every file the command line reads by name is opened by
//! `files::open_regular` (a FIFO or a device at the path is refused, not
//! waited on or read forever) and read with a size bound. This test keeps
//! it so: outside `files.rs`, the command line's code (its tests aside)
//! opens no file for reading by itself.

use std::path::{Path, PathBuf};

/// Ways to open or read a named file without those checks.
const UNCHECKED_READS: [&str; 6] =
    ["File::open(", "fs::read(", "fs::read_to_string(", "read_to_string(", ".read(true)", "image::open("];

/// The one module that may: it is where the checks are.
const ALLOWED: &str = "files.rs";

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code before a file's first test module.
fn code_without_tests(text: &str) -> &str {
    let end = ["#[cfg(test)]", "#[cfg(all(test"].iter().filter_map(|m| text.find(m)).min().unwrap_or(text.len());
    &text[..end]
}

#[test]
fn named_files_are_read_only_through_files_open_regular() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 10, "the sources were not found in {}", src.display());
    let mut found = Vec::new();
    for path in &files {
        if path.file_name().is_some_and(|n| n == ALLOWED) {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        for (n, line) in code_without_tests(&text).lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for pattern in UNCHECKED_READS {
                if code.contains(pattern) {
                    found.push(format!("{}:{}: {}", path.strip_prefix(&src).unwrap().display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "read these through files::open_regular / files::read_limited instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_an_unchecked_read() {
    let code = "fn load(p: &Path) -> Vec<u8> {\n    std::fs::read(p).unwrap()\n}\n#[cfg(test)]\nmod tests {}\n";
    let kept = code_without_tests(code);
    assert!(kept.contains("std::fs::read(") && !kept.contains("mod tests"));
    assert!(UNCHECKED_READS.iter().any(|p| kept.contains(p)));
}
