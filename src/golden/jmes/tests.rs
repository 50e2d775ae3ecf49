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

/// The whole compliance suite, from a checkout of jmespath/jmespath.test named by
/// `JMESPATH_COMPLIANCE` (its `tests` folder): `cargo test -- --ignored compliance`. Prints
/// every case that differs; fails when any does outside [`UNSUPPORTED`].
#[test]
#[ignore = "needs a checkout of jmespath/jmespath.test"]
fn compliance() {
    let dir = std::env::var("JMESPATH_COMPLIANCE").expect("JMESPATH_COMPLIANCE names the suite's tests folder");
    let mut failed = 0;
    let mut passed = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "benchmarks.json" {
            continue;
        }
        let suites: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for suite in suites.as_array().unwrap() {
            for case in suite["cases"].as_array().unwrap() {
                let expression = case["expression"].as_str().unwrap();
                let got = search(expression, &suite["given"]);
                let ok = match (&got, case.get("result"), case.get("error")) {
                    (Ok(got), Some(want), _) => equal(got, want),
                    (Err(_), _, Some(_)) => true,
                    _ => false,
                };
                if ok {
                    passed += 1;
                } else if !UNSUPPORTED.iter().any(|u| expression.contains(u)) {
                    failed += 1;
                    println!("{name}: {expression}: got {got:?}, want {:?} / {:?}", case.get("result"), case.get("error"));
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    assert_eq!(failed, 0);
}

/// Fragments of compliance expressions using what the subset leaves out.
const UNSUPPORTED: &[&str] = &[];
