//! `fnhcl check` of patch-and-transform Compositions (issue 33 item 4): a pipeline step's
//! input and a legacy `mode: Resources` spec, every problem at its YAML node, field paths
//! against the XRD and the composed resources' CRDs. Snapshots `pt_check_*`.

use super::{data, fnhcl, run, text, transcript};

/// `snapshot!` of `tests/cli.rs`, from this folder one deeper.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// A pipeline step's input: a path the XRD lacks (P903), a path that does not parse (P902),
/// unknown transform and readiness types with the known ones (P901), a missing field at the
/// patch, and a path the composed resource's CRD lacks (P904); schemas from `.crds/`.
#[test]
fn a_pipeline_steps_input_is_checked_at_each_node() {
    let dir = data("pt-check/pipeline");
    let out = run(fnhcl(&dir).args(["--color", "never", "check", "composition.yaml"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("pt_check_pipeline", transcript(&out));
    let json = run(fnhcl(&dir).args(["--format", "json", "check", "composition.yaml"]));
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let codes: Vec<&str> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in ["P901", "P902", "P903", "P904"] {
        assert!(codes.contains(&code), "{codes:?}");
    }
}

/// A legacy Composition is checked as crossplane-migrator would turn it into a step's input,
/// at its own nodes; a folder holding only patch-and-transform Compositions is checked (not
/// "no function-hcl files").
#[test]
fn a_legacy_composition_in_a_folder_is_checked() {
    let dir = data("pt-check");
    let out = run(fnhcl(&dir).args(["--color", "never", "check", "legacy"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("pt_check_legacy", transcript(&out));
}

/// Every code explains itself.
#[test]
fn the_codes_explain_themselves() {
    for code in ["P901", "P902", "P903", "P904"] {
        let out = run(fnhcl(&data("pt-check")).args(["check", "--explain", code]));
        assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
        assert!(text(&out.stdout).contains(code), "{}", transcript(&out));
    }
}
