//! Helpers shared by the binary's tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

/// The real `lights` binary with `args`, run in `dir`, colour settings
/// of the environment removed.
pub(crate) fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.args(args).current_dir(dir).env_remove("NO_COLOR").env_remove("FORCE_COLOR");
    command
}

/// Run the real `lights` binary in `dir`, without colour.
pub(crate) fn lights(dir: &Path, args: &[&str]) -> Output {
    command(dir, args).output().expect("run lights")
}

/// [`lights`] with `input` on standard input (written from another thread,
/// so a binary that stops reading early cannot stall the test).
pub(crate) fn lights_with_input(dir: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run lights");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("lights ends");
    writer.join().expect("writer");
    out
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// A fresh scratch folder under the target directory.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Every `.lights` file under a folder of the repository, sorted.
pub(crate) fn lights_files(folder: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root().join(folder)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "lights") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Copy the folder `from` to `to`, recursively (a scratch copy of the
/// examples for tests that run commands on them).
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Run one shell command line as a user would type it, in `dir`: bash with
/// `pipefail` (a failing command inside a pipe fails the line), the built
/// `lights` first on PATH, a pattern-database cache inside `dir`, colour
/// settings of the environment removed, no standard input.
pub(crate) fn shell_line(dir: &Path, line: &str) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_lights")).parent().unwrap().to_path_buf();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path))).unwrap();
    Command::new("bash")
        .args(["-o", "pipefail", "-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .env("LIGHTS_CACHE_DIR", dir.join("cache"))
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run bash")
}

/// A P4 file: header lines (comments skipped), then rows of bits padded to
/// whole bytes, first cell in the high bit; padding must be zero.
pub(crate) fn decode_pbm(bytes: &[u8]) -> Vec<Vec<u64>> {
    let (mut at, mut fields, mut lines) = (0, Vec::new(), 0);
    while fields.len() < 3 {
        let end = at + bytes[at..].iter().position(|&b| b == b'\n').expect("a header line");
        let line = std::str::from_utf8(&bytes[at..end]).expect("a text header");
        if !line.starts_with('#') {
            fields.extend(line.split_whitespace().map(str::to_string));
        }
        at = end + 1;
        lines += 1;
        assert!(lines < 10, "no PBM header");
    }
    assert_eq!(fields[0], "P4");
    let (cols, rows): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let stride = cols.div_ceil(8);
    let data = &bytes[at..];
    assert_eq!(data.len(), rows * stride, "a bit per cell, rows padded to bytes, nothing after");
    data.chunks(stride)
        .map(|row| {
            if !cols.is_multiple_of(8) {
                assert_eq!(row[stride - 1] & (0xFF >> (cols % 8)), 0, "padding bits are 0");
            }
            (0..cols).map(|c| u64::from((row[c / 8] >> (7 - c % 8)) & 1)).collect()
        })
        .collect()
}
