//! `textDocument/formatting`: `lights fmt`'s layout, as the fewest edits
//! of whole lines (one per run of lines that change).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{DocumentFormattingParams, MessageType, TextEdit};

use crate::convert;
use crate::server::{off_loop, Server};

pub(crate) async fn formatting(server: &Server, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let edits = off_loop("formatting", move || {
        lights_ide::format_edits(&snap.doc).map(|e| convert::formatting_edits(&snap, e))
    })
    .await?;
    match edits {
        Ok(edits) => Ok(Some(edits)),
        Err(reason) => {
            server.shared.client.show_message(MessageType::WARNING, format!("lights: not formatted: {reason}")).await;
            Ok(None)
        }
    }
}
