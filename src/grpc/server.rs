//! `fnhcl function serve`'s server: every `RunFunction` call (v1 and v1beta1) answered by the
//! function itself, plaintext or mutual TLS, until SIGINT or SIGTERM, one log line per request.
//! The log goes wherever the caller's `log` writes it; nothing here prints.

use super::service::{CallScope, FunctionService, Handler, V1, V1Beta1};
use super::{convert, pb};
use crate::diagnostics::{Code, Diagnostic};
use crate::eval::proto::{RunFunctionRequest, RunFunctionResponse};
use crate::eval::{deadline, function};
use crate::source::SourceMap;
use crate::source::loader;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod incoming;
use crate::source::pointer::Pointer;
use incoming::Incoming;

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
    /// How long calls and connections may take.
    pub timeouts: Timeouts,
}

/// The bounds on calls and connections: none is unlimited, so no caller can hold the
/// server's threads, connections or shutdown forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// The longest one call evaluates, whatever `grpc-timeout` the caller sent (or none).
    pub call: Duration,
    /// How soon after it is accepted a connection must have sent the 24 bytes of the HTTP/2
    /// preface (plaintext), or finished its TLS handshake.
    pub handshake: Duration,
    /// How long an established connection may send nothing at all; the server pings every
    /// [`KEEPALIVE`], so a live client always answers well within it.
    pub idle: Duration,
    /// After SIGINT or SIGTERM, how long calls in flight may still finish; then they are
    /// cancelled and the server exits.
    pub grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            call: Duration::from_secs(60),
            handshake: Duration::from_secs(10),
            idle: Duration::from_secs(300),
            grace: Duration::from_secs(20),
        }
    }
}

/// How often the server pings an HTTP/2 connection that has been quiet (and how long it
/// waits for the answer, [`KEEPALIVE_TIMEOUT`], before closing it).
pub const KEEPALIVE: Duration = Duration::from_secs(60);
/// See [`KEEPALIVE`].
pub const KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(20);
/// Once no call is in flight after a stop signal, how long responses still being written get.
const FLUSH: Duration = Duration::from_millis(500);
/// The longest pause of the accept loop after an error (the file-descriptor limit reached).
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// The most a TLS file may hold.
const MAX_PEM_BYTES: u64 = 1024 * 1024;

/// Serves until SIGINT or SIGTERM; an error when the certificates cannot be read or the
/// server cannot start or fails.
pub fn serve(options: &Options<'_>, log: Log) -> Result<(), Box<Diagnostic>> {
    serve_until(options, log, stop_signal)
}

/// Serves until the future `stop` makes resolves (then as after SIGTERM: calls in flight get the
/// grace period; a second SIGINT or SIGTERM ends it at once). `stop` is called inside the
/// runtime before the server listens, so a signal handler it installs is in place before anyone
/// can learn the address: a SIGTERM right after the `listening on` line stops the server
/// gracefully instead of killing it.
pub fn serve_until<F: Future<Output = ()> + Send>(
    options: &Options<'_>,
    log: Log,
    stop: impl FnOnce() -> F + Send,
) -> Result<(), Box<Diagnostic>> {
    let timeouts = options.timeouts;
    // Everything that can be wrong with the certificates is found before listening.
    let tls = options
        .tls_certs_dir
        .map(|dir| server_tls(dir, timeouts.handshake))
        .transpose()?;
    let transport = if tls.is_some() {
        "mutual TLS"
    } else {
        "plaintext"
    };
    let mut builder = tonic::transport::Server::builder()
        .http2_keepalive_interval(Some(KEEPALIVE))
        .http2_keepalive_timeout(Some(KEEPALIVE_TIMEOUT));
    if let Some((tls, dir)) = tls {
        builder = builder.tls_config(tls).map_err(|e| {
            Box::new(
                Diagnostic::new(
                    Code::I001,
                    format!(
                        "cannot use the TLS certificates in `{}`: {}",
                        loader::display_path(dir),
                        super::service::source_text(&e)
                    ),
                )
                .with_path(loader::display_path(dir))
                .with_help("tls.key must be the private key of tls.crt, both PEM; ca.crt a PEM CA certificate"),
            )
        })?;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Values nest up to 1,000 levels: their conversion and encoding recurse.
        .thread_stack_size(8 * 1024 * 1024)
        .build()
        .map_err(|e| {
            Box::new(Diagnostic::new(
                Code::I001,
                format!("cannot start the server's runtime: {e}"),
            ))
        })?;
    let format = options.log_format;
    let request_log = Arc::clone(&log);
    let calls = Arc::new(InFlight::default());
    let in_flight = Arc::clone(&calls);
    let handler: Arc<Handler> =
        Arc::new(move |request: pb::RunFunctionRequest, scope: &CallScope| {
            let _counted = in_flight.enter();
            let start = Instant::now();
            let json = convert::request_from_pb(&request);
            drop(request);
            // The caller's deadline, and never longer than the server allows.
            let cap = start + timeouts.call;
            let deadline = scope.deadline.map_or(cap, |d| d.min(cap));
            let mut map = SourceMap::new();
            let outcome = deadline::within_or_cancelled(Some(deadline), &scope.cancel, || {
                function::run(&mut map, &json, None)
            });
            let outcome = match outcome {
                Ok(outcome) => outcome,
                Err(deadline::Expired) => {
                    let (status, why) = if scope.cancel.load(Ordering::Relaxed) {
                        (
                            tonic::Status::cancelled("the call was abandoned"),
                            "cancelled",
                        )
                    } else if scope.deadline.is_some_and(|d| d <= cap) {
                        (
                            tonic::Status::deadline_exceeded(
                                "the evaluation did not finish within the call's deadline",
                            ),
                            "deadline exceeded",
                        )
                    } else {
                        (
                            tonic::Status::deadline_exceeded(format!(
                                "the evaluation did not finish within the server's limit of {}",
                                seconds(timeouts.call)
                            )),
                            "server time limit",
                        )
                    };
                    request_log(&failed_line(format, &json, why, start.elapsed()));
                    return Err(status);
                }
            };
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
        let stop = stop();
        let listener = tokio::net::TcpListener::bind(&address)
            .await
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let local = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        log(&format!(
            "fnhcl function serve: listening on {local} ({transport} gRPC)"
        ));
        if transport == "plaintext" && !local.ip().is_loopback() {
            log(&format!(
                "fnhcl function serve: warning: plaintext gRPC on {local} answers anyone who can reach this port; use --tls-certs-dir, or a loopback --address"
            ));
        }
        let incoming = Incoming::new(listener, timeouts, Arc::clone(&log));
        let (shutdown, shutdown_rx) = tokio::sync::oneshot::channel::<()>();
        let mut server = tokio::spawn(
            builder
                .add_service(FunctionService::<V1>::new(Arc::clone(&handler)))
                .add_service(FunctionService::<V1Beta1>::new(handler))
                .serve_with_incoming_shutdown(incoming, async {
                    let _ = shutdown_rx.await;
                }),
        );
        let failed = |e: tokio::task::JoinError| format!("the server failed: {e}");
        tokio::select! {
            ended = &mut server => {
                ended.map_err(failed)?.map_err(|e| format!("the server failed: {e}"))?;
                return Ok(());
            }
            () = stop => {}
        }
        let _ = shutdown.send(());
        let second = stop_signal();
        let running = calls.count();
        log(&format!(
            "fnhcl function serve: stopping ({running} call{} in flight, up to {} to finish)",
            if running == 1 { "" } else { "s" },
            seconds(timeouts.grace)
        ));
        let grace = tokio::time::sleep(timeouts.grace);
        tokio::select! {
            // Every connection closed.
            _ = &mut server => {}
            // No call left: give their responses a moment, then go even if idle
            // connections remain (a connection that never spoke would wait forever).
            () = calls.idle() => {
                let _ = tokio::time::timeout(FLUSH, &mut server).await;
            }
            () = grace => {
                log(&format!(
                    "fnhcl function serve: grace period over, cancelling {} call(s)",
                    calls.count()
                ));
            }
            () = second => {
                log("fnhcl function serve: second signal, stopping now");
            }
        }
        server.abort();
        log("fnhcl function serve: stopped");
        Ok(())
    });
    // Calls still evaluating are cancelled with their futures; their blocking threads stop at
    // the next checkpoint and are not waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    result.map_err(|message| Box::new(Diagnostic::new(Code::I001, message)))
}

/// A duration as people read it: `20s`, `1.5s`, `250ms`.
fn seconds(d: Duration) -> String {
    if d.as_millis() < 1000 {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}s", (d.as_secs_f64() * 10.0).round() / 10.0)
    }
}

/// The calls being evaluated, for the stop to wait on.
#[derive(Default)]
struct InFlight {
    count: AtomicUsize,
    changed: tokio::sync::Notify,
}

/// One call counted in [`InFlight`] until dropped.
struct Counted<'a>(&'a InFlight);

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.count.fetch_sub(1, Ordering::SeqCst);
        self.0.changed.notify_waiters();
    }
}

impl InFlight {
    fn enter(&self) -> Counted<'_> {
        self.count.fetch_add(1, Ordering::SeqCst);
        Counted(self)
    }

    fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Resolves once no call is in flight.
    async fn idle(&self) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if self.count() == 0 {
                return;
            }
            changed.await;
        }
    }
}

/// Reads a TLS file: a regular file of at most [`MAX_PEM_BYTES`].
fn read_pem_file(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| loader::io_text(&e))?;
    let meta = file.metadata().map_err(|e| loader::io_text(&e))?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_PEM_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| loader::io_text(&e))?;
    if bytes.len() as u64 > MAX_PEM_BYTES {
        return Err(format!("larger than {} KiB", MAX_PEM_BYTES / 1024));
    }
    Ok(bytes)
}

/// The labels of the PEM blocks in `bytes` whose base64 decodes; an error for a block that
/// does not.
fn pem_labels(bytes: &[u8]) -> Result<Vec<String>, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "not PEM text (not UTF-8)".to_string())?;
    let mut labels = Vec::new();
    let mut rest = text;
    while let Some(begin) = rest.find("-----BEGIN ") {
        let after = &rest[begin + 11..];
        let label_end = after
            .find("-----")
            .ok_or_else(|| "a PEM header without its closing dashes".to_string())?;
        let label = &after[..label_end];
        let body_start = &after[label_end + 5..];
        let footer = format!("-----END {label}-----");
        let end = body_start
            .find(&footer)
            .ok_or_else(|| format!("a `{label}` block without `{footer}`"))?;
        let body: String = body_start[..end]
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        use base64::Engine as _;
        if base64::engine::general_purpose::STANDARD
            .decode(body.as_bytes())
            .map_or(true, |der| der.is_empty())
        {
            return Err(format!("the `{label}` block is not valid base64"));
        }
        labels.push(label.to_string());
        rest = &body_start[end + footer.len()..];
    }
    Ok(labels)
}

/// The mutual-TLS configuration from a folder holding `tls.crt`, `tls.key` and `ca.crt`, each
/// checked to hold what it must (a file that does not is named).
fn server_tls(
    dir: &Path,
    handshake: Duration,
) -> Result<(tonic::transport::ServerTlsConfig, &Path), Box<Diagnostic>> {
    let read = |name: &str, wants: &[&str], what: &str| {
        let path = dir.join(name);
        let fail = |why: String| {
            Box::new(
                Diagnostic::new(
                    Code::I001,
                    format!("cannot read `{}`: {why}", loader::display_path(&path)),
                )
                .with_path(loader::display_path(&path))
                .with_help("--tls-certs-dir holds tls.crt, tls.key and ca.crt (PEM)"),
            )
        };
        let bytes = read_pem_file(&path).map_err(fail)?;
        let labels = pem_labels(&bytes).map_err(fail)?;
        if !labels.iter().any(|l| wants.contains(&l.as_str())) {
            return Err(fail(format!("it holds no PEM {what}")));
        }
        Ok(bytes)
    };
    let certificate = ["CERTIFICATE"];
    let cert = read("tls.crt", &certificate, "certificate")?;
    let key = read(
        "tls.key",
        &["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"],
        "private key",
    )?;
    let ca = read("ca.crt", &certificate, "certificate")?;
    Ok((
        tonic::transport::ServerTlsConfig::new()
            .identity(tonic::transport::Identity::from_pem(cert, key))
            .client_ca_root(tonic::transport::Certificate::from_pem(ca))
            .timeout(handshake),
        dir,
    ))
}

/// Resolves at the first SIGINT or SIGTERM after this call (the handlers are installed here,
/// not at the first poll, so a signal sent right after cannot be missed). Must be called
/// inside the runtime.
fn stop_signal() -> impl Future<Output = ()> + Send {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let handlers = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        );
        async move {
            match handlers {
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
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// The log line of a call that did not finish: its tag, the XR, why.
fn failed_line(
    format: LogFormat,
    request: &RunFunctionRequest,
    why: &str,
    elapsed: Duration,
) -> String {
    let (tag, composite) = identify(request);
    let millis = elapsed.as_secs_f64() * 1000.0;
    match format {
        LogFormat::Json => serde_json::json!({
            "level": "warn",
            "msg": "RunFunction",
            "tag": tag,
            "composite": composite,
            "error": why,
            "durationMs": (millis * 1000.0).round() / 1000.0,
        })
        .to_string(),
        LogFormat::Text => format!(
            "level=warn msg=RunFunction tag={tag:?} composite={composite:?} error={why:?} durationMs={millis:.3}"
        ),
    }
}

/// A request's tag and its XR as `Kind/name`.
fn identify(request: &RunFunctionRequest) -> (String, String) {
    let xr = request
        .observed
        .composite
        .as_ref()
        .and_then(|c| c.resource.as_ref());
    let field = |p: &str| {
        xr.and_then(|x| x.at(p))
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string()
    };
    let composite = format!("{}/{}", field("/kind"), field("/metadata/name"));
    let tag = request.meta.as_ref().map_or("", |m| m.tag.as_str());
    (tag.to_string(), composite)
}

/// The log line of one request: its tag, the XR, the outcome.
fn request_line(
    format: LogFormat,
    request: &RunFunctionRequest,
    response: &RunFunctionResponse,
    elapsed: Duration,
) -> String {
    let (tag, composite) = identify(request);
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
