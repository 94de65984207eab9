//! What a block's answer depends on, as one 128-bit key.
//!
//! The models ([`Puzzle`](crate::Puzzle), [`SlidingPuzzle`](crate::SlidingPuzzle))
//! derive `Hash`. The fields the solver never reads — the name, source
//! spans, `expect` claims, the written `solution` — are wrapped in
//! [`Unkeyed`], whose hash is empty. So a block's key is derived from the
//! model itself: a field added to a model joins the key unless it is
//! explicitly marked, and editing a claim, a comment or the layout of a file
//! keeps the answers cached under the old key.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

use xxhash_rust::xxh3::Xxh3Default;

/// A part of a model that does not change its answer: left out of the key.
/// It compares (`==`) as its contents, and reads as them through `Deref`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Unkeyed<T>(pub T);

impl<T> Hash for Unkeyed<T> {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

impl<T> Deref for Unkeyed<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for Unkeyed<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for Unkeyed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T: fmt::Display> fmt::Display for Unkeyed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T> From<T> for Unkeyed<T> {
    fn from(value: T) -> Self {
        Unkeyed(value)
    }
}

impl From<&str> for Unkeyed<String> {
    fn from(value: &str) -> Self {
        Unkeyed(value.to_string())
    }
}

impl PartialEq<String> for Unkeyed<String> {
    fn eq(&self, other: &String) -> bool {
        self.0 == *other
    }
}

impl PartialEq<str> for Unkeyed<String> {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Unkeyed<String> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl<'a, T> IntoIterator for &'a Unkeyed<Vec<T>> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The key of a block's answer: two blocks with equal keys have the same
/// answer. A 128-bit XXH3 digest of the model's `Hash`, so a key is small
/// and cheap to compare however large the board (a chance collision is
/// about 2⁻¹²⁸ per pair).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockKey(u128);

impl BlockKey {
    /// The key of anything hashable (a [`Block`](crate::Block), in practice).
    pub fn of<T: Hash + ?Sized>(value: &T) -> BlockKey {
        let mut hasher = Buffered { xxh3: Xxh3Default::new(), buf: Vec::with_capacity(BUFFER) };
        value.hash(&mut hasher);
        hasher.flush();
        BlockKey(hasher.xxh3.digest128())
    }
}

/// Small writes are gathered before they reach XXH3: a board's `locked`
/// cells are hashed one `bool` at a time, and a streaming update per byte
/// would cost more than the rest of the key. The digest is the same however
/// the bytes are split.
struct Buffered {
    xxh3: Xxh3Default,
    buf: Vec<u8>,
}

const BUFFER: usize = 1 << 16;

impl Buffered {
    fn flush(&mut self) {
        self.xxh3.update(&self.buf);
        self.buf.clear();
    }
}

impl Hasher for Buffered {
    fn write(&mut self, bytes: &[u8]) {
        if self.buf.len() + bytes.len() > BUFFER {
            self.flush();
        }
        if bytes.len() >= BUFFER {
            self.xxh3.update(bytes);
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        if self.buf.len() == BUFFER {
            self.flush();
        }
        self.buf.push(byte);
    }

    fn finish(&self) -> u64 {
        let mut xxh3 = self.xxh3.clone();
        xxh3.update(&self.buf);
        xxh3.digest()
    }
}

impl fmt::Debug for BlockKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BlockKey({:032x})", self.0)
    }
}
