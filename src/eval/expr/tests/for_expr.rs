//! Tests of `for` expressions.

use super::*;

#[test]
fn for_tuples() {
    assert_eq!(val("[for x in [1, 2, 3]: x * 2]"), "[2, 4, 6]");
    assert_eq!(
        val("[for i, x in [\"a\", \"b\"]: \"${i}=${x}\"]"),
        "[\"0=a\", \"1=b\"]"
    );
    assert_eq!(val("[for x in [1, 2, 3]: x if x > 1]"), "[2, 3]");
    assert_eq!(val("[for k, v in {b = 1, a = 2}: k]"), "[\"a\", \"b\"]");
    assert_eq!(val("[for x in set: x]"), "[\"a\", \"b\"]");
    assert_eq!(val("[for k, v in set: k]"), "[\"a\", \"b\"]");
    assert_eq!(val("[for k, v in m: \"${k}${v}\"]"), "[\"ax\"]");
}

#[test]
fn for_objects() {
    assert_eq!(
        val("{for k, v in {b = 1, a = 2}: v => k}"),
        "{1 = \"b\", 2 = \"a\"}"
    );
    assert_eq!(
        val("{for x in [\"a\", \"b\", \"a\"]: x => x...}"),
        "{a = [\"a\", \"a\"], b = [\"b\"]}"
    );
    assert_eq!(val("{for x in [1, 2]: x => x if x == 2}"), "{2 = 2}");
}

#[test]
fn for_duplicate_key() {
    let out = run("{for x in [\"a\", \"b\", \"a\"]: x => x}");
    assert_eq!(
        out.diags,
        vec![e(
            "Duplicate object key",
            "Two different items produced the key \"a\" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
            "x"
        )]
    );
    assert_eq!(show(&out.value), "{a = \"a\", b = \"b\"}");
}

#[test]
fn for_collection_errors() {
    assert_eq!(
        err("[for x in null: x]"),
        e(
            "Iteration over null value",
            "A null value cannot be used as the collection in a 'for' expression.",
            "null"
        )
    );
    assert_eq!(
        err("[for x in 1: x]"),
        e(
            "Iteration over non-iterable value",
            "A value of type number cannot be used as the collection in a 'for' expression.",
            "1"
        )
    );
}

#[test]
fn for_condition_errors() {
    // The early check with unknown iteration variables catches a null...
    assert_eq!(
        err("[for x in [1]: x if null]"),
        e(
            "Condition is null",
            "The value of the 'if' clause must not be null.",
            "null"
        )
    );
    // ... and a type that cannot be a bool at all.
    assert_eq!(
        err("[for x in [1]: x if []]").1,
        "The 'if' clause value is invalid: bool required, but have tuple."
    );
    // Per element: reported once, and the result is unknown.
    let out = run("[for x in [1, 2]: x if x]");
    assert_eq!(
        out.diags,
        vec![e(
            "Invalid 'for' condition",
            "The 'if' clause value is invalid: bool required, but have number.",
            "x"
        )]
    );
    assert_eq!(show(&out.value), "unknown(dynamic)");
    let out = run("{for x in [null, null]: \"k\" => 1 if x}");
    assert_eq!(
        out.diags,
        vec![e(
            "Invalid 'for' condition",
            "The value of the 'if' clause must not be null.",
            "x"
        )]
    );
}

#[test]
fn for_key_errors() {
    assert_eq!(
        err("{for x in [1]: null => x}"),
        e(
            "Invalid object key",
            "Key expression in 'for' expression must not produce a null value.",
            "null"
        )
    );
    assert_eq!(
        err("{for x in [1]: [] => x}").1,
        "The key expression produced an invalid result: string required, but have tuple."
    );
}

#[test]
fn for_unknowns() {
    // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
    assert_eq!(val("[for x in unk_list: x]"), "unknown(dynamic)");
    assert_eq!(val("[for x in dyn: x]"), "unknown(dynamic)");
    assert_eq!(val("[for x in [1, unk_n]: x]"), "[1, unknown(number)]");
    assert_eq!(val("[for x in [1, 2]: x if unk_b]"), "unknown(dynamic)");
    assert_eq!(val("{for x in [\"a\"]: unk_s => x}"), "unknown(dynamic)");
}

#[test]
fn for_variables_shadow_outer_ones() {
    assert_eq!(val("[for l in [7]: l]"), "[7]");
    assert_eq!(
        val("[for x in l: [for x in [x]: x * 10]]"),
        "[[10], [20], [30]]"
    );
}
