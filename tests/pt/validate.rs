//! function-patch-and-transform's validate_test.go, ported as data: each case folder under
//! `tests/fixtures/pt/validate/` holds a whole input (`input.json`) whose first element of the
//! kind named by `unit` is validated alone (`resources`: the whole input, as
//! `ValidateResources`), and `expected.json`: `null`, or the error's type, field and message.

use fnhcl::pt::{input, validate};
use serde_json::{Value, json};
use std::path::Path;

/// Validates the case's unit, as the Go test calls the one validator.
fn run(unit: &str, r: &input::Resources) -> Result<(), validate::FieldError> {
    let template = r.resources.first();
    let patch = template.and_then(|t| t.patches.first());
    match unit {
        "resources" => validate::resources(r),
        "readiness-check" => {
            validate::readiness_check(&template.expect("a template").readiness_checks[0])
        }
        "connection-detail" => {
            validate::connection_detail(&template.expect("a template").connection_details[0])
        }
        "patch" => {
            let p = patch.expect("a patch");
            validate::validate_patch(&validate::PatchView {
                go_type: "*v1beta1.ComposedPatch",
                type_: p.patch_type(),
                patch_set_name: Some(p.patch_set_name()),
                patch: &p.patch,
            })
        }
        "combine" => validate::combine(
            patch
                .and_then(|p| p.patch.combine.as_ref())
                .expect("a combine"),
        ),
        "transform" => validate::transform(&patch.expect("a patch").patch.transforms[0]),
        other => panic!("unknown unit {other}"),
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn validate_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pt/validate");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("the validate fixtures")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    dirs.sort();
    let mut failures = Vec::new();
    for dir in &dirs {
        let unit = read(&dir.join("unit"));
        let raw: Value = serde_json::from_str(&read(&dir.join("input.json"))).expect("json");
        let resources = input::decode(&raw).expect("the case's input decodes");
        let got = match run(unit.trim(), &resources) {
            Ok(()) => Value::Null,
            Err(e) => json!({
                "type": match e.kind {
                    validate::ErrorType::Required => "Required",
                    validate::ErrorType::Invalid => "Invalid",
                },
                "field": e.field,
                "message": e.to_string(),
            }),
        };
        let want: Value = serde_json::from_str(&read(&dir.join("expected.json"))).expect("json");
        if got != want {
            failures.push(format!("{}:\n  want {want}\n  got  {got}", dir.display()));
        }
    }
    assert!(dirs.len() >= 50, "the fixtures are missing");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
