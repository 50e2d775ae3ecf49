//! cty's mismatch_msg.go: the English explanation of why one type does not conform to
//! another.

use super::unification::attr_types;
use super::{conversion_for, go_quote};
use crate::eval::types::Type;

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
            for (name, aty) in atys.iter() {
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
