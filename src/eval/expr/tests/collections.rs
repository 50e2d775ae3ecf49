//! Tests of literals, tuple and object constructors, and splats.

use super::*;

#[test]
fn literals() {
    assert_eq!(val("1.50"), "1.5");
    assert_eq!(val("true"), "true");
    assert_eq!(val("null"), "null(dynamic)");
    assert_eq!(val("\"a\""), "\"a\"");
    assert_eq!(val("(((2)))"), "2");
}

#[test]
fn numbers_parse_at_512_bits() {
    let out = run("0.1");
    assert_eq!(out.value.as_num().unwrap().prec(), 512);
    assert_eq!(val("1e3"), "1000");
}

#[test]
fn tuples_and_objects() {
    assert_eq!(val("[1, \"a\", [true]]"), "[1, \"a\", [true]]");
    assert_eq!(val("{b = 1, a = \"x\"}"), "{a = \"x\", b = 1}");
    assert_eq!(val("{\"a b\" = 1, 2 = 3}"), "{2 = 3, a b = 1}");
    assert_eq!(val("{null = 1, true = 2}"), "{null = 1, true = 2}");
}

#[test]
fn object_keys_in_parentheses_are_expressions() {
    assert_eq!(val("{(m.a) = 1}"), "{x = 1}");
    assert_eq!(
        err("{(nosuch) = 1}"),
        e(
            "Unknown variable",
            "There is no variable named \"nosuch\".",
            "nosuch"
        )
    );
}

#[test]
fn duplicate_object_keys_keep_the_last() {
    assert_eq!(val("{a = 1, a = 2}"), "{a = 2}");
    assert_eq!(val("{(\"a\") = 1, a = 2}"), "{a = 2}");
}

#[test]
fn ambiguous_object_key() {
    assert_eq!(
        err("{a.b = 1}"),
        e(
            "Ambiguous attribute key",
            "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
            "a.b"
        )
    );
    assert_eq!(show(&run("{a.b = 1}").value), "unknown(dynamic)");
}

#[test]
fn null_and_invalid_object_keys() {
    // hcl points "Null value as key" at the value expression.
    assert_eq!(
        err("{(null) = 1}"),
        e("Null value as key", "Can't use a null value as a key.", "1")
    );
    assert_eq!(
        err("{([]) = 1}"),
        e(
            "Incorrect key type",
            "Can't use this value as a key: string required, but have tuple.",
            "([])"
        )
    );
}

#[test]
fn unknown_object_key_makes_the_object_dynamic() {
    // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
    assert_eq!(val("{(unk_s) = 1, b = 2}"), "unknown(dynamic)");
}

#[test]
fn splats() {
    assert_eq!(val("[{a = 1}, {a = 2}][*].a"), "[1, 2]");
    assert_eq!(val("[{a = 1}, {a = 2}].*.a"), "[1, 2]");
    assert_eq!(val("objs[*].a"), "list[1, 2]");
    assert_eq!(val("{a = 1}[*].a"), "[1]");
    assert_eq!(val("null[*]"), "[]");
    assert_eq!(val("[for x in objs: x if false][*].a"), "[]");
    assert_eq!(val("[[{a = 1}], [{a = 2}]][*][*].a"), "[[1], [2]]");
    assert_eq!(val("set[*]"), "list[\"a\", \"b\"]");
}

#[test]
fn splat_errors() {
    assert_eq!(
        err("null_list[*]"),
        e(
            "Splat of null value",
            "Splat expressions (with the * symbol) cannot be applied to null sequences.",
            "null_list"
        )
    );
    let out = run("[{a = 1}, {b = 2}][*].a");
    assert_eq!(out.diags.len(), 1);
    assert_eq!(show(&out.value), "unknown(tuple([number, dynamic]))");
    assert_eq!(show(&run("nosuch[*].a").value), "unknown(dynamic)");
    // An empty list still evaluates `each` once, for the result type, and reports that.
    let out = run("empty_list[*].a");
    assert_eq!(
        out.diags,
        vec![e(
            "Unsupported attribute",
            "Can't access attributes on a primitive-typed value (number).",
            ".a"
        )]
    );
    assert_eq!(show(&out.value), "list[]");
}

#[test]
fn nested_splat_of_mixed_types() {
    // unverified: needs a list of tuples, which closed expressions cannot build without functions.
    let list = Value::List {
        elem: Type::Dynamic,
        items: Vec::new().into(),
    };
    let _ = list;
    let mut vars = test_vars();
    vars.insert(
        "ll".into(),
        Value::List {
            elem: Type::Dynamic,
            items: vec![
                Value::Tuple(vec![obj(&[("a", num("1"))])].into()),
                Value::Tuple(vec![obj(&[("a", s("x"))]), obj(&[("a", s("y"))])].into()),
            ]
            .into(),
        },
    );
    let table = test_functions();
    let out = run_with("ll[*][*].a", vars, Some(&table));
    assert_eq!(out.diags[0].0, "Invalid nested splat expressions");
    // The outer splat's `each` is the inner splat, which starts at the outer marker.
    assert_eq!(out.diags[0].2, "[*][*].a");
}

#[test]
fn splat_unknowns() {
    // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
    assert_eq!(val("unk_list[*]"), "unknown(list(number))!");
    assert_eq!(val("unk_tuple[*]"), "unknown(tuple([number, string]))!");
    assert_eq!(val("dyn[*]"), "unknown(dynamic)");
    // An unknown that might be null would give zero or one elements.
    assert_eq!(val("unk_obj[*].a"), "unknown(dynamic)");
    assert_eq!(val("nn_s[*]"), "[unknown(string)!]");
}
