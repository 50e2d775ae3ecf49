//! cel-go's cost model as the API server uses it.
//!
//! - [`Tracker`] meters one evaluation the way cel-go v0.26's `interpreter/runtimecost.go`
//!   counts it with the API server's program options: `PresenceTestHasCost(false)`,
//!   `OptOptimize` (constant folding of literal lists and maps, of type conversions of
//!   constants, and of `in` over constant lists) and Kubernetes' `library.CostEstimator` as the
//!   call cost hook, after the overload cost trackers of cel-go's `ext.Lists` (version 3) and
//!   `ext.Sets`.
//! - [`estimate`] computes the static estimate of a checked expression the way cel-go's
//!   `checker/cost.go` does with the same hooks; [`SizeEstimator`] supplies the sizes of
//!   variable-length inputs (Kubernetes derives them from the schema).
//! - [`CostEstimate`] and [`SizeEstimate`] carry cel-go's saturating range arithmetic.

mod estimate;
mod runtime;
#[cfg(test)]
mod tests;

pub use estimate::{
    AstNode, CallEstimate, EstimateOptions, HintSizes, SizeEstimator, estimate, estimate_with,
};

use super::ast::{Expr, ExprKind};
use super::value::{Error, Value};
use std::collections::VecDeque;
use std::time::Instant;

/// cel-go's message when the runtime cost limit is passed.
pub const LIMIT_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

/// cel-go's message when an evaluation is interrupted (here: past the [`Tracker`]'s deadline).
pub const INTERRUPTED: &str = "operation interrupted";

/// The cost of reading a variable or selecting a field (`common.SelectAndIdentCost`).
pub const SELECT_AND_IDENT_COST: u64 = 1;
/// The cost of a constant (`common.ConstCost`).
pub const CONST_COST: u64 = 0;
/// The base cost of creating a list (`common.ListCreateBaseCost`).
pub const LIST_CREATE_BASE_COST: u64 = 10;
/// The base cost of creating a map (`common.MapCreateBaseCost`).
pub const MAP_CREATE_BASE_COST: u64 = 30;
/// The base cost of creating a struct (`common.StructCreateBaseCost`).
pub const STRUCT_CREATE_BASE_COST: u64 = 40;
/// The cost of traversing one character or byte (`common.StringTraversalCostFactor`).
pub const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
/// The cost per character of a regular expression (`common.RegexStringLengthCostFactor`).
pub const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;

/// The API server's per-expression runtime cost limit (`celconfig.PerCallLimit`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// The API server's runtime cost budget for all the rules validating one object
/// (`celconfig.RuntimeCELCostBudget`).
pub const RUNTIME_CEL_COST_BUDGET: u64 = 10_000_000;
/// The largest request the API server accepts (`celconfig.MaxRequestSizeBytes`), which bounds
/// sizes the schema leaves open.
pub const MAX_REQUEST_SIZE_BYTES: u64 = 3 * 1024 * 1024;

/// The largest estimated cost the API server accepts for one rule
/// (`StaticEstimatedCostLimit`), after multiplying by how often the rule may run.
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;
/// The largest estimated cost the API server accepts for all the rules of a CRD version's
/// schema (`StaticEstimatedCRDCostLimit`).
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// The API server's message for an estimated cost over its limit (apiextensions'
/// `getCostErrorMessage`): `"<cost_name> exceeds budget by factor of 1.234568x (try …)"`.
pub fn exceeds_budget_message(cost_name: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        // the rule is O(n^2) or worse: the exact factor says nothing
        "more than 100x".to_string()
    } else if factor < 1.5 {
        // not "1.0x", which would read as no excess
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{cost_name} exceeds budget by factor of {factor} (try simplifying the rule, or adding \
         maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// How many charges pass between two looks at the clock.
const DEADLINE_CHECK_EVERY: u32 = 1_000;

/// A size range (`checker.SizeEstimate`): the size of a string (code points), bytes, list or
/// map. Arithmetic saturates at `u64::MAX` as cel-go's does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeEstimate {
    /// The smallest size.
    pub min: u64,
    /// The largest size.
    pub max: u64,
}

/// A cost range (`checker.CostEstimate`). Arithmetic saturates at `u64::MAX` as cel-go's does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CostEstimate {
    /// The smallest cost.
    pub min: u64,
    /// The largest cost.
    pub max: u64,
}

impl SizeEstimate {
    /// A size known exactly.
    pub fn fixed(size: u64) -> SizeEstimate {
        SizeEstimate {
            min: size,
            max: size,
        }
    }

    /// cel-go's unknown size: anything from 0 to `u64::MAX`.
    pub fn unknown() -> SizeEstimate {
        SizeEstimate {
            min: 0,
            max: u64::MAX,
        }
    }

    /// The product of two ranges.
    pub fn multiply(self, other: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_mul(other.min),
            max: self.max.saturating_mul(other.max),
        }
    }

    /// The cost of `factor` per unit of size, rounded up.
    pub fn multiply_by_cost_factor(self, factor: f64) -> CostEstimate {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, factor),
            max: multiply_by_cost_factor(self.max, factor),
        }
    }

    /// The cost of `cost` per unit of size.
    pub fn multiply_by_cost(self, cost: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(cost.min),
            max: self.max.saturating_mul(cost.max),
        }
    }

    /// The smallest range covering both.
    pub fn union(self, other: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }
}

impl CostEstimate {
    /// A cost known exactly.
    pub fn fixed(cost: u64) -> CostEstimate {
        CostEstimate {
            min: cost,
            max: cost,
        }
    }

    /// cel-go's unknown cost: anything from 0 to `u64::MAX`.
    pub fn unknown() -> CostEstimate {
        CostEstimate {
            min: 0,
            max: u64::MAX,
        }
    }

    /// The product of two ranges.
    pub fn multiply(self, other: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(other.min),
            max: self.max.saturating_mul(other.max),
        }
    }

    /// The cost times `factor`, rounded up.
    pub fn multiply_by_cost_factor(self, factor: f64) -> CostEstimate {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, factor),
            max: multiply_by_cost_factor(self.max, factor),
        }
    }

    /// The smallest range covering both.
    pub fn union(self, other: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }
}

impl std::ops::Add for SizeEstimate {
    type Output = SizeEstimate;

    /// The sum of two ranges (saturating).
    fn add(self, other: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
        }
    }
}

impl std::ops::Add for CostEstimate {
    type Output = CostEstimate;

    /// The sum of two ranges (saturating).
    fn add(self, other: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
        }
    }
}

impl From<SizeEstimate> for CostEstimate {
    fn from(s: SizeEstimate) -> CostEstimate {
        CostEstimate {
            min: s.min,
            max: s.max,
        }
    }
}

/// cel-go's `multiplyByCostFactor`: `ceil(x * factor)`, saturating at `u64::MAX`.
fn multiply_by_cost_factor(x: u64, factor: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && factor > 0.0 && xf > u64::MAX as f64 / factor {
        return u64::MAX;
    }
    let ceil = (xf * factor).ceil();
    // 2^64: the first double past u64::MAX
    if ceil >= 18_446_744_073_709_551_616.0 {
        return u64::MAX;
    }
    ceil as u64
}

/// Meters one evaluation.
///
/// The interpreter calls [`Tracker::node`] after evaluating every node that is not a call and
/// [`Tracker::call_expr`] (or, without the call's node at hand, [`Tracker::call`]) after every
/// call, operators included. The costs are cel-go's, which it counts on its planned program
/// rather than on the tree: the tracker reproduces that from the tree shape (see
/// [`Tracker::call_expr`]).
#[derive(Clone, Debug)]
pub struct Tracker {
    spent: u64,
    limit: Option<u64>,
    presence_test_has_cost: bool,
    constant_folding: bool,
    kubernetes: bool,
    deadline: Option<Instant>,
    ticks: u32,
    /// What the last hooks saw, the latest last: the interpreter evaluates a node's children
    /// just before the node, so at a call the last hook was its last argument (the index of
    /// `_[_]`, the branch a ternary took, the list of `in`, the argument of a conversion),
    /// and the operand of an index came just before the index's hooks.
    recent: VecDeque<Hook>,
}

/// How many hooks [`Tracker`] remembers.
const RECENT_HOOKS: usize = 64;

/// The summary of the node a hook was for.
#[derive(Clone, Copy, Debug)]
struct Hook {
    /// What cel-go skips of its cost when the node is an index or a ternary's branch.
    refund: u64,
    /// Whether constant folding made it a constant.
    is_const: bool,
    /// What kind of attribute cel-go's planner makes of it.
    attr: runtime::Attr,
    /// How many hooks its subtree took, when known (variables, literals and chains of
    /// selections and indexes on them).
    span: Option<usize>,
}

impl Default for Tracker {
    fn default() -> Tracker {
        Tracker::new(None)
    }
}

impl Tracker {
    /// A tracker stopping evaluation past `limit` units, with the API server's options
    /// (presence tests free, constant folding on).
    pub fn new(limit: Option<u64>) -> Tracker {
        Tracker {
            spent: 0,
            limit,
            presence_test_has_cost: false,
            constant_folding: true,
            kubernetes: true,
            deadline: None,
            ticks: 0,
            recent: VecDeque::with_capacity(RECENT_HOOKS),
        }
    }

    /// Whether `has()` costs 1 (cel-go's default) or 0 (the API server's choice).
    pub fn presence_test_has_cost(mut self, has_cost: bool) -> Tracker {
        self.presence_test_has_cost = has_cost;
        self
    }

    /// Whether cel-go's `OptOptimize` constant folding applies (the API server enables it):
    /// literal lists and maps of constants, type conversions of constants and `in` over a
    /// constant list of primitives cost nothing.
    pub fn constant_folding(mut self, on: bool) -> Tracker {
        self.constant_folding = on;
        self
    }

    /// Whether Kubernetes' `library.CostEstimator` prices calls (the API server's hook; on by
    /// default).
    pub fn kubernetes_library(mut self, on: bool) -> Tracker {
        self.kubernetes = on;
        self
    }

    /// Stops evaluation with [`INTERRUPTED`] once `deadline` has passed (looked at every
    /// thousand charges, so the check costs next to nothing).
    pub fn with_deadline(mut self, deadline: Instant) -> Tracker {
        self.deadline = Some(deadline);
        self
    }

    /// The units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// The limit, if any.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    fn charge(&mut self, units: u64) -> Result<(), Error> {
        self.charge_with_slack(units, 0)
    }

    /// Charges `units`, checking the limit against all but `slack` of the total: units a
    /// later hook may take back (an attribute's root, when the attribute turns out to be a
    /// ternary's branch or an index), which cel-go never counts. The next hook checks the
    /// whole total.
    fn charge_with_slack(&mut self, units: u64, slack: u64) -> Result<(), Error> {
        self.spent = self.spent.saturating_add(units);
        if let Some(limit) = self.limit
            && self.spent.saturating_sub(slack) > limit
        {
            return Err(Error::new(LIMIT_EXCEEDED));
        }
        if let Some(deadline) = self.deadline {
            self.ticks += 1;
            if self.ticks >= DEADLINE_CHECK_EVERY {
                self.ticks = 0;
                if Instant::now() >= deadline {
                    return Err(Error::new(INTERRUPTED));
                }
            }
        }
        Ok(())
    }

    /// Takes back units charged for an attribute whose own observation cel-go skips (a
    /// ternary branch, an index that is itself an attribute).
    fn refund(&mut self, units: u64) {
        self.spent = self.spent.saturating_sub(units);
    }

    /// After evaluating a node that is not a call: identifiers and selections cost 1
    /// (identifiers naming types are constants: 0), a selection on a value that is not an
    /// attribute (`f(x).y`) 2, a presence test 0 (1 with [`Tracker::presence_test_has_cost`]),
    /// list, map and struct literals 10, 30 and 40 (0 when folded), comprehensions nothing of
    /// their own.
    pub fn node(&mut self, expr: &Expr) -> Result<(), Error> {
        let folded = self.constant_folding && runtime::is_const(expr);
        let units = match &expr.kind {
            ExprKind::Literal(_) | ExprKind::Comprehension(_) | ExprKind::Call { .. } => CONST_COST,
            _ if runtime::is_type_expr(expr) => CONST_COST,
            ExprKind::Ident(_) => SELECT_AND_IDENT_COST,
            ExprKind::Select {
                operand, test_only, ..
            } => {
                // a selection on a computed value goes through a relative attribute, which
                // cel-go observes on top of the field qualifier
                let relative = u64::from(runtime::attr_kind(operand) == runtime::Attr::None);
                let own = if *test_only && !self.presence_test_has_cost {
                    0
                } else {
                    SELECT_AND_IDENT_COST
                };
                own + relative
            }
            ExprKind::List { .. } if folded => CONST_COST,
            ExprKind::List { .. } => LIST_CREATE_BASE_COST,
            ExprKind::Map { .. } if folded => CONST_COST,
            ExprKind::Map { .. } => MAP_CREATE_BASE_COST,
            ExprKind::Struct { .. } => STRUCT_CREATE_BASE_COST,
        };
        let span = match &expr.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => Some(1),
            // the operand's hooks came just before
            ExprKind::Select { .. } => self
                .recent
                .back()
                .and_then(|h| h.span)
                .map(|s| s.saturating_add(1)),
            _ => None,
        };
        let refund = runtime::root_refund(expr, self.presence_test_has_cost);
        self.remember(Hook {
            refund,
            is_const: folded,
            attr: runtime::attr_kind(expr),
            span,
        });
        self.charge_with_slack(units, refund)
    }

    /// After a planned step cel-go evaluates without observing it as a call, attribute or
    /// constant (the lazy `or`/`orValue` of optionals): no cost, but the step is the latest
    /// hook, so what follows does not take it for its operand.
    pub fn uncharged_step(&mut self) {
        self.remember(Hook {
            refund: 0,
            is_const: false,
            attr: runtime::Attr::None,
            span: None,
        });
    }

    fn remember(&mut self, hook: Hook) {
        if self.recent.len() == RECENT_HOOKS {
            self.recent.pop_front();
        }
        self.recent.push_back(hook);
    }

    /// The hook `back` places before the latest.
    fn recent_hook(&self, back: usize) -> Option<Hook> {
        let len = self.recent.len();
        back.checked_add(1)
            .and_then(|n| len.checked_sub(n))
            .and_then(|i| self.recent.get(i))
            .copied()
    }

    /// After a call of `function` resolved to `overload`, with the evaluated `args` (the
    /// receiver first) and the `result` (`null` for an error).
    ///
    /// `overload` is the id the checker resolved statically, or empty when it left several
    /// candidates (cel-go then dispatches dynamically and prices the call by its function
    /// name only). For `_?_:_`, `args` is empty or starts with the condition's value.
    ///
    /// On top of the function's price this reproduces what cel-go's planned program costs,
    /// relying on the interpreter's order (a call's arguments are evaluated, and hooked, just
    /// before the call): `_[_]`, `_[?_]` and `_?._` are attribute qualifiers (1; 0 when an
    /// optional one finds nothing) and an index that is itself an attribute is not observed
    /// on its own; a ternary does not observe the attribute of the branch it took; `_&&_`,
    /// `_||_` cost nothing; with constant folding, conversions of constants and `in` over a
    /// constant list of primitives cost nothing; an index or optional selection on a computed
    /// value (`f(x)[0]`) costs 1 more, for the relative attribute cel-go reads it through
    /// (inferred from the hooks before; when they do not tell, [`Tracker::call_expr`] does).
    pub fn call(
        &mut self,
        function: &str,
        overload: &str,
        args: &[Value],
        result: &Value,
    ) -> Result<(), Error> {
        self.priced_call(function, overload, args, result, None)
    }

    /// [`Tracker::call`] for the call `expr` (its function and arguments as written), which
    /// tells for sure whether an index or optional selection reads a computed value
    /// (`f(x)[0]`) through a relative attribute cel-go observes; [`Tracker::call`] infers it
    /// from the hooks before.
    pub fn call_expr(
        &mut self,
        expr: &Expr,
        overload: &str,
        args: &[Value],
        result: &Value,
    ) -> Result<(), Error> {
        let ExprKind::Call {
            function,
            args: arg_exprs,
            ..
        } = &expr.kind
        else {
            return self.call("", overload, args, result);
        };
        let operand_is_attr = arg_exprs
            .first()
            .map(|operand| runtime::attr_kind(operand) != runtime::Attr::None);
        self.priced_call(function, overload, args, result, operand_is_attr)?;
        if let Some(last) = self.recent.back_mut() {
            last.refund = runtime::root_refund(expr, self.presence_test_has_cost);
            last.is_const = self.constant_folding && runtime::is_const(expr);
        }
        Ok(())
    }

    /// Prices a call; `operand_is_attr` says, for an index, whether its operand is an
    /// attribute (inferred from the recent hooks when `None`).
    fn priced_call(
        &mut self,
        function: &str,
        overload: &str,
        args: &[Value],
        result: &Value,
        operand_is_attr: Option<bool>,
    ) -> Result<(), Error> {
        let last = self.recent_hook(0);
        let last_refund = last.map_or(0, |h| h.refund);
        let last_const = last.is_some_and(|h| h.is_const);
        let mut hook = Hook {
            refund: 0,
            is_const: false,
            attr: runtime::Attr::None,
            span: None,
        };
        let units = match function {
            "_[_]" | "_[?_]" | "_?._" => {
                // the index's hooks came last, the operand's just before them
                let key_span = last.and_then(|h| h.span);
                let operand = key_span.and_then(|s| self.recent_hook(s));
                let operand_is_attr = operand_is_attr
                    .or_else(|| operand.map(|h| h.attr != runtime::Attr::None))
                    .unwrap_or(true);
                // an optional qualifier that finds nothing is not observed
                let absent = function != "_[_]" && matches!(result, Value::Optional(None));
                self.refund(last_refund);
                hook.refund = SELECT_AND_IDENT_COST;
                hook.attr = runtime::Attr::Plain;
                hook.span = match (key_span, operand.and_then(|h| h.span)) {
                    (Some(k), Some(o)) => Some(k.saturating_add(o).saturating_add(1)),
                    _ => None,
                };
                let qualifier = if absent { 0 } else { SELECT_AND_IDENT_COST };
                // a computed operand is read through a relative attribute, observed too
                let relative = if operand_is_attr {
                    0
                } else {
                    SELECT_AND_IDENT_COST
                };
                qualifier + relative
            }
            "_?_:_" => {
                if matches!(args.first(), None | Some(Value::Bool(_))) {
                    self.refund(last_refund);
                }
                hook.attr = runtime::Attr::Conditional;
                0
            }
            "_&&_" | "_||_" => 0,
            _ => {
                if self.constant_folding
                    && runtime::is_conversion(function)
                    && args.len() == 1
                    && last_const
                {
                    hook.is_const = true;
                    CONST_COST
                } else if self.constant_folding
                    && function == "@in"
                    && overload == "in_list"
                    && last_const
                    && args.get(1).is_some_and(runtime::is_primitive_list)
                {
                    CONST_COST
                } else {
                    runtime::function_cost(function, overload, args, result, self.kubernetes)
                }
            }
        };
        self.remember(hook);
        self.charge(units)
    }
}
