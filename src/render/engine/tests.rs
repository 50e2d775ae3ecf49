use super::*;
use crate::eval::proto::{RunFunctionRequest, RunFunctionResponse};
use crate::render::{Remote, RemoteError, Step, StepKind, render_with};
use std::path::Path;

fn data(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/engine")
            .join(path),
    )
    .unwrap()
}

fn yaml(path: &str) -> Json {
    let docs = crate::source::yaml::read_stream(&data(path)).unwrap();
    crate::eval::vars::into_float64(serde_json::to_value(&docs[0].value).unwrap())
}

/// A function that answers every call with one response, and keeps the requests.
struct Fixed(RunFunctionResponse, Vec<RunFunctionRequest>);

impl Remote for Fixed {
    fn run(
        &mut self,
        _: &str,
        request: &RunFunctionRequest,
        _: Option<std::time::Instant>,
    ) -> Result<RunFunctionResponse, RemoteError> {
        self.1.push(request.clone());
        let mut response = self.0.clone();
        response.context = request.context.clone();
        Ok(response)
    }
}

fn stream(documents: &[Json]) -> String {
    documents
        .iter()
        .map(|d| format!("---\n{}", crate::source::yaml_emit::to_yaml(d)))
        .collect()
}

/// The namespaced worked example: an observed resource keeps its name, a new one gets the
/// engine's name, `-x` lays the output over the input XR, results come from events.
#[test]
fn a_namespaced_xr_renders_as_the_engine_renders_it() {
    let response: RunFunctionResponse =
        serde_json::from_str(&data("namespaced/response.json")).unwrap();
    let mut remote = Fixed(response, Vec::new());
    let inputs = Inputs {
        xr: yaml("namespaced/xr.yaml"),
        composition: Some(json!({
            "apiVersion": "apiextensions.crossplane.io/v1", "kind": "Composition",
            "metadata": {"name": "apps.example.org"},
            "spec": {"compositeTypeRef": {"apiVersion": "example.org/v1alpha1", "kind": "App"}, "mode": "Pipeline"},
        })),
        steps: vec![Step {
            name: "compose".into(),
            function: "function-hcl".into(),
            kind: StepKind::Remote {
                target: "test".into(),
            },
            input: None,
            credentials: Vec::new(),
            required_resources: Vec::new(),
            required_schemas: Vec::new(),
        }],
        observed: vec![yaml("namespaced/observed.yaml")],
        ..Inputs::default()
    };
    let options = Options {
        include_function_results: true,
        include_full_xr: true,
        include_context: false,
        crossplane_version: (2, 5),
        ..Options::default()
    };
    let mut map = crate::source::SourceMap::new();
    let rendered = render_with(&mut map, &inputs, options, &mut remote, &mut |_| {}).unwrap();
    assert_eq!(
        stream(&rendered.documents),
        data("namespaced/expected.engine.yaml")
    );
    // What the function observed: the XR as the engine holds it.
    let seen = remote.1[0]
        .observed
        .composite
        .as_ref()
        .unwrap()
        .resource
        .as_ref()
        .unwrap();
    assert_eq!(
        seen["metadata"]["uid"],
        "15c01e80-25a7-5021-884f-998fce304b5f"
    );
    assert_eq!(seen["metadata"]["resourceVersion"], "999");
    assert_eq!(seen["metadata"]["labels"]["crossplane.io/composite"], "web");
    assert_eq!(
        seen["spec"]["crossplane"]["compositionRef"],
        json!({"name": "apps.example.org"})
    );
    assert_eq!(
        seen["spec"]["crossplane"]["resourceRefs"],
        json!([{"apiVersion": "v1", "kind": "ConfigMap", "name": "web-settings"}])
    );
    assert_eq!(seen["status"]["conditions"][0]["type"], "Responsive");
}

/// Observed resources controlled by another XR are refused (crossplane#7544).
#[test]
fn observed_resources_of_another_xr_are_refused() {
    let mut observed = yaml("namespaced/observed.yaml");
    observed["metadata"]["ownerReferences"] = json!([{
        "apiVersion": "example.org/v1alpha1", "kind": "App", "name": "other", "uid": "1234", "controller": true
    }]);
    let inputs = Inputs {
        xr: yaml("namespaced/xr.yaml"),
        observed: vec![observed],
        ..Inputs::default()
    };
    let e = check_observed(&inputs).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot render composite resource: crossplane internal render in Docker returned error with output: crossplane: error: cannot render composite resource: invalid observed resources: observed resource web-settings has a controller ref but is not controlled by the XR\n: container exited with status 1"
    );
}

/// Engine v2.3.4 `selectSchema` (render_test.go's XRD cases): an XRD of another group or
/// kind than the XR, or of an apiVersion that is not the XRD API's, is refused; another
/// served version of the same kind is not.
#[test]
fn an_xrd_must_be_of_the_xrs_group_and_kind() {
    let xrd = |api: &str, group: &str, kind: &str| {
        json!({"apiVersion": api, "kind": "CompositeResourceDefinition",
               "metadata": {"name": "apps.example.org"},
               "spec": {"group": group, "names": {"kind": kind, "plural": "apps"}}})
    };
    let with = |xrd: Json| Inputs {
        xr: yaml("namespaced/xr.yaml"),
        xrd: Some(xrd),
        ..Inputs::default()
    };
    let xr = yaml("namespaced/xr.yaml");
    let (group, kind) = (
        xr["apiVersion"]
            .as_str()
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .to_string(),
        xr["kind"].as_str().unwrap().to_string(),
    );
    assert!(check_xrd(&with(xrd("apiextensions.crossplane.io/v2", &group, &kind))).is_ok());
    assert!(check_xrd(&with(xrd("apiextensions.crossplane.io/v1", &group, &kind))).is_ok());
    assert!(check_xrd(&Inputs::default()).is_ok());
    let e = check_xrd(&with(xrd(
        "apiextensions.crossplane.io/v2",
        "other.org",
        &kind,
    )))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "cannot render composite resource: crossplane internal render in Docker returned error with output: crossplane: error: cannot render composite resource: cannot select composite resource schema: CompositeResourceDefinition \"apps.example.org\" (composite Group=other.org Kind={kind}) does not match the input XR's Group={group} Kind={kind}\n: container exited with status 1"
        )
    );
    let e = check_xrd(&with(xrd(
        "apiextensions.crossplane.io/v1beta1",
        &group,
        &kind,
    )))
    .unwrap_err();
    assert!(
        e.to_string().contains("cannot select composite resource schema: CompositeResourceDefinition \"apps.example.org\" has unrecognized apiVersion \"apiextensions.crossplane.io/v1beta1\" (expected one of [apiextensions.crossplane.io/v1 apiextensions.crossplane.io/v2])"),
        "{e}"
    );
}

#[test]
fn names_are_checked_as_rfc_1123_subdomains() {
    assert!(is_dns1123_subdomain("my-app-3a3d2cfc3ccc"));
    assert!(is_dns1123_subdomain("a.b-c"));
    assert!(!is_dns1123_subdomain("My_App"));
    assert!(!is_dns1123_subdomain("-a"));
    assert!(is_dns1123_subdomain(&strip_rbac_colons(
        "ClusterRole",
        "system:reader"
    )));
}

#[test]
fn full_xr_merges_as_mergo_with_override() {
    let mut dst = json!({"metadata": {"labels": {"a": "1"}, "name": "x"}, "spec": {"list": [1, 2], "keep": true}, "status": {"m": {"k": 1}}});
    let src = json!({"metadata": {"name": "x"}, "spec": {"list": [], "crossplane": {"resourceRefs": []}}, "status": {"m": {}}});
    merge_override(&mut dst, &src);
    assert_eq!(
        dst,
        json!({"metadata": {"labels": {"a": "1"}, "name": "x"}, "spec": {"list": [], "keep": true, "crossplane": {"resourceRefs": []}}, "status": {"m": {"k": 1}}})
    );
}

/// A function that answers without a context: the engine prints no `Context` document
/// (classic prints `fields: null`).
#[test]
fn no_context_document_without_a_returned_context() {
    struct Silent;
    impl Remote for Silent {
        fn run(
            &mut self,
            _: &str,
            _: &RunFunctionRequest,
            _: Option<std::time::Instant>,
        ) -> Result<RunFunctionResponse, RemoteError> {
            Ok(RunFunctionResponse::default())
        }
    }
    let inputs = Inputs {
        xr: yaml("namespaced/xr.yaml"),
        steps: vec![Step {
            name: "quiet".into(),
            function: "function-quiet".into(),
            kind: StepKind::Remote {
                target: "test".into(),
            },
            input: None,
            credentials: Vec::new(),
            required_resources: Vec::new(),
            required_schemas: Vec::new(),
        }],
        ..Inputs::default()
    };
    let mut options = Options {
        include_context: true,
        crossplane_version: (2, 5),
        ..Options::default()
    };
    let mut map = crate::source::SourceMap::new();
    let engine = render_with(&mut map, &inputs, options, &mut Silent, &mut |_| {}).unwrap();
    assert!(engine.documents.iter().all(|d| d["kind"] != "Context"));
    options.crossplane_version = (2, 2);
    let classic = render_with(&mut map, &inputs, options, &mut Silent, &mut |_| {}).unwrap();
    let context = classic
        .documents
        .iter()
        .find(|d| d["kind"] == "Context")
        .unwrap();
    assert_eq!(context["fields"], Json::Null);
}

/// A function that answers with these conditions (and an empty desired state).
struct Conditions(Vec<crate::eval::proto::Condition>);

impl Remote for Conditions {
    fn run(
        &mut self,
        _: &str,
        _: &RunFunctionRequest,
        _: Option<std::time::Instant>,
    ) -> Result<RunFunctionResponse, RemoteError> {
        Ok(RunFunctionResponse {
            conditions: self.0.clone(),
            ..RunFunctionResponse::default()
        })
    }
}

fn fn_condition(
    kind: &str,
    status: &str,
    reason: &str,
    message: &str,
    claim: bool,
) -> crate::eval::proto::Condition {
    crate::eval::proto::Condition {
        kind: kind.into(),
        status: format!("STATUS_CONDITION_{status}"),
        reason: reason.into(),
        message: Some(message.into()),
        target: Some(
            if claim {
                "TARGET_COMPOSITE_AND_CLAIM"
            } else {
                "TARGET_COMPOSITE"
            }
            .into(),
        ),
    }
}

/// The legacy XR of the reconciler tests, with `conditions` already on it, and its v1 XRD.
fn legacy_inputs(conditions: Json, claim_types: Json) -> Inputs {
    Inputs {
        xr: json!({
            "apiVersion": "example.org/v1alpha1", "kind": "XLegacyResource",
            "metadata": {"name": "my-xr"},
            "spec": {},
            "status": {"conditions": conditions, "claimConditionTypes": claim_types},
        }),
        steps: vec![Step {
            name: "some-function".into(),
            function: "function-some".into(),
            kind: StepKind::Remote {
                target: "test".into(),
            },
            input: None,
            credentials: Vec::new(),
            required_resources: Vec::new(),
            required_schemas: Vec::new(),
        }],
        xrd: Some(json!({
            "apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositeResourceDefinition",
            "metadata": {"name": "xlegacyresources.example.org"},
            "spec": {"group": "example.org", "names": {"kind": "XLegacyResource", "plural": "xlegacyresources"},
                     "versions": [{"name": "v1alpha1", "served": true, "referenceable": true}]},
        })),
        ..Inputs::default()
    }
}

fn render_xr(
    inputs: &Inputs,
    conditions: Vec<crate::eval::proto::Condition>,
    version: (u32, u32),
) -> Json {
    let options = Options {
        crossplane_version: version,
        ..Options::default()
    };
    let mut map = crate::source::SourceMap::new();
    let rendered = render_with(
        &mut map,
        inputs,
        options,
        &mut Conditions(conditions),
        &mut |_| {},
    )
    .unwrap();
    rendered.documents[0].clone()
}

fn condition_summary(xr: &Json) -> Vec<String> {
    xr.pointer("/status/conditions")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}={}/{}",
                c["type"].as_str().unwrap(),
                c["status"].as_str().unwrap(),
                c["reason"].as_str().unwrap()
            )
        })
        .collect()
}

/// engine v2.3.4 `reconciler_test.go` TestReconcile "CustomConditionUpdate": a custom condition
/// already on the XR stays when no function sets it, one a function sets again is updated in
/// place, new ones follow `Responsive`. Unlike the reconciler test (a mock client), render's
/// in-memory client replaces the status with the applied one, so the input's
/// `claimConditionTypes` is gone and only the types set in this run are listed.
#[test]
fn conditions_on_the_input_xr_are_kept_and_updated_by_type() {
    let inputs = legacy_inputs(
        json!([
            {"type": "DatabaseReady", "status": "True", "reason": "Available", "message": "This is a condition for database availability."},
            {"type": "BucketReady", "status": "False", "reason": "Creating", "message": "Waiting for bucket to be created."},
        ]),
        json!(["DatabaseReady", "BucketReady"]),
    );
    let xr = render_xr(
        &inputs,
        vec![
            fn_condition(
                "InternalSync",
                "TRUE",
                "SyncSuccess",
                "This is a condition representing an internal sync process.",
                false,
            ),
            fn_condition(
                "BucketReady",
                "TRUE",
                "Available",
                "This is a condition for bucket availability.",
                true,
            ),
        ],
        (2, 5),
    );
    assert_eq!(
        condition_summary(&xr),
        [
            "DatabaseReady=True/Available",
            "BucketReady=True/Available",
            "Responsive=True/WatchCircuitClosed",
            "InternalSync=True/SyncSuccess",
            "Synced=True/ReconcileSuccess",
            "Ready=True/Available",
        ]
    );
    assert_eq!(
        xr["status"]["conditions"][1]["message"],
        "This is a condition for bucket availability."
    );
    assert_eq!(xr["status"]["claimConditionTypes"], json!(["BucketReady"]));
}

/// `reconciler_test.go` "CustomEventsAndConditions": custom conditions after `Responsive`, in
/// the functions' order; the one targeting `CompositeAndClaim` is a claim condition type.
#[test]
fn a_condition_for_the_claim_is_a_claim_condition_type_of_a_legacy_xr() {
    let inputs = legacy_inputs(json!([]), Json::Null);
    let conditions = vec![
        fn_condition(
            "DatabaseReady",
            "TRUE",
            "Available",
            "This is a condition for database availability.",
            true,
        ),
        fn_condition("InternalSync", "TRUE", "SyncSuccess", "internal", false),
    ];
    let xr = render_xr(&inputs, conditions.clone(), (2, 5));
    assert_eq!(
        condition_summary(&xr),
        [
            "Responsive=True/WatchCircuitClosed",
            "DatabaseReady=True/Available",
            "InternalSync=True/SyncSuccess",
            "Synced=True/ReconcileSuccess",
            "Ready=True/Available",
        ]
    );
    assert_eq!(
        xr["status"]["claimConditionTypes"],
        json!(["DatabaseReady"])
    );
    // A modern XR has no claims (`SetClaimConditionTypes` does nothing).
    let mut modern = inputs.clone();
    modern.xrd = None;
    let xr = render_xr(&modern, conditions, (2, 5));
    assert!(xr["status"].get("claimConditionTypes").is_none());
}

/// `reconciler_test.go` "SystemConditionUpdate" and `IsSystemConditionType`: functions cannot
/// set `Ready`, `Synced`, `Healthy`, `UpToDate` or `Responsive`; an input's system conditions
/// are replaced by the reconciler's own.
#[test]
fn system_conditions_are_the_reconcilers() {
    let inputs = legacy_inputs(
        json!([{"type": "Synced", "status": "False", "reason": "ReconcileError", "message": "boom"}]),
        Json::Null,
    );
    let conditions = ["Ready", "Synced", "Healthy", "UpToDate", "Responsive"]
        .iter()
        .map(|t| fn_condition(t, "FALSE", "Nope", "", false))
        .collect();
    let xr = render_xr(&inputs, conditions, (2, 5));
    assert_eq!(
        condition_summary(&xr),
        [
            "Synced=True/ReconcileSuccess",
            "Responsive=True/WatchCircuitClosed",
            "Ready=True/Available"
        ]
    );
}

/// Classic render (v2.2.4 `render.go`) builds the XR from the desired composite alone: the
/// input's conditions are not kept, and no claim condition types are written.
#[test]
fn classic_render_keeps_no_input_conditions() {
    let inputs = legacy_inputs(
        json!([{"type": "DatabaseReady", "status": "True", "reason": "Available"}]),
        json!(["DatabaseReady"]),
    );
    let xr = render_xr(
        &inputs,
        vec![fn_condition("BucketReady", "TRUE", "Available", "", true)],
        (2, 2),
    );
    assert_eq!(
        condition_summary(&xr),
        ["Ready=True/Available", "BucketReady=True/Available"]
    );
    assert!(xr["status"].get("claimConditionTypes").is_none());
}

/// `reconciler_test.go` "CustomEventsAndConditionFatal": the reconciler marks unseen custom
/// conditions `Unknown`/`FatalError`, but a fatal render prints no document at all.
#[test]
fn a_fatal_result_prints_no_conditions() {
    struct Fatal;
    impl Remote for Fatal {
        fn run(
            &mut self,
            _: &str,
            _: &RunFunctionRequest,
            _: Option<std::time::Instant>,
        ) -> Result<RunFunctionResponse, RemoteError> {
            Ok(serde_json::from_value(
                json!({"results": [{"severity": "SEVERITY_FATAL", "message": "boom"}]}),
            )
            .unwrap())
        }
    }
    let inputs = legacy_inputs(
        json!([{"type": "DatabaseReady", "status": "True", "reason": "Available"}]),
        Json::Null,
    );
    let options = Options {
        crossplane_version: (2, 5),
        ..Options::default()
    };
    let mut map = crate::source::SourceMap::new();
    let error = render_with(&mut map, &inputs, options, &mut Fatal, &mut |_| {}).unwrap_err();
    assert!(
        matches!(error, RenderError::Fatal { engine: true, .. }),
        "{error}"
    );
}

/// `Condition.Equal` in `SetConditions`: an equal condition is kept as it is (its observed
/// generation too, when the new one has none); any other of its type is replaced.
#[test]
fn set_conditions_keeps_an_equal_condition() {
    let mut list =
        vec![json!({"type": "A", "status": "True", "reason": "R", "observedGeneration": 3})];
    set_condition(
        &mut list,
        json!({"type": "A", "status": "True", "reason": "R"}),
    );
    assert_eq!(list[0]["observedGeneration"], 3);
    set_condition(
        &mut list,
        json!({"type": "A", "status": "True", "reason": "R", "observedGeneration": 4}),
    );
    assert_eq!(list[0]["observedGeneration"], 4);
    set_condition(
        &mut list,
        json!({"type": "A", "status": "False", "reason": "R"}),
    );
    assert_eq!(
        list,
        [json!({"type": "A", "status": "False", "reason": "R"})]
    );
}

/// engine v2.3.4 `composition_functions.go`: `meta.tag` is `Tag(fnreq)`, the hash of the request
/// before `meta` is set, once per step (the requirements loop keeps it); classic render
/// (v2.2.4) sends no tag.
#[test]
fn engine_requests_carry_the_tag_of_the_request() {
    let response: RunFunctionResponse = serde_json::from_value(json!({
        "requirements": {"extraResources": {"cm": {"apiVersion": "v1", "kind": "ConfigMap", "matchName": "x"}}},
    }))
    .unwrap();
    let mut inputs = legacy_inputs(json!([]), Json::Null);
    inputs.xrd = None;
    for (version, tagged) in [((2, 5), true), ((2, 2), false)] {
        let mut remote = Fixed(response.clone(), Vec::new());
        let options = Options {
            crossplane_version: version,
            ..Options::default()
        };
        let mut map = crate::source::SourceMap::new();
        render_with(&mut map, &inputs, options, &mut remote, &mut |_| {}).unwrap();
        let requests = remote.1;
        assert_eq!(requests.len(), 2, "the requirements loop calls twice");
        let tags: Vec<&str> = requests
            .iter()
            .map(|r| r.meta.as_ref().unwrap().tag.as_str())
            .collect();
        if tagged {
            let mut first = requests[0].clone();
            first.meta = None;
            assert_eq!(tags, [super::super::tag::of(&first).as_str(); 2]);
            assert_eq!(tags[0].len(), 64);
        } else {
            assert_eq!(tags, ["", ""]);
        }
    }
}

/// engine v2.3.4 `composition_functions.go` `errFmtGetCredentialsFromSecret` with the in-memory
/// client's `NotFound`; classic v2.2.4 `GetSecret`'s error.
#[test]
fn a_missing_credentials_secret_fails_in_each_dialects_words() {
    let mut inputs = legacy_inputs(json!([]), Json::Null);
    inputs.xrd = None;
    inputs.steps[0].credentials = vec![
        json!({"name": "skipped", "source": "Secret"}),
        json!({"name": "cloud", "source": "Secret", "secretRef": {"namespace": "crossplane-system", "name": "cloud-creds"}}),
    ];
    let mut map = crate::source::SourceMap::new();
    let fail = |version, map: &mut crate::source::SourceMap| {
        let options = Options {
            crossplane_version: version,
            ..Options::default()
        };
        render_with(
            map,
            &inputs,
            options,
            &mut Conditions(Vec::new()),
            &mut |_| {},
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        fail((2, 5), &mut map),
        "cannot render composite resource: crossplane internal render in Docker returned error with output: crossplane: error: cannot render composite resource: reconcile failed: cannot compose resources: cannot get Composition pipeline step \"some-function\" credential \"cloud\" from Secret: Secret \"cloud-creds\" not found\n: container exited with status 1"
    );
    assert_eq!(
        fail((2, 2), &mut map),
        "cannot render composite resource: cannot get credentials from secret \"cloud-creds\": secret \"cloud-creds\" not found"
    );
}

/// crossplane/cli `convert_test.go` TestFilterObservedXR (after v2.6.0-rc.0): the XR's own copy
/// among the observed resources is dropped, matched on apiVersion, kind, namespace and name.
#[test]
fn the_xrs_copy_among_observed_resources_is_dropped() {
    let object = |api: &str, kind: &str, ns: &str, name: &str| {
        let mut o = json!({"apiVersion": api, "kind": kind, "metadata": {"name": name}});
        if !ns.is_empty() {
            o["metadata"]["namespace"] = json!(ns);
        }
        o
    };
    let names = |inputs: &Inputs| -> Vec<String> {
        inputs
            .observed
            .iter()
            .map(|o| {
                format!(
                    "{}/{}",
                    o["kind"].as_str().unwrap(),
                    o["metadata"]["name"].as_str().unwrap()
                )
            })
            .collect()
    };
    let cases = [
        // DropsObservedCopyOfXR
        (
            "default",
            vec![
                object("example.org/v1", "XR", "default", "my-xr"),
                object("example.org/v1", "Composed", "default", "cd-a"),
            ],
            Some(vec!["Composed/cd-a"]),
        ),
        // KeepsAllWhenNoXRCopy
        (
            "default",
            vec![
                object("example.org/v1", "Composed", "default", "cd-a"),
                object("example.org/v1", "Composed", "default", "cd-b"),
            ],
            None,
        ),
        // DropsClusterScopedXRCopy
        (
            "",
            vec![
                object("example.org/v1", "XR", "", "my-xr"),
                object("example.org/v1", "Composed", "", "cd-a"),
            ],
            Some(vec!["Composed/cd-a"]),
        ),
        // KeepsSameNameDifferentKind
        (
            "default",
            vec![object("example.org/v1", "Other", "default", "my-xr")],
            None,
        ),
        // EmptyObserved
        ("default", vec![], None),
    ];
    for (ns, observed, want) in cases {
        let inputs = Inputs {
            xr: object("example.org/v1", "XR", ns, "my-xr"),
            observed,
            ..Inputs::default()
        };
        let got = without_xr_copy(&inputs).map(|i| names(&i));
        assert_eq!(
            got,
            want.map(|w| w.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        );
    }
}

/// engine v2.3.4 `composition_functions.go` and classic v2.2.4 `render.go`: the next request
/// carries the last response's desired state and context as they are, none when it had none
/// (the first request gets empty ones); the tag hashes what is sent.
#[test]
fn a_step_after_one_without_desired_or_context_gets_none() {
    struct Silent(Vec<RunFunctionRequest>);
    impl Remote for Silent {
        fn run(
            &mut self,
            _: &str,
            request: &RunFunctionRequest,
            _: Option<std::time::Instant>,
        ) -> Result<RunFunctionResponse, RemoteError> {
            self.0.push(request.clone());
            Ok(RunFunctionResponse::default())
        }
    }
    let mut inputs = legacy_inputs(json!([]), Json::Null);
    inputs.xrd = None;
    let second = Step {
        name: "second".into(),
        ..inputs.steps[0].clone()
    };
    inputs.steps.push(second);
    let mut remote = Silent(Vec::new());
    let options = Options {
        crossplane_version: (2, 5),
        ..Options::default()
    };
    let mut map = crate::source::SourceMap::new();
    render_with(&mut map, &inputs, options, &mut remote, &mut |_| {}).unwrap();
    let [first, second] = &remote.0[..] else {
        panic!("two calls")
    };
    assert_eq!(first.desired, Some(crate::eval::proto::State::default()));
    assert_eq!(first.context, Some(json!({})));
    assert_eq!((&second.desired, &second.context), (&None, &None));
}

#[test]
fn observed_identities_are_the_first_named_resource_of_each_name() {
    let annotated = |crn: &str, metadata: Json| {
        let mut metadata = metadata;
        metadata["annotations"] = json!({ RESOURCE_NAME_ANNOTATION: crn });
        json!({ "metadata": metadata })
    };
    let observed = [
        // No metadata.name: the engine cannot find it, so it gives no identity.
        annotated("a", json!({"namespace": "skipped"})),
        annotated(
            "a",
            json!({"name": "first", "namespace": "ns", "generateName": 7}),
        ),
        annotated("a", json!({"name": "second"})),
        json!({"metadata": {"name": "unannotated", "generateName": "g-"}}),
    ];
    let identities = observed_identities(&observed);
    assert_eq!(identities.len(), 2);
    assert_eq!(
        identities["a"],
        [Some("ns".to_string()), Some("first".to_string()), None]
    );
    assert_eq!(
        identities[""],
        [
            None,
            Some("unannotated".to_string()),
            Some("g-".to_string())
        ]
    );
    // Copied as the observed resource itself would be: an absent field is removed.
    let mut metadata = serde_json::Map::new();
    metadata.insert("generateName".into(), json!("x-"));
    copy_identity(
        &mut metadata,
        identities["a"].each_ref().map(Option::as_deref),
    );
    let mut direct = serde_json::Map::new();
    direct.insert("generateName".into(), json!("x-"));
    crate::render::post::copy_observed_identity(&mut direct, &observed[1]);
    assert_eq!(metadata, direct);
    assert_eq!(
        Json::Object(metadata),
        json!({"namespace": "ns", "name": "first"})
    );
}
