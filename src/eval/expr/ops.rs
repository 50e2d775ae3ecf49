//! Operators (expression_ops.go, with the cty stdlib operator functions): binary and unary
//! operations, `||`/`&&` short-circuiting and cty's arithmetic helpers.

use super::{Diags, Run, has_errors};
use crate::eval::convert;
use crate::eval::num::Num;
use crate::eval::scope::Scope;
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::syntax::ast::{BinaryOp, Expr, UnaryOp};

impl Run<'_> {
    pub(super) fn binary(
        &mut self,
        expr: &Expr,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        scope: &Scope,
    ) -> (Value, Diags) {
        let (param_ty, ret_ty) = op_types(op);
        let mut diags = Vec::new();

        let (given_lhs, lhs_diags) = self.eval(lhs, scope);
        let lhs_val = match convert::convert(&given_lhs, &param_ty) {
            Ok(v) => v,
            Err(err) => {
                diags.push(self.diag_expr(
                    "Invalid operand",
                    format!("Unsuitable value for left operand: {err}."),
                    &lhs.span,
                ));
                Value::dynamic()
            }
        };
        let (given_rhs, rhs_diags) = self.eval(rhs, scope);
        let rhs_val = match convert::convert(&given_rhs, &param_ty) {
            Ok(v) => v,
            Err(err) => {
                diags.push(self.diag_expr(
                    "Invalid operand",
                    format!("Unsuitable value for right operand: {err}."),
                    &rhs.span,
                ));
                Value::dynamic()
            }
        };
        if has_errors(&diags) {
            diags.extend(lhs_diags);
            diags.extend(rhs_diags);
            return (Value::unknown(ret_ty), diags);
        }

        if matches!(op, BinaryOp::Or | BinaryOp::And)
            && let Some(forced) = short_circuit(op, &lhs_val, &rhs_val, &lhs_diags, &rhs_diags)
        {
            return forced;
        }

        diags.extend(lhs_diags);
        diags.extend(rhs_diags);
        if has_errors(&diags) {
            return (Value::unknown(ret_ty), diags);
        }
        match binary_op(op, &lhs_val, &rhs_val) {
            Ok(v) => (v, diags),
            Err(message) => {
                diags.push(self.diag(
                    "Operation failed",
                    format!("Error during operation: {message}."),
                    &expr.span,
                ));
                (Value::unknown(ret_ty), diags)
            }
        }
    }

    pub(super) fn unary(
        &mut self,
        expr: &Expr,
        op: UnaryOp,
        operand: &Expr,
        scope: &Scope,
    ) -> (Value, Diags) {
        let ty = match op {
            UnaryOp::Negate => Type::Number,
            UnaryOp::Not => Type::Bool,
        };
        let (given, mut diags) = self.eval(operand, scope);
        let val = match convert::convert(&given, &ty) {
            Ok(v) => v,
            Err(err) => {
                diags.push(self.diag_expr(
                    "Invalid operand",
                    format!("Unsuitable value for unary operand: {err}."),
                    &operand.span,
                ));
                Value::dynamic()
            }
        };
        if has_errors(&diags) {
            return (Value::unknown(ty), diags);
        }
        // NegateFunc and NotFunc: no null, no unknown (the result is then an unknown that is
        // not null).
        if val.is_null() {
            diags.push(self.diag(
                "Operation failed",
                "Error during operation: argument must not be null.",
                &expr.span,
            ));
            return (Value::unknown(ty), diags);
        }
        let result = match (op, &val) {
            (_, Value::Unknown(..)) => unknown_not_null(ty),
            (UnaryOp::Negate, Value::Number(n)) => Value::Number(n.neg()),
            (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
            _ => unknown_not_null(ty),
        };
        (result, diags)
    }
}

/// The parameter type and result type of an operator's cty function.
fn op_types(op: BinaryOp) -> (Type, Type) {
    match op {
        BinaryOp::Or | BinaryOp::And => (Type::Bool, Type::Bool),
        BinaryOp::Equal | BinaryOp::NotEqual => (Type::Dynamic, Type::Bool),
        BinaryOp::GreaterThan
        | BinaryOp::GreaterThanOrEqual
        | BinaryOp::LessThan
        | BinaryOp::LessThanOrEqual => (Type::Number, Type::Bool),
        BinaryOp::Add
        | BinaryOp::Subtract
        | BinaryOp::Multiply
        | BinaryOp::Divide
        | BinaryOp::Modulo => (Type::Number, Type::Number),
    }
}

/// cty's `Value.True()`: a null bool counts as not true (so `False()` holds for it).
fn is_true(v: &Value) -> bool {
    matches!(v, Value::Bool(true))
}

/// hcl's `ShortCircuit` for `||` and `&&`, on the converted operands.
fn short_circuit(
    op: BinaryOp,
    lhs: &Value,
    rhs: &Value,
    lhs_diags: &Diags,
    rhs_diags: &Diags,
) -> Option<(Value, Diags)> {
    let unknown = || unknown_not_null(Type::Bool);
    let (lk, rk) = (lhs.is_known(), rhs.is_known());
    if !lk && !rk {
        return if has_errors(lhs_diags) {
            None
        } else {
            Some((unknown(), lhs_diags.clone()))
        };
    }
    // `||` is decided by a true operand, `&&` by a false one (cty's `False()` is `!True()`).
    let decides = |v: &Value| match op {
        BinaryOp::Or => is_true(v),
        _ => !is_true(v),
    };
    let decided = Value::Bool(op == BinaryOp::Or);
    if lk && decides(lhs) {
        return Some((decided, lhs_diags.clone()));
    }
    if rk && decides(rhs) {
        return Some((decided, rhs_diags.clone()));
    }
    if !lk && !decides(rhs) {
        return Some((unknown(), lhs_diags.clone()));
    }
    if !rk && !decides(lhs) {
        return Some((unknown(), rhs_diags.clone()));
    }
    None
}

/// The stdlib operator function for `op` called (as cty's `Function.Call`) on converted
/// operands; `Err` is the error text.
fn binary_op(op: BinaryOp, a: &Value, b: &Value) -> Result<Value, String> {
    if matches!(op, BinaryOp::Equal | BinaryOp::NotEqual) {
        // EqualFunc and NotEqualFunc accept nulls, unknowns and any type.
        let result = match (op, a.equals(b)) {
            (BinaryOp::NotEqual, Value::Bool(x)) => Value::Bool(!x),
            (_, eq) => eq,
        };
        return Ok(refine_not_null(result));
    }
    // The other operator functions reject nulls. The arithmetic and logical ones do not
    // accept unknowns (so the result is an unknown, refined not null); the comparisons do,
    // but without refined bounds they cannot decide anything either.
    if a.is_null() || b.is_null() {
        return Err("argument must not be null".into());
    }
    let (_, ret_ty) = op_types(op);
    let (x, y) = match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => {
            return Ok(match op {
                BinaryOp::And => Value::Bool(*x && *y),
                BinaryOp::Or => Value::Bool(*x || *y),
                _ => unknown_not_null(ret_ty),
            });
        }
        (Value::Number(x), Value::Number(y)) => (x, y),
        _ => return Ok(unknown_not_null(ret_ty)),
    };
    let nan = |message: &str| message.to_string();
    Ok(match op {
        BinaryOp::LessThan => Value::Bool(x.compare(y).is_lt()),
        // cty: `LessThan(b).Or(Equals(b))`, and Equals compares non-integers by their text.
        BinaryOp::LessThanOrEqual => Value::Bool(x.compare(y).is_lt() || x.cty_equal(y)),
        BinaryOp::GreaterThan => Value::Bool(x.compare(y).is_gt()),
        BinaryOp::GreaterThanOrEqual => Value::Bool(x.compare(y).is_gt() || x.cty_equal(y)),
        BinaryOp::Add => Value::Number(
            x.add(y)
                .map_err(|_| nan("can't compute sum of opposing infinities"))?,
        ),
        BinaryOp::Subtract => Value::Number(
            x.sub(y)
                .map_err(|_| nan("can't subtract infinity from itself"))?,
        ),
        BinaryOp::Multiply => {
            Value::Number(cty_multiply(x, y).map_err(|_| nan("can't multiply zero by infinity"))?)
        }
        BinaryOp::Divide => Value::Number(
            x.div(y)
                .map_err(|_| nan("can't divide zero by zero or infinity by infinity"))?,
        ),
        BinaryOp::Modulo => Value::Number(cty_modulo(x, y)?),
        _ => unknown_not_null(ret_ty),
    })
}

/// cty's `Multiply`: the product at 512 bits, kept at the larger operand precision or the
/// precision the product needs, whichever is more.
pub(super) fn cty_multiply(a: &Num, b: &Num) -> Result<Num, crate::eval::num::NanError> {
    let prec = a.prec().max(b.prec());
    let product = a.set_prec(a.prec().max(crate::eval::num::PREC)).mul(b)?;
    Ok(product.set_prec(prec.max(product.min_prec())))
}

/// cty's `Modulo`: `a - b × trunc(a / b)` at `a`'s precision; `a` itself when `b` is zero.
/// (cty's shortcut for its own infinity singletons never applies to computed infinities.)
fn cty_modulo(a: &Num, b: &Num) -> Result<Num, String> {
    const NAN: &str = "can't use modulo with zero and infinity";
    if b.is_zero() {
        return Ok(a.clone());
    }
    let ratio = a.div(b).map_err(|_| NAN.to_string())?;
    if ratio.is_inf() {
        // Go's `big.Float.Int` gives nil for an infinity, and `SetInt(nil)` panics.
        return Err(
            "panic in function implementation: runtime error: invalid memory address or nil pointer dereference"
                .into(),
        );
    }
    let whole = ratio.trunc().set_prec(a.prec());
    let product = b
        .mul(&whole)
        .map_err(|_| NAN.to_string())?
        .set_prec(a.prec());
    a.sub(&product).map_err(|_| NAN.to_string())
}

/// cty's `RefineNotNull`: a no-op on known values and on `DynamicVal`.
pub(super) fn refine_not_null(v: Value) -> Value {
    match v {
        Value::Unknown(ty, mut r) if ty != Type::Dynamic => {
            r.not_null = true;
            Value::Unknown(ty, r)
        }
        other => other,
    }
}

/// `cty.UnknownVal(ty).RefineNotNull()`.
pub(super) fn unknown_not_null(ty: Type) -> Value {
    refine_not_null(Value::unknown(ty))
}
