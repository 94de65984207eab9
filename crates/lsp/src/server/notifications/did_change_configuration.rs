//! `workspace/didChangeConfiguration`: take the new settings, and redo
//! what they change (the cache budget, the documents' keys, the solves
//! that ran out of time).

use std::sync::Arc;

use tower_lsp_server::lsp_types::DidChangeConfigurationParams;

use crate::server::{lock, Server};
use crate::snapshot::Snapshot;

pub(crate) async fn did_change_configuration(server: &Server, params: DidChangeConfigurationParams) {
    let (before, after) = {
        let mut config = lock(&server.shared.config);
        let before = config.settings.clone();
        config.settings.apply(&params.settings);
        (before, config.settings.clone())
    };
    if before.cache_budget != after.cache_budget {
        server.shared.engine.set_budget(after.cache_budget);
        server.shared.retain();
    }
    if before.minimum_budget != after.minimum_budget {
        // The documents' keys follow their minimum budget: analysed again
        // (those under a lights.toml that sets one keep theirs).
        server.shared.clone().renew_changed_options().await;
    }
    if before.time_budget != after.time_budget {
        server.shared.engine.forget_timeouts();
        let snaps: Vec<Arc<Snapshot>> =
            lock(&server.shared.docs).values().filter_map(|d| d.current.borrow().clone()).collect();
        for snap in snaps {
            tokio::spawn(server.shared.clone().solve_and_publish(snap));
        }
    }
    if before != after {
        server.shared.refresh().await;
    }
}
