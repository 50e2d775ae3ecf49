//! Built-in functions: the encoding family, as function-hcl registers them — Terraform
//! 1.5.7's `base64*`, `textencodebase64`, `textdecodebase64` and `urlencode`, cty's
//! `jsonencode`, `jsondecode` and `csvdecode`, and go-cty-yaml 1.1.0's `yamlencode` and
//! `yamldecode`.

mod csv_decode;
mod deflate;
mod json_decode;
mod text;
mod text_names;
mod text_tables;
mod yaml_decode;
mod yaml_encode;
mod yaml_resolve;

use super::{Function, FunctionError, FunctionTable, Param, args};
use crate::eval::json::to_json_string;
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

pub(super) use crate::gostd::base64::decode as go_base64_decode;

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    let str_param = || vec![Param::new("str", Type::String)];
    table.insert(Function::new(
        "base64encode",
        str_param(),
        None,
        Type::String,
        |args, _| {
            Ok(Value::String(
                STANDARD.encode(args::string(args, 0)?.as_bytes()).into(),
            ))
        },
    ));
    table.insert(Function::new(
        "base64decode",
        str_param(),
        None,
        Type::String,
        |args, _| {
            let s = args::string(args, 0)?;
            let Ok(bytes) = go_base64_decode(s) else {
                return Err(FunctionError::other(format!(
                    "failed to decode base64 data {}",
                    go_quote(s)
                )));
            };
            String::from_utf8(bytes)
                .map(Value::string_owned)
                .map_err(|_| {
                    FunctionError::other(
                        "the result of decoding the provided string is not valid UTF-8",
                    )
                })
        },
    ));
    table.insert(Function::new(
        "base64gzip",
        str_param(),
        None,
        Type::String,
        |args, _| {
            let gz = deflate::gzip(args::string(args, 0)?.as_bytes());
            Ok(Value::String(STANDARD.encode(gz).into()))
        },
    ));
    table.insert(Function::new(
        "urlencode",
        str_param(),
        None,
        Type::String,
        |args, _| Ok(Value::String(query_escape(args::string(args, 0)?).into())),
    ));
    text::register(table);
    table.insert(Function::new(
        "jsonencode",
        vec![Param::any("val")],
        None,
        Type::String,
        |args, _| jsonencode(&args[0]),
    ));
    table.insert(Function::with_type_fn(
        "jsondecode",
        str_param(),
        None,
        json_decode::return_type,
        |args, _| json_decode::decode(args::string(args, 0)?),
    ));
    table.insert(Function::with_type_fn(
        "csvdecode",
        str_param(),
        None,
        csv_decode::return_type,
        |args, ret| csv_decode::decode(args::string(args, 0)?, ret),
    ));
    table.insert(Function::with_type_fn(
        "yamldecode",
        vec![Param::new("src", Type::String)],
        None,
        yaml_decode::return_type,
        |args, ret| yaml_decode::decode(args::string(args, 0)?, ret),
    ));
    table.insert(Function::new(
        "yamlencode",
        vec![Param::new("value", Type::Dynamic).null_ok().dynamic_ok()],
        None,
        Type::String,
        |args, _| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(Type::String));
            }
            yaml_encode::encode(&args[0]).map(Value::string_owned)
        },
    ));
}

/// cty's `JSONEncodeFunc`: an unknown (refined by the first character when the value cannot
/// be null) for values that are not wholly known, `null` for null, else `json.Marshal`.
fn jsonencode(val: &Value) -> Result<Value, FunctionError> {
    if !val.is_wholly_known() {
        if !val.definitely_not_null() {
            return Ok(Value::unknown(Type::String));
        }
        let prefix = match val.ty() {
            Type::String => Some("\""),
            Type::Object(_) | Type::Map(_) => Some("{"),
            Type::Tuple(_) | Type::List(_) | Type::Set(_) => Some("["),
            _ => None,
        };
        return Ok(Value::Unknown(
            Type::String,
            Refinement {
                not_null: true,
                string_prefix: prefix.map(str::to_string),
            },
        ));
    }
    if val.is_null() {
        return Ok(Value::String("null".into()));
    }
    to_json_string(val)
        .map(Value::string_owned)
        .map_err(|e| FunctionError::other(e.message))
}

/// Go's `url.QueryEscape`: unreserved bytes kept, space as `+`, the rest `%XX`.
fn query_escape(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(HEX[usize::from(b >> 4)] as char);
                out.push(HEX[usize::from(b & 0xf)] as char);
            }
        }
    }
    out
}

pub(super) use crate::gostd::strconv::quote as go_quote;

#[cfg(test)]
mod tests;

/// How deeply `jsondecode` and `yamldecode` let arrays and objects nest. Far beyond any real
/// document (Kubernetes objects nest a few dozen levels), and below what the evaluator's
/// recursive walks over a value can take: cty has no limit, so this is listed in
/// docs/compatibility.md.
pub const MAX_DECODE_DEPTH: usize = 1000;

/// The error past [`MAX_DECODE_DEPTH`].
fn too_deep() -> String {
    format!("the document nests arrays and objects more than {MAX_DECODE_DEPTH} levels deep")
}
