//! The pattern databases between runs and in memory.
//!
//! The library reads no environment and writes no files: where the tables
//! are kept between runs is the caller's [`TableStore`] (the `lights`
//! binary's is a file in the user's cache folder, written atomically), and
//! without one the tables are built in memory. Built or loaded once, they
//! stay in this process's memory.
//!
//! The stored bytes (little-endian):
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
//! Stored bytes whose header, size or checksum is wrong are rebuilt; a store
//! that cannot keep them just means the tables live in memory only.

use std::sync::{Arc, Mutex};

use super::{table_len, BuildProgress, BuildStage, Cancelled, PatternDatabases, BLANK_CELL, GROUPS, SIDE};

/// The name a store should give the tables' file (it names the layout and
/// the format version, so another version never reads it).
pub const PDB_FILE_NAME: &str = "sliding-4x4-663-v1.pdb";

/// Where the pattern databases are kept between runs, chosen by the caller.
pub trait TableStore: Send + Sync {
    /// The bytes an earlier run kept; `Ok(None)` when there are none.
    fn load(&self) -> Result<Option<Vec<u8>>, String>;
    /// Keep `bytes` for later runs.
    fn save(&self, bytes: &[u8]) -> Result<(), String>;
    /// Where they are kept, for messages (a file's path).
    fn location(&self) -> String;
}

const MAGIC: &[u8; 8] = b"LIGHTPDB";
const VERSION: u32 = 1;

/// Where the tables came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdbSource {
    /// Already in this process's memory.
    Memory,
    /// Read from the store (its location).
    Stored(String),
    /// Built now; `saved_to` the store's location when they were kept,
    /// `note` why they were not, or why stored ones were replaced (corrupt).
    Built { saved_to: Option<String>, note: Option<String> },
    /// The smaller 5-5-5 tables, which a process builds for itself in a
    /// few tenths of a second (`built`: by this search) while the 6-6-3
    /// ones are not at hand; they are never stored.
    Small { built: bool },
}

/// Why stored tables were not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    /// Could not be read.
    #[error("cannot read it: {message}")]
    Io { message: String },
    /// Does not start with the magic bytes.
    #[error("it is not a pattern-database file")]
    NotAPatternDatabase,
    /// Another format version.
    #[error("it has format version {found}, not {VERSION}")]
    Version { found: u32 },
    /// Another board or partition than this build uses.
    #[error("it is for another board or partition")]
    Layout,
    /// Not the size the header implies.
    #[error("it has {found} bytes instead of {expected}")]
    Size { expected: u64, found: u64 },
    /// The checksum does not match the contents.
    #[error("its checksum does not match (corrupt)")]
    Checksum,
}

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
        Ok(PatternDatabases { groups: GROUPS, tables })
    }
}

/// Loads the tables from `store` when it holds valid ones, else builds
/// them and (with a store) keeps them there. Nothing is kept in memory
/// beyond the returned value. Failing to keep them is not an error: the
/// note says why.
pub fn load_or_build(
    store: Option<&dyn TableStore>,
    progress: &dyn Fn(BuildProgress),
    cancel: &dyn Fn() -> bool,
) -> Result<(PatternDatabases, PdbSource), Cancelled> {
    let total: u64 = GROUPS.iter().map(|g| table_len(g.len()) as u64).sum();
    let send = |stage, done| progress(BuildProgress { stage, done, total });
    let mut note = None;
    if let Some(store) = store {
        send(BuildStage::Loading, 0);
        let loaded = store.load().map_err(|message| CacheError::Io { message });
        match loaded.and_then(|bytes| bytes.map(|b| PatternDatabases::from_bytes(&b)).transpose()) {
            Ok(Some(dbs)) => {
                send(BuildStage::Finished, total);
                return Ok((dbs, PdbSource::Stored(store.location())));
            }
            Ok(None) => {}
            Err(e) => note = Some(format!("{} was not used, {e}; rebuilt", store.location())),
        }
    }
    let dbs = PatternDatabases::build(progress, cancel)?;
    let mut saved_to = None;
    if let Some(store) = store {
        send(BuildStage::Saving, total);
        match store.save(&dbs.to_bytes()) {
            Ok(()) => saved_to = Some(store.location()),
            Err(e) => {
                let unsaved = format!("could not write {}: {e}; kept in memory", store.location());
                // Keep why stored tables were not used, if they were not.
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

/// The tables, from this process's memory or else from `store`, never
/// built: `None` when neither has them (or the stored ones are unusable).
/// Loaded ones are kept in memory for the rest of the process. `progress`
/// hears `Loading` and `Finished` when the store is read.
pub fn stored_pattern_databases(
    store: Option<&dyn TableStore>,
    progress: &dyn Fn(BuildProgress),
) -> Option<(Arc<PatternDatabases>, PdbSource)> {
    let mut held = IN_MEMORY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(dbs) = held.as_ref() {
        return Some((Arc::clone(dbs), PdbSource::Memory));
    }
    let store = store?;
    let total: u64 = GROUPS.iter().map(|g| table_len(g.len()) as u64).sum();
    progress(BuildProgress { stage: BuildStage::Loading, done: 0, total });
    let dbs = Arc::new(PatternDatabases::from_bytes(&store.load().ok()??).ok()?);
    *held = Some(Arc::clone(&dbs));
    progress(BuildProgress { stage: BuildStage::Finished, done: total, total });
    Some((dbs, PdbSource::Stored(store.location())))
}

/// The tables this process already holds.
static IN_MEMORY: Mutex<Option<Arc<PatternDatabases>>> = Mutex::new(None);

/// The tables, from (in order) this process's memory, `store`, or a fresh
/// build (kept in `store`). Concurrent callers wait for one build. Kept in
/// memory for the rest of the process.
pub fn pattern_databases(
    store: Option<&dyn TableStore>,
    progress: &dyn Fn(BuildProgress),
    cancel: &dyn Fn() -> bool,
) -> Result<(Arc<PatternDatabases>, PdbSource), Cancelled> {
    let mut held = IN_MEMORY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(dbs) = held.as_ref() {
        return Ok((Arc::clone(dbs), PdbSource::Memory));
    }
    let (dbs, source) = load_or_build(store, progress, cancel)?;
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
