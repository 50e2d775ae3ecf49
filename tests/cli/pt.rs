//! function-patch-and-transform natively (issue 33): `function run` answers a request whose
//! input is a `Resources` as the function does.

use super::{fnhcl, run, transcript, write};
use std::path::Path;

fn fixtures(rest: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rest)
}

#[test]
fn function_run_answers_a_patch_and_transform_request() {
    // fn_test.go's request, its input named as a Composition names it (which is how
    // `function run` tells the function apart).
    let case = fixtures("pt/fn/PatchBaseTemplate");
    let mut request: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(case.join("request.json")).expect("request.json"),
    )
    .expect("JSON");
    request["input"]["apiVersion"] = "pt.fn.crossplane.io/v1beta1".into();
    request["input"]["kind"] = "Resources".into();
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "request.json", &request.to_string());
    let out = run(fnhcl(dir.path()).args(["function", "run", "--request", "request.json"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(case.join("expected.json")).expect("expected.json"),
    )
    .expect("JSON");
    assert_eq!(got, want);
}
