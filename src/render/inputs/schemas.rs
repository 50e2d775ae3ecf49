//! `--required-schemas DIR`: every `.json` file under the folder (recursively, in Go's walk
//! order) read as an OpenAPI v3 document, failing as crossplane fails: a folder without JSON
//! files, a file that is not an OpenAPI document.

use crate::diagnostics::{Code, Diagnostic, from_read_error};
use crate::render::schemas::{OpenApiDocument, parse_document};
use crate::source::SourceMap;
use crate::source::loader::display_path;
use crate::source::tree::{TreeError, read_tree};
use std::path::Path;

/// The documents under `dir`. `engine`: the CLI of the engine dialect words the failure
/// (`cannot load required schemas from …`; the classic one said `OpenAPI schemas`).
pub fn load_required_schemas(
    dir: &Path,
    engine: bool,
    map: &mut SourceMap,
) -> Result<Vec<OpenApiDocument>, Box<Diagnostic>> {
    let shown = display_path(dir);
    let what = if engine {
        "required schemas"
    } else {
        "OpenAPI schemas"
    };
    let prefix = format!("cannot load {what} from {shown:?}");
    let fail = |code: Code, message: String, help: &str, path: &str| {
        Box::new(
            Diagnostic::new(code, format!("{prefix}: {message}"))
                .with_path(path)
                .with_help(help),
        )
    };
    let files = read_tree(dir, "json").map_err(|e| match e {
        TreeError::Read(read) => {
            let d = from_read_error(&read);
            Box::new(Diagnostic {
                summary: format!("{prefix}: {}", d.summary),
                ..d
            })
        }
        TreeError::Walk { .. } => fail(
            Code::I001,
            format!("cannot walk directory: {e}"),
            "give the folder of OpenAPI v3 JSON files (`kubectl get --raw /openapi/v3/<group-version>`)",
            &shown,
        ),
        TreeError::Escapes { ref path, .. } => fail(
            Code::I001,
            e.to_string(),
            "copy the file into the folder: links may not lead out of it",
            path,
        ),
        TreeError::TooLarge { .. } => fail(
            Code::I001,
            e.to_string(),
            "keep only the group-versions the functions ask for",
            &shown,
        ),
    })?;
    if files.is_empty() {
        return Err(fail(
            Code::I025,
            format!("no JSON files found in {shown:?}"),
            "save each document as a `.json` file: `kubectl get --raw /openapi/v3/apis/apps/v1 > apps-v1.json`",
            &shown,
        ));
    }
    let mut documents = Vec::with_capacity(files.len());
    for file in files {
        let name = display_path(&file.path);
        match parse_document(&file.text) {
            Ok(document) => documents.push(document),
            Err(error) => {
                let mut d = fail(
                    Code::I025,
                    format!("cannot parse OpenAPI JSON from {name:?}: {}", error.message),
                    "each file must hold one OpenAPI v3 document in JSON, as `kubectl get --raw /openapi/v3/<group-version>` prints it",
                    &name,
                );
                if let Some(offset) = error.offset {
                    let id = map.add(name.clone(), file.text);
                    let span = map.get(id).span(offset..offset);
                    d = Box::new(d.with_primary(span, Some("here".into())));
                }
                return Err(d);
            }
        }
    }
    Ok(documents)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPLOYMENT: &str = r#"{"components": {"schemas": {"io.k8s.api.apps.v1.Deployment": {
        "type": "object",
        "x-kubernetes-group-version-kind": [{"group": "apps", "kind": "Deployment", "version": "v1"}]
    }}}}"#;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    /// crossplane/cli v2.5.0 `cmd/crossplane/render/schemas_test.go` `TestLoadRequiredSchemas`
    /// (the same table as v2.2.4's `cmd/crank/render`).
    #[test]
    fn load_required_schemas_cases() {
        // Directory: every JSON file, nothing else.
        let dir = tree(&[
            ("apps-v1.json", DEPLOYMENT),
            ("core-v1.json", DEPLOYMENT),
            ("readme.txt", "ignore me"),
        ]);
        assert_eq!(
            load_required_schemas(dir.path(), true, &mut SourceMap::new())
                .unwrap()
                .len(),
            2
        );
        // NestedDirectory
        let dir = tree(&[("apps/v1.json", DEPLOYMENT), ("core/v1.json", DEPLOYMENT)]);
        assert_eq!(
            load_required_schemas(dir.path(), true, &mut SourceMap::new())
                .unwrap()
                .len(),
            2
        );
        // NotFound
        let missing = dir.path().join("does-not-exist");
        let err = load_required_schemas(&missing, true, &mut SourceMap::new()).unwrap_err();
        assert_eq!(err.code, Code::I001);
        assert!(
            err.summary.contains("cannot walk directory: lstat"),
            "{}",
            err.summary
        );
        // InvalidJSON
        let dir = tree(&[("bad.json", "not valid json")]);
        let err = load_required_schemas(dir.path(), true, &mut SourceMap::new()).unwrap_err();
        assert_eq!(err.code, Code::I025);
        assert!(
            err.summary.contains("cannot parse OpenAPI JSON from"),
            "{}",
            err.summary
        );
        // EmptyDirectory
        let dir = tree(&[]);
        let err = load_required_schemas(dir.path(), false, &mut SourceMap::new()).unwrap_err();
        assert_eq!(err.code, Code::I025);
        assert_eq!(
            err.summary,
            format!(
                "cannot load OpenAPI schemas from {0:?}: no JSON files found in {0:?}",
                display_path(dir.path())
            )
        );
    }
}
