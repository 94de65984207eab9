//! `lights play` end to end: the real binary serves the page and the JSON
//! API of docs/play.md on a free port, follows the file as it changes, and
//! stops with status 0 on Ctrl-C (SIGINT). The test speaks plain HTTP/1.1
//! over a TCP socket (one request per connection).

mod common;
use common::*;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lights_test_client::board::{numbers, play};
use serde_json::{json, Value};

const PACK: &str = "puzzle \"cross\" {
  size 3x3
  lights {
    . 1 .
    1 1 1
    . 1 .
  }
}

puzzle \"ring of five\" {
  graph cycle 5
  lights at 1 3
}

puzzle \"huge\" {
  size 300x300
  lights on
}

sliding \"eight\" {
  size 3x3
  tiles {
    1 2 3
    4 5 6
    7 . 8
  }
}
";

/// A running `lights play`, stopped (SIGKILL) if the test fails first.
struct Server {
    child: Child,
    port: u16,
    /// Its standard error, read to the end once it exits.
    stderr: Option<std::process::ChildStderr>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(dir: &std::path::Path, args: &[&str]) -> Server {
    start_command(command(dir, args))
}

/// [`start`] for a command of one's own.
fn start_command(mut command: Command) -> Server {
    let mut child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start lights play");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    out.read_line(&mut line).expect("the first line");
    // lights play: http://127.0.0.1:PORT/ — Ctrl-C to stop
    let rest = line
        .strip_prefix("lights play: http://127.0.0.1:")
        .unwrap_or_else(|| panic!("the address first, got {line:?}"));
    let port: u16 = rest[..rest.find('/').expect("a slash after the port")].parse().expect("a port");
    assert!(line.trim_end().ends_with("/ — Ctrl-C to stop"), "{line:?}");
    assert_ne!(port, 0);
    let stderr = child.stderr.take();
    Server { child, port, stderr }
}

/// One HTTP request; the status, the headers (lower-case names) and the body.
fn http(port: u16, method: &str, path: &str, body: Option<&str>, host: Option<&str>) -> (u16, String, String) {
    let host = format!("Host: {}\r\n", host.map_or(format!("127.0.0.1:{port}"), str::to_string));
    let json = if body.is_some() { "Content-Type: application/json\r\n" } else { "" };
    raw(port, method, path, &format!("{host}{json}"), body)
}

/// A request with these header lines (each ending in CRLF) and no others
/// but `Connection` and, with a body, `Content-Length`.
fn raw(port: u16, method: &str, path: &str, headers: &str, body: Option<&str>) -> (u16, String, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\n{headers}Connection: close\r\n");
    if let Some(b) = body {
        request.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    request.push_str("\r\n");
    request.push_str(body.unwrap_or(""));
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).expect("read the response");
    let text = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("headers, then a body");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    // Bodies come with Content-Length (no chunks) from this server.
    (status, head.to_ascii_lowercase(), body.to_string())
}

fn get(port: u16, path: &str) -> (u16, Value) {
    let (status, head, body) = http(port, "GET", path, None, None);
    assert!(head.contains("content-type: application/json"), "{path}: {head}");
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {body}")))
}

fn post(port: u16, path: &str, body: &str) -> (u16, Value) {
    let (status, head, text) = http(port, "POST", path, Some(body), None);
    assert!(head.contains("content-type: application/json"), "{path}: {head}");
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}")))
}

/// Poll `/api/version` until it is not `old` (the file is looked at every 500 ms).
fn next_version(port: u16, old: u64) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, v) = get(port, "/api/version");
        let version = v["version"].as_u64().unwrap();
        if version != old {
            return version;
        }
        assert!(Instant::now() < deadline, "the version stayed {old} after the file changed");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Replace the file at once (a rename), as editors save: the server, which
/// looks at it every 500 ms, never sees it half written.
fn replace(file: &std::path::Path, text: &str) {
    let temp = file.with_extension("lights.tmp");
    std::fs::write(&temp, text).unwrap();
    std::fs::rename(&temp, file).unwrap();
}

/// Interrupt the server (Ctrl-C) and return its exit status and standard error.
fn interrupt(mut server: Server) -> (std::process::ExitStatus, String) {
    let pid = server.child.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status().expect("run kill");
    assert!(sent.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = server.child.try_wait().expect("wait") {
            break status;
        }
        assert!(Instant::now() < deadline, "lights play did not stop on SIGINT");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    if let Some(mut e) = server.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    (status, err)
}

#[test]
fn the_page_and_every_endpoint_answer_and_follow_the_file() {
    let dir = scratch("play_api");
    let file = dir.join("pack.lights");
    std::fs::write(&file, PACK).unwrap();
    let server = start(&dir, &["play", "pack.lights", "--no-open", "--port", "0", "--puzzle", "ring of five"]);
    let port = server.port;

    // The page and its assets.
    let (status, head, body) = http(port, "GET", "/", None, None);
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(body.contains("/board.js") && body.contains("/board.css"), "{body}");
    let (status, head, _) = http(port, "GET", "/board.js", None, None);
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/javascript"), "{head}");
    let (status, head, _) = http(port, "GET", "/board.css", None, None);
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/css"), "{head}");

    // The list: every block, the one to open on, what cannot be played.
    let (status, list) = get(port, "/api/puzzles");
    assert_eq!(status, 200);
    assert_eq!(list["file"], "pack.lights");
    assert_eq!(list["version"], 1);
    assert_eq!(list["start"], 1, "--puzzle names the second block");
    assert_eq!(list["error"], Value::Null);
    let puzzles = list["puzzles"].as_array().unwrap();
    let names: Vec<&str> = puzzles.iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["cross", "ring of five", "huge", "eight"]);
    // The list does not wait for solves: they run in the background, and a
    // later list has their answers.
    let status = |list: &Value| list["puzzles"][0]["status"].as_str().unwrap().to_string();
    assert!(["⋯ solving…", "✓ 1 solution · minimum 1 press"].contains(&status(&list).as_str()), "{list}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while status(&get(port, "/api/puzzles").1) != "✓ 1 solution · minimum 1 press" {
        assert!(Instant::now() < deadline, "the background solve never ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(puzzles[0]["playable"], true);
    assert_eq!(puzzles[2]["playable"], false);
    assert!(puzzles[2]["why"].as_str().unwrap().starts_with("90,000 cells"), "{}", puzzles[2]);
    assert_eq!((puzzles[3]["kind"].as_str(), puzzles[3]["playable"].as_bool()), (Some("sliding"), Some(false)));
    let (_, v) = get(port, "/api/version");
    assert_eq!(v, json!({"version": 1}));

    // A board, and a solve from a position on it.
    let (status, board) = get(port, "/api/puzzle/0");
    assert_eq!(status, 200);
    assert_eq!((board["version"].as_u64(), board["playable"].as_bool()), (Some(1), Some(true)));
    assert_eq!(board["presses"][0], json!([[0, 1], [1, 1], [3, 1]]));
    assert_eq!(board["report"]["presses"], 1);
    let (_, graph) = get(port, "/api/puzzle/1");
    assert_eq!(graph["shape"], "graph");
    assert_eq!(graph["labels"], json!(["1", "2", "3", "4", "5"]));
    assert_eq!(graph["graph"]["edges"].as_array().unwrap().len(), 5);
    let lights = [1, 1, 0, 1, 0, 0, 0, 0, 0];
    let (status, answer) = post(port, "/api/puzzle/0/solve", &json!({ "lights": lights }).to_string());
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["minimum"], json!([1, 0, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(answer["version"], 1, "the version solved");
    assert_eq!(play(&board, &lights, &numbers(&answer["minimum"])), numbers(&board["goal"]));
    let (status, text) = post(port, "/api/puzzle/0/lights", &json!({ "lights": lights }).to_string());
    assert_eq!(status, 200);
    assert_eq!(text["text"], "  lights {\n    1 1 .\n    1 . .\n    . . .\n  }");
    assert_eq!(text["version"], 1);
    // A position for the version the file is at is answered; for another, 409.
    let (status, _) = post(port, "/api/puzzle/0/solve", &json!({ "lights": lights, "version": 1 }).to_string());
    assert_eq!(status, 200);
    let (status, conflict) = post(port, "/api/puzzle/0/solve", &json!({ "lights": lights, "version": 7 }).to_string());
    assert_eq!(status, 409);
    assert!(conflict["error"].as_str().unwrap().contains("version 7, the file is at version 1"), "{conflict}");

    // Errors are JSON with 400 or 404.
    for (method, path, body, want) in [
        ("GET", "/api/puzzle/9", None, 404),
        ("GET", "/api/puzzle/x", None, 400),
        ("GET", "/nowhere", None, 404),
        ("POST", "/api/puzzle/0/solve", Some("not json"), 400),
        ("POST", "/api/puzzle/0/solve", Some("{\"lights\": [1, 0]}"), 400),
        ("POST", "/api/puzzle/0/solve", Some("{\"lights\": [2, 0, 0, 0, 0, 0, 0, 0, 0]}"), 400),
        ("POST", "/api/puzzle/2/solve", Some("{\"lights\": []}"), 400),
        ("POST", "/api/puzzle/7/lights", Some("{\"lights\": []}"), 404),
        ("GET", "/api/puzzle/%ff", None, 400),
        ("GET", "/api/puzzle/+1", None, 400),
    ] {
        let (status, head, text) = http(port, method, path, body, None);
        assert_eq!(status, want, "{method} {path}: {text}");
        assert!(head.contains("content-type: application/json"), "{method} {path}: {head}");
        assert!(head.contains("cache-control: no-store"), "{method} {path}: {head}");
        let error: Value = serde_json::from_str(&text).unwrap();
        assert!(error["error"].as_str().is_some_and(|e| !e.is_empty()), "{method} {path}: {text}");
    }
    // Another site's name for this address is refused, and so are requests
    // naming no host or two, and those another site's page would send.
    let (status, _, _) = http(port, "GET", "/api/puzzles", None, Some("example.com"));
    assert_eq!(status, 403);
    let host = format!("Host: 127.0.0.1:{port}\r\n");
    let body = json!({ "lights": lights }).to_string();
    for (headers, body, want) in [
        (String::new(), None, 400),
        (format!("{host}Host: example.com\r\n"), None, 400),
        (format!("{host}Sec-Fetch-Site: cross-site\r\n"), None, 403),
        (format!("{host}Sec-Fetch-Site: same-origin\r\n"), None, 200),
        // A guard header sent twice: the second value is not hidden behind the first.
        (format!("{host}Sec-Fetch-Site: same-origin\r\nSec-Fetch-Site: cross-site\r\n"), None, 400),
        (
            format!("{host}Origin: http://127.0.0.1:{port}\r\nOrigin: http://example.com\r\nContent-Type: application/json\r\n"),
            Some(&body),
            400,
        ),
        (format!("{host}Origin: http://example.com\r\nContent-Type: application/json\r\n"), Some(&body), 403),
        (format!("{host}Origin: http://127.0.0.1:{port}\r\nContent-Type: application/json\r\n"), Some(&body), 200),
        (format!("{host}Content-Type: text/plain\r\n"), Some(&body), 415),
        (format!("{host}Content-Type: application/x-www-form-urlencoded\r\n"), Some(&body), 415),
        (host.clone(), Some(&body), 415),
    ] {
        let (method, path) = if body.is_some() { ("POST", "/api/puzzle/0/solve") } else { ("GET", "/api/version") };
        let (status, head, text) = raw(port, method, path, &headers, body.map(String::as_str));
        assert_eq!(status, want, "{headers:?}: {text}");
        assert!(head.contains("content-type: application/json"), "{headers:?}: {head}");
    }

    // The file changes: a new version with the new lights.
    replace(&file, &PACK.replace("    . 1 .\n    1 1 1\n    . 1 .", "    1 . .\n    . . .\n    . . 1"));
    let version = next_version(port, 1);
    assert_eq!(version, 2);
    let (_, board) = get(port, "/api/puzzle/0");
    assert_eq!(board["version"], 2);
    assert_eq!(board["lights"], json!([1, 0, 0, 0, 0, 0, 0, 0, 1]));
    // An edit in place of the same length, its modification time put back,
    // is still seen (the change time moves).
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let same_length = text.replace("    1 . .\n    . . .\n    . . 1", "    . . 1\n    . . .\n    1 . .");
    assert_eq!(same_length.len(), text.len());
    std::fs::write(&file, &same_length).unwrap();
    std::fs::File::options().write(true).open(&file).unwrap().set_modified(before).unwrap();
    assert_eq!(next_version(port, 2), 3);
    let (_, board) = get(port, "/api/puzzle/0");
    assert_eq!(board["lights"], json!([0, 0, 1, 0, 0, 0, 1, 0, 0]));
    // A text with errors is still served; so is a file that is gone.
    replace(&file, "puzzle \"bad\" {\n  size 3x3\n  rule nonsense\n}\n");
    next_version(port, 3);
    let (_, list) = get(port, "/api/puzzles");
    assert_eq!(list["puzzles"][0]["playable"], false);
    assert!(list["puzzles"][0]["why"].as_str().unwrap().contains("line 3"), "{list}");
    assert_eq!(list["start"], Value::Null, "no puzzle of that name any more");
    std::fs::remove_file(&file).unwrap();
    next_version(port, 4);
    let (status, list) = get(port, "/api/puzzles");
    assert_eq!(status, 200);
    assert_eq!(list["puzzles"], json!([]));
    assert!(list["error"].as_str().unwrap().contains("cannot read"), "{list}");

    let (status, err) = interrupt(server);
    assert_eq!(status.code(), Some(0), "exit status after Ctrl-C; stderr: {err}");
    assert!(err.contains("lights play: stopped"), "{err}");
}

#[test]
fn an_unknown_puzzle_name_is_bad_usage() {
    let dir = scratch("play_usage");
    std::fs::write(dir.join("pack.lights"), PACK).unwrap();
    let o = command(&dir, &["play", "pack.lights", "--no-open", "--puzzle", "nope"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("no puzzle named \"nope\"") && err.contains("\"ring of five\""), "{err}");
    let o = command(&dir, &["play", "-", "--no-open"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// Ctrl-C at once after the address line (before any request) stops the
/// server with status 0, never by the signal: the handler is installed
/// before the line is printed.
#[cfg(unix)]
#[test]
fn ctrl_c_right_after_the_address_line_exits_with_status_0() {
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("play_sigint");
    std::fs::write(dir.join("pack.lights"), PACK).unwrap();
    for run in 0..20 {
        let server = start(&dir, &["play", "pack.lights", "--no-open"]);
        let (status, err) = interrupt(server);
        assert_eq!(status.signal(), None, "run {run}: killed by a signal; stderr: {err}");
        assert_eq!(status.code(), Some(0), "run {run}: stderr: {err}");
    }
}

/// `f()` on a thread of its own, or a failure naming `what` when it does not
/// answer within 15 s (a server that hangs must fail the test, not stall it).
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive.recv_timeout(Duration::from_secs(15)).unwrap_or_else(|_| panic!("{what} did not answer within 15 s"))
}

/// The watched file swapped for a FIFO and back, thousands of times, while
/// the server polls it and requests make it look (the check-then-open race
/// of issue 25: a look that saw a file, then an open that got the FIFO,
/// waited for a writer for good). The server never opens the FIFO as a
/// file, keeps answering, says what is wrong while it is a FIFO, and follows
/// the file once it is a file again.
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_file_never_stalls_the_server() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let dir = scratch("play_fifo");
    let file = dir.join("pack.lights");
    std::fs::write(&file, PACK).unwrap();
    let server = start(&dir, &["play", "pack.lights", "--no-open"]);
    let port = server.port;
    // One regular file and one FIFO, hard-linked into place in turn.
    let (regular, fifo) = (dir.join("regular"), dir.join("pipe"));
    std::fs::write(&regular, PACK.replace("cross", "crossed")).unwrap();
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("run mkfifo").success());
    let swap = |from: &std::path::Path, to: &std::path::Path| {
        let temp = dir.join("swap.tmp");
        let _ = std::fs::remove_file(&temp);
        std::fs::hard_link(from, &temp).unwrap();
        std::fs::rename(&temp, to).unwrap();
    };
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, regular, fifo, file, dir) = (stop.clone(), regular.clone(), fifo.clone(), file.clone(), dir.clone());
        std::thread::spawn(move || {
            let temp = dir.join("swapper.tmp");
            while !stop.load(Ordering::Relaxed) {
                for from in [&regular, &fifo] {
                    let _ = std::fs::remove_file(&temp);
                    std::fs::hard_link(from, &temp).unwrap();
                    std::fs::rename(&temp, &file).unwrap();
                }
            }
        })
    };
    let deadline = Instant::now() + Duration::from_secs(4);
    let mut answered = 0;
    while Instant::now() < deadline {
        let (status, _) = within("/api/version while the file was swapped", move || get(port, "/api/version"));
        assert_eq!(status, 200);
        answered += 1;
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    assert!(answered > 10, "{answered}");

    // Left a FIFO: the server says so, and keeps answering.
    swap(&fifo, &file);
    std::thread::sleep(Duration::from_millis(1200));
    let (status, list) = within("/api/puzzles", move || get(port, "/api/puzzles"));
    assert_eq!(status, 200);
    assert!(list["error"].as_str().is_some_and(|e| e.contains("not a regular file")), "{list}");
    assert_eq!(list["puzzles"], json!([]));
    let (_, v) = within("/api/version", move || get(port, "/api/version"));
    let old = v["version"].as_u64().unwrap();
    // A file again: served again.
    replace(&file, PACK);
    within("/api/version", move || next_version(port, old));
    let (status, list) = within("/api/puzzles", move || get(port, "/api/puzzles"));
    assert_eq!((status, list["puzzles"].as_array().map(Vec::len)), (200, Some(4)), "{list}");
    assert_eq!(list["puzzles"][0]["name"], "cross");
    let (status, err) = interrupt(server);
    assert_eq!(status.code(), Some(0), "stderr: {err}");
}

/// The number of threads of process `pid` now (Linux).
#[cfg(target_os = "linux")]
fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find_map(|l| l.strip_prefix("Threads:")).expect("a Threads line");
    line.trim().parse().unwrap()
}

/// 200 clients ask for a slow solve at once (issue 25: 208 threads and
/// 1.56 GB): the server runs one solve per core and queues a few, and the
/// rest are told 503 with Retry-After at once; its threads stay bounded by
/// the cores, whatever the number of clients.
#[cfg(target_os = "linux")]
#[test]
fn concurrent_solves_are_bounded_by_the_cores() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let dir = scratch("play_solves");
    // About 0.3 s a solve: a torus of three states, many solutions.
    let size = 200;
    std::fs::write(
        dir.join("slow.lights"),
        format!("puzzle \"slow\" {{\n  size {size}x{size}\n  topology torus\n  states 3\n  lights on\n}}\n"),
    )
    .unwrap();
    let server = start(&dir, &["play", "slow.lights", "--no-open"]);
    let (port, pid) = (server.port, server.child.id());
    // The board, solved once (from its start).
    let (status, _) = get(port, "/api/puzzle/0");
    assert_eq!(status, 200);
    let body = Arc::new(json!({ "lights": vec![1; size * size] }).to_string());
    let clients: Vec<_> = (0..200)
        .map(|_| {
            let body = body.clone();
            std::thread::spawn(move || {
                let (status, head, text) = http(port, "POST", "/api/puzzle/0/solve", Some(&body), None);
                (status, head, text)
            })
        })
        .collect();
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut most = 0;
            while !done.load(Ordering::Relaxed) {
                most = most.max(threads_of(pid));
                std::thread::sleep(Duration::from_millis(10));
            }
            most
        })
    };
    // While the pool is full, a board whose answer is known needs no turn.
    std::thread::sleep(Duration::from_millis(300));
    let (status, board) = get(port, "/api/puzzle/0");
    assert_eq!(status, 200, "{board}");
    let answers: Vec<_> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    done.store(true, Ordering::Relaxed);
    let most = sampler.join().unwrap();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    // The main thread, 2 workers, one solve per core and 8 more for blocking work.
    assert!(most <= cores + 11, "{most} threads for 200 clients on {cores} cores");
    let (mut solved, mut busy) = (0, 0);
    for (status, head, text) in &answers {
        match status {
            200 => solved += 1,
            503 if head.contains("retry-after: 1") && text.contains("busy") => busy += 1,
            _ => panic!("{status}: {head}\n{text}"),
        }
    }
    assert!(solved >= 1, "{solved} solved, {busy} told to retry");
    assert_eq!(solved + busy, 200);
    // Once they are served, a request is answered as before.
    let (status, _) = get(port, "/api/version");
    assert_eq!(status, 200);
}

/// The number of file descriptors process `pid` has open (Linux).
#[cfg(target_os = "linux")]
fn fds_of(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, std::iter::Iterator::count)
}

/// 2,000 connections that never send a byte, to a server allowed 256 file
/// descriptors (issue 25: they all stayed open, and under a low descriptor
/// limit nobody else got in). The server keeps at most its 128 connections
/// open, closing idle ones to make room, and a new client is answered.
#[cfg(target_os = "linux")]
#[test]
fn two_thousand_idle_connections_do_not_keep_a_client_out() {
    let dir = scratch("play_idle");
    std::fs::write(dir.join("pack.lights"), PACK).unwrap();
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -n 256 && exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_lights")])
        .args(["play", "pack.lights", "--no-open"])
        .current_dir(&dir);
    let server = start_command(command);
    let (port, pid) = (server.port, server.child.id());
    let mut idle = Vec::new();
    for _ in 0..2000 {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(stream) => idle.push(stream),
            // The test's own descriptor limit (1,024 on some machines) is reached.
            Err(e) if e.raw_os_error() == Some(24) => break,
            Err(e) => panic!("connect: {e}"),
        }
    }
    assert!(idle.len() >= 900, "only {} connections opened", idle.len());
    let started = Instant::now();
    let (status, list) = within("/api/puzzles after 2,000 idle connections", move || get(port, "/api/puzzles"));
    eprintln!("answered {:?} after the 2,000 connections", started.elapsed());
    assert_eq!(status, 200);
    assert_eq!(list["puzzles"].as_array().map(Vec::len), Some(4));
    // 128 connections, the listener, the standard streams and the runtime's own.
    let fds = fds_of(pid);
    assert!(fds <= 128 + 32, "{fds} descriptors open");
    drop(idle);
    let (status, err) = interrupt(server);
    assert_eq!(status.code(), Some(0), "stderr: {err}");
}

/// A connection that sends half a request header, then nothing, is closed
/// after the header timeout (here 300 ms), and so is one that sends nothing.
#[test]
fn a_half_sent_header_is_closed_after_the_header_timeout() {
    let dir = scratch("play_half_header");
    std::fs::write(dir.join("pack.lights"), PACK).unwrap();
    let server = start(&dir, &["play", "pack.lights", "--no-open", "--header-timeout-ms", "300"]);
    let port = server.port;
    for sent in [format!("GET /api/version HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"), String::new()] {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.write_all(sent.as_bytes()).unwrap();
        // Closed well before 15 s: the read ends (whatever the server said first).
        stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
        let mut rest = Vec::new();
        let ended = stream.read_to_end(&mut rest);
        assert!(
            ended.is_ok() || ended.as_ref().is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset),
            "{sent:?}: still open: {ended:?}"
        );
    }
    // A body that trickles (10 of 100 bytes, then nothing) gets 408, and the
    // connection closes.
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let head = format!(
        "POST /api/puzzle/0/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"lights\":"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let mut answer = Vec::new();
    let ended = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert!(ended.is_ok(), "still open: {ended:?} {answer}");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("the body did not arrive within"), "{answer}");
    // A whole request on a new connection is answered as ever.
    let (status, _) = get(port, "/api/version");
    assert_eq!(status, 200);
}

/// `POST /api/puzzle/N/write`: the position goes into the file as the
/// puzzle's `lights`, only while the file is at the version the position was
/// played on; a stale version, a missing one, a read-only server and another
/// site's page are refused, and the file is then left as it was.
#[test]
fn write_back_writes_the_file_only_at_the_version_played_on() {
    let dir = scratch("play_api_write");
    let file = dir.join("pack.lights");
    std::fs::write(&file, PACK).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let server = start(&dir, &["play", "pack.lights", "--no-open", "--port", "0"]);
    let port = server.port;
    let (_, board) = get(port, "/api/puzzle/0");
    let v0 = board["version"].as_u64().unwrap();

    // Without a version: refused, nothing written.
    let (status, body) = post(port, "/api/puzzle/0/write", r#"{"lights": [1,0,0,0,0,0,0,0,1]}"#);
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("version"), "{body}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), PACK);

    // At the version played on: written, as exactly the statement `…/lights` gives.
    let lights = json!([1, 0, 0, 0, 0, 0, 0, 0, 1]);
    let (_, statement) = post(port, "/api/puzzle/0/lights", &json!({ "lights": lights }).to_string());
    let (status, body) = post(port, "/api/puzzle/0/write", &json!({ "lights": lights, "version": v0 }).to_string());
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Wrote the lights of \"cross\" into pack.lights.");
    let v1 = body["version"].as_u64().unwrap();
    assert!(v1 > v0, "the written text is a new version");
    let old_statement = "  lights {\n    . 1 .\n    1 1 1\n    . 1 .\n  }";
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written, PACK.replacen(old_statement, statement["text"].as_str().unwrap(), 1));
    let (_, now) = get(port, "/api/puzzle/0");
    assert_eq!(numbers(&now["lights"]), vec![1, 0, 0, 0, 0, 0, 0, 0, 1]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "the file keeps its mode");
    }

    // The old version again: 409, nothing written.
    let (status, body) = post(port, "/api/puzzle/0/write", &json!({ "lights": vec![0; 9], "version": v0 }).to_string());
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("the file changed"), "{body}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written);

    // Changed on disk since the page loaded it (not yet read by the server): 409.
    let edited = written.replace("puzzle \"cross\"", "puzzle \"cross edited\"");
    replace(&file, &edited);
    let (status, body) = post(port, "/api/puzzle/0/write", &json!({ "lights": vec![0; 9], "version": v1 }).to_string());
    assert_eq!(status, 409, "{body}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);

    // A position that does not fit the board: 400.
    let v2 = next_version(port, v1);
    let (status, body) = post(port, "/api/puzzle/0/write", &json!({ "lights": vec![7; 9], "version": v2 }).to_string());
    assert_eq!(status, 400, "{body}");

    // Another site's page: refused by the guard before anything is read.
    let (status, _, _) = raw(
        port,
        "POST",
        "/api/puzzle/0/write",
        &format!("Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\n"),
        Some(&json!({ "lights": vec![0; 9], "version": v2 }).to_string()),
    );
    assert_eq!(status, 403);
    // A form post (not JSON) cannot write either.
    let (status, _, _) = raw(
        port,
        "POST",
        "/api/puzzle/0/write",
        &format!("Host: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\n"),
        Some(&json!({ "lights": vec![0; 9], "version": v2 }).to_string()),
    );
    assert_eq!(status, 415);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
    let (status, _) = interrupt(server);
    assert!(status.success());

    // --read-only: 403, and the puzzle list says so.
    let server = start(&dir, &["play", "pack.lights", "--no-open", "--port", "0", "--read-only"]);
    let (_, list) = get(server.port, "/api/puzzles");
    assert_eq!(list["read_only"], true);
    let (_, board) = get(server.port, "/api/puzzle/0");
    let (status, body) = post(
        server.port,
        "/api/puzzle/0/write",
        &json!({ "lights": vec![0; 9], "version": board["version"] }).to_string(),
    );
    assert_eq!(status, 403, "{body}");
    assert!(body["error"].as_str().unwrap().contains("--read-only"), "{body}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited);
}

/// Write back through a file that is a symbolic link: the link stays a
/// link and the file it names gets the text (the safe write opens the path
/// through the kernel and renames its temporary file over the target).
#[cfg(unix)]
#[test]
fn write_back_through_a_linked_file_writes_the_file_it_names() {
    let dir = scratch("play_api_write_link");
    std::fs::write(dir.join("real.lights"), PACK).unwrap();
    std::os::unix::fs::symlink("real.lights", dir.join("pack.lights")).unwrap();
    let server = start(&dir, &["play", "pack.lights", "--no-open", "--port", "0"]);
    let (_, board) = get(server.port, "/api/puzzle/0");
    let body = json!({ "lights": [1, 0, 0, 0, 0, 0, 0, 0, 1], "version": board["version"] }).to_string();
    let (status, answer) = post(server.port, "/api/puzzle/0/write", &body);
    assert_eq!(status, 200, "{answer}");
    assert!(std::fs::symlink_metadata(dir.join("pack.lights")).unwrap().file_type().is_symlink(), "still a link");
    let written = std::fs::read_to_string(dir.join("real.lights")).unwrap();
    assert_ne!(written, PACK, "the named file got the position");
    assert!(written.contains("  lights {\n    1 . .\n    . . .\n    . . 1\n  }"), "{written}");
}
