//! `fnhcl check`: load every input, check each composition in parallel, print the findings in
//! a deterministic order.

use crate::cli::Context;
use crate::cli::args::{CheckArgs, FailLevel};
use crate::cli::exit::ExitStatus;
use fnhcl::diagnostics::{Diagnostic, Severity, counts, from_load_error};
use fnhcl::source::SourceMap;
use fnhcl::source::loader::{self, Bundle, LoadOptions, is_yaml};
use rayon::prelude::*;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Runs the command; returns the status and the findings to print.
pub fn run(args: &CheckArgs, cx: &mut Context) -> io::Result<(ExitStatus, Vec<Diagnostic>)> {
    let mut load_failed = false;
    let mut bundles = Vec::new();
    let mut findings = Vec::new();
    for path in &args.paths {
        for result in load_inputs(&mut cx.map, path, args.step.as_deref()) {
            match result {
                Ok(bundle) => bundles.push(bundle),
                Err(e) => {
                    load_failed = true;
                    findings.push(from_load_error(&e, &cx.map));
                }
            }
        }
    }
    let map = &cx.map;
    let checked: Vec<Vec<Diagnostic>> = bundles
        .par_iter()
        .map(|bundle| fnhcl::check::check_bundle(map, bundle))
        .collect();
    findings.extend(checked.into_iter().flatten());
    let threshold = match args.fail_level {
        FailLevel::Error => Severity::Error,
        FailLevel::Warning => Severity::Warning,
    };
    let status = if load_failed {
        ExitStatus::Error
    } else if findings.iter().any(|d| d.severity >= threshold) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    let (errors, warnings) = counts(&findings);
    let files: usize = bundles.iter().map(|b| b.files.len()).sum();
    cx.note(&format!(
        "checked {files} {} in {} {}: {errors} {}, {warnings} {}",
        plural(files, "file", "files"),
        bundles.len(),
        plural(bundles.len(), "composition", "compositions"),
        plural(errors, "error", "errors"),
        plural(warnings, "warning", "warnings"),
    ))?;
    Ok((status, findings))
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// The bundles one command-line path stands for.
fn load_inputs(
    map: &mut SourceMap,
    path: &Path,
    step: Option<&str>,
) -> Vec<Result<Bundle, loader::LoadError>> {
    if path.as_os_str() == "-" {
        let mut stdin = io::stdin();
        return vec![loader::load_arg(
            map,
            "-",
            &mut stdin as &mut dyn Read,
            LoadOptions { step },
        )];
    }
    if path.is_dir() {
        return composition_dirs(path)
            .into_iter()
            .map(|dir| loader::load_directory(map, &dir))
            .collect();
    }
    if is_yaml(path) || path.extension().is_some_and(|e| e == "txtar") {
        return vec![loader::load_path(map, path, LoadOptions { step })];
    }
    // Any other file is HCL, whatever its extension.
    vec![loader::load_single_hcl(map, path)]
}

/// `dir` and every folder below it that directly holds `.hcl` files (hidden folders skipped),
/// sorted. `dir` itself is always included so an empty folder is still reported on.
fn composition_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![dir.to_path_buf()];
    let walker = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker.filter_map(Result::ok) {
        if entry.file_type().is_dir() && holds_hcl(entry.path()) {
            dirs.push(entry.into_path());
        }
    }
    if dirs.len() > 1 && !holds_hcl(dir) {
        dirs.remove(0);
    }
    dirs
}

fn holds_hcl(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| e.path().extension().is_some_and(|x| x == "hcl") && e.path().is_file())
    })
}
