//! One engine, two front doors: for every file of `examples/` and
//! `tests/corpus/`, and for large boards, the language server (the real
//! binary, over stdio, with its default time budget) shows the same
//! diagnostics — code, severity, message, line and column — and the same
//! status line per block as `lights check`. The server has no limits of its
//! own: a board the command line solves is solved in the editor too.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{lights, root, scratch, stdout};
use lights_test_client::Client;
use serde_json::{json, Value};

/// How long the server may take to settle a file (an unoptimised build on a
/// busy machine; the server's own time budget still applies to each solve).
const SETTLE: Duration = Duration::from_secs(180);

/// A diagnostic as both front ends can state it: code, severity (1 error,
/// 2 warning), the message without its notes, 1-based line and column (in
/// characters).
type Said = (String, u64, String, u64, u64);

/// What a front end says about a file: its diagnostics in source order and
/// each block's status line (`✓ 4 solutions · minimum 15 presses`).
#[derive(Debug, PartialEq)]
struct Answer {
    diagnostics: Vec<Said>,
    statuses: Vec<String>,
}

/// `lights check` on `file`: `--format json` for the diagnostics, the human
/// output for the status lines.
fn command_line(file: &Path) -> Answer {
    let dir = file.parent().unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    let json: Value = serde_json::from_str(&stdout(&lights(dir, &["check", "--format", "json", name]))).unwrap();
    let mut diagnostics: Vec<Said> = Vec::new();
    let mut names = Vec::new();
    for object in json.as_array().unwrap() {
        if object["kind"].is_string() {
            names.push(object["puzzle"].as_str().unwrap_or("").to_string());
        }
        for d in object["diagnostics"].as_array().unwrap() {
            let severity = if d["severity"] == "error" { 1 } else { 2 };
            let (line, column) = (d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap());
            diagnostics.push((
                d["code"].as_str().unwrap().into(),
                severity,
                d["message"].as_str().unwrap().into(),
                line,
                column,
            ));
        }
    }
    diagnostics.sort_by_key(|d| (d.3, d.4));
    // `✓ FILE: NAME: STATUS`, a line per block in file order.
    let human = stdout(&lights(dir, &["check", name]));
    let lines: Vec<(&str, &str)> = human
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(mark, rest)| ["✓", "✗", "⋯", "⏱"].contains(mark) && rest.starts_with(&format!("{name}: ")))
        .collect();
    assert_eq!(lines.len(), names.len(), "a status line per block:\n{human}");
    let statuses = lines
        .iter()
        .zip(&names)
        .map(|((mark, rest), puzzle)| {
            let shown = if puzzle.trim().is_empty() { "(unnamed)" } else { puzzle.as_str() };
            let prefix = format!("{name}: {shown}: ");
            assert!(rest.starts_with(&prefix), "{rest:?} is not about {shown:?}");
            format!("{mark} {}", &rest[prefix.len()..])
        })
        .collect();
    Answer { diagnostics, statuses }
}

/// The 1-based character column of an LSP position (UTF-16 units) in `text`.
fn column(text: &str, line: u64, character: u64) -> u64 {
    let line_text = text.lines().nth(line as usize).unwrap_or("");
    let mut units = 0;
    for (chars, ch) in line_text.chars().enumerate() {
        if units >= character {
            return chars as u64 + 1;
        }
        units += ch.len_utf16() as u64;
    }
    line_text.chars().count() as u64 + 1
}

/// The server, once it has settled on `text`: its diagnostics and the status
/// lens of each block.
fn editor(lsp: &mut Client, uri: &str, text: &str) -> Answer {
    lsp.open(uri, 1, text);
    let (published, titles) = lsp.settled(uri, 1, SETTLE);
    lsp.close(uri);
    let mut diagnostics: Vec<Said> = published
        .iter()
        .map(|d| {
            let start = &d["range"]["start"];
            let line = start["line"].as_u64().unwrap();
            let col = column(text, line, start["character"].as_u64().unwrap());
            let message = d["message"].as_str().unwrap().split("\nnote: ").next().unwrap().to_string();
            (d["code"].as_str().unwrap().into(), d["severity"].as_u64().unwrap(), message, line + 1, col)
        })
        .collect();
    diagnostics.sort_by_key(|d| (d.3, d.4));
    // The status lens comes first for each block; the others offer an edit.
    let statuses = titles.into_iter().filter(|t| !t.starts_with(|c: char| c.is_ascii_lowercase())).collect();
    Answer { diagnostics, statuses }
}

fn server() -> Client {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.arg("lsp");
    let mut lsp = Client::spawn(command);
    lsp.initialize(json!({}), Value::Null);
    lsp
}

#[test]
fn the_editor_says_what_the_command_line_says_about_every_example_and_corpus_file() {
    let mut lsp = server();
    let mut files = common::lights_files("examples");
    files.extend(common::lights_files("tests/corpus"));
    assert!(files.len() > 60, "{} files", files.len());
    let (mut diagnostics, mut blocks) = (0, 0);
    for (i, file) in files.iter().enumerate() {
        let text = std::fs::read_to_string(file).unwrap();
        let uri = format!("file:///parity/{i}.lights");
        let shown = file.strip_prefix(root()).unwrap().display().to_string();
        let cli = command_line(file);
        assert_eq!(editor(&mut lsp, &uri, &text), cli, "{shown}");
        diagnostics += cli.diagnostics.len();
        blocks += cli.statuses.len();
    }
    // Something was compared: every corpus file has a diagnostic, every example several blocks.
    assert!(diagnostics > 60 && blocks > 80, "{diagnostics} diagnostics, {blocks} blocks");
    lsp.shutdown_and_exit();
}

/// Boards the editor once declined ("too large to verify") while the
/// command line answered them in milliseconds.
const LARGE: &[(&str, &str)] = &[
    ("all-on-142", "size 142x142\n  lights on"),
    ("king-1000", "size 1000x1000\n  rule king\n  lights on"),
    ("torus-300", "size 300x300\n  topology torus\n  lights on"),
    ("six-states-64", "size 64x64\n  states 6\n  lights on"),
    ("all-on-10000", "size 10000x10000\n  lights on"),
    ("king-klein-six-states", "size 100x100\n  rule king\n  topology klein\n  states 6\n  lights on"),
];

#[test]
fn large_boards_get_the_command_lines_answer_in_the_editor_within_its_time_budget() {
    let dir = scratch("parity-large");
    let mut lsp = server();
    for (name, body) in LARGE {
        let text = format!("puzzle \"{name}\" {{\n  {body}\n}}\n");
        let file = dir.join(format!("{name}.lights"));
        std::fs::write(&file, &text).unwrap();
        let cli = command_line(&file);
        let uri = format!("file:///parity/{name}.lights");
        let ide = editor(&mut lsp, &uri, &text);
        assert_eq!(ide, cli, "{name}");
        // Answered, not declined nor timed out.
        assert!(!ide.diagnostics.iter().any(|d| d.0 == "L0205" || d.0 == "L0301"), "{name}: {ide:?}");
        assert!(!ide.statuses[0].starts_with('⏱') && !ide.statuses[0].contains("too large"), "{name}: {ide:?}");
        eprintln!("{name}: {}", ide.statuses[0]);
    }
    lsp.shutdown_and_exit();
}
