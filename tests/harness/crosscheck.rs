//! `check` against the evaluator: every shared `eval/` case that must fail (`expected-error.txt`)
//! fails for a reason `check` has to find without a request, unless it is listed below with
//! why its failure depends on the request. `check` must report an error whose text holds each
//! expected line (without function-hcl's `evaluate hcl: ` prefix and Go's range), so the
//! finding is the function's own message at the same place.

use super::suites::{Case, dir_cases, fnhcl};
use serde_json::Value;
use std::path::Path;

/// Failures that depend on the request, with the reason. A listed case that `check` reports as
/// an error fails the run (take it off the list).
const REQUEST_DEPENDENT: &[(&str, &str)] = &[
    (
        "context-incomplete-key",
        "the key reads req.composite.spec.nonexistent_field: it fails only for an XR without it",
    ),
    (
        "userfn-recursion-depth",
        "the call always fails (check reports L608 always-fails), but the render fails only because \
         the resource is observed (the fail-safe); unobserved, the resource is discarded",
    ),
];

/// Failures `check` reports with function-hcl's analyzer message instead of the run-time one
/// (`fn-hcl-tools analyze` words them so): the case and the text `check` must report.
const ANALYZER_WORDING: &[(&str, &str)] = &[
    (
        "requirements-err-duplicate",
        "requirement defined more than once; cm",
    ),
    (
        "resources-duplicate",
        "resource defined more than once; duplicate-name",
    ),
    (
        "userfn-call-bad-arity",
        "user function invocation has incorrect number of arguments; want 2, got 1",
    ),
    (
        "userfn-call-unknown-function",
        "invoke called on unknown function: \"nX\"",
    ),
];

/// One case per `eval/` case with `expected-error.txt`.
pub fn cases(root: &Path) -> Vec<Case> {
    dir_cases(root, "check-vs-eval/", "expected-error.txt", run)
}

fn run(dir: &Path) -> Result<(), String> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let args = ["check", "--format", "json", "."]
        .map(String::from)
        .to_vec();
    let out = fnhcl(dir, &args, None)?;
    let report: Value = serde_json::from_str(&out.stdout)
        .map_err(|e| format!("stdout is not a JSON report: {e}\n{}", out.describe()))?;
    let errors: Vec<String> = report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            format!(
                "{}; {}",
                d["summary"].as_str().unwrap_or(""),
                d["detail"].as_str().unwrap_or("")
            )
        })
        .collect();
    if let Some((_, reason)) = REQUEST_DEPENDENT.iter().find(|(case, _)| *case == name) {
        return match errors.first() {
            None => Ok(()),
            Some(e) => Err(format!(
                "listed as request-dependent ({reason}), but check reports `{e}`: take it off the list"
            )),
        };
    }
    let expected = match ANALYZER_WORDING.iter().find(|(case, _)| *case == name) {
        Some((_, text)) => (*text).to_string(),
        None => {
            std::fs::read_to_string(dir.join("expected-error.txt")).map_err(|e| e.to_string())?
        }
    };
    for line in expected.lines().map(message).filter(|l| !l.is_empty()) {
        if !errors.iter().any(|e| e.contains(&line)) {
            return Err(format!(
                "the render fails with `{line}` whatever the request, and check does not report it\n{}",
                out.describe()
            ));
        }
    }
    Ok(())
}

/// An expected line without `evaluate hcl: `, Go's `file:range: ` and a trailing `;`.
fn message(line: &str) -> String {
    let mut text = line.trim();
    text = text.strip_prefix("evaluate hcl:").unwrap_or(text).trim();
    if let Some((head, rest)) = text.split_once(": ")
        && head.contains(".hcl:")
        && head.chars().last().is_some_and(|c| c.is_ascii_digit())
    {
        text = rest;
    }
    text.trim_end_matches(';').trim().to_string()
}
