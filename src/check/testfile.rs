//! `check` of HCL-native test files (`*.fnhcltest.hcl`): their syntax, their block schema
//! (`run`, `assert` and the run arguments), and every `resource.NAME` they read against the
//! resources of the composition they test. A test file is never checked as composition code.

use super::analyzer::Declared;
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::{Code, Diagnostic, Severity, from_load_error};
use crate::source::loader::{self, LoadOptions};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::testfile::{self, TestFile, literal_string};
use crate::syntax::{ParsedFile, model};
use std::path::{Path, PathBuf};

/// The test files below `dir` (hidden folders skipped), sorted.
pub(super) fn below(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter(|e| loader::is_test_file(&e.file_name().to_string_lossy()))
        .map(|e| e.path().to_path_buf())
        .collect()
}

/// Checks one test file (added to `map`): the findings, and whether it could not be read.
pub(super) fn check(map: &mut SourceMap, path: &Path) -> (Vec<Diagnostic>, bool) {
    let text = match loader::read_text(path) {
        Ok(text) => text,
        Err(e) => return (vec![from_load_error(&e, map)], true),
    };
    let file = map.add(loader::display_path(path), text);
    let dir = path.parent().unwrap_or(Path::new("."));
    (check_file(map, file, dir), false)
}

/// The findings of a test file already in `map` (an editor's text), which lives in `dir`;
/// the tested composition is read from disk into `map`.
pub fn check_file(map: &mut SourceMap, file: FileId, dir: &Path) -> Vec<Diagnostic> {
    let parsed = crate::syntax::parse_file(map.get(file));
    let mut found = parsed.diagnostics.clone();
    if found.iter().any(|d| d.severity == Severity::Error) {
        return found;
    }
    let model = testfile::build(&ParsedFile {
        file,
        body: parsed.body,
    });
    found.extend(model.problems.iter().cloned());
    if let Some(declared) = composition_of(map, dir, &model) {
        found.extend(unknown_resources(file, &model, &declared));
    }
    found
}

/// The resource and collection names of the composition a test file in `dir` tests (the
/// file's `composition` argument, else the nearest one), each sorted; `None` when it cannot
/// be loaded.
pub fn tested_names(
    map: &mut SourceMap,
    file: FileId,
    dir: &Path,
) -> Option<(Vec<String>, Vec<String>)> {
    let parsed = crate::syntax::parse_file(map.get(file));
    let model = testfile::build(&ParsedFile {
        file,
        body: parsed.body,
    });
    let declared = composition_of(map, dir, &model)?;
    let mut resources: Vec<String> = declared.resources.into_iter().collect();
    let mut collections: Vec<String> = declared.collections.into_iter().collect();
    resources.sort();
    collections.sort();
    Some((resources, collections))
}

/// The names the tested composition declares; `None` when it cannot be found or loaded
/// cleanly (its own check reports why).
fn composition_of(map: &mut SourceMap, dir: &Path, model: &TestFile) -> Option<Declared> {
    // The runs of one file may name compositions of their own: judge only a file whose runs
    // all test one.
    let mut named = model
        .runs
        .iter()
        .map(|r| r.attribute("composition").map(|a| literal_string(&a.expr)));
    let first = named.next().unwrap_or(None);
    if named.any(|n| n != first) {
        return None;
    }
    let source = match first {
        Some(Some(path)) => dir.join(path),
        Some(None) => return None,
        None => nearest_composition(dir)?,
    };
    let bundle = loader::load_path(map, &source, LoadOptions::default()).ok()?;
    let mut files = Vec::new();
    for member in &bundle.files {
        let parsed = crate::syntax::parse_file(map.get(member.file));
        if parsed.has_errors() {
            return None;
        }
        files.push(ParsedFile {
            file: member.file,
            body: parsed.body,
        });
    }
    Some(Declared::of(&model::build(&files)))
}

/// The nearest folder at or above `dir` holding composition `.hcl` files (or an `hcl/`
/// folder that does), as `fnhcl test` finds it.
fn nearest_composition(dir: &Path) -> Option<PathBuf> {
    let holds = loader::holds_composition_files;
    if holds(&dir.join("hcl")) {
        return Some(dir.join("hcl"));
    }
    dir.ancestors().find(|d| holds(d)).map(Path::to_path_buf)
}

/// `resource.NAME` naming no resource of the composition (nor a member a collection could
/// name by default, `BASE-KEY`).
fn unknown_resources(file: FileId, model: &TestFile, declared: &Declared) -> Vec<Diagnostic> {
    let mut names: Vec<&str> = declared
        .resources
        .iter()
        .chain(&declared.collections)
        .map(String::as_str)
        .collect();
    names.sort_unstable();
    let mut out = Vec::new();
    for run in &model.runs {
        for (name, range) in testfile::resource_references(run) {
            let known = declared.resources.contains(&name)
                || declared.collections.contains(&name)
                || declared
                    .collections
                    .iter()
                    .any(|base| name.starts_with(&format!("{base}-")));
            if known {
                continue;
            }
            let mut d = Diagnostic::new(Code::R208, "invalid resource name reference")
                .with_detail(format!(
                    "The tested composition has no resource named {name:?}."
                ))
                .with_primary(Span::of(file, &range), None);
            d = match did_you_mean(&name, &names, str::to_string) {
                Some(help) => d.with_help(help),
                None if names.is_empty() => d.with_help("the composition declares no resources"),
                None => d.with_help(format!(
                    "its resources and collections: {}",
                    names.join(", ")
                )),
            };
            out.push(d);
        }
    }
    out
}
