//! Tests of `mismatch_message` against cty's.

use super::*;

#[test]
fn mismatch_messages_follow_cty() {
    let foo = tobj(&[("foo", TS)]);
    let cases: Vec<(Type, Type, &str)> = vec![
        (TB, TN, "number required, but have bool"),
        (
            Type::empty_object(),
            foo.clone(),
            r#"attribute "foo" is required"#,
        ),
        (
            Type::empty_object(),
            tobj(&[("foo", TS), ("bar", TS)]),
            r#"attributes "bar" and "foo" are required"#,
        ),
        (
            Type::empty_object(),
            tobj(&[("foo", TS), ("bar", TS), ("baz", TS)]),
            r#"attributes "bar", "baz", and "foo" are required"#,
        ),
        (
            Type::empty_object(),
            tl(tobj(&[("foo", TS), ("bar", TS), ("baz", TS)])),
            "list of object required",
        ),
        (
            tl(TS),
            tl(foo.clone()),
            "incorrect list element type: object required, but have string",
        ),
        (
            tl(Type::empty_object()),
            tl(foo.clone()),
            r#"incorrect list element type: attribute "foo" is required"#,
        ),
        (
            ttup(vec![Type::empty_object()]),
            tl(foo.clone()),
            r#"element 0: attribute "foo" is required"#,
        ),
        (
            tl(Type::empty_object()),
            tset(foo.clone()),
            r#"incorrect set element type: attribute "foo" is required"#,
        ),
        (
            ttup(vec![Type::empty_object()]),
            tset(foo.clone()),
            r#"element 0: attribute "foo" is required"#,
        ),
        (
            tm(Type::empty_object()),
            tm(foo.clone()),
            r#"incorrect map element type: attribute "foo" is required"#,
        ),
        (
            tobj(&[("boop", Type::empty_object())]),
            tm(foo.clone()),
            r#"element "boop": attribute "foo" is required"#,
        ),
        (
            ttup(vec![Type::empty_object(), ttup(vec![])]),
            tl(TD),
            "all list elements must have the same type",
        ),
        (
            tobj(&[("foo", TB), ("bar", TS), ("baz", tobj(&[("boop", TN)]))]),
            tobj(&[
                ("foo", TB),
                ("bar", TS),
                ("baz", tobj(&[("boop", TN), ("beep", TB)])),
            ]),
            r#"attribute "baz": attribute "beep" is required"#,
        ),
        // Beyond cty's table, one per remaining rule.
        (TS, TN, "number required"),
        (TS, TB, "bool required"),
        (TN, TS, "string required, but have number"),
        (TS, tl(TS), "list of string required, but have string"),
        (TS, tl(TD), "list of dynamic required, but have string"),
        (
            ttup(vec![TS]),
            Type::empty_object(),
            "object required, but have tuple",
        ),
        (Type::empty_object(), ttup(vec![]), "tuple required"),
        (tl(TS), tm(TS), "map of string required"),
        (tl(TS), tm(TD), "map of any single type required"),
        (
            tset(TS),
            tl(TB),
            "incorrect list element type: bool required",
        ),
        (ttup(vec![TS]), tm(TS), "map of string required"),
        (tobj(&[("a", TS)]), tl(TS), "list of string required"),
        (
            ttup(vec![TN, tl(TS)]),
            tl(TN),
            "element 1: number required, but have list of string",
        ),
        (
            tobj(&[("a", TB), ("b", TN)]),
            tm(TN),
            r#"element "a": number required, but have bool"#,
        ),
        (
            tobj(&[("a", TB)]),
            tobj(&[("a", TN)]),
            r#"attribute "a": number required, but have bool"#,
        ),
        (
            tobj(&[("a b", TB)]),
            tobj(&[("a\"b", TB)]),
            r#"attribute "a\"b" is required"#,
        ),
    ];
    for (got, want, msg) in cases {
        assert_eq!(
            mismatch_message(&got, &want),
            msg,
            "{got:?} but want {want:?}"
        );
    }
}
