//! Every example in README.md and docs/**/*.md runs (issue 27).
//!
//! **`.lights` snippets.** A fence whose info string starts with `lights` is
//! checked with the real binary (`lights check --format json -`, with an
//! empty `lights.toml` given by `--config`, so the defaults apply). It must
//! check clean (no diagnostic at all), or produce exactly the codes its info
//! string names: ` ```lights expect=L0201,L0009 ` (the set of codes of every
//! diagnostic, errors and warnings alike). ` ```lights fragment ` marks a
//! piece that is not a whole file (a statement, a stencil): it is skipped,
//! counted and listed. A fence without an info string whose text holds a
//! block header (`puzzle "…" {`, `sliding "…" {`) is an error: tag it.
//!
//! **Shell examples.** The command lines of ` ```sh `, ` ```bash ` and
//! ` ```console ` fences (in `console`, the lines that start with `$ `; in the
//! others every line, `\` continuations joined, comments and blank lines left
//! out) run with `bash -o pipefail -c`, in order, in one scratch folder, with
//! the binary under test first on `PATH`. Each must exit 0, or the code the
//! fence names: ` ```console exit=2 `. The output a `console` fence shows
//! (unless it elides a part with `…`) must be part of what the command prints
//! (its lines in order; lines it leaves out, such as a random seed, are
//! allowed). A fence without an info string holding
//! a `$ lights` line is an error: tag it. Skipped, and counted:
//! - every line of a fence marked `no-run` (install, build and test
//!   commands: ` ```sh no-run `);
//! - `lights lsp` and `lights play` (they wait for an editor or a browser;
//!   the `.lights` files they name must still exist);
//! - a line running any program other than `lights`, `printf`, `echo` and
//!   `cat` (`sage`, `jq`, `cargo`…).
//!
//! **`lights.toml` examples.** A ` ```toml ` fence is a `lights.toml`: `lights
//! check --config` with it must accept `examples/classic.lights` (exit 0);
//! ` ```toml no-run ` marks another kind of TOML file.
//!
//! The scratch folder holds what the examples name: `examples/` (a copy of
//! the repository's), `levels/` (a user's folder of levels: a copy of
//! `examples/`), `pack.lights` (`lights generate --size 5x5 --count 10 --name
//! level`), `level.lights` (one generated puzzle), `clock.lights` (a copy of
//! `examples/king-8-four-states.lights`) and `in.txt` (a coordinate list).

mod common;
use common::*;

use std::collections::BTreeSet;
use std::path::Path;

/// A fenced code block of a Markdown file.
#[derive(Debug, PartialEq)]
struct Fence {
    /// 1-based line of the opening fence.
    line: usize,
    info: String,
    body: Vec<String>,
}

impl Fence {
    fn kind(&self) -> &str {
        self.info.split_whitespace().next().unwrap_or("")
    }

    fn has(&self, word: &str) -> bool {
        self.info.split_whitespace().any(|w| w == word)
    }

    /// The value of `key=VALUE` in the info string.
    fn attr(&self, key: &str) -> Option<&str> {
        self.info.split_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
    }
}

/// The fenced blocks of a Markdown text (``` fences, possibly indented; the
/// body loses the fence's indentation).
fn fences(text: &str) -> Vec<Fence> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            let indent = lines[i].len() - trimmed.len();
            let line = i + 1;
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() && lines[i].trim() != "```" {
                let l = lines[i];
                let cut = l.len() - l.trim_start().len();
                body.push(l[cut.min(indent)..].to_string());
                i += 1;
            }
            out.push(Fence { line, info: info.trim().to_string(), body });
        }
        i += 1;
    }
    out
}

/// README.md and every Markdown file under docs/, sorted, as paths
/// relative to the repository.
fn documents() -> Vec<String> {
    let root = root();
    let mut out = vec!["README.md".to_string()];
    let mut stack = vec![root.join("docs")];
    let mut docs = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read docs") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                docs.push(p.strip_prefix(&root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    docs.sort();
    out.extend(docs);
    out
}

fn looks_like_lights(body: &[String]) -> bool {
    body.iter().any(|l| {
        let t = l.trim();
        (t.starts_with("puzzle \"") || t.starts_with("sliding \"")) && t.ends_with('{')
    })
}

fn looks_like_shell(body: &[String]) -> bool {
    body.iter().any(|l| l.trim_start().starts_with("$ lights"))
}

/// The command lines of a shell fence.
fn commands(fence: &Fence) -> Vec<String> {
    if fence.kind() == "console" {
        return fence.body.iter().filter_map(|l| l.trim_start().strip_prefix("$ ")).map(String::from).collect();
    }
    let mut out = Vec::new();
    let mut pending = String::new();
    for l in &fence.body {
        let t = l.trim();
        if pending.is_empty() && (t.is_empty() || t.starts_with('#')) {
            continue;
        }
        match t.strip_suffix('\\') {
            Some(head) => {
                pending.push_str(head.trim_end());
                pending.push(' ');
            }
            None => {
                pending.push_str(t);
                out.push(std::mem::take(&mut pending));
            }
        }
    }
    if !pending.is_empty() {
        out.push(pending);
    }
    out
}

/// The output a `console` fence shows after each `$ ` line (trailing blank
/// lines dropped), in the order of [`commands`]; `None` when nothing is
/// shown or the text elides a part (`…`).
fn shown_outputs(fence: &Fence) -> Vec<Option<Vec<String>>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for l in &fence.body {
        if l.trim_start().starts_with("$ ") {
            out.push(Vec::new());
        } else if let Some(last) = out.last_mut() {
            last.push(l.trim_end().to_string());
        }
    }
    out.into_iter()
        .map(|mut lines| {
            while lines.last().is_some_and(String::is_empty) {
                lines.pop();
            }
            (!lines.is_empty() && !lines.iter().any(|l| l.contains('…'))).then_some(lines)
        })
        .collect()
}

/// Whether `shown` is a part of `real`: its lines in order, others (such as
/// a `seed:` line a page leaves out) between them allowed.
fn shows_part_of(shown: &[String], real: &str) -> bool {
    let mut real = real.lines().map(str::trim_end);
    shown.iter().all(|s| real.any(|r| r == s))
}

/// The programs a command line runs: the first word of each part between
/// `|`, `&&`, `||` and `;` outside quotes (variable assignments before it
/// left out); a trailing `# comment` ends the line.
fn programs(command: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut quote = None;
    let mut prev = ' ';
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '#') if prev.is_whitespace() => break,
            (None, '|' | '&' | ';') => {
                parts.push(String::new());
                prev = c;
                continue;
            }
            (None, _) => {}
        }
        parts.last_mut().unwrap().push(c);
        prev = c;
    }
    parts
        .iter()
        .filter_map(|p| p.split_whitespace().find(|w| !w.contains('=') || w.starts_with('-')).map(String::from))
        .collect()
}

const RUNNABLE_PROGRAMS: &[&str] = &["lights", "printf", "echo", "cat"];
const SKIPPED_PREFIXES: &[&str] = &["lights lsp", "lights play"];

/// Why a command line is not run, or `None` to run it.
fn skip_reason(fence: &Fence, command: &str) -> Option<String> {
    if fence.has("no-run") {
        return Some("fence marked no-run".into());
    }
    if let Some(p) = SKIPPED_PREFIXES.iter().find(|p| command.starts_with(*p)) {
        return Some(format!("`{p}` waits for a client"));
    }
    let programs = programs(command);
    if let Some(p) = programs.iter().find(|p| !RUNNABLE_PROGRAMS.contains(&p.as_str())) {
        return Some(format!("runs `{p}`"));
    }
    None
}

/// The sorted codes of every diagnostic `lights check` gives `source`.
fn codes(dir: &Path, config: &Path, source: &str) -> Result<BTreeSet<String>, String> {
    let out = lights_with_input(
        dir,
        &["check", "--format", "json", "--config", config.to_str().unwrap(), "--stdin-filename", "snippet.lights", "-"],
        source,
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&out))
        .map_err(|e| format!("no JSON ({e}), exit {:?}: {}", out.status.code(), stderr(&out).trim()))?;
    let mut codes = BTreeSet::new();
    for block in json.as_array().ok_or("not an array")? {
        for d in block["diagnostics"].as_array().into_iter().flatten() {
            codes.insert(d["code"].as_str().unwrap_or("?").to_string());
        }
    }
    Ok(codes)
}

#[test]
fn every_lights_snippet_checks_as_marked() {
    let dir = scratch("doc_snippets");
    let config = dir.join("lights.toml");
    std::fs::write(&config, "").unwrap();
    let (mut checked, mut skipped, mut failures) = (0, Vec::new(), Vec::new());
    for doc in documents() {
        let text = std::fs::read_to_string(root().join(&doc)).unwrap();
        for fence in fences(&text) {
            let at = format!("{doc}:{}", fence.line);
            if fence.info.is_empty() && looks_like_lights(&fence.body) {
                failures.push(format!("{at}: a .lights snippet without an info string: tag it ```lights"));
                continue;
            }
            if fence.kind() != "lights" {
                continue;
            }
            if fence.has("fragment") {
                skipped.push(at);
                continue;
            }
            let expected: BTreeSet<String> =
                fence.attr("expect").map(|e| e.split(',').map(String::from).collect()).unwrap_or_default();
            let source = fence.body.join("\n") + "\n";
            checked += 1;
            match codes(&dir, &config, &source) {
                Ok(found) if found == expected => {}
                Ok(found) => failures.push(format!("{at}: expected {expected:?}, lights check gives {found:?}")),
                Err(e) => failures.push(format!("{at}: {e}")),
            }
        }
    }
    println!("lights snippets: {checked} checked, {} skipped (fragments): {}", skipped.len(), skipped.join(", "));
    assert!(failures.is_empty(), "snippets that do not check as marked:\n{}", failures.join("\n"));
    assert!(checked >= 60, "only {checked} snippets checked");
    assert!(skipped.len() <= 12, "too many fragments: prefer whole examples: {skipped:?}");
}

#[test]
fn every_shell_example_runs() {
    let dir = scratch("doc_shell");
    let root = root();
    copy_dir(&root.join("examples"), &dir.join("examples"));
    copy_dir(&root.join("examples"), &dir.join("levels"));
    std::fs::copy(root.join("examples/king-8-four-states.lights"), dir.join("clock.lights")).unwrap();
    std::fs::write(dir.join("in.txt"), "3\n2\n0 0\n1 1\n").unwrap();
    for args in [
        &["generate", "--size", "5x5", "--count", "10", "--name", "level", "--seed", "1", "-o", "pack.lights"][..],
        &["generate", "--size", "5x5", "--seed", "1", "-o", "level.lights"],
    ] {
        let out = lights(&dir, args);
        assert!(out.status.success(), "fixture {args:?}: {}", stderr(&out));
    }
    let (mut ran, mut skipped, mut failures) = (0, Vec::new(), Vec::new());
    for doc in documents() {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap();
        for fence in fences(&text) {
            let at = format!("{doc}:{}", fence.line);
            if fence.info.is_empty() && looks_like_shell(&fence.body) {
                failures.push(format!("{at}: shell commands without an info string: tag it ```console"));
                continue;
            }
            if !matches!(fence.kind(), "sh" | "bash" | "console") {
                continue;
            }
            let expected: i32 = fence.attr("exit").map_or(0, |e| e.parse().expect("exit=N"));
            let shown = if fence.kind() == "console" { shown_outputs(&fence) } else { Vec::new() };
            for (k, command) in commands(&fence).into_iter().enumerate() {
                if let Some(why) = skip_reason(&fence, &command) {
                    if command.starts_with("lights ") && !fence.has("no-run") {
                        for file in command.split_whitespace().filter(|w| w.ends_with(".lights")) {
                            if !dir.join(file).exists() {
                                failures.push(format!("{at}: {command}\n  names {file}, which does not exist"));
                            }
                        }
                    }
                    skipped.push(format!("{at}: {command}  ({why})"));
                    continue;
                }
                let run = shell_line(&dir, &command);
                ran += 1;
                if run.status.code() != Some(expected) {
                    failures.push(format!(
                        "{at}: {command}\n  exit {:?}, expected {expected}\n  {}",
                        run.status.code(),
                        stderr(&run).trim()
                    ));
                } else if let Some(Some(lines)) = shown.get(k) {
                    let real = stdout(&run) + &stderr(&run);
                    if !shows_part_of(lines, &real) {
                        failures.push(format!("{at}: {command}\n  prints\n{real}\n  not what the page shows"));
                    }
                }
            }
        }
    }
    println!("shell lines: {ran} run, {} skipped:\n  {}", skipped.len(), skipped.join("\n  "));
    assert!(failures.is_empty(), "shell examples that fail:\n{}", failures.join("\n"));
    assert!(ran >= 20, "only {ran} shell lines run");
}

#[test]
fn every_lights_toml_example_is_accepted() {
    let dir = scratch("doc_toml");
    let (mut checked, mut failures) = (0, Vec::new());
    for doc in documents() {
        let text = std::fs::read_to_string(root().join(&doc)).unwrap();
        for fence in fences(&text).into_iter().filter(|f| f.kind() == "toml" && !f.has("no-run")) {
            let config = dir.join(format!("{checked}.toml"));
            std::fs::write(&config, fence.body.join("\n") + "\n").unwrap();
            let classic = root().join("examples/classic.lights");
            let out = lights(&dir, &["check", "-q", "--config", config.to_str().unwrap(), classic.to_str().unwrap()]);
            checked += 1;
            if out.status.code() != Some(0) {
                failures.push(format!("{doc}:{}: exit {:?}\n  {}", fence.line, out.status.code(), stderr(&out).trim()));
            }
        }
    }
    println!("lights.toml examples: {checked} checked");
    assert!(failures.is_empty(), "lights.toml examples that are refused:\n{}", failures.join("\n"));
    assert!(checked >= 1, "no lights.toml example found");
}

#[test]
fn fences_are_found_with_their_info_strings() {
    let text = "a\n```lights expect=L0201,L0009\npuzzle \"a\" {\n}\n```\n\n  ```sh no-run\n  pip install x\n  ```\n";
    let found = fences(text);
    assert_eq!(found.len(), 2);
    assert_eq!((found[0].line, found[0].kind()), (2, "lights"));
    assert_eq!(found[0].attr("expect"), Some("L0201,L0009"));
    assert_eq!(found[0].body, ["puzzle \"a\" {", "}"]);
    assert!(found[1].has("no-run"));
    assert_eq!(found[1].body, ["pip install x"]);
}

#[test]
fn shell_lines_and_their_programs() {
    let fence = Fence { line: 1, info: "sh".into(), body: vec!["# c".into(), "lights a \\".into(), "  b".into()] };
    assert_eq!(commands(&fence), ["lights a b"]);
    let console = Fence { line: 1, info: "console".into(), body: vec!["$ lights x".into(), "output".into()] };
    assert_eq!(commands(&console), ["lights x"]);
    assert_eq!(shown_outputs(&console), [Some(vec!["output".to_string()])]);
    assert!(shows_part_of(&["a".into(), "c".into()], "a\nb\nc  \n"));
    assert!(!shows_part_of(&["c".into(), "a".into()], "a\nb\nc\n"));
    assert_eq!(programs("printf '1|2' | lights import coords # a | b"), ["printf", "lights"]);
    assert_eq!(programs("X=1 lights compile f -o s && sage s"), ["lights", "sage"]);
    assert_eq!(skip_reason(&fence, "lights compile f | jq ."), Some("runs `jq`".into()));
    assert_eq!(skip_reason(&fence, "lights play f"), Some("`lights play` waits for a client".into()));
    assert_eq!(skip_reason(&fence, "lights check ."), None);
}
