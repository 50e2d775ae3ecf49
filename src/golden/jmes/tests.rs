//! The subset against cases of the JMESPath compliance suite (jmespath/jmespath.test,
//! `tests/*.json`, case by case as named) and of kyverno-json's and chainsaw's own tests.

use super::*;
use serde_json::json;

fn search(expression: &str, data: &Json) -> Result<Json, String> {
    compile(expression)?.search(data, &[], &mut Budget::new(BUDGET))
}

#[track_caller]
fn check(data: &Json, cases: &[(&str, Json)]) {
    for (expression, expected) in cases {
        let got = search(expression, data).unwrap_or_else(|e| panic!("{expression}: {e}"));
        assert!(
            equal(&got, expected),
            "{expression}: got {got}, expected {expected}"
        );
    }
}

#[test]
fn smoke() {
    check(&json!({"a": {"b": [1, 2, 3]}}), &[("a.b[1]", json!(2))]);
}
