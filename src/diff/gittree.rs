//! Reading a git revision's tree for `diff --rev`: entries listed with `git ls-tree`, blobs read
//! with `git cat-file`, symbolic links (mode 120000) followed inside the revision.
//!
//! A revision's tree is untrusted input: `git fetch` accepts trees with `..` entries, absolute
//! link targets and links to links. So every path is checked component by component before
//! anything is written (no `..`, no `.`, no empty component), links are followed at most
//! [`MAX_HOPS`] times and never out of the repository, and every blob is size-checked before it
//! is read. git runs with no pager, literal pathspecs, no fsmonitor, and `--end-of-options`
//! before the revision, so neither the revision's name nor the repository's configuration can
//! make it run anything else.

use crate::diagnostics::{Code, Diagnostic};
use crate::source::read::MAX_INPUT_BYTES;
use std::path::Path;
use std::process::{Command, Stdio};

/// At most this many symbolic links are followed to resolve one path (Linux's `MAXSYMLINKS`).
pub const MAX_HOPS: usize = 40;
/// At most this many files are written for one revision.
pub const MAX_FILES: usize = 10_000;
/// A link target longer than this is not a path (Linux's `PATH_MAX`).
const MAX_LINK_BYTES: u64 = 4096;

type Fallible<T> = Result<T, Box<Diagnostic>>;

/// What a tree entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A file (modes 100644, 100755).
    Blob,
    /// A symbolic link (mode 120000): its blob is the target's text.
    Link,
    /// A directory.
    Tree,
    /// A submodule's commit: nothing to read.
    Commit,
}

/// One entry of `git ls-tree -l`.
#[derive(Clone, Debug)]
pub struct Entry {
    /// What it is.
    pub kind: Kind,
    /// Its object id.
    pub oid: String,
    /// Its size in bytes (blobs and links).
    pub size: Option<u64>,
    /// Its path from the repository's top, as git prints it.
    pub path: String,
}

/// A commit of the repository at `top`.
pub struct Revision<'a> {
    top: &'a Path,
    /// The name the user gave (for messages).
    name: &'a str,
    /// The commit's full object id (what every later git command is given).
    commit: String,
}

/// The components of a tree path, or `None` when one is empty, `.` or `..` (or the path is
/// absolute): such a path must never be joined to a directory.
pub fn safe_components(path: &str) -> Option<Vec<&str>> {
    let parts: Vec<&str> = path.split('/').collect();
    let fine = parts
        .iter()
        .all(|p| !p.is_empty() && *p != "." && *p != ".." && !p.contains('\0'));
    fine.then_some(parts)
}

impl<'a> Revision<'a> {
    /// The commit `name` names in the repository at `top`.
    pub fn open(top: &'a Path, name: &'a str) -> Fallible<Revision<'a>> {
        let spec = format!("{name}^{{commit}}");
        let out = git(
            top,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                &spec,
            ],
        )
        .map_err(|_| unknown(name))?;
        let commit = String::from_utf8_lossy(&out).trim().to_string();
        if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(unknown(name));
        }
        Ok(Revision { top, name, commit })
    }

    /// The revision's name as the user gave it.
    pub fn name(&self) -> &str {
        self.name
    }

    /// The entries below `dir` (`""`: the whole tree), recursively (trees not listed).
    pub fn list(&self, dir: &str) -> Fallible<Vec<Entry>> {
        self.ls_tree(&["-r"], dir)
    }

    /// The entry at exactly `path` (no link followed), if there is one.
    pub fn entry(&self, path: &str) -> Fallible<Option<Entry>> {
        Ok(self
            .ls_tree(&[], path)?
            .into_iter()
            .find(|e| e.path == path))
    }

    fn ls_tree(&self, extra: &[&str], path: &str) -> Fallible<Vec<Entry>> {
        let mut args = vec!["ls-tree", "-z", "-l", "--full-tree"];
        args.extend_from_slice(extra);
        args.extend(["--end-of-options", &self.commit]);
        if !path.is_empty() {
            args.extend(["--", path]);
        }
        let out = git(self.top, &args)?;
        Ok(out
            .split(|b| *b == 0)
            .filter(|line| !line.is_empty())
            .filter_map(|line| parse_entry(&String::from_utf8_lossy(line)))
            .collect())
    }

    /// The content of a blob or link entry, refused past `limit` bytes.
    fn content(&self, entry: &Entry, limit: u64) -> Fallible<Vec<u8>> {
        if entry.size.is_none_or(|size| size > limit) {
            return Err(Box::new(
                Diagnostic::new(
                    Code::I001,
                    format!(
                        "`{}` in {} is larger than {} MiB",
                        entry.path,
                        self.name,
                        MAX_INPUT_BYTES >> 20
                    ),
                )
                .with_help("fnhcl reads at most 64 MiB from one input"),
            ));
        }
        git(self.top, &["cat-file", "blob", &entry.oid])
    }

    /// The content of a file entry.
    pub fn blob(&self, entry: &Entry) -> Fallible<Vec<u8>> {
        self.content(entry, MAX_INPUT_BYTES)
    }

    /// `path` (components from the top) with every symbolic link on the way followed inside
    /// the revision: the entry it ends at and its real path. `None` when nothing is there.
    pub fn resolve(&self, path: &[&str]) -> Fallible<Option<Entry>> {
        let mut done: Vec<String> = Vec::new();
        let mut todo: Vec<String> = path.iter().rev().map(|p| p.to_string()).collect();
        let mut hops = 0;
        let mut last: Option<Entry> = None;
        while let Some(part) = todo.pop() {
            match part.as_str() {
                "" | "." => continue,
                ".." => {
                    if done.pop().is_none() {
                        return Err(self.escapes(path));
                    }
                    last = None;
                    continue;
                }
                _ => {}
            }
            done.push(part);
            let Some(entry) = self.entry(&done.join("/"))? else {
                return Ok(None);
            };
            if entry.kind != Kind::Link {
                last = Some(entry);
                continue;
            }
            hops += 1;
            if hops > MAX_HOPS {
                return Err(Box::new(
                    Diagnostic::new(
                        Code::I001,
                        format!(
                            "`{}` in {} goes through more than {MAX_HOPS} symbolic links",
                            path.join("/"),
                            self.name
                        ),
                    )
                    .with_help("a link that leads back to itself cannot be followed"),
                ));
            }
            let target = self.content(&entry, MAX_LINK_BYTES)?;
            let target = String::from_utf8_lossy(&target).into_owned();
            if target.starts_with('/') {
                return Err(self.escapes(path));
            }
            done.pop();
            todo.extend(target.split('/').rev().map(str::to_string));
            last = None;
        }
        match last {
            Some(entry) => Ok(Some(entry)),
            // The path ended at a `..` or was empty: the directory reached.
            None if done.is_empty() => Ok(Some(Entry {
                kind: Kind::Tree,
                oid: String::new(),
                size: None,
                path: String::new(),
            })),
            None => self.entry(&done.join("/")),
        }
    }

    fn escapes(&self, path: &[&str]) -> Box<Diagnostic> {
        Box::new(
            Diagnostic::new(
                Code::I016,
                format!(
                    "`{}` in {} is a symbolic link that leads outside the repository",
                    path.join("/"),
                    self.name
                ),
            )
            .with_help("only links to files of the same repository are followed"),
        )
    }
}

fn unknown(name: &str) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::new(Code::I001, format!("`{name}` is not a commit git knows")).with_help(
            "--rev needs the composition inside a git repository and a revision git knows",
        ),
    )
}

/// `<mode> SP <type> SP <oid> SP+ <size> TAB <path>`.
fn parse_entry(line: &str) -> Option<Entry> {
    let (meta, path) = line.split_once('\t')?;
    let mut fields = meta.split_whitespace();
    let mode = fields.next()?;
    let _type = fields.next()?;
    let oid = fields.next()?.to_string();
    let size = fields.next().and_then(|s| s.parse().ok());
    if !oid.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let kind = match mode {
        "120000" => Kind::Link,
        "040000" => Kind::Tree,
        "160000" => Kind::Commit,
        _ => Kind::Blob,
    };
    Some(Entry {
        kind,
        oid,
        size,
        path: path.to_string(),
    })
}

/// Runs git in `dir`, hardened against the repository's configuration; its stdout, or a
/// diagnostic with its stderr.
pub fn git(dir: &Path, args: &[&str]) -> Fallible<Vec<u8>> {
    let out = Command::new("git")
        // No pager, no glob in a path, no fsmonitor hook (a repository's core.fsmonitor is a
        // command), no optional lock taken in a repository we only read.
        .args(["--no-pager", "--literal-pathspecs"])
        .args(["-c", "core.fsmonitor=false"])
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Box::new(Diagnostic::new(Code::I001, format!("cannot run git: {e}"))))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_safe() {
        assert_eq!(safe_components("a/b.hcl"), Some(vec!["a", "b.hcl"]));
        for bad in ["../x.hcl", "a/../../x", "/etc/x", "a//b", "a/./b", "", "a/"] {
            assert_eq!(safe_components(bad), None, "{bad}");
        }
    }

    #[test]
    fn ls_tree_lines_are_read() {
        let e = parse_entry("120000 blob 0123abcd      12\tcomp/shared.hcl").unwrap();
        assert_eq!(e.kind, Kind::Link);
        assert_eq!(e.size, Some(12));
        assert_eq!(e.path, "comp/shared.hcl");
        let t = parse_entry("040000 tree 0123abcd       -\tcomp").unwrap();
        assert_eq!((t.kind, t.size), (Kind::Tree, None));
    }
}
