//! Small helpers for reading converted arguments inside function implementations.

use super::FunctionError;
use crate::eval::num::Num;
use crate::eval::value::Value;

/// Argument `i` as a string (the calling convention already converted it).
pub fn string(args: &[Value], i: usize) -> Result<&str, FunctionError> {
    args.get(i)
        .and_then(Value::as_str)
        .ok_or_else(|| FunctionError::arg(i, "string required"))
}

/// Argument `i` as a number.
pub fn number(args: &[Value], i: usize) -> Result<&Num, FunctionError> {
    args.get(i)
        .and_then(Value::as_num)
        .ok_or_else(|| FunctionError::arg(i, "number required"))
}

/// Argument `i` as a whole number that fits an `i64` (cty's `gocty.FromCtyValue` into int),
/// with cty's messages.
pub fn integer(args: &[Value], i: usize) -> Result<i64, FunctionError> {
    let n = number(args, i)?;
    if !n.is_int() {
        return Err(FunctionError::arg(i, "value must be a whole number"));
    }
    n.to_i64().ok_or_else(|| {
        FunctionError::arg(
            i,
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807",
        )
    })
}

/// Argument `i` as a bool.
pub fn boolean(args: &[Value], i: usize) -> Result<bool, FunctionError> {
    match args.get(i) {
        Some(Value::Bool(b)) => Ok(*b),
        _ => Err(FunctionError::arg(i, "bool required")),
    }
}
