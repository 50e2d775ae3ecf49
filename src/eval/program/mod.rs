//! The function-hcl program: evaluate a composition's blocks against a request and build the
//! evaluator's response, as function-hcl's `evaluator` package does (`eval.go`,
//! `resources.go`, `composite.go`, `context.go`, `requirements.go`, `functions/`).
//!
//! Blocks are processed in source order and the first block that returns an error aborts the
//! run; errors inside values that are not known yet make their block *incomplete* (discarded,
//! reported as a warning) instead. Everything Go leaves to random map order is done in sorted
//! or source order here.

mod blocks;
mod console;
mod gotext;
pub(crate) mod messages;
mod origin;
mod outputs;
mod reads;
mod response;
mod trace;
mod unknown;
mod userfn;

pub use console::Console;
pub use gotext::{diag_error, diags_error};
pub use origin::Origin;
pub use response::HclResponse;
pub use trace::{SeenExpr, SeenLocal, Trace};
pub use unknown::{Read, Unknown};

use crate::analysis::{plan_locals, to_error_diag};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::coverage;
use crate::eval::expr;
use crate::eval::functions::FunctionTable;
use crate::eval::proto::{ResourceSelector, RunFunctionRequest};
use crate::eval::scope::Scope;
use crate::eval::value::{Attrs, Shared, Value};
use crate::eval::vars;
use crate::source::{FileId, SourceMap, Span};
use crate::syntax::ast::Expr;
use crate::syntax::model::{FileExpr, Locals, Program};
use crate::syntax::{self, ParsedFile};
pub(crate) use blocks::{header_span, iterations};
use gotext::{downgrade, has_errors};
pub(crate) use gotext::{std_base64, unify, unify_failing};
pub(crate) use messages::READY_VALUES;
pub(crate) use outputs::{check_requirement_block, selector_type_problems};
use serde_json::{Map, Value as Json};
use std::cell::RefCell;
use std::collections::BTreeMap;
pub use userfn::invoke_calls;
pub(crate) use userfn::{UserFunctions, constant, function_sources};

/// Diagnostics, Go HCL style (`hcl.Diagnostics`).
type Diags = Vec<Diagnostic>;

/// Why an evaluation failed: hcl diagnostics (errors first, as function-hcl sorts them) or a
/// plain error text.
#[derive(Clone, Debug)]
pub enum Failure {
    /// Diagnostics with at least one error, errors first.
    Diagnostics(Vec<Diagnostic>),
    /// A Go error message (`unify composite status: …`).
    Message(String),
    /// A Go error message without a range, and the diagnostic that locates it for people
    /// (two `composite status` blocks that disagree: the second, and where the first is).
    Located {
        /// The message, as function-hcl words it.
        message: String,
        /// The same problem, located.
        diagnostic: Box<Diagnostic>,
    },
}

impl Failure {
    /// The text after `evaluate hcl: ` in function-hcl's fatal result.
    pub fn message(&self, map: &SourceMap) -> String {
        match self {
            Failure::Diagnostics(diags) => diags_error(diags, map),
            Failure::Message(text) | Failure::Located { message: text, .. } => text.clone(),
        }
    }

    /// The diagnostics of the failure (a plain message becomes one span-less diagnostic).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            Failure::Diagnostics(diags) => diags.clone(),
            Failure::Message(text) => vec![Diagnostic::new(Code::E401, text.clone())],
            Failure::Located { diagnostic, .. } => vec![(**diagnostic).clone()],
        }
    }
}

/// A block left out of the output (function-hcl's `DiscardItem`).
#[derive(Clone, Debug, PartialEq)]
pub struct Discard {
    /// `resource`, `composite-status`, …
    pub kind: &'static str,
    /// `incomplete`, `bad-secret` or `user-condition`.
    pub reason: &'static str,
    /// The block's name, when it has one.
    pub name: String,
    /// Go's range text of where it happened.
    pub range: String,
    /// Where it happened.
    pub span: Option<Span>,
    /// Messages about why.
    pub context: Vec<String>,
    /// What was not known, each where it is (empty for a false condition and a bad secret).
    pub unknown: Vec<Unknown>,
    /// The collection a discarded member (`resource`) belongs to.
    pub collection: Option<String>,
    /// The resource (or collection member) a discarded nested block without a name of its
    /// own (`composite`, `context`) belongs to.
    pub owner: Option<String>,
}

impl Discard {
    /// function-hcl's `MessageString`.
    pub fn message(&self) -> String {
        let mut lines = vec![format!(
            "{}:discarded {} {}",
            self.range, self.kind, self.name
        )];
        lines.extend(self.context.iter().cloned());
        lines.join("\n")
    }
}

/// Evaluates a program's files (already in `map`, in bundle order) against `request`.
pub fn evaluate(
    map: &mut SourceMap,
    files: &[FileId],
    request: &RunFunctionRequest,
) -> Result<HclResponse, Failure> {
    evaluate_with(map, files, request, false).0
}

/// [`evaluate`], and what the evaluation saw (see [`Trace`]; `None` when it stopped before
/// processing any block: syntax, schema or user functions).
pub fn evaluate_traced(
    map: &mut SourceMap,
    files: &[FileId],
    request: &RunFunctionRequest,
) -> (Result<HclResponse, Failure>, Option<Trace>) {
    evaluate_with(map, files, request, true)
}

fn evaluate_with(
    map: &mut SourceMap,
    files: &[FileId],
    request: &RunFunctionRequest,
    traced: bool,
) -> (Result<HclResponse, Failure>, Option<Trace>) {
    let program = match parse_program(map, files) {
        Ok(program) => program,
        Err(failure) => return (Err(failure), None),
    };
    let default_name = default_name_expr(map);
    let sources: &SourceMap = map;
    let user = match UserFunctions::load(
        &program.functions,
        function_sources(&program.functions, sources),
    ) {
        Ok(user) => user,
        Err(diags) => return (Err(fail(diags)), None),
    };
    let req = vars::build_req(request);
    let mut ev = Evaluator::new(sources, user.table(), &req, request, default_name);
    if traced {
        ev.trace = Some(RefCell::new(Trace::default()));
    }
    let root = Scope::root(ev.functions);
    let mut variables = BTreeMap::new();
    variables.insert("req".to_string(), req.clone());
    let scope = root.child(variables);
    let diags = ev.group(&scope, &program.top, None);
    unknown::resolve_reads(&program, &req, &mut ev.discards);
    let trace = ev.trace.take().map(|trace| {
        let mut trace = trace.into_inner();
        trace.desired = ev
            .origins
            .iter()
            .map(|(name, origin)| (name.clone(), origin.body))
            .collect();
        trace.discards = ev.discards.clone();
        trace.diagnostics = diags.clone();
        trace
    });
    if has_errors(&diags) {
        let mut diags = diags;
        reads::label_inputs(&program, &req, &mut diags);
        return (Err(fail(diags)), trace);
    }
    (ev.into_response(diags), trace)
}

/// function-hcl's first step: parse every file (stopping at the first file with syntax
/// errors) and check the top-level schema of all of them.
fn parse_program(map: &SourceMap, files: &[FileId]) -> Result<Program, Failure> {
    let mut parsed = Vec::with_capacity(files.len());
    for &file in files {
        let result = syntax::parse_file(map.get(file));
        if result.has_errors() {
            return Err(fail(result.diagnostics));
        }
        parsed.push(ParsedFile {
            file,
            body: result.body,
        });
    }
    let program = syntax::model::build_owned(parsed);
    if has_errors(&program.top.problems) {
        return Err(fail(program.top.problems.clone()));
    }
    Ok(program)
}

/// Errors first, order otherwise kept (Go's `sort.SliceStable` by severity).
fn fail(mut diags: Diags) -> Failure {
    diags.sort_by_key(|d| d.severity != Severity::Error);
    Failure::Diagnostics(diags)
}

/// The default member name of a collection, `${self.basename}-${each.key}`, parsed from a
/// pseudo-file named as function-hcl names it (added to the map once, however many
/// evaluations share the map).
fn default_name_expr(map: &mut SourceMap) -> FileExpr {
    const NAME: &str = "default-name.hcl";
    const TEXT: &str = "\"${self.basename}-${each.key}\"\n";
    let existing = map
        .files()
        .iter()
        .find(|f| f.name() == NAME && f.text() == TEXT)
        .map(|f| f.id());
    let file = existing.unwrap_or_else(|| map.add(NAME, TEXT));
    let (expr, _) = syntax::parse_expression(map.get(file));
    FileExpr {
        file,
        name_span: expr.span.start..expr.span.start,
        expr,
    }
}

/// The state of one evaluation (function-hcl's `Evaluator`).
struct Evaluator<'a> {
    map: &'a SourceMap,
    functions: &'a FunctionTable,
    default_name: FileExpr,
    /// Observed composed resources that are not collection members, by name.
    existing: BTreeMap<String, Value>,
    /// Their connection details (objects of base64 strings, or null).
    existing_connections: BTreeMap<String, Value>,
    desired: BTreeMap<String, Json>,
    ready: BTreeMap<String, &'static str>,
    requirements: BTreeMap<String, ResourceSelector>,
    statuses: Vec<Map<String, Json>>,
    /// Where each of `statuses` was written (its `composite status` block).
    status_at: Vec<Span>,
    connections: Vec<BTreeMap<String, Vec<u8>>>,
    /// Where each of `connections` was written (its `composite connection` block).
    connection_at: Vec<Span>,
    contexts: Vec<Map<String, Json>>,
    /// Where each of `contexts` was written (its `context` block).
    context_at: Vec<Span>,
    discards: Vec<Discard>,
    /// Where each desired resource's body was written (one per body, shared by the members
    /// of a collection).
    origins: BTreeMap<String, std::sync::Arc<Origin>>,
    origin_cache: BTreeMap<(FileId, u32), std::sync::Arc<Origin>>,
    /// What the evaluation sees, when asked for ([`evaluate_traced`]).
    trace: Option<RefCell<Trace>>,
}

impl<'a> Evaluator<'a> {
    fn new(
        map: &'a SourceMap,
        functions: &'a FunctionTable,
        req: &Value,
        request: &RunFunctionRequest,
        default_name: FileExpr,
    ) -> Evaluator<'a> {
        let pick = |key: &str| match req {
            Value::Object(top) => match top.get(key) {
                Some(Value::Object(items)) => items.clone(),
                _ => BTreeMap::new().into(),
            },
            _ => BTreeMap::new().into(),
        };
        let (resources, connections) = (pick("resource"), pick("connection"));
        let members = vars::collection_members(request);
        let keep = |items: Attrs| -> BTreeMap<String, Value> {
            items
                .iter()
                .filter(|(name, _)| !members.contains(*name))
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect()
        };
        Evaluator {
            map,
            functions,
            default_name,
            existing: keep(resources),
            existing_connections: keep(connections),
            desired: BTreeMap::new(),
            ready: BTreeMap::new(),
            requirements: BTreeMap::new(),
            statuses: Vec::new(),
            status_at: Vec::new(),
            connections: Vec::new(),
            connection_at: Vec::new(),
            contexts: Vec::new(),
            context_at: Vec::new(),
            discards: Vec::new(),
            origins: BTreeMap::new(),
            origin_cache: BTreeMap::new(),
            trace: None,
        }
    }

    /// Evaluates one expression.
    fn eval(&self, e: &FileExpr, scope: &Scope) -> (Value, Diags) {
        if let Some(trace) = &self.trace {
            trace.borrow_mut().expr(e, scope);
        }
        eval_in(self.map, e.file, &e.expr, scope)
    }

    /// Go's range text of a span.
    fn range(&self, span: Span) -> String {
        self.map.range_text(span)
    }

    /// function-hcl's `messagesFromDiags`: each diagnostic as `<source>, <Error()>`.
    fn messages(&self, diags: &[Diagnostic]) -> Vec<String> {
        diags
            .iter()
            .map(|d| {
                let error = diag_error(d, self.map);
                match d.expression {
                    Some(span) => format!("{}, {error}", self.map.get(span.file).slice(span)),
                    None => error,
                }
            })
            .collect()
    }

    fn discard(
        &mut self,
        kind: &'static str,
        reason: &'static str,
        name: &str,
        span: Span,
        context: Vec<String>,
        unknown: Vec<Unknown>,
    ) {
        self.discards.push(Discard {
            kind,
            reason,
            name: name.to_string(),
            range: self.range(span),
            span: Some(span),
            context,
            unknown,
            collection: None,
            owner: None,
        });
    }

    /// Sets the owner of the last discard to the resource `scope` is inside of (its
    /// `self.name`), if any.
    fn discard_owner(&mut self, scope: &Scope) {
        let owner = match scope.lookup("self") {
            Some(Value::Object(items)) => match items.get("name") {
                Some(Value::String(name)) => Some(name.to_string()),
                _ => None,
            },
            _ => None,
        };
        if let Some(last) = self.discards.last_mut() {
            last.owner = owner;
        }
    }

    /// Processes a body's locals: a child scope holding them all (the scope itself when there
    /// are none). Evaluation errors become warnings and leave the local unknown.
    fn locals<'s>(
        &self,
        scope: &'s Scope<'s>,
        locals: &Locals,
    ) -> Result<(Scope<'s>, Diags), Diags> {
        let processed = process_locals(self.map, scope, locals);
        if let (Some(trace), Ok((child, diags))) = (&self.trace, &processed) {
            trace.borrow_mut().locals(locals, child, diags);
        }
        processed
    }

    /// Enters a block: its schema problems end it, else its locals' scope.
    fn enter<'s>(
        &self,
        scope: &'s Scope<'s>,
        problems: &[Diagnostic],
        locals: &Locals,
    ) -> Result<(Scope<'s>, Diags), Diags> {
        if has_errors(problems) {
            return Err(problems.to_vec());
        }
        self.locals(scope, locals)
    }

    /// function-hcl's `evaluateCondition`: whether to process the block, and diagnostics.
    fn condition(
        &mut self,
        scope: &Scope,
        condition: Option<&FileExpr>,
        kind: &'static str,
        name: &str,
    ) -> (bool, Diags) {
        let Some(cond) = condition else {
            return (true, Vec::new());
        };
        let span = attribute_span(cond);
        let (val, diags) = self.eval(cond, scope);
        if has_errors(&diags) || !val.is_wholly_known() {
            coverage::condition(expr_span(cond), coverage::Outcome::Incomplete);
            let context = self.messages(&diags);
            let unknown = self.unknowns(cond, scope, &diags);
            self.discard(kind, "incomplete", name, span, context, unknown);
            return (false, downgrade(diags));
        }
        let mut diags = diags;
        match val {
            Value::Bool(b) => {
                let outcome = [coverage::Outcome::False, coverage::Outcome::True][usize::from(b)];
                coverage::condition(expr_span(cond), outcome);
                if !b {
                    // Not unknown: the condition itself is where to look.
                    let unknown = vec![Unknown {
                        span: expr_span(cond),
                        text: self.map.get(cond.file).slice(expr_span(cond)).to_string(),
                        error: None,
                        reads: Vec::new(),
                    }];
                    self.discard(kind, "user-condition", name, span, Vec::new(), unknown);
                }
                (b, diags)
            }
            // function-hcl gives these no range (Go's `<nil>` in its message); the expression
            // span locates them for people without changing that text.
            Value::Null(_) => {
                diags.push(
                    plain_error(messages::CONDITION_NULL.to_string())
                        .with_expression(expr_span(cond))
                        .with_help(messages::CONDITION_HELP),
                );
                (false, diags)
            }
            other => {
                diags.push(
                    plain_error(messages::condition_type(&other.ty().friendly_name()))
                        .with_expression(expr_span(cond))
                        .with_help(messages::CONDITION_HELP),
                );
                (false, diags)
            }
        }
    }
}

/// Evaluates `expr` of `file` in `scope` with Go's range texts available for messages.
pub(crate) fn eval_in(map: &SourceMap, file: FileId, expr: &Expr, scope: &Scope) -> (Value, Diags) {
    expr::Evaluator::new(file)
        .with_sources(map)
        .eval(expr, scope)
}

/// The locals processor shared by blocks and user functions.
fn process_locals<'s>(
    map: &SourceMap,
    scope: &'s Scope<'s>,
    locals: &Locals,
) -> Result<(Scope<'s>, Diags), Diags> {
    if has_errors(&locals.problems) {
        return Err(locals.problems.clone());
    }
    let plan =
        plan_locals(&locals.items, |name| scope.lookup(name).is_some()).map_err(|d| vec![*d])?;
    let mut child = scope.child(BTreeMap::new());
    let mut diags = Vec::new();
    // Values wait here until a local that refers to others is evaluated, then go into the
    // scope together: most locals refer to none, and a map built at once from all of them
    // (sorted, then laid out) costs two thirds of inserting them one by one (4,000 locals).
    let mut pending: Vec<(String, Value)> = Vec::with_capacity(plan.order.len());
    for i in plan.order {
        let local = &locals.items[i];
        if plan.refers[i] {
            add_pending(&mut child.variables, &mut pending);
        }
        let (val, more) = eval_in(map, local.value.file, &local.value.expr, &child);
        diags.extend(downgrade(more));
        pending.push((local.name.clone(), val));
    }
    add_pending(&mut child.variables, &mut pending);
    Ok((child, diags))
}

/// Moves the evaluated locals of `pending` into a scope's variables (names are distinct: the
/// plan refuses duplicates).
fn add_pending(variables: &mut BTreeMap<String, Value>, pending: &mut Vec<(String, Value)>) {
    if variables.is_empty() {
        // Sorted in place first: the map's own (stable) sort then finds one run and touches
        // none of the scratch room it sets aside.
        pending.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        *variables = std::mem::take(pending).into_iter().collect();
    } else {
        variables.extend(pending.drain(..));
    }
}

/// The whole `name = value` attribute of an expression.
fn attribute_span(e: &FileExpr) -> Span {
    Span::of(e.file, &(e.name_span.start..e.expr.span.end))
}

/// The expression's own span.
pub(crate) fn expr_span(e: &FileExpr) -> Span {
    Span::of(e.file, &e.expr.span)
}

/// A function-hcl error made from a Go error (`Err2Diag`): no range.
fn plain_error(summary: String) -> Diagnostic {
    Diagnostic::new(Code::E401, summary)
}

/// A function-hcl error with a subject range only.
fn error_at(summary: String, at: Span) -> Diagnostic {
    Diagnostic::new(Code::E401, summary).with_primary(at, None)
}

/// The `self` scope: the nearest enclosing `self` with these keys added or replaced.
pub(crate) fn self_scope<'s>(scope: &'s Scope<'s>, entries: Vec<(&str, Value)>) -> Scope<'s> {
    let mut table = match scope.lookup("self") {
        Some(Value::Object(items)) => items.clone(),
        _ => BTreeMap::new().into(),
    };
    for (key, value) in entries {
        Shared::make_mut(&mut table).insert(key.to_string(), value);
    }
    let mut variables = BTreeMap::new();
    variables.insert("self".to_string(), Value::Object(table));
    scope.child(variables)
}
