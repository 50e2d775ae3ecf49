//! YAML text for a JSON value, byte for byte as `crossplane render` prints each document.
//!
//! Crossplane writes every rendered object with `sigs.k8s.io/yaml.JSONToYAML`: go-yaml v2 (v2.4)
//! decodes the JSON into plain Go values and encodes them again with its port of libyaml's
//! emitter. Matching that output means matching three parts of go-yaml: the YAML 1.1 resolver
//! (which turns a JSON number into an int or a float, and decides whether a string must be quoted
//! to read back as a string), the order of map keys, and the emitter's scalar analysis, style
//! choice, folding at 80 columns and indentation.
//!
//! The resolver and the key order are here; the emitter is [`emitter`], which `yamlencode`
//! shares.

pub mod emitter;
mod resolve;
mod sort;
#[cfg(test)]
mod tests;

use emitter::{Context, Dialect, Emitter, Style};
use resolve::*;
use serde_json::Value;
use sort::*;
use std::convert::Infallible;

/// What go-yaml v2 asks of the emitter: strings by encode.go's `stringv`; a document is never
/// marked open-ended.
const GO_YAML_V2: Dialect = Dialect {
    string_style,
    open_ended_root: false,
};

/// One YAML document (no leading `---`), ending in a newline, as sigs.k8s.io/yaml.JSONToYAML writes `json`.
pub fn to_yaml(json: &Value) -> String {
    let mut emitter = Emitter::new(GO_YAML_V2);
    let Ok(()) = node(&mut emitter, json, Context::ROOT);
    emitter.finish()
}

/// The events go-yaml's encoder makes of a decoded JSON value.
fn node(emitter: &mut Emitter, value: &Value, ctx: Context) -> Result<(), Infallible> {
    match value {
        Value::Null => emitter.scalar("null", Style::Plain, ctx),
        Value::Bool(b) => emitter.scalar(if *b { "true" } else { "false" }, Style::Plain, ctx),
        Value::Number(n) => number(emitter, &n.to_string(), ctx),
        Value::String(s) => emitter.string(s, ctx),
        Value::Array(items) => return emitter.sequence(items, ctx, node),
        Value::Object(map) => return emitter.mapping(sorted_entries(map), node),
    }
    Ok(())
}

/// The number as go-yaml decodes its JSON text and then encodes the Go value.
fn number(emitter: &mut Emitter, text: &str, ctx: Context) {
    match resolve(text) {
        Resolved::Int(v) => emitter.scalar(&v.to_string(), Style::Plain, ctx),
        Resolved::Float(f) => emitter.scalar(&format_float(f), Style::Plain, ctx),
        // A float that overflows float64 stays a Go string (`resolve` falls through to
        // !!str); the other kinds cannot come from JSON number text.
        Resolved::Str | Resolved::Other => emitter.string(text, ctx),
    }
}

/// The style encode.go's `stringv` asks for: a literal block for text with `\n`, plain when the
/// text would read back as a string, double quotes otherwise.
fn string_style(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else if matches!(resolve(s), Resolved::Str) && !is_base60_float(s) {
        Style::Plain
    } else {
        Style::DoubleQuoted
    }
}
