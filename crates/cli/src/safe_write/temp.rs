//! The temporary file a write fills before renaming it over the target, and
//! the clean-up of ones a killed `lights` left behind.
//!
//! Names are `.NAME.PID-RANDOM.lights-tmp`, created relative to the target
//! folder's descriptor with `O_CREAT|O_EXCL|O_NOFOLLOW` (a link planted at a
//! guessed name makes the attempt fail and another name is drawn; it is
//! never followed). The PID says which process wrote it, so a later write to
//! the same folder can tell a stale file (its writer is gone) from one being
//! written now.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

const SUFFIX: &str = ".lights-tmp";

/// A temporary file in the target's folder, removed on drop unless renamed.
pub(super) struct Temp<'a> {
    dir: &'a OwnedFd,
    pub(super) name: OsString,
    pub(super) file: File,
    kept: bool,
}

impl<'a> Temp<'a> {
    /// Create a new temporary file for `target` in `dir`, with `mode`
    /// (narrowed by the umask).
    pub(super) fn create(dir: &'a OwnedFd, target: &OsStr, mode: u32) -> io::Result<Temp<'a>> {
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        for _ in 0..100 {
            let name = temp_name(target, std::process::id(), random());
            match rustix::fs::openat(dir, name.as_os_str(), flags, Mode::from_bits_truncate(mode)) {
                Ok(fd) => return Ok(Temp { dir, name, file: File::from(fd), kept: false }),
                Err(Errno::EXIST) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(io::Error::other("could not find a free temporary name"))
    }

    /// Rename the temporary file over `target` (it then is no longer removed).
    pub(super) fn rename_over(mut self, target: &OsStr) -> io::Result<()> {
        rustix::fs::renameat(self.dir, self.name.as_os_str(), self.dir, target)?;
        self.kept = true;
        Ok(())
    }
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        if !self.kept {
            let _ = rustix::fs::unlinkat(self.dir, self.name.as_os_str(), AtFlags::empty());
        }
    }
}

/// `.NAME.PID-RANDOM.lights-tmp`, the target name cut so the whole stays
/// within the usual 255-byte limit.
pub(super) fn temp_name(target: &OsStr, pid: u32, random: u64) -> OsString {
    let bytes = target.as_bytes();
    let mut name = b".".to_vec();
    name.extend_from_slice(&bytes[..bytes.len().min(200)]);
    name.extend_from_slice(format!(".{pid}-{random:016x}{SUFFIX}").as_bytes());
    OsString::from_vec(name)
}

/// The PID in a name of [`temp_name`]'s form, or `None` for any other name.
pub(super) fn writer_pid(name: &OsStr) -> Option<u32> {
    let stem = name.as_bytes().strip_prefix(b".")?.strip_suffix(SUFFIX.as_bytes())?;
    let dot = stem.iter().rposition(|&b| b == b'.')?;
    let tail = std::str::from_utf8(&stem[dot + 1..]).ok()?;
    let (pid, random) = tail.split_once('-')?;
    (random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit())).then_some(())?;
    pid.parse().ok()
}

fn random() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    hasher.finish()
}

/// A temporary file whose writer still runs is left alone unless it is
/// older than this (its PID may have been reused).
const STALE_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// Remove the temporary files of earlier, killed `lights` runs in `dir`:
/// regular files named like ours, owned by the user running this write
/// (`owner`), whose writer process is gone (or that are a day old). Done
/// once per folder per run; returns how many were removed.
pub(super) fn remove_stale(dir: &OwnedFd, owner: u32) -> usize {
    static DONE: Mutex<Option<HashSet<(u64, u64)>>> = Mutex::new(None);
    let Ok(me) = rustix::fs::fstat(dir) else { return 0 };
    // `st_dev` and `st_ino` are not u64 on every platform.
    #[allow(clippy::unnecessary_cast)]
    let key = (me.st_dev as u64, me.st_ino as u64);
    if let Ok(mut done) = DONE.lock() {
        if !done.get_or_insert_with(HashSet::new).insert(key) {
            return 0;
        }
    }
    let Ok(entries) = rustix::fs::Dir::read_from(dir.as_fd()) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = OsStr::from_bytes(entry.file_name().to_bytes());
        let Some(pid) = writer_pid(name) else { continue };
        if pid == std::process::id() {
            continue;
        }
        let Ok(stat) = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) else { continue };
        let regular = rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::RegularFile;
        if !regular || stat.st_uid != owner {
            continue;
        }
        let age = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(Duration::ZERO, |now| now.saturating_sub(Duration::from_secs(stat.st_mtime.max(0) as u64)));
        if (!alive(pid) || age > STALE_AFTER) && rustix::fs::unlinkat(dir, name, AtFlags::empty()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether a process with this PID exists (one of another user counts).
fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) else { return false };
    !matches!(rustix::process::test_kill_process(pid), Err(Errno::SRCH))
}

/// The owner of a file just created by this process (its effective user).
pub(super) fn owner_of(file: &File) -> Option<u32> {
    file.metadata().ok().map(|m| m.uid())
}
