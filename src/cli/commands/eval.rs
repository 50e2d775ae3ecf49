//! `fnhcl eval`: one expression, evaluated as function-hcl would, with `req` from files. The
//! evaluation is the library's (`fnhcl::eval::evaluate`); this builds the request from the
//! flags, prints the value and picks the exit code.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, EvalArgs};
use crate::cli::exit::ExitStatus;
use fnhcl::eval::evaluate::{self, Outcome};
use fnhcl::render::inputs::{RequestFiles, function_request};
use std::io::Write;

/// Runs the command.
pub fn run(
    args: &EvalArgs,
    format: DiagnosticFormat,
    cx: &mut Context,
) -> std::io::Result<ExitStatus> {
    let files = RequestFiles {
        xr: args.xr.as_deref(),
        observed: args.observed_resources.as_deref(),
        required: &args.required_resources,
        context_files: &args.context_files,
        context_values: &args.context_values,
    };
    let built = match function_request(&files, &mut cx.map, &mut cx.diagnostics) {
        Ok(built) => built,
        Err(d) => return Ok(cx.fail(*d)),
    };
    let options = evaluate::Options {
        expr: &args.expr,
        program: args.hcl.as_deref(),
        json: format == DiagnosticFormat::Json,
        pool: &built.pool,
    };
    let (outcome, diagnostics) = evaluate::expression(&mut cx.map, &options, &built.request);
    cx.diagnostics.extend(diagnostics);
    match outcome {
        Outcome::Value(text) => {
            writeln!(cx.stdout, "{text}")?;
            Ok(ExitStatus::Success)
        }
        Outcome::Failed => Ok(ExitStatus::Failure),
        Outcome::Error => Ok(ExitStatus::Error),
    }
}
