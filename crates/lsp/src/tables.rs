//! The first 4×4 sliding solve of a machine builds the pattern databases
//! (seconds, once; then they are cached on disk). The engine's solves send
//! the build's progress here, and the user sees it as LSP work-done
//! progress (`$/progress`) when the client supports that. Loading the
//! tables from the cache shows nothing: it is quick. A cache that could not
//! be written (so the next session builds again) is logged as a warning.

use lights_compiler::sliding_check::{BuildProgress, BuildStage};
use tokio::sync::mpsc;

use crate::engine::TablesEvent;
use tower_lsp_server::lsp_types::request::WorkDoneProgressCreate;
use tower_lsp_server::lsp_types::{MessageType, NumberOrString, ProgressToken, WorkDoneProgressCreateParams};
use tower_lsp_server::{Bounded, Client, NotCancellable, OngoingProgress};

/// The token of the build's progress stream.
pub(crate) const TOKEN: &str = "lights/pattern-databases";
pub(crate) const TITLE: &str = "Building the 4×4 sliding-puzzle tables";

/// The percentage and message shown for a progress event; `None` for the
/// events that only concern loading.
pub(crate) fn describe(p: &BuildProgress) -> Option<(u32, String)> {
    let percent = (p.done.min(p.total) * 100).checked_div(p.total).unwrap_or(0) as u32;
    let message = match p.stage {
        BuildStage::Loading | BuildStage::Finished => return None,
        // The tables are built side by side: say how many are done.
        BuildStage::Building { finished, tables } => {
            format!("{finished} of {tables} tables done (once; cached for next time)")
        }
        BuildStage::Saving => "saving to the cache".to_string(),
    };
    Some((percent, message))
}

/// Forward build progress to the client until the engine goes away.
pub(crate) async fn forward(client: Client, supported: bool, mut events: mpsc::UnboundedReceiver<TablesEvent>) {
    let token = ProgressToken::from(NumberOrString::String(TOKEN.to_string()));
    let mut ongoing: Option<OngoingProgress<Bounded, NotCancellable>> = None;
    // A client that refuses the token is not asked again.
    let mut refused = false;
    while let Some(event) = events.recv().await {
        let event = match event {
            TablesEvent::Note(note) => {
                client.log_message(MessageType::WARNING, format!("lights: 4×4 pattern databases: {note}")).await;
                continue;
            }
            TablesEvent::Progress(p) => p,
        };
        if event.stage == BuildStage::Finished {
            if let Some(progress) = ongoing.take() {
                progress.finish_with_message("ready").await;
            }
            continue;
        }
        let Some((percent, message)) = describe(&event) else { continue };
        if !supported || refused {
            continue;
        }
        if ongoing.is_none() {
            let create = WorkDoneProgressCreateParams { token: token.clone() };
            if client.send_request::<WorkDoneProgressCreate>(create).await.is_err() {
                refused = true;
                continue;
            }
            let progress = client.progress(token.clone(), TITLE).with_percentage(percent).with_message(message);
            ongoing = Some(progress.begin().await);
        } else if let Some(progress) = &ongoing {
            progress.report_with_message(message, percent).await;
        }
    }
}
