//! Built-in functions: the collection family, as function-hcl registers them — cty's stdlib
//! (go-cty v1.17.0: collection.go, sequence.go, set.go, `sort` from string.go) and Terraform
//! 1.5.7's copies in function-hcl's collection.go (`coalesce`, `index`, `length`, `list`,
//! `lookup`, `map`, `matchkeys`, `one`, `sum`, `transpose`, `alltrue`, `anytrue`).
//!
//! cty's `RefineResult: refineNonNull` is reproduced for the unknown results the
//! implementations themselves return; the unknowns the calling convention returns (an unknown
//! argument for a parameter that does not allow one) are left unrefined by the evaluator.
//! Marks do not exist here.

mod mapping;
mod query;
mod sequence;
mod sets;

#[cfg(test)]
mod tests;

use super::FunctionTable;
use crate::eval::num::Num;
use crate::eval::types::Type;
use crate::eval::value::{Refinement, Value};
use std::cmp::Ordering;

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    query::register(table);
    sequence::register(table);
    mapping::register(table);
    sets::register(table);
}

/// `cty.ListVal(items)`, or `cty.ListValEmpty(empty_elem)` when there are none: the element
/// type is the first element type that is not dynamic.
fn list_val(empty_elem: &Type, items: Vec<Value>) -> Value {
    let elem = if items.is_empty() {
        empty_elem.clone()
    } else {
        crate::eval::convert::inferred_elem(&items)
    };
    Value::List {
        elem,
        items: items.into(),
    }
}

/// An unknown result refined not null, as cty's `refineNonNull` does (an unknown of dynamic
/// type cannot be refined).
fn unknown_not_null(ty: Type) -> Value {
    let not_null = ty != Type::Dynamic;
    Value::Unknown(
        ty,
        Refinement {
            not_null,
            string_prefix: None,
        },
    )
}

/// A whole number as cty makes it (`cty.NumberIntVal`).
fn int_val(n: usize) -> Value {
    Value::Number(Num::from_i64(n as i64))
}

/// gocty's conversion of a number to a Go `int` (64-bit), with its message.
fn go_int(n: &Num) -> Result<i64, String> {
    const MESSAGE: &str =
        "value must be a whole number, between -9223372036854775808 and 9223372036854775807";
    if !n.is_int() {
        return Err(MESSAGE.into());
    }
    match n.to_i64() {
        Some(v) => Ok(v),
        None if n.compare(&Num::from_i64(i64::MIN)) == Ordering::Equal => Ok(i64::MIN),
        None => Err(MESSAGE.into()),
    }
}

/// [`go_int`] of a known number argument.
fn go_int_arg(v: &Value) -> Result<i64, String> {
    v.as_num()
        .map_or_else(|| Err("a number is required".into()), go_int)
}

/// cty's `Value.Length()` of a list, set, map or tuple, when it is known: a tuple's length is
/// in its type; an unknown collection's is unknown; a set holding unknowns may shrink once they
/// are known, unless it has a single element.
fn known_length(v: &Value) -> Option<usize> {
    match v {
        Value::Unknown(Type::Tuple(etys), _) => Some(etys.len()),
        Value::Unknown(..) => None,
        Value::Set { items, .. } if items.len() != 1 && !v.is_wholly_known() => None,
        _ => v.len(),
    }
}

/// Whether a type is a list, set or tuple (what `flatten`, `contains` and friends iterate).
fn is_sequence(ty: &Type) -> bool {
    matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_))
}
