//! cty's unify.go, compare_types.go and sort_types.go: type unification and the preference
//! order it tries types in.

use super::{Conversion, Unified, get_public};
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

static NO_ATTRS: BTreeMap<String, Type> = BTreeMap::new();

pub(super) fn attr_types(t: &Type) -> &BTreeMap<String, Type> {
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

pub(super) fn unify_inner(types: &[Type], unsafe_ok: bool) -> Option<Unified> {
    if types.is_empty() {
        return None;
    }
    // All of one primitive type (or all dynamic): cty's answer below is that type with no
    // conversion, after comparing every pair of types — quadratic, which a list of 50,000
    // strings (a `join` argument) turns into seconds. Same answer, at once.
    if (types[0].is_primitive() || types[0] == Type::Dynamic)
        && types.iter().all(|t| *t == types[0])
    {
        return Some((types[0].clone(), vec![None; types.len()]));
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
    let ret = Type::Object(ret_atys.into());
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
    let ret = Type::Tuple(ret_etys.into());
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
            for (k, ta) in atys_a.iter() {
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
            for (ta, tb) in etys_a.iter().zip(etys_b.iter()) {
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
