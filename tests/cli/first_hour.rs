//! Issue 32's smaller first-hour items: `test` on new cases and the `--update` hint, `check`
//! on a folder without compositions, counts that agree with their nouns, `fmt` on a syntax
//! error, and `--explain` of every code. Snapshots `first_hour_*`.

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

const MAIN: &str = "resource cm {\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n    data       = { size = \"small\" }\n  }\n}\n";

const XR: &str =
    "apiVersion: example.org/v1\nkind: XApp\nmetadata:\n  name: app\nspec:\n  size: 2\n";

/// A composition whose `tests/` folder holds case folders with only `xr.yaml`.
fn new_cases(dir: &Path, names: &[&str]) {
    write(dir, "main.hcl", MAIN);
    for name in names {
        let case = dir.join("tests").join(name);
        std::fs::create_dir_all(&case).unwrap();
        write(&case, "xr.yaml", XR);
    }
}

/// Folders with only `xr.yaml` are new cases: listed, with the command that records them, and
/// a failure until recorded; `--update` records them; a later diff ends with the same hint.
#[test]
fn test_lists_new_cases_and_hints_at_update() {
    let dir = tempfile::tempdir().unwrap();
    new_cases(dir.path(), &["one", "two"]);
    let out = run(fnhcl(dir.path()).args(["--color", "never", "test"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("first_hour_test_new_cases", transcript(&out));
    let updated = run(fnhcl(dir.path()).args(["test", "--update"]));
    assert_eq!(updated.status.code(), Some(0), "{}", transcript(&updated));
    assert!(
        text(&updated.stdout).contains("0 passed, 0 failed, 2 updated"),
        "{}",
        transcript(&updated)
    );
    // One new case beside a recorded one: the recorded one runs, the new one is listed.
    new_cases(dir.path(), &["three"]);
    let out = run(fnhcl(dir.path()).args(["--color", "never", "test"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("first_hour_test_one_new_case", transcript(&out));
    // A changed composition: the diff ends with the hint.
    write(dir.path(), "main.hcl", &MAIN.replace("small", "large"));
    let out = run(fnhcl(dir.path()).args(["--color", "never", "test", "--filter", "one"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        text(&out.stdout)
            .contains("hint: if this change is intended, run `fnhcl test --update` to record it\n"),
        "{}",
        transcript(&out)
    );
}

/// `check --explain` explains codes no rule reports, E402 as the warning render shows.
#[test]
fn explain_covers_codes_that_are_not_rules() {
    let dir = tempfile::tempdir().unwrap();
    for code in ["E402", "T301"] {
        let out = run(fnhcl(dir.path()).args(["check", "--explain", code]));
        assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
        snapshot!(
            format!("first_hour_explain_{}", code.to_lowercase()),
            transcript(&out)
        );
    }
    let out = run(fnhcl(dir.path()).args(["--color", "never", "check", "--explain", "Z999"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("no rule or code is called `Z999`"),
        "{}",
        transcript(&out)
    );
}

/// `check` on a folder without `.hcl` files says so and exits 2, as other input errors do.
#[test]
fn check_on_a_folder_without_compositions_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("empty/sub")).unwrap();
    write(&dir.path().join("empty"), "README.md", "# nothing here\n");
    let out = run(fnhcl(dir.path()).args(["--color", "never", "check", "empty"]));
    assert_eq!(out.status.code(), Some(2), "{}", transcript(&out));
    snapshot!("first_hour_check_empty_folder", transcript(&out));
}

/// `fmt -` on a syntax error writes nothing to stdout (no echo of the input), the error to
/// stderr, exit 1; `fmt FILE` leaves the file as it was.
#[test]
fn fmt_on_a_syntax_error_prints_and_writes_nothing() {
    use std::io::Write as _;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let broken = "x =   1\ny = [\n";
    let mut child = fnhcl(dir.path())
        .args(["--color", "never", "fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(broken.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert_eq!(text(&out.stdout), "", "{}", transcript(&out));
    assert!(
        text(&out.stderr).contains("S001 syntax-error"),
        "{}",
        transcript(&out)
    );
    write(dir.path(), "main.hcl", broken);
    let file = dir.path().join("main.hcl");
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    let out = run(fnhcl(dir.path()).args(["--color", "never", "fmt", "main.hcl"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert_eq!(text(&out.stdout), "", "{}", transcript(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), broken);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
}

/// With nothing to run at all, the help says what a case is and how a new one is recorded.
#[test]
fn test_with_no_cases_says_what_a_case_is() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.hcl", MAIN);
    let out = run(fnhcl(dir.path()).args(["--color", "never", "test"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("first_hour_test_no_cases", transcript(&out));
}

/// `eval -e PATH` takes required resources as `render -e` does: the `--hcl` program's
/// requirements select from them until they settle (a selector that reads the XR, then one
/// that reads what the first fetched). `NAME=PATH` still sets a requirement directly; a bare
/// path without a program is a warning.
#[test]
fn eval_takes_required_resources_as_render_does() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("hcl")).unwrap();
    write(
        &dir.path().join("hcl"),
        "main.hcl",
        r#"requirement "cfg" {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = req.composite.spec.config
  }
}

requirement "next" {
  select {
    apiVersion = "v1"
    kind       = "ConfigMap"
    matchName  = req.extra_resources.cfg[0].data.next
  }
}

locals {
  chain = [req.extra_resources.cfg[0].data.value, req.extra_resources.next[0].data.value]
}
"#,
    );
    write(
        dir.path(),
        "xr.yaml",
        "apiVersion: example.org/v1\nkind: X\nmetadata: {name: x}\nspec: {config: b}\n",
    );
    write(
        dir.path(),
        "pool.yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {value: A, next: c}\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {value: B, next: a}\n---\n\
         apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {value: C}\n",
    );
    let eval = |extra: &[&str]| {
        let mut args = vec!["--color", "never", "eval", "--xr", "xr.yaml"];
        args.extend_from_slice(extra);
        run(fnhcl(dir.path()).args(args))
    };
    let out = eval(&["--hcl", "hcl", "-e", "pool.yaml", "chain"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert_eq!(text(&out.stdout), "[\n  \"B\",\n  \"A\",\n]\n");
    // Given by name, `cfg` is all of the pool: its first is `a`, whose next is `c`.
    let out = eval(&[
        "--hcl",
        "hcl",
        "-e",
        "pool.yaml",
        "-e",
        "cfg=pool.yaml",
        "chain",
    ]);
    assert_eq!(
        text(&out.stdout),
        "[\n  \"A\",\n  \"C\",\n]\n",
        "{}",
        transcript(&out)
    );
    let out = eval(&["-e", "pool.yaml", "req.extra_resources"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    snapshot!("first_hour_eval_pool_without_program", transcript(&out));
}

/// A case whose render fails shows the error once, in fnhcl's words: crossplane's own line
/// (the Docker wrapping of the CLI), which expected-error fragments may still match, is not
/// repeated in the report.
#[test]
fn a_failed_render_in_a_test_is_reported_without_the_docker_wrapping() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "main.hcl",
        "resource cm {\n  condition = req.composite.spec.size\n  body = {\n    apiVersion = \"v1\"\n    kind       = \"ConfigMap\"\n  }\n}\n",
    );
    let case = dir.path().join("tests").join("one");
    std::fs::create_dir_all(&case).unwrap();
    write(&case, "xr.yaml", XR);
    write(&case, "expected.yaml", "---\n");
    let out = run(fnhcl(dir.path()).args(["--color", "never", "test"]));
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("the render failed"), "{stdout}");
    assert!(
        stdout.contains("got type number, expected bool"),
        "{stdout}"
    );
    assert!(!stdout.contains("Docker"), "{stdout}");
}
