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
