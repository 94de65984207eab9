//! The pest parser generated from `grammar/lights.pest`.

#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/lights.pest"]
pub(crate) struct LightsParser;
