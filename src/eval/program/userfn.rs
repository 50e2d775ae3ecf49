//! User functions (`function` blocks) and `invoke` (function-hcl's `functions/load.go` and
//! `functions/impl.go`): load-time checks, then a per-evaluation function table whose
//! `invoke` evaluates a function body in a fresh scope holding only its arguments and locals.
//!
//! The call depth counter is shared by the whole evaluation and, as in Go, a call that hits
//! the limit does not give its step back (see docs/compatibility.md).

use super::blocks::header_span;
use super::gotext::{diags_error, has_errors};
use super::{Diags, attribute_span, eval_in, process_locals, to_error_diag};
use crate::analysis::references::variables;
use crate::diagnostics::Code;
use crate::eval::functions::{Function, FunctionError, FunctionTable, Param, builtins};
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::gostd::strconv::quote;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::model::{FileExpr, Function as FunctionBlock, Locals};
use crate::syntax::schema::is_identifier;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, Weak};

/// How deep `invoke` calls may nest.
const MAX_DEPTH: usize = 100;

/// One loaded user function.
struct UserFn {
    name: String,
    /// Arguments in source order with their defaults.
    args: Vec<(String, Option<Value>)>,
    locals: Locals,
    body: FileExpr,
}

/// The user functions of one evaluation and the function table that can call them.
pub(crate) struct UserFunctions {
    invoker: Arc<Invoker>,
}

struct Invoker {
    functions: BTreeMap<String, UserFn>,
    depth: AtomicUsize,
    sources: Arc<SourceMap>,
    table: OnceLock<FunctionTable>,
}

/// The built-in functions, built once per process.
fn shared_builtins() -> &'static FunctionTable {
    static TABLE: OnceLock<FunctionTable> = OnceLock::new();
    TABLE.get_or_init(builtins)
}

impl Invoker {
    fn new(functions: BTreeMap<String, UserFn>, sources: Arc<SourceMap>) -> Arc<Invoker> {
        let invoker = Arc::new(Invoker {
            functions,
            depth: AtomicUsize::new(0),
            sources,
            table: OnceLock::new(),
        });
        let weak: Weak<Invoker> = Arc::downgrade(&invoker);
        let mut table = FunctionTable::over(shared_builtins());
        table.insert(Function::new(
            "invoke",
            vec![
                Param::new("name", Type::String),
                Param::new("args", Type::Dynamic),
            ],
            None,
            Type::Dynamic,
            move |args: &[Value], _: &Type| match weak.upgrade() {
                Some(invoker) => invoker.invoke(&args[0], &args[1]),
                None => Err(FunctionError::other("the evaluation has ended")),
            },
        ));
        // The cell is new and filled only here.
        let _ = invoker.table.set(table);
        invoker
    }

    fn table(&self) -> &FunctionTable {
        self.table.get_or_init(FunctionTable::new)
    }

    fn invoke(&self, name: &Value, args: &Value) -> Result<Value, FunctionError> {
        let depth = self.depth.fetch_add(1, Ordering::SeqCst) + 1;
        if depth >= MAX_DEPTH {
            return Err(FunctionError::other(format!(
                "user function calls: max depth {MAX_DEPTH} exceeded"
            )));
        }
        let result = self.call(name.as_str().unwrap_or_default(), args);
        self.depth.fetch_sub(1, Ordering::SeqCst);
        result
    }

    fn call(&self, name: &str, args: &Value) -> Result<Value, FunctionError> {
        crate::eval::deadline::checkpoint();
        let Some(f) = self.functions.get(name) else {
            return Err(FunctionError::other(format!(
                "user function '{name}' not found"
            )));
        };
        crate::eval::coverage::call(name);
        let Value::Object(params) = args else {
            return Err(FunctionError::other(format!(
                "arguments to user function '{name}' is not an object, found {}",
                args.ty().go_string()
            )));
        };
        if let Some(extra) = params.keys().find(|k| !f.args.iter().any(|(a, _)| a == *k)) {
            return Err(FunctionError::other(format!(
                "function: {}, invalid argument {}",
                f.name,
                quote(extra)
            )));
        }
        let mut values = BTreeMap::new();
        for (arg, default) in &f.args {
            let value = match (params.get(arg), default) {
                (Some(v), _) => v.clone(),
                (None, Some(d)) => d.clone(),
                (None, None) => {
                    return Err(FunctionError::other(format!(
                        "function: {}, argument {} expected but not supplied",
                        f.name,
                        quote(arg)
                    )));
                }
            };
            values.insert(arg.clone(), value);
        }
        let root = Scope::root(self.table());
        let scope = root.child(values);
        let sources = &*self.sources;
        let (scope, _) = process_locals(sources, &scope, &f.locals)
            .map_err(|d| FunctionError::other(diags_error(&d, sources)))?;
        let (value, diags) = eval_in(sources, f.body.file, &f.body.expr, &scope);
        if has_errors(&diags) {
            return Err(FunctionError::other(diags_error(&diags, sources)));
        }
        Ok(value)
    }
}

/// The source texts a program's functions evaluate their bodies against, for
/// [`UserFunctions::load`]: a copy of `map` (the functions outlive the caller's borrow of it),
/// or, for a program without functions, which never reads them, an empty map instead of a copy
/// of every text.
pub(crate) fn function_sources(blocks: &[FunctionBlock], map: &SourceMap) -> Arc<SourceMap> {
    if blocks.is_empty() {
        Arc::new(SourceMap::new())
    } else {
        Arc::new(map.clone())
    }
}

impl UserFunctions {
    /// Loads and checks the program's functions (function-hcl's `processFunctions`); the
    /// error diagnostics of the first failing check. Warnings are dropped, as in Go.
    pub(crate) fn load(
        blocks: &[FunctionBlock],
        sources: Arc<SourceMap>,
    ) -> Result<UserFunctions, Diags> {
        let without_functions = Invoker::new(BTreeMap::new(), sources.clone());
        let mut functions: BTreeMap<String, UserFn> = BTreeMap::new();
        let mut order = Vec::new();
        for block in blocks {
            let f = load_one(block, &sources, without_functions.table())?;
            if functions.contains_key(&f.name) {
                return Err(vec![to_error_diag(
                    Code::B108,
                    "duplicate function declaration".into(),
                    &f.name,
                    header_span(&block.origin),
                )]);
            }
            order.push(f.name.clone());
            functions.insert(f.name.clone(), f);
        }
        let invoker = Invoker::new(functions, sources);
        let mut diags = Vec::new();
        for name in &order {
            if let Some(f) = invoker.functions.get(name) {
                diags.extend(check_refs(f, &invoker));
            }
        }
        if has_errors(&diags) {
            return Err(diags);
        }
        Ok(UserFunctions { invoker })
    }

    /// function-hcl's `CheckUserFunctionRefs` on any expression: every `invoke` in it has two
    /// arguments, the first a constant string naming a user function.
    pub(crate) fn check_invokes(&self, sources: &SourceMap, expr: &Expr, file: FileId) -> Diags {
        invoke_problems(expr, file, &self.invoker, sources)
    }

    /// The built-in functions plus `invoke` for these user functions.
    pub(crate) fn table(&self) -> &FunctionTable {
        self.invoker.table()
    }

    /// The declared argument names of user function `name` in source order, each with whether
    /// it has a default; `None` when there is no such function.
    pub(crate) fn signature(&self, name: &str) -> Option<Vec<(&str, bool)>> {
        self.invoker.functions.get(name).map(|f| {
            f.args
                .iter()
                .map(|(arg, default)| (arg.as_str(), default.is_some()))
                .collect()
        })
    }
}

/// A constant: evaluated with no variables and no functions.
pub(crate) fn constant(sources: &SourceMap, file: FileId, expr: &Expr) -> Value {
    // Its own budget: a constant that builds too much is simply not known.
    crate::eval::budget::within(|| eval_in(sources, file, expr, &Scope::default()).0)
        .unwrap_or_else(|_| Value::dynamic())
}

/// `processFunction` and `processArg`.
fn load_one(
    block: &FunctionBlock,
    sources: &SourceMap,
    table: &FunctionTable,
) -> Result<UserFn, Diags> {
    if has_errors(&block.problems) {
        return Err(block.problems.clone());
    }
    let name = block.name.value.clone();
    let file = block.origin.file;
    let fail = |summary: String, at: Span| Err(vec![to_error_diag(Code::B108, summary, "", at)]);
    if !is_identifier(&name) {
        return fail(
            format!("function {} : name must be an identifier", quote(&name)),
            Span::of(file, &block.name.span),
        );
    }
    if let Some(desc) = &block.description
        && !matches!(constant(sources, desc.file, &desc.expr), Value::String(_))
    {
        return fail(
            format!("function {name} : description is not a constant string"),
            attribute_span(desc),
        );
    }
    let mut args: Vec<(String, Option<Value>)> = Vec::new();
    for arg in &block.args {
        if has_errors(&arg.problems) {
            return Err(arg.problems.clone());
        }
        let arg_name = arg.name.value.clone();
        if !is_identifier(&arg_name) {
            return fail(
                format!(
                    "function {}, arg {} : name must be an identifier",
                    quote(&name),
                    quote(&arg_name)
                ),
                Span::of(arg.origin.file, &arg.name.span),
            );
        }
        if let Some(desc) = &arg.description
            && !matches!(constant(sources, desc.file, &desc.expr), Value::String(_))
        {
            return fail(
                format!(
                    "function {}, arg {} : description is not a constant string",
                    quote(&name),
                    quote(&arg_name)
                ),
                attribute_span(desc),
            );
        }
        let default = match &arg.default {
            Some(d) => {
                let value = constant(sources, d.file, &d.expr);
                if !value.is_wholly_known() {
                    return fail(
                        format!(
                            "function {}, args {}: default is not a constant",
                            quote(&name),
                            quote(&arg_name)
                        ),
                        attribute_span(d),
                    );
                }
                Some(value)
            }
            None => None,
        };
        if args.iter().any(|(a, _)| *a == arg_name) {
            let at = header_span(&arg.origin);
            return Err(vec![to_error_diag(
                Code::B108,
                format!("function {name}: duplicate definition of argument"),
                &arg_name,
                at,
            )]);
        }
        args.push((arg_name, default));
    }
    let root = Scope::root(table);
    let scope = root.child(defaults(&args));
    process_locals(sources, &scope, &block.locals)?;
    Ok(UserFn {
        name,
        args,
        locals: block.locals.clone(),
        body: block.body.clone(),
    })
}

/// The argument values used to check a function: defaults, unknown where there is none.
fn defaults(args: &[(String, Option<Value>)]) -> BTreeMap<String, Value> {
    args.iter()
        .map(|(name, d)| (name.clone(), d.clone().unwrap_or_else(Value::dynamic)))
        .collect()
}

/// `checkRefs`: the body refers only to arguments and locals, and every `invoke` in it names
/// an existing function with a constant string and has two arguments.
fn check_refs(f: &UserFn, invoker: &Invoker) -> Diags {
    let sources = &*invoker.sources;
    let root = Scope::root(invoker.table());
    let scope = root.child(defaults(&f.args));
    let (scope, mut diags) = match process_locals(sources, &scope, &f.locals) {
        Ok(ok) => ok,
        Err(diags) => return diags,
    };
    let file = f.body.file;
    for reference in variables(&f.body.expr) {
        if scope.lookup(reference.root).is_none() {
            diags.push(to_error_diag(
                Code::R203,
                format!("function {}: reference to non-existent variable", f.name),
                reference.root,
                Span::of(file, reference.span),
            ));
        }
    }
    diags.extend(invoke_problems(&f.body.expr, file, invoker, sources));
    diags
}

/// Every `invoke` call in `expr` (outer calls first) checked by [`check_invoke`].
fn invoke_problems(expr: &Expr, file: FileId, invoker: &Invoker, sources: &SourceMap) -> Diags {
    let mut calls = Vec::new();
    invoke_calls(expr, &mut calls);
    calls
        .into_iter()
        .flat_map(|call| check_invoke(call, file, invoker, sources))
        .collect()
}

fn check_invoke(call: &Expr, file: FileId, invoker: &Invoker, sources: &SourceMap) -> Diags {
    let ExprKind::Call { args, .. } = &call.kind else {
        return Vec::new();
    };
    let span = |e: &Expr| Span::of(file, &e.span);
    if args.len() != 2 {
        return vec![to_error_diag(
            Code::E403,
            "user function invocation has incorrect number of arguments".into(),
            &format!("want 2, got {}", args.len()),
            span(call),
        )];
    }
    let name = constant(sources, file, &args[0]);
    let Value::String(name) = name else {
        return vec![to_error_diag(
            Code::E403,
            "user function invocation is not via a static string".into(),
            "",
            span(&args[0]),
        )];
    };
    if !invoker.functions.contains_key(name.as_str()) {
        let names: Vec<&str> = invoker.functions.keys().map(String::as_str).collect();
        let mut d = to_error_diag(
            Code::E403,
            format!("invoke called on unknown function: {}", quote(&name)),
            "",
            span(&args[0]),
        );
        d.help = crate::diagnostics::suggest::did_you_mean(&name, &names, str::to_string);
        return vec![d];
    }
    Vec::new()
}

/// Every `invoke(…)` call in `expr`, outer calls before the calls in their arguments (hcl's
/// `VisitAll` order).
pub fn invoke_calls<'e>(expr: &'e Expr, out: &mut Vec<&'e Expr>) {
    if let ExprKind::Call { name, .. } = &expr.kind
        && &**name == "invoke"
    {
        out.push(expr);
    }
    expr.for_each_child(|child| invoke_calls(child, out));
}
