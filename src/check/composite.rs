//! Reads of the XR (`req.composite`, and locals that are plain aliases of it such as
//! `xr = req.composite`) against the XRD's schema ([`crate::schema::xr`]): a field the XR
//! cannot have (L616, with "did you mean"), and a condition that is an XR field of another type
//! than bool or compares one with a literal of another type (L617). Only static paths
//! (attribute and literal-key steps) are judged, and only where the schema is closed.

use super::Context;
use crate::analysis::resolve::{Resolution, Site, Target, Use};
use crate::diagnostics::{Code, Diagnostic};
use crate::schema::Entry;
use crate::schema::node::{Node, Type};
use crate::schema::xr::{Reach, type_text, walk};
use crate::source::{FileId, Span};
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Literal, Step};

/// The findings of one of the two rules (`code`).
pub(crate) fn run(cx: &Context, code: Code, out: &mut Vec<Diagnostic>) {
    let (Some(res), Some(entry)) = (cx.resolution, cx.composite) else {
        return;
    };
    let al = Aliases::new(res);
    match code {
        Code::L616 => unknown_fields(&al, entry, out),
        Code::L618 => optional_fields(&al, entry, out),
        _ => condition_types(&al, entry, out),
    }
}

/// The kind and version the findings name: `XNetwork (example.org/v1)`.
fn what(entry: &Entry) -> String {
    format!("{} ({})", entry.kind, entry.api_version)
}

/// `spec.zones[0].name`.
fn path_text(steps: &[String]) -> String {
    let mut out = String::new();
    for step in steps {
        if step.parse::<usize>().is_ok() {
            out.push_str(&format!("[{step}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(step);
        }
    }
    out
}

/// Where a step's name is: `.name` without its dot, `["key"]` with its brackets.
fn step_span(file: FileId, step: &Step) -> Span {
    match step {
        Step::Attr { span, .. } => Span::of(file, &((span.start + 1).min(span.end)..span.end)),
        Step::Index { span, .. } => Span::of(file, span),
    }
}

/// How many steps of `u` are static (attribute or literal key) before the first computed one.
fn static_steps(u: &Use) -> usize {
    u.var
        .steps
        .iter()
        .take_while(|s| match s {
            Step::Attr { .. } => true,
            Step::Index { key, .. } => matches!(key, Literal::String(_) | Literal::Number(_)),
        })
        .count()
}

/// L616. Each read is judged where its bad step is written: a step that a local's value
/// contributes is reported at that value, not again at every use of the local. The request
/// reads followed are those of `req` and of plain aliases of it (as
/// [`Resolution::request_reads`] follows them: a local that wraps the XR in something else
/// carries no path).
fn unknown_fields(al: &Aliases, entry: &Entry, out: &mut Vec<Diagnostic>) {
    for u in &al.res.uses {
        let own = static_steps(u);
        let mut path = match u.target {
            Target::Req => Vec::new(),
            Target::Binding(b) => match al.binding_path(b, 0) {
                Some(path) => path,
                None => continue,
            },
            _ => continue,
        };
        let start = path.len();
        path.extend(u.var.steps[..own].iter().filter_map(step_text));
        if path.first().map(String::as_str) != Some("composite") {
            continue;
        }
        let below = &path[1..];
        let (index, finding) = match walk(&entry.schema, below) {
            Reach::Unknown { index, parent } => (index, unknown(entry, below, index, parent)),
            Reach::Scalar { index, kind } => (index, scalar(entry, below, index, kind)),
            Reach::Field(_) | Reach::Open => continue,
        };
        let at = index + 1;
        if at < start || at - start >= own {
            continue;
        }
        let span = step_span(u.file, &u.var.steps[at - start]);
        out.push(finding.with_primary(span, None));
    }
}

/// A static step as text (an attribute, a string key, a number index).
fn step_text(step: &Step) -> Option<String> {
    match step {
        Step::Attr { name, .. } => Some(name.clone()),
        Step::Index {
            key: Literal::String(s),
            ..
        } => Some(s.clone()),
        Step::Index {
            key: Literal::Number(n),
            ..
        } => Some(n.to_string()),
        Step::Index { .. } => None,
    }
}

/// L618: a read of a `spec` field that the XRD neither requires nor defaults (nor the objects
/// on the way to it), outside `try` and `can`: it fails for every XR that leaves it out.
fn optional_fields(al: &Aliases, entry: &Entry, out: &mut Vec<Diagnostic>) {
    let res = al.res;
    for u in &res.uses {
        if static_steps(u) != u.var.steps.len()
            || !matches!(u.target, Target::Req | Target::Binding(_))
        {
            continue;
        }
        let Some(path) = al.use_path(u, 0) else {
            continue;
        };
        if path.len() < 3 || path[0] != "composite" || path[1] != "spec" {
            continue;
        }
        let start = path.len() - u.var.steps.len();
        let below = &path[1..];
        if !matches!(walk(&entry.schema, below), Reach::Field(_)) {
            continue;
        }
        // The first object property on the way that may be absent.
        let mut optional = None;
        for i in 1..below.len() {
            let Reach::Field(parent) = walk(&entry.schema, &below[..i]) else {
                break;
            };
            if parent.kind == Some(Type::Array) {
                break;
            }
            let key = &below[i];
            let Some(field) = parent.properties.get(key) else {
                break;
            };
            if !parent.required.contains(key) && field.default.is_none() {
                optional = Some(i);
                break;
            }
        }
        let Some(i) = optional else { continue };
        let at = i + 1;
        if at < start || guarded(res, u) {
            continue;
        }
        let p = path_text(&below[..=i]);
        out.push(
            Diagnostic::new(
                Code::L618,
                format!(
                    "`{p}` is optional in the XR, {}, with no default: the read fails for an XR without it",
                    what(entry)
                ),
            )
            .with_primary(step_span(u.file, &u.var.steps[at - start]), None)
            .with_help(format!(
                "give a fallback (`try({}, …)`), or make the XRD require or default `{p}`",
                u_text(u)
            )),
        );
    }
}

/// The reference as written (`xr.spec.cidr`).
fn u_text(u: &Use) -> String {
    let mut out = u.var.root.to_string();
    for step in u.var.steps {
        match step {
            Step::Attr { name, .. } => {
                out.push('.');
                out.push_str(name);
            }
            Step::Index {
                key: Literal::Number(n),
                ..
            } => out.push_str(&format!("[{n}]")),
            Step::Index {
                key: Literal::String(s),
                ..
            } => out.push_str(&format!("[{s:?}]")),
            Step::Index { .. } => {}
        }
    }
    out
}

/// Whether `u` is inside a `try(…)` or `can(…)` of the expression it is read in.
fn guarded(res: &Resolution, u: &Use) -> bool {
    fn inside(expr: &Expr, span: &std::ops::Range<u32>) -> bool {
        if expr.span.start > span.start || expr.span.end < span.end {
            return false;
        }
        if let ExprKind::Call { name, .. } = &expr.kind
            && matches!(&**name, "try" | "can")
        {
            return true;
        }
        let mut found = false;
        expr.for_each_child(|child| found = found || inside(child, span));
        found
    }
    res.exprs
        .iter()
        .filter(|site| site.site == u.site && site.expr.file == u.file)
        .any(|site| inside(&site.expr.expr, u.var.span))
}

fn unknown(entry: &Entry, below: &[String], index: usize, parent: &Node) -> Diagnostic {
    let key = &below[index];
    let p = path_text(&below[..=index]);
    let names: Vec<&str> = parent.properties.keys().map(String::as_str).collect();
    let d = Diagnostic::new(
        Code::L616,
        format!("`{p}` is not a field of the XR, {}", what(entry)),
    );
    match crate::diagnostics::suggest::name_suggestion(key, &names) {
        Some(s) => d.with_help(format!(
            "did you mean `{s}`? The XRD has no `{key}` here, so the XR never holds it"
        )),
        None => d.with_help(format!(
            "the XRD has no `{key}` here; the fields are {}",
            super::schema_body::field_list(&names)
        )),
    }
}

fn scalar(entry: &Entry, below: &[String], index: usize, kind: Type) -> Diagnostic {
    let p = path_text(&below[..index]);
    Diagnostic::new(
        Code::L616,
        format!(
            "`{p}` is {} in the XR, {}: it has no `{}`",
            a(kind.name()),
            what(entry),
            below[index]
        ),
    )
    .with_help(format!(
        "the XRD types `{p}` as {}; read `{p}` itself",
        kind.name()
    ))
}

/// The references of a resolution by where they are written, to follow locals that are plain
/// aliases of a read of the request (`xr = req.composite`) in constant time per step.
pub(crate) struct Aliases<'r, 'p> {
    /// The resolution.
    pub res: &'r Resolution<'p>,
    by_span: std::collections::HashMap<(FileId, u32, u32), usize>,
}

impl<'r, 'p> Aliases<'r, 'p> {
    /// Indexes `res`'s references.
    pub(crate) fn new(res: &'r Resolution<'p>) -> Self {
        let by_span = res
            .uses
            .iter()
            .enumerate()
            .map(|(i, u)| ((u.file, u.var.span.start, u.var.span.end), i))
            .collect();
        Aliases { res, by_span }
    }

    /// The path below `req` that `expr` reads when it is nothing but a static traversal of
    /// the request, directly or through locals that are plain aliases.
    fn alias_path(&self, file: FileId, expr: &Expr, depth: usize) -> Option<Vec<String>> {
        let expr = match &expr.kind {
            ExprKind::Parens(inner) => inner,
            _ => expr,
        };
        let ExprKind::Traversal { .. } = &expr.kind else {
            return None;
        };
        let i = self.by_span.get(&(file, expr.span.start, expr.span.end))?;
        self.use_path(&self.res.uses[*i], depth)
    }

    /// The path below `req` that the reference `u` reads, when its steps are all static and
    /// its root is `req` or a local that is a plain alias of a static read of it (followed at
    /// most [`crate::analysis::resolve::MAX_LOCAL_HOPS`] deep).
    pub(crate) fn use_path(&self, u: &Use, depth: usize) -> Option<Vec<String>> {
        let own: Vec<String> = u.var.steps.iter().map(step_text).collect::<Option<_>>()?;
        match u.target {
            Target::Req => Some(own),
            Target::Binding(b) => {
                let mut path = self.binding_path(b, depth)?;
                path.extend(own);
                Some(path)
            }
            _ => None,
        }
    }

    /// The path below `req` a local reads when its value is a plain alias.
    pub(crate) fn binding_path(
        &self,
        b: crate::analysis::resolve::BindingId,
        depth: usize,
    ) -> Option<Vec<String>> {
        if depth >= crate::analysis::resolve::MAX_LOCAL_HOPS {
            return None;
        }
        let value = self.res.bindings[b].value?;
        self.alias_path(value.file, &value.expr, depth + 1)
    }
}

/// The XR field `expr` is, when it is one: its path below `req.composite` and its schema.
fn composite_field<'e>(
    al: &Aliases,
    entry: &'e Entry,
    file: FileId,
    expr: &Expr,
) -> Option<(Vec<String>, &'e Node)> {
    let path = al.alias_path(file, expr, 0)?;
    if path.first().map(String::as_str) != Some("composite") {
        return None;
    }
    let below = path[1..].to_vec();
    match walk(&entry.schema, &below) {
        Reach::Field(node) => Some((below, node)),
        _ => None,
    }
}

/// A node's single known type, when values of other types cannot be there.
fn certain_type(node: &Node) -> Option<Type> {
    if node.int_or_string {
        return None;
    }
    node.kind
}

/// L617.
fn condition_types(al: &Aliases, entry: &Entry, out: &mut Vec<Diagnostic>) {
    for site in &al.res.exprs {
        if site.site != Site::Attribute("condition") {
            continue;
        }
        let (file, expr) = (site.expr.file, &site.expr.expr);
        if let Some((path, node)) = composite_field(al, entry, file, expr)
            && let Some(kind) = certain_type(node)
            && kind != Type::Boolean
        {
            let p = path_text(&path);
            out.push(
                Diagnostic::new(
                    Code::L617,
                    format!(
                        "the condition is `{p}`, {} in the XR, {}; a `condition` must be a bool",
                        a(&type_text(node)),
                        what(entry)
                    ),
                )
                .with_primary(Span::of(file, &expr.span), None)
                .with_help(format!(
                    "compare it (`{p} == …`) or convert it; function-hcl fails the render with \"got type {}, expected bool\"",
                    friendly(kind)
                )),
            );
            continue;
        }
        comparisons(al, entry, file, expr, out);
    }
}

/// cty's friendly name of a type, as function-hcl's message says it.
fn friendly(kind: Type) -> &'static str {
    match kind {
        Type::Object => "object",
        Type::Array => "tuple",
        Type::String => "string",
        Type::Integer | Type::Number => "number",
        Type::Boolean => "bool",
    }
}

/// `==`/`!=` between an XR field and a literal of another type, anywhere in a condition's
/// `&&`, `||`, `!` and parentheses: always false (or always true), as HCL compares values
/// of different types as unequal without converting.
fn comparisons(al: &Aliases, entry: &Entry, file: FileId, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
        ExprKind::Parens(inner) | ExprKind::Unary { operand: inner, .. } => {
            comparisons(al, entry, file, inner, out)
        }
        ExprKind::Binary {
            op: BinaryOp::And | BinaryOp::Or,
            lhs,
            rhs,
        } => {
            comparisons(al, entry, file, lhs, out);
            comparisons(al, entry, file, rhs, out);
        }
        ExprKind::Binary {
            op: op @ (BinaryOp::Equal | BinaryOp::NotEqual),
            lhs,
            rhs,
        } => {
            for (field, other) in [(lhs, rhs), (rhs, lhs)] {
                let Some((path, node)) = composite_field(al, entry, file, field) else {
                    continue;
                };
                let (Some(kind), Some(literal)) = (certain_type(node), literal_type(other)) else {
                    continue;
                };
                let same = match kind {
                    Type::Integer | Type::Number => literal == Type::Number,
                    other => other == literal,
                };
                if same {
                    continue;
                }
                let p = path_text(&path);
                let always = if *op == BinaryOp::Equal {
                    "false"
                } else {
                    "true"
                };
                out.push(
                    Diagnostic::new(
                        Code::L617,
                        format!(
                            "`{p}` is {} in the XR, {}, compared with a {}: always {always}",
                            a(&type_text(node)),
                            what(entry),
                            literal.name()
                        ),
                    )
                    .with_primary(Span::of(file, &expr.span), None)
                    .with_help(format!(
                        "HCL never finds values of two types equal; compare with {} literal",
                        a(friendly(kind))
                    )),
                );
                break;
            }
        }
        _ => {}
    }
}

/// The type of a literal operand (`"x"`, `3`, `true`).
fn literal_type(expr: &Expr) -> Option<Type> {
    match &expr.kind {
        ExprKind::Literal(Literal::String(_)) | ExprKind::QuotedLiteral(_) => Some(Type::String),
        ExprKind::Literal(Literal::Number(_)) => Some(Type::Number),
        ExprKind::Literal(Literal::Bool(_)) => Some(Type::Boolean),
        ExprKind::Template(parts)
            if parts
                .iter()
                .all(|p| matches!(p.kind, ExprKind::Literal(Literal::String(_)))) =>
        {
            Some(Type::String)
        }
        ExprKind::Parens(inner) => literal_type(inner),
        _ => None,
    }
}

/// `a string`, `an integer`.
fn a(text: &str) -> String {
    let article = if text.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {text}")
}

#[cfg(test)]
mod tests {
    use crate::check::{Config, check_bundle};
    use crate::diagnostics::Code;
    use crate::source::SourceMap;
    use std::sync::Arc;

    const XRD: &str = include_str!(
        "../../tests/fixtures/check/unknown-composite-field-fires/.crds/xnetwork.yaml"
    );

    /// The L616 messages of `check` on a Composition whose `compositeTypeRef` is `api_version`.
    fn unknown_in_composition(api_version: &str) -> Vec<String> {
        let mut schemas = crate::schema::Schemas::new();
        let doc: serde_json::Value = yaml_serde::from_str(XRD).unwrap();
        schemas.add_document("xnetwork.yaml", &doc).unwrap();
        let mut config = Config::default();
        config.schemas = Some(Arc::new(schemas));
        let text = format!(
            "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: n\nspec:\n  compositeTypeRef:\n    apiVersion: {api_version}\n    kind: XNetwork\n  mode: Pipeline\n  pipeline:\n    - step: hcl\n      functionRef:\n        name: function-hcl\n      input:\n        apiVersion: hcl.fn.crossplane.io/v1beta1\n        kind: HclInput\n        hcl: |\n          -- main.hcl --\n          resource vpc {{\n            body = {{\n              apiVersion = \"ec2.aws.upbound.io/v1beta1\"\n              kind       = \"VPC\"\n              spec = {{ a = req.composite.spec.region, b = req.composite.spec.legacyRegion }}\n            }}\n          }}\n"
        );
        let mut map = SourceMap::new();
        let bundle =
            crate::source::loader::load_composition(&mut map, "composition.yaml", text, None)
                .unwrap();
        let mut found: Vec<String> = check_bundle(&Arc::new(map), &bundle, &config)
            .into_iter()
            .filter(|d| d.code == Code::L616)
            .map(|d| d.summary)
            .collect();
        found.sort();
        found
    }

    #[test]
    fn a_composition_s_composite_type_ref_picks_the_version() {
        assert_eq!(
            unknown_in_composition("example.org/v1"),
            ["`spec.legacyRegion` is not a field of the XR, XNetwork (example.org/v1)"]
        );
        assert_eq!(
            unknown_in_composition("example.org/v1alpha1"),
            ["`spec.region` is not a field of the XR, XNetwork (example.org/v1alpha1)"]
        );
        // A kind the schemas do not define: nothing is judged.
        assert!(unknown_in_composition("example.org/v9").is_empty());
    }
}
