//! `textDocument/codeLens`: a lens above each block (its solution count,
//! "solving…", or why it was not solved), built once per set of answers.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{CodeLens, CodeLensParams};

use crate::server::{off_loop, Server};

pub(crate) async fn code_lens(server: &Server, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    if !server.config().settings.code_lens {
        return Ok(Some(Vec::new()));
    }
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    server.shared.settle(&snap).await;
    let shared = server.shared.clone();
    off_loop("code lens", move || Some(shared.lenses(&snap))).await
}
