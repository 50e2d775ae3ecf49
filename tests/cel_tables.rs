//! The API server's CEL validation tables (k8s.io/apiextensions-apiserver v0.35.0), ported to
//! `tests/data/cel/*.yaml` (see its README): one trial per case, named `FILE::NAME`, each a
//! schema, the object validated (none for a compile-only case) and upstream's expected
//! outcome, checked with `fnhcl::schema::validate::validate`.
//!
//! The ratchet: `tests/data/cel/EXPECTED-FAILURES.txt` lists the cases that fail today. A
//! listed case that fails passes; a listed case that passes fails (remove it: the list only
//! shrinks); an unlisted case that fails fails; a listed name that is no case fails.
//! `CEL_TABLES_RECORD=1 cargo test --test cel_tables` rewrites the list from what fails.
//!
//! Cases with `skip` cannot be expressed here (the reason is printed); cases with `oldObject`
//! need update validation, which fnhcl lacks yet ([`validate_update`]): both are ignored.

use fnhcl::schema::node::Node;
use fnhcl::schema::validate::{Kind, validate};
use libtest_mimic::{Arguments, Failed, Trial};
use serde::{Deserialize, Deserializer};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

const DATA: &str = "tests/data/cel";
const EXPECTED_FAILURES: &str = "EXPECTED-FAILURES.txt";
const RECORD: &str = "CEL_TABLES_RECORD";

/// One fixture file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    cases: Vec<Case>,
}

/// One case: a schema, the object validated against it, and upstream's expectation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Case {
    name: String,
    schema: Json,
    /// Absent for a compile-only case (upstream compiles the rules and validates nothing).
    #[serde(default, deserialize_with = "present")]
    object: Option<Json>,
    /// Present (`null` included) for an update.
    #[serde(default, deserialize_with = "present")]
    old_object: Option<Json>,
    #[serde(default)]
    valid: bool,
    #[serde(default)]
    errors: Vec<String>,
    #[serde(default)]
    compile_errors: Vec<String>,
    #[serde(default)]
    cost_errors: Vec<String>,
    skip: Option<String>,
}

/// A field that is there, even as `null`, is `Some`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Json>, D::Error> {
    Json::deserialize(d).map(Some)
}

/// How the cases that ran came out (not in record mode).
#[derive(Default)]
struct Counts {
    /// As upstream expects.
    agree: AtomicUsize,
    /// Failing, and listed in the expected failures.
    expected: AtomicUsize,
}

/// Whether fnhcl validates updates (an object against its previous version: transition
/// rules, `optionalOldSelf`, ratcheting). Not yet: cases with `oldObject` are ignored trials
/// until the API exists; then [`validate_update`] calls it and this becomes `true`.
const UPDATE_VALIDATION: bool = true;

/// The messages of validating `object` as an update of `old`. A stand-in for the update API
/// (see [`UPDATE_VALIDATION`]): it is only reached once that flag is set.
fn validate_update(node: &Node, object: &Json, old: &Json) -> Vec<String> {
    fnhcl::schema::validate::validate_update(object, Some(old), node)
        .violations
        .into_iter()
        .filter(|v| v.kind == Kind::Cel)
        .map(|v| v.message)
        .collect()
}

/// The messages of the CEL rules when validating `object` as a new object. Upstream's tables
/// run the CEL validator alone, on objects that need not satisfy the rest of the schema (an
/// `isRoot` object's `metadata`, an embedded resource's fields), so the OpenAPI and
/// unknown-field findings are left out.
fn validate_create(node: &Node, object: &Json) -> Vec<String> {
    validate(object, node)
        .violations
        .into_iter()
        .filter(|v| v.kind == Kind::Cel)
        .map(|v| v.message)
        .collect()
}

/// The schema compiled, or the messages of why it is refused (as the API server refuses a
/// CRD). Rule compile and cost errors are still reported at validation time today; the lead
/// routes them here.
fn load(schema: &Json) -> Result<Node, Vec<String>> {
    Node::compile(schema).map_err(|e| vec![e.to_string()])
}

/// The messages a case produces: the schema's load errors, or the validation's.
fn messages(case: &Case) -> Vec<String> {
    let node = match load(&case.schema) {
        Ok(node) => node,
        Err(messages) => return messages,
    };
    match (&case.object, &case.old_object) {
        // A schema alone: what the API server refuses when the CRD is created.
        (None, _) => fnhcl::schema::crdcheck::findings(&node),
        (Some(object), Some(old)) => validate_update(&node, object, old),
        (Some(object), None) => validate_create(&node, object),
    }
}

/// Checks a case against upstream's expectation.
fn check(case: &Case) -> Result<(), String> {
    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| messages(case))).map_err(
        |panic| {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            format!("panicked: {text}")
        },
    )?;
    if case.valid {
        return if found.is_empty() {
            Ok(())
        } else {
            Err(format!("expected no error, got:\n  {}", found.join("\n  ")))
        };
    }
    // Compile and cost errors are looked for among the validation messages until a load-time
    // API reports them on their own.
    let expected = case
        .errors
        .iter()
        .chain(&case.compile_errors)
        .chain(&case.cost_errors);
    let missing: Vec<&String> = expected
        .filter(|want| !found.iter().any(|m| m.contains(want.as_str())))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "expected messages containing:\n  {}\ngot:\n  {}",
            missing
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n  "),
            if found.is_empty() {
                "(none)".to_string()
            } else {
                found.join("\n  ")
            }
        ))
    }
}

/// The crate directory: cargo's runtime variable when set, else the one compiled in.
fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// The fixture files, sorted, with their stems.
fn files(dir: &Path) -> Result<Vec<(String, File)>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file: File =
            yaml_serde::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((stem, file));
    }
    Ok(out)
}

/// A case's shape: exactly one expectation, or a skip.
fn well_formed(case: &Case) -> Result<(), String> {
    let kinds = [
        case.valid,
        !case.errors.is_empty(),
        !case.compile_errors.is_empty(),
        !case.cost_errors.is_empty(),
    ];
    if case.skip.is_none() && !kinds.contains(&true) {
        return Err("no expectation (valid, errors, compileErrors or costErrors)".into());
    }
    if case.valid && kinds[1..].contains(&true) {
        return Err("`valid: true` with expected errors".into());
    }
    Ok(())
}

/// The ratchet's list: one case name a line.
fn expected_failures(path: &Path) -> Result<BTreeSet<String>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect())
}

fn main() {
    let args = Arguments::from_args();
    let record = std::env::var_os(RECORD).is_some_and(|v| v == "1");
    let dir = manifest_dir().join(DATA);
    let list_path = dir.join(EXPECTED_FAILURES);
    let mut trials = Vec::new();
    let failures = Arc::new(Mutex::new(BTreeSet::new()));
    let counts = Arc::new(Counts::default());
    let (files, mut listed) = match (files(&dir), expected_failures(&list_path)) {
        (Ok(files), Ok(listed)) => (files, listed),
        (Err(e), _) | (_, Err(e)) => {
            trials.push(Trial::test("cel_tables::load", move || {
                Err(Failed::from(e.clone()))
            }));
            (Vec::new(), BTreeSet::new())
        }
    };
    let mut names = BTreeSet::new();
    for (stem, file) in files {
        for case in file.cases {
            let id = format!("{stem}::{}", case.name);
            if !names.insert(id.clone()) {
                trials.push(Trial::test(format!("{id} (duplicate)"), || {
                    Err(Failed::from("two cases of this name"))
                }));
                continue;
            }
            let was_listed = listed.remove(&id);
            if let Err(e) = well_formed(&case) {
                trials.push(Trial::test(id, move || Err(Failed::from(e.clone()))));
                continue;
            }
            if let Some(reason) = &case.skip {
                // Not under --list, whose output tools read line by line.
                if !args.list {
                    println!("skipped {id}: {reason}");
                }
                let reason = reason.clone();
                trials.push(
                    Trial::test(id, move || {
                        println!("skipped: {reason}");
                        Ok(())
                    })
                    .with_kind("skip")
                    .with_ignored_flag(true),
                );
                continue;
            }
            let update = case.old_object.is_some();
            let failures = failures.clone();
            let counts = counts.clone();
            let name = id.clone();
            let trial = Trial::test(id, move || match (check(&case), record, was_listed) {
                (Err(e), true, _) => {
                    failures.lock().unwrap().insert(name.clone());
                    println!("{name}: {e}");
                    Ok(())
                }
                (Ok(()), true, _) | (Ok(()), false, false) => {
                    counts.agree.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                }
                (Err(_), false, true) => {
                    counts.expected.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                }
                (Ok(()), false, true) => Err(Failed::from(format!(
                    "passes now: remove it from {DATA}/{EXPECTED_FAILURES}"
                ))),
                (Err(e), false, false) => Err(Failed::from(e)),
            });
            trials.push(if update && !UPDATE_VALIDATION {
                trial.with_kind("update").with_ignored_flag(true)
            } else {
                trial
            });
        }
    }
    if !record {
        let stale: Vec<String> = listed.into_iter().collect();
        trials.push(Trial::test("cel_tables::expected-failures", move || {
            if stale.is_empty() {
                Ok(())
            } else {
                Err(Failed::from(format!(
                    "{EXPECTED_FAILURES} lists cases that do not exist:\n  {}",
                    stale.join("\n  ")
                )))
            }
        }));
    }
    if record && (args.filter.is_some() || !args.skip.is_empty() || args.exact) {
        eprintln!("{RECORD}=1 records the whole list: run it without a filter");
        std::process::exit(2);
    }
    let conclusion = libtest_mimic::run(&args, trials);
    if !record && !args.list {
        println!(
            "cel tables: {} agree with upstream, {} expected failures",
            counts.agree.load(Ordering::Relaxed),
            counts.expected.load(Ordering::Relaxed)
        );
    }
    if record {
        let failures = failures.lock().unwrap();
        let mut text = String::new();
        for name in failures.iter() {
            text.push_str(name);
            text.push('\n');
        }
        if let Err(e) = std::fs::write(&list_path, text) {
            eprintln!("{}: {e}", list_path.display());
            std::process::exit(1);
        }
        println!(
            "recorded {} expected failures in {}",
            failures.len(),
            list_path.display()
        );
    }
    conclusion.exit();
}
