//! `textDocument/documentSymbol`: the outline (blocks and their statements).

use lights_ide::limits::MAX_SYMBOLS;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{DocumentSymbolParams, DocumentSymbolResponse};

use crate::convert;
use crate::server::{off_loop, Server};

pub(crate) async fn document_symbol(
    server: &Server,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    off_loop("document symbols", move || {
        let symbols = lights_ide::symbols_at_most(&snap.doc, MAX_SYMBOLS);
        Some(DocumentSymbolResponse::Nested(symbols.iter().map(|s| convert::symbol(&snap, s)).collect()))
    })
    .await
}
