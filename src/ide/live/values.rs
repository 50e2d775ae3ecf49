//! Live values on hover: what the local, argument or traversal under the cursor evaluated to
//! for the example (per member in a collection), or why it is unknown.

use super::super::At;
use super::super::example::Evaluation;
use super::{MAX_MEMBER_LINES, MAX_MEMBERS, MAX_VALUE_LINES, evaluation, expr_span};
use crate::analysis::resolve::{Resolution, ScopeKind, Site, Target};
use crate::diagnostics::Severity;
use crate::eval::expr::{VarRef, traverse_reference, unknown_references};
use crate::eval::program::{self};
use crate::eval::scope::Scope;
use crate::eval::{Value, json};
use crate::source::FileId;
use crate::syntax::ast::{Step, TextRange};
use std::collections::BTreeMap;

/// The value (or inferred type) of what is under the cursor, as Markdown.
pub fn hover(at: &At) -> Option<String> {
    let live = evaluation(at)?;
    let program = &live.program;
    let resolution = Resolution::of(&program.top, &program.functions);
    let offset = at.offset as u32;
    let covers =
        |file: FileId, r: &TextRange| file == at.file && r.start <= offset && offset <= r.end;
    // A local's name where it is defined.
    if let Some((id, b)) = resolution
        .bindings
        .iter()
        .enumerate()
        .find(|(_, b)| covers(b.name_span.file, &(b.name_span.start..b.name_span.end)))
    {
        if in_function(&resolution, b.scope) {
            return None;
        }
        if let Some(nothing) = no_values(&live) {
            return Some(nothing);
        }
        let trace = live.trace.as_ref()?;
        let seen: Vec<(Option<String>, Result<Value, String>)> = trace
            .locals
            .iter()
            .filter(|l| l.name_span == b.name_span)
            .map(|l| (l.instance.clone(), Ok(l.value.clone())))
            .collect();
        let why = |instance: &Option<String>| why_local(&live, &resolution, id, instance, 0);
        return Some(show(b.name, &seen, &why));
    }
    // A reference: the part of the traversal up to the cursor.
    let u = resolution
        .uses
        .iter()
        .find(|u| covers(u.file, u.var.span))?;
    let var = &u.var;
    let steps = if covers(u.file, var.root_span) {
        0
    } else {
        var.steps
            .iter()
            .position(|s| covers(u.file, &step_span(s)))
            .map_or(var.steps.len(), |i| i + 1)
    };
    let end = match steps {
        0 => var.root_span.end,
        n => step_span(&var.steps[n - 1]).end,
    };
    let shown = &at.text()[var.root_span.start as usize..end as usize];
    let site = resolution
        .exprs
        .iter()
        .filter(|e| {
            e.expr.file == u.file && {
                let r = &e.expr.expr.span;
                r.start <= var.span.start && var.span.end <= r.end
            }
        })
        .min_by_key(|e| e.expr.expr.span.end - e.expr.expr.span.start)?;
    if in_function(&resolution, site.scope) || u.target == Target::Undefined {
        return None;
    }
    if let Some(nothing) = no_values(&live) {
        return Some(nothing);
    }
    let trace = live.trace.as_ref()?;
    let reference = VarRef {
        root: var.root,
        root_span: var.root_span,
        steps: &var.steps[..steps],
        span: var.span,
    };
    let walk = |variables: BTreeMap<String, Value>| -> Result<Value, String> {
        let scope = Scope {
            variables,
            ..Scope::default()
        };
        let (value, diags) = traverse_reference(&reference, u.file, &scope);
        match diags.iter().find(|d| d.severity == Severity::Error) {
            Some(error) => Err(error.message()),
            None => Ok(value),
        }
    };
    let span = expr_span(site.expr);
    let mut seen: Vec<(Option<String>, Result<Value, String>)> = trace
        .exprs
        .iter()
        .filter(|e| e.span == span && e.variables.contains_key(var.root))
        .map(|e| (e.instance.clone(), walk(e.variables.clone())))
        .collect();
    // An expression never evaluated: a local it reads may still have a value.
    if seen.is_empty()
        && let Target::Binding(id) = u.target
        && let Some(b) = resolution.bindings.get(id)
    {
        seen = trace
            .locals
            .iter()
            .filter(|l| l.name_span == b.name_span)
            .map(|l| {
                let mut variables = BTreeMap::new();
                variables.insert(var.root.to_string(), l.value.clone());
                (l.instance.clone(), walk(variables))
            })
            .collect();
    }
    if seen.is_empty() {
        return Some(
            "**Example value**: not evaluated for the example (its block did not run; see the block's hint)"
                .to_string(),
        );
    }
    let why = |instance: &Option<String>| match u.target {
        Target::Binding(id) => why_local(&live, &resolution, id, instance, 0),
        _ => None,
    };
    let mut text = show(shown, &seen, &why);
    if let Some(note) = unobserved(var, steps, &seen) {
        text.push_str(&note);
    }
    Some(text)
}

/// A step's range.
fn step_span(step: &Step) -> TextRange {
    match step {
        Step::Attr { span, .. } | Step::Index { span, .. } => span.clone(),
    }
}

/// Whether a scope is a user function's (evaluated per `invoke`, never traced).
fn in_function(resolution: &Resolution, scope: usize) -> bool {
    resolution.chain(scope).any(|s| {
        matches!(
            resolution.scopes[s].kind,
            ScopeKind::Function | ScopeKind::Constant
        )
    })
}

/// Why a hover has no value when nothing was evaluated.
fn no_values(live: &Evaluation) -> Option<String> {
    match (&live.problem, &live.trace, &live.failure) {
        (Some(problem), _, _) => Some(format!(
            "**Example value**: none, the example cannot be used: {problem}"
        )),
        (None, None, Some(fatal)) => Some(format!(
            "**Example value**: none, the composition was not evaluated: {}",
            fatal.short
        )),
        _ => None,
    }
}

/// Why `req.resource.NAME…` / `req.connection.NAME…` has no value: the resource is not
/// observed in the example.
fn unobserved(
    var: &VarRef,
    steps: usize,
    seen: &[(Option<String>, Result<Value, String>)],
) -> Option<String> {
    if var.root != "req" || !seen.iter().any(|(_, v)| v.is_err()) {
        return None;
    }
    let names: Vec<&str> = var.steps[..steps]
        .iter()
        .filter_map(crate::analysis::references::step_name)
        .collect();
    match names.as_slice() {
        [collection @ ("resource" | "connection"), name, ..] => Some(format!(
            "\n\n`{name}` is not observed in the example (`req.{collection}` has no `{name}`): function-hcl defers the blocks that read it"
        )),
        [collection @ ("resources" | "connections"), name, ..] => Some(format!(
            "\n\nno member of `{name}` is observed in the example (`req.{collection}` has no `{name}`)"
        )),
        ["extra_resources", name, ..] => Some(format!(
            "\n\nthe example has no extra resources for the requirement `{name}`"
        )),
        _ => None,
    }
}

/// The values of one name or traversal, per evaluation, as Markdown.
fn show(
    shown: &str,
    seen: &[(Option<String>, Result<Value, String>)],
    why: &dyn Fn(&Option<String>) -> Option<String>,
) -> String {
    let one = |instance: &Option<String>, value: &Result<Value, String>, lines: usize| match value {
        Err(error) => format!("no value: {error}"),
        Ok(value) => {
            let mut out = fenced_hcl(value, lines);
            if !value.is_wholly_known() {
                let reason = why(instance)
                    .unwrap_or_else(|| "it depends on values that are not known yet".to_string());
                out.push_str(&format!("\nnot known yet: {reason}"));
            }
            out
        }
    };
    match seen {
        [] => format!("**Example value** of `{shown}`: not evaluated for the example"),
        [(instance, value)] => format!(
            "**Example value** of `{shown}`{}:\n{}",
            instance
                .as_ref()
                .map(|i| format!(" (`{i}`)"))
                .unwrap_or_default(),
            one(instance, value, MAX_VALUE_LINES)
        ),
        many if many.iter().all(|(_, v)| {
            same_result(v, &many[0].1) && v.as_ref().is_ok_and(Value::is_wholly_known)
        }) =>
        {
            format!(
                "**Example value** of `{shown}` (the same in its {} evaluations):\n{}",
                many.len(),
                one(&many[0].0, &many[0].1, MAX_VALUE_LINES)
            )
        }
        many => {
            let mut out = format!(
                "**Example values** of `{shown}` ({} evaluations):",
                many.len()
            );
            for (instance, value) in many.iter().take(MAX_MEMBERS) {
                let name = instance.as_deref().unwrap_or("?");
                out.push_str(&format!(
                    "\n\n`{name}`:\n{}",
                    one(instance, value, MAX_MEMBER_LINES)
                ));
            }
            if many.len() > MAX_MEMBERS {
                out.push_str(&format!("\n\n… and {} more", many.len() - MAX_MEMBERS));
            }
            out
        }
    }
}

/// Whether two results show the same.
fn same_result(a: &Result<Value, String>, b: &Result<Value, String>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => json::to_hcl(a) == json::to_hcl(b),
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// A value as HCL in a fenced block, cut after `lines` lines.
pub fn fenced_hcl(value: &Value, lines: usize) -> String {
    let text = json::to_hcl(value);
    let total = text.lines().count();
    let mut kept: Vec<&str> = text.lines().take(lines).collect();
    if total > lines {
        kept.push("# …");
    }
    format!("```hcl\n{}\n```", kept.join("\n"))
}

/// Why a local is not (wholly) known in an evaluation: its own error, else the first local it
/// reads that is not known, and why.
fn why_local(
    live: &Evaluation,
    resolution: &Resolution,
    id: usize,
    instance: &Option<String>,
    depth: usize,
) -> Option<String> {
    let trace = live.trace.as_ref()?;
    let b = resolution.bindings.get(id)?;
    let all: Vec<&program::SeenLocal> = trace
        .locals
        .iter()
        .filter(|l| l.name_span == b.name_span)
        .collect();
    let local = *all
        .iter()
        .find(|l| l.instance == *instance)
        .or(all.first())?;
    if let Some(w) = local.warnings.first() {
        return Some(format!("`{}` fails: {}", b.name, w.message()));
    }
    let value = b.value?;
    let span = expr_span(value);
    let seen = trace
        .exprs
        .iter()
        .filter(|e| e.span == span)
        .find(|e| e.instance == local.instance)?;
    let scope = Scope {
        variables: seen.variables.clone(),
        ..Scope::default()
    };
    let unknown = unknown_references(&value.expr, &scope);
    if depth < 5 {
        for u in resolution.uses.iter().filter(|u| u.site == Site::Local(id)) {
            if let Target::Binding(other) = u.target
                && other != id
                && unknown
                    .iter()
                    .any(|t| t.split(['.', '[']).next() == Some(u.var.root))
                && let Some(why) = why_local(live, resolution, other, &local.instance, depth + 1)
            {
                return Some(why);
            }
        }
    }
    (!unknown.is_empty()).then(|| format!("`{}` reads {}", b.name, unknown.join(", ")))
}
