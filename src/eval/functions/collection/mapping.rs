//! Functions on maps and objects, and those that pair keys with values: `keys`, `values`,
//! `lookup`, `merge`, `matchkeys`, `transpose`, `zipmap`.

use super::{list_val, unknown_not_null};
use crate::eval::convert::{convert, go_quote, unify_unsafe};
use crate::eval::functions::{Function, FunctionError, FunctionTable, Param};
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;

pub(super) fn register(table: &mut FunctionTable) {
    table.insert(keys());
    table.insert(values());
    table.insert(lookup());
    table.insert(merge());
    table.insert(matchkeys());
    table.insert(transpose());
    table.insert(zipmap());
}

/// The elements of a known map or object, by key.
fn entries(v: &Value) -> Option<&BTreeMap<String, Value>> {
    match v {
        Value::Map { items, .. } | Value::Object(items) => Some(items),
        _ => None,
    }
}

/// cty's `keys`: a list of strings for a map, a tuple of strings for an object (known from its
/// type even when the object is unknown).
fn keys() -> Function {
    Function::with_type_fn(
        "keys",
        vec![Param::new("inputMap", Type::Dynamic).unknown_ok()],
        None,
        |args| match args[0].ty() {
            Type::Map(_) => Ok(Type::list(Type::String)),
            Type::Object(atys) => Ok(Type::Tuple(vec![Type::String; atys.len()].into())),
            _ => Err(FunctionError::arg(0, "must have map or object type")),
        },
        |args, ret| match (&args[0], args[0].ty()) {
            (_, Type::Object(atys)) => Ok(Value::Tuple(
                atys.keys()
                    .map(|k| Value::String(k.as_str().into()))
                    .collect::<Vec<_>>()
                    .into(),
            )),
            (Value::Map { items, .. }, _) => Ok(list_val(
                &Type::String,
                items
                    .keys()
                    .map(|k| Value::String(k.as_str().into()))
                    .collect(),
            )),
            _ => Ok(unknown_not_null(ret.clone())),
        },
    )
}

/// cty's `values`: in key order; a list for a map, a tuple for an object.
fn values() -> Function {
    Function::with_type_fn(
        "values",
        vec![Param::new("mapping", Type::Dynamic)],
        None,
        |args| match args[0].ty() {
            Type::Map(elem) => Ok(Type::List(elem)),
            Type::Object(atys) => Ok(Type::Tuple(
                atys.values().cloned().collect::<Vec<_>>().into(),
            )),
            _ => Err(FunctionError::other(
                "values() requires a map as the first argument",
            )),
        },
        |args, ret| {
            let items: Vec<Value> = entries(&args[0])
                .map(|m| m.values().cloned().collect())
                .unwrap_or_default();
            Ok(match ret {
                Type::Tuple(_) => Value::Tuple(items.into()),
                _ => list_val(ret.element().unwrap_or(&Type::Dynamic), items),
            })
        },
    )
}

/// Terraform's `lookup`: the element or attribute `key`, else the default (converted to the
/// element type), else an error.
fn lookup() -> Function {
    Function::with_type_fn(
        "lookup",
        vec![
            Param::new("inputMap", Type::Dynamic),
            Param::new("key", Type::String),
        ],
        Some(Param::any("default")),
        |args| {
            if args.len() > 3 {
                return Err(FunctionError::other(format!(
                    "lookup() takes two or three arguments, got {}",
                    args.len()
                )));
            }
            match args[0].ty() {
                Type::Object(atys) => {
                    let Some(key) = args[1].as_str() else {
                        return Ok(Type::Dynamic);
                    };
                    if let Some(ty) = atys.get(key) {
                        Ok(ty.clone())
                    } else if let Some(default) = args.get(2) {
                        Ok(default.ty())
                    } else {
                        Err(FunctionError::arg(
                            0,
                            format!("the given object has no attribute {}", go_quote(key)),
                        ))
                    }
                }
                Type::Map(elem) => {
                    if let Some(default) = args.get(2)
                        && convert(default, &elem).is_err()
                    {
                        return Err(FunctionError::arg(
                            2,
                            "the default value must have the same type as the map elements",
                        ));
                    }
                    Ok(*elem)
                }
                _ => Err(FunctionError::arg(
                    0,
                    "lookup() requires a map as the first argument",
                )),
            }
        },
        |args, ret| {
            let key = args[1].as_str().unwrap_or_default();
            if let Some(found) = entries(&args[0]).and_then(|m| m.get(key)) {
                return Ok(found.clone());
            }
            match args.get(2) {
                Some(default) => convert(default, ret).map_err(|e| FunctionError::other(e.message)),
                None => Err(FunctionError::other(format!(
                    "lookup failed to find key {key}"
                ))),
            }
        },
    )
}

/// cty's `merge`: later keys win; the result is a map when every argument has the same map
/// type, otherwise an object (or of unknown type when an argument is).
fn merge() -> Function {
    Function::with_type_fn(
        "merge",
        Vec::new(),
        Some(Param::new("maps", Type::Dynamic).null_ok().dynamic_ok()),
        |args| {
            let mut attrs = BTreeMap::new();
            let mut first = None;
            let mut matching = true;
            let mut attrs_known = true;
            for arg in args {
                let ty = arg.ty();
                match (&ty, arg) {
                    (Type::Dynamic, _) => return Ok(Type::Dynamic),
                    (Type::Object(atys), _) if !arg.is_null() => {
                        attrs.extend(atys.iter().map(|(k, t)| (k.clone(), t.clone())));
                    }
                    (Type::Object(_), _) | (Type::Map(_), Value::Null(_)) => {}
                    (Type::Map(elem), Value::Map { items, .. }) => {
                        attrs.extend(items.keys().map(|k| (k.clone(), (**elem).clone())));
                    }
                    (Type::Map(_), _) => attrs_known = false,
                    _ => {
                        return Err(FunctionError::other(format!(
                            "arguments must be maps or objects, got {}",
                            go_quote(&ty.friendly_name())
                        )));
                    }
                }
                match &first {
                    None => first = Some(ty),
                    Some(f) => matching &= *f == ty,
                }
            }
            Ok(match first {
                None => Type::empty_object(),
                Some(first) if matching => first,
                _ if !attrs_known => Type::Dynamic,
                _ => Type::Object(attrs.into()),
            })
        },
        |args, ret| {
            let mut out = BTreeMap::new();
            for arg in args {
                if let Some(items) = entries(arg) {
                    out.extend(items.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
            }
            match ret {
                Type::Map(elem) => Ok(Value::Map {
                    elem: (**elem).clone(),
                    items: out.into(),
                }),
                Type::Object(_) | Type::Dynamic => Ok(Value::Object(out.into())),
                _ => Err(FunctionError::other(format!(
                    "unexpected return type: {}",
                    ret.go_string()
                ))),
            }
        },
    )
}

/// Terraform's `matchkeys`: the values whose key (at the same index) is in the search set.
fn matchkeys() -> Function {
    let list = |name| Param::new(name, Type::list(Type::Dynamic));
    Function::with_type_fn(
        "matchkeys",
        vec![list("values"), list("keys"), list("searchset")],
        None,
        |args| match unify_unsafe(&[args[1].ty(), args[2].ty()]) {
            Some(_) => Ok(args[0].ty()),
            None => Err(FunctionError::other(
                "keys and searchset must be of the same type",
            )),
        },
        |args, ret| {
            let elem = ret.element().cloned().unwrap_or(Type::Dynamic);
            let empty = || Ok(list_val(&elem, Vec::new()));
            if args[0].elements().len() != args[1].elements().len() {
                return Err(FunctionError::other(
                    "length of keys and values should be equal",
                ));
            }
            let Some((ty, _)) = unify_unsafe(&[args[1].ty(), args[2].ty()]) else {
                return empty();
            };
            let (Ok(keys), Ok(searchset)) = (convert(&args[1], &ty), convert(&args[2], &ty)) else {
                return empty();
            };
            if searchset.elements().is_empty() {
                return empty();
            }
            if !args[0].is_wholly_known() || !keys.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut out = Vec::new();
            for (i, key) in keys.elements().iter().enumerate() {
                for search in searchset.elements() {
                    match key.equals(search) {
                        Value::Bool(true) => {
                            out.push(args[0].elements()[i].clone());
                            break;
                        }
                        Value::Bool(false) => {}
                        // Terraform gives up with an empty list here.
                        _ => return empty(),
                    }
                }
            }
            Ok(list_val(&elem, out))
        },
    )
}

/// Terraform's `transpose`: each string in the lists becomes a key whose list holds, sorted,
/// the keys it appeared under.
fn transpose() -> Function {
    let ty = Type::map(Type::list(Type::String));
    Function::new(
        "transpose",
        vec![Param::new("values", ty.clone())],
        None,
        ty,
        |args, ret| {
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (in_key, list) in entries(&args[0]).into_iter().flatten() {
                for v in list.elements() {
                    let Some(out_key) = v.as_str() else {
                        // Go calls AsString on the null string and panics.
                        return Err(FunctionError::other(
                            "panic in function implementation: value is null",
                        ));
                    };
                    let keys = out.entry(out_key.to_string()).or_default();
                    keys.push(in_key.clone());
                    keys.sort();
                }
            }
            let items = out
                .into_iter()
                .map(|(k, keys)| {
                    let keys = keys.into_iter().map(|k| Value::String(k.into())).collect();
                    (k, list_val(&Type::String, keys))
                })
                .collect::<BTreeMap<_, _>>()
                .into();
            Ok(Value::Map {
                elem: Type::list(Type::String),
                items,
            })
        },
    )
}

/// cty's `zipmap`: a map from a list of values, an object from a tuple.
fn zipmap() -> Function {
    Function::with_type_fn(
        "zipmap",
        vec![
            Param::new("keys", Type::list(Type::String)),
            Param::new("values", Type::Dynamic),
        ],
        None,
        |args| {
            let (keys, values) = (&args[0], &args[1]);
            match values.ty() {
                Type::List(elem) => Ok(Type::Map(elem)),
                Type::Tuple(etys) => {
                    if !keys.is_wholly_known() {
                        return Ok(Type::Dynamic);
                    }
                    let keys = keys.elements();
                    if keys.len() != etys.len() {
                        return Err(count_mismatch(keys.len(), etys.len()));
                    }
                    let mut atys = BTreeMap::new();
                    for (i, (key, ety)) in keys.iter().zip(etys.iter()).enumerate() {
                        let Some(key) = key.as_str() else {
                            return Err(FunctionError::other(format!(
                                "keys list has null value at index {i}"
                            )));
                        };
                        atys.insert(key.to_string(), ety.clone());
                    }
                    Ok(Type::Object(atys.into()))
                }
                _ => Err(FunctionError::other(
                    "values argument must be a list or tuple value",
                )),
            }
        },
        |args, ret| {
            let (keys, values) = (&args[0], &args[1]);
            if !keys.is_wholly_known() {
                return Ok(unknown_not_null(ret.clone()));
            }
            let (keys, values) = (keys.elements(), values.elements());
            if keys.len() != values.len() {
                return Err(count_mismatch(keys.len(), values.len()));
            }
            let mut out = BTreeMap::new();
            for (key, value) in keys.iter().zip(values) {
                let Some(key) = key.as_str() else {
                    // Go calls AsString on the null string and panics.
                    return Err(FunctionError::other(
                        "panic in function implementation: value is null",
                    ));
                };
                out.insert(key.to_string(), value.clone());
            }
            match ret {
                Type::Map(elem) => Ok(Value::Map {
                    elem: (**elem).clone(),
                    items: out.into(),
                }),
                Type::Object(_) => Ok(Value::Object(out.into())),
                _ => Err(FunctionError::other(format!(
                    "internally selected incorrect result type {} (this is a bug)",
                    ret.friendly_name()
                ))),
            }
        },
    )
}

fn count_mismatch(keys: usize, values: usize) -> FunctionError {
    FunctionError::other(format!(
        "number of keys ({keys}) does not match number of values ({values})"
    ))
}
