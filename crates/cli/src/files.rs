//! Turning command-line paths into the `.lights` files to work on.

use std::path::{Path, PathBuf};

/// Files named on the command line are taken as they are; folders are
/// searched recursively for `*.lights` files (in sorted order, hidden
/// folders and `target/` skipped). Errors name the path that failed.
pub(crate) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("cannot read `{}`: {}", p.display(), describe(&e)))?;
        if meta.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// [`collect`], printing the error (the caller then exits with status 2).
pub(crate) fn collect_reporting(paths: &[PathBuf]) -> Option<Vec<PathBuf>> {
    collect(paths).map_err(|e| eprintln!("error: {e}")).ok()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read folder `{}`: {}", dir.display(), describe(&e)))?;
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                walk(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "lights") {
            out.push(path);
        }
    }
    Ok(())
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
