//! cel-go's types, as the checker and the runtime name them.

use std::collections::BTreeMap;
use std::sync::Arc;

/// A CEL type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `dyn`: any value, checked at run time.
    Dyn,
    /// `null_type`
    Null,
    /// `bool`
    Bool,
    /// `int`
    Int,
    /// `uint`
    Uint,
    /// `double`
    Double,
    /// `string`
    String,
    /// `bytes`
    Bytes,
    /// `google.protobuf.Timestamp`
    Timestamp,
    /// `google.protobuf.Duration`
    Duration,
    /// `list(T)`
    List(Arc<Type>),
    /// `map(K, V)`
    Map(Arc<Type>, Arc<Type>),
    /// `type(T)`: the type of a type value (`type(int)` for the identifier `int`).
    Type(Arc<Type>),
    /// A named abstract type with parameters: `optional_type(T)`, `kubernetes.URL`,
    /// `kubernetes.Quantity`, `net.IP`, `net.CIDR`, `kubernetes.Semver`,
    /// `kubernetes.NamedFormat`…
    Opaque(Arc<str>, Arc<[Type]>),
    /// An object type declared by a schema (the API server's object `DeclType`s).
    Object(Arc<ObjectType>),
    /// A type parameter of an overload signature (`A` in `list(A).size()`), or a type
    /// variable the checker made.
    Param(Arc<str>),
    /// The checker's error type (`*error*`).
    Error,
}

/// An object type: a name and its fields' types.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObjectType {
    /// The type's name, as messages show it.
    pub name: String,
    /// The fields (by their CEL names, escaped as the API server escapes property names).
    pub fields: BTreeMap<String, Type>,
}

impl Type {
    /// `list(elem)`.
    pub fn list(elem: Type) -> Type {
        Type::List(Arc::new(elem))
    }

    /// `map(key, value)`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Arc::new(key), Arc::new(value))
    }

    /// `optional_type(elem)`.
    pub fn optional(elem: Type) -> Type {
        Type::Opaque(OPTIONAL.into(), Arc::new([elem]))
    }

    /// An opaque type without parameters (`kubernetes.URL`).
    pub fn opaque(name: &str) -> Type {
        Type::Opaque(name.into(), Arc::new([]))
    }

    /// A type parameter.
    pub fn param(name: &str) -> Type {
        Type::Param(name.into())
    }

    /// `type(of)`.
    pub fn type_of(of: Type) -> Type {
        Type::Type(Arc::new(of))
    }
}

/// The name of the optional type.
pub const OPTIONAL: &str = "optional_type";

impl std::fmt::Display for Type {
    /// cel-go's `FormatCELType`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Type::Dyn => f.write_str("dyn"),
            Type::Null => f.write_str("null_type"),
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Uint => f.write_str("uint"),
            Type::Double => f.write_str("double"),
            Type::String => f.write_str("string"),
            Type::Bytes => f.write_str("bytes"),
            Type::Timestamp => f.write_str("google.protobuf.Timestamp"),
            Type::Duration => f.write_str("google.protobuf.Duration"),
            Type::List(e) => write!(f, "list({e})"),
            Type::Map(k, v) => write!(f, "map({k}, {v})"),
            Type::Type(t) => write!(f, "type({t})"),
            Type::Opaque(name, params) if params.is_empty() => f.write_str(name),
            Type::Opaque(name, params) => {
                write!(f, "{name}(")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(")")
            }
            Type::Object(o) => f.write_str(&o.name),
            Type::Param(name) => f.write_str(name),
            Type::Error => f.write_str("*error*"),
        }
    }
}
