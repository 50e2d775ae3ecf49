//! Conditional expressions (`ConditionalExpr.Value`): type unification of the branches, the
//! refined result of an unknown condition, and hcl's description of a type mismatch.

use super::ops::refine_not_null;
use super::{Diags, Run, go_quote};
use crate::eval::convert;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::syntax::ast::{Expr, between};
use std::collections::BTreeMap;

impl Run<'_> {
    pub(super) fn conditional(
        &mut self,
        condition: &Expr,
        if_true: &Expr,
        if_false: &Expr,
        scope: &Scope,
    ) -> (Value, Diags) {
        let (true_val, true_diags) = self.eval(if_true, scope);
        let (false_val, false_diags) = self.eval(if_false, scope);
        let mut diags = Vec::new();
        let is_dynamic_null = |v: &Value| matches!(v, Value::Null(Type::Dynamic));

        let mut convs: [Option<convert::Conversion>; 2] = [None, None];
        let result_ty = if is_dynamic_null(&true_val) {
            let ty = false_val.ty();
            convs[0] = convert::get_conversion_unsafe(&Type::Dynamic, &ty);
            ty
        } else if is_dynamic_null(&false_val) {
            let ty = true_val.ty();
            convs[1] = convert::get_conversion_unsafe(&Type::Dynamic, &ty);
            ty
        } else if true_val.has_dynamic_type() || false_val.has_dynamic_type() {
            Type::Dynamic
        } else {
            match convert::unify_unsafe_conversions(&[true_val.ty(), false_val.ty()]) {
                Some((ty, found)) => {
                    let mut found = found.into_iter();
                    convs = [found.next().flatten(), found.next().flatten()];
                    ty
                }
                None => {
                    let d = self.diag(
                        "Inconsistent conditional result types",
                        format!(
                            "The true and false result expressions must have consistent types. {}.",
                            describe_type_mismatch(&true_val.ty(), &false_val.ty())
                        ),
                        &between(&if_true.span, &if_false.span),
                    );
                    return (Value::dynamic(), vec![d]);
                }
            }
        };

        let (cond, cond_diags) = self.eval(condition, scope);
        diags.extend(cond_diags);
        if cond.is_null() {
            diags.push(self.diag_expr(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                &condition.span,
            ));
            return (Value::unknown(result_ty), diags);
        }
        if !cond.is_known() {
            if true_val.is_null() && false_val.is_null() {
                return (Value::Null(result_ty), diags);
            }
            return (
                unknown_branch_result(&true_val, &false_val, result_ty),
                diags,
            );
        }
        let cond = match convert::convert(&cond, &Type::Bool) {
            Ok(c) => c,
            Err(_) => {
                diags.push(self.diag_expr(
                    "Incorrect condition type",
                    "The condition expression must be of type bool.",
                    &condition.span,
                ));
                return (Value::unknown(result_ty), diags);
            }
        };
        let chose_true = matches!(cond, Value::Bool(true));
        crate::eval::coverage::arm(self.ev.file, condition.span.start, chose_true);
        let (chosen, chosen_diags, conv, branch, which) = if chose_true {
            (true_val, true_diags, &convs[0], if_true, "true")
        } else {
            (false_val, false_diags, &convs[1], if_false, "false")
        };
        diags.extend(chosen_diags);
        let Some(conv) = conv else {
            return (chosen, diags);
        };
        match conv(&chosen) {
            Ok(v) => (v, diags),
            Err(err) => {
                diags.push(self.diag_expr(
                    "Inconsistent conditional result types",
                    format!("The {which} result value has the wrong type: {err}."),
                    &branch.span,
                ));
                (Value::unknown(result_ty), diags)
            }
        }
    }
}

/// A conditional's result for an unknown condition: cty refines the unknown with the range
/// both branches allow, which pins it to a known value when both are the same known number,
/// or known collections of one type and one length (empty, a list of unknowns, or a set of
/// one unknown). Other numeric bounds and lengths are not representable here.
fn unknown_branch_result(t: &Value, f: &Value, result_ty: Type) -> Value {
    let not_null = t.definitely_not_null() && f.definitely_not_null();
    let unknown = || {
        let v = Value::unknown(result_ty.clone());
        if not_null { refine_not_null(v) } else { v }
    };
    let (tty, fty) = (t.ty(), f.ty());
    if tty == Type::Number && fty == Type::Number {
        if let (true, Value::Number(a), Value::Number(b)) = (not_null, t, f) {
            let lo = if a.compare(b).is_lt() { a } else { b };
            let hi = if a.compare(b).is_gt() { a } else { b };
            if lo.cty_equal(hi) {
                return Value::Number(lo.clone());
            }
        }
        return unknown();
    }
    if tty.is_collection() && fty.is_collection() && tty == fty {
        let bounds = |v: &Value| match v {
            Value::Set { items, .. } if items.len() != 1 && !v.is_wholly_known() => (0, usize::MAX),
            Value::List { items, .. } | Value::Set { items, .. } => (items.len(), items.len()),
            Value::Map { items, .. } => (items.len(), items.len()),
            _ => (0, usize::MAX),
        };
        let ((tlo, thi), (flo, fhi)) = (bounds(t), bounds(f));
        let (lo, hi) = (tlo.min(flo), thi.max(fhi));
        if not_null && lo == hi {
            let elem = tty.element().cloned().unwrap_or(Type::Dynamic);
            match (&tty, lo) {
                (Type::List(_), n) => {
                    return Value::List {
                        items: vec![Value::unknown(elem.clone()); n].into(),
                        elem,
                    };
                }
                (Type::Set(_), 0) => return convert::set_from(elem, Vec::new()),
                (Type::Set(_), 1) => {
                    return convert::set_from(elem.clone(), vec![Value::unknown(elem)]);
                }
                (Type::Map(_), 0) => {
                    return Value::Map {
                        elem,
                        items: BTreeMap::new().into(),
                    };
                }
                _ => {}
            }
        }
        return unknown();
    }
    unknown()
}

/// hcl's `describeConditionalTypeMismatch`.
pub(super) fn describe_type_mismatch(t: &Type, f: &Type) -> String {
    match (t, f) {
        (Type::Object(ta), Type::Object(fa)) => {
            for (name, tty) in ta.iter() {
                let Some(fty) = fa.get(name) else {
                    return format!(
                        "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                        go_quote(name)
                    );
                };
                if tty != fty {
                    return format!(
                        "Type mismatch for object attribute {}: {}",
                        go_quote(name),
                        describe_type_mismatch(tty, fty)
                    );
                }
            }
            if let Some(name) = fa.keys().find(|name| !ta.contains_key(*name)) {
                return format!(
                    "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                    go_quote(name)
                );
            }
        }
        (Type::Tuple(te), Type::Tuple(fe)) => {
            if te.len() != fe.len() {
                return format!(
                    "The 'true' tuple has length {}, but the 'false' tuple has length {}",
                    te.len(),
                    fe.len()
                );
            }
            for (i, (tty, fty)) in te.iter().zip(fe.iter()).enumerate() {
                if tty != fty {
                    return format!(
                        "Type mismatch for tuple element {i}: {}",
                        describe_type_mismatch(tty, fty)
                    );
                }
            }
        }
        (Type::List(te), Type::List(fe))
        | (Type::Map(te), Type::Map(fe))
        | (Type::Set(te), Type::Set(fe))
            if matches!(
                (&**te, &**fe),
                (Type::Object(_), Type::Object(_)) | (Type::Tuple(_), Type::Tuple(_))
            ) =>
        {
            let noun = match t {
                Type::List(_) => "list",
                Type::Set(_) => "set",
                _ => "map",
            };
            return format!(
                "Mismatched {noun} element types: {}",
                describe_type_mismatch(te, fe)
            );
        }
        _ => {}
    }
    let (tn, fname) = (t.friendly_name(), f.friendly_name());
    if tn == fname {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".into();
    }
    format!("The 'true' value is {tn}, but the 'false' value is {fname}")
}
