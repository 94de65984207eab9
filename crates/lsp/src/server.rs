//! The language server: routes LSP messages to the features, keeps one
//! snapshot per open document, and publishes diagnostics as answers arrive.
//!
//! Ordering: notifications may run concurrently, so every document carries
//! the version the client gave it; an analysis or a publish for an older
//! version than the newest one received is dropped.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::lsp_types::*;
use tower_lsp_server::{Client, LanguageServer};

use lights_compiler::sliding_check::TableStore;
use lights_compiler::{BlockKey, SolveOptions};
use lights_ide::{AnalyzeFn, Answers, Outcome, SolveFn};
use lights_syntax::Span;

use crate::convert::{self, EditSupport, INSERT_SOLUTION};
use crate::engine::{Engine, PrepareFn, TablesEvent};
use crate::position::{Encoding, PositionMap};
use crate::project::Projects;
use crate::settings::Settings;
use crate::snapshot::{LensCache, Snapshot};

mod play;

/// What the server runs; tests swap the analysis, the solver or the
/// preparation of a solve.
#[derive(Clone)]
pub struct Options {
    pub analyze: AnalyzeFn,
    pub solve: SolveFn,
    /// Run before a solve, outside its time budget (the 4×4 sliding tables).
    pub prepare: PrepareFn,
    /// Where the 4×4 sliding tables are kept between sessions (the binary
    /// gives its cache file; `None`: built in memory when first needed).
    pub tables: Option<Arc<dyn TableStore>>,
    /// How long the first publish of a new version waits for its solves,
    /// so that fast answers arrive together with the syntax diagnostics.
    pub first_publish_wait: Duration,
    /// How a `lights.toml` is read: the binary gives the reader `lights
    /// check` uses (the file opened by the kernel, regular files only), so
    /// a FIFO swapped in cannot stall the server.
    pub read_config: lights_ide::config::ReadFn,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            analyze: lights_compiler::analyze,
            solve: lights_compiler::Block::solve_with,
            prepare: crate::engine::prepare_tables,
            tables: None,
            first_publish_wait: Duration::from_millis(300),
            read_config: lights_ide::config::read_file,
        }
    }
}

/// At most this many diagnostics are published per document.
const MAX_DIAGNOSTICS: usize = 500;
/// How long a request waits for the analysis of the newest version.
const SNAPSHOT_WAIT: Duration = Duration::from_secs(10);
/// At most this many document symbols are answered (then one for the rest).
const MAX_SYMBOLS: usize = 5_000;

pub struct Server {
    shared: Arc<Shared>,
}

/// The server's counters (see [`Server::stats`]).
#[derive(Clone)]
pub struct Stats(Arc<Shared>);

impl Stats {
    /// Solves started since the server began.
    pub fn solves_started(&self) -> u64 {
        self.0.engine.solves_started()
    }

    /// Solves running now (started, not yet finished, cancelled or timed out).
    pub fn solves_running(&self) -> usize {
        self.0.engine.solves_running()
    }

    /// Bytes of solver results the server holds (its cache).
    pub fn cache_bytes(&self) -> usize {
        self.0.engine.cache_bytes()
    }

    /// Documents open now (opened and not closed since).
    pub fn open_documents(&self) -> usize {
        lock(&self.0.docs).len()
    }

    /// Times code lenses were built (not answered from a version's cache).
    pub fn lens_builds(&self) -> u64 {
        self.0.lens_builds.load(Ordering::Relaxed)
    }
}

struct Doc {
    version: i32,
    /// The text of `version` (ranged changes apply to it).
    text: String,
    /// The snapshot of `version`, `None` while it is being analysed.
    current: watch::Sender<Option<Arc<Snapshot>>>,
    /// The newest snapshot built (for keeping its solves alive meanwhile).
    last: Option<Arc<Snapshot>>,
    /// Set while an analysis of this document runs (at most one does; see
    /// [`Shared::update`]). Its identity tells a reopened document apart.
    analysing: Arc<AtomicBool>,
}

#[derive(Clone, Default)]
struct Config {
    settings: Settings,
    encoding: Encoding,
    edits: EditSupport,
    snippets: bool,
    lens_refresh: bool,
    hint_refresh: bool,
    /// The client shows server-initiated work-done progress.
    work_done_progress: bool,
    /// The client takes `client/registerCapability` for watched files.
    watch_registration: bool,
}

struct Shared {
    client: Client,
    engine: Engine,
    options: Options,
    docs: Mutex<HashMap<Uri, Doc>>,
    config: Mutex<Config>,
    publish_lock: tokio::sync::Mutex<()>,
    /// The pattern-database build progress, until `initialized` forwards it.
    tables: Mutex<Option<mpsc::UnboundedReceiver<TablesEvent>>>,
    /// Times code lenses were built (see [`Shared::lenses`]).
    lens_builds: AtomicU64,
    /// The `lights.toml` of each document.
    projects: Projects,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Run a feature; a panic becomes a JSON-RPC error instead of a dead server.
fn guard<T>(what: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let mut e = Error::internal_error();
        e.message = format!("internal error in {what}: {}", panic_message(p)).into();
        e
    })
}

/// Run a feature on a blocking thread, off the message loop: a slow answer
/// (a large document's lenses, symbols or formatting) holds back no other
/// request. A panic becomes a JSON-RPC error, as in [`guard`].
async fn off_loop<T: Send + 'static>(what: &'static str, f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    match tokio::task::spawn_blocking(move || guard(what, f)).await {
        Ok(answer) => answer,
        Err(e) => {
            let mut err = Error::internal_error();
            err.message = format!("internal error in {what}: {e}").into();
            Err(err)
        }
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

impl Server {
    pub fn new(client: Client, options: Options) -> Server {
        let (tables_tx, tables_rx) = mpsc::unbounded_channel();
        let projects = Projects::new(options.read_config);
        Server {
            shared: Arc::new(Shared {
                client,
                engine: Engine::new(options.solve, options.prepare, options.tables.clone(), tables_tx),
                tables: Mutex::new(Some(tables_rx)),
                options,
                docs: Mutex::new(HashMap::new()),
                config: Mutex::new(Config::default()),
                publish_lock: tokio::sync::Mutex::new(()),
                lens_builds: AtomicU64::new(0),
                projects,
            }),
        }
    }

    /// A handle on the server's counters, which outlives handing the
    /// service to a transport (tests check the cache with it).
    pub fn stats(&self) -> Stats {
        Stats(self.shared.clone())
    }

    /// The connection to the client (for the layer around the service).
    pub(crate) fn client(&self) -> Client {
        self.shared.client.clone()
    }

    fn config(&self) -> Config {
        lock(&self.shared.config).clone()
    }

    /// The snapshot of the newest version of `uri`, waiting for its analysis.
    async fn snapshot(&self, uri: &Uri) -> Option<Arc<Snapshot>> {
        let mut rx = lock(&self.shared.docs).get(uri)?.current.subscribe();
        let ready = tokio::time::timeout(SNAPSHOT_WAIT, rx.wait_for(Option::is_some)).await;
        match ready {
            Ok(Ok(snap)) => snap.clone(),
            _ => None,
        }
    }
}

impl Doc {
    fn new(version: i32, text: String) -> Doc {
        Doc { version, text, current: watch::channel(None).0, last: None, analysing: Arc::default() }
    }

    /// Version `version` has `text`; its snapshot is on its way.
    fn renew(&mut self, version: i32, text: String) {
        self.version = version;
        self.text = text;
        self.current.send_replace(None);
    }
}

/// Apply one change of `textDocument/didChange` to `text`: the whole text,
/// or a range of it (positions in the negotiated encoding). The server asks
/// for whole texts, but takes ranges from a client that sends them anyway.
fn apply_change(text: &mut String, change: TextDocumentContentChangeEvent, encoding: Encoding) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let map = PositionMap::new(text, encoding);
            let start = map.offset(text, range.start);
            let end = map.offset(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

impl Shared {
    /// The `lights.toml` of `uri` (`None`: the defaults). A bad one is
    /// shown to the user, as `lights check` reports it, once until it changes.
    fn project(&self, uri: &Uri) -> Option<Arc<lights_ide::config::Config>> {
        let (config, error) = self.projects.for_uri(uri);
        if let Some(e) = error {
            let client = self.client.clone();
            tokio::spawn(async move {
                let message = format!("lights: error: {e} (the defaults apply until it is fixed)");
                client.show_message(MessageType::ERROR, message).await;
            });
        }
        config
    }

    /// How long a solve for `uri` may take: `time-budget-ms` of its
    /// `lights.toml`, else the editor's setting.
    fn time_budget(&self, uri: &Uri) -> Duration {
        let setting = lock(&self.config).settings.time_budget;
        self.project(uri).and_then(|c| c.time_budget).unwrap_or(setting)
    }

    /// How the blocks of `uri` are solved: `minimum-budget` of its
    /// lights.toml, else the editor's `lights.solver.minimumBudget`, else
    /// the default (the precedence of the time budget).
    fn solve_options(&self, uri: &Uri) -> SolveOptions {
        let setting = lock(&self.config).settings.minimum_budget;
        self.project(uri)
            .and_then(|c| c.minimum_budget)
            .or(setting)
            .map_or_else(SolveOptions::default, |b| b.solve_options())
    }

    /// Analyse again every open document whose solve options (minimum
    /// budget) are no longer those its snapshot was built with, then solve
    /// and publish it; returns their URIs.
    async fn renew_changed_options(self: Arc<Self>) -> Vec<Uri> {
        let snaps: Vec<Arc<Snapshot>> = lock(&self.docs).values().filter_map(|d| d.current.borrow().clone()).collect();
        let changed: Vec<Uri> =
            snaps.iter().filter(|s| self.solve_options(&s.uri) != *s.doc.options()).map(|s| s.uri.clone()).collect();
        for uri in &changed {
            tokio::spawn(self.clone().update(uri.clone()));
        }
        changed
    }

    /// Analyse the newest version of `uri`, then solve what changed and
    /// publish. At most one analysis of a document runs at a time: when one
    /// ends and newer text has arrived meanwhile, the newest is analysed
    /// next, so versions typed over while an analysis ran never are
    /// (coalescing; six quick edits of a slow document cost two analyses).
    async fn update(self: Arc<Self>, uri: Uri) {
        let flag = {
            let docs = lock(&self.docs);
            let Some(d) = docs.get(&uri) else { return };
            if d.analysing.swap(true, Ordering::SeqCst) {
                return; // the running analysis takes the newest text when it ends
            }
            d.analysing.clone()
        };
        loop {
            let (version, text) = {
                let docs = lock(&self.docs);
                match docs.get(&uri) {
                    Some(d) if Arc::ptr_eq(&d.analysing, &flag) => (d.version, d.text.clone()),
                    _ => return, // closed, or reopened (its own analysis runs)
                }
            };
            let encoding = lock(&self.config).encoding;
            let analyze = self.options.analyze;
            let target = uri.clone();
            let options = self.solve_options(&uri);
            let built =
                tokio::task::spawn_blocking(move || Snapshot::build(target, version, text, encoding, analyze, options))
                    .await;
            // The minimum budget changed meanwhile (a lights.toml or a
            // setting): analyse again under the new one.
            let options_changed = self.solve_options(&uri) != options;
            let snap = {
                let mut docs = lock(&self.docs);
                let Some(d) = docs.get_mut(&uri).filter(|d| Arc::ptr_eq(&d.analysing, &flag)) else { return };
                let Ok(snap) = built else {
                    flag.store(false, Ordering::SeqCst);
                    return;
                };
                if d.version != version || options_changed {
                    continue; // newer text arrived: analyse that instead
                }
                flag.store(false, Ordering::SeqCst);
                let snap = Arc::new(snap);
                d.current.send_replace(Some(snap.clone()));
                d.last = Some(snap.clone());
                snap
            };
            // Solving goes on in its own task: the server is free for the
            // next message.
            tokio::spawn(self.solve_and_publish(snap));
            return;
        }
    }

    /// Start (or join) the solves of a snapshot; publish once they are done
    /// or after a short wait, whichever is first, and again when the slow
    /// ones finish.
    async fn solve_and_publish(self: Arc<Self>, snap: Arc<Snapshot>) {
        let budget = self.time_budget(&snap.uri);
        let mut slots = Vec::new();
        for i in 0..snap.doc.block_count() {
            if let (Some(block), Some(key)) = (snap.doc.block(i), snap.doc.key(i)) {
                slots.push(self.engine.ensure(key, block, snap.doc.options(), budget));
            }
        }
        self.retain();
        let all = futures_join(slots);
        tokio::pin!(all);
        let quick = tokio::time::timeout(self.options.first_publish_wait, &mut all).await.is_ok();
        self.publish(&snap.uri, snap.version).await;
        if !quick {
            all.await;
            if self.publish(&snap.uri, snap.version).await {
                self.refresh().await;
            }
        }
    }

    /// Wait for a snapshot's solves as its first publish does (at most
    /// `first_publish_wait`), so a code lens or inlay hint asked for right
    /// after an edit says what the diagnostics say instead of "solving…".
    async fn settle(&self, snap: &Snapshot) {
        let budget = self.time_budget(&snap.uri);
        let slots: Vec<_> = (0..snap.doc.block_count())
            .filter_map(|i| Some(self.engine.ensure(snap.doc.key(i)?, snap.doc.block(i)?, snap.doc.options(), budget)))
            .collect();
        // Closed meanwhile (its close cancelled what it wanted before these
        // solves started): cancel them too, no solve runs for a closed document.
        if !lock(&self.docs).contains_key(&snap.uri) {
            self.retain();
        }
        let _ = tokio::time::timeout(self.options.first_publish_wait, futures_join(slots)).await;
    }

    /// The code lenses of a snapshot, built once per version and per set
    /// of answers (a request while nothing changed is answered from the
    /// cache). Blocking: run it off the loop. Concurrent requests for one
    /// snapshot wait for the first to build.
    fn lenses(&self, snap: &Snapshot) -> Vec<CodeLens> {
        let answers: Vec<_> =
            (0..snap.doc.block_count()).map(|i| snap.doc.key(i).and_then(|k| self.engine.outcome(&k))).collect();
        let mut cache = lock(&snap.lenses);
        if let Some(cached) = cache.as_ref().filter(|c| c.is_for(&answers)) {
            return cached.lenses.clone();
        }
        self.lens_builds.fetch_add(1, Ordering::Relaxed);
        let lenses: Vec<CodeLens> =
            lights_ide::lenses(&snap.doc, &self.engine).iter().map(|l| convert::lens(snap, l)).collect();
        *cache = Some(LensCache { answers, lenses: lenses.clone() });
        lenses
    }

    /// Cancel solves that no open document wants.
    fn retain(&self) {
        let docs = lock(&self.docs);
        let wanted: HashSet<BlockKey> =
            docs.values().filter_map(|d| d.last.as_ref()).flat_map(|s| s.doc.keys()).collect();
        drop(docs);
        self.engine.retain(&wanted);
    }

    /// Publish the diagnostics of `version` if it is still the newest; true when published.
    async fn publish(&self, uri: &Uri, version: i32) -> bool {
        let _serial = self.publish_lock.lock().await;
        let snap = {
            let docs = lock(&self.docs);
            match docs.get(uri) {
                Some(d) if d.version == version => d.current.borrow().clone(),
                _ => None,
            }
        };
        let Some(snap) = snap else { return false };
        // `[severity]` of its lights.toml, as `lights check` applies it.
        let project = self.project(uri);
        let problems = catch_unwind(AssertUnwindSafe(|| {
            lights_ide::config::apply_problems(project.as_deref(), lights_ide::diagnostics(&snap.doc, &self.engine))
        }));
        let diags = match problems {
            // Only those published are converted (a file may have a million).
            Ok(problems) => {
                let more = problems.len().saturating_sub(MAX_DIAGNOSTICS - 1);
                let shown = if more > 1 { MAX_DIAGNOSTICS - 1 } else { problems.len() };
                let mut diags: Vec<_> = problems[..shown].iter().map(|p| convert::diagnostic(&snap, p)).collect();
                if more > 1 {
                    diags.push(Diagnostic {
                        range: Range::default(),
                        severity: Some(DiagnosticSeverity::INFORMATION),
                        source: Some("lights".into()),
                        message: format!("{more} more problems are not shown; `lights check` lists them all"),
                        ..Default::default()
                    });
                }
                diags
            }
            Err(p) => vec![Diagnostic {
                range: Range::default(),
                severity: Some(DiagnosticSeverity::ERROR),
                code: Some(NumberOrString::String("L0302".into())),
                source: Some("lights".into()),
                message: format!("internal error while analysing this file: {}", panic_message(p)),
                ..Default::default()
            }],
        };
        self.client.publish_diagnostics(uri.clone(), diags, Some(version)).await;
        true
    }

    /// Ask the client to re-request code lenses and inlay hints (answers changed).
    async fn refresh(&self) {
        let config = lock(&self.config).clone();
        if config.lens_refresh && config.settings.code_lens {
            let _ = self.client.code_lens_refresh().await;
        }
        if config.hint_refresh && config.settings.inlay_hints {
            let _ = self.client.inlay_hint_refresh().await;
        }
    }
}

/// Wait until every slot has an answer (or its work was cancelled).
async fn futures_join(slots: Vec<watch::Receiver<Option<Arc<Outcome>>>>) {
    for mut rx in slots {
        let _ = rx.wait_for(Option::is_some).await;
    }
}

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

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let caps = &params.capabilities;
        let encoding = Encoding::negotiate(caps.general.as_ref().and_then(|g| g.position_encodings.as_deref()));
        let mut settings = Settings::default();
        if let Some(options) = &params.initialization_options {
            settings.apply(options);
        }
        self.shared.engine.set_budget(settings.cache_budget);
        let workspace = caps.workspace.as_ref();
        let text = caps.text_document.as_ref();
        *lock(&self.shared.config) = Config {
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
            hint_refresh: workspace
                .and_then(|w| w.inlay_hint.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
            work_done_progress: caps.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false),
            watch_registration: workspace
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|c| c.dynamic_registration)
                .unwrap_or(false),
        };
        // Untitled documents take the workspace root's lights.toml.
        #[allow(deprecated)] // `root_uri`: older clients send only it
        let root = params
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .map(|f| f.uri.clone())
            .or_else(|| params.root_uri.clone());
        self.shared.projects.set_root(root.as_ref().and_then(crate::project::file_path));
        Ok(InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo { name: "lights".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let config = self.config();
        if let Some(events) = lock(&self.shared.tables).take() {
            tokio::spawn(crate::tables::forward(self.shared.client.clone(), config.work_done_progress, events));
        }
        if config.watch_registration {
            // Not awaited here: the client answers while other messages wait.
            let client = self.shared.client.clone();
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

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        {
            let mut docs = lock(&self.shared.docs);
            match docs.get_mut(&doc.uri) {
                Some(d) if d.version >= doc.version => return, // an older version arriving late
                Some(d) => d.renew(doc.version, doc.text),
                None => {
                    docs.insert(doc.uri.clone(), Doc::new(doc.version, doc.text));
                }
            }
        }
        // Not awaited: notifications are handled in order, and one waiting
        // for an analysis would hold back every message behind it (edits,
        // hovers, `$/cancelRequest`).
        tokio::spawn(self.shared.clone().update(doc.uri));
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        if params.content_changes.is_empty() {
            return;
        }
        let doc = params.text_document;
        let encoding = lock(&self.shared.config).encoding;
        // Applied before anything is awaited: changes are taken in the order they arrive.
        let text = {
            let mut docs = lock(&self.shared.docs);
            match docs.get_mut(&doc.uri) {
                None => None,
                Some(d) if d.version >= doc.version => return, // an older version arriving late
                Some(d) => {
                    let mut text = std::mem::take(&mut d.text);
                    for change in params.content_changes {
                        apply_change(&mut text, change, encoding);
                    }
                    d.renew(doc.version, text);
                    Some(())
                }
            }
        };
        match text {
            Some(()) => drop(tokio::spawn(self.shared.clone().update(doc.uri))),
            None => {
                let message = format!(
                    "lights: ignored textDocument/didChange of {} (version {}): the document is not open",
                    doc.uri.as_str(),
                    doc.version
                );
                self.shared.client.log_message(MessageType::WARNING, message).await;
            }
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        lock(&self.shared.docs).remove(&uri);
        // The closed document's results go (and those of its older
        // versions): everything no open document wants is dropped.
        let wanted: HashSet<BlockKey> = {
            let docs = lock(&self.shared.docs);
            docs.values().filter_map(|d| d.last.as_ref()).flat_map(|s| s.doc.keys()).collect()
        };
        self.shared.engine.keep_only(&wanted);
        self.shared.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let (before, after) = {
            let mut config = lock(&self.shared.config);
            let before = config.settings.clone();
            config.settings.apply(&params.settings);
            (before, config.settings.clone())
        };
        if before.cache_budget != after.cache_budget {
            self.shared.engine.set_budget(after.cache_budget);
            self.shared.retain();
        }
        if before.minimum_budget != after.minimum_budget {
            // The documents' keys follow their minimum budget: analysed again
            // (those under a lights.toml that sets one keep theirs).
            self.shared.clone().renew_changed_options().await;
        }
        if before.time_budget != after.time_budget {
            self.shared.engine.forget_timeouts();
            let snaps: Vec<Arc<Snapshot>> =
                lock(&self.shared.docs).values().filter_map(|d| d.current.borrow().clone()).collect();
            for snap in snaps {
                tokio::spawn(self.shared.clone().solve_and_publish(snap));
            }
        }
        if before != after {
            self.shared.refresh().await;
        }
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        if !params.changes.iter().any(|c| crate::project::is_config(&c.uri)) {
            return;
        }
        // Read them again; solve again what ran out of a budget and the
        // documents whose budget changed (an answer found within 10 s may
        // not be within `time-budget-ms = 1`, as on the command line);
        // publish every open document under the new policy.
        let snaps: Vec<Arc<Snapshot>> =
            lock(&self.shared.docs).values().filter_map(|d| d.current.borrow().clone()).collect();
        let before: Vec<Duration> = snaps.iter().map(|s| self.shared.time_budget(&s.uri)).collect();
        self.shared.projects.reload();
        // A document whose minimum budget changed is analysed again (its
        // keys follow the budget), then solved and published.
        let renewed = self.shared.clone().renew_changed_options().await;
        let snaps: Vec<Arc<Snapshot>> = snaps.into_iter().filter(|s| !renewed.contains(&s.uri)).collect();
        let changed: HashSet<BlockKey> = snaps
            .iter()
            .zip(before)
            .filter(|(s, budget)| self.shared.time_budget(&s.uri) != *budget)
            .flat_map(|(s, _)| s.doc.keys())
            .collect();
        self.shared.engine.forget(&changed);
        self.shared.engine.forget_timeouts();
        for snap in snaps {
            tokio::spawn(self.shared.clone().solve_and_publish(snap));
        }
        self.shared.refresh().await;
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        if !self.config().settings.code_lens {
            return Ok(Some(Vec::new()));
        }
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        self.shared.settle(&snap).await;
        let shared = self.shared.clone();
        off_loop("code lens", move || Some(shared.lenses(&snap))).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        if !self.config().settings.inlay_hints {
            return Ok(Some(Vec::new()));
        }
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        self.shared.settle(&snap).await;
        let lines = params.range.start.line as usize..=params.range.end.line as usize;
        let shared = self.shared.clone();
        off_loop("inlay hints", move || {
            let hints = lights_ide::inlay_hints(&snap.doc, &shared.engine, lines);
            Some(hints.iter().map(|h| convert::inlay_hint(&snap, h)).collect())
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        let config = self.config();
        let shared = self.shared.clone();
        let budget = self.shared.time_budget(&params.text_document.uri);
        // Finding the smallest fix solves a system: off the runtime, within the budget.
        let work = tokio::task::spawn_blocking(move || {
            let deadline = Instant::now() + budget;
            let cancel = || Instant::now() >= deadline;
            let text = snap.doc.text();
            let span = Span::new(snap.map.offset(text, params.range.start), snap.map.offset(text, params.range.end));
            let actions = lights_ide::code_actions(&snap.doc, &shared.engine, span, &cancel);
            let context = &params.context.diagnostics;
            actions.iter().map(|a| convert::action(&snap, a, context, config.edits)).collect()
        })
        .await;
        match work {
            Ok(list) => Ok(Some(list)),
            Err(e) => {
                let mut err = Error::internal_error();
                err.message = format!("internal error in code actions: {e}").into();
                Err(err)
            }
        }
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        if params.command != INSERT_SOLUTION {
            return Err(Error::invalid_params(format!("unknown command `{}`", params.command)));
        }
        let (uri, index) = match params.arguments.as_slice() {
            [Value::String(uri), index] => (Uri::from_str(uri).ok(), index.as_u64()),
            _ => (None, None),
        };
        let (Some(uri), Some(index)) = (uri, index) else {
            return Err(Error::invalid_params("expected [uri, puzzle index]"));
        };
        let not_open = || Error::invalid_params(format!("unknown document {}: it is not open", uri.as_str()));
        if !lock(&self.shared.docs).contains_key(&uri) {
            return Err(not_open());
        }
        let Some(snap) = self.snapshot(&uri).await else {
            // Closed meanwhile, or still being analysed after a long wait.
            return if lock(&self.shared.docs).contains_key(&uri) { Ok(None) } else { Err(not_open()) };
        };
        let count = snap.doc.block_count();
        if index >= count as u64 {
            return Err(Error::invalid_params(format!(
                "unknown puzzle {index} in {}: it has {count} block{} (numbered from 0)",
                uri.as_str(),
                if count == 1 { "" } else { "s" }
            )));
        }
        let support = self.config().edits;
        let edit = guard("insert solution", || {
            let edits = lights_ide::insert_solution(&snap.doc, &self.shared.engine, index as usize)?;
            Some(convert::workspace_edit(&snap, &edits, support))
        })?;
        if let Some(edit) = edit {
            let _ = self.shared.client.apply_edit(edit).await;
        }
        Ok(None)
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        let Some(snap) = self.snapshot(&p.text_document.uri).await else { return Ok(None) };
        guard("hover", || {
            let offset = snap.map.offset(snap.doc.text(), p.position);
            lights_ide::hover(&snap.doc, &self.shared.engine, offset).map(|h| convert::hover(&snap, &h))
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        let Some(snap) = self.snapshot(&p.text_document.uri).await else { return Ok(None) };
        let snippets = self.config().snippets;
        guard("completion", || {
            let offset = snap.map.offset(snap.doc.text(), p.position);
            let items = lights_ide::completion(&snap.doc, offset, snippets);
            Some(CompletionResponse::Array(items.iter().map(convert::completion).collect()))
        })
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        off_loop("document symbols", move || {
            let symbols = lights_ide::symbols_at_most(&snap.doc, MAX_SYMBOLS);
            Some(DocumentSymbolResponse::Nested(symbols.iter().map(|s| convert::symbol(&snap, s)).collect()))
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        off_loop("folding ranges", move || {
            Some(lights_ide::folding_ranges(&snap.doc).iter().map(convert::folding_range).collect())
        })
        .await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        // One edit of the lines that change, not the whole text.
        let edit = off_loop("formatting", move || {
            lights_ide::format_edit(&snap.doc)
                .map(|edit| edit.map(|e| TextEdit { range: snap.map.range(snap.doc.text(), e.span), new_text: e.text }))
        })
        .await?;
        match edit {
            Ok(None) => Ok(Some(Vec::new())),
            Ok(Some(edit)) => Ok(Some(vec![edit])),
            Err(reason) => {
                self.shared.client.show_message(MessageType::WARNING, format!("lights: not formatted: {reason}")).await;
                Ok(None)
            }
        }
    }
}
