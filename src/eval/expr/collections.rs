//! Constructors (object construction with its keys; tuples are built in `eval_inner`) and
//! splat expressions.

use super::ops::unknown_not_null;
use super::{Diags, Run, has_errors};
use crate::analysis::references::keyword;
use crate::eval::convert;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::syntax::ast::{Expr, ExprKind, ObjectItem};
use std::collections::BTreeMap;

impl Run<'_> {
    /// `ObjectConsExpr` with its `ObjectConsKeyExpr` keys.
    pub(super) fn object(&mut self, items: &[ObjectItem], scope: &Scope) -> (Value, Diags) {
        let mut diags = Vec::new();
        let mut vals = BTreeMap::new();
        let mut known = true;
        for item in items {
            let (key, key_diags) = self.object_key(item, scope);
            let key_failed = has_errors(&key_diags);
            diags.extend(key_diags);
            let (val, val_diags) = self.eval(&item.value, scope);
            diags.extend(val_diags);
            if key_failed {
                known = false;
                continue;
            }
            if key.is_null() {
                diags.push(
                    self.diag(
                        "Null value as key",
                        "Can't use a null value as a key.",
                        &item.value.span,
                    )
                    .with_expression(self.span(&item.key.span)),
                );
                known = false;
                continue;
            }
            let key = match convert::convert(&key, &Type::String) {
                Ok(k) => k,
                Err(err) => {
                    diags.push(self.diag_expr(
                        "Incorrect key type",
                        format!("Can't use this value as a key: {err}."),
                        &item.key.span,
                    ));
                    known = false;
                    continue;
                }
            };
            match key {
                Value::String(s) => {
                    vals.insert(s.into_string(), val);
                }
                _ => known = false,
            }
        }
        if !known {
            return (Value::dynamic(), diags);
        }
        (Value::Object(vals.into()), diags)
    }

    /// `ObjectConsKeyExpr.Value`: a bare name is a string unless written in parentheses.
    fn object_key(&mut self, item: &ObjectItem, scope: &Scope) -> (Value, Diags) {
        if !item.force_non_literal {
            if let ExprKind::Traversal { steps, .. } = &item.key.kind
                && !steps.is_empty()
            {
                let d = self.diag_expr(
                    "Ambiguous attribute key",
                    "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                    &item.key.span,
                );
                return (Value::dynamic(), vec![d]);
            }
            if let Some(name) = keyword(&item.key) {
                return (Value::string(name), Vec::new());
            }
        }
        self.eval(&item.key, scope)
    }

    pub(super) fn splat(&mut self, source: &Expr, each: &Expr, scope: &Scope) -> (Value, Diags) {
        let (source_val, mut diags) = self.eval(source, scope);
        if has_errors(&diags) {
            return (Value::dynamic(), diags);
        }
        let source_ty = source_val.ty();
        let auto_upgrade = !matches!(source_ty, Type::Tuple(_) | Type::List(_) | Type::Set(_));
        if source_val.is_null() {
            if auto_upgrade {
                return (Value::Tuple(Vec::new().into()), diags);
            }
            diags.push(self.diag_expr(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                &source.span,
            ));
            return (Value::dynamic(), diags);
        }
        if source_ty == Type::Dynamic {
            return (Value::dynamic(), diags);
        }

        let mut upgraded_unknown = false;
        let source_val = if auto_upgrade {
            if !source_val.is_known() && !source_val.definitely_not_null() {
                upgraded_unknown = true;
            }
            Value::Tuple(vec![source_val].into())
        } else {
            source_val
        };
        let source_ty = source_val.ty();

        if !source_val.is_known() {
            let (ty, ty_diags) = self.splat_result_type(&source_ty, each, scope);
            diags.extend(ty_diags);
            // cty also bounds the length of a list result by the source's; not modelled.
            return (unknown_not_null(ty), diags);
        }

        let mut vals = Vec::new();
        let mut is_known = true;
        for item in source_val.elements() {
            self.items.push(item.clone());
            let (val, item_diags) = self.eval(each, scope);
            self.items.pop();
            if has_errors(&item_diags) {
                is_known = false;
            }
            diags.extend(item_diags);
            vals.push(val);
        }
        if upgraded_unknown {
            return (Value::dynamic(), diags);
        }
        if !is_known {
            let (ty, _) = self.splat_result_type(&source_ty, each, scope);
            return (Value::unknown(ty), diags);
        }
        match source_ty {
            Type::List(_) | Type::Set(_) => {
                if vals.is_empty() {
                    let (ty, ty_diags) = self.splat_result_type(&source_ty, each, scope);
                    diags.extend(ty_diags);
                    let elem = ty.element().cloned().unwrap_or(Type::Dynamic);
                    return (
                        Value::List {
                            elem,
                            items: Vec::new().into(),
                        },
                        diags,
                    );
                }
                match list_val(vals) {
                    Some(list) => (list, diags),
                    None => {
                        diags.push(self.diag(
                            "Invalid nested splat expressions",
                            "The second level of splat expression produced elements of different types, so it isn't possible to construct a valid list to represent the top-level result.\n\nConsider using a for expression instead, to produce a tuple-typed result which can therefore have non-homogenous element types.",
                            &each.span,
                        ));
                        (Value::dynamic(), diags)
                    }
                }
            }
            _ => (Value::Tuple(vals.into()), diags),
        }
    }

    /// The type a splat produces, from `each` evaluated with unknown items of the source's
    /// element types.
    fn splat_result_type(&mut self, source_ty: &Type, each: &Expr, scope: &Scope) -> (Type, Diags) {
        let mut diags = Vec::new();
        let mut each_type = |run: &mut Self, ety: &Type| {
            run.items.push(Value::unknown(ety.clone()));
            let (val, more) = run.eval(each, scope);
            run.items.pop();
            diags.extend(more);
            val.ty()
        };
        let ty = match source_ty {
            Type::List(ety) | Type::Set(ety) => Type::list(each_type(self, ety)),
            Type::Tuple(etys) => Type::Tuple(
                etys.iter()
                    .map(|ety| each_type(self, ety))
                    .collect::<Vec<_>>()
                    .into(),
            ),
            _ => Type::Dynamic,
        };
        (ty, diags)
    }
}

/// cty's `ListVal` on non-empty `vals` (`None` where `CanListVal` is false): the element type
/// is the first one that is not dynamic; dynamic-typed elements take it.
fn list_val(vals: Vec<Value>) -> Option<Value> {
    let mut elem = Type::Dynamic;
    for v in &vals {
        let ty = v.ty();
        if elem == Type::Dynamic {
            elem = ty;
        } else if ty != Type::Dynamic && ty != elem {
            return None;
        }
    }
    let items = vals
        .into_iter()
        .map(|v| match v {
            Value::Unknown(Type::Dynamic, r) => Value::Unknown(elem.clone(), r),
            Value::Null(Type::Dynamic) => Value::Null(elem.clone()),
            other => other,
        })
        .collect::<Vec<_>>()
        .into();
    Some(Value::List { elem, items })
}
