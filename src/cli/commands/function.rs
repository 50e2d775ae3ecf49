//! `fnhcl function run`: one function call, request in, response out, as protobuf JSON.

use crate::cli::Context;
use crate::cli::args::{FunctionRunArgs, FunctionServeArgs, LogFormat};
use crate::cli::exit::ExitStatus;
use fnhcl::diagnostics::{Code, Diagnostic, from_load_error};
use fnhcl::eval::function;
use fnhcl::eval::proto::RunFunctionRequest;
use fnhcl::grpc::service::{FunctionService, Handler, V1, V1Beta1};
use fnhcl::grpc::{convert, pb};
use fnhcl::source::SourceMap;
use fnhcl::source::loader::{self, LoadOptions};
use std::io::{self, Read, Write};
use std::sync::Arc;
use std::time::Instant;

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
        const FIELDS: [&str; 13] = [
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
            "requiredSchemas",
            "required_schemas",
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
                .with_help("a request has meta, observed, desired, input, context, extraResources, credentials, requiredResources and requiredSchemas; `fnhcl render` takes an XR"),
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

/// Runs `function serve` until SIGINT or SIGTERM.
pub fn serve(args: &FunctionServeArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    let tls = match (&args.tls_certs_dir, args.insecure) {
        (Some(dir), _) => match server_tls(dir) {
            Ok(config) => Some(config),
            Err(d) => return Ok(cx.fail(*d)),
        },
        (None, true) => None,
        (None, false) => {
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
    };
    let transport = if tls.is_some() {
        "mutual TLS"
    } else {
        "plaintext"
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            return Ok(cx.fail(Diagnostic::new(
                Code::I001,
                format!("cannot start the server's runtime: {e}"),
            )));
        }
    };
    let format = args.log_format;
    let handler: Arc<Handler> = Arc::new(move |request: pb::RunFunctionRequest| {
        let start = Instant::now();
        let json = convert::request_from_pb(&request);
        let mut map = SourceMap::new();
        let outcome = function::run(&mut map, &json, None);
        let response = convert::response_to_pb(&outcome.response)
            .map_err(|e| tonic::Status::internal(format!("cannot encode the response: {e}")))?;
        log_request(format, &json, &outcome.response, start.elapsed());
        Ok(response)
    });
    let address = args.address.clone();
    let result: Result<(), String> = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let local = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        log_line(&format!(
            "fnhcl function serve: listening on {local} ({transport} gRPC)"
        ));
        // Without TCP_NODELAY a small response waits for the client's delayed ACK: 40 ms
        // added to every call.
        let incoming =
            tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
        let mut builder = tonic::transport::Server::builder();
        if let Some(tls) = tls {
            builder = builder
                .tls_config(tls)
                .map_err(|e| format!("cannot use the TLS certificates: {e}"))?;
        }
        builder
            .add_service(FunctionService::<V1>::new(Arc::clone(&handler)))
            .add_service(FunctionService::<V1Beta1>::new(handler))
            .serve_with_incoming_shutdown(incoming, stop_signal())
            .await
            .map_err(|e| format!("the server failed: {e}"))?;
        log_line("fnhcl function serve: stopped");
        Ok(())
    });
    match result {
        Ok(()) => Ok(ExitStatus::Success),
        Err(message) => Ok(cx.fail(Diagnostic::new(Code::I001, message))),
    }
}

/// The mutual-TLS configuration from a folder holding `tls.crt`, `tls.key` and `ca.crt`.
fn server_tls(dir: &std::path::Path) -> Result<tonic::transport::ServerTlsConfig, Box<Diagnostic>> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|e| {
            Box::new(
                Diagnostic::new(
                    Code::I001,
                    format!(
                        "cannot read `{}`: {}",
                        loader::display_path(&path),
                        loader::io_text(&e)
                    ),
                )
                .with_path(loader::display_path(&path))
                .with_help("--tls-certs-dir holds tls.crt, tls.key and ca.crt (PEM)"),
            )
        })
    };
    let (cert, key, ca) = (read("tls.crt")?, read("tls.key")?, read("ca.crt")?);
    Ok(tonic::transport::ServerTlsConfig::new()
        .identity(tonic::transport::Identity::from_pem(cert, key))
        .client_ca_root(tonic::transport::Certificate::from_pem(ca)))
}

/// Resolves at the first SIGINT or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }
            _ => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// One line per request on standard error: the request's tag, the XR, the outcome.
fn log_request(
    format: LogFormat,
    request: &RunFunctionRequest,
    response: &fnhcl::eval::proto::RunFunctionResponse,
    elapsed: std::time::Duration,
) {
    let xr = request
        .observed
        .composite
        .as_ref()
        .and_then(|c| c.resource.as_ref());
    let field = |p: &str| {
        xr.and_then(|x| x.pointer(p))
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let composite = format!("{}/{}", field("/kind"), field("/metadata/name"));
    let tag = request.meta.as_ref().map_or("", |m| m.tag.as_str());
    let fatal = response
        .results
        .iter()
        .any(|r| r.severity == "SEVERITY_FATAL");
    let resources = response.desired.as_ref().map_or(0, |d| d.resources.len());
    let millis = elapsed.as_secs_f64() * 1000.0;
    let line = match format {
        LogFormat::Json => serde_json::json!({
            "level": if fatal { "warn" } else { "info" },
            "msg": "RunFunction",
            "tag": tag,
            "composite": composite,
            "desiredResources": resources,
            "results": response.results.len(),
            "fatal": fatal,
            "durationMs": (millis * 1000.0).round() / 1000.0,
        })
        .to_string(),
        LogFormat::Text => format!(
            "level={} msg=RunFunction tag={tag:?} composite={composite:?} desiredResources={resources} results={} fatal={fatal} durationMs={millis:.3}",
            if fatal { "warn" } else { "info" },
            response.results.len()
        ),
    };
    log_line(&line);
}

/// A line on standard error. A log nobody reads any more (a closed pipe) must not fail the
/// requests being served: write errors are ignored, as `eprintln!` would panic on them.
fn log_line(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
