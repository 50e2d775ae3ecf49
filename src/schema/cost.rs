//! Bounding what a CEL rule may cost. The `cel` crate has no cost tracking and no
//! cancellation, so a rule's syntax tree is rewritten once, when it is compiled, to call our
//! functions where the work is:
//!
//! - every comprehension (`all`, `exists`, `exists_one`) charges its range and one unit per
//!   iteration ([`STEP`], [`RANGE`]);
//! - `map` and `filter` are run by [`NATIVE`], which appends to one list where the crate's
//!   expansion copies its accumulator on every iteration (quadratic in the list's length);
//! - `matches` goes to our RE2 implementation (the crate's is Rust's `regex`, compiled per call).
//!
//! A [`Meter`] counts one evaluation against the API server's two limits: a per-call limit and
//! a budget for all the rules of one object (a [`Budget`], which also carries a wall-clock
//! deadline for the work between two charges). Our units are iterations and copied items,
//! coarser than the API server's cost units, so a rule it accepts never runs out here sooner.

use cel::common::ast::{CallExpr, ComprehensionExpr, Expr, IdedExpr, LiteralValue, operators};
use cel::common::value::Val;
use cel::objects::Key;
use cel::{ExecutionError, FunctionContext, ResolveResult, Value};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// The units one evaluation of one rule may use (the API server's `PerCallLimit`).
pub const PER_CALL_LIMIT: i64 = 1_000_000;
/// The units all the rules of one object may use (the API server's `RuntimeCELCostBudget`).
pub const OBJECT_BUDGET: i64 = 10_000_000;
/// The time all the rules of one object may take, for the work our units do not see (a
/// field read copies the field): far beyond what the units allow on any machine.
pub const OBJECT_DEADLINE: Duration = Duration::from_secs(5);

/// The function a comprehension's loop condition is wrapped in: one unit per iteration.
pub(super) const STEP: &str = "@fnhcl_step";
/// The function a comprehension's range is wrapped in: one unit per item.
pub(super) const RANGE: &str = "@fnhcl_range";
/// The function `map` and `filter` become: `NATIVE(index, range)`.
pub(super) const NATIVE: &str = "@fnhcl_map";
/// The function `matches` becomes.
pub(super) const MATCHES: &str = "@fnhcl_matches";

/// The accumulator the crate's macros use.
const RESULT: &str = "@result";

/// One `map` or `filter`: for each item bound to `var`, `transform` appended when `filter`
/// (if any) holds.
#[derive(Debug)]
pub(super) struct Native {
    var: String,
    filter: Option<IdedExpr>,
    transform: IdedExpr,
}

/// Rewrites a parsed rule as the module's documentation says; `natives` receives the bodies
/// of its `map`s and `filter`s, numbered by position. Called on a tree of bounded depth.
pub(super) fn rewrite(expr: &mut IdedExpr, natives: &mut Vec<Native>) {
    let id = expr.id;
    match &mut expr.expr {
        Expr::Call(call) => {
            if call.func_name == "matches" {
                call.func_name = MATCHES.into();
            }
            if let Some(target) = &mut call.target {
                rewrite(target, natives);
            }
            for arg in &mut call.args {
                rewrite(arg, natives);
            }
        }
        Expr::Comprehension(c) => {
            rewrite(&mut c.iter_range, natives);
            rewrite(&mut c.accu_init, natives);
            rewrite(&mut c.loop_cond, natives);
            rewrite(&mut c.loop_step, natives);
            rewrite(&mut c.result, natives);
            if let Some(native) = as_native(c) {
                let range = std::mem::take(&mut c.iter_range);
                natives.push(native);
                let index = natives.len() as i64 - 1;
                expr.expr = call(
                    NATIVE,
                    vec![
                        IdedExpr {
                            id,
                            expr: Expr::Literal(LiteralValue::Int(index.into())),
                        },
                        range,
                    ],
                );
            } else {
                wrap(&mut c.iter_range, RANGE);
                wrap(&mut c.loop_cond, STEP);
            }
        }
        Expr::List(list) => list.elements.iter_mut().for_each(|e| rewrite(e, natives)),
        Expr::Map(map) => {
            for entry in &mut map.entries {
                if let cel::common::ast::EntryExpr::MapEntry(e) = &mut entry.expr {
                    rewrite(&mut e.key, natives);
                    rewrite(&mut e.value, natives);
                }
            }
        }
        Expr::Select(select) => rewrite(&mut select.operand, natives),
        Expr::Struct(_) | Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
    }
}

fn call(name: &str, args: Vec<IdedExpr>) -> Expr {
    Expr::Call(CallExpr {
        func_name: name.into(),
        target: None,
        args,
    })
}

fn wrap(expr: &mut IdedExpr, name: &str) {
    let inner = std::mem::take(expr);
    *expr = IdedExpr {
        id: inner.id,
        expr: call(name, vec![inner]),
    };
}

fn is_result(expr: &IdedExpr) -> bool {
    matches!(&expr.expr, Expr::Ident(name) if name == RESULT)
}

/// `@result + [e]`: the `e`.
fn appended(expr: &IdedExpr) -> Option<&IdedExpr> {
    match &expr.expr {
        Expr::Call(c) if c.func_name == operators::ADD && c.target.is_none() => match &c.args[..] {
            [
                accu,
                IdedExpr {
                    expr: Expr::List(list),
                    ..
                },
            ] if is_result(accu)
                && list.elements.len() == 1
                && list.optional_indices.is_empty() =>
            {
                list.elements.first()
            }
            _ => None,
        },
        _ => None,
    }
}

/// The crate's expansion of `map(x, f)`, `map(x, p, f)` and `filter(x, p)`, exactly.
fn as_native(c: &ComprehensionExpr) -> Option<Native> {
    let empty_init = matches!(&c.accu_init.expr, Expr::List(l) if l.elements.is_empty());
    let always = matches!(&c.loop_cond.expr, Expr::Literal(LiteralValue::Boolean(b)) if **b);
    if c.accu_var != RESULT || c.iter_var2.is_some() || !empty_init || !always {
        return None;
    }
    if !is_result(&c.result) {
        return None;
    }
    let (filter, transform) = match &c.loop_step.expr {
        Expr::Call(step)
            if step.func_name == operators::CONDITIONAL
                && step.target.is_none()
                && step.args.len() == 3
                && is_result(&step.args[2]) =>
        {
            (Some(step.args[0].clone()), appended(&step.args[1])?.clone())
        }
        _ => (None, appended(&c.loop_step)?.clone()),
    };
    Some(Native {
        var: c.iter_var.clone(),
        filter,
        transform,
    })
}

/// The cost budget of one object's rules, shared by their evaluations.
#[derive(Clone, Debug)]
pub struct Budget(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    call_limit: i64,
    remaining: AtomicI64,
    deadline: Instant,
    exhausted: AtomicBool,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(PER_CALL_LIMIT, OBJECT_BUDGET, OBJECT_DEADLINE)
    }
}

impl Budget {
    /// A budget of `units`, spent within `time` from now, at most `call_limit` by one
    /// evaluation.
    pub fn new(call_limit: i64, units: i64, time: Duration) -> Budget {
        Budget(Arc::new(Shared {
            call_limit,
            remaining: AtomicI64::new(units),
            deadline: Instant::now() + time,
            exhausted: AtomicBool::new(false),
        }))
    }

    /// Whether a rule ran out of this budget (no further rules are run).
    pub fn exhausted(&self) -> bool {
        self.0.exhausted.load(Ordering::Relaxed)
    }
}

/// Why a [`Meter`] stopped an evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tripped {
    /// The evaluation went past [`PER_CALL_LIMIT`].
    CallLimit,
    /// The object's [`Budget`] (units or time) ran out.
    Budget,
}

/// The units of one evaluation of one rule.
#[derive(Clone, Debug)]
pub(super) struct Meter(Arc<MeterState>);

#[derive(Debug)]
struct MeterState {
    call_left: AtomicI64,
    budget: Budget,
    /// 0: running; 1: [`Tripped::CallLimit`]; 2: [`Tripped::Budget`].
    tripped: AtomicU8,
}

impl Meter {
    /// A meter for one evaluation against `budget`.
    pub(super) fn new(budget: &Budget) -> Meter {
        Meter(Arc::new(MeterState {
            call_left: AtomicI64::new(budget.0.call_limit),
            budget: budget.clone(),
            tripped: AtomicU8::new(0),
        }))
    }

    /// Why the evaluation was stopped, if it was.
    pub(super) fn tripped(&self) -> Option<Tripped> {
        match self.0.tripped.load(Ordering::Relaxed) {
            0 => None,
            1 => Some(Tripped::CallLimit),
            _ => Some(Tripped::Budget),
        }
    }

    /// Spends `units`; an error (which stops the evaluation) once a limit is passed, and on
    /// every call after that.
    fn charge(&self, units: usize) -> Result<(), ExecutionError> {
        let stop = || {
            Err(ExecutionError::function_error(
                "cost",
                "cost limit exceeded",
            ))
        };
        if self.tripped().is_some() {
            return stop();
        }
        let units = i64::try_from(units).unwrap_or(i64::MAX);
        let shared = &self.0.budget.0;
        let call_left = self.0.call_left.fetch_sub(units, Ordering::Relaxed) - units;
        let object_left = shared.remaining.fetch_sub(units, Ordering::Relaxed) - units;
        let tripped = if object_left < 0 || Instant::now() > shared.deadline {
            shared.exhausted.store(true, Ordering::Relaxed);
            2
        } else if call_left < 0 {
            1
        } else {
            return Ok(());
        };
        self.0.tripped.store(tripped, Ordering::Relaxed);
        stop()
    }
}

/// A function over the raw call (its context and unresolved-to-`Value` arguments).
type Raw = Box<dyn Fn(&mut FunctionContext) -> ResolveResult + Send + Sync>;

/// The items of a comprehension's range: a list's items, a map's keys.
fn items(range: &Value) -> Result<Vec<Value>, ExecutionError> {
    match range {
        Value::List(items) => Ok(items.to_vec()),
        Value::Map(map) => Ok(map.map.keys().map(|k: &Key| Value::from(k)).collect()),
        _ => Err(ExecutionError::NoSuchOverload),
    }
}

fn length(value: &Value) -> usize {
    match value {
        Value::List(items) => items.len(),
        Value::Map(map) => map.map.len(),
        _ => 1,
    }
}

fn arg(ftx: &FunctionContext, index: usize) -> Result<Value, ExecutionError> {
    let value = ftx
        .args
        .get(index)
        .ok_or(ExecutionError::InvalidArgumentCount {
            expected: index + 1,
            actual: ftx.args.len(),
        })?;
    Value::try_from(value.as_ref())
}

/// [`STEP`]: one unit, then the loop condition unchanged.
pub(super) fn step(meter: Meter) -> Raw {
    Box::new(move |ftx| {
        meter.charge(1)?;
        arg(ftx, 0)
    })
}

/// [`RANGE`]: a unit per item, then the range unchanged.
pub(super) fn range(meter: Meter) -> Raw {
    Box::new(move |ftx| {
        let range = arg(ftx, 0)?;
        meter.charge(length(&range))?;
        Ok(range)
    })
}

/// [`NATIVE`]: `map` and `filter` in one pass, a unit per item.
pub(super) fn native(meter: Meter, natives: Arc<Vec<Native>>) -> Raw {
    Box::new(move |ftx| {
        let native = match arg(ftx, 0)? {
            Value::Int(i) => usize::try_from(i).ok().and_then(|i| natives.get(i)),
            _ => None,
        }
        .ok_or_else(|| ExecutionError::function_error(NATIVE, "no such comprehension"))?;
        let items = items(&arg(ftx, 1)?)?;
        meter.charge(items.len())?;
        let mut scope = ftx.ptx.new_inner_scope();
        let mut out = Vec::new();
        for item in items {
            meter.charge(1)?;
            let boxed: Box<dyn Val> = item.try_into()?;
            scope.add_variable_as_val(native.var.as_str(), boxed);
            if let Some(filter) = &native.filter {
                match Value::resolve(filter, &scope)? {
                    Value::Bool(true) => {}
                    Value::Bool(false) => continue,
                    _ => return Err(ExecutionError::NoSuchOverload),
                }
            }
            out.push(Value::resolve(&native.transform, &scope)?);
        }
        Ok(Value::List(Arc::new(out)))
    })
}
