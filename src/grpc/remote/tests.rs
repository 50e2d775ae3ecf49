use super::*;
use crate::grpc::pb;
use crate::grpc::service::{CallScope, FunctionService, Handler, V1};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn targets_are_read_as_grpc_reads_them() {
    for (target, want) in [
        ("localhost:9443", "localhost:9443"),
        ("dns:///example.org:7443", "example.org:7443"),
        ("dns://8.8.8.8/example.org:7443", "example.org:7443"),
        ("dns:example.org:7443", "example.org:7443"),
        ("passthrough:///127.0.0.1:1", "127.0.0.1:1"),
        ("ipv4:127.0.0.1:9443,127.0.0.2:9443", "127.0.0.1:9443"),
        ("ipv6:[::1]:9443", "[::1]:9443"),
        ("example.org", "example.org:443"),
        ("[::1]", "[::1]:443"),
        ("::1", "[::1]:443"),
    ] {
        assert_eq!(parse_target(target).as_deref(), Ok(want), "{target}");
    }
    for bad in [
        "",
        "unix:///tmp/fn.sock",
        "http://localhost:9443",
        "dns://resolver",
    ] {
        assert!(parse_target(bad).is_err(), "{bad}");
    }
}

/// A server on its own runtime (the client blocks on another), on a free loopback port.
struct Server {
    addr: SocketAddr,
    _runtime: tokio::runtime::Runtime,
    _stop: tokio::sync::oneshot::Sender<()>,
}

fn serve(handler: Arc<Handler>) -> Server {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    runtime.spawn(async move {
        tonic::transport::Server::builder()
            .add_service(FunctionService::<V1>::new(handler))
            .serve_with_incoming_shutdown(
                tokio_stream::wrappers::TcpListenerStream::new(listener),
                async {
                    let _ = stopped.await;
                },
            )
            .await
            .unwrap();
    });
    Server {
        addr,
        _runtime: runtime,
        _stop: stop,
    }
}

fn request() -> RunFunctionRequest {
    serde_json::from_value(serde_json::json!({
        "meta": {"capabilities": ["CAPABILITY_REQUIRED_RESOURCES"]},
        "observed": {"composite": {"resource": {"kind": "XR", "spec": {"n": 1}}}},
        "context": {"k": "v"},
    }))
    .unwrap()
}

/// The server sees the request the render built; the render gets the server's answer; one
/// connection serves every call to a target.
#[test]
fn calls_reach_the_target_and_come_back() {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    let server = serve(Arc::new(
        move |request: pb::RunFunctionRequest, _: &CallScope| {
            seen.fetch_add(1, Ordering::SeqCst);
            let request = convert::request_from_pb(&request);
            let mut response = RunFunctionResponse {
                context: request.context.clone(),
                ..RunFunctionResponse::default()
            };
            response.results.push(crate::eval::proto::FunctionResult {
                severity: "SEVERITY_NORMAL".into(),
                message: format!(
                    "n={} caps={}",
                    request.observed.composite.unwrap().resource.unwrap()["spec"]["n"],
                    request.meta.unwrap().capabilities.join(",")
                ),
                ..Default::default()
            });
            convert::response_to_pb(&response).map_err(|e| tonic::Status::internal(e.to_string()))
        },
    ));
    let mut remote = GrpcRemote::new();
    let target = format!("dns:///{}", server.addr);
    for _ in 0..3 {
        let response = remote
            .run(
                &target,
                &request(),
                Some(Instant::now() + Duration::from_secs(10)),
            )
            .unwrap();
        assert_eq!(
            response.results[0].message,
            "n=1 caps=CAPABILITY_REQUIRED_RESOURCES"
        );
        assert_eq!(response.context, Some(serde_json::json!({"k": "v"})));
    }
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    assert_eq!(remote.channels.len(), 1);
}

/// A function's gRPC error is the render's, as crossplane prints it.
#[test]
fn a_status_from_the_function_is_an_rpc_error() {
    let server = serve(Arc::new(|_, _: &CallScope| {
        Err(tonic::Status::internal("it broke"))
    }));
    let e = GrpcRemote::new()
        .run(&server.addr.to_string(), &request(), None)
        .unwrap_err();
    assert_eq!(
        e,
        RemoteError::Failed("rpc error: code = Internal desc = it broke".into())
    );
}

/// Nothing listening: a clear error naming the target once the short retry is over — not a
/// wait for the whole deadline.
#[test]
fn an_unreachable_target_fails_quickly_naming_it() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let target = format!("127.0.0.1:{port}");
    let e = GrpcRemote::with_connect_wait(Duration::from_millis(300))
        .run(
            &target,
            &request(),
            Some(Instant::now() + Duration::from_secs(60)),
        )
        .unwrap_err();
    let RemoteError::Failed(message) = e else {
        panic!("{e:?}")
    };
    assert!(
        message.starts_with(&format!(
            "rpc error: code = Unavailable desc = cannot connect to {target}: "
        )),
        "{message}"
    );
    assert!(message.to_lowercase().contains("refused"), "{message}");
}

/// A function slower than the render's deadline: `DeadlineExceeded`, as crossplane's context
/// deadline ends the call.
#[test]
fn a_slow_function_runs_into_the_deadline() {
    let server = serve(Arc::new(|_, _: &CallScope| {
        std::thread::sleep(Duration::from_secs(2));
        Ok(pb::RunFunctionResponse::default())
    }));
    let e = GrpcRemote::new()
        .run(
            &server.addr.to_string(),
            &request(),
            Some(Instant::now() + Duration::from_millis(300)),
        )
        .unwrap_err();
    assert_eq!(e, RemoteError::DeadlineExceeded);
    // A deadline already past fails before any connection is tried.
    let e = GrpcRemote::new()
        .run("127.0.0.1:1", &request(), Some(Instant::now()))
        .unwrap_err();
    assert_eq!(e, RemoteError::DeadlineExceeded);
}

/// A render sends and receives values nested past prost's default limit (about 31 objects)
/// and up to 1,000 levels; a function answering deeper gets an error, not a crash.
#[test]
fn deep_values_reach_a_remote_function_and_come_back() {
    let server = serve(Arc::new(
        |request: pb::RunFunctionRequest, _: &CallScope| {
            // The function echoes the XR's spec into the context.
            let request = convert::request_from_pb(&request);
            let spec = request.observed.composite.unwrap().resource.unwrap()["spec"].clone();
            let response = RunFunctionResponse {
                context: Some(serde_json::json!({ "spec": spec })),
                ..RunFunctionResponse::default()
            };
            convert::response_to_pb(&response).map_err(|e| tonic::Status::internal(e.to_string()))
        },
    ));
    let nested = |depth: usize| {
        let mut value = serde_json::json!(1);
        for _ in 0..depth {
            value = serde_json::json!({ "a": value });
        }
        value
    };
    let with_spec = |spec: serde_json::Value| {
        let mut request = request();
        request
            .observed
            .composite
            .as_mut()
            .unwrap()
            .resource
            .as_mut()
            .unwrap()["spec"] = spec;
        request
    };
    let mut remote = GrpcRemote::new();
    let target = server.addr.to_string();
    let deadline = || Some(Instant::now() + Duration::from_secs(20));
    let response = remote
        .run(&target, &with_spec(nested(400)), deadline())
        .unwrap();
    assert_eq!(response.context.unwrap()["spec"], nested(400));
    // The request itself is too deep: the function refuses it.
    let e = remote
        .run(&target, &with_spec(nested(1200)), deadline())
        .unwrap_err();
    assert!(
        matches!(&e, RemoteError::Failed(m) if m.contains("InvalidArgument")),
        "{e:?}"
    );
}
