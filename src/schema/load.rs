//! Schemas from CRDs and XRDs: each served version of each kind, compiled once and found by
//! `apiVersion` and `kind`.

pub use super::crd::{Origin, Scope};

use super::crd;
use super::node::{Node, SchemaError};
use super::xrd;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::Arc;

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
    /// Whether kinds without a schema given fall back to the bundled ones (`bundled`).
    bundled: bool,
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

    /// Schemas that fall back, for a kind none of theirs defines, to the bundled Crossplane
    /// and function-hcl CRDs (compiled on first use): what `validate` and `--validate` use.
    pub fn with_bundled() -> Schemas {
        Schemas {
            bundled: true,
            ..Schemas::default()
        }
    }

    /// The schema of `api_version`/`kind`: one given wins over a bundled one.
    pub fn get(&self, api_version: &str, kind: &str) -> Option<&Entry> {
        let given = self
            .entries
            .get(&(api_version.to_string(), kind.to_string()));
        match given {
            Some(entry) => Some(entry),
            None if self.bundled => super::bundled::get(api_version, kind),
            None => None,
        }
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
            ("apiextensions.k8s.io/v1", "CustomResourceDefinition") => {
                crd::definitions(doc).map_err(fail)?
            }
            ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition") => {
                crd::definitions_v1beta1(doc).map_err(fail)?
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
