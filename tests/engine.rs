//! The engine dialect (`--crossplane-version` 2.3 and later): the worked examples of
//! tests/data/engine rendered by the CLI, byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn data(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/engine")
        .join(case)
}

fn fnhcl(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(dir)
        .env("COLUMNS", "100")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .args(args)
        .output()
        .expect("fnhcl runs")
}

/// A cluster-scoped XR with function-hcl natively: real child names from the deterministic
/// UID, `spec.crossplane.resourceRefs`, the reconciler's conditions and events.
#[test]
fn a_cluster_scoped_xr_renders_as_the_engine_renders_it() {
    let dir = data("cluster");
    let out = fnhcl(
        &dir,
        &[
            "render",
            "xr.yaml",
            "composition.yaml",
            "--crossplane-version",
            "2.5",
            "-r",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = std::fs::read_to_string(dir.join("expected.engine.yaml")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    // The command as the Crossplane CLI names it.
    let alias = fnhcl(
        &dir,
        &[
            "composition",
            "render",
            "xr.yaml",
            "composition.yaml",
            "--crossplane-version",
            "2.5",
            "-r",
        ],
    );
    assert_eq!(alias.stdout, out.stdout);
    // The classic dialect of the same inputs is unchanged.
    let classic = fnhcl(
        &dir,
        &[
            "render",
            "xr.yaml",
            "composition.yaml",
            "-r",
            "--crossplane-version",
            "2.2",
        ],
    );
    let text = String::from_utf8_lossy(&classic.stdout);
    assert!(
        text.contains("uid: \"\"") && text.contains("step: run-hcl"),
        "{text}"
    );
}

/// A fatal result: nothing on stdout, the CLI's wrapping of the engine's message, exit 1.
#[test]
fn a_fatal_result_is_reported_as_the_cli_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data("cluster/xr.yaml"), dir.path().join("xr.yaml")).unwrap();
    let composition = std::fs::read_to_string(data("cluster/composition.yaml"))
        .unwrap()
        .replace(
            "-- main.hcl --",
            "-- main.hcl --\n        resource broken {\n          body = 42\n        }",
        );
    std::fs::write(dir.path().join("composition.yaml"), composition).unwrap();
    let out = fnhcl(
        dir.path(),
        &[
            "render",
            "xr.yaml",
            "composition.yaml",
            "--crossplane-version",
            "2.5",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let detailed = fnhcl(
        dir.path(),
        &[
            "render",
            "xr.yaml",
            "composition.yaml",
            "--crossplane-version",
            "2.5",
            "--detailed-exit-code",
        ],
    );
    assert_eq!(
        detailed.status.code(),
        Some(3),
        "--detailed-exit-code: 3 for a fatal result"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    // Crossplane's line, word for word, for scripts (issue 31) ...
    let upstream = report["diagnostics"][0]["upstream"].as_str().unwrap();
    assert!(
        upstream.starts_with("crossplane: error: cannot render composite resource: crossplane internal render in Docker: pipeline returned fatal: crossplane: error: cannot render composite resource: cannot compose resources: pipeline step \"run-hcl\" returned a fatal result: "),
        "{upstream}"
    );
    // ... and for people the function's message at its source, without Docker.
    let summary = report["diagnostics"][0]["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("pipeline step \"run-hcl\" returned a fatal result: ")
            && !summary.contains("Docker"),
        "{summary}"
    );
    assert!(report["diagnostics"][0]["line"].is_number(), "{report}");
}

/// `--crossplane-version` takes patch versions (the engine release, as the CLI's flag names
/// the Crossplane image): an XR without a UID, XRD or observed resources renders alike in
/// every engine release; an XR with its own UID shows engine 2.3.4's fix (crossplane commit
/// 0f17fa855): the composed resource's name follows the XR's UID only from 2.3.4.
#[test]
fn patch_versions_pick_the_engine_release() {
    let dir = data("cluster");
    let expected = std::fs::read_to_string(dir.join("expected.engine.yaml")).unwrap();
    for version in ["2.3.0", "v2.3.2", "2.3.4", "2.4.0-rc.0", "2.6"] {
        let out = fnhcl(
            &dir,
            &[
                "render",
                "xr.yaml",
                "composition.yaml",
                "-r",
                "--crossplane-version",
                version,
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{version}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{version}");
    }
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        dir.join("composition.yaml"),
        tmp.path().join("composition.yaml"),
    )
    .unwrap();
    let xr = std::fs::read_to_string(dir.join("xr.yaml"))
        .unwrap()
        .replace(
            "  name: my-app\n",
            "  name: my-app\n  uid: 0b8c1f2e-1111-4222-8333-444455556666\n",
        );
    std::fs::write(tmp.path().join("xr.yaml"), xr).unwrap();
    let render = |version: &str| {
        let out = fnhcl(
            tmp.path(),
            &[
                "render",
                "xr.yaml",
                "composition.yaml",
                "--crossplane-version",
                version,
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{version}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (before, after) = (render("2.3.3"), render("2.3.4"));
    assert_eq!(before, render("2.3.0"));
    assert_eq!(after, render("2.5"));
    assert_ne!(before, after);
    assert!(
        after.contains("uid: 0b8c1f2e-1111-4222-8333-444455556666"),
        "{after}"
    );
    assert!(!before.contains("0b8c1f2e"), "{before}");
    let bad = fnhcl(
        &dir,
        &[
            "render",
            "xr.yaml",
            "composition.yaml",
            "--crossplane-version",
            "2.3.x",
        ],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("`2.3.x` is not a Crossplane version"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
