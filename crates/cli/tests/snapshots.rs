//! The rendered diagnostics of every file of the broken-file corpus
//! (`tests/corpus/`), pinned with insta.

mod common;
use common::*;

#[test]
fn corpus_diagnostics() {
    let root = root();
    let files = lights_files("tests/corpus");
    assert!(files.len() >= 20, "the corpus has one file per diagnostic code");
    for file in files {
        let rel = file.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
        let out = lights(&root, &["check", "-q", &rel]);
        assert_eq!(out.status.code(), Some(1), "{rel} must have an error");
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        insta::with_settings!({ snapshot_suffix => name.clone(), description => rel.clone(), omit_expression => true }, {
            insta::assert_snapshot!("corpus", stdout(&out));
        });
        // A file named after a code produces that code.
        if let Some(code) = name.split('-').next().filter(|c| c.starts_with('L')) {
            assert!(stdout(&out).contains(&format!("[{code}]")), "{rel} does not produce {code}");
        }
    }
}

#[test]
fn every_code_is_documented() {
    let doc = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    for code in lights_compiler::Code::ALL {
        assert!(doc.contains(&format!("## {}", code.as_str())), "docs/diagnostics.md lacks {}", code.as_str());
    }
}
