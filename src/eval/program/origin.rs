//! Where a composed resource's body was written: the `body` expression of its block, and the
//! literal keys of its object constructors by field path — what schema validation points at
//! when it finds a problem in the rendered resource.

use crate::schema::Segment;
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::model::FileExpr;

/// One body's places.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The whole `body` expression.
    pub body: Span,
    /// Each literal key (or tuple element) by its field path: the key's span and its value's.
    pub fields: Vec<(Vec<Segment>, Span, Span)>,
}

impl Origin {
    /// Reads the places of a body expression.
    pub fn of(body: &FileExpr) -> Origin {
        let mut fields = Vec::new();
        walk(&body.expr, body, &mut Vec::new(), &mut fields);
        Origin {
            body: Span::of(body.file, &body.expr.span),
            fields,
        }
    }

    /// The place that best explains a problem at `path`: the key written for it, else the
    /// value of its nearest written ancestor (a missing field points at the object that lacks
    /// it), else the whole body.
    pub fn locate(&self, path: &[Segment]) -> Span {
        if let Some((_, key, _)) = self.fields.iter().find(|(p, _, _)| p == path) {
            return *key;
        }
        (0..path.len())
            .rev()
            .find_map(|n| {
                self.fields
                    .iter()
                    .find(|(p, _, _)| p.as_slice() == &path[..n])
                    .map(|(_, _, value)| *value)
            })
            .unwrap_or(self.body)
    }
}

/// A literal object key: a bare name (not in parentheses) or a string without interpolation.
fn literal_key(item: &crate::syntax::ast::ObjectItem) -> Option<String> {
    match &item.key.kind {
        ExprKind::Traversal { root, steps, .. } if steps.is_empty() && !item.force_non_literal => {
            Some(root.to_string())
        }
        ExprKind::Template(parts) if parts.is_empty() => Some(String::new()),
        _ => item.key.plain_string().map(|(s, _)| s.to_string()),
    }
}

fn walk(
    expr: &Expr,
    body: &FileExpr,
    path: &mut Vec<Segment>,
    out: &mut Vec<(Vec<Segment>, Span, Span)>,
) {
    match &expr.kind {
        ExprKind::Object(items) => {
            for item in items {
                let Some(key) = literal_key(item) else {
                    continue;
                };
                path.push(Segment::Key(key));
                out.push((
                    path.clone(),
                    Span::of(body.file, &item.key.span),
                    Span::of(body.file, &item.value.span),
                ));
                walk(&item.value, body, path, out);
                path.pop();
            }
        }
        ExprKind::Tuple(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                let span = Span::of(body.file, &item.span);
                out.push((path.clone(), span, span));
                walk(item, body, path, out);
                path.pop();
            }
        }
        ExprKind::Parens(inner) => walk(inner, body, path, out),
        _ => {}
    }
}
