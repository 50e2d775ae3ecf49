//! Built-in functions: the conversion family, Terraform's `MakeToFunc` (tobool tolist tomap
//! tonumber toset tostring): explicit conversions with their own messages. The argument is
//! taken as it is (dynamic, null allowed), the return type is the wanted type once a (possibly
//! unsafe) conversion exists, and the conversion itself may still fail on the value.

use super::{Function, FunctionError, FunctionTable, Param};
use crate::eval::convert;
use crate::eval::types::Type;
use crate::eval::value::Value;
pub(super) use crate::gostd::strconv::quote as go_quote;

/// Registers this family's functions.
pub(super) fn register(table: &mut FunctionTable) {
    for (name, want) in [
        ("tostring", Type::String),
        ("tonumber", Type::Number),
        ("tobool", Type::Bool),
        ("toset", Type::set(Type::Dynamic)),
        ("tolist", Type::list(Type::Dynamic)),
        ("tomap", Type::map(Type::Dynamic)),
    ] {
        table.insert(make_to_func(name, want));
    }
}

fn make_to_func(name: &'static str, want: Type) -> Function {
    let want_for_type = want.clone();
    Function::with_type_fn(
        name,
        vec![Param::new("v", Type::Dynamic).null_ok().dynamic_ok()],
        None,
        move |args| return_type(&args[0].ty(), &want_for_type),
        move |args, ret| {
            let val = &args[0];
            convert::convert(val, ret).map_err(|_| impl_error(val, &want))
        },
    )
}

fn return_type(got: &Type, want: &Type) -> Result<Type, FunctionError> {
    if got == want || convert::get_conversion_unsafe(got, want).is_some() {
        return Ok(want.clone());
    }
    let message = match (got, want) {
        (Type::Tuple(_), Type::Tuple(_)) => format!(
            "incompatible tuple type for conversion: {}",
            convert::mismatch_message(got, want)
        ),
        (Type::Object(_), Type::Object(_)) => format!(
            "incompatible object type for conversion: {}",
            convert::mismatch_message(got, want)
        ),
        _ => format!(
            "cannot convert {} to {}",
            got.friendly_name(),
            want.friendly_name_for_constraint()
        ),
    };
    Err(FunctionError::arg(0, message))
}

/// The message for a conversion the types allowed but the value did not.
fn impl_error(val: &Value, want: &Type) -> FunctionError {
    let got = val.ty();
    let what = || match val.as_str() {
        Some(s) => go_quote(s),
        None => "string".to_string(),
    };
    let message = match (&got, want) {
        (Type::Number, Type::String) if matches!(val, Value::Number(n) if !n.is_printable()) => {
            let Value::Number(n) = val else {
                unreachable!("matched above")
            };
            format!(
                "cannot convert number {} to string: it has more digits than fnhcl's limit of {}",
                n.scientific(),
                crate::eval::num::MAX_PRINTED_DIGITS
            )
        }
        (Type::String, Type::Bool) => format!(
            "cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed",
            what()
        ),
        (Type::String, Type::Number) => format!(
            "cannot convert {} to number; given string must be a decimal representation of a number",
            what()
        ),
        _ => format!(
            "cannot convert {} to {}",
            got.friendly_name(),
            want.friendly_name_for_constraint()
        ),
    };
    FunctionError::arg(0, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        assert_eq!(
            go_quote("a\"b\\c\n\u{1}é\u{200b}"),
            "\"a\\\"b\\\\c\\n\\x01é\\u200b\""
        );
    }

    #[test]
    fn messages() {
        let err = impl_error(&Value::string("a"), &Type::Bool);
        assert_eq!(
            err,
            FunctionError::arg(
                0,
                "cannot convert \"a\" to bool; only the strings \"true\" or \"false\" are allowed"
            )
        );
        let err = impl_error(&Value::Null(Type::String), &Type::Number);
        assert!(matches!(err, FunctionError::Arg { message, .. }
            if message.starts_with("cannot convert string to number;")));
        let err = return_type(&Type::Tuple(Vec::new().into()), &Type::String).unwrap_err();
        assert_eq!(err, FunctionError::arg(0, "cannot convert tuple to string"));
        let err = return_type(
            &Type::Tuple(vec![Type::Number, Type::Bool].into()),
            &Type::list(Type::Dynamic),
        );
        assert_eq!(
            err.unwrap_err(),
            FunctionError::arg(0, "cannot convert tuple to list of any single type")
        );
    }
}
