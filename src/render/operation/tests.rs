//! The Operation render against crossplane/cli v2.5.0's `cmd/crossplane/render/op` tests
//! (`load_test.go`: TestLoadOperation, TestInjectWatchedResource) and the v2.3.4 Operation
//! reconciler's behaviour (`internal/controller/ops/operation/reconciler.go`), each test
//! naming its source. Steps run on a fake [`Remote`].

use super::*;
use crate::eval::proto::{FunctionResult, Resource, RunFunctionRequest, RunFunctionResponse};
use crate::render::{RemoteError, Step, StepKind};
use crate::source::SourceMap;
use std::time::Instant;

/// A remote function answering every call with `answer(request)`, keeping the requests.
struct Fake<F: FnMut(&RunFunctionRequest) -> RunFunctionResponse> {
    answer: F,
    seen: Vec<RunFunctionRequest>,
}

impl<F: FnMut(&RunFunctionRequest) -> RunFunctionResponse> Remote for Fake<F> {
    fn run(
        &mut self,
        _: &str,
        request: &RunFunctionRequest,
        _: Option<Instant>,
    ) -> Result<RunFunctionResponse, RemoteError> {
        self.seen.push(request.clone());
        Ok((self.answer)(request))
    }
}

fn step(name: &str) -> Step {
    Step {
        name: name.into(),
        function: "function-dummy".into(),
        kind: StepKind::Remote {
            target: "localhost:9443".into(),
        },
        input: None,
        credentials: Vec::new(),
        required_resources: Vec::new(),
        required_schemas: Vec::new(),
    }
}

fn operation() -> Json {
    json!({
        "apiVersion": OPS_API,
        "kind": "Operation",
        "metadata": {"name": "test-op"},
        "spec": {"mode": "Pipeline", "pipeline": [
            {"step": "be-a-dummy", "functionRef": {"name": "function-dummy"}}
        ]},
    })
}

/// What cmd_test.go's mock engine made function-dummy return: `applied-foo` and a result.
fn dummy(request: &RunFunctionRequest) -> RunFunctionResponse {
    let mut desired = request.desired.clone().unwrap_or_default();
    desired.resources.insert(
        "applied-foo".into(),
        Resource::of(json!({
            "apiVersion": "example.org/v1alpha1",
            "kind": "AppliedResource",
            "metadata": {"name": "applied-foo"},
            "spec": {"coolField": "applied!"},
        })),
    );
    RunFunctionResponse {
        desired: Some(desired),
        context: request.context.clone(),
        results: vec![FunctionResult {
            severity: "SEVERITY_NORMAL".into(),
            message: "function says hi".into(),
            reason: Some("Hello".into()),
            target: None,
        }],
        ..RunFunctionResponse::default()
    }
}

fn run(operation: Json, options: OperationOptions) -> (Vec<Json>, Vec<RunFunctionRequest>) {
    let input = OperationInputs {
        operation,
        inputs: Inputs {
            xr: Json::Null,
            steps: vec![step("be-a-dummy")],
            ..Inputs::default()
        },
    };
    let mut fake = Fake {
        answer: dummy,
        seen: Vec::new(),
    };
    let rendered = render(
        &mut SourceMap::new(),
        &input,
        options,
        &mut fake,
        &mut |_| {},
    )
    .expect("renders");
    (rendered.documents, fake.seen)
}

/// TestCmdRun "Success" (cmd_test.go): the Operation (its spec as given, the status the
/// reconciler writes), then the applied resource as the function returned it. The request
/// observes nothing and starts from an empty desired state.
#[test]
fn success_prints_the_operation_and_the_applied_resource() {
    let (docs, seen) = run(operation(), OperationOptions::default());
    assert_eq!(docs.len(), 2, "{docs:#?}");
    assert_eq!(docs[0]["spec"], operation()["spec"]);
    assert_eq!(
        docs[0]["metadata"],
        json!({"name": "test-op", "resourceVersion": "999"})
    );
    assert_eq!(
        docs[0]["status"]["appliedResourceRefs"],
        json!([{"apiVersion": "example.org/v1alpha1", "kind": "AppliedResource", "name": "applied-foo"}])
    );
    let types: Vec<&str> = docs[0]["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["Succeeded", "ValidPipeline", "Synced"]);
    assert_eq!(
        docs[0]["status"]["conditions"][0]["reason"],
        "PipelineSuccess"
    );
    assert_eq!(docs[1]["spec"], json!({"coolField": "applied!"}));
    assert_eq!(seen.len(), 1);
    assert!(seen[0].observed.composite.is_none());
    assert_eq!(seen[0].desired, Some(Default::default()));
}

/// TestCmdRun "IncludeFunctionResults" (cmd_test.go): the reconciler's event for the result,
/// as `reconciler.go` records it (reason `RunPipelineStep`, the step named in the message).
#[test]
fn results_are_the_reconcilers_events() {
    let options = OperationOptions {
        include_function_results: true,
        ..OperationOptions::default()
    };
    let (docs, _) = run(operation(), options);
    assert_eq!(
        docs[2],
        json!({"apiVersion": "render.crossplane.io/v1beta1", "kind": "Result", "message": "Pipeline step \"be-a-dummy\": function says hi", "reason": "RunPipelineStep", "severity": "Normal"})
    );
}

/// TestLoadOperation "ValidOperation", "ValidCronOperation", "ValidWatchOperation",
/// "WrongKind", "WrongAPIVersion" (load_test.go).
#[test]
fn operations_are_read_from_every_operation_kind() {
    let want = json!({
        "apiVersion": OPS_API, "kind": "Operation", "metadata": {"name": "test-operation"},
        "spec": {"mode": "Pipeline", "pipeline": [{"step": "test-step", "functionRef": {"name": "test-function"}}]},
    });
    assert_eq!(operation_of(&want), Ok(want.clone()));
    let cron = json!({
        "apiVersion": OPS_API, "kind": "CronOperation", "metadata": {"name": "test-operation"},
        "spec": {"schedule": "*/5 * * * *", "operationTemplate": {"spec": want["spec"].clone()}},
    });
    assert_eq!(operation_of(&cron), Ok(want.clone()));
    let watch = json!({
        "apiVersion": OPS_API, "kind": "WatchOperation", "metadata": {"name": "test-operation"},
        "spec": {"watch": {"apiVersion": "v1", "kind": "Secret"}, "operationTemplate": {"spec": want["spec"].clone()}},
    });
    assert_eq!(operation_of(&watch), Ok(want.clone()));
    let config_map = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}});
    assert_eq!(
        operation_of(&config_map),
        Err("not an operation type: ConfigMap/v1".into())
    );
    let mut beta = want.clone();
    beta["apiVersion"] = json!("ops.crossplane.io/v1beta1");
    assert_eq!(
        operation_of(&beta),
        Err("not an operation type: Operation/ops.crossplane.io/v1beta1".into())
    );
}

/// TestInjectWatchedResource "InjectIntoAllSteps" and "ClusterScopedResource" (load_test.go).
#[test]
fn the_watched_resource_is_required_by_every_step() {
    let mut op = json!({"spec": {"mode": "Pipeline", "pipeline": [
        {"step": "step-one", "functionRef": {"name": "fn-one"}},
        {"step": "step-two", "functionRef": {"name": "fn-two"}},
    ]}});
    let secret = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "cool-secret", "namespace": "default"}});
    inject_watched(&mut op, &secret);
    for step in op["spec"]["pipeline"].as_array().unwrap() {
        assert_eq!(
            step["requirements"]["requiredResources"],
            json!([{"requirementName": WATCHED_RESOURCE, "apiVersion": "v1", "kind": "Secret", "name": "cool-secret", "namespace": "default"}])
        );
    }
    let mut op =
        json!({"spec": {"pipeline": [{"step": "test-step", "functionRef": {"name": "test-fn"}}]}});
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "my-node"}});
    inject_watched(&mut op, &node);
    assert_eq!(
        op["spec"]["pipeline"][0]["requirements"]["requiredResources"],
        json!([{"requirementName": WATCHED_RESOURCE, "apiVersion": "v1", "kind": "Node", "name": "my-node"}])
    );
}

/// reconciler.go: a complete Operation (Succeeded True or False) is left alone, so the
/// engine returns nothing; one at its retry limit is marked failed without running.
#[test]
fn complete_or_exhausted_operations_do_not_run() {
    let mut done = operation();
    done["status"] = json!({"conditions": [{"type": "Succeeded", "status": "True", "reason": "PipelineSuccess"}]});
    let (docs, seen) = run(done, OperationOptions::default());
    assert!(docs.is_empty() && seen.is_empty(), "{docs:#?}");

    let mut exhausted = operation();
    exhausted["spec"]["retryLimit"] = json!(2.0);
    exhausted["status"] = json!({"failures": 2.0});
    let (docs, seen) = run(exhausted, OperationOptions::default());
    assert!(seen.is_empty());
    assert_eq!(docs.len(), 1);
    assert_eq!(docs[0]["status"]["failures"], json!(2));
    assert_eq!(
        docs[0]["status"]["conditions"][1]["message"],
        "failure limit of 2 reached"
    );
}

/// reconciler.go's `AddResourceRef`: references sorted by apiVersion, kind, namespace and
/// name run together, each once; `AddPipelineStepOutput` replaces a step's output in place.
#[test]
fn applied_references_are_sorted_and_outputs_replaced() {
    let mut status = Status::of(
        &json!({"status": {"pipeline": [{"step": "a", "output": 1}]}}),
        0,
    );
    for body in [
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "b", "namespace": "x"}}),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}),
    ] {
        status.applied_ref(&body);
    }
    let names: Vec<&str> = status
        .applied
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ConfigMap", "Secret"]);
    status.step_output("a", json!(2));
    status.step_output("b", json!(3));
    assert_eq!(
        status.to_json()["pipeline"],
        json!([{"step": "a", "output": 2}, {"step": "b", "output": 3}])
    );
}

/// The CLI's typed Operation: unknown fields are dropped, `mode` and `pipeline` always
/// printed.
#[test]
fn the_printed_operation_has_only_its_types_fields() {
    let input = json!({
        "apiVersion": OPS_API, "kind": "Operation",
        "metadata": {"name": "x", "unknown": 1},
        "spec": {"extra": true, "pipeline": [{"step": "s", "functionRef": {"name": "f"}, "bogus": 1}]},
    });
    let status = Status::of(&input, 0);
    let out = output_operation(input.clone(), &input, &status, OperationOptions::default());
    assert_eq!(
        out,
        json!({
            "apiVersion": OPS_API, "kind": "Operation", "metadata": {"name": "x"},
            "spec": {"mode": "", "pipeline": [{"step": "s", "functionRef": {"name": "f"}}]},
            "status": {},
        })
    );
}

/// The engine's words for a failed Operation render (`internal/render/operation/render.go`
/// and `reconciler.go`): a fatal result as the reconciler's `PipelineFatalError`, any other
/// failure a failed reconcile of the step's invocation.
#[test]
fn failures_have_the_engines_words() {
    let fatal = RenderError::Fatal {
        step: "s".into(),
        message: "boom".into(),
        diagnostics: Vec::new(),
        engine: false,
    };
    assert_eq!(
        failure_message(&fatal),
        "cannot render operation: pipeline step \"s\" returned a fatal result: boom"
    );
    let remote = RenderError::Remote {
        step: "s".into(),
        function: "f".into(),
        target: "t".into(),
        message: "rpc error: code = Unavailable desc = x".into(),
    };
    assert_eq!(
        failure_message(&remote),
        "cannot render operation: reconcile failed: failed to invoke pipeline step \"s\": rpc error: code = Unavailable desc = x"
    );
    let unsettled = RenderError::Failed("cannot render composite resource: pipeline step \"s\": requirements didn't stabilize after the maximum number of iterations (5)".into());
    assert_eq!(
        failure_message(&unsettled),
        "cannot render operation: reconcile failed: failed to invoke pipeline step \"s\": requirements didn't stabilize after the maximum number of iterations (5)"
    );
}

/// reconciler.go: a step's credential whose Secret is not among `--function-credentials`
/// fails the reconcile naming the step and the credential.
#[test]
fn a_missing_credential_names_its_step() {
    let mut with_secret = step("be-a-dummy");
    with_secret.credentials = vec![
        json!({"name": "creds", "source": "Secret", "secretRef": {"name": "db", "namespace": "default"}}),
    ];
    let input = OperationInputs {
        operation: operation(),
        inputs: Inputs {
            xr: Json::Null,
            steps: vec![with_secret],
            ..Inputs::default()
        },
    };
    let mut fake = Fake {
        answer: dummy,
        seen: Vec::new(),
    };
    let error = render(
        &mut SourceMap::new(),
        &input,
        OperationOptions::default(),
        &mut fake,
        &mut |_| {},
    )
    .expect_err("fails");
    assert_eq!(
        failure_message(&error),
        "cannot render operation: reconcile failed: cannot get operation pipeline step \"be-a-dummy\" credential \"creds\" from Secret: Secret \"db\" not found"
    );
}

/// cmd_test.go "Success" against `testdata/cmd/output/success.yaml`: the printed stream is
/// that file byte for byte, but for what the mock engine could not know (the resource
/// version the engine gives the Operation and the status the reconciler writes).
#[test]
fn the_stream_is_the_clis_success_output() {
    let upstream = "---\napiVersion: ops.crossplane.io/v1alpha1\nkind: Operation\nmetadata:\n  name: test-op\nspec:\n  mode: Pipeline\n  pipeline:\n  - functionRef:\n      name: function-dummy\n    step: be-a-dummy\nstatus: {}\n---\napiVersion: example.org/v1alpha1\nkind: AppliedResource\nmetadata:\n  name: applied-foo\nspec:\n  coolField: applied!\n";
    let status = "status:\n  appliedResourceRefs:\n  - apiVersion: example.org/v1alpha1\n    kind: AppliedResource\n    name: applied-foo\n  conditions:\n  - lastTransitionTime: \"2024-01-01T00:00:00Z\"\n    reason: PipelineSuccess\n    status: \"True\"\n    type: Succeeded\n  - lastTransitionTime: \"2024-01-01T00:00:00Z\"\n    reason: ValidPipeline\n    status: \"True\"\n    type: ValidPipeline\n  - lastTransitionTime: \"2024-01-01T00:00:00Z\"\n    reason: ReconcileSuccess\n    status: \"True\"\n    type: Synced\n";
    let want = upstream
        .replace(
            "  name: test-op\n",
            "  name: test-op\n  resourceVersion: \"999\"\n",
        )
        .replace("status: {}\n", status);
    let (docs, _) = run(operation(), OperationOptions::default());
    let got: String = docs
        .iter()
        .map(|d| format!("---\n{}", crate::source::yaml_emit::to_yaml(d)))
        .collect();
    assert_eq!(got, want);
}
