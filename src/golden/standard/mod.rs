//! The standard test formats in `fnhcl test`: Crossplane's `test.crossplane.io/v1alpha1` and
//! Upbound's `meta.dev.upbound.io/v1alpha1` CompositionTest files, found among the YAML
//! files below the tested folders, each test one case (`file.yaml::test name`), with fnhcl's
//! reconcile `steps`. Input paths resolve from the project root ([`project_root`]).

mod check;
mod patch;
mod project;
mod run;
pub mod spec;

pub use project::project_root;
pub use run::run;

use super::discover::{Case, TestRef, skipped};
use crate::source::SourceMap;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

/// A test file's tests, read from its text: `Err` when it is not YAML.
pub fn read_tests(path: &Path, map: &mut SourceMap) -> Result<Vec<spec::Parsed>, String> {
    let text = crate::source::read::read_text(path).map_err(|e| e.to_string())?;
    let parsed = crate::source::yaml::read_stream(&text);
    let id = map.add(path.display().to_string(), text);
    let file = map.get(id);
    let docs = parsed.map_err(|e| {
        let lc = file.line_col(e.offset);
        format!(
            "{}:{}:{}: {}",
            file.display_name(),
            lc.line,
            lc.column,
            e.message
        )
    })?;
    let docs: Vec<(Json, _)> = docs
        .into_iter()
        .map(|d| (serde_json::to_value(&d.value).unwrap_or(Json::Null), d.root))
        .collect();
    Ok(spec::tests(file, &docs))
}

/// Whether a file's text may hold a CompositionTest (a cheap look before parsing).
fn mentions_test(text: &str) -> bool {
    text.contains(spec::KIND)
        && (text.contains(spec::CROSSPLANE_API) || text.contains(spec::UPBOUND_API))
}

/// The tests of the CompositionTest files below `paths` (YAML files; hidden folders,
/// `target` and `node_modules` skipped; links not followed). A file that cannot be read as
/// tests is one case that fails with the reason.
pub fn discover(paths: &[PathBuf]) -> Vec<Case> {
    let mut cases = Vec::new();
    for path in paths {
        let root = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        let walker = walkdir::WalkDir::new(path)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                e.depth() == 0
                    || !e.file_type().is_dir()
                    || !skipped(&e.file_name().to_string_lossy())
            });
        for entry in walker.flatten() {
            let file = entry.path();
            let yaml = file.extension().is_some_and(|x| x == "yaml" || x == "yml");
            if !entry.file_type().is_file() || !yaml {
                continue;
            }
            let Ok(text) = crate::source::read::read_text(file) else {
                continue;
            };
            if !mentions_test(&text) {
                continue;
            }
            let shown = file.display().to_string();
            let shown = shown.strip_prefix("./").unwrap_or(&shown).to_string();
            let case = |id: String, index: usize| Case {
                dir: file.parent().map(Path::to_path_buf).unwrap_or_default(),
                id,
                root: root.clone(),
                test: Some(TestRef {
                    file: file.to_path_buf(),
                    index,
                }),
                hcl: None,
            };
            match read_tests(file, &mut SourceMap::new()) {
                Ok(tests) => {
                    for (index, (name, _)) in tests.iter().enumerate() {
                        cases.push(case(format!("{shown}::{name}"), index));
                    }
                }
                Err(_) => cases.push(case(shown, 0)),
            }
        }
    }
    cases
}
