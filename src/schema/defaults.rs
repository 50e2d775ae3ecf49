//! Structural defaulting, as the API server applies it before validating: a property with a
//! `default` that is absent from its object gets it, then defaulting goes on inside every
//! value (the ones just set included), through `properties`, `additionalProperties` and
//! `items`. A null where the schema does not allow one takes the default too; one without a
//! default is dropped first ([`prune_nulls`]), as the API server's decoder drops it, so such a
//! null is treated as absent.

use super::node::{Additional, Node};
use serde_json::Value as Json;

/// Whether `value` is a null the schema `node` does not allow.
fn non_nullable_null(value: &Json, node: Option<&Node>) -> bool {
    value.is_null() && node.is_some_and(|n| !n.nullable)
}

/// The schema of `key` in an object of schema `node`: its property, else the
/// `additionalProperties` schema.
fn field<'a>(node: Option<&'a Node>, key: &str) -> Option<&'a Node> {
    node.and_then(|n| n.property(key))
}

/// Removes every null the schema does not allow and gives no default for (the API server's
/// `PruneNonNullableNullsWithoutDefaults`, run when a resource is decoded): such a field is
/// then absent, so it is not reported as `must be of type …: "null"`. Nulls in lists stay.
pub fn prune_nulls(value: &mut Json, node: Option<&Node>) {
    match value {
        Json::Object(object) => {
            object.retain(|key, child| {
                let schema = field(node, key);
                !(non_nullable_null(child, schema) && schema.is_some_and(|s| s.default.is_none()))
            });
            for (key, child) in object.iter_mut() {
                prune_nulls(child, field(node, key));
            }
        }
        Json::Array(items) => {
            let schema = node.and_then(|n| n.items.as_deref());
            for item in items {
                prune_nulls(item, schema);
            }
        }
        _ => {}
    }
}

/// Applies `node`'s defaults to `value`, in place (the API server's structural `Default`).
pub fn apply(value: &mut Json, node: &Node) {
    match value {
        Json::Object(object) => {
            for (key, property) in &node.properties {
                let Some(default) = &property.default else {
                    continue;
                };
                let missing = match object.get(key) {
                    None => true,
                    Some(v) => non_nullable_null(v, Some(property)),
                };
                if missing {
                    object.insert(key.clone(), default.clone());
                }
            }
            for (key, child) in object.iter_mut() {
                if let Some(schema) = node.properties.get(key) {
                    apply(child, schema);
                } else if let Additional::Schema(schema) = &node.additional {
                    if non_nullable_null(child, Some(schema))
                        && let Some(default) = &schema.default
                    {
                        *child = default.clone();
                    }
                    apply(child, schema);
                }
            }
        }
        Json::Array(items) => {
            if let Some(schema) = &node.items {
                for item in items {
                    if non_nullable_null(item, Some(schema))
                        && let Some(default) = &schema.default
                    {
                        *item = default.clone();
                    }
                    apply(item, schema);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_fill_absent_keys_at_every_level() {
        let node = Node::compile(&json!({
            "type": "object",
            "properties": {
                "spec": {
                    "type": "object",
                    "default": {},
                    "properties": {
                        "size": {"type": "integer", "default": 3},
                        "tags": {"type": "object", "additionalProperties": {
                            "type": "object",
                            "properties": {"kept": {"type": "boolean", "default": true}}
                        }},
                        "items": {"type": "array", "items": {
                            "type": "object",
                            "properties": {"port": {"type": "integer", "default": 80}}
                        }}
                    }
                }
            }
        }))
        .unwrap();
        let mut empty = json!({});
        apply(&mut empty, &node);
        assert_eq!(empty, json!({"spec": {"size": 3}}));
        let mut value = json!({"spec": {"size": 1, "tags": {"a": {}}, "items": [{}, {"port": 1}]}});
        apply(&mut value, &node);
        assert_eq!(
            value,
            json!({"spec": {"size": 1, "tags": {"a": {"kept": true}}, "items": [{"port": 80}, {"port": 1}]}})
        );
    }

    fn run(schema: serde_json::Value, value: &str, prune: bool) -> serde_json::Value {
        let node = Node::compile(&schema).unwrap();
        let mut value: Json = serde_json::from_str(value).unwrap();
        if prune {
            prune_nulls(&mut value, Some(&node));
        } else {
            apply(&mut value, &node);
        }
        value
    }

    /// apiextensions-apiserver v0.35 `pkg/apiserver/schema/defaulting/prunenulls_test.go`,
    /// `TestPruneNonNullableNullsWithoutDefaults`: only a null that is neither nullable nor
    /// defaulted goes; in a list it stays.
    #[test]
    fn nulls_pruned_as_the_api_server_prunes_them() {
        // "empty", "scalar", "scalar array": nothing to do.
        assert_eq!(run(json!({}), "null", true), json!(null));
        assert_eq!(run(json!({"default": "foo"}), "4", true), json!(4));
        assert_eq!(run(json!({}), "[1,null]", true), json!([1, null]));
        // "object array": a (default), b (nullable), c (both) stay, d (neither) goes, e (no
        // schema) stays.
        let schema = json!({"items": {"properties": {
            "a": {"default": "A"},
            "b": {"nullable": true},
            "c": {"default": "C", "nullable": true},
            "d": {}
        }}});
        assert_eq!(
            run(
                schema,
                r#"[{"a":null},{"b":null},{"c":null},{"d":null},{"e":null}]"#,
                true
            ),
            json!([{"a": null}, {"b": null}, {"c": null}, {}, {"e": null}])
        );
        // Through additionalProperties too.
        let schema = json!({"additionalProperties": {"type": "string"}});
        assert_eq!(
            run(schema, r#"{"x":null,"y":"1"}"#, true),
            json!({"y": "1"})
        );
    }

    /// apiextensions-apiserver v0.35 `pkg/apiserver/schema/defaulting/algorithm_test.go`,
    /// `TestDefault`: absent fields and non-nullable nulls take the default; nullable nulls and
    /// `default: null` leave the value alone.
    #[test]
    fn defaults_as_the_api_server_defaults() {
        let items = json!({"items": {"properties": {
            "a": {"default": "A"},
            "b": {"default": "B", "nullable": true},
            "c": {"default": "C"},
            "d": {"nullable": true}
        }}});
        // "object array": absent keys filled.
        assert_eq!(
            run(items.clone(), r#"[{"a":1},{"b":1},{"c":1}]"#, false),
            json!([
                {"a": 1, "b": "B", "c": "C"},
                {"a": "A", "b": 1, "c": "C"},
                {"a": "A", "b": "B", "c": 1}
            ])
        );
        // "null in nullable list"/"null in object": a non-nullable null takes the default, a
        // nullable one stays null.
        assert_eq!(
            run(items, r#"[{"a":null,"b":null,"d":null}]"#, false),
            json!([{"a": "A", "b": null, "c": "C", "d": null}])
        );
        // A non-nullable null item of a list, and of a map, with a default.
        assert_eq!(
            run(json!({"items": {"default": "x"}}), "[null, \"y\"]", false),
            json!(["x", "y"])
        );
        assert_eq!(
            run(
                json!({"additionalProperties": {"default": 1}}),
                r#"{"k":null}"#,
                false
            ),
            json!({"k": 1})
        );
        // `default: null` is no default: an absent field stays absent.
        assert_eq!(
            run(
                json!({"properties": {"a": {"nullable": true, "default": null}}}),
                "{}",
                false
            ),
            json!({})
        );
    }
}
