//! The schemas of an XRD's composite resource and claim, built as Crossplane builds their CRDs
//! (crossplane v2.2.4 `internal/xcrd`): the XRD's `spec` and `status` schemas with the fields
//! Crossplane adds — `spec.crossplane.*` for modern (v2, Namespaced or Cluster) XRs, the
//! composition and claim references directly under `spec` for legacy ones, `status.conditions`
//! for all.

use super::crd::{Definition, Origin, Scope, group_and_kind};
use serde_json::{Map, Value as Json, json};

/// An XRD's scope, as Crossplane reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum XrScope {
    Namespaced,
    Cluster,
    LegacyCluster,
}

fn string() -> Json {
    json!({"type": "string"})
}

fn reference() -> Json {
    json!({"type": "object", "required": ["name"], "properties": {"name": string()}})
}

fn selector() -> Json {
    json!({"type": "object", "required": ["matchLabels"], "properties": {
        "matchLabels": {"type": "object", "additionalProperties": string()}
    }})
}

fn update_policy(default: Option<&Json>) -> Json {
    let mut policy = json!({"type": "string", "enum": ["Automatic", "Manual"]});
    if let Some(d) = default {
        policy["default"] = d.clone();
    }
    policy
}

/// The properties every XR's spec (or `spec.crossplane`) gets.
fn composite_spec_props(xrd: &Json, scope: XrScope) -> Map<String, Json> {
    let mut ref_props = json!({"apiVersion": string(), "name": string(), "kind": string()});
    if scope != XrScope::Namespaced {
        ref_props["namespace"] = string();
    }
    let mut props = Map::new();
    props.insert("compositionRef".into(), reference());
    props.insert("compositionSelector".into(), selector());
    props.insert("compositionRevisionRef".into(), reference());
    props.insert("compositionRevisionSelector".into(), selector());
    props.insert(
        "compositionUpdatePolicy".into(),
        update_policy(xrd.pointer("/spec/defaultCompositionUpdatePolicy")),
    );
    props.insert(
        "resourceRefs".into(),
        json!({"type": "array", "x-kubernetes-list-type": "atomic", "items": {
            "type": "object", "required": ["apiVersion", "kind"], "properties": ref_props
        }}),
    );
    props
}

fn legacy_spec_props() -> Map<String, Json> {
    let mut props = Map::new();
    props.insert(
        "claimRef".into(),
        json!({"type": "object", "required": ["apiVersion", "kind", "namespace", "name"], "properties": {
            "apiVersion": string(), "kind": string(), "namespace": string(), "name": string()
        }}),
    );
    props.insert(
        "writeConnectionSecretToRef".into(),
        json!({"type": "object", "required": ["name", "namespace"], "properties": {
            "name": string(), "namespace": string()
        }}),
    );
    props
}

fn claim_spec_props(xrd: &Json) -> Map<String, Json> {
    let mut props = Map::new();
    props.insert("compositionRef".into(), reference());
    props.insert("compositionSelector".into(), selector());
    props.insert("compositionRevisionRef".into(), reference());
    props.insert("compositionRevisionSelector".into(), selector());
    props.insert("compositionUpdatePolicy".into(), update_policy(None));
    let mut delete = json!({"type": "string", "enum": ["Background", "Foreground"]});
    if let Some(d) = xrd.pointer("/spec/defaultCompositeDeletePolicy") {
        delete["default"] = d.clone();
    }
    props.insert("compositeDeletePolicy".into(), delete);
    props.insert(
        "resourceRef".into(),
        json!({"type": "object", "required": ["apiVersion", "kind", "name"], "properties": {
            "apiVersion": string(), "kind": string(), "name": string()
        }}),
    );
    props.insert(
        "writeConnectionSecretToRef".into(),
        json!({"type": "object", "required": ["name"], "properties": {"name": string()}}),
    );
    props
}

fn status_props(legacy: bool) -> Map<String, Json> {
    let mut props = Map::new();
    props.insert(
        "conditions".into(),
        json!({
            "type": "array",
            "description": "Conditions of the resource.",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["type"],
            "items": {
                "type": "object",
                "required": ["lastTransitionTime", "reason", "status", "type"],
                "properties": {
                    "lastTransitionTime": {"type": "string", "format": "date-time"},
                    "message": string(),
                    "reason": string(),
                    "status": string(),
                    "type": string(),
                    "observedGeneration": {"type": "integer", "format": "int64"}
                }
            }
        }),
    );
    if legacy {
        props.insert(
            "connectionDetails".into(),
            json!({"type": "object", "properties": {
                "lastPublishedTime": {"type": "string", "format": "date-time"}
            }}),
        );
        props.insert(
            "claimConditionTypes".into(),
            json!({"type": "array", "x-kubernetes-list-type": "set", "items": string()}),
        );
    }
    props
}

/// Copies the keywords Crossplane keeps of the XRD's `spec` or `status` schema, then adds
/// `injected` over its properties.
fn section(user: Option<&Json>, injected: Map<String, Json>, keep_preserve: bool) -> Json {
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    let keys: &[&str] = if keep_preserve {
        &[
            "description",
            "required",
            "x-kubernetes-preserve-unknown-fields",
            "x-kubernetes-validations",
            "oneOf",
        ]
    } else {
        &[
            "description",
            "required",
            "x-kubernetes-validations",
            "oneOf",
        ]
    };
    for key in keys {
        if let Some(v) = user.and_then(|u| u.get(*key)) {
            out.insert((*key).into(), v.clone());
        }
    }
    let mut props = user
        .and_then(|u| u.get("properties"))
        .and_then(Json::as_object)
        .cloned()
        .unwrap_or_default();
    props.extend(injected);
    out.insert("properties".into(), Json::Object(props));
    Json::Object(out)
}

/// The root schema of an XR or claim version.
fn version_schema(user: &Json, spec: Map<String, Json>, status: Map<String, Json>) -> Json {
    let max_name = user
        .pointer("/properties/metadata/properties/name/maxLength")
        .and_then(Json::as_u64)
        .map_or(63, |m| m.min(63));
    let mut root = json!({
        "type": "object",
        "required": ["spec"],
        "properties": {
            "apiVersion": string(),
            "kind": string(),
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": max_name}}},
            "spec": section(user.pointer("/properties/spec"), spec, true),
            "status": section(user.pointer("/properties/status"), status, false),
        }
    });
    for key in ["description", "x-kubernetes-validations"] {
        if let Some(v) = user.get(key) {
            root[key] = v.clone();
        }
    }
    root
}

/// The composite resource (and, with `claimNames`, claim) definitions of an XRD.
pub(super) fn definitions(xrd: &Json) -> Result<Vec<Definition>, String> {
    let (group, kind) = group_and_kind(xrd)?;
    let v2 = xrd.get("apiVersion").and_then(Json::as_str) == Some("apiextensions.crossplane.io/v2");
    let scope = match xrd.pointer("/spec/scope").and_then(Json::as_str) {
        Some("Namespaced") => XrScope::Namespaced,
        Some("Cluster") => XrScope::Cluster,
        Some("LegacyCluster") => XrScope::LegacyCluster,
        Some(other) => return Err(format!("unknown scope {other:?}")),
        // The API server defaults a v2 XRD's scope to Namespaced, a v1 XRD's is LegacyCluster.
        None if v2 => XrScope::Namespaced,
        None => XrScope::LegacyCluster,
    };
    let legacy = scope == XrScope::LegacyCluster;
    let versions = xrd
        .pointer("/spec/versions")
        .and_then(Json::as_array)
        .ok_or("spec.versions is missing")?;
    let claim_kind = xrd.pointer("/spec/claimNames/kind").and_then(Json::as_str);
    let mut out = Vec::new();
    for version in versions {
        let Some(name) = version.get("name").and_then(Json::as_str) else {
            continue;
        };
        let Some(user) = version.pointer("/schema/openAPIV3Schema") else {
            return Err(format!(
                "cannot generate CRD for \"Composite Resource\" {:?}: custom resource validation cannot be nil",
                xrd.pointer("/metadata/name")
                    .and_then(Json::as_str)
                    .unwrap_or("")
            ));
        };
        let mut spec = Map::new();
        if legacy {
            spec.extend(composite_spec_props(xrd, scope));
            spec.extend(legacy_spec_props());
        } else {
            spec.insert(
                "crossplane".into(),
                json!({
                    "type": "object",
                    "description": "Configures how Crossplane will reconcile this composite resource",
                    "properties": composite_spec_props(xrd, scope),
                }),
            );
        }
        out.push(Definition {
            api_version: format!("{group}/{name}"),
            kind: kind.to_string(),
            schema: version_schema(user, spec, status_props(legacy)),
            scope: if scope == XrScope::Namespaced {
                Scope::Namespaced
            } else {
                Scope::Cluster
            },
            origin: Origin::Composite,
        });
        if let Some(claim) = claim_kind {
            out.push(Definition {
                api_version: format!("{group}/{name}"),
                kind: claim.to_string(),
                schema: version_schema(user, claim_spec_props(xrd), status_props(true)),
                scope: Scope::Namespaced,
                origin: Origin::Claim,
            });
        }
    }
    Ok(out)
}
