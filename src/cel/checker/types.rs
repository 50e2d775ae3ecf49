//! The checker's view of [`Type`]s: cel-go's type kinds, exactness, assignability with
//! type-parameter substitution (`checker/types.go`, `common/types/types.go`) and the type
//! formatting its messages use (`FormatCELType`).

use crate::cel::types::Type;
use std::collections::HashMap;
use std::sync::Arc;

/// cel-go's type kinds (`types.Kind`), as far as our [`Type`]s reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Dyn,
    Bool,
    Bytes,
    Double,
    Duration,
    Error,
    Int,
    List,
    Map,
    Null,
    Opaque,
    String,
    Struct,
    Timestamp,
    Type,
    TypeParam,
    Uint,
}

/// The name of the parameterless `type` type (the type of the identifier `type` is
/// `type(type)`); our [`Type::Type`] always carries a parameter, so the bare one is an
/// opaque type of this name that [`kind`] reports as [`Kind::Type`].
pub(crate) const BARE_TYPE: &str = "type";

/// The bare `type` type.
pub(crate) fn bare_type() -> Type {
    Type::opaque(BARE_TYPE)
}

/// Library types Kubernetes declares as object types (`cel.ObjectType`), which cel-go's
/// checker treats as messages (field selection on them fails to resolve), although our
/// [`Type`] carries them as opaque types.
const OBJECT_TYPED: &[&str] = &[
    "kubernetes.URL",
    "kubernetes.Quantity",
    "kubernetes.Semver",
    "kubernetes.NamedFormat",
];

/// A type's kind.
pub(crate) fn kind(t: &Type) -> Kind {
    match t {
        Type::Dyn => Kind::Dyn,
        Type::Null => Kind::Null,
        Type::Bool => Kind::Bool,
        Type::Int => Kind::Int,
        Type::Uint => Kind::Uint,
        Type::Double => Kind::Double,
        Type::String => Kind::String,
        Type::Bytes => Kind::Bytes,
        Type::Timestamp => Kind::Timestamp,
        Type::Duration => Kind::Duration,
        Type::List(_) => Kind::List,
        Type::Map(..) => Kind::Map,
        Type::Type(_) => Kind::Type,
        Type::Opaque(name, params) if params.is_empty() && &**name == BARE_TYPE => Kind::Type,
        Type::Opaque(name, params) if params.is_empty() && OBJECT_TYPED.contains(&&**name) => {
            Kind::Struct
        }
        Type::Opaque(..) => Kind::Opaque,
        Type::Object(_) => Kind::Struct,
        Type::Param(_) => Kind::TypeParam,
        Type::Error => Kind::Error,
    }
}

/// cel-go's runtime type name (`Type.TypeName()`).
pub(crate) fn type_name(t: &Type) -> &str {
    match t {
        Type::Dyn => "dyn",
        Type::Null => "null_type",
        Type::Bool => "bool",
        Type::Int => "int",
        Type::Uint => "uint",
        Type::Double => "double",
        Type::String => "string",
        Type::Bytes => "bytes",
        Type::Timestamp => "google.protobuf.Timestamp",
        Type::Duration => "google.protobuf.Duration",
        Type::List(_) => "list",
        Type::Map(..) => "map",
        Type::Type(_) => "type",
        Type::Opaque(name, _) => name,
        Type::Object(o) => &o.name,
        Type::Param(name) => name,
        Type::Error => "error",
    }
}

/// A type's parameters (`Type.Parameters()`).
pub(crate) fn params(t: &Type) -> Vec<&Type> {
    match t {
        Type::List(e) => vec![e],
        Type::Map(k, v) => vec![k, v],
        Type::Type(p) => vec![p],
        Type::Opaque(_, ps) => ps.iter().collect(),
        _ => Vec::new(),
    }
}

/// The same type with new parameters (same kind and name).
fn with_params(t: &Type, ps: Vec<Type>) -> Type {
    match (t, ps.as_slice()) {
        (Type::List(_), [e]) => Type::list(e.clone()),
        (Type::Map(..), [k, v]) => Type::map(k.clone(), v.clone()),
        (Type::Type(_), [p]) => Type::type_of(p.clone()),
        (Type::Opaque(name, _), _) => Type::Opaque(name.clone(), ps.into()),
        _ => t.clone(),
    }
}

/// cel-go's `FormatCELType`: the type as the checker's messages print it.
pub fn format_type(t: &Type) -> String {
    let mut out = String::new();
    format_into(t, &mut out);
    out
}

fn format_into(t: &Type, out: &mut String) {
    match t {
        Type::Duration => out.push_str("duration"),
        Type::Error => out.push_str("!error!"),
        Type::Null => out.push_str("null"),
        Type::Timestamp => out.push_str("timestamp"),
        _ => {
            out.push_str(type_name(t));
            let ps = params(t);
            if !ps.is_empty() {
                out.push('(');
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    format_into(p, out);
                }
                out.push(')');
            }
        }
    }
}

/// `IsExactType`: same kind, name and parameters (type parameters by name).
pub(crate) fn is_exact(a: &Type, b: &Type) -> bool {
    is_same(a, b, true)
}

/// `IsEquivalentType`: as [`is_exact`] but type parameters match whatever their names.
pub(crate) fn is_equivalent(a: &Type, b: &Type) -> bool {
    is_same(a, b, false)
}

fn is_same(a: &Type, b: &Type, param_names: bool) -> bool {
    let (pa, pb) = (params(a), params(b));
    if kind(a) != kind(b) || pa.len() != pb.len() {
        return false;
    }
    if (param_names || kind(a) != Kind::TypeParam) && type_name(a) != type_name(b) {
        return false;
    }
    pa.iter().zip(&pb).all(|(x, y)| is_same(x, y, param_names))
}

/// `isDyn` of the checker: dyn (we have no `google.protobuf.Any`).
pub(crate) fn is_dyn(t: &Type) -> bool {
    kind(t) == Kind::Dyn
}

/// The error type.
pub(crate) fn is_error(t: &Type) -> bool {
    kind(t) == Kind::Error
}

fn is_dyn_or_error(t: &Type) -> bool {
    is_dyn(t) || is_error(t)
}

/// `optional_type(T)` → `(T, true)`, any other type → `(t, false)`.
pub(crate) fn unwrap_optional(t: &Type) -> (Type, bool) {
    match t {
        Type::Opaque(name, ps) if &**name == crate::cel::types::OPTIONAL && ps.len() == 1 => {
            (ps[0].clone(), true)
        }
        _ => (t.clone(), false),
    }
}

/// `Type.IsAssignableType` of `common/types` (default rules; we have no nullable wrappers):
/// whether `to` accepts values of `from`.
fn type_accepts(to: &Type, from: &Type) -> bool {
    if matches!(kind(to), Kind::Dyn | Kind::TypeParam) {
        return true;
    }
    let (pt, pf) = (params(to), params(from));
    if kind(to) != kind(from) || type_name(to) != type_name(from) || pt.len() != pf.len() {
        return false;
    }
    pt.iter().zip(&pf).all(|(t, f)| type_accepts(t, f))
}

/// Type-parameter bindings, with an undo log so a failed assignability test leaves them
/// as they were (cel-go copies the whole mapping per test instead).
#[derive(Debug, Default)]
pub(crate) struct Mapping {
    map: HashMap<Arc<str>, Type>,
    log: Vec<(Arc<str>, Option<Type>)>,
}

impl Mapping {
    fn find(&self, t: &Type) -> Option<&Type> {
        match t {
            Type::Param(name) => self.map.get(name),
            _ => None,
        }
    }

    fn add(&mut self, param: &Type, to: Type) {
        if let Type::Param(name) = param {
            let previous = self.map.insert(name.clone(), to);
            self.log.push((name.clone(), previous));
        }
    }

    fn rollback(&mut self) {
        while let Some((name, previous)) = self.log.pop() {
            match previous {
                Some(t) => self.map.insert(name, t),
                None => self.map.remove(&name),
            };
        }
    }

    /// `isAssignable`: whether `t1` is assignable to `t2`, keeping the bindings that makes
    /// so, or leaving the bindings unchanged.
    pub(crate) fn is_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        self.log.clear();
        let ok = self.assignable(t1, t2);
        if !ok {
            self.rollback();
        }
        self.log.clear();
        ok
    }

    /// `isAssignableList`.
    pub(crate) fn is_assignable_list(&mut self, l1: &[Type], l2: &[Type]) -> bool {
        self.log.clear();
        let ok = l1.len() == l2.len() && l1.iter().zip(l2).all(|(a, b)| self.assignable(a, b));
        if !ok {
            self.rollback();
        }
        self.log.clear();
        ok
    }

    /// `internalIsAssignable`.
    fn assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        let (k1, k2) = (kind(t1), kind(t2));
        if k2 == Kind::TypeParam {
            let (valid, has_sub) = self.valid_substitution(t1, t2);
            if valid {
                return true;
            }
            if has_sub {
                return false;
            }
        }
        if k1 == Kind::TypeParam {
            return self.valid_substitution(t2, t1).0;
        }
        if is_dyn_or_error(t1) || is_dyn_or_error(t2) {
            return true;
        }
        if k1 == Kind::Null {
            return assignable_null(t2);
        }
        if k2 == Kind::Null {
            return assignable_null(t1);
        }
        match k1 {
            Kind::Bool
            | Kind::Bytes
            | Kind::Double
            | Kind::Int
            | Kind::String
            | Kind::Uint
            | Kind::Duration
            | Kind::Timestamp
            | Kind::Struct => type_accepts(t2, t1),
            Kind::Type => k2 == Kind::Type,
            Kind::Opaque | Kind::List | Kind::Map => {
                let (p1, p2) = (params(t1), params(t2));
                k1 == k2
                    && type_name(t1) == type_name(t2)
                    && p1.len() == p2.len()
                    && p1.iter().zip(&p2).all(|(a, b)| self.assignable(a, b))
            }
            _ => false,
        }
    }

    /// `isValidTypeSubstitution`: whether `t2` (a type parameter) may stand for `t1`, and
    /// whether `t2` was already bound.
    fn valid_substitution(&mut self, t1: &Type, t2: &Type) -> (bool, bool) {
        if kind(t1) == kind(t2) && is_exact(t1, t2) {
            return (true, true);
        }
        if let Some(sub) = self.find(t2).cloned() {
            if kind(t1) == kind(&sub) && is_exact(t1, &sub) {
                return (true, true);
            }
            if self.assignable(t1, &sub) {
                let general = most_general(t1, &sub);
                if self.not_referenced_in(t2, &general) {
                    self.add(t2, general);
                }
                return (true, true);
            }
            return (false, true);
        }
        if self.not_referenced_in(t2, t1) {
            self.add(t2, t1.clone());
            return (true, false);
        }
        (false, false)
    }

    /// The occurs check: whether `t` appears nowhere in `within`.
    fn not_referenced_in(&self, t: &Type, within: &Type) -> bool {
        if is_exact(t, within) {
            return false;
        }
        match kind(within) {
            Kind::TypeParam => match self.find(within) {
                Some(sub) => self.not_referenced_in(t, sub),
                None => true,
            },
            Kind::Opaque | Kind::List | Kind::Map | Kind::Type => {
                params(within).iter().all(|p| self.not_referenced_in(t, p))
            }
            _ => true,
        }
    }

    /// `substitute`: `t` with bound type parameters replaced, and unbound ones by dyn when
    /// `to_dyn`.
    pub(crate) fn substitute(&self, t: &Type, to_dyn: bool) -> Type {
        let mut t = t;
        // follow the chain of bindings (the occurs check keeps it acyclic)
        while let Some(sub) = self.find(t) {
            t = sub;
        }
        match kind(t) {
            Kind::TypeParam if to_dyn => Type::Dyn,
            Kind::Opaque | Kind::List | Kind::Map | Kind::Type => {
                let ps = params(t);
                if ps.is_empty() {
                    return t.clone();
                }
                let subs = ps.iter().map(|p| self.substitute(p, to_dyn)).collect();
                with_params(t, subs)
            }
            _ => t.clone(),
        }
    }
}

fn assignable_null(t: &Type) -> bool {
    matches!(
        kind(t),
        Kind::Opaque | Kind::Struct | Kind::Duration | Kind::Timestamp
    ) || type_accepts(t, &Type::Null)
}

/// `isEqualOrLessSpecific`.
fn equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    let (k1, k2) = (kind(t1), kind(t2));
    if is_dyn(t1) || k1 == Kind::TypeParam {
        return true;
    }
    if is_dyn(t2) || k2 == Kind::TypeParam {
        return false;
    }
    if k1 != k2 {
        return false;
    }
    match k1 {
        Kind::Opaque => {
            let (p1, p2) = (params(t1), params(t2));
            type_name(t1) == type_name(t2)
                && p1.len() == p2.len()
                && p1
                    .iter()
                    .zip(&p2)
                    .all(|(a, b)| equal_or_less_specific(a, b))
        }
        Kind::List | Kind::Map => {
            let (p1, p2) = (params(t1), params(t2));
            p1.iter()
                .zip(&p2)
                .all(|(a, b)| equal_or_less_specific(a, b))
        }
        Kind::Type => true,
        _ => is_exact(t1, t2),
    }
}

/// `mostGeneral`: the more general of two types known to unify.
pub(crate) fn most_general(t1: &Type, t2: &Type) -> Type {
    if equal_or_less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

/// The type parameters of an overload signature, in order of first appearance (result
/// first, as cel-go collects them).
pub(crate) fn collect_params<'a>(t: &'a Type, out: &mut Vec<&'a str>) {
    if let Type::Param(name) = t
        && !out.contains(&&**name)
    {
        out.push(name);
    }
    for p in params(t) {
        collect_params(p, out);
    }
}

/// `t` with type parameters renamed by `names` (instantiation with fresh variables).
pub(crate) fn rename_params(t: &Type, names: &HashMap<&str, Type>) -> Type {
    match t {
        Type::Param(name) => names.get(&**name).cloned().unwrap_or_else(|| t.clone()),
        _ => {
            let ps = params(t);
            if ps.is_empty() {
                return t.clone();
            }
            let subs = ps.iter().map(|p| rename_params(p, names)).collect();
            with_params(t, subs)
        }
    }
}
