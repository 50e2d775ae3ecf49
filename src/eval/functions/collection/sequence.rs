//! Functions that build a new sequence: `chunklist`, `compact`, `concat`, `distinct`,
//! `flatten`, `range`, `reverse`, `slice`, `sort`.

use super::{go_int, go_int_arg, is_sequence, known_length, list_val, unknown_not_null};
use crate::eval::convert::{convert, unify_unsafe};
use crate::eval::functions::{Function, FunctionError, FunctionTable, Param};
use crate::eval::num::Num;
use crate::eval::types::Type;
use crate::eval::value::Value;
use std::cmp::Ordering;

pub(super) fn register(table: &mut FunctionTable) {
    table.insert(chunklist());
    table.insert(compact());
    table.insert(concat());
    table.insert(distinct());
    table.insert(flatten());
    table.insert(range());
    table.insert(reverse());
    table.insert(slice());
    table.insert(sort());
}

/// The element type of a list type (dynamic for anything else).
fn elem_of(ty: &Type) -> Type {
    ty.element().cloned().unwrap_or(Type::Dynamic)
}

fn chunklist() -> Function {
    Function::with_type_fn(
        "chunklist",
        vec![
            Param::new("list", Type::list(Type::Dynamic)),
            Param::new("size", Type::Number),
        ],
        None,
        |args| Ok(Type::list(args[0].ty())),
        |args, _| {
            let list = &args[0];
            let size = go_int_arg(&args[1])
                .map_err(|e| FunctionError::other(format!("invalid size: {e}")))?;
            if size < 0 {
                return Err(FunctionError::other("the size argument must be positive"));
            }
            let items = list.elements();
            if items.is_empty() {
                return Ok(list_val(&list.ty(), Vec::new()));
            }
            if size == 0 {
                return Ok(list_val(&list.ty(), vec![list.clone()]));
            }
            let elem = elem_of(&list.ty());
            let chunks = items
                .chunks(usize::try_from(size).unwrap_or(usize::MAX))
                .map(|chunk| list_val(&elem, chunk.to_vec()))
                .collect();
            Ok(list_val(&list.ty(), chunks))
        },
    )
}

fn compact() -> Function {
    let ret = Type::list(Type::String);
    Function::new(
        "compact",
        vec![Param::new("list", ret.clone())],
        None,
        ret,
        |args, ret| {
            if !args[0].is_wholly_known() {
                return Ok(unknown_not_null(ret.clone()));
            }
            let kept = args[0]
                .elements()
                .iter()
                .filter(|v| !matches!(v, Value::Null(_)) && v.as_str() != Some(""))
                .cloned()
                .collect();
            Ok(list_val(&Type::String, kept))
        },
    )
}

/// cty's `concat`: a list when every argument is a list and their types unify, otherwise a
/// tuple of all the elements (which needs every list argument known, to count its elements).
fn concat() -> Function {
    Function::with_type_fn(
        "concat",
        Vec::new(),
        Some(Param::new("seqs", Type::Dynamic)),
        |args| {
            if args.is_empty() {
                return Err(FunctionError::other("at least one argument is required"));
            }
            let total = args
                .iter()
                .filter(|a| a.is_known())
                .fold(0usize, |n, a| n.saturating_add(a.elements().len()));
            if total > MAX_ELEMENTS {
                return Err(too_many(total));
            }
            let tys: Vec<Type> = args.iter().map(Value::ty).collect();
            if tys.iter().all(|t| matches!(t, Type::List(_)))
                && let Some((common, _)) = unify_unsafe(&tys)
            {
                return Ok(common);
            }
            let mut etys = Vec::new();
            for (i, (arg, ty)) in args.iter().zip(tys).enumerate() {
                match ty {
                    Type::Tuple(more) => etys.extend(more.iter().cloned()),
                    Type::List(elem) => {
                        if !arg.is_known() {
                            return Ok(Type::Dynamic);
                        }
                        etys.extend(std::iter::repeat_n(*elem, arg.elements().len()));
                    }
                    other => {
                        return Err(FunctionError::arg(
                            i,
                            format!(
                                "all arguments must be lists or tuples; got {}",
                                other.friendly_name()
                            ),
                        ));
                    }
                }
            }
            Ok(Type::Tuple(etys.into()))
        },
        |args, ret| match ret {
            Type::List(elem) => {
                let mut items = Vec::new();
                for (i, arg) in args.iter().enumerate() {
                    let list = convert(arg, ret).map_err(|e| FunctionError::arg(i, e.message))?;
                    items.extend_from_slice(list.elements());
                }
                Ok(list_val(elem, items))
            }
            Type::Tuple(_) => Ok(Value::Tuple(
                args.iter()
                    .flat_map(|a| a.elements().iter().cloned())
                    .collect::<Vec<_>>()
                    .into(),
            )),
            _ => Err(FunctionError::other("unsupported return type")),
        },
    )
}

/// `distinct`: the first of each group of equal elements, in order.
fn distinct() -> Function {
    Function::with_type_fn(
        "distinct",
        vec![Param::new("list", Type::list(Type::Dynamic))],
        None,
        |args| Ok(args[0].ty()),
        |args, ret| {
            if !args[0].is_wholly_known() {
                return Ok(unknown_not_null(ret.clone()));
            }
            let mut kept: Vec<Value> = Vec::new();
            for v in args[0].elements() {
                crate::eval::deadline::checkpoint();
                if !kept
                    .iter()
                    .any(|k| matches!(k.equals(v), Value::Bool(true)))
                {
                    kept.push(v.clone());
                }
            }
            Ok(list_val(&elem_of(ret), kept))
        },
    )
}

/// cty's `flattener`: the nested elements of a list, set or tuple, and whether the result is
/// known (not when some nested sequence, or the length of one, is unknown, or an element is of
/// unknown type and so could turn out to be a sequence).
/// The most elements `flatten` and `concat` build: values share their elements, so a chain
/// like `a_i = flatten([a_(i-1), a_(i-1)])` doubles at each step for almost nothing until the
/// result is listed. Checked before allocating (docs/compatibility.md: cty has no limit).
pub const MAX_ELEMENTS: usize = 1_000_000;

fn too_many(n: usize) -> FunctionError {
    FunctionError::other(format!(
        "the result would have {n} or more elements, more than fnhcl's limit of {MAX_ELEMENTS}"
    ))
}

/// How many elements flattening `seq` gives, counting no further than just past the limit.
fn flat_count(seq: &Value, n: &mut usize) {
    for v in seq.elements() {
        if *n > MAX_ELEMENTS {
            return;
        }
        if !v.is_null() && v.is_known() && is_sequence(&v.ty()) {
            flat_count(v, n);
        } else {
            *n += 1;
        }
    }
}

/// [`flattener`] after checking the size.
fn flatten_checked(seq: &Value) -> Result<(Vec<Value>, bool), FunctionError> {
    let mut n = 0;
    flat_count(seq, &mut n);
    if n > MAX_ELEMENTS {
        return Err(too_many(n));
    }
    Ok(flattener(seq))
}

fn flattener(seq: &Value) -> (Vec<Value>, bool) {
    if known_length(seq).is_none() {
        return (Vec::new(), false);
    }
    let mut out = Vec::new();
    let mut known = true;
    for v in seq.elements() {
        if matches!(v, Value::Unknown(Type::Dynamic, _)) {
            known = false;
        }
        if !v.is_null() && is_sequence(&v.ty()) {
            if !v.is_known() {
                known = false;
                continue;
            }
            let (inner, inner_known) = flattener(v);
            if inner_known {
                out.extend(inner);
            } else {
                known = false;
            }
        } else {
            out.push(v.clone());
        }
    }
    (out, known)
}

fn flatten() -> Function {
    Function::with_type_fn(
        "flatten",
        vec![Param::new("list", Type::Dynamic)],
        None,
        |args| {
            if !args[0].is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            if !is_sequence(&args[0].ty()) {
                return Err(FunctionError::other(
                    "can only flatten lists, sets and tuples",
                ));
            }
            match flatten_checked(&args[0])? {
                (items, true) => Ok(Type::Tuple(
                    items.iter().map(Value::ty).collect::<Vec<_>>().into(),
                )),
                (_, false) => Ok(Type::Dynamic),
            }
        },
        |args, ret| {
            if args[0].elements().is_empty() {
                return Ok(Value::Tuple(Vec::new().into()));
            }
            match flatten_checked(&args[0])? {
                (items, true) => Ok(Value::Tuple(items.into())),
                (_, false) => Ok(unknown_not_null(ret.clone())),
            }
        },
    )
}

/// cty's `range`. (cty's "step must not be zero" check compares value identity and never
/// fires: a zero step counts up to the 1024-element limit.)
fn range() -> Function {
    Function::new(
        "range",
        Vec::new(),
        Some(Param::new("params", Type::Number)),
        Type::list(Type::Number),
        |args, _| {
            let nums: Vec<&Num> = args.iter().filter_map(Value::as_num).collect();
            let zero = Num::from_i64(0);
            let unit = |down: bool| Num::from_i64(if down { -1 } else { 1 });
            let (start, end, step) = match nums[..] {
                [end] => (zero.clone(), end.clone(), unit(end.compare(&zero).is_lt())),
                [start, end] => (start.clone(), end.clone(), unit(end.compare(start).is_lt())),
                [start, end, step] => (start.clone(), end.clone(), step.clone()),
                _ => {
                    return Err(FunctionError::other(
                        "must have one, two, or three arguments",
                    ));
                }
            };
            let down = step.compare(&zero).is_lt();
            if down && end.compare(&start).is_gt() {
                return Err(FunctionError::arg(
                    1,
                    "end must be less than start when step is negative",
                ));
            }
            if !down && end.compare(&start).is_lt() {
                return Err(FunctionError::arg(
                    1,
                    "end must be greater than start when step is positive",
                ));
            }
            let mut items = Vec::new();
            let mut n = start;
            loop {
                let done = match n.compare(&end) {
                    Ordering::Equal => true,
                    Ordering::Less => down,
                    Ordering::Greater => !down,
                };
                if done {
                    break;
                }
                if items.len() >= 1024 {
                    return Err(FunctionError::other(
                        "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step",
                    ));
                }
                let next = n.add(&step).map_err(|e| {
                    FunctionError::other(format!("panic in function implementation: {e}"))
                })?;
                items.push(Value::Number(std::mem::replace(&mut n, next)));
            }
            Ok(list_val(&Type::Number, items))
        },
    )
}

fn reverse() -> Function {
    Function::with_type_fn(
        "reverse",
        vec![Param::new("list", Type::Dynamic)],
        None,
        |args| match args[0].ty() {
            Type::Tuple(etys) => Ok(Type::Tuple(
                etys.iter().rev().cloned().collect::<Vec<_>>().into(),
            )),
            Type::List(elem) | Type::Set(elem) => Ok(Type::List(elem)),
            other => Err(FunctionError::arg(
                0,
                format!(
                    "can only reverse list or tuple values, not {}",
                    other.friendly_name()
                ),
            )),
        },
        |args, ret| {
            let items: Vec<Value> = args[0].elements().iter().rev().cloned().collect();
            Ok(match ret {
                Type::Tuple(_) => Value::Tuple(items.into()),
                _ => list_val(&elem_of(ret), items),
            })
        },
    )
}

/// cty's `sliceIndexes`: the start and end index, checked against each other and against the
/// length where known; `None` when either is unknown.
fn slice_indexes(args: &[Value]) -> Result<Option<(usize, usize)>, FunctionError> {
    let length = known_length(&args[0]);
    let index = |i: usize, what: &str| -> Result<Option<i64>, FunctionError> {
        let Some(n) = args[i].as_num() else {
            return Ok(None);
        };
        let v =
            go_int(n).map_err(|e| FunctionError::arg(i, format!("invalid {what} index: {e}")))?;
        if v < 0 {
            return Err(FunctionError::arg(
                i,
                format!("{what} index must not be less than zero"),
            ));
        }
        if length.is_some_and(|l| v as u64 > l as u64) {
            return Err(FunctionError::arg(
                i,
                format!("{what} index must not be greater than the length of the list"),
            ));
        }
        Ok(Some(v))
    };
    let start = index(1, "start")?;
    let end = index(2, "end")?;
    match (start, end) {
        (Some(s), Some(e)) if s > e => Err(FunctionError::arg(
            1,
            "start index must not be greater than end index",
        )),
        (Some(s), Some(e)) => Ok(Some((s as usize, e as usize))),
        _ => Ok(None),
    }
}

fn slice() -> Function {
    Function::with_type_fn(
        "slice",
        vec![
            Param::new("list", Type::Dynamic),
            Param::new("start_index", Type::Number),
            Param::new("end_index", Type::Number),
        ],
        None,
        |args| {
            let ty = args[0].ty();
            if matches!(ty, Type::Set(_)) {
                return Err(FunctionError::arg(
                    0,
                    "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important",
                ));
            }
            if !matches!(ty, Type::List(_) | Type::Tuple(_)) {
                return Err(FunctionError::arg(0, "must be a list or tuple value"));
            }
            let indexes = slice_indexes(args)?;
            match (ty, indexes) {
                (ty @ Type::List(_), _) => Ok(ty),
                (Type::Tuple(etys), Some((start, end))) => {
                    Ok(Type::Tuple(etys[start..end].to_vec().into()))
                }
                _ => Ok(Type::Dynamic),
            }
        },
        |args, ret| {
            if *ret == Type::Dynamic {
                return Ok(Value::dynamic());
            }
            let Some((start, end)) = slice_indexes(args)? else {
                return Ok(Value::dynamic());
            };
            let items = args[0].elements()[start..end].to_vec();
            Ok(match ret {
                Type::Tuple(_) => Value::Tuple(items.into()),
                _ => list_val(&elem_of(ret), items),
            })
        },
    )
}

/// cty's `sort`: strings in byte order (Go's `sort.Strings`).
fn sort() -> Function {
    let ret = Type::list(Type::String);
    Function::new(
        "sort",
        vec![Param::new("list", ret.clone()).unknown_ok()],
        None,
        ret,
        |args, ret| {
            let list = &args[0];
            if !list.is_wholly_known() {
                return Ok(unknown_not_null(ret.clone()));
            }
            let mut strings = Vec::with_capacity(list.elements().len());
            for (i, v) in list.elements().iter().enumerate() {
                match v.as_str() {
                    Some(s) => strings.push(s.to_string()),
                    None => {
                        return Err(FunctionError::other(format!(
                            "given list element {i} is null; a null string cannot be sorted"
                        )));
                    }
                }
            }
            strings.sort_unstable();
            Ok(list_val(
                &Type::String,
                strings
                    .into_iter()
                    .map(|s| Value::String(s.into()))
                    .collect(),
            ))
        },
    )
}
