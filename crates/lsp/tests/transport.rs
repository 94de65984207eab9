//! The stdio guard: malformed frames are answered and the server keeps
//! serving (the protocol library alone would stop reading after the first).

use std::time::Duration;

use lights_lsp::{service, transport, Options};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

async fn read_message<R: tokio::io::AsyncBufRead + Unpin>(r: &mut R) -> Value {
    let mut len = 0;
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).await.unwrap() > 0, "server output ended");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            len = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).await.unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_frames_are_answered_and_the_server_keeps_serving() {
    let (mut client_out, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_in) = tokio::io::duplex(1 << 16);
    let (svc, socket) = service(Options::default());
    let server = tokio::spawn(transport::serve(server_in, server_out, svc, socket));
    let mut replies = BufReader::new(client_in);

    let mut input = Vec::new();
    input.extend(frame("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "));
    input.extend(frame("[1,2,3]"));
    input.extend(frame("{\"jsonrpc\": \"2.0\", \"id\": 7, \"foo\": 1}"));
    input.extend(b"Content-Length: abc\r\n\r\n{}");
    input.extend(frame(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {"capabilities": {}}}).to_string(),
    ));
    client_out.write_all(&input).await.unwrap();

    let mut got = Vec::new();
    for _ in 0..5 {
        got.push(tokio::time::timeout(Duration::from_secs(20), read_message(&mut replies)).await.expect("a reply"));
    }
    // The guard's answers come in input order; the library's answer to
    // `initialize` may overtake them (responses need not keep input order).
    let errors: Vec<(Value, Value)> = got
        .iter()
        .filter(|m| m.get("error").is_some())
        .map(|m| (m["id"].clone(), m["error"]["code"].clone()))
        .collect();
    assert_eq!(
        errors,
        [
            (Value::Null, json!(-32700)),
            (Value::Null, json!(-32600)),
            (json!(7), json!(-32600)),
            (Value::Null, json!(-32700))
        ]
    );
    let init = got.iter().find(|m| m["id"] == 2).expect("initialize is answered");
    assert!(init["result"]["capabilities"].is_object(), "{init}");

    // Still serving: shutdown is answered and exit ends the server.
    client_out.write_all(&frame(&json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}).to_string())).await.unwrap();
    let reply = tokio::time::timeout(Duration::from_secs(20), read_message(&mut replies)).await.unwrap();
    assert_eq!(reply["id"], 3);
    assert!(reply.get("error").is_none(), "{reply}");
    client_out.write_all(&frame(&json!({"jsonrpc": "2.0", "method": "exit"}).to_string())).await.unwrap();
    tokio::time::timeout(Duration::from_secs(20), server).await.expect("the server stops on exit").unwrap();
}
