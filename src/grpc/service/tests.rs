use super::*;
use std::net::SocketAddr;

/// Serves `handler` for both package names on a free loopback port; the server stops when
/// the returned sender is dropped or sent to.
async fn serve(
    handler: Arc<Handler>,
    with_v1: bool,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let incoming = tokio_stream_of(listener);
    tokio::spawn(async move {
        tonic::transport::Server::builder()
            .add_optional_service(with_v1.then(|| FunctionService::<V1>::new(Arc::clone(&handler))))
            .add_service(FunctionService::<V1Beta1>::new(handler))
            .serve_with_incoming_shutdown(incoming, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
    });
    (addr, stop)
}

fn tokio_stream_of(
    listener: tokio::net::TcpListener,
) -> impl tokio_stream::Stream<Item = std::io::Result<tokio::net::TcpStream>> {
    tokio_stream::wrappers::TcpListenerStream::new(listener)
}

fn echo_tag() -> Arc<Handler> {
    Arc::new(|request: pb::RunFunctionRequest, _: &CallScope| {
        let tag = request.meta.map(|m| m.tag).unwrap_or_default();
        if tag == "fail" {
            return Err(tonic::Status::invalid_argument("asked to fail"));
        }
        Ok(pb::RunFunctionResponse {
            meta: Some(pb::ResponseMeta {
                tag,
                ttl: Some(prost_types::Duration {
                    seconds: 60,
                    nanos: 0,
                }),
            }),
            results: vec![pb::FunctionResult {
                severity: pb::Severity::Normal as i32,
                message: "ok".into(),
                reason: None,
                target: Some(pb::Target::Composite as i32),
            }],
            ..Default::default()
        })
    })
}

fn request(tag: &str) -> pb::RunFunctionRequest {
    pb::RunFunctionRequest {
        meta: Some(pb::RequestMeta {
            tag: tag.into(),
            capabilities: Vec::new(),
        }),
        ..Default::default()
    }
}

#[test]
fn a_call_reaches_the_server_and_comes_back() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let (addr, stop) = serve(echo_tag(), true).await;
        let target = addr.to_string();
        let response = call(&target, request("t-1"), Duration::from_secs(10))
            .await
            .unwrap();
        assert_eq!(response.meta.unwrap().tag, "t-1");
        assert_eq!(response.results[0].message, "ok");
        // A status from the function is the caller's error, with its code.
        let e = call(&target, request("fail"), Duration::from_secs(10))
            .await
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "rpc error: code = InvalidArgument desc = asked to fail"
        );
        let _ = stop.send(());
    });
}

#[test]
fn an_unreachable_target_is_a_connection_error() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        // A port that was free a moment ago: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let e = call(
            &format!("127.0.0.1:{port}"),
            request("x"),
            Duration::from_secs(5),
        )
        .await
        .unwrap_err();
        assert!(matches!(e, CallError::Connect { .. }), "{e}");
        let e = call("not a target", request("x"), Duration::from_secs(5))
            .await
            .unwrap_err();
        assert!(
            matches!(e, CallError::Target { .. } | CallError::Connect { .. }),
            "{e}"
        );
    });
}

#[test]
fn a_server_with_only_v1beta1_is_called_through_it() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let (addr, stop) = serve(echo_tag(), false).await;
        let response = call(&addr.to_string(), request("old"), Duration::from_secs(10))
            .await
            .unwrap();
        assert_eq!(response.meta.unwrap().tag, "old");
        let _ = stop.send(());
    });
}
