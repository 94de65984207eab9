//! Which files `lights check` and `lights fmt` look at, through the real
//! binary: `.gitignore` and `.ignore` (in or out of a git repository),
//! hidden entries, no hard-coded skip list, explicit paths, symbolic-link
//! loops, unreadable entries, an empty selection, and no path at all.

mod common;
use common::*;

use std::path::Path;

/// A scratch folder outside the repository, whose own `.gitignore` (which
/// lists `target/`) would otherwise apply to it.
fn outside(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lights-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const PUZZLE: &str = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n";

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The files a run checked, from its JSON (sorted).
fn checked(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let out = lights(dir, &[&["check", "--format", "json"], args].concat());
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let mut files: Vec<String> = json
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["errors"].as_array().is_some_and(|e| e.is_empty()))
        .map(|o| o["file"].as_str().unwrap().to_string())
        .collect();
    files.sort();
    files.dedup();
    (out.status.code(), files, stderr(&out))
}

#[test]
fn ignore_files_and_hidden_entries_are_respected_and_nothing_else_is_skipped() {
    let dir = outside("discovery_ignore");
    for rel in ["packs/target/a.lights", "packs/node_modules/b.lights", "packs/build/c.lights", "packs/d.lights"] {
        write(&dir, rel, PUZZLE);
    }
    write(&dir, "packs/.hidden/e.lights", PUZZLE);
    write(&dir, "packs/.f.lights", PUZZLE);
    write(&dir, "packs/drafts/g.lights", PUZZLE);
    write(&dir, "packs/scratch.lights", PUZZLE);
    write(&dir, "packs/notes.txt", "not a puzzle");
    // Not a git repository: .gitignore is read all the same.
    write(&dir, "packs/.gitignore", "drafts/\n");
    write(&dir, "packs/.ignore", "scratch.lights\n");
    let (code, files, _) = checked(&dir, &["packs"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        files,
        ["packs/build/c.lights", "packs/d.lights", "packs/node_modules/b.lights", "packs/target/a.lights"]
    );
    // A path named on the command line is always checked, ignored or hidden.
    let (code, files, _) = checked(&dir, &["packs/drafts/g.lights", "packs/.hidden/e.lights", "packs/scratch.lights"]);
    assert_eq!(code, Some(0));
    assert_eq!(files, ["packs/.hidden/e.lights", "packs/drafts/g.lights", "packs/scratch.lights"]);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_loop_is_noted_and_each_file_is_checked_once() {
    let dir = outside("discovery_loop");
    write(&dir, "packs/a.lights", PUZZLE);
    std::os::unix::fs::symlink(".", dir.join("packs/loop")).unwrap();
    std::os::unix::fs::symlink("a.lights", dir.join("packs/alias.lights")).unwrap();
    let (code, files, err) = checked(&dir, &["packs", "packs/a.lights"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files, ["packs/a.lights"], "the same file through a link or twice on the command line counts once");
    assert!(err.contains("skipping `packs/loop`: a symbolic link back into its own folder"), "{err}");
}

#[test]
fn missing_and_unreadable_entries_are_errors_and_the_rest_is_still_checked() {
    let dir = outside("discovery_unreadable");
    write(&dir, "packs/a.lights", PUZZLE);
    write(&dir, "packs/locked/b.lights", PUZZLE);
    let out = lights(&dir, &["check", "--format", "json", "nope", "packs"]);
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let missing =
        json.as_array().unwrap().iter().find(|o| o["file"] == "nope").expect("an object for the missing path");
    assert_eq!(missing["errors"][0], "cannot read `nope`: no such file or folder");
    assert!(json.as_array().unwrap().iter().any(|o| o["file"] == "packs/a.lights"));

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.join("packs/locked");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        // Root reads anything: the case only exists for other users.
        if std::fs::read_dir(&locked).is_err() {
            let out = lights(&dir, &["check", "packs"]);
            assert_eq!(out.status.code(), Some(2));
            assert!(stderr(&out).contains("cannot read `packs/locked`: permission denied"), "{}", stderr(&out));
            assert!(stdout(&out).contains("✓ packs/a.lights: a:"), "{}", stdout(&out));
        }
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn an_empty_selection_is_an_error_and_no_path_means_the_current_folder() {
    let dir = outside("discovery_empty");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    write(&dir, "empty/.gitignore", "*.lights\n");
    write(&dir, "empty/x.lights", PUZZLE);
    let out = lights(&dir, &["check", "empty"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no `.lights` files in `empty`"), "{}", stderr(&out));
    assert_eq!(stdout(&out), "nothing checked\n");

    let here = dir.join("here");
    write(&here, "sub/a.lights", PUZZLE);
    let out = lights(&here, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("✓ ./sub/a.lights: a:"), "{}", stdout(&out));
    let out = lights(&here, &["fmt", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 file already formatted"), "{}", stderr(&out));
}
