//! function-patch-and-transform's ready_test.go, ported as data: each case folder under
//! `tests/fixtures/pt/ready/` holds the observed object and its checks (`case.json`) and
//! whether it is ready, or the error (`expected.json`).

use fnhcl::pt::{input, ready};
use serde_json::{Value, json};
use std::path::Path;

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn readiness_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pt/ready");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("the ready fixtures")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in &dirs {
        let case = read(&dir.join("case.json"));
        // The checks decode as the function decodes its input.
        let wrapped = json!({"resources": [{"name": "r", "readinessChecks": case["checks"]}]});
        let resources = input::decode(&wrapped).expect("the checks decode");
        let checks = &resources.resources[0].readiness_checks;
        let got = match ready::is_ready(&case["object"], checks) {
            Ok(ready) => json!({"ready": ready, "error": null}),
            Err(e) => json!({"ready": false, "error": e}),
        };
        let want = read(&dir.join("expected.json"));
        if got != want {
            failures.push(format!("{}:\n  want {want}\n  got  {got}", dir.display()));
        }
    }
    assert!(dirs.len() >= 20, "the fixtures are missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
