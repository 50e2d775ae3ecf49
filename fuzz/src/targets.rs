//! What each fuzz target does with one input. The `fuzz_targets/` binaries call these, and
//! the main crate's `tests/fuzz_replay.rs` runs them on the committed corpus in `cargo test`.

use super::{GenValue, function_names, input_text, print_value};
use arbitrary::{Arbitrary, Unstructured};
use fnhcl::eval::proto::{Resource, RunFunctionRequest, State};
use fnhcl::eval::scope::Scope;
use fnhcl::eval::{deadline, expr, function, functions, json, vars};
use fnhcl::source::{SourceMap, composition, yaml, yaml_emit};
use fnhcl::syntax::parse_expression;
use std::collections::BTreeMap;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

static NAMES: LazyLock<Vec<String>> = LazyLock::new(function_names);

/// How long one input may evaluate, as `--timeout` would stop it.
const DEADLINE: Duration = Duration::from_secs(2);

fn request() -> RunFunctionRequest {
    let xr = serde_json::json!({
        "apiVersion": "example.org/v1", "kind": "XThing",
        "metadata": {"name": "x", "labels": {"a": "b"}},
        "spec": {"count": 3, "items": ["a", "b", {"name": "c"}], "name": "n", "big": 1e300},
    });
    RunFunctionRequest {
        observed: State {
            composite: Some(Resource::of(xr)),
            ..State::default()
        },
        ..RunFunctionRequest::default()
    }
}

/// One expression, as `fnhcl eval` evaluates it (`req` holds an observed XR), then its value
/// printed every way fnhcl prints values.
pub fn eval(data: &[u8]) {
    let Some(mut text) = input_text(data, &NAMES, false) else {
        return;
    };
    text.push('\n');
    let mut map = SourceMap::new();
    let id = map.add("expression", text);
    let (parsed, diagnostics) = parse_expression(map.get(id));
    if diagnostics
        .iter()
        .any(|d| d.severity == fnhcl::diagnostics::Severity::Error)
    {
        return;
    }
    let table = functions::builtins();
    let root = Scope::root(&table);
    let mut variables = BTreeMap::new();
    variables.insert("req".to_string(), vars::build_req(&request()));
    let scope = root.child(variables);
    let limit = Some(Instant::now() + DEADLINE);
    let evaluated = deadline::within(limit, || {
        fnhcl::eval::budget::within(|| {
            expr::Evaluator::new(id)
                .with_sources(&map)
                .eval(&parsed, &scope)
        })
    });
    if let Ok(Ok((value, _))) = evaluated {
        let _ = deadline::within(limit, || print_value(&value));
    }
}

/// A whole program through `function run` (what `fnhcl function run` and every render step
/// compute), with an observed XR.
pub fn program(data: &[u8]) {
    let Some(text) = input_text(data, &NAMES, true) else {
        return;
    };
    let request = request();
    let mut map = SourceMap::new();
    let id = map.add("main.hcl", text);
    let limit = Some(Instant::now() + DEADLINE);
    let outcome = deadline::within(limit, || function::run(&mut map, &request, Some(&[id])));
    if let Ok(outcome) = outcome {
        let _ = serde_json::to_string(&outcome.response);
    }
}

/// Input loading: a YAML stream (XRs, observed and extra resources, Compositions and
/// Functions are all read this way) or a JSON document; every document is written back as
/// YAML, which must read back as the same document, and as an HCL value.
pub fn inputs(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        let _ = json::try_implied_value(&value).map(|v| json::to_hcl(&v).len());
    }
    let _ = composition::Composition::parse(text);
    let Ok(documents) = yaml::read_stream(text) else {
        return;
    };
    for document in documents {
        let Ok(value) = serde_json::to_value(&document.value) else {
            continue;
        };
        let written = yaml_emit::to_yaml(&value);
        let again = yaml::read_stream(&written)
            .unwrap_or_else(|e| panic!("fnhcl's YAML does not read back: {e:?}\n{written}"));
        // An empty or null document is skipped when read: it was `null`.
        let again = again.first().map_or(serde_json::Value::Null, |d| {
            serde_json::to_value(&d.value).unwrap()
        });
        assert!(
            same(&value, &again),
            "fnhcl's YAML reads back differently:\n{written}\n{value:?}\n{again:?}"
        );
        if let Ok(v) = json::try_implied_value(&value) {
            std::hint::black_box(json::to_hcl(&v).len());
        }
    }
}

/// A generated value (deep, wide, numbers of any size and precision, strings of any
/// content) through every printer.
pub fn print(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(generated) = GenValue::arbitrary(&mut u) else {
        return;
    };
    let text = generated.to_json_text();
    let Ok(document) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    let Ok(value) = json::try_implied_value(&document) else {
        return;
    };
    let limit = Some(Instant::now() + DEADLINE);
    let _ = deadline::within(limit, || print_value(&value));
}

/// Equal documents, numbers compared by value: output follows Go's JSON-based YAML, where
/// `0.0` is written `0` (as `crossplane render` writes it) and reads back as an integer.
fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => {
            x == y || x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| x == y)
        }
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A language-server session over an in-memory connection: the bytes an editor sends (first
/// byte even: the rest as is, headers and all; odd: the rest describes a session, read by
/// `arbitrary`, see `src/lsp.rs`). The server must not panic, hang or exhaust memory, and what
/// it writes must be framed JSON-RPC.
pub fn lsp(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let Ok(session) = super::lsp::Session::arbitrary_take_rest(Unstructured::new(rest)) else {
            return;
        };
        session.bytes()
    };
    let written = fnhcl::lsp::session(&bytes);
    let mut output = &written[..];
    while let Some(message) = fnhcl::lsp::transport::read_message(&mut output)
        .unwrap_or_else(|e| panic!("the server's own framing is broken: {e}"))
    {
        if let Err(e) = message {
            panic!("the server wrote a body that is not JSON-RPC: {e}");
        }
    }
}

/// The gRPC request path of `fnhcl function serve`: bytes as a `RunFunctionRequest` arrives on
/// the wire, through the depth-checking decoder, the conversion to protobuf JSON, the function
/// under the deadline, the response's conversion and encoding, and its decoding as a caller
/// (`render`) decodes it. A first byte divisible by 3 means "the rest is the wire bytes"; any
/// other means "the rest describes a program" (as `program` reads it), sent inline in a
/// request, so the evaluator's hostile shapes reach the server's path too.
pub fn grpc(data: &[u8]) {
    use fnhcl::grpc::{codec, convert, pb};
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let wire = if first % 3 == 0 {
        rest.to_vec()
    } else {
        let Some(text) = input_text(rest, &NAMES, true) else {
            return;
        };
        let mut request = request();
        request.input = Some(serde_json::json!({
            "apiVersion": "hcl.fn.crossplane.io/v1beta1",
            "kind": "HclInput",
            "hcl": format!("-- main.hcl --\n{text}"),
        }));
        match convert::request_to_pb(&request) {
            Ok(message) => codec::encode(&message),
            Err(_) => return,
        }
    };
    let Ok(message) = codec::decode::<pb::RunFunctionRequest>(&wire) else {
        return;
    };
    let request = convert::request_from_pb(&message);
    let mut map = SourceMap::new();
    let limit = Some(Instant::now() + DEADLINE);
    let Ok(outcome) = deadline::within(limit, || function::run(&mut map, &request, None)) else {
        return;
    };
    let Ok(response) = convert::response_to_pb(&outcome.response) else {
        return;
    };
    let bytes = codec::encode(&response);
    let back = codec::decode::<pb::RunFunctionResponse>(&bytes)
        .expect("a response the server encodes decodes");
    assert_eq!(back, response, "the response survives the wire");
}

/// A CRD with one rule: the input's text is the rule (first line) and, after a line `---`,
/// its `messageExpression`. The CRD is loaded as `fnhcl validate` loads it (the rule parsed,
/// type-checked against the schema, its cost estimated) and a resource is validated against
/// it (the rule run under the API server's cost limits and fnhcl's deadline).
pub fn cel(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (rule, message) = match text.split_once("\n---\n") {
        Some((rule, message)) => (rule, Some(message)),
        None => (text, None),
    };
    let mut validation = serde_json::json!({"rule": rule});
    if let Some(message) = message {
        validation["messageExpression"] = serde_json::json!(message);
    }
    let crd = serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "things.example.org"},
        "spec": {"group": "example.org", "names": {"kind": "Thing", "plural": "things"},
            "scope": "Cluster", "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {
                "type": "object", "x-kubernetes-validations": [validation],
                "properties": {
                    "name": {"type": "string"},
                    "count": {"type": "integer"},
                    "ratio": {"type": "number"},
                    "when": {"type": "string", "format": "date-time"},
                    "every": {"type": "string", "format": "duration"},
                    "items": {"type": "array", "items": {"type": "string"}},
                    "ports": {"type": "array", "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["name"],
                        "items": {"type": "object", "required": ["name"], "properties": {
                            "name": {"type": "string"}, "port": {"type": "integer"}}}},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "any": {"x-kubernetes-int-or-string": true},
                    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
                }}}}}}]}
    });
    let mut schemas = fnhcl::schema::Schemas::new();
    if schemas.add_document("crd.yaml", &crd).is_err() {
        return;
    }
    let _ = fnhcl::schema::inputs::schema_warnings(&schemas);
    let Some(entry) = schemas.get("example.org/v1", "Thing") else {
        return;
    };
    let items: Vec<String> = (0..2_000).map(|i| format!("item-{i}")).collect();
    let resource = serde_json::json!({
        "apiVersion": "example.org/v1", "kind": "Thing", "metadata": {"name": "t"},
        "spec": {"name": "n", "count": 3, "ratio": 0.5, "when": "2024-01-02T03:04:05Z",
            "every": "1h30m", "items": items,
            "ports": [{"name": "http", "port": 80}, {"name": "https", "port": 443}],
            "labels": {"a": "b", "c.d/e": "f"}, "any": 7, "free": {"x": [1, {"y": null}]}}
    });
    let report = fnhcl::schema::validate(&resource, &entry.schema);
    for violation in &report.violations {
        let _ = violation.message.len();
    }
}
