//! `editors/helix/languages.toml`, the Helix configuration users merge into
//! their own: it must parse, hold only keys Helix knows (Helix rejects a
//! `[[language]]` with an unknown key, `deny_unknown_fields`), map `*.lights`
//! to the `lights` language with `//` comments and two-space indentation, and
//! start `lights lsp`. The server command and its `config` are then used as
//! Helix uses them: the real binary is started with the file's arguments and
//! given the `config` as `initializationOptions`, and the settings must take
//! effect (inlay hints, which are off by default, appear).
//!
//! Helix itself is not installed here (Debian bookworm has no package), so
//! `hx --health lights` is not run.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use lights_test_client::Client;
use serde_json::{json, Value};
use toml_edit::{DocumentMut, Item};

/// The keys Helix accepts in a `[[language]]` table (helix-core's
/// `LanguageConfiguration`; `comment-token` is an alias of `comment-tokens`).
const LANGUAGE_KEYS: &[&str] = &[
    "name",
    "language-id",
    "scope",
    "file-types",
    "shebangs",
    "roots",
    "comment-token",
    "comment-tokens",
    "block-comment-tokens",
    "text-width",
    "soft-wrap",
    "auto-format",
    "formatter",
    "path-completion",
    "word-completion",
    "diagnostic-severity",
    "grammar",
    "injection-regex",
    "language-servers",
    "indent",
    "debugger",
    "auto-pairs",
    "rulers",
    "workspace-lsp-roots",
    "persistent-diagnostic-sources",
];

/// The keys of a `[language-server.NAME]` table.
const SERVER_KEYS: &[&str] = &["command", "args", "environment", "config", "timeout", "required-root-patterns"];

fn languages_toml() -> DocumentMut {
    let path = common::root().join("editors/helix/languages.toml");
    let text = std::fs::read_to_string(&path).expect("editors/helix/languages.toml");
    text.parse::<DocumentMut>().unwrap_or_else(|e| panic!("{} is not valid TOML: {e}", path.display()))
}

/// A TOML item as JSON (what Helix sends for `config`).
fn to_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(v) => value_json(v),
        Item::Table(t) => Value::Object(t.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect()),
        Item::ArrayOfTables(a) => Value::Array(
            a.iter().map(|t| Value::Object(t.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect())).collect(),
        ),
    }
}

fn value_json(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as V;
    match v {
        V::String(s) => json!(s.value()),
        V::Integer(i) => json!(i.value()),
        V::Float(f) => json!(f.value()),
        V::Boolean(b) => json!(b.value()),
        V::Datetime(d) => json!(d.value().to_string()),
        V::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        V::InlineTable(t) => Value::Object(t.iter().map(|(k, v)| (k.to_string(), value_json(v))).collect()),
    }
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().expect("a table").keys().map(String::as_str).collect()
}

/// The `lights` language and its language server, as JSON.
fn config() -> (Value, Value) {
    let doc = languages_toml();
    let all = to_json(doc.as_item());
    let languages = all["language"].as_array().expect("[[language]] tables");
    let lights: Vec<&Value> = languages.iter().filter(|l| l["name"] == "lights").collect();
    assert_eq!(lights.len(), 1, "one [[language]] named lights: {languages:?}");
    let server = all["language-server"]["lights"].clone();
    assert!(server.is_object(), "no [language-server.lights]: {all:#}");
    (lights[0].clone(), server)
}

#[test]
fn helix_language_entry_maps_lights_files_with_known_keys() {
    let (lang, _) = config();
    for key in keys(&lang) {
        assert!(LANGUAGE_KEYS.contains(&key), "Helix would reject the unknown key `{key}` in [[language]]");
    }
    // Helix requires these three.
    assert_eq!(lang["name"], "lights");
    assert_eq!(lang["scope"], "source.lights");
    assert_eq!(lang["file-types"], json!(["lights"]), "*.lights files");
    assert_eq!(lang["language-id"], "lights", "the language id the server is told");
    assert_eq!(lang["comment-token"], "//", "line comments");
    assert_eq!(lang["indent"], json!({ "tab-width": 2, "unit": "  " }), "two spaces, as `lights fmt` writes");
    assert_eq!(lang["language-servers"], json!(["lights"]));
    assert_eq!(lang["roots"], json!([".git"]));
}

#[test]
fn helix_language_server_entry_runs_lights_lsp() {
    let (_, server) = config();
    for key in keys(&server) {
        assert!(SERVER_KEYS.contains(&key), "unknown key `{key}` in [language-server.lights]");
    }
    assert_eq!(server["command"], "lights");
    assert_eq!(server["args"], json!(["lsp"]));
    // Only settings the server reads (docs/lsp.md), under "lights".
    let settings = &server["config"]["lights"];
    assert_eq!(keys(&server["config"]), vec!["lights"], "settings under \"lights\"");
    for key in keys(settings) {
        assert!(["codeLens", "inlayHints", "solver"].contains(&key), "the server has no setting `{key}`");
    }
    assert_eq!(settings["inlayHints"]["enable"], true, "Helix has no code lens: the hints carry the result");
}

// ------------------------------------------------------------------ the server, started as Helix would

/// Start the server with `args` as Helix does (`initializationOptions` =
/// `init`), open the 5×5 all-on fixture and return its inlay-hint labels,
/// asked for until no solve is still running.
fn inlay_hint_labels(args: &[String], init: &Value) -> Vec<String> {
    // `command` is "lights" on PATH; here it is the binary under test.
    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.args(args);
    let mut lsp = Client::spawn(command);
    lsp.initialize(json!({}), init.clone());

    let file = common::root().join("tests/nvim/all-on.lights");
    let text = std::fs::read_to_string(&file).expect("fixture");
    let uri = format!("file://{}", file.display());
    lsp.open(&uri, 1, &text);

    let lines = text.lines().count();
    let deadline = Instant::now() + Duration::from_secs(20);
    let labels = loop {
        let hints = lsp.request(
            "textDocument/inlayHint",
            json!({
                "textDocument": { "uri": uri },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": lines, "character": 0 } },
            }),
        );
        let hints = hints.as_array().unwrap_or_else(|| panic!("inlay hints: {hints}"));
        let labels: Vec<String> = hints.iter().map(|h| h["label"].as_str().unwrap_or_default().to_string()).collect();
        if !labels.iter().any(|l| l.contains("solving")) || Instant::now() > deadline {
            break labels;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    lsp.shutdown_and_exit();
    labels
}

#[test]
fn helix_config_reaches_the_server_as_initialization_options() {
    let (_, server) = config();
    let args: Vec<String> =
        server["args"].as_array().expect("args").iter().map(|a| a.as_str().expect("arg").to_string()).collect();
    // Inlay hints are off by default…
    assert_eq!(inlay_hint_labels(&args, &Value::Null), Vec::<String>::new(), "no hints without the config");
    // …and the file's config turns them on: one per puzzle, with the result.
    let labels = inlay_hint_labels(&args, &server["config"]);
    assert_eq!(labels.len(), 1, "one hint for the one puzzle: {labels:?}");
    assert!(labels[0].contains("4 solutions · minimum 15 presses"), "hint: {labels:?}");
}
