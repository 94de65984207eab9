//! Every feature of the server, in process: JSON responses pinned with insta
//! snapshots, and edits applied and re-checked by the compiler.

mod common;

use common::*;
use lights_lsp::Options;
use serde_json::{json, Value};

const UNSOLVABLE: &str = "// a 2×2 board with three states
puzzle \"stuck\" {
  size 2x2
  states 3
  lights {
    1 .
    . .
  }
}
";

const ALL_ON: &str = "puzzle \"all-on\" {
  size 5x5
  lights on
}
";

/// The compiler's own verdict on a text: every error code and message.
fn compiler_errors(text: &str) -> Vec<(String, String)> {
    let analysis = lights_compiler::check_source(text);
    analysis.all_diagnostics().iter().map(|d| (d.code.as_str().to_string(), d.message.clone())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_answers_capabilities_and_negotiates_utf8() {
    let mut c = Client::spawn(Options::default());
    let init = c.request("initialize", json!({"capabilities": capabilities(true)})).await;
    insta::assert_json_snapshot!("initialize_utf8", init);
    let mut c = Client::spawn(Options::default());
    let init = c.request("initialize", json!({"capabilities": {}})).await;
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_have_the_cli_codes_and_messages() {
    let text = example("tests/corpus/several-errors.lights");
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, &text).await;
    let diags = c.diagnostics(URI, 1).await;
    let got: Vec<(String, String)> = diags
        .iter()
        .map(|d| {
            let message = d["message"].as_str().unwrap();
            (d["code"].as_str().unwrap().to_string(), message.split("\nnote: ").next().unwrap().to_string())
        })
        .collect();
    assert!(got.len() >= 3, "several errors expected: {got:?}");
    assert_eq!(got, compiler_errors(&text));
    insta::assert_json_snapshot!("several_errors", diags);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsolvable_points_at_the_certificate_cells() {
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, UNSOLVABLE).await;
    let diags = c.diagnostics(URI, 1).await;
    assert_eq!(codes(&diags), ["L0201"]);
    let related = diags[0]["relatedInformation"].as_array().unwrap();
    let cells: Vec<&str> =
        related.iter().map(|r| r["message"].as_str().unwrap()).filter(|m| m.starts_with("marked")).collect();
    assert_eq!(cells, ["marked cell 1,1", "marked cell 1,2", "marked cell 2,1", "marked cell 2,2"]);
    insta::assert_json_snapshot!("unsolvable", diags);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_solution_and_failed_expect_are_reported_on_their_statements() {
    let text = "puzzle \"p\" {
  size 3x3
  lights on
  expect unique
  expect presses 4
  solution {
    1 . .
    . . .
    . . .
  }
}
";
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, text).await;
    let diags = c.diagnostics(URI, 1).await;
    assert_eq!(codes(&diags), ["L0202", "L0203"]);
    assert_eq!(diags[0]["range"]["start"]["line"], 4);
    assert_eq!(diags[1]["range"]["start"]["line"], 5, "the wrong solution is reported on its block");
    assert!(diags[1]["message"].as_str().unwrap().contains("2,2 is 1 (goal 0)"), "names the cells");
    insta::assert_json_snapshot!("wrong_solution", diags);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_lens_lists_every_puzzle_result() {
    let text = format!("{ALL_ON}\n{UNSOLVABLE}\npuzzle \"broken\" {{\n  size 0x3\n}}\n");
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, &text).await;
    c.diagnostics(URI, 1).await;
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": URI}})).await;
    let titles: Vec<&str> =
        lenses.as_array().unwrap().iter().map(|l| l["command"]["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["✓ 4 solutions · minimum 15 presses", "insert minimum solution", "✗ unsolvable", "✗ 1 error"]);
    insta::assert_json_snapshot!("code_lens", lenses);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_switch_code_lens_and_inlay_hints() {
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, ALL_ON).await;
    c.diagnostics(URI, 1).await;
    let whole = json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}});
    assert_eq!(c.request("textDocument/inlayHint", whole.clone()).await, json!([]), "inlay hints are off by default");
    let settings = json!({"settings": {"lights": {"inlayHints": {"enable": true}, "codeLens": {"enable": false}}}});
    c.notify("workspace/didChangeConfiguration", settings).await;
    let hints = c.request("textDocument/inlayHint", whole).await;
    insta::assert_json_snapshot!("inlay_hints", hints);
    assert_eq!(hints[0]["label"], "✓ 4 solutions · minimum 15 presses");
    assert_eq!(c.request("textDocument/codeLens", json!({"textDocument": {"uri": URI}})).await, json!([]));
    // The client was asked to refresh its inlay hints.
    c.wait_for("inlay hint refresh", |m| m["method"] == "workspace/inlayHint/refresh").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn insert_and_replace_solution_are_exact_edits() {
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, ALL_ON).await;
    let diags = c.diagnostics(URI, 1).await;
    let actions = c.code_actions(URI, 0, &diags).await;
    insta::assert_json_snapshot!("insert_solution_actions", actions);
    let insert = actions.iter().find(|a| a["title"].as_str().unwrap().starts_with("Insert minimum solution")).unwrap();
    let after = apply_edits(ALL_ON, &action_edits(insert, URI), false);
    assert!(after.contains("  solution {\n"), "{after}");
    assert!(compiler_errors(&after).is_empty(), "{after}");
    // Break the solution: the action becomes "Replace solution", a quick fix of L0203.
    let first_cell = after.find("solution {\n").unwrap() + "solution {\n    ".len();
    let flipped = if &after[first_cell..=first_cell] == "." { "1" } else { "." };
    let mut broken = after.clone();
    broken.replace_range(first_cell..=first_cell, flipped);
    c.change(URI, 2, &broken).await;
    let diags = c.diagnostics(URI, 2).await;
    assert_eq!(codes(&diags), ["L0203"]);
    let line = diags[0]["range"]["start"]["line"].as_u64().unwrap() as u32;
    let actions = c.code_actions(URI, line, &diags).await;
    let replace = actions.iter().find(|a| a["title"].as_str().unwrap().starts_with("Replace solution")).unwrap();
    assert_eq!(replace["kind"], "quickfix");
    assert_eq!(replace["diagnostics"][0]["code"], "L0203");
    assert_eq!(replace["edit"]["documentChanges"][0]["textDocument"]["version"], 2);
    let fixed = apply_edits(&broken, &action_edits(replace, URI), false);
    assert!(compiler_errors(&fixed).is_empty(), "{fixed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn make_solvable_changes_one_light() {
    for (text, title) in [
        (UNSOLVABLE.to_string(), "Make solvable by changing row 1, column 1 from 1 to 0"),
        // 5×5 cross, one corner lit: unsolvable (the kernel has dimension 2).
        (
            "puzzle \"corner\" {\n  size 5x5\n  lights at 1,1\n}\n".to_string(),
            "Make solvable by toggling row 1, column 1",
        ),
        ("puzzle \"grid\" {\n  size 4x4\n  lights {\n    ..1.\n    ....\n    ....\n    ....\n  }\n}\n".to_string(), ""),
    ] {
        let mut c = Client::start(Options::default()).await;
        c.open(URI, 1, &text).await;
        let diags = c.diagnostics(URI, 1).await;
        assert_eq!(codes(&diags), ["L0201"], "{text}");
        let actions = c.code_actions(URI, 1, &diags).await;
        let fix = actions.iter().find(|a| a["title"].as_str().unwrap().starts_with("Make solvable")).expect("a fix");
        if !title.is_empty() {
            assert_eq!(fix["title"], title);
        }
        assert_eq!(fix["kind"], "quickfix");
        assert_eq!(fix["isPreferred"], true);
        let after = apply_edits(&text, &action_edits(fix, URI), false);
        assert!(compiler_errors(&after).is_empty(), "{after}");
        let changed = text.lines().zip(after.lines()).filter(|(a, b)| a != b).count();
        assert!(changed <= 1, "one line changes when the lights are a grid or a list:\n{after}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expect_lines_for_the_current_result() {
    let text = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect solutions 3 // wrong\n  expect solvable\n}\n";
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, text).await;
    let diags = c.diagnostics(URI, 1).await;
    assert_eq!(codes(&diags), ["L0202"]);
    let actions = c.code_actions(URI, 3, &diags).await;
    let add = actions.iter().find(|a| a["title"] == "Add expect lines for the current result").unwrap();
    let after = apply_edits(text, &action_edits(add, URI), false);
    assert_eq!(
        after,
        "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect solutions 4\n  expect presses 15 // wrong\n}\n"
    );
    c.change(URI, 2, &after).await;
    let diags = c.diagnostics(URI, 2).await;
    assert!(diags.is_empty());
    let actions = c.code_actions(URI, 3, &diags).await;
    assert!(actions.iter().all(|a| a["title"] != "Add expect lines for the current result"), "nothing left to add");
    // A true claim in another form is the author's: not offered for rewriting.
    c.change(URI, 3, "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect solvable\n}\n").await;
    let diags = c.diagnostics(URI, 3).await;
    assert!(diags.is_empty());
    let actions = c.code_actions(URI, 3, &diags).await;
    assert!(actions.iter().all(|a| a["title"] != "Add expect lines for the current result"), "{actions:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lens_command_applies_the_solution() {
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, ALL_ON).await;
    c.diagnostics(URI, 1).await;
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": URI}})).await;
    let command =
        lenses.as_array().unwrap().iter().find(|l| l["command"]["command"] == "lights.insertSolution").unwrap();
    let params = json!({"command": command["command"]["command"], "arguments": command["command"]["arguments"]});
    c.request("workspace/executeCommand", params).await;
    let apply = c.wait_for("applyEdit", |m| m["method"] == "workspace/applyEdit").await;
    let edits = apply["params"]["edit"]["documentChanges"][0]["edits"].as_array().unwrap().clone();
    assert!(compiler_errors(&apply_edits(ALL_ON, &edits, false)).is_empty());
    let bad = c.request_raw("workspace/executeCommand", json!({"command": "lights.nope", "arguments": []})).await;
    assert_eq!(bad["error"]["code"], -32602);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_on_cells_keywords_and_names() {
    let text = format!("{UNSOLVABLE}\npuzzle \"t\" {{\n  size 3x3\n  topology plane\n  lights {{\n    . 1 .\n    . . .\n    . . .\n  }}\n}}\n");
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, &text).await;
    c.diagnostics(URI, 1).await;
    let mut hovers = serde_json::Map::new();
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() as u32;
    for (label, line, character) in [
        ("unsolvable cell", 5, 4),
        ("plane cell", line_of(". 1 ."), 6),
        ("topology keyword", line_of("topology"), 3),
        ("plane name", line_of("topology"), 12),
        ("puzzle name", 1, 9),
        ("comment", 0, 5),
    ] {
        let params = json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}});
        hovers.insert(label.to_string(), c.request("textDocument/hover", params).await);
    }
    let text_of = |k: &str| hovers[k]["contents"]["value"].as_str().unwrap_or("").to_string();
    assert!(text_of("unsolvable cell").contains("certificate: part of it"));
    assert!(text_of("plane cell").contains("cell 1,2"));
    assert!(
        text_of("plane cell").contains("minimum solution: pressed once")
            || text_of("plane cell").contains("not pressed")
    );
    assert!(text_of("topology keyword").contains("the surface"));
    assert!(text_of("plane name").contains("borders are open"));
    assert!(text_of("puzzle name").contains("✗ unsolvable"));
    assert_eq!(hovers["comment"], Value::Null);
    insta::assert_json_snapshot!("hover", hovers);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completion_by_context() {
    let text = "puzzle \"p\" {\n  size 3x3\n  \n  rule \n  topology t\n  expect \n}\n\n";
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, text).await;
    c.diagnostics(URI, 1).await;
    let mut got = serde_json::Map::new();
    for (label, line, character) in
        [("statement", 2, 2), ("rule", 3, 7), ("topology", 4, 12), ("expect", 5, 9), ("outside", 7, 0)]
    {
        let params = json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}});
        let items = c.request("textDocument/completion", params).await;
        let labels: Vec<Value> = items.as_array().unwrap().iter().map(|i| i["label"].clone()).collect();
        got.insert(label.to_string(), Value::Array(labels));
    }
    insta::assert_json_snapshot!("completion", got);
    assert!(!got["statement"].as_array().unwrap().contains(&json!("size")), "size is already there");
    assert_eq!(got["outside"], json!(["puzzle", "sliding"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn symbols_and_folding() {
    let text = example("examples/classic.lights");
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, &text).await;
    c.diagnostics(URI, 1).await;
    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}})).await;
    let folds = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": URI}})).await;
    assert_eq!(symbols.as_array().unwrap().len(), lights_compiler::analyze(&text).puzzles.len());
    insta::assert_json_snapshot!("symbols", symbols);
    insta::assert_json_snapshot!("folding", folds);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sliding_blocks_in_symbols_folding_lenses_and_hover() {
    let text =
        format!("{ALL_ON}\n{}\nsliding \"bad\" {{\n  size 2x2\n  states 3\n}}\n", example("examples/sliding.lights"));
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, &text).await;
    let diags = c.diagnostics(URI, 1).await;
    let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["L0123", "L0121"], "only the broken sliding block has diagnostics");

    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}})).await;
    let listed: Vec<(&str, &str)> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["detail"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        listed,
        [
            ("all-on", "5×5 · cross · plane · 2 states"),
            ("loyd", "4×4 sliding"),
            ("solved", "4×4 sliding"),
            ("eight, hardest", "3×3 sliding"),
            ("twenty-four", "5×5 sliding"),
            ("blank first", "2×3 sliding"),
            ("bad", "sliding"),
        ]
    );

    // Each block and each `tiles` / `goal` grid folds.
    let folds = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": URI}})).await;
    let tiles_line = text.lines().position(|l| l.trim() == "tiles {").unwrap() as u64;
    assert!(folds.as_array().unwrap().iter().any(|f| f["startLine"] == tiles_line), "{folds}");

    // The 5×5 may build the 4×4 pattern databases first (seconds, once).
    let titles = c.settled_lenses(URI).await;
    // (The first two lenses are the Lights Out puzzle's.)
    assert_eq!(
        titles[2..],
        [
            "✓ unsolvable, as expected",
            "✓ optimal 0 moves",
            "✓ optimal 31 moves",
            &titles[5], // checked below: the 5×5's length is not proven
            "✓ optimal 15 moves",
            "✗ 2 errors"
        ]
    );
    assert!(titles[5].starts_with("✓ ") && titles[5].ends_with(" moves (not proven fewest)"), "{titles:?}");
    // Every written solution is correct and no longer than the one found: no insert lens.
    assert_eq!(titles.len(), 8, "{titles:?}");

    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() as u32;
    let hover = |line: u32, character: u32| json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}});
    let name = c.request("textDocument/hover", hover(line_of("sliding \"loyd\""), 10)).await;
    let name = name["contents"]["value"].as_str().unwrap();
    assert!(name.starts_with("**sliding \"loyd\"** — ✓ unsolvable, as expected"), "{name}");
    assert!(name.contains("4×4 sliding tiles"), "{name}");
    let keyword = c.request("textDocument/hover", hover(line_of("sliding \"loyd\""), 2)).await;
    assert!(keyword["contents"]["value"].as_str().unwrap().contains("sliding-tile puzzle"), "{keyword}");
    // Tile 15 of Loyd's puzzle, written at row 4, column 2, belongs at column 3.
    let tile = c.request("textDocument/hover", hover(line_of("13 15 14  ."), 7)).await;
    let tile = tile["contents"]["value"].as_str().unwrap();
    assert!(tile.starts_with("**tile 15** in `tiles` (row 4, column 2)"), "{tile}");
    assert!(tile.contains("in `goal` (the standard goal): row 4, column 3 · 1 step away"), "{tile}");
    // The blank too: one step from its goal place.
    let blank = c.request("textDocument/hover", hover(line_of("3 . 1"), 6)).await;
    let blank = blank["contents"]["value"].as_str().unwrap();
    assert!(blank.starts_with("**the blank** in `tiles` (row 3, column 2)"), "{blank}");
    assert!(blank.ends_with("row 3, column 3 · 1 step away"), "{blank}");
    // The 5×5's own 60-move solution is the best known: the lens says so.
    assert_eq!(titles[5], "✓ 60 moves (not proven fewest)");
    // True claims (`expect solvable` beside `expect moves 31`) are left alone:
    // no "Add expect lines" action, and no solution action either.
    let eight = c.code_actions(URI, line_of("sliding \"eight, hardest\""), &[]).await;
    assert!(eight.is_empty(), "{eight:?}");
    let moves = c.request("textDocument/hover", hover(line_of("expect moves 31"), 10)).await;
    assert!(moves["contents"]["value"].as_str().unwrap().contains("fewest moves"), "{moves}");
    // `goal` means a grid of tiles in a sliding block.
    let goal = c.request("textDocument/hover", hover(line_of("  goal {"), 3)).await;
    assert!(goal["contents"]["value"].as_str().unwrap().contains("same tiles"), "{goal}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sliding_blocks_get_solver_diagnostics_lenses_and_actions() {
    // Small boards only: no pattern databases.
    let text = "sliding \"swap\" {\n  size 3x3\n  tiles {\n    2 1 3\n    4 5 6\n    7 8 .\n  }\n}\n\n\
                sliding \"near\" {\n  size 3x3\n  tiles {\n    1 2 3\n    4 5 6\n    . 7 8\n  }\n  expect moves 3\n  solution \"RL\"\n}\n\n\
                sliding \"fresh\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n}\n";
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, text).await;
    let diags = settled_diagnostics(&mut c, URI, 1, 3).await;
    insta::assert_json_snapshot!("sliding_diagnostics", diags);
    assert_eq!(codes(&diags), ["L0201", "L0202", "L0203"]);

    let titles = c.settled_lenses(URI).await;
    assert_eq!(
        titles,
        [
            "✗ unsolvable",
            "✓ optimal 2 moves",
            "replace solution with the optimal one (2 moves)",
            "✓ optimal 1 move",
            "insert optimal solution (1 move)"
        ]
    );

    // The lens command inserts the solution; the result checks clean.
    let fresh =
        c.request("workspace/executeCommand", json!({"command": "lights.insertSolution", "arguments": [URI, 2]})).await;
    assert_eq!(fresh, Value::Null);
    let applied = c.wait_for("applyEdit", |m| m["method"] == "workspace/applyEdit").await;
    let edits = action_edits(&json!({"edit": applied["params"]["edit"]}), URI);
    let after = apply_edits(text, &edits, false);
    assert!(after.ends_with("    4 . 5\n  }\n  solution \"R\"\n}\n"), "{after}");

    // Quick fixes: a wrong solution replaced, the `expect` line corrected,
    // `expect unsolvable` for the unreachable goal.
    let near = text.lines().position(|l| l.contains("solution \"RL\"")).unwrap() as u32;
    let actions = c.code_actions(URI, near, &diags).await;
    let titles: Vec<&str> = actions.iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Replace solution (2 moves, optimal)", "Add expect lines for the current result"]);
    let both: Vec<Value> = actions.iter().flat_map(|a| action_edits(a, URI)).collect();
    let fixed = apply_edits(text, &both, false);
    assert!(fixed.contains("  expect moves 2\n  solution \"RR\"\n"), "{fixed}");
    let swap = c.code_actions(URI, 0, &diags).await;
    let titles: Vec<&str> = swap.iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Add expect lines for the current result"]);
    let fixed = apply_edits(text, &action_edits(&swap[0], URI), false);
    assert!(
        fixed.starts_with(
            "sliding \"swap\" {\n  size 3x3\n  tiles {\n    2 1 3\n    4 5 6\n    7 8 .\n  }\n  expect unsolvable\n}\n"
        ),
        "{fixed}"
    );
}

/// The diagnostics of `version` once `solver` of them come from the solver
/// (the first publish may come before slow solves are done).
async fn settled_diagnostics(c: &mut Client, uri: &str, version: i32, solver: usize) -> Vec<Value> {
    let from_solver = |m: &Value| {
        let diags = m["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
        diags.iter().filter(|d| d["code"].as_str().is_some_and(|c| c.starts_with("L02"))).count()
    };
    let m = c
        .wait_for("the solver's diagnostics", |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
                && from_solver(m) >= solver
        })
        .await;
    m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn formatting_uses_the_cli_formatter() {
    let messy = "puzzle \"p\"{\nsize 2x2\n   lights {\n1 .\n.   1\n}\n}\n";
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, messy).await;
    c.diagnostics(URI, 1).await;
    let params = json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}});
    let edits = c.request("textDocument/formatting", params.clone()).await;
    let formatted = apply_edits(messy, edits.as_array().unwrap(), false);
    assert_eq!(formatted, lights_syntax::format::format_source(messy).unwrap());
    c.change(URI, 2, "puzzle \"p\" {\n  siz 2x2\n}\n").await;
    c.diagnostics(URI, 2).await;
    assert_eq!(c.request("textDocument/formatting", params).await, Value::Null, "broken files are not formatted");
    c.wait_for("a message saying why", |m| m["method"] == "window/showMessage").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_are_right_after_non_ascii_text_in_both_encodings() {
    // 𝄞 is 2 UTF-16 units and 4 bytes; é is 1 unit and 2 bytes.
    let text = "// 𝄞 clef é\npuzzle \"é𝄞\" { // ü\n  size 2x2 // 𝄞\n  lights { // é\n    1 . // 𝄞\n    . 9\n  }\n}\n";
    for utf8 in [false, true] {
        let mut c = Client::start_with(Options::default(), capabilities(utf8), Value::Null).await;
        c.open(URI, 1, text).await;
        let diags = c.diagnostics(URI, 1).await;
        assert_eq!(codes(&diags), ["L0105"], "9 is not below 2");
        let line = text.lines().nth(5).unwrap();
        let col = line.find('9').unwrap(); // all ASCII before it on this line
        assert_eq!(diags[0]["range"]["start"], json!({"line": 5, "character": col}));
        // The name's range: after `puzzle "` on line 1, in the negotiated unit.
        let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}})).await;
        let sel = &symbols[0]["selectionRange"];
        let name_len = if utf8 { "\"é𝄞\"".len() } else { "\"é𝄞\"".encode_utf16().count() };
        assert_eq!(sel["start"], json!({"line": 1, "character": 7}));
        assert_eq!(sel["end"], json!({"line": 1, "character": 7 + name_len}));
        // Hover on the `.` after the 𝄞 comment's line: line 4, the second cell.
        let cell = if utf8 { "    1 ".len() } else { "    1 ".encode_utf16().count() };
        let params = json!({"textDocument": {"uri": URI}, "position": {"line": 4, "character": cell}});
        let hover = c.request("textDocument/hover", params).await;
        assert!(hover["contents"]["value"].as_str().unwrap().contains("cell 1,2"), "{hover}");
    }
}
