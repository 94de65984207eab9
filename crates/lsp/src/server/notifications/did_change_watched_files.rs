//! `workspace/didChangeWatchedFiles`: a `lights.toml` changed; read them
//! again and redo what its policy changes.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use lights_compiler::BlockKey;
use tower_lsp_server::lsp_types::DidChangeWatchedFilesParams;

use crate::server::{lock, Server};
use crate::snapshot::Snapshot;

pub(crate) async fn did_change_watched_files(server: &Server, params: DidChangeWatchedFilesParams) {
    if !params.changes.iter().any(|c| crate::project::is_config(&c.uri)) {
        return;
    }
    let shared = &server.shared;
    // Read them again; solve again what ran out of a budget and the
    // documents whose budget changed (an answer found within 10 s may
    // not be within `time-budget-ms = 1`, as on the command line);
    // publish every open document under the new policy.
    let snaps: Vec<Arc<Snapshot>> = lock(&shared.docs).values().filter_map(|d| d.current.borrow().clone()).collect();
    let before: Vec<Duration> = snaps.iter().map(|s| shared.time_budget(&s.uri)).collect();
    shared.projects.reload();
    // A document whose minimum budget changed is analysed again (its
    // keys follow the budget), then solved and published.
    let renewed = shared.clone().renew_changed_options().await;
    let snaps: Vec<Arc<Snapshot>> = snaps.into_iter().filter(|s| !renewed.contains(&s.uri)).collect();
    let changed: HashSet<BlockKey> = snaps
        .iter()
        .zip(before)
        .filter(|(s, budget)| shared.time_budget(&s.uri) != *budget)
        .flat_map(|(s, _)| s.doc.keys())
        .collect();
    shared.engine.forget(&changed);
    shared.engine.forget_timeouts();
    for snap in snaps {
        tokio::spawn(shared.clone().solve_and_publish(snap));
    }
    shared.refresh().await;
}
