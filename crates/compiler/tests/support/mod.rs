//! Helpers shared by the compiler's tests (and its `minimum_sample` example).

pub(crate) mod walsh;
