//! One `x-kubernetes-validations` entry compiled with the `cel` crate, once per schema; `cel`
//! runs it against a value.
//!
//! A rule is untrusted input (a CRD from a repository under review): before the crate sees it,
//! its size is bounded as cel-go bounds it, and it is parsed on a thread of its own with a
//! large stack and panics caught ([`super::guard`]); a tree deeper than cel-go's recursion
//! limit is refused there, so no evaluation recurses past it.

use super::cost::{self, Native};
use super::guard;
use cel::common::ast::{EntryExpr, Expr, IdedExpr};
use cel::parser::{ParseErrors, Parser};
use serde_json::Value as Json;
use std::sync::Arc;

/// The most code points a rule may have (cel-go's `ExpressionSizeCodePointLimit`, which the
/// API server keeps).
pub const MAX_RULE_CODE_POINTS: usize = 100_000;
/// The deepest a rule's syntax tree may be (cel-go's default `MaxRecursionDepth`).
pub const MAX_RULE_DEPTH: usize = 250;

/// A rule parsed, bounded and rewritten for [`cost`]: what `cel` evaluates.
#[derive(Debug)]
pub(super) struct Compiled {
    /// The rewritten tree.
    pub expr: IdedExpr,
    /// Its `map`s and `filter`s, run by [`cost::native`].
    pub natives: Arc<Vec<Native>>,
}

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
    /// The rule compiled, or why it could not be.
    pub(super) program: Result<Arc<Compiled>, String>,
    /// `messageExpression` compiled.
    pub(super) message_program: Option<Arc<Compiled>>,
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

/// Compiles `source` within cel-go's limits, on a thread with a large stack, a panic of the
/// crate an error: a rule never overflows the caller's stack nor prints a backtrace.
fn compile_guarded(source: &str) -> Result<Arc<Compiled>, String> {
    let size = source.chars().count();
    if size > MAX_RULE_CODE_POINTS {
        return Err(format!(
            "ERROR: <input>:-1:0: expression code point size exceeds limit: size: {size}, limit {MAX_RULE_CODE_POINTS}"
        ));
    }
    if bracket_depth(source) > MAX_RULE_DEPTH {
        return Err(too_deep());
    }
    let source = source.to_string();
    guard::on_thread(move || {
        let mut expr = Parser::new().parse(&source).map_err(|e| errors_text(&e))?;
        if depth(&expr) > MAX_RULE_DEPTH {
            return Err(too_deep());
        }
        let mut natives = Vec::new();
        cost::rewrite(&mut expr, &mut natives);
        Ok(Arc::new(Compiled {
            expr,
            natives: Arc::new(natives),
        }))
    })
    .unwrap_or_else(|panic| Err(format!("the CEL parser failed: {panic}")))
}

fn too_deep() -> String {
    "ERROR: <input>:-1:0: max recursion depth exceeded".into()
}

/// The crate's text for its parse errors; its own formatting panics on some positions (a
/// column past 65,535), so those are written without the source line.
fn errors_text(errors: &ParseErrors) -> String {
    guard::quietly(|| errors.to_string()).unwrap_or_else(|_| {
        errors
            .errors
            .iter()
            .map(|e| format!("ERROR: <input>:{}:{}: {}", e.pos.0, e.pos.1, e.msg))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// How deeply `(`, `[` and `{` nest outside string literals: a cheap bound checked before the
/// parser runs (every level is at least one level of the tree).
fn bracket_depth(source: &str) -> usize {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let (mut depth, mut deepest) = (0usize, 0usize);
    for c in source.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    deepest
}

/// The depth of a parsed tree (`&&` and `||` chains are balanced by the parser, as cel-go's).
fn depth(expr: &IdedExpr) -> usize {
    let children: Vec<&IdedExpr> = match &expr.expr {
        Expr::Call(call) => call.target.iter().map(|t| &**t).chain(&call.args).collect(),
        Expr::Comprehension(c) => vec![
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ],
        Expr::List(list) => list.elements.iter().collect(),
        Expr::Map(map) => map.entries.iter().flat_map(|e| entry(&e.expr)).collect(),
        Expr::Struct(s) => s.entries.iter().flat_map(|e| entry(&e.expr)).collect(),
        Expr::Select(select) => vec![&*select.operand],
        Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => Vec::new(),
    };
    1 + children.into_iter().map(depth).max().unwrap_or(0)
}

fn entry(entry: &EntryExpr) -> Vec<&IdedExpr> {
    match entry {
        EntryExpr::MapEntry(e) => vec![&e.key, &e.value],
        EntryExpr::StructField(f) => vec![&f.value],
    }
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
