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
use crate::analysis::references::{keyword, step_name, variables};
use crate::analysis::resolve::{Resolution, ScopeId, ScopeKind, Use};
use crate::analysis::to_error_diag;
use crate::diagnostics::suggest;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::program::{UserFunctions, check_requirement_block, constant, invoke_calls};
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::gostd::strconv::quote;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::{ExprKind, ObjectItem, between};
use crate::syntax::model::{Child, FileExpr, GroupBody, Program, Requirement};
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

/// Every `requirement` block, in source order (top level and groups).
pub fn requirements(body: &GroupBody) -> Vec<&Requirement> {
    let mut out = Vec::new();
    collect_requirements(body, &mut out);
    out
}

fn collect_requirements<'p>(body: &'p GroupBody, out: &mut Vec<&'p Requirement>) {
    for child in &body.children {
        match child {
            Child::Group(g) => collect_requirements(&g.body, out),
            Child::Requirement(r) => out.push(r),
            _ => {}
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
        let invoke_errors: Vec<Diagnostic> = user
            .check_invokes(map, &site.expr.expr, site.expr.file)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        if invoke_errors.is_empty() {
            signatures(map, site.expr, user, &mut out);
        }
        out.extend(invoke_errors);
    }
    out
}

/// Beyond function-hcl's analyzer: every `invoke` whose arguments can only fail against the
/// function's declaration (an unknown argument name, a required argument left out, arguments
/// that are not an object), reported with the error the call fails with at run time.
fn signatures(map: &SourceMap, e: &FileExpr, user: &UserFunctions, out: &mut Vec<Diagnostic>) {
    let mut calls = Vec::new();
    invoke_calls(&e.expr, &mut calls);
    for call in calls {
        let ExprKind::Call {
            args,
            name_span,
            open_paren,
            ..
        } = &call.kind
        else {
            continue;
        };
        let [name, arguments] = &**args else {
            continue;
        };
        let Value::String(name) = constant(map, e.file, name) else {
            continue;
        };
        let Some(signature) = user.signature(&name) else {
            continue;
        };
        let at = Span::of(e.file, &between(name_span, open_paren));
        let mut fail = |message: String, help: Option<String>| {
            let mut d = Diagnostic::new(Code::E403, "Error in function call")
                .with_detail(format!("Call to function \"invoke\" failed: {message}."))
                .with_primary(at, None)
                .with_expression(Span::of(e.file, &call.span));
            d.help = help;
            out.push(d);
        };
        let ExprKind::Object(items) = &arguments.kind else {
            if variables(arguments).is_empty() {
                let value = constant(map, e.file, arguments);
                let ty = value.ty();
                if value.is_wholly_known() && !value.is_null() && !matches!(ty, Type::Object(_)) {
                    fail(
                        format!(
                            "arguments to user function '{name}' is not an object, found {}",
                            ty.go_string()
                        ),
                        None,
                    );
                }
            }
            continue;
        };
        let mut keys = Vec::new();
        let mut all_known = true;
        for item in items {
            match object_key(map, e.file, item) {
                Some(key) => keys.push(key),
                None => all_known = false,
            }
        }
        // A misspelt argument is suggested among those the call does not give yet.
        let unset: Vec<&str> = signature
            .iter()
            .map(|(arg, _)| *arg)
            .filter(|arg| !keys.iter().any(|k| k == arg))
            .collect();
        for key in &keys {
            if !signature.iter().any(|(arg, _)| arg == key) {
                let help = suggest::did_you_mean(key, &unset, str::to_string).or_else(|| {
                    let all: Vec<&str> = signature.iter().map(|(a, _)| *a).collect();
                    Some(format!("`{name}` takes: {}", all.join(", "))).filter(|_| !all.is_empty())
                });
                fail(
                    format!("function: {name}, invalid argument {}", quote(key)),
                    help,
                );
            }
        }
        if all_known {
            for (arg, has_default) in &signature {
                if !has_default && !keys.iter().any(|k| k == arg) {
                    fail(
                        format!(
                            "function: {name}, argument {} expected but not supplied",
                            quote(arg)
                        ),
                        None,
                    );
                }
            }
        }
    }
}

/// The key of an object constructor item when it is a constant.
pub(crate) fn object_key(map: &SourceMap, file: FileId, item: &ObjectItem) -> Option<String> {
    if !item.force_non_literal
        && let Some(name) = keyword(&item.key)
    {
        return Some(name);
    }
    if !variables(&item.key).is_empty() {
        return None;
    }
    match constant(map, file, &item.key) {
        Value::String(s) => Some(s.into_string()),
        _ => None,
    }
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
            let mut d = *d;
            if d.code == Code::R203 {
                let name = d.detail.clone().unwrap_or_default();
                d.help = did_you_mean(res, id, &name);
            }
            out.push(d);
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
                let summary = format!("no such attribute {}", quote(second));
                let keys: Vec<&str> = if var.root == "req" {
                    REQ_KEYS.to_vec()
                } else {
                    res.self_keys(u.scope)
                };
                let help =
                    match suggest::did_you_mean(second, &keys, |s| format!("{}.{s}", var.root)) {
                        Some(help) => help,
                        None if keys.is_empty() => format!("`{}` has no attributes here", var.root),
                        None => format!("`{}` has: {}", var.root, keys.join(", ")),
                    };
                return fail(Code::R206, summary, &text(), whole).map(|d| d.with_help(help));
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
            let help = undeclared_help(declared, second, third);
            fail(Code::R208, summary.into(), third, whole).map(|d| d.with_help(help))
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
                let help = suggest::did_you_mean(second, &["key", "value"], |s| format!("each.{s}"))
                    .unwrap_or_else(|| "`each.key` is the element's index (a list) or key (a map), `each.value` the element itself".into());
                return fail(Code::R207, summary.into(), second, whole).map(|d| d.with_help(help));
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
    let mut d = to_error_diag(
        Code::R203,
        "invalid local variable reference".into(),
        var.root,
        Span::of(u.file, var.root_span),
    );
    d.help = habit(res, u.scope, var).or_else(|| did_you_mean(res, u.scope, var.root));
    Some(d)
}

/// The help for an undefined root that is a Terraform habit (`local.x`, `var.x`, `count.index`)
/// or `each` outside a collection's members.
fn habit(res: &Resolution, scope: ScopeId, var: &VarRef) -> Option<String> {
    let next = var.steps.first().and_then(step_name);
    Some(match var.root {
        "local" => {
            let name = next?;
            if res.defines(scope, name) {
                format!("function-hcl has no `local.` prefix: write `{name}`")
            } else {
                let closest = suggest::name_suggestion(name, &res.visible_names(scope))
                    .map(|s| format!(" (the closest is `{s}`)"))
                    .unwrap_or_default();
                format!(
                    "function-hcl has no `local.` prefix: locals are referenced by bare name, and no local `{name}` is in scope{closest}"
                )
            }
        }
        "var" => format!(
            "function-hcl has no variables: XR fields are `req.composite.spec.{}`",
            next.unwrap_or("NAME")
        ),
        "count" => "function-hcl has no `count`: in `resources NAME { for_each = … }`, each member reads `each.key` and `each.value`".into(),
        "each" if in_collection(res, scope) => "`each` is the element being made: it exists in the collection's `name`, `template` and the blocks inside them, not in its `for_each`, `condition` or `locals`".into(),
        "each" => "`each` exists only inside a `resources` block, for each element of its `for_each`: `each.key` and `each.value`".into(),
        _ => return None,
    })
}

/// Whether `scope` is a `resources` block's own level (outside its members' `each`).
fn in_collection(res: &Resolution, scope: ScopeId) -> bool {
    res.scopes[scope].kind == ScopeKind::Resources
}

/// The help for `req.KIND.NAME` naming no block: the other kind when `NAME` is one (`subnet`
/// is a collection: `req.resources.subnet`), else the closest name of the right kind.
fn undeclared_help(declared: &Declared, kind: &str, name: &str) -> String {
    let (own, other, other_kind, what) = match kind {
        "resource" => (
            &declared.resources,
            &declared.collections,
            "resources",
            "`resource`",
        ),
        "connection" => (
            &declared.resources,
            &declared.collections,
            "connections",
            "`resource`",
        ),
        "resources" => (
            &declared.collections,
            &declared.resources,
            "resource",
            "`resources`",
        ),
        _ => (
            &declared.collections,
            &declared.resources,
            "connection",
            "`resources`",
        ),
    };
    if other.contains(name) {
        let is = if other_kind.ends_with('s') {
            "a `resources` collection"
        } else {
            "a single `resource`"
        };
        return format!("did you mean `req.{other_kind}.{name}`? `{name}` is {is}");
    }
    let mut names: Vec<&str> = own.iter().map(String::as_str).collect();
    names.sort_unstable();
    match suggest::did_you_mean(name, &names, |s| format!("req.{kind}.{s}")) {
        Some(help) => help,
        None if names.is_empty() => format!("the composition has no {what} blocks"),
        None => format!("its {what} blocks: {}", names.join(", ")),
    }
}

/// "did you mean `x`?" for an undefined name, from the names visible where it is used.
pub fn did_you_mean(res: &Resolution, scope: ScopeId, name: &str) -> Option<String> {
    let visible = res.visible_names(scope);
    suggest::did_you_mean(name, &visible, str::to_string)
}
