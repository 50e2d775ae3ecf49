//! Tests of binary and unary operators and cty's arithmetic.

use super::*;
use crate::eval::expr::ops::cty_multiply;

#[test]
fn arithmetic() {
    assert_eq!(val("1 + 2 * 3 - 4 / 2"), "5");
    assert_eq!(val("0.1 + 0.2"), "0.3");
    assert_eq!(val("\"1\" + 2"), "3");
    assert_eq!(val("-(-1)"), "1");
    assert_eq!(
        val("100000000000000000000 * 100000000000000000000"),
        "10000000000000000000000000000000000000000"
    );
    // The oracle's text for 1/3 at 512 bits.
    assert_eq!(val("1/3"), format!("0.{}5", "3".repeat(154)));
}

#[test]
fn modulo_follows_cty() {
    assert_eq!(val("5 % 3"), "2");
    assert_eq!(val("-5 % 3"), "-2");
    assert_eq!(val("5 % -3"), "2");
    assert_eq!(val("5.5 % 2"), "1.5");
    assert_eq!(val("-7.5 % 2"), "-1.5");
    assert_eq!(val("1 % 0"), "1");
}

#[test]
fn arithmetic_failures() {
    let failed = |src: &str| err(src).1;
    assert_eq!(
        failed("(1/0) - (1/0)"),
        "Error during operation: can't subtract infinity from itself."
    );
    assert_eq!(
        failed("(1/0) + (-1/0)"),
        "Error during operation: can't compute sum of opposing infinities."
    );
    assert_eq!(
        failed("0 * (1/0)"),
        "Error during operation: can't multiply zero by infinity."
    );
    assert_eq!(
        failed("0 / 0"),
        "Error during operation: can't divide zero by zero or infinity by infinity."
    );
    assert_eq!(
        failed("2 % (1/0)"),
        "Error during operation: can't use modulo with zero and infinity."
    );
    // unverified: Go's message also carries the goroutine stack trace here.
    assert_eq!(
        failed("(1/0) % 2"),
        "Error during operation: panic in function implementation: runtime error: invalid memory address or nil pointer dereference."
    );
    let out = run("1 - (1/0 - 1/0)");
    assert_eq!(out.diags[0].2, "1/0 - 1/0");
}

#[test]
fn invalid_operands() {
    assert_eq!(
        err("\"a\" + 1"),
        e(
            "Invalid operand",
            "Unsuitable value for left operand: a number is required.",
            "\"a\""
        )
    );
    let out = run("\"x\" - \"y\"");
    assert_eq!(
        out.diags.iter().map(|d| d.1.as_str()).collect::<Vec<_>>(),
        vec![
            "Unsuitable value for left operand: a number is required.",
            "Unsuitable value for right operand: a number is required."
        ]
    );
    assert_eq!(show(&out.value), "unknown(number)");
    assert_eq!(
        err("1 && true").1,
        "Unsuitable value for left operand: bool required, but have number."
    );
    assert_eq!(
        err("-\"x\""),
        e(
            "Invalid operand",
            "Unsuitable value for unary operand: a number is required.",
            "\"x\""
        )
    );
}

#[test]
fn null_operands() {
    assert_eq!(
        err("null < 1"),
        e(
            "Operation failed",
            "Error during operation: argument must not be null.",
            "null < 1"
        )
    );
    assert_eq!(
        err("!null").1,
        "Error during operation: argument must not be null."
    );
    // A null string converts to a null number, which the function then rejects.
    assert_eq!(err("-null_s").0, "Operation failed");
    assert_eq!(val("null == null"), "true");
    assert_eq!(val("null_s == null"), "true");
    assert_eq!(val("1 != null"), "true");
}

#[test]
fn comparisons_and_equality() {
    assert_eq!(val("1 < 2"), "true");
    assert_eq!(val("2 <= 2.0"), "true");
    assert_eq!(val("3 > 4"), "false");
    assert_eq!(val("\"3\" >= 3"), "true");
    assert_eq!(val("1 == 1.0"), "true");
    assert_eq!(val("1 == \"1\""), "false");
    assert_eq!(val("[1, \"a\"] == [1, \"a\"]"), "true");
    assert_eq!(val("{a = 1} != {a = 2}"), "true");
    assert_eq!(val("[null] == [null]"), "true");
    assert_eq!(val("{a = null} == {a = 1}"), "false");
}

#[test]
fn unknown_operands() {
    // unverified: the oracle cannot produce unknown values; expectations follow hcl's and cty's source.
    assert_eq!(val("unk_n + 1"), "unknown(number)!");
    assert_eq!(val("dyn * 2"), "unknown(number)!");
    assert_eq!(val("unk_n < 1"), "unknown(bool)!");
    assert_eq!(val("unk_n >= 1"), "unknown(bool)!");
    assert_eq!(val("unk_s == \"a\""), "unknown(bool)!");
    assert_eq!(val("unk_s == 1"), "false");
    assert_eq!(val("-unk_n"), "unknown(number)!");
    assert_eq!(val("!unk_b"), "unknown(bool)!");
    assert_eq!(val("\"ab${unk_s}\" == \"xy\""), "false");
}

#[test]
fn logical_short_circuit() {
    assert_eq!(val("true && false"), "false");
    assert_eq!(val("true || null"), "true");
    assert_eq!(val("true && null"), "false", "a null bool counts as false");
    assert_eq!(val("unk_b || true"), "true");
    assert_eq!(val("false && unk_b"), "false");
    assert_eq!(val("unk_b && true"), "unknown(bool)!");
    assert_eq!(val("unk_b || unk_b"), "unknown(bool)!");
    assert_eq!(
        err("false || null").1,
        "Error during operation: argument must not be null."
    );
}

#[test]
fn short_circuit_drops_the_other_sides_errors() {
    assert_eq!(val("nosuch || true"), "true");
    assert_eq!(val("false && nosuch"), "false");
    // Both unknown and the left side fine: the right side's errors are dropped too.
    assert_eq!(val("unk_b || nosuch"), "unknown(bool)!");
    let out = run("nosuch || unk_b");
    assert_eq!(out.diags.len(), 1);
    assert_eq!(show(&out.value), "unknown(bool)");
}

#[test]
fn cty_multiply_widens_integer_precision() {
    let a = Num::from_i64(i64::MAX);
    let p = cty_multiply(&a, &a).unwrap();
    assert_eq!(p.to_string(), "85070591730234615847396907784232501249");
    assert_eq!(p.prec(), 126);
}
