use super::*;
use prost::Message;
use std::path::{Path, PathBuf};

#[test]
fn durations_follow_protojson() {
    for (text, seconds, nanos) in [
        ("60s", 60, 0),
        ("0s", 0, 0),
        ("1.5s", 1, 500_000_000),
        ("0.000001s", 0, 1_000),
        ("2.000000001s", 2, 1),
        ("-0.250s", 0, -250_000_000),
    ] {
        let d = parse_duration(text).unwrap();
        assert_eq!((d.seconds, d.nanos), (seconds, nanos), "{text}");
    }
    // protojson writes 0, 3, 6 or 9 fractional digits.
    assert_eq!(format_duration(&parse_duration("1.5s").unwrap()), "1.500s");
    assert_eq!(format_duration(&parse_duration("60s").unwrap()), "60s");
    assert_eq!(
        format_duration(&parse_duration("-0.25s").unwrap()),
        "-0.250s"
    );
    for bad in ["60", "s", "1.s5", "1.0000000001s", "x5s"] {
        assert!(parse_duration(bad).is_err(), "{bad}");
    }
}

#[test]
fn struct_numbers_are_doubles_written_as_go_writes_them() {
    let json: Json =
        serde_json::from_str(r#"{"a": 3.0, "b": [0.1, 1e21, null, true, "x"], "c": {}}"#).unwrap();
    let s = to_struct(&json).unwrap();
    assert_eq!(
        serde_json::to_string(&from_struct(&s)).unwrap(),
        r#"{"a":3,"b":[0.1,1e+21,null,true,"x"],"c":{}}"#
    );
    assert!(to_struct(&Json::from(3)).is_none());
    let nan = Value {
        kind: Some(Kind::NumberValue(f64::NAN)),
    };
    assert_eq!(from_value(&nan), Json::String("NaN".into()));
}

#[test]
fn bad_json_fields_are_errors_that_name_them() {
    let request: proto::RunFunctionRequest = serde_json::from_str(
        r#"{"observed": {"composite": {"connectionDetails": {"k": "not base64!"}}}}"#,
    )
    .unwrap();
    let e = request_to_pb(&request).unwrap_err();
    assert_eq!(e.field, "observed.composite.connectionDetails.k");
    let response: proto::RunFunctionResponse =
        serde_json::from_str(r#"{"results": [{"severity": "SEVERITY_LOUD"}]}"#).unwrap();
    let e = response_to_pb(&response).unwrap_err();
    assert_eq!(
        e.to_string(),
        "results[0].severity: unknown enum value \"SEVERITY_LOUD\""
    );
}

/// Every request and response file we have, through protobuf bytes and back: the same
/// protobuf JSON, numbers inside Structs put through float64 as the wire does.
#[test]
fn every_request_and_response_survives_the_wire() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = Vec::new();
    for base in [
        root.join("tests/fixtures/eval"),
        root.join("../shared/conformance/eval"),
    ] {
        let Ok(entries) = std::fs::read_dir(&base) else {
            continue;
        };
        for entry in entries.flatten() {
            for name in ["request.json", "expected.json"] {
                let path = entry.path().join(name);
                if path.is_file() {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    assert!(files.len() > 20, "too few files: {}", files.len());
    let mut checked = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let Ok(json) = serde_json::from_str::<Json>(&text) else {
            continue;
        };
        let expected = proto::struct_numbers(&json);
        let again = if path.ends_with("request.json") {
            let Ok(request) = serde_json::from_value::<proto::RunFunctionRequest>(json) else {
                continue;
            };
            let bytes = request_to_pb(&request)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .encode_to_vec();
            let decoded = pb::RunFunctionRequest::decode(bytes.as_slice()).unwrap();
            serde_json::to_value(request_from_pb(&decoded)).unwrap()
        } else {
            let Ok(response) = serde_json::from_value::<proto::RunFunctionResponse>(json) else {
                continue;
            };
            let bytes = response_to_pb(&response)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .encode_to_vec();
            let decoded = pb::RunFunctionResponse::decode(bytes.as_slice()).unwrap();
            serde_json::to_value(response_from_pb(&decoded)).unwrap()
        };
        // What the JSON types keep of the file, through the wire, is what they keep of it
        // without the wire.
        let kept = if path.ends_with("request.json") {
            serde_json::to_value(
                serde_json::from_value::<proto::RunFunctionRequest>(expected).unwrap(),
            )
            .unwrap()
        } else {
            serde_json::to_value(
                serde_json::from_value::<proto::RunFunctionResponse>(expected).unwrap(),
            )
            .unwrap()
        };
        assert_eq!(again, kept, "{}", path.display());
        checked += 1;
    }
    assert!(checked > 20, "only {checked} files checked");
}

/// The fields function-hcl never sets but other functions and Crossplane do — capabilities,
/// required schemas, the current requirements fields, selector namespaces, an operation's
/// output — survive the wire with their protojson names.
#[test]
fn the_newer_protocol_fields_survive_the_wire() {
    let request = serde_json::json!({
        "meta": {"tag": "t", "capabilities": ["CAPABILITY_CAPABILITIES", "CAPABILITY_REQUIRED_SCHEMAS"]},
        "observed": {"composite": {"resource": {"kind": "XR"}}},
        "requiredResources": {"cfg": {"items": [{"resource": {"kind": "ConfigMap"}}]}},
        "requiredSchemas": {"s": {"openapiV3": {"type": "object"}}, "missing": {}},
    });
    let parsed: proto::RunFunctionRequest = serde_json::from_value(request.clone()).unwrap();
    let wire = request_to_pb(&parsed).unwrap();
    assert_eq!(
        wire.meta.as_ref().unwrap().capabilities,
        vec![
            pb::Capability::Capabilities as i32,
            pb::Capability::RequiredSchemas as i32
        ]
    );
    let decoded = pb::RunFunctionRequest::decode(wire.encode_to_vec().as_slice()).unwrap();
    let mut want = request;
    // The request type writes an unset `desired` as null (function-hcl's dumps do).
    want["desired"] = Json::Null;
    assert_eq!(
        serde_json::to_value(request_from_pb(&decoded)).unwrap(),
        want
    );

    let response = serde_json::json!({
        "requirements": {
            "extraResources": {"a": {"apiVersion": "v1", "kind": "ConfigMap", "matchName": "x"}},
            "resources": {"b": {"apiVersion": "v1", "kind": "Secret", "matchLabels": {"labels": {"k": "v"}}, "namespace": "ns"}},
            "schemas": {"c": {"apiVersion": "example.org/v1", "kind": "XR"}},
        },
        "output": {"done": true},
    });
    let parsed: proto::RunFunctionResponse = serde_json::from_value(response.clone()).unwrap();
    let wire = response_to_pb(&parsed).unwrap();
    let selector = &wire.requirements.as_ref().unwrap().resources["b"];
    assert_eq!(selector.namespace.as_deref(), Some("ns"));
    let decoded = pb::RunFunctionResponse::decode(wire.encode_to_vec().as_slice()).unwrap();
    assert_eq!(
        serde_json::to_value(response_from_pb(&decoded)).unwrap(),
        response
    );

    let bad: proto::RunFunctionRequest =
        serde_json::from_str(r#"{"meta": {"capabilities": ["CAPABILITY_TELEPATHY"]}}"#).unwrap();
    assert_eq!(
        request_to_pb(&bad).unwrap_err().to_string(),
        "meta.capabilities: unknown enum value \"CAPABILITY_TELEPATHY\""
    );
}
