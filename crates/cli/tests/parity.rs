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

/// A `file:` URI for a path (plain ASCII paths only, as in these tests).
fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// `lights.toml` cases: the server applies the nearest one above each
/// document, as `lights check` does — severity changes, `"off"`, the
/// solver's time budget, and `// lights: allow` on the same line.
#[test]
fn the_editor_applies_lights_toml_as_the_command_line_does() {
    const UNSOLVABLE: &str = "puzzle \"six-states\" {\n  size 2x2\n  states 6\n  goal on\n}\n";
    const CLAIMS: &str = "puzzle \"claims\" {\n  size 5x5\n  lights on\n  expect unique  // lights: allow L0202\n  expect presses 3\n}\n";
    const TORUS: &str = "puzzle \"t\" {\n  size 48x48\n  states 3\n  topology torus\n  lights on\n}\n";
    const PRESSES: &str = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect presses 15\n}\n";
    let cases: &[(&str, &str, &str, &str)] = &[
        // (case, lights.toml, file, a code the command line must show or (`-`) not show)
        ("l0201-warning", "[severity]\nL0201 = \"warning\"\n", UNSOLVABLE, "L0201"),
        ("l0009-off", "[severity]\nL0009 = \"off\"\n", "// nothing yet\n", "-L0009"),
        ("l0202-error-allowed", "[severity]\nL0202 = \"error\"\n", CLAIMS, "L0202"),
        ("budget", "[solver]\ntime-budget-ms = 1\n", TORUS, "L0301"),
        ("budget-error", "[solver]\ntime-budget-ms = 1\n[severity]\nL0301 = \"error\"\n", TORUS, "L0301"),
        // No minimum search: 15 presses found, not proven (4 solutions).
        ("no-minimum-search", "[solver]\nminimum-budget = \"0\"\n", PRESSES, "L0206"),
        ("minimum-search", "[solver]\nminimum-budget = \"1s\"\n", PRESSES, "-L0206"),
    ];
    let root = scratch("parity-config");
    let mut lsp = server();
    for (name, toml, text, code) in cases {
        let dir = root.join(name).join("levels");
        std::fs::create_dir_all(&dir).unwrap();
        // In the folder above: the nearest one, not only the file's own folder.
        std::fs::write(root.join(name).join("lights.toml"), toml).unwrap();
        let file = dir.join("a.lights");
        std::fs::write(&file, text).unwrap();
        let cli = command_line(&file);
        match code.strip_prefix('-') {
            Some(absent) => assert!(!cli.diagnostics.iter().any(|d| d.0 == absent), "{name}: {cli:?}"),
            None => assert!(cli.diagnostics.iter().any(|d| d.0 == *code), "{name}: {cli:?}"),
        }
        if *name == "l0202-error-allowed" {
            // The claim with `// lights: allow L0202` at the end of its line is silenced, the other is not.
            let lines: Vec<u64> = cli.diagnostics.iter().filter(|d| d.0 == "L0202").map(|d| d.3).collect();
            assert_eq!(lines, [5], "{cli:?}");
        }
        let ide = editor(&mut lsp, &file_uri(&file), text);
        assert_eq!(ide, cli, "{name}");
    }
    lsp.shutdown_and_exit();
}

/// The server registers a watcher for `**/lights.toml` when the client
/// can take one, and on a change reads it again and republishes.
#[test]
fn a_changed_lights_toml_is_read_again_and_diagnostics_republished() {
    let dir = scratch("config-watch");
    let toml = dir.join("lights.toml");
    std::fs::write(&toml, "[severity]\nL0202 = \"warning\"\n").unwrap();
    let file = dir.join("a.lights");
    let text = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect unique\n}\n";
    std::fs::write(&file, text).unwrap();
    let (uri, toml_uri) = (file_uri(&file), file_uri(&toml));

    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.arg("lsp");
    let mut lsp = Client::spawn(command);
    let caps = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    lsp.initialize(caps, Value::Null);
    let registration = lsp.wait_for("client/registerCapability", |m| m["method"] == "client/registerCapability");
    let r = &registration["params"]["registrations"][0];
    assert_eq!(r["method"], "workspace/didChangeWatchedFiles", "{registration}");
    assert_eq!(r["registerOptions"]["watchers"][0]["globPattern"], "**/lights.toml", "{registration}");

    let codes = |ds: &[Value]| ds.iter().map(|d| (d["code"].clone(), d["severity"].clone())).collect::<Vec<_>>();
    let error = [(json!("L0202"), json!(1))];
    let warning = [(json!("L0202"), json!(2))];
    lsp.open(&uri, 1, text);
    let first = lsp.diagnostics_where(&uri, 1, SETTLE, |ds| !ds.is_empty());
    assert_eq!(codes(&first), warning, "a warning, as lights.toml says");

    // The publish after a change (`skip_until`: not one received before it).
    let after_change = |lsp: &mut Client, toml_text: Option<&str>, want: &dyn Fn(&[Value]) -> bool| {
        match toml_text {
            Some(t) => std::fs::write(&toml, t).unwrap(),
            None => std::fs::remove_file(&toml).unwrap(),
        }
        let kind = if toml_text.is_some() { 2 } else { 3 };
        lsp.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": toml_uri, "type": kind}]}));
        lsp.skip_until("the publish after the change", SETTLE, |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri.as_str()
                && want(m["params"]["diagnostics"].as_array().unwrap())
        });
    };
    after_change(&mut lsp, Some("[severity]\nL0202 = \"off\"\n"), &|ds| ds.is_empty());

    // A bad one: the command line's error, shown; the defaults apply; no crash.
    // (No publish with the error was received before: both are waited for
    // in any order.)
    std::fs::write(&toml, "max_warnings = 3\n").unwrap();
    lsp.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": toml_uri, "type": 2}]}));
    lsp.diagnostics_where(&uri, 1, SETTLE, |ds| codes(ds) == error);
    let shown = lsp.wait_for("window/showMessage", |m| m["method"] == "window/showMessage");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(message.contains("lights.toml") && message.contains("unknown field `max_warnings`"), "{message}");
    let cli = lights(&dir, &["check", "--format", "concise", "a.lights"]);
    assert_eq!(cli.status.code(), Some(2));
    assert!(common::stderr(&cli).contains("unknown field `max_warnings`"), "the same error");

    // Fixed, then deleted: the defaults again.
    after_change(&mut lsp, Some("[severity]\nL0202 = \"warning\"\n"), &|ds| codes(ds) == warning);
    after_change(&mut lsp, None, &|ds| codes(ds) == error);

    // A budget added: a puzzle already solved is solved again within it, and
    // is L0301 as on the command line.
    let torus = dir.join("torus.lights");
    let torus_text = "puzzle \"t\" {\n  size 48x48\n  states 3\n  topology torus\n  lights on\n}\n";
    std::fs::write(&torus, torus_text).unwrap();
    let torus_uri = file_uri(&torus);
    lsp.open(&torus_uri, 1, torus_text);
    let (solved, _) = lsp.settled(&torus_uri, 1, SETTLE);
    assert!(solved.is_empty(), "solved within the editor's budget: {solved:?}");
    std::fs::write(&toml, "[solver]\ntime-budget-ms = 1\n").unwrap();
    lsp.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": toml_uri, "type": 1}]}));
    let late = lsp.diagnostics_where(&torus_uri, 1, SETTLE, |ds| !ds.is_empty());
    assert_eq!(codes(&late), [(json!("L0301"), json!(2))], "{late:?}");
    let cli = stdout(&lights(&dir, &["check", "--format", "concise", "torus.lights"]));
    assert!(cli.contains("warning[L0301]"), "{cli}");
    assert!(lsp.running());
    lsp.shutdown_and_exit();
}
