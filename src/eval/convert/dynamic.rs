//! cty's conversion_dynamic.go: conversions from the dynamic pseudo-type and the replacement
//! of dynamic parts of a target type.

use super::unification::unify_inner;
use super::{Conv, conv, convert};
use crate::eval::types::Type;
use std::collections::BTreeMap;

/// cty's `dynamicFixup`: a value typed dynamic during analysis is converted once known, with
/// the error's path made relative to the caller's value.
pub(super) fn dynamic_fixup(want: Type) -> Conv {
    conv(move |val, path| convert(val, &want).map_err(|e| e.under(path)))
}

/// cty's `dynamicReplace`: `out`, with any dynamic part replaced by the corresponding part of
/// `in_ty`.
pub(super) fn dynamic_replace(in_ty: &Type, out: &Type) -> Type {
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
                    for (name, aty) in out_atys.iter() {
                        types.insert(name.clone(), dynamic_replace(in_ety, aty));
                    }
                }
                Type::Object(in_atys) => {
                    for (name, aty) in out_atys.iter() {
                        let t = match in_atys.get(name) {
                            Some(in_aty) => dynamic_replace(in_aty, aty),
                            None => aty.clone(),
                        };
                        types.insert(name.clone(), t);
                    }
                }
                _ => {}
            }
            Type::Object(types.into())
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
                    .collect::<Vec<_>>()
                    .into(),
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
