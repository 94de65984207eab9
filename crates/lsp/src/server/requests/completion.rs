//! `textDocument/completion`: the statements, keywords and values that fit
//! where the cursor is (snippets when the client takes them).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{CompletionParams, CompletionResponse};

use crate::convert;
use crate::server::{guard, Server};

pub(crate) async fn completion(server: &Server, params: CompletionParams) -> Result<Option<CompletionResponse>> {
    let p = params.text_document_position;
    let Some(snap) = server.snapshot(&p.text_document.uri).await else { return Ok(None) };
    let snippets = server.config().snippets;
    guard("completion", || {
        let offset = snap.map.offset(snap.doc.text(), p.position);
        let items = lights_ide::completion(&snap.doc, offset, snippets);
        Some(CompletionResponse::Array(items.iter().map(convert::completion).collect()))
    })
}
