//! The engine dialect: what `crossplane composition render` prints from Crossplane CLI v2.3 on
//! (CLI v2.5.0 with engine image v2.3.4, read from crossplane/cli and crossplane/crossplane at
//! those tags). The engine runs Crossplane's real reconciler: the XR gets a deterministic UID,
//! composed resources get real names derived from it, the XR output holds
//! `spec.crossplane.resourceRefs` and the `Responsive`/`Synced`/`Ready` conditions, and results
//! come from the reconciler's events.

pub use super::engine_failed;
use super::names::{child_name, xr_uid};
use super::pipeline::{RESOURCE_NAME_ANNOTATION, Run, composition_resource_name};
use super::post::{
    Identity, RENDER_API, claim_labels, condition, copy_identity, identity_of, object_at,
    object_at_map, owner_reference, owner_references, prefix, ready_condition, set_condition,
    status_condition, status_conditions,
};
use super::{Inputs, Options, RenderError, TRANSITION_TIME};
use crate::eval::proto::struct_numbers;
use crate::source::pointer::Pointer;
use serde_json::{Map, Value as Json, json};
use std::collections::HashMap;

/// Condition types the reconciler owns (function conditions of these are skipped).
const SYSTEM_CONDITIONS: [&str; 5] = ["Ready", "Synced", "Healthy", "UpToDate", "Responsive"];

/// Whether `version` (major, minor) renders in the engine dialect.
pub fn is_engine(version: (u32, u32)) -> bool {
    version >= (2, 3)
}

/// Where the XR keeps its composed resources' references: `spec.crossplane.resourceRefs`
/// (modern), or `spec.resourceRefs` for an XRD of the legacy schema.
fn legacy(inputs: &Inputs) -> bool {
    let Some(xrd) = &inputs.xrd else { return false };
    let scope = xrd.at("/spec/scope").and_then(Json::as_str);
    match xrd.get("apiVersion").and_then(Json::as_str) {
        Some("apiextensions.crossplane.io/v1") => scope.is_none_or(|s| s == "LegacyCluster"),
        _ => scope == Some("LegacyCluster"),
    }
}

/// The XR's UID: its own, else the engine's deterministic one.
pub fn uid(xr: &Json) -> String {
    if let Some(uid) = xr.at("/metadata/uid").and_then(Json::as_str)
        && !uid.is_empty()
    {
        return uid.to_string();
    }
    let text = |p: &str| xr.at(p).and_then(Json::as_str).unwrap_or("");
    xr_uid(
        text("/apiVersion"),
        text("/kind"),
        text("/metadata/namespace"),
        text("/metadata/name"),
    )
}

/// The inputs without the observed resources that are the XR itself (its apiVersion, kind,
/// namespace and name), when there are any: crossplane/cli after v2.6.0-rc.0
/// (`filterObservedXR`, cli#47) drops them, since a previous render's output, used as
/// `--observed-resources`, starts with the XR, and that copy would take the XR's place in the
/// engine's store. `None` when there is nothing to drop.
pub fn without_xr_copy(inputs: &Inputs) -> Option<Inputs> {
    let identity = |o: &Json| {
        [
            "/apiVersion",
            "/kind",
            "/metadata/namespace",
            "/metadata/name",
        ]
        .map(|p| o.at(p).and_then(Json::as_str).unwrap_or("").to_string())
    };
    let xr = identity(&inputs.xr);
    if !inputs.observed.iter().any(|o| identity(o) == xr) {
        return None;
    }
    let mut out = inputs.clone();
    out.observed.retain(|o| identity(o) != xr);
    Some(out)
}

/// The engine's check of the XRD given with `--xrd` (engine v2.3.4 `selectSchema`): an
/// apiVersion of the XRD API (v1 or v2), and the composite group and kind of the input XR
/// (any served version of them).
pub fn check_xrd(inputs: &Inputs) -> Result<(), RenderError> {
    let Some(xrd) = &inputs.xrd else {
        return Ok(());
    };
    let text = |v: &Json, p: &str| v.at(p).and_then(Json::as_str).unwrap_or("").to_string();
    let name = text(xrd, "/metadata/name");
    let api_version = text(xrd, "/apiVersion");
    if !matches!(
        api_version.as_str(),
        "apiextensions.crossplane.io/v1" | "apiextensions.crossplane.io/v2"
    ) {
        return Err(engine_failed(&format!(
            "cannot select composite resource schema: CompositeResourceDefinition {name:?} has unrecognized apiVersion {api_version:?} (expected one of [apiextensions.crossplane.io/v1 apiextensions.crossplane.io/v2])"
        )));
    }
    let (group, kind) = (text(xrd, "/spec/group"), text(xrd, "/spec/names/kind"));
    let xr_api = text(&inputs.xr, "/apiVersion");
    let xr_group = match xr_api.rsplit_once('/') {
        Some((group, _)) => group.to_string(),
        None => String::new(),
    };
    let xr_kind = text(&inputs.xr, "/kind");
    if group != xr_group || kind != xr_kind {
        return Err(engine_failed(&format!(
            "cannot select composite resource schema: CompositeResourceDefinition {name:?} (composite Group={group} Kind={kind}) does not match the input XR's Group={xr_group} Kind={xr_kind}"
        )));
    }
    Ok(())
}

/// The engine's checks of the observed resources (crossplane#7544, engine v2.3.4): none may be
/// controlled by another object than the XR, and a namespaced XR's must be in its namespace.
pub fn check_observed(inputs: &Inputs) -> Result<(), RenderError> {
    let xr_uid = uid(&inputs.xr);
    let xr_ns = inputs
        .xr
        .at("/metadata/namespace")
        .and_then(Json::as_str)
        .unwrap_or("");
    let mut errors: Vec<String> = Vec::new();
    for o in &inputs.observed {
        let name = o.at("/metadata/name").and_then(Json::as_str).unwrap_or("");
        let controller = controller_ref(o);
        if let Some(c) = controller
            && c.get("uid").and_then(Json::as_str) != Some(xr_uid.as_str())
        {
            errors.push(format!(
                "observed resource {name} has a controller ref but is not controlled by the XR"
            ));
        }
        let ns = o
            .at("/metadata/namespace")
            .and_then(Json::as_str)
            .unwrap_or("");
        if !xr_ns.is_empty() && ns != xr_ns {
            errors.push(format!(
                "observed resource {name} is not in the same namespace as the XR"
            ));
        }
    }
    errors.dedup();
    match errors.len() {
        0 => Ok(()),
        1 => Err(engine_failed(&format!(
            "invalid observed resources: {}",
            errors[0]
        ))),
        _ => Err(engine_failed(&format!(
            "invalid observed resources: [{}]",
            errors.join(", ")
        ))),
    }
}

/// A resource's controller reference (the owner reference with `controller: true`).
pub(super) fn controller_ref(o: &Json) -> Option<&Json> {
    o.at("/metadata/ownerReferences")
        .and_then(Json::as_array)
        .and_then(|refs| {
            refs.iter()
                .find(|r| r.get("controller") == Some(&Json::Bool(true)))
        })
}

/// The XR the functions observe: the input with the engine's UID, `resourceVersion`, the
/// `crossplane.io/composite` label, the composition reference, the references of the observed
/// resources and the `Responsive` condition.
pub fn observed_xr(inputs: &Inputs, composition: &str) -> Json {
    let mut xr = inputs.xr.clone();
    let namespaced = inputs
        .xr
        .at("/metadata/namespace")
        .and_then(Json::as_str)
        .is_some_and(|n| !n.is_empty());
    let legacy = legacy(inputs);
    let name = inputs
        .xr
        .at("/metadata/name")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    let uid = uid(&inputs.xr);
    let metadata = object_at(&mut xr, "metadata");
    metadata.insert("uid".into(), json!(uid));
    metadata.insert("resourceVersion".into(), json!("999"));
    let labels = object_at_map(metadata, "labels");
    labels
        .entry("crossplane.io/composite")
        .or_insert_with(|| json!(name));
    let refs: Vec<Json> = inputs
        .observed
        .iter()
        .filter_map(|o| {
            let name = o.at("/metadata/name").and_then(Json::as_str)?;
            let mut r = json!({
                "apiVersion": o.get("apiVersion").cloned().unwrap_or(json!("")),
                "kind": o.get("kind").cloned().unwrap_or(json!("")),
                "name": name,
            });
            if !namespaced && let Some(ns) = o.at("/metadata/namespace").and_then(Json::as_str) {
                r["namespace"] = json!(ns);
            }
            Some(r)
        })
        .collect();
    let Json::Object(top) = &mut xr else {
        return xr;
    };
    let spec = object_at_map(top, "spec");
    let target = if legacy {
        spec
    } else {
        object_at_map(spec, "crossplane")
    };
    target.insert("compositionRef".into(), json!({"name": composition}));
    if !refs.is_empty() {
        target.insert("resourceRefs".into(), Json::Array(refs));
    }
    let status = object_at_map(top, "status");
    let conditions = status
        .entry("conditions")
        .or_insert_with(|| Json::Array(Vec::new()));
    if let Json::Array(list) = conditions {
        set_condition(list, responsive(&inputs.xr));
    }
    xr
}

/// `Responsive`: True, `WatchCircuitClosed`, with the XR's generation when it has one.
fn responsive(xr: &Json) -> Json {
    let mut c = status_condition("Responsive", "True", "WatchCircuitClosed", None);
    if let Some(generation) = xr.at("/metadata/generation").and_then(Json::as_i64)
        && generation != 0
    {
        c["observedGeneration"] = json!(generation);
    }
    c
}

/// The [`Identity`] of the first observed resource of each composition resource name among
/// those with a `metadata.name`: what [`documents`] copies onto the composed resource of that
/// name. Read before the pipeline takes the observed resources.
pub(super) fn observed_identities(observed: &[Json]) -> HashMap<String, Identity> {
    let mut identities = HashMap::with_capacity(observed.len());
    for o in observed {
        if o.at("/metadata/name").and_then(Json::as_str).is_some() {
            identities
                .entry(composition_resource_name(o).to_string())
                .or_insert_with(|| identity_of(o));
        }
    }
    identities
}

/// Every document to print, in the engine dialect's order. `observed`: the observed
/// resources' [`observed_identities`].
pub(super) fn documents(
    inputs: &Inputs,
    observed: &HashMap<String, Identity>,
    run: &Run,
    options: Options,
    composition: &str,
) -> Result<Vec<Json>, RenderError> {
    let uid = uid(&inputs.xr);
    let xr_ns = inputs
        .xr
        .at("/metadata/namespace")
        .and_then(Json::as_str)
        .filter(|n| !n.is_empty());
    let mut composed = Vec::new();
    let mut warnings = Vec::new();
    for (name, resource) in &run.desired.resources {
        let mut body = resource
            .resource
            .clone()
            .unwrap_or(Json::Object(Map::new()));
        let metadata = object_at(&mut body, "metadata");
        if let Some(identity) = observed.get(name.as_str()) {
            copy_identity(metadata, identity.each_ref().map(Option::as_deref));
        }
        if let Some(ns) = xr_ns {
            let own = metadata
                .get("namespace")
                .and_then(Json::as_str)
                .unwrap_or("");
            if !own.is_empty() && own != ns {
                warnings.push(json!({
                    "apiVersion": RENDER_API, "kind": "Result",
                    "message": format!("cannot create composed resource {name:?} in namespace {own:?}, using XR namespace {ns:?} instead"),
                    "reason": "NamespaceOverridden", "severity": "Warning",
                }));
            }
            metadata.insert("namespace".into(), json!(ns));
        }
        let prefix = prefix(&inputs.xr);
        let unnamed = !metadata.contains_key("name") && !metadata.contains_key("generateName");
        if unnamed {
            metadata.insert("generateName".into(), json!(format!("{prefix}-")));
        }
        object_at_map(metadata, "annotations").insert(RESOURCE_NAME_ANNOTATION.into(), json!(name));
        let labels = object_at_map(metadata, "labels");
        labels.insert("crossplane.io/composite".into(), json!(prefix));
        claim_labels(&inputs.xr, labels);
        let owner = owner_reference(&inputs.xr, json!(uid));
        let own_name = metadata
            .get("name")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        let refs = owner_references(metadata);
        if let Some(other) = refs.iter().find(|r| {
            r.get("controller") == Some(&Json::Bool(true))
                && r.get("uid").and_then(Json::as_str) != Some(uid.as_str())
        }) {
            let text = |k: &str| {
                other
                    .get(k)
                    .and_then(Json::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            return Err(engine_failed(&format!(
                "reconcile failed: cannot compose resources: cannot render metadata for composed resource {name:?}: cannot set controller reference: {} is already controlled by {} {} (UID {})",
                own_name,
                text("kind"),
                text("name"),
                text("uid")
            )));
        }
        match refs
            .iter_mut()
            .find(|r| r.get("uid").and_then(Json::as_str) == Some(uid.as_str()))
        {
            Some(existing) => *existing = owner,
            None => refs.push(owner),
        }
        let metadata = object_at(&mut body, "metadata");
        if metadata
            .get("name")
            .and_then(Json::as_str)
            .is_none_or(str::is_empty)
        {
            let generate = metadata
                .get("generateName")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string();
            metadata.insert("name".into(), json!(child_name(&generate, &uid, name)));
        }
        let final_name = metadata_name(&body);
        let kind = body.get("kind").and_then(Json::as_str).unwrap_or("");
        if !is_dns1123_subdomain(&strip_rbac_colons(kind, &final_name)) {
            return Err(engine_failed(&format!(
                "reconcile failed: cannot compose resources: cannot apply composed resource {name:?} because it has an invalid name {final_name:?}. Must be a valid RFC 1123 subdomain name."
            )));
        }
        rewrite_condition_times(&mut body);
        composed.push((name.clone(), body));
    }
    composed.sort_by(|a, b| a.0.cmp(&b.0));
    let xr = composite(inputs, run, options, &composed)?;
    let mut docs = vec![xr];
    docs.extend(composed.into_iter().map(|(_, body)| body));
    if options.include_function_results {
        docs.extend(events(inputs, run, composition, warnings));
    }
    if options.include_context && run.context_returned {
        docs.push(json!({"apiVersion": RENDER_API, "kind": "Context", "fields": Json::Object(run.context.clone())}));
    }
    Ok(docs.iter().map(struct_numbers).collect())
}

fn metadata_name(body: &Json) -> String {
    body.at("/metadata/name")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string()
}

/// RBAC names may hold colons, which the engine strips before checking.
fn strip_rbac_colons(kind: &str, name: &str) -> String {
    if matches!(
        kind,
        "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding"
    ) {
        name.replace(':', "")
    } else {
        name.to_string()
    }
}

/// `validation.IsDNS1123Subdomain`.
fn is_dns1123_subdomain(name: &str) -> bool {
    name.len() <= 253
        && !name.is_empty()
        && name.split('.').all(|label| {
            let bytes = label.as_bytes();
            !bytes.is_empty()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
                && bytes[0] != b'-'
                && bytes[bytes.len() - 1] != b'-'
        })
}

/// The CLI's rewrite of every condition's time (and its typed re-encoding: `type`,
/// `status`, `lastTransitionTime`, `reason` always, `message` and `observedGeneration` when
/// set, other keys dropped); a `status` without conditions gets `conditions: null`.
pub(super) fn rewrite_condition_times(object: &mut Json) {
    let Some(Json::Object(status)) = object.get_mut("status") else {
        return;
    };
    let conditions = match status.get("conditions") {
        Some(Json::Array(list)) => Json::Array(
            list.iter()
                .map(|c| {
                    let text = |k: &str| c.get(k).and_then(Json::as_str).unwrap_or("").to_string();
                    let mut out = json!({
                        "type": text("type"),
                        "status": text("status"),
                        "lastTransitionTime": TRANSITION_TIME,
                        "reason": text("reason"),
                    });
                    if !text("message").is_empty() {
                        out["message"] = json!(text("message"));
                    }
                    if let Some(g) = c.get("observedGeneration").and_then(Json::as_i64)
                        && g != 0
                    {
                        out["observedGeneration"] = json!(g);
                    }
                    out
                })
                .collect(),
        ),
        _ => Json::Null,
    };
    status.insert("conditions".into(), conditions);
}

/// The XR document: identity, the references of the composed resources, the last desired
/// status with the reconciler's conditions; with `-x` laid over the input XR.
fn composite(
    inputs: &Inputs,
    run: &Run,
    options: Options,
    composed: &[(String, Json)],
) -> Result<Json, RenderError> {
    let input = &inputs.xr;
    let namespaced = input
        .at("/metadata/namespace")
        .and_then(Json::as_str)
        .is_some_and(|n| !n.is_empty());
    let mut refs: Vec<Json> = composed
        .iter()
        .map(|(_, body)| {
            let mut r = Map::new();
            for key in ["apiVersion", "kind"] {
                if let Some(Json::String(v)) = body.get(key)
                    && !v.is_empty()
                {
                    r.insert(key.into(), json!(v));
                }
            }
            for (key, pointer) in [
                ("name", "/metadata/name"),
                ("namespace", "/metadata/namespace"),
                ("uid", "/metadata/uid"),
            ] {
                if key == "namespace" && namespaced {
                    continue;
                }
                if let Some(Json::String(v)) = body.at(pointer)
                    && !v.is_empty()
                {
                    r.insert(key.into(), json!(v));
                }
            }
            Json::Object(r)
        })
        .filter(|r| r.as_object().is_some_and(|m| !m.is_empty()))
        .collect();
    let key = |r: &Json| {
        ["apiVersion", "kind", "name", "namespace"]
            .iter()
            .map(|k| r.get(*k).and_then(Json::as_str).unwrap_or(""))
            .collect::<String>()
    };
    refs.sort_by_key(key);
    let mut out = Map::new();
    for k in ["apiVersion", "kind"] {
        if let Some(v) = input.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    let mut metadata = Map::new();
    for k in ["name", "namespace"] {
        if let Some(Json::String(v)) = input.at(&format!("/metadata/{k}"))
            && !v.is_empty()
        {
            metadata.insert(k.into(), json!(v));
        }
    }
    out.insert("metadata".into(), Json::Object(metadata));
    let mut spec = Map::new();
    if legacy(inputs) {
        spec.insert("resourceRefs".into(), Json::Array(refs));
    } else {
        spec.insert("crossplane".into(), json!({"resourceRefs": refs}));
    }
    out.insert("spec".into(), Json::Object(spec));
    let desired = run
        .desired
        .composite
        .as_ref()
        .and_then(|c| c.resource.as_ref())
        .and_then(|r| r.get("status"))
        .and_then(Json::as_object)
        .cloned()
        .unwrap_or_default();
    let mut status = desired;
    status_after_compose(&mut status, input, run, legacy(inputs));
    out.insert("status".into(), Json::Object(status));
    let mut xr = Json::Object(out);
    if options.include_full_xr {
        let mut merged = input.clone();
        merge_override(&mut merged, &xr);
        xr = merged;
    }
    rewrite_condition_times(&mut xr);
    Ok(xr)
}

/// The XR's status as the reconciler leaves it, from the last desired status (`status`):
/// the composer applies that status with the conditions the XR already held (the input's,
/// `Responsive` marked), so the input's custom conditions survive; the reconciler then sets
/// the functions' conditions by type (system types skipped; on a legacy XR one targeting
/// `CompositeAndClaim` adds its type to `status.claimConditionTypes`), then `Synced` and
/// `Ready`. Any other field of the input's status is gone: the applied status replaces it.
fn status_after_compose(status: &mut Map<String, Json>, input: &Json, run: &Run, legacy: bool) {
    let mut conditions = status_conditions(Some(status));
    let mut held = status_conditions(input.get("status").and_then(Json::as_object));
    set_condition(&mut held, responsive(input));
    for c in held {
        set_condition(&mut conditions, c);
    }
    // `GetClaimConditionTypes`: a list of strings, or none at all.
    let mut claim_types: Vec<Json> = match status.get("claimConditionTypes") {
        Some(Json::Array(types)) if types.iter().all(Json::is_string) => types.clone(),
        _ => Vec::new(),
    };
    let mut claim_types_set = false;
    for c in &run.conditions {
        if SYSTEM_CONDITIONS.contains(&c.kind.as_str()) {
            continue;
        }
        set_condition(&mut conditions, condition(c));
        if legacy && c.target.as_deref() == Some("TARGET_COMPOSITE_AND_CLAIM") {
            claim_types_set = true;
            let kind = json!(c.kind);
            if !claim_types.contains(&kind) {
                claim_types.push(kind);
            }
        }
    }
    // The XR the reconciler marks these on holds only what the composer applied (its
    // references and status): no generation, so no `observedGeneration`.
    set_condition(
        &mut conditions,
        status_condition("Synced", "True", "ReconcileSuccess", None),
    );
    set_condition(&mut conditions, ready_condition(run));
    status.insert("conditions".into(), Json::Array(conditions));
    if claim_types_set {
        status.insert("claimConditionTypes".into(), Json::Array(claim_types));
    }
}

/// `mergo.Merge(dst, src, WithOverride)` on maps: maps merge key by key, anything else from
/// `src` replaces (lists wholesale), except that an empty map does not replace a non-empty one.
pub fn merge_override(dst: &mut Json, src: &Json) {
    match (dst, src) {
        (Json::Object(d), Json::Object(s)) => {
            for (k, v) in s {
                match d.get_mut(k) {
                    Some(existing @ Json::Object(_)) if v.is_object() => {
                        merge_override(existing, v)
                    }
                    Some(Json::Object(existing))
                        if !existing.is_empty() && v.as_object().is_some_and(Map::is_empty) => {}
                    _ => {
                        d.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (d, s) => *d = s.clone(),
    }
}

/// The reconciler's events as `Result` documents: composition selection, each step's results,
/// namespace overrides, then the composed resources not yet ready (by name).
fn events(inputs: &Inputs, run: &Run, composition: &str, warnings: Vec<Json>) -> Vec<Json> {
    let result = |severity: &str, reason: &str, message: String| json!({"apiVersion": RENDER_API, "kind": "Result", "message": message, "reason": reason, "severity": severity});
    let mut out = Vec::new();
    let reference = if legacy(inputs) {
        inputs.xr.at("/spec/compositionRef")
    } else {
        inputs.xr.at("/spec/crossplane/compositionRef")
    };
    if reference != Some(&json!({"name": composition})) {
        out.push(result(
            "Normal",
            "SelectComposition",
            format!("Successfully selected composition: {composition}"),
        ));
    }
    for (step, r) in &run.results {
        let reason = r
            .reason
            .as_deref()
            .filter(|r| !r.is_empty())
            .unwrap_or("ComposeResources");
        match r.severity.as_str() {
            "SEVERITY_NORMAL" => out.push(result("Normal", reason, format!("Pipeline step {step:?}: {}", r.message))),
            "SEVERITY_WARNING" => out.push(result("Warning", reason, format!("Pipeline step {step:?}: {}", r.message))),
            "SEVERITY_FATAL" => {}
            _ => out.push(result(
                "Warning",
                reason,
                format!(
                    "Pipeline step {step:?} returned a result of unknown severity (assuming warning): {}",
                    r.message
                ),
            )),
        }
    }
    out.extend(warnings);
    for (name, resource) in &run.desired.resources {
        if resource.ready.as_deref() != Some("READY_TRUE") {
            out.push(result(
                "Normal",
                "ComposeResources",
                format!("Composed resource {name:?} is not yet ready"),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
