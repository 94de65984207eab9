//! The `.lights` language server (`lights lsp`): live diagnostics, solution
//! counts in code lenses and inlay hints, code actions that insert the
//! solution or make a puzzle solvable, hover, formatting, completion,
//! symbols and folding; and play-testing's custom requests (`lights/board`,
//! `lights/solveFrom`, `lights/lightsEdit`, docs/play.md). The only crate
//! that knows LSP.
//!
//! What is said about a file is decided by `lights-ide` (plain data, the
//! same answers as `lights check`); this crate converts it to LSP and
//! schedules the work; every limit it applies (time budget, caps, the
//! fallback for a crash) is `lights_ide::limits`'s. Layout: `server` routes
//! messages and owns document versions and the scheduling (when a version
//! is analysed, solved and published), with one handler per request in
//! `server/requests/` and one per notification in `server/notifications/`;
//! `engine` solves off the runtime with a cache by block key, cancellation
//! and a time budget, `snapshot` is one version of a document, `convert`
//! turns the ide layer's data into LSP values (formatting: ide's line-diff edits, converted),
//! `position` converts byte offsets in the negotiated encoding, `project`
//! finds each document's `lights.toml` (the policy is the ide layer's),
//! `memory` keeps the allocator from holding on to freed memory;
//! `transport` guards the framing of standard input and output, `rpc`
//! adds what the protocol library leaves out (answers to unknown `$/`
//! requests, a log line for unreadable notifications, whether `shutdown`
//! came before `exit`).

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod convert;
mod engine;
mod memory;
mod position;
mod project;
mod rpc;
mod server;
mod settings;
mod snapshot;
mod tables;
mod transport;

use std::sync::Arc;
use std::time::Duration;

pub use lights_compiler::sliding_check::TableStore;

pub use engine::{prepare_tables, PrepareFn};
pub use server::{Options, Server, Stats};
use tower_lsp_server::{ClientSocket, LspService};
pub use transport::{serve, Ending};

/// The service, for running over any transport (and for in-process tests).
pub fn service(options: Options) -> (LspService<Server>, ClientSocket) {
    LspService::build(move |client| Server::new(client, options))
        // Play-testing (docs/play.md): a board view's questions.
        .custom_method("lights/board", server::board)
        .custom_method("lights/solveFrom", server::solve_from)
        .custom_method("lights/lightsEdit", server::lights_edit)
        .finish()
}

/// Serve LSP on standard input and output until the client says `exit`;
/// `tables` is where the 4×4 sliding tables are kept between sessions,
/// `read_config` how a `lights.toml` is read (as `lights check` reads it).
/// The process should end with [`Ending::exit_status`].
pub fn run_stdio(
    tables: Option<Arc<dyn TableStore>>,
    read_config: lights_ide::config::ReadFn,
) -> std::io::Result<Ending> {
    // Before the runtime's threads exist (see `memory`).
    memory::bound_arenas();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let ending = runtime.block_on(async {
        let (service, socket) = service(Options { tables, read_config, ..Options::default() });
        transport::serve(tokio::io::stdin(), tokio::io::stdout(), service, socket).await
    });
    // Do not wait for solves still running: the client has gone.
    runtime.shutdown_timeout(Duration::from_millis(100));
    Ok(ending)
}
