//! `kubernetes.lists` (apiserver `pkg/cel/library/lists.go`): `isSorted`, `sum`, `min`,
//! `max`, `indexOf`, `lastIndexOf`.

use super::arg;
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Duration, Error, Value};
use std::cmp::Ordering;

/// The element types `isSorted`, `min` and `max` are declared for, with the names the
/// overload ids use, in the library's order.
const COMPARABLE: [(&str, Type); 8] = [
    ("int", Type::Int),
    ("uint", Type::Uint),
    ("double", Type::Double),
    ("bool", Type::Bool),
    ("duration", Type::Duration),
    ("timestamp", Type::Timestamp),
    ("string", Type::String),
    ("bytes", Type::Bytes),
];

/// The element types `sum` is declared for.
const SUMMABLE: [(&str, Type); 4] = [
    ("int", Type::Int),
    ("uint", Type::Uint),
    ("double", Type::Double),
    ("duration", Type::Duration),
];

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let mut is_sorted = Function::new("isSorted");
    let mut min = Function::new("min");
    let mut max = Function::new("max");
    for (name, ty) in COMPARABLE {
        is_sorted = is_sorted.member(
            &format!("list_{name}_is_sorted_bool"),
            vec![Type::list(ty.clone())],
            Type::Bool,
            |args| is_sorted_impl(arg(args, 0)?),
        );
        max = max.member(
            &format!("list_{name}_max_{name}"),
            vec![Type::list(ty.clone())],
            ty.clone(),
            |args| extreme(arg(args, 0)?, "max", Ordering::Less),
        );
        min = min.member(
            &format!("list_{name}_min_{name}"),
            vec![Type::list(ty.clone())],
            ty,
            |args| extreme(arg(args, 0)?, "min", Ordering::Greater),
        );
    }
    let mut sum = Function::new("sum");
    for (name, ty) in SUMMABLE {
        let zero = match ty {
            Type::Uint => Value::Uint(0),
            Type::Double => Value::Double(0.0),
            Type::Duration => Value::Duration(Duration { nanos: 0 }),
            _ => Value::Int(0),
        };
        sum = sum.member(
            &format!("list_{name}_sum_{name}"),
            vec![Type::list(ty.clone())],
            ty,
            move |args| sum_impl(arg(args, 0)?, zero.clone()),
        );
    }
    let a = || Type::param("A");
    vec![
        is_sorted,
        sum,
        max,
        min,
        Function::new("indexOf").member(
            "list_a_index_of_int",
            vec![Type::list(a()), a()],
            Type::Int,
            |args| index_of(arg(args, 0)?, arg(args, 1)?, false),
        ),
        Function::new("lastIndexOf").member(
            "list_a_last_index_of_int",
            vec![Type::list(a()), a()],
            Type::Int,
            |args| index_of(arg(args, 0)?, arg(args, 1)?, true),
        ),
    ]
}

fn items(list: &Value) -> Result<&[Value], Error> {
    match list {
        Value::List(l) => Ok(&l.items),
        _ => Err(Error::no_such_overload()),
    }
}

/// Whether cel-go's value implements `traits.Comparer`.
fn comparer(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::String(_)
            | Value::Bytes(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
    )
}

/// `isSorted`: false at the first element greater than the next. Pairs that do not compare
/// (NaN, mixed types in a `dyn` list) are skipped, as the library only looks for `1`.
fn is_sorted_impl(list: &Value) -> Result<Value, Error> {
    let mut prev: Option<&Value> = None;
    for next in items(list)? {
        if !comparer(next) {
            return Err(Error::no_such_overload());
        }
        if let Some(p) = prev
            && p.compare(next) == Some(Ordering::Greater)
        {
            return Ok(Value::Bool(false));
        }
        prev = Some(next);
    }
    Ok(Value::Bool(true))
}

/// `min` (`replace_when` = Greater: the kept value compares greater than the next) and `max`.
fn extreme(list: &Value, op: &str, replace_when: Ordering) -> Result<Value, Error> {
    let mut result: Option<&Value> = None;
    for next in items(list)? {
        if !comparer(next) {
            return Err(Error::no_such_overload());
        }
        match result {
            None => result = Some(next),
            Some(r) if r.compare(next) == Some(replace_when) => result = Some(next),
            Some(_) => {}
        }
    }
    result
        .cloned()
        .ok_or_else(|| Error::new(format!("{op} called on empty list")))
}

/// `sum`: the overload's zero plus each element, with cel-go's `Add` (overflow errors, no
/// mixing of types).
fn sum_impl(list: &Value, zero: Value) -> Result<Value, Error> {
    let mut acc = zero;
    for next in items(list)? {
        acc = add(&acc, next)?;
    }
    Ok(acc)
}

fn add(a: &Value, b: &Value) -> Result<Value, Error> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x
            .checked_add(*y)
            .map(Value::Int)
            .ok_or_else(|| Error::new("integer overflow")),
        (Value::Uint(x), Value::Uint(y)) => x
            .checked_add(*y)
            .map(Value::Uint)
            .ok_or_else(|| Error::new("unsigned integer overflow")),
        (Value::Double(x), Value::Double(y)) => Ok(Value::Double(x + y)),
        (Value::Duration(x), Value::Duration(y)) => x
            .nanos
            .checked_add(y.nanos)
            .map(|nanos| Value::Duration(Duration { nanos }))
            .ok_or_else(|| Error::new("integer overflow")),
        _ => Err(Error::no_such_overload()),
    }
}

/// `indexOf` / `lastIndexOf`: the first (last) index whose element equals `item`, or -1.
fn index_of(list: &Value, item: &Value, last: bool) -> Result<Value, Error> {
    let items = items(list)?;
    let found = if last {
        items.iter().rposition(|e| e.equals(item))
    } else {
        items.iter().position(|e| e.equals(item))
    };
    Ok(Value::Int(found.map_or(-1, |i| i as i64)))
}
