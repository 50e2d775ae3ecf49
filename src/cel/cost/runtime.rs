//! Runtime pricing: what one call costs (cel-go's `CostTracker.costCall` after the `ext.Lists`
//! and `ext.Sets` overload trackers and Kubernetes' `library.CostEstimator.CallCost`), and the
//! shape questions cel-go's planner answers (is a node an attribute, a folded constant).

use super::{
    LIST_CREATE_BASE_COST, REGEX_STRING_LENGTH_COST_FACTOR, SELECT_AND_IDENT_COST,
    STRING_TRAVERSAL_COST_FACTOR,
};
use crate::cel::ast::{Expr, ExprKind};
use crate::cel::k8s::cidr::Cidr;
use crate::cel::k8s::format::NamedFormat;
use crate::cel::k8s::ip::{Addr, Ip};
use crate::cel::value::{Opaque, Value};

/// The cost of a call cel-go gives no price of its own.
const CALL_COST: u64 = 1;

/// What kind of attribute cel-go's planner makes of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Attr {
    /// Not an attribute: a constant, a call, a literal, a comprehension.
    None,
    /// A variable, a selection or an index.
    Plain,
    /// A ternary (cel-go's conditional attribute, observed at no cost).
    Conditional,
}

/// Identifiers the checker resolves to types, which cel-go plans as constants.
pub(super) fn is_type_name(name: &str) -> bool {
    // by length first: asked at every identifier, which is rarely a type name
    match name.len() {
        3 => matches!(name, "int" | "map"),
        4 => matches!(name, "bool" | "uint" | "list" | "type"),
        5 => name == "bytes",
        6 => matches!(name, "double" | "string"),
        9 => name == "null_type",
        13 => name == "optional_type",
        24 => name == "google.protobuf.Duration",
        25 => name == "google.protobuf.Timestamp",
        _ => false,
    }
}

/// Whether `expr` names a type (`int`, `google.protobuf.Timestamp`), which cel-go plans as a
/// constant.
pub(super) fn is_type_expr(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Ident(name) => is_type_name(name),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } if matches!(field.as_str(), "IP" | "CIDR") => {
            // Kubernetes' `net.IP` and `net.CIDR`
            matches!(&operand.kind, ExprKind::Ident(n) if n == "net")
        }
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => {
            matches!(field.as_str(), "Timestamp" | "Duration")
                && matches!(&operand.kind, ExprKind::Select { operand, field, test_only: false }
                    if field == "protobuf"
                        && matches!(&operand.kind, ExprKind::Ident(n) if n == "google"))
        }
        _ => false,
    }
}

/// The attribute kind cel-go's planner gives `expr`.
pub(super) fn attr_kind(expr: &Expr) -> Attr {
    if is_type_expr(expr) {
        return Attr::None;
    }
    match &expr.kind {
        ExprKind::Ident(_) | ExprKind::Select { .. } => Attr::Plain,
        ExprKind::Call { function, .. } => match function.as_str() {
            "_[_]" | "_[?_]" | "_?._" => Attr::Plain,
            "_?_:_" => Attr::Conditional,
            _ => Attr::None,
        },
        _ => Attr::None,
    }
}

/// What the tracker charged for the attribute `expr`'s own observation (its root: the
/// variable, or the relative attribute over a computed value), which cel-go skips when the
/// attribute is resolved directly as a ternary branch or as an index.
pub(super) fn root_refund(expr: &Expr, presence_test_has_cost: bool) -> u64 {
    if is_type_expr(expr) {
        return 0;
    }
    match &expr.kind {
        ExprKind::Ident(_) => SELECT_AND_IDENT_COST,
        ExprKind::Select {
            operand,
            test_only: true,
            ..
        } => {
            u64::from(presence_test_has_cost)
                + u64::from(attr_kind(operand) == Attr::None) * SELECT_AND_IDENT_COST
        }
        ExprKind::Select { operand, .. } => operand_root_refund(operand, presence_test_has_cost),
        ExprKind::Call { function, args, .. }
            if matches!(function.as_str(), "_[_]" | "_[?_]" | "_?._") =>
        {
            match args.first() {
                Some(operand) => operand_root_refund(operand, presence_test_has_cost),
                None => 0,
            }
        }
        _ => 0,
    }
}

fn operand_root_refund(operand: &Expr, presence_test_has_cost: bool) -> u64 {
    match attr_kind(operand) {
        // the relative attribute over a computed operand was charged with the qualifier
        Attr::None => SELECT_AND_IDENT_COST,
        Attr::Conditional => 0,
        Attr::Plain => root_refund(operand, presence_test_has_cost),
    }
}

/// cel-go's type conversion functions (`overloads.IsTypeConversionFunction`), which
/// `OptOptimize` folds when applied to a constant.
pub(super) fn is_conversion(function: &str) -> bool {
    // by length first: asked at every call
    match function.len() {
        3 => matches!(function, "dyn" | "int"),
        4 => matches!(function, "bool" | "type" | "uint"),
        5 => function == "bytes",
        6 => matches!(function, "double" | "string"),
        8 => function == "duration",
        9 => function == "timestamp",
        _ => false,
    }
}

/// Whether cel-go's `OptOptimize` turns `expr` into a constant: literals, type names, lists
/// and maps of constants, conversions of constants, `in` over an empty constant list.
pub(super) fn is_const(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Literal(_) => true,
        ExprKind::Ident(_) | ExprKind::Select { .. } => is_type_expr(expr),
        ExprKind::List { elements, .. } => elements.iter().all(is_const),
        ExprKind::Map { entries } => entries
            .iter()
            .all(|e| is_const(&e.key) && is_const(&e.value)),
        ExprKind::Call {
            target: None,
            function,
            args,
        } => {
            if is_conversion(function) {
                args.len() == 1 && is_const(&args[0])
            } else if function == "@in" {
                matches!(args.get(1).map(|a| &a.kind),
                    Some(ExprKind::List { elements, .. }) if elements.is_empty())
            } else {
                false
            }
        }
        _ => false,
    }
}

/// Whether `list` holds only primitives (bool, int, uint, double, string: cel-go's set
/// membership optimisation leaves lists with bytes or other values alone).
pub(super) fn is_primitive_list(list: &Value) -> bool {
    match list {
        Value::List(l) => l.items.iter().all(|v| {
            matches!(
                v,
                Value::Bool(_)
                    | Value::Int(_)
                    | Value::Uint(_)
                    | Value::Double(_)
                    | Value::String(_)
            )
        }),
        _ => false,
    }
}

/// cel-go's `actualSize` in the interpreter: the size of sized values (optionals by their
/// value), 1 for everything else.
pub(super) fn actual_size(mut value: &Value) -> u64 {
    while let Value::Optional(Some(inner)) = value {
        value = inner;
    }
    sizer_size(value).unwrap_or(1)
}

/// The `actualSize` of the extension and Kubernetes libraries: optionals are not unwrapped.
fn lib_size(value: &Value) -> u64 {
    sizer_size(value).unwrap_or(1)
}

/// `traits.Sizer`'s size: strings in code points, bytes, lists, maps, and library values
/// that have one (IP and CIDR addresses in bytes).
fn sizer_size(value: &Value) -> Option<u64> {
    let n = match value {
        Value::String(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(l) => l.items.len(),
        Value::Map(m) => m.entries.len(),
        Value::Opaque(o) => return opaque_size(o.as_ref()),
        _ => return None,
    };
    Some(n as u64)
}

/// The `Size()` of the Kubernetes library values that have one: an IP address's length in
/// bytes, a CIDR's prefix length in bytes rounded up.
fn opaque_size(o: &dyn Opaque) -> Option<u64> {
    let any = o.as_any();
    if let Some(ip) = any.downcast_ref::<Ip>() {
        return Some(match ip.0 {
            Addr::V4(_) => 4,
            Addr::V6(..) => 16,
        });
    }
    any.downcast_ref::<Cidr>()
        .map(|c| u64::from(c.bits).div_ceil(8))
}

/// A named format's `MaxRegexSize`.
fn format_max_regex_size(o: &dyn Opaque) -> Option<u64> {
    o.as_any()
        .downcast_ref::<NamedFormat>()
        .map(|f| u64::try_from(f.max_regex_size).unwrap_or(0))
}

/// `uint64(math.Ceil(float64(n) * factor))`.
fn ceil_factor(n: u64, factor: f64) -> u64 {
    super::estimate::go_u64((n as f64 * factor).ceil())
}

/// The price of one call: `function` resolved to `overload` (empty when dispatched
/// dynamically), with the evaluated `args` (receiver first) and `result`; `kubernetes`: with
/// the Kubernetes libraries' hook.
pub(super) fn function_cost(
    function: &str,
    overload: &str,
    args: &[Value],
    result: &Value,
    kubernetes: bool,
) -> u64 {
    match function {
        // cel-go plans these as logic or attribute steps, not calls
        "_&&_" | "_||_" | "_?_:_" => return 0,
        "_[_]" | "_[?_]" | "_?._" => return SELECT_AND_IDENT_COST,
        _ => {}
    }
    // cel-go plans equality as its own step whose overload is always `equals`/`not_equals`
    let overload = match function {
        "_==_" => "equals",
        "_!=_" => "not_equals",
        _ => overload,
    };
    if let Some(cost) = ext_tracker(overload, args, result) {
        return cost;
    }
    if kubernetes && let Some(cost) = kubernetes_call_cost(function, overload, args, result) {
        return cost;
    }
    default_call_cost(overload, args)
}

/// cel-go's `ext.Lists` (version 3) and `ext.Sets` overload cost trackers.
fn ext_tracker(overload: &str, args: &[Value], result: &Value) -> Option<u64> {
    let allocating = |factor: f64, size: u64| {
        super::estimate::go_u64(size as f64 * factor)
            .wrapping_add(CALL_COST)
            .wrapping_add(LIST_CREATE_BASE_COST)
    };
    let sets = |factor: f64| {
        let lhs = args.first().map_or(1, lib_size);
        let rhs = args.get(1).map_or(1, lib_size);
        CALL_COST.wrapping_add(super::estimate::go_u64(
            lhs.wrapping_mul(rhs) as f64 * factor,
        ))
    };
    let self_compare = |list: Option<&Value>| {
        let Some(Value::List(l)) = list else {
            return allocating(2.0, 0);
        };
        let size = l.items.len() as u64;
        let mut factor = 2.0;
        if let Some(Value::String(_) | Value::Bytes(_)) = l.items.first() {
            factor += STRING_TRAVERSAL_COST_FACTOR;
        }
        allocating(factor, size.wrapping_mul(size))
    };
    Some(match overload {
        "list_slice" | "lists_range" | "list_reverse" => allocating(1.0, lib_size(result)),
        "list_flatten" | "list_flatten_int" => {
            let depth = match args.get(1) {
                Some(Value::Int(d)) if args.len() == 2 => *d as f64,
                _ => 1.0,
            };
            allocating(depth, args.first().map_or(1, lib_size))
        }
        "list_distinct" => self_compare(args.first()),
        "list_sets_contains_list" | "list_sets_intersects_list" => sets(1.0),
        "list_sets_equivalent_list" => sets(2.0),
        _ => {
            let rest = overload.strip_prefix("list_")?;
            if let Some(t) = rest.strip_suffix("_sortByAssociatedKeys")
                && is_comparable_type_name(t)
            {
                self_compare(args.get(1))
            } else if let Some(t) = rest.strip_suffix("_sort")
                && is_comparable_type_name(t)
            {
                self_compare(args.first())
            } else {
                return None;
            }
        }
    })
}

/// The element types `ext.Lists` sorts (`comparableTypes`), as they appear in overload ids.
fn is_comparable_type_name(name: &str) -> bool {
    matches!(
        name,
        "int"
            | "uint"
            | "double"
            | "bool"
            | "google.protobuf.Duration"
            | "google.protobuf.Timestamp"
            | "string"
            | "bytes"
    )
}

/// Kubernetes' `traversalCost`: a walk over a value, strings and bytes at 0.1 a byte
/// (truncated), everything else 1. Iterative: values can nest deeply.
fn traversal_cost(value: &Value) -> u64 {
    let mut cost = 0u64;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                cost = cost.wrapping_add(super::estimate::go_u64(
                    s.len() as f64 * STRING_TRAVERSAL_COST_FACTOR,
                ));
            }
            Value::Bytes(b) => {
                cost = cost.wrapping_add(super::estimate::go_u64(
                    b.len() as f64 * STRING_TRAVERSAL_COST_FACTOR,
                ));
            }
            Value::List(l) => stack.extend(l.items.iter()),
            Value::Map(m) => {
                for (k, item) in &m.entries {
                    cost = cost.wrapping_add(match k {
                        crate::cel::value::Key::String(s) => {
                            super::estimate::go_u64(s.len() as f64 * STRING_TRAVERSAL_COST_FACTOR)
                        }
                        _ => 1,
                    });
                    stack.push(item);
                }
            }
            _ => cost = cost.wrapping_add(1),
        }
    }
    cost
}

/// `(1 + size(s)) * 0.1` rounded up times `size(re) * 0.25` rounded up: cel-go's guess at a
/// regular expression's cost.
fn regex_cost(str_size: u64, regex_size: u64) -> u64 {
    let str_cost =
        super::estimate::go_u64(((1.0 + str_size as f64) * STRING_TRAVERSAL_COST_FACTOR).ceil());
    let regex_cost = ceil_factor(regex_size, REGEX_STRING_LENGTH_COST_FACTOR);
    str_cost.wrapping_mul(regex_cost)
}

/// Kubernetes' `library.CostEstimator.CallCost`, keyed by function name.
fn kubernetes_call_cost(
    function: &str,
    overload: &str,
    args: &[Value],
    result: &Value,
) -> Option<u64> {
    // operators are not the Kubernetes libraries' (but `==` on their values): decided
    // without going through every name below
    if function != "_==_"
        && !function
            .as_bytes()
            .first()
            .is_some_and(u8::is_ascii_alphabetic)
    {
        return None;
    }
    let size = |i: usize| args.get(i).map(lib_size);
    let traversal = |n: Option<u64>| n.map(|n| ceil_factor(n, STRING_TRAVERSAL_COST_FACTOR));
    match function {
        "check" => Some(350_000),
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name"
        | "allowed" | "reason" | "error" | "errored" => Some(1),
        "fieldSelector" | "labelSelector" => {
            let len = size(1)?;
            let selector = SizeEstimateLite(len);
            Some(selector.selector_cost())
        }
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" => {
            Some(args.first().map_or(0, traversal_cost))
        }
        "url" | "lowerAscii" | "upperAscii" | "substring" | "trim" | "jsonpatch.escapeKey" => {
            traversal(size(0))
        }
        "replace" | "split" => size(0).map(|n| ceil_factor(n, 2.0 * STRING_TRAVERSAL_COST_FACTOR)),
        "join" => {
            if args.is_empty() {
                return None;
            }
            Some(ceil_factor(
                lib_size(result),
                2.0 * STRING_TRAVERSAL_COST_FACTOR,
            ))
        }
        "find" | "findAll" => {
            let (s, re) = (size(0)?, size(1)?);
            Some(regex_cost(s, re))
        }
        "cidr" | "isIP" | "isCIDR" => traversal(size(0)),
        "ip" => {
            if args.is_empty() {
                return None;
            }
            if overload == "cidr_ip" {
                return Some(1);
            }
            traversal(size(0))
        }
        "ip.isCanonical" => size(0).map(|n| ceil_factor(n, 2.0 * STRING_TRAVERSAL_COST_FACTOR)),
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => Some(1),
        "containsIP" | "containsCIDR" => {
            let (cidr, other) = (size(0)?, size(1)?);
            let mut cost = ceil_factor(cidr.wrapping_add(cidr), STRING_TRAVERSAL_COST_FACTOR);
            if function == "containsCIDR" {
                cost = cost
                    .wrapping_add(ceil_factor(cidr, STRING_TRAVERSAL_COST_FACTOR))
                    .wrapping_add(1);
            }
            if overload == "cidr_contains_ip_string" || overload == "cidr_contains_cidr_string" {
                cost = cost.wrapping_add(ceil_factor(other, STRING_TRAVERSAL_COST_FACTOR));
            }
            Some(cost)
        }
        "quantity" | "isQuantity" | "semver" | "isSemver" => traversal(size(0)),
        "validate" => {
            let Some(Value::Opaque(format)) = args.first() else {
                return None;
            };
            let regex_size = format_max_regex_size(format.as_ref())?;
            Some(regex_cost(size(1)?, regex_size))
        }
        "format.named" | "sign" | "asInteger" | "isInteger" | "asApproximateFloat"
        | "isGreaterThan" | "isLessThan" | "compareTo" | "add" | "sub" | "major" | "minor"
        | "patch" | "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath"
        | "getQuery" => Some(1),
        // every Kubernetes library type compares in constant time
        "_==_" if args.len() == 2 && matches!(args[0], Value::Opaque(_)) => Some(1),
        _ => None,
    }
}

/// A selector's length, for Kubernetes' `selectorCostEstimate` at run time.
struct SizeEstimateLite(u64);

impl SizeEstimateLite {
    /// `baseSelectorCost + len * 0.1 + ceil(len * 0.5) * 50`, each rounded up.
    fn selector_cost(&self) -> u64 {
        let est = super::SizeEstimate::fixed(self.0);
        super::estimate::selector_cost_estimate(est).max
    }
}

/// cel-go's own prices for its standard library (`costCall`'s switch on the overload id).
fn default_call_cost(overload: &str, args: &[Value]) -> u64 {
    let size = |i: usize| args.get(i).map_or(1, actual_size);
    match overload {
        "starts_with_string" | "ends_with_string" | "string_to_bytes" | "bytes_to_string"
        | "strings_quote" | "string_format" => ceil_factor(size(0), STRING_TRAVERSAL_COST_FACTOR),
        "in_list" => size(1),
        "less_string"
        | "greater_string"
        | "less_equals_string"
        | "greater_equals_string"
        | "less_bytes"
        | "greater_bytes"
        | "less_equals_bytes"
        | "greater_equals_bytes"
        | "equals"
        | "not_equals" => ceil_factor(size(0).min(size(1)), STRING_TRAVERSAL_COST_FACTOR),
        "add_string" | "add_bytes" => {
            ceil_factor(size(0).wrapping_add(size(1)), STRING_TRAVERSAL_COST_FACTOR)
        }
        "matches_string" => regex_cost(size(0), size(1)),
        "contains_string" => ceil_factor(size(0), STRING_TRAVERSAL_COST_FACTOR)
            .wrapping_mul(ceil_factor(size(1), STRING_TRAVERSAL_COST_FACTOR)),
        _ => CALL_COST,
    }
}
