//! `textDocument/didClose`: forget the document and every answer no open
//! document wants; clear its diagnostics.

use std::collections::HashSet;

use lights_compiler::BlockKey;
use tower_lsp_server::lsp_types::DidCloseTextDocumentParams;

use crate::server::{lock, Server};

pub(crate) async fn did_close(server: &Server, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    lock(&server.shared.docs).remove(&uri);
    // The closed document's results go (and those of its older
    // versions): everything no open document wants is dropped.
    let wanted: HashSet<BlockKey> = {
        let docs = lock(&server.shared.docs);
        docs.values().filter_map(|d| d.last.as_ref()).flat_map(|s| s.doc.keys()).collect()
    };
    server.shared.engine.keep_only(&wanted);
    server.shared.client.publish_diagnostics(uri, Vec::new(), None).await;
}
