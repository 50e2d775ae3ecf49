//! cel-go's extension libraries as the API server enables them: strings (version 2),
//! lists (version 3), sets, the optional types' functions, and the runtime helpers of
//! two-variable comprehensions. Overload ids, signatures and error messages are
//! cel-go v0.26.0's; the cost model keys on the overload ids.

pub mod comprehensions;
pub mod format;
pub mod gofmt;
pub mod lists;
pub mod optional;
pub mod pdqsort;
pub mod sets;
pub mod strings;

#[cfg(test)]
mod tests;

use super::env::Function;
use super::value::{Error, List, Value};
use std::sync::Arc;

/// The extension libraries' functions.
pub fn functions() -> Vec<Function> {
    let mut out = strings::functions();
    out.extend(lists::functions());
    out.extend(sets::functions());
    out.extend(optional::functions());
    out.extend(comprehensions::functions());
    out
}

/// The longest string (in bytes) a function here builds. cel-go has no such bound, but
/// its cost tracker, charging after each call, fails any evaluation that builds anything
/// this big (a string byte costs 0.1, the API server's per-call limit is 10^6 units):
/// refusing beforehand spares the memory and gives the cost limit's error.
pub const MAX_STRING: usize = 1 << 25;

/// The longest list (in elements) a function here builds; as [`MAX_STRING`] (a list
/// element costs 1).
pub const MAX_LIST: usize = 1 << 21;

/// The most element comparisons a quadratic function here (`distinct`, `sets.*`) makes;
/// cel-go charges one unit per comparison, so past this the cost limit has been passed
/// long before: refusing beforehand bounds the time.
pub const MAX_COMPARISONS: u64 = 1 << 27;

/// The error for work past [`MAX_STRING`], [`MAX_LIST`] or [`MAX_COMPARISONS`].
pub(crate) fn too_big() -> Error {
    Error::new(super::cost::LIMIT_EXCEEDED)
}

/// Argument `i` as a string, or the dispatcher's `no such overload`.
pub(crate) fn str_arg(args: &[Value], i: usize) -> Result<&Arc<str>, Error> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(Error::no_such_overload()),
    }
}

/// Argument `i` as an int, or the dispatcher's `no such overload`.
pub(crate) fn int_arg(args: &[Value], i: usize) -> Result<i64, Error> {
    match args.get(i) {
        Some(Value::Int(n)) => Ok(*n),
        _ => Err(Error::no_such_overload()),
    }
}

/// Argument `i` as a list, or the dispatcher's `no such overload`.
pub(crate) fn list_arg(args: &[Value], i: usize) -> Result<&Arc<List>, Error> {
    match args.get(i) {
        Some(Value::List(l)) => Ok(l),
        _ => Err(Error::no_such_overload()),
    }
}
