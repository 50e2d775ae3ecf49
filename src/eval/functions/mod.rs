//! The function-call machinery of cty's `function` package: parameter specs, the calling
//! convention (null, unknown and dynamic handling), and the registry of built-in functions.
//!
//! Families of functions live in one file each and register themselves in [`builtins`]; the
//! evaluator looks names up in a [`FunctionTable`]. `try` and `can` are registered here but
//! evaluated by the expression evaluator, because they take unevaluated expressions.

pub mod args;
mod collection;
mod conversion;
mod crypto;
mod datetime;
pub use datetime::pin_clock;

/// The longest string a function call or a template may build: 128 MiB. Far beyond real
/// values (a 100 MB string still works), and it stops chains that grow strings geometrically
/// (`jsonencode(jsonencode(…))` doubles the escapes at each level; a template `"${a}${a}"`
/// applied thirty times makes a gigabyte). cty has no limit: docs/compatibility.md.
pub const MAX_STRING_BYTES: usize = 128 << 20;

/// The message for a string past [`MAX_STRING_BYTES`].
pub fn string_too_long(len: usize) -> String {
    format!(
        "the result would be a string of {len} bytes, more than fnhcl's limit of {MAX_STRING_BYTES} (128 MiB)"
    )
}
mod encoding;
mod network;
mod number;
mod string;

use super::types::Type;
use super::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One parameter of a function (cty's `function.Parameter`).
#[derive(Clone, Debug)]
pub struct Param {
    /// The name shown in messages (`Invalid value for "str" parameter`).
    pub name: &'static str,
    /// The type arguments are converted to (`Type::Dynamic` accepts anything).
    pub ty: Type,
    /// Null is passed to the implementation instead of being an error.
    pub allow_null: bool,
    /// Unknown values are passed to the implementation instead of making the result unknown.
    pub allow_unknown: bool,
    /// Values of not-yet-known type are passed instead of making the result unknown.
    pub allow_dynamic_type: bool,
}

impl Param {
    /// A parameter of a type that allows neither null nor unknown nor dynamic values.
    pub const fn new(name: &'static str, ty: Type) -> Param {
        Param {
            name,
            ty,
            allow_null: false,
            allow_unknown: false,
            allow_dynamic_type: false,
        }
    }

    /// A parameter that takes anything: null, unknown and not-yet-typed values included.
    pub fn any(name: &'static str) -> Param {
        Param::new(name, Type::Dynamic)
            .null_ok()
            .unknown_ok()
            .dynamic_ok()
    }

    /// Allows null arguments.
    pub const fn null_ok(mut self) -> Param {
        self.allow_null = true;
        self
    }

    /// Allows unknown arguments.
    pub const fn unknown_ok(mut self) -> Param {
        self.allow_unknown = true;
        self
    }

    /// Allows arguments of dynamic type.
    pub const fn dynamic_ok(mut self) -> Param {
        self.allow_dynamic_type = true;
        self
    }
}

/// Why a call failed (cty's `function.ArgError` or a plain error).
#[derive(Clone, Debug, PartialEq)]
pub enum FunctionError {
    /// A problem with one argument (0-based index into the arguments as passed).
    Arg {
        /// The argument.
        index: usize,
        /// The message (`Invalid value for "x" parameter: …` is added by the caller).
        message: String,
    },
    /// Any other failure (`Call to function "f" failed: …`).
    Other(String),
}

impl FunctionError {
    /// An error about argument `index`.
    pub fn arg(index: usize, message: impl Into<String>) -> FunctionError {
        FunctionError::Arg {
            index,
            message: message.into(),
        }
    }

    /// Any other error.
    pub fn other(message: impl Into<String>) -> FunctionError {
        FunctionError::Other(message.into())
    }
}

/// Computes the return type from the (converted) arguments; unknown arguments may appear.
pub type TypeFn = Arc<dyn Fn(&[Value]) -> Result<Type, FunctionError> + Send + Sync>;
/// Computes the result from the (converted, known where required) arguments and the return
/// type the [`TypeFn`] gave.
pub type ImplFn = Arc<dyn Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync>;

/// How the evaluator must treat a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// An ordinary function.
    None,
    /// `try(expr…)`: evaluated by the expression evaluator.
    Try,
    /// `can(expr)`: evaluated by the expression evaluator.
    Can,
}

/// A function: its parameters and implementation (cty's `function.Spec`).
#[derive(Clone)]
pub struct Function {
    /// The name it is registered under.
    pub name: &'static str,
    /// Positional parameters.
    pub params: Vec<Param>,
    /// The variadic parameter, if any.
    pub var_param: Option<Param>,
    /// The return type.
    pub ret: TypeFn,
    /// The implementation.
    pub imp: ImplFn,
    /// `try`/`can`.
    pub special: Special,
    /// cty's `RefineResult: refineNonNull`: an unknown result of a known type is known not to be
    /// null, however the call returns (also when an unknown argument skips the implementation).
    pub refine_not_null: bool,
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Function({})", self.name)
    }
}

impl Function {
    /// A function with a fixed return type.
    pub fn new(
        name: &'static str,
        params: Vec<Param>,
        var_param: Option<Param>,
        ret: Type,
        imp: impl Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync + 'static,
    ) -> Function {
        Function::with_type_fn(name, params, var_param, move |_| Ok(ret.clone()), imp)
    }

    /// A function whose return type depends on its arguments.
    pub fn with_type_fn(
        name: &'static str,
        params: Vec<Param>,
        var_param: Option<Param>,
        ret: impl Fn(&[Value]) -> Result<Type, FunctionError> + Send + Sync + 'static,
        imp: impl Fn(&[Value], &Type) -> Result<Value, FunctionError> + Send + Sync + 'static,
    ) -> Function {
        Function {
            name,
            params,
            var_param,
            ret: Arc::new(ret),
            imp: Arc::new(imp),
            special: Special::None,
            refine_not_null: false,
        }
    }
}

/// Functions by name.
#[derive(Clone, Debug, Default)]
pub struct FunctionTable {
    functions: BTreeMap<String, Function>,
}

impl FunctionTable {
    /// An empty table.
    pub fn new() -> FunctionTable {
        FunctionTable::default()
    }

    /// Adds (or replaces) a function.
    pub fn insert(&mut self, function: Function) {
        self.functions.insert(function.name.to_string(), function);
    }

    /// The function called `name`.
    pub fn get(&self, name: &str) -> Option<&Function> {
        self.functions.get(name)
    }

    /// Every registered name, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.functions.keys().map(String::as_str)
    }
}

fn special(
    name: &'static str,
    special: Special,
    params: Vec<Param>,
    var_param: Option<Param>,
) -> Function {
    Function {
        name,
        params,
        var_param,
        ret: Arc::new(|_| Ok(Type::Dynamic)),
        imp: Arc::new(|_, _| {
            Err(FunctionError::other(
                "evaluated by the expression evaluator",
            ))
        }),
        special,
        refine_not_null: false,
    }
}

/// The built-in functions function-hcl registers (filled family by family).
pub fn builtins() -> FunctionTable {
    let mut table = FunctionTable::new();
    let any = Param::any;
    table.insert(special(
        "try",
        Special::Try,
        Vec::new(),
        Some(any("expressions")),
    ));
    table.insert(special("can", Special::Can, vec![any("expression")], None));
    collection::register(&mut table);
    conversion::register(&mut table);
    crypto::register(&mut table);
    datetime::register(&mut table);
    encoding::register(&mut table);
    network::register(&mut table);
    number::register(&mut table);
    string::register(&mut table);
    for name in REFINED_NOT_NULL {
        if let Some(f) = table.functions.get_mut(*name) {
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

    #[test]
    fn the_registry_is_exactly_function_hcls_list() {
        let table = builtins();
        let names: Vec<&str> = table.names().collect();
        let mut want = REGISTERED.to_vec();
        want.sort_unstable();
        assert_eq!(names, want);
        assert_eq!(REGISTERED.len(), 96);
    }
}
