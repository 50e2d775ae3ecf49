//! `fnhcl diff --rev REV -- <render arguments>`: the same render with the composition as it is
//! in a git revision and as it is now.
//!
//! The composition is SOURCE and, when given, `--hcl DIR`. Their content at REV is read with
//! `git ls-tree` and `git cat-file` into a temporary directory, keeping its place relative to
//! the repository's top (so a Composition's relative `libraryFiles` and a directory's
//! neighbours resolve as they would have), and the render runs again with those paths. The
//! other inputs (XR, observed resources, …) are the same files for both renders. Nothing is
//! written outside that temporary directory.

use super::streams::{Failure, Streams};
use crate::diagnostics::{Code, Diagnostic, usage};
use crate::render::inputs::{self, Io, Request};
use crate::source::SourceMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Both renders' documents, or why not: the render of `new` (the request as given) and of the
/// same request with its composition as it is in `rev`. Each render gets what `io` makes of
/// the world, as `render` would; their diagnostics go to `diagnostics`.
pub fn streams(
    rev: &str,
    new: Request,
    map: &mut SourceMap,
    io: &mut Io<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Streams, Failure> {
    if new.source == "-" {
        return Err(Some(usage(
            "--rev needs the composition as a path, not standard input".into(),
            "give SOURCE as a directory, a .hcl or txtar file, or a Composition file",
        )));
    }
    let checkout = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            return Err(Some(io_error(format!(
                "cannot make a temporary directory: {e}"
            ))));
        }
    };
    let mut old = new.clone();
    old.source = materialize(rev, Path::new(&new.source), checkout.path())?
        .display()
        .to_string();
    if let Some(hcl) = &new.hcl {
        old.hcl = Some(materialize(rev, hcl, checkout.path())?);
    }
    let old = match render(&old, map, io, diagnostics) {
        Ok(docs) => docs,
        Err(failure) => {
            diagnostics.push(Diagnostic::new(
                Code::E401,
                format!("the render with the composition as it is in {rev} failed"),
            ));
            return Err(failure);
        }
    };
    let new = render(&new, map, io, diagnostics)?;
    Ok(Streams {
        old,
        new,
        old_name: rev.to_string(),
        new_name: "work tree".to_string(),
    })
}

/// Renders and returns the documents `render` would print (its diagnostics already
/// recorded on failure).
fn render(
    request: &Request,
    map: &mut SourceMap,
    io: &mut Io<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<Vec<serde_json::Value>, Failure> {
    inputs::documents(map, request, None, io, diagnostics)
        .map(|d| d.documents)
        .map_err(|_| None)
}

fn io_error(message: String) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Code::I001, message))
}

/// Runs git in `dir`; its stdout, or a diagnostic with its stderr.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, Box<Diagnostic>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| io_error(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(Box::new(
            Diagnostic::new(
                Code::I001,
                format!("git {}: {}", args.join(" "), stderr.trim()),
            )
            .with_help(
                "--rev needs the composition inside a git repository and a revision git knows",
            ),
        ));
    }
    Ok(out.stdout)
}

/// Writes `path` (a file or a directory, as in the work tree) as it is in `rev` under `into`,
/// at its place relative to the repository's top, and returns where it is there.
fn materialize(rev: &str, path: &Path, into: &Path) -> Result<PathBuf, Box<Diagnostic>> {
    let absolute = std::fs::canonicalize(path)
        .map_err(|e| io_error(format!("cannot read {}: {e}", path.display())))?;
    let dir = if absolute.is_dir() {
        absolute.clone()
    } else {
        absolute
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| absolute.clone())
    };
    let top = String::from_utf8_lossy(&git(&dir, &["rev-parse", "--show-toplevel"])?)
        .trim()
        .to_string();
    let top = std::fs::canonicalize(&top).unwrap_or_else(|_| PathBuf::from(&top));
    let relative = absolute.strip_prefix(&top).map_err(|_| {
        io_error(format!(
            "{} is not inside the git repository at {}",
            path.display(),
            top.display()
        ))
    })?;
    let rel = relative.to_string_lossy().replace('\\', "/");
    let spec = if rel.is_empty() {
        ".".to_string()
    } else {
        rel.clone()
    };
    let listing = git(
        &top,
        &[
            "ls-tree",
            "-r",
            "-z",
            "--name-only",
            "--full-tree",
            rev,
            "--",
            &spec,
        ],
    )?;
    let files: Vec<String> = listing
        .split(|b| *b == 0)
        .filter(|name| !name.is_empty())
        .map(|name| String::from_utf8_lossy(name).into_owned())
        .collect();
    if files.is_empty() {
        return Err(Box::new(
            Diagnostic::new(
                Code::I001,
                format!("{} does not exist in {rev}", path.display()),
            )
            .with_help("a composition added since that revision has nothing to compare with"),
        ));
    }
    for file in &files {
        let content = git(&top, &["cat-file", "blob", &format!("{rev}:{file}")])?;
        let target = into.join(file);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| io_error(format!("cannot write {}: {e}", parent.display())))?;
        }
        std::fs::write(&target, content)
            .map_err(|e| io_error(format!("cannot write {}: {e}", target.display())))?;
    }
    // A composition directory's `libraryFiles` (in its composition.yaml as of REV) are read
    // relative to it: bring them along.
    let placed = into.join(relative);
    if let Some(composition) = composition_file(&placed) {
        for library in library_files(&composition) {
            let Some(lib_rel) = normalize(&relative.join(&library)) else {
                continue;
            };
            let Ok(content) = git(&top, &["cat-file", "blob", &format!("{rev}:{lib_rel}")]) else {
                continue;
            };
            let target = into.join(&lib_rel);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| io_error(format!("cannot write {}: {e}", parent.display())))?;
            }
            std::fs::write(&target, content)
                .map_err(|e| io_error(format!("cannot write {}: {e}", target.display())))?;
        }
    }
    Ok(into.join(relative))
}

/// A repository-relative path with `.` and `..` resolved (`None` when it leaves the top).
fn normalize(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            std::path::Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            std::path::Component::ParentDir => {
                parts.pop()?;
            }
            std::path::Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// The `composition.yaml` of a directory.
fn composition_file(path: &Path) -> Option<PathBuf> {
    if path.is_dir() {
        let file = path.join("composition.yaml");
        file.is_file().then_some(file)
    } else {
        None
    }
}

/// The `libraryFiles` a directory's `composition.yaml` names (relative paths).
fn library_files(composition: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(composition) else {
        return Vec::new();
    };
    let Ok(docs) = crate::source::yaml::read_stream(&text) else {
        return Vec::new();
    };
    let Some(doc) = docs.first() else {
        return Vec::new();
    };
    let value = serde_json::to_value(&doc.value).unwrap_or_default();
    value
        .get("libraryFiles")
        .and_then(|v| v.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
