//! The references whose values are not wholly known ([`unknown_references`]).

use super::{Evaluator, Run, go_quote, has_errors, literal};
pub use crate::analysis::references::{VarRef, variables};
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::source::FileId;
use crate::syntax::ast::{Expr, Step};

/// The references in `expr` (as [`variables`] finds them) whose values in `scope` are not
/// wholly known, written as in the source (`req.resource.a`, `x[0]`), without repeats, in
/// order of appearance. A step that cannot be applied ends the reference before it; names
/// the scope does not define are left out.
pub fn unknown_references(expr: &Expr, scope: &Scope) -> Vec<String> {
    let run = Run::new(Evaluator::new(FileId::first()));
    let mut out: Vec<String> = Vec::new();
    for reference in variables(expr) {
        let Some(mut current) = scope.lookup(reference.root).cloned() else {
            continue;
        };
        let mut text = reference.root.to_string();
        for step in reference.steps {
            let (next, diags, written) = match step {
                Step::Attr { name, span } => {
                    let (v, d) = run.get_attr(&current, name, span);
                    (v, d, format!(".{name}"))
                }
                Step::Index { key, span } => {
                    let key = literal(key);
                    let (v, d) = run.index(&current, &key, span);
                    let written = match &key {
                        Value::String(k) => format!("[{}]", go_quote(k)),
                        Value::Number(n) => format!("[{n}]"),
                        other => format!("[{}]", show_key(other)),
                    };
                    (v, d, written)
                }
            };
            if has_errors(&diags) {
                break;
            }
            current = next;
            text.push_str(&written);
        }
        if !current.is_wholly_known() && !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

fn show_key(key: &Value) -> &'static str {
    match key {
        Value::Null(_) => "null",
        Value::Bool(true) => "true",
        Value::Bool(false) => "false",
        _ => "…",
    }
}

/// hcl's `Traversal.TraverseAbs` of one reference, as function-hcl applies it to find where a
/// body's unknown values come from. The diagnostics name no expression (Go sets none here).
pub fn traverse_reference(
    reference: &VarRef,
    file: FileId,
    scope: &Scope,
) -> (Value, Vec<crate::diagnostics::Diagnostic>) {
    let mut run = Run::new(Evaluator::new(file));
    run.traverse_abs(reference.root, reference.root_span, reference.steps, scope)
}
