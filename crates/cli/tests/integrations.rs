//! The CI integrations the repository ships run their commands as written:
//! the pre-commit hooks (`.pre-commit-hooks.yaml`) and the GitHub Action
//! (`action.yml`), with the binary under test as `lights`; and the shell
//! completions and manual page are generated.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

/// `PATH` with the binary under test first.
fn path_with_lights() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_lights")).parent().unwrap().to_path_buf();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap()))).unwrap()
}

fn sh(dir: &Path, script: &str, env: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = Command::new("bash");
    cmd.args(["-c", script]).current_dir(dir).env("PATH", path_with_lights()).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run bash")
}

/// `(id, entry, files)` of each hook, read line by line (the file is a
/// flat list of maps).
fn hooks() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let mut out = Vec::new();
    for item in text.split("\n- ").skip(1) {
        let field = |key: &str| {
            item.lines()
                .map(|l| l.trim().trim_start_matches("- "))
                .find_map(|l| l.strip_prefix(&format!("{key}: ")))
                .unwrap_or_else(|| panic!("hook without {key}: {item}"))
                .to_string()
        };
        out.push((field("id"), field("entry"), field("files")));
    }
    out
}

fn pack(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("good.lights"), "puzzle \"g\" {\n  size 2x2\n  lights on\n}\n").unwrap();
    std::fs::write(dir.join("claim.lights"), "puzzle \"c\" {\n  size 5x5\n  lights on\n  expect unique\n}\n").unwrap();
    std::fs::write(dir.join("messy.lights"), "puzzle \"m\" {\nsize 2x2\n   lights on\n}\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a puzzle").unwrap();
    dir
}

#[test]
fn the_pre_commit_hooks_check_and_format_the_staged_puzzle_files() {
    let hooks = hooks();
    assert_eq!(hooks.iter().map(|h| h.0.as_str()).collect::<Vec<_>>(), ["lights-check", "lights-fmt"]);
    for (_, _, files) in &hooks {
        assert_eq!(files, r"\.lights$");
    }
    let dir = pack("integrations_hooks");
    // pre-commit passes the matching files as arguments.
    let (_, check, _) = &hooks[0];
    assert_eq!(sh(&dir, &format!("{check} good.lights messy.lights"), &[]).status.code(), Some(0));
    let failed = sh(&dir, &format!("{check} good.lights claim.lights"), &[]);
    assert_eq!(failed.status.code(), Some(1));
    assert!(stdout(&failed).contains("[L0202]"), "{}", stdout(&failed));
    let (_, fmt, _) = &hooks[1];
    let out = sh(&dir, &format!("{fmt} messy.lights good.lights"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.join("messy.lights")).unwrap(),
        "puzzle \"m\" {\n  size 2x2\n  lights on\n}\n"
    );
}

#[test]
fn the_github_action_annotates_with_a_given_binary() {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(action.contains("using: composite"));
    // The install step is skipped when a binary is given; it runs action/install.sh (pip installs the
    // lights-cli wheel: nothing is compiled), which tests/packaging/action runs against a local wheel.
    assert!(action.contains("if: inputs.binary == ''"));
    assert!(action.contains("run: bash \"$GITHUB_ACTION_PATH/action/install.sh\""));
    assert!(!action.contains("cargo "), "the action compiles nothing");
    let manifest = std::fs::read_to_string(root().join("crates/cli/Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"lights\""), "crates/cli builds the `lights` binary");
    let run = action
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("run: "))
        .find(|r| r.contains(" check "))
        .expect("the check step");
    let script = run.replace("${{ inputs.args }}", "--deny-warnings").replace("${{ inputs.paths }}", ".");
    let dir = pack("integrations_action");
    let out = sh(&dir, &script, &[("LIGHTS_BIN", env!("CARGO_BIN_EXE_lights"))]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("::error file=claim.lights,line=4,"), "no `./`: {text}");
    // Without a binary, the one on PATH (the build step's) is used.
    let out = sh(&dir, &script.replace(" .", " good.lights"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn completions_and_the_manual_page_are_generated() {
    let dir = scratch("integrations_completions");
    for (shell, marker) in [
        ("bash", "_lights()"),
        ("zsh", "#compdef lights"),
        ("fish", "complete -c lights"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = lights(&dir, &["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let text = stdout(&out);
        assert!(text.contains(marker), "{shell}: {}", &text[..text.len().min(200)]);
        assert!(text.contains("check") && text.contains("--format"), "{shell} completes commands and options");
    }
    let out = lights(&dir, &["man"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains(".TH lights 1"), "{}", &stdout(&out)[..200]);
    assert!(stdout(&out).contains("check"));
}
