//! `fnhcl function run`: one function call, request in, response out, as protobuf JSON.

use crate::cli::Context;
use crate::cli::args::FunctionRunArgs;
use crate::cli::exit::ExitStatus;
use fnhcl::diagnostics::{Code, Diagnostic, from_load_error};
use fnhcl::eval::function;
use fnhcl::eval::proto::RunFunctionRequest;
use fnhcl::source::loader::{self, LoadOptions};
use std::io::{self, Read, Write};

/// Runs the command.
pub fn run(args: &FunctionRunArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    let request = match read_request(args, cx) {
        Ok(request) => request,
        Err(d) => return Ok(cx.fail(*d)),
    };
    let files = match &args.source {
        Some(source) => {
            let mut stdin = io::stdin();
            let options = LoadOptions {
                step: args.step.as_deref(),
            };
            match loader::load_arg(&mut cx.map, source, &mut stdin as &mut dyn Read, options) {
                Ok(bundle) => Some(bundle.files.iter().map(|f| f.file).collect::<Vec<_>>()),
                Err(e) => {
                    let d = from_load_error(&e, &cx.map);
                    return Ok(cx.fail(d));
                }
            }
        }
        None => None,
    };
    let outcome = function::run(&mut cx.map, &request, files.as_deref());
    let text = serde_json::to_string_pretty(&outcome.response).unwrap_or_default();
    writeln!(cx.stdout, "{text}")?;
    if let Some(diagnostics) = outcome.failure
        && !cx.quiet
    {
        cx.diagnostics
            .extend(fnhcl::diagnostics::fold_wrappers(diagnostics));
    }
    Ok(ExitStatus::Success)
}

fn read_request(
    args: &FunctionRunArgs,
    cx: &mut Context,
) -> Result<RunFunctionRequest, Box<Diagnostic>> {
    let (name, text) = if args.request.as_os_str() == "-" {
        let mut text = String::new();
        io::stdin().read_to_string(&mut text).map_err(|e| {
            Box::new(Diagnostic::new(
                Code::I001,
                format!("cannot read standard input: {e}"),
            ))
        })?;
        ("standard input".to_string(), text)
    } else {
        let text =
            loader::read_text(&args.request).map_err(|e| Box::new(from_load_error(&e, &cx.map)))?;
        (loader::display_path(&args.request), text)
    };
    // protojson refuses unknown fields, and an object with `kind` at the top is most likely
    // an XR or a manifest passed by mistake.
    if let Ok(serde_json::Value::Object(top)) = serde_json::from_str::<serde_json::Value>(&text) {
        const FIELDS: [&str; 11] = [
            "meta",
            "observed",
            "desired",
            "input",
            "context",
            "extraResources",
            "extra_resources",
            "credentials",
            "requiredResources",
            "required_resources",
            "@type",
        ];
        if let Some(unknown) = top.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            let what = match top.get("kind").and_then(|k| k.as_str()) {
                Some(kind) => format!(" (it looks like an object of kind {kind})"),
                None => String::new(),
            };
            return Err(Box::new(
                Diagnostic::new(
                    Code::I018,
                    format!(
                        "`{name}` is not a RunFunctionRequest: unknown field {unknown:?}{what}"
                    ),
                )
                .with_path(name.clone())
                .with_help("a request has meta, observed, desired, input, context, extraResources, credentials and requiredResources; `fnhcl render` takes an XR"),
            ));
        }
    }
    serde_json::from_str(&text).map_err(|e| {
        Box::new(
            Diagnostic::new(
                Code::I018,
                format!("`{name}` is not a RunFunctionRequest: {e}"),
            )
            .with_path(name.clone())
            .with_help("write the request in protobuf JSON form, as `crossplane render` sends it"),
        )
    })
}
