//! Declarations: functions with their overloads (signature and implementation) and
//! variables. The checker resolves calls against them; the interpreter dispatches on them.

use super::types::Type;
use super::value::{Error, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// An overload's implementation: the arguments (the receiver first for member calls),
/// already evaluated.
pub type Impl = Arc<dyn Fn(&[Value]) -> Result<Value, Error> + Send + Sync>;

/// One overload of a function.
#[derive(Clone)]
pub struct Overload {
    /// cel-go's overload id (`add_int64`, `string_lower_ascii`, `list_sets_contains_list`…):
    /// the cost model is keyed by it.
    pub id: String,
    /// Whether it is called receiver-style (`s.size()`), the receiver being `params[0]`.
    pub member: bool,
    /// Parameter types, with [`Type::Param`]s for type parameters.
    pub params: Vec<Type>,
    /// The result type.
    pub result: Type,
    /// The implementation; `None` for overloads the interpreter implements itself
    /// (logical operators, the ternary, `@not_strictly_false`).
    pub imp: Option<Impl>,
    /// Whether the interpreter checks the arguments' runtime types against `params` before
    /// calling `imp` (cel-go's type guards). `false` (see [`Function::unguarded`]) for
    /// overloads cel-go calls with any arguments of the right number and call style, the
    /// implementation checking for itself: `flatten` (type guards disabled) and functions
    /// with one implementation for all their overloads (`sort`, `@sortByAssociatedKeys`).
    pub guarded: bool,
}

impl std::fmt::Debug for Overload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overload")
            .field("id", &self.id)
            .field("member", &self.member)
            .field("params", &self.params)
            .field("result", &self.result)
            .finish()
    }
}

/// A function: its name and overloads.
#[derive(Clone, Debug)]
pub struct Function {
    /// The name as called (`size`, `_+_`, `sets.contains`, `lists.range`).
    pub name: String,
    /// The overloads, in declaration order.
    pub overloads: Vec<Overload>,
}

impl Function {
    /// A function without overloads yet.
    pub fn new(name: &str) -> Function {
        Function {
            name: name.to_string(),
            overloads: Vec::new(),
        }
    }

    /// Adds a global overload (`f(a, b)`).
    pub fn global(
        mut self,
        id: &str,
        params: Vec<Type>,
        result: Type,
        imp: impl Fn(&[Value]) -> Result<Value, Error> + Send + Sync + 'static,
    ) -> Function {
        self.overloads.push(Overload {
            id: id.to_string(),
            member: false,
            params,
            result,
            imp: Some(Arc::new(imp)),
            guarded: true,
        });
        self
    }

    /// Adds a member overload (`a.f(b)`): `params[0]` is the receiver's type.
    pub fn member(
        mut self,
        id: &str,
        params: Vec<Type>,
        result: Type,
        imp: impl Fn(&[Value]) -> Result<Value, Error> + Send + Sync + 'static,
    ) -> Function {
        self.overloads.push(Overload {
            id: id.to_string(),
            member: true,
            params,
            result,
            imp: Some(Arc::new(imp)),
            guarded: true,
        });
        self
    }

    /// Adds an overload the interpreter implements itself.
    pub fn declared(mut self, id: &str, member: bool, params: Vec<Type>, result: Type) -> Function {
        self.overloads.push(Overload {
            id: id.to_string(),
            member,
            params,
            result,
            imp: None,
            guarded: true,
        });
        self
    }

    /// Marks the overloads so far as unguarded (see [`Overload::guarded`]).
    pub fn unguarded(mut self) -> Function {
        for o in &mut self.overloads {
            o.guarded = false;
        }
        self
    }
}

/// What an expression may use.
#[derive(Clone, Debug, Default)]
pub struct Env {
    /// Functions by name, shared between environments cloned from one another (adding a
    /// variable to a clone copies no function).
    pub functions: Arc<HashMap<String, Function>>,
    /// Variables by name (`self`, `oldSelf`).
    pub variables: HashMap<String, Type>,
}

impl Env {
    /// An empty environment.
    pub fn new() -> Env {
        Env::default()
    }

    /// Adds functions, merging overloads into functions of the same name.
    pub fn declare(&mut self, functions: impl IntoIterator<Item = Function>) {
        let table = Arc::make_mut(&mut self.functions);
        for f in functions {
            match table.get_mut(&f.name) {
                Some(existing) => existing.overloads.extend(f.overloads),
                None => {
                    table.insert(f.name.clone(), f);
                }
            }
        }
    }

    /// Declares a variable.
    pub fn variable(&mut self, name: &str, ty: Type) {
        self.variables.insert(name.to_string(), ty);
    }
}
