//! `lights table|census --shard K/N --format jsonl` and `--merge`, through
//! the real binary: every format merges to exactly the unsharded output, in
//! any shard order and for any N; a merge that is not one whole run is
//! refused (exit 2, a clear message, nothing on stdout); `--jobs N` prints
//! what `--jobs 1` prints; and a table and a census sharded through GNU
//! parallel (`apt-get install parallel`; `LIGHTS_SKIP_PARALLEL=1` skips that
//! test) merge back to the unsharded output.

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Output;

/// Run in `dir`; the command must succeed with nothing on stderr.
fn ok_in(dir: &Path, args: &[&str]) -> String {
    let out = lights(dir, args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    assert_eq!(stderr(&out), "", "{args:?} wrote to stderr");
    stdout(&out)
}

/// Run in `dir`; the command must fail with exit 2, an `error:` and no output.
fn refused_in(dir: &Path, args: &[&str]) -> String {
    let out: Output = lights(dir, args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should be refused: {}", stdout(&out));
    assert_eq!(stdout(&out), "", "{args:?} printed a result");
    let err = stderr(&out);
    assert!(err.starts_with("error:"), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Write shards 1..=n of `command` into `dir` as `{prefix}{k}.jsonl`;
/// returns their names, last shard first (merges must not care).
fn write_shards(dir: &Path, command: &[&str], n: usize, prefix: &str) -> Vec<String> {
    let mut names = Vec::new();
    for k in 1..=n {
        let spec = format!("{k}/{n}");
        let text = ok_in(dir, &[command, &["--shard", &spec, "--format", "jsonl"]].concat());
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(v["format"], "lights-shard/1");
            assert_eq!(v["shard"], serde_json::json!([k, n]));
        }
        let name = format!("{prefix}{k}.jsonl");
        std::fs::write(dir.join(&name), text).unwrap();
        names.push(name);
    }
    names.reverse();
    names
}

fn merge_args<'a>(command: &'a str, names: &'a [String], extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![command, "--merge"];
    args.extend(names.iter().map(String::as_str));
    args.extend_from_slice(extra);
    args
}

const TABLE_FORMATS: [&str; 4] = ["table", "markdown", "csv", "json"];
const SHOWS: [&str; 3] = ["solutions", "dimension", "fraction"];

#[test]
fn every_table_format_merges_to_the_unsharded_output() {
    let dir = scratch("shards_table_formats");
    let runs: [&[&str]; 4] = [
        &["table", "--rows", "1..9", "--cols", "1..12"],
        &["table", "--rows", "2..7", "--states", "4", "--topology", "torus"],
        &["table", "--rows", "2..8", "--grid", "hex", "--topology", "torus", "--rule", "ring"],
        &["table", "--rows", "3..6", "--cols", "2..5", "--rule", "{ .1. / 111 / .1. }", "--topology", "mobius"],
    ];
    for (r, run) in runs.iter().enumerate() {
        for n in [1, 3, 7] {
            let names = write_shards(&dir, run, n, &format!("t{r}-{n}-"));
            for format in TABLE_FORMATS {
                for show in SHOWS {
                    let whole = ok_in(&dir, &[run, &["--format", format, "--show", show][..]].concat());
                    let merged = ok_in(&dir, &merge_args("table", &names, &["--format", format, "--show", show]));
                    assert_eq!(merged, whole, "{run:?} in {n} shards, --format {format} --show {show}");
                }
            }
        }
    }
}

#[test]
fn a_graph_table_merges_and_more_shards_than_boards_is_fine() {
    let dir = scratch("shards_graph_table");
    let run: &[&str] = &["table", "--graph", "cycle", "--sizes", "3..20", "--show", "dimension"];
    // 18 sizes in 25 shards: seven shards print nothing, and that is fine.
    let names = write_shards(&dir, run, 25, "g");
    let empty = names.iter().filter(|n| std::fs::read_to_string(dir.join(n)).unwrap().is_empty()).count();
    assert_eq!(empty, 7);
    for format in TABLE_FORMATS {
        let whole = ok_in(&dir, &[run, &["--format", format][..]].concat());
        let merged = ok_in(&dir, &merge_args("table", &names, &["--format", format, "--show", "dimension"]));
        assert_eq!(merged, whole, "--format {format}");
    }
}

#[test]
fn shards_split_round_robin_and_in_any_order() {
    let dir = scratch("shards_round_robin");
    let run: &[&str] = &["table", "--rows", "1..6"];
    let names = write_shards(&dir, run, 4, "s");
    // Shard K has the entries i with i mod 4 = K − 1, in order.
    for name in &names {
        let k: usize = name[1..name.len() - 6].parse().unwrap();
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let indices: Vec<u64> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["index"].as_u64().unwrap())
            .collect();
        assert!(!indices.is_empty());
        assert!(indices.windows(2).all(|w| w[1] == w[0] + 4), "{indices:?}");
        assert!(indices.iter().all(|i| i % 4 == (k as u64 - 1)), "{k}: {indices:?}");
    }
    let whole = ok_in(&dir, run);
    for order in [[0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0]] {
        let files: Vec<String> = order.iter().map(|&i| names[i].clone()).collect();
        assert_eq!(ok_in(&dir, &merge_args("table", &files, &[])), whole, "{files:?}");
    }
    // One file holding every shard's lines, in a scrambled order, and standard input.
    let mut lines: Vec<String> = names
        .iter()
        .flat_map(|n| std::fs::read_to_string(dir.join(n)).unwrap().lines().map(String::from).collect::<Vec<_>>())
        .collect();
    lines.reverse();
    let all = format!("{}\n", lines.join("\n"));
    std::fs::write(dir.join("all.jsonl"), &all).unwrap();
    assert_eq!(ok_in(&dir, &["table", "--merge", "all.jsonl"]), whole);
    let out = lights_with_input(&dir, &["table", "--merge", "-"], &all);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), whole);
}

#[test]
fn every_census_method_merges_to_the_unsharded_output() {
    let dir = scratch("shards_census");
    let runs: [&[&str]; 8] = [
        &["census", "--size", "4x4", "--lock-dark"],
        &["census", "--size", "5x5", "--on", "19..20", "--lock-dark", "--rule", "flip"],
        &["census", "--size", "3x3", "--states", "3", "--lock-dark"],
        &["census", "--size", "9x9"],
        &["census", "--size", "19x19", "--on", "100..104"],
        &["census", "--size", "4x4", "--states", "6", "--topology", "torus"],
        &["census", "--size", "5x5", "--method", "syndromes"],
        &["census", "--graph", "petersen", "--rule", "ring"],
    ];
    for (r, run) in runs.iter().enumerate() {
        for n in [1, 2, 5] {
            let names = write_shards(&dir, run, n, &format!("c{r}-{n}-"));
            for format in ["text", "json"] {
                let whole = ok_in(&dir, &[run, &["--format", format][..]].concat());
                let merged = ok_in(&dir, &merge_args("census", &names, &["--format", format]));
                assert_eq!(merged, whole, "{run:?} in {n} shards, --format {format}");
            }
        }
    }
    // The census totals need every unit: a census sharded by its units, not
    // by K, still prints the total line.
    let names = write_shards(&dir, &["census", "--size", "3x4", "--lock-dark"], 3, "total-");
    let merged = ok_in(&dir, &merge_args("census", &names, &[]));
    assert!(merged.lines().any(|l| l.starts_with("total")), "{merged}");
}

#[test]
fn merges_that_are_not_one_whole_run_are_refused() {
    let dir = scratch("shards_refused");
    let table = write_shards(&dir, &["table", "--rows", "1..5"], 3, "t");
    let census = write_shards(&dir, &["census", "--size", "3x3", "--lock-dark"], 2, "c");
    let [t3, t2, t1] = [&table[0], &table[1], &table[2]];

    let missing = refused_in(&dir, &["table", "--merge", t1, t3]);
    assert!(missing.contains("entries are missing") && missing.contains("shard 2/3"), "{missing}");
    let twice = refused_in(&dir, &["table", "--merge", t1, t2, t3, t2]);
    assert!(twice.contains("given twice"), "{twice}");
    std::fs::copy(dir.join(t2), dir.join("copy.jsonl")).unwrap();
    let duplicated = refused_in(&dir, &["table", "--merge", t1, t2, t3, "copy.jsonl"]);
    assert!(duplicated.contains("is in both t2.jsonl:1 and copy.jsonl:1"), "{duplicated}");

    // Another run: the same split of other sizes.
    let other = write_shards(&dir, &["table", "--rows", "1..6"], 3, "o");
    let foreign = refused_in(&dir, &["table", "--merge", t1, &other[1], t3]);
    assert!(
        foreign.contains("comes from another run") && foreign.contains("cols [1,5] there, [1,6] here"),
        "{foreign}"
    );
    let split = write_shards(&dir, &["table", "--rows", "1..5"], 2, "h");
    assert!(refused_in(&dir, &["table", "--merge", t1, &split[0]]).contains("split into"));
    let wrong_command = refused_in(&dir, &["table", "--merge", &census[0], &census[1]]);
    assert!(wrong_command.contains("is a shard of `lights census`"), "{wrong_command}");
    assert!(refused_in(&dir, &["census", "--merge", t1, t2, t3]).contains("is a shard of `lights table`"));

    // Malformed lines, lines of another version or format, edited lines.
    let good = std::fs::read_to_string(dir.join(t1)).unwrap();
    let variants = [
        ("junk.jsonl", format!("{good}this is not JSON\n"), "junk.jsonl:"),
        (
            "cut.jsonl",
            good.lines().next().map(|l| l[..l.len() / 2].to_string()).unwrap(),
            "cut.jsonl:1 is not a shard line",
        ),
        (
            "old.jsonl",
            good.replace(&format!("\"lights\":\"{}\"", env!("CARGO_PKG_VERSION")), "\"lights\":\"0.0.0\""),
            "written by lights 0.0.0",
        ),
        ("v2.jsonl", good.replace("lights-shard/1", "lights-shard/2"), "shard format lights-shard/2"),
        (
            "key.jsonl",
            good.replace("\"key\":{\"cols\":1,\"rows\":1}", "\"key\":{\"cols\":2,\"rows\":1}"),
            "is not the one this run numbers there",
        ),
        ("sum.jsonl", good.replacen("\"solutions\":\"1\"", "\"solutions\":\"3\"", 1), "does not add up"),
        ("array.jsonl", "[1, 2, 3]\n".to_string(), "array.jsonl:1 is not a shard line"),
    ];
    for (name, text, expected) in variants {
        std::fs::write(dir.join(name), text).unwrap();
        let err = refused_in(&dir, &["table", "--merge", name, t2, t3]);
        assert!(err.contains(expected), "{name}: {err}");
    }
    // A run edited in every line (so the lines agree): far more boards than lines.
    let all: String = [t1, t2, t3].iter().map(|n| std::fs::read_to_string(dir.join(n)).unwrap()).collect();
    std::fs::write(
        dir.join("grown.jsonl"),
        all.replace("\"rows\":[1,5]", "\"rows\":[1,4000]").replace("\"cols\":[1,5]", "\"cols\":[1,4000]"),
    )
    .unwrap();
    assert!(refused_in(&dir, &["table", "--merge", "grown.jsonl"])
        .contains("the shards hold 15 entries, and their run has at least 8000000"));
    std::fs::write(dir.join("wider.jsonl"), all.replace("\"cols\":[1,5]", "\"cols\":[1,6]")).unwrap();
    assert!(refused_in(&dir, &["table", "--merge", "wider.jsonl"])
        .contains("this version of lights numbers 20 for their run"));
    std::fs::write(dir.join("empty.jsonl"), "").unwrap();
    assert!(refused_in(&dir, &["table", "--merge", "empty.jsonl"]).contains("no shard lines"));
    assert!(refused_in(&dir, &["table", "--merge", "nowhere.jsonl"]).contains("cannot read `nowhere.jsonl`"));

    // A census unit's count edited: the MacWilliams sum no longer divides.
    let mw = write_shards(&dir, &["census", "--size", "5x5", "--on", "3"], 1, "mw");
    let text = std::fs::read_to_string(dir.join(&mw[0])).unwrap();
    let mut lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let count: i64 = lines[0]["value"]["counts"][0][1].as_str().unwrap().parse().unwrap();
    lines[0]["value"]["counts"][0][1] = serde_json::json!((count + 1).to_string());
    let edited: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("mw-edited.jsonl"), edited).unwrap();
    assert!(refused_in(&dir, &["census", "--merge", "mw-edited.jsonl"]).contains("do not add up"));

    // Flags that do not go together.
    assert!(refused_in(&dir, &["table", "--merge", t1, "--format", "jsonl"]).contains("--merge prints the table"));
    assert!(refused_in(&dir, &["table", "--rows", "1..5", "--shard", "1/2"]).contains("add --format jsonl"));
    assert!(refused_in(&dir, &["census", "--size", "3x3", "--shard", "1/2"]).contains("add --format jsonl"));
    assert!(refused_in(&dir, &["table", "--merge", t1, "--rows", "1..5"]).contains("cannot be used with"));
    assert!(refused_in(&dir, &["census", "--merge", &census[0], "--lock-dark"]).contains("cannot be used with"));
}

#[test]
fn shard_numbers_are_checked() {
    let dir = scratch("shards_specs");
    for (spec, expected) in [
        ("0/3", "counts from 1 to N = 3"),
        ("4/3", "counts from 1 to N = 3"),
        ("1/0", "at least 1"),
        ("0/0", "at least 1"),
        ("x/3", "`x` is not a whole number"),
        ("1/y", "`y` is not a whole number"),
        ("3", "is not K/N"),
        ("", "is not K/N"),
        ("-1/2", "is not a whole number"),
    ] {
        for command in [&["table", "--rows", "1..3"][..], &["census", "--size", "2x2"][..]] {
            let flag = format!("--shard={spec}");
            let err = refused_in(&dir, &[command, &[flag.as_str(), "--format", "jsonl"]].concat());
            assert!(err.contains(expected), "--shard {spec:?}: {err}");
        }
    }
    for jobs in ["0", "x", "-2", "5000"] {
        let flag = format!("--jobs={jobs}");
        let err = refused_in(&dir, &["table", "--rows", "1..3", &flag]);
        assert!(err.contains("threads"), "--jobs {jobs}: {err}");
    }
}

#[test]
fn jobs_n_prints_what_jobs_1_prints() {
    let dir = scratch("shards_jobs");
    let runs: [&[&str]; 4] = [
        &["table", "--rows", "1..14", "--show", "dimension", "--format", "json"],
        &["table", "--graph", "cube-surface", "--sizes", "1..4", "--rule", "ring", "--states", "3"],
        &["census", "--size", "4x5", "--lock-dark", "--format", "json"],
        &["census", "--size", "15x15", "--on", "40..44"],
    ];
    for run in runs {
        let one = ok_in(&dir, &[run, &["--jobs", "1"][..]].concat());
        for jobs in ["2", "3", "8"] {
            assert_eq!(ok_in(&dir, &[run, &["--jobs", jobs][..]].concat()), one, "{run:?} --jobs {jobs}");
        }
        assert_eq!(ok_in(&dir, run), one, "{run:?} without --jobs");
    }
    // A shard's lines do not depend on the threads either.
    for run in [&["table", "--rows", "1..14"][..], &["census", "--size", "4x5", "--lock-dark"][..]] {
        let lines =
            |jobs: &str| ok_in(&dir, &[run, &["--shard", "2/3", "--format", "jsonl", "--jobs", jobs][..]].concat());
        assert_eq!(lines("1"), lines("3"), "{run:?} shard 2/3");
    }
}

/// GNU parallel (Debian's `parallel`), or `None` when `LIGHTS_SKIP_PARALLEL=1`.
fn gnu_parallel() -> Option<PathBuf> {
    if std::env::var("LIGHTS_SKIP_PARALLEL").is_ok_and(|v| v == "1") {
        eprintln!("skipped: LIGHTS_SKIP_PARALLEL=1");
        return None;
    }
    let version = std::process::Command::new("parallel").args(["--will-cite", "--version"]).output();
    match version {
        Ok(out) if String::from_utf8_lossy(&out.stdout).starts_with("GNU parallel") => Some(PathBuf::from("parallel")),
        _ => panic!(
            "GNU parallel is not on PATH (moreutils' `parallel` is another program): the shard test needs it \
             (`apt-get install parallel`; tests/run installs it), or set LIGHTS_SKIP_PARALLEL=1 to skip this test"
        ),
    }
}

#[test]
fn a_table_and_a_census_sharded_through_gnu_parallel_merge_to_the_unsharded_output() {
    let Some(parallel) = gnu_parallel() else { return };
    let dir = scratch("shards_gnu_parallel");
    let bin = env!("CARGO_BIN_EXE_lights");
    let cases: [(&str, &str, &[&str]); 2] = [
        (
            "table",
            "--rows 1..16 --cols 1..24 --rule king --topology torus",
            &["--format", "csv", "--show", "dimension"],
        ),
        ("census", "--size 4x5 --lock-dark --rule flip", &["--format", "json"]),
    ];
    for (command, params, format) in cases {
        // Four jobs at a time, eight shards, each writing its own file.
        let job = format!("'{bin}' {command} {params} --shard {{}}/8 --format jsonl > {command}-{{}}.jsonl");
        let out = std::process::Command::new(&parallel)
            .args([
                "--will-cite",
                "--halt",
                "now,fail=1",
                "-j",
                "4",
                &job,
                ":::",
                "1",
                "2",
                "3",
                "4",
                "5",
                "6",
                "7",
                "8",
            ])
            .current_dir(&dir)
            .output()
            .expect("run GNU parallel");
        assert!(out.status.success(), "parallel: {}", stderr(&out));
        let names: Vec<String> = (1..=8).rev().map(|k| format!("{command}-{k}.jsonl")).collect();
        let args: Vec<&str> = params.split(' ').collect();
        let whole = ok_in(&dir, &[&[command][..], &args, format].concat());
        let merged = ok_in(&dir, &merge_args(command, &names, format));
        assert_eq!(merged, whole, "{command} {params}");
        // Shard 3 left out: refused, not a wrong table.
        let without: Vec<String> = names.iter().filter(|n| !n.ends_with("-3.jsonl")).cloned().collect();
        assert!(refused_in(&dir, &merge_args(command, &without, format)).contains("shard 3/8"));
    }
}
