//! Evaluation scopes: variables and functions in a parent chain, as hcl's `EvalContext`.

use super::table::FunctionTable;
use super::value::Value;
use std::collections::BTreeMap;

/// One level of variables (and optionally functions), with a parent.
#[derive(Debug, Default)]
pub struct Scope<'p> {
    /// Variables defined at this level.
    pub variables: BTreeMap<String, Value>,
    /// Functions defined at this level (`None` falls through to the parent).
    pub functions: Option<&'p FunctionTable>,
    /// The enclosing scope.
    pub parent: Option<&'p Scope<'p>>,
}

impl<'p> Scope<'p> {
    /// A root scope with functions and no variables.
    pub fn root(functions: &'p FunctionTable) -> Scope<'p> {
        Scope {
            variables: BTreeMap::new(),
            functions: Some(functions),
            parent: None,
        }
    }

    /// A child scope with these variables.
    pub fn child(&'p self, variables: BTreeMap<String, Value>) -> Scope<'p> {
        Scope {
            variables,
            functions: None,
            parent: Some(self),
        }
    }

    /// The variable `name` from the nearest scope that defines it.
    pub fn lookup(&self, name: &str) -> Option<&Value> {
        let mut scope = Some(self);
        while let Some(s) = scope {
            if let Some(v) = s.variables.get(name) {
                return Some(v);
            }
            scope = s.parent;
        }
        None
    }

    /// Whether any level defines variables (hcl: "Variables not allowed" otherwise).
    pub fn has_variables(&self) -> bool {
        let mut scope = Some(self);
        while let Some(s) = scope {
            if !s.variables.is_empty() {
                return true;
            }
            scope = s.parent;
        }
        false
    }

    /// Every variable name in scope, sorted and deduplicated (for "Did you mean").
    pub fn variable_names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        let mut scope = Some(self);
        while let Some(s) = scope {
            names.extend(s.variables.keys().map(String::as_str));
            scope = s.parent;
        }
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The nearest function table.
    pub fn functions(&self) -> Option<&'p FunctionTable> {
        let mut scope = Some(self);
        while let Some(s) = scope {
            if let Some(f) = s.functions {
                return Some(f);
            }
            scope = s.parent;
        }
        None
    }
}
