//! `pt`'s core (input, field paths, transforms, patches) on whole inputs: each
//! `tests/fixtures/pt/core/<case>.json` holds a `pt.fn.crossplane.io/v1beta1` input, the
//! observed XR, observed composed resources and environment, and what applying every
//! environment patch, then every resource's patches (patch sets resolved) must leave: the
//! desired resources, the desired XR, the environment and each failed patch's message.
//!
//! The runner applies patches as fn.go orders them but decides nothing about policies (a
//! failed patch is recorded and skipped): that is `RunFunction`'s part. As in the function,
//! the observed objects and the environment hold every number as a float64 (the SDK reads
//! them from protobuf `Struct`s), while a base template keeps its int64s (JSON decoded).

use fnhcl::pt::transforms::std_json_value;
use fnhcl::pt::{input, patches};
use serde_json::{Map, Value, json};
use std::path::PathBuf;

fn cases() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pt/core");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    cases.sort();
    cases
}

/// Runs one case: the state after every patch.
fn run(case: &Value) -> Value {
    let resources = input::decode(&case["input"]).expect("input decodes");
    let oxr = &std_json_value(&case["xr"]);
    let observed = std_json_value(&case["observed"]);
    let mut dxr = json!({"apiVersion": oxr["apiVersion"], "kind": oxr["kind"]});
    let mut env = std_json_value(case.get("environment").unwrap_or(&json!({})));
    let mut errors = Vec::new();
    if let Some(e) = &resources.environment {
        for (i, p) in e.patches.iter().enumerate() {
            if let Err(err) = patches::apply_environment_patch(p, &mut env, oxr, &mut dxr) {
                errors.push(format!("environment patch {i}: {err}"));
            }
        }
    }
    let mut desired = Map::new();
    match patches::composed_templates(&resources.patch_sets, &resources.resources) {
        Err(e) => errors.push(e),
        Ok(templates) => {
            for t in templates {
                let mut dcd = t.base.value().cloned().unwrap_or_else(|| json!({}));
                let ocd = observed.get(&t.name);
                for (i, p) in t.patches.iter().enumerate() {
                    if let Err(err) =
                        patches::apply_composed_patch(p, ocd, &mut dcd, oxr, &mut dxr, &mut env)
                    {
                        let kind = if err.is_not_found() {
                            "not found"
                        } else {
                            "error"
                        };
                        errors.push(format!("{} patch {i} ({kind}): {err}", t.name));
                    }
                }
                desired.insert(t.name.clone(), dcd);
            }
        }
    }
    json!({"resources": desired, "xr": dxr, "environment": env, "errors": errors})
}

#[test]
fn core_cases() {
    let cases = cases();
    assert!(!cases.is_empty(), "no cases in tests/fixtures/pt/core");
    let mut failed = Vec::new();
    for path in cases {
        let text = std::fs::read_to_string(&path).unwrap();
        let case: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let got = run(&case);
        if got != case["want"] {
            failed.push(format!(
                "{}:\n  got:  {}\n  want: {}",
                path.display(),
                serde_json::to_string(&got).unwrap(),
                serde_json::to_string(&case["want"]).unwrap()
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
