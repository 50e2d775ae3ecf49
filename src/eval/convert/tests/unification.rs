//! Tests of `unify`, `unify_unsafe` and the conversions unification hands back.

use super::*;

type UnifyCase = (Vec<Type>, Option<(Type, Vec<bool>)>);

/// cty's TestUnify (unify_test.go).
#[test]
fn unify_follows_cty() {
    let oa = tobj(&[("a", TS)]);
    let oab = tobj(&[("a", TS), ("b", TS)]);
    let cases: Vec<UnifyCase> = vec![
        (vec![], None),
        (vec![TS], Some((TS, vec![false]))),
        (vec![TN], Some((TN, vec![false]))),
        (vec![TN, TN], Some((TN, vec![false, false]))),
        (vec![TN, TS], Some((TS, vec![true, false]))),
        (vec![TS, TN], Some((TS, vec![false, true]))),
        (vec![TB, TS, TN], Some((TS, vec![true, false, true]))),
        (vec![TB, TN], None),
        (
            vec![tobj(&[("foo", TS)]), tobj(&[("foo", TS)])],
            Some((tobj(&[("foo", TS)]), vec![false, false])),
        ),
        (
            vec![tobj(&[("foo", TS)]), tobj(&[("foo", TN)])],
            Some((tobj(&[("foo", TS)]), vec![false, true])),
        ),
        (
            vec![tobj(&[("foo", TS)]), tobj(&[("bar", TN)])],
            Some((tm(TS), vec![true, true])),
        ),
        (
            vec![tobj(&[("foo", TS)]), Type::empty_object()],
            Some((tm(TS), vec![true, true])),
        ),
        (vec![tobj(&[("foo", TB)]), tobj(&[("bar", TN)])], None),
        (vec![tobj(&[("foo", TB)]), tobj(&[("foo", TN)])], None),
        (
            vec![ttup(vec![TS]), ttup(vec![TS])],
            Some((ttup(vec![TS]), vec![false, false])),
        ),
        (
            vec![ttup(vec![TS]), ttup(vec![TN])],
            Some((ttup(vec![TS]), vec![false, true])),
        ),
        (
            vec![ttup(vec![TS]), ttup(vec![TS, TN])],
            Some((tl(TS), vec![true, true])),
        ),
        (
            vec![ttup(vec![TS]), ttup(vec![])],
            Some((tl(TS), vec![true, true])),
        ),
        (vec![ttup(vec![TB]), ttup(vec![TN])], None),
        (
            vec![ttup(vec![oa.clone(), oa.clone()]), ttup(vec![oab.clone()])],
            Some((tl(tm(TS)), vec![true, true])),
        ),
        (vec![ttup(vec![oa.clone(), TD]), tl(TD)], None),
        (
            vec![
                tl(oa.clone()),
                ttup(vec![oab.clone()]),
                ttup(vec![oab.clone(), tobj(&[("c", TS), ("d", TS)])]),
            ],
            Some((tl(tm(TS)), vec![true, true, true])),
        ),
        (
            vec![tl(oa.clone()), tl(tm(TS)), ttup(vec![tm(TS), oab.clone()])],
            Some((tl(tm(TS)), vec![true, false, true])),
        ),
        (
            vec![
                ttup(vec![
                    tobj(&[("a", TS), ("b", TN)]),
                    tobj(&[("a", TS), ("b", TN)]),
                ]),
                ttup(vec![oa.clone()]),
            ],
            Some((tl(tm(TS)), vec![true, true])),
        ),
        (
            vec![
                ttup(vec![tobj(&[("a", TS), ("b", TN)])]),
                ttup(vec![oa.clone()]),
            ],
            Some((ttup(vec![tm(TS)]), vec![true, true])),
        ),
        (
            vec![tl(tobj(&[("a", TN), ("b", TS)])), ttup(vec![oa.clone()])],
            Some((tl(tm(TS)), vec![true, true])),
        ),
        (
            vec![tl(tobj(&[("a", TN), ("b", TS)])), tl(oa.clone())],
            Some((tl(tm(TS)), vec![true, true])),
        ),
        (
            vec![
                tl(tobj(&[("a", oa.clone()), ("b", oab.clone())])),
                tl(tm(oab.clone())),
            ],
            Some((tl(tm(tm(TS))), vec![true, true])),
        ),
        (
            vec![tobj(&[("a", oa.clone())]), tobj(&[("a", oab.clone())])],
            Some((tobj(&[("a", tm(TS))]), vec![true, true])),
        ),
        (
            vec![
                tobj(&[("a", oa.clone()), ("b", oab.clone())]),
                tm(oab.clone()),
            ],
            Some((tm(tm(TS)), vec![true, true])),
        ),
        (
            vec![
                tobj(&[
                    ("a", tobj(&[("a", tl(TS))])),
                    ("b", tobj(&[("a", ttup(vec![TS])), ("b", tl(TS))])),
                ]),
                tm(tobj(&[("a", tl(TS)), ("b", tl(TS))])),
            ],
            Some((tm(tm(tl(TS))), vec![true, true])),
        ),
        (
            vec![
                tobj(&[("a", oa.clone()), ("b", oa.clone())]),
                tm(oa.clone()),
            ],
            Some((tm(oa.clone()), vec![true, false])),
        ),
        (
            vec![
                tobj(&[("a", oa.clone()), ("b", oa.clone())]),
                tm(TD),
                tm(oa.clone()),
            ],
            Some((tm(TD), vec![true, false, true])),
        ),
        (
            vec![
                tobj(&[
                    ("a", tobj(&[("a", oa.clone())])),
                    ("b", tobj(&[("c", tobj(&[("d", TS)]))])),
                ]),
                tm(tm(tm(TS))),
            ],
            Some((tm(tm(tm(TS))), vec![true, false])),
        ),
        (
            vec![
                tm(tm(tm(TS))),
                tobj(&[
                    ("a", tobj(&[("a", oa.clone()), ("b", tm(TS))])),
                    ("b", tm(tm(TS))),
                ]),
            ],
            Some((tm(tm(tm(TS))), vec![false, true])),
        ),
        (vec![TD, ttup(vec![TN])], Some((TD, vec![true, true]))),
        (vec![TD, tobj(&[("num", TN)])], Some((TD, vec![true, true]))),
        (vec![ttup(vec![TN]), TD, tobj(&[("num", TN)])], None),
        // Beyond cty's table.
        (vec![TD], Some((TD, vec![false]))),
        (vec![TD, TD], Some((TD, vec![false, false]))),
        (vec![TS, TD], Some((TD, vec![true, false]))),
        (vec![tl(TS), tset(TS)], Some((tl(TS), vec![false, true]))),
        (vec![tset(TS), tl(TS)], Some((tl(TS), vec![true, false]))),
        (vec![tl(TS), tl(TN)], Some((tl(TS), vec![false, true]))),
        (vec![tl(TS), TD], Some((TD, vec![true, true]))),
        (vec![tset(TS), tl(TN)], None),
        (
            vec![ttup(vec![]), ttup(vec![])],
            Some((ttup(vec![]), vec![false, false])),
        ),
    ];
    for (types, want) in cases {
        assert_eq!(unify(&types), want, "unify {types:?}");
    }
}

/// UnifyUnsafe admits unsafe conversions where no safe unification exists.
#[test]
fn unify_unsafe_follows_cty() {
    let cases: Vec<UnifyCase> = vec![
        (vec![TS, TD], Some((TS, vec![false, true]))),
        (vec![tset(TS), tl(TN)], Some((tl(TN), vec![true, false]))),
        (vec![TB, TN], None),
        (vec![TN, TS], Some((TS, vec![true, false]))),
        (
            vec![tm(TS), tobj(&[("a", TN)])],
            Some((tm(TS), vec![false, true])),
        ),
        (vec![ttup(vec![TN]), TD], Some((TD, vec![true, true]))),
    ];
    for (types, want) in cases {
        assert_eq!(unify_unsafe(&types), want, "unify_unsafe {types:?}");
    }
}

#[test]
fn unify_conversions_are_ctys() {
    let (ty, convs) = unify_unsafe_conversions(&[TN, TS]).unwrap();
    assert_eq!(ty, TS);
    let to_string = convs[0].as_ref().unwrap();
    assert!(to_string(&n(5)).unwrap().raw_equals(&s("5")));
    assert!(convs[1].is_none());

    // With a dynamic type alongside, cty's conversions all yield DynamicVal.
    let (ty, convs) = unify_unsafe_conversions(&[ttup(vec![TN]), TD]).unwrap();
    assert_eq!(ty, TD);
    let c = convs[0].as_ref().unwrap();
    assert!(c(&tup(vec![n(1)])).unwrap().raw_equals(&Value::dynamic()));

    // cty chains the tuple-to-list conversion with the list conversion but hands the
    // second one the original tuple, so differing element types surface as an error.
    let types = [
        tl(tm(TS)),
        ttup(vec![tobj(&[("a", TS)]), tobj(&[("a", TN)])]),
    ];
    let (ty, convs) = unify_unsafe_conversions(&types).unwrap();
    assert_eq!(ty, tl(tm(TS)));
    let c = convs[1].as_ref().unwrap();
    let err = c(&tup(vec![obj(&[("a", s("x"))]), obj(&[("a", n(1))])])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "element types must all match for conversion to list"
    );
    // Where the tuple's elements already have the list's element type the chain works.
    let (ty, convs) = unify_unsafe_conversions(&[tl(TS), ttup(vec![TN])]).unwrap();
    assert_eq!(ty, tl(TS));
    let c = convs[1].as_ref().unwrap();
    assert!(
        c(&tup(vec![n(5)]))
            .unwrap()
            .raw_equals(&list(TS, vec![s("5")]))
    );
}
