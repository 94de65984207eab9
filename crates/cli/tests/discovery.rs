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
        .filter(|o| o["errors"].as_array().is_some_and(std::vec::Vec::is_empty))
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
fn with_follow_a_symbolic_link_loop_is_noted_and_each_file_is_checked_once() {
    let dir = outside("discovery_loop");
    write(&dir, "packs/a.lights", PUZZLE);
    std::os::unix::fs::symlink(".", dir.join("packs/loop")).unwrap();
    std::os::unix::fs::symlink("a.lights", dir.join("packs/alias.lights")).unwrap();
    let (code, files, err) = checked(&dir, &["--follow", "packs", "packs/a.lights"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files, ["packs/a.lights"], "the same file through a link or twice on the command line counts once");
    assert!(err.contains("skipping `packs/loop`: a symbolic link back into its own folder"), "{err}");
    // Without --follow the links are not entered at all: no loop to note.
    let (code, files, err) = checked(&dir, &["packs"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files, ["packs/a.lights"]);
    assert!(!err.contains("skipping"), "{err}");
}

/// The report's first repro: `lights fmt repo` with `repo/link ->
/// ../elsewhere` rewrote a file outside `repo`. Links inside a walked
/// folder are not followed (to folders or to files) unless `--follow`;
/// a link named on the command line is.
#[cfg(unix)]
#[test]
fn folder_walks_do_not_follow_links_out_of_the_tree() {
    const UNFORMATTED: &str = "puzzle \"a\" {\nsize 2x2\n  lights on\n}\n";
    let dir = outside("discovery_out_of_tree");
    write(&dir, "repo/a.lights", PUZZLE);
    write(&dir, "elsewhere/x.lights", UNFORMATTED);
    write(&dir, "elsewhere/y.lights", UNFORMATTED);
    std::os::unix::fs::symlink("../elsewhere", dir.join("repo/link")).unwrap();
    std::os::unix::fs::symlink("../elsewhere/y.lights", dir.join("repo/y.lights")).unwrap();

    let out = lights(&dir, &["fmt", "repo"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.join("elsewhere/x.lights")).unwrap(),
        UNFORMATTED,
        "fmt wrote outside the tree"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("elsewhere/y.lights")).unwrap(),
        UNFORMATTED,
        "fmt wrote through a file link"
    );
    let (code, files, err) = checked(&dir, &["repo"]);
    assert_eq!((code, files), (Some(0), vec!["repo/a.lights".to_string()]), "{err}");

    // Named on the command line, a link is followed: to a folder, to a file.
    let (code, files, err) = checked(&dir, &["repo/link"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files, ["repo/link/x.lights", "repo/link/y.lights"]);
    let (code, files, err) = checked(&dir, &["repo/y.lights"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files, ["repo/y.lights"]);

    // Asked to, fmt follows them.
    let out = lights(&dir, &["fmt", "--follow", "repo"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_ne!(std::fs::read_to_string(dir.join("elsewhere/x.lights")).unwrap(), UNFORMATTED);
}

/// The report's second repro: `slash/root -> /` made `lights check slash`
/// walk the whole system (sysfs included) for 900 s. Now the link is not
/// entered, so nothing is found. A generous watchdog turns a walk of `/`
/// into a failure instead of a hung test.
#[cfg(unix)]
#[test]
fn a_link_to_the_root_folder_is_not_walked() {
    let dir = outside("discovery_slash");
    std::fs::create_dir_all(dir.join("slash")).unwrap();
    std::os::unix::fs::symlink("/", dir.join("slash/root")).unwrap();
    let mut child = command(&dir, &["check", "slash"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut waited = 0;
    while child.try_wait().unwrap().is_none() {
        if waited == 3000 {
            child.kill().unwrap();
            panic!("`lights check slash` was still walking after the watchdog ran out");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no `.lights` files in `slash`") && stderr(&out).contains("--follow"),
        "{}",
        stderr(&out)
    );
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
