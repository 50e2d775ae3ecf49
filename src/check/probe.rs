//! The probe evaluation (placeholder).
use crate::diagnostics::Diagnostic;
use crate::eval::program::UserFunctions;
use crate::source::SourceMap;
use crate::syntax::model::Program;

/// Findings of the probe evaluation.
pub fn run(map: &SourceMap, program: &Program, user: &UserFunctions) -> Vec<Diagnostic> {
    let _ = (map, program, user);
    Vec::new()
}
