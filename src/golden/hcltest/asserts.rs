//! A run's `assert` blocks: each condition evaluated over the render's output; a failed one
//! reported at its `assert`, with its `error_message` and the value of every reference the
//! condition makes (as Terraform's test runner shows them).

use super::scope;
use crate::eval::functions::FunctionTable;
use crate::eval::json::to_hcl;
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::golden::scenario::split;
use crate::source::{FileId, SourceMap};
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::testfile::{Assert, Run};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// How many lines of a reference's value a failure shows.
const MAX_VALUE_LINES: usize = 12;

/// Evaluates every `assert` of `run` over `documents` (`None`: the run rendered nothing) and
/// `renders`, how many renders it took;
/// `Err` with a block of text per failed one.
pub(super) fn check(
    map: &SourceMap,
    file: FileId,
    run: &Run,
    functions: &FunctionTable,
    documents: Option<&[Json]>,
    renders: usize,
) -> Result<(), String> {
    let mut variables = match documents {
        Some(documents) => scope::output_variables(documents, &split(documents)),
        None => BTreeMap::new(),
    };
    if documents.is_some() {
        variables.insert(
            "renders".into(),
            Value::number(crate::eval::Num::from_i64(
                i64::try_from(renders).unwrap_or(i64::MAX),
            )),
        );
    }
    let root = Scope::root(functions);
    let scope = root.child(variables);
    let failures: Vec<String> = run
        .asserts
        .iter()
        .filter_map(|assert| one(map, file, assert, &scope).err())
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n"))
    }
}

/// One assert: `Err` with its failure text.
fn one(map: &SourceMap, file: FileId, assert: &Assert, scope: &Scope) -> Result<(), String> {
    let source = map.get(file);
    let lc = source.line_col(assert.keyword.start as usize);
    let head = format!("{}:{}:{}", source.display_name(), lc.line, lc.column);
    let condition_text = source.slice(
        source.span(assert.condition.span.start as usize..assert.condition.span.end as usize),
    );
    let value = match scope::evaluate(map, file, &assert.condition, scope) {
        Ok(value) => value,
        Err(why) => {
            return Err(format!(
                "{head}: the condition could not be evaluated\n  condition = {condition_text}\n{}",
                indent(&why)
            ));
        }
    };
    let problem = match &value {
        Value::Bool(true) => return Ok(()),
        Value::Bool(false) => None,
        other if !other.is_wholly_known() => Some("the condition's value is not known".to_string()),
        other => Some(format!(
            "the condition must be true or false, not {}",
            to_hcl(other)
        )),
    };
    let message = match &assert.error_message {
        None => "the condition is false".to_string(),
        Some(expr) => match scope::evaluate(map, file, expr, scope) {
            Ok(Value::String(text)) => text.into_string(),
            Ok(other) => to_hcl(&other),
            Err(why) => format!("(error_message could not be evaluated: {why})"),
        },
    };
    let mut out = format!("{head}: assertion failed: {message}\n  condition = {condition_text}");
    if let Some(problem) = problem {
        out.push_str(&format!("\n  {problem}"));
    }
    for (text, value) in references(map, file, &assert.condition, scope) {
        out.push_str(&format!("\n  {text} is {value}"));
    }
    Err(out)
}

/// Each variable reference of `expr` (by its source text, once) with its value as HCL; those
/// that cannot be evaluated on their own (a `for` variable) are left out.
fn references(map: &SourceMap, file: FileId, expr: &Expr, scope: &Scope) -> Vec<(String, String)> {
    let mut found: Vec<&Expr> = Vec::new();
    collect(expr, &mut found);
    let source = map.get(file);
    let mut out: Vec<(String, String)> = Vec::new();
    for reference in found {
        let text = source
            .slice(source.span(reference.span.start as usize..reference.span.end as usize))
            .to_string();
        if out.iter().any(|(t, _)| *t == text) {
            continue;
        }
        let Ok(value) = scope::evaluate(map, file, reference, scope) else {
            continue;
        };
        out.push((text, indent_rest(&shorten(&to_hcl(&value)))));
    }
    out
}

/// The traversals (`resource.bucket.spec.region`) of an expression, outermost first.
fn collect<'e>(expr: &'e Expr, found: &mut Vec<&'e Expr>) {
    match &expr.kind {
        ExprKind::Traversal { .. } => found.push(expr),
        // `resource["a-b"].spec` or `xr.spec[local]`: the whole reference, not its parts.
        ExprKind::RelativeTraversal { source, .. }
        | ExprKind::Index {
            collection: source, ..
        } if is_reference(source) => found.push(expr),
        _ => expr.for_each_child(|child| collect(child, found)),
    }
}

/// Whether an expression is a reference with steps (no calls or operators).
fn is_reference(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Traversal { .. } => true,
        ExprKind::RelativeTraversal { source, .. }
        | ExprKind::Index {
            collection: source, ..
        } => is_reference(source),
        _ => false,
    }
}

/// A value's text cut to [`MAX_VALUE_LINES`] lines.
fn shorten(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= MAX_VALUE_LINES {
        return text.to_string();
    }
    format!(
        "{}\n… ({} more lines)",
        lines[..MAX_VALUE_LINES].join("\n"),
        lines.len() - MAX_VALUE_LINES
    )
}

/// Every line indented by two spaces.
fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Lines after the first indented by two spaces (a multi-line value under its `is`).
fn indent_rest(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.to_string()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
