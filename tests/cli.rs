//! CLI behaviour: exit codes, streams, colour, file safety, and insta snapshots of what users
//! see (in `snapshots/cli/`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// `fnhcl` in `dir` with a fixed, colourless environment.
fn fnhcl(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fnhcl"));
    cmd.current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .env("COLUMNS", "100")
        .stdin(Stdio::null());
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("fnhcl runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// exit code, stdout and stderr in one snapshot-friendly text.
fn transcript(out: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr)
    )
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

#[path = "cli/import.rs"]
mod import;

#[path = "cli/pt.rs"]
mod pt;

#[path = "cli/discarded.rs"]
mod discarded;

#[path = "cli/config.rs"]
mod config;

#[path = "cli/stale.rs"]
mod stale;

#[path = "cli/init.rs"]
mod init;

#[path = "cli/convert.rs"]
mod convert;
#[path = "cli/pt_check.rs"]
mod pt_check;

fn temp_with(files: &[(&str, &Path)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, source) in files {
        std::fs::copy(source, dir.path().join(name)).expect("copy fixture");
    }
    dir
}

#[test]
fn package_prints_the_bundle_of_an_example() {
    let out = run(fnhcl(&examples()).args(["package", "subnets-collection"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(out.stderr.is_empty());
    snapshot!("package_example", text(&out.stdout));
}

#[test]
fn into_edits_only_the_hcl_value_of_a_commented_composition() {
    let dir = temp_with(&[("composition.yaml", &data("commented-composition.yaml"))]);
    let before = std::fs::read_to_string(dir.path().join("composition.yaml")).unwrap();
    let bundle = run(fnhcl(&examples()).args(["package", "bucket-with-status"])).stdout;
    let out = run(fnhcl(dir.path())
        .arg("package")
        .arg(examples().join("bucket-with-status"))
        .args(["--into", "composition.yaml"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let after = std::fs::read_to_string(dir.path().join("composition.yaml")).unwrap();

    // Everything before the `hcl:` key and from the comment after the block on is unchanged.
    let head = before.find("        hcl: |").unwrap();
    let tail_before = before
        .find("\n        # a comment after the bundle")
        .unwrap();
    let tail_after = after
        .find("\n        # a comment after the bundle")
        .unwrap();
    assert_eq!(before[..head], after[..head]);
    assert_eq!(before[tail_before..], after[tail_after..]);

    // And the value reads back as exactly the bundle `package` prints.
    let value: yaml_serde::Value = yaml_serde::from_str(&after).unwrap();
    let hcl = value["spec"]["pipeline"][0]["input"]["hcl"]
        .as_str()
        .unwrap();
    assert_eq!(hcl, text(&bundle));

    let diff = similar::TextDiff::from_lines(&before, &after)
        .unified_diff()
        .header("before", "after")
        .to_string();
    snapshot!("package_into_diff", diff);
    snapshot!("package_into_stderr", text(&out.stderr));
}

#[test]
fn into_twice_leaves_the_file_alone() {
    let dir = temp_with(&[("c.yaml", &data("commented-composition.yaml"))]);
    let into = |dir: &Path| {
        run(fnhcl(dir)
            .arg("package")
            .arg(examples().join("bucket-with-status"))
            .args(["--into", "c.yaml"]))
    };
    assert_eq!(into(dir.path()).status.code(), Some(0));
    let path = dir.path().join("c.yaml");
    let stamp = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = into(dir.path());
    assert_eq!(again.status.code(), Some(0));
    assert!(text(&again.stderr).contains("already holds this bundle"));
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), stamp);
}

#[cfg(unix)]
#[test]
fn into_keeps_the_file_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_with(&[("c.yaml", &data("commented-composition.yaml"))]);
    let path = dir.path().join("c.yaml");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = run(fnhcl(dir.path())
        .arg("package")
        .arg(examples().join("bucket-with-status"))
        .args(["--into", "c.yaml"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temp files are left behind");
}

#[test]
fn into_needs_step_when_there_are_several() {
    let dir = temp_with(&[("two.yaml", &data("two-hcl-steps.yaml"))]);
    let before = std::fs::read(dir.path().join("two.yaml")).unwrap();
    let out = run(fnhcl(dir.path())
        .arg("package")
        .arg(examples().join("bucket-with-status"))
        .args(["--into", "two.yaml"]));
    assert_eq!(out.status.code(), Some(2));
    snapshot!("package_into_ambiguous", transcript(&out));
    assert_eq!(std::fs::read(dir.path().join("two.yaml")).unwrap(), before);

    let out = run(fnhcl(dir.path())
        .arg("package")
        .arg(examples().join("bucket-with-status"))
        .args(["--into", "two.yaml", "--step", "compute"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let after = std::fs::read_to_string(dir.path().join("two.yaml")).unwrap();
    assert!(
        after.contains("-- net.hcl --"),
        "the other step is untouched"
    );
    assert!(!after.contains("-- compute.hcl --"));
}

#[test]
fn a_composition_without_an_hcl_step_is_an_error() {
    let dir = temp_with(&[("c.yaml", &data("no-hcl-step.yaml"))]);
    let out = run(fnhcl(dir.path()).args(["package", "--extract", "c.yaml", "--out", "out"]));
    assert_eq!(out.status.code(), Some(2));
    snapshot!("no_hcl_step", transcript(&out));
}

#[test]
fn malformed_yaml_points_at_line_and_column() {
    let dir = temp_with(&[("c.yaml", &data("malformed.yaml"))]);
    let out = run(fnhcl(dir.path()).args(["package", "--extract", "c.yaml", "--out", "out"]));
    assert_eq!(out.status.code(), Some(2));
    snapshot!("malformed_yaml", transcript(&out));
}

#[test]
fn extract_writes_the_files_and_refuses_to_clobber_changes() {
    let dir = temp_with(&[("c.yaml", &data("two-hcl-steps.yaml"))]);
    let extract = |extra: &[&str]| {
        run(fnhcl(dir.path())
            .args([
                "package",
                "--extract",
                "c.yaml",
                "--step",
                "network",
                "--out",
                "hcl",
            ])
            .args(extra))
    };
    let out = extract(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let file = dir.path().join("hcl/net.hcl");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\n");
    snapshot!("extract_first", transcript(&out));

    let out = extract(&[]);
    assert!(
        text(&out.stderr).contains("wrote 0 files"),
        "{}",
        transcript(&out)
    );

    std::fs::write(&file, "x = 2\n").unwrap();
    let out = extract(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 2\n");
    snapshot!("extract_refuses", transcript(&out));

    let out = extract(&["--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x = 1\n");
}

#[test]
fn extract_refuses_paths_outside_the_target() {
    let dir = temp_with(&[("c.yaml", &data("escaping-bundle.yaml"))]);
    let out = run(fnhcl(dir.path()).args(["package", "--extract", "c.yaml", "--out", "hcl"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.path().join("outside.hcl").exists());
    snapshot!("extract_outside", transcript(&out));
}

#[test]
fn duplicate_bundle_names_are_reported_in_every_format() {
    let dir = temp_with(&[("dup.yaml", &data("duplicate-bundle.yaml"))]);
    let args = ["package", "--extract", "dup.yaml", "--out", "hcl"];
    for format in ["human", "json", "github", "sarif"] {
        let out = run(fnhcl(dir.path()).args(args).args(["--format", format]));
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert!(!dir.path().join("hcl").exists());
        snapshot!(format!("duplicate_{format}"), text(&out.stderr));
    }
}

#[test]
fn spanless_errors_in_machine_formats() {
    for format in ["json", "github", "sarif"] {
        let out = run(fnhcl(&examples()).args(["package", "no-such-dir", "--format", format]));
        assert_eq!(out.status.code(), Some(2));
        snapshot!(format!("missing_dir_{format}"), text(&out.stderr));
    }
}

fn has_escape_codes(bytes: &[u8]) -> bool {
    bytes.contains(&0x1b)
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let dir = temp_with(&[("dup.yaml", &data("duplicate-bundle.yaml"))]);
    let args = ["package", "--extract", "dup.yaml", "--out", "hcl"];
    let never = run(fnhcl(dir.path())
        .args(args)
        .args(["--color", "never"])
        .env("CLICOLOR_FORCE", "1"));
    assert!(!has_escape_codes(&never.stderr));
    let no_color = run(fnhcl(dir.path())
        .args(args)
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "1"));
    assert!(!has_escape_codes(&no_color.stderr));
    let always = run(fnhcl(dir.path())
        .args(args)
        .args(["--color", "always"])
        .env("NO_COLOR", "1"));
    assert!(has_escape_codes(&always.stderr), "the flag beats NO_COLOR");
    let forced = run(fnhcl(dir.path()).args(args).env("CLICOLOR_FORCE", "1"));
    assert!(
        has_escape_codes(&forced.stderr),
        "CLICOLOR_FORCE colours a pipe"
    );
    let piped = run(fnhcl(dir.path()).args(args));
    assert!(!has_escape_codes(&piped.stderr), "a pipe is not a terminal");
}

#[test]
fn unreadable_inputs_are_io_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "x").unwrap();
    // A path through a regular file cannot be read, even by root.
    let out = run(fnhcl(dir.path()).args(["package", "file/sub"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("I001"), "{}", transcript(&out));
    assert!(text(&out.stderr).contains("cannot read `file/sub`"));

    #[cfg(unix)]
    {
        std::fs::create_dir(dir.path().join("comp")).unwrap();
        std::os::unix::fs::symlink("missing-target.hcl", dir.path().join("comp/main.hcl")).unwrap();
        let out = run(fnhcl(dir.path()).args(["package", "comp"]));
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("cannot read `comp/main.hcl`"),
            "{}",
            transcript(&out)
        );
    }
}

#[cfg(unix)]
#[test]
fn an_unreadable_directory_is_an_io_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join("main.hcl"), "locals {\n  x = 1\n}\n").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let denied = std::fs::read_dir(&locked).is_err();
    let out = run(fnhcl(dir.path()).args(["package", "locked"]));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    if denied {
        assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
        assert!(text(&out.stderr).contains("permission denied"));
    } else {
        // Running as root: permissions do not stop us, so the bundle is read.
        assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    }
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (0..100_000).map(|i| format!("  x{i} = {i}\n")).collect();
    let big = format!("locals {{\n{body}}}\n");
    std::fs::write(dir.path().join("big.hcl"), big).unwrap();
    let mut child = fnhcl(dir.path())
        .args(["package", "."])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // Dropping our end closes the pipe while fnhcl is still writing.
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn deeply_nested_yaml_is_a_diagnostic_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let deep = format!(
        "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata: {{name: x}}\nspec:\n  pipeline: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    std::fs::write(dir.path().join("deep.yaml"), deep).unwrap();
    let out = run(fnhcl(dir.path()).args(["package", "--extract", "deep.yaml", "--out", "o"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("I002"), "{stderr}");
    assert!(stderr.contains("the line is too long to show"), "{stderr}");
    assert!(
        stderr.len() < 2_000,
        "a huge line is not echoed: {} bytes",
        stderr.len()
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = run(fnhcl(&examples()).args(["package", "--out", "x"]));
    assert_eq!(out.status.code(), Some(2));
    let out = run(fnhcl(&examples()).args(["no-such-command"]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_and_version() {
    let out = run(fnhcl(&examples()).arg("--version"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        format!("fnhcl {}\n", env!("CARGO_PKG_VERSION"))
    );
    // `--version` or `-V` alone skips clap (issue 34's startup); with another flag clap
    // prints it: the two must agree.
    let short = run(fnhcl(&examples()).arg("-V"));
    assert_eq!(short.stdout, out.stdout);
    let through_clap = run(fnhcl(&examples()).args(["--color", "never", "--version"]));
    assert_eq!(through_clap.status.code(), Some(0));
    assert_eq!(through_clap.stdout, out.stdout);
    let out = run(fnhcl(&examples()).arg("--help"));
    assert_eq!(out.status.code(), Some(0));
    snapshot!("help", text(&out.stdout));
    let out = run(fnhcl(&examples()).args(["package", "--help"]));
    snapshot!("package_help", text(&out.stdout));
}

#[test]
fn completions_are_printed() {
    let out = run(fnhcl(&examples()).args(["completions", "bash"]));
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("fnhcl"));
}

#[test]
fn check_reports_a_syntax_error_with_the_source_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.hcl"),
        "resource a {\n  body = [1 2]\n}\n",
    )
    .unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "--color", "never"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("check_syntax_error", transcript(&out));
}

#[test]
fn check_reports_schema_errors_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.hcl"), "resource a {\n  bdy = {}\n}\n").unwrap();
    for format in ["human", "json", "github", "sarif"] {
        let out = run(fnhcl(dir.path()).args(["check", "-q", "--format", format]));
        assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
        assert!(out.stderr.is_empty(), "findings go to stdout");
        snapshot!(format!("check_schema_{format}"), text(&out.stdout));
    }
}

#[test]
fn check_passes_the_examples_and_counts_what_it_read() {
    let out = run(fnhcl(&examples()).args(["check", "."]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(
        text(&out.stderr),
        "checked 4 files in 2 compositions: 0 errors, 0 warnings\n"
    );
    let json = run(fnhcl(&examples()).args(["check", "--format", "json", "-q"]));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["diagnostics"], serde_json::json!([]));
}

#[test]
fn check_reads_bundles_compositions_and_stdin() {
    let dir = temp_with(&[("c.yaml", &data("two-hcl-steps.yaml"))]);
    let out = run(fnhcl(dir.path()).args(["check", "c.yaml"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(text(&out.stdout).contains("I006"), "{}", transcript(&out));
    let out = run(fnhcl(dir.path()).args(["check", "c.yaml", "--step", "network"]));
    // The step's program is a top-level attribute, which function-hcl rejects.
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stdout).contains("Unsupported argument"),
        "{}",
        transcript(&out)
    );

    let mut child = fnhcl(dir.path())
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"-- main.hcl --\nresource a {\n  body = {}\n}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
}

#[test]
fn check_of_a_missing_path_is_an_io_error() {
    let out = run(fnhcl(&examples()).args(["check", "no-such-dir/x.hcl"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(text(&out.stdout).contains("I001"));
}

#[test]
fn deeply_nested_hcl_is_a_diagnostic_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 100_000;
    let deep = format!("a = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
    std::fs::write(dir.path().join("deep.hcl"), deep).unwrap();
    let parens = format!(
        "b = {}1{}\nc = {}x\n",
        "(".repeat(depth),
        ")".repeat(depth),
        "-".repeat(depth)
    );
    std::fs::write(dir.path().join("parens.hcl"), parens).unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "--format", "json", "-q"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"S002"), "{codes:?}");
}

#[test]
fn eval_reads_req_from_the_files() {
    let dir = examples().join("bucket-with-status");
    let out = run(fnhcl(&dir).args([
        "eval",
        "--xr",
        "xr.yaml",
        "-o",
        "observed.yaml",
        "--context-values",
        "env=\"prod\";tier=2",
        "{ region = req.composite.spec.region, arn = req.resource.bucket.status.atProvider.arn, ctx = req.context }",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("eval_hcl", text(&out.stdout));
    let out = run(fnhcl(&dir).args([
        "eval",
        "--xr",
        "xr.yaml",
        "--format",
        "json",
        "[for k, v in req.composite.spec : \"${k}=${v}\"]",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        value,
        serde_json::json!(["owner=billing-team", "region=eu-central-1"])
    );
}

#[test]
fn eval_errors_point_into_the_expression() {
    let out = run(fnhcl(&examples()).args(["eval", "--color", "never", "{ a = 1 }.b + 1"]));
    assert_eq!(out.status.code(), Some(1));
    snapshot!("eval_error", transcript(&out));
}

#[test]
fn eval_handles_empty_requirements_infinity_and_bad_flags() {
    // A requirement with no resources is null, as function-hcl gives it.
    let out =
        run(fnhcl(&examples()).args(["eval", "-e", "vpc=/dev/null", "req.extra_resources.vpc"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(text(&out.stdout), "null\n");
    // The attribute of a null is an error; inside try it is not, and the fallback wins.
    let out = run(fnhcl(&examples()).args([
        "eval",
        "-e",
        "vpc=/dev/null",
        "try(req.extra_resources.vpc[0], \"none\")",
    ]));
    assert_eq!(text(&out.stdout), "\"none\"\n");
    let out = run(fnhcl(&examples()).args(["eval", "--format", "json", "1 / 0"]));
    assert_eq!(text(&out.stdout).trim(), "\"+Inf\"");
    let out = run(fnhcl(&examples()).args(["eval", "-e", "nofile"]));
    assert_eq!(out.status.code(), Some(2));
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

const XR_REQUEST: &str = r#"{"observed": {"composite": {"resource": {"apiVersion": "example.org/v1", "kind": "XR", "metadata": {"name": "demo"}, "spec": {"size": 3}}}}}"#;

#[test]
fn function_run_prints_the_response_as_protobuf_json() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "request.json", XR_REQUEST);
    write(
        dir.path(),
        "main.hcl",
        "resource cm {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n    data       = { size = req.composite.spec.size }\n  }\n  ready {\n    value = \"READY_TRUE\"\n  }\n}\n",
    );
    let out = run(fnhcl(dir.path()).args(["function", "run", "--request", "request.json", "."]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("function_run_ok", text(&out.stdout));
}

#[test]
fn function_run_reads_the_program_from_the_request_input() {
    let dir = tempfile::tempdir().unwrap();
    let request = serde_json::json!({
        "input": {"apiVersion": "function-hcl/v1", "kind": "HclInput",
                  "hcl": "-- main.hcl --\ncontext {\n  key   = \"k\"\n  value = 1.5\n}\n"},
        "context": {"upstream": true}
    });
    write(dir.path(), "request.json", &request.to_string());
    let out = run(fnhcl(dir.path()).args(["function", "run", "--request", "request.json"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let response: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        response["context"],
        serde_json::json!({"k": 1.5, "upstream": true})
    );
}

#[test]
fn function_run_fatal_results_exit_zero_and_show_the_source() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "request.json", XR_REQUEST);
    write(
        dir.path(),
        "main.hcl",
        "resources cm {\n  for_each = req.composite.spec.zones\n  template {\n    body = {}\n  }\n}\n",
    );
    let out = run(fnhcl(dir.path()).args([
        "function",
        "run",
        "--color",
        "never",
        "--request",
        "request.json",
        ".",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("function_run_fatal", transcript(&out));
}

#[test]
fn function_run_rejects_unreadable_requests() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "bad.json", "{\"observed\": [}");
    let out = run(fnhcl(dir.path()).args([
        "function",
        "run",
        "--color",
        "never",
        "--request",
        "bad.json",
    ]));
    assert_eq!(out.status.code(), Some(2));
    snapshot!("function_run_bad_request", transcript(&out));
    let out = run(fnhcl(dir.path()).args(["function", "run", "--request", "missing.json"]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn eval_hcl_sees_top_level_locals_and_user_functions() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "main.hcl",
        "locals {\n  base = \"demo\"\n}\n\nfunction suffixed {\n  arg name {}\n  arg suffix {\n    default = \"x\"\n  }\n  body = \"${name}-${suffix}\"\n}\n",
    );
    let out = run(fnhcl(dir.path()).args([
        "eval",
        "--hcl",
        ".",
        "invoke(\"suffixed\", { name = base })",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(text(&out.stdout), "\"demo-x\"\n");
    write(dir.path(), "main.hcl", "locals {\n  a = b\n  b = a\n}\n");
    let out = run(fnhcl(dir.path()).args(["eval", "--color", "never", "--hcl", ".", "1"]));
    assert_eq!(out.status.code(), Some(1));
    snapshot!("eval_hcl_cycle", transcript(&out));
}

const RENDER_XR: &str =
    "apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\nspec:\n  size: 2\n";

#[test]
fn render_prints_the_classic_crossplane_stream() {
    let ex = examples().join("bucket-with-status");
    let out = run(fnhcl(&ex).args(["render", "xr.yaml", ".", "-o", "observed.yaml", "-r", "-c"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("render_example", text(&out.stdout));
}

#[test]
fn render_fatal_results_show_the_functions_error_at_its_source() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(
        dir.path(),
        "main.hcl",
        "resources cm {\n  for_each = req.composite.spec.zones\n  template {\n    body = {}\n  }\n}\n",
    );
    let out = run(fnhcl(dir.path()).args(["render", "--color", "never", "xr.yaml", "."]));
    assert_eq!(out.status.code(), Some(1));
    snapshot!("render_fatal", transcript(&out));
}

/// Issue 31 §2: a `condition` that is a string. People get function-hcl's error at the
/// condition, which XR field it read and a hint, and nothing about Docker; scripts get
/// crossplane's line word for word, on stderr with `--format crossplane` and in the JSON
/// report's `upstream` field.
#[test]
fn render_failures_are_located_for_people_and_verbatim_for_scripts() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "xr.yaml",
        "apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\nspec:\n  enabled: \"yes\"\n",
    );
    write(
        dir.path(),
        "main.hcl",
        "locals {\n  xr = req.composite\n}\n\nresource cm {\n  condition = xr.spec.enabled\n  body = { apiVersion = \"v1\", kind = \"ConfigMap\" }\n}\n",
    );
    let human = run(fnhcl(dir.path()).args(["render", "--color", "never", "xr.yaml", "."]));
    assert_eq!(human.status.code(), Some(1), "{}", transcript(&human));
    let stderr = text(&human.stderr);
    assert!(!stderr.contains("Docker"), "{stderr}");
    assert!(!stderr.contains("<nil>"), "{stderr}");
    assert!(!stderr.contains("other diagnostic"), "{stderr}");
    snapshot!("render_condition_string", transcript(&human));
    // The README shows this very report.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(
        readme.contains(&stderr),
        "README.md's failure example differs from:\n{stderr}"
    );

    let line = "crossplane: error: cannot render composite resource: crossplane internal render in Docker: pipeline returned fatal: crossplane: error: cannot render composite resource: cannot compose resources: pipeline step \"run hcl composition\" returned a fatal result: evaluate hcl: <nil>: got type string, expected bool; , and 1 other diagnostic(s)\n";
    let scripted =
        run(fnhcl(dir.path()).args(["render", "--format", "crossplane", "xr.yaml", "."]));
    assert_eq!(scripted.status.code(), Some(1));
    assert_eq!(text(&scripted.stderr), line);
    assert!(scripted.stdout.is_empty());

    let classic = run(fnhcl(dir.path()).args([
        "render",
        "--format",
        "crossplane",
        "--crossplane-version",
        "2.2",
        "xr.yaml",
        ".",
    ]));
    assert_eq!(
        text(&classic.stderr),
        "crossplane: error: cannot render composite resource: pipeline step \"run hcl composition\" returned a fatal result: evaluate hcl: <nil>: got type string, expected bool; , and 1 other diagnostic(s)\n"
    );

    let json = run(fnhcl(dir.path()).args(["render", "--format", "json", "xr.yaml", "."]));
    let report: serde_json::Value = serde_json::from_slice(&json.stderr).unwrap();
    let first = &report["diagnostics"][0];
    assert_eq!(first["upstream"].as_str(), Some(line.trim_end()));
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(6), Some(15))
    );
    assert!(first["help"].as_str().unwrap().contains("true or false"));
}

/// Issue 31 §2: an engine refusal reads without the container wrapping crossplane's CLI puts
/// around it; `--format crossplane` keeps the wrapping.
#[test]
fn engine_refusals_read_without_docker() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(dir.path(), "main.hcl", "locals {\n  a = 1\n}\n");
    write(
        dir.path(),
        "xrd.yaml",
        "apiVersion: apiextensions.crossplane.io/v3\nkind: CompositeResourceDefinition\nmetadata:\n  name: xapps.example.org\nspec:\n  group: example.org\n  names:\n    kind: XApp\n    plural: xapps\n  versions:\n  - name: v1\n    served: true\n    referenceable: true\n    schema:\n      openAPIV3Schema:\n        type: object\n",
    );
    let human = run(fnhcl(dir.path()).args([
        "render", "--format", "json", "--xrd", "xrd.yaml", "xr.yaml", ".",
    ]));
    assert_eq!(human.status.code(), Some(1), "{}", transcript(&human));
    let report: serde_json::Value = serde_json::from_slice(&human.stderr).unwrap();
    let summary = report["diagnostics"][0]["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("cannot render composite resource: cannot select composite resource schema: CompositeResourceDefinition \"xapps.example.org\" has unrecognized apiVersion")
            && !summary.contains("Docker")
            && !summary.contains("container"),
        "{summary}"
    );
    let scripted = run(fnhcl(dir.path()).args([
        "render",
        "--format",
        "crossplane",
        "--xrd",
        "xrd.yaml",
        "xr.yaml",
        ".",
    ]));
    let line = text(&scripted.stderr);
    assert!(
        line.starts_with("crossplane: error: cannot render composite resource: crossplane internal render in Docker returned error with output: crossplane: error: cannot render composite resource: cannot select composite resource schema: ")
            && line.ends_with(": container exited with status 1\n"),
        "{line}"
    );
}

/// A composition whose evaluation takes several seconds (about a million expressions).
const SLOW_HCL: &str = "locals {\n  sums = [for i in range(1000) : sum([for j in range(1000) : i * j])]\n}\ncomposite status {\n  body = { total = sum(sums) }\n}\n";

#[test]
fn render_stops_evaluating_at_the_timeout_with_crossplanes_message() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(dir.path(), "main.hcl", SLOW_HCL);
    // Without a deadline checked during evaluation this render would succeed (after
    // seconds) and the assertions below would fail.
    let out = run(fnhcl(dir.path()).args([
        "render",
        "--color",
        "never",
        "--timeout",
        "100ms",
        "xr.yaml",
        ".",
    ]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("render_timeout", transcript(&out));
}

#[test]
fn render_refuses_a_timeout_it_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(dir.path(), "main.hcl", "locals {\n  a = 1\n}\n");
    for timeout in ["99999999999999999999999h", "0s", "1x", "h"] {
        let out = run(fnhcl(dir.path()).args(["render", "--timeout", timeout, "xr.yaml", "."]));
        assert_eq!(
            out.status.code(),
            Some(2),
            "{timeout}: {}",
            transcript(&out)
        );
        assert!(
            text(&out.stderr).contains("is not a duration"),
            "{timeout}: {}",
            transcript(&out)
        );
    }
}

#[test]
fn render_warns_about_discarded_blocks_unless_quiet() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(
        dir.path(),
        "main.hcl",
        "resource later {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n    data       = { arn = req.composite.status.arn }\n  }\n}\n",
    );
    let out = run(fnhcl(dir.path()).args(["render", "--color", "never", "xr.yaml", "."]));
    assert_eq!(out.status.code(), Some(0));
    snapshot!("render_discard_warning", text(&out.stderr));
    let out = run(fnhcl(dir.path()).args(["render", "-q", "xr.yaml", "."]));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn fmt_rewrites_only_files_that_change_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "ugly.hcl",
        "resource a {\nbody = {kind: \"A\",name:\"x\"}\n}\n",
    );
    write(dir.path(), "fine.hcl", "locals {\n  a = 1\n}\n");
    write(dir.path(), "broken.hcl", "resource a {\n  body = {\n");
    let fine = dir.path().join("fine.hcl");
    let before = std::fs::metadata(&fine).unwrap().modified().unwrap();
    let out = run(fnhcl(dir.path()).args(["fmt", "--check", "--color", "never", "."]));
    assert_eq!(out.status.code(), Some(1));
    snapshot!("fmt_check", transcript(&out));
    let out = run(fnhcl(dir.path()).args(["fmt", "--diff", "--color", "never", "ugly.hcl"]));
    assert_eq!(out.status.code(), Some(0));
    snapshot!("fmt_diff", text(&out.stdout));
    let out = run(fnhcl(dir.path()).args(["fmt", "-q", "."]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("ugly.hcl")).unwrap(),
        "resource a {\n  body = { kind = \"A\", name = \"x\" }\n}\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("broken.hcl")).unwrap(),
        "resource a {\n  body = {\n",
        "a file with syntax errors is left as it is"
    );
    let after = std::fs::metadata(&fine).unwrap().modified().unwrap();
    assert_eq!(before, after, "a formatted file is not rewritten");
}

#[test]
fn fmt_formats_the_files_inside_a_composition() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c # keep me\nspec:\n  mode: Pipeline\n  pipeline:\n  - step: hcl\n    functionRef:\n      name: function-hcl\n    input:\n      kind: HclInput\n      hcl: |\n        -- main.hcl --\n        resource a {\n        body = {kind:\"A\"}\n        }\n";
    write(dir.path(), "composition.yaml", yaml);
    let out = run(fnhcl(dir.path()).args(["fmt", "composition.yaml"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let text = std::fs::read_to_string(dir.path().join("composition.yaml")).unwrap();
    assert!(text.contains("  name: c # keep me\n"), "{text}");
    assert!(
        text.contains("        resource a {\n          body = { kind = \"A\" }\n        }\n"),
        "{text}"
    );
    let out = run(fnhcl(dir.path()).args(["fmt", "--check", "composition.yaml"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
}

#[test]
fn check_lists_and_explains_its_rules() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "--list-rules"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("check_list_rules", text(&out.stdout));
    let by_name = run(fnhcl(dir.path()).args(["check", "--explain", "unused-local"]));
    let by_code = run(fnhcl(dir.path()).args(["check", "--explain", "l601"]));
    assert_eq!(by_name.stdout, by_code.stdout);
    snapshot!("check_explain", text(&by_name.stdout));
    let unknown = run(fnhcl(dir.path()).args(["check", "--explain", "unused-locals"]));
    assert_eq!(unknown.status.code(), Some(2), "{}", transcript(&unknown));
    assert!(text(&unknown.stderr).contains("no rule or code is called `unused-locals`"));
}

#[test]
fn check_names_the_rule_of_a_lint_and_honours_suppressions() {
    let program =
        "locals {\n  region = \"eu-west-1\"\n  zone   = \"a\" # fnhcl-ignore: unused-local\n}\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("main.hcl"), program).unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "-q"]));
    // Warnings do not fail the run unless --fail-level says so.
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("check_lint_human", text(&out.stdout));
    let strict = run(fnhcl(dir.path()).args(["check", "-q", "--fail-level", "warning"]));
    assert_eq!(strict.status.code(), Some(1), "{}", transcript(&strict));
    let github = run(fnhcl(dir.path()).args(["check", "-q", "--format", "github"]));
    snapshot!("check_lint_github", text(&github.stdout));
}

#[test]
fn check_reads_the_nearest_config_and_rejects_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("apps/app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(app.join("main.hcl"), "locals {\n  spare = 1\n}\n").unwrap();
    std::fs::write(
        dir.path().join(".fnhcl.toml"),
        "[rules]\nunused-local = \"error\"\n",
    )
    .unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "-q", "--format", "json", "apps"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["rule"], "unused-local");
    assert_eq!(report["diagnostics"][0]["severity"], "error");

    std::fs::write(
        dir.path().join(".fnhcl.toml"),
        "exclude = [\"apps/**\"]\n[rules]\nsyntax-error = \"off\"\n",
    )
    .unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "-q", "apps"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    snapshot!("check_bad_config", text(&out.stderr));

    std::fs::write(dir.path().join(".fnhcl.toml"), "exclude = [\"apps/**\"]\n").unwrap();
    let out = run(fnhcl(dir.path()).args(["check", "apps"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(
        text(&out.stderr),
        "checked 0 files in 0 compositions: 0 errors, 0 warnings\n"
    );
}

/// function-hcl's README and quickstart write the bundle as the step's input itself. Every
/// command that reads the step says what is wrong and how to write it instead.
#[test]
fn a_string_input_says_what_to_write_instead() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("composition.yaml"),
        "apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: example
spec:
  compositeTypeRef:
    apiVersion: example.crossplane.io/v1
    kind: XR
  mode: Pipeline
  pipeline:
  - step: create-a-bucket
    functionRef:
      name: function-hcl
    input: |
      -- main.hcl --
      resource my-bucket {
        body = { apiVersion = \"v1\", kind = \"X\" }
      }
",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("xr.yaml"),
        "apiVersion: example.crossplane.io/v1\nkind: XR\nmetadata:\n  name: x\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("functions.yaml"),
        "apiVersion: pkg.crossplane.io/v1beta1\nkind: Function\nmetadata:\n  name: function-hcl\nspec:\n  package: xpkg.upbound.io/crossplane-contrib/function-hcl:v0.2.0\n",
    )
    .unwrap();
    let render = run(fnhcl(dir.path()).args(["render", "xr.yaml", "composition.yaml"]));
    assert_eq!(render.status.code(), Some(2), "{}", transcript(&render));
    snapshot!("string_input_render", transcript(&render));
    let with_functions =
        run(fnhcl(dir.path()).args(["render", "xr.yaml", "composition.yaml", "functions.yaml"]));
    assert_eq!(text(&with_functions.stderr), text(&render.stderr));
    for args in [
        &["check", "composition.yaml"][..],
        &["fmt", "--check", "composition.yaml"],
        &["render", "xr.yaml", "composition.yaml", "--hcl", "."],
    ] {
        let out = run(fnhcl(dir.path()).args(args));
        assert_ne!(out.status.code(), Some(0), "{}", transcript(&out));
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(
            all.contains(
                "I020 invalid-hcl-input: step \"create-a-bucket\" cannot run function-hcl"
            ),
            "{args:?}: {all}"
        );
        assert!(all.contains("a string"), "{args:?}: {all}");
    }
}

/// `fn-hcl-tools fmt` takes `-c` (check) and `-r` (recursive, a flag); `-r` must not swallow
/// the path after it. Hidden folders are walked, VCS folders are not.
#[test]
fn fmt_takes_fn_hcl_tools_short_flags_and_walks_hidden_folders() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["tree/.hidden", "tree/sub", "tree/.git"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
    }
    for file in [
        "tree/top.hcl",
        "tree/.hidden/h.hcl",
        "tree/sub/s.hcl",
        "tree/.git/g.hcl",
    ] {
        std::fs::write(dir.path().join(file), "a  = 1\n").unwrap();
    }
    let listed = |args: &[&str]| {
        let out = run(fnhcl(dir.path()).args(args));
        assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
        text(&out.stdout)
    };
    let all = "tree/.hidden/h.hcl\ntree/sub/s.hcl\ntree/top.hcl\n";
    assert_eq!(listed(&["fmt", "-c", "-r", "tree"]), all);
    assert_eq!(listed(&["fmt", "--check", "-r", "tree"]), all);
    assert_eq!(listed(&["fmt", "-rc", "tree"]), all);
    assert_eq!(listed(&["fmt", "-c", "tree"]), all);
    assert_eq!(listed(&["fmt", "-c", "-r=false", "tree"]), "tree/top.hcl\n");
    assert_eq!(
        listed(&["fmt", "--check", "--recursive=false", "tree"]),
        "tree/top.hcl\n"
    );
    let git = std::fs::read_to_string(dir.path().join("tree/.git/g.hcl")).unwrap();
    let out = run(fnhcl(dir.path()).args(["fmt", "tree"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tree/.hidden/h.hcl")).unwrap(),
        "a = 1\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tree/.git/g.hcl")).unwrap(),
        git,
        "a VCS folder is never touched"
    );
}

/// `function run` takes a single `.hcl` file as SOURCE, as `check` does.
#[test]
fn function_run_takes_a_single_hcl_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("main.hcl"),
        "resource a {\n  body = { apiVersion = \"v1\", kind = \"X\" }\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("request.json"),
        r#"{"observed":{"composite":{"resource":{"apiVersion":"x/v1","kind":"XR","metadata":{"name":"x"}}}}}"#,
    )
    .unwrap();
    let out =
        run(fnhcl(dir.path()).args(["function", "run", "--request", "request.json", "main.hcl"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let response: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        response["desired"]["resources"]["a"]["resource"]["kind"],
        "X",
        "{}",
        transcript(&out)
    );
}

/// function-hcl reports a failed context key twice (HCL's error, then its own at the same
/// place); render shows them as one report, which is the headline (issue 31: the function's
/// message at its source, not a second copy in crossplane's one-line wording).
#[test]
fn render_shows_a_wrapped_failure_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("hcl")).unwrap();
    std::fs::write(
        dir.path().join("hcl/main.hcl"),
        "context {\n  key   = nope\n  value = 1\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("xr.yaml"),
        "apiVersion: example.crossplane.io/v1\nkind: XR\nmetadata:\n  name: x\n",
    )
    .unwrap();
    let out = run(fnhcl(dir.path()).args(["render", "xr.yaml", "hcl"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert_eq!(
        text(&out.stderr).matches("Unknown variable").count(),
        1,
        "one report, which is the fatal line"
    );
    snapshot!("render_wrapped_failure", transcript(&out));
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.email=test@example.org", "-c", "user.name=test"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

const DIFF_HCL: &str = "resource cm {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n    data       = { size = \"small\" }\n  }\n}\n";

#[test]
fn diff_rev_renders_the_composition_as_it_was_in_git() {
    let dir = tempfile::tempdir().unwrap();
    let comp = dir.path().join("comp");
    std::fs::create_dir(&comp).unwrap();
    write(&comp, "xr.yaml", RENDER_XR);
    write(&comp, "main.hcl", DIFF_HCL);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    let unchanged = run(fnhcl(&comp).args(["diff", "--rev", "HEAD", "--", "xr.yaml", "."]));
    assert_eq!(
        unchanged.status.code(),
        Some(0),
        "{}",
        transcript(&unchanged)
    );
    // Edit the work tree: the diff shows the edit, and the work tree is left as it is.
    write(&comp, "main.hcl", &DIFF_HCL.replace("small", "large"));
    write(
        &comp,
        "extra.hcl",
        "resource more {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"Secret\"\n  }\n}\n",
    );
    let out = run(fnhcl(&comp).args([
        "--color", "never", "diff", "--rev", "HEAD", "--", "xr.yaml", ".",
    ]));
    assert_eq!(out.status.code(), Some(3), "{}", transcript(&out));
    snapshot!("diff_rev", transcript(&out));
    assert!(
        std::fs::read_to_string(comp.join("main.hcl"))
            .unwrap()
            .contains("large")
    );
    // A revision git does not know, and render arguments that are not render's.
    let bad = run(fnhcl(&comp).args(["diff", "--rev", "no-such-rev", "--", "xr.yaml", "."]));
    assert_eq!(bad.status.code(), Some(1), "{}", transcript(&bad));
    assert!(
        text(&bad.stderr).contains("no-such-rev"),
        "{}",
        transcript(&bad)
    );
    let usage = run(fnhcl(&comp).args(["diff", "--rev", "HEAD", "--", "xr.yaml"]));
    assert_eq!(usage.status.code(), Some(2), "{}", transcript(&usage));
}

/// git's stdout in `dir`, `input` on its stdin (for the plumbing that writes crafted trees).
fn git_with(dir: &Path, args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("git")
        .args(["-c", "user.email=test@example.org", "-c", "user.name=test"])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("git runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout).trim().to_string()
}

/// A commit whose tree holds `comp/../../x.hcl` (git fetch accepts such trees): nothing may be
/// written outside the temporary checkout, and the diagnostic says why.
#[test]
fn diff_rev_refuses_a_tree_that_climbs_out_of_the_checkout() {
    let dir = tempfile::tempdir().unwrap();
    let comp = dir.path().join("comp");
    std::fs::create_dir(&comp).unwrap();
    write(&comp, "xr.yaml", RENDER_XR);
    write(&comp, "main.hcl", DIFF_HCL);
    git(dir.path(), &["init", "-q"]);
    let main = git_with(dir.path(), &["hash-object", "-w", "--stdin"], DIFF_HCL);
    let evil = git_with(
        dir.path(),
        &["hash-object", "-w", "--stdin"],
        "planted = 1\n",
    );
    let t1 = git_with(
        dir.path(),
        &["mktree"],
        &format!("100644 blob {evil}\tx.hcl\n"),
    );
    let t2 = git_with(dir.path(), &["mktree"], &format!("040000 tree {t1}\t..\n"));
    let t3 = git_with(
        dir.path(),
        &["mktree"],
        &format!("040000 tree {t2}\t..\n100644 blob {main}\tmain.hcl\n"),
    );
    let root = git_with(
        dir.path(),
        &["mktree"],
        &format!("040000 tree {t3}\tcomp\n"),
    );
    let commit = git_with(dir.path(), &["commit-tree", "-m", "crafted", &root], "");
    git(dir.path(), &["tag", "crafted", &commit]);
    // The checkout is made in TMPDIR: `comp/../../x.hcl` would land in it, beside the checkout.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = run(fnhcl(&comp).env("TMPDIR", &tmp).args([
        "--color", "never", "diff", "--rev", "crafted", "--", "xr.yaml", ".",
    ]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(!tmp.join("x.hcl").exists(), "the blob was written outside");
    assert!(
        !dir.path().join("x.hcl").exists(),
        "the blob was written outside"
    );
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "the checkout is removed"
    );
    snapshot!("diff_rev_climbing_tree", transcript(&out));
    // A revision that looks like an option is a revision, not an option.
    let option = run(fnhcl(&comp).args(["diff", "--rev", "--output=x", "--", "xr.yaml", "."]));
    assert_ne!(option.status.code(), Some(0), "{}", transcript(&option));
    assert!(!comp.join("x").exists());
}

/// A composition that shares a file by a symbolic link: the old side reads the file the link
/// leads to in that revision; a link out of the repository is refused.
#[cfg(unix)]
#[test]
fn diff_rev_follows_links_inside_the_revision() {
    let dir = tempfile::tempdir().unwrap();
    let comp = dir.path().join("comp");
    let shared = dir.path().join("shared");
    std::fs::create_dir(&comp).unwrap();
    std::fs::create_dir(&shared).unwrap();
    write(&comp, "xr.yaml", RENDER_XR);
    write(&shared, "main.hcl", DIFF_HCL);
    std::os::unix::fs::symlink("../shared/main.hcl", comp.join("main.hcl")).unwrap();
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    let same = run(fnhcl(&comp).args(["diff", "--rev", "HEAD", "--", "xr.yaml", "."]));
    assert_eq!(same.status.code(), Some(0), "{}", transcript(&same));
    write(&shared, "main.hcl", &DIFF_HCL.replace("small", "large"));
    let changed = run(fnhcl(&comp).args(["diff", "--rev", "HEAD", "--", "xr.yaml", "."]));
    assert_eq!(changed.status.code(), Some(3), "{}", transcript(&changed));
    assert!(text(&changed.stdout).contains("-  size: small"));
    // A link that leaves the repository is not followed.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.hcl"), "secret = 1\n").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.hcl"), comp.join("other.hcl")).unwrap();
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "outside"]);
    let out = run(fnhcl(&comp).args([
        "--color", "never", "diff", "--rev", "HEAD", "--", "xr.yaml", ".",
    ]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(text(&out.stderr).contains("I016"), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("comp/other.hcl"),
        "{}",
        transcript(&out)
    );
}

/// Commands a repository configures (an fsmonitor, a pager, an external diff, hooks, a
/// filter) never run during `diff --rev`.
#[cfg(unix)]
#[test]
fn diff_rev_runs_no_command_the_repository_configures() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let comp = dir.path().join("comp");
    std::fs::create_dir(&comp).unwrap();
    write(&comp, "xr.yaml", RENDER_XR);
    write(&comp, "main.hcl", DIFF_HCL);
    write(dir.path(), ".gitattributes", "* filter=mark diff=mark\n");
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "first"]);
    let marker = dir.path().join("ran");
    let script = dir.path().join("mark.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$0 $*\" >> '{}'\ncat\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = script.display().to_string();
    for (key, value) in [
        ("core.fsmonitor", script.as_str()),
        ("core.pager", script.as_str()),
        ("core.sshCommand", script.as_str()),
        ("diff.external", script.as_str()),
        ("diff.mark.textconv", script.as_str()),
        ("filter.mark.smudge", script.as_str()),
        ("filter.mark.clean", script.as_str()),
        ("pager.ls-tree", script.as_str()),
        ("pager.cat-file", script.as_str()),
    ] {
        git(dir.path(), &["config", key, value]);
    }
    let hooks = dir.path().join(".git/hooks");
    for hook in [
        "post-checkout",
        "reference-transaction",
        "post-index-change",
        "pre-commit",
    ] {
        std::fs::copy(&*script, hooks.join(hook)).unwrap();
    }
    write(&comp, "main.hcl", &DIFF_HCL.replace("small", "large"));
    let out = run(fnhcl(&comp).args(["diff", "--rev", "HEAD", "--", "xr.yaml", "."]));
    assert_eq!(out.status.code(), Some(3), "{}", transcript(&out));
    assert!(
        !marker.exists(),
        "a configured command ran: {}",
        std::fs::read_to_string(&marker).unwrap_or_default()
    );
}

#[test]
fn diff_reads_standard_input_and_colours_on_request() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "old.yaml",
        "apiVersion: v1\nkind: X\nmetadata:\n  name: a\nspec:\n  n: 1\n",
    );
    let new = "apiVersion: v1\nkind: X\nmetadata:\n  name: a\nspec:\n  n: 2\n";
    let mut child = fnhcl(dir.path())
        .args(["--color", "always", "diff", "old.yaml", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(new.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(has_escape_codes(&out.stdout), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("+++ (stdin)"),
        "{}",
        text(&out.stdout)
    );
    let plain = run(fnhcl(dir.path()).args(["--color", "never", "diff", "old.yaml", "old.yaml"]));
    assert_eq!(plain.status.code(), Some(0));
    assert!(!has_escape_codes(&plain.stdout));
    let both = run(fnhcl(dir.path()).args(["diff", "-", "-"]));
    assert_eq!(both.status.code(), Some(2), "{}", transcript(&both));
    let sarif = run(fnhcl(dir.path()).args(["--format", "sarif", "diff", "old.yaml", "old.yaml"]));
    assert_eq!(sarif.status.code(), Some(2), "{}", transcript(&sarif));
}

/// A composition with a `tests/` folder of two cases, made with `--update`.
fn test_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", DIFF_HCL);
    for case in ["small", "other"] {
        let case_dir = dir.path().join("tests").join(case);
        std::fs::create_dir_all(&case_dir).unwrap();
        write(&case_dir, "xr.yaml", RENDER_XR);
    }
    let out = run(fnhcl(dir.path()).args(["test", "--update"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        text(&out.stdout).contains("0 passed, 0 failed, 2 updated"),
        "{}",
        transcript(&out)
    );
    dir
}

#[test]
fn test_passes_fails_with_a_diff_and_updates_only_what_changed() {
    let dir = test_project();
    let passing = run(fnhcl(dir.path()).args(["test", "-v"]));
    assert_eq!(passing.status.code(), Some(0), "{}", transcript(&passing));
    snapshot!("test_passing", transcript(&passing));
    // A change to the composition fails both cases, each with the diff.
    write(dir.path(), "main.hcl", &DIFF_HCL.replace("small", "large"));
    let failing = run(fnhcl(dir.path()).args(["--color", "never", "test", "--filter", "small"]));
    assert_eq!(failing.status.code(), Some(1), "{}", transcript(&failing));
    snapshot!("test_failing", transcript(&failing));
    // --update rewrites the expected output of the cases that changed, and only those.
    let other = dir.path().join("tests/other/expected.yaml");
    let other_before = std::fs::read_to_string(&other).unwrap();
    write(
        &dir.path().join("tests/other"),
        "args",
        "--crossplane-version=2.2\n",
    );
    let updated = run(fnhcl(dir.path()).args(["test", "--update", "--filter", "small"]));
    assert_eq!(updated.status.code(), Some(0), "{}", transcript(&updated));
    assert!(
        text(&updated.stdout).contains("updated tests/small"),
        "{}",
        transcript(&updated)
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), other_before);
    let small = std::fs::read_to_string(dir.path().join("tests/small/expected.yaml")).unwrap();
    assert!(small.contains("size: large"), "{small}");
    let again = run(fnhcl(dir.path()).args(["test", "--update", "--filter", "small"]));
    assert!(
        text(&again.stdout).contains("1 passed, 0 failed\n"),
        "{}",
        transcript(&again)
    );
}

#[test]
fn test_expected_errors_and_junit() {
    let dir = test_project();
    let case = dir.path().join("tests/broken");
    std::fs::create_dir_all(&case).unwrap();
    write(&case, "xr.yaml", RENDER_XR);
    write(&case, "source", "../../bad\n");
    std::fs::create_dir_all(dir.path().join("bad")).unwrap();
    write(
        &dir.path().join("bad"),
        "main.hcl",
        "resources cm {\n  for_each = req.composite.spec.zones\n  template {\n    body = {}\n  }\n}\n",
    );
    write(
        &case,
        "expected-error.txt",
        "returned a fatal result\nUnsupported attribute\n",
    );
    let out = run(fnhcl(dir.path()).args(["test", "--junit", "report.xml"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let xml = std::fs::read_to_string(dir.path().join("report.xml")).unwrap();
    assert!(xml.contains("tests=\"3\" failures=\"0\""), "{xml}");
    // An expected error that does not come is a failure, reported in JUnit too.
    write(
        &case,
        "expected-error.txt",
        "Unsupported attribute\nno such message\n",
    );
    let out = run(fnhcl(dir.path()).args(["--color", "never", "test", "--junit", "report.xml"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stdout).contains("  no such message"),
        "{}",
        transcript(&out)
    );
    let xml = std::fs::read_to_string(dir.path().join("report.xml")).unwrap();
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert!(
        xml.contains("<failure message=\"the render failed, but its errors lack:\">"),
        "{xml}"
    );
    // Nothing to run is a failure, not a silent pass.
    let none = run(fnhcl(dir.path()).args(["test", "--filter", "nothing-matches"]));
    assert_eq!(none.status.code(), Some(1), "{}", transcript(&none));
}

/// `fnhcl` run to its end, or killed after 60 s: a hang becomes a failure, not a stuck suite.
fn run_bounded(cmd: &mut Command) -> Output {
    run_within(cmd, 60)
}

/// A context value with `;` and a key with `=` reach the composition as they are written.
#[test]
fn test_passes_context_values_intact() {
    let dir = test_project();
    let case = dir.path().join("tests/small");
    write(&case, "context.yaml", "a=b: x;y\nplain: \"1;2\"\n");
    let out = run(fnhcl(dir.path()).args(["test", "--update", "--filter", "small"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let expected = std::fs::read_to_string(case.join("expected.yaml")).unwrap();
    assert!(expected.contains("a=b: x;y"), "{expected}");
    assert!(expected.contains("plain: 1;2"), "{expected}");
    let again = run(fnhcl(dir.path()).args(["test", "--filter", "small"]));
    assert_eq!(again.status.code(), Some(0), "{}", transcript(&again));
}

/// A case may not name a file outside the tested folder (an absolute path, `..`, a link), so a
/// case from a pull request cannot print other files into a CI log; a flag allows it.
#[test]
fn test_keeps_cases_inside_the_tested_folder() {
    let dir = test_project();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.yaml");
    std::fs::write(&secret, "\"TOP-SECRET\"\n").unwrap();
    let case = dir.path().join("tests/small");
    let refused = |out: &Output| {
        assert_eq!(out.status.code(), Some(1), "{}", transcript(out));
        assert!(
            text(&out.stdout).contains("is outside the tested folder"),
            "{}",
            transcript(out)
        );
        assert!(
            !text(&out.stdout).contains("TOP-SECRET"),
            "{}",
            transcript(out)
        );
        assert!(
            !text(&out.stderr).contains("TOP-SECRET"),
            "{}",
            transcript(out)
        );
    };
    let tests = dir.path().join("tests");
    // The tested folder is the case itself: its composition is found above it.
    let small = case.display().to_string();
    for args in [
        format!("--context-files=k={}", secret.display()),
        format!("--observed-resources={}", secret.display()),
        format!("-e={}", secret.display()),
        format!("--xrd={}", secret.display()),
        format!("--function-credentials={}", secret.display()),
        format!("--validate={}", secret.display()),
        "--context-files=k=../../../secret.yaml".to_string(),
    ] {
        write(&case, "args", &format!("{args}\n"));
        refused(&run(
            fnhcl(&tests).args(["--color", "never", "test", &small])
        ));
    }
    std::fs::remove_file(case.join("args")).unwrap();
    write(&case, "source", &format!("{}\n", outside.path().display()));
    refused(&run(
        fnhcl(&tests).args(["--color", "never", "test", &small])
    ));
    std::fs::remove_file(case.join("source")).unwrap();
    #[cfg(unix)]
    {
        let expected = case.join("expected.yaml");
        std::fs::remove_file(&expected).unwrap();
        std::os::unix::fs::symlink(&secret, &expected).unwrap();
        refused(&run(
            fnhcl(&tests).args(["--color", "never", "test", &small])
        ));
        // --update does not write through it either.
        refused(&run(fnhcl(&tests).args(["test", "--update", &small])));
        assert_eq!(
            std::fs::read_to_string(&secret).unwrap(),
            "\"TOP-SECRET\"\n"
        );
        std::fs::remove_file(&expected).unwrap();
    }
    // The composition above the tested folder is still found, and the flag lets a case name
    // an outside file.
    let out = run(fnhcl(&tests).args(["test", "--update", &small]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    write(
        &case,
        "args",
        &format!("--context-files=k={}\n", secret.display()),
    );
    let allowed =
        run(fnhcl(&tests).args(["--color", "never", "test", "--allow-outside-paths", &small]));
    assert!(
        !text(&allowed.stdout).contains("outside the tested folder"),
        "{}",
        transcript(&allowed)
    );
    assert!(
        text(&allowed.stdout).contains("TOP-SECRET"),
        "{}",
        transcript(&allowed)
    );
}

/// `--junit` through a symbolic link writes the file the link leads to, and the link stays.
#[cfg(unix)]
#[test]
fn test_junit_writes_through_links() {
    let dir = test_project();
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    std::os::unix::fs::symlink("reports/junit.xml", dir.path().join("link.xml")).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.path().join("null.xml")).unwrap();
    for (junit, report) in [
        ("link.xml", "reports/junit.xml"),
        ("link.xml", "reports/junit.xml"),
        ("null.xml", ""),
    ] {
        let out = run(fnhcl(dir.path()).args(["test", "--junit", junit]));
        assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
        let link = std::fs::symlink_metadata(dir.path().join(junit)).unwrap();
        assert!(link.file_type().is_symlink(), "{junit} was replaced");
        if !report.is_empty() {
            let xml = std::fs::read_to_string(dir.path().join(report)).unwrap();
            assert!(xml.contains("tests=\"2\""), "{xml}");
        }
    }
}

/// A committed link to `/dev/zero` or a named pipe is refused at once, wherever an input is
/// read: the composition, a library file, an input flag, a configuration, a case file.
#[cfg(unix)]
#[test]
fn inputs_that_are_not_regular_files_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let comp = dir.path().join("comp");
    std::fs::create_dir(&comp).unwrap();
    write(&comp, "main.hcl", DIFF_HCL);
    write(dir.path(), "xr.yaml", RENDER_XR);
    let fifo = dir.path().join("pipe.yaml");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.yaml")).unwrap();
    let refused = |out: &Output, path: &str| {
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{}",
            transcript(out)
        );
        // Words, not lines: a longer message wraps elsewhere.
        let all = words(&transcript(out));
        assert!(
            all.contains("not a regular file") && all.contains(path),
            "{all}"
        );
    };
    let render = |extra: &[&str]| {
        let mut cmd = fnhcl(dir.path());
        cmd.args(["--color", "never", "render", "xr.yaml", "comp"])
            .args(extra);
        run_bounded(&mut cmd)
    };
    for (flag, value) in [
        ("-o", "pipe.yaml"),
        ("-o", "zero.yaml"),
        ("--xrd", "zero.yaml"),
        ("--xrd", "pipe.yaml"),
    ] {
        refused(&render(&[flag, value]), value);
    }
    refused(&render(&["--context-files", "k=zero.yaml"]), "zero.yaml");
    refused(
        &run_bounded(fnhcl(dir.path()).args([
            "--color",
            "never",
            "check",
            "--config",
            "zero.yaml",
            "comp",
        ])),
        "zero.yaml",
    );
    // In the composition: a .hcl file, then a library file.
    std::os::unix::fs::symlink("/dev/zero", comp.join("zero.hcl")).unwrap();
    refused(
        &run_bounded(fnhcl(dir.path()).args(["--color", "never", "check", "comp"])),
        "zero.hcl",
    );
    refused(&render(&[]), "zero.hcl");
    std::fs::remove_file(comp.join("zero.hcl")).unwrap();
    write(&comp, "composition.yaml", "libraryFiles:\n- ../pipe.yaml\n");
    refused(
        &run_bounded(fnhcl(dir.path()).args(["--color", "never", "check", "comp"])),
        "pipe.yaml",
    );
    std::fs::remove_file(comp.join("composition.yaml")).unwrap();
    // A case's expected output.
    let case = comp.join("tests/zero");
    std::fs::create_dir_all(&case).unwrap();
    write(&case, "xr.yaml", RENDER_XR);
    write(&case, "expected.yaml", "");
    // A link to /dev/zero is outside the tested folder; a named pipe is inside it.
    let made = Command::new("mkfifo")
        .arg(case.join("context.yaml"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = run_bounded(fnhcl(dir.path()).args(["--color", "never", "test", "comp"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stdout).contains("not a regular file"),
        "{}",
        transcript(&out)
    );
}

#[test]
fn the_examples_pass_their_tests() {
    let out = run(fnhcl(&examples()).args(["test", "."]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        text(&out.stdout).ends_with("8 passed, 0 failed\n"),
        "{}",
        transcript(&out)
    );
}

/// A function-hcl debug dump as the function logs it (request part; the response part and
/// other log lines around it are ignored).
const DEBUG_DUMP: &str = "2026-11-24T10:00:00Z INFO Running Function\n## start request ##\n\n-- xr.yaml --\napiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\nspec:\n  size: medium\n\n-- observed.yaml --\n# crossplane name: cm\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    crossplane.io/composition-resource-name: cm\n  name: app-cm\n\n-- context-apiextensions.crossplane.io--environment.json --\n{\n  \"team\": \"data\"\n}\n\n## end request ##\n\n## start response ##\n\n-- rendered.yaml --\nkind: XApp\n\n## end response ##\n";

#[test]
fn test_import_turns_a_debug_dump_into_a_case() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "main.hcl",
        &DIFF_HCL.replace("\"small\"", "req.composite.spec.size"),
    );
    let mut child = fnhcl(dir.path())
        .args(["test", "import", "-", "--out", "tests/from-cluster"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(DEBUG_DUMP.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("test_import", transcript(&out));
    let case = dir.path().join("tests/from-cluster");
    let context = std::fs::read_to_string(case.join("context.yaml")).unwrap();
    assert_eq!(
        context,
        "apiextensions.crossplane.io/environment:\n  team: data\n"
    );
    assert!(
        std::fs::read_to_string(case.join("observed.yaml"))
            .unwrap()
            .contains("name: app-cm")
    );
    // The imported case renders with the composition above it.
    let update = run(fnhcl(dir.path()).args(["test", "--update"]));
    assert_eq!(update.status.code(), Some(0), "{}", transcript(&update));
    let expected = std::fs::read_to_string(case.join("expected.yaml")).unwrap();
    assert!(
        expected.contains("size: medium") && expected.contains("name: app-cm"),
        "{expected}"
    );
    // A second import into the same folder would overwrite it: refused.
    write(dir.path(), "dump.txt", DEBUG_DUMP);
    let again =
        run(fnhcl(dir.path()).args(["test", "import", "dump.txt", "--out", "tests/from-cluster"]));
    assert_eq!(again.status.code(), Some(2), "{}", transcript(&again));
    write(dir.path(), "empty.txt", "no dump here\n");
    let none = run(fnhcl(dir.path()).args(["test", "import", "empty.txt", "--out", "tests/x"]));
    assert_eq!(none.status.code(), Some(2), "{}", transcript(&none));
    assert!(!dir.path().join("tests/x").exists());
}

/// A child process killed when the test ends, however it ends.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Lines of a child's stream, read on a thread, waited for with a bound.
fn lines_of(stream: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stream)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Collects lines until one contains `marker`; panics after 30 s without it.
fn wait_for(rx: &std::sync::mpsc::Receiver<String>, marker: &str, seen: &mut Vec<String>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(marker);
                seen.push(line);
                if done {
                    return;
                }
            }
            Err(_) => panic!("no `{marker}` within 30 s; seen:\n{}", seen.join("\n")),
        }
    }
}

/// The watcher does not follow links: a committed link to `/usr` adds no watches, a link to
/// `/` does not fail the start.
#[cfg(target_os = "linux")]
#[test]
fn watch_does_not_follow_links() {
    let dir = test_project();
    std::os::unix::fs::symlink("/usr", dir.path().join("usr")).unwrap();
    std::os::unix::fs::symlink("/", dir.path().join("root")).unwrap();
    let mut child = fnhcl(dir.path())
        .args(["test", "--watch", "."])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (_stdout, stderr) = (
        lines_of(child.stdout.take().unwrap()),
        lines_of(child.stderr.take().unwrap()),
    );
    let _guard = Killed(child);
    let mut status = Vec::new();
    wait_for(&stderr, "run 1 done", &mut status);
    // inotify watches are listed one a line in the fdinfo of the inotify descriptor.
    let mut watches = 0;
    for fd in std::fs::read_dir(format!("/proc/{pid}/fdinfo"))
        .unwrap()
        .flatten()
    {
        let info = std::fs::read_to_string(fd.path()).unwrap_or_default();
        watches += info
            .lines()
            .filter(|l| l.starts_with("inotify wd:"))
            .count();
    }
    assert!(watches > 0, "no inotify watch found");
    assert!(watches < 50, "{watches} watches: links were followed");
}

#[test]
fn watch_renders_and_tests_again_after_an_edit() {
    let dir = test_project();
    for command in [
        vec!["render", "--watch", "tests/small/xr.yaml", "."],
        vec!["test", "--watch", "."],
    ] {
        write(dir.path(), "main.hcl", DIFF_HCL);
        let mut child = fnhcl(dir.path())
            .args(&command)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (stdout, stderr) = (
            lines_of(child.stdout.take().unwrap()),
            lines_of(child.stderr.take().unwrap()),
        );
        let _guard = Killed(child);
        let (first, second) = if command[0] == "render" {
            ("size: small", "size: watched")
        } else {
            ("2 passed, 0 failed", "0 passed, 2 failed")
        };
        let (mut status, mut out) = (Vec::new(), Vec::new());
        wait_for(&stdout, first, &mut out);
        wait_for(&stderr, "run 1 done", &mut status);
        // An edit starts another run, with the edit in its output.
        write(
            dir.path(),
            "main.hcl",
            &DIFF_HCL.replace("small", "watched"),
        );
        wait_for(&stdout, second, &mut out);
        wait_for(&stderr, "run 2 done", &mut status);
        let want = if command[0] == "render" {
            "exit 0"
        } else {
            "exit 1"
        };
        assert!(
            status.last().is_some_and(|s| s.contains(want)),
            "{status:?}"
        );
        if command[0] == "test" {
            assert!(out.iter().any(|l| l == "+  size: watched"), "{out:?}");
        }
    }
}

#[test]
fn render_prints_function_hcls_debug_dump_which_test_import_reads() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", DIFF_HCL);
    let annotated = RENDER_XR.replacen(
        "metadata:\n",
        "metadata:\n  annotations:\n    hcl.fn.crossplane.io/debug: \"true\"\n",
        1,
    );
    assert_ne!(annotated, RENDER_XR);
    write(dir.path(), "xr.yaml", &annotated);
    let out = run(fnhcl(dir.path()).args(["render", "xr.yaml", "."]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let dump = text(&out.stderr);
    snapshot!("render_debug_dump", dump);
    // -q leaves the dump out; without the annotation there is none.
    let quiet = run(fnhcl(dir.path()).args(["render", "-q", "xr.yaml", "."]));
    assert_eq!(text(&quiet.stderr), "");
    write(dir.path(), "plain.yaml", RENDER_XR);
    let plain = run(fnhcl(dir.path()).args(["render", "plain.yaml", "."]));
    assert!(
        !text(&plain.stderr).contains("## start request ##"),
        "{}",
        transcript(&plain)
    );
    // The dump, pasted into `test import`, is a case that renders as the render did.
    write(dir.path(), "log.txt", &dump);
    let import =
        run(fnhcl(dir.path()).args(["test", "import", "log.txt", "--out", "tests/dumped"]));
    assert_eq!(import.status.code(), Some(0), "{}", transcript(&import));
    let update = run(fnhcl(dir.path()).args(["test", "-q", "--update"]));
    assert!(
        text(&update.stdout).contains("1 updated"),
        "{}",
        transcript(&update)
    );
    let expected = std::fs::read_to_string(dir.path().join("tests/dumped/expected.yaml")).unwrap();
    let head = |t: &str| t.lines().take(3).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(head(&text(&out.stdout)), head(&expected));
    assert!(expected.contains("size: small"), "{expected}");
}

/// The `fnhcl test` fixture trees of `tests/fixtures/golden/` (see its README).
fn golden_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/golden")
}

/// Every case of `assert-pass/` passes: assert.yaml alone and beside expected.yaml, expected
/// failures by fragment and by location, xprin's passing assertion cases.
#[test]
fn test_assert_cases_pass() {
    let out = run(fnhcl(&golden_fixtures()).args(["test", "assert-pass", "-v"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        text(&out.stdout).ends_with("7 passed, 0 failed\n"),
        "{}",
        transcript(&out)
    );
    snapshot!("test_assert_passing", transcript(&out));
}

/// Every case of `assert-fail/` fails, each failure naming the assertion, the field path,
/// expected against actual, and its line in assert.yaml.
#[test]
fn test_assert_cases_fail_with_their_lines() {
    let out = run(fnhcl(&golden_fixtures()).args(["--color", "never", "test", "assert-fail"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stdout).ends_with("0 passed, 11 failed\n"),
        "{}",
        transcript(&out)
    );
    snapshot!("test_assert_failing", transcript(&out));
}

/// A case with only assert.yaml is found, and `--update` never writes a golden beside it,
/// whether its assertions hold or not.
#[test]
fn test_assert_update_writes_no_golden() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", DIFF_HCL);
    let case = dir.path().join("tests/asserted");
    std::fs::create_dir_all(&case).unwrap();
    write(&case, "xr.yaml", RENDER_XR);
    write(
        &case,
        "assert.yaml",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  size: small\n",
    );
    let out = run(fnhcl(dir.path()).args(["test", "--update"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        text(&out.stdout).ends_with("1 passed, 0 failed\n"),
        "{}",
        transcript(&out)
    );
    assert!(!case.join("expected.yaml").exists());
    write(
        &case,
        "assert.yaml",
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  size: large\n",
    );
    let out = run(fnhcl(dir.path()).args(["test", "--update"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stdout).contains(
            "  assert.yaml:4:9: data.size: Invalid value: \"small\": Expected value: \"large\""
        ),
        "{}",
        transcript(&out)
    );
    assert!(!case.join("expected.yaml").exists());
}

#[test]
fn test_ignore_paths_leave_fields_out_and_update_keeps_such_goldens() {
    let dir = test_project();
    let golden = dir.path().join("tests/small/expected.yaml");
    let before = std::fs::read_to_string(&golden).unwrap();
    write(
        &dir.path().join("tests/small"),
        "ignore-paths",
        "# the size may change\ndata.size\n",
    );
    write(dir.path(), "main.hcl", &DIFF_HCL.replace("small", "huge"));
    let out = run(fnhcl(dir.path()).args(["test", "--filter", "small"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let update = run(fnhcl(dir.path()).args(["test", "--update", "--filter", "small"]));
    assert!(
        text(&update.stdout).contains("1 passed, 0 failed\n"),
        "{}",
        transcript(&update)
    );
    assert_eq!(std::fs::read_to_string(&golden).unwrap(), before);
    // The other case has no such file: it fails.
    let other = run(fnhcl(dir.path()).args(["test", "--filter", "other"]));
    assert_eq!(other.status.code(), Some(1), "{}", transcript(&other));
}

/// Hostile nesting that does not use brackets: splat chains, operator chains and template
/// directives count against the parser's nesting limit (one S002, no crash, no cascade), in
/// every command that parses.
#[test]
fn chains_and_directives_count_against_the_nesting_limit() {
    let inputs = [
        (
            "splats",
            format!("locals {{\n  x = [1]{}\n}}\n", "[*]".repeat(11_000)),
        ),
        (
            "indexes",
            format!("locals {{\n  x = a{}\n}}\n", "[i]".repeat(11_000)),
        ),
        (
            "operators",
            format!("locals {{\n  x = 1{}\n}}\n", "+1".repeat(20_000)),
        ),
        (
            "if-directives",
            format!(
                "locals {{\n  x = \"{}a{}\"\n}}\n",
                "%{if true}".repeat(12_000),
                "%{endif}".repeat(12_000)
            ),
        ),
        (
            "for-directives",
            format!(
                "locals {{\n  x = \"{}a{}\"\n}}\n",
                "%{for i in [1]}".repeat(5_000),
                "%{endfor}".repeat(5_000)
            ),
        ),
    ];
    for (name, source) in inputs {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "main.hcl", &source);
        write(dir.path(), "xr.yaml", RENDER_XR);
        for args in [
            vec!["check", "--format", "json", "-q", "."],
            vec!["fmt", "--check", "--format", "json", "."],
            vec!["render", "--format", "json", "xr.yaml", "."],
        ] {
            let out = run(fnhcl(dir.path()).args(&args));
            assert_eq!(
                out.status.code(),
                Some(1),
                "{name} {args:?}: {}",
                transcript(&out)
            );
            let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
            assert_eq!(all.matches("\"S002\"").count(), 1, "{name} {args:?}: {all}");
        }
    }
    // Below the limit the same shapes still parse and evaluate.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(
        dir.path(),
        "main.hcl",
        &format!(
            "composite status {{\n  body = {{\n    n = 0{}\n    s = \"{}a{}\"\n  }}\n}}\n",
            "+1".repeat(500),
            "%{if true}".repeat(400),
            "%{endif}".repeat(400)
        ),
    );
    let out = run(fnhcl(dir.path()).args(["render", "xr.yaml", "."]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        text(&out.stdout).contains("\"n\": 500\n") && text(&out.stdout).contains("s: a\n"),
        "{}",
        transcript(&out)
    );
}

#[cfg(unix)]
#[test]
fn fmt_writes_through_links_and_refuses_what_it_must_not_replace() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let unformatted = "a=1\n";
    // A symbolic link: the file it points to is formatted, the link stays a link.
    std::fs::create_dir(dir.path().join("real")).unwrap();
    write(&dir.path().join("real"), "target.hcl", unformatted);
    std::os::unix::fs::symlink("real/target.hcl", dir.path().join("link.hcl")).unwrap();
    let out = run(fnhcl(dir.path()).args(["fmt", "link.hcl"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        std::fs::symlink_metadata(dir.path().join("link.hcl"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("real/target.hcl")).unwrap(),
        "a = 1\n"
    );
    // A read-only file is refused and left alone (root may write anyway: skip then).
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    write(&ro, "locked.hcl", unformatted);
    std::fs::set_permissions(
        ro.join("locked.hcl"),
        std::fs::Permissions::from_mode(0o444),
    )
    .unwrap();
    let out = run(fnhcl(&ro).args(["--color", "never", "fmt", "locked.hcl"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("is read-only"),
        "{}",
        transcript(&out)
    );
    assert_eq!(
        std::fs::read_to_string(ro.join("locked.hcl")).unwrap(),
        unformatted
    );
    // A file with another hard link is refused: replacing it would split the two names.
    let hard = dir.path().join("hard");
    std::fs::create_dir(&hard).unwrap();
    write(&hard, "one.hcl", unformatted);
    std::fs::hard_link(hard.join("one.hcl"), hard.join("two.hcl")).unwrap();
    let out = run(fnhcl(&hard).args(["--color", "never", "fmt", "one.hcl"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("2 hard links"),
        "{}",
        transcript(&out)
    );
    assert_eq!(
        std::fs::read_to_string(hard.join("two.hcl")).unwrap(),
        unformatted
    );
}

#[test]
fn fmt_removes_temporary_files_a_killed_run_left() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", "a = 1\n");
    // Named as a process that no longer runs would have named it.
    let stale = dir.path().join(".fnhcl-4000000000-x1y2z3.tmp");
    write(dir.path(), ".fnhcl-4000000000-x1y2z3.tmp", "half a file");
    let check = run(fnhcl(dir.path()).args(["fmt", "--check", "."]));
    assert_eq!(check.status.code(), Some(0), "{}", transcript(&check));
    assert!(stale.exists(), "--check writes nothing, removes nothing");
    let out = run(fnhcl(dir.path()).args(["fmt", "."]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    if Path::new("/proc").is_dir() {
        assert!(!stale.exists());
    }
}

#[cfg(unix)]
#[test]
fn extract_never_writes_through_a_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let composition = "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\nspec:\n  mode: Pipeline\n  pipeline:\n  - step: hcl\n    functionRef:\n      name: function-hcl\n    input:\n      kind: HclInput\n      hcl: |\n        -- lib/a.hcl --\n        locals {\n          a = 1\n        }\n        -- b.hcl --\n        locals {\n          b = 1\n        }\n";
    write(dir.path(), "c.yaml", composition);
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(dir.path().join("out")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("out/lib")).unwrap();
    let out = run(fnhcl(dir.path()).args([
        "--color",
        "never",
        "package",
        "--extract",
        "c.yaml",
        "--out",
        "out",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("symbolic link"),
        "{}",
        transcript(&out)
    );
    assert!(!elsewhere.join("a.hcl").exists());
    // Nothing at all is written when one member is refused.
    assert!(!dir.path().join("out/b.hcl").exists());
}

#[test]
fn a_composition_written_as_json_is_a_composition() {
    let dir = tempfile::tempdir().unwrap();
    let composition = serde_json::json!({
        "apiVersion": "apiextensions.crossplane.io/v1",
        "kind": "Composition",
        "metadata": {"name": "c"},
        "spec": {
            "compositeTypeRef": {"apiVersion": "example.org/v1", "kind": "XApp"},
            "mode": "Pipeline",
            "pipeline": [{
                "step": "hcl",
                "functionRef": {"name": "function-hcl"},
                "input": {"kind": "HclInput", "hcl": format!("-- main.hcl --\n{DIFF_HCL}")},
            }],
        },
    });
    write(
        dir.path(),
        "composition.json",
        &serde_json::to_string_pretty(&composition).unwrap(),
    );
    write(dir.path(), "xr.yaml", RENDER_XR);
    let out = run(fnhcl(dir.path()).args(["render", "xr.yaml", "composition.json"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        text(&out.stdout).contains("size: small"),
        "{}",
        transcript(&out)
    );
    let check = run(fnhcl(dir.path()).args(["check", "composition.json"]));
    assert_eq!(check.status.code(), Some(0), "{}", transcript(&check));
}

/// The hostile inputs of issue 16 that were fixed by limits (each listed in
/// docs/compatibility.md): each ends with a diagnostic and exit 1 or 2 — no abort, no hang,
/// no memory blow-up (benches/hostile.sh measures their time and peak memory).
#[test]
fn hostile_inputs_end_with_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "xr.yaml", RENDER_XR);
    // A number of a hundred million digits in a resource body.
    std::fs::create_dir(d.join("number")).unwrap();
    write(
        &d.join("number"),
        "main.hcl",
        "resource x {\n  body = {\n    apiVersion = \"v1\"\n    kind = \"ConfigMap\"\n    data = { a = \"${1e100000000}\" }\n  }\n}\n",
    );
    let out = run(fnhcl(d)
        .env("COLUMNS", "1000")
        .args(["render", "xr.yaml", "number"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("cannot serialize number 1e+100000000 as JSON: it has more digits than fnhcl's limit of 100000"),
        "{}",
        transcript(&out)
    );
    for (expr, code, wanted) in [
        ("tostring(1e10000000)", 1, "more digits than fnhcl's limit"),
        (
            "format(\"%d\", 1e2000000)",
            1,
            "more digits than fnhcl's limit",
        ),
        // Go's exponent is an int32: beyond it, +Inf (the oracle's answer).
        ("1e1000000000 + 1", 0, "+Inf"),
        (
            "setproduct(range(1024), range(1024), range(1024))",
            1,
            "the product would have",
        ),
        (
            "jsondecode(replace(format(\"%50000s\", \"\"), \" \", \"[\"))",
            1,
            "more than 1000 levels deep",
        ),
        (
            "length(yamldecode(\"a: &a [1,1,1,1,1,1,1,1,1,1]\\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\\n\"))",
            1,
            "aliases expand to more than 1000000 nodes",
        ),
    ] {
        let out = run(fnhcl(d).env("COLUMNS", "1000").args(["eval", expr]));
        assert_eq!(
            out.status.code(),
            Some(code),
            "{expr}: {}",
            transcript(&out)
        );
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(all.contains(wanted), "{expr}: {all}");
    }
    // 10,000 locals a_i = [a_(i-1)]: values nest at most 1,000 levels.
    std::fs::create_dir(d.join("chain")).unwrap();
    let chain: String = (1..10_000)
        .map(|i| format!("  a{i} = [a{}]\n", i - 1))
        .collect();
    write(
        &d.join("chain"),
        "main.hcl",
        &format!("locals {{\n  a0 = 1\n{chain}}}\n"),
    );
    let out = run(fnhcl(d)
        .env("COLUMNS", "1000")
        .args(["eval", "--hcl", "chain", "a9999"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("nests collections more than 1000 levels deep"),
        "{}",
        transcript(&out)
    );
    // An XR of 21 KB: one anchor of 3,000 items aliased 3,000 times.
    write(
        d,
        "aliases.yaml",
        &format!(
            "apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\nspec:\n  base: &x [{}]\n  uses:\n{}",
            vec!["1"; 3000].join(","),
            "  - *x\n".repeat(3000)
        ),
    );
    let out = run(fnhcl(d)
        .env("COLUMNS", "1000")
        .args(["render", "aliases.yaml", "number"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("aliases expand to more than 1000000 nodes"),
        "{}",
        transcript(&out)
    );
    // 60,000 small locals blocks with object-literal colons: fmt is linear.
    std::fs::create_dir(d.join("blocks")).unwrap();
    let blocks: String = (0..60_000)
        .map(|i| format!("locals {{\n  a{i} = {{ k: {i} }}\n}}\n"))
        .collect();
    write(&d.join("blocks"), "main.hcl", &blocks);
    let out = run(fnhcl(d)
        .env("COLUMNS", "1000")
        .args(["fmt", "--check", "blocks"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    let out = run(fnhcl(d).env("COLUMNS", "1000").args(["fmt", "blocks"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    let formatted = std::fs::read_to_string(d.join("blocks/main.hcl")).unwrap();
    assert!(formatted.contains("locals {\n  a59999 = { k = 59999 }\n}\n"));
    // 20,000 syntax errors, reported in the human format.
    std::fs::create_dir(d.join("errors")).unwrap();
    let errors: String = (0..20_000)
        .map(|i| format!("locals {{\n  a{i} = = \n}}\n"))
        .collect();
    write(&d.join("errors"), "main.hcl", &errors);
    let out = run(fnhcl(d)
        .env("COLUMNS", "1000")
        .args(["--color", "never", "check", "errors"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("20000 errors"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout).matches("×").count(), 20_000);
}

/// A command as another user when the tests run as root (root reads any folder), else as is.
#[cfg(unix)]
fn unprivileged(dir: &Path) -> Command {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        return fnhcl(dir);
    }
    let mut cmd = Command::new("setpriv");
    cmd.current_dir(dir)
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_fnhcl"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "1000");
    cmd
}

/// Inputs fnhcl cannot read are errors (exit 2) that name the path, in every command; input
/// of the wrong shape is refused, not read as something else.
#[cfg(unix)]
#[test]
fn unreadable_and_misshapen_inputs_are_errors_that_name_them() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    write(d, "main.hcl", "locals {\n  a = 1\n}\n");
    write(&d.join("sub"), "main.hcl", "locals {\n  b = 1\n}\n");
    std::fs::set_permissions(d.join("sub"), std::fs::Permissions::from_mode(0o000)).unwrap();
    if Command::new("setpriv").arg("--version").output().is_ok() {
        for args in [vec!["check", "."], vec!["fmt", "--check", "."]] {
            let out = run(unprivileged(d).args(&args));
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", transcript(&out));
            assert!(
                text(&out.stderr).contains("cannot read directory `./sub`: permission denied"),
                "{args:?}: {}",
                transcript(&out)
            );
        }
    } else {
        eprintln!("setpriv not found: the unreadable-folder part is skipped");
    }
    std::fs::set_permissions(d.join("sub"), std::fs::Permissions::from_mode(0o755)).unwrap();
    // fmt: a missing file and a file that is not UTF-8 are input errors.
    std::fs::write(d.join("bad.hcl"), b"a = \"\xff\"\n").unwrap();
    for file in ["missing.hcl", "bad.hcl"] {
        let out = run(fnhcl(d).args(["fmt", file]));
        assert_eq!(out.status.code(), Some(2), "{file}: {}", transcript(&out));
    }
    // Kubernetes objects must be mappings.
    write(d, "xr.yaml", RENDER_XR);
    write(d, "scalar.yaml", "42\n");
    write(d, "list.yaml", "- a\n- b\n");
    for args in [
        vec!["render", "xr.yaml", "sub", "-o", "scalar.yaml"],
        vec!["render", "xr.yaml", "sub", "-e", "list.yaml"],
        vec![
            "render",
            "xr.yaml",
            "sub",
            "--function-credentials",
            "scalar.yaml",
        ],
        vec!["eval", "-o", "scalar.yaml", "1"],
        vec!["eval", "-e", "n=list.yaml", "1"],
    ] {
        let out = run(fnhcl(d).env("COLUMNS", "1000").args(&args));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", transcript(&out));
        assert!(
            text(&out.stderr).contains("not a Kubernetes object"),
            "{args:?}: {}",
            transcript(&out)
        );
    }
    // An empty requirement file is allowed, and said.
    write(d, "empty.yaml", "");
    let out = run(fnhcl(d).args(["eval", "-e", "n=empty.yaml", "req.extra_resources.n"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("holds no resources"),
        "{}",
        transcript(&out)
    );
    // A pipeline that is not a list; --step without --hcl; an XR as a request.
    write(
        d,
        "comp.yaml",
        "apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: c\nspec:\n  mode: Pipeline\n  pipeline: 42\n",
    );
    let out = run(fnhcl(d).args(["render", "xr.yaml", "comp.yaml"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("spec.pipeline is a scalar, not a list of steps"),
        "{}",
        transcript(&out)
    );
    let out = run(fnhcl(d).args(["render", "xr.yaml", "comp.yaml", "--step", "nope"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    write(
        d,
        "xr.json",
        r#"{"apiVersion": "example.org/v1", "kind": "XApp", "metadata": {"name": "a"}}"#,
    );
    let out = run(fnhcl(d).args(["function", "run", "--request", "xr.json", "sub"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("unknown field \"apiVersion\""),
        "{}",
        transcript(&out)
    );
}

/// What held before issue 16 and must keep holding: bad input is a clear error, never a
/// crash — invalid UTF-8 and binary files, empty and missing files, YAML with tabs,
/// billion-laughs and 100,000-deep YAML/JSON inputs, 100,000-deep HCL brackets, `range`'s
/// limit, a catastrophic regular expression, a 100 MB string, user-function recursion.
#[test]
fn bad_input_that_already_failed_cleanly_still_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "xr.yaml", RENDER_XR);
    std::fs::create_dir(d.join("c")).unwrap();
    write(
        &d.join("c"),
        "main.hcl",
        "composite status {\n  body = { a = 1 }\n}\n",
    );
    std::fs::write(d.join("bad.hcl"), b"locals {\n  a = \"\xff\"\n}\n").unwrap();
    let binary: Vec<u8> = (0..3000u32).map(|i| (i * 7919 % 256) as u8).collect();
    std::fs::write(d.join("binary.hcl"), binary).unwrap();
    write(d, "empty.hcl", "");
    write(
        d,
        "tabs.yaml",
        "apiVersion: v1\nkind: X\nmetadata:\n\tname: x\n",
    );
    let mut laughs = String::from(
        "apiVersion: v1\nkind: X\nmetadata:\n  name: x\nspec:\n  a: &a [l, l, l, l, l, l, l, l, l]\n",
    );
    for (prev, name) in "abcdefgh".chars().zip("bcdefghi".chars()) {
        laughs.push_str(&format!(
            "  {name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 9].join(", ")
        ));
    }
    write(d, "laughs.yaml", &laughs);
    write(
        d,
        "deep.yaml",
        &format!("a: {}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
    );
    write(
        d,
        "deep.json",
        &format!(
            "{{\"a\": {}{}}}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
    );
    write(
        d,
        "deep.hcl",
        &format!(
            "locals {{\n  a = {}{}\n}}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
    );
    for (args, code, wanted) in [
        (vec!["check", "bad.hcl"], 2, "I003"),
        (vec!["check", "binary.hcl"], 2, "I003"),
        (vec!["check", "empty.hcl"], 0, ""),
        (vec!["check", "missing.hcl"], 2, "I001"),
        (vec!["render", "tabs.yaml", "c"], 2, "I002"),
        (
            vec!["render", "laughs.yaml", "c"],
            2,
            "aliases expand to more than",
        ),
        (vec!["render", "deep.yaml", "c"], 2, "I002"),
        (vec!["render", "deep.json", "c"], 2, "I002"),
        (vec!["check", "deep.hcl"], 1, "S002"),
        (
            vec!["eval", "range(0, 2000)"],
            1,
            "more than 1024 values were generated",
        ),
        (
            vec![
                "eval",
                "regex(\"^(a+)+$\", \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\")",
            ],
            1,
            "pattern did not match",
        ),
        (
            vec!["eval", "length(format(\"%100000000s\", \"x\"))"],
            0,
            "100000000",
        ),
    ] {
        let out = run(fnhcl(d).env("COLUMNS", "1000").args(&args));
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            transcript(&out)
        );
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(all.contains(wanted), "{args:?}: {all}");
    }
    std::fs::create_dir(d.join("rec")).unwrap();
    write(
        &d.join("rec"),
        "main.hcl",
        "function f {\n  arg n {}\n  body = invoke(\"f\", { n = n + 1 })\n}\ncomposite status {\n  body = { a = invoke(\"f\", { n = 0 }) }\n}\n",
    );
    let out = run(fnhcl(d)
        .env("COLUMNS", "1000")
        .args(["render", "xr.yaml", "rec"]));
    assert!(
        text(&out.stderr).contains("user function calls: max depth 100"),
        "{}",
        transcript(&out)
    );
}

/// Evaluation is hermetic: a render that calls 35 built-in functions touches its inputs, the
/// process's own `/proc` and cgroup files and the system's shared libraries, and nothing else —
/// no other file, no network, no other program. Needs `strace` (skipped without it).
#[cfg(target_os = "linux")]
#[test]
fn evaluation_touches_only_its_inputs() {
    if Command::new("strace").arg("-V").output().is_err() {
        eprintln!("strace not found: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "xr.yaml", RENDER_XR);
    std::fs::create_dir(d.join("c")).unwrap();
    let calls = [
        "upper(\"a\")",
        "lower(\"A\")",
        "title(\"a b\")",
        "replace(\"ab\", \"b\", \"c\")",
        "split(\",\", \"a,b\")",
        "join(\"-\", [\"a\", \"b\"])",
        "format(\"%05d\", 42)",
        "jsonencode({ a = 1 })",
        "yamlencode({ a = 1 })",
        "base64encode(\"a\")",
        "sha256(\"a\")",
        "sha1(\"a\")",
        "md5(\"a\")",
        "base64sha256(\"a\")",
        "length(timestamp())",
        "sort([\"b\", \"a\"])",
        "max(3, 1)",
        "min(3, 1)",
        "sum([1, 2])",
        "keys({ a = 1 })",
        "values({ a = 1 })",
        "merge({ a = 1 }, { b = 2 })",
        "cidrsubnet(\"10.0.0.0/8\", 8, 1)",
        "regex(\"[a-z]+\", \"ab1\")",
        "formatdate(\"YYYY\", \"2024-01-01T00:00:00Z\")",
        "tostring(abs(-3))",
        "ceil(1.5)",
        "floor(1.5)",
        "distinct([1, 1, 2])",
        "flatten([[1], [2]])",
        "reverse([1, 2])",
        "contains([1], 1)",
        "coalesce(\"\", \"x\")",
        "base64gzip(\"x\")",
        "jsondecode(\"{\\\"a\\\": 1}\")",
    ];
    let body: String = calls
        .iter()
        .enumerate()
        .map(|(i, call)| format!("    f{i} = {call}\n"))
        .collect();
    write(
        &d.join("c"),
        "main.hcl",
        &format!("composite status {{\n  body = {{\n{body}  }}\n}}\n"),
    );
    // cargo's library path would send the dynamic loader looking in target/: not fnhcl's doing.
    let out = run(Command::new("strace")
        .env_remove("LD_LIBRARY_PATH")
        .current_dir(d)
        .args([
            "-f",
            // Print strings whole: a long checkout path would be cut at strace's default 32.
            "-s",
            "65536",
            "-e",
            "trace=%file,%network,%process",
            "-o",
            "trace.txt",
        ])
        .arg(env!("CARGO_BIN_EXE_fnhcl"))
        .args(["render", "xr.yaml", "c"]));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(text(&out.stdout).contains("f34:"), "{}", transcript(&out));
    let trace = std::fs::read_to_string(d.join("trace.txt")).unwrap();
    let binary = env!("CARGO_BIN_EXE_fnhcl");
    let allowed = |path: &str| {
        path.is_empty()
            || path == binary
            || ["xr.yaml", "c", "c/"]
                .iter()
                .any(|p| path == *p || path.starts_with("c/"))
            || [
                "/proc/",
                "/sys/",
                "/lib",
                "/usr/lib",
                "/etc/ld.so",
                "/dev/urandom",
            ]
            .iter()
            .any(|p| path.starts_with(p))
    };
    let mut touched = Vec::new();
    for line in trace.lines() {
        for syscall in ["socket(", "connect(", "bind("] {
            assert!(!line.contains(syscall), "network: {line}");
        }
        if line.contains("execve(") {
            assert!(line.contains(binary), "another program: {line}");
        }
        let mut rest = line;
        while let Some(start) = rest.find('"') {
            let Some(len) = rest[start + 1..].find('"') else {
                break;
            };
            let path = &rest[start + 1..start + 1 + len];
            if (path.starts_with('/') || path.contains('.') || path == "c") && !allowed(path) {
                touched.push(path.to_string());
            }
            rest = &rest[start + len + 2..];
        }
    }
    // The execve line names the arguments too: `render` and the input paths.
    touched.retain(|p| p != "render");
    assert!(touched.is_empty(), "touched {touched:?}\n{trace}");
}

/// `function serve` answers RunFunction over gRPC with what `function run` computes, logs a
/// line per request, and stops gracefully on SIGTERM (exit 0). Loopback, a free port, bounded
/// waits; the server is killed if the test fails.
#[cfg(unix)]
#[test]
fn function_serve_answers_over_grpc_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(dir.path())
        .args([
            "function",
            "serve",
            "--insecure",
            "--address",
            "127.0.0.1:0",
            "--log-format",
            "json",
        ])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Killed(child);
    let stderr = server.0.stderr.take().unwrap();
    let (lines_tx, lines) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait = std::time::Duration::from_secs(30);
    let first = lines.recv_timeout(wait).expect("the server said nothing");
    let address = first
        .strip_prefix("fnhcl function serve: listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected first line: {first}"))
        .to_string();
    // The request function-hcl would get: the program inline in the step's input.
    let request: fnhcl::eval::proto::RunFunctionRequest = serde_json::from_value(serde_json::json!({
        "meta": {"tag": "t-42"},
        "observed": {"composite": {"resource": {
            "apiVersion": "example.org/v1", "kind": "XApp",
            "metadata": {"name": "app"}, "spec": {"size": 2}}}},
        "input": {"apiVersion": "hcl.fn.crossplane.io/v1beta1", "kind": "HclInput",
            "hcl": "-- main.hcl --\nresource cm {\n  body = {\n    apiVersion = \"v1\"\n    kind = \"ConfigMap\"\n    data = { size = tostring(req.composite.spec.size) }\n  }\n}\n"}
    }))
    .unwrap();
    let wire = fnhcl::grpc::convert::request_to_pb(&request).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let response = runtime
        .block_on(fnhcl::grpc::service::call(&address, wire, wait))
        .unwrap();
    let response = fnhcl::grpc::convert::response_from_pb(&response);
    // The same as `function run` on the same request.
    let expected =
        fnhcl::eval::function::run(&mut fnhcl::source::SourceMap::new(), &request, None).response;
    assert_eq!(response, expected);
    let desired = response.desired.unwrap();
    assert_eq!(
        desired.resources["cm"].resource.as_ref().unwrap()["data"]["size"],
        "2"
    );
    let log = lines.recv_timeout(wait).expect("no request log line");
    let log: serde_json::Value = serde_json::from_str(&log).unwrap();
    assert_eq!(log["msg"], "RunFunction");
    assert_eq!(log["tag"], "t-42");
    assert_eq!(log["composite"], "XApp/app");
    assert_eq!(log["desiredResources"], 1);
    // SIGTERM: a graceful stop, exit 0.
    let pid = server.0.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let deadline = std::time::Instant::now() + wait;
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not stop"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
    // Without --insecure there is nothing to serve with.
    let out = run(fnhcl(dir.path()).args(["function", "serve"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(text(&out.stderr).contains("no credentials provided"));
    // --insecure and --tls-certs-dir exclude each other.
    let out =
        run(fnhcl(dir.path()).args(["function", "serve", "--insecure", "--tls-certs-dir", "."]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
}

/// PEM certificates for a CA, a server (`localhost`, 127.0.0.1) and a client it signs.
fn test_pki() -> [(String, String); 3] {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let signed = |names: Vec<String>| {
        let key = KeyPair::generate().unwrap();
        let cert = CertificateParams::new(names)
            .unwrap()
            .signed_by(&key, &ca, &ca_key)
            .unwrap();
        (cert.pem(), key.serialize_pem())
    };
    [
        (ca.pem(), ca_key.serialize_pem()),
        signed(vec!["localhost".into(), "127.0.0.1".into()]),
        signed(vec!["client".into()]),
    ]
}

/// `function serve --tls-certs-dir`: mutual TLS as function SDKs serve it — a client with a
/// certificate the CA signed is answered; one without a certificate, or in plaintext, is not.
#[cfg(unix)]
#[test]
fn function_serve_speaks_mutual_tls() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use tonic::transport::{Certificate, ClientTlsConfig, Identity};
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let [
        (ca, _),
        (server_cert, server_key),
        (client_cert, client_key),
    ] = test_pki();
    let certs = dir.path().join("tls");
    std::fs::create_dir(&certs).unwrap();
    write(&certs, "ca.crt", &ca);
    write(&certs, "tls.crt", &server_cert);
    write(&certs, "tls.key", &server_key);
    let child = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(dir.path())
        .args(["function", "serve", "--address", "127.0.0.1:0"])
        .env("TLS_SERVER_CERTS_DIR", &certs)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Killed(child);
    let mut stderr = BufReader::new(server.0.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(first.contains("(mutual TLS gRPC)"), "{first}");
    let port = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("127.0.0.1:"))
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    let target = format!("localhost:{port}");
    let request = fnhcl::grpc::pb::RunFunctionRequest {
        meta: Some(fnhcl::grpc::pb::RequestMeta {
            tag: "tls".into(),
            capabilities: Vec::new(),
        }),
        ..Default::default()
    };
    let wait = std::time::Duration::from_secs(20);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let trusted = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(&ca))
        .domain_name("localhost");
    let with_cert = trusted
        .clone()
        .identity(Identity::from_pem(&client_cert, &client_key));
    let answered = runtime
        .block_on(fnhcl::grpc::service::call_with(
            &target,
            Some(with_cert),
            request.clone(),
            wait,
        ))
        .unwrap();
    assert_eq!(answered.meta.unwrap().tag, "tls");
    // No client certificate: refused during the handshake.
    let refused = runtime.block_on(fnhcl::grpc::service::call_with(
        &target,
        Some(trusted),
        request.clone(),
        wait,
    ));
    assert!(refused.is_err(), "{refused:?}");
    // Plaintext to a TLS server: refused.
    let plain = runtime.block_on(fnhcl::grpc::service::call(&target, request, wait));
    assert!(plain.is_err(), "{plain:?}");
    drop(server);
    // A folder without the certificates is an error naming the file.
    let out = run(fnhcl(dir.path()).args(["function", "serve", "--tls-certs-dir", "."]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("cannot read `tls.crt`: no such file or directory"),
        "{}",
        transcript(&out)
    );
}

/// A composition that builds more than the element budget: each product is a million pairs
/// (three million elements with the pairs' own), the second passes the budget of 4 Mi. Issue
/// 28's input, three `for` nested over `range(1024)`, is stopped the same way
/// (`benches/hostile.sh`), but takes longer to get there in a debug build.
const PRODUCTS_HCL: &str = "locals {\n  products = [for i in range(8) : length(setproduct(range(1000), range(1000)))]\n}\ncomposite status {\n  body = { n = products }\n}\n";

/// Runs `cmd` to its end, or kills it and fails the test after `secs` seconds.
fn run_within(cmd: &mut Command, secs: u64) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fnhcl starts");
    let (tx, rx) = std::sync::mpsc::channel();
    let pid = child.id();
    let waiter = std::thread::spawn(move || {
        let out = child.wait_with_output();
        let _ = tx.send(());
        out
    });
    if rx
        .recv_timeout(std::time::Duration::from_secs(secs))
        .is_err()
    {
        // The process is ours (spawned above) and still running: end it by its id.
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        let _ = waiter.join();
        panic!("fnhcl ran for more than {secs} s: {cmd:?}");
    }
    waiter
        .join()
        .expect("the waiter thread")
        .expect("fnhcl's output")
}

#[test]
fn an_evaluation_that_builds_too_much_ends_once_at_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(dir.path(), "request.json", XR_REQUEST);
    write(dir.path(), "main.hcl", PRODUCTS_HCL);
    // Before the element budget, these built 8 million pairs and succeeded; three `for`
    // nested over `range(1024)` ran for many minutes.
    let out = run_within(
        fnhcl(dir.path()).args(["check", "--color", "never", "."]),
        300,
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("budget_check", transcript(&out));
    let out = run_within(
        fnhcl(dir.path()).args([
            "render",
            "--color",
            "never",
            "--timeout",
            "10m",
            "xr.yaml",
            ".",
        ]),
        300,
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("budget_render", transcript(&out));
    let out = run_within(
        fnhcl(dir.path()).args([
            "function",
            "run",
            "--color",
            "never",
            "--request",
            "request.json",
            ".",
        ]),
        300,
    );
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(
        text(&out.stderr).matches("T303").count(),
        1,
        "{}",
        transcript(&out)
    );
    let expression = "length([for i in range(8) : setproduct(range(1000), range(1000))])";
    let out = run_within(
        fnhcl(dir.path()).args(["eval", "--color", "never", expression]),
        300,
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("budget_eval", transcript(&out));
}

#[test]
fn a_string_budget_spent_inside_a_for_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    // 2 MiB of strings per element (the join and the `format`s it joins): the budget of
    // 128 MiB runs out after 64 elements, and each further one used to report the same error
    // again, for 20 s.
    let expression = "length([for i in range(1000) : \"${join(\"\", [for i in range(1024) : format(\"%1024s\", \"\")])}x\"])";
    let out = run_within(
        fnhcl(dir.path()).args(["eval", "--color", "never", expression]),
        300,
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("budget_strings", transcript(&out));
}

/// HCL-native tests: every run of `tests/data/hcltest` (a composition with a user function, a
/// collection and a scenario; one that never converges) passes or fails with what it prints.
#[test]
fn test_hcl_native_runs_pass_and_fail_with_their_messages() {
    let dir = data("hcltest");
    let passing = run(fnhcl(&dir).args(["test", "-v", "--filter", "bucket.fnhcltest"]));
    assert_eq!(passing.status.code(), Some(0), "{}", transcript(&passing));
    snapshot!("test_hcl_passing", transcript(&passing));
    let out = tempfile::tempdir().unwrap();
    let junit = out.path().join("report.xml");
    let failing = run(fnhcl(&dir)
        .args(["--color", "never", "test", "--junit"])
        .arg(&junit));
    assert_eq!(failing.status.code(), Some(1), "{}", transcript(&failing));
    snapshot!("test_hcl_failing", transcript(&failing));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"10\" failures=\"5\""), "{xml}");
    assert!(
        xml.contains("name=\"app/tests/failing.fnhcltest.hcl::wrong region\""),
        "{xml}"
    );
    // --filter matches the run's id, `FILE::RUN`.
    let one = run(fnhcl(&dir).args(["test", "-v", "--filter", "::user function"]));
    assert_eq!(one.status.code(), Some(0), "{}", transcript(&one));
    assert!(
        text(&one.stdout).ends_with("1 passed, 0 failed\n"),
        "{}",
        transcript(&one)
    );
}

/// A test file beside the composition's `.hcl` files is not composition code: `render` and
/// `check` leave it out, and a run that continues from nothing, or an input of the wrong
/// shape, fails with the reason and where.
#[test]
fn test_hcl_files_beside_a_composition_are_tests_only() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", DIFF_HCL);
    write(dir.path(), "xr.yaml", RENDER_XR);
    write(
        dir.path(),
        "cm.fnhcltest.hcl",
        "run \"first\" {\n  continue = true\n}\n\nrun \"small\" {\n  xr = yamldecode(file(\"xr.yaml\"))\n  assert {\n    condition = resource.cm.data.size == \"small\"\n  }\n}\n\nrun \"shape\" {\n  xr = [1]\n}\n\nrun \"outside\" {\n  xr = yamldecode(file(\"../../etc/passwd\"))\n}\n",
    );
    let rendered = run(fnhcl(dir.path()).args(["render", "xr.yaml", "."]));
    assert_eq!(rendered.status.code(), Some(0), "{}", transcript(&rendered));
    let checked = run(fnhcl(dir.path()).args(["check", "."]));
    assert_eq!(checked.status.code(), Some(0), "{}", transcript(&checked));
    let out = run(fnhcl(dir.path()).args(["--color", "never", "test"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!(
        "test_hcl_beside",
        transcript(&out).replace(
            &*dir.path().canonicalize().unwrap().to_string_lossy(),
            "[DIR]"
        )
    );
}

fn compositiontests() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compositiontest")
}

#[test]
fn test_runs_crossplane_and_upbound_composition_tests() {
    let dir = compositiontests();
    let all = run(fnhcl(&dir).args(["--color", "never", "test", "crossplane", "upbound", "-v"]));
    assert_eq!(all.status.code(), Some(1), "{}", transcript(&all));
    snapshot!("test_compositiontest", transcript(&all));
    // Each test is a case of its own: --filter picks them by `file::name`.
    let inline = run(fnhcl(&dir).args(["test", ".", "-v", "--filter", "inline"]));
    assert_eq!(inline.status.code(), Some(0), "{}", transcript(&inline));
    assert!(
        text(&inline.stdout).ends_with("2 passed, 0 failed\n"),
        "{}",
        transcript(&inline)
    );
}

#[test]
fn test_keeps_composition_test_paths_inside_the_tested_folder() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", DIFF_HCL);
    write(
        dir.path(),
        "test.yaml",
        "apiVersion: meta.dev.upbound.io/v1alpha1\nkind: CompositionTest\nmetadata:\n  name: outside\nspec:\n  xrPath: ../xr.yaml\n  typo: 1\n---\napiVersion: meta.dev.upbound.io/v1alpha1\nkind: CompositionTest\nmetadata:\n  name: escape\nspec:\n  xrPath: ../xr.yaml\n",
    );
    let out = run(fnhcl(dir.path()).args(["test", "."]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("test.yaml:7:3: unknown field `typo` in `spec`"),
        "{stdout}"
    );
    assert!(stdout.contains("is outside the tested folder"), "{stdout}");
    let allowed = run(fnhcl(dir.path()).args(["test", ".", "--allow-outside-paths"]));
    assert!(
        text(&allowed.stdout).contains("xr.yaml"),
        "{}",
        transcript(&allowed)
    );
}

/// The fixture composition of `fnhcl test --lcov`: every block kind rendered by one case and
/// left out by another.
const COVERAGE_FIXTURE: &str = "tests/fixtures/coverage";

#[test]
fn test_lcov_counts_every_block_kind_line_by_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = tempfile::tempdir().unwrap();
    let lcov = out_dir.path().join("lcov.info");
    let out = run(fnhcl(root)
        .args(["test", COVERAGE_FIXTURE, "--lcov"])
        .arg(&lcov));
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("test_lcov_summary", transcript(&out));
    let written = std::fs::read_to_string(&lcov).unwrap();
    snapshot!("test_lcov_tracefile", annotated(&written, root));
    // genhtml, when installed, reads it without complaint.
    let html = out_dir.path().join("html");
    match Command::new("genhtml")
        .current_dir(root)
        .args(["--quiet", "--branch-coverage", "--output-directory"])
        .arg(&html)
        .arg(&lcov)
        .output()
    {
        Ok(genhtml) => {
            assert!(genhtml.status.success(), "{}", transcript(&genhtml));
            assert!(text(&genhtml.stderr).is_empty(), "{}", transcript(&genhtml));
            assert!(html.join("index.html").is_file());
        }
        Err(_) => eprintln!("genhtml not found: the tracefile was not checked with it"),
    }
}

#[test]
fn test_coverage_min_passes_at_and_fails_below_the_total() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let at = run(fnhcl(root).args(["test", COVERAGE_FIXTURE, "--coverage-min", "67.5"]));
    assert_eq!(at.status.code(), Some(0), "{}", transcript(&at));
    let below = run(fnhcl(root).args([
        "--color",
        "never",
        "test",
        COVERAGE_FIXTURE,
        "--coverage-min",
        "67.6",
    ]));
    assert_eq!(below.status.code(), Some(1), "{}", transcript(&below));
    snapshot!("test_coverage_min_below", transcript(&below));
    let bad = run(fnhcl(root).args(["test", COVERAGE_FIXTURE, "--coverage-min", "101"]));
    assert_eq!(bad.status.code(), Some(2), "{}", transcript(&bad));
}

/// A tracefile with the source line each `DA`, `BRDA` and `FN` record points at, so its
/// snapshot reads line by line.
fn annotated(lcov: &str, root: &Path) -> String {
    let mut source = String::new();
    let mut out = String::new();
    for record in lcov.lines() {
        out.push_str(record);
        if let Some(path) = record.strip_prefix("SF:") {
            source = std::fs::read_to_string(root.join(path)).unwrap();
        }
        let line = ["DA:", "BRDA:", "FN:"]
            .iter()
            .find_map(|key| record.strip_prefix(key))
            .and_then(|rest| rest.split(',').next())
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(n) = line {
            out.push_str("    # ");
            out.push_str(source.lines().nth(n - 1).unwrap_or_default().trim());
        }
        out.push('\n');
    }
    out
}

/// Issue 31: `crossplane render`'s container-only flags (crossplane/cli v2.6
/// `render.EngineFlags`, `--cache-dir`, `--max-concurrency`) are accepted, so scripts run
/// unchanged; each says once that it is ignored, and the output is the same.
#[test]
fn container_flags_of_crossplane_render_are_accepted_and_said_to_be_ignored() {
    let dir = examples().join("bucket-with-status");
    let plain = run(fnhcl(&dir).args(["render", "xr.yaml", "composition-pipeline.yaml"]));
    assert_eq!(plain.status.code(), Some(0), "{}", transcript(&plain));
    let flagged = run(fnhcl(&dir).args([
        "render",
        "xr.yaml",
        "composition-pipeline.yaml",
        "--crossplane-image",
        "xpkg.crossplane.io/crossplane/crossplane:v2.2.4",
        "--crossplane-docker-network",
        "kind",
        "--cache-dir",
        "/nonexistent",
        "--max-concurrency",
        "4",
    ]));
    assert_eq!(flagged.status.code(), Some(0), "{}", transcript(&flagged));
    assert_eq!(text(&flagged.stdout), text(&plain.stdout));
    let stderr = text(&flagged.stderr);
    for flag in [
        "--crossplane-image",
        "--crossplane-docker-network",
        "--cache-dir",
        "--max-concurrency",
    ] {
        let line = format!("`{flag}` is ignored: fnhcl runs no containers");
        assert_eq!(stderr.matches(&line).count(), 1, "{flag}: {stderr}");
    }
    assert_eq!(stderr.matches("I022").count(), 4, "{stderr}");
    // -q keeps stderr quiet.
    let quiet = run(fnhcl(&dir).args([
        "-q",
        "render",
        "xr.yaml",
        "composition-pipeline.yaml",
        "--cache-dir",
        "/x",
    ]));
    assert_eq!(quiet.status.code(), Some(0), "{}", transcript(&quiet));
    assert!(
        !text(&quiet.stderr).contains("I022"),
        "{}",
        transcript(&quiet)
    );
}

/// Issue 31: a `-s/--required-schemas` file that is not an OpenAPI document fails the render
/// before any step runs, in crossplane's words (crossplane/cli v2.5.0 `LoadRequiredSchemas`'s
/// `InvalidJSON` case), with I025 and what to give instead.
#[test]
fn a_required_schemas_file_that_is_not_json_is_reported() {
    let out = run(fnhcl(&data("pipelines")).args([
        "render",
        "xr.yaml",
        "composition.yaml",
        "functions.yaml",
        "-s",
        "bad-schemas",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    snapshot!("required_schemas_invalid_json", transcript(&out));
}

/// The words of a report, its wrapping and margins left out.
fn words(report: &str) -> String {
    report
        .split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

/// Issue 31: a context value or file that is not JSON or YAML is refused naming its key (and
/// its file).
#[test]
fn context_errors_name_the_key() {
    let dir = examples().join("bucket-with-status");
    let out = run(fnhcl(&dir).args([
        "render",
        "xr.yaml",
        "composition-pipeline.yaml",
        "--context-values",
        "apiextensions.crossplane.io/environment=[1,",
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    let stderr = words(&text(&out.stderr));
    assert!(
        stderr.contains(
            "cannot parse context data: cannot unmarshal context value for key \"apiextensions.crossplane.io/environment\": "
        ),
        "{stderr}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("ctx.yaml");
    std::fs::write(&bad, "a: [\n").unwrap();
    let out = run(fnhcl(&dir).args([
        "render",
        "xr.yaml",
        "composition-pipeline.yaml",
        "--context-files",
        &format!("env={}", bad.display()),
    ]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    let stderr = words(&text(&out.stderr));
    assert!(
        stderr.contains("cannot unmarshal context value for key \"env\": "),
        "{stderr}"
    );
    assert!(stderr.contains("ctx.yaml` is not JSON or YAML"), "{stderr}");
}

/// Issue 31: an input that cannot be loaded is refused in crossplane's words (crossplane/cli
/// v2.5.0 `render/xr/cmd.go`), our cause and help after them. The cases of cli v2.5.0
/// `render/load_test.go`: `NoSuchFile` of each loader, `NotAComposition`, `NotAFunction`.
#[test]
fn render_load_errors_are_crossplanes() {
    let dir = examples().join("bucket-with-status");
    let cases: [&[&str]; 10] = [
        &["missing.yaml", "composition-pipeline.yaml"],
        &["xr.yaml", "composition-pipeline.yaml", "missing.yaml"],
        &["xr.yaml", "composition-pipeline.yaml", "xr.yaml"],
        &["xr.yaml", "xr.yaml"],
        &[
            "xr.yaml",
            "composition-pipeline.yaml",
            "--xrd",
            "missing.yaml",
        ],
        &["xr.yaml", "composition-pipeline.yaml", "-o", "missing.yaml"],
        &["xr.yaml", "composition-pipeline.yaml", "-e", "missing.yaml"],
        &[
            "xr.yaml",
            "composition-pipeline.yaml",
            "--extra-resources",
            "missing.yaml",
        ],
        &[
            "xr.yaml",
            "composition-pipeline.yaml",
            "--function-credentials",
            "missing.yaml",
        ],
        &[
            "xr.yaml",
            "composition-pipeline.yaml",
            "--context-files",
            "env=missing.yaml",
        ],
    ];
    let mut report = String::new();
    for args in cases {
        let out = run(fnhcl(&dir).arg("render").args(args));
        assert_ne!(out.status.code(), Some(0), "{}", transcript(&out));
        report.push_str(&format!(
            "$ fnhcl render {}\n{}",
            args.join(" "),
            text(&out.stderr)
        ));
    }
    snapshot!("render_load_errors", report);
}

#[path = "cli/first_hour.rs"]
mod first_hour;
