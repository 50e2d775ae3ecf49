//! `x-kubernetes-validations`: CEL rules run with the `cel` crate (the maintained Rust CEL
//! interpreter), `self` bound to the value, the Kubernetes string extensions the rules of real
//! CRDs use added. Transition rules (those naming `oldSelf`) need the object's previous
//! version, which offline validation does not have: they are skipped, as the API server skips
//! them on create.

use super::node::{Node, Type};
use cel::objects::{Key, Map};
use cel::{Context, Program, Value};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::Arc;

/// One compiled rule.
#[derive(Clone)]
pub struct Rule {
    /// `rule`.
    pub rule: String,
    /// `message`.
    pub message: Option<String>,
    /// `messageExpression`.
    pub message_expression: Option<String>,
    /// `fieldPath`.
    pub field_path: Option<String>,
    /// `reason`.
    pub reason: Option<String>,
    /// The rule compiled, or why the crate could not compile it.
    program: Result<Arc<Program>, String>,
    /// `messageExpression` compiled.
    message_program: Option<Arc<Program>>,
    /// Whether the rule names `oldSelf` (a transition rule).
    pub transition: bool,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("rule", &self.rule).finish()
    }
}

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
    /// Reads one `x-kubernetes-validations` entry.
    pub fn compile(json: &Json) -> Result<Rule, String> {
        let text = |key: &str| json.get(key).and_then(Json::as_str).map(str::to_string);
        let rule = text("rule").ok_or("a validation rule needs `rule`")?;
        let program = compile_guarded(&rule);
        let message_expression = text("messageExpression");
        let message_program = message_expression
            .as_deref()
            .and_then(|m| compile_guarded(m).ok());
        Ok(Rule {
            transition: mentions_old_self(&rule),
            message: text("message"),
            field_path: text("fieldPath"),
            reason: text("reason"),
            program,
            message_program,
            message_expression,
            rule,
        })
    }

    /// Why the rule could not be compiled, if it could not.
    pub fn compile_error(&self) -> Option<&str> {
        self.program.as_ref().err().map(String::as_str)
    }

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

/// The CEL parser recurses deeply: compile on a thread with a large stack, so a rule never
/// overflows the caller's stack (rules are compiled once per schema).
fn compile_guarded(source: &str) -> Result<Arc<Program>, String> {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(64 * 1024 * 1024)
        .spawn(move || {
            Program::compile(&source)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .map_err(|e| e.to_string())?
        .join()
        .unwrap_or_else(|_| Err("the CEL parser failed".into()))
}

/// Whether `oldSelf` appears as an identifier (not inside a string literal).
fn mentions_old_self(rule: &str) -> bool {
    let bytes = rule.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'\'' || b == b'"' => quote = Some(b),
            None => {
                let starts_word =
                    i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
                let rest = &bytes[i..];
                let ends_word = rest
                    .get(7)
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
                if starts_word && rest.starts_with(b"oldSelf") && ends_word {
                    return true;
                }
            }
        }
        i += 1;
    }
    false
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
