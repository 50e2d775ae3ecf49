//! The data-driven test harness: our own fixtures (`tests/fixtures/**`) and the shared
//! conformance suites (`../shared/conformance/**`), one trial per case.
//!
//! The conformance ratchet: `tests/known-failures.txt` lists the shared cases allowed to fail.
//! A listed case that passes fails (remove it from the list); an unlisted case that fails
//! fails; a listed case that does not exist fails. Our own fixtures are never listed.

mod harness;

use harness::suites::{self, Case};
use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const KNOWN_FAILURES: &str = "tests/known-failures.txt";

/// The crate directory: cargo's runtime variable when set (a moved checkout stays correct),
/// else the one compiled in.
fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// Reads the ratchet: `case-id reason…` per line; `#` comments and blank lines ignored.
fn known_failures() -> Result<BTreeMap<String, String>, String> {
    let path = manifest_dir().join(KNOWN_FAILURES);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut known = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (id, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        if reason.trim().is_empty() {
            return Err(format!("{KNOWN_FAILURES}:{}: `{id}` has no reason", n + 1));
        }
        if known
            .insert(id.to_string(), reason.trim().to_string())
            .is_some()
        {
            return Err(format!(
                "{KNOWN_FAILURES}:{}: `{id}` is listed twice",
                n + 1
            ));
        }
    }
    Ok(known)
}

fn conformance_root() -> PathBuf {
    manifest_dir().join("../shared/conformance")
}

fn shared_cases(root: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    cases.extend(suites::render(&root.join("render"), "render/"));
    cases.extend(suites::eval(&root.join("eval"), "eval/"));
    cases.extend(suites::check(&root.join("check"), "check/"));
    cases.extend(suites::functions(&root.join("functions"), "functions/"));
    cases.extend(suites::fmt(&root.join("fmt"), "fmt/"));
    cases.extend(suites::realworld(&root.join("realworld"), "realworld/"));
    cases
}

fn own_cases(root: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    cases.extend(harness::own::txtar(&root.join("txtar")));
    cases.extend(harness::own::package(&root.join("package")));
    cases.extend(harness::own::syntax(&root.join("syntax")));
    cases.extend(harness::own::num(&root.join("num")));
    let mut hcl_roots = vec![root.to_path_buf(), manifest_dir().join("examples")];
    if conformance_root().is_dir() {
        hcl_roots.push(conformance_root());
    }
    cases.push(harness::own::lossless(hcl_roots.clone()));
    cases.push(harness::own::fmt_invariants(hcl_roots));
    cases.extend(suites::render_both(&root.join("render"), "own/render/"));
    cases.extend(suites::diff(&root.join("diff"), "own/diff/"));
    cases.extend(suites::eval(&root.join("eval"), "own/eval/"));
    cases.extend(suites::check(&root.join("check"), "own/check/"));
    cases.extend(suites::functions(&root.join("functions"), "own/functions/"));
    cases.extend(suites::fmt(&root.join("fmt"), "own/fmt/"));
    cases.extend(suites::fmt_normalized(
        &root.join("fmt-normalize"),
        "own/fmt-normalize/",
    ));
    cases
}

fn trial(case: Case) -> Trial {
    let run = case.run;
    Trial::test(case.id, move || run().map_err(Failed::from))
}

#[derive(Default)]
struct Counts {
    passed: AtomicUsize,
    known: AtomicUsize,
}

fn shared_trial(case: Case, reason: Option<String>, counts: Arc<Counts>) -> Trial {
    let id = case.id.clone();
    let run = case.run;
    Trial::test(case.id, move || match (run(), reason) {
        (Ok(()), None) => {
            counts.passed.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        (Err(_), Some(_)) => {
            counts.known.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        (Ok(()), Some(reason)) => Err(Failed::from(format!(
            "`{id}` passes now: remove it from {KNOWN_FAILURES} (it was listed: {reason})"
        ))),
        (Err(e), None) => Err(Failed::from(e)),
    })
}

fn main() {
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = own_cases(&manifest_dir().join("tests/fixtures"))
        .into_iter()
        .map(trial)
        .collect();
    trials.push(Trial::test("own/harness/compare", || {
        harness::compare::self_check().map_err(Failed::from)
    }));
    let counts = Arc::new(Counts::default());
    let root = conformance_root();
    let shared = root.is_dir();
    if shared {
        match known_failures() {
            Err(e) => trials.push(Trial::test("conformance/known-failures", move || {
                Err(Failed::from(e.clone()))
            })),
            Ok(mut known) => {
                for case in shared_cases(&root) {
                    let reason = known.remove(&case.id);
                    trials.push(shared_trial(case, reason, counts.clone()));
                }
                trials.extend(
                    harness::crosscheck::cases(&root.join("eval"))
                        .into_iter()
                        .map(trial),
                );
                let stale: Vec<String> = known.into_keys().collect();
                trials.push(Trial::test("conformance/known-failures", move || {
                    if stale.is_empty() {
                        Ok(())
                    } else {
                        Err(Failed::from(format!(
                            "{KNOWN_FAILURES} lists cases that do not exist: {}",
                            stale.join(", ")
                        )))
                    }
                }));
            }
        }
    } else {
        println!(
            "notice: {} not found; skipping the shared conformance suites",
            root.display()
        );
    }
    let conclusion = libtest_mimic::run(&args, trials);
    if shared {
        println!(
            "conformance: {} passed, {} known failures",
            counts.passed.load(Ordering::Relaxed),
            counts.known.load(Ordering::Relaxed)
        );
    }
    conclusion.exit();
}
