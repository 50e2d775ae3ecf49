//! cty's type system: primitives, collections (list, map, set), structural types (tuple,
//! object) and the dynamic pseudo-type.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A cty type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `cty.DynamicPseudoType`: any type, not yet known.
    Dynamic,
    /// `cty.Bool`.
    Bool,
    /// `cty.Number`.
    Number,
    /// `cty.String`.
    String,
    /// `cty.List(elem)`.
    List(Box<Type>),
    /// `cty.Map(elem)`.
    Map(Box<Type>),
    /// `cty.Set(elem)`.
    Set(Box<Type>),
    /// `cty.Tuple([...])`. Element types are shared, so a clone is cheap whatever the size.
    Tuple(Arc<Vec<Type>>),
    /// `cty.Object({...})`, attributes by name, shared like a tuple's.
    Object(Arc<BTreeMap<String, Type>>),
}

impl Type {
    /// A list type.
    pub fn list(elem: Type) -> Type {
        Type::List(Box::new(elem))
    }

    /// A map type.
    pub fn map(elem: Type) -> Type {
        Type::Map(Box::new(elem))
    }

    /// A set type.
    pub fn set(elem: Type) -> Type {
        Type::Set(Box::new(elem))
    }

    /// The empty object type.
    pub fn empty_object() -> Type {
        Type::Object(BTreeMap::new().into())
    }

    /// Bool, number or string.
    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::Bool | Type::Number | Type::String)
    }

    /// List, map or set.
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Map(_) | Type::Set(_))
    }

    /// The element type of a collection.
    pub fn element(&self) -> Option<&Type> {
        match self {
            Type::List(e) | Type::Map(e) | Type::Set(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the type has no dynamic part anywhere.
    pub fn is_concrete(&self) -> bool {
        match self {
            Type::Dynamic => false,
            Type::Bool | Type::Number | Type::String => true,
            Type::List(e) | Type::Map(e) | Type::Set(e) => e.is_concrete(),
            Type::Tuple(items) => items.iter().all(Type::is_concrete),
            Type::Object(attrs) => attrs.values().all(Type::is_concrete),
        }
    }

    /// cty's `FriendlyName` ("string", "list of number", "object", …), used in messages.
    pub fn friendly_name(&self) -> String {
        match self {
            Type::Dynamic => "dynamic".into(),
            Type::Bool => "bool".into(),
            Type::Number => "number".into(),
            Type::String => "string".into(),
            Type::List(e) => format!("list of {}", e.friendly_name()),
            Type::Map(e) => format!("map of {}", e.friendly_name()),
            Type::Set(e) => format!("set of {}", e.friendly_name()),
            Type::Tuple(_) => "tuple".into(),
            Type::Object(_) => "object".into(),
        }
    }

    /// cty's `FriendlyNameForConstraint`: like [`Type::friendly_name`] but `any type` for dynamic.
    pub fn friendly_name_for_constraint(&self) -> String {
        match self {
            Type::Dynamic => "any type".into(),
            Type::List(e) | Type::Map(e) | Type::Set(e) if **e == Type::Dynamic => {
                let kind = match self {
                    Type::List(_) => "list",
                    Type::Map(_) => "map",
                    _ => "set",
                };
                format!("{kind} of any single type")
            }
            Type::List(e) => format!("list of {}", e.friendly_name_for_constraint()),
            Type::Map(e) => format!("map of {}", e.friendly_name_for_constraint()),
            Type::Set(e) => format!("set of {}", e.friendly_name_for_constraint()),
            other => other.friendly_name(),
        }
    }

    /// cty's `GoString` (`cty.Number`, `cty.List(cty.String)`, `cty.Object(map[string]cty.Type{…})`).
    pub fn go_string(&self) -> String {
        match self {
            Type::Dynamic => "cty.DynamicPseudoType".into(),
            Type::Bool => "cty.Bool".into(),
            Type::Number => "cty.Number".into(),
            Type::String => "cty.String".into(),
            Type::List(e) => format!("cty.List({})", e.go_string()),
            Type::Map(e) => format!("cty.Map({})", e.go_string()),
            Type::Set(e) => format!("cty.Set({})", e.go_string()),
            Type::Tuple(items) => format!(
                "cty.Tuple([]cty.Type{{{}}})",
                items
                    .iter()
                    .map(Type::go_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Type::Object(attrs) => format!(
                "cty.Object(map[string]cty.Type{{{}}})",
                attrs
                    .iter()
                    .map(|(k, v)| format!("{k:?}:{}", v.go_string()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.friendly_name())
    }
}
