//! cel-spec's conformance tests for these libraries
//! (`tests/simple/testdata/{string_ext,optionals}.textproto`), converted to
//! `testdata/*.jsonl` (expected values written as CEL expressions; tests needing protobuf
//! messages, containers or bindings left out), run as parsed and as checked programs.

use super::{check, run};
use crate::cel::value::Value;

/// Tests whose expected results are not what the API server gives, and why.
const SKIPS: &[(&str, &str)] = &[
    (
        "string_ext/format/scientific notation formatting clause",
        V4,
    ),
    (
        "string_ext/format/default precision for fixed-point clause with int",
        V4,
    ),
    (
        "string_ext/format/default precision for fixed-point clause with uint",
        V4,
    ),
    (
        "string_ext/format/default precision for scientific notation",
        V4,
    ),
    ("string_ext/format/NaN support for scientific notation", V4),
    (
        "string_ext/format/positive infinity support for scientific notation",
        V4,
    ),
    (
        "string_ext/format/negative infinity support for scientific notation",
        V4,
    ),
    ("string_ext/format/NaN support for decimal", V4),
    (
        "string_ext/format/positive infinity support for decimal",
        V4,
    ),
    (
        "string_ext/format/negative infinity support for decimal",
        V4,
    ),
    (
        "string_ext/format/positive infinity support for fixed-point",
        V4,
    ),
    (
        "string_ext/format/negative infinity support for fixed-point",
        V4,
    ),
    ("string_ext/format/list support for string", V4),
    ("string_ext/format/map support for string", V4),
    ("string_ext/format/map support (all key types)", V4),
    (
        "string_ext/format/dyntype support for scientific notation",
        V4,
    ),
    ("string_ext/format/dyntype NaN/infinity support", V4),
    ("string_ext/format/dyntype support for lists", V4),
    ("string_ext/format/dyntype support for maps", V4),
    ("string_ext/format_errors/object", "protobuf messages"),
    ("string_ext/reverse", "string reverse() is version 3's"),
    (
        "string_ext/value_errors/indexof_out_of_range",
        "cel-go v0.26 gives -1 (ext/strings_test.go: 'tacocat'.indexOf('a', 30) == -1)",
    ),
    (
        "string_ext/value_errors/lastindexof_out_of_range",
        "cel-go v0.26 gives -1 (ext/strings_test.go: 'tacocat'.lastIndexOf('a', 30) == -1)",
    ),
    (
        "optionals/optionals/map_null_entry_no_such_key",
        "interpreter: a plain field selection on optional.of(null) (cel-interp's)",
    ),
    (
        "optionals/optionals/map_present_key_invalid_field",
        "interpreter: a plain field selection on optional.of(0) (cel-interp's)",
    ),
];

const V4: &str = "cel-spec's format is the strings library's version 4; the API server's version 2 formats as cel-go's version-1 formatter (ext/formatting_test.go)";

/// Same value and same type (CEL equality alone says `1 == 1u`).
fn same(a: &Value, b: &Value) -> bool {
    a.equals(b) && std::mem::discriminant(a) == std::mem::discriminant(b)
}

fn run_file(data: &str) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut passed = 0;
    for line in data.lines().filter(|l| l.starts_with('{')) {
        let case: serde_json::Value = serde_json::from_str(line).expect("test data is JSON");
        let name = case["name"].as_str().unwrap_or_default();
        if SKIPS.iter().any(|(n, _)| {
            name == *n || name.starts_with(&format!("{n} ")) || name.starts_with(&format!("{n}/"))
        }) {
            continue;
        }
        let expr = case["expr"].as_str().unwrap_or_default();
        let want = match case["want"].as_str().map(run) {
            Some(Ok(w)) => Some(w),
            Some(Err(e)) => {
                failures.push(format!("{name}: the expected value does not evaluate: {e}"));
                continue;
            }
            None => None,
        };
        let error = case["error"].as_str();
        let judge = |got: &Result<Value, crate::cel::value::Error>| match (&want, got) {
            (Some(w), Ok(g)) => same(g, w),
            (None, Err(e)) => error.is_none_or(|m| e.message.contains(m)),
            _ => false,
        };
        let parsed = run(expr);
        let mut ok = judge(&parsed);
        if !ok {
            failures.push(format!(
                "{name}: {expr}\n    want {want:?} / {error:?}, got {parsed:?}"
            ));
        }
        match check(expr) {
            Ok(got) if !judge(&got) => {
                ok = false;
                failures.push(format!("{name} (checked): {expr}\n    got {got:?}"));
            }
            Err(issues) if want.is_some() => {
                ok = false;
                failures.push(format!("{name}: does not type-check: {issues}"));
            }
            _ => {}
        }
        passed += usize::from(ok);
    }
    (passed, failures)
}

#[test]
fn cel_spec_string_ext() {
    let (passed, failures) = run_file(include_str!("../testdata/string_ext.jsonl"));
    assert!(passed >= 180, "{passed} passed");
    assert!(
        failures.is_empty(),
        "{passed} passed; failures:\n{}",
        failures.join("\n")
    );
}

#[test]
fn cel_spec_optionals() {
    let (passed, failures) = run_file(include_str!("../testdata/optionals.jsonl"));
    assert!(passed >= 57, "{passed} passed");
    assert!(
        failures.is_empty(),
        "{passed} passed; failures:\n{}",
        failures.join("\n")
    );
}
