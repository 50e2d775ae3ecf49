//! The types of cty's `function` package: parameter specs, errors, a function's spec and the
//! table the evaluator looks names up in. Kept apart from the built-ins (`functions`) so that
//! scopes and the expression evaluator need only the table, never the functions themselves.

use super::types::Type;
use super::value::Value;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
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

/// A multiplicative hash over a function's name, eight bytes at a time, for
/// [`FunctionTable`]'s lookups: a few instructions per word where byte-at-a-time FNV-1a, std's
/// keyed SipHash or an ordered search by comparisons cost several times more on every call.
/// A table's names are all `&'static str`s of fnhcl's own (a program's functions are called
/// through `invoke`), so no input can choose colliding keys.
#[derive(Clone, Copy, Debug)]
struct NameHasher(u64);

impl Default for NameHasher {
    fn default() -> NameHasher {
        NameHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl NameHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        // The multiplications carry low bits up only: fold the high half down, where the
        // table takes its bucket from.
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            self.mix(u64::from_le_bytes(w));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            // The length marks how much of the last word is name (`a` is not `a\0`).
            self.mix(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 60));
        }
    }
}

/// A name's bit in [`FunctionTable`]'s `lengths`: its length, or 63 for any longer name.
fn length_bit(name: &str) -> u64 {
    1 << name.len().min(63)
}

type NameMap<V> = HashMap<&'static str, V, BuildHasherDefault<NameHasher>>;

/// Functions by name.
#[derive(Clone, Debug, Default)]
pub struct FunctionTable {
    functions: NameMap<Function>,
    /// The lengths of `functions`' names, a bit each ([`length_bit`]): a table over a base
    /// holds a few names (a program's `invoke`), and a lookup of any other length skips its
    /// hashing.
    lengths: u64,
    /// Where a name not in `functions` is looked up: the built-ins a program's own functions
    /// are added over, shared rather than copied for each program.
    base: Option<&'static FunctionTable>,
}

impl FunctionTable {
    /// An empty table.
    pub fn new() -> FunctionTable {
        FunctionTable::default()
    }

    /// A table of `base`'s functions, to which [`insert`](Self::insert) adds or replaces
    /// functions without changing `base`.
    pub fn over(base: &'static FunctionTable) -> FunctionTable {
        FunctionTable {
            functions: NameMap::default(),
            lengths: 0,
            base: Some(base),
        }
    }

    /// A table of only `try` and `can`: the expression evaluator evaluates them itself,
    /// because they take unevaluated expressions; their entries give arity and messages.
    pub fn special_forms() -> FunctionTable {
        let mut table = FunctionTable::new();
        let any = Param::any;
        table.insert(special(
            "try",
            Special::Try,
            Vec::new(),
            Some(any("expressions")),
        ));
        table.insert(special("can", Special::Can, vec![any("expression")], None));
        table
    }

    /// Adds (or replaces) a function.
    pub fn insert(&mut self, function: Function) {
        self.lengths |= length_bit(function.name);
        self.functions.insert(function.name, function);
    }

    /// The function called `name`.
    pub fn get(&self, name: &str) -> Option<&Function> {
        if self.lengths & length_bit(name) != 0
            && let Some(function) = self.functions.get(name)
        {
            return Some(function);
        }
        self.base.and_then(|base| base.get(name))
    }

    /// The function called `name` in this table itself (not its base), to adjust after
    /// registration (the refinements).
    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut Function> {
        self.functions.get_mut(name)
    }

    /// Every registered name, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        let mut names: Vec<&str> = self.functions.keys().copied().collect();
        if let Some(base) = self.base {
            names.extend(base.names());
        }
        names.sort_unstable();
        names.dedup();
        names.into_iter()
    }
}

/// The entry of a special form; its implementation never runs.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A function called `name` that returns `says`.
    fn saying(name: &'static str, says: &'static str) -> Function {
        Function::new(name, Vec::new(), None, Type::String, move |_, _| {
            Ok(Value::string(says))
        })
    }

    fn call(table: &FunctionTable, name: &str) -> Option<String> {
        let f = table.get(name)?;
        let value = (f.imp)(&[], &Type::String).unwrap();
        value.as_str().map(str::to_string)
    }

    #[test]
    fn a_table_over_a_base_finds_its_own_names_first_and_the_base_for_the_rest() {
        let long: &'static str = Box::leak("l".repeat(100).into_boxed_str());
        let longer: &'static str = Box::leak("m".repeat(100).into_boxed_str());
        let long_63: &'static str = Box::leak("n".repeat(63).into_boxed_str());
        let mut base = FunctionTable::new();
        for name in ["invoke", "upper", "x", longer, long_63, "abcdef"] {
            base.insert(saying(name, name));
        }
        let base: &'static FunctionTable = Box::leak(Box::new(base));
        let mut table = FunctionTable::over(base);
        table.insert(saying("invoke", "own"));
        table.insert(saying(long, long));
        for (name, want) in [
            ("invoke", Some("own")),
            // The same length as the table's own `invoke`, found in the base.
            ("abcdef", Some("abcdef")),
            ("upper", Some("upper")),
            ("x", Some("x")),
            (long, Some(long)),
            // Lengths past 63 share a bit.
            (longer, Some(longer)),
            (long_63, Some(long_63)),
            ("nosuch", None),
            ("", None),
        ] {
            assert_eq!(call(&table, name).as_deref(), want, "{name}");
        }
    }

    #[test]
    fn every_built_in_is_found_by_its_name_whatever_its_length() {
        let table = crate::eval::functions::builtins();
        let names: Vec<&str> = table.names().collect();
        for name in [
            "try",
            "can",
            "abs",
            "format",
            "jsonencode",
            "cidrsubnet",
            "formatdate",
        ] {
            assert!(names.contains(&name), "{name}");
        }
        for name in &names {
            assert_eq!(table.get(name).map(|f| f.name), Some(*name));
            // A name's prefixes and extensions (across the eight-byte words hashed) are
            // other keys.
            for other in [
                &name[..name.len() - 1],
                &format!("{name}\0"),
                &format!("{name}s"),
            ] {
                if !names.contains(&other) {
                    assert!(table.get(other).is_none(), "{other:?}");
                }
            }
        }
    }
}
