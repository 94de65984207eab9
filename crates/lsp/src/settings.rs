//! The server's settings, from `initializationOptions` and
//! `workspace/didChangeConfiguration`. Both `{"lights": {...}}` and the bare
//! object are accepted, with nested (`codeLens.enable`) or flat keys.

use std::time::Duration;

use lights_compiler::MinimumBudget;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Code lens above each puzzle (default on).
    pub code_lens: bool,
    /// Inlay hints after each puzzle header (default off).
    pub inlay_hints: bool,
    /// How long one puzzle may take to solve before the server gives up on it.
    pub time_budget: Duration,
    /// Bytes of solver results kept beyond those open documents want.
    pub cache_budget: usize,
    /// `solver.minimumBudget` (`"2s"`): the minimum search's budget where
    /// no lights.toml sets `minimum-budget` (`None`: the default).
    pub minimum_budget: Option<MinimumBudget>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            code_lens: true,
            inlay_hints: false,
            time_budget: lights_ide::limits::TIME_BUDGET,
            cache_budget: crate::engine::DEFAULT_BUDGET_BYTES,
            minimum_budget: None,
        }
    }
}

/// The largest cache budget accepted (1 TB: in effect, no limit).
const MAX_CACHE_MB: u64 = 1 << 20;

/// The longest time budget accepted (one hour).
const MAX_BUDGET_MS: u64 = 3_600_000;

impl Settings {
    /// Take every recognised key of `value`; others are ignored.
    pub(crate) fn apply(&mut self, value: &Value) {
        let v = value.get("lights").unwrap_or(value);
        let flag = |nested: &[&str], flat: &str| -> Option<bool> { lookup(v, nested, flat).and_then(Value::as_bool) };
        if let Some(b) = flag(&["codeLens", "enable"], "codeLens") {
            self.code_lens = b;
        }
        if let Some(b) = flag(&["inlayHints", "enable"], "inlayHints") {
            self.inlay_hints = b;
        }
        if let Some(ms) = lookup(v, &["solver", "timeBudgetMs"], "timeBudgetMs").and_then(Value::as_u64) {
            self.time_budget = Duration::from_millis(ms.clamp(1, MAX_BUDGET_MS));
        }
        // A text the parser refuses (or an empty one) is the default, as an
        // unknown key is ignored: the editor's own settings check says why.
        if let Some(b) = lookup(v, &["solver", "minimumBudget"], "minimumBudget") {
            self.minimum_budget = match b {
                Value::String(t) => MinimumBudget::parse(t).ok(),
                Value::Number(n) => MinimumBudget::parse(&n.to_string()).ok(),
                _ => None,
            };
        }
        if let Some(mb) = lookup(v, &["cache", "budgetMb"], "cacheBudgetMb").and_then(Value::as_u64) {
            self.cache_budget = usize::try_from(mb.min(MAX_CACHE_MB) << 20).unwrap_or(usize::MAX);
        }
    }
}

fn lookup<'a>(v: &'a Value, nested: &[&str], flat: &str) -> Option<&'a Value> {
    let mut cur = v;
    let mut found = true;
    for key in nested {
        match cur.get(key) {
            Some(next) => cur = next,
            None => {
                found = false;
                break;
            }
        }
    }
    if found {
        return Some(cur);
    }
    // `"codeLens": true` (a bool where the nested form has an object) and dotted keys.
    v.get(flat).filter(|x| !x.is_object()).or_else(|| v.get(nested.join(".")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_flat_and_dotted_keys() {
        let mut s = Settings::default();
        s.apply(&json!({"lights": {"codeLens": {"enable": false}, "solver": {"timeBudgetMs": 250}}}));
        assert!(!s.code_lens);
        assert_eq!(s.time_budget, Duration::from_millis(250));
        s.apply(&json!({"inlayHints": true, "codeLens.enable": true}));
        assert!(s.inlay_hints && s.code_lens);
        s.apply(&json!({"timeBudgetMs": 0, "unknown": 1}));
        assert_eq!(s.time_budget, Duration::from_millis(1));
        s.apply(&json!(null));
        assert!(s.inlay_hints);
        assert_eq!(s.cache_budget, 256 << 20);
        s.apply(&json!({"lights": {"cache": {"budgetMb": 4}}}));
        assert_eq!(s.cache_budget, 4 << 20);
        s.apply(&json!({"cacheBudgetMb": 0}));
        assert_eq!(s.cache_budget, 0);
        assert_eq!(s.minimum_budget, None);
        s.apply(&json!({"lights": {"solver": {"minimumBudget": "2s"}}}));
        assert_eq!(s.minimum_budget.map(lights_compiler::MinimumBudget::duration), Some(Duration::from_secs(2)));
        s.apply(&json!({"minimumBudget": "soon"}));
        assert_eq!(s.minimum_budget, None, "a bad value is the default");
        s.apply(&json!({"solver.minimumBudget": 0}));
        assert_eq!(s.minimum_budget.map(lights_compiler::MinimumBudget::duration), Some(Duration::ZERO));
    }
}
