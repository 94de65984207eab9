//! Turning command-line paths into the `.lights` files to work on.

use std::path::{Path, PathBuf};

/// What the command-line paths select: the `.lights` files to work on, in
/// a stable order, and the entries that could not be read.
#[derive(Debug, Default)]
pub(crate) struct Selection {
    pub files: Vec<PathBuf>,
    /// `(path, message)` of every file or folder that could not be read.
    pub unreadable: Vec<(String, String)>,
    /// Notes for standard error (symbolic-link loops, which are skipped).
    pub notes: Vec<String>,
}

/// The `.lights` files the paths name, as ripgrep and ruff find files: a
/// file named on the command line is always taken (whatever its name, even
/// if ignored); a folder is searched recursively for `*.lights`, skipping
/// hidden entries and what `.gitignore`, `.ignore` and the git excludes say
/// (in or out of a git repository). Symbolic links inside a folder are not
/// followed (a link out of the tree, say to `/`, must not send a walk or a
/// rewrite there) unless `--follow` ([`set_follow_links`]); then a link back
/// into its own ancestors is noted and skipped. A file reached twice is
/// taken once. Entries that cannot be read are listed, not fatal.
pub(crate) fn select(paths: &[PathBuf]) -> Selection {
    let mut selection = Selection::default();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        let meta = match std::fs::metadata(p) {
            Ok(meta) => meta,
            Err(e) => {
                selection
                    .unreadable
                    .push((shown_path(p), format!("cannot read `{}`: {}", shown_path(p), describe(&e))));
                continue;
            }
        };
        if !meta.is_dir() {
            if seen.insert(identity(p)) {
                selection.files.push(p.clone());
            }
            continue;
        }
        let walk = ignore::WalkBuilder::new(p)
            .follow_links(follow_links())
            .require_git(false)
            .sort_by_file_name(std::cmp::Ord::cmp)
            .build();
        for entry in walk {
            match entry {
                Ok(entry) => {
                    let path = entry.path();
                    let Some(kind) = entry.file_type() else { continue };
                    // A link met in a walk without --follow (silently, as ripgrep).
                    if kind.is_dir() || kind.is_symlink() || path.extension().is_none_or(|e| e != "lights") {
                        continue;
                    }
                    if !kind.is_file() {
                        // Reading a FIFO would wait forever, a device would never end.
                        selection.notes.push(format!(
                            "skipping `{}`: not a regular file (a FIFO, a socket or a device)",
                            shown_path(path)
                        ));
                    } else if seen.insert(identity(path)) {
                        selection.files.push(path.to_path_buf());
                    }
                }
                Err(e) => walk_error(&mut selection, &e),
            }
        }
    }
    selection
}

/// Sort a walk's error into a loop note or an unreadable entry.
fn walk_error(selection: &mut Selection, e: &ignore::Error) {
    match e {
        ignore::Error::WithPath { path, err } => match err.as_ref() {
            ignore::Error::Loop { child, .. } => selection
                .notes
                .push(format!("skipping `{}`: a symbolic link back into its own folder", shown_path(child))),
            ignore::Error::Io(io) => selection
                .unreadable
                .push((shown_path(path), format!("cannot read `{}`: {}", shown_path(path), describe(io)))),
            other => selection.unreadable.push((shown_path(path), format!("`{}`: {other}", shown_path(path)))),
        },
        ignore::Error::WithDepth { err, .. } => walk_error(selection, err),
        ignore::Error::Loop { child, .. } => {
            selection.notes.push(format!("skipping `{}`: a symbolic link back into its own folder", shown_path(child)));
        }
        // Errors in an ignore file itself: the file is still walked.
        ignore::Error::Partial(errors) => {
            for e in errors {
                selection.notes.push(format!("in an ignore file: {e}"));
            }
        }
        other => selection.unreadable.push(("(walk)".into(), other.to_string())),
    }
}

static FOLLOW_LINKS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `--follow`: folder walks follow symbolic links (set before any walk).
pub(crate) fn set_follow_links(follow: bool) {
    FOLLOW_LINKS.store(follow, std::sync::atomic::Ordering::Relaxed);
}

fn follow_links() -> bool {
    FOLLOW_LINKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The file a path leads to, so two paths to one file count once.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// [`select`] for commands that stop on the first problem: prints the notes
/// and every unreadable entry; `None` when any (the caller exits with 2) or
/// when nothing was selected.
pub(crate) fn collect_reporting(paths: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let selection = select(paths);
    for note in &selection.notes {
        eprintln!("warning: {note}");
    }
    for (_, message) in &selection.unreadable {
        eprintln!("error: {message}");
    }
    if !selection.unreadable.is_empty() {
        return None;
    }
    if selection.files.is_empty() {
        eprintln!("error: {}", nothing_selected(paths));
        return None;
    }
    Some(selection.files)
}

/// The message when the paths hold no `.lights` file.
pub(crate) fn nothing_selected(paths: &[PathBuf]) -> String {
    let shown: Vec<String> = paths.iter().map(|p| format!("`{}`", shown_path(p))).collect();
    format!(
        "no `.lights` files in {} (hidden files, what .gitignore or .ignore lists, and symbolic links without --follow are skipped; name a file to check it anyway)",
        shown.join(", ")
    )
}

/// The largest input read by default: 64 MiB (a puzzle file is a few
/// kilobytes; the largest boards are written in a few words).
pub(crate) const DEFAULT_MAX_BYTES: u64 = 64 << 20;

static MAX_BYTES: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// Set once, from `--max-bytes`, before anything is read.
pub(crate) fn set_max_bytes(limit: u64) {
    let _ = MAX_BYTES.set(limit);
}

/// Whether `--max-bytes` was given (it then wins over lights.toml).
pub(crate) fn max_bytes_given() -> bool {
    MAX_BYTES.get().is_some()
}

/// The largest input to read: `--max-bytes`, else 64 MiB.
pub(crate) fn max_bytes() -> u64 {
    MAX_BYTES.get().copied().unwrap_or(DEFAULT_MAX_BYTES)
}

/// Parse a size for `--max-bytes` and `max-bytes`: a number of bytes, or
/// with a unit (`500K`, `64MiB`, `1G`; units are powers of 1024).
pub(crate) fn parse_size(text: &str) -> Result<u64, lights_ide::config::SizeError> {
    lights_ide::config::parse_bytes(text)
}

/// A size for messages: `64 MiB`, `500 KiB`, `1000 bytes`.
pub(crate) fn show_size(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => lights_compiler::summary::count(n as usize, "byte"),
    }
}

fn too_large(what: &str, limit: u64) -> String {
    format!(
        "{what} is larger than {}, the most `lights` reads (raise it with --max-bytes, or max-bytes in lights.toml)",
        show_size(limit)
    )
}

/// All of `source`, or `None` when it holds more than `limit` bytes (no
/// more than one byte past the limit is read).
fn read_at_most(source: impl std::io::Read, limit: u64, expected: u64) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut bytes = Vec::with_capacity(expected.min(limit) as usize);
    source.take(limit + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Read a file as UTF-8 text, with an error message fit for the user: at
/// most [`max_bytes`] of it, and only a regular file (a FIFO would block,
/// a device never end).
pub(crate) fn read(path: &Path) -> Result<String, String> {
    read_limited(path, max_bytes())
}

/// [`read`] with a given size limit.
pub(crate) fn read_limited(path: &Path, limit: u64) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("cannot read `{}`: {}", shown_path(path), describe(&e));
    let (file, meta) = open_regular(path).map_err(cannot)?;
    if meta.len() > limit {
        return Err(too_large(&format!("`{}`", shown_path(path)), limit));
    }
    // The file may grow between the two looks: never read past the limit.
    let Some(bytes) = read_at_most(file, limit, meta.len()).map_err(cannot)? else {
        return Err(too_large(&format!("`{}`", shown_path(path)), limit));
    };
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read `{}`: it is not UTF-8 text (invalid byte at offset {})",
            shown_path(path),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Open a named file for reading only if it is a regular file, deciding on
/// the file actually opened (never on an earlier look at the path, which a
/// FIFO swapped in between would defeat). It is opened with `O_NONBLOCK`
/// (opening a FIFO then never waits for a writer) and `O_NOCTTY` (a
/// terminal never becomes ours), the open descriptor is `fstat`ed, anything
/// but a regular file refused, and `O_NONBLOCK` cleared again. Returns the
/// file and its metadata. The error for a folder reads "it is a folder",
/// for a FIFO, socket or device "not a regular file ...".
pub(crate) fn open_regular(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "it is a folder"));
    }
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a socket or a device); name a `.lights` file",
        ));
    }
    #[cfg(unix)]
    {
        let flags = rustix::fs::fcntl_getfl(&file)?;
        rustix::fs::fcntl_setfl(&file, flags - rustix::fs::OFlags::NONBLOCK)?;
    }
    Ok((file, meta))
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;
    // std adds O_CLOEXEC itself.
    std::fs::OpenOptions::new().read(true).custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32).open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// [`read`], printing the error (the caller then exits with status 2).
pub(crate) fn read_reporting(path: &Path) -> Option<String> {
    read(path).map_err(|e| eprintln!("error: {e}")).ok()
}

/// A path for messages: its control characters escaped (a file name may
/// hold an ESC or a CR that would act on the terminal).
pub(crate) fn shown_path(path: &Path) -> String {
    crate::excerpt::escape_controls(&path.display().to_string()).into_owned()
}

/// Whether a command-line path means standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// All of standard input as UTF-8 text.
pub(crate) fn read_stdin() -> Result<String, String> {
    let limit = max_bytes();
    let read = read_at_most(std::io::stdin(), limit, 0).map_err(|e| format!("cannot read standard input: {e}"))?;
    let Some(bytes) = read else { return Err(too_large("standard input", limit)) };
    String::from_utf8(bytes).map_err(|e| {
        format!("standard input is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to())
    })
}

/// How a file is named in messages: its path, or for standard input the
/// `--stdin-filename` given (else `<stdin>`).
pub(crate) fn shown(path: &Path, stdin_filename: Option<&Path>) -> String {
    match (is_stdin(path), stdin_filename) {
        (true, Some(name)) => shown_path(name),
        (true, None) => "<stdin>".into(),
        (false, _) => shown_path(path),
    }
}

/// The text of `file`, or of standard input when there is none or it is
/// `-`, with the name messages give it (`stdin_name` for standard input);
/// `None` after printing why it cannot be read (the caller exits with 2).
pub(crate) fn read_named(file: Option<&Path>, stdin_name: &str) -> Option<(String, String)> {
    match file.filter(|f| !is_stdin(f)) {
        Some(path) => Some((shown_path(path), read_reporting(path)?)),
        None => match read_stdin() {
            Ok(text) => Some((stdin_name.to_string(), text)),
            Err(e) => {
                eprintln!("error: {}", crate::excerpt::escape_controls(&e));
                None
            }
        },
    }
}

/// The text of a file or (for `-`) of standard input, printing the error
/// when it cannot be read (the caller then exits with status 2).
pub(crate) fn read_input_reporting(path: &Path) -> Option<String> {
    let text = if is_stdin(path) { read_stdin() } else { read(path) };
    text.map_err(|e| eprintln!("error: {e}")).ok()
}

pub(crate) fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// A `lights.toml` is read as any named file: a regular file of a sane size
/// only (a FIFO named lights.toml must not hang a run).
pub(crate) fn read_config(path: &Path) -> Result<String, String> {
    read_limited(path, lights_ide::config::MAX_CONFIG_BYTES)
}

/// A FIFO at `path` (owner read and write), for the tests of readers and
/// writers that must never wait on one.
#[cfg(all(test, unix))]
pub(crate) fn make_fifo(path: &Path) {
    rustix::fs::mkfifoat(rustix::fs::CWD, path, rustix::fs::Mode::from_raw_mode(0o600)).unwrap();
}

#[cfg(all(test, unix))]
mod open_regular_tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lights-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The race of the report: whatever an earlier look at the path said, the
    /// open itself must not wait on a FIFO (no writer ever comes here). A
    /// plain `File::open` blocks forever on this FIFO; the watchdog turns
    /// such a hang into a failure (and then frees the thread by writing).
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe.lights");
        make_fifo(&fifo);
        let (send, receive) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let _ = send.send(open_regular(&path).map(|_| ()).map_err(|e| e.to_string()));
        });
        let answer = receive.recv_timeout(std::time::Duration::from_secs(60));
        if answer.is_err() {
            // Unblock the stuck open so the test process can end.
            let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
        }
        let answer = answer.expect("opening a FIFO waited for a writer");
        let err = answer.expect_err("a FIFO was opened as a file");
        assert!(err.contains("not a regular file"), "{err}");
        let read = read_limited(&fifo, 100).unwrap_err();
        assert!(read.contains("pipe.lights") && read.contains("not a regular file"), "{read}");
    }

    #[test]
    fn a_regular_file_is_read_blocking_and_a_folder_refused() {
        let dir = scratch("regular");
        let path = dir.join("a.lights");
        std::fs::write(&path, "x").unwrap();
        let (file, meta) = open_regular(&path).unwrap();
        assert_eq!(meta.len(), 1);
        let flags = rustix::fs::fcntl_getfl(&file).unwrap();
        assert!(!flags.contains(rustix::fs::OFlags::NONBLOCK), "O_NONBLOCK was left set");
        let err = read_limited(&dir, 100).unwrap_err();
        assert!(err.ends_with("it is a folder"), "{err}");
    }
}
