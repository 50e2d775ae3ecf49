//! Unit tests for the collection functions: result types and unknown propagation, which the
//! closed-expression conformance vectors cannot reach.

use crate::eval::convert::set_from;
use crate::eval::expr::Evaluator;
use crate::eval::functions::builtins;
use crate::eval::scope::Scope;
use crate::eval::testing::{num, s};
use crate::eval::types::Type;
use crate::eval::value::Value;
use crate::source::SourceMap;
use crate::syntax::parse_expression;
use std::collections::BTreeMap;

fn vars() -> BTreeMap<String, Value> {
    let obj_ty = Type::Object(
        [("a".to_string(), Type::Number)]
            .into_iter()
            .collect::<BTreeMap<_, _>>()
            .into(),
    );
    [
        ("unk_s", Value::unknown(Type::String)),
        ("unk_n", Value::unknown(Type::Number)),
        ("unk_b", Value::unknown(Type::Bool)),
        ("dyn", Value::dynamic()),
        ("unk_obj", Value::unknown(obj_ty)),
        ("unk_list", Value::unknown(Type::list(Type::Number))),
        ("unk_map", Value::unknown(Type::map(Type::String))),
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
                items: vec![num("1"), num("2")].into(),
            },
        ),
        ("set", set_from(Type::String, vec![s("b"), s("a")])),
        (
            "partial",
            Value::Tuple(vec![num("1"), Value::unknown(Type::Number)].into()),
        ),
        (
            "m2",
            Value::Map {
                elem: Type::String,
                items: [("b".to_string(), s("y"))]
                    .into_iter()
                    .collect::<BTreeMap<_, _>>()
                    .into(),
            },
        ),
        (
            "empty_list",
            Value::List {
                elem: Type::Dynamic,
                items: Vec::new().into(),
            },
        ),
        (
            "unk_set1",
            set_from(Type::String, vec![Value::unknown(Type::String)]),
        ),
        (
            "ls",
            Value::List {
                elem: Type::String,
                items: vec![s("a")].into(),
            },
        ),
        ("a_set", set_from(Type::String, vec![s("a")])),
        (
            "unk_set",
            set_from(Type::String, vec![s("a"), Value::unknown(Type::String)]),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Evaluates `src` with the built-ins and [`vars`]: the value, or the first error's detail.
fn eval(src: &str) -> Result<Value, String> {
    let table = builtins();
    let mut map = SourceMap::new();
    let id = map.add("test.hcl", src);
    let (expr, parse_diags) = parse_expression(map.get(id));
    assert!(parse_diags.is_empty(), "{src}: {parse_diags:?}");
    let scope = Scope {
        variables: vars(),
        functions: Some(&table),
        parent: None,
        bound: Default::default(),
    };
    let (value, diags) = Evaluator::new(id).with_sources(&map).eval(&expr, &scope);
    match diags.first() {
        Some(d) => Err(d.detail.clone().unwrap_or_default()),
        None => Ok(value),
    }
}

/// `src`'s value, rendered compactly: `list[..]`, `set[..]`, `map{..}`, tuples as `[..]`,
/// objects as `{..}`, `unknown(type)` with `!` when refined not null, `null(type)`.
fn show(src: &str) -> String {
    match eval(src) {
        Ok(v) => render(&v),
        Err(e) => format!("error: {e}"),
    }
}

fn render(v: &Value) -> String {
    let join = |items: &[Value]| items.iter().map(render).collect::<Vec<_>>().join(", ");
    let pairs = |items: &BTreeMap<String, Value>| {
        items
            .iter()
            .map(|(k, v)| format!("{k} = {}", render(v)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match v {
        Value::Unknown(t, r) => format!(
            "unknown({}){}",
            t.go_string(),
            if r.not_null { "!" } else { "" }
        ),
        Value::Null(t) => format!("null({})", t.go_string()),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(x) => format!("{x:?}"),
        Value::List { elem, items } => format!("list({})[{}]", elem.go_string(), join(items)),
        Value::Set { elem, items } => format!("set({})[{}]", elem.go_string(), join(items)),
        Value::Tuple(items) => format!("[{}]", join(items)),
        Value::Map { elem, items } => format!("map({}){{{}}}", elem.go_string(), pairs(items)),
        Value::Object(items) => format!("{{{}}}", pairs(items)),
    }
}

fn check(cases: &[(&str, &str)]) {
    for (src, want) in cases {
        assert_eq!(show(src), *want, "{src}");
    }
}

#[test]
fn length_counts_types_and_unknowns() {
    check(&[
        ("length(unk_tuple)", "2"),
        ("length(unk_obj)", "1"),
        ("length(unk_list)", "unknown(cty.Number)!"),
        ("length(dyn)", "unknown(cty.Number)"),
        ("length(unk_s)", "unknown(cty.Number)!"),
        ("length(unk_set)", "unknown(cty.Number)!"),
        ("length(unk_set1)", "1"),
        ("length(partial)", "2"),
        (
            "length(null)",
            "error: Invalid value for \"value\" parameter: argument must not be null.",
        ),
        (
            "length(1)",
            "error: Call to function \"length\" failed: argument must be a string, a collection type, or a structural type.",
        ),
    ]);
}

#[test]
fn removed_functions_always_fail() {
    check(&[
        (
            "list(unk_s)",
            "error: Call to function \"list\" failed: the \"list\" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list.",
        ),
        (
            "map()",
            "error: Call to function \"map\" failed: the \"map\" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map.",
        ),
    ]);
}

#[test]
fn element_tests_and_searches() {
    check(&[
        ("alltrue([true, unk_b])", "unknown(cty.Bool)"),
        ("alltrue([false, unk_b])", "false"),
        ("anytrue([unk_b, true])", "true"),
        ("anytrue([unk_b, false])", "unknown(cty.Bool)"),
        ("contains(partial, 1)", "true"),
        ("contains(partial, 5)", "unknown(cty.Bool)!"),
        ("index(partial, 1)", "0"),
        ("index(partial, 5)", "unknown(cty.Number)"),
        ("element(l, unk_n)", "unknown(cty.Number)"),
        (
            "element(unk_tuple, unk_n)",
            "unknown(cty.DynamicPseudoType)",
        ),
        ("element(unk_tuple, 3)", "unknown(cty.String)"),
        ("element([1, \"a\"], -1)", "\"a\""),
        ("one(unk_set)", "unknown(cty.String)"),
        ("one(unk_set1)", "unknown(cty.String)"),
        ("one(empty_list)", "null(cty.DynamicPseudoType)"),
        ("one(a_set)", "\"a\""),
        ("sum(partial)", "unknown(cty.Number)"),
        ("sum([1, \"2\"])", "3"),
    ]);
}

#[test]
fn coalescing() {
    check(&[
        ("coalesce(unk_s, \"a\")", "unknown(cty.String)"),
        ("coalesce(\"a\", unk_s)", "\"a\""),
        ("coalesce(\"\", 1)", "\"1\""),
        ("coalesce(dyn, 1)", "unknown(cty.Number)"),
        (
            "coalescelist(unk_list, [1])",
            "unknown(cty.DynamicPseudoType)",
        ),
        ("coalescelist([1], unk_list)", "[1]"),
        ("coalescelist(empty_list, l)", "list(cty.Number)[1, 2]"),
    ]);
}

#[test]
fn sequences_and_unknowns() {
    check(&[
        ("concat(unk_list, [1])", "unknown(cty.DynamicPseudoType)"),
        ("concat(l, unk_list)", "unknown(cty.List(cty.Number))!"),
        ("concat(l, ls)", "list(cty.String)[\"1\", \"2\", \"a\"]"),
        ("concat(l, [\"a\"])", "[1, 2, \"a\"]"),
        ("flatten([unk_s, [\"a\"]])", "[unknown(cty.String), \"a\"]"),
        ("flatten([unk_list])", "unknown(cty.DynamicPseudoType)"),
        ("flatten([dyn, 1])", "unknown(cty.DynamicPseudoType)"),
        ("flatten([unk_set])", "unknown(cty.DynamicPseudoType)"),
        ("flatten([[], [[]]])", "[]"),
        ("distinct([1, unk_n])", "unknown(cty.List(cty.Number))!"),
        ("distinct([1, 1.0, \"1\"])", "list(cty.String)[\"1\"]"),
        ("compact([\"a\", unk_s])", "unknown(cty.List(cty.String))!"),
        ("sort(partial)", "unknown(cty.List(cty.String))!"),
        ("sort(unk_list)", "unknown(cty.List(cty.String))!"),
        (
            "chunklist(unk_list, 2)",
            "unknown(cty.List(cty.List(cty.Number)))!",
        ),
        (
            "chunklist(l, 0)",
            "list(cty.List(cty.Number))[list(cty.Number)[1, 2]]",
        ),
        (
            "chunklist(empty_list, 2)",
            "list(cty.List(cty.DynamicPseudoType))[]",
        ),
        ("range(unk_n)", "unknown(cty.List(cty.Number))!"),
        ("range(1, 1, 0)", "list(cty.Number)[]"),
        (
            "reverse(unk_tuple)",
            "unknown(cty.Tuple([]cty.Type{cty.String, cty.Number}))!",
        ),
        ("reverse(set)", "list(cty.String)[\"b\", \"a\"]"),
    ]);
}

#[test]
fn slices() {
    check(&[
        (
            "slice(unk_tuple, 0, 1)",
            "unknown(cty.Tuple([]cty.Type{cty.Number}))!",
        ),
        ("slice(unk_list, 0, 5)", "unknown(cty.List(cty.Number))!"),
        ("slice(l, 0, unk_n)", "unknown(cty.List(cty.Number))!"),
        ("slice([1, 2], 0, unk_n)", "unknown(cty.DynamicPseudoType)"),
        (
            "slice(unk_tuple, 0, 3)",
            "error: Invalid value for \"end_index\" parameter: end index must not be greater than the length of the list.",
        ),
        (
            "slice(l, 3, unk_n)",
            "error: Invalid value for \"start_index\" parameter: start index must not be greater than the length of the list.",
        ),
        ("slice(l, 1, 2)", "list(cty.Number)[2]"),
        ("slice(l, 1, 1)", "list(cty.Number)[]"),
    ]);
}

#[test]
fn maps_and_objects() {
    check(&[
        ("keys(unk_obj)", "[\"a\"]"),
        ("keys(unk_map)", "unknown(cty.List(cty.String))!"),
        ("keys(dyn)", "unknown(cty.DynamicPseudoType)"),
        (
            "values(unk_obj)",
            "unknown(cty.Tuple([]cty.Type{cty.Number}))!",
        ),
        ("values(m)", "list(cty.String)[\"x\"]"),
        ("lookup(unk_obj, \"a\")", "unknown(cty.Number)"),
        ("lookup(unk_obj, unk_s)", "unknown(cty.DynamicPseudoType)"),
        (
            "lookup(unk_obj, \"b\")",
            "error: Invalid value for \"inputMap\" parameter: the given object has no attribute \"b\".",
        ),
        ("lookup(m, \"zz\", unk_s)", "unknown(cty.String)"),
        ("lookup(m, \"zz\", 1)", "\"1\""),
        (
            "lookup(m, \"a\", \"b\", \"c\")",
            "error: Call to function \"lookup\" failed: lookup() takes two or three arguments, got 4.",
        ),
        ("merge({a = 1}, unk_map)", "unknown(cty.DynamicPseudoType)"),
        ("merge(m, unk_map)", "unknown(cty.Map(cty.String))!"),
        ("merge(m, m2)", "map(cty.String){a = \"x\", b = \"y\"}"),
        ("merge(m, {b = 1})", "{a = \"x\", b = 1}"),
        ("merge(null, {b = 1})", "{b = 1}"),
        ("merge(dyn, {b = 1})", "unknown(cty.DynamicPseudoType)"),
        (
            "zipmap([\"a\", \"b\"], partial)",
            "{a = 1, b = unknown(cty.Number)}",
        ),
        (
            "zipmap([\"a\", unk_s], partial)",
            "unknown(cty.DynamicPseudoType)",
        ),
        ("zipmap([\"a\", unk_s], l)", "unknown(cty.Map(cty.Number))!"),
        ("zipmap([\"a\", \"b\"], l)", "map(cty.Number){a = 1, b = 2}"),
        (
            "transpose({a = [unk_s]})",
            "unknown(cty.Map(cty.List(cty.String)))",
        ),
        (
            "matchkeys([\"a\"], [unk_s], [\"x\"])",
            "unknown(cty.List(cty.String))",
        ),
        ("matchkeys([\"a\"], [\"x\"], [unk_s])", "list(cty.String)[]"),
    ]);
}

#[test]
fn set_operations() {
    check(&[
        (
            "setunion(set, unk_set1)",
            "set(cty.String)[\"a\", \"b\", unknown(cty.String)]",
        ),
        (
            "setintersection(set, unk_set1)",
            "unknown(cty.Set(cty.String))!",
        ),
        ("setsubtract(set, [\"a\", 1])", "set(cty.String)[\"b\"]"),
        ("setunion([], [1])", "set(cty.Number)[1]"),
        // hcl converts the unknown to set(dynamic) first, so cty's panic for a dynamic argument is
        // not reachable.
        ("setunion(dyn, [1])", "unknown(cty.Set(cty.Number))!"),
        // A zero upper bound on the length makes a known empty result, unless an argument
        // of unbounded length comes first.
        (
            "setproduct([], unk_tuple)",
            "list(cty.Tuple([]cty.Type{cty.DynamicPseudoType, cty.String}))[]",
        ),
        (
            "setproduct([], unk_list)",
            "unknown(cty.List(cty.Tuple([]cty.Type{cty.DynamicPseudoType, cty.Number})))!",
        ),
        (
            "setproduct(l, unk_list)",
            "unknown(cty.List(cty.Tuple([]cty.Type{cty.Number, cty.Number})))!",
        ),
        (
            "setproduct(set, unk_list)",
            "unknown(cty.Set(cty.Tuple([]cty.Type{cty.String, cty.Number})))!",
        ),
        (
            "setproduct(set, [1, \"x\"])",
            "set(cty.Tuple([]cty.Type{cty.String, cty.String}))[[\"a\", \"1\"], [\"a\", \"x\"], [\"b\", \"1\"], [\"b\", \"x\"]]",
        ),
    ]);
}

#[test]
fn setproduct_refuses_a_product_too_large_before_building_it() {
    let table = crate::eval::functions::builtins();
    let f = table.get("setproduct").unwrap();
    let range = |n: i64| Value::List {
        elem: Type::Number,
        items: (0..n)
            .map(|i| num(&i.to_string()))
            .collect::<Vec<_>>()
            .into(),
    };
    let args = [range(1024), range(1024), range(1024)];
    let ret = (f.ret)(&args).unwrap();
    let err = (f.imp)(&args, &ret).expect_err("too large");
    assert!(format!("{err:?}").contains("1024 × 1024 × 1024"), "{err:?}");
    let args = [range(1000), range(1000)];
    let ret = (f.ret)(&args).unwrap();
    assert_eq!((f.imp)(&args, &ret).unwrap().len(), Some(1_000_000));
}
