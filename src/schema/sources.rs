//! Where schemas are read from: files and folders given, and function-hcl v0.2.0's
//! conventions — a `.crd-sources.yaml` listing paths and globs (relative to its folder), or a
//! `.crds/` folder — found by walking up from a folder.

use crate::source::read::{self, ReadError};
use std::path::{Path, PathBuf};

/// The file naming schema sources.
pub const SOURCES_FILE: &str = ".crd-sources.yaml";
/// The folder of schema files.
pub const CRDS_DIR: &str = ".crds";

/// Why sources could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum SourcesError {
    /// A file or folder could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file is not a regular file, too large, or not text.
    #[error("{0}")]
    Read(#[from] ReadError),
    /// A `.crd-sources.yaml` is not what function-hcl reads.
    #[error("{path}: {message}")]
    Config {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

fn is_yaml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "yaml" || e == "yml")
}

/// The YAML files below `dir`, recursively, in path order (as `filepath.Walk` lists them).
pub fn yaml_files_below(dir: &Path) -> Result<Vec<PathBuf>, SourcesError> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| SourcesError::Io {
            path: e.path().unwrap_or(dir).display().to_string(),
            source: e
                .into_io_error()
                .unwrap_or_else(|| std::io::Error::other("a filesystem loop")),
        })?;
        if entry.file_type().is_file() && is_yaml(entry.path()) {
            out.push(entry.into_path());
        }
    }
    Ok(out)
}

/// The files a `.crd-sources.yaml` names: each `paths` entry, a file or a glob (`**` crosses
/// folders), relative to the file's folder; only `.yaml` files, as function-hcl loads them.
pub fn from_sources_file(file: &Path) -> Result<Vec<PathBuf>, SourcesError> {
    let display = file.display().to_string();
    let text = read::read_text(file)?;
    let config = |message: String| SourcesError::Config {
        path: display.clone(),
        message,
    };
    let docs = crate::source::yaml::read_stream(&text).map_err(|e| config(e.message))?;
    let json = docs
        .into_iter()
        .next()
        .map(|d| serde_json::to_value(&d.value).unwrap_or_default())
        .unwrap_or_default();
    let paths = match json.get("paths") {
        None => Vec::new(),
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .map(|p| {
                p.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| config(format!("paths holds {p}, not a path")))
            })
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(config(format!("paths must be a list, not {other}"))),
    };
    let base = file.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for pattern in paths {
        let full = if Path::new(&pattern).is_absolute() {
            PathBuf::from(&pattern)
        } else {
            base.join(&pattern)
        };
        let mut found = glob_files(&full).map_err(|e| config(format!("{pattern:?}: {e}")))?;
        found.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
        found.sort();
        out.extend(found);
    }
    out.dedup();
    Ok(out)
}

/// The files matching a glob (`*` and `?` within a path component, `**` across them): the
/// folder before the first wildcard is walked and every file in it matched.
fn glob_files(pattern: &Path) -> Result<Vec<PathBuf>, String> {
    let text = pattern.to_string_lossy();
    let is_wild = |s: &str| s.contains(['*', '?', '[', '{']);
    let mut base = PathBuf::new();
    for component in pattern.components() {
        let part = component.as_os_str().to_string_lossy();
        if is_wild(&part) {
            break;
        }
        base.push(component);
    }
    if !is_wild(&text) {
        return Ok(if pattern.is_file() {
            vec![pattern.to_path_buf()]
        } else {
            Vec::new()
        });
    }
    let matcher = globset::GlobBuilder::new(&text)
        .literal_separator(true)
        .build()
        .map_err(|e| e.to_string())?
        .compile_matcher();
    Ok(walkdir::WalkDir::new(&base)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && matcher.is_match(e.path()))
        .map(walkdir::DirEntry::into_path)
        .collect())
}

/// The schema files given as `arg`: a `.crd-sources.yaml`, a folder holding one, a folder
/// (its YAML files, recursively), or a file.
pub fn from_argument(arg: &Path) -> Result<Vec<PathBuf>, SourcesError> {
    if arg.is_dir() {
        let sources = arg.join(SOURCES_FILE);
        if sources.is_file() {
            return from_sources_file(&sources);
        }
        return yaml_files_below(arg);
    }
    if arg.file_name().is_some_and(|n| n == SOURCES_FILE) {
        return from_sources_file(arg);
    }
    std::fs::metadata(arg).map_err(|source| SourcesError::Io {
        path: arg.display().to_string(),
        source,
    })?;
    Ok(vec![arg.to_path_buf()])
}

/// The schema files a composition's rules read: `configured` (arguments or a configuration's
/// `schemas`) when there are any, else what [`discover`] finds from `start`.
pub fn files_for(configured: &[PathBuf], start: &Path) -> Result<Vec<PathBuf>, SourcesError> {
    if configured.is_empty() {
        return discover(start).map(|found| found.map(|(_, files)| files).unwrap_or_default());
    }
    let mut files = Vec::new();
    for path in configured {
        files.extend(from_argument(path)?);
    }
    Ok(files)
}

/// Loads the CRDs and XRDs of `files` (other documents are ignored).
pub fn load(files: &[PathBuf]) -> Result<super::Schemas, String> {
    let mut schemas = super::Schemas::new();
    for file in files {
        let text = read::read_text(file).map_err(|e| e.to_string())?;
        let docs = crate::source::yaml::read_stream(&text)
            .map_err(|e| format!("{}: invalid YAML: {}", file.display(), e.message))?;
        for doc in docs {
            let json = serde_json::to_value(&doc.value).unwrap_or_default();
            schemas
                .add_document(&file.display().to_string(), &json)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(schemas)
}

/// function-hcl's discovery from `start`: the nearest `.crd-sources.yaml` in it or a folder
/// above, else the nearest `.crds/` folder (its `.yaml` files). `None` when there is neither.
pub fn discover(start: &Path) -> Result<Option<(PathBuf, Vec<PathBuf>)>, SourcesError> {
    let start = start.canonicalize().unwrap_or_else(|_| start.to_path_buf());
    for dir in start.ancestors() {
        let file = dir.join(SOURCES_FILE);
        if file.is_file() {
            return from_sources_file(&file).map(|files| Some((file, files)));
        }
    }
    for dir in start.ancestors() {
        let crds = dir.join(CRDS_DIR);
        if crds.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&crds)
                .map_err(|source| SourcesError::Io {
                    path: crds.display().to_string(),
                    source,
                })?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml"))
                .collect();
            files.sort();
            return Ok(Some((crds, files)));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions_are_found_as_function_hcl_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b/c")).unwrap();
        std::fs::create_dir_all(root.join(".crds")).unwrap();
        std::fs::write(root.join(".crds/one.yaml"), "kind: X\n").unwrap();
        std::fs::write(root.join(".crds/notes.txt"), "").unwrap();
        let (found, files) = discover(&root.join("a/b/c")).unwrap().unwrap();
        assert!(found.ends_with(".crds"));
        assert_eq!(files.len(), 1);
        // A .crd-sources.yaml nearer wins, with globs relative to it.
        std::fs::create_dir_all(root.join("a/schemas/deep")).unwrap();
        std::fs::write(root.join("a/schemas/deep/x.yaml"), "kind: X\n").unwrap();
        std::fs::write(root.join("a/schemas/y.yml"), "kind: X\n").unwrap();
        std::fs::write(
            root.join("a/.crd-sources.yaml"),
            "scope: both\npaths:\n  - schemas/**/*.yaml\n",
        )
        .unwrap();
        let (found, files) = discover(&root.join("a/b")).unwrap().unwrap();
        assert!(found.ends_with(".crd-sources.yaml"));
        assert_eq!(
            files,
            vec![root.join("a/schemas/deep/x.yaml").canonicalize().unwrap()]
        );
        // A folder argument: its .crd-sources.yaml, else every YAML file below it.
        assert_eq!(from_argument(&root.join("a")).unwrap().len(), 1);
        assert_eq!(from_argument(&root.join("a/schemas")).unwrap().len(), 2);
        std::fs::write(root.join("a/.crd-sources.yaml"), "paths: 3\n").unwrap();
        assert!(
            from_argument(&root.join("a"))
                .unwrap_err()
                .to_string()
                .contains("paths must be a list")
        );
    }
}
