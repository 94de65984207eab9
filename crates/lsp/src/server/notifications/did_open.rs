//! `textDocument/didOpen`: keep the text and analyse it.

use tower_lsp_server::lsp_types::DidOpenTextDocumentParams;

use crate::server::{lock, Doc, Server};

pub(crate) async fn did_open(server: &Server, params: DidOpenTextDocumentParams) {
    let doc = params.text_document;
    {
        let mut docs = lock(&server.shared.docs);
        match docs.get_mut(&doc.uri) {
            Some(d) if d.version >= doc.version => return, // an older version arriving late
            Some(d) => d.renew(doc.version, doc.text),
            None => {
                docs.insert(doc.uri.clone(), Doc::new(doc.version, doc.text));
            }
        }
    }
    // Not awaited: notifications are handled in order, and one waiting
    // for an analysis would hold back every message behind it (edits,
    // hovers, `$/cancelRequest`).
    tokio::spawn(server.shared.clone().update(doc.uri));
}
