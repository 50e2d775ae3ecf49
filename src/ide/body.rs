//! CRD-aware bodies: inside a resource's `body`, completion and hover follow the schema of the
//! body's `apiVersion` and `kind` (the schemas `check` reads: `.fnhcl.toml` `schemas`,
//! `.crd-sources.yaml` or `.crds/`).
//!
//! The bodies are those `check`'s body rules judge: the `body` of a `resource` and of a
//! collection's `template`, through `group`s. The parser locates the block and the `body`
//! attribute; the object itself is read again from the tokens by a tolerant reader, because a
//! half-typed body (`reg` alone on a line, `acl = ` without a value) makes the parser drop the
//! items on the way to the error, which are exactly those that lead to the cursor.

use super::At;
use super::types::{Completion, CompletionKind, HoverInfo, TextEdit};
use crate::schema::load::{Entry, Origin, Scope};
use crate::schema::node::{Additional, Node, Type};
use crate::schema::validate::path_text;
use crate::schema::{Schemas, Segment};
use crate::syntax::ast::{Body, Expr};
use crate::syntax::lex::{Token, TokenKind, lex};
use serde_json::Value as Json;
use std::borrow::Cow;
use std::ops::Range;

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
    if let Some(description) = &node.description {
        out.push_str("\n\n");
        out.push_str(description.trim());
    }
    let facts = facts(&node);
    if !facts.is_empty() {
        out.push_str("\n\n");
        out.push_str(&facts.join("\n"));
    }
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

/// `string`, `integer`, `object`, `array of object`, `map of string`, `string (enum)`…
fn type_text(node: &Node) -> String {
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

/// A node's constraints, one Markdown list line each.
fn facts(node: &Node) -> Vec<String> {
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
            let mut doc = field
                .description
                .clone()
                .unwrap_or_default()
                .trim()
                .to_string();
            let facts = facts(&field);
            if !facts.is_empty() {
                if !doc.is_empty() {
                    doc.push_str("\n\n");
                }
                doc.push_str(&facts.join("\n"));
            }
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

// ---------------------------------------------------------------------------------------------
// The body as written: a tolerant reading of the object constructor.

/// An object constructor.
#[derive(Debug)]
struct Object {
    /// From the `{` to the end of the `}` (or where the reading stopped).
    span: Range<usize>,
    /// Where the inside ends: the `}`'s start (or where the reading stopped).
    inner_end: usize,
    items: Vec<Item>,
}

/// `key = value`, or a key alone (being typed).
#[derive(Debug)]
struct Item {
    /// A bare or quoted literal key; `None` when computed.
    key: Option<String>,
    key_span: Range<usize>,
    /// The `=` or `:`.
    equals: Option<Range<usize>>,
    /// From after the `=` to the end of the value (to the next token when there is none).
    value_region: Range<usize>,
    value: Option<Value>,
}

#[derive(Debug)]
struct Value {
    span: Range<usize>,
    kind: ValueKind,
}

#[derive(Debug)]
enum ValueKind {
    Object(Object),
    Tuple(Vec<Value>, Range<usize>),
    /// A string without interpolations.
    String(String),
    Other,
}

impl Object {
    /// The literal string value of the literal key `key`.
    fn literal(&self, key: &str) -> Option<&str> {
        self.items
            .iter()
            .find(|item| item.key.as_deref() == Some(key))
            .and_then(|item| match &item.value.as_ref()?.kind {
                ValueKind::String(s) => Some(s.as_str()),
                _ => None,
            })
    }
}

/// The `body` object of the `resource` or `template` around `offset`, read from the tokens.
fn read_body(text: &str, top: &Body, offset: usize) -> Option<Object> {
    let expr = body_expr(top, offset, false)?;
    let start = expr.span.start as usize;
    if !text[start..].starts_with('{') {
        return None;
    }
    let tokens = lex(text);
    let first = tokens.iter().position(|t| t.start as usize == start)?;
    let mut reader = Reader {
        text,
        tokens: &tokens,
        at: first,
        end: expr.span.end as usize,
    };
    let object = reader.object();
    (object.span.start < offset && offset <= object.inner_end).then_some(object)
}

/// The `body` expression around `offset`: of a `resource` (through `group`s) or of a
/// `template` (in `resources`).
fn body_expr(body: &Body, offset: usize, in_collection: bool) -> Option<&Expr> {
    for block in &body.blocks {
        let inside =
            block.open_brace.end as usize <= offset && offset <= block.close_brace.start as usize;
        if !inside {
            continue;
        }
        match (block.kind.as_str(), in_collection) {
            ("group", false) => return body_expr(&block.body, offset, false),
            ("resources", false) => return body_expr(&block.body, offset, true),
            ("resource", false) | ("template", true) => {
                let attr = block.body.attributes.iter().find(|a| a.name == "body")?;
                let span = &attr.expr.span;
                return (span.start as usize <= offset && offset <= span.end as usize)
                    .then_some(&attr.expr);
            }
            _ => return None,
        }
    }
    None
}

/// Reads objects, tuples and the extent of other expressions from the tokens, never failing:
/// a key without `=` is an item being typed, a missing `}` ends the object at `end`.
struct Reader<'a> {
    text: &'a str,
    tokens: &'a [Token],
    at: usize,
    /// Tokens from here on are not read.
    end: usize,
}

impl Reader<'_> {
    fn peek_token(&self) -> Option<Token> {
        self.tokens
            .get(self.at)
            .copied()
            .filter(|t| (t.start as usize) < self.end && t.kind != TokenKind::Eof)
    }

    fn peek(&self) -> TokenKind {
        self.peek_token().map_or(TokenKind::Eof, |t| t.kind)
    }

    /// Where the next token starts (`end` at the end).
    fn next_start(&self) -> usize {
        self.peek_token().map_or(self.end, |t| t.start as usize)
    }

    /// Where the last read token ends.
    fn last_end(&self) -> usize {
        self.at
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(self.end, |t| t.end as usize)
    }

    /// A comment that ends its line (`#`, `//`) separates items as a newline does.
    fn at_line_end(&self) -> bool {
        match self.peek_token() {
            Some(t) if t.kind == TokenKind::Newline => true,
            Some(t) if t.kind == TokenKind::Comment => t.text(self.text).ends_with('\n'),
            _ => false,
        }
    }

    /// An object constructor, at its `{`.
    fn object(&mut self) -> Object {
        let start = self.next_start();
        self.at += 1;
        let mut items = Vec::new();
        loop {
            match self.peek() {
                TokenKind::Newline | TokenKind::Comma | TokenKind::Comment => self.at += 1,
                TokenKind::CBrace => {
                    let close = self.peek_token().map_or(self.end, |t| t.start as usize);
                    self.at += 1;
                    return Object {
                        span: start..close + 1,
                        inner_end: close,
                        items,
                    };
                }
                TokenKind::Eof => {
                    return Object {
                        span: start..self.end,
                        inner_end: self.end,
                        items,
                    };
                }
                // A stray closer: skipped.
                TokenKind::CBrack | TokenKind::CParen | TokenKind::TemplateSeqEnd => self.at += 1,
                _ => items.push(self.item()),
            }
        }
    }

    /// `key = value`, `key: value`, or a key alone.
    fn item(&mut self) -> Item {
        let first = self.at;
        let key_start = self.next_start();
        self.skip(|k| matches!(k, TokenKind::Equal | TokenKind::Colon));
        let key_end = self.last_end().max(key_start);
        let key = self.literal(first, self.at, true);
        let mut item = Item {
            key,
            key_span: key_start..key_end,
            equals: None,
            value_region: key_end..key_end,
            value: None,
        };
        if !matches!(self.peek(), TokenKind::Equal | TokenKind::Colon) {
            return item;
        }
        let equals = self.peek_token().map(|t| t.range()).unwrap_or_default();
        self.at += 1;
        item.value_region = equals.end..self.next_start();
        item.equals = Some(equals);
        let ends_item = matches!(
            self.peek(),
            TokenKind::Comma | TokenKind::CBrace | TokenKind::Eof
        ) || self.at_line_end();
        if !ends_item {
            let value = self.value();
            item.value_region.end = value.span.end;
            item.value = Some(value);
        }
        item
    }

    /// A value: an object or tuple constructor read inside, anything else skipped.
    fn value(&mut self) -> Value {
        let first = self.at;
        let start = self.next_start();
        let is_for = |r: &Self| {
            r.tokens
                .get(r.at + 1)
                .is_some_and(|t| t.kind == TokenKind::Ident && t.text(r.text) == "for")
        };
        let kind = match self.peek() {
            TokenKind::OBrace if !is_for(self) => ValueKind::Object(self.object()),
            TokenKind::OBrack => {
                self.at += 1;
                let mut elements = Vec::new();
                let close = loop {
                    match self.peek() {
                        TokenKind::Newline | TokenKind::Comma | TokenKind::Comment => self.at += 1,
                        TokenKind::CBrack => {
                            let close = self.next_start();
                            self.at += 1;
                            break close;
                        }
                        TokenKind::Eof
                        | TokenKind::CBrace
                        | TokenKind::CParen
                        | TokenKind::TemplateSeqEnd => break self.next_start(),
                        _ => elements.push(self.value()),
                    }
                };
                let inner = start + 1..close.max(start + 1);
                ValueKind::Tuple(elements, inner)
            }
            _ => {
                self.skip(|_| false);
                ValueKind::String(String::new())
            }
        };
        // Whatever follows a constructor (`{…}.x`, `[…][0]`) makes another expression.
        let ends = |r: &Self| {
            matches!(
                r.peek(),
                TokenKind::Comma
                    | TokenKind::CBrace
                    | TokenKind::CBrack
                    | TokenKind::CParen
                    | TokenKind::Eof
            ) || r.at_line_end()
        };
        let kind = match kind {
            ValueKind::String(_) => match self.literal(first, self.at, false) {
                Some(s) => ValueKind::String(s),
                None => ValueKind::Other,
            },
            other if ends(self) => other,
            _ => {
                self.skip(|_| false);
                ValueKind::Other
            }
        };
        // An unterminated constructor reaches the end of what is read.
        let end = match &kind {
            ValueKind::Object(o) => o.span.end,
            ValueKind::Tuple(_, inner) => inner.end,
            _ => start,
        };
        Value {
            span: start..self.last_end().max(end),
            kind,
        }
    }

    /// Skips an expression: to a separator, a closer, or a token `stop` wants, outside any
    /// brackets, strings and interpolations.
    fn skip(&mut self, stop: impl Fn(TokenKind) -> bool) {
        let mut depth = 0usize;
        loop {
            let kind = self.peek();
            if kind == TokenKind::Eof {
                return;
            }
            if depth == 0
                && (stop(kind)
                    || self.at_line_end()
                    || matches!(
                        kind,
                        TokenKind::Comma
                            | TokenKind::CBrace
                            | TokenKind::CBrack
                            | TokenKind::CParen
                            | TokenKind::TemplateSeqEnd
                    ))
            {
                return;
            }
            match kind {
                TokenKind::OBrace
                | TokenKind::OBrack
                | TokenKind::OParen
                | TokenKind::OQuote
                | TokenKind::OHeredoc
                | TokenKind::TemplateInterp
                | TokenKind::TemplateControl => depth += 1,
                TokenKind::CBrace
                | TokenKind::CBrack
                | TokenKind::CParen
                | TokenKind::CQuote
                | TokenKind::CHeredoc
                | TokenKind::TemplateSeqEnd => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.at += 1;
        }
    }

    /// The literal string of tokens `from..to`: a quoted string without interpolations, or
    /// (`bare`) one identifier.
    fn literal(&self, from: usize, to: usize, bare: bool) -> Option<String> {
        let tokens = self.tokens.get(from..to)?;
        match tokens {
            [t] if bare && t.kind == TokenKind::Ident => Some(t.text(self.text).to_string()),
            [open, close] if open.kind == TokenKind::OQuote && close.kind == TokenKind::CQuote => {
                Some(String::new())
            }
            [open, lit, close]
                if open.kind == TokenKind::OQuote
                    && lit.kind == TokenKind::QuotedLit
                    && close.kind == TokenKind::CQuote =>
            {
                Some(crate::syntax::decode_literal(lit.text(self.text), true).0)
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The cursor in the body.

/// Where the cursor is in the body.
#[derive(Debug)]
struct Cursor<'o> {
    /// From the body root to the object the cursor is in (keys, and indexes in tuples); in a
    /// value, to the value.
    path: Vec<Segment>,
    /// The innermost object around the cursor.
    object: &'o Object,
    place: Place,
}

#[derive(Debug, PartialEq)]
enum Place {
    /// Where a key goes; `current`: the item whose key the cursor is on (being typed).
    Key { current: Option<usize> },
    /// In the value of the field at the end of the path (`span`: what is written there).
    Value { span: Range<usize> },
}

/// The cursor in an object (the cursor is inside its braces).
fn locate<'o>(object: &'o Object, offset: usize) -> Option<Cursor<'o>> {
    let mut path = Vec::new();
    let mut object = object;
    'descend: loop {
        for (i, item) in object.items.iter().enumerate() {
            let in_value = item.equals.is_some()
                && item.value_region.start <= offset
                && offset <= item.value_region.end;
            if item.key_span.start <= offset && offset <= item.key_span.end && !in_value {
                return Some(Cursor {
                    path,
                    object,
                    place: Place::Key { current: Some(i) },
                });
            }
            if !in_value {
                continue;
            }
            let key = || item.key.clone().map(Segment::Key);
            let Some(value) = &item.value else {
                path.push(key()?);
                return Some(Cursor {
                    path,
                    object,
                    place: Place::Value {
                        span: offset..offset,
                    },
                });
            };
            match &value.kind {
                ValueKind::Object(inner)
                    if inner.span.start < offset && offset <= inner.inner_end =>
                {
                    path.push(key()?);
                    object = inner;
                    continue 'descend;
                }
                ValueKind::Tuple(elements, inner)
                    if inner.start <= offset && offset <= inner.end =>
                {
                    path.push(key()?);
                    let mut index = elements.iter().take_while(|e| e.span.end < offset).count();
                    let mut elements = elements;
                    // Nested tuples: down to the innermost element around the cursor.
                    loop {
                        path.push(Segment::Index(index));
                        match elements.get(index).map(|e| &e.kind) {
                            Some(ValueKind::Object(inner))
                                if inner.span.start < offset && offset <= inner.inner_end =>
                            {
                                object = inner;
                                continue 'descend;
                            }
                            Some(ValueKind::Tuple(inner_elements, inner))
                                if inner.start <= offset && offset <= inner.end =>
                            {
                                index = inner_elements
                                    .iter()
                                    .take_while(|e| e.span.end < offset)
                                    .count();
                                elements = inner_elements;
                            }
                            Some(_) if elements[index].span.start <= offset => {
                                let span = elements[index].span.clone();
                                return Some(Cursor {
                                    path,
                                    object,
                                    place: Place::Value { span },
                                });
                            }
                            _ => {
                                return Some(Cursor {
                                    path,
                                    object,
                                    place: Place::Value {
                                        span: offset..offset,
                                    },
                                });
                            }
                        }
                    }
                }
                ValueKind::Object(_) | ValueKind::Tuple(..) => return None,
                _ => {
                    path.push(key()?);
                    // Nothing written yet before the cursor: an empty span.
                    let span = if offset <= value.span.start {
                        offset..offset
                    } else {
                        value.span.clone()
                    };
                    return Some(Cursor {
                        path,
                        object,
                        place: Place::Value { span },
                    });
                }
            }
        }
        return Some(Cursor {
            path,
            object,
            place: Place::Key { current: None },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The object in `text` (its `|` is the cursor) read from its first `{`, and the cursor.
    fn read(marked: &str) -> (String, usize, Object) {
        let offset = marked.find('|').unwrap();
        let text = marked.replacen('|', "", 1);
        let tokens = lex(&text);
        let start = text.find('{').unwrap();
        let first = tokens
            .iter()
            .position(|t| t.start as usize == start)
            .unwrap();
        let object = Reader {
            text: &text,
            tokens: &tokens,
            at: first,
            end: text.len(),
        }
        .object();
        (text, offset, object)
    }

    /// The path to the cursor as text, the place, and the keys written in its object.
    fn at(marked: &str) -> Option<(String, String, Vec<String>)> {
        let (text, offset, object) = read(marked);
        let cursor = locate(&object, offset)?;
        let place = match &cursor.place {
            Place::Key { current: None } => "key".to_string(),
            Place::Key { current: Some(i) } => {
                let item = &cursor.object.items[*i];
                format!("key {:?}", &text[item.key_span.clone()])
            }
            Place::Value { span } => format!("value {:?}", &text[span.clone()]),
        };
        let keys = cursor
            .object
            .items
            .iter()
            .map(|i| i.key.clone().unwrap_or_else(|| "?".into()))
            .collect();
        Some((path_text(&cursor.path), place, keys))
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_empty_line_inside_nested_objects() {
        let text = "{\n  apiVersion = \"a/v1\"\n  kind = \"B\"\n  spec = {\n    forProvider = {\n      region = \"x\"\n      |\n    }\n  }\n}";
        assert_eq!(
            at(text),
            Some((
                "spec.forProvider".into(),
                "key".into(),
                strings(&["region"])
            ))
        );
    }

    #[test]
    fn a_partial_key_before_the_brace() {
        let text = "{\n  kind = \"B\"\n  spec = {\n    forProvider = {\n      tags = {}\n      reg|\n    }\n  }\n  metadata = {}\n}";
        assert_eq!(
            at(text),
            Some((
                "spec.forProvider".into(),
                "key \"reg\"".into(),
                strings(&["tags", "reg"])
            ))
        );
        // The objects around it are read to their end: `metadata` is still a root key.
        let (text, _, object) = read(text);
        let keys: Vec<_> = object.items.iter().filter_map(|i| i.key.clone()).collect();
        assert_eq!(keys, strings(&["kind", "spec", "metadata"]));
        assert_eq!(object.literal("kind"), Some("B"));
        assert!(text[object.span.clone()].ends_with('}'));
    }

    #[test]
    fn the_root_and_one_line_objects() {
        assert_eq!(
            at("{ kind = \"B\", | }"),
            Some(("".into(), "key".into(), strings(&["kind"])))
        );
        assert_eq!(
            at("{ spec = { a = 1, b| } }"),
            Some(("spec".into(), "key \"b\"".into(), strings(&["a", "b"])))
        );
        // Quoted keys and colons.
        assert_eq!(
            at("{ \"spec\": { \"for-provider\" = { | } } }"),
            Some(("spec.for-provider".into(), "key".into(), vec![]))
        );
    }

    #[test]
    fn values() {
        assert_eq!(
            at("{ spec = { acl = |\n } }"),
            Some(("spec.acl".into(), "value \"\"".into(), strings(&["acl"])))
        );
        assert_eq!(
            at("{ spec = { acl = \"pri|\" } }"),
            Some((
                "spec.acl".into(),
                "value \"\\\"pri\\\"\"".into(),
                strings(&["acl"])
            ))
        );
        assert_eq!(
            at("{ spec = { acl = |local.x } }"),
            Some(("spec.acl".into(), "value \"\"".into(), strings(&["acl"])))
        );
        // A key with `=` and its value: the cursor on the key.
        assert_eq!(
            at("{ spec = { ac|l = 1 } }"),
            Some(("spec".into(), "key \"acl\"".into(), strings(&["acl"])))
        );
    }

    #[test]
    fn tuples_of_objects_and_of_values() {
        assert_eq!(
            at("{ spec = { rules = [{ id = 1 }, {\n  |\n}] } }"),
            Some(("spec.rules[1]".into(), "key".into(), vec![]))
        );
        assert_eq!(
            at("{ spec = { modes = [\"a\", |] } }"),
            Some((
                "spec.modes[1]".into(),
                "value \"\"".into(),
                strings(&["modes"])
            ))
        );
        assert_eq!(
            at("{ spec = { modes = [\"a\", \"b|\"] } }"),
            Some((
                "spec.modes[1]".into(),
                "value \"\\\"b\\\"\"".into(),
                strings(&["modes"])
            ))
        );
    }

    #[test]
    fn computed_keys_values_and_outside() {
        // Under a computed key nothing is known.
        assert_eq!(at("{ (local.k) = { | } }"), None);
        // Inside a function call's object: not a body object.
        assert_eq!(
            at("{ spec = merge({ | }, {}) }"),
            Some((
                "spec".into(),
                "value \"merge({  }, {})\"".into(),
                strings(&["spec"])
            ))
        );
        // A `for` object is a value, not an object of keys.
        let (_, place, _) = at("{ tags = { for k, v in x : k => | } }").unwrap();
        assert!(place.starts_with("value"));
        // Interpolations and heredocs do not end the value early.
        assert_eq!(
            at("{ a = \"${ {x = 1}.x }\", b = <<EOT\n}\nEOT\n  | }"),
            Some(("".into(), "key".into(), strings(&["a", "b"])))
        );
    }

    #[test]
    fn an_unterminated_object_ends_at_the_bound() {
        assert_eq!(
            at("{ spec = {\n  forProvider = {\n    |"),
            Some(("spec.forProvider".into(), "key".into(), vec![]))
        );
    }

    #[test]
    fn fields_required_first_with_their_types() {
        let schema = Node::compile(&serde_json::json!({
            "type": "object",
            "required": ["z"],
            "properties": {
                "a": {"type": "string", "enum": ["x", "y"]},
                "b": {"type": "array", "items": {"type": "object"}},
                "m": {"type": "object", "additionalProperties": {"type": "integer"}},
                "w": {"type": "boolean"},
                "z": {"type": "string", "description": "Zed."},
            },
        }))
        .unwrap();
        let items = field_items(&schema, false, &["w"], false);
        let shown: Vec<(String, String, String)> = items
            .iter()
            .map(|i| {
                (
                    i.label.clone(),
                    i.detail.clone().unwrap_or_default(),
                    i.insert_text.clone().unwrap_or_default(),
                )
            })
            .collect();
        let row = |l: &str, d: &str, t: &str| (l.to_string(), d.to_string(), t.to_string());
        assert_eq!(
            shown,
            vec![
                row("z", "string, required", "z = $0"),
                row("a", "string (enum)", "a = $0"),
                row("b", "array of object", "b = [$0]"),
                row("m", "map of integer", "m = {\n  $0\n}"),
            ]
        );
        // A value position: the enum's values quoted, replacing what is written.
        let text = "a = \"x\"";
        let values = value_items(schema.property("a").unwrap(), text, 4..7).unwrap();
        assert_eq!(values[0].label, "\"x\"");
        assert!(values[0].edit.is_some());
        assert!(value_items(schema.property("z").unwrap(), text, 4..4).is_none());
    }
}
