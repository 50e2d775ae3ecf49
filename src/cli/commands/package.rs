//! `fnhcl package`: a directory as a txtar bundle, written to stdout, into a Composition, or
//! extracted from one.

use crate::cli::Context;
use crate::cli::args::PackageArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::fsutil::write_atomic;
use crate::cli::inputs::composition_error;
use fnhcl::diagnostics::{Code, Diagnostic, from_load_error};
use fnhcl::source::composition::{WriteError, write_step_hcl};
use fnhcl::source::loader::{self, Bundle, io_text};
use fnhcl::source::txtar;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Runs the command.
pub fn run(args: &PackageArgs, cx: &mut Context) -> std::io::Result<ExitStatus> {
    crate::cli::fsutil::clean_up_on_interrupt();
    if let Some(composition) = &args.extract {
        // clap guarantees `--out` with `--extract`.
        let out = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
        return extract(composition, &out, args, cx);
    }
    let bundle = match loader::load_directory(&mut cx.map, &args.dir) {
        Ok(bundle) => bundle,
        Err(e) => return Ok(cx.fail(from_load_error(&e, &cx.map))),
    };
    if cx.verbose {
        let names: Vec<&str> = bundle.files.iter().map(|f| f.name.as_str()).collect();
        cx.note(&format!(
            "packaging {} files: {}",
            names.len(),
            names.join(", ")
        ))?;
    }
    if !args.skip_analysis {
        // As fn-hcl-tools, refuse to package a program with errors; warnings pass.
        let map = std::sync::Arc::new(cx.map.clone());
        let config = fnhcl::check::Config::default();
        let mut findings = fnhcl::check::check_bundle(&map, &bundle, &config);
        let failed = findings
            .iter()
            .any(|d| d.severity == fnhcl::diagnostics::Severity::Error);
        cx.diagnostics.append(&mut findings);
        if failed {
            cx.note("analysis failed: nothing was packaged (--skip-analysis packages anyway)")?;
            return Ok(ExitStatus::Failure);
        }
    }
    let text = bundle_text(&bundle, cx);
    match &args.into {
        None => {
            cx.stdout.write_all(text.as_bytes())?;
            Ok(ExitStatus::Success)
        }
        Some(composition) => into(composition, &text, bundle.files.len(), args, cx),
    }
}

fn bundle_text(bundle: &Bundle, cx: &Context) -> String {
    txtar::format(
        "",
        bundle
            .files
            .iter()
            .map(|f| (f.name.as_str(), cx.map.get(f.file).text())),
    )
}

fn into(
    path: &Path,
    bundle: &str,
    count: usize,
    args: &PackageArgs,
    cx: &mut Context,
) -> std::io::Result<ExitStatus> {
    let display = path.display().to_string();
    let old = match loader::read_text(path) {
        Ok(text) => text,
        Err(e) => return Ok(cx.fail(from_load_error(&e, &cx.map))),
    };
    let (new, step) = match write_step_hcl(&old, args.step.as_deref(), bundle) {
        Ok(done) => done,
        Err(WriteError::Composition(error)) => {
            let d = composition_error(&display, &old, error, cx);
            return Ok(cx.fail(*d));
        }
        Err(WriteError::Edit(error)) => {
            let d = Diagnostic::new(Code::I014, error.to_string())
                .with_path(display)
                .with_help("write the input as `hcl: |` block in the step's `input` mapping, then run again; the file was not changed");
            return Ok(cx.fail(d));
        }
    };
    if new == old {
        cx.note(&format!(
            "step {step:?} of {display} already holds this bundle ({count} files)"
        ))?;
        return Ok(ExitStatus::Success);
    }
    if let Err(e) = fnhcl::source::write::replace_file(path, old.as_bytes(), new.as_bytes()) {
        return Ok(cx.fail(
            Diagnostic::new(Code::I001, format!("cannot write `{display}`: {e}"))
                .with_path(display.clone())
                .with_help(e.help()),
        ));
    }
    cx.note(&format!(
        "wrote {count} files into step {step:?} of {display}"
    ))?;
    Ok(ExitStatus::Success)
}

fn write_error(path: &str, error: &std::io::Error) -> Diagnostic {
    Diagnostic::new(
        Code::I001,
        format!("cannot write `{path}`: {}", io_text(error)),
    )
    .with_path(path)
    .with_help("check that the directory exists and is writable")
}

fn extract(
    composition: &Path,
    out: &Path,
    args: &PackageArgs,
    cx: &mut Context,
) -> std::io::Result<ExitStatus> {
    let loaded = loader::read_text(composition).and_then(|text| {
        loader::load_composition(
            &mut cx.map,
            &composition.display().to_string(),
            text,
            args.step.as_deref(),
        )
    });
    let bundle = match loaded {
        Ok(bundle) => bundle,
        Err(e) => return Ok(cx.fail(from_load_error(&e, &cx.map))),
    };
    let mut writes = Vec::new();
    let mut problems = Vec::new();
    for file in &bundle.files {
        let Some(relative) = safe_relative(&file.name) else {
            problems.push(
                Diagnostic::new(
                    Code::I016,
                    format!(
                        "bundle file `{}` would be written outside `{}`",
                        file.name,
                        out.display()
                    ),
                )
                .with_path(composition.display().to_string())
                .with_help("rename the file in the bundle to a path below the target directory"),
            );
            continue;
        };
        if let Some(link) = link_below(out, &relative) {
            problems.push(
                Diagnostic::new(
                    Code::I016,
                    format!(
                        "bundle file `{}` would be written through the symbolic link `{}`, which may lead outside `{}`",
                        file.name,
                        link.display(),
                        out.display()
                    ),
                )
                .with_path(composition.display().to_string())
                .with_help("extract into a directory without symbolic links, or remove the link"),
            );
            continue;
        }
        let target = out.join(relative);
        let data = cx.map.get(file.file).text();
        match std::fs::read(&target) {
            Ok(existing) if existing == data.as_bytes() => {}
            Ok(_) if !args.force => problems.push(
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
        cx.diagnostics.extend(problems);
        return Ok(ExitStatus::Error);
    }
    let unchanged = bundle.files.len() - writes.len();
    for (target, data) in &writes {
        let created = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| write_atomic(target, data.as_bytes()));
        if let Err(e) = created {
            return Ok(cx.fail(write_error(&target.display().to_string(), &e)));
        }
    }
    cx.note(&format!(
        "wrote {} files to {} ({unchanged} unchanged)",
        writes.len(),
        out.display()
    ))?;
    Ok(ExitStatus::Success)
}

/// The first symbolic link on the way from `out` to `out/relative` (the target itself
/// included; `out` is the user's choice and may be one).
fn link_below(out: &Path, relative: &Path) -> Option<PathBuf> {
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

/// The member name as a path below the target directory, or `None` when it is absolute or
/// climbs out with `..`.
fn safe_relative(name: &str) -> Option<PathBuf> {
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
    use super::safe_relative;
    use std::path::PathBuf;

    #[test]
    fn members_stay_below_the_target() {
        assert_eq!(safe_relative("lib/a.hcl"), Some(PathBuf::from("lib/a.hcl")));
        assert_eq!(safe_relative("lib/../a.hcl"), Some(PathBuf::from("a.hcl")));
        assert_eq!(safe_relative("../shared/a.hcl"), None);
        assert_eq!(safe_relative("/etc/passwd"), None);
        assert_eq!(safe_relative("."), None);
    }
}
