//! Building `req`, the variable function-hcl programs read, from a request — exactly as
//! function-hcl's `makeVars` does: the request parts are JSON-encoded and decoded with cty's
//! implied types (objects, not maps; tuples, not lists), connection details are base64 strings,
//! and observed collection members are grouped by their annotations.

use super::json::{JsonError, attribute_name, implied_part};
use super::proto::{Resource, RunFunctionRequest};
use super::value::Value;
use crate::source::pointer::Pointer;
use base64::Engine;
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;
use unicode_normalization::UnicodeNormalization;

/// The annotation function-hcl writes on collection members: the collection's name.
pub const ANNOTATION_BASE_NAME: &str = "hcl.fn.crossplane.io/collection-base-name";
/// The annotation function-hcl writes on collection members: `s%06d` of the position.
pub const ANNOTATION_INDEX: &str = "hcl.fn.crossplane.io/collection-index";

/// Numbers reach function-hcl through protobuf `Struct`s (float64) and Go's `encoding/json`
/// (shortest decimal), then cty parses that text at 512 bits. Reproduce that path.
pub fn through_float64(json: &Json) -> Json {
    let mut copy = json.clone();
    to_float64(&mut copy);
    copy
}

/// [`through_float64`] in place: only the numbers change, nothing is copied.
pub fn to_float64(json: &mut Json) {
    match json {
        Json::Number(n) => {
            let f: f64 = n.to_string().parse().unwrap_or(f64::NAN);
            *json = if f.is_finite() {
                serde_json::from_str(&format!("{f:e}")).unwrap_or(Json::Null)
            } else {
                Json::Null
            };
        }
        Json::Array(items) => items.iter_mut().for_each(to_float64),
        Json::Object(map) => map.values_mut().for_each(to_float64),
        _ => {}
    }
}

/// [`to_float64`] on an owned value.
pub fn into_float64(mut json: Json) -> Json {
    to_float64(&mut json);
    json
}

/// A resource's object without `metadata.managedFields`, as function-hcl's `toObject`.
fn to_object(resource: Option<&Resource>) -> Json {
    let mut object = resource
        .and_then(|r| r.resource.as_ref())
        .map(through_float64)
        .unwrap_or_else(|| Json::Object(Map::new()));
    if let Some(metadata) = object.get_mut("metadata").and_then(Json::as_object_mut) {
        metadata.remove("managedFields");
    }
    object
}

/// Connection details as Go's JSON encoding of `map[string][]byte`: standard base64 strings,
/// or `null` when there are none (a nil map).
fn connection(resource: Option<&Resource>) -> Json {
    let details = resource.map(|r| &r.connection_details);
    match details {
        Some(d) if !d.is_empty() => Json::Object(
            d.iter()
                .map(|(k, v)| (k.clone(), Json::String(canonical_base64(v))))
                .collect(),
        ),
        _ => Json::Null,
    }
}

/// Protobuf JSON accepts standard or URL-safe base64, padded or not; Go re-encodes the bytes
/// with standard padded base64.
fn canonical_base64(text: &str) -> String {
    let engines = [
        base64::engine::general_purpose::STANDARD,
        base64::engine::general_purpose::STANDARD_NO_PAD,
        base64::engine::general_purpose::URL_SAFE,
        base64::engine::general_purpose::URL_SAFE_NO_PAD,
    ];
    engines
        .iter()
        .find_map(|e| e.decode(text).ok())
        .map_or_else(
            || text.to_string(),
            |bytes| base64::engine::general_purpose::STANDARD.encode(bytes),
        )
}

/// The collection a resource object belongs to, when it is a member: its base-name and
/// index annotations.
fn membership(object: &Json) -> Option<(String, String)> {
    let annotations = object.get("metadata").and_then(|m| m.get("annotations"));
    let text = |key: &str| {
        annotations
            .and_then(|a| a.get(key))
            .and_then(Json::as_str)
            .unwrap_or("")
    };
    let base = text(ANNOTATION_BASE_NAME);
    (!base.is_empty()).then(|| (base.to_string(), text(ANNOTATION_INDEX).to_string()))
}

/// The observed composed resources that are collection members (a non-empty base-name
/// annotation): function-hcl keeps them out of `self.resource` and its fail-safe.
pub fn collection_members(request: &RunFunctionRequest) -> std::collections::BTreeSet<String> {
    request
        .observed
        .resources
        .iter()
        .filter(|(_, r)| {
            r.resource
                .as_ref()
                .and_then(|o| o.at("/metadata/annotations"))
                .and_then(|a| a.get(ANNOTATION_BASE_NAME))
                .and_then(Json::as_str)
                .is_some_and(|base| !base.is_empty())
        })
        .map(|(name, _)| name.nfc().collect())
        .collect()
}

/// The `req` value for a request.
///
/// function-hcl JSON-encodes one object of the request's parts and decodes it whole. Here each
/// part (each observed resource) is put through float64 and decoded on its own, so only one
/// resource's JSON copy exists at a time; any part that fails to decode makes `req` null, as a
/// failure anywhere in the whole would.
pub fn build_req(request: &RunFunctionRequest) -> Value {
    req_of_parts(request).unwrap_or_else(|_| Value::null())
}

fn req_of_parts(request: &RunFunctionRequest) -> Result<Value, JsonError> {
    let mut by_name = BTreeMap::new();
    let mut conns = BTreeMap::new();
    // Collection base name → (index annotation, member name).
    let mut groups: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for (name, resource) in &request.observed.resources {
        let object = to_object(Some(resource));
        if let Some((base, index)) = membership(&object) {
            groups.entry(base).or_default().push((index, name.clone()));
        }
        // In key order, so of two names that normalise alike the later wins, as in a decode
        // of the whole object.
        by_name.insert(attribute_name(name), implied_part(&object)?);
        conns.insert(
            attribute_name(name),
            implied_part(&connection(Some(resource)))?,
        );
    }
    let extra = extra_resources(request);
    let context = context_object(request);
    let composite = request.observed.composite.as_ref();
    let (collections, collection_connections) = collections(groups, &by_name, &conns);
    let mut top = BTreeMap::new();
    top.insert("context".into(), implied_part(&context)?);
    top.insert("composite".into(), implied_part(&to_object(composite))?);
    top.insert(
        "composite_connection".into(),
        implied_part(&connection(composite))?,
    );
    top.insert("resource".into(), Value::Object(by_name.into()));
    top.insert("connection".into(), Value::Object(conns.into()));
    top.insert(
        "extra_resources".into(),
        implied_part(&Json::Object(extra))?,
    );
    top.insert("resources".into(), Value::Object(collections.into()));
    top.insert(
        "connections".into(),
        Value::Object(collection_connections.into()),
    );
    Ok(Value::Object(top.into()))
}

/// Each collection's members and their connection details, by the collection's base name:
/// members ordered by their index annotation (then by name, where Go's order is unspecified),
/// looked up in `by_name` and `conns` by their names as the request spells them.
fn collections(
    groups: BTreeMap<String, Vec<(String, String)>>,
    by_name: &BTreeMap<String, Value>,
    conns: &BTreeMap<String, Value>,
) -> (BTreeMap<String, Value>, BTreeMap<String, Value>) {
    let mut collections = BTreeMap::new();
    let mut collection_connections = BTreeMap::new();
    for (base, mut members) in groups {
        members.sort();
        let pick = |from: &BTreeMap<String, Value>| {
            members
                .iter()
                .filter_map(|(_, m)| from.get(m).cloned())
                .collect::<Vec<_>>()
                .into()
        };
        collections.insert(base.clone(), Value::Tuple(pick(by_name)));
        collection_connections.insert(base, Value::Tuple(pick(conns)));
    }
    (collections, collection_connections)
}

/// `req.extra_resources`' object: each name's resources, or null when none was found.
fn extra_resources(request: &RunFunctionRequest) -> Map<String, Json> {
    let mut extra = Map::new();
    for (name, list) in &request.extra_resources {
        let items: Vec<Json> = list.items.iter().map(|r| to_object(Some(r))).collect();
        extra.insert(
            name.clone(),
            if items.is_empty() {
                Json::Null
            } else {
                Json::Array(items)
            },
        );
    }
    extra
}

/// The request's context as function-hcl reads it: numbers through float64, an empty object
/// when absent or not an object.
fn context_object(request: &RunFunctionRequest) -> Json {
    request
        .context
        .as_ref()
        .map(through_float64)
        .filter(Json::is_object)
        .unwrap_or_else(|| Json::Object(Map::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> RunFunctionRequest {
        serde_json::from_str(json).unwrap()
    }

    fn get<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
        path.iter().fold(v, |v, key| match v {
            Value::Object(m) => m.get(*key).unwrap_or_else(|| panic!("no {key} in {v:?}")),
            _ => panic!("not an object at {key}"),
        })
    }

    /// `req` as function-hcl builds it: the whole object of parts encoded, then decoded at
    /// once (what `build_req` did before it decoded part by part).
    fn req_decoded_whole(request: &RunFunctionRequest) -> Value {
        use crate::eval::json::implied_value;
        use crate::eval::value::Shared;
        let mut resources = BTreeMap::new();
        let mut connections = Map::new();
        for (name, resource) in &request.observed.resources {
            resources.insert(name.clone(), to_object(Some(resource)));
            connections.insert(name.clone(), connection(Some(resource)));
        }
        let extra = extra_resources(request);
        let context = context_object(request);
        let composite = request.observed.composite.as_ref();
        let mut groups: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        for (name, object) in &resources {
            if let Some((base, index)) = membership(object) {
                groups.entry(base).or_default().push((index, name.clone()));
            }
        }
        let mut out = Map::new();
        out.insert("context".into(), context);
        out.insert("composite".into(), to_object(composite));
        out.insert("composite_connection".into(), connection(composite));
        out.insert(
            "resource".into(),
            Json::Object(resources.into_iter().collect()),
        );
        out.insert("connection".into(), Json::Object(connections));
        out.insert("extra_resources".into(), Json::Object(extra));
        let Value::Object(mut top) = implied_value(&Json::Object(out)) else {
            return Value::null();
        };
        let observed = |key: &str, top: &BTreeMap<String, Value>| match top.get(key) {
            Some(Value::Object(items)) => items.clone(),
            _ => BTreeMap::new().into(),
        };
        let (by_name, conns) = (observed("resource", &top), observed("connection", &top));
        let (collections, collection_connections) = super::collections(groups, &by_name, &conns);
        let attrs = Shared::make_mut(&mut top);
        attrs.insert("resources".into(), Value::Object(collections.into()));
        attrs.insert(
            "connections".into(),
            Value::Object(collection_connections.into()),
        );
        Value::Object(top)
    }

    #[test]
    fn decoding_part_by_part_gives_the_whole_decode() {
        let requests = [
            "{}",
            r#"{"observed": {"resources": {"a": {"resource": {"n": 1}}}}}"#,
            // Names that normalise alike (NFD and NFC é): the later in key order wins; a
            // member is looked up by its name as the request spells it.
            r#"{
              "observed": {
                "composite": {"resource": {"metadata": {"name": "xr", "managedFields": [{"a": 1}]}, "spec": {"n": 3.50, "big": 1e400}},
                              "connectionDetails": {"pw": "c2VjcmV0", "url": "aHR0cDovL3g_"}},
                "resources": {
                  "b-1": {"resource": {"metadata": {"annotations": {"hcl.fn.crossplane.io/collection-base-name": "b", "hcl.fn.crossplane.io/collection-index": "s000001"}}}},
                  "b-0": {"resource": {"metadata": {"annotations": {"hcl.fn.crossplane.io/collection-base-name": "b", "hcl.fn.crossplane.io/collection-index": "s000000"}}},
                          "connectionDetails": {"k": "dg=="}},
                  "cafe\u0301": {"resource": {"v": "nfd", "metadata": {"annotations": {"hcl.fn.crossplane.io/collection-base-name": "c"}}}},
                  "caf\u00e9": {"resource": {"v": "nfc", "metadata": {"annotations": {"hcl.fn.crossplane.io/collection-base-name": "c"}}}},
                  "e\u0301": {"resource": {"k\u0301": [1, 2.5, null, true, {"x": "y"}]}},
                  "single": {"resource": {"kind": "Bucket"}}
                }
              },
              "context": {"big": 12345678901234567890, "tenth": 0.1, "e\u0301": "x"},
              "extraResources": {"none": {"items": []}, "one": {"items": [{"resource": {"kind": "X", "n": 7}}]}}
            }"#,
        ];
        for text in requests {
            let request = request(text);
            assert_eq!(
                format!("{:?}", build_req(&request)),
                format!("{:?}", req_decoded_whole(&request)),
                "{text}"
            );
        }
    }

    #[test]
    fn empty_request_gives_empty_objects_and_null_connection() {
        let req = build_req(&RunFunctionRequest::default());
        for key in [
            "context",
            "composite",
            "resource",
            "connection",
            "resources",
            "connections",
            "extra_resources",
        ] {
            assert!(
                matches!(get(&req, &[key]), Value::Object(m) if m.is_empty()),
                "{key}"
            );
        }
        assert!(get(&req, &["composite_connection"]).is_null());
    }

    #[test]
    fn resources_are_objects_collections_are_grouped_and_sorted() {
        let req = build_req(&request(
            r#"{
          "observed": {
            "composite": {"resource": {"metadata": {"name": "xr", "managedFields": [1]}, "spec": {"n": 3}},
                          "connectionDetails": {"pw": "c2VjcmV0"}},
            "resources": {
              "b-1": {"resource": {"metadata": {"annotations": {"hcl.fn.crossplane.io/collection-base-name": "b", "hcl.fn.crossplane.io/collection-index": "s000001"}}}},
              "b-0": {"resource": {"metadata": {"annotations": {"hcl.fn.crossplane.io/collection-base-name": "b", "hcl.fn.crossplane.io/collection-index": "s000000"}}}},
              "single": {"resource": {"kind": "Bucket"}}
            }
          },
          "extraResources": {"none": {"items": []}, "one": {"items": [{"resource": {"kind": "X"}}]}}
        }"#,
        ));
        assert!(
            matches!(get(&req, &["composite", "metadata"]), Value::Object(m) if !m.contains_key("managedFields"))
        );
        assert_eq!(
            get(&req, &["composite", "spec", "n"])
                .as_num()
                .map(|n| n.to_string()),
            Some("3".into())
        );
        assert_eq!(
            get(&req, &["composite_connection", "pw"]).as_str(),
            Some("c2VjcmV0")
        );
        let members = get(&req, &["resources", "b"]);
        assert_eq!(members.elements().len(), 2);
        let first = get(&members.elements()[0], &["metadata", "annotations"]);
        assert_eq!(get(first, &[ANNOTATION_INDEX]).as_str(), Some("s000000"));
        assert!(matches!(get(&req, &["resource"]), Value::Object(m) if m.len() == 3));
        assert!(get(&req, &["extra_resources", "none"]).is_null());
        assert!(
            matches!(get(&req, &["extra_resources", "one"]), Value::Tuple(items) if items.len() == 1)
        );
        assert!(get(&req, &["connection", "single"]).is_null());
    }

    #[test]
    fn numbers_pass_through_float64() {
        let req = build_req(&request(
            r#"{"context": {"big": 12345678901234567890, "tenth": 0.1}}"#,
        ));
        assert_eq!(
            get(&req, &["context", "big"]).as_num().unwrap().to_string(),
            "12345678901234567000"
        );
        assert_eq!(
            get(&req, &["context", "tenth"])
                .as_num()
                .unwrap()
                .to_string(),
            "0.1"
        );
    }
}
