//! The composite resource (XR) a composition reads as `req.composite`: which XRD version
//! describes it, and where a path of static steps below it leads in that schema. Shared by
//! `check`'s composite rules and the editor's completion and hover.
//!
//! A path is only ever judged where the schema is closed: below preserved unknown fields,
//! `additionalProperties`, untyped nodes or int-or-string the walk stops ([`Reach::Open`]), so
//! what it calls unknown is unknown whatever the XR holds.

use super::load::{Entry, Origin, Schemas};
use super::node::{Additional, Node, Type};
use crate::source::pointer::Pointer;
use serde_json::Value as Json;
use std::path::Path;
use std::sync::OnceLock;

/// The schema of the XR. `type_ref`: a Composition's `compositeTypeRef` (apiVersion and
/// kind) when `check` reads the Composition itself: that kind at that version. Otherwise
/// `seen`, the XR types the composition's folder names ([`types_in`]): when they all name one
/// kind, that kind; when there are none, the one composite kind the schemas define (none when
/// they define several). The kind is taken at its `referenceable` version (the one
/// Compositions reference, and so the one the function is sent), its only one when it has one.
/// `None` whenever that is not certain.
pub fn composite_entry<'s>(
    schemas: &'s Schemas,
    type_ref: Option<(&str, &str)>,
    seen: &[(String, String)],
) -> Option<&'s Entry> {
    if let Some((api_version, kind)) = type_ref {
        return schemas.get(api_version, kind);
    }
    let group_kind = |api_version: &str, kind: &str| {
        let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
        (group.to_string(), kind.to_string())
    };
    let composites: Vec<&Entry> = schemas
        .entries()
        .filter(|e| e.origin == Origin::Composite)
        .collect();
    let wanted = match seen {
        [] => {
            let first = composites.first()?;
            group_kind(&first.api_version, &first.kind)
        }
        [(api_version, kind), rest @ ..] => {
            let wanted = group_kind(api_version, kind);
            if rest.iter().any(|(a, k)| group_kind(a, k) != wanted) {
                return None;
            }
            wanted
        }
    };
    let versions: Vec<&Entry> = composites
        .iter()
        .copied()
        .filter(|e| group_kind(&e.api_version, &e.kind) == wanted)
        .collect();
    if seen.is_empty() && versions.len() != composites.len() {
        return None;
    }
    match versions.as_slice() {
        [only] => Some(*only),
        several => several.iter().copied().find(|e| e.referenceable),
    }
}

/// The XR types a composition's folder names: the `compositeTypeRef` of each Composition in
/// a YAML file directly in it, and the `apiVersion` and `kind` of its example XRs (`xr.yaml`
/// in it and in each `tests/CASE/` folder, as `fnhcl test` lays cases out). Unreadable files
/// are skipped: they only ever make the XR less certain.
pub fn types_in(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    let cases = std::fs::read_dir(dir.join("tests")).into_iter().flatten();
    files.extend(
        cases
            .filter_map(Result::ok)
            .map(|e| e.path().join("xr.yaml")),
    );
    files.retain(|p| p.is_file());
    files.sort();
    for file in files {
        let is_xr = file.file_stem().is_some_and(|s| s == "xr");
        let Ok(text) = crate::source::read::read_text(&file) else {
            continue;
        };
        let Ok(docs) = crate::source::yaml::read_stream(&text) else {
            continue;
        };
        for doc in docs {
            let json = serde_json::to_value(&doc.value).unwrap_or_default();
            let text = |p: &str| json.at(p).and_then(Json::as_str).map(str::to_string);
            let found = if text("/kind").as_deref() == Some("Composition") {
                text("/spec/compositeTypeRef/apiVersion").zip(text("/spec/compositeTypeRef/kind"))
            } else if is_xr {
                text("/apiVersion").zip(text("/kind"))
            } else {
                None
            };
            if let Some(found) = found
                && !out.contains(&found)
            {
                out.push(found);
            }
        }
    }
    out
}

/// Where a path below the XR leads.
#[derive(Debug)]
pub enum Reach<'n> {
    /// Every step names a field: the last one's schema.
    Field(&'n Node),
    /// Step `index` names no field of the object the steps before it reach (`parent`).
    Unknown {
        /// The step's position in the path.
        index: usize,
        /// The object's schema.
        parent: &'n Node,
    },
    /// Step `index` reads into a value of type `kind`, which has no fields or elements.
    Scalar {
        /// The step's position in the path.
        index: usize,
        /// The scalar's type.
        kind: Type,
    },
    /// The schema does not say what is there (preserved unknown fields, a map, an untyped
    /// node, a non-numeric step into a list): nothing is known past it.
    Open,
}

/// Where `path` (the steps after `req.composite`, as text) leads from the XR's `root`.
pub fn walk<'n>(root: &'n Node, path: &[String]) -> Reach<'n> {
    let mut node = root;
    for (index, step) in path.iter().enumerate() {
        node = match child(node, step, index == 0) {
            Step::Into(next) => next,
            Step::Unknown => {
                return Reach::Unknown {
                    index,
                    parent: node,
                };
            }
            Step::Scalar(kind) => return Reach::Scalar { index, kind },
            Step::Open => return Reach::Open,
        };
    }
    Reach::Field(node)
}

enum Step<'n> {
    Into(&'n Node),
    Unknown,
    Scalar(Type),
    Open,
}

/// One step from `node`; `root`: the XR itself, whose `metadata` is the object metadata every
/// object has (the XRD's schema says little of it).
fn child<'n>(node: &'n Node, step: &str, root: bool) -> Step<'n> {
    if root && step == "metadata" {
        return Step::Into(object_meta());
    }
    if root && matches!(step, "apiVersion" | "kind") && !node.properties.contains_key(step) {
        static STRING: OnceLock<Node> = OnceLock::new();
        return Step::Into(STRING.get_or_init(|| Node {
            kind: Some(Type::String),
            ..Node::default()
        }));
    }
    if node.int_or_string {
        return Step::Open;
    }
    match node.kind {
        Some(Type::Array) => match (step.parse::<usize>(), node.items.as_deref()) {
            (Ok(_), Some(items)) => Step::Into(items),
            _ => Step::Open,
        },
        Some(kind @ (Type::String | Type::Integer | Type::Number | Type::Boolean)) => {
            Step::Scalar(kind)
        }
        Some(Type::Object) | None => {
            if let Some(found) = node.properties.get(step) {
                return Step::Into(found);
            }
            if let Additional::Schema(values) = &node.additional {
                return Step::Into(values);
            }
            if keeps_unknown(node)
                || node.embedded_resource && matches!(step, "apiVersion" | "kind" | "metadata")
            {
                Step::Open
            } else {
                Step::Unknown
            }
        }
    }
}

/// Whether an object node may hold keys it does not list.
pub fn keeps_unknown(node: &Node) -> bool {
    node.keeps_unknown_fields()
        || node.embedded_resource && node.properties.is_empty()
        || (node.kind.is_none() && node.properties.is_empty())
}

/// An object's `metadata` as the API server stores it (`ObjectMeta`), for reading: every
/// field, typed where a composition reads it, the rest open.
pub fn object_meta() -> &'static Node {
    static META: OnceLock<Node> = OnceLock::new();
    META.get_or_init(|| {
        let string = |d: &str| serde_json::json!({"type": "string", "description": d});
        let map = |d: &str| serde_json::json!({"type": "object", "additionalProperties": {"type": "string"}, "description": d});
        let open = |t: &str, d: &str| serde_json::json!({"type": t, "x-kubernetes-preserve-unknown-fields": true, "description": d});
        let json = serde_json::json!({
            "type": "object",
            "description": "Standard object's metadata.",
            "properties": {
                "name": string("The object's name, unique within its namespace (or the cluster)."),
                "generateName": string("A prefix the API server generated the name from."),
                "namespace": string("The namespace of a namespaced object."),
                "uid": string("The object's unique ID, set by the API server."),
                "resourceVersion": string("The version of the object the API server last stored."),
                "generation": {"type": "integer", "description": "The generation of the desired state, set by the API server."},
                "creationTimestamp": {"type": "string", "format": "date-time", "description": "When the object was created."},
                "deletionTimestamp": {"type": "string", "format": "date-time", "description": "When the object will be deleted (set once deletion is requested)."},
                "deletionGracePeriodSeconds": {"type": "integer", "description": "Seconds the object has to terminate gracefully."},
                "selfLink": string("Deprecated; not set."),
                "labels": map("Map of string keys and values that can be used to organize and categorize objects."),
                "annotations": map("Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata."),
                "finalizers": {"type": "array", "items": {"type": "string"}, "description": "Finalizers that must be removed before the object is deleted."},
                "ownerReferences": {"type": "array", "items": open("object", "An owner of this object."), "description": "The objects this object depends on."},
                "managedFields": {"type": "array", "items": open("object", "A manager's field set."), "description": "Which manager owns which fields."},
            },
        });
        // The literal above is a valid schema: a failure would be a bug caught by the tests.
        Node::compile(&json).unwrap_or_default()
    })
}

/// `string`, `integer`, `object`, `array of object`, `map of string`, `string (enum)`…
pub fn type_text(node: &Node) -> String {
    if node.int_or_string {
        return "integer or string".into();
    }
    let base = match (node.kind, &node.additional) {
        (Some(Type::Array), _) => match &node.items {
            Some(items) => format!("array of {}", type_text(items)),
            None => "array".into(),
        },
        (Some(Type::Object) | None, Additional::Schema(values)) if node.properties.is_empty() => {
            format!("map of {}", type_text(values))
        }
        (Some(kind), _) => kind.name().into(),
        (None, _) if !node.properties.is_empty() => "object".into(),
        (None, _) => "any".into(),
    };
    if node.enumeration.is_some() {
        format!("{base} (enum)")
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn xrd(versions: serde_json::Value) -> serde_json::Value {
        json!({
            "apiVersion": "apiextensions.crossplane.io/v2",
            "kind": "CompositeResourceDefinition",
            "metadata": {"name": "xnetworks.example.org"},
            "spec": {"group": "example.org", "names": {"kind": "XNetwork", "plural": "xnetworks"},
                     "versions": versions}
        })
    }

    fn schema(spec: serde_json::Value) -> serde_json::Value {
        json!({"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}})
    }

    fn path(text: &str) -> Vec<String> {
        text.split('.').map(str::to_string).collect()
    }

    #[test]
    fn the_referenceable_version_of_the_only_composite_kind_is_the_xr() {
        let spec = json!({"type": "object", "properties": {
            "region": {"type": "string"},
            "zones": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        }});
        let mut schemas = Schemas::new();
        let doc = xrd(json!([
            {"name": "v1alpha1", "served": true, "referenceable": false, "schema": schema(json!({"type": "object"}))},
            {"name": "v1", "served": true, "referenceable": true, "schema": schema(spec)},
        ]));
        schemas.add_document("xrd.yaml", &doc).unwrap();
        let entry = composite_entry(&schemas, None, &[]).unwrap();
        assert_eq!(entry.api_version, "example.org/v1");
        let given = composite_entry(&schemas, Some(("example.org/v1alpha1", "XNetwork")), &[]);
        assert_eq!(given.unwrap().api_version, "example.org/v1alpha1");
        let root = &entry.schema;
        assert!(matches!(walk(root, &path("spec.region")), Reach::Field(_)));
        assert!(matches!(
            walk(root, &path("spec.regoin")),
            Reach::Unknown { index: 1, .. }
        ));
        assert!(matches!(
            walk(root, &path("spec.region.name")),
            Reach::Scalar {
                index: 2,
                kind: Type::String
            }
        ));
        assert!(matches!(
            walk(root, &path("spec.zones.0.nmae")),
            Reach::Unknown { index: 3, .. }
        ));
        assert!(matches!(
            walk(root, &path("spec.tags.any")),
            Reach::Field(_)
        ));
        assert!(matches!(walk(root, &path("spec.extra.x.y")), Reach::Open));
        assert!(matches!(
            walk(root, &path("metadata.labels.app")),
            Reach::Field(_)
        ));
        assert!(matches!(
            walk(root, &path("metadata.lables")),
            Reach::Unknown { index: 1, .. }
        ));
        assert!(matches!(
            walk(root, &path("status.conditions.0.type")),
            Reach::Field(_)
        ));
        assert!(matches!(
            walk(root, &path("spce")),
            Reach::Unknown { index: 0, .. }
        ));
        assert!(!object_meta().properties.is_empty());
        // Two composite kinds: which one is the XR is not certain.
        let mut other = xrd(
            json!([{"name": "v1", "referenceable": true, "schema": schema(json!({"type": "object"}))}]),
        );
        other["spec"]["names"]["kind"] = json!("XDatabase");
        schemas.add_document("other.yaml", &other).unwrap();
        assert!(composite_entry(&schemas, None, &[]).is_none());
        // The folder's XRs say which: at its referenceable version whatever they are written in.
        let seen = |kind: &str| vec![("example.org/v1alpha1".to_string(), kind.to_string())];
        let entry = composite_entry(&schemas, None, &seen("XNetwork")).unwrap();
        assert_eq!(entry.api_version, "example.org/v1");
        assert_eq!(
            composite_entry(&schemas, None, &seen("XDatabase"))
                .unwrap()
                .kind,
            "XDatabase"
        );
        assert!(composite_entry(&schemas, None, &seen("XOther")).is_none());
        let mut both = seen("XNetwork");
        both.extend(seen("XDatabase"));
        assert!(composite_entry(&schemas, None, &both).is_none());
    }
}
