//! Placeholder for the function-hcl schema.
use super::ParsedFile;
use crate::diagnostics::Diagnostic;
use crate::source::SourceMap;

/// Schema diagnostics for a whole program.
pub fn check_program(_map: &SourceMap, _files: &[ParsedFile]) -> Vec<Diagnostic> {
    Vec::new()
}
