//! The server end to end, through its transport: what the `lights-ide`
//! layer says (pinned by its fixture tests) arrives as LSP — codes and
//! notes in diagnostics, certificate cells as related information,
//! positions in the negotiated encoding, versioned workspace edits, the
//! lens command, settings, formatting, snippets.

mod common;

use common::*;
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

const ALL_ON: &str = "puzzle \"all-on\" {\n  size 5x5\n  lights on\n}\n";

/// What `lights check` says about a text: every code and message.
fn cli_diagnostics(text: &str) -> Vec<(String, String)> {
    let doc = lights_ide::Document::new(text);
    let solved = lights_ide::Solved::all(&doc);
    lights_ide::diagnostics(&doc, &solved)
        .into_iter()
        .map(|p| (p.diagnostic.code.as_str().to_string(), p.diagnostic.message))
        .collect()
}

fn code_and_message(diags: &[Value]) -> Vec<(String, String)> {
    diags
        .iter()
        .map(|d| {
            let message = d["message"].as_str().unwrap().split("\nnote: ").next().unwrap().to_string();
            (d["code"].as_str().unwrap().to_string(), message)
        })
        .collect()
}

#[test]
fn initialize_answers_capabilities_and_negotiates_utf8() {
    let (mut c, _) = connect(Options::default());
    let init = c.initialize(capabilities(true), Value::Null);
    insta::assert_json_snapshot!("initialize_utf8", init);
    let (mut c, _) = connect(Options::default());
    let init = c.initialize(json!({}), Value::Null);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
}

#[test]
fn diagnostics_carry_codes_notes_labels_and_certificate_cells() {
    let text = example("tests/corpus/several-errors.lights");
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, &text);
    let diags = c.diagnostics(URI, 1);
    assert!(diags.len() >= 3, "several errors expected: {diags:?}");
    assert_eq!(code_and_message(&diags), cli_diagnostics(&text));
    insta::assert_json_snapshot!("several_errors", diags);

    c.change(URI, 2, UNSOLVABLE);
    let diags = c.diagnostics(URI, 2);
    assert_eq!(codes(&diags), ["L0201"]);
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.contains("\nnote: why: every press adds a multiple of 3"), "notes are appended: {message}");
    // A drawn grid is not: its title stays, its rows go to the related
    // information, one each (a list of problems shows one line per entry).
    assert!(message.contains("\nnote: the marked cells: drawn below, in the related information\n"), "{message}");
    assert!(message.lines().all(|l| l.starts_with("note: ") || l == message.lines().next().unwrap()), "{message}");
    let related: Vec<(&str, &Value)> = diags[0]["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["message"].as_str().unwrap(), &r["location"]["range"]["start"]))
        .collect();
    assert_eq!(
        related,
        [
            ("from these lights", &json!({"line": 4, "character": 2})),
            ("marked cell 1,1", &json!({"line": 5, "character": 4})),
            ("marked cell 1,2", &json!({"line": 5, "character": 6})),
            ("marked cell 2,1", &json!({"line": 6, "character": 4})),
            ("marked cell 2,2", &json!({"line": 6, "character": 6})),
            ("1 1", &json!({"line": 1, "character": 0})),
            ("1 1", &json!({"line": 1, "character": 0})),
        ]
    );
}

#[test]
fn code_actions_are_exact_edits_against_the_version_they_were_made_for() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 7, ALL_ON);
    let diags = c.diagnostics(URI, 7);
    let actions = c.code_actions(URI, 0, &diags);
    let insert = actions.iter().find(|a| a["title"] == "Insert minimum solution (15 presses)").expect("insert");
    assert_eq!(insert["kind"], "refactor.rewrite");
    assert_eq!(insert["edit"]["documentChanges"][0]["textDocument"]["version"], 7);
    let after = apply_edits(ALL_ON, &workspace_edits(&insert["edit"], URI), false);
    assert!(cli_diagnostics(&after).is_empty(), "{after}");

    // A wrong solution: "Replace solution" is a quick fix of L0203 and
    // carries the client's diagnostic.
    let first_cell = after.find("solution {\n").unwrap() + "solution {\n    ".len();
    let flipped = if &after[first_cell..=first_cell] == "." { "1" } else { "." };
    let mut broken = after.clone();
    broken.replace_range(first_cell..=first_cell, flipped);
    c.change(URI, 8, &broken);
    let diags = c.diagnostics(URI, 8);
    assert_eq!(codes(&diags), ["L0203"]);
    let line = diags[0]["range"]["start"]["line"].as_u64().unwrap() as u32;
    let actions = c.code_actions(URI, line, &diags);
    let replace = actions.iter().find(|a| a["title"] == "Replace solution (15 presses)").expect("replace");
    assert_eq!(replace["kind"], "quickfix");
    assert_eq!(replace["diagnostics"][0]["code"], "L0203");
    let fixed = apply_edits(&broken, &workspace_edits(&replace["edit"], URI), false);
    assert!(cli_diagnostics(&fixed).is_empty(), "{fixed}");

    // A client without `documentChanges` gets plain `changes`.
    let (mut c, _) = start_with(Options::default(), json!({}), Value::Null);
    c.open(URI, 1, UNSOLVABLE);
    let diags = c.diagnostics(URI, 1);
    let actions = c.code_actions(URI, 1, &diags);
    let fix = actions.iter().find(|a| a["title"].as_str().unwrap().starts_with("Make solvable")).expect("a fix");
    assert_eq!(fix["isPreferred"], true);
    assert!(fix["edit"]["documentChanges"].is_null() && fix["edit"]["changes"][URI].is_array(), "{fix}");
    assert!(cli_diagnostics(&apply_edits(UNSOLVABLE, &workspace_edits(&fix["edit"], URI), false)).is_empty());
}

#[test]
fn the_lens_command_applies_the_solution() {
    let sliding = "sliding \"fresh\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n}\n";
    for (text, block) in [(ALL_ON.to_string(), 0), (format!("{ALL_ON}\n{sliding}"), 1)] {
        let (mut c, _) = start(Options::default());
        c.open(URI, 1, &text);
        c.settled(URI, 1, TIMEOUT);
        let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": URI}}));
        let command = lenses
            .as_array()
            .unwrap()
            .iter()
            .map(|l| &l["command"])
            .find(|c| c["command"] == "lights.insertSolution" && c["arguments"][1] == block)
            .expect("an insert-solution lens")
            .clone();
        assert_eq!(command["arguments"][0], URI);
        let params = json!({"command": command["command"], "arguments": command["arguments"]});
        assert_eq!(c.request("workspace/executeCommand", params), Value::Null);
        let apply = c.wait_for("applyEdit", |m| m["method"] == "workspace/applyEdit");
        let after = apply_edits(&text, &workspace_edits(&apply["params"]["edit"], URI), false);
        assert!(after.contains("  solution "), "{after}");
        assert!(cli_diagnostics(&after).is_empty(), "{after}");
    }
    let (mut c, _) = start(Options::default());
    let bad = c.request_raw("workspace/executeCommand", json!({"command": "lights.nope", "arguments": []}));
    assert_eq!(error_code(&bad), -32602);
}

#[test]
fn settings_switch_code_lens_and_inlay_hints() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, ALL_ON);
    c.diagnostics(URI, 1);
    let whole = json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}});
    assert_eq!(c.request("textDocument/inlayHint", whole.clone()), json!([]), "inlay hints are off by default");
    let settings = json!({"settings": {"lights": {"inlayHints": {"enable": true}, "codeLens": {"enable": false}}}});
    c.notify("workspace/didChangeConfiguration", settings);
    let hints = c.request("textDocument/inlayHint", whole);
    assert_eq!(
        hints,
        json!([{"position": {"line": 0, "character": 17}, "label": "✓ 4 solutions · minimum 15 presses", "paddingLeft": true}])
    );
    assert_eq!(c.request("textDocument/codeLens", json!({"textDocument": {"uri": URI}})), json!([]));
    // The client was asked to refresh its inlay hints.
    c.wait_for("inlay hint refresh", |m| m["method"] == "workspace/inlayHint/refresh");
}

#[test]
fn completion_gives_snippets_only_to_clients_that_take_them() {
    let text = "puzzle \"p\" {\n  size 3x3\n  \n}\n";
    for snippets in [true, false] {
        let caps = if snippets { capabilities(false) } else { json!({}) };
        let (mut c, _) = start_with(Options::default(), caps, Value::Null);
        c.open(URI, 1, text);
        let params = json!({"textDocument": {"uri": URI}, "position": {"line": 2, "character": 2}});
        let items = c.request("textDocument/completion", params);
        let rule = items.as_array().unwrap().iter().find(|i| i["label"] == "rule").expect("rule").clone();
        assert_eq!(rule["kind"], 14, "a keyword");
        if snippets {
            assert_eq!(
                (rule["insertTextFormat"].clone(), rule["insertText"].clone()),
                (json!(2), json!("rule ${1|cross,king,flip,merlin,ring|}"))
            );
        } else {
            assert_eq!((rule["insertTextFormat"].clone(), rule["insertText"].clone()), (json!(1), json!("rule")));
        }
        assert!(rule["documentation"]["value"].as_str().unwrap().starts_with("**`rule NAME`**"));
    }
}

#[test]
fn formatting_uses_the_cli_formatter() {
    let messy = "puzzle \"p\"{\nsize 2x2\n   lights {\n1 .\n.   1\n}\n}\n";
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, messy);
    c.diagnostics(URI, 1);
    let params = json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}});
    let edits = c.request("textDocument/formatting", params.clone());
    let formatted = apply_edits(messy, edits.as_array().unwrap(), false);
    assert_eq!(formatted, lights_syntax::format::format_source(messy).unwrap());
    c.change(URI, 2, &formatted);
    c.diagnostics(URI, 2);
    assert_eq!(c.request("textDocument/formatting", params.clone()), json!([]), "nothing to change");
    c.change(URI, 3, "puzzle \"p\" {\n  siz 2x2\n}\n");
    c.diagnostics(URI, 3);
    assert_eq!(c.request("textDocument/formatting", params), Value::Null, "broken files are not formatted");
    c.wait_for("a message saying why", |m| m["method"] == "window/showMessage");
}

/// Formatting answers the fewest edits of whole lines: a line out of place
/// is an edit of that line, two apart are two edits, and the lines between
/// are left alone (the editor keeps its cursors and undo history there).
#[test]
fn formatting_edits_only_the_lines_that_change() {
    let params = json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}});
    let (mut c, _) = start(Options::default());
    let one = "puzzle \"a\" {\n  size 2x2\n     lights on\n}\n";
    c.open(URI, 1, one);
    c.diagnostics(URI, 1);
    let edits = c.request("textDocument/formatting", params.clone());
    assert_eq!(
        edits,
        json!([{"range": {"start": {"line": 2, "character": 0}, "end": {"line": 3, "character": 0}},
                "newText": "  lights on\n"}])
    );
    let two = "// two blocks, a line out of place in each\npuzzle \"a\" {\n  size 2x2\n    lights on\n}\n\n\
               puzzle \"b\" {\n  size 3x3\n  lights   on\n  expect solvable\n}\n";
    c.change(URI, 2, two);
    c.diagnostics(URI, 2);
    let edits = c.request("textDocument/formatting", params.clone());
    insta::assert_json_snapshot!("formatting_edits", edits);
    assert_eq!(edits.as_array().unwrap().len(), 2);
    assert_eq!(apply_edits(two, edits.as_array().unwrap(), false), lights_syntax::format::format_source(two).unwrap());
    // Reformatted throughout (a line out of place in each of 1,001 blocks):
    // one edit from the first change to the last, not 1,001.
    let many: String = (0..1_001).map(|i| format!("puzzle \"p{i}\" {{\nsize 2x2\n}}\n")).collect();
    c.change(URI, 3, &many);
    c.diagnostics(URI, 3);
    let edits = c.request("textDocument/formatting", params);
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["range"]["start"], json!({"line": 1, "character": 0}));
    assert_eq!(apply_edits(&many, edits, false), lights_syntax::format::format_source(&many).unwrap());
}

#[test]
fn positions_are_right_after_non_ascii_text_in_both_encodings() {
    // 𝄞 is 2 UTF-16 units and 4 bytes; é is 1 unit and 2 bytes.
    let text = "// 𝄞 clef é\npuzzle \"é𝄞\" { // ü\n  size 2x2 // 𝄞\n  lights { // é\n    1 . // 𝄞\n    . 9\n  }\n}\n";
    for utf8 in [false, true] {
        let (mut c, _) = start_with(Options::default(), capabilities(utf8), Value::Null);
        c.open(URI, 1, text);
        let diags = c.diagnostics(URI, 1);
        assert_eq!(codes(&diags), ["L0105"], "9 is not below 2");
        let col = text.lines().nth(5).unwrap().find('9').unwrap(); // all ASCII before it on this line
        assert_eq!(diags[0]["range"]["start"], json!({"line": 5, "character": col}));
        // The name's range: after `puzzle "` on line 1, in the negotiated unit.
        let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
        let sel = &symbols[0]["selectionRange"];
        let name_len = if utf8 { "\"é𝄞\"".len() } else { "\"é𝄞\"".encode_utf16().count() };
        assert_eq!(sel["start"], json!({"line": 1, "character": 7}));
        assert_eq!(sel["end"], json!({"line": 1, "character": 7 + name_len}));
        // Hover on the second cell of line 4 (ASCII before it): its range comes back.
        let params = json!({"textDocument": {"uri": URI}, "position": {"line": 4, "character": 6}});
        let hover = c.request("textDocument/hover", params);
        assert!(hover["contents"]["value"].as_str().unwrap().starts_with("**cell 1,2**"), "{hover}");
        assert_eq!(hover["range"], json!({"start": {"line": 4, "character": 6}, "end": {"line": 4, "character": 7}}));
        let folds = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": URI}}));
        assert_eq!(
            folds,
            json!([{"startLine": 1, "endLine": 7, "kind": "region"}, {"startLine": 3, "endLine": 6, "kind": "region"}])
        );
    }
}

const SHAPES: &str = "puzzle \"donut\" {
  size 3x3
  holes at 2,2
  lights at 1,1
}

puzzle \"hex\" {
  size 3x4
  grid hex
  lights {
    1 . . 1
     . 1 . .
    . . . .
  }
}

puzzle \"orbix\" {
  graph icosahedron
  lights on
}
";

#[test]
fn holes_hex_boards_and_graphs_get_lenses_hover_and_their_solutions_inserted() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, SHAPES);
    c.settled(URI, 1, TIMEOUT);
    // The lenses are those of `lights-ide`: a status line and an insert command per block.
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": URI}}));
    let titles: Vec<(u64, &str)> = lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["range"]["start"]["line"].as_u64().unwrap(), l["command"]["title"].as_str().unwrap()))
        .collect();
    let doc = lights_ide::Document::new(SHAPES);
    let solved = lights_ide::Solved::all(&doc);
    let expected: Vec<(u64, String)> = lights_ide::lenses(&doc, &solved)
        .iter()
        .map(|l| (doc.lines().line(l.span.start) as u64, l.title.clone()))
        .collect();
    assert_eq!(titles.iter().map(|(l, t)| (*l, t.to_string())).collect::<Vec<_>>(), expected);
    assert_eq!(titles.iter().filter(|(_, t)| *t == "insert minimum solution").count(), 3, "{titles:?}");

    // Hover on a cell of the shifted second row of the hex grid, and on the graph's name.
    let hover = |c: &mut Client, line: u32, character: u32| {
        let params = json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}});
        c.request("textDocument/hover", params)["contents"]["value"].as_str().unwrap_or_default().to_string()
    };
    let cell = hover(&mut c, 11, 7);
    assert!(
        cell.starts_with("**cell 2,2** of `lights`") && cell.contains("neighbours (6): 1,2 · 1,3 · 2,1 · 2,3"),
        "{cell}"
    );
    let hole = hover(&mut c, 2, 11);
    assert!(hole.contains("a **hole**"), "{hole}");
    let graph = hover(&mut c, 17, 10);
    assert!(graph.starts_with("**graph icosahedron** — 12 nodes, 30 edges"), "{graph}");

    // The lens command writes each block's solution: a grid with `.` on the
    // hole, a shifted hex grid, a list of nodes; each file checks clean.
    for block in 0..3 {
        let command = lenses
            .as_array()
            .unwrap()
            .iter()
            .map(|l| &l["command"])
            .find(|c| c["command"] == "lights.insertSolution" && c["arguments"][1] == block)
            .expect("an insert-solution lens")
            .clone();
        let params = json!({"command": command["command"], "arguments": command["arguments"]});
        assert_eq!(c.request("workspace/executeCommand", params), Value::Null);
        let apply = c.wait_for("applyEdit", |m| m["method"] == "workspace/applyEdit");
        let after = apply_edits(SHAPES, &workspace_edits(&apply["params"]["edit"], URI), false);
        assert!(cli_diagnostics(&after).is_empty(), "{after}");
        let written = if block < 2 { "  solution {\n    " } else { "  solution at " };
        assert!(after.contains(written), "{after}");
    }
}
