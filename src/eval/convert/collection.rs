//! cty's conversion_collection.go: conversions to lists, sets and maps (from collections,
//! tuples and objects), from maps to objects, and the unification of collection elements.

use super::set_order::set_from;
use super::unification::unify_inner;
use super::{
    Conv, ConvertError, PathStep, apply, child, conv, conversion_for, go_quote, unexpected,
};
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;

/// The elements of a list, set or tuple value (what cty's `ElementIterator` yields for them).
fn seq_items(v: &Value) -> Option<&[Value]> {
    match v {
        Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => Some(items),
        _ => None,
    }
}

/// The elements of a map or object value, by key.
fn keyed_items(v: &Value) -> Option<&BTreeMap<String, Value>> {
    match v {
        Value::Map { items, .. } | Value::Object(items) => Some(items),
        _ => None,
    }
}

/// The declared element type of a collection value (cty's `val.Type().ElementType()`).
fn value_elem(v: &Value) -> Type {
    match v {
        Value::List { elem, .. } | Value::Set { elem, .. } | Value::Map { elem, .. } => {
            elem.clone()
        }
        // cty would panic here; only reachable through unification's composed conversions.
        _ => Type::Dynamic,
    }
}

/// cty's `CanListVal` / `CanSetVal` / `CanMapVal`: all element types agree, ignoring values of
/// the dynamic pseudo-type.
fn can_collect<'a>(elems: impl IntoIterator<Item = &'a Value>) -> bool {
    let mut ety = Type::Dynamic;
    for v in elems {
        let ty = v.ty();
        if ety == Type::Dynamic {
            ety = ty;
        } else if ty != Type::Dynamic && ty != ety {
            return false;
        }
    }
    true
}

/// The element type `cty.ListVal` / `SetVal` / `MapVal` infer: the first element type that is
/// not dynamic.
pub(crate) fn inferred_elem<'a>(elems: impl IntoIterator<Item = &'a Value>) -> Type {
    elems
        .into_iter()
        .map(Value::ty)
        .find(|t| *t != Type::Dynamic)
        .unwrap_or(Type::Dynamic)
}

/// `cty.ListVal`.
fn list_val(items: Vec<Value>) -> Value {
    Value::List {
        elem: inferred_elem(&items),
        items: items.into(),
    }
}

/// `cty.SetVal`.
fn set_val(items: Vec<Value>) -> Value {
    set_from(inferred_elem(&items), items)
}

/// `cty.MapVal`.
fn map_val(items: BTreeMap<String, Value>) -> Value {
    Value::Map {
        elem: inferred_elem(items.values()),
        items: items.into(),
    }
}

/// cty's `conversionCollectionToList`: converts each element of a list or set.
pub(super) fn conversion_collection_to_list(ety: &Type, elem_conv: Option<Conv>) -> Conv {
    let ety = ety.clone();
    conv(move |val, path| {
        let Some(items) = seq_items(val) else {
            return Err(unexpected(val, &Type::list(ety.clone()), path));
        };
        if let Value::Set { elem, items } = val {
            // A set holding unknowns may shrink once they are known: the list length is not
            // known. (cty uses the *source* element type here.)
            if items.len() != 1 && !val.is_wholly_known() {
                return Ok(Value::unknown(Type::list(elem.clone())));
            }
        }
        let mut elems = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            elems.push(apply(&elem_conv, item, &child(path, PathStep::index(i)))?);
        }
        if elems.is_empty() {
            // Prefer a concrete element type over a dynamic one for an empty list.
            let elem = if ety == Type::Dynamic {
                value_elem(val)
            } else {
                ety.clone()
            };
            return Ok(Value::List {
                elem,
                items: Vec::new().into(),
            });
        }
        if !can_collect(&elems) {
            return Err(ConvertError::new(
                path,
                "element types must all match for conversion to list",
            ));
        }
        Ok(list_val(elems))
    })
}

/// cty's `conversionCollectionToSet`: converts each element of a list or set.
pub(super) fn conversion_collection_to_set(ety: &Type, elem_conv: Option<Conv>) -> Conv {
    let ety = ety.clone();
    conv(move |val, path| {
        let Some(items) = seq_items(val) else {
            return Err(unexpected(val, &Type::set(ety.clone()), path));
        };
        let mut elems = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            elems.push(apply(&elem_conv, item, &child(path, PathStep::index(i)))?);
        }
        if elems.is_empty() {
            let elem = if ety == Type::Dynamic {
                value_elem(val)
            } else {
                ety.clone()
            };
            return Ok(Value::Set {
                elem,
                items: Vec::new().into(),
            });
        }
        if !can_collect(&elems) {
            return Err(ConvertError::new(
                path,
                "element types must all match for conversion to set",
            ));
        }
        Ok(set_val(elems))
    })
}

/// cty's `conversionCollectionToMap`: converts each element of a map.
pub(super) fn conversion_collection_to_map(ety: &Type, elem_conv: Option<Conv>) -> Conv {
    let ety = ety.clone();
    conv(move |val, path| {
        let Some(items) = keyed_items(val) else {
            return Err(unexpected(val, &Type::map(ety.clone()), path));
        };
        let mut elems = BTreeMap::new();
        for (key, item) in items {
            let v = apply(&elem_conv, item, &child(path, PathStep::key(key)))?;
            elems.insert(key.clone(), v);
        }
        if elems.is_empty() {
            let elem = if ety == Type::Dynamic {
                value_elem(val)
            } else {
                ety.clone()
            };
            return Ok(Value::Map {
                elem,
                items: BTreeMap::new().into(),
            });
        }
        if ety.is_collection() || matches!(ety, Type::Object(_)) {
            // cty unifies safely here whatever the mode.
            elems = conversion_unify_collection_elements(elems, path, false)?;
        }
        if !can_collect(elems.values()) {
            return Err(ConvertError::new(
                path,
                "element types must all match for conversion to map",
            ));
        }
        Ok(map_val(elems))
    })
}

/// cty's `conversionTupleToSet`.
pub(super) fn conversion_tuple_to_set(
    tuple_etys: &[Type],
    set_ety: &Type,
    unsafe_ok: bool,
) -> Option<Conv> {
    if tuple_etys.is_empty() {
        let elem = set_ety.clone();
        return Some(conv(move |_, _| {
            Ok(Value::Set {
                elem: elem.clone(),
                items: Vec::new().into(),
            })
        }));
    }
    let mut set_ety = set_ety.clone();
    if set_ety == Type::Dynamic {
        // Find a single type all the elements convert to.
        set_ety = unify_inner(tuple_etys, unsafe_ok)?.0;
        // Still dynamic: only a tuple of dynamic elements makes a valid set.
        if set_ety == Type::Dynamic && tuple_etys.iter().any(|t| *t != Type::Dynamic) {
            return None;
        }
    }
    let mut elem_convs = Vec::with_capacity(tuple_etys.len());
    for ety in tuple_etys {
        if *ety == set_ety {
            elem_convs.push(None);
        } else {
            elem_convs.push(Some(conversion_for(ety, &set_ety, unsafe_ok)?));
        }
    }
    Some(conv(move |val, path| {
        let Some(items) = seq_items(val) else {
            return Err(unexpected(val, &Type::set(set_ety.clone()), path));
        };
        let mut elems = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let c = elem_convs.get(i).cloned().flatten();
            elems.push(apply(&c, item, &child(path, PathStep::index(i)))?);
        }
        if !can_collect(&elems) {
            return Err(ConvertError::new(
                path,
                "element types must all match for conversion to set",
            ));
        }
        Ok(set_val(elems))
    }))
}

/// cty's `conversionTupleToList`.
pub(super) fn conversion_tuple_to_list(
    tuple_etys: &[Type],
    list_ety: &Type,
    unsafe_ok: bool,
) -> Option<Conv> {
    if tuple_etys.is_empty() {
        let elem = list_ety.clone();
        return Some(conv(move |_, _| {
            Ok(Value::List {
                elem: elem.clone(),
                items: Vec::new().into(),
            })
        }));
    }
    let mut list_ety = list_ety.clone();
    if list_ety == Type::Dynamic {
        list_ety = unify_inner(tuple_etys, unsafe_ok)?.0;
        if list_ety == Type::Dynamic && tuple_etys.iter().any(|t| *t != Type::Dynamic) {
            return None;
        }
    }
    let mut elem_convs = Vec::with_capacity(tuple_etys.len());
    for ety in tuple_etys {
        if *ety == list_ety {
            elem_convs.push(None);
        } else {
            elem_convs.push(Some(conversion_for(ety, &list_ety, unsafe_ok)?));
        }
    }
    Some(conv(move |val, path| {
        let Some(items) = seq_items(val) else {
            return Err(unexpected(val, &Type::list(list_ety.clone()), path));
        };
        let mut elems = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let c = elem_convs.get(i).cloned().flatten();
            elems.push(apply(&c, item, &child(path, PathStep::index(i)))?);
        }
        // cty passes the last element's path here, so unification errors carry it too.
        let elem_path = match elems.len() {
            0 => path.to_vec(),
            n => child(path, PathStep::index(n - 1)),
        };
        let elems = conversion_unify_list_elements(elems, &elem_path, unsafe_ok)?;
        if !can_collect(&elems) {
            return Err(ConvertError::new(
                path,
                "element types must all match for conversion to list",
            ));
        }
        Ok(list_val(elems))
    }))
}

/// cty's `conversionObjectToMap`.
pub(super) fn conversion_object_to_map(
    object_atys: &BTreeMap<String, Type>,
    map_ety: &Type,
    unsafe_ok: bool,
) -> Option<Conv> {
    if object_atys.is_empty() {
        let elem = map_ety.clone();
        return Some(conv(move |_, _| {
            Ok(Value::Map {
                elem: elem.clone(),
                items: BTreeMap::new().into(),
            })
        }));
    }
    let mut map_ety = map_ety.clone();
    if map_ety == Type::Dynamic {
        // cty collects the attribute types in Go map order; sorted order here.
        let atys: Vec<Type> = object_atys.values().cloned().collect();
        map_ety = unify_inner(&atys, unsafe_ok)?.0;
    }
    let mut elem_convs: BTreeMap<String, Conv> = BTreeMap::new();
    for (name, aty) in object_atys {
        if *aty == map_ety {
            continue;
        }
        elem_convs.insert(name.clone(), conversion_for(aty, &map_ety, unsafe_ok)?);
    }
    Some(conv(move |val, path| {
        let Some(items) = keyed_items(val) else {
            return Err(unexpected(val, &Type::map(map_ety.clone()), path));
        };
        let mut elems = BTreeMap::new();
        for (name, item) in items {
            let v = apply(
                &elem_convs.get(name).cloned(),
                item,
                &child(path, PathStep::key(name)),
            )?;
            elems.insert(name.clone(), v);
        }
        if map_ety.is_collection() || matches!(map_ety, Type::Object(_)) {
            elems = conversion_unify_collection_elements(elems, path, unsafe_ok)?;
        }
        if !can_collect(elems.values()) {
            return Err(ConvertError::new(
                path,
                "attribute types must all match for conversion to map",
            ));
        }
        Ok(map_val(elems))
    }))
}

/// cty's `conversionMapToObject` (without optional attributes: every attribute is required).
pub(super) fn conversion_map_to_object(
    map_ety: &Type,
    object_atys: &BTreeMap<String, Type>,
    unsafe_ok: bool,
) -> Option<Conv> {
    let mut elem_convs: BTreeMap<String, Conv> = BTreeMap::new();
    for (name, aty) in object_atys {
        if aty == map_ety {
            continue;
        }
        elem_convs.insert(name.clone(), conversion_for(map_ety, aty, unsafe_ok)?);
    }
    let object_atys = object_atys.clone();
    Some(conv(move |val, path| {
        let Some(items) = keyed_items(val) else {
            return Err(unexpected(
                val,
                &Type::Object(object_atys.clone().into()),
                path,
            ));
        };
        let mut elems = BTreeMap::new();
        for (name, item) in items {
            // Keys without a corresponding attribute are dropped.
            if !object_atys.contains_key(name) {
                continue;
            }
            let v = apply(
                &elem_convs.get(name).cloned(),
                item,
                &child(path, PathStep::key(name)),
            )?;
            elems.insert(name.clone(), v);
        }
        // cty checks in Go map order; with several missing, we report the first by name.
        for name in object_atys.keys() {
            if !elems.contains_key(name) {
                return Err(ConvertError::new(
                    path,
                    format!(
                        "map has no element for required attribute {}",
                        go_quote(name)
                    ),
                ));
            }
        }
        Ok(Value::Object(elems.into()))
    }))
}

/// cty's `conversionUnifyCollectionElements`: brings map elements to one type.
fn conversion_unify_collection_elements(
    elems: BTreeMap<String, Value>,
    path: &[PathStep],
    unsafe_ok: bool,
) -> Result<BTreeMap<String, Value>, ConvertError> {
    let types: Vec<Type> = elems.values().map(Value::ty).collect();
    let Some((unified, _)) = unify_inner(&types, unsafe_ok) else {
        return Err(ConvertError::new(
            path,
            "cannot find a common base type for all elements",
        ));
    };
    let mut out = BTreeMap::new();
    for (name, elem) in elems {
        let ty = elem.ty();
        if ty == unified {
            out.insert(name, elem);
            continue;
        }
        // Unification guarantees a conversion (cty would call a nil function otherwise).
        let Some(c) = conversion_for(&ty, &unified, unsafe_ok) else {
            return Err(ConvertError::new(
                path,
                "cannot find a common base type for all elements",
            ));
        };
        let v = c(&elem, &child(path, PathStep::key(&name)))?;
        out.insert(name, v);
    }
    Ok(out)
}

/// cty's `conversionUnifyListElements`: brings list elements to one type.
fn conversion_unify_list_elements(
    elems: Vec<Value>,
    path: &[PathStep],
    unsafe_ok: bool,
) -> Result<Vec<Value>, ConvertError> {
    let types: Vec<Type> = elems.iter().map(Value::ty).collect();
    let Some((unified, _)) = unify_inner(&types, unsafe_ok) else {
        return Err(ConvertError::new(
            path,
            "cannot find a common base type for all elements",
        ));
    };
    let mut out = Vec::with_capacity(elems.len());
    for (i, elem) in elems.into_iter().enumerate() {
        let ty = elem.ty();
        if ty == unified {
            out.push(elem);
            continue;
        }
        let Some(c) = conversion_for(&ty, &unified, unsafe_ok) else {
            return Err(ConvertError::new(
                path,
                "cannot find a common base type for all elements",
            ));
        };
        out.push(c(&elem, &child(path, PathStep::index(i)))?);
    }
    Ok(out)
}
