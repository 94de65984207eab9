//! The one error type of the crate.

use std::fmt;

/// Everything that can go wrong in this crate.
///
/// `Internal` is special: it is returned when one of the always-on self-checks
/// (for example `A·x ≡ b` for a returned particular solution) fails. That is a
/// bug in this crate, reported as an error rather than a panic so that a caller
/// can degrade gracefully.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AlgebraError {
    /// The caller's cancellation callback returned `true`.
    Cancelled,
    /// The modulus is outside `2..=65536`.
    BadModulus(u32),
    /// A vector or matrix has the wrong shape, or an index is out of range.
    DimensionMismatch {
        /// Which object had the wrong shape.
        what: &'static str,
        /// The size or bound that was expected.
        expected: usize,
        /// The size or index that was found.
        found: usize,
    },
    /// A self-check failed: this is a bug in `lights-algebra`.
    Internal(String),
}

impl fmt::Display for AlgebraError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AlgebraError::Cancelled => write!(f, "computation cancelled"),
            AlgebraError::BadModulus(w) => {
                write!(f, "modulus {w} is out of range (expected 2..=65536)")
            }
            AlgebraError::DimensionMismatch { what, expected, found } => {
                write!(f, "dimension mismatch in {what}: expected {expected}, found {found}")
            }
            AlgebraError::Internal(msg) => write!(f, "internal error (self-check failed): {msg}"),
        }
    }
}

impl std::error::Error for AlgebraError {}
