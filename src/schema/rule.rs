//! One `x-kubernetes-validations` entry compiled with the `cel` crate, once per schema; `cel`
//! runs it against a value.

use cel::Program;
use serde_json::Value as Json;
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
    pub(super) program: Result<Arc<Program>, String>,
    /// `messageExpression` compiled.
    pub(super) message_program: Option<Arc<Program>>,
    /// Whether the rule names `oldSelf` (a transition rule).
    pub transition: bool,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("rule", &self.rule).finish()
    }
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
pub(super) fn mentions_old_self(rule: &str) -> bool {
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
