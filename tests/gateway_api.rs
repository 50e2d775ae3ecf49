//! Gateway API's CEL tests as fixtures: the rows of kubernetes-sigs/gateway-api's
//! `tests/cel/*_test.go`, ported to `tests/data/gateway-api/cases/*.yaml`, each validated
//! against the Gateway API CRDs of each channel its file names (`standard`, `experimental`)
//! as `fnhcl validate` validates it (`fnhcl::schema`): one trial per case and channel, named
//! `<channel>/<upstream test>/<subtest>`.
//!
//! A case expects the resource to be `valid`, or its `errors` substrings in what the API server
//! reports (the messages joined, as they are in the API server's one error; upstream also
//! accepts "longer" where it wrote "more"). A message saying our CEL could not compile or run
//! a rule does not count as an expected error, though it quotes the rule's message. A case
//! with `skip` is listed as ignored.
//!
//! The CRDs are public data and are not part of this repository: they are read from
//! `../shared/schemas/gateway-api/{standard,experimental}/` (or the folder named by
//! `GATEWAY_API_CRDS`); without them every case is ignored, with a notice.
//!
//! The ratchet: `tests/data/gateway-api/EXPECTED-FAILURES.txt` lists the cases allowed to fail
//! today (our CEL lacks some of Kubernetes' libraries). A listed case that passes fails (remove
//! it: the list only shrinks); a listed case that does not exist fails. `GATEWAY_RECORD=1
//! cargo test --test gateway_api` rewrites the list from the cases that fail.

use fnhcl::schema::{Schemas, validate};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

const DATA: &str = "tests/data/gateway-api";
const EXPECTED_FAILURES: &str = "tests/data/gateway-api/EXPECTED-FAILURES.txt";
const CHANNELS: [&str; 2] = ["standard", "experimental"];

/// The crate directory: cargo's runtime variable when set, else the one compiled in.
fn manifest_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// The folder holding `standard/` and `experimental/`.
fn crd_root() -> PathBuf {
    match std::env::var_os("GATEWAY_API_CRDS") {
        Some(dir) => PathBuf::from(dir),
        None => manifest_dir().join("../shared/schemas/gateway-api"),
    }
}

/// One ported row.
struct Case {
    /// `TestFunction/subtest name`, as upstream names it.
    name: String,
    /// The case file's stem (`httproute`).
    file: String,
    /// `standard` and/or `experimental`: the CRDs upstream runs the file against.
    channels: Vec<String>,
    /// The object upstream creates.
    resource: Json,
    /// The substrings expected in the error; empty when the resource is valid.
    errors: Vec<String>,
    /// Why the case is not run.
    skip: Option<String>,
}

/// Reads one YAML document.
fn read_yaml(path: &Path) -> Result<Json, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let docs = fnhcl::source::yaml::read_stream(&text)
        .map_err(|e| format!("{}: {e:?}", path.display()))?;
    let doc = docs
        .into_iter()
        .next()
        .ok_or_else(|| format!("{}: empty", path.display()))?;
    serde_json::to_value(&doc.value).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every case of every file in `tests/data/gateway-api/cases`, in file order.
fn cases() -> Result<Vec<Case>, String> {
    let dir = manifest_dir().join(DATA).join("cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let doc = read_yaml(&path)?;
        let file = path.file_stem().unwrap().to_string_lossy().into_owned();
        let channels: Vec<String> = doc["channels"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        if channels.is_empty() || channels.iter().any(|c| !CHANNELS.contains(&c.as_str())) {
            return Err(format!(
                "{}: `channels` must list standard and/or experimental",
                path.display()
            ));
        }
        let rows = doc["cases"]
            .as_array()
            .ok_or_else(|| format!("{}: no `cases` list", path.display()))?;
        for row in rows {
            let name = row["name"]
                .as_str()
                .ok_or_else(|| format!("{}: a case without a name", path.display()))?
                .to_string();
            let errors: Vec<String> = row["errors"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            let valid = row["valid"].as_bool().unwrap_or(false);
            if valid != errors.is_empty() {
                return Err(format!(
                    "{}: `{name}` needs either `valid: true` or `errors`",
                    path.display()
                ));
            }
            out.push(Case {
                name,
                file: file.clone(),
                channels: channels.clone(),
                resource: row["resource"].clone(),
                errors,
                skip: row["skip"].as_str().map(String::from),
            });
        }
    }
    Ok(out)
}

/// The CRDs of one channel, compiled once.
fn load(dir: &Path) -> Result<Schemas, String> {
    let mut schemas = Schemas::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    for file in files {
        let doc = read_yaml(&file)?;
        if doc["kind"] != "CustomResourceDefinition" {
            continue;
        }
        schemas
            .add_document(&file.display().to_string(), &doc)
            .map_err(|e| format!("{}: {e:?}", file.display()))?;
    }
    Ok(schemas)
}

/// Each channel's schemas, compiled the first time a case of it runs.
struct Channels {
    root: PathBuf,
    compiled: [OnceLock<Result<Schemas, String>>; 2],
}

impl Channels {
    fn get(&self, channel: &str) -> Result<&Schemas, String> {
        let i = CHANNELS.iter().position(|c| *c == channel).unwrap_or(0);
        self.compiled[i]
            .get_or_init(|| load(&self.root.join(channel)))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// Whether upstream's check (`celErrorStringMatches`) finds `want` in `got`: the substring,
/// or it with "more" read as "longer" (Kubernetes before 1.32 said "longer").
fn matches(got: &str, want: &str) -> bool {
    got.contains(want) || got.contains(&want.replace("more", "longer"))
}

/// Whether `message` says our CEL could not compile or run a rule (an unknown function, say):
/// the API server accepted the CRD, so it never says that. Such a message quotes the rule's
/// own message, which must not count as the error upstream expects.
fn engine_failure(message: &str) -> bool {
    [
        "Undeclared reference",
        "compilation failed:",
        "the CEL interpreter failed:",
    ]
    .iter()
    .any(|m| message.contains(m))
}

/// Validates one case against the CRDs of `channel`; the reason it fails.
fn check(case: &Case, channel: &str, channels: &Channels) -> Result<(), String> {
    let schemas = channels.get(channel)?;
    let api = case.resource["apiVersion"].as_str().unwrap_or("");
    let kind = case.resource["kind"].as_str().unwrap_or("");
    let entry = schemas
        .get(api, kind)
        .ok_or_else(|| format!("no CRD for {api}, Kind={kind}"))?;
    let report = validate(&case.resource, &entry.schema);
    let messages: Vec<&str> = report
        .violations
        .iter()
        .map(|v| v.message.as_str())
        .collect();
    let all = messages.join(", ");
    if case.errors.is_empty() {
        return match messages.is_empty() {
            true => Ok(()),
            false => Err(format!("expected valid, got: {all}")),
        };
    }
    if messages.is_empty() {
        return Err(format!("expected errors {:?}, got none", case.errors));
    }
    // The API server's error lists every message; only ours that it could also say count.
    let got = messages
        .iter()
        .filter(|m| !engine_failure(m))
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    let missing: Vec<&String> = case.errors.iter().filter(|w| !matches(&got, w)).collect();
    match missing.is_empty() {
        true => Ok(()),
        false => Err(format!("missing {missing:?} in: {all}")),
    }
}

/// The ratchet's case names (`#` comments and blank lines ignored).
fn expected_failures() -> Result<BTreeSet<String>, String> {
    let path = manifest_dir().join(EXPECTED_FAILURES);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect())
}

const HEADER: &str = "\
# Gateway API CEL cases (tests/gateway_api.rs) that fail today, one `channel/name` per line.
# A listed case that passes fails the suite: remove it, the list only shrinks. Rewritten by
# `GATEWAY_RECORD=1 cargo test --test gateway_api` (the CRDs must be present).
";

fn main() {
    let args = Arguments::from_args();
    let record = std::env::var_os("GATEWAY_RECORD").is_some_and(|v| v == "1");
    let root = crd_root();
    let present = CHANNELS.iter().all(|c| root.join(c).is_dir());
    let mut trials = Vec::new();
    let cases = match cases() {
        Ok(cases) => cases,
        Err(e) => {
            trials.push(Trial::test("gateway-api/cases", move || {
                Err(Failed::from(e.clone()))
            }));
            Vec::new()
        }
    };
    let mut listed = match expected_failures() {
        Ok(set) => set,
        Err(e) if !record => {
            trials.push(Trial::test("gateway-api/expected-failures", move || {
                Err(Failed::from(e.clone()))
            }));
            BTreeSet::new()
        }
        Err(_) => BTreeSet::new(),
    };
    if !present {
        println!(
            "notice: the Gateway API CRDs ({}/{{standard,experimental}}) are absent; every case is ignored",
            root.display()
        );
    }
    let channels = Arc::new(Channels {
        root,
        compiled: [OnceLock::new(), OnceLock::new()],
    });
    let failing = Arc::new(Mutex::new(BTreeSet::new()));
    let mut names = BTreeSet::new();
    for case in cases {
        let case = Arc::new(case);
        for channel in &case.channels {
            let name = format!("{channel}/{}", case.name);
            if !names.insert(name.clone()) {
                trials.push(Trial::test(format!("duplicate/{name}"), move || {
                    Err(Failed::from(format!("two cases are named `{name}`")))
                }));
                continue;
            }
            let listed_here = listed.remove(&name);
            let ignored = !present || case.skip.is_some();
            let kind = match &case.skip {
                Some(reason) => format!("{} skip: {reason}", case.file),
                None => case.file.clone(),
            };
            let (case, channel) = (case.clone(), channel.clone());
            let (channels, failing) = (channels.clone(), failing.clone());
            let trial = Trial::test(name.clone(), move || {
                let outcome = check(&case, &channel, &channels);
                if record {
                    if outcome.is_err() {
                        failing.lock().unwrap().insert(name.clone());
                    }
                    return Ok(());
                }
                match (outcome, listed_here) {
                    (Ok(()), false) | (Err(_), true) => Ok(()),
                    (Err(e), false) => Err(Failed::from(e)),
                    (Ok(()), true) => Err(Failed::from(format!(
                        "passes now: remove it from {EXPECTED_FAILURES}"
                    ))),
                }
            });
            trials.push(trial.with_kind(kind).with_ignored_flag(ignored));
        }
    }
    if !record && !listed.is_empty() {
        let stale: Vec<String> = listed.into_iter().collect();
        trials.push(Trial::test("gateway-api/expected-failures", move || {
            Err(Failed::from(format!(
                "{EXPECTED_FAILURES} lists cases that do not exist: {}",
                stale.join(", ")
            )))
        }));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    if record && present && args.filter.is_none() && args.skip.is_empty() {
        let failing = failing.lock().unwrap();
        let mut text = String::from(HEADER);
        for name in failing.iter() {
            text.push_str(name);
            text.push('\n');
        }
        let path = manifest_dir().join(EXPECTED_FAILURES);
        std::fs::write(&path, text).expect("writing the expected failures");
        println!(
            "gateway-api: {} failing cases recorded in {EXPECTED_FAILURES}",
            failing.len()
        );
    }
    conclusion.exit();
}
