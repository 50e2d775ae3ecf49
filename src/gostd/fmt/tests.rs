//! `fmt.Sprintf` outputs as Go prints them (Go's fmt_test.go cases where they apply to
//! JSON-like operands, and P&T's Format transform cases).

use serde_json::{Value, json};

use super::*;

fn f(format: &str, args: &[Value]) -> String {
    sprintf(format, args)
}

#[test]
fn verbs_by_type() {
    let cases: Vec<(&str, Vec<Value>, &str)> = vec![
        ("verycool%s", vec![json!("thing")], "verycoolthing"),
        ("the largest %d", vec![json!(8)], "the largest 8"),
        ("%v", vec![json!(8)], "8"),
        ("%v", vec![json!(8.0)], "8"),
        ("%v", vec![json!(2.5)], "2.5"),
        ("%v", vec![json!(1e6)], "1e+06"),
        ("%v", vec![json!(123456.0)], "123456"),
        ("%v", vec![json!(0.0001)], "0.0001"),
        ("%v", vec![json!(0.00001)], "1e-05"),
        ("%v", vec![json!(true)], "true"),
        ("%t", vec![json!(false)], "false"),
        ("%v", vec![Value::Null], "<nil>"),
        ("%s", vec![Value::Null], "%!s(<nil>)"),
        ("%d", vec![Value::Null], "%!d(<nil>)"),
        ("%v", vec![json!([1, "a", null, 2.5])], "[1 a <nil> 2.5]"),
        ("%s", vec![json!(["a", "b"])], "[a b]"),
        (
            "%v",
            vec![json!({"b": 2, "a": {"c": [1]}})],
            "map[a:map[c:[1]] b:2]",
        ),
        ("%d", vec![json!("x")], "%!d(string=x)"),
        ("%s", vec![json!(5)], "%!s(int64=5)"),
        ("%s", vec![json!(5.5)], "%!s(float64=5.5)"),
        ("%d", vec![json!(5.0)], "%!d(float64=5)"),
        ("%t", vec![json!("x")], "%!t(string=x)"),
        ("%s", vec![json!(true)], "%!s(bool=true)"),
        ("%d", vec![json!([1, "a"])], "[1 %!d(string=a)]"),
        ("%s-%s", vec![json!("a")], "a-%!s(MISSING)"),
        (
            "%s",
            vec![json!("a"), json!(1), json!("b")],
            "a%!(EXTRA int64=1, string=b)",
        ),
        ("x", vec![Value::Null], "x%!(EXTRA <nil>)"),
        ("100%%", vec![], "100%"),
        ("%", vec![], "%!(NOVERB)"),
        ("%z", vec![json!(1)], "%!z(int64=1)"),
        (
            "%T %T %T %T %T %T",
            vec![
                json!(1),
                json!(1.5),
                json!("s"),
                json!(true),
                json!([]),
                json!({}),
            ],
            "int64 float64 string bool []interface {} map[string]interface {}",
        ),
        ("%q", vec![json!("a\"b\n")], "\"a\\\"b\\n\""),
        ("%#q", vec![json!("ab")], "`ab`"),
        ("%+q", vec![json!("é")], "\"\\u00e9\""),
        ("%x", vec![json!("hi")], "6869"),
        ("%X", vec![json!("hi")], "6869"),
        ("% x", vec![json!("hi")], "68 69"),
        ("%x", vec![json!(255)], "ff"),
        ("%X", vec![json!(255)], "FF"),
        ("%#x", vec![json!(255)], "0xff"),
        ("%o", vec![json!(8)], "10"),
        ("%#o", vec![json!(8)], "010"),
        ("%O", vec![json!(8)], "0o10"),
        ("%b", vec![json!(5)], "101"),
        ("%c", vec![json!(65)], "A"),
        ("%q", vec![json!(65)], "'A'"),
        ("%U", vec![json!(65)], "U+0041"),
        ("%#U", vec![json!(65)], "U+0041 'A'"),
        ("%x", vec![json!(-255)], "-ff"),
    ];
    for (format, args, want) in cases {
        assert_eq!(f(format, &args), want, "{format} {args:?}");
    }
}

#[test]
fn width_precision_flags() {
    let cases: Vec<(&str, Vec<Value>, &str)> = vec![
        ("%5d", vec![json!(42)], "   42"),
        ("%-5d|", vec![json!(42)], "42   |"),
        ("%05d", vec![json!(-42)], "-0042"),
        ("%+d", vec![json!(42)], "+42"),
        ("% d", vec![json!(42)], " 42"),
        ("%.3d", vec![json!(7)], "007"),
        ("%6.3d", vec![json!(7)], "   007"),
        ("%.0d", vec![json!(0)], ""),
        ("%#08x", vec![json!(255)], "0x000000ff"),
        ("%08x", vec![json!(-255)], "-00000ff"),
        ("%+05d", vec![json!(3)], "+0003"),
        ("%05s", vec![json!("ab")], "000ab"),
        ("%-05d|", vec![json!(3)], "3    |"),
        ("%*d", vec![json!(4), json!(7)], "   7"),
        ("%-*d|", vec![json!(3), json!(7)], "7  |"),
        ("%.2s", vec![json!("hello")], "he"),
        ("%6s", vec![json!("ab")], "    ab"),
        ("%-6s|", vec![json!("ab")], "ab    |"),
        ("%f", vec![json!(3.14169)], "3.141690"),
        ("%.2f", vec![json!(3.14169)], "3.14"),
        ("%.0f", vec![json!(2.5)], "2"),
        ("%.2f", vec![json!(3)], "%!f(int64=3)"),
        ("%8.3f", vec![json!(-3.14169)], "  -3.142"),
        ("%08.3f", vec![json!(-3.14169)], "-003.142"),
        ("%+.1f", vec![json!(2.25)], "+2.2"),
        ("%e", vec![json!(1234.5678)], "1.234568e+03"),
        ("%E", vec![json!(0.000123)], "1.230000E-04"),
        ("%.2e", vec![json!(0.0)], "0.00e+00"),
        ("%g", vec![json!(1234.5678)], "1234.5678"),
        ("%g", vec![json!(1e21)], "1e+21"),
        ("%G", vec![json!(1e-7)], "1E-07"),
        ("%.3g", vec![json!(1234.5678)], "1.23e+03"),
        ("%.3g", vec![json!(1.0)], "1"),
        ("%.3g", vec![json!(100.0)], "100"),
        ("%.10g", vec![json!(0.1)], "0.1"),
        ("%#g", vec![json!(1.0)], "1."),
        ("%v", vec![json!(-0.0)], "-0"),
        ("%6.2v", vec![json!(3.14169)], "   3.1"),
        ("%[2]s %[1]s", vec![json!("a"), json!("b")], "b a"),
        ("%[3]s", vec![json!("a")], "%!s(BADINDEX)"),
        ("%*d", vec![json!("x"), json!(1)], "%!(BADWIDTH)1"),
    ];
    for (format, args, want) in cases {
        assert_eq!(f(format, &args), want, "{format} {args:?}");
    }
}

#[test]
fn format_float_matches_strconv() {
    let cases = [
        (1.0, 'g', None, "1"),
        (1e21, 'g', None, "1e+21"),
        (123456789.0, 'g', None, "1.23456789e+08"),
        (0.1 + 0.2, 'g', None, "0.30000000000000004"),
        (1.5, 'f', None, "1.5"),
        (1e21, 'f', None, "1000000000000000000000"),
        (1.1, 'f', Some(3), "1.100"),
        (1.1, 'e', None, "1.1e+00"),
        (f64::INFINITY, 'g', None, "+Inf"),
        (f64::NEG_INFINITY, 'f', Some(2), "-Inf"),
    ];
    for (x, fmt, prec, want) in cases {
        assert_eq!(format_float_go(x, fmt, prec), want, "{x} {fmt} {prec:?}");
    }
}
