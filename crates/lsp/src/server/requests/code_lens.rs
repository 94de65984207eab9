//! `textDocument/codeLens`: a lens above each block (its solution count,
//! "solving…", or why it was not solved), built once per set of answers.

use std::sync::atomic::Ordering;

use lights_ide::Answers;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::lsp_types::{CodeLens, CodeLensParams};

use crate::convert;
use crate::server::{lock, off_loop, Server, Shared};
use crate::snapshot::{LensCache, Snapshot};

pub(crate) async fn code_lens(server: &Server, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
    if !server.config().settings.code_lens {
        return Ok(Some(Vec::new()));
    }
    let Some(snap) = server.snapshot(&params.text_document.uri).await else { return Ok(None) };
    server.shared.settle(&snap).await;
    let shared = server.shared.clone();
    off_loop("code lens", move || Some(lenses(&shared, &snap))).await
}

/// The code lenses of a snapshot, built once per version and per set
/// of answers (a request while nothing changed is answered from the
/// cache). Blocking: run it off the loop. Concurrent requests for one
/// snapshot wait for the first to build.
fn lenses(shared: &Shared, snap: &Snapshot) -> Vec<CodeLens> {
    let answers: Vec<_> =
        (0..snap.doc.block_count()).map(|i| snap.doc.key(i).and_then(|k| shared.engine.outcome(&k))).collect();
    let mut cache = lock(&snap.lenses);
    if let Some(cached) = cache.as_ref().filter(|c| c.is_for(&answers)) {
        return cached.lenses.clone();
    }
    shared.lens_builds.fetch_add(1, Ordering::Relaxed);
    let lenses: Vec<CodeLens> =
        lights_ide::lenses(&snap.doc, &shared.engine).iter().map(|l| convert::lens(snap, l)).collect();
    *cache = Some(LensCache { answers, lenses: lenses.clone() });
    lenses
}
