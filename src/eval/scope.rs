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
    /// A `for`'s iteration variables, value first, then key: names borrowed from the tree and
    /// values replaced at each element ([`Scope::iteration`], [`Scope::rebind`]), looked up
    /// before `variables`. No map is built for each `for` evaluated.
    pub bound: [Option<(&'p str, Value)>; 2],
}

impl<'p> Scope<'p> {
    /// A root scope with functions and no variables.
    pub fn root(functions: &'p FunctionTable) -> Scope<'p> {
        Scope {
            variables: BTreeMap::new(),
            functions: Some(functions),
            parent: None,
            bound: Default::default(),
        }
    }

    /// A child scope with these variables.
    pub fn child(&'p self, variables: BTreeMap<String, Value>) -> Scope<'p> {
        Scope {
            variables,
            functions: None,
            parent: Some(self),
            bound: Default::default(),
        }
    }

    /// A child scope binding a `for`'s iteration variables, `value` and `key` (if any), both
    /// unknown until [`Scope::rebind`]. When both have one name, `value` is the one seen (as
    /// when it was the second put in a map).
    pub fn iteration(&'p self, value: &'p str, key: Option<&'p str>) -> Scope<'p> {
        Scope {
            variables: BTreeMap::new(),
            functions: None,
            parent: Some(self),
            bound: [
                Some((value, Value::dynamic())),
                key.map(|k| (k, Value::dynamic())),
            ],
        }
    }

    /// Gives the iteration variables of a scope from [`Scope::iteration`] the next element's
    /// value and key.
    pub fn rebind(&mut self, value: Value, key: Value) {
        let [v, k] = &mut self.bound;
        if let Some((_, slot)) = v {
            *slot = value;
        }
        if let Some((_, slot)) = k {
            *slot = key;
        }
    }

    /// The variable `name` from the nearest scope that defines it.
    pub fn lookup(&self, name: &str) -> Option<&Value> {
        let mut scope = Some(self);
        while let Some(s) = scope {
            for (bound, value) in s.bound.iter().flatten() {
                if *bound == name {
                    return Some(value);
                }
            }
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
            if !s.variables.is_empty() || s.bound.iter().any(Option::is_some) {
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
            names.extend(s.bound.iter().flatten().map(|(name, _)| *name));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_variables_are_seen_first_and_rebound_in_place() {
        let mut outer = BTreeMap::new();
        outer.insert("v".to_string(), Value::string("outer"));
        outer.insert("other".to_string(), Value::bool(true));
        let root = Scope::default();
        let top = root.child(outer);
        let mut each = top.iteration("v", Some("k"));
        assert!(each.lookup("v").is_some_and(|v| !v.is_known()));
        each.rebind(Value::string("value"), Value::string("key"));
        assert_eq!(each.lookup("v").and_then(Value::as_str), Some("value"));
        assert_eq!(each.lookup("k").and_then(Value::as_str), Some("key"));
        assert!(each.lookup("other").is_some());
        assert_eq!(each.variable_names(), ["k", "other", "v"]);
        // A `for` without a key binds only its value; one name for both is the value.
        let mut same = top.iteration("v", Some("v"));
        same.rebind(Value::string("value"), Value::string("key"));
        assert_eq!(same.lookup("v").and_then(Value::as_str), Some("value"));
        let alone = root.iteration("x", None);
        assert!(alone.has_variables());
        assert!(!root.has_variables());
        assert_eq!(alone.variable_names(), ["x"]);
    }
}
