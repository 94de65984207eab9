//! Standard input in every command that reads a puzzle file (`-`), named
//! by `--stdin-filename`, and `fmt --diff`, through the real binary.

mod common;
use common::*;

const UNFORMATTED: &str = "puzzle \"a\" {\nsize 2x2\n  lights on\n}\n";
const FORMATTED: &str = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n";

#[test]
fn fmt_reads_standard_input_and_writes_the_result_to_standard_output() {
    let dir = scratch("stdin_fmt");
    let out = lights_with_input(&dir, &["fmt", "-"], UNFORMATTED);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), FORMATTED));

    let out = lights_with_input(&dir, &["fmt", "--check", "-", "--stdin-filename", "levels/a.lights"], UNFORMATTED);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(1), "would reformat levels/a.lights\n"));
    let out = lights_with_input(&dir, &["fmt", "--check", "-"], FORMATTED);
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(0), ""));

    // A file with syntax errors: nothing on standard output, the errors on standard error.
    let out = lights_with_input(&dir, &["fmt", "-", "--stdin-filename", "x.lights"], "puzzle \"a\" {\n  size 2y2\n}\n");
    assert_eq!((out.status.code(), stdout(&out).as_str()), (Some(2), ""));
    assert!(stderr(&out).contains("not formatting x.lights"), "{}", stderr(&out));
}

#[test]
fn fmt_diff_shows_what_would_change_and_changes_nothing() {
    let dir = scratch("stdin_diff");
    std::fs::write(dir.join("a.lights"), UNFORMATTED).unwrap();
    std::fs::write(dir.join("b.lights"), FORMATTED).unwrap();
    let out = lights(&dir, &["fmt", "--diff", "a.lights", "b.lights"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "--- a/a.lights\n+++ b/a.lights\n@@ -1,4 +1,4 @@\n puzzle \"a\" {\n-size 2x2\n+  size 2x2\n   lights on\n }\n"
    );
    assert_eq!(std::fs::read_to_string(dir.join("a.lights")).unwrap(), UNFORMATTED, "--diff writes nothing");
    let out = lights_with_input(&dir, &["fmt", "--diff", "-"], UNFORMATTED);
    assert!(stdout(&out).starts_with("--- a/<stdin>\n+++ b/<stdin>\n"), "{}", stdout(&out));
}

#[test]
fn fmt_check_speaks_the_ci_formats() {
    let dir = scratch("fmt_formats");
    std::fs::write(dir.join("a, b.lights"), UNFORMATTED).unwrap();
    std::fs::write(dir.join("ok.lights"), FORMATTED).unwrap();
    let out = lights(&dir, &["fmt", "--check", "--format", "github", "a, b.lights", "ok.lights"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "::error file=a%2C b.lights,line=1,title=lights fmt::would reformat (run `lights fmt` on it)\n"
    );
    let out = lights(&dir, &["fmt", "--check", "--format", "concise", "."]);
    assert_eq!(stdout(&out), "./a, b.lights:1:1: error[fmt] would reformat (run `lights fmt ./a, b.lights`)\n");
}

#[test]
fn check_solve_and_render_read_standard_input() {
    let dir = scratch("stdin_commands");
    let broken = "puzzle \"a\" {\n  size 1x3\n  lights { 1 ? 1 }\n}\n";
    let out = lights_with_input(
        &dir,
        &["check", "-", "--stdin-filename", "levels/one.lights", "--format", "concise"],
        broken,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).starts_with("levels/one.lights:3:14: error[L0007]"), "{}", stdout(&out));

    let out = lights_with_input(&dir, &["solve", "-"], FORMATTED);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("1 solution · minimum 4 presses"), "{}", stdout(&out));
    let out = lights_with_input(&dir, &["solve", "-", "--write"], FORMATTED);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--write"), "{}", stderr(&out));
    let out = lights_with_input(&dir, &["solve", "-", "--stdin-filename", "named.lights", "--puzzle", "b"], FORMATTED);
    assert!(stderr(&out).contains("`named.lights` has no puzzle named \"b\""), "{}", stderr(&out));

    let out = lights_with_input(&dir, &["render", "-", "-o", "-"], FORMATTED);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("<svg "), "the picture is on standard output");
    assert!(stdout(&out).trim_end().ends_with("</svg>"));
    assert!(stderr(&out).starts_with("wrote standard output:"), "{}", stderr(&out));
}
