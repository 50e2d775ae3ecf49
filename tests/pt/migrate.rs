//! crossplane-migrator's converter_test.go, ported as data: each case folder under
//! `tests/fixtures/pt/migrate/` names the piece it converts (`unit`), its `input.json`, and
//! `expected.json` (or the `error` text); `SOURCE` names the Go test and row.

use fnhcl::pt::migrate;
use serde_json::Value;
use std::path::Path;

/// Runs one case's piece of the converter over its input.
fn run(unit: &str, input: &Value) -> Result<Value, String> {
    Ok(match unit {
        "composition" => return migrate::convert(input, None),
        "input" => migrate::function_input(&migrate::Input {
            patch_sets: list(input, "patchSets"),
            environment_patches: input
                .pointer("/environment/patches")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            resources: list(input, "resources"),
        }),
        "patch-set" => migrate::patch_set(input),
        "patch" | "environment-patch" => migrate::patch(input),
        "transform" => migrate::transform(input),
        "connection-detail" => migrate::connection_detail(input),
        "resource" => {
            let index = input["index"]
                .as_u64()
                .expect("a resource case has an index");
            migrate::resource(index as usize, &input["template"])
        }
        other => panic!("unknown unit {other}"),
    })
}

fn list(value: &Value, key: &str) -> Vec<Value> {
    value[key].as_array().cloned().unwrap_or_default()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn converter_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pt/migrate");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("the migrate fixtures")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in &dirs {
        let unit = read(&dir.join("unit"));
        let input: Value = serde_json::from_str(&read(&dir.join("input.json"))).expect("json");
        let got = run(unit.trim(), &input);
        let want = if dir.join("error").exists() {
            Err(read(&dir.join("error")).trim_end().to_string())
        } else {
            Ok(serde_json::from_str::<Value>(&read(&dir.join("expected.json"))).expect("json"))
        };
        if got != want {
            failures.push(format!(
                "{}:\n  want {want:?}\n  got  {got:?}",
                dir.display()
            ));
        }
    }
    assert!(dirs.len() >= 20, "the fixtures are missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
