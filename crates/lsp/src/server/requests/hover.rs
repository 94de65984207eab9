//! `textDocument/hover`: what the ide layer says about the word under the
//! cursor.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{Hover, HoverParams};

use crate::convert;
use crate::server::{guard, Server};

pub(crate) async fn hover(server: &Server, params: HoverParams) -> Result<Option<Hover>> {
    let p = params.text_document_position_params;
    let Some(snap) = server.snapshot(&p.text_document.uri).await else { return Ok(None) };
    guard("hover", || {
        let offset = snap.map.offset(snap.doc.text(), p.position);
        lights_ide::hover(&snap.doc, &server.shared.engine, offset).map(|h| convert::hover(&snap, &h))
    })
}
