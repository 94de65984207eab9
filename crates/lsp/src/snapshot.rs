//! One version of an open document, as the server holds it: the analysed
//! [`Document`] and what converting its offsets needs. Immutable: requests
//! read a snapshot while newer versions are being analysed.

use lights_ide::{AnalyzeFn, Document};
use tower_lsp_server::lsp_types::Uri;

use crate::position::{Encoding, PositionMap};

pub(crate) struct Snapshot {
    pub uri: Uri,
    pub version: i32,
    pub doc: Document,
    pub map: PositionMap,
}

impl Snapshot {
    pub(crate) fn build(uri: Uri, version: i32, text: String, encoding: Encoding, analyze: AnalyzeFn) -> Snapshot {
        let doc = Document::with_analyzer(text, analyze);
        let map = PositionMap::new(doc.text(), encoding);
        Snapshot { uri, version, doc, map }
    }
}
