//! One case per row of the engine-release table (docs/render.md): the same inputs rendered as
//! the release before a change and as the release that made it. Each names the upstream
//! commit or test it follows (crossplane/crossplane, `internal/render/composite`).

use super::*;
use crate::eval::proto::{RunFunctionRequest, RunFunctionResponse};
use crate::render::{Options, Remote, RemoteError, Step, StepKind, render_with};
use serde_json::json;
use std::path::Path;

fn yaml(path: &str) -> Json {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/engine")
            .join(path),
    )
    .unwrap();
    let docs = crate::source::yaml::read_stream(&text).unwrap();
    crate::eval::vars::into_float64(serde_json::to_value(&docs[0].value).unwrap())
}

#[test]
fn versions_map_to_the_release_whose_behaviour_they_have() {
    use EngineRelease::*;
    for (version, want) in [
        ((2, 3, None, false), V2_3_4),
        ((2, 3, Some(0), false), V2_3_1),
        ((2, 3, Some(0), true), V2_3_1),
        ((2, 3, Some(1), false), V2_3_1),
        ((2, 3, Some(2), false), V2_3_2),
        ((2, 3, Some(3), false), V2_3_3),
        ((2, 3, Some(4), false), V2_3_4),
        ((2, 3, Some(9), false), V2_3_4),
        ((2, 4, Some(0), true), V2_3_1),
        ((2, 4, Some(0), false), V2_3_4),
        ((2, 5, None, false), V2_3_4),
    ] {
        let (major, minor, patch, pre) = version;
        assert_eq!(
            EngineRelease::of(major, minor, patch, pre),
            want,
            "{version:?}"
        );
    }
    assert!(!V2_3_1.selects_schema() && V2_3_2.selects_schema());
    assert!(!V2_3_2.local_refs_for_namespaced() && V2_3_3.local_refs_for_namespaced());
    assert!(!V2_3_3.keeps_uid_and_checks_observed() && V2_3_4.keeps_uid_and_checks_observed());
}

/// A function that asks for nothing and composes one Deployment, keeping every request.
#[derive(Default)]
struct Recorder(Vec<RunFunctionRequest>);

impl Remote for Recorder {
    fn run(
        &mut self,
        _: &str,
        request: &RunFunctionRequest,
        _: Option<std::time::Instant>,
    ) -> Result<RunFunctionResponse, RemoteError> {
        self.0.push(request.clone());
        let mut desired = request.desired.clone().unwrap_or_default();
        desired.resources.insert(
            "server".into(),
            crate::eval::proto::Resource::of(
                json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 3}}),
            ),
        );
        Ok(RunFunctionResponse {
            desired: Some(desired),
            context: request.context.clone(),
            ..RunFunctionResponse::default()
        })
    }
}

/// The namespaced worked example of tests/data/engine, with one remote step.
fn inputs(xr: Json, observed: Vec<Json>, xrd: Option<Json>) -> Inputs {
    Inputs {
        xr,
        steps: vec![Step {
            name: "compose".into(),
            function: "function-test".into(),
            kind: StepKind::Remote {
                target: "test".into(),
            },
            input: None,
            credentials: Vec::new(),
            required_resources: Vec::new(),
            required_schemas: Vec::new(),
        }],
        observed,
        xrd,
        ..Inputs::default()
    }
}

/// What the function observed (the XR and the observed resources' names) and the output,
/// rendered as `release`; or the error.
fn render(
    inputs: &Inputs,
    release: EngineRelease,
    full_xr: bool,
) -> Result<(Json, Vec<String>, Vec<Json>), String> {
    let options = Options {
        crossplane_version: (2, 5),
        engine_release: release,
        include_full_xr: full_xr,
        ..Options::default()
    };
    let mut remote = Recorder::default();
    let mut map = crate::source::SourceMap::new();
    let rendered = render_with(&mut map, inputs, options, &mut remote, &mut |_| {})
        .map_err(|e| e.to_string())?;
    let request = &remote.0[0];
    let xr = request
        .observed
        .composite
        .as_ref()
        .and_then(|c| c.resource.clone())
        .unwrap();
    let observed = request.observed.resources.keys().cloned().collect();
    Ok((xr, observed, rendered.documents))
}

const DETERMINISTIC_UID: &str = "15c01e80-25a7-5021-884f-998fce304b5f";

/// 2.3.3, commit 583da653e ("Set namespace on injected resource refs only for cluster-scoped
/// XRs"): before it a namespaced XR's injected references named the observed resources'
/// namespace.
#[test]
fn injected_refs_of_a_namespaced_xr_lose_their_namespace_in_2_3_3() {
    let inputs = inputs(
        yaml("namespaced/xr.yaml"),
        vec![yaml("namespaced/observed.yaml")],
        None,
    );
    let refs = |release| {
        render(&inputs, release, false).unwrap().0["spec"]["crossplane"]["resourceRefs"].clone()
    };
    assert_eq!(
        refs(EngineRelease::V2_3_2),
        json!([{"apiVersion": "v1", "kind": "ConfigMap", "name": "web-settings", "namespace": "team-a"}])
    );
    assert_eq!(
        refs(EngineRelease::V2_3_3),
        json!([{"apiVersion": "v1", "kind": "ConfigMap", "name": "web-settings"}])
    );
    // A cluster-scoped XR's references always name the namespace.
    let mut cluster = inputs.clone();
    cluster.xr["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("namespace");
    let refs = render(&cluster, EngineRelease::V2_3_1, false).unwrap().0["spec"]["crossplane"]
        ["resourceRefs"]
        .clone();
    assert_eq!(refs[0]["namespace"], "team-a");
}

/// 2.3.4, commit 0f17fa855 ("Don't overwrite the input XR's UID if it has one"): before it
/// the deterministic UID replaced the XR's own, so the composed resources' owner references
/// and names followed the deterministic one; `-x` still shows the UID given.
#[test]
fn the_xrs_own_uid_is_kept_from_2_3_4() {
    let mut xr = yaml("namespaced/xr.yaml");
    xr["metadata"]["uid"] = json!("6f1c2d4e-0000-4000-8000-000000000001");
    let inputs = inputs(xr, Vec::new(), None);
    let (seen, _, docs) = render(&inputs, EngineRelease::V2_3_3, true).unwrap();
    assert_eq!(seen["metadata"]["uid"], DETERMINISTIC_UID);
    assert_eq!(
        docs[1]["metadata"]["ownerReferences"][0]["uid"],
        DETERMINISTIC_UID
    );
    assert_eq!(
        docs[0]["metadata"]["uid"],
        "6f1c2d4e-0000-4000-8000-000000000001"
    );
    let old_name = docs[1]["metadata"]["name"].clone();
    let (seen, _, docs) = render(&inputs, EngineRelease::V2_3_4, true).unwrap();
    assert_eq!(
        seen["metadata"]["uid"],
        "6f1c2d4e-0000-4000-8000-000000000001"
    );
    assert_eq!(
        docs[1]["metadata"]["ownerReferences"][0]["uid"],
        "6f1c2d4e-0000-4000-8000-000000000001"
    );
    assert_ne!(docs[1]["metadata"]["name"], old_name);
}

/// 2.3.4, commit 6e5b89f37 and `TestCheckObservedResources`' `MismatchedControllerRef` and
/// `NamespacedXRDifferentNamespace`: before it such observed resources were silently left
/// out of what the functions observe; from it they fail the render.
#[test]
fn unowned_observed_resources_fail_from_2_3_4_and_were_left_out_before() {
    let mut other_owner = yaml("namespaced/observed.yaml");
    other_owner["metadata"]["ownerReferences"] = json!([{
        "apiVersion": "example.org/v1alpha1", "kind": "App", "name": "other", "uid": "1234", "controller": true
    }]);
    let mut other_namespace = yaml("namespaced/observed.yaml");
    other_namespace["metadata"]["namespace"] = json!("team-b");
    for observed in [other_owner, other_namespace] {
        let inputs = inputs(yaml("namespaced/xr.yaml"), vec![observed], None);
        let (_, seen, _) = render(&inputs, EngineRelease::V2_3_3, false).unwrap();
        assert!(seen.is_empty(), "{seen:?}");
        let e = render(&inputs, EngineRelease::V2_3_4, false).unwrap_err();
        assert!(
            e.contains("invalid observed resources: observed resource web-settings"),
            "{e}"
        );
    }
    // `MatchingControllerRef` (the bug 0f17fa855 fixed): a resource fetched from a cluster,
    // controlled by the XR's real UID, was left out while that UID was replaced.
    let mut xr = yaml("namespaced/xr.yaml");
    xr["metadata"]["uid"] = json!("real-uid");
    let mut owned = yaml("namespaced/observed.yaml");
    owned["metadata"]["ownerReferences"] = json!([{
        "apiVersion": "example.org/v1alpha1", "kind": "App", "name": "web", "uid": "real-uid", "controller": true
    }]);
    let inputs = inputs(xr, vec![owned], None);
    assert!(
        render(&inputs, EngineRelease::V2_3_3, false)
            .unwrap()
            .1
            .is_empty()
    );
    assert_eq!(
        render(&inputs, EngineRelease::V2_3_4, false).unwrap().1,
        ["settings"]
    );
}

/// 2.3.2, commit 9c9b8117f and `TestSelectSchema`'s `NoMatchingXRD` and the LegacyCluster
/// cases: before it the engine ignored `--xrd` (the modern schema, no check).
#[test]
fn the_xrd_selects_the_schema_from_2_3_2() {
    let xrd = |group: &str| {
        json!({"apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositeResourceDefinition",
               "metadata": {"name": "apps.example.org"},
               "spec": {"group": group, "names": {"kind": "App", "plural": "apps"}}})
    };
    let mut xr = yaml("namespaced/xr.yaml");
    xr["metadata"].as_object_mut().unwrap().remove("namespace");
    // A v1 XRD without a scope is LegacyCluster.
    let legacy = inputs(xr.clone(), Vec::new(), Some(xrd("example.org")));
    let docs = render(&legacy, EngineRelease::V2_3_1, false).unwrap().2;
    assert!(docs[0]["spec"]["crossplane"]["resourceRefs"].is_array());
    let docs = render(&legacy, EngineRelease::V2_3_2, false).unwrap().2;
    assert!(docs[0]["spec"]["resourceRefs"].is_array(), "{:#}", docs[0]);
    let other = inputs(xr, Vec::new(), Some(xrd("other.org")));
    assert!(render(&other, EngineRelease::V2_3_1, false).is_ok());
    let e = render(&other, EngineRelease::V2_3_2, false).unwrap_err();
    assert!(e.contains("cannot select composite resource schema"), "{e}");
}
