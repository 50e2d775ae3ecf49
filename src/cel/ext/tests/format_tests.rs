//! cel-go `ext/formatting_test.go` (strings library version 3, the version-1 formatter
//! the API server's version 2 also uses): TestStringFormat's runtime rows (locale en_US,
//! the API server's; rows needing protobuf messages or another locale left out; rows
//! with dynamic variables given the same values as literals), TestStringFormatHeterogeneousLiterals
//! and TestLiteralOutput; plus x/text's `%f`/`%e` renderings.
//!
//! `%e`: cel-go's test expects `2.718280\u{202f}×\u{202f}10⁰⁰`, the rendering of the
//! x/text v0.22 it pins; the API server v0.35 builds with x/text v0.31, which writes
//! `2.718280×10⁰⁰` (golang/go#71428; apiextensions-apiserver's validation_test.go expects
//! `'%e'.format([3.14]) == '3.140000×10⁰⁰'`). The rows here expect the API server's.

use super::super::format::{locale_fixed, locale_scientific};
use super::super::gofmt::{go_g, go_quote};
use super::run;
use crate::cel::value::Value;

/// `(name, format, args, Ok(output) | Err(message part))`
type Row = (
    &'static str,
    &'static str,
    &'static str,
    Result<&'static str, &'static str>,
);

/// cel-go ext/formatting_test.go, TestStringFormat.
const STRING_FORMAT: &[Row] = &[
    ("no-op", "no substitution", "", Ok("no substitution")),
    (
        "mid-string substitution",
        "str is %s and some more",
        r#""filler""#,
        Ok("str is filler and some more"),
    ),
    ("percent escaping", "%% and also %%", "", Ok("% and also %")),
    (
        "substution inside escaped percent signs",
        "%%%s%%",
        r#""text""#,
        Ok("%text%"),
    ),
    (
        "substitution with one escaped percent sign on the right",
        "%s%%",
        r#""percent on the right""#,
        Ok("percent on the right%"),
    ),
    (
        "substitution with one escaped percent sign on the left",
        "%%%s",
        r#""percent on the left""#,
        Ok("%percent on the left"),
    ),
    (
        "multiple substitutions",
        "%d %d %d, %s %s %s, %d %d %d, %s %s %s",
        r#"1, 2, 3, "A", "B", "C", 4, 5, 6, "D", "E", "F""#,
        Ok("1 2 3, A B C, 4 5 6, D E F"),
    ),
    (
        "percent sign escape sequence support",
        "\u{25}\u{25}escaped \u{25}s\u{25}\u{25}",
        r#""percent""#,
        Ok("%escaped percent%"),
    ),
    (
        "fixed point formatting clause",
        "%.3f",
        "1.2345",
        Ok("1.234"),
    ),
    (
        "binary formatting clause",
        "this is 5 in binary: %b",
        "5",
        Ok("this is 5 in binary: 101"),
    ),
    (
        "negative binary formatting clause",
        "this is -5 in binary: %b",
        "-5",
        Ok("this is -5 in binary: -101"),
    ),
    (
        "uint support for binary formatting",
        "unsigned 64 in binary: %b",
        "uint(64)",
        Ok("unsigned 64 in binary: 1000000"),
    ),
    (
        "bool support for binary formatting",
        "bit set from bool: %b",
        "true",
        Ok("bit set from bool: 1"),
    ),
    ("octal formatting clause", "%o", "11", Ok("13")),
    ("negative octal formatting clause", "%o", "-11", Ok("-13")),
    (
        "uint support for octal formatting clause",
        "this is an unsigned octal: %o",
        "uint(65535)",
        Ok("this is an unsigned octal: 177777"),
    ),
    (
        "lowercase hexadecimal formatting clause",
        "%x is 30 in hexadecimal",
        "30",
        Ok("1e is 30 in hexadecimal"),
    ),
    (
        "uppercase hexadecimal formatting clause",
        "%X is 20 in hexadecimal",
        "30",
        Ok("1E is 20 in hexadecimal"),
    ),
    (
        "negative hexadecimal formatting clause",
        "%x is -30 in hexadecimal",
        "-30",
        Ok("-1e is -30 in hexadecimal"),
    ),
    (
        "unsigned support for hexadecimal formatting clause",
        "%X is 6000 in hexadecimal",
        "uint(6000)",
        Ok("1770 is 6000 in hexadecimal"),
    ),
    (
        "string support with hexadecimal formatting clause",
        "%x",
        r#""Hello world!""#,
        Ok("48656c6c6f20776f726c6421"),
    ),
    (
        "string support with uppercase hexadecimal formatting clause",
        "%X",
        r#""Hello world!""#,
        Ok("48656C6C6F20776F726C6421"),
    ),
    (
        "byte support with hexadecimal formatting clause",
        "%x",
        r#"b"byte string""#,
        Ok("6279746520737472696e67"),
    ),
    (
        "byte support with hexadecimal formatting clause leading zero",
        "%x",
        r#"b"\x00\x00byte string\x00""#,
        Ok("00006279746520737472696e6700"),
    ),
    (
        "byte support with uppercase hexadecimal formatting clause",
        "%X",
        r#"b"byte string""#,
        Ok("6279746520737472696E67"),
    ),
    (
        "scientific notation formatting clause",
        "%.6e",
        "1052.032911275",
        Ok("1.052033\u{00d7}10\u{2070}\u{00b3}"),
    ),
    (
        "default precision for fixed-point clause",
        "%f",
        "2.71828",
        Ok("2.718280"),
    ),
    (
        "default precision for scientific notation",
        "%e",
        "2.71828",
        Ok("2.718280\u{00d7}10\u{2070}\u{2070}"),
    ),
    ("default precision for string", "%s", "2.71", Ok("2.71")),
    (
        "default list precision for string",
        "%s",
        "[2.71]",
        Ok("[2.710000]"),
    ),
    (
        "default scientific notation for string",
        "%s",
        "0.000000002",
        Ok("2e-09"),
    ),
    (
        "default list scientific notation for string",
        "%s",
        "[0.000000002]",
        Ok("[0.000000]"),
    ),
    (
        "unicode output for scientific notation",
        "unescaped unicode: %e, escaped unicode: %e",
        "2.71828, 2.71828",
        Ok("unescaped unicode: 2.718280×10⁰⁰, escaped unicode: 2.718280\u{00d7}10\u{2070}\u{2070}"),
    ),
    ("NaN support for fixed-point", "%f", r#""NaN""#, Ok("NaN")),
    (
        "positive infinity support for fixed-point",
        "%f",
        r#""Infinity""#,
        Ok("∞"),
    ),
    (
        "negative infinity support for fixed-point",
        "%f",
        r#""-Infinity""#,
        Ok("-∞"),
    ),
    (
        "NaN support for string",
        "%s",
        r#"double("NaN")"#,
        Ok("NaN"),
    ),
    (
        "positive infinity support for string",
        "%s",
        r#"double("Inf")"#,
        Ok("+Inf"),
    ),
    (
        "negative infinity support for string",
        "%s",
        r#"double("-Inf")"#,
        Ok("-Inf"),
    ),
    (
        "infinity list support for string",
        "%s",
        r#"[double("NaN"),double("+Inf"), double("-Inf")]"#,
        Ok(r#"["NaN", "+Inf", "-Inf"]"#),
    ),
    (
        "uint support for decimal clause",
        "%d",
        "uint(64)",
        Ok("64"),
    ),
    (
        "null support for string",
        "null: %s",
        "null",
        Ok("null: null"),
    ),
    (
        "int support for string",
        "%s",
        "999999999999",
        Ok("999999999999"),
    ),
    (
        "bytes support for string",
        "some bytes: %s",
        r#"b"xyz""#,
        Ok("some bytes: xyz"),
    ),
    (
        "type() support for string",
        "type is %s",
        r#"type("test string")"#,
        Ok("type is string"),
    ),
    (
        "timestamp support for string",
        "%s",
        r#"timestamp("2023-02-03T23:31:20+00:00")"#,
        Ok("2023-02-03T23:31:20Z"),
    ),
    (
        "duration support for string",
        "%s",
        r#"duration("1h45m47s")"#,
        Ok("6347s"),
    ),
    (
        "small duration support for string",
        "%s",
        r#"duration("2ns")"#,
        Ok("0.000000002s"),
    ),
    (
        "list support for string",
        "%s",
        r#"["abc", 3.14, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]"#,
        Ok(r#"["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]"#),
    ),
    (
        "map support for string",
        "%s",
        r#"{"key1": b"xyz", "key5": null, "key2": duration("2h"), "key4": true, "key3": 2.71828}"#,
        Ok(
            r#"{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}"#,
        ),
    ),
    (
        "map support (all key types)",
        "map with multiple key types: %s",
        r#"{1: "value1", uint(2): "value2", true: double("NaN")}"#,
        Ok(r#"map with multiple key types: {1:"value1", 2:"value2", true:"NaN"}"#),
    ),
    (
        "boolean support for %s",
        "true bool: %s, false bool: %s",
        "true, false",
        Ok("true bool: true, false bool: false"),
    ),
    (
        "dyntype support for string formatting clause",
        "dynamic string: %s",
        r#"dyn("a string")"#,
        Ok("dynamic string: a string"),
    ),
    (
        "dyntype support for numbers with string formatting clause",
        "dynIntStr: %s dynDoubleStr: %s",
        "dyn(32), dyn(56.8)",
        Ok("dynIntStr: 32 dynDoubleStr: 56.8"),
    ),
    (
        "dyntype support for integer formatting clause",
        "dynamic int: %d",
        "dyn(128)",
        Ok("dynamic int: 128"),
    ),
    (
        "dyntype support for integer formatting clause (unsigned)",
        "dynamic unsigned int: %d",
        "dyn(uint(256))",
        Ok("dynamic unsigned int: 256"),
    ),
    (
        "dyntype support for hex formatting clause",
        "dynamic hex int: %x",
        "dyn(22)",
        Ok("dynamic hex int: 16"),
    ),
    (
        "dyntype support for hex formatting clause (uppercase)",
        "dynamic hex int: %X (uppercase)",
        "dyn(26)",
        Ok("dynamic hex int: 1A (uppercase)"),
    ),
    (
        "dyntype support for unsigned hex formatting clause",
        "dynamic hex int: %x (unsigned)",
        "dyn(uint(500))",
        Ok("dynamic hex int: 1f4 (unsigned)"),
    ),
    (
        "dyntype support for fixed-point formatting clause",
        "dynamic double: %.3f",
        "dyn(4.5)",
        Ok("dynamic double: 4.500"),
    ),
    (
        "dyntype support for scientific notation",
        "(dyntype) e: %e",
        "dyn(2.71828)",
        Ok("(dyntype) e: 2.718280\u{00d7}10\u{2070}\u{2070}"),
    ),
    (
        "dyntype NaN/infinity support for fixed-point",
        "NaN: %f, infinity: %f",
        r#"double("NaN"), double("Inf")"#,
        Ok("NaN: NaN, infinity: ∞"),
    ),
    (
        "dyntype support for timestamp",
        "dyntype timestamp: %s",
        r#"timestamp("2009-11-10T23:00:00Z")"#,
        Ok("dyntype timestamp: 2009-11-10T23:00:00Z"),
    ),
    (
        "dyntype support for duration",
        "dyntype duration: %s",
        r#"duration("2h25m47s")"#,
        Ok("dyntype duration: 8747s"),
    ),
    (
        "dyntype support for lists",
        "dyntype list: %s",
        r#"[6, 4.2, "a string"]"#,
        Ok(r#"dyntype list: [6, 4.200000, "a string"]"#),
    ),
    (
        "dyntype support for maps",
        "dyntype map: %s",
        r#"{"strKey": "x", true: 42, 6: duration("7m2s")}"#,
        Ok(r#"dyntype map: {"strKey":"x", 6:duration("422s"), true:42}"#),
    ),
    (
        "unrecognized formatting clause",
        "%a",
        "1",
        Err(r#"could not parse formatting clause: unrecognized formatting clause "a""#),
    ),
    (
        "out of bounds arg index",
        "%d %d %d",
        "0, 1",
        Err("index 2 out of range"),
    ),
    (
        "string substitution is not allowed with binary clause",
        "string is %b",
        r#""abc""#,
        Err(
            "error during formatting: only integers and bools can be formatted as binary, was given string",
        ),
    ),
    (
        "duration substitution not allowed with decimal clause",
        "%d",
        r#"duration("30m2s")"#,
        Err(
            "error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration",
        ),
    ),
    (
        "string substitution not allowed with octal clause",
        "octal: %o",
        r#""a string""#,
        Err("error during formatting: octal clause can only be used on integers, was given string"),
    ),
    (
        "double substitution not allowed with hex clause",
        "double is %x",
        "0.5",
        Err(
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double",
        ),
    ),
    (
        "uppercase not allowed for scientific clause",
        "double is %E",
        "0.5",
        Err(r#"could not parse formatting clause: unrecognized formatting clause "E""#),
    ),
    (
        "null not allowed for %d",
        "null: %d",
        "null",
        Err(
            "error during formatting: decimal clause can only be used on integers, was given null_type",
        ),
    ),
    (
        "null not allowed for %e",
        "null: %e",
        "null",
        Err(
            "error during formatting: scientific clause can only be used on doubles, was given null_type",
        ),
    ),
    (
        "null not allowed for %f",
        "null: %f",
        "null",
        Err(
            "error during formatting: fixed-point clause can only be used on doubles, was given null_type",
        ),
    ),
    (
        "null not allowed for %x",
        "null: %x",
        "null",
        Err(
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given null_type",
        ),
    ),
    (
        "null not allowed for %X",
        "null: %X",
        "null",
        Err(
            "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given null_type",
        ),
    ),
    (
        "null not allowed for %b",
        "null: %b",
        "null",
        Err(
            "error during formatting: only integers and bools can be formatted as binary, was given null_type",
        ),
    ),
    (
        "null not allowed for %o",
        "null: %o",
        "null",
        Err(
            "error during formatting: octal clause can only be used on integers, was given null_type",
        ),
    ),
    // the compile-time rows' runtime behaviour
    (
        "compile-time cardinality check (too few for string)",
        "%s %s",
        r#""abc""#,
        Err("index 1 out of range"),
    ),
    (
        "runtime end of string",
        "filler %",
        "",
        Err("index 0 out of range"),
    ),
    (
        "runtime end of string with an argument",
        "filler %",
        "1",
        Err("unexpected end of string"),
    ),
    (
        "compile-time precision syntax check",
        "double is %.34",
        "5.0",
        Err(
            "could not parse formatting clause: error while parsing precision: could not find end of precision specifier",
        ),
    ),
    (
        "empty precision",
        "%.f",
        "5.0",
        Err(
            r#"could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax"#,
        ),
    ),
    (
        "huge precision",
        "%.99999999999999999999f",
        "5.0",
        Err(
            r#"error while converting precision to integer: strconv.Atoi: parsing "99999999999999999999": value out of range"#,
        ),
    ),
    (
        "optional not allowed",
        "%s",
        "optional.of(1)",
        Err(
            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type",
        ),
    ),
    (
        "optional inside list",
        "%s",
        "[optional.of(1)]",
        Err("error during formatting: no formatting function for optional_type"),
    ),
];

#[test]
fn formatting_test_go_test_string_format() {
    let mut failures = Vec::new();
    for (name, fmt, args, want) in STRING_FORMAT {
        let expr = format!("{}.format([{}])", go_quote(fmt), args);
        let got = run(&expr);
        let good = match (&got, want) {
            (Ok(Value::String(s)), Ok(w)) => &**s == *w,
            (Err(e), Err(w)) => e.message.contains(w),
            _ => false,
        };
        if !good {
            failures.push(format!("  {name}: {expr}\n    want {want:?}, got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        STRING_FORMAT.len(),
        failures.join("\n")
    );
}

/// cel-go ext/formatting_test.go, TestStringFormatHeterogeneousLiterals.
#[test]
fn formatting_test_go_test_string_format_heterogeneous_literals() {
    for (expr, want) in [
        (
            r#""list: %s".format([[[1, 2, [3.0, 4]]]])"#,
            "list: [[1, 2, [3.000000, 4]]]",
        ),
        (
            r#""list size: %d".format([[[1, 2, [3.0, 4]]].size()])"#,
            "list size: 1",
        ),
        (
            r#""list element: %s".format([[[1, 2, [3.0, 4]]][0]])"#,
            "list element: [1, 2, [3.000000, 4]]",
        ),
    ] {
        match run(expr) {
            Ok(Value::String(s)) => assert_eq!(&*s, want, "{expr}"),
            other => panic!("{expr}: {other:?}"),
        }
    }
}

/// cel-go ext/formatting_test.go, TestLiteralOutput: `%s` of a list or map is a CEL
/// literal equal to it.
#[test]
fn formatting_test_go_test_literal_output() {
    for lit in [
        r#"{"key1": b"xyz", false: [11, 12, 13, timestamp("2019-10-12T07:20:50.52Z")], 42: {uint(64): 2.7}, "key5": type(int), "key2": duration("2h"), "key4": true, "key3": 2.71828, "null": null}"#,
        r#"["abc", 3.14, uint(32), b"def", null, type(string), duration("7m"), [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]"#,
    ] {
        let Ok(Value::String(out)) = run(&format!(r#""%s".format([{lit}])"#)) else {
            panic!("{lit}");
        };
        let eq = run(&format!("{out} == {lit}"));
        assert!(
            matches!(eq, Ok(Value::Bool(true))),
            "{out} vs {lit}: {eq:?}"
        );
    }
}

/// x/text's en_US renderings: grouping, rounding, padding, the int16/uint8/uint16 wraps.
#[test]
fn locale_number_renderings() {
    assert_eq!(locale_fixed(1234567.891, 2), "1,234,567.89");
    assert_eq!(locale_fixed(-1234.5, 0), "-1,234");
    assert_eq!(locale_fixed(2.5, 0), "2");
    assert_eq!(locale_fixed(0.0, 3), "0.000");
    assert_eq!(locale_fixed(-0.0, 1), "0.0");
    assert_eq!(locale_fixed(-0.0001, 2), "-0.00");
    assert_eq!(locale_fixed(100.0, 2), "100.00");
    assert_eq!(locale_fixed(1.5, 300), format!("1.5{}", "0".repeat(43)));
    assert_eq!(locale_fixed(1.5, 99_999_999), "%!(NOVERB)");
    assert_eq!(
        locale_scientific(-2.5, 6),
        "-2.500000\u{d7}10\u{2070}\u{2070}"
    );
    assert_eq!(
        locale_scientific(0.00012, 6),
        "1.200000\u{d7}10\u{207b}\u{2070}\u{2074}"
    );
    assert_eq!(
        locale_scientific(0.0, 0),
        "0.000000\u{d7}10\u{2070}\u{2070}"
    );
    assert_eq!(locale_scientific(f64::NAN, 6), "   NaN");
    assert_eq!(locale_scientific(f64::INFINITY, 3), "  \u{221e}");
    assert_eq!(locale_scientific(1.0, 20).chars().count(), 20);
    assert_eq!(go_g(1e6), "1e+06");
    assert_eq!(go_g(123456.0), "123456");
    assert_eq!(go_g(1e-5), "1e-05");
    assert_eq!(go_g(0.0001), "0.0001");
    assert_eq!(go_g(-0.0), "-0");
    assert_eq!(go_g(1.5e300), "1.5e+300");
    assert_eq!(
        go_quote("a\u{0}b\u{7f}\u{200b}\u{10ffff}é"),
        "\"a\\x00b\\x7f\\u200b\\U0010ffffé\""
    );
}
