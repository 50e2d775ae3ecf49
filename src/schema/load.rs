//! Schemas from CRDs and XRDs: each served version of each kind, compiled once and found by
//! `apiVersion` and `kind`.

use super::node::{Node, SchemaError};
use super::xrd;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::Arc;

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

/// The schema of one `apiVersion`/`kind`.
#[derive(Clone, Debug)]
pub struct Entry {
    /// `group/version`.
    pub api_version: String,
    /// The kind.
    pub kind: String,
    /// The compiled `openAPIV3Schema`.
    pub schema: Arc<Node>,
    /// Namespaced or not.
    pub scope: Scope,
    /// CRD, XR or claim.
    pub origin: Origin,
    /// The file it was read from.
    pub file: String,
}

/// Every schema given, by `apiVersion` and `kind`.
#[derive(Clone, Debug, Default)]
pub struct Schemas {
    entries: BTreeMap<(String, String), Entry>,
}

/// Why a document could not give schemas.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {kind} {name:?}: {message}")]
pub struct LoadError {
    /// The file.
    pub file: String,
    /// The document's kind.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

impl Schemas {
    /// No schemas.
    pub fn new() -> Schemas {
        Schemas::default()
    }

    /// The schema of `api_version`/`kind`.
    pub fn get(&self, api_version: &str, kind: &str) -> Option<&Entry> {
        self.entries
            .get(&(api_version.to_string(), kind.to_string()))
    }

    /// How many kinds (one per version) are known.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no schema is known.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, by apiVersion and kind.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    /// Adds the schemas a document defines: a CRD's versions, an XRD's composite (and claim)
    /// versions. Other documents define none (`Ok(0)`); the number added otherwise.
    pub fn add_document(&mut self, file: &str, doc: &Json) -> Result<usize, LoadError> {
        let text = |p: &str| doc.pointer(p).and_then(Json::as_str).unwrap_or("");
        let (api, kind, name) = (text("/apiVersion"), text("/kind"), text("/metadata/name"));
        let fail = |message: String| LoadError {
            file: file.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
            message,
        };
        let definitions = match (api, kind) {
            ("apiextensions.k8s.io/v1", "CustomResourceDefinition") => crd(doc).map_err(fail)?,
            ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition") => {
                crd_v1beta1(doc).map_err(fail)?
            }
            (
                "apiextensions.crossplane.io/v1" | "apiextensions.crossplane.io/v2",
                "CompositeResourceDefinition",
            ) => xrd::definitions(doc).map_err(fail)?,
            _ => return Ok(0),
        };
        let mut added = 0;
        for d in definitions {
            let schema = Node::compile(&d.schema)
                .map_err(|e: SchemaError| fail(format!("version {}: {e}", d.api_version)))?;
            self.entries.insert(
                (d.api_version.clone(), d.kind.clone()),
                Entry {
                    api_version: d.api_version,
                    kind: d.kind,
                    schema: Arc::new(schema),
                    scope: d.scope,
                    origin: d.origin,
                    file: file.to_string(),
                },
            );
            added += 1;
        }
        Ok(added)
    }
}

/// One kind's version with its schema, before compiling.
pub(super) struct Definition {
    pub api_version: String,
    pub kind: String,
    pub schema: Json,
    pub scope: Scope,
    pub origin: Origin,
}

fn scope_of(doc: &Json) -> Scope {
    match doc.pointer("/spec/scope").and_then(Json::as_str) {
        Some("Namespaced") => Scope::Namespaced,
        _ => Scope::Cluster,
    }
}

/// `spec.group` and `spec.names.kind` of a CRD or XRD.
pub(super) fn group_and_kind(doc: &Json) -> Result<(&str, &str), String> {
    let group = doc
        .pointer("/spec/group")
        .and_then(Json::as_str)
        .ok_or("spec.group is missing")?;
    let kind = doc
        .pointer("/spec/names/kind")
        .and_then(Json::as_str)
        .ok_or("spec.names.kind is missing")?;
    Ok((group, kind))
}

fn crd(doc: &Json) -> Result<Vec<Definition>, String> {
    let (group, kind) = group_and_kind(doc)?;
    let versions = doc
        .pointer("/spec/versions")
        .and_then(Json::as_array)
        .ok_or("spec.versions is missing")?;
    let scope = scope_of(doc);
    Ok(versions
        .iter()
        .filter_map(|v| {
            let name = v.get("name")?.as_str()?;
            // A version without a schema accepts anything (preserves unknown fields).
            let schema = v
                .pointer("/schema/openAPIV3Schema")
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
            })
        })
        .collect())
}

/// `apiextensions.k8s.io/v1beta1`: one schema for every version, or one per version.
fn crd_v1beta1(doc: &Json) -> Result<Vec<Definition>, String> {
    let (group, kind) = group_and_kind(doc)?;
    let shared = doc.pointer("/spec/validation/openAPIV3Schema");
    let mut names: Vec<(String, Option<&Json>)> = doc
        .pointer("/spec/versions")
        .and_then(Json::as_array)
        .map(|vs| {
            vs.iter()
                .filter_map(|v| {
                    Some((
                        v.get("name")?.as_str()?.to_string(),
                        v.pointer("/schema/openAPIV3Schema"),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty()
        && let Some(version) = doc.pointer("/spec/version").and_then(Json::as_str)
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
        }
        })
        .collect())
}
