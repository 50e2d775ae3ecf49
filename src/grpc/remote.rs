//! The gRPC client `render` calls Development-runtime functions with: one connection per
//! target for the whole render (crossplane dials each Function once), plaintext as crossplane
//! render dials, each call bounded by the render's deadline.
//!
//! crossplane's client waits for a connection until its deadline (`waitForReady`): a function
//! that is not running makes it hang for the whole `--timeout` and then report
//! `DeadlineExceeded`. fnhcl retries a refused connection for a short while (a function may be
//! starting beside the render) and then says which target did not answer.

use super::convert;
use super::service::{self, CallError};
use crate::eval::proto::{RunFunctionRequest, RunFunctionResponse};
use crate::render::{Remote, RemoteError};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tonic::transport::{Channel, Endpoint};

/// How long a target that refuses connections is retried before the render fails.
pub const CONNECT_WAIT: Duration = Duration::from_secs(3);

/// The `host:port` a gRPC target names: `host:port`, `dns:///host:port`,
/// `dns://resolver/host:port`, `passthrough:///host:port`, `ipv4:addr:port`,
/// `ipv6:[addr]:port`; a host without a port gets gRPC's default, 443.
pub fn parse_target(target: &str) -> Result<String, String> {
    let rest = if let Some(rest) = target.strip_prefix("dns:") {
        // `dns:host:port`, `dns:///host:port` or `dns://resolver/host:port`.
        match rest.strip_prefix("//") {
            Some(after) => after
                .split_once('/')
                .map(|(_, host)| host)
                .ok_or_else(|| format!("{target:?} has no host after the resolver"))?,
            None => rest,
        }
    } else if let Some(rest) = target.strip_prefix("passthrough:") {
        rest.trim_start_matches('/')
    } else if let Some(rest) = target
        .strip_prefix("ipv4:")
        .or_else(|| target.strip_prefix("ipv6:"))
    {
        // Several addresses are for load balancing: the first will do.
        rest.split(',').next().unwrap_or(rest)
    } else if let Some(scheme) = target
        .split_once("://")
        .map(|(s, _)| s)
        .or_else(|| target.strip_prefix("unix:").map(|_| "unix"))
    {
        return Err(format!(
            "the {scheme:?} scheme is not supported: give host:port or dns:///host:port"
        ));
    } else {
        target
    };
    if rest.is_empty() {
        return Err("the target is empty".into());
    }
    let has_port = match rest.rsplit_once(':') {
        // `[::1]:9443` has a port, `[::1]` and a bare `::1` do not.
        Some((host, port)) => {
            !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) && !host.ends_with(':')
        }
        None => false,
    } && (!rest.starts_with('[') || rest.contains("]:"));
    if has_port {
        Ok(rest.to_string())
    } else if rest.contains(':') && !rest.starts_with('[') {
        Ok(format!("[{rest}]:443"))
    } else {
        Ok(format!("{rest}:443"))
    }
}

/// A [`Remote`] over gRPC.
pub struct GrpcRemote {
    runtime: Option<tokio::runtime::Runtime>,
    channels: HashMap<String, Channel>,
    connect_wait: Duration,
}

impl Default for GrpcRemote {
    fn default() -> Self {
        GrpcRemote::new()
    }
}

impl GrpcRemote {
    /// A client that retries refused connections for [`CONNECT_WAIT`].
    pub fn new() -> GrpcRemote {
        GrpcRemote::with_connect_wait(CONNECT_WAIT)
    }

    /// A client that retries refused connections for `wait`.
    pub fn with_connect_wait(wait: Duration) -> GrpcRemote {
        GrpcRemote {
            runtime: None,
            channels: HashMap::new(),
            connect_wait: wait,
        }
    }
}

fn unavailable(message: String) -> RemoteError {
    RemoteError::Failed(format!("rpc error: code = Unavailable desc = {message}"))
}

/// A gRPC code as Go names it.
fn code_name(code: tonic::Code) -> String {
    match code {
        tonic::Code::Cancelled => "Canceled".into(),
        other => format!("{other:?}"),
    }
}

async fn connect(authority: &str, target: &str, wait: Duration) -> Result<Channel, RemoteError> {
    let endpoint = Endpoint::from_shared(format!("http://{authority}"))
        .map_err(|e| unavailable(format!("invalid target {target:?}: {e}")))?
        .connect_timeout(wait.max(Duration::from_millis(100)));
    let started = Instant::now();
    loop {
        match endpoint.connect().await {
            Ok(channel) => return Ok(channel),
            Err(e) if started.elapsed() >= wait => {
                return Err(unavailable(format!(
                    "cannot connect to {target}: {}",
                    service::source_text(&e)
                )));
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

impl Remote for GrpcRemote {
    fn run(
        &mut self,
        target: &str,
        request: &RunFunctionRequest,
        deadline: Option<Instant>,
    ) -> Result<RunFunctionResponse, RemoteError> {
        let authority = parse_target(target)
            .map_err(|e| unavailable(format!("invalid target {target:?}: {e}")))?;
        let request = convert::request_to_pb(request)
            .map_err(|e| RemoteError::Failed(format!("cannot encode the request: {e}")))?;
        let remaining = match deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(RemoteError::DeadlineExceeded);
                }
                left
            }
            // No deadline: a long one, so a hung function still ends.
            None => Duration::from_secs(24 * 3600),
        };
        if self.runtime.is_none() {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| unavailable(format!("cannot start the gRPC client: {e}")))?;
            self.runtime = Some(runtime);
        }
        let runtime = self.runtime.as_ref().expect("set above");
        let cached = self.channels.get(&authority).cloned();
        let wait = self.connect_wait.min(remaining);
        let outcome = runtime.block_on(async {
            tokio::time::timeout(remaining, async {
                let channel = match cached {
                    Some(channel) => channel,
                    None => connect(&authority, target, wait).await?,
                };
                let response = service::call_on(channel.clone(), target, request)
                    .await
                    .map_err(|e| match e {
                        CallError::Status { code, message } => RemoteError::Failed(format!(
                            "rpc error: code = {} desc = {message}",
                            code_name(code)
                        )),
                        other => unavailable(other.to_string()),
                    })?;
                Ok::<_, RemoteError>((channel, response))
            })
            .await
        });
        match outcome {
            Err(_elapsed) => Err(RemoteError::DeadlineExceeded),
            Ok(Err(e)) => Err(e),
            Ok(Ok((channel, response))) => {
                self.channels.insert(authority, channel);
                Ok(convert::response_from_pb(&response))
            }
        }
    }
}

#[cfg(test)]
mod tests;
