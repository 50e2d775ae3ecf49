//! `fnhcl convert` (issue 33 items 2 and 3), as a library: each case folder of
//! `tests/fixtures/convert/` (and, when present, the ported function-patch-and-transform cases
//! of `tests/fixtures/pt/fn/` and the real-world corpus of `tests/fixtures/pt-corpus/`) holds
//! a Composition (`composition.yaml`) and an XR (`xr.yaml`, optional `observed.yaml`). Each is
//! converted — its programs and TODO list snapshotted in `snapshots/convert/`, `check` finding
//! nothing in them — and verified: the original and the converted composition render the same
//! XR status and composed resources.

use fnhcl::convert::{self, verify};
use fnhcl::render::inputs::Io;
use fnhcl::render::{NoRemote, Remote};
use fnhcl::source::SourceMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every case folder below `base` that has a `composition.yaml`, sorted.
fn cases(base: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![base.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "composition.yaml") {
                out.push(dir.clone());
            }
        }
    }
    out.sort();
    out
}

/// The snapshot text of one converted case: each step's program, then the TODO list.
fn transcript(converted: &convert::Converted, programs: bool) -> String {
    let mut out = String::new();
    for step in converted.steps.iter().filter(|_| programs) {
        out.push_str(&format!("=== step {} ===\n{}", step.name, step.program));
    }
    out.push_str("=== TODO ===\n");
    let mut any = false;
    for step in &converted.steps {
        for t in &step.todos {
            any = true;
            match &t.resource {
                Some(r) => out.push_str(&format!("{} / {r}: {}\n", step.name, t.what)),
                None => out.push_str(&format!("{}: {}\n", step.name, t.what)),
            }
        }
    }
    if !any {
        out.push_str("(none)\n");
    }
    out
}

fn name_of(kind: &str, base: &Path, case: &Path) -> String {
    let relative = case
        .strip_prefix(base)
        .unwrap_or(case)
        .display()
        .to_string();
    format!("{kind}__{}", relative.replace('/', "__"))
}

/// Converts one case: the snapshot (programs or TODO list, and the verification's outcome),
/// the check, and (with an XR) the verification. A case fails when `check` finds something in
/// its programs, when the converted composition does not render, or when the two renders
/// differ and no TODO of the conversion explains it.
fn run_case(kind: &str, base: &Path, case: &Path, problems: &mut Vec<String>) {
    let name = name_of(kind, base, case);
    let path = case.join("composition.yaml");
    let text = std::fs::read_to_string(&path).expect("the composition reads");
    let converted = match convert::convert(&path.display().to_string(), &text) {
        Ok(c) => c,
        Err(d) => {
            problems.push(format!("{name}: does not convert: {}", d.summary));
            return;
        }
    };
    for step in &converted.steps {
        for f in &step.findings {
            problems.push(format!(
                "{name}: check finds {} in step {}: {}",
                f.code.as_str(),
                step.name,
                f.summary
            ));
        }
    }
    let todos: usize = converted.steps.iter().map(|s| s.todos.len()).sum();
    // The corpus' programs are long: its snapshots hold the TODO lists only.
    let mut snapshot = transcript(&converted, kind != "corpus");
    snapshot.push_str("=== verify ===\n");
    match verify_case(case, &path, &converted) {
        Verdict::NoXr => snapshot.push_str("no XR\n"),
        Verdict::Equal => snapshot.push_str("equal\n"),
        Verdict::OriginalFails(why) => {
            snapshot.push_str(&format!(
                "not verified: the original does not render: {why}\n"
            ));
        }
        Verdict::ConvertedFails(why) => {
            problems.push(format!(
                "{name}: the converted composition does not render: {why}"
            ));
            snapshot.push_str(&format!(
                "the converted composition does not render: {why}\n"
            ));
        }
        Verdict::Differs(diffs) => {
            if todos == 0 {
                problems.push(format!(
                    "{name}: renders differently, and no TODO says why:\n{diffs}"
                ));
            }
            snapshot.push_str(&format!("differs:\n{diffs}"));
        }
    }
    insta::with_settings!({snapshot_path => "../snapshots/convert", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name.clone(), snapshot);
    });
}

/// What verifying one case found.
enum Verdict {
    NoXr,
    Equal,
    OriginalFails(String),
    ConvertedFails(String),
    Differs(String),
}

/// Renders the original and the converted composition of a case and compares them.
fn verify_case(case: &Path, path: &Path, converted: &convert::Converted) -> Verdict {
    let xr = case.join("xr.yaml");
    if !xr.exists() {
        return Verdict::NoXr;
    }
    let out = tempfile::tempdir().expect("a temporary folder");
    convert::write(converted, out.path()).expect("the conversion writes");
    let observed = case.join("observed.yaml");
    let given = verify::Inputs {
        xr,
        observed_resources: observed.exists().then_some(observed),
        context_data: environment(case),
        ..verify::Inputs::default()
    };
    let mut map = SourceMap::default();
    let mut stdin = std::io::empty();
    let remote = || -> Box<dyn Remote> { Box::new(NoRemote) };
    let mut log = |_: String| {};
    let mut io = Io {
        stdin: &mut stdin,
        remote: &remote,
        log: &mut log,
        quiet: true,
        show_discarded: false,
    };
    let mut diagnostics = Vec::new();
    match verify::verify(
        path,
        &out.path().join("composition.yaml"),
        &given,
        &mut map,
        &mut io,
        &mut diagnostics,
    ) {
        Ok(v) if v.equal() => Verdict::Equal,
        Ok(v) => {
            let mut diffs = String::new();
            for d in &v.diff.documents {
                if d.change != fnhcl::diff::Change::Unchanged {
                    diffs.push_str(&format!("# {} ({})\n", d.identity.title(), d.change.word()));
                    diffs.push_str(&d.unified(3, "original", "converted"));
                }
            }
            Verdict::Differs(diffs)
        }
        Err(which) => {
            let why: Vec<String> = diagnostics
                .iter()
                .filter(|d| d.severity == fnhcl::diagnostics::Severity::Error)
                .map(|d| d.summary.clone())
                .collect();
            let why = why.join("; ");
            match which {
                verify::Failed::Original => Verdict::OriginalFails(why),
                verify::Failed::Converted => Verdict::ConvertedFails(why),
            }
        }
    }
}

/// The environment a case's `environment.yaml` (EnvironmentConfigs) makes, as Crossplane
/// merges their `data` in order: the context entry P&T reads it from.
fn environment(case: &Path) -> Vec<(String, serde_json::Value)> {
    let Ok(text) = std::fs::read_to_string(case.join("environment.yaml")) else {
        return Vec::new();
    };
    let Ok(docs) = fnhcl::source::yaml::read_stream(&text) else {
        return Vec::new();
    };
    let mut merged = serde_json::Map::new();
    for doc in docs {
        let value = serde_json::to_value(&doc.value).unwrap_or_default();
        if let Some(data) = value.get("data").and_then(serde_json::Value::as_object) {
            for (k, v) in data {
                merged.insert(k.clone(), v.clone());
            }
        }
    }
    vec![(
        convert::ENVIRONMENT_KEY.to_string(),
        serde_json::Value::Object(merged),
    )]
}

fn run_kind(kind: &str, base: &Path) -> usize {
    let found = cases(base);
    if found.is_empty() {
        eprintln!("convert: no cases under {}", base.display());
        return 0;
    }
    let mut problems = Vec::new();
    for case in &found {
        run_case(kind, base, case, &mut problems);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    found.len()
}

/// Where the real-world corpus' files are: `tests/fixtures/pt-corpus/` lists the cases, their
/// files live in the shared folder beside the repository (as the shared conformance suites).
fn corpus() -> Vec<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![
        root().join("pt-corpus"),
        manifest.join("../shared/pt-corpus"),
    ]
}

#[test]
fn own_cases_convert_and_verify() {
    run_kind("convert", &root().join("convert"));
}

#[test]
fn corpus_cases_convert_and_verify() {
    for base in corpus() {
        run_kind("corpus", &base);
    }
}

/// The benchmark of issue 33: converting and verifying the whole corpus (and our own cases)
/// should take under a second. `cargo test --release --test convert -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing_convert_and_verify_everything() {
    let start = std::time::Instant::now();
    let mut count = run_kind("convert", &root().join("convert"));
    for base in corpus() {
        count += run_kind("corpus", &base);
    }
    let elapsed = start.elapsed();
    println!(
        "converted and verified {count} compositions in {:.3} s ({:.1} ms each)",
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / count.max(1) as f64
    );
}

/// The ported function-patch-and-transform `fn_test.go` cases (`tests/fixtures/pt/fn/<case>/`:
/// `request.json`, P&T's `expected.json`): each input converted and run as function-hcl on
/// the same request, its response compared with P&T's (`verify::call`). The outcome of every
/// case (equal; not compared and why; what differs) and its TODOs are one snapshot.
#[test]
fn pt_function_cases_convert_and_verify() {
    let dir = root().join("pt/fn");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("convert: no cases under tests/fixtures/pt/fn");
        return;
    };
    let mut cases: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    cases.sort();
    let mut out = String::new();
    let mut different = Vec::new();
    for case in cases {
        let read = |name: &str| -> Option<serde_json::Value> {
            serde_json::from_str(&std::fs::read_to_string(case.join(name)).ok()?).ok()
        };
        let (Some(request), Some(expected)) = (read("request.json"), read("expected.json")) else {
            continue;
        };
        let name = case
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let input = request.get("input").cloned().unwrap_or_default();
        let step = convert::convert_input("step", &input);
        let outcome = verify::call(&request, &expected);
        let word = match &outcome {
            verify::Call::Equal => "equal".to_string(),
            verify::Call::Skipped(why) => format!("not compared: {why}"),
            verify::Call::Different(what) => {
                if step.todos.is_empty() {
                    different.push(format!("{name}: {what}"));
                }
                format!("DIFFERENT: {what}")
            }
        };
        out.push_str(&format!("{name}: {word}\n"));
        for t in &step.todos {
            out.push_str(&format!("  TODO {}\n", t.what));
        }
    }
    insta::with_settings!({snapshot_path => "../snapshots/convert", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("pt-fn", out);
    });
    assert!(
        different.is_empty(),
        "differences no TODO explains:\n{}",
        different.join("\n")
    );
}

/// Every transform the conversion maps, run by P&T (`pt::transforms`) and, as the HCL it
/// converts to, by function-hcl's evaluator, on the same inputs: strings, whole and
/// fractional numbers, bools, arrays. Where P&T gives a value, the HCL must give the same
/// value; where P&T fails, the HCL must fail. The cases where they disagree are the snapshot
/// `transform-divergences` (docs/convert.md explains each).
#[test]
fn transforms_agree_with_pt() {
    use serde_json::json;
    let transforms = [
        json!({"type": "map", "map": {"small": "t3.small", "large": 7}}),
        json!({"type": "match", "match": {"patterns": [
            {"type": "literal", "literal": "small", "result": "s"},
            {"type": "regexp", "regexp": "^l", "result": "l"}], "fallbackValue": "other"}}),
        json!({"type": "match", "match": {"patterns": [
            {"type": "literal", "literal": "small", "result": 1}], "fallbackValue": "other"}}),
        json!({"type": "match", "match": {"patterns": [
            {"type": "literal", "literal": "small", "result": "s"}], "fallbackTo": "Input"}}),
        json!({"type": "math", "math": {"type": "Multiply", "multiply": 3}}),
        json!({"type": "math", "math": {"type": "ClampMin", "clampMin": 2}}),
        json!({"type": "math", "math": {"type": "ClampMax", "clampMax": 2}}),
        json!({"type": "string", "string": {"type": "Format", "fmt": "%s-bucket"}}),
        json!({"type": "string", "string": {"type": "Format", "fmt": "n=%d"}}),
        json!({"type": "string", "string": {"type": "Format", "fmt": "%v!"}}),
        json!({"type": "string", "string": {"type": "Format", "fmt": "%.3s"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "ToUpper"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "ToLower"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "ToBase64"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "FromBase64"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "ToJson"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "ToSha1"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "ToSha256"}}),
        json!({"type": "string", "string": {"type": "Convert", "convert": "ToSha512"}}),
        json!({"type": "string", "string": {"type": "TrimPrefix", "trim": "ab"}}),
        json!({"type": "string", "string": {"type": "TrimSuffix", "trim": "bc"}}),
        json!({"type": "string", "string": {"type": "Regexp", "regexp": {"match": "^(a)(b)?"}}}),
        json!({"type": "string", "string": {"type": "Regexp", "regexp": {"match": "^(a)(b)?", "group": 1}}}),
        json!({"type": "string", "string": {"type": "Join", "join": {"separator": ","}}}),
        json!({"type": "string", "string": {"type": "Join", "join": {"separator": ", "}}}),
        json!({"type": "string", "string": {"type": "Replace", "replace": {"search": "a", "replace": "x"}}}),
        json!({"type": "convert", "convert": {"toType": "string"}}),
        json!({"type": "convert", "convert": {"toType": "int64"}}),
        json!({"type": "convert", "convert": {"toType": "float64"}}),
        json!({"type": "convert", "convert": {"toType": "bool"}}),
        json!({"type": "convert", "convert": {"toType": "object", "format": "json"}}),
    ];
    let inputs = [
        json!("small"),
        json!("large"),
        json!("abc"),
        json!(""),
        json!("5"),
        json!("2.5"),
        json!("true"),
        json!("t"),
        json!("aGVsbG8="),
        json!("{\"a\":1}"),
        json!(5),
        json!(-3),
        json!(2.5),
        json!(true),
        json!(["a", "b"]),
    ];
    let mut out = String::new();
    let (mut agreed, mut total) = (0, 0);
    for t in &transforms {
        let decoded = fnhcl::pt::input::decode_transform(t).expect("the transform decodes");
        let expr = convert::transform::apply(t, "req.composite.v").expect("the transform maps");
        for input in &inputs {
            total += 1;
            let pt = fnhcl::pt::transforms::resolve(&decoded, input);
            let hcl = evaluate(&expr, input);
            let same = match (&pt, &hcl) {
                (Ok(a), Some(b)) => numbers_equal(a, b),
                (Err(_), None) => true,
                _ => false,
            };
            if same {
                agreed += 1;
                continue;
            }
            let pt = match &pt {
                Ok(v) => v.to_string(),
                Err(e) => format!("error ({e})"),
            };
            let hcl = hcl.map_or_else(|| "error".to_string(), |v| v.to_string());
            out.push_str(&format!("{t} on {input}: P&T {pt}; HCL {hcl}\n"));
        }
    }
    out.insert_str(0, &format!("{agreed} of {total} agree\n"));
    insta::with_settings!({snapshot_path => "../snapshots/convert", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("transform-divergences", out);
    });
}

/// The value of `expr` with `req.composite.v` = `input`, as function-hcl evaluates it; `None`
/// when it fails.
fn evaluate(expr: &str, input: &serde_json::Value) -> Option<serde_json::Value> {
    let request: fnhcl::eval::proto::RunFunctionRequest = serde_json::from_value(
        serde_json::json!({"observed": {"composite": {"resource": {"v": input}}}}),
    )
    .ok()?;
    let mut map = SourceMap::default();
    let options = fnhcl::eval::evaluate::Options {
        expr,
        program: None,
        json: true,
        pool: &[],
    };
    match fnhcl::eval::evaluate::expression(&mut map, &options, &request).0 {
        fnhcl::eval::evaluate::Outcome::Value(text) => serde_json::from_str(&text).ok(),
        _ => None,
    }
}

/// JSON equality with numbers compared by value (Go's int64 5 and HCL's 5.0 are one number).
fn numbers_equal(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| numbers_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| numbers_equal(v, w)))
        }
        _ => a == b,
    }
}
