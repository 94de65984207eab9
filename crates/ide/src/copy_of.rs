//! The earlier level a level of a pack copies: data a front end finds
//! ([`crate::pack::PackIndex`]) and a [`crate::Document`] keeps.

/// The earlier level a level copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyOf {
    pub name: String,
    pub file: String,
    pub line: usize,
    /// How the copy is moved, in words.
    pub how: Option<String>,
}

impl CopyOf {
    /// `levels/01.lights, line 3`.
    pub fn place(&self) -> String {
        format!("{}, line {}", self.file, self.line)
    }
}
