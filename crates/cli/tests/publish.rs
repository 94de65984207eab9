//! `lights publish` through the real binary: the site's files and data, a
//! pack with errors refused, a folder that is not a site refused (unless
//! --force), a symbolic link in place of the folder refused, and level names
//! that try to break out of the page's script or HTML kept as data.

mod common;
use common::*;

use serde_json::Value;

const PACK: &str = "puzzle \"one\" {\n  size 3x3\n  lights on\n}\n\nsliding \"eight\" {\n  size 3x3\n  tiles {\n    1 2 3\n    4 5 6\n    7 . 8\n  }\n}\n\npuzzle \"two\" {\n  size 4x4\n  states 4\n  lights at 1,1\n}\n";

/// The JSON of `levels.js`, which must equal `levels.json`.
fn site_data(site: &std::path::Path) -> Value {
    let js = std::fs::read_to_string(site.join("levels.js")).unwrap();
    let json = &js[js.find('{').unwrap()..=js.rfind('}').unwrap()];
    let data: Value = serde_json::from_str(json).unwrap();
    let file: Value = serde_json::from_str(&std::fs::read_to_string(site.join("levels.json")).unwrap()).unwrap();
    assert_eq!(data, file, "levels.js and levels.json hold the same data");
    data
}

#[test]
fn a_pack_becomes_a_site_with_every_playable_level() {
    let dir = scratch("publish_site");
    std::fs::write(dir.join("pack.lights"), PACK).unwrap();
    let out = lights(&dir, &["publish", "pack.lights", "-o", "site", "--title", "My pack"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("lights publish: 2 levels into site ("), "{text}");
    assert!(text.contains("1. one · hints from any position"), "{text}");
    assert!(text.contains("2. two · hints from the start only: W = 4 has a square factor"), "{text}");
    assert!(text.contains("left out: eight (a sliding block"), "{text}");
    let site = dir.join("site");
    for name in ["index.html", "board.js", "board.css", "levels.js", "levels.json", ".lights-site"] {
        assert!(site.join(name).is_file(), "{name}");
    }
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(html.contains("<title>My pack</title>"));
    assert!(html.contains("<script src=\"levels.js\"></script>") && html.contains("<script src=\"board.js\" defer>"));
    let data = site_data(&site);
    assert_eq!(data["format"], "lights-site/1");
    assert_eq!(data["levels"].as_array().unwrap().len(), 2);
    assert_eq!(data["levels"][0]["hints"]["kind"], "map");
    assert_eq!(data["levels"][0]["board"]["report"]["presses"], 5);
    assert_eq!(data["levels"][1]["hints"]["kind"], "start");
    // The page is the one `lights play` serves.
    assert_eq!(
        std::fs::read_to_string(site.join("board.js")).unwrap(),
        std::fs::read_to_string(root().join("crates/cli/assets/play/board.js")).unwrap()
    );
    // Again into the same site: allowed (it is marked as one).
    let again = lights(&dir, &["publish", "pack.lights", "-o", "site"]);
    assert!(again.status.success(), "{}", stderr(&again));
}

#[test]
fn errors_folders_and_links_are_refused() {
    let dir = scratch("publish_refused");
    std::fs::write(dir.join("bad.lights"), "puzzle \"bad\" {\n  size 0x3\n}\n").unwrap();
    let out = lights(&dir, &["publish", "bad.lights", "-o", "site"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bad.lights:2:"), "{}", stderr(&out));
    assert!(stderr(&out).contains("fix them"), "{}", stderr(&out));
    assert!(!dir.join("site").exists(), "nothing written");

    std::fs::write(dir.join("pack.lights"), PACK).unwrap();
    std::fs::create_dir(dir.join("docs")).unwrap();
    std::fs::write(dir.join("docs/notes.txt"), "mine").unwrap();
    let out = lights(&dir, &["publish", "pack.lights", "-o", "docs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a site `lights publish` wrote"), "{}", stderr(&out));
    assert!(!dir.join("docs/index.html").exists());
    let forced = lights(&dir, &["publish", "pack.lights", "-o", "docs", "--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert_eq!(std::fs::read_to_string(dir.join("docs/notes.txt")).unwrap(), "mine", "other files are kept");

    #[cfg(unix)]
    {
        std::fs::create_dir(dir.join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("linked")).unwrap();
        let out = lights(&dir, &["publish", "pack.lights", "-o", "linked"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
        assert_eq!(std::fs::read_dir(dir.join("elsewhere")).unwrap().count(), 0, "nothing written through the link");
    }
    let out = lights(&dir, &["publish", "missing.lights", "-o", "site"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn hostile_names_stay_data() {
    let dir = scratch("publish_hostile");
    let name = "</script><script>alert(1)</script>\u{2028}\\\" & <b>";
    let escaped = name.replace('\\', "\\\\").replace('"', "\\\"");
    std::fs::write(dir.join("pack.lights"), format!("puzzle \"{escaped}\" {{\n  size 2x2\n  lights on\n}}\n")).unwrap();
    let out = lights(&dir, &["publish", "pack.lights", "-o", "site", "--title", "<img src=x onerror=alert(1)>"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let site = dir.join("site");
    let js = std::fs::read_to_string(site.join("levels.js")).unwrap();
    assert!(!js.contains("</script"), "no `<` in the script: {js}");
    assert!(!js.contains('\u{2028}'), "no raw line separator");
    let html = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;") && !html.contains("<img"), "{html}");
    let data = site_data(&site);
    assert_eq!(data["levels"][0]["board"]["name"].as_str().unwrap(), name);
}
