//! The words of the language as command-line flags take them: board sizes,
//! ranges, state counts, topologies and rules. Every command (`generate`,
//! `table`, `census`, …) parses its flags here, so `--rule` takes the same
//! spellings with the same errors everywhere, and a stencil given to a flag
//! is checked exactly as `rule { … }` in a file (it is parsed as one).

use std::ops::RangeInclusive;

use lights_syntax::suggest::did_you_mean;

use crate::model::{Rule, Topology, MAX_STATES, MIN_STATES, PER_CELL_LIMIT};

/// Why a flag's text is not what it should be; its message names the text
/// and says what to write instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    #[error("`{text}` is not a board size: write ROWSxCOLUMNS, e.g. 5x5")]
    NotASize { text: String },
    #[error("`{text}`: a board needs at least one row and one column")]
    NoRowOrColumn { text: String },
    #[error("`{text}`: a board has at most {PER_CELL_LIMIT} cells here")]
    TooManyCells { text: String },
    #[error("`{text}` is not a range: write MIN..MAX (inclusive) or N, e.g. 5..10")]
    NotARange { text: String },
    #[error("`{text}` is an empty range: its minimum is above its maximum")]
    EmptyRange { text: String },
    #[error("`{text}` needs both ends: write MIN..MAX (inclusive), e.g. 1..20")]
    OpenRange { text: String },
    #[error("`{text}`: {n} is too large")]
    TooLarge { text: String, n: u64 },
    #[error("`{text}` is not a number of states (2 to {MAX_STATES})")]
    NotStates { text: String },
    #[error("states must be between {MIN_STATES} and {MAX_STATES}, not {states}")]
    StatesOutOfRange { states: u64 },
    #[error("unknown topology `{name}`{hint}; the topologies are {}", Topology::NAMES.join(", "))]
    UnknownTopology { name: String, hint: String },
    #[error("unknown rule `{name}`{hint}; the rules are {}, or a stencil such as '.1. / 111 / .1.'", Rule::NAMES.join(", "))]
    UnknownRule { name: String, hint: String },
    /// `why` is `": "` and the language's first error, or empty.
    #[error("stencil `{text}` is not valid{why}")]
    InvalidStencil { text: String, why: String },
}

/// `RxC` (or `R x C`, `RXC`, `R×C`), each at least 1, at most
/// [`MAX_CELLS`] cells in all.
pub fn parse_size(text: &str) -> Result<(usize, usize), FlagError> {
    let bad = || FlagError::NotASize { text: text.to_string() };
    let (r, c) = text.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let number = |s: &str| -> Result<usize, FlagError> {
        match s.trim().parse::<usize>() {
            Ok(0) => Err(FlagError::NoRowOrColumn { text: text.to_string() }),
            Ok(n) => Ok(n),
            Err(_) => Err(bad()),
        }
    };
    let (rows, cols) = (number(r)?, number(c)?);
    // The authoring commands (generate, census) write and solve boards cell
    // by cell: the per-cell limit, not the model's.
    if (rows as u64).saturating_mul(cols as u64) > PER_CELL_LIMIT as u64 {
        return Err(FlagError::TooManyCells { text: text.to_string() });
    }
    Ok((rows, cols))
}

/// `MIN..MAX` (inclusive; `MIN..=MAX` too), `MIN..`, `..MAX` or `N`.
pub fn parse_range(text: &str) -> Result<RangeInclusive<u64>, FlagError> {
    let (lo, hi) = range_ends(text)?;
    let range = lo.unwrap_or(0)..=hi.unwrap_or(u64::MAX);
    if range.start() > range.end() {
        return Err(FlagError::EmptyRange { text: text.to_string() });
    }
    Ok(range)
}

/// `MIN..MAX` (or `MIN..=MAX`) or `N`, both ends written: a range of board
/// sides, which has no natural end.
pub fn parse_bounded_range(text: &str) -> Result<RangeInclusive<usize>, FlagError> {
    let (lo, hi) = range_ends(text)?;
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Err(FlagError::OpenRange { text: text.to_string() });
    };
    let side = |n: u64| usize::try_from(n).map_err(|_| FlagError::TooLarge { text: text.to_string(), n });
    let range = side(lo)?..=side(hi)?;
    if range.start() > range.end() {
        return Err(FlagError::EmptyRange { text: text.to_string() });
    }
    Ok(range)
}

/// The two ends of `A..B`, `A..=B`, `A..`, `..B` or `N` (`None`: not written).
fn range_ends(text: &str) -> Result<(Option<u64>, Option<u64>), FlagError> {
    let not_a_range = || FlagError::NotARange { text: text.to_string() };
    let number = |s: &str| -> Result<Option<u64>, FlagError> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse::<u64>().map(Some).map_err(|_| not_a_range())
    };
    match text.trim().split_once("..") {
        Some((a, b)) => Ok((number(a)?, number(b.strip_prefix('=').unwrap_or(b))?)),
        None => match number(text)? {
            Some(n) => Ok((Some(n), Some(n))),
            None => Err(not_a_range()),
        },
    }
}

/// The number of states W of a light, as `states` takes it.
pub fn parse_states(text: &str) -> Result<u32, FlagError> {
    let w: u64 = text.trim().parse().map_err(|_| FlagError::NotStates { text: text.to_string() })?;
    check_states(w)
}

/// W within the language's limits.
pub fn check_states(states: u64) -> Result<u32, FlagError> {
    if !(MIN_STATES..=MAX_STATES).contains(&states) {
        return Err(FlagError::StatesOutOfRange { states });
    }
    Ok(states as u32)
}

/// A topology name (`plane`, `cylinder`, `torus`, `mobius`, `klein`,
/// `projective`, and their aliases).
pub fn parse_topology(text: &str) -> Result<Topology, FlagError> {
    let t = text.trim();
    Topology::from_name(t)
        .ok_or_else(|| FlagError::UnknownTopology { name: t.to_string(), hint: hint(t, Topology::NAMES) })
}

/// A rule as a flag takes it: a name (`cross`, `king`, `flip`, `merlin`) or
/// a stencil, rows separated by `/` or newlines, in braces or not:
/// `.1. / 111 / .1.`, `. 1 . / 1 1 1 / . 1 .`, `{ .1. / 111 / .1. }`. The
/// stencil is read by the language as `rule { … }` in a puzzle of `states`
/// states, so it gets the language's checks and error messages.
pub fn parse_rule(text: &str, states: u32) -> Result<Rule, FlagError> {
    let t = text.trim();
    if let Some(rule) = Rule::from_name(t) {
        return Ok(rule);
    }
    let body = t.strip_prefix('{').map_or(t, |b| b.strip_suffix('}').unwrap_or(b));
    let looks_like_a_stencil =
        !body.trim().is_empty() && body.chars().all(|c| c.is_ascii_digit() || c.is_whitespace() || ".x/".contains(c));
    if !looks_like_a_stencil {
        return Err(FlagError::UnknownRule { name: t.to_string(), hint: hint(t, Rule::NAMES) });
    }
    let src = format!("puzzle \"rule\" {{\n  size 1x1\n  states {states}\n  rule {{\n{body}\n  }}\n}}\n");
    let analysis = crate::analyze(&src);
    let block = analysis.blocks.into_iter().next();
    let rule = block.as_ref().and_then(|p| p.puzzle()).map(|model| model.rule.clone());
    match (rule, block) {
        (Some(rule @ Rule::Stencil(_)), _) => Ok(rule),
        (_, block) => {
            // A syntax error (L00xx) explains the others it causes.
            let errors: Vec<_> = block
                .map(|p| p.diagnostics)
                .unwrap_or_default()
                .into_iter()
                .filter(super::diagnostic::Diagnostic::is_error)
                .collect();
            let first = errors.iter().find(|d| d.code.as_str().starts_with("L00")).or(errors.first());
            let why = first.map(|d| format!(": {}", d.message)).unwrap_or_default();
            Err(FlagError::InvalidStencil { text: t.to_string(), why })
        }
    }
}

/// The rule as a flag writes it, so it can be given back to `--rule`: the
/// name, or the stencil's rows separated by `/` (`. 1 . / 1 1 1 / . 1 .`).
pub fn rule_flag(rule: &Rule) -> String {
    match rule {
        Rule::Stencil(s) => s
            .weights
            .chunks(s.cols.max(1))
            .map(|row| {
                row.iter().map(|&w| if w == 0 { ".".into() } else { w.to_string() }).collect::<Vec<_>>().join(" ")
            })
            .collect::<Vec<_>>()
            .join(" / "),
        named => named.name().to_string(),
    }
}

fn hint(word: &str, names: &[&str]) -> String {
    did_you_mean(word, names).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("5x7"), Ok((5, 7)));
        assert_eq!(parse_size(" 3 X 4 "), Ok((3, 4)));
        assert_eq!(parse_size("3×4"), Ok((3, 4)));
        assert!(parse_size("0x3").unwrap_err().to_string().contains("at least one row"));
        assert!(parse_size("5").unwrap_err().to_string().contains("ROWSxCOLUMNS"));
        assert!(parse_size("ax5").is_err());
        assert!(parse_size("100000x100000").unwrap_err().to_string().contains("at most"));
    }

    #[test]
    fn ranges() {
        assert_eq!(parse_range("3..7"), Ok(3..=7));
        assert_eq!(parse_range("3..=7"), Ok(3..=7));
        assert_eq!(parse_range("4"), Ok(4..=4));
        assert_eq!(parse_range("..4"), Ok(0..=4));
        assert_eq!(parse_range("4.."), Ok(4..=u64::MAX));
        assert!(parse_range("7..3").unwrap_err().to_string().contains("empty range"));
        assert!(parse_range("a..3").is_err());
        assert!(parse_range("").is_err());
        assert_eq!(parse_bounded_range("1..20"), Ok(1..=20));
        assert_eq!(parse_bounded_range("3..=4"), Ok(3..=4));
        assert_eq!(parse_bounded_range("6"), Ok(6..=6));
        assert!(parse_bounded_range("3..").unwrap_err().to_string().contains("both ends"));
        assert!(parse_bounded_range("4..3").is_err());
    }

    #[test]
    fn states_and_topologies() {
        assert_eq!(parse_states("6"), Ok(6));
        assert!(parse_states("1").unwrap_err().to_string().contains("between 2 and 65536"));
        assert!(parse_states("six").is_err());
        assert_eq!(parse_topology("cross-cap"), Ok(Topology::Projective));
        assert!(parse_topology("tours").unwrap_err().to_string().contains("did you mean `torus`"));
    }

    #[test]
    fn every_stencil_spelling_is_the_same_rule() {
        let plus = parse_rule(". 1 . / 1 1 1 / . 1 .", 2).expect("spaced rows");
        let Rule::Stencil(s) = &plus else { panic!("a stencil") };
        assert_eq!((s.rows, s.cols, s.weights.clone()), (3, 3, vec![0, 1, 0, 1, 1, 1, 0, 1, 0]));
        for spelling in
            [".1. / 111 / .1.", ".1./111/.1.", "{ .1. / 111 / .1. }", "{ . 1 . / 1 1 1 / . 1 . }", ".1.\n111\n.1."]
        {
            assert_eq!(parse_rule(spelling, 2).as_ref(), Ok(&plus), "{spelling}");
        }
    }

    #[test]
    fn a_bad_stencil_gets_the_languages_error_in_every_spelling() {
        let braced = parse_rule("{ 1 2 1 }", 2).unwrap_err();
        let bare = parse_rule("1 2 1", 2).unwrap_err();
        let (braced, bare) = (braced.to_string(), bare.to_string());
        assert!(braced.contains("not valid: "), "{braced}");
        assert_eq!(braced.split_once(": ").map(|p| p.1), bare.split_once(": ").map(|p| p.1));
        assert!(parse_rule("1 1 / 1 1", 2).is_err(), "even sizes are refused");
        assert!(parse_rule("1 / / 1", 2).unwrap_err().to_string().contains("no row"));
    }

    #[test]
    fn names_and_misspellings() {
        assert_eq!(parse_rule("king", 2), Ok(Rule::King));
        assert_eq!(parse_rule(" merlin ", 2), Ok(Rule::Merlin));
        assert!(parse_rule("kign", 2).unwrap_err().to_string().contains("did you mean `king`"));
        assert!(parse_rule("", 2).unwrap_err().to_string().contains("unknown rule"));
    }

    #[test]
    fn the_flag_text_of_a_rule_reads_back_as_that_rule() {
        let knight = ". 1 . 1 . / 1 . . . 1 / . . 1 . . / 1 . . . 1 / . 1 . 1 .";
        let rule = parse_rule(knight, 2).expect("knight");
        assert_eq!(rule_flag(&rule), knight);
        assert_eq!(parse_rule(&rule_flag(&rule), 2), Ok(rule));
        assert_eq!(rule_flag(&Rule::Merlin), "merlin");
    }
}
