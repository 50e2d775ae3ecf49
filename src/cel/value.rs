//! Runtime values, with cel-go's equality ([`Value::equals`]) and ordering
//! ([`Value::compare`], cross-type numeric comparisons on, as the API server sets).

use super::types::{ObjectType, Type};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A CEL value.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`
    Null,
    /// A bool.
    Bool(bool),
    /// A signed 64-bit integer.
    Int(i64),
    /// An unsigned 64-bit integer.
    Uint(u64),
    /// A double.
    Double(f64),
    /// A string.
    String(Arc<str>),
    /// Bytes.
    Bytes(Arc<[u8]>),
    /// A point in time, UTC.
    Timestamp(Timestamp),
    /// A span of time.
    Duration(Duration),
    /// A list.
    List(Arc<List>),
    /// A map (or a schema object).
    Map(Arc<Map>),
    /// A type value (`type(1)`, `int`).
    Type(Type),
    /// An optional value (`optional.of(1)`, `optional.none()`).
    Optional(Option<Arc<Value>>),
    /// A library's value (URL, IP, CIDR, quantity, semver, named format…).
    Opaque(Arc<dyn Opaque>),
}

/// A point in time: seconds and nanoseconds since the Unix epoch, UTC, within cel-go's range
/// (year 0001 to 9999), with the UTC offset it was written with. Equality, ordering and
/// hashing look at the instant only (Go's `time.Time.Equal`, `Before`); the offset shows
/// only in `string(ts)`, as Go's `Format` shows the location `time.Parse` kept.
#[derive(Clone, Copy, Debug)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub secs: i64,
    /// Nanoseconds, 0..1e9.
    pub nanos: u32,
    /// The offset east of UTC, in seconds, it displays with (`+01:00` is 3600); 0 for UTC.
    pub offset: i32,
}

impl Timestamp {
    /// The instant `secs` and `nanos` after the epoch, in UTC.
    pub fn new(secs: i64, nanos: u32) -> Timestamp {
        Timestamp {
            secs,
            nanos,
            offset: 0,
        }
    }

    /// The same instant, displayed at `offset` seconds east of UTC.
    pub fn with_offset(self, offset: i32) -> Timestamp {
        Timestamp { offset, ..self }
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Timestamp) -> bool {
        (self.secs, self.nanos) == (other.secs, other.nanos)
    }
}

impl Eq for Timestamp {}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Timestamp) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Timestamp) -> Ordering {
        (self.secs, self.nanos).cmp(&(other.secs, other.nanos))
    }
}

impl std::hash::Hash for Timestamp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.secs, self.nanos).hash(state);
    }
}

/// A span of time in nanoseconds (Go's `time.Duration`, as cel-go).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration {
    /// Nanoseconds.
    pub nanos: i64,
}

/// How a list compares with another: Kubernetes' `x-kubernetes-list-type`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ListKind {
    /// An ordinary list: equal element by element.
    #[default]
    Plain,
    /// `set`: equal with the same elements in any order; `+` appends the new ones.
    Set,
    /// `map`: elements identified by these keys; equal with the same elements in any
    /// order; `+` replaces elements with the same keys and appends the others.
    Map(Arc<[String]>),
}

/// A list.
#[derive(Clone, Debug, Default)]
pub struct List {
    /// The elements.
    pub items: Vec<Value>,
    /// How it compares.
    pub kind: ListKind,
}

/// A map key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// A bool key.
    Bool(bool),
    /// An int key.
    Int(i64),
    /// A uint key.
    Uint(u64),
    /// A string key.
    String(Arc<str>),
}

/// A map, or an object of a schema's object type.
#[derive(Clone, Debug, Default)]
pub struct Map {
    /// The entries.
    pub entries: BTreeMap<Key, Value>,
    /// The object type, for an object.
    pub object: Option<Arc<ObjectType>>,
}

/// A value a library defines.
pub trait Opaque: std::fmt::Debug + Send + Sync + 'static {
    /// Its type's name (`kubernetes.URL`).
    fn type_name(&self) -> &str;
    /// Equality with another value of any opaque type.
    fn equals(&self, other: &dyn Opaque) -> bool;
    /// For downcasting.
    fn as_any(&self) -> &dyn std::any::Any;
    /// Ordering, for types that have one (`kubernetes.Quantity` has none in CEL).
    fn compare(&self, _other: &dyn Opaque) -> Option<Ordering> {
        None
    }
    /// cel-go's `Equal` when it is an error rather than a bool: Kubernetes' types answer
    /// `no such overload` when `self` (the left operand) is compared with a value they do not
    /// accept (`ip('1.2.3.4') == dyn('x')`). `None`, the default: [`Opaque::equals`] decides.
    fn equal_error(&self, _other: &Value) -> Option<Error> {
        None
    }
}

/// An evaluation error, with cel-go's message (`no such key: foo`, `division by zero`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The message.
    pub message: String,
}

impl Error {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }

    /// cel-go's `no such overload` (the message its dispatcher gives).
    pub fn no_such_overload() -> Error {
        Error::new("no such overload")
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<Key> for Value {
    fn from(key: Key) -> Value {
        match key {
            Key::Bool(b) => Value::Bool(b),
            Key::Int(i) => Value::Int(i),
            Key::Uint(u) => Value::Uint(u),
            Key::String(s) => Value::String(s),
        }
    }
}

impl Value {
    /// A string value.
    pub fn string(s: &str) -> Value {
        Value::String(s.into())
    }

    /// A plain list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Arc::new(List {
            items,
            kind: ListKind::Plain,
        }))
    }

    /// A map value.
    pub fn map(entries: BTreeMap<Key, Value>) -> Value {
        Value::Map(Arc::new(Map {
            entries,
            object: None,
        }))
    }

    /// The value as a map key, when it can be one.
    pub fn as_key(&self) -> Option<Key> {
        match self {
            Value::Bool(b) => Some(Key::Bool(*b)),
            Value::Int(i) => Some(Key::Int(*i)),
            Value::Uint(u) => Some(Key::Uint(*u)),
            Value::String(s) => Some(Key::String(s.clone())),
            _ => None,
        }
    }

    /// The value's runtime type (`type(v)`).
    pub fn type_of(&self) -> Type {
        match self {
            Value::Null => Type::Null,
            Value::Bool(_) => Type::Bool,
            Value::Int(_) => Type::Int,
            Value::Uint(_) => Type::Uint,
            Value::Double(_) => Type::Double,
            Value::String(_) => Type::String,
            Value::Bytes(_) => Type::Bytes,
            Value::Timestamp(_) => Type::Timestamp,
            Value::Duration(_) => Type::Duration,
            Value::List(_) => Type::list(Type::Dyn),
            Value::Map(m) => match &m.object {
                Some(o) => Type::Object(o.clone()),
                None => Type::map(Type::Dyn, Type::Dyn),
            },
            Value::Type(t) => Type::type_of(t.clone()),
            Value::Optional(_) => Type::optional(Type::Dyn),
            Value::Opaque(o) => Type::opaque(o.type_name()),
        }
    }

    /// cel-go's equality (`_==_`): numbers across int, uint and double by value (NaN equals
    /// nothing), lists element by element (Kubernetes' set and map lists in any order),
    /// maps by keys and values, values of different types unequal.
    pub fn equals(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(_) | Uint(_) | Double(_), Int(_) | Uint(_) | Double(_)) => {
                numeric_cmp(self, other) == Some(Ordering::Equal)
            }
            (String(a), String(b)) => a == b,
            (Bytes(a), Bytes(b)) => a == b,
            (Timestamp(a), Timestamp(b)) => a == b,
            (Duration(a), Duration(b)) => a == b,
            (List(a), List(b)) => lists_equal(a, b),
            (Map(a), Map(b)) => {
                a.entries.len() == b.entries.len()
                    && a.entries
                        .iter()
                        .all(|(k, v)| lookup(&b.entries, k).is_some_and(|w| v.equals(w)))
            }
            (Type(a), Type(b)) => type_runtime_name(a) == type_runtime_name(b),
            (Optional(a), Optional(b)) => match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => a.equals(b),
                _ => false,
            },
            (Opaque(a), Opaque(b)) => a.equals(b.as_ref()),
            _ => false,
        }
    }

    /// cel-go's ordering (`_<_` and friends): numbers across types, strings by bytes,
    /// bytes, bools, timestamps, durations, opaque values that order; `None` when the two
    /// do not compare (including NaN).
    pub fn compare(&self, other: &Value) -> Option<Ordering> {
        use Value::*;
        match (self, other) {
            (Int(_) | Uint(_) | Double(_), Int(_) | Uint(_) | Double(_)) => {
                numeric_cmp(self, other)
            }
            (Bool(a), Bool(b)) => Some(a.cmp(b)),
            (String(a), String(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (Bytes(a), Bytes(b)) => Some(a.cmp(b)),
            (Timestamp(a), Timestamp(b)) => Some(a.cmp(b)),
            (Duration(a), Duration(b)) => Some(a.cmp(b)),
            (Opaque(a), Opaque(b)) => a.compare(b.as_ref()),
            _ => None,
        }
    }
}

/// The name cel-go's runtime compares type values by (`TypeName()`): `list`, `map`, `type`,
/// an opaque type's name without its parameters.
pub fn type_runtime_name(t: &Type) -> std::borrow::Cow<'_, str> {
    match t {
        Type::List(_) => "list".into(),
        Type::Map(..) => "map".into(),
        Type::Type(_) => "type".into(),
        Type::Opaque(name, _) => (&**name).into(),
        Type::Object(o) => o.name.as_str().into(),
        other => other.to_string().into(),
    }
}

/// A map lookup where numeric keys match across int and uint (cel-go's heterogeneous keys).
pub fn lookup<'m>(entries: &'m BTreeMap<Key, Value>, key: &Key) -> Option<&'m Value> {
    if let Some(v) = entries.get(key) {
        return Some(v);
    }
    match key {
        Key::Int(i) => u64::try_from(*i)
            .ok()
            .and_then(|u| entries.get(&Key::Uint(u))),
        Key::Uint(u) => i64::try_from(*u)
            .ok()
            .and_then(|i| entries.get(&Key::Int(i))),
        _ => None,
    }
}

fn numeric_cmp(a: &Value, b: &Value) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => Some(x.cmp(y)),
        (Uint(x), Uint(y)) => Some(x.cmp(y)),
        (Int(x), Uint(y)) => Some(if *x < 0 {
            Ordering::Less
        } else {
            (*x as u64).cmp(y)
        }),
        (Uint(_), Int(_)) => numeric_cmp(b, a).map(Ordering::reverse),
        (Double(x), Double(y)) => x.partial_cmp(y),
        (Double(x), Int(y)) => cmp_double_int(*x, *y),
        (Int(_), Double(_)) => numeric_cmp(b, a).map(Ordering::reverse),
        (Double(x), Uint(y)) => cmp_double_uint(*x, *y),
        (Uint(_), Double(_)) => numeric_cmp(b, a).map(Ordering::reverse),
        _ => None,
    }
}

/// A double against an int as cel-go's `compareDoubleInt` does: out-of-range doubles order
/// first or last, others compare with the int converted to a double (lossy, as in cel-go).
fn cmp_double_int(d: f64, i: i64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < i64::MIN as f64 {
        return Some(Ordering::Less);
    }
    if d > i64::MAX as f64 {
        return Some(Ordering::Greater);
    }
    d.partial_cmp(&(i as f64))
}

/// cel-go's `compareDoubleUint`.
fn cmp_double_uint(d: f64, u: u64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < 0.0 {
        return Some(Ordering::Less);
    }
    if d > u64::MAX as f64 {
        return Some(Ordering::Greater);
    }
    d.partial_cmp(&(u as f64))
}

/// List equality as the API server's lists do it: the left operand decides. A `set` list on
/// the left equals any list of the same size whose elements it all contains; a `map` list on
/// the left equals any list of the same size whose elements each equal its element with the
/// same keys; otherwise element by element, in order.
fn lists_equal(a: &List, b: &List) -> bool {
    if a.items.len() != b.items.len() {
        return false;
    }
    match &a.kind {
        ListKind::Plain => a.items.iter().zip(&b.items).all(|(x, y)| x.equals(y)),
        ListKind::Set => b.items.iter().all(|y| a.items.iter().any(|x| x.equals(y))),
        ListKind::Map(keys) => b.items.iter().all(|y| {
            a.items
                .iter()
                .find(|x| same_list_map_keys(keys, x, y))
                .is_some_and(|x| x.equals(y))
        }),
    }
}

/// Whether two elements of a `map` list have the same key fields (both absent counts as the
/// same, as the API server's key lookup does).
pub fn same_list_map_keys(keys: &[String], x: &Value, y: &Value) -> bool {
    let field = |v: &Value, k: &str| match v {
        Value::Map(m) => m.entries.get(&Key::String(k.into())).cloned(),
        _ => None,
    };
    keys.iter().all(|k| match (field(x, k), field(y, k)) {
        (None, None) => true,
        (Some(p), Some(q)) => {
            std::mem::discriminant(&p) == std::mem::discriminant(&q) && p.equals(&q)
        }
        _ => false,
    })
}
