//! Every file `lights` writes goes through here: `fmt`, `solve --write`,
//! `--solution-out`, `generate -o`, `import -o`, `render -o`, `compile -o`
//! and the pattern-database cache.
//!
//! The promise: a file is either left as it was or replaced whole by the new
//! contents, never half-written, and writing never touches any other file.
//!
//! - The new contents go to a temporary file in the target's own folder,
//!   made by `tempfile`: a random name opened with `O_EXCL` (a symbolic link
//!   planted at a guessable name cannot redirect the write), created with
//!   the final mode already narrowed (a 0600 file's new contents are never
//!   readable by others), then flushed to disk and renamed over the target,
//!   and the folder is flushed so the rename survives a crash.
//! - A symbolic link is followed: its target gets the new contents and the
//!   link stays a link.
//! - A file the user cannot write (read-only, or not theirs) is refused with
//!   a clear error and left unchanged; so is anything that is not a regular
//!   file (a folder, a FIFO, a device).
//! - The owner and group are kept where the process may set them (root
//!   formatting another user's file leaves it theirs).

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::files::shown_path;

/// Replace (or create) `path` with `contents`.
pub(crate) fn write_text(path: &Path, contents: &str) -> Result<(), String> {
    write_bytes(path, contents.as_bytes())
}

/// [`write_text`] for bytes (images and other binary files).
pub(crate) fn write_bytes(path: &Path, contents: &[u8]) -> Result<(), String> {
    write_with(path, |out| out.write_all(contents))
}

/// Replace (or create) `path` with what `fill` writes, streamed through a
/// buffer: large outputs never need to be held in memory whole. If `fill`
/// fails, the target is left as it was.
pub(crate) fn write_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), String> {
    let target = resolve_links(path).map_err(|e| cannot_write(path, &e))?;
    let existing = match fs::metadata(&target) {
        Ok(meta) => Some(meta),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(cannot_write(path, &e)),
    };
    if let Some(meta) = &existing {
        check_writable(path, &target, meta)?;
    }
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".lights-tmp");
    #[cfg(unix)]
    builder.permissions(creation_permissions(existing.as_ref()));
    let tmp = builder.tempfile_in(dir).map_err(|e| cannot_write(path, &e))?;
    let result = (|| -> io::Result<()> {
        if let Some(meta) = &existing {
            keep_owner_and_mode(tmp.as_file(), meta)?;
        }
        let mut out = io::BufWriter::with_capacity(1 << 16, tmp.as_file());
        fill(&mut out)?;
        out.flush()?;
        drop(out);
        tmp.as_file().sync_all()
    })();
    if let Err(e) = result {
        // Dropping `tmp` removes the temporary file.
        return Err(cannot_write(path, &e));
    }
    tmp.persist(&target).map_err(|e| cannot_write(path, &e.error))?;
    sync_folder(dir);
    Ok(())
}

/// Follow symbolic links to the file they name (which may not exist yet:
/// writing through a dangling link creates its target, as a shell would).
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    // As many hops as Linux allows before ELOOP.
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = fs::read_link(&current)?;
                current = if next.is_absolute() { next } else { current.parent().unwrap_or(Path::new(".")).join(next) };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Refuse what is not a regular file, and a file the user may not write
/// (checked by opening it for writing, which changes nothing, so the
/// operating system's own rules decide).
fn check_writable(path: &Path, target: &Path, meta: &fs::Metadata) -> Result<(), String> {
    if !meta.is_file() {
        return Err(format!(
            "cannot write `{}`: it is not a regular file (a folder, a FIFO or a device); nothing was changed",
            shown_path(path)
        ));
    }
    if meta.permissions().readonly() {
        return Err(format!(
            "cannot write `{}`: the file is read-only (make it writable first, e.g. `chmod u+w`); nothing was changed",
            shown_path(path)
        ));
    }
    match fs::OpenOptions::new().write(true).open(target) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => Err(format!(
            "cannot write `{}`: permission denied (the file is not writable by you); nothing was changed",
            shown_path(path)
        )),
        Err(e) => Err(cannot_write(path, &e)),
    }
}

/// The mode the temporary file is created with: the existing file's (so it
/// is never wider than the original, even for an instant), or the usual
/// `0666` less the umask for a new file.
#[cfg(unix)]
fn creation_permissions(existing: Option<&fs::Metadata>) -> Permissions {
    use std::os::unix::fs::PermissionsExt;
    Permissions::from_mode(existing.map_or(0o666, |m| m.permissions().mode() & 0o777))
}

/// Give the temporary file the original's owner and group where allowed
/// (only root may give a file away; a group the user belongs to is fine),
/// then its exact mode (the umask may have narrowed it at creation).
#[cfg(unix)]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let mine = file.metadata()?;
    if (mine.uid(), mine.gid()) != (meta.uid(), meta.gid())
        && std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_err()
    {
        let _ = std::os::unix::fs::fchown(file, None, Some(meta.gid()));
    }
    file.set_permissions(Permissions::from_mode(meta.permissions().mode() & 0o777))
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> io::Result<()> {
    file.set_permissions(meta.permissions())
}

/// Flush the folder so the rename itself is on disk (best effort: not every
/// platform lets a folder be opened).
fn sync_folder(dir: &Path) {
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
}

fn cannot_write(path: &Path, e: &io::Error) -> String {
    format!("cannot write `{}`: {}", shown_path(path), crate::files::describe(e))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("lights-safe-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("lights-tmp"))
            .collect()
    }

    #[test]
    fn creates_and_replaces_keeping_the_mode() {
        let dir = scratch("mode");
        let path = dir.join("a.lights");
        write_text(&path, "one").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "one");
        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write_text(&path, "two").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        assert!(leftovers(&dir).is_empty());
    }

    #[test]
    fn a_symbolic_link_is_followed_and_stays_a_link() {
        let dir = scratch("link");
        let real = dir.join("real.lights");
        fs::write(&real, "old").unwrap();
        let link = dir.join("link.lights");
        std::os::unix::fs::symlink("real.lights", &link).unwrap();
        write_text(&link, "new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    }

    #[test]
    fn a_read_only_file_is_refused_and_unchanged() {
        let dir = scratch("readonly");
        let path = dir.join("r.lights");
        fs::write(&path, "keep").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
        let err = write_text(&path, "lost").unwrap_err();
        assert!(err.contains("read-only") && err.contains("nothing was changed"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "keep");
        assert!(leftovers(&dir).is_empty());
    }

    #[test]
    fn a_failed_fill_leaves_the_file_and_no_temporary() {
        let dir = scratch("fill");
        let path = dir.join("f.lights");
        fs::write(&path, "keep").unwrap();
        let err = write_with(&path, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("disk on fire"))
        })
        .unwrap_err();
        assert!(err.contains("disk on fire"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "keep");
        assert!(leftovers(&dir).is_empty());
    }

    #[test]
    fn a_folder_is_refused() {
        let dir = scratch("folder");
        let err = write_text(&dir, "x").unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
    }

    #[test]
    fn a_dangling_link_creates_its_target() {
        let dir = scratch("dangling");
        let link = dir.join("l.lights");
        std::os::unix::fs::symlink("made.lights", &link).unwrap();
        write_text(&link, "hi").unwrap();
        assert_eq!(fs::read_to_string(dir.join("made.lights")).unwrap(), "hi");
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    }
}
