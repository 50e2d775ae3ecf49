//! L3: scopes and references — what a name means where it is used, shared by `check` and the
//! evaluator. Nothing here evaluates an expression.

pub mod locals;
pub mod references;
pub mod resolve;

pub use locals::{LocalsPlan, plan_locals};

use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;

/// function-hcl's `ToErrorDiag`: the range is both the subject and the context (the source
/// quoted in discard messages); an empty detail is none.
pub(crate) fn to_error_diag(code: Code, summary: String, detail: &str, at: Span) -> Diagnostic {
    let mut d = Diagnostic::new(code, summary)
        .with_primary(at, None)
        .with_expression(at);
    if !detail.is_empty() {
        d.detail = Some(detail.to_string());
    }
    d
}
