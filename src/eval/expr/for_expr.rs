//! `for` expressions (`ForExpr.Value`): tuple and object results, conditions and grouping.

use super::{Diags, Run, go_quote, has_errors};
use crate::eval::convert;
use crate::eval::num::Num;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::{Shared, Value};
use crate::syntax::ast::{Expr, ForExpr};
use std::collections::BTreeMap;

impl Run<'_> {
    pub(super) fn for_expr(&mut self, f: &ForExpr, scope: &Scope) -> (Value, Diags) {
        let (coll, mut diags) = self.eval(&f.collection, scope);
        if coll.is_null() {
            diags.push(self.diag_expr(
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.",
                &f.collection.span,
            ));
            return (Value::dynamic(), diags);
        }
        // A known collection's kind is its type's; only unknowns and nulls carry a type to
        // read (a tuple's or object's type would be built element by element).
        let collection = matches!(
            coll,
            Value::List { .. }
                | Value::Map { .. }
                | Value::Set { .. }
                | Value::Tuple(_)
                | Value::Object(_)
        );
        let coll_ty = if collection { None } else { Some(coll.ty()) };
        if coll_ty == Some(Type::Dynamic) {
            return (Value::dynamic(), diags);
        }
        if let Some(coll_ty) = coll_ty
            && !matches!(
                coll_ty,
                Type::List(_) | Type::Map(_) | Type::Set(_) | Type::Tuple(_) | Type::Object(_)
            )
        {
            diags.push(self.diag_expr(
                "Iteration over non-iterable value",
                format!(
                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                    coll_ty.friendly_name()
                ),
                &f.collection.span,
            ));
            return (Value::dynamic(), diags);
        }

        // An early check of the condition with unknown iteration variables.
        if let Some(cond) = &f.condition {
            let child = scope.iteration(&f.value_var, f.key_var.as_deref());
            let (result, cond_diags) = self.eval(cond, &child);
            let cond_failed = has_errors(&cond_diags);
            diags.extend(cond_diags);
            if result.is_null() {
                diags.push(self.diag_expr(
                    "Condition is null",
                    "The value of the 'if' clause must not be null.",
                    &cond.span,
                ));
                return (Value::dynamic(), diags);
            }
            if let Err(err) = convert::convert(&result, &Type::Bool) {
                diags.push(self.diag_expr(
                    "Invalid 'for' condition",
                    format!("The 'if' clause value is invalid: {err}."),
                    &cond.span,
                ));
                return (Value::dynamic(), diags);
            }
            if cond_failed {
                return (Value::dynamic(), diags);
            }
        }

        if !coll.is_known() {
            return (Value::dynamic(), diags);
        }
        // Every element visited counts, kept or not: a `for` that filters everything out
        // still does the work (`eval::budget`).
        crate::eval::budget::elements(coll.len().unwrap_or(0), None);
        let elements = element_pairs(coll, f.key_var.is_some());
        match &f.key {
            Some(key_expr) => self.for_object(f, key_expr, elements, scope, diags),
            None => self.for_tuple(f, elements, scope, diags),
        }
    }

    fn for_object(
        &mut self,
        f: &ForExpr,
        key_expr: &Expr,
        elements: Vec<(Value, Value)>,
        scope: &Scope,
        mut diags: Diags,
    ) -> (Value, Diags) {
        let mut vals: BTreeMap<String, Value> = BTreeMap::new();
        let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut known = true;
        let mut child = scope.iteration(&f.value_var, f.key_var.as_deref());
        for (k, v) in elements {
            crate::eval::deadline::checkpoint();
            child.rebind(v, k);
            if let Some(cond) = &f.condition {
                let (include_raw, cond_diags) = self.eval(cond, &child);
                diags.extend(cond_diags);
                if include_raw.is_null() {
                    if known {
                        diags.push(self.diag_expr(
                            "Invalid 'for' condition",
                            "The value of the 'if' clause must not be null.",
                            &cond.span,
                        ));
                    }
                    known = false;
                    continue;
                }
                let include = match convert::convert(&include_raw, &Type::Bool) {
                    Ok(v) => v,
                    Err(err) => {
                        if known {
                            diags.push(self.diag_expr(
                                "Invalid 'for' condition",
                                format!("The 'if' clause value is invalid: {err}."),
                                &cond.span,
                            ));
                        }
                        known = false;
                        continue;
                    }
                };
                if !include.is_known() {
                    known = false;
                    continue;
                }
                if matches!(include, Value::Bool(false)) {
                    continue;
                }
            }

            let (key_raw, key_diags) = self.eval(key_expr, &child);
            diags.extend(key_diags);
            if key_raw.is_null() {
                if known {
                    diags.push(self.diag_expr(
                        "Invalid object key",
                        "Key expression in 'for' expression must not produce a null value.",
                        &key_expr.span,
                    ));
                }
                known = false;
                continue;
            }
            if !key_raw.is_known() {
                known = false;
                continue;
            }
            let key = match convert::convert(&key_raw, &Type::String) {
                Ok(Value::String(s)) => s,
                Ok(_) => {
                    known = false;
                    continue;
                }
                Err(err) => {
                    if known {
                        diags.push(self.diag_expr(
                            "Invalid object key",
                            format!("The key expression produced an invalid result: {err}."),
                            &key_expr.span,
                        ));
                    }
                    known = false;
                    continue;
                }
            };

            let (val, val_diags) = self.eval(&f.value, &child);
            diags.extend(val_diags);
            if f.group {
                groups.entry(key.into_string()).or_default().push(val);
                continue;
            }
            match vals.entry(key.into_string()) {
                std::collections::btree_map::Entry::Occupied(entry) => {
                    let detail = format!(
                        "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                        go_quote(entry.key())
                    );
                    diags.push(self.diag_expr("Duplicate object key", detail, &key_expr.span));
                }
                std::collections::btree_map::Entry::Vacant(entry) => {
                    entry.insert(val);
                }
            }
        }
        if !known {
            return (Value::dynamic(), diags);
        }
        if f.group {
            vals = groups
                .into_iter()
                .map(|(k, items)| (k, Value::Tuple(items.into())))
                .collect();
        }
        (Value::Object(vals.into()), diags)
    }

    fn for_tuple(
        &mut self,
        f: &ForExpr,
        elements: Vec<(Value, Value)>,
        scope: &Scope,
        mut diags: Diags,
    ) -> (Value, Diags) {
        let mut vals = Vec::with_capacity(elements.len());
        let mut known = true;
        let mut child = scope.iteration(&f.value_var, f.key_var.as_deref());
        for (k, v) in elements {
            crate::eval::deadline::checkpoint();
            child.rebind(v, k);
            if let Some(cond) = &f.condition {
                let (include_raw, cond_diags) = self.eval(cond, &child);
                diags.extend(cond_diags);
                if include_raw.is_null() {
                    if known {
                        diags.push(self.diag_expr(
                            "Invalid 'for' condition",
                            "The value of the 'if' clause must not be null.",
                            &cond.span,
                        ));
                    }
                    known = false;
                    continue;
                }
                if !include_raw.is_known() {
                    known = false;
                    continue;
                }
                match convert::convert(&include_raw, &Type::Bool) {
                    Ok(Value::Bool(false)) => continue,
                    Ok(_) => {}
                    Err(err) => {
                        if known {
                            diags.push(self.diag_expr(
                                "Invalid 'for' condition",
                                format!("The 'if' clause value is invalid: {err}."),
                                &cond.span,
                            ));
                        }
                        known = false;
                        continue;
                    }
                }
            }
            let (val, val_diags) = self.eval(&f.value, &child);
            diags.extend(val_diags);
            vals.push(val);
        }
        if !known {
            return (Value::dynamic(), diags);
        }
        (Value::Tuple(vals.into()), diags)
    }
}

/// cty's `ElementIterator` pairs: index/element for lists and tuples, key/element for maps
/// and objects (sorted), element/element for sets. Without a key variable the keys are
/// never read, so they are not built (placeholders instead); elements are moved out of a
/// collection nothing else shares.
fn element_pairs(coll: Value, with_keys: bool) -> Vec<(Value, Value)> {
    let key = |make: &dyn Fn() -> Value| if with_keys { make() } else { Value::dynamic() };
    match coll {
        Value::List { items, .. } | Value::Tuple(items) => Shared::into_data(items)
            .into_iter()
            .enumerate()
            .map(|(i, v)| (key(&|| Value::Number(Num::from_i64(i as i64))), v))
            .collect(),
        Value::Set { items, .. } => Shared::into_data(items)
            .into_iter()
            .map(|v| (key(&|| v.clone()), v))
            .collect(),
        Value::Map { items, .. } | Value::Object(items) => Shared::into_data(items)
            .into_iter()
            .map(|(k, v)| (key(&|| Value::String(k.as_str().into())), v))
            .collect(),
        _ => Vec::new(),
    }
}
