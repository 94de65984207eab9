//! The pattern databases on disk and in memory.
//!
//! Location: `$LIGHTS_CACHE_DIR`, else `$XDG_CACHE_HOME/lights`, else
//! `$HOME/.cache/lights` (relative or empty values are ignored), file
//! [`PDB_FILE_NAME`]. Written atomically (a temporary file in the same
//! directory, then a rename), so readers never see half a file.
//!
//! Format (little-endian):
//!
//! ```text
//! magic    8 bytes  "LIGHTPDB"
//! version  u32      1
//! side     u8       4
//! blank    u8       15 (the goal's blank cell)
//! groups   u8       3
//! per group: k u8, then k goal cells (u8), then the table length u64
//! tables   one byte per entry, the groups' tables one after the other
//! checksum u64      FNV-1a 64 of every byte before it
//! ```
//!
//! A file whose header, size or checksum is wrong is rebuilt; a directory
//! that cannot be written just means the tables live in memory only.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::{table_len, BuildProgress, BuildStage, Cancelled, PatternDatabases, BLANK_CELL, GROUPS, SIDE};

/// The cache file's name inside the cache directory.
pub const PDB_FILE_NAME: &str = "sliding-4x4-663-v1.pdb";

const MAGIC: &[u8; 8] = b"LIGHTPDB";
const VERSION: u32 = 1;

/// Where the tables came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdbSource {
    /// Already in this process's memory.
    Memory,
    /// Read from this cache file.
    Disk(PathBuf),
    /// Built now; `saved_to` the cache file written, `note` why none was
    /// written or why an existing one was replaced (a corrupt file).
    Built { saved_to: Option<PathBuf>, note: Option<String> },
}

/// Why a cache file was not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheError {
    /// Could not be read.
    Io { kind: io::ErrorKind, message: String },
    /// Does not start with the magic bytes.
    NotAPatternDatabase,
    /// Another format version.
    Version { found: u32 },
    /// Another board or partition than this build uses.
    Layout,
    /// Not the size the header implies.
    Size { expected: u64, found: u64 },
    /// The checksum does not match the contents.
    Checksum,
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::Io { message, .. } => write!(f, "cannot read it: {message}"),
            CacheError::NotAPatternDatabase => f.write_str("it is not a pattern-database file"),
            CacheError::Version { found } => {
                write!(f, "it has format version {found}, not {VERSION}")
            }
            CacheError::Layout => f.write_str("it is for another board or partition"),
            CacheError::Size { expected, found } => {
                write!(f, "it has {found} bytes instead of {expected}")
            }
            CacheError::Checksum => f.write_str("its checksum does not match (corrupt)"),
        }
    }
}

impl std::error::Error for CacheError {}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn header() -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[SIDE as u8, BLANK_CELL, GROUPS.len() as u8]);
    for group in GROUPS {
        out.push(group.len() as u8);
        out.extend_from_slice(group);
        out.extend_from_slice(&(table_len(group.len()) as u64).to_le_bytes());
    }
    out
}

impl PatternDatabases {
    /// The file contents (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = header();
        out.reserve(self.size_bytes() + 8);
        for table in &self.tables {
            out.extend_from_slice(table);
        }
        let checksum = fnv1a(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads file contents, checking header, size and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternDatabases, CacheError> {
        let expected_header = header();
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(CacheError::NotAPatternDatabase);
        }
        if bytes.len() < 12 {
            return Err(CacheError::Size { expected: expected_header.len() as u64, found: bytes.len() as u64 });
        }
        let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
        if version != VERSION {
            return Err(CacheError::Version { found: version });
        }
        if bytes.len() < expected_header.len() {
            return Err(CacheError::Size { expected: expected_header.len() as u64, found: bytes.len() as u64 });
        }
        if bytes[..expected_header.len()] != expected_header[..] {
            return Err(CacheError::Layout);
        }
        let body: usize = GROUPS.iter().map(|g| table_len(g.len())).sum();
        let expected = (expected_header.len() + body + 8) as u64;
        if bytes.len() as u64 != expected {
            return Err(CacheError::Size { expected, found: bytes.len() as u64 });
        }
        let (content, tail) = bytes.split_at(bytes.len() - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(tail);
        if fnv1a(content) != u64::from_le_bytes(stored) {
            return Err(CacheError::Checksum);
        }
        let mut tables = Vec::with_capacity(GROUPS.len());
        let mut at = expected_header.len();
        for group in GROUPS {
            let len = table_len(group.len());
            tables.push(content[at..at + len].to_vec());
            at += len;
        }
        Ok(PatternDatabases { tables })
    }

    /// Reads a cache file.
    pub fn load(path: &Path) -> Result<PatternDatabases, CacheError> {
        let bytes = fs::read(path).map_err(|e| CacheError::Io { kind: e.kind(), message: e.to_string() })?;
        PatternDatabases::from_bytes(&bytes)
    }

    /// Writes a cache file atomically (temporary file + rename), creating
    /// the directory if needed.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("pdb");
        // Unique per process and call: concurrent writers never share a temporary file.
        static SAVES: AtomicU64 = AtomicU64::new(0);
        let serial = SAVES.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.{}-{serial}.tmp", std::process::id()));
        let written = (|| {
            let mut file = fs::File::create(&temp)?;
            file.write_all(&self.to_bytes())?;
            file.sync_all()?;
            fs::rename(&temp, path)
        })();
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written
    }
}

fn absolute_env(name: &str) -> Option<PathBuf> {
    let value = std::env::var_os(name)?;
    let path = PathBuf::from(value);
    path.is_absolute().then_some(path)
}

/// The user's cache directory for `lights`: `$LIGHTS_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/lights`, else `$HOME/.cache/lights`; `None` when none
/// is set (to an absolute path).
pub fn default_cache_dir() -> Option<PathBuf> {
    absolute_env("LIGHTS_CACHE_DIR")
        .or_else(|| absolute_env("XDG_CACHE_HOME").map(|d| d.join("lights")))
        .or_else(|| absolute_env("HOME").map(|d| d.join(".cache").join("lights")))
}

/// Loads the tables from `path` if it holds a valid file, else builds them
/// and (with a path) saves them there. Nothing is kept in memory beyond
/// the returned value. Failing to save is not an error: the note says why.
pub fn load_or_build(
    path: Option<&Path>,
    progress: &dyn Fn(BuildProgress),
    cancel: &dyn Fn() -> bool,
) -> Result<(PatternDatabases, PdbSource), Cancelled> {
    let total: u64 = GROUPS.iter().map(|g| table_len(g.len()) as u64).sum();
    let send = |stage, done| progress(BuildProgress { stage, done, total });
    let mut note = None;
    if let Some(path) = path {
        if path.exists() {
            send(BuildStage::Loading, 0);
            match PatternDatabases::load(path) {
                Ok(dbs) => {
                    send(BuildStage::Finished, total);
                    return Ok((dbs, PdbSource::Disk(path.to_path_buf())));
                }
                Err(e) => note = Some(format!("{} was not used, {e}; rebuilt", path.display())),
            }
        }
    }
    let dbs = PatternDatabases::build(progress, cancel)?;
    let mut saved_to = None;
    if let Some(path) = path {
        send(BuildStage::Saving, total);
        match dbs.save(path) {
            Ok(()) => saved_to = Some(path.to_path_buf()),
            Err(e) => {
                let unsaved = format!("could not write the cache file {}: {e}; kept in memory", path.display());
                // Keep why an existing file was not used, if it was not.
                note = Some(match note {
                    Some(earlier) => format!("{earlier}; {unsaved}"),
                    None => unsaved,
                });
            }
        }
    }
    send(BuildStage::Finished, total);
    Ok((dbs, PdbSource::Built { saved_to, note }))
}

/// The tables this process already holds.
static IN_MEMORY: Mutex<Option<Arc<PatternDatabases>>> = Mutex::new(None);

/// The tables, from (in order) this process's memory, the cache file in
/// `dir` (default [`default_cache_dir`]) when `use_disk`, or a fresh
/// build (saved there when `use_disk`). Concurrent callers wait for one
/// build. Kept in memory for the rest of the process.
pub fn pattern_databases(
    dir: Option<&Path>,
    use_disk: bool,
    progress: &dyn Fn(BuildProgress),
    cancel: &dyn Fn() -> bool,
) -> Result<(Arc<PatternDatabases>, PdbSource), Cancelled> {
    let mut held = IN_MEMORY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dbs) = held.as_ref() {
        return Ok((Arc::clone(dbs), PdbSource::Memory));
    }
    let path = use_disk
        .then(|| dir.map(Path::to_path_buf).or_else(default_cache_dir))
        .flatten()
        .map(|d| d.join(PDB_FILE_NAME));
    let (dbs, source) = load_or_build(path.as_deref(), progress, cancel)?;
    let dbs = Arc::new(dbs);
    *held = Some(Arc::clone(&dbs));
    Ok((dbs, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn garbage_is_rejected_with_a_reason() {
        assert_eq!(PatternDatabases::from_bytes(b"hello"), Err(CacheError::NotAPatternDatabase));
        let mut bytes = header();
        bytes[8] = 9;
        assert_eq!(PatternDatabases::from_bytes(&bytes), Err(CacheError::Version { found: 9 }));
        let short = header();
        assert!(matches!(PatternDatabases::from_bytes(&short), Err(CacheError::Size { .. })));
    }
}
