//! Finding what a write replaces, through the kernel: the path the user gave
//! is opened as given, so the kernel follows its symbolic links under its
//! own rules (`fs.protected_symlinks` refuses a link planted by another user
//! in a shared sticky folder such as /tmp, exactly as for a shell's `>`).
//! The folder of the file the kernel opened is then opened, and every later
//! step (temporary file, rename, checks) is relative to that folder's
//! descriptor, never to a path looked up again.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

use super::cannot_write;
use crate::files::shown_path;

/// What a write replaces: the folder it happens in and the name in it, and
/// the file there now (opened by the kernel from the user's path), if any.
pub(super) struct Target {
    pub(super) dir: OwnedFd,
    pub(super) name: OsString,
    pub(super) existing: Option<File>,
    /// The file was made empty just now by following a dangling link (as a
    /// shell's `>` would); removed again if the write fails.
    pub(super) created_through_link: bool,
}

/// Flags for opening the target: never waiting on a FIFO, never taking a
/// terminal, and never truncating (opening changes nothing).
fn open_flags() -> OFlags {
    OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC
}

impl Target {
    pub(super) fn open(path: &Path) -> Result<Target, String> {
        if path.as_os_str().as_bytes().ends_with(b"/") {
            return Err(format!("cannot write `{}`: the name ends in `/`, a folder's name", shown_path(path)));
        }
        match rustix::fs::open(path, open_flags(), Mode::empty()) {
            Ok(fd) => Target::existing(path, File::from(fd), false),
            Err(Errno::NOENT) => Target::absent(path),
            Err(e) => Err(refused(path, e)),
        }
    }

    /// Nothing at `path`, or a dangling link.
    fn absent(path: &Path) -> Result<Target, String> {
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                // Write through the dangling link as a shell's `>` does: the
                // kernel follows it (or refuses to) and creates its target.
                let flags = open_flags() | OFlags::CREATE;
                let fd =
                    rustix::fs::open(path, flags, Mode::from_bits_truncate(0o666)).map_err(|e| refused(path, e))?;
                Target::existing(path, File::from(fd), true)
            }
            Ok(_) => Err(changed(path)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let (folder, name) = split(path)?;
                let dir = open_folder(&folder).map_err(|e| cannot_write(path, &e.into()))?;
                Ok(Target { dir, name, existing: None, created_through_link: false })
            }
            Err(e) => Err(cannot_write(path, &e)),
        }
    }

    /// `file` is what the kernel opened for `path`: refuse it unless it is a
    /// regular file with a write bit, and open the folder it is in.
    fn existing(path: &Path, file: File, created_through_link: bool) -> Result<Target, String> {
        let meta = file.metadata().map_err(|e| cannot_write(path, &e))?;
        if !meta.is_file() {
            return Err(not_regular(path));
        }
        if meta.mode() & 0o222 == 0 {
            return Err(read_only(path));
        }
        // Only to name the folder: whatever this finds must hold the very
        // file the kernel opened, or nothing is written.
        let resolved = resolve_links(path).map_err(|e| cannot_write(path, &e))?;
        let (folder, name) = split(&resolved)?;
        let dir = open_folder(&folder).map_err(|e| cannot_write(path, &e.into()))?;
        let target = Target { dir, name, existing: Some(file), created_through_link };
        target.check_unchanged(path)?;
        Ok(target)
    }

    /// The name in the folder still leads to the file opened at the start
    /// (no link on the way was swapped since).
    // `st_dev` and `st_ino` are not u64 on every platform.
    #[allow(clippy::unnecessary_cast)]
    pub(super) fn check_unchanged(&self, path: &Path) -> Result<(), String> {
        let Some(file) = &self.existing else { return Ok(()) };
        let opened = file.metadata().map_err(|e| cannot_write(path, &e))?;
        match rustix::fs::statat(&self.dir, self.name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(now) if now.st_dev as u64 == opened.dev() && now.st_ino as u64 == opened.ino() => Ok(()),
            _ => Err(changed(path)),
        }
    }

    /// Undo the empty file a dangling link made, if it is still that file.
    pub(super) fn remove_created(&self, path: &Path) {
        if self.created_through_link && self.check_unchanged(path).is_ok() {
            let _ = rustix::fs::unlinkat(&self.dir, self.name.as_os_str(), AtFlags::empty());
        }
    }
}

/// A folder, opened by the kernel from its path.
fn open_folder(folder: &Path) -> rustix::io::Result<OwnedFd> {
    rustix::fs::open(folder, OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())
}

/// Split a path into its folder (`.` when it has none) and its last name.
fn split(path: &Path) -> Result<(PathBuf, OsString), String> {
    let name: &OsStr = match path.file_name() {
        Some(name) => name,
        None => return Err(not_regular(path)),
    };
    let folder = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok((folder.to_path_buf(), name.to_os_string()))
}

/// Follow symbolic links to the file they name, to find its folder (what
/// the kernel opened decides; this only names it).
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    // As many hops as Linux allows before ELOOP.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&current)?;
                current = if next.is_absolute() { next } else { current.parent().unwrap_or(Path::new(".")).join(next) };
            }
            Ok(_) => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The message for an open the kernel refused.
fn refused(path: &Path, e: Errno) -> String {
    match e {
        // A folder (EISDIR), a FIFO without a reader (ENXIO).
        Errno::ISDIR | Errno::NXIO => not_regular(path),
        Errno::ACCESS | Errno::PERM => {
            let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            if std::fs::metadata(path).is_ok_and(|m| m.mode() & 0o222 == 0) {
                read_only(path)
            } else if link {
                format!(
                    "cannot write `{}`: permission denied (the file it links to is not writable by you, or the \
                     system refuses to follow this symbolic link: fs.protected_symlinks refuses links planted by \
                     another user in a shared sticky folder such as /tmp); nothing was changed",
                    shown_path(path)
                )
            } else {
                format!(
                    "cannot write `{}`: permission denied (the file is not writable by you); nothing was changed",
                    shown_path(path)
                )
            }
        }
        e => cannot_write(path, &e.into()),
    }
}

fn not_regular(path: &Path) -> String {
    format!(
        "cannot write `{}`: it is not a regular file (a folder, a FIFO or a device); nothing was changed",
        shown_path(path)
    )
}

fn read_only(path: &Path) -> String {
    format!(
        "cannot write `{}`: the file is read-only (make it writable first, e.g. `chmod u+w`); nothing was changed",
        shown_path(path)
    )
}

fn changed(path: &Path) -> String {
    format!(
        "cannot write `{}`: it changed while being opened (a symbolic link on the way was replaced); nothing was changed",
        shown_path(path)
    )
}
