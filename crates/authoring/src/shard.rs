//! Shards: a table or a census cut into pieces that run anywhere, in any
//! order, and merge back into exactly the unsharded answer.
//!
//! A run (`lights table` or `lights census` with its parameters) is a list
//! of *entries*, numbered 0, 1, … in an order fixed by the parameters (for a
//! table, the distinct boards it solves; for a census, its units of work:
//! see [`crate::census::Unit`]). Shard K of N (1-based) takes the entries
//! whose number i has i mod N = K − 1: round robin, so that the big boards
//! at the end of a table spread over every shard.
//!
//! Each entry is one JSON line (format [`FORMAT`]):
//!
//! ```json
//! {"format":"lights-shard/1","lights":"0.1.0","command":"table","run":{…},
//!  "shard":[2,3],"entries":66,"index":4,"key":{…},"value":{…}}
//! ```
//!
//! `run` is the identity of the whole run (the command's parameters);
//! `entries` how many the run has; `key` which entry this is and `value`
//! what was computed for it. [`collect`] reads the lines of every shard
//! back, refuses anything that does not make up exactly one whole run
//! (a missing or duplicated entry, lines of another run, of another command,
//! of another version of the tool, malformed lines) and returns the entries
//! in order.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{json, Map, Value};

/// The exact counts the lines carry, as strings (for the front ends).
pub use num_bigint::{BigInt, BigUint};

/// The version of the line format; a merge reads only its own.
pub const FORMAT: &str = "lights-shard/1";

/// The version of the tool that writes and reads the lines: shards and
/// their merge must come from one version (an answer may change between
/// versions, and so may the numbering of entries).
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Shard K of N: `--shard K/N`, 1 ≤ K ≤ N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// K, 1-based.
    pub index: usize,
    /// N, the number of shards.
    pub count: usize,
}

impl Spec {
    /// The whole run as one shard.
    pub const WHOLE: Spec = Spec { index: 1, count: 1 };

    /// Whether entry `i` of a run belongs to this shard (i mod N = K − 1).
    pub fn takes(&self, i: usize) -> bool {
        i % self.count == self.index - 1
    }

    /// How many entries of a run of `total` this shard takes.
    pub fn share(&self, total: usize) -> usize {
        match total.checked_sub(self.index) {
            Some(rest) => rest / self.count + 1,
            None => 0,
        }
    }

    /// The entries of a run of `total` entries this shard takes.
    pub fn entries(&self, total: usize) -> Vec<usize> {
        (self.index - 1..total).step_by(self.count).collect()
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The most shards a run may be cut into.
pub const MAX_SHARDS: usize = 1_000_000;

/// Why `--shard K/N` is not a shard; the message names the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("`{text}` is not K/N: write the shard's number and the number of shards, e.g. 2/8")]
    NotKOverN { text: String },
    /// `what` is "the shard" or "the number of shards".
    #[error("in `{text}`, {what} `{number}` is not a whole number (write e.g. 2/8)")]
    NotANumber { text: String, what: &'static str, number: String },
    #[error("`{text}`: the number of shards N must be at least 1")]
    NoShards { text: String },
    #[error("`{text}`: at most {MAX_SHARDS} shards")]
    TooManyShards { text: String },
    #[error("`{text}`: the shard K counts from 1 to N = {count} (K/N, e.g. 1/{count} … {count}/{count})")]
    OutOfRange { text: String, count: usize },
}

/// Why the shards given to `--merge` are not one whole run; the message
/// names the file and line and says what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MergeError(String);

/// Parse `K/N` (1 ≤ K ≤ N ≤ [`MAX_SHARDS`]).
pub fn parse_spec(text: &str) -> Result<Spec, SpecError> {
    let t = text.trim();
    let Some((k, n)) = t.split_once('/') else {
        return Err(SpecError::NotKOverN { text: t.to_string() });
    };
    let number = |s: &str, what: &'static str| -> Result<usize, SpecError> {
        s.trim().parse::<usize>().map_err(|_| SpecError::NotANumber {
            text: t.to_string(),
            what,
            number: s.trim().to_string(),
        })
    };
    let (k, n) = (number(k, "the shard")?, number(n, "the number of shards")?);
    if n == 0 {
        return Err(SpecError::NoShards { text: t.to_string() });
    }
    if n > MAX_SHARDS {
        return Err(SpecError::TooManyShards { text: t.to_string() });
    }
    if k == 0 || k > n {
        return Err(SpecError::OutOfRange { text: t.to_string(), count: n });
    }
    Ok(Spec { index: k, count: n })
}

/// One line: entry `index` of a run of `entries`, written by `shard`.
pub fn line(command: &str, run: &Value, shard: Spec, entries: usize, index: usize, key: Value, value: Value) -> String {
    let doc = json!({
        "format": FORMAT,
        "lights": TOOL_VERSION,
        "command": command,
        "run": run,
        "shard": [shard.index, shard.count],
        "entries": entries,
        "index": index,
        "key": key,
        "value": value,
    });
    format!("{doc}\n")
}

/// Where a line came from, for messages: `shard-2.jsonl:14`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub source: String,
    pub line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.source, self.line)
    }
}

/// The entries of a whole run, read back from its shards.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The run's parameters, as every line gave them.
    pub run: Value,
    /// `(key, value, where)` of entry 0, 1, … in order.
    pub entries: Vec<(Value, Value, Origin)>,
}

/// Read the lines of `sources` (`(name, text)` of each file) as the shards
/// of one run of `command`, and return its entries in order. `describe`
/// names an entry by its key in messages (`5×7`). Blank lines are skipped.
pub fn collect(
    command: &str,
    sources: &[(String, String)],
    describe: &dyn Fn(&Value) -> String,
) -> Result<Merged, MergeError> {
    collect_lines(command, sources, describe).map_err(MergeError)
}

fn collect_lines(
    command: &str,
    sources: &[(String, String)],
    describe: &dyn Fn(&Value) -> String,
) -> Result<Merged, String> {
    struct First {
        run: Value,
        count: usize,
        entries: usize,
        origin: Origin,
    }
    let mut first: Option<First> = None;
    let mut found: BTreeMap<usize, (Value, Value, Origin)> = BTreeMap::new();
    for (name, text) in sources {
        for (n, raw) in text.lines().enumerate() {
            if raw.trim().is_empty() {
                continue;
            }
            let origin = Origin { source: name.clone(), line: n + 1 };
            let fields = read_line(raw, command, &origin)?;
            let (run, shard, entries, index, key, value) = fields;
            match &first {
                None => first = Some(First { run: run.clone(), count: shard.count, entries, origin: origin.clone() }),
                Some(f) => {
                    if run != f.run {
                        return Err(format!(
                            "{origin} comes from another run than {}: {}; merge the shards of one run",
                            f.origin,
                            difference(&f.run, &run)
                        ));
                    }
                    if shard.count != f.count {
                        return Err(format!(
                            "{origin} is from a split into {} shards, {} from a split into {}; merge the shards of one split",
                            shard.count, f.origin, f.count
                        ));
                    }
                    if entries != f.entries {
                        return Err(format!(
                            "{origin} says the run has {entries} entries, {} says {}: the lines do not agree",
                            f.origin, f.entries
                        ));
                    }
                }
            }
            if index >= entries {
                return Err(format!("{origin}: entry {index} of a run of {entries} entries (numbered from 0)"));
            }
            if !shard.takes(index) {
                return Err(format!("{origin}: entry {index} does not belong to shard {shard} (i mod N = K − 1)"));
            }
            if let Some((_, _, before)) = found.get(&index) {
                return Err(format!(
                    "entry {index} ({}) is in both {before} and {origin}: a shard given twice, or shards of two runs",
                    describe(&key)
                ));
            }
            found.insert(index, (key, value, origin));
        }
    }
    let Some(first) = first else {
        return Err("the files hold no shard lines (write them with --shard K/N --format jsonl)".into());
    };
    if found.len() != first.entries {
        // Without walking every entry (a run may claim any number): the
        // first missing one, and the shards that have fewer than their share.
        let missing = first.entries - found.len();
        let first_missing = (0..=found.len()).find(|i| !found.contains_key(i)).unwrap_or(0);
        let mut have = vec![0usize; first.count];
        for i in found.keys() {
            have[i % first.count] += 1;
        }
        let shards: Vec<usize> = (1..=first.count)
            .filter(|&k| Spec { index: k, count: first.count }.share(first.entries) != have[k - 1])
            .collect();
        let shown: Vec<String> = shards.iter().take(10).map(|k| format!("{k}/{}", first.count)).collect();
        let more = if shards.len() > 10 { format!(" and {} more", shards.len() - 10) } else { String::new() };
        return Err(format!(
            "{missing} of the run's {} entries are missing (the first: entry {first_missing}): give the output of shard{} {}{more}",
            first.entries,
            if shards.len() == 1 { "" } else { "s" },
            shown.join(", ")
        ));
    }
    Ok(Merged { run: first.run, entries: found.into_values().collect() })
}

type Fields = (Value, Spec, usize, usize, Value, Value);

/// The fields of one line, checked for format, version and command.
fn read_line(raw: &str, command: &str, origin: &Origin) -> Result<Fields, String> {
    let not_ours = || {
        format!(
            "{origin} is not a shard line of `lights {command} --shard K/N --format jsonl` (one JSON object per line)"
        )
    };
    let doc: Value = serde_json::from_str(raw).map_err(|e| format!("{}: {e}", not_ours()))?;
    let Value::Object(mut fields) = doc else { return Err(not_ours()) };
    match fields.get("format").and_then(Value::as_str) {
        Some(FORMAT) => {}
        Some(other) if other.starts_with("lights-shard/") => {
            return Err(format!("{origin} is in the shard format {other}; this lights reads {FORMAT}"))
        }
        _ => return Err(not_ours()),
    }
    match fields.get("lights").and_then(Value::as_str) {
        Some(TOOL_VERSION) => {}
        Some(other) => {
            return Err(format!(
                "{origin} was written by lights {other}, and this is lights {TOOL_VERSION}: run every shard \
                 and the merge with one version (answers and the numbering of entries may differ)",
            ))
        }
        None => return Err(format!("{origin}: the line does not say which version of lights wrote it")),
    }
    match fields.get("command").and_then(Value::as_str) {
        Some(c) if c == command => {}
        Some(other) => {
            return Err(format!(
                "{origin} is a shard of `lights {other}`; `lights {command} --merge` takes shards of `lights {command}`"
            ))
        }
        None => return Err(not_ours()),
    }
    let field = |fields: &mut Map<String, Value>, name: &str| {
        fields.remove(name).ok_or_else(|| format!("{origin}: the line has no `{name}`"))
    };
    let whole = |v: &Value, name: &str| {
        v.as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| format!("{origin}: `{name}` is not a whole number"))
    };
    let run = field(&mut fields, "run")?;
    if !run.is_object() {
        return Err(format!("{origin}: `run` is not an object"));
    }
    let shard = field(&mut fields, "shard")?;
    let shard = match shard.as_array().map(Vec::as_slice) {
        Some([k, n]) => {
            let (k, n) = (whole(k, "shard")?, whole(n, "shard")?);
            parse_spec(&format!("{k}/{n}")).map_err(|e| format!("{origin}: {e}"))?
        }
        _ => return Err(format!("{origin}: `shard` is not [K, N]")),
    };
    let entries = whole(&field(&mut fields, "entries")?, "entries")?;
    let index = whole(&field(&mut fields, "index")?, "index")?;
    let key = field(&mut fields, "key")?;
    let value = field(&mut fields, "value")?;
    Ok((run, shard, entries, index, key, value))
}

/// Which parameter two runs differ in: `rows 1..20 there, 1..21 here`.
fn difference(a: &Value, b: &Value) -> String {
    if let (Value::Object(a), Value::Object(b)) = (a, b) {
        let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            let (x, y) = (a.get(name).unwrap_or(&Value::Null), b.get(name).unwrap_or(&Value::Null));
            if x != y {
                return format!("{name} {x} there, {y} here");
            }
        }
    }
    "the parameters differ".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_split_round_robin() {
        assert_eq!(parse_spec("2/8"), Ok(Spec { index: 2, count: 8 }));
        assert_eq!(parse_spec(" 1/1 "), Ok(Spec::WHOLE));
        for bad in ["0/3", "4/3", "1/0", "0/0", "x/3", "1/y", "3", "", "1/2/3", "-1/3"] {
            assert!(parse_spec(bad).is_err(), "{bad}");
        }
        assert!(parse_spec("4/3").unwrap_err().to_string().contains("from 1 to N = 3"));
        // The messages, word for word (the command line shows them as they are).
        assert_eq!(
            parse_spec("4/3").unwrap_err().to_string(),
            "`4/3`: the shard K counts from 1 to N = 3 (K/N, e.g. 1/3 … 3/3)"
        );
        assert_eq!(
            parse_spec(" x/3").unwrap_err().to_string(),
            "in `x/3`, the shard `x` is not a whole number (write e.g. 2/8)"
        );
        assert_eq!(
            parse_spec("3").unwrap_err().to_string(),
            "`3` is not K/N: write the shard's number and the number of shards, e.g. 2/8"
        );
        assert_eq!(parse_spec("1/2000000").unwrap_err().to_string(), "`1/2000000`: at most 1000000 shards");
        assert!(parse_spec("1/0").unwrap_err().to_string().contains("at least 1"));
        assert_eq!(Spec { index: 2, count: 3 }.entries(8), vec![1, 4, 7]);
        for (total, n) in [(0, 1), (7, 3), (8, 3), (9, 3), (2, 5)] {
            for k in 1..=n {
                let spec = Spec { index: k, count: n };
                assert_eq!(spec.share(total), spec.entries(total).len(), "{k}/{n} of {total}");
            }
        }
        // Every entry is in exactly one shard.
        for n in 1..6 {
            let mut all: Vec<usize> = (1..=n).flat_map(|k| Spec { index: k, count: n }.entries(11)).collect();
            all.sort_unstable();
            assert_eq!(all, (0..11).collect::<Vec<_>>());
        }
    }

    fn run_of(rows: u32) -> Value {
        json!({ "rows": [1, rows] })
    }

    /// The lines of shard k/n of a run of `total` entries whose value is the index squared.
    fn shard(rows: u32, k: usize, n: usize, total: usize) -> String {
        let spec = Spec { index: k, count: n };
        spec.entries(total)
            .into_iter()
            .map(|i| line("table", &run_of(rows), spec, total, i, json!(i), json!(i * i)))
            .collect()
    }

    fn merge(files: &[String]) -> Result<Merged, String> {
        let sources: Vec<(String, String)> =
            files.iter().enumerate().map(|(i, t)| (format!("s{i}.jsonl"), t.clone())).collect();
        collect("table", &sources, &|k| k.to_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn merges_in_any_order_and_refuses_what_is_not_one_run() {
        let (a, b, c) = (shard(5, 1, 3, 7), shard(5, 2, 3, 7), shard(5, 3, 3, 7));
        let merged = merge(&[c.clone(), a.clone(), b.clone()]).unwrap();
        assert_eq!(merged.run, run_of(5));
        let values: Vec<u64> = merged.entries.iter().map(|(_, v, _)| v.as_u64().unwrap()).collect();
        assert_eq!(values, vec![0, 1, 4, 9, 16, 25, 36]);

        let missing = merge(&[a.clone(), c.clone()]).unwrap_err();
        assert!(missing.contains("2 of the run's 7 entries are missing") && missing.contains("shard 2/3"), "{missing}");
        let twice = merge(&[a.clone(), b.clone(), c.clone(), b.clone()]).unwrap_err();
        assert!(twice.contains("entry 1 (1) is in both s1.jsonl:1 and s3.jsonl:1"), "{twice}");
        let foreign = merge(&[a.clone(), shard(6, 2, 3, 7), c.clone()]).unwrap_err();
        assert!(
            foreign.contains("s1.jsonl:1 comes from another run than s0.jsonl:1: rows [1,5] there, [1,6] here"),
            "{foreign}"
        );
        let split = merge(&[a.clone(), shard(5, 2, 4, 7)]).unwrap_err();
        assert!(split.contains("split into 4 shards"), "{split}");
        let census = a.replace("\"command\":\"table\"", "\"command\":\"census\"");
        assert!(merge(&[census]).unwrap_err().contains("is a shard of `lights census`"));
        let old = a.replace(&format!("\"lights\":\"{TOOL_VERSION}\""), "\"lights\":\"0.0.1\"");
        assert!(merge(&[old]).unwrap_err().contains("written by lights 0.0.1"));
        let newer = a.replace(FORMAT, "lights-shard/2");
        assert!(merge(&[newer]).unwrap_err().contains("in the shard format lights-shard/2"));
        for junk in ["{", "[1,2]", "{\"format\":\"x\"}", "hello"] {
            let e = merge(&[format!("{a}{junk}\n")]).unwrap_err();
            assert!(e.starts_with("s0.jsonl:4 is not a shard line"), "{e}");
        }
        let moved = a.replace("\"index\":3", "\"index\":4");
        assert!(merge(&[moved]).unwrap_err().contains("entry 4 does not belong to shard 1/3"));
        let past = a.replace("\"index\":6", "\"index\":9");
        assert!(merge(&[past]).unwrap_err().contains("entry 9 of a run of 7 entries"));
        // A run that claims more entries than anyone could walk: told at once.
        let huge = a.replace("\"entries\":7", "\"entries\":18446744073709551615");
        let e = merge(&[huge]).unwrap_err();
        assert!(
            e.contains(
                "18446744073709551612 of the run's 18446744073709551615 entries are missing (the first: entry 1)"
            ),
            "{e}"
        );
        assert!(merge(&["\n\n".into()]).unwrap_err().contains("no shard lines"));
        // Blank lines are fine.
        assert!(merge(&[format!("\n{a}\n"), b, c]).is_ok());
    }
}
