//! The boundaries docs/ARCHITECTURE.md promises, checked on the sources:
//! no import cycles between the modules of a crate, only `lights-lsp` knows
//! LSP, and `lights-sliding` reads no environment and writes no files.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn crates() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(common::root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    out.sort();
    out
}

/// The module path of a source file (`fast::chase`; the crate root is empty).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("lib" | "main" | "mod")) {
        parts.pop();
    }
    parts.join("::")
}

/// The code of a file without comments and without its `#[cfg(test)]` tail.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The paths a file names after `crate::` (`fast::chase::solve`), braces expanded one level.
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let item = item.trim();
                let path: String = item.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
                out.push(path);
            }
        } else {
            out.push(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect());
        }
    }
    out
}

/// Module → the modules of the same crate it uses (not its own ancestors or descendants).
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = rust_files(src);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graph = BTreeMap::new();
    for file in &files {
        let me = module_of(src, file);
        let text = code(&std::fs::read_to_string(file).unwrap());
        let mut uses = BTreeSet::new();
        let mut paths = crate_paths(&text);
        // `super::x` from `a::b` names `a::x`.
        let parent = me.rsplit_once("::").map_or(String::new(), |(p, _)| p.to_string());
        let mut rest = text.as_str();
        while let Some(i) = rest.find("super::") {
            rest = &rest[i + "super::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            paths.push(if parent.is_empty() { name } else { format!("{parent}::{name}") });
        }
        for path in paths {
            let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            // The longest prefix that is a module of the crate.
            let target = (1..=segs.len()).rev().map(|k| segs[..k].join("::")).find(|m| modules.contains(m));
            if let Some(t) = target {
                let related = t == me || me.starts_with(&format!("{t}::")) || t.starts_with(&format!("{me}::"));
                if !related && !t.is_empty() {
                    uses.insert(t);
                }
            }
        }
        graph.insert(me, uses);
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(cycles(&graph), [["a", "b", "c"]]);
    assert_eq!(
        crate_paths("use crate::{fast::chase, report::Report};\nlet x = crate::solve::solve(p);"),
        ["fast::chase", "report::Report", "solve::solve"]
    );
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let mut found = Vec::new();
    for krate in crates() {
        let graph = module_graph(&krate.join("src"));
        for cycle in cycles(&graph) {
            found.push(format!("{}: {}", krate.file_name().unwrap().to_string_lossy(), cycle.join(" <-> ")));
        }
    }
    assert!(
        found.is_empty(),
        "modules that use each other (move what they share to a leaf module):\n{}",
        found.join("\n")
    );
}

#[test]
fn only_the_language_server_knows_lsp() {
    for krate in crates() {
        let name = krate.file_name().unwrap().to_string_lossy().into_owned();
        if name == "lsp" {
            continue;
        }
        let manifest = std::fs::read_to_string(krate.join("Cargo.toml")).unwrap();
        assert!(!manifest.contains("tower-lsp"), "crates/{name} depends on the LSP library");
        for file in rust_files(&krate.join("src")) {
            let text = std::fs::read_to_string(&file).unwrap();
            assert!(!text.contains("lsp_types"), "{} uses LSP types", file.display());
        }
    }
}

#[test]
fn the_sliding_solver_reads_no_environment_and_writes_no_files() {
    let src = common::root().join("crates/sliding/src");
    for file in rust_files(&src) {
        let text = code(&std::fs::read_to_string(&file).unwrap());
        for forbidden in ["std::env", "env::var", "std::fs", "fs::", "File::create", "OpenOptions"] {
            assert!(
                !text.contains(forbidden),
                "{} uses `{forbidden}`: the caller's store does the I/O",
                file.display()
            );
        }
    }
}
