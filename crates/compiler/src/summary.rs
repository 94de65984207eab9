//! One-line descriptions of a result, shared by the CLI (`lights solve`)
//! and the language server (code lens, inlay hints).

use crate::report::Report;

/// `4 solutions · minimum 15 presses`, `1 solution · minimum 3 presses`,
/// `unsolvable`, `2 solutions · 7 presses (minimum not proven)`,
/// `2^30 solutions · 768 presses (minimum not proven, at least 570)`.
pub fn result(r: &Report) -> String {
    if !r.solvable {
        return "unsolvable".to_string();
    }
    let count = solutions(r);
    match &r.minimum {
        Some(m) if m.optimal => format!("{count} · minimum {}", presses(m.cost)),
        Some(m) if m.lower_bound > 1 => {
            format!("{count} · {} (minimum not proven, at least {})", presses(m.cost), m.lower_bound)
        }
        Some(m) => format!("{count} · {} (minimum not proven)", presses(m.cost)),
        None => count,
    }
}

/// `1 solution`, `4 solutions`, `1073741824 solutions`.
pub fn solutions(r: &Report) -> String {
    if r.solutions == 1u32.into() {
        "1 solution".to_string()
    } else {
        format!("{} solutions", r.solutions)
    }
}

/// `1 press`, `15 presses`.
pub fn presses(n: u64) -> String {
    if n == 1 {
        "1 press".to_string()
    } else {
        format!("{n} presses")
    }
}

/// `1 error`, `3 errors`, `0 files`: a count and its noun, singular only
/// for exactly one (the noun's plural is the noun with `s`).
pub fn count(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    if n == "1" {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_singular_only_for_one() {
        assert_eq!(count(1, "error"), "1 error");
        assert_eq!(count(0usize, "file"), "0 files");
        assert_eq!(count(num_bigint::BigUint::from(65_536u32), "solution"), "65536 solutions");
        assert_eq!(presses(1), "1 press");
    }
}
