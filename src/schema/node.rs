//! A structural schema (`openAPIV3Schema` of a CRD version) compiled once: every keyword the
//! API server validates with, patterns compiled, CEL rules parsed.

use super::rule::Rule;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The `type` of a schema node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// `object`.
    Object,
    /// `array`.
    Array,
    /// `string`.
    String,
    /// `integer`.
    Integer,
    /// `number`.
    Number,
    /// `boolean`.
    Boolean,
}

impl Type {
    fn parse(text: &str) -> Option<Type> {
        Some(match text {
            "object" => Type::Object,
            "array" => Type::Array,
            "string" => Type::String,
            "integer" => Type::Integer,
            "number" => Type::Number,
            "boolean" => Type::Boolean,
            _ => return None,
        })
    }

    /// The name the schema uses.
    pub fn name(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Number => "number",
            Type::Boolean => "boolean",
        }
    }
}

/// `additionalProperties`.
#[derive(Clone, Debug, Default)]
pub enum Additional {
    /// Not given: only `properties` are known (unless unknown fields are preserved).
    #[default]
    Unset,
    /// `additionalProperties: false` (or `true`, which structural schemas forbid but we accept).
    Bool(bool),
    /// A schema for every other key (a map).
    Schema(Box<Node>),
}

/// A compiled `pattern`.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// As written.
    pub source: String,
    /// Compiled with Go's `regexp` semantics, as the API server compiles it; when it does not
    /// compile, Go's error text (`error parsing regexp: missing closing ): `(``), which
    /// kube-openapi reports for every value the pattern is applied to.
    pub regex: Result<Arc<crate::re2::Compiled>, String>,
}

/// One schema node.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// `type`.
    pub kind: Option<Type>,
    /// `description`.
    pub description: Option<String>,
    /// `nullable`.
    pub nullable: bool,
    /// `properties`.
    pub properties: BTreeMap<String, Node>,
    /// `additionalProperties`.
    pub additional: Additional,
    /// `items`.
    pub items: Option<Box<Node>>,
    /// `required`.
    pub required: Vec<String>,
    /// `enum`.
    pub enumeration: Option<Vec<Json>>,
    /// `pattern`.
    pub pattern: Option<Pattern>,
    /// `format`.
    pub format: Option<String>,
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `default`; `default: null` is no default, as the API server reads it (a JSON null
    /// decodes to Go's nil, which its defaulting skips).
    pub default: Option<Json>,
    /// `x-kubernetes-preserve-unknown-fields`.
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-int-or-string`.
    pub int_or_string: bool,
    /// `x-kubernetes-embedded-resource`.
    pub embedded_resource: bool,
    /// `x-kubernetes-list-type`.
    pub list_type: Option<String>,
    /// `x-kubernetes-map-type`.
    pub map_type: Option<String>,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-validations`, compiled.
    pub rules: Vec<Rule>,
    /// `x-kubernetes-validations` as written (compiled into [`Node::rules`] once the whole
    /// schema is read: a rule's `self` is typed by its node's subtree).
    pub rule_sources: Vec<Json>,
    /// `allOf`.
    pub all_of: Vec<Node>,
    /// `anyOf`.
    pub any_of: Vec<Node>,
    /// `oneOf`.
    pub one_of: Vec<Node>,
    /// `not`.
    pub not: Option<Box<Node>>,
}

/// How deep a schema may nest (real CRDs stay below 30).
pub const MAX_SCHEMA_DEPTH: usize = 200;

/// Why a schema cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct SchemaError {
    /// Where in the schema (`properties.spec.properties.x`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl Node {
    /// Reads an `openAPIV3Schema` without compiling its CEL rules (their sources are kept
    /// in [`Node::rule_sources`]); [`Node::compile`] (in `schema::compile`) does both.
    pub fn parse(json: &Json) -> Result<Node, SchemaError> {
        compile(json, "", 0)
    }

    /// Whether keys outside `properties` are kept (and so not unknown).
    pub fn keeps_unknown_fields(&self) -> bool {
        self.preserve_unknown_fields
            || matches!(
                self.additional,
                Additional::Schema(_) | Additional::Bool(true)
            )
    }

    /// The schema of the child `key` of an object node.
    pub fn property(&self, key: &str) -> Option<&Node> {
        self.properties.get(key).or(match &self.additional {
            Additional::Schema(node) => Some(node),
            _ => None,
        })
    }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn compile(json: &Json, path: &str, depth: usize) -> Result<Node, SchemaError> {
    let error = |message: String| SchemaError {
        path: if path.is_empty() {
            "openAPIV3Schema".into()
        } else {
            path.to_string()
        },
        message,
    };
    if depth > MAX_SCHEMA_DEPTH {
        return Err(error(format!("nested more than {MAX_SCHEMA_DEPTH} levels")));
    }
    let Json::Object(map) = json else {
        return Err(error("a schema must be an object".into()));
    };
    let text = |key: &str| map.get(key).and_then(Json::as_str).map(str::to_string);
    let flag = |key: &str| map.get(key).and_then(Json::as_bool).unwrap_or(false);
    let count = |key: &str| map.get(key).and_then(Json::as_u64);
    let number = |key: &str| map.get(key).and_then(Json::as_f64);
    let mut node = Node {
        kind: match map.get("type") {
            None => None,
            Some(Json::String(t)) => {
                Some(Type::parse(t).ok_or_else(|| error(format!("unknown type {t:?}")))?)
            }
            Some(other) => return Err(error(format!("type must be a string, not {other}"))),
        },
        description: text("description"),
        nullable: flag("nullable"),
        format: text("format"),
        min_length: count("minLength"),
        max_length: count("maxLength"),
        min_items: count("minItems"),
        max_items: count("maxItems"),
        min_properties: count("minProperties"),
        max_properties: count("maxProperties"),
        minimum: number("minimum"),
        maximum: number("maximum"),
        exclusive_minimum: flag("exclusiveMinimum"),
        exclusive_maximum: flag("exclusiveMaximum"),
        multiple_of: number("multipleOf"),
        unique_items: flag("uniqueItems"),
        default: map.get("default").filter(|d| !d.is_null()).cloned(),
        preserve_unknown_fields: flag("x-kubernetes-preserve-unknown-fields"),
        int_or_string: flag("x-kubernetes-int-or-string"),
        embedded_resource: flag("x-kubernetes-embedded-resource"),
        list_type: text("x-kubernetes-list-type"),
        map_type: text("x-kubernetes-map-type"),
        list_map_keys: map
            .get("x-kubernetes-list-map-keys")
            .and_then(Json::as_array)
            .map(|keys| {
                keys.iter()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        required: map
            .get("required")
            .and_then(Json::as_array)
            .map(|keys| {
                keys.iter()
                    .filter_map(|k| k.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        enumeration: map.get("enum").and_then(Json::as_array).cloned(),
        ..Node::default()
    };
    if let Some(source) = text("pattern") {
        node.pattern = Some(Pattern {
            regex: crate::re2::compile(&source)
                .map_err(|e| format!("error parsing regexp: {}: `{}`", e.code, e.expr)),
            source,
        });
    }
    if let Some(Json::Object(properties)) = map.get("properties") {
        for (key, schema) in properties {
            let at = child(path, &format!("properties.{key}"));
            node.properties
                .insert(key.clone(), compile(schema, &at, depth + 1)?);
        }
    }
    node.additional = match map.get("additionalProperties") {
        None => Additional::Unset,
        Some(Json::Bool(b)) => Additional::Bool(*b),
        Some(schema) => Additional::Schema(Box::new(compile(
            schema,
            &child(path, "additionalProperties"),
            depth + 1,
        )?)),
    };
    if let Some(items) = map.get("items") {
        node.items = Some(Box::new(compile(items, &child(path, "items"), depth + 1)?));
    }
    for (key, list) in [
        ("allOf", &mut node.all_of),
        ("anyOf", &mut node.any_of),
        ("oneOf", &mut node.one_of),
    ] {
        if let Some(Json::Array(schemas)) = map.get(key) {
            for (i, schema) in schemas.iter().enumerate() {
                list.push(compile(
                    schema,
                    &child(path, &format!("{key}[{i}]")),
                    depth + 1,
                )?);
            }
        }
    }
    if let Some(not) = map.get("not") {
        node.not = Some(Box::new(compile(not, &child(path, "not"), depth + 1)?));
    }
    if let Some(Json::Array(rules)) = map.get("x-kubernetes-validations") {
        for (i, rule) in rules.iter().enumerate() {
            if rule.get("rule").and_then(Json::as_str).is_none() {
                return Err(SchemaError {
                    path: child(path, &format!("x-kubernetes-validations[{i}]")),
                    message: "a validation rule needs `rule`".into(),
                });
            }
            node.rule_sources.push(rule.clone());
        }
    }
    Ok(node)
}
