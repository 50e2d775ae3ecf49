//! The registry of built-in functions: cty's stdlib and Terraform's functions as
//! function-hcl registers them.
//!
//! Families of functions live in one file each and register themselves in [`builtins`]; the
//! evaluator looks names up in a [`FunctionTable`] (its types live in `eval::table`, and are
//! re-exported here). `try` and `can` are registered here but evaluated by the expression
//! evaluator, because they take unevaluated expressions.

pub mod args;
mod collection;
mod conversion;
mod crypto;
mod datetime;
pub use datetime::pin_clock;
mod encoding;
mod network;
mod number;
mod string;

pub use super::budget::{MAX_STRING_BYTES, string_too_long};
pub use super::table::{Function, FunctionError, FunctionTable, ImplFn, Param, Special, TypeFn};

/// The built-in functions function-hcl registers (filled family by family).
pub fn builtins() -> FunctionTable {
    let mut table = FunctionTable::special_forms();
    collection::register(&mut table);
    conversion::register(&mut table);
    crypto::register(&mut table);
    datetime::register(&mut table);
    encoding::register(&mut table);
    network::register(&mut table);
    number::register(&mut table);
    string::register(&mut table);
    for name in REFINED_NOT_NULL {
        if let Some(f) = table.get_mut(name) {
            f.refine_not_null = true;
        }
    }
    table
}

/// The registered functions that come from cty's stdlib with `RefineResult: refineNonNull`
/// (Terraform's own copies and stdlib's element, jsondecode, lookup, index and timeadd have no
/// refinement).
const REFINED_NOT_NULL: &[&str] = &[
    "abs",
    "ceil",
    "chomp",
    "chunklist",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "distinct",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "join",
    "jsonencode",
    "keys",
    "log",
    "lower",
    "max",
    "merge",
    "min",
    "parseint",
    "pow",
    "range",
    "regex",
    "regexall",
    "reverse",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "signum",
    "slice",
    "sort",
    "split",
    "strrev",
    "substr",
    "title",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "upper",
    "values",
    "zipmap",
];

/// The functions function-hcl registers (function-hcl-semantics.md §6), without `invoke`,
/// which the program layer adds.
pub const REGISTERED: &[&str] = &[
    "abs",
    "alltrue",
    "anytrue",
    "base64decode",
    "base64encode",
    "base64gzip",
    "base64sha256",
    "base64sha512",
    "can",
    "ceil",
    "chomp",
    "chunklist",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "distinct",
    "element",
    "endswith",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    "list",
    "log",
    "lookup",
    "lower",
    "map",
    "matchkeys",
    "max",
    "md5",
    "merge",
    "min",
    "one",
    "parseint",
    "pow",
    "range",
    "regex",
    "regexall",
    "replace",
    "reverse",
    "rsadecrypt",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "startswith",
    "strcontains",
    "strrev",
    "substr",
    "sum",
    "textdecodebase64",
    "textencodebase64",
    "timeadd",
    "timecmp",
    "timestamp",
    "title",
    "tobool",
    "tolist",
    "tomap",
    "tonumber",
    "toset",
    "tostring",
    "transpose",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "upper",
    "urlencode",
    "values",
    "yamldecode",
    "yamlencode",
    "zipmap",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::types::Type;
    use crate::eval::value::Value;
    use std::collections::BTreeMap;

    #[test]
    fn the_registry_is_exactly_function_hcls_list() {
        let table = builtins();
        let names: Vec<&str> = table.names().collect();
        let mut want = REGISTERED.to_vec();
        want.sort_unstable();
        assert_eq!(names, want);
        assert_eq!(REGISTERED.len(), 96);
    }

    /// The value of `src` with the built-ins, and `x` and `m` unknown.
    fn run(src: &str) -> Value {
        use crate::eval::expr::Evaluator;
        use crate::eval::scope::Scope;
        let table = builtins();
        let mut vars = BTreeMap::new();
        vars.insert("x".to_string(), Value::unknown(Type::String));
        vars.insert("m".to_string(), Value::unknown(Type::map(Type::String)));
        let mut map = crate::source::SourceMap::new();
        let id = map.add("test.hcl", src);
        let (expr, parse_diags) = crate::syntax::parse_expression(map.get(id));
        assert!(parse_diags.is_empty(), "{src}: {parse_diags:?}");
        let scope = Scope {
            variables: vars,
            functions: Some(&table),
            parent: None,
            bound: Default::default(),
        };
        let (value, diags) = Evaluator::new(id).with_sources(&map).eval(&expr, &scope);
        assert!(diags.is_empty(), "{diags:?}");
        value
    }

    #[test]
    fn refined_functions_give_not_null_unknowns() {
        // cty's refineNonNull: `upper(x)` with x unknown is an unknown string that is not null, so
        // comparing it with null is decided; Terraform's own functions (lookup) carry no refinement.
        let value = run("upper(x) != null");
        assert!(matches!(value, Value::Bool(true)), "{value:?}");
        let value = run("lookup(m, \"k\", \"d\") != null");
        assert!(!value.is_known(), "{value:?}");
    }
}
