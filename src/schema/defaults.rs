//! Structural defaulting, as the API server applies it before validating: a property with a
//! `default` that is absent from its object gets it, then defaulting goes on inside every
//! value (the ones just set included), through `properties`, `additionalProperties` and
//! `items`.

use super::node::{Additional, Node};
use serde_json::Value as Json;

/// Applies `node`'s defaults to `value`, in place.
pub fn apply(value: &mut Json, node: &Node) {
    match value {
        Json::Object(object) => {
            for (key, property) in &node.properties {
                if !object.contains_key(key)
                    && let Some(default) = &property.default
                {
                    object.insert(key.clone(), default.clone());
                }
            }
            for (key, child) in object.iter_mut() {
                if let Some(schema) = node.properties.get(key) {
                    apply(child, schema);
                } else if let Additional::Schema(schema) = &node.additional {
                    apply(child, schema);
                }
            }
        }
        Json::Array(items) => {
            if let Some(schema) = &node.items {
                for item in items {
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
}
