//! The `.lights` language server (`lights lsp`): live diagnostics, solution
//! counts in code lenses and inlay hints, code actions that insert the
//! solution or make a puzzle solvable, hover, formatting, completion,
//! symbols and folding. The only crate that knows LSP.
//!
//! Layout: [`server`] routes messages and owns document versions,
//! [`engine`] solves off the runtime with a cache and cancellation,
//! [`document`] is one analysed version, [`features`] are plain functions
//! of a snapshot, [`position`] converts offsets in the negotiated encoding.

pub mod convert;
pub mod document;
pub mod engine;
pub mod features;
pub mod position;
pub mod reference;
pub mod server;
pub mod settings;
pub mod tables;
pub mod transport;

use std::time::Duration;

pub use server::{Options, Server};
use tower_lsp_server::{ClientSocket, LspService};

/// The service, for running over any transport (and for in-process tests).
pub fn service(options: Options) -> (LspService<Server>, ClientSocket) {
    LspService::new(move |client| Server::new(client, options))
}

/// Serve LSP on standard input and output until the client says `exit`.
pub fn run_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let (service, socket) = service(Options::default());
        transport::serve(tokio::io::stdin(), tokio::io::stdout(), service, socket).await;
    });
    // Do not wait for solves still running: the client has gone.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(())
}
