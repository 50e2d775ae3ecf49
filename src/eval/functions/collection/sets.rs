//! Set functions: `setunion`, `setintersection`, `setsubtract` and `setproduct`.

use super::{known_length, list_val, unknown_not_null};
use crate::eval::convert::{convert, set_from, unify_unsafe};
use crate::eval::functions::{Function, FunctionError, FunctionTable, Param};
use crate::eval::types::Type;
use crate::eval::value::Value;

pub(super) fn register(table: &mut FunctionTable) {
    let set = |name| Param::new(name, Type::set(Type::Dynamic)).dynamic_ok();
    table.insert(Function::with_type_fn(
        "setunion",
        vec![set("first_set")],
        Some(set("other_sets")),
        set_operation_type,
        |args, ret| set_operation(args, ret, Operation::Union),
    ));
    table.insert(Function::with_type_fn(
        "setintersection",
        vec![set("first_set")],
        Some(set("other_sets")),
        set_operation_type,
        |args, ret| set_operation(args, ret, Operation::Intersection),
    ));
    table.insert(Function::with_type_fn(
        "setsubtract",
        vec![set("a"), set("b")],
        None,
        set_operation_type,
        |args, ret| set_operation(args, ret, Operation::Subtract),
    ));
    table.insert(setproduct());
}

#[derive(Clone, Copy, PartialEq)]
enum Operation {
    Union,
    Intersection,
    Subtract,
}

/// cty's `setOperationReturnType`: a set of the unified element type, ignoring empty sets of
/// dynamic elements (which convert to anything).
fn set_operation_type(args: &[Value]) -> Result<Type, FunctionError> {
    let mut etys = Vec::new();
    for arg in args {
        let Some(ety) = arg.ty().element().cloned() else {
            // cty asks a value of unknown type for its element type and panics.
            return Err(FunctionError::other(
                "panic in function implementation: not a collection type",
            ));
        };
        if arg.is_known() && arg.is_empty() && ety == Type::Dynamic {
            continue;
        }
        etys.push(ety);
    }
    if etys.is_empty() {
        return Ok(Type::set(Type::Dynamic));
    }
    match unify_unsafe(&etys) {
        Some((ety, _)) => Ok(Type::set(ety)),
        None => Err(FunctionError::other(
            "given sets must all have compatible element types",
        )),
    }
}

/// Whether a set holds an element equal to `v`.
fn has(set: &[Value], v: &Value) -> bool {
    set.iter().any(|e| matches!(e.equals(v), Value::Bool(true)))
}

/// cty's `setOperationImpl`: every argument converted to the result type, then combined left
/// to right. Only a union can be computed while elements are unknown.
fn set_operation(args: &[Value], ret: &Type, op: Operation) -> Result<Value, FunctionError> {
    let elem = ret.element().cloned().unwrap_or(Type::Dynamic);
    let mut acc: Vec<Value> = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let set = convert(arg, ret).map_err(|e| FunctionError::arg(i, e.message))?;
        if op != Operation::Union && !set.is_wholly_known() {
            return Ok(unknown_not_null(ret.clone()));
        }
        let items = set.elements();
        if i == 0 {
            acc = items.to_vec();
            continue;
        }
        acc = match op {
            Operation::Union => acc.into_iter().chain(items.iter().cloned()).collect(),
            Operation::Intersection => acc.into_iter().filter(|v| has(items, v)).collect(),
            Operation::Subtract => acc.into_iter().filter(|v| !has(items, v)).collect(),
        };
    }
    Ok(set_from(elem, acc))
}

/// cty's `setproduct`: a list of tuples when every argument is a list or tuple (in their
/// order), otherwise a set of tuples.
/// The most elements `setproduct` builds (listed in docs/compatibility.md: cty has no limit).
pub const MAX_PRODUCT: usize = 1_000_000;

fn setproduct() -> Function {
    Function::with_type_fn(
        "setproduct",
        Vec::new(),
        Some(Param::new("sets", Type::Dynamic).unknown_ok()),
        |args| {
            if args.len() < 2 {
                return Err(FunctionError::other("at least two arguments are required"));
            }
            let mut lists = 0;
            let mut etys = Vec::with_capacity(args.len());
            for (i, arg) in args.iter().enumerate() {
                match arg.ty() {
                    Type::Set(ety) => etys.push(*ety),
                    Type::List(ety) => {
                        etys.push(*ety);
                        lists += 1;
                    }
                    Type::Tuple(all) => {
                        lists += 1;
                        if all.is_empty() {
                            etys.push(Type::Dynamic);
                            continue;
                        }
                        match unify_unsafe(&all) {
                            Some((ety, _)) => etys.push(ety),
                            None => {
                                return Err(FunctionError::arg(
                                    i,
                                    "all elements must be of the same type",
                                ));
                            }
                        }
                    }
                    _ => return Err(FunctionError::arg(i, "a set or a list is required")),
                }
            }
            let product = Type::Tuple(etys.into());
            Ok(if lists == args.len() {
                Type::list(product)
            } else {
                Type::set(product)
            })
        },
        |args, ret| {
            let ety = ret.element().cloned().unwrap_or(Type::Dynamic);
            let empty = || match ret {
                Type::List(_) => list_val(&ety, Vec::new()),
                _ => set_from(ety.clone(), Vec::new()),
            };
            let lengths: Vec<Option<usize>> = args
                .iter()
                .map(|a| a.is_known().then(|| known_length(a)).flatten())
                .collect();
            if lengths.iter().any(Option::is_none) {
                return Ok(unknown_product(args, ret, empty()));
            }
            // The size is known before anything is built: refuse a product no composition
            // needs (cty would try to allocate it).
            let total = lengths
                .iter()
                .try_fold(1usize, |acc, l| acc.checked_mul(l.unwrap_or(0)));
            let total = match total {
                Some(0) => return Ok(empty()),
                Some(n) if n <= MAX_PRODUCT => n,
                _ => {
                    return Err(FunctionError::other(format!(
                        "the product would have {} elements; at most {MAX_PRODUCT} are allowed",
                        lengths
                            .iter()
                            .map(|l| l.unwrap_or(0).to_string())
                            .collect::<Vec<_>>()
                            .join(" × ")
                    )));
                }
            };
            let Type::Tuple(sub_etys) = &ety else {
                return Err(FunctionError::other("unexpected product element type"));
            };
            let mut product = Vec::with_capacity(total);
            let mut pos = vec![0; args.len()];
            for _ in 0..total {
                crate::eval::deadline::checkpoint();
                let mut tuple = Vec::with_capacity(args.len());
                for (j, &n) in pos.iter().enumerate() {
                    let v = &args[j].elements()[n];
                    let ty = &sub_etys[j];
                    if v.ty() == *ty {
                        tuple.push(v.clone());
                    } else {
                        tuple.push(convert(v, ty).map_err(|_| {
                            FunctionError::other(format!(
                                "failed to convert argVals[{j}][{n}] to {}; this is a bug in cty",
                                ty.friendly_name()
                            ))
                        })?);
                    }
                }
                product.push(Value::Tuple(tuple.into()));
                // The last argument varies fastest.
                for j in (0..pos.len()).rev() {
                    pos[j] += 1;
                    if pos[j] < args[j].elements().len() {
                        break;
                    }
                    pos[j] = 0;
                }
            }
            Ok(match ret {
                Type::List(_) => list_val(&ety, product),
                _ => set_from(ety, product),
            })
        },
    )
}

/// The result when some argument's length is unknown: cty bounds the length from above, and a
/// bound of zero makes the result a known empty collection; other bounds we cannot record.
fn unknown_product(args: &[Value], ret: &Type, empty: Value) -> Value {
    let unknown = unknown_not_null(ret.clone());
    let mut max_length: usize = 1;
    for arg in args {
        let arg_max = match arg.ty() {
            Type::Tuple(etys) => etys.len(),
            _ if arg.is_known() => known_length(arg).unwrap_or(usize::MAX),
            _ => usize::MAX,
        };
        if arg_max > 1024 {
            return unknown;
        }
        max_length *= arg_max;
        if max_length > 2048 {
            return unknown;
        }
    }
    if max_length == 0 { empty } else { unknown }
}
