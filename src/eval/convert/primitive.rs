//! cty's conversion_primitive.go: conversions between string, number and bool.

use super::{Conv, ConvertError, conv, unexpected};
use crate::eval::num::Num;
use crate::eval::types::Type;
use crate::eval::value::Value;

pub(super) fn primitive_conversion(in_ty: &Type, out: &Type, unsafe_ok: bool) -> Option<Conv> {
    match (in_ty, out) {
        (Type::Number, Type::String) => Some(conv(|v, path| match v {
            Value::Number(n) if !n.is_printable() => Err(ConvertError::new(
                path,
                format!(
                    "number {} has too many digits to write as a string (fnhcl's limit: {})",
                    n.scientific(),
                    crate::eval::num::MAX_PRINTED_DIGITS
                ),
            )),
            Value::Number(n) => Ok(Value::String(n.to_string().into())),
            other => Err(unexpected(other, &Type::Number, path)),
        })),
        (Type::Bool, Type::String) => Some(conv(|v, path| match v {
            Value::Bool(b) => Ok(Value::String(if *b { "true" } else { "false" }.into())),
            other => Err(unexpected(other, &Type::Bool, path)),
        })),
        (Type::String, Type::Number) if unsafe_ok => Some(conv(|v, path| match v {
            Value::String(s) => match Num::parse(s) {
                Some(n) => Ok(Value::Number(n)),
                None => Err(ConvertError::new(path, "a number is required")),
            },
            other => Err(unexpected(other, &Type::String, path)),
        })),
        (Type::String, Type::Bool) if unsafe_ok => Some(conv(|v, path| match v {
            Value::String(s) => match s.as_str() {
                "true" | "1" => Ok(Value::Bool(true)),
                "false" | "0" => Ok(Value::Bool(false)),
                _ => Err(ConvertError::new(
                    path,
                    match s.to_lowercase().as_str() {
                        "true" => {
                            "a bool is required; to convert from string, use lowercase \"true\""
                        }
                        "false" => {
                            "a bool is required; to convert from string, use lowercase \"false\""
                        }
                        _ => "a bool is required",
                    },
                )),
            },
            other => Err(unexpected(other, &Type::String, path)),
        })),
        _ => None,
    }
}
