//! `lights/lightsEdit`: the edit that writes a position as a block's `lights`.

use std::time::Duration;

use lights_ide::play::{self, PlayError};
use serde::Serialize;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::TextEdit;

use super::{play_error, play_snapshot, PositionParams};
use crate::server::{guard, Server};

/// The answer of `lights/lightsEdit`.
#[derive(Debug, Serialize)]
pub(crate) struct LightsEdit {
    edits: Vec<TextEdit>,
    /// The version the edits are for.
    version: i32,
}

/// The edit; `null` when the document moved on from `version`, or the
/// block has errors (it cannot be played).
pub(crate) async fn lights_edit(server: &Server, params: PositionParams) -> Result<Option<LightsEdit>> {
    let snap = play_snapshot(server, &params.uri, params.puzzle).await?;
    if params.version.is_some_and(|v| v != snap.version) {
        return Ok(None);
    }
    let edit = guard("lights/lightsEdit", || play::lights_edit(&snap.doc, params.puzzle, &params.lights))?;
    match edit {
        Ok(Some(edit)) => Ok(Some(LightsEdit {
            edits: vec![TextEdit { range: snap.map.range(snap.doc.text(), edit.span), new_text: edit.text }],
            version: snap.version,
        })),
        Ok(None) | Err(PlayError::NotPlayable(_)) => Ok(None),
        Err(e) => Err(play_error(e, Duration::ZERO)),
    }
}
