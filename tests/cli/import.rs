//! `fnhcl test import` of Crossplane's pipeline inspector log: every folder of
//! `tests/fixtures/import/` holds a recorded `log.jsonl` and optional `args` (more flags, one a
//! line); the import runs in a copy beside `examples/bucket-with-status/main.hcl`, and the
//! transcript with every file written is snapshotted as `import_<folder>`.

use super::{examples, fnhcl, run, transcript, write};
use std::path::Path;

/// `snapshot!` of `tests/cli.rs`, from this folder one deeper.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots/cli", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import")
}

/// A temporary project: the bucket example's composition and the fixture's log.
fn project(case: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let main = std::fs::read_to_string(examples().join("bucket-with-status/main.hcl")).unwrap();
    write(dir.path(), "main.hcl", &main);
    std::fs::copy(case.join("log.jsonl"), dir.path().join("log.jsonl")).unwrap();
    dir
}

/// The transcript of an import, then each file it wrote.
fn imported(dir: &Path, args: &[String]) -> (i32, String) {
    let out = run(fnhcl(dir)
        .args(["test", "import", "log.jsonl", "--out", "tests/imported"])
        .args(args));
    let mut text = transcript(&out);
    let case = dir.join("tests/imported");
    if let Ok(entries) = std::fs::read_dir(&case) {
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            text.push_str(&format!("--- {name}\n"));
            text.push_str(&std::fs::read_to_string(case.join(&name)).unwrap());
        }
    }
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn test_import_reads_the_pipeline_inspector_log() {
    let mut names: Vec<_> = std::fs::read_dir(fixtures())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    names.sort();
    assert!(names.len() >= 6, "{names:?}");
    for case in names {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let args: Vec<String> = std::fs::read_to_string(case.join("args"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let dir = project(&case);
        let (_, text) = imported(dir.path(), &args);
        snapshot!(format!("import_{name}"), text);
    }
}

/// The imported request renders with the composition above it, its recorded observed bucket
/// becoming the XR's status; a second import over it is refused and leaves it as it was.
#[test]
fn test_import_of_an_inspector_request_renders_and_is_never_overwritten() {
    let dir = project(&fixtures().join("reconcile"));
    let (code, text) = imported(dir.path(), &[]);
    assert_eq!(code, 0, "{text}");
    let update = run(fnhcl(dir.path()).args(["test", "--update"]));
    assert_eq!(update.status.code(), Some(0), "{}", transcript(&update));
    let case = dir.path().join("tests/imported");
    let expected = std::fs::read_to_string(case.join("expected.yaml")).unwrap();
    assert!(
        expected.contains("arn: arn:aws:s3:::billing-reports-data")
            && expected.contains("name: billing-reports-data"),
        "{expected}"
    );
    let again = run(fnhcl(dir.path()).args(["test"]));
    assert_eq!(again.status.code(), Some(0), "{}", transcript(&again));
    let xr = std::fs::read_to_string(case.join("xr.yaml")).unwrap();
    let (code, text) = imported(dir.path(), &["--index".into(), "2".into()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("exists already"), "{text}");
    assert_eq!(std::fs::read_to_string(case.join("xr.yaml")).unwrap(), xr);
    // A debug dump takes no inspector flags.
    write(
        dir.path(),
        "dump.txt",
        "## start request ##\n-- xr.yaml --\nkind: X\n## end request ##\n",
    );
    let dump = run(fnhcl(dir.path()).args([
        "test", "import", "dump.txt", "--out", "tests/d", "--step", "x",
    ]));
    assert_eq!(dump.status.code(), Some(2), "{}", transcript(&dump));
    assert!(!dir.path().join("tests/d").exists());
}
