//! `.fnhcl.toml` mistakes: every one of a file at once, in source order, each with a "did you
//! mean" when a close key, rule or level exists (and `--explain` of a misspelt rule). Snapshot
//! `check_bad_config_all`.

use super::{fnhcl, run, text, transcript};

/// `snapshot!` of `tests/cli.rs`, from this folder one deeper.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

#[test]
fn every_config_mistake_is_reported_at_once_in_source_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.hcl"), "locals {\n  spare = 1\n}\n").unwrap();
    std::fs::write(
        dir.path().join(".fnhcl.toml"),
        r#"exlude = ["vendor/**"]

[rules]
unused-locals = "off"
unformatted = "of"
syntax-error = "off"
zzz = "warning"

[example]
xr = "x.yaml"
observe = "o.yaml"
"#,
    )
    .unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "-q", "."]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    snapshot!("check_bad_config_all", text(&out.stderr));
}

#[test]
fn a_misspelt_rule_name_is_suggested_by_explain_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "--explain", "unused-locals"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no rule or code is called `unused-locals`")
            && stderr.contains("did you mean `unused-local`?"),
        "{stderr}"
    );
}
