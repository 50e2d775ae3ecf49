//! A stale inline bundle (issue 32): `check` on a Composition (or its folder) whose
//! function-hcl step no longer holds what the folder's `.hcl` files say, and
//! `package --check`, which exits 1 for it and writes nothing. Snapshots `stale_*`.

use super::{fnhcl, run, transcript, write};
use std::path::Path;

/// `snapshot!` of `tests/cli.rs`, from this folder one deeper.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

const SKELETON: &str = "apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: bucket
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XBucket
  mode: Pipeline
  pipeline:
  - step: hcl
    functionRef:
      name: function-hcl
    input:
      apiVersion: hcl.fn.crossplane.io/v1beta1
      kind: HclInput
      hcl: \"\"
";

fn main_hcl(region: &str) -> String {
    format!(
        "resource \"bucket\" {{\n  body = {{\n    apiVersion = \"s3.aws.upbound.io/v1beta1\"\n    kind       = \"Bucket\"\n    spec       = {{ forProvider = {{ region = \"{region}\" }} }}\n  }}\n}}\n"
    )
}

fn package(dir: &Path, extra: &[&str]) -> std::process::Output {
    run(fnhcl(dir)
        .args(["package", ".", "--into", "composition-pipeline.yaml"])
        .args(extra))
}

#[test]
fn an_edited_folder_makes_the_bundle_stale_until_packaged_again() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", &main_hcl("eu-west-1"));
    write(dir.path(), "composition-pipeline.yaml", SKELETON);
    // The skeleton's empty `hcl` is stale, and `--check` leaves it so.
    assert_eq!(package(dir.path(), &["--check"]).status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("composition-pipeline.yaml")).unwrap(),
        SKELETON
    );
    assert_eq!(package(dir.path(), &[]).status.code(), Some(0));
    let fresh = package(dir.path(), &["--check"]);
    assert_eq!(fresh.status.code(), Some(0), "{}", transcript(&fresh));

    write(dir.path(), "main.hcl", &main_hcl("us-east-1"));
    write(dir.path(), "extra.hcl", "locals {\n  x = 1\n}\n");
    let before = std::fs::read(dir.path().join("composition-pipeline.yaml")).unwrap();
    let stale = package(dir.path(), &["--check"]);
    assert_eq!(stale.status.code(), Some(1));
    snapshot!("stale_package_check", transcript(&stale));
    assert_eq!(
        std::fs::read(dir.path().join("composition-pipeline.yaml")).unwrap(),
        before
    );
    let check = run(fnhcl(dir.path()).args(["check", "composition-pipeline.yaml"]));
    assert_eq!(check.status.code(), Some(1));
    snapshot!("stale_check_composition", transcript(&check));
    let folder = run(fnhcl(dir.path()).args(["check", "."]));
    assert_eq!(folder.status.code(), Some(1), "{}", transcript(&folder));

    assert_eq!(package(dir.path(), &[]).status.code(), Some(0));
    let clean = run(fnhcl(dir.path()).args(["check", "."]));
    assert_eq!(clean.status.code(), Some(0), "{}", transcript(&clean));
}
