//! L4: `check` — every diagnostic a composition can have without running it. Today: syntax and
//! the function-hcl schema; semantic rules join later.

use crate::diagnostics::{Diagnostic, Severity};
use crate::source::SourceMap;
use crate::source::loader::Bundle;
use crate::syntax::{self, ParsedFile};

/// Parses every file of a bundle and checks the program's structure.
pub fn check_bundle(map: &SourceMap, bundle: &Bundle) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let mut parsed = Vec::with_capacity(bundle.files.len());
    for member in &bundle.files {
        let result = syntax::parse_file(map.get(member.file));
        diagnostics.extend(result.diagnostics);
        parsed.push(ParsedFile {
            file: member.file,
            body: result.body,
        });
    }
    // A partial tree would only add noise; function-hcl also stops after syntax errors.
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        return diagnostics;
    }
    diagnostics.extend(crate::syntax::schema::check_program(&parsed));
    diagnostics
}
