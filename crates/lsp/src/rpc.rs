//! What the protocol library leaves out, around its service (the
//! transport serves [`Rpc`], not the bare `LspService`):
//!
//! - a request whose method starts with `$/` and that the server does not
//!   implement is answered with MethodNotFound (the library answers
//!   nothing, as it rightly does for such notifications);
//! - a notification whose params the server cannot read is logged to the
//!   client (`window/logMessage`) instead of vanishing;
//! - whether `shutdown` was answered is remembered, for the exit status.

use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use serde::de::DeserializeOwned;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Request, Response};
use tower_lsp_server::lsp_types::*;
use tower_lsp_server::{Client, ExitedError, LspService};
use tower_service::Service;

use crate::server::Server;

/// The server's service with the additions above.
pub(crate) struct Rpc {
    inner: LspService<Server>,
    client: Client,
    shutdown: Arc<AtomicBool>,
}

impl Rpc {
    /// The service, and the flag that is set once `shutdown` is answered.
    pub(crate) fn new(inner: LspService<Server>) -> (Rpc, Arc<AtomicBool>) {
        let client = inner.inner().client();
        let shutdown = Arc::new(AtomicBool::new(false));
        (Rpc { inner, client, shutdown: shutdown.clone() }, shutdown)
    }
}

type Answer = Pin<Box<dyn Future<Output = Result<Option<Response>, ExitedError>> + Send>>;

impl Service<Request> for Rpc {
    type Response = Option<Response>;
    type Error = ExitedError;
    type Future = Answer;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ExitedError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Answer {
        let id = req.id().cloned();
        // (Only `$/` requests need their method afterwards.)
        let dollar = id.as_ref().filter(|_| req.method().starts_with("$/")).map(|_| req.method().to_string());
        let unreadable = if id.is_none() { unreadable_notification(req.method(), req.params()) } else { None };
        let shutdown = (req.method() == "shutdown").then(|| self.shutdown.clone());
        let client = self.client.clone();
        // Called now, not in the future below: the server takes notifications
        // in the order they arrive.
        let answer = self.inner.call(req);
        Box::pin(async move {
            let response = answer.await?;
            if let Some(message) = unreadable {
                client.log_message(MessageType::WARNING, message).await;
            }
            if let (Some(flag), Some(r)) = (shutdown, &response) {
                if r.is_ok() {
                    flag.store(true, Ordering::SeqCst);
                }
            }
            Ok(match (response, id, dollar) {
                (None, Some(id), Some(method)) => {
                    let mut error = Error::method_not_found();
                    error.data = Some(Value::String(method));
                    Some(Response::from_error(id, error))
                }
                (response, _, _) => response,
            })
        })
    }
}

/// Why the server cannot read the params of notification `method` (one it
/// handles), or `None` when it can.
fn unreadable_notification(method: &str, params: Option<&Value>) -> Option<String> {
    let read = match method {
        "textDocument/didOpen" => reads::<DidOpenTextDocumentParams>(params),
        "textDocument/didChange" => reads::<DidChangeTextDocumentParams>(params),
        "textDocument/didClose" => reads::<DidCloseTextDocumentParams>(params),
        "workspace/didChangeConfiguration" => reads::<DidChangeConfigurationParams>(params),
        "initialized" => reads::<InitializedParams>(params),
        _ => return None,
    };
    let error = read.err()?;
    let uri = params.and_then(|p| p.pointer("/textDocument/uri"));
    if let Some(text) = uri.and_then(Value::as_str) {
        if let Err(e) = Uri::from_str(text) {
            return Some(format!("lights: ignored {method}: invalid URI {text:?}: {e}"));
        }
    }
    let of = uri.map_or(String::new(), |u| format!(" of {u}"));
    Some(format!("lights: ignored {method}{of}: invalid params: {error}"))
}

fn reads<T: DeserializeOwned>(params: Option<&Value>) -> Result<(), serde_json::Error> {
    T::deserialize(params.unwrap_or(&Value::Null)).map(drop)
}
