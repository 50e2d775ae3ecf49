//! cel-go `ext/sets_test.go`: TestSets (its costs are the cost model's tests).

use super::{Case, ok, run_table, run_with};
use crate::cel::value::Value;
use std::collections::HashMap;

/// cel-go ext/sets_test.go, TestSets.
const SETS: &[Case] = &[
    ok("sets.contains([], [])"),
    ok("sets.contains([1], [])"),
    ok("sets.contains([1], [1])"),
    ok("sets.contains([1], [1, 1])"),
    ok("sets.contains([1, 1], [1])"),
    ok("sets.contains([2, 1], [1])"),
    ok("sets.contains([1, 2, 3, 4], [2, 3])"),
    ok("sets.contains([1], [1.0, 1])"),
    ok("sets.contains([1, 2], [2u, 2.0])"),
    ok("sets.contains([1, 2u], [2, 2.0])"),
    ok("sets.contains([1, 2.0, 3u], [1.0, 2u, 3])"),
    ok("sets.contains([[1], [2, 3]], [[2, 3.0]])"),
    ok("!sets.contains([1], [2])"),
    ok("!sets.contains([1], [1, 2])"),
    ok(r#"!sets.contains([1], ["1", 1])"#),
    ok("!sets.contains([1], [1.1, 1u])"),
    ok("sets.equivalent([], [])"),
    ok("sets.equivalent([1], [1])"),
    ok("sets.equivalent([1], [1, 1])"),
    ok("sets.equivalent([1, 1], [1])"),
    ok("sets.equivalent([1], [1u, 1.0])"),
    ok("sets.equivalent([1], [1u, 1.0])"),
    ok("sets.equivalent([1, 2, 3], [3u, 2.0, 1])"),
    ok("sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])"),
    ok("!sets.equivalent([2, 1], [1])"),
    ok("!sets.equivalent([1], [1, 2])"),
    ok("!sets.equivalent([1, 2], [2u, 2, 2.0])"),
    ok("!sets.equivalent([1, 2], [1u, 2, 2.3])"),
    ok("sets.intersects([1], [1])"),
    ok("sets.intersects([1], [1, 1])"),
    ok("sets.intersects([1, 1], [1])"),
    ok("sets.intersects([2, 1], [1])"),
    ok("sets.intersects([1], [1, 2])"),
    ok("sets.intersects([1], [1.0, 2])"),
    ok("sets.intersects([1, 2], [2u, 2, 2.0])"),
    ok("sets.intersects([1, 2], [1u, 2, 2.3])"),
    ok("sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])"),
    ok("!sets.intersects([], [])"),
    ok("!sets.intersects([1], [])"),
    ok("!sets.intersects([1], [2])"),
    ok(r#"!sets.intersects([1], ["1", 2])"#),
    ok("!sets.intersects([1], [1.1, 2u])"),
];

#[test]
fn sets_test_go_test_sets() {
    run_table("ext/sets_test.go TestSets", SETS);
    let vars: HashMap<String, Value> = [(
        "x".to_string(),
        Value::list((1..=5).rev().map(Value::Int).collect()),
    )]
    .into();
    for expr in [
        "sets.contains(x, [1, 2, 3])",
        "sets.contains(x, [1, 1, 1, 1, 1])",
    ] {
        assert!(
            matches!(run_with(expr, &vars), Ok(Value::Bool(true))),
            "{expr}"
        );
    }
}
