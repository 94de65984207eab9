//! `lights/solveFrom`: the minimum solution from a position to the goal.

use std::sync::atomic::Ordering;
use std::time::Instant;

use lights_ide::limits::StopOnDrop;
use lights_ide::play::{self, SolveResult};
use tower_lsp_server::jsonrpc::{Error, Result};

use super::{play_error, play_snapshot, PositionParams};
use crate::server::{lock, Server};

/// The minimum solution from a position, within the editor's time budget;
/// stopped when the request is cancelled (its future dropped).
pub(crate) async fn solve_from(server: &Server, params: PositionParams) -> Result<SolveResult> {
    let snap = play_snapshot(server, &params.uri, params.puzzle).await?;
    let budget = lock(&server.shared.config).settings.time_budget;
    let solve = server.shared.options.solve;
    let (_stop_on_drop, stop) = StopOnDrop::new();
    let (i, lights) = (params.puzzle, params.lights);
    let answer = server
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
