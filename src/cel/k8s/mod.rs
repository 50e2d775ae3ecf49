//! Kubernetes' CEL libraries as k8s.io/apiserver v0.35 `pkg/cel/library` declares them for
//! CRD validation rules (`environment/base.go`): lists, regex, URLs, quantity, IP, CIDR,
//! format and semver (version 1). Overload ids, signatures and error messages are the
//! library's; the cost model keys on the ids.
//!
//! Each submodule has a `functions()` with its declarations; [`functions`] gathers them
//! (functions of the same name from different libraries, such as `string` or `isLessThan`,
//! are merged by [`super::env::Env::declare`]).
//!
//! Beyond the functions: [`regex::program_error`] finds the `find`/`findAll` literal pattern
//! that fails a program when the API server builds it; the library values implement
//! [`super::value::Opaque::equal_error`] (Kubernetes' types refuse `==` with another type);
//! the parsers ([`ip::parse_addr`], [`cidr::parse_prefix`], [`urls::parse_request_uri`],
//! [`quantity::parse`], [`semver::parse`]) are public for other layers that need Go's rules.

pub mod cidr;
pub mod format;
pub mod ip;
pub mod lists;
pub mod quantity;
pub mod regex;
pub mod semver;
pub mod urls;

#[cfg(test)]
mod tests;

use super::env::Function;
use super::value::{Error, Value};

/// The Kubernetes libraries' functions.
pub fn functions() -> Vec<Function> {
    let mut all = Vec::new();
    all.extend(urls::functions());
    all.extend(regex::functions());
    all.extend(lists::functions());
    all.extend(quantity::functions());
    all.extend(ip::functions());
    all.extend(cidr::functions());
    all.extend(format::functions());
    all.extend(semver::functions());
    all
}

/// The library value of type `T` inside `v`, if it is one.
pub(crate) fn opaque<T: 'static>(v: &Value) -> Option<&T> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<T>(),
        _ => None,
    }
}

/// Argument `i`, or cel-go's `no such overload` when the call has fewer.
pub(crate) fn arg(args: &[Value], i: usize) -> Result<&Value, Error> {
    args.get(i).ok_or_else(Error::no_such_overload)
}

/// Argument `i` as a string, or `no such overload`.
pub(crate) fn str_arg(args: &[Value], i: usize) -> Result<&str, Error> {
    match arg(args, i)? {
        Value::String(s) => Ok(s),
        _ => Err(Error::no_such_overload()),
    }
}

/// Argument `i` as the library value `T`, or `no such overload`.
pub(crate) fn opaque_arg<T: 'static>(args: &[Value], i: usize) -> Result<&T, Error> {
    opaque::<T>(arg(args, i)?).ok_or_else(Error::no_such_overload)
}

/// Go's `strconv.Quote` (what `%q` prints for a string).
pub(crate) fn go_quote(s: &str) -> String {
    crate::gostd::strconv::quote(s)
}

/// The `no such overload` a Kubernetes type's `Equal` answers for a value it does not accept
/// (`types.MaybeNoSuchOverloadErr`).
pub(crate) fn equal_no_such_overload() -> Option<Error> {
    Some(Error::no_such_overload())
}
