//! `lights.toml`: a project's settings, the same for `lights check` and the
//! language server. The file that applies to a puzzle file is the nearest
//! one in its folder or a folder above it (`lights check --config` names one
//! for every file). Keys:
//!
//! ```toml
//! include = ["levels/**/*.lights"]   # folder walks take only these (globs from this file's folder)
//! exclude = ["levels/drafts/**"]      # …and never these
//! max-warnings = 0                    # more warnings than this fail the run (exit 1)
//! max-bytes = "1M"                    # larger files are not read (default 64M; --max-bytes wins)
//!
//! [solver]
//! time-budget-ms = 10000              # a puzzle not solved within this is L0301 (default: no limit)
//! minimum-budget = "2s"               # work the minimum search may do (default ~10ms; "0": no search;
//!                                     # --minimum-budget wins)
//!
//! [severity]                          # per diagnostic code: "error", "warning" or "off"
//! L0206 = "error"
//! L0009 = "off"
//! ```
//!
//! Unknown keys and codes are errors, so a typo does not pass silently: the
//! command line stops (exit 2), the language server says so and applies the
//! defaults. Plain data and functions: [`Config`] is one file read and
//! checked, [`Configs`] finds the one for each file. The front ends apply
//! [`Config::apply`] to what [`diagnostics`](crate::diagnostics) says and
//! solve within [`Config::time_budget`].

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use globset::{Glob, GlobSet, GlobSetBuilder};
use lights_compiler::{Code, Diagnostic, MinimumBudget, Severity, SolveOptions};
use serde::Deserialize;

use crate::diagnostics::Problem;

/// The name looked for: `lights.toml`.
pub const FILE_NAME: &str = "lights.toml";

/// The largest `lights.toml` read (1 MiB).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// How a `lights.toml` is read: its text, or an error message naming it.
/// The command line passes one that refuses FIFOs and devices on the file
/// actually opened; [`read_file`] is the plain one.
pub type ReadFn = fn(&Path) -> Result<String, String>;

/// Why there is no configuration: the file could not be read, or it is not
/// a valid `lights.toml`. The message names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// What the [`ReadFn`] said (it names the file).
    #[error("{0}")]
    Read(String),
    /// `file` as shown to the user, and what is wrong in it
    /// ("unknown field `max_warnings`, …", "[severity]: …").
    #[error("`{file}`: {reason}")]
    Invalid { file: String, reason: String },
}

/// For the callers that report in text (`?` in a function returning
/// `Result<_, String>`).
impl From<ConfigError> for String {
    fn from(e: ConfigError) -> String {
        e.to_string()
    }
}

/// What a diagnostic code becomes.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Level {
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
    minimum_budget: Option<BudgetText>,
}

/// `minimum-budget = "2s"` (or `0`, the one budget written without a unit).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum BudgetText {
    Number(i64),
    Float(f64),
    Text(String),
}

/// One `lights.toml`, read and checked.
#[derive(Debug)]
pub struct Config {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its folder: globs are relative to it.
    root: PathBuf,
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    /// `max-warnings`: more warnings than this fail a `lights check` run.
    pub max_warnings: Option<usize>,
    /// `max-bytes`: larger files are not read.
    pub max_bytes: Option<u64>,
    severity: HashMap<Code, Level>,
    /// `[solver] time-budget-ms`: a puzzle not solved within it is L0301.
    pub time_budget: Option<Duration>,
    /// `[solver] minimum-budget`: the work the minimum search may do.
    pub minimum_budget: Option<MinimumBudget>,
}

impl Config {
    /// Read (with `read`) and check `path`.
    pub fn load(path: &Path, read: ReadFn) -> Result<Config, ConfigError> {
        let text = read(path).map_err(ConfigError::Read)?;
        Config::parse(path, &text)
    }

    /// Check the text of the `lights.toml` at `path`. The error names the
    /// file: "`PATH`: unknown field `max_warnings`, …".
    pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
        let shown = path.display().to_string();
        let invalid = |reason: String| ConfigError::Invalid { file: shown.clone(), reason };
        let file: File = toml::from_str(text).map_err(|e| invalid(e.to_string().trim_end().to_string()))?;
        let globs = |list: Option<Vec<String>>, key: &str| -> Result<Option<GlobSet>, ConfigError> {
            let Some(list) = list else { return Ok(None) };
            let mut set = GlobSetBuilder::new();
            for g in &list {
                set.add(Glob::new(g).map_err(|e| invalid(format!("{key}: `{g}` is not a glob: {e}")))?);
            }
            set.build().map(Some).map_err(|e| invalid(format!("{key}: {e}")))
        };
        let mut severity = HashMap::new();
        for (code, level) in file.severity {
            let Some(c) = Code::ALL.iter().find(|c| c.as_str().eq_ignore_ascii_case(&code)) else {
                return Err(invalid(format!("[severity]: `{code}` is not a diagnostic code (L0001 … L0302)")));
            };
            severity.insert(*c, level);
        }
        Ok(Config {
            path: path.to_path_buf(),
            root: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            include: globs(file.include, "include")?,
            exclude: globs(file.exclude, "exclude")?,
            max_warnings: file.max_warnings,
            max_bytes: match file.max_bytes {
                None => None,
                Some(Size::Bytes(n)) => Some(n),
                Some(Size::Text(t)) => Some(parse_bytes(&t).map_err(|e| invalid(format!("max-bytes: {e}")))?),
            },
            severity,
            time_budget: file.solver.time_budget_ms.map(Duration::from_millis),
            minimum_budget: minimum_budget(file.solver.minimum_budget).map_err(invalid)?,
        })
        .and_then(|c| {
            // Both in one file and the search longer than the solve may
            // take: the search would always be stopped by the time budget.
            match (c.minimum_budget, c.time_budget) {
                (Some(m), Some(t)) if m.duration() > t => Err(invalid(format!(
                    "[solver]: minimum-budget \"{m}\" is longer than time-budget-ms = {}: every search \
                     that used it would be stopped by the time budget (L0301); raise time-budget-ms or lower \
                     minimum-budget",
                    t.as_millis()
                ))),
                _ => Ok(c),
            }
        })
    }

    /// The solve options of files under this lights.toml (`None`: its
    /// `minimum-budget` is not set).
    pub fn solve_options(&self) -> Option<SolveOptions> {
        self.minimum_budget.map(MinimumBudget::solve_options)
    }

    /// Whether a file found by walking a folder is checked: it matches
    /// `include` (when given) and not `exclude`.
    pub fn selects(&self, file: &Path) -> bool {
        let abs = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        let root = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        let rel = abs.strip_prefix(&root).unwrap_or(&abs);
        self.include.as_ref().is_none_or(|g| g.is_match(rel)) && !self.exclude.as_ref().is_some_and(|g| g.is_match(rel))
    }

    /// What `[severity]` makes of `code` (`None`: as the compiler says).
    pub fn level(&self, code: Code) -> Option<Level> {
        self.severity.get(&code).copied()
    }

    /// The diagnostics with `[severity]` applied: some dropped, some made
    /// errors or warnings.
    pub fn apply(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diagnostics.into_iter().filter_map(|d| self.restate(d)).collect()
    }

    /// [`Config::apply`] for the editor's [`Problem`]s.
    pub fn apply_problems(&self, problems: Vec<Problem>) -> Vec<Problem> {
        problems
            .into_iter()
            .filter_map(|p| Some(Problem { diagnostic: self.restate(p.diagnostic)?, related: p.related }))
            .collect()
    }

    fn restate(&self, mut d: Diagnostic) -> Option<Diagnostic> {
        match self.level(d.code) {
            Some(Level::Off) => return None,
            Some(Level::Error) => d.severity = Severity::Error,
            Some(Level::Warning) => d.severity = Severity::Warning,
            None => {}
        }
        Some(d)
    }
}

/// [`Config::apply`] when there may be no configuration (the defaults).
pub fn apply(config: Option<&Config>, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    match config {
        Some(c) => c.apply(diagnostics),
        None => diagnostics,
    }
}

/// [`Config::apply_problems`] when there may be no configuration.
pub fn apply_problems(config: Option<&Config>, problems: Vec<Problem>) -> Vec<Problem> {
    match config {
        Some(c) => c.apply_problems(problems),
        None => problems,
    }
}

/// Read a `lights.toml` of at most [`MAX_CONFIG_BYTES`]: a regular file,
/// UTF-8 text.
pub fn read_file(path: &Path) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("cannot read `{}`: {e}", path.display());
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("cannot read `{}`: not a regular file", path.display()));
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(format!("`{}` is larger than 1 MiB, the most read of a lights.toml", path.display()));
    }
    let bytes = std::fs::read(path).map_err(cannot)?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read `{}`: it is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Finds the configuration of each file: the one named (`--config`), or
/// the nearest `lights.toml` above the file, each folder looked up once
/// until [`Configs::forget`].
pub struct Configs {
    named: Option<Arc<Config>>,
    read: ReadFn,
    by_folder: HashMap<PathBuf, Option<Arc<Config>>>,
}

impl Default for Configs {
    fn default() -> Self {
        Configs { named: None, read: read_file, by_folder: HashMap::new() }
    }
}

impl Configs {
    /// The nearest `lights.toml` of each file, read with `read`.
    pub fn with_reader(read: ReadFn) -> Configs {
        Configs { named: None, read, by_folder: HashMap::new() }
    }

    /// With `named` for every file (read now), else the nearest one; files
    /// are read with `read`.
    pub fn new(named: Option<&Path>, read: ReadFn) -> Result<Configs, ConfigError> {
        let named = named.map(|p| Config::load(p, read)).transpose()?.map(Arc::new);
        Ok(Configs { named, read, by_folder: HashMap::new() })
    }

    /// The configuration for `file` (`None`: defaults). A relative path is
    /// taken from the current folder.
    pub fn for_file(&mut self, file: &Path) -> Result<Option<Arc<Config>>, ConfigError> {
        if let Some(named) = &self.named {
            return Ok(Some(named.clone()));
        }
        let abs = std::fs::canonicalize(file)
            .or_else(|_| std::env::current_dir().map(|d| d.join(file)))
            .unwrap_or_else(|_| file.to_path_buf());
        let start = if abs.is_dir() { abs } else { abs.parent().map(Path::to_path_buf).unwrap_or_default() };
        self.for_folder(&start)
    }

    /// The configuration for files in `folder`: its own `lights.toml` or
    /// the nearest above it.
    pub fn for_folder(&mut self, folder: &Path) -> Result<Option<Arc<Config>>, ConfigError> {
        if let Some(named) = &self.named {
            return Ok(Some(named.clone()));
        }
        if let Some(found) = self.by_folder.get(folder) {
            return Ok(found.clone());
        }
        let candidate = folder.join(FILE_NAME);
        let found = if candidate.is_file() {
            Some(Arc::new(Config::load(&candidate, self.read)?))
        } else {
            match folder.parent() {
                Some(parent) if parent != folder => self.for_folder(parent)?,
                _ => None,
            }
        };
        self.by_folder.insert(folder.to_path_buf(), found.clone());
        Ok(found)
    }

    /// Forget what was found (a `lights.toml` was created, changed or
    /// deleted): the next question reads the files again.
    pub fn forget(&mut self) {
        self.by_folder.clear();
    }
}

/// `[solver] minimum-budget`, checked by the parser `--minimum-budget`
/// uses ([`MinimumBudget::parse`]); the error names the key (the caller
/// adds the file).
fn minimum_budget(value: Option<BudgetText>) -> Result<Option<MinimumBudget>, String> {
    let text = match value {
        None => return Ok(None),
        Some(BudgetText::Text(t)) => t,
        Some(BudgetText::Number(n)) => n.to_string(),
        Some(BudgetText::Float(x)) => x.to_string(),
    };
    MinimumBudget::parse(&text).map(Some).map_err(|e| format!("[solver] minimum-budget: {e}"))
}

/// Why a text is not a size for `--max-bytes` or `max-bytes`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// A unit other than B, K, M or G (and their KB/KiB spellings).
    #[error("`{0}` is not a size: write bytes, or a number with K, M or G (as in 64M)")]
    Unit(String),
    /// No number before the unit.
    #[error("`{0}` is not a size: it must start with a number")]
    Number(String),
    /// More bytes than 64 bits hold.
    #[error("`{0}` is too large")]
    TooLarge(String),
}

/// A size for `--max-bytes` and `max-bytes`: a number of bytes, or with a
/// unit (`500K`, `64MiB`, `1G`; units are powers of 1024).
pub fn parse_bytes(text: &str) -> Result<u64, SizeError> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(SizeError::Unit(text.to_string())),
    };
    let n: u64 = number.parse().map_err(|_| SizeError::Number(text.to_string()))?;
    n.checked_mul(1 << shift).ok_or_else(|| SizeError::TooLarge(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        let p = Path::new("lights.toml");
        assert!(Config::parse(p, "max-warnings = 0\n[severity]\nL0206 = \"error\"\nl0009 = \"off\"\n").is_ok());
        let typo = Config::parse(p, "max_warnings = 0\n").unwrap_err().to_string();
        assert!(typo.contains("unknown field `max_warnings`"), "{typo}");
        assert!(Config::parse(p, "[severity]\nL9999 = \"off\"\n")
            .unwrap_err()
            .to_string()
            .contains("not a diagnostic code"));
        assert!(Config::parse(p, "[severity]\nL0206 = \"loud\"\n")
            .unwrap_err()
            .to_string()
            .contains("unknown variant"));
        assert!(Config::parse(p, "include = [\"a/[\"]\n").unwrap_err().to_string().contains("is not a glob"));
        let c = Config::parse(p, "max-bytes = \"2K\"\n[solver]\ntime-budget-ms = 250\n").unwrap();
        assert_eq!((c.max_bytes, c.time_budget), (Some(2048), Some(Duration::from_millis(250))));
    }

    #[test]
    fn minimum_budget_is_read_and_checked() {
        let p = Path::new("dir/lights.toml");
        let c = Config::parse(p, "[solver]\nminimum-budget = \"2s\"\n").unwrap();
        assert_eq!(c.minimum_budget.map(lights_compiler::MinimumBudget::duration), Some(Duration::from_secs(2)));
        assert_eq!(c.solve_options().map(|o| (o.search_minimum, o.minimum_work)), Some((true, 2_000_000_000)));
        let off = Config::parse(p, "[solver]\nminimum-budget = 0\n").unwrap();
        assert_eq!(off.solve_options().map(|o| o.search_minimum), Some(false));
        assert_eq!(Config::parse(p, "").unwrap().solve_options(), None);
        for (bad, says) in [
            ("\"-1s\"", "is negative"),
            ("\"abc\"", "is not a duration"),
            ("\"99999h\"", "longest budget, 1h"),
            ("\"1e400s\"", "is not a duration"),
            ("250", "has no unit"),
            ("-1", "is negative"),
            ("1.5", "has no unit"),
        ] {
            let e = Config::parse(p, &format!("[solver]\nminimum-budget = {bad}\n")).unwrap_err().to_string();
            assert!(e.starts_with("`dir/lights.toml`: [solver] minimum-budget: ") && e.contains(says), "{bad}: {e}");
        }
        let e = Config::parse(p, "[solver]\ntime-budget-ms = 1000\nminimum-budget = \"5s\"\n").unwrap_err().to_string();
        assert!(e.contains("minimum-budget \"5s\" is longer than time-budget-ms = 1000"), "{e}");
        assert!(Config::parse(p, "[solver]\ntime-budget-ms = 5000\nminimum-budget = \"5s\"\n").is_ok());
        assert!(Config::parse(p, "[solver]\nminimum_budget = \"5s\"\n")
            .unwrap_err()
            .to_string()
            .contains("unknown field"));
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
        let out = c.apply(ds.clone());
        assert_eq!(
            out.iter().map(|d| (d.code, d.severity)).collect::<Vec<_>>(),
            [(Code::MinimumNotProven, Severity::Error), (Code::Unsolvable, Severity::Error)]
        );
        let problems = ds.iter().cloned().map(|diagnostic| Problem { diagnostic, related: Vec::new() }).collect();
        let out = c.apply_problems(problems);
        assert_eq!(out.into_iter().map(|p| p.diagnostic).collect::<Vec<_>>(), c.apply(ds));
    }

    #[test]
    fn the_nearest_file_applies_and_forget_reads_again() {
        let dir = std::env::temp_dir().join(format!("lights-ide-config-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("a/b")).unwrap();
        std::fs::write(dir.join(FILE_NAME), "max-warnings = 1\n").unwrap();
        let mut configs = Configs::default();
        let found = configs.for_folder(&dir.join("a/b")).unwrap().unwrap();
        assert_eq!((found.path.clone(), found.max_warnings), (dir.join(FILE_NAME), Some(1)));
        std::fs::write(dir.join("a").join(FILE_NAME), "max-warnings = 2\n").unwrap();
        assert_eq!(configs.for_folder(&dir.join("a/b")).unwrap().unwrap().max_warnings, Some(1), "remembered");
        configs.forget();
        assert_eq!(configs.for_folder(&dir.join("a/b")).unwrap().unwrap().max_warnings, Some(2));
        std::fs::write(dir.join("a").join(FILE_NAME), "max_warnings = 2\n").unwrap();
        configs.forget();
        assert!(configs.for_folder(&dir.join("a/b")).unwrap_err().to_string().contains("unknown field `max_warnings`"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
