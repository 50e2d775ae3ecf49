//! L7: `package` — a composition directory as a txtar bundle, placed into a Composition's
//! function-hcl step, or extracted from one into a directory. Extraction writes only below the
//! target directory: no absolute or climbing member names, no writing through symbolic links,
//! no overwriting a different file unless forced. Prints nothing.

use crate::diagnostics::{Code, Diagnostic, Severity, composition_error, from_load_error};
use crate::source::composition::{Composition, CompositionError, WriteError, write_step_hcl};
use crate::source::loader::{self, Bundle, io_text};
use crate::source::yaml::Node;
use crate::source::{SourceMap, write};
use std::path::{Component, Path, PathBuf};

/// The bundle of the composition in `dir`, its files added to `map`.
pub fn load(map: &mut SourceMap, dir: &Path) -> Result<Bundle, Box<Diagnostic>> {
    loader::load_directory(map, dir).map_err(|e| Box::new(from_load_error(&e, map)))
}

/// What checking a bundle before packaging it found.
#[derive(Debug)]
pub struct Analysis {
    /// Every finding (warnings pass).
    pub findings: Vec<Diagnostic>,
    /// No finding is an error: the bundle may be packaged.
    pub passed: bool,
}

/// Checks the bundle with the default rule levels, as fn-hcl-tools does before it packages
/// (it refuses a program with errors).
pub fn analyze(map: &SourceMap, bundle: &Bundle) -> Analysis {
    let map = std::sync::Arc::new(map.clone());
    let config = crate::check::Config::default();
    let findings = crate::check::check_bundle(&map, bundle, &config);
    let passed = !findings.iter().any(|d| d.severity == Severity::Error);
    Analysis { findings, passed }
}

/// Where a bundle went in a Composition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The name of the step whose `hcl` holds it.
    pub step: String,
    /// The file was rewritten (false: the step held this bundle already).
    pub changed: bool,
}

/// Writes `bundle` into the `hcl` of the function-hcl step `step` (the only one, when `None`)
/// of the Composition at `path`, atomically and only if the file did not change meanwhile. A
/// skeleton's step (an input mapping with an empty or no `hcl`) is filled.
pub fn into_composition(
    map: &mut SourceMap,
    path: &Path,
    step: Option<&str>,
    bundle: &str,
) -> Result<Placed, Box<Diagnostic>> {
    let display = path.display().to_string();
    let old = loader::read_text(path).map_err(|e| Box::new(from_load_error(&e, map)))?;
    let (new, step) = match write_step_hcl(&old, step, bundle) {
        Ok(done) => done,
        Err(WriteError::Composition(error)) => {
            let refused_input = matches!(error, CompositionError::InvalidInput { .. });
            let mut d = composition_error(&display, &old, error, map);
            // The input's own help suggests this very command; say what it can fill instead.
            if refused_input {
                d.help = Some(
                    "`package --into` fills an empty or missing `hcl` of an input mapping; \
                     make the step's `input` an HclInput object first, then run again:\n\
                     input:\n  apiVersion: hcl.fn.crossplane.io/v1beta1\n  kind: HclInput\n  hcl: \"\""
                        .into(),
                );
            }
            return Err(d);
        }
        Err(WriteError::Edit(error)) => {
            return Err(Box::new(
                Diagnostic::new(Code::I014, error.to_string())
                    .with_path(display)
                    .with_help("write the input as `hcl: |` block in the step's `input` mapping, then run again; the file was not changed"),
            ));
        }
    };
    if new == old {
        return Ok(Placed {
            step,
            changed: false,
        });
    }
    if let Err(e) = write::replace_file(path, old.as_bytes(), new.as_bytes()) {
        return Err(Box::new(
            Diagnostic::new(Code::I001, format!("cannot write `{display}`: {e}"))
                .with_path(display.clone())
                .with_help(e.help()),
        ));
    }
    Ok(Placed {
        step,
        changed: true,
    })
}

/// Whether the function-hcl step (`step`, or the only one) of the Composition at `path` holds
/// `bundle` (the text of the folder `dir`): `None` when it does, else the stale-bundle finding
/// (an empty or missing `hcl` is stale too). Writes nothing.
pub fn check_into(
    map: &mut SourceMap,
    path: &Path,
    step: Option<&str>,
    dir: &Path,
    bundle: &str,
) -> Result<Option<Diagnostic>, Box<Diagnostic>> {
    let display = path.display().to_string();
    let text = loader::read_text(path).map_err(|e| Box::new(from_load_error(&e, map)))?;
    let parsed = Composition::parse(&text);
    let chosen = match parsed
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|c| c.writable_step(step))
    {
        Ok(found) => found,
        Err(error) => return Err(composition_error(&display, &text, error, map)),
    };
    let inline = chosen.hcl().and_then(Node::as_str).unwrap_or("");
    let staleness = crate::check::stale::compare(inline, bundle);
    if staleness.is_fresh() {
        return Ok(None);
    }
    let name = chosen.name.clone();
    let file = map.add(display.clone(), text.clone());
    map.set_display_name(file, loader::display_path(path));
    Ok(Some(crate::check::stale::diagnostic(
        map, file, &name, dir, &staleness,
    )))
}

/// What an extraction did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extracted {
    /// Files written.
    pub written: usize,
    /// Files that held the bundle's content already.
    pub unchanged: usize,
}

/// Writes the files of the bundle in the Composition at `composition` (step `step`) below
/// `out`. Nothing is written when any member would land outside `out`, go through a symbolic
/// link, or overwrite a different file without `force`: every such problem is returned.
pub fn extract(
    map: &mut SourceMap,
    composition: &Path,
    out: &Path,
    step: Option<&str>,
    force: bool,
) -> Result<Extracted, Vec<Diagnostic>> {
    let loaded = loader::read_text(composition).and_then(|text| {
        loader::load_composition(map, &composition.display().to_string(), text, step)
    });
    let bundle = loaded.map_err(|e| vec![from_load_error(&e, map)])?;
    let mut writes = Vec::new();
    let mut problems = Vec::new();
    for file in &bundle.files {
        let target = match target(composition, out, &file.name) {
            Ok(target) => target,
            Err(d) => {
                problems.push(*d);
                continue;
            }
        };
        let data = map.get(file.file).text();
        match crate::source::read::read_bytes(&target) {
            // A device or pipe in the way is never read, nor replaced by a file.
            Err(e @ crate::source::read::ReadError::NotRegular { .. }) => problems.push(
                Diagnostic::new(Code::I015, e.to_string())
                    .with_path(target.display().to_string())
                    .with_help("move it away, then extract again"),
            ),
            Ok(existing) if existing == data.as_bytes() => {}
            Ok(_) if !force => problems.push(
                Diagnostic::new(
                    Code::I015,
                    format!("`{}` differs from the bundle", target.display()),
                )
                .with_path(target.display().to_string())
                .with_help("pass --force to overwrite it, or move it away"),
            ),
            _ => writes.push((target, data.to_string())),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let unchanged = bundle.files.len() - writes.len();
    for (target, data) in &writes {
        let created = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| write::write_atomic(target, data.as_bytes()));
        if let Err(e) = created {
            return Err(vec![write_error(&target.display().to_string(), &e)]);
        }
    }
    Ok(Extracted {
        written: writes.len(),
        unchanged,
    })
}

/// Where the bundle member `name` goes below `out`, or why it may not be written there.
fn target(composition: &Path, out: &Path, name: &str) -> Result<PathBuf, Box<Diagnostic>> {
    let Some(relative) = safe_relative(name) else {
        return Err(Box::new(
            Diagnostic::new(
                Code::I016,
                format!(
                    "bundle file `{name}` would be written outside `{}`",
                    out.display()
                ),
            )
            .with_path(composition.display().to_string())
            .with_help("rename the file in the bundle to a path below the target directory"),
        ));
    };
    if let Some(link) = link_below(out, &relative) {
        return Err(Box::new(
            Diagnostic::new(
                Code::I016,
                format!(
                    "bundle file `{name}` would be written through the symbolic link `{}`, which may lead outside `{}`",
                    link.display(),
                    out.display()
                ),
            )
            .with_path(composition.display().to_string())
            .with_help("extract into a directory without symbolic links, or remove the link"),
        ));
    }
    Ok(out.join(relative))
}

fn write_error(path: &str, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(
        Code::I001,
        format!("cannot write `{path}`: {}", io_text(error)),
    )
    .with_path(path)
    .with_help("check that the directory exists and is writable")
}

/// The first symbolic link on the way from `out` to `out/relative` (the target itself
/// included; `out` is the user's choice and may be one).
pub fn link_below(out: &Path, relative: &Path) -> Option<PathBuf> {
    let mut at = out.to_path_buf();
    for part in relative.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => return Some(at),
            Ok(_) => {}
            // Nothing there yet: nothing below it can be a link either.
            Err(_) => return None,
        }
    }
    None
}

/// A name from a file (a bundle member, a pipeline step) as a path below a target directory,
/// or `None` when it is absolute or climbs out with `..`.
pub fn safe_relative(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    let mut depth = 0usize;
    let mut clean = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => {
                depth += 1;
                clean.push(part);
            }
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth.checked_sub(1)?;
                clean.pop();
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (depth > 0).then_some(clean)
}

#[cfg(test)]
mod tests {
    use super::{extract, safe_relative};
    use crate::source::SourceMap;
    use std::path::PathBuf;

    const COMPOSITION: &str = "apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: linked
spec:
  mode: Pipeline
  pipeline:
  - step: hcl
    input:
      kind: HclInput
      hcl: |
        -- lib/main.hcl --
        x = 1
";

    #[cfg(unix)]
    #[test]
    fn nothing_is_written_through_a_symbolic_link() {
        let dir = tempfile::tempdir().unwrap();
        let (out, elsewhere) = (dir.path().join("out"), dir.path().join("elsewhere"));
        std::fs::create_dir_all(&out).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("lib")).unwrap();
        let composition = dir.path().join("c.yaml");
        std::fs::write(&composition, COMPOSITION).unwrap();
        let mut map = SourceMap::new();
        let problems = extract(&mut map, &composition, &out, None, true).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].summary.contains("symbolic link"),
            "{problems:?}"
        );
        assert!(!elsewhere.join("main.hcl").exists());
    }

    #[test]
    fn extraction_writes_below_the_target_once() {
        let dir = tempfile::tempdir().unwrap();
        let composition = dir.path().join("c.yaml");
        std::fs::write(&composition, COMPOSITION).unwrap();
        let out = dir.path().join("out");
        let mut map = SourceMap::new();
        let first = extract(&mut map, &composition, &out, None, false).unwrap();
        assert_eq!((first.written, first.unchanged), (1, 0));
        assert_eq!(
            std::fs::read_to_string(out.join("lib/main.hcl")).unwrap(),
            "x = 1\n"
        );
        let again = extract(&mut map, &composition, &out, None, false).unwrap();
        assert_eq!((again.written, again.unchanged), (0, 1));
    }

    #[test]
    fn members_stay_below_the_target() {
        assert_eq!(safe_relative("lib/a.hcl"), Some(PathBuf::from("lib/a.hcl")));
        assert_eq!(safe_relative("lib/../a.hcl"), Some(PathBuf::from("a.hcl")));
        assert_eq!(safe_relative("../shared/a.hcl"), None);
        assert_eq!(safe_relative("/etc/passwd"), None);
        assert_eq!(safe_relative("."), None);
    }
}
