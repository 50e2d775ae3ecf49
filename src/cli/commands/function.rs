//! `fnhcl function run`: one function call, request in, response out, as protobuf JSON;
//! `fnhcl function serve`: the function over gRPC (`fnhcl::grpc::server`). This maps the flags,
//! prints and picks the exit code.

use crate::cli::Context;
use crate::cli::args::{FunctionRunArgs, FunctionServeArgs, LogFormat};
use crate::cli::exit::ExitStatus;
use fnhcl::diagnostics::{Code, Diagnostic, from_load_error};
use fnhcl::eval::{function, request};
use fnhcl::grpc::server;
use fnhcl::source::loader::{self, LoadOptions};
use std::io::{self, Read, Write};
use std::sync::Arc;

/// Runs the command.
pub fn run(args: &FunctionRunArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    let mut stdin = io::stdin();
    let request = match request::read(&cx.map, &args.request, &mut stdin) {
        Ok(request) => request,
        Err(d) => return Ok(cx.fail(*d)),
    };
    let files = match &args.source {
        Some(source) => {
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

/// Runs `function serve` until SIGINT or SIGTERM.
pub fn serve(args: &FunctionServeArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    if args.tls_certs_dir.is_none() && !args.insecure {
        return Ok(cx.fail(
            Diagnostic::new(
                Code::I017,
                "no credentials provided - did you specify --insecure or --tls-certs-dir?",
            )
            .with_help(
                "serve plaintext with --insecure, or mutual TLS with --tls-certs-dir DIR (tls.crt, tls.key, ca.crt)",
            ),
        ));
    }
    let options = server::Options {
        address: &args.address,
        tls_certs_dir: args.tls_certs_dir.as_deref(),
        log_format: match args.log_format {
            LogFormat::Text => server::LogFormat::Text,
            LogFormat::Json => server::LogFormat::Json,
        },
    };
    match server::serve(&options, Arc::new(log_line)) {
        Ok(()) => Ok(ExitStatus::Success),
        Err(d) => Ok(cx.fail(*d)),
    }
}

/// A line on standard error. A log nobody reads any more (a closed pipe) must not fail the
/// requests being served: write errors are ignored, as `eprintln!` would panic on them.
fn log_line(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
