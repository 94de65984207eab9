//! `initialized`: forward the pattern-database progress, and ask to watch
//! `lights.toml` files when the client registers watchers.

use tower_lsp_server::lsp_types::*;

use crate::server::{lock, Server};

pub(crate) async fn initialized(server: &Server, _: InitializedParams) {
    let config = server.config();
    if let Some(events) = lock(&server.shared.tables).take() {
        tokio::spawn(crate::tables::forward(server.shared.client.clone(), config.work_done_progress, events));
    }
    if config.watch_registration {
        // Not awaited here: the client answers while other messages wait.
        let client = server.shared.client.clone();
        tokio::spawn(async move {
            let watch = DidChangeWatchedFilesRegistrationOptions {
                watchers: vec![FileSystemWatcher {
                    glob_pattern: GlobPattern::String(format!("**/{}", lights_ide::config::FILE_NAME)),
                    kind: None,
                }],
            };
            let registration = Registration {
                id: "lights.toml".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(watch).ok(),
            };
            if let Err(e) = client.register_capability(vec![registration]).await {
                let message = format!("lights: changes to lights.toml are not watched: {e}");
                client.log_message(MessageType::WARNING, message).await;
            }
        });
    }
}
