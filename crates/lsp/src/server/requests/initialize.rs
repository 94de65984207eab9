//! `initialize`: what the client can do (kept in the server's `Config`),
//! the settings it starts with, the workspace root, and what the server
//! offers.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::*;

use crate::convert::{EditSupport, INSERT_SOLUTION};
use crate::position::Encoding;
use crate::server::{lock, Config, Server};
use crate::settings::Settings;

pub(crate) async fn initialize(server: &Server, params: InitializeParams) -> Result<InitializeResult> {
    let caps = &params.capabilities;
    let encoding = Encoding::negotiate(caps.general.as_ref().and_then(|g| g.position_encodings.as_deref()));
    let mut settings = Settings::default();
    if let Some(options) = &params.initialization_options {
        settings.apply(options);
    }
    server.shared.engine.set_budget(settings.cache_budget);
    *lock(&server.shared.config) = client_config(caps, settings, encoding);
    // Untitled documents take the workspace root's lights.toml.
    #[allow(deprecated)] // `root_uri`: older clients send only it
    let root = params
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .map(|f| f.uri.clone())
        .or_else(|| params.root_uri.clone());
    server.shared.projects.set_root(root.as_ref().and_then(crate::project::file_path));
    Ok(InitializeResult {
        capabilities: capabilities(encoding),
        server_info: Some(ServerInfo { name: "lights".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
    })
}

/// What the client said it can do, with its starting settings.
fn client_config(caps: &ClientCapabilities, settings: Settings, encoding: Encoding) -> Config {
    let workspace = caps.workspace.as_ref();
    let text = caps.text_document.as_ref();
    Config {
        settings,
        encoding,
        edits: EditSupport {
            document_changes: workspace
                .and_then(|w| w.workspace_edit.as_ref())
                .and_then(|e| e.document_changes)
                .unwrap_or(false),
        },
        snippets: text
            .and_then(|t| t.completion.as_ref())
            .and_then(|c| c.completion_item.as_ref())
            .and_then(|i| i.snippet_support)
            .unwrap_or(false),
        lens_refresh: workspace.and_then(|w| w.code_lens.as_ref()).and_then(|c| c.refresh_support).unwrap_or(false),
        hint_refresh: workspace.and_then(|w| w.inlay_hint.as_ref()).and_then(|c| c.refresh_support).unwrap_or(false),
        work_done_progress: caps.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false),
        watch_registration: workspace
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|c| c.dynamic_registration)
            .unwrap_or(false),
    }
}

/// What the server offers.
fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            ..Default::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into()]),
            ..Default::default()
        }),
        code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::REFACTOR_REWRITE]),
            ..Default::default()
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![INSERT_SOLUTION.to_string()],
            ..Default::default()
        }),
        ..Default::default()
    }
}
