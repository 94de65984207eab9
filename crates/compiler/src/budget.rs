//! The minimum search's budget as an author writes it: `--minimum-budget
//! 2s` on the command line, `minimum-budget = "2s"` under `[solver]` in
//! lights.toml. One parser for both, so the two accept the same text and
//! say the same thing about a bad one.
//!
//! A budget is a duration turned into work units, one per nanosecond: the
//! search counts the work it does rather than timing it, so the answer is
//! the same on every machine, and takes about that long on a 2-core
//! machine of the 2020s (less on a faster one, more on a slower one).
//! `0` does no search: the solution the solve found is shown, proven
//! minimum only when it is the only solution (or has 0 or 1 press).

use std::fmt;
use std::time::Duration;

use crate::report::SolveOptions;

/// The longest budget accepted: one hour.
pub const MAX_MINIMUM_BUDGET: Duration = Duration::from_secs(3600);

/// Why a budget's text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BudgetError {
    /// Nothing was written.
    Empty,
    /// A minus sign: `-1s`.
    Negative(String),
    /// A number without a unit (other than `0`): `250`.
    NoUnit(String),
    /// A unit other than `ms`, `s`, `m` (`min`) or `h`.
    UnknownUnit { text: String, unit: String },
    /// Not a decimal number followed by a unit: `abc`, `1e400s`, `1.2.3s`.
    NotANumber(String),
    /// More than [`MAX_MINIMUM_BUDGET`].
    TooLong(String),
}

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const FORM: &str = "write a number and a unit: 250ms, 2s, 1.5s, 1m (or 0 for no search)";
        match self {
            BudgetError::Empty => write!(f, "the budget is empty: {FORM}"),
            BudgetError::Negative(t) => write!(f, "`{t}` is negative: a budget is 0 or more; {FORM}"),
            BudgetError::NoUnit(t) => write!(f, "`{t}` has no unit: {FORM}"),
            BudgetError::UnknownUnit { text, unit } => {
                write!(f, "`{text}`: `{unit}` is not a unit of time (ms, s, m or h); {FORM}")
            }
            BudgetError::NotANumber(t) => write!(f, "`{t}` is not a duration: {FORM}"),
            BudgetError::TooLong(t) => write!(f, "`{t}` is more than the longest budget, 1h"),
        }
    }
}

impl std::error::Error for BudgetError {}

/// A minimum budget: how long the minimum search may work (see the module).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MinimumBudget(Duration);

impl MinimumBudget {
    /// Parse `250ms`, `2s`, `1.5s`, `1m`, `1h`, `0` (no search). Spaces
    /// around the text and between the number and the unit are allowed.
    pub fn parse(text: &str) -> Result<MinimumBudget, BudgetError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(BudgetError::Empty);
        }
        if t.starts_with('-') {
            return Err(BudgetError::Negative(t.to_string()));
        }
        let number_end = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
        let (number, unit) = (&t[..number_end], t[number_end..].trim());
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        let valid = !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && fraction.bytes().all(|b| b.is_ascii_digit());
        if !valid || (number.contains('.') && fraction.is_empty()) {
            return Err(BudgetError::NotANumber(t.to_string()));
        }
        let nanos_per_unit: u128 = match unit {
            "" if whole.bytes().all(|b| b == b'0') && fraction.bytes().all(|b| b == b'0') => 0,
            "" => return Err(BudgetError::NoUnit(t.to_string())),
            "ms" => 1_000_000,
            "s" | "sec" => 1_000_000_000,
            "m" | "min" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            u if u.starts_with(|c: char| c.is_ascii_alphabetic()) && u.chars().all(|c| c.is_ascii_alphabetic()) => {
                return Err(BudgetError::UnknownUnit { text: t.to_string(), unit: u.to_string() })
            }
            _ => return Err(BudgetError::NotANumber(t.to_string())),
        };
        let too_long = || BudgetError::TooLong(t.to_string());
        // Whole units, then the fraction digit by digit (exact, no floats);
        // anything past a nanosecond is dropped.
        let whole: u128 =
            if whole.len() > 30 { return Err(too_long()) } else { whole.parse().map_err(|_| too_long())? };
        let mut nanos = whole.checked_mul(nanos_per_unit).ok_or_else(too_long)?;
        let mut scale = nanos_per_unit;
        for d in fraction.bytes() {
            scale /= 10;
            nanos += u128::from(d - b'0') * scale;
        }
        if nanos > MAX_MINIMUM_BUDGET.as_nanos() {
            return Err(too_long());
        }
        Ok(MinimumBudget(Duration::from_nanos(nanos as u64)))
    }

    /// The budget as a duration.
    pub fn duration(self) -> Duration {
        self.0
    }

    /// The work units the search may use: one per nanosecond.
    pub fn work_units(self) -> u64 {
        u64::try_from(self.0.as_nanos()).unwrap_or(u64::MAX)
    }

    /// The solve options of this budget: `0` turns the search off.
    pub fn solve_options(self) -> SolveOptions {
        SolveOptions { search_minimum: !self.0.is_zero(), minimum_work: self.work_units() }
    }
}

/// The solver's default budget (`SolveOptions::default().minimum_work`,
/// about 12 ms).
impl Default for MinimumBudget {
    fn default() -> Self {
        MinimumBudget(Duration::from_nanos(SolveOptions::default().minimum_work))
    }
}

impl std::str::FromStr for MinimumBudget {
    type Err = BudgetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MinimumBudget::parse(s)
    }
}

/// `250ms`, `2s`, `1.5s`, `1m`, `0`: text [`MinimumBudget::parse`] reads back.
impl fmt::Display for MinimumBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.0.as_nanos();
        let (unit, per) = if ns == 0 {
            return write!(f, "0");
        } else if ns.is_multiple_of(60_000_000_000) {
            ("m", 60_000_000_000u128)
        } else if ns >= 1_000_000_000 {
            ("s", 1_000_000_000)
        } else {
            ("ms", 1_000_000)
        };
        let whole = ns / per;
        let rest = ns % per;
        if rest == 0 {
            return write!(f, "{whole}{unit}");
        }
        let digits = per.ilog10() as usize;
        let fraction = format!("{rest:0digits$}");
        write!(f, "{whole}.{}{unit}", fraction.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str) -> Result<u128, BudgetError> {
        MinimumBudget::parse(text).map(|b| b.duration().as_millis())
    }

    #[test]
    fn durations_with_units() {
        assert_eq!(ms("250ms"), Ok(250));
        assert_eq!(ms("2s"), Ok(2000));
        assert_eq!(ms("1.5s"), Ok(1500));
        assert_eq!(ms(" 1m "), Ok(60_000));
        assert_eq!(ms("2 min"), Ok(120_000));
        assert_eq!(ms("1h"), Ok(3_600_000));
        assert_eq!(ms("0"), Ok(0));
        assert_eq!(ms("0s"), Ok(0));
        assert_eq!(ms("0.25s"), Ok(250));
        assert_eq!(MinimumBudget::parse("10ms").unwrap().work_units(), lights_algebra::DEFAULT_WORK_UNITS);
        assert_eq!(MinimumBudget::parse("1.5ms").unwrap().work_units(), 1_500_000);
    }

    #[test]
    fn bad_text_is_refused_with_its_reason() {
        assert_eq!(ms(""), Err(BudgetError::Empty));
        assert!(matches!(ms("-1s"), Err(BudgetError::Negative(_))));
        assert!(matches!(ms("250"), Err(BudgetError::NoUnit(_))));
        assert!(matches!(ms("abc"), Err(BudgetError::NotANumber(_))));
        assert!(matches!(ms("1e400s"), Err(BudgetError::NotANumber(_))));
        assert!(matches!(ms("1.s"), Err(BudgetError::NotANumber(_))));
        assert!(matches!(ms(".5s"), Err(BudgetError::NotANumber(_))));
        assert!(matches!(ms("1.2.3s"), Err(BudgetError::NotANumber(_))));
        assert!(matches!(ms("2 weeks"), Err(BudgetError::UnknownUnit { .. })));
        assert!(matches!(ms("5s!"), Err(BudgetError::NotANumber(_))));
        assert!(matches!(ms("99999h"), Err(BudgetError::TooLong(_))));
        assert!(matches!(ms("61m"), Err(BudgetError::TooLong(_))));
        assert!(matches!(ms(&format!("{}s", "9".repeat(60))), Err(BudgetError::TooLong(_))));
        assert_eq!(ms("60m"), Ok(3_600_000));
        let e = MinimumBudget::parse("1e400s").unwrap_err().to_string();
        assert!(e.contains("`1e400s` is not a duration"), "{e}");
    }

    #[test]
    fn shown_as_written_and_read_back() {
        for text in ["0", "250ms", "2s", "1.5s", "1m", "10ms", "1.25ms", "90s"] {
            let b = MinimumBudget::parse(text).unwrap();
            assert_eq!(MinimumBudget::parse(&b.to_string()), Ok(b), "{text} → {b}");
        }
        assert_eq!(MinimumBudget::parse("1.5s").unwrap().to_string(), "1.5s");
        assert_eq!(MinimumBudget::parse("60s").unwrap().to_string(), "1m");
    }

    #[test]
    fn zero_turns_the_search_off() {
        let off = MinimumBudget::parse("0").unwrap().solve_options();
        assert!(!off.search_minimum);
        let on = MinimumBudget::parse("2s").unwrap().solve_options();
        assert_eq!((on.search_minimum, on.minimum_work), (true, 2_000_000_000));
        assert_eq!(MinimumBudget::default().solve_options(), SolveOptions::default());
    }
}
