//! Bugs in lights, reported instead of crashing: a caught panic becomes an
//! internal error (L0302) on what was being analysed.

use lights_compiler::diagnostic::{Code, Diagnostic};
use lights_syntax::Span;

/// The text of a caught panic.
pub fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// L0302: a bug in lights, reported instead of a crash.
pub(crate) fn internal_error(span: Span, what: &str, msg: &str) -> Diagnostic {
    Diagnostic::error(Code::InternalError, span, format!("internal error while analysing {what}: {msg}"))
        .with_label("not analysed")
        .with_note("this is a bug in lights: please report it with this file")
}
