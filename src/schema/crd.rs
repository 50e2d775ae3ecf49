//! What a CustomResourceDefinition defines: each version of its kind with the schema as
//! written, before compiling. XRDs (`xrd`) give the same [`Definition`]s.

use crate::source::pointer::Pointer;
use serde_json::Value as Json;

/// Whether a kind's objects live in a namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `Namespaced`.
    Namespaced,
    /// `Cluster` (and Crossplane's `LegacyCluster`).
    Cluster,
}

/// Where a schema came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A CustomResourceDefinition.
    Crd,
    /// The composite resource of an XRD.
    Composite,
    /// The claim of an XRD.
    Claim,
}

/// One kind's version with its schema, before compiling.
pub(super) struct Definition {
    pub api_version: String,
    pub kind: String,
    pub schema: Json,
    pub scope: Scope,
    pub origin: Origin,
    /// An XRD version's `referenceable` (the version Compositions reference).
    pub referenceable: bool,
}

fn scope_of(doc: &Json) -> Scope {
    match doc.at("/spec/scope").and_then(Json::as_str) {
        Some("Namespaced") => Scope::Namespaced,
        _ => Scope::Cluster,
    }
}

/// `spec.group` and `spec.names.kind` of a CRD or XRD.
pub(super) fn group_and_kind(doc: &Json) -> Result<(&str, &str), String> {
    let group = doc
        .at("/spec/group")
        .and_then(Json::as_str)
        .ok_or("spec.group is missing")?;
    let kind = doc
        .at("/spec/names/kind")
        .and_then(Json::as_str)
        .ok_or("spec.names.kind is missing")?;
    Ok((group, kind))
}

/// The versions of an `apiextensions.k8s.io/v1` CRD.
pub(super) fn definitions(doc: &Json) -> Result<Vec<Definition>, String> {
    let (group, kind) = group_and_kind(doc)?;
    let versions = doc
        .at("/spec/versions")
        .and_then(Json::as_array)
        .ok_or("spec.versions is missing")?;
    let scope = scope_of(doc);
    Ok(versions
        .iter()
        .filter_map(|v| {
            let name = v.get("name")?.as_str()?;
            // A version without a schema accepts anything (preserves unknown fields).
            let schema = v
                .at("/schema/openAPIV3Schema")
                .cloned()
                .unwrap_or_else(|| {
                    serde_json::json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
                });
            Some(Definition {
                api_version: format!("{group}/{name}"),
                kind: kind.to_string(),
                schema,
                scope,
                origin: Origin::Crd,
                referenceable: false,
            })
        })
        .collect())
}

/// `apiextensions.k8s.io/v1beta1`: one schema for every version, or one per version.
pub(super) fn definitions_v1beta1(doc: &Json) -> Result<Vec<Definition>, String> {
    let (group, kind) = group_and_kind(doc)?;
    let shared = doc.at("/spec/validation/openAPIV3Schema");
    let mut names: Vec<(String, Option<&Json>)> = doc
        .at("/spec/versions")
        .and_then(Json::as_array)
        .map(|vs| {
            vs.iter()
                .filter_map(|v| {
                    Some((
                        v.get("name")?.as_str()?.to_string(),
                        v.at("/schema/openAPIV3Schema"),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty()
        && let Some(version) = doc.at("/spec/version").and_then(Json::as_str)
    {
        names.push((version.to_string(), None));
    }
    let scope = scope_of(doc);
    Ok(names
        .into_iter()
        .map(|(name, own)| {
            Definition {
            api_version: format!("{group}/{name}"),
            kind: kind.to_string(),
            schema: own.or(shared).cloned().unwrap_or_else(|| {
                serde_json::json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
            }),
            scope,
            origin: Origin::Crd,
            referenceable: false,
        }
        })
        .collect())
}
