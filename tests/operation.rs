//! `fnhcl operation render`, as `crossplane operation render` (CLI v2.5.0 with engine
//! v2.3.4): the cases of the CLI's `cmd/crossplane/render/op/cmd_test.go` (TestCmdRun) and
//! `load_test.go` (TestLoadOperation), each test naming its upstream case. Upstream runs its
//! command against a mock engine that echoes the Operation; here the real reconcile runs, so
//! the Operation also gets the status the reconciler writes. function-hcl steps run natively;
//! upstream's `function-dummy` is a Function served by the test over gRPC (Development
//! runtime). Snapshots are in `snapshots/cli/`.

use fnhcl::eval::proto::{FunctionResult, Resource, RunFunctionRequest, RunFunctionResponse};
use fnhcl::grpc::convert;
use fnhcl::grpc::pb;
use fnhcl::grpc::service::{CallScope, FunctionService, Handler, V1};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/operation")
}

/// `fnhcl operation render ARGS…` in the fixture folder, colourless.
fn render(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(data())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env("COLUMNS", "100")
        .stdin(Stdio::null())
        .args(["--color", "never", "operation", "render"])
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

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// TestCmdRun "Success": the Operation, then the resource its step applied.
#[test]
fn success_prints_the_operation_then_the_applied_resource() {
    let out = render(&["operation.yaml", "functions.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("operation_render_success", transcript(&out));
}

/// TestCmdRun "IncludeFunctionResults": `-r` adds a `Result` for each of the reconciler's
/// events (the step's results, prefixed with its name, reason `RunPipelineStep`).
#[test]
fn include_function_results_prints_the_reconcilers_events() {
    let out = render(&["operation.yaml", "functions.yaml", "-r"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("operation_render_results", text(&out.stdout));
}

/// TestCmdRun "IncludeFullOperation": `-o` prints the input's spec, which is the engine's.
#[test]
fn include_full_operation_prints_the_same_spec() {
    let plain = render(&["operation.yaml", "functions.yaml"]);
    let full = render(&["operation.yaml", "functions.yaml", "-o"]);
    assert_eq!(full.status.code(), Some(0), "{}", transcript(&full));
    assert_eq!(text(&plain.stdout), text(&full.stdout));
}

/// TestLoadOperation "ValidCronOperation", with `--context-values` and `-c`: the template's
/// Operation under the CronOperation's name, the CLI's context steps around its pipeline.
#[test]
fn a_cron_operation_renders_its_template_with_context() {
    let out = render(&[
        "cronoperation.yaml",
        "functions.yaml",
        "--context-values",
        "example.org/run=\"nightly\"",
        "-c",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("operation_render_cron", transcript(&out));
}

/// TestLoadOperation "ValidWatchOperation" and TestInjectWatchedResource: `-w` adds the
/// watched resource's selector to every step and the resource to the required ones.
#[test]
fn a_watch_operation_gets_the_watched_resource() {
    let out = render(&[
        "watchoperation.yaml",
        "functions.yaml",
        "-w",
        "watched.yaml",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("operation_render_watch", transcript(&out));
}

/// The failures of TestCmdRun and TestLoadOperation, each with the CLI's words.
#[test]
fn load_failures_are_reported_with_the_clis_words() {
    let cases: &[(&str, &[&str])] = &[
        // TestCmdRun "LoadOperationError", TestLoadOperation "FileNotFound".
        ("missing_operation", &["missing.yaml", "functions.yaml"]),
        // TestCmdRun "LoadOperationWrongKind", TestLoadOperation "WrongKind".
        (
            "not_an_operation",
            &["operation-not-op.yaml", "functions.yaml"],
        ),
        // TestCmdRun "LoadRequiredResourcesError", "MultipleRequiredResourcesFirstMissing".
        (
            "missing_required",
            &[
                "operation.yaml",
                "functions.yaml",
                "-e",
                "missing.yaml",
                "-e",
                "watched.yaml",
            ],
        ),
        // TestCmdRun "LoadRequiredSchemasError".
        (
            "missing_schemas",
            &[
                "operation.yaml",
                "functions.yaml",
                "--required-schemas",
                "missing",
            ],
        ),
        // TestCmdRun "LoadWatchedResourceError".
        (
            "missing_watched",
            &["operation.yaml", "functions.yaml", "-w", "missing.yaml"],
        ),
        // TestCmdRun "WatchedResourceNotExactlyOne".
        (
            "watched_multi",
            &[
                "operation.yaml",
                "functions.yaml",
                "-w",
                "watched-multi.yaml",
            ],
        ),
        // TestCmdRun "LoadFunctionsError".
        ("missing_functions", &["operation.yaml", "missing.yaml"]),
        // TestCmdRun "InvalidAnnotationOverride".
        (
            "bad_annotation",
            &["operation.yaml", "functions.yaml", "-a", "not-a-key-value"],
        ),
        // TestCmdRun "LoadFunctionCredentialsError".
        (
            "missing_credentials",
            &[
                "operation.yaml",
                "functions.yaml",
                "--function-credentials",
                "missing.yaml",
            ],
        ),
    ];
    let mut all = String::new();
    for (name, args) in cases {
        let out = render(args);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", transcript(&out));
        assert!(out.stdout.is_empty(), "{name}: {}", transcript(&out));
        all.push_str(&format!("=== {name}\n{}", text(&out.stderr)));
    }
    snapshot!("operation_render_load_failures", all);
}

/// TestLoadOperation "WrongAPIVersion" and "InvalidYAML".
#[test]
fn another_api_version_or_broken_yaml_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("wrong.yaml");
    std::fs::write(
        &wrong,
        "apiVersion: ops.crossplane.io/v1beta1\nkind: Operation\nmetadata:\n  name: test-op\nspec:\n  mode: Pipeline\n",
    )
    .unwrap();
    let broken = dir.path().join("broken.yaml");
    std::fs::write(&broken, "invalid: yaml: content: [").unwrap();
    let out = render(&[wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("not an operation type: Operation/ops.crossplane.io/v1beta1"),
        "{}",
        transcript(&out)
    );
    let out = render(&[broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    let mapping = dir.path().join("mapping.yaml");
    std::fs::write(
        &mapping,
        "apiVersion: ops.crossplane.io/v1alpha1\nkind: Operation\nmetadata:\n  name: test-op\nspec:\n  mode: Pipeline\n  pipeline:\n    step: one\n",
    )
    .unwrap();
    let out = render(&[mapping.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("cannot unmarshal object into Go struct field"),
        "{}",
        transcript(&out)
    );
}

/// The container-only flags are accepted with a warning each, as `render` accepts them.
#[test]
fn container_flags_are_accepted_with_a_warning() {
    let out = render(&[
        "operation.yaml",
        "functions.yaml",
        "--crossplane-version",
        "v2.3.4",
        "--crossplane-binary",
        "/usr/local/bin/crossplane",
        "--max-concurrency",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let stderr = text(&out.stderr);
    for flag in [
        "--crossplane-version",
        "--crossplane-binary",
        "--max-concurrency",
    ] {
        assert!(stderr.contains(&format!("`{flag}` is ignored")), "{stderr}");
    }
}

/// A function-hcl step's fatal result fails the render with no document: for people the
/// function's error at its source, for scripts (`--format crossplane`) the CLI's line.
#[test]
fn a_fatal_result_fails_the_render() {
    let dir = tempfile::tempdir().unwrap();
    let op = dir.path().join("op.yaml");
    std::fs::write(
        &op,
        "apiVersion: ops.crossplane.io/v1alpha1\nkind: Operation\nmetadata:\n  name: broken\nspec:\n  mode: Pipeline\n  pipeline:\n  - step: check\n    functionRef:\n      name: function-hcl\n    input:\n      apiVersion: hcl.fn.crossplane.io/v1beta1\n      kind: HclInput\n      hcl: |\n        -- main.hcl --\n        resource x {\n          condition = \"yes\"\n          body = { apiVersion = \"v1\", kind = \"ConfigMap\", metadata = { name = \"x\" } }\n        }\n",
    )
    .unwrap();
    let out = render(&[op.to_str().unwrap(), "--detailed-exit-code"]);
    assert_eq!(out.status.code(), Some(3), "{}", transcript(&out));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("pipeline step \"check\" returned a fatal result: unable to evaluate")
            && stderr.contains("main.hcl:2:15"),
        "{}",
        transcript(&out)
    );
    let scripted = render(&[op.to_str().unwrap(), "--format", "crossplane"]);
    assert_eq!(
        text(&scripted.stderr),
        "crossplane: error: cannot render operation: pipeline step \"check\" returned a fatal result: evaluate hcl: <nil>: got type string, expected bool; , and 1 other diagnostic(s)\n"
    );
}

/// function-hcl's debug dump reads the observed composite an Operation's request lacks: the
/// function would crash, so the render says so before running.
#[test]
fn a_debugging_hcl_step_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let op = dir.path().join("op.yaml");
    let text_in = std::fs::read_to_string(data().join("operation.yaml"))
        .unwrap()
        .replace("kind: HclInput\n", "kind: HclInput\n      debugNew: true\n");
    std::fs::write(&op, text_in).unwrap();
    let out = render(&[op.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("function-hcl v0.2.0 crashes dumping its response"),
        "{}",
        transcript(&out)
    );
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

/// What upstream's mock engine made `function-dummy` produce: the applied resource
/// `applied-foo` and the result "function says hi"; plus an operation `output`.
fn dummy(seen: Arc<Mutex<Vec<RunFunctionRequest>>>) -> Arc<Handler> {
    Arc::new(move |request: pb::RunFunctionRequest, _: &CallScope| {
        let request = convert::request_from_pb(&request);
        seen.lock().unwrap().push(request.clone());
        let mut desired = request.desired.clone().unwrap_or_default();
        desired.resources.insert(
            "applied-foo".into(),
            Resource::of(serde_json::json!({
                "apiVersion": "example.org/v1alpha1",
                "kind": "AppliedResource",
                "metadata": {"name": "applied-foo"},
                "spec": {"coolField": "applied!"},
            })),
        );
        let response = RunFunctionResponse {
            desired: Some(desired),
            context: request.context.clone(),
            results: vec![FunctionResult {
                severity: "SEVERITY_NORMAL".into(),
                message: "function says hi".into(),
                reason: Some("Hello".into()),
                ..Default::default()
            }],
            output: Some(serde_json::json!({"greeted": 1})),
            ..RunFunctionResponse::default()
        };
        convert::response_to_pb(&response).map_err(|e| tonic::Status::internal(e.to_string()))
    })
}

/// TestCmdRun "Success" and "IncludeFunctionResults" with upstream's function-dummy served
/// over gRPC after a function-hcl step: the request carries no observed state and
/// function-hcl's desired resource; both resources are applied, sorted in the status.
#[test]
fn a_development_runtime_step_runs_after_function_hcl() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let server = serve(dummy(Arc::clone(&seen)));
    let target = format!(
        "render.crossplane.io/runtime-development-target={}",
        server.addr
    );
    let out = render(&["mixed.yaml", "functions.yaml", "-r", "-a", &target]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!(
        "operation_render_mixed",
        transcript(&out).replace(&server.addr.to_string(), "127.0.0.1:PORT")
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "{seen:#?}");
    assert!(seen[0].observed.composite.is_none(), "{:#?}", seen[0]);
    assert!(seen[0].observed.resources.is_empty(), "{:#?}", seen[0]);
    let desired = seen[0].desired.as_ref().unwrap();
    assert!(desired.resources.contains_key("from-hcl"), "{desired:#?}");
}

/// `fnhcl operation render --help`: the CLI's arguments and flags, the container-only ones
/// under their own heading.
#[test]
fn help_lists_the_clis_flags() {
    let out = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .env("COLUMNS", "100")
        .args(["operation", "render", "--help"])
        .output()
        .expect("fnhcl runs");
    assert_eq!(out.status.code(), Some(0));
    snapshot!("operation_render_help", text(&out.stdout));
}
