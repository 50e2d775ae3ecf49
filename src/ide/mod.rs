//! Editor analysis without a protocol, as rust-analyzer's `ide` crate: plain data in (paths,
//! texts, byte offsets), plain data out ([`types`]). The language server (`crate::lsp`) turns
//! LSP's positions into offsets, calls these functions and turns their answers into LSP's
//! messages; tests and other front ends call them directly.
//!
//! A composition is the `.hcl` files of a folder plus its `libraryFiles` (open documents as
//! edited, [`workspace`]). What is asked of it: diagnostics (every `check` rule,
//! [`workspace::Composition::findings`]), completion ([`complete`], with CRD-aware bodies in
//! [`body`], the XR's fields in
//! [`composite`]), hover and signature help ([`hover`]), definition/references/highlight/rename
//! ([`navigate`]), symbols, folding and semantic tokens ([`symbols`]), code actions and
//! formatting ([`actions`]), and with an `[example]` configured, live values ([`live`], from
//! the example's evaluation in [`example`]). Built-in and block documentation is in [`docs`].
//! Test files (`*.fnhcltest.hcl`) belong to no composition: [`testfile`].

pub mod actions;
pub mod body;
pub mod complete;
pub mod composite;
pub mod coverage;
pub mod cursor;
pub mod docs;
pub mod example;
pub mod hover;
pub mod live;
pub mod navigate;
pub mod pt;
pub mod symbols;
pub mod testfile;
pub mod types;
pub mod workspace;

use crate::source::FileId;
use std::path::Path;
use workspace::{Composition, Workspace};

/// A position asked about: the composition it is in, the file and the byte offset.
pub struct At<'a> {
    /// The open documents and settings.
    pub ws: &'a Workspace,
    /// The composition of the file.
    pub comp: Composition,
    /// The file.
    pub file: FileId,
    /// The byte offset in the file.
    pub offset: usize,
}

impl<'a> At<'a> {
    /// The position `offset` of the file at `path`, in the composition a request about it
    /// reads; `None` when the file is in no composition.
    pub fn new(ws: &'a Workspace, path: &Path, offset: usize) -> Option<At<'a>> {
        let comp = ws.composition_for(path)?;
        let file = comp.file_of(path)?;
        Some(At {
            ws,
            comp,
            file,
            offset,
        })
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        self.comp.text(self.file)
    }
}

/// The built-in function table, built once (building it registers every function: requests
/// that look up many names must not build it per name).
pub fn builtins() -> &'static crate::eval::functions::FunctionTable {
    static TABLE: std::sync::OnceLock<crate::eval::functions::FunctionTable> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(crate::eval::functions::builtins)
}
