//! cty's values: typed nulls, unknowns (with the refinements hcl produces), primitives,
//! collections and structural values — and cty's equality.

use super::num::Num;
use super::types::Type;
use std::collections::BTreeMap;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};
use unicode_normalization::UnicodeNormalization;

/// What is known about an unknown value (cty's refinements, the ones hcl and our functions
/// produce).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refinement {
    /// The value is certainly not null.
    pub not_null: bool,
    /// A string value certainly starts with this.
    pub string_prefix: Option<String>,
}

/// The elements of a list, set or tuple, shared: cloning a value never copies its elements.
pub type Items = Shared<Vec<Value>>;

/// The elements of a map or the attributes of an object, shared like [`Items`].
pub type Attrs = Shared<BTreeMap<String, Value>>;

/// Shared, immutable storage for the elements of a value, with the value's type computed the
/// first time it is asked for and kept (cty holds every value's type; building it on each
/// request would walk the whole value, making a function call on a large object cost as much
/// as the object). Reads go through `Deref`; [`Shared::make_mut`] changes a copy.
#[derive(Debug)]
pub struct Shared<T>(Arc<Stored<T>>);

#[derive(Debug)]
struct Stored<T> {
    data: T,
    ty: OnceLock<Type>,
    depth: OnceLock<u32>,
}

impl<T: Clone> Clone for Stored<T> {
    fn clone(&self) -> Self {
        Stored {
            data: self.data.clone(),
            ty: self.ty.clone(),
            depth: self.depth.clone(),
        }
    }
}

/// How deeply the values evaluation builds may nest: collections inside collections, 1000
/// levels, as for decoded documents (`jsondecode`) and the parser's brackets. Walks over a
/// value (its type, conversion, output, dropping it) recurse per level; cty has no limit,
/// and 100,000 locals `a_i = [a_(i-1)]` overflowed the stack (docs/compatibility.md).
pub const MAX_VALUE_DEPTH: u32 = 1000;

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0.data
    }
}

/// Storage whose elements count against the evaluation's budget (`eval::budget`).
pub trait Elements {
    /// How many elements or attributes it holds.
    fn count(&self) -> usize;
}

impl Elements for Vec<Value> {
    fn count(&self) -> usize {
        self.len()
    }
}

impl Elements for BTreeMap<String, Value> {
    fn count(&self) -> usize {
        self.len()
    }
}

impl<T: Elements> From<T> for Shared<T> {
    /// Every collection and object is built through here, so this is where the budget counts
    /// what an evaluation builds (a counter decrement; running out unwinds, `eval::budget`).
    fn from(data: T) -> Self {
        super::budget::elements(data.count(), None);
        Shared(Arc::new(Stored {
            data,
            ty: OnceLock::new(),
            depth: OnceLock::new(),
        }))
    }
}

impl<T> Shared<T> {
    /// The type kept with the elements, computed by `compute` the first time.
    fn cached_type(&self, compute: impl FnOnce(&T) -> Type) -> Type {
        self.0.ty.get_or_init(|| compute(&self.0.data)).clone()
    }

    /// The nesting depth kept with the elements, computed by `compute` the first time.
    fn cached_depth(&self, compute: impl FnOnce(&T) -> u32) -> u32 {
        *self.0.depth.get_or_init(|| compute(&self.0.data))
    }

    /// Whether two values share the same storage.
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T: Clone> Shared<T> {
    /// The elements, owned: moved out when nothing else shares them, copied otherwise.
    pub fn into_data(this: Self) -> T {
        match Arc::try_unwrap(this.0) {
            Ok(stored) => stored.data,
            Err(shared) => shared.data.clone(),
        }
    }

    /// The elements, to change: copied first if another value shares them. The kept type is
    /// forgotten, since the change may alter it.
    pub fn make_mut(this: &mut Self) -> &mut T {
        let stored = Arc::make_mut(&mut this.0);
        stored.ty = OnceLock::new();
        stored.depth = OnceLock::new();
        &mut stored.data
    }
}

/// A cty value. Values are immutable and their collections shared, so a clone costs the same
/// whatever the size of the value (reading `req.resource[k]` out of a large object copies no
/// sibling); build a changed value with [`Arc::make_mut`] or a new collection.
#[derive(Clone, Debug)]
pub enum Value {
    /// An unknown value of a type (possibly dynamic).
    Unknown(Type, Refinement),
    /// A null of a type (possibly dynamic).
    Null(Type),
    /// A bool.
    Bool(bool),
    /// A number.
    Number(Num),
    /// A string, NFC-normalised; short ones held inline (see [`Text`]).
    String(Text),
    /// A list: every element has type `elem`.
    List {
        /// The element type.
        elem: Type,
        /// The elements.
        items: Items,
    },
    /// A set: distinct elements of type `elem`, in cty's order.
    Set {
        /// The element type.
        elem: Type,
        /// The elements.
        items: Items,
    },
    /// A map: every element has type `elem`.
    Map {
        /// The element type.
        elem: Type,
        /// The elements by key.
        items: Attrs,
    },
    /// A tuple.
    Tuple(Items),
    /// An object.
    Object(Attrs),
}

/// The text of a string value: up to 24 bytes inline, so that copying a short string (a
/// literal's value, a variable read, an object key turned value) allocates nothing; longer
/// text is on the heap as a `String`'s is, and converts from and to one without copying.
pub use crate::source::Text;

/// Whether `s` is known to be NFC already: most strings are, and checking is far cheaper than
/// re-composing. (A string the quick check is unsure of is re-composed, which changes nothing
/// when it was NFC after all.)
fn surely_nfc(s: &str) -> bool {
    s.is_ascii()
        || unicode_normalization::is_nfc_quick(s.chars())
            == unicode_normalization::IsNormalized::Yes
}

impl Value {
    /// A string value (NFC-normalised, as `cty.StringVal`).
    pub fn string(s: impl AsRef<str>) -> Value {
        let s = s.as_ref();
        if surely_nfc(s) {
            return Value::String(Text::new(s));
        }
        Value::String(s.nfc().collect::<String>().into())
    }

    /// [`Value::string`] of an owned string: no copy when it is already NFC.
    pub fn string_owned(s: String) -> Value {
        if surely_nfc(&s) {
            return Value::String(s.into());
        }
        Value::String(s.nfc().collect::<String>().into())
    }

    /// A number value.
    pub fn number(n: Num) -> Value {
        Value::Number(n)
    }

    /// An unknown value of a type with no refinement.
    pub fn unknown(ty: Type) -> Value {
        Value::Unknown(ty, Refinement::default())
    }

    /// `cty.DynamicVal`: unknown of unknown type.
    pub fn dynamic() -> Value {
        Value::unknown(Type::Dynamic)
    }

    /// A dynamic-typed null (`null` in HCL).
    pub fn null() -> Value {
        Value::Null(Type::Dynamic)
    }

    /// `cty.True` / `cty.False`.
    pub fn bool(b: bool) -> Value {
        Value::Bool(b)
    }

    /// An empty object.
    pub fn empty_object() -> Value {
        Value::Object(BTreeMap::new().into())
    }

    /// The value's type.
    pub fn ty(&self) -> Type {
        match self {
            Value::Unknown(ty, _) | Value::Null(ty) => ty.clone(),
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::List { elem, .. } => Type::list(elem.clone()),
            Value::Set { elem, .. } => Type::set(elem.clone()),
            Value::Map { elem, .. } => Type::map(elem.clone()),
            Value::Tuple(items) => items
                .cached_type(|items| Type::Tuple(Arc::new(items.iter().map(Value::ty).collect()))),
            Value::Object(attrs) => attrs.cached_type(|attrs| {
                Type::Object(Arc::new(
                    attrs.iter().map(|(k, v)| (k.clone(), v.ty())).collect(),
                ))
            }),
        }
    }

    /// How many collections nest in the value: 0 for a primitive, an unknown or a null, 1 for
    /// a collection of primitives. Kept with the elements once computed, so asking as each
    /// level is built costs one pass over that level.
    pub fn depth(&self) -> u32 {
        fn deepest<'v>(values: impl Iterator<Item = &'v Value>) -> u32 {
            // An uncached deep value is walked on a growing stack.
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                1 + values.map(Value::depth).max().unwrap_or(0)
            })
        }
        match self {
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                items.cached_depth(|items| deepest(items.iter()))
            }
            Value::Map { items, .. } | Value::Object(items) => {
                items.cached_depth(|items| deepest(items.values()))
            }
            _ => 0,
        }
    }

    /// Whether the value itself is known (its elements may not be).
    pub fn is_known(&self) -> bool {
        !matches!(self, Value::Unknown(..))
    }

    /// Whether the value's type is [`Type::Dynamic`] (`ty() == Type::Dynamic`, without
    /// building the type of a collection).
    pub fn has_dynamic_type(&self) -> bool {
        matches!(
            self,
            Value::Unknown(Type::Dynamic, _) | Value::Null(Type::Dynamic)
        )
    }

    /// Whether the value is null (an unknown is not null).
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null(_))
    }

    /// Whether the value and everything in it is known.
    pub fn is_wholly_known(&self) -> bool {
        match self {
            Value::Unknown(..) => false,
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                items.iter().all(Value::is_wholly_known)
            }
            Value::Map { items, .. } | Value::Object(items) => {
                items.values().all(Value::is_wholly_known)
            }
            _ => true,
        }
    }

    /// cty's `HasWhollyKnownType`: no unknown of dynamic type anywhere inside (a null is
    /// fine, whatever its type), so `[null]` has one even though its type is not concrete.
    pub fn has_wholly_known_type(&self) -> bool {
        match self {
            Value::Null(_) => true,
            Value::Unknown(ty, _) => ty.is_concrete(),
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                items.iter().all(Value::has_wholly_known_type)
            }
            Value::Map { items, .. } | Value::Object(items) => {
                items.values().all(Value::has_wholly_known_type)
            }
            _ => true,
        }
    }

    /// cty's `definitelyNotNull`: known and not null, or unknown but refined not null.
    pub fn definitely_not_null(&self) -> bool {
        match self {
            Value::Unknown(_, r) => r.not_null,
            Value::Null(_) => false,
            _ => true,
        }
    }

    /// The elements of a list, set or tuple (empty for anything else).
    pub fn elements(&self) -> &[Value] {
        match self {
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => items,
            _ => &[],
        }
    }

    /// The string of a known string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number of a known number value.
    pub fn as_num(&self) -> Option<&Num> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The length of a known collection or structural value.
    pub fn len(&self) -> Option<usize> {
        match self {
            Value::List { items, .. } | Value::Set { items, .. } | Value::Tuple(items) => {
                Some(items.len())
            }
            Value::Map { items, .. } | Value::Object(items) => Some(items.len()),
            _ => None,
        }
    }

    /// Whether [`Value::len`] is zero.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// An unknown bool refined not null (cty's result for an undecidable comparison).
    fn unknown_bool() -> Value {
        Value::Unknown(
            Type::Bool,
            Refinement {
                not_null: true,
                string_prefix: None,
            },
        )
    }

    /// Whether a known value lies outside what an unknown's refinements allow.
    fn excluded_by(&self, unknown: &Value) -> bool {
        let Value::Unknown(_, refinement) = unknown else {
            return false;
        };
        match (&refinement.string_prefix, self) {
            (Some(prefix), Value::String(s)) => !s.starts_with(prefix.as_str()),
            _ => false,
        }
    }

    /// cty's `Equals`: a known bool, or an unknown bool when the answer depends on unknowns.
    pub fn equals(&self, other: &Value) -> Value {
        if self.is_null() && other.definitely_not_null()
            || other.is_null() && self.definitely_not_null()
        {
            return Value::Bool(false);
        }
        if self.is_known() && other.excluded_by_unknown(self)
            || other.is_known() && self.excluded_by_unknown(other)
        {
            return Value::Bool(false);
        }
        match (self.is_known(), other.is_known()) {
            (false, false) => return Value::unknown_bool(),
            (true, false) => return Self::known_vs_unknown(self, other),
            (false, true) => return Self::known_vs_unknown(other, self),
            (true, true) => {}
        }
        match (self.is_null(), other.is_null()) {
            (true, true) => return Value::Bool(true),
            (true, false) | (false, true) => return Value::Bool(false),
            _ => {}
        }
        let (ta, tb) = (self.ty(), other.ty());
        if !self.has_wholly_known_type() || !other.has_wholly_known_type() {
            if !could_conform(&ta, &tb) && !could_conform(&tb, &ta) {
                return Value::Bool(false);
            }
            return Value::unknown_bool();
        }
        if ta != tb {
            return Value::Bool(false);
        }
        self.equal_same_type(other)
    }

    fn excluded_by_unknown(&self, known: &Value) -> bool {
        !self.is_known() && known.excluded_by(self)
    }

    fn known_vs_unknown(known: &Value, unknown: &Value) -> Value {
        let unknown_ty = unknown.ty();
        if known.is_null() || !unknown_ty.is_concrete() {
            return Value::unknown_bool();
        }
        if known.ty() != unknown_ty {
            return Value::Bool(false);
        }
        Value::unknown_bool()
    }

    fn equal_same_type(&self, other: &Value) -> Value {
        let pairwise = |a: &[Value], b: &[Value]| -> Value {
            if a.len() != b.len() {
                return Value::Bool(false);
            }
            let mut unknown = false;
            for (x, y) in a.iter().zip(b) {
                match x.equals(y) {
                    Value::Bool(false) => return Value::Bool(false),
                    Value::Bool(true) => {}
                    _ => unknown = true,
                }
            }
            if unknown {
                Value::unknown_bool()
            } else {
                Value::Bool(true)
            }
        };
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => Value::Bool(a == b),
            (Value::Number(a), Value::Number(b)) => Value::Bool(a.cty_equal(b)),
            (Value::String(a), Value::String(b)) => Value::Bool(a == b),
            (Value::List { items: a, .. }, Value::List { items: b, .. })
            | (Value::Tuple(a), Value::Tuple(b))
            | (Value::Set { items: a, .. }, Value::Set { items: b, .. }) => pairwise(a, b),
            (Value::Map { items: a, .. }, Value::Map { items: b, .. })
            | (Value::Object(a), Value::Object(b)) => {
                if a.len() != b.len() || a.keys().ne(b.keys()) {
                    return Value::Bool(false);
                }
                let xs: Vec<Value> = a.values().cloned().collect();
                let ys: Vec<Value> = b.values().cloned().collect();
                pairwise(&xs, &ys)
            }
            _ => Value::Bool(false),
        }
    }

    /// Whether two values are the same value, unknowns included (cty's `RawEquals`).
    pub fn raw_equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Unknown(a, ra), Value::Unknown(b, rb)) => a == b && ra == rb,
            (Value::Null(a), Value::Null(b)) => a == b,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a.cty_equal(b),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::List { elem: ea, items: a }, Value::List { elem: eb, items: b })
            | (Value::Set { elem: ea, items: a }, Value::Set { elem: eb, items: b }) => {
                ea == eb
                    && a.len() == b.len()
                    && a.iter().zip(b.iter()).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Map { elem: ea, items: a }, Value::Map { elem: eb, items: b }) => {
                ea == eb
                    && a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|((k, x), (l, y))| k == l && x.raw_equals(y))
            }
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|((k, x), (l, y))| k == l && x.raw_equals(y))
            }
            _ => false,
        }
    }
}

/// cty's `TestConformance` reduced to a yes/no: could a value of `have` later turn out to be of
/// type `want` once its dynamic parts are known?
pub fn could_conform(have: &Type, want: &Type) -> bool {
    match (have, want) {
        (Type::Dynamic, _) | (_, Type::Dynamic) => true,
        (Type::List(a), Type::List(b))
        | (Type::Map(a), Type::Map(b))
        | (Type::Set(a), Type::Set(b)) => could_conform(a, b),
        (Type::Tuple(a), Type::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| could_conform(x, y))
        }
        (Type::Object(a), Type::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b.iter())
                    .all(|((k, x), (l, y))| k == l && could_conform(x, y))
        }
        (a, b) => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    #[test]
    fn strings_are_nfc() {
        assert_eq!(s("e\u{301}").as_str(), Some("\u{e9}"));
    }

    #[test]
    fn equality_follows_cty() {
        assert!(matches!(s("a").equals(&s("a")), Value::Bool(true)));
        assert!(matches!(
            Value::null().equals(&Value::Null(Type::String)),
            Value::Bool(true)
        ));
        assert!(matches!(s("a").equals(&Value::null()), Value::Bool(false)));
        assert!(!s("a").equals(&Value::unknown(Type::String)).is_known());
        assert!(matches!(
            s("a").equals(&Value::unknown(Type::Number)),
            Value::Bool(false)
        ));
        let refined = Value::Unknown(
            Type::String,
            Refinement {
                not_null: true,
                string_prefix: Some("ab".into()),
            },
        );
        assert!(matches!(refined.equals(&Value::null()), Value::Bool(false)));
        assert!(matches!(refined.equals(&s("xy")), Value::Bool(false)));
        assert!(!refined.equals(&s("abc")).is_known());
        assert!(!Value::null().equals(&Value::dynamic()).is_known());
        let n = |x: &str| Value::Number(Num::parse(x).unwrap());
        assert!(matches!(n("1").equals(&n("1.0")), Value::Bool(true)));
        assert!(matches!(n("1").equals(&s("1")), Value::Bool(false)));
        let nulls = || Value::Tuple(vec![Value::null()].into());
        assert!(matches!(nulls().equals(&nulls()), Value::Bool(true)));
        assert!(matches!(
            nulls().equals(&Value::Tuple(vec![n("1")].into())),
            Value::Bool(false)
        ));
        let dynamic = Value::Tuple(vec![Value::dynamic()].into());
        assert!(!dynamic.equals(&nulls()).is_known());
    }

    #[test]
    fn wholly_known_looks_inside() {
        let v = Value::Tuple(vec![s("a"), Value::dynamic()].into());
        assert!(v.is_known() && !v.is_wholly_known());
    }
}
