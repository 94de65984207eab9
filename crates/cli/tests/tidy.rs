//! The workspace's manifest and source policy, checked (rust-analyzer's
//! `slow-tests/tidy.rs` is the model). What the lints of the root
//! `Cargo.toml` cannot see is checked here:
//!
//! - every crate inherits `version`, `edition`, `license`, `rust-version`
//!   and `repository` from `[workspace.package]`, and its lints
//!   (`[lints] workspace = true`);
//! - a dependency used by two crates or more, or named in
//!   `[workspace.dependencies]`, is pinned there only (`x.workspace = true`
//!   in the crates, which may add features);
//! - every library denies `print_stdout` and `print_stderr` at its root
//!   (`[lints]` cannot tell a library from its tests and examples, which may
//!   print);
//! - `unsafe` is allowed at the known sites only, and foreign functions come
//!   from the `libc` crate, not from hand-written `extern` blocks;
//! - no source file outside tests keeps a `dbg!`, `todo!` or
//!   `unimplemented!` (denied by the lints too: this also catches code that
//!   clippy does not build, such as another target's `cfg`).
//!
//! Each check is a function from text to a list of problems, tested on
//! broken input below, so the test fails when the policy is broken.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::{Table, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(text: &str, what: &str) -> Table {
    text.parse::<Table>().unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// The members of the workspace, as `(folder, manifest text)`.
fn members(root: &Path) -> Vec<(String, String)> {
    let manifest = parse(&read(&root.join("Cargo.toml")), "Cargo.toml");
    let members = manifest["workspace"]["members"].as_array().expect("workspace.members");
    members
        .iter()
        .map(|m| {
            let dir = m.as_str().expect("a member path").to_string();
            let text = read(&root.join(&dir).join("Cargo.toml"));
            (dir, text)
        })
        .collect()
}

const INHERITED: [&str; 5] = ["version", "edition", "license", "rust-version", "repository"];

fn inherits(value: Option<&Value>) -> bool {
    value.and_then(|v| v.get("workspace")).and_then(Value::as_bool) == Some(true)
}

/// What a crate manifest fails to inherit from the workspace.
fn inheritance_problems(name: &str, text: &str) -> Vec<String> {
    let manifest = parse(text, name);
    let mut problems = Vec::new();
    let package = manifest.get("package").and_then(Value::as_table);
    for key in INHERITED {
        if !inherits(package.and_then(|p| p.get(key))) {
            problems.push(format!("{name}: `{key}.workspace = true` is missing from [package]"));
        }
    }
    if manifest.get("lints").and_then(|l| l.get("workspace")).and_then(Value::as_bool) != Some(true) {
        problems.push(format!("{name}: `[lints] workspace = true` is missing"));
    }
    problems
}

/// Every dependency table of a manifest: `[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]`, and theirs under `[target.*]`.
fn dependency_tables(manifest: &Table) -> Vec<&Table> {
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    let mut tables: Vec<&Table> = kinds.iter().filter_map(|k| manifest.get(*k)?.as_table()).collect();
    if let Some(targets) = manifest.get("target").and_then(Value::as_table) {
        for target in targets.values() {
            tables.extend(kinds.iter().filter_map(|k| target.get(*k)?.as_table()));
        }
    }
    tables
}

/// Dependencies pinned by a crate although the workspace pins them, or
/// although two crates or more use them.
fn pinning_problems(workspace: &Table, crates: &[(String, String)]) -> Vec<String> {
    let shared: Vec<&String> = workspace
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(Value::as_table)
        .map(|t| t.keys().collect())
        .unwrap_or_default();
    let mut users: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
    for (name, text) in crates {
        let manifest = parse(text, name);
        for table in dependency_tables(&manifest) {
            for (dep, spec) in table {
                users.entry(dep.clone()).or_default().push((name.clone(), inherits(Some(spec))));
            }
        }
    }
    let mut problems = Vec::new();
    for (dep, uses) in &users {
        let crate_count = {
            let mut names: Vec<&String> = uses.iter().map(|(c, _)| c).collect();
            names.dedup();
            names.len()
        };
        let must_inherit = crate_count >= 2 || shared.contains(&dep);
        for (name, inherited) in uses {
            if must_inherit && !inherited {
                problems.push(format!(
                    "{name}: `{dep}` is pinned here; it belongs in [workspace.dependencies] \
                     (`{dep}.workspace = true` here)"
                ));
            }
        }
    }
    problems
}

const NO_PRINT: &str = "#![deny(clippy::print_stdout, clippy::print_stderr)]";

fn library_root_problems(name: &str, lib_rs: &str) -> Vec<String> {
    if lib_rs.lines().any(|l| l.trim() == NO_PRINT) {
        Vec::new()
    } else {
        vec![format!("{name}/src/lib.rs: `{NO_PRINT}` is missing")]
    }
}

/// Where `#[allow(unsafe_code)]` may stand outside tests: the allocator
/// calls and the AVX2 XOR (root Cargo.toml, `unsafe_code = "deny"`).
const UNSAFE_SITES: [&str; 2] = ["crates/lsp/src/memory.rs", "crates/compiler/src/fast/chase.rs"];

/// What a non-test source file must not hold.
fn source_problems(path: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    // Code after `#[cfg(test)]` is a test module (the files keep theirs last).
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    for (i, line) in code.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        let at = format!("{path}:{}", i + 1);
        for mac in ["dbg!(", "todo!(", "unimplemented!("] {
            if contains_macro(trimmed, mac) {
                problems.push(format!("{at}: `{mac}…)` left in"));
            }
        }
        if trimmed.contains("allow(unsafe_code)") && !UNSAFE_SITES.contains(&path) {
            problems.push(format!("{at}: `unsafe` outside the known sites ({})", UNSAFE_SITES.join(", ")));
        }
        if trimmed.starts_with("extern \"C\"") || trimmed.starts_with("unsafe extern \"C\"") {
            problems.push(format!("{at}: a hand-written `extern \"C\"` block (use the `libc` crate)"));
        }
    }
    problems
}

/// `mac` as a macro call, not the tail of a longer name (`my_todo!(`).
fn contains_macro(line: &str, mac: &str) -> bool {
    line.match_indices(mac).any(|(at, _)| {
        !line[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') && !in_string(&line[..at])
    })
}

/// Whether a position follows an odd number of unescaped quotes.
fn in_string(before: &str) -> bool {
    before.replace("\\\"", "").matches('"').count() % 2 == 1
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn report(problems: &[String]) {
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_crate_inherits_the_workspace_package_and_lints() {
    let root = root();
    let problems: Vec<String> = members(&root).iter().flat_map(|(dir, text)| inheritance_problems(dir, text)).collect();
    report(&problems);
}

#[test]
fn shared_dependencies_are_pinned_by_the_workspace_only() {
    let root = root();
    let workspace = parse(&read(&root.join("Cargo.toml")), "Cargo.toml");
    report(&pinning_problems(&workspace, &members(&root)));
}

#[test]
fn every_library_denies_printing_at_its_root() {
    let root = root();
    let mut problems = Vec::new();
    let mut libraries = 0;
    for (dir, _) in members(&root) {
        let lib = root.join(&dir).join("src/lib.rs");
        if lib.exists() {
            libraries += 1;
            problems.extend(library_root_problems(&dir, &read(&lib)));
        }
    }
    assert!(libraries >= 9, "only {libraries} libraries found");
    report(&problems);
}

#[test]
fn sources_keep_no_debugging_leftovers_or_unsafe_outside_the_known_sites() {
    let root = root();
    let mut files = Vec::new();
    for (dir, _) in members(&root) {
        rust_files(&root.join(&dir).join("src"), &mut files);
    }
    assert!(files.len() > 100, "only {} source files found", files.len());
    let mut problems = Vec::new();
    let mut sites_seen = 0;
    for file in &files {
        let relative = file.strip_prefix(&root).expect("inside the workspace").to_string_lossy().replace('\\', "/");
        let text = read(file);
        if UNSAFE_SITES.contains(&relative.as_str()) && text.contains("allow(unsafe_code)") {
            sites_seen += 1;
        }
        problems.extend(source_problems(&relative, &text));
    }
    report(&problems);
    assert_eq!(sites_seen, UNSAFE_SITES.len(), "a known unsafe site is gone: drop it from UNSAFE_SITES");
}

// The checks themselves, on broken input: each must find the problem.

const GOOD: &str = r#"
[package]
name = "a"
version.workspace = true
edition.workspace = true
license.workspace = true
rust-version.workspace = true
repository.workspace = true

[dependencies]
serde.workspace = true

[lints]
workspace = true
"#;

#[test]
fn a_crate_that_pins_its_own_rust_version_or_skips_the_lints_is_caught() {
    assert_eq!(inheritance_problems("a", GOOD), Vec::<String>::new());
    let own_version = GOOD.replace("rust-version.workspace = true", "rust-version = \"1.80\"");
    assert_eq!(
        inheritance_problems("a", &own_version),
        ["a: `rust-version.workspace = true` is missing from [package]"]
    );
    let no_lints = GOOD.replace("[lints]\nworkspace = true\n", "");
    assert_eq!(inheritance_problems("a", &no_lints), ["a: `[lints] workspace = true` is missing"]);
}

#[test]
fn a_shared_dependency_pinned_by_a_crate_is_caught() {
    let workspace = parse("[workspace.dependencies]\nserde = \"1\"\n", "workspace");
    let b = GOOD.replace("serde.workspace = true", "rayon = \"1.12\"\n[dev-dependencies]\nlibc = \"0.2\"");
    let c = GOOD.replace(
        "serde.workspace = true",
        "serde = \"1\"\n[target.'cfg(unix)'.dependencies]\nrayon = { version = \"1\" }\n[dev-dependencies]\nlibc = \"0.2\"",
    );
    let crates = [("a".to_string(), GOOD.to_string()), ("b".to_string(), b), ("c".to_string(), c)];
    assert_eq!(
        pinning_problems(&workspace, &crates),
        [
            "b: `libc` is pinned here; it belongs in [workspace.dependencies] (`libc.workspace = true` here)",
            "c: `libc` is pinned here; it belongs in [workspace.dependencies] (`libc.workspace = true` here)",
            "b: `rayon` is pinned here; it belongs in [workspace.dependencies] (`rayon.workspace = true` here)",
            "c: `rayon` is pinned here; it belongs in [workspace.dependencies] (`rayon.workspace = true` here)",
            "c: `serde` is pinned here; it belongs in [workspace.dependencies] (`serde.workspace = true` here)",
        ]
    );
    // One crate alone may pin what no other crate uses.
    let only_b = [("b".to_string(), GOOD.replace("serde.workspace = true", "rayon = \"1.12\""))];
    assert_eq!(pinning_problems(&workspace, &only_b), Vec::<String>::new());
}

#[test]
fn a_library_that_may_print_is_caught() {
    assert_eq!(library_root_problems("a", &format!("//! A.\n\n{NO_PRINT}\n")), Vec::<String>::new());
    assert_eq!(library_root_problems("a", "//! A.\n"), [format!("a/src/lib.rs: `{NO_PRINT}` is missing")]);
}

#[test]
fn leftovers_and_unsafe_outside_the_sites_are_caught() {
    let text =
        "fn f() {\n    dbg!(1);\n    let s = \"todo!(\";\n    // todo!(later)\n    my_todo!(x);\n    todo!()\n}\n\
                #[allow(unsafe_code)]\nextern \"C\" {\n}\n#[cfg(test)]\nmod tests {\n    fn g() { dbg!(2); }\n}\n";
    assert_eq!(
        source_problems("crates/a/src/x.rs", text),
        [
            "crates/a/src/x.rs:2: `dbg!(…)` left in",
            "crates/a/src/x.rs:6: `todo!(…)` left in",
            "crates/a/src/x.rs:8: `unsafe` outside the known sites (crates/lsp/src/memory.rs, crates/compiler/src/fast/chase.rs)",
            "crates/a/src/x.rs:9: a hand-written `extern \"C\"` block (use the `libc` crate)",
        ]
    );
    assert_eq!(source_problems("crates/lsp/src/memory.rs", "#[allow(unsafe_code)]\n"), Vec::<String>::new());
}
