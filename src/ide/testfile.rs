//! Editor support for HCL-native test files (`*.fnhcltest.hcl`), which belong to no
//! composition: their diagnostics (`check`'s, from the document as edited) and completion of
//! `resource.` and `resources.` with the names of the composition they test.

use super::types::{Completion, CompletionKind};
use super::workspace::Workspace;
use crate::diagnostics::Diagnostic;
use crate::source::SourceMap;
use crate::source::loader::is_test_file;
use std::path::{Path, PathBuf};

/// One file's findings (a test file's, a patch-and-transform Composition's), checked on its
/// own; their spans are byte ranges of `text`.
#[derive(Clone, Debug)]
pub struct FileFindings {
    /// The file.
    pub path: PathBuf,
    /// Its text as analysed (the open document, else the file).
    pub text: String,
    /// The findings.
    pub diagnostics: Vec<Diagnostic>,
}

/// Whether `path` names a test file.
pub fn is_test(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| is_test_file(&n.to_string_lossy()))
}

/// The findings of every test file directly in `dir` (on disk or open), by path.
pub fn folder(ws: &Workspace, dir: &Path) -> Vec<FileFindings> {
    let paths = ws.files_in(dir, is_test);
    paths
        .into_iter()
        .filter_map(|path| {
            let text = ws.text(&path)?;
            let mut map = SourceMap::new();
            let file = map.add(path.display().to_string(), text.clone());
            let diagnostics = crate::check::testfile::check_file(&mut map, file, dir)
                .into_iter()
                // Only what is in the test file itself goes on it.
                .filter(|d| d.primary.as_ref().is_some_and(|p| p.span.file == file))
                .collect();
            Some(FileFindings {
                path,
                text,
                diagnostics,
            })
        })
        .collect()
}

/// Completion at `offset` of the test file `path`: after `resource.` the tested composition's
/// resources, after `resources.` its collections.
pub fn complete(ws: &Workspace, path: &Path, offset: usize) -> Option<Vec<Completion>> {
    let text = ws.text(path)?;
    let before = text.get(..offset)?;
    let typed = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .count();
    let head = &before[..before.len() - typed_len(before, typed)];
    let collections = if head.ends_with("resources.") {
        true
    } else if head.ends_with("resource.") {
        false
    } else {
        return None;
    };
    let dir = path.parent()?;
    let mut map = SourceMap::new();
    let file = map.add(path.display().to_string(), text.clone());
    let (resources, bases) = crate::check::testfile::tested_names(&mut map, file, dir)?;
    let (names, detail) = if collections {
        (bases, "resource collection")
    } else {
        (resources, "composed resource")
    };
    Some(
        names
            .into_iter()
            .map(|name| {
                let mut item = Completion::new(name, CompletionKind::Reference);
                item.detail = Some(detail.to_string());
                item
            })
            .collect(),
    )
}

/// The byte length of the last `chars` characters of `text`.
fn typed_len(text: &str, chars: usize) -> usize {
    text.chars().rev().take(chars).map(char::len_utf8).sum()
}
