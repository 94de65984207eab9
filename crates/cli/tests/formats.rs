//! `lights check --format concise|github|sarif|junit|json` through the real
//! binary on one small pack (a fine puzzle, false claims, a syntax error, a
//! warning, an empty file, a name that needs escaping): each output pinned
//! with insta, the SARIF log validated against the published 2.1.0 schema
//! (`tests/sarif-schema-2.1.0.json`), and every format reporting the same
//! diagnostics at the same places.

mod common;
use common::*;

use std::path::PathBuf;

/// The pack, written fresh into a scratch folder; returns the folder.
fn pack(name: &str) -> PathBuf {
    let dir = scratch(&format!("formats-{name}"));
    let files: &[(&str, &str)] = &[
        ("fine.lights", "puzzle \"fine\" {\n  size 2x2\n  lights on\n  expect unique\n}\n"),
        (
            "claims.lights",
            "// Two false claims and a true one.\npuzzle \"u\" {\n  size 2x2\n  states 6\n  goal on\n  expect unsolvable\n  expect solvable\n  expect presses 3\n}\n\npuzzle \"five\" {\n  size 5x5\n  lights on\n  expect solutions 4\n}\n",
        ),
        ("broken.lights", "puzzle \"b\" {\n  size 3x3\n  lights {\n    . 1 .\n    1 ? 1\n    . 1 .\n  }\n}\n"),
        ("empty.lights", "// nothing here yet\n"),
        ("a, b: «c».lights", "puzzle \"quote \\\" & <tag>\" {\n  size 1x3\n  lights { 1 é 1 }\n}\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write a pack file");
    }
    dir
}

/// `lights check --format FORMAT` on the pack's files (sorted), in a folder
/// of its own (`tag`: tests run in parallel), exit status 1.
fn check_in(tag: &str, format: &str) -> String {
    let dir = pack(tag);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lights"))
        .collect();
    names.sort();
    let mut args = vec!["check", "--format", format];
    args.extend(names.iter().map(String::as_str));
    let out = lights(&dir, &args);
    assert_eq!(out.status.code(), Some(1), "{format}: {}", stderr(&out));
    stdout(&out)
}

fn check(format: &str) -> String {
    check_in(format, format)
}

/// (file, line, column, code) of every diagnostic, from the JSON output.
fn json_places(tag: &str) -> Vec<(String, u64, u64, String)> {
    let json: serde_json::Value = serde_json::from_str(&check_in(&format!("{tag}-json"), "json")).expect("JSON");
    let mut places = Vec::new();
    for object in json.as_array().unwrap() {
        assert_eq!(object["version"], 1);
        for d in object["diagnostics"].as_array().unwrap() {
            assert!(d["end_line"].as_u64() >= d["line"].as_u64(), "{d}");
            places.push((
                object["file"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["code"].as_str().unwrap().to_string(),
            ));
        }
    }
    places.sort();
    places
}

#[test]
fn concise() {
    let text = check("concise");
    insta::assert_snapshot!(text);
    let mut places: Vec<(String, u64, u64, String)> = text
        .lines()
        .filter(|l| l.contains("]"))
        .map(|l| {
            // `file:line:col: severity[code] message`; the file may hold `:`.
            let (head, rest) = l.split_once(".lights:").expect("file");
            let mut parts = rest.splitn(3, ':');
            let line = parts.next().unwrap().parse().unwrap();
            let col = parts.next().unwrap().parse().unwrap();
            let code = rest[rest.find('[').unwrap() + 1..rest.find(']').unwrap()].to_string();
            (format!("{head}.lights"), line, col, code)
        })
        .collect();
    places.sort();
    assert_eq!(places, json_places("concise"));
}

#[test]
fn github() {
    let text = check("github");
    insta::assert_snapshot!(text);
    let annotations: Vec<&str> = text.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), json_places("github").len());
    for a in &annotations {
        let (command, message) = a[2..].split_once("::").expect("a workflow command");
        assert!(command.starts_with("error file=") || command.starts_with("warning file="), "{a}");
        assert!(!message.contains('\n'), "one line each");
        for key in ["line=", "endLine=", "col=", "endColumn=", "title=L0"] {
            assert!(command.contains(key), "{a}");
        }
    }
    // Commas and colons in a property are escaped.
    assert!(text.contains("file=a%2C b%3A «c».lights,"), "{text}");
}

#[test]
fn junit() {
    let text = check("junit");
    insta::assert_snapshot!(text);
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    // Five files; a test case per puzzle (five) plus one for the empty file's warning.
    assert_eq!(text.matches("<testsuite ").count(), 5);
    assert_eq!(text.matches("<testcase ").count(), 6);
    assert!(text.contains("<testsuites name=\"lights check\" tests=\"6\" failures=\"3\""), "{text}");
    assert!(text.contains("name=\"quote &quot; &amp; &lt;tag&gt;\""), "{text}");
}

#[test]
fn sarif_validates_against_the_2_1_0_schema() {
    let text = check("sarif");
    let log: serde_json::Value = serde_json::from_str(&text).expect("SARIF is JSON");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("tests/sarif-schema-2.1.0.json")).unwrap()).unwrap();
    let validator = jsonschema::draft4::new(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), lights_compiler::Code::ALL.len(), "one rule per code");
    for rule in rules {
        let id = rule["id"].as_str().unwrap();
        if let Some(uri) = rule["helpUri"].as_str() {
            assert!(uri.contains(&format!("diagnostics.md#{}", id.to_lowercase())), "{uri}");
        }
        assert!(rule["help"]["markdown"].as_str().unwrap().contains("**Trigger.**"), "{id}");
    }
    let mut places: Vec<(String, u64, u64, String)> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            let file = uri.replace("%20", " ").replace("%2C", ",").replace("%3A", ":").replace("%C2%AB", "«");
            let file = file.replace("%C2%BB", "»");
            let rule = r["ruleId"].as_str().unwrap().to_string();
            assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"], rule);
            (file, loc["region"]["startLine"].as_u64().unwrap(), loc["region"]["startColumn"].as_u64().unwrap(), rule)
        })
        .collect();
    places.sort();
    assert_eq!(places, json_places("sarif"));
    // Results without the rule table (it is the same in every run).
    let results = serde_json::to_string_pretty(&run["results"]).unwrap();
    insta::assert_snapshot!(results);
}

#[test]
fn an_unreadable_file_is_reported_in_every_format_and_the_rest_is_checked() {
    let dir = pack("unreadable");
    std::fs::write(dir.join("binary.lights"), [0xff, 0xfe, 0x00]).unwrap();
    for format in ["concise", "github", "sarif", "junit", "json"] {
        let out = lights(&dir, &["check", "--format", format, "fine.lights", "binary.lights"]);
        assert_eq!(out.status.code(), Some(2), "{format}");
        let text = stdout(&out);
        assert!(text.contains("binary.lights"), "{format}: {text}");
        assert!(text.contains("not UTF-8"), "{format}: {text}");
        let checked = text.contains("fine") || text.contains("checked 1 puzzle in 2 files");
        assert!(checked, "{format} still checks the readable file: {text}");
    }
}
