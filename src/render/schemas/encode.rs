//! A schema as crossplane sends it: decoded into kube-openapi's `spec.Schema` and encoded
//! again, which drops every known field at its Go zero value (`omitempty`: `nullable: false`,
//! `required: []`, `default: null`, …) and writes a one-element `type` list as its string.
//! Unknown fields and `x-` extensions pass through unchanged, as `ExtraProps` and
//! `Extensions` carry them.

use serde_json::Value as Json;

/// Fields dropped when `false`.
const BOOLEANS: [&str; 5] = [
    "nullable",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "uniqueItems",
    "readOnly",
];
/// Fields dropped when `""`.
const STRINGS: [&str; 8] = [
    "id",
    "$schema",
    "$ref",
    "description",
    "format",
    "title",
    "pattern",
    "discriminator",
];
/// Fields dropped when an empty list or object.
const COLLECTIONS: [&str; 10] = [
    "type",
    "enum",
    "required",
    "allOf",
    "oneOf",
    "anyOf",
    "properties",
    "patternProperties",
    "dependencies",
    "definitions",
];
/// Fields holding one schema.
const ONE: [&str; 4] = ["not", "items", "additionalProperties", "additionalItems"];
/// Fields holding a list of schemas.
const LISTS: [&str; 4] = ["allOf", "oneOf", "anyOf", "items"];
/// Fields holding schemas by name.
const MAPS: [&str; 4] = [
    "properties",
    "patternProperties",
    "definitions",
    "dependencies",
];
/// Every field `spec.Schema` knows (a `null` in one of them is dropped); the pointer fields
/// among them hold numbers or schemas.
const KNOWN_NULLABLE: [&str; 13] = [
    "default",
    "example",
    "maximum",
    "minimum",
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "multipleOf",
    "maxProperties",
    "minProperties",
    "externalDocs",
    "not",
];

/// Re-encodes `schema` in place as Go's encoder writes it.
pub(super) fn as_go_encodes(schema: &mut Json) {
    let Json::Object(object) = schema else {
        return;
    };
    for key in MAPS {
        if let Some(Json::Object(children)) = object.get_mut(key) {
            // `dependencies` also holds property-name lists, left alone.
            children.values_mut().for_each(as_go_encodes);
        }
    }
    for key in LISTS {
        if let Some(Json::Array(children)) = object.get_mut(key) {
            children.iter_mut().for_each(as_go_encodes);
        }
    }
    for key in ONE {
        if let Some(child @ Json::Object(_)) = object.get_mut(key) {
            as_go_encodes(child);
        }
    }
    if let Some(Json::Array(types)) = object.get("type")
        && let [single @ Json::String(_)] = &types[..]
    {
        let single = single.clone();
        object.insert("type".into(), single);
    }
    object.retain(|key, value| !is_zero(key, value));
}

fn is_zero(key: &str, value: &Json) -> bool {
    match value {
        Json::Bool(false) => BOOLEANS.contains(&key),
        Json::String(s) if s.is_empty() => STRINGS.contains(&key),
        Json::Array(a) if a.is_empty() => COLLECTIONS.contains(&key),
        Json::Object(o) if o.is_empty() => COLLECTIONS.contains(&key),
        Json::Null => {
            KNOWN_NULLABLE.contains(&key)
                || COLLECTIONS.contains(&key)
                || ONE.contains(&key)
                || STRINGS.contains(&key)
                || BOOLEANS.contains(&key)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn zero_values_are_dropped_as_go_omits_them() {
        let mut schema = json!({
            "type": ["object"],
            "nullable": false,
            "required": [],
            "description": "",
            "default": null,
            "x-kubernetes-preserve-unknown-fields": false,
            "unknownField": "",
            "minimum": 0,
            "properties": {
                "a": {"type": ["string", "null"], "enum": [], "uniqueItems": false, "default": false},
                "b": {"items": {"readOnly": false, "type": "integer"}, "properties": {}},
            },
            "additionalProperties": false,
        });
        as_go_encodes(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "x-kubernetes-preserve-unknown-fields": false,
                "unknownField": "",
                "minimum": 0,
                "properties": {
                    "a": {"type": ["string", "null"], "default": false},
                    "b": {"items": {"type": "integer"}},
                },
                "additionalProperties": false,
            })
        );
    }
}
