//! `fnhcl render --show-discarded`: the summary of the blocks function-hcl discarded or
//! deferred, for people (stderr, after the documents) and as I023 notes in `--format json`;
//! in both dialects and with `--hcl`. Snapshots `render_discarded_*`.

use super::{examples, fnhcl, run, text, transcript, write};
use std::path::Path;

/// `snapshot!` of `tests/cli.rs`, from this folder one deeper.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

const XR: &str = "apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\nspec: {}\n";

/// Every way a block goes missing on a first render: a false condition (a resource's and a
/// collection's), a body reading the XR's status through a local, a context key and an
/// observed resource that are not there, and a composite status deferred until its resource
/// is observed.
const MAIN: &str = r#"locals {
  xr      = req.composite
  enabled = try(xr.spec.enabled, false)
  ready   = req.composite.status.ready
}

resource cache {
  condition = enabled
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }
}

resource db {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { ready = ready }
  }
}

resource settings {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { env = req.context.env }
  }
}

resource app {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    data       = { dbHost = req.resource.db.status.host }
  }
}

resource web {
  body = {
    apiVersion = "v1"
    kind       = "ConfigMap"
  }

  composite status {
    body = {
      url = self.resource.status.url
    }
  }
}

resources worker {
  condition = length(xr.metadata.name) > 100
  for_each  = ["a", "b"]
  template {
    body = {
      apiVersion = "v1"
      kind       = "ConfigMap"
    }
  }
}
"#;

fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", XR);
    write(dir.path(), "main.hcl", MAIN);
    dir
}

fn render(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut cmd = fnhcl(dir);
    cmd.args(["render", "--color", "never", "xr.yaml", "."])
        .args(extra);
    run(&mut cmd)
}

#[test]
fn a_first_render_of_a_collection_says_which_input_is_missing() {
    let ex = examples().join("subnets-collection");
    let out = render(&ex, &["--show-discarded"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("render_discarded_collection", transcript(&out));
    // The classic dialect and the Composition's inline bundle give the same summary (the
    // bundle's files are named as in the bundle).
    let classic = render(&ex, &["--show-discarded", "--crossplane-version", "2.2"]);
    assert_eq!(text(&classic.stderr), text(&out.stderr));
    let inline = run(fnhcl(&ex).args([
        "render",
        "xr.yaml",
        "composition-pipeline.yaml",
        "--show-discarded",
    ]));
    assert_eq!(text(&inline.stderr), text(&out.stderr));
    // With the required VPC given, nothing is missing.
    let given = render(&ex, &["--show-discarded", "-e", "extra-resources.yaml"]);
    assert_eq!(given.status.code(), Some(0), "{}", transcript(&given));
    assert_eq!(text(&given.stderr), "discarded: no block was discarded\n");
}

#[test]
fn hcl_dir_names_the_files_of_the_directory() {
    let ex = examples().join("subnets-collection");
    let out = run(fnhcl(&ex).args([
        "render",
        "xr.yaml",
        "composition-pipeline.yaml",
        "--hcl",
        ".",
        "--explain-missing",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("render_discarded_hcl_dir", text(&out.stderr));
}

#[test]
fn every_kind_of_missing_block_is_explained() {
    let dir = project();
    let out = render(dir.path(), &["--show-discarded"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("render_discarded_kinds", transcript(&out));
    // The summary replaces the E402 warnings; `-q` keeps it (it was asked for).
    assert!(!text(&out.stderr).contains("E402"));
    let quiet = render(dir.path(), &["--show-discarded", "-q"]);
    assert_eq!(text(&quiet.stderr), text(&out.stderr));
    // Without the flag, the warnings as before and no summary.
    let plain = render(dir.path(), &[]);
    assert!(text(&plain.stderr).contains("E402"));
    assert!(!text(&plain.stderr).contains("discarded in step"));
    let classic = render(
        dir.path(),
        &["--show-discarded", "--crossplane-version", "2.2"],
    );
    assert_eq!(text(&classic.stderr), text(&out.stderr));
}

#[test]
fn json_gives_one_note_per_block_at_the_unknown_expression() {
    let dir = project();
    let out = render(dir.path(), &["--show-discarded", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("render_discarded_json", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    let notes = json["diagnostics"].as_array().unwrap();
    assert!(notes.iter().all(|d| d["code"] == "I023"));
    assert_eq!(json["summary"]["warnings"], 0);
}

#[test]
fn a_render_that_composes_some_resources_does_not_say_none() {
    let dir = project();
    write(
        dir.path(),
        "more.hcl",
        "resource plain {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n  }\n}\n",
    );
    let out = render(dir.path(), &["--show-discarded"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(!text(&out.stderr).contains("no composed resources"));
    assert!(text(&out.stderr).contains("resource db: not known yet"));
}

/// A body that reads a local whose XR field is missing (issue 32 item 2): the warning points
/// at the body's `region` and labels the local's `xr.spec.region` with what the XR lacks; the
/// help names the field, not "the XR file" that was given.
#[test]
fn a_local_reading_a_missing_xr_field_is_shown_with_the_field() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "main.hcl",
        r#"locals {
  xr     = req.composite
  region = xr.spec.region
}

resource bucket {
  body = {
    apiVersion = "s3.aws.upbound.io/v1beta1"
    kind       = "Bucket"
    spec = {
      forProvider = {
        region = region
      }
    }
  }
}
"#,
    );
    write(dir.path(), "xr.yaml", XR);
    let out = run(fnhcl(dir.path()).args(["--color", "never", "render", "xr.yaml", "."]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("reads the XR's `spec.region`, which the XR does not have"),
        "{stderr}"
    );
    snapshot!("render_discarded_local_missing_field", stderr);
}
