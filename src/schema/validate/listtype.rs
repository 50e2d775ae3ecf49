//! The uniqueness the API server demands of `x-kubernetes-list-type: set` and `map` lists
//! (apiextensions-apiserver v0.35 `pkg/apiserver/schema/listtype`), checked on the pruned and
//! defaulted resource as its strategy checks it: a set's items, a map's key fields, each value
//! reported once, at its second appearance, as `Duplicate value`.
//!
//! Embedded resources are checked here too, in the same walk: each needs its `apiVersion` and
//! `kind`.
//!
//! `crossplane beta validate` does not run these checks (it calls only the OpenAPI validator and
//! CEL); a cluster refuses such a resource, so fnhcl reports it.

use super::{Kind, Segment, Violation, field_path_text, go_float};
use crate::gostd::strconv::quote;
use crate::schema::node::{Additional, Node};
use serde_json::{Map, Value as Json};
use std::collections::HashSet;

/// Every duplicate in the `set` and `map` lists of `value`, depth first (map entries before
/// properties, as the API server walks them).
pub fn check(value: &Json, node: &Node) -> Vec<Violation> {
    let mut out = Vec::new();
    walk(value, node, &mut Vec::new(), &mut out);
    out
}

fn walk(value: &Json, node: &Node, path: &mut Vec<(Segment, bool)>, out: &mut Vec<Violation>) {
    match value {
        Json::Object(object) => {
            if node.embedded_resource {
                embedded(object, path, out);
            }
            if let Additional::Schema(schema) = &node.additional {
                for (key, child) in object {
                    path.push((Segment::Key(key.clone()), true));
                    walk(child, schema, path, out);
                    path.pop();
                }
            }
            for (key, child) in object {
                if let Some(schema) = node.properties.get(key) {
                    path.push((Segment::Key(key.clone()), false));
                    walk(child, schema, path, out);
                    path.pop();
                }
            }
        }
        Json::Array(items) => {
            match node.list_type.as_deref() {
                Some("set") => {
                    for i in first_repeats(items.iter().map(identity)) {
                        report(path, i, &items[i], out);
                    }
                }
                Some("map") => map(items, &node.list_map_keys, path, out),
                _ => {}
            }
            if let Some(schema) = &node.items {
                for (i, item) in items.iter().enumerate() {
                    path.push((Segment::Index(i), false));
                    walk(item, schema, path, out);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

/// What the API server's strategy demands of an `x-kubernetes-embedded-resource` object
/// (`pkg/apiserver/schema/objectmeta/validation.go`): an `apiVersion` and a `kind`, non-empty
/// strings, the apiVersion with at most one `/`.
fn embedded(object: &Map<String, Json>, path: &[(Segment, bool)], out: &mut Vec<Violation>) {
    for key in ["apiVersion", "kind"] {
        let mut at = path.to_vec();
        at.push((Segment::Key(key.into()), false));
        let f = field_path_text(&at);
        let message = match object.get(key) {
            None => format!("{f}: Required value: must not be empty"),
            Some(Json::String(s)) if s.is_empty() => {
                format!("{f}: Invalid value: \"\": must not be empty")
            }
            Some(Json::String(s)) if key == "apiVersion" && s.matches('/').count() > 1 => {
                format!(
                    "{f}: Invalid value: {}: unexpected GroupVersion string: {s}",
                    quote(s)
                )
            }
            Some(Json::String(_)) => continue,
            Some(other) => format!("{f}: Invalid value: {}: must be a string", bad_value(other)),
        };
        out.push(Violation {
            kind: Kind::Schema,
            path: at.iter().map(|(s, _)| s.clone()).collect(),
            message,
            suggestion: None,
        });
    }
}

/// The list-map check: items must be objects (or null); their key fields must be unique, an
/// absent key (or a null item) counting as a value of its own.
fn map(items: &[Json], keys: &[String], path: &[(Segment, bool)], out: &mut Vec<Violation>) {
    if let Some(i) = items.iter().position(|x| !x.is_null() && !x.is_object()) {
        let mut at = path.to_vec();
        at.push((Segment::Index(i), false));
        out.push(Violation {
            kind: Kind::Schema,
            path: at.iter().map(|(s, _)| s.clone()).collect(),
            message: format!(
                "{}: Invalid value: {}: must be an object for an array of list-type map",
                field_path_text(&at),
                bad_value(&items[i])
            ),
            suggestion: None,
        });
        return;
    }
    // The key fields each item has (an empty object when it has none of them). With one key
    // field the key's own value is compared (scalars as Go's interface values), an absent
    // key or a null item counting as one value of its own; with several, the objects of key
    // fields are compared as JSON texts.
    let tuples: Vec<Json> = items
        .iter()
        .map(|x| {
            let mut key = Map::new();
            if let Json::Object(x) = x {
                for k in keys {
                    if let Some(v) = x.get(k) {
                        key.insert(k.clone(), v.clone());
                    }
                }
            }
            Json::Object(key)
        })
        .collect();
    let identities: Vec<String> = tuples
        .iter()
        .map(|tuple| match (keys, tuple) {
            ([only], Json::Object(t)) => t.get(only).map_or_else(|| "u".into(), identity),
            _ => identity(tuple),
        })
        .collect();
    for i in first_repeats(identities) {
        report(path, i, &tuples[i], out);
    }
}

/// The index of the second appearance of each value that appears more than once, given each
/// item's [`identity`].
fn first_repeats(identities: impl IntoIterator<Item = String>) -> Vec<usize> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut reported: HashSet<String> = HashSet::new();
    let mut out = Vec::new();
    for (i, key) in identities.into_iter().enumerate() {
        if !seen.insert(key.clone()) && reported.insert(key) {
            out.push(i);
        }
    }
    out
}

/// A text equal for exactly the values the API server takes as equal: scalars as Go's
/// interface values (an integer and a float never), objects and lists as their JSON texts
/// (numbers by value).
fn identity(value: &Json) -> String {
    match value {
        Json::Object(_) | Json::Array(_) => format!("c:{}", canonical(value)),
        Json::Number(n) if n.as_i64().is_some() || n.as_u64().is_some() => format!("i:{n}"),
        Json::Number(n) => format!("f:{}", go_float(n.as_f64().unwrap_or(f64::NAN))),
        Json::String(s) => format!("s:{s}"),
        Json::Bool(b) => format!("b:{b}"),
        Json::Null => "n".into(),
    }
}

/// JSON text with numbers by value (`1` and `1.0` alike, as Go marshals both float64 1) and
/// keys sorted.
fn canonical(value: &Json) -> String {
    match value {
        Json::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => go_float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::Array(items) => {
            let inner: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", inner.join(","))
        }
        Json::Object(object) => {
            let inner: Vec<String> = object
                .iter()
                .map(|(k, v)| format!("{}:{}", quote(k), canonical(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        other => other.to_string(),
    }
}

fn report(path: &[(Segment, bool)], i: usize, value: &Json, out: &mut Vec<Violation>) {
    let mut at = path.to_vec();
    at.push((Segment::Index(i), false));
    out.push(Violation {
        kind: Kind::Schema,
        path: at.iter().map(|(s, _)| s.clone()).collect(),
        message: format!(
            "{}: Duplicate value: {}",
            field_path_text(&at),
            bad_value(value)
        ),
        suggestion: None,
    });
}

/// How `field.Error` prints a bad value: a string (and null, as `"null"`) quoted, numbers and
/// booleans as `%v`, anything else as Go's `%#v`.
fn bad_value(value: &Json) -> String {
    match value {
        Json::Null => quote("null"),
        Json::String(s) => quote(s),
        Json::Number(n) => number(n),
        Json::Bool(b) => b.to_string(),
        other => sharp_v(other),
    }
}

fn number(n: &serde_json::Number) -> String {
    match n.as_i64() {
        Some(i) => i.to_string(),
        None => go_float(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// Go's `%#v` of an unstructured value (`map[string]interface {}{"name":"a"}`).
fn sharp_v(value: &Json) -> String {
    match value {
        Json::Null => "interface {}(nil)".into(),
        Json::String(s) => quote(s),
        Json::Number(n) => number(n),
        Json::Bool(b) => b.to_string(),
        Json::Array(items) => {
            let inner: Vec<String> = items.iter().map(sharp_v).collect();
            format!("[]interface {{}}{{{}}}", inner.join(", "))
        }
        Json::Object(object) => {
            let inner: Vec<String> = object
                .iter()
                .map(|(k, v)| format!("{}:{}", quote(k), sharp_v(v)))
                .collect();
            format!("map[string]interface {{}}{{{}}}", inner.join(", "))
        }
    }
}

/// Cases of apiextensions-apiserver v0.35 `pkg/apiserver/schema/listtype/validation_test.go`,
/// `TestValidateListSetsAndMaps` (case names as there), checked with the API server's words.
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(schema: Json, value: Json) -> Vec<String> {
        let node = Node::compile(&schema).unwrap();
        check(&value, &node)
            .into_iter()
            .map(|v| v.message)
            .collect()
    }

    fn set(items: Json) -> Json {
        json!({"type": "array", "x-kubernetes-list-type": "set", "items": items})
    }

    fn list_map(keys: Json, items: Json) -> Json {
        json!({"type": "array", "x-kubernetes-list-type": "map",
               "x-kubernetes-list-map-keys": keys, "items": items})
    }

    #[test]
    fn sets_report_each_repeated_value_once() {
        let string = json!({"type": "string"});
        let root = |array: Json| json!({"type": "object", "properties": {"array": array}});
        // "list without items" / "normal list with items": no list type, no check.
        assert!(
            messages(
                root(json!({"type": "array"})),
                json!({"array": ["a", "b", "a"]})
            )
            .is_empty()
        );
        // "set list with one item", "set list with two different items".
        assert!(messages(root(set(string.clone())), json!({"array": ["a", "b"]})).is_empty());
        // "set list with two equal items".
        assert_eq!(
            messages(root(set(string.clone())), json!({"array": ["a", "a"]})),
            ["array[1]: Duplicate value: \"a\""]
        );
        // "set list with multiple duplicated items".
        assert_eq!(
            messages(
                root(set(string.clone())),
                json!({"array": ["a", "a", "b", "c", "d", "c"]})
            ),
            [
                "array[1]: Duplicate value: \"a\"",
                "array[5]: Duplicate value: \"c\""
            ]
        );
        // "set list with items under additionalProperties": a map key in brackets.
        assert_eq!(
            messages(
                json!({"type": "object", "additionalProperties": set(string.clone())}),
                json!({"array": ["a", "b", "a"]})
            ),
            ["[array][2]: Duplicate value: \"a\""]
        );
        // "set list with items under items".
        assert_eq!(
            messages(
                root(json!({"type": "array", "items": set(string.clone())})),
                json!({"array": [["a", "b", "a"], ["b", "b", "a"]]})
            ),
            [
                "array[0][2]: Duplicate value: \"a\"",
                "array[1][1]: Duplicate value: \"b\""
            ]
        );
        // "set list with compound map items": each kind of value.
        let any = json!({});
        let cases = [
            (json!([1, 2, 1]), "[2]: Duplicate value: 1"),
            (json!([false, true, true]), "[2]: Duplicate value: true"),
            (json!([1.0, 2.0, 2.0]), "[2]: Duplicate value: 2"),
            (json!(["a", null, null]), "[2]: Duplicate value: \"null\""),
            (
                json!([{"a": "b"}, {}, {}]),
                "[2]: Duplicate value: map[string]interface {}{}",
            ),
            (
                json!([{"a": "b"}, {"a": "c"}, {"a": "b"}]),
                "[2]: Duplicate value: map[string]interface {}{\"a\":\"b\"}",
            ),
            (
                json!([[], ["a"], ["b"], ["a"]]),
                "[3]: Duplicate value: []interface {}{\"a\"}",
            ),
            (
                json!([[], [null], [null, null], [null], ["a"]]),
                "[3]: Duplicate value: []interface {}{interface {}(nil)}",
            ),
        ];
        for (value, expected) in cases {
            assert_eq!(
                messages(root(set(any.clone())), json!({"array": value})),
                [format!("array{expected}")],
                "{value}"
            );
        }
        // "nil values": a null value is not an absent one.
        assert!(
            messages(
                root(set(any.clone())),
                json!({"array": [{"a": null}, {"b": "c", "a": null}]})
            )
            .is_empty()
        );
        // "multiple duplicates": the second appearance of each.
        assert_eq!(
            messages(
                root(set(any)),
                json!({"array": [{"a": "b"}, {"a": "c"}, {"a": "b"}, {"a": "c"}, {"a": "c"}]})
            ),
            [
                "array[2]: Duplicate value: map[string]interface {}{\"a\":\"b\"}",
                "array[3]: Duplicate value: map[string]interface {}{\"a\":\"c\"}"
            ]
        );
        // Integers and floats are different scalars in a set, as Go's interface values.
        assert!(messages(root(set(json!({}))), json!({"array": [1, 1.0]})).is_empty());
    }

    #[test]
    fn maps_report_repeated_keys() {
        let object = json!({"type": "object"});
        let root = |array: Json| json!({"type": "object", "properties": {"array": array}});
        let one = |value: Json| {
            messages(
                root(list_map(json!(["a"]), object.clone())),
                json!({"array": value}),
            )
        };
        // "map list with compound map items", "strings" and the other scalars: not objects.
        assert_eq!(
            one(json!(["a"])),
            ["array[0]: Invalid value: \"a\": must be an object for an array of list-type map"]
        );
        assert_eq!(
            one(json!([{"a": "1"}, 1])),
            ["array[1]: Invalid value: 1: must be an object for an array of list-type map"]
        );
        // "nil": a null item is allowed.
        assert!(one(json!([null])).is_empty());
        // "one key".
        assert_eq!(
            one(json!([{"a": "0", "c": "2"}, {"a": "1", "c": "1"}, {"a": "1", "c": "2"}, {}])),
            ["array[2]: Duplicate value: map[string]interface {}{\"a\":\"1\"}"]
        );
        // "compound key".
        assert_eq!(
            one(
                json!([{"a": [], "c": "1"}, {"a": null, "c": "1"}, {"a": ["a"], "c": "1"},
                       {"a": ["a", 42], "c": "2"}, {"a": ["a", 42], "c": ["3"]}])
            ),
            ["array[4]: Duplicate value: map[string]interface {}{\"a\":[]interface {}{\"a\", 42}}"]
        );
        // "nil key": a null key is not an absent one.
        assert_eq!(
            one(json!([{"a": [], "c": "1"}, {"a": null, "c": "1"}, {"c": "1"}, {"a": null}])),
            ["array[3]: Duplicate value: map[string]interface {}{\"a\":interface {}(nil)}"]
        );
        // "nil item": a null item and an item without the key are the same (absent) key.
        assert_eq!(
            one(json!([null, {"a": "0", "c": "1"}, {"a": null}, {"c": "1"}])),
            ["array[3]: Duplicate value: map[string]interface {}{}"]
        );
        let two = |value: Json| {
            messages(
                root(list_map(json!(["a", "b"]), object.clone())),
                json!({"array": value}),
            )
        };
        // "two keys", "undefined key", "nil item multiple keys".
        assert_eq!(
            two(
                json!([{"a": "1", "b": "1", "c": "1"}, {"a": "1", "b": "2", "c": "2"},
                       {"a": "1", "b": "2", "c": "3"}, {}])
            ),
            ["array[2]: Duplicate value: map[string]interface {}{\"a\":\"1\", \"b\":\"2\"}"]
        );
        assert_eq!(
            two(
                json!([{"a": "1", "b": "1", "c": "1"}, {"a": "1", "c": "2"}, {"a": "1", "c": "3"}, {}])
            ),
            ["array[2]: Duplicate value: map[string]interface {}{\"a\":\"1\"}"]
        );
        assert_eq!(
            two(json!([null, {"b": "0", "c": "1"}, {"a": null}, {"c": "1"}])),
            ["array[3]: Duplicate value: map[string]interface {}{}"]
        );
    }
}

/// apiextensions-apiserver v0.35 `pkg/apiserver/schema/objectmeta/validation_test.go`
/// (`TestValidateEmbeddedResource`-style cases in our words): an embedded resource needs its
/// `apiVersion` and `kind`.
#[cfg(test)]
mod embedded_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn embedded_resources_need_apiversion_and_kind() {
        let node = Node::compile(&json!({"type": "object", "properties": {"manifest": {
            "type": "object", "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true
        }}}))
        .unwrap();
        let run = |manifest: Json| -> Vec<String> {
            check(&json!({"manifest": manifest}), &node)
                .into_iter()
                .map(|v| v.message)
                .collect()
        };
        assert!(run(json!({"apiVersion": "v1", "kind": "ConfigMap"})).is_empty());
        assert_eq!(
            run(json!({"data": {}})),
            [
                "manifest.apiVersion: Required value: must not be empty",
                "manifest.kind: Required value: must not be empty"
            ]
        );
        assert_eq!(
            run(json!({"apiVersion": "a/b/c", "kind": 1})),
            [
                "manifest.apiVersion: Invalid value: \"a/b/c\": unexpected GroupVersion string: a/b/c",
                "manifest.kind: Invalid value: 1: must be a string"
            ]
        );
        assert_eq!(
            run(json!({"apiVersion": "", "kind": "K"})),
            ["manifest.apiVersion: Invalid value: \"\": must not be empty"]
        );
    }
}
