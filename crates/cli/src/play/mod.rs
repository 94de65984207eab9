//! `lights play`: a local web server for play-testing one file's puzzles.
//!
//! It serves the board view (editors/play, embedded in the binary) and the
//! JSON API of docs/play.md on 127.0.0.1, and re-reads the file when it
//! changes. What the API answers is `lights_ide::play`'s plain data, the
//! same the language server gives the editor (`lights/board`, …); this
//! module only transports it and keeps the file's answers cached by block.

mod connections;
mod guard;
mod pool;
mod served;

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Args as ClapArgs;
// How long one solve may take: the editor's default budget.
use lights_ide::limits::{StopOnDrop, TIME_BUDGET};
use lights_ide::play::{self, PlayError};
use lights_ide::Document;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::{files, EXIT_OK, EXIT_USAGE};
use served::{read, Loaded, Served, WriteRefused};

#[derive(ClapArgs)]
#[command(
    about = "Play the puzzles of a file in the browser (a local web server)",
    long_about = "Serve a page on which the puzzles of FILE are played: click a cell to press its button \
        (right-click or Shift+click undoes a press), ask for a hint (the next press of a minimum solution from \
        where you are), show or step through the solution, watch the light chase on plane boards, and edit the \
        lights by clicking, then write them back into the file as the puzzle's `lights` statement (with \
        --read-only: copy it). The page fills the window, remembers the levels you solved and marks a win \
        with the presses against the minimum and a next-level button. Press patterns, \
        solutions and the `lights` text come from the same solver as `lights solve` and the editor.\n\n\
        The server listens on 127.0.0.1 only (--port N, else a free port), prints its address, opens it in \
        the browser (unless --no-open) and runs until Ctrl-C. It re-reads FILE whenever it changes: the page \
        follows within a second, so the file can be edited beside it. A file that cannot be read or has \
        errors is served all the same: the page lists what is wrong with each puzzle. Boards of more than \
        65,536 cells and sliding blocks are listed but not played.\n\n\
        The page's JSON API (GET /api/puzzles, GET /api/puzzle/N, POST /api/puzzle/N/solve, POST \
        /api/puzzle/N/lights, POST /api/puzzle/N/write, GET /api/version) is described in docs/play.md.",
    after_help = "Examples:\n  \
        lights play examples/level-pack.lights\n  \
        lights play examples/level-pack.lights --puzzle \"four corners\"   # open on that puzzle\n  \
        lights play pack.lights --port 8080 --no-open   # then open http://127.0.0.1:8080/\n  \
        curl http://127.0.0.1:8080/api/puzzles"
)]
pub(crate) struct Args {
    /// The `.lights` file to play (it is re-read when it changes)
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The puzzle the page opens on (default: the first)
    #[arg(long, value_name = "NAME")]
    puzzle: Option<String>,
    /// The port on 127.0.0.1 to listen on (0: any free port) [default: a free port]
    #[arg(long, value_name = "N", default_value_t = 0, hide_default_value = true)]
    port: u16,
    /// Do not open a browser; only print the address
    #[arg(long)]
    no_open: bool,
    /// The page may not write the file ("Write back" then offers the statement to copy)
    #[arg(long)]
    read_only: bool,
    /// The time a request's headers may take to arrive, in milliseconds (for tests)
    #[arg(long, hide = true, value_name = "MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    header_timeout_ms: u64,
    /// The connections open at once (for tests)
    #[arg(long, hide = true, value_name = "N", default_value_t = 128,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_connections: u64,
    #[command(flatten)]
    minimum_budget: crate::budget::MinimumBudgetArg,
}

/// The board view, built from editors/play: the crate's copies under
/// `assets/play/` (a published crate cannot reach outside its folder;
/// `tests/packaging/sync-assets` refreshes them and a test fails when one is
/// stale).
const INDEX_HTML: &str = include_str!("../../assets/play/index.html");
const BOARD_JS: &str = include_str!("../../assets/play/board.js");
const BOARD_CSS: &str = include_str!("../../assets/play/board.css");

/// How often the file is looked at for changes.
const POLL: Duration = Duration::from_millis(500);
/// Threads for blocking work besides the solves of the pool (see `run`).
const BLOCKING_THREADS_BESIDE_SOLVES: usize = 8;
/// After Ctrl-C, how long requests still running may take to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// `GET /api/puzzles`.
#[derive(Serialize)]
struct PuzzleList {
    file: String,
    version: u64,
    /// The block the page opens on (`--puzzle NAME`), else null.
    start: Option<usize>,
    /// Why the file could not be read (its puzzles are then none), or its
    /// first error outside every puzzle; else null.
    error: Option<String>,
    puzzles: Vec<play::PuzzleEntry>,
    /// `--read-only`: "Write back" offers the statement instead of writing.
    read_only: bool,
}

/// The body of `POST /api/puzzle/N/solve` and `…/lights`.
#[derive(Deserialize)]
struct Position {
    lights: Vec<u32>,
    /// The version of the file the position is for: when given and the file
    /// has moved on since, the answer is 409 (the page loads the board again).
    #[serde(default)]
    version: Option<u64>,
}

/// An answer with the version of the file it was computed from.
#[derive(Serialize)]
struct Versioned<T: Serialize> {
    version: u64,
    #[serde(flatten)]
    answer: T,
}

type Shared = Arc<Served>;

/// A JSON error: `{"error": message}` with its status.
struct Failure {
    status: StatusCode,
    message: String,
    /// `Retry-After`, in seconds, for a 503 of a busy server.
    retry_after: Option<u32>,
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(json!({ "error": self.message }))).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

fn error(status: StatusCode, message: impl Into<String>) -> Failure {
    Failure { status, message: message.into(), retry_after: None }
}

/// What a handler answers: JSON, or a JSON error.
type Answer = Result<Response, Failure>;

/// A JSON answer that is never cached (the file may change any time).
fn answer(value: impl Serialize) -> Answer {
    let mut response = Json(value).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Run blocking work (reading, analysing, solving) off the runtime.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, Failure> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error: {e}")))
}

/// The block index of a path, or a 400/404 answer.
fn block_index(path: Result<Path<String>, PathRejection>, doc: &Document) -> Result<usize, Failure> {
    let Path(text) =
        path.map_err(|e| error(StatusCode::BAD_REQUEST, format!("not a puzzle index: {}", e.body_text())))?;
    let not_an_index = || error(StatusCode::BAD_REQUEST, format!("`{text}` is not a puzzle index (0, 1, 2, …)"));
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(not_an_index());
    }
    let index: usize = text.parse().map_err(|_| not_an_index())?;
    let count = doc.block_count();
    if index >= count {
        return Err(error(StatusCode::NOT_FOUND, PlayError::NoPuzzle { index, count }.to_string()));
    }
    Ok(index)
}

/// The position a POST carries: JSON (`Content-Type: application/json`; a
/// form or plain text, which another site's page could send without asking,
/// is refused), for the file's current version when it names one.
fn position(headers: &HeaderMap, body: Result<Bytes, BytesRejection>, version: u64) -> Result<Position, Failure> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be JSON (Content-Type: application/json)",
        ));
    }
    let body = body.map_err(|e| error(e.status(), e.body_text()))?;
    let position: Position = serde_json::from_slice(&body).map_err(|e| {
        error(StatusCode::BAD_REQUEST, format!("the body must be {{\"lights\": [one number per cell]}}: {e}"))
    })?;
    match position.version {
        Some(v) if v != version => Err(error(
            StatusCode::CONFLICT,
            format!("the file changed: the position is for version {v}, the file is at version {version} (load the board again)"),
        )),
        _ => Ok(position),
    }
}

fn play_error(e: PlayError) -> Failure {
    let status = match e {
        PlayError::NoPuzzle { .. } => StatusCode::NOT_FOUND,
        PlayError::NotPlayable(_) | PlayError::BadLights(_) => StatusCode::BAD_REQUEST,
        PlayError::Stopped | PlayError::Failed(_) => StatusCode::SERVICE_UNAVAILABLE,
    };
    let message = match e {
        PlayError::Stopped => format!("not solved within {}", lights_ide::duration(TIME_BUDGET)),
        e => e.to_string(),
    };
    error(status, message)
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

async fn board_js() -> Response {
    asset("text/javascript; charset=utf-8", BOARD_JS)
}

async fn board_css() -> Response {
    asset("text/css; charset=utf-8", BOARD_CSS)
}

async fn version(State(served): State<Shared>) -> Answer {
    let s = served.clone();
    blocking(move || s.refresh(false)).await?;
    answer(json!({ "version": served.current().1 }))
}

/// The list answers at once with the answers known; the blocks not solved
/// yet are solved in the background, one at a time (their `status` says
/// so until then), so a file of many slow puzzles never holds the page up.
async fn puzzles(State(served): State<Shared>) -> Answer {
    let list = blocking(move || {
        served.refresh(false);
        let (doc, version) = served.current();
        let error = served.file_error(&doc);
        let known = served.known(&doc);
        let start = served
            .start
            .as_deref()
            .and_then(|name| doc.analysis().blocks.iter().position(|p| p.name.as_deref() == Some(name)));
        let puzzles = play::puzzles(&doc, &known);
        served.solve_in_background();
        PuzzleList { file: served.shown.clone(), version, start, error, puzzles, read_only: served.read_only }
    })
    .await?;
    answer(list)
}

async fn board(State(served): State<Shared>, index: Result<Path<String>, PathRejection>) -> Answer {
    // A board whose block must be solved first takes a turn of the pool.
    let unsolved = match &index {
        Ok(Path(text)) => text.parse().is_ok_and(|i| served.needs_solving(i)),
        Err(_) => false,
    };
    let shared = served.clone();
    let _turn = if unsolved { Some(shared.pool.turn().await?) } else { None };
    let board = blocking(move || {
        served.refresh(false);
        let (doc, version) = served.current();
        let i = block_index(index, &doc)?;
        let known = served.answers(&doc, std::iter::once(i));
        play::board(&doc, i, &known, version as i64).ok_or_else(|| error(StatusCode::NOT_FOUND, "no such puzzle"))
    })
    .await??;
    answer(board)
}

/// What a POST to `/api/puzzle/N/…` names: the document served now, its
/// version, the block and the position.
struct Posted {
    doc: Arc<Document>,
    version: u64,
    index: usize,
    position: Position,
}

fn posted(
    served: &Served,
    index: Result<Path<String>, PathRejection>,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Posted, Failure> {
    let (doc, version) = served.current();
    let position = position(headers, body, version)?;
    let index = block_index(index, &doc)?;
    Ok(Posted { doc, version, index, position })
}

async fn solve(
    State(served): State<Shared>,
    index: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let Posted { doc, version, index: i, position } = posted(&served, index, &headers, body)?;
    let _turn = served.pool.turn().await?;
    // A request whose client went away is dropped, which stops its solve.
    let (_stop_on_drop, stop) = StopOnDrop::new();
    let result = blocking(move || {
        let deadline = Instant::now() + TIME_BUDGET;
        let stopped = || stop.load(Ordering::Relaxed) || Instant::now() >= deadline;
        play::solve_from(&doc, i, &position.lights, &stopped).map_err(play_error)
    })
    .await??;
    answer(Versioned { version, answer: result })
}

async fn lights(
    State(served): State<Shared>,
    index: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    let Posted { doc, version, index, position } = posted(&served, index, &headers, body)?;
    answer(Versioned { version, answer: play::lights_text(&doc, index, &position.lights).map_err(play_error)? })
}

/// `POST /api/puzzle/N/write`: the position written into the file as the
/// puzzle's `lights` (the edit `lights_ide::play::lights_edit` makes), if
/// the file is still at the version the position was played on (409
/// otherwise). The answer: the new version and a message.
async fn write(
    State(served): State<Shared>,
    index: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Answer {
    if served.read_only {
        return Err(error(
            StatusCode::FORBIDDEN,
            "this server was started with --read-only: nothing is written (copy the statement instead)",
        ));
    }
    let shared = served.clone();
    // A change on disk becomes a new version first, so that the check sees it.
    blocking(move || shared.refresh(true)).await?;
    let Posted { doc, index: i, position, .. } = posted(&served, index, &headers, body)?;
    let Some(played_on) = position.version else {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "a write needs the version of the board the position was played on: {\"lights\": [...], \"version\": N}",
        ));
    };
    let name = doc.analysis().blocks.get(i).and_then(|b| b.name.clone()).unwrap_or_default();
    let shown = served.shown.clone();
    let writer = served.clone();
    let outcome = blocking(move || {
        writer.write_if_at(played_on, |doc, text| {
            let edit = play::lights_edit(doc, i, &position.lights).map_err(|e| e.to_string())?;
            let edit = edit.ok_or("the puzzle's text gives no place for a lights statement")?;
            Ok(lights_compiler::edit::apply(text, &[edit]))
        })
    })
    .await?;
    match outcome {
        Ok(version) => answer(Versioned {
            version,
            answer: Written { message: format!("Wrote the lights of \"{name}\" into {shown}.") },
        }),
        Err(WriteRefused::Moved(now)) => Err(error(
            StatusCode::CONFLICT,
            format!(
                "the file changed since this board was loaded (version {played_on}, now {now}): nothing was written; \
                 load the board again"
            ),
        )),
        Err(WriteRefused::Unwritable(why)) => Err(error(StatusCode::BAD_REQUEST, why)),
        Err(WriteRefused::Failed(why)) => {
            Err(error(StatusCode::INTERNAL_SERVER_ERROR, format!("cannot write {shown}: {why}")))
        }
    }
}

/// The answer of a write.
#[derive(Serialize)]
struct Written {
    message: String,
}

async fn not_found(request: Request) -> Failure {
    error(StatusCode::NOT_FOUND, format!("no such page: {}", request.uri().path()))
}

async fn not_allowed(request: Request) -> Failure {
    error(StatusCode::METHOD_NOT_ALLOWED, format!("{} is not allowed on {}", request.method(), request.uri().path()))
}

fn router(served: Shared) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/board.js", get(board_js))
        .route("/board.css", get(board_css))
        .route("/api/version", get(version))
        .route("/api/puzzles", get(puzzles))
        .route("/api/puzzle/{index}", get(board))
        .route("/api/puzzle/{index}/solve", post(solve))
        .route("/api/puzzle/{index}/lights", post(lights))
        .route("/api/puzzle/{index}/write", post(write))
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(middleware::from_fn_with_state(served.clone(), guard::own_site))
        .with_state(served)
}

/// Ctrl-C (SIGINT), caught from the moment this returns: the future ends
/// when it comes.
fn interrupted() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    let mut signal = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    #[cfg(windows)]
    let mut signal = tokio::signal::windows::ctrl_c()?;
    Ok(async move {
        signal.recv().await;
    })
}

/// Open `url` in the user's browser; a failure is a warning.
fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let program = command.get_program().to_string_lossy().into_owned();
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match command.spawn() {
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => {
                    eprintln!("warning: `{program}` could not open a browser ({status}); open {url} yourself");
                }
                _ => {}
            });
        }
        Err(e) => eprintln!("warning: cannot open a browser (`{program}`: {e}); open {url} yourself"),
    }
}

pub(crate) fn run(args: Args) -> u8 {
    if files::is_stdin(&args.file) {
        eprintln!("error: lights play needs a file (it re-reads it when it changes), not standard input");
        return EXIT_USAGE;
    }
    let shown = crate::files::shown_path(&args.file);
    // `--minimum-budget`, else the minimum-budget of the file's lights.toml
    // (read once, now).
    let options = match args.minimum_budget.options_for(&args.file) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e));
            return EXIT_USAGE;
        }
    };
    let (stamp, text) = read(&args.file);
    let doc = Document::new(text.as_deref().unwrap_or("")).with_options(options);
    if let Err(code) = check_start(&shown, &text, &doc, args.puzzle.as_deref()) {
        return code;
    }
    let loaded = Loaded { version: 1, stamp, text, doc: Arc::new(doc) };
    let pool = pool::SolvePool::per_core();
    // Threads for blocking work: the solves of the pool, the background pass,
    // the file's reads and the requests' short analyses.
    let blocking_threads = pool.solvers() + BLOCKING_THREADS_BESIDE_SOLVES;
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(blocking_threads)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return EXIT_USAGE;
        }
    };
    let code = runtime.block_on(serve(args, shown, loaded, pool, options));
    // Do not wait for solves still running.
    runtime.shutdown_timeout(Duration::from_millis(100));
    code
}

/// Refuse `--puzzle NAME` when the file has no puzzle of that name; a file
/// that cannot be read is served all the same (with a warning).
fn check_start(shown: &str, text: &Result<String, String>, doc: &Document, puzzle: Option<&str>) -> Result<(), u8> {
    match (text, puzzle) {
        (Err(e), _) => eprintln!("warning: {e}; serving it all the same (the page follows when it can be read)"),
        (Ok(_), Some(name)) if !doc.analysis().blocks.iter().any(|p| p.name.as_deref() == Some(name)) => {
            let names: Vec<String> = doc
                .analysis()
                .blocks
                .iter()
                .filter_map(|p| p.name.as_deref())
                .map(|n| crate::excerpt::quoted_name(Some(n)))
                .collect();
            let name = crate::excerpt::quoted_name(Some(name));
            eprintln!("error: `{shown}` has no puzzle named {name}; its puzzles are: {}", names.join(", "));
            return Err(EXIT_USAGE);
        }
        _ => {}
    }
    Ok(())
}

/// Listen on 127.0.0.1, print the address, follow the file and answer
/// requests until Ctrl-C; the exit code.
async fn serve(
    args: Args,
    shown: String,
    loaded: Loaded,
    pool: pool::SolvePool,
    options: lights_compiler::SolveOptions,
) -> u8 {
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return EXIT_USAGE;
        }
    };
    let port = match listener.local_addr() {
        Ok(a) => a.port(),
        Err(e) => {
            eprintln!("error: cannot listen on 127.0.0.1:{}: {e}", args.port);
            return EXIT_USAGE;
        }
    };
    let hosts = vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    let served =
        Arc::new(Served::new(args.file, shown, args.puzzle, loaded, hosts, pool, options).read_only(args.read_only));
    // Listen for Ctrl-C before the address is printed: whoever reads the
    // address may interrupt at once, and must not kill the process.
    let interrupted = match interrupted() {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: cannot listen for Ctrl-C: {e}");
            return EXIT_USAGE;
        }
    };
    let url = format!("http://127.0.0.1:{port}/");
    println!("lights play: {url} — Ctrl-C to stop");
    let _ = std::io::stdout().flush();
    if !args.no_open {
        open_browser(&url);
    }
    // Follow the file.
    let watched = served.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(POLL).await;
            let s = watched.clone();
            let _ = tokio::task::spawn_blocking(move || s.refresh(true)).await;
        }
    });
    let limits = connections::Limits {
        header_timeout: Duration::from_millis(args.header_timeout_ms),
        max_connections: usize::try_from(args.max_connections).unwrap_or(usize::MAX),
        shutdown_grace: SHUTDOWN_GRACE,
    };
    connections::serve(listener, router(served), limits, interrupted).await;
    eprintln!("lights play: stopped");
    EXIT_OK
}
