//! Play-testing's custom requests (docs/play.md): `lights/board`,
//! `lights/solveFrom` and `lights/lightsEdit`. What they answer is
//! `lights_ide::play`'s plain data, for the newest version of the document;
//! a board's own report comes from the engine's cache of solved blocks (the
//! solve the diagnostics started, joined), a solve from a position runs as
//! the engine's solves do: off the runtime, on one of its cores, within the
//! time budget, stopped when the request is cancelled.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use lights_ide::play::{self, BoardData, PlayError, SolveResult};
use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::lsp_types::{TextEdit, Uri};

use super::{guard, lock, Server};
use crate::snapshot::Snapshot;

/// The params of `lights/board`.
#[derive(Debug, Deserialize)]
pub(crate) struct BoardParams {
    uri: Uri,
    /// The block's index in the file, from 0.
    puzzle: usize,
}

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

/// The answer of `lights/lightsEdit`.
#[derive(Debug, Serialize)]
pub(crate) struct LightsEdit {
    edits: Vec<TextEdit>,
    /// The version the edits are for.
    version: i32,
}

/// LSP's RequestFailed: the request was valid, and no answer came (the
/// solver ran past the time budget or declined the position).
const REQUEST_FAILED: i64 = -32803;

/// Sets a flag when dropped: the request's future is dropped when the
/// client cancels it, which stops its solve.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

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

impl Server {
    /// The newest snapshot of an open document, and checks that it has
    /// block `puzzle`.
    async fn play_snapshot(&self, uri: &Uri, puzzle: usize) -> Result<Arc<Snapshot>> {
        let not_open = || Error::invalid_params(format!("unknown document {}: it is not open", uri.as_str()));
        if !lock(&self.shared.docs).contains_key(uri) {
            return Err(not_open());
        }
        let Some(snap) = self.snapshot(uri).await else {
            let mut e = Error::internal_error();
            e.message = format!("{} is not analysed yet (or was closed meanwhile)", uri.as_str()).into();
            return Err(if lock(&self.shared.docs).contains_key(uri) { e } else { not_open() });
        };
        let count = snap.doc.block_count();
        if puzzle >= count {
            return Err(Error::invalid_params(PlayError::NoPuzzle { index: puzzle, count }.to_string()));
        }
        Ok(snap)
    }

    /// `lights/board`: the board data of one block, with its report once
    /// solved (waiting for the solve, at most the time budget).
    pub(crate) async fn play_board(&self, params: BoardParams) -> Result<BoardData> {
        let snap = self.play_snapshot(&params.uri, params.puzzle).await?;
        let i = params.puzzle;
        let budget = self.shared.time_budget(&snap.uri);
        if play::wants_solving(&snap.doc, i) {
            if let (Some(block), Some(key)) = (snap.doc.block(i), snap.doc.key(i)) {
                let mut slot = self.shared.engine.ensure(key, block, snap.doc.options(), budget);
                // The solve stops itself at the budget; the margin covers its start.
                let _ = tokio::time::timeout(budget + Duration::from_secs(1), slot.wait_for(Option::is_some)).await;
            }
        }
        let shared = self.shared.clone();
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

    /// `lights/solveFrom`: the minimum solution from a position to the goal.
    pub(crate) async fn play_solve_from(&self, params: PositionParams) -> Result<SolveResult> {
        let snap = self.play_snapshot(&params.uri, params.puzzle).await?;
        let budget = lock(&self.shared.config).settings.time_budget;
        let solve = self.shared.options.solve;
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let (i, lights) = (params.puzzle, params.lights);
        let answer = self
            .shared
            .engine
            .run(move || {
                let deadline = Instant::now() + budget;
                let stopped = || stop.load(Ordering::Relaxed) || Instant::now() >= deadline;
                play::solve_from_with(solve, &snap.doc, i, &lights, &stopped)
            })
            .await;
        match answer {
            Some(Ok(result)) => Ok(result),
            Some(Err(e)) => Err(play_error(e, budget)),
            None => {
                let mut err = Error::internal_error();
                err.message = "internal error in lights/solveFrom".into();
                Err(err)
            }
        }
    }

    /// `lights/lightsEdit`: the edit that writes a position as the block's
    /// `lights`; `null` when the document moved on from `version`, or the
    /// block has errors (it cannot be played).
    pub(crate) async fn play_lights_edit(&self, params: PositionParams) -> Result<Option<LightsEdit>> {
        let snap = self.play_snapshot(&params.uri, params.puzzle).await?;
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
}
