//! The pest parser generated from `grammar/lights.pest`, through this
//! crate's copy of it (`crates/syntax/grammar/lights.pest`: a published
//! crate cannot reach outside its folder; `tests/packaging/sync-assets`
//! refreshes the copy and a test fails when it is stale).

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/lights.pest"]
pub(crate) struct LightsParser;
