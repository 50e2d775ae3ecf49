//! The CEL type a schema node declares (the API server's `DeclType`, apiserver
//! `pkg/cel/common/schemas.go`): what the checker types `self` as, and the size bounds the
//! cost estimator reads.
//!
//! Property names are escaped as the API server escapes them (`pkg/cel/escaping.go`): CEL
//! reserved words become `__in__`, `__` becomes `__underscores__`, `.` `__dot__`, `-`
//! `__dash__`, `/` `__slash__`; a name with any other character (or starting with a digit) is
//! not visible to rules at all.

use super::node::{Additional, Node, Type as Kind};
use crate::cel::types::{ObjectType, Type};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The largest request the API server accepts, which bounds every size it estimates.
const MAX_REQUEST_BYTES: i64 = crate::cel::cost::MAX_REQUEST_SIZE_BYTES as i64;
use crate::cel::cost::{SizeEstimate, SizeEstimator};

/// A schema node's CEL type with its bounds.
#[derive(Clone, Debug)]
pub struct Decl {
    /// The type.
    pub ty: Type,
    /// The most elements (list items, map entries, string bytes) a value can have.
    pub max_elements: i64,
    /// The fewest bytes a value takes serialised.
    pub min_size: i64,
    /// An object's fields, by escaped name.
    pub fields: BTreeMap<String, Arc<Decl>>,
    /// A list's item or a map's value.
    pub elem: Option<Arc<Decl>>,
    /// A map's key.
    pub key: Option<Arc<Decl>>,
}

impl Decl {
    fn simple(ty: Type, min_size: i64, max_elements: i64) -> Decl {
        Decl {
            ty,
            max_elements,
            min_size,
            fields: BTreeMap::new(),
            elem: None,
            key: None,
        }
    }
}

/// The API server's size estimator (apiextensions `compilation.go` `sizeEstimator`): the
/// bound of the node a path from `self` names, `0..MaxElements`.
impl SizeEstimator for Decl {
    fn estimate_size(&self, path: &[String], _ty: &Type) -> Option<SizeEstimate> {
        let mut node = self;
        if path.is_empty() {
            return None;
        }
        for step in &path[1..] {
            node = match step.as_str() {
                "@items" | "@values" => node.elem.as_deref()?,
                "@keys" => node.key.as_deref()?,
                field => node.fields.get(field)?,
            };
        }
        Some(SizeEstimate {
            min: 0,
            max: node.max_elements.max(0) as u64,
        })
    }
}

/// The root of a CRD version's schema as the API server types it: `apiVersion`, `kind` and
/// `metadata` (`name`, `generateName`) added when missing, object types named after `name`
/// (`selfType.spec`…).
pub fn root(node: &Node, name: &str) -> Option<Arc<Decl>> {
    declare(node, true, Some(name))
}

/// The type of a node that is not a resource root (nor embedded), its object type named
/// `name`.
pub fn of(node: &Node, resource_root: bool, name: &str) -> Option<Arc<Decl>> {
    declare(node, resource_root, Some(name))
}

fn declare(node: &Node, resource_root: bool, name: Option<&str>) -> Option<Arc<Decl>> {
    if node.int_or_string {
        let max = match node.max_length {
            Some(m) => (m as i64).saturating_mul(4),
            None => MAX_REQUEST_BYTES - 2,
        };
        return Some(Arc::new(Decl::simple(Type::Dyn, 1, max)));
    }
    let max_string = |format: Option<&str>| -> i64 {
        match format {
            Some("duration") => 32,
            Some("date") => 12,
            Some("date-time") => 32,
            _ => MAX_REQUEST_BYTES - 2,
        }
    };
    let decl = match node.kind? {
        Kind::Array => {
            let items = node.items.as_deref()?;
            let item = declare(items, items.embedded_resource, None)?;
            let max = match node.max_items {
                Some(m) => m as i64,
                None => (MAX_REQUEST_BYTES - 2) / (item.min_size + 1),
            };
            Decl {
                ty: Type::list(item.ty.clone()),
                max_elements: max,
                min_size: 2,
                fields: BTreeMap::new(),
                elem: Some(item),
                key: None,
            }
        }
        Kind::Object => {
            if let Additional::Schema(values) = &node.additional {
                let value = declare(values, values.embedded_resource, None)?;
                let max = match node.max_properties {
                    Some(m) => m as i64,
                    None => (MAX_REQUEST_BYTES - 2) / (value.min_size + 6),
                };
                // The API server's map keys are its plain `StringType`, without a size bound
                // (so estimated at 0).
                let key = Arc::new(Decl::simple(Type::String, 2, 0));
                Decl {
                    ty: Type::map(Type::String, value.ty.clone()),
                    max_elements: max,
                    min_size: 2,
                    fields: BTreeMap::new(),
                    elem: Some(value),
                    key: Some(key),
                }
            } else {
                object(node, resource_root, name)
            }
        }
        Kind::String => match node.format.as_deref() {
            Some("byte") => Decl::simple(
                Type::Bytes,
                2,
                node.max_length.map_or(MAX_REQUEST_BYTES - 2, |m| m as i64),
            ),
            Some("duration") => Decl::simple(Type::Duration, 3, max_string(Some("duration"))),
            Some("date") => Decl::simple(Type::Timestamp, 12, max_string(Some("date"))),
            Some("date-time") => Decl::simple(Type::Timestamp, 21, max_string(Some("date-time"))),
            _ => {
                let max = match (node.max_length, &node.enumeration) {
                    (Some(m), _) => (m as i64).saturating_mul(4),
                    (None, Some(values)) if !values.is_empty() => values
                        .iter()
                        .filter_map(|v| v.as_str())
                        .map(|s| s.len() as i64)
                        .max()
                        .unwrap_or(0),
                    _ => MAX_REQUEST_BYTES - 2,
                };
                Decl::simple(Type::String, 2, max)
            }
        },
        Kind::Boolean => Decl::simple(Type::Bool, 4, 0),
        Kind::Number => Decl::simple(Type::Double, 1, 0),
        Kind::Integer => Decl::simple(Type::Int, 1, 0),
    };
    Some(Arc::new(decl))
}

/// An object type: its properties (with `apiVersion`, `kind` and `metadata` added at a
/// resource root), escaped, each typed.
fn object(node: &Node, resource_root: bool, name: Option<&str>) -> Decl {
    let name = name.unwrap_or("object");
    let mut fields = BTreeMap::new();
    let mut min_size: i64 = 2;
    let meta;
    let properties: Vec<(&String, &Node)> = if resource_root && !has_type_and_object_meta(node) {
        meta = type_and_object_meta();
        let mut all: BTreeMap<&String, &Node> = node.properties.iter().collect();
        for (k, v) in &meta {
            all.insert(k, v);
        }
        all.into_iter().collect()
    } else {
        node.properties.iter().collect()
    };
    for (prop, child) in properties {
        let child_name = escape(prop).map(|e| format!("{name}.{e}"));
        let Some(field) = declare(child, child.embedded_resource, child_name.as_deref()) else {
            continue;
        };
        let required = node.required.iter().any(|r| r == prop);
        if required && child.default.is_none() {
            min_size = min_size
                .saturating_add(prop.len() as i64)
                .saturating_add(field.min_size)
                .saturating_add(4);
        }
        if let Some(escaped) = escape(prop) {
            // A reserved word is also found by its own name (the API server's type
            // provider, `recognizeKeywordAsFieldName`, since Kubernetes 1.32).
            if is_reserved(prop) {
                fields.insert(prop.clone(), field.clone());
            }
            fields.insert(escaped, field);
        }
    }
    let ty = Type::Object(Arc::new(ObjectType {
        name: name.to_string(),
        fields: fields
            .iter()
            .map(|(k, d)| (k.clone(), d.ty.clone()))
            .collect(),
    }));
    Decl {
        ty,
        max_elements: 0,
        min_size,
        fields,
        elem: None,
        key: None,
    }
}

/// Whether a resource root already declares `kind`, `apiVersion` and `metadata` with `name`
/// and `generateName` (then the API server leaves it as it is).
pub fn has_type_and_object_meta(node: &Node) -> bool {
    let is = |n: Option<&Node>, k: Kind| n.is_some_and(|n| n.kind == Some(k));
    let meta = node.properties.get("metadata");
    is(node.properties.get("kind"), Kind::String)
        && is(node.properties.get("apiVersion"), Kind::String)
        && is(meta, Kind::Object)
        && is(meta.and_then(|m| m.properties.get("name")), Kind::String)
        && is(
            meta.and_then(|m| m.properties.get("generateName")),
            Kind::String,
        )
}

/// The `kind`, `apiVersion` and `metadata` (`name`, `generateName`) the API server gives a
/// resource root's rules.
pub fn type_and_object_meta() -> BTreeMap<String, Node> {
    let string = || Node {
        kind: Some(Kind::String),
        ..Node::default()
    };
    let metadata = Node {
        kind: Some(Kind::Object),
        properties: [
            ("name".to_string(), string()),
            ("generateName".to_string(), string()),
        ]
        .into_iter()
        .collect(),
        ..Node::default()
    };
    [
        ("kind".to_string(), string()),
        ("apiVersion".to_string(), string()),
        ("metadata".to_string(), metadata),
    ]
    .into_iter()
    .collect()
}

/// CEL's reserved words, which the API server escapes as `__word__`.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// Whether a property name is one of CEL's reserved words (rules see it escaped, and by
/// its own name too).
pub fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// A property name as rules see it, or `None` when rules cannot see it.
pub fn escape(name: &str) -> Option<String> {
    let first = name.bytes().next()?;
    if first.is_ascii_digit() {
        return None;
    }
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'_' if bytes.get(i + 1) == Some(&b'_') => {
                out.push_str("__underscores__");
                i += 2;
                continue;
            }
            b'.' => out.push_str("__dot__"),
            b'-' => out.push_str("__dash__"),
            b'/' => out.push_str("__slash__"),
            b if b.is_ascii_alphanumeric() || b == b'_' => out.push(b as char),
            _ => return None,
        }
        i += 1;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::escape;

    /// apiserver v0.35.0 `pkg/cel/escaping_test.go` TestEscaping, cases as there.
    #[test]
    fn property_names_escape_as_the_api_server_escapes_them() {
        let cases: &[(&str, Option<&str>)] = &[
            ("a.a", Some("a__dot__a")),
            ("a-a", Some("a__dash__a")),
            ("a__a", Some("a__underscores__a")),
            ("a.-/__a", Some("a__dot____dash____slash____underscores__a")),
            ("a._a", Some("a__dot___a")),
            ("a__.__a", Some("a__underscores____dot____underscores__a")),
            ("a___a", Some("a__underscores___a")),
            ("a____a", Some("a__underscores____underscores__a")),
            ("a__dot__a", Some("a__underscores__dot__underscores__a")),
            (
                "a__underscores__a",
                Some("a__underscores__underscores__underscores__a"),
            ),
            ("true", Some("__true__")),
            ("null", Some("__null__")),
            ("in", Some("__in__")),
            ("namespace", Some("__namespace__")),
            ("while", Some("__while__")),
            ("@", None),
            ("1up", None),
            ("\u{1f451}", None),
            ("has", Some("has")),
            ("exists_one", Some("exists_one")),
            ("getMilliseconds", Some("getMilliseconds")),
            ("_if", Some("_if")),
            ("_anything", Some("_anything")),
        ];
        for (name, want) in cases {
            assert_eq!(escape(name).as_deref(), *want, "{name}");
        }
    }
}
