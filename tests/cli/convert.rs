//! `fnhcl convert` (issue 33): the new Composition on standard output, `-o DIR`'s files, and a
//! Composition with nothing to convert. Snapshots `convert_*`.

use super::{fnhcl, run, transcript};
use std::path::Path;

/// `snapshot!` of `tests/cli.rs`, from this folder one deeper.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

fn fixture(case: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/convert")
        .join(case)
}

#[test]
fn convert_prints_the_new_composition() {
    let dir = fixture("pt-example");
    let out = run(fnhcl(&dir).args(["convert", "composition.yaml"]));
    snapshot!("convert_stdout", transcript(&out));
}

#[test]
fn convert_writes_a_folder_and_warns_about_todos() {
    let out_dir = tempfile::tempdir().unwrap();
    let composition = fixture("network").join("composition.yaml");
    let out = run(fnhcl(out_dir.path()).args([
        "convert",
        &composition.display().to_string(),
        "-o",
        "out",
    ]));
    let text = transcript(&out).replace(&composition.display().to_string(), "composition.yaml");
    snapshot!("convert_out_dir", text);
    let mut written: Vec<String> = walk(&out_dir.path().join("out"));
    written.sort();
    assert_eq!(
        written,
        [
            "composition.yaml",
            "patch-and-transform/composition.yaml",
            "patch-and-transform/main.hcl"
        ]
    );
}

#[test]
fn a_composition_without_pt_steps_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.yaml"),
        "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\nspec:\n  mode: Pipeline\n  pipeline:\n  - step: hcl\n    functionRef:\n      name: function-hcl\n    input:\n      apiVersion: hcl.fn.crossplane.io/v1beta1\n      kind: HclInput\n      hcl: \"\"\n",
    )
    .unwrap();
    let out = run(fnhcl(dir.path()).args(["convert", "c.yaml"]));
    snapshot!("convert_nothing", transcript(&out));
}

#[test]
fn convert_verify_equal_exits_0() {
    let dir = fixture("pt-example");
    let out = run(fnhcl(&dir).args(["convert", "composition.yaml", "--verify", "xr.yaml"]));
    snapshot!("convert_verify_equal", transcript(&out));
}

#[test]
fn convert_verify_prints_the_differences_and_exits_1() {
    let dir = fixture("network");
    let out = run(fnhcl(&dir).args([
        "convert",
        "composition.yaml",
        "--verify",
        "xr.yaml",
        "--observed-resources",
        "observed.yaml",
    ]));
    snapshot!("convert_verify_differs", transcript(&out));
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            out.extend(walk(&path).into_iter().map(|p| format!("{name}/{p}")));
        } else {
            out.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    out
}
