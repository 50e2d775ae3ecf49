//! function-hcl v0.2.0's static analyzer (`evaluator/analyze.go`) over a [`Resolution`]: per
//! block, the requirement checks, then the locals (duplicates, shadowing, undefined names,
//! cycles), then every reference of its locals and attributes; finally the `invoke` checks over
//! every expression of the program, function definitions included.
//!
//! As in Go, a block whose requirement check or locals fail is not analysed further (nor are
//! the blocks inside it); its siblings still are. Where Go walks maps in random order, this
//! walks the source in order, and the findings are sorted by position later.

use crate::analysis::plan_locals;
use crate::analysis::references::VarRef;
use crate::analysis::resolve::{Resolution, ScopeKind, Use};
use crate::analysis::to_error_diag;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::program::{UserFunctions, check_requirement_block};
use crate::source::{SourceMap, Span};
use crate::syntax::ast::{Literal, Step};
use crate::syntax::model::{Child, GroupBody, Program};
use crate::syntax::schema::is_identifier;
use std::collections::HashSet;

/// The attributes of `req` (function-hcl's `makeVars` with an empty request).
pub const REQ_KEYS: [&str; 8] = [
    "composite",
    "composite_connection",
    "connection",
    "connections",
    "context",
    "extra_resources",
    "resource",
    "resources",
];

/// A traversal step after hcl's `NormalizeTraversal`: `x["name"]` reads as `x.name` when the
/// key is an identifier.
pub fn step_name(step: &Step) -> Option<&str> {
    match step {
        Step::Attr { name, .. } => Some(name),
        Step::Index {
            key: Literal::String(key),
            ..
        } if is_identifier(key) => Some(key),
        Step::Index { .. } => None,
    }
}

/// The names of every `resource` and `resources` block, wherever they are.
#[derive(Debug, Default)]
pub struct Declared {
    /// `resource NAME` labels.
    pub resources: HashSet<String>,
    /// `resources BASE` labels.
    pub collections: HashSet<String>,
}

impl Declared {
    /// Collects the names of a program.
    pub fn of(program: &Program) -> Declared {
        let mut d = Declared::default();
        d.walk(&program.top);
        d
    }

    fn walk(&mut self, body: &GroupBody) {
        for child in &body.children {
            match child {
                Child::Group(g) => self.walk(&g.body),
                Child::Resource(r) => {
                    self.resources.insert(r.name.value.clone());
                }
                Child::Resources(c) => {
                    self.collections.insert(c.name.value.clone());
                }
                _ => {}
            }
        }
    }
}

/// Runs the analyzer; every finding is an error function-hcl's analyzer reports.
pub(crate) fn analyze(
    map: &SourceMap,
    res: &Resolution,
    declared: &Declared,
    user: &UserFunctions,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let blocked = blocked_scopes(map, res, &mut out);
    for u in &res.uses {
        let kind = res.scopes[u.scope].kind;
        if blocked[u.scope] || matches!(kind, ScopeKind::Function | ScopeKind::Constant) {
            continue;
        }
        if let Some(d) = check_reference(map, res, declared, u) {
            out.push(d);
        }
    }
    for site in &res.exprs {
        out.extend(
            user.check_invokes(map, &site.expr.expr, site.expr.file)
                .into_iter()
                .filter(|d| d.severity == Severity::Error),
        );
    }
    out
}

/// Requirement checks and locals, scope by scope (parents first): which scopes Go stops at.
fn blocked_scopes(map: &SourceMap, res: &Resolution, out: &mut Vec<Diagnostic>) -> Vec<bool> {
    let mut blocked = vec![false; res.scopes.len()];
    for (id, scope) in res.scopes.iter().enumerate() {
        if matches!(scope.kind, ScopeKind::Function | ScopeKind::Constant) {
            continue;
        }
        if scope.parent.is_some_and(|p| blocked[p]) {
            blocked[id] = true;
            continue;
        }
        if let Some(requirement) = scope.requirement
            && let Err(diags) = check_requirement_block(map, requirement)
        {
            out.extend(diags);
            blocked[id] = true;
            continue;
        }
        let Some(locals) = scope.locals else { continue };
        if let Err(d) = plan_locals(&locals.items, |name| res.defined_outside(id, name)) {
            out.push(*d);
            blocked[id] = true;
        }
    }
    blocked
}

/// `checkReferences` for one reference.
fn check_reference(
    map: &SourceMap,
    res: &Resolution,
    declared: &Declared,
    u: &Use,
) -> Option<Diagnostic> {
    let var = &u.var;
    let whole = Span::of(u.file, var.span);
    let text = || map.get(u.file).slice(whole).to_string();
    let fail = |code: Code, summary: String, detail: &str, at: Span| {
        Some(to_error_diag(code, summary, detail, at))
    };
    match var.root {
        "req" | "self" => {
            let first = var.steps.first()?;
            let Some(second) = step_name(first) else {
                return fail(
                    Code::R205,
                    "invalid index expression".into(),
                    &text(),
                    whole,
                );
            };
            let known = if var.root == "req" {
                REQ_KEYS.contains(&second)
            } else {
                res.self_keys(u.scope).contains(&second)
            };
            if !known {
                let summary = format!("no such attribute {}", crate::eval::gostr::quote(second));
                return fail(Code::R206, summary, &text(), whole);
            }
            let third = var.steps.get(1).and_then(step_name)?;
            let missing = match (var.root, second) {
                ("req", "resource" | "connection") => !declared.resources.contains(third),
                ("req", "resources" | "connections") => !declared.collections.contains(third),
                _ => false,
            };
            if !missing {
                return None;
            }
            let summary = if matches!(second, "resource" | "connection") {
                "invalid resource name reference"
            } else {
                "invalid resource collection name reference"
            };
            fail(Code::R208, summary.into(), third, whole)
        }
        "each" => {
            let first = var.steps.first()?;
            let Some(second) = step_name(first) else {
                return fail(
                    Code::R205,
                    "invalid index expression".into(),
                    &text(),
                    whole,
                );
            };
            if second != "key" && second != "value" {
                let summary = "invalid each reference, must be one of 'key' or 'value'";
                return fail(Code::R207, summary.into(), second, whole);
            }
            undefined(res, u, var)
        }
        _ => undefined(res, u, var),
    }
}

fn undefined(res: &Resolution, u: &Use, var: &VarRef) -> Option<Diagnostic> {
    if res.defines(u.scope, var.root) {
        return None;
    }
    Some(to_error_diag(
        Code::R203,
        "invalid local variable reference".into(),
        var.root,
        Span::of(u.file, var.root_span),
    ))
}
