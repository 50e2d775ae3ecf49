//! Resource bodies against their CRDs, without running anything: a body written as an object
//! literal with literal `apiVersion` and `kind` is walked beside the kind's schema, and only
//! what is certain whatever the inputs is reported — a literal key the schema does not have
//! (L613), a literal value it refuses (L614: type, enum, pattern, bounds, with the API
//! server's message), a required field an object literal of literal keys lacks (L615, unless
//! the schema defaults it).

use super::Context;

/// What the three body rules' explanations share: when they run, and the example's frame
/// around `$bad` and `$good` (lines of `forProvider`).
macro_rules! body_rule_explain {
    ($what:literal, $bad:literal, $good:literal) => {
        concat!(
            $what,
            "\n\nIt runs when CRDs or XRDs are configured: `check --schemas PATH`, `schemas = [...]` in\n",
            "`.fnhcl.toml`, or function-hcl's `.crds/` folder (or `.crd-sources.yaml`) at or above the\n",
            "composition. Only bodies written as object literals with literal `apiVersion` and `kind` are\n",
            "judged, and only what holds whatever the inputs.\n\nBad:\n\n```hcl\n",
            "resource bucket {\n  body = {\n    apiVersion = \"s3.aws.upbound.io/v1beta1\"\n",
            "    kind       = \"Bucket\"\n    spec = {\n      forProvider = {\n        ",
            $bad,
            "\n      }\n    }\n  }\n}\n```\n\nGood:\n\n```hcl\n",
            "resource bucket {\n  body = {\n    apiVersion = \"s3.aws.upbound.io/v1beta1\"\n",
            "    kind       = \"Bucket\"\n    spec = {\n      forProvider = {\n        ",
            $good,
            "\n      }\n    }\n  }\n}\n```\n"
        )
    };
}
pub(crate) use body_rule_explain;

/// The findings of one body rule (`code`).
pub(crate) fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    out.extend(findings(cx).into_iter().filter(|d| d.code == code));
}
use super::analyzer::object_key;
use crate::diagnostics::{Code, Diagnostic};
use crate::schema::node::{Additional, Node, Type};
use crate::schema::validate::{check_value, path_text};
use crate::schema::{Schemas, Segment};
use crate::source::{FileId, Span};
use crate::syntax::ast::{Expr, ExprKind, Literal};
use crate::syntax::model::{Child, FileExpr, GroupBody};
use serde_json::Value as Json;

/// Every finding of the three rules for the composition (each rule keeps its code's).
pub(crate) fn findings(cx: &Context) -> Vec<Diagnostic> {
    let (Some(program), Some(schemas)) = (cx.program, cx.schemas) else {
        return Vec::new();
    };
    let mut bodies = Vec::new();
    collect(&program.top, &mut bodies);
    let mut out = Vec::new();
    for body in bodies {
        check_body(cx, schemas, body, &mut out);
    }
    out
}

/// Every resource and template `body` below `body`, groups included, in source order.
pub(crate) fn collect<'p>(body: &'p GroupBody, out: &mut Vec<&'p FileExpr>) {
    for child in &body.children {
        match child {
            Child::Group(g) => collect(&g.body, out),
            Child::Resource(r) => out.push(&r.body),
            Child::Resources(c) => out.extend(c.templates.iter().map(|t| &t.body)),
            _ => {}
        }
    }
}

/// A literal string, number or bool as JSON; `None` for anything computed.
fn literal(expr: &Expr) -> Option<Json> {
    match &expr.kind {
        ExprKind::Literal(Literal::Bool(b)) => Some(Json::Bool(*b)),
        ExprKind::Literal(Literal::Number(n)) => serde_json::from_str(n).ok(),
        ExprKind::Template(parts) if parts.is_empty() => Some(Json::String(String::new())),
        ExprKind::Parens(inner) => literal(inner),
        _ => expr
            .plain_string()
            .map(|(s, _)| Json::String(s.to_string())),
    }
}

struct Walk<'a> {
    cx: &'a Context<'a>,
    file: FileId,
    what: String,
    out: &'a mut Vec<Diagnostic>,
}

fn check_body(cx: &Context, schemas: &Schemas, body: &FileExpr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Object(items) = &body.expr.kind else {
        return;
    };
    let field = |name: &str| {
        items
            .iter()
            .find(|item| object_key(cx.map, body.file, item).as_deref() == Some(name))
            .and_then(|item| literal(&item.value))
            .and_then(|v| v.as_str().map(str::to_string))
    };
    let (Some(api_version), Some(kind)) = (field("apiVersion"), field("kind")) else {
        return;
    };
    let Some(entry) = schemas.get(&api_version, &kind) else {
        return;
    };
    let mut walk = Walk {
        cx,
        file: body.file,
        what: format!("{kind} ({api_version})"),
        out,
    };
    walk.object(&body.expr, &entry.schema, &mut Vec::new(), true);
}

impl Walk<'_> {
    fn span(&self, expr: &Expr) -> Span {
        Span::of(self.file, &expr.span)
    }

    fn value(&mut self, expr: &Expr, node: &Node, path: &mut Vec<Segment>) {
        if matches!(expr.kind, ExprKind::Literal(Literal::Null)) {
            return;
        }
        if let Some(value) = literal(expr) {
            for v in check_value(&value, node, path) {
                self.out.push(
                    Diagnostic::new(Code::L614, format!("{}: {}", self.what, v.message))
                        .with_primary(self.span(expr), None),
                );
            }
            return;
        }
        let expects = |wanted: Type| node.kind.is_none_or(|k| k == wanted) || node.int_or_string;
        match &expr.kind {
            ExprKind::Object(_) if expects(Type::Object) => self.object(expr, node, path, false),
            ExprKind::Tuple(items) if expects(Type::Array) => {
                if let Some(schema) = &node.items {
                    for (i, item) in items.iter().enumerate() {
                        path.push(Segment::Index(i));
                        self.value(item, schema, path);
                        path.pop();
                    }
                }
            }
            ExprKind::Object(_) | ExprKind::Tuple(_) => {
                let (found, kind) = match expr.kind {
                    ExprKind::Object(_) => ("an object", "object"),
                    _ => ("a list", "array"),
                };
                let p = path_text(path);
                let types = node.kind.map_or("", Type::name);
                self.out.push(
                    Diagnostic::new(
                        Code::L614,
                        format!(
                            "{}: {p}: Invalid value: \"{kind}\": {p} in body must be of type {types}: \"{kind}\"",
                            self.what
                        ),
                    )
                    .with_primary(self.span(expr), None)
                    .with_help(format!("the CRD wants {} here, not {found}", article(types))),
                );
            }
            ExprKind::Parens(inner) => self.value(inner, node, path),
            _ => {}
        }
    }

    /// An object constructor beside an object schema. `root`: the body itself, whose
    /// `apiVersion`, `kind` and `metadata` the API server handles on its own.
    fn object(&mut self, expr: &Expr, node: &Node, path: &mut Vec<Segment>, root: bool) {
        let ExprKind::Object(items) = &expr.kind else {
            return;
        };
        let mut keys = Vec::with_capacity(items.len());
        let mut all_literal = true;
        for item in items {
            let Some(key) = object_key(self.cx.map, self.file, item) else {
                all_literal = false;
                continue;
            };
            keys.push(key.clone());
            if root && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            path.push(Segment::Key(key.clone()));
            match node.property(&key) {
                Some(child) => self.value(&item.value, child, path),
                None if !unknown_allowed(node) => {
                    let names: Vec<&str> = node.properties.keys().map(String::as_str).collect();
                    let mut d = Diagnostic::new(
                        Code::L613,
                        format!("`{}` is not a field of {}", path_text(path), self.what),
                    )
                    .with_primary(self.span(&item.key), None);
                    d = match crate::diagnostics::suggest::name_suggestion(&key, &names) {
                        Some(s) => d.with_help(format!(
                            "did you mean `{s}`? The API server would drop `{key}`"
                        )),
                        None => d.with_help(format!(
                            "the API server would drop it; the fields here are {}",
                            field_list(&names)
                        )),
                    };
                    self.out.push(d);
                }
                None => {}
            }
            path.pop();
        }
        if !all_literal {
            return;
        }
        for required in &node.required {
            let defaulted = node
                .properties
                .get(required)
                .is_some_and(|p| p.default.is_some());
            if defaulted || keys.iter().any(|k| k == required) {
                continue;
            }
            path.push(Segment::Key(required.clone()));
            let p = path_text(path);
            path.pop();
            self.out.push(
                Diagnostic::new(Code::L615, format!("{}: {p}: Required value", self.what))
                    .with_primary(self.span(expr), None)
                    .with_help(format!("the CRD requires `{required}` in this object")),
            );
        }
    }
}

/// Whether an object schema keeps keys it does not list.
fn unknown_allowed(node: &Node) -> bool {
    node.preserve_unknown_fields
        || node.embedded_resource && node.properties.is_empty()
        || matches!(
            node.additional,
            Additional::Schema(_) | Additional::Bool(true)
        )
        || (node.kind.is_none() && node.properties.is_empty())
}

fn article(types: &str) -> String {
    match types {
        "" => "another type".into(),
        "integer" | "object" | "array" => format!("an {types}"),
        other => format!("a {other}"),
    }
}

/// Up to eight field names as `` `a`, `b` ``, and how many more (`none` for no names).
pub(super) fn field_list(names: &[&str]) -> String {
    const SHOWN: usize = 8;
    let mut list: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
    if names.len() > SHOWN {
        list.push(format!("and {} more", names.len() - SHOWN));
    }
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}
