//! `fnhcl package`: a directory as a txtar bundle, written to stdout, into a Composition, or
//! extracted from one. The packaging is the library's (`fnhcl::package`); this prints and
//! picks the exit code.

use crate::cli::Context;
use crate::cli::args::PackageArgs;
use crate::cli::exit::ExitStatus;
use fnhcl::diagnostics::count;
use fnhcl::package;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs the command.
pub fn run(args: &PackageArgs, cx: &mut Context) -> std::io::Result<ExitStatus> {
    crate::cli::fsutil::clean_up_on_interrupt();
    if let Some(composition) = &args.extract {
        // clap guarantees `--out` with `--extract`.
        let out = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
        return extract(composition, &out, args, cx);
    }
    let bundle = match package::load(&mut cx.map, &args.dir) {
        Ok(bundle) => bundle,
        Err(d) => return Ok(cx.fail(*d)),
    };
    if cx.verbose {
        let names: Vec<&str> = bundle.files.iter().map(|f| f.name.as_str()).collect();
        cx.note(&format!(
            "packaging {}: {}",
            count(names.len(), "file", "files"),
            names.join(", ")
        ))?;
    }
    if !args.skip_analysis {
        let mut analysis = package::analyze(&cx.map, &bundle);
        cx.diagnostics.append(&mut analysis.findings);
        if !analysis.passed {
            cx.note("analysis failed: nothing was packaged (--skip-analysis packages anyway)")?;
            return Ok(ExitStatus::Failure);
        }
    }
    let text = bundle.txtar(&cx.map);
    let Some(composition) = &args.into else {
        cx.stdout.write_all(text.as_bytes())?;
        return Ok(ExitStatus::Success);
    };
    if args.check {
        return match package::check_into(
            &mut cx.map,
            composition,
            args.step.as_deref(),
            &args.dir,
            &text,
        ) {
            Ok(None) => {
                cx.note(&format!("{} is up to date", composition.display()))?;
                Ok(ExitStatus::Success)
            }
            Ok(Some(stale)) => {
                cx.diagnostics.push(stale);
                Ok(ExitStatus::Failure)
            }
            Err(d) => Ok(cx.fail(*d)),
        };
    }
    let files = count(bundle.files.len(), "file", "files");
    let display = composition.display();
    match package::into_composition(&mut cx.map, composition, args.step.as_deref(), &text) {
        Ok(placed) if placed.changed => cx.note(&format!(
            "wrote {files} into step {:?} of {display}",
            placed.step
        ))?,
        Ok(placed) => cx.note(&format!(
            "step {:?} of {display} already holds this bundle ({files})",
            placed.step
        ))?,
        Err(d) => return Ok(cx.fail(*d)),
    }
    Ok(ExitStatus::Success)
}

fn extract(
    composition: &Path,
    out: &Path,
    args: &PackageArgs,
    cx: &mut Context,
) -> std::io::Result<ExitStatus> {
    let step = args.step.as_deref();
    match package::extract(&mut cx.map, composition, out, step, args.force) {
        Ok(done) => {
            cx.note(&format!(
                "wrote {} to {} ({} unchanged)",
                count(done.written, "file", "files"),
                out.display(),
                done.unchanged
            ))?;
            Ok(ExitStatus::Success)
        }
        Err(problems) => {
            cx.diagnostics.extend(problems);
            Ok(ExitStatus::Error)
        }
    }
}
