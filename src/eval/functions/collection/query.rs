//! Functions that read one value out of a collection or test its elements: `length`,
//! `alltrue`, `anytrue`, `coalesce`, `coalescelist`, `contains`, `element`, `index`, `one`,
//! `sum` — and the removed `list` and `map`.

use super::{go_int, go_int_arg, int_val, known_length, unknown_not_null};
use crate::eval::convert::{convert, unify_unsafe};
use crate::eval::functions::{Function, FunctionError, FunctionTable, Param};
use crate::eval::types::Type;
use crate::eval::value::Value;
use unicode_segmentation::UnicodeSegmentation;

pub(super) fn register(table: &mut FunctionTable) {
    table.insert(length());
    table.insert(all_true());
    table.insert(any_true());
    table.insert(coalesce());
    table.insert(coalesce_list());
    table.insert(contains());
    table.insert(element());
    table.insert(index());
    table.insert(one());
    table.insert(sum());
    table.insert(removed(
        "list",
        "the \"list\" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list",
    ));
    table.insert(removed(
        "map",
        "the \"map\" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map",
    ));
}

/// Terraform's `length`: strings count grapheme clusters; tuples and objects are counted from
/// their types, so even unknown ones have a known length.
fn length() -> Function {
    Function::with_type_fn(
        "length",
        vec![Param::new("value", Type::Dynamic).unknown_ok().dynamic_ok()],
        None,
        |args| match args[0].ty() {
            Type::String
            | Type::Tuple(_)
            | Type::Object(_)
            | Type::List(_)
            | Type::Map(_)
            | Type::Set(_)
            | Type::Dynamic => Ok(Type::Number),
            _ => Err(FunctionError::other(
                "argument must be a string, a collection type, or a structural type",
            )),
        },
        |args, _| {
            let v = &args[0];
            Ok(match v.ty() {
                Type::Dynamic => Value::unknown(Type::Number),
                Type::Tuple(etys) => int_val(etys.len()),
                Type::Object(atys) => int_val(atys.len()),
                // cty's `Strlen` (refined not null when unknown).
                Type::String => match v.as_str() {
                    Some(s) => int_val(s.graphemes(true).count()),
                    None => unknown_not_null(Type::Number),
                },
                // `Value.Length()`: an unknown length is refined not null.
                _ => known_length(v).map_or_else(|| unknown_not_null(Type::Number), int_val),
            })
        },
    )
}

fn all_true() -> Function {
    Function::new(
        "alltrue",
        vec![Param::new("list", Type::list(Type::Bool))],
        None,
        Type::Bool,
        |args, _| {
            for v in args[0].elements() {
                match v {
                    Value::Unknown(..) => return Ok(Value::unknown(Type::Bool)),
                    Value::Bool(true) => {}
                    _ => return Ok(Value::Bool(false)),
                }
            }
            Ok(Value::Bool(true))
        },
    )
}

fn any_true() -> Function {
    Function::new(
        "anytrue",
        vec![Param::new("list", Type::list(Type::Bool))],
        None,
        Type::Bool,
        |args, _| {
            let mut has_unknown = false;
            for v in args[0].elements() {
                match v {
                    Value::Unknown(..) => has_unknown = true,
                    Value::Bool(true) => return Ok(Value::Bool(true)),
                    _ => {}
                }
            }
            Ok(if has_unknown {
                Value::unknown(Type::Bool)
            } else {
                Value::Bool(false)
            })
        },
    )
}

/// Terraform's `coalesce`: the first argument that is neither null nor (when the arguments
/// unify to string) the empty string, converted to the unified type.
fn coalesce() -> Function {
    Function::with_type_fn(
        "coalesce",
        Vec::new(),
        Some(Param::any("vals")),
        |args| {
            let tys: Vec<Type> = args.iter().map(Value::ty).collect();
            unify_unsafe(&tys)
                .map(|(ty, _)| ty)
                .ok_or_else(|| FunctionError::other("all arguments must have the same type"))
        },
        |args, ret| {
            for arg in args {
                // A failed conversion gives cty's NilVal, which the checks below treat as null.
                let Ok(v) = convert(arg, ret) else { continue };
                if !v.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if v.is_null() || *ret == Type::String && v.as_str() == Some("") {
                    continue;
                }
                return Ok(v);
            }
            Err(FunctionError::other(
                "no non-null, non-empty-string arguments",
            ))
        },
    )
}

/// cty's `coalescelist`: the first non-empty list or tuple.
fn coalesce_list() -> Function {
    Function::with_type_fn(
        "coalescelist",
        Vec::new(),
        Some(Param::any("vals")),
        |args| {
            if args.is_empty() {
                return Err(FunctionError::other("at least one argument is required"));
            }
            let mut tys = Vec::with_capacity(args.len());
            for arg in args {
                if !arg.is_known() {
                    return Ok(Type::Dynamic);
                }
                let ty = arg.ty();
                if !matches!(ty, Type::List(_) | Type::Tuple(_)) {
                    return Err(FunctionError::other(
                        "coalescelist arguments must be lists or tuples",
                    ));
                }
                tys.push(ty);
            }
            if tys.iter().all(|t| *t == tys[0]) {
                Ok(tys.swap_remove(0))
            } else {
                Ok(Type::Dynamic)
            }
        },
        |args, ret| {
            for arg in args {
                if !arg.is_known() {
                    return Ok(unknown_not_null(ret.clone()));
                }
                if !arg.is_null() && !arg.is_empty() {
                    return Ok(arg.clone());
                }
            }
            Err(FunctionError::other("no non-null arguments"))
        },
    )
}

/// cty v1.17's `contains` (its `value` parameter does not allow null yet).
fn contains() -> Function {
    Function::new(
        "contains",
        vec![
            Param::new("list", Type::Dynamic),
            Param::new("value", Type::Dynamic),
        ],
        None,
        Type::Bool,
        |args, _| {
            let (list, value) = (&args[0], &args[1]);
            if !matches!(list.ty(), Type::List(_) | Type::Tuple(_) | Type::Set(_)) {
                return Err(FunctionError::other("argument must be list, tuple, or set"));
            }
            let mut has_unknown = false;
            for v in list.elements() {
                match value.equals(v) {
                    Value::Bool(true) => return Ok(Value::Bool(true)),
                    Value::Bool(false) => {}
                    _ => has_unknown = true,
                }
            }
            Ok(if has_unknown {
                unknown_not_null(Type::Bool)
            } else {
                Value::Bool(false)
            })
        },
    )
}

/// The element index `element` reads: modulo the length, negative indices from the end.
fn wrap_index(index: i64, len: usize) -> usize {
    let len = len as i64;
    let mut i = index % len;
    if i < 0 {
        i += len;
    }
    i as usize
}

fn element() -> Function {
    Function::with_type_fn(
        "element",
        vec![
            Param::new("list", Type::Dynamic),
            Param::new("index", Type::Number),
        ],
        None,
        |args| match args[0].ty() {
            Type::List(elem) => Ok(*elem),
            Type::Tuple(etys) => {
                let Some(index) = args[1].as_num() else {
                    return Ok(Type::Dynamic);
                };
                let index = go_int(index)
                    .map_err(|e| FunctionError::other(format!("invalid index: {e}")))?;
                if etys.is_empty() {
                    return Err(FunctionError::other(
                        "cannot use element function with an empty list",
                    ));
                }
                Ok(etys[wrap_index(index, etys.len())].clone())
            }
            other => Err(FunctionError::other(format!(
                "cannot read elements from {}",
                other.friendly_name()
            ))),
        },
        |args, _| {
            let index = go_int_arg(&args[1])
                .map_err(|e| FunctionError::other(format!("invalid index: {e}")))?;
            let items = args[0].elements();
            if items.is_empty() {
                return Err(FunctionError::other(
                    "cannot use element function with an empty list",
                ));
            }
            Ok(items[wrap_index(index, items.len())].clone())
        },
    )
}

/// Terraform's `index` (cty's has other semantics): the first index whose element equals the
/// value.
fn index() -> Function {
    Function::new(
        "index",
        vec![
            Param::new("list", Type::Dynamic),
            Param::new("value", Type::Dynamic),
        ],
        None,
        Type::Number,
        |args, _| {
            if !matches!(args[0].ty(), Type::List(_) | Type::Tuple(_)) {
                return Err(FunctionError::other("argument must be a list or tuple"));
            }
            let items = args[0].elements();
            if items.is_empty() {
                return Err(FunctionError::other("cannot search an empty list"));
            }
            for (i, v) in items.iter().enumerate() {
                match v.equals(&args[1]) {
                    Value::Bool(true) => return Ok(int_val(i)),
                    Value::Bool(false) => {}
                    _ => return Ok(Value::unknown(Type::Number)),
                }
            }
            Err(FunctionError::other("item not found"))
        },
    )
}

const ONE_ELEMENT: &str = "must be a list, set, or tuple value with either zero or one elements";

/// Terraform's `one`: the only element, or null of the element type for none.
fn one() -> Function {
    Function::with_type_fn(
        "one",
        vec![Param::new("list", Type::Dynamic)],
        None,
        |args| match args[0].ty() {
            Type::List(elem) | Type::Set(elem) => Ok(*elem),
            Type::Tuple(etys) if etys.is_empty() => Ok(Type::Dynamic),
            Type::Tuple(etys) if etys.len() == 1 => Ok(etys[0].clone()),
            _ => Err(FunctionError::arg(0, ONE_ELEMENT)),
        },
        |args, ret| {
            let v = &args[0];
            if matches!(v.ty(), Type::List(_) | Type::Set(_)) && known_length(v).is_none() {
                return Ok(Value::unknown(ret.clone()));
            }
            match v.elements() {
                [] => Ok(Value::Null(ret.clone())),
                [only] => Ok(only.clone()),
                _ => Err(FunctionError::arg(0, ONE_ELEMENT)),
            }
        },
    )
}

const SUM_NUMBERS: &str = "argument must be list, set, or tuple of number values";

/// Terraform's `sum`: elements are converted to numbers and added in iteration order.
fn sum() -> Function {
    Function::new(
        "sum",
        vec![Param::new("list", Type::Dynamic)],
        None,
        Type::Number,
        |args, _| {
            let v = &args[0];
            let ty = v.ty();
            let items: Vec<&Value> = match v {
                Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                    items.iter().collect()
                }
                Value::Map { items, .. } | Value::Object(items) => items.values().collect(),
                _ => return Err(FunctionError::arg(0, "cannot sum noniterable")),
            };
            if items.is_empty() {
                return Err(FunctionError::arg(0, "cannot sum an empty list"));
            }
            if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
                return Err(FunctionError::arg(
                    0,
                    format!(
                        "argument must be list, set, or tuple. Received {}",
                        ty.friendly_name()
                    ),
                ));
            }
            if !v.is_wholly_known() {
                return Ok(Value::unknown(Type::Number));
            }
            let number = |item: &Value| match convert(item, &Type::Number) {
                Ok(Value::Number(n)) => Ok(n),
                _ => Err(FunctionError::arg(0, SUM_NUMBERS)),
            };
            let mut total = number(items[0])?;
            for item in &items[1..] {
                total = total.add(&number(item)?).map_err(|_| {
                    FunctionError::other("can't compute sum of opposing infinities")
                })?;
            }
            Ok(Value::Number(total))
        },
    )
}

/// `list` and `map`, which Terraform removed: every call fails (from the return-type check,
/// so even with unknown arguments).
fn removed(name: &'static str, message: &'static str) -> Function {
    Function::with_type_fn(
        name,
        Vec::new(),
        Some(Param::any("vals")),
        move |_| Err(FunctionError::other(message)),
        move |_, _| Err(FunctionError::other(message)),
    )
}
