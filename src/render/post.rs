//! Post-processing, classic dialect: composed resource metadata, the XR built from the last
//! desired composite with its Ready and function conditions, then the `Result` and `Context`
//! documents.

use super::pipeline::{RESOURCE_NAME_ANNOTATION, Run, composition_resource_name};
use super::{Inputs, Options, RenderError, TRANSITION_TIME};
use crate::eval::proto::{Condition, struct_numbers};
use crate::source::pointer::Pointer;
use serde_json::{Map, Value as Json, json};
use std::collections::HashMap;

/// Condition types the XR's own reconciler owns; function conditions of these are skipped.
pub(super) const SYSTEM_CONDITIONS: [&str; 4] = ["Ready", "Synced", "Healthy", "UpToDate"];

pub(super) const RENDER_API: &str = "render.crossplane.io/v1beta1";

/// Every document to print, in crossplane's order.
pub(super) fn documents(
    inputs: &Inputs,
    run: &Run,
    options: Options,
) -> Result<Vec<Json>, RenderError> {
    let mut docs = vec![composite(inputs, run, options)?];
    // Observed resources by composition resource name, the first of each name (as a search
    // in order would find it), so each composed resource finds its own in constant time.
    let mut observed: HashMap<&str, &Json> = HashMap::with_capacity(inputs.observed.len());
    for o in &inputs.observed {
        observed.entry(composition_resource_name(o)).or_insert(o);
    }
    for (name, resource) in &run.desired.resources {
        let body = resource
            .resource
            .clone()
            .unwrap_or(Json::Object(Map::new()));
        let seen = observed.get(name.as_str()).copied();
        docs.push(composed(inputs, name, seen, body, options));
    }
    if options.include_function_results {
        for (step, result) in &run.results {
            docs.push(json!({
                "apiVersion": RENDER_API,
                "kind": "Result",
                "message": result.message,
                "severity": result.severity,
                "step": step,
            }));
        }
    }
    if options.include_context {
        let fields = if run.context.is_empty() {
            Json::Null
        } else {
            Json::Object(run.context.clone())
        };
        docs.push(json!({"apiVersion": RENDER_API, "kind": "Context", "fields": fields}));
    }
    Ok(docs.iter().map(struct_numbers).collect())
}

/// The name prefix of composed resources: the XR's `crossplane.io/composite` label (nested
/// XRs), else its name.
pub(super) fn prefix(xr: &Json) -> String {
    xr.at("/metadata/labels/crossplane.io~1composite")
        .or_else(|| xr.at("/metadata/name"))
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string()
}

pub(super) fn object_at<'j>(value: &'j mut Json, key: &str) -> &'j mut Map<String, Json> {
    if !value.is_object() {
        *value = Json::Object(Map::new());
    }
    match value {
        Json::Object(map) => object_at_map(map, key),
        _ => unreachable!("made an object just above"),
    }
}

/// A composed resource: the observed name/namespace/generateName, then
/// `RenderComposedResourceMetadata`.
fn composed(
    inputs: &Inputs,
    name: &str,
    observed: Option<&Json>,
    mut body: Json,
    options: Options,
) -> Json {
    let xr = &inputs.xr;
    let metadata = object_at(&mut body, "metadata");
    if let Some(observed) = observed {
        copy_observed_identity(metadata, observed);
    }
    let prefix = prefix(xr);
    let always = options.crossplane_version.0 < 2;
    let unnamed = !metadata.contains_key("name") && !metadata.contains_key("generateName");
    if always || unnamed {
        metadata.insert("generateName".into(), Json::String(format!("{prefix}-")));
    }
    if let Some(ns) = xr.at("/metadata/namespace").and_then(Json::as_str) {
        metadata.insert("namespace".into(), Json::String(ns.into()));
    }
    let annotations = object_at_map(metadata, "annotations");
    annotations.insert(RESOURCE_NAME_ANNOTATION.into(), Json::String(name.into()));
    let labels = object_at_map(metadata, "labels");
    labels.insert("crossplane.io/composite".into(), Json::String(prefix));
    claim_labels(xr, labels);
    let owner = owner_reference(xr, xr.at("/metadata/uid").cloned().unwrap_or(json!("")));
    let refs = owner_references(metadata);
    refs.retain(|r| r.get("controller") != Some(&Json::Bool(true)));
    refs.push(owner);
    body
}

/// The observed resource's `namespace`, `name` and `generateName` on the desired one (an
/// empty or absent one removes the field).
pub(super) fn copy_observed_identity(metadata: &mut Map<String, Json>, observed: &Json) {
    copy_identity(metadata, identity_fields(observed));
}

/// The metadata fields of an observed resource that its desired one takes ([`Identity`]).
const IDENTITY_FIELDS: [&str; 3] = ["namespace", "name", "generateName"];

/// An observed resource's `metadata.namespace`, `name` and `generateName`, each when it is a
/// string: all that the printed documents take from it.
pub(super) type Identity = [Option<String>; 3];

/// The [`Identity`] of an observed resource.
pub(super) fn identity_of(observed: &Json) -> Identity {
    identity_fields(observed).map(|field| field.map(str::to_string))
}

fn identity_fields(observed: &Json) -> [Option<&str>; 3] {
    IDENTITY_FIELDS.map(|key| {
        observed
            .at(&format!("/metadata/{key}"))
            .and_then(Json::as_str)
    })
}

/// [`copy_observed_identity`] from an observed resource's [`Identity`].
pub(super) fn copy_identity(metadata: &mut Map<String, Json>, identity: [Option<&str>; 3]) {
    for (key, value) in IDENTITY_FIELDS.into_iter().zip(identity) {
        match value {
            Some(v) if !v.is_empty() => {
                metadata.insert(key.into(), Json::String(v.into()));
            }
            _ => {
                metadata.remove(key);
            }
        }
    }
}

/// The XR as a composed resource's controller, with `uid`.
pub(super) fn owner_reference(xr: &Json, uid: Json) -> Json {
    json!({
        "apiVersion": xr.get("apiVersion").cloned().unwrap_or(json!("")),
        "kind": xr.get("kind").cloned().unwrap_or(json!("")),
        "name": xr.at("/metadata/name").cloned().unwrap_or(json!("")),
        "uid": uid,
        "controller": true,
        "blockOwnerDeletion": true,
    })
}

/// `metadata.ownerReferences`, made a list when it is absent or not one.
pub(super) fn owner_references(metadata: &mut Map<String, Json>) -> &mut Vec<Json> {
    let refs = metadata
        .entry("ownerReferences")
        .or_insert_with(|| Json::Array(Vec::new()));
    if !refs.is_array() {
        *refs = Json::Array(Vec::new());
    }
    match refs {
        Json::Array(refs) => refs,
        _ => unreachable!("made a list just above"),
    }
}

/// crossplane's `SetConditions`: every condition of the same type that is not `Equal` to `c`
/// is replaced in place by it (an equal one is kept as it is); without one of its type, `c`
/// is appended.
pub(super) fn set_condition(list: &mut Vec<Json>, c: Json) {
    let mut exists = false;
    for existing in list.iter_mut() {
        if existing.get("type") != c.get("type") {
            continue;
        }
        exists = true;
        if !conditions_equal(existing, &c) {
            *existing = c.clone();
        }
    }
    if !exists {
        list.push(c);
    }
}

/// `Condition.Equal`: type, status, reason and message, and the observed generation only
/// when both conditions have one (the transition time never counts).
fn conditions_equal(a: &Json, b: &Json) -> bool {
    let text = |c: &Json, k: &str| c.get(k).and_then(Json::as_str).unwrap_or("").to_string();
    let generation = |c: &Json| {
        c.get("observedGeneration")
            .and_then(Json::as_i64)
            .unwrap_or(0)
    };
    let same = ["type", "status", "reason", "message"]
        .iter()
        .all(|k| text(a, k) == text(b, k));
    let (ga, gb) = (generation(a), generation(b));
    same && (ga == 0 || gb == 0 || ga == gb)
}

/// The conditions of an object's `status.conditions`, as crossplane reads them into its
/// typed list: only mappings count; anything else there is no list at all.
pub(super) fn status_conditions(object: Option<&Map<String, Json>>) -> Vec<Json> {
    match object.and_then(|s| s.get("conditions")) {
        Some(Json::Array(list)) if list.iter().all(Json::is_object) => list.clone(),
        _ => Vec::new(),
    }
}

pub(super) fn object_at_map<'m>(
    map: &'m mut Map<String, Json>,
    key: &str,
) -> &'m mut Map<String, Json> {
    let entry = map
        .entry(key.to_string())
        .or_insert_with(|| Json::Object(Map::new()));
    if !entry.is_object() {
        *entry = Json::Object(Map::new());
    }
    match entry {
        Json::Object(inner) => inner,
        _ => unreachable!("made an object just above"),
    }
}

/// The claim labels: from the XR's own labels when it has both, else from `spec.claimRef`.
pub(super) fn claim_labels(xr: &Json, labels: &mut Map<String, Json>) {
    const NAME: &str = "crossplane.io/claim-name";
    const NAMESPACE: &str = "crossplane.io/claim-namespace";
    let xr_label = |key: &str| {
        xr.at("/metadata/labels")
            .and_then(|l| l.get(key))
            .and_then(Json::as_str)
    };
    let (name, namespace) = match (xr_label(NAME), xr_label(NAMESPACE)) {
        (Some(n), Some(ns)) => (Some(n), Some(ns)),
        _ => (
            xr.at("/spec/claimRef/name").and_then(Json::as_str),
            xr.at("/spec/claimRef/namespace").and_then(Json::as_str),
        ),
    };
    if let (Some(name), Some(namespace)) = (name, namespace) {
        labels.insert(NAME.into(), Json::String(name.into()));
        labels.insert(NAMESPACE.into(), Json::String(namespace.into()));
    }
}

/// The output XR: the last desired composite with the input's identity, the Ready
/// condition, then the function conditions.
fn composite(inputs: &Inputs, run: &Run, options: Options) -> Result<Json, RenderError> {
    let desired = run.desired.composite.as_ref();
    let mut xr = desired
        .and_then(|c| c.resource.clone())
        .filter(Json::is_object)
        .unwrap_or(Json::Object(Map::new()));
    let input = &inputs.xr;
    let Json::Object(out) = &mut xr else {
        unreachable!("filtered to objects above");
    };
    for key in ["apiVersion", "kind"] {
        if let Some(v) = input.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    let metadata = object_at_map(out, "metadata");
    for key in ["name", "namespace"] {
        if let Some(v) = input.at(&format!("/metadata/{key}")) {
            metadata.insert(key.into(), v.clone());
        }
    }
    if options.include_full_xr {
        let Some(spec) = input.get("spec") else {
            return Err(RenderError::Failed(
                "cannot get composite resource spec: spec: no such field".into(),
            ));
        };
        out.insert("spec".into(), spec.clone());
        if let Some(m) = input.get("metadata") {
            out.insert("metadata".into(), m.clone());
        }
    }
    // `SetConditions` on the desired composite's own conditions (a function may write some).
    let desired_status = out.get("status").and_then(Json::as_object);
    let mut conditions = status_conditions(desired_status);
    set_condition(&mut conditions, ready_condition(run));
    for c in &run.conditions {
        if SYSTEM_CONDITIONS.contains(&c.kind.as_str()) {
            continue;
        }
        set_condition(&mut conditions, condition(c));
    }
    object_at_map(out, "status").insert("conditions".into(), Json::Array(conditions));
    Ok(xr)
}

pub(super) fn condition(c: &Condition) -> Json {
    let status = match c.status.as_str() {
        "STATUS_CONDITION_TRUE" => "True",
        "STATUS_CONDITION_FALSE" => "False",
        _ => "Unknown",
    };
    status_condition(&c.kind, status, &c.reason, c.message.as_deref())
}

/// A condition as the XR's status lists it: an empty message is left out.
pub(super) fn status_condition(
    kind: &str,
    status: &str,
    reason: &str,
    message: Option<&str>,
) -> Json {
    let mut out = Map::new();
    out.insert("type".into(), Json::String(kind.into()));
    out.insert("status".into(), Json::String(status.into()));
    out.insert("reason".into(), Json::String(reason.into()));
    out.insert(
        "lastTransitionTime".into(),
        Json::String(TRANSITION_TIME.into()),
    );
    if let Some(message) = message.filter(|m| !m.is_empty()) {
        out.insert("message".into(), Json::String(message.into()));
    }
    Json::Object(out)
}

/// `Available()` or `Creating()` with the unready resources named.
pub(super) fn ready_condition(run: &Run) -> Json {
    let composite_ready = run
        .desired
        .composite
        .as_ref()
        .and_then(|c| c.ready.as_deref())
        .unwrap_or("READY_UNSPECIFIED");
    let creating = |message: Option<&str>| status_condition("Ready", "False", "Creating", message);
    match composite_ready {
        "READY_FALSE" => return creating(None),
        "READY_TRUE" => {}
        _ => {
            let unready: Vec<String> = run
                .desired
                .resources
                .iter()
                .filter(|(_, r)| r.ready.as_deref() != Some("READY_TRUE"))
                .map(|(name, _)| name.clone())
                .collect();
            if !unready.is_empty() {
                let message = format!("Unready resources: {}", n_and_some_more(3, unready));
                return creating(Some(&message));
            }
        }
    }
    status_condition("Ready", "True", "Available", None)
}

/// crossplane's `StableNAndSomeMore`: sorted names, at most `n` written out.
pub(super) fn n_and_some_more(n: usize, mut names: Vec<String>) -> String {
    names.sort();
    match names.len() {
        len if len > n => format!("{}, and {} more", names[..n].join(", "), len - n),
        len if len >= 3 => format!("{}, and {}", names[..len - 1].join(", "), names[len - 1]),
        _ => names.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn unready_lists_follow_stable_n_and_some_more() {
        assert_eq!(n_and_some_more(3, names(&["b"])), "b");
        assert_eq!(n_and_some_more(3, names(&["b", "a"])), "a, b");
        assert_eq!(n_and_some_more(3, names(&["c", "a", "b"])), "a, b, and c");
        assert_eq!(
            n_and_some_more(3, names(&["e", "d", "c", "a", "b"])),
            "a, b, c, and 2 more"
        );
    }
}
