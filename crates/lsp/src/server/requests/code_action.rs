//! `textDocument/codeAction`: the ide layer's fixes and rewrites in a range.

use std::time::Instant;

use lights_syntax::Span;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::lsp_types::{CodeActionParams, CodeActionResponse};

use crate::convert;
use crate::server::Server;

pub(crate) async fn code_action(server: &Server, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let config = server.config();
    let shared = server.shared.clone();
    let budget = server.shared.time_budget(&params.text_document.uri);
    // Finding the smallest fix solves a system: off the runtime, within the budget.
    let work = tokio::task::spawn_blocking(move || {
        let deadline = Instant::now() + budget;
        let cancel = || Instant::now() >= deadline;
        let text = snap.doc.text();
        let span = Span::new(snap.map.offset(text, params.range.start), snap.map.offset(text, params.range.end));
        let actions = lights_ide::code_actions(&snap.doc, &shared.engine, span, &cancel);
        let context = &params.context.diagnostics;
        actions.iter().map(|a| convert::action(&snap, a, context, config.edits)).collect()
    })
    .await;
    match work {
        Ok(list) => Ok(Some(list)),
        Err(e) => {
            let mut err = Error::internal_error();
            err.message = format!("internal error in code actions: {e}").into();
            Err(err)
        }
    }
}
