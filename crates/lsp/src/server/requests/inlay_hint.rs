//! `textDocument/inlayHint`: the answer after each block header, in the
//! lines asked for.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{InlayHint, InlayHintParams};

use crate::convert;
use crate::server::{off_loop, Server};

pub(crate) async fn inlay_hint(server: &Server, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
    if !server.config().settings.inlay_hints {
        return Ok(Some(Vec::new()));
    }
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    server.shared.settle(&snap).await;
    let lines = params.range.start.line as usize..=params.range.end.line as usize;
    let shared = server.shared.clone();
    off_loop("inlay hints", move || {
        let hints = lights_ide::inlay_hints(&snap.doc, &shared.engine, lines);
        Some(hints.iter().map(|h| convert::inlay_hint(&snap, h)).collect())
    })
    .await
}
