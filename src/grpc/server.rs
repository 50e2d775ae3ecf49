//! `fnhcl function serve`'s server: every `RunFunction` call (v1 and v1beta1) answered by the
//! function itself, plaintext or mutual TLS, until SIGINT or SIGTERM, one log line per request.
//! The log goes wherever the caller's `log` writes it; nothing here prints.

use super::service::{FunctionService, Handler, V1, V1Beta1};
use super::{convert, pb};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::function;
use crate::eval::proto::{RunFunctionRequest, RunFunctionResponse};
use crate::source::SourceMap;
use crate::source::loader;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How each request's log line is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// `key=value` pairs.
    Text,
    /// One JSON object per line.
    Json,
}

/// Where the server's log lines go (one line each, without its newline).
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// How to serve.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// The address to listen on, `HOST:PORT`.
    pub address: &'a str,
    /// A folder holding `tls.crt`, `tls.key` and `ca.crt` for mutual TLS; plaintext if `None`.
    pub tls_certs_dir: Option<&'a Path>,
    /// How each request's log line is written.
    pub log_format: LogFormat,
}

/// Serves until SIGINT or SIGTERM; an error when the certificates cannot be read or the
/// server cannot start or fails.
pub fn serve(options: &Options<'_>, log: Log) -> Result<(), Box<Diagnostic>> {
    let tls = options.tls_certs_dir.map(server_tls).transpose()?;
    let transport = if tls.is_some() {
        "mutual TLS"
    } else {
        "plaintext"
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            Box::new(Diagnostic::new(
                Code::I001,
                format!("cannot start the server's runtime: {e}"),
            ))
        })?;
    let format = options.log_format;
    let request_log = Arc::clone(&log);
    let handler: Arc<Handler> = Arc::new(move |request: pb::RunFunctionRequest| {
        let start = Instant::now();
        let json = convert::request_from_pb(&request);
        let mut map = SourceMap::new();
        let outcome = function::run(&mut map, &json, None);
        let response = convert::response_to_pb(&outcome.response)
            .map_err(|e| tonic::Status::internal(format!("cannot encode the response: {e}")))?;
        request_log(&request_line(
            format,
            &json,
            &outcome.response,
            start.elapsed(),
        ));
        Ok(response)
    });
    let address = options.address.to_string();
    let result: Result<(), String> = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let local = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        log(&format!(
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
        log("fnhcl function serve: stopped");
        Ok(())
    });
    result.map_err(|message| Box::new(Diagnostic::new(Code::I001, message)))
}

/// The mutual-TLS configuration from a folder holding `tls.crt`, `tls.key` and `ca.crt`.
fn server_tls(dir: &Path) -> Result<tonic::transport::ServerTlsConfig, Box<Diagnostic>> {
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

/// The log line of one request: its tag, the XR, the outcome.
fn request_line(
    format: LogFormat,
    request: &RunFunctionRequest,
    response: &RunFunctionResponse,
    elapsed: Duration,
) -> String {
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
    match format {
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
    }
}
