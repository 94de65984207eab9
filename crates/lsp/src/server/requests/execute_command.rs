//! `workspace/executeCommand`: `lights.insertSolution` (the code lens's
//! command), answered with a `workspace/applyEdit` to the client.

use std::str::FromStr;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::lsp_types::{ExecuteCommandParams, LSPAny, Uri};

use crate::convert::{self, INSERT_SOLUTION};
use crate::server::{guard, lock, Server};

pub(crate) async fn execute_command(server: &Server, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
    if params.command != INSERT_SOLUTION {
        return Err(Error::invalid_params(format!("unknown command `{}`", params.command)));
    }
    let (uri, index) = match params.arguments.as_slice() {
        [Value::String(uri), index] => (Uri::from_str(uri).ok(), index.as_u64()),
        _ => (None, None),
    };
    let (Some(uri), Some(index)) = (uri, index) else {
        return Err(Error::invalid_params("expected [uri, puzzle index]"));
    };
    let not_open = || Error::invalid_params(format!("unknown document {}: it is not open", uri.as_str()));
    if !lock(&server.shared.docs).contains_key(&uri) {
        return Err(not_open());
    }
    let Some(snap) = server.snapshot(&uri).await else {
        // Closed meanwhile, or still being analysed after a long wait.
        return if lock(&server.shared.docs).contains_key(&uri) { Ok(None) } else { Err(not_open()) };
    };
    let count = snap.doc.block_count();
    if index >= count as u64 {
        return Err(Error::invalid_params(format!(
            "unknown puzzle {index} in {}: it has {count} block{} (numbered from 0)",
            uri.as_str(),
            if count == 1 { "" } else { "s" }
        )));
    }
    let support = server.config().edits;
    let edit = guard("insert solution", || {
        let edits = lights_ide::insert_solution(&snap.doc, &server.shared.engine, index as usize)?;
        Some(convert::workspace_edit(&snap, &edits, support))
    })?;
    if let Some(edit) = edit {
        let _ = server.shared.client.apply_edit(edit).await;
    }
    Ok(None)
}
