//! CRD-aware bodies: inside a resource's `body`, completion and hover follow the schema of the
//! body's `apiVersion` and `kind` (the schemas `check` reads: `.fnhcl.toml` `schemas`,
//! `.crd-sources.yaml` or `.crds/`).
//!
//! The bodies are those `check`'s body rules judge: the `body` of a `resource` and of a
//! collection's `template`, through `group`s. The parser locates the block and the `body`
//! attribute; the object itself is read again from the tokens by a tolerant reader, because a
//! half-typed body (`reg` alone on a line, `acl = ` without a value) makes the parser drop the
//! items on the way to the error, which are exactly those that lead to the cursor.

mod written;

use super::At;
use super::types::{Completion, CompletionKind, HoverInfo, TextEdit};
use crate::schema::load::{Entry, Origin, Scope};
use crate::schema::node::{Additional, Node, Type};
use crate::schema::validate::path_text;
use crate::schema::xr::type_text;
use crate::schema::{Schemas, Segment};
use serde_json::Value as Json;
use std::borrow::Cow;
use std::ops::Range;
use written::{Object, Place, locate, read_body};

/// Field completions at a position inside a `body` object whose kind has a schema.
pub fn complete(at: &At) -> Option<Vec<Completion>> {
    let settings = at.ws.settings(&at.comp.dir);
    let schemas = settings.config.schemas.as_deref()?;
    let text = at.text();
    let parsed = at.comp.syntax(at.file);
    let body = read_body(text, parsed, at.offset)?;
    let cursor = locate(&body, at.offset)?;
    // Typing the root's `apiVersion` or `kind`: the kinds the schemas know.
    if cursor.path.len() == 1
        && let Place::Value { span, .. } = &cursor.place
        && let Some(Segment::Key(key)) = cursor.path.first()
        && (key == "apiVersion" || key == "kind")
    {
        return type_values(schemas, &body, key, text, span.clone());
    }
    let entry = entry_of(schemas, &body)?;
    let root = &entry.schema;
    match &cursor.place {
        Place::Key { current } => {
            let Some(node) = node_at(root, &cursor.path) else {
                return Some(Vec::new());
            };
            let written: Vec<&str> = cursor
                .object
                .items
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != *current)
                .filter_map(|(_, item)| item.key.as_deref())
                .collect();
            let has_equals = current.is_some_and(|i| cursor.object.items[i].equals.is_some());
            Some(field_items(
                &node,
                cursor.path.is_empty(),
                &written,
                has_equals,
            ))
        }
        Place::Value { span } => {
            let node = node_at(root, &cursor.path)?;
            value_items(&node, text, span.clone())
        }
    }
}

/// A field's type, description and allowed values at a key inside a `body` object.
pub fn hover(at: &At) -> Option<HoverInfo> {
    let settings = at.ws.settings(&at.comp.dir);
    let schemas = settings.config.schemas.as_deref()?;
    let text = at.text();
    let parsed = at.comp.syntax(at.file);
    let body = read_body(text, parsed, at.offset)?;
    let cursor = locate(&body, at.offset)?;
    let entry = entry_of(schemas, &body)?;
    let (key, range) = match &cursor.place {
        Place::Key { current: Some(i) } => {
            let item = &cursor.object.items[*i];
            (item.key.clone()?, item.key_span.clone())
        }
        Place::Value { span } if cursor.path.len() == 1 => match cursor.path.first() {
            Some(Segment::Key(k)) if k == "apiVersion" || k == "kind" => {
                return Some(markdown(kind_text(entry), span.clone()));
            }
            _ => return None,
        },
        _ => return None,
    };
    if cursor.path.is_empty() && (key == "apiVersion" || key == "kind") {
        return Some(markdown(kind_text(entry), range));
    }
    let parent = node_at(&entry.schema, &cursor.path)?;
    let node = property(&parent, &key, cursor.path.is_empty())?;
    let mut path = cursor.path.clone();
    path.push(Segment::Key(key.clone()));
    let required = parent.required.contains(&key);
    let mut out = format!(
        "**`{}`** — `{}`{}",
        path_text(&path),
        type_text(&node),
        if required { " · required" } else { "" }
    );
    push_field_doc(&mut out, &node);
    out.push_str(&format!("\n\n*{} ({})*", entry.kind, entry.api_version));
    Some(markdown(out, range))
}

fn markdown(value: String, span: Range<usize>) -> HoverInfo {
    HoverInfo {
        markdown: value,
        range: span,
    }
}

/// The schema of the body's literal `apiVersion` and `kind`.
fn entry_of<'s>(schemas: &'s Schemas, body: &Object) -> Option<&'s Entry> {
    schemas.get(body.literal("apiVersion")?, body.literal("kind")?)
}

/// What a hover on `apiVersion` or `kind` shows: the kind's group, version and origin.
fn kind_text(entry: &Entry) -> String {
    let (group, version) = entry
        .api_version
        .split_once('/')
        .unwrap_or(("", &entry.api_version));
    let group = if group.is_empty() { "(core)" } else { group };
    let origin = match entry.origin {
        Origin::Crd => "CustomResourceDefinition",
        Origin::Composite => "CompositeResourceDefinition (composite resource)",
        Origin::Claim => "CompositeResourceDefinition (claim)",
    };
    let scope = match entry.scope {
        Scope::Namespaced => "Namespaced",
        Scope::Cluster => "Cluster",
    };
    let mut out = format!(
        "**`{}`** — `{}`\n\n- group: `{group}`\n- version: `{version}`\n- kind: `{}`\n- scope: {scope}\n- defined by: {origin} in `{}`",
        entry.kind, entry.api_version, entry.kind, entry.file
    );
    if let Some(description) = &entry.schema.description {
        out.push_str("\n\n");
        out.push_str(description.trim());
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The schema side.

/// `apiVersion`, `kind` and `metadata` as every kind has them, for schemas that leave them out.
fn implicit_root(key: &str) -> Option<Node> {
    let json = match key {
        "apiVersion" => serde_json::json!({
            "type": "string",
            "description": "APIVersion defines the versioned schema of this representation of an object.",
        }),
        "kind" => serde_json::json!({
            "type": "string",
            "description": "Kind is a string value representing the REST resource this object represents.",
        }),
        "metadata" => serde_json::json!({
            "type": "object",
            "description": "Standard object's metadata.",
        }),
        _ => return None,
    };
    Node::compile(&json).ok()
}

/// The fields of an object's metadata (a CRD's schema says only `type: object`).
fn object_meta() -> Node {
    let map = |d: &str| serde_json::json!({"type": "object", "additionalProperties": {"type": "string"}, "description": d});
    let json = serde_json::json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Name must be unique within a namespace. Crossplane generates one from the composite's when it is not given."},
            "generateName": {"type": "string", "description": "An optional prefix, used by the server, to generate a unique name."},
            "namespace": {"type": "string", "description": "The namespace of a namespaced object."},
            "labels": map("Map of string keys and values that can be used to organize and categorize objects."),
            "annotations": map("Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata."),
        },
    });
    Node::compile(&json).unwrap_or_default()
}

/// The child `key` of an object node; at the root, `apiVersion`, `kind` and `metadata` even
/// when the schema leaves them out, and the fields of metadata. Borrowed from the schema
/// unless built.
fn property<'n>(node: &'n Node, key: &str, root: bool) -> Option<Cow<'n, Node>> {
    if root && key == "metadata" {
        let written = node.properties.get("metadata");
        if written.is_none_or(|m| m.properties.is_empty()) {
            let mut meta = object_meta();
            if let Some(d) = written.and_then(|m| m.description.clone()) {
                meta.description = Some(d);
            }
            return Some(Cow::Owned(meta));
        }
    }
    match node.property(key) {
        Some(found) => Some(Cow::Borrowed(found)),
        None if root => implicit_root(key).map(Cow::Owned),
        None => None,
    }
}

/// The schema node at `path` from the root.
fn node_at<'n>(root: &'n Node, path: &[Segment]) -> Option<Cow<'n, Node>> {
    let mut node = Cow::Borrowed(root);
    for (i, segment) in path.iter().enumerate() {
        node = match (node, segment) {
            (Cow::Borrowed(n), Segment::Key(key)) => property(n, key, i == 0)?,
            (Cow::Borrowed(n), Segment::Index(_)) => Cow::Borrowed(n.items.as_deref()?),
            // Below a built node (metadata): built too.
            (Cow::Owned(n), Segment::Key(key)) => {
                Cow::Owned(property(&n, key, false)?.into_owned())
            }
            (Cow::Owned(n), Segment::Index(_)) => Cow::Owned(*n.items?),
        };
    }
    Some(node)
}

/// Whether a node is written as an object constructor (an object or a map).
fn is_object(node: &Node) -> bool {
    match node.kind {
        Some(Type::Object) => true,
        None => !node.properties.is_empty() || matches!(node.additional, Additional::Schema(_)),
        _ => false,
    }
}

fn json_text(value: &Json) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

/// A field's documentation for a completion item: its description, then its constraints
/// ([`facts`]) after a blank line; empty when it has neither.
pub(crate) fn field_doc(node: &Node) -> String {
    let mut doc = node
        .description
        .clone()
        .unwrap_or_default()
        .trim()
        .to_string();
    let facts = facts(node);
    if !facts.is_empty() {
        if !doc.is_empty() {
            doc.push_str("\n\n");
        }
        doc.push_str(&facts.join("\n"));
    }
    doc
}

/// A hover's paragraphs about a field, after its headline in `out`: the description, then the
/// constraints ([`facts`]), each after a blank line.
pub(crate) fn push_field_doc(out: &mut String, node: &Node) {
    if let Some(description) = &node.description {
        out.push_str("\n\n");
        out.push_str(description.trim());
    }
    let facts = facts(node);
    if !facts.is_empty() {
        out.push_str("\n\n");
        out.push_str(&facts.join("\n"));
    }
}

/// A node's constraints, one Markdown list line each.
pub(crate) fn facts(node: &Node) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(values) = &node.enumeration {
        let values: Vec<String> = values
            .iter()
            .map(|v| format!("`{}`", json_text(v)))
            .collect();
        out.push(format!("- one of: {}", values.join(", ")));
    }
    if let Some(default) = &node.default {
        out.push(format!("- default: `{}`", json_text(default)));
    }
    if let Some(format) = &node.format {
        out.push(format!("- format: `{format}`"));
    }
    if let Some(pattern) = &node.pattern {
        out.push(format!("- pattern: `{}`", pattern.source));
    }
    let bound = |name: &str, value: Option<f64>, exclusive: bool| {
        value.map(|v| {
            format!(
                "- {name}: {}{}",
                number_text(v),
                if exclusive { " (exclusive)" } else { "" }
            )
        })
    };
    out.extend(bound("minimum", node.minimum, node.exclusive_minimum));
    out.extend(bound("maximum", node.maximum, node.exclusive_maximum));
    if let Some(m) = node.multiple_of {
        out.push(format!("- multiple of: {}", number_text(m)));
    }
    for (name, value) in [
        ("min length", node.min_length),
        ("max length", node.max_length),
        ("min items", node.min_items),
        ("max items", node.max_items),
        ("min properties", node.min_properties),
        ("max properties", node.max_properties),
    ] {
        if let Some(v) = value {
            out.push(format!("- {name}: {v}"));
        }
    }
    if node.unique_items {
        out.push("- items are unique".into());
    }
    if node.nullable {
        out.push("- nullable".into());
    }
    out
}

/// The fields of an object node not written yet, required ones first. `root`: the body
/// itself (its implicit `apiVersion`, `kind`, `metadata`; no `status`). `has_equals`: the key
/// being typed already has its `=` (only the name is inserted).
fn field_items(node: &Node, root: bool, written: &[&str], has_equals: bool) -> Vec<Completion> {
    let mut names: Vec<&str> = node.properties.keys().map(String::as_str).collect();
    if root {
        for implicit in ["apiVersion", "kind", "metadata"] {
            if !names.contains(&implicit) {
                names.push(implicit);
            }
        }
        names.retain(|n| *n != "status");
    }
    let required = |name: &str| {
        node.required.iter().any(|r| r == name) || root && matches!(name, "apiVersion" | "kind")
    };
    let mut items: Vec<(bool, Completion)> = names
        .into_iter()
        .filter(|name| !written.contains(name))
        .filter_map(|name| {
            let field = property(node, name, root)?;
            let required = required(name);
            let mut detail = type_text(&field);
            if required {
                detail.push_str(", required");
            }
            let insert = if has_equals {
                name.to_string()
            } else if is_object(&field) {
                format!("{name} = {{\n  $0\n}}")
            } else if field.kind == Some(Type::Array) {
                format!("{name} = [$0]")
            } else {
                format!("{name} = $0")
            };
            let doc = field_doc(&field);
            Some((
                required,
                Completion {
                    detail: Some(detail),
                    documentation: (!doc.is_empty()).then_some(doc),
                    sort_text: Some(format!("{}{name}", if required { 0 } else { 1 })),
                    snippet: !has_equals,
                    insert_text: Some(insert),
                    ..Completion::new(name, CompletionKind::Property)
                },
            ))
        })
        .collect();
    items.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.label.cmp(&b.1.label)));
    items.into_iter().map(|(_, item)| item).collect()
}

/// A value completion replacing what is written at `span` (when anything is).
fn value_item(
    label: String,
    kind: CompletionKind,
    detail: String,
    text: &str,
    span: &Range<usize>,
) -> Completion {
    let written = &text[span.clone()];
    let edit = (!written.is_empty() && !written.contains('\n')).then(|| TextEdit {
        range: span.clone(),
        new_text: label.clone(),
    });
    Completion {
        filter_text: Some(label.clone()),
        insert_text: Some(label.clone()),
        detail: Some(detail),
        edit,
        ..Completion::new(label, kind)
    }
}

/// In a field's value: its `enum` values (strings quoted), or `true`/`false`; `None` for
/// anything else, so that the expression completion (locals, functions) answers.
fn value_items(node: &Node, text: &str, span: Range<usize>) -> Option<Vec<Completion>> {
    let detail = type_text(node);
    let values: Vec<String> = match (&node.enumeration, node.kind) {
        (Some(values), _) => values.iter().map(json_text).collect(),
        (None, Some(Type::Boolean)) => vec!["true".into(), "false".into()],
        _ => return None,
    };
    Some(
        values
            .into_iter()
            .map(|v| value_item(v, CompletionKind::EnumMember, detail.clone(), text, &span))
            .collect(),
    )
}

/// The value of the root's `apiVersion` or `kind`: those the schemas know (for the other one
/// when it is written and known).
fn type_values(
    schemas: &Schemas,
    body: &Object,
    key: &str,
    text: &str,
    span: Range<usize>,
) -> Option<Vec<Completion>> {
    let other = body.literal(if key == "kind" { "apiVersion" } else { "kind" });
    let pick = |e: &Entry| {
        if key == "kind" {
            (e.kind.clone(), e.api_version.clone())
        } else {
            (e.api_version.clone(), e.kind.clone())
        }
    };
    let mut all: Vec<(String, String)> = schemas.entries().map(pick).collect();
    if let Some(other) = other
        && all.iter().any(|(_, o)| o == other)
    {
        all.retain(|(_, o)| o == other);
    }
    let mut values: Vec<(String, Vec<String>)> = Vec::new();
    for (value, with) in all {
        match values.iter_mut().find(|(v, _)| *v == value) {
            Some((_, list)) => list.push(with),
            None => values.push((value, vec![with])),
        }
    }
    if values.is_empty() {
        return None;
    }
    values.sort();
    Some(
        values
            .into_iter()
            .map(|(value, with)| {
                value_item(
                    json_text(&Json::String(value)),
                    CompletionKind::Value,
                    with.join(", "),
                    text,
                    &span,
                )
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests;
