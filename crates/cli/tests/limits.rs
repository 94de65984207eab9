//! Work bounded by the input, through the real binary: output that grows
//! with the input (not its square), a maximum input size, special files
//! refused or skipped (never read forever), control characters never
//! written raw to the terminal.

mod common;
use common::*;

use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Run `lights` in `dir`, killed after a minute (a hang fails the test
/// instead of hanging the suite).
fn lights_bounded(dir: &std::path::Path, args: &[&str]) -> Output {
    let child = command(dir, args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run lights");
    let pid = child.id();
    // Collect the output on another thread (a full pipe must not stall the child).
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()));
    match result.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.expect("output"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("`lights {}` did not end within a minute", args.join(" "));
        }
    }
}

/// 64 KB of `1,1` in a 2×2 board: 16,000 diagnostics, each on that one
/// line. The drawing shows 200 of them, each with a window of the line.
#[test]
fn output_grows_with_the_input_not_its_square() {
    let dir = scratch("limits_output");
    let src = format!("puzzle \"a\" {{ size 2x2 lights at {}}}\n", "1,1 ".repeat(16_000));
    std::fs::write(dir.join("a.lights"), &src).unwrap();
    let out = lights_bounded(&dir, &["check", "a.lights"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.len() < 512 * 1024, "{} bytes of output for a {} byte file", text.len(), src.len());
    assert!(
        text.contains("15799 more diagnostics in a.lights are not shown"),
        "{}",
        &text[text.len().saturating_sub(600)..]
    );
    // Each drawing keeps the real column of its place on the long line.
    assert!(text.contains("a.lights:1:37 "), "{}", &text[..600]);
    assert!(text.contains(&format!("a.lights:1:{} ", 37 + 4 * 199)), "the 200th drawing's column");
    // The other formats list them all, one line each.
    let out = lights_bounded(&dir, &["check", "--format", "concise", "a.lights"]);
    assert_eq!(stdout(&out).lines().filter(|l| l.contains("[L0112]")).count(), 15_999);
}

#[test]
fn inputs_larger_than_the_limit_are_refused() {
    let dir = scratch("limits_size");
    let src = format!("puzzle \"a\" {{\n  size 2x2\n{}}}\n", "  // padding\n".repeat(200));
    std::fs::write(dir.join("a.lights"), &src).unwrap();
    let out = lights_bounded(&dir, &["check", "--max-bytes", "1K", "a.lights"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("`a.lights` is larger than 1 KiB"), "{}", stderr(&out));
    for args in [&["fmt", "--max-bytes", "1000", "a.lights"][..], &["solve", "--max-bytes", "1000", "a.lights"]] {
        let out = lights_bounded(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("larger than 1000 bytes"), "{args:?}: {}", stderr(&out));
    }
    // Standard input too.
    let out = lights_with_input(&dir, &["check", "--max-bytes", "1K", "-"], &src);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("standard input is larger than 1 KiB"), "{}", stderr(&out));
    // lights.toml sets it for `check`; the flag wins.
    std::fs::write(dir.join("lights.toml"), "max-bytes = \"1K\"\n").unwrap();
    let out = lights_bounded(&dir, &["check", "a.lights"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = lights_bounded(&dir, &["check", "--max-bytes", "1M", "a.lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A bad size is a usage error.
    let out = lights_bounded(&dir, &["check", "--max-bytes", "lots", "a.lights"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not a size"), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn devices_and_fifos_are_refused_when_named_and_skipped_in_folders() {
    let dir = scratch("limits_special");
    std::fs::write(dir.join("ok.lights"), "puzzle \"a\" {\n  size 2x2\n}\n").unwrap();
    let made = Command::new("mkfifo").arg(dir.join("pipe.lights")).status().expect("mkfifo");
    assert!(made.success());
    // Found by the walk: a warning, the rest is checked.
    let out = lights_bounded(&dir, &["check", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("skipping `./pipe.lights`: not a regular file"), "{}", stderr(&out));
    assert!(stdout(&out).contains("checked 1 puzzle in 1 file"), "{}", stdout(&out));
    // Named: refused, exit 2, never "all fine".
    for named in ["pipe.lights", "/dev/zero"] {
        let out = lights_bounded(&dir, &["check", named]);
        assert_eq!(out.status.code(), Some(2), "{named}: {}", stderr(&out));
        assert!(stderr(&out).contains("not a regular file"), "{named}: {}", stderr(&out));
        assert!(!stdout(&out).contains("all fine"), "{named}: {}", stdout(&out));
    }
    let out = lights_bounded(&dir, &["fmt", "pipe.lights"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// NUL, CR, ESC and BEL in the source and in names never reach the
/// terminal raw, in any human-readable format.
#[test]
fn control_characters_are_escaped_in_every_message() {
    let dir = scratch("limits_controls");
    let src = "puzzle \"a\x1b[2J\r\" {\n  size 2x2\n  lightz \0on\x07\n}\npuzzle \"b\x1b]0;x\x07\" {\n  size 2y2\n}\n";
    std::fs::write(dir.join("c.lights"), src).unwrap();
    for format in ["human", "concise", "github"] {
        let out = lights_bounded(&dir, &["check", "--format", format, "c.lights"]);
        assert_eq!(out.status.code(), Some(1), "{format}: {}", stderr(&out));
        let raw: Vec<u8> = out.stdout.iter().chain(&out.stderr).copied().filter(|&b| b < 0x20 && b != b'\n').collect();
        assert!(raw.is_empty(), "{format}: raw control bytes {raw:?} in\n{}", String::from_utf8_lossy(&out.stdout));
    }
    let out = lights_bounded(&dir, &["check", "c.lights"]);
    assert!(stdout(&out).contains('\u{241b}'), "ESC drawn as ␛ in the source line: {}", stdout(&out));
}

/// `lights compile` is bounded by the entries of the matrix it writes,
/// counted from the size and the rule before anything is built:
/// `graph complete 4000` (51 bytes, 16 million entries) took 4.2 GB, and a
/// 21×21 stencil on 1000×1000 (441 million) aborted allocating 14 GB.
#[test]
fn compile_refuses_systems_above_the_entry_limit_before_building_them() {
    let dir = scratch("limits_compile_entries");
    let stencil = format!("{{\n{}  }}", "    1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n".repeat(21));
    let cases = [
        (
            "complete.lights",
            "puzzle \"g\" {\n  graph complete 4000\n  lights at 1\n}\n".to_string(),
            "16000000 entries",
        ),
        (
            "stencil.lights",
            format!("puzzle \"s\" {{\n  size 1000x1000\n  rule {stencil}\n  lights at 1,1\n}}\n"),
            "441000000 entries",
        ),
        (
            "flip.lights",
            "puzzle \"f\" {\n  size 2000x2000\n  rule flip\n  lights at 1,1\n}\n".to_string(),
            "15996000000 entries",
        ),
    ];
    for (file, src, entries) in cases {
        std::fs::write(dir.join(file), src).unwrap();
        let out = lights_bounded(&dir, &["compile", file, "--emit", "json", "-o", "out.json"]);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(entries) && err.contains("at most 10000000 matrix entries"), "{file}: {err}");
        assert!(!dir.join("out.json").exists(), "{file}: nothing written");
    }
}

/// Below the limit the system is streamed: `graph complete 1500` (2.25
/// million entries, 70 MB of JSON) is written under a 400 MB address-space
/// limit. Building it as a JSON value in memory first took about 340 MB of
/// resident memory and aborted there.
#[test]
fn compile_streams_large_systems_in_bounded_memory() {
    let dir = scratch("limits_compile_stream");
    std::fs::write(dir.join("k.lights"), "puzzle \"k\" {\n  graph complete 1500\n  lights at 1\n}\n").unwrap();
    let script =
        format!("ulimit -v 400000 && exec '{}' compile k.lights --emit json -o k.json", env!("CARGO_BIN_EXE_lights"));
    let out = Command::new("sh").arg("-c").arg(&script).current_dir(&dir).output().expect("sh");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("k.json")).unwrap()).expect("JSON");
    assert_eq!(json["matrix"]["shape"], serde_json::json!([1500, 1500]));
    assert_eq!(json["matrix"]["entries"].as_array().map(Vec::len), Some(1500 * 1500));
}

/// The limit on unknowns is dense elimination's: a board the polynomial
/// method solves has none. 2001×2001 with three states leaves 4,002
/// unknowns on the torus and across the Möbius band's seam (the limit for
/// W ≠ 2 is 4,000); both are answered, and on boards of this size the
/// answer is replayed on the whole board before it is reported.
#[test]
fn boards_the_polynomial_method_solves_are_not_held_to_the_elimination_limit() {
    let dir = scratch("limits_polynomial");
    let src = ["torus", "mobius"]
        .iter()
        .map(|surface| {
            format!("puzzle \"{surface}\" {{\n  size 2001x2001\n  states 3\n  rule cross\n  topology {surface}\n  lights on\n}}\n")
        })
        .collect::<String>();
    std::fs::write(dir.join("wide.lights"), src).unwrap();
    let out = lights_bounded(&dir, &["check", "--minimum-budget", "0", "wide.lights"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(!stdout.contains("L0205"), "{stdout}");
    // On the torus every light is in five press patterns, so pressing every
    // cell twice adds 10 ≡ 1 to each light (`on` is the highest state, 2):
    // the one solution, 2 × 4,004,001 presses.
    assert!(stdout.contains("torus: 1 solution · minimum 8008002 presses"), "{stdout}");
    assert!(stdout.contains("mobius: 9 solutions"), "{stdout}");
}
