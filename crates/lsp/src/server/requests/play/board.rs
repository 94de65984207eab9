//! `lights/board`: the board data of one block, with its report once solved.

use std::time::Duration;

use lights_ide::play::{self, BoardData};
use serde::Deserialize;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::lsp_types::Uri;

use super::play_snapshot;
use crate::server::{guard, Server};

/// The params of `lights/board`.
#[derive(Debug, Deserialize)]
pub(crate) struct BoardParams {
    uri: Uri,
    /// The block's index in the file, from 0.
    puzzle: usize,
}

/// The board data of one block, with its report once solved (waiting for
/// the solve, at most the time budget).
pub(crate) async fn board(server: &Server, params: BoardParams) -> Result<BoardData> {
    let snap = play_snapshot(server, &params.uri, params.puzzle).await?;
    let i = params.puzzle;
    let budget = server.shared.time_budget(&snap.uri);
    if play::wants_solving(&snap.doc, i) {
        if let (Some(block), Some(key)) = (snap.doc.block(i), snap.doc.key(i)) {
            let mut slot = server.shared.engine.ensure(key, block, snap.doc.options(), budget);
            // The solve stops itself at the budget; the margin covers its start.
            let _ = tokio::time::timeout(budget + Duration::from_secs(1), slot.wait_for(Option::is_some)).await;
        }
    }
    let shared = server.shared.clone();
    let built = tokio::task::spawn_blocking(move || {
        guard("lights/board", || play::board(&snap.doc, i, &shared.engine, i64::from(snap.version)))
    })
    .await;
    match built {
        Ok(Ok(Some(board))) => Ok(board),
        Ok(Ok(None)) => Err(Error::invalid_params(format!("no puzzle {i}"))),
        Ok(Err(e)) => Err(e),
        Err(e) => {
            let mut err = Error::internal_error();
            err.message = format!("internal error in lights/board: {e}").into();
            Err(err)
        }
    }
}
