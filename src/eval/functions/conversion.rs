//! Built-in functions: the conversion family, Terraform's `MakeToFunc` (tobool tolist tomap
//! tonumber toset tostring): explicit conversions with their own messages. The argument is
//! taken as it is (dynamic, null allowed), the return type is the wanted type once a (possibly
//! unsafe) conversion exists, and the conversion itself may still fail on the value.

use super::{Function, FunctionError, FunctionTable, Param};
use crate::eval::convert;
use crate::eval::types::Type;
use crate::eval::value::Value;

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

/// Go's `strconv.Quote` (`%q`). Go's `unicode.IsPrint` is approximated: controls, spaces
/// other than U+0020, common format characters, private-use code points and noncharacters are
/// escaped; unassigned code points are not recognised.
pub(super) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if go_is_print(c) => out.push(c),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

fn go_is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    let format = matches!(
        u,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    );
    let private_or_nonchar = matches!(u, 0xE000..=0xF8FF | 0xF0000..=0x10FFFF)
        || (u & 0xFFFE) == 0xFFFE
        || (0xFDD0..=0xFDEF).contains(&u);
    !(format || private_or_nonchar)
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
        let err = return_type(&Type::Tuple(Vec::new()), &Type::String).unwrap_err();
        assert_eq!(err, FunctionError::arg(0, "cannot convert tuple to string"));
        let err = return_type(
            &Type::Tuple(vec![Type::Number, Type::Bool]),
            &Type::list(Type::Dynamic),
        );
        assert_eq!(
            err.unwrap_err(),
            FunctionError::arg(0, "cannot convert tuple to list of any single type")
        );
    }
}
