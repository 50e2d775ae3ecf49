//! Tests of conditional expressions.

use super::*;
use crate::eval::expr::conditional::describe_type_mismatch;

#[test]
fn conditional_values() {
    assert_eq!(val("true ? 1 : 2"), "1");
    assert_eq!(val("false ? 1 : \"a\""), "\"a\"");
    assert_eq!(val("true ? 1 : \"a\""), "\"1\"");
    assert_eq!(val("\"true\" ? 1 : 2"), "1");
    assert_eq!(val("true ? null : 1"), "null(number)");
    assert_eq!(val("false ? [1] : null"), "null(tuple([number]))");
    assert_eq!(val("true ? [1] : [1, 2]"), "list[1]");
}

#[test]
fn conditional_drops_the_other_branchs_errors() {
    assert_eq!(val("true ? 1 : nosuch"), "1");
    let out = run("false ? 1 : nosuch");
    assert_eq!(out.diags.len(), 1);
    assert_eq!(show(&out.value), "unknown(dynamic)");
}

#[test]
fn inconsistent_conditional_types() {
    let summary = "Inconsistent conditional result types";
    // Objects with different attributes can still unify as a map.
    assert_eq!(val("true ? {a = 1} : {b = \"x\"}"), "map{a = \"1\"}");
    assert_eq!(
        err("true ? {a = 1} : {b = \"x\", c = [1]}"),
        e(
            summary,
            "The true and false result expressions must have consistent types. The 'true' value includes object attribute \"a\", which is absent in the 'false' value.",
            "{a = 1} : {b = \"x\", c = [1]}"
        )
    );
    assert_eq!(
        err("true ? [1] : [{}, 1]").1,
        "The true and false result expressions must have consistent types. The 'true' tuple has length 1, but the 'false' tuple has length 2."
    );
    assert_eq!(
        err("true ? {a = [1]} : {a = {}}").1,
        "The true and false result expressions must have consistent types. Type mismatch for object attribute \"a\": The 'true' value is tuple, but the 'false' value is object."
    );
    assert_eq!(
        err("true ? 1 : [1]").1,
        "The true and false result expressions must have consistent types. The 'true' value is number, but the 'false' value is tuple."
    );
    assert_eq!(
        err("true ? {a = {x = 1}} : {a = {y = [1]}}").1,
        "The true and false result expressions must have consistent types. Type mismatch for object attribute \"a\": The 'true' value includes object attribute \"x\", which is absent in the 'false' value."
    );
}

#[test]
fn describe_mismatch_for_collections() {
    let o = |k: &str| {
        Type::Object(
            [(k.to_string(), Type::Number)]
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>()
                .into(),
        )
    };
    assert_eq!(
        describe_type_mismatch(&Type::list(o("a")), &Type::list(o("b"))),
        "Mismatched list element types: The 'true' value includes object attribute \"a\", which is absent in the 'false' value"
    );
    assert_eq!(
        describe_type_mismatch(
            &Type::list(Type::list(o("a"))),
            &Type::list(Type::list(o("b")))
        ),
        "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value"
    );
    assert_eq!(
        describe_type_mismatch(
            &Type::Tuple(vec![Type::Number, Type::Bool].into()),
            &Type::Tuple(vec![Type::Number, Type::String].into())
        ),
        "Type mismatch for tuple element 1: The 'true' value is bool, but the 'false' value is string"
    );
}

#[test]
fn conditional_condition_errors() {
    assert_eq!(
        err("null ? 1 : 2"),
        e(
            "Null condition",
            "The condition value is null. Conditions must either be true or false.",
            "null"
        )
    );
    assert_eq!(show(&run("null ? 1 : 2").value), "unknown(number)");
    assert_eq!(
        err("1 ? 1 : 2"),
        e(
            "Incorrect condition type",
            "The condition expression must be of type bool.",
            "1"
        )
    );
}

#[test]
fn unknown_condition() {
    // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
    assert_eq!(val("unk_b ? 1 : 2"), "unknown(number)!");
    assert_eq!(val("unk_b ? \"a\" : 1"), "unknown(string)!");
    assert_eq!(val("unk_b ? unk_s : \"a\""), "unknown(string)");
    assert_eq!(val("unk_b ? null : null"), "null(dynamic)");
    assert_eq!(val("unk_b ? 1 : dyn"), "unknown(dynamic)");
    // The branches' diagnostics are dropped when the condition is unknown.
    assert_eq!(val("unk_b ? nosuch : 1"), "unknown(dynamic)");
}

#[test]
fn unknown_condition_pins_equal_numbers_and_lengths() {
    // unverified: no unknowns in the oracle; follows ConditionalExpr.Value and cty's RefinementBuilder.NewValue.
    // cty's refinement bounds are [1, 1] here, which NewValue turns into a known value.
    assert_eq!(val("unk_b ? 1 : 1.0"), "1");
    assert_eq!(
        val("unk_b ? l : l"),
        "list[unknown(number), unknown(number), unknown(number)]"
    );
    assert_eq!(val("unk_b ? empty_list : empty_list"), "list[]");
    assert_eq!(val("unk_b ? l : empty_list"), "unknown(list(number))!");
}
