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
