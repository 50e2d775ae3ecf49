//! Running `x-kubernetes-validations` rules as the API server does
//! (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`): `self` bound to the
//! value typed by its schema ([`super::celvalue`]), `oldSelf` to the previous value when
//! there is one (transition rules are skipped without one, unless `optionalOldSelf`), each
//! evaluation metered against a per-call limit and the object's budget.

pub use super::rule::Rule;

use crate::cel::cost::{LIMIT_EXCEEDED, Tracker};
use crate::cel::interp::Activation;
use crate::cel::value::Value;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

/// The cost one evaluation may reach (the API server's `PerCallLimit`).
pub use crate::cel::cost::PER_CALL_LIMIT;
/// The cost all the rules of one object may reach (the API server's `RuntimeCELCostBudget`).
pub const OBJECT_BUDGET: i64 = crate::cel::cost::RUNTIME_CEL_COST_BUDGET as i64;
/// The longest the rules of one object may run, for work the cost units undercount: far
/// beyond what the units allow on any machine.
pub const OBJECT_DEADLINE: Duration = Duration::from_secs(5);
/// The longest a `messageExpression`'s result may be (`MaxEvaluatedMessageExpressionSizeBytes`).
pub const MAX_MESSAGE_BYTES: usize = 5 * 1024;

/// What is left of one object's cost budget.
#[derive(Debug)]
pub struct Budget {
    remaining: AtomicI64,
    per_call: u64,
    deadline: Instant,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(PER_CALL_LIMIT, OBJECT_BUDGET, OBJECT_DEADLINE)
    }
}

impl Budget {
    /// A budget of `total` units, at most `per_call` per evaluation, ending after `time`.
    pub fn new(per_call: u64, total: i64, time: Duration) -> Budget {
        Budget {
            remaining: AtomicI64::new(total),
            per_call,
            deadline: Instant::now() + time,
        }
    }

    /// Whether it has run out.
    pub fn exhausted(&self) -> bool {
        self.remaining.load(Ordering::Relaxed) <= 0
    }

    /// Spends `cost`; false when that is more than was left (the budget is then spent).
    fn spend(&self, cost: u64) -> bool {
        let cost = i64::try_from(cost).unwrap_or(i64::MAX);
        let before = self
            .remaining
            .fetch_sub(cost.min(i64::MAX / 2), Ordering::Relaxed);
        if cost > before {
            self.remaining.store(-1, Ordering::Relaxed);
            return false;
        }
        true
    }

    fn tracker(&self) -> Tracker {
        Tracker::new(Some(self.per_call)).with_deadline(self.deadline)
    }
}

/// What running a rule found, in the API server's terms.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The rule holds (or was skipped).
    Holds,
    /// The rule evaluated to false: the detail to report (its message).
    Fails(String),
    /// The rule did not compile: the API server's detail.
    CompileError(String),
    /// The evaluation failed: cel-go's error (`no such key: x`).
    Error(String),
    /// No overload matched at run time (values typed `dyn` bypass the checker).
    NoSuchOverload,
    /// The evaluation passed the per-call limit: no further rules run on the object.
    CallLimit,
    /// The object's budget ran out: no further rules run on it.
    OutOfBudget,
    /// The `messageExpression` could not be reported (over budget or the call limit): the
    /// detail; no further rules run on the object.
    MessageLimit(String),
}

/// `self` and `oldSelf`.
struct Scope<'a> {
    this: &'a Value,
    old: Option<Value>,
}

impl Activation for Scope<'_> {
    fn resolve(&self, name: &str) -> Option<Value> {
        match name {
            "self" => Some(self.this.clone()),
            "oldSelf" => self.old.clone(),
            _ => None,
        }
    }
}

impl Rule {
    /// Runs the rule on `value` (its schema node untyped), with a budget of its own.
    pub fn check(&self, value: &serde_json::Value, node: &super::node::Node) -> Outcome {
        let this = super::celvalue::to_value(value, node, false);
        self.run(&this, None, &Budget::default())
    }

    /// Runs the rule with `self` = `this` and `oldSelf` = `old` (if any), spending from
    /// `budget`, the budget of the object `this` is part of.
    pub fn run(&self, this: &Value, old: Option<&Value>, budget: &Budget) -> Outcome {
        let program = match &self.program {
            Ok(p) => p,
            Err(e) => return Outcome::CompileError(e.clone()),
        };
        let old = match (old, self.optional_old_self()) {
            (Some(old), false) => Some(old.clone()),
            (old, true) => Some(Value::Optional(old.map(|o| std::sync::Arc::new(o.clone())))),
            (None, false) if self.transition => return Outcome::Holds,
            (None, false) => None,
        };
        if budget.exhausted() {
            return Outcome::OutOfBudget;
        }
        let scope = Scope { this, old };
        let mut tracker = budget.tracker();
        let result = super::guard::roomy(|| program.eval(&scope, &mut tracker));
        if !budget.spend(tracker.spent()) {
            return Outcome::OutOfBudget;
        }
        match result {
            Ok(Value::Bool(true)) => Outcome::Holds,
            Ok(Value::Bool(false)) => self.failure(&scope, budget),
            Ok(other) => Outcome::Error(format!("no such overload: {}", other.type_of())),
            Err(e) if e.message.starts_with("no such overload") => Outcome::NoSuchOverload,
            Err(e) if e.message.starts_with(LIMIT_EXCEEDED) => Outcome::CallLimit,
            Err(e) => Outcome::Error(e.message),
        }
    }

    /// The detail of a failed rule: the `messageExpression`'s value when it evaluates to a
    /// usable string, else the message, else `failed rule: RULE`.
    fn failure(&self, scope: &Scope, budget: &Budget) -> Outcome {
        if let Some(Ok(program)) = &self.message_program {
            let mut tracker = budget.tracker();
            let result = super::guard::roomy(|| program.eval(scope, &mut tracker));
            if !budget.spend(tracker.spent()) {
                return Outcome::MessageLimit(
                    "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run".into(),
                );
            }
            match result {
                Err(e) if e.message.starts_with(LIMIT_EXCEEDED) => {
                    return Outcome::MessageLimit(format!(
                        "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                        go_quote(self.message_expression.as_deref().unwrap_or_default())
                    ));
                }
                Ok(Value::String(text)) => {
                    let text = text.trim();
                    if !text.is_empty() && text.len() <= MAX_MESSAGE_BYTES && !text.contains('\n') {
                        return Outcome::Fails(text.to_string());
                    }
                }
                _ => {}
            }
        }
        Outcome::Fails(match &self.message {
            Some(m) if !m.is_empty() => m.trim().to_string(),
            _ => format!("failed rule: {}", self.shown()),
        })
    }

    /// How the API server names the rule in its errors: its message, else its text.
    pub fn shown(&self) -> &str {
        match &self.message {
            Some(m) if !m.is_empty() => m.trim(),
            _ => self.rule.trim(),
        }
    }
}

/// The largest estimated cost one rule may have (the API server's `StaticEstimatedCostLimit`).
pub use crate::cel::cost::STATIC_ESTIMATED_COST_LIMIT as STATIC_COST_LIMIT;
/// The largest estimated cost all the rules of one schema may have together
/// (`StaticEstimatedCRDCostLimit`).
pub use crate::cel::cost::STATIC_ESTIMATED_CRD_COST_LIMIT as STATIC_SCHEMA_COST_LIMIT;

/// Go's `%q` of a string.
fn go_quote(s: &str) -> String {
    crate::gostd::strconv::quote(s)
}

#[cfg(test)]
mod tests;
