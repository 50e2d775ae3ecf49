//! `--required-schemas`: OpenAPI v3 documents (what `kubectl get --raw
//! /openapi/v3/<group-version>` prints) served to functions that ask for a kind's schema,
//! through a step's bootstrap `requirements.requiredSchemas` or a response's
//! `requirements.schemas`.
//!
//! A schema is found by the one `x-kubernetes-group-version-kind` entry of a component schema
//! and sent with every `$ref` under `properties`, `additionalProperties` and `items` replaced
//! by the schema it names (a reference back to a schema being expanded becomes
//! `{"type": "object"}`), as Kubernetes' `resolver.PopulateRefs` does. A kind no document
//! has is answered with an empty schema, as crossplane answers it. The dialects look
//! differently: the classic one (CLI 2.2's `FilteringSchemaFetcher`) searches every document
//! in order, comparing group and version without regard to case; the engine (2.3's
//! `OpenAPISchemasFetcher` over its in-memory client) looks only in the first document that
//! declares any kind of the group-version, comparing exactly. The schema is sent as Go
//! encodes it again (`encode`).

mod encode;

use crate::eval::proto::{Schema, SchemaSelector};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// One OpenAPI v3 document: its `components.schemas`, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OpenApiDocument {
    /// The component schemas (`null` entries left out: no kind can be found in them).
    pub schemas: BTreeMap<String, Json>,
}

/// Where a `$ref` to a component schema starts.
const REF_PREFIX: &str = "#/components/schemas/";
/// How many schema nodes one flattened schema may hold: a document whose references fan out
/// would otherwise expand exponentially.
const MAX_FLATTENED_NODES: usize = 200_000;
/// How deep references may nest while one schema is flattened.
const MAX_REF_DEPTH: usize = 256;

/// Why a document could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentError {
    /// What is wrong (crossplane's `cannot parse OpenAPI JSON from …` goes around it).
    pub message: String,
    /// Where in the text, for a JSON syntax error.
    pub offset: Option<usize>,
}

impl From<String> for DocumentError {
    fn from(message: String) -> DocumentError {
        DocumentError {
            message,
            offset: None,
        }
    }
}

/// Reads one document's text.
pub fn parse_document(text: &str) -> Result<OpenApiDocument, DocumentError> {
    let value: Json = serde_json::from_str(text).map_err(|e| DocumentError {
        offset: offset_of(text, e.line(), e.column()),
        message: e.to_string(),
    })?;
    shape(value).map_err(DocumentError::from)
}

/// The byte offset of serde_json's 1-based line and column (0 when it has none).
fn offset_of(text: &str, line: usize, column: usize) -> Option<usize> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let offset = start + column.saturating_sub(1);
    // A column counted past a multi-byte character is moved back onto its boundary.
    (0..=offset.min(text.len()))
        .rev()
        .find(|o| text.is_char_boundary(*o))
}

/// The component schemas of a parsed document.
fn shape(value: Json) -> Result<OpenApiDocument, String> {
    let object = match value {
        Json::Object(object) => object,
        // Go's decoder leaves the document empty for `null`.
        Json::Null => return Ok(OpenApiDocument::default()),
        other => {
            return Err(format!(
                "an OpenAPI document is an object, not {}",
                kind(&other)
            ));
        }
    };
    let schemas = match object.get("components") {
        None | Some(Json::Null) => return Ok(OpenApiDocument::default()),
        Some(Json::Object(components)) => components.get("schemas"),
        Some(other) => return Err(format!("`components` is an object, not {}", kind(other))),
    };
    let mut out = BTreeMap::new();
    match schemas {
        None | Some(Json::Null) => {}
        Some(Json::Object(schemas)) => {
            for (name, schema) in schemas {
                match schema {
                    Json::Object(_) => {
                        out.insert(name.clone(), schema.clone());
                    }
                    Json::Null => {}
                    other => {
                        return Err(format!(
                            "`components.schemas.{name}` is an object, not {}",
                            kind(other)
                        ));
                    }
                }
            }
        }
        Some(other) => {
            return Err(format!(
                "`components.schemas` is an object, not {}",
                kind(other)
            ));
        }
    }
    Ok(OpenApiDocument { schemas: out })
}

fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// The schema `selector` asks for, from `documents` (`engine`: as the engine dialect finds
/// it). `Err` holds crossplane's message.
pub fn fetch(
    documents: &[OpenApiDocument],
    selector: &SchemaSelector,
    engine: bool,
) -> Result<Schema, String> {
    let api_version = &selector.api_version;
    let (group, version) = parse_group_version(api_version)
        .map_err(|e| format!("cannot parse apiVersion {api_version:?}: {e}"))?;
    let same = |a: &str, b: &str| {
        if engine {
            a == b
        } else {
            a.eq_ignore_ascii_case(b)
        }
    };
    let searched: Vec<&OpenApiDocument> = if engine {
        // The engine's client serves each group-version from the first document that has a
        // kind of it; the others are never read for it.
        documents
            .iter()
            .find(|d| {
                d.schemas.values().any(|s| {
                    kinds(s)
                        .iter()
                        .any(|(g, v, _)| *g == group && *v == version)
                })
            })
            .into_iter()
            .collect()
    } else {
        documents.iter().collect()
    };
    for document in searched {
        for (name, schema) in &document.schemas {
            let [(g, v, k)] = kinds(schema)[..] else {
                continue;
            };
            if same(g, &group) && same(v, &version) && k == selector.kind {
                let mut flattened = flatten(document, name)
                    .map_err(|e| format!("cannot flatten schema references: {e}"))?;
                encode::as_go_encodes(&mut flattened);
                return Ok(Schema {
                    openapi_v3: Some(flattened),
                });
            }
        }
    }
    Ok(Schema::default())
}

/// Kubernetes' `schema.ParseGroupVersion`.
fn parse_group_version(text: &str) -> Result<(String, String), String> {
    if text.is_empty() || text == "/" {
        return Ok((String::new(), String::new()));
    }
    match text.split_once('/') {
        None => Ok((String::new(), text.to_string())),
        Some((group, version)) if !version.contains('/') => {
            Ok((group.to_string(), version.to_string()))
        }
        Some(_) => Err(format!("unexpected GroupVersion string: {text}")),
    }
}

/// A schema's `x-kubernetes-group-version-kind` entries as (group, version, kind); a
/// missing or non-string field reads as empty, as Go's type assertions leave it.
fn kinds(schema: &Json) -> Vec<(&str, &str, &str)> {
    let Some(Json::Array(entries)) = schema.get("x-kubernetes-group-version-kind") else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|e| {
            let e = e.as_object()?;
            Some((field(e, "group"), field(e, "version"), field(e, "kind")))
        })
        .collect()
}

fn field<'a>(entry: &'a Map<String, Json>, key: &str) -> &'a str {
    entry.get(key).and_then(Json::as_str).unwrap_or("")
}

/// The component schema `name` with its references expanded.
fn flatten(document: &OpenApiDocument, name: &str) -> Result<Json, String> {
    let root = document.schemas.get(name).ok_or_else(|| {
        format!("internal error: cannot resolve Ref for root schema \"{REF_PREFIX}{name}\": schema not found")
    })?;
    let mut walk = Flatten {
        document,
        visited: vec![format!("{REF_PREFIX}{name}")],
        nodes: 0,
    };
    walk.populate(root)
}

struct Flatten<'a> {
    document: &'a OpenApiDocument,
    /// The references being expanded, outermost first.
    visited: Vec<String>,
    /// Schema nodes produced so far.
    nodes: usize,
}

impl Flatten<'_> {
    fn populate(&mut self, schema: &Json) -> Result<Json, String> {
        self.nodes += 1;
        if self.nodes > MAX_FLATTENED_NODES || self.visited.len() > MAX_REF_DEPTH {
            return Err(format!(
                "the schema expands to more than {MAX_FLATTENED_NODES} nodes or {MAX_REF_DEPTH} nested references"
            ));
        }
        let reference = ref_of(schema).map(str::to_string);
        let mut result = schema.clone();
        if let Some(reference) = &reference {
            if self.visited.contains(reference) {
                // A reference back into itself: an open object stands for it.
                return Ok(serde_json::json!({"type": "object"}));
            }
            let name = reference.strip_prefix(REF_PREFIX).unwrap_or(reference);
            // The whole schema is replaced, siblings of the reference and all.
            result = self.document.schemas.get(name).cloned().ok_or_else(|| {
                format!("internal error: cannot resolve Ref {reference:?}: schema not found")
            })?;
            self.visited.push(reference.clone());
        }
        let populated = self.populate_children(&mut result);
        if reference.is_some() {
            self.visited.pop();
        }
        populated?;
        Ok(result)
    }

    fn populate_children(&mut self, result: &mut Json) -> Result<(), String> {
        let Json::Object(object) = result else {
            return Ok(());
        };
        if let Some(Json::Object(properties)) = object.get_mut("properties") {
            for property in properties.values_mut() {
                *property = self.populate(property)?;
            }
        }
        for key in ["additionalProperties", "items"] {
            if let Some(child) = object.get_mut(key)
                && child.is_object()
            {
                *child = self.populate(child)?;
            }
        }
        Ok(())
    }
}

/// A schema's reference: its `$ref`, or one wrapped in `allOf` (how Kubernetes keeps a
/// description beside a reference).
fn ref_of(schema: &Json) -> Option<&str> {
    if let Some(reference) = schema.get("$ref").and_then(Json::as_str)
        && !reference.is_empty()
    {
        return Some(reference);
    }
    schema
        .get("allOf")
        .and_then(Json::as_array)?
        .iter()
        .find_map(ref_of)
}

#[cfg(test)]
mod tests;
