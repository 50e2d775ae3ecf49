//! Completion: what may be written at the cursor.
//!
//! - inside a `body` whose kind has a CRD schema: its fields ([`super::body`]);
//! - after `req.composite.` or a local that aliases it (`xr.spec.`), with the XRD among the
//!   schemas: the XR's fields ([`super::composite`]);
//! - after `req.`, `req.resource.`, `req.resources.`, `each.`, `self.`: their members (the
//!   composition's resource and collection names, the `self` attributes the enclosing blocks
//!   define);
//! - in `invoke("…`: the user functions; in `invoke("f", { … })`: `f`'s arguments not given yet;
//! - elsewhere in an expression: the names in scope at the cursor (locals and arguments of the
//!   enclosing blocks or function, `req`, `each`, `self` where they exist), the built-in
//!   functions and each user function as an `invoke` with its required arguments (snippets);
//! - in a block's body: the attributes and blocks the function-hcl schema allows there and that
//!   are not written yet.

use super::At;
use super::cursor::innermost_block;
use super::docs;
use super::types::{Completion, CompletionKind};
use crate::analysis::resolve::{BindingKind, Resolution, ScopeId, ScopeKind};
use crate::eval::program::invoke_calls;
use crate::syntax::ast::{Body, Expr, ExprKind};
use crate::syntax::model::Program;

fn item(label: impl Into<String>, kind: CompletionKind) -> Completion {
    Completion::new(label, kind)
}

fn snippet(mut item: Completion, text: String) -> Completion {
    item.insert_text = Some(text);
    item.snippet = true;
    item
}

fn documented(mut item: Completion, markdown: Option<&str>) -> Completion {
    item.documentation = markdown.map(str::to_string);
    item
}

fn detailed(mut item: Completion, detail: impl Into<String>) -> Completion {
    item.detail = Some(detail.into());
    item
}

/// Completion at the cursor.
pub fn complete(at: &At) -> Option<Vec<Completion>> {
    if let Some(items) = super::body::complete(at) {
        return Some(items);
    }
    let text = at.text();
    let offset = at.offset;
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    let program = at.comp.program();
    let resolution = Resolution::of(&program.top, &program.functions);
    let scope = scope_at(at, &resolution);
    if in_invoke_name(before) {
        return Some(
            program
                .functions
                .iter()
                .map(|f| detailed(item(&f.name.value, CompletionKind::Function), "function"))
                .collect(),
        );
    }
    if let Some(path) = indexed_member_path(before)
        && let Some(items) = super::composite::complete(at, &path, &resolution, scope)
    {
        return Some(items);
    }
    if let Some(path) = member_path(before) {
        return Some(members(&path, program, &resolution, scope));
    }
    let parsed = at.comp.syntax(at.file);
    let (kind, body) = innermost_block(parsed, offset);
    if let Some(items) = invoke_arguments(body, offset, program) {
        return Some(items);
    }
    let in_expression = body.attributes.iter().any(|a| {
        a.equals.end as usize <= offset
            && offset <= (a.expr.span.end as usize).max(a.equals.end as usize)
    }) || before.contains('=')
        || before.trim_start().starts_with('(');
    if in_expression {
        return Some(names(program, &resolution, scope));
    }
    Some(block_items(kind.as_deref(), body, offset))
}

/// The innermost scope whose block holds the cursor (the top level when none does).
pub fn scope_at(at: &At, resolution: &Resolution) -> ScopeId {
    let mut best: Option<(u32, ScopeId)> = None;
    for (id, scope) in resolution.scopes.iter().enumerate() {
        if scope.kind == ScopeKind::Constant {
            continue;
        }
        let Some(origin) = scope.origin else { continue };
        if origin.file != at.file
            || (origin.span.start as usize) > at.offset
            || at.offset > origin.span.end as usize
        {
            continue;
        }
        let width = origin.span.end - origin.span.start;
        // Nested scopes come after their parents: the later of two equal blocks is the inner.
        if best.is_none_or(|(w, _)| width <= w) {
            best = Some((width, id));
        }
    }
    best.map_or(0, |(_, id)| id)
}

/// Whether the cursor is in the name of `invoke("…` (a partial name before it).
fn in_invoke_name(before: &str) -> bool {
    let Some(quote) = before.rfind('"') else {
        return false;
    };
    let head = before[..quote].trim_end();
    let opens_invoke = head
        .strip_suffix('(')
        .is_some_and(|h| h.trim_end().ends_with("invoke"));
    opens_invoke
        && before[quote + 1..]
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// The traversal before the cursor up to its last `.`: `req.resource.` gives
/// `["req", "resource"]`. `None` when the cursor is not after a `.` of a traversal.
fn member_path(before: &str) -> Option<Vec<String>> {
    let tail_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '-' || *c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let tail = &before[tail_start..];
    let dot = tail.rfind('.')?;
    let path: Vec<String> = tail[..dot].split('.').map(str::to_string).collect();
    if path.iter().any(String::is_empty) || path[0].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(path)
}

/// [`member_path`] that also reads number index steps (`xr.spec.zones[0].` gives
/// `["xr", "spec", "zones", "0"]`), for the XR's fields.
fn indexed_member_path(before: &str) -> Option<Vec<String>> {
    let tail_start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '[' | ']')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let tail = before[tail_start..].replace(']', "").replace('[', ".");
    let dot = tail.rfind('.')?;
    let path: Vec<String> = tail[..dot].split('.').map(str::to_string).collect();
    if path.iter().any(String::is_empty) || path[0].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(path)
}

const REQ_MEMBERS: &[(&str, &str)] = &[
    (
        "composite",
        "The observed composite resource (XR): `apiVersion`, `kind`, `metadata`, `spec`, `status`.",
    ),
    (
        "composite_connection",
        "The XR's connection details (a map of base64-decoded strings).",
    ),
    (
        "resource",
        "Observed composed resources by name: `req.resource.NAME` (unknown until it exists).",
    ),
    (
        "connection",
        "Connection details of observed composed resources by name.",
    ),
    (
        "resources",
        "Observed members of each collection by base name: `req.resources.NAME` (a list).",
    ),
    (
        "connections",
        "Connection details of each collection's members by base name (a list).",
    ),
    (
        "context",
        "The pipeline context by key (for example `apiextensions.crossplane.io/environment`).",
    ),
    (
        "extra_resources",
        "The resources `requirement` blocks asked for, by requirement name (a list each).",
    ),
];

fn members(
    path: &[String],
    program: &Program,
    resolution: &Resolution,
    scope: ScopeId,
) -> Vec<Completion> {
    let names = |collections: bool| {
        let mut labels = Vec::new();
        super::navigate::resource_labels(&program.top, &mut labels);
        let mut out: Vec<Completion> = labels
            .into_iter()
            .filter(|(_, _, c)| *c == collections)
            .map(|(name, _, _)| {
                let what = if collections { "resources" } else { "resource" };
                detailed(item(name, CompletionKind::Reference), what)
            })
            .collect();
        out.sort_by(|a, b| a.label.cmp(&b.label));
        out.dedup_by(|a, b| a.label == b.label);
        out
    };
    let strs =
        |list: &[&str], kind| -> Vec<Completion> { list.iter().map(|m| item(*m, kind)).collect() };
    match path
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["req"] => REQ_MEMBERS
            .iter()
            .map(|(m, doc)| documented(item(*m, CompletionKind::Field), Some(doc)))
            .collect(),
        ["req", "resource" | "connection"] => names(false),
        ["req", "resources" | "connections"] => names(true),
        ["req", "composite"] => strs(
            &["apiVersion", "kind", "metadata", "spec", "status"],
            CompletionKind::Field,
        ),
        ["req", "extra_resources"] => {
            let mut out = Vec::new();
            requirement_names(&program.top, &mut out);
            out.sort();
            out.dedup();
            out.into_iter()
                .map(|n| detailed(item(n, CompletionKind::Reference), "requirement"))
                .collect()
        }
        ["each"] => strs(&["key", "value"], CompletionKind::Field),
        ["self"] => resolution
            .self_keys(scope)
            .into_iter()
            .map(|k| {
                let doc = match k {
                    "name" => "The name of the composed resource this block defines.",
                    "resource" => "This resource as observed (unknown until it exists).",
                    "connection" => "This resource's observed connection details.",
                    "basename" => "The collection's base name.",
                    "resources" => "The observed members of this collection (a list).",
                    "connections" => "The connection details of this collection's members.",
                    _ => "",
                };
                documented(item(k, CompletionKind::Field), Some(doc))
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn requirement_names(body: &crate::syntax::model::GroupBody, out: &mut Vec<String>) {
    use crate::syntax::model::Child;
    for child in &body.children {
        match child {
            Child::Requirement(r) => out.push(r.name.value.clone()),
            Child::Group(g) => requirement_names(&g.body, out),
            _ => {}
        }
    }
}

/// Names for an expression: what is in scope, the built-in functions, the user functions.
fn names(program: &Program, resolution: &Resolution, scope: ScopeId) -> Vec<Completion> {
    let mut items = Vec::new();
    // The innermost binding of each name in scope (one pass over the bindings).
    let depth: std::collections::HashMap<ScopeId, usize> = resolution
        .chain(scope)
        .enumerate()
        .map(|(d, s)| (s, d))
        .collect();
    let mut innermost: std::collections::HashMap<
        &str,
        (usize, &crate::analysis::resolve::Binding),
    > = std::collections::HashMap::new();
    for b in &resolution.bindings {
        if let Some(&d) = depth.get(&b.scope) {
            let entry = innermost.entry(b.name).or_insert((d, b));
            if d < entry.0 {
                *entry = (d, b);
            }
        }
    }
    for name in resolution.visible_names(scope) {
        let binding = innermost.get(name).map(|(_, b)| *b);
        let it = match (name, binding) {
            (_, Some(b)) => {
                let what = match b.kind {
                    BindingKind::Local => "local",
                    BindingKind::Argument => "argument",
                };
                detailed(item(name, CompletionKind::Variable), what)
            }
            ("req", None) => detailed(item(name, CompletionKind::Module), "the request"),
            ("each", None) => detailed(
                item(name, CompletionKind::Module),
                "the collection member: each.key, each.value",
            ),
            ("self", None) => detailed(
                item(name, CompletionKind::Module),
                "this block: ".to_string() + &resolution.self_keys(scope).join(", "),
            ),
            _ => item(name, CompletionKind::Variable),
        };
        items.push(it);
    }
    let table = super::builtins();
    for name in table.names() {
        let Some(f) = table.get(name) else { continue };
        let mut placeholders: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| format!("${{{}:{}}}", i + 1, p.name))
            .collect();
        if let Some(v) = &f.var_param {
            placeholders.push(format!("${{{}:{}}}", placeholders.len() + 1, v.name));
        }
        let it = detailed(
            item(name, CompletionKind::Function),
            docs::signature_text(name).unwrap_or_default(),
        );
        let it = documented(it, docs::function_doc(name));
        items.push(snippet(it, format!("{name}({})", placeholders.join(", "))));
    }
    for f in &program.functions {
        let required: Vec<String> = f
            .args
            .iter()
            .filter(|a| a.default.is_none())
            .enumerate()
            .map(|(i, a)| format!("{} = ${{{}}}", a.name.value, i + 1))
            .collect();
        let label = format!("invoke(\"{}\")", f.name.value);
        let it = detailed(item(label, CompletionKind::Function), "user function");
        let args = if required.is_empty() {
            "{}".to_string()
        } else {
            format!("{{ {} }}", required.join(", "))
        };
        items.push(snippet(it, format!("invoke(\"{}\", {args})", f.name.value)));
    }
    items
}

/// In the object of `invoke("f", { … })`: `f`'s arguments that are not given yet.
fn invoke_arguments(body: &Body, offset: usize, program: &Program) -> Option<Vec<Completion>> {
    let covers = |e: &Expr| e.span.start as usize <= offset && offset <= e.span.end as usize;
    let mut calls = Vec::new();
    for attribute in &body.attributes {
        invoke_calls(&attribute.expr, &mut calls);
    }
    // Outer calls come first: the last whose argument object holds the cursor is the innermost.
    let args = calls.into_iter().rev().find_map(|call| match &call.kind {
        ExprKind::Call { args, .. }
            if args.len() == 2
                && matches!(args[1].kind, ExprKind::Object(_))
                && covers(&args[1]) =>
        {
            Some(args)
        }
        _ => None,
    })?;
    let (name, _) = args[0].plain_string()?;
    let ExprKind::Object(given) = &args[1].kind else {
        return None;
    };
    let given: Vec<String> = given
        .iter()
        .filter_map(|i| crate::analysis::references::keyword(&i.key))
        .collect();
    let f = program.functions.iter().find(|f| f.name.value == name)?;
    Some(
        f.args
            .iter()
            .filter(|a| !given.contains(&a.name.value))
            .map(|a| {
                let what = if a.default.is_some() {
                    "optional argument"
                } else {
                    "required argument"
                };
                let it = detailed(item(&a.name.value, CompletionKind::Field), what);
                let mut it = snippet(it, format!("{} = $0", a.name.value));
                it.sort_text = Some(format!("{}{}", u8::from(a.default.is_some()), a.name.value));
                it
            })
            .collect(),
    )
}

/// The attributes and blocks the schema allows in a block's body, those not written yet.
fn block_items(kind: Option<&str>, body: &Body, offset: usize) -> Vec<Completion> {
    let schema = match kind {
        None => Some(&crate::syntax::schema::TOP_LEVEL),
        Some(k) => crate::syntax::schema::schema_for(k).flatten(),
    };
    let Some(schema) = schema else {
        return Vec::new();
    };
    let written = |name: &str| {
        body.attributes.iter().any(|a| {
            a.name == name
                && !(a.name_span.start as usize <= offset && offset <= a.name_span.end as usize)
        })
    };
    let mut items: Vec<Completion> = schema
        .attributes
        .iter()
        .filter(|(name, _)| !written(name))
        .map(|(name, _)| {
            let it = documented(
                item(*name, CompletionKind::Property),
                docs::attribute_doc(kind, name),
            );
            snippet(it, format!("{name} = $0"))
        })
        .collect();
    items.extend(schema.blocks.iter().map(|b| {
        let labels: String = b
            .labels
            .iter()
            .enumerate()
            .map(|(i, l)| format!(" ${{{}:{l}}}", i + 1))
            .collect();
        let it = documented(
            item(b.kind, CompletionKind::Keyword),
            docs::block_doc(b.kind),
        );
        snippet(it, format!("{}{labels} {{\n  $0\n}}", b.kind))
    }));
    items
}
