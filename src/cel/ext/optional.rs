//! The optional types' functions (cel-go's `OptionalTypes()` library, `cel/library.go`,
//! at its latest version as the API server enables it): `optional.of`,
//! `optional.ofNonZeroValue`, `optional.none`, `value()`, `hasValue()`, `or()`,
//! `orValue()`, `first()`, `last()`, `optional.unwrap()`, `unwrapOpt()`, and the
//! declarations (no implementation: the interpreter's) of the optional field selection
//! `_?._`, the optional index `_[?_]` and indexing an optional list or map with `_[_]`.
//!
//! cel-go evaluates `or` and `orValue` lazily (the right-hand side only when the
//! left-hand side is empty); the implementations here are the strict fallback, an
//! interpreter wanting cel-go's short-circuit special-cases their overload ids.

use super::gofmt::go_v;
use super::list_arg;
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, ListKind, Value};
use std::sync::Arc;

/// cel-go's `Timestamp.IsZeroValue`: Go's zero time, 0001-01-01T00:00:00Z.
const GO_ZERO_TIME_SECS: i64 = -62_135_596_800;

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let k = Type::param("K");
    let v = Type::param("V");
    let opt_v = Type::optional(v.clone());
    let list_v = Type::list(v.clone());
    let map_kv = Type::map(k.clone(), v.clone());
    let list_opt_v = Type::list(opt_v.clone());
    vec![
        Function::new("optional.of").global("optional_of", vec![v.clone()], opt_v.clone(), |a| {
            let x = a.first().ok_or_else(Error::no_such_overload)?;
            Ok(Value::Optional(Some(Arc::new(x.clone()))))
        }),
        Function::new("optional.ofNonZeroValue").global(
            "optional_ofNonZeroValue",
            vec![v.clone()],
            opt_v.clone(),
            |a| {
                let x = a.first().ok_or_else(Error::no_such_overload)?;
                Ok(Value::Optional(
                    (!is_zero_value(x)).then(|| Arc::new(x.clone())),
                ))
            },
        ),
        Function::new("optional.none").global("optional_none", vec![], opt_v.clone(), |_| {
            Ok(Value::Optional(None))
        }),
        Function::new("value").member(
            "optional_value",
            vec![opt_v.clone()],
            v.clone(),
            |a| match a.first() {
                Some(Value::Optional(Some(x))) => Ok((**x).clone()),
                Some(Value::Optional(None)) => Err(Error::new("optional.none() dereference")),
                _ => Err(Error::no_such_overload()),
            },
        ),
        Function::new("hasValue").member(
            "optional_hasValue",
            vec![opt_v.clone()],
            Type::Bool,
            |a| match a.first() {
                Some(Value::Optional(o)) => Ok(Value::Bool(o.is_some())),
                _ => Err(Error::no_such_overload()),
            },
        ),
        // cel-go's decorator evaluating `or` and `orValue` returns a left-hand side that
        // is not an optional as it is: no type guard
        Function::new("or")
            .member(
                "optional_or_optional",
                vec![opt_v.clone(), opt_v.clone()],
                opt_v.clone(),
                |a| match (a.first(), a.get(1)) {
                    (Some(Value::Optional(None)), Some(rhs)) => Ok(rhs.clone()),
                    (Some(lhs), Some(_)) => Ok(lhs.clone()),
                    _ => Err(Error::no_such_overload()),
                },
            )
            .unguarded(),
        Function::new("orValue")
            .member(
                "optional_orValue_value",
                vec![opt_v.clone(), v.clone()],
                v.clone(),
                |a| match (a.first(), a.get(1)) {
                    (Some(Value::Optional(Some(x))), _) => Ok((**x).clone()),
                    (Some(Value::Optional(None)), Some(rhs)) => Ok(rhs.clone()),
                    (Some(lhs), Some(_)) => Ok(lhs.clone()),
                    _ => Err(Error::no_such_overload()),
                },
            )
            .unguarded(),
        Function::new("_?._").declared(
            "select_optional_field",
            false,
            vec![Type::Dyn, Type::String],
            opt_v.clone(),
        ),
        Function::new("_[?_]")
            .declared(
                "list_optindex_optional_int",
                false,
                vec![list_v.clone(), Type::Int],
                opt_v.clone(),
            )
            .declared(
                "optional_list_optindex_optional_int",
                false,
                vec![Type::optional(list_v.clone()), Type::Int],
                opt_v.clone(),
            )
            .declared(
                "map_optindex_optional_value",
                false,
                vec![map_kv.clone(), k.clone()],
                opt_v.clone(),
            )
            .declared(
                "optional_map_optindex_optional_value",
                false,
                vec![Type::optional(map_kv.clone()), k.clone()],
                opt_v.clone(),
            ),
        Function::new("_[_]")
            .declared(
                "optional_list_index_int",
                false,
                vec![Type::optional(list_v.clone()), Type::Int],
                opt_v.clone(),
            )
            .declared(
                "optional_map_index_value",
                false,
                vec![Type::optional(map_kv), k],
                opt_v.clone(),
            ),
        Function::new("last").member("list_last", vec![list_v.clone()], opt_v.clone(), |a| {
            let l = list_arg(a, 0)?;
            Ok(Value::Optional(l.items.last().cloned().map(Arc::new)))
        }),
        Function::new("first").member("list_first", vec![list_v.clone()], opt_v, |a| {
            let l = list_arg(a, 0)?;
            Ok(Value::Optional(l.items.first().cloned().map(Arc::new)))
        }),
        Function::new("optional.unwrap").global(
            "optional_unwrap",
            vec![list_opt_v.clone()],
            list_v.clone(),
            |a| unwrap(&list_arg(a, 0)?.items),
        ),
        Function::new("unwrapOpt").member("optional_unwrapOpt", vec![list_opt_v], list_v, |a| {
            unwrap(&list_arg(a, 0)?.items)
        }),
    ]
}

/// The values of the non-empty optionals of a list.
pub fn unwrap(items: &[Value]) -> Result<Value, Error> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Value::Optional(Some(x)) => out.push((**x).clone()),
            Value::Optional(None) => {}
            other => {
                return Err(Error::new(format!("value {} is not optional", go_v(other))));
            }
        }
    }
    Ok(Value::list(out))
}

/// Whether `optional.ofNonZeroValue` treats `v` as empty (cel-go's `traits.Zeroer`):
/// `null`, `false`, `0`, `0u`, `0.0`, `""`, `b""`, a zero duration, Go's zero time, an
/// empty list or map. The API server's values of a CRD's lists and objects implement no
/// `Zeroer`: an empty `x-kubernetes-list-type: set/map` list or a schema object counts as
/// a value. (Plain lists and maps from a schema cannot be told from literals here; they
/// follow the literals' rule.)
pub fn is_zero_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Uint(u) => *u == 0,
        Value::Double(d) => *d == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::Duration(d) => d.nanos == 0,
        Value::Timestamp(t) => t.secs == GO_ZERO_TIME_SECS && t.nanos == 0,
        Value::List(l) => l.kind == ListKind::Plain && l.items.is_empty(),
        Value::Map(m) => m.object.is_none() && m.entries.is_empty(),
        Value::Type(_) | Value::Optional(_) | Value::Opaque(_) => false,
    }
}
