//! `textDocument/didChange`: apply the changes in order, then analyse the
//! new version.

use tower_lsp_server::lsp_types::{DidChangeTextDocumentParams, MessageType, TextDocumentContentChangeEvent};

use crate::position::{Encoding, PositionMap};
use crate::server::{lock, Server};

pub(crate) async fn did_change(server: &Server, params: DidChangeTextDocumentParams) {
    if params.content_changes.is_empty() {
        return;
    }
    let doc = params.text_document;
    let encoding = lock(&server.shared.config).encoding;
    // Applied before anything is awaited: changes are taken in the order they arrive.
    let text = {
        let mut docs = lock(&server.shared.docs);
        match docs.get_mut(&doc.uri) {
            None => None,
            Some(d) if d.version >= doc.version => return, // an older version arriving late
            Some(d) => {
                let mut text = std::mem::take(&mut d.text);
                for change in params.content_changes {
                    apply_change(&mut text, change, encoding);
                }
                d.renew(doc.version, text);
                Some(())
            }
        }
    };
    match text {
        Some(()) => drop(tokio::spawn(server.shared.clone().update(doc.uri))),
        None => {
            let message = format!(
                "lights: ignored textDocument/didChange of {} (version {}): the document is not open",
                doc.uri.as_str(),
                doc.version
            );
            server.shared.client.log_message(MessageType::WARNING, message).await;
        }
    }
}

/// Apply one change of `textDocument/didChange` to `text`: the whole text,
/// or a range of it (positions in the negotiated encoding). The server asks
/// for whole texts, but takes ranges from a client that sends them anyway.
fn apply_change(text: &mut String, change: TextDocumentContentChangeEvent, encoding: Encoding) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let map = PositionMap::new(text, encoding);
            let start = map.offset(text, range.start);
            let end = map.offset(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}
