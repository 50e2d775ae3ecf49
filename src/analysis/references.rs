//! hcl's `Variables()`: the variable references an expression makes, and `ExprAsKeyword`.

use crate::syntax::ast::{Expr, ExprKind, Literal, Step, TextRange};
use crate::syntax::schema::is_identifier;

/// A reference to a variable of the enclosing scope: one of hcl's `Variables()` traversals.
#[derive(Clone, Debug, PartialEq)]
pub struct VarRef<'e> {
    /// The root name.
    pub root: &'e str,
    /// The root name's range.
    pub root_span: &'e TextRange,
    /// The attribute and index steps after the root.
    pub steps: &'e [Step],
    /// The whole traversal.
    pub span: &'e TextRange,
}

/// hcl's `Variables()`: every scope traversal in `expr`, in walk order, except those rooted at
/// a `for` expression's own key or value variable (inside that `for`'s key, value and
/// condition). Object keys that are bare names are not references.
pub fn variables(expr: &Expr) -> Vec<VarRef<'_>> {
    let mut out = Vec::new();
    // The names the enclosing `for`s bind, innermost last: one flat list (not one list per
    // `for`, which cost an allocation per `for`).
    let mut locals: Vec<&str> = Vec::new();
    walk_variables(expr, &mut locals, &mut out);
    out
}

fn walk_variables<'e>(expr: &'e Expr, locals: &mut Vec<&'e str>, out: &mut Vec<VarRef<'e>>) {
    match &expr.kind {
        ExprKind::Traversal {
            root,
            root_span,
            steps,
        } => {
            if !locals.contains(&&**root) {
                out.push(VarRef {
                    root,
                    root_span,
                    steps,
                    span: &expr.span,
                });
            }
        }
        ExprKind::Literal(_)
        | ExprKind::QuotedLiteral(_)
        | ExprKind::SplatItem
        | ExprKind::Error => {}
        ExprKind::Template(parts) | ExprKind::Tuple(parts) => {
            for part in parts {
                walk_variables(part, locals, out);
            }
        }
        ExprKind::Call { args, .. } => {
            for arg in args {
                walk_variables(arg, locals, out);
            }
        }
        ExprKind::TemplateWrap(inner)
        | ExprKind::TemplateJoin(inner)
        | ExprKind::Parens(inner)
        | ExprKind::RelativeTraversal { source: inner, .. } => walk_variables(inner, locals, out),
        ExprKind::Unary { operand, .. } => walk_variables(operand, locals, out),
        ExprKind::Conditional {
            condition,
            if_true,
            if_false,
        } => {
            walk_variables(condition, locals, out);
            walk_variables(if_true, locals, out);
            walk_variables(if_false, locals, out);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            walk_variables(lhs, locals, out);
            walk_variables(rhs, locals, out);
        }
        ExprKind::Object(items) => {
            for item in items {
                if keyword(&item.key).is_none() {
                    walk_variables(&item.key, locals, out);
                }
                walk_variables(&item.value, locals, out);
            }
        }
        ExprKind::For(f) => {
            walk_variables(&f.collection, locals, out);
            let outer = locals.len();
            locals.push(f.value_var.as_str());
            if let Some(key) = &f.key_var {
                locals.push(key);
            }
            if let Some(key) = &f.key {
                walk_variables(key, locals, out);
            }
            walk_variables(&f.value, locals, out);
            if let Some(cond) = &f.condition {
                walk_variables(cond, locals, out);
            }
            locals.truncate(outer);
        }
        ExprKind::Index {
            collection, key, ..
        } => {
            walk_variables(collection, locals, out);
            walk_variables(key, locals, out);
        }
        ExprKind::Splat { source, each, .. } => {
            walk_variables(source, locals, out);
            walk_variables(each, locals, out);
        }
    }
}

/// hcl's `ExprAsKeyword`: a bare name (a one-step traversal) or the `null`/`true`/`false`
/// keywords the parser turned into literals.
pub fn keyword(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Traversal { root, steps, .. } if steps.is_empty() => Some(root.to_string()),
        ExprKind::Literal(Literal::Null) => Some("null".into()),
        ExprKind::Literal(Literal::Bool(b)) => Some(b.to_string()),
        _ => None,
    }
}

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
