//! Tests of `convert` against cty's conversion test cases.

use super::*;

/// The applicable cases of cty's TestConvert (public_test.go), in its order.
#[test]
fn convert_follows_cty() {
    let sg_rules = tup(vec![
        obj(&[
            ("type", s("ingress")),
            ("from_port", n(-1)),
            ("to_port", n(-1)),
            ("protocol", s("icmp")),
            ("description", s("ICMP in")),
            ("cidr", tup(vec![s("0.0.0.0/0")])),
        ]),
        obj(&[
            ("type", s("ingress")),
            ("from_port", n(22)),
            ("to_port", n(22)),
            ("protocol", s("tcp")),
            ("description", s("SSH from Bastion")),
            ("source_sg", s("sg-abc123")),
        ]),
    ]);
    check_convert(vec![
        (s("hello"), TS, Ok(s("hello"))),
        (s("1"), TN, Ok(n(1))),
        (s("1.5"), TN, Ok(num("1.5"))),
        (s("hello"), TN, Err("a number is required")),
        (s("true"), TB, Ok(b(true))),
        (s("1"), TB, Ok(b(true))),
        (s("false"), TB, Ok(b(false))),
        (s("0"), TB, Ok(b(false))),
        (s("hello"), TB, Err("a bool is required")),
        (n(4), TS, Ok(s("4"))),
        (
            Value::Number(Num::from_f64("3.14159265359".parse().unwrap()).unwrap()),
            TS,
            Ok(s("3.14159265359")),
        ),
        (b(true), TS, Ok(s("true"))),
        (b(false), TS, Ok(s("false"))),
        (unk(TS), TN, Ok(unk(TN))),
        (unk(TN), TS, Ok(unk(TS))),
        (Value::dynamic(), TS, Ok(unk(TS))),
        (s("hello"), TD, Ok(s("hello"))),
        (
            list(TN, vec![n(5), n(10)]),
            tl(TS),
            Ok(list(TS, vec![s("5"), s("10")])),
        ),
        (
            list(TN, vec![n(5), n(10)]),
            tl(TD),
            Ok(list(TN, vec![n(5), n(10)])),
        ),
        (
            sg_rules,
            tl(TD),
            Err("all list elements must have the same type"),
        ),
        (
            set(TS, vec![s("5"), unk(TS)]),
            tset(TN),
            Ok(set(TN, vec![n(5), unk(TN)])),
        ),
        (
            set(TS, vec![s("5"), s("10")]),
            tl(TS),
            Ok(list(TS, vec![s("10"), s("5")])),
        ),
        (
            set(TS, vec![s("5"), s("10")]),
            tl(TD),
            Ok(list(TS, vec![s("10"), s("5")])),
        ),
        (
            set(TN, vec![n(5), n(10)]),
            tl(TS),
            Ok(list(TS, vec![s("5"), s("10")])),
        ),
        (set(TS, vec![s("5"), unk(TS)]), tl(TS), Ok(unk(tl(TS)))),
        (set(TS, vec![unk(TS)]), tl(TS), Ok(list(TS, vec![unk(TS)]))),
        (
            list(TN, vec![n(5), n(10), n(10)]),
            tset(TS),
            Ok(set(TS, vec![s("5"), s("10")])),
        ),
        (
            tup(vec![n(5), s("hello")]),
            tl(TS),
            Ok(list(TS, vec![s("5"), s("hello")])),
        ),
        (
            tup(vec![n(5), s("12")]),
            tl(TN),
            Ok(list(TN, vec![n(5), n(12)])),
        ),
        (
            tup(vec![n(5), n(10)]),
            tl(TD),
            Ok(list(TN, vec![n(5), n(10)])),
        ),
        (
            tup(vec![n(5), s("hello")]),
            tl(TD),
            Ok(list(TS, vec![s("5"), s("hello")])),
        ),
        (
            tup(vec![n(5), s("hello")]),
            tset(TD),
            Ok(set(TS, vec![s("5"), s("hello")])),
        ),
        (list(TS, vec![]), tset(TD), Ok(set(TS, vec![]))),
        (set(TS, vec![]), tl(TD), Ok(list(TS, vec![]))),
        (
            obj(&[("num", n(5)), ("str", s("hello"))]),
            tm(TS),
            Ok(map(TS, &[("num", s("5")), ("str", s("hello"))])),
        ),
        (
            obj(&[("num", n(5)), ("str", s("12"))]),
            tm(TN),
            Ok(map(TN, &[("num", n(5)), ("str", n(12))])),
        ),
        (
            obj(&[("num1", n(5)), ("num2", n(10))]),
            tm(TD),
            Ok(map(TN, &[("num1", n(5)), ("num2", n(10))])),
        ),
        (
            obj(&[("num", n(5)), ("str", s("hello"))]),
            tm(TD),
            Ok(map(TS, &[("num", s("5")), ("str", s("hello"))])),
        ),
        (
            obj(&[("list", list(TB, vec![])), ("tuple", tup(vec![]))]),
            tm(TD),
            Ok(map(
                tl(TB),
                &[("list", list(TB, vec![])), ("tuple", list(TB, vec![]))],
            )),
        ),
        (
            obj(&[("map", map(TS, &[])), ("obj", Value::empty_object())]),
            tm(TD),
            Ok(map(tm(TS), &[("map", map(TS, &[])), ("obj", map(TS, &[]))])),
        ),
        (
            obj(&[("num", n(5)), ("bool", b(true))]),
            tm(TD),
            Err("all map elements must have the same type"),
        ),
        (
            map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
            tm(TD),
            Ok(map(TS, &[("greeting", s("Hello")), ("name", s("John"))])),
        ),
        (
            map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
            tobj(&[("greeting", TS), ("name", TS)]),
            Ok(obj(&[("greeting", s("Hello")), ("name", s("John"))])),
        ),
        (
            map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
            tobj(&[("greeting", tl(TS)), ("name", TS)]),
            Err("object required"),
        ),
        (
            map(TS, &[("greeting", s("Hello")), ("name", s("John"))]),
            tobj(&[("name", TS)]),
            Ok(obj(&[("name", s("John"))])),
        ),
        (
            map(TS, &[("name", s("John"))]),
            tobj(&[("name", TS), ("greeting", TS)]),
            Err(r#"map has no element for required attribute "greeting""#),
        ),
        (
            map(TN, &[("a", n(2)), ("b", n(5))]),
            tm(TS),
            Ok(map(TS, &[("a", s("2")), ("b", s("5"))])),
        ),
        (
            obj(&[("foo", s("foo value")), ("bar", s("bar value"))]),
            tobj(&[("foo", TS)]),
            Ok(obj(&[("foo", s("foo value"))])),
        ),
        (
            obj(&[("foo", b(true))]),
            tobj(&[("foo", TS)]),
            Ok(obj(&[("foo", s("true"))])),
        ),
        (
            obj(&[("foo", Value::dynamic())]),
            tobj(&[("foo", TS)]),
            Ok(obj(&[("foo", unk(TS))])),
        ),
        (
            obj(&[("foo", null(TS))]),
            tobj(&[("foo", TS)]),
            Ok(obj(&[("foo", null(TS))])),
        ),
        (
            obj(&[("foo", b(true))]),
            tobj(&[("foo", TD)]),
            Ok(obj(&[("foo", b(true))])),
        ),
        (
            obj(&[("bar", s("bar value"))]),
            tobj(&[("foo", TS)]),
            Err(r#"attribute "foo" is required"#),
        ),
        (
            obj(&[("bar", s("bar value"))]),
            tobj(&[("foo", TS), ("baz", TS)]),
            Err(r#"attributes "baz" and "foo" are required"#),
        ),
        (
            Value::empty_object(),
            tobj(&[("foo", TS), ("bar", TS), ("baz", TS)]),
            Err(r#"attributes "bar", "baz", and "foo" are required"#),
        ),
        (
            obj(&[("foo", b(true))]),
            tobj(&[("foo", TN)]),
            Err(r#"attribute "foo": number required, but have bool"#),
        ),
        (
            obj(&[("foo", unk(TB))]),
            tobj(&[("foo", TN)]),
            Err(r#"attribute "foo": number required, but have bool"#),
        ),
        (null(TS), TD, Ok(null(TS))),
        (unk(TS), TD, Ok(unk(TS))),
        (
            tup(vec![s("hello")]),
            ttup(vec![TS]),
            Ok(tup(vec![s("hello")])),
        ),
        (tup(vec![b(true)]), ttup(vec![TS]), Ok(tup(vec![s("true")]))),
        (tup(vec![b(true)]), ttup(vec![]), Err("tuple required")),
        (tup(vec![]), ttup(vec![TS]), Err("tuple required")),
        (tup(vec![]), tset(TS), Ok(set(TS, vec![]))),
    ]);
}

/// cty's regression cases from Terraform issues, and the dynamic-null set/list cases.
#[test]
fn convert_follows_cty_regressions() {
    check_convert(vec![
        // hashicorp/terraform#23804
        (
            obj(&[
                ("a", obj(&[("x", tup(vec![s("foo")]))])),
                ("b", obj(&[("x", tup(vec![s("bar")]))])),
                ("c", obj(&[("x", tup(vec![s("foo"), s("bar")]))])),
            ]),
            tm(tm(TD)),
            Ok(map(
                tm(tl(TS)),
                &[
                    ("a", map(tl(TS), &[("x", list(TS, vec![s("foo")]))])),
                    ("b", map(tl(TS), &[("x", list(TS, vec![s("bar")]))])),
                    (
                        "c",
                        map(tl(TS), &[("x", list(TS, vec![s("foo"), s("bar")]))]),
                    ),
                ],
            )),
        ),
        // hashicorp/terraform#24167
        (
            obj(&[
                ("a", obj(&[("x", null(TD))])),
                ("b", obj(&[("x", obj(&[("c", n(1)), ("d", n(2))]))])),
            ]),
            tm(tm(tobj(&[("x", tm(TD))]))),
            Err(r#"element "b": element "x": attribute "x" is required"#),
        ),
        // hashicorp/terraform#23431
        (
            obj(&[("a", obj(&[("x", s("foo"))])), ("b", map(TD, &[]))]),
            tm(tm(TD)),
            Ok(map(
                tm(TS),
                &[("a", map(TS, &[("x", s("foo"))])), ("b", map(TS, &[]))],
            )),
        ),
        // hashicorp/terraform#21588
        (
            tup(vec![
                obj(&[("a", Value::empty_object()), ("b", n(2))]),
                obj(&[("a", obj(&[("var1", s("val1"))])), ("b", s("2"))]),
            ]),
            tl(tobj(&[("a", TD), ("b", TS)])),
            Ok(list(
                tobj(&[("a", tm(TS)), ("b", TS)]),
                vec![
                    obj(&[("a", map(TS, &[])), ("b", s("2"))]),
                    obj(&[("a", map(TS, &[("var1", s("val1"))])), ("b", s("2"))]),
                ],
            )),
        ),
        // hashicorp/terraform#24377
        (
            tup(vec![list(TS, vec![s("a")]), s("b"), null(TD)]),
            tset(TD),
            Err("all set elements must have the same type"),
        ),
        (
            tup(vec![list(TS, vec![s("a")]), s("b"), null(TD)]),
            tl(TD),
            Err("all list elements must have the same type"),
        ),
        (
            tup(vec![list(TS, vec![s("a")]), s("b")]),
            tset(TD),
            Err("all set elements must have the same type"),
        ),
        (
            tup(vec![list(TS, vec![s("a")]), s("b")]),
            tl(TD),
            Err("all list elements must have the same type"),
        ),
        // cty's element is NullVal(DynamicPseudoType) only because its sets and lists do
        // not keep element types; the converted null is a null string.
        (
            tup(vec![s("a"), n(9), null(TD)]),
            tset(TD),
            Ok(Value::Set {
                elem: TS,
                items: vec![s("9"), s("a"), null(TS)].into(),
            }),
        ),
        (
            tup(vec![s("a"), n(9), null(TD)]),
            tl(TD),
            Ok(list(TS, vec![s("a"), s("9"), null(TS)])),
        ),
        (
            tup(vec![null(TD), null(TD), null(TD)]),
            tset(TD),
            Ok(set(TD, vec![null(TD)])),
        ),
        (
            tup(vec![null(TD), null(TD), null(TD)]),
            tl(TD),
            Ok(list(TD, vec![null(TD), null(TD), null(TD)])),
        ),
    ]);
}

/// cty's "collections should prefer concrete types over dynamic types" cases.
#[test]
fn convert_prefers_concrete_types() {
    check_convert(vec![
        (list(TN, vec![]), tl(TD), Ok(list(TN, vec![]))),
        (null(tl(TN)), tl(TD), Ok(null(tl(TN)))),
        (null(tl(TN)), tset(TD), Ok(null(tset(TN)))),
        (map(TN, &[]), tm(TD), Ok(map(TN, &[]))),
        (null(tm(TN)), tm(TD), Ok(null(tm(TN)))),
        (
            null(tm(TN)),
            tobj(&[("a", TD)]),
            Ok(null(tobj(&[("a", TN)]))),
        ),
        (set(TN, vec![]), tset(TD), Ok(set(TN, vec![]))),
        (null(tset(TN)), tset(TD), Ok(null(tset(TN)))),
        (null(tset(TN)), tl(TD), Ok(null(tl(TN)))),
        (null(tobj(&[("a", TS)])), tm(TD), Ok(null(tm(TS)))),
        (
            null(tobj(&[("a", tobj(&[("b", TS)]))])),
            tobj(&[("a", tobj(&[("b", TD)]))]),
            Ok(null(tobj(&[("a", tobj(&[("b", TS)]))]))),
        ),
        (
            null(ttup(vec![TS])),
            ttup(vec![TD]),
            Ok(null(ttup(vec![TS]))),
        ),
        (null(TD), tobj(&[("a", TS)]), Ok(null(tobj(&[("a", TS)])))),
        (null(ttup(vec![])), tl(TD), Ok(null(tl(TD)))),
    ]);
}

/// cty's refinement cases: not-null carries over; the collection lengths cty derives make
/// some results known (the remaining length bounds are not modelled).
#[test]
fn convert_refines_unknowns() {
    check_convert(vec![
        (unk(Type::empty_object()), tm(TS), Ok(unk(tm(TS)))),
        (unk_nn(Type::empty_object()), tm(TS), Ok(map(TS, &[]))),
        (unk(tobj(&[("a", TS)])), tm(TS), Ok(unk(tm(TS)))),
        (unk_nn(tobj(&[("a", TS)])), tm(TS), Ok(unk_nn(tm(TS)))),
        (unk(ttup(vec![])), tl(TS), Ok(unk(tl(TS)))),
        (unk_nn(ttup(vec![])), tl(TS), Ok(list(TS, vec![]))),
        (unk(ttup(vec![TS])), tl(TS), Ok(unk(tl(TS)))),
        (unk_nn(ttup(vec![TS])), tl(TS), Ok(list(TS, vec![unk(TS)]))),
        (unk(ttup(vec![])), tset(TS), Ok(unk(tset(TS)))),
        (unk_nn(ttup(vec![])), tset(TS), Ok(set(TS, vec![]))),
        (unk(ttup(vec![TS])), tset(TS), Ok(unk(tset(TS)))),
        (unk_nn(ttup(vec![TS])), tset(TS), Ok(set(TS, vec![unk(TS)]))),
        (unk(ttup(vec![TS, TS])), tset(TS), Ok(unk(tset(TS)))),
        (unk_nn(ttup(vec![TS, TS])), tset(TS), Ok(unk_nn(tset(TS)))),
        (unk(tl(TS)), tset(TS), Ok(unk(tset(TS)))),
        (unk_nn(tset(TS)), tl(TS), Ok(unk_nn(tl(TS)))),
        (unk_nn(TB), TS, Ok(unk_nn(TS))),
        // A string prefix does not survive a conversion to another type.
        (
            Value::Unknown(
                TS,
                Refinement {
                    not_null: true,
                    string_prefix: Some("ab".into()),
                },
            ),
            TN,
            Ok(unk_nn(TN)),
        ),
        (Value::dynamic(), tl(TS), Ok(unk(tl(TS)))),
    ]);
}

/// Value-level errors carry the path of the offending element (not part of the message).
#[test]
fn convert_errors_have_paths() {
    check_convert(vec![
        (
            s("TRUE"),
            TB,
            Err(r#"a bool is required; to convert from string, use lowercase "true""#),
        ),
        (
            s("False"),
            TB,
            Err(r#"a bool is required; to convert from string, use lowercase "false""#),
        ),
        (s("yes"), TB, Err("a bool is required")),
        (s(" 1"), TN, Err("a number is required")),
        (
            tup(vec![s("1"), s("x")]),
            tl(TN),
            Err("[1]: a number is required"),
        ),
        (
            list(TS, vec![s("1"), s("x")]),
            tl(TN),
            Err("[1]: a number is required"),
        ),
        (
            obj(&[("a", s("x"))]),
            tobj(&[("a", TN)]),
            Err(".a: a number is required"),
        ),
        (
            map(TS, &[("k", s("x"))]),
            tm(TN),
            Err(r#"["k"]: a number is required"#),
        ),
        (
            obj(&[("k", s("x"))]),
            tm(TB),
            Err(r#"["k"]: a bool is required"#),
        ),
        (
            map(TS, &[("a", s("x"))]),
            tobj(&[("a", TN)]),
            Err(r#"["a"]: a number is required"#),
        ),
        (
            tup(vec![obj(&[("a", s("1"))]), obj(&[("a", s("z"))])]),
            tl(tobj(&[("a", TN)])),
            Err("[1].a: a number is required"),
        ),
        (
            tup(vec![s("1"), s("x")]),
            ttup(vec![TN, TN]),
            Err("[1]: a number is required"),
        ),
        // Set elements convert in set order.
        (
            set(TS, vec![s("a"), s("b")]),
            tset(TB),
            Err("[0]: a bool is required"),
        ),
        // Unifying converted list elements fails at run time, with cty's odd path that
        // repeats the last element index.
        (
            tup(vec![obj(&[("a", n(1))]), obj(&[("b", b(true))])]),
            tl(tm(TD)),
            Err("[1]: cannot find a common base type for all elements"),
        ),
        (
            n(1),
            tl(TN),
            Err("list of number required, but have number"),
        ),
        (b(true), TN, Err("number required, but have bool")),
        (list(TS, vec![]), tm(TS), Err("map of string required")),
    ]);
}
