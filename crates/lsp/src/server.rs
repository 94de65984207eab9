//! The language server: routes LSP messages to their handlers (one module
//! each, under `requests/` and `notifications/`), keeps one snapshot per
//! open document, and schedules the work: when a version is analysed,
//! solved and published. What is said, and every limit on it (the time
//! budget, the caps, the fallback for a crash), comes from `lights_ide`;
//! this module and its handlers only convert and schedule.
//!
//! Ordering: notifications may run concurrently, so every document carries
//! the version the client gave it; an analysis or a publish for an older
//! version than the newest one received is dropped.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::lsp_types::*;
use tower_lsp_server::{Client, LanguageServer};

use lights_compiler::sliding_check::TableStore;
use lights_compiler::{BlockKey, SolveOptions};
use lights_ide::limits::{self, panic_message};
use lights_ide::{AnalyzeFn, Outcome, SolveFn};

use crate::convert::{self, EditSupport};
use crate::engine::{Engine, PrepareFn, TablesEvent};
use crate::position::Encoding;
use crate::project::Projects;
use crate::settings::Settings;
use crate::snapshot::Snapshot;

mod notifications;
mod requests;

pub(crate) use requests::{board, lights_edit, solve_from};

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

/// How long a request waits for the analysis of the newest version.
const SNAPSHOT_WAIT: Duration = Duration::from_secs(10);

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
    /// Times code lenses were built (see `requests::code_lens`).
    lens_builds: AtomicU64,
    /// The `lights.toml` of each document.
    projects: Projects,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
            .map_or_else(SolveOptions::default, lights_compiler::MinimumBudget::solve_options)
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
        let problems = limits::problems_or_internal_error(|| {
            lights_ide::config::apply_problems(project.as_deref(), lights_ide::diagnostics(&snap.doc, &self.engine))
        });
        // Only those published are converted (a file may have a million).
        let capped = limits::cap(problems);
        let mut diags: Vec<_> = capped.shown.iter().map(|p| convert::diagnostic(&snap, p)).collect();
        diags.extend(capped.note().map(convert::note_on_the_file));
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

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        requests::initialize(self, params).await
    }

    async fn initialized(&self, params: InitializedParams) {
        notifications::initialized(self, params).await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        notifications::did_open(self, params).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        notifications::did_change(self, params).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        notifications::did_close(self, params).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        notifications::did_change_configuration(self, params).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        notifications::did_change_watched_files(self, params).await;
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        requests::code_lens(self, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        requests::inlay_hint(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        requests::code_action(self, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        requests::execute_command(self, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        requests::hover(self, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        requests::completion(self, params).await
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        requests::document_symbol(self, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        requests::folding_range(self, params).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        requests::formatting(self, params).await
    }
}
