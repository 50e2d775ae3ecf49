//! `fnhcl fmt` over files: finding the `.hcl` files of a folder, formatting a file or the
//! `hcl` of every function-hcl step of a Composition, filtering standard input's text, and
//! writing a changed file back safely. Prints nothing: the caller reports and picks the exit
//! code from what these return.

use super::{FormatError, format_file};
use crate::diagnostics::composition_error;
use crate::diagnostics::{Code, Diagnostic, Severity, from_load_error};
use crate::source::composition::{Composition, write_step_hcl};
use crate::source::loader::{self, LoadError};
use crate::source::{SourceMap, txtar, write};
use std::io;
use std::path::{Path, PathBuf};

/// Version-control folders: never walked (`fn-hcl-tools fmt` walks every folder, these too,
/// but nobody keeps compositions inside `.git`).
const VCS_FOLDERS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".bzr"];

/// The `.hcl` files below `dir`, sorted, and an error for each folder that could not be read
/// (a diagnostic, not a silent gap). Hidden folders are walked, as `fn-hcl-tools fmt` walks
/// them; version-control folders are skipped. Only `dir` itself unless `recursive`.
///
/// When `clean` (fmt is going to write), temporary files a killed fnhcl left in the folders
/// walked are removed.
pub fn hcl_files(
    dir: &Path,
    recursive: bool,
    clean: bool,
    map: &SourceMap,
) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let depth = if recursive { usize::MAX } else { 1 };
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let walk = walkdir::WalkDir::new(dir)
        .max_depth(depth)
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0
                || !(e.file_type().is_dir() && VCS_FOLDERS.iter().any(|vcs| e.file_name() == *vcs))
        });
    for entry in walk {
        match entry {
            Ok(e) => {
                if clean && e.file_type().is_dir() {
                    write::remove_stale_temps(e.path());
                }
                if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "hcl") {
                    files.push(e.into_path());
                }
            }
            Err(e) => {
                let path = e.path().unwrap_or(dir).display().to_string();
                let source = e
                    .into_io_error()
                    .unwrap_or_else(|| io::Error::other("a symbolic link loop"));
                let error = LoadError::Io {
                    action: "read directory",
                    path,
                    source,
                };
                errors.push(from_load_error(&error, map));
            }
        }
    }
    files.sort();
    (files, errors)
}

/// A file's text before and after formatting (the same when it was formatted already).
#[derive(Clone, Debug)]
pub struct Change {
    /// The file's name as the user wrote it.
    pub name: String,
    /// Its text as read.
    pub before: String,
    /// Its formatted text.
    pub after: String,
}

impl Change {
    /// Whether formatting changed the text.
    pub fn changed(&self) -> bool {
        self.before != self.after
    }
}

/// What formatting one file gave.
#[derive(Debug, Default)]
pub struct Formatted {
    /// The text to report or write, unless nothing can be (unreadable, or not formatted).
    pub change: Option<Change>,
    /// Something did not parse or could not be formatted (`fmt` fails: exit 1).
    pub failed: bool,
    /// The file could not be read (an I/O error: exit 2).
    pub errored: bool,
    /// Why.
    pub diagnostics: Vec<Diagnostic>,
}

/// Formats one file: a Composition (`.yaml`/`.yml`: the `hcl` of its function-hcl steps), or
/// anything else as HCL. Its text is added to `map`.
pub fn format_path(map: &mut SourceMap, path: &Path, normalize_literals: bool) -> Formatted {
    let name = loader::display_path(path);
    let text = match loader::read_text(path) {
        Ok(text) => text,
        Err(e) => {
            return Formatted {
                errored: true,
                diagnostics: vec![from_load_error(&e, map)],
                ..Formatted::default()
            };
        }
    };
    if loader::is_yaml(path) {
        return composition(map, name, text, normalize_literals);
    }
    match formatted(map, &name, text.clone(), normalize_literals) {
        Ok(after) => Formatted {
            change: Some(Change {
                name,
                before: text,
                after,
            }),
            ..Formatted::default()
        },
        Err(diagnostics) => Formatted {
            failed: true,
            diagnostics,
            ..Formatted::default()
        },
    }
}

/// Formats standard input's `text` (added to `map` as its last file, `-`: taken, not
/// copied, so the caller compares the result with `map.files().last()`): the formatted text,
/// or `None` when it cannot be formatted (a filter must not swallow its input: the caller
/// writes the text back unchanged). With `normalize_literals` off this is exactly Go's
/// `hclwrite.Format`, which works on tokens and so also formats text that does not parse (its
/// syntax errors come back as warnings).
pub fn filter(
    map: &mut SourceMap,
    text: impl Into<String>,
    normalize_literals: bool,
) -> (Option<String>, Vec<Diagnostic>) {
    if normalize_literals {
        return match formatted(map, "-", text.into(), true) {
            Ok(out) => (Some(out), Vec::new()),
            Err(diagnostics) => (None, diagnostics),
        };
    }
    let id = map.add("-", text);
    let file = map.get(id);
    // The syntax check keeps no tree: its warnings and the token count are all it gives.
    let checked = crate::syntax::parse::check_file(file, &mut |_| {});
    let warnings = checked
        .diagnostics
        .into_iter()
        .map(|d| d.with_severity(Severity::Warning))
        .collect();
    let text = file.text();
    let out = super::format_sized(text, checked.tokens);
    let out = super::same_tokens(text, &out).then_some(out);
    (out, warnings)
}

/// A unified diff of a change, three lines of context, headed by its name.
pub fn unified_diff(change: &Change) -> String {
    let name = &change.name;
    similar::TextDiff::from_lines(&change.before, &change.after)
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .to_string()
}

/// Writes a changed file back at `path`, atomically, and only if it still holds the text that
/// was read ([`write::replace_file`]).
pub fn save(path: &Path, change: &Change) -> Result<(), Box<Diagnostic>> {
    let name = &change.name;
    write::replace_file(path, change.before.as_bytes(), change.after.as_bytes()).map_err(|e| {
        Box::new(
            Diagnostic::new(Code::I001, format!("cannot write `{name}`: {e}"))
                .with_path(name.to_string())
                .with_help(e.help()),
        )
    })
}

/// Formats `text` read from `name` (added to `map`); the diagnostics when it cannot be.
fn formatted(
    map: &mut SourceMap,
    name: &str,
    text: String,
    normalize_literals: bool,
) -> Result<String, Vec<Diagnostic>> {
    let id = map.add(name.to_string(), text);
    match format_file(map.get(id), normalize_literals) {
        Ok(out) => Ok(out),
        Err(FormatError::Syntax(diags)) => Err(diags),
        Err(FormatError::Unsafe) => Err(vec![
            Diagnostic::new(
                Code::E401,
                format!("`{name}` was not formatted: the result would change more than whitespace"),
            )
            .with_path(name.to_string())
            .with_help("please report this file: formatting must only move spaces"),
        ]),
    }
}

/// Formats the files inside every function-hcl step of a Composition, editing only the `hcl`
/// values. A step that fails is reported and left as it is; the others are still formatted.
fn composition(
    map: &mut SourceMap,
    name: String,
    text: String,
    normalize_literals: bool,
) -> Formatted {
    let mut result = Formatted::default();
    let steps: Vec<String> = match Composition::parse(&text) {
        Ok(c) => {
            // A step meant for function-hcl whose input it cannot read is reported, not
            // silently skipped.
            for error in c
                .steps
                .iter()
                .filter(|s| s.intends_hcl)
                .filter_map(|s| s.invalid_input())
            {
                let d = *composition_error(&name, &text, error, map);
                result.diagnostics.push(d);
                result.failed = true;
            }
            c.steps
                .iter()
                .filter(|s| s.is_hcl)
                .map(|s| s.name.clone())
                .collect()
        }
        Err(e) => {
            let d = *composition_error(&name, &text, e, map);
            result.diagnostics.push(d);
            result.failed = true;
            return result;
        }
    };
    let mut current = text.clone();
    for step in steps {
        let Some(bundle) = step_bundle(&current, &step) else {
            continue;
        };
        let archive = txtar::parse(&bundle);
        let mut files = Vec::new();
        let mut ok = true;
        for f in &archive.files {
            let member = format!("{name}#{step}/{}", f.name);
            match formatted(map, &member, f.data.clone(), normalize_literals) {
                Ok(out) => files.push((f.name.clone(), out)),
                Err(diagnostics) => {
                    result.diagnostics.extend(diagnostics);
                    ok = false;
                }
            }
        }
        if !ok {
            result.failed = true;
            continue;
        }
        let new_bundle = txtar::format(
            &archive.comment,
            files.iter().map(|(n, d)| (n.as_str(), d.as_str())),
        );
        if new_bundle == bundle {
            continue;
        }
        match write_step_hcl(&current, Some(&step), &new_bundle) {
            Ok((next, _)) => current = next,
            Err(e) => {
                result.diagnostics.push(
                    Diagnostic::new(
                        Code::I014,
                        format!("cannot rewrite step {step:?} of `{name}`: {e}"),
                    )
                    .with_path(name.clone()),
                );
                result.failed = true;
            }
        }
    }
    result.change = Some(Change {
        name,
        before: text,
        after: current,
    });
    result
}

/// The `input.hcl` text of the named step.
fn step_bundle(yaml: &str, step: &str) -> Option<String> {
    let composition = Composition::parse(yaml).ok()?;
    let chosen = composition.steps.iter().find(|s| s.name == step)?;
    chosen.hcl()?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_formats_or_gives_the_input_back() {
        let mut map = SourceMap::new();
        let (out, diagnostics) = filter(&mut map, "a=1\n", true);
        assert_eq!(out.as_deref(), Some("a = 1\n"));
        assert!(diagnostics.is_empty());
        // Without the rewrite, text that does not parse is still formatted, with warnings.
        let (out, diagnostics) = filter(&mut map, "a={\n", false);
        assert_eq!(out.as_deref(), Some("a = {\n"));
        assert!(diagnostics.iter().all(|d| d.severity == Severity::Warning));
        assert!(!diagnostics.is_empty());
        let (out, diagnostics) = filter(&mut map, "a={\n", true);
        assert_eq!(out, None);
        assert!(!diagnostics.is_empty());
    }

    #[test]
    fn a_changed_file_is_written_back_and_its_diff_is_unified() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("main.hcl");
        std::fs::write(&path, "a=1\n").unwrap();
        let mut map = SourceMap::new();
        let formatted = format_path(&mut map, &path, true);
        assert!(!formatted.failed && !formatted.errored);
        let change = formatted.change.unwrap();
        assert!(change.changed());
        assert!(unified_diff(&change).contains("-a=1\n+a = 1\n"));
        save(&path, &change).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a = 1\n");
        let missing = format_path(&mut map, &dir.path().join("missing.hcl"), true);
        assert!(missing.errored && missing.change.is_none());
    }
}
