//! Play-testing's custom requests through the real transport:
//! `lights/board`, `lights/solveFrom` and `lights/lightsEdit` answer for
//! the newest version of a document, with `lights_ide::play`'s data.

mod common;

use common::*;
use lights_test_client::board::{numbers, play};
use serde_json::{json, Value};

const CROSS: &str = "puzzle \"cross\" {\n  size 3x3\n  lights {\n    . 1 .\n    1 1 1\n    . 1 .\n  }\n}\n";

const TWO: &str = "// two puzzles
puzzle \"one\" {
  size 2x2
  lights on
}

puzzle \"torus\" {
  size 4x4
  topology torus
  states 3
  lights at 1,1 2,2:2
}
";

#[test]
fn the_board_has_the_solvers_patterns_and_its_report() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 3, CROSS);
    let board = c.request("lights/board", json!({"uri": URI, "puzzle": 0}));
    assert_eq!(board["version"], 3);
    assert_eq!(board["playable"], true, "{board}");
    assert_eq!((board["rows"].as_u64(), board["cols"].as_u64()), (Some(3), Some(3)));
    assert_eq!(board["shape"], "square");
    assert_eq!(board["gluing"], json!({"columns": "open", "rows": "open"}));
    assert_eq!(board["presses"][0], json!([[0, 1], [1, 1], [3, 1]]), "a corner changes 3 cells");
    assert_eq!(board["chase"], true);
    assert_eq!(board["labels"][8], "3,3");
    // The report of the puzzle's own lights: the solve the server started for its diagnostics.
    let report = &board["report"];
    assert_eq!(report["presses"], 1, "{board}");
    assert_eq!(report["status"], "1 solution · minimum 1 press");
    let lights = numbers(&board["lights"]);
    assert_eq!(play(&board, &lights, &numbers(&report["minimum"])), numbers(&board["goal"]));
}

#[test]
fn answers_follow_the_newest_text() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, CROSS);
    let corner = json!({"uri": URI, "puzzle": 0, "lights": [1, 1, 0, 1, 0, 0, 0, 0, 0]});
    let answer = c.request("lights/solveFrom", corner.clone());
    assert_eq!(answer["solvable"], true);
    assert_eq!(answer["minimum"], json!([1, 0, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(answer["presses"], 1);
    assert_eq!(answer["optimal"], true);

    // After an edit the same request is about the new text: the first
    // block is now 2×2 and the old position does not fit it.
    c.change(URI, 2, TWO);
    let error = c.request_raw("lights/solveFrom", corner);
    assert_eq!(error_code(&error), -32602, "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("9 values for a board of 4 cells"), "{message}");

    let board = c.request("lights/board", json!({"uri": URI, "puzzle": 1}));
    assert_eq!(board["version"], 2);
    assert_eq!(board["name"], "torus");
    assert_eq!(board["gluing"], json!({"columns": "glued", "rows": "glued"}));
    let mut position = vec![0u64; 16];
    position[5] = 1;
    position[10] = 2;
    let answer = c.request("lights/solveFrom", json!({"uri": URI, "puzzle": 1, "lights": position}));
    if answer["solvable"] == true {
        let reached = play(&board, &position, &numbers(&answer["minimum"]));
        assert_eq!(reached, numbers(&board["goal"]));
    } else {
        assert_eq!(answer["minimum"], Value::Null);
        assert_eq!(answer["status"], "unsolvable");
    }
    // A position made by pressing is always solvable back.
    let pressed = play(&board, &[0; 16], &[0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
    let answer = c.request("lights/solveFrom", json!({"uri": URI, "puzzle": 1, "lights": pressed}));
    assert_eq!(answer["solvable"], true, "{answer}");
    assert_eq!(play(&board, &pressed, &numbers(&answer["minimum"])), vec![0; 16]);
}

#[test]
fn the_lights_edit_writes_a_position_into_the_newest_version() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, TWO);
    c.change(URI, 4, TWO);
    let params = json!({"uri": URI, "puzzle": 0, "lights": [1, 0, 0, 1], "version": 4});
    let answer = c.request("lights/lightsEdit", params);
    assert_eq!(answer["version"], 4);
    let edits = answer["edits"].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    let after = apply_edits(TWO, edits, false);
    assert!(after.contains("  lights {\n    1 .\n    . 1\n  }\n"), "{after}");
    assert!(after.contains("lights at 1,1 2,2:2"), "the other puzzle is untouched: {after}");
    c.change(URI, 5, &after);
    let board = c.request("lights/board", json!({"uri": URI, "puzzle": 0}));
    assert_eq!(board["lights"], json!([1, 0, 0, 1]));

    // Made on an older version: nothing to apply.
    let stale = json!({"uri": URI, "puzzle": 0, "lights": [0, 0, 0, 1], "version": 4});
    assert_eq!(c.request("lights/lightsEdit", stale), Value::Null);
    // A block with errors: nothing to apply either.
    c.change(URI, 6, "puzzle \"broken\" {\n  size 2x2\n  rule nonsense\n}\n");
    let broken = json!({"uri": URI, "puzzle": 0, "lights": [0, 0, 0, 1]});
    assert_eq!(c.request("lights/lightsEdit", broken), Value::Null);
    let board = c.request("lights/board", json!({"uri": URI, "puzzle": 0}));
    assert_eq!(board["playable"], false);
    assert!(board["why"].as_str().unwrap().starts_with("the puzzle has 1 error"), "{board}");
}

#[test]
fn bad_requests_are_invalid_params() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, CROSS);
    let unknown = c.request_raw("lights/board", json!({"uri": "file:///elsewhere.lights", "puzzle": 0}));
    assert_eq!(error_code(&unknown), -32602);
    assert!(unknown["error"]["message"].as_str().unwrap().contains("not open"), "{unknown}");
    let past = c.request_raw("lights/board", json!({"uri": URI, "puzzle": 2}));
    assert_eq!(error_code(&past), -32602);
    assert_eq!(past["error"]["message"], "no puzzle 2: the file has 1 block (numbered from 0)");
    let missing = c.request_raw("lights/solveFrom", json!({"uri": URI, "puzzle": 0}));
    assert_eq!(error_code(&missing), -32602, "{missing}");
    let too_high =
        c.request_raw("lights/solveFrom", json!({"uri": URI, "puzzle": 0, "lights": [2, 0, 0, 0, 0, 0, 0, 0, 0]}));
    assert_eq!(error_code(&too_high), -32602);
    // The server goes on answering.
    assert_eq!(c.request("lights/board", json!({"uri": URI, "puzzle": 0}))["playable"], true);
}

#[test]
fn a_solve_past_the_time_budget_fails_and_others_are_answered_meanwhile() {
    fn slow(
        block: &lights_compiler::Block,
        _: &lights_compiler::SolveOptions,
        stop: &dyn Fn() -> bool,
    ) -> Result<lights_compiler::BlockReport, lights_compiler::SolveError> {
        while !stop() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let _ = block;
        Err(lights_compiler::SolveError::Cancelled)
    }
    let options = Options { solve: slow, ..Options::default() };
    let (mut c, _) = start_with(options, capabilities(false), json!({"lights": {"solver": {"timeBudgetMs": 1500}}}));
    c.open(URI, 1, CROSS);
    let id = c.next_id();
    c.send(&json!({"jsonrpc": "2.0", "id": id, "method": "lights/solveFrom",
                   "params": {"uri": URI, "puzzle": 0, "lights": vec![0; 9]}}));
    // Meanwhile: a hover is answered before the solve gives up (an order of
    // answers, not a time: a server that made the hover wait would send the
    // solve's failure first, and it would be among the messages received).
    let _ =
        c.request("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": {"line": 1, "character": 3}}));
    assert!(!c.received_earlier(|m| is_response(m) && m["id"] == id), "the hover waited for the solve");
    let answer = c.wait_for("the solve's failure", |m| is_response(m) && m["id"] == id);
    assert_eq!(error_code(&answer), -32803, "{answer}");
    assert_eq!(answer["error"]["message"], "not solved within 1.5 s");
}
