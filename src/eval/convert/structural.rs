//! cty's conversion_object.go and conversion_tuple.go: object-to-object and tuple-to-tuple
//! conversions.

use super::{Conv, PathStep, apply, child, conv, conversion_for, unexpected};
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;

/// cty's `conversionObjectToObject`: the target's attributes must be a subset of the source's
/// (no optional attributes here), each converting.
pub(super) fn conversion_object_to_object(
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
    let out_ty = Type::Object(out_atys.clone().into());
    Some(conv(move |val, path| {
        let Value::Object(attrs) = val else {
            return Err(unexpected(val, &out_ty, path));
        };
        let mut out = BTreeMap::new();
        for (name, attr) in attrs.iter() {
            let Some(c) = attr_convs.get(name) else {
                continue;
            };
            let v = apply(c, attr, &child(path, PathStep::GetAttr(name.clone())))?;
            out.insert(name.clone(), v);
        }
        Ok(Value::Object(out.into()))
    }))
}

/// cty's `conversionTupleToTuple`: same length, each element converting.
pub(super) fn conversion_tuple_to_tuple(
    in_etys: &[Type],
    out_etys: &[Type],
    unsafe_ok: bool,
) -> Option<Conv> {
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
    let out_ty = Type::Tuple(out_etys.to_vec().into());
    Some(conv(move |val, path| {
        let Value::Tuple(items) = val else {
            return Err(unexpected(val, &out_ty, path));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let c = elem_convs.get(i).cloned().flatten();
            out.push(apply(&c, item, &child(path, PathStep::index(i)))?);
        }
        Ok(Value::Tuple(out.into()))
    }))
}
