//! The schemas of an XRD's composite resource and claim, built as Crossplane builds their CRDs
//! (crossplane v2.2.4 `internal/xcrd`): the XRD's `spec` and `status` schemas with the fields
//! Crossplane adds — `spec.crossplane.*` for modern (v2, Namespaced or Cluster) XRs, the
//! composition and claim references directly under `spec` for legacy ones, `status.conditions`
//! for all.

use super::crd::{Definition, Origin, Scope, group_and_kind};
use crate::gostd::strconv::quote;
use crate::source::pointer::Pointer;
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
        update_policy(xrd.at("/spec/defaultCompositionUpdatePolicy")),
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
    if let Some(d) = xrd.at("/spec/defaultCompositeDeletePolicy") {
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
        .at("/properties/metadata/properties/name/maxLength")
        .and_then(Json::as_u64)
        .map_or(63, |m| m.min(63));
    let mut root = json!({
        "type": "object",
        "required": ["spec"],
        "properties": {
            "apiVersion": string(),
            "kind": string(),
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": max_name}}},
            "spec": section(user.at("/properties/spec"), spec, true),
            "status": section(user.at("/properties/status"), status, false),
        }
    });
    for key in ["description", "x-kubernetes-validations"] {
        if let Some(v) = user.get(key) {
            root[key] = v.clone();
        }
    }
    root
}

/// The XRD's scope, after the API server's defaulting (a v2 XRD's is `Namespaced`, a v1 XRD's
/// `LegacyCluster`), refused as the `enum` of its apiVersion refuses it.
fn scope_of(xrd: &Json, v2: bool) -> Result<XrScope, String> {
    let allowed: &[&str] = if v2 {
        &["Namespaced", "Cluster"]
    } else {
        &["LegacyCluster", "Namespaced", "Cluster"]
    };
    match xrd.at("/spec/scope").and_then(Json::as_str) {
        None if v2 => Ok(XrScope::Namespaced),
        None => Ok(XrScope::LegacyCluster),
        Some(s) if allowed.contains(&s) => Ok(match s {
            "Namespaced" => XrScope::Namespaced,
            "Cluster" => XrScope::Cluster,
            _ => XrScope::LegacyCluster,
        }),
        Some(other) => {
            let supported: Vec<String> = allowed.iter().map(|a| quote(a)).collect();
            Err(format!(
                "spec.scope: Unsupported value: {}: supported values: {}",
                quote(other),
                supported.join(", ")
            ))
        }
    }
}

/// The `x-kubernetes-validations` of the XRD's own CRD (crossplane v2.2.4
/// `apis/apiextensions/v1|v2/xrd_types.go`) that a cluster checks when the XRD is created and
/// that decide which schemas it gives: claims and XR connection secrets only for LegacyCluster
/// XRs (none in v2), lowercase plural names. Worded as the API server reports a failed rule.
fn refusals(xrd: &Json, v2: bool, scope: XrScope) -> Result<(), String> {
    let spec = |message: &str| Err(format!("spec: Invalid value: \"object\": {message}"));
    let has = |p: &str| xrd.at(p).is_some_and(|v| !v.is_null());
    if v2 && has("/spec/claimNames") {
        return spec("Claims aren't supported in apiextensions.crossplane.io/v2");
    }
    if v2 && has("/spec/connectionSecretKeys") {
        return spec("XR connection secrets aren't supported in apiextensions.crossplane.io/v2");
    }
    if scope != XrScope::LegacyCluster && has("/spec/claimNames") {
        return spec("Only LegacyCluster composite resources can offer claims");
    }
    if scope != XrScope::LegacyCluster && has("/spec/connectionSecretKeys") {
        return spec("Only LegacyCluster composite resources support connection secrets");
    }
    for names in ["names", "claimNames"] {
        let text = |key: &str| {
            xrd.at(&format!("/spec/{names}/{key}"))
                .and_then(Json::as_str)
        };
        for (key, what) in [("plural", "Plural"), ("singular", "Singular")] {
            if let Some(n) = text(key)
                && n != n.to_ascii_lowercase()
            {
                return Err(format!(
                    "spec.{names}: Invalid value: \"object\": {what} name must be lowercase"
                ));
            }
        }
    }
    Ok(())
}

/// Crossplane's check of claim names before it builds the claim's CRD (`validateClaimNames`
/// of `internal/xcrd`): none may repeat the XR's.
fn claim_names_conflict(xrd: &Json) -> Option<String> {
    let text = |p: &str| xrd.at(p).and_then(Json::as_str).unwrap_or("");
    for (key, optional) in [
        ("kind", false),
        ("plural", false),
        ("singular", true),
        ("listKind", true),
    ] {
        let claim = text(&format!("/spec/claimNames/{key}"));
        if (!optional || !claim.is_empty()) && claim == text(&format!("/spec/names/{key}")) {
            return Some(format!(
                "cannot derive claim CRD from XRD {}: invalid resource claim names: {} conflicts with composite resource name",
                quote(text("/metadata/name")),
                quote(claim)
            ));
        }
    }
    None
}

/// The composite resource (and, with `claimNames`, claim) definitions of an XRD, or why a
/// cluster (or Crossplane) would refuse the XRD.
pub(super) fn definitions(xrd: &Json) -> Result<Vec<Definition>, String> {
    let (group, kind) = group_and_kind(xrd)?;
    let v2 = xrd.get("apiVersion").and_then(Json::as_str) == Some("apiextensions.crossplane.io/v2");
    let scope = scope_of(xrd, v2)?;
    refusals(xrd, v2, scope)?;
    let legacy = scope == XrScope::LegacyCluster;
    let versions = xrd
        .at("/spec/versions")
        .and_then(Json::as_array)
        .ok_or("spec.versions is missing")?;
    let claim_kind = xrd.at("/spec/claimNames/kind").and_then(Json::as_str);
    let mut out = Vec::new();
    for version in versions {
        let Some(name) = version.get("name").and_then(Json::as_str) else {
            continue;
        };
        let Some(user) = version.at("/schema/openAPIV3Schema") else {
            return Err(format!(
                "cannot generate CRD for \"Composite Resource\" {:?}: custom resource validation cannot be nil",
                xrd.at("/metadata/name")
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
            referenceable: version.get("referenceable").and_then(Json::as_bool) == Some(true),
        });
        if let Some(claim) = claim_kind {
            if let Some(conflict) = claim_names_conflict(xrd) {
                return Err(conflict);
            }
            out.push(Definition {
                api_version: format!("{group}/{name}"),
                kind: claim.to_string(),
                schema: version_schema(user, claim_spec_props(xrd), status_props(true)),
                scope: Scope::Namespaced,
                origin: Origin::Claim,
                referenceable: false,
            });
        }
    }
    Ok(out)
}
