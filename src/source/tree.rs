//! Reading every file of one kind under a directory, recursively (`render --required-schemas`
//! reads the `.json` files of a folder tree), in Go's `fs.WalkDir` order: entries sorted by
//! name, each folder's files and sub-folders interleaved in that order, depth first.
//!
//! A schemas folder may come from anywhere, so it is read as hostile: every file goes through
//! [`super::read`] (regular files only, capped), symbolic links to folders are not followed
//! (as `WalkDir` does not follow them, which also rules out loops), a link to a file must stay
//! inside the folder, and the number of files, the depth and the bytes read in all are capped.

use super::read::{self, ReadError, io_text};
use std::path::{Path, PathBuf};

/// The most files one tree may hold.
pub const MAX_TREE_FILES: usize = 10_000;
/// The deepest folder nesting followed.
pub const MAX_TREE_DEPTH: usize = 64;
/// The most bytes read from one tree in all (each file is also capped by
/// [`read::MAX_INPUT_BYTES`]).
pub const MAX_TREE_BYTES: u64 = 4 * read::MAX_INPUT_BYTES;

/// One file read from a tree.
#[derive(Clone, Debug)]
pub struct TreeFile {
    /// The path, as the folder's path joined with the names below it.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// Why a tree could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// The folder (or a folder in it) could not be listed.
    #[error("lstat {path}: {}", io_text(.source))]
    Walk {
        /// The folder.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A file could not be read, or was refused.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A symbolic link whose target is outside the folder.
    #[error("`{path}` is a symbolic link to a file outside `{root}`")]
    Escapes {
        /// The link.
        path: String,
        /// The folder.
        root: String,
    },
    /// Too many files, too deep, or too many bytes in all.
    #[error("`{path}` holds more than {limit}")]
    TooLarge {
        /// The folder.
        path: String,
        /// What was exceeded, in words.
        limit: String,
    },
}

/// Every file under `root` (or `root` itself, when it is a file) whose name ends in `.{ext}`,
/// with its text, in walk order.
pub fn read_tree(root: &Path, ext: &str) -> Result<Vec<TreeFile>, TreeError> {
    let display = root.display().to_string();
    let walk_error = |path: &Path| {
        let path = path.display().to_string();
        move |source| TreeError::Walk { path, source }
    };
    let meta = std::fs::metadata(root).map_err(walk_error(root))?;
    let mut paths = Vec::new();
    if meta.is_dir() {
        collect(root, ext, 0, &display, &mut paths)?;
    } else if has_ext(root, ext) {
        paths.push(root.to_path_buf());
    }
    let canonical_root = std::fs::canonicalize(root).map_err(walk_error(root))?;
    let mut total = 0u64;
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        if path != root && is_symlink(&path) {
            let target = std::fs::canonicalize(&path).map_err(walk_error(&path))?;
            if !target.starts_with(&canonical_root) {
                return Err(TreeError::Escapes {
                    path: path.display().to_string(),
                    root: display,
                });
            }
        }
        let text = read::read_text(&path)?;
        total += text.len() as u64;
        if total > MAX_TREE_BYTES {
            return Err(TreeError::TooLarge {
                path: display,
                limit: format!("{} MiB in all", MAX_TREE_BYTES >> 20),
            });
        }
        files.push(TreeFile { path, text });
    }
    Ok(files)
}

fn has_ext(path: &Path, ext: &str) -> bool {
    path.extension().is_some_and(|e| e == ext)
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The matching paths under `dir`, depth first in name order. A symbolic link is listed as
/// what it is, not what it points to: a link to a folder is not entered.
fn collect(
    dir: &Path,
    ext: &str,
    depth: usize,
    root: &str,
    out: &mut Vec<PathBuf>,
) -> Result<(), TreeError> {
    if depth > MAX_TREE_DEPTH {
        return Err(TreeError::TooLarge {
            path: root.to_string(),
            limit: format!("{MAX_TREE_DEPTH} levels of folders"),
        });
    }
    let walk_error = |source| TreeError::Walk {
        path: dir.display().to_string(),
        source,
    };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(walk_error)? {
        let entry = entry.map_err(walk_error)?;
        let is_dir = entry.file_type().map_err(walk_error)?.is_dir();
        entries.push((entry.file_name(), is_dir));
    }
    entries.sort();
    for (name, is_dir) in entries {
        let path = dir.join(&name);
        if is_dir {
            collect(&path, ext, depth + 1, root, out)?;
        } else if has_ext(&path, ext) {
            if out.len() == MAX_TREE_FILES {
                return Err(TreeError::TooLarge {
                    path: root.to_string(),
                    limit: format!("{MAX_TREE_FILES} files"),
                });
            }
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[TreeFile], root: &Path) -> Vec<String> {
        files
            .iter()
            .map(|f| f.path.strip_prefix(root).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn files_come_in_walk_order_and_only_of_the_kind() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("b/c")).unwrap();
        for (name, text) in [
            ("a.json", "1"),
            ("b/c/d.json", "2"),
            ("b/a.json", "3"),
            ("c.json", "4"),
            ("readme.txt", "no"),
        ] {
            std::fs::write(root.join(name), text).unwrap();
        }
        let files = read_tree(root, "json").unwrap();
        assert_eq!(
            names(&files, root),
            ["a.json", "b/a.json", "b/c/d.json", "c.json"]
        );
        assert_eq!(files[1].text, "3");
    }

    #[test]
    fn a_missing_folder_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_tree(&dir.path().join("nope"), "json").unwrap_err();
        assert!(
            err.to_string().ends_with("no such file or directory"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_folder_are_refused_and_linked_folders_not_entered() {
        let dir = tempfile::tempdir().unwrap();
        let (root, outside) = (dir.path().join("root"), dir.path().join("outside"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret.json"), "{}").unwrap();
        std::fs::write(root.join("in.json"), "{}").unwrap();
        std::os::unix::fs::symlink(&outside, root.join("linked")).unwrap();
        std::os::unix::fs::symlink(root.join("in.json"), root.join("same.json")).unwrap();
        assert_eq!(
            names(&read_tree(&root, "json").unwrap(), &root),
            ["in.json", "same.json"]
        );
        std::os::unix::fs::symlink(outside.join("secret.json"), root.join("x.json")).unwrap();
        let err = read_tree(&root, "json").unwrap_err();
        assert!(matches!(err, TreeError::Escapes { .. }), "{err}");
    }
}
