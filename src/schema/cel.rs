//! `x-kubernetes-validations`: CEL rules run with the `cel` crate (the maintained Rust CEL
//! interpreter), `self` bound to the value, the Kubernetes string extensions the rules of real
//! CRDs use added. Transition rules (those naming `oldSelf`) need the object's previous
//! version, which offline validation does not have: they are skipped, as the API server skips
//! them on create.

pub use super::cost::Budget;
pub use super::rule::Rule;

use super::cost::{self, Meter, Tripped};
use super::guard;
use super::node::{Node, Type};
use super::rule::Compiled;
use cel::extractors::This;
use cel::objects::{Key, Map};
use cel::{Context, ExecutionError, FunctionContext, Value};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::Arc;

/// What running a rule found.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The rule holds (or was skipped).
    Holds,
    /// The rule evaluated to false: the message to report.
    Fails(String),
    /// The rule could not be evaluated: why.
    Error(String),
    /// The evaluation went past the per-call cost limit and was stopped.
    CallLimit,
    /// The object's cost budget ran out: no further rules are run on it.
    OutOfBudget,
}

impl Rule {
    /// Runs the rule with `self` = `value` (described by `node`), with a budget of its own.
    pub fn check(&self, value: &Json, node: &Node) -> Outcome {
        self.check_within(value, node, &Budget::default())
    }

    /// Runs the rule with `self` = `value` (described by `node`), spending from `budget`,
    /// the budget of the object `value` is part of.
    pub fn check_within(&self, value: &Json, node: &Node, budget: &Budget) -> Outcome {
        if self.transition {
            return Outcome::Holds;
        }
        if budget.exhausted() {
            return Outcome::OutOfBudget;
        }
        let program = match &self.program {
            Ok(p) => p.clone(),
            Err(e) => return Outcome::Error(format!("compilation failed: {e}")),
        };
        let meter = Meter::new(budget);
        let result = match evaluate(&program, value, node, &meter) {
            Ok(result) => result,
            Err(panic) => return Outcome::Error(format!("the CEL interpreter failed: {panic}")),
        };
        match meter.tripped() {
            Some(Tripped::CallLimit) => return Outcome::CallLimit,
            Some(Tripped::Budget) => return Outcome::OutOfBudget,
            None => {}
        }
        match result {
            Ok(Value::Bool(true)) => Outcome::Holds,
            Ok(Value::Bool(false)) => Outcome::Fails(self.failure_message(value, node, &meter)),
            Ok(other) => Outcome::Error(format!("rule did not evaluate to a bool: {other:?}")),
            Err(e) => Outcome::Error(e.to_string()),
        }
    }

    fn failure_message(&self, value: &Json, node: &Node, meter: &Meter) -> String {
        if let Some(program) = &self.message_program
            && let Ok(Ok(Value::String(text))) = evaluate(program, value, node, meter)
            && meter.tripped().is_none()
            && !text.trim().is_empty()
        {
            return text.to_string();
        }
        match &self.message {
            Some(message) => message.clone(),
            None => format!("failed rule: {}", self.rule),
        }
    }
}

/// Evaluates `program` with `self` = `value`, metered, with a large enough stack; `Err` when
/// the interpreter panicked.
fn evaluate(
    program: &Compiled,
    value: &Json,
    node: &Node,
    meter: &Meter,
) -> Result<cel::ResolveResult, String> {
    guard::with_stack(|| {
        let mut context = context(meter, program);
        context.add_variable_from_value("self", to_cel(value, Some(node)));
        Value::resolve(&program.expr, &context)
    })
}

/// A context with the standard library, the Kubernetes string and regex extensions rules
/// use, and the metering functions of `program`'s rewritten tree.
fn context(meter: &Meter, program: &Compiled) -> Context<'static> {
    let mut context = Context::default();
    context.add_function("lowerAscii", |This(s): This<Arc<String>>| {
        s.to_ascii_lowercase()
    });
    context.add_function("upperAscii", |This(s): This<Arc<String>>| {
        s.to_ascii_uppercase()
    });
    context.add_function("trim", |This(s): This<Arc<String>>| s.trim().to_string());
    context.add_function(cost::MATCHES, matches);
    context.add_function("find", find);
    context.add_function("findAll", find_all);
    context.add_function(cost::STEP, cost::step(meter.clone()));
    context.add_function(cost::RANGE, cost::range(meter.clone()));
    context.add_function(
        cost::NATIVE,
        cost::native(meter.clone(), program.natives.clone()),
    );
    context
}

/// A pattern compiled with RE2's semantics (Go's `regexp`, as cel-go), cached.
fn regex(
    ftx: &FunctionContext,
    pattern: &str,
) -> Result<Arc<crate::re2::Compiled>, ExecutionError> {
    crate::re2::compile(pattern)
        .map_err(|e| ftx.error(format!("error parsing regexp: {}: `{}`", e.code, e.expr)))
}

/// `matches`, with RE2's ASCII `\d \w \s \b` (the crate's is Rust's Unicode classes).
fn matches(
    ftx: &FunctionContext,
    This(this): This<Arc<String>>,
    pattern: Arc<String>,
) -> Result<bool, ExecutionError> {
    Ok(regex(ftx, &pattern)?.regex.is_match(&this))
}

/// The Kubernetes regex library's `find`: the first match, or "".
fn find(
    ftx: &FunctionContext,
    This(this): This<Arc<String>>,
    pattern: Arc<String>,
) -> Result<Value, ExecutionError> {
    let re = regex(ftx, &pattern)?;
    let found = re.regex.find(&this).map_or("", |m| m.as_str());
    Ok(Value::String(Arc::new(found.to_string())))
}

/// The Kubernetes regex library's `findAll`, with an optional limit (negative: all).
fn find_all(
    ftx: &FunctionContext,
    This(this): This<Arc<String>>,
    cel::extractors::Arguments(args): cel::extractors::Arguments,
) -> Result<Value, ExecutionError> {
    let Some(Value::String(pattern)) = args.first() else {
        return Err(ExecutionError::NoSuchOverload);
    };
    let limit = match args.get(1) {
        Some(Value::Int(n)) if *n >= 0 => usize::try_from(*n).unwrap_or(usize::MAX),
        Some(Value::Int(_)) | None => usize::MAX,
        Some(_) => return Err(ExecutionError::NoSuchOverload),
    };
    let re = regex(ftx, pattern)?;
    let found = re
        .regex
        .find_iter(&this)
        .take(limit)
        .map(|m| Value::String(Arc::new(m.as_str().to_string())))
        .collect();
    Ok(Value::List(Arc::new(found)))
}

/// A JSON value as CEL sees it: integers as `int` (numbers as `double` where the schema says
/// `number`), objects as maps.
pub fn to_cel(value: &Json, node: Option<&Node>) -> Value {
    match value {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            let wants_double = node.is_some_and(|n| n.kind == Some(Type::Number));
            match (n.as_i64(), wants_double) {
                (Some(i), false) => Value::Int(i),
                _ => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            }
        }
        Json::String(s) => Value::String(Arc::new(s.clone())),
        Json::Array(items) => Value::List(Arc::new(
            items
                .iter()
                .map(|item| to_cel(item, node.and_then(|n| n.items.as_deref())))
                .collect(),
        )),
        Json::Object(map) => {
            let entries: HashMap<Key, Value> = map
                .iter()
                .map(|(k, v)| {
                    (
                        Key::String(Arc::new(k.clone())),
                        to_cel(v, node.and_then(|n| n.property(k))),
                    )
                })
                .collect();
            Value::Map(Map {
                map: Arc::new(entries),
            })
        }
    }
}

#[cfg(test)]
mod tests;
