//! One version of an open document, as the server holds it: the analysed
//! [`Document`] and what converting its offsets needs. Immutable but for
//! its lens cache: requests read a snapshot while newer versions are being
//! analysed.

use std::sync::{Arc, Mutex};

use lights_compiler::SolveOptions;
use lights_ide::{AnalyzeFn, Document, Outcome};
use tower_lsp_server::lsp_types::{CodeLens, Uri};

use crate::position::{Encoding, PositionMap};

pub(crate) struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    pub doc: Document,
    pub map: PositionMap,
    /// The code lenses last answered for this version (building them can
    /// write out a large solution; editors ask again on every publish).
    pub lenses: Mutex<Option<LensCache>>,
}

/// Code lenses, and the answers of the blocks they were built from: they
/// stay right while every block has the same answer.
pub(crate) struct LensCache {
    pub answers: Vec<Option<Arc<Outcome>>>,
    pub lenses: Vec<CodeLens>,
}

impl LensCache {
    pub(crate) fn is_for(&self, answers: &[Option<Arc<Outcome>>]) -> bool {
        self.answers.len() == answers.len()
            && self.answers.iter().zip(answers).all(|(a, b)| match (a, b) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            })
    }
}

impl Snapshot {
    /// Analyse `text`; its blocks are to be solved with `options` (the
    /// minimum budget of its lights.toml, or of the editor's settings).
    pub(crate) fn build(
        uri: Uri,
        version: i32,
        text: String,
        encoding: Encoding,
        analyze: AnalyzeFn,
        options: SolveOptions,
    ) -> Snapshot {
        let doc = Document::with_analyzer(text, analyze).with_options(options);
        let map = PositionMap::new(doc.text(), encoding);
        Snapshot { uri, version, doc, map, lenses: Mutex::new(None) }
    }
}
