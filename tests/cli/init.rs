//! `fnhcl init` (issue 32): the new folder checks, renders and tests green at once, with or
//! without `--from-xrd`; existing files are listed and kept unless `--force`; nothing is
//! written through a symbolic link. Snapshots `init_*`.

use super::{fnhcl, run, text, transcript, write};
use std::path::Path;

/// `snapshot!` of `tests/cli.rs`, from this folder one deeper.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

const XRD: &str = "apiVersion: apiextensions.crossplane.io/v1
kind: CompositeResourceDefinition
metadata:
  name: xnetworks.net.example.org
spec:
  group: net.example.org
  names:
    kind: XNetwork
    plural: xnetworks
  versions:
  - name: v1alpha1
    served: true
    referenceable: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [region, zones, cidr]
            properties:
              region: {type: string}
              zones: {type: array, items: {type: string}}
              cidr:
                type: object
                required: [prefix]
                properties:
                  prefix: {type: integer, minimum: 16}
              tier: {type: string, enum: [small, large]}
          status:
            type: object
            properties:
              vpcId: {type: string}
              subnetCount: {type: integer}
";

/// `check`, `render` and `test` of the new folder all exit 0.
fn assert_green(dir: &Path, name: &str) {
    let green = |args: &[&str]| {
        let out = run(fnhcl(dir).args(args));
        assert_eq!(out.status.code(), Some(0), "{args:?}\n{}", transcript(&out));
        out
    };
    let check = green(&["check", name]);
    assert!(
        text(&check.stderr).contains("0 errors, 0 warnings"),
        "{}",
        transcript(&check)
    );
    let xr = format!("{name}/xr.yaml");
    let composition = format!("{name}/composition-pipeline.yaml");
    green(&["render", &xr, &composition]);
    green(&["render", &xr, name]);
    let test = green(&["test", name]);
    assert!(
        text(&test.stdout).contains("2 passed, 0 failed"),
        "{}",
        transcript(&test)
    );
    green(&["package", name, "--into", &composition, "--check"]);
}

#[test]
fn a_new_folder_is_green_at_once_and_kept_from_a_second_init() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(fnhcl(dir.path()).args(["init", "demo"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("init_created", transcript(&out));
    assert_green(dir.path(), "demo");
    snapshot!(
        "init_main_hcl",
        std::fs::read_to_string(dir.path().join("demo/main.hcl")).unwrap()
    );

    write(&dir.path().join("demo"), "main.hcl", "# mine\n");
    let again = run(fnhcl(dir.path()).args(["init", "demo"]));
    assert_eq!(again.status.code(), Some(2));
    snapshot!("init_refused", transcript(&again));
    let kept = std::fs::read_to_string(dir.path().join("demo/main.hcl")).unwrap();
    assert_eq!(kept, "# mine\n");

    let forced = run(fnhcl(dir.path()).args(["init", "demo", "--force"]));
    assert_eq!(forced.status.code(), Some(0), "{}", transcript(&forced));
    assert_green(dir.path(), "demo");
}

#[test]
fn from_an_xrd_the_xr_type_status_and_required_fields_come_from_it() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xrd.yaml", XRD);
    let out = run(fnhcl(dir.path()).args(["init", "net", "--from-xrd", "xrd.yaml"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_green(dir.path(), "net");
    let read = |name: &str| std::fs::read_to_string(dir.path().join("net").join(name)).unwrap();
    snapshot!("init_from_xrd_xr", read("xr.yaml"));
    snapshot!("init_from_xrd_main_hcl", read("main.hcl"));
    assert!(
        read("composition-pipeline.yaml")
            .contains("apiVersion: net.example.org/v1alpha1\n    kind: XNetwork")
    );

    write(
        dir.path(),
        "not-an-xrd.yaml",
        "apiVersion: v1\nkind: ConfigMap\n",
    );
    let bad = run(fnhcl(dir.path()).args(["init", "other", "--from-xrd", "not-an-xrd.yaml"]));
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("is not an XRD"),
        "{}",
        transcript(&bad)
    );
}

#[cfg(unix)]
#[test]
fn nothing_is_written_through_a_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let (project, elsewhere) = (dir.path().join("p"), dir.path().join("elsewhere"));
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, project.join("tests")).unwrap();
    let out = run(fnhcl(dir.path()).args(["init", "p", "--force"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(text(&out.stderr).contains("I016"), "{}", transcript(&out));
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert!(!project.join("main.hcl").exists(), "nothing is written");
}
