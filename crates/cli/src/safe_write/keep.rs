//! What a replaced file keeps: its owner and group (where the process may
//! set them), its extended attributes (ACLs are `system.posix_acl_access`)
//! and its whole mode, setuid, setgid and sticky bits included.

use std::fs::{File, Permissions};
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use rustix::io::Errno;

/// Before filling: give the temporary file the original's owner and group
/// (only root may give a file away; a group the user belongs to is fine)
/// and copy its extended attributes.
pub(super) fn owner_and_xattrs(tmp: &File, original: &File) -> io::Result<()> {
    let meta = original.metadata()?;
    let mine = tmp.metadata()?;
    if (mine.uid(), mine.gid()) != (meta.uid(), meta.gid())
        && std::os::unix::fs::fchown(tmp, Some(meta.uid()), Some(meta.gid())).is_err()
    {
        let _ = std::os::unix::fs::fchown(tmp, None, Some(meta.gid()));
    }
    copy_xattrs(original, tmp)
}

/// After filling (a write by a process without CAP_FSETID clears setuid
/// and setgid): the original's exact mode. Setuid is kept only if the new
/// file has the original's owner, setgid only if it has its group, so a
/// file never becomes setuid to a user who did not make it so.
pub(super) fn mode(tmp: &File, original: &File) -> io::Result<()> {
    let meta = original.metadata()?;
    let mine = tmp.metadata()?;
    let mut mode = meta.mode() & 0o7777;
    if mine.uid() != meta.uid() {
        mode &= !0o4000;
    }
    if mine.gid() != meta.gid() {
        mode &= !0o2000;
    }
    tmp.set_permissions(Permissions::from_mode(mode))
}

/// Copy every extended attribute `from` has. Attributes this process may
/// not set (`trusted.*` or `security.*` for a user) and a file system
/// without them are skipped; any other failure fails the write.
fn copy_xattrs(from: &File, to: &File) -> io::Result<()> {
    let names = match list(from) {
        Ok(names) => names,
        Err(Errno::NOTSUP) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    for name in names.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name: &std::ffi::OsStr = std::os::unix::ffi::OsStrExt::from_bytes(name);
        let value = match value(from, name) {
            Ok(value) => value,
            Err(Errno::NODATA) => continue,
            Err(e) => return Err(e.into()),
        };
        match rustix::fs::fsetxattr(to, name, &value, rustix::fs::XattrFlags::empty()) {
            Ok(()) | Err(Errno::PERM | Errno::ACCESS | Errno::NOTSUP) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The NUL-separated names of `file`'s attributes (the list may grow
/// between asking its size and reading it: then ask again).
fn list(file: &File) -> rustix::io::Result<Vec<u8>> {
    loop {
        let size = rustix::fs::flistxattr_query(file)?;
        let mut buf = vec![0u8; size];
        match rustix::fs::flistxattr(file, &mut buf[..]) {
            Ok(len) => {
                buf.truncate(len);
                return Ok(buf);
            }
            Err(Errno::RANGE) => continue,
            Err(e) => return Err(e),
        }
    }
}

fn value(file: &File, name: &std::ffi::OsStr) -> rustix::io::Result<Vec<u8>> {
    loop {
        let size = rustix::fs::fgetxattr_query(file, name)?;
        let mut buf = vec![0u8; size];
        match rustix::fs::fgetxattr(file, name, &mut buf[..]) {
            Ok(len) => {
                buf.truncate(len);
                return Ok(buf);
            }
            Err(Errno::RANGE) => continue,
            Err(e) => return Err(e),
        }
    }
}
