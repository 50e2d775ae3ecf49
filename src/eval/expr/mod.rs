//! Evaluation of HCL native-syntax expressions with Go HCL v2.24's semantics: hclsyntax's
//! `Value` methods (expression.go, expression_ops.go, expression_template.go), the root
//! package's traversal and index helpers (`TraverseAbs`, `TraverseRel`, `GetAttr`, `Index`),
//! cty's operators as the stdlib operator functions run them through cty's function calling
//! convention, and `try`/`can` as `ext/tryfunc` implements them.
//!
//! Values, unknown propagation, diagnostic summaries, details and subject ranges follow Go.
//! Every evaluation diagnostic has code [`Code::T301`]; Go's `Context` ranges are not kept
//! (our diagnostics carry one primary span, Go's `Subject`).
//!
//! Not modelled: value marks, cty's numeric-range and collection-length refinements (our
//! [`Refinement`](super::Refinement) holds only "not null" and a string prefix, so results
//! that cty would only refine stay plainly unknown), and the Go stack trace in the text of a
//! recovered panic.

use super::num::Num;
use super::scope::Scope;
use super::value::Value;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::{Expr, ExprKind, Literal, TextRange, between};

mod call;
mod collections;
mod conditional;
mod for_expr;
mod ops;
mod template;
mod traversal;
mod vars;

#[cfg(test)]
mod tests;

pub use vars::{VarRef, traverse_reference, unknown_references, variables};

/// Evaluates `expr` (parsed from `file`) in `scope`, as hcl's `Expression.Value(ctx)`.
///
/// Without a [`SourceMap`], positions inside `try`'s "no expression succeeded" message are
/// written as byte ranges; use [`Evaluator::with_sources`] for Go's `file:line,col-col` text.
pub fn eval(expr: &Expr, file: FileId, scope: &Scope) -> (Value, Vec<Diagnostic>) {
    Evaluator::new(file).eval(expr, scope)
}

/// Evaluates expressions of one file.
#[derive(Clone, Copy, Debug)]
pub struct Evaluator<'a> {
    /// The file the expressions were parsed from (diagnostic spans point into it).
    pub file: FileId,
    /// Source texts, to print ranges as Go's `Range.String()` does inside messages.
    pub sources: Option<&'a SourceMap>,
    /// Where to record how the arguments of `try` and `can` fared (`check`'s probe).
    pub tries: Option<&'a TryLog>,
}

/// How often each `try`/`can` argument (by its range) failed, succeeded or was not known.
#[derive(Debug, Default)]
pub struct TryLog {
    entries: std::cell::RefCell<std::collections::HashMap<Span, TryOutcomes>>,
}

/// The outcomes of one `try`/`can` argument.
#[derive(Clone, Debug, Default)]
pub struct TryOutcomes {
    /// Evaluations with errors.
    pub failed: u32,
    /// Evaluations to a wholly known value.
    pub succeeded: u32,
    /// Evaluations to a value that is not wholly known.
    pub unknown: u32,
    /// The first error of the first failed evaluation.
    pub first_error: Option<Diagnostic>,
}

impl TryLog {
    fn record(&self, span: Span, value: &Value, diags: &[Diagnostic]) {
        let mut entries = self.entries.borrow_mut();
        let entry = entries.entry(span).or_default();
        if let Some(error) = diags.iter().find(|d| d.severity == Severity::Error) {
            entry.failed += 1;
            if entry.first_error.is_none() {
                entry.first_error = Some(error.clone());
            }
        } else if value.is_wholly_known() {
            entry.succeeded += 1;
        } else {
            entry.unknown += 1;
        }
    }

    /// Every argument seen, sorted by range.
    pub fn outcomes(&self) -> Vec<(Span, TryOutcomes)> {
        let mut all: Vec<(Span, TryOutcomes)> = self
            .entries
            .borrow()
            .iter()
            .map(|(span, o)| (*span, o.clone()))
            .collect();
        all.sort_by_key(|(span, _)| *span);
        all
    }
}

impl<'a> Evaluator<'a> {
    /// An evaluator for expressions of `file`.
    pub fn new(file: FileId) -> Evaluator<'a> {
        Evaluator {
            file,
            sources: None,
            tries: None,
        }
    }

    /// Uses `sources` to print ranges inside messages (`main.hcl:3,5-9`).
    pub fn with_sources(mut self, sources: &'a SourceMap) -> Evaluator<'a> {
        self.sources = Some(sources);
        self
    }

    /// Records the outcomes of `try` and `can` arguments in `log`.
    pub fn with_try_log(mut self, log: &'a TryLog) -> Evaluator<'a> {
        self.tries = Some(log);
        self
    }

    /// Evaluates `expr` in `scope`: the value and the diagnostics, as hcl's `Value(ctx)`.
    pub fn eval(&self, expr: &Expr, scope: &Scope) -> (Value, Vec<Diagnostic>) {
        Run::new(*self).eval(expr, scope)
    }
}

/// hcl's `StartRange` of an expression (where "Invalid function argument" and similar
/// diagnostics point): a call's name and `(`, a tuple's `[`, an operation's first operand….
pub fn start_range(expr: &Expr) -> TextRange {
    let first_byte = |span: &TextRange| span.start..(span.start + 1).min(span.end.max(span.start));
    match &expr.kind {
        ExprKind::Template(parts) => parts.first().map_or(expr.span.clone(), start_range),
        // The template's one literal part.
        ExprKind::QuotedLiteral(_) => expr.quoted_text_span(),
        // The `%{ for … }` directive: we keep no range for its closing brace, so this ends
        // at the collection expression.
        ExprKind::TemplateJoin(inner) => match &inner.kind {
            ExprKind::For(f) => inner.span.start..f.collection.span.end,
            _ => start_range(inner),
        },
        ExprKind::Call {
            name_span,
            open_paren,
            ..
        } => between(name_span, open_paren),
        ExprKind::Conditional { condition, .. } => start_range(condition),
        ExprKind::Binary { lhs, .. } => start_range(lhs),
        ExprKind::Unary { symbol, .. } => symbol.clone(),
        ExprKind::Tuple(_) | ExprKind::Object(_) | ExprKind::For(_) => first_byte(&expr.span),
        ExprKind::Index { bracket, .. } => first_byte(bracket),
        ExprKind::Splat { marker, .. } => marker.clone(),
        ExprKind::Parens(inner) => start_range(inner),
        _ => expr.span.clone(),
    }
}

/// A function argument: an expression, or an element of an expanded (`...`) argument, which
/// hcl turns into a literal with the expanded expression's range.
#[derive(Clone)]
enum Arg<'e> {
    Expr(&'e Expr),
    Value(Value, TextRange),
}

impl Arg<'_> {
    /// The argument's whole range (the expanded expression's for an expanded element).
    fn range(&self) -> TextRange {
        match self {
            Arg::Expr(e) => e.span.clone(),
            Arg::Value(_, range) => range.clone(),
        }
    }

    fn start_range(&self) -> TextRange {
        match self {
            Arg::Expr(e) => start_range(e),
            Arg::Value(_, range) => range.clone(),
        }
    }
}

type Diags = Vec<Diagnostic>;

fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

/// One evaluation: the evaluator and the values of the splats being iterated (innermost last).
struct Run<'a> {
    ev: Evaluator<'a>,
    items: Vec<Value>,
}

impl<'a> Run<'a> {
    fn new(ev: Evaluator<'a>) -> Run<'a> {
        Run {
            ev,
            items: Vec::new(),
        }
    }
}

impl Run<'_> {
    fn diag(&self, summary: &str, detail: impl Into<String>, subject: &TextRange) -> Diagnostic {
        Diagnostic::new(Code::T301, summary)
            .with_detail(detail)
            .with_primary(Span::of(self.ev.file, subject), None)
    }

    /// A span in the file being evaluated.
    fn span(&self, range: &TextRange) -> Span {
        Span::of(self.ev.file, range)
    }

    /// A diagnostic about a whole sub-expression: its range is both the subject and Go's
    /// `Expression`.
    fn diag_expr(
        &self,
        summary: &str,
        detail: impl Into<String>,
        subject: &TextRange,
    ) -> Diagnostic {
        self.diag(summary, detail, subject)
            .with_expression(self.span(subject))
    }

    fn eval(&mut self, expr: &Expr, scope: &Scope) -> (Value, Diags) {
        crate::eval::deadline::checkpoint();
        // The leaves recurse into nothing, so they need no stack check or unwind guard.
        match &expr.kind {
            // A literal spends no budget and fails nowhere.
            ExprKind::Literal(lit) => return (literal(lit), Vec::new()),
            // A string of literal text: its budget charge names its own range (nothing
            // inner to locate), and a string nests nothing.
            ExprKind::QuotedLiteral(text) => {
                if let Some(value) = self.literal_text(text, &expr.quoted_text_span()) {
                    return (value, Vec::new());
                }
            }
            // A variable in scope, named alone (`x`, `each`): its value, which is a result
            // like any other and so held to the depth limit (else the full path says so).
            ExprKind::Traversal { root, steps, .. } if steps.is_empty() => {
                if let Some(value) = scope.lookup(root)
                    && value.depth() <= crate::eval::value::MAX_VALUE_DEPTH
                {
                    return (value.clone(), Vec::new());
                }
            }
            _ => {}
        }
        let (mut val, mut diags) = stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            // The innermost expression names where the evaluation's budget ran out: the
            // payload goes on with its span (nothing is caught on the way that works).
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.eval_inner(expr, scope)
            }))
            .unwrap_or_else(|payload| {
                std::panic::resume_unwind(crate::eval::budget::locate(
                    payload,
                    self.span(&expr.span),
                ))
            })
        });
        if val.depth() > crate::eval::value::MAX_VALUE_DEPTH {
            diags.push(self.diag_expr(
                "Value nested too deeply",
                format!(
                    "This value nests collections more than {} levels deep, fnhcl's limit.",
                    crate::eval::value::MAX_VALUE_DEPTH
                ),
                &expr.span,
            ));
            // hcl's error placeholder, as for any failed expression.
            val = Value::dynamic();
        }
        // hcl names the expression that failed on every diagnostic (`Expression`): the node
        // itself unless the diagnostic was about one of its parts.
        for d in diags.iter_mut().filter(|d| d.expression.is_none()) {
            d.expression = Some(self.span(&expr.span));
        }
        (val, diags)
    }

    fn eval_inner(&mut self, expr: &Expr, scope: &Scope) -> (Value, Diags) {
        match &expr.kind {
            ExprKind::Literal(lit) => (literal(lit), Vec::new()),
            ExprKind::Template(parts) => self.template(parts, scope),
            ExprKind::QuotedLiteral(text) => self.quoted_literal(expr, text, scope),
            ExprKind::TemplateWrap(inner) | ExprKind::Parens(inner) => self.eval(inner, scope),
            ExprKind::TemplateJoin(inner) => self.template_join(expr, inner, scope),
            ExprKind::Traversal {
                root,
                root_span,
                steps,
            } => self.traverse_abs(root, root_span, steps, scope),
            ExprKind::RelativeTraversal { source, steps } => {
                let (src, mut diags) = self.eval(source, scope);
                let (val, more) = self.traverse_rel(src, steps);
                diags.extend(more);
                (val, diags)
            }
            ExprKind::Call {
                name,
                name_span,
                args,
                expand_final,
                ..
            } => self.call(expr, name, name_span, args, *expand_final, scope),
            ExprKind::Conditional {
                condition,
                if_true,
                if_false,
            } => self.conditional(condition, if_true, if_false, scope),
            ExprKind::Binary { op, lhs, rhs } => self.binary(expr, *op, lhs, rhs, scope),
            ExprKind::Unary { op, operand, .. } => self.unary(expr, *op, operand, scope),
            ExprKind::Tuple(items) => {
                let mut diags = Vec::new();
                let mut vals = Vec::with_capacity(items.len());
                for item in items {
                    let (val, more) = self.eval(item, scope);
                    vals.push(val);
                    diags.extend(more);
                }
                (Value::Tuple(vals.into()), diags)
            }
            ExprKind::Object(items) => self.object(items, scope),
            ExprKind::For(f) => self.for_expr(f, scope),
            ExprKind::Index {
                collection,
                key,
                bracket,
            } => {
                let (coll, mut diags) = self.eval(collection, scope);
                let (key, more) = self.eval(key, scope);
                diags.extend(more);
                let (val, more) = self.index(&coll, &key, bracket);
                diags.extend(more);
                (val, diags)
            }
            ExprKind::Splat { source, each, .. } => self.splat(source, each, scope),
            ExprKind::SplatItem => (
                self.items.last().cloned().unwrap_or_else(Value::dynamic),
                Vec::new(),
            ),
            ExprKind::Error => (Value::dynamic(), Vec::new()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The value of a literal in the tree (`LiteralValueExpr.Val`).
fn literal(lit: &Literal) -> Value {
    match lit {
        Literal::Null => Value::null(),
        Literal::Bool(b) => Value::bool(*b),
        Literal::Number(text) => Num::parse(text).map_or_else(Value::dynamic, Value::Number),
        Literal::String(s) => Value::string(s),
        Literal::Unknown => Value::dynamic(),
    }
}

use crate::gostd::strconv::quote as go_quote;
