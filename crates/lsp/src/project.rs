//! Which `lights.toml` applies to an open document, as `lights check`
//! finds it (`lights_ide::config`): the nearest one above a `file:` URI;
//! for any other (an untitled document), the one of the workspace root, or
//! none. Found once per folder until a watched `lights.toml` changes. A
//! file that cannot be read or checked gives the error `lights check`
//! gives, once until it changes; the defaults apply meanwhile.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use lights_ide::config::{Config, Configs, FILE_NAME};
use tower_lsp_server::lsp_types::Uri;
use tower_lsp_server::UriExt;

#[derive(Default)]
pub(crate) struct Projects {
    configs: Mutex<Configs>,
    /// The workspace's root folder (for documents that are not files).
    root: Mutex<Option<PathBuf>>,
    /// Errors already shown to the user.
    shown: Mutex<HashSet<String>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The path of a `file:` URI.
pub(crate) fn file_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().is_some_and(|s| s.as_str().eq_ignore_ascii_case("file")) {
        return None;
    }
    uri.to_file_path().map(std::borrow::Cow::into_owned)
}

/// Whether a watched file's URI names a `lights.toml`.
pub(crate) fn is_config(uri: &Uri) -> bool {
    file_path(uri).is_some_and(|p| p.file_name().is_some_and(|n| n == FILE_NAME))
}

impl Projects {
    /// Reading each `lights.toml` with `read`.
    pub(crate) fn new(read: lights_ide::config::ReadFn) -> Projects {
        Projects { configs: Mutex::new(Configs::with_reader(read)), ..Projects::default() }
    }

    pub(crate) fn set_root(&self, root: Option<PathBuf>) {
        *lock(&self.root) = root;
    }

    /// The configuration of the document `uri` (`None`: the defaults), and
    /// an error to show the user when its `lights.toml` is bad and that was
    /// not said yet.
    pub(crate) fn for_uri(&self, uri: &Uri) -> (Option<Arc<Config>>, Option<String>) {
        let folder = match file_path(uri) {
            Some(path) => path.parent().map(Path::to_path_buf),
            None => lock(&self.root).clone(),
        };
        let Some(folder) = folder else { return (None, None) };
        let found = lock(&self.configs).for_folder(&folder);
        match found {
            Ok(config) => (config, None),
            Err(e) => {
                let e = e.to_string();
                let new = lock(&self.shown).insert(e.clone());
                (None, new.then_some(e))
            }
        }
    }

    /// A `lights.toml` was created, changed or deleted: read them again
    /// (and say again what is wrong with one still bad).
    pub(crate) fn reload(&self) {
        lock(&self.configs).forget();
        lock(&self.shown).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn file_uris_find_the_nearest_file_and_others_the_roots() {
        let dir = std::env::temp_dir().join(format!("lights-lsp-project-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("levels")).unwrap();
        std::fs::write(dir.join(FILE_NAME), "max-warnings = 4\n").unwrap();
        let file = Uri::from_str(&format!("file://{}/levels/a.lights", dir.display())).unwrap();
        let untitled = Uri::from_str("untitled:Untitled-1").unwrap();
        let projects = Projects::default();
        assert_eq!(projects.for_uri(&file).0.and_then(|c| c.max_warnings), Some(4));
        assert!(projects.for_uri(&untitled).0.is_none(), "no workspace root: the defaults");
        projects.set_root(Some(dir.clone()));
        assert_eq!(projects.for_uri(&untitled).0.and_then(|c| c.max_warnings), Some(4));
        // A bad file: its error once, the defaults; said again after a reload.
        std::fs::write(dir.join("levels").join(FILE_NAME), "nope = 1\n").unwrap();
        assert_eq!(projects.for_uri(&file).0.and_then(|c| c.max_warnings), Some(4), "remembered until a reload");
        projects.reload();
        let (config, error) = projects.for_uri(&file);
        assert!(config.is_none() && error.is_some_and(|e| e.contains("unknown field `nope`")));
        assert_eq!(projects.for_uri(&file).1, None, "said once");
        projects.reload();
        assert!(projects.for_uri(&file).1.is_some());
        assert!(is_config(&Uri::from_str(&format!("file://{}/lights.toml", dir.display())).unwrap()));
        assert!(!is_config(&file) && !is_config(&untitled));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
