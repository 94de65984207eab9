//! Writes that cannot be redirected and never lose data, through the real
//! binary: planted symbolic links, links to the file, read-only files,
//! files of other users, modes and owners.
#![cfg(unix)]

mod common;
use common::*;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

const UNFORMATTED: &str = "puzzle \"s\" {\nsize 2x2\n  lights on\n}\n";
const FORMATTED: &str = "puzzle \"s\" {\n  size 2x2\n  lights on\n}\n";

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).unwrap().file_type().is_symlink()
}

/// A folder every user may enter (the target directory may not be).
fn open_scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lights-safe-writes-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    set_mode(&dir, 0o777);
    dir
}

/// The attack of the report: another user plants symbolic links at the
/// temporary names the next processes would use (`.NAME.lights-tmp-<pid>`
/// in earlier versions) pointing at a private file. Writing must neither
/// touch that file nor leave the puzzle file replaced by a link.
#[cfg(target_os = "linux")]
#[test]
fn planted_links_at_temporary_names_redirect_nothing() {
    let dir = scratch("safe_write_planted");
    let victim = dir.join("victim");
    fs::write(&victim, "secret\n").unwrap();
    set_mode(&victim, 0o600);
    fs::write(dir.join("s.lights"), UNFORMATTED).unwrap();
    let last: u32 = fs::read_to_string("/proc/sys/kernel/ns_last_pid").unwrap().trim().parse().unwrap();
    for pid in last + 1..last + 2000 {
        std::os::unix::fs::symlink(&victim, dir.join(format!(".s.lights.lights-tmp-{pid}"))).unwrap();
    }
    let out = lights(&dir, &["fmt", "s.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "secret\n", "the planted link's target was written");
    assert_eq!(mode(&victim), 0o600, "the planted link's target changed mode");
    assert!(!is_link(&dir.join("s.lights")), "the puzzle file became a link");
    assert_eq!(fs::read_to_string(dir.join("s.lights")).unwrap(), FORMATTED);
}

#[test]
fn fmt_and_solve_write_through_a_link_to_its_target() {
    let dir = scratch("safe_write_link");
    fs::create_dir_all(dir.join("real")).unwrap();
    fs::write(dir.join("real/s.lights"), UNFORMATTED).unwrap();
    std::os::unix::fs::symlink("real/s.lights", dir.join("s.lights")).unwrap();
    let out = lights(&dir, &["fmt", "s.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(is_link(&dir.join("s.lights")), "fmt replaced the link with a file");
    assert_eq!(fs::read_to_string(dir.join("real/s.lights")).unwrap(), FORMATTED);

    let out = lights(&dir, &["solve", "--write", "s.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(is_link(&dir.join("s.lights")), "solve --write replaced the link with a file");
    assert!(fs::read_to_string(dir.join("real/s.lights")).unwrap().contains("solution"));
}

#[test]
fn a_read_only_file_is_refused_by_every_writing_command() {
    let dir = scratch("safe_write_readonly");
    let path = dir.join("s.lights");
    for args in [
        &["fmt", "s.lights"][..],
        &["solve", "--write", "s.lights"],
        &["generate", "--size", "3x3", "--count", "1", "--name", "g", "-o", "s.lights"],
    ] {
        fs::write(&path, UNFORMATTED).unwrap();
        set_mode(&path, 0o444);
        let out = lights(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("read-only"), "{args:?}: {}", stderr(&out));
        assert_eq!(fs::read_to_string(&path).unwrap(), UNFORMATTED, "{args:?} changed a read-only file");
        set_mode(&path, 0o644);
    }
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("lights-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn the_mode_of_a_private_file_is_kept() {
    let dir = scratch("safe_write_mode");
    let path = dir.join("s.lights");
    fs::write(&path, UNFORMATTED).unwrap();
    set_mode(&path, 0o600);
    let out = lights(&dir, &["fmt", "s.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), FORMATTED);
    assert_eq!(mode(&path), 0o600);
}

fn running_as_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Run `lights` as the user `nobody` (uid 65534), when the tests run as
/// root and `setpriv` is there; `None` otherwise.
fn lights_as_nobody(dir: &Path, args: &[&str]) -> Option<std::process::Output> {
    if !running_as_root() || !Path::new("/usr/bin/setpriv").exists() {
        eprintln!("skipped: needs root and setpriv to act as another user");
        return None;
    }
    Some(
        std::process::Command::new("/usr/bin/setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_lights")])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("run setpriv"),
    )
}

/// A file the user may not write, in a folder they may: refused, not
/// replaced (renaming over it would succeed and change its owner).
#[test]
fn another_users_file_in_a_shared_folder_is_refused() {
    let dir = open_scratch("others");
    let path = dir.join("s.lights");
    fs::write(&path, UNFORMATTED).unwrap();
    set_mode(&path, 0o644);
    let Some(out) = lights_as_nobody(&dir, &["fmt", "s.lights"]) else { return };
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("permission denied"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), UNFORMATTED);
    assert_eq!(fs::metadata(&path).unwrap().uid(), 0, "the file changed owner");
    let _ = fs::remove_dir_all(&dir);
}

/// Root formatting another user's file leaves it theirs.
#[test]
fn the_owner_is_kept_when_root_writes() {
    if !running_as_root() {
        eprintln!("skipped: only root can give a file to another user");
        return;
    }
    let dir = open_scratch("owner");
    let path = dir.join("s.lights");
    fs::write(&path, UNFORMATTED).unwrap();
    std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    let out = lights(&dir, &["fmt", "s.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), FORMATTED);
    let meta = fs::metadata(&path).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
    let _ = fs::remove_dir_all(&dir);
}

/// What a `kill -9` during `--solution-out` leaves (a temporary file of a
/// process that is gone, up to the size of the output) is removed by the
/// next write to that folder; a temporary file of a live writer is not.
#[cfg(target_os = "linux")]
#[test]
fn the_next_write_removes_temporaries_of_killed_runs() {
    let dir = scratch("safe_write_stale");
    fs::write(dir.join("s.lights"), FORMATTED).unwrap();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = dir.join(format!(".out.txt.{dead}-00000000deadbeef.lights-tmp"));
    fs::write(&stale, vec![b'1'; 1 << 20]).unwrap();
    let live = dir.join(format!(".out.txt.{}-00000000000000aa.lights-tmp", std::process::id()));
    fs::write(&live, "being written").unwrap();
    let out = lights(&dir, &["solve", "s.lights", "--solution-out", "other.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stale.exists(), "the killed run's temporary file is still there");
    assert!(live.exists(), "a live writer's temporary file was removed");
    assert!(dir.join("other.txt").exists());
}

/// An ordinary user's setuid and setgid file stays so after `fmt` (the
/// kernel clears both when a process without CAP_FSETID writes a file, so
/// the mode is set after the contents).
#[test]
fn an_ordinary_users_setuid_and_setgid_bits_are_kept() {
    let dir = open_scratch("setuid");
    let path = dir.join("s.lights");
    fs::write(&path, UNFORMATTED).unwrap();
    if running_as_root() {
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    }
    set_mode(&path, 0o6755);
    let Some(out) = lights_as_nobody(&dir, &["fmt", "s.lights"]) else { return };
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), FORMATTED);
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o7777, 0o6755);
    let _ = fs::remove_dir_all(&dir);
}
