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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Duration;

/// Runs the command.
pub fn run(args: &FunctionRunArgs, cx: &mut Context) -> io::Result<ExitStatus> {
    let mut stdin = io::stdin();
    let request = match request::read(&cx.map, &args.request, &mut stdin) {
        Ok(request) => request,
        Err(d) => return Ok(cx.fail(*d)),
    };
    // A function-patch-and-transform input (and no bundle given) runs that function natively.
    if args.source.is_none()
        && request
            .input
            .as_ref()
            .is_some_and(fnhcl::pt::function::is_pt_input)
    {
        let response = fnhcl::pt::function::run(&request);
        let text = serde_json::to_string_pretty(&response).unwrap_or_default();
        writeln!(cx.stdout, "{text}")?;
        return Ok(ExitStatus::Success);
    }
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
    let call = match fnhcl::render::inputs::parse_duration(&args.timeout) {
        Ok(call) if !call.is_zero() => call,
        Ok(_) => {
            return Ok(cx.fail(
                Diagnostic::new(Code::I017, "--timeout must be longer than zero")
                    .with_help("write a duration such as 1m, 30s or 500ms"),
            ));
        }
        Err(d) => return Ok(cx.fail(*d)),
    };
    // Plaintext answers anyone who reaches the port: loopback unless asked otherwise.
    let address = args.address.as_deref().unwrap_or(if args.insecure {
        "127.0.0.1:9443"
    } else {
        "0.0.0.0:9443"
    });
    let options = server::Options {
        address,
        tls_certs_dir: args.tls_certs_dir.as_deref(),
        log_format: match args.log_format {
            LogFormat::Text => server::LogFormat::Text,
            LogFormat::Json => server::LogFormat::Json,
        },
        timeouts: server::Timeouts {
            call,
            ..server::Timeouts::default()
        },
    };
    let logger = Logger::start();
    let log = logger.log();
    let outcome = server::serve(&options, log);
    logger.finish();
    match outcome {
        Ok(()) => Ok(ExitStatus::Success),
        Err(d) => Ok(cx.fail(*d)),
    }
}

/// How many log lines may wait for a slow reader of standard error before new ones are
/// dropped.
const LOG_QUEUE: usize = 1024;

/// The server's log on standard error, written by a thread of its own: a request never waits
/// for the log. Lines that do not fit the queue (the reader is slow, or reads nothing: a
/// pipe nobody drains) are dropped and counted, and the count is written once there is room.
/// Write errors (a closed pipe) are ignored, as `eprintln!` would panic on them.
struct Logger {
    sender: SyncSender<String>,
    dropped: Arc<AtomicU64>,
    done: Receiver<()>,
}

impl Logger {
    fn start() -> Logger {
        let (sender, lines) = sync_channel::<String>(LOG_QUEUE);
        let (finished, done) = sync_channel::<()>(1);
        let dropped = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&dropped);
        std::thread::spawn(move || {
            for line in lines {
                let mut err = io::stderr().lock();
                let lost = counted.swap(0, Ordering::Relaxed);
                if lost > 0 {
                    let _ = writeln!(
                        err,
                        "fnhcl function serve: {lost} log line(s) dropped (standard error was not read)"
                    );
                }
                let _ = writeln!(err, "{line}");
            }
            let _ = finished.send(());
        });
        Logger {
            sender,
            dropped,
            done,
        }
    }

    /// The server's log function.
    fn log(&self) -> server::Log {
        let sender = self.sender.clone();
        let dropped = Arc::clone(&self.dropped);
        Arc::new(move |line: &str| {
            if sender.try_send(line.to_string()).is_err() {
                dropped.fetch_add(1, Ordering::Relaxed);
            }
        })
    }

    /// Lets the queued lines out, for a moment at most: a reader that never reads must not
    /// keep the server from exiting.
    fn finish(self) {
        drop(self.sender);
        let _ = self.done.recv_timeout(Duration::from_secs(1));
    }
}
