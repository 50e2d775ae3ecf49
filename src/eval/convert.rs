//! cty's `convert` package (go-cty v1.17.0): safe and unsafe conversions between types, type
//! unification and the English mismatch messages that hcl and functions report.
//!
//! As in cty, a conversion is built once per (source type, target type) pair as a closure and
//! then applied to values; unification hands back those same closures, so callers that apply
//! them (hcl's conditional expression) get exactly cty's behaviour, quirks included.
//!
//! Not modelled: marks, capsule types and optional object attributes (so
//! `WithoutOptionalAttributesDeep` is the identity here), and the collection-length
//! refinements cty attaches to some unknown results (our [`Refinement`] cannot hold them; where
//! those bounds pin the value down, cty's `RefinementBuilder.NewValue` returns a known value and
//! so do we).

use super::num::Num;
use super::types::Type;
use super::value::{Refinement, Value};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// One step of a path into a nested value (cty's `PathStep`).
#[derive(Clone, Debug)]
pub enum PathStep {
    /// `cty.GetAttrStep`: an object attribute.
    GetAttr(String),
    /// `cty.IndexStep`: a list, set or tuple index (a number) or a map key (a string).
    Index(Value),
}

/// A failed conversion (cty's `PathError`, or the plain error `convert.Convert` returns for a
/// type mismatch, which has an empty path).
#[derive(Clone, Debug)]
pub struct ConvertError {
    /// Where in the value the conversion failed (empty for the value itself).
    pub path: Vec<PathStep>,
    /// cty's message, e.g. `a number is required` or `string required`.
    pub message: String,
}

impl ConvertError {
    fn new(path: &[PathStep], message: impl Into<String>) -> ConvertError {
        ConvertError {
            path: path.to_vec(),
            message: message.into(),
        }
    }

    /// cty's `Path.NewError` on an existing error: the paths concatenate.
    fn under(mut self, path: &[PathStep]) -> ConvertError {
        let mut full = path.to_vec();
        full.append(&mut self.path);
        self.path = full;
        self
    }

    /// The path in the usual HCL-ish notation (`.foo[0]["key"]`), empty for the value itself.
    pub fn path_string(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                PathStep::GetAttr(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                PathStep::Index(Value::Number(n)) => out.push_str(&format!("[{n}]")),
                PathStep::Index(Value::String(s)) => out.push_str(&format!("[{}]", go_quote(s))),
                PathStep::Index(other) => out.push_str(&format!("[{}]", other.ty())),
            }
        }
        out
    }
}

impl fmt::Display for ConvertError {
    /// cty's `PathError.Error()`: the message alone — cty never renders the path into it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConvertError {}

/// A conversion from values of one type to another (cty's `convert.Conversion`). Applying it
/// to a value of a type other than the one it was built for is not meaningful (cty may panic;
/// we return an error instead).
pub type Conversion = Arc<dyn Fn(&Value) -> Result<Value, ConvertError> + Send + Sync>;

/// cty's internal `conversion`, which carries the path for error reporting.
type Conv = Arc<dyn Fn(&Value, &[PathStep]) -> Result<Value, ConvertError> + Send + Sync>;

/// A unification result: the unified type and, per input, the conversion it needs (if any).
type Unified = (Type, Vec<Option<Conversion>>);

fn conv<F>(f: F) -> Conv
where
    F: Fn(&Value, &[PathStep]) -> Result<Value, ConvertError> + Send + Sync + 'static,
{
    Arc::new(f)
}

/// `path` with one more step.
fn child(path: &[PathStep], step: PathStep) -> Vec<PathStep> {
    let mut out = Vec::with_capacity(path.len() + 1);
    out.extend_from_slice(path);
    out.push(step);
    out
}

/// `cty.IndexStep{Key: cty.NumberIntVal(i)}`.
fn index_step(i: usize) -> PathStep {
    PathStep::Index(Value::Number(Num::from_i64(i as i64)))
}

/// `cty.IndexStep{Key: cty.StringVal(key)}`.
fn key_step(key: &str) -> PathStep {
    PathStep::Index(Value::String(key.to_string()))
}

/// The error for a conversion applied to a value of a type it was not built for (cty panics).
fn unexpected(val: &Value, want: &Type, path: &[PathStep]) -> ConvertError {
    ConvertError::new(path, mismatch_message(&val.ty(), want))
}

// ---------------------------------------------------------------------------------------------
// public.go
// ---------------------------------------------------------------------------------------------

/// cty's `convert.Convert`: converts `value` to `want` using a safe or unsafe conversion, or
/// fails with [`mismatch_message`] when the types cannot convert at all, or with a value-level
/// error (`a number is required`, …) carrying the path of the offending element.
pub fn convert(value: &Value, want: &Type) -> Result<Value, ConvertError> {
    let have = value.ty();
    if have == *want {
        return Ok(value.clone());
    }
    match conversion_for(&have, want, true) {
        Some(c) => c(value, &[]),
        None => Err(ConvertError::new(&[], mismatch_message(&have, want))),
    }
}

/// cty's `convert.GetConversion`: a safe conversion between two types, if one exists. (As in
/// cty there is none between two equal primitive types: callers compare types first.)
pub fn get_conversion(in_ty: &Type, out: &Type) -> Option<Conversion> {
    conversion_for(in_ty, out, false).map(ret_conversion)
}

/// cty's `convert.GetConversionUnsafe`: a safe or unsafe conversion between two types.
pub fn get_conversion_unsafe(in_ty: &Type, out: &Type) -> Option<Conversion> {
    conversion_for(in_ty, out, true).map(ret_conversion)
}

/// cty's `convert.Unify`: the most general type all `types` convert to safely and, per input,
/// whether a conversion is needed; `None` when there is none (or `types` is empty).
pub fn unify(types: &[Type]) -> Option<(Type, Vec<bool>)> {
    unify_inner(types, false).map(conversion_flags)
}

/// cty's `convert.UnifyUnsafe` (used by hcl's conditional expression): like [`unify`] but
/// unsafe conversions are allowed.
pub fn unify_unsafe(types: &[Type]) -> Option<(Type, Vec<bool>)> {
    unify_inner(types, true).map(conversion_flags)
}

/// [`unify`] with cty's actual conversions, for callers that must apply exactly what cty
/// applies (e.g. when every input is dynamic-adjacent, cty's conversion yields `DynamicVal`).
pub fn unify_conversions(types: &[Type]) -> Option<(Type, Vec<Option<Conversion>>)> {
    unify_inner(types, false)
}

/// [`unify_unsafe`] with cty's actual conversions (what hcl's conditional applies).
pub fn unify_unsafe_conversions(types: &[Type]) -> Option<(Type, Vec<Option<Conversion>>)> {
    unify_inner(types, true)
}

fn conversion_flags((ty, convs): Unified) -> (Type, Vec<bool>) {
    (ty, convs.iter().map(Option::is_some).collect())
}

/// cty's `retConversion`: the internal conversion applied at the root path.
fn ret_conversion(c: Conv) -> Conversion {
    Arc::new(move |v| c(v, &[]))
}

fn get_public(in_ty: &Type, out: &Type, unsafe_ok: bool) -> Option<Conversion> {
    conversion_for(in_ty, out, unsafe_ok).map(ret_conversion)
}

// ---------------------------------------------------------------------------------------------
// conversion.go
// ---------------------------------------------------------------------------------------------

/// cty's `getConversion`: the conversion for known, non-null values wrapped with the standard
/// handling of dynamic targets, unknowns and nulls.
fn conversion_for(in_ty: &Type, out: &Type, unsafe_ok: bool) -> Option<Conv> {
    let known = get_conversion_known(in_ty, out, unsafe_ok)?;
    let out = out.clone();
    Some(conv(move |val, path| {
        if out == Type::Dynamic {
            // Conversion to the dynamic pseudo-type always passes through verbatim.
            return Ok(val.clone());
        }
        match val {
            Value::Unknown(ty, _) => Ok(prepare_unknown_result(val, dynamic_replace(ty, &out))),
            // Nulls pass through, albeit type converted.
            Value::Null(ty) => Ok(Value::Null(dynamic_replace(ty, &out))),
            _ => known(val, path),
        }
    }))
}

fn get_conversion_known(in_ty: &Type, out: &Type, unsafe_ok: bool) -> Option<Conv> {
    match (in_ty, out) {
        (_, Type::Dynamic) => Some(conv(|v, _| Ok(v.clone()))),
        (Type::Dynamic, _) if unsafe_ok => Some(dynamic_fixup(out.clone())),
        (a, b) if a.is_primitive() && b.is_primitive() => primitive_conversion(a, b, unsafe_ok),
        (Type::Object(in_atys), Type::Object(out_atys)) => {
            conversion_object_to_object(in_atys, out_atys, unsafe_ok)
        }
        (Type::Tuple(in_etys), Type::Tuple(out_etys)) => {
            conversion_tuple_to_tuple(in_etys, out_etys, unsafe_ok)
        }
        (Type::List(in_ety) | Type::Set(in_ety), Type::List(out_ety)) => {
            if in_ety == out_ety {
                // Set to list of the same element type: no element conversion.
                return Some(conversion_collection_to_list(out_ety, None));
            }
            let elem = conversion_for(in_ety, out_ety, unsafe_ok)?;
            Some(conversion_collection_to_list(out_ety, Some(elem)))
        }
        (Type::List(in_ety) | Type::Set(in_ety), Type::Set(out_ety)) => {
            if matches!(in_ty, Type::List(_)) && !unsafe_ok {
                // List to set loses ordering and conflates duplicates: unsafe.
                return None;
            }
            if in_ety == out_ety {
                return Some(conversion_collection_to_set(out_ety, None));
            }
            let elem = conversion_for(in_ety, out_ety, unsafe_ok)?;
            Some(conversion_collection_to_set(out_ety, Some(elem)))
        }
        (Type::Map(in_ety), Type::Map(out_ety)) => {
            // No equality shortcut here in cty: map(T) to map(T) has no conversion when T has
            // none to itself; callers compare types before asking.
            let elem = conversion_for(in_ety, out_ety, unsafe_ok)?;
            Some(conversion_collection_to_map(out_ety, Some(elem)))
        }
        (Type::Tuple(etys), Type::List(out_ety)) => {
            conversion_tuple_to_list(etys, out_ety, unsafe_ok)
        }
        (Type::Tuple(etys), Type::Set(out_ety)) => {
            conversion_tuple_to_set(etys, out_ety, unsafe_ok)
        }
        (Type::Object(atys), Type::Map(out_ety)) => {
            conversion_object_to_map(atys, out_ety, unsafe_ok)
        }
        (Type::Map(in_ety), Type::Object(out_atys)) => {
            if !unsafe_ok {
                // The map's keys may not match the attributes: unsafe.
                return None;
            }
            conversion_map_to_object(in_ety, out_atys, unsafe_ok)
        }
        _ => None,
    }
}

/// cty's `prepareUnknownResult`: an unknown of the target type, not null if the source
/// certainly is not. cty also refines collection lengths where the source type fixes them; we
/// cannot hold those refinements, but reproduce the cases where they make the value known.
fn prepare_unknown_result(source: &Value, target: Type) -> Value {
    let not_null = source.definitely_not_null();
    if not_null {
        match (&source.ty(), &target) {
            // A map built from an object has one element per attribute.
            (Type::Object(atys), Type::Map(ety)) if atys.is_empty() => {
                return Value::Map {
                    elem: (**ety).clone(),
                    items: BTreeMap::new(),
                };
            }
            // A list built from a tuple has one element per tuple element; a known length
            // makes a known list of unknown elements.
            (Type::Tuple(etys), Type::List(ety)) => {
                let items = vec![Value::unknown((**ety).clone()); etys.len()];
                return Value::List {
                    elem: (**ety).clone(),
                    items,
                };
            }
            // A set from a tuple of at most one element has exactly that many.
            (Type::Tuple(etys), Type::Set(ety)) if etys.len() <= 1 => {
                let items = vec![Value::unknown((**ety).clone()); etys.len()];
                return set_from((**ety).clone(), items);
            }
            _ => {}
        }
    }
    Value::Unknown(
        target,
        Refinement {
            not_null,
            string_prefix: None,
        },
    )
}

// ---------------------------------------------------------------------------------------------
// conversion_primitive.go
// ---------------------------------------------------------------------------------------------

fn primitive_conversion(in_ty: &Type, out: &Type, unsafe_ok: bool) -> Option<Conv> {
    match (in_ty, out) {
        (Type::Number, Type::String) => Some(conv(|v, path| match v {
            Value::Number(n) => Ok(Value::String(n.to_string())),
            other => Err(unexpected(other, &Type::Number, path)),
        })),
        (Type::Bool, Type::String) => Some(conv(|v, path| match v {
            Value::Bool(b) => Ok(Value::String(if *b { "true" } else { "false" }.into())),
            other => Err(unexpected(other, &Type::Bool, path)),
        })),
        (Type::String, Type::Number) if unsafe_ok => Some(conv(|v, path| match v {
            Value::String(s) => match Num::parse(s) {
                Some(n) => Ok(Value::Number(n)),
                None => Err(ConvertError::new(path, "a number is required")),
            },
            other => Err(unexpected(other, &Type::String, path)),
        })),
        (Type::String, Type::Bool) if unsafe_ok => Some(conv(|v, path| match v {
            Value::String(s) => match s.as_str() {
                "true" | "1" => Ok(Value::Bool(true)),
                "false" | "0" => Ok(Value::Bool(false)),
                _ => Err(ConvertError::new(
                    path,
                    match s.to_lowercase().as_str() {
                        "true" => {
                            "a bool is required; to convert from string, use lowercase \"true\""
                        }
                        "false" => {
                            "a bool is required; to convert from string, use lowercase \"false\""
                        }
                        _ => "a bool is required",
                    },
                )),
            },
            other => Err(unexpected(other, &Type::String, path)),
        })),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// conversion_collection.go
// ---------------------------------------------------------------------------------------------

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
fn inferred_elem<'a>(elems: impl IntoIterator<Item = &'a Value>) -> Type {
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
        items,
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
        items,
    }
}

fn apply(c: &Option<Conv>, v: &Value, path: &[PathStep]) -> Result<Value, ConvertError> {
    match c {
        Some(c) => c(v, path),
        None => Ok(v.clone()),
    }
}

/// cty's `conversionCollectionToList`: converts each element of a list or set.
fn conversion_collection_to_list(ety: &Type, elem_conv: Option<Conv>) -> Conv {
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
            elems.push(apply(&elem_conv, item, &child(path, index_step(i)))?);
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
                items: Vec::new(),
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
fn conversion_collection_to_set(ety: &Type, elem_conv: Option<Conv>) -> Conv {
    let ety = ety.clone();
    conv(move |val, path| {
        let Some(items) = seq_items(val) else {
            return Err(unexpected(val, &Type::set(ety.clone()), path));
        };
        let mut elems = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            elems.push(apply(&elem_conv, item, &child(path, index_step(i)))?);
        }
        if elems.is_empty() {
            let elem = if ety == Type::Dynamic {
                value_elem(val)
            } else {
                ety.clone()
            };
            return Ok(Value::Set {
                elem,
                items: Vec::new(),
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
fn conversion_collection_to_map(ety: &Type, elem_conv: Option<Conv>) -> Conv {
    let ety = ety.clone();
    conv(move |val, path| {
        let Some(items) = keyed_items(val) else {
            return Err(unexpected(val, &Type::map(ety.clone()), path));
        };
        let mut elems = BTreeMap::new();
        for (key, item) in items {
            let v = apply(&elem_conv, item, &child(path, key_step(key)))?;
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
                items: BTreeMap::new(),
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
fn conversion_tuple_to_set(tuple_etys: &[Type], set_ety: &Type, unsafe_ok: bool) -> Option<Conv> {
    if tuple_etys.is_empty() {
        let elem = set_ety.clone();
        return Some(conv(move |_, _| {
            Ok(Value::Set {
                elem: elem.clone(),
                items: Vec::new(),
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
            elems.push(apply(&c, item, &child(path, index_step(i)))?);
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
fn conversion_tuple_to_list(tuple_etys: &[Type], list_ety: &Type, unsafe_ok: bool) -> Option<Conv> {
    if tuple_etys.is_empty() {
        let elem = list_ety.clone();
        return Some(conv(move |_, _| {
            Ok(Value::List {
                elem: elem.clone(),
                items: Vec::new(),
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
            elems.push(apply(&c, item, &child(path, index_step(i)))?);
        }
        // cty passes the last element's path here, so unification errors carry it too.
        let elem_path = match elems.len() {
            0 => path.to_vec(),
            n => child(path, index_step(n - 1)),
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
fn conversion_object_to_map(
    object_atys: &BTreeMap<String, Type>,
    map_ety: &Type,
    unsafe_ok: bool,
) -> Option<Conv> {
    if object_atys.is_empty() {
        let elem = map_ety.clone();
        return Some(conv(move |_, _| {
            Ok(Value::Map {
                elem: elem.clone(),
                items: BTreeMap::new(),
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
                &child(path, key_step(name)),
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
fn conversion_map_to_object(
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
            return Err(unexpected(val, &Type::Object(object_atys.clone()), path));
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
                &child(path, key_step(name)),
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
        Ok(Value::Object(elems))
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
        let v = c(&elem, &child(path, key_step(&name)))?;
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
        out.push(c(&elem, &child(path, index_step(i)))?);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// conversion_object.go, conversion_tuple.go
// ---------------------------------------------------------------------------------------------

/// cty's `conversionObjectToObject`: the target's attributes must be a subset of the source's
/// (no optional attributes here), each converting.
fn conversion_object_to_object(
    in_atys: &BTreeMap<String, Type>,
    out_atys: &BTreeMap<String, Type>,
    unsafe_ok: bool,
) -> Option<Conv> {
    let mut attr_convs: BTreeMap<String, Option<Conv>> = BTreeMap::new();
    for (name, out_aty) in out_atys {
        let in_aty = in_atys.get(name)?;
        if in_aty == out_aty {
            attr_convs.insert(name.clone(), None);
            continue;
        }
        attr_convs.insert(
            name.clone(),
            Some(conversion_for(in_aty, out_aty, unsafe_ok)?),
        );
    }
    let out_ty = Type::Object(out_atys.clone());
    Some(conv(move |val, path| {
        let Value::Object(attrs) = val else {
            return Err(unexpected(val, &out_ty, path));
        };
        let mut out = BTreeMap::new();
        for (name, attr) in attrs {
            let Some(c) = attr_convs.get(name) else {
                continue;
            };
            let v = apply(c, attr, &child(path, PathStep::GetAttr(name.clone())))?;
            out.insert(name.clone(), v);
        }
        Ok(Value::Object(out))
    }))
}

/// cty's `conversionTupleToTuple`: same length, each element converting.
fn conversion_tuple_to_tuple(in_etys: &[Type], out_etys: &[Type], unsafe_ok: bool) -> Option<Conv> {
    if in_etys.len() != out_etys.len() {
        return None;
    }
    let mut elem_convs = Vec::with_capacity(in_etys.len());
    for (in_ety, out_ety) in in_etys.iter().zip(out_etys) {
        if in_ety == out_ety {
            elem_convs.push(None);
        } else {
            elem_convs.push(Some(conversion_for(in_ety, out_ety, unsafe_ok)?));
        }
    }
    let out_ty = Type::Tuple(out_etys.to_vec());
    Some(conv(move |val, path| {
        let Value::Tuple(items) = val else {
            return Err(unexpected(val, &out_ty, path));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let c = elem_convs.get(i).cloned().flatten();
            out.push(apply(&c, item, &child(path, index_step(i)))?);
        }
        Ok(Value::Tuple(out))
    }))
}

// ---------------------------------------------------------------------------------------------
// conversion_dynamic.go
// ---------------------------------------------------------------------------------------------

/// cty's `dynamicFixup`: a value typed dynamic during analysis is converted once known, with
/// the error's path made relative to the caller's value.
fn dynamic_fixup(want: Type) -> Conv {
    conv(move |val, path| convert(val, &want).map_err(|e| e.under(path)))
}

/// cty's `dynamicReplace`: `out`, with any dynamic part replaced by the corresponding part of
/// `in_ty`.
fn dynamic_replace(in_ty: &Type, out: &Type) -> Type {
    if *in_ty == Type::Dynamic {
        return out.clone();
    }
    match out {
        Type::Dynamic => in_ty.clone(),
        Type::Bool | Type::Number | Type::String => out.clone(),
        Type::Map(out_ety) => match in_ty {
            Type::Map(in_ety) => Type::map(dynamic_replace(in_ety, out_ety)),
            Type::Object(atys) => {
                let types: Vec<Type> = atys.values().cloned().collect();
                Type::map(replace_unified(&types, out_ety))
            }
            _ => out.clone(),
        },
        Type::Object(out_atys) => {
            let mut types = BTreeMap::new();
            match in_ty {
                Type::Map(in_ety) => {
                    for (name, aty) in out_atys {
                        types.insert(name.clone(), dynamic_replace(in_ety, aty));
                    }
                }
                Type::Object(in_atys) => {
                    for (name, aty) in out_atys {
                        let t = match in_atys.get(name) {
                            Some(in_aty) => dynamic_replace(in_aty, aty),
                            None => aty.clone(),
                        };
                        types.insert(name.clone(), t);
                    }
                }
                _ => {}
            }
            Type::Object(types)
        }
        Type::Set(out_ety) => match in_ty {
            Type::Set(in_ety) | Type::List(in_ety) => Type::set(dynamic_replace(in_ety, out_ety)),
            Type::Tuple(etys) => Type::set(replace_unified(etys, out_ety)),
            _ => out.clone(),
        },
        Type::List(out_ety) => match in_ty {
            Type::Set(in_ety) | Type::List(in_ety) => Type::list(dynamic_replace(in_ety, out_ety)),
            Type::Tuple(etys) => Type::list(replace_unified(etys, out_ety)),
            _ => out.clone(),
        },
        Type::Tuple(out_etys) => {
            let in_etys: &[Type] = match in_ty {
                Type::Tuple(etys) => etys,
                _ => &[],
            };
            Type::Tuple(
                out_etys
                    .iter()
                    .enumerate()
                    .map(|(i, o)| match in_etys.get(i) {
                        Some(t) => dynamic_replace(t, o),
                        None => o.clone(),
                    })
                    .collect(),
            )
        }
    }
}

/// `dynamicReplace(unify(types, true), out)`, where a failed unification (cty's `NilType`)
/// leaves `out` as it is.
fn replace_unified(types: &[Type], out: &Type) -> Type {
    match unify_inner(types, true) {
        Some((t, _)) => dynamic_replace(&t, out),
        None => out.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// unify.go
// ---------------------------------------------------------------------------------------------

static NO_ATTRS: BTreeMap<String, Type> = BTreeMap::new();

fn attr_types(t: &Type) -> &BTreeMap<String, Type> {
    match t {
        Type::Object(atys) => atys,
        _ => &NO_ATTRS,
    }
}

fn tuple_types(t: &Type) -> &[Type] {
    match t {
        Type::Tuple(etys) => etys,
        _ => &[],
    }
}

fn unify_inner(types: &[Type], unsafe_ok: bool) -> Option<Unified> {
    if types.is_empty() {
        return None;
    }
    // If all the types are of one structural kind we may be able to build a new type they all
    // unify to; this comes first because unsafe mode could otherwise convert an object to a
    // less useful subset of itself.
    let (mut maps, mut lists, mut sets, mut objects, mut tuples, mut dynamics) = (0, 0, 0, 0, 0, 0);
    for ty in types {
        match ty {
            Type::Map(_) => maps += 1,
            Type::List(_) => lists += 1,
            Type::Set(_) => sets += 1,
            Type::Object(_) => objects += 1,
            Type::Tuple(_) => tuples += 1,
            Type::Dynamic => dynamics += 1,
            _ => {}
        }
    }
    let n = types.len();
    let has_dynamic = dynamics > 0;
    if maps > 0 && maps + dynamics == n {
        return unify_collection_types(Type::map, types, unsafe_ok, has_dynamic);
    } else if maps > 0 && maps + objects + dynamics == n {
        // Objects often hold map data: try unifying them as maps first.
        if let Some(found) = unify_objects_as_maps(types, unsafe_ok) {
            return Some(found);
        }
    } else if lists > 0 && lists + dynamics == n {
        return unify_collection_types(Type::list, types, unsafe_ok, has_dynamic);
    } else if lists > 0 && lists + tuples + dynamics == n {
        // Tuples are often lists in disguise.
        if let Some(found) = unify_tuples_as_list(types, unsafe_ok) {
            return Some(found);
        }
    } else if sets > 0 && sets + dynamics == n {
        return unify_collection_types(Type::set, types, unsafe_ok, has_dynamic);
    } else if objects > 0 && objects + dynamics == n {
        return unify_object_types(types, unsafe_ok, has_dynamic);
    } else if tuples > 0 && tuples + dynamics == n {
        return unify_tuple_types(types, unsafe_ok, has_dynamic);
    } else if objects > 0 && tuples > 0 {
        // Objects and tuples never unify.
        return None;
    }

    // Take the first type, in order of preference, that every type converts to.
    'preferences: for want_idx in sort_types(types) {
        let want = &types[want_idx];
        let mut convs = Vec::with_capacity(n);
        for (i, try_ty) in types.iter().enumerate() {
            if i == want_idx || try_ty == want {
                convs.push(None);
                continue;
            }
            match get_public(try_ty, want, unsafe_ok) {
                Some(c) => convs.push(Some(c)),
                None => continue 'preferences,
            }
        }
        return Some((want.clone(), convs));
    }
    None
}

/// cty chains a structural conversion with the collection conversion after it — but passes
/// the *original* value to the second one, which we reproduce.
fn chain(first: Option<Conversion>, second: Option<Conversion>) -> Option<Conversion> {
    match (first, second) {
        (first, None) => first,
        (None, second) => second,
        (Some(first), Some(second)) => Some(Arc::new(move |v| {
            first(v)?;
            second(v)
        })),
    }
}

/// cty's `unifyTuplesAsList`: unify the tuples as a list, then everything with that list.
fn unify_tuples_as_list(types: &[Type], unsafe_ok: bool) -> Option<Unified> {
    let idxs: Vec<usize> = (0..types.len())
        .filter(|&i| matches!(types[i], Type::Tuple(_)))
        .collect();
    let tuples: Vec<Type> = idxs.iter().map(|&i| types[i].clone()).collect();
    let (ty, tuple_convs) = unify_tuple_types_to_list(&tuples, unsafe_ok)?;
    if !matches!(ty, Type::List(_)) {
        return None;
    }
    let mut listed = types.to_vec();
    for &i in &idxs {
        listed[i] = ty.clone();
    }
    let (new_ty, mut convs) = unify_inner(&listed, unsafe_ok)?;
    if !matches!(new_ty, Type::List(_)) {
        return None;
    }
    for (k, &i) in idxs.iter().enumerate() {
        convs[i] = chain(tuple_convs[k].clone(), convs[i].take());
    }
    Some((new_ty, convs))
}

/// cty's `unifyObjectsAsMaps`: unify the objects as a map, then everything with that map.
fn unify_objects_as_maps(types: &[Type], unsafe_ok: bool) -> Option<Unified> {
    let idxs: Vec<usize> = (0..types.len())
        .filter(|&i| matches!(types[i], Type::Object(_)))
        .collect();
    let objects: Vec<Type> = idxs.iter().map(|&i| types[i].clone()).collect();
    let (ty, object_convs) = unify_object_types_to_map(&objects, unsafe_ok)?;
    if !matches!(ty, Type::Map(_)) {
        return None;
    }
    let mut mapped = types.to_vec();
    for &i in &idxs {
        mapped[i] = ty.clone();
    }
    let (new_ty, mut convs) = unify_inner(&mapped, unsafe_ok)?;
    if !matches!(new_ty, Type::Map(_)) {
        return None;
    }
    for (k, &i) in idxs.iter().enumerate() {
        convs[i] = chain(object_convs[k].clone(), convs[i].take());
    }
    Some((new_ty, convs))
}

/// The conversions from each type to `ret`, or `None` if one is missing.
fn conversions_to(types: &[Type], ret: &Type, unsafe_ok: bool) -> Option<Vec<Option<Conversion>>> {
    let mut convs = Vec::with_capacity(types.len());
    for ty in types {
        if ty == ret {
            convs.push(None);
        } else {
            convs.push(Some(get_public(ty, ret, unsafe_ok)?));
        }
    }
    Some(convs)
}

fn unify_collection_types(
    kind: fn(Type) -> Type,
    types: &[Type],
    unsafe_ok: bool,
    has_dynamic: bool,
) -> Option<Unified> {
    // With dynamic types involved we cannot predict the path taken once they are known.
    if has_dynamic {
        return Some(unify_all_as_dynamic(types.len()));
    }
    let etys: Vec<Type> = types
        .iter()
        .map(|t| t.element().cloned().unwrap_or(Type::Dynamic))
        .collect();
    let (ety, _) = unify_inner(&etys, unsafe_ok)?;
    let ret = kind(ety);
    let convs = conversions_to(types, &ret, unsafe_ok)?;
    Some((ret, convs))
}

fn unify_object_types(types: &[Type], unsafe_ok: bool, has_dynamic: bool) -> Option<Unified> {
    if has_dynamic {
        return Some(unify_all_as_dynamic(types.len()));
    }
    // The same attribute names everywhere make an object of unified attribute types;
    // otherwise try a map of all the attribute types.
    let first = attr_types(&types[0]);
    for ty in &types[1..] {
        let these = attr_types(ty);
        if these.len() != first.len() || these.keys().any(|k| !first.contains_key(k)) {
            return unify_object_types_to_map(types, unsafe_ok);
        }
    }
    let mut ret_atys = BTreeMap::new();
    for name in first.keys() {
        let across: Vec<Type> = types
            .iter()
            .map(|t| attr_types(t).get(name).cloned().unwrap_or(Type::Dynamic))
            .collect();
        // An attribute that cannot unify alone cannot unify into a map either.
        let (aty, _) = unify_inner(&across, unsafe_ok)?;
        ret_atys.insert(name.clone(), aty);
    }
    let ret = Type::Object(ret_atys);
    match conversions_to(types, &ret, unsafe_ok) {
        Some(convs) => Some((ret, convs)),
        None => unify_object_types_to_map(types, unsafe_ok),
    }
}

fn unify_object_types_to_map(types: &[Type], unsafe_ok: bool) -> Option<Unified> {
    // cty gathers each object's attribute types in Go map order; sorted order here.
    let atys: Vec<Type> = types
        .iter()
        .flat_map(|t| attr_types(t).values().cloned())
        .collect();
    let (ety, _) = unify_inner(&atys, unsafe_ok)?;
    let ret = Type::map(ety);
    let convs = conversions_to(types, &ret, unsafe_ok)?;
    Some((ret, convs))
}

fn unify_tuple_types(types: &[Type], unsafe_ok: bool, has_dynamic: bool) -> Option<Unified> {
    if has_dynamic {
        return Some(unify_all_as_dynamic(types.len()));
    }
    // Tuples of one length make a tuple of unified element types; otherwise try a list.
    let first = tuple_types(&types[0]);
    if types[1..]
        .iter()
        .any(|t| tuple_types(t).len() != first.len())
    {
        return unify_tuple_types_to_list(types, unsafe_ok);
    }
    let mut ret_etys = Vec::with_capacity(first.len());
    for idx in 0..first.len() {
        let across: Vec<Type> = types.iter().map(|t| tuple_types(t)[idx].clone()).collect();
        let (ety, _) = unify_inner(&across, unsafe_ok)?;
        ret_etys.push(ety);
    }
    let ret = Type::Tuple(ret_etys);
    match conversions_to(types, &ret, unsafe_ok) {
        Some(convs) => Some((ret, convs)),
        None => unify_tuple_types_to_list(types, unsafe_ok),
    }
}

fn unify_tuple_types_to_list(types: &[Type], unsafe_ok: bool) -> Option<Unified> {
    let etys: Vec<Type> = types
        .iter()
        .flat_map(|t| tuple_types(t).iter().cloned())
        .collect();
    let (ety, _) = unify_inner(&etys, unsafe_ok)?;
    let ret = Type::list(ety);
    let convs = conversions_to(types, &ret, unsafe_ok)?;
    Some((ret, convs))
}

/// cty's `unifyAllAsDynamic`: every conversion yields `cty.DynamicVal`.
fn unify_all_as_dynamic(n: usize) -> Unified {
    let to_dynamic: Conversion = Arc::new(|_| Ok(Value::dynamic()));
    (Type::Dynamic, vec![Some(to_dynamic); n])
}

// ---------------------------------------------------------------------------------------------
// compare_types.go, sort_types.go
// ---------------------------------------------------------------------------------------------

/// cty's `compareTypes`: a preference order for unification (negative: `a` is preferred as
/// the more general type).
fn compare_types(a: &Type, b: &Type) -> i32 {
    // Dynamic is least preferred: anything converts to it.
    if *a == Type::Dynamic || *b == Type::Dynamic {
        if *a != Type::Dynamic {
            return -1;
        }
        if *b != Type::Dynamic {
            return 1;
        }
        return 0;
    }
    // String is a supertype of all primitive types.
    if a.is_primitive() && b.is_primitive() && (*a == Type::String || *b == Type::String) {
        if *a != Type::String {
            return 1;
        }
        if *b != Type::String {
            return -1;
        }
        return 0;
    }
    match (a, b) {
        (Type::List(x), Type::List(y))
        | (Type::Set(x), Type::Set(y))
        | (Type::Map(x), Type::Map(y)) => return compare_types(x, y),
        _ => {}
    }
    // From here the operands may be swapped to simplify the cases.
    let (a, b, swap) = match (a, b) {
        (Type::Tuple(_), Type::List(_))
        | (Type::Object(_), Type::Map(_))
        | (Type::Set(_), Type::Tuple(_))
        | (Type::Set(_), Type::List(_)) => (b, a, -1),
        _ => (a, b, 1),
    };
    if matches!(b, Type::Set(_)) && matches!(a, Type::Tuple(_) | Type::List(_)) {
        return -swap;
    }
    if matches!(a, Type::List(_)) && matches!(b, Type::Tuple(_)) {
        return -swap;
    }
    if matches!(a, Type::Map(_)) && matches!(b, Type::Object(_)) {
        return -swap;
    }
    let verdict = |has_a_super: bool, has_b_super: bool| match (has_a_super, has_b_super) {
        (true, false) => -swap,
        (false, true) => swap,
        _ => 0,
    };
    match (a, b) {
        (Type::Object(atys_a), Type::Object(atys_b)) => {
            if atys_a.len() != atys_b.len() {
                return 0;
            }
            let (mut has_a_super, mut has_b_super) = (false, false);
            for (k, ta) in atys_a {
                let Some(tb) = atys_b.get(k) else {
                    return 0;
                };
                match compare_types(ta, tb) {
                    c if c < 0 => has_a_super = true,
                    c if c > 0 => has_b_super = true,
                    _ => {}
                }
            }
            verdict(has_a_super, has_b_super)
        }
        (Type::Tuple(etys_a), Type::Tuple(etys_b)) => {
            if etys_a.len() != etys_b.len() {
                return 0;
            }
            let (mut has_a_super, mut has_b_super) = (false, false);
            for (ta, tb) in etys_a.iter().zip(etys_b) {
                match compare_types(ta, tb) {
                    c if c < 0 => has_a_super = true,
                    c if c > 0 => has_b_super = true,
                    _ => {}
                }
            }
            verdict(has_a_super, has_b_super)
        }
        _ => 0,
    }
}

/// cty's `sortTypes`: indices of `tys`, most general first (a topological sort of the "more
/// general than" graph, keeping input order among unrelated types).
fn sort_types(tys: &[Type]) -> Vec<usize> {
    let l = tys.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); l];
    for i in 0..l.saturating_sub(1) {
        for j in i + 1..l {
            let cmp = compare_types(&tys[i], &tys[j]);
            if cmp < 0 {
                edges[i].push(j);
            } else if cmp > 0 {
                edges[j].push(i);
            }
        }
    }
    let mut in_degree = vec![0usize; l];
    for outs in &edges {
        for &j in outs {
            in_degree[j] += 1;
        }
    }
    let mut result: Vec<usize> = (0..l).filter(|&i| in_degree[i] == 0).collect();
    let mut head = 0;
    while head < result.len() {
        let i = result[head];
        head += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                result.push(j);
            }
        }
    }
    // cty's result slice is preallocated: nodes on a cycle (none arise in practice) stay as
    // zero indices.
    result.resize(l, 0);
    result
}

// ---------------------------------------------------------------------------------------------
// mismatch_msg.go
// ---------------------------------------------------------------------------------------------

/// cty's `FriendlyNameForConstraint` (`any type`, and `list of any single type` for a
/// collection of dynamic).
fn constraint_name(t: &Type) -> String {
    let elem = |e: &Type| {
        if *e == Type::Dynamic {
            "any single type".to_string()
        } else {
            constraint_name(e)
        }
    };
    match t {
        Type::Dynamic => "any type".into(),
        Type::List(e) => format!("list of {}", elem(e)),
        Type::Set(e) => format!("set of {}", elem(e)),
        Type::Map(e) => format!("map of {}", elem(e)),
        other => other.friendly_name(),
    }
}

fn required(want: &Type) -> String {
    format!("{} required", constraint_name(want))
}

/// cty's `convert.MismatchMessage`: why `got` does not conform to `want`, in English, phrased
/// for a conversion that has already failed (`string required`, `attribute "x" is required`,
/// `incorrect list element type: number required, but have bool`, …).
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    let want_elem_dynamic = want.element() == Some(&Type::Dynamic);
    match (got, want) {
        (Type::Object(_), Type::Object(_)) => mismatch_message_objects(got, want),
        // Conversions from structural types to collections of dynamic fail only for want of a
        // common element type.
        (Type::Tuple(_), Type::List(_)) if want_elem_dynamic => {
            "all list elements must have the same type".into()
        }
        (Type::Tuple(_), Type::Set(_)) if want_elem_dynamic => {
            "all set elements must have the same type".into()
        }
        (Type::Object(_), Type::Map(_)) if want_elem_dynamic => {
            "all map elements must have the same type".into()
        }
        (Type::Tuple(_) | Type::Object(_), _) if want.is_collection() => {
            mismatch_message_collections_from_structural(got, want)
        }
        _ if got.is_collection() && want.is_collection() => {
            mismatch_message_collections_from_collections(got, want)
        }
        _ if !types_are_likely_to_cause_confusion(got, want) => format!(
            "{} required, but have {}",
            want.friendly_name(),
            got.friendly_name()
        ),
        _ => required(want),
    }
}

fn mismatch_message_objects(got: &Type, want: &Type) -> String {
    let got_atys = attr_types(got);
    let want_atys = attr_types(want);
    // Missing attributes are reported in preference; otherwise one non-conforming attribute,
    // preferring one that cannot convert even unsafely. cty visits the attributes in Go map
    // order (so picks an arbitrary one among several); we visit them by name.
    let mut missing: Vec<&str> = Vec::new();
    let mut unsafe_mismatch: Option<String> = None;
    let mut safe_mismatch: Option<String> = None;
    for (name, want_aty) in want_atys {
        let Some(got_aty) = got_atys.get(name) else {
            missing.push(name);
            continue;
        };
        if got_aty == want_aty || unsafe_mismatch.is_some() {
            continue;
        }
        let describe = || {
            format!(
                "attribute {}: {}",
                go_quote(name),
                mismatch_message(got_aty, want_aty)
            )
        };
        if conversion_for(got_aty, want_aty, true).is_none() {
            unsafe_mismatch = Some(describe());
        }
        if safe_mismatch.is_some() {
            continue;
        }
        if conversion_for(got_aty, want_aty, false).is_none() {
            safe_mismatch = Some(describe());
        }
    }
    match missing.len() {
        0 => {}
        1 => return format!("attribute {} is required", go_quote(missing[0])),
        2 => {
            return format!(
                "attributes {} and {} are required",
                go_quote(missing[0]),
                go_quote(missing[1])
            );
        }
        n => {
            let mut list = String::new();
            for name in &missing[..n - 1] {
                list.push_str(&go_quote(name));
                list.push_str(", ");
            }
            list.push_str("and ");
            list.push_str(&go_quote(missing[n - 1]));
            return format!("attributes {list} are required");
        }
    }
    unsafe_mismatch
        .or(safe_mismatch)
        .unwrap_or_else(|| "incorrect object attributes".into())
}

fn mismatch_message_collections_from_structural(got: &Type, want: &Type) -> String {
    match want {
        Type::List(_) | Type::Set(_) if !matches!(got, Type::Tuple(_)) => return required(want),
        Type::Map(_) if !matches!(got, Type::Object(_)) => return required(want),
        _ => {}
    }
    let Some(want_ety) = want.element() else {
        return required(want);
    };
    let fits = |t: &Type| t == want_ety || conversion_for(t, want_ety, true).is_some();
    match got {
        Type::Tuple(etys) => {
            for (i, ety) in etys.iter().enumerate() {
                if !fits(ety) {
                    return format!("element {i}: {}", mismatch_message(ety, want_ety));
                }
            }
        }
        Type::Object(atys) => {
            // cty: Go map order; here by name.
            for (name, aty) in atys {
                if !fits(aty) {
                    return format!(
                        "element {}: {}",
                        go_quote(name),
                        mismatch_message(aty, want_ety)
                    );
                }
            }
        }
        _ => return required(want),
    }
    format!("all elements must be {}", constraint_name(want_ety))
}

fn mismatch_message_collections_from_collections(got: &Type, want: &Type) -> String {
    let noun = match (want, got) {
        (Type::List(_), Type::List(_) | Type::Set(_)) => "list element type",
        (Type::Set(_), Type::List(_) | Type::Set(_)) => "set element type",
        (Type::Map(_), Type::Map(_)) => "map element type",
        _ => return required(want),
    };
    let (Some(got_ety), Some(want_ety)) = (got.element(), want.element()) else {
        return required(want);
    };
    format!("incorrect {noun}: {}", mismatch_message(got_ety, want_ety))
}

/// cty's `typesAreLikelyToCauseConfusion`: whether "X required, but have Y" would mislead.
fn types_are_likely_to_cause_confusion(got: &Type, want: &Type) -> bool {
    // A primitive never converts to a non-primitive or back.
    if got.is_primitive() != want.is_primitive() {
        return false;
    }
    // Every primitive converts to string.
    if *want == Type::String {
        return false;
    }
    // No automatic conversions between bool and number.
    if matches!(
        (got, want),
        (Type::Number, Type::Bool) | (Type::Bool, Type::Number)
    ) {
        return false;
    }
    if let (Some(got_ety), Some(want_ety)) = (got.element(), want.element()) {
        if got_ety.is_concrete() && !want_ety.is_concrete() {
            return false;
        }
    }
    // Tuple against object. (cty's test for the reverse, `got.IsObjectType() &&
    // got.IsTupleType()`, can never hold, so it is left out.)
    if matches!(got, Type::Tuple(_)) && matches!(want, Type::Object(_)) {
        return false;
    }
    true
}

// ---------------------------------------------------------------------------------------------
// Sets: cty's set_internals.go
// ---------------------------------------------------------------------------------------------

/// A set value of `elem` holding `items` as `cty.SetVal` would: duplicates (by cty equality;
/// unknowns never equal anything) dropped, and elements in cty's iteration order — known values
/// first, then unknowns, then a null; strings by bytes, numbers numerically, `false` before
/// `true`; values of any other type by cty's set-hash text (the same bytes cty compares),
/// ties keeping first-seen order.
pub fn set_from(elem: Type, items: Vec<Value>) -> Value {
    let mut kept: Vec<(String, Value)> = Vec::with_capacity(items.len());
    for item in items {
        let hash = set_hash_text(&item);
        // cty only compares values in the same hash bucket.
        let duplicate = kept
            .iter()
            .any(|(h, k)| *h == hash && matches!(k.equals(&item), Value::Bool(true)));
        if !duplicate {
            kept.push((hash, item));
        }
    }
    let mut keyed: Vec<(SortKey, Value)> = kept
        .into_iter()
        .map(|(hash, v)| (sort_key(&elem, &v, hash), v))
        .collect();
    // Stable: ties (equal hash text, hence one cty bucket) keep insertion order, as in cty.
    keyed.sort_by(|a, b| a.0.compare(&b.0));
    Value::Set {
        elem,
        items: keyed.into_iter().map(|(_, v)| v).collect(),
    }
}

/// Where a set element sorts (cty's `setRules.Less` as a key).
enum SortKey {
    Known(KnownKey),
    Unknown,
    Null,
}

enum KnownKey {
    Str(String),
    Bool(bool),
    Num(Num),
    Hash(String),
    /// A value not of the set's element type (not a valid cty set): after the others.
    Stray(String),
}

fn sort_key(elem: &Type, v: &Value, hash: String) -> SortKey {
    match v {
        Value::Null(_) => SortKey::Null,
        Value::Unknown(..) => SortKey::Unknown,
        _ => SortKey::Known(match (elem, v) {
            (Type::String, Value::String(s)) => KnownKey::Str(s.clone()),
            (Type::Bool, Value::Bool(b)) => KnownKey::Bool(*b),
            (Type::Number, Value::Number(n)) => KnownKey::Num(n.clone()),
            (Type::String | Type::Bool | Type::Number, _) => KnownKey::Stray(hash),
            _ => KnownKey::Hash(hash),
        }),
    }
}

impl SortKey {
    fn rank(&self) -> u8 {
        match self {
            SortKey::Known(_) => 0,
            SortKey::Unknown => 1,
            SortKey::Null => 2,
        }
    }

    fn compare(&self, other: &SortKey) -> Ordering {
        match (self, other) {
            (SortKey::Known(a), SortKey::Known(b)) => a.compare(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl KnownKey {
    fn rank(&self) -> u8 {
        match self {
            KnownKey::Str(_) | KnownKey::Bool(_) | KnownKey::Num(_) | KnownKey::Hash(_) => 0,
            KnownKey::Stray(_) => 1,
        }
    }

    fn compare(&self, other: &KnownKey) -> Ordering {
        match (self, other) {
            (KnownKey::Str(a), KnownKey::Str(b)) => a.cmp(b),
            (KnownKey::Bool(a), KnownKey::Bool(b)) => a.cmp(b),
            (KnownKey::Num(a), KnownKey::Num(b)) => a.compare(b),
            (KnownKey::Hash(a), KnownKey::Hash(b)) | (KnownKey::Stray(a), KnownKey::Stray(b)) => {
                a.cmp(b)
            }
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// cty's `appendSetHashBytes`: the text cty hashes set elements by and orders non-primitive
/// set elements by.
fn set_hash_text(v: &Value) -> String {
    let mut out = String::new();
    append_set_hash(v, &mut out);
    out
}

fn append_set_hash(v: &Value, out: &mut String) {
    match v {
        Value::Unknown(..) => out.push('?'),
        Value::Null(_) => out.push('~'),
        Value::Number(n) => out.push_str(&number_hash_text(n)),
        Value::Bool(b) => out.push(if *b { 'T' } else { 'F' }),
        Value::String(s) => out.push_str(&go_quote(s)),
        Value::Map { items, .. } => {
            out.push('{');
            for (k, item) in items {
                out.push_str(&go_quote(k));
                out.push(':');
                append_set_hash(item, out);
                out.push(';');
            }
            out.push('}');
        }
        Value::List { items, .. } | Value::Set { items, .. } => {
            out.push('[');
            for item in items {
                append_set_hash(item, out);
                out.push(';');
            }
            out.push(']');
        }
        // Object attribute names are not part of the text, only the values in name order.
        Value::Object(attrs) => {
            out.push('<');
            for item in attrs.values() {
                append_set_hash(item, out);
                out.push(';');
            }
            out.push('>');
        }
        Value::Tuple(items) => {
            out.push('<');
            for item in items {
                append_set_hash(item, out);
                out.push(';');
            }
            out.push('>');
        }
    }
}

/// Go's `big.Float.String()` (`Text('g', 10)`) for a number. Go rounds the exact binary value
/// to ten digits; we round its shortest decimal form, which differs only when that form has
/// more than ten digits and ends exactly on a rounding tie.
fn number_hash_text(n: &Num) -> String {
    let mut out = String::new();
    if n.is_neg() {
        out.push('-');
    }
    if n.is_inf() {
        if !n.is_neg() {
            out.push('+');
        }
        out.push_str("Inf");
        return out;
    }
    let text = n.to_string();
    let body = text.strip_prefix('-').unwrap_or(&text);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    // Go's `decimal`: value = 0.mant × 10^exp, mant without leading or trailing zeros.
    let digits: Vec<u8> = int.bytes().chain(frac.bytes()).collect();
    let lead = digits.iter().take_while(|&&d| d == b'0').count();
    let mut mant = digits[lead..].to_vec();
    let mut exp = int.len() as i64 - lead as i64;
    trim_decimal(&mut mant, &mut exp);
    round_decimal(&mut mant, &mut exp, 10);

    let prec = 10usize;
    let len = mant.len();
    let mut eprec = prec as i64;
    if eprec > len as i64 && len as i64 >= exp {
        eprec = len as i64;
    }
    let x = exp - 1;
    if x < -4 || x >= eprec {
        // %e with prec.min(len) - 1 digits after the point.
        let digits_after = prec.min(len).saturating_sub(1);
        out.push(*mant.first().unwrap_or(&b'0') as char);
        if digits_after > 0 {
            out.push('.');
            for i in 1..=digits_after {
                out.push(*mant.get(i).unwrap_or(&b'0') as char);
            }
        }
        out.push('e');
        let e = if len > 0 { exp - 1 } else { 0 };
        out.push(if e < 0 { '-' } else { '+' });
        if e.abs() < 10 {
            out.push('0');
        }
        out.push_str(&e.abs().to_string());
        return out;
    }
    let p = if prec as i64 > exp {
        len as i64
    } else {
        prec as i64
    };
    let frac_digits = (p - exp).max(0);
    // %f
    if exp > 0 {
        let m = (len as i64).min(exp) as usize;
        out.extend(mant[..m].iter().map(|&d| d as char));
        for _ in m as i64..exp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if frac_digits > 0 {
        out.push('.');
        for i in 0..frac_digits {
            let idx = exp + i;
            let d = if idx < 0 {
                b'0'
            } else {
                *mant.get(idx as usize).unwrap_or(&b'0')
            };
            out.push(d as char);
        }
    }
    out
}

fn trim_decimal(mant: &mut Vec<u8>, exp: &mut i64) {
    while mant.last() == Some(&b'0') {
        mant.pop();
    }
    if mant.is_empty() {
        *exp = 0;
    }
}

/// Go's `decimal.round`: to `n` digits, half to even on the digits.
fn round_decimal(mant: &mut Vec<u8>, exp: &mut i64, n: usize) {
    if n >= mant.len() {
        return;
    }
    let up = if mant[n] == b'5' && n + 1 == mant.len() {
        n > 0 && (mant[n - 1] - b'0') % 2 == 1
    } else {
        mant[n] >= b'5'
    };
    if up {
        let mut k = n;
        while k > 0 && mant[k - 1] >= b'9' {
            k -= 1;
        }
        if k == 0 {
            mant.truncate(1);
            mant[0] = b'1';
            *exp += 1;
        } else {
            mant[k - 1] += 1;
            mant.truncate(k);
        }
    } else {
        mant.truncate(n);
        trim_decimal(mant, exp);
    }
}

/// Go's `strconv.Quote` (`%q`). Go's `unicode.IsPrint` is approximated: controls, spaces
/// other than U+0020, common format characters and private-use code points are escaped;
/// unassigned code points are not recognised.
fn go_quote(s: &str) -> String {
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
    use Type::{Bool as TB, Dynamic as TD, Number as TN, String as TS};

    fn s(x: &str) -> Value {
        Value::string(x)
    }
    fn n(i: i64) -> Value {
        Value::Number(Num::from_i64(i))
    }
    fn num(x: &str) -> Value {
        Value::Number(Num::parse(x).unwrap())
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
        Value::List { elem, items }
    }
    fn set(elem: Type, items: Vec<Value>) -> Value {
        set_from(elem, items)
    }
    fn tup(items: Vec<Value>) -> Value {
        Value::Tuple(items)
    }
    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }
    fn map(elem: Type, pairs: &[(&str, Value)]) -> Value {
        Value::Map {
            elem,
            items: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }
    fn tobj(pairs: &[(&str, Type)]) -> Type {
        Type::Object(
            pairs
                .iter()
                .map(|(k, t)| (k.to_string(), t.clone()))
                .collect(),
        )
    }
    fn ttup(items: Vec<Type>) -> Type {
        Type::Tuple(items)
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

    /// The applicable cases of cty's TestConvert (public_test.go), in its order.
    #[test]
    fn convert_follows_cty() {
        let sg_rules = tup(vec![
            obj(&[
                ("type", s("ingress")),
                ("from_port", n(-1)),
                ("to_port", n(-1)),
                ("protocol", s("icmp")),
                ("description", s("ICMP in")),
                ("cidr", tup(vec![s("0.0.0.0/0")])),
            ]),
            obj(&[
                ("type", s("ingress")),
                ("from_port", n(22)),
                ("to_port", n(22)),
                ("protocol", s("tcp")),
                ("description", s("SSH from Bastion")),
                ("source_sg", s("sg-abc123")),
            ]),
        ]);
        check_convert(vec![
            (s("hello"), TS, Ok(s("hello"))),
            (s("1"), TN, Ok(n(1))),
            (s("1.5"), TN, Ok(num("1.5"))),
            (s("hello"), TN, Err("a number is required")),
            (s("true"), TB, Ok(b(true))),
            (s("1"), TB, Ok(b(true))),
            (s("false"), TB, Ok(b(false))),
            (s("0"), TB, Ok(b(false))),
            (s("hello"), TB, Err("a bool is required")),
            (n(4), TS, Ok(s("4"))),
            (
                Value::Number(Num::from_f64("3.14159265359".parse().unwrap()).unwrap()),
                TS,
                Ok(s("3.14159265359")),
            ),
            (b(true), TS, Ok(s("true"))),
            (b(false), TS, Ok(s("false"))),
            (unk(TS), TN, Ok(unk(TN))),
            (unk(TN), TS, Ok(unk(TS))),
            (Value::dynamic(), TS, Ok(unk(TS))),
            (s("hello"), TD, Ok(s("hello"))),
            (
                list(TN, vec![n(5), n(10)]),
                tl(TS),
                Ok(list(TS, vec![s("5"), s("10")])),
            ),
            (
                list(TN, vec![n(5), n(10)]),
                tl(TD),
                Ok(list(TN, vec![n(5), n(10)])),
            ),
            (
                sg_rules,
                tl(TD),
                Err("all list elements must have the same type"),
            ),
            (
                set(TS, vec![s("5"), unk(TS)]),
                tset(TN),
                Ok(set(TN, vec![n(5), unk(TN)])),
            ),
            (
                set(TS, vec![s("5"), s("10")]),
                tl(TS),
                Ok(list(TS, vec![s("10"), s("5")])),
            ),
            (
                set(TS, vec![s("5"), s("10")]),
                tl(TD),
                Ok(list(TS, vec![s("10"), s("5")])),
            ),
            (
                set(TN, vec![n(5), n(10)]),
                tl(TS),
                Ok(list(TS, vec![s("5"), s("10")])),
            ),
            (set(TS, vec![s("5"), unk(TS)]), tl(TS), Ok(unk(tl(TS)))),
            (set(TS, vec![unk(TS)]), tl(TS), Ok(list(TS, vec![unk(TS)]))),
            (
                list(TN, vec![n(5), n(10), n(10)]),
                tset(TS),
                Ok(set(TS, vec![s("5"), s("10")])),
            ),
            (
                tup(vec![n(5), s("hello")]),
                tl(TS),
                Ok(list(TS, vec![s("5"), s("hello")])),
            ),
            (
                tup(vec![n(5), s("12")]),
                tl(TN),
                Ok(list(TN, vec![n(5), n(12)])),
            ),
            (
                tup(vec![n(5), n(10)]),
                tl(TD),
                Ok(list(TN, vec![n(5), n(10)])),
            ),
            (
                tup(vec![n(5), s("hello")]),
                tl(TD),
                Ok(list(TS, vec![s("5"), s("hello")])),
            ),
            (
                tup(vec![n(5), s("hello")]),
                tset(TD),
                Ok(set(TS, vec![s("5"), s("hello")])),
            ),
            (list(TS, vec![]), tset(TD), Ok(set(TS, vec![]))),
            (set(TS, vec![]), tl(TD), Ok(list(TS, vec![]))),
            (
                obj(&[("num", n(5)), ("str", s("hello"))]),
                tm(TS),
                Ok(map(TS, &[("num", s("5")), ("str", s("hello"))])),
            ),
            (
                obj(&[("num", n(5)), ("str", s("12"))]),
                tm(TN),
                Ok(map(TN, &[("num", n(5)), ("str", n(12))])),
            ),
            (
                obj(&[("num1", n(5)), ("num2", n(10))]),
                tm(TD),
                Ok(map(TN, &[("num1", n(5)), ("num2", n(10))])),
            ),
            (
                obj(&[("num", n(5)), ("str", s("hello"))]),
                tm(TD),
                Ok(map(TS, &[("num", s("5")), ("str", s("hello"))])),
            ),
            (
                obj(&[("list", list(TB, vec![])), ("tuple", tup(vec![]))]),
                tm(TD),
                Ok(map(
                    tl(TB),
                    &[("list", list(TB, vec![])), ("tuple", list(TB, vec![]))],
                )),
            ),
            (
                obj(&[("map", map(TS, &[])), ("obj", Value::empty_object())]),
                tm(TD),
                Ok(map(tm(TS), &[("map", map(TS, &[])), ("obj", map(TS, &[]))])),
            ),
            (
                obj(&[("num", n(5)), ("bool", b(true))]),
                tm(TD),
                Err("all map elements must have the same type"),
            ),
            (
                map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
                tm(TD),
                Ok(map(TS, &[("greeting", s("Hello")), ("name", s("John"))])),
            ),
            (
                map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
                tobj(&[("greeting", TS), ("name", TS)]),
                Ok(obj(&[("greeting", s("Hello")), ("name", s("John"))])),
            ),
            (
                map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
                tobj(&[("greeting", tl(TS)), ("name", TS)]),
                Err("object required"),
            ),
            (
                map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
                tobj(&[("name", TS)]),
                Ok(obj(&[("name", s("John"))])),
            ),
            (
                map(TS, &[("name", s("John"))]),
                tobj(&[("name", TS), ("greeting", TS)]),
                Err(r#"map has no element for required attribute "greeting""#),
            ),
            (
                map(TN, &[("a", n(2)), ("b", n(5))]),
                tm(TS),
                Ok(map(TS, &[("a", s("2")), ("b", s("5"))])),
            ),
            (
                obj(&[("foo", s("foo value")), ("bar", s("bar value"))]),
                tobj(&[("foo", TS)]),
                Ok(obj(&[("foo", s("foo value"))])),
            ),
            (
                obj(&[("foo", b(true))]),
                tobj(&[("foo", TS)]),
                Ok(obj(&[("foo", s("true"))])),
            ),
            (
                obj(&[("foo", Value::dynamic())]),
                tobj(&[("foo", TS)]),
                Ok(obj(&[("foo", unk(TS))])),
            ),
            (
                obj(&[("foo", null(TS))]),
                tobj(&[("foo", TS)]),
                Ok(obj(&[("foo", null(TS))])),
            ),
            (
                obj(&[("foo", b(true))]),
                tobj(&[("foo", TD)]),
                Ok(obj(&[("foo", b(true))])),
            ),
            (
                obj(&[("bar", s("bar value"))]),
                tobj(&[("foo", TS)]),
                Err(r#"attribute "foo" is required"#),
            ),
            (
                obj(&[("bar", s("bar value"))]),
                tobj(&[("foo", TS), ("baz", TS)]),
                Err(r#"attributes "baz" and "foo" are required"#),
            ),
            (
                Value::empty_object(),
                tobj(&[("foo", TS), ("bar", TS), ("baz", TS)]),
                Err(r#"attributes "bar", "baz", and "foo" are required"#),
            ),
            (
                obj(&[("foo", b(true))]),
                tobj(&[("foo", TN)]),
                Err(r#"attribute "foo": number required, but have bool"#),
            ),
            (
                obj(&[("foo", unk(TB))]),
                tobj(&[("foo", TN)]),
                Err(r#"attribute "foo": number required, but have bool"#),
            ),
            (null(TS), TD, Ok(null(TS))),
            (unk(TS), TD, Ok(unk(TS))),
            (
                tup(vec![s("hello")]),
                ttup(vec![TS]),
                Ok(tup(vec![s("hello")])),
            ),
            (tup(vec![b(true)]), ttup(vec![TS]), Ok(tup(vec![s("true")]))),
            (tup(vec![b(true)]), ttup(vec![]), Err("tuple required")),
            (tup(vec![]), ttup(vec![TS]), Err("tuple required")),
            (tup(vec![]), tset(TS), Ok(set(TS, vec![]))),
        ]);
    }

    /// cty's regression cases from Terraform issues, and the dynamic-null set/list cases.
    #[test]
    fn convert_follows_cty_regressions() {
        check_convert(vec![
            // hashicorp/terraform#23804
            (
                obj(&[
                    ("a", obj(&[("x", tup(vec![s("foo")]))])),
                    ("b", obj(&[("x", tup(vec![s("bar")]))])),
                    ("c", obj(&[("x", tup(vec![s("foo"), s("bar")]))])),
                ]),
                tm(tm(TD)),
                Ok(map(
                    tm(tl(TS)),
                    &[
                        ("a", map(tl(TS), &[("x", list(TS, vec![s("foo")]))])),
                        ("b", map(tl(TS), &[("x", list(TS, vec![s("bar")]))])),
                        (
                            "c",
                            map(tl(TS), &[("x", list(TS, vec![s("foo"), s("bar")]))]),
                        ),
                    ],
                )),
            ),
            // hashicorp/terraform#24167
            (
                obj(&[
                    ("a", obj(&[("x", null(TD))])),
                    ("b", obj(&[("x", obj(&[("c", n(1)), ("d", n(2))]))])),
                ]),
                tm(tm(tobj(&[("x", tm(TD))]))),
                Err(r#"element "b": element "x": attribute "x" is required"#),
            ),
            // hashicorp/terraform#23431
            (
                obj(&[("a", obj(&[("x", s("foo"))])), ("b", map(TD, &[]))]),
                tm(tm(TD)),
                Ok(map(
                    tm(TS),
                    &[("a", map(TS, &[("x", s("foo"))])), ("b", map(TS, &[]))],
                )),
            ),
            // hashicorp/terraform#21588
            (
                tup(vec![
                    obj(&[("a", Value::empty_object()), ("b", n(2))]),
                    obj(&[("a", obj(&[("var1", s("val1"))])), ("b", s("2"))]),
                ]),
                tl(tobj(&[("a", TD), ("b", TS)])),
                Ok(list(
                    tobj(&[("a", tm(TS)), ("b", TS)]),
                    vec![
                        obj(&[("a", map(TS, &[])), ("b", s("2"))]),
                        obj(&[("a", map(TS, &[("var1", s("val1"))])), ("b", s("2"))]),
                    ],
                )),
            ),
            // hashicorp/terraform#24377
            (
                tup(vec![list(TS, vec![s("a")]), s("b"), null(TD)]),
                tset(TD),
                Err("all set elements must have the same type"),
            ),
            (
                tup(vec![list(TS, vec![s("a")]), s("b"), null(TD)]),
                tl(TD),
                Err("all list elements must have the same type"),
            ),
            (
                tup(vec![list(TS, vec![s("a")]), s("b")]),
                tset(TD),
                Err("all set elements must have the same type"),
            ),
            (
                tup(vec![list(TS, vec![s("a")]), s("b")]),
                tl(TD),
                Err("all list elements must have the same type"),
            ),
            // cty's element is NullVal(DynamicPseudoType) only because its sets and lists do
            // not keep element types; the converted null is a null string.
            (
                tup(vec![s("a"), n(9), null(TD)]),
                tset(TD),
                Ok(Value::Set {
                    elem: TS,
                    items: vec![s("9"), s("a"), null(TS)],
                }),
            ),
            (
                tup(vec![s("a"), n(9), null(TD)]),
                tl(TD),
                Ok(list(TS, vec![s("a"), s("9"), null(TS)])),
            ),
            (
                tup(vec![null(TD), null(TD), null(TD)]),
                tset(TD),
                Ok(set(TD, vec![null(TD)])),
            ),
            (
                tup(vec![null(TD), null(TD), null(TD)]),
                tl(TD),
                Ok(list(TD, vec![null(TD), null(TD), null(TD)])),
            ),
        ]);
    }

    /// cty's "collections should prefer concrete types over dynamic types" cases.
    #[test]
    fn convert_prefers_concrete_types() {
        check_convert(vec![
            (list(TN, vec![]), tl(TD), Ok(list(TN, vec![]))),
            (null(tl(TN)), tl(TD), Ok(null(tl(TN)))),
            (null(tl(TN)), tset(TD), Ok(null(tset(TN)))),
            (map(TN, &[]), tm(TD), Ok(map(TN, &[]))),
            (null(tm(TN)), tm(TD), Ok(null(tm(TN)))),
            (
                null(tm(TN)),
                tobj(&[("a", TD)]),
                Ok(null(tobj(&[("a", TN)]))),
            ),
            (set(TN, vec![]), tset(TD), Ok(set(TN, vec![]))),
            (null(tset(TN)), tset(TD), Ok(null(tset(TN)))),
            (null(tset(TN)), tl(TD), Ok(null(tl(TN)))),
            (null(tobj(&[("a", TS)])), tm(TD), Ok(null(tm(TS)))),
            (
                null(tobj(&[("a", tobj(&[("b", TS)]))])),
                tobj(&[("a", tobj(&[("b", TD)]))]),
                Ok(null(tobj(&[("a", tobj(&[("b", TS)]))]))),
            ),
            (
                null(ttup(vec![TS])),
                ttup(vec![TD]),
                Ok(null(ttup(vec![TS]))),
            ),
            (null(TD), tobj(&[("a", TS)]), Ok(null(tobj(&[("a", TS)])))),
            (null(ttup(vec![])), tl(TD), Ok(null(tl(TD)))),
        ]);
    }

    /// cty's refinement cases: not-null carries over; the collection lengths cty derives make
    /// some results known (the remaining length bounds are not modelled).
    #[test]
    fn convert_refines_unknowns() {
        check_convert(vec![
            (unk(Type::empty_object()), tm(TS), Ok(unk(tm(TS)))),
            (unk_nn(Type::empty_object()), tm(TS), Ok(map(TS, &[]))),
            (unk(tobj(&[("a", TS)])), tm(TS), Ok(unk(tm(TS)))),
            (unk_nn(tobj(&[("a", TS)])), tm(TS), Ok(unk_nn(tm(TS)))),
            (unk(ttup(vec![])), tl(TS), Ok(unk(tl(TS)))),
            (unk_nn(ttup(vec![])), tl(TS), Ok(list(TS, vec![]))),
            (unk(ttup(vec![TS])), tl(TS), Ok(unk(tl(TS)))),
            (unk_nn(ttup(vec![TS])), tl(TS), Ok(list(TS, vec![unk(TS)]))),
            (unk(ttup(vec![])), tset(TS), Ok(unk(tset(TS)))),
            (unk_nn(ttup(vec![])), tset(TS), Ok(set(TS, vec![]))),
            (unk(ttup(vec![TS])), tset(TS), Ok(unk(tset(TS)))),
            (unk_nn(ttup(vec![TS])), tset(TS), Ok(set(TS, vec![unk(TS)]))),
            (unk(ttup(vec![TS, TS])), tset(TS), Ok(unk(tset(TS)))),
            (unk_nn(ttup(vec![TS, TS])), tset(TS), Ok(unk_nn(tset(TS)))),
            (unk(tl(TS)), tset(TS), Ok(unk(tset(TS)))),
            (unk_nn(tset(TS)), tl(TS), Ok(unk_nn(tl(TS)))),
            (unk_nn(TB), TS, Ok(unk_nn(TS))),
            // A string prefix does not survive a conversion to another type.
            (
                Value::Unknown(
                    TS,
                    Refinement {
                        not_null: true,
                        string_prefix: Some("ab".into()),
                    },
                ),
                TN,
                Ok(unk_nn(TN)),
            ),
            (Value::dynamic(), tl(TS), Ok(unk(tl(TS)))),
        ]);
    }

    /// Value-level errors carry the path of the offending element (not part of the message).
    #[test]
    fn convert_errors_have_paths() {
        check_convert(vec![
            (
                s("TRUE"),
                TB,
                Err(r#"a bool is required; to convert from string, use lowercase "true""#),
            ),
            (
                s("False"),
                TB,
                Err(r#"a bool is required; to convert from string, use lowercase "false""#),
            ),
            (s("yes"), TB, Err("a bool is required")),
            (s(" 1"), TN, Err("a number is required")),
            (
                tup(vec![s("1"), s("x")]),
                tl(TN),
                Err("[1]: a number is required"),
            ),
            (
                list(TS, vec![s("1"), s("x")]),
                tl(TN),
                Err("[1]: a number is required"),
            ),
            (
                obj(&[("a", s("x"))]),
                tobj(&[("a", TN)]),
                Err(".a: a number is required"),
            ),
            (
                map(TS, &[("k", s("x"))]),
                tm(TN),
                Err(r#"["k"]: a number is required"#),
            ),
            (
                obj(&[("k", s("x"))]),
                tm(TB),
                Err(r#"["k"]: a bool is required"#),
            ),
            (
                map(TS, &[("a", s("x"))]),
                tobj(&[("a", TN)]),
                Err(r#"["a"]: a number is required"#),
            ),
            (
                tup(vec![obj(&[("a", s("1"))]), obj(&[("a", s("z"))])]),
                tl(tobj(&[("a", TN)])),
                Err("[1].a: a number is required"),
            ),
            (
                tup(vec![s("1"), s("x")]),
                ttup(vec![TN, TN]),
                Err("[1]: a number is required"),
            ),
            // Set elements convert in set order.
            (
                set(TS, vec![s("a"), s("b")]),
                tset(TB),
                Err("[0]: a bool is required"),
            ),
            // Unifying converted list elements fails at run time, with cty's odd path that
            // repeats the last element index.
            (
                tup(vec![obj(&[("a", n(1))]), obj(&[("b", b(true))])]),
                tl(tm(TD)),
                Err("[1]: cannot find a common base type for all elements"),
            ),
            (
                n(1),
                tl(TN),
                Err("list of number required, but have number"),
            ),
            (b(true), TN, Err("number required, but have bool")),
            (list(TS, vec![]), tm(TS), Err("map of string required")),
        ]);
    }

    #[test]
    fn mismatch_messages_follow_cty() {
        let foo = tobj(&[("foo", TS)]);
        let cases: Vec<(Type, Type, &str)> = vec![
            (TB, TN, "number required, but have bool"),
            (
                Type::empty_object(),
                foo.clone(),
                r#"attribute "foo" is required"#,
            ),
            (
                Type::empty_object(),
                tobj(&[("foo", TS), ("bar", TS)]),
                r#"attributes "bar" and "foo" are required"#,
            ),
            (
                Type::empty_object(),
                tobj(&[("foo", TS), ("bar", TS), ("baz", TS)]),
                r#"attributes "bar", "baz", and "foo" are required"#,
            ),
            (
                Type::empty_object(),
                tl(tobj(&[("foo", TS), ("bar", TS), ("baz", TS)])),
                "list of object required",
            ),
            (
                tl(TS),
                tl(foo.clone()),
                "incorrect list element type: object required, but have string",
            ),
            (
                tl(Type::empty_object()),
                tl(foo.clone()),
                r#"incorrect list element type: attribute "foo" is required"#,
            ),
            (
                ttup(vec![Type::empty_object()]),
                tl(foo.clone()),
                r#"element 0: attribute "foo" is required"#,
            ),
            (
                tl(Type::empty_object()),
                tset(foo.clone()),
                r#"incorrect set element type: attribute "foo" is required"#,
            ),
            (
                ttup(vec![Type::empty_object()]),
                tset(foo.clone()),
                r#"element 0: attribute "foo" is required"#,
            ),
            (
                tm(Type::empty_object()),
                tm(foo.clone()),
                r#"incorrect map element type: attribute "foo" is required"#,
            ),
            (
                tobj(&[("boop", Type::empty_object())]),
                tm(foo.clone()),
                r#"element "boop": attribute "foo" is required"#,
            ),
            (
                ttup(vec![Type::empty_object(), ttup(vec![])]),
                tl(TD),
                "all list elements must have the same type",
            ),
            (
                tobj(&[("foo", TB), ("bar", TS), ("baz", tobj(&[("boop", TN)]))]),
                tobj(&[
                    ("foo", TB),
                    ("bar", TS),
                    ("baz", tobj(&[("boop", TN), ("beep", TB)])),
                ]),
                r#"attribute "baz": attribute "beep" is required"#,
            ),
            // Beyond cty's table, one per remaining rule.
            (TS, TN, "number required"),
            (TS, TB, "bool required"),
            (TN, TS, "string required, but have number"),
            (TS, tl(TS), "list of string required, but have string"),
            (TS, tl(TD), "list of dynamic required, but have string"),
            (
                ttup(vec![TS]),
                Type::empty_object(),
                "object required, but have tuple",
            ),
            (Type::empty_object(), ttup(vec![]), "tuple required"),
            (tl(TS), tm(TS), "map of string required"),
            (tl(TS), tm(TD), "map of any single type required"),
            (
                tset(TS),
                tl(TB),
                "incorrect list element type: bool required",
            ),
            (ttup(vec![TS]), tm(TS), "map of string required"),
            (tobj(&[("a", TS)]), tl(TS), "list of string required"),
            (
                ttup(vec![TN, tl(TS)]),
                tl(TN),
                "element 1: number required, but have list of string",
            ),
            (
                tobj(&[("a", TB), ("b", TN)]),
                tm(TN),
                r#"element "a": number required, but have bool"#,
            ),
            (
                tobj(&[("a", TB)]),
                tobj(&[("a", TN)]),
                r#"attribute "a": number required, but have bool"#,
            ),
            (
                tobj(&[("a b", TB)]),
                tobj(&[("a\"b", TB)]),
                r#"attribute "a\"b" is required"#,
            ),
        ];
        for (got, want, msg) in cases {
            assert_eq!(
                mismatch_message(&got, &want),
                msg,
                "{got:?} but want {want:?}"
            );
        }
    }

    type UnifyCase = (Vec<Type>, Option<(Type, Vec<bool>)>);

    /// cty's TestUnify (unify_test.go).
    #[test]
    fn unify_follows_cty() {
        let oa = tobj(&[("a", TS)]);
        let oab = tobj(&[("a", TS), ("b", TS)]);
        let cases: Vec<UnifyCase> = vec![
            (vec![], None),
            (vec![TS], Some((TS, vec![false]))),
            (vec![TN], Some((TN, vec![false]))),
            (vec![TN, TN], Some((TN, vec![false, false]))),
            (vec![TN, TS], Some((TS, vec![true, false]))),
            (vec![TS, TN], Some((TS, vec![false, true]))),
            (vec![TB, TS, TN], Some((TS, vec![true, false, true]))),
            (vec![TB, TN], None),
            (
                vec![tobj(&[("foo", TS)]), tobj(&[("foo", TS)])],
                Some((tobj(&[("foo", TS)]), vec![false, false])),
            ),
            (
                vec![tobj(&[("foo", TS)]), tobj(&[("foo", TN)])],
                Some((tobj(&[("foo", TS)]), vec![false, true])),
            ),
            (
                vec![tobj(&[("foo", TS)]), tobj(&[("bar", TN)])],
                Some((tm(TS), vec![true, true])),
            ),
            (
                vec![tobj(&[("foo", TS)]), Type::empty_object()],
                Some((tm(TS), vec![true, true])),
            ),
            (vec![tobj(&[("foo", TB)]), tobj(&[("bar", TN)])], None),
            (vec![tobj(&[("foo", TB)]), tobj(&[("foo", TN)])], None),
            (
                vec![ttup(vec![TS]), ttup(vec![TS])],
                Some((ttup(vec![TS]), vec![false, false])),
            ),
            (
                vec![ttup(vec![TS]), ttup(vec![TN])],
                Some((ttup(vec![TS]), vec![false, true])),
            ),
            (
                vec![ttup(vec![TS]), ttup(vec![TS, TN])],
                Some((tl(TS), vec![true, true])),
            ),
            (
                vec![ttup(vec![TS]), ttup(vec![])],
                Some((tl(TS), vec![true, true])),
            ),
            (vec![ttup(vec![TB]), ttup(vec![TN])], None),
            (
                vec![ttup(vec![oa.clone(), oa.clone()]), ttup(vec![oab.clone()])],
                Some((tl(tm(TS)), vec![true, true])),
            ),
            (vec![ttup(vec![oa.clone(), TD]), tl(TD)], None),
            (
                vec![
                    tl(oa.clone()),
                    ttup(vec![oab.clone()]),
                    ttup(vec![oab.clone(), tobj(&[("c", TS), ("d", TS)])]),
                ],
                Some((tl(tm(TS)), vec![true, true, true])),
            ),
            (
                vec![tl(oa.clone()), tl(tm(TS)), ttup(vec![tm(TS), oab.clone()])],
                Some((tl(tm(TS)), vec![true, false, true])),
            ),
            (
                vec![
                    ttup(vec![
                        tobj(&[("a", TS), ("b", TN)]),
                        tobj(&[("a", TS), ("b", TN)]),
                    ]),
                    ttup(vec![oa.clone()]),
                ],
                Some((tl(tm(TS)), vec![true, true])),
            ),
            (
                vec![
                    ttup(vec![tobj(&[("a", TS), ("b", TN)])]),
                    ttup(vec![oa.clone()]),
                ],
                Some((ttup(vec![tm(TS)]), vec![true, true])),
            ),
            (
                vec![tl(tobj(&[("a", TN), ("b", TS)])), ttup(vec![oa.clone()])],
                Some((tl(tm(TS)), vec![true, true])),
            ),
            (
                vec![tl(tobj(&[("a", TN), ("b", TS)])), tl(oa.clone())],
                Some((tl(tm(TS)), vec![true, true])),
            ),
            (
                vec![
                    tl(tobj(&[("a", oa.clone()), ("b", oab.clone())])),
                    tl(tm(oab.clone())),
                ],
                Some((tl(tm(tm(TS))), vec![true, true])),
            ),
            (
                vec![tobj(&[("a", oa.clone())]), tobj(&[("a", oab.clone())])],
                Some((tobj(&[("a", tm(TS))]), vec![true, true])),
            ),
            (
                vec![
                    tobj(&[("a", oa.clone()), ("b", oab.clone())]),
                    tm(oab.clone()),
                ],
                Some((tm(tm(TS)), vec![true, true])),
            ),
            (
                vec![
                    tobj(&[
                        ("a", tobj(&[("a", tl(TS))])),
                        ("b", tobj(&[("a", ttup(vec![TS])), ("b", tl(TS))])),
                    ]),
                    tm(tobj(&[("a", tl(TS)), ("b", tl(TS))])),
                ],
                Some((tm(tm(tl(TS))), vec![true, true])),
            ),
            (
                vec![
                    tobj(&[("a", oa.clone()), ("b", oa.clone())]),
                    tm(oa.clone()),
                ],
                Some((tm(oa.clone()), vec![true, false])),
            ),
            (
                vec![
                    tobj(&[("a", oa.clone()), ("b", oa.clone())]),
                    tm(TD),
                    tm(oa.clone()),
                ],
                Some((tm(TD), vec![true, false, true])),
            ),
            (
                vec![
                    tobj(&[
                        ("a", tobj(&[("a", oa.clone())])),
                        ("b", tobj(&[("c", tobj(&[("d", TS)]))])),
                    ]),
                    tm(tm(tm(TS))),
                ],
                Some((tm(tm(tm(TS))), vec![true, false])),
            ),
            (
                vec![
                    tm(tm(tm(TS))),
                    tobj(&[
                        ("a", tobj(&[("a", oa.clone()), ("b", tm(TS))])),
                        ("b", tm(tm(TS))),
                    ]),
                ],
                Some((tm(tm(tm(TS))), vec![false, true])),
            ),
            (vec![TD, ttup(vec![TN])], Some((TD, vec![true, true]))),
            (vec![TD, tobj(&[("num", TN)])], Some((TD, vec![true, true]))),
            (vec![ttup(vec![TN]), TD, tobj(&[("num", TN)])], None),
            // Beyond cty's table.
            (vec![TD], Some((TD, vec![false]))),
            (vec![TD, TD], Some((TD, vec![false, false]))),
            (vec![TS, TD], Some((TD, vec![true, false]))),
            (vec![tl(TS), tset(TS)], Some((tl(TS), vec![false, true]))),
            (vec![tset(TS), tl(TS)], Some((tl(TS), vec![true, false]))),
            (vec![tl(TS), tl(TN)], Some((tl(TS), vec![false, true]))),
            (vec![tl(TS), TD], Some((TD, vec![true, true]))),
            (vec![tset(TS), tl(TN)], None),
            (
                vec![ttup(vec![]), ttup(vec![])],
                Some((ttup(vec![]), vec![false, false])),
            ),
        ];
        for (types, want) in cases {
            assert_eq!(unify(&types), want, "unify {types:?}");
        }
    }

    /// UnifyUnsafe admits unsafe conversions where no safe unification exists.
    #[test]
    fn unify_unsafe_follows_cty() {
        let cases: Vec<UnifyCase> = vec![
            (vec![TS, TD], Some((TS, vec![false, true]))),
            (vec![tset(TS), tl(TN)], Some((tl(TN), vec![true, false]))),
            (vec![TB, TN], None),
            (vec![TN, TS], Some((TS, vec![true, false]))),
            (
                vec![tm(TS), tobj(&[("a", TN)])],
                Some((tm(TS), vec![false, true])),
            ),
            (vec![ttup(vec![TN]), TD], Some((TD, vec![true, true]))),
        ];
        for (types, want) in cases {
            assert_eq!(unify_unsafe(&types), want, "unify_unsafe {types:?}");
        }
    }

    #[test]
    fn unify_conversions_are_ctys() {
        let (ty, convs) = unify_unsafe_conversions(&[TN, TS]).unwrap();
        assert_eq!(ty, TS);
        let to_string = convs[0].as_ref().unwrap();
        assert!(to_string(&n(5)).unwrap().raw_equals(&s("5")));
        assert!(convs[1].is_none());

        // With a dynamic type alongside, cty's conversions all yield DynamicVal.
        let (ty, convs) = unify_unsafe_conversions(&[ttup(vec![TN]), TD]).unwrap();
        assert_eq!(ty, TD);
        let c = convs[0].as_ref().unwrap();
        assert!(c(&tup(vec![n(1)])).unwrap().raw_equals(&Value::dynamic()));

        // cty chains the tuple-to-list conversion with the list conversion but hands the
        // second one the original tuple, so differing element types surface as an error.
        let types = [
            tl(tm(TS)),
            ttup(vec![tobj(&[("a", TS)]), tobj(&[("a", TN)])]),
        ];
        let (ty, convs) = unify_unsafe_conversions(&types).unwrap();
        assert_eq!(ty, tl(tm(TS)));
        let c = convs[1].as_ref().unwrap();
        let err = c(&tup(vec![obj(&[("a", s("x"))]), obj(&[("a", n(1))])])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "element types must all match for conversion to list"
        );
        // Where the tuple's elements already have the list's element type the chain works.
        let (ty, convs) = unify_unsafe_conversions(&[tl(TS), ttup(vec![TN])]).unwrap();
        assert_eq!(ty, tl(TS));
        let c = convs[1].as_ref().unwrap();
        assert!(
            c(&tup(vec![n(5)]))
                .unwrap()
                .raw_equals(&list(TS, vec![s("5")]))
        );
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

    fn items(v: &Value) -> Vec<Value> {
        v.elements().to_vec()
    }

    fn assert_items(got: &Value, want: &[Value]) {
        let got = items(got);
        assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
        for (g, w) in got.iter().zip(want) {
            assert!(g.raw_equals(w), "{got:?} vs {want:?}");
        }
    }

    #[test]
    fn sets_dedup_and_order_as_cty() {
        assert_items(
            &set(TS, vec![s("b"), s("a"), s("c"), s("a")]),
            &[s("a"), s("b"), s("c")],
        );
        // Go byte order: upper case before lower, multi-byte after ASCII.
        assert_items(
            &set(TS, vec![s("é"), s("z"), s("a"), s("B")]),
            &[s("B"), s("a"), s("z"), s("é")],
        );
        assert_items(
            &set(TN, vec![n(10), n(9), num("1.5"), n(-1), num("10.0")]),
            &[n(-1), num("1.5"), n(9), n(10)],
        );
        assert_items(
            &set(TB, vec![b(true), b(false), b(true)]),
            &[b(false), b(true)],
        );
        // Unknowns are never equal to anything: all kept, after the known values, in order;
        // a null sorts last.
        let u1 = unk(TS);
        let u2 = unk_nn(TS);
        assert_items(
            &set(
                TS,
                vec![null(TS), u1.clone(), s("b"), u2.clone(), s("a"), null(TS)],
            ),
            &[s("a"), s("b"), u1, u2, null(TS)],
        );
        // Other element types order by the bytes of cty's set-hash text: attribute values in
        // name order, numbers as %.10g, strings quoted (so `<10;>` sorts before `<1;>`).
        let o = |i: i64| obj(&[("a", n(i))]);
        assert_items(
            &set(tobj(&[("a", TN)]), vec![o(2), o(10), o(1), o(2)]),
            &[o(10), o(1), o(2)],
        );
        assert_items(
            &set(
                tl(TS),
                vec![
                    list(TS, vec![s("b")]),
                    list(TS, vec![s("a"), s("z")]),
                    list(TS, vec![]),
                ],
            ),
            &[
                list(TS, vec![s("a"), s("z")]),
                list(TS, vec![s("b")]),
                list(TS, vec![]),
            ],
        );
        // Equal hash text keeps first-seen order.
        let l = |u: Value| list(TS, vec![u]);
        assert_items(
            &set(tl(TS), vec![l(unk_nn(TS)), l(unk(TS))]),
            &[l(unk_nn(TS)), l(unk(TS))],
        );
    }

    #[test]
    fn set_hash_text_matches_go() {
        let cases = [
            ("0", "0"),
            ("1", "1"),
            ("-2.5", "-2.5"),
            ("100", "100"),
            ("1.5", "1.5"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("123456789", "123456789"),
            ("1234567890", "1234567890"),
            ("12345678901", "1.23456789e+10"),
            ("12345678905", "1.23456789e+10"),
            ("12345678915", "1.234567892e+10"),
            ("1234567890123", "1.23456789e+12"),
            ("99999999999", "1e+11"),
            ("1e20", "1e+20"),
            ("3.14159265358979", "3.141592654"),
        ];
        for (input, want) in cases {
            assert_eq!(
                number_hash_text(&Num::parse(input).unwrap()),
                want,
                "{input}"
            );
        }
        assert_eq!(number_hash_text(&Num::inf(false)), "+Inf");
        assert_eq!(number_hash_text(&Num::inf(true)), "-Inf");
        let v = obj(&[
            ("b", list(TS, vec![s("x\"y"), unk(TS)])),
            ("a", map(TB, &[("k", b(true))])),
            ("c", tup(vec![null(TN), n(7)])),
        ]);
        assert_eq!(set_hash_text(&v), r#"<{"k":T;};["x\"y";?;];<~;7;>;>"#);
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
}
