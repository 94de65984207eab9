//! `--minimum-budget DURATION` and `[solver] minimum-budget` in lights.toml
//! (issue 28): the same meaning in `lights check`, `lights solve`, `lights
//! render`, `lights play` and the language server, through the real binary.
//!
//! The board: a random solvable 14×18 torus (cross rule, 2 states) whose
//! quiet patterns span 28 dimensions, one block more than the search takes
//! on outright (24). Within the default budget (about 10ms) the search finds 81
//! presses, not proven; its whole space (2^28 members) is searched within
//! about 250ms of work, which proves 77. (Made with `lights generate --size
//! 14x18 --topology torus --count 4 --seed 11`, the third puzzle.) Work is
//! counted, not timed: these answers are the same on every machine.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{lights, scratch, stderr, stdout};
use lights_test_client::Client;
use serde_json::{json, Value};

const HARD: &str = "puzzle \"t-3\" {
  size 14x18
  topology torus
  lights {
    1 . 1 1 1 1 1 . . 1 . 1 1 1 . 1 1 .
    . 1 1 . . . 1 . . 1 1 1 . 1 . . . .
    1 . 1 . . 1 . . 1 . 1 1 1 1 . . 1 1
    . 1 . . 1 1 1 . 1 1 1 . . . 1 . 1 1
    . 1 1 . . 1 . . 1 1 . . . . 1 1 . 1
    1 . . 1 . . 1 1 1 1 . . 1 1 . 1 . .
    1 1 1 1 1 1 1 . 1 . . 1 . . 1 . 1 .
    1 . 1 1 . . . . . . 1 1 1 1 1 1 . .
    . 1 . . 1 1 . 1 1 . 1 1 1 . . . . 1
    1 1 1 1 . . 1 1 . 1 1 . . . . 1 . 1
    . . 1 . 1 . . 1 . 1 . 1 . . . 1 1 .
    . . 1 1 1 . 1 . 1 . 1 . 1 1 . 1 . 1
    1 1 1 . . . . 1 1 1 1 1 1 . . . 1 .
    . . . . 1 1 1 . . 1 . 1 1 1 . . 1 1
  }
  expect solutions 268435456
  expect presses 77
}
";

/// The proven minimum of [`HARD`].
const MINIMUM: u64 = 77;

/// How long the server may take to settle (an unoptimised build on a busy machine).
const SETTLE: Duration = Duration::from_secs(180);

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `lights solve FILE --format json` with `extra`: (presses, optimal, presses_at_least).
fn solved(dir: &Path, file: &str, extra: &[&str]) -> (u64, bool, Option<u64>) {
    let out = lights(dir, &[&["solve", file, "--format", "json"], extra].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let o = &json[0];
    (o["presses"].as_u64().unwrap(), o["optimal"].as_bool().unwrap(), o["presses_at_least"].as_u64())
}

/// The codes `lights check --format concise` reports, and its status.
fn check_codes(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = lights(dir, &[&["check", "--format", "concise"], args].concat());
    (out.status.code(), stdout(&out) + &stderr(&out))
}

#[test]
fn a_larger_budget_proves_what_the_default_does_not() {
    let dir = scratch("minimum-budget-solve");
    write(&dir, "hard.lights", HARD);
    let (default_cost, default_proven, default_bound) = solved(&dir, "hard.lights", &[]);
    assert!(!default_proven, "the default budget does not prove it (pick a harder board if it now does)");
    assert!(default_cost >= MINIMUM && default_bound.is_some_and(|b| b <= MINIMUM));
    let (cost, proven, bound) = solved(&dir, "hard.lights", &["--minimum-budget", "5s"]);
    assert_eq!((cost, proven, bound), (MINIMUM, true, None), "5s of work searches all 2^28 members");
    // Fractions and minutes are the same budget in other words.
    assert_eq!(solved(&dir, "hard.lights", &["--minimum-budget=0.5m"]).0, MINIMUM);
    // 0: no search, the solution the solve found, with the bound it has.
    let (cost, proven, bound) = solved(&dir, "hard.lights", &["--minimum-budget", "0"]);
    assert!(!proven && cost >= default_cost && bound.is_some_and(|b| b <= MINIMUM), "{cost} {bound:?}");
    // The human output says which.
    let human = stdout(&lights(&dir, &["solve", "hard.lights", "--minimum-budget", "5s"]));
    assert!(human.contains("77 presses, proven minimum"), "{human}");
}

#[test]
fn zero_turns_the_search_off_even_on_small_boards() {
    let dir = scratch("minimum-budget-zero");
    // 5×5 all on: 4 solutions, every one of 15 presses; the search proves it at once.
    write(&dir, "a.lights", "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect presses 15\n}\n");
    assert_eq!(solved(&dir, "a.lights", &[]), (15, true, None));
    assert_eq!(solved(&dir, "a.lights", &["--minimum-budget", "0"]), (15, false, Some(1)));
    let (code, out) = check_codes(&dir, &["a.lights"]);
    assert_eq!((code, out.contains("L0206")), (Some(0), false), "{out}");
    let (code, out) = check_codes(&dir, &["a.lights", "--minimum-budget", "0"]);
    assert_eq!((code, out.contains("warning[L0206]")), (Some(0), true), "{out}");
}

#[test]
fn lights_toml_sets_the_budget_and_the_flag_wins() {
    let dir = scratch("minimum-budget-toml");
    write(&dir, "levels/hard.lights", HARD);
    // Without a budget: `expect presses 77` cannot be verified (L0206).
    let (code, out) = check_codes(&dir, &["levels"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("warning[L0206]"), "{out}");
    let long = lights(&dir, &["check", "levels"]);
    assert!(stdout(&long).contains("--minimum-budget 5s"), "the note says how: {}", stdout(&long));

    write(&dir, "lights.toml", "[solver]\nminimum-budget = \"5s\"\n");
    let (code, out) = check_codes(&dir, &["levels"]);
    assert_eq!((code, out.contains("L0206")), (Some(0), false), "proven within the file's budget: {out}");
    // `lights solve` reads the same key; the flag wins over the file.
    assert_eq!(solved(&dir, "levels/hard.lights", &[]), (MINIMUM, true, None));
    assert!(!solved(&dir, "levels/hard.lights", &["--minimum-budget", "10ms"]).1);
    let (_, out) = check_codes(&dir, &["levels", "--minimum-budget", "0"]);
    assert!(out.contains("warning[L0206]"), "{out}");
    // --config names the file for every input.
    write(&dir, "other/lights.toml", "[solver]\nminimum-budget = \"0\"\n");
    let (_, out) = check_codes(&dir, &["levels", "--config", "other/lights.toml"]);
    assert!(out.contains("warning[L0206]"), "{out}");
    // Standard input: the current folder's lights.toml.
    let piped = common::lights_with_input(&dir, &["solve", "-", "--format", "json"], HARD);
    let json: Value = serde_json::from_str(&stdout(&piped)).unwrap();
    assert_eq!(json[0]["optimal"], json!(true), "{}", stderr(&piped));
}

#[test]
fn bad_budgets_are_clear_errors() {
    let dir = scratch("minimum-budget-bad");
    write(&dir, "a.lights", "puzzle \"p\" {\n  size 5x5\n  lights on\n}\n");
    let cases = [
        ("-1s", "is negative"),
        ("abc", "is not a duration"),
        ("99999h", "more than the longest budget, 1h"),
        ("1e400s", "is not a duration"),
        ("250", "has no unit"),
        ("2 weeks", "is not a unit of time"),
    ];
    for (value, says) in cases {
        for command in [
            &["check", "a.lights"][..],
            &["solve", "a.lights"],
            &["render", "a.lights", "-o", "a.svg"],
            &["play", "a.lights", "--no-open"],
        ] {
            let out = lights(&dir, &[command, &["--minimum-budget", value]].concat());
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{command:?} {value}: {err}");
            assert!(err.contains("--minimum-budget") && err.contains(says), "{command:?} {value}: {err}");
        }
        // The same words from lights.toml, naming the file and the key.
        write(&dir, "lights.toml", &format!("[solver]\nminimum-budget = \"{value}\"\n"));
        for command in [&["check", "a.lights"][..], &["solve", "a.lights"]] {
            let out = lights(&dir, command);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{command:?} {value}: {err}");
            assert!(err.contains("lights.toml`: [solver] minimum-budget: ") && err.contains(says), "{value}: {err}");
        }
        std::fs::remove_file(dir.join("lights.toml")).unwrap();
    }
    // Longer than the file's own time budget: every search would be cut short.
    write(&dir, "lights.toml", "[solver]\ntime-budget-ms = 1000\nminimum-budget = \"2s\"\n");
    let out = lights(&dir, &["check", "a.lights"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("minimum-budget \"2s\" is longer than time-budget-ms = 1000"), "{}", stderr(&out));
}

#[test]
fn render_draws_the_solution_found_within_the_budget() {
    let dir = scratch("minimum-budget-render");
    write(&dir, "hard.lights", HARD);
    let svg = |extra: &[&str]| {
        let out = lights(&dir, &[&["render", "hard.lights", "--show", "solution", "-o", "-"], extra].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let (default, proven) = (svg(&[]), svg(&["--minimum-budget", "5s"]));
    assert_ne!(default, proven, "81 presses drawn, then 77");
    assert_eq!(proven, svg(&["--minimum-budget", "1m"]), "the proven minimum, whatever the larger budget");
}

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The editor reads `minimum-budget` from lights.toml as `lights check`
/// does, and solves again when it changes.
#[test]
fn the_language_server_follows_lights_toml() {
    let dir = scratch("minimum-budget-lsp");
    let toml = dir.join("lights.toml");
    std::fs::write(&toml, "[solver]\nminimum-budget = \"5s\"\n").unwrap();
    let file = dir.join("hard.lights");
    std::fs::write(&file, HARD).unwrap();
    let (uri, toml_uri) = (file_uri(&file), file_uri(&toml));

    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.arg("lsp");
    let mut lsp = Client::spawn(command);
    lsp.initialize(json!({}), Value::Null);
    lsp.open(&uri, 1, HARD);
    let (published, titles) = lsp.settled(&uri, 1, SETTLE);
    assert!(published.is_empty(), "proven within lights.toml's budget: {published:?}");
    assert!(titles.iter().any(|t| t.contains("minimum 77 presses")), "{titles:?}");
    let (code, cli) = check_codes(&dir, &["hard.lights"]);
    assert_eq!((code, cli.contains("L0206")), (Some(0), false), "{cli}");

    // The budget removed: the default again, L0206 as on the command line.
    std::fs::write(&toml, "max-warnings = 10\n").unwrap();
    lsp.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": toml_uri, "type": 2}]}));
    let late = lsp.diagnostics_where(&uri, 1, SETTLE, |ds| !ds.is_empty());
    let codes: Vec<&str> = late.iter().filter_map(|d| d["code"].as_str()).collect();
    assert_eq!(codes, ["L0206"], "{late:?}");
    let (_, cli) = check_codes(&dir, &["hard.lights"]);
    assert!(cli.contains("warning[L0206]"), "{cli}");

    // And back (an answer within 5s is not an answer within 10ms: keyed apart).
    std::fs::write(&toml, "[solver]\nminimum-budget = \"5s\"\n").unwrap();
    lsp.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": toml_uri, "type": 2}]}));
    lsp.diagnostics_where(&uri, 1, SETTLE, <[serde_json::Value]>::is_empty);

    // The editor's own setting applies where no lights.toml sets one.
    std::fs::write(&toml, "max-warnings = 10\n").unwrap();
    lsp.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": toml_uri, "type": 2}]}));
    lsp.diagnostics_where(&uri, 1, SETTLE, |ds| !ds.is_empty());
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"lights": {"solver": {"minimumBudget": "5s"}}}}),
    );
    lsp.diagnostics_where(&uri, 1, SETTLE, <[serde_json::Value]>::is_empty);
    assert!(lsp.running());
    lsp.shutdown_and_exit();
}

/// `lights play`: the board's report (its hints and solution) comes from a
/// solve within the flag's budget, else lights.toml's, read when it starts.
#[test]
fn the_play_server_solves_within_the_budget() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = scratch("minimum-budget-play");
    write(&dir, "hard.lights", HARD);
    let report = |args: &[&str]| -> Value {
        let mut child = common::command(&dir, &[&["play", "hard.lights", "--no-open"], args].concat())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.strip_prefix("lights play: http://127.0.0.1:").and_then(|r| r.split('/').next());
        let port: u16 = port.and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("{line:?}"));
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_read_timeout(Some(SETTLE)).unwrap();
        let request = format!("GET /api/puzzle/0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let _ = child.kill();
        let _ = child.wait();
        let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        serde_json::from_str::<Value>(body).unwrap_or_else(|e| panic!("{e}: {response}"))["report"].clone()
    };
    let within = |r: &Value| (r["presses"].as_u64(), r["optimal"].as_bool());
    assert_eq!(within(&report(&["--minimum-budget", "5s"])), (Some(MINIMUM), Some(true)));
    let default = report(&[]);
    assert_eq!(default["optimal"], json!(false), "{default}");
    write(&dir, "lights.toml", "[solver]\nminimum-budget = \"5s\"\n");
    assert_eq!(within(&report(&[])), (Some(MINIMUM), Some(true)));
}

/// `lights generate`: `expect presses N` is written when the minimum is
/// proven within the budget; the header's command line carries the flag.
#[test]
fn generate_proves_minima_within_its_budget() {
    let dir = scratch("minimum-budget-generate");
    let generate = |extra: &[&str]| {
        let base =
            ["generate", "--size", "14x18", "--topology", "torus", "--count", "2", "--seed", "11", "--name", "t"];
        let out = lights(&dir, &[&base[..], extra].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let default = generate(&[]);
    assert!(!default.contains("expect presses") && !default.contains("--minimum-budget"), "{default}");
    let proven = generate(&["--minimum-budget", "5s"]);
    assert_eq!(proven.matches("expect presses").count(), 2, "{proven}");
    assert!(proven.contains("--minimum-budget 5s --count 2"), "the command that makes it again: {proven}");
    // The same positions: only the claims differ.
    let claims = |text: &str| {
        text.lines().filter(|l| !l.contains("expect presses") && !l.starts_with("//")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(claims(&default), claims(&proven));
    // The file checks clean within the same budget.
    write(&dir, "proven.lights", &proven);
    let (code, out) = check_codes(&dir, &["proven.lights", "--minimum-budget", "5s"]);
    assert_eq!((code, out.contains("L0206")), (Some(0), false), "{out}");
    // 0: no search, so --presses can never be met on a board with quiet patterns.
    let out =
        lights(&dir, &["generate", "--size", "5x5", "--presses", "1..30", "--minimum-budget", "0", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--minimum-budget 0 does no search"), "{}", stderr(&out));
}

/// Without the flag, `lights generate` takes the budget of the lights.toml
/// its file goes under, so `lights check` proves the same claims there.
#[test]
fn generate_takes_the_budget_of_the_lights_toml_its_file_goes_under() {
    let dir = scratch("minimum-budget-generate-toml");
    write(&dir, "levels/lights.toml", "[solver]\nminimum-budget = \"5s\"\n");
    let args = ["generate", "--size", "14x18", "--topology", "torus", "--count", "2", "--seed", "11", "--name", "t"];
    let out = lights(&dir, &[&args[..], &["-o", "levels/new.lights"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("levels/new.lights")).unwrap();
    assert_eq!(text.matches("expect presses").count(), 2, "{text}");
    let (code, out) = check_codes(&dir, &["levels"]);
    assert_eq!((code, out.contains("L0206")), (Some(0), false), "{out}");
    // Standard output: the current folder's (none here): the default.
    assert!(!stdout(&lights(&dir, &args)).contains("expect presses"));
}
