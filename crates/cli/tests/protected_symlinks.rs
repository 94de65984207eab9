//! Writes go through the kernel's own link rules: with
//! `fs.protected_symlinks=1` (the usual distribution default), a link planted
//! by another user in a sticky world-writable folder such as /tmp cannot
//! redirect root's `-o` onto a root-only file, nor make it create a file in
//! a root-only folder — just as a shell's `echo x > link` is refused there.
//!
//! Needs root (to set the sysctl and to plant links owned by `nobody`); the
//! sysctl is set for the test and restored after. One test, so no other test
//! of this binary runs while it is changed.
#![cfg(target_os = "linux")]

mod common;
use common::*;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

const SYSCTL: &str = "/proc/sys/fs/protected_symlinks";
const NOBODY: u32 = 65534;

/// Sets `fs.protected_symlinks` while alive, restores the old value on drop.
struct Protected(String);

impl Protected {
    fn on() -> Result<Protected, String> {
        let old = fs::read_to_string(SYSCTL).map_err(|e| format!("cannot read {SYSCTL}: {e}"))?;
        fs::write(SYSCTL, "1").map_err(|e| format!("cannot write {SYSCTL}: {e}"))?;
        Ok(Protected(old))
    }
}

impl Drop for Protected {
    fn drop(&mut self) {
        let _ = fs::write(SYSCTL, self.0.trim());
    }
}

fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// A link at `at` to `to`, owned by `nobody` as if they had planted it.
fn plant(to: &Path, at: &Path) {
    std::os::unix::fs::symlink(to, at).unwrap();
    std::os::unix::fs::lchown(at, Some(NOBODY), Some(NOBODY)).unwrap();
}

#[test]
fn links_planted_in_a_sticky_folder_cannot_redirect_roots_writes() {
    if fs::metadata("/proc/self").map(|m| m.uid()).ok() != Some(0) {
        eprintln!("skipped: needs root to set {SYSCTL} and to plant links owned by nobody");
        return;
    }
    let _protected = match Protected::on() {
        Ok(guard) => guard,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let base = std::env::temp_dir().join(format!("lights-protected-symlinks-{}", std::process::id()));
    let _ = fs::remove_dir_all(&base);
    let sticky = base.join("sticky");
    let private = base.join("private");
    fs::create_dir_all(&sticky).unwrap();
    fs::create_dir_all(&private).unwrap();
    set_mode(&base, 0o755);
    set_mode(&sticky, 0o1777);
    set_mode(&private, 0o700);
    let victim = private.join("victim.svg");
    fs::write(&victim, "root only\n").unwrap();
    set_mode(&victim, 0o600);
    fs::write(base.join("p.lights"), "puzzle \"p\" {\n  size 2x2\n  lights on\n}\n").unwrap();

    plant(&victim, &sticky.join("out.svg"));
    // The kernel really guards here: a shell's `>` through the link is refused.
    let shell = std::process::Command::new("sh").arg("-c").arg("echo x > sticky/out.svg").current_dir(&base).output();
    if !shell.is_ok_and(|o| !o.status.success()) {
        eprintln!("skipped: the kernel does not enforce {SYSCTL} here");
        return;
    }

    // An existing target through a planted link.
    let out = lights(&base, &["render", "p.lights", "-o", "sticky/out.svg"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("protected_symlinks") && stderr(&out).contains("nothing was changed"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(&victim).unwrap(), "root only\n", "the root-only file was written");
    assert_eq!(fs::metadata(&victim).unwrap().mode() & 0o7777, 0o600);
    assert!(fs::symlink_metadata(sticky.join("out.svg")).unwrap().file_type().is_symlink());

    // A dangling planted link must not create a file in the root-only folder.
    let made = private.join("made.json");
    plant(&made, &sticky.join("out.json"));
    let out = lights(&base, &["compile", "p.lights", "--emit", "json", "-o", "sticky/out.json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("protected_symlinks"), "{}", stderr(&out));
    assert!(!made.exists(), "a file was created in the root-only folder");

    // No temporary files are left in either folder.
    for dir in [&sticky, &private] {
        let left: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("lights-tmp"))
            .collect();
        assert!(left.is_empty(), "temporary files left in {}: {left:?}", dir.display());
    }

    // Root's own link in the same folder is still followed.
    let own = private.join("own.svg");
    fs::write(&own, "old\n").unwrap();
    std::os::unix::fs::symlink(&own, sticky.join("own.svg")).unwrap();
    let out = lights(&base, &["render", "p.lights", "-o", "sticky/own.svg"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(fs::read_to_string(&own).unwrap().contains("<svg"), "root's own link was not followed");
    let _ = fs::remove_dir_all(&base);
}
