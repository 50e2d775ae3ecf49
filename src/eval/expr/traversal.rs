//! Traversals (hcl's traversal.go and ops.go): `TraverseAbs` and `TraverseRel` over variables,
//! `GetAttr` and `Index`, with cty's `HasIndex` and `Index` on collections.

use super::{Diags, Run, go_quote, has_errors, literal};
use crate::diagnostics::suggest::name_suggestion;
use crate::eval::convert;
use crate::eval::num::Num;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::syntax::ast::{Step, TextRange};
use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;

impl Run<'_> {
    /// `Traversal.TraverseAbs`.
    pub(super) fn traverse_abs(
        &mut self,
        root: &str,
        root_span: &TextRange,
        steps: &[Step],
        scope: &Scope,
    ) -> (Value, Diags) {
        if let Some(val) = scope.lookup(root) {
            return self.traverse_rel(val.clone(), steps);
        }
        if !scope.has_variables() {
            let d = self.diag(
                "Variables not allowed",
                "Variables may not be used here.",
                root_span,
            );
            return (Value::dynamic(), vec![d]);
        }
        let names = scope.variable_names();
        let suggestion = name_suggestion(root, &names)
            .map(|s| format!(" Did you mean {}?", go_quote(s)))
            .unwrap_or_default();
        let d = self.diag(
            "Unknown variable",
            format!("There is no variable named {}.{suggestion}", go_quote(root)),
            root_span,
        );
        (Value::dynamic(), vec![d])
    }

    /// `Traversal.TraverseRel`: stops at the first step with errors.
    pub(super) fn traverse_rel(&mut self, val: Value, steps: &[Step]) -> (Value, Diags) {
        let mut current = val;
        let mut diags = Vec::new();
        for step in steps {
            let (next, more) = match step {
                Step::Attr { name, span } => self.get_attr(&current, name, span),
                Step::Index { key, span } => self.index(&current, &literal(key), span),
            };
            let failed = has_errors(&more);
            diags.extend(more);
            if failed {
                return (Value::dynamic(), diags);
            }
            current = next;
        }
        (current, diags)
    }

    /// hcl's `GetAttr`.
    pub(super) fn get_attr(&self, obj: &Value, name: &str, range: &TextRange) -> (Value, Diags) {
        const UNSUPPORTED: &str = "Unsupported attribute";
        let fail = |summary: &str, detail: String| {
            (Value::dynamic(), vec![self.diag(summary, detail, range)])
        };
        if obj.is_null() {
            return fail(
                "Attempt to get attribute from null value",
                "This value is null, so it does not have any attributes.".into(),
            );
        }
        let key: String = name.nfc().collect();
        // Known objects and maps answer from their own index: the cost of a lookup must not
        // depend on the size of the value (building `obj.ty()` would walk all of it).
        let ty = match obj {
            Value::Object(items) => {
                return match items.get(&key) {
                    Some(v) => (v.clone(), Vec::new()),
                    None => fail(
                        UNSUPPORTED,
                        format!(
                            "This object does not have an attribute named {}.",
                            go_quote(name)
                        ),
                    ),
                };
            }
            Value::Tuple(_) => {
                return fail(
                    UNSUPPORTED,
                    "This value does not have any attributes.".into(),
                );
            }
            Value::Unknown(ty, _) => Cow::Borrowed(ty),
            other => Cow::Owned(other.ty()),
        };
        match &*ty {
            Type::Object(attrs) => {
                let Some(aty) = attrs.get(&key) else {
                    return fail(
                        UNSUPPORTED,
                        format!(
                            "This object does not have an attribute named {}.",
                            go_quote(name)
                        ),
                    );
                };
                match obj {
                    Value::Object(items) => (
                        items
                            .get(&key)
                            .cloned()
                            .unwrap_or_else(|| Value::unknown(aty.clone())),
                        Vec::new(),
                    ),
                    _ => (Value::unknown(aty.clone()), Vec::new()),
                }
            }
            Type::Map(elem) => match obj {
                Value::Map { items, .. } => match items.get(&key) {
                    Some(v) => (v.clone(), Vec::new()),
                    None => fail(
                        "Missing map element",
                        format!(
                            "This map does not have an element with the key {}.",
                            go_quote(name)
                        ),
                    ),
                },
                _ => (Value::unknown((**elem).clone()), Vec::new()),
            },
            Type::Dynamic => (Value::dynamic(), Vec::new()),
            Type::List(elem) if matches!(**elem, Type::Object(_)) => {
                let has = matches!(&**elem, Type::Object(attrs) if attrs.contains_key(&key));
                if has {
                    fail(
                        UNSUPPORTED,
                        format!(
                            "Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?",
                            go_quote(name)
                        ),
                    )
                } else {
                    fail(
                        UNSUPPORTED,
                        "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?".into(),
                    )
                }
            }
            Type::Set(elem) if matches!(**elem, Type::Object(_)) => fail(
                UNSUPPORTED,
                "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?".into(),
            ),
            ty if ty.is_primitive() => fail(
                UNSUPPORTED,
                format!(
                    "Can't access attributes on a primitive-typed value ({}).",
                    ty.friendly_name()
                ),
            ),
            _ => fail(
                UNSUPPORTED,
                "This value does not have any attributes.".into(),
            ),
        }
    }

    /// hcl's `Index`.
    pub(super) fn index(&self, coll: &Value, key: &Value, range: &TextRange) -> (Value, Diags) {
        if coll.is_null() {
            return self.fail(
                range,
                "Attempt to index null value",
                "This value is null, so it does not have any indices.".into(),
            );
        }
        if key.is_null() {
            return self.fail(
                range,
                INVALID_INDEX,
                "Can't use a null value as an indexing key.".into(),
            );
        }
        // A null was refused above, so only an unknown can be of dynamic type.
        let dynamic = |v: &Value| matches!(v, Value::Unknown(Type::Dynamic, _));
        if dynamic(key) || dynamic(coll) {
            return (Value::dynamic(), Vec::new());
        }
        // Known objects and tuples are indexed without building their type (which walks all
        // of the value): a lookup costs the same in a small and a large value.
        let ty = match coll {
            Value::Object(items) => {
                return self.index_attrs(key, range, |name| items.get(name).cloned());
            }
            Value::Tuple(items) => {
                return self.index_sequence(coll, key, range, Seq::Tuple(items.len()));
            }
            Value::Unknown(ty, _) => Cow::Borrowed(ty),
            other => Cow::Owned(other.ty()),
        };
        match &*ty {
            Type::List(elem) => self.index_sequence(coll, key, range, Seq::List(elem)),
            Type::Map(elem) => self.index_sequence(coll, key, range, Seq::Map(elem)),
            Type::Tuple(elems) => self.index_sequence(coll, key, range, Seq::Tuple(elems.len())),
            Type::Object(attrs) => self.index_attrs(key, range, |name| {
                attrs.get(name).map(|aty| Value::unknown(aty.clone()))
            }),
            Type::Set(_) => self.fail(
                range,
                INVALID_INDEX,
                "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.".into(),
            ),
            _ => self.fail(range, INVALID_INDEX, "This value does not have any indices.".into()),
        }
    }

    fn fail(&self, range: &TextRange, summary: &str, detail: String) -> (Value, Diags) {
        (Value::dynamic(), vec![self.diag(summary, detail, range)])
    }

    /// `Index` on an object (known, or unknown of an object type): `attr` gives the attribute
    /// of a name, `None` when the object has no such attribute.
    fn index_attrs(
        &self,
        key: &Value,
        range: &TextRange,
        attr: impl Fn(&str) -> Option<Value>,
    ) -> (Value, Diags) {
        let was_number = matches!(key, Value::Number(_) | Value::Unknown(Type::Number, _));
        let key = match convert::convert(key, &Type::String) {
            Ok(k) => k,
            Err(e) => return self.fail(range, INVALID_INDEX, format!("{NO_ELEMENT}: {e}.")),
        };
        let Value::String(name) = &key else {
            return (Value::dynamic(), Vec::new());
        };
        match attr(name) {
            Some(v) => (v, Vec::new()),
            None => {
                let suggestion = if was_number {
                    " An object only supports looking up attributes by name, not by numeric index."
                } else {
                    ""
                };
                self.fail(range, INVALID_INDEX, format!("{NO_ELEMENT}.{suggestion}"))
            }
        }
    }

    /// `Index` on a list, tuple or map (known or unknown).
    fn index_sequence(
        &self,
        coll: &Value,
        key: &Value,
        range: &TextRange,
        seq: Seq<'_>,
    ) -> (Value, Diags) {
        let want = if matches!(seq, Seq::Map(_)) {
            Type::String
        } else {
            Type::Number
        };
        let key = match convert::convert(key, &want) {
            Ok(k) => k,
            Err(e) => return self.fail(range, INVALID_INDEX, format!("{NO_ELEMENT}: {e}.")),
        };
        match has_index(coll, &seq, &key) {
            None => {
                let val = match seq {
                    Seq::Tuple(_) => Value::dynamic(),
                    Seq::List(elem) | Seq::Map(elem) => Value::unknown(elem.clone()),
                };
                (val, Vec::new())
            }
            Some(false) => {
                if let (Seq::List(_) | Seq::Tuple(_), Value::Number(n)) = (&seq, &key) {
                    if !n.is_int() {
                        return self.fail(
                            range,
                            INVALID_INDEX,
                            format!("{NO_ELEMENT}: indexing a sequence requires a whole number, but the given index has a fractional part."),
                        );
                    }
                    if n.is_neg() && !n.is_zero() {
                        return self.fail(
                            range,
                            INVALID_INDEX,
                            format!("{NO_ELEMENT}: a negative number is not a valid index for a sequence."),
                        );
                    }
                    let len = match (&seq, coll) {
                        (Seq::Tuple(len), _) => Some(*len),
                        (_, Value::List { items, .. }) => Some(items.len()),
                        _ => None,
                    };
                    if let Some(len) = len {
                        let len_num = Num::from_i64(len as i64);
                        // hcl tests `key - len < 1` as a sign: only `key == len` gets the
                        // specific messages.
                        let at_end = n
                            .sub(&len_num)
                            .map(|d| d.is_zero() || d.is_neg())
                            .unwrap_or(false);
                        if at_end {
                            let detail = if len == 0 {
                                format!("{NO_ELEMENT}: the collection has no elements.")
                            } else {
                                format!(
                                    "{NO_ELEMENT}: the given index is greater than or equal to the length of the collection."
                                )
                            };
                            return self.fail(range, INVALID_INDEX, detail);
                        }
                    }
                }
                self.fail(range, INVALID_INDEX, format!("{NO_ELEMENT}."))
            }
            Some(true) => (element_at(coll, &key), Vec::new()),
        }
    }
}

const INVALID_INDEX: &str = "Invalid index";
const NO_ELEMENT: &str = "The given key does not identify an element in this collection value";

/// What [`Run::index_sequence`] needs of a list, tuple or map type.
enum Seq<'a> {
    /// A list of this element type.
    List(&'a Type),
    /// A map of this element type.
    Map(&'a Type),
    /// A tuple of this many elements.
    Tuple(usize),
}

/// cty's `HasIndex` on a list, map or tuple with an already converted key: `None` when
/// unknown.
fn has_index(coll: &Value, seq: &Seq<'_>, key: &Value) -> Option<bool> {
    match (seq, key) {
        (_, Value::Unknown(..)) => None,
        (Seq::Tuple(len), Value::Number(n)) => {
            Some(n.to_i64().is_some_and(|i| i >= 0 && (i as usize) < *len))
        }
        (_, _) if !coll.is_known() => None,
        (Seq::List(_), Value::Number(n)) => Some(
            n.to_i64()
                .is_some_and(|i| i >= 0 && (i as usize) < coll.elements().len()),
        ),
        (Seq::Map(_), Value::String(s)) => match coll {
            Value::Map { items, .. } => Some(items.contains_key(s.as_str())),
            _ => None,
        },
        _ => Some(false),
    }
}

/// cty's `Index` on a list, map or tuple for a key [`has_index`] accepted.
fn element_at(coll: &Value, key: &Value) -> Value {
    match (coll, key) {
        (Value::List { items, .. } | Value::Tuple(items), Value::Number(n)) => n
            .to_i64()
            .and_then(|i| items.get(i as usize))
            .cloned()
            .unwrap_or_else(Value::dynamic),
        (Value::Map { items, .. }, Value::String(s)) => items
            .get(s.as_str())
            .cloned()
            .unwrap_or_else(Value::dynamic),
        (Value::Unknown(Type::Tuple(elems), _), Value::Number(n)) => n
            .to_i64()
            .and_then(|i| elems.get(i as usize))
            .map_or_else(Value::dynamic, |ty| Value::unknown(ty.clone())),
        _ => Value::dynamic(),
    }
}
