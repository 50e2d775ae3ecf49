//! Keeping a case inside the tested tree: every file a case names or holds must resolve (links
//! followed) inside the PATH given to `fnhcl test`, unless `--allow-outside-paths` says
//! otherwise.
//!
//! Cases often come from a pull request, and a failing case prints what it read (a diff of
//! `expected.yaml`, a parse error quoting a line): a case naming `/etc/passwd` or
//! `~/.ssh/id_rsa` — by an absolute path, by `..`, or by a committed link — would print it
//! into a CI log, and `--update` would write through a link to it.

use crate::render::inputs::Request;
use crate::source::read;
use std::path::{Component, Path, PathBuf};

/// Where a path really is: links resolved where it exists; for a path that does not exist
/// (yet), its nearest existing ancestor resolved and the rest appended.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut clean = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::ParentDir => {
                clean.pop();
            }
            Component::CurDir => {}
            other => clean.push(other),
        }
    }
    let mut rest = Vec::new();
    let mut at = clean.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            return rest.iter().rev().fold(real, |p, part| p.join(part));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return clean,
        }
    }
}

/// Paths of one case and the tree they must stay in.
pub(super) struct Confinement<'a> {
    /// The tested tree (already resolved).
    pub root: &'a Path,
    /// `--allow-outside-paths`: no check.
    pub allow: bool,
}

impl Confinement<'_> {
    /// `Err` with the reason when `path` (named by `what`) leads outside the tested tree.
    pub fn check(&self, path: &Path, what: &str) -> Result<(), String> {
        if self.allow || resolved(path).starts_with(self.root) {
            return Ok(());
        }
        Err(format!(
            "{what} `{}` is outside the tested folder `{}`; a case may only name files below it (pass --allow-outside-paths to allow it)",
            path.display(),
            self.root.display()
        ))
    }

    /// The text of the case file `dir/name`, `None` when there is none; checked to be inside
    /// the tested tree, a regular file and not too large.
    pub fn case_file(&self, dir: &Path, name: &str) -> Result<Option<String>, String> {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        self.check(&path, name)?;
        read::read_text(&path)
            .map(Some)
            .map_err(|e| format!("{name}: {e}"))
    }

    /// Checks every file a parsed request reads. The composition is not checked when it is the
    /// case's folder or one above it: that is where a case's composition is found by default.
    pub fn request(&self, request: &Request, case_dir: &Path) -> Result<(), String> {
        self.check(&request.xr, "the XR")?;
        if request.source != "-" {
            let source = resolved(Path::new(&request.source));
            if !resolved(case_dir).starts_with(&source) {
                self.check(Path::new(&request.source), "the composition")?;
            }
        }
        let optional = [
            (&request.functions, "--functions"),
            (&request.observed_resources, "--observed-resources"),
            (&request.function_credentials, "--function-credentials"),
            (&request.xrd, "--xrd"),
            (&request.hcl, "--hcl"),
        ];
        for (path, what) in optional {
            if let Some(path) = path {
                self.check(path, what)?;
            }
        }
        for path in &request.required_resources {
            self.check(path, "--extra-resources")?;
        }
        for flag in &request.context_files {
            for item in flag.split(';') {
                if let Some((_, path)) = item.split_once('=') {
                    self.check(Path::new(path), "--context-files")?;
                }
            }
        }
        for schemas in &request.validate {
            if schemas != "-" {
                self.check(Path::new(schemas), "--validate")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_judged_where_they_really_are() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let c = Confinement {
            root: &root,
            allow: false,
        };
        std::fs::write(root.join("a.yaml"), "a: 1\n").unwrap();
        assert!(c.check(&root.join("a.yaml"), "x").is_ok());
        assert!(c.check(&root.join("missing/b.yaml"), "x").is_ok());
        assert!(c.check(&root.join("../b.yaml"), "x").is_err());
        assert!(c.check(Path::new("/etc/hostname"), "x").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", root.join("link.yaml")).unwrap();
            assert!(c.check(&root.join("link.yaml"), "x").is_err());
            assert!(c.case_file(&root, "link.yaml").is_err());
        }
        let allowed = Confinement {
            root: &root,
            allow: true,
        };
        assert!(allowed.check(Path::new("/etc/hostname"), "x").is_ok());
    }
}
