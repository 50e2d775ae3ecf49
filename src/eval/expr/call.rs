//! Function calls (`FunctionCallExpr.Value`, cty's `Function.Call`) and ext/tryfunc's `try`
//! and `can`.

use super::{Arg, Diags, Run, go_quote, has_errors, start_range};
use crate::diagnostics::Diagnostic;
use crate::diagnostics::suggest::name_suggestion;
use crate::eval::convert;
use crate::eval::scope::Scope;
use crate::eval::table::{Function, FunctionError, Param, Special};
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::{Expr, TextRange};

impl Run<'_> {
    // Kept out of the dispatch in `eval_inner`: inlined there, its frame and register
    // pressure cost every other kind of expression (5 M instructions on the 4,000 locals).
    #[inline(never)]
    pub(super) fn call(
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
        // The arguments as expressions, or, when the last one is expanded (`x...`), the
        // others followed by its elements (built only then: most calls expand nothing).
        let mut expanded: Option<Vec<Arg>> = None;

        if expand_final && let Some(expand_expr) = arg_exprs.last() {
            let (expand_val, expand_diags) = self.eval(expand_expr, scope);
            let failed = has_errors(&expand_diags);
            diags.extend(expand_diags);
            if failed {
                return (Value::dynamic(), diags);
            }
            let ty = expand_val.ty();
            let null_diag = |run: &Self| {
                run.diag_expr(
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
                    let mut args: Vec<Arg> = arg_exprs[..arg_exprs.len() - 1]
                        .iter()
                        .map(Arg::Expr)
                        .collect();
                    for item in expand_val.elements() {
                        args.push(Arg::Value(item.clone(), expand_expr.span.clone()));
                    }
                    expanded = Some(args);
                }
                _ => {
                    diags.push(self.diag_expr(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                        &expand_expr.span,
                    ));
                    return (Value::dynamic(), diags);
                }
            }
        }

        let count = expanded.as_ref().map_or(arg_exprs.len(), Vec::len);
        let all_args = || -> Vec<Arg> {
            match &expanded {
                Some(args) => args.clone(),
                None => arg_exprs.iter().map(Arg::Expr).collect(),
            }
        };
        if count < params.len() {
            let missing = &params[count];
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
        if var_param.is_none() && count > params.len() {
            let d = self.diag(
                "Too many function arguments",
                format!(
                    "Function {} expects only {} argument(s).",
                    go_quote(name),
                    params.len()
                ),
                &all_args()[params.len()].start_range(),
            );
            return (Value::dynamic(), vec![d]);
        }

        let result = match f.special {
            // `try` and `can` take their arguments as expression closures (hcl's customdecode),
            // so nothing is evaluated or converted here.
            Special::Try => self.try_fn(&all_args(), scope),
            Special::Can => match all_args().first() {
                Some(arg) => Ok(self.can_fn(arg, scope)),
                None => Err(FunctionError::other("at least one argument is required")),
            },
            Special::None => {
                let mut vals = take_arg_list();
                vals.reserve(count);
                for i in 0..count {
                    let Some(param) = params.get(i).or(var_param) else {
                        break;
                    };
                    let arg = match &expanded {
                        Some(args) => &args[i],
                        None => &Arg::Expr(&arg_exprs[i]),
                    };
                    let val = match arg {
                        Arg::Expr(e) => {
                            let (val, more) = self.eval(e, scope);
                            if !more.is_empty() {
                                diags.extend(more);
                            }
                            val
                        }
                        Arg::Value(val, _) => val.clone(),
                    };
                    // Most arguments have their parameter's type: moved straight in.
                    if convert::already(&val, &param.ty) {
                        vals.push(val);
                        continue;
                    }
                    match convert::convert_other(val, &param.ty) {
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
                let result = call_function(f, &vals, self.span(&expr.span));
                give_back_arg_list(vals);
                result
            }
        };

        match result {
            Ok(val) => (val, diags),
            Err(err) => {
                diags.push(self.call_error(expr, name, &all_args(), params, var_param, err));
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
                    (Some(param), Some(arg)) => self
                        .diag(
                            "Invalid function argument",
                            format!(
                                "Invalid value for {} parameter: {message}.",
                                go_quote(param.name)
                            ),
                            &arg.start_range(),
                        )
                        .with_expression(self.span(&arg.range())),
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

    /// [`Self::eval_arg`] for an argument of `try` or `can`, recorded in the try log if any.
    fn eval_try_arg(&mut self, arg: &Arg, scope: &Scope) -> (Value, Diags) {
        let (val, diags) = self.eval_arg(arg, scope);
        if let (Some(log), Arg::Expr(e)) = (self.ev.tries, arg) {
            log.record(self.span(&e.span), &val, &diags);
        }
        (val, diags)
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
            let (val, more) = self.eval_try_arg(arg, scope);
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
        let (val, diags) = self.eval_try_arg(arg, scope);
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
}

thread_local! {
    /// Emptied argument lists of finished calls, reused by the next call on the thread, in
    /// this evaluation or a later one (calls nest, so a stack): a call allocates no list once
    /// the thread has made as many as calls nest.
    static ARG_LISTS: std::cell::RefCell<Vec<Vec<Value>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// How many emptied lists a thread keeps, and the largest it keeps: a long-lived server
/// thread holds at most 16 × 16 values' worth of room.
const KEPT_LISTS: usize = 16;
const KEPT_CAPACITY: usize = 16;

fn take_arg_list() -> Vec<Value> {
    ARG_LISTS
        .with_borrow_mut(|lists| lists.pop())
        .unwrap_or_default()
}

fn give_back_arg_list(mut vals: Vec<Value>) {
    vals.clear();
    if vals.capacity() <= KEPT_CAPACITY {
        ARG_LISTS.with_borrow_mut(|lists| {
            if lists.len() < KEPT_LISTS {
                lists.push(vals);
            }
        });
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
/// `at` is the call, named when the evaluation's budget runs out inside it.
fn call_function(f: &Function, args: &[Value], at: Span) -> Result<Value, FunctionError> {
    let positional = f.params.len().min(args.len());
    let mut dynamic_args = false;
    'check: {
        for (i, param) in f.params.iter().enumerate() {
            let Some(val) = args.get(i) else { break };
            if val.is_null() && !param.allow_null {
                return Err(FunctionError::arg(i, "argument must not be null"));
            }
            if val.has_dynamic_type() && !param.allow_dynamic_type {
                dynamic_args = true;
                break 'check;
            }
        }
        if let Some(param) = &f.var_param {
            for (i, val) in args.iter().enumerate().skip(positional) {
                if val.is_null() && !param.allow_null {
                    return Err(FunctionError::arg(i, "argument must not be null"));
                }
                if val.has_dynamic_type() && !param.allow_dynamic_type {
                    dynamic_args = true;
                    break 'check;
                }
            }
        }
    }
    if dynamic_args {
        return Ok(Value::dynamic());
    }
    let ret = (f.ret)(args)?;
    let unknown_arg = args.iter().enumerate().any(|(i, val)| {
        let param = f.params.get(i).or(f.var_param.as_ref());
        !val.is_known() && !param.is_some_and(|p| p.allow_unknown)
    });
    let refine = |value: Value| match value {
        Value::Unknown(ty, mut refinement) if f.refine_not_null && ty != Type::Dynamic => {
            refinement.not_null = true;
            Value::Unknown(ty, refinement)
        }
        other => other,
    };
    if unknown_arg {
        return Ok(refine(Value::unknown(ret)));
    }
    // A bug in one built-in must not take the whole run down: Go recovers from panics in
    // function implementations and reports them as errors, and so do we.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (f.imp)(args, &ret)));
    let result = result.map(|r| match r {
        Ok(Value::String(s)) if s.len() > crate::eval::budget::MAX_STRING_BYTES => Err(
            FunctionError::other(crate::eval::budget::string_too_long(s.len())),
        ),
        Ok(Value::String(s)) => {
            crate::eval::budget::strings(s.len(), Some(at));
            Ok(Value::String(s))
        }
        other => other,
    });
    result.map(|r| r.map(refine)).unwrap_or_else(|panic| {
        if crate::eval::deadline::is_expired(panic.as_ref()) {
            // Not a bug in the function: the render's deadline passed inside it.
            std::panic::resume_unwind(panic);
        }
        if crate::eval::budget::is_exhausted(panic.as_ref()) {
            // Nor is the evaluation's budget running out inside it: this call is where.
            std::panic::resume_unwind(crate::eval::budget::locate(panic, at));
        }
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        Err(FunctionError::other(format!(
            "panic in function implementation: {what}"
        )))
    })
}
