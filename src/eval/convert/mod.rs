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
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

mod collection;
pub(crate) use collection::inferred_elem;
mod dynamic;
mod mismatch;
mod primitive;
mod set_order;
mod structural;
mod unification;

#[cfg(test)]
mod tests;

use collection::{
    conversion_collection_to_list, conversion_collection_to_map, conversion_collection_to_set,
    conversion_map_to_object, conversion_object_to_map, conversion_tuple_to_list,
    conversion_tuple_to_set,
};
use dynamic::{dynamic_fixup, dynamic_replace};
use primitive::primitive_conversion;
use structural::{conversion_object_to_object, conversion_tuple_to_tuple};
use unification::unify_inner;

pub use mismatch::mismatch_message;
pub use set_order::set_from;

/// One step of a path into a nested value (cty's `PathStep`).
#[derive(Clone, Debug)]
pub enum PathStep {
    /// `cty.GetAttrStep`: an object attribute.
    GetAttr(String),
    /// `cty.IndexStep`: a list or tuple index (a number), a map key (a string), or a set's
    /// element itself.
    Index(Value),
}

impl PathStep {
    /// `cty.IndexStep{Key: cty.NumberIntVal(i)}`: a list or tuple element.
    pub fn index(i: usize) -> PathStep {
        PathStep::Index(Value::Number(Num::from_i64(i as i64)))
    }

    /// `cty.IndexStep{Key: cty.StringVal(key)}`: a map element.
    pub fn key(key: &str) -> PathStep {
        PathStep::Index(Value::String(key.into()))
    }
}

/// Steps are equal when they are the same kind and their names or keys are (keys by cty's
/// `RawEquals`, so a set element step compares by value).
impl PartialEq for PathStep {
    fn eq(&self, other: &PathStep) -> bool {
        match (self, other) {
            (PathStep::GetAttr(a), PathStep::GetAttr(b)) => a == b,
            (PathStep::Index(a), PathStep::Index(b)) => a.raw_equals(b),
            _ => false,
        }
    }
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

/// The error for a conversion applied to a value of a type it was not built for (cty panics).
fn unexpected(val: &Value, want: &Type, path: &[PathStep]) -> ConvertError {
    ConvertError::new(path, mismatch_message(&val.ty(), want))
}

fn apply(c: &Option<Conv>, v: &Value, path: &[PathStep]) -> Result<Value, ConvertError> {
    match c {
        Some(c) => c(v, path),
        None => Ok(v.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// public.go
// ---------------------------------------------------------------------------------------------

/// cty's `convert.Convert`: converts `value` to `want` using a safe or unsafe conversion, or
/// fails with [`mismatch_message`] when the types cannot convert at all, or with a value-level
/// error (`a number is required`, …) carrying the path of the offending element.
pub fn convert(value: &Value, want: &Type) -> Result<Value, ConvertError> {
    // Without building the value's type (which walks all of it): conversion to the dynamic
    // pseudo-type passes any value through, and a known primitive of the wanted type is itself.
    let same_primitive = matches!(
        (value, want),
        (Value::String(_), Type::String)
            | (Value::Number(_), Type::Number)
            | (Value::Bool(_), Type::Bool)
    );
    if same_primitive || *want == Type::Dynamic {
        return Ok(value.clone());
    }
    let have = value.ty();
    if have == *want {
        return Ok(value.clone());
    }
    match conversion_for(&have, want, true) {
        Some(c) => c(value, &[]),
        None => Err(ConvertError::new(&[], mismatch_message(&have, want))),
    }
}

/// [`convert`] of a value the caller owns: a value that already has the wanted type is
/// returned as it is, not copied (function arguments and template parts, on every call).
#[inline]
pub fn convert_owned(value: Value, want: &Type) -> Result<Value, ConvertError> {
    if already(&value, want) {
        return Ok(value);
    }
    convert_other(value, want)
}

/// Whether `value` is a known primitive of the primitive type `want`, or `want` is dynamic:
/// the value is its own conversion. Most arguments are, which is decided where the call is,
/// without moving the value through a call.
#[inline]
pub fn already(value: &Value, want: &Type) -> bool {
    let same_primitive = matches!(
        (value, want),
        (Value::String(_), Type::String)
            | (Value::Number(_), Type::Number)
            | (Value::Bool(_), Type::Bool)
    );
    same_primitive || *want == Type::Dynamic
}

/// [`convert_owned`] of a value whose type is not the wanted primitive or dynamic (callers
/// that asked [`already`] first call this for the rest).
pub fn convert_other(value: Value, want: &Type) -> Result<Value, ConvertError> {
    let have = value.ty();
    if have == *want {
        return Ok(value);
    }
    match conversion_for(&have, want, true) {
        Some(c) => c(&value, &[]),
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
                    items: BTreeMap::new().into(),
                };
            }
            // A list built from a tuple has one element per tuple element; a known length
            // makes a known list of unknown elements.
            (Type::Tuple(etys), Type::List(ety)) => {
                let items = vec![Value::unknown((**ety).clone()); etys.len()];
                return Value::List {
                    elem: (**ety).clone(),
                    items: items.into(),
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

pub(crate) use crate::gostd::strconv::quote as go_quote;
