//! function-patch-and-transform's connection_test.go, ported as data: each case folder under
//! `tests/fixtures/pt/connection/` holds one call (`case.json`: `extract`, `secret` (the
//! reference of the connection Secret, as `getConnectionSecretRef` makes it) or `supports`) and its outcome (`expected.json`).

use base64::Engine;
use fnhcl::pt::{connection, function, input};
use serde_json::{Value, json};
use std::path::Path;

fn read(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The outcome of one case's call.
fn run(case: &Value) -> Value {
    if let Some(c) = case.get("extract") {
        let wrapped = json!({"resources": [{"name": "r", "connectionDetails": c["details"]}]});
        let resources = input::decode(&wrapped).expect("the details decode");
        let engine = &base64::engine::general_purpose::STANDARD;
        let data: connection::Details = c["data"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| {
                        (
                            k.clone(),
                            engine.decode(v.as_str().unwrap_or("")).unwrap_or_default(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        return match connection::extract(
            &c["object"],
            &data,
            &resources.resources[0].connection_details,
        ) {
            Ok(details) => {
                let text: serde_json::Map<String, Value> = details
                    .into_iter()
                    .map(|(k, v)| (k, Value::String(String::from_utf8_lossy(&v).into_owned())))
                    .collect();
                json!({"details": text})
            }
            Err(e) => json!({"error": e}),
        };
    }
    if let Some(c) = case.get("secret") {
        let mut wrapped = json!({"resources": [{"name": "r"}]});
        if let Some(r) = c.get("writeConnectionSecretToRef") {
            wrapped["writeConnectionSecretToRef"] = r.clone();
        }
        let resources = input::decode(&wrapped).expect("the reference decodes");
        let details = connection::Details::from([("k".to_string(), b"v".to_vec())]);
        return match function::connection_secret(&c["xr"], &details, &resources) {
            Ok(Some(s)) => json!({
                "name": s.pointer("/metadata/name").cloned().unwrap_or(json!("")),
                "namespace": s.pointer("/metadata/namespace").cloned().unwrap_or(json!("")),
            }),
            Ok(None) => json!(null),
            Err(e) => json!({"error": e}),
        };
    }
    let xr = &case["supports"]["xr"];
    json!({"supports": connection::supports_connection_details(xr)})
}

#[test]
fn connection_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pt/connection");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("the connection fixtures")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in &dirs {
        let got = run(&read(&dir.join("case.json")));
        let want = read(&dir.join("expected.json"));
        if got != want {
            failures.push(format!("{}:\n  want {want}\n  got  {got}", dir.display()));
        }
    }
    assert!(dirs.len() >= 13, "the fixtures are missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
