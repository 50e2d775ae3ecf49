//! Unit tests of conversion and unification: shared value and type builders, and checks of
//! the public API (`get_conversion`, quoting, error display).

use super::*;
use crate::eval::testing::{num, obj, s};
use Type::{Bool as TB, Dynamic as TD, Number as TN, String as TS};

mod convert;
mod mismatch;
mod set_order;
mod unification;

fn n(i: i64) -> Value {
    Value::Number(Num::from_i64(i))
}
fn b(v: bool) -> Value {
    Value::Bool(v)
}
fn unk(t: Type) -> Value {
    Value::unknown(t)
}
fn unk_nn(t: Type) -> Value {
    Value::Unknown(
        t,
        Refinement {
            not_null: true,
            string_prefix: None,
        },
    )
}
fn null(t: Type) -> Value {
    Value::Null(t)
}
fn list(elem: Type, items: Vec<Value>) -> Value {
    Value::List {
        elem,
        items: items.into(),
    }
}
fn set(elem: Type, items: Vec<Value>) -> Value {
    set_from(elem, items)
}
fn tup(items: Vec<Value>) -> Value {
    Value::Tuple(items.into())
}
fn map(elem: Type, pairs: &[(&str, Value)]) -> Value {
    Value::Map {
        elem,
        items: pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<std::collections::BTreeMap<_, _>>()
            .into(),
    }
}
fn tobj(pairs: &[(&str, Type)]) -> Type {
    Type::Object(
        pairs
            .iter()
            .map(|(k, t)| (k.to_string(), t.clone()))
            .collect::<std::collections::BTreeMap<_, _>>()
            .into(),
    )
}
fn ttup(items: Vec<Type>) -> Type {
    Type::Tuple(items.into())
}
fn tl(t: Type) -> Type {
    Type::list(t)
}
fn tset(t: Type) -> Type {
    Type::set(t)
}
fn tm(t: Type) -> Type {
    Type::map(t)
}

/// The error as cty's tests print it: `path: message`, or the message alone.
fn error_text(e: &ConvertError) -> String {
    match e.path_string() {
        p if p.is_empty() => e.to_string(),
        p => format!("{p}: {e}"),
    }
}

fn check_convert(cases: Vec<(Value, Type, Result<Value, &str>)>) {
    for (i, (value, ty, want)) in cases.into_iter().enumerate() {
        let got = convert(&value, &ty);
        match (&got, &want) {
            (Ok(g), Ok(w)) => assert!(
                g.raw_equals(w),
                "case {i}: {value:?} to {ty:?}\n got: {g:?}\nwant: {w:?}"
            ),
            (Err(e), Err(w)) => {
                assert_eq!(error_text(e), *w, "case {i}: {value:?} to {ty:?}")
            }
            _ => panic!("case {i}: {value:?} to {ty:?}\n got: {got:?}\nwant: {want:?}"),
        }
    }
}

#[test]
fn get_conversion_follows_cty() {
    // Safe: number and bool to string; string to number or bool only unsafely.
    assert!(get_conversion(&TN, &TS).is_some());
    assert!(get_conversion(&TS, &TN).is_none());
    assert!(get_conversion_unsafe(&TS, &TN).is_some());
    assert!(get_conversion_unsafe(&TB, &TN).is_none());
    // No conversion between equal primitive types (callers compare first).
    assert!(get_conversion_unsafe(&TS, &TS).is_none());
    // List to set and map to object are unsafe; set to list is safe.
    assert!(get_conversion(&tl(TS), &tset(TS)).is_none());
    assert!(get_conversion_unsafe(&tl(TS), &tset(TS)).is_some());
    assert!(get_conversion(&tset(TS), &tl(TS)).is_some());
    assert!(get_conversion(&tm(TS), &tobj(&[("a", TS)])).is_none());
    assert!(get_conversion_unsafe(&tm(TS), &tobj(&[("a", TS)])).is_some());
    // From dynamic only unsafely; to dynamic always.
    assert!(get_conversion(&TD, &TS).is_none());
    assert!(get_conversion_unsafe(&TD, &TS).is_some());
    assert!(get_conversion(&TS, &TD).is_some());
    // hcl's conditional converts a dynamic null to the other branch's type.
    let c = get_conversion_unsafe(&TD, &tl(TS)).unwrap();
    assert!(c(&null(TD)).unwrap().raw_equals(&null(tl(TS))));
    let c = get_conversion_unsafe(&TD, &TN).unwrap();
    assert_eq!(c(&s("x")).unwrap_err().to_string(), "a number is required");
}

#[test]
fn go_quote_escapes_as_go() {
    assert_eq!(go_quote("plain"), r#""plain""#);
    assert_eq!(
        go_quote("a\"b\\c\n\t\u{1}\u{7f}é\u{200b}\u{a0}"),
        r#""a\"b\\c\n\t\x01\x7fé\u200b\u00a0""#
    );
    assert_eq!(go_quote("\u{10ffff}"), r#""\U0010ffff""#);
    assert_eq!(go_quote("日本"), r#""日本""#);
}

#[test]
fn errors_display_the_message_only() {
    let err = convert(&tup(vec![s("x")]), &tl(TN)).unwrap_err();
    assert_eq!(err.to_string(), "a number is required");
    assert_eq!(err.path_string(), "[0]");
    assert!(matches!(&err.path[..], [PathStep::Index(Value::Number(_))]));
}
