//! `fnhcl eval`: one expression, evaluated as function-hcl would, with `req` from files. The
//! evaluation is the library's (`fnhcl::eval::evaluate`); this builds the request from the
//! flags, prints the value and picks the exit code.

use crate::cli::Context;
use crate::cli::args::{DiagnosticFormat, EvalArgs};
use crate::cli::exit::ExitStatus;
use crate::cli::inputs::{context_map, resource_docs, usage, yaml_docs};
use fnhcl::diagnostics::{Code, Diagnostic, Severity};
use fnhcl::eval::evaluate::{self, Outcome};
use fnhcl::eval::proto::{Resource, Resources, RunFunctionRequest, State};
use fnhcl::render::composition_resource_name;
use serde_json::Value as Json;
use std::io::Write;
use std::path::Path;

/// Runs the command.
pub fn run(
    args: &EvalArgs,
    format: DiagnosticFormat,
    cx: &mut Context,
) -> std::io::Result<ExitStatus> {
    let request = match build_request(args, cx) {
        Ok(request) => request,
        Err(d) => return Ok(cx.fail(*d)),
    };
    let options = evaluate::Options {
        expr: &args.expr,
        program: args.hcl.as_deref(),
        json: format == DiagnosticFormat::Json,
    };
    let (outcome, diagnostics) = evaluate::expression(&mut cx.map, &options, &request);
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

/// The request the files describe, as `crossplane render` would send it.
fn build_request(args: &EvalArgs, cx: &mut Context) -> Result<RunFunctionRequest, Box<Diagnostic>> {
    let mut request = RunFunctionRequest::default();
    if let Some(xr) = &args.xr {
        let xr = yaml_docs(xr, cx)?.into_iter().next().unwrap_or(Json::Null);
        request.observed = State {
            composite: Some(Resource::of(xr)),
            ..State::default()
        };
    }
    if let Some(path) = &args.observed_resources {
        for doc in resource_docs(path, "observed resources", cx)? {
            let name = composition_resource_name(&doc).to_string();
            request.observed.resources.insert(name, Resource::of(doc));
        }
    }
    for spec in &args.required_resources {
        let Some((name, path)) = spec.split_once('=') else {
            return Err(usage(
                format!("`{spec}` does not name a requirement"),
                "write -e NAME=PATH: the resources become req.extra_resources.NAME",
            ));
        };
        let items: Vec<Resource> = resource_docs(Path::new(path), "extra resources", cx)?
            .into_iter()
            .map(Resource::of)
            .collect();
        if items.is_empty() {
            cx.diagnostics.push(
                Diagnostic::new(
                    Code::I002,
                    format!("`{path}` holds no resources: req.extra_resources.{name} is null"),
                )
                .with_severity(Severity::Warning)
                .with_path(path.to_string())
                .with_help("function-hcl gives null for a requirement that matched nothing"),
            );
        }
        request
            .extra_resources
            .insert(name.to_string(), Resources { items });
    }
    let context = context_map(&args.context_files, &args.context_values, cx)?;
    if !context.is_empty() {
        request.context = Some(Json::Object(context));
    }
    Ok(request)
}
