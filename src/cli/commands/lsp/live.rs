//! Live values: with an example XR configured in `.fnhcl.toml`, the composition is evaluated
//! for it; hover shows a local's or expression's value and each resource block gets an inlay
//! hint and a code lens saying whether it renders, is discarded (and why) or fails.

use super::At;

/// The value (or inferred type) of what is under the cursor, as Markdown.
pub(super) fn hover(_at: &At) -> Option<String> {
    None
}

/// One hint per resource block of the file in `range`.
pub(super) fn inlay_hints(_at: &At, _range: lsp_types::Range) -> Vec<lsp_types::InlayHint> {
    Vec::new()
}

/// One lens per resource block of the file.
pub(super) fn code_lenses(_at: &At) -> Vec<lsp_types::CodeLens> {
    Vec::new()
}
