//! `textDocument/formatting`: `lights fmt`'s layout, as an edit of the
//! lines that change.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{DocumentFormattingParams, MessageType, TextEdit};

use crate::server::{off_loop, Server};

pub(crate) async fn formatting(server: &Server, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    // One edit of the lines that change, not the whole text.
    let edit = off_loop("formatting", move || {
        lights_ide::format_edit(&snap.doc)
            .map(|edit| edit.map(|e| TextEdit { range: snap.map.range(snap.doc.text(), e.span), new_text: e.text }))
    })
    .await?;
    match edit {
        Ok(None) => Ok(Some(Vec::new())),
        Ok(Some(edit)) => Ok(Some(vec![edit])),
        Err(reason) => {
            server.shared.client.show_message(MessageType::WARNING, format!("lights: not formatted: {reason}")).await;
            Ok(None)
        }
    }
}
