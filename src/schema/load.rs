//! Schemas from CRDs and XRDs: each served version of each kind, compiled once and found by
//! `apiVersion` and `kind`.

pub use super::crd::{Origin, Scope};

use super::crd;
use super::node::{Node, SchemaError};
use super::xrd;
use crate::source::pointer::Pointer;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

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
    /// An XRD version marked `referenceable`: the one Compositions reference, and so the
    /// version of the XR a composition function is sent.
    pub referenceable: bool,
}

/// Every schema given, by `apiVersion` and `kind`.
#[derive(Clone, Debug, Default)]
pub struct Schemas {
    entries: BTreeMap<(String, String), Entry>,
    /// Whether kinds without a schema given fall back to the bundled ones (`bundled`).
    bundled: bool,
    /// What the API server would refuse in the given schemas (CEL rules, patterns) when their
    /// CRDs are created ([`super::crdcheck::findings`]); validation still runs, as
    /// crossplane's does.
    warnings: Vec<LoadError>,
}

/// Each bundled CRD compiled, once, on first use.
static BUNDLED: [OnceLock<Option<Schemas>>; super::bundled::COUNT] =
    [const { OnceLock::new() }; super::bundled::COUNT];

/// The bundled schema of `api_version`/`kind`, its CRD compiled on first use. A bundled CRD
/// that does not load gives `None`: a unit test loads every one, and a failure must not stop
/// validation of other kinds.
fn bundled(api_version: &str, kind: &str) -> Option<&'static Entry> {
    let (index, file, text) = super::bundled::find(api_version, kind)?;
    BUNDLED[index]
        .get_or_init(|| {
            let doc: Json = serde_json::from_str(text).ok()?;
            let mut schemas = Schemas::new();
            schemas.add_document(file, &doc).ok()?;
            Some(schemas)
        })
        .as_ref()?
        .get(api_version, kind)
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
            None if self.bundled => bundled(api_version, kind),
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

    /// What the API server would refuse in the CEL rules of the schemas added.
    pub fn warnings(&self) -> &[LoadError] {
        &self.warnings
    }

    /// Adds the schemas a document defines: a CRD's versions, an XRD's composite (and claim)
    /// versions. Other documents define none (`Ok(0)`); the number added otherwise.
    pub fn add_document(&mut self, file: &str, doc: &Json) -> Result<usize, LoadError> {
        let text = |p: &str| doc.at(p).and_then(Json::as_str).unwrap_or("");
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
            // A version of the XRD API no cluster serves (`crossplane beta validate` reads
            // any as v1): refused as kubectl refuses it.
            (api, "CompositeResourceDefinition")
                if api.starts_with("apiextensions.crossplane.io/") =>
            {
                return Err(fail(format!(
                    "no matches for kind \"CompositeResourceDefinition\" in version {}",
                    crate::gostd::strconv::quote(api)
                )));
            }
            _ => return Ok(0),
        };
        let mut added = 0;
        for d in definitions {
            let schema = Node::compile(&d.schema)
                .map_err(|e: SchemaError| fail(format!("version {}: {e}", d.api_version)))?;
            for finding in super::crdcheck::findings(&schema) {
                self.warnings
                    .push(fail(format!("version {}: {finding}", d.api_version)));
            }
            self.entries.insert(
                (d.api_version.clone(), d.kind.clone()),
                Entry {
                    api_version: d.api_version,
                    kind: d.kind,
                    schema: Arc::new(schema),
                    scope: d.scope,
                    origin: d.origin,
                    file: file.to_string(),
                    referenceable: d.referenceable,
                },
            );
            added += 1;
        }
        Ok(added)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_crd_loads_and_compiles() {
        for (group, kind) in super::super::bundled::kinds() {
            let (_, file, text) = super::super::bundled::find(&format!("{group}/v"), kind).unwrap();
            let doc: Json = serde_json::from_str(text).unwrap();
            let mut schemas = Schemas::new();
            let added = schemas.add_document(file, &doc).unwrap();
            assert!(added > 0, "{file}");
            assert!(
                schemas.entries().all(|e| e.kind == kind),
                "{file}: not {kind}"
            );
        }
    }

    #[test]
    fn given_schemas_win_and_bundled_ones_are_opt_in() {
        assert!(
            Schemas::new()
                .get("apiextensions.crossplane.io/v1", "Composition")
                .is_none()
        );
        let mut schemas = Schemas::with_bundled();
        let bundled = schemas
            .get("apiextensions.crossplane.io/v1", "Composition")
            .unwrap();
        assert!(bundled.file.starts_with("(bundled) crossplane/"));
        assert!(
            schemas
                .get(
                    "apiextensions.crossplane.io/v2",
                    "CompositeResourceDefinition"
                )
                .is_some()
        );
        assert!(
            schemas
                .get("protection.crossplane.io/v1beta1", "Usage")
                .is_some()
        );
        assert!(
            schemas
                .get("hcl.fn.crossplane.io/v1beta1", "HclInput")
                .is_some()
        );
        assert!(
            schemas
                .get("apiextensions.crossplane.io/v9", "Composition")
                .is_none()
        );
        let own = serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "compositions.apiextensions.crossplane.io"},
            "spec": {"group": "apiextensions.crossplane.io", "names": {"kind": "Composition"},
                     "scope": "Cluster", "versions": [{"name": "v1"}]}
        });
        schemas.add_document("own.yaml", &own).unwrap();
        let given = schemas
            .get("apiextensions.crossplane.io/v1", "Composition")
            .unwrap();
        assert_eq!(given.file, "own.yaml");
    }
}
