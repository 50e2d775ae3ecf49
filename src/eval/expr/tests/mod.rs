//! Unit tests of expression evaluation: shared helpers (a test function table and variables,
//! value rendering) and checks that span the evaluator.

use super::ops::refine_not_null;
use super::*;
use crate::eval::convert;
use crate::eval::table::{Function, FunctionError, FunctionTable, Param};
use crate::eval::testing::{num, obj, s};
use crate::eval::types::Type;
use crate::syntax::parse_expression;
use std::collections::BTreeMap;

mod call;
mod collections;
mod conditional;
mod for_expr;
mod ops;
mod template;
mod traversal;
mod vars;

fn not_null(ty: Type) -> Value {
    refine_not_null(Value::unknown(ty))
}

/// A compact rendering: `1`, `"a"`, `[1, "a"]` (tuple), `list[1]`, `set["a"]`,
/// `{a = 1}` (object), `map{a = 1}`, `null(string)`, `unknown(number)!` (`!` = not null),
/// `unknown(string)!"ab"…` (prefix).
fn show(v: &Value) -> String {
    let join = |items: &[Value]| items.iter().map(show).collect::<Vec<_>>().join(", ");
    let pairs = |items: &BTreeMap<String, Value>| {
        items
            .iter()
            .map(|(k, v)| format!("{k} = {}", show(v)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match v {
        Value::Unknown(t, r) => {
            let mut out = format!("unknown({})", show_ty(t));
            if r.not_null {
                out.push('!');
            }
            if let Some(p) = &r.string_prefix {
                out.push_str(&format!("{p:?}…"));
            }
            out
        }
        Value::Null(t) => format!("null({})", show_ty(t)),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(x) => format!("{x:?}"),
        Value::List { items, .. } => format!("list[{}]", join(items)),
        Value::Set { items, .. } => format!("set[{}]", join(items)),
        Value::Tuple(items) => format!("[{}]", join(items)),
        Value::Map { items, .. } => format!("map{{{}}}", pairs(items)),
        Value::Object(items) => format!("{{{}}}", pairs(items)),
    }
}

fn show_ty(t: &Type) -> String {
    match t {
        Type::List(e) => format!("list({})", show_ty(e)),
        Type::Set(e) => format!("set({})", show_ty(e)),
        Type::Map(e) => format!("map({})", show_ty(e)),
        Type::Tuple(items) => format!(
            "tuple([{}])",
            items.iter().map(show_ty).collect::<Vec<_>>().join(", ")
        ),
        Type::Object(attrs) => format!(
            "object({{{}}})",
            attrs
                .iter()
                .map(|(k, v)| format!("{k} = {}", show_ty(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.friendly_name(),
    }
}

fn test_functions() -> FunctionTable {
    let mut table = FunctionTable::special_forms();
    table.insert(Function::new(
        "upper",
        vec![Param::new("str", Type::String)],
        None,
        Type::String,
        |args, _| Ok(Value::string(args[0].as_str().unwrap_or("").to_uppercase())),
    ));
    table.insert(Function::new(
        "sum",
        Vec::new(),
        Some(Param::new("numbers", Type::Number)),
        Type::Number,
        |args, _| {
            if args.is_empty() {
                return Err(FunctionError::other("must pass at least one number"));
            }
            let mut total = Num::zero();
            for a in args {
                total = total.add(a.as_num().unwrap()).unwrap();
            }
            Ok(Value::Number(total))
        },
    ));
    table.insert(Function::new(
        "isnull",
        vec![
            Param::new("val", Type::Dynamic)
                .null_ok()
                .unknown_ok()
                .dynamic_ok(),
        ],
        None,
        Type::Bool,
        |args, _| Ok(Value::bool(args[0].is_null())),
    ));
    table.insert(Function::new(
        "strict",
        vec![Param::new("val", Type::Dynamic)],
        None,
        Type::String,
        |_, _| Ok(Value::string("called")),
    ));
    table.insert(Function::new(
        "pair",
        vec![Param::new("a", Type::String), Param::new("b", Type::Number)],
        None,
        Type::String,
        |args, _| {
            Ok(Value::string(format!(
                "{}{}",
                args[0].as_str().unwrap_or(""),
                args[1].as_num().map(Num::to_string).unwrap_or_default()
            )))
        },
    ));
    table.insert(Function::new(
        "positive",
        vec![Param::new("n", Type::Number)],
        None,
        Type::Number,
        |args, _| match args[0].as_num() {
            Some(n) if n.is_neg() => Err(FunctionError::arg(0, "must be positive")),
            _ => Ok(args[0].clone()),
        },
    ));
    table.insert(Function::new(
        "boom",
        Vec::new(),
        None,
        Type::String,
        |_, _| Err(FunctionError::other("it went bang")),
    ));
    table.insert(Function::new(
        "badindex",
        Vec::new(),
        None,
        Type::String,
        |_, _| Err(FunctionError::arg(3, "nope")),
    ));
    table.insert(Function::new(
        "badvar",
        Vec::new(),
        Some(Param::new("rest", Type::String)),
        Type::String,
        |_, _| Err(FunctionError::arg(0, "nope")),
    ));
    table.insert(Function::with_type_fn(
        "typefail",
        vec![Param::new("x", Type::Number).unknown_ok()],
        None,
        |_| Err(FunctionError::arg(0, "type says no")),
        |_, _| Ok(Value::null()),
    ));
    table.insert(Function::new(
        "ns::hello",
        Vec::new(),
        None,
        Type::String,
        |_, _| Ok(Value::string("hi")),
    ));
    table
}

fn test_vars() -> BTreeMap<String, Value> {
    let vars = [
        ("unk_s", Value::unknown(Type::String)),
        ("unk_n", Value::unknown(Type::Number)),
        ("unk_b", Value::unknown(Type::Bool)),
        ("nn_s", not_null(Type::String)),
        ("dyn", Value::dynamic()),
        (
            "unk_obj",
            Value::unknown(Type::Object(
                [("a".to_string(), Type::Number)]
                    .into_iter()
                    .collect::<BTreeMap<_, _>>()
                    .into(),
            )),
        ),
        ("unk_list", Value::unknown(Type::list(Type::Number))),
        (
            "unk_tuple",
            Value::unknown(Type::Tuple(vec![Type::Number, Type::String].into())),
        ),
        (
            "m",
            Value::Map {
                elem: Type::String,
                items: [("a".to_string(), s("x"))]
                    .into_iter()
                    .collect::<BTreeMap<_, _>>()
                    .into(),
            },
        ),
        (
            "l",
            Value::List {
                elem: Type::Number,
                items: vec![num("1"), num("2"), num("3")].into(),
            },
        ),
        (
            "empty_list",
            Value::List {
                elem: Type::Number,
                items: Vec::new().into(),
            },
        ),
        ("set", convert::set_from(Type::String, vec![s("b"), s("a")])),
        ("null_s", Value::Null(Type::String)),
        ("null_list", Value::Null(Type::list(Type::Number))),
        (
            "objs",
            Value::List {
                elem: Type::Object(
                    [("a".to_string(), Type::Number)]
                        .into_iter()
                        .collect::<BTreeMap<_, _>>()
                        .into(),
                ),
                items: vec![obj(&[("a", num("1"))]), obj(&[("a", num("2"))])].into(),
            },
        ),
        (
            "partial",
            Value::Tuple(vec![num("1"), Value::unknown(Type::Number)].into()),
        ),
    ];
    vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

struct Outcome {
    value: Value,
    /// (summary, detail, subject text)
    diags: Vec<(String, String, String)>,
    spans: Vec<std::ops::Range<usize>>,
}

fn run_with(src: &str, vars: BTreeMap<String, Value>, table: Option<&FunctionTable>) -> Outcome {
    let mut map = SourceMap::new();
    let id = map.add("test.hcl", src);
    let (expr, parse_diags) = parse_expression(map.get(id));
    assert!(parse_diags.is_empty(), "{src}: {parse_diags:?}");
    let scope = Scope {
        variables: vars,
        functions: table,
        parent: None,
        bound: Default::default(),
    };
    let (value, diags) = Evaluator::new(id).with_sources(&map).eval(&expr, &scope);
    let text = map.get(id).text();
    Outcome {
        value,
        spans: diags
            .iter()
            .map(|d| d.primary.as_ref().unwrap().span.range())
            .collect(),
        diags: diags
            .iter()
            .map(|d| {
                let range = d.primary.as_ref().unwrap().span.range();
                (
                    d.summary.clone(),
                    d.detail.clone().unwrap_or_default(),
                    text[range].to_string(),
                )
            })
            .collect(),
    }
}

fn run(src: &str) -> Outcome {
    let table = test_functions();
    run_with(src, test_vars(), Some(&table))
}

/// The value of an expression that must evaluate without diagnostics.
fn val(src: &str) -> String {
    let out = run(src);
    assert!(out.diags.is_empty(), "{src}: {:?}", out.diags);
    show(&out.value)
}

/// The single diagnostic of an expression: (summary, detail, subject text).
fn err(src: &str) -> (String, String, String) {
    let out = run(src);
    assert_eq!(out.diags.len(), 1, "{src}: {:?}", out.diags);
    out.diags[0].clone()
}

fn e(summary: &str, detail: &str, subject: &str) -> (String, String, String) {
    (summary.into(), detail.into(), subject.into())
}

// --- ranges and the evaluator as a whole ------------------------------------------------------

#[test]
fn start_ranges() {
    let mut map = SourceMap::new();
    let id = map.add("t.hcl", "f (1) + [2]");
    let (expr, _) = parse_expression(map.get(id));
    assert_eq!(start_range(&expr), 0..3);
    let ExprKind::Binary { rhs, .. } = &expr.kind else {
        panic!()
    };
    assert_eq!(start_range(rhs), 8..9);
}

#[test]
fn error_ranges_are_byte_spans() {
    let out = run("[1, 2][  5 ]");
    assert_eq!(out.spans, vec![6..12]);
}

#[test]
fn syntax_error_placeholders_are_dynamic() {
    let table = test_functions();
    let scope = Scope::root(&table);
    let file = FileId::first();
    let placeholder = Expr {
        kind: ExprKind::Error,
        span: 0..1,
    };
    let (v, diags) = eval(&placeholder, file, &scope);
    assert_eq!(show(&v), "unknown(dynamic)");
    assert!(diags.is_empty());
    let lit = Expr {
        kind: ExprKind::Literal(Literal::Unknown),
        span: 0..1,
    };
    assert_eq!(show(&eval(&lit, file, &scope).0), "unknown(dynamic)");
}

#[test]
fn go_quote_escapes() {
    assert_eq!(
        go_quote("a\"b\\c\n\u{1}\u{a0}é"),
        "\"a\\\"b\\\\c\\n\\x01\\u00a0é\""
    );
}

#[test]
fn deep_nesting_does_not_overflow() {
    let src = format!("{}1{}", "[".repeat(900), "]".repeat(900));
    let out = run(&src);
    assert!(out.diags.is_empty());
}
