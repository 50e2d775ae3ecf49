//! `x-kubernetes-validations`: CEL rules run with the `cel` crate (the maintained Rust CEL
//! interpreter), `self` bound to the value, the Kubernetes string extensions the rules of real
//! CRDs use added. Transition rules (those naming `oldSelf`) need the object's previous
//! version, which offline validation does not have: they are skipped, as the API server skips
//! them on create.

pub use super::rule::Rule;

use super::node::{Node, Type};
use cel::objects::{Key, Map};
use cel::{Context, Value};
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
}

impl Rule {
    /// Runs the rule with `self` = `value` (described by `node`).
    pub fn check(&self, value: &Json, node: &Node) -> Outcome {
        if self.transition {
            return Outcome::Holds;
        }
        let program = match &self.program {
            Ok(p) => p,
            Err(e) => return Outcome::Error(format!("compilation failed: {e}")),
        };
        let mut context = context();
        context.add_variable_from_value("self", to_cel(value, Some(node)));
        match program.execute(&context) {
            Ok(Value::Bool(true)) => Outcome::Holds,
            Ok(Value::Bool(false)) => Outcome::Fails(self.failure_message(&context)),
            Ok(other) => Outcome::Error(format!("rule did not evaluate to a bool: {other:?}")),
            Err(e) => Outcome::Error(e.to_string()),
        }
    }

    fn failure_message(&self, context: &Context) -> String {
        if let Some(program) = &self.message_program
            && let Ok(Value::String(text)) = program.execute(context)
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

/// A context with the standard library and the Kubernetes string extensions rules use.
fn context() -> Context<'static> {
    let mut context = Context::default();
    context.add_function(
        "lowerAscii",
        |cel::extractors::This(s): cel::extractors::This<Arc<String>>| s.to_ascii_lowercase(),
    );
    context.add_function(
        "upperAscii",
        |cel::extractors::This(s): cel::extractors::This<Arc<String>>| s.to_ascii_uppercase(),
    );
    context.add_function(
        "trim",
        |cel::extractors::This(s): cel::extractors::This<Arc<String>>| s.trim().to_string(),
    );
    context
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
