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
//! [`Refinement`] holds only "not null" and a string prefix, so results that cty would only
//! refine stay plainly unknown), and the Go stack trace in the text of a recovered panic.

use super::convert;
use super::functions::{Function, FunctionError, Param, Special};
use super::num::Num;
use super::scope::Scope;
use super::types::Type;
use super::value::{Refinement, Value};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::{
    BinaryOp, Expr, ExprKind, ForExpr, Literal, ObjectItem, Step, TextRange, UnaryOp, between,
};
use crate::syntax::suggest::name_suggestion;
use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

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
}

impl<'a> Evaluator<'a> {
    /// An evaluator for expressions of `file`.
    pub fn new(file: FileId) -> Evaluator<'a> {
        Evaluator {
            file,
            sources: None,
        }
    }

    /// Uses `sources` to print ranges inside messages (`main.hcl:3,5-9`).
    pub fn with_sources(mut self, sources: &'a SourceMap) -> Evaluator<'a> {
        self.sources = Some(sources);
        self
    }

    /// Evaluates `expr` in `scope`: the value and the diagnostics, as hcl's `Value(ctx)`.
    pub fn eval(&self, expr: &Expr, scope: &Scope) -> (Value, Vec<Diagnostic>) {
        let mut run = Run {
            ev: *self,
            items: Vec::new(),
        };
        run.eval(expr, scope)
    }
}

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
    let mut locals: Vec<Vec<&str>> = Vec::new();
    walk_variables(expr, &mut locals, &mut out);
    out
}

fn walk_variables<'e>(expr: &'e Expr, locals: &mut Vec<Vec<&'e str>>, out: &mut Vec<VarRef<'e>>) {
    match &expr.kind {
        ExprKind::Traversal {
            root,
            root_span,
            steps,
        } => {
            if !locals.iter().any(|names| names.contains(&root.as_str())) {
                out.push(VarRef {
                    root,
                    root_span,
                    steps,
                    span: &expr.span,
                });
            }
        }
        ExprKind::Literal(_) | ExprKind::SplatItem | ExprKind::Error => {}
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
            let mut names = vec![f.value_var.as_str()];
            if let Some(key) = &f.key_var {
                names.push(key);
            }
            locals.push(names);
            if let Some(key) = &f.key {
                walk_variables(key, locals, out);
            }
            walk_variables(&f.value, locals, out);
            if let Some(cond) = &f.condition {
                walk_variables(cond, locals, out);
            }
            locals.pop();
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

/// The references in `expr` (as [`variables`] finds them) whose values in `scope` are not
/// wholly known, written as in the source (`req.resource.a`, `x[0]`), without repeats, in
/// order of appearance. A step that cannot be applied ends the reference before it; names
/// the scope does not define are left out.
pub fn unknown_references(expr: &Expr, scope: &Scope) -> Vec<String> {
    let run = Run {
        ev: Evaluator::new(FileId::first()),
        items: Vec::new(),
    };
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

/// hcl's `ExprAsKeyword`: a bare name (a one-step traversal) or the `null`/`true`/`false`
/// keywords the parser turned into literals.
fn keyword(expr: &Expr) -> Option<String> {
    match &expr.kind {
        ExprKind::Traversal { root, steps, .. } if steps.is_empty() => Some(root.clone()),
        ExprKind::Literal(Literal::Null) => Some("null".into()),
        ExprKind::Literal(Literal::Bool(b)) => Some(b.to_string()),
        _ => None,
    }
}

/// hcl's `StartRange` of an expression (where "Invalid function argument" and similar
/// diagnostics point): a call's name and `(`, a tuple's `[`, an operation's first operand….
pub fn start_range(expr: &Expr) -> TextRange {
    let first_byte = |span: &TextRange| span.start..(span.start + 1).min(span.end.max(span.start));
    match &expr.kind {
        ExprKind::Template(parts) => parts.first().map_or(expr.span.clone(), start_range),
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

impl Run<'_> {
    fn diag(&self, summary: &str, detail: impl Into<String>, subject: &TextRange) -> Diagnostic {
        Diagnostic::new(Code::T301, summary)
            .with_detail(detail)
            .with_primary(
                Span::new(self.ev.file, subject.start as usize..subject.end as usize),
                None,
            )
    }

    fn eval(&mut self, expr: &Expr, scope: &Scope) -> (Value, Diags) {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.eval_inner(expr, scope))
    }

    fn eval_inner(&mut self, expr: &Expr, scope: &Scope) -> (Value, Diags) {
        match &expr.kind {
            ExprKind::Literal(lit) => (literal(lit), Vec::new()),
            ExprKind::Template(parts) => self.template(parts, scope),
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
                (Value::Tuple(vals), diags)
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

    // -----------------------------------------------------------------------------------------
    // Traversals (hcl's traversal.go and ops.go)
    // -----------------------------------------------------------------------------------------

    /// `Traversal.TraverseAbs`.
    fn traverse_abs(
        &mut self,
        root: &str,
        root_span: &TextRange,
        steps: &[Step],
        scope: &Scope,
    ) -> (Value, Diags) {
        if let Some(val) = scope.lookup(root) {
            return self.traverse_rel(val.clone(), steps);
        }
        if !scope.has_variables() {
            let d = self.diag(
                "Variables not allowed",
                "Variables may not be used here.",
                root_span,
            );
            return (Value::dynamic(), vec![d]);
        }
        let names = scope.variable_names();
        let suggestion = name_suggestion(root, &names)
            .map(|s| format!(" Did you mean {}?", go_quote(s)))
            .unwrap_or_default();
        let d = self.diag(
            "Unknown variable",
            format!("There is no variable named {}.{suggestion}", go_quote(root)),
            root_span,
        );
        (Value::dynamic(), vec![d])
    }

    /// `Traversal.TraverseRel`: stops at the first step with errors.
    fn traverse_rel(&mut self, val: Value, steps: &[Step]) -> (Value, Diags) {
        let mut current = val;
        let mut diags = Vec::new();
        for step in steps {
            let (next, more) = match step {
                Step::Attr { name, span } => self.get_attr(&current, name, span),
                Step::Index { key, span } => self.index(&current, &literal(key), span),
            };
            let failed = has_errors(&more);
            diags.extend(more);
            if failed {
                return (Value::dynamic(), diags);
            }
            current = next;
        }
        (current, diags)
    }

    /// hcl's `GetAttr`.
    fn get_attr(&self, obj: &Value, name: &str, range: &TextRange) -> (Value, Diags) {
        const UNSUPPORTED: &str = "Unsupported attribute";
        let fail = |summary: &str, detail: String| {
            (Value::dynamic(), vec![self.diag(summary, detail, range)])
        };
        if obj.is_null() {
            return fail(
                "Attempt to get attribute from null value",
                "This value is null, so it does not have any attributes.".into(),
            );
        }
        let key: String = name.nfc().collect();
        match obj.ty() {
            Type::Object(attrs) => {
                let Some(aty) = attrs.get(&key) else {
                    return fail(
                        UNSUPPORTED,
                        format!(
                            "This object does not have an attribute named {}.",
                            go_quote(name)
                        ),
                    );
                };
                match obj {
                    Value::Object(items) => (
                        items
                            .get(&key)
                            .cloned()
                            .unwrap_or_else(|| Value::unknown(aty.clone())),
                        Vec::new(),
                    ),
                    _ => (Value::unknown(aty.clone()), Vec::new()),
                }
            }
            Type::Map(elem) => match obj {
                Value::Map { items, .. } => match items.get(&key) {
                    Some(v) => (v.clone(), Vec::new()),
                    None => fail(
                        "Missing map element",
                        format!(
                            "This map does not have an element with the key {}.",
                            go_quote(name)
                        ),
                    ),
                },
                _ => (Value::unknown(*elem), Vec::new()),
            },
            Type::Dynamic => (Value::dynamic(), Vec::new()),
            Type::List(elem) if matches!(*elem, Type::Object(_)) => {
                let has = matches!(&*elem, Type::Object(attrs) if attrs.contains_key(&key));
                if has {
                    fail(
                        UNSUPPORTED,
                        format!(
                            "Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?",
                            go_quote(name)
                        ),
                    )
                } else {
                    fail(
                        UNSUPPORTED,
                        "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?".into(),
                    )
                }
            }
            Type::Set(elem) if matches!(*elem, Type::Object(_)) => fail(
                UNSUPPORTED,
                "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?".into(),
            ),
            ty if ty.is_primitive() => fail(
                UNSUPPORTED,
                format!(
                    "Can't access attributes on a primitive-typed value ({}).",
                    ty.friendly_name()
                ),
            ),
            _ => fail(
                UNSUPPORTED,
                "This value does not have any attributes.".into(),
            ),
        }
    }

    /// hcl's `Index`.
    fn index(&self, coll: &Value, key: &Value, range: &TextRange) -> (Value, Diags) {
        const INVALID: &str = "Invalid index";
        const NO_ELEMENT: &str =
            "The given key does not identify an element in this collection value";
        let fail = |summary: &str, detail: String| {
            (Value::dynamic(), vec![self.diag(summary, detail, range)])
        };
        if coll.is_null() {
            return fail(
                "Attempt to index null value",
                "This value is null, so it does not have any indices.".into(),
            );
        }
        if key.is_null() {
            return fail(INVALID, "Can't use a null value as an indexing key.".into());
        }
        let ty = coll.ty();
        if key.ty() == Type::Dynamic || ty == Type::Dynamic {
            return (Value::dynamic(), Vec::new());
        }
        match &ty {
            Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
                let want = if matches!(ty, Type::Map(_)) {
                    Type::String
                } else {
                    Type::Number
                };
                let key = match convert::convert(key, &want) {
                    Ok(k) => k,
                    Err(e) => return fail(INVALID, format!("{NO_ELEMENT}: {e}.")),
                };
                match has_index(coll, &key) {
                    None => {
                        let val = match &ty {
                            Type::Tuple(_) => Value::dynamic(),
                            Type::List(elem) | Type::Map(elem) => Value::unknown((**elem).clone()),
                            _ => Value::dynamic(),
                        };
                        (val, Vec::new())
                    }
                    Some(false) => {
                        if let (Type::List(_) | Type::Tuple(_), Value::Number(n)) = (&ty, &key) {
                            if !n.is_int() {
                                return fail(
                                    INVALID,
                                    format!("{NO_ELEMENT}: indexing a sequence requires a whole number, but the given index has a fractional part."),
                                );
                            }
                            if n.is_neg() && !n.is_zero() {
                                return fail(
                                    INVALID,
                                    format!("{NO_ELEMENT}: a negative number is not a valid index for a sequence."),
                                );
                            }
                            let len = match (&ty, coll) {
                                (Type::Tuple(elems), _) => Some(elems.len()),
                                (_, Value::List { items, .. }) => Some(items.len()),
                                _ => None,
                            };
                            if let Some(len) = len {
                                let len_num = Num::from_i64(len as i64);
                                // hcl tests `key - len < 1` as a sign: only `key == len` gets
                                // the specific messages.
                                let at_end = n
                                    .sub(&len_num)
                                    .map(|d| d.is_zero() || d.is_neg())
                                    .unwrap_or(false);
                                if at_end {
                                    let detail = if len == 0 {
                                        format!("{NO_ELEMENT}: the collection has no elements.")
                                    } else {
                                        format!("{NO_ELEMENT}: the given index is greater than or equal to the length of the collection.")
                                    };
                                    return fail(INVALID, detail);
                                }
                            }
                        }
                        fail(INVALID, format!("{NO_ELEMENT}."))
                    }
                    Some(true) => (element_at(coll, &key), Vec::new()),
                }
            }
            Type::Object(attrs) => {
                let was_number = key.ty() == Type::Number;
                let key = match convert::convert(key, &Type::String) {
                    Ok(k) => k,
                    Err(e) => return fail(INVALID, format!("{NO_ELEMENT}: {e}.")),
                };
                let Value::String(name) = &key else {
                    return (Value::dynamic(), Vec::new());
                };
                let Some(aty) = attrs.get(name) else {
                    let suggestion = if was_number {
                        " An object only supports looking up attributes by name, not by numeric index."
                    } else {
                        ""
                    };
                    return fail(INVALID, format!("{NO_ELEMENT}.{suggestion}"));
                };
                match coll {
                    Value::Object(items) => (
                        items
                            .get(name)
                            .cloned()
                            .unwrap_or_else(|| Value::unknown(aty.clone())),
                        Vec::new(),
                    ),
                    _ => (Value::unknown(aty.clone()), Vec::new()),
                }
            }
            Type::Set(_) => fail(
                INVALID,
                "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".into(),
            ),
            _ => fail(INVALID, "This value does not have any indices.".into()),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Function calls (FunctionCallExpr.Value, cty's Function.Call, ext/tryfunc)
    // -----------------------------------------------------------------------------------------

    fn call(
        &mut self,
        expr: &Expr,
        name: &str,
        name_span: &TextRange,
        arg_exprs: &[Expr],
        expand_final: bool,
        scope: &Scope,
    ) -> (Value, Diags) {
        let Some(f) = find_function(scope, name) else {
            return (
                Value::dynamic(),
                vec![self.unknown_function(expr, name, name_span, scope)],
            );
        };
        let mut diags = Vec::new();
        let params = &f.params;
        let var_param = f.var_param.as_ref();
        let mut args: Vec<Arg> = arg_exprs.iter().map(Arg::Expr).collect();

        if expand_final && let Some(expand_expr) = arg_exprs.last() {
            let (expand_val, expand_diags) = self.eval(expand_expr, scope);
            let failed = has_errors(&expand_diags);
            diags.extend(expand_diags);
            if failed {
                return (Value::dynamic(), diags);
            }
            let ty = expand_val.ty();
            let null_diag = |run: &Self| {
                run.diag(
                    "Invalid expanding argument value",
                    "The expanding argument (indicated by ...) must not be null.",
                    &expand_expr.span,
                )
            };
            match ty {
                Type::Dynamic => {
                    if expand_val.is_null() {
                        diags.push(null_diag(self));
                    }
                    return (Value::dynamic(), diags);
                }
                Type::Tuple(_) | Type::List(_) | Type::Set(_) => {
                    if expand_val.is_null() {
                        diags.push(null_diag(self));
                        return (Value::dynamic(), diags);
                    }
                    if !expand_val.is_known() {
                        return (Value::dynamic(), diags);
                    }
                    args.pop();
                    for item in expand_val.elements() {
                        args.push(Arg::Value(item.clone(), expand_expr.span.clone()));
                    }
                }
                _ => {
                    diags.push(self.diag(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                        &expand_expr.span,
                    ));
                    return (Value::dynamic(), diags);
                }
            }
        }

        if args.len() < params.len() {
            let missing = &params[args.len()];
            let qual = if var_param.is_some() { " at least" } else { "" };
            let close = expr.span.end.saturating_sub(1)..expr.span.end;
            let d = self.diag(
                "Not enough function arguments",
                format!(
                    "Function {} expects{qual} {} argument(s). Missing value for {}.",
                    go_quote(name),
                    params.len(),
                    go_quote(missing.name)
                ),
                &close,
            );
            return (Value::dynamic(), vec![d]);
        }
        if var_param.is_none() && args.len() > params.len() {
            let d = self.diag(
                "Too many function arguments",
                format!(
                    "Function {} expects only {} argument(s).",
                    go_quote(name),
                    params.len()
                ),
                &args[params.len()].start_range(),
            );
            return (Value::dynamic(), vec![d]);
        }

        let result = match f.special {
            // `try` and `can` take their arguments as expression closures (hcl's customdecode),
            // so nothing is evaluated or converted here.
            Special::Try => self.try_fn(&args, scope),
            Special::Can => match args.first() {
                Some(arg) => Ok(self.can_fn(arg, scope)),
                None => Err(FunctionError::other("at least one argument is required")),
            },
            Special::None => {
                let mut vals = Vec::with_capacity(args.len());
                for (i, arg) in args.iter().enumerate() {
                    let Some(param) = params.get(i).or(var_param) else {
                        break;
                    };
                    let val = match arg {
                        Arg::Expr(e) => {
                            let (val, more) = self.eval(e, scope);
                            diags.extend(more);
                            val
                        }
                        Arg::Value(val, _) => val.clone(),
                    };
                    match convert::convert(&val, &param.ty) {
                        Ok(v) => vals.push(v),
                        Err(err) => {
                            diags.push(self.diag(
                                "Invalid function argument",
                                format!(
                                    "Invalid value for {} parameter: {err}.",
                                    go_quote(param.name)
                                ),
                                &arg.start_range(),
                            ));
                            vals.push(Value::dynamic());
                        }
                    }
                }
                if has_errors(&diags) {
                    return (Value::dynamic(), diags);
                }
                call_function(f, vals)
            }
        };

        match result {
            Ok(val) => (val, diags),
            Err(err) => {
                diags.push(self.call_error(expr, name, &args, params, var_param, err));
                (Value::dynamic(), diags)
            }
        }
    }

    /// "Call to unknown function" (or "Function calls not allowed" without any functions).
    fn unknown_function(
        &self,
        expr: &Expr,
        name: &str,
        name_span: &TextRange,
        scope: &Scope,
    ) -> Diagnostic {
        let mut level = Some(scope);
        let mut any_table = false;
        while let Some(s) = level {
            any_table |= s.functions.is_some();
            level = s.parent;
        }
        if !any_table {
            return self.diag(
                "Function calls not allowed",
                "Functions may not be called here.",
                &expr.span,
            );
        }
        // As in hcl, suggestions come from this scope's own table only, not its parents'.
        let available: Vec<&str> = scope
            .functions
            .map(|t| t.names().collect())
            .unwrap_or_default();
        const SUMMARY: &str = "Call to unknown function";
        if let Some(sep) = name.rfind("::") {
            let namespace = &name[..sep + 2];
            let bare = &name[sep + 2..];
            let in_namespace: Vec<&str> = available
                .iter()
                .copied()
                .filter(|n| n.starts_with(namespace))
                .collect();
            if in_namespace.is_empty() {
                return self.diag(
                    SUMMARY,
                    format!(
                        "There are no functions in namespace {}.",
                        go_quote(namespace)
                    ),
                    name_span,
                );
            }
            let suggestion = name_suggestion(bare, &in_namespace)
                .map(|s| format!(" Did you mean {namespace}{s}?"))
                .unwrap_or_default();
            return self.diag(
                SUMMARY,
                format!(
                    "There is no function named {} in namespace {namespace}.{suggestion}",
                    go_quote(bare)
                ),
                name_span,
            );
        }
        let suggestion = name_suggestion(name, &available)
            .map(|s| format!(" Did you mean {}?", go_quote(s)))
            .unwrap_or_default();
        self.diag(
            SUMMARY,
            format!("There is no function named {}.{suggestion}", go_quote(name)),
            name_span,
        )
    }

    /// The diagnostic for a failed call (`function.ArgError` or any other error).
    fn call_error(
        &self,
        expr: &Expr,
        name: &str,
        args: &[Arg],
        params: &[Param],
        var_param: Option<&Param>,
        err: FunctionError,
    ) -> Diagnostic {
        let call_failed = |message: &str| {
            self.diag(
                "Error in function call",
                format!("Call to function {} failed: {message}.", go_quote(name)),
                &start_range(expr),
            )
        };
        match err {
            FunctionError::Arg { index, message } => {
                let param = params.get(index).or(var_param);
                match (param, args.get(index)) {
                    (Some(param), Some(arg)) => self.diag(
                        "Invalid function argument",
                        format!(
                            "Invalid value for {} parameter: {message}.",
                            go_quote(param.name)
                        ),
                        &arg.start_range(),
                    ),
                    (Some(param), None) => self.diag(
                        "Invalid function argument",
                        format!(
                            "Invalid value for {} parameter: {message}.",
                            go_quote(param.name)
                        ),
                        &expr.span,
                    ),
                    (None, _) => call_failed(&message),
                }
            }
            FunctionError::Other(message) => call_failed(&message),
        }
    }

    fn eval_arg(&mut self, arg: &Arg, scope: &Scope) -> (Value, Diags) {
        match arg {
            Arg::Expr(e) => self.eval(e, scope),
            Arg::Value(val, _) => (val.clone(), Vec::new()),
        }
    }

    /// tryfunc's `try` (hcl v2.24): the first argument that evaluates without errors;
    /// `DynamicVal` if that one is not wholly known. (hcl before v2.18 instead gave up when an
    /// argument merely referenced an unknown variable; v2.24 judges the value.)
    fn try_fn(&mut self, args: &[Arg], scope: &Scope) -> Result<Value, FunctionError> {
        if args.is_empty() {
            return Err(FunctionError::other("at least one argument is required"));
        }
        let mut diags = Vec::new();
        for arg in args {
            let (val, more) = self.eval_arg(arg, scope);
            let failed = has_errors(&more);
            diags.extend(more);
            if failed {
                continue;
            }
            if !val.is_wholly_known() {
                return Ok(Value::dynamic());
            }
            return Ok(val);
        }
        let mut buf = String::from("no expression succeeded:\n");
        for d in &diags {
            let detail = d.detail.as_deref().unwrap_or("");
            match &d.primary {
                Some(label) => buf.push_str(&format!(
                    "- {} (at {})\n  {}\n",
                    d.summary,
                    self.range_text(label.span),
                    detail
                )),
                None => buf.push_str(&format!("- {}\n  {}\n", d.summary, detail)),
            }
        }
        buf.push_str("\nAt least one expression must produce a successful result");
        Err(FunctionError::other(buf))
    }

    /// tryfunc's `can`.
    fn can_fn(&mut self, arg: &Arg, scope: &Scope) -> Value {
        let (val, diags) = self.eval_arg(arg, scope);
        if has_errors(&diags) {
            Value::bool(false)
        } else if !val.is_wholly_known() {
            Value::unknown(Type::Bool)
        } else {
            Value::bool(true)
        }
    }

    /// Go's `Range.String()` for a span, or a byte range without source texts.
    fn range_text(&self, span: Span) -> String {
        match self.ev.sources {
            Some(map) => map.range_text(span),
            None => format!("{}-{}", span.start, span.end),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Conditionals
    // -----------------------------------------------------------------------------------------

    fn conditional(
        &mut self,
        condition: &Expr,
        if_true: &Expr,
        if_false: &Expr,
        scope: &Scope,
    ) -> (Value, Diags) {
        let (true_val, true_diags) = self.eval(if_true, scope);
        let (false_val, false_diags) = self.eval(if_false, scope);
        let mut diags = Vec::new();
        let is_dynamic_null = |v: &Value| matches!(v, Value::Null(Type::Dynamic));

        let mut convs: [Option<convert::Conversion>; 2] = [None, None];
        let result_ty = if is_dynamic_null(&true_val) {
            let ty = false_val.ty();
            convs[0] = convert::get_conversion_unsafe(&Type::Dynamic, &ty);
            ty
        } else if is_dynamic_null(&false_val) {
            let ty = true_val.ty();
            convs[1] = convert::get_conversion_unsafe(&Type::Dynamic, &ty);
            ty
        } else if true_val.ty() == Type::Dynamic || false_val.ty() == Type::Dynamic {
            Type::Dynamic
        } else {
            match convert::unify_unsafe_conversions(&[true_val.ty(), false_val.ty()]) {
                Some((ty, found)) => {
                    let mut found = found.into_iter();
                    convs = [found.next().flatten(), found.next().flatten()];
                    ty
                }
                None => {
                    let d = self.diag(
                        "Inconsistent conditional result types",
                        format!(
                            "The true and false result expressions must have consistent types. {}.",
                            describe_type_mismatch(&true_val.ty(), &false_val.ty())
                        ),
                        &between(&if_true.span, &if_false.span),
                    );
                    return (Value::dynamic(), vec![d]);
                }
            }
        };

        let (cond, cond_diags) = self.eval(condition, scope);
        diags.extend(cond_diags);
        if cond.is_null() {
            diags.push(self.diag(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                &condition.span,
            ));
            return (Value::unknown(result_ty), diags);
        }
        if !cond.is_known() {
            if true_val.is_null() && false_val.is_null() {
                return (Value::Null(result_ty), diags);
            }
            return (
                unknown_branch_result(&true_val, &false_val, result_ty),
                diags,
            );
        }
        let cond = match convert::convert(&cond, &Type::Bool) {
            Ok(c) => c,
            Err(_) => {
                diags.push(self.diag(
                    "Incorrect condition type",
                    "The condition expression must be of type bool.",
                    &condition.span,
                ));
                return (Value::unknown(result_ty), diags);
            }
        };
        let (chosen, chosen_diags, conv, branch, which) = if matches!(cond, Value::Bool(true)) {
            (true_val, true_diags, &convs[0], if_true, "true")
        } else {
            (false_val, false_diags, &convs[1], if_false, "false")
        };
        diags.extend(chosen_diags);
        let Some(conv) = conv else {
            return (chosen, diags);
        };
        match conv(&chosen) {
            Ok(v) => (v, diags),
            Err(err) => {
                diags.push(self.diag(
                    "Inconsistent conditional result types",
                    format!("The {which} result value has the wrong type: {err}."),
                    &branch.span,
                ));
                (Value::unknown(result_ty), diags)
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Operators (expression_ops.go, with the cty stdlib operator functions)
    // -----------------------------------------------------------------------------------------

    fn binary(
        &mut self,
        expr: &Expr,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        scope: &Scope,
    ) -> (Value, Diags) {
        let (param_ty, ret_ty) = op_types(op);
        let mut diags = Vec::new();

        let (given_lhs, lhs_diags) = self.eval(lhs, scope);
        let lhs_val = match convert::convert(&given_lhs, &param_ty) {
            Ok(v) => v,
            Err(err) => {
                diags.push(self.diag(
                    "Invalid operand",
                    format!("Unsuitable value for left operand: {err}."),
                    &lhs.span,
                ));
                Value::dynamic()
            }
        };
        let (given_rhs, rhs_diags) = self.eval(rhs, scope);
        let rhs_val = match convert::convert(&given_rhs, &param_ty) {
            Ok(v) => v,
            Err(err) => {
                diags.push(self.diag(
                    "Invalid operand",
                    format!("Unsuitable value for right operand: {err}."),
                    &rhs.span,
                ));
                Value::dynamic()
            }
        };
        if has_errors(&diags) {
            diags.extend(lhs_diags);
            diags.extend(rhs_diags);
            return (Value::unknown(ret_ty), diags);
        }

        if matches!(op, BinaryOp::Or | BinaryOp::And)
            && let Some(forced) = short_circuit(op, &lhs_val, &rhs_val, &lhs_diags, &rhs_diags)
        {
            return forced;
        }

        diags.extend(lhs_diags);
        diags.extend(rhs_diags);
        if has_errors(&diags) {
            return (Value::unknown(ret_ty), diags);
        }
        match binary_op(op, &lhs_val, &rhs_val) {
            Ok(v) => (v, diags),
            Err(message) => {
                diags.push(self.diag(
                    "Operation failed",
                    format!("Error during operation: {message}."),
                    &expr.span,
                ));
                (Value::unknown(ret_ty), diags)
            }
        }
    }

    fn unary(&mut self, expr: &Expr, op: UnaryOp, operand: &Expr, scope: &Scope) -> (Value, Diags) {
        let ty = match op {
            UnaryOp::Negate => Type::Number,
            UnaryOp::Not => Type::Bool,
        };
        let (given, mut diags) = self.eval(operand, scope);
        let val = match convert::convert(&given, &ty) {
            Ok(v) => v,
            Err(err) => {
                diags.push(self.diag(
                    "Invalid operand",
                    format!("Unsuitable value for unary operand: {err}."),
                    &operand.span,
                ));
                Value::dynamic()
            }
        };
        if has_errors(&diags) {
            return (Value::unknown(ty), diags);
        }
        // NegateFunc and NotFunc: no null, no unknown (the result is then an unknown that is
        // not null).
        if val.is_null() {
            diags.push(self.diag(
                "Operation failed",
                "Error during operation: argument must not be null.",
                &expr.span,
            ));
            return (Value::unknown(ty), diags);
        }
        let result = match (op, &val) {
            (_, Value::Unknown(..)) => unknown_not_null(ty),
            (UnaryOp::Negate, Value::Number(n)) => Value::Number(n.neg()),
            (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
            _ => unknown_not_null(ty),
        };
        (result, diags)
    }

    // -----------------------------------------------------------------------------------------
    // Constructors
    // -----------------------------------------------------------------------------------------

    /// `ObjectConsExpr` with its `ObjectConsKeyExpr` keys.
    fn object(&mut self, items: &[ObjectItem], scope: &Scope) -> (Value, Diags) {
        let mut diags = Vec::new();
        let mut vals = BTreeMap::new();
        let mut known = true;
        for item in items {
            let (key, key_diags) = self.object_key(item, scope);
            let key_failed = has_errors(&key_diags);
            diags.extend(key_diags);
            let (val, val_diags) = self.eval(&item.value, scope);
            diags.extend(val_diags);
            if key_failed {
                known = false;
                continue;
            }
            if key.is_null() {
                diags.push(self.diag(
                    "Null value as key",
                    "Can't use a null value as a key.",
                    &item.value.span,
                ));
                known = false;
                continue;
            }
            let key = match convert::convert(&key, &Type::String) {
                Ok(k) => k,
                Err(err) => {
                    diags.push(self.diag(
                        "Incorrect key type",
                        format!("Can't use this value as a key: {err}."),
                        &item.key.span,
                    ));
                    known = false;
                    continue;
                }
            };
            match key {
                Value::String(s) => {
                    vals.insert(s, val);
                }
                _ => known = false,
            }
        }
        if !known {
            return (Value::dynamic(), diags);
        }
        (Value::Object(vals), diags)
    }

    /// `ObjectConsKeyExpr.Value`: a bare name is a string unless written in parentheses.
    fn object_key(&mut self, item: &ObjectItem, scope: &Scope) -> (Value, Diags) {
        if !item.force_non_literal {
            if let ExprKind::Traversal { steps, .. } = &item.key.kind
                && !steps.is_empty()
            {
                let d = self.diag(
                    "Ambiguous attribute key",
                    "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                    &item.key.span,
                );
                return (Value::dynamic(), vec![d]);
            }
            if let Some(name) = keyword(&item.key) {
                return (Value::string(name), Vec::new());
            }
        }
        self.eval(&item.key, scope)
    }

    // -----------------------------------------------------------------------------------------
    // For expressions
    // -----------------------------------------------------------------------------------------

    fn for_expr(&mut self, f: &ForExpr, scope: &Scope) -> (Value, Diags) {
        let (coll, mut diags) = self.eval(&f.collection, scope);
        if coll.is_null() {
            diags.push(self.diag(
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.",
                &f.collection.span,
            ));
            return (Value::dynamic(), diags);
        }
        let coll_ty = coll.ty();
        if coll_ty == Type::Dynamic {
            return (Value::dynamic(), diags);
        }
        if !matches!(
            coll_ty,
            Type::List(_) | Type::Map(_) | Type::Set(_) | Type::Tuple(_) | Type::Object(_)
        ) {
            diags.push(self.diag(
                "Iteration over non-iterable value",
                format!(
                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                    coll_ty.friendly_name()
                ),
                &f.collection.span,
            ));
            return (Value::dynamic(), diags);
        }

        // An early check of the condition with unknown iteration variables.
        if let Some(cond) = &f.condition {
            let child = scope.child(iteration_vars(f, Value::dynamic(), Value::dynamic()));
            let (result, cond_diags) = self.eval(cond, &child);
            let cond_failed = has_errors(&cond_diags);
            diags.extend(cond_diags);
            if result.is_null() {
                diags.push(self.diag(
                    "Condition is null",
                    "The value of the 'if' clause must not be null.",
                    &cond.span,
                ));
                return (Value::dynamic(), diags);
            }
            if let Err(err) = convert::convert(&result, &Type::Bool) {
                diags.push(self.diag(
                    "Invalid 'for' condition",
                    format!("The 'if' clause value is invalid: {err}."),
                    &cond.span,
                ));
                return (Value::dynamic(), diags);
            }
            if cond_failed {
                return (Value::dynamic(), diags);
            }
        }

        if !coll.is_known() {
            return (Value::dynamic(), diags);
        }
        let elements = element_pairs(&coll);
        match &f.key {
            Some(key_expr) => self.for_object(f, key_expr, elements, scope, diags),
            None => self.for_tuple(f, elements, scope, diags),
        }
    }

    fn for_object(
        &mut self,
        f: &ForExpr,
        key_expr: &Expr,
        elements: Vec<(Value, Value)>,
        scope: &Scope,
        mut diags: Diags,
    ) -> (Value, Diags) {
        let mut vals: BTreeMap<String, Value> = BTreeMap::new();
        let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut known = true;
        for (k, v) in elements {
            let child = scope.child(iteration_vars(f, k, v));
            if let Some(cond) = &f.condition {
                let (include_raw, cond_diags) = self.eval(cond, &child);
                diags.extend(cond_diags);
                if include_raw.is_null() {
                    if known {
                        diags.push(self.diag(
                            "Invalid 'for' condition",
                            "The value of the 'if' clause must not be null.",
                            &cond.span,
                        ));
                    }
                    known = false;
                    continue;
                }
                let include = match convert::convert(&include_raw, &Type::Bool) {
                    Ok(v) => v,
                    Err(err) => {
                        if known {
                            diags.push(self.diag(
                                "Invalid 'for' condition",
                                format!("The 'if' clause value is invalid: {err}."),
                                &cond.span,
                            ));
                        }
                        known = false;
                        continue;
                    }
                };
                if !include.is_known() {
                    known = false;
                    continue;
                }
                if matches!(include, Value::Bool(false)) {
                    continue;
                }
            }

            let (key_raw, key_diags) = self.eval(key_expr, &child);
            diags.extend(key_diags);
            if key_raw.is_null() {
                if known {
                    diags.push(self.diag(
                        "Invalid object key",
                        "Key expression in 'for' expression must not produce a null value.",
                        &key_expr.span,
                    ));
                }
                known = false;
                continue;
            }
            if !key_raw.is_known() {
                known = false;
                continue;
            }
            let key = match convert::convert(&key_raw, &Type::String) {
                Ok(Value::String(s)) => s,
                Ok(_) => {
                    known = false;
                    continue;
                }
                Err(err) => {
                    if known {
                        diags.push(self.diag(
                            "Invalid object key",
                            format!("The key expression produced an invalid result: {err}."),
                            &key_expr.span,
                        ));
                    }
                    known = false;
                    continue;
                }
            };

            let (val, val_diags) = self.eval(&f.value, &child);
            diags.extend(val_diags);
            if f.group {
                groups.entry(key).or_default().push(val);
                continue;
            }
            match vals.entry(key) {
                std::collections::btree_map::Entry::Occupied(entry) => {
                    let detail = format!(
                        "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                        go_quote(entry.key())
                    );
                    diags.push(self.diag("Duplicate object key", detail, &key_expr.span));
                }
                std::collections::btree_map::Entry::Vacant(entry) => {
                    entry.insert(val);
                }
            }
        }
        if !known {
            return (Value::dynamic(), diags);
        }
        if f.group {
            vals = groups
                .into_iter()
                .map(|(k, items)| (k, Value::Tuple(items)))
                .collect();
        }
        (Value::Object(vals), diags)
    }

    fn for_tuple(
        &mut self,
        f: &ForExpr,
        elements: Vec<(Value, Value)>,
        scope: &Scope,
        mut diags: Diags,
    ) -> (Value, Diags) {
        let mut vals = Vec::new();
        let mut known = true;
        for (k, v) in elements {
            let child = scope.child(iteration_vars(f, k, v));
            if let Some(cond) = &f.condition {
                let (include_raw, cond_diags) = self.eval(cond, &child);
                diags.extend(cond_diags);
                if include_raw.is_null() {
                    if known {
                        diags.push(self.diag(
                            "Invalid 'for' condition",
                            "The value of the 'if' clause must not be null.",
                            &cond.span,
                        ));
                    }
                    known = false;
                    continue;
                }
                if !include_raw.is_known() {
                    known = false;
                    continue;
                }
                match convert::convert(&include_raw, &Type::Bool) {
                    Ok(Value::Bool(false)) => continue,
                    Ok(_) => {}
                    Err(err) => {
                        if known {
                            diags.push(self.diag(
                                "Invalid 'for' condition",
                                format!("The 'if' clause value is invalid: {err}."),
                                &cond.span,
                            ));
                        }
                        known = false;
                        continue;
                    }
                }
            }
            let (val, val_diags) = self.eval(&f.value, &child);
            diags.extend(val_diags);
            vals.push(val);
        }
        if !known {
            return (Value::dynamic(), diags);
        }
        (Value::Tuple(vals), diags)
    }

    // -----------------------------------------------------------------------------------------
    // Splats
    // -----------------------------------------------------------------------------------------

    fn splat(&mut self, source: &Expr, each: &Expr, scope: &Scope) -> (Value, Diags) {
        let (source_val, mut diags) = self.eval(source, scope);
        if has_errors(&diags) {
            return (Value::dynamic(), diags);
        }
        let source_ty = source_val.ty();
        let auto_upgrade = !matches!(source_ty, Type::Tuple(_) | Type::List(_) | Type::Set(_));
        if source_val.is_null() {
            if auto_upgrade {
                return (Value::Tuple(Vec::new()), diags);
            }
            diags.push(self.diag(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                &source.span,
            ));
            return (Value::dynamic(), diags);
        }
        if source_ty == Type::Dynamic {
            return (Value::dynamic(), diags);
        }

        let mut upgraded_unknown = false;
        let source_val = if auto_upgrade {
            if !source_val.is_known() && !source_val.definitely_not_null() {
                upgraded_unknown = true;
            }
            Value::Tuple(vec![source_val])
        } else {
            source_val
        };
        let source_ty = source_val.ty();

        if !source_val.is_known() {
            let (ty, ty_diags) = self.splat_result_type(&source_ty, each, scope);
            diags.extend(ty_diags);
            // cty also bounds the length of a list result by the source's; not modelled.
            return (unknown_not_null(ty), diags);
        }

        let mut vals = Vec::new();
        let mut is_known = true;
        for item in source_val.elements() {
            self.items.push(item.clone());
            let (val, item_diags) = self.eval(each, scope);
            self.items.pop();
            if has_errors(&item_diags) {
                is_known = false;
            }
            diags.extend(item_diags);
            vals.push(val);
        }
        if upgraded_unknown {
            return (Value::dynamic(), diags);
        }
        if !is_known {
            let (ty, _) = self.splat_result_type(&source_ty, each, scope);
            return (Value::unknown(ty), diags);
        }
        match source_ty {
            Type::List(_) | Type::Set(_) => {
                if vals.is_empty() {
                    let (ty, ty_diags) = self.splat_result_type(&source_ty, each, scope);
                    diags.extend(ty_diags);
                    let elem = ty.element().cloned().unwrap_or(Type::Dynamic);
                    return (
                        Value::List {
                            elem,
                            items: Vec::new(),
                        },
                        diags,
                    );
                }
                match list_val(vals) {
                    Some(list) => (list, diags),
                    None => {
                        diags.push(self.diag(
                            "Invalid nested splat expressions",
                            "The second level of splat expression produced elements of different types, so it isn't possible to construct a valid list to represent the top-level result.\n\nConsider using a for expression instead, to produce a tuple-typed result which can therefore have non-homogenous element types.",
                            &each.span,
                        ));
                        (Value::dynamic(), diags)
                    }
                }
            }
            _ => (Value::Tuple(vals), diags),
        }
    }

    /// The type a splat produces, from `each` evaluated with unknown items of the source's
    /// element types.
    fn splat_result_type(&mut self, source_ty: &Type, each: &Expr, scope: &Scope) -> (Type, Diags) {
        let mut diags = Vec::new();
        let mut each_type = |run: &mut Self, ety: &Type| {
            run.items.push(Value::unknown(ety.clone()));
            let (val, more) = run.eval(each, scope);
            run.items.pop();
            diags.extend(more);
            val.ty()
        };
        let ty = match source_ty {
            Type::List(ety) | Type::Set(ety) => Type::list(each_type(self, ety)),
            Type::Tuple(etys) => Type::Tuple(etys.iter().map(|ety| each_type(self, ety)).collect()),
            _ => Type::Dynamic,
        };
        (ty, diags)
    }

    // -----------------------------------------------------------------------------------------
    // Templates (expression_template.go)
    // -----------------------------------------------------------------------------------------

    fn template(&mut self, parts: &[Expr], scope: &Scope) -> (Value, Diags) {
        let mut buf = String::new();
        let mut diags = Vec::new();
        let mut is_known = true;
        for part in parts {
            let (val, part_diags) = self.eval(part, scope);
            diags.extend(part_diags);
            if val.is_null() {
                diags.push(self.diag(
                    "Invalid template interpolation value",
                    "The expression result is null. Cannot include a null value in a string template.",
                    &part.span,
                ));
                continue;
            }
            if !val.is_known() {
                is_known = false;
                continue;
            }
            match convert::convert(&val, &Type::String) {
                Ok(s) => {
                    if is_known
                        && !has_errors(&diags)
                        && let Value::String(s) = &s
                    {
                        buf.push_str(s);
                    }
                }
                Err(err) => diags.push(self.diag(
                    "Invalid template interpolation value",
                    format!("Cannot include the given value in a string template: {err}."),
                    &part.span,
                )),
            }
        }
        if is_known {
            return (Value::string(buf), diags);
        }
        let mut refinement = Refinement {
            not_null: true,
            string_prefix: None,
        };
        if !has_errors(&diags) && !buf.is_empty() {
            let prefix = safe_known_prefix(&buf, 128);
            if !prefix.is_empty() {
                refinement.string_prefix = Some(prefix);
            }
        }
        (Value::Unknown(Type::String, refinement), diags)
    }

    fn template_join(&mut self, expr: &Expr, inner: &Expr, scope: &Scope) -> (Value, Diags) {
        let (tuple, mut diags) = self.eval(inner, scope);
        if tuple.ty() == Type::Dynamic || !tuple.is_known() || !matches!(tuple, Value::Tuple(_)) {
            return (Value::unknown(Type::String), diags);
        }
        let mut buf = String::new();
        for val in tuple.elements() {
            if val.is_null() {
                diags.push(self.diag(
                    "Invalid template interpolation value",
                    "An iteration result is null. Cannot include a null value in a string template.",
                    &expr.span,
                ));
                continue;
            }
            if val.ty() == Type::Dynamic {
                return (Value::unknown(Type::String), diags);
            }
            let s = match convert::convert(val, &Type::String) {
                Ok(s) => s,
                Err(err) => {
                    diags.push(self.diag(
                        "Invalid template interpolation value",
                        format!("Cannot include one of the interpolation results into the string template: {err}."),
                        &expr.span,
                    ));
                    continue;
                }
            };
            if !val.is_known() {
                return (Value::unknown(Type::String), diags);
            }
            if let Value::String(s) = &s {
                buf.push_str(s);
            }
        }
        (Value::string(buf), diags)
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

/// The function `name` from the nearest scope whose table has it.
fn find_function<'s>(scope: &'s Scope, name: &str) -> Option<&'s Function> {
    let mut level = Some(scope);
    while let Some(s) = level {
        if let Some(f) = s.functions.and_then(|t| t.get(name)) {
            return Some(f);
        }
        level = s.parent;
    }
    None
}

/// cty's `Function.Call` on converted arguments: null, dynamic-typed and unknown arguments
/// are handled per parameter before the implementation runs.
fn call_function(f: &Function, args: Vec<Value>) -> Result<Value, FunctionError> {
    let positional = f.params.len().min(args.len());
    let mut dynamic_args = false;
    'check: {
        for (i, param) in f.params.iter().enumerate() {
            let Some(val) = args.get(i) else { break };
            if val.is_null() && !param.allow_null {
                return Err(FunctionError::arg(i, "argument must not be null"));
            }
            if val.ty() == Type::Dynamic && !param.allow_dynamic_type {
                dynamic_args = true;
                break 'check;
            }
        }
        if let Some(param) = &f.var_param {
            for (i, val) in args.iter().enumerate().skip(positional) {
                if val.is_null() && !param.allow_null {
                    return Err(FunctionError::arg(i, "argument must not be null"));
                }
                if val.ty() == Type::Dynamic && !param.allow_dynamic_type {
                    dynamic_args = true;
                    break 'check;
                }
            }
        }
    }
    if dynamic_args {
        return Ok(Value::dynamic());
    }
    let ret = (f.ret)(&args)?;
    let unknown_arg = args.iter().enumerate().any(|(i, val)| {
        let param = f.params.get(i).or(f.var_param.as_ref());
        !val.is_known() && !param.is_some_and(|p| p.allow_unknown)
    });
    if unknown_arg {
        return Ok(Value::unknown(ret));
    }
    (f.imp)(&args, &ret)
}

/// The parameter type and result type of an operator's cty function.
fn op_types(op: BinaryOp) -> (Type, Type) {
    match op {
        BinaryOp::Or | BinaryOp::And => (Type::Bool, Type::Bool),
        BinaryOp::Equal | BinaryOp::NotEqual => (Type::Dynamic, Type::Bool),
        BinaryOp::GreaterThan
        | BinaryOp::GreaterThanOrEqual
        | BinaryOp::LessThan
        | BinaryOp::LessThanOrEqual => (Type::Number, Type::Bool),
        BinaryOp::Add
        | BinaryOp::Subtract
        | BinaryOp::Multiply
        | BinaryOp::Divide
        | BinaryOp::Modulo => (Type::Number, Type::Number),
    }
}

/// cty's `Value.True()`: a null bool counts as not true (so `False()` holds for it).
fn is_true(v: &Value) -> bool {
    matches!(v, Value::Bool(true))
}

/// hcl's `ShortCircuit` for `||` and `&&`, on the converted operands.
fn short_circuit(
    op: BinaryOp,
    lhs: &Value,
    rhs: &Value,
    lhs_diags: &Diags,
    rhs_diags: &Diags,
) -> Option<(Value, Diags)> {
    let unknown = || unknown_not_null(Type::Bool);
    let (lk, rk) = (lhs.is_known(), rhs.is_known());
    if !lk && !rk {
        return if has_errors(lhs_diags) {
            None
        } else {
            Some((unknown(), lhs_diags.clone()))
        };
    }
    // `||` is decided by a true operand, `&&` by a false one (cty's `False()` is `!True()`).
    let decides = |v: &Value| match op {
        BinaryOp::Or => is_true(v),
        _ => !is_true(v),
    };
    let decided = Value::Bool(op == BinaryOp::Or);
    if lk && decides(lhs) {
        return Some((decided, lhs_diags.clone()));
    }
    if rk && decides(rhs) {
        return Some((decided, rhs_diags.clone()));
    }
    if !lk && !decides(rhs) {
        return Some((unknown(), lhs_diags.clone()));
    }
    if !rk && !decides(lhs) {
        return Some((unknown(), rhs_diags.clone()));
    }
    None
}

/// The stdlib operator function for `op` called (as cty's `Function.Call`) on converted
/// operands; `Err` is the error text.
fn binary_op(op: BinaryOp, a: &Value, b: &Value) -> Result<Value, String> {
    if matches!(op, BinaryOp::Equal | BinaryOp::NotEqual) {
        // EqualFunc and NotEqualFunc accept nulls, unknowns and any type.
        let result = match (op, a.equals(b)) {
            (BinaryOp::NotEqual, Value::Bool(x)) => Value::Bool(!x),
            (_, eq) => eq,
        };
        return Ok(refine_not_null(result));
    }
    // The other operator functions reject nulls. The arithmetic and logical ones do not
    // accept unknowns (so the result is an unknown, refined not null); the comparisons do,
    // but without refined bounds they cannot decide anything either.
    if a.is_null() || b.is_null() {
        return Err("argument must not be null".into());
    }
    let (_, ret_ty) = op_types(op);
    let (x, y) = match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => {
            return Ok(match op {
                BinaryOp::And => Value::Bool(*x && *y),
                BinaryOp::Or => Value::Bool(*x || *y),
                _ => unknown_not_null(ret_ty),
            });
        }
        (Value::Number(x), Value::Number(y)) => (x, y),
        _ => return Ok(unknown_not_null(ret_ty)),
    };
    let nan = |message: &str| message.to_string();
    Ok(match op {
        BinaryOp::LessThan => Value::Bool(x.compare(y).is_lt()),
        // cty: `LessThan(b).Or(Equals(b))`, and Equals compares non-integers by their text.
        BinaryOp::LessThanOrEqual => Value::Bool(x.compare(y).is_lt() || x.cty_equal(y)),
        BinaryOp::GreaterThan => Value::Bool(x.compare(y).is_gt()),
        BinaryOp::GreaterThanOrEqual => Value::Bool(x.compare(y).is_gt() || x.cty_equal(y)),
        BinaryOp::Add => Value::Number(
            x.add(y)
                .map_err(|_| nan("can't compute sum of opposing infinities"))?,
        ),
        BinaryOp::Subtract => Value::Number(
            x.sub(y)
                .map_err(|_| nan("can't subtract infinity from itself"))?,
        ),
        BinaryOp::Multiply => {
            Value::Number(cty_multiply(x, y).map_err(|_| nan("can't multiply zero by infinity"))?)
        }
        BinaryOp::Divide => Value::Number(
            x.div(y)
                .map_err(|_| nan("can't divide zero by zero or infinity by infinity"))?,
        ),
        BinaryOp::Modulo => Value::Number(cty_modulo(x, y)?),
        _ => unknown_not_null(ret_ty),
    })
}

/// cty's `Multiply`: the product at 512 bits, kept at the larger operand precision or the
/// precision the product needs, whichever is more.
fn cty_multiply(a: &Num, b: &Num) -> Result<Num, super::num::NanError> {
    let prec = a.prec().max(b.prec());
    let product = a.set_prec(a.prec().max(super::num::PREC)).mul(b)?;
    Ok(product.set_prec(prec.max(product.min_prec())))
}

/// cty's `Modulo`: `a - b × trunc(a / b)` at `a`'s precision; `a` itself when `b` is zero.
/// (cty's shortcut for its own infinity singletons never applies to computed infinities.)
fn cty_modulo(a: &Num, b: &Num) -> Result<Num, String> {
    const NAN: &str = "can't use modulo with zero and infinity";
    if b.is_zero() {
        return Ok(a.clone());
    }
    let ratio = a.div(b).map_err(|_| NAN.to_string())?;
    if ratio.is_inf() {
        // Go's `big.Float.Int` gives nil for an infinity, and `SetInt(nil)` panics.
        return Err(
            "panic in function implementation: runtime error: invalid memory address or nil pointer dereference"
                .into(),
        );
    }
    let whole = ratio.trunc().set_prec(a.prec());
    let product = b
        .mul(&whole)
        .map_err(|_| NAN.to_string())?
        .set_prec(a.prec());
    a.sub(&product).map_err(|_| NAN.to_string())
}

/// A conditional's result for an unknown condition: cty refines the unknown with the range
/// both branches allow, which pins it to a known value when both are the same known number,
/// or known collections of one type and one length (empty, a list of unknowns, or a set of
/// one unknown). Other numeric bounds and lengths are not representable here.
fn unknown_branch_result(t: &Value, f: &Value, result_ty: Type) -> Value {
    let not_null = t.definitely_not_null() && f.definitely_not_null();
    let unknown = || {
        let v = Value::unknown(result_ty.clone());
        if not_null { refine_not_null(v) } else { v }
    };
    let (tty, fty) = (t.ty(), f.ty());
    if tty == Type::Number && fty == Type::Number {
        if let (true, Value::Number(a), Value::Number(b)) = (not_null, t, f) {
            let lo = if a.compare(b).is_lt() { a } else { b };
            let hi = if a.compare(b).is_gt() { a } else { b };
            if lo.cty_equal(hi) {
                return Value::Number(lo.clone());
            }
        }
        return unknown();
    }
    if tty.is_collection() && fty.is_collection() && tty == fty {
        let bounds = |v: &Value| match v {
            Value::Set { items, .. } if items.len() != 1 && !v.is_wholly_known() => (0, usize::MAX),
            Value::List { items, .. } | Value::Set { items, .. } => (items.len(), items.len()),
            Value::Map { items, .. } => (items.len(), items.len()),
            _ => (0, usize::MAX),
        };
        let ((tlo, thi), (flo, fhi)) = (bounds(t), bounds(f));
        let (lo, hi) = (tlo.min(flo), thi.max(fhi));
        if not_null && lo == hi {
            let elem = tty.element().cloned().unwrap_or(Type::Dynamic);
            match (&tty, lo) {
                (Type::List(_), n) => {
                    return Value::List {
                        items: vec![Value::unknown(elem.clone()); n],
                        elem,
                    };
                }
                (Type::Set(_), 0) => return convert::set_from(elem, Vec::new()),
                (Type::Set(_), 1) => {
                    return convert::set_from(elem.clone(), vec![Value::unknown(elem)]);
                }
                (Type::Map(_), 0) => {
                    return Value::Map {
                        elem,
                        items: BTreeMap::new(),
                    };
                }
                _ => {}
            }
        }
        return unknown();
    }
    unknown()
}

/// cty's `RefineNotNull`: a no-op on known values and on `DynamicVal`.
fn refine_not_null(v: Value) -> Value {
    match v {
        Value::Unknown(ty, mut r) if ty != Type::Dynamic => {
            r.not_null = true;
            Value::Unknown(ty, r)
        }
        other => other,
    }
}

/// `cty.UnknownVal(ty).RefineNotNull()`.
fn unknown_not_null(ty: Type) -> Value {
    refine_not_null(Value::unknown(ty))
}

/// cty's `HasIndex` on a list, map or tuple with an already converted key: `None` when
/// unknown.
fn has_index(coll: &Value, key: &Value) -> Option<bool> {
    match (coll.ty(), key) {
        (_, Value::Unknown(..)) => None,
        (Type::Tuple(elems), Value::Number(n)) => Some(
            n.to_i64()
                .is_some_and(|i| i >= 0 && (i as usize) < elems.len()),
        ),
        (_, _) if !coll.is_known() => None,
        (Type::List(_), Value::Number(n)) => Some(
            n.to_i64()
                .is_some_and(|i| i >= 0 && (i as usize) < coll.elements().len()),
        ),
        (Type::Map(_), Value::String(s)) => match coll {
            Value::Map { items, .. } => Some(items.contains_key(s)),
            _ => None,
        },
        _ => Some(false),
    }
}

/// cty's `Index` on a list, map or tuple for a key [`has_index`] accepted.
fn element_at(coll: &Value, key: &Value) -> Value {
    match (coll, key) {
        (Value::List { items, .. } | Value::Tuple(items), Value::Number(n)) => n
            .to_i64()
            .and_then(|i| items.get(i as usize))
            .cloned()
            .unwrap_or_else(Value::dynamic),
        (Value::Map { items, .. }, Value::String(s)) => {
            items.get(s).cloned().unwrap_or_else(Value::dynamic)
        }
        (Value::Unknown(Type::Tuple(elems), _), Value::Number(n)) => n
            .to_i64()
            .and_then(|i| elems.get(i as usize))
            .map_or_else(Value::dynamic, |ty| Value::unknown(ty.clone())),
        _ => Value::dynamic(),
    }
}

/// cty's `ElementIterator` pairs: index/element for lists and tuples, key/element for maps
/// and objects (sorted), element/element for sets.
fn element_pairs(coll: &Value) -> Vec<(Value, Value)> {
    match coll {
        Value::List { items, .. } | Value::Tuple(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (Value::Number(Num::from_i64(i as i64)), v.clone()))
            .collect(),
        Value::Set { items, .. } => items.iter().map(|v| (v.clone(), v.clone())).collect(),
        Value::Map { items, .. } | Value::Object(items) => items
            .iter()
            .map(|(k, v)| (Value::String(k.clone()), v.clone()))
            .collect(),
        _ => Vec::new(),
    }
}

/// The variables a `for` iteration binds.
fn iteration_vars(f: &ForExpr, key: Value, value: Value) -> BTreeMap<String, Value> {
    let mut vars = BTreeMap::new();
    if let Some(k) = &f.key_var {
        vars.insert(k.clone(), key);
    }
    vars.insert(f.value_var.clone(), value);
    vars
}

/// cty's `ListVal` on non-empty `vals` (`None` where `CanListVal` is false): the element type
/// is the first one that is not dynamic; dynamic-typed elements take it.
fn list_val(vals: Vec<Value>) -> Option<Value> {
    let mut elem = Type::Dynamic;
    for v in &vals {
        let ty = v.ty();
        if elem == Type::Dynamic {
            elem = ty;
        } else if ty != Type::Dynamic && ty != elem {
            return None;
        }
    }
    let items = vals
        .into_iter()
        .map(|v| match v {
            Value::Unknown(Type::Dynamic, r) => Value::Unknown(elem.clone(), r),
            Value::Null(Type::Dynamic) => Value::Null(elem.clone()),
            other => other,
        })
        .collect();
    Some(Value::List { elem, items })
}

/// hcl's `describeConditionalTypeMismatch`.
fn describe_type_mismatch(t: &Type, f: &Type) -> String {
    match (t, f) {
        (Type::Object(ta), Type::Object(fa)) => {
            for (name, tty) in ta {
                let Some(fty) = fa.get(name) else {
                    return format!(
                        "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                        go_quote(name)
                    );
                };
                if tty != fty {
                    return format!(
                        "Type mismatch for object attribute {}: {}",
                        go_quote(name),
                        describe_type_mismatch(tty, fty)
                    );
                }
            }
            if let Some(name) = fa.keys().find(|name| !ta.contains_key(*name)) {
                return format!(
                    "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                    go_quote(name)
                );
            }
        }
        (Type::Tuple(te), Type::Tuple(fe)) => {
            if te.len() != fe.len() {
                return format!(
                    "The 'true' tuple has length {}, but the 'false' tuple has length {}",
                    te.len(),
                    fe.len()
                );
            }
            for (i, (tty, fty)) in te.iter().zip(fe).enumerate() {
                if tty != fty {
                    return format!(
                        "Type mismatch for tuple element {i}: {}",
                        describe_type_mismatch(tty, fty)
                    );
                }
            }
        }
        (Type::List(te), Type::List(fe))
        | (Type::Map(te), Type::Map(fe))
        | (Type::Set(te), Type::Set(fe))
            if matches!(
                (&**te, &**fe),
                (Type::Object(_), Type::Object(_)) | (Type::Tuple(_), Type::Tuple(_))
            ) =>
        {
            let noun = match t {
                Type::List(_) => "list",
                Type::Set(_) => "set",
                _ => "map",
            };
            return format!(
                "Mismatched {noun} element types: {}",
                describe_type_mismatch(te, fe)
            );
        }
        _ => {}
    }
    let (tn, fname) = (t.friendly_name(), f.friendly_name());
    if tn == fname {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".into();
    }
    format!("The 'true' value is {tn}, but the 'false' value is {fname}")
}

/// Go's `strconv.Quote` (what `%q` prints for a string).
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if printable(c) => out.push(c),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// An approximation of Go's `unicode.IsPrint` without category tables: ASCII graphic
/// characters and space; beyond ASCII everything except controls, separators, the common
/// format characters, private use and noncharacters.
fn printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x80 {
        return (0x20..0x7f).contains(&u);
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let format = matches!(
        u,
        0xad | 0x600..=0x605
            | 0x61c
            | 0x6dd
            | 0x70f
            | 0x180e
            | 0x200b..=0x200f
            | 0x202a..=0x202e
            | 0x2060..=0x2064
            | 0x2066..=0x206f
            | 0xfeff
            | 0xfff9..=0xfffb
            | 0xe0001
            | 0xe0020..=0xe007f
    );
    let private = (0xe000..=0xf8ff).contains(&u) || u >= 0xf0000;
    let nonchar = (0xfdd0..=0xfdef).contains(&u) || u & 0xfffe == 0xfffe;
    !(format || private || nonchar)
}

// ---------------------------------------------------------------------------------------------
// cty's `ctystrings.SafeKnownPrefix` (for the prefix of a partly unknown template)
// ---------------------------------------------------------------------------------------------

/// The first `max` bytes of `s` trimmed as `SafeKnownPrefix` trims: never ending in a
/// character a following one could combine with, nor in a grapheme cluster that could grow.
fn safe_known_prefix(s: &str, max: usize) -> String {
    let normalized: String = s.nfc().collect();
    let mut cut = normalized.len().min(max);
    let truncated_mid_char = !normalized.is_char_boundary(cut);
    while !normalized.is_char_boundary(cut) {
        cut -= 1;
    }
    let prefix = &normalized[..cut];
    match nfc_last_boundary(prefix) {
        // Go's bytes end in a partial character here, so any boundary found is final.
        Some(b) if truncated_mid_char || b != prefix.len() => return prefix[..b].to_string(),
        _ => {}
    }
    let Some(last) = prefix.graphemes(true).next_back() else {
        return String::new();
    };
    let mut chars = last.chars();
    let single_delimiter = matches!(
        (chars.next(), chars.next()),
        (
            Some(
                '-' | '_'
                    | ':'
                    | ';'
                    | '/'
                    | '\\'
                    | ','
                    | '.'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '['
                    | ']'
                    | '|'
                    | '?'
                    | '!'
                    | '~'
                    | ' '
                    | '\t'
                    | '@'
                    | '#'
                    | '$'
                    | '%'
                    | '^'
                    | '&'
                    | '*'
                    | '+'
                    | '"'
                    | '\''
            ),
            None
        )
    );
    if single_delimiter {
        prefix.to_string()
    } else {
        prefix[..prefix.len() - last.len()].to_string()
    }
}

/// Go's `norm.NFC.LastBoundary` for valid UTF-8: the end when the last character cannot
/// interact with anything that follows, else the start of the last starter.
fn nfc_last_boundary(s: &str) -> Option<usize> {
    let (last_at, last) = s.char_indices().next_back()?;
    if nfc_inert(last) {
        return Some(s.len());
    }
    let mut non_starters = trailing_non_starters(last);
    if leading_non_starters(last) == 0 {
        return Some(last_at);
    }
    for (at, c) in s[..last_at].char_indices().rev() {
        non_starters += trailing_non_starters(c);
        if non_starters > 30 {
            return Some(at + c.len_utf8());
        }
        if leading_non_starters(c) == 0 {
            return Some(at);
        }
    }
    None
}

fn canonical_decomposition(c: char) -> Vec<char> {
    let mut out = Vec::new();
    unicode_normalization::char::decompose_canonical(c, |d| out.push(d));
    out
}

fn ccc(c: char) -> u8 {
    unicode_normalization::char::canonical_combining_class(c)
}

fn leading_non_starters(c: char) -> usize {
    canonical_decomposition(c)
        .iter()
        .take_while(|d| ccc(**d) != 0)
        .count()
}

fn trailing_non_starters(c: char) -> usize {
    canonical_decomposition(c)
        .iter()
        .rev()
        .take_while(|d| ccc(**d) != 0)
        .count()
}

/// Go's `Properties.isInert` for NFC: no decomposition, not combining with a previous or a
/// following character, combining class 0.
fn nfc_inert(c: char) -> bool {
    if c.is_ascii() {
        return !(c.is_ascii_alphabetic() || matches!(c, '<' | '=' | '>'));
    }
    ccc(c) == 0
        && canonical_decomposition(c) == [c]
        && unicode_normalization::is_nfc_quick(std::iter::once(c))
            == unicode_normalization::IsNormalized::Yes
        && !composes_forward().contains(&c)
}

/// Characters that start a canonical composition (the first of a primary composite's
/// one-level decomposition).
fn composes_forward() -> &'static HashSet<char> {
    static SET: OnceLock<HashSet<char>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set = HashSet::new();
        for u in 0..=0x10ffffu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let full = canonical_decomposition(c);
            if full.len() < 2 {
                continue;
            }
            let recomposed: String = full.iter().copied().nfc().collect();
            if recomposed.chars().eq(std::iter::once(c)) {
                let head: String = full[..full.len() - 1].iter().copied().nfc().collect();
                let mut head = head.chars();
                if let (Some(first), None) = (head.next(), head.next()) {
                    set.insert(first);
                }
            }
        }
        set
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::functions::{FunctionTable, builtins};
    use crate::syntax::parse_expression;

    fn num(text: &str) -> Value {
        Value::Number(Num::parse(text).unwrap())
    }

    fn s(text: &str) -> Value {
        Value::string(text)
    }

    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn not_null(ty: Type) -> Value {
        refine_not_null(Value::unknown(ty))
    }

    /// A compact rendering: `1`, `"a"`, `[1, "a"]` (tuple), `list[1]`, `set["a"]`,
    /// `{a = 1}` (object), `map{a = 1}`, `null(string)`, `unknown(number)!` (`!` = not null),
    /// `unknown(string)!"ab"…` (prefix).
    fn show(v: &Value) -> String {
        let join = |items: &[Value]| items.iter().map(show).collect::<Vec<_>>().join(", ");
        let pairs = |items: &BTreeMap<String, Value>| {
            items
                .iter()
                .map(|(k, v)| format!("{k} = {}", show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match v {
            Value::Unknown(t, r) => {
                let mut out = format!("unknown({})", show_ty(t));
                if r.not_null {
                    out.push('!');
                }
                if let Some(p) = &r.string_prefix {
                    out.push_str(&format!("{p:?}…"));
                }
                out
            }
            Value::Null(t) => format!("null({})", show_ty(t)),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(x) => format!("{x:?}"),
            Value::List { items, .. } => format!("list[{}]", join(items)),
            Value::Set { items, .. } => format!("set[{}]", join(items)),
            Value::Tuple(items) => format!("[{}]", join(items)),
            Value::Map { items, .. } => format!("map{{{}}}", pairs(items)),
            Value::Object(items) => format!("{{{}}}", pairs(items)),
        }
    }

    fn show_ty(t: &Type) -> String {
        match t {
            Type::List(e) => format!("list({})", show_ty(e)),
            Type::Set(e) => format!("set({})", show_ty(e)),
            Type::Map(e) => format!("map({})", show_ty(e)),
            Type::Tuple(items) => format!(
                "tuple([{}])",
                items.iter().map(show_ty).collect::<Vec<_>>().join(", ")
            ),
            Type::Object(attrs) => format!(
                "object({{{}}})",
                attrs
                    .iter()
                    .map(|(k, v)| format!("{k} = {}", show_ty(v)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.friendly_name(),
        }
    }

    fn test_functions() -> FunctionTable {
        let mut table = builtins();
        table.insert(Function::new(
            "upper",
            vec![Param::new("str", Type::String)],
            None,
            Type::String,
            |args, _| Ok(Value::string(args[0].as_str().unwrap_or("").to_uppercase())),
        ));
        table.insert(Function::new(
            "sum",
            Vec::new(),
            Some(Param::new("numbers", Type::Number)),
            Type::Number,
            |args, _| {
                if args.is_empty() {
                    return Err(FunctionError::other("must pass at least one number"));
                }
                let mut total = Num::zero();
                for a in args {
                    total = total.add(a.as_num().unwrap()).unwrap();
                }
                Ok(Value::Number(total))
            },
        ));
        table.insert(Function::new(
            "isnull",
            vec![
                Param::new("val", Type::Dynamic)
                    .null_ok()
                    .unknown_ok()
                    .dynamic_ok(),
            ],
            None,
            Type::Bool,
            |args, _| Ok(Value::bool(args[0].is_null())),
        ));
        table.insert(Function::new(
            "strict",
            vec![Param::new("val", Type::Dynamic)],
            None,
            Type::String,
            |_, _| Ok(Value::string("called")),
        ));
        table.insert(Function::new(
            "pair",
            vec![Param::new("a", Type::String), Param::new("b", Type::Number)],
            None,
            Type::String,
            |args, _| {
                Ok(Value::string(format!(
                    "{}{}",
                    args[0].as_str().unwrap_or(""),
                    args[1].as_num().map(Num::to_string).unwrap_or_default()
                )))
            },
        ));
        table.insert(Function::new(
            "positive",
            vec![Param::new("n", Type::Number)],
            None,
            Type::Number,
            |args, _| match args[0].as_num() {
                Some(n) if n.is_neg() => Err(FunctionError::arg(0, "must be positive")),
                _ => Ok(args[0].clone()),
            },
        ));
        table.insert(Function::new(
            "boom",
            Vec::new(),
            None,
            Type::String,
            |_, _| Err(FunctionError::other("it went bang")),
        ));
        table.insert(Function::new(
            "badindex",
            Vec::new(),
            None,
            Type::String,
            |_, _| Err(FunctionError::arg(3, "nope")),
        ));
        table.insert(Function::new(
            "badvar",
            Vec::new(),
            Some(Param::new("rest", Type::String)),
            Type::String,
            |_, _| Err(FunctionError::arg(0, "nope")),
        ));
        table.insert(Function::with_type_fn(
            "typefail",
            vec![Param::new("x", Type::Number).unknown_ok()],
            None,
            |_| Err(FunctionError::arg(0, "type says no")),
            |_, _| Ok(Value::null()),
        ));
        table.insert(Function::new(
            "ns::hello",
            Vec::new(),
            None,
            Type::String,
            |_, _| Ok(Value::string("hi")),
        ));
        table
    }

    fn test_vars() -> BTreeMap<String, Value> {
        let vars = [
            ("unk_s", Value::unknown(Type::String)),
            ("unk_n", Value::unknown(Type::Number)),
            ("unk_b", Value::unknown(Type::Bool)),
            ("nn_s", not_null(Type::String)),
            ("dyn", Value::dynamic()),
            (
                "unk_obj",
                Value::unknown(Type::Object(
                    [("a".to_string(), Type::Number)].into_iter().collect(),
                )),
            ),
            ("unk_list", Value::unknown(Type::list(Type::Number))),
            (
                "unk_tuple",
                Value::unknown(Type::Tuple(vec![Type::Number, Type::String])),
            ),
            (
                "m",
                Value::Map {
                    elem: Type::String,
                    items: [("a".to_string(), s("x"))].into_iter().collect(),
                },
            ),
            (
                "l",
                Value::List {
                    elem: Type::Number,
                    items: vec![num("1"), num("2"), num("3")],
                },
            ),
            (
                "empty_list",
                Value::List {
                    elem: Type::Number,
                    items: Vec::new(),
                },
            ),
            ("set", convert::set_from(Type::String, vec![s("b"), s("a")])),
            ("null_s", Value::Null(Type::String)),
            ("null_list", Value::Null(Type::list(Type::Number))),
            (
                "objs",
                Value::List {
                    elem: Type::Object([("a".to_string(), Type::Number)].into_iter().collect()),
                    items: vec![obj(&[("a", num("1"))]), obj(&[("a", num("2"))])],
                },
            ),
            (
                "partial",
                Value::Tuple(vec![num("1"), Value::unknown(Type::Number)]),
            ),
        ];
        vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    struct Outcome {
        value: Value,
        /// (summary, detail, subject text)
        diags: Vec<(String, String, String)>,
        spans: Vec<std::ops::Range<usize>>,
    }

    fn run_with(
        src: &str,
        vars: BTreeMap<String, Value>,
        table: Option<&FunctionTable>,
    ) -> Outcome {
        let mut map = SourceMap::new();
        let id = map.add("test.hcl", src);
        let (expr, parse_diags) = parse_expression(map.get(id));
        assert!(parse_diags.is_empty(), "{src}: {parse_diags:?}");
        let scope = Scope {
            variables: vars,
            functions: table,
            parent: None,
        };
        let (value, diags) = Evaluator::new(id).with_sources(&map).eval(&expr, &scope);
        let text = map.get(id).text();
        Outcome {
            value,
            spans: diags
                .iter()
                .map(|d| d.primary.as_ref().unwrap().span.range())
                .collect(),
            diags: diags
                .iter()
                .map(|d| {
                    let range = d.primary.as_ref().unwrap().span.range();
                    (
                        d.summary.clone(),
                        d.detail.clone().unwrap_or_default(),
                        text[range].to_string(),
                    )
                })
                .collect(),
        }
    }

    fn run(src: &str) -> Outcome {
        let table = test_functions();
        run_with(src, test_vars(), Some(&table))
    }

    /// The value of an expression that must evaluate without diagnostics.
    fn val(src: &str) -> String {
        let out = run(src);
        assert!(out.diags.is_empty(), "{src}: {:?}", out.diags);
        show(&out.value)
    }

    /// The single diagnostic of an expression: (summary, detail, subject text).
    fn err(src: &str) -> (String, String, String) {
        let out = run(src);
        assert_eq!(out.diags.len(), 1, "{src}: {:?}", out.diags);
        out.diags[0].clone()
    }

    fn e(summary: &str, detail: &str, subject: &str) -> (String, String, String) {
        (summary.into(), detail.into(), subject.into())
    }

    // --- literals, tuples, objects -------------------------------------------------------

    #[test]
    fn literals() {
        assert_eq!(val("1.50"), "1.5");
        assert_eq!(val("true"), "true");
        assert_eq!(val("null"), "null(dynamic)");
        assert_eq!(val("\"a\""), "\"a\"");
        assert_eq!(val("(((2)))"), "2");
    }

    #[test]
    fn numbers_parse_at_512_bits() {
        let out = run("0.1");
        assert_eq!(out.value.as_num().unwrap().prec(), 512);
        assert_eq!(val("1e3"), "1000");
    }

    #[test]
    fn tuples_and_objects() {
        assert_eq!(val("[1, \"a\", [true]]"), "[1, \"a\", [true]]");
        assert_eq!(val("{b = 1, a = \"x\"}"), "{a = \"x\", b = 1}");
        assert_eq!(val("{\"a b\" = 1, 2 = 3}"), "{2 = 3, a b = 1}");
        assert_eq!(val("{null = 1, true = 2}"), "{null = 1, true = 2}");
    }

    #[test]
    fn object_keys_in_parentheses_are_expressions() {
        assert_eq!(val("{(m.a) = 1}"), "{x = 1}");
        assert_eq!(
            err("{(nosuch) = 1}"),
            e(
                "Unknown variable",
                "There is no variable named \"nosuch\".",
                "nosuch"
            )
        );
    }

    #[test]
    fn duplicate_object_keys_keep_the_last() {
        assert_eq!(val("{a = 1, a = 2}"), "{a = 2}");
        assert_eq!(val("{(\"a\") = 1, a = 2}"), "{a = 2}");
    }

    #[test]
    fn ambiguous_object_key() {
        assert_eq!(
            err("{a.b = 1}"),
            e(
                "Ambiguous attribute key",
                "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                "a.b"
            )
        );
        assert_eq!(show(&run("{a.b = 1}").value), "unknown(dynamic)");
    }

    #[test]
    fn null_and_invalid_object_keys() {
        // hcl points "Null value as key" at the value expression.
        assert_eq!(
            err("{(null) = 1}"),
            e("Null value as key", "Can't use a null value as a key.", "1")
        );
        assert_eq!(
            err("{([]) = 1}"),
            e(
                "Incorrect key type",
                "Can't use this value as a key: string required, but have tuple.",
                "([])"
            )
        );
    }

    #[test]
    fn unknown_object_key_makes_the_object_dynamic() {
        // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
        assert_eq!(val("{(unk_s) = 1, b = 2}"), "unknown(dynamic)");
    }

    // --- variables and traversals --------------------------------------------------------

    #[test]
    fn unknown_variable_with_suggestion() {
        assert_eq!(
            err("unk_z"),
            e(
                "Unknown variable",
                "There is no variable named \"unk_z\". Did you mean \"unk_b\"?",
                "unk_z"
            )
        );
        assert_eq!(
            err("zzzzzz.a"),
            e(
                "Unknown variable",
                "There is no variable named \"zzzzzz\".",
                "zzzzzz"
            )
        );
    }

    #[test]
    fn variables_not_allowed_without_any() {
        let out = run_with("a", BTreeMap::new(), None);
        assert_eq!(
            out.diags,
            vec![e(
                "Variables not allowed",
                "Variables may not be used here.",
                "a"
            )]
        );
    }

    #[test]
    fn attribute_access() {
        assert_eq!(val("{a = {b = 1}}.a.b"), "1");
        assert_eq!(val("m.a"), "\"x\"");
        assert_eq!(
            err("{a = 1}.b"),
            e(
                "Unsupported attribute",
                "This object does not have an attribute named \"b\".",
                ".b"
            )
        );
        assert_eq!(
            err("m.zz"),
            e(
                "Missing map element",
                "This map does not have an element with the key \"zz\".",
                ".zz"
            )
        );
    }

    #[test]
    fn attribute_access_errors() {
        assert_eq!(
            err("null_s.a"),
            e(
                "Attempt to get attribute from null value",
                "This value is null, so it does not have any attributes.",
                ".a"
            )
        );
        assert_eq!(
            err("\"x\".y"),
            e(
                "Unsupported attribute",
                "Can't access attributes on a primitive-typed value (string).",
                ".y"
            )
        );
        assert_eq!(
            err("[1].y"),
            e(
                "Unsupported attribute",
                "This value does not have any attributes.",
                ".y"
            )
        );
        assert_eq!(
            err("objs.a"),
            e(
                "Unsupported attribute",
                "Can't access attributes on a list of objects. Did you mean to access attribute \"a\" for a specific element of the list, or across all elements of the list?",
                ".a"
            )
        );
        assert_eq!(
            err("objs.b").1,
            "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?"
        );
    }

    #[test]
    fn traversal_stops_at_the_first_error() {
        let out = run("{a = 1}.b.c.d");
        assert_eq!(out.diags.len(), 1);
        assert_eq!(show(&out.value), "unknown(dynamic)");
    }

    #[test]
    fn unknowns_propagate_through_traversals() {
        // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
        assert_eq!(val("unk_obj.a"), "unknown(number)");
        assert_eq!(val("dyn.a.b[0]"), "unknown(dynamic)");
        assert_eq!(val("unk_list[0]"), "unknown(number)");
        assert_eq!(val("unk_tuple[1]"), "unknown(string)");
        assert_eq!(val("l[unk_n]"), "unknown(number)");
        assert_eq!(val("[1, \"a\"][unk_n]"), "unknown(dynamic)");
        assert_eq!(val("{a = 1}[unk_s]"), "unknown(dynamic)");
        assert_eq!(
            err("unk_obj.b").0,
            "Unsupported attribute",
            "an unknown object still has a known type"
        );
    }

    #[test]
    fn index_values() {
        assert_eq!(val("[1, 2][1]"), "2");
        assert_eq!(val("[1, 2][\"1\"]"), "2");
        assert_eq!(val("l[0]"), "1");
        assert_eq!(val("{a = 1}[\"a\"]"), "1");
        assert_eq!(val("{\"1\" = \"x\"}[1]"), "\"x\"");
        assert_eq!(val("[[1, 2]][0][1]"), "2");
        assert_eq!(val("[1, 2].1"), "2");
        assert_eq!(val("[1,2][-0]"), "1");
    }

    #[test]
    fn invalid_index_messages() {
        let no = "The given key does not identify an element in this collection value";
        assert_eq!(
            err("[1, 2][2]"),
            e(
                "Invalid index",
                &format!(
                    "{no}: the given index is greater than or equal to the length of the collection."
                ),
                "[2]"
            )
        );
        assert_eq!(err("[1, 2][5]").1, format!("{no}."));
        assert_eq!(
            err("[][0]").1,
            format!("{no}: the collection has no elements.")
        );
        assert_eq!(err("empty_list[3]").1, format!("{no}."));
        assert_eq!(
            err("[1, 2][1.5]").1,
            format!(
                "{no}: indexing a sequence requires a whole number, but the given index has a fractional part."
            )
        );
        assert_eq!(
            err("l[-1]").1,
            format!("{no}: a negative number is not a valid index for a sequence.")
        );
        assert_eq!(
            err("{a = 1}[0]").1,
            format!(
                "{no}. An object only supports looking up attributes by name, not by numeric index."
            )
        );
        assert_eq!(err("{a = 1}[\"b\"]").1, format!("{no}."));
        assert_eq!(err("[1][\"x\"]").1, format!("{no}: a number is required."));
        assert_eq!(err("m[\"q\"]").1, format!("{no}."));
    }

    #[test]
    fn index_errors_on_null_sets_and_scalars() {
        assert_eq!(
            err("null_list[0]"),
            e(
                "Attempt to index null value",
                "This value is null, so it does not have any indices.",
                "[0]"
            )
        );
        assert_eq!(
            err("[1][null]"),
            e(
                "Invalid index",
                "Can't use a null value as an indexing key.",
                "[null]"
            )
        );
        assert_eq!(
            err("set[0]").1,
            "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set."
        );
        assert_eq!(err("\"abc\"[0]").1, "This value does not have any indices.");
    }

    #[test]
    fn index_expression_with_computed_key() {
        assert_eq!(val("[10, 20][0 + 1]"), "20");
        assert_eq!(val("{a = 1}[\"${\"a\"}\"]"), "1");
        let out = run("[1][nosuch]");
        assert_eq!(out.diags.len(), 1);
        assert_eq!(out.diags[0].0, "Unknown variable");
        // An index expression's subject is its brackets.
        let out = run("[1][0 + 5]");
        assert_eq!(out.diags[0].2, "[0 + 5]");
    }

    // --- functions -------------------------------------------------------------------------

    #[test]
    fn calls_convert_arguments() {
        assert_eq!(val("upper(\"a\")"), "\"A\"");
        assert_eq!(val("upper(1)"), "\"1\"");
        assert_eq!(val("sum(1, \"2\", 3)"), "6");
        assert_eq!(val("pair(\"x\", \"5\")"), "\"x5\"");
    }

    #[test]
    fn call_to_unknown_function() {
        assert_eq!(
            err("uper(\"a\")"),
            e(
                "Call to unknown function",
                "There is no function named \"uper\". Did you mean \"upper\"?",
                "uper"
            )
        );
        assert_eq!(
            err("nope::hello()"),
            e(
                "Call to unknown function",
                "There are no functions in namespace \"nope::\".",
                "nope::hello"
            )
        );
        assert_eq!(
            err("ns::bye()").1,
            "There is no function named \"bye\" in namespace ns::."
        );
        assert_eq!(val("ns::hello()"), "\"hi\"");
    }

    #[test]
    fn function_calls_not_allowed_without_functions() {
        let out = run_with("f(1)", test_vars(), None);
        assert_eq!(
            out.diags,
            vec![e(
                "Function calls not allowed",
                "Functions may not be called here.",
                "f(1)"
            )]
        );
    }

    #[test]
    fn function_suggestions_come_from_the_current_scope_only() {
        // unverified: hcl lists `ctx.Functions` of the calling context only; not observable through the oracle.
        let table = test_functions();
        let root = Scope::root(&table);
        let child = root.child([("x".to_string(), num("1"))].into_iter().collect());
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", "uper(x)");
        let (expr, _) = parse_expression(map.get(id));
        let (_, diags) = eval(&expr, id, &child);
        assert_eq!(
            diags[0].detail.as_deref(),
            Some("There is no function named \"uper\".")
        );
        let (v, diags) = eval(&expr, id, &root);
        assert!(!v.is_known());
        assert!(
            diags[0]
                .detail
                .as_deref()
                .unwrap()
                .ends_with("Did you mean \"upper\"?")
        );
    }

    #[test]
    fn argument_count_errors() {
        assert_eq!(
            err("pair(\"a\")"),
            e(
                "Not enough function arguments",
                "Function \"pair\" expects 2 argument(s). Missing value for \"b\".",
                ")"
            )
        );
        // A template's start is its first part: the literal inside the quotes.
        assert_eq!(
            err("upper(\"a\", \"b\", \"c\")"),
            e(
                "Too many function arguments",
                "Function \"upper\" expects only 1 argument(s).",
                "b"
            )
        );
        // A call argument's start is its name and open parenthesis.
        assert_eq!(err("upper(\"a\", upper(\"b\"))").2, "upper(");
        assert_eq!(
            err("can()").1,
            "Function \"can\" expects 1 argument(s). Missing value for \"expression\"."
        );
    }

    #[test]
    fn not_enough_arguments_says_at_least_for_variadic_functions() {
        // unverified: the oracle's variadic functions differ; text follows FunctionCallExpr.
        let mut table = test_functions();
        table.insert(Function::new(
            "join",
            vec![Param::new("sep", Type::String)],
            Some(Param::new("lists", Type::String)),
            Type::String,
            |_, _| Ok(Value::string("")),
        ));
        let out = run_with("join()", test_vars(), Some(&table));
        assert_eq!(
            out.diags[0].1,
            "Function \"join\" expects at least 1 argument(s). Missing value for \"sep\"."
        );
    }

    #[test]
    fn invalid_function_argument_from_conversion() {
        assert_eq!(
            err("upper([1])"),
            e(
                "Invalid function argument",
                "Invalid value for \"str\" parameter: string required, but have tuple.",
                "["
            )
        );
        assert_eq!(
            err("pair(\"a\", \"x\" )").1,
            "Invalid value for \"b\" parameter: a number is required."
        );
    }

    #[test]
    fn argument_errors_skip_the_call() {
        let out = run("upper(nosuch)");
        assert_eq!(out.diags.len(), 1);
        assert_eq!(show(&out.value), "unknown(dynamic)");
    }

    #[test]
    fn null_arguments_are_argument_errors() {
        assert_eq!(
            err("upper(null)"),
            e(
                "Invalid function argument",
                "Invalid value for \"str\" parameter: argument must not be null.",
                "null"
            )
        );
        assert_eq!(val("isnull(null)"), "true");
        assert_eq!(val("isnull(1)"), "false");
    }

    #[test]
    fn unknown_and_dynamic_arguments_skip_the_implementation() {
        // unverified: the oracle has none of these test functions; follows cty's Function.Call.
        assert_eq!(val("upper(unk_s)"), "unknown(string)");
        assert_eq!(val("sum(1, unk_n)"), "unknown(number)");
        assert_eq!(val("strict(dyn)"), "unknown(dynamic)");
        // `dyn` converts to an unknown string first, so the null is still checked.
        assert_eq!(
            err("pair(dyn, null)").1,
            "Invalid value for \"b\" parameter: argument must not be null."
        );
        assert_eq!(val("isnull(dyn)"), "false");
        assert_eq!(
            err("strict(null)").1,
            "Invalid value for \"val\" parameter: argument must not be null."
        );
    }

    #[test]
    fn function_errors() {
        // unverified: the oracle has none of these test functions; follows FunctionCallExpr's ArgError mapping.
        assert_eq!(
            err("positive(-1)"),
            e(
                "Invalid function argument",
                "Invalid value for \"n\" parameter: must be positive.",
                "-"
            )
        );
        assert_eq!(
            err("boom()"),
            e(
                "Error in function call",
                "Call to function \"boom\" failed: it went bang.",
                "boom("
            )
        );
        assert_eq!(
            err("badindex()"),
            e(
                "Error in function call",
                "Call to function \"badindex\" failed: nope.",
                "badindex("
            )
        );
        assert_eq!(
            err("badvar()"),
            e(
                "Invalid function argument",
                "Invalid value for \"rest\" parameter: nope.",
                "badvar()"
            )
        );
        assert_eq!(
            err("typefail(unk_n)").1,
            "Invalid value for \"x\" parameter: type says no."
        );
        assert_eq!(
            err("sum()").1,
            "Call to function \"sum\" failed: must pass at least one number."
        );
    }

    #[test]
    fn expanding_arguments() {
        assert_eq!(val("sum([1, 2, 3]...)"), "6");
        assert_eq!(val("sum(l...)"), "6");
        assert_eq!(val("sum(unk_list...)"), "unknown(dynamic)");
        assert_eq!(val("sum(dyn...)"), "unknown(dynamic)");
        assert_eq!(
            err("sum(null_list...)"),
            e(
                "Invalid expanding argument value",
                "The expanding argument (indicated by ...) must not be null.",
                "null_list"
            )
        );
        assert_eq!(
            err("sum(null...)").1,
            "The expanding argument (indicated by ...) must not be null."
        );
        assert_eq!(
            err("sum({a = 1}...)").1,
            "The expanding argument (indicated by ...) must be of a tuple, list, or set type."
        );
        // Expanded elements are literals with the expanded expression's range.
        assert_eq!(
            err("upper([\"a\", \"b\"]...)"),
            e(
                "Too many function arguments",
                "Function \"upper\" expects only 1 argument(s).",
                "[\"a\", \"b\"]"
            )
        );
    }

    // --- try and can ---------------------------------------------------------------------

    #[test]
    fn try_returns_the_first_success() {
        assert_eq!(val("try(nosuch, 1)"), "1");
        assert_eq!(val("try([1][5], {a = 1}.a, 3)"), "1");
        assert_eq!(val("try(null)"), "null(dynamic)");
        assert_eq!(val("try([1, 2]...)"), "1");
    }

    #[test]
    fn try_is_dynamic_when_the_result_is_not_wholly_known() {
        // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
        assert_eq!(val("try(unk_s, 1)"), "unknown(dynamic)");
        assert_eq!(val("try(partial, 1)"), "unknown(dynamic)");
        assert_eq!(val("try(nosuch, [unk_n])"), "unknown(dynamic)");
    }

    #[test]
    fn try_failure_message() {
        assert_eq!(
            err("try(nosuch, [1][2])"),
            e(
                "Error in function call",
                "Call to function \"try\" failed: no expression succeeded:\n- Unknown variable (at test.hcl:1,5-11)\n  There is no variable named \"nosuch\".\n- Invalid index (at test.hcl:1,16-19)\n  The given key does not identify an element in this collection value.\n\nAt least one expression must produce a successful result.",
                "try("
            )
        );
        assert_eq!(
            err("try()").1,
            "Call to function \"try\" failed: at least one argument is required."
        );
    }

    #[test]
    fn try_without_sources_prints_byte_ranges() {
        // unverified: our own fallback; Go always has a file name and positions.
        let table = test_functions();
        let scope = Scope::root(&table);
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", "try([][0])");
        let (expr, _) = parse_expression(map.get(id));
        let (_, diags) = eval(&expr, id, &scope);
        assert!(diags[0].detail.as_deref().unwrap().contains("(at 6-9)"));
    }

    #[test]
    fn can_reports_success() {
        assert_eq!(val("can(1)"), "true");
        assert_eq!(val("can(nosuch)"), "false");
        assert_eq!(val("can([1][3])"), "false");
        assert_eq!(val("can(unk_s)"), "unknown(bool)");
        assert_eq!(val("can({a = partial})"), "unknown(bool)");
        assert_eq!(
            err("can(1, 2)"),
            e(
                "Too many function arguments",
                "Function \"can\" expects only 1 argument(s).",
                "2"
            )
        );
    }

    // --- conditionals ----------------------------------------------------------------------

    #[test]
    fn conditional_values() {
        assert_eq!(val("true ? 1 : 2"), "1");
        assert_eq!(val("false ? 1 : \"a\""), "\"a\"");
        assert_eq!(val("true ? 1 : \"a\""), "\"1\"");
        assert_eq!(val("\"true\" ? 1 : 2"), "1");
        assert_eq!(val("true ? null : 1"), "null(number)");
        assert_eq!(val("false ? [1] : null"), "null(tuple([number]))");
        assert_eq!(val("true ? [1] : [1, 2]"), "list[1]");
    }

    #[test]
    fn conditional_drops_the_other_branchs_errors() {
        assert_eq!(val("true ? 1 : nosuch"), "1");
        let out = run("false ? 1 : nosuch");
        assert_eq!(out.diags.len(), 1);
        assert_eq!(show(&out.value), "unknown(dynamic)");
    }

    #[test]
    fn inconsistent_conditional_types() {
        let summary = "Inconsistent conditional result types";
        // Objects with different attributes can still unify as a map.
        assert_eq!(val("true ? {a = 1} : {b = \"x\"}"), "map{a = \"1\"}");
        assert_eq!(
            err("true ? {a = 1} : {b = \"x\", c = [1]}"),
            e(
                summary,
                "The true and false result expressions must have consistent types. The 'true' value includes object attribute \"a\", which is absent in the 'false' value.",
                "{a = 1} : {b = \"x\", c = [1]}"
            )
        );
        assert_eq!(
            err("true ? [1] : [{}, 1]").1,
            "The true and false result expressions must have consistent types. The 'true' tuple has length 1, but the 'false' tuple has length 2."
        );
        assert_eq!(
            err("true ? {a = [1]} : {a = {}}").1,
            "The true and false result expressions must have consistent types. Type mismatch for object attribute \"a\": The 'true' value is tuple, but the 'false' value is object."
        );
        assert_eq!(
            err("true ? 1 : [1]").1,
            "The true and false result expressions must have consistent types. The 'true' value is number, but the 'false' value is tuple."
        );
        assert_eq!(
            err("true ? {a = {x = 1}} : {a = {y = [1]}}").1,
            "The true and false result expressions must have consistent types. Type mismatch for object attribute \"a\": The 'true' value includes object attribute \"x\", which is absent in the 'false' value."
        );
    }

    #[test]
    fn describe_mismatch_for_collections() {
        let o = |k: &str| Type::Object([(k.to_string(), Type::Number)].into_iter().collect());
        assert_eq!(
            describe_type_mismatch(&Type::list(o("a")), &Type::list(o("b"))),
            "Mismatched list element types: The 'true' value includes object attribute \"a\", which is absent in the 'false' value"
        );
        assert_eq!(
            describe_type_mismatch(
                &Type::list(Type::list(o("a"))),
                &Type::list(Type::list(o("b")))
            ),
            "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value"
        );
        assert_eq!(
            describe_type_mismatch(
                &Type::Tuple(vec![Type::Number, Type::Bool]),
                &Type::Tuple(vec![Type::Number, Type::String])
            ),
            "Type mismatch for tuple element 1: The 'true' value is bool, but the 'false' value is string"
        );
    }

    #[test]
    fn conditional_condition_errors() {
        assert_eq!(
            err("null ? 1 : 2"),
            e(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                "null"
            )
        );
        assert_eq!(show(&run("null ? 1 : 2").value), "unknown(number)");
        assert_eq!(
            err("1 ? 1 : 2"),
            e(
                "Incorrect condition type",
                "The condition expression must be of type bool.",
                "1"
            )
        );
    }

    #[test]
    fn unknown_condition() {
        // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
        assert_eq!(val("unk_b ? 1 : 2"), "unknown(number)!");
        assert_eq!(val("unk_b ? \"a\" : 1"), "unknown(string)!");
        assert_eq!(val("unk_b ? unk_s : \"a\""), "unknown(string)");
        assert_eq!(val("unk_b ? null : null"), "null(dynamic)");
        assert_eq!(val("unk_b ? 1 : dyn"), "unknown(dynamic)");
        // The branches' diagnostics are dropped when the condition is unknown.
        assert_eq!(val("unk_b ? nosuch : 1"), "unknown(dynamic)");
    }

    #[test]
    fn unknown_condition_pins_equal_numbers_and_lengths() {
        // unverified: no unknowns in the oracle; follows ConditionalExpr.Value and cty's RefinementBuilder.NewValue.
        // cty's refinement bounds are [1, 1] here, which NewValue turns into a known value.
        assert_eq!(val("unk_b ? 1 : 1.0"), "1");
        assert_eq!(
            val("unk_b ? l : l"),
            "list[unknown(number), unknown(number), unknown(number)]"
        );
        assert_eq!(val("unk_b ? empty_list : empty_list"), "list[]");
        assert_eq!(val("unk_b ? l : empty_list"), "unknown(list(number))!");
    }

    // --- operators -------------------------------------------------------------------------

    #[test]
    fn arithmetic() {
        assert_eq!(val("1 + 2 * 3 - 4 / 2"), "5");
        assert_eq!(val("0.1 + 0.2"), "0.3");
        assert_eq!(val("\"1\" + 2"), "3");
        assert_eq!(val("-(-1)"), "1");
        assert_eq!(
            val("100000000000000000000 * 100000000000000000000"),
            "10000000000000000000000000000000000000000"
        );
        // The oracle's text for 1/3 at 512 bits.
        assert_eq!(val("1/3"), format!("0.{}5", "3".repeat(154)));
    }

    #[test]
    fn modulo_follows_cty() {
        assert_eq!(val("5 % 3"), "2");
        assert_eq!(val("-5 % 3"), "-2");
        assert_eq!(val("5 % -3"), "2");
        assert_eq!(val("5.5 % 2"), "1.5");
        assert_eq!(val("-7.5 % 2"), "-1.5");
        assert_eq!(val("1 % 0"), "1");
    }

    #[test]
    fn arithmetic_failures() {
        let failed = |src: &str| err(src).1;
        assert_eq!(
            failed("(1/0) - (1/0)"),
            "Error during operation: can't subtract infinity from itself."
        );
        assert_eq!(
            failed("(1/0) + (-1/0)"),
            "Error during operation: can't compute sum of opposing infinities."
        );
        assert_eq!(
            failed("0 * (1/0)"),
            "Error during operation: can't multiply zero by infinity."
        );
        assert_eq!(
            failed("0 / 0"),
            "Error during operation: can't divide zero by zero or infinity by infinity."
        );
        assert_eq!(
            failed("2 % (1/0)"),
            "Error during operation: can't use modulo with zero and infinity."
        );
        // unverified: Go's message also carries the goroutine stack trace here.
        assert_eq!(
            failed("(1/0) % 2"),
            "Error during operation: panic in function implementation: runtime error: invalid memory address or nil pointer dereference."
        );
        let out = run("1 - (1/0 - 1/0)");
        assert_eq!(out.diags[0].2, "1/0 - 1/0");
    }

    #[test]
    fn invalid_operands() {
        assert_eq!(
            err("\"a\" + 1"),
            e(
                "Invalid operand",
                "Unsuitable value for left operand: a number is required.",
                "\"a\""
            )
        );
        let out = run("\"x\" - \"y\"");
        assert_eq!(
            out.diags.iter().map(|d| d.1.as_str()).collect::<Vec<_>>(),
            vec![
                "Unsuitable value for left operand: a number is required.",
                "Unsuitable value for right operand: a number is required."
            ]
        );
        assert_eq!(show(&out.value), "unknown(number)");
        assert_eq!(
            err("1 && true").1,
            "Unsuitable value for left operand: bool required, but have number."
        );
        assert_eq!(
            err("-\"x\""),
            e(
                "Invalid operand",
                "Unsuitable value for unary operand: a number is required.",
                "\"x\""
            )
        );
    }

    #[test]
    fn null_operands() {
        assert_eq!(
            err("null < 1"),
            e(
                "Operation failed",
                "Error during operation: argument must not be null.",
                "null < 1"
            )
        );
        assert_eq!(
            err("!null").1,
            "Error during operation: argument must not be null."
        );
        // A null string converts to a null number, which the function then rejects.
        assert_eq!(err("-null_s").0, "Operation failed");
        assert_eq!(val("null == null"), "true");
        assert_eq!(val("null_s == null"), "true");
        assert_eq!(val("1 != null"), "true");
    }

    #[test]
    fn comparisons_and_equality() {
        assert_eq!(val("1 < 2"), "true");
        assert_eq!(val("2 <= 2.0"), "true");
        assert_eq!(val("3 > 4"), "false");
        assert_eq!(val("\"3\" >= 3"), "true");
        assert_eq!(val("1 == 1.0"), "true");
        assert_eq!(val("1 == \"1\""), "false");
        assert_eq!(val("[1, \"a\"] == [1, \"a\"]"), "true");
        assert_eq!(val("{a = 1} != {a = 2}"), "true");
        assert_eq!(val("[null] == [null]"), "true");
        assert_eq!(val("{a = null} == {a = 1}"), "false");
    }

    #[test]
    fn unknown_operands() {
        // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
        assert_eq!(val("unk_n + 1"), "unknown(number)!");
        assert_eq!(val("dyn * 2"), "unknown(number)!");
        assert_eq!(val("unk_n < 1"), "unknown(bool)!");
        assert_eq!(val("unk_n >= 1"), "unknown(bool)!");
        assert_eq!(val("unk_s == \"a\""), "unknown(bool)!");
        assert_eq!(val("unk_s == 1"), "false");
        assert_eq!(val("-unk_n"), "unknown(number)!");
        assert_eq!(val("!unk_b"), "unknown(bool)!");
        assert_eq!(val("\"ab${unk_s}\" == \"xy\""), "false");
    }

    #[test]
    fn logical_short_circuit() {
        assert_eq!(val("true && false"), "false");
        assert_eq!(val("true || null"), "true");
        assert_eq!(val("true && null"), "false", "a null bool counts as false");
        assert_eq!(val("unk_b || true"), "true");
        assert_eq!(val("false && unk_b"), "false");
        assert_eq!(val("unk_b && true"), "unknown(bool)!");
        assert_eq!(val("unk_b || unk_b"), "unknown(bool)!");
        assert_eq!(
            err("false || null").1,
            "Error during operation: argument must not be null."
        );
    }

    #[test]
    fn short_circuit_drops_the_other_sides_errors() {
        assert_eq!(val("nosuch || true"), "true");
        assert_eq!(val("false && nosuch"), "false");
        // Both unknown and the left side fine: the right side's errors are dropped too.
        assert_eq!(val("unk_b || nosuch"), "unknown(bool)!");
        let out = run("nosuch || unk_b");
        assert_eq!(out.diags.len(), 1);
        assert_eq!(show(&out.value), "unknown(bool)");
    }

    // --- for expressions -------------------------------------------------------------------

    #[test]
    fn for_tuples() {
        assert_eq!(val("[for x in [1, 2, 3]: x * 2]"), "[2, 4, 6]");
        assert_eq!(
            val("[for i, x in [\"a\", \"b\"]: \"${i}=${x}\"]"),
            "[\"0=a\", \"1=b\"]"
        );
        assert_eq!(val("[for x in [1, 2, 3]: x if x > 1]"), "[2, 3]");
        assert_eq!(val("[for k, v in {b = 1, a = 2}: k]"), "[\"a\", \"b\"]");
        assert_eq!(val("[for x in set: x]"), "[\"a\", \"b\"]");
        assert_eq!(val("[for k, v in set: k]"), "[\"a\", \"b\"]");
        assert_eq!(val("[for k, v in m: \"${k}${v}\"]"), "[\"ax\"]");
    }

    #[test]
    fn for_objects() {
        assert_eq!(
            val("{for k, v in {b = 1, a = 2}: v => k}"),
            "{1 = \"b\", 2 = \"a\"}"
        );
        assert_eq!(
            val("{for x in [\"a\", \"b\", \"a\"]: x => x...}"),
            "{a = [\"a\", \"a\"], b = [\"b\"]}"
        );
        assert_eq!(val("{for x in [1, 2]: x => x if x == 2}"), "{2 = 2}");
    }

    #[test]
    fn for_duplicate_key() {
        let out = run("{for x in [\"a\", \"b\", \"a\"]: x => x}");
        assert_eq!(
            out.diags,
            vec![e(
                "Duplicate object key",
                "Two different items produced the key \"a\" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                "x"
            )]
        );
        assert_eq!(show(&out.value), "{a = \"a\", b = \"b\"}");
    }

    #[test]
    fn for_collection_errors() {
        assert_eq!(
            err("[for x in null: x]"),
            e(
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.",
                "null"
            )
        );
        assert_eq!(
            err("[for x in 1: x]"),
            e(
                "Iteration over non-iterable value",
                "A value of type number cannot be used as the collection in a 'for' expression.",
                "1"
            )
        );
    }

    #[test]
    fn for_condition_errors() {
        // The early check with unknown iteration variables catches a null...
        assert_eq!(
            err("[for x in [1]: x if null]"),
            e(
                "Condition is null",
                "The value of the 'if' clause must not be null.",
                "null"
            )
        );
        // ... and a type that cannot be a bool at all.
        assert_eq!(
            err("[for x in [1]: x if []]").1,
            "The 'if' clause value is invalid: bool required, but have tuple."
        );
        // Per element: reported once, and the result is unknown.
        let out = run("[for x in [1, 2]: x if x]");
        assert_eq!(
            out.diags,
            vec![e(
                "Invalid 'for' condition",
                "The 'if' clause value is invalid: bool required, but have number.",
                "x"
            )]
        );
        assert_eq!(show(&out.value), "unknown(dynamic)");
        let out = run("{for x in [null, null]: \"k\" => 1 if x}");
        assert_eq!(
            out.diags,
            vec![e(
                "Invalid 'for' condition",
                "The value of the 'if' clause must not be null.",
                "x"
            )]
        );
    }

    #[test]
    fn for_key_errors() {
        assert_eq!(
            err("{for x in [1]: null => x}"),
            e(
                "Invalid object key",
                "Key expression in 'for' expression must not produce a null value.",
                "null"
            )
        );
        assert_eq!(
            err("{for x in [1]: [] => x}").1,
            "The key expression produced an invalid result: string required, but have tuple."
        );
    }

    #[test]
    fn for_unknowns() {
        // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
        assert_eq!(val("[for x in unk_list: x]"), "unknown(dynamic)");
        assert_eq!(val("[for x in dyn: x]"), "unknown(dynamic)");
        assert_eq!(val("[for x in [1, unk_n]: x]"), "[1, unknown(number)]");
        assert_eq!(val("[for x in [1, 2]: x if unk_b]"), "unknown(dynamic)");
        assert_eq!(val("{for x in [\"a\"]: unk_s => x}"), "unknown(dynamic)");
    }

    #[test]
    fn for_variables_shadow_outer_ones() {
        assert_eq!(val("[for l in [7]: l]"), "[7]");
        assert_eq!(
            val("[for x in l: [for x in [x]: x * 10]]"),
            "[[10], [20], [30]]"
        );
    }

    // --- splats ----------------------------------------------------------------------------

    #[test]
    fn splats() {
        assert_eq!(val("[{a = 1}, {a = 2}][*].a"), "[1, 2]");
        assert_eq!(val("[{a = 1}, {a = 2}].*.a"), "[1, 2]");
        assert_eq!(val("objs[*].a"), "list[1, 2]");
        assert_eq!(val("{a = 1}[*].a"), "[1]");
        assert_eq!(val("null[*]"), "[]");
        assert_eq!(val("[for x in objs: x if false][*].a"), "[]");
        assert_eq!(val("[[{a = 1}], [{a = 2}]][*][*].a"), "[[1], [2]]");
        assert_eq!(val("set[*]"), "list[\"a\", \"b\"]");
    }

    #[test]
    fn splat_errors() {
        assert_eq!(
            err("null_list[*]"),
            e(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                "null_list"
            )
        );
        let out = run("[{a = 1}, {b = 2}][*].a");
        assert_eq!(out.diags.len(), 1);
        assert_eq!(show(&out.value), "unknown(tuple([number, dynamic]))");
        assert_eq!(show(&run("nosuch[*].a").value), "unknown(dynamic)");
        // An empty list still evaluates `each` once, for the result type, and reports that.
        let out = run("empty_list[*].a");
        assert_eq!(
            out.diags,
            vec![e(
                "Unsupported attribute",
                "Can't access attributes on a primitive-typed value (number).",
                ".a"
            )]
        );
        assert_eq!(show(&out.value), "list[]");
    }

    #[test]
    fn nested_splat_of_mixed_types() {
        // unverified: needs a list of tuples, which closed expressions cannot build without functions.
        let list = Value::List {
            elem: Type::Dynamic,
            items: Vec::new(),
        };
        let _ = list;
        let mut vars = test_vars();
        vars.insert(
            "ll".into(),
            Value::List {
                elem: Type::Dynamic,
                items: vec![
                    Value::Tuple(vec![obj(&[("a", num("1"))])]),
                    Value::Tuple(vec![obj(&[("a", s("x"))]), obj(&[("a", s("y"))])]),
                ],
            },
        );
        let table = test_functions();
        let out = run_with("ll[*][*].a", vars, Some(&table));
        assert_eq!(out.diags[0].0, "Invalid nested splat expressions");
        // The outer splat's `each` is the inner splat, which starts at the outer marker.
        assert_eq!(out.diags[0].2, "[*][*].a");
    }

    #[test]
    fn splat_unknowns() {
        // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
        assert_eq!(val("unk_list[*]"), "unknown(list(number))!");
        assert_eq!(val("unk_tuple[*]"), "unknown(tuple([number, string]))!");
        assert_eq!(val("dyn[*]"), "unknown(dynamic)");
        // An unknown that might be null would give zero or one elements.
        assert_eq!(val("unk_obj[*].a"), "unknown(dynamic)");
        assert_eq!(val("nn_s[*]"), "[unknown(string)!]");
    }

    // --- templates -------------------------------------------------------------------------

    #[test]
    fn templates() {
        assert_eq!(val("\"a${1}b${true}\""), "\"a1btrue\"");
        assert_eq!(val("\"${1}\""), "1", "a lone interpolation keeps its value");
        assert_eq!(val("\"${\"a\"}${1.50}\""), "\"a1.5\"");
        assert_eq!(val("\"e${\"\\u0301\"}\""), "\"\u{e9}\"");
        assert_eq!(val("\"%{if true}yes%{else}no%{endif}\""), "\"yes\"");
        assert_eq!(val("\"%{for x in [1, \"a\"]}${x},%{endfor}\""), "\"1,a,\"");
    }

    #[test]
    fn template_errors() {
        let out = run("\"a${null}b\"");
        assert_eq!(
            out.diags,
            vec![e(
                "Invalid template interpolation value",
                "The expression result is null. Cannot include a null value in a string template.",
                "null"
            )]
        );
        // After an error the rest is not appended.
        assert_eq!(show(&out.value), "\"a\"");
        assert_eq!(
            err("\"x${[1]}\"").1,
            "Cannot include the given value in a string template: string required, but have tuple."
        );
        let out = run("\"%{for x in [null]}${x}%{endfor}\"");
        assert_eq!(
            out.diags[0].1,
            "The expression result is null. Cannot include a null value in a string template."
        );
    }

    #[test]
    fn template_join_errors() {
        let mut vars = test_vars();
        vars.insert("nulls".into(), Value::Tuple(vec![Value::null()]));
        vars.insert("lists".into(), Value::Tuple(vec![Value::Tuple(vec![])]));
        let table = test_functions();
        let out = run_with(
            "\"%{for x in nulls}${x}%{endfor}\"",
            vars.clone(),
            Some(&table),
        );
        assert_eq!(out.diags.len(), 1);
        let out = run_with("\"%{for x in lists}%{endfor}\"", vars, Some(&table));
        assert_eq!(show(&out.value), "\"\"");
    }

    #[test]
    fn unknown_templates_keep_a_safe_prefix() {
        // unverified: no unknowns in the oracle; SafeKnownPrefix is approximated with unicode-normalization's and unicode-segmentation's tables, not Go's.
        assert_eq!(val("\"abc-${unk_s}\""), "unknown(string)!\"abc-\"…");
        assert_eq!(val("\"abc${unk_s}\""), "unknown(string)!\"ab\"…");
        assert_eq!(val("\"ab1${unk_s}\""), "unknown(string)!\"ab\"…");
        assert_eq!(val("\"${unk_s}x\""), "unknown(string)!");
        assert_eq!(val("\"a${unk_s}b${1}\""), "unknown(string)!");
        // The join's unknown is unrefined, but the template around it is never null.
        assert_eq!(
            val("\"%{for x in unk_list}${x}%{endfor}\""),
            "unknown(string)!"
        );
        assert_eq!(
            val("\"a%{for x in [unk_s]}${x}%{endfor}\""),
            "unknown(string)!"
        );
    }

    #[test]
    fn safe_prefix_limits() {
        // unverified: Go's norm and textseg tables are approximated here.
        let long = "x-".repeat(100);
        assert_eq!(safe_known_prefix(&long, 128).len(), 128);
        assert_eq!(safe_known_prefix("ab\u{e9}", 128), "ab");
        assert_eq!(safe_known_prefix("ab\u{301}", 128), "a");
        assert_eq!(safe_known_prefix("a:", 128), "a:");
        assert_eq!(safe_known_prefix("a<", 128), "a");
        // CJK characters do not combine, but the last grapheme cluster still goes.
        assert_eq!(safe_known_prefix("日本", 128), "日");
        assert_eq!(safe_known_prefix("aü", 128), "a");
        // Cut inside a two-byte character: the partial character goes and nothing else.
        let text = format!("{}\u{e9}z", "-".repeat(127));
        assert_eq!(safe_known_prefix(&text, 128), "-".repeat(127));
    }

    // --- ranges, variables -----------------------------------------------------------------

    #[test]
    fn start_ranges() {
        let mut map = SourceMap::new();
        let id = map.add("t.hcl", "f (1) + [2]");
        let (expr, _) = parse_expression(map.get(id));
        assert_eq!(start_range(&expr), 0..3);
        let ExprKind::Binary { rhs, .. } = &expr.kind else {
            panic!()
        };
        assert_eq!(start_range(rhs), 8..9);
    }

    #[test]
    fn error_ranges_are_byte_spans() {
        let out = run("[1, 2][  5 ]");
        assert_eq!(out.spans, vec![6..12]);
    }

    #[test]
    fn variables_lists_references() {
        let mut map = SourceMap::new();
        let id = map.add(
            "t.hcl",
            "[for k, v in a.b: k + v + c[0] if d] + {e = f, (g) = h} + i[*].j + \"${k}\"",
        );
        let (expr, _) = parse_expression(map.get(id));
        let names: Vec<String> = variables(&expr)
            .iter()
            .map(|r| format!("{}/{}", r.root, r.steps.len()))
            .collect();
        assert_eq!(
            names,
            vec!["a/1", "c/1", "d/0", "f/0", "g/0", "h/0", "i/0", "k/0"]
        );
    }

    #[test]
    fn unknown_references_name_what_is_not_known() {
        let mut map = SourceMap::new();
        let id = map.add(
            "t.hcl",
            "[unk_obj.a, m.a, partial[1], partial[0], dyn.x[\"y\"], unk_obj.a, nosuch, {a = 1}.b]",
        );
        let (expr, _) = parse_expression(map.get(id));
        let table = test_functions();
        let scope = Scope {
            variables: test_vars(),
            functions: Some(&table),
            parent: None,
        };
        assert_eq!(
            unknown_references(&expr, &scope),
            vec!["unk_obj.a", "partial[1]", "dyn.x[\"y\"]"]
        );
    }

    #[test]
    fn syntax_error_placeholders_are_dynamic() {
        let table = test_functions();
        let scope = Scope::root(&table);
        let file = FileId::first();
        let placeholder = Expr {
            kind: ExprKind::Error,
            span: 0..1,
        };
        let (v, diags) = eval(&placeholder, file, &scope);
        assert_eq!(show(&v), "unknown(dynamic)");
        assert!(diags.is_empty());
        let lit = Expr {
            kind: ExprKind::Literal(Literal::Unknown),
            span: 0..1,
        };
        assert_eq!(show(&eval(&lit, file, &scope).0), "unknown(dynamic)");
    }

    #[test]
    fn go_quote_escapes() {
        assert_eq!(
            go_quote("a\"b\\c\n\u{1}\u{a0}é"),
            "\"a\\\"b\\\\c\\n\\x01\\u00a0é\""
        );
    }

    #[test]
    fn cty_multiply_widens_integer_precision() {
        let a = Num::from_i64(i64::MAX);
        let p = cty_multiply(&a, &a).unwrap();
        assert_eq!(p.to_string(), "85070591730234615847396907784232501249");
        assert_eq!(p.prec(), 126);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let src = format!("{}1{}", "[".repeat(900), "]".repeat(900));
        let out = run(&src);
        assert!(out.diags.is_empty());
    }
}
