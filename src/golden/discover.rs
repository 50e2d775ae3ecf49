//! Finding golden-test cases below the folders given, and the composition each one tests.

use crate::diagnostics::{Code, Diagnostic};
use crate::source::loader::holds_composition_files;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

/// One test case found.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its directory.
    pub dir: PathBuf,
    /// Its name in reports: the directory as found from the path given.
    pub id: String,
    /// The tested tree it was found in (the PATH given, made absolute with its links
    /// resolved): the paths a case names must stay inside it.
    pub root: PathBuf,
    /// For a `run` of an HCL-native test file (`*.fnhcltest.hcl`): which one (`dir` is the
    /// file's folder). `None` for a case folder.
    pub hcl: Option<HclRun>,
    /// A test of a CompositionTest file rather than a case folder.
    pub test: Option<TestRef>,
}

/// One `run` block of an HCL-native test file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HclRun {
    /// The test file.
    pub file: PathBuf,
    /// The run's name (empty when the file could not be read or parsed: the case then
    /// reports why).
    pub run: String,
}

/// Where a CompositionTest's test is: its file and its place among the file's tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestRef {
    /// The test file.
    pub file: PathBuf,
    /// The test's index among the file's tests (documents and `spec.tests` in order).
    pub index: usize,
}

/// What [`discover`] found: the cases to run, and the new ones that have no expected output
/// yet and are not run.
#[derive(Debug, Default)]
pub struct Found {
    /// The cases to run, sorted by name, each once.
    pub cases: Vec<Case>,
    /// Folders with `xr.yaml` directly inside a `tests` folder and no expected file, which
    /// `--update` would record: empty with `update` (they are among `cases` then).
    pub new: Vec<Case>,
}

/// The cases below `paths` (each must be a folder), those whose name contains `filter`,
/// sorted by name, each once: folders with `xr.yaml` and an expected file (`expected.yaml`,
/// `expected-error.txt` or `assert.yaml`); folders with `xr.yaml` directly inside a `tests`
/// folder and no expected file are new cases: run (and recorded) with `update`, listed in
/// [`Found::new`] without it.
pub fn discover(
    paths: &[PathBuf],
    update: bool,
    filter: Option<&str>,
) -> Result<Found, Box<Diagnostic>> {
    let mut found = Found::default();
    for path in paths {
        if !path.is_dir() {
            return Err(Box::new(Diagnostic::new(
                Code::I001,
                format!("{} is not a directory", path.display()),
            )));
        }
        let root = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        discover_below(path, &root, update, &mut found);
    }
    for cases in [&mut found.cases, &mut found.new] {
        if let Some(filter) = filter {
            cases.retain(|c| c.id.contains(filter));
        }
        cases.sort_by(|a, b| a.id.cmp(&b.id));
        // The same folder (or run) found through two PATHs runs once.
        cases.dedup_by(|a, b| a.dir == b.dir && a.test == b.test && a.hcl == b.hcl);
    }
    Ok(found)
}

/// Folders skipped while looking for cases.
pub(super) fn skipped(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "node_modules"
}

/// The cases below `root`.
fn discover_below(path: &Path, root: &Path, update: bool, found: &mut Found) {
    let walker = walkdir::WalkDir::new(path)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0 || !e.file_type().is_dir() || !skipped(&e.file_name().to_string_lossy())
        });
    for entry in walker.flatten() {
        if entry.file_type().is_file()
            && crate::source::loader::is_test_file(&entry.file_name().to_string_lossy())
        {
            hcl_runs(entry.path(), root, &mut found.cases);
            continue;
        }
        if !entry.file_type().is_dir() {
            continue;
        }
        let dir = entry.path();
        if !dir.join("xr.yaml").is_file() {
            continue;
        }
        let has_expected = ["expected.yaml", "expected-error.txt", "assert.yaml"]
            .iter()
            .any(|name| dir.join(name).is_file());
        let new_case = !has_expected
            && dir
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == "tests");
        if has_expected || new_case {
            let shown = dir.display().to_string();
            let id = shown.strip_prefix("./").unwrap_or(&shown).to_string();
            let case = Case {
                dir: dir.to_path_buf(),
                id,
                root: root.to_path_buf(),
                hcl: None,
                test: None,
            };
            if new_case && !update {
                found.new.push(case);
            } else {
                found.cases.push(case);
            }
        }
    }
}

/// The cases of an HCL-native test file: one per `run` block, named `FILE::RUN`; one named
/// `FILE` when the file cannot be read or parsed, or has no `run` block (running it says why).
fn hcl_runs(file: &Path, root: &Path, cases: &mut Vec<Case>) {
    let shown = file.display().to_string();
    let shown = shown.strip_prefix("./").unwrap_or(&shown).to_string();
    let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
    let names = crate::source::read::read_text(file)
        .ok()
        .map(|text| {
            let mut map = crate::source::SourceMap::new();
            let id = map.add(shown.clone(), text);
            let parsed = crate::syntax::parse_file(map.get(id));
            let model = crate::syntax::testfile::build(&crate::syntax::ParsedFile {
                file: id,
                body: parsed.body,
            });
            model.runs.into_iter().map(|r| r.name).collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let names = if names.is_empty() {
        vec![String::new()]
    } else {
        names
    };
    for run in names {
        let id = if run.is_empty() {
            shown.clone()
        } else {
            format!("{shown}::{run}")
        };
        cases.push(Case {
            dir: dir.clone(),
            id,
            root: root.to_path_buf(),
            hcl: Some(HclRun {
                file: file.to_path_buf(),
                run,
            }),
            test: None,
        });
    }
}

/// The composition a case tests: its `source` file, its `hcl/` folder, or the nearest folder
/// at or above it holding `.hcl` files.
pub fn source_of(dir: &Path) -> Result<PathBuf, String> {
    let named = dir.join("source");
    if named.exists() {
        let text = crate::source::read::read_text(&named).map_err(|e| e.to_string())?;
        return Ok(dir.join(text.trim()));
    }
    if holds_hcl(&dir.join("hcl")) {
        return Ok(dir.join("hcl"));
    }
    let mut at = Some(dir);
    while let Some(candidate) = at {
        if holds_hcl(candidate) {
            return Ok(candidate.to_path_buf());
        }
        at = candidate.parent();
    }
    Err("no composition found: no .hcl files in the case's folder, its hcl/ folder or a folder above it, and no `source` file".into())
}

/// What [`holds_composition_files`] answered for a folder, and the folder's modification time then.
type Listed = HashMap<PathBuf, (SystemTime, bool)>;

/// [`holds_composition_files`], remembered while the folder's modification time stays the same (adding,
/// removing or renaming a file changes it). Cases share their composition's folder and the
/// `tests/` folder above them: listing those once per case made a suite of N cases in one
/// folder cost N² directory entries.
fn holds_hcl(dir: &Path) -> bool {
    static LISTED: OnceLock<Mutex<Listed>> = OnceLock::new();
    let Some(modified) = std::fs::metadata(dir).and_then(|m| m.modified()).ok() else {
        return false;
    };
    let listed = LISTED.get_or_init(Mutex::default);
    if let Some(&(when, answer)) = listed.lock().ok().as_ref().and_then(|l| l.get(dir)) {
        if when == modified {
            return answer;
        }
    }
    let answer = holds_composition_files(dir);
    if let Ok(mut listed) = listed.lock() {
        // A long `--watch` session over a changing tree must not grow it without bound.
        if listed.len() >= MAX_LISTED {
            listed.clear();
        }
        listed.insert(dir.to_path_buf(), (modified, answer));
    }
    answer
}

/// How many folders [`holds_hcl`] remembers.
const MAX_LISTED: usize = 65_536;
