//! The `lsp` target's driver: any bytes make a whole session that ends, in
//! bounded time.

use std::time::{Duration, Instant};

use lights_fuzz_checks::lsp as drive;
use serde_json::json;

fn messages(list: &[serde_json::Value]) -> Vec<u8> {
    let mut data = Vec::new();
    for m in list {
        data.extend(serde_json::to_vec(m).unwrap());
        data.push(0);
    }
    data
}

#[test]
fn any_bytes_make_a_session_that_ends() {
    let uri = "file:///fuzz.lights";
    let text = "puzzle \"p\" {\n  size 5x5\n  lights on\n}\n";
    let session = messages(&[
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
               "params": {"textDocument": {"uri": uri, "languageId": "lights", "version": 1, "text": text}}}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
               "params": {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 3}}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
               "params": {"textDocument": {"uri": uri, "version": 2},
                          "contentChanges": [{"range": {"start": {"line": 1, "character": 7},
                                                        "end": {"line": 1, "character": 10}}, "text": "3x3"}]}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeLens", "params": {"textDocument": {"uri": uri}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand",
               "params": {"command": "lights.insertSolution", "arguments": [uri, 0]}}),
        json!({"jsonrpc": "2.0", "id": 1.5, "method": "$/odd"}),
        json!([1, 2, 3]),
        json!({"jsonrpc": "2.0", "id": 4, "method": "$/foo"}),
    ]);
    let mut garbage = b"not json\0{\"jsonrpc\": \"2.0\", \0".to_vec();
    garbage.extend(&session);
    let mut early_exit = session.clone();
    early_exit.extend(messages(&[json!({"jsonrpc": "2.0", "method": "exit"})]));
    early_exit.extend(&session);
    for data in [Vec::new(), session, garbage, early_exit, vec![0; 100], b"\xff\xfe".to_vec()] {
        let start = Instant::now();
        drive(&data);
        assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    }
}
