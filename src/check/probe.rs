//! The probe: the program evaluated the way function-hcl evaluates it, but with every input
//! unknown (`req.*`, observed resources, `each` of an unknown `for_each`) and every block
//! visited whatever its condition. cty propagates unknowns instead of failing, so whatever
//! still fails or has the wrong type here fails for every input: those are the findings.
//!
//! Errors where function-hcl fails the render (`for_each`, a context key, a collection's
//! name, a condition, ready value or body of the wrong type, …) are reported with the
//! function's own messages (`C5xx`); errors elsewhere make a block incomplete at run time and
//! are reported as `L608 always-fails`; `try`/`can` arguments that never succeed as `L606`.

use crate::analysis::plan_locals;
use crate::analysis::references::variables;
use crate::check::analyzer::object_key;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::eval::convert::convert;
use crate::eval::expr::{Evaluator, TryLog};
use crate::eval::program::messages;
use crate::eval::program::{
    READY_VALUES, UserFunctions, expr_span, header_span, iterations, selector_type_problems,
    self_scope, std_base64, unify,
};
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::eval::{budget, deadline};
use crate::source::{SourceMap, Span};
use crate::syntax::ast::ExprKind;
use crate::syntax::model::{
    Child, Collection, Composite, ContextBlock, FileExpr, Function, GroupBody, Locals, Origin,
    Program, Ready, Requirement, Resource, ResourceChild,
};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// How many members of a constant `for_each` are named one by one (for duplicate names).
const MAX_MEMBERS: usize = 10_000;

/// Runs the probe over a program whose user functions loaded.
pub fn run(map: &SourceMap, program: &Program, user: &UserFunctions) -> Vec<Diagnostic> {
    probe(map, program, user, false).0
}

/// The value every local takes in the probe (unknown where it depends on the request), by the
/// local's name: one entry per evaluation (a collection's locals once per known member, or once
/// with `each` unknown). A user function's locals are not evaluated by the probe.
pub fn local_values(
    map: &SourceMap,
    program: &Program,
    user: &UserFunctions,
) -> Vec<(Span, Value)> {
    probe(map, program, user, true).1
}

fn probe(
    map: &SourceMap,
    program: &Program,
    user: &UserFunctions,
    record: bool,
) -> (Vec<Diagnostic>, Vec<(Span, Value)>) {
    let log = TryLog::default();
    let mut probe = Probe {
        map,
        log: &log,
        out: Vec::new(),
        names: Vec::new(),
        conditional: 0,
        outputs: Outputs::default(),
        locals: record.then(Vec::new),
        stop: RefCell::new(None),
    };
    // One budget for the whole probe, as a render has one for the whole program; running out
    // of it, or of `check`'s time, inside an expression is caught there ([`Probe::eval`]), and
    // anywhere else here.
    let walked = deadline::within(None, || budget::within(|| walk(&mut probe, program, user)));
    let stopped = match walked {
        Ok(Ok(())) => None,
        Ok(Err(exhausted)) => Some(exhausted.diagnostic()),
        Err(deadline::Expired) => Some(too_slow(None)),
    };
    let stop = probe.stop.take().or(stopped);
    probe.out.extend(stop);
    (probe.out, probe.locals.unwrap_or_default())
}

fn walk(probe: &mut Probe, program: &Program, user: &UserFunctions) {
    let root = Scope::root(user.table());
    let mut req = BTreeMap::new();
    for key in crate::check::analyzer::REQ_KEYS {
        req.insert(key.to_string(), Value::dynamic());
    }
    let mut vars = BTreeMap::new();
    vars.insert("req".to_string(), Value::Object(req.into()));
    let top = root.child(vars);
    probe.group(&top, &program.top);
    for f in &program.functions {
        probe.function(&root, f);
    }
    if probe.stop.borrow().is_none() {
        // What the probe saw is incomplete once it stopped: nothing more to conclude.
        probe.duplicates();
        probe.tries();
    }
}

/// The finding when `check`'s time bound passed while evaluating `at` (or elsewhere).
pub(crate) fn too_slow(at: Option<Span>) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::T304, "Evaluation took too long")
        .with_detail(format!(
            "check evaluates a composition for at most {} s; it stopped here, and what follows was not checked.",
            super::EVALUATION_TIME.as_secs()
        ))
        .with_help(
            "look for nested `for` expressions over large collections; `fnhcl render --timeout` shows how long a render takes",
        );
    match at {
        Some(span) => diagnostic.with_primary(span, None),
        None => diagnostic,
    }
}

struct Probe<'a> {
    map: &'a SourceMap,
    log: &'a TryLog,
    out: Vec<Diagnostic>,
    /// Composed resource names and where they come from (resources, then members).
    names: Vec<(String, Span, bool)>,
    /// How many enclosing blocks may not run (a condition, a body not known yet, a member).
    conditional: u32,
    /// The constant outputs of blocks that always run, merged as function-hcl merges them.
    outputs: Outputs,
    /// The locals' values, when asked for ([`local_values`]).
    locals: Option<Vec<(Span, Value)>>,
    /// Why the probe stopped evaluating (the budget or the time bound ran out), once it has:
    /// reported once, at the expression where it happened.
    stop: RefCell<Option<Diagnostic>>,
}

/// Constant `composite status`, `composite connection` and `context` outputs so far.
#[derive(Default)]
struct Outputs {
    status: serde_json::Map<String, serde_json::Value>,
    connection: BTreeMap<String, Vec<u8>>,
    context: serde_json::Map<String, serde_json::Value>,
}

/// The outputs merged as objects.
enum Output {
    Status,
    Context,
}

/// Which block's condition, for function-hcl's message around a condition of the wrong type.
enum Owner<'n> {
    Group,
    Resource(&'n str),
    Collection(&'n str),
    Requirement,
}

impl Probe<'_> {
    fn eval(&self, e: &FileExpr, scope: &Scope) -> (Value, Vec<Diagnostic>) {
        if self.stop.borrow().is_some() {
            // Unknown, as every value is after the probe stopped: no finding follows from it.
            return (Value::dynamic(), Vec::new());
        }
        let run = || {
            Evaluator::new(e.file)
                .with_sources(self.map)
                .with_try_log(self.log)
                .eval(&e.expr, scope)
        };
        let stop = match deadline::within(None, || budget::guard(run)) {
            Ok(Ok(done)) => return done,
            Ok(Err(mut exhausted)) => {
                exhausted.span = exhausted.span.or(Some(expr_span(e)));
                exhausted.diagnostic()
            }
            Err(deadline::Expired) => too_slow(Some(expr_span(e))),
        };
        *self.stop.borrow_mut() = Some(stop);
        (Value::dynamic(), Vec::new())
    }

    /// Evaluates an expression whose errors make its block incomplete: they are `L608`.
    fn value(&mut self, e: &FileExpr, scope: &Scope) -> Value {
        let (value, diags) = self.eval(e, scope);
        let errors: Vec<Diagnostic> = diags.into_iter().filter(is_error).collect();
        if errors.is_empty() {
            return value;
        }
        self.out.extend(errors.into_iter().map(always_fails));
        Value::dynamic()
    }

    /// Evaluates an expression whose errors fail the render: `Err` with the first error's
    /// message.
    fn fatal_value(&self, e: &FileExpr, scope: &Scope) -> Result<Value, String> {
        let (value, diags) = self.eval(e, scope);
        match diags.into_iter().find(|d| d.severity == Severity::Error) {
            Some(error) => Err(error.message()),
            None => Ok(value),
        }
    }

    /// A scope's locals: evaluated in dependency order, or all unknown when the analyzer
    /// rejected them.
    fn locals<'s>(&mut self, scope: &'s Scope<'s>, locals: &Locals) -> Scope<'s> {
        let mut child = scope.child(BTreeMap::new());
        match plan_locals(&locals.items, |name| scope.lookup(name).is_some()) {
            Ok(plan) => {
                for i in plan.order {
                    let local = &locals.items[i];
                    let value = self.value(&local.value, &child);
                    if let Some(seen) = &mut self.locals {
                        seen.push((
                            Span::of(local.value.file, &local.value.name_span),
                            value.clone(),
                        ));
                    }
                    child.variables.insert(local.name.clone(), value);
                }
            }
            Err(_) => {
                for local in &locals.items {
                    child.variables.insert(local.name.clone(), Value::dynamic());
                }
            }
        }
        child
    }

    fn group(&mut self, scope: &Scope, body: &GroupBody) {
        let scope = self.locals(scope, &body.locals);
        self.condition(&scope, body.condition.as_ref(), Owner::Group);
        let conditional = u32::from(body.condition.is_some());
        self.conditional += conditional;
        self.children(&scope, body);
        self.conditional -= conditional;
    }

    fn children(&mut self, scope: &Scope, body: &GroupBody) {
        for child in &body.children {
            match child {
                Child::Group(g) => self.group(scope, &g.body),
                Child::Resource(r) => self.resource(scope, r),
                Child::Resources(c) => self.collection(scope, c),
                Child::Composite(c) => self.composite(scope, c),
                Child::Context(c) => self.context(scope, c),
                Child::Requirement(r) => self.requirement(scope, r),
            }
        }
    }

    fn condition(&mut self, scope: &Scope, cond: Option<&FileExpr>, owner: Owner) {
        let Some(cond) = cond else { return };
        let value = self.value(cond, scope);
        let ty = value.ty();
        let wrong = match &value {
            Value::Null(_) => Some(messages::CONDITION_NULL.to_string()),
            _ if ty != Type::Bool && ty != Type::Dynamic => {
                Some(messages::condition_type(&ty.friendly_name()))
            }
            _ => None,
        };
        if let Some(detail) = wrong {
            let summary = match owner {
                Owner::Group => messages::GROUP_CONDITION.to_string(),
                Owner::Resource(name) => messages::resource_condition(name),
                Owner::Collection(base) => messages::collection_condition(base),
                Owner::Requirement => detail.clone(),
            };
            self.report(Code::C504, summary, Some(detail), expr_span(cond));
            return;
        }
        // A bare `true`/`false` is a deliberate switch; a computed constant is a mistake.
        let literal = matches!(cond.expr.kind, ExprKind::Literal(_));
        if let Value::Bool(b) = value
            && !literal
            && variables(&cond.expr).is_empty()
        {
            self.out.push(
                Diagnostic::new(Code::L607, format!("this condition is always {b}"))
                    .with_primary(expr_span(cond), None)
                    .with_help(if b {
                        "remove the condition, or make it depend on the inputs"
                    } else {
                        "the block is never produced: remove it, or make the condition depend on the inputs"
                    }),
            );
        }
    }

    fn resource(&mut self, scope: &Scope, r: &Resource) {
        let name = r.name.value.as_str();
        self.names
            .push((name.to_string(), label_span(&r.origin, &r.name.span), false));
        let scope = self_scope(
            scope,
            vec![
                ("name", Value::string(name)),
                ("resource", Value::dynamic()),
                ("connection", Value::dynamic()),
            ],
        );
        let scope = self.locals(&scope, &r.locals);
        self.condition(&scope, r.condition.as_ref(), Owner::Resource(name));
        let known = self.body(&scope, &r.body, name, false);
        // Nested blocks run only when the body is complete.
        let conditional = u32::from(r.condition.is_some() || !known);
        self.conditional += conditional;
        self.nested(&scope, name, &r.children);
        self.conditional -= conditional;
    }

    /// A resource or template body: an object (or an unknown that may be one), whose
    /// `metadata` and `metadata.annotations` are objects in a collection member. Whether it is
    /// wholly known.
    fn body(&mut self, scope: &Scope, body: &FileExpr, name: &str, member: bool) -> bool {
        let value = self.value(body, scope);
        if member && let Some(what) = bad_metadata(&value) {
            self.report(
                Code::C508,
                messages::body_not_struct(name),
                Some(what),
                expr_span(body),
            );
        }
        let object = matches!(value.ty(), Type::Object(_) | Type::Map(_) | Type::Dynamic);
        if value.is_null() || !object {
            self.report(
                Code::C508,
                messages::body_not_struct(name),
                Some(format!(
                    "the body is {}; a resource body must be an object",
                    type_or_null(&value)
                )),
                expr_span(body),
            );
        }
        value.is_wholly_known()
    }

    fn nested(&mut self, scope: &Scope, name: &str, children: &[ResourceChild]) {
        for child in children {
            match child {
                ResourceChild::Composite(c) => self.composite(scope, c),
                ResourceChild::Context(c) => self.context(scope, c),
                ResourceChild::Ready(r) => self.ready(scope, name, r),
            }
        }
    }

    fn collection(&mut self, scope: &Scope, c: &Collection) {
        let base = c.name.value.as_str();
        match c.templates.as_slice() {
            [] => self.report(
                Code::C502,
                messages::no_template(base),
                None,
                header_span(&c.origin),
            ),
            [_] => {}
            [_, second, ..] => self.report(
                Code::C502,
                messages::multiple_templates(base),
                None,
                header_span(&second.origin),
            ),
        }
        let scope = self_scope(
            scope,
            vec![
                ("basename", Value::string(base)),
                ("resources", Value::dynamic()),
                ("connections", Value::dynamic()),
            ],
        );
        let scope = self.locals(&scope, &c.locals);
        self.condition(&scope, c.condition.as_ref(), Owner::Collection(base));
        let members = self.for_each(&scope, c);
        self.member_names(&scope, c, members.as_deref());
        let mut each = BTreeMap::new();
        each.insert("key".to_string(), Value::dynamic());
        each.insert("value".to_string(), Value::dynamic());
        let mut vars = BTreeMap::new();
        vars.insert("each".to_string(), Value::Object(each.into()));
        let iteration = scope.child(vars);
        for t in &c.templates {
            let member = self_scope(
                &iteration,
                vec![
                    ("name", Value::unknown(Type::String)),
                    ("resource", Value::dynamic()),
                    ("connection", Value::dynamic()),
                ],
            );
            let member = self.locals(&member, &t.locals);
            self.body(&member, &t.body, base, true);
            self.conditional += 1;
            self.nested(&member, base, &t.children);
            self.conditional -= 1;
        }
        // Collection-level blocks run after the members (even with none), without `each`.
        let conditional = u32::from(c.condition.is_some());
        self.conditional += conditional;
        self.nested(&scope, base, &c.children);
        self.conditional -= conditional;
    }

    /// `for_each`: the iterations when they are known, after the fatal checks.
    fn for_each(&mut self, scope: &Scope, c: &Collection) -> Option<Vec<(Value, Value)>> {
        let base = c.name.value.as_str();
        let at = expr_span(&c.for_each);
        let value = match self.fatal_value(&c.for_each, scope) {
            Ok(value) => value,
            Err(error) => {
                self.report(Code::C505, messages::for_each_failed(base), Some(error), at);
                return None;
            }
        };
        let ty = value.ty();
        let iterable = matches!(
            ty,
            Type::Dynamic
                | Type::List(_)
                | Type::Map(_)
                | Type::Set(_)
                | Type::Tuple(_)
                | Type::Object(_)
        );
        if value.is_null() || !iterable {
            let detail = if value.is_null() {
                "for_each value is null or unknown".to_string()
            } else {
                format!(
                    "for_each value is not iterable, found type {}",
                    ty.friendly_name()
                )
            };
            self.report(Code::C505, messages::no_iterations(base), Some(detail), at);
            return None;
        }
        if !value.is_wholly_known() {
            return None;
        }
        iterations(&value).filter(|items| items.len() <= MAX_MEMBERS)
    }

    /// The member names: each one when `for_each` is known, else the name expression once
    /// with an unknown `each`.
    fn member_names(&mut self, scope: &Scope, c: &Collection, members: Option<&[(Value, Value)]>) {
        let base = c.name.value.as_str();
        let at = c
            .name_expr
            .as_ref()
            .map_or_else(|| header_span(&c.origin), expr_span);
        let unknown = [(Value::dynamic(), Value::dynamic())];
        let (members, known) = match members {
            Some(m) => (m, true),
            None => (&unknown[..], false),
        };
        for (key, value) in members {
            let name = match &c.name_expr {
                Some(expr) => {
                    let mut each = BTreeMap::new();
                    each.insert("key".to_string(), key.clone());
                    each.insert("value".to_string(), value.clone());
                    let mut vars = BTreeMap::new();
                    vars.insert("each".to_string(), Value::Object(each.into()));
                    let iteration = scope.child(vars);
                    match self.fatal_value(expr, &iteration) {
                        Ok(name) => name,
                        Err(error) => {
                            self.report(Code::C510, messages::name_failed(base), Some(error), at);
                            return;
                        }
                    }
                }
                None => match convert(key, &Type::String) {
                    Ok(Value::String(k)) => Value::string(format!("{base}-{k}")),
                    Ok(other) => other,
                    Err(e) => {
                        let summary = messages::name_failed(base);
                        let detail = format!(
                            "the default name \"${{self.basename}}-${{each.key}}\" needs a key that converts to a string: {e}"
                        );
                        self.report(Code::C510, summary, Some(detail), at);
                        return;
                    }
                },
            };
            let ty = name.ty();
            if name.is_null() || (ty != Type::String && ty != Type::Dynamic) {
                let detail = format!("got {}", type_or_null(&name));
                self.report(
                    Code::C510,
                    messages::name_not_string(base),
                    Some(detail),
                    at,
                );
                return;
            }
            if let (true, Value::String(s)) = (known, name) {
                self.names.push((s.into_string(), at, true));
            }
        }
    }

    fn composite(&mut self, scope: &Scope, c: &Composite) {
        let label = c.object.value.as_str();
        if label != "status" && label != "connection" {
            self.report(
                Code::C501,
                messages::composite_label(label),
                None,
                label_span(&c.origin, &c.object.span),
            );
            return;
        }
        let scope = self.locals(scope, &c.locals);
        let value = self.value(&c.body, &scope);
        let at = expr_span(&c.body);
        let ty = value.ty();
        if value.is_null() {
            return;
        }
        if let Some(kind) = json_kind(&ty).filter(|k| *k != "object") {
            self.report(Code::C508, messages::status_not_object(kind), None, at);
            return;
        }
        if label != "connection" {
            self.merge_status(&value, at);
            return;
        }
        self.merge_connection(&value, at);
        let fields: Vec<(String, Type, bool)> = match &value {
            Value::Object(items) => items
                .iter()
                .map(|(k, v)| (k.clone(), v.ty(), v.is_null()))
                .collect(),
            Value::Map { items, .. } => items
                .iter()
                .map(|(k, v)| (k.clone(), v.ty(), v.is_null()))
                .collect(),
            _ => Vec::new(),
        };
        for (key, ty, null) in fields {
            let go = if null { Some("<nil>") } else { go_type(&ty) };
            if let Some(go) = go.filter(|g| *g != "string") {
                let value_at = literal_value_span(self.map, &c.body, &key).unwrap_or(at);
                self.report(
                    Code::C506,
                    messages::connection_not_string(&key, go),
                    None,
                    value_at,
                );
            }
        }
    }

    fn context(&mut self, scope: &Scope, c: &ContextBlock) {
        let scope = self.locals(scope, &c.locals);
        let at = expr_span(&c.key);
        let key = match self.fatal_value(&c.key, &scope) {
            Err(error) => {
                let summary = messages::CONTEXT_KEY_FAILED.into();
                self.report(Code::C507, summary, Some(error), at);
                None
            }
            Ok(key) => {
                let ty = key.ty();
                if key.is_null() || (ty != Type::String && ty != Type::Dynamic) {
                    // function-hcl names a null key's type `dynamic`.
                    let what = if key.is_null() {
                        "dynamic".to_string()
                    } else {
                        ty.friendly_name()
                    };
                    let summary = messages::context_key_not_string(&what);
                    self.report(Code::C507, summary, None, at);
                }
                Some(key)
            }
        };
        let value = self.value(&c.value, &scope);
        if let (Some(Value::String(key)), Some(json)) = (key, constant_json(&value)) {
            let mut entry = serde_json::Map::new();
            entry.insert(key.into_string(), json);
            self.merge(Output::Context, &entry, expr_span(&c.value));
        }
    }

    /// A constant status body of a block that always runs, merged with the others.
    fn merge_status(&mut self, value: &Value, at: Span) {
        if let Some(serde_json::Value::Object(object)) = constant_json(value) {
            self.merge(Output::Status, &object, at);
        }
    }

    fn merge(
        &mut self,
        which: Output,
        object: &serde_json::Map<String, serde_json::Value>,
        at: Span,
    ) {
        if self.conditional > 0 {
            return;
        }
        let (acc, conflict): (_, fn(&str) -> String) = match which {
            Output::Status => (&mut self.outputs.status, messages::status_conflict),
            Output::Context => (&mut self.outputs.context, messages::context_conflict),
        };
        match unify(&[&*acc, object]) {
            Ok(merged) => *acc = merged,
            Err(e) => self.report(Code::C511, conflict(&e), None, at),
        }
    }

    /// Constant connection values of a block that always runs: one value per key.
    fn merge_connection(&mut self, value: &Value, at: Span) {
        if self.conditional > 0 {
            return;
        }
        let Value::Object(items) = value else { return };
        let mut conflicts = Vec::new();
        for (key, v) in items.iter() {
            let Some(bytes) = v.as_str().and_then(std_base64) else {
                continue;
            };
            match self.outputs.connection.get(key) {
                Some(existing) if *existing != bytes => conflicts.push(key.clone()),
                Some(_) => {}
                None => {
                    self.outputs.connection.insert(key.clone(), bytes);
                }
            }
        }
        for key in conflicts {
            self.report(Code::C511, messages::connection_conflict(&key), None, at);
        }
    }

    fn ready(&mut self, scope: &Scope, name: &str, r: &Ready) {
        let scope = self.locals(scope, &r.locals);
        let value = self.value(&r.value, &scope);
        let at = expr_span(&r.value);
        let ty = value.ty();
        if value.is_null() || (ty != Type::String && ty != Type::Dynamic) {
            self.report(Code::C503, messages::ready_not_string(name), None, at);
        } else if let Value::String(s) = &value
            && !READY_VALUES.contains(&s.as_str())
        {
            self.report(Code::C503, messages::ready_invalid(name), None, at);
        }
    }

    fn requirement(&mut self, scope: &Scope, r: &Requirement) {
        let name = r.name.value.as_str();
        let scope = self.locals(scope, &r.locals);
        self.condition(&scope, r.condition.as_ref(), Owner::Requirement);
        let Some(select) = r.selects.first() else {
            return;
        };
        let problems = selector_type_problems(name, select, |e| self.value(e, &scope));
        self.out.extend(problems);
    }

    /// A user function's body with every argument unknown.
    fn function(&mut self, root: &Scope, f: &Function) {
        let args: BTreeMap<String, Value> = f
            .args
            .iter()
            .map(|a| (a.name.value.clone(), Value::dynamic()))
            .collect();
        let scope = root.child(args);
        let scope = self.locals(&scope, &f.locals);
        self.value(&f.body, &scope);
    }

    /// Two sources of one composed resource name.
    fn duplicates(&mut self) {
        let mut first: BTreeMap<&str, Span> = BTreeMap::new();
        let mut found = Vec::new();
        for (name, at, member) in &self.names {
            match first.get(name.as_str()) {
                // Two `resource` blocks of one name are `duplicate-name` (B107).
                Some(_) if !member && !self.is_member(name) => {}
                Some(earlier) => found.push((name.clone(), *at, *earlier)),
                None => {
                    first.insert(name, *at);
                }
            }
        }
        for (name, at, earlier) in found {
            self.out.push(
                Diagnostic::new(Code::C509, messages::duplicate_resource(&name))
                    .with_primary(at, None)
                    .with_label(crate::diagnostics::Label::new(
                        earlier,
                        "also produced here",
                    )),
            );
        }
    }

    fn is_member(&self, name: &str) -> bool {
        self.names.iter().any(|(n, _, member)| *member && n == name)
    }

    /// `try`/`can` arguments that failed every time they were evaluated.
    fn tries(&mut self) {
        for (span, o) in self.log.outcomes() {
            if o.failed == 0 || o.succeeded > 0 || o.unknown > 0 {
                continue;
            }
            let mut d = Diagnostic::new(
                Code::L606,
                "this argument of try() or can() fails whatever the inputs",
            )
            .with_primary(span, None)
            .with_help("fix the expression; try() always falls back past it and can() is false");
            if let Some(error) = o.first_error {
                d.detail = Some(error.message());
            }
            self.out.push(d);
        }
    }

    fn report(&mut self, code: Code, summary: String, detail: Option<String>, at: Span) {
        let mut d = Diagnostic::new(code, summary).with_primary(at, None);
        d.detail = detail;
        self.out.push(d);
    }
}

/// A wholly known value as function-hcl hands it on (JSON, numbers through float64).
fn constant_json(value: &Value) -> Option<serde_json::Value> {
    if !value.is_wholly_known() {
        return None;
    }
    crate::eval::json::to_json(value)
        .ok()
        .map(|json| crate::eval::proto::struct_numbers(&json))
}

/// Why a collection member's body would not convert: `metadata` or its `annotations` not
/// an object (function-hcl writes the collection annotations into them).
fn bad_metadata(body: &Value) -> Option<String> {
    let Value::Object(items) = body else {
        return None;
    };
    let metadata = items.get("metadata")?;
    let is_object = |v: &Value| matches!(v.ty(), Type::Object(_) | Type::Map(_) | Type::Dynamic);
    if !is_object(metadata) || metadata.is_null() {
        return Some(format!(
            "`metadata` is {}; a collection member's metadata must be an object",
            if metadata.is_null() {
                "null".into()
            } else {
                metadata.ty().friendly_name()
            }
        ));
    }
    let Value::Object(meta) = metadata else {
        return None;
    };
    let annotations = meta.get("annotations")?;
    if !is_object(annotations) || annotations.is_null() {
        return Some(format!(
            "`metadata.annotations` is {}; a collection member's annotations must be an object",
            if annotations.is_null() {
                "null".into()
            } else {
                annotations.ty().friendly_name()
            }
        ));
    }
    None
}

fn is_error(d: &Diagnostic) -> bool {
    d.severity == Severity::Error
}

/// An evaluation error that does not depend on the inputs, as an `L608` finding.
fn always_fails(mut d: Diagnostic) -> Diagnostic {
    d.code = Code::L608;
    d.severity = Code::L608.info().severity;
    d.help = Some(
        "this fails whatever the inputs: function-hcl discards the block as incomplete (and fails the render if the resource exists)".into(),
    );
    d
}

/// Where the value of `key` is written, when `body` is an object literal that names it.
fn literal_value_span(map: &SourceMap, body: &FileExpr, key: &str) -> Option<Span> {
    let ExprKind::Object(items) = &body.expr.kind else {
        return None;
    };
    items
        .iter()
        .rev()
        .find(|item| object_key(map, body.file, item).as_deref() == Some(key))
        .map(|item| Span::of(body.file, &item.value.span))
}

fn label_span(origin: &Origin, range: &crate::syntax::ast::TextRange) -> Span {
    Span::of(origin.file, range)
}

/// `null`, or the value's type as messages name it.
fn type_or_null(value: &Value) -> String {
    if value.is_null() {
        "null".into()
    } else {
        value.ty().friendly_name()
    }
}

/// What `encoding/json` would decode a value of this type into (`None`: not known yet).
fn json_kind(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Dynamic => None,
        Type::Bool => Some("bool"),
        Type::Number => Some("number"),
        Type::String => Some("string"),
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => Some("array"),
        Type::Map(_) | Type::Object(_) => Some("object"),
    }
}

/// Go's `%T` of a decoded value of this type (`None`: not known yet).
fn go_type(ty: &Type) -> Option<&'static str> {
    json_kind(ty).map(|kind| match kind {
        "number" => "float64",
        "array" => "[]interface {}",
        "object" => "map[string]interface {}",
        other => other,
    })
}
