//! `FunctionRunnerService/RunFunction` over gRPC with tonic, without generated code: a client
//! that calls a function at a target (v1, falling back to v1beta1 on `Unimplemented` as
//! Crossplane does) and a server that answers both package names with one handler.

use super::codec::DepthCodec;
use super::pb;
use std::convert::Infallible;
use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tonic::codegen::{BoxFuture, Service, http};
use tonic::server::NamedService;

/// The v1 service's name.
pub const V1_SERVICE: &str = "apiextensions.fn.proto.v1.FunctionRunnerService";
/// The v1beta1 service's name (Crossplane ≤ 1.16 calls it; later ones fall back to it).
pub const V1BETA1_SERVICE: &str = "apiextensions.fn.proto.v1beta1.FunctionRunnerService";

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The target is not a usable address.
    #[error("invalid target {target:?}: {message}")]
    Target {
        /// The target as given.
        target: String,
        /// Why.
        message: String,
    },
    /// No connection could be made within the time allowed.
    #[error("cannot connect to {target}: {message}")]
    Connect {
        /// The target.
        target: String,
        /// Why.
        message: String,
    },
    /// The function answered with a gRPC error (or the deadline passed).
    #[error("rpc error: code = {code:?} desc = {message}")]
    Status {
        /// The gRPC code.
        code: tonic::Code,
        /// Its message.
        message: String,
    },
}

impl From<tonic::Status> for CallError {
    fn from(status: tonic::Status) -> Self {
        CallError::Status {
            code: status.code(),
            message: status.message().to_string(),
        }
    }
}

/// Calls `RunFunction` at `target` (`host:port`, plaintext, as `crossplane render` dials a
/// Development-runtime function), within `timeout` for the connection and the call together.
pub async fn call(
    target: &str,
    request: pb::RunFunctionRequest,
    timeout: Duration,
) -> Result<pb::RunFunctionResponse, CallError> {
    call_with(target, None, request, timeout).await
}

/// As [`call`], over TLS with `tls` (a CA to trust, and a client certificate for mutual TLS)
/// when given.
pub async fn call_with(
    target: &str,
    tls: Option<tonic::transport::ClientTlsConfig>,
    request: pb::RunFunctionRequest,
    timeout: Duration,
) -> Result<pb::RunFunctionResponse, CallError> {
    let scheme = if tls.is_some() { "https" } else { "http" };
    let bad_target = |message: String| CallError::Target {
        target: target.to_string(),
        message,
    };
    let mut endpoint = tonic::transport::Endpoint::from_shared(format!("{scheme}://{target}"))
        .map_err(|e| bad_target(e.to_string()))?
        .connect_timeout(timeout)
        .timeout(timeout);
    if let Some(tls) = tls {
        endpoint = endpoint
            .tls_config(tls)
            .map_err(|e| bad_target(source_text(&e)))?;
    }
    let channel = endpoint.connect().await.map_err(|e| CallError::Connect {
        target: target.to_string(),
        message: source_text(&e),
    })?;
    call_on(channel, target, request).await
}

/// Calls `RunFunction` on a connected `channel` (to `target`, for messages): v1, then v1beta1
/// when the server does not implement v1.
pub async fn call_on(
    channel: tonic::transport::Channel,
    target: &str,
    request: pb::RunFunctionRequest,
) -> Result<pb::RunFunctionResponse, CallError> {
    let mut grpc = tonic::client::Grpc::new(channel);
    let mut last = None;
    for service in [V1_SERVICE, V1BETA1_SERVICE] {
        grpc.ready().await.map_err(|e| CallError::Connect {
            target: target.to_string(),
            message: source_text(&e),
        })?;
        let path = http::uri::PathAndQuery::try_from(format!("/{service}/RunFunction"))
            .expect("a constant path");
        let codec: DepthCodec<pb::RunFunctionRequest, pb::RunFunctionResponse> =
            DepthCodec::default();
        match grpc
            .unary(tonic::Request::new(request.clone()), path, codec)
            .await
        {
            Ok(response) => return Ok(response.into_inner()),
            Err(status) if status.code() == tonic::Code::Unimplemented => last = Some(status),
            Err(status) => return Err(status.into()),
        }
    }
    Err(last
        .map(CallError::from)
        .unwrap_or_else(|| CallError::Status {
            code: tonic::Code::Unimplemented,
            message: "no FunctionRunnerService".into(),
        }))
}

/// An error and its causes, as one line.
pub(crate) fn source_text(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        // hyper and tonic repeat a cause in their own message: say each once.
        let cause = s.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
        source = s.source();
    }
    text
}

/// What a server does with one request, within its call.
pub type Handler = dyn Fn(pb::RunFunctionRequest, &CallScope) -> Result<pb::RunFunctionResponse, tonic::Status>
    + Send
    + Sync;

/// The call a request came with: when its caller stops waiting, and a flag raised when the
/// call is abandoned (the caller went away, the deadline passed in the transport, the server
/// is stopping), for the handler's work to stop at.
#[derive(Debug, Clone)]
pub struct CallScope {
    /// The caller's deadline (`grpc-timeout`), if it sent one.
    pub deadline: Option<Instant>,
    /// Raised once nobody waits for the answer any more.
    pub cancel: Arc<AtomicBool>,
}

impl CallScope {
    /// A call without a deadline, never abandoned (tests, benches).
    pub fn unbounded() -> CallScope {
        CallScope {
            deadline: None,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// A `grpc-timeout` header's duration (`1S`, `250m`, `20u`: at most 8 digits and a unit);
/// `None` when malformed, as gRPC servers ignore a malformed one.
pub fn grpc_timeout(text: &str) -> Option<Duration> {
    let unit = text.chars().last()?;
    let digits = &text[..text.len() - unit.len_utf8()];
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        'H' => Duration::from_secs(n * 3600),
        'M' => Duration::from_secs(n * 60),
        'S' => Duration::from_secs(n),
        'm' => Duration::from_millis(n),
        'u' => Duration::from_micros(n),
        'n' => Duration::from_nanos(n),
        _ => return None,
    })
}

/// Raises the flag when dropped: the future of a call is dropped when its caller goes away,
/// and with it the evaluation on the blocking thread is told to stop.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The package a [`FunctionService`] answers for.
pub trait Package: Send + Sync + 'static {
    /// The service's full name.
    const NAME: &'static str;
}

/// `apiextensions.fn.proto.v1`.
#[derive(Debug, Clone, Copy)]
pub struct V1;
impl Package for V1 {
    const NAME: &'static str = V1_SERVICE;
}

/// `apiextensions.fn.proto.v1beta1` (the same messages).
#[derive(Debug, Clone, Copy)]
pub struct V1Beta1;
impl Package for V1Beta1 {
    const NAME: &'static str = V1BETA1_SERVICE;
}

/// A `FunctionRunnerService` for one package name, answering with a shared handler.
pub struct FunctionService<P> {
    handler: Arc<Handler>,
    package: PhantomData<P>,
}

impl<P> Clone for FunctionService<P> {
    fn clone(&self) -> Self {
        FunctionService {
            handler: Arc::clone(&self.handler),
            package: PhantomData,
        }
    }
}

impl<P: Package> FunctionService<P> {
    /// A service answering with `handler`.
    pub fn new(handler: Arc<Handler>) -> Self {
        FunctionService {
            handler,
            package: PhantomData,
        }
    }
}

impl<P: Package> NamedService for FunctionService<P> {
    const NAME: &'static str = P::NAME;
}

/// The unary method, as tonic's server drives it.
struct RunFunction(Arc<Handler>);

impl tonic::server::UnaryService<pb::RunFunctionRequest> for RunFunction {
    type Response = pb::RunFunctionResponse;
    type Future = BoxFuture<tonic::Response<Self::Response>, tonic::Status>;

    fn call(&mut self, request: tonic::Request<pb::RunFunctionRequest>) -> Self::Future {
        let handler = Arc::clone(&self.0);
        let deadline = request
            .metadata()
            .get("grpc-timeout")
            .and_then(|value| value.to_str().ok())
            .and_then(grpc_timeout)
            .and_then(|timeout| Instant::now().checked_add(timeout));
        let scope = CallScope {
            deadline,
            cancel: Arc::new(AtomicBool::new(false)),
        };
        let guard = CancelOnDrop(Arc::clone(&scope.cancel));
        Box::pin(async move {
            // Dropped with this future: when the caller resets the stream or disconnects.
            let _guard = guard;
            // Evaluation is CPU work: keep it off the threads that serve connections.
            let response =
                tokio::task::spawn_blocking(move || handler(request.into_inner(), &scope))
                    .await
                    .map_err(|e| tonic::Status::internal(format!("the function panicked: {e}")))?;
            response.map(tonic::Response::new)
        })
    }
}

impl<P: Package, B> Service<http::Request<B>> for FunctionService<P>
where
    B: tonic::codegen::Body + Send + 'static,
    B::Error: Into<tonic::codegen::StdError> + Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let handler = Arc::clone(&self.handler);
        let is_run = request
            .uri()
            .path()
            .strip_prefix('/')
            .and_then(|p| p.strip_prefix(P::NAME))
            == Some("/RunFunction");
        Box::pin(async move {
            if !is_run {
                return Ok(tonic::Status::unimplemented("unknown method").into_http());
            }
            let codec: DepthCodec<pb::RunFunctionResponse, pb::RunFunctionRequest> =
                DepthCodec::default();
            let mut grpc = tonic::server::Grpc::new(codec);
            Ok(grpc.unary(RunFunction(handler), request).await)
        })
    }
}

#[cfg(test)]
mod tests;
