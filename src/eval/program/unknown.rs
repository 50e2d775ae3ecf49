//! Why a discarded block was not known: the expressions whose values were unknown (or failed)
//! with their own ranges, and the request values they read, directly or through locals. Only
//! computed for blocks that are discarded, so a complete render pays nothing; nothing here
//! changes what the evaluation returns or function-hcl's messages.

use super::{Discard, Evaluator};
use crate::analysis::resolve::{Resolution, ScopeKind, Target, Use};
use crate::diagnostics::{Diagnostic, Severity};
use crate::eval::expr::{traverse_reference, variables};
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::model::{FileExpr, Program};
use std::collections::BTreeMap;

/// At most this many unknown values are kept per discarded block (a body may read hundreds).
const MAX_UNKNOWN: usize = 20;

/// A value a discarded block needed and did not have.
#[derive(Clone, Debug, PartialEq)]
pub struct Unknown {
    /// The expression itself: the reference whose value is not known, or the expression
    /// whose error left the block incomplete.
    pub span: Span,
    /// It as written, with the unknown part of its value (`vpc.status.atProvider.id`,
    /// `local.x.items[0]`).
    pub text: String,
    /// The error that made it unknown, when one did (`Attempt to get attribute from null
    /// value`).
    pub error: Option<String>,
    /// The request values it reads, directly or through locals, in source order.
    pub reads: Vec<Read>,
}

/// A request value read by an unknown expression (see [`Unknown::reads`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    /// Where it is read.
    pub span: Span,
    /// The value, as its first steps name it: `req.resource.bucket`, `req.composite.status`,
    /// `req.extra_resources.vpc`, `req.context.KEY`, `self.resource`.
    pub path: String,
    /// For `self.resource` and `self.connection`: the resource block it belongs to, when the
    /// block has a fixed name (not a collection member).
    pub resource: Option<String>,
    /// When the request lacks what is read (or it is null): where the missing path is
    /// written (`xr.spec.region` in a local, for a body's `region`) and what it reads, in a
    /// report's words ("reads the XR's `spec.region`, which the XR does not have").
    pub missing: Option<(Span, String)>,
    /// For a missing field of the XR: its path below the XR (`spec.region`).
    pub xr_field: Option<String>,
}

impl Evaluator<'_> {
    /// What in `e` (evaluated in `scope`, with `diags`) is not known: each reference whose
    /// value is not wholly known; else each error's expression; else `e` itself.
    pub(super) fn unknowns(
        &self,
        e: &FileExpr,
        scope: &Scope,
        diags: &[Diagnostic],
    ) -> Vec<Unknown> {
        let mut out: Vec<Unknown> = Vec::new();
        for reference in variables(&e.expr) {
            let (value, more) = traverse_reference(&reference, e.file, scope);
            if value.is_wholly_known() {
                continue;
            }
            let span = Span::of(e.file, reference.span);
            let source = self.map.get(e.file).slice(span);
            let error = more
                .iter()
                .chain(diags)
                .find(|d| d.severity == Severity::Error && inside(d, span))
                .map(error_text);
            for path in unknown_paths(&value) {
                let text = format!("{source}{path}");
                if out.iter().any(|u| u.span == span && u.text == text) {
                    continue;
                }
                out.push(Unknown {
                    span,
                    text,
                    error: error.clone(),
                    reads: Vec::new(),
                });
            }
        }
        if out.is_empty() {
            for d in diags.iter().filter(|d| d.severity == Severity::Error) {
                let Some(span) = d.expression.or(d.primary.as_ref().map(|p| p.span)) else {
                    continue;
                };
                if out.iter().any(|u| u.span == span) {
                    continue;
                }
                out.push(Unknown {
                    span,
                    text: self.map.get(span.file).slice(span).to_string(),
                    error: Some(error_text(d)),
                    reads: Vec::new(),
                });
            }
        }
        if out.is_empty() {
            let span = Span::of(e.file, &e.expr.span);
            out.push(Unknown {
                span,
                text: self.map.get(e.file).slice(span).to_string(),
                error: None,
                reads: Vec::new(),
            });
        }
        out.truncate(MAX_UNKNOWN);
        out
    }
}

/// An error as the report quotes it: its summary, and for a failed function call its detail,
/// where the function's own message is (`Call to function "invoke" failed: …`); the detail of
/// a traversal error only restates its summary.
fn error_text(d: &Diagnostic) -> String {
    let function = matches!(
        d.summary.as_str(),
        "Error in function call" | "Invalid function argument"
    );
    match d.detail.as_deref().map(str::trim) {
        Some(detail) if function && !detail.is_empty() => format!("{}: {detail}", d.summary),
        _ => d.summary.clone(),
    }
}

/// Whether `d` is located inside `span`.
fn inside(d: &Diagnostic, span: Span) -> bool {
    d.primary.as_ref().is_some_and(|p| {
        p.span.file == span.file && span.start <= p.span.start && p.span.end <= span.end
    })
}

/// Fills [`Unknown::reads`] of every discard from the program's name resolution.
pub(super) fn resolve_reads(program: &Program, req: &Value, discards: &mut [Discard]) {
    if discards.iter().all(|d| d.unknown.is_empty()) {
        return;
    }
    let resolution = Resolution::of(&program.top, &program.functions);
    let mut by_span: BTreeMap<Span, Vec<&Use>> = BTreeMap::new();
    for u in &resolution.uses {
        by_span
            .entry(Span::of(u.file, u.var.span))
            .or_default()
            .push(u);
    }
    let mut cache: BTreeMap<Span, Vec<Read>> = BTreeMap::new();
    for discard in discards.iter_mut() {
        for unknown in &mut discard.unknown {
            let reads = cache.entry(unknown.span).or_insert_with(|| {
                // The reference itself, else every reference inside the failing expression.
                let uses: Vec<&Use> = match by_span.get(&unknown.span) {
                    Some(uses) => uses.clone(),
                    None => by_span
                        .range(unknown.span..)
                        .take_while(|(s, _)| {
                            s.file == unknown.span.file && s.start < unknown.span.end
                        })
                        .filter(|(s, _)| s.end <= unknown.span.end)
                        .flat_map(|(_, uses)| uses.iter().copied())
                        .collect(),
                };
                let mut reads = Vec::new();
                for u in uses {
                    collect(&resolution, u, req, &mut reads);
                }
                reads
            });
            unknown.reads = reads.clone();
        }
    }
}

/// The request values `u` reads (see [`Resolution::request_reads`]), as the first steps
/// name them.
fn collect(resolution: &Resolution, u: &Use, req: &Value, out: &mut Vec<Read>) {
    for r in resolution.request_reads(u) {
        let span = Span::of(r.at.file, r.at.var.span);
        let absent =
            super::reads::req_path(resolution, &r).filter(|path| super::reads::absent(path, req));
        let xr_field = absent
            .as_ref()
            .filter(|path| path.len() > 1 && path[0] == "composite")
            .map(|path| path[1..].join("."));
        let missing = absent
            .and_then(|path| super::reads::describe(&path, req))
            .map(|text| (Span::of(r.written.file, r.written.var.span), text));
        let read = match r.at.target {
            Target::Req => {
                let mut path = "req".to_string();
                for step in r.path.iter().take(2) {
                    path.push('.');
                    path.push_str(step);
                }
                Read {
                    span,
                    path,
                    resource: None,
                    missing,
                    xr_field,
                }
            }
            Target::SelfObject => {
                let Some(key) = r.path.first() else {
                    continue;
                };
                if key != "resource" && key != "connection" {
                    continue;
                }
                Read {
                    span,
                    path: format!("self.{key}"),
                    resource: owning_resource(resolution, r.at.scope),
                    missing,
                    xr_field,
                }
            }
            _ => continue,
        };
        if !out
            .iter()
            .any(|x| x.path == read.path && x.span == read.span)
        {
            out.push(read);
        }
    }
}

/// The name of the `resource` block around `scope` (`None` inside a collection, whose
/// members' names are computed).
fn owning_resource(resolution: &Resolution, scope: usize) -> Option<String> {
    for id in resolution.chain(scope) {
        let s = &resolution.scopes[id];
        match s.kind {
            ScopeKind::Resource => return s.label.map(str::to_string),
            ScopeKind::Resources | ScopeKind::Iteration | ScopeKind::Template => return None,
            _ => {}
        }
    }
    None
}

/// function-hcl's `findUnknownPaths`: where the unknown leaves of a value are, written as
/// `.attr`, `[key]`, `[0]` (cty's `Walk` order: attributes and keys sorted).
pub(super) fn unknown_paths(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk_unknown(value, &mut String::new(), &mut out);
    out
}

fn walk_unknown(value: &Value, path: &mut String, out: &mut Vec<String>) {
    let step = |path: &mut String, text: String, v: &Value, out: &mut Vec<String>| {
        let len = path.len();
        path.push_str(&text);
        walk_unknown(v, path, out);
        path.truncate(len);
    };
    match value {
        Value::Unknown(..) => out.push(path.clone()),
        Value::Object(items) => {
            for (k, v) in items.iter() {
                step(path, format!(".{k}"), v, out);
            }
        }
        Value::Map { items, .. } => {
            for (k, v) in items.iter() {
                step(path, format!("[{k}]"), v, out);
            }
        }
        Value::List { items, .. } | Value::Tuple(items) => {
            for (i, v) in items.iter().enumerate() {
                step(path, format!("[{i}]"), v, out);
            }
        }
        Value::Set { items, .. } => {
            for v in items.iter() {
                let key = match v {
                    Value::String(s) => format!("[{s}]"),
                    Value::Number(n) => format!("[{}]", n),
                    _ => "<?>".to_string(),
                };
                step(path, key, v, out);
            }
        }
        Value::Null(_) | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}
