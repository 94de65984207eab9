//! Exact linear algebra over `Z/W` (`2 <= W <= 65536`) for Lights Out solvers.
//!
//! A puzzle becomes the system `A·x ≡ b (mod W)`: `x` counts presses per cell,
//! `A` says which cells a press changes and by how much, `b` is the change the
//! board needs. This crate answers everything about such a system exactly:
//!
//! * [`solve`] / [`solve_cancellable`]: consistency, a particular solution, the
//!   kernel (quiet patterns) as a direct sum of cyclic groups, the exact number
//!   of solutions (a `BigUint`), and a certificate of unsolvability
//!   (`yᵀA ≡ 0`, `y·b ≢ 0`). Every answer is verified before it is returned.
//! * [`minimum_weight`]: the solution with the fewest presses (exact when the
//!   kernel is small enough to search, flagged as heuristic otherwise).
//!
//! Methods: bit-packed XOR elimination for `W = 2`; for other `W`, the Chinese
//! remainder theorem splits the problem into prime powers `p^e`, each solved with
//! a Smith-like elimination that pivots on entries of least `p`-valuation (plain
//! Gaussian elimination is wrong over `Z/4`, `Z/6`, …). See the module docs of
//! `gf2`, `prime_power`, `solve` and `minimum` for the details.
//!
//! Indicative release timings on a 2-core machine (whole `solve` call, including
//! kernel extraction and self-checks): see `examples/timings.rs`.

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod bit_planes;
mod bitmatrix;
mod cancel;
mod error;
mod gf2;
mod gf2_dense;
mod gf2_m4ri;
mod gf2_verify;
pub mod gf2poly;
mod gf3_dense;
mod kernel;
mod linear;
mod minimum;
pub mod modular;
mod prime_power;
mod solve;
mod sparse;
mod splitmix;
mod z4_dense;

pub use bitmatrix::BitMatrix;
pub use error::AlgebraError;
pub use gf2_dense::{solve_gf2_dense, Gf2Solution};
pub use kernel::{Kernel, KernelGenerator};
pub use minimum::{
    minimum_weight, minimum_weight_with_budget, part_bound, window_search, Minimum, Parts, SymmetricWindow,
    WindowOutcome, DEFAULT_WORK_UNITS,
};
pub use modular::factorize;
pub use solve::{solve, solve_cancellable, Solution};
pub use sparse::SparseMatrix;
pub use splitmix::SplitMix64;
