//! An in-process LSP client for tests: drives the service directly,
//! answers the server's requests, and collects its notifications.

#![allow(dead_code)]

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use lights_lsp::{service, Options, Server};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::LspService;

pub const URI: &str = "file:///work/test.lights";
const WAIT: Duration = Duration::from_secs(30);

pub struct Client {
    service: LspService<Server>,
    from_server: mpsc::UnboundedReceiver<Value>,
    /// Every message the server sent, in order.
    pub received: Vec<Value>,
    next_id: i64,
}

/// Client capabilities like a modern editor's; `utf8` offers UTF-8 positions.
pub fn capabilities(utf8: bool) -> Value {
    let encodings = if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) };
    json!({
        "general": {"positionEncodings": encodings},
        "workspace": {
            "workspaceEdit": {"documentChanges": true},
            "codeLens": {"refreshSupport": true},
            "inlayHint": {"refreshSupport": true}
        },
        "textDocument": {"completion": {"completionItem": {"snippetSupport": true}}}
    })
}

impl Client {
    pub async fn start(options: Options) -> Client {
        Client::start_with(options, capabilities(false), Value::Null).await
    }

    pub async fn start_with(options: Options, caps: Value, init_options: Value) -> Client {
        let mut c = Client::spawn(options);
        let result =
            c.request("initialize", json!({"capabilities": caps, "initializationOptions": init_options})).await;
        assert!(result.get("capabilities").is_some(), "{result}");
        c.notify("initialized", json!({})).await;
        c
    }

    pub fn spawn(options: Options) -> Client {
        let (service, socket) = service(options);
        let (tx, rx) = mpsc::unbounded_channel();
        let (mut requests, mut responses) = socket.split();
        tokio::spawn(async move {
            while let Some(req) = requests.next().await {
                let value = serde_json::to_value(&req).expect("server message serialises");
                if let Some(id) = req.id() {
                    let result =
                        if req.method() == "workspace/applyEdit" { json!({"applied": true}) } else { Value::Null };
                    let _ = responses.send(Response::from_ok(id.clone(), result)).await;
                }
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        Client { service, from_server: rx, received: Vec::new(), next_id: 0 }
    }

    pub fn server(&self) -> &Server {
        self.service.inner()
    }

    /// The whole JSON-RPC response (with `result` or `error`).
    pub async fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let req = Request::build(method.to_string()).id(self.next_id).params(params).finish();
        let svc = self.service.ready().await.expect("service ready");
        let resp = tokio::time::timeout(WAIT, svc.call(req)).await.expect("answer in time").expect("service call");
        serde_json::to_value(resp.expect("a response")).unwrap()
    }

    /// The `result` of a request (panics on an error response).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let resp = self.request_raw(method, params).await;
        assert!(resp.get("error").is_none(), "{method} failed: {resp}");
        resp["result"].clone()
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        let note = Request::build(method.to_string()).params(params).finish();
        let svc = self.service.ready().await.expect("service ready");
        let resp = svc.call(note).await.expect("service call");
        assert!(resp.is_none());
    }

    /// Send several notifications at once; they run concurrently, as the
    /// server may run them.
    pub async fn notify_concurrently(&mut self, notes: Vec<(&str, Value)>) {
        let mut calls = Vec::new();
        for (method, params) in notes {
            let note = Request::build(method.to_string()).params(params).finish();
            let svc = self.service.ready().await.expect("service ready");
            calls.push(svc.call(note));
        }
        for r in futures::future::join_all(calls).await {
            assert!(r.expect("service call").is_none());
        }
    }

    pub async fn open(&mut self, uri: &str, version: i32, text: &str) {
        let doc = json!({"uri": uri, "languageId": "lights", "version": version, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc})).await;
    }

    pub async fn change(&mut self, uri: &str, version: i32, text: &str) {
        let params = json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]});
        self.notify("textDocument/didChange", params).await;
    }

    /// The next message from the server matching `pred`.
    pub async fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(v) = self.received.iter().find(|v| pred(v)) {
            return v.clone();
        }
        loop {
            let next = tokio::time::timeout(WAIT, self.from_server.recv()).await;
            let v = next.unwrap_or_else(|_| panic!("timed out waiting for {what}; got {:#?}", self.received));
            let v = v.expect("server alive");
            self.received.push(v.clone());
            if pred(&v) {
                return v;
            }
        }
    }

    /// The diagnostics published for `uri` at `version` (the first such publish).
    pub async fn diagnostics(&mut self, uri: &str, version: i32) -> Vec<Value> {
        let v = self
            .wait_for("publishDiagnostics", |m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == uri
                    && m["params"]["version"] == version
            })
            .await;
        v["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// The diagnostics of the first publish that has any (`what` names them
    /// in the failure message).
    pub async fn first_problems(&mut self, what: &str) -> Vec<Value> {
        let published = self
            .wait_for(what, |m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
            })
            .await;
        published["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// Every publish for `uri` received so far, oldest first.
    pub fn publishes(&self, uri: &str) -> Vec<Value> {
        self.received
            .iter()
            .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
            .map(|m| m["params"].clone())
            .collect()
    }

    pub async fn code_lens_titles(&mut self, uri: &str) -> Vec<String> {
        let lenses = self.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}})).await;
        lenses.as_array().unwrap().iter().map(|l| l["command"]["title"].as_str().unwrap().to_string()).collect()
    }

    /// The code lens titles once no block is being solved any more.
    pub async fn settled_lenses(&mut self, uri: &str) -> Vec<String> {
        let deadline = std::time::Instant::now() + Duration::from_secs(180);
        loop {
            let titles = self.code_lens_titles(uri).await;
            if !titles.iter().any(|t| t.contains("solving")) {
                return titles;
            }
            assert!(std::time::Instant::now() < deadline, "still solving: {titles:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn code_actions(&mut self, uri: &str, line: u32, diagnostics: &[Value]) -> Vec<Value> {
        let here = json!({"line": line, "character": 0});
        let on_line: Vec<&Value> = diagnostics.iter().filter(|d| d["range"]["start"]["line"] == line).collect();
        let params = json!({"textDocument": {"uri": uri}, "range": {"start": here, "end": here},
                            "context": {"diagnostics": on_line}});
        self.request("textDocument/codeAction", params).await.as_array().cloned().unwrap_or_default()
    }
}

/// Apply LSP text edits (UTF-16 or UTF-8 positions) to a text.
pub fn apply_edits(text: &str, edits: &[Value], utf8: bool) -> String {
    let offset = |pos: &Value| -> usize {
        let (line, character) = (pos["line"].as_u64().unwrap() as usize, pos["character"].as_u64().unwrap() as usize);
        let mut start = 0;
        for _ in 0..line {
            start += text[start..].find('\n').map_or(text.len() - start, |i| i + 1);
        }
        let line_text = &text[start..];
        let mut units = 0;
        for (i, ch) in line_text.char_indices() {
            if units >= character || ch == '\n' {
                return start + i;
            }
            units += if utf8 { ch.len_utf8() } else { ch.len_utf16() };
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap().to_string()))
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (s, e, t) in spans {
        out.replace_range(s..e, &t);
    }
    out
}

/// The text edits of a code action's workspace edit for `uri` (either form).
pub fn action_edits(action: &Value, uri: &str) -> Vec<Value> {
    let edit = &action["edit"];
    if let Some(changes) = edit["documentChanges"].as_array() {
        return changes
            .iter()
            .filter(|c| c["textDocument"]["uri"] == uri)
            .flat_map(|c| c["edits"].as_array().cloned().unwrap_or_default())
            .collect();
    }
    edit["changes"][uri].as_array().cloned().unwrap_or_default()
}

pub fn example(name: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(name)).unwrap()
}

/// Codes of a diagnostic list, in order.
pub fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}
