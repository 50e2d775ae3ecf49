//! Editor support for patch-and-transform Compositions (a YAML file with a
//! `function-patch-and-transform` step, or a legacy `mode: Resources` one): `check`'s P9xx
//! findings on the document as edited, with the folder's schemas.

use super::testfile::FileFindings;
use super::workspace::Workspace;
use crate::source::SourceMap;
use crate::source::loader::is_yaml;
use std::path::Path;

/// The findings of every patch-and-transform Composition directly in `dir` (on disk or open),
/// by path; their spans are byte ranges of each file's text.
pub fn folder(ws: &Workspace, dir: &Path) -> Vec<FileFindings> {
    let paths = ws.files_in(dir, is_yaml);
    let settings = ws.settings(dir);
    paths
        .into_iter()
        .filter_map(|path| {
            let text = ws.text(&path)?;
            if !crate::check::pt::may_hold(&text) {
                return None;
            }
            let mut map = SourceMap::new();
            let file = map.add(path.display().to_string(), text.clone());
            let mut diagnostics =
                crate::check::pt::check(&map, file, settings.config.schemas.as_deref())?;
            settings.config.apply(&mut diagnostics);
            Some(FileFindings {
                path,
                text,
                diagnostics,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::folder;
    use crate::ide::workspace::Workspace;

    #[test]
    fn an_open_composition_is_checked_as_edited() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("composition.yaml");
        std::fs::write(&path, "kind: ConfigMap\n").unwrap();
        let mut ws = Workspace::default();
        ws.documents.insert(
            path.clone(),
            "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata: {name: c}\n\
             spec:\n  compositeTypeRef: {apiVersion: example.org/v1, kind: X}\n  mode: Pipeline\n  \
             pipeline:\n  - step: pt\n    functionRef: {name: function-patch-and-transform}\n    \
             input:\n      apiVersion: pt.fn.crossplane.io/v1beta1\n      kind: Resources\n      \
             resources:\n      - name: cm\n        base: {apiVersion: v1, kind: ConfigMap}\n        \
             patches:\n        - fromFieldPath: spec..x\n"
                .into(),
        );
        let found = folder(&ws, dir.path());
        assert_eq!(found.len(), 1);
        let codes: Vec<&str> = found[0]
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert_eq!(codes, ["P902"]);
    }
}
