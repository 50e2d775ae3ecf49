//! cel-go `cel/cel_test.go`: TestOptionalValuesEval (rows without protobuf messages) and
//! TestOptionalValuesCompile's runtime halves; plus `ofNonZeroValue`'s zero values and
//! two-variable comprehensions' `cel.@mapInsert` (`ext/comprehensions_test.go`).

use super::{run, run_with};
use crate::cel::value::Value;
use std::collections::HashMap;

/// `(expression, variables as CEL literals, expected value as a CEL expression, or an
/// error message prefixed with `!`)`.
type Row = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static str,
);

/// cel-go cel/cel_test.go, TestOptionalValuesEval.
const OPTIONAL_VALUES_EVAL: &[Row] = &[
    ("has({'foo': optional.none()}.foo)", &[], "true"),
    ("has({'foo': optional.none()}.foo.value)", &[], "false"),
    ("has({?'foo': optional.none()}.foo)", &[], "false"),
    (
        "has({?'foo': optional.none()}.foo.value)",
        &[],
        "!no such key: foo",
    ),
    ("{}.?invalid", &[], "optional.none()"),
    (
        "{'null_field': dyn(null)}.?null_field",
        &[],
        "optional.of(null)",
    ),
    (
        "{'null_field': dyn(null)}.?null_field.?nested",
        &[],
        "optional.none()",
    ),
    (
        "{'zero_field': dyn(0)}.?zero_field.?invalid",
        &[],
        "optional.none()",
    ),
    ("{0: dyn(0)}[?0].?invalid", &[], "optional.none()"),
    ("{true: dyn(0)}[?false].?invalid", &[], "optional.none()"),
    ("{true: dyn(0)}[?true].?invalid", &[], "optional.none()"),
    (
        "x.or(y).orValue(z)",
        &[
            ("x", "optional.none()"),
            ("y", "optional.none()"),
            ("z", "42"),
        ],
        "42",
    ),
    (
        "x.optMap(y, y + 1)",
        &[("x", "optional.none()")],
        "optional.none()",
    ),
    (
        "m.?key.optFlatMap(k, k.?subkey)",
        &[("m", "{}")],
        "optional.none()",
    ),
    (
        "m.?key.optFlatMap(k, k.?subkey)",
        &[("m", "{'key': {}}")],
        "optional.none()",
    ),
    (
        "m.?key.optFlatMap(k, k.?subkey)",
        &[("m", "{'key': {'subkey': 'subvalue'}}")],
        "optional.of('subvalue')",
    ),
    (
        "m.?key.optFlatMap(k, k.?subkey)",
        &[("m", "{'key': {'subkey': ''}}")],
        "optional.of('')",
    ),
    (
        "m.?key.optFlatMap(k, optional.ofNonZeroValue(k.subkey))",
        &[("m", "{'key': {'subkey': ''}}")],
        "optional.none()",
    ),
    (
        "x.optMap(y, y + 1)",
        &[("x", "optional.of(42)")],
        "optional.of(43)",
    ),
    (
        "optional.ofNonZeroValue(z).or(optional.of(10)).value() == 42",
        &[("z", "42")],
        "true",
    ),
    (
        "(has(m.x) ? optional.of(m.x) : optional.none()).hasValue()",
        &[("m", "{}")],
        "false",
    ),
    ("m.?x.hasValue()", &[("m", "{}")], "false"),
    ("has(m.?x.y)", &[("m", "{}")], "false"),
    ("has(m.?x.y)", &[("m", "{'x': {'y': 'z'}}")], "true"),
    ("type(optional.none()) == optional_type", &[], "true"),
    (
        "optional.ofNonZeroValue('').or(optional.of(m.c['dashed-index'])).orValue('default value')",
        &[("m", "{'c': {'dashed-index': 'goodbye'}}")],
        "'goodbye'",
    ),
    (
        "m.c[?'dashed-index'].orValue('default value')",
        &[("m", "{'c': {'dashed-index': 'goodbye'}}")],
        "'goodbye'",
    ),
    (
        "m.c[?'missing-index'].orValue('default value')",
        &[("m", "{'c': {}}")],
        "'default value'",
    ),
    (
        "optm.c.index.orValue('default value')",
        &[("optm", "optional.of({'c': {'index': 'goodbye'}})")],
        "'goodbye'",
    ),
    (
        "optm.c.missing.or(optl[0]).orValue('default value')",
        &[
            ("optm", "optional.of({'c': {}})"),
            ("optl", "optional.none()"),
        ],
        "'default value'",
    ),
    (
        "optm.c.missing.or(optl[0]).orValue('default value')",
        &[
            ("optm", "optional.of({'c': {}})"),
            ("optl", "optional.of(['list-value'])"),
        ],
        "'list-value'",
    ),
    (
        "optm.c['index'].orValue('default value')",
        &[("optm", "optional.of({'c': {'index': 'goodbye'}})")],
        "'goodbye'",
    ),
    (
        "optm.c['missing'].orValue('default value')",
        &[("optm", "optional.of({'c': {}})")],
        "'default value'",
    ),
    (
        "has(optm.c) && !has(optm.c.missing)",
        &[("optm", "optional.of({'c': {'entry': 'hello world'}})")],
        "true",
    ),
    (
        "optional.ofNonZeroValue(m.a.z).orValue(m.c['dashed-index'])",
        &[("m", "{'c': {'dashed-index': 'goodbye'}}")],
        "!no such key: a",
    ),
    (
        "m.?c.missing.or(m.?c['dashed-index']).orValue('').size()",
        &[("m", "{'c': {'dashed-index': 'goodbye'}}")],
        "7",
    ),
    (
        "{?'nested_map': optional.ofNonZeroValue({?'map': m.?c})}",
        &[("m", "{'c': {'dashed-index': 'goodbye'}}")],
        "{'nested_map': {'map': {'dashed-index': 'goodbye'}}}",
    ),
    (
        "{?'nested_map': optional.ofNonZeroValue({?'map': m.?c}), 'singleton': true}",
        &[("m", "{}")],
        "{'singleton': true}",
    ),
    (
        "[?m.?c, ?x, ?y]",
        &[
            ("m", "{}"),
            ("x", "optional.of(42)"),
            ("y", "optional.none()"),
        ],
        "[42]",
    ),
    (
        "[?optional.ofNonZeroValue(m.?c.orValue({}))]",
        &[("m", "{'c': []}")],
        "[]",
    ),
    (
        "optional.ofNonZeroValue({?'nested_map': optional.ofNonZeroValue({?'map': m.?c})})",
        &[("m", "{}")],
        "optional.none()",
    ),
    ("[].first()", &[], "optional.none()"),
    ("['a','b','c'].first()", &[], "optional.of('a')"),
    ("[].last()", &[], "optional.none()"),
    ("[1, 2, 3].last()", &[], "optional.of(3)"),
    ("optional.unwrap([])", &[], "[]"),
    (
        "optional.unwrap([optional.none(), optional.none()])",
        &[],
        "[]",
    ),
    (
        "optional.unwrap([optional.of(42), optional.none(), optional.of(\"a\")])",
        &[],
        "[42, 'a']",
    ),
    (
        "optional.unwrap([optional.of(42), optional.of(\"a\")])",
        &[],
        "[42, 'a']",
    ),
    ("[].unwrapOpt()", &[], "[]"),
    ("[optional.none(), optional.none()].unwrapOpt()", &[], "[]"),
    (
        "[optional.of(42), optional.none(), optional.of(\"a\")].unwrapOpt()",
        &[],
        "[42, 'a']",
    ),
    (
        "[optional.of(42), optional.of(\"a\")].unwrapOpt()",
        &[],
        "[42, 'a']",
    ),
];

/// Whether the parser takes the row and expands `optMap`/`optFlatMap`.
fn parses(expr: &str) -> bool {
    let Ok(ast) = crate::cel::parser::parse(expr) else {
        return false;
    };
    let mut macro_left = false;
    ast.expr.walk(&mut |e| {
        if let crate::cel::ast::ExprKind::Call { function, .. } = &e.kind {
            macro_left |= function == "optMap" || function == "optFlatMap";
        }
    });
    !macro_left
}

fn check_rows(name: &str, rows: &[Row]) -> usize {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (expr, vars, want) in rows {
        if !parses(expr) {
            continue;
        }
        ran += 1;
        let mut act = HashMap::new();
        for (k, lit) in *vars {
            act.insert(k.to_string(), run(lit).expect(lit));
        }
        let got = run_with(expr, &act);
        let good = match (want.strip_prefix('!'), &got) {
            (Some(msg), Err(e)) => e.message == msg,
            (None, Ok(v)) => run(want).is_ok_and(|w| w.equals(v)),
            _ => false,
        };
        if !good {
            failures.push(format!("  {expr}\n    want {want}, got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} of {ran} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    ran
}

#[test]
fn cel_test_go_test_optional_values_eval() {
    let ran = check_rows(
        "cel/cel_test.go TestOptionalValuesEval",
        OPTIONAL_VALUES_EVAL,
    );
    assert_eq!(
        ran,
        OPTIONAL_VALUES_EVAL.len(),
        "the parser expands optMap and optFlatMap"
    );
}

/// `optional.ofNonZeroValue`'s zero values (cel-go's `IsZeroValue` implementations).
#[test]
fn of_non_zero_value() {
    for (lit, zero) in [
        ("null", true),
        ("false", true),
        ("true", false),
        ("0", true),
        ("0u", true),
        ("0.0", true),
        ("-0.0", true),
        ("0.5", false),
        ("''", true),
        ("'a'", false),
        ("b''", true),
        ("[]", true),
        ("[0]", false),
        ("{}", true),
        ("duration('0s')", true),
        ("duration('1s')", false),
        ("timestamp('0001-01-01T00:00:00Z')", true),
        ("timestamp('1970-01-01T00:00:00Z')", false),
        ("optional.none()", false),
        ("int", false),
    ] {
        let expr = format!("optional.ofNonZeroValue({lit}).hasValue()");
        assert!(
            matches!(run(&expr), Ok(Value::Bool(b)) if b != zero),
            "{expr}: {:?}",
            run(&expr)
        );
    }
    assert_eq!(
        run("optional.none().value()").unwrap_err().message,
        "optional.none() dereference"
    );
    assert_eq!(
        run("optional.unwrap(dyn([optional.none(), 1]))")
            .unwrap_err()
            .message,
        "value 1 is not optional"
    );
}

/// cel-go ext/comprehensions_test.go: `cel.@mapInsert`'s results and its duplicate-key
/// error (the macros that call it are the parser's).
#[test]
fn comprehensions_test_go_map_insert() {
    use super::super::comprehensions::insert;
    let Ok(Value::Map(m)) = run("{'a': 1}") else {
        panic!()
    };
    let r = insert(&m, &[(Value::string("b"), Value::Int(2))]).unwrap();
    assert!(r.equals(&run("{'a': 1, 'b': 2}").unwrap()));
    assert_eq!(
        insert(&m, &[(Value::string("a"), Value::Int(2))])
            .unwrap_err()
            .message,
        "insert failed: key a already exists"
    );
    let Ok(Value::Map(n)) = run("{1: 'x'}") else {
        panic!()
    };
    assert_eq!(
        insert(&n, &[(Value::Uint(1), Value::Int(2))])
            .unwrap_err()
            .message,
        "insert failed: key 1 already exists"
    );
    // through the function table: both overloads
    let f = super::super::comprehensions::functions().remove(0);
    let kv = f.overloads[0].imp.as_ref().unwrap();
    let mm = f.overloads[1].imp.as_ref().unwrap();
    let r = kv(&[Value::Map(m.clone()), Value::string("c"), Value::Int(3)]).unwrap();
    assert!(r.equals(&run("{'a': 1, 'c': 3}").unwrap()));
    let r = mm(&[Value::Map(m.clone()), run("{'d': 4, 'e': 5}").unwrap()]).unwrap();
    assert!(r.equals(&run("{'a': 1, 'd': 4, 'e': 5}").unwrap()));
    assert_eq!(
        mm(&[Value::Map(m), run("{'a': 4}").unwrap()])
            .unwrap_err()
            .message,
        "insert failed: key a already exists"
    );
}

/// `insert_in_place` on an accumulator the caller owns does not copy the map.
#[test]
fn map_insert_in_place_is_linear() {
    use super::super::comprehensions::insert_in_place;
    let mut m = std::sync::Arc::new(crate::cel::value::Map::default());
    let start = std::time::Instant::now();
    for i in 0..100_000 {
        insert_in_place(&mut m, Value::Int(i), Value::Int(i)).unwrap();
    }
    assert_eq!(m.entries.len(), 100_000);
    assert!(start.elapsed().as_secs() < 10);
    assert_eq!(
        insert_in_place(&mut m, Value::Uint(5), Value::Null)
            .unwrap_err()
            .message,
        "insert failed: key 5 already exists"
    );
    assert_eq!(
        insert_in_place(&mut m, Value::Double(0.5), Value::Null)
            .unwrap_err()
            .message,
        "unsupported key type: double"
    );
}

/// cel-go evaluates `or`/`orValue` without type guards: a left-hand side that is no
/// optional comes back as it is (run by the interpreter and by the test evaluator).
#[test]
fn or_returns_a_non_optional_lhs() {
    for expr in [
        "dyn(1).or(optional.none()) == 1",
        "dyn(1).orValue(2) == 1",
        "optional.none().or(optional.of(2)) == optional.of(2)",
        "optional.of(1).orValue(2) == 1",
    ] {
        assert!(
            matches!(super::run(expr), Ok(Value::Bool(true)))
                && matches!(super::run_simple(expr), Ok(Value::Bool(true))),
            "{expr}: {:?} {:?}",
            super::run(expr),
            super::run_simple(expr)
        );
    }
}
