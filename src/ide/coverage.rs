//! Coverage in the editor: when a run wrote LCOV (`fnhcl test --lcov`), each line it has a
//! record for gets a note — blocks rendered, `condition` outcomes, conditional arms, user
//! function calls — shown as inlay hints and code lenses beside the live values.
//!
//! The tracefile is the nearest `lcov.info` or `coverage/lcov.info` in the file's folder or a
//! folder above it; its `SF` paths are read relative to the folder holding `lcov.info` (the
//! folder `fnhcl test` ran in, for `coverage/lcov.info` the folder above). Notes follow the
//! lines as they were when the run was made.

use super::At;
use super::types::BlockNote;
use crate::golden::coverage::lcov;
use std::path::{Component, Path, PathBuf};

/// The names looked for, in each folder from the file's upwards.
const TRACEFILES: [&str; 2] = ["lcov.info", "coverage/lcov.info"];

/// The largest tracefile read: 16 MiB, far past a project's (a few hundred bytes a file).
const MAX_TRACEFILE_BYTES: u64 = 16 << 20;

/// The coverage notes of the request's file (none without a tracefile that names it).
pub fn block_notes(at: &At) -> Vec<BlockNote> {
    let Some(path) = at.comp.path(at.file) else {
        return Vec::new();
    };
    let Some((tracefile, root)) = find(path) else {
        return Vec::new();
    };
    // A tracefile past the bound is left unread rather than parsed on every request.
    if std::fs::metadata(&tracefile).map_or(true, |m| m.len() > MAX_TRACEFILE_BYTES) {
        return Vec::new();
    }
    let Ok(text) = crate::source::read::read_text(&tracefile) else {
        return Vec::new();
    };
    let wanted = clean(path);
    let Some(record) = lcov::parse(&text)
        .into_iter()
        .find(|r| clean(&root.join(&r.path)) == wanted)
    else {
        return Vec::new();
    };
    let text = at.text();
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    lcov::line_notes(&record)
        .into_iter()
        .filter_map(|(line, notes)| {
            let start = *starts.get(line.checked_sub(1)?)?;
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            Some(BlockNote {
                start,
                end: start + text[start..end].trim_end().len(),
                title: notes.join("; "),
                tooltip: None,
            })
        })
        .collect()
}

/// The nearest tracefile at or above the file's folder, and the folder its paths are
/// relative to.
fn find(path: &Path) -> Option<(PathBuf, PathBuf)> {
    for dir in path.ancestors().skip(1) {
        for name in TRACEFILES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some((candidate, dir.to_path_buf()));
            }
        }
    }
    None
}

/// A path with `.` and `..` resolved as text.
fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
