//! Every file `lights` writes goes through here: `fmt`, `solve --write`,
//! `--solution-out`, `generate -o`, `import -o`, `render -o`, `compile -o`
//! and the pattern-database cache.
//!
//! The promise: a file is either left as it was or replaced whole by the new
//! contents, never half-written, and writing never touches any other file.
//!
//! - The path is opened as given, by the kernel (module `target`): the
//!   kernel follows its symbolic links under its own rules, so
//!   `fs.protected_symlinks` refuses a link planted by another user in a
//!   shared sticky folder (such as /tmp) just as it refuses a shell's `>`.
//!   A link is followed: its target gets the new contents and the link stays
//!   a link. Writing through a dangling link creates its target, as `>` does
//!   (and under the same kernel rules).
//! - The new contents go to a temporary file `.NAME.PID-RANDOM.lights-tmp`
//!   in the folder of the file the kernel opened, created relative to that
//!   folder's descriptor with `O_EXCL|O_NOFOLLOW` and the final mode already
//!   narrowed, then flushed to disk and renamed over the target (after
//!   checking the name still leads to the file opened), and the folder is
//!   flushed so the rename survives a crash (a large file's pages are
//!   handed to the disk as they are written, so that flush waits for the
//!   last few MiB only). Temporary files a killed run
//!   left behind are removed by the next write to that folder (module
//!   `temp`).
//! - A file the user cannot write (read-only, or not theirs) is refused with
//!   a clear error and left unchanged; so is anything that is not a regular
//!   file (a folder, a FIFO, a device).
//! - The owner and group are kept where the process may set them (root
//!   formatting another user's file leaves it theirs), and so are the whole
//!   mode (setuid, setgid and sticky bits too) and the extended attributes,
//!   ACLs included (module `keep`).
//! - A file with several hard links is replaced by a new file under this
//!   one name: the other names keep the old contents (a rename cannot keep
//!   them together; writing in place could leave a half-written file).

use std::io::{self, Write};
use std::path::Path;

use crate::files::shown_path;

#[cfg(unix)]
mod keep;
#[cfg(unix)]
mod target;
#[cfg(unix)]
mod temp;

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
#[cfg(unix)]
pub(crate) fn write_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), String> {
    let target = target::Target::open(path)?;
    let result = replace(path, &target, fill);
    if result.is_err() {
        target.remove_created(path);
    }
    result
}

#[cfg(unix)]
fn replace(
    path: &Path,
    target: &target::Target,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let creation_mode = match &target.existing {
        Some(file) => file.metadata().map_err(|e| cannot_write(path, &e))?.mode() & 0o777,
        None => 0o666,
    };
    let tmp = temp::Temp::create(&target.dir, &target.name, creation_mode).map_err(|e| cannot_write(path, &e))?;
    if let Some(owner) = temp::owner_of(&tmp.file) {
        temp::remove_stale(&target.dir, owner);
    }
    let filled = (|| -> io::Result<()> {
        if let Some(original) = &target.existing {
            keep::owner_and_xattrs(&tmp.file, original)?;
        }
        let mut out = io::BufWriter::with_capacity(1 << 16, WriteBack::new(&tmp.file));
        fill(&mut out)?;
        out.flush()?;
        drop(out);
        if let Some(original) = &target.existing {
            keep::mode(&tmp.file, original)?;
        }
        tmp.file.sync_all()
    })();
    // On failure, dropping `tmp` removes the temporary file.
    filled.map_err(|e| cannot_write(path, &e))?;
    target.check_unchanged(path)?;
    tmp.rename_over(&target.name).map_err(|e| cannot_write(path, &e))?;
    let _ = rustix::fs::fsync(&target.dir);
    Ok(())
}

/// The temporary file, its pages handed to the disk every
/// [`WriteBack::EVERY`] bytes as it is written rather than all at the
/// final `fsync`: the disk writes while the rest is made, and the `fsync`
/// waits for the last stretch only (`posix_fadvise(DONTNEED)` starts the
/// writeback of the range and lets the kernel drop its pages once they are
/// clean; the durability still comes from that `fsync`). A 200 MB solution:
/// 30–40 ms less. Files under the first stretch never see it.
#[cfg(unix)]
struct WriteBack<'a> {
    file: &'a std::fs::File,
    written: u64,
    handed: u64,
}

#[cfg(unix)]
impl<'a> WriteBack<'a> {
    const EVERY: u64 = 8 << 20;

    fn new(file: &'a std::fs::File) -> WriteBack<'a> {
        WriteBack { file, written: 0, handed: 0 }
    }
}

#[cfg(unix)]
impl Write for WriteBack<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let n = self.file.write(data)?;
        self.written += n as u64;
        if self.written - self.handed >= Self::EVERY {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                // Advice only: whatever it answers, the data is written.
                let len = std::num::NonZeroU64::new(self.written - self.handed);
                let _ = rustix::fs::fadvise(self.file, self.handed, len, rustix::fs::Advice::DontNeed);
            }
            self.handed = self.written;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Elsewhere: a temporary file beside the path, renamed over it.
#[cfg(not(unix))]
pub(crate) fn write_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new().suffix(".lights-tmp").tempfile_in(dir).map_err(|e| cannot_write(path, &e))?;
    let mut out = io::BufWriter::new(tmp.as_file());
    fill(&mut out).and_then(|()| out.flush()).map_err(|e| cannot_write(path, &e))?;
    drop(out);
    tmp.persist(path).map_err(|e| cannot_write(path, &e.error))?;
    Ok(())
}

fn cannot_write(path: &Path, e: &io::Error) -> String {
    format!("cannot write `{}`: {}", shown_path(path), crate::files::describe(e))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs::{self, Permissions};
    use std::os::unix::fs::PermissionsExt;
    use std::path::PathBuf;

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

    /// Past several write-back stretches, in uneven pieces: the file holds
    /// exactly what was written.
    #[test]
    fn a_large_file_handed_to_the_disk_as_it_goes_is_whole() {
        let dir = scratch("large");
        let path = dir.join("big.txt");
        let data: Vec<u8> = (0..3 * WriteBack::EVERY as usize + 12_345).map(|i| (i % 251) as u8).collect();
        write_with(&path, |out| {
            for piece in data.chunks(3 << 20 | 7) {
                out.write_all(piece)?;
            }
            Ok(())
        })
        .unwrap();
        assert!(fs::read(&path).unwrap() == data, "the contents differ");
        assert!(leftovers(&dir).is_empty());
        let _ = fs::remove_dir_all(&dir);
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

    #[test]
    fn setuid_setgid_and_sticky_bits_are_kept() {
        let dir = scratch("special");
        let path = dir.join("s.lights");
        for mode in [0o6755, 0o1644, 0o4700] {
            fs::write(&path, "old").unwrap();
            fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
            write_text(&path, "new").unwrap();
            assert_eq!(fs::read_to_string(&path).unwrap(), "new");
            assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o7777, mode, "{mode:o}");
        }
    }

    #[test]
    fn extended_attributes_are_kept() {
        let dir = scratch("xattr");
        let path = dir.join("x.lights");
        fs::write(&path, "old").unwrap();
        match rustix::fs::setxattr(&path, "user.lights-test", b"kept", rustix::fs::XattrFlags::empty()) {
            Ok(()) => {}
            Err(e) => {
                eprintln!("skipped: this file system does not take user.* attributes ({e})");
                return;
            }
        }
        write_text(&path, "new").unwrap();
        let mut value = [0u8; 16];
        let len = rustix::fs::getxattr(&path, "user.lights-test", &mut value[..]).expect("the attribute was lost");
        assert_eq!(&value[..len], b"kept");
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }

    /// Writing through a dangling link creates its target first (as `>`
    /// does); if the contents then fail, that empty file goes again.
    #[test]
    fn a_failed_write_through_a_dangling_link_leaves_no_target() {
        let dir = scratch("dangling-fail");
        let link = dir.join("l.lights");
        std::os::unix::fs::symlink("made.lights", &link).unwrap();
        let err = write_with(&link, |_| Err(io::Error::other("disk on fire"))).unwrap_err();
        assert!(err.contains("disk on fire"), "{err}");
        assert!(!dir.join("made.lights").exists(), "the empty target was left");
        assert!(leftovers(&dir).is_empty());
    }

    /// A FIFO (no reader) or a device as the target: refused at once.
    #[test]
    fn a_fifo_or_a_device_is_refused_without_waiting() {
        let dir = scratch("fifo");
        let fifo = dir.join("p.lights");
        crate::files::make_fifo(&fifo);
        for path in [fifo.as_path(), Path::new("/dev/null")] {
            let err = write_text(path, "x").unwrap_err();
            assert!(err.contains("not a regular file"), "{err}");
        }
    }

    /// An access ACL (`system.posix_acl_access`, here granting uid 65534
    /// read access), written as the raw attribute `setfacl` would set.
    #[test]
    fn an_access_acl_is_kept() {
        let dir = scratch("acl");
        let path = dir.join("a.lights");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        let mut acl = 2u32.to_le_bytes().to_vec();
        for (tag, perm, id) in
            [(0x01u16, 6u16, u32::MAX), (0x02, 4, 65534), (0x04, 4, u32::MAX), (0x10, 4, u32::MAX), (0x20, 0, u32::MAX)]
        {
            acl.extend_from_slice(&tag.to_le_bytes());
            acl.extend_from_slice(&perm.to_le_bytes());
            acl.extend_from_slice(&id.to_le_bytes());
        }
        if let Err(e) = rustix::fs::setxattr(&path, "system.posix_acl_access", &acl, rustix::fs::XattrFlags::empty()) {
            eprintln!("skipped: this file system does not take ACLs ({e})");
            return;
        }
        write_text(&path, "new").unwrap();
        let mut value = [0u8; 128];
        let len = rustix::fs::getxattr(&path, "system.posix_acl_access", &mut value[..]).expect("the ACL was lost");
        assert_eq!(&value[..len], &acl[..]);
        assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o7777, 0o640);
    }

    /// Documented: a rename cannot keep hard links together; the written
    /// name gets the new contents, the other names keep the old.
    #[test]
    fn a_hard_link_is_split_as_documented() {
        let dir = scratch("hardlink");
        let path = dir.join("a.lights");
        fs::write(&path, "old").unwrap();
        fs::hard_link(&path, dir.join("b.lights")).unwrap();
        write_text(&path, "new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_to_string(dir.join("b.lights")).unwrap(), "old");
    }

    /// What a `kill -9` leaves: a temporary file of a process that is gone.
    /// The next write to the folder removes it, and only it.
    #[test]
    fn stale_temporaries_of_dead_writers_are_removed_by_the_next_write() {
        let dir = scratch("stale");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = dir.join(temp::temp_name("s.lights".as_ref(), dead, 7));
        fs::write(&stale, vec![0u8; 4096]).unwrap();
        // Still written by a live process (this test's parent here): kept.
        let live = dir.join(temp::temp_name("s.lights".as_ref(), std::os::unix::process::parent_id(), 8));
        fs::write(&live, "busy").unwrap();
        // Not our naming: kept.
        let other = dir.join(".s.lights.abc.lights-tmp");
        fs::write(&other, "someone else's").unwrap();
        write_text(&dir.join("s.lights"), "x").unwrap();
        assert!(!stale.exists(), "the stale temporary file is still there");
        assert!(live.exists() && other.exists(), "a file that is not stale was removed");
        assert_eq!(fs::read_to_string(dir.join("s.lights")).unwrap(), "x");
    }

    #[test]
    fn temporary_names_carry_the_writer_and_fit_a_file_name() {
        let name = temp::temp_name("s.lights".as_ref(), 4242, 0xabc);
        assert_eq!(name, ".s.lights.4242-0000000000000abc.lights-tmp");
        assert_eq!(temp::writer_pid(&name), Some(4242));
        assert_eq!(temp::writer_pid(".s.lights.abc.lights-tmp".as_ref()), None);
        assert_eq!(temp::writer_pid("s.lights".as_ref()), None);
        let long = "n".repeat(255);
        assert!(temp::temp_name(long.as_ref(), u32::MAX, u64::MAX).len() <= 255);
    }
}
