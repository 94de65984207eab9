//! The server's layout (issue 29): it only schedules and converts. Each
//! request and notification has a handler in a file of its own, to which
//! the `LanguageServer` impl of `server.rs` only delegates; what is said
//! and every fallback come from `lights-ide`.

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn the_language_server_impl_only_delegates_to_one_file_per_message() {
    let server = read(&src().join("server.rs"));
    let start = server.find("impl LanguageServer for Server {").expect("the LanguageServer impl");
    let mut methods = 0;
    for method in server[start..].split("    async fn ").skip(1) {
        let name = method.split('(').next().unwrap();
        let body = &method[method.find('{').unwrap() + 1..method.find("\n    }").unwrap()];
        methods += 1;
        if name == "shutdown" {
            assert_eq!(body.trim(), "Ok(())");
            continue;
        }
        let kind = if body.contains("requests::") { "requests" } else { "notifications" };
        // A notification's call ends with `;` (it returns nothing).
        let call = body.trim().trim_end_matches(';');
        assert_eq!(call, format!("{kind}::{name}(self, params).await"), "`{name}` does more than delegate");
        let file = src().join("server").join(kind).join(format!("{name}.rs"));
        assert!(file.exists(), "`{name}` has no file of its own: {}", file.display());
    }
    assert!(methods >= 17, "{methods} methods: the impl was not read");
}

#[test]
fn each_handler_file_holds_one_handler() {
    for kind in ["requests", "notifications"] {
        for file in rust_files(&src().join("server").join(kind)) {
            if file.file_name().unwrap() == "mod.rs" {
                continue;
            }
            let handlers = read(&file).matches("pub(crate) async fn ").count();
            assert_eq!(handlers, 1, "{}: {handlers} handlers", file.display());
        }
    }
}

#[test]
fn the_server_writes_no_diagnostic_of_its_own() {
    // The L0302 fallback and the capped list's note are the ide layer's.
    for file in rust_files(&src()) {
        let text = read(&file);
        for own in ["\"L0", "more problems are not shown", "internal error while analysing"] {
            assert!(!text.contains(own), "{} writes {own:?}: it belongs in lights_ide", file.display());
        }
    }
}
