//! `fnhcl check`: the library checks the paths (`fnhcl::check::workspace`); this prints the
//! summary and picks the exit code. `--list-rules` and `--explain` print the rule reference.

use crate::cli::Context;
use crate::cli::args::{CheckArgs, FailLevel};
use crate::cli::exit::ExitStatus;
use fnhcl::check::{reference, workspace};
use fnhcl::diagnostics::{Diagnostic, Severity, count, counts};
use std::io::{self, Write};

/// Runs the command; returns the status and the findings to print.
pub fn run(args: &CheckArgs, cx: &mut Context) -> io::Result<(ExitStatus, Vec<Diagnostic>)> {
    if args.list_rules {
        cx.stdout.write_all(reference::list().as_bytes())?;
        return Ok((ExitStatus::Success, Vec::new()));
    }
    if let Some(key) = &args.explain {
        return match reference::explain(key) {
            Ok(text) => {
                cx.stdout.write_all(text.as_bytes())?;
                Ok((ExitStatus::Success, Vec::new()))
            }
            Err(d) => Ok((cx.fail(*d), Vec::new())),
        };
    }
    let options = workspace::Options {
        paths: &args.paths,
        config: args.config.as_deref(),
        schemas: &args.schemas,
        step: args.step.as_deref(),
    };
    let mut report = match workspace::run(&mut cx.map, &options, &mut io::stdin()) {
        Ok(report) => report,
        Err(found) => {
            cx.diagnostics.extend(found);
            return Ok((ExitStatus::Error, Vec::new()));
        }
    };
    cx.diagnostics.append(&mut report.warnings);
    if cx.verbose {
        for path in &report.excluded {
            cx.note(&format!("excluded: {}", path.display()))?;
        }
    }
    let threshold = match args.fail_level {
        FailLevel::Error => Severity::Error,
        FailLevel::Warning => Severity::Warning,
    };
    let status = if report.load_failed {
        ExitStatus::Error
    } else if report.fails_at(threshold) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    let (files, compositions) = (report.files, report.compositions);
    let (errors, warnings) = counts(&report.findings);
    cx.note(&format!(
        "checked {} in {}: {}, {}",
        count(files, "file", "files"),
        count(compositions, "composition", "compositions"),
        count(errors, "error", "errors"),
        count(warnings, "warning", "warnings"),
    ))?;
    Ok((status, report.findings))
}
