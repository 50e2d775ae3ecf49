//! The project root a CompositionTest's paths resolve from: the folder holding the project
//! file — `crossplane-project.yaml`, a `project.yaml` that is a `dev.crossplane.io` Project,
//! or Upbound's `upbound.yaml` — at or above the test file.

use std::path::{Path, PathBuf};

/// Whether `dir` holds a project file.
fn holds_project(dir: &Path) -> bool {
    if dir.join("crossplane-project.yaml").is_file() || dir.join("upbound.yaml").is_file() {
        return true;
    }
    let project = dir.join("project.yaml");
    project.is_file()
        && crate::source::read::read_text(&project)
            .is_ok_and(|text| text.contains("dev.crossplane.io/") && text.contains("kind: Project"))
}

/// The project root of a test file's folder `dir`, `None` when no folder at or above it holds
/// a project file. Searched first as the path is written (so paths stay relative in
/// messages), then above the working folder.
pub fn project_root(dir: &Path) -> Option<PathBuf> {
    for at in dir.ancestors() {
        let at = if at.as_os_str().is_empty() {
            Path::new(".")
        } else {
            at
        };
        if holds_project(at) {
            return Some(at.to_path_buf());
        }
    }
    let real = std::fs::canonicalize(dir).ok()?;
    let cwd = std::env::current_dir().ok()?;
    // The folders the search above did not see: those above the working folder.
    real.ancestors()
        .filter(|at| cwd.starts_with(at) && *at != cwd)
        .find(|at| holds_project(at))
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_project_file_wins() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/tests/t")).unwrap();
        assert_eq!(project_root(&root.join("a/tests/t")), None);
        std::fs::write(root.join("upbound.yaml"), "kind: Project\n").unwrap();
        assert_eq!(
            project_root(&root.join("a/tests/t")),
            Some(root.to_path_buf())
        );
        // A project.yaml of another kind is not a project file.
        std::fs::write(root.join("a/project.yaml"), "kind: Other\n").unwrap();
        assert_eq!(
            project_root(&root.join("a/tests/t")),
            Some(root.to_path_buf())
        );
        std::fs::write(
            root.join("a/project.yaml"),
            "apiVersion: dev.crossplane.io/v1alpha1\nkind: Project\n",
        )
        .unwrap();
        assert_eq!(project_root(&root.join("a/tests/t")), Some(root.join("a")));
        std::fs::write(root.join("a/tests/crossplane-project.yaml"), "").unwrap();
        assert_eq!(
            project_root(&root.join("a/tests/t")),
            Some(root.join("a/tests"))
        );
    }
}
