//! `fnhcl validate`: crossplane's report, the JSON/YAML report, diagnostics pointing into the
//! resources' files, schema discovery, and the real CRDs and XRDs of ../shared/schemas (those
//! cases are skipped with a notice when ../shared is absent).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/validate")
}

fn shared_schemas() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("../shared/schemas not found: skipped");
        None
    }
}

fn fnhcl(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("COLUMNS", "100")
        .stdin(Stdio::null())
        .args(args)
        .output()
        .expect("fnhcl runs")
}

fn transcript(out: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../snapshots/validate", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// Every kind of check on our own CRD, in crossplane's words and order.
#[test]
fn the_report_is_crossplanes() {
    let out = fnhcl(&data(), &["validate", ".crds", "resources.yaml"]);
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("report", transcript(&out));
    let skipped = fnhcl(
        &data(),
        &[
            "validate",
            ".crds",
            "resources.yaml",
            "--skip-success-results",
            "-o",
            "json",
        ],
    );
    snapshot!("report_json", transcript(&skipped));
    // Only the valid resource: exit 0; a missing schema fails only when asked.
    let ok = fnhcl(
        &data(),
        &[
            "validate",
            ".crds/widgets.yaml",
            "composition.yaml,resources.yaml",
        ],
    );
    assert_eq!(ok.status.code(), Some(1));
    let missing = fnhcl(&data(), &["validate", ".crds", "configmap.yaml"]);
    assert_eq!(missing.status.code(), Some(0), "{}", transcript(&missing));
    let missing = fnhcl(
        &data(),
        &[
            "validate",
            "--error-on-missing-schemas",
            ".crds",
            "configmap.yaml",
        ],
    );
    snapshot!("missing_schemas", transcript(&missing));
}

/// Machine formats: one finding per problem, at the field in the resources' file.
#[test]
fn findings_point_at_the_fields() {
    let out = fnhcl(
        &data(),
        &["validate", "--format", "github", ".crds", "resources.yaml"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("github", transcript(&out));
}

/// Without schema arguments, the nearest `.crds/` (or `.crd-sources.yaml`) is used; a
/// Composition's step inputs are validated before it.
#[test]
fn schemas_are_discovered_and_composition_inputs_validated() {
    let out = fnhcl(
        &data().join("nested/deeper"),
        &["validate", "../../composition.yaml"],
    );
    snapshot!("discovered", transcript(&out));
    let none = fnhcl(&std::env::temp_dir(), &["validate", "x.yaml"]);
    assert_eq!(none.status.code(), Some(2), "{}", transcript(&none));
    // No schemas given or found: the bundled Crossplane kinds are still checked.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(data().join("composition.yaml"), dir.path().join("c.yaml")).unwrap();
    let bundled_only = fnhcl(dir.path(), &["validate", "c.yaml"]);
    let stdout = String::from_utf8_lossy(&bundled_only.stdout);
    assert!(
        stdout.contains("Kind=Composition, widgets validated successfully")
            && stdout.contains("could not find CRD/XRD for: example.org/v1, Kind=Widget"),
        "{}",
        transcript(&bundled_only)
    );
}

/// Crossplane's own kinds (v2.2.4's CRDs) and function-hcl's `HclInput` need no schema
/// argument: the bundled CRDs check Compositions, their step inputs, XRDs, packages, Usages and
/// operations; a CRD given for one of those kinds wins over the bundled one.
#[test]
fn crossplane_kinds_are_bundled() {
    let out = fnhcl(&data(), &["validate", ".crds", "bundled/crossplane.yaml"]);
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("bundled", transcript(&out));
    let own = fnhcl(
        &data(),
        &[
            "validate",
            "bundled/own",
            "bundled/crossplane.yaml",
            "--skip-success-results",
        ],
    );
    let stdout = String::from_utf8_lossy(&own.stdout);
    assert!(
        stdout.contains("Kind=Function, function-hcl : spec.channel: Required value"),
        "{stdout}"
    );
    assert!(stdout.contains("Kind=HclInput"), "{stdout}");
}

/// Claims are validated against the claim CRD Crossplane builds from the XRD's `claimNames`
/// (crossplane#5362): Crossplane's claim fields (`compositeDeletePolicy` with the XRD's
/// default, references, a connection secret without a namespace), `spec` required; the XRD
/// itself is checked against the bundled XRD CRD in the same run.
#[test]
fn claims_are_validated_through_their_xrd() {
    let out = fnhcl(
        &data(),
        &[
            "validate",
            "bundled/xrd.yaml",
            "bundled/xrd.yaml,bundled/claims.yaml",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("claims", transcript(&out));
}

/// Resources on stdin, as `fnhcl render … | fnhcl validate SCHEMAS -`.
#[test]
fn resources_are_read_from_stdin() {
    let resources = std::fs::read(data().join("resources.yaml")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fnhcl"))
        .current_dir(data())
        .args(["validate", ".crds", "-", "--skip-success-results"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&resources).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .ends_with("Total 3 resources: 1 missing schemas, 1 success cases, 1 failure cases\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("[✓]"), "{stdout}");
}

/// The real schemas: a provider CRD, XRDs (XR and claim with Crossplane's fields), and the
/// XRD CRD whose CEL rules run.
#[test]
fn real_crds_and_xrds() {
    let Some(shared) = shared_schemas() else {
        return;
    };
    let crds = shared.join("crds");
    let xrd = shared.join("xrds/function-hcl_quickstart_xrd.yaml");
    let schemas = format!("{},{}", crds.display(), xrd.display());
    let out = fnhcl(&data(), &["validate", &schemas, "xrs.yaml"]);
    snapshot!("real_schemas", transcript(&out));
    // Provider resources: CEL rules after defaulting (managementPolicies), embedded resources
    // that keep unknown fields, rules that fail to evaluate, wrong types.
    let out = fnhcl(
        &data(),
        &["validate", &crds.display().to_string(), "real.yaml"],
    );
    snapshot!("real_providers", transcript(&out));
}

/// `render --xrd` validates the XR it defaults (crossplane#6809): crossplane v2.2.4 renders
/// such an XR, so each problem is a warning at the XR file's field and the render succeeds;
/// an apiVersion the XRD does not define is refused, as crossplane refuses it.
#[test]
fn render_xrd_validates_the_xr() {
    let dir = data().join("render-xrd");
    let out = fnhcl(&dir, &["render", "xr.yaml", "hcl", "--xrd", "xrd.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("---\napiVersion: example.org/v1\n"));
    snapshot!(
        "render_xrd",
        String::from_utf8_lossy(&out.stderr).into_owned()
    );
    let refused = fnhcl(&dir, &["render", "xr-v2.yaml", "hcl", "--xrd", "xrd.yaml"]);
    assert_eq!(refused.status.code(), Some(2), "{}", transcript(&refused));
    snapshot!("render_xrd_version", transcript(&refused));
}

/// `render --validate`: the stream is printed; each problem is an error at the HCL that wrote
/// the field (the key when written literally, else the nearest written object).
#[test]
fn render_validate_points_at_the_hcl() {
    let dir = data().join("render");
    let out = fnhcl(
        &dir,
        &["render", "xr.yaml", "hcl", "--validate", "../.crds"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("---\napiVersion: example.org/v1\n"));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    snapshot!("render_validate", stderr);
    let json = fnhcl(
        &dir,
        &[
            "render",
            "xr.yaml",
            "hcl",
            "--validate",
            "../.crds",
            "--format",
            "json",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&json.stderr).unwrap();
    let unknown = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "V702")
        .unwrap();
    assert_eq!(
        (unknown["line"].as_u64(), unknown["column"].as_u64()),
        (Some(12), Some(7))
    );
    assert_eq!(unknown["file"], "hcl/main.hcl");
}

/// `test --validate`: a case whose output breaks its schemas fails, with the problems.
#[test]
fn test_validate_fails_cases_with_invalid_output() {
    let dir = data().join("render");
    // The tested folder holds the composition the case's `source` names (`../../hcl`): a case
    // may only name files inside the tested folder.
    let plain = fnhcl(&dir, &["test", "."]);
    assert_eq!(plain.status.code(), Some(0), "{}", transcript(&plain));
    let out = fnhcl(&dir, &["test", ".", "--validate", "../.crds"]);
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("the output breaks its schemas (--validate):"),
        "{stdout}"
    );
    assert!(
        stdout.contains("spec.colour: Invalid value: \"colour\": unknown field: \"colour\""),
        "{stdout}"
    );
}

/// A CRD of kind Widget whose `spec` has the rule `rule` and a `digits` field with the
/// pattern `^\d+$`, and one Widget with `spec`, written into a new directory.
fn widget_case(rule: &str, spec: serde_json::Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let crd = serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.org"},
        "spec": {
            "group": "example.org",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {
                "openAPIV3Schema": {"type": "object", "properties": {"spec": {
                    "type": "object",
                    "x-kubernetes-validations": [{"rule": rule}],
                    "properties": {
                        "items": {"type": "array", "items": {"type": "integer"}},
                        "names": {"type": "array", "items": {"type": "string"}},
                        "word": {"type": "string"},
                        "digits": {"type": "string", "pattern": "^\\d+$"}
                    }
                }}}
            }}]
        }
    });
    let widget = serde_json::json!({
        "apiVersion": "example.org/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec
    });
    std::fs::create_dir(dir.path().join("crds")).unwrap();
    std::fs::write(dir.path().join("crds/crd.yaml"), crd.to_string()).unwrap();
    std::fs::write(dir.path().join("widget.yaml"), widget.to_string()).unwrap();
    dir
}

/// Rules past cel-go's size and depth limits are findings about the rule: no stack overflow,
/// no panic printed.
#[test]
fn oversized_rules_are_findings() {
    let chain = format!("{} > 0", vec!["1"; 10_000].join(" + "));
    let nested = format!("{}true{}", "(".repeat(100_000), ")".repeat(100_000));
    for (rule, expected) in [
        (
            chain,
            "spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded",
        ),
        (
            nested,
            "spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: size: 200004, limit 100000",
        ),
    ] {
        let dir = widget_case(&rule, serde_json::json!({}));
        let out = fnhcl(dir.path(), &["validate", "crds", "widget.yaml"]);
        let text = transcript(&out);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            &text[..text.len().min(2000)]
        );
        assert!(text.contains(expected), "{}", &text[..text.len().min(2000)]);
        assert!(!text.contains("panicked") && !text.contains("overflow"));
        // The API server would refuse the CRD: a warning names the rule, shortened.
        assert!(
            text.contains("V706 refused-schema"),
            "{}",
            &text[..text.len().min(2000)]
        );
        assert!(text.len() < 3_000, "{}", &text[..text.len().min(2000)]);
    }
}

/// `pattern` and `matches` use RE2's ASCII classes; `matches` per item and `map`/`filter` over
/// 20,000 items finish (the regex compiled once, the lists built in one pass).
#[test]
fn regexes_are_re2s_and_long_lists_are_linear() {
    let dir = widget_case(
        r"self.word.matches('^\\w+$')",
        serde_json::json!({"word": "café", "digits": "١٢٣"}),
    );
    let out = fnhcl(dir.path(), &["validate", "crds", "widget.yaml"]);
    snapshot!("re2", transcript(&out));
    let names: Vec<String> = (0..20_000).map(|i| format!("abc{i}")).collect();
    let items: Vec<i64> = (0..20_000).collect();
    let dir = widget_case(
        "self.names.all(n, n.matches('^[a-z]+[0-9]*$')) && self.items.map(x, x * 2).filter(x, x % 4 == 0).size() == 10000",
        serde_json::json!({"names": names, "items": items}),
    );
    let out = fnhcl(dir.path(), &["validate", "crds", "widget.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
}

/// The API server's decoding and strategy, end to end: a null the schema does not allow is
/// absent (not an error), an integer is an `integer`, list-map keys are unique, and an XRD a
/// cluster refuses is a V705 error (apiextensions-apiserver v0.35 `defaulting/prunenulls.go`,
/// `listtype/validation.go`; crossplane v2.2.4 `apis/apiextensions/v2/xrd_types.go`).
#[test]
fn nulls_integers_list_maps_and_refused_xrds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xrd = |extra: serde_json::Value| {
        let mut doc = serde_json::json!({
            "apiVersion": "apiextensions.crossplane.io/v2", "kind": "CompositeResourceDefinition",
            "metadata": {"name": "xbuckets.example.org"},
            "spec": {
                "group": "example.org",
                "names": {"kind": "XBucket", "plural": "xbuckets"},
                "versions": [{"name": "v1", "served": true, "referenceable": true, "schema": {
                    "openAPIV3Schema": {"type": "object", "properties": {"spec": {
                        "type": "object",
                        "properties": {
                            "note": {"type": "string"},
                            "labels": {"type": "object"},
                            "ports": {"type": "array", "x-kubernetes-list-type": "map",
                                      "x-kubernetes-list-map-keys": ["name"],
                                      "items": {"type": "object", "properties": {
                                          "name": {"type": "string"}, "port": {"type": "integer"}}}}
                        }
                    }}}
                }}]
            }
        });
        doc["spec"]
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        doc.to_string()
    };
    let xr = "apiVersion: example.org/v1\nkind: XBucket\nmetadata: {name: b, namespace: default}\n\
              spec:\n  note: null\n  labels: 7\n  ports:\n  - {name: http, port: 80}\n  - {name: http, port: 8080}\n";
    std::fs::write(dir.path().join("xr.yaml"), xr).unwrap();
    std::fs::write(dir.path().join("xrd.yaml"), xrd(serde_json::json!({}))).unwrap();
    let out = fnhcl(dir.path(), &["validate", "xrd.yaml", "xr.yaml"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains("note"), "{stdout}");
    assert!(
        stdout.contains("spec.labels: Invalid value: \"integer\": spec.labels in body must be of type object: \"integer\""),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("spec.ports[1]: Duplicate value: map[string]interface {}{\"name\":\"http\"}"),
        "{stdout}"
    );
    std::fs::write(
        dir.path().join("xrd.yaml"),
        xrd(serde_json::json!({"claimNames": {"kind": "Bucket", "plural": "buckets"}})),
    )
    .unwrap();
    let out = fnhcl(dir.path(), &["validate", "xrd.yaml", "xr.yaml"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("V705"), "{stderr}");
    assert!(
        stderr.contains("Claims aren't supported in apiextensions.crossplane.io/v2"),
        "{stderr}"
    );
}

/// What the API server refuses when the CRD is created is a V706 warning at load, in its
/// words (apiextensions v0.35 `validation.go`: cost limits; `compilation.go`: type errors),
/// while crossplane's per-object report is unchanged: a rule that does not type-check is a
/// `rule compile error` on each object, an expensive one still runs.
#[test]
fn rules_a_cluster_would_refuse_are_warned_about_at_load() {
    // A nested comprehension over unbounded lists: estimated far over 10,000,000.
    let dir = widget_case(
        "self.names.all(a, self.names.all(b, self.names.all(c, a + b + c != '')))",
        serde_json::json!({"names": ["x", "y"]}),
    );
    let out = fnhcl(dir.path(), &["validate", "crds", "widget.yaml"]);
    let text = transcript(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("V706 refused-schema"), "{text}");
    assert!(
        text.contains("estimated rule cost exceeds budget by factor of more than 100x"),
        "{text}"
    );
    // A field the schema does not declare: undefined for the checker.
    let dir = widget_case("self.wrod == 'x'", serde_json::json!({"word": "x"}));
    let out = fnhcl(dir.path(), &["validate", "crds", "widget.yaml"]);
    let text = transcript(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("spec: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'wrod'"),
        "{text}"
    );
    assert!(text.contains("V706 refused-schema"), "{text}");
}

/// One document per command (issue 32): `--format json`, `--output json` and the hidden `-o
/// json` print the same bytes, the diagnostics document with the report's totals and
/// resources; `--output yaml` is that document as YAML.
#[test]
fn json_and_output_print_one_document() {
    let args = |extra: &[&'static str]| {
        let mut all = vec!["validate", ".crds", "resources.yaml"];
        all.extend_from_slice(extra);
        fnhcl(&data(), &all)
    };
    let format = args(&["--format", "json"]);
    let output = args(&["--output", "json"]);
    let short = args(&["-o", "json"]);
    assert_eq!(format.status.code(), Some(1), "{}", transcript(&format));
    assert_eq!(format.stdout, output.stdout);
    assert_eq!(format.stdout, short.stdout);
    let document: serde_json::Value = serde_json::from_slice(&format.stdout).unwrap();
    let keys: Vec<&String> = document.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["diagnostics", "resources", "summary"]);
    let summary = &document["summary"];
    for key in [
        "errors",
        "warnings",
        "total",
        "valid",
        "invalid",
        "missingSchemas",
    ] {
        assert!(summary[key].is_u64(), "summary.{key}: {summary}");
    }
    assert_eq!(
        summary["invalid"].as_u64(),
        Some(
            document["resources"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["status"] == "invalid")
                .count() as u64
        )
    );
    assert!(summary["errors"].as_u64().unwrap() > 0, "{summary}");
    let yaml = args(&["--output", "yaml"]);
    let from_yaml: serde_json::Value = yaml_serde::from_slice(&yaml.stdout).unwrap();
    assert_eq!(from_yaml, document);
    // `-o` is hidden from the help; `--output` is documented.
    let help = fnhcl(&data(), &["validate", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--output <FORMAT>"), "{help}");
    assert!(!help.contains("-o,"), "{help}");
}

/// `render | validate` of an XR: render leaves the input's `spec` out, so its required fields
/// are missing; the report says so and points at `-x` and `render --validate`. An XR that
/// has its own fields gets no such hint.
#[test]
fn a_rendered_xr_missing_its_spec_gets_a_hint() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xrd = serde_json::json!({
        "apiVersion": "apiextensions.crossplane.io/v2", "kind": "CompositeResourceDefinition",
        "metadata": {"name": "xapps.example.org"},
        "spec": {
            "group": "example.org", "scope": "Namespaced",
            "names": {"kind": "XApp", "plural": "xapps"},
            "versions": [{"name": "v1", "served": true, "referenceable": true, "schema": {
                "openAPIV3Schema": {"type": "object", "properties": {"spec": {
                    "type": "object", "required": ["image"],
                    "properties": {"image": {"type": "string"}}
                }}}
            }}]
        }
    });
    std::fs::write(dir.path().join("xrd.yaml"), xrd.to_string()).unwrap();
    let rendered = "apiVersion: example.org/v1\nkind: XApp\nmetadata: {name: a, namespace: default}\n\
                    spec:\n  crossplane:\n    resourceRefs: []\nstatus: {}\n";
    std::fs::write(dir.path().join("rendered.yaml"), rendered).unwrap();
    let out = fnhcl(
        dir.path(),
        &["--color", "never", "validate", "xrd.yaml", "rendered.yaml"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    snapshot!("rendered_xr_hint", transcript(&out));
    let json = fnhcl(
        dir.path(),
        &["validate", "--format", "json", "xrd.yaml", "rendered.yaml"],
    );
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let help = document["diagnostics"][0]["help"].as_str().unwrap_or("");
    assert!(help.contains("render with `-x`"), "{document}");
    let own = "apiVersion: example.org/v1\nkind: XApp\nmetadata: {name: a, namespace: default}\n\
               spec:\n  replicas: 2\n";
    std::fs::write(dir.path().join("own.yaml"), own).unwrap();
    let out = fnhcl(
        dir.path(),
        &["--color", "never", "validate", "xrd.yaml", "own.yaml"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("render with"),
        "{}",
        transcript(&out)
    );
}
