//! CRD-aware bodies: inside a resource's `body`, completion and hover follow the schema of the
//! body's `apiVersion` and `kind` (the schemas `check` reads: `.fnhcl.toml` `schemas`,
//! `.crd-sources.yaml` or `.crds/`).

use super::At;

/// Field completions at a position inside a `body` object whose kind has a schema.
pub(super) fn complete(_at: &At) -> Option<Vec<lsp_types::CompletionItem>> {
    None
}

/// A field's type, description and allowed values at a key inside a `body` object.
pub(super) fn hover(_at: &At) -> Option<lsp_types::Hover> {
    None
}
