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
    /// A buffer sized by the system (`bytes` long) could not be allocated:
    /// the system is well formed but does not fit in this machine's memory.
    OutOfMemory {
        /// The size of the allocation that failed.
        bytes: usize,
    },
    /// A self-check failed: this is a bug in `lights-algebra`.
    Internal(String),
}

/// An empty `Vec` with room for `len` items, or `OutOfMemory` when the
/// memory is not there: buffers with one entry per equation can be
/// board-sized (10⁸ rows and more), and must not abort the process.
pub(crate) fn try_with_capacity<T>(len: usize) -> Result<Vec<T>, AlgebraError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| AlgebraError::OutOfMemory { bytes: len.saturating_mul(std::mem::size_of::<T>()) })?;
    Ok(v)
}

/// A `rows × cols` bit matrix, or `OutOfMemory`.
pub(crate) fn try_bit_matrix(rows: usize, cols: usize) -> Result<crate::BitMatrix, AlgebraError> {
    crate::BitMatrix::try_zeros(rows, cols)
        .ok_or(AlgebraError::OutOfMemory { bytes: crate::BitMatrix::bytes(rows, cols) })
}

/// The transpose of `m`, or `OutOfMemory`.
pub(crate) fn try_transposed(m: &crate::BitMatrix) -> Result<crate::BitMatrix, AlgebraError> {
    m.try_transpose().ok_or(AlgebraError::OutOfMemory { bytes: crate::BitMatrix::bytes(m.cols, m.rows) })
}

/// `vec![value; len]` when memory allows (see [`try_with_capacity`]).
pub(crate) fn try_vec<T: Clone>(len: usize, value: T) -> Result<Vec<T>, AlgebraError> {
    let mut v = try_with_capacity(len)?;
    v.resize(len, value);
    Ok(v)
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
            AlgebraError::OutOfMemory { bytes } => write!(f, "could not allocate {bytes} bytes of working memory"),
            AlgebraError::Internal(msg) => write!(f, "internal error (self-check failed): {msg}"),
        }
    }
}

impl std::error::Error for AlgebraError {}
