//! go-cty-yaml 1.1.0's `yamlencode`: the value as libyaml events — strings double-quoted, or
//! literal block scalars when they contain a newline; numbers, bools and null plain; block
//! collections, `[]` and `{}` when empty — written by the emitter the output documents use
//! (`source::yaml_emit::emitter`; go-cty-yaml's is a copy of go-yaml v2's), with `...` after
//! a plain root scalar.

use crate::eval::functions::FunctionError;
use crate::eval::value::Value;
use crate::source::yaml_emit::emitter::{Context, Dialect, Emitter, Style};

/// What go-cty-yaml asks of the emitter: every string quoted (or a literal block), and the
/// open-ended mark of a plain root scalar kept.
const GO_CTY_YAML: Dialect = Dialect {
    string_style: quoted_or_literal,
    open_ended_root: true,
};

/// go-cty-yaml's string style, for values and keys alike.
fn quoted_or_literal(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else {
        Style::DoubleQuoted
    }
}

/// `yamlencode`'s result for a wholly known value.
pub(super) fn encode(value: &Value) -> Result<String, FunctionError> {
    let mut emitter = Emitter::new(GO_CTY_YAML);
    node(&mut emitter, value, Context::ROOT)?;
    Ok(emitter.finish())
}

/// The events go-cty-yaml makes of a value; map and object keys in their (sorted) order.
fn node(emitter: &mut Emitter, value: &Value, ctx: Context) -> Result<(), FunctionError> {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || match value {
        Value::Null(_) => {
            emitter.scalar("null", Style::Plain, ctx);
            Ok(())
        }
        Value::Bool(b) => {
            emitter.scalar(if *b { "true" } else { "false" }, Style::Plain, ctx);
            Ok(())
        }
        Value::Number(n) => {
            emitter.scalar(&n.to_string(), Style::Plain, ctx);
            Ok(())
        }
        Value::String(s) => {
            emitter.string(s, ctx);
            Ok(())
        }
        Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
            emitter.sequence(items.iter(), ctx, node)
        }
        Value::Map { items, .. } | Value::Object(items) => {
            emitter.mapping(items.iter().map(|(k, v)| (k.as_str(), v)), node)
        }
        Value::Unknown(..) => Err(FunctionError::other(
            "cannot serialize unknown value as YAML",
        )),
    })
}
