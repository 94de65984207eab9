//! Play-testing's custom requests (docs/play.md): `lights/board`,
//! `lights/solveFrom` and `lights/lightsEdit`, one module each. What they
//! answer is `lights_ide::play`'s plain data, for the newest version of the
//! document; a board's own report comes from the engine's cache of solved
//! blocks (the solve the diagnostics started, joined), a solve from a
//! position runs as the engine's solves do: off the runtime, on one of its
//! cores, within the time budget, stopped when the request is cancelled.

mod board;
mod lights_edit;
mod solve_from;

use std::sync::Arc;
use std::time::Duration;

use lights_ide::play::PlayError;
use serde::Deserialize;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::lsp_types::Uri;

use crate::server::{lock, Server};
use crate::snapshot::Snapshot;

pub(crate) use board::board;
pub(crate) use lights_edit::lights_edit;
pub(crate) use solve_from::solve_from;

/// The params of `lights/solveFrom` and `lights/lightsEdit`.
#[derive(Debug, Deserialize)]
pub(crate) struct PositionParams {
    uri: Uri,
    puzzle: usize,
    /// Per cell, row-major (holes 0).
    lights: Vec<u32>,
    /// `lights/lightsEdit` only: the document version the position was
    /// made on; the answer is `null` when the document has moved on.
    #[serde(default)]
    version: Option<i32>,
}

/// LSP's RequestFailed: the request was valid, and no answer came (the
/// solver ran past the time budget or declined the position).
const REQUEST_FAILED: i64 = -32803;

fn play_error(e: PlayError, budget: Duration) -> Error {
    if e.is_bad_request() {
        return Error::invalid_params(e.to_string());
    }
    let message = match e {
        PlayError::Stopped => format!("not solved within {}", lights_ide::duration(budget)),
        e => e.to_string(),
    };
    Error { code: ErrorCode::ServerError(REQUEST_FAILED), message: message.into(), data: None }
}

/// The newest snapshot of an open document, and checks that it has block
/// `puzzle`.
async fn play_snapshot(server: &Server, uri: &Uri, puzzle: usize) -> Result<Arc<Snapshot>> {
    let not_open = || Error::invalid_params(format!("unknown document {}: it is not open", uri.as_str()));
    if !lock(&server.shared.docs).contains_key(uri) {
        return Err(not_open());
    }
    let Some(snap) = server.snapshot(uri).await else {
        let mut e = Error::internal_error();
        e.message = format!("{} is not analysed yet (or was closed meanwhile)", uri.as_str()).into();
        return Err(if lock(&server.shared.docs).contains_key(uri) { e } else { not_open() });
    };
    let count = snap.doc.block_count();
    if puzzle >= count {
        return Err(Error::invalid_params(PlayError::NoPuzzle { index: puzzle, count }.to_string()));
    }
    Ok(snap)
}
