//! What one evaluation saw, kept for tools that show values (the language server's live
//! values): each expression evaluated with the variables it reads, each local's value and
//! warnings, the composed resources produced, the discarded blocks and the block whose error
//! ended the run. Recording never changes what the evaluation does or returns.

use super::Discard;
use crate::diagnostics::Diagnostic;
use crate::eval::expr::variables;
use crate::eval::scope::Scope;
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::model::{FileExpr, Locals};
use std::collections::BTreeMap;

/// The record of one evaluation (see [`super::evaluate_traced`]).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Every block attribute and local value evaluated, once per evaluation of it (a
    /// collection's template once per member).
    pub exprs: Vec<SeenExpr>,
    /// Every local, once per evaluation of its scope.
    pub locals: Vec<SeenLocal>,
    /// The composed resources produced, each with its `body` expression (at the end of the
    /// run, or where it failed).
    pub desired: BTreeMap<String, Span>,
    /// The discarded blocks, in processing order.
    pub discards: Vec<Discard>,
    /// The block whose error ended the run (the innermost block of a group).
    pub failed: Option<Span>,
    /// The run's diagnostics: the warnings (errors of incomplete blocks and failed locals,
    /// downgraded) and the errors that ended it.
    pub diagnostics: Vec<Diagnostic>,
}

/// One evaluation of an expression.
#[derive(Clone, Debug)]
pub struct SeenExpr {
    /// The expression.
    pub span: Span,
    /// Which evaluation: the resource (or collection member) name from `self.name`, else
    /// `each.key` of a collection's iteration; `None` elsewhere.
    pub instance: Option<String>,
    /// The variables the expression reads (its references' root names) and their values.
    pub variables: BTreeMap<String, Value>,
}

/// One evaluation of a local.
#[derive(Clone, Debug)]
pub struct SeenLocal {
    /// Its name.
    pub name: String,
    /// The name's range.
    pub name_span: Span,
    /// Which evaluation (as [`SeenExpr::instance`]).
    pub instance: Option<String>,
    /// Its value (unknown when it failed).
    pub value: Value,
    /// The warnings its value produced (its errors, downgraded).
    pub warnings: Vec<Diagnostic>,
}

impl Trace {
    /// Records an expression about to be evaluated in `scope`.
    pub(super) fn expr(&mut self, e: &FileExpr, scope: &Scope) {
        let mut seen = BTreeMap::new();
        for reference in variables(&e.expr) {
            if seen.contains_key(reference.root) {
                continue;
            }
            if let Some(value) = scope.lookup(reference.root) {
                seen.insert(reference.root.to_string(), value.clone());
            }
        }
        self.exprs.push(SeenExpr {
            span: Span::of(e.file, &e.expr.span),
            instance: instance(scope),
            variables: seen,
        });
    }

    /// Records the locals of a scope once they are all evaluated (`scope` holds them), with
    /// the warnings of their evaluation.
    pub(super) fn locals(&mut self, locals: &Locals, scope: &Scope, warnings: &[Diagnostic]) {
        let which = instance(scope);
        for local in &locals.items {
            let span = Span::of(local.value.file, &local.value.expr.span);
            let own = warnings
                .iter()
                .filter(|d| {
                    d.primary.as_ref().is_some_and(|p| {
                        p.span.file == span.file
                            && span.start <= p.span.start
                            && p.span.end <= span.end
                    })
                })
                .cloned()
                .collect();
            self.expr(&local.value, scope);
            self.locals.push(SeenLocal {
                name: local.name.clone(),
                name_span: Span::of(local.value.file, &local.value.name_span),
                instance: which.clone(),
                value: scope
                    .lookup(&local.name)
                    .cloned()
                    .unwrap_or_else(Value::dynamic),
                warnings: own,
            });
        }
    }
}

/// Which evaluation a scope is: `self.name`, else `each.key`.
fn instance(scope: &Scope) -> Option<String> {
    let field = |root: &str, key: &str| match scope.lookup(root) {
        Some(Value::Object(items)) => items.get(key).cloned(),
        _ => None,
    };
    match field("self", "name") {
        Some(Value::String(name)) => Some(name.to_string()),
        _ => match field("each", "key") {
            Some(Value::String(key)) => Some(key.to_string()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::{evaluate, evaluate_traced};
    use crate::eval::proto::RunFunctionRequest;
    use crate::source::SourceMap;
    use serde_json::json;

    #[test]
    fn tracing_changes_nothing_and_records_what_was_seen() {
        let text = "locals {\n  a = req.composite.spec.n\n  b = req.resource.x.status\n}\n\
                    resource r {\n  body = { n = a }\n}\nresource s {\n  body = { v = b }\n}\n";
        let mut map = SourceMap::new();
        let file = map.add("main.hcl", text);
        let request: RunFunctionRequest = serde_json::from_value(json!({
            "observed": {"composite": {"resource": {"spec": {"n": 2}}}}
        }))
        .unwrap();
        let plain = evaluate(&mut map.clone(), &[file], &request).unwrap();
        let (traced, trace) = evaluate_traced(&mut map, &[file], &request);
        let traced = traced.unwrap();
        assert_eq!(plain.response, traced.response);
        assert_eq!(plain.discards, traced.discards);
        let trace = trace.unwrap();
        let local = |name: &str| trace.locals.iter().find(|l| l.name == name).unwrap();
        assert_eq!(
            local("a").value.as_num().map(|n| n.to_string()),
            Some("2".into())
        );
        assert!(local("a").warnings.is_empty());
        assert!(!local("b").value.is_known());
        assert_eq!(local("b").warnings[0].summary, "Unsupported attribute");
        assert_eq!(map.get(file).slice(local("b").name_span), "b");
        assert!(trace.desired.contains_key("r"));
        let discarded: Vec<&str> = trace.discards.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(discarded, ["s"]);
        assert!(trace.failed.is_none());
        // The body of `r` read `a`.
        let body = trace
            .exprs
            .iter()
            .find(|e| map.get(file).slice(e.span) == "{ n = a }")
            .unwrap();
        assert_eq!(body.instance.as_deref(), Some("r"));
        assert!(body.variables.contains_key("a"));
    }
}
