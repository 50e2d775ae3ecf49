//! cel-go `ext/lists_test.go`: TestLists (rows needing protobuf `ExampleType` left out;
//! `sortBy` rows run once the parser expands the macro, and meanwhile as direct
//! `@sortByAssociatedKeys` calls), TestListsRuntimeErrors, TestListsVersion and the
//! expressions of TestListsCosts (their costs are the cost model's tests).

use super::super::lists::sort_by_keys;
use super::{Case, fails, ok, run, run_table, run_with};
use crate::cel::value::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// cel-go ext/lists_test.go, TestLists.
const LISTS: &[Case] = &[
    ok("lists.range(4) == [0,1,2,3]"),
    ok("lists.range(0) == []"),
    ok("[5,1,2,3].reverse() == [3,2,1,5]"),
    ok("[].reverse() == []"),
    ok("[1].reverse() == [1]"),
    ok(
        "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
    ),
    ok("[false, true, true].reverse().reverse() == [false, true, true]"),
    ok("[1,2,3,4].slice(0, 4) == [1,2,3,4]"),
    ok("[1,2,3,4].slice(0, 0) == []"),
    ok("[1,2,3,4].slice(1, 1) == []"),
    ok("[1,2,3,4].slice(4, 4) == []"),
    ok("[1,2,3,4].slice(1, 3) == [2, 3]"),
    fails(
        "[1,2,3,4].slice(3, 0)",
        "cannot slice(3, 0), start index must be less than or equal to end index",
    ),
    fails(
        "[1,2,3,4].slice(0, 10)",
        "cannot slice(0, 10), list is length 4",
    ),
    fails(
        "[1,2,3,4].slice(-5, 10)",
        "cannot slice(-5, 10), negative indexes not supported",
    ),
    fails(
        "[1,2,3,4].slice(-5, -3)",
        "cannot slice(-5, -3), negative indexes not supported",
    ),
    ok("dyn([]).flatten() == []"),
    ok("[1,[2,[3,4]]].flatten(2) == [1,2,3,4]"),
    fails(
        "[1,[2,[3,[4]]]].flatten(-1) == [1,2,3,4]",
        "level must be non-negative",
    ),
    ok("[].sort() == []"),
    ok("[1].sort() == [1]"),
    ok("[4, 3, 2, 1].sort() == [1, 2, 3, 4]"),
    ok(r#"["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]"#),
    fails(
        r#"["d", 3, 2, "c"].sort() == ["a", "b", "c", "d"]"#,
        "list elements must have the same type",
    ),
    ok("[].distinct() == []"),
    ok("[1].distinct() == [1]"),
    ok("[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]"),
    ok("['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']"),
    ok(r#"[1, 2.0, "c", 3, "c", 1].distinct() == [1, 2.0, "c", 3]"#),
    ok("[1, 1.0, 2].distinct() == [1, 2]"),
    ok("[[1], [1], [2]].distinct() == [[1], [2]]"),
];

#[test]
fn lists_test_go_test_lists() {
    run_table("ext/lists_test.go TestLists", LISTS);
}

/// TestLists' rows (and one more) that need the interpreter to call unguarded overloads
/// (`Overload::guarded == false`) with any list; run by the interpreter and by the test
/// evaluator.
const UNGUARDED: &[Case] = &[
    ok("dyn([1,2,3,4]).flatten() == [1,2,3,4]"),
    ok("[1,[2,[3,4]]].flatten() == [1,2,[3,4]]"),
    ok("[1,2,[],[],[3,4]].flatten() == [1,2,3,4]"),
    fails("[[1]].sort()", "list elements must be comparable"),
];

#[test]
fn lists_test_go_test_lists_unguarded() {
    let mut failures = Vec::new();
    for c in UNGUARDED {
        for got in [super::run(c.expr), super::run_simple(c.expr)] {
            let good = match (&got, c.err) {
                (Ok(Value::Bool(true)), None) => true,
                (Err(e), Some(want)) => e.message.contains(want),
                _ => false,
            };
            if !good {
                failures.push(format!("{}: {got:?}", c.expr));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// cel-go ext/lists_test.go, TestLists' `sortBy` rows (and TestListsVersion's).
const SORT_BY: &[Case] = &[
    ok("[].sortBy(e, e) == []"),
    ok(r#"["a"].sortBy(e, e) == ["a"]"#),
    ok("[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]"),
    ok("[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]"),
    ok("lists.range(3).sortBy(e, -e) == [2, 1, 0]"),
    ok(r#"["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]"#),
    ok(
        "[{'field': 'lo'}, {'field': 'hi'}].sortBy(m, m.field) == [{'field': 'hi'}, {'field': 'lo'}]",
    ),
];

#[test]
fn lists_test_go_sort_by() {
    // the macro is the parser's
    let expands = crate::cel::parser::parse("[].sortBy(e, e)").is_ok_and(|a| {
        let mut found = false;
        a.expr.walk(&mut |e| {
            if let crate::cel::ast::ExprKind::Call { function, .. } = &e.kind {
                found |= function == "@sortByAssociatedKeys";
            }
        });
        found
    });
    assert!(expands, "the parser expands sortBy");
    run_table("ext/lists_test.go TestLists sortBy", SORT_BY);
    // the same rows through the runtime half directly
    let ints = |v: &[i64]| {
        Arc::new(crate::cel::value::List {
            items: v.iter().map(|i| Value::Int(*i)).collect(),
            kind: Default::default(),
        })
    };
    let sorted = |l: &[i64], k: &[i64]| match sort_by_keys(&ints(l), &ints(k)) {
        Ok(Value::List(r)) => r
            .items
            .iter()
            .map(|v| match v {
                Value::Int(i) => *i,
                _ => i64::MIN,
            })
            .collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    assert_eq!(sorted(&[], &[]), Vec::<i64>::new());
    assert_eq!(
        sorted(&[-3, 1, -5, -2, 4], &[-9, -1, -25, -4, -16]),
        [-5, 4, -3, -2, 1]
    );
    assert_eq!(sorted(&[0, 1, 2], &[0, -1, -2]), [2, 1, 0]);
    let err = sort_by_keys(&ints(&[1, 2]), &ints(&[1])).unwrap_err();
    assert_eq!(
        err.message,
        "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got 2 and 1 elements respectively"
    );
}

/// Equal keys keep Go's `sort.Slice` order, which is not stable past 12 elements.
#[test]
fn sort_by_equal_keys_follows_go() {
    // 13 elements, all keys equal but the last: Go's pdqsort with these keys leaves the
    // elements in their original order (the partial insertion sort finds them sorted)
    let keys: Vec<i64> = (0..13).map(|i| if i == 12 { 0 } else { 1 }).collect();
    let items: Vec<i64> = (0..13).collect();
    let mut order: Vec<usize> = (0..13).collect();
    super::super::pdqsort::sort_by(&mut order, |&a, &b| keys[a] < keys[b]);
    let got: Vec<i64> = order.iter().map(|&i| items[i]).collect();
    assert_eq!(got[0], 12);
    let mut rest = got[1..].to_vec();
    rest.sort_unstable();
    assert_eq!(rest, (0..12).collect::<Vec<_>>());
    // plain sorting agrees with Rust's on distinct keys, at every length up to 200
    for n in 0..200usize {
        let mut v: Vec<u64> = (0..n as u64).map(|i| (i * 7919 + 13) % 1009).collect();
        let mut w = v.clone();
        super::super::pdqsort::sort_by(&mut v, |a, b| a < b);
        w.sort_unstable();
        assert_eq!(v, w, "n = {n}");
    }
}

/// cel-go ext/lists_test.go, TestListsRuntimeErrors.
const RUNTIME_ERRORS: &[Case] = &[
    fails("dyn({}).flatten()", "no such overload"),
    fails("dyn({}).flatten(0)", "no such overload"),
    fails("[].flatten(-1)", "level must be non-negative"),
    fails("[].flatten(dyn('1'))", "no such overload"),
];

#[test]
fn lists_test_go_test_lists_runtime_errors() {
    run_table("ext/lists_test.go TestListsRuntimeErrors", RUNTIME_ERRORS);
}

/// cel-go ext/lists_test.go, TestListsVersion (version 3 has them all; sortBy above).
const VERSIONS: &[Case] = &[
    ok("[1, 2, 3, 4, 5].slice(2, 4) == [3, 4]"),
    ok("[[1, 2], [3, 4]].flatten() == [1, 2, 3, 4]"),
    ok("[1, 2, 2, 1].distinct() == [1, 2]"),
    ok("lists.range(5) == [0, 1, 2, 3, 4]"),
    ok("[1, 2, 3].reverse() == [3, 2, 1]"),
    ok("[2, 1, 3].sort() == [1, 2, 3]"),
];

#[test]
fn lists_test_go_test_lists_version() {
    run_table("ext/lists_test.go TestListsVersion", VERSIONS);
}

/// cel-go ext/lists_test.go, TestListsCosts: the expressions' values.
#[test]
fn lists_test_go_test_lists_costs_values() {
    run_table(
        "ext/lists_test.go TestListsCosts",
        &[
            ok("lists.range(4) == [0, 1, 2, 3]"),
            ok("lists.range(4 / 2) == [0, 1]"),
            ok("[[1, 2], 3].flatten(1) == [1, 2, 3]"),
            ok("[[1, 2], 3].flatten(2) == [1, 2, 3]"),
            ok("[[1, 2], 3].flatten(3) == [1, 2, 3]"),
            ok("[[1], 2, 3].flatten() == [1, 2, 3]"),
            ok("[1, 2, 3].distinct() == [1, 2, 3]"),
            ok("[1, 1, 1].distinct() == [1]"),
        ],
    );
    let vars: HashMap<String, Value> = [("x".to_string(), Value::Int(5))].into();
    assert!(matches!(
        run_with("lists.range(x) == [0, 1, 2, 3, 4]", &vars),
        Ok(Value::Bool(true))
    ));
    assert!(matches!(
        run_with("[[1, 2], 3].flatten(x) == [1, 2, 3]", &vars),
        Ok(Value::Bool(true))
    ));
    let vars: HashMap<String, Value> = [(
        "x".to_string(),
        Value::list(vec![
            Value::list(vec![Value::Int(1)]),
            Value::Int(2),
            Value::Int(3),
        ]),
    )]
    .into();
    assert!(matches!(
        run_with("x.flatten() == [1, 2, 3]", &vars),
        Ok(Value::Bool(true))
    ));
}

/// Sizes and values no list can hold, and sort's type rules.
#[test]
fn lists_edge_cases() {
    run_table(
        "lists edge cases",
        &[
            ok("lists.range(-3) == []"),
            fails(
                "lists.range(9223372036854775807)",
                crate::cel::cost::LIMIT_EXCEEDED,
            ),
            fails("[1, 2.0].sort()", "list elements must have the same type"),
            ok("[1.0].sort() == [1.0]"),
            ok("[b'b', b'a'].sort() == [b'a', b'b']"),
            ok("[true, false].sort() == [false, true]"),
            ok("[duration('2s'), duration('1s')].sort() == [duration('1s'), duration('2s')]"),
            ok("[1, 2, 3].slice(3, 3) == []"),
        ],
    );
    assert!(run("[1,2,3,4].slice(1, 3)").is_ok());
}
