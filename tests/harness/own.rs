//! Fixture kinds of our own that the shared suites do not cover: txtar parsing and `package`.

use super::suites::{Case, dir_cases, fnhcl};
use serde_json::Value;
use std::path::Path;

/// `txtar/<case>/input.txtar` parsed must equal `expected.json`:
/// `{"comment": "...", "files": [["name", "data"], ...], "formatted": "..."}` where
/// `formatted` (optional) is `txtar::format` of the parsed archive.
pub fn txtar(root: &Path) -> Vec<Case> {
    dir_cases(root, "own/txtar/", "input.txtar", run_txtar)
}

fn run_txtar(dir: &Path) -> Result<(), String> {
    let input = std::fs::read_to_string(dir.join("input.txtar")).map_err(|e| e.to_string())?;
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let archive = fnhcl::source::txtar::parse(&input);
    let files: Vec<Value> = archive
        .files
        .iter()
        .map(|f| serde_json::json!([f.name, f.data]))
        .collect();
    let got = serde_json::json!({ "comment": archive.comment, "files": files });
    for key in ["comment", "files"] {
        if expected.get(key) != got.get(key) {
            return Err(format!(
                "{key}: expected {}, got {}",
                expected[key], got[key]
            ));
        }
    }
    if let Some(formatted) = expected.get("formatted").and_then(Value::as_str) {
        let again = format_archive(&archive);
        if again != formatted {
            return Err(format!("formatted: expected {formatted:?}, got {again:?}"));
        }
        // Formatting is a fixed point: parse and format again gives the same text.
        let third = format_archive(&fnhcl::source::txtar::parse(&again));
        if third != again {
            return Err("format(parse(format(x))) differs from format(x)".into());
        }
    }
    Ok(())
}

fn format_archive(archive: &fnhcl::source::txtar::Archive) -> String {
    let files = archive.files.iter();
    fnhcl::source::txtar::format(
        &archive.comment,
        files.map(|f| (f.name.as_str(), f.data.as_str())),
    )
}

/// `package/<case>/`: runs `fnhcl package` with the arguments in `args` (one per line;
/// default `in`) inside the case directory; stdout must equal `expected.txtar`, or the run
/// must fail with every line of `expected-error.txt` in its output and exit code 2.
pub fn package(root: &Path) -> Vec<Case> {
    dir_cases(root, "own/package/", "", run_package)
}

fn run_package(dir: &Path) -> Result<(), String> {
    let mut args = vec!["package".to_string()];
    match std::fs::read_to_string(dir.join("args")) {
        Ok(text) => args.extend(text.lines().filter(|l| !l.is_empty()).map(str::to_string)),
        Err(_) => args.push("in".into()),
    }
    let out = fnhcl(dir, &args, None)?;
    let describe = || {
        format!(
            "exit {}\n--- stdout\n{}\n--- stderr\n{}",
            out.code, out.stdout, out.stderr
        )
    };
    if let Ok(wanted) = std::fs::read_to_string(dir.join("expected-error.txt")) {
        if out.code != 2 {
            return Err(format!("expected exit 2\n{}", describe()));
        }
        let text = format!("{}{}", out.stdout, out.stderr);
        for line in wanted.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if !text.contains(line) {
                return Err(format!("output lacks {line:?}\n{}", describe()));
            }
        }
        return Ok(());
    }
    let expected =
        std::fs::read_to_string(dir.join("expected.txtar")).map_err(|e| e.to_string())?;
    if out.code != 0 || out.stdout != expected {
        return Err(format!("expected stdout {expected:?}\n{}", describe()));
    }
    Ok(())
}
