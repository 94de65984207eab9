//! One handler per request, each in its own module (ruff_server's
//! `server/api/requests/` is the model). A handler finds the snapshot it
//! needs, asks `lights_ide`, and converts the answer (`crate::convert`);
//! what is said is decided in the ide layer, when and where the work runs
//! in `server`.

mod code_action;
mod code_lens;
mod completion;
mod document_symbol;
mod execute_command;
mod folding_range;
mod formatting;
mod hover;
mod initialize;
mod inlay_hint;
mod play;

pub(super) use code_action::code_action;
pub(super) use code_lens::code_lens;
pub(super) use completion::completion;
pub(super) use document_symbol::document_symbol;
pub(super) use execute_command::execute_command;
pub(super) use folding_range::folding_range;
pub(super) use formatting::formatting;
pub(super) use hover::hover;
pub(super) use initialize::initialize;
pub(super) use inlay_hint::inlay_hint;
pub(crate) use play::{board, lights_edit, solve_from};
