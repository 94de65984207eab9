//! `textDocument/foldingRange`: blocks, grids and comment runs.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{FoldingRange, FoldingRangeParams};

use crate::convert;
use crate::server::{off_loop, Server};

pub(crate) async fn folding_range(server: &Server, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    off_loop("folding ranges", move || {
        Some(lights_ide::folding_ranges(&snap.doc).iter().map(convert::folding_range).collect())
    })
    .await
}
