//! `lights.toml`: a project's settings for `lights check`. The file that
//! applies to a puzzle file is the nearest one in its folder or a folder
//! above it (or the one `--config` names, for every file). Keys:
//!
//! ```toml
//! include = ["levels/**/*.lights"]   # folder walks take only these (globs from this file's folder)
//! exclude = ["levels/drafts/**"]      # …and never these
//! max-warnings = 0                    # more warnings than this fail the run (exit 1)
//! max-bytes = "1M"                    # larger files are not read (default 64M; --max-bytes wins)
//!
//! [solver]
//! time-budget-ms = 10000              # a puzzle not solved within this is L0301 (default: no limit)
//!
//! [severity]                          # per diagnostic code: "error", "warning" or "off"
//! L0206 = "error"
//! L0009 = "off"
//! ```
//!
//! Unknown keys and codes are errors (exit 2), so a typo does not pass
//! silently.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use lights_compiler::{Code, Diagnostic, Severity};
use serde::Deserialize;

pub(crate) const FILE_NAME: &str = "lights.toml";

/// What a diagnostic code becomes.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Level {
    Error,
    Warning,
    Off,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct File {
    include: Option<Vec<String>>,
    exclude: Option<Vec<String>>,
    max_warnings: Option<usize>,
    max_bytes: Option<Size>,
    #[serde(default)]
    severity: BTreeMap<String, Level>,
    #[serde(default)]
    solver: Solver,
}

/// `max-bytes = 1048576` or `max-bytes = "1M"`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Size {
    Bytes(u64),
    Text(String),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Solver {
    time_budget_ms: Option<u64>,
}

/// One `lights.toml`, read and checked.
#[derive(Debug)]
pub(crate) struct Config {
    /// Its folder: globs are relative to it.
    root: PathBuf,
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    pub max_warnings: Option<usize>,
    /// `max-bytes`: larger files are not read.
    pub max_bytes: Option<u64>,
    severity: HashMap<Code, Level>,
    /// `[solver] time-budget-ms`: a puzzle not solved within it is L0301.
    pub time_budget: Option<std::time::Duration>,
}

impl Config {
    /// Read and check `path`.
    pub(crate) fn load(path: &Path) -> Result<Config, String> {
        // A regular file of a sane size only: a FIFO named lights.toml must not hang a run.
        let text = crate::files::read_limited(path, 1 << 20)?;
        Config::parse(path, &text)
    }

    pub(crate) fn parse(path: &Path, text: &str) -> Result<Config, String> {
        let shown = path.display();
        let file: File = toml::from_str(text).map_err(|e| format!("`{shown}`: {}", e.to_string().trim_end()))?;
        let globs = |list: Option<Vec<String>>, key: &str| -> Result<Option<GlobSet>, String> {
            let Some(list) = list else { return Ok(None) };
            let mut set = GlobSetBuilder::new();
            for g in &list {
                set.add(Glob::new(g).map_err(|e| format!("`{shown}`: {key}: `{g}` is not a glob: {e}"))?);
            }
            set.build().map(Some).map_err(|e| format!("`{shown}`: {key}: {e}"))
        };
        let mut severity = HashMap::new();
        for (code, level) in file.severity {
            let Some(c) = Code::ALL.iter().find(|c| c.as_str().eq_ignore_ascii_case(&code)) else {
                return Err(format!("`{shown}`: [severity]: `{code}` is not a diagnostic code (L0001 … L0302)"));
            };
            severity.insert(*c, level);
        }
        Ok(Config {
            root: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            include: globs(file.include, "include")?,
            exclude: globs(file.exclude, "exclude")?,
            max_warnings: file.max_warnings,
            max_bytes: match file.max_bytes {
                None => None,
                Some(Size::Bytes(n)) => Some(n),
                Some(Size::Text(t)) => {
                    Some(crate::files::parse_size(&t).map_err(|e| format!("`{shown}`: max-bytes: {e}"))?)
                }
            },
            severity,
            time_budget: file.solver.time_budget_ms.map(std::time::Duration::from_millis),
        })
    }

    /// Whether a file found by walking a folder is checked: it matches
    /// `include` (when given) and not `exclude`.
    pub(crate) fn selects(&self, file: &Path) -> bool {
        let abs = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        let root = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let rel = abs.strip_prefix(&root).unwrap_or(&abs);
        self.include.as_ref().is_none_or(|g| g.is_match(rel)) && !self.exclude.as_ref().is_some_and(|g| g.is_match(rel))
    }

    /// The diagnostics with `[severity]` applied: some dropped, some made
    /// errors or warnings.
    pub(crate) fn apply(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diagnostics
            .into_iter()
            .filter_map(|mut d| {
                match self.severity.get(&d.code) {
                    Some(Level::Off) => return None,
                    Some(Level::Error) => d.severity = Severity::Error,
                    Some(Level::Warning) => d.severity = Severity::Warning,
                    None => {}
                }
                Some(d)
            })
            .collect()
    }
}

/// Finds the configuration of each file: the one `--config` named, or the
/// nearest `lights.toml` above the file (each folder looked up once).
#[derive(Default)]
pub(crate) struct Configs {
    named: Option<std::sync::Arc<Config>>,
    by_folder: HashMap<PathBuf, Option<std::sync::Arc<Config>>>,
}

impl Configs {
    pub(crate) fn new(named: Option<&Path>) -> Result<Configs, String> {
        let named = named.map(Config::load).transpose()?.map(std::sync::Arc::new);
        Ok(Configs { named, by_folder: HashMap::new() })
    }

    /// The configuration for `file` (`None`: defaults).
    pub(crate) fn for_file(&mut self, file: &Path) -> Result<Option<std::sync::Arc<Config>>, String> {
        if let Some(named) = &self.named {
            return Ok(Some(named.clone()));
        }
        let abs = std::fs::canonicalize(file)
            .or_else(|_| std::env::current_dir().map(|d| d.join(file)))
            .unwrap_or_else(|_| file.to_path_buf());
        let start = if abs.is_dir() { abs } else { abs.parent().map(Path::to_path_buf).unwrap_or_default() };
        self.for_folder(&start)
    }

    fn for_folder(&mut self, folder: &Path) -> Result<Option<std::sync::Arc<Config>>, String> {
        if let Some(found) = self.by_folder.get(folder) {
            return Ok(found.clone());
        }
        let candidate = folder.join(FILE_NAME);
        let found = if candidate.is_file() {
            Some(std::sync::Arc::new(Config::load(&candidate)?))
        } else {
            match folder.parent() {
                Some(parent) if parent != folder => self.for_folder(parent)?,
                _ => None,
            }
        };
        self.by_folder.insert(folder.to_path_buf(), found.clone());
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        let p = Path::new("lights.toml");
        assert!(Config::parse(p, "max-warnings = 0\n[severity]\nL0206 = \"error\"\nl0009 = \"off\"\n").is_ok());
        let typo = Config::parse(p, "max_warnings = 0\n").unwrap_err();
        assert!(typo.contains("unknown field `max_warnings`"), "{typo}");
        assert!(Config::parse(p, "[severity]\nL9999 = \"off\"\n").unwrap_err().contains("not a diagnostic code"));
        assert!(Config::parse(p, "[severity]\nL0206 = \"loud\"\n").unwrap_err().contains("unknown variant"));
        assert!(Config::parse(p, "include = [\"a/[\"]\n").unwrap_err().contains("is not a glob"));
    }

    #[test]
    fn severity_changes_and_drops_codes() {
        let c = Config::parse(Path::new("lights.toml"), "[severity]\nL0206 = \"error\"\nL0009 = \"off\"\n").unwrap();
        let span = lights_syntax::Span::new(0, 0);
        let ds = vec![
            Diagnostic::warning(Code::MinimumNotProven, span, "a"),
            Diagnostic::warning(Code::EmptyFile, span, "b"),
            Diagnostic::error(Code::Unsolvable, span, "c"),
        ];
        let out = c.apply(ds);
        assert_eq!(
            out.iter().map(|d| (d.code, d.severity)).collect::<Vec<_>>(),
            [(Code::MinimumNotProven, Severity::Error), (Code::Unsolvable, Severity::Error)]
        );
    }
}
