//! Mixed pipelines: `fnhcl render` runs function-hcl steps natively and calls the other
//! functions over gRPC (crossplane render's Development runtime); `fnhcl function serve`
//! answers a client nobody here wrote. Servers listen on free loopback ports, every wait is
//! bounded, and every server a test starts is stopped when it ends (pass or fail).
//!
//! The function-pythonic tests need PyPI's `crossplane-function-pythonic` (which brings the
//! Python function SDK): `function-pythonic` on PATH, or `FNHCL_PYTHONIC` naming it. Without
//! it they are skipped with a notice.

use fnhcl::eval::proto::{
    Condition, FunctionResult, ResourceSelector, Resources, RunFunctionRequest, RunFunctionResponse,
};
use fnhcl::grpc::convert;
use fnhcl::grpc::pb;
use fnhcl::grpc::service::{CallScope, FunctionService, Handler, V1};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pipelines")
        .join(name)
}

/// `fnhcl` in the fixture folder with a fixed, colourless environment.
fn fnhcl() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fnhcl"));
    cmd.current_dir(data(""))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env("COLUMNS", "100")
        .stdin(Stdio::null());
    cmd
}

/// `fnhcl render XR SOURCE FUNCTIONS ARGS…` in the fixture folder.
fn render(source: &str, functions: &str, args: &[&str]) -> Output {
    fnhcl()
        .args(["render", "xr.yaml", source, functions])
        .args(args)
        .output()
        .expect("fnhcl runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn transcript(out: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// The transcript with a test's port replaced, for snapshots.
fn stable(out: &Output, addr: &str) -> String {
    transcript(out).replace(addr, "127.0.0.1:PORT")
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/pipelines", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// A function served by the test on its own runtime; stopped when dropped.
struct Server {
    addr: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // A handler still sleeping (the timeout test) is not waited for.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
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
        let _ = tonic::transport::Server::builder()
            .add_service(FunctionService::<V1>::new(handler))
            .serve_with_incoming_shutdown(
                tokio_stream::wrappers::TcpListenerStream::new(listener),
                async {
                    let _ = stopped.await;
                },
            )
            .await;
    });
    Server {
        addr,
        runtime: Some(runtime),
        stop: Some(stop),
    }
}

/// A function written for this test, doing what real functions after function-hcl do: it asks
/// for a resource through the requirements loop (`requirements.resources`) until it has it,
/// then marks every desired composed resource ready (as function-auto-ready does), adds one of
/// its own, a status field, a result, a condition and a context key. Every request it receives
/// is kept for the test to inspect.
fn remote_function(seen: Arc<Mutex<Vec<RunFunctionRequest>>>) -> Arc<Handler> {
    Arc::new(move |request: pb::RunFunctionRequest, _: &CallScope| {
        let request = convert::request_from_pb(&request);
        seen.lock().unwrap().push(request.clone());
        let mut desired = request.desired.clone().unwrap_or_default();
        let mut context = request.context.clone().unwrap_or_default();
        let mut response = RunFunctionResponse {
            requirements: Some(fnhcl::eval::proto::Requirements {
                resources: [(
                    "quota".to_string(),
                    ResourceSelector {
                        api_version: "v1".into(),
                        kind: "ConfigMap".into(),
                        match_labels: Some(fnhcl::eval::proto::MatchLabels {
                            labels: [("team".to_string(), "storage".to_string())].into(),
                        }),
                        ..ResourceSelector::default()
                    },
                )]
                .into(),
                ..Default::default()
            }),
            ..RunFunctionResponse::default()
        };
        let quota = request.required_resources.get("quota");
        if let Some(Resources { items }) = quota {
            let value = |r: &str, pointer: &str| {
                request
                    .required_resources
                    .get(r)
                    .and_then(|rs| rs.items.first())
                    .and_then(|i| i.resource.as_ref())
                    .and_then(|o| o.pointer(pointer))
                    .cloned()
                    .unwrap_or_default()
            };
            for resource in desired.resources.values_mut() {
                resource.ready = Some("READY_TRUE".into());
            }
            desired.resources.insert(
                "policy".into(),
                fnhcl::eval::proto::Resource::of(serde_json::json!({
                    "apiVersion": "s3.aws.upbound.io/v1beta1",
                    "kind": "BucketPolicy",
                    "spec": {"forProvider": {
                        "tier": value("settings", "/data/tier"),
                        "buckets": value("quota", "/data/buckets"),
                        "quotas": items.len(),
                        "note": request.input.as_ref().and_then(|i| i.get("note")).cloned(),
                    }},
                })),
            );
            if let Some(composite) = desired.composite.as_mut()
                && let Some(serde_json::Value::Object(xr)) = composite.resource.as_mut()
                && let Some(serde_json::Value::Object(status)) = xr.get_mut("status")
            {
                status.insert("policies".into(), serde_json::json!(1));
            }
            response.results.push(FunctionResult {
                severity: "SEVERITY_NORMAL".into(),
                message: format!("{} desired resources are ready", desired.resources.len()),
                ..Default::default()
            });
            response.conditions.push(Condition {
                kind: "PolicyApplied".into(),
                status: "STATUS_CONDITION_TRUE".into(),
                reason: "Available".into(),
                message: Some("the policy is composed".into()),
                target: None,
            });
            if let serde_json::Value::Object(fields) = &mut context {
                fields.insert("example.org/remote".into(), serde_json::json!("done"));
            }
        }
        response.desired = Some(desired);
        response.context = Some(context);
        convert::response_to_pb(&response).map_err(|e| tonic::Status::internal(e.to_string()))
    })
}

fn target_flag(addr: &SocketAddr) -> String {
    format!("render.crossplane.io/runtime-development-target={addr}")
}

/// The two-step pipeline: function-hcl's desired state reaches the remote function, the
/// requirements loop runs over gRPC (bootstrap requirement first, then what the function asks
/// for), and the output combines both steps as crossplane render combines them.
#[test]
fn a_two_step_pipeline_runs_hcl_natively_and_the_other_function_over_grpc() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let server = serve(remote_function(Arc::clone(&seen)));
    let out = render(
        "composition.yaml",
        "functions.yaml",
        &[
            "-e",
            "extra.yaml",
            "-r",
            "-c",
            "-a",
            &target_flag(&server.addr),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("two_step_pipeline", stable(&out, &server.addr.to_string()));

    let seen = seen.lock().unwrap();
    // The bootstrap requirement on the first call, the asked-for resources on the second.
    assert_eq!(seen.len(), 2, "{seen:#?}");
    let first = &seen[0];
    assert_eq!(
        first.meta.as_ref().unwrap().capabilities,
        [
            "CAPABILITY_CAPABILITIES",
            "CAPABILITY_REQUIRED_RESOURCES",
            "CAPABILITY_CREDENTIALS",
            "CAPABILITY_CONDITIONS",
            "CAPABILITY_REQUIRED_SCHEMAS"
        ]
    );
    assert_eq!(
        first.required_resources.keys().collect::<Vec<_>>(),
        ["settings"]
    );
    assert_eq!(
        first
            .desired
            .as_ref()
            .unwrap()
            .resources
            .keys()
            .collect::<Vec<_>>(),
        ["bucket"],
        "function-hcl's desired state is passed on"
    );
    assert_eq!(
        first
            .observed
            .composite
            .as_ref()
            .unwrap()
            .resource
            .as_ref()
            .unwrap()["spec"]["region"],
        "us-east-2"
    );
    let second = &seen[1];
    assert_eq!(
        second.required_resources.keys().collect::<Vec<_>>(),
        ["quota", "settings"]
    );
    assert_eq!(second.required_resources["quota"].items.len(), 1);
}

/// A function that asks for schemas: its bootstrap `requiredSchemas` entry comes with the
/// first call, and what it asks for in `requirements.schemas` with the next; a kind no
/// document of `-s` has comes back empty (crossplane's fetchers answer so).
fn schema_function(seen: Arc<Mutex<Vec<RunFunctionRequest>>>) -> Arc<Handler> {
    Arc::new(move |request: pb::RunFunctionRequest, _: &CallScope| {
        let request = convert::request_from_pb(&request);
        seen.lock().unwrap().push(request.clone());
        let ask = |api_version: &str, kind: &str| fnhcl::eval::proto::SchemaSelector {
            api_version: api_version.into(),
            kind: kind.into(),
        };
        let response = RunFunctionResponse {
            desired: request.desired.clone(),
            context: request.context.clone(),
            requirements: Some(fnhcl::eval::proto::Requirements {
                schemas: [
                    ("deployment".to_string(), ask("apps/v1", "Deployment")),
                    ("missing".to_string(), ask("example.org/v1", "Nothing")),
                ]
                .into(),
                ..Default::default()
            }),
            ..RunFunctionResponse::default()
        };
        convert::response_to_pb(&response).map_err(|e| tonic::Status::internal(e.to_string()))
    })
}

/// `-s/--required-schemas` over gRPC, in both dialects: the schemas reach the remote function
/// as `openapiV3` structs, references expanded.
#[test]
fn required_schemas_reach_a_remote_function() {
    for version in ["2.2", "2.5"] {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let server = serve(schema_function(Arc::clone(&seen)));
        let out = render(
            "composition-schemas.yaml",
            "functions.yaml",
            &[
                "-e",
                "extra.yaml",
                "-s",
                "schemas",
                "--crossplane-version",
                version,
                "-a",
                &target_flag(&server.addr),
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 2, "{seen:#?}");
        let schema = |call: usize, name: &str| {
            seen[call].required_schemas[name]
                .openapi_v3
                .clone()
                .unwrap_or_default()
        };
        assert_eq!(
            seen[0].required_schemas.keys().collect::<Vec<_>>(),
            ["configmap"]
        );
        // apps-v1.json sorts first and its DeleteOptions names core `v1` among its kinds: the
        // engine serves all of `v1` from that document, where ConfigMap is not (as crossplane's
        // in-memory OpenAPI client does); the classic fetcher searches every document.
        let configmap = schema(0, "configmap");
        if version == "2.2" {
            assert_eq!(
                configmap["description"], "ConfigMap holds configuration data for pods to consume.",
                "{version}"
            );
        } else {
            assert_eq!(configmap, serde_json::Value::Null, "{version}");
        }
        assert_eq!(
            seen[1].required_schemas.keys().collect::<Vec<_>>(),
            ["configmap", "deployment", "missing"]
        );
        let deployment = schema(1, "deployment");
        assert_eq!(
            deployment["properties"]["metadata"],
            serde_json::json!({"type": "object", "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}}}),
            "the allOf-wrapped reference is expanded"
        );
        assert_eq!(
            deployment["properties"]["spec"]["properties"]["replicas"]["format"],
            "int32"
        );
        assert_eq!(seen[1].required_schemas["missing"].openapi_v3, None);
    }
}

/// A folder without JSON files fails the render before any step runs, in crossplane's words.
#[test]
fn a_required_schemas_folder_without_json_is_an_error() {
    let empty = tempfile::tempdir().unwrap();
    let out = render(
        "composition.yaml",
        "functions.yaml",
        &["-s", empty.path().to_str().unwrap()],
    );
    assert_ne!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("I025"), "{stderr}");
    assert!(
        stderr.contains("cannot load required schemas from"),
        "{stderr}"
    );
    assert!(stderr.contains("no JSON files found"), "{stderr}");
}

/// A function that is not running: a clear error naming the step and the target, quickly —
/// not a wait for the whole --timeout.
#[test]
fn an_unreachable_function_is_an_error_naming_the_step_and_the_target() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let addr = format!("127.0.0.1:{port}");
    let out = render(
        "composition.yaml",
        "functions.yaml",
        &[
            "-e",
            "extra.yaml",
            "-a",
            &format!("render.crossplane.io/runtime-development-target={addr}"),
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(out.stdout.is_empty());
    let report: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    let diagnostic = &report["diagnostics"][0];
    let message = diagnostic["summary"]
        .as_str()
        .unwrap()
        .replace(&addr, "127.0.0.1:PORT");
    assert_eq!(
        message,
        "cannot render composite resource: cannot run pipeline step \"remote\": rpc error: code = Unavailable desc = cannot connect to 127.0.0.1:PORT: transport error: tcp connect error: Connection refused (os error 111)",
    );
    let help = diagnostic["help"].as_str().unwrap();
    assert!(
        help.contains("function \"function-remote\" runs outside fnhcl") && help.contains(&addr),
        "{help}"
    );
}

/// A function slower than --timeout: crossplane's deadline error, and a hint naming the target.
#[test]
fn a_function_slower_than_the_timeout_runs_into_it() {
    let server = serve(Arc::new(|_, _: &CallScope| {
        std::thread::sleep(Duration::from_secs(5));
        Ok(pb::RunFunctionResponse::default())
    }));
    let started = Instant::now();
    let out = render(
        "composition.yaml",
        "functions.yaml",
        &["--timeout", "500ms", "-a", &target_flag(&server.addr)],
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the deadline held"
    );
    snapshot!("timeout", stable(&out, &server.addr.to_string()));
}

/// A step whose function would run in Docker says which annotation or flag lets fnhcl run it;
/// an unknown runtime is refused as crossplane refuses it; a malformed -a is a usage error.
#[test]
fn steps_fnhcl_cannot_run_say_how_to_run_them() {
    let docker = render("pythonic-composition.yaml", "docker-functions.yaml", &[]);
    snapshot!("needs_docker", transcript(&docker));
    let unknown = render(
        "composition.yaml",
        "functions.yaml",
        &["-a", "render.crossplane.io/runtime=Podman"],
    );
    snapshot!("unknown_runtime", transcript(&unknown));
    let malformed = render(
        "composition.yaml",
        "functions.yaml",
        &["-a", "render.crossplane.io/runtime"],
    );
    assert_eq!(
        malformed.status.code(),
        Some(2),
        "{}",
        transcript(&malformed)
    );
    snapshot!("malformed_annotation", transcript(&malformed));
}

// ---------------------------------------------------------------------------------------------
// function-pythonic

/// `function-pythonic`, when installed.
fn pythonic() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("FNHCL_PYTHONIC") {
        return Some(PathBuf::from(path));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join("function-pythonic"))
        .find(|p| p.is_file())
}

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Waits (at most 30 s) until something accepts connections at `addr`.
fn wait_for_port(addr: &str, child: &mut Child) {
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        if std::net::TcpStream::connect(addr).is_ok() {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the server exited before listening: {status}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("nothing listened on {addr} within 30 s");
}

/// function-hcl natively, then the real function-pythonic over gRPC, in one render.
#[test]
fn a_pipeline_with_function_pythonic() {
    let Some(pythonic) = pythonic() else {
        eprintln!(
            "function-pythonic not found: skipped (pip install crossplane-function-pythonic, see docs/development.md)"
        );
        return;
    };
    let addr = format!("127.0.0.1:{}", free_port());
    let mut server = Killed(
        Command::new(&pythonic)
            .args(["--insecure", "--address", &addr])
            // pythonic's default step name hashes the script; a fixed seed keeps it stable.
            .env("PYTHONHASHSEED", "0")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("function-pythonic starts"),
    );
    wait_for_port(&addr, &mut server.0);
    let out = render(
        "pythonic-composition.yaml",
        "pythonic-functions.yaml",
        &[
            "-r",
            "-c",
            "-a",
            &format!("render.crossplane.io/runtime-development-target={addr}"),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("pythonic", text(&out.stdout));
}

/// `fnhcl function serve`, called by the Python function SDK's generated gRPC client: the
/// response is what `fnhcl function run` prints for the same request.
#[test]
fn function_serve_answers_the_python_sdk_client_as_function_run_does() {
    let Some(pythonic) = pythonic() else {
        eprintln!(
            "function-pythonic not found (it brings the Python function SDK): skipped (pip install crossplane-function-pythonic, see docs/development.md)"
        );
        return;
    };
    let python = pythonic.with_file_name("python");
    assert!(python.is_file(), "no python beside {}", pythonic.display());
    let request = request_with_bundle(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval/merge-with-upstream"),
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("request.json"), &request).unwrap();

    let addr = format!("127.0.0.1:{}", free_port());
    let mut server = Killed(
        Command::new(env!("CARGO_BIN_EXE_fnhcl"))
            .args(["function", "serve", "--insecure", "--address", &addr])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for_port(&addr, &mut server.0);
    // The SDK's generated stub, protojson both ways (as the SDK's own tools print messages).
    let script = r#"
import sys, grpc
from google.protobuf import json_format
from crossplane.function.proto.v1 import run_function_pb2 as pb, run_function_pb2_grpc as rpc
request = json_format.Parse(open(sys.argv[2]).read(), pb.RunFunctionRequest())
with grpc.insecure_channel(sys.argv[1]) as channel:
    response = rpc.FunctionRunnerServiceStub(channel).RunFunction(request, timeout=30)
print(json_format.MessageToJson(response))
"#;
    let called = Command::new(&python)
        .args(["-c", script, &addr])
        .arg(dir.path().join("request.json"))
        .output()
        .unwrap();
    assert_eq!(called.status.code(), Some(0), "{}", transcript(&called));
    let over_grpc: serde_json::Value = serde_json::from_slice(&called.stdout).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .args(["function", "run", "--request"])
        .arg(dir.path().join("request.json"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", transcript(&run));
    let direct: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    // Python's protojson writes a Struct's doubles as `3.0`, Go's as `3`: the same numbers.
    assert_eq!(as_doubles(&over_grpc), as_doubles(&direct));
    assert!(
        over_grpc["desired"]["resources"]
            .as_object()
            .is_some_and(|r| !r.is_empty()),
        "{over_grpc:#}"
    );
}

/// Every number as a double, as a protobuf Struct holds it.
fn as_doubles(json: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match json {
        Value::Number(n) => serde_json::json!(n.as_f64().unwrap()),
        Value::Array(items) => Value::Array(items.iter().map(as_doubles).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), as_doubles(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// One of our eval cases as a request function-hcl reads whole: its `main.hcl` as the input's
/// inline bundle.
fn request_with_bundle(case: &Path) -> String {
    let mut request: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(case.join("request.json")).unwrap()).unwrap();
    let hcl = std::fs::read_to_string(case.join("main.hcl")).unwrap();
    request["input"] = serde_json::json!({
        "apiVersion": "hcl.fn.crossplane.io/v1beta1",
        "kind": "HclInput",
        "hcl": format!("-- main.hcl --\n{hcl}"),
    });
    request.to_string()
}
