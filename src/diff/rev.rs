//! `fnhcl diff --rev REV -- <render arguments>`: the same render with the composition as it is
//! in a git revision and as it is now.
//!
//! The composition is SOURCE and, when given, `--hcl DIR`. Their content at REV is read with
//! `git ls-tree` and `git cat-file` into a temporary directory, keeping its place relative to
//! the repository's top (so a Composition's relative `libraryFiles` and a directory's
//! neighbours resolve as they would have), and the render runs again with those paths. The
//! other inputs (XR, observed resources, …) are the same files for both renders. Nothing is
//! written outside that temporary directory: every path of the revision's tree is checked
//! before it is joined to it, and symbolic links are followed inside the revision
//! ([`super::gittree`]) and written as the files they lead to.

use super::gittree::{Entry, Kind, MAX_FILES, Revision, git, safe_components};
use super::streams::{Failure, Streams};
use crate::diagnostics::{Code, Diagnostic, usage};
use crate::render::inputs::{self, Io, Request};
use crate::source::SourceMap;
use std::path::{Path, PathBuf};

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
    let revision = Revision::open(&top, rev)?;
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let mut written = 0;
    let Some(entry) = revision.resolve(&parts)? else {
        return Err(Box::new(
            Diagnostic::new(
                Code::I001,
                format!("{} does not exist in {rev}", path.display()),
            )
            .with_help("a composition added since that revision has nothing to compare with"),
        ));
    };
    let placed = into.join(relative);
    place(&revision, &entry, &placed, 0, &mut written)?;
    // A composition directory's `libraryFiles` (in its composition.yaml as of REV) are read
    // relative to it: bring them along.
    if let Some(composition) = composition_file(&placed) {
        for library in library_files(&composition) {
            let Some(lib_rel) = normalize(&relative.join(&library)) else {
                continue;
            };
            let Some(lib_parts) = safe_components(&lib_rel) else {
                continue;
            };
            // A library missing in REV is reported by the render that reads the directory.
            if let Some(entry) = revision.resolve(&lib_parts)?
                && entry.kind == Kind::Blob
            {
                place(&revision, &entry, &into.join(&lib_rel), 0, &mut written)?;
            }
        }
    }
    Ok(placed)
}

/// Writes `entry` (links already followed) at `target`: a file's content, or a directory's
/// files below it. Directories reached through links nest at most 8 deep (a link to an
/// ancestor would never end) and at most [`MAX_FILES`] files are written in all.
fn place(
    revision: &Revision<'_>,
    entry: &Entry,
    target: &Path,
    depth: usize,
    written: &mut usize,
) -> Result<(), Box<Diagnostic>> {
    match entry.kind {
        Kind::Blob => write_file(target, &revision.blob(entry)?, written),
        Kind::Commit => Ok(()),
        // `resolve` follows links: a link here would be a bug; nothing is written for it.
        Kind::Link => Ok(()),
        Kind::Tree => {
            if depth > 8 {
                return Err(Box::new(
                    Diagnostic::new(
                        Code::I001,
                        format!(
                            "`{}` in {} nests directory links more than 8 deep",
                            entry.path,
                            revision.name()
                        ),
                    )
                    .with_help("a directory link that leads to its own parent cannot be followed"),
                ));
            }
            let prefix = if entry.path.is_empty() {
                String::new()
            } else {
                format!("{}/", entry.path)
            };
            for item in revision.list(&entry.path)? {
                let below = item.path.strip_prefix(&prefix).unwrap_or(&item.path);
                let Some(parts) = safe_components(below)
                    .filter(|_| item.path.starts_with(&prefix))
                    .zip(safe_components(&item.path))
                else {
                    return Err(unsafe_path(&item.path, revision.name()));
                };
                let (below_parts, full_parts) = parts;
                let to = below_parts
                    .iter()
                    .fold(target.to_path_buf(), |p, c| p.join(c));
                match item.kind {
                    Kind::Link => {
                        if let Some(linked) = revision.resolve(&full_parts)? {
                            place(revision, &linked, &to, depth + 1, written)?;
                        }
                    }
                    Kind::Blob | Kind::Tree | Kind::Commit => {
                        place(revision, &item, &to, depth, written)?;
                    }
                }
            }
            Ok(())
        }
    }
}

fn unsafe_path(path: &str, rev: &str) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(
            Code::I016,
            format!("`{path}` in {rev} would be written outside the checkout of that revision"),
        )
        .with_help("the revision's tree holds a path with `..`, `.` or an empty name; no git checkout accepts it, so compare with another revision"),
    )
}

/// Writes one file of the checkout (its parents made).
fn write_file(target: &Path, content: &[u8], written: &mut usize) -> Result<(), Box<Diagnostic>> {
    *written += 1;
    if *written > MAX_FILES {
        return Err(io_error(format!(
            "the composition holds more than {MAX_FILES} files in that revision"
        )));
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| io_error(format!("cannot write {}: {e}", parent.display())))?;
    }
    std::fs::write(target, content)
        .map_err(|e| io_error(format!("cannot write {}: {e}", target.display())))
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
    let Ok(text) = crate::source::read::read_text(composition) else {
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
