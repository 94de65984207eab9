//! Issue 27, "Messages and formats": what a new user and a CI maintainer
//! hit in the messages, the machine formats, `fmt --check`, `man`, the
//! completions and a failed `import` in a pipe.

mod common;
use common::*;

#[test]
fn the_puzzle_line_counts_every_error_printed_above_it() {
    // L0201 (cannot be solved while it claims to be) and L0202 (`expect
    // unique` does not hold): two errors, and the line said "1 error".
    let dir = scratch("count");
    std::fs::write(dir.join("x.lights"), "puzzle \"wrong claim\" {\n  size 5x5\n  lights at 1,1\n  expect unique\n}\n")
        .unwrap();
    let out = lights(&dir, &["check", "x.lights"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert_eq!(text.matches("] Error:").count(), 2, "{text}");
    assert!(text.contains("✗ x.lights: wrong claim: unsolvable · 2 errors\n"), "{text}");
    assert!(text.contains("2 errors in 1 puzzle"), "{text}");
}

#[test]
fn fmt_check_exits_1_for_would_reformat_and_2_for_a_file_it_cannot_parse() {
    let dir = scratch("fmt_exit");
    std::fs::write(dir.join("messy.lights"), "puzzle \"a\" {\nsize 2x2\n    lights on\n}\n").unwrap();
    std::fs::write(dir.join("ok.lights"), "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n").unwrap();
    std::fs::write(dir.join("broken.lights"), "puzzle \"a\" {\n  size 2y2\n}\n").unwrap();
    let code = |args: &[&str]| lights(&dir, args).status.code();
    assert_eq!(code(&["fmt", "--check", "ok.lights"]), Some(0));
    assert_eq!(code(&["fmt", "--check", "messy.lights", "ok.lights"]), Some(1), "would reformat");
    assert_eq!(code(&["fmt", "--check", "broken.lights"]), Some(2), "does not parse");
    assert_eq!(code(&["fmt", "--check", "messy.lights", "broken.lights"]), Some(2), "2 wins over 1");
    assert_eq!(code(&["fmt", "--check", "missing.lights"]), Some(2), "cannot be read");
    assert_eq!(code(&["fmt", "--diff", "broken.lights"]), Some(2));
    assert_eq!(
        lights_with_input(&dir, &["fmt", "--check", "-"], "puzzle \"a\" {\n  size 2y2\n}\n").status.code(),
        Some(2)
    );
    // The help says so.
    let help = stdout(&lights(&dir, &["fmt", "--help"]));
    assert!(help.contains("2 when a file could not be read or parsed"), "{help}");
}

#[test]
fn a_failed_import_fails_the_pipe_into_check() {
    // `lights import coords in.txt | lights check --answer yes-no -` with no
    // in.txt: the import fails with nothing on standard output, and the
    // check of that empty input exited 0 (only L0009), so the pipe passed.
    let dir = scratch("import_pipe");
    let import = lights(&dir, &["import", "coords", "in.txt"]);
    assert_eq!(import.status.code(), Some(2));
    assert_eq!(stdout(&import), "", "a failed import writes nothing");
    for args in [&["check", "--answer", "yes-no", "-"][..], &["check", "-"], &["check", "--format", "json", "-"]] {
        let out = lights_with_input(&dir, args, &stdout(&import));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("standard input is empty"), "{args:?}: {}", stderr(&out));
    }
    // A working import still checks through the pipe.
    let import = lights_with_input(&dir, &["import", "coords"], "2\n1\n0 0\n");
    assert_eq!(import.status.code(), Some(0));
    let out = lights_with_input(&dir, &["check", "--answer", "yes-no", "-"], &stdout(&import));
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), "Yes\n"), "{}", stderr(&out));
    // An empty file named on the command line is still a file: L0009, a warning.
    std::fs::write(dir.join("empty.lights"), "").unwrap();
    let out = lights(&dir, &["check", "empty.lights"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("[L0009]"), "{}", stdout(&out));
}

/// A repository with one broken level under `levels/`.
fn repo(tag: &str) -> std::path::PathBuf {
    let dir = scratch(tag);
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::write(dir.join("levels/x.lights"), "puzzle \"x\" {\n  size 2x2\n  lights { 1 ? / 1 1 }\n}\n").unwrap();
    dir
}

#[test]
fn ci_formats_name_files_relative_to_the_repository_without_dot_slash() {
    let dir = repo("ci_paths");
    let absolute = dir.join("levels/x.lights").canonicalize().unwrap();
    let absolute = absolute.to_str().unwrap();
    for path in [".", "./levels", "levels", "./levels/x.lights", "levels/./x.lights", absolute] {
        let out = lights(&dir, &["check", "--format", "github", path]);
        let text = stdout(&out);
        assert!(text.starts_with("::error file=levels/x.lights,line=3,"), "{path}: {text}");
        let out = lights(&dir, &["check", "--format", "concise", path]);
        assert!(stdout(&out).starts_with("levels/x.lights:3:"), "{path}: {}", stdout(&out));
        let out = lights(&dir, &["check", "--format", "junit", path]);
        assert!(stdout(&out).contains("classname=\"levels/x.lights\""), "{path}: {}", stdout(&out));
        assert!(!stdout(&out).contains("./levels"), "{path}: {}", stdout(&out));
        let sarif: serde_json::Value =
            serde_json::from_str(&stdout(&lights(&dir, &["check", "--format", "sarif", path]))).unwrap();
        let run = &sarif["runs"][0];
        let location = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(location["uri"], "levels/x.lights", "{path}");
        assert_eq!(location["uriBaseId"], "SRCROOT", "{path}");
        assert_eq!(run["artifacts"][0]["location"]["uri"], "levels/x.lights", "{path}");
        let root = run["originalUriBaseIds"]["SRCROOT"]["uri"].as_str().unwrap();
        assert!(root.starts_with("file:///") && root.ends_with('/'), "{root}");
    }
    // The human report keeps the path as given.
    let out = lights(&dir, &["check", "./levels"]);
    assert!(stdout(&out).contains("./levels/x.lights"), "{}", stdout(&out));
}

#[test]
fn sarif_has_what_githubs_ruleset_requires_for_the_tool_and_every_rule() {
    // Microsoft's SARIF validator, GitHub ruleset: GH2012 wanted the
    // driver's informationUri and each rule's fullDescription.
    let dir = repo("sarif_rules");
    let out = lights(&dir, &["check", "--format", "sarif", "levels"]);
    let log: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let driver = &log["runs"][0]["tool"]["driver"];
    let repository = env!("CARGO_PKG_REPOSITORY").trim_end_matches('/');
    assert_eq!(driver["informationUri"], repository, "from the package's repository, one place");
    assert!(repository.starts_with("https://"), "{repository}");
    for key in ["name", "version", "semanticVersion"] {
        assert!(driver[key].as_str().is_some_and(|v| !v.is_empty()), "driver.{key}");
    }
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), lights_compiler::Code::ALL.len());
    for rule in rules {
        let id = rule["id"].as_str().unwrap();
        let text = |key: &str| rule[key]["text"].as_str().unwrap_or_else(|| panic!("{id}: no {key}.text")).to_string();
        let (short, full) = (text("shortDescription"), text("fullDescription"));
        assert!(!short.is_empty() && !full.is_empty(), "{id}");
        assert_ne!(short, full, "{id}: the full description says more than the title");
        assert!(rule["name"].as_str().is_some_and(|n| !n.is_empty()), "{id}: name");
        assert!(text("help").contains("**Trigger.**"), "{id}: help");
        let help_uri = rule["helpUri"].as_str().unwrap_or_else(|| panic!("{id}: helpUri"));
        assert!(help_uri.starts_with(&format!("{repository}/blob/main/docs/diagnostics.md#")), "{help_uri}");
    }
    let l0002 = rules.iter().find(|r| r["id"] == "L0002").unwrap();
    assert!(l0002["fullDescription"]["text"].as_str().unwrap().starts_with("A `puzzle` line that is not"));
}

/// The bash completion case of `flag` (`--rule)` …) in every subcommand.
fn bash_cases<'a>(script: &'a str, flag: &str) -> Vec<&'a str> {
    let case = format!("{flag})");
    let mut found = Vec::new();
    let lines: Vec<&str> = script.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == case {
            found.push(lines[i + 1].trim());
        }
    }
    found
}

#[test]
fn completions_offer_the_values_of_rule_graph_topology_and_grid_not_file_names() {
    let dir = scratch("completions");
    let bash = stdout(&lights(&dir, &["completions", "bash"]));
    let expected: &[(&str, &[&str])] = &[
        ("--rule", &["cross", "king", "flip", "merlin", "ring"]),
        ("--topology", &["plane", "cylinder", "torus", "mobius", "klein", "projective"]),
        ("--graph", &["cycle", "path", "complete", "cube-surface"]),
        ("--grid", &["square", "hex"]),
    ];
    for (flag, values) in expected {
        let cases = bash_cases(&bash, flag);
        // census, generate and table take each of them.
        assert!(cases.len() >= 3, "{flag}: {cases:?}");
        for case in cases {
            assert!(!case.contains("compgen -f"), "{flag} completes file names: {case}");
            for value in *values {
                assert!(case.split(['"', ' ']).any(|w| w == *value), "{flag} lacks {value}: {case}");
            }
        }
    }
    // `generate --graph` and `census --graph` take the named graphs too.
    assert!(bash_cases(&bash, "--graph").iter().filter(|c| c.contains(" petersen ")).count() >= 2);
    let zsh = stdout(&lights(&dir, &["completions", "zsh"]));
    assert!(zsh.contains(":RULE:(cross king flip merlin ring)"), "zsh");
    let fish = stdout(&lights(&dir, &["completions", "fish"]));
    assert!(fish.lines().any(|l| l.contains("-l topology") && l.contains("-a \"plane")), "fish");
    // The names only complete: a stencil and a sized graph are still taken.
    let out = lights(&dir, &["census", "--size", "3x3", "--rule", ".1. / 111 / .1."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = lights(&dir, &["generate", "--graph", "cycle:5", "--count", "1", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = lights(&dir, &["generate", "--size", "3x3", "--rule", "knig"]);
    assert_eq!(out.status.code(), Some(2), "unknown names are still refused");
    assert!(!stdout(&lights(&dir, &["generate", "--help"])).contains("possible values"), "--help unchanged");
}

/// The commands with a man page of their own (`import coords` for the
/// nested ones: its parent's page is `lights-import.1`).
const COMMANDS: [&str; 13] = [
    "check",
    "solve",
    "fmt",
    "lsp",
    "completions",
    "man",
    "generate",
    "table",
    "census",
    "render",
    "compile",
    "import coords",
    "play",
];

#[test]
fn man_dir_writes_a_page_per_subcommand_each_with_its_options() {
    let dir = scratch("man");
    let out = lights(&dir, &["man", "--dir", "pages"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let pages = dir.join("pages");
    let top = std::fs::read_to_string(pages.join("lights.1")).unwrap();
    // Every page the top page refers to exists, and mentions each option.
    let mut referred = 0;
    for name in COMMANDS.map(|c| c.split(' ').next().unwrap()) {
        assert!(top.contains(&format!("lights\\-{name}(1)")), "lights(1) lists lights-{name}(1)");
        let page = std::fs::read_to_string(pages.join(format!("lights-{name}.1")))
            .unwrap_or_else(|e| panic!("lights-{name}.1: {e}"));
        assert!(page.contains(&format!(".TH lights-{name} 1")), "{name}: {page}");
        assert!(page.contains(&format!("\"lights {}\"", env!("CARGO_PKG_VERSION"))), "{name}: the version");
        referred += 1;
    }
    assert_eq!(referred, 13);
    // The options, as `--help` lists them: every one is on the page.
    let mut options = 0;
    for sub in COMMANDS {
        let mut args: Vec<&str> = sub.split(' ').collect();
        args.push("--help");
        let help = stdout(&lights(&dir, &args));
        let page_name = format!("lights-{}.1", sub.replace(' ', "-"));
        let page = std::fs::read_to_string(pages.join(&page_name)).unwrap();
        for line in help.lines().map(str::trim_start).filter(|l| l.starts_with('-')) {
            let Some(long) = line.split([' ', ',', '=']).find(|w| w.starts_with("--")) else { continue };
            let roff = long.replace('-', "\\-");
            assert!(page.contains(&roff), "{page_name} does not mention {long}");
            options += 1;
        }
    }
    assert!(options > 50, "{options} options checked");
    assert!(pages.join("lights-import-coords.1").exists(), "nested subcommands too");
    // Without --dir, the top page on standard output, as before.
    let out = lights(&dir, &["man"]);
    assert!(stdout(&out).starts_with(".ie") && stdout(&out).contains(".TH lights 1"), "{}", stdout(&out));
}
