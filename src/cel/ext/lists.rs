//! cel-go's `ext.Lists` at version 3 (`ext/lists.go`): `slice`, `flatten` (version 1),
//! `sort`, `@sortByAssociatedKeys` (the runtime half of the `sortBy` macro),
//! `lists.range`, `reverse`, `distinct` (version 2); version 3 adds only cost estimates.

use super::{MAX_COMPARISONS, MAX_LIST, int_arg, list_arg, too_big};
use crate::cel::env::Function;
use crate::cel::types::Type;
use crate::cel::value::{Error, List, Value};
use std::cmp::Ordering;
use std::sync::Arc;

/// The element types `sort` and `sortBy` order, with the names in their overload ids
/// (cel-go's `comparableTypes`).
pub const COMPARABLE: [(&str, Type); 8] = [
    ("int", Type::Int),
    ("uint", Type::Uint),
    ("double", Type::Double),
    ("bool", Type::Bool),
    ("google.protobuf.Duration", Type::Duration),
    ("google.protobuf.Timestamp", Type::Timestamp),
    ("string", Type::String),
    ("bytes", Type::Bytes),
];

/// The library's functions.
pub fn functions() -> Vec<Function> {
    let t = Type::param("T");
    let list_t = Type::list(t.clone());
    let list_dyn = Type::list(Type::Dyn);
    let mut sort = Function::new("sort");
    let mut sort_by = Function::new("@sortByAssociatedKeys");
    for (name, ty) in COMPARABLE {
        sort = sort.member(
            &format!("list_{name}_sort"),
            vec![Type::list(ty.clone())],
            Type::list(ty.clone()),
            |a| {
                let l = list_arg(a, 0)?;
                sort_by_keys(l, l)
            },
        );
        sort_by = sort_by.member(
            &format!("list_{name}_sortByAssociatedKeys"),
            vec![list_t.clone(), Type::list(ty)],
            list_t.clone(),
            |a| sort_by_keys(list_arg(a, 0)?, list_arg(a, 1)?),
        );
    }
    vec![
        Function::new("slice").member(
            "list_slice",
            vec![list_t.clone(), Type::Int, Type::Int],
            list_t.clone(),
            |a| slice(list_arg(a, 0)?, int_arg(a, 1)?, int_arg(a, 2)?),
        ),
        // cel-go disables the type guards of flatten: any list is accepted at run time
        Function::new("flatten")
            .member(
                "list_flatten",
                vec![Type::list(list_t.clone())],
                list_t.clone(),
                |a| match a.first() {
                    Some(Value::List(l)) => flatten(l, 1),
                    Some(other) => Err(Error::new(format!(
                        "no such overload: {}.flatten()",
                        super::gofmt::type_name(other)
                    ))),
                    None => Err(Error::no_such_overload()),
                },
            )
            .member(
                "list_flatten_int",
                vec![list_dyn.clone(), Type::Int],
                list_dyn,
                |a| match (a.first(), a.get(1)) {
                    (Some(Value::List(l)), Some(Value::Int(d))) => flatten(l, *d),
                    (Some(x), Some(y)) => Err(Error::new(format!(
                        "no such overload: {}.flatten({})",
                        super::gofmt::type_name(x),
                        super::gofmt::type_name(y)
                    ))),
                    _ => Err(Error::no_such_overload()),
                },
            )
            .unguarded(),
        // one implementation for every overload: cel-go calls it for any list
        sort.unguarded(),
        sort_by.unguarded(),
        Function::new("lists.range").global(
            "lists_range",
            vec![Type::Int],
            Type::list(Type::Int),
            |a| range(int_arg(a, 0)?),
        ),
        Function::new("reverse").member(
            "list_reverse",
            vec![list_t.clone()],
            list_t.clone(),
            |a| {
                let l = list_arg(a, 0)?;
                Ok(Value::list(l.items.iter().rev().cloned().collect()))
            },
        ),
        Function::new("distinct").member("list_distinct", vec![list_t.clone()], list_t, |a| {
            distinct(list_arg(a, 0)?)
        }),
    ]
}

/// `lists.range(n)`: `[0, 1, …, n-1]`.
pub fn range(n: i64) -> Result<Value, Error> {
    let n = usize::try_from(n).unwrap_or(0);
    if n > MAX_LIST {
        return Err(too_big());
    }
    Ok(Value::list((0..n as i64).map(Value::Int).collect()))
}

/// `list.slice(start, end)`.
pub fn slice(list: &List, start: i64, end: i64) -> Result<Value, Error> {
    let len = list.items.len() as i64;
    if start < 0 || end < 0 {
        return Err(Error::new(format!(
            "cannot slice({start}, {end}), negative indexes not supported"
        )));
    }
    if start > end {
        return Err(Error::new(format!(
            "cannot slice({start}, {end}), start index must be less than or equal to end index"
        )));
    }
    if len < end {
        return Err(Error::new(format!(
            "cannot slice({start}, {end}), list is length {len}"
        )));
    }
    Ok(Value::list(
        list.items[start as usize..end as usize].to_vec(),
    ))
}

/// `list.flatten(depth)`.
pub fn flatten(list: &List, depth: i64) -> Result<Value, Error> {
    if depth < 0 {
        return Err(Error::new("level must be non-negative"));
    }
    let mut out = Vec::new();
    flatten_into(list, depth, &mut out)?;
    Ok(Value::list(out))
}

fn flatten_into(list: &List, depth: i64, out: &mut Vec<Value>) -> Result<(), Error> {
    for v in &list.items {
        match v {
            // recursion is bounded by the value's nesting, itself bounded by the parser's
            // depth limit or the JSON decoder's
            Value::List(inner) if depth > 0 => flatten_into(inner, depth - 1, out)?,
            other => out.push(other.clone()),
        }
        if out.len() > MAX_LIST {
            return Err(too_big());
        }
    }
    Ok(())
}

/// Whether `sort` orders values like `v` (cel-go's `traits.Comparer`).
fn comparable(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
            | Value::String(_)
            | Value::Bytes(_)
    )
}

/// `list.@sortByAssociatedKeys(keys)`: `list`'s elements in the order that sorts `keys`;
/// `sort()` is `list.@sortByAssociatedKeys(list)`.
pub fn sort_by_keys(list: &Arc<List>, keys: &Arc<List>) -> Result<Value, Error> {
    let (n, nk) = (list.items.len(), keys.items.len());
    if n != nk {
        return Err(Error::new(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {n} and {nk} elements respectively"
        )));
    }
    if n == 0 {
        return Ok(Value::List(list.clone()));
    }
    let first = &keys.items[0];
    if !comparable(first) {
        return Err(Error::new("list elements must be comparable"));
    }
    // cel-go's sort notices a key of another type when comparing it; with two or more
    // keys every key is compared at least once
    if n > 1
        && keys
            .items
            .iter()
            .any(|k| std::mem::discriminant(k) != std::mem::discriminant(first))
    {
        return Err(Error::new("list elements must have the same type"));
    }
    let mut order: Vec<usize> = (0..n).collect();
    super::pdqsort::sort_by(&mut order, |&i, &j| {
        keys.items[i].compare(&keys.items[j]) == Some(Ordering::Less)
    });
    Ok(Value::list(
        order.into_iter().map(|i| list.items[i].clone()).collect(),
    ))
}

/// `list.distinct()`: the first of each group of equal elements, in order.
pub fn distinct(list: &Arc<List>) -> Result<Value, Error> {
    if list.items.is_empty() {
        return Ok(Value::List(list.clone()));
    }
    let n = list.items.len() as u64;
    if n.saturating_mul(n) > MAX_COMPARISONS {
        return Err(too_big());
    }
    let mut out: Vec<Value> = Vec::new();
    for v in &list.items {
        if !out.iter().any(|o| v.equals(o)) {
            out.push(v.clone());
        }
    }
    Ok(Value::list(out))
}
