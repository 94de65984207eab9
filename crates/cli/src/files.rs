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
/// (in or out of a git repository). Symbolic links are followed; a link
/// back into its own ancestors is noted and skipped, and a file reached
/// twice is taken once. Entries that cannot be read are listed, not fatal.
pub(crate) fn select(paths: &[PathBuf]) -> Selection {
    let mut selection = Selection::default();
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        let meta = match std::fs::metadata(p) {
            Ok(meta) => meta,
            Err(e) => {
                selection
                    .unreadable
                    .push((p.display().to_string(), format!("cannot read `{}`: {}", p.display(), describe(&e))));
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
            .follow_links(true)
            .require_git(false)
            .sort_by_file_name(|a, b| a.cmp(b))
            .build();
        for entry in walk {
            match entry {
                Ok(entry) => {
                    let path = entry.path();
                    let is_file = entry.file_type().is_some_and(|t| t.is_file());
                    if is_file && path.extension().is_some_and(|e| e == "lights") && seen.insert(identity(path)) {
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
                .push(format!("skipping `{}`: a symbolic link back into its own folder", child.display())),
            ignore::Error::Io(io) => selection
                .unreadable
                .push((path.display().to_string(), format!("cannot read `{}`: {}", path.display(), describe(io)))),
            other => selection.unreadable.push((path.display().to_string(), format!("`{}`: {other}", path.display()))),
        },
        ignore::Error::WithDepth { err, .. } => walk_error(selection, err),
        ignore::Error::Loop { child, .. } => {
            selection.notes.push(format!("skipping `{}`: a symbolic link back into its own folder", child.display()))
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
    let shown: Vec<String> = paths.iter().map(|p| format!("`{}`", p.display())).collect();
    format!(
        "no `.lights` files in {} (hidden files and what .gitignore or .ignore lists are skipped; name a file to check it anyway)",
        shown.join(", ")
    )
}

/// Read a file as UTF-8 text, with an error message fit for the user.
pub(crate) fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {}", path.display(), describe(&e)))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read `{}`: it is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// [`read`], printing the error (the caller then exits with status 2).
pub(crate) fn read_reporting(path: &Path) -> Option<String> {
    read(path).map_err(|e| eprintln!("error: {e}")).ok()
}

/// Whether a command-line path means standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// All of standard input as UTF-8 text.
pub(crate) fn read_stdin() -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        format!("standard input is not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to())
    })
}

/// How a file is named in messages: its path, or for standard input the
/// `--stdin-filename` given (else `<stdin>`).
pub(crate) fn shown(path: &Path, stdin_filename: Option<&Path>) -> String {
    match (is_stdin(path), stdin_filename) {
        (true, Some(name)) => name.display().to_string(),
        (true, None) => "<stdin>".into(),
        (false, _) => path.display().to_string(),
    }
}

/// The text of a file or (for `-`) of standard input, printing the error
/// when it cannot be read (the caller then exits with status 2).
pub(crate) fn read_input_reporting(path: &Path) -> Option<String> {
    let text = if is_stdin(path) { read_stdin() } else { read(path) };
    text.map_err(|e| eprintln!("error: {e}")).ok()
}

/// Replace a file's contents atomically: write a temporary file beside it,
/// flush it to disk, then rename it over the original. An interrupted run
/// leaves either the old file or the new one, never a half-written one.
pub(crate) fn write_atomic(path: &Path, contents: &str) -> Result<(), String> {
    write_atomic_bytes(path, contents.as_bytes())
}

/// [`write_atomic`] for bytes (images and other binary files).
pub(crate) fn write_atomic_bytes(path: &Path, contents: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.lights-tmp-{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write `{}`: {}", path.display(), describe(&e))
    })
}

fn describe(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
