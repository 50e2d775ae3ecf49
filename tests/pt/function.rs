//! function-patch-and-transform's fn_test.go (TestRunFunction), ported as data: each case
//! folder under `tests/fixtures/pt/fn/` holds the protobuf-JSON `request.json` and the whole
//! `expected.json` response the Go test wants; numbers compare as the protobuf doubles they are.

use fnhcl::eval::proto::{RunFunctionRequest, struct_numbers};
use fnhcl::pt::function;
use serde_json::Value;
use std::path::Path;

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn run_function_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pt/fn");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("the fn fixtures")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in &dirs {
        let request: RunFunctionRequest =
            serde_json::from_value(read(&dir.join("request.json"))).expect("a request");
        let response = function::run(&request);
        let got = struct_numbers(&serde_json::to_value(&response).expect("json"));
        let want = struct_numbers(&read(&dir.join("expected.json")));
        if got != want {
            failures.push(format!(
                "{}:\n  want {}\n  got  {}",
                dir.display(),
                serde_json::to_string(&want).unwrap_or_default(),
                serde_json::to_string(&got).unwrap_or_default()
            ));
        }
    }
    assert!(dirs.len() >= 24, "the fixtures are missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
