//! Static cost estimation: cel-go v0.26's `checker/cost.go`, with the overload estimators of
//! `ext.Lists` (version 3) and `ext.Sets` and Kubernetes' `library.CostEstimator`
//! (`EstimateCallCost`) as the API server configures them.

use super::{
    CostEstimate, LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST, REGEX_STRING_LENGTH_COST_FACTOR,
    SELECT_AND_IDENT_COST, STRING_TRAVERSAL_COST_FACTOR, STRUCT_CREATE_BASE_COST, SizeEstimate,
};
use crate::cel::ast::{Expr, ExprKind, Id, Literal};
use crate::cel::checker::{Checked, Reference};
use crate::cel::types::{OPTIONAL, Type};
use std::collections::HashMap;
use std::ops::Add;

/// Sizes of variable-length inputs (cel-go's `CostEstimator.EstimateSize`).
///
/// It is asked about every node whose size the expression does not tell, scalars included,
/// and its answer wins over a scalar's size of 1: the API server's estimator answers
/// `0..=MaxElements` of the schema node the path leads to (0 for numbers and booleans),
/// `None` for an empty path or one the schema does not have.
pub trait SizeEstimator {
    /// The size range of the value at `path` (cel-go's `AstNode.Path()`: a variable, then field
    /// names, `@items` for list elements, `@keys` and `@values` for map keys and values,
    /// `@indices` for list indices; empty when the node is not reachable from a variable) of
    /// type `ty`; `None` when unknown.
    fn estimate_size(&self, path: &[String], ty: &Type) -> Option<SizeEstimate>;
}

/// A node as cost estimation hooks see it (cel-go's `checker.AstNode`).
#[derive(Clone, Debug)]
pub struct AstNode<'a> {
    /// The field path from a variable (see [`SizeEstimator::estimate_size`]); empty if none.
    pub path: Vec<String>,
    /// The checked type.
    pub ty: Type,
    /// The node, when there is one (list element nodes have none).
    pub expr: Option<&'a Expr>,
    /// The size derived from the expression itself (literals, concatenations, results of
    /// calls that report one, sizes the estimator gave).
    pub computed_size: Option<SizeEstimate>,
}

/// The cost of a call and, for calls producing strings, bytes, lists or maps, the size of the
/// result (cel-go's `checker.CallEstimate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallEstimate {
    /// The call's own cost (without its arguments').
    pub cost: CostEstimate,
    /// The result's size, when known.
    pub result_size: Option<SizeEstimate>,
}

/// A hook pricing calls before cel-go's defaults: `(function, overload, target, args)`.
pub type CallHook =
    dyn Fn(&str, &str, Option<&AstNode<'_>>, &[AstNode<'_>]) -> Option<CallEstimate>;

/// How to estimate.
#[derive(Clone, Copy)]
pub struct EstimateOptions<'a> {
    /// Whether `has()` costs 1 (cel-go's default) or 0 (the API server's choice).
    pub presence_test_has_cost: bool,
    /// Whether Kubernetes' `library.CostEstimator` prices calls (the API server's hook).
    pub kubernetes: bool,
    /// A further hook consulted before cel-go's defaults (after Kubernetes' when both apply).
    pub call_hook: Option<&'a CallHook>,
}

impl Default for EstimateOptions<'_> {
    /// The API server's options.
    fn default() -> Self {
        EstimateOptions {
            presence_test_has_cost: false,
            kubernetes: true,
            call_hook: None,
        }
    }
}

/// A [`SizeEstimator`] from fixed hints: a path joined with dots (`self.spec.items.@items`)
/// has a size between 0 and its hint; otherwise a node of one of the listed types has the
/// listed size. For tests, and for callers without a schema.
#[derive(Clone, Debug, Default)]
pub struct HintSizes {
    /// Largest sizes by dotted path.
    pub hints: HashMap<String, u64>,
    /// Sizes by type, for paths without a hint.
    pub by_type: Vec<(Type, SizeEstimate)>,
}

impl SizeEstimator for HintSizes {
    fn estimate_size(&self, path: &[String], ty: &Type) -> Option<SizeEstimate> {
        if let Some(&max) = self.hints.get(&path.join(".")) {
            return Some(SizeEstimate { min: 0, max });
        }
        self.by_type
            .iter()
            .find(|(t, _)| t == ty)
            .map(|(_, size)| *size)
    }
}

/// Estimates the cost of `checked` with the API server's options (presence tests free,
/// Kubernetes' call cost hook), sizes of inputs from `sizes`.
pub fn estimate(checked: &Checked, sizes: &dyn SizeEstimator) -> CostEstimate {
    estimate_with(checked, sizes, EstimateOptions::default())
}

/// Estimates the cost of `checked` with the given options.
pub fn estimate_with(
    checked: &Checked,
    sizes: &dyn SizeEstimator,
    options: EstimateOptions<'_>,
) -> CostEstimate {
    let mut coster = Coster {
        checked,
        sizes,
        options,
        presence_cost: CostEstimate::fixed(u64::from(options.presence_test_has_cost)),
        paths: HashMap::new(),
        locals: HashMap::new(),
        sizes_of: HashMap::new(),
        entry_sizes: HashMap::new(),
    };
    coster.cost(&checked.ast.expr)
}

/// The container an entry size belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    List,
    Map,
}

/// cel-go's `entrySizeEstimate`: the sizes of a container's keys (or indices) and values.
#[derive(Clone, Copy, Debug)]
struct EntrySize {
    container: Container,
    key: SizeEstimate,
    val: SizeEstimate,
}

impl EntrySize {
    fn union(a: Option<EntrySize>, b: Option<EntrySize>) -> Option<EntrySize> {
        let (a, b) = (a?, b?);
        Some(EntrySize {
            container: a.container,
            key: a.key.union(b.key),
            val: a.val.union(b.val),
        })
    }
}

/// A comprehension or bind variable in scope.
#[derive(Clone, Debug)]
struct Local {
    path: Vec<String>,
    size: Option<SizeEstimate>,
    entry: Option<EntrySize>,
}

struct Coster<'a> {
    checked: &'a Checked,
    sizes: &'a dyn SizeEstimator,
    options: EstimateOptions<'a>,
    presence_cost: CostEstimate,
    /// Field paths by node.
    paths: HashMap<Id, Vec<String>>,
    /// Variables in scope, innermost last.
    locals: HashMap<String, Vec<Local>>,
    /// Sizes computed for nodes.
    sizes_of: HashMap<Id, SizeEstimate>,
    /// Entry sizes computed for nodes.
    entry_sizes: HashMap<Id, EntrySize>,
}

/// cel-go's accumulator names, whose paths hooks never see.
fn is_accumulator(name: &str) -> bool {
    name == "__result__" || name == "@result"
}

/// Types of constant size (cel-go's `isScalar`).
fn is_scalar(ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => {
            true
        }
        Type::Opaque(name, params) if &**name == OPTIONAL => params.first().is_some_and(is_scalar),
        _ => false,
    }
}

/// cel-go's `Type.Parameters()`.
fn type_params(ty: &Type) -> Vec<Type> {
    match ty {
        Type::List(e) => vec![(**e).clone()],
        Type::Map(k, v) => vec![(**k).clone(), (**v).clone()],
        Type::Type(t) => vec![(**t).clone()],
        Type::Opaque(_, params) => params.to_vec(),
        _ => Vec::new(),
    }
}

/// The size of a literal, list or map as written (cel-go's `computeExprSize`).
fn expr_size(expr: &Expr) -> Option<SizeEstimate> {
    let n = match &expr.kind {
        ExprKind::Literal(Literal::String(s)) => s.chars().count() as u64,
        ExprKind::Literal(Literal::Bytes(b)) => b.len() as u64,
        ExprKind::Literal(_) => 1,
        ExprKind::List { elements, .. } => elements.len() as u64,
        ExprKind::Map { entries } => entries.len() as u64,
        _ => return None,
    };
    Some(SizeEstimate::fixed(n))
}

/// A node's size as hooks compute it: its own, else the estimator's, else unknown.
fn node_size(sizes: &dyn SizeEstimator, node: &AstNode<'_>) -> SizeEstimate {
    node.computed_size
        .or_else(|| sizes.estimate_size(&node.path, &node.ty))
        .unwrap_or_else(SizeEstimate::unknown)
}

impl<'a> Coster<'a> {
    fn ty(&self, expr: &Expr) -> Type {
        self.checked
            .types
            .get(&expr.id)
            .cloned()
            .unwrap_or(Type::Dyn)
    }

    fn path(&self, expr: &Expr) -> Vec<String> {
        if let ExprKind::Ident(name) = &expr.kind
            && let Some(local) = self.local(name)
        {
            return local.path.clone();
        }
        self.paths.get(&expr.id).cloned().unwrap_or_default()
    }

    fn local(&self, name: &str) -> Option<&Local> {
        self.locals.get(name).and_then(|stack| stack.last())
    }

    fn push_local(&mut self, name: &str, local: Local) {
        self.locals.entry(name.to_string()).or_default().push(local);
    }

    fn pop_local(&mut self, name: &str) {
        if let Some(stack) = self.locals.get_mut(name) {
            stack.pop();
        }
    }

    fn set_size(&mut self, expr: &Expr, size: Option<SizeEstimate>) {
        if let Some(size) = size {
            self.sizes_of.insert(expr.id, size);
        }
    }

    fn set_entry_size(&mut self, expr: &Expr, size: Option<EntrySize>) {
        if let Some(size) = size {
            self.entry_sizes.insert(expr.id, size);
        }
    }

    /// cel-go's `computeSize`.
    fn size(&mut self, expr: &Expr) -> Option<SizeEstimate> {
        if let Some(size) = self.sizes_of.get(&expr.id) {
            return Some(*size);
        }
        if let Some(size) = expr_size(expr) {
            return Some(size);
        }
        let ty = self.ty(expr);
        if let Some(size) = self.sizes.estimate_size(&self.path(expr), &ty) {
            self.sizes_of.insert(expr.id, size);
            return Some(size);
        }
        if is_scalar(&ty) {
            return Some(SizeEstimate::fixed(1));
        }
        if let ExprKind::Ident(name) = &expr.kind {
            return self.local(name).and_then(|l| l.size);
        }
        None
    }

    fn size_or_unknown(&mut self, expr: &Expr) -> SizeEstimate {
        self.size(expr).unwrap_or_else(SizeEstimate::unknown)
    }

    /// cel-go's `computeEntrySize`.
    fn entry_size(&self, expr: &Expr) -> Option<EntrySize> {
        if let Some(size) = self.entry_sizes.get(&expr.id) {
            return Some(*size);
        }
        if let ExprKind::Ident(name) = &expr.kind {
            return self.local(name).and_then(|l| l.entry);
        }
        None
    }

    fn copy_size_estimates(&mut self, dst: &Expr, src: &Expr) {
        let size = self.size(src);
        self.set_size(dst, size);
        let entry = self.entry_size(src);
        self.set_entry_size(dst, entry);
    }

    /// cel-go's `newAstNode`.
    fn node<'e>(&mut self, expr: &'e Expr) -> AstNode<'e> {
        let mut path = self.path(expr);
        if path.first().is_some_and(|p| is_accumulator(p)) {
            path = Vec::new();
        }
        AstNode {
            path,
            ty: self.ty(expr),
            expr: Some(expr),
            computed_size: self.size(expr),
        }
    }

    fn cost(&mut self, expr: &Expr) -> CostEstimate {
        match &expr.kind {
            ExprKind::Literal(_) => CostEstimate::fixed(super::CONST_COST),
            ExprKind::Ident(name) => {
                let path = match self.local(name) {
                    Some(local) => local.path.clone(),
                    None => vec![name.clone()],
                };
                self.paths.insert(expr.id, path);
                CostEstimate::fixed(SELECT_AND_IDENT_COST)
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                if *test_only {
                    return self.presence_cost.add(self.cost(operand));
                }
                let mut sum = self.cost(operand);
                if matches!(
                    self.ty(operand),
                    Type::Map(..) | Type::Object(_) | Type::Param(_)
                ) {
                    sum = sum.add(CostEstimate::fixed(SELECT_AND_IDENT_COST));
                }
                let mut path = self.path(operand);
                path.push(field.clone());
                self.paths.insert(expr.id, path);
                sum
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.cost_call(expr, target.as_deref(), function, args),
            ExprKind::List { elements, .. } => {
                let mut sum = CostEstimate::default();
                let mut item = SizeEstimate {
                    min: if elements.is_empty() { 0 } else { u64::MAX },
                    max: 0,
                };
                for e in elements {
                    sum = sum.add(self.cost(e));
                    item = item.union(self.size_or_unknown(e));
                }
                self.set_entry_size(
                    expr,
                    Some(EntrySize {
                        container: Container::List,
                        key: SizeEstimate::fixed(1),
                        val: item,
                    }),
                );
                sum.add(CostEstimate::fixed(LIST_CREATE_BASE_COST))
            }
            ExprKind::Map { entries } => {
                let mut sum = CostEstimate::default();
                let start = if entries.is_empty() { 0 } else { u64::MAX };
                let mut key = SizeEstimate { min: start, max: 0 };
                let mut val = SizeEstimate { min: start, max: 0 };
                for e in entries {
                    sum = sum.add(self.cost(&e.key));
                    sum = sum.add(self.cost(&e.value));
                    key = key.union(self.size_or_unknown(&e.key));
                    val = val.union(self.size_or_unknown(&e.value));
                }
                self.set_entry_size(
                    expr,
                    Some(EntrySize {
                        container: Container::Map,
                        key,
                        val,
                    }),
                );
                sum.add(CostEstimate::fixed(MAP_CREATE_BASE_COST))
            }
            ExprKind::Struct { fields, .. } => {
                let mut sum = CostEstimate::default();
                for f in fields {
                    sum = sum.add(self.cost(&f.value));
                }
                sum.add(CostEstimate::fixed(STRUCT_CREATE_BASE_COST))
            }
            ExprKind::Comprehension(c) => {
                let is_bind = matches!(&c.iter_range.kind, ExprKind::List { elements, .. } if elements.is_empty())
                    && matches!(c.loop_cond.kind, ExprKind::Literal(Literal::Bool(false)))
                    && c.accu_var != "__result__";
                if is_bind {
                    self.cost_bind(expr, c)
                } else {
                    self.cost_comprehension(expr, c)
                }
            }
        }
    }

    fn push_local_var(&mut self, name: &str, init: &Expr) {
        let path = self.path(init);
        let entry = self.entry_size(init);
        let size = self.size(init);
        self.push_local(name, Local { path, size, entry });
    }

    /// The container kind of a range: from its entry size, else from its type.
    fn container(&self, range: &Expr, entry: Option<EntrySize>) -> Option<Container> {
        match entry {
            Some(e) => Some(e.container),
            None => match self.ty(range) {
                Type::List(_) => Some(Container::List),
                Type::Map(..) => Some(Container::Map),
                _ => None,
            },
        }
    }

    fn push_iter(&mut self, name: &str, range: &Expr, part: IterPart) {
        let entry = self.entry_size(range);
        let container = self.container(range, entry);
        let list = container == Some(Container::List);
        let (size, step) = match part {
            IterPart::Key => (
                entry.map(|e| e.key),
                if list { "@indices" } else { "@keys" },
            ),
            IterPart::Value => (
                entry.map(|e| e.val),
                if list { "@items" } else { "@values" },
            ),
            IterPart::Single if list => (entry.map(|e| e.val), "@items"),
            IterPart::Single => (entry.map(|e| e.key), "@keys"),
        };
        let mut path = self.path(range);
        path.push(step.to_string());
        self.push_local(
            name,
            Local {
                path,
                size,
                entry: None,
            },
        );
    }

    fn cost_comprehension(
        &mut self,
        expr: &Expr,
        c: &crate::cel::ast::Comprehension,
    ) -> CostEstimate {
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_local_var(&c.accu_var, &c.accu_init);
        match &c.iter_var2 {
            Some(v2) => {
                self.push_iter(&c.iter_var, &c.iter_range, IterPart::Key);
                self.push_iter(v2, &c.iter_range, IterPart::Value);
            }
            None => self.push_iter(&c.iter_var, &c.iter_range, IterPart::Single),
        }
        let loop_cost = self.cost(&c.loop_cond);
        let step_cost = self.cost(&c.loop_step);
        self.pop_local(&c.iter_var);
        if let Some(v2) = &c.iter_var2 {
            self.pop_local(v2);
        }
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);

        let range_count = self.size_or_unknown(&c.iter_range);
        sum = sum.add(range_count.multiply_by_cost(step_cost.add(loop_cost)));

        match &c.accu_init.kind {
            ExprKind::Literal(_) => {
                let size = self.size(&c.accu_init);
                self.set_size(expr, size);
            }
            ExprKind::List { .. } | ExprKind::Map { .. } => {
                self.set_size(expr, Some(range_count));
                let step_entry = self.entry_size(&c.loop_step);
                self.set_entry_size(expr, step_entry);
            }
            _ => {}
        }
        sum
    }

    fn cost_bind(&mut self, expr: &Expr, c: &crate::cel::ast::Comprehension) -> CostEstimate {
        // binds are lazy, but cel-go keeps the cost of the (empty) range
        let mut sum = self.cost(&c.iter_range);
        sum = sum.add(self.cost(&c.accu_init));
        self.push_local_var(&c.accu_var, &c.accu_init);
        sum = sum.add(self.cost(&c.result));
        self.pop_local(&c.accu_var);
        self.copy_size_estimates(expr, &c.result);
        sum
    }

    /// The overload ids the checker recorded for a call; for the operators cel-go always
    /// resolves (and the interpreter implements), their ids when the checker left none.
    fn overloads(&self, expr: &Expr, function: &str) -> Vec<String> {
        if let Some(Reference::Overloads(ids)) = self.checked.references.get(&expr.id)
            && !ids.is_empty()
        {
            return ids.clone();
        }
        let id = match function {
            "_&&_" => "logical_and",
            "_||_" => "logical_or",
            "_?_:_" => "conditional",
            "_==_" => "equals",
            "_!=_" => "not_equals",
            _ => return Vec::new(),
        };
        vec![id.to_string()]
    }

    fn cost_call(
        &mut self,
        expr: &Expr,
        target: Option<&Expr>,
        function: &str,
        args: &[Expr],
    ) -> CostEstimate {
        // `dyn` only switches the checker off: the argument's cost plus one
        if function == "dyn"
            && let Some(arg) = args.first()
        {
            let cost = self.cost(arg);
            self.copy_size_estimates(expr, arg);
            return CostEstimate::fixed(1).add(cost);
        }
        let mut arg_costs = Vec::with_capacity(args.len());
        let mut arg_nodes = Vec::with_capacity(args.len());
        for a in args {
            arg_costs.push(self.cost(a));
            arg_nodes.push(self.node(a));
        }
        let overloads = self.overloads(expr, function);
        if overloads.is_empty() {
            return CostEstimate::default();
        }
        let mut sum = CostEstimate::default();
        let target_node = match target {
            Some(t) => {
                sum = sum.add(self.cost(t));
                Some(self.node(t))
            }
            None => None,
        };
        let mut fn_cost = CostEstimate {
            min: u64::MAX,
            max: 0,
        };
        let mut result_size: Option<SizeEstimate> = None;
        for overload in &overloads {
            let est = self.function_cost(
                expr,
                function,
                overload,
                target_node.as_ref(),
                &arg_nodes,
                &arg_costs,
            );
            fn_cost = fn_cost.union(est.cost);
            if let Some(rs) = est.result_size {
                result_size = Some(match result_size {
                    None => rs,
                    Some(r) => r.union(rs),
                });
            }
            let step = match overload.as_str() {
                "index_list" => Some("@items"),
                "index_map" => Some("@values"),
                _ => None,
            };
            if let (Some(step), Some(operand)) = (step, args.first()) {
                result_size = self.entry_size(operand).map(|e| e.val);
                let mut path = self.path(operand);
                path.push(step.to_string());
                self.paths.insert(expr.id, path);
            }
            if result_size.is_none() {
                result_size = self.size(expr);
            }
        }
        self.set_size(expr, result_size);
        sum.add(fn_cost)
    }

    #[allow(clippy::too_many_arguments)]
    fn function_cost(
        &mut self,
        expr: &Expr,
        function: &str,
        overload: &str,
        target: Option<&AstNode<'_>>,
        args: &[AstNode<'_>],
        arg_costs: &[CostEstimate],
    ) -> CallEstimate {
        let arg_sum = arg_costs
            .iter()
            .fold(CostEstimate::default(), |acc, c| acc.add(*c));
        let with_args = |est: CallEstimate| CallEstimate {
            cost: est.cost.add(arg_sum),
            result_size: est.result_size,
        };
        if let Some(est) = ext_estimate(self.sizes, overload, target, args) {
            return with_args(est);
        }
        if self.options.kubernetes
            && let Some(est) = kubernetes_estimate(self.sizes, function, overload, target, args)
        {
            return with_args(est);
        }
        if let Some(hook) = self.options.call_hook
            && let Some(est) = hook(function, overload, target, args)
        {
            return with_args(est);
        }
        let size_of = |n: &AstNode<'_>| n.computed_size.unwrap_or_else(SizeEstimate::unknown);
        let traversal = STRING_TRAVERSAL_COST_FACTOR;
        let simple = |cost: CostEstimate| CallEstimate {
            cost: cost.add(arg_sum),
            result_size: None,
        };
        match overload {
            "string_format" => {
                if let Some(t) = target {
                    return simple(size_of(t).multiply_by_cost_factor(traversal));
                }
            }
            "string_to_bytes" | "bytes_to_string" | "strings_quote" if args.len() == 1 => {
                let sz = size_of(&args[0]);
                let result = match overload {
                    "string_to_bytes" => SizeEstimate {
                        min: sz.min,
                        max: sz.max.wrapping_mul(4),
                    },
                    "bytes_to_string" => SizeEstimate {
                        min: sz.min / 4,
                        max: sz.max,
                    },
                    _ => SizeEstimate {
                        min: sz.min.wrapping_add(2),
                        max: sz.max.wrapping_mul(2).wrapping_add(2),
                    },
                };
                return CallEstimate {
                    cost: sz.multiply_by_cost_factor(traversal).add(arg_sum),
                    result_size: Some(result),
                };
            }
            "starts_with_string" | "ends_with_string" if args.len() == 1 => {
                return simple(size_of(&args[0]).multiply_by_cost_factor(traversal));
            }
            "in_list" if args.len() == 2 => {
                return simple(size_of(&args[1]).multiply_by_cost_factor(1.0));
            }
            "matches_string" if args.len() == 1 => {
                if let Some(t) = target {
                    let str_cost = size_of(t)
                        .add(SizeEstimate::fixed(1))
                        .multiply_by_cost_factor(traversal);
                    let regex_cost =
                        size_of(&args[0]).multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return simple(str_cost.multiply(regex_cost));
                }
            }
            "contains_string" if args.len() == 1 => {
                if let Some(t) = target {
                    let str_cost = size_of(t).multiply_by_cost_factor(traversal);
                    let sub_cost = size_of(&args[0]).multiply_by_cost_factor(traversal);
                    return simple(str_cost.multiply(sub_cost));
                }
            }
            "logical_or" | "logical_and" if arg_costs.len() >= 2 => {
                let (lhs, rhs) = (arg_costs[0], arg_costs[1]);
                // short-circuiting: at least the left side, at most both
                return CallEstimate {
                    cost: CostEstimate {
                        min: lhs.min,
                        max: lhs.add(rhs).max,
                    },
                    result_size: None,
                };
            }
            "conditional" if args.len() >= 3 => {
                let size = size_of(&args[1]).union(size_of(&args[2]));
                let entry = match (args[1].expr, args[2].expr) {
                    (Some(a), Some(b)) => EntrySize::union(self.entry_size(a), self.entry_size(b)),
                    _ => None,
                };
                self.set_entry_size(expr, entry);
                return CallEstimate {
                    cost: arg_costs[0].add(arg_costs[1].union(arg_costs[2])),
                    result_size: Some(size),
                };
            }
            "add_string" | "add_bytes" | "add_list" if args.len() == 2 => {
                let result = size_of(&args[0]).add(size_of(&args[1]));
                let entry = match (args[0].expr, args[1].expr) {
                    (Some(a), Some(b)) => EntrySize::union(self.entry_size(a), self.entry_size(b)),
                    _ => None,
                };
                self.set_entry_size(expr, entry);
                let cost = if overload == "add_list" {
                    // concatenation is O(1); the case is here to track the size
                    CostEstimate::fixed(1)
                } else {
                    result.multiply_by_cost_factor(traversal)
                };
                return CallEstimate {
                    cost: cost.add(arg_sum),
                    result_size: Some(result),
                };
            }
            "less_string"
            | "greater_string"
            | "less_equals_string"
            | "greater_equals_string"
            | "less_bytes"
            | "greater_bytes"
            | "less_equals_bytes"
            | "greater_equals_bytes"
            | "equals"
            | "not_equals"
                if args.len() >= 2 =>
            {
                let smallest_max = size_of(&args[0]).max.min(size_of(&args[1]).max);
                let min = u64::from(smallest_max > 0);
                return simple(
                    CostEstimate {
                        min,
                        max: smallest_max,
                    }
                    .multiply_by_cost_factor(traversal),
                );
            }
            _ => {}
        }
        simple(CostEstimate::fixed(1))
    }
}

/// Which iteration variable is pushed.
#[derive(Clone, Copy)]
enum IterPart {
    Key,
    Value,
    Single,
}

/// The call's own estimate from the `ext` libraries' overload estimators (`ext.Lists` version
/// 3, `ext.Sets`).
fn ext_estimate(
    sizes: &dyn SizeEstimator,
    overload: &str,
    target: Option<&AstNode<'_>>,
    args: &[AstNode<'_>],
) -> Option<CallEstimate> {
    let list_call = |factor: f64, size: SizeEstimate| CallEstimate {
        cost: size
            .multiply_by_cost_factor(factor)
            .add(CostEstimate::fixed(1))
            .add(CostEstimate::fixed(LIST_CREATE_BASE_COST)),
        result_size: Some(size),
    };
    let sort_cost = |node: &AstNode<'_>, elem: &str| {
        let sz = node_size(sizes, node);
        let mut factor = 2.0;
        if elem == "string" || elem == "bytes" {
            factor += STRING_TRAVERSAL_COST_FACTOR;
        }
        list_call(factor, sz.multiply(sz))
    };
    let sets = |factor: f64| {
        if args.len() != 2 {
            return None;
        }
        let (a, b) = (node_size(sizes, &args[0]), node_size(sizes, &args[1]));
        Some(CallEstimate {
            cost: a
                .multiply(b)
                .multiply_by_cost_factor(factor)
                .add(CostEstimate::fixed(1)),
            result_size: None,
        })
    };
    match overload {
        "list_slice" => {
            let t = target?;
            if args.len() != 2 {
                return None;
            }
            let sz = node_size(sizes, t);
            let start = node_as_int(&args[0], 0);
            let end = node_as_int(&args[1], sz.max);
            Some(list_call(1.0, SizeEstimate::fixed(end.wrapping_sub(start))))
        }
        "lists_range" => {
            if target.is_some() || args.len() != 1 {
                return None;
            }
            Some(list_call(
                1.0,
                SizeEstimate::fixed(node_as_int(&args[0], u64::MAX)),
            ))
        }
        "list_reverse" => {
            let t = target?;
            if !args.is_empty() {
                return None;
            }
            Some(list_call(1.0, node_size(sizes, t)))
        }
        "list_flatten" | "list_flatten_int" => {
            let t = target?;
            if args.len() > 1 {
                return None;
            }
            let depth = args.first().map_or(1, |a| node_as_int(a, u64::MAX));
            Some(list_call(depth as f64, node_size(sizes, t)))
        }
        "list_distinct" => {
            let t = target?;
            if !args.is_empty() {
                return None;
            }
            let sz = node_size(sizes, t);
            Some(list_call(2.0, sz.multiply(sz)))
        }
        "list_sets_contains_list" | "list_sets_intersects_list" => sets(1.0),
        "list_sets_equivalent_list" => sets(2.0),
        _ => {
            let rest = overload.strip_prefix("list_")?;
            if let Some(elem) = rest.strip_suffix("_sortByAssociatedKeys") {
                target?;
                if args.len() != 1 {
                    return None;
                }
                Some(sort_cost(&args[0], elem))
            } else if let Some(elem) = rest.strip_suffix("_sort") {
                let t = target?;
                if !args.is_empty() {
                    return None;
                }
                Some(sort_cost(t, elem))
            } else {
                None
            }
        }
    }
}

/// `nodeAsIntValue`: an int literal's value (0 when negative), else `default`.
fn node_as_int(node: &AstNode<'_>, default: u64) -> u64 {
    match node.expr.map(|e| &e.kind) {
        Some(ExprKind::Literal(Literal::Int(i))) => u64::try_from(*i).unwrap_or(0),
        _ => default,
    }
}

/// Kubernetes' `selectorCostEstimate`.
pub(super) fn selector_cost_estimate(length: SizeEstimate) -> CostEstimate {
    // the shortest repeatable requirement is 2 characters; each costs a struct and a list
    let parse = length.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
    let requirements = length.multiply_by_cost_factor(0.5);
    let requirement_cost = requirements
        .multiply_by_cost_factor((LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST) as f64);
    CostEstimate::fixed(LIST_CREATE_BASE_COST)
        .add(parse)
        .add(requirement_cost)
}

/// Kubernetes' `MaxNameFormatRegexSize`.
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;
/// Kubernetes' `MaxFormatSize`.
const MAX_FORMAT_SIZE: u64 = 64;

/// Kubernetes' `library.CostEstimator.EstimateCallCost`, keyed by function name.
fn kubernetes_estimate(
    sizes: &dyn SizeEstimator,
    function: &str,
    overload: &str,
    target: Option<&AstNode<'_>>,
    args: &[AstNode<'_>],
) -> Option<CallEstimate> {
    let traversal = STRING_TRAVERSAL_COST_FACTOR;
    let fixed = |c: u64| {
        Some(CallEstimate {
            cost: CostEstimate::fixed(c),
            result_size: None,
        })
    };
    let cost_only = |cost: CostEstimate| {
        Some(CallEstimate {
            cost,
            result_size: None,
        })
    };
    let size = |n: &AstNode<'_>| node_size(sizes, n);
    match function {
        "check" => fixed(350_000),
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name"
        | "allowed" | "reason" | "error" | "errored" => fixed(1),
        "fieldSelector" | "labelSelector" if args.len() == 1 => {
            cost_only(selector_cost_estimate(size(&args[0])))
        }
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => {
            let t = target?;
            match list_element_node(t) {
                Some(elem) => {
                    let mut el_cost = CostEstimate::fixed(1);
                    if matches!(elem.ty, Type::String | Type::Bytes) {
                        el_cost = el_cost.add(size(&elem).multiply_by_cost_factor(traversal));
                    }
                    cost_only(size(t).multiply_by_cost(el_cost))
                }
                // indexOf and lastIndexOf of a string
                None => cost_only(size(t).multiply_by_cost_factor(traversal)),
            }
        }
        "url" | "jsonpatch.escapeKey" if args.len() == 1 => {
            let sz = size(&args[0]);
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(traversal),
                result_size: Some(sz),
            })
        }
        "lowerAscii" | "upperAscii" | "substring" | "trim" => {
            let sz = size(target?);
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(traversal),
                result_size: Some(sz),
            })
        }
        "replace" if args.len() >= 2 => {
            let sz = size(target?);
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(2.0 * traversal),
                result_size: Some(replace_size(sz, size(&args[0]), size(&args[1]))),
            })
        }
        "split" => {
            let sz = size(target?);
            // worst case: an empty separator, every character an element
            let mut max = sz.max;
            if let Some(ExprKind::Literal(Literal::Int(i))) =
                args.get(1).and_then(|a| a.expr).map(|e| &e.kind)
            {
                max = *i as u64;
            }
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(2.0 * traversal),
                result_size: Some(SizeEstimate { min: 0, max }),
            })
        }
        "join" => {
            let t = target?;
            let list_size = size(t);
            let mut sz = SizeEstimate::default();
            if let Some(elem) = list_element_node(t) {
                sz = list_size.multiply(size(&elem));
            }
            if let Some(sep) = args.first() {
                let separators = SizeEstimate {
                    min: list_size.min.saturating_sub(1),
                    max: list_size.max.saturating_sub(1),
                };
                sz = sz.add(size(sep).multiply(separators));
            }
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(traversal),
                result_size: Some(sz),
            })
        }
        "find" | "findAll" if !args.is_empty() => {
            let sz = size(target?);
            let str_cost = sz
                .add(SizeEstimate::fixed(1))
                .multiply_by_cost_factor(traversal);
            let regex_cost =
                size(&args[0]).multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
            Some(CallEstimate {
                cost: str_cost.multiply(regex_cost),
                result_size: Some(SizeEstimate {
                    min: 0,
                    max: sz.max,
                }),
            })
        }
        "cidr" | "isIP" | "isCIDR" if !args.is_empty() => {
            cost_only(size(&args[0]).multiply_by_cost_factor(traversal))
        }
        "ip" => {
            if overload == "cidr_ip" {
                return fixed(1);
            }
            let arg = args.first()?;
            cost_only(size(arg).multiply_by_cost_factor(traversal))
        }
        "ip.isCanonical" if !args.is_empty() => {
            cost_only(size(&args[0]).multiply_by_cost_factor(2.0 * traversal))
        }
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => fixed(1),
        "containsIP" | "containsCIDR" if !args.is_empty() => {
            // comparing two byte lists of an IPv4 or IPv6 address
            let sz = SizeEstimate { min: 4, max: 16 };
            let mut cost = sz.add(sz).multiply_by_cost_factor(traversal);
            if function == "containsCIDR" {
                cost = cost
                    .add(sz.multiply_by_cost_factor(traversal))
                    .add(CostEstimate::fixed(1));
            }
            if overload == "cidr_contains_ip_string" || overload == "cidr_contains_cidr_string" {
                cost =
                    cost.add(CostEstimate::from(size(&args[0])).multiply_by_cost_factor(traversal));
            }
            cost_only(cost)
        }
        "quantity" | "isQuantity" | "semver" | "isSemver" if !args.is_empty() => {
            cost_only(size(&args[0]).multiply_by_cost_factor(traversal))
        }
        "validate" if !args.is_empty() => cost_only(
            size(&args[0])
                .multiply_by_cost_factor(traversal)
                .multiply_by_cost_factor(
                    MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
                ),
        ),
        "format.named" | "sign" | "asInteger" | "isInteger" | "asApproximateFloat"
        | "isGreaterThan" | "isLessThan" | "compareTo" | "add" | "sub" | "major" | "minor"
        | "patch" | "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath"
        | "getQuery" => fixed(1),
        "_==_" if args.len() == 2 => {
            let (lhs, rhs) = (&args[0], &args[1]);
            if lhs.ty != rhs.ty {
                return None;
            }
            let Type::Opaque(name, _) = &lhs.ty else {
                return None;
            };
            match &**name {
                "net.IP"
                | "net.CIDR"
                | "kubernetes.Quantity"
                | "kubernetes.Semver"
                | "kubernetes.authorization.Authorizer"
                | "kubernetes.authorization.PathCheck"
                | "kubernetes.authorization.GroupCheck"
                | "kubernetes.authorization.ResourceCheck"
                | "kubernetes.authorization.Decision" => fixed(1),
                "kubernetes.NamedFormat" => cost_only(
                    CostEstimate {
                        min: 1,
                        max: MAX_FORMAT_SIZE,
                    }
                    .multiply_by_cost_factor(traversal),
                ),
                "kubernetes.URL" => {
                    // (Kubernetes takes both sides' size from the right-hand side)
                    let mut sz = SizeEstimate::fixed(1);
                    if let Some(r) = rhs.computed_size {
                        sz = r.union(r);
                    }
                    cost_only(
                        CostEstimate {
                            min: 1,
                            max: sz.max,
                        }
                        .multiply_by_cost_factor(traversal),
                    )
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Kubernetes' `listElementNode`: a node for a list's elements, with the `@items` path.
fn list_element_node<'e>(list: &AstNode<'e>) -> Option<AstNode<'e>> {
    let elem = type_params(&list.ty).into_iter().next()?;
    let path = if list.path.is_empty() {
        Vec::new()
    } else {
        let mut p = list.path.clone();
        p.push("@items".to_string());
        p
    };
    Some(AstNode {
        path,
        ty: elem,
        expr: None,
        computed_size: None,
    })
}

/// The size of `s.replace(from, to)` (Kubernetes' estimate).
pub(super) fn replace_size(sz: SizeEstimate, from: SizeEstimate, to: SizeEstimate) -> SizeEstimate {
    let mut count = SizeEstimate::default();
    let mut retained = SizeEstimate::default();
    // the longest result
    if from.min == 0 {
        // replacing "" surrounds every character
        count.max = if sz.max < u64::MAX {
            sz.max + 1
        } else {
            sz.max
        };
        retained.max = sz.max;
    } else if to.max <= from.min {
        count.max = 0;
        retained.max = sz.max;
    } else {
        count.max = go_u64((sz.max as f64 / from.min as f64).ceil());
    }
    // the shortest result
    if from.max == 0 {
        count.min = if sz.min < u64::MAX {
            sz.min + 1
        } else {
            sz.min
        };
        retained.min = sz.min;
    } else if from.max <= to.min {
        count.min = 0;
        retained.min = sz.min;
    } else {
        count.min = go_u64((sz.min as f64 / from.max as f64).ceil());
    }
    count.multiply(to).add(retained)
}

/// Go's `uint64(f)` for a float64 on amd64, which cel-go's trackers rely on: truncation,
/// negative values through int64, values out of range to 2^63.
pub(super) fn go_u64(f: f64) -> u64 {
    const OUT_OF_RANGE: u64 = 1 << 63;
    if f.is_nan() {
        OUT_OF_RANGE
    } else if f < 0.0 {
        if f > -9_223_372_036_854_775_808.0 {
            (f as i64) as u64
        } else {
            OUT_OF_RANGE
        }
    } else if f < 18_446_744_073_709_551_616.0 {
        f as u64
    } else {
        OUT_OF_RANGE
    }
}
